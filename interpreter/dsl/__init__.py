"""The rules DSL: Lark grammar, parser to a positioned AST, compiler."""
