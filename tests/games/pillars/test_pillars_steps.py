"""The Pillars of the Earth: Phase III steps, building, payments (POE-R53 .. POE-R118)."""

from __future__ import annotations

import pytest
from pillars_tools import event, game, gold, plain, step, vp
from scenario import card, clear, counter, done, finish, occupy, put, run, run_phase, set_counter, types, var, zone
from support import act


def _only(g, s, *type_ids):
    clear(g, "craftsmen", s)
    return [put(g, t, "craftsmen", s) for t in type_ids]


# ------------------------------------------------------------------ step 1: event and Bishop
def test_poe_r53_event_revealed_at_step_one():
    g = plain(game(3))
    event(g, "all_gain_1_metal")
    step(g, "bishop")
    assert types(g, "event_now") == ["all_gain_1_metal"]
    assert g.state["cards"][zone(g, "event_now")[0]]["up"]
    assert [counter(g, "metal", s) for s in range(3)] == [1, 1, 1]


def test_poe_r54_five_positive_five_negative():
    p = game(2).program
    events = [t for t in p.type_order if p.family_of[t] == "event"]
    assert len(events) == 10
    assert {t for t in events if p.types[t]["harmful"]} == {
        "discard_craftsman",
        "two_master_builders_next_round",
        "resource_cards_minus_1",
        "all_lose_2_vp",
        "all_lose_4_gold",
    }


def test_poe_r55_bishop_chooses_protection_or_cube():
    g = plain(game(2))
    occupy(g, "bishop", [1])
    event(g, "all_lose_2_vp")
    step(g, "bishop")
    assert g.pending["seat"] == 1 and g.legal() == ["Protection (Schutz)", "One cube (Rohstoff)"]


def test_poe_r56_protection_blocks_negative_event():
    g = plain(game(2))
    for s in (0, 1):
        set_counter(g, "vp", s, 5)
    occupy(g, "bishop", [1])
    event(g, "all_lose_2_vp")
    step(g, "bishop")
    act(g, "Protection")
    assert vp(g, 0) == 3 and vp(g, 1) == 5


def test_poe_r56_protection_does_not_block_positive_event():
    g = plain(game(2))
    occupy(g, "bishop", [1])
    event(g, "all_gain_5_gold")
    step(g, "bishop")
    act(g, "Protection")
    assert gold(g, 0) == 15 and gold(g, 1) == 15


def test_poe_r57_bishop_cube_then_event_applies():
    g = plain(game(2))
    for s in (0, 1):
        set_counter(g, "vp", s, 5)
    occupy(g, "bishop", [1])
    event(g, "all_lose_2_vp")
    step(g, "bishop")
    act(g, "One cube")
    assert g.legal() == ["sand", "wood", "stone"]
    act(g, "stone")
    assert counter(g, "stone", 1) == 1 and vp(g, 1) == 3


def test_poe_r58_event_protection_card():
    g = plain(game(2))
    set_counter(g, "vp", 0, 5)
    put(g, "event_protection", "advantages", 0)
    event(g, "all_lose_2_vp")
    step(g, "bishop")
    assert g.pending["seat"] == 0
    act(g, "Yes")
    assert vp(g, 0) == 5 and zone(g, "advantages", 0) == []


def test_poe_r58_event_protection_not_offered_for_positive_event():
    g = plain(game(2))
    put(g, "event_protection", "advantages", 0)
    event(g, "all_gain_1_metal")
    step(g, "bishop")
    assert done(g) and types(g, "advantages", 0) == ["event_protection"]


def test_poe_r59_all_gain_5_gold_capped():
    g = plain(game(2))
    set_counter(g, "gold", 0, 28)
    event(g, "all_gain_5_gold")
    step(g, "bishop")
    assert gold(g, 0) == 30 and gold(g, 1) == 15


def test_poe_r60_all_gain_1_metal():
    g = plain(game(3))
    event(g, "all_gain_1_metal")
    step(g, "bishop")
    assert [counter(g, "metal", s) for s in range(3)] == [1, 1, 1]


