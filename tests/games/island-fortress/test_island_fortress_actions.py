"""Island Fortress actions and favour rewards (ISF-R38 .. ISF-R81)."""

from __future__ import annotations

from isf_support import (
    bare,
    clear_favours,
    counts,
    fill,
    give_card,
    maybe,
    move_role,
    play,
    prison,
    prompt,
    put,
    roles_in,
    set_camp,
    set_counts,
    set_prison,
    texts,
    turn_of,
    wall,
)
from support import act


def ready(players=2, **counters):
    """P1's first turn with an empty prison in region 1 and the given counters."""
    g = turn_of(0, players)
    for r in range(1, wall(g)["regions"] + 1):
        set_prison(g, r)
    set_counts(g, 0, **counters)
    clear_favours(g, 0, 1)
    return g


def owner(g, slot):
    return wall(g)["pieces"].get(slot, "empty")


# ------------------------------------------------------------------ Recruiter
def test_isf_r38_recruiter_a_convict_to_prison_then_buy_laborers():
    g = ready(jade=15)
    play(g, "Recruiter", "Recruiter A")
    assert prison(g, 1)["convict"] == 1  # before the purchase
    assert prompt(g).startswith("Buy how many laborers") and bare(g) == ["1", "2", "3", "4", "5"]
    # each quantity with its price (ISF-R38's 0/1/2/4/6 jade, from purchase_prices: issue 30)
    assert g.legal() == ["1 (pay 0 jade)", "2 (pay 1 jade)", "3 (pay 2 jade)", "4 (pay 4 jade)", "5 (pay 6 jade)"]
    act(g, "4")
    assert counts(g, 0, "jade", "laborer") == (11, 4)


def test_isf_r39_recruiter_a_only_affordable_quantities():
    g = ready(jade=1)
    play(g, "Recruiter", "Recruiter A")
    assert bare(g) == ["1", "2"]
    g2 = ready(jade=0)
    play(g2, "Recruiter", "Recruiter A")  # only 1 laborer (free): no question
    assert counts(g2, 0, "laborer", "jade") == (1, 0)


def test_isf_r40_recruiter_b_two_laborers_for_six_convicts():
    g = ready(laborer=3, convict=1)
    play(g, "Recruiter", "Recruiter B")
    assert counts(g, 0, "laborer", "convict") == (1, 7)


def test_isf_r41_recruiter_c_empties_the_local_prison_even_when_empty():
    g = ready(jade=0)
    set_prison(g, 1, jade=3, convict=4)
    set_prison(g, 2, jade=5, convict=5)
    play(g, "Recruiter", "Recruiter C")
    assert counts(g, 0, "jade", "convict") == (3, 4)
    assert prison(g, 1) == {"jade": 0, "convict": 0} and prison(g, 2) == {"jade": 5, "convict": 5}
    g2 = ready(jade=0)
    play(g2, "Recruiter", "Recruiter C")
    assert counts(g2, 0, "jade", "convict") == (0, 0)
    assert "The prison of region 1 is empty" in texts(g2)


# ------------------------------------------------------------------ Planner
def test_isf_r42_planner_a_convict_to_prison_then_buy_own_blocks():
    g = ready(jade=10)
    play(g, "Planner", "Planner A")
    assert prison(g, 1)["convict"] == 1
    act(g, "5")
    assert counts(g, 0, "jade", "stock", "block") == (4, 13, 5)


def test_isf_r43_planner_a_limited_by_stock_and_jade():
    g = ready(jade=10, stock=2)
    play(g, "Planner", "Planner A")
    assert bare(g) == ["1", "2"]
    g2 = ready(jade=2, stock=18)
    play(g2, "Planner", "Planner A")
    assert bare(g2) == ["1", "2", "3"]


def test_isf_r44_planner_b_draw_keep_rest_to_the_bottom_in_chosen_order():
    g = ready()
    deck = g.state["zones"]["favour_deck"]
    top5 = list(reversed(deck[-5:]))
    hand0 = len(g.state["zones"]["favours/0"])
    play(g, "Planner", "Planner B")
    assert bare(g) == ["Draw 3, keep 2", "Draw 5, keep 1"]
    act(g, "Draw 5")
    assert sorted(g.pending["options"]) == sorted(top5)
    g.answer(0)  # keep one
    kept = g.state["zones"]["favours/0"][-1]
    assert len(g.state["zones"]["favours/0"]) == hand0 + 1
    order = []
    while prompt(g).startswith("Put which card"):
        order.append(g.pending["options"][-1])
        g.answer(len(g.pending["options"]) - 1)
    rest = [c for c in top5 if c != kept and c not in order]
    assert deck[:4] == list(reversed(order + rest))  # the first put under lies deepest... then on
    assert set(deck[:4]) == set(top5) - {kept}


