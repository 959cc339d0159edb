"""Helpers shared by the Pillars of the Earth rule tests (tests/games/pillars/)."""

from __future__ import annotations

from scenario import clear, counter, put, run, set_counter, set_var
from support import act, new_game

CUBES = ("sand", "wood", "stone", "metal")


def game(players=4, seed=1, variants=()):
    return new_game("pillars", players, seed=seed, variants=variants)


def plain(g, start=0):
    """A calm situation: start player ``start``, every seat with 10 gold, 0 VP, no cubes, no workers,
    only the three starting craftsmen, no advantage cards, an empty town."""
    n = g.state["n"]
    set_var(g, "start_player", start)
    set_var(g, "next_start", start)
    for s in range(n):
        set_counter(g, "gold", s, 10)
        set_counter(g, "vp", s, 0)
        for c in CUBES + ("workers", "wool_mill"):
            set_counter(g, c, s, 0)
        clear(g, "advantages", s)
        clear(g, "taken", s, to="resource_deck")
        set_var(g, "shielded", False, s)
    for loc, spaces in g.state["boards"]["town"].items():
        g.state["boards"]["town"][loc] = [None] * len(spaces)
    return g


def step(g, location):
    run(g, f'emit resolve(location="{location}")')


def event(g, type_id):
    """Make ``type_id`` the top of the event deck (this round's event)."""
    put(g, type_id, "event_deck", face_up=False)


def gold(g, s):
    return counter(g, "gold", s)


def vp(g, s):
    return counter(g, "vp", s)


def answer_all(g, label):
    """Answer with ``label`` while a decision offering it is pending."""
    while g.pending and any(l == label or l.startswith(label) for l in g.legal()):
        act(g, label)
