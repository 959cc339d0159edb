"""Praga Caput Regni: taking action tiles, wheel bonuses, the number and order of actions, the hex-tile
rows, Manage Mines / Manage Quarry, resources, property bonuses and seals (PCR-R36 .. PCR-R60; worked
examples PCR-X1 .. PCR-X4).

Most numbers of the crane, the tracks and the tiles are placeholders: the tests put the tiles they need
where they need them, read station costs, slot bonuses and track bonuses from the loaded game, and set
the property-bonus rewards themselves.
"""

from __future__ import annotations

from pr_support import (
    act,
    card,
    counter,
    crane,
    done,
    evaluate,
    finish,
    goods,
    labels,
    move_card,
    plain,
    prompt,
    put,
    ready,
    run,
    set_counter,
    set_goods,
    set_track,
    set_var,
    track,
    var,
    vp,
    zone,
)


# ------------------------------------------------------------------ helpers of this file
def name(g, c):
    return g.program.types[g.state["cards"][c]["t"]]["name"]


def names(g, zone_name, seat=None):
    return [name(g, c) for c in zone(g, zone_name, seat)]


def cstate(g, c):
    return g.state["cards"][c]


def stations(g):
    return evaluate(g, "wheel_stations('crane')")


def station(g, zone_name, paying=False):
    """The first station of a crane zone ('red', 'green', 'blue'); with ``paying`` one whose cost/VP is > 0."""
    for st in stations(g):
        info = evaluate(g, f"wheel_station_info('crane', '{st}')")
        if info["zone"] == zone_name and (not paying or info.get("cost", 0) > 0 or info.get("vp", 0) > 0):
            return st
    raise AssertionError(zone_name)


def cost_of(g, st):
    return evaluate(g, f"station_cost('{st}')")


def vp_of_station(g, st):
    return evaluate(g, f"station_vp('{st}')")


def slot_with(g, bonus):
    for sl in evaluate(g, "wheel_slots('crane')"):
        info = evaluate(g, f"wheel_slot_info('crane', '{sl}')")
        if info.get("notch") and info.get("bonus") == bonus:
            return sl
    raise AssertionError(bonus)


def only_tile(g, tile, st, bonus):
    """Empty the crane, turn the wheel so that a notch with ``bonus`` is over station ``st``, and put
    action tile ``tile`` in it. Returns the tile's card."""
    w = crane(g)
    slots = evaluate(g, "wheel_slots('crane')")
    k = slots.index(slot_with(g, bonus))
    w["r"] = (stations(g).index(st) - k) % len(slots)
    for sl in w["pieces"]:
        w["pieces"][sl] = None
    c = card(g, tile)
    w["pieces"][slots[k]] = c
    assert evaluate(g, f"wheel_piece_at('crane', '{st}')") == c
    assert evaluate(g, f"slot_bonus('{st}')") == bonus
    return c


def tile_with(g, action, other=None):
    """An action tile whose side A shows ``action`` (and ``other``, if given)."""
    for i in range(1, 7):
        a = g.program.types[f"at_{i}"]["a"]
        if action in a and (other is None or other in a):
            return f"at_{i}"
    raise AssertionError(action)


def rewards(g, six_gold=("egg",), six_stone=("red_token",), nine=("blue_token",)):
    """Set the three property-bonus rewards (placeholders in the game) to icons easy to observe."""
    g.state["constants"]["property_rewards"] = [list(six_gold), list(six_stone), list(nine)]


def steps(g, name_):
    return g.program.boards["tracks"]["tracks"][name_]["steps"]


def step_of(g, name_, key, value):
    """The track space whose step data has ``key: value`` (e.g. the production-token space)."""
    return next(i for i, s in enumerate(steps(g, name_)) if s.get(key) == value)


def prod_icons(g, name_, pos):
    """The production bonuses of every level up to track space ``pos`` (from the game's data)."""
    return [s["prod"] for s in steps(g, name_)[: pos + 1] if "prod" in s]


def vp_in(icons):
    return sum(int(i[2:]) for i in icons if i.startswith("vp"))


def token_on(g, s, type_id, track_name):
    c = put(g, type_id, "production", s)
    cstate(g, c)["on_track"] = track_name
    cstate(g, c)["owner_seat"] = s
    return c


def row_names(g, row):
    return names(g, {"upgrade": "up_row", "wall": "wall_row", "building": "bld_row"}[row])


def special_name(g, row):
    return names(g, {"upgrade": "up_special", "wall": "wall_special", "building": "bld_special"}[row])[0]


def simple_building(g, special):
    """An era-I cube-type building (cathedral icon, cube space) whose reward needs no decision."""
    ok = {"gold", "stone", "silver_window", "gold_window", "egg", "cap", "red_token", "blue_token"}
    for tid, t in g.program.types.items():
        if (
            t.get("family") == "building"
            and t["era"] == 1
            and t["special"] == special
            and t["cube_space"]
            and t["stone"] == 0
            and all(i in ok or i.startswith("vp") for i in t["reward"])
        ):
            return tid
    raise AssertionError("no such building")


def set_building_row(g, normal, special):
    """The building row shows ``normal`` (and nothing else) and the special space ``special``."""
    for z in ("bld_row", "bld_special"):
        for c in zone(g, z):
            move_card(g.rt, c, "out")
    n = put(g, normal, "bld_row")
    s = put(g, special, "bld_special")
    return n, s


def offered(g, label):
    """Whether the pending decision offers an option labelled ``label`` (card labels may carry their zone)."""
    return any(l == label or l.startswith(label + " (") for l in labels(g))


def window(g, seat=0):
    """Open the seat's action window (a fresh turn) and return its labels."""
    run(g, f"turn {seat}")
    return labels(g)


def seal(g, sid):
    return card(g, sid)


def game3(**goods_):
    g = plain(ready(3))
    set_goods(g, 0, **goods_)
    return g


