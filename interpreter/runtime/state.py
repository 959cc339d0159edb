"""The state as plain data: its creation from a Program, and per-seat views of it.

A state is a dict of JSON values only (ints, strings, lists, dicts, booleans, None):

- ``n`` seats (the players' seats, then the automated seats), ``round``, ``phase``, ``rng`` (the
  generator's integer state);
- ``automata``: automated seat (as a string) -> automaton id (see runtime/automaton.py); empty
  when no automaton plays, so the number of players is ``n - len(automata)``;
- ``cards``: one dict per physical card: ``t`` type id, ``z`` zone name, ``o`` owning seat or None,
  ``up`` (face up to all), ``seen`` (seats that know it), and the game's ``card_state`` fields;
- ``zones``: zone key (``deck`` or ``hand/2``) -> card ids, the last one on top;
- ``counters`` and ``vars``: game ones are values, per-seat ones are lists indexed by seat;
- ``stack``, ``pending``, ``ti``: paused execution (see machine), ``decisions`` answered so far
  by agents (an automated seat's are not counted);
- ``over`` and ``result`` once the game has ended;
- ``bots`` (once a bot has decided): seat (as a string) -> the integer state of that bot's own random
  stream (agents/random_agent.py), so a saved game resumes with the bots drawing what they would have.
"""

from __future__ import annotations

import copy
import json
import marshal

from mason.runtime import rng
from mason.runtime.frames import BlockFrame, FlowFrame, Frame, TurnFrame
from mason.runtime.values import split_zone_key, zone_key

_ATOMS = (type(None), bool, int, float, str)


def new_state(program, players: int, seed, options: dict | None = None) -> dict:
    """A fresh state for ``players`` players and the automata joining at that count (setup not run yet)."""
    autos = program.automata_at(players)
    n = players + len(autos)
    defaults = program.card_state
    shared = {k: v for k, v in defaults.items() if type(v) in _ATOMS}  # nothing to copy
    if len(shared) == len(defaults):  # the common case: one dict display a card
        cards = [
            {"t": tid, "z": zone, "o": None, "up": False, "seen": [], **defaults}
            for tid, zone in zip(program.instances, program.start_zone)
        ]
    else:
        cards = []
        for tid, zone in zip(program.instances, program.start_zone):
            card = {"t": tid, "z": zone, "o": None, "up": False, "seen": []}
            for k, v in defaults.items():
                card[k] = v if k in shared else copy.deepcopy(v)
            cards.append(card)
    zones: dict[str, list[int]] = {}
    for name, z in program.zones.items():
        if z["scope"] == "seat":
            for s in range(n):
                zones[zone_key(name, s)] = []
        else:
            zones[name] = []
    for i, zone in enumerate(program.start_zone):
        if zone is not None:
            zones[zone].append(i)
    counters = {}
    for name, c in program.counters.items():
        counters[name] = [c["start"]] * n if c["scope"] == "seat" else c["start"]
    variables = {}
    for name, v in program.vars.items():
        start = v["start"]
        if type(start) in _ATOMS:  # nothing to copy
            variables[name] = [start] * n if v["scope"] == "seat" else start
        else:
            variables[name] = [copy.deepcopy(start) for _ in range(n)] if v["scope"] == "seat" else copy.deepcopy(start)
    table = program.table_for(players)  # the row of the number of players, not of seats
    constants = dict(program.constants)
    for k, v in (options or {}).items():
        constants[k] = v
    from mason.runtime.boards import build_boards

    flow: FlowFrame = {"kind": "flow", "phase": 0, "round_start": 0, "idle_rounds": 0}
    state = {
        "boards": build_boards(program, n, table),
        "n": n,
        "automata": {str(players + i): a for i, a in enumerate(autos)},
        "round": 0,
        "phase": "setup",
        "rng": rng.seed_state(seed),
        "cards": cards,
        "zones": zones,
        "counters": counters,
        "vars": variables,
        "table": table,
        "constants": constants,
        "stack": [flow],
        "pending": None,
        "ti": -1,
        "decisions": 0,
        "over": False,
        "result": None,
    }
    stack: list[Frame] = state["stack"]
    for _, block in reversed(program.setup_steps):
        step: BlockFrame = {"kind": "block", "node": block.id, "next": 0, "scope": len(stack), "vars": {"me": None}}
        stack.append(step)
    return state


