"""Praga Caput Regni: setup, turn flow, the crane's end-of-turn procedure, eras and the end of the game
(PCR-R1 .. PCR-R35; worked examples PCR-X10, PCR-X19, PCR-X20, PCR-X22).

The crane geometry is the digest's placeholder (2.3); where a test names stations it uses the digest's
own numbers (setup positions, the worked examples, the derived schedule), and tiles are put on the
crane by the test itself.
"""

from __future__ import annotations

import re

from pr_support import (
    act,
    card,
    counter,
    crane,
    done,
    evaluate,
    goods,
    labels,
    move_card,
    place_tile_at,
    plain,
    prompt,
    ready,
    run,
    set_counter,
    set_goods,
    set_var,
    stair,
    stations_of,
    track,
    var,
    vp,
    zone,
)

TILES = ["at_1", "at_2", "at_3", "at_4", "at_5", "at_6"]
ROWS = {
    "upgrade": ("up_row", "up_special"),
    "wall": ("wall_row", "wall_special"),
    "building": ("bld_row", "bld_special"),
}
FAMILY = {"upgrade": "upgrade", "wall": "wall", "building": "building"}


# ------------------------------------------------------------------ helpers of this file
def t_of(g, c):
    return g.program.types[g.state["cards"][c]["t"]]


def types_in(g, z, seat=None):
    return [g.state["cards"][c]["t"] for c in zone(g, z, seat)]


def arrow(g):
    return evaluate(g, "arrow_at")


def cube(g):
    return evaluate(g, "cube_at")


def arrange(g, r, tiles):
    """Crane rotation ``r`` with the action tiles ``{station: tile id}``; the other tiles leave the crane."""
    w = crane(g)
    w["r"] = r
    for slot in w["pieces"]:
        w["pieces"][slot] = None
    for st, t in tiles.items():
        assert evaluate(g, f'is_notch("{st}")'), f"{st} has no notch at r={r}"
        place_tile_at(g, t, st)
    for t in TILES:
        if t not in tiles.values():
            move_card(g.rt, card(g, t), "tile_box")


def bonus(g, t):
    return g.state["cards"][card(g, t)]["bonus"]


def set_bonus(g, t, n):
    g.state["cards"][card(g, t)]["bonus"] = n


def end_turn(g, who=0):
    run(g, f"emit end_of_turn(who={who})")
    assert done(g), (prompt(g), labels(g))


def take(g, label):
    """In the action window: take the action tile (and action) whose option starts with ``label``."""
    if prompt(g) == "Choose an action":
        act(g, "Take an action tile")
    assert prompt(g) == "Take which action tile, for which action?"
    act(g, label)


def play_out(g, limit=5000):
    n = 0
    while not g.over:
        g.answer([] if g.pending["subset"] else 0)
        n += 1
        assert n < limit


def timeline(g):
    """Read a finished game's log: the seat of every turn end (in order), and after which turn end the
    platform cube moved (and to which space), era II began, the last space was reached, scoring ran."""
    seat, turns, drops, era, last, final = None, [], [], [], [], []
    for e in g.log:
        text = e.get("text", "")
        m = re.match(r"-- P(\d+) plays --", text)
        if e.get("turn") and m:
            seat = int(m.group(1)) - 1
        elif "takes the action tile on" in text:  # the solo dummy's turn
            seat = 1
        elif text.startswith("the crane turns"):
            turns.append(seat)
        elif "platform cube moves to space" in text:
            drops.append((len(turns), int(re.search(r"space (\d+)", text).group(1))))
        elif text.startswith("Era II begins"):
            era.append(len(turns))
        elif "reaches its last space" in text:
            last.append(len(turns))
        elif "final scoring" in text:
            final.append(len(turns))
    return {"turns": turns, "drops": drops, "era": era, "last": last, "final": final}


def full_game(players, seed=1):
    g = ready(players, seed=seed)
    play_out(g)
    return g, timeline(g)


# ------------------------------------------------------------------ setup (PCR-R1 .. R21)
def test_pcr_r1_windows_tokens_and_eggs_come_from_an_unlimited_supply():
    g = plain(ready(3))
    assert all(counter(g, k, s) == 0 for s in range(3) for k in ("silver", "goldwin", "egg", "red", "blue"))
    run(
        g,
        'repeat 40:\n    emit gain_icons(who=0, icons=["egg", "red_token", "blue_token", "silver_window", "gold_window"])',
    )
    assert done(g)
    # more than the printed pieces (12 + 4 eggs, 38 tokens, 14 silver and 6 gold windows): never limited
    assert goods(g, 0) == {"gold": 0, "stone": 0, "silver": 40, "goldwin": 40, "egg": 40, "red": 40, "blue": 40}
    run(g, 'repeat 3:\n    emit gain_icon(who=1, icon="egg")')
    assert counter(g, "egg", 1) == 3  # another player still takes from the supply


