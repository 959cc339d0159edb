"""DSL text to AST nodes: the front every caller uses.

A text is parsed once (``mason.dsl.lark_parser``, imported only when a text must really be parsed).
Syntax trees read from the compile cache (``mason.model.cache``) are *given* here beforehand, so a
game compiled from the cache parses nothing and never imports Lark; while a compilation *records*,
every tree it asks for is noted, so the cache can keep them for the next run.
"""

from __future__ import annotations

from typing import Any

from mason.dsl import ast as A
from mason.dsl.syntax import MAX_BRACKETS, MAX_DEPTH, DslSyntaxError

__all__ = ["MAX_BRACKETS", "MAX_DEPTH", "DslSyntaxError", "give", "parse_effect", "parse_expression", "recording"]

# (text, start) -> AST: trees given by the compile cache, for texts parsed by an earlier run
_given: dict[tuple[str, str], object] = {}
_recorders: list[dict] = []  # open recordings: each gets (text, start) -> AST of every text asked for


def parse_effect(text: str) -> A.Block:
    """Parse a block of statements (a card effect, a turn step, an action)."""
    return _ast(text, "effect")


def parse_expression(text: str) -> A.Expr:
    """Parse a single expression (a condition or a value)."""
    return _ast(text, "expression")


def _ast(text: str, start: str) -> Any:
    key = (text, start)
    ast = _given.get(key) if type(text) is str else None
    if ast is None:
        from mason.dsl import lark_parser

        ast = lark_parser.parse(text, start)  # raises DslSyntaxError for a bad text
    for rec in _recorders:
        rec[key] = ast
    return ast


def give(trees: dict) -> None:
    """Trees parsed by an earlier run, ``(text, start) -> AST``: used instead of parsing those texts.
    Only trees this parser produced for exactly that text may be given (the compile cache keys them
    by the text and the code that parsed it)."""
    _given.update(trees)


class recording:
    """``with recording() as trees:`` collects ``(text, start) -> AST`` for every text parsed inside."""

    def __enter__(self) -> dict:
        self.trees: dict = {}
        _recorders.append(self.trees)
        return self.trees

    def __exit__(self, *exc) -> None:
        _recorders.remove(self.trees)