def test_isf_r45_planner_c_removes_a_local_reinforcement_of_anyone():
    g = ready()
    put(g, "R1L1C2", 1, marks=1)
    put(g, "R2L1C2", 0, marks=1)
    play(g, "Planner", "Planner C")
    assert not wall(g)["marks"].get("R1L1C2")
    assert wall(g)["marks"]["R2L1C2"] == {"reinforcement": 1}
    g2 = ready()
    put(g2, "R2L1C2", 0, marks=1)  # not local: no Planner C
    play(g2, "Planner")
    assert not any(l.startswith("Planner C") for l in bare(g2))


# ------------------------------------------------------------------ Builder A
def test_isf_r46_builder_a_convict_first_two_blocks_cost_one_jade():
    g = ready(block=2, jade=1, laborer=4)
    play(g, "Builder", "Builder A")
    assert g.legal() == ["One block", "Two blocks (1 jade more)"]
    act(g, "Two blocks")
    assert prison(g, 1)["convict"] == 1 and counts(g, 0, "jade") == (0,)
    act(g, "R1L1C1")
    act(g, "R1L1C2")
    assert counts(g, 0, "block") == (0,)
    g2 = ready(block=1, jade=5, laborer=8)
    play(g2, "Builder", "Builder A")
    assert prompt(g2) == "Build where?"  # one block on the board: no two-block choice


def test_isf_r47_only_empty_slots_of_the_local_region():
    g = ready(block=1, laborer=2)
    put(g, "R1L1C3", 1)
    play(g, "Builder", "Builder A")
    assert bare(g) == ["R1L1C1", "R1L1C2", "R1L1C4", "R1L1C5"]


def test_isf_r48_upper_slots_need_a_block_below_of_any_kind():
    g = ready(block=1, laborer=8)
    fill(g, ["R1L1C1", "R1L1C2", "R1L1C3", "R1L1C4"], 1)
    put(g, "R1L1C5", None)  # a governor block supports too
    play(g, "Builder", "Builder A")
    assert bare(g) == [f"R1L2C{c}" for c in range(1, 6)]


def test_isf_r49_level_four_only_at_the_region_ends():
    g = ready(block=1, laborer=8)
    for lv in (1, 2, 3):
        fill(g, [f"R1L{lv}C{c}" for c in range(1, 6)], 1)
    play(g, "Builder", "Builder A")
    assert bare(g) == ["R1L4C1", "R1L4C5"]


def test_isf_r50_workers_by_level_in_any_mix():
    g = ready(block=1, laborer=1, convict=1)
    fill(g, ["R1L1C1"], 1)
    act(g, "Play a role card")
    assert "Builder" in bare(g)
    act(g, "Builder")
    assert bare(g) == ["R1L1C2", "R1L1C3", "R1L1C4", "R1L1C5"]  # level 2 needs 4 workers
    assert g.legal()[0] == "R1L1C2 (2 workers)"  # each slot with the workers it needs (issue 30)
    act(g, "R1L1C2")
    assert counts(g, 0, "laborer", "convict") == (0, 0)  # 1 laborer + 1 convict, nothing back
    g2 = ready(block=1, laborer=3, convict=3)
    fill(g2, ["R1L1C1"], 1)
    play(g2, "Builder", "Builder A")
    act(g2, "R1L2C1")
    assert bare(g2) == ["1", "2", "3"]  # convicts among the 4 workers
    g3 = ready(block=1, laborer=1, convict=4)
    fill(g3, ["R1L1C1"], 1)
    play(g3, "Builder", "Builder A")
    n = len(g3.log)
    act(g3, "R1L2C1")
    said = [e["text"] for e in g3.log[n:] if "text" in e]
    assert "P1 pays 4 workers (1 laborer and 4 convicts on the board)" in said, said  # not "1 laborers"


def test_isf_r51_the_second_block_may_rest_on_the_first():
    g = ready(block=2, jade=1, laborer=6)
    fill(g, ["R1L1C2", "R1L1C3", "R1L1C4", "R1L1C5"], 1)
    play(g, "Builder", "Builder A")
    act(g, "Two blocks")
    assert "R1L1C1" in bare(g)
    act(g, "R1L1C1")
    assert "R1L2C1" in bare(g)
    act(g, "R1L2C1")
    assert owner(g, "R1L2C1") == 0


