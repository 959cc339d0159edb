"""DSL text to AST nodes: the front every caller uses.

A text is parsed once (``mason.dsl.lark_parser``, imported only when a text must really be parsed).
Syntax trees read from the compile cache (``mason.model.cache``) are *given* to ``TREES`` beforehand,
so a game compiled from the cache parses nothing and never imports Lark; while a compilation
*records*, every tree it asks for is noted, so the cache can keep them for the next run.
"""

from __future__ import annotations

from typing import Any

from mason.dsl import ast as A
from mason.dsl.kept import Kept
from mason.dsl.syntax import MAX_BRACKETS, MAX_DEPTH, DslSyntaxError

__all__ = ["MAX_BRACKETS", "MAX_DEPTH", "TREES", "DslSyntaxError", "parse_effect", "parse_expression"]

# (text, start) -> AST: given by the compile cache for texts parsed by an earlier run, recorded for it
TREES = Kept()


def parse_effect(text: str) -> A.Block:
    """Parse a block of statements (a card effect, a turn step, an action)."""
    return _ast(text, "effect")


def parse_expression(text: str) -> A.Expr:
    """Parse a single expression (a condition or a value)."""
    return _ast(text, "expression")


def _ast(text: str, start: str) -> Any:
    key = (text, start)
    ast = TREES.known.get(key) if type(text) is str else None
    if ast is None:
        from mason.dsl import lark_parser

        ast = lark_parser.parse(text, start)  # raises DslSyntaxError for a bad text (Lark keeps its own memo)
    TREES.used(key, ast)
    return ast
