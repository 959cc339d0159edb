"""Amritsar: The Golden Temple: setup, flow and elephant moves (GTA-R1 .. GTA-R45, example GTA-X1)."""

from __future__ import annotations

from collections import Counter

import pytest
from gt_support import (
    DISTRICTS,
    PLACES,
    act,
    card,
    counter,
    done,
    elephant,
    game,
    goods,
    labels,
    mahout,
    owners,
    place_tiles,
    plain,
    pp,
    prompt,
    put_elephant,
    ready,
    ring,
    run,
    set_counter,
    set_goods,
    set_ring,
    set_var,
    var,
    zone,
)

COLOURS = ("yellow", "blue", "white", "green")
SEEDS = range(1, 9)


# ------------------------------------------------------------------ helpers (this file only)
def ev(g, text, me=None):
    """Evaluate an expression of the game (its named values included) on the current state."""
    f = g.program.expr({"v": text}, "v", ("me",))
    assert not g.program.errors, g.program.errors
    return f(g.rt, {"me": me})


def ctype(g, c):
    return g.state["cards"][c]["t"]


def types_of(g, zone_name, seat=None):
    return [ctype(g, c) for c in zone(g, zone_name, seat)]


def prop(g, c, name):
    return g.program.types[ctype(g, c)][name]


def ring_places(g, board):
    return g.program.boards[board]["places"]


def marker(g):
    return g.state["boards"]["paths"]["markers"]["maharaja"]


def set_marker(g, boundary):
    g.state["boards"]["paths"]["markers"]["maharaja"] = boundary


def move(g, s, label, step=1):
    """Run an elephant move of seat s and answer it with ``label``."""
    run(g, f"emit elephant_move(who={s}, step={step})")
    act(g, label)
    assert done(g)


def play_out_first(g):
    """Answer every decision with the first option; record each seat's workplace choice (one per turn)."""
    turns = []
    n = 0
    while not g.over:
        p = g.pending
        if p["prompt"].startswith("Take the workers"):
            turns.append((g.state["round"], var(g, "era"), var(g, "era_round"), p["seat"]))
        g.answer([] if p["subset"] else 0)
        n += 1
        assert n < 5000
    return turns


def turn_prompts(g, s):
    """Run seat s's whole turn, taking the first main action; the prompts asked, in order, with their seat."""
    run(g, f"emit player_turn(who={s})")
    seen = []
    while g.pending:
        seen.append((g.pending["seat"], prompt(g)))
        if prompt(g) == "Choose an action":
            act(g, "Main action" if "Main action of a district tile" in labels(g) else "End turn")
        elif prompt(g).startswith("Follow"):
            act(g, "Follow")
        else:
            g.answer(0)
    return seen


# ------------------------------------------------------------------ board (GTA-R1 .. R17)
def test_gta_r1_compass_order_is_clockwise_north_east_south_west():
    g = ready(3)
    assert list(ring_places(g, "paths")) == ["north", "east", "south", "west"]
    g = plain(g)
    set_goods(g, 0, coins=5)
    for start, one_step in (("north", "east"), ("east", "south"), ("south", "west"), ("west", "north")):
        put_elephant(g, 0, start)
        move(g, 0, f"move to {one_step} (1 step")
        assert elephant(g, 0) == one_step


def test_gta_r2_temple_pieces_wait_beside_the_centre_until_an_era_ends():
    g = ready(3)
    assert var(g, "temple_pieces") == []
    g = plain(g)
    for s in range(3):
        set_goods(g, s, coins=5)
    run(g, "emit era_end")
    assert done(g)
    assert var(g, "temple_pieces") == ["base"]


def test_gta_r3_three_temple_tiles_one_per_era_fourth_boxed_unseen():
    orders = set()
    for seed in SEEDS:
        g = ready(3, seed=seed)
        eras = var(g, "temple_tiles")
        assert len(eras) == 3 and len(set(eras)) == 3
        assert sorted(zone(g, "temple")) == sorted(eras)
        assert all(g.state["cards"][c]["up"] for c in eras)
        boxed = [c for c in zone(g, "box") if g.program.family_of[ctype(g, c)] == "temple_tile"]
        assert len(boxed) == 1
        assert not g.state["cards"][boxed[0]]["up"] and g.state["cards"][boxed[0]]["seen"] == []
        orders.add(tuple(ctype(g, c) for c in eras))
    assert len(orders) > 1  # shuffled