# ------------------------------------------------------------------ taking an action tile (PCR-R36 .. R43)
def test_pcr_r36_the_tile_offers_both_actions_and_only_the_chosen_one_is_performed():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "silver_window")  # side A: upgrade / King's Road (exact)
    up_before = zone(g, "up_row")
    run(g, "emit take_tile(who=0)")
    assert prompt(g) == "Take which action tile, for which action?"
    assert sorted(l.split(",")[0] for l in labels(g)) == [f"{st}: kings road", f"{st}: upgrade"]
    act(g, f"{st}: kings_road")
    assert done(g)
    assert var(g, "kr_zone", 0) == 1  # King's Road performed
    assert zone(g, "upgrades", 0) == [] and zone(g, "up_row") == up_before  # the upgrade ignored
    assert var(g, "tile_action") == "kings_road"
    assert zone(g, "in_hand") == [card(g, "at_1")]


def test_pcr_r36_choosing_the_other_action_of_the_same_tile():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "silver_window")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: upgrade")
    assert prompt(g) == "Take which upgrade tile?"
    act(g, row_names(g, "upgrade")[0])
    act(g, "0")
    assert done(g)
    assert len(zone(g, "upgrades", 0)) == 1 and var(g, "kr_zone", 0) == 0


def test_pcr_r37_a_red_tile_costs_its_station_gold():
    g = plain(ready(3))
    st = station(g, "red", paying=True)
    cost = cost_of(g, st)
    assert cost > 0
    set_goods(g, 0, gold=cost + 1)
    only_tile(g, "at_1", st, "silver_window")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    assert done(g)
    assert counter(g, "gold", 0) == 1 and var(g, "kr_zone", 0) == 1


def test_pcr_r37_a_red_tile_that_cannot_be_paid_cannot_be_taken():
    g = plain(ready(3))
    red = station(g, "red", paying=True)
    set_goods(g, 0, gold=cost_of(g, red) - 1)
    only_tile(g, "at_1", red, "silver_window")
    green = station(g, "green")
    crane(g)["pieces"][evaluate(g, f"wheel_slot_at('crane', '{green}')")] = card(g, "at_2")
    opts = [o[1] for o in evaluate(g, "tile_options(0)")]
    assert red not in opts and green in opts


def test_pcr_r38_a_green_tile_costs_nothing_and_gives_no_vp():
    g = game3(gold=4)
    st = station(g, "green")
    assert evaluate(g, f"zone_of('{st}')") == "green"
    only_tile(g, "at_1", st, "silver_window")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    assert done(g)
    assert counter(g, "gold", 0) == 4 and vp(g, 0) == 0
    assert counter(g, "silver", 0) == 1  # the tile was taken (its slot bonus)


def test_pcr_r39_a_blue_tile_gives_its_station_vp():
    g = game3()
    st = station(g, "blue", paying=True)
    only_tile(g, "at_1", st, "silver_window")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    assert vp(g, 0) == vp_of_station(g, st) > 0


def test_pcr_r39_an_overflow_bonus_adds_to_the_blue_vp():
    g = game3()
    st = station(g, "blue", paying=True)
    c = only_tile(g, "at_1", st, "silver_window")
    cstate(g, c)["bonus"] = 10  # two overflows
    run(g, "emit take_tile(who=0)")
    assert f"{st}: kings road (+{vp_of_station(g, st) + 10} VP), bonus silver window" in labels(g)
    act(g, f"{st}: kings_road")
    assert vp(g, 0) == vp_of_station(g, st) + 10
    assert cstate(g, c)["bonus"] == 0  # the bonus leaves with the tile


def test_pcr_r39_an_overflow_bonus_is_paid_outside_blue_too():
    g = game3()
    st = station(g, "green")
    c = only_tile(g, "at_1", st, "silver_window")
    cstate(g, c)["bonus"] = 5
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    assert vp(g, 0) == 5 and cstate(g, c)["bonus"] == 0


def test_pcr_r40_the_slot_bonus_is_gained_with_the_tile():
    for bonus, counter_name in (("silver_window", "silver"), ("gold_window", "goldwin")):
        g = game3()
        st = station(g, "green")
        only_tile(g, "at_1", st, bonus)
        run(g, "emit take_tile(who=0)")
        act(g, f"{st}: kings_road")
        assert counter(g, counter_name, 0) == 1, bonus
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "cap")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    assert track(g, 0, "university") == 1


def test_pcr_r40_a_deferred_bonus_unused_at_the_end_of_the_turn_is_lost():
    g = game3(gold=3, stone=1)
    st = station(g, "green")
    only_tile(g, "at_1", st, "buy_egg_gold")
    window(g)
    act(g, "Take an action tile")
    act(g, f"{st}: kings_road")
    act(g, "Later")
    assert "Buy an egg (wheel bonus)" in labels(g)
    act(g, "End turn")
    run(g, "emit end_of_turn(who=0)")
    assert counter(g, "egg", 0) == 0
    assert "Buy an egg (wheel bonus)" not in window(g)  # the next turn: the bonus is gone
    assert counter(g, "gold", 0) == 3


def test_pcr_r41_buy_egg_pays_the_shown_resource_once():
    for bonus, res in (("buy_egg_gold", "gold"), ("buy_egg_stone", "stone")):
        g = game3(gold=3, stone=3)
        st = station(g, "green")
        only_tile(g, "at_1", st, bonus)
        window(g)
        act(g, "Take an action tile")
        act(g, f"{st}: kings_road")
        assert prompt(g) == "Use the wheel bonus now: buy an egg before King's Road?"
        act(g, "Later")
        act(g, "Buy an egg (wheel bonus)")
        assert counter(g, "egg", 0) == 1 and counter(g, res, 0) == 2, bonus
        assert counter(g, "stone" if res == "gold" else "gold", 0) == 3
        assert "Buy an egg (wheel bonus)" not in labels(g)  # once


def test_pcr_r41_buy_egg_is_not_offered_without_the_resource():
    g = game3(gold=0, stone=1)
    st = station(g, "green")
    only_tile(g, "at_1", st, "buy_egg_gold")
    window(g)
    act(g, "Take an action tile")
    act(g, f"{st}: kings_road")
    assert "Buy an egg (wheel bonus)" not in labels(g)
    assert "End turn" in labels(g)


