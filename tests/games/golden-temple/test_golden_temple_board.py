"""Amritsar: The Golden Temple: donations, upgrades, knowledge tracks, mahout tiles, warehouse tiles and
bridge tiles (GTA-R114 .. GTA-R167, GTA-R221; worked examples GTA-X6, GTA-X10)."""

from __future__ import annotations

import pytest
from gt_support import (
    act,
    card,
    clear,
    counter,
    done,
    elephant,
    finish,
    goods,
    knowledge,
    labels,
    mahout,
    move_card,
    owners,
    place_tiles,
    plain,
    pp,
    prompt,
    put,
    put_elephant,
    ready,
    run,
    set_counter,
    set_goods,
    set_knowledge,
    set_ring,
    set_var,
    var,
    warehouse,
    zone,
)

from mason.runtime.turns import finish as score_game


# ------------------------------------------------------------------ helpers of this file
def fresh(players=3, seed=1):
    return plain(ready(players, seed))


def fill(g, district, seat, *slots):
    for x in slots:
        owners(g, district)[x] = seat


def markers(g, s, n):
    set_counter(g, "on_elephant", s, n)


def cards_of(g, zone_name, s=None):
    return [g.state["cards"][c]["t"] for c in zone(g, zone_name, s)]


def slot_colours(g, s):
    return {g.state["cards"][c]["t"]: g.state["cards"][c]["slot"] for c in zone(g, "mahout_slots", s)}


def mh_i_to(g, s, colour):
    """Seat s's donate mahout (placed at setup) is moved onto the slot of ``colour``."""
    c = next(c for c in zone(g, "mahout_slots", s) if g.state["cards"][c]["t"] == "mh_i")
    g.state["cards"][c]["slot"] = colour
    return c


def tile_card(g, s, type_id):
    """Seat s's copy of a mahout tile, wherever it lies (slots or beside the board)."""
    for z in (f"mahout_slots/{s}", f"mahouts/{s}"):
        for c in g.state["zones"][z]:
            if g.state["cards"][c]["t"] == type_id:
                return c
    raise KeyError(type_id)


def bridge(g, *type_ids):
    """The bridge tiles of eras I, II, III (by type id)."""
    set_var(g, "era_bridges", [card(g, t) for t in type_ids])


def display(g, *type_ids):
    """The warehouse display holds exactly these tiles."""
    clear(g, "warehouse_display")
    for t in type_ids:
        put(g, t, "warehouse_display")


def donate(g, s, district):
    put_elephant(g, s, district)
    run(g, f"emit donate(who={s})")


def upgrade(g, s, kinds="upgrade_kinds", free=False):
    run(g, f"emit upgrade(who={s}, kinds={kinds}, free={'true' if free else 'false'})")


def move_up(g, s, track):
    run(g, f'emit knowledge(who={s}, track="{track}")')


def mahout_do(g, s, type_id, colour="green"):
    """Seat s puts its mahout tile ``type_id`` on the slot of ``colour`` and performs its action."""
    mahout(g, s, type_id, colour)
    run(g, f'emit mahout_action(who={s}, tile=first([m for m in mahout_slots({s}) if m.type == "{type_id}"]))')


def value(g, expr):
    """The game's own value of a DSL expression (said into the log, read back)."""
    run(g, 'say "=> {' + expr + '}"')
    return g.log[-1]["text"][3:]


def capacity(g, s):
    return int(value(g, f"capacity({s})"))


# ------------------------------------------------------------------ donations (GTA-R114 .. R121)
def test_gta_r114_only_the_donate_mahout_donates():
    p = ready(3).program
    tiles = [t for t in p.type_order if p.family_of[t] == "district_tile"]
    codes = {p.types[t]["main"] for t in tiles} | {p.types[t]["secondary"] for t in tiles}
    assert not any("don" in c for c in codes)  # no district tile donates
    mahouts = [t for t in p.type_order if p.family_of[t] == "mahout"]
    assert [t for t in mahouts if p.types[t]["action"] == "donate"] == ["mh_i"]


def test_gta_r114_donate_by_elephant_activation():
    g = fresh()
    put_elephant(g, 0, "south")
    set_goods(g, 0, marble=1)
    set_ring(g, {"e2": ["blue"]})
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    act(g, "Activate the elephant")
    assert labels(g)[-1].startswith("Mahout: donate")
    act(g, "Mahout: donate")
    assert prompt(g) == "Donate on which space?"
    act(g, "a2")
    assert owners(g, "south")["a2"] == 0 and goods(g, 0)["marble"] == 0


def test_gta_r114_donate_by_mahout_any_district_action():
    g = fresh()
    put_elephant(g, 0, "west")
    set_goods(g, 0, marble=1)
    run(g, 'emit tile_action(who=0, code="mahout_any")')  # mh_i is the only mahout tile placed
    assert prompt(g) == "Donate on which space?"
    act(g, "a1")
    assert owners(g, "west")["a1"] == 0 and pp(g, 0) == 11


def test_gta_r114_donate_by_follow_action():
    g = fresh()
    mh_i_to(g, 2, "green")  # P3 follows green with the donate tile
    mh_i_to(g, 0, "yellow")
    put_elephant(g, 2, "north")
    set_goods(g, 2, marble=1)
    put_elephant(g, 1, "west")
    place_tiles(g, "east", ["dt_y1", "dt_b1", "dt_w1"])
    set_ring(g, {"n2": ["green"]})  # lands on East 1
    run(g, "emit player_turn(who=1)")
    act(g, "stay")
    act(g, "Yellow tile 1")
    assert g.pending["seat"] == 2 and labels(g) == ["Follow", "Decline"]
    act(g, "Follow")
    act(g, "a3")
    assert owners(g, "north")["a3"] == 2
    assert pp(g, 2) == 11 and pp(g, 1) == 11  # the active player gains 1 PP per follower


def test_gta_r115_donation_on_the_elephants_board_with_its_marker():
    g = fresh()
    set_goods(g, 1, marble=1)
    donate(g, 1, "east")
    act(g, "a4")
    assert owners(g, "east")["a4"] == 1
    assert all(v is None for d in ("north", "south", "west") for v in owners(g, d).values())
    assert counter(g, "on_elephant", 1) == 1


@pytest.mark.parametrize(
    "layer,space,below,cost",
    [
        (1, "a1", [], {"marble": 1}),
        (2, "b2", ["a2", "a3"], {"marble": 1, "copper": 1}),
        (3, "c2", ["a1", "a2", "a3", "a4", "b2", "b3"], {"copper": 1, "gold": 1}),
        (4, "d1", ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "c1", "c2"], {"gold": 2}),
    ],
)
def test_gta_r116_layer_costs(layer, space, below, cost):
    g = fresh()
    fill(g, "north", 1, *below)
    set_goods(g, 0, **cost)
    donate(g, 0, "north")
    if g.pending:
        assert space in labels(g)
        act(g, space)
    assert owners(g, "north")[space] == 0
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}


