"""Sealed commission bids never leak before the reveal: not in any seat's view, not in the log a seat
may read, not in the decision another bidder (or a bot) is shown (ISF-R16, ISF-D6)."""

from __future__ import annotations

import random

from isf_support import fresh, prompt, skip_setup


def _seen_by(g, seat, start):
    pending = g.pending
    shown = None
    if pending is not None and pending["seat"] == seat:
        shown = (pending["prompt"], pending["labels"], pending["options"], pending["subset"])
    log = [{k: v for k, v in e.items() if k != "answer"} for e in g.visible_log(seat, start)]
    return g.view(seat), log, shown


def _to_commission(g, rnd, rng):
    while not (g.state["round"] == rnd and prompt(g).startswith("Your sealed bid")):
        p = g.pending
        g.answer([] if p["subset"] else rng.randrange(len(p["options"])))


def test_isf_r16_bids_are_sealed_until_all_have_committed():
    for players in (2, 3, 4):
        g = fresh(players, seed=players)
        skip_setup(g)
        rng = random.Random(players)
        for rnd in (1, 2, 3):
            _to_commission(g, rnd, rng)
            start = len(g.log)
            for k in range(players - 1):  # every bidder but the last
                bidder = g.pending["seat"]
                assert bidder == k
                n = len(g.pending["options"])
                low, high = g.copy(), g.copy()
                low.answer(0)
                high.answer(n - 1)
                for s in range(players):
                    if s != bidder:
                        assert _seen_by(low, s, start) == _seen_by(high, s, start), (players, rnd, k, s)
                    assert low.view(s)["vars"]["revealed_bids"] is None
                    assert set(low.view(s)["vars"]["bid"]) == {s}
                g.answer(rng.randrange(n))
            g.answer(rng.randrange(len(g.pending["options"])))
            assert g.state["vars"]["revealed_bids"] is not None  # all revealed at once


def test_sealed_bids_never_in_another_seats_view_over_a_whole_game():
    g = fresh(3, seed=9)
    rng = random.Random(9)
    bids_seen = 0
    while not g.over:
        p = g.pending
        if p["prompt"].startswith("Your sealed bid"):
            bids_seen += 1
            for s in range(3):
                v = g.view(s)
                assert set(v["vars"]["bid"]) == {s}
                assert v["vars"]["revealed_bids"] is None
                if s != p["seat"]:
                    assert v["decision"] is None
        g.answer([] if p["subset"] else rng.randrange(len(p["options"])))
    assert bids_seen >= 30
