"""The DSL's syntax error and nesting limits, shared by the parser front and the Lark parser."""

from __future__ import annotations

# Nesting bounds (docs/dsl.md, "Limits"): the parser, the compiler and the compiled closures all
# recurse over the nesting, so it is checked before any of them runs.
MAX_BRACKETS = 32  # '(' and '[' open at once
MAX_DEPTH = 64  # statements, blocks and expressions one inside the other
MAX_TERMS = 5_000  # names, numbers and texts in one DSL text, counted before it is parsed
_MAX_TREE = 256  # Lark's parse tree (several levels per bracket): guards the transformer


class DslSyntaxError(Exception):
    """A DSL error at (line, col) inside the DSL text (1-based); the loader adds the file place."""

    def __init__(self, message: str, line: int, col: int, code: str = "definition/dsl-syntax"):
        super().__init__(message)
        self.message, self.line, self.col, self.code = message, line, col, code