def test_pcr_r2_each_bridge_plank_shows_one_of_its_two_sides_at_random():
    seen = [set() for _ in range(5)]
    for seed in range(1, 9):
        g = ready(2, seed=seed)
        sides = var(g, "plank_sides")
        planks = g.state["constants"]["plank_rewards"]
        assert len(sides) == 5
        for i in range(5):
            assert sides[i] in planks[i]
            seen[i].add(planks[i].index(sides[i]))
        assert var(g, "plank_tiles") == [None] * 5 and zone(g, "bridge") == []  # the bridge is empty
    assert any(s == {0, 1} for s in seen)  # random per plank, not a fixed side


def test_pcr_r3_silver_bridge_tiles_are_shuffled_face_down_beside_the_bridge():
    orders = set()
    for seed in range(1, 6):
        g = ready(3, seed=seed)
        cs = zone(g, "iv_stack")
        assert len(cs) == 6 and all(t_of(g, c)["stack"] == "iv" for c in cs)
        assert not any(g.state["cards"][c]["up"] for c in cs)
        orders.add(tuple(types_in(g, "iv_stack")))
    assert g.program.zones["iv_stack"]["visibility"] == "none"
    assert len(orders) > 1


def test_pcr_r4_gold_tiles_split_into_two_face_down_stacks_of_three():
    splits = set()
    for seed in range(1, 7):
        g = ready(4, seed=seed)
        bridge, cath = types_in(g, "v_bridge"), types_in(g, "v_cathedral")
        assert len(bridge) == 3 and len(cath) == 3
        assert sorted(bridge + cath) == sorted(
            t for t in g.program.type_instances if t.startswith("v_") and g.program.types[t].get("stack") == "v"
        )
        assert not any(g.state["cards"][c]["up"] for c in zone(g, "v_bridge") + zone(g, "v_cathedral"))
        splits.add(frozenset(bridge))
    assert g.program.zones["v_bridge"]["visibility"] == "none"
    assert g.program.zones["v_cathedral"]["visibility"] == "none"
    assert len(splits) > 1  # shuffled before the split


def test_pcr_r5_all_eight_production_tokens_in_the_river_at_every_count():
    for n in (1, 2, 3, 4):
        g = ready(n)
        assert len(zone(g, "river")) == 8
        assert all(zone(g, "production", s) == [] for s in range(n))
    assert g.program.zones["river"]["visibility"] == "all"  # face up: everyone sees them


def test_pcr_r6_plaza_tiles_fill_the_plaza_hexes_of_the_player_count_by_colour():
    expected = {4: 10, 3: 9, 2: 8, 1: 8}  # 2.10 invariant; solo is set up as 2 players
    for n, filled in expected.items():
        g = ready(n)
        cells = {c: evaluate(g, f'hex_info("city", "{c}")') for c in evaluate(g, 'hex_cells("city")')}
        plaza_cells = {c for c, i in cells.items() if i["kind"] == "plaza"}
        used = {c for c in plaza_cells if max(n, 2) in cells[c]["filled_at"]}
        tiles = zone(g, "plazas")
        assert len(tiles) == filled == len(used)
        on = {}
        for c in tiles:
            cell = g.state["cards"][c]["cell"]
            assert cell in used and cell not in on  # one tile per used plaza hex
            assert t_of(g, c)["colour"] == cells[cell]["colour"]
            assert g.state["cards"][c]["up"]
            on[cell] = c
        assert set(on) == used
        assert zone(g, "plaza_box") == []
        leftover = [c for c in zone(g, "out") if t_of(g, c)["family"] == "plaza_tile"]
        assert len(leftover) == 11 - filled  # the rest leave the game
    empty = plaza_cells - used
    assert {cells[c]["id"] for c in empty} == {"p4", "p10"}  # 2 players: the 4 and 3-4 marked plazas stay empty


def test_pcr_r7_technologies_sorted_by_level_and_shuffled_face_down():
    orders = set()
    for seed in range(1, 6):
        g = ready(2, seed=seed)
        for level in (1, 2, 3, 4):
            cs = zone(g, f"tech_{level}")
            assert len(cs) == 6 and all(t_of(g, c)["level"] == level for c in cs)
            assert g.program.zones[f"tech_{level}"]["visibility"] == "none"
        assert zone(g, "tech_box") == []
        orders.add(tuple(types_in(g, "tech_1")))
    assert len(orders) > 1


def test_pcr_r8_the_five_point_reminder_is_a_per_tile_overflow_bonus():
    g = plain(ready(4))
    assert all(bonus(g, t) == 0 for t in TILES)  # nothing on the tiles at setup
    # arrow on the single green space: a double step carries both the s10 and the s11 tile past the end
    arrange(g, 12, {"s10": "at_1", "s11": "at_2", "s0": "at_3"})
    end_turn(g)
    assert bonus(g, "at_1") == 5 and bonus(g, "at_2") == 5  # one +5 each, not one token for the crane
    assert bonus(g, "at_3") == 0


def test_pcr_r9_wheel_arrow_cube_and_platform_start_for_the_player_count():
    start = {4: (11, 1), 3: (4, 2), 2: (10, 4), 1: (10, 4)}  # 2.3: arrow station, platform space
    for n, (r, platform) in start.items():
        g = ready(n)
        assert arrow(g) == r
        assert evaluate(g, "wheel_slot_info('crane', 'w8')")["cube"] is True
        assert cube(g) == (r + 8) % 13  # the cube sits in the square slot
        assert var(g, "platform") == platform
        assert var(g, "era") == 1


