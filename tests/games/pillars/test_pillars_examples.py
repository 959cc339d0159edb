"""The Pillars of the Earth: the digest's worked examples POE-X1 .. POE-X28, one test each."""

from __future__ import annotations

import pytest
from pillars_tools import event, game, gold, plain, step, vp
from scenario import (
    bag_state,
    clear,
    counter,
    done,
    finish,
    occupy,
    put,
    run,
    run_phase,
    set_counter,
    set_var,
    types,
    var,
    zone,
)
from support import act

from mason.errors import IllegalAction


def _only(g, s, *type_ids):
    clear(g, "craftsmen", s)
    return [put(g, t, "craftsmen", s) for t in type_ids]


def _build(g):
    step(g, "build")


def test_poe_x1_stonecutter_eight_stone():
    g = plain(game(2))
    _only(g, 0, "start_stonecutter")
    set_counter(g, "stone", 0, 8)
    _build(g)
    act(g, "Stonecutter")
    act(g, "4")
    assert vp(g, 0) == 4 and counter(g, "stone", 0) == 0


def test_poe_x2_stonecutter_cap_refuses_more():
    g = plain(game(2))
    _only(g, 0, "start_stonecutter")
    set_counter(g, "stone", 0, 9)
    _build(g)
    act(g, "Stonecutter")
    assert g.legal() == ["1", "2", "3", "4"]  # 9 or 10 stone cannot be submitted
    with pytest.raises(IllegalAction):
        g.answer(4)
    act(g, "4")
    assert vp(g, 0) == 4 and counter(g, "stone", 0) == 1


def test_poe_x3_woodworker_eight_wood():
    g = plain(game(2))
    _only(g, 0, "start_woodworker")
    set_counter(g, "wood", 0, 8)
    _build(g)
    act(g, "Woodworker")
    act(g, "4")
    assert vp(g, 0) == 4 and counter(g, "wood", 0) == 0


@pytest.mark.parametrize(
    "cards,gain", [(("start_stonecutter",), 0), (("r2_mason", "start_mortar_mixer"), 1), (("r3_sculptor",), 2)]
)
def test_poe_x4_one_stone(cards, gain):
    g = plain(game(2))
    _only(g, 0, *cards)
    set_counter(g, "stone", 0, 1)
    _build(g)
    finish(g, chooser=lambda g: 0)
    assert vp(g, 0) == gain


def test_poe_x5_goldsmith_four_uses():
    g = plain(game(2))
    _only(g, 0, "r5_goldsmith")
    set_counter(g, "gold", 0, 20)
    _build(g)
    act(g, "Goldsmith")
    act(g, "4")
    assert gold(g, 0) == 8 and vp(g, 0) == 4


def test_poe_x6_tool_maker_then_glassblower():
    g = plain(game(2))
    _only(g, 0, "r1_tool_maker", "r4_glassblower")
    set_counter(g, "metal", 0, 1)
    set_counter(g, "sand", 0, 1)
    _build(g)
    assert gold(g, 0) == 12
    act(g, "Glassblower")
    assert vp(g, 0) == 3 and counter(g, "metal", 0) == 0 and counter(g, "sand", 0) == 0


def test_poe_x7_master_woodworker():
    g = plain(game(2))
    _only(g, 0, "r1_master_woodworker")
    set_counter(g, "wood", 0, 3)
    set_counter(g, "gold", 0, 5)
    _build(g)
    act(g, "Master woodworker")
    act(g, "2")
    assert gold(g, 0) == 13 and counter(g, "wood", 0) == 1 and done(g)


def test_poe_x8_mason_without_mortar_mixer():
    g = plain(game(2))
    _only(g, 0, "r2_mason", "start_woodworker", "start_stonecutter")
    set_counter(g, "stone", 0, 3)
    _build(g)
    act(g, "Stonecutter")  # the mason is not offered; the stonecutter may still be used
    assert vp(g, 0) == 1
    g = plain(game(2))
    _only(g, 0, "r2_mason")
    set_counter(g, "stone", 0, 3)
    _build(g)
    assert done(g) and vp(g, 0) == 0 and counter(g, "stone", 0) == 3


