"""Boards: structured shared state declared under ``boards:`` in game.yaml, built by a registered kind.

A board is plain JSON data in ``state['boards'][name]``, created at setup by its kind's builder from
the YAML definition and the player count. Kinds live in ``interpreter/primitives/`` and register with
``@board_kind("slots")``; their queries and procedures take the board's name as first argument.
"""
from __future__ import annotations

from typing import Callable

from mason.errors import PlayError

BOARD_KINDS: dict[str, Callable] = {}
BOARD_CHECKS: dict[str, Callable] = {}


def board_kind(name: str, check: Callable | None = None):
    """Register ``build(definition: dict, players: int, table: dict) -> JSON data`` for ``kind: name``.

    ``check(definition, table_columns) -> [(message, key or None), ...]``, when given, reports the
    problems of a declaration at load time (``mason validate``), placed at ``key`` of the board.
    """
    def deco(fn):
        BOARD_KINDS[name] = fn
        if check is not None:
            BOARD_CHECKS[name] = check
        return fn
    return deco


def build_boards(program, players: int, table: dict) -> dict:
    out = {}
    for name, definition in program.boards.items():
        out[name] = BOARD_KINDS[definition["kind"]](definition, players, table)
    return out


def board(rt, name: str):
    try:
        return rt.st["boards"][name]
    except KeyError:
        raise PlayError(f"no board '{name}'", code="play/unknown") from None