def test_pcr_r41_the_egg_can_be_bought_before_the_tile_action_to_enter_zone_iv():
    """The bonus may be used at once: bought between taking the tile and its King's Road action, it
    pays the egg that zone IV needs (PCR-R94)."""
    g = game3(gold=1)
    set_var(g, "kr_zone", 3, 0)
    st = station(g, "green")
    only_tile(g, "at_1", st, "buy_egg_gold")
    assert "kings_road" in [o[2] for o in evaluate(g, "tile_options(0)")]
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    finish(g)  # the silver bridge tile and its plank
    assert var(g, "kr_zone", 0) == 4
    assert counter(g, "egg", 0) == 0 and var(g, "egg_offer") is None  # bought, then paid to enter


def test_pcr_r41_the_egg_bought_at_once_pays_a_street_zone_egg_effect():
    g = game3(gold=2)
    st = station(g, "green")
    only_tile(g, "at_1", st, "buy_egg_gold")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    act(g, "Buy an egg now")
    assert counter(g, "gold", 0) == 1 and counter(g, "egg", 0) == 1
    assert prompt(g) == "Zone I: pay 1 egg for a reward?"
    act(g, "Pay 1 egg: 1 gold window")
    assert done(g)
    assert counter(g, "egg", 0) == 0 and counter(g, "goldwin", 0) == 1 and var(g, "egg_offer") is None


def _egg_bonus_pending(g):
    """Seat 0 took a quarry/wall tile from a buy_egg_gold notch, produced, and left the egg unbought;
    its pawn waits before zone IV with no egg."""
    st = station(g, "green")
    only_tile(g, "at_2", st, "buy_egg_gold")  # wall / quarry
    set_var(g, "kr_zone", 3, 0)
    window(g)
    act(g, "Take an action tile")
    if prompt(g).startswith("Take which action tile"):
        act(g, f"{st}: quarry")
    act(g, "Gain 1 and add one")
    assert var(g, "egg_offer") == ["gold", 1] and counter(g, "egg", 0) == 0


def test_pcr_r41_the_unused_egg_bonus_pays_a_bought_kings_road_action_into_zone_iv():
    """README, question 7: the buy-egg bonus is used "at any moment of the turn" (seed l. 95, 366) and
    counts for King's Road whatever grants the action, as it does for the tile's own action."""
    g = game3(gold=1, goldwin=2)
    _egg_bonus_pending(g)
    act(g, "Buy an extra action")  # paid with the 2 gold windows (the only way)
    assert "kings road" in labels(g)
    act(g, "kings_road")
    assert prompt(g) == "Keep which silver bridge tile?"
    assert var(g, "kr_zone", 0) == 4 and counter(g, "gold", 0) == 0 and var(g, "egg_offer") is None


def test_pcr_r41_the_unused_egg_bonus_pays_a_technology_kings_road_action_into_zone_iv():
    g = game3(gold=1)
    put(g, "t4_3", "techs", 0)  # T4-3: perform any one action
    _egg_bonus_pending(g)
    act(g, "Use a one-shot technology")
    assert prompt(g) == "Perform which action?" and "kings road" in labels(g)
    act(g, "kings_road")
    assert var(g, "kr_zone", 0) == 4 and counter(g, "gold", 0) == 0 and var(g, "egg_offer") is None


def test_pcr_r41_without_the_price_of_the_egg_bonus_no_kings_road_into_zone_iv():
    g = game3(gold=0, goldwin=2)
    _egg_bonus_pending(g)
    set_counter(g, "gold", 0, 0)
    act(g, "Buy an extra action")  # paid with the 2 gold windows (the only way)
    assert "kings road" not in labels(g)


def test_pcr_r42_the_special_tile_is_offered_and_taking_it_gives_no_vp():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "special_or_vp1")
    special = special_name(g, "upgrade")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: upgrade")
    assert offered(g, special)
    act(g, special)
    act(g, "0")
    assert done(g)
    assert vp(g, 0) == 0
    assert names(g, "upgrades", 0) == [special]


def test_pcr_r42_a_normal_tile_with_the_special_bonus_scores_1_vp():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "special_or_vp1")
    normal = row_names(g, "upgrade")[0]
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: upgrade")
    act(g, normal)
    act(g, "0")
    assert done(g)
    assert vp(g, 0) == 1


def test_pcr_r42_a_non_hex_action_with_the_special_bonus_scores_1_vp():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "special_or_vp1")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: kings_road")
    assert done(g)
    assert vp(g, 0) == 1 and var(g, "special_ok") is False


def _only_in(g, row, normals, special):
    """Row ``row`` ('up', 'wall', 'bld') shows the normal tiles ``normals`` and the special ``special``."""
    for z in (f"{row}_row", f"{row}_special"):
        for c in zone(g, z):
            move_card(g.rt, c, "out")
    for t in normals:
        put(g, t, f"{row}_row")
    if special:
        put(g, special, f"{row}_special")


def _special_and_plain_stations(g, tile):
    """Two green stations: ``tile`` over a special_or_vp1 notch (returned first), another action tile
    over a plain notch (returned second)."""
    sp = station(g, "green")
    only_tile(g, tile, sp, "special_or_vp1")
    w = crane(g)
    other = next(st for st in stations(g) if st != sp and evaluate(g, f"zone_of('{st}')") == "green")
    slot = evaluate(g, f"wheel_slot_at('crane', '{other}')")
    assert evaluate(g, f"slot_bonus('{other}')") != "special_or_vp1"
    w["pieces"][slot] = card(g, "at_6" if tile != "at_6" else "at_3")
    return sp, other