def test_gta_r116_a_layer_one_resource_short_is_not_offered():
    g = fresh()
    fill(g, "north", 1, "a1", "a2", "a3", "a4", "b1", "b2", "b3", "c1", "c2")
    set_goods(g, 0, gold=1, marble=3, copper=3)  # L4 needs 2 gold
    donate(g, 0, "north")
    assert not g.pending and owners(g, "north")["d1"] is None
    assert goods(g, 0)["gold"] == 1
    g = fresh()
    fill(g, "north", 1, "a1", "a2")
    set_goods(g, 0, copper=1)  # L2 needs marble + copper
    donate(g, 0, "north")
    assert owners(g, "north")["b1"] is None and goods(g, 0)["copper"] == 1


def test_gta_r117_upper_space_needs_both_supports():
    g = fresh()
    fill(g, "south", 1, "a1", "a3")
    fill(g, "south", 2, "a4")
    set_goods(g, 0, marble=2, copper=1)
    donate(g, 0, "south")
    assert labels(g) == ["a2", "b3"]  # b1 and b2 lack a2; b3 rests on a3 + a4
    act(g, "a2")
    set_goods(g, 0, marble=1, copper=1)
    run(g, "emit donate(who=0)")
    assert labels(g) == ["b1", "b2", "b3"]  # supports of any players


def test_gta_r118_donate_pays_moves_a_marker_and_gains_printed_pp():
    g = fresh()
    fill(g, "west", 1, "a1", "a2", "a3", "a4", "b2")
    fill(g, "west", 2, "b1", "b3")
    set_goods(g, 0, copper=1, gold=1, marble=1)
    markers(g, 0, 3)
    donate(g, 0, "west")
    assert "a1" not in labels(g) and "b1" not in labels(g)  # taken spaces are not legal
    act(g, "c1")
    assert owners(g, "west")["c1"] == 0
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 0, "gold": 0}
    assert counter(g, "on_elephant", 0) == 2
    assert pp(g, 0) == 10 + 3  # L3 prints 3 PP


def test_gta_r119_supporting_owners_gain_one_pp_each():
    g = fresh()
    fill(g, "east", 1, "a1")
    fill(g, "east", 0, "a2")
    set_goods(g, 0, marble=1, copper=1)
    donate(g, 0, "east")
    act(g, "b1")
    assert pp(g, 0) == 10 + 2 + 1  # the donor gains for an own support
    assert pp(g, 1) == 11 and pp(g, 2) == 10


def test_gta_r119_one_player_may_gain_two():
    g = fresh()
    fill(g, "east", 2, "a2", "a3")
    set_goods(g, 1, marble=1, copper=1)
    donate(g, 1, "east")
    act(g, "b2")
    assert pp(g, 2) == 12 and pp(g, 1) == 12 and pp(g, 0) == 10


def test_gta_r119_layer_one_pays_no_support():
    g = fresh()
    fill(g, "east", 2, "a2", "a3")
    set_goods(g, 1, marble=1)
    donate(g, 1, "east")
    act(g, "a4")
    assert pp(g, 2) == 10 and pp(g, 1) == 11


def test_gta_r120_no_marker_on_the_elephant():
    g = fresh()
    markers(g, 0, 0)
    set_goods(g, 0, marble=1)
    donate(g, 0, "north")
    assert not g.pending and done(g)
    assert all(v is None for v in owners(g, "north").values()) and goods(g, 0)["marble"] == 1


def test_gta_r120_no_resources_for_any_legal_space():
    g = fresh()
    set_goods(g, 0, copper=2, gold=2, coins=3)
    donate(g, 0, "north")
    assert not g.pending and all(v is None for v in owners(g, "north").values())
    assert pp(g, 0) == 10


def test_gta_r120_board_without_legal_space():
    g = fresh()
    fill(g, "north", 1, *owners(g, "north"))
    set_goods(g, 0, marble=2, copper=2, gold=2)
    donate(g, 0, "north")
    assert not g.pending and counter(g, "on_elephant", 0) == 2 and pp(g, 0) == 10


def test_gta_r120_cannot_follow_with_donate_when_unable():
    g = fresh()
    mh_i_to(g, 2, "green")
    mh_i_to(g, 0, "yellow")
    put_elephant(g, 2, "north")  # no resources: P3 cannot donate
    put_elephant(g, 1, "west")
    place_tiles(g, "east", ["dt_y1", "dt_b1", "dt_w1"])
    set_ring(g, {"n2": ["green"]})  # lands on East 1
    run(g, "emit player_turn(who=1)")
    act(g, "stay")
    act(g, "Yellow tile 1")
    assert done(g) and pp(g, 1) == 10


def test_gta_r121_donations_break_a_tie():
    g = fresh()
    for s in range(3):
        clear(g, "objective_slots", s)
    fill(g, "north", 1, "a1", "a2")
    fill(g, "south", 0, "a1")
    fill(g, "west", 0, "a1", "a2")
    for s in range(3):
        set_counter(g, "pp", s, 20)
    score_game(g.rt)
    assert g.result["scores"] == [20, 20, 20]
    assert g.result["winners"] == [0]


# ------------------------------------------------------------------ upgrades (GTA-R122 .. R130, GTA-R221)
@pytest.mark.parametrize(
    "code,kinds",
    [
        ("upg_wo", ["warehouse", "objective"]),
        ("upg_wm", ["warehouse", "mahout"]),
        ("upg_wom", ["warehouse", "objective", "mahout"]),
    ],
)
def test_gta_r122_granting_effect_lists_the_kinds(code, kinds):
    g = fresh()
    set_goods(g, 0, marble=1, copper=1, gold=1)
    run(g, f'emit tile_action(who=0, code="{code}")')
    assert prompt(g) == "Upgrade: which kind?" and [x.split(" (")[0] for x in labels(g)] == kinds


def test_gta_r122_one_item_on_an_empty_slot_of_its_kind():
    g = fresh()
    set_goods(g, 0, marble=1, copper=1, gold=1)
    before = {z: len(zone(g, z, 0)) for z in ("warehouse_slots", "objective_slots", "mahout_slots")}
    upgrade(g, 0)
    act(g, "objective")
    act(g, labels(g)[0])
    after = {z: len(zone(g, z, 0)) for z in ("warehouse_slots", "objective_slots", "mahout_slots")}
    assert after == {**before, "objective_slots": before["objective_slots"] + 1}
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 0, "gold": 1}


def test_gta_r122_an_upgrade_with_nothing_payable_says_so():
    """Nothing to pay with: no upgrade is made, nothing is paid, and the narration says why (a player
    read "P2 chooses Yellow tile 3" and then nothing)."""
    g = fresh()
    set_goods(g, 0)
    start = len(g.log)
    upgrade(g, 0)
    assert g.state["pending"] is None
    assert "P1 has no upgrade to make (no free slot with a tile for it, or none payable)." in [
        e.get("text") for e in g.log[start:]
    ]
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}