def test_isf_r52_attrition_convicts_lost_half_the_laborers_rounded_up_lost():
    g = ready(block=2, jade=1, laborer=5, convict=1)
    play(g, "Builder", "Builder A")
    act(g, "Two blocks")
    act(g, "R1L1C1")
    act(g, "0")  # 2 laborers
    act(g, "R1L1C2")
    act(g, "1")  # 1 laborer + 1 convict
    # 3 laborers paid in all: 2 lost, 1 back (rounded once over the action, not 1 + 1)
    assert counts(g, 0, "laborer", "convict") == (2 + 1, 0)


def test_isf_r53_each_block_scores_before_the_second_is_placed():
    g = ready(block=2, jade=1, laborer=6)
    fill(g, ["R1L1C1", "R1L1C2", "R1L1C3", "R1L1C4"], 1)
    play(g, "Builder", "Builder A")
    act(g, "Two blocks")
    act(g, "R1L1C5")
    assert prompt(g) == "Build the second block where?"
    assert counts(g, 0, "buyback_disc") == (1,) and counts(g, 1, "vp") == (3,)


# ------------------------------------------------------------------ Builder B (favours)
def test_isf_r54_builder_b_completes_a_matched_favour_no_convict_to_prison():
    g = ready()
    give_card(g, 0, "favour_01", "favours")
    fill(g, ["R2L1C3", "R2L1C4"], 0)
    play(g, "Builder", "Builder B")
    maybe(g, "Favour 01")
    act(g, "R2L1C3")
    assert prison(g, 1) == {"jade": 0, "convict": 0}
    assert "favour_01" in [g.state["cards"][c]["t"] for c in g.state["zones"]["completed/0"]]


def test_isf_r55_pattern_cells_must_be_own_unreinforced_blocks():
    for other in (1, None):  # opponent block, governor block
        g = ready(stock=0)
        give_card(g, 0, "favour_01", "favours")
        put(g, "R1L1C1", 0)
        put(g, "R1L1C2", other)
        act(g, "Play a role card")
        assert "Builder" not in bare(g)
    g = ready(stock=0)
    give_card(g, 0, "favour_01", "favours")
    put(g, "R1L1C1", 0)
    put(g, "R1L1C2", 0, marks=1)
    act(g, "Play a role card")
    assert "Builder" not in bare(g)


def test_isf_r56_patterns_are_upright_never_rotated_or_mirrored():
    g = ready(stock=0)
    give_card(g, 0, "favour_05", "favours")  # (0,0)(1,1): rising diagonal
    fill(g, ["R1L1C2", "R1L1C3", "R1L2C2"], 1)
    put(g, "R1L1C1", 0)
    put(g, "R1L2C2", 0)  # (1,0) and (0,1): not the same shape
    put(g, "R1L1C2", 1)
    put(g, "R1L2C1", 0)
    put(g, "R1L1C3", 0)
    # own blocks: C1L1, C1L2, C2L2, C3L1 -> the rising diagonal C1L1-C2L2 exists
    act(g, "Play a role card")
    assert "Builder" in bare(g)
    g2 = ready(stock=0)
    give_card(g2, 0, "favour_05", "favours")
    put(g2, "R1L1C2", 0)
    put(g2, "R1L1C1", 1)
    put(g2, "R1L2C1", 0)  # falling diagonal only
    act(g2, "Play a role card")
    assert "Builder" not in bare(g2)
    g3 = ready(stock=0)
    give_card(g3, 0, "favour_01", "favours")  # horizontal pair
    fill(g3, ["R1L1C1", "R1L2C1"], 0)  # a vertical pair is no rotation of it
    act(g3, "Play a role card")
    assert "Builder" not in g3.legal()


def test_isf_r57_anywhere_on_the_wall_across_region_borders():
    g = ready()
    set_camp(g, 0, 1)
    give_card(g, 0, "favour_01", "favours")
    fill(g, ["R1L1C5", "R2L1C1"], 0)
    play(g, "Builder", "Builder B")
    assert bare(g) == ["R1L1C5", "R2L1C1"]


def test_isf_r58_one_reinforcement_on_a_block_of_the_players_choice():
    g = ready()
    give_card(g, 0, "favour_03", "favours")
    fill(g, ["R2L1C1", "R2L2C1"], 0)
    play(g, "Builder", "Builder B")
    assert prompt(g).startswith("Put the reinforcement") and bare(g) == ["R2L1C1", "R2L2C1"]
    act(g, "R2L2C1")
    assert wall(g)["marks"] == {"R2L2C1": {"reinforcement": 1}}


