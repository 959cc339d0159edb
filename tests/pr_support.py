"""Helpers shared by the Praga Caput Regni rule tests (tests/games/prague/).

A test starts a game (``ready``: setup done, round 1 about to start or the first decision pending),
makes a calm situation (``plain``), edits what the rule needs, then runs a snippet of the game's own
DSL with ``scenario.run`` (e.g. ``run(g, 'emit perform(who=0, action="quarry", source="tile")')``),
answering decisions by label with ``support.act``.
"""

from __future__ import annotations

from scenario import card, clear, counter, done, finish, put, run, set_counter, set_var, var, zone
from support import act, new_game

from mason.runtime.machine import move_card

GAME = "prague"
GOODS = ("gold", "stone", "silver", "goldwin", "egg", "red", "blue")

__all__ = [
    "GAME",
    "GOODS",
    "game",
    "ready",
    "plain",
    "goods",
    "set_goods",
    "vp",
    "track",
    "set_track",
    "stair",
    "set_stair",
    "crane",
    "place_tile_at",
    "stations_of",
    "hexes",
    "hex_put",
    "labels",
    "prompt",
    "act",
    "run",
    "done",
    "finish",
    "counter",
    "set_counter",
    "var",
    "set_var",
    "zone",
    "card",
    "put",
    "clear",
    "move_card",
    "evaluate",
]


def game(players=3, seed=1, variants=()):
    return new_game(GAME, players, seed=seed, variants=variants)


def ready(players=3, seed=1, variants=()):
    """A game right after setup: round 1, the start player's action window pending."""
    return game(players, seed, variants)


def plain(g, start=0):
    """A calm situation: start player ``start``, every player seat with 0 VP, 0 gold, 0 stone, no windows,
    eggs or tokens, nothing pending, no claims; the stack emptied so that snippets can run."""
    n = g.state["n"]
    set_var(g, "start_player", start)
    for s in range(n):
        for k in GOODS + ("vp", "hw_moves", "cath_moves", "seal_rights"):
            set_counter(g, k, s, 0)
    for k, v in (
        ("claims", []),
        ("tops", []),
        ("special_ok", False),
        ("special_used", False),
        ("egg_offer", None),
        ("wheel_bonus", None),
        ("extra_bought", False),
        ("taken", None),
    ):
        set_var(g, k, v)
    g.state["stack"] = []
    g.state["pending"] = None
    g.state["ti"] = -1
    g.rt.sync_turn()
    return g


def goods(g, s):
    return {k: counter(g, k, s) for k in GOODS}


def set_goods(g, s, **amounts):
    for k in GOODS:
        set_counter(g, k, s, amounts.get(k, 0))


def vp(g, s):
    return counter(g, "vp", s)


def track(g, s, name):
    """Position of seat s on a track: gold_mine, quarry, technology, university."""
    return g.state["boards"]["tracks"][name][s]


def set_track(g, s, name, pos):
    g.state["boards"]["tracks"][name][s] = pos


def stair(g, s, board):
    """[row, column] of seat s on 'hunger_wall' or 'cathedral'."""
    return list(g.state["boards"][board]["pos"][s])


def set_stair(g, s, board, row, col):
    g.state["boards"][board]["pos"][s] = [row, col]


def crane(g):
    return g.state["boards"]["crane"]


def stations_of(g):
    """{station id: piece type id} for every occupied station."""
    from mason.dsl.builtins import BUILTINS

    rt = g.rt
    out = {}
    for st in BUILTINS["wheel_occupied"].impl(rt, "crane"):
        piece = BUILTINS["wheel_piece_at"].impl(rt, "crane", st)
        out[st] = g.state["cards"][piece]["t"]
    return out


def place_tile_at(g, type_id, station):
    """Move action tile ``type_id`` onto the slot over ``station`` (taking it off the wheel first)."""
    from mason.dsl.builtins import BUILTINS

    rt = g.rt
    c = card(g, type_id)
    w = crane(g)
    for slot, piece in w["pieces"].items():
        if piece == c:
            w["pieces"][slot] = None
    slot = BUILTINS["wheel_slot_at"].impl(rt, "crane", station)
    assert w["pieces"][slot] is None, f"{station} is occupied"
    w["pieces"][slot] = c
    return c


def hexes(g, board):
    return g.state["boards"][board]["stacks"]


def hex_put(g, board, cell, type_id, rotation=0, owner_zone=None, seat=None):
    """Place hex tile ``type_id`` on ``cell`` of ``board`` through the game's own primitive (no rewards)."""
    c = card(g, type_id)
    t = g.program.types[g.state["cards"][c]["t"]]
    edges = t.get("edges") or [None] * 6
    corners = t.get("corners") or [None] * 6
    run(g, f'do hex_place("{board}", "{cell}", {c}, {rotation}, {_lit(edges)}, {_lit(corners)})')
    g.state["cards"][c]["cell"] = cell
    if owner_zone:
        move_card(g.rt, c, owner_zone if seat is None else f"{owner_zone}/{seat}", facing="up")
    return c


def _lit(v):
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_lit(x) for x in v) + "]"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v).lower() if isinstance(v, bool) else str(v)


def evaluate(g, expr, me=None):
    """The value of a DSL expression of the game (named values, builtins) in the current state."""
    from mason.errors import DefinitionErrors

    before = len(g.program.errors)
    f = g.program.expr({"v": expr}, "v", ("me",))
    if len(g.program.errors) > before:  # a snippet that does not compile is the test's mistake
        errors = g.program.errors[before:]
        del g.program.errors[before:]
        raise DefinitionErrors(errors)
    return f(g.rt, {"me": me})


def labels(g):
    return list(g.pending["labels"]) if g.pending else []


def prompt(g):
    return g.pending["prompt"] if g.pending else None