def test_gta_r123_warehouse_upgrade_pays_marble_takes_any_display_tile():
    g = fresh()
    display(g, "wh02", "wh07", "wh10")
    set_goods(g, 0, marble=1, copper=1, gold=1)
    upgrade(g, 0, "[warehouse]")
    assert prompt(g) == "Take which warehouse tile?" and len(labels(g)) == 3
    act(g, "Warehouse: no Maharaja penalty")
    assert cards_of(g, "warehouse_slots", 0) == ["wh10"]
    assert sorted(cards_of(g, "warehouse_display")) == ["wh02", "wh07"]
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 1, "gold": 1}


def test_gta_r123_warehouse_upgrade_needs_marble():
    g = fresh()
    set_goods(g, 0, copper=1, gold=1)
    upgrade(g, 0)
    assert labels(g) == ["objective (pay 1 copper)", "mahout (pay 1 gold)"]  # each with its cost (issue 30)


def test_gta_r124_objective_upgrade_pays_copper_face_down_next_slot():
    g = fresh()
    set_goods(g, 0, marble=1, copper=1, gold=1)
    hand = cards_of(g, "objectives", 0)
    first_slot = zone(g, "objective_slots", 0)
    upgrade(g, 0, "[objective]")
    assert prompt(g) == "Place which objective card (face down)?" and len(labels(g)) == len(hand) == 3
    act(g, labels(g)[1])
    slots = zone(g, "objective_slots", 0)
    assert slots[:1] == first_slot and len(slots) == 2  # slot 1 kept, the card goes on slot 2
    assert g.state["cards"][slots[1]]["t"] == hand[1]
    assert not g.state["cards"][slots[1]]["up"]
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 0, "gold": 1}


def test_gta_r124_objective_upgrade_needs_copper():
    g = fresh()
    set_goods(g, 0, marble=1, gold=1)
    upgrade(g, 0)
    assert labels(g) == ["warehouse (pay 1 marble)", "mahout (pay 1 gold)"]


def test_gta_r125_mahout_upgrade_pays_gold_on_a_free_slot_of_choice():
    g = fresh()
    mh_i_to(g, 0, "blue")
    set_goods(g, 0, marble=1, copper=1, gold=1)
    upgrade(g, 0, "[mahout]")
    assert prompt(g) == "Place which mahout tile?" and len(labels(g)) == 6
    act(g, "Mahout: market")
    assert prompt(g) == "On which mahout slot (colour)?"
    assert labels(g) == ["yellow", "white", "green"]  # blue holds mh_i
    act(g, "green")
    assert slot_colours(g, 0) == {"mh_i": "blue", "mh_market": "green"}
    assert "mh_market" not in cards_of(g, "mahouts", 0)
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 1, "gold": 0}


def test_gta_r125_mahout_upgrade_needs_gold():
    g = fresh()
    set_goods(g, 0, marble=1, copper=1)
    upgrade(g, 0)
    assert labels(g) == ["warehouse (pay 1 marble)", "objective (pay 1 copper)"]


def test_gta_r126_full_slots_or_empty_display_cannot_be_chosen():
    g = fresh()
    set_goods(g, 0, marble=2, copper=2, gold=2)
    for t in ("wh01", "wh02", "wh03"):
        warehouse(g, 0, t)
    for t, c in (("mh_upg", "yellow"), ("mh_market", "blue"), ("mh_any", "green")):
        mahout(g, 0, t, c)
    mh_i_to(g, 0, "white")
    upgrade(g, 0)
    assert prompt(g) == "Place which objective card (face down)?"  # the only kind left resolves itself
    g = fresh()
    set_goods(g, 0, marble=2, copper=2, gold=2)
    clear(g, "warehouse_display")
    for o in zone(g, "objectives", 0):
        move_card(g.rt, o, "objective_slots/0")
    assert len(zone(g, "objective_slots", 0)) == 4
    upgrade(g, 0)
    assert prompt(g) == "Place which mahout tile?"  # only the mahout kind is left


def test_gta_r126_no_upgrade_possible_does_nothing():
    g = fresh()
    set_goods(g, 0, marble=1)
    clear(g, "warehouse_display")
    upgrade(g, 0, "[warehouse]")
    assert done(g) and goods(g, 0)["marble"] == 1 and zone(g, "warehouse_slots", 0) == []


@pytest.mark.parametrize(
    "kind,pick,icons",
    [
        ("warehouse", "Warehouse: tax -1", 2),
        ("warehouse", "Warehouse: market discount", 1),
        ("objective", None, 1),
        ("mahout", None, 1),
    ],
)
def test_gta_r127_tax_marker_moves_by_the_placement_icons(kind, pick, icons):
    g = fresh()
    display(g, "wh08", "wh07")
    set_goods(g, 0, marble=1, copper=1, gold=1)
    upgrade(g, 0, f"[{kind}]")
    while g.pending:
        act(g, pick if pick and pick in labels(g) else labels(g)[0])
    assert var(g, "tax_icons", 0) == 1 + icons


def test_gta_r127_tax_marker_matches_board_icons_at_era_end():
    g = fresh()
    display(g, "wh08")
    set_goods(g, 0, marble=1, copper=1, gold=1, coins=0)
    upgrade(g, 0, "[warehouse]")
    upgrade(g, 0, "[objective]")
    act(g, labels(g)[0])
    upgrade(g, 0, "[mahout]")
    act(g, labels(g)[0])
    act(g, labels(g)[0])
    assert var(g, "tax_icons", 0) == 1 + 2 + 1 + 1
    for s in range(3):
        set_counter(g, "coins", s, 3)
    run(g, "emit era_end")  # would fail on a mismatch (GTA-R81)
    finish(g)
    assert counter(g, "coins", 0) == 3 - (3 - 1)  # position 5 owes 3, wh08 -1


def test_gta_r128_slot_marker_goes_onto_the_elephant():
    g = fresh()
    set_goods(g, 0, copper=1)
    upgrade(g, 0, "[objective]")
    act(g, labels(g)[0])
    assert counter(g, "on_elephant", 0) == 3 and counter(g, "in_market", 0) == 5


def test_gta_r128_r221_full_elephant_sends_it_to_the_market_without_limit():
    g = fresh()
    markers(g, 0, 6)
    set_goods(g, 0, copper=1, gold=1)
    upgrade(g, 0, "[objective]")
    act(g, labels(g)[0])
    assert counter(g, "on_elephant", 0) == 6 and counter(g, "in_market", 0) == 6  # beyond the 5 spaces
    upgrade(g, 0, "[mahout]")
    act(g, labels(g)[0])
    act(g, labels(g)[0])
    assert counter(g, "in_market", 0) == 7
    markers(g, 0, 0)
    for _ in range(7):  # every market marker stays available
        run(g, "emit take_marker(who=0)")
    assert counter(g, "on_elephant", 0) == 6 and counter(g, "in_market", 0) == 1


