"""Praga Caput Regni: Upgrade, Build wall, edge links and corner marks with the covering rule, Build
building (PCR-R61 .. PCR-R84, PCR-R139; worked examples PCR-X5, PCR-X6, PCR-X8, PCR-X9, PCR-X17).

Every tile used here is put where the test needs it (rows, action boards, city); its printed data (cost,
reward, edges, corners) is read from the loaded program where a number matters, so the tests hold when
the placeholder component data changes, as long as the chosen tiles keep the property the test names
(checked by ``need``)."""

from __future__ import annotations

import pytest
from pr_support import (
    act,
    card,
    clear,
    counter,
    done,
    evaluate,
    goods,
    hex_put,
    labels,
    place_tile_at,
    plain,
    prompt,
    put,
    ready,
    run,
    set_counter,
    set_goods,
    set_track,
    set_var,
    stair,
    stations_of,
    track,
    var,
    vp,
    zone,
)

ROWS = {
    "upgrade": ("up_row", "up_special"),
    "wall": ("wall_row", "wall_special"),
    "building": ("bld_row", "bld_special"),
}
RING = {"2,0", "2,-1", "2,-2", "1,-2", "0,-2", "-1,-1", "-2,0", "-2,1", "-2,2", "-1,2", "0,2", "1,1"}
ACTION_HEX = {
    "gold_mine": "1,0",
    "quarry": "0,1",
    "kings_road": "-1,1",
    "building": "-1,0",
    "wall": "0,-1",
    "upgrade": "1,-1",
}


# ------------------------------------------------------------------ helpers of this file
def calm(players):
    """``plain`` game whose seats have taken their property bonuses (no side rewards from holding 6 gold
    or stone) and whose quarry and gold-mine cubes are on their start spaces."""
    g = plain(ready(players))
    for s in range(players):
        set_var(g, "props", [True, True, True], s)
        set_track(g, s, "quarry", 3)
        set_track(g, s, "gold_mine", 4)
    return g


def data(g, type_id):
    return g.program.types[type_id]


def need(cond, why):
    """A precondition on the (placeholder) tile data a test relies on."""
    assert cond, f"test setup: {why}"


def printed_at(lst, rot, board_k):
    """What a tile printed with ``lst`` shows at board edge/corner ``board_k`` when turned ``rot``."""
    return lst[(board_k - rot) % 6]


def set_row(g, kind, *type_ids, special=None):
    """Make ``type_ids`` the normal tiles of a hex row (and ``special`` its special tile)."""
    row, sp = ROWS[kind]
    clear(g, row, to="hex_box")
    clear(g, sp, to="hex_box")
    for t in type_ids:
        put(g, t, row)
    if special:
        put(g, special, sp)


def names(g, zone_name, seat=None):
    return [g.state["cards"][c]["t"] for c in zone(g, zone_name, seat)]


def top(g, board, cell):
    c = evaluate(g, f'hex_top("{board}", "{cell}")')
    return None if c is None else g.state["cards"][c]["t"]


def stack(g, board, cell):
    return [g.state["cards"][c]["t"] for c in evaluate(g, f'hex_stack("{board}", "{cell}")')]


def keep_tech(g):
    """Answer a technology draw (a book reached a mark) with its first tile."""
    while g.pending and prompt(g) == "Keep which technology?":
        act(g, labels(g)[0])


def upgrade(g, s, type_id, rot):
    """Seat s performs Upgrade with ``type_id`` (alone in the row), turned ``rot`` steps."""
    set_row(g, "upgrade", type_id)
    run(g, f'emit perform(who={s}, action="upgrade", source="tile")')
    assert prompt(g) == "Turn the upgrade tile: how many steps clockwise?"
    act(g, str(rot))
    keep_tech(g)


def wall(g, s, type_id, cell, rot):
    """Seat s performs Build wall with ``type_id`` (alone in the row) on ring ``cell``, turned ``rot``."""
    set_row(g, "wall", type_id)
    run(g, f'emit perform(who={s}, action="wall", source="tile")')
    assert prompt(g) == "Build the wall on which hex of your ring?", (prompt(g), labels(g))
    act(g, cell)
    act(g, str(rot))
    keep_tech(g)


def building(g, s, type_id, cell, rot=0):
    """Seat s performs Build building with ``type_id`` (alone in the row) on city ``cell``."""
    set_row(g, "building", type_id)
    run(g, f'emit perform(who={s}, action="building", source="tile")')
    assert prompt(g) == "Build on which hex of the city?", (prompt(g), labels(g))
    act(g, cell)
    act(g, str(rot))
    keep_tech(g)


def zero(g, s=0):
    """Reset the goods and VP of seat s (to measure what one step gives)."""
    set_goods(g, s)
    set_counter(g, "vp", s, 0)
    set_counter(g, "hw_moves", s, 0)
    set_counter(g, "cath_moves", s, 0)


def city(g, cell, key):
    return evaluate(g, f'hex_info("city", "{cell}")')[key]


def city_cells(g, kind):
    return [c for c in evaluate(g, 'hex_cells("city")') if city(g, c, "kind") == kind]


def empty(g, board, cell):
    return evaluate(g, f'hex_empty("{board}", "{cell}")')


def fill_city(g, cells, type_id="b2_18"):
    """Occupy city cells with a stand-in tile (no rewards), so they are no longer legal hexes."""
    c = card(g, type_id)
    for cell in cells:
        run(
            g,
            f'do hex_place("city", "{cell}", {c}, 0, [none, none, none, none, none, none], '
            f"[none, none, none, none, none, none])",
        )