def test_poe_x9_two_traders():
    g = plain(game(2))
    green, red = 0, 1
    _only(g, green, "start_woodworker")
    _only(g, red, "start_woodworker", "start_stonecutter")
    set_counter(g, "gold", green, 7)
    set_counter(g, "metal", green, 1)
    set_counter(g, "gold", red, 2)
    set_counter(g, "stone", red, 1)
    occupy(g, "market", [green, red])
    step(g, "market")
    act(g, "Buy", green)
    act(g, "wood")
    act(g, "2")
    assert gold(g, green) == 1
    act(g, "Sell", red)  # stone, 1: the only cube and amount
    assert gold(g, red) == 6
    act(g, "Sell", green)
    assert gold(g, green) == 6
    act(g, "Buy", red)
    act(g, "wood")
    act(g, "2")
    assert gold(g, red) == 0
    act(g, "Buy", green)
    act(g, "sand")
    act(g, "3")
    assert done(g)  # red, then green, can only leave: each a single option, taken by itself
    stock = g.state["boards"]["market"]["stock"]
    assert stock["wood"] == 0 and stock["sand"] == 1
    assert (counter(g, "wood", green), counter(g, "sand", green), gold(g, green)) == (2, 3, 0)
    assert (counter(g, "wood", red), gold(g, red)) == (2, 0)


def test_poe_x10_no_selling_what_was_bought():
    g = plain(game(2))
    occupy(g, "market", [0])
    step(g, "market")
    act(g, "Buy")
    act(g, "sand")
    act(g, "2")
    assert "Sell (verkaufen)" not in g.legal()


def test_poe_x10_tabletop_sell_then_buy():
    for variants, allowed in (((), False), (("tabletop",), True)):
        g = plain(game(2, variants=variants))
        occupy(g, "market", [0])
        set_counter(g, "sand", 0, 1)
        step(g, "market")
        act(g, "Sell")
        act(g, "Buy")
        assert ("sand" in g.legal()) is allowed


def test_poe_x11_prerequisites_at_market():
    g = plain(game(2))
    _only(g, 0, "start_woodworker")  # the stonecutter was discarded
    occupy(g, "market", [0])
    set_counter(g, "stone", 0, 2)
    set_counter(g, "sand", 0, 1)
    step(g, "market")
    act(g, "Sell")  # sand is the only cube sellable (1 of it): no more to ask
    assert counter(g, "sand", 0) == 0 and counter(g, "stone", 0) == 2
    assert "Sell (verkaufen)" not in g.legal()
    g = plain(game(2))
    _only(g, 0, "start_stonecutter")
    occupy(g, "market", [0])
    step(g, "market")
    act(g, "Buy")
    assert "wood" not in g.legal()


def test_poe_x12_pass_then_parked_first():
    red, blue = 0, 1
    for seed in range(1, 40):  # a seed whose first draw is red's builder
        g = plain(game(2, seed=seed))
        set_var(g, "vetoed", True)
        bag_state(g)["inside"] = [red, blue]
        run_phase(g, "builders")
        if g.pending["seat"] == red:
            break
    act(g, "Pass", red)
    assert bag_state(g)["parked"] == [[7, red]] and g.state["boards"]["cost"]["pos"] == 1
    act(g, "Place it now", blue)
    assert gold(g, blue) == 4
    act(g, "priory", blue)
    assert g.state["boards"]["cost"]["pos"] == 7  # the bag is empty: the rest is free
    assert g.pending["seat"] == red and g.pending["prompt"] == "Place your master builder where?"
    act(g, "market", red)
    assert gold(g, red) == 10 and done(g)


