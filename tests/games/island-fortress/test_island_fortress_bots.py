"""The bots' estimate of an Island Fortress position (``bot_worth`` / ``bot_estimate`` in game.yaml,
docs/bots.md; issue 32): the steps towards building count before the block is on the wall."""

from __future__ import annotations

from isf_support import counts, play, put, set_camp, set_counts, set_prison, turn_of
from support import act

from mason.play.session import make_bot


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
    set_counts(g, 0, block=0, built=1)  # as Builder A leaves it
    put(g, "R1L1C1", 0)
    assert estimate(g) > bought


def test_isf_r46_a_block_built_counts_as_built_a_replaced_one_does_not():
    for action, built in (("Builder A", 1), ("Builder C", 0)):
        g = turn_of(0)
        set_camp(g, 0, 1)
        set_counts(g, 0, block=1, laborer=8, convict=0, jade=0)
        put(g, "R1L1C2", 1)
        play(g, "Builder", action)
        if action == "Builder A":
            act(g, "R1L1C1")
        assert g.state["boards"]["wall"]["pieces"].get("R1L1C" + ("1" if built else "2")) == 0
        assert counts(g, 0, "built", "block") == (built, 0)


def test_isf_r62_bot_estimate_building_a_block_beats_replacing_one():
    """Replacing takes a block from the wall's owner but fills no slot: it is worth what it changes in
    the majorities and the weakest region, not the worth of a block built (issue 32: all-greedy tables
    replaced 6 to 10 blocks a game and left the wall unfinished)."""
    g = turn_of(0)
    put(g, "R1L1C2", 1)
    set_counts(g, 1, built=1, block=0)
    set_counts(g, 0, block=0)
    put(g, "R1L1C1", 0)
    set_counts(g, 0, built=1)
    built = estimate(g)
    del g.state["boards"]["wall"]["pieces"]["R1L1C1"]
    set_counts(g, 0, built=0)
    put(g, "R1L1C2", 0)  # replaced: P2's block back on P2's board
    set_counts(g, 1, block=1)
    assert built > estimate(g)


def greedy_turn(g, seat=0):
    """Let the greedy bot answer every decision of ``seat`` until another seat is asked."""
    bot = make_bot("greedy", 1, seat)
    while g.pending and g.pending["seat"] == seat:
        g.answer(bot.decide(g, seat))


def test_isf_r50_greedy_looks_far_enough_to_see_the_block_it_would_build():
    """Building is asked as five questions (card, action, how many, where, which workers): the game's
    bot_lookahead and bot_budget let greedy see the block on the wall from the card it plays
    (with the default 3 questions it judged Builder A before the block was placed)."""
    g = turn_of(0)
    set_camp(g, 0, 1)
    for r in (1, 2):
        set_prison(g, r)
    set_counts(g, 0, block=2, jade=1, laborer=5, convict=1, buyback_disc=0)
    greedy_turn(g)
    assert counts(g, 0, "built")[0] >= 1


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


def test_isf_r50_bot_estimate_counts_workers_only_as_far_as_the_bought_blocks_can_use_them_here():
    """Workers are worth something to the bots only up to what the blocks on the seat's board would
    cost on the cheapest open slots of its taskmaster's region (bot_need): all-greedy tables ran out
    of workers for levels 3 and 4, while a flat worth per worker made every build look like a loss."""
    g = turn_of(0)
    set_camp(g, 0, 1)
    set_counts(g, 1, laborer=30, convict=0)  # P2 keeps the workers bonus throughout
    set_counts(g, 0, block=1, laborer=0, convict=0)
    assert g.rt.value("bot_need", (0,), {"me": 0}) == 2  # one block: a level-1 slot of region 1
    none = estimate(g)
    set_counts(g, 0, laborer=2)
    two = estimate(g)
    set_counts(g, 0, laborer=9)
    assert two > none and estimate(g) == two
    set_counts(g, 0, block=0)
    idle = estimate(g)
    set_counts(g, 0, laborer=0)
    assert estimate(g) == idle  # no block to build: the workers wait for one
    for c in range(1, 6):
        put(g, f"R1L1C{c}", 1)
    set_counts(g, 0, block=2)
    assert g.rt.value("bot_need", (0,), {"me": 0}) == 8  # now level 2 of region 1: 4 + 4
    set_camp(g, 0, 2)
    assert g.rt.value("bot_need", (0,), {"me": 0}) == 4  # region 2 still has level-1 slots
