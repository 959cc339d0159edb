"""The bots' estimate of an Island Fortress position (``bot_worth`` / ``bot_estimate`` in game.yaml,
docs/bots.md; issue 32): the steps towards building count before the block is on the wall."""

from __future__ import annotations

from isf_support import put, set_counts, turn_of


def estimate(g, seat=0):
    return g.rt.value("bot_estimate", (seat,), {"me": seat})


def test_bot_estimate_a_bought_block_is_worth_more_than_none():
    g = turn_of(0)
    set_counts(g, 0, block=0, stock=18)
    without = estimate(g)
    set_counts(g, 0, block=1, stock=17)
    assert estimate(g) > without


def test_bot_estimate_bought_blocks_past_the_cap_wait_for_workers():
    g = turn_of(0)
    cap = g.state["constants"]["bot_bought_cap"]
    set_counts(g, 0, block=cap, stock=18 - cap)
    at_cap = estimate(g)
    set_counts(g, 0, block=cap + 1, stock=17 - cap)
    assert estimate(g) == at_cap


def test_bot_estimate_a_built_block_is_worth_more_than_a_bought_one():
    g = turn_of(0)
    set_counts(g, 0, block=1, stock=17)
    bought = estimate(g)
    set_counts(g, 0, block=0)
    put(g, "R1L1C1", 0)
    assert estimate(g) > bought


def test_isf_r93_bot_estimate_counts_the_incomplete_rows_majorities_as_the_end_would():
    g = turn_of(0)
    assert g.rt.value("bot_rows", (0,), {"me": 0}) == 0  # an empty row scores for nobody
    put(g, "R1L3C1", 0)
    assert g.rt.value("bot_rows", (0,), {"me": 0}) == 10
    put(g, "R1L3C2", 1)
    assert [g.rt.value("bot_rows", (s,), {"me": s}) for s in (0, 1)] == [10, 10]  # ties all score
    put(g, "R1L3C3", 1)
    put(g, "R1L1C1", None)  # a governor block counts for nobody
    assert [g.rt.value("bot_rows", (s,), {"me": s}) for s in (0, 1)] == [0, 10]