def test_pcr_r10_one_side_for_all_six_tiles_and_no_optional_tiles_by_default():
    for variants, side in (((), "a"), (("action_tiles_b",), "b")):
        g = plain(ready(4, variants=variants))
        for s in range(4):
            set_goods(g, s, gold=9, stone=9)
        offered = {}
        for _, st, a in evaluate(g, "tile_options(0)"):
            offered.setdefault(st, set()).add(a)
        on = stations_of(g)
        assert set(offered) == set(on)
        for st, t in on.items():
            assert offered[st] == set(g.program.types[t][side]), (st, t, side)
    g = ready(4)
    assert zone(g, "kr_tiles") == [] and len(zone(g, "kr_box")) == 3  # no King's Road tiles
    same = evaluate(
        g,
        "[hw_cell(1 + i // 8, 1 + i % 8) == stair_cell('hunger_wall', 1 + i // 8, 1 + i % 8) and "
        "cath_cell(1 + i // 8, 1 + i % 8) == stair_cell('cathedral', 1 + i // 8, 1 + i % 8) "
        "for i in range(48)]",
    )
    assert same == [True] * 48  # no alternative tier tiles


def test_pcr_r11_six_tiles_in_the_first_free_notches_from_the_red_start():
    layout = {
        4: ["s0", "s1", "s2", "s3", "s4", "s5"],
        3: ["s0", "s1", "s2", "s3", "s5", "s6"],
        2: ["s0", "s1", "s2", "s3", "s4", "s6"],
        1: ["s0", "s1", "s2", "s3", "s4", "s6"],
    }
    for n, stations in layout.items():
        g = ready(n)
        on = stations_of(g)
        assert sorted(on, key=lambda s: int(s[1:])) == stations
        assert all(evaluate(g, f'zone_of("{st}")') != "blue" for st in on)
        hex_actions = [
            next(a for a in g.program.types[on[st]]["a"] if a in ("upgrade", "wall", "building")) for st in stations
        ]
        assert hex_actions == ["upgrade", "wall", "building", "upgrade", "wall", "building"]
        assert sorted(zone(g, "crane_tiles")) == sorted(card(g, t) for t in TILES)


def test_pcr_r12_hex_tiles_sorted_by_type_special_and_era():
    counts = {"upgrade": (11, 4), "wall": (14, 4), "building": (14, 4)}
    orders = set()
    for seed in (1, 2, 3):
        g = ready(4, seed=seed)
        assert zone(g, "hex_box") == []
        for kind, pre in (("upgrade", "up"), ("wall", "wall"), ("building", "bld")):
            normal, special = counts[kind]
            for era in (1, 2):
                for sp, z, total in ((False, f"{pre}_stack_n{era}", normal), (True, f"{pre}_stack_s{era}", special)):
                    cs = zone(g, z)
                    assert all(
                        t_of(g, c)["family"] == kind and t_of(g, c)["era"] == era and t_of(g, c)["special"] == sp
                        for c in cs
                    ), z
                    assert not any(g.state["cards"][c]["up"] for c in cs), z
                    assert g.program.zones[z]["visibility"] == "none"
                    if era == 2:
                        assert len(cs) == total, z  # era II set aside whole
                    else:
                        assert len(cs) == total - (1 if sp else 3), z
        orders.add(tuple(types_in(g, "wall_stack_n1")))
    assert len(orders) > 1  # the era-I stacks are shuffled


def test_pcr_r13_each_row_gets_three_normal_tiles_and_one_special():
    for n in (1, 3, 4):
        g = ready(n)
        for kind, (row, special) in ROWS.items():
            r, s = zone(g, row), zone(g, special)
            assert len(r) == 3 and len(s) == 1
            assert all(t_of(g, c)["family"] == kind and t_of(g, c)["era"] == 1 for c in r + s)
            assert not any(t_of(g, c)["special"] for c in r) and t_of(g, s[0])["special"]
            assert all(g.state["cards"][c]["up"] for c in r + s)


def test_pcr_r14_prebuilt_buildings_in_two_and_three_player_games():
    rotations = set()
    for n, expected in ((4, 0), (3, 3), (2, 6), (1, 6)):
        for seed in (1, 2):
            g = ready(n, seed=seed)
            marked = [
                c
                for c in evaluate(g, 'hex_cells("city")')
                if evaluate(g, f'buildable("{c}")') and max(n, 2) in evaluate(g, f'hex_info("city", "{c}")')["prebuilt"]
            ]
            assert len(marked) == expected
            built = zone(g, "city_tiles")
            assert len(built) == expected
            stacks = g.state["boards"]["city"]["stacks"]
            for c in built:
                info = g.state["cards"][c]
                assert info["cell"] in marked and info["up"] and info["cube"] is None  # no cube on it
                assert t_of(g, c)["family"] == "building" and t_of(g, c)["era"] == 1 and not t_of(g, c)["special"]
                [entry] = stacks[info["cell"]]
                assert entry["piece"] == c
                rotations.add(entry["rot"])
            assert sum(1 for cell in stacks.values() if cell) == expected
            assert len(zone(g, "bld_stack_n1")) == 14 - 3 - expected
    assert len(rotations) > 1  # random orientation