def test_gta_r129_free_upgrade_costs_nothing():
    g = fresh()
    display(g, "wh07")
    upgrade(g, 0, free=True)  # no resources at all
    assert labels(g) == ["warehouse (free)", "objective (free)", "mahout (free)"]
    act(g, "warehouse")
    assert cards_of(g, "warehouse_slots", 0) == ["wh07"]
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}
    assert var(g, "tax_icons", 0) == 2 and counter(g, "on_elephant", 0) == 3


def test_gta_r129_free_upgrade_never_asks_for_payment():
    g = fresh()
    set_goods(g, 0, marble=1, copper=1, gold=1)
    upgrade(g, 0, "[mahout]", free=True)
    act(g, "Mahout: knowledge")
    act(g, labels(g)[0])
    assert done(g) and goods(g, 0) == {"coins": 0, "marble": 1, "copper": 1, "gold": 1}


def test_gta_r130_one_time_reward_right_after_placement():
    g = fresh()
    display(g, "wh02")
    set_goods(g, 0, marble=1)
    upgrade(g, 0, "[warehouse]")
    assert goods(g, 0)["marble"] == 2  # paid 1, then gained 2 in 7 spaces
    assert capacity(g, 0) == 7


def test_gta_r130_persistent_effect_from_placement_on():
    g = fresh()
    display(g, "wh07")
    set_goods(g, 0, marble=1, coins=2)
    run(g, "emit market_action(who=0)")
    assert not any("discount" in l for l in labels(g))
    act(g, "stop trading")
    upgrade(g, 0, "[warehouse]")
    run(g, "emit market_action(who=0)")
    assert any("discount" in l for l in labels(g))


# ------------------------------------------------------------------ knowledge (GTA-R131 .. R139)
def test_gta_r131_a_move_is_one_step_on_one_track():
    g = fresh()
    set_knowledge(g, 0, "income", 3)
    run(g, 'emit tile_action(who=0, code="k_income")')
    finish(g)
    assert [knowledge(g, 0, t) for t in ("research", "resources", "income")] == [0, 0, 4]
    assert [knowledge(g, 1, t) for t in ("research", "resources", "income")] == [0, 0, 0]


def test_gta_r131_k_any_chooses_the_track():
    g = fresh()
    run(g, 'emit tile_action(who=0, code="k_any")')
    assert prompt(g) == "Move which knowledge marker up?" and labels(g) == ["research", "resources", "income"]
    act(g, "resources")
    assert [knowledge(g, 0, t) for t in ("research", "resources", "income")] == [0, 1, 0]


@pytest.mark.parametrize(
    "track,start,check",
    [
        ("resources", 0, lambda g: goods(g, 0)["marble"] == 1),
        ("resources", 1, lambda g: goods(g, 0)["copper"] == 1),
        ("income", 0, lambda g: goods(g, 0)["coins"] == 1),
        ("income", 2, lambda g: goods(g, 0)["coins"] == 2),
        ("research", 0, lambda g: counter(g, "on_elephant", 0) == 3 and counter(g, "in_market", 0) == 4),
    ],
)
def test_gta_r132_one_time_reward_at_once(track, start, check):
    g = fresh()
    set_knowledge(g, 0, track, start)
    move_up(g, 0, track)
    assert done(g) and knowledge(g, 0, track) == start + 1
    assert check(g)


def test_gta_r133_era_end_icon_pays_this_era_and_later():
    g = fresh()
    set_knowledge(g, 0, "income", 1)
    move_up(g, 0, "income")  # reaches coin + PP (era end)
    assert goods(g, 0)["coins"] == 0 and pp(g, 0) == 10  # nothing at once
    set_knowledge(g, 1, "income", 3)  # above the icon: still reached
    for s in range(3):
        set_counter(g, "coins", s, 2)
    run(g, "emit era_end")  # era I ends
    finish(g)
    assert [counter(g, "coins", s) for s in range(3)] == [2, 2, 1]  # 1 tax each, +1 coin for P1 and P2
    assert [pp(g, s) for s in range(3)] == [11, 11, 10]
    run(g, "emit era_end")  # era II ends: pays again
    finish(g)
    assert [counter(g, "coins", s) for s in range(3)] == [2, 2, 0]
    assert [pp(g, s) for s in range(3)] == [12, 12, 10]


def test_gta_r134_game_end_icon_scores_at_final_scoring():
    g = fresh()
    for s in range(3):
        clear(g, "objective_slots", s)
    set_knowledge(g, 0, "research", 5)
    markers(g, 0, 4)
    move_up(g, 0, "research")  # reaches 1 PP per marker on the elephant
    assert pp(g, 0) == 10
    set_knowledge(g, 1, "income", 6)
    set_goods(g, 1, coins=3, marble=1)
    set_knowledge(g, 2, "resources", 6)
    set_goods(g, 2, coins=3, marble=1, gold=2)
    score_game(g.rt)
    assert [p["knowledge"] for p in g.result["parts"]] == [4, 3, 3]
    assert g.result["scores"] == [14, 13, 13]


def test_gta_r135_top_step_gives_the_arrow_reward():
    g = fresh()
    set_knowledge(g, 0, "research", 6)
    set_knowledge(g, 0, "income", 6)
    set_knowledge(g, 0, "resources", 6)
    move_up(g, 0, "research")  # arrow: 1 donation marker
    assert knowledge(g, 0, "research") == 6 and counter(g, "on_elephant", 0) == 3
    move_up(g, 0, "income")  # arrow: 1 coin
    assert knowledge(g, 0, "income") == 6 and goods(g, 0)["coins"] == 1
    move_up(g, 0, "resources")  # arrow: 1 any resource
    act(g, "gold")
    assert knowledge(g, 0, "resources") == 6 and goods(g, 0)["gold"] == 1


def test_gta_r136_upgrade_reward_is_paid():
    g = fresh()
    set_knowledge(g, 0, "research", 1)
    set_goods(g, 0, gold=1)
    move_up(g, 0, "research")  # step 2: 1 upgrade (paid)
    assert prompt(g) == "Place which mahout tile?"  # gold pays only a mahout
    act(g, "Mahout: market")
    act(g, "yellow")
    assert goods(g, 0)["gold"] == 0 and slot_colours(g, 0).get("mh_market") == "yellow"


def test_gta_r136_upgrade_reward_without_resources_does_nothing():
    g = fresh()
    set_knowledge(g, 0, "research", 1)
    move_up(g, 0, "research")
    assert done(g) and knowledge(g, 0, "research") == 2 and len(zone(g, "mahout_slots", 0)) == 1


def test_gta_r136_free_upgrade_reward_any_kind_no_cost():
    g = fresh()
    set_knowledge(g, 0, "research", 4)
    move_up(g, 0, "research")  # step 5: 1 free upgrade
    assert labels(g) == ["warehouse (free)", "objective (free)", "mahout (free)"]
    act(g, "objective")
    act(g, labels(g)[0])
    assert len(zone(g, "objective_slots", 0)) == 2 and goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}


