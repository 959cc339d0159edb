"""The worked examples of the Island Fortress digest (ISF-X1 .. ISF-X16). Seats A, B, C, D are P1..P4."""

from __future__ import annotations

from isf_support import (
    bare,
    bids,
    clear_favours,
    counts,
    fill,
    fresh,
    give_card,
    maybe,
    play,
    prison,
    put,
    roles_in,
    set_camp,
    set_counts,
    set_prison,
    skip_setup,
    texts,
    turn_of,
    wall,
)
from support import act
from test_island_fortress_scoring import S_ALL_BUT, end_now

A, B, C, D = 0, 1, 2, 3


def ready(players=2, first=A, **counters):
    g = turn_of(first, players)
    for r in range(1, wall(g)["regions"] + 1):
        set_prison(g, r)
    set_counts(g, first, **counters)
    clear_favours(g, *range(players))
    return g


def test_isf_x1_two_block_build_levels_two_and_three():
    g = ready(block=2, jade=1, laborer=7, convict=3)
    put(g, "R1L1C3", B)
    play(g, "Builder", "Builder A")
    act(g, "Two blocks")
    act(g, "R1L2C3")
    act(g, "0")  # 4 laborers
    act(g, "R1L3C3")  # 3 laborers + 3 convicts (the only mix left)
    assert prison(g, 1) == {"jade": 0, "convict": 1}
    assert counts(g, A, "jade", "laborer", "convict", "block") == (0, 3, 0, 0)
    assert wall(g)["pieces"]["R1L2C3"] == A and wall(g)["pieces"]["R1L3C3"] == A


def test_isf_x2_row_a_a_c_b_completed_by_b():
    g = ready(players=3, first=B, block=1, laborer=2, vp=0, buyback_disc=0)
    for s, who in zip(["R1L1C1", "R1L1C2", "R1L1C3", "R1L1C4"], [A, A, C, B]):
        put(g, s, who)
    set_counts(g, A, vp=0)
    set_counts(g, C, vp=0)
    play(g, "Builder", "Builder A")
    maybe(g, "R1L1C5")
    assert counts(g, B, "buyback_disc") == (1,)
    assert g.state["counters"]["vp"] == [3, 3, 0]


def test_isf_x3_row_a_gov_gov_gov_completed_by_c():
    g = ready(players=3, first=C, block=1, laborer=4, vp=0, buyback_disc=0)
    fill(g, row(2, 1), None)
    wall(g)["scored"].append("R2L1")
    set_camp(g, C, 2)
    put(g, "R2L2C1", A)
    fill(g, ["R2L2C2", "R2L2C3", "R2L2C4"], None)
    set_counts(g, A, vp=0)
    play(g, "Builder", "Builder A")
    maybe(g, "R2L2C5")
    assert counts(g, C, "buyback_disc") == (1,)
    assert counts(g, A, "vp") == (6,) and counts(g, C, "vp") == (6,)


def test_isf_x4_level_completion_after_the_row():
    g = ready(players=3, first=C, block=1, laborer=2, vp=0, treasure=0)
    for s, who in zip(row(1, 1), [A, None, B, A, A]):
        put(g, s, who)
    wall(g)["scored"].append("R1L1")
    for s, who in zip(row(2, 1)[:4], [C, A, C, B]):
        put(g, s, who)
    set_camp(g, C, 2)
    for s in (A, B):
        set_counts(g, s, vp=0, treasure=0)
    play(g, "Builder", "Builder A")
    maybe(g, "R2L1C5")
    assert counts(g, C, "buyback_disc", "vp") == (1, 3)
    assert counts(g, A, "treasure", "vp") == (1, 1)
    assert counts(g, B, "vp") == (0,)
    assert wall(g)["scored"].count("R1L1") == 1


def test_isf_x5_weakest_region():
    g = ready()
    fill(g, row(1, 1) + row(1, 2)[:2], A)
    fill(g, row(2, 1)[:4], A)
    fill(g, row(1, 3) + ["R1L4C1", "R1L4C5"] + row(1, 2)[2:], B)
    assert sum(1 for v in wall(g)["pieces"].values() if v == B) == 10
    result = end_now(g)
    assert result["parts"][A]["weakest"] == 12 and result["parts"][B]["weakest"] == 0


def test_isf_x6_taskmaster_repeat_and_buyback():
    g = turn_of(A)
    clear_favours(g, A, B)
    # pass 1: A plays anything; B plays the Builder (Builder A, one block)
    play(g, "Treasurer", "Treasurer A")
    set_counts(g, B, block=3, laborer=6, jade=0)
    play(g, "Builder", "Builder A")
    maybe(g, "One block")
    act(g, "R1L1C1")
    # pass 2: A again, then B with 7 jade for the repeat costs and the buyback
    play(g, "Recruiter", "Recruiter C")
    set_counts(g, B, jade=7, block=2, laborer=4, convict=0)
    play(g, "Taskmaster", "Taskmaster B")
    maybe(g, "Builder")
    assert counts(g, B, "jade") == (5,)
    maybe(g, "Builder A")
    act(g, "One block")
    act(g, "R1L1C2")
    act(g, "Pay 3 jade")
    act(g, "Taskmaster")
    act(g, "Taskmaster B")
    maybe(g, "Builder")
    maybe(g, "Builder A")
    act(g, "R1L1C3")
    assert counts(g, B, "jade") == (0,)
    assert roles_in(g, "played", B) == ["builder", "taskmaster"]
    assert g.pending["seat"] == A  # no second buyback: B's turn is over