def test_poe_r61_resource_cards_plus_one_not_advantage_cubes():
    g = plain(game(2))
    put(g, "stone_2", "taken", 0)
    put(g, "stone_each_round", "advantages", 0)
    event(g, "resource_cards_plus_1")
    step(g, "bishop")
    step(g, "production")
    assert counter(g, "stone", 0) == 2 + 1 + 1


def test_poe_r62_double_wage_up_to_five_workers():
    g = plain(game(2))
    set_counter(g, "wool_mill", 0, 7)
    set_counter(g, "wool_mill", 1, 3)
    event(g, "wool_mill_double_wage")
    step(g, "bishop")
    step(g, "wool_mill")
    assert gold(g, 0) == 10 + 12 and gold(g, 1) == 10 + 6


def test_poe_r63_capacity_event_one_craftsman_plus_one():
    g = plain(game(2))
    _only(g, 0, "start_stonecutter", "r2_architect", "r6_bell_founder")
    _only(g, 1)
    set_counter(g, "stone", 0, 10)
    event(g, "craftsman_capacity_plus_1")
    step(g, "bishop")
    step(g, "build")
    # the only eligible craftsman (not the auto architect, not the bell founder) gets the hammer by itself
    assert g.state["cards"][card(g, "start_stonecutter", 0)]["hammer"] is True
    assert g.legal() == ["Stonecutter", "none"]
    act(g, "Stonecutter")
    assert g.legal() == ["1", "2", "3", "4", "5"]
    act(g, "5")
    assert vp(g, 0) == 1 + 5


def test_poe_r64_discard_craftsman_starting_ones_included():
    g = plain(game(2))
    event(g, "discard_craftsman")
    step(g, "bishop")
    assert g.pending["seat"] == 0 and g.legal() == ["Mortar mixer", "Woodworker", "Stonecutter"]
    act(g, "Stonecutter")
    act(g, "Mortar mixer")
    assert types(g, "craftsmen", 0) == ["start_mortar_mixer", "start_woodworker"]
    assert types(g, "craftsmen", 1) == ["start_woodworker", "start_stonecutter"]


def test_poe_r65_two_builders_next_round():
    g = plain(game(2))
    occupy(g, "bishop", [1])
    event(g, "two_master_builders_next_round")
    step(g, "bishop")
    act(g, "Protection")
    assert var(g, "few_builders_next") == [True, False]
    run_phase(g, "round_end")
    run_phase(g, "preparation")
    assert sorted(g.state["boards"]["bag"]["inside"]) == [0, 0, 1, 1, 1]


def test_poe_r66_resource_cards_minus_one_unless_shielded():
    g = plain(game(2))
    put(g, "sand_2", "taken", 0)
    put(g, "stone_4", "taken", 1)
    occupy(g, "bishop", [1])
    event(g, "resource_cards_minus_1")
    step(g, "bishop")
    act(g, "Protection")
    step(g, "production")
    assert counter(g, "sand", 0) == 1 and counter(g, "stone", 1) == 4


def test_poe_r67_lose_two_vp_floor_zero():
    g = plain(game(2))
    set_counter(g, "vp", 0, 1)
    set_counter(g, "vp", 1, 6)
    event(g, "all_lose_2_vp")
    step(g, "bishop")
    assert vp(g, 0) == 0 and vp(g, 1) == 4


def test_poe_r68_lose_four_gold_compulsory():
    g = plain(game(2))
    set_counter(g, "gold", 0, 1)
    set_counter(g, "vp", 0, 5)
    event(g, "all_lose_4_gold")
    step(g, "bishop")
    assert gold(g, 0) == 0 and vp(g, 0) == 4 and gold(g, 1) == 6


# ------------------------------------------------------------------ step 2: Wool Mill
def test_poe_r69_one_gold_per_wool_mill_worker():
    g = plain(game(3))
    set_counter(g, "wool_mill", 2, 4)
    step(g, "wool_mill")
    assert [gold(g, s) for s in range(3)] == [10, 10, 14]