def test_pcr_r15_r20_each_player_has_an_action_board_pawn_and_two_free_cubes():
    for n in (2, 3, 4):
        g = ready(n)
        for s in range(n):
            assert counter(g, "cubes", s) == 2  # 11 cubes - 9 on the boards
            assert evaluate(g, f"count(ring_free({s}))") == 12  # own action board with an empty wall ring
            assert all(
                evaluate(g, f'hex_empty(board_of({s}), action_cell("{a}"))')
                for a in ("gold_mine", "quarry", "upgrade", "wall", "building", "kings_road")
            )
            assert var(g, "kr_zone", s) == 0  # pawn beside the King's Road start
    g = ready(1)  # solo: the dummy takes no material
    assert counter(g, "cubes", 0) == 2 and counter(g, "cubes", 1) == 0


def test_pcr_r16_track_cubes_start_at_two_quarries_three_mines():
    g = ready(3)
    for s in range(3):
        assert [track(g, s, t) for t in ("quarry", "gold_mine", "technology", "university")] == [3, 4, 0, 0]
        assert evaluate(g, f"mines({s})") == 3 and evaluate(g, f"quarries({s})") == 2
        assert evaluate(g, f"academics({s})") == 0
    plain(g)
    run(g, 'emit produce(who=0, track="gold_mine")')
    run(g, 'emit produce(who=1, track="quarry")')
    assert counter(g, "gold", 0) == 3 and counter(g, "stone", 1) == 2


def test_pcr_r17_a_cube_on_each_property_space_returns_to_the_supply():
    g = ready(2)
    assert var(g, "props", 0) == [False, False, False] and var(g, "props", 1) == [False, False, False]
    plain(g)
    set_counter(g, "cubes", 0, 2)
    set_goods(g, 0, gold=5, stone=5)
    run(g, 'emit gain_icon(who=0, icon="gold")')  # 6 gold
    assert counter(g, "cubes", 0) == 3
    run(g, 'emit gain_icon(who=0, icon="stone")')  # 6 stone
    assert counter(g, "cubes", 0) == 4
    run(g, 'repeat 3:\n    emit gain_icon(who=0, icon="gold")')  # 9 gold
    assert counter(g, "cubes", 0) == 5  # three property cubes in all
    run(g, 'repeat 3:\n    emit gain_icon(who=0, icon="stone")')
    assert counter(g, "cubes", 0) == 5


def test_pcr_r18_gold_and_stone_dials_start_at_two():
    for n in (1, 4):
        g = ready(n)
        humans = [0] if n == 1 else range(n)
        for s in humans:
            assert counter(g, "gold", s) == 2 and counter(g, "stone", s) == 2


def test_pcr_r19_staircase_starts_pawn_and_score_marker():
    g = ready(4)
    for s in range(4):
        assert stair(g, s, "hunger_wall") == [1, 1] and stair(g, s, "cathedral") == [1, 1]
        assert vp(g, s) == 0 and var(g, "kr_zone", s) == 0
    assert evaluate(g, "stair_cell('cathedral', 1, 1)") == "S" and evaluate(g, "stair_cell('hunger_wall', 1, 1)") == "S"
    plain(g)
    set_counter(g, "hw_moves", 0, 1)
    run(g, "emit resolve_moves(who=0)")
    assert stair(g, 0, "hunger_wall") == [1, 2]  # column 1 is the start edge; moves go on from it


def test_pcr_r21_random_start_player_then_clockwise():
    starts = {var(ready(4, seed=k), "start_player") for k in range(1, 13)}
    assert len(starts) >= 3
    for seed in (1, 2, 3):
        g = ready(3, seed=seed)
        first = var(g, "start_player")
        assert g.pending["seat"] == first
        play_out(g)
        seats = timeline(g)["turns"]
        assert seats == [(first + i) % 3 for i in range(48)]


# ------------------------------------------------------------------ the turn (PCR-R22 .. R24)
def test_pcr_r22_a_turn_is_take_a_tile_perform_its_action_end():
    g = plain(ready(4))
    set_goods(g, 0, gold=3, stone=1)
    arrange(g, 11, {"s0": "at_1", "s5": "at_6"})  # at_6 side A: building / quarry
    run(g, "turn 0")
    assert prompt(g) == "Choose an action" and "End turn" not in labels(g)
    act(g, "Take an action tile")
    act(g, "s5: quarry")
    act(g, "Produce")  # the tile's action is performed: 2 quarries
    assert counter(g, "stone", 0) == 3
    assert prompt(g) == "Choose an action" and "End turn" in labels(g)
    assert var(g, "taken") == card(g, "at_6")
    act(g, "End turn")
    assert done(g)
    end_turn(g)  # then the end of the turn returns the tile
    assert stations_of(g)["s0"] == "at_6" and var(g, "taken") is None


