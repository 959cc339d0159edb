"""Praga Caput Regni: final scoring steps 1-6, the tie-break, player counts, solo against the dummy and
the named variants (PCR-R117 .. PCR-R138); worked examples PCR-X11 .. PCR-X16.

Staircase cells, row scores, column values, the University multiplier between its exact ends and the
crane geometry are placeholders: where a test needs one of them it reads it from the loaded program
instead of writing the number down.
"""

from __future__ import annotations

import pytest
from pr_support import (
    act,
    card,
    clear,
    counter,
    crane,
    done,
    evaluate,
    goods,
    hex_put,
    labels,
    move_card,
    place_tile_at,
    plain,
    prompt,
    put,
    ready,
    run,
    set_counter,
    set_goods,
    set_stair,
    set_track,
    set_var,
    stair,
    stations_of,
    track,
    var,
    vp,
    zone,
)

from mason.runtime.turns import finish as end_game

STEP_PARTS = ["play", "plazas", "academics", "rows", "tokens", "walls", "abilities", "eggs"]


# ------------------------------------------------------------------ helpers of this file
_EXPRS: dict = {}


def ev(g, expr):
    """``evaluate`` with the compiled expression kept (loops call it often)."""
    key = (id(g.program), expr)
    f = _EXPRS.get(key)
    if f is None:
        f = _EXPRS[key] = g.program.expr({"v": expr}, "v", ("me",))
    return f(g.rt, {"me": None})


def board(g, name):
    """The loaded (placeholder) data of a board: staircase rows, row scores, column values."""
    return g.program.boards[name]


def score(g):
    """Final scoring as the game runs it after the last turn (every decision already answered), then the
    engine's result (totals by part, winners)."""
    run(g, "emit final_scoring")
    assert done(g), (prompt(g), labels(g))
    end_game(g.rt)
    return g.result


def parts(g, s):
    end_game(g.rt)
    return g.result["parts"][s]


def plaza_tile(g, cell, type_id):
    """Make ``type_id`` the plaza tile on the plaza hex ``cell`` (swapping cells with the tile it replaces)."""
    c = card(g, type_id)
    cards = g.state["cards"]
    prev = cards[c]["cell"] if cards[c]["z"] == "plazas" else None
    for x in zone(g, "plazas"):
        if cards[x]["cell"] == cell and x != c:
            cards[x]["cell"] = prev
            if prev is None:
                move_card(g.rt, x, "out")
    move_card(g.rt, c, "plazas", facing="up")
    cards[c]["cell"] = cell
    return c


def claim(g, cell, seat, type_id):
    """A building (an era-II tile, never in play at setup) on city hex ``cell`` carrying seat's cube."""
    c = hex_put(g, "city", cell, type_id, owner_zone="city_tiles")
    g.state["cards"][c]["cube"] = seat
    return c


def own(g, type_id, seat, zone_name):
    c = put(g, type_id, zone_name, seat)
    g.state["cards"][c]["owner_seat"] = seat
    return c


def seal(g, type_id, seat):
    c = card(g, type_id)
    g.state["cards"][c]["owner_seat"] = seat
    return c


def held(g, type_id, seat):
    """A gold V tile held by seat (its immediate part not scored)."""
    c = card(g, type_id)
    move_card(g.rt, c, f"bridge_held/{seat}", facing="up")
    g.state["cards"][c]["owner_seat"] = seat
    return c


def answer_all(g, wanted=None):
    """Answer every decision of the snippet: by label where its prompt starts with a key of ``wanted``,
    else the first option."""
    wanted = wanted or {}
    n = 0
    while g.pending is not None:
        key = next((k for k in wanted if prompt(g).startswith(k)), None)
        if key is None:
            g.answer([] if g.pending["subset"] else 0)
        else:
            act(g, wanted[key])
        n += 1
        assert n < 200


def turn_ends(g, limit=80, dummy=False):
    """End turns one after the other (seats in turn order from the start player), nothing taken, until the
    game is finished. With ``dummy`` the automated seat plays its real turn (dummy_turn) first.
    Returns [(turn number, seat, platform, era, arrow station)] after each turn."""
    n = g.state["n"]
    start = var(g, "start_player")
    out = []
    for i in range(1, limit + 1):
        s = (start + i - 1) % n
        if dummy and str(s) in (g.state.get("automata") or {}):
            run(g, f"emit dummy_turn(who={s})")
            assert done(g)
        run(g, f"emit end_of_turn(who={s})")
        assert done(g), (prompt(g), labels(g))
        out.append((i, s, var(g, "platform"), var(g, "era"), ev(g, "arrow_at")))
        if var(g, "finished"):
            break
    return out


def drops(history, start_platform):
    """The turns after which the platform cube moved."""
    out, last = [], start_platform
    for i, _s, p, _e, _a in history:
        if p != last:
            out.append(i)
            last = p
    return out


def first_era_two(history):
    return next(i for i, _s, _p, e, _a in history if e == 2)


def play_out(g, limit=20_000):
    n = 0
    while not g.over:
        p = g.pending
        g.answer([] if p["subset"] else 0)
        n += 1
        assert n < limit


# ------------------------------------------------------------------ PCR-R117: the steps and their order
def test_pcr_r117_final_scoring_runs_after_the_last_turn():
    g = plain(ready(4))
    set_track(g, 0, "technology", 7)
    set_track(g, 0, "university", 8)
    hist = turn_ends(g)
    assert hist[-1][0] == 64  # 16 turns each
    assert var(g, "fs_academics", 0) == 21  # step 2 ran after turn 64
    g2 = plain(ready(4))
    set_track(g2, 0, "technology", 7)
    set_track(g2, 0, "university", 8)
    turn_ends(g2, limit=63)
    assert not var(g2, "finished") and var(g2, "fs_academics", 0) == 0  # not before