def test_gta_r137_unlock_gives_step_three():
    g = fresh()
    put_elephant(g, 0, "north")
    set_knowledge(g, 0, "research", 2)
    assert var(g, "token", 0) == "locked"
    move_up(g, 0, "research")
    assert var(g, "token", 0) == "unlocked"
    set_ring(g, {"e2": ["blue"]})
    set_goods(g, 0, coins=1)
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    while prompt(g) != "Move your elephant?":
        act(g, labels(g)[0])
    act(g, "move to east")  # step 3: a second elephant move
    assert elephant(g, 0) == "east"


def test_gta_r137_locked_token_has_no_step_three():
    g = fresh()
    put_elephant(g, 0, "north")
    set_ring(g, {"e2": ["blue"]})
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    while g.pending and g.pending["seat"] == 0:
        assert prompt(g) != "Move your elephant?"
        act(g, labels(g)[0])


def test_gta_r138_teleport_discarding_the_token():
    g = fresh()
    put_elephant(g, 0, "north")
    set_var(g, "token", "unlocked", 0)
    run(g, "emit elephant_move(who=0, step=1)")
    assert "teleport: discard the action token" in labels(g)
    act(g, "teleport: discard the action token")
    assert labels(g) == ["north", "east", "south", "west"]  # "任意區劃": any district
    act(g, "west")  # 3 steps, crosses NE: free, no penalty
    assert elephant(g, 0) == "west" and pp(g, 0) == 10 and goods(g, 0)["coins"] == 0
    assert var(g, "token", 0) == "discarded"
    set_ring(g, {"e2": ["blue"]})
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    while g.pending and g.pending["seat"] == 0:  # no step 3 afterwards
        assert prompt(g) != "Move your elephant?"
        act(g, labels(g)[0])


def test_gta_r138_teleport_may_put_the_elephant_back_in_its_own_district():
    g = fresh()
    put_elephant(g, 0, "north")
    set_var(g, "token", "unlocked", 0)
    run(g, "emit elephant_move(who=0, step=3)")
    act(g, "teleport: discard the action token")
    act(g, "north")
    assert done(g) and elephant(g, 0) == "north" and var(g, "token", 0) == "discarded"
    assert pp(g, 0) == 10 and goods(g, 0)["coins"] == 0


def test_gta_r138_teleport_in_step_three_and_not_with_locked_token():
    g = fresh()
    put_elephant(g, 0, "north")
    run(g, "emit elephant_move(who=0, step=1)")
    assert not any(l.startswith("teleport") for l in labels(g))
    set_var(g, "token", "unlocked", 0)
    run(g, "emit elephant_move(who=0, step=3)")
    act(g, "teleport: discard the action token")
    act(g, "south")
    assert elephant(g, 0) == "south" and var(g, "token", 0) == "discarded"


@pytest.mark.parametrize(
    "code,expect",
    [
        ("marble", {"marble": 1}),
        ("copper", {"copper": 1}),
        ("coin", {"coins": 1}),
        ("coin2", {"coins": 2}),
    ],
)
def test_gta_r139_fixed_gain_rewards(code, expect):
    g = fresh()
    run(g, f'emit reward(who=0, code="{code}")')
    assert done(g)
    assert goods(g, 0) == {**{"coins": 0, "marble": 0, "copper": 0, "gold": 0}, **expect}


def test_gta_r139_any_resources_each_chosen_separately():
    g = fresh()
    run(g, 'emit reward(who=0, code="any")')
    assert labels(g) == ["marble", "copper", "gold"]
    act(g, "gold")
    run(g, 'emit reward(who=0, code="any2")')
    act(g, "copper")
    assert prompt(g) == "Gain which resource?"
    act(g, "gold")
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 1, "gold": 2}


# ------------------------------------------------------------------ mahout tiles (GTA-R140 .. R146)
def test_gta_r140_mh_i_makes_one_donation():
    g = fresh()
    put_elephant(g, 0, "south")
    set_goods(g, 0, marble=2)
    run(g, 'emit mahout_action(who=0, tile=first([m for m in mahout_slots(0) if m.type == "mh_i"]))')
    act(g, "a1")
    assert done(g)  # one donation only
    assert [x for x, o in owners(g, "south").items() if o == 0] == ["a1"] and goods(g, 0)["marble"] == 1


def test_gta_r141_mh_upg_one_paid_upgrade_of_any_kind():
    g = fresh()
    set_goods(g, 0, marble=1, copper=1, gold=1)
    mahout_do(g, 0, "mh_upg")
    assert labels(g) == ["warehouse (pay 1 marble)", "objective (pay 1 copper)", "mahout (pay 1 gold)"]
    act(g, "warehouse")
    act(g, labels(g)[0])
    assert done(g) and len(zone(g, "warehouse_slots", 0)) == 1
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 1, "gold": 1}


def test_gta_r142_mh_coin_pp():
    g = fresh()
    mahout_do(g, 0, "mh_coin_pp")
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 0, "gold": 0} and pp(g, 0) == 11


def test_gta_r143_mh_market_one_market_action():
    g = fresh()
    set_goods(g, 0, coins=2)
    mahout_do(g, 0, "mh_market")
    assert prompt(g) == "Market: buy or sell one resource, or stop"
    act(g, "buy marble for 1")
    act(g, "stop trading")
    assert goods(g, 0) == {"coins": 1, "marble": 1, "copper": 0, "gold": 0}
    assert counter(g, "on_elephant", 0) == 3


def test_gta_r144_mh_coin_marble():
    g = fresh()
    mahout_do(g, 0, "mh_coin_marble")
    assert goods(g, 0) == {"coins": 1, "marble": 1, "copper": 0, "gold": 0} and pp(g, 0) == 10


def test_gta_r145_mh_any_one_resource_of_choice():
    g = fresh()
    mahout_do(g, 0, "mh_any")
    assert labels(g) == ["marble", "copper", "gold"]
    act(g, "copper")
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 1, "gold": 0}


def test_gta_r146_mh_k_any_knowledge_marker_up_one():
    g = fresh()
    set_knowledge(g, 0, "research", 3)
    mahout_do(g, 0, "mh_k")
    assert labels(g) == ["research", "resources", "income"]
    act(g, "research")
    assert knowledge(g, 0, "research") == 4 and knowledge(g, 0, "income") == 0


# ------------------------------------------------------------------ warehouse tiles (GTA-R147 .. R159)
def take_warehouse(g, s, type_id):
    display(g, type_id)
    set_counter(g, "marble", s, counter(g, "marble", s) + 1)
    upgrade(g, s, "[warehouse]")


def test_gta_r147_wh01_coin_and_any_resource():
    g = fresh()
    take_warehouse(g, 0, "wh01")
    assert prompt(g) == "Gain which resource?"
    act(g, "gold")
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 0, "gold": 1}


def test_gta_r148_wh02_two_marble():
    g = fresh()
    take_warehouse(g, 0, "wh02")
    assert done(g) and goods(g, 0) == {"coins": 0, "marble": 2, "copper": 0, "gold": 0}