def test_gta_r4_temple_tile_values_are_read_by_compass_district():
    g = plain(ready(3))
    tiles = var(g, "temple_tiles")
    set_var(g, "temple_tiles", [card(g, "tt2")] + tiles[1:])  # tt2: N 1, E 4, S 3, W 2
    for s in range(3):
        set_goods(g, s, coins=5)  # taxes paid in coins, no PP lost
    owners(g, "east")["a1"] = 0
    owners(g, "west")["a1"] = 1
    owners(g, "south")["a1"] = 2
    run(g, "emit era_end")
    assert [pp(g, s) for s in range(3)] == [10 + 4, 10 + 2, 10 + 3]


def test_gta_r5_three_bridge_tiles_one_per_era_three_boxed():
    orders = set()
    for seed in SEEDS:
        g = ready(3, seed=seed)
        eras = var(g, "era_bridges")
        assert len(set(eras)) == 3 and sorted(zone(g, "bridges")) == sorted(eras)
        assert all(g.state["cards"][c]["up"] for c in eras)
        boxed = [c for c in zone(g, "box") if g.program.family_of[ctype(g, c)] == "bridge"]
        assert len(boxed) == 3 and not any(g.state["cards"][c]["up"] for c in boxed)
        orders.add(tuple(ctype(g, c) for c in eras))
    assert len(orders) > 1


@pytest.mark.parametrize("players,shape,spaces", [(1, "two", 8), (2, "two", 8), (3, "three", 10), (4, "four", 12)])
def test_gta_r6_donation_boards_by_player_count(players, shape, spaces):
    g = ready(players)
    for d in DISTRICTS:
        board = g.state["boards"][f"donations_{d}"]
        assert board["shape"] == shape
        assert len(board["owners"]) == spaces
        assert all(v is None for v in board["owners"].values())


def test_gta_r7_general_supply_is_unlimited():
    g = plain(ready(3))
    set_counter(g, "marble", 1, 500)
    set_counter(g, "coins", 2, 500)
    run(g, 'emit gain_goods(who=0, what="marble", n=2)')
    run(g, 'emit gain_goods(who=0, what="coins", n=2)')
    assert done(g)
    assert goods(g, 0) == {"coins": 2, "marble": 2, "copper": 0, "gold": 0}


def test_gta_r8_every_market_space_starts_filled():
    g = ready(3)
    spaces = {r: len(v["spaces"]) for r, v in g.program.boards["market"]["goods"].items()}
    assert g.state["boards"]["market"]["filled"] == spaces == {"marble": 5, "copper": 4, "gold": 4}
    # a full column: a sale goes to the supply, a purchase takes the lowest (cheapest) resource
    g = plain(g)
    set_goods(g, 0, coins=2, gold=1)
    run(g, "emit market_action(who=0)")
    assert "sell gold for 1 coin (to the supply)" in labels(g)
    assert "buy marble for 1" in labels(g)


def test_gta_r9_maharaja_marker_starts_on_its_start_position():
    g = ready(3)
    assert marker(g) == 0  # NE (placeholder, GTA-D2)
    assert ev(g, "marker_start('paths', 'maharaja')") == 0
    assert ev(g, "marker_places('paths', 'maharaja')") == ["north", "east"]


def test_gta_r10_twelve_district_tiles_in_four_colour_piles_of_three():
    g = game(3)
    tiles = g.program.type_instances
    dts = [t for t in g.program.type_order if g.program.family_of[t] == "district_tile"]
    assert len(dts) == 12
    assert Counter(g.program.types[t]["colour"] for t in dts) == {c: 3 for c in COLOURS}
    assert all(len(tiles[t]) == 1 for t in dts)


def test_gta_r11_one_tile_of_each_colour_on_the_lock_slots_at_random():
    placements = set()
    for seed in SEEDS:
        g = ready(3, seed=seed)
        locks = {
            g.state["cards"][c]["in_district"]: c
            for c in zone(g, "district_tiles")
            if g.state["cards"][c]["pos"] == "left"
        }
        assert sorted(locks) == sorted(DISTRICTS)
        assert sorted(prop(g, c, "colour") for c in locks.values()) == sorted(COLOURS)
        assert all(g.state["cards"][c]["up"] for c in locks.values())
        placements.add(tuple(ctype(g, locks[d]) for d in DISTRICTS))
    assert len(placements) > 1