def test_pcr_r117_result_is_split_into_the_steps_in_their_order():
    g = plain(ready(3))
    set_counter(g, "vp", 0, 10)
    set_track(g, 0, "technology", 5)
    set_track(g, 0, "university", 8)  # x3 (exact top)
    set_counter(g, "egg", 0, 2)  # 3 VP
    for i in range(3):
        put(g, f"w2_0{i + 1}", "walls", 0)  # 3 walls: 4 VP
    res = score(g)
    p = res["parts"][0]
    assert list(p) == STEP_PARTS
    assert (p["play"], p["academics"], p["walls"], p["eggs"]) == (10, 15, 4, 3)
    assert res["scores"][0] == sum(p.values())


def test_pcr_r117_r118_step_one_books_count_in_academics_without_a_technology_draw():
    # PCR-D32: rewards of step 1 apply at once and count later; no technology tile is drawn
    g = plain(ready(3))
    plaza_tile(g, "3,0", "pz_y4")  # bottom: 2 books
    claim(g, "4,0", 0, "b2_01")
    set_track(g, 0, "technology", 2)
    set_track(g, 0, "university", 8)
    res = score(g)  # no "Keep which technology?" decision
    assert track(g, 0, "technology") == 4
    assert res["parts"][0]["academics"] == 12  # 4 x 3
    assert zone(g, "techs", 0) == []


def test_pcr_r117_step_one_gold_pays_a_step_five_seal():
    g = plain(ready(3))
    plaza_tile(g, "6,0", "pz_y1")  # bottom: 3 gold (exact tile)
    claim(g, "6,1", 1, "b2_02")
    seal(g, "s1", 1)  # pay gold, 2 VP each
    run(g, "emit final_scoring")
    assert prompt(g).startswith("Seal: pay how much gold")
    assert labels(g)[-1] == "3"  # the 3 gold of step 1 are there
    act(g, "3")
    assert done(g)
    end_game(g.rt)
    assert g.result["parts"][1]["abilities"] == 6
    assert counter(g, "gold", 1) == 0


def test_pcr_r117_step_one_tokens_count_in_step_three():
    g = plain(ready(3))
    plaza_tile(g, "3,0", "pz_g6")  # bottom: red + blue token
    claim(g, "3,1", 2, "b2_03")
    set_stair(g, 2, "hunger_wall", 1, 8)
    set_stair(g, 2, "cathedral", 1, 8)
    hw = board(g, "hunger_wall")["column_values"][7]
    cath = board(g, "cathedral")["column_values"][7]
    res = score(g)
    assert (counter(g, "red", 2), counter(g, "blue", 2)) == (1, 1)
    assert res["parts"][2]["tokens"] == hw + cath


def test_pcr_r117_step_five_eggs_are_gone_for_step_six():
    g = plain(ready(3))
    seal(g, "s5", 0)  # pay eggs, 3 VP each
    set_counter(g, "egg", 0, 5)
    run(g, "emit final_scoring")
    assert prompt(g).startswith("Seal: pay how many eggs")
    act(g, "2")
    assert done(g)
    end_game(g.rt)
    p = g.result["parts"][0]
    assert p["abilities"] == 6
    assert p["eggs"] == 6  # 3 eggs left, not 5 (10 VP)


# ------------------------------------------------------------------ PCR-R118: unresolved plazas
def test_pcr_r118_every_claimant_of_an_unresolved_plaza_gains_the_bottom_only():
    g = plain(ready(3))
    plaza_tile(g, "3,0", "pz_g5")  # top: a sideways move; bottom: silver + 2 VP
    claim(g, "4,0", 0, "b2_01")
    claim(g, "3,1", 0, "b2_02")  # seat 0 has the majority: no matter
    claim(g, "2,1", 1, "b2_03")
    cubes = [counter(g, "cubes", s) for s in range(3)]
    res = score(g)  # no top/bottom choice, no majority
    for s in (0, 1):
        assert res["parts"][s]["plazas"] == 2
        assert counter(g, "silver", s) == 1
        assert counter(g, "hw_moves", s) + counter(g, "cath_moves", s) == 0
        assert stair(g, s, "hunger_wall") == [1, 1] and stair(g, s, "cathedral") == [1, 1]
    assert res["parts"][2]["plazas"] == 0 and counter(g, "silver", 2) == 0  # no cube, nothing
    assert [counter(g, "cubes", s) - cubes[s] for s in range(3)] == [2, 1, 0]
    assert "p2" in var(g, "resolved")


def test_pcr_r118_an_empty_plaza_hex_gives_nothing():
    g = plain(ready(3))  # p4 (3,-3) is filled only at 4 players
    assert not any(g.state["cards"][x]["cell"] == "3,-3" for x in zone(g, "plazas"))
    claim(g, "4,-3", 2, "b2_04")
    before = goods(g, 2)
    cubes = counter(g, "cubes", 2)
    res = score(g)
    assert res["parts"][2]["plazas"] == 0
    assert goods(g, 2) == before
    assert counter(g, "cubes", 2) == cubes + 1  # the cube still comes back


def test_pcr_r118_a_plaza_resolved_in_play_is_not_paid_again():
    g = plain(ready(3))
    plaza_tile(g, "3,0", "pz_g5")
    c = claim(g, "4,0", 0, "b2_01")
    set_var(g, "resolved", ["p2"])
    res = score(g)
    assert res["parts"][0]["plazas"] == 0 and counter(g, "silver", 0) == 0
    assert g.state["cards"][c]["cube"] == 0


# ------------------------------------------------------------------ PCR-R119: windows in final scoring
def test_pcr_r119_windows_gained_in_final_scoring_buy_nothing():
    g = plain(ready(3))
    plaza_tile(g, "3,0", "pz_g5")  # bottom: silver window + 2 VP
    claim(g, "4,0", 0, "b2_01")
    set_goods(g, 0, silver=1, goldwin=1, gold=9, stone=9)  # 2 silver now: enough for an up move
    res = score(g)  # and no climb or extra action is offered
    assert counter(g, "silver", 0) == 2 and counter(g, "goldwin", 0) == 1
    assert stair(g, 0, "hunger_wall") == [1, 1] and stair(g, 0, "cathedral") == [1, 1]
    assert (counter(g, "gold", 0), counter(g, "stone", 0)) == (9, 9)
    assert res["scores"][0] - res["parts"][0]["rows"] == 2  # the 2 VP of the plaza; windows score nothing


