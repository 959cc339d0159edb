"""Boards: structured shared state declared under ``boards:`` in game.yaml, built by a registered kind.

A board is plain JSON data in ``state['boards'][name]``, created at setup by its kind's builder from
the YAML definition and the player count. Kinds live in ``interpreter/primitives/`` and register with
``@board_kind("slots")``; their queries and procedures take the board's name as first argument.
"""
from __future__ import annotations

from typing import Callable

from .errors import PlayError

BOARD_KINDS: dict[str, Callable] = {}


def board_kind(name: str):
    """Register ``build(definition: dict, players: int, table: dict) -> JSON data`` for ``kind: name``."""
    def deco(fn):
        BOARD_KINDS[name] = fn
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
