"""``mason lsp``: a Language Server for rule files (diagnostics, completion, hover, definitions).

``folders`` finds the game a file belongs to and checks it as ``mason validate`` does, over the
editor's unsaved texts; ``index`` finds where every name is declared and used; ``help`` says what a
name, a builtin, a statement, an effect or a rule id means; ``server`` wires them to the protocol
(pygls). Docs: docs/editors.md.
"""