# ------------------------------------------------------------------ PCR-R120: academics
@pytest.mark.parametrize("uni", [0, 1, 2])
def test_pcr_r120_lowest_three_university_positions_multiply_by_zero(uni):
    g = plain(ready(3))
    set_track(g, 0, "technology", 9)
    set_track(g, 0, "university", uni)
    assert score(g)["parts"][0]["academics"] == 0


def test_pcr_r120_academics_is_technology_times_the_university_multiplier():
    g = plain(ready(3))
    mult = g.program.constants["university_multiplier"]
    for s, (tech, uni) in enumerate([(5, 8), (4, 5), (0, 8)]):
        set_track(g, s, "technology", tech)
        set_track(g, s, "university", uni)
    res = score(g)
    assert [res["parts"][s]["academics"] for s in range(3)] == [15, 4 * mult[5], 0]


def test_pcr_x11_academics_technology_seven():
    for uni, want in [(0, 0), (1, 0), (2, 0), (8, 21)]:
        g = plain(ready(3))
        set_track(g, 1, "technology", 7)
        set_track(g, 1, "university", uni)
        assert score(g)["parts"][1]["academics"] == want, uni


# ------------------------------------------------------------------ PCR-R121, PCR-R122: rows and tokens
def test_pcr_r121_rows_score_the_row_on_each_staircase():
    g = plain(ready(3))
    hw, cath = board(g, "hunger_wall")["row_scores"], board(g, "cathedral")["row_scores"]
    set_stair(g, 0, "hunger_wall", 4, 2)
    set_stair(g, 0, "cathedral", 3, 7)
    set_stair(g, 1, "hunger_wall", 6, 1)
    set_stair(g, 1, "cathedral", 6, 8)
    res = score(g)
    assert res["parts"][0]["rows"] == hw[3] + cath[2]
    assert res["parts"][1]["rows"] == hw[5] + 13  # Cathedral top row: 13 (exact)
    assert res["parts"][2]["rows"] == hw[0] + cath[0]


def test_pcr_r122_blue_tokens_use_the_hunger_wall_column_red_the_cathedral_column():
    g = plain(ready(3))
    hwv, cathv = board(g, "hunger_wall")["column_values"], board(g, "cathedral")["column_values"]
    hc, cc = next((i, j) for i in range(8) for j in range(8) if hwv[i] != cathv[j])  # a mix-up shows
    for s in (0, 1):
        set_stair(g, s, "hunger_wall", 2, hc + 1)
        set_stair(g, s, "cathedral", 2, cc + 1)
    set_counter(g, "blue", 0, 2)
    set_counter(g, "red", 1, 2)
    set_stair(g, 2, "hunger_wall", 5, 3)
    set_stair(g, 2, "cathedral", 4, 4)
    set_counter(g, "blue", 2, 1)
    set_counter(g, "red", 2, 3)
    res = score(g)
    assert res["parts"][0]["tokens"] == 2 * hwv[hc]
    assert res["parts"][1]["tokens"] == 2 * cathv[cc]
    assert res["parts"][2]["tokens"] == hwv[2] + 3 * 3  # Cathedral column 4: 3 per red (exact)


def test_pcr_x12_cathedral_top_row_column_four_three_red_tokens():
    g = plain(ready(3))
    set_stair(g, 0, "cathedral", 6, 4)
    set_counter(g, "red", 0, 3)
    held(g, "v_6", 0)  # the tier-III V tile scores in step 5
    hw_row1 = board(g, "hunger_wall")["row_scores"][0]
    p = score(g)["parts"][0]
    assert p["rows"] - hw_row1 + p["tokens"] == 22  # 13 + 9
    assert p["abilities"] == 2 * 1 + 2 * 6  # separate from the 22


# ------------------------------------------------------------------ PCR-R123: walls
@pytest.mark.parametrize("walls,want", [(0, 0), (1, 0), (2, 0), (3, 4), (4, 10), (5, 10), (6, 18), (7, 18), (12, 18)])
def test_pcr_r123_walls_connected_or_not(walls, want):
    g = plain(ready(3))
    ids = [f"w1_{i:02d}" for i in range(1, 19)]
    for t in ids[:walls]:
        put(g, t, "walls", 1)  # owned, nowhere near each other
    assert score(g)["parts"][1]["walls"] == want


def test_pcr_x13_walls():
    for walls, want in [(2, 0), (3, 4), (5, 10), (7, 18)]:
        g = plain(ready(3))
        for i in range(walls):
            put(g, f"w2_{i + 1:02d}", "walls", 0)
        assert score(g)["parts"][0]["walls"] == want, walls


def test_pcr_r123_walls_built_by_the_rules_are_counted():
    g = plain(ready(3))
    set_goods(g, 0, gold=9, stone=9)
    for _ in range(3):
        set_goods(g, 0, gold=9, stone=9)
        run(g, 'emit perform(who=0, action="wall", source="tile")')
        answer_all(g)
    assert len(zone(g, "walls", 0)) == 3
    assert score(g)["parts"][0]["walls"] == 4


# ------------------------------------------------------------------ PCR-R124: V tiles and seals
def test_pcr_r124_v_tiles_upgrades_and_walls():
    g = plain(ready(3))
    held(g, "v_2", 0)  # 3 VP per upgrade tile, covered included
    for t in ("u1_01", "u1_02", "u2_01"):
        put(g, t, "upgrades", 0)
    held(g, "v_3", 1)  # 2 VP per wall
    for t in ("w1_01", "w1_02", "w1_03", "w1_04"):
        put(g, t, "walls", 1)
    res = score(g)
    assert res["parts"][0]["abilities"] == 9
    assert res["parts"][1]["abilities"] == 8
    assert res["parts"][2]["abilities"] == 0


def test_pcr_r124_a_v_tile_nobody_holds_scores_nothing():
    g = plain(ready(3))
    set_track(g, 0, "university", 8)  # V-1 lies beside the bridge, unowned
    assert score(g)["parts"][0]["abilities"] == 0