def test_pcr_r23_exactly_one_tile_and_only_performable_actions_are_offered():
    g = plain(ready(4))  # 0 gold, 0 stone: no wall, no building
    arrange(g, 11, {"s0": "at_1", "s2": "at_3", "s4": "at_2", "s5": "at_6"})
    opts = evaluate(g, "tile_options(0)")
    assert sorted((o[1], o[2]) for o in opts) == [("s4", "quarry"), ("s5", "quarry")]  # red costs gold
    set_goods(g, 0, gold=9, stone=9)
    opts = evaluate(g, "tile_options(0)")
    assert ("s4", "wall") in [(o[1], o[2]) for o in opts] and ("s0", "kings_road") in [(o[1], o[2]) for o in opts]
    run(g, "turn 0")
    act(g, "Take an action tile")
    act(g, "s4: wall")
    assert prompt(g) == "Take which wall tile?" and "none" not in labels(g)  # the action must be done
    while prompt(g) != "Choose an action":
        g.answer(0)
    assert len(zone(g, "walls", 0)) == 1
    assert not any(l.startswith("Take an action tile") for l in labels(g))  # only one tile per turn
    act(g, "End turn")
    assert done(g)


def test_pcr_r24_rows_hold_only_tiles_of_the_current_era():
    g = plain(ready(3))
    assert var(g, "era") == 1
    run(g, "emit era_change")
    assert var(g, "era") == 2
    for row, special in ROWS.values():
        assert len(zone(g, row)) == 3 and len(zone(g, special)) == 1
        assert all(t_of(g, c)["era"] == 2 for c in zone(g, row) + zone(g, special))
    taken = zone(g, "up_row")[0]
    move_card(g.rt, taken, "upgrades/0")
    run(g, 'emit refill(row="upgrade")')
    assert len(zone(g, "up_row")) == 3 and all(t_of(g, c)["era"] == 2 for c in zone(g, "up_row"))


# ------------------------------------------------------------------ the end of a turn (PCR-R25 .. R31)
def test_pcr_r25_more_than_two_windows_keep_two_of_your_choice():
    g = plain(ready(3))
    arrange(g, 1, {"s3": "at_1"})
    set_goods(g, 0, silver=2, goldwin=2)
    run(g, "emit end_of_turn(who=0)")
    assert prompt(g) == "More than 2 windows: discard which?"
    assert sorted(labels(g)) == ["gold window", "silver window"]
    act(g, "gold window")
    act(g, "gold window")
    assert done(g)
    assert counter(g, "silver", 0) == 2 and counter(g, "goldwin", 0) == 0
    set_goods(g, 1, silver=1, goldwin=1)  # exactly 2: nothing to discard
    end_turn(g, 1)
    assert counter(g, "silver", 1) == 1 and counter(g, "goldwin", 1) == 1


def test_pcr_r26_one_step_or_two_past_the_single_green_space():
    g = plain(ready(4))
    arrange(g, 7, {"s3": "at_1"})
    end_turn(g)
    assert arrow(g) == 8 and stations_of(g) == {"s4": "at_1"}  # one step clockwise
    arrange(g, 12, {"s2": "at_1"})  # arrow on the single green space
    end_turn(g)
    assert arrow(g) == 1 and stations_of(g) == {"s4": "at_1"}  # never rests on the red start


def test_pcr_r27_one_more_step_when_the_cube_would_block_the_red_start():
    g = plain(ready(4))
    arrange(g, 4, {"s2": "at_1"})  # cube on s12
    assert cube(g) == 12
    end_turn(g)
    assert cube(g) == 1 and arrow(g) == 6 and stations_of(g) == {"s4": "at_1"}


def test_pcr_r28_overflow_to_the_first_empty_pen_notch_with_five_vp():
    g = plain(ready(4))
    arrange(g, 1, {"s11": "at_1", "s3": "at_2"})  # after the step s4 holds at_2
    end_turn(g)
    assert stations_of(g) == {"s4": "at_2", "s5": "at_1"} and bonus(g, "at_1") == 5
    assert bonus(g, "at_2") == 0


def test_pcr_r28_overflow_to_the_last_red_space_when_the_pen_is_full():
    g = plain(ready(4))
    arrange(g, 1, {"s11": "at_1", "s3": "at_2", "s4": "at_3", "s5": "at_4"})
    end_turn(g)
    assert stations_of(g) == {"s3": "at_1", "s4": "at_2", "s5": "at_3", "s6": "at_4"}
    assert bonus(g, "at_1") == 5
    # PCR-D16: pen and last red space full -> the next free red space backward
    arrange(g, 8, {"s11": "at_1", "s2": "at_2", "s4": "at_3", "s5": "at_4"})  # the cube comes onto s4
    set_bonus(g, "at_1", 0)
    end_turn(g)
    assert stations_of(g) == {"s2": "at_1", "s3": "at_2", "s5": "at_3", "s6": "at_4"}
    assert bonus(g, "at_1") == 5


