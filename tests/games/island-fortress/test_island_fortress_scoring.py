"""Island Fortress scoring, the end of the game, tie-breaks and variants (ISF-R82 .. ISF-R105,
ISF-R110 .. ISF-R112)."""

from __future__ import annotations

from isf_support import (
    bare,
    clear_favours,
    counts,
    fill,
    fresh,
    give_card,
    maybe,
    play,
    prompt,
    put,
    set_camp,
    set_counts,
    set_prison,
    skip_setup,
    texts,
    turn_of,
    wall,
)
from support import act

from mason.runtime.engine import run


def ready(players=2, first=0, variants=(), **counters):
    g = turn_of(first, players, variants=variants)
    for r in range(1, wall(g)["regions"] + 1):
        set_prison(g, r)
    set_counts(g, first, **counters)
    clear_favours(g, *range(players))
    return g


def end_now(g):
    """Stop the game here and run the final scoring (as the round end would)."""
    st = g.state
    st["pending"] = None
    del st["stack"][1:]
    st["ti"] = -1
    g.rt.sync_turn()
    g.rt.emit("final_scoring", {})
    st["over"] = True
    run(g.rt)
    assert g.over
    return g.result


def finish_now(g):
    """Stop the game here and rank the seats on their current scores (no final scoring steps)."""
    st = g.state
    st["pending"] = None
    del st["stack"][1:]
    st["ti"] = -1
    g.rt.sync_turn()
    st["over"] = True
    run(g.rt)
    return g.result


def row(region, level):
    return [f"R{region}L{level}C{c}" for c in range(1, 6)]


def level_slots(level, regions=2):
    return [s for r in range(1, regions + 1) for s in row(r, level)]


# ------------------------------------------------------------------ mid-game scoring
def test_isf_r82_completing_a_row_scores_it_at_once():
    g = ready(block=1, laborer=2)
    fill(g, row(1, 1)[:4], 1)
    play(g, "Builder", "Builder A")
    maybe(g, "R1L1C5")  # the only affordable slot
    assert counts(g, 1, "vp") == (3,)
    assert "R1L1" in wall(g)["scored"]


def test_isf_r83_the_completer_takes_a_disc_also_with_a_governor_block():
    g = turn_of(0, keep_governor=True)
    set_counts(g, 0, buyback_disc=0)
    fill(g, row(2, 1)[:4], 1)
    act(g, "Place your governor block")
    act(g, "R2L1C5")
    assert counts(g, 0, "buyback_disc") == (1,)
    assert counts(g, 1, "vp") == (3,)


def test_isf_r84_row_majority_three_six_ten_ties_all_governor_ignored_one_block_needed():
    for level, points in ((1, 3), (2, 6), (3, 10)):
        g = ready(block=1, laborer=2 * level, vp=0)
        for lv in range(1, level):
            fill(g, row(1, lv), None)
        put(g, f"R1L{level}C1", 0)
        put(g, f"R1L{level}C2", 1)
        fill(g, [f"R1L{level}C3", f"R1L{level}C4"], None)
        set_counts(g, 1, vp=0)
        play(g, "Builder", "Builder A")
        maybe(g, f"R1L{level}C5")
        assert counts(g, 0, "vp") == (points,) and counts(g, 1, "vp") == (0,), level
    g = ready(block=1, laborer=2, vp=0)
    put(g, "R1L1C1", 0)
    fill(g, row(1, 1)[1:3], 1)
    put(g, "R1L1C4", None)
    set_counts(g, 1, vp=0)
    play(g, "Builder", "Builder A")
    maybe(g, "R1L1C5")
    assert counts(g, 0, "vp") == (3,) and counts(g, 1, "vp") == (3,)  # 2 against 2: both in full
    g2 = turn_of(0, keep_governor=True)
    fill(g2, row(1, 1)[:4], None)
    set_counts(g2, 1, vp=0)
    act(g2, "Place your governor block")
    act(g2, "R1L1C5")  # nobody has a block: no points
    assert g2.state["counters"]["vp"] == [0, 0]


def test_isf_r85_own_block_on_level_four_scores_five():
    g = ready(block=1, laborer=8, vp=0)
    for lv in (1, 2, 3):
        put(g, f"R1L{lv}C5", 1)
    play(g, "Builder", "Builder A")
    act(g, "R1L4C5")
    assert counts(g, 0, "vp") == (5,)


