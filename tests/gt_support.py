"""Helpers shared by the Golden Temple rule tests (tests/games/golden-temple/).

A test starts a game, answers the setup decisions (``ready``), makes a calm situation (``plain``),
edits what the rule needs, then runs a snippet of the game's own DSL (``scenario.run``), e.g.
``run(g, 'emit sow(who=0)')``, answering decisions by label (``support.act``).
"""

from __future__ import annotations

from scenario import card, clear, counter, done, finish, put, run, set_counter, set_var, var, zone
from support import act, new_game

from mason.runtime.machine import move_card

GAME = "golden-temple"
GOODS = ("coins", "marble", "copper", "gold")
PLACES = ("n1", "n2", "e1", "e2", "s1", "s2", "w1", "w2")
DISTRICTS = ("north", "east", "south", "west")

__all__ = [
    "GAME",
    "GOODS",
    "PLACES",
    "DISTRICTS",
    "game",
    "ready",
    "plain",
    "goods",
    "set_goods",
    "pp",
    "set_ring",
    "ring",
    "elephant",
    "put_elephant",
    "owners",
    "donate_at",
    "tiles_in",
    "place_tiles",
    "mahout",
    "warehouse",
    "objective",
    "knowledge",
    "set_knowledge",
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
]


def game(players=3, seed=1, variants=()):
    """A new game, paused at its first decision (the setup choices)."""
    return new_game(GAME, players, seed=seed, variants=variants)


def ready(players=3, seed=1, variants=()):
    """A game whose setup decisions were answered with the first option: round 1 is about to start."""
    g = game(players, seed, variants)
    while g.pending and g.state["round"] == 0:
        g.answer(0)
    return g


def plain(g, start=0, pp_=10):
    """A calm situation for every player seat: start player ``start``, ``pp_`` PP, no coins or resources,
    elephants on no district, no markers on the donation boards, an empty ring, era I round 1."""
    n = g.state["n"]
    set_var(g, "start_player", start)
    set_var(g, "reminder", (start - 1) % n)
    set_var(g, "era", 1)
    set_var(g, "era_round", 1)
    for s in range(n):
        for k in GOODS:
            set_counter(g, k, s, 0)
        set_counter(g, "pp", s, pp_)
        set_var(g, "bought", [], s)
        set_var(g, "sold", [], s)
    b = g.state["boards"]
    b["paths"]["pawns"] = {}
    b["paths"]["markers"]["maharaja"] = 0
    for d in DISTRICTS:
        owners = b[f"donations_{d}"]["owners"]
        for k in owners:
            owners[k] = None
    set_ring(g, {})
    g.state["stack"] = []
    g.state["pending"] = None
    return g


def goods(g, s):
    """A seat's storage as a dict: coins, marble, copper, gold."""
    return {k: counter(g, k, s) for k in GOODS}


def set_goods(g, s, **amounts):
    for k in GOODS:
        set_counter(g, k, s, amounts.get(k, 0))


def pp(g, s):
    return counter(g, "pp", s)


def ring(g):
    return g.state["boards"]["workplaces"]


def set_ring(g, pieces: dict, coins: dict | None = None):
    """Replace the workplace ring: ``pieces`` place -> list of colours, ``coins`` place -> count."""
    r = ring(g)
    r["pieces"] = {p: list(pieces.get(p, [])) for p in PLACES}
    r["tokens"] = {p: {"coins": (coins or {}).get(p, 0)} for p in PLACES}
    r["held"] = []
    r["cursor"] = None
    r["last"] = None


def elephant(g, s):
    return g.state["boards"]["paths"]["pawns"].get(str(s))


def put_elephant(g, s, district):
    g.state["boards"]["paths"]["pawns"][str(s)] = district


def owners(g, district):
    return g.state["boards"][f"donations_{district}"]["owners"]


def donate_at(g, district, slot, seat):
    owners(g, district)[slot] = seat


def tiles_in(g, district):
    """Type ids of the district tiles lying in a district, left to right."""
    order = {"left": 0, "centre": 1, "right": 2}
    ids = [c for c in zone(g, "district_tiles") if g.state["cards"][c]["in_district"] == district]
    ids.sort(key=lambda c: order[g.state["cards"][c]["pos"]])
    return [g.state["cards"][c]["t"] for c in ids]


def place_tiles(g, district, type_ids):
    """Lay district tiles (type ids, left to right) in a district, moving out whatever lay there."""
    for c in zone(g, "district_tiles"):
        if g.state["cards"][c]["in_district"] == district:
            g.state["cards"][c]["in_district"] = None
            move_card(g.rt, c, "tile_piles")
    for t, pos in zip(type_ids, ("left", "centre", "right")):
        c = card(g, t)
        move_card(g.rt, c, "district_tiles", facing="up")
        g.state["cards"][c]["in_district"] = district
        g.state["cards"][c]["pos"] = pos


def mahout(g, s, type_id, colour):
    """Put seat s's mahout tile ``type_id`` on its slot of ``colour``."""
    ids = [
        c
        for c in g.program.type_instances[type_id]
        if g.state["cards"][c]["o"] == s or g.state["cards"][c]["o"] is None
    ]
    c = ids[0]
    g.state["cards"][c]["slot"] = colour
    move_card(g.rt, c, f"mahout_slots/{s}", facing="up")
    return c


def warehouse(g, s, type_id):
    """Put warehouse tile ``type_id`` on seat s's board."""
    return put(g, type_id, "warehouse_slots", s)


def objective(g, s, type_id, placed=True):
    return put(g, type_id, "objective_slots" if placed else "objectives", s, face_up=False)


def knowledge(g, s, track):
    return g.state["boards"]["knowledge"][track][s]


def set_knowledge(g, s, track, pos):
    g.state["boards"]["knowledge"][track][s] = pos


def labels(g):
    return list(g.pending["labels"]) if g.pending else []


def prompt(g):
    return g.pending["prompt"] if g.pending else None