def test_pcr_d5_pcr_r42_building_payable_only_as_the_special_tile_is_offered_on_a_special_slot():
    """Seed l. 156-158: the special tile is taken with the slot's special-tile bonus; PCR-D5: a tile
    is offered for an action it makes possible. 3 gold pays only the special building (3 gold), not the
    normal one (5 gold): 'building' is offered from the special slot and not from a plain one."""
    g = game3(gold=3)
    _only_in(g, "bld", ["b1_10"], "b1_15")
    sp, other = _special_and_plain_stations(g, "at_3")
    opts = evaluate(g, "tile_options(0)")
    assert [sp, "building"] in [o[1:] for o in opts]
    assert [other, "building"] not in [o[1:] for o in opts]
    run(g, "emit take_tile(who=0)")
    act(g, f"{sp}: building")  # the one tile it can take: taken without asking
    finish(g)
    assert counter(g, "gold", 0) == 0 and card(g, "b1_15") in zone(g, "city_tiles")
    assert card(g, "b1_10") in zone(g, "bld_row") and var(g, "special_ok") is False


def test_pcr_d5_pcr_r42_upgrade_with_an_empty_normal_row_is_offered_on_a_special_slot():
    g = game3()
    _only_in(g, "up", [], "u1_12")
    sp, other = _special_and_plain_stations(g, "at_1")
    opts = [o[1:] for o in evaluate(g, "tile_options(0)")]
    assert [sp, "upgrade"] in opts and [other, "upgrade"] not in opts
    run(g, "emit take_tile(who=0)")
    act(g, f"{sp}: upgrade")  # the one tile it can take: taken without asking
    finish(g)
    assert card(g, "u1_12") in zone(g, "upgrades", 0)


def test_pcr_d5_pcr_r42_wall_payable_only_as_the_special_tile_is_offered_on_a_special_slot():
    g = game3(stone=3)
    _only_in(g, "wall", ["w1_10", "w1_11"], "w1_15")  # 4 and 5 stone; the special costs 3
    sp, other = _special_and_plain_stations(g, "at_2")
    opts = [o[1:] for o in evaluate(g, "tile_options(0)")]
    assert [sp, "wall"] in opts and [other, "wall"] not in opts
    run(g, "emit take_tile(who=0)")
    act(g, f"{sp}: wall")  # the one tile it can pay: taken without asking
    finish(g)
    assert card(g, "w1_15") in zone(g, "walls", 0) and counter(g, "stone", 0) == 0


def test_pcr_r43_no_special_tile_for_an_extra_action_bought_before_the_tile():
    g = game3(gold=5, goldwin=2)
    special = special_name(g, "upgrade")
    window(g)
    act(g, "Buy an extra action")
    act(g, "upgrade")
    assert prompt(g) == "Take which upgrade tile?"
    assert not offered(g, special) and len(labels(g)) == 3


def test_pcr_r43_no_special_tile_for_an_extra_action_after_a_special_bonus_tile():
    g = game3(gold=5, goldwin=2)
    st = station(g, "green")
    only_tile(g, "at_1", st, "special_or_vp1")
    special = special_name(g, "upgrade")
    window(g)
    act(g, "Take an action tile")
    act(g, f"{st}: kings_road")
    assert vp(g, 0) == 1  # the bonus became 1 VP
    act(g, "Buy an extra action")
    act(g, "upgrade")
    assert prompt(g) == "Take which upgrade tile?"
    assert not offered(g, special) and len(labels(g)) == 3


def test_pcr_r43_no_special_tile_for_a_technology_granted_action():
    g = game3(gold=5)
    special = special_name(g, "upgrade")
    put(g, "t3_4", "techs", 0)  # T3-4: perform Upgrade, +3 VP
    window(g)
    act(g, "Use a one-shot technology")
    assert prompt(g) == "Take which upgrade tile?"
    assert not offered(g, special) and len(labels(g)) == 3


# ------------------------------------------------------------------ number and order of actions (PCR-R44 .. R46)
def test_pcr_r44_an_extra_action_for_two_gold_windows():
    g = game3(gold=2, goldwin=2)
    tiles = dict(crane(g)["pieces"])
    window(g)
    act(g, "Buy an extra action")
    assert prompt(g) == "Which extra action?"
    assert "gold mine" in labels(g) and "kings road" in labels(g)
    act(g, "kings_road")
    assert var(g, "kr_zone", 0) == 1
    assert counter(g, "goldwin", 0) == 0
    assert crane(g)["pieces"] == tiles and zone(g, "in_hand") == []  # no action tile used
    assert var(g, "extra_bought") is True


def test_pcr_r44_all_six_actions_can_be_bought():
    g = game3(gold=9, stone=9, goldwin=2)
    window(g)
    act(g, "Buy an extra action")
    assert sorted(labels(g)) == sorted(["gold mine", "quarry", "upgrade", "wall", "building", "kings road"])


def test_pcr_r44_one_gold_and_one_silver_window_also_pay():
    g = game3(gold=2, goldwin=1, silver=1)
    window(g)
    act(g, "Buy an extra action")
    act(g, "kings_road")
    assert counter(g, "goldwin", 0) == 0 and counter(g, "silver", 0) == 0
    assert var(g, "kr_zone", 0) == 1


def test_pcr_r44_with_two_gold_windows_and_a_silver_the_player_chooses_the_payment():
    g = game3(gold=2, goldwin=2, silver=1)
    window(g)
    act(g, "Buy an extra action")
    assert prompt(g) == "Pay the extra action with?"
    act(g, "1 gold window and 1 silver window")
    act(g, "kings_road")
    assert counter(g, "goldwin", 0) == 1 and counter(g, "silver", 0) == 0


def test_pcr_r44_silver_windows_alone_do_not_buy_an_action():
    g = game3(gold=2, silver=2)
    assert not any(l.startswith("Buy an extra action") for l in window(g))
    g = game3(gold=2, goldwin=1)
    assert not any(l.startswith("Buy an extra action") for l in window(g))


def test_pcr_r44_only_one_extra_action_per_turn():
    g = game3(gold=2, goldwin=4)
    window(g)
    act(g, "Buy an extra action")
    act(g, "kings_road")
    assert counter(g, "goldwin", 0) == 2
    assert not any(l.startswith("Buy an extra action") for l in labels(g))