def set_var_turn(g):
    """A new turn of the same seat: no claims, no tops yet (as turn_begins leaves them)."""
    g.state["vars"]["claims"] = []
    g.state["vars"]["tops"] = []


# ------------------------------------------------------------------ Upgrade (PCR-R61 .. R67)
def test_pcr_r61_upgrade_tile_goes_on_the_hex_of_its_own_action_in_the_chosen_rotation():
    g = calm(2)
    t = data(g, "u1_03")
    need(t["action"] == "quarry" and not t["special"], "u1_03 is a normal quarry upgrade")
    set_row(g, "upgrade", "u1_03", "u1_05", "u1_06")
    run(g, 'emit perform(who=0, action="upgrade", source="tile")')
    assert prompt(g) == "Take which upgrade tile?"
    assert sorted(labels(g)) == sorted(data(g, x)["name"] for x in ("u1_03", "u1_05", "u1_06"))
    act(g, data(g, "u1_03")["name"])
    # any of the six rotations, each with what it would link (issue 30)
    assert [x.split(" (")[0] for x in labels(g)] == ["0", "1", "2", "3", "4", "5"] and g.pending["keys"] == [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    act(g, "2")
    assert done(g)
    assert top(g, "action_0", ACTION_HEX["quarry"]) == "u1_03"  # the quarry hex, not the upgrade hex
    assert empty(g, "action_0", ACTION_HEX["upgrade"])
    assert evaluate(g, 'hex_rotation("action_0", "0,1")') == 2
    for k in range(6):
        assert evaluate(g, f'hex_edge("action_0", "0,1", {k})') == printed_at(t["edges"], 2, k)
    assert "u1_03" in names(g, "upgrades", 0)
    assert "u1_03" not in names(g, "up_row") and len(zone(g, "up_row")) == 3  # refilled at once


@pytest.mark.parametrize("type_id,steps", [("u1_06", 1), ("u2_05", 2)])
def test_pcr_r62_upgrade_advances_university_by_the_tile_era(type_id, steps):
    g = calm(2)
    need(data(g, type_id)["era"] == steps, f"{type_id} is an era-{steps} tile")
    set_track(g, 0, "university", 1)
    upgrade(g, 0, type_id, 0)
    assert track(g, 0, "university") == 1 + steps


def test_pcr_r63_re_upgrade_stacks_the_new_tile_and_only_its_reward_applies_later():
    g = calm(2)
    old, new = data(g, "u1_03"), data(g, "u2_03")
    need(old["action"] == new["action"] == "quarry", "two quarry upgrades")
    need(old["reward"] == ["gold"] and new["reward"] == ["gold", "gold"], "rewards 1 gold and 2 gold")
    hex_put(g, "action_0", ACTION_HEX["quarry"], "u1_03", owner_zone="upgrades", seat=0)
    upgrade(g, 0, "u2_03", 0)
    assert stack(g, "action_0", ACTION_HEX["quarry"]) == ["u1_03", "u2_03"]
    assert {"u1_03", "u2_03"} <= set(names(g, "upgrades", 0))  # the covered tile stays owned
    # a later turn: Manage Quarry pays the top tile's reward only
    set_var_turn(g)
    zero(g)
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Produce")
    run(g, "emit claim_reward(who=0)")
    assert done(g)
    assert counter(g, "gold", 0) == 2


@pytest.mark.parametrize("sources", [("tile", "extra"), ("tile", "tech")])
def test_pcr_r64_each_performance_of_an_upgraded_action_gives_the_reward_once(sources):
    g = calm(2)
    need(data(g, "u1_03")["reward"] == ["gold"], "u1_03 pays 1 gold")
    hex_put(g, "action_0", ACTION_HEX["quarry"], "u1_03", owner_zone="upgrades", seat=0)
    for src in sources:
        run(g, f'emit perform(who=0, action="quarry", source="{src}")')
        act(g, "Produce")
    assert counter(g, "gold", 0) == 0  # nothing until claimed
    assert var(g, "claims") == ["quarry", "quarry"]
    run(g, "emit claim_reward(who=0)")
    run(g, "emit claim_reward(who=0)")
    assert done(g)
    assert counter(g, "gold", 0) == 2  # twice for two performances
    assert var(g, "claims") == []


def test_pcr_r64_unclaimed_reward_is_taken_at_end_of_turn_and_unupgraded_action_gives_none():
    g = calm(2)
    need(data(g, "u1_03")["reward"] == ["gold"], "u1_03 pays 1 gold")
    hex_put(g, "action_0", ACTION_HEX["quarry"], "u1_03", owner_zone="upgrades", seat=0)
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Produce")
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')  # no upgrade on the mines
    act(g, "Produce")
    before = counter(g, "gold", 0)
    run(g, "emit end_of_turn(who=0)")
    assert done(g)
    assert counter(g, "gold", 0) == before + 1  # u1_03 once, nothing for the mines
    assert var(g, "claims") == []


def test_pcr_r65_action_performed_before_its_upgrade_takes_the_new_reward():
    g = calm(2)
    t = data(g, "u1_03")
    need(t["action"] == "quarry" and t["reward"] == ["gold"], "u1_03: quarry, 1 gold")
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Produce")
    upgrade(g, 0, "u1_03", 0)  # the extra action, say
    run(g, "emit claim_reward(who=0)")  # the claim of the earlier quarry
    assert done(g)
    assert counter(g, "gold", 0) == 1


def test_pcr_r66_after_a_re_upgrade_each_performance_takes_the_old_or_the_new_reward():
    g = calm(2)
    need(
        data(g, "u1_03")["reward"] == ["gold"] and data(g, "u2_03")["reward"] == ["gold", "gold"],
        "old pays 1 gold, new pays 2 gold",
    )
    hex_put(g, "action_0", ACTION_HEX["quarry"], "u1_03", owner_zone="upgrades", seat=0)
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Produce")
    upgrade(g, 0, "u2_03", 0)  # replaces the quarry upgrade
    run(g, 'emit perform(who=0, action="quarry", source="extra")')
    act(g, "Produce")
    run(g, "emit claim_reward(who=0)")  # first quarry performance
    assert sorted(labels(g)) == sorted([data(g, "u1_03")["name"], data(g, "u2_03")["name"]])
    act(g, data(g, "u1_03")["name"])
    assert counter(g, "gold", 0) == 1
    run(g, "emit claim_reward(who=0)")  # the Upgrade performance: nothing
    assert done(g) and counter(g, "gold", 0) == 1
    run(g, "emit claim_reward(who=0)")  # second quarry: a choice again
    assert sorted(labels(g)) == sorted([data(g, "u1_03")["name"], data(g, "u2_03")["name"]])
    act(g, data(g, "u2_03")["name"])
    assert done(g) and counter(g, "gold", 0) == 3 and var(g, "claims") == []


@pytest.mark.parametrize("rot", range(6))
def test_pcr_r67_placement_alone_gives_nothing_whatever_the_rotation(rot):
    g = calm(2)
    t = data(g, "u1_07")
    need(any(t["edges"]) and any(t["corners"]), "u1_07 has edge icons and red corners")
    set_track(g, 0, "university", 0)
    upgrade(g, 0, "u1_07", rot)
    assert goods(g, 0) == {k: 0 for k in goods(g, 0)}
    assert vp(g, 0) == 0 and track(g, 0, "technology") == 0
    assert track(g, 0, "university") == 1  # only the era step


# ------------------------------------------------------------------ Build wall (PCR-R68 .. R71, R139)
def test_pcr_r68_wall_cost_is_paid_and_unpayable_walls_are_not_offered():
    g = calm(2)
    cheap, mid, dear, golden = (data(g, t) for t in ("w1_02", "w1_03", "w1_09", "w1_12"))
    need(
        cheap["stone"] == 1
        and mid["stone"] == 2
        and dear["stone"] == 4
        and golden["gold"] == 1
        and golden["stone"] <= 2
        and cheap["gold"] == mid["gold"] == dear["gold"] == 0,
        "wall costs",
    )
    set_row(g, "wall", "w1_02", "w1_03", "w1_09", special=None)
    put(g, "w1_12", "wall_row")
    set_goods(g, 0, stone=2)  # no gold: w1_12 unpayable, w1_09 too
    run(g, 'emit perform(who=0, action="wall", source="tile")')
    assert sorted(labels(g)) == sorted([cheap["name"], mid["name"]])
    act(g, mid["name"])
    act(g, "2,0")
    act(g, "0")
    assert counter(g, "stone", 0) == 0
    assert top(g, "action_0", "2,0") == "w1_03"
    assert "w1_03" in names(g, "walls", 0)


def test_pcr_r68_wall_with_a_gold_cost_takes_the_gold_too():
    g = calm(2)
    t = data(g, "w1_12")
    need(t["gold"] == 1 and t["stone"] == 1, "w1_12 costs 1 stone + 1 gold")
    set_goods(g, 0, stone=3, gold=2)
    wall(g, 0, "w1_12", "2,0", 3)
    assert counter(g, "stone", 0) == 2 and counter(g, "gold", 0) == 1


def test_pcr_r69_wall_gives_its_green_window_reward():
    g = calm(2)
    t = data(g, "w1_05")
    need(t["reward"] == ["silver_window", "vp2"], "w1_05 rewards a silver window and 2 VP")
    set_goods(g, 0, stone=t["stone"])
    wall(g, 0, "w1_05", "-2,0", 0)
    assert counter(g, "silver", 0) == 1 and vp(g, 0) == 2


def test_pcr_r70_walls_only_on_empty_ring_hexes_never_stacked():
    g = calm(2)
    hex_put(g, "action_0", "2,0", "w1_02", owner_zone="walls", seat=0)
    hex_put(g, "action_0", "-1,2", "w1_06", owner_zone="walls", seat=0)
    set_goods(g, 0, stone=9)
    set_row(g, "wall", "w1_03")
    run(g, 'emit perform(who=0, action="wall", source="tile")')
    assert prompt(g) == "Build the wall on which hex of your ring?"
    assert set(labels(g)) == RING - {"2,0", "-1,2"}
    assert len(labels(g)) == 10
    act(g, "1,1")
    act(g, "4")
    assert top(g, "action_0", "1,1") == "w1_03"
    assert evaluate(g, 'hex_rotation("action_0", "1,1")') == 4
    assert stack(g, "action_0", "2,0") == ["w1_02"]


def test_pcr_r70_the_ring_is_the_twelve_hexes_around_the_action_board():
    g = calm(2)
    ring = set(evaluate(g, "ring_free(0)"))
    assert ring == RING
    assert all(evaluate(g, f'hex_distance("0,0", "{c}")') == 2 for c in ring)


def test_pcr_r139_no_wall_action_with_a_full_ring():
    g = calm(2)
    set_goods(g, 0, stone=9, gold=9)
    set_row(g, "wall", "w1_02", "w1_03")
    at2 = data(g, "at_2")["a"]
    need("wall" in at2, "action tile 2 side A shows Build wall")
    st = next(s for s, t in stations_of(g).items() if t == "at_2")
    opts = [o[2] for o in evaluate(g, "tile_options(0)") if o[1] == st]
    assert "wall" in opts  # control: room on the ring
    walls = [t for t in g.program.type_instances if t.startswith("w2_")][:12]
    for cell, t in zip(sorted(RING), walls):
        hex_put(g, "action_0", cell, t, owner_zone="walls", seat=0)
    assert not evaluate(g, 'can_perform(0, "wall", 9)')
    opts = [o[2] for o in evaluate(g, "tile_options(0)") if o[1] == st]
    assert "wall" not in opts and len(opts) == 1  # the tile's other action only


def test_pcr_r139_no_wall_action_without_a_payable_wall():
    g = calm(2)
    set_row(g, "wall", "w1_09", "w1_11")
    need(data(g, "w1_09")["stone"] == 4 and data(g, "w1_11")["stone"] == 5, "walls of 4 and 5 stone")
    set_goods(g, 0, stone=3, gold=9)
    assert not evaluate(g, 'can_perform(0, "wall", 9)')
    set_counter(g, "stone", 0, 4)
    assert evaluate(g, 'can_perform(0, "wall", 9)')


def test_pcr_r71_hunger_wall_icon_gives_one_sideways_move():
    g = calm(2)
    need(data(g, "w1_01")["hunger_wall"] and not data(g, "w1_02")["hunger_wall"], "w1_01 has the icon, w1_02 not")
    set_goods(g, 0, stone=2)
    before = stair(g, 0, "hunger_wall")
    wall(g, 0, "w1_02", "2,0", 0)
    assert counter(g, "hw_moves", 0) == 0
    wall(g, 0, "w1_01", "-2,0", 0)
    assert counter(g, "hw_moves", 0) == 1
    run(g, "emit resolve_moves(who=0)")
    assert stair(g, 0, "hunger_wall") == [before[0], before[1] + 1]
    assert counter(g, "hw_moves", 0) == 0


# ------------------------------------------------------------------ edge links and corners (PCR-R72 .. R76)
def _wall_hex_neighbour(g):
    """u1_07 (a wall upgrade) on the Wall hex, turned 0: its edge 0 (E) faces the Upgrade hex."""
    t = data(g, "u1_07")
    need(t["action"] == "wall" and t["edges"][0] == "vp2", "u1_07: wall upgrade with vp2 on edge 0")
    upgrade(g, 0, "u1_07", 0)
    zero(g)


def test_pcr_r72_meeting_edge_icons_pay_both_icons():
    g = calm(2)
    _wall_hex_neighbour(g)
    t = data(g, "u1_05")
    need(
        t["action"] == "upgrade" and t["edges"][4] == "silver_window" and t["edges"][3] == "book",
        "u1_05: upgrade upgrade, silver window on edge 4, book on edge 3",
    )
    need(printed_at(data(g, "u1_07")["corners"], 0, 0) is None, "no corner meeting")
    upgrade(g, 0, "u1_05", 5)  # silver window on board edge 3 (facing u1_07's vp2), book toward the centre
    assert counter(g, "silver", 0) == 1 and vp(g, 0) == 2
    assert track(g, 0, "technology") == 0  # the book faced the centre hex
    assert counter(g, "red", 0) == 0


def test_pcr_r72_wall_meeting_an_upgrade_pays_both_icons():
    g = calm(2)
    _wall_hex_neighbour(g)  # u1_07's edge 5 (NE) faces ring hex 1,-2
    w = data(g, "w1_04")
    need(w["edges"][4] == "stone" and w["reward"] == ["vp2"] and w["stone"] == 2, "w1_04: stone on edge 4, 2 VP")
    set_goods(g, 0, stone=2)
    wall(g, 0, "w1_04", "1,-2", 4)  # printed edge 4 at board edge 2 (SW), toward the Wall hex
    assert counter(g, "stone", 0) == 1  # paid 2, the stone icon gives 1
    assert vp(g, 0) == 2 + 2  # reward + u1_07's vp2 icon


@pytest.mark.parametrize("rot", [1, 2])
def test_pcr_r73_icon_meeting_a_blank_edge_or_an_empty_hex_gives_nothing(rot):
    g = calm(2)
    _wall_hex_neighbour(g)
    t = data(g, "u1_05")
    need(printed_at(t["edges"], rot, 3) is None, "u1_05 shows a blank edge toward u1_07")
    upgrade(g, 0, "u1_05", rot)
    assert counter(g, "silver", 0) == 0 and vp(g, 0) == 0 and track(g, 0, "technology") == 0


def test_pcr_r73_the_cap_reminder_is_no_edge_icon():
    g = calm(2)
    tiles = {tid: t for tid, t in g.program.types.items() if t.get("family") in ("upgrade", "wall")}
    assert len(tiles) == 30 + 36
    for tid, t in tiles.items():
        assert "cap" not in t["edges"], tid
        if t["family"] == "upgrade":
            assert None in t["edges"], tid  # a blank edge carries the reminder


def test_pcr_r74_covering_tile_does_not_re_pay_what_paid_with_its_position():
    g = calm(2)
    # A (u1_07) on the Wall hex, B (u1_05) on the Upgrade hex: A-B pays (see PCR-R72)
    _wall_hex_neighbour(g)
    upgrade(g, 0, "u1_05", 5)
    assert vp(g, 0) == 2 and counter(g, "silver", 0) == 1
    zero(g)
    # C covers A with a vp2 icon facing B's silver window: nothing at all
    c = data(g, "u2_08")
    need(c["action"] == "wall" and printed_at(c["edges"], 2, 0) == "vp2", "u2_08 turned 2 shows vp2 east")
    upgrade(g, 0, "u2_08", 2)
    assert vp(g, 0) == 0 and counter(g, "silver", 0) == 0


def test_pcr_r74_covering_tile_pays_with_icons_that_never_paid_with_its_position():
    g = calm(2)
    # E (u1_05) on the Upgrade hex first, alone; A (u1_07) on the Wall hex shows a blank edge to E
    e = data(g, "u1_05")
    need(printed_at(e["edges"], 5, 3) == "silver_window", "u1_05 turned 5 shows a silver window west")
    upgrade(g, 0, "u1_05", 5)
    a = data(g, "u1_07")
    need(printed_at(a["edges"], 2, 0) is None, "u1_07 turned 2 is blank east")
    upgrade(g, 0, "u1_07", 2)
    zero(g)
    assert counter(g, "silver", 0) == 0
    # C covers A and shows vp2 to E's silver window: E never paid with the Wall hex, so it pays
    upgrade(g, 0, "u2_08", 2)
    assert vp(g, 0) == 2 and counter(g, "silver", 0) == 1


def test_pcr_x6_covering_example():
    """A-B paid; C covers A: C-B pays nothing; D covers B: C-D pays both icons."""
    g = calm(2)
    _wall_hex_neighbour(g)  # A = u1_07 on the Wall hex
    upgrade(g, 0, "u1_05", 5)  # B on the Upgrade hex: A-B pays vp2 + silver
    assert (vp(g, 0), counter(g, "silver", 0)) == (2, 1)
    zero(g)
    upgrade(g, 0, "u2_08", 2)  # C covers A
    assert (vp(g, 0), counter(g, "silver", 0)) == (0, 0)
    d = data(g, "u1_06")
    need(
        d["action"] == "upgrade" and printed_at(d["edges"], 0, 3) == "silver_window", "u1_06 shows a silver window west"
    )
    upgrade(g, 0, "u1_06", 0)  # D covers B: C-D pays both
    assert (vp(g, 0), counter(g, "silver", 0)) == (2, 1)
    assert stack(g, "action_0", ACTION_HEX["wall"]) == ["u1_07", "u2_08"]
    assert stack(g, "action_0", ACTION_HEX["upgrade"]) == ["u1_05", "u1_06"]


def _three_corners(g):
    """A (u2_08) on the Wall hex with a red mark at board corner 5; B (u1_05) on the Upgrade hex with one
    at board corner 3: the same vertex (shared with ring hex 1,-2, its corner 1)."""
    a, b = data(g, "u2_08"), data(g, "u1_05")
    need(printed_at(a["corners"], 0, 5) == "red" and printed_at(b["corners"], 0, 3) == "red", "red marks")
    assert sorted(map(tuple, evaluate(g, 'hex_vertex("action_0", "0,-1", 5)'))) == sorted(
        [("0,-1", 5), ("1,-2", 1), ("1,-1", 3)]
    )
    upgrade(g, 0, "u2_08", 0)
    assert counter(g, "red", 0) == 0  # alone: nothing
    upgrade(g, 0, "u1_05", 0)


def test_pcr_r75_red_corner_takes_one_token_per_other_mark_at_the_vertex():
    g = calm(2)
    _three_corners(g)
    assert counter(g, "red", 0) == 1  # B's mark meets A's: one token


def test_pcr_r107_t2_2_fires_on_red_tokens_from_a_corner_link():
    g = calm(2)
    set_var(g, "tech_turn", 2, 0)
    t = put(g, "t2_2", "techs", 0)
    g.state["cards"][t]["owner_seat"] = 0
    g.state["cards"][t]["since"] = 1
    base = g.copy()
    clear(base, "techs", 0, to="out")
    for h in (g, base):
        _three_corners(h)
    assert counter(g, "red", 0) == counter(base, "red", 0) == 1
    assert vp(g, 0) == vp(base, 0) + 1 and goods(g, 0)["stone"] == goods(base, 0)["stone"] + 1


def test_pcr_x9_third_corner_gets_two_red_tokens():
    g = calm(2)
    _three_corners(g)
    zero(g)
    w = data(g, "w1_03")
    need(printed_at(w["corners"], 5, 1) == "red" and w["stone"] == 2, "w1_03 turned 5: red at corner 1")
    need(printed_at(w["edges"], 5, 1) is None and printed_at(w["edges"], 5, 2) is None, "no edge link")
    set_goods(g, 0, stone=2)
    wall(g, 0, "w1_03", "1,-2", 5)
    assert counter(g, "red", 0) == 2
    assert vp(g, 0) == int(w["reward"][0][2:])  # the reward only, no edge link


def test_pcr_r74_covered_corner_pairing_is_not_paid_again():
    g = calm(2)
    _three_corners(g)  # A-B paid (1 token)
    zero(g)
    c = data(g, "u2_07")
    rot = next(r for r in range(6) if printed_at(c["corners"], r, 5) == "red" and printed_at(c["edges"], r, 0) is None)
    upgrade(g, 0, "u2_07", rot)  # C covers A with a red mark at the same vertex
    assert counter(g, "red", 0) == 0


def test_pcr_r76_blue_corners_count_other_buildings_and_printed_marks():
    g = calm(4)  # no pre-built tiles
    marks = evaluate(g, 'hex_printed_marks("city", "-1,5")')
    assert [2, "blue"] in marks  # the vertex shared with -2,6 (its corner 0)
    assert ["-2,6", 4] in evaluate(g, 'hex_vertex("city", "-1,5", 2)')
    first, second = data(g, "b1_01"), data(g, "b1_04")
    need(first["corners"][4] == "blue" and second["corners"][2] == "blue", "blue marks")
    set_goods(g, 0, gold=9)
    building(g, 0, "b1_01", "-2,6", rot=0)  # blue at its top corner: meets the printed mark
    assert counter(g, "blue", 0) == 1
    set_counter(g, "blue", 0, 0)
    set_counter(g, "gold", 0, 9)
    building(g, 0, "b1_04", "-1,5", rot=0)  # blue at corner 2: printed mark + the first building
    assert counter(g, "blue", 0) == 2


def test_pcr_r76_building_mark_without_a_neighbouring_mark_gives_nothing():
    g = calm(4)
    set_goods(g, 0, gold=9)
    need(data(g, "b1_04")["corners"][2] == "blue", "b1_04 blue at corner 2")
    building(g, 0, "b1_04", "-1,5", rot=1)  # blue at corner 3, away from the printed mark
    assert counter(g, "blue", 0) == 0


# ------------------------------------------------------------------ Build building (PCR-R77 .. R84)
def test_pcr_r77_only_buildings_payable_with_some_legal_hex_are_offered():
    g = calm(4)
    fill_city(g, city_cells(g, "build_new"))  # only old-town hexes (surcharge >= 1) remain
    min_extra = min(city(g, c, "surcharge") for c in city_cells(g, "build_old"))
    need(min_extra == 1, "the cheapest old-town hex costs +1 gold")
    a, b, c = data(g, "b1_01"), data(g, "b1_04"), data(g, "b1_06")
    need(
        (a["gold"], b["gold"], c["gold"]) == (1, 2, 3) and a["stone"] == b["stone"] == c["stone"] == 0,
        "costs 1, 2, 3 gold",
    )
    set_row(g, "building", "b1_01", "b1_04", "b1_06")
    set_goods(g, 0, gold=3)
    run(g, 'emit perform(who=0, action="building", source="tile")')
    assert sorted(labels(g)) == sorted([a["name"], b["name"]])  # 3 + 1 is more than 3 gold
    set_goods(g, 0, gold=1)
    assert not evaluate(g, 'can_perform(0, "building", 1)')  # 1 + 1 > 1: no building at all
    set_goods(g, 0, gold=2)
    assert evaluate(g, 'can_perform(0, "building", 2)')


def test_pcr_r77_building_stone_cost_must_be_payable():
    g = calm(4)
    t = data(g, "b1_11")
    need(t["gold"] == 1 and t["stone"] == 1, "b1_11 costs 1 gold + 1 stone")
    set_row(g, "building", "b1_11")
    set_goods(g, 0, gold=9)
    assert not evaluate(g, 'can_perform(0, "building", 9)')
    set_goods(g, 0, gold=9, stone=1)
    building(g, 0, "b1_11", "0,3")
    assert counter(g, "stone", 0) == 0 and counter(g, "gold", 0) == 8


def test_pcr_r78_building_reward_comes_on_payment_then_the_tile_is_placed_turned():
    g = calm(4)
    t = data(g, "b1_08")
    need(t["reward"] == ["silver_window"] and t["stone"] == 0, "b1_08 rewards a silver window")
    set_row(g, "building", "b1_08")
    set_goods(g, 0, gold=9)
    run(g, 'emit perform(who=0, action="building", source="tile")')
    assert prompt(g) == "Build on which hex of the city?"
    assert counter(g, "silver", 0) == 1 and counter(g, "gold", 0) == 9 - t["gold"]  # already paid and gained
    act(g, "0,3")
    assert [x.split(" (")[0] for x in labels(g)] == ["0", "1", "2", "3", "4", "5"]
    act(g, "3")
    assert top(g, "city", "0,3") == "b1_08"
    assert evaluate(g, 'hex_rotation("city", "0,3")') == 3
    assert "b1_08" in names(g, "city_tiles") and "b1_08" not in names(g, "bld_row")
    assert len(zone(g, "bld_row")) == 3  # refilled


def test_pcr_r79_legal_hexes_are_the_empty_town_hexes():
    g = calm(2)  # 2 players: some hexes are pre-built
    set_row(g, "building", "b1_01")
    set_goods(g, 0, gold=9)
    run(g, 'emit perform(who=0, action="building", source="tile")')
    offered = {x.split(" (")[0] for x in labels(g)}  # (each with its surcharge and VP, issue 30)
    cells = evaluate(g, 'hex_cells("city")')
    legal = {c for c in cells if city(g, c, "kind") in ("build_old", "build_new") and empty(g, "city", c)}
    assert offered == legal
    prebuilt = {c for c in cells if not empty(g, "city", c)}
    assert prebuilt and not prebuilt & offered
    for kind in ("plaza", "kings_road", "river", "walled", "outskirts"):
        assert not set(city_cells(g, kind)) & offered, kind


def test_pcr_r80_old_town_hex_costs_its_surcharge_and_scores_its_vp():
    g = calm(4)
    t = data(g, "b1_07")
    need(t["gold"] == 3 and t["stone"] == 0 and t["reward"] == ["stone"] and t["cube_space"], "b1_07")
    olds = city_cells(g, "build_old")
    one = next(c for c in olds if city(g, c, "surcharge") == 1)
    two = next(c for c in olds if city(g, c, "surcharge") == 2)
    set_row(g, "building", "b1_07")
    set_goods(g, 0, gold=4)  # 3 + 1 payable, 3 + 2 not
    run(g, 'emit perform(who=0, action="building", source="tile")')
    shown = [x.split(" (")[0] for x in labels(g)]
    assert one in shown and two not in shown
    assert f"{one} (pay 1 gold more, +{city(g, one, 'vp')} VP)" in labels(g)  # its price and score (issue 30)
    assert set(shown) - set(olds)  # new-town hexes stay legal
    act(g, one)
    act(g, "0")
    assert counter(g, "gold", 0) == 0
    assert vp(g, 0) == city(g, one, "vp") and city(g, one, "vp") > 0


def test_pcr_r81_new_town_hex_has_no_surcharge_and_no_vp():
    g = calm(4)
    t = data(g, "b1_07")
    need(t["gold"] == 3 and t["reward"] == ["stone"], "b1_07 costs 3 gold, rewards 1 stone")
    new = city_cells(g, "build_new")[0]
    set_goods(g, 0, gold=3)
    building(g, 0, "b1_07", new)
    assert counter(g, "gold", 0) == 0 and vp(g, 0) == 0 and counter(g, "stone", 0) == 1


def test_pcr_r82_cathedral_icon_gives_one_cathedral_sideways_move():
    g = calm(4)
    need(data(g, "b1_07")["cathedral"] and not data(g, "b1_06")["cathedral"], "b1_07 cathedral, b1_06 not")
    set_goods(g, 0, gold=9)
    building(g, 0, "b1_06", "0,3")
    assert counter(g, "cath_moves", 0) == 0
    building(g, 0, "b1_07", "-1,3")
    assert counter(g, "cath_moves", 0) == 1
    before = stair(g, 0, "cathedral")
    run(g, "emit resolve_moves(who=0)")
    assert stair(g, 0, "cathedral")[1] >= before[1] + 1


def test_pcr_r83_cube_space_takes_a_free_cube_as_a_plaza_claim():
    g = calm(4)
    need(data(g, "b1_07")["cube_space"], "b1_07 has a cube space")
    set_goods(g, 0, gold=9)
    set_counter(g, "cubes", 0, 2)
    building(g, 0, "b1_07", "0,3")
    assert counter(g, "cubes", 0) == 1
    assert g.state["cards"][card(g, "b1_07")]["cube"] == 0
    assert evaluate(g, 'plaza_cubes(hex_info("city", "0,3")["plaza"], 0)') == 1


def test_pcr_r83_without_a_free_cube_the_building_is_built_without_claim():
    g = calm(4)
    set_goods(g, 0, gold=9)
    set_counter(g, "cubes", 0, 0)
    building(g, 0, "b1_07", "0,3")
    assert top(g, "city", "0,3") == "b1_07"
    assert g.state["cards"][card(g, "b1_07")]["cube"] is None
    assert counter(g, "cubes", 0) == 0


def test_pcr_r84_crown_building_scores_one_vp_per_building_around_its_plaza():
    g = calm(4)
    t = data(g, "b1_03")
    need(t["crown"] and not t["cube_space"] and t["reward"] == ["stone"], "b1_03: crown, reward 1 stone")
    p = city(g, "3,4", "plaza")
    around = [c for c in city_cells(g, "build_new") if city(g, c, "plaza") == p]
    need(len(around) >= 3, "a plaza with 3 building hexes")
    hex_put(g, "city", around[0], "b2_04")  # two buildings already there (any owner)
    hex_put(g, "city", around[1], "b2_05")
    set_goods(g, 0, gold=9)
    set_counter(g, "cubes", 0, 2)
    building(g, 0, "b1_03", around[2])
    assert vp(g, 0) == 3  # the two and itself
    assert counter(g, "cubes", 0) == 2  # no cube space: no cube


def test_pcr_r84_crown_counts_pre_built_tiles():
    g = calm(2)
    pre = [c for c in evaluate(g, 'hex_cells("city")') if not empty(g, "city", c)]
    assert pre  # a 2-player game has pre-built hexes
    p = city(g, pre[0], "plaza")
    hexes_p = [
        c
        for c in evaluate(g, 'hex_cells("city")')
        if city(g, c, "kind") in ("build_old", "build_new") and city(g, c, "plaza") == p
    ]
    free = [c for c in hexes_p if empty(g, "city", c)]
    built = len(hexes_p) - len(free)
    need(len(free) >= 2, "room to build without completing the plaza")
    set_goods(g, 0, gold=9)
    building(g, 0, "b1_03", free[0])
    assert vp(g, 0) == built + 1 + city(g, free[0], "vp")


# ------------------------------------------------------------------ worked examples
def test_pcr_x5_first_upgrade():
    """No upgrades; U-X1 (era II, Upgrade, 2 stone) placed on the Upgrade hex: University +2, no links,
    the use reward of this very Upgrade action taken retroactively: +2 stone."""
    g = calm(2)
    ux1 = data(g, "u2_05")
    need(ux1["era"] == 2 and ux1["action"] == "upgrade" and ux1["reward"] == ["stone", "stone"], "U-X1")
    set_track(g, 0, "university", 0)
    upgrade(g, 0, "u2_05", 0)
    assert top(g, "action_0", ACTION_HEX["upgrade"]) == "u2_05"
    assert track(g, 0, "university") == 2
    assert goods(g, 0) == {k: 0 for k in goods(g, 0)} and vp(g, 0) == 0  # nothing from edges or corners
    run(g, "emit claim_reward(who=0)")
    assert done(g)
    assert counter(g, "stone", 0) == 2


def test_pcr_x8_upgrade_then_bought_wall():
    """U-X2 on the Upgrade hex, 4 stone, no windows. Take action tile 1 for Upgrade (+1 gold window from
    U-X2); put U-X3 on the Wall hex (University +2; silver window meets book: +1 silver window, technology
    +1); pay gold + silver window for an extra Build wall (+1 VP from U-X3); take W-X1 for 4 stone (+6 VP),
    its red corner meets U-X3's (+1 red token). Then no further action."""
    g = calm(2)
    ux2, ux3, wx1 = data(g, "u2_06"), data(g, "u2_07"), data(g, "w2_06")
    need(ux2["action"] == "upgrade" and ux2["reward"] == ["gold_window"], "U-X2")
    need(ux3["era"] == 2 and ux3["action"] == "wall" and ux3["reward"] == ["vp1"], "U-X3")
    need(wx1["stone"] == 4 and wx1["gold"] == 0 and wx1["reward"] == ["vp6"], "W-X1")
    need("upgrade" in data(g, "at_1")["a"], "action tile 1 (side A) shows Upgrade")
    # geometry: U-X2 turned 3 shows its book west (toward the Wall hex); U-X3 turned 0 shows its silver
    # window east; W-X1 on ring hex -1,-1 turned 2 puts its red mark on U-X3's upper-left corner
    need(printed_at(ux2["edges"], 3, 3) == "book" and printed_at(ux3["edges"], 0, 0) == "silver_window", "edges")
    need(printed_at(ux3["corners"], 0, 3) == "red" and printed_at(wx1["corners"], 2, 5) == "red", "corners")
    hex_put(g, "action_0", ACTION_HEX["upgrade"], "u2_06", rotation=3, owner_zone="upgrades", seat=0)
    set_goods(g, 0, stone=4, gold=1)  # the gold keeps the action window open at the end
    set_track(g, 0, "university", 0)
    set_track(g, 0, "technology", 0)
    set_row(g, "upgrade", "u2_07")
    set_row(g, "wall", "w2_06")
    place_tile_at(g, "at_1", "s8")  # a blue station: +2 VP, bonus buy an egg for 1 stone
    blue_vp = evaluate(g, 'station_vp("s8")')
    run(g, "turn 0")
    act(g, "Take an action tile")
    act(g, "s8: upgrade")
    act(g, "0")  # U-X3 turned 0 on the Wall hex
    keep_tech(g)
    assert track(g, 0, "university") == 2
    assert track(g, 0, "technology") == 1 and counter(g, "silver", 0) == 1
    assert counter(g, "goldwin", 0) == 0
    act(g, "Take an upgrade reward")  # U-X2's reward for this Upgrade
    assert counter(g, "goldwin", 0) == 1
    act(g, "Buy an extra action")
    act(g, "wall")
    act(g, "-1,-1")
    act(g, "2")
    assert counter(g, "stone", 0) == 0 and counter(g, "silver", 0) == 0 and counter(g, "goldwin", 0) == 0
    assert counter(g, "red", 0) == 1
    act(g, "Take an upgrade reward")  # U-X3's reward for the bought Build wall
    assert vp(g, 0) == blue_vp + 6 + 1
    assert labels(g) == ["Pay 1 gold or 1 stone to clear two tiles of a row", "End turn"]
    set_counter(g, "goldwin", 0, 2)  # even with windows again, no second bought action:
    act(g, "Pay 1 gold or 1 stone")  # (spend the gold so that the window is offered anew)
    act(g, "upgrade")
    while g.pending and prompt(g) != "Choose an action":
        act(g, labels(g)[0])
    assert done(g)  # only End turn was left: the turn ended by itself


def test_pcr_x17_t4_1_discounts_tile_and_surcharge_together():
    """T4-1: a 3-gold building on an old-town hex with +2 surcharge costs 3 gold in all; a 1-gold
    building on a new-town hex costs nothing."""
    g = calm(4)
    t, cheap = data(g, "b1_07"), data(g, "b1_01")
    need(t["gold"] == 3 and t["stone"] == 0 and cheap["gold"] == 1 and cheap["stone"] == 0, "3- and 1-gold tiles")
    two = next(c for c in city_cells(g, "build_old") if city(g, c, "surcharge") == 2)
    new = city_cells(g, "build_new")[0]
    put(g, "t4_1", "techs", 0)
    set_row(g, "building", "b1_07")
    set_goods(g, 0, gold=3)
    run(g, f"emit use_tech(who=0, tile={card(g, 't4_1')})")
    # 3 + 2 - 2 = 3 gold: payable; the tile took 1 after the discount, the hex shows the 2 still to pay
    assert f"{two} (pay 2 gold more, +{city(g, two, 'vp')} VP)" in labels(g)
    act(g, two)
    act(g, "0")
    assert top(g, "city", two) == "b1_07" and counter(g, "gold", 0) == 0
    # a second T4-1 use (the effect again): a 1-gold tile on a new-town hex costs 0
    set_row(g, "building", "b1_01")
    run(g, f"emit use_tech(who=0, tile={card(g, 't4_1')})")
    act(g, new)
    act(g, "0")
    assert top(g, "city", new) == "b1_01" and counter(g, "gold", 0) == 0