@pytest.mark.parametrize("variants", [(), ("gold_cap_wool_mill_only",)])
def test_poe_r70_gold_ceiling_thirty(variants):
    g = plain(game(2, variants=variants))
    set_counter(g, "gold", 0, 27)
    set_counter(g, "wool_mill", 0, 5)
    step(g, "wool_mill")
    assert gold(g, 0) == 30


def test_poe_r70_ceiling_applies_to_every_gold_gain():
    g = plain(game(2))
    set_counter(g, "gold", 0, 29)
    run(g, "gain 8 gold to 0")
    assert gold(g, 0) == 30


# ------------------------------------------------------------------ step 3: Kingsbridge
def _kingsbridge(g, *type_ids):
    clear(g, "kingsbridge")
    return [put(g, t, "kingsbridge") for t in type_ids]


def test_poe_r71_take_card_of_the_space():
    g = plain(game(2))
    _kingsbridge(g, "six_craftsmen", "priory_bonus")
    occupy(g, "kingsbridge", [None, 1])
    step(g, "kingsbridge")
    assert types(g, "advantages", 1) == ["priory_bonus"] and types(g, "kingsbridge") == ["six_craftsmen"]


def test_poe_r72_instant_cards_apply_then_leave():
    g = plain(game(2))
    _kingsbridge(g, "gold_8", "vp_3")
    occupy(g, "kingsbridge", [0, 1])
    step(g, "kingsbridge")
    assert gold(g, 0) == 18 and vp(g, 1) == 3
    assert zone(g, "advantages", 0) == [] and zone(g, "advantages", 1) == []
    for t, gains in (("metal_2", {"metal": 2}), ("stone_and_wood", {"stone": 1, "wood": 1}), ("metal_1", {"metal": 1})):
        g = plain(game(2))
        _kingsbridge(g, t)
        occupy(g, "kingsbridge", [0])
        step(g, "kingsbridge")
        assert {k: counter(g, k, 0) for k in gains} == gains


def test_poe_r73_lasting_card_works_this_round():
    g = plain(game(2))
    _kingsbridge(g, "stone_each_round")
    occupy(g, "kingsbridge", [0])
    step(g, "kingsbridge")
    step(g, "production")
    assert counter(g, "stone", 0) == 1 and types(g, "advantages", 0) == ["stone_each_round"]


def test_poe_r74_once_card_kept_until_used():
    g = plain(game(2))
    _kingsbridge(g, "tax_exemption")
    occupy(g, "kingsbridge", [0])
    step(g, "kingsbridge")
    assert types(g, "advantages", 0) == ["tax_exemption"]
    step(g, "kings_court")
    act(g, "Yes")
    assert zone(g, "advantages", 0) == [] and gold(g, 0) == 10


def test_poe_r75_cube_every_round():
    g = plain(game(2))
    for t in ("sand_each_round", "wood_each_round"):
        put(g, t, "advantages", 0)
    step(g, "production")
    assert counter(g, "sand", 0) == 1 and counter(g, "wood", 0) == 1


def test_poe_r76_extra_worker_from_next_round():
    g = plain(game(2))
    _kingsbridge(g, "extra_worker")
    occupy(g, "kingsbridge", [0])
    step(g, "kingsbridge")
    run_phase(g, "round_end")
    run_phase(g, "preparation")
    assert counter(g, "workers", 0) == 13 and counter(g, "workers", 1) == 12


def test_poe_r77_six_craftsmen_limit():
    g = plain(game(2))
    put(g, "six_craftsmen", "advantages", 0)
    for t in ("r2_potter", "r2_carpenter", "r1_mason"):
        put(g, t, "craftsmen", 0)
    run(g, "emit gained_craftsman(who=0)")
    assert done(g) and len(zone(g, "craftsmen", 0)) == 6


