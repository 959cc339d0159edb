"""Sealed simultaneous choices (docs/dsl.md, "Sealed simultaneous choices"), on the fixture game
tests/fixtures/sealed_bid: `choose secret` + a per-seat variable with `visibility: owner`, then a reveal.
Before the reveal, nothing a seat may see (its view, its log, the decision put to it) depends on
another seat's commitment."""

from __future__ import annotations

import paths
from support import new_game

FIXTURE = str(paths.FIXTURES / "sealed_bid")


def new(players=3, seed=1):
    return new_game(FIXTURE, players, seed)


def seen(g, seat, start):
    p = g.pending
    decision = (p["prompt"], p["labels"], p["options"]) if p and p["seat"] == seat else None
    return g.view(seat), [{k: v for k, v in e.items() if k != "answer"} for e in g.visible_log(seat, start)], decision


def test_every_seat_commits_in_turn_and_all_are_revealed_at_once():
    g = new(3)
    assert g.pending["seat"] == 0 and g.pending["labels"] == [str(i) for i in range(7)]
    g.answer(4)
    assert g.state["vars"]["revealed"] is None and g.pending["seat"] == 1
    g.answer(2)
    assert g.state["vars"]["revealed"] is None and g.pending["seat"] == 2
    g.answer(3)  # revealed, settled, and the next round's bids are sealed again
    assert g.state["round"] == 2 and g.state["vars"]["revealed"] is None
    assert any(e.get("text") == "Bids: 4, 2, 3" and "to" not in e for e in g.log)
    assert g.state["counters"]["coins"] == [2, 6, 6]


def test_a_commitment_changes_nothing_another_seat_can_see_before_the_reveal():
    for players in (2, 3, 4):
        g = new(players)
        start = len(g.log)
        for k in range(players - 1):
            low, high = g.copy(), g.copy()
            low.answer(0)
            high.answer(len(high.pending["options"]) - 1)
            for s in range(players):
                if s != k:
                    assert seen(low, s, start) == seen(high, s, start)
            assert high.view(k)["vars"]["bid"] == {k: 6}  # the bidder sees its own
            g.answer(1)


def test_the_chooser_reads_its_own_choice_the_others_only_that_it_chose():
    g = new(2)
    start = len(g.log)
    g.answer(5)
    mine = [e.get("text") for e in g.visible_log(0, start)]
    theirs = [e.get("text") for e in g.visible_log(1, start)]
    said = 'P1 answers 5 to "Your sealed bid"'  # a number, said with the question it answers
    assert said in mine and not any("5" in (t or "") for t in theirs)
    assert "P1 has chosen" in theirs
    assert all(e.get("to") == [0] for e in g.log[start:] if e.get("type") == "decision")


def test_a_full_game_never_shows_an_unrevealed_bid():
    import random

    g = new(4, seed=3)
    rng = random.Random(3)
    while not g.over:
        for s in range(4):
            assert set(g.view(s)["vars"]["bid"]) == {s}
        g.answer(rng.randrange(len(g.pending["options"])))
    assert g.result["rounds"] == 4