def test_pcr_r124_flat_seal_and_stone_seal():
    g = plain(ready(3))
    seal(g, "s4", 0)  # +6 VP
    seal(g, "s2", 1)  # pay stone, 2 VP each
    set_goods(g, 1, stone=7)
    run(g, "emit final_scoring")
    assert g.pending["seat"] == 1 and prompt(g).startswith("Seal: pay how much stone")
    assert labels(g) == [str(i) for i in range(8)]
    act(g, "7")
    assert done(g)
    end_game(g.rt)
    assert g.result["parts"][0]["abilities"] == 6
    assert g.result["parts"][1]["abilities"] == 14 and counter(g, "stone", 1) == 0


def test_pcr_r124_the_owner_splits_a_resource_between_two_seals():
    # PCR-D26: S1 (gold) and S3 (gold + stone pairs) both want the gold; the owner chooses the split
    g = plain(ready(3))
    seal(g, "s1", 2)
    seal(g, "s3", 2)
    set_goods(g, 2, gold=5, stone=3)
    run(g, "emit final_scoring")
    act(g, "2")  # S1: 2 gold -> 4 VP
    assert prompt(g).startswith("Seal: pay how many pairs")
    assert labels(g)[-1] == "3"  # 3 gold left, 3 stone
    act(g, "3")  # S3: 3 pairs -> 9 VP
    assert done(g)
    end_game(g.rt)
    assert g.result["parts"][2]["abilities"] == 13
    assert (counter(g, "gold", 2), counter(g, "stone", 2)) == (0, 0)


def test_pcr_r124_seal_abilities_are_asked_in_turn_order_from_the_start_player():
    g = plain(ready(3), start=2)
    seal(g, "s1", 0)
    seal(g, "s2", 2)
    set_goods(g, 0, gold=1)
    set_goods(g, 2, stone=1)
    run(g, "emit final_scoring")
    assert g.pending["seat"] == 2
    act(g, "1")
    assert g.pending["seat"] == 0
    act(g, "1")
    assert done(g)


def test_pcr_x15_pair_seal():
    g = plain(ready(3))
    seal(g, "s3", 0)
    set_goods(g, 0, gold=5, stone=8)
    run(g, "emit final_scoring")
    assert labels(g) == [str(i) for i in range(6)]  # at most 5 pairs
    act(g, "5")
    assert done(g)
    end_game(g.rt)
    assert g.result["parts"][0]["abilities"] == 15
    assert (counter(g, "gold", 0), counter(g, "stone", 0)) == (0, 3)


def take_v_tile(g, type_id, seat):
    """Take a gold V tile through the rules, the bridge already full (no plank reward)."""
    set_var(g, "plank_tiles", [card(g, f"iv_{i}") for i in range(1, 6)])
    c = card(g, type_id)
    run(g, f"emit bridge_tile(who={seat}, tile={c})")
    assert done(g)
    return c


def test_pcr_x16_v1_university_top():
    g = plain(ready(3))
    set_track(g, 0, "university", 8)
    take_v_tile(g, "v_1", 0)
    assert vp(g, 0) == 3  # 3 VP when taken
    assert score(g)["parts"][0]["abilities"] == 8


def test_pcr_x16_v4_gold_mines_at_the_end_of_the_track():
    g = plain(ready(3))
    set_track(g, 1, "gold_mine", 9)  # the end: 8 mines
    take_v_tile(g, "v_4", 1)
    assert vp(g, 1) == 3
    assert score(g)["parts"][1]["abilities"] == 8


def test_pcr_x16_v5_quarries_at_the_end_of_the_track():
    g = plain(ready(3))
    set_track(g, 2, "quarry", 8)  # the end: 7 quarries
    take_v_tile(g, "v_5", 2)
    assert vp(g, 2) == 3
    assert score(g)["parts"][2]["abilities"] == 7


def test_pcr_x16_v6_staircase_rows():
    g = plain(ready(3))
    set_stair(g, 0, "hunger_wall", 3, 1)
    set_stair(g, 0, "cathedral", 2, 1)
    take_v_tile(g, "v_6", 0)
    assert vp(g, 0) == 0  # nothing now
    assert score(g)["parts"][0]["abilities"] == 10  # 6 + 4


# ------------------------------------------------------------------ PCR-R125: eggs
@pytest.mark.parametrize("eggs,want", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (9, 10)])
def test_pcr_r125_eggs_left(eggs, want):
    g = plain(ready(3))
    set_counter(g, "egg", 2, eggs)
    assert score(g)["parts"][2]["eggs"] == want


def test_pcr_x14_eggs():
    for eggs, want in [(0, 0), (1, 1), (2, 3), (3, 6), (5, 10)]:
        g = plain(ready(3))
        set_counter(g, "egg", 0, eggs)
        assert score(g)["parts"][0]["eggs"] == want, eggs


# ------------------------------------------------------------------ PCR-R126: winner and ties
def test_pcr_r126_the_highest_score_wins():
    g = plain(ready(3), start=1)
    for s, v in enumerate([20, 25, 24]):
        set_counter(g, "vp", s, v)
    res = score(g)
    assert [x - res["scores"][0] for x in res["scores"]] == [0, 5, 4]
    assert res["winners"] == [1]


@pytest.mark.parametrize("start,want", [(0, 2), (1, 0), (2, 1)])
def test_pcr_r126_a_three_way_tie_goes_to_the_player_right_of_the_start_player(start, want):
    g = plain(ready(3), start=start)
    for s in range(3):
        set_counter(g, "vp", s, 30)
    assert score(g)["winners"] == [want]


def test_pcr_r126_tie_break_among_the_tied_players_only():
    g = plain(ready(4), start=1)  # turn order 1, 2, 3, 0
    for s, v in enumerate([30, 31, 31, 29]):
        set_counter(g, "vp", s, v)
    set_counter(g, "egg", 3, 2)  # 29 + 3 = 32: seat 3 wins outright
    assert score(g)["winners"] == [3]
    g = plain(ready(4), start=1)
    for s, v in enumerate([31, 31, 30, 29]):
        set_counter(g, "vp", s, v)
    assert score(g)["winners"] == [0]  # seat 0 plays after seat 1