def test_poe_x13_twelve_draws_prices():
    g = plain(game(4))
    set_var(g, "vetoed", True)
    for s in range(4):
        set_counter(g, "gold", s, 30)
    run_phase(g, "builders")
    prices = []
    while g.pending:
        if g.pending["prompt"] == "Your master builder is drawn":
            prices.append([7, 6, 5, 4, 3, 2, 1, 0][g.state["boards"]["cost"]["pos"]])
            act(g, "Place it now")
        else:
            if len(prices) < 12 and g.state["boards"]["cost"]["pos"] >= 7 and g.pending["prompt"].startswith("Place"):
                prices.append(0)
            act(g, g.legal()[0])
    assert prices == [7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0]


def test_poe_x14_veto_keeps_cost():
    g = plain(game(4), start=0)
    set_var(g, "vetoed", False)
    yellow = 2
    bag_state(g)["inside"] = [yellow]
    run_phase(g, "builders")
    assert g.pending["seat"] == 0
    act(g, "Veto")
    assert var(g, "vetoed") is True
    assert g.pending["seat"] == yellow and g.state["boards"]["cost"]["pos"] == 0
    assert "Veto: put it back into the bag" not in g.legal()


def test_poe_x15_too_poor_parks():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    set_counter(g, "gold", 0, 4)
    bag_state(g)["inside"] = [0]
    run(g, 'do cost_step("cost")')  # the cost is 6
    text = len(g.log)
    run_phase(g, "builders")
    said = [e.get("text") for e in g.log[text:]]
    # passing was the one legal option: taken by itself; the builder waited in slot 6, then came out free
    assert "P1's piece waits in slot 6" in said
    assert g.pending["prompt"] == "Place your master builder where?" and gold(g, 0) == 4


def test_poe_x16_tax_debt():
    g = plain(game(2))
    set_counter(g, "gold", 0, 2)
    set_counter(g, "vp", 0, 7)
    run(g, 'do pay_or_penalty(0, "gold", tax_due(0, 5), "vp", debt_rate)')
    assert gold(g, 0) == 0 and vp(g, 0) == 6


def test_poe_x17_lose_four_gold_debts():
    g = plain(game(2))
    set_counter(g, "gold", 0, 1)
    set_counter(g, "gold", 1, 0)
    set_counter(g, "vp", 0, 5)
    set_counter(g, "vp", 1, 5)
    event(g, "all_lose_4_gold")
    step(g, "bishop")
    assert (gold(g, 0), vp(g, 0), gold(g, 1), vp(g, 1)) == (0, 4, 0, 3)


def test_poe_x18_fixed_tax_and_exemption():
    g = plain(game(2))
    put(g, "fixed_tax_2", "advantages", 0)
    put(g, "tax_exemption", "advantages", 1)
    run(g, "set tax = tax_due(0, 5)")
    assert var(g, "tax") == 2
    for seed in range(1, 4):
        g = plain(game(2, seed=seed))
        put(g, "fixed_tax_2", "advantages", 0)
        put(g, "tax_exemption", "advantages", 1)
        step(g, "kings_court")
        act(g, "Yes", 1)
        assert gold(g, 0) == 8 and gold(g, 1) == 10


def test_poe_x19_wool_mill_ceiling():
    g = plain(game(2))
    set_counter(g, "gold", 0, 27)
    set_counter(g, "wool_mill", 0, 5)
    step(g, "wool_mill")
    assert gold(g, 0) == 30


def test_poe_x20_double_wage_seven_workers():
    g = plain(game(2))
    set_counter(g, "wool_mill", 0, 7)
    event(g, "wool_mill_double_wage")
    step(g, "bishop")
    step(g, "wool_mill")
    assert gold(g, 0) == 22


def test_poe_x21_four_player_setup():
    for seed in range(1, 5):
        g = game(4, seed=seed)
        a = var(g, "start_player")
        assert [gold(g, (a + k) % 4) for k in range(4)] == [20, 21, 22, 23]
        for s in range(4):
            assert vp(g, s) == 2 and counter(g, "workers", s) == 12
            assert bag_state(g)["inside"].count(s) == 3 and len(zone(g, "craftsmen", s)) == 3