def test_gta_r149_wh03_two_moves_on_the_same_marker():
    g = fresh()
    take_warehouse(g, 0, "wh03")
    act(g, "resources")
    act(g, "resources")
    assert knowledge(g, 0, "resources") == 2
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 1, "gold": 0}  # both one-time rewards


def test_gta_r149_wh03_two_moves_on_two_markers():
    g = fresh()
    take_warehouse(g, 0, "wh03")
    act(g, "income")
    act(g, "resources")
    assert [knowledge(g, 0, t) for t in ("research", "resources", "income")] == [0, 1, 1]


SWAPS = [("wh04", "yellow", "dt_y1"), ("wh05", "blue", "dt_b1"), ("wh06", "green", "dt_g1")]
OTHERS = {"yellow": ["dt_b1", "dt_g2"], "blue": ["dt_y2", "dt_g2"], "green": ["dt_y2", "dt_b1"]}


def secondary_turn(g, worker, tiles):
    """P1's turn: a ``worker`` lands on East 1 whose tiles are ``tiles``; the elephant stays in the West."""
    put_elephant(g, 0, "west")
    place_tiles(g, "east", tiles)
    set_ring(g, {"n2": [worker]})
    run(g, "emit player_turn(who=0)")
    act(g, "stay")


@pytest.mark.parametrize("wh,colour,_", SWAPS)
def test_gta_r150_shown_colour_counts_as_white(wh, colour, _):
    g = fresh()
    warehouse(g, 0, wh)
    secondary_turn(g, colour, ["dt_w1"] + OTHERS[colour])
    act(g, "Secondary action")  # white tile's secondary: income +1
    act(g, "2 marble")  # then its main action
    assert knowledge(g, 0, "income") == 1 and goods(g, 0)["coins"] == 1


@pytest.mark.parametrize("wh,colour,tile", SWAPS)
def test_gta_r150_white_counts_as_shown_colour(wh, colour, tile):
    g = fresh()
    warehouse(g, 0, wh)
    secondary_turn(g, "white", [tile] + [t for t in ("dt_y2", "dt_b3", "dt_g3") if t[3] != colour[0]][:2])
    assert "Secondary action of the same tile (worker of its colour)" in labels(g)
    act(g, "Secondary action")
    finish(g)
    assert sum(knowledge(g, 0, t) for t in ("research", "resources", "income")) == 1


def test_gta_r150_without_the_tile_no_swap():
    g = fresh()
    warehouse(g, 0, "wh05")  # blue <-> white does not help yellow
    secondary_turn(g, "yellow", ["dt_w1", "dt_b1", "dt_g2"])
    assert prompt(g) == "Main action: which district tile?"  # no secondary to choose
    g = fresh()
    warehouse(g, 1, "wh04")  # another player's tile does not count
    secondary_turn(g, "yellow", ["dt_w1", "dt_b1", "dt_g2"])
    assert prompt(g) == "Main action: which district tile?"


def test_gta_r151_wh07_one_coin_less_for_one_purchase_per_market_action():
    g = fresh()
    warehouse(g, 0, "wh07")
    set_goods(g, 0, coins=1)
    run(g, "emit market_action(who=0)")
    act(g, "buy marble for 0 (discount)")
    assert not any("discount" in l for l in labels(g))  # once per market action
    act(g, "buy marble for 1")  # no coin left: the action ends
    assert goods(g, 0) == {"coins": 0, "marble": 2, "copper": 0, "gold": 0}
    run(g, "emit market_action(who=0)")  # the next market action: again
    assert "buy copper for 0 (discount)" in labels(g)


def test_gta_r151_wh07_on_a_two_coin_price():
    g = fresh()
    warehouse(g, 0, "wh07")
    g.state["boards"]["market"]["filled"]["gold"] = 1  # only the top space (price 2) is left
    set_goods(g, 0, coins=1)
    run(g, "emit market_action(who=0)")
    act(g, "buy gold for 1 (discount)")
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 1}


@pytest.mark.parametrize("research,income,owed,bonus", [(0, 0, 1, 0), (4, 0, 0, 0), (4, 5, 0, 1)])
def test_gta_r152_wh08_tax_one_coin_lower_never_below_zero(research, income, owed, bonus):
    g = fresh()
    warehouse(g, 0, "wh08")
    warehouse(g, 1, "wh10")  # also 2 tax icons, no reduction
    set_knowledge(g, 0, "research", research)  # research 4, income 5: tax -1 each
    set_knowledge(g, 0, "income", income)  # (income 5 also pays 1 coin + 1 PP)
    for s in range(3):
        set_var(g, "tax_icons", 3 if s < 2 else 1, s)  # 1 objective + 2 warehouse icons
        set_counter(g, "coins", s, 3)
    run(g, "emit era_end")
    finish(g)
    assert [counter(g, "coins", s) for s in range(2)] == [3 - owed + bonus, 1]  # position 3 owes 2
    assert [pp(g, s) for s in range(3)] == [10 + bonus, 10, 10]


def test_gta_r153_wh09_one_free_skip_per_worker_movement():
    g = fresh()
    warehouse(g, 0, "wh09")
    set_ring(g, {"e1": ["blue"]})
    set_goods(g, 0, coins=1)
    run(g, "emit sow(who=0)")
    assert labels(g) == ["East 2", "South 1 (skip 1, pay 0)", "South 2 (skip 2, pay 1)"]
    act(g, "South 2")
    assert goods(g, 0)["coins"] == 0
    r = g.state["boards"]["workplaces"]
    assert r["pieces"]["s2"] == ["blue"] and sum(t["coins"] for t in r["tokens"].values()) == 1


def test_gta_r153_without_wh09_every_skip_is_paid():
    g = fresh()
    set_ring(g, {"e1": ["blue"]})
    set_goods(g, 0, coins=1)
    run(g, "emit sow(who=0)")
    assert labels(g) == ["East 2", "South 1 (skip 1, pay 1)"]


def test_gta_r154_wh10_no_penalty_for_passing_the_maharaja():
    g = fresh()
    set_var(g, "era", 3)
    warehouse(g, 0, "wh10")
    put_elephant(g, 0, "north")  # the marker is on NE
    put_elephant(g, 1, "north")
    for s in (0, 1):
        run(g, f"emit elephant_move(who={s}, step=1)")
        act(g, "move to east")
    assert elephant(g, 0) == "east" and pp(g, 0) == 10
    assert elephant(g, 1) == "east" and pp(g, 1) == 7  # without the tile: -3 in era III


def test_gta_r155_wh11_every_face_up_bridge():
    g = fresh()
    bridge(g, "br4", "br5", "br6")
    warehouse(g, 0, "wh11")
    for s in (0, 1):
        set_goods(g, s, copper=1)
        upgrade(g, s, "[objective]")
        act(g, labels(g)[0])
    assert (pp(g, 0), goods(g, 0)["coins"]) == (11, 1)  # br4 (this era) and br5 (era II)
    assert (pp(g, 1), goods(g, 1)["coins"]) == (11, 0)  # only the current bridge