# ------------------------------------------------------------------ PCR-R127: player counts
@pytest.mark.parametrize("players,plazas,prebuilt", [(2, 8, 6), (3, 9, 3), (4, 10, 0)])
def test_pcr_r127_player_count_selects_wheel_platform_plazas_and_prebuilt_hexes(players, plazas, prebuilt):
    g = ready(players)
    row = g.program.table_for(players)
    assert crane(g)["r"] == row["crane_r"]
    assert var(g, "platform") == row["platform_start"]
    assert evaluate(g, "era_line") == row["era_line"]
    assert len(zone(g, "plazas")) == plazas  # 10 / 9 / 8 plaza hexes filled
    cells = {g.state["cards"][c]["cell"] for c in zone(g, "plazas")}
    for c in g.program.boards["city"]["cells"]:
        if c["kind"] == "plaza":
            assert (f"{c['q']},{c['r']}" in cells) == (players in c["filled_at"])
    assert len(zone(g, "city_tiles")) == prebuilt  # 0 / 3 / 6 pre-built
    assert len(stations_of(g)) == 6


def test_pcr_r127_the_three_setups_differ():
    rows = [(crane(g)["r"], var(g, "platform"), evaluate(g, "era_line")) for g in (ready(n) for n in (2, 3, 4))]
    assert len(set(r[0] for r in rows)) == 3 and len(set(r[1] for r in rows)) == 3


@pytest.mark.parametrize(
    "players,want_drops,era_two",
    [
        (4, [9, 20, 31, 42, 53, 64], 31),
        (3, [4, 15, 26, 37, 48], 26),
        (2, [10, 21, 32], 16),
    ],
)
def test_pcr_r127_the_setup_gives_sixteen_turns_each_and_the_era_change(players, want_drops, era_two):
    g = plain(ready(players))
    start = var(g, "platform")
    hist = turn_ends(g)
    assert drops(hist, start) == want_drops
    assert hist[-1][0] == 16 * players
    assert first_era_two(hist) == era_two
    assert hist[-1][0] - want_drops[-2] == 11  # PCR-R34: 11 turns after the last space


# ------------------------------------------------------------------ PCR-R128: the star (2 players, solo)
@pytest.mark.parametrize("players", [2, 1])
def test_pcr_r128_era_changes_at_the_star_after_the_crossing(players):
    g = plain(ready(players))
    line = evaluate(g, "era_line")
    hist = turn_ends(g)
    crossing = next(i for i, _s, p, _e, _a in hist if p == line + 1)
    star = [i for i, _s, _p, _e, a in hist if a == 3]  # s3: the star on the last red space
    assert crossing == 10
    assert star[0] < crossing  # an earlier star does not count
    assert all(e == 1 for i, _s, _p, e, _a in hist if i <= star[0])
    assert all(e == 1 for i, _s, _p, e, _a in hist if crossing <= i < 16)  # crossing alone: no change
    first_after = min(i for i in star if i > crossing)
    assert first_after == 16 and first_era_two(hist) == 16


def test_pcr_r128_a_three_player_game_changes_era_at_the_crossing():
    g = plain(ready(3))
    line = evaluate(g, "era_line")
    hist = turn_ends(g)
    crossing = next(i for i, _s, p, _e, _a in hist if p == line + 1)
    assert first_era_two(hist) == crossing  # no star wait (PCR-R32)


def test_pcr_r128_star_turn_replaces_the_rows_with_era_two():
    g = plain(ready(2))
    hist = turn_ends(g, limit=15)
    assert var(g, "era") == 1 and var(g, "star_armed") is True
    assert all(g.state["cards"][c]["t"].startswith("u1") for c in zone(g, "up_row"))
    run(g, f"emit end_of_turn(who={hist[-1][1] ^ 1})")
    assert evaluate(g, "arrow_at") == 3
    assert var(g, "era") == 2 and var(g, "star_armed") is False
    assert zone(g, "up_row") and all(g.state["cards"][c]["t"].startswith("u2") for c in zone(g, "up_row"))


# ------------------------------------------------------------------ PCR-R129: solo setup
def test_pcr_r129_solo_is_set_up_as_two_players():
    solo, duo = ready(1), ready(2)
    assert solo.state["n"] == 2 and solo.state["automata"] == {"1": "dummy_builder"}
    assert crane(solo)["r"] == crane(duo)["r"]
    assert var(solo, "platform") == var(duo, "platform")
    assert stations_of(solo) == stations_of(duo)
    assert len(zone(solo, "plazas")) == len(zone(duo, "plazas")) == 8
    cells = lambda g, z: sorted(g.state["cards"][c]["cell"] for c in zone(g, z))
    assert cells(solo, "plazas") == cells(duo, "plazas")
    assert cells(solo, "city_tiles") == cells(duo, "city_tiles") and len(zone(solo, "city_tiles")) == 6


def test_pcr_r129_the_human_is_start_player():
    starts_2p = {var(ready(2, seed=s), "start_player") for s in range(1, 9)}
    assert starts_2p == {0, 1}  # random at two players
    assert {var(ready(1, seed=s), "start_player") for s in range(1, 9)} == {0}
    g = ready(1, seed=5)
    assert g.pending["seat"] == 0  # the human's first action window


# ------------------------------------------------------------------ PCR-R130: the dummy
DUMMY = 1


def test_pcr_r130_dummy_takes_the_farthest_tile():
    g = plain(ready(1))
    assert max(stations_of(g), key=lambda st: int(st[1:])) == "s6"
    c6 = card(g, stations_of(g)["s6"])
    run(g, f"emit dummy_turn(who={DUMMY})")
    assert done(g)
    assert var(g, "taken") == c6 and "s6" not in stations_of(g)