def test_isf_r86_level_majority_takes_a_treasure_and_its_point():
    g = ready(block=1, laborer=2, vp=0, treasure=0)
    fill(g, level_slots(1), 1)
    fill(g, row(1, 1)[:3], 0)
    wall(g)["pieces"].pop("R2L1C5")
    put(g, "R2L1C4", None)
    for grp in ("R1L1",):
        wall(g)["scored"].append(grp)
    set_camp(g, 0, 2)
    set_counts(g, 1, vp=0, treasure=0)
    play(g, "Builder", "Builder A")
    maybe(g, "R2L1C5")
    # level 1: P1 4 (3 + the new one), P2 5 -> P2 takes the treasure
    assert counts(g, 1, "treasure", "vp") == (1, 1 + 6 * 0 + 3)
    assert counts(g, 0, "treasure") == (0,)
    assert "L1" in wall(g)["scored"]


def test_isf_r87_level_four_is_no_row_and_no_level():
    g = ready()
    assert g.rt.prog.boards["wall"]["group_levels"] == [1, 2, 3]
    from mason.primitives.slots import geometry

    geo = geometry(wall(g))
    assert geo.group_of["R1L4C1"]["row"] == [] and geo.group_of["R1L4C1"]["level"] == []


def test_isf_r88_disc_then_row_then_level_then_end_check():
    g = ready(players=2, block=1, laborer=2)
    fill(g, level_slots(1), 1)
    wall(g)["pieces"].pop("R1L1C5")
    fill(g, row(1, 1)[:3], 0)
    start = len(g.log)
    play(g, "Builder", "Builder A")
    maybe(g, "R1L1C5")
    lines = texts(g, start)
    i_disc = lines.index("P1 gains 1 buyback disc")
    i_row = next(i for i, t in enumerate(lines) if t.endswith("VP") and i > i_disc)
    i_level = lines.index("P2 gains 1 treasure")
    assert i_disc < i_row < i_level


def test_isf_r89_rows_levels_and_towers_score_once():
    g = ready(vp=0)
    fill(g, row(1, 1), 0)
    wall(g)["scored"].append("R1L1")  # scored when it was completed
    result = end_now(g)
    assert result["parts"][0]["rows"] == 0  # not again at the end
    assert wall(g)["scored"].count("R1L1") == 1
    from mason.primitives.slots import Geometry  # noqa: F401  (towers: see ISF-R65, ISF-X9)


def test_isf_r90_the_wall_complete_ends_the_game_after_the_action():
    g = ready(block=2, jade=1, laborer=10, buyback_disc=1)
    for s in list(
        __import__("itertools").chain.from_iterable(
            [f"R{r}L{lv}C{c}" for c in range(1, 6)] for r in (1, 2) for lv in (1, 2, 3)
        )
    ):
        put(g, s, 1)
    for s in ("R1L4C1", "R2L4C1", "R2L4C5"):
        put(g, s, 1)
    wall(g)["scored"] += ["R1L1", "R1L2", "R1L3", "R2L1", "R2L2", "R2L3", "L1", "L2", "L3"]
    play(g, "Builder", "Builder A")  # one slot left: one block only
    assert g.over
    assert "The wall is complete: the game ends" in texts(g)


def test_isf_r91_the_last_placer_takes_every_prison():
    g = turn_of(0, keep_governor=True)
    for s in S_ALL_BUT("R2L4C5"):
        put(g, s, 1)
    set_prison(g, 1, jade=2, convict=3)
    set_prison(g, 2, jade=1, convict=0)
    set_counts(g, 0, jade=0, convict=0)
    act(g, "Place your governor block")
    assert g.over
    assert g.state["counters"]["convict"][0] == 3 and g.state["counters"]["jade"][0] >= 3


def S_ALL_BUT(last, regions=2):
    out = [f"R{r}L{lv}C{c}" for r in range(1, regions + 1) for lv in (1, 2, 3) for c in range(1, 6)]
    out += [f"R{r}L4C{c}" for r in range(1, regions + 1) for c in (1, 5)]
    return [s for s in out if s != last]