def test_pcr_d16_two_tiles_overflowing_together_keep_their_crane_order():
    """README, question 7: the seed (l. 286) moves "a tile" turned out of the blue zone to the first empty
    pen space and is silent on two; by default they are relocated in crane order (the one from s10
    first), so the two keep their order; both moves are narrated, with where each tile came from."""
    g = plain(ready(4))
    arrange(g, 12, {"s10": "at_1", "s11": "at_2"})  # arrow on the single green space: a double step
    n = len(g.log)
    end_turn(g)
    assert stations_of(g) == {"s4": "at_1", "s5": "at_2"}
    assert bonus(g, "at_1") == bonus(g, "at_2") == 5
    said = [e["text"] for e in g.log[n:] if e.get("type") == "say"]
    assert "2 action tiles pass the end of the blue zone together; the one from s10 is relocated first." in said
    assert any(t.startswith("Action tile 1 (from s10) passes the end of the blue zone: it goes to s4") for t in said)
    assert any(t.startswith("Action tile 2 (from s11) passes the end of the blue zone: it goes to s5") for t in said)


def test_pcr_d16_variant_overflow_first_out_relocates_the_farther_tile_first():
    g = plain(ready(4, variants=("overflow_first_out",)))
    arrange(g, 12, {"s10": "at_1", "s11": "at_2"})
    n = len(g.log)
    end_turn(g)
    assert stations_of(g) == {"s4": "at_2", "s5": "at_1"}  # the s11 tile left the blue zone first
    assert bonus(g, "at_1") == bonus(g, "at_2") == 5
    said = [e["text"] for e in g.log[n:] if e.get("type") == "say"]
    assert "2 action tiles pass the end of the blue zone together; the one from s11 is relocated first." in said


def test_pcr_r29_overflow_bonuses_add_up_and_stay_until_taken():
    g = plain(ready(4))
    arrange(g, 1, {"s11": "at_4"})  # at_4 side A: upgrade / gold mine
    set_bonus(g, "at_4", 5)  # overflowed once before
    end_turn(g)
    assert stations_of(g) == {"s4": "at_4"} and bonus(g, "at_4") == 10
    end_turn(g)
    end_turn(g)
    assert stations_of(g) == {"s6": "at_4"} and bonus(g, "at_4") == 10  # the bonus rides with the tile
    assert evaluate(g, 'slot_bonus("s6")') == "silver_window"
    set_goods(g, 0, gold=3, stone=3)  # below every property threshold
    run(g, "emit take_tile(who=0)")
    act(g, "s6: gold_mine (+10 VP)")  # taken in green: the bonus is still paid
    act(g, "Gain 1 and add one")
    assert done(g)
    assert vp(g, 0) == 10 and bonus(g, "at_4") == 0  # paid once, then gone from the tile


def test_pcr_r30_the_used_tile_returns_to_the_red_start():
    g = plain(ready(4))
    # a double step carries the s11 tile onto s0; it is moved on before the used tile comes back
    arrange(g, 12, {"s11": "at_1", "s1": "at_2"})
    move_card(g.rt, card(g, "at_3"), "in_hand")
    set_var(g, "taken", card(g, "at_3"))
    end_turn(g)
    on = stations_of(g)
    assert on["s0"] == "at_3" and card(g, "at_3") in zone(g, "crane_tiles")
    assert on == {"s0": "at_3", "s3": "at_2", "s4": "at_1"} and bonus(g, "at_1") == 5
    assert bonus(g, "at_3") == 0 and var(g, "taken") is None


def test_pcr_r31_platform_cube_moves_when_the_wheel_cube_is_over_the_hole():
    g = plain(ready(3))
    set_var(g, "platform", 3)
    arrange(g, 7, {"s0": "at_1"})  # cube on s2
    end_turn(g)
    assert cube(g) == 3 and var(g, "platform") == 3
    end_turn(g)
    assert cube(g) == 4 and var(g, "platform") == 4  # over the hole (s4)
    end_turn(g)
    assert cube(g) == 5 and var(g, "platform") == 4  # only once per pass


def test_pcr_r31_first_platform_move_after_9_4_10_turn_ends():
    for n, first in ((4, 9), (3, 4), (2, 10)):  # 2.3: forced by the seed
        g = plain(ready(n))
        start = var(g, "platform")
        for i in range(first - 1):
            end_turn(g, i % n)
            assert var(g, "platform") == start
        end_turn(g, (first - 1) % n)
        assert var(g, "platform") == start + 1


# ------------------------------------------------------------------ eras (PCR-R32, R33)
def test_pcr_r32_era_changes_when_the_platform_cube_crosses_the_line():
    for n, before in ((4, 3), (3, 4)):  # 4p line 3|4, 3p line 4|5
        g = plain(ready(n))
        set_var(g, "platform", before)
        arrange(g, 8, {"s0": "at_1"})  # one step puts the cube over the hole
        end_turn(g)
        assert var(g, "platform") == before + 1 and var(g, "era") == 2  # at once, before the next turn
        assert all(t_of(g, c)["era"] == 2 for c in zone(g, "up_row") + zone(g, "wall_row") + zone(g, "bld_row"))
    g = plain(ready(4))
    set_var(g, "platform", 2)  # not the line: no change
    arrange(g, 8, {"s0": "at_1"})
    end_turn(g)
    assert var(g, "platform") == 3 and var(g, "era") == 1
    g = plain(ready(2))  # 2 players: crossing alone does not change it
    set_var(g, "platform", 4)
    arrange(g, 8, {"s0": "at_1"})
    end_turn(g)
    assert var(g, "platform") == 5 and var(g, "era") == 1