def test_isf_r59_completed_favour_face_up_rewards_now_and_lasting():
    g = ready(jade=0)
    give_card(g, 0, "favour_13", "favours")  # H3, income +1, 1 VP
    fill(g, ["R1L1C1", "R1L1C2", "R1L1C3"], 0)
    play(g, "Builder", "Builder B")
    act(g, "R1L1C1")
    c = g.program.type_instances["favour_13"][0]
    assert g.state["cards"][c]["z"] == "completed" and g.state["cards"][c]["up"]
    assert counts(g, 0, "vp") == (1,)
    assert g.rt.value("income", (0,), {}) == 4


def test_isf_r60_a_reinforced_block_cannot_be_replaced_nor_used_in_patterns_and_still_counts():
    g = ready(block=1, laborer=4)
    set_counts(g, 1, vp=0)
    put(g, "R1L1C1", 1, marks=1)
    put(g, "R1L1C2", 1)
    put(g, "R1L1C3", 1)
    play(g, "Builder", "Builder C")
    assert bare(g) == ["R1L1C2", "R1L1C3"]
    assert g.legal() == ["R1L1C2 (4 workers)", "R1L1C3 (4 workers)"]  # double workers, shown (issue 30)
    w = wall(g)
    from mason.primitives.slots import majority

    assert majority(w, ["R1L1C1"], [0, 1]) == [1]


def test_isf_r61_unreinforced_blocks_of_a_completed_pattern_serve_again():
    g = ready(buyback_disc=1)
    give_card(g, 0, "favour_01", "favours")
    give_card(g, 0, "favour_10", "favours")  # (0,0)(2,0)
    fill(g, ["R1L1C1", "R1L1C2", "R1L1C3"], 0)
    play(g, "Builder", "Builder B")
    act(g, "Favour 01")
    act(g, "R1L1C2")  # reinforce the middle block
    act(g, "Spend a buyback disc")
    act(g, "Builder")
    maybe(g, "Builder B")  # C1 and C3 still match favour 10
    maybe(g, "Favour 10")
    assert bare(g) == ["R1L1C1", "R1L1C3"]
    act(g, "R1L1C3")
    assert "favour_10" in [g.state["cards"][c]["t"] for c in g.state["zones"]["completed/0"]]


# ------------------------------------------------------------------ Builder C (replace)
def test_isf_r62_replace_an_opponent_block_not_governor_not_own_not_reinforced():
    g = ready(block=1, laborer=8)
    put(g, "R1L1C1", None)
    put(g, "R1L1C2", 0)
    put(g, "R1L1C3", 1, marks=1)
    put(g, "R1L1C4", 1)
    put(g, "R2L1C1", 1)  # not local
    play(g, "Builder", "Builder C")
    assert bare(g) == ["R1L1C4"] or prompt(g) != "Replace which block?"
    assert owner(g, "R1L1C4") == 0
    assert prison(g, 1) == {"jade": 0, "convict": 0}


def test_isf_r63_replacing_needs_double_workers():
    g = ready(block=1, laborer=7)
    put(g, "R1L1C1", 0)
    put(g, "R1L2C1", 1)  # level 2: 8 workers
    put(g, "R1L1C2", 1)  # level 1: 4 workers
    play(g, "Builder", "Builder C")
    assert owner(g, "R1L1C2") == 0  # the only affordable target
    assert counts(g, 0, "laborer") == (7 - 4 + 2,)


def test_isf_r64_the_replaced_block_returns_to_its_owners_board():
    g = ready(block=1, laborer=4)
    set_counts(g, 1, block=0)
    put(g, "R1L1C1", 1)
    play(g, "Builder", "Builder C")
    assert counts(g, 1, "block") == (1,) and counts(g, 0, "block") == (0,)


def test_isf_r65_a_replacement_scores_nothing():
    g = ready(block=1, laborer=16)
    for lv in (1, 2, 3):
        fill(g, [f"R1L{lv}C{c}" for c in range(1, 6)], 1)
    put(g, "R1L4C1", 1)
    for grp in ("R1L1", "R1L2", "R1L3"):
        wall(g)["scored"].append(grp)
    set_counts(g, 1, vp=0)
    play(g, "Builder", "Builder C")
    act(g, "R1L4C1")
    assert counts(g, 0, "vp", "buyback_disc") == (0, 0) and counts(g, 1, "vp") == (0,)