def test_isf_r92_game_ends_at_round_end_when_the_governor_supply_is_empty():
    g = fresh(2)
    skip_setup(g)
    g.state["counters"]["governor_supply"] = 1
    start = len(g.log)
    while not g.over:
        g.answer([] if g.pending["subset"] else 0)
    assert g.result["rounds"] == 1
    assert "The governor supply is empty: the game ends" in texts(g, start)


def test_isf_r93_end_incomplete_rows_as_if_complete_no_disc():
    g = ready()
    put(g, "R1L2C1", 0)
    put(g, "R1L2C2", 0)
    put(g, "R1L2C3", 1)
    put(g, "R2L3C1", 1)
    set_counts(g, 0, buyback_disc=0)
    result = end_now(g)
    assert result["parts"][0]["rows"] == 6 and result["parts"][1]["rows"] == 10
    assert g.state["counters"]["buyback_disc"][0] == 0


def test_isf_r94_end_incomplete_levels_give_a_treasure_to_the_majority():
    g = ready(treasure=0)
    set_counts(g, 1, treasure=0)
    fill(g, ["R1L1C1", "R2L1C2"], 0)
    put(g, "R1L1C3", 1)
    result = end_now(g)
    assert result["parts"][0]["levels"] == 1 and result["parts"][1]["levels"] == 0
    assert g.state["counters"]["treasure"] == [1, 0]