def test_gta_r12_each_district_holds_three_tiles_of_three_colours():
    layouts = set()
    for seed in SEEDS:
        g = ready(3, seed=seed)
        assert zone(g, "tile_piles") == [] and len(zone(g, "district_tiles")) == 12
        for d in DISTRICTS:
            here = [c for c in zone(g, "district_tiles") if g.state["cards"][c]["in_district"] == d]
            assert sorted(g.state["cards"][c]["pos"] for c in here) == ["centre", "left", "right"]
            assert len({prop(g, c, "colour") for c in here}) == 3
        layouts.add(tuple(sorted((g.state["cards"][c]["in_district"], ctype(g, c)) for c in zone(g, "district_tiles"))))
    assert len(layouts) > 1


def test_gta_r13_twelve_workers_three_per_colour_at_random_on_the_spots():
    layouts = set()
    for seed in SEEDS:
        g = ready(3, seed=seed)
        pieces = ring(g)["pieces"]
        assert {p: len(pieces[p]) for p in PLACES} == dict(zip(PLACES, [2, 1] * 4))  # GTA-D23
        assert Counter(w for p in PLACES for w in pieces[p]) == {c: 3 for c in COLOURS}
        assert all(ring(g)["tokens"][p]["coins"] == 0 for p in PLACES)
        layouts.add(tuple(tuple(pieces[p]) for p in PLACES))
    assert len(layouts) > 1


@pytest.mark.parametrize("players", [3, 4])
def test_gta_r14_spare_workers_boxed_with_three_or_four_players(players):
    g = ready(players)
    assert var(g, "spare_workers") == []
    assert sum(len(v) for v in ring(g)["pieces"].values()) == 12


@pytest.mark.parametrize("players", [1, 2])
def test_gta_r15_spare_workers_beside_the_maharaja_positions_with_two_or_solo(players):
    seen = set()
    for seed in SEEDS:
        g = ready(players, seed=seed)
        spare = var(g, "spare_workers")
        assert sorted(spare) == sorted(COLOURS)  # one per colour, one per position
        assert Counter(w for v in ring(g)["pieces"].values() for w in v) == {c: 3 for c in COLOURS}
        seen.add(tuple(spare))
    assert len(seen) > 1


def test_gta_r15_spare_workers_are_never_picked_up():
    g = plain(ready(2))
    spare = list(var(g, "spare_workers"))
    set_ring(g, {"n1": ["blue"]})
    run(g, "emit sow(who=0)")
    assert done(g)
    assert var(g, "spare_workers") == spare
    assert ring(g)["pieces"]["n2"] == ["blue"] and sum(len(v) for v in ring(g)["pieces"].values()) == 1


@pytest.mark.parametrize("players,size", [(1, 6), (2, 6), (3, 9), (4, 12)])
def test_gta_r16_warehouse_display_by_player_count(players, size):
    g = ready(players)
    shown = zone(g, "warehouse_display")
    assert len(shown) == size and all(g.state["cards"][c]["up"] for c in shown)
    boxed = [c for c in zone(g, "box") if g.program.family_of[ctype(g, c)] == "warehouse"]
    assert len(boxed) == 15 - size and not any(g.state["cards"][c]["up"] for c in boxed)


def test_gta_r17_objective_piles_by_type_shuffled():
    draws = set()
    for seed in SEEDS:
        g = game(3, seed=seed)
        for s in range(3):
            assert sorted(prop(g, c, "otype") for c in zone(g, "objectives", s)) == ["a", "b", "c", "d"]
        draws.add(tuple(sorted(types_of(g, "objectives", 0))))
    assert len(draws) > 1


