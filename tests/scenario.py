"""Scenario runner for rule tests: run a DSL snippet (a phase, a step, one statement) on a game's state.

A test starts a game (it runs to its first decision), sets up a situation by editing the state, then
runs a snippet with an empty stack: ``run(g, 'emit resolve(location="priory")')``. The snippet runs
until it needs a decision (answer it with ``support.act``) or ends (``done(g)``). Snippets are
compiled against the game's own names, once per text.
"""

from __future__ import annotations

import copy

from log_board_check import follow
from log_schema import schema_errors

from mason.errors import DefinitionErrors
from mason.runtime.engine import run as run_machine
from mason.runtime.machine import move_card
from mason.session.game import Game

_COMPILED: dict = {}


def compile_snippet(program, text: str):
    key = (id(program), text)
    block = _COMPILED.get(key)
    if block is None:
        before = len(program.errors)
        block = program.effect({"do": text}, "do", ("me",))
        if len(program.errors) > before:
            errors = program.errors[before:]
            del program.errors[before:]
            raise DefinitionErrors(errors)
        _COMPILED[key] = block
    return block


def run(g: Game, text: str, me=None) -> None:
    """Drop whatever was paused and run ``text`` from an empty stack (until a decision or its end)."""
    block = compile_snippet(g.program, text)
    st = g.state
    st["stack"] = [{"kind": "block", "node": block.id, "next": 0, "scope": 0, "vars": {"me": me}}]
    st["pending"] = None
    st["ti"] = -1
    g.rt.sync_turn()
    run_machine(g.rt)
    if st.get("automata"):
        g._automate()  # decisions put to an automated seat are taken by its policy, as in play


def board_events(g: Game, text: str, me=None) -> list[dict]:
    """Run ``text`` (as ``run``) and return the typed ``board`` events it logged, having checked that
    they meet the log schema and that they alone rebuild every board (tests/log_board_check.py)."""
    before = copy.deepcopy(g.state["boards"])
    start = len(g.log)
    run(g, text, me)
    entries = g.log[start:]
    assert schema_errors(entries) == []
    assert follow(before, entries) == g.state["boards"], "the board events do not rebuild the boards"
    return [e for e in entries if e["type"] == "board"]


def run_phase(g: Game, phase: str) -> None:
    """Run one flow phase's effect on its own (e.g. ``"builders"``)."""
    for pid, block in g.program.phases:
        if pid == phase:
            st = g.state
            st["stack"] = [{"kind": "block", "node": block.id, "next": 0, "scope": 0, "vars": {"me": None}}]
            st["pending"] = None
            st["ti"] = -1
            g.rt.sync_turn()
            st["phase"] = phase
            run_machine(g.rt)
            return
    raise KeyError(phase)


def done(g: Game) -> bool:
    return not g.state["stack"] and g.state["pending"] is None


def finish(g: Game, chooser=lambda g: 0, limit=2000) -> None:
    """Answer every remaining decision of the snippet with ``chooser`` (default: the first option)."""
    n = 0
    while g.state["pending"] is not None:
        p = g.state["pending"]
        g.answer([] if p["subset"] else chooser(g))
        n += 1
        assert n < limit


# ------------------------------------------------------------------ situations
def counter(g: Game, name: str, seat: int | None = None):
    c = g.state["counters"][name]
    return c if seat is None else c[seat]


def set_counter(g: Game, name: str, seat: int, value: int) -> None:
    g.state["counters"][name][seat] = value


def var(g: Game, name: str, seat: int | None = None):
    v = g.state["vars"][name]
    return v if seat is None else v[seat]


def set_var(g: Game, name: str, value, seat: int | None = None) -> None:
    if seat is None:
        g.state["vars"][name] = value
    else:
        g.state["vars"][name][seat] = value


def zone(g: Game, name: str, seat: int | None = None) -> list[int]:
    return list(g.state["zones"][name if seat is None else f"{name}/{seat}"])


def types(g: Game, name: str, seat: int | None = None) -> list[str]:
    return [g.state["cards"][c]["t"] for c in zone(g, name, seat)]


def card(g: Game, type_id: str, n: int = 0) -> int:
    return g.program.type_instances[type_id][n]


def put(g: Game, type_id: str, zone_name: str, seat: int | None = None, n: int | None = None, face_up=True) -> int:
    """Move a copy of ``type_id`` into a zone (the n-th copy, or the first not held by a seat)."""
    ids = g.program.type_instances[type_id]
    if n is None:
        free = [c for c in ids if g.state["cards"][c]["o"] is None]
        c = (free or ids)[0]
    else:
        c = ids[n]
    move_card(g.rt, c, zone_name if seat is None else f"{zone_name}/{seat}", facing="up" if face_up else "")
    return c


def clear(g: Game, zone_name: str, seat: int | None = None, to: str = "box") -> None:
    for c in zone(g, zone_name, seat):
        move_card(g.rt, c, to)


def occupy(g: Game, location: str, seats: list, board: str = "town") -> None:
    """Put builders on a location's spaces (None leaves a space empty)."""
    spaces = g.state["boards"][board][location]
    for i, s in enumerate(seats):
        spaces[i] = s


def bag_state(g: Game, board: str = "bag") -> dict:
    return g.state["boards"][board]