def test_pcr_r130_dummy_pays_and_gains_nothing_and_loses_the_overflow_bonus():
    g = plain(ready(1))
    t = place_tile_at(g, "at_2", "s11")  # last blue: 5 VP, with an overflow bonus
    g.state["cards"][t]["bonus"] = 5
    human = (goods(g, 0), vp(g, 0), dict((k, track(g, 0, k)) for k in ("technology", "university")))
    run(g, f"emit dummy_turn(who={DUMMY})")
    assert done(g)
    assert var(g, "taken") == t
    assert vp(g, DUMMY) == 0 and all(v == 0 for v in goods(g, DUMMY).values())
    assert human == (goods(g, 0), vp(g, 0), dict((k, track(g, 0, k)) for k in ("technology", "university")))
    assert g.state["cards"][t]["bonus"] == 0
    assert var(g, "tile_action") is None and not var(g, "claims")  # no action performed
    run(g, f"emit end_of_turn(who={DUMMY})")  # returned by the normal end of turn
    assert done(g)
    assert stations_of(g)["s0"] == "at_2" and var(g, "taken") is None


def test_pcr_r130_dummy_takes_a_red_tile_without_paying():
    g = plain(ready(1))
    for tid in ("at_5", "at_6"):  # only red tiles left on the crane
        c = card(g, tid)
        for slot, piece in crane(g)["pieces"].items():
            if piece == c:
                crane(g)["pieces"][slot] = None
        move_card(g.rt, c, "tile_box")
    assert set(stations_of(g)) == {"s0", "s1", "s2", "s3"}
    run(g, f"emit dummy_turn(who={DUMMY})")
    assert done(g)
    assert var(g, "taken") == card(g, "at_4")  # s3, costs 1 gold the dummy has not got
    assert counter(g, "gold", DUMMY) == 0 and vp(g, DUMMY) == 0


def test_pcr_r130_dummy_turns_count_and_move_the_platform_and_the_era():
    g = plain(ready(1))
    hist = turn_ends(g, dummy=True)
    assert hist[-1][0] == 32 and hist[-1][1] == DUMMY  # 16 turns each, the dummy's last
    first_drop = drops(hist, 4)[0]
    assert first_drop == 10 and hist[first_drop - 1][1] == DUMMY
    assert first_era_two(hist) == 16 and hist[15][1] == DUMMY  # the star turn is a dummy turn
    assert vp(g, DUMMY) == 0


def test_pcr_r130_a_played_solo_game_gives_the_human_sixteen_turns():
    g = ready(1, seed=3)
    play_out(g)
    assert var(g, "turns_played") == 32
    assert var(g, "tech_turn", 0) == 16  # the human's own turns
    dummy_takes = [e for e in g.log if e.get("type") == "automated" and e.get("seat") == DUMMY]
    assert len(dummy_takes) == 16  # one decision per dummy turn


# ------------------------------------------------------------------ PCR-R131: the solo result
def test_pcr_r131_solo_result_is_the_humans_score():
    g = ready(1, seed=4)
    play_out(g)
    res = g.result
    assert res["scores"][0] == sum(res["parts"][0].values()) > 0
    dummy = res["parts"][DUMMY]
    assert all(v == 0 for k, v in dummy.items() if k != "rows")  # the dummy collects nothing
    assert res["winners"] == [0]


# ------------------------------------------------------------------ PCR-R132, R133: action tiles
def offered(g, seat=0):
    """{station: set of actions offered} for the tiles on the crane."""
    out = {}
    for _label, st, a in evaluate(g, f"tile_options({seat})"):
        out.setdefault(st, set()).add(a)
    return out


def everything_possible(g):
    set_goods(g, 0, gold=9, stone=9, egg=1)


@pytest.mark.parametrize("variants,side", [((), "a"), (("action_tiles_b",), "b")])
def test_pcr_r132_all_six_tiles_use_one_side(variants, side):
    g = plain(ready(3, variants=variants))
    everything_possible(g)
    got = offered(g)
    assert len(got) == 6
    for st, tid in stations_of(g).items():
        assert got[st] == set(g.program.types[tid][side]), (st, tid)
    diff = [tid for tid in stations_of(g).values() if set(g.program.types[tid]["a"]) != set(g.program.types[tid]["b"])]
    assert len(diff) >= 1  # the two sides can be told apart


def test_pcr_r132_side_b_action_is_performed():
    g = plain(ready(3, variants=("action_tiles_b",)))
    everything_possible(g)
    st, tid = next(
        (st, t)
        for st, t in stations_of(g).items()
        if "gold_mine" in g.program.types[t]["b"] and "gold_mine" not in g.program.types[t]["a"] and st in ("s5", "s6")
    )
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: gold_mine")
    assert prompt(g).startswith("Manage")
    act(g, "Gain 1 and add one")
    answer_all(g)
    assert track(g, 0, "gold_mine") == 5 and var(g, "tile_action") == "gold_mine"


def test_pcr_r133_random_action_order():
    default = [stations_of(ready(3, seed=s)) for s in (1, 2, 3)]
    assert default[0] == default[1] == default[2]  # without the variant: the fixed order
    orders = [stations_of(ready(3, seed=s, variants=("random_action_order",))) for s in (1, 2, 3, 4, 5)]
    for o in orders:
        assert set(o) == set(default[0])  # the same six notches
        assert sorted(o.values()) == sorted(default[0].values())
    assert any(o != default[0] for o in orders)
    assert len({tuple(sorted(o.items())) for o in orders}) > 1


# ------------------------------------------------------------------ PCR-R134, R135: King's Road tiles
KRT = ("kings_road_tiles",)


def enter_zone(z, variants, **goods_):
    """Seat 0 enters street zone z (from z - 1) with an era-I upgrade owned; returns the game, paused
    at the first decision (if any)."""
    g = plain(ready(3, variants=variants))
    set_goods(g, 0, **goods_)
    put(g, "u1_01", "upgrades", 0)
    set_var(g, "kr_zone", z - 1, 0)
    run(g, 'emit perform(who=0, action="kings_road", source="tile")')
    return g


def test_pcr_r134_zone_one_upgrades_replaced_egg_effect_kept():
    g = enter_zone(1, (), egg=1)
    assert vp(g, 0) == 3 and prompt(g).startswith("Zone I: pay 1 egg")
    g = enter_zone(1, KRT, egg=1)
    assert vp(g, 0) == 0 and prompt(g).startswith("Zone I: pay 1 egg")
    act(g, "Pay 1 egg: 1 gold window")
    assert done(g) and counter(g, "goldwin", 0) == 1 and counter(g, "egg", 0) == 0


