"""Buying back a played card within a turn limit (docs/dsl.md, "Buying back a played card"), on the
fixture game tests/fixtures/encore: an action with `after`, `times`, `if` and `group` that pays,
returns the card just played to hand and plays again at once."""

from __future__ import annotations

import paths
from support import act, new_game

FIXTURE = str(paths.FIXTURES / "encore")


def new(players=2, seed=1, options=()):
    return new_game(FIXTURE, players, seed, options=options)


def played(g, s):
    return [g.state["cards"][c]["t"] for c in g.state["zones"][f"played/{s}"]]


def test_no_buyback_before_a_card_is_played():
    g = new()
    assert g.pending["prompt"] == "Play which card?"  # the window had only 'Play a card'


def test_buyback_pays_returns_the_card_just_played_and_forces_a_second_play():
    g = new()
    act(g, "Sing")
    assert "Pay a coin to take back the card just played, then play again" in g.legal()
    act(g, "Pay a coin")
    assert g.state["counters"]["coins"][0] == 0
    assert g.pending["seat"] == 0 and g.pending["prompt"] == "Play which card?"  # no End turn here
    assert "Sing" in g.legal()
    act(g, "Sing")  # the same card again
    assert played(g, 0) == ["sing"] and g.state["counters"]["points"][0] == 4
    assert g.pending["seat"] == 1  # limit reached and no coin: turn over


def test_the_limit_counts_buybacks_per_turn():
    g = new(options=(("encore_limit", 2),))
    act(g, "Busk")  # +2 coins: 3
    act(g, "Pay a coin")
    act(g, "Busk")
    act(g, "Pay a coin")
    act(g, "Busk")
    assert "Pay a coin to take back the card just played, then play again" not in g.legal()
    assert played(g, 0) == ["busk"] and g.state["counters"]["coins"][0] == 1 + 6 - 2


def test_without_the_price_no_buyback_is_offered():
    g = new()
    g.state["counters"]["coins"][0] = 0
    act(g, "Sing")
    assert g.pending["seat"] == 1


def test_face_up_count_equals_turns_taken():
    import random

    g = new(3, seed=2)
    rng = random.Random(2)
    while not g.over:
        if g.state["ti"] < 0 and g.pending is None:
            break
        g.answer(rng.randrange(len(g.pending["options"])))
        turns = [e["text"] for e in g.log if e.get("turn") and e.get("round") == g.state["round"]]
        cur = g.state["stack"][g.state["ti"]]["seat"] if g.state["ti"] >= 0 else None
        for s in range(3):
            if s != cur and not g.over:
                assert len(played(g, s)) == turns.count(f"-- P{s + 1} plays --")