# ------------------------------------------------------------------ players (GTA-R18 .. R35)
def test_gta_r18_r21_each_player_has_own_board_and_seven_mahout_tiles():
    g = game(4)
    actions = {"donate", "upgrade", "coin_pp", "market", "coin_marble", "any", "knowledge"}
    for s in range(4):
        tiles = zone(g, "mahouts", s)
        assert len(tiles) == 7
        assert {prop(g, c, "action") for c in tiles} == actions
        assert all(g.state["cards"][c]["o"] == s for c in tiles)
        assert zone(g, "mahout_slots", s) == [] and zone(g, "warehouse_slots", s) == []
    assert len({c for s in range(4) for c in zone(g, "mahouts", s)}) == 28


def test_gta_r19_five_markers_in_the_market_eleven_on_the_board():
    g = game(3)  # before any setup placement
    assert counter(g, "in_market") == [5, 5, 5]
    assert counter(g, "on_elephant") == [0, 0, 0]
    assert g.state["constants"]["board_markers"] == 11 == 4 + 4 + 3


def test_gta_r20_elephants_start_off_the_main_board():
    g = ready(3)
    assert g.state["boards"]["paths"]["pawns"] == {}
    assert prompt(g) == "Place your elephant on a district's path"


def test_gta_r22_action_tokens_start_locked():
    g = ready(3)
    assert var(g, "token") == ["locked"] * 3
    # a locked token gives no step 3 (GTA-R65): after step 2 no second elephant move
    g = plain(g)
    set_ring(g, {"n1": ["blue"]})
    put_elephant(g, 0, "west")
    asked = turn_prompts(g, 0)
    assert [p for _, p in asked].count("Move your elephant?") == 1


def test_gta_r23_knowledge_markers_start_on_step_zero():
    g = ready(4)
    assert g.state["boards"]["knowledge"] == {t: [0] * 4 for t in ("research", "resources", "income")}


def test_gta_r24_tax_markers_start_on_zero():
    g = game(3)
    assert var(g, "tax_icons") == [0, 0, 0]


def test_gta_r25_score_markers_start_at_five():
    g = ready(3)
    assert counter(g, "pp") == [5, 5, 5]


def test_gta_r26_one_coin_in_each_starting_warehouse():
    g = ready(3)
    assert [goods(g, s) for s in range(3)] == [{"coins": 1, "marble": 0, "copper": 0, "gold": 0}] * 3


def test_gta_r27_one_objective_of_each_type_rest_boxed_unseen():
    g = game(4)
    held = [c for s in range(4) for c in zone(g, "objectives", s)]
    assert len(held) == 16 and len(set(held)) == 16
    for s in range(4):
        assert sorted(prop(g, c, "otype") for c in zone(g, "objectives", s)) == ["a", "b", "c", "d"]
    boxed = [c for c in zone(g, "box") if g.program.family_of[ctype(g, c)] == "objective"]
    assert len(boxed) == 24 - 16 and zone(g, "objective_pool") == []
    assert all(not g.state["cards"][c]["up"] and g.state["cards"][c]["seen"] == [] for c in boxed)


def test_gta_r27_solo_maharaja_draws_from_the_type_c_cards_the_human_did_not_draw():
    for seed in SEEDS:
        g = ready(1, seed=seed)
        mine = zone(g, "objectives", 0) + zone(g, "objective_slots", 0)
        assert sorted(prop(g, c, "otype") for c in mine) == ["a", "b", "c", "d"]
        his = zone(g, "objective_slots", 1)
        assert len(his) == 1 and his[0] not in mine
        assert prop(g, his[0], "otype") == "c" and prop(g, his[0], "solo")


def test_gta_r28_objectives_are_hidden_from_other_players():
    g = ready(3)
    own = g.view(0)["zones"]
    other = g.view(1)["zones"]
    assert len(own["objectives/0"]["cards"]) == 3 and len(own["objective_slots/0"]["cards"]) == 1
    assert other["objectives/0"]["cards"] == [] and other["objectives/0"]["hidden"] == 3
    assert other["objective_slots/0"]["cards"] == [] and other["objective_slots/0"]["hidden"] == 1


def test_gta_r29_random_start_player_and_the_last_player_keeps_the_reminder():
    starts = set()
    for seed in SEEDS:
        g = game(4, seed=seed)
        s = var(g, "start_player")
        starts.add(s)
        assert g.pending["seat"] == s  # the start player sets up first
        assert var(g, "reminder") == (s - 1) % 4  # on the start player's right
    assert len(starts) > 1