def test_pcr_r134_zone_two_silver_windows_replaced_egg_effect_kept():
    g = enter_zone(2, (), egg=1, silver=2)
    assert vp(g, 0) == 4 and prompt(g).startswith("Zone II: pay 1 egg")
    g = enter_zone(2, KRT, egg=1, silver=2)
    assert vp(g, 0) == 0 and prompt(g).startswith("Zone II: pay 1 egg")
    act(g, "Pay 1 egg: a Hunger Wall sideways move")
    assert done(g) and counter(g, "hw_moves", 0) == 1


def test_pcr_r134_zone_three_gold_for_vp_replaced_egg_effect_kept():
    g = enter_zone(3, (), egg=1, gold=1)
    assert prompt(g).startswith("Zone III: pay 1 gold for 4 VP")
    g = enter_zone(3, KRT, egg=1, gold=1)
    assert prompt(g).startswith("Zone III: pay 1 egg")
    act(g, "No")
    assert done(g) and counter(g, "gold", 0) == 1 and vp(g, 0) == 0


def action_result(
    action, zones, variants=KRT, source="tile", times=1, seats=(0,), wanted=None, row=None, gold=9, stone=9
):
    """Each seat of ``seats`` (pawn in ``zones[seat]``, property bonuses already taken) performs ``action``
    ``times`` times; returns [(vp, gold, stone)] per seat. The same seed and answers in every call, so
    that two calls differ only by the pawns' zones."""
    g = plain(ready(3, variants=variants))
    if row:
        clear(g, "bld_row", to="out")
        for t in row:
            put(g, t, "bld_row")
    for s in seats:
        set_var(g, "kr_zone", zones[s], s)
        set_var(g, "props", [True, True, True], s)
    for s in seats:
        for _ in range(times):
            set_goods(g, s, gold=gold, stone=stone)
            run(g, f'emit perform(who={s}, action="{action}", source="{source}")')
            answer_all(g, wanted)
    return [(vp(g, s), counter(g, "gold", s), counter(g, "stone", s)) for s in seats]


def test_pcr_r134_upgrade_in_zone_one_gives_two_vp_and_gold_or_stone():
    base = action_result("upgrade", {0: 0}, gold=3, stone=3)[0]
    got = action_result("upgrade", {0: 1}, wanted={"King's Road tile": "1 stone"}, gold=3, stone=3)[0]
    assert got == (base[0] + 2, base[1], base[2] + 1)
    got = action_result("upgrade", {0: 1}, wanted={"King's Road tile": "1 gold"}, gold=3, stone=3)[0]
    assert got == (base[0] + 2, base[1] + 1, base[2])
    assert action_result("upgrade", {0: 1}, variants=(), gold=3, stone=3)[0] == base  # no tiles: nothing


def test_pcr_r134_upgrade_tile_choice_is_offered():
    g = plain(ready(3, variants=KRT))
    set_var(g, "kr_zone", 1, 0)
    set_goods(g, 0, gold=3, stone=3)
    run(g, 'emit perform(who=0, action="upgrade", source="tile")')
    while not prompt(g).startswith("King's Road tile"):
        g.answer(0)
    assert labels(g) == ["1 gold", "1 stone"]
    before = vp(g, 0)
    act(g, "1 stone")
    assert counter(g, "stone", 0) == 4 and vp(g, 0) == before


def test_pcr_r134_wall_in_zone_two_gives_two_vp():
    base = action_result("wall", {0: 1})[0]
    got = action_result("wall", {0: 2})[0]
    assert got[0] - base[0] == 2 and got[1:] == base[1:]
    assert action_result("wall", {0: 2}, variants=())[0] == action_result("wall", {0: 1}, variants=())[0]


def test_pcr_r134_building_without_cathedral_in_zone_three_gives_three_vp():
    crown = {"Take which building": "Building I-06"}  # no cathedral icon
    cath = {"Take which building": "Building I-07"}  # cathedral icon
    row = ("b1_06", "b1_07")
    g = plain(ready(3))
    assert not g.program.types["b1_06"]["cathedral"] and g.program.types["b1_07"]["cathedral"]
    base = action_result("building", {0: 2}, wanted=crown, row=row)[0]
    got = action_result("building", {0: 3}, wanted=crown, row=row)[0]
    assert got[0] - base[0] == 3
    base = action_result("building", {0: 2}, wanted=cath, row=row)[0]
    got = action_result("building", {0: 3}, wanted=cath, row=row)[0]
    assert got == base


def test_pcr_r135_every_player_in_the_zone_gets_the_tile_effect():
    base = action_result("wall", {0: 1, 1: 1, 2: 0}, seats=(0, 1, 2))
    got = action_result("wall", {0: 2, 1: 2, 2: 0}, seats=(0, 1, 2))
    assert [got[s][0] - base[s][0] for s in range(3)] == [2, 2, 0]


@pytest.mark.parametrize("source", ["extra", "tech"])
def test_pcr_r135_bought_and_technology_actions_count(source):
    base = action_result("wall", {0: 1}, source=source)[0]
    got = action_result("wall", {0: 2}, source=source)[0]
    assert got[0] - base[0] == 2


def test_pcr_r135_once_per_matching_action():
    base = action_result("wall", {0: 1}, times=2)[0]
    got = action_result("wall", {0: 2}, times=2)[0]
    assert got[0] - base[0] == 4
    other = action_result("gold_mine", {0: 2})[0]  # not the tile's action
    assert other == action_result("gold_mine", {0: 1})[0]


# ------------------------------------------------------------------ PCR-R136, R137: tier tiles
def default_cell(g, b, row, col):
    code = board(g, b)["rows"][row - 1].split()[col - 1]
    return int(code) if code.lstrip("-").isdigit() else code


def side_a(g, b, row, col):
    """Side A (2.14): the default cells shifted one column toward column 1; 'S' counts as '.', column 1
    goes to column 8, where a '>' becomes '.'."""
    c = default_cell(g, b, row, col + 1) if col < 8 else default_cell(g, b, row, 1)
    return "." if c == "S" or (col == 8 and c == ">") else c