def player_count(state: dict) -> int:
    """The number of players: the seats without the automated ones."""
    return state["n"] - len(state.get("automata") or ())


def seat_names(program, state: dict) -> list[str]:
    """How each seat is named: P1, P2, ... for players, an automaton's ``name`` for its seat."""
    return names_at(program, player_count(state))


def names_at(program, players: int) -> list[str]:
    """The seat names of a game of ``players`` players (the automata's seats come last)."""
    return [f"P{s + 1}" for s in range(players)] + [program.automata[a].name for a in program.automata_at(players)]


def copy_state(state: dict) -> dict:
    """A complete, independent copy, equal to the JSON round trip of ``state`` (the state is plain data:
    dicts with string keys, lists, strings, numbers, booleans, None). Made by ``marshal`` at format 2,
    which, like JSON, knows only those types (and tuples, which the state never holds) and, unlike
    formats 3 and later, writes a container met twice as two copies, as JSON does: two to three times
    faster than the JSON round trip, which bots pay at every trial of a move. Anything marshal does not
    know (an object that is not plain data) is copied by the JSON round trip, as before."""
    try:
        return marshal.loads(marshal.dumps(state, 2))
    except ValueError:
        return _json_copy(state)


def _json_copy(state: dict) -> dict:
    """The JSON round trip: what ``copy_state`` equals; the way it copies what marshal cannot."""
    return json.loads(json.dumps(state))


def view(program, state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (None: a spectator, who sees only public information)."""
    n = state["n"]
    cards = state["cards"]
    types = program.types
    zones = {}
    for key, ids in state["zones"].items():
        name, own = split_zone_key(key)
        zdef = program.zones[name]
        vis = zdef["visibility"]
        shown = []
        hidden = 0
        for c in ids:
            card = cards[c]
            if (
                vis == "all"
                or card["up"]
                or (vis == "owner" and own == seat and seat is not None)
                or (seat is not None and seat in card["seen"])
            ):
                shown.append(_card_view(program, card, c))
            else:
                hidden += 1
        zones[key] = {"cards": shown, "hidden": hidden}
    counters = {}
    for name, c in program.counters.items():
        counters[name] = state["counters"][name]
    variables = {}
    for name, v in program.vars.items():
        if v["visibility"] == "all":
            variables[name] = state["vars"][name]
        elif v["visibility"] == "owner" and v["scope"] == "seat" and seat is not None:
            variables[name] = {seat: state["vars"][name][seat]}
    pending = state["pending"]
    mine = None
    if pending is not None and pending["seat"] == seat:
        mine = {k: pending[k] for k in ("kind", "prompt", "labels", "subset")}
        if pending.get("ordered"):
            mine["ordered"] = True
    turn = None
    if state["ti"] >= 0:
        t: TurnFrame = state["stack"][state["ti"]]
        turn = {"seat": t["seat"], "card": types[cards[t["card"]]["t"]]["name"] if t["card"] is not None else None}
    return {
        "seat": seat,
        "players": player_count(state),
        "seats": n,
        "names": seat_names(program, state),
        "automated": sorted(int(s) for s in state.get("automata") or ()),
        "boards": state.get("boards", {}),
        "round": state["round"],
        "phase": state["phase"],
        "zones": zones,
        "counters": counters,
        "vars": variables,
        "turn": turn,
        "decision": mine,
        "waiting_for": pending["seat"] if pending else None,
        "over": state["over"],
        "result": state["result"],
    }


def _card_view(program, card, c):
    t = program.types[card["t"]]
    out = {"id": c, "type": card["t"], "name": t["name"]}
    for k in program.card_state:
        if card.get(k) not in (None, False, [], 0):
            out[k] = card[k]
    return out