def test_gta_r29_the_reminder_holder_plays_last_in_each_round():
    g = ready(3, seed=1)
    start, last = var(g, "start_player"), var(g, "reminder")
    turns = play_out_first(g)
    for r in range(1, 13):
        seats = [t[3] for t in turns if t[0] == r]
        assert seats[0] == start and seats[-1] == last


def test_gta_r30_start_player_places_an_objective_on_slot_one():
    g = game(3)
    s = var(g, "start_player")
    assert prompt(g) == "Choose your first objective (objective slot 1)"
    assert len(labels(g)) == 4
    chosen = zone(g, "objectives", s)[2]
    g.answer(2)
    assert zone(g, "objective_slots", s) == [chosen]
    assert chosen not in zone(g, "objectives", s) and len(zone(g, "objectives", s)) == 3
    assert counter(g, "on_elephant", s) == 1
    assert var(g, "tax_icons", s) == 1
    assert not g.state["cards"][chosen]["up"]  # face down


def test_gta_r31_start_player_places_the_donate_mahout_without_tax():
    g = game(3)
    s = var(g, "start_player")
    g.answer(0)
    assert prompt(g) == "Put the donate mahout tile on which slot?"
    assert labels(g) == list(COLOURS)
    act(g, "white")
    slots = zone(g, "mahout_slots", s)
    assert len(slots) == 1 and prop(g, slots[0], "action") == "donate"
    assert g.state["cards"][slots[0]]["slot"] == "white"
    assert len(zone(g, "mahouts", s)) == 6
    assert counter(g, "on_elephant", s) == 2
    assert var(g, "tax_icons", s) == 1  # only the objective's icon (GTA-D6)


def test_gta_r32_the_others_follow_clockwise():
    g = game(4, seed=3)
    s = var(g, "start_player")
    order = []
    while g.state["round"] == 0:
        order.append((g.pending["seat"], prompt(g)[:10]))
        g.answer(0)
    expect = []
    for k in range(4):
        expect += [((s + k) % 4, "Choose you"), ((s + k) % 4, "Put the do")]
    assert order == expect[:-1]  # the last colour left is placed unasked
    assert all(len(zone(g, "objective_slots", x)) == 1 and len(zone(g, "mahout_slots", x)) == 1 for x in range(4))


def test_gta_r33_mahout_slot_colours_are_not_shared():
    g = game(4)
    offered = []
    while g.state["round"] == 0:
        if prompt(g) == "Put the donate mahout tile on which slot?":
            offered.append(labels(g))
            act(g, labels(g)[-1])
        else:
            g.answer(0)
    assert offered == [["yellow", "blue", "white", "green"], ["yellow", "blue", "white"], ["yellow", "blue"]]
    s = var(g, "start_player")
    chosen = [g.state["cards"][zone(g, "mahout_slots", (s + k) % 4)[0]]["slot"] for k in range(4)]
    assert chosen == ["green", "white", "blue", "yellow"]  # the last player gets the only colour left


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gta_r34_counts_after_setup(players):
    g = ready(players)
    for s in range(players):
        placed = (
            len(zone(g, "objective_slots", s)) + len(zone(g, "mahout_slots", s)) + len(zone(g, "warehouse_slots", s))
        )
        assert counter(g, "on_elephant", s) == 2
        assert 11 - placed == 9
        assert counter(g, "in_market", s) == 5
        assert var(g, "tax_icons", s) == 1 == ev(g, f"board_tax({s})")


def test_gta_r35_setup_placements_trigger_no_bridge():
    g = game(3)
    set_var(g, "era_bridges", [card(g, "br4"), card(g, "br5"), card(g, "br3")])  # upgrade -> PP / coin
    while g.state["round"] == 0:
        g.answer(0)
    assert counter(g, "pp") == [5, 5, 5]
    assert counter(g, "coins") == [1, 1, 1]


