"""Generic primitives beyond the core DSL, one module each (boards, tracks, bags, markets...).

Every module in this package is imported when a program is built, so a primitive registers itself:
builtin queries with ``interpreter.dsl.builtins.builtin``, state-changing procedures (``do name(...)``)
with ``interpreter.dsl.builtins.procedure``, and board kinds with ``interpreter.boards.board_kind``.
Primitives name no game; each is documented in docs/dsl.md and tested on a fixture game.
"""
import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