# ------------------------------------------------------------------ Treasurer
def test_isf_r66_treasurer_a_three_jade_plus_one_per_three_treasure():
    g = ready(jade=0, treasure=7)
    play(g, "Treasurer", "Treasurer A")
    assert counts(g, 0, "jade") == (5,)


def test_isf_r67_treasurer_b_two_convicts_to_two_prisons_one_treasure_one_vp():
    g = ready(convict=3, treasure=0)
    play(g, "Treasurer", "Treasurer B")
    assert prison(g, 1)["convict"] == 1 and prison(g, 2)["convict"] == 1
    assert counts(g, 0, "convict", "treasure", "vp") == (1, 1, 1)
    g4 = ready(players=4, convict=2)
    play(g4, "Treasurer", "Treasurer B")
    assert prompt(g4) == "Which region's prison gets no convict?"
    act(g4, "1")
    assert [prison(g4, r)["convict"] for r in (1, 2, 3)] == [0, 1, 1]


# ------------------------------------------------------------------ Taskmaster
def test_isf_r68_taskmaster_a_moves_to_any_other_region():
    g = ready(players=4)
    play(g, "Taskmaster", "Taskmaster A")
    assert bare(g) == ["2", "3"]
    act(g, "3")
    assert g.state["vars"]["camp"][0] == 3


def test_isf_r69_taskmaster_b_repeats_a_face_up_role_for_its_repeat_cost():
    g = ready(jade=5, treasure=0)
    move_role(g, 0, "treasurer", "played")
    move_role(g, 0, "recruiter", "played")
    play(g, "Taskmaster", "Taskmaster B")
    assert bare(g) == ["Treasurer", "Recruiter"]
    act(g, "Treasurer")
    assert counts(g, 0, "jade") == (5 - 3 + 3,)  # repeat cost 3, then Treasurer A
    g2 = ready(jade=5)
    play(g2, "Taskmaster")  # nothing face up: only Taskmaster A
    assert prompt(g2) != "Name an action of the card" and g2.state["vars"]["camp"][0] == 2


def test_isf_r70_a_repeated_action_follows_its_normal_rules():
    g = ready(jade=3, block=2, laborer=4)
    move_role(g, 0, "builder", "played")
    play(g, "Taskmaster", "Taskmaster B")
    maybe(g, "Builder")  # pays 2, 1 jade left
    maybe(g, "Builder A")
    act(g, "Two blocks")
    assert prison(g, 1)["convict"] == 1 and counts(g, 0, "jade") == (0,)


def test_isf_r71_taskmaster_bought_back_and_used_again_pays_again():
    g = ready(jade=3 + 1 + 1, treasure=0)
    move_role(g, 0, "recruiter", "played")
    play(g, "Taskmaster", "Taskmaster B")
    maybe(g, "Recruiter")  # the only face-up role: chosen at once
    act(g, "Recruiter C")
    act(g, "Pay 3 jade")
    act(g, "Taskmaster")
    act(g, "Taskmaster B")
    maybe(g, "Recruiter")
    act(g, "Recruiter C")
    assert counts(g, 0, "jade") == (0,)
    assert roles_in(g, "played", 0) == ["recruiter", "taskmaster"]


# ------------------------------------------------------------------ governor block
def test_isf_r72_governor_block_before_between_and_after_actions():
    g = turn_of(0, keep_governor=True)
    assert "Place your governor block" in bare(g)  # before the first action
    g2 = turn_of(0, keep_governor=True)
    set_counts(g2, 0, block=2, jade=1, laborer=6)
    play(g2, "Builder", "Builder A")
    act(g2, "Two blocks")
    act(g2, "R1L1C1")
    assert prompt(g2) == "Before the second block"
    act(g2, "Place your governor block first")
    act(g2, "R2L1C1")
    assert wall(g2)["pieces"]["R2L1C1"] is None
    act(g2, "R1L2C1")
    g3 = turn_of(0, keep_governor=True)
    play(g3, "Treasurer", "Treasurer A")
    assert "Place your governor block" in g3.legal()  # after the action
    act(g3, "Place your governor block")
    act(g3, "R2L1C5")
    assert counts(g3, 0, "governor_block") == (0,)


