"""The event-deck pattern (docs/dsl.md, "Event decks that hit everyone unless protected") on the fixture
game tests/fixtures/omens: cards flagged `harmful`, a per-seat `shielded` flag, effects on `struck(self)`
now (triggers) and later in the round (modifiers that live while the card lies in an active zone)."""

from __future__ import annotations

import paths
from scenario import done, run_phase
from support import act, new_game, play_out

from mason.runtime.machine import move_card

OMENS = str(paths.FIXTURES / "omens")


def grain(g):
    return list(g.state["counters"]["grain"])


def _top(g, type_id):
    c = g.program.type_instances[type_id][0]
    move_card(g.rt, c, "deck")


def _round(g, top, prayers):
    """Play one round with ``top`` as the omen: seats in ``prayers`` pray, the others work."""
    _top(g, top)
    run_phase(g, "omen")
    while g.pending:
        act(g, "Pray" if g.pending["seat"] in prayers else "Work")
    run_phase(g, "harvest")
    run_phase(g, "cleanup")
    assert done(g)


def test_helpful_event_hits_everyone_even_the_protected():
    g = new_game(OMENS, 3)
    _round(g, "rain", prayers={0})
    assert grain(g) == [3 + 1 + 2, 3 + 1 + 1 + 2, 3 + 1 + 1 + 2]


def test_harmful_event_spares_the_protected():
    g = new_game(OMENS, 3)
    _round(g, "locusts", prayers={1})
    assert grain(g) == [3 + 1 - 2 + 2, 3 + 2, 3 + 1 - 2 + 2]


def test_modifiers_last_the_round_and_respect_protection():
    g = new_game(OMENS, 2)
    _round(g, "blight", prayers={0})
    assert grain(g) == [3 + 2, 3 + 1 + 0]
    _round(g, "sun", prayers=set())
    assert grain(g) == [5 + 1 + 3, 4 + 1 + 3]
    _round(g, "comet", prayers=set())  # the spent omens no longer modify anything
    assert grain(g) == [9 + 1 + 2, 8 + 1 + 2]


def test_protection_ends_with_the_round():
    g = new_game(OMENS, 2)
    _round(g, "comet", prayers={0, 1})
    assert g.state["vars"]["shielded"] == [False, False]


def test_plays_out():
    g = new_game(OMENS, 3, seed=9)
    play_out(g)
    assert g.over and g.result["rounds"] == 4