def test_isf_r95_buyback_discs_score_by_table():
    for discs, points in ((0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (7, 10)):
        g = ready(buyback_disc=discs)
        assert end_now(g)["parts"][0]["discs"] == points


def test_isf_r96_weakest_region_three_per_block():
    g = ready()
    fill(g, row(1, 1) + row(1, 2)[:2], 0)  # 7 in region 1
    fill(g, row(2, 1)[:4], 0)  # 4 in region 2
    fill(g, row(1, 3), 1)
    result = end_now(g)
    assert result["parts"][0]["weakest"] == 12 and result["parts"][1]["weakest"] == 0


def test_isf_r97_most_treasure_plus_three_fewest_minus_three():
    g = ready(players=3)
    for s, t in enumerate((5, 2, 2)):
        set_counts(g, s, treasure=t)
    result = end_now(g)
    assert [p["treasure"] for p in result["parts"]] == [3, -3, -3]
    g2 = ready(players=2)
    set_counts(g2, 0, treasure=4)
    set_counts(g2, 1, treasure=4)
    assert [p["treasure"] for p in end_now(g2)["parts"]] == [0, 0]  # ISF-D19


def test_isf_r98_most_jade_plus_three_ties_all():
    g = ready(players=3)
    for s, j in enumerate((6, 6, 1)):
        set_counts(g, s, jade=j)
    assert [p["jade"] for p in end_now(g)["parts"]] == [3, 3, 0]


def test_isf_r99_most_workers_plus_three():
    g = ready(players=3)
    for s, (lab, con) in enumerate(((1, 4), (3, 1), (0, 0))):
        set_counts(g, s, laborer=lab, convict=con)
    assert [p["workers"] for p in end_now(g)["parts"]] == [3, 0, 0]


def test_isf_r100_favours_in_hand_count_for_nothing():
    g = ready()
    give_card(g, 0, "favour_35", "favours")
    give_card(g, 0, "favour_13", "favours")
    result = end_now(g)
    assert result["scores"][0] == sum(result["parts"][0].values())
    assert result["parts"][0]["play"] == g.state["counters"]["vp"][0]


def test_isf_r101_highest_score_wins():
    g = ready(vp=20)
    set_counts(g, 1, vp=0)
    assert end_now(g)["winners"] == [0]


def _tied():
    g = ready(players=2, vp=10)
    set_counts(g, 1, vp=10)
    return g


def test_isf_r102_tie_break_most_own_blocks_on_the_wall():
    g = _tied()
    set_counts(g, 0, jade=0)
    set_counts(g, 1, jade=9)
    fill(g, ["R1L1C1", "R2L1C1", "R1L1C3"], 0)
    fill(g, ["R1L1C2", "R2L1C2"], 1)
    r = finish_now(g)
    assert r["scores"] == [10, 10] and r["winners"] == [0]


def test_isf_r103_tie_break_then_most_jade():
    g = _tied()
    fill(g, ["R1L1C1"], 0)
    fill(g, ["R1L1C2"], 1)
    set_counts(g, 0, jade=3, treasure=0)
    set_counts(g, 1, jade=2, treasure=9)
    r = finish_now(g)
    assert r["winners"] == [0]


def test_isf_r104_tie_break_then_most_treasure():
    g = _tied()
    set_counts(g, 0, jade=2, treasure=0)
    set_counts(g, 1, jade=2, treasure=1)
    r = finish_now(g)
    assert r["winners"] == [1]


def test_isf_r105_still_tied_players_share_the_victory():
    g = _tied()
    set_counts(g, 0, jade=2, treasure=1)
    set_counts(g, 1, jade=2, treasure=1)
    r = finish_now(g)
    assert r["winners"] == [0, 1]


# ------------------------------------------------------------------ variants
def test_isf_r110_variant_level_majority_gives_an_extra_point():
    g = ready(variants=("level_bonus_extra_point",), treasure=0)
    set_counts(g, 1, treasure=0)
    put(g, "R1L1C1", 0)
    result = end_now(g)
    assert result["parts"][0]["levels"] == 2
    g2 = ready(variants=("level_bonus_extra_point",), block=1, laborer=2, vp=0)
    fill(g2, level_slots(1), 1)
    wall(g2)["pieces"].pop("R1L1C5")
    wall(g2)["scored"] += ["R1L1"]
    fill(g2, row(1, 1)[:4], None)
    set_counts(g2, 1, vp=0)
    play(g2, "Builder", "Builder A")
    # level 1: P2 5 blocks, P1 1: P2 takes 1 treasure and 1 + 1 VP
    assert counts(g2, 1, "treasure", "vp") == (1, 2)


def test_isf_r111_variant_limited_tokens():
    g = ready(variants=("limited_tokens",), jade=15)
    assert sum(g.state["counters"]["jade"]) + sum(v["jade"] for v in wall(g)["stores"].values()) <= 100
    set_counts(g, 1, laborer=43)
    play(g, "Recruiter", "Recruiter A")
    assert bare(g) == ["1", "2"]  # 45 laborers in all
    g2 = ready(variants=("limited_tokens",))
    set_counts(g2, 1, convict=75)
    play(g2, "Planner", "Planner A")
    maybe(g2, "1")
    assert wall(g2)["stores"]["1"]["convict"] == 0  # no convict left: deposit skipped
    g3 = ready(variants=("limited_tokens",))
    give_card(g3, 0, "favour_01", "favours")
    fill(g3, ["R1L1C1", "R1L1C2"], 0)
    for i in range(18):
        put(g3, f"R2L{1 + i // 5}C{1 + i % 5}" if i < 15 else f"R1L2C{i - 14}", 1, marks=1)
    act(g3, "Play a role card")
    assert "Builder" not in g3.legal()  # B was its only action: no token left
    g3.state["boards"]["wall"]["marks"].pop("R2L1C1")
    from support import refresh_pending

    refresh_pending(g3)
    assert "Builder" in g3.legal()


def test_isf_r112_variant_taskmaster_repeats_a_role_bought_back_earlier():
    def through_other_turn(g):
        while not (g.pending["seat"] == 0 and prompt(g) in ("Choose an action", "Play which role card?")):
            g.answer([] if g.pending["subset"] else 0)

    for variant in ((), ("repeat_any_played_role",)):
        g = ready(variants=variant, buyback_disc=1, jade=10)
        play(g, "Treasurer")  # no convicts: Treasurer A at once
        act(g, "Spend a buyback disc")
        act(g, "Recruiter")
        act(g, "Recruiter C")
        through_other_turn(g)
        set_counts(g, 0, jade=10)
        play(g, "Taskmaster", "Taskmaster B")
        if variant:
            assert prompt(g) == "Repeat which role?"
            assert sorted(l.split(" (")[0] for l in bare(g)) == ["Recruiter", "Treasurer"]
        else:  # only the face-up Recruiter: taken at once
            assert prompt(g) == "Name an action of the card"
            assert all(l.startswith("Recruiter") for l in bare(g))