def test_poe_r78_peek_event_from_next_round():
    g = plain(game(2))
    _kingsbridge(g, "peek_event")
    occupy(g, "kingsbridge", [1])
    step(g, "kingsbridge")
    run_phase(g, "round_end")
    run_phase(g, "preparation")
    top = zone(g, "event_deck")[-1]
    assert g.state["cards"][top]["seen"] == [1]


# ------------------------------------------------------------------ step 4: Priory
def test_poe_r79_priory_two_and_one_vp():
    g = plain(game(2))
    occupy(g, "priory", [1, 0])
    step(g, "priory")
    assert vp(g, 1) == 2 and vp(g, 0) == 1


def test_poe_r80_priory_bonus_per_space():
    g = plain(game(2))
    put(g, "priory_bonus", "advantages", 0)
    occupy(g, "priory", [0, 0])
    step(g, "priory")
    assert vp(g, 0) == 3 + 2


# ------------------------------------------------------------------ step 5: production
def test_poe_r81_resource_cards_yield():
    g = plain(game(2))
    for t in ("sand_3", "wood_4"):
        put(g, t, "taken", 0)
    put(g, "stone_2", "taken", 1)
    step(g, "production")
    assert (counter(g, "sand", 0), counter(g, "wood", 0), counter(g, "stone", 1)) == (3, 4, 2)


def test_poe_r82_resource_cards_return_to_deck():
    g = plain(game(2))
    put(g, "sand_3", "taken", 0)
    step(g, "production")
    assert zone(g, "taken", 0) == [] and "sand_3" in types(g, "resource_deck")


# ------------------------------------------------------------------ step 6: King's court
def test_poe_r83_tax_every_round_weighted():
    seen = []
    for seed in range(60):
        g = plain(game(2, seed=seed))
        step(g, "kings_court")
        seen.append(var(g, "tax"))
    assert set(seen) == {2, 3, 4, 5}
    assert seen.count(3) + seen.count(4) > seen.count(2) + seen.count(5)


def test_poe_r84_court_builder_exempt():
    g = plain(game(2))
    occupy(g, "kings_court", [None, None])
    g.state["boards"]["town"]["kings_court"][1] = 1  # second space: exempt, no metal
    step(g, "kings_court")
    t = var(g, "tax")
    assert gold(g, 1) == 10 and gold(g, 0) == 10 - t and counter(g, "metal", 1) == 0


def test_poe_r85_first_court_space_gains_metal():
    g = plain(game(2))
    occupy(g, "kings_court", [0])
    step(g, "kings_court")
    assert counter(g, "metal", 0) == 1 and gold(g, 0) == 10


def test_poe_r86_tax_is_compulsory():
    g = plain(game(2))
    set_counter(g, "gold", 1, 0)
    set_counter(g, "vp", 1, 9)
    step(g, "kings_court")
    t = var(g, "tax")
    assert vp(g, 1) == 9 - t // 2 and gold(g, 1) == 0


def test_poe_r87_fixed_tax_two():
    for seed in range(5):
        g = plain(game(2, seed=seed))
        put(g, "fixed_tax_2", "advantages", 0)
        step(g, "kings_court")
        assert gold(g, 0) == 8


def test_poe_r88_tax_exemption_after_amount_known():
    g = plain(game(2))
    put(g, "tax_exemption", "advantages", 1)
    step(g, "kings_court")
    assert g.pending["seat"] == 1 and var(g, "tax") in (2, 3, 4, 5)
    act(g, "No")
    assert types(g, "advantages", 1) == ["tax_exemption"] and gold(g, 1) == 10 - var(g, "tax")