def test_pcr_r45_a_technology_action_does_not_use_up_the_purchase():
    g = game3(gold=2, goldwin=2)
    put(g, "t4_3", "techs", 0)  # T4-3: perform any one action
    window(g)
    act(g, "Use a one-shot technology")
    act(g, "kings_road")
    assert var(g, "kr_zone", 0) == 1
    assert any(l.startswith("Buy an extra action") for l in labels(g))
    act(g, "Buy an extra action")
    act(g, "kings_road")
    assert var(g, "kr_zone", 0) == 2


def test_pcr_r45_tile_action_and_bought_action_are_all_without_technologies():
    g = game3(gold=2, goldwin=2)
    st = station(g, "green")
    only_tile(g, "at_1", st, "cap")
    window(g)
    act(g, "Take an action tile")
    act(g, f"{st}: kings_road")
    act(g, "Buy an extra action")
    act(g, "kings_road")
    assert var(g, "kr_zone", 0) == 2
    ls = labels(g)
    assert "End turn" in ls
    assert not any(l.startswith("Take an action tile") or l.startswith("Buy an extra action") for l in ls)


def test_pcr_r46_the_extra_action_before_the_tile():
    g = game3(gold=2, goldwin=2)
    st = station(g, "green")
    only_tile(g, "at_1", st, "silver_window")
    window(g)
    act(g, "Buy an extra action")
    act(g, "kings_road")
    assert var(g, "kr_zone", 0) == 1
    assert "End turn" not in labels(g)  # the tile is still to be taken
    act(g, "Take an action tile")
    act(g, f"{st}: kings_road")
    assert var(g, "kr_zone", 0) == 2
    assert "End turn" in labels(g)


# ------------------------------------------------------------------ hex-tile rows (PCR-R47 .. R49)
def test_pcr_r47_a_taken_tile_is_replaced_from_its_stack():
    g = game3()
    row = zone(g, "up_row")
    taken, top = row[1], zone(g, "up_stack_n1")[-1]
    run(g, 'emit perform(who=0, action="upgrade", source="tile")')
    act(g, name(g, taken))
    act(g, "0")
    assert done(g)
    assert taken not in zone(g, "up_row") and taken in zone(g, "upgrades", 0)
    assert sorted(zone(g, "up_row")) == sorted([row[0], row[2], top])
    assert top not in zone(g, "up_stack_n1")


def test_pcr_r47_a_taken_special_tile_is_replaced_from_the_special_stack():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "special_or_vp1")
    special, top = zone(g, "up_special")[0], zone(g, "up_stack_s1")[-1]
    normal = zone(g, "up_row")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: upgrade")
    act(g, name(g, special))
    act(g, "0")
    assert zone(g, "up_special") == [top]
    assert zone(g, "up_row") == normal


def test_pcr_r47_an_empty_stack_leaves_the_space_empty():
    g = game3(gold=9, stone=9)
    for c in zone(g, "wall_stack_n1"):
        move_card(g.rt, c, "out")
    row = zone(g, "wall_row")
    cheap = min(row, key=lambda c: g.program.types[cstate(g, c)["t"]]["stone"])
    run(g, 'emit perform(who=0, action="wall", source="tile")')
    act(g, name(g, cheap))
    finish(g)
    assert sorted(zone(g, "wall_row")) == sorted(c for c in row if c != cheap)


def test_pcr_r47_the_new_era_rows_are_refilled_from_era_ii_stacks():
    g = game3()
    set_var(g, "era", 2)
    for row, z in (("upgrade", "up_row"),):
        for c in zone(g, z):
            move_card(g.rt, c, "out")
        top = zone(g, "up_stack_n2")[-3:]
        run(g, f'emit refill(row="{row}")')
        assert sorted(zone(g, z)) == sorted(top)


def test_pcr_r48_the_special_tile_needs_the_special_bonus():
    g = game3()
    st = station(g, "green")
    only_tile(g, "at_1", st, "silver_window")
    special = special_name(g, "upgrade")
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: upgrade")
    assert prompt(g) == "Take which upgrade tile?"
    assert not offered(g, special) and all(offered(g, n) for n in row_names(g, "upgrade"))
    assert len(labels(g)) == 3


def test_pcr_r48_the_special_wall_and_building_need_the_bonus_too():
    g = game3(gold=9, stone=9)
    run(g, 'emit perform(who=0, action="wall", source="extra")')
    assert prompt(g) == "Take which wall tile?"
    assert not offered(g, special_name(g, "wall")) and labels(g)
    g = game3(gold=9, stone=9)
    run(g, 'emit perform(who=0, action="building", source="extra")')
    assert prompt(g) == "Take which building tile?"
    assert not offered(g, special_name(g, "building")) and labels(g)


def test_pcr_r49_pay_one_gold_to_send_two_tiles_to_the_bottom():
    g = game3(gold=1)
    a, b = zone(g, "bld_row")[:2]
    rest = zone(g, "bld_row")[2]
    top2 = zone(g, "bld_stack_n1")[-2:]
    ls = window(g)  # before any action tile is taken
    assert "Pay 1 gold or 1 stone to clear two tiles of a row" in ls
    act(g, "Pay 1 gold or 1 stone")
    act(g, "building")
    act(g, name(g, a))
    act(g, name(g, b))
    assert counter(g, "gold", 0) == 0
    assert sorted(zone(g, "bld_stack_n1")[:2]) == sorted([a, b])  # face down at the bottom
    assert sorted(zone(g, "bld_row")) == sorted([rest] + top2)  # refilled from the top
    assert "Pay 1 gold or 1 stone to clear two tiles of a row" not in labels(g)


def test_pcr_r49_pay_one_stone_for_a_normal_tile_and_the_special():
    g = game3(stone=1)
    normal = zone(g, "up_row")[0]
    special = zone(g, "up_special")[0]
    top_n, top_s = zone(g, "up_stack_n1")[-1], zone(g, "up_stack_s1")[-1]
    window(g)
    act(g, "Pay 1 gold or 1 stone")
    act(g, "upgrade")
    act(g, name(g, special))
    act(g, name(g, normal))
    assert counter(g, "stone", 0) == 0
    assert zone(g, "up_stack_s1")[0] == special and zone(g, "up_stack_n1")[0] == normal
    assert zone(g, "up_special") == [top_s] and top_n in zone(g, "up_row")