def test_pcr_r32_a_tile_taken_in_the_changing_turn_is_era_one():
    g = plain(ready(4))
    set_var(g, "platform", 3)
    arrange(g, 8, {"s5": "at_1"})  # at_1 side A: upgrade / king's road
    run(g, "turn 0")
    take(g, "s5: upgrade")
    while g.pending and prompt(g) != "Choose an action":
        g.answer(0)  # any tile, any rotation
    if g.pending:
        act(g, "End turn")
    assert done(g)
    [u] = zone(g, "upgrades", 0)
    assert t_of(g, u)["era"] == 1
    end_turn(g)
    assert var(g, "era") == 2 and zone(g, "upgrades", 0) == [u]


def test_pcr_r33_era_change_replaces_rows_and_stacks_with_era_two():
    g = plain(ready(3))
    owned = zone(g, "up_row")[0]
    move_card(g.rt, owned, "upgrades/1")  # a tile already placed stays with its owner
    run(g, 'emit refill(row="upgrade")')
    era1 = [
        c
        for z in (
            "up_row",
            "up_special",
            "up_stack_n1",
            "up_stack_s1",
            "wall_row",
            "wall_special",
            "wall_stack_n1",
            "wall_stack_s1",
            "bld_row",
            "bld_special",
            "bld_stack_n1",
            "bld_stack_s1",
        )
        for c in zone(g, z)
    ]
    run(g, "emit era_change")
    assert done(g)
    out = set(zone(g, "out"))
    assert all(c in out for c in era1)
    for z in ("up_stack_n1", "up_stack_s1", "wall_stack_n1", "wall_stack_s1", "bld_stack_n1", "bld_stack_s1"):
        assert zone(g, z) == []
    assert zone(g, "upgrades", 1) == [owned]
    assert len(zone(g, "city_tiles")) == 3  # buildings in the city stay
    for kind, (row, special), (n2, s2) in (
        ("upgrade", ROWS["upgrade"], ("up_stack_n2", "up_stack_s2")),
        ("wall", ROWS["wall"], ("wall_stack_n2", "wall_stack_s2")),
        ("building", ROWS["building"], ("bld_stack_n2", "bld_stack_s2")),
    ):
        assert len(zone(g, row)) == 3 and len(zone(g, special)) == 1
        assert all(t_of(g, c)["era"] == 2 and not t_of(g, c)["special"] for c in zone(g, row))
        assert t_of(g, zone(g, special)[0])["special"] and t_of(g, zone(g, special)[0])["era"] == 2
        normal = {"upgrade": 11, "wall": 14, "building": 14}[kind]
        assert len(zone(g, n2)) == normal - 3 and len(zone(g, s2)) == 3
    deals = set()
    for seed in (1, 2, 3, 4):
        h = plain(ready(3, seed=seed))
        run(h, "emit era_change")
        deals.add(tuple(types_in(h, "wall_row")))
    assert len(deals) > 1  # the era-II stacks are shuffled


# ------------------------------------------------------------------ the end of the game (PCR-R34, R35)
def test_pcr_r34_eleven_turns_remain_once_the_last_space_is_reached():
    for n, last in ((4, 53), (3, 37), (2, 21)):  # 2.3 derived schedule
        g, tl = full_game(n)
        assert tl["last"] == [last]
        assert len(tl["turns"]) - last == 11
        assert var(g, "last_space_turns") == last


def test_pcr_r34_counting_from_a_set_platform():
    g = plain(ready(4))
    set_var(g, "platform", 5)
    set_var(g, "era", 2)
    arrange(g, 8, {"s0": "at_1"})
    end_turn(g)
    assert var(g, "platform") == 6
    n = 0
    while not var(g, "finished"):
        end_turn(g, (n + 1) % 4)
        n += 1
        assert n < 40
    assert n == 11


def test_pcr_r35_game_ends_when_the_cube_leaves_the_platform_after_16_turns_each():
    for n in (2, 3, 4):
        g, tl = full_game(n, seed=2)
        assert g.over and g.state["result"]["scores"]
        assert len(tl["turns"]) == 16 * n
        assert all(tl["turns"].count(s) == 16 for s in range(n))
        assert tl["drops"][-1] == (16 * n, 7)  # onto the hourglass after the last turn
        assert tl["final"] == [16 * n]  # final scoring follows at once
        assert var(g, "finished") and var(g, "turns_played") == 16 * n