# ------------------------------------------------------------------ steps 7, 8
def test_poe_r89_shiring_free_craftsman_with_limit():
    g = plain(game(2))
    clear(g, "shiring")
    put(g, "r1_mason", "shiring")
    put(g, "r1_tool_maker", "shiring")
    for t in ("r2_potter", "r2_carpenter"):
        put(g, t, "craftsmen", 1)
    occupy(g, "shiring", [None, 1])
    step(g, "shiring")
    assert g.pending["prompt"].startswith("Over your craftsman limit")
    act(g, "Tool maker")
    assert gold(g, 1) == 10 and "r1_tool_maker" in types(g, "box") and types(g, "shiring") == ["r1_mason"]


def test_poe_r90_shiring_castle_two_workers_next_round():
    g = plain(game(2))
    occupy(g, "shiring_castle", [1])
    step(g, "shiring_castle")
    run_phase(g, "round_end")
    run_phase(g, "preparation")
    assert counter(g, "workers", 1) == 14
    run_phase(g, "round_end")
    run_phase(g, "preparation")
    assert counter(g, "workers", 1) == 12


# ------------------------------------------------------------------ step 9: market
def test_poe_r91_only_market_builders_trade():
    g = plain(game(2))
    set_counter(g, "stone", 0, 3)
    step(g, "market")
    assert done(g) and counter(g, "stone", 0) == 3


def test_poe_r92_traders_alternate_in_space_order():
    g = plain(game(3))
    occupy(g, "market", [2, 0])
    step(g, "market")
    order = []
    for _ in range(4):
        order.append(g.pending["seat"])
        act(g, "Buy")
        act(g, "sand")
        if g.pending["prompt"] == "How many?":  # the last sand in stock is bought without asking
            act(g, "1")
    assert order == [2, 0, 2, 0]


def test_poe_r93_two_builders_one_trader():
    g = plain(game(2))
    occupy(g, "market", [1, 0, 1])
    step(g, "market")
    order = []
    for _ in range(3):
        order.append(g.pending["seat"])
        act(g, "Buy")
        act(g, "sand")
        act(g, "1")
    assert order == [1, 0, 1]


def test_poe_r94_one_transaction_per_turn_leaving_final():
    g = plain(game(2))
    occupy(g, "market", [0, 1])
    set_counter(g, "stone", 0, 2)
    step(g, "market")
    assert g.legal() == ["Buy (kaufen)", "Sell (verkaufen)", "Leave the market (verlassen)"]
    act(g, "Leave")
    while g.pending:
        assert g.pending["seat"] == 1
        act(g, "Leave")
    assert counter(g, "stone", 0) == 2


def test_poe_r95_selling():
    g = plain(game(2))
    occupy(g, "market", [0])
    set_counter(g, "metal", 0, 2)
    set_counter(g, "gold", 0, 25)
    step(g, "market")
    act(g, "Sell")
    act(g, "2")
    assert gold(g, 0) == 30 and counter(g, "metal", 0) == 0  # 35 stops at the ceiling


def test_poe_r96_buying_limited_by_stock_and_money():
    g = plain(game(2))
    occupy(g, "market", [0])
    set_counter(g, "gold", 0, 9)
    step(g, "market")
    act(g, "Buy")
    assert g.legal() == ["sand", "wood", "stone"]
    act(g, "stone")
    assert g.legal() == ["1", "2"]
    act(g, "2")
    assert gold(g, 0) == 1 and counter(g, "stone", 0) == 2 and g.state["boards"]["market"]["stock"]["stone"] == 2


def test_poe_r97_metal_never_bought():
    g = plain(game(2))
    occupy(g, "market", [0])
    set_counter(g, "gold", 0, 30)
    step(g, "market")
    act(g, "Buy")
    assert "metal" not in g.legal()


def test_poe_r98_no_buy_and_sell_of_one_type():
    g = plain(game(2))
    occupy(g, "market", [0])
    set_counter(g, "sand", 0, 2)
    step(g, "market")
    act(g, "Buy")
    act(g, "sand")
    act(g, "1")
    assert g.legal() == ["Buy (kaufen)", "Leave the market (verlassen)"]  # no selling sand now
    g = plain(game(2))
    occupy(g, "market", [0])
    set_counter(g, "sand", 0, 2)
    step(g, "market")
    act(g, "Sell")
    act(g, "2")
    act(g, "Buy")
    assert "sand" not in g.legal()