def test_pcr_r49_once_per_turn_even_with_resources_left():
    g = game3(gold=3, stone=3)
    window(g)
    act(g, "Pay 1 gold or 1 stone")
    act(g, "wall")
    act(g, "1 gold")
    act(g, labels(g)[0])
    act(g, labels(g)[0])
    assert counter(g, "gold", 0) == 2 and counter(g, "stone", 0) == 3
    assert not any(l.startswith("Pay 1 gold or 1 stone") for l in labels(g))


# ------------------------------------------------------------------ Manage Mines / Quarry (PCR-R50 .. R55)
def test_pcr_r50_manage_mines_gains_one_gold_and_a_mine():
    g = game3(gold=2)
    set_track(g, 0, "gold_mine", 4)
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Gain 1 and add one")
    assert done(g)
    assert counter(g, "gold", 0) == 3 and track(g, 0, "gold_mine") == 5
    assert evaluate(g, "mines(0)") == 4


def test_pcr_r51_produce_gold_is_mines_plus_level_bonuses_plus_token():
    g = game3()
    rewards(g)
    pos = step_of(g, "gold_mine", "reach", "token")  # a level with a VP bonus below it
    icons = prod_icons(g, "gold_mine", pos)
    assert icons and all(i.startswith("vp") for i in icons)
    set_track(g, 0, "gold_mine", pos)
    token_on(g, 0, "pt_1", "gold_mine")  # 2 VP
    token_on(g, 0, "pt_6", "quarry")  # another track's token: not gained
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Produce")
    assert done(g)
    assert counter(g, "gold", 0) == pos - 1  # mines = space - 1
    assert counter(g, "stone", 0) == 0
    assert vp(g, 0) == vp_in(icons) + 2


def test_pcr_r51_produce_at_the_start_gives_the_mines_only():
    g = game3()
    set_track(g, 0, "gold_mine", 4)  # start: 3 mines (exact)
    assert prod_icons(g, "gold_mine", 4) == []
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Produce")
    assert counter(g, "gold", 0) == 3 and vp(g, 0) == 0 and track(g, 0, "gold_mine") == 4


def test_pcr_r52_manage_quarry_gains_one_stone_and_a_quarry():
    g = game3(stone=2)
    set_track(g, 0, "quarry", 3)
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Gain 1 and add one")
    assert counter(g, "stone", 0) == 3 and track(g, 0, "quarry") == 4
    assert counter(g, "gold", 0) == 0


def test_pcr_r52_produce_stone_is_quarries_plus_bonuses_plus_token():
    g = game3()
    rewards(g)
    pos = step_of(g, "quarry", "reach", "seal")  # the end of the track
    icons = prod_icons(g, "quarry", pos)
    vp_icons = [i for i in icons if i.startswith("vp")]
    books = icons.count("book")
    assert set(icons) <= {"book", "vp1", "vp2"} and vp_icons
    set_track(g, 0, "quarry", pos)
    token_on(g, 0, "pt_1", "quarry")  # 2 VP
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Produce")
    finish(g)  # technology draws for the books
    assert counter(g, "stone", 0) == pos - 1
    assert track(g, 0, "technology") == books
    assert vp(g, 0) == vp_in(vp_icons) + 2
    assert counter(g, "gold", 0) == 0


def test_pcr_r53_reaching_the_token_space_takes_a_token_of_choice():
    g = game3()
    rewards(g)
    pos = step_of(g, "gold_mine", "reach", "token")
    set_track(g, 0, "gold_mine", pos - 1)
    river = len(zone(g, "river"))
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Gain 1 and add one")
    assert prompt(g) == "Take which production token?"
    assert len(labels(g)) == len(set(labels(g)))  # identical tokens stacked: one choice each
    act(g, "Production token: 2 gold")
    assert done(g)
    [tk] = zone(g, "production", 0)
    assert cstate(g, tk)["on_track"] == "gold_mine" and len(zone(g, "river")) == river - 1
    gold = counter(g, "gold", 0)
    run(g, 'emit produce(who=0, track="gold_mine")')  # every later production
    assert done(g)
    assert counter(g, "gold", 0) == min(9, gold + (pos - 1) + 2)


def test_pcr_r53_any_effect_reaching_the_space_gives_the_token():
    g = game3()
    pos = step_of(g, "quarry", "reach", "token")
    set_track(g, 0, "quarry", pos - 2)
    run(g, 'emit advance(who=0, track="quarry", n=3)')  # e.g. a silver bridge tile
    assert prompt(g) == "Take which production token?"
    act(g, "Production token: 2 VP")
    finish(g)
    assert track(g, 0, "quarry") == pos + 1
    [tk] = zone(g, "production", 0)
    assert cstate(g, tk)["on_track"] == "quarry"


def test_pcr_r53_no_token_when_the_river_is_empty():
    g = game3()
    for c in zone(g, "river"):
        move_card(g.rt, c, "out")
    pos = step_of(g, "gold_mine", "reach", "token")
    set_track(g, 0, "gold_mine", pos - 1)
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Gain 1 and add one")
    assert done(g)
    assert track(g, 0, "gold_mine") == pos and zone(g, "production", 0) == []


def test_pcr_r54_reaching_the_end_of_a_track_gives_a_seal_right():
    g = game3()
    end_g = len(steps(g, "gold_mine")) - 1
    end_q = len(steps(g, "quarry")) - 1
    assert step_of(g, "gold_mine", "reach", "seal") == end_g and step_of(g, "quarry", "reach", "seal") == end_q
    set_track(g, 0, "gold_mine", end_g - 1)
    set_track(g, 0, "quarry", end_q - 1)
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Gain 1 and add one")
    assert counter(g, "seal_rights", 0) == 1
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Gain 1 and add one")
    assert counter(g, "seal_rights", 0) == 2  # one right per track


def test_pcr_r55_at_the_end_option_1_still_gives_1_gold_but_no_move():
    g = game3(gold=2)
    end_g = len(steps(g, "gold_mine")) - 1
    set_track(g, 0, "gold_mine", end_g)
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Gain 1 and add one")
    assert done(g)
    assert counter(g, "gold", 0) == 3 and track(g, 0, "gold_mine") == end_g
    assert counter(g, "seal_rights", 0) == 0 and vp(g, 0) == 0  # nothing more, no second right