def test_gta_r155_wh11_never_a_flipped_bridge():
    g = fresh()
    set_var(g, "era", 2)
    bridge(g, "br4", "br3", "br5")  # br4 belonged to era I: flipped
    warehouse(g, 0, "wh11")
    set_goods(g, 0, copper=1)
    upgrade(g, 0, "[objective]")
    act(g, labels(g)[0])
    assert (pp(g, 0), goods(g, 0)["coins"]) == (10, 1)  # br5 only


def test_gta_r156_wh12_any_track_for_every_knowledge_move():
    g = fresh()
    warehouse(g, 0, "wh12")
    run(g, 'emit tile_action(who=0, code="k_research")')
    assert labels(g) == ["research", "resources", "income"]
    act(g, "income")
    assert knowledge(g, 0, "income") == 1 and knowledge(g, 0, "research") == 0
    run(g, 'emit tile_action(who=1, code="k_research")')  # without the tile: research
    assert done(g) and knowledge(g, 1, "research") == 1


def test_gta_r158_wh14_upgrade_paid_with_any_resource():
    g = fresh()
    warehouse(g, 0, "wh14")
    set_goods(g, 0, marble=1, copper=1)
    upgrade(g, 0, "[mahout]")  # needs gold: marble or copper will do
    assert prompt(g) == "Pay the upgrade with which resource?" and labels(g) == ["marble", "copper"]
    act(g, "copper")
    act(g, "Mahout: knowledge")
    act(g, "yellow")
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 0, "gold": 0}
    assert slot_colours(g, 0)["mh_k"] == "yellow"
    set_goods(g, 1, marble=1, copper=1)
    upgrade(g, 1, "[mahout]")  # without the tile: no mahout upgrade
    assert done(g) and goods(g, 1)["marble"] == 1


def test_gta_r159_wh15_single_free_teleport_then_flipped():
    g = fresh()
    w = warehouse(g, 0, "wh15")
    set_var(g, "tax_icons", 2, 0)
    put_elephant(g, 0, "north")
    assert capacity(g, 0) == 6
    run(g, "emit elephant_move(who=0, step=1)")
    act(g, "teleport: flip the warehouse tile")
    act(g, "west")  # 3 steps over the marker, free
    assert elephant(g, 0) == "west" and pp(g, 0) == 10 and goods(g, 0)["coins"] == 0
    assert g.state["cards"][w]["flipped"]
    assert capacity(g, 0) == 8  # the back: 4 spaces
    assert var(g, "tax_icons", 0) == 2  # its tax icons stay
    run(g, "emit elephant_move(who=0, step=1)")
    assert not any(l.startswith("teleport") for l in labels(g))
    for s in range(3):
        set_counter(g, "coins", s, 2)
    run(g, "emit era_end")  # the board still shows 2 icons
    finish(g)
    assert counter(g, "coins", 0) == 1


def test_gta_r159_wh15_teleport_to_its_own_district_still_flips_the_tile():
    # "放在任意區劃中" (put it in any district): its own district too; the flip turns the 2-space tile
    # into the 4-space back (placeholder spaces), which can be worth a teleport in place
    g = fresh()
    w = warehouse(g, 0, "wh15")
    put_elephant(g, 0, "east")
    before = capacity(g, 0)
    run(g, "emit elephant_move(who=0, step=1)")
    act(g, "teleport: flip the warehouse tile")
    assert labels(g) == ["north", "east", "south", "west"]
    act(g, "east")
    assert done(g) and elephant(g, 0) == "east" and g.state["cards"][w]["flipped"]
    assert capacity(g, 0) == before - g.program.types["wh15"]["spaces"] + 4


def test_gta_r157_wh13_exchange_once_in_own_turn():
    g = fresh()
    warehouse(g, 0, "wh13")
    set_goods(g, 0, copper=2, gold=1)
    put_elephant(g, 0, "west")
    place_tiles(g, "east", ["dt_y2", "dt_b1", "dt_g2"])
    set_ring(g, {"n2": ["white"]})
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    act(g, "Exchange copper")
    assert labels(g) == ["copper for marble", "copper for gold", "gold for copper"]
    act(g, "copper for marble")
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 1, "gold": 1}
    assert not any(l.startswith("Exchange") for l in labels(g))  # once per turn
    act(g, "Blue tile 1")
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 2, "gold": 1}


@pytest.mark.parametrize(
    "choice,expect",
    [
        ("copper for gold", {"copper": 0, "gold": 1, "marble": 1}),
        ("marble for copper", {"copper": 2, "gold": 0, "marble": 0}),
    ],
)
def test_gta_r157_wh13_exchange_directions(choice, expect):
    g = fresh()
    warehouse(g, 0, "wh13")
    set_goods(g, 0, copper=1, marble=1)
    run(g, "emit exchange(who=0)")
    act(g, choice)
    assert goods(g, 0) == {"coins": 0, **expect}


def test_gta_r157_wh13_exchange_in_another_players_turn_while_following():
    g = fresh()
    warehouse(g, 2, "wh13")
    mh_i_to(g, 0, "yellow")
    mh_i_to(g, 2, "blue")
    mahout(g, 2, "mh_market", "green")
    set_goods(g, 2, copper=1)
    put_elephant(g, 1, "west")
    place_tiles(g, "east", ["dt_y1", "dt_b1", "dt_w1"])
    set_ring(g, {"n2": ["green"]})
    run(g, "emit player_turn(who=1)")
    act(g, "stay")
    act(g, "Yellow tile 1")
    act(g, "Follow")  # P3 follows green: market
    assert g.pending["seat"] == 2 and labels(g) == ["Exchange", "No"]
    act(g, "Exchange")
    act(g, "copper for gold")
    act(g, "sell gold")
    act(g, "stop trading")
    assert goods(g, 2)["gold"] == 0 and goods(g, 2)["coins"] == 1
    assert var(g, "exchanged", 2)


def test_gta_r157_wh13_not_offered_twice_in_a_turn():
    g = fresh()
    warehouse(g, 2, "wh13")
    set_var(g, "active", 1)
    set_var(g, "act_district", "east")
    set_var(g, "exchanged", True, 2)
    set_goods(g, 2, copper=1)
    mahout_do(g, 2, "mh_coin_pp")
    assert done(g) and goods(g, 2) == {"coins": 1, "marble": 0, "copper": 1, "gold": 0}


# ------------------------------------------------------------------ bridge tiles (GTA-R160 .. R167)
def objective_upgrade(g, s):
    set_counter(g, "copper", s, counter(g, "copper", s) + 1)
    upgrade(g, s, "[objective]")
    act(g, labels(g)[0])


def trade(g, s):
    """One market action of seat s with one purchase of marble."""
    set_counter(g, "coins", s, counter(g, "coins", s) + 1)
    run(g, f"emit market_action(who={s})")
    act(g, "buy marble for 1")


def test_gta_r160_only_the_current_eras_bridge():
    g = fresh()
    bridge(g, "br6", "br4", "br5")
    objective_upgrade(g, 0)  # br4 / br5 are not current yet
    assert pp(g, 0) == 10 and goods(g, 0)["coins"] == 0
    set_var(g, "era", 2)
    objective_upgrade(g, 0)
    assert pp(g, 0) == 11 and goods(g, 0)["coins"] == 0