def test_isf_x7_bid_tie_break_jade_then_clockwise_from_the_holder():
    g = fresh(4)
    skip_setup(g)
    g.state["vars"]["governor"] = D
    for s, j in zip((A, B, C, D), (4, 2, 4, 3)):
        set_counts(g, s, jade=j)
    give_card(g, B, "favour_21", "completed")  # bid +2
    for r in (1, 2, 3):
        set_prison(g, r)
    bids(g, {A: 4, B: 2, C: 4, D: 3})
    assert g.state["vars"]["revealed_bids"] == [4, 4, 4, 3]
    assert g.state["vars"]["governor"] == A
    assert counts(g, A, "jade", "governor_block") == (0, 1)
    assert g.state["counters"]["jade"][B] == 2 and g.state["counters"]["jade"][C] == 4
    assert prison(g, 1) == {"jade": 1, "convict": 1}


def test_isf_x8_the_holder_cannot_keep_the_marker():
    g = fresh(2)
    skip_setup(g)
    g.state["vars"]["governor"] = A
    bids(g, {A: 3, B: 3})
    assert g.state["vars"]["governor"] == B


def test_isf_x9_replacement():
    g = ready(block=1, laborer=8, convict=4, vp=0)
    set_camp(g, A, 2)
    fill(g, row(2, 1) + row(2, 2), None)
    fill(g, row(2, 3), A)
    put(g, "R2L3C2", B)
    wall(g)["scored"] += ["R2L1", "R2L2", "R2L3"]
    set_counts(g, B, block=0, vp=0)
    play(g, "Builder", "Builder C")
    maybe(g, "R2L3C2")  # 4 convicts + 8 laborers: the only mix
    assert wall(g)["pieces"]["R2L3C2"] == A
    assert counts(g, B, "block") == (1,)
    assert counts(g, A, "laborer", "convict", "block") == (4, 0, 0)
    assert g.state["counters"]["vp"] == [0, 0] and prison(g, 2) == {"jade": 0, "convict": 0}


def test_isf_x10_tower():
    g = ready(block=1, laborer=8, vp=0)
    for lv in (1, 2, 3):
        put(g, f"R1L{lv}C5", B)
    play(g, "Builder", "Builder A")
    maybe(g, "R1L4C5")
    assert counts(g, A, "vp") == (5,)
    g2 = turn_of(A, keep_governor=True)
    set_counts(g2, A, vp=0)
    for lv in (1, 2, 3):
        put(g2, f"R1L{lv}C5", B)
    act(g2, "Place your governor block")
    act(g2, "R1L4C5")
    assert g2.state["counters"]["vp"][A] == 0


def test_isf_x11_small_build_rounding():
    g = ready(block=1, laborer=1, convict=1)
    play(g, "Builder", "Builder A")
    act(g, "R1L1C1")
    assert counts(g, A, "laborer", "convict") == (0, 0)


def test_isf_x12_favour_completion_anywhere():
    g = ready(vp=0, treasure=0)
    give_card(g, A, "favour_03", "favours")
    fill(g, ["R2L1C1", "R2L2C1"], A)
    play(g, "Builder", "Builder B")
    maybe(g, "Favour 03")
    assert bare(g) == ["R2L1C1", "R2L2C1"]
    act(g, "R2L1C1")
    assert counts(g, A, "treasure", "vp") == (1, 3)
    c = g.program.type_instances["favour_03"][0]
    assert g.state["cards"][c]["z"] == "completed" and g.state["cards"][c]["up"]


def test_isf_x13_pattern_across_regions():
    g = ready(vp=0)
    give_card(g, A, "favour_01", "favours")
    fill(g, ["R1L1C5", "R2L1C1"], A)
    play(g, "Builder", "Builder B")
    act(g, "R2L1C1")
    assert counts(g, A, "vp") == (3,)


def test_isf_x14_game_end_by_wall_completion():
    g = ready(block=1, laborer=8, buyback_disc=1, jade=0, convict=0)
    for s in S_ALL_BUT("R1L4C5"):
        put(g, s, B)
    set_prison(g, 1, jade=2, convict=2)
    set_prison(g, 2, jade=1, convict=0)
    start = len(g.log)
    play(g, "Builder", "Builder A")  # one slot, one mix: no question
    assert g.over
    assert counts(g, A, "jade", "convict") == (3, 3)
    lines = texts(g, start)
    assert lines.index("The wall is complete: the game ends") < lines.index(
        next(t for t in lines if t.startswith("P1 scores"))
    )
    assert counts(g, A, "buyback_disc") == (1,)  # no step (c), no second action
    assert g.result["parts"][A]["play"] == 5  # the tower


def test_isf_x15_buyback_discs_at_the_end():
    g = ready(players=3)
    for s, d in zip((A, B, C), (2, 4, 6)):
        set_counts(g, s, buyback_disc=d)
    assert [p["discs"] for p in end_now(g)["parts"]] == [3, 10, 10]


def test_isf_x16_played_card_count_after_a_buyback():
    g = turn_of(A)
    clear_favours(g, A, B)
    play(g, "Treasurer", "Treasurer A")
    play(g, "Recruiter", "Recruiter C")  # B, pass 1
    play(g, "Planner", "Planner B")  # A, pass 2
    act(g, "Draw 3")
    g.answer(0)
    g.answer(0)
    while g.pending["seat"] != B:
        g.answer(0)
    set_counts(g, B, buyback_disc=1, block=2, laborer=4, convict=0)
    play(g, "Builder", "Builder A")
    maybe(g, "One block")
    act(g, "R1L1C1")
    act(g, "Spend a buyback disc")
    act(g, "Builder")
    maybe(g, "Builder A")
    maybe(g, "One block")
    act(g, "R1L1C2")
    assert roles_in(g, "played", B) == ["builder", "recruiter"]
    assert len(g.state["zones"][f"roles/{B}"]) == 3


def row(region, level):
    return [f"R{region}L{level}C{c}" for c in range(1, 6)]