def test_pcr_r55_further_quarry_advances_are_lost():
    g = game3(stone=1)
    end_q = len(steps(g, "quarry")) - 1
    set_track(g, 0, "quarry", end_q - 1)
    run(g, 'emit advance(who=0, track="quarry", n=3)')
    assert done(g)
    assert track(g, 0, "quarry") == end_q and counter(g, "seal_rights", 0) == 1 and vp(g, 0) == 0
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Gain 1 and add one")
    assert counter(g, "stone", 0) == 2 and track(g, 0, "quarry") == end_q


# ------------------------------------------------------------------ resources, property bonuses, seals (PCR-R56 .. R60)
def test_pcr_r56_gold_and_stone_stop_at_9():
    g = game3(gold=8, stone=7)
    rewards(g)
    set_var(g, "props", [True, True, True], 0)
    run(g, 'emit gain_icons(who=0, icons=["gold", "gold", "gold", "stone", "stone", "stone"])')
    assert counter(g, "gold", 0) == 9 and counter(g, "stone", 0) == 9
    set_track(g, 0, "gold_mine", 6)
    run(g, 'emit produce(who=0, track="gold_mine")')
    assert counter(g, "gold", 0) == 9


def test_pcr_r57_first_time_6_gold_frees_the_cube_and_gives_the_reward():
    g = game3(gold=5)
    rewards(g, six_gold=("egg",))
    cubes = counter(g, "cubes", 0)
    run(g, 'emit gain_icon(who=0, icon="gold")')
    assert counter(g, "egg", 0) == 1 and counter(g, "cubes", 0) == cubes + 1
    assert var(g, "props", 0)[0] is True
    set_counter(g, "gold", 0, 0)  # dropping below does not re-arm it
    run(g, 'emit gain_icons(who=0, icons=["gold", "gold", "gold", "gold", "gold", "gold"])')
    assert counter(g, "egg", 0) == 1 and counter(g, "cubes", 0) == cubes + 1


def test_pcr_r57_first_time_6_stone_likewise():
    g = game3(stone=4)
    rewards(g, six_stone=("red_token",))
    cubes = counter(g, "cubes", 0)
    set_track(g, 0, "quarry", 3)  # 2 quarries
    run(g, 'emit produce(who=0, track="quarry")')
    assert counter(g, "stone", 0) == 6
    assert counter(g, "red", 0) == 1 and counter(g, "cubes", 0) == cubes + 1
    assert var(g, "props", 0) == [False, True, False]


def test_pcr_r57_holding_5_gold_gives_nothing():
    g = game3(gold=4)
    rewards(g)
    run(g, 'emit gain_icon(who=0, icon="gold")')
    assert counter(g, "egg", 0) == 0 and var(g, "props", 0) == [False, False, False]


def test_pcr_r58_first_time_9_gold_or_stone_once_per_game():
    g = game3(gold=8, stone=8)
    rewards(g, nine=("blue_token",))
    set_var(g, "props", [True, True, False], 0)
    cubes = counter(g, "cubes", 0)
    run(g, 'emit gain_icon(who=0, icon="stone")')
    assert counter(g, "blue", 0) == 1 and counter(g, "cubes", 0) == cubes + 1
    run(g, 'emit gain_icon(who=0, icon="gold")')  # 9 gold later: not again
    assert counter(g, "gold", 0) == 9 and counter(g, "blue", 0) == 1 and counter(g, "cubes", 0) == cubes + 1


def test_pcr_r58_reaching_9_at_once_gives_both_bonuses_even_when_capped():
    g = game3(gold=5)
    rewards(g, six_gold=("egg",), nine=("blue_token",))
    run(g, 'emit gain_icons(who=0, icons=["gold", "gold", "gold", "gold", "gold"])')
    assert counter(g, "gold", 0) == 9
    assert counter(g, "egg", 0) == 1 and counter(g, "blue", 0) == 1
    assert var(g, "props", 0) == [True, False, True]


def test_pcr_r59_claim_a_seal_paying_its_cost_and_marking_it_with_a_cube():
    g = plain(ready(3))
    s3 = g.program.types["s3"]
    set_goods(g, 0, gold=s3["gold"] + 1, stone=s3["stone"] + 1)
    set_counter(g, "seal_rights", 0, 1)
    set_counter(g, "cubes", 0, 1)
    window(g)
    act(g, "Claim a seal")
    assert prompt(g) == "Claim which seal?"
    act(g, s3["name"])
    assert cstate(g, seal(g, "s3"))["owner_seat"] == 0
    assert counter(g, "gold", 0) == 1 and counter(g, "stone", 0) == 1
    assert counter(g, "seal_rights", 0) == 0 and counter(g, "cubes", 0) == 0
    assert "Claim a seal" not in labels(g)


def test_pcr_r59_a_seal_has_one_owner():
    g = plain(ready(3))
    cstate(g, seal(g, "s1"))["owner_seat"] = 0
    set_goods(g, 1, gold=5, stone=5)
    set_counter(g, "seal_rights", 1, 1)
    window(g, 1)
    act(g, "Claim a seal")
    assert not offered(g, g.program.types["s1"]["name"])
    assert len(labels(g)) == 4


def test_pcr_r59_a_seal_needs_its_cost_and_a_right():
    g = plain(ready(3))
    set_goods(g, 0, gold=5, stone=5)
    assert "Claim a seal" not in window(g)  # no right
    g = plain(ready(3))
    seals = {tid: t for tid, t in g.program.types.items() if t.get("family") == "seal"}
    dear = max(seals.values(), key=lambda t: t["gold"] + t["stone"])
    gold, stone = dear["gold"], dear["stone"]
    assert gold + stone > 0
    if gold > 0:
        gold -= 1
    else:
        stone -= 1
    set_goods(g, 0, gold=gold, stone=stone)
    set_counter(g, "seal_rights", 0, 1)
    payable = sorted(t["name"] for t in seals.values() if t["gold"] <= gold and t["stone"] <= stone)
    run(g, "turn 0")
    offered_seals = []
    if "Claim a seal" in labels(g):
        act(g, "Claim a seal")
        offered_seals = sorted(labels(g))
    assert dear["name"] not in offered_seals
    assert offered_seals == payable