def side_b(g, b, row, col):
    """Side B (2.14): every VP cell + 1."""
    c = default_cell(g, b, row, col)
    return c + 1 if isinstance(c, int) else c


SIDE = {None: default_cell, "a": side_a, "b": side_b}
CELL_FN = {"hunger_wall": "hw_cell", "cathedral": "cath_cell"}
# two games cover the four tier-tile variants, each staircase on a different side (PCR-R137: chosen
# independently)
COMBOS = {
    ("hunger_wall_tiers_a", "cathedral_tiers_b"): {"hunger_wall": "a", "cathedral": "b"},
    ("hunger_wall_tiers_b", "cathedral_tiers_a"): {"hunger_wall": "b", "cathedral": "a"},
}


def combo_for(b, side):
    return next(v for v, sides in COMBOS.items() if sides[b] == side)


def grid(g, b):
    return ev(g, f"[[{CELL_FN[b]}(r, c) for c in range(1, 9)] for r in range(1, 7)]")


@pytest.mark.parametrize("variants", list(COMBOS))
def test_pcr_r136_r137_tier_tiles_replace_every_row_of_their_staircase_only(variants):
    g = ready(3, variants=variants)
    base = ready(3)
    for b in ("hunger_wall", "cathedral"):
        side = COMBOS[variants][b]
        want = [[SIDE[side](g, b, r, c) for c in range(1, 9)] for r in range(1, 7)]  # all three tiers
        assert grid(g, b) == want, b
        assert grid(base, b) == [[default_cell(g, b, r, c) for c in range(1, 9)] for r in range(1, 7)]
        assert want != grid(base, b)


def landing_vp(b, row, col, variants=()):
    """VP seat 0 gains by one sideways move onto (row, col) of staircase b, and where it ends."""
    g = plain(ready(3, variants=variants))
    set_goods(g, 0, gold=9, stone=9)
    set_stair(g, 0, b, row, col - 1)
    run(g, f'emit sideways(who=0, stair="{b}")')
    answer_all(g, {"An up arrow": "Stay"})
    return vp(g, 0), stair(g, 0, b)


def vp_cells(g, b, fn):
    return [(r, c) for r in range(1, 7) for c in range(2, 9) if isinstance(fn(g, b, r, c), int)]


@pytest.mark.parametrize("b", ["hunger_wall", "cathedral"])
def test_pcr_r136_r137_side_b_landing_scores_one_more(b):
    g = ready(3)
    cells = vp_cells(g, b, default_cell)
    assert cells
    for row, col in cells:
        base, _ = landing_vp(b, row, col)
        got, pos = landing_vp(b, row, col, combo_for(b, "b"))
        assert base == default_cell(g, b, row, col)
        assert got == base + 1 and pos == [row, col], (row, col)


@pytest.mark.parametrize("b", ["hunger_wall", "cathedral"])
def test_pcr_r136_r137_side_a_landing_reads_the_shifted_cell(b):
    g = ready(3)
    cells = [(r, c) for r, c in vp_cells(g, b, side_a) if default_cell(g, b, r, c) == "."]
    assert cells
    for row, col in cells:
        base, _ = landing_vp(b, row, col)
        got, pos = landing_vp(b, row, col, combo_for(b, "a"))
        assert base == 0
        assert got == side_a(g, b, row, col) and pos == [row, col], (row, col)


def test_pcr_r136_r137_tier_tiles_keep_row_scores_and_column_values():
    results = []
    for v in [()] + list(COMBOS):
        g = plain(ready(3, variants=v))
        set_stair(g, 0, "hunger_wall", 4, 6)
        set_stair(g, 0, "cathedral", 5, 7)
        set_counter(g, "blue", 0, 2)
        set_counter(g, "red", 0, 3)
        p = score(g)["parts"][0]
        results.append((p["rows"], p["tokens"]))
    assert results[0] == results[1] == results[2]


# ------------------------------------------------------------------ PCR-R138: fixed bridge sides
def test_pcr_r138_fixed_bridge_sides_use_the_first_side():
    planks = ready(3).program.constants["plank_rewards"]
    first = [p[0] for p in planks]
    for seed in range(1, 6):
        assert var(ready(3, seed=seed, variants=("bridge_sides_fixed",)), "plank_sides") == first
    randomised = [var(ready(3, seed=seed), "plank_sides") for seed in range(1, 6)]
    assert any(s != first for s in randomised)  # the default draws a side per plank
    for s in randomised:
        assert all(s[i] in planks[i] for i in range(5))


ICON_COUNTER = {
    "gold": "gold",
    "stone": "stone",
    "silver_window": "silver",
    "gold_window": "goldwin",
    "egg": "egg",
    "red_token": "red",
    "blue_token": "blue",
    "hw_side": "hw_moves",
    "cath_side": "cath_moves",
}
ICON_TRACK = {"book": "technology", "cap": "university"}


def expected_gain(icons):
    """What a list of reward icons adds: {counter or track: amount}."""
    out = {}
    for i in icons:
        key = ICON_COUNTER.get(i) or ICON_TRACK.get(i) or ("vp" if i.startswith("vp") else None)
        assert key is not None, i
        out[key] = out.get(key, 0) + (int(i[2:]) if key == "vp" else 1)
    return out


def holdings(g, s):
    out = {k: counter(g, k, s) for k in set(ICON_COUNTER.values()) | {"vp"}}
    out.update({k: track(g, s, k) for k in ICON_TRACK.values()})
    return out


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_pcr_r138_the_covered_plank_pays_its_first_side(k):
    g = plain(ready(3, seed=3, variants=("bridge_sides_fixed",)))
    first = g.program.constants["plank_rewards"][k - 1][0]
    before = holdings(g, 0)
    c = card(g, "iv_1")  # hw_side + silver window + 2 VP (exact)
    run(g, f"emit bridge_tile(who=0, tile={c})")
    act(g, str(k))
    answer_all(g)
    want = expected_gain(first + ["hw_side", "silver_window", "vp2"])
    after = holdings(g, 0)
    assert {x: after[x] - before[x] for x in after if after[x] != before[x]} == want
    assert var(g, "plank_tiles")[k - 1] == c