def test_pcr_r35_the_drop_onto_the_hourglass_sets_off_final_scoring():
    g = plain(ready(3))
    set_var(g, "platform", 6)
    set_var(g, "era", 2)
    arrange(g, 7, {"s0": "at_1"})
    end_turn(g)
    assert not var(g, "finished") and var(g, "fs_eggs") == [0, 0, 0]
    set_counter(g, "egg", 1, 2)
    end_turn(g, 1)  # cube over the hole: platform 6 -> 7
    assert var(g, "platform") == 7 and var(g, "finished")
    assert var(g, "fs_eggs") == [0, 3, 0]  # final scoring ran


# ------------------------------------------------------------------ worked examples
def test_pcr_x10_three_player_countdown():
    g, tl = full_game(3, seed=3)
    first = var(g, "start_player")
    turns = tl["turns"]
    assert tl["last"] == [37]
    assert turns[36] == first and turns[:37].count(first) == 13  # the start player's 13th turn
    rest = turns[37:]
    assert rest.count(first) == 3
    assert all(rest.count(s) == 4 for s in range(3) if s != first)
    assert len(turns) == 48 and tl["final"] == [48]


def test_pcr_x19_crane_rotation_four_players():
    g = plain(ready(4))
    assert arrow(g) == 11
    end_turn(g, 0)
    assert arrow(g) == 12  # turn 1: one step
    end_turn(g, 1)
    assert arrow(g) == 1  # turn 2: two steps, past the red start
    for t in range(3, 9):
        end_turn(g, (t - 1) % 4)
        assert var(g, "platform") == 1
    end_turn(g, 0)  # turn 9
    assert cube(g) == 4 and var(g, "platform") == 2


def test_pcr_x19_schedule_four_players():
    g, tl = full_game(4)
    assert tl["drops"] == [(9, 2), (20, 3), (31, 4), (42, 5), (53, 6), (64, 7)]
    assert tl["era"] == [31]


def test_pcr_x20_overflow_tile_later_taken_from_blue():
    g = plain(ready(4))
    arrange(g, 1, {"s11": "at_4", "s0": "at_1"})  # s4 will be empty after the step
    end_turn(g)
    assert arrow(g) == 2
    on = stations_of(g)
    assert on["s4"] == "at_4" and bonus(g, "at_4") == 5  # left blue, into the pen with +5
    end_turn(g, 1)
    end_turn(g, 2)
    end_turn(g, 3)  # cube skip on the last one: two steps
    assert stations_of(g)["s8"] == "at_4"
    set_goods(g, 0, gold=3, stone=3)  # below every property threshold
    assert evaluate(g, 'slot_bonus("s8")') == "silver_window"
    run(g, "emit take_tile(who=0)")
    act(g, "s8: gold_mine (+7 VP)")  # at_4 side A: upgrade / gold mine
    act(g, "Gain 1 and add one")
    assert done(g)
    assert vp(g, 0) == 7  # 2 (s8) + 5 (overflow)
    assert bonus(g, "at_4") == 0


def test_pcr_x22_solo_dummy_turn():
    g = plain(ready(1))
    assert arrow(g) == 10
    assert sorted(stations_of(g), key=lambda s: int(s[1:])) == ["s0", "s1", "s2", "s3", "s4", "s6"]
    human = stations_of(g)["s6"]
    run(g, "turn 0")
    take(g, "s6: quarry")
    act(g, "Produce")
    act(g, "End turn")
    end_turn(g, 0)  # turn 1
    assert arrow(g) == 11
    on = stations_of(g)
    assert sorted(on, key=lambda s: int(s[1:])) == ["s0", "s1", "s2", "s3", "s4", "s5"] and on["s0"] == human
    farthest = on["s5"]
    set_bonus(g, farthest, 5)  # even an overflow bonus is not gained
    before = (vp(g, 1), goods(g, 1), track(g, 1, "university"), track(g, 1, "technology"))
    run(g, "emit dummy_turn(who=1)")  # turn 2: the policy takes the farthest tile
    assert done(g) and var(g, "taken") == card(g, farthest)
    run(g, "emit end_of_turn(who=1)")
    assert done(g)
    assert arrow(g) == 12
    assert stations_of(g)["s0"] == farthest and bonus(g, farthest) == 0
    assert (vp(g, 1), goods(g, 1), track(g, 1, "university"), track(g, 1, "technology")) == before


def test_pcr_x22_solo_schedule():
    g, tl = full_game(1)
    assert tl["drops"][0] == (10, 5)  # the platform cube first moves after turn 10
    assert tl["era"] == [16]  # the star: era II after turn 16
    assert len(tl["turns"]) == 32 and tl["final"] == [32]
    assert tl["turns"].count(0) == 16 and tl["turns"].count(1) == 16
    assert tl["turns"] == [0, 1] * 16


def test_pcr_d16_variant_overflow_first_out_is_declared_with_a_one_line_name():
    """`mason games` lists a variant by its id and name: the name is its one-line description."""
    from mason.session.game import load_program

    variants = {v["id"]: v for v in load_program("prague").spec.game["variants"]}
    v = variants["overflow_first_out"]
    assert v["rule"] == "PCR-D16" and v["name"] and "\n" not in v["name"] and len(v["name"]) < 80