def test_poe_r99_bought_leaves_stock_sold_does_not_refill():
    g = plain(game(2))
    occupy(g, "market", [0, 1])
    set_counter(g, "gold", 0, 30)
    set_counter(g, "stone", 1, 3)
    step(g, "market")
    act(g, "Buy")
    act(g, "stone")
    act(g, "4")
    act(g, "Sell")  # stone is P2's only cube: chosen by itself
    act(g, "3")
    assert g.state["boards"]["market"]["stock"]["stone"] == 0


def test_poe_r100_selling_stone_needs_stonecutter():
    g = plain(game(2))
    _only(g, 0, "start_woodworker")
    occupy(g, "market", [0])
    set_counter(g, "stone", 0, 2)
    set_counter(g, "gold", 0, 0)
    step(g, "market")
    assert done(g)  # nothing to buy (no gold), stone not sellable: leaving is the only option


def test_poe_r101_buying_wood_needs_woodworker():
    g = plain(game(2))
    _only(g, 0, "start_stonecutter", "r2_carpenter")
    occupy(g, "market", [0])
    step(g, "market")
    act(g, "Buy")
    assert g.legal() == ["sand", "stone"]


# ------------------------------------------------------------------ step 10
def test_poe_r102_cathedral_start_player_next_round():
    g = plain(game(4), start=0)
    occupy(g, "cathedral", [2])
    step(g, "cathedral")
    assert var(g, "next_start") == 2


def test_poe_r103_empty_cathedral_passes_clockwise():
    g = plain(game(4), start=3)
    step(g, "cathedral")
    assert var(g, "next_start") == 0


# ------------------------------------------------------------------ step 11: building
def test_poe_r104_uses_spend_input_gain_output():
    g = plain(game(2))
    _only(g, 0, "r1_master_woodworker")
    set_counter(g, "wood", 0, 1)
    step(g, "build")
    act(g, "Master woodworker")
    assert counter(g, "wood", 0) == 0 and gold(g, 0) == 14


def test_poe_r105_cap_per_round():
    g = plain(game(2))
    _only(g, 0, "r3_sculptor")
    set_counter(g, "stone", 0, 3)
    step(g, "build")
    act(g, "Sculptor")
    assert done(g) and vp(g, 0) == 2 and counter(g, "stone", 0) == 2  # cap 1: one use only


def test_poe_r106_whole_uses_only():
    g = plain(game(2))
    _only(g, 0, "start_mortar_mixer")
    set_counter(g, "sand", 0, 5)
    step(g, "build")
    act(g, "Mortar mixer")
    assert counter(g, "sand", 0) == 2 and vp(g, 0) == 1 and done(g)  # 2 sand cannot make a use


def test_poe_r107_spent_goes_back_to_supply():
    g = plain(game(2))
    _only(g, 0, "r5_goldsmith")
    step(g, "build")
    act(g, "Goldsmith")
    act(g, "3")
    assert gold(g, 0) == 1 and vp(g, 0) == 3


def test_poe_r108_use_is_optional():
    g = plain(game(2))
    set_counter(g, "stone", 0, 4)
    step(g, "build")
    act(g, "none")
    assert counter(g, "stone", 0) == 4 and vp(g, 0) == 0 and done(g)


def test_poe_r109_mason_needs_mortar_mixer():
    g = plain(game(2))
    _only(g, 0, "r2_mason", "start_stonecutter")
    set_counter(g, "stone", 0, 1)
    step(g, "build")
    assert done(g) and vp(g, 0) == 0
    g = plain(game(2))
    _only(g, 0, "r2_mason", "r1_expert_mortar_mixer")
    set_counter(g, "stone", 0, 1)
    step(g, "build")
    act(g, "Mason (round 2)")
    assert vp(g, 0) == 1