def test_gta_r160_once_per_qualifying_event():
    g = fresh()
    bridge(g, "br4", "br5", "br6")
    objective_upgrade(g, 1)
    objective_upgrade(g, 1)
    assert pp(g, 1) == 12


def test_gta_r160_era_end_moves_to_the_next_bridge():
    g = fresh()
    bridge(g, "br6", "br4", "br5")
    for s in range(3):
        set_counter(g, "coins", s, 1)
    run(g, "emit era_end")
    finish(g)
    assert g.state["cards"][card(g, "br6")]["z"] == "box"  # flipped: out of play
    assert pp(g, 0) == 10
    objective_upgrade(g, 0)  # era II: br4 is current
    assert pp(g, 0) == 11


def test_gta_r161_setup_placements_trigger_no_bridge():
    g = ready(3)  # seed 1: era I bridge is br4 (upgrade)
    assert g.program.types[g.state["cards"][var(g, "era_bridges")[0]]["t"]]["condition"] == "upgrade"
    assert all(len(zone(g, "objective_slots", s)) == 1 for s in range(3))
    assert [pp(g, s) for s in range(3)] == [5, 5, 5]


def test_gta_r161_reward_granted_upgrade_counts():
    g = fresh()
    bridge(g, "br5", "br4", "br6")
    set_knowledge(g, 0, "research", 4)
    move_up(g, 0, "research")  # free upgrade reward
    act(g, "objective")
    act(g, labels(g)[0])
    assert goods(g, 0)["coins"] == 1


def test_gta_r161_follow_action_counts():
    g = fresh()
    bridge(g, "br6", "br4", "br5")
    mh_i_to(g, 0, "yellow")
    mh_i_to(g, 2, "blue")
    mahout(g, 2, "mh_market", "green")
    set_goods(g, 2, coins=1)
    put_elephant(g, 1, "west")
    place_tiles(g, "east", ["dt_y1", "dt_b1", "dt_w1"])
    set_ring(g, {"n2": ["green"]})
    run(g, "emit player_turn(who=1)")
    act(g, "stay")
    act(g, "Yellow tile 1")
    act(g, "Follow")
    act(g, "buy marble for 1")
    assert pp(g, 2) == 11  # br6 for the follower
    assert pp(g, 1) == 11  # 1 PP for being followed


def test_gta_r161_two_player_round_end_activation_counts():
    g = fresh(players=2)
    bridge(g, "br6", "br4", "br5")
    set_var(g, "spare_workers", ["green", "green", "green", "green"])
    mahout(g, 0, "mh_market", "green")
    mh_i_to(g, 0, "yellow")
    set_goods(g, 0, coins=1)
    run(g, "emit round_end")
    act(g, "Follow")
    act(g, "buy marble for 1")
    assert pp(g, 0) == 11 and pp(g, 1) == 10


def test_gta_r162_br1_full_pickup_gives_any_resource():
    g = fresh()
    bridge(g, "br1", "br4", "br5")
    set_ring(g, {"e1": ["blue"] * 4})
    run(g, "emit sow(who=0)")
    assert prompt(g) == "Gain which resource?"
    act(g, "gold")
    finish(g)
    assert goods(g, 0)["gold"] == 1
    set_ring(g, {"e1": ["blue"] * 3})  # 3 workers: no reward
    run(g, "emit sow(who=0)")
    finish(g)
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 1}


def test_gta_r163_br2_full_pickup_gives_one_pp():
    g = fresh()
    bridge(g, "br2", "br4", "br5")
    set_ring(g, {"e1": ["blue"] * 4, "w2": ["white"] * 3})
    run(g, "emit sow(who=0)")
    act(g, "East 1")
    finish(g)
    assert pp(g, 0) == 11
    run(g, "emit sow(who=1)")
    act(g, "West 2")
    finish(g)
    assert pp(g, 1) == 10


def test_gta_r164_br3_each_donation_gives_one_coin():
    g = fresh()
    bridge(g, "br3", "br4", "br5")
    set_goods(g, 0, marble=2)
    for x in ("a1", "a2"):
        donate(g, 0, "north")
        act(g, x)
    assert goods(g, 0) == {"coins": 2, "marble": 0, "copper": 0, "gold": 0}


def test_gta_r165_br4_each_upgrade_gives_one_pp():
    g = fresh()
    bridge(g, "br4", "br5", "br6")
    objective_upgrade(g, 0)
    display(g, "wh07")
    set_goods(g, 0, marble=1)
    upgrade(g, 0, "[warehouse]")
    assert pp(g, 0) == 12


def test_gta_r166_br5_each_upgrade_gives_one_coin():
    g = fresh()
    bridge(g, "br5", "br4", "br6")
    set_goods(g, 0, gold=1)
    upgrade(g, 0, "[mahout]")
    act(g, "Mahout: market")
    act(g, "green")
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 0, "gold": 0} and pp(g, 0) == 10


def test_gta_r167_br6_market_action_with_a_trade():
    g = fresh()
    bridge(g, "br6", "br4", "br5")
    set_goods(g, 0, coins=2, gold=1)
    run(g, "emit market_action(who=0)")
    act(g, "buy marble for 1")
    act(g, "sell gold")
    act(g, "stop trading")
    assert pp(g, 0) == 11  # one market action, 1 PP
    set_goods(g, 1, coins=2)
    run(g, "emit market_action(who=1)")
    act(g, "stop trading")  # no trade: not a market action
    assert pp(g, 1) == 10


# ------------------------------------------------------------------ worked examples
def test_gta_x6_supporting_pp():
    g = fresh()
    fill(g, "south", 1, "a1")  # grey
    fill(g, "south", 2, "a2")  # pink
    markers(g, 0, 1)
    set_goods(g, 0, marble=1, copper=1)
    donate(g, 0, "south")
    act(g, "b1")
    assert owners(g, "south")["b1"] == 0
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}
    assert [pp(g, s) for s in range(3)] == [12, 11, 11]
    markers(g, 0, 1)
    set_goods(g, 0, copper=1, gold=1)
    run(g, "emit donate(who=0)")
    assert not g.pending and owners(g, "south")["c1"] is None  # c1 still illegal: b2 empty


def test_gta_x10_upgrade_with_full_elephant():
    g = fresh()
    markers(g, 0, 6)
    set_goods(g, 0, marble=1)
    set_var(g, "tax_icons", 3, 0)
    display(g, "wh08", "wh07")
    before = capacity(g, 0)
    upgrade(g, 0, "[warehouse]")
    act(g, "Warehouse: tax -1")
    assert goods(g, 0)["marble"] == 0
    assert var(g, "tax_icons", 0) == 5
    assert counter(g, "on_elephant", 0) == 6 and counter(g, "in_market", 0) == 6
    assert capacity(g, 0) == before + 3