# ------------------------------------------------------------------ flow (GTA-R36 .. R38)
def test_gta_r36_three_eras_of_four_rounds():
    g = ready(3, seed=2)
    turns = play_out_first(g)
    assert g.result["rounds"] == 12 and var(g, "finished")
    rounds = sorted({t[:3] for t in turns})
    assert rounds == [(r, (r - 1) // 4 + 1, (r - 1) % 4 + 1) for r in range(1, 13)]
    assert var(g, "temple_pieces") == ["base", "middle", "top"]


def test_gta_r36_four_round_ends_close_an_era():
    g = plain(ready(3))
    for s in range(3):
        set_goods(g, s, coins=5)
    for k in range(3):
        run(g, "emit round_end")
        assert done(g) and var(g, "era") == 1 and var(g, "era_round") == 2 + k
    run(g, "emit round_end")
    assert done(g) and var(g, "era") == 2 and var(g, "era_round") == 1 and marker(g) == 0


def test_gta_r37_one_turn_each_clockwise_from_a_fixed_start_player():
    g = ready(4, seed=3)
    start = var(g, "start_player")
    assert start != 0
    turns = play_out_first(g)
    for r in range(1, 13):
        assert [t[3] for t in turns if t[0] == r] == [(start + k) % 4 for k in range(4)]
    assert var(g, "start_player") == start


def test_gta_r38_turn_steps_in_order():
    g = plain(ready(3))
    set_ring(g, {"n1": ["white", "blue"], "s1": ["green"]})
    place_tiles(g, "north", ["dt_y1", "dt_b1", "dt_g1"])
    put_elephant(g, 0, "west")
    set_var(g, "token", "unlocked", 0)
    mahout(g, 1, "mh_coin_pp", "blue")
    mahout(g, 2, "mh_coin_pp", "white")
    asked = turn_prompts(g, 0)
    steps = [p for _, p in asked]
    i1 = steps.index("Move your elephant?")
    i2 = steps.index("Take the workers of which workplace?")
    i_act = steps.index("Choose an action")
    i3 = len(steps) - 1 - steps[::-1].index("Move your elephant?")
    i_follow = steps.index("Follow the activated worker's colour with your mahout tile?")
    assert i1 < i2 < i_act < i3 < i_follow
    assert steps.count("Move your elephant?") == 2
    # the last worker (chosen: blue, the first offered) is the follow colour: seat 1 follows
    assert asked[i_follow][0] == 1 and var(g, "act_worker") == "blue"


# ------------------------------------------------------------------ elephant moves (GTA-R39 .. R45)
def test_gta_r39_any_number_of_elephants_share_a_path():
    g = plain(ready(3))
    put_elephant(g, 0, "east")
    put_elephant(g, 1, "east")
    put_elephant(g, 2, "north")
    move(g, 2, "move to east (1 step")
    assert [elephant(g, s) for s in range(3)] == ["east"] * 3
    assert ev(g, "pawns_at('paths', 'east')") == ["0", "1", "2"]


def test_gta_r40_step_one_may_leave_the_elephant():
    g = plain(ready(3))
    put_elephant(g, 0, "south")
    set_goods(g, 0, coins=3)
    run(g, "emit elephant_move(who=0, step=1)")
    assert labels(g)[0] == "stay"
    act(g, "stay")
    assert done(g) and elephant(g, 0) == "south" and goods(g, 0)["coins"] == 3 and pp(g, 0) == 10


@pytest.mark.parametrize("steps,dest,cost", [(1, "south", 0), (2, "west", 1), (3, "north", 2)])
def test_gta_r41_first_step_free_each_further_step_one_coin(steps, dest, cost):
    g = plain(ready(3))
    set_marker(g, 3)  # WN: only the 3-step move crosses it
    put_elephant(g, 0, "east")
    set_goods(g, 0, coins=3)
    run(g, "emit elephant_move(who=0, step=1)")
    assert [l.split(" (")[0] for l in labels(g)] == ["stay", "move to south", "move to west", "move to north"]
    act(g, f"move to {dest}")
    assert elephant(g, 0) == dest
    assert goods(g, 0)["coins"] == 3 - cost
    assert pp(g, 0) == 10 - (1 if steps == 3 else 0)


@pytest.mark.parametrize("coins,reach", [(0, ["east"]), (1, ["east", "south"]), (2, ["east", "south", "west"])])
def test_gta_r42_no_move_whose_steps_cannot_be_paid(coins, reach):
    g = plain(ready(3))
    put_elephant(g, 0, "north")
    set_goods(g, 0, coins=coins)
    run(g, "emit elephant_move(who=0, step=1)")
    assert [l.split(" (")[0] for l in labels(g)] == ["stay"] + [f"move to {d}" for d in reach]


@pytest.mark.parametrize("era", [1, 2, 3])
def test_gta_r43_crossing_the_maharaja_marker_costs_pp_by_era(era):
    g = plain(ready(3))
    set_var(g, "era", era)
    set_marker(g, 0)  # NE
    set_goods(g, 0, coins=5)
    put_elephant(g, 0, "north")
    move(g, 0, "move to east")  # crosses NE
    assert pp(g, 0) == 10 - era
    move(g, 0, "move to west")  # east -> south -> west: no crossing
    assert pp(g, 0) == 10 - era and goods(g, 0)["coins"] == 4


def test_gta_r43_the_penalty_is_paid_at_most_once_per_move():
    g = plain(ready(3))
    set_var(g, "era", 2)
    set_marker(g, 1)  # ES
    set_goods(g, 0, coins=5)
    put_elephant(g, 0, "east")
    move(g, 0, "move to north")  # 3 steps across ES (and SW, WN)
    assert pp(g, 0) == 10 - 2 and goods(g, 0)["coins"] == 3


def test_gta_r44_first_turn_places_the_elephant_anywhere_free():
    g = plain(ready(3))
    set_var(g, "era", 3)
    assert elephant(g, 0) is None
    run(g, "emit elephant_move(who=0, step=1)")
    assert prompt(g) == "Place your elephant on a district's path"
    assert labels(g) == list(DISTRICTS)  # mandatory: no "stay"
    act(g, "west")
    assert done(g) and elephant(g, 0) == "west"
    assert goods(g, 0)["coins"] == 0 and pp(g, 0) == 10


def test_gta_r44_first_turn_of_the_game_starts_with_the_placement():
    g = ready(3)
    s = var(g, "start_player")
    assert g.pending["seat"] == s and prompt(g) == "Place your elephant on a district's path"
    act(g, "south")
    assert elephant(g, s) == "south" and counter(g, "pp", s) == 5 and counter(g, "coins", s) == 1


def test_gta_r45_donation_only_on_the_elephants_board():
    g = plain(ready(3))
    put_elephant(g, 0, "south")
    set_counter(g, "on_elephant", 0, 1)
    set_goods(g, 0, marble=1)
    run(g, "emit donate(who=0)")
    assert labels(g) == ["a1", "a2", "a3", "a4"]
    act(g, "a2")
    assert owners(g, "south")["a2"] == 0
    assert all(v is None for d in ("north", "east", "west") for v in owners(g, d).values())


def test_gta_r45_no_donation_without_the_elephant_on_a_board():
    g = plain(ready(3))
    set_counter(g, "on_elephant", 0, 1)
    set_goods(g, 0, marble=1)
    run(g, "emit donate(who=0)")
    assert done(g) and goods(g, 0)["marble"] == 1 and counter(g, "on_elephant", 0) == 1


def _action_window(g, elephant_at):
    place_tiles(g, "south", ["dt_y1", "dt_b1", "dt_g1"])
    set_var(g, "act_district", "south")
    set_var(g, "act_worker", "white")
    set_var(g, "worker_tile", None)
    set_var(g, "worker_closed", False)
    put_elephant(g, 0, elephant_at)
    run(g, "turn 0")
    return labels(g)


def test_gta_r45_elephant_activation_only_in_the_action_district():
    assert "Activate the elephant (one more action)" not in _action_window(plain(ready(3)), "north")
    assert "Activate the elephant (one more action)" in _action_window(plain(ready(3)), "south")


# ------------------------------------------------------------------ worked example
def test_gta_x1_elephant_move_with_cost_and_penalty():
    g = plain(ready(3), pp_=10)
    set_var(g, "era", 1)
    set_var(g, "era_round", 2)
    set_marker(g, 1)  # round 2: boundary ES
    put_elephant(g, 0, "east")
    set_goods(g, 0, coins=3)
    run(g, "emit elephant_move(who=0, step=1)")
    act(g, "move to west (2 steps, 1 coin, passes the Maharaja: -1 PP)")
    assert done(g)
    assert elephant(g, 0) == "west"
    assert goods(g, 0)["coins"] == 2
    assert pp(g, 0) == 9