def test_isf_r73_governor_placement_costs_nothing_and_ignores_the_taskmaster():
    g = turn_of(0, keep_governor=True)
    set_prison(g, 1)
    set_prison(g, 2)
    before = counts(g, 0, "jade", "laborer", "convict")
    act(g, "Place your governor block")
    assert "R2L1C3" in bare(g)
    act(g, "R2L1C3")
    assert counts(g, 0, "jade", "laborer", "convict") == before
    assert prison(g, 1)["convict"] == prison(g, 2)["convict"] == 0


def test_isf_r74_governor_block_needs_an_empty_supported_slot():
    g = turn_of(0, keep_governor=True)
    for lv in (1, 2, 3):
        fill(g, [f"R1L{lv}C{c}" for c in range(1, 6)], 1)
    fill(g, [f"R2L1C{c}" for c in range(1, 6)], 1)
    act(g, "Place your governor block")
    assert bare(g) == ["R1L4C1", "R1L4C5"] + [f"R2L2C{c}" for c in range(1, 6)]


def test_isf_r75_governor_blocks_belong_to_nobody():
    g = ready(block=1, laborer=8)
    put(g, "R1L1C1", None)
    put(g, "R1L1C2", 1)
    put(g, "R1L1C3", 1)
    put(g, "R1L1C5", 0)
    put(g, "R1L1C4", None)
    put(g, "R1L2C1", 0)  # supported by the governor block
    give_card(g, 0, "favour_01", "favours")  # own C5 + governor C4: no pair
    from mason.primitives.slots import majority

    assert majority(wall(g), ["R1L1C1", "R1L1C4"], [0, 1]) == []
    assert g.rt.value("own_blocks", (0,), {"me": 0}) == 2
    assert g.rt.value("completable", (0,), {"me": 0}) == []
    play(g, "Builder", "Builder C")
    assert bare(g) == ["R1L1C2", "R1L1C3"]  # never the governor blocks


# ------------------------------------------------------------------ favour rewards
def test_isf_r76_income_reward_applies_in_every_later_income():
    g = ready()
    give_card(g, 0, "favour_13", "completed")
    give_card(g, 0, "favour_18", "completed")
    assert g.rt.value("income", (0,), {}) == 5


def test_isf_r77_bid_reward_counts_even_with_a_zero_jade_bid():
    g = ready()
    give_card(g, 1, "favour_28", "completed")  # bid +2
    assert g.rt.value("bid_bonus", (1,), {}) == 2


def test_isf_r78_one_time_jade_vp_convicts_laborers():
    g = ready(jade=0, vp=0, laborer=0)
    give_card(g, 0, "favour_07", "favours")  # 3 jade, 1 VP, 1 laborer
    fill(g, ["R1L2C1", "R1L1C2", "R1L1C1"], 0)  # (0,1)(1,0)
    play(g, "Builder", "Builder B")
    act(g, "R1L2C1")
    assert counts(g, 0, "jade", "vp", "laborer") == (3, 1, 1)
    g2 = ready(convict=0, vp=0)
    give_card(g2, 0, "favour_08", "favours")  # 4 convicts, 2 VP
    fill(g2, ["R1L2C1", "R1L1C2", "R1L1C1"], 0)
    play(g2, "Builder", "Builder B")
    act(g2, "R1L2C1")
    assert counts(g2, 0, "convict", "vp") == (4, 2)


def test_isf_r79_treasure_reward_scores_one_vp_each():
    g = ready(treasure=0, vp=0)
    give_card(g, 0, "favour_09", "favours")  # 2 treasure
    fill(g, ["R1L1C1", "R1L1C3"], 0)
    play(g, "Builder", "Builder B")
    act(g, "R1L1C1")
    assert counts(g, 0, "treasure", "vp") == (2, 2)


def test_isf_r80_a_disc_reward_can_buy_back_at_once():
    g = ready(buyback_disc=0)
    give_card(g, 0, "favour_05", "favours")  # 1 disc, 1 VP, 1 convict
    fill(g, ["R1L1C1", "R1L2C2", "R1L1C2"], 0)
    play(g, "Builder", "Builder B")
    act(g, "R1L1C1")
    assert "Spend a buyback disc to take back the card just played and act again" in bare(g)


def test_isf_r81_block_reward_limited_by_the_stock():
    g = ready(stock=1, block=0)
    give_card(g, 0, "favour_06", "favours")  # 2 blocks
    fill(g, ["R1L1C1", "R1L2C2", "R1L1C2"], 0)
    play(g, "Builder", "Builder B")
    act(g, "R1L1C1")
    assert counts(g, 0, "stock", "block") == (0, 1)