def test_poe_x22_workers_spent_then_gold_only():
    g = plain(game(2))
    set_counter(g, "workers", 0, 12)
    set_counter(g, "gold", 1, 0)
    clear(g, "offer")
    for t in ("stone_4", "sand_2", "r1_mason"):
        put(g, t, "offer")
    run_phase(g, "cards")
    act(g, "Quarry (4 stone)", 0)
    act(g, "Gravel pit (2 sand)", 0)
    assert counter(g, "workers", 0) == 0 and g.legal() == ["Mason (round 1)", "none"]
    act(g, "none", 0)
    assert counter(g, "wool_mill", 0) == 0
    step(g, "production")
    assert counter(g, "stone", 0) == 4 and counter(g, "sand", 0) == 2


def test_poe_x23_over_the_limit():
    for with_card, kept in ((False, 5), (True, 6)):
        g = plain(game(2))
        for t in ("r2_potter", "r2_carpenter"):
            put(g, t, "craftsmen", 0)
        if with_card:
            put(g, "six_craftsmen", "advantages", 0)
        set_counter(g, "gold", 1, 0)
        clear(g, "offer")
        put(g, "r2_architect", "offer")
        run_phase(g, "cards")
        act(g, "Architect", 0)
        if not with_card:
            act(g, "Architect", 0)  # discard the new one, no refund
        assert gold(g, 0) == 4 and len(zone(g, "craftsmen", 0)) == kept


def test_poe_x24_resource_minus_one_and_bishop():
    g = plain(game(2))
    for t in ("stone_4", "sand_2"):
        put(g, t, "taken", 0)
    event(g, "resource_cards_minus_1")
    step(g, "bishop")
    step(g, "production")
    assert counter(g, "stone", 0) == 3 and counter(g, "sand", 0) == 1
    g = plain(game(2))
    for t in ("stone_4", "sand_2"):
        put(g, t, "taken", 0)
    occupy(g, "bishop", [0])
    event(g, "resource_cards_minus_1")
    step(g, "bishop")
    act(g, "Protection")
    step(g, "production")
    assert counter(g, "stone", 0) == 4 and counter(g, "sand", 0) == 2


def test_poe_x25_priory_bonus_first_space():
    g = plain(game(2))
    put(g, "priory_bonus", "advantages", 0)
    occupy(g, "priory", [0])
    step(g, "priory")
    assert vp(g, 0) == 3


def test_poe_x26_keep_five_cubes_of_choice():
    g = plain(game(2))
    clear(g, "craftsmen", 0)
    set_counter(g, "sand", 0, 5)
    set_counter(g, "stone", 0, 3)
    set_counter(g, "metal", 0, 1)
    _build(g)
    act(g, "sand")
    act(g, "4")
    assert [counter(g, c, 0) for c in ("sand", "stone", "metal")] == [1, 3, 1] and done(g)


def test_poe_x27_castle_and_extra_worker():
    g = plain(game(2))
    put(g, "extra_worker", "advantages", 0)
    occupy(g, "shiring_castle", [0])
    g.state["round"] = 2
    step(g, "shiring_castle")
    run_phase(g, "round_end")
    g.state["round"] = 3
    run_phase(g, "preparation")
    assert counter(g, "workers", 0) == 15
    run_phase(g, "round_end")
    g.state["round"] = 4
    run_phase(g, "preparation")
    assert counter(g, "workers", 0) == 13


def test_poe_x28_round_six_kingsbridge():
    g = game(2)
    clear(g, "kingsbridge")
    g.state["round"] = 6
    run_phase(g, "preparation")
    assert sorted(types(g, "kingsbridge")) == ["metal_1", "stone_and_wood"]
    assert len(zone(g, "advantage_deck")) == 8  # whatever remains of the deck stays unused