def test_pcr_r59_the_right_can_be_used_in_a_later_turn_without_a_cube():
    g = game3(gold=2, stone=2)
    end_g = len(steps(g, "gold_mine")) - 1
    set_track(g, 0, "gold_mine", end_g - 1)
    set_counter(g, "cubes", 0, 0)
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Gain 1 and add one")
    run(g, "emit end_of_turn(who=0)")
    assert counter(g, "seal_rights", 0) == 1
    window(g)
    act(g, "Claim a seal")
    act(g, g.program.types["s2"]["name"])
    assert cstate(g, seal(g, "s2"))["owner_seat"] == 0
    assert counter(g, "seal_rights", 0) == 0 and counter(g, "cubes", 0) == 0


def test_pcr_r60_a_seal_scores_in_final_scoring_step_5():
    g = plain(ready(3))
    cstate(g, seal(g, "s1"))["owner_seat"] = 0  # pay any gold, 2 VP each
    set_goods(g, 0, gold=5)
    set_goods(g, 1, gold=5)
    run(g, "emit final_scoring")
    assert prompt(g) == "Seal: pay how much gold (2 VP each)?" and g.pending["seat"] == 0
    act(g, "4")
    finish(g)
    assert var(g, "fs_abilities", 0) == 8 and counter(g, "gold", 0) == 1
    assert var(g, "fs_abilities", 1) == 0 and counter(g, "gold", 1) == 5  # no seal, nothing


def test_pcr_r60_the_pair_seal_pays_gold_and_stone_pairs():
    g = plain(ready(3))
    cstate(g, seal(g, "s3"))["owner_seat"] = 1
    set_goods(g, 1, gold=2, stone=6)
    run(g, "emit final_scoring")
    assert g.pending["seat"] == 1 and labels(g) == ["0", "1", "2"]
    act(g, "2")
    finish(g)
    assert var(g, "fs_abilities", 1) == 6 and goods(g, 1)["stone"] == 4 and goods(g, 1)["gold"] == 0


# ------------------------------------------------------------------ worked examples
def test_pcr_x1_gold_production():
    g = game3(gold=0)
    rewards(g, six_gold=("egg",))
    set_track(g, 0, "gold_mine", 7)  # 6 mines
    token_on(g, 0, "pt_1", "gold_mine")  # two_point
    cubes = counter(g, "cubes", 0)
    run(g, 'emit perform(who=0, action="gold_mine", source="tile")')
    act(g, "Produce")
    assert done(g)
    assert counter(g, "gold", 0) == 6
    assert vp(g, 0) == 2 + 2  # levels 4 and 6, then the token
    assert var(g, "props", 0)[0] is True and counter(g, "egg", 0) == 1 and counter(g, "cubes", 0) == cubes + 1


def test_pcr_x2_quarry_production():
    g = game3(stone=2)
    rewards(g, six_stone=("red_token",), nine=("blue_token",))
    set_track(g, 0, "quarry", 7)  # 6 quarries
    token_on(g, 0, "pt_6", "quarry")  # stone: 2 stone
    run(g, 'emit perform(who=0, action="quarry", source="tile")')
    act(g, "Produce")
    assert prompt(g) == "Keep which technology?"  # the book: technology +1 reaches mark I
    act(g, labels(g)[0])
    assert done(g)
    assert counter(g, "stone", 0) == 9  # 2 + 6 + 2, one lost
    assert track(g, 0, "technology") == 1 and len(zone(g, "techs", 0)) == 1
    assert vp(g, 0) == 1
    assert counter(g, "red", 0) == 1 and counter(g, "blue", 0) == 1  # property bonuses for 6 and 9
    assert var(g, "props", 0) == [False, True, True]


def test_pcr_x3_special_bonus_take_the_special_building_without_vp():
    g = game3(gold=9)
    st = station(g, "green")
    only_tile(g, tile_with(g, "building"), st, "special_or_vp1")
    normal, special = set_building_row(g, simple_building(g, False), simple_building(g, True))
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: building")
    assert offered(g, name(g, normal)) and offered(g, name(g, special)) and len(labels(g)) == 2
    act(g, name(g, special))
    act(g, "3,4")  # a new-town hex: no surcharge, no VP
    act(g, "0")
    assert done(g)
    t = g.program.types[cstate(g, special)["t"]]
    assert vp(g, 0) == vp_in(t["reward"])  # the tile's own reward, no +1
    assert counter(g, "gold", 0) == 9 - t["gold"]


def test_pcr_x3_special_bonus_take_a_normal_building_and_1_vp():
    g = game3(gold=9)
    st = station(g, "green")
    only_tile(g, tile_with(g, "building"), st, "special_or_vp1")
    normal, special = set_building_row(g, simple_building(g, False), simple_building(g, True))
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: building")
    act(g, name(g, normal))
    act(g, "3,4")
    act(g, "0")
    assert done(g)
    t = g.program.types[cstate(g, normal)["t"]]
    assert vp(g, 0) == vp_in(t["reward"]) + 1
    assert cstate(g, normal)["cell"] == "3,4"


def test_pcr_x4_deferred_wheel_bonus():
    g = game3(gold=0, stone=1)
    st = station(g, "green")
    only_tile(g, tile_with(g, "gold_mine"), st, "buy_egg_gold")
    set_track(g, 0, "gold_mine", 4)
    window(g)
    act(g, "Take an action tile")
    if prompt(g).startswith("Take which action tile"):  # (offered alone when the other action is not)
        act(g, f"{st}: gold_mine")
    act(g, "Produce")
    assert counter(g, "gold", 0) == 3
    act(g, "Buy an egg (wheel bonus)")
    assert counter(g, "gold", 0) == 2 and counter(g, "egg", 0) == 1