def test_poe_r110_auto_craftsmen():
    g = plain(game(2))
    _only(g, 0, "r2_architect", "r1_tool_maker")
    step(g, "build")
    assert vp(g, 0) == 1 and gold(g, 0) == 10  # no metal: the tool maker gives nothing
    g = plain(game(2))
    _only(g, 0, "r1_tool_maker")
    set_counter(g, "metal", 0, 1)
    step(g, "build")
    assert gold(g, 0) == 12 and counter(g, "metal", 0) == 1


def test_poe_r111_tool_maker_checked_before_conversions():
    g = plain(game(2))
    _only(g, 0, "r1_tool_maker", "r6_bell_founder")
    set_counter(g, "metal", 0, 1)
    step(g, "build")
    assert gold(g, 0) == 12
    act(g, "Bell founder")
    assert counter(g, "metal", 0) == 0 and vp(g, 0) == 4


def test_poe_r112_goldsmith_spends_gold():
    g = plain(game(2))
    _only(g, 0, "r6_goldsmith")
    set_counter(g, "gold", 0, 7)
    step(g, "build")
    act(g, "Goldsmith")
    assert g.legal() == ["1", "2"]
    act(g, "2")
    assert gold(g, 0) == 1 and vp(g, 0) == 2


def test_poe_r113_illegal_build_refused():
    from mason.errors import IllegalAction

    g = plain(game(2))
    _only(g, 0, "start_stonecutter")
    set_counter(g, "stone", 0, 10)
    step(g, "build")
    act(g, "Stonecutter")
    with pytest.raises(IllegalAction):
        g.answer(4)  # a 5th use: beyond the cap
    act(g, "4")
    assert done(g) and counter(g, "stone", 0) == 2 and vp(g, 0) == 4


def test_poe_r114_uses_in_chosen_order_gold_feeds_goldsmith():
    g = plain(game(2))
    _only(g, 0, "r1_master_woodworker", "r5_goldsmith")
    set_counter(g, "gold", 0, 0)
    set_counter(g, "wood", 0, 1)
    step(g, "build")
    assert g.legal() == ["Master woodworker", "none"]  # no gold yet for the goldsmith
    act(g, "Master woodworker")
    act(g, "Goldsmith")
    assert gold(g, 0) == 1 and vp(g, 0) == 1


def test_poe_r114_players_build_from_start_player():
    g = plain(game(3), start=1)
    for s in range(3):
        set_counter(g, "stone", s, 2)
    step(g, "build")
    order = []
    while g.pending:
        order.append(g.pending["seat"])
        act(g, "none")
    assert order == [1, 2, 0]


# ------------------------------------------------------------------ payments
def test_poe_r115_voluntary_payment_needs_full_amount():
    g = plain(game(2))
    occupy(g, "market", [0])
    set_counter(g, "gold", 0, 1)
    step(g, "market")
    assert done(g) and gold(g, 0) == 1  # nothing affordable: the only option, leave, resolves itself


def test_poe_r116_compulsory_payment_penalty():
    g = plain(game(2))
    set_counter(g, "gold", 0, 2)
    set_counter(g, "vp", 0, 7)
    run(g, 'do pay_or_penalty(0, "gold", 5, "vp", debt_rate)')
    assert gold(g, 0) == 0 and vp(g, 0) == 6


def test_poe_r117_vp_floor():
    g = plain(game(2))
    set_counter(g, "vp", 0, 1)
    run(g, 'do pay_or_penalty(0, "gold", 40, "vp", debt_rate)')
    assert vp(g, 0) == 0 and gold(g, 0) == 0


def test_poe_r118_prerequisites_checked_at_use():
    g = plain(game(2))
    _only(g, 0, "r2_mason", "start_mortar_mixer")
    set_counter(g, "stone", 0, 3)
    event(g, "discard_craftsman")
    step(g, "bishop")
    act(g, "Mortar mixer")
    finish(g)
    step(g, "build")
    assert done(g) and counter(g, "stone", 0) == 3
