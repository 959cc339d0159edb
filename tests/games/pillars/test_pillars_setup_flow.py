"""The Pillars of the Earth: setup, round structure, Phase I and Phase II (POE-R1 .. POE-R52)."""

from __future__ import annotations

from pillars_tools import event, game, gold, plain, vp
from scenario import (
    bag_state,
    card,
    clear,
    counter,
    done,
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

START_SET = ["start_mortar_mixer", "start_woodworker", "start_stonecutter"]


# ------------------------------------------------------------------ setup
def test_poe_r1_seats_clockwise_next_player():
    g = plain(game(4))
    run(g, "set next_start = next_seat(3)")
    assert var(g, "next_start") == 0  # "next player" wraps clockwise


def test_poe_r2_three_master_builders_each():
    g = game(3, seed=2)
    inside = bag_state(g)["inside"]
    assert sorted(inside) == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_poe_r3_twelve_workers_each():
    g = game(4)
    assert [counter(g, "workers", s) for s in range(4)] == [12] * 4


def test_poe_r4_starting_craftsmen():
    g = game(4)
    for s in range(4):
        assert types(g, "craftsmen", s) == START_SET


def test_poe_r5_two_vp_each():
    g = game(3)
    assert [vp(g, s) for s in range(3)] == [2, 2, 2]


def test_poe_r6_first_start_player_random():
    starts = {game(4, seed=k).state["vars"]["start_player"] for k in range(1, 30)}
    assert starts == {0, 1, 2, 3}


def test_poe_r7_start_gold_rises_clockwise_from_start_player():
    for seed in range(1, 8):
        g = game(4, seed=seed)
        first = var(g, "start_player")
        for k in range(4):
            assert gold(g, (first + k) % 4) == 20 + k
    g = game(2, seed=3)
    first = var(g, "start_player")
    assert gold(g, first) == 20 and gold(g, 1 - first) == 21


def test_poe_r8_no_cubes_no_advantages_limit_five():
    g = game(4)
    for s in range(4):
        assert all(counter(g, c, s) == 0 for c in ("sand", "wood", "stone", "metal"))
        assert zone(g, "advantages", s) == []
    run(g, "set tax = craftsman_limit(0)")
    assert var(g, "tax") == 5


def test_poe_r9_round_craftsmen_in_stacks_by_round():
    g = game(4)
    rounds = sorted(g.program.types[t]["round"] for t in types(g, "stacks"))
    assert rounds == sorted([r for r in range(2, 7) for _ in range(4)])
    assert len(zone(g, "offer")) == 9 and len(zone(g, "shiring")) == 2  # round 1's four are out


def test_poe_r10_advantage_deck_of_ten_and_round_six_cards():
    g = game(4)
    assert sorted(types(g, "final_advantages")) == ["metal_1", "stone_and_wood"]
    deck = types(g, "advantage_deck") + types(g, "kingsbridge")
    assert len(deck) == 10 and not {"metal_1", "stone_and_wood"} & set(deck)
    assert (
        len(
            [
                c
                for c in zone(g, "box")
                if g.state["cards"][c]["t"] in g.program.type_instances
                and g.program.family_of[g.state["cards"][c]["t"]] == "advantage"
            ]
        )
        == 4
    )


def test_poe_r11_six_events_in_order_four_unseen():
    g = game(4)
    assert len(zone(g, "event_deck")) == 6
    boxed = [c for c in zone(g, "box") if g.program.family_of[g.state["cards"][c]["t"]] == "event"]
    assert len(boxed) == 4
    assert all(not g.state["cards"][c]["up"] for c in boxed + zone(g, "event_deck"))
    view = g.view(0)
    assert view["zones"]["event_deck"]["cards"] == [] and view["zones"]["box"]["cards"] == []


def test_poe_r12_nine_resource_cards():
    g = game(4)
    assert len(zone(g, "offer")) - 2 + len(zone(g, "set_aside")) == 9


def test_poe_r13_supply_unlimited():
    g = plain(game(2))
    run(g, 'do gain_named(0, "stone", 500)')
    assert counter(g, "stone", 0) == 500


# ------------------------------------------------------------------ the round
def test_poe_r14_six_rounds_of_five_phases():
    g = game(2)
    assert [p for p, _ in g.program.phases] == ["preparation", "cards", "builders", "resolution", "round_end"]
    from support import play_out

    play_out(g)
    assert g.result["rounds"] == 6


def test_poe_r15_two_craftsmen_to_offer_two_to_shiring():
    g = game(4)
    offered = [t for t in types(g, "offer") if g.program.family_of[t] == "craftsman"]
    assert len(offered) == 2 and len(types(g, "shiring")) == 2
    assert {g.program.types[t]["round"] for t in offered + types(g, "shiring")} == {1}


def test_poe_r16_seven_resource_cards_offered_two_aside():
    g = game(4)
    offered = [t for t in types(g, "offer") if g.program.family_of[t] == "resource_card"]
    assert len(offered) == 7 and len(zone(g, "set_aside")) == 2


def test_poe_r17_two_advantage_cards_at_kingsbridge():
    g = game(4)
    assert len(zone(g, "kingsbridge")) == 2
    g.state["round"] = 6
    clear(g, "kingsbridge")
    run_phase(g, "preparation")
    assert sorted(types(g, "kingsbridge")) == ["metal_1", "stone_and_wood"]


def test_poe_r18_market_stock_reset():
    g = game(4)
    g.state["boards"]["market"]["stock"] = {"sand": 0, "wood": 1, "stone": 2, "metal": 0}
    run_phase(g, "preparation")
    assert g.state["boards"]["market"]["stock"] == {"sand": 4, "wood": 4, "stone": 4, "metal": 0}


def test_poe_r19_workers_per_round():
    g = plain(game(3))
    put(g, "extra_worker", "advantages", 1)
    set_var(g, "castle_bonus", 2, 2)
    set_var(g, "castle_bonus", 2, 1)
    run_phase(g, "preparation")
    assert [counter(g, "workers", s) for s in range(3)] == [12, 15, 14]


def test_poe_r20_two_builders_after_the_event():
    g = plain(game(3))
    set_var(g, "few_builders_next", True, 1)
    run_phase(g, "preparation")
    assert sorted(bag_state(g)["inside"]) == [0, 0, 0, 1, 1, 2, 2, 2]
    assert var(g, "few_builders_next", 1) is False


def test_poe_r21_cost_marker_at_seven():
    g = game(4)
    g.state["boards"]["cost"]["pos"] = 5
    run_phase(g, "preparation")
    run(g, 'set tax = cost_now("cost")')
    assert var(g, "tax") == 7


def test_poe_r22_peek_event_private():
    g = plain(game(3))
    put(g, "peek_event", "advantages", 1)
    run_phase(g, "preparation")
    top = zone(g, "event_deck")[-1]
    assert g.state["cards"][top]["seen"] == [1]
    assert [c["id"] for c in g.view(1)["zones"]["event_deck"]["cards"]] == [top]
    assert g.view(0)["zones"]["event_deck"]["cards"] == []


# ------------------------------------------------------------------ Phase I
def _passes(g):
    return [e["text"].split()[0] for e in g.log if e.get("text", "").endswith(".") and " passes:" in e["text"]]


def _offer(g, *type_ids):
    clear(g, "offer", to="box")
    for t in type_ids:
        put(g, t, "offer")


def test_poe_r23_phase_one_from_start_player_clockwise_skipping_passed():
    g = plain(game(3), start=1)
    for s in range(3):
        set_counter(g, "workers", s, 12)
    _offer(g, "sand_2", "wood_2", "stone_2", "sand_3")
    run_phase(g, "cards")
    order = []
    while g.pending:
        order.append(g.pending["seat"])
        act(g, "none" if g.pending["seat"] == 2 else g.legal()[0])
    assert order[:3] == [1, 2, 0] and 2 not in order[3:]


def test_poe_r24_take_one_card_or_pass():
    g = plain(game(2))
    set_counter(g, "workers", 0, 12)
    _offer(g, "sand_2", "wood_2")
    run_phase(g, "cards")
    assert g.pending["seat"] == 0 and g.legal() == ["Gravel pit (2 sand)", "Forest (2 wood)", "none"]
    act(g, "Gravel pit (2 sand)")
    assert types(g, "taken", 0) == ["sand_2"]


def test_poe_r25_passing_is_final():
    g = plain(game(2))
    for s in (0, 1):
        set_counter(g, "workers", s, 12)
    _offer(g, "sand_2", "wood_2", "stone_2")
    run_phase(g, "cards")
    act(g, "none")  # P1 passes
    assert var(g, "passed", 0) is True
    while g.pending:
        assert g.pending["seat"] == 1
        act(g, g.legal()[0])
    assert zone(g, "taken", 0) == []


def test_poe_r26_resource_card_needs_workers():
    g = plain(game(2))
    set_counter(g, "workers", 0, 9)
    _offer(g, "stone_4", "wood_4")
    run_phase(g, "cards")
    assert g.legal() == ["Forest (4 wood)", "none"]  # stone_4 needs 10
    act(g, "Forest (4 wood)")
    assert counter(g, "workers", 0) == 0


def test_poe_r27_craftsman_costs_gold_not_workers():
    g = plain(game(2))
    set_counter(g, "workers", 0, 3)
    set_counter(g, "gold", 0, 4)
    _offer(g, "r1_mason", "r1_expert_mortar_mixer")
    run_phase(g, "cards")
    assert g.legal() == ["Expert mortar mixer", "none"]  # the mason costs 5
    act(g, "Expert mortar mixer")
    assert gold(g, 0) == 0 and counter(g, "workers", 0) == 3


def test_poe_r28_nothing_affordable_forces_pass():
    g = plain(game(2))
    set_counter(g, "gold", 0, 1)
    set_counter(g, "workers", 0, 1)
    set_counter(g, "workers", 1, 1)
    set_counter(g, "gold", 1, 1)
    _offer(g, "r1_mason", "sand_2")
    run_phase(g, "cards")
    assert done(g) and _passes(g) == ["P1", "P2"]


def test_poe_r29_several_cards_including_both_craftsmen():
    g = plain(game(2))
    set_counter(g, "gold", 0, 30)
    set_counter(g, "workers", 0, 12)
    set_counter(g, "gold", 1, 0)  # P2 can afford nothing and passes at once
    _offer(g, "r1_mason", "r1_tool_maker", "sand_2")
    run_phase(g, "cards")
    act(g, "Mason (round 1)")
    act(g, "Tool maker")
    act(g, "Gravel pit (2 sand)")
    assert "r1_mason" in types(g, "craftsmen", 0) and "r1_tool_maker" in types(g, "craftsmen", 0)


def test_poe_r30_craftsman_limit_discard_new_or_old():
    g = plain(game(2))
    put(g, "r2_potter", "craftsmen", 0)
    put(g, "r2_carpenter", "craftsmen", 0)
    set_counter(g, "gold", 0, 20)
    _offer(g, "r1_mason")
    run_phase(g, "cards")
    act(g, "Mason (round 1)")
    assert g.pending["prompt"].startswith("Over your craftsman limit")
    assert len(g.legal()) == 6
    act(g, "Woodworker")
    assert len(zone(g, "craftsmen", 0)) == 5 and "start_woodworker" not in types(g, "craftsmen", 0)
    assert gold(g, 0) == 15


def test_poe_r31_passing_sends_free_workers_to_wool_mill():
    g = plain(game(2))
    set_counter(g, "workers", 0, 12)
    _offer(g, "sand_2")
    run_phase(g, "cards")
    act(g, "Gravel pit (2 sand)")
    assert counter(g, "wool_mill", 0) == 10 and counter(g, "workers", 0) == 0


def test_poe_r32_phase_ends_when_offer_empty():
    g = plain(game(2))
    for s in (0, 1):
        set_counter(g, "workers", s, 12)
    _offer(g, "sand_2")
    run_phase(g, "cards")
    act(g, "Gravel pit (2 sand)")
    assert done(g)
    assert counter(g, "wool_mill", 1) == 12 and sorted(_passes(g)) == ["P1", "P2"]


def test_poe_r33_leftover_craftsmen_leave_resource_cards_return():
    g = plain(game(2))
    for s in (0, 1):
        set_counter(g, "gold", s, 0)
    _offer(g, "r1_mason", "sand_2")
    before = len(zone(g, "resource_deck"))
    run_phase(g, "cards")
    assert done(g)
    assert "r1_mason" in types(g, "box") and len(zone(g, "resource_deck")) == before + 1


# ------------------------------------------------------------------ Phase II
def _bag(g, pieces):
    b = bag_state(g)
    b["inside"] = list(pieces)
    b["parked"] = []
    b["drawn"] = None
    g.state["boards"]["cost"]["pos"] = 0


def test_poe_r34_builders_drawn_uniformly():
    counts = {0: 0, 1: 0}
    for seed in range(40):
        g = plain(game(2, seed=seed))
        set_var(g, "vetoed", True)
        _bag(g, [0, 1])
        run_phase(g, "builders")
        counts[g.pending["seat"]] += 1
    assert counts[0] > 8 and counts[1] > 8


def test_poe_r35_start_player_veto_once_a_round():
    g = plain(game(2), start=1)
    set_var(g, "vetoed", False)
    _bag(g, [0, 0])
    run_phase(g, "builders")
    assert g.pending["seat"] == 1 and "Veto: put it back into the bag" in g.legal()
    act(g, "Veto")
    assert var(g, "vetoed") is True  # back into the bag, then a new draw: one inside, one drawn
    assert len(bag_state(g)["inside"]) == 1 and bag_state(g)["drawn"] == 0
    assert g.pending["seat"] == 0 and g.pending["prompt"] == "Your master builder is drawn"
    run(g, 'set tax = cost_now("cost")')
    assert var(g, "tax") == 7


def test_poe_r36_place_and_pay_or_pass():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    _bag(g, [0])
    run_phase(g, "builders")
    assert g.legal() == ["Place it now and pay the cost", "Pass (place it later, free)"]
    act(g, "Place it now")
    act(g, "priory")
    assert gold(g, 0) == 3 and g.state["boards"]["town"]["priory"][0] == 0


def test_poe_r37_too_poor_must_pass():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    set_counter(g, "gold", 0, 6)
    _bag(g, [0])
    run_phase(g, "builders")
    # the only option (pass) resolves by itself; then the parked builder is placed free
    assert g.pending["prompt"] == "Place your master builder where?"
    assert bag_state(g)["parked"] == [] and gold(g, 0) == 6


def test_poe_r38_cost_falls_one_step_per_placement_or_pass():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    set_counter(g, "gold", 0, 20)
    _bag(g, [0, 0, 0])
    run_phase(g, "builders")
    act(g, "Pass")
    run_cost = g.state["boards"]["cost"]["pos"]
    assert run_cost == 1
    act(g, "Place it now")
    act(g, "bishop")
    assert gold(g, 0) == 14 and g.state["boards"]["cost"]["pos"] == 2


def test_poe_r39_cost_zero_must_place():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    _bag(g, [0])
    g.state["boards"]["cost"]["pos"] = 7  # the 8th draw
    run_phase(g, "builders")
    assert g.pending["prompt"] == "Place your master builder where?"
    assert "Pass (place it later, free)" not in g.legal()


def test_poe_r40_passed_builder_parked_at_declined_price():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    _bag(g, [1, 0])
    run_phase(g, "builders")
    first = bag_state(g)["drawn"]
    act(g, "Pass")
    assert bag_state(g)["parked"] == [[7, first]]


def test_poe_r41_parked_placed_free_highest_slot_first():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    set_counter(g, "gold", 0, 0)
    _bag(g, [0])
    bag_state(g)["parked"] = [[5, 1]]
    run_phase(g, "builders")  # P1 cannot pay 7: parked at 7, above P2's slot 5
    order = []
    while g.pending:
        order.append(g.pending["seat"])
        act(g, g.legal()[0])
    assert order == [0, 1] and gold(g, 0) == 0 and gold(g, 1) == 10


def test_poe_r42_two_players_marker_to_zero_after_six_draws():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    for s in (0, 1):
        set_counter(g, "gold", s, 0)
    _bag(g, [0, 0, 0, 1, 1, 1])
    run_phase(g, "builders")
    assert g.state["boards"]["cost"]["pos"] == 7
    placed = 0
    while g.pending:
        act(g, g.legal()[0])
        placed += 1
    assert placed == 6 and bag_state(g)["parked"] == []


def test_poe_r43_any_free_space_several_per_player():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    _bag(g, [0, 0])
    g.state["boards"]["cost"]["pos"] = 7
    run_phase(g, "builders")
    assert len(g.legal()) == 10  # 8 locations; Kingsbridge and Shiring offer each of their 2 spaces
    act(g, "market")
    act(g, "market")
    assert g.state["boards"]["town"]["market"][:2] == [0, 0]


def test_poe_r44_spaces_fill_in_placement_order():
    g = plain(game(3))
    occupy(g, "kings_court", [2])
    run(g, 'do place_at("town", "kings_court", 1)')
    assert g.state["boards"]["town"]["kings_court"][:2] == [2, 1]
    run(g, 'set step = open_spots("town")')
    assert "kings_court" in var(g, "step") and "kingsbridge.1" in var(g, "step") and "priory.1" not in var(g, "step")


def test_poe_r45_free_master_builder_card():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    set_counter(g, "gold", 0, 0)
    put(g, "free_master_builder", "advantages", 0)
    _bag(g, [0])
    run_phase(g, "builders")
    assert g.legal() == ["Place it free (discard One master builder free)", "Pass (place it later, free)"]
    act(g, "Place it free")
    act(g, "priory")
    assert zone(g, "advantages", 0) == [] and gold(g, 0) == 0
    assert g.state["boards"]["town"]["priory"][0] == 0


def test_poe_r46_steps_resolve_in_board_order():
    g = game(2)
    run(g, 'set step = locations("town")')
    assert var(g, "step") == [
        "bishop",
        "wool_mill",
        "kingsbridge",
        "priory",
        "production",
        "kings_court",
        "shiring",
        "shiring_castle",
        "market",
        "cathedral",
        "build",
    ]


def test_poe_r47_common_steps_from_start_player():
    g = plain(game(3), start=2)
    event(g, "discard_craftsman")
    run(g, 'emit resolve(location="bishop")')
    order = []
    while g.pending:
        order.append(g.pending["seat"])
        act(g, g.legal()[0])
    assert order == [2, 0, 1]


def test_poe_r48_keep_at_most_five_cubes():
    g = plain(game(2))
    set_counter(g, "sand", 0, 4)
    set_counter(g, "metal", 0, 3)
    clear(g, "craftsmen", 0)
    run(g, 'emit resolve(location="build")')
    assert g.pending["prompt"] == "Over the cube limit: return which cube?"
    act(g, "metal")
    n = len(g.log)
    act(g, "2")
    assert counter(g, "sand", 0) + counter(g, "metal", 0) == 5 and done(g)
    said = [e["text"] for e in g.log[n:] if "text" in e]
    assert "P1 returns 2 metal to the supply" in said  # a return, not a payment (issue 28)


def test_poe_r49_builders_and_workers_return():
    g = plain(game(2))
    occupy(g, "market", [0, 1])
    set_counter(g, "wool_mill", 0, 4)
    run_phase(g, "round_end")
    assert g.state["boards"]["town"]["market"] == [None] * 4
    assert counter(g, "wool_mill", 0) == 0
    run_phase(g, "preparation")
    assert counter(g, "workers", 0) == 12


def test_poe_r50_unclaimed_kingsbridge_and_shiring_cards_leave():
    g = plain(game(2))
    kb, sh = zone(g, "kingsbridge"), zone(g, "shiring")
    run_phase(g, "round_end")
    assert zone(g, "kingsbridge") == [] and zone(g, "shiring") == []
    assert set(kb + sh) <= set(zone(g, "box"))


def test_poe_r51_round_effects_end():
    g = plain(game(2))
    set_var(g, "shielded", True, 0)
    c = card(g, "start_stonecutter", 0)
    g.state["cards"][c]["hammer"] = True
    g.state["cards"][c]["uses"] = 3
    g.state["boards"]["market"]["bought"][0] = ["sand"]
    run_phase(g, "round_end")
    run_phase(g, "preparation")
    assert (
        var(g, "shielded", 0) is False and g.state["cards"][c]["hammer"] is False and g.state["cards"][c]["uses"] == 0
    )
    assert g.state["boards"]["market"]["bought"][0] == []


def test_poe_r52_next_start_player_from_cathedral_step():
    g = plain(game(3))
    occupy(g, "cathedral", [2])
    run(g, 'emit resolve(location="cathedral")')
    run_phase(g, "round_end")
    assert var(g, "start_player") == 2
