"""Amritsar: The Golden Temple: worker movement (sowing), the activated worker's actions, step 3 and
follow actions (GTA-R46 .. GTA-R70, GTA-R219) and the worked examples GTA-X2, GTA-X3, GTA-X4."""

from __future__ import annotations

from gt_support import (
    PLACES,
    act,
    clear,
    done,
    goods,
    knowledge,
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
    set_goods,
    set_knowledge,
    set_ring,
    set_var,
    var,
    warehouse,
    zone,
)
from scenario import run_phase

PICK = "Take the workers of which workplace?"
DROP = "Leave which worker on the next workplace, {}?"  # the workplace named (issue 30)
LAND = "Where does the last worker land?"
WINDOW = "Choose an action"
MAIN = "Main action of a district tile"
SECONDARY = "Secondary action of the same tile (worker of its colour)"
ELEPHANT = "Activate the elephant (one more action)"
FOLLOW = "Follow the activated worker's colour with your mahout tile?"
MOVE = "Move your elephant?"
MAIN_TILE = "Main action: which district tile?"


# ------------------------------------------------------------------ helpers (this file only)
def prev_place(p):
    return PLACES[(PLACES.index(p) - 1) % len(PLACES)]


def workers(g, p):
    return list(ring(g)["pieces"][p])


def coins_on(g, p):
    return ring(g)["tokens"][p]["coins"]


def total_workers(g):
    return sum(len(v) for v in ring(g)["pieces"].values())


def big_storage(g, s):
    """Storage 4 + 3 + 3 = 10 spaces (two one-time tiles laid directly: their rewards are not paid)."""
    warehouse(g, s, "wh01")
    warehouse(g, s, "wh02")


def only_slots(g, s, **by_colour):
    """Seat s's mahout slots hold exactly these tiles (colour=type id); the rest wait beside the board."""
    clear(g, "mahout_slots", s, to=f"mahouts/{s}")
    for colour, t in by_colour.items():
        mahout(g, s, t, colour)


def sow_game(players=3, pieces=None, coins=None, money=0, start=0):
    g = ready(players)
    plain(g, start=start)
    set_ring(g, pieces or {}, coins)
    set_goods(g, 0, coins=money)
    return g


def to_window(g, worker="white", dest="w2", seat=0, elephant=None, tiles=None, slots=None):
    """Run seat ``seat``'s turn up to its action window: a lone ``worker`` is sown onto ``dest`` (the
    elephant stays on ``elephant``, by default a district away from the action district)."""
    district = {"n": "north", "e": "east", "s": "south", "w": "west"}[dest[0]]
    set_ring(g, {prev_place(dest): [worker]})
    if tiles:
        place_tiles(g, district, tiles)
    put_elephant(g, seat, elephant or ("north" if district != "north" else "south"))
    for s in range(g.state["n"]):
        if slots is None or s in slots:
            only_slots(g, s, **((slots or {}).get(s, {})))
    run(g, f"emit player_turn(who={seat})")
    assert prompt(g) == MOVE
    act(g, "stay")
    if prompt(g).startswith(LAND):
        act(g, labels(g)[0])  # the natural landing
    # the action window (a window whose only action is the main action opens it at once)
    assert prompt(g) in (WINDOW, MAIN_TILE), prompt(g)
    assert var(g, "act_worker") == worker and var(g, "act_place") == dest
    return g


def main(g, tile):
    """Take the main action on ``tile`` (a tile name) from the action window."""
    if prompt(g) == WINDOW:
        act(g, MAIN)
    if prompt(g) == MAIN_TILE:
        act(g, tile)


# ------------------------------------------------------------------ GTA-R46 .. R56, R219: sowing
def test_gta_r46_ring_is_clockwise_and_wraps_from_w2_to_n1():
    g = sow_game()
    assert g.program.boards["workplaces"]["places"] == ["n1", "n2", "e1", "e2", "s1", "s2", "w1", "w2"]
    set_ring(g, {"w2": ["yellow", "blue", "green"]})
    run(g, "emit sow(who=0)")
    act(g, "yellow")
    act(g, "blue")
    assert done(g)
    assert workers(g, "n1") == ["yellow"] and workers(g, "n2") == ["blue"] and workers(g, "e1") == ["green"]
    assert workers(g, "w2") == []
    assert var(g, "act_district") == "east"


def test_gta_r46_r50_full_workplace_of_four_is_passed_free():
    g = sow_game(pieces={"n1": ["yellow", "blue"], "n2": ["green"] * 4}, money=3)
    run(g, "emit sow(who=0)")
    act(g, "North 1")
    act(g, "yellow")  # the first worker passes the full n2
    assert workers(g, "e1") == ["yellow"] and len(workers(g, "n2")) == 4
    # the last worker's skip choices: passing a full workplace costs nothing either
    assert labels(g)[:2] == ["East 2", "South 1 (skip 1, pay 1)"]
    act(g, "East 2")
    assert len(workers(g, "n2")) == 4 and coins_on(g, "n2") == 0
    assert goods(g, 0)["coins"] == 3


def test_gta_r46_a_workplace_holds_any_number_of_coins():
    g = sow_game(pieces={"n1": ["yellow"], "n2": ["green"]}, coins={"n2": 9}, money=1)
    big_storage(g, 0)
    run(g, "emit sow(who=0)")
    act(g, "North 1")
    act(g, "East 1 (skip 1, pay 1)")  # skipping n2 adds a tenth coin
    assert coins_on(g, "n2") == 10 and workers(g, "n2") == ["green"]
    run(g, "emit sow(who=0)")
    act(g, "North 2")
    assert goods(g, 0)["coins"] == 10 and coins_on(g, "n2") == 0


def test_gta_r46_r48_coins_on_the_picked_workplace_all_taken():
    g = sow_game(pieces={"n1": ["yellow"], "e1": ["blue"], "n2": ["green"]}, coins={"n2": 7}, money=1)
    big_storage(g, 0)
    run(g, "emit sow(who=0)")
    act(g, "North 2")
    assert goods(g, 0)["coins"] == 8 and coins_on(g, "n2") == 0


def test_gta_r47_must_take_a_workplace_with_workers_and_takes_all():
    g = sow_game(pieces={"n1": ["yellow", "blue", "white"], "s2": ["green"], "w1": ["blue"]})
    run(g, "emit sow(who=0)")
    assert prompt(g) == PICK
    assert labels(g) == [
        "North 1 (3 workers; the last lands on East 2, east district)",
        "South 2 (1 worker; the last lands on West 1, west district)",
        "West 1 (1 worker; the last lands on West 2, west district)",
    ]  # only workplaces with workers; no pass; where the last worker lands (issue 30)
    act(g, "North 1")
    assert workers(g, "n1") == []
    assert sorted(ring(g)["held"]) == ["blue", "white", "yellow"]


def test_gta_r47_worker_movement_is_mandatory_in_the_turn():
    g = sow_game(pieces={"n1": ["yellow"], "s1": ["green"]})
    put_elephant(g, 0, "north")
    run(g, "emit player_turn(who=0)")
    act(g, "stay")  # step 1 is optional ...
    assert prompt(g) == PICK and labels(g) == [
        "North 1 (1 worker; the last lands on North 2, north district)",
        "South 1 (1 worker; the last lands on South 2, south district)",
    ]  # ... step 2 offers no way out


def test_gta_r48_coins_taken_at_pick_up_before_sowing():
    g = sow_game(pieces={"e1": ["blue", "white"]}, coins={"e1": 2}, money=1)
    run(g, "emit sow(who=0)")
    assert prompt(g) == DROP.format("East 2")  # still sowing
    assert goods(g, 0)["coins"] == 3 and coins_on(g, "e1") == 0


def test_gta_r49_one_worker_per_following_workplace_colour_chosen_each_time():
    g = sow_game(pieces={"n1": ["yellow", "blue", "green", "green"]})
    run(g, "emit sow(who=0)")
    assert prompt(g) == DROP.format("North 2") and labels(g) == ["yellow", "blue", "green"]
    act(g, "green")
    assert workers(g, "n2") == ["green"]
    assert prompt(g) == DROP.format("East 1") and labels(g) == ["yellow", "blue", "green"]
    act(g, "blue")
    assert workers(g, "e1") == ["blue"]
    act(g, "green")
    assert done(g)
    assert workers(g, "e2") == ["green"] and workers(g, "s1") == ["yellow"]
    assert [len(workers(g, p)) for p in PLACES] == [0, 1, 1, 1, 1, 0, 0, 0]
    assert var(g, "act_worker") == "yellow"


def test_gta_r51_last_worker_is_activated_and_its_district_acts():
    g = sow_game(pieces={"e2": ["white", "blue"], "s2": ["yellow", "yellow"]})
    run(g, "emit sow(who=0)")
    act(g, "East 2")
    act(g, "white")
    assert workers(g, "s1") == ["white"]
    assert workers(g, "s2") == ["yellow", "yellow", "blue"]
    assert var(g, "act_worker") == "blue" and var(g, "act_place") == "s2"
    assert var(g, "act_district") == "south"


def test_gta_r51_each_workplace_belongs_to_its_district():
    expected = {
        "n1": "north",
        "n2": "north",
        "e1": "east",
        "e2": "east",
        "s1": "south",
        "s2": "south",
        "w1": "west",
        "w2": "west",
    }
    for dest, district in expected.items():
        g = sow_game(pieces={prev_place(dest): ["green"]})
        run(g, "emit sow(who=0)")
        assert done(g) and var(g, "act_place") == dest
        assert var(g, "act_district") == district


def test_gta_r52_deliberate_skip_pays_one_coin_per_skipped_workplace():
    g = sow_game(pieces={"n1": ["yellow"]}, money=3)
    run(g, "emit sow(who=0)")
    assert prompt(g).startswith(LAND)
    act(g, "East 2 (skip 2, pay 2)")
    assert workers(g, "e2") == ["yellow"] and workers(g, "n2") == [] and workers(g, "e1") == []
    assert coins_on(g, "n2") == 1 and coins_on(g, "e1") == 1
    assert goods(g, 0)["coins"] == 1
    assert var(g, "act_district") == "east"


def test_gta_r52_skip_the_player_cannot_pay_is_not_offered():
    g = sow_game(pieces={"n1": ["yellow"]}, money=1)
    run(g, "emit sow(who=0)")
    assert labels(g) == ["North 2", "East 1 (skip 1, pay 1)"]
    g = sow_game(pieces={"n1": ["yellow"]}, money=0)
    run(g, "emit sow(who=0)")
    assert done(g) and workers(g, "n2") == ["yellow"]  # no coin: the natural landing only


def test_gta_r52_wh09_waives_one_skip_payment():
    g = sow_game(pieces={"n1": ["yellow"]}, money=1)
    warehouse(g, 0, "wh09")
    run(g, "emit sow(who=0)")
    assert labels(g) == ["North 2", "East 1 (skip 1, pay 0)", "East 2 (skip 2, pay 1)"]
    act(g, "East 2")
    assert goods(g, 0)["coins"] == 0
    assert coins_on(g, "n2") + coins_on(g, "e1") == 1


def test_gta_r53_only_the_last_worker_may_be_carried_past():
    g = sow_game(pieces={"n1": ["yellow", "blue", "white"]}, money=5)
    run(g, "emit sow(who=0)")
    act(g, "white")
    assert prompt(g) == DROP.format("East 1")  # an earlier worker: no landing choice
    act(g, "blue")
    assert workers(g, "n2") == ["white"] and workers(g, "e1") == ["blue"]
    assert prompt(g).startswith(LAND)  # only the last one may skip
    act(g, "South 1 (skip 1, pay 1)")
    assert workers(g, "s1") == ["yellow"] and coins_on(g, "e2") == 1


def test_gta_r219_landings_are_natural_or_next_seven_non_full():
    g = sow_game(pieces={"n1": ["yellow"], "e2": ["blue"] * 4, "w1": ["green"] * 4, "s1": ["white"] * 3}, money=8)
    big_storage(g, 0)
    run(g, "emit sow(who=0)")
    act(g, "North 1")
    assert labels(g) == [
        "North 2",
        "East 1 (skip 1, pay 1)",
        "South 1 (skip 2, pay 2)",
        "South 2 (skip 3, pay 3)",
        "West 2 (skip 4, pay 4)",
        "North 1 (skip 5, pay 5)",
    ]
    # never a whole lap: North 2 is not offered again after paying for the round


def test_gta_r219_r55_emptied_start_workplace_can_be_the_landing():
    g = sow_game(pieces={"n1": ["yellow"], "e2": ["blue"] * 4, "w1": ["green"] * 4, "s1": ["white"] * 3}, money=8)
    big_storage(g, 0)
    run(g, "emit sow(who=0)")
    act(g, "North 1")
    act(g, "North 1")
    assert workers(g, "n1") == ["yellow"] and var(g, "act_district") == "north"
    assert {p: coins_on(g, p) for p in PLACES} == {
        "n1": 0,
        "n2": 1,
        "e1": 1,
        "e2": 0,
        "s1": 1,
        "s2": 1,
        "w1": 0,
        "w2": 1,
    }
    assert goods(g, 0)["coins"] == 3


def test_gta_r55_start_workplace_is_sown_like_any_other():
    # the sowing reaches the emptied workplace again when the last worker is carried round to it
    g = sow_game(
        pieces={"w1": ["yellow", "blue", "green"], "w2": ["white"], "n1": ["blue"] * 4, "n2": ["green"] * 4}, money=3
    )
    run(g, "emit sow(who=0)")
    act(g, "West 1")
    act(g, "yellow")
    act(g, "blue")
    assert workers(g, "w2") == ["white", "yellow"] and workers(g, "e1") == ["blue"]
    assert "West 1 (skip 3, pay 3)" in labels(g)
    act(g, "West 1")
    assert workers(g, "w1") == ["green"] and total_workers(g) == 12
    assert var(g, "act_district") == "west"


def test_gta_r54_coins_on_the_landing_workplace_are_taken():
    g = sow_game(pieces={"n1": ["yellow", "blue"]}, coins={"e1": 2, "e2": 3}, money=1)
    big_storage(g, 0)
    run(g, "emit sow(who=0)")
    act(g, "yellow")
    act(g, "East 2 (skip 1, pay 1)")  # e1's 2 coins stay (+1 paid), e2's 3 taken
    assert coins_on(g, "e1") == 3 and coins_on(g, "e2") == 0
    assert goods(g, 0)["coins"] == 3


def test_gta_r54_natural_landing_coins_taken_too():
    g = sow_game(pieces={"n1": ["yellow"]}, coins={"n2": 2})
    run(g, "emit sow(who=0)")
    assert done(g) and goods(g, 0)["coins"] == 2 and coins_on(g, "n2") == 0


def test_gta_r56_activated_worker_is_recorded_not_read_from_the_workplace():
    g = ready(3)
    plain(g)
    set_ring(g, {"w1": ["white"], "w2": ["yellow", "yellow"]})
    place_tiles(g, "west", ["dt_y1", "dt_w2", "dt_b1"])
    put_elephant(g, 0, "north")
    for s in range(3):
        only_slots(g, s)
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    act(g, "West 1")
    assert workers(g, "w2") == ["yellow", "yellow", "white"]
    assert var(g, "act_worker") == "white"
    act(g, SECONDARY)  # the white tile, not the yellow one
    assert knowledge(g, 0, "resources") == 1 and knowledge(g, 0, "research") == 0
    main(g, "White tile 2")  # dt_w2 (mahout_any): no mahout tile, nothing
    assert done(g)
    assert var(g, "last_colour") == "white" and var(g, "act_district") is None


# ------------------------------------------------------------------ GTA-R57 .. R64: the worker's actions
def test_gta_r57_main_action_is_compulsory_one_of_the_three_tiles():
    g = to_window(plain(ready(3)), "white", "s1", tiles=["dt_y1", "dt_b1", "dt_w1"])
    assert labels(g) == [MAIN, SECONDARY]  # no "End turn" before the main action
    act(g, MAIN)
    assert labels(g) == ["Yellow tile 1", "Blue tile 1", "White tile 1"]
    act(g, "Yellow tile 1")
    assert goods(g, 0)["marble"] == 2


def test_gta_r57_main_action_resolved_as_far_as_possible():
    g = to_window(plain(ready(3)), "green", "s1", elephant="south", tiles=["dt_y3", "dt_b1", "dt_w1"])
    main(g, "Yellow tile 3")  # upgrade, but nothing to pay with
    assert prompt(g) == WINDOW and "End turn" in labels(g)
    assert zone(g, "warehouse_slots", 0) == [] and len(zone(g, "objective_slots", 0)) == 1


def test_gta_r58_both_workplaces_of_a_district_give_the_same_tiles():
    seen = []
    for dest in ("n1", "n2"):
        g = to_window(plain(ready(3)), "green", dest, tiles=["dt_y2", "dt_b2", "dt_g3"])
        act(g, MAIN)  # (a green worker: a secondary is possible)
        seen.append(labels(g))
    assert seen[0] == seen[1] == ["Yellow tile 2", "Blue tile 2", "Green tile 3"]


def test_gta_r59_main_action_whatever_the_worker_colour():
    g = to_window(plain(ready(3)), "yellow", "e2", tiles=["dt_b1", "dt_w1", "dt_g1"])
    assert prompt(g) == MAIN_TILE
    assert labels(g) == ["Blue tile 1", "White tile 1", "Green tile 1"]  # no yellow tile here
    act(g, "Green tile 1")
    assert goods(g, 0)["gold"] == 1


def test_gta_r60_secondary_only_with_a_worker_of_the_tile_colour():
    g = to_window(plain(ready(3)), "blue", "e1", tiles=["dt_b1", "dt_w1", "dt_g1"])
    act(g, MAIN)
    act(g, "Blue tile 1")
    assert SECONDARY in labels(g)
    act(g, SECONDARY)
    assert goods(g, 0)["copper"] == 1 and knowledge(g, 0, "resources") == 1
    # a main action on a tile of another colour leaves no secondary action
    g = to_window(plain(ready(3)), "blue", "e1", tiles=["dt_b1", "dt_w1", "dt_g1"])
    act(g, MAIN)
    act(g, "Green tile 1")
    assert done(g)  # no secondary: the window closes
    assert knowledge(g, 0, "research") + knowledge(g, 0, "resources") + knowledge(g, 0, "income") == 0


def test_gta_r60_no_secondary_when_no_tile_matches():
    g = to_window(plain(ready(3)), "yellow", "e1", tiles=["dt_b1", "dt_w1", "dt_g1"])
    assert prompt(g) == MAIN_TILE  # the main action was the only one offered
    main(g, "White tile 1")
    act(g, "1 copper")
    assert done(g) and knowledge(g, 0, "income") == 0


def test_gta_r61_elephant_in_action_district_gives_one_more_main_action():
    g = to_window(plain(ready(3)), "yellow", "w1", elephant="west", tiles=["dt_b1", "dt_g1", "dt_w1"])
    assert ELEPHANT in labels(g)
    act(g, MAIN)
    act(g, "Green tile 1")
    act(g, ELEPHANT)
    assert labels(g) == ["Blue tile 1", "Green tile 1", "White tile 1"]  # no mahout tile on the board
    act(g, "Green tile 1")  # the tile already chosen is allowed
    assert goods(g, 0)["gold"] == 2
    assert done(g)


def test_gta_r61_elephant_may_use_a_mahout_tile_of_any_slot_colour():
    g = to_window(
        plain(ready(3)),
        "yellow",
        "w1",
        elephant="west",
        tiles=["dt_b1", "dt_g1", "dt_w1"],
        slots={0: {"green": "mh_coin_pp"}},
    )
    act(g, ELEPHANT)
    act(g, "Mahout: 1 coin + 1 PP")
    assert goods(g, 0)["coins"] == 1 and pp(g, 0) == 11


def test_gta_r61_no_elephant_action_when_the_elephant_is_elsewhere():
    g = to_window(plain(ready(3)), "white", "w1", elephant="south", tiles=["dt_b1", "dt_g1", "dt_w1"])
    assert ELEPHANT not in labels(g)
    act(g, MAIN)
    act(g, "Blue tile 1")
    assert ELEPHANT not in labels(g)


def test_gta_r62_secondary_may_come_before_the_main_action():
    g = to_window(plain(ready(3)), "white", "w2", tiles=["dt_b1", "dt_g1", "dt_w3"])
    act(g, SECONDARY)  # dt_w3 secondary: 2 marble
    # the main action follows at once on the same tile: dt_w3's upgrade (only a warehouse is payable,
    # with 1 of the 2 marble the secondary just gave)
    assert prompt(g) == "Take which warehouse tile?"
    assert goods(g, 0)["marble"] == 1
    act(g, labels(g)[0])
    assert len(zone(g, "warehouse_slots", 0)) == 1
    assert done(g)


def test_gta_r63_elephant_never_between_main_and_secondary():
    g = to_window(plain(ready(3)), "white", "w2", elephant="west", tiles=["dt_b1", "dt_g1", "dt_w1"])
    act(g, MAIN)
    act(g, "White tile 1")
    act(g, "2 marble")
    assert ELEPHANT in labels(g) and SECONDARY in labels(g)
    act(g, ELEPHANT)
    act(g, "Blue tile 1")
    assert done(g)  # the worker's actions are closed
    assert goods(g, 0) == {"coins": 0, "marble": 2, "copper": 1, "gold": 0}
    assert knowledge(g, 0, "income") == 0


def test_gta_r63_no_elephant_after_secondary_before_main():
    g = to_window(plain(ready(3)), "white", "w2", elephant="west", tiles=["dt_b1", "dt_g1", "dt_w1"])
    act(g, SECONDARY)
    assert knowledge(g, 0, "income") == 1
    # no window between: the main action (the only one offered) runs on dt_w1 at once
    assert prompt(g) == "2 marble or 1 copper?"
    act(g, "1 copper")
    assert labels(g) == [ELEPHANT, "End turn"]  # after both, the elephant may act


def test_gta_r63_elephant_first_then_both_worker_actions():
    g = to_window(plain(ready(3)), "white", "w2", elephant="west", tiles=["dt_b1", "dt_g1", "dt_w1"])
    act(g, ELEPHANT)
    act(g, "Blue tile 1")
    assert set(labels(g)) == {MAIN, SECONDARY}
    act(g, MAIN)
    act(g, "White tile 1")
    act(g, "1 copper")
    act(g, SECONDARY)
    assert goods(g, 0)["copper"] == 2 and knowledge(g, 0, "income") == 1


def test_gta_r64_secondary_and_elephant_are_optional():
    g = to_window(plain(ready(3)), "white", "w2", elephant="west", tiles=["dt_b1", "dt_g1", "dt_w1"])
    act(g, MAIN)
    act(g, "Blue tile 1")
    assert "End turn" in labels(g) and ELEPHANT in labels(g) and SECONDARY not in labels(g)
    act(g, "End turn")
    assert done(g) and goods(g, 0)["copper"] == 1


# ------------------------------------------------------------------ GTA-R65: step 3
def test_gta_r65_unlocked_token_gives_a_second_move_before_follows():
    g = plain(ready(3))
    set_var(g, "token", "unlocked", 0)
    set_goods(g, 0, coins=2)
    g = to_window(
        g,
        "white",
        "w2",
        elephant="west",
        tiles=["dt_b1", "dt_g1", "dt_w1"],
        slots={0: {}, 1: {"white": "mh_coin_pp"}, 2: {}},
    )
    act(g, MAIN)
    act(g, "Blue tile 1")
    act(g, "End turn")
    assert prompt(g) == MOVE and g.pending["seat"] == 0  # step 3 before the follow actions
    assert [x for x in labels(g) if x.startswith("move to east")] == [
        "move to east (2 steps, 1 coin, passes the Maharaja: -1 PP)"
    ]  # the rules of step 1
    act(g, "move to east")
    assert g.state["boards"]["paths"]["pawns"]["0"] == "east"
    assert goods(g, 0)["coins"] == 1 and pp(g, 0) == 9
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1  # no further action for the move
    assert goods(g, 0)["copper"] == 1


def test_gta_r65_no_step_three_with_a_locked_token():
    g = to_window(
        plain(ready(3)),
        "white",
        "w2",
        elephant="west",
        tiles=["dt_b1", "dt_g1", "dt_w1"],
        slots={0: {}, 1: {"white": "mh_coin_pp"}, 2: {}},
    )
    act(g, MAIN)
    act(g, "Blue tile 1")
    act(g, "End turn")
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1


# ------------------------------------------------------------------ GTA-R66 .. R70: follow actions
def _end_worker_turn(g, tile="Blue tile 1"):
    main(g, tile)
    if g.pending and prompt(g) == WINDOW:
        act(g, "End turn")


def test_gta_r66_r67_follow_in_clockwise_order_from_the_left():
    g = plain(ready(4), start=0)
    for s in range(4):
        only_slots(g, s, yellow="mh_coin_pp")
    g = to_window(g, "yellow", "e1", seat=1, tiles=["dt_b1", "dt_g1", "dt_w1"], slots={})
    _end_worker_turn(g)
    order = []
    while g.pending and prompt(g) == FOLLOW:
        order.append(g.pending["seat"])
        act(g, "Follow")
    assert order == [2, 3, 0]
    assert [goods(g, s)["coins"] for s in range(4)] == [1, 0, 1, 1]
    assert pp(g, 1) == 13


def test_gta_r67_slot_colour_must_match_the_activated_worker():
    slots = {0: {}, 1: {"blue": "mh_coin_pp"}, 2: {"white": "mh_coin_pp"}}
    g = to_window(plain(ready(3)), "white", "e1", tiles=["dt_b1", "dt_g1", "dt_w1"], slots=slots)
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 2  # seat 1 has no white tile: not asked
    act(g, "Follow")
    assert done(g)


def test_gta_r67_follow_needs_an_action_that_can_be_carried_out():
    slots = {0: {}, 1: {"white": "mh_i"}, 2: {"white": "mh_market"}}
    g = to_window(plain(ready(3)), "white", "e1", tiles=["dt_b1", "dt_g1", "dt_w1"], slots=slots)
    _end_worker_turn(g)
    assert done(g)  # no resources, no coins: nobody may follow
    g = to_window(plain(ready(3)), "white", "e1", tiles=["dt_b1", "dt_g1", "dt_w1"], slots=slots)
    set_goods(g, 2, coins=2)  # now seat 2 can buy
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 2


def test_gta_r68_active_player_gains_one_pp_per_follower():
    slots = {0: {}, 1: {"green": "mh_any"}, 2: {"green": "mh_coin_pp"}}
    g = to_window(plain(ready(3)), "green", "e1", tiles=["dt_b1", "dt_y1", "dt_w1"], slots=slots)
    _end_worker_turn(g)
    act(g, "Follow")  # seat 1
    act(g, "gold")
    act(g, "Decline")  # seat 2
    assert done(g)
    assert pp(g, 0) == 11 and pp(g, 1) == 10 and pp(g, 2) == 10
    assert goods(g, 1)["gold"] == 1 and goods(g, 2)["coins"] == 0


def test_gta_r68_follow_that_trades_nothing_pays_no_pp():
    slots = {0: {}, 1: {"green": "mh_market"}, 2: {}}
    g = to_window(plain(ready(3)), "green", "e1", tiles=["dt_b1", "dt_y1", "dt_w1"], slots=slots)
    set_goods(g, 1, coins=3)
    _end_worker_turn(g)
    act(g, "Follow")
    act(g, "stop trading")
    assert done(g) and pp(g, 0) == 10


def test_gta_r68_knowledge_follow_pays_even_when_the_step_reached_grants_an_impossible_upgrade():
    # the step reached grants an upgrade the follower cannot pay (no resources): the marker still moved,
    # so the follow was carried out and the active player gains 1 PP (seed 3070, 3 players, greedy)
    slots = {0: {}, 1: {"white": "mh_k"}, 2: {}}
    g = to_window(plain(ready(3)), "white", "e1", tiles=["dt_b1", "dt_g1", "dt_y1"], slots=slots)
    steps = g.program.boards["knowledge"]["tracks"]["research"]["steps"]
    paid_upgrade = next(i for i, x in enumerate(steps) if x.get("reward") == "upgrade")
    set_knowledge(g, 1, "research", paid_upgrade - 1)  # the next research step grants a paid upgrade
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1
    act(g, "Follow")
    act(g, "research")
    assert done(g)
    assert knowledge(g, 1, "research") == paid_upgrade and goods(g, 1)["coins"] == 0
    assert pp(g, 0) == 11


def voided_follow(variants=()):
    """P2 (wh13, 1 marble, elephant on an empty board) follows white with mh_i, then exchanges the
    marble for copper: the donation it accepted can no longer be made."""
    slots = {0: {}, 1: {"white": "mh_i"}, 2: {}}
    g = plain(ready(3, variants=variants))
    warehouse(g, 1, "wh13")
    g = to_window(g, "white", "e1", tiles=["dt_b1", "dt_g1", "dt_y1"], slots=slots)
    set_goods(g, 1, marble=1)
    put_elephant(g, 1, "east")
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1
    act(g, "Follow")
    act(g, "Exchange")
    assert goods(g, 1)["copper"] == 1  # "marble for copper", the only exchange, made by itself
    assert done(g)
    assert all(o is None for o in owners(g, "east").values())  # no donation
    return g


def test_gta_r68_follow_voided_by_the_followers_own_wh13_exchange_pays_nothing():
    assert pp(voided_follow(), 0) == 10


def test_gta_r68_follow_pays_on_accept_variant_pays_voided_and_tradeless_follows():
    assert pp(voided_follow(("follow_pays_on_accept",)), 0) == 11
    slots = {0: {}, 1: {"green": "mh_market"}, 2: {}}
    g = plain(ready(3, variants=("follow_pays_on_accept",)))
    g = to_window(g, "green", "e1", tiles=["dt_b1", "dt_y1", "dt_w1"], slots=slots)
    set_goods(g, 1, coins=3)
    _end_worker_turn(g)
    act(g, "Follow")
    act(g, "stop trading")
    assert done(g) and pp(g, 0) == 11


def test_gta_r69_active_players_swap_tile_never_changes_the_follow_colour():
    slots = {0: {}, 1: {"blue": "mh_coin_marble"}, 2: {"white": "mh_coin_pp"}}
    g = plain(ready(3))
    warehouse(g, 0, "wh05")  # blue counts as white for P1's secondary
    g = to_window(g, "blue", "e1", tiles=["dt_y1", "dt_g1", "dt_w1"], slots=slots)
    act(g, MAIN)
    act(g, "White tile 1")
    act(g, "2 marble")
    act(g, SECONDARY)  # the swap works for the secondary ...
    assert knowledge(g, 0, "income") == 1
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1  # ... but the follow colour stays blue
    act(g, "Follow")
    assert goods(g, 1) == {"coins": 1, "marble": 1, "copper": 0, "gold": 0}
    assert done(g)  # P3 (white tile only) is not asked
    assert pp(g, 0) == 11


def test_gta_r69_followers_swap_tile_never_changes_the_follow_colour():
    slots = {0: {}, 1: {"white": "mh_coin_pp"}, 2: {"blue": "mh_coin_pp"}}
    g = plain(ready(3))
    warehouse(g, 2, "wh05")  # P3's white would count as blue
    g = to_window(g, "white", "e1", tiles=["dt_y1", "dt_g1", "dt_b1"], slots=slots)
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1
    act(g, "Follow")
    assert done(g) and goods(g, 2)["coins"] == 0  # P3 is not asked


def test_gta_r70_after_the_follows_the_next_player_begins():
    g = plain(ready(3), start=0)
    set_ring(g, {"e2": ["green"], "n1": ["yellow"]})
    place_tiles(g, "south", ["dt_b1", "dt_y1", "dt_w1"])
    for s, slot in ((0, {}), (1, {"green": "mh_coin_pp"}), (2, {"green": "mh_coin_pp"})):
        only_slots(g, s, **slot)
    for s in range(3):
        put_elephant(g, s, "north")
    run_phase(g, "turns")
    act(g, "stay")
    act(g, "East 2")
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 1
    act(g, "Decline")
    assert prompt(g) == FOLLOW and g.pending["seat"] == 2
    act(g, "Follow")
    assert prompt(g) == MOVE and g.pending["seat"] == 1  # P2's turn begins
    assert var(g, "active") == 1 and var(g, "act_district") is None
    assert pp(g, 0) == 11


# ------------------------------------------------------------------ worked examples
def test_gta_x2_sowing_with_full_workplace_paid_skip_and_coins():
    g = sow_game(
        pieces={
            "e1": ["blue", "white"],
            "e2": ["yellow", "yellow", "green", "green"],
            "w1": ["blue", "white", "green", "yellow"],
            "s2": ["yellow"],
            "n1": ["blue"],
        },
        coins={"e1": 1},
        money=2,
    )
    assert total_workers(g) == 12
    run(g, "emit sow(who=0)")
    act(g, "East 1")
    assert goods(g, 0)["coins"] == 3  # E1's coin
    act(g, "blue")
    assert workers(g, "s1") == ["blue"] and len(workers(g, "e2")) == 4  # E2 passed free
    act(g, "West 2 (skip 1, pay 1)")
    assert done(g)
    assert goods(g, 0)["coins"] == 2
    assert coins_on(g, "s2") == 1 and workers(g, "s2") == ["yellow"]
    assert coins_on(g, "e2") == 0 and coins_on(g, "w1") == 0 and len(workers(g, "w1")) == 4
    assert workers(g, "w2") == ["white"] and workers(g, "e1") == []
    assert var(g, "act_worker") == "white" and var(g, "act_district") == "west"
    assert total_workers(g) == 12


def _x3(g):
    g = plain(g)
    set_ring(
        g,
        {
            "e1": ["blue", "white"],
            "e2": ["yellow", "yellow", "green", "green"],
            "w1": ["blue", "white", "green", "yellow"],
            "s2": ["yellow"],
            "n1": ["blue"],
        },
        {"e1": 1},
    )
    set_goods(g, 0, coins=2)
    warehouse(g, 0, "wh10")  # storage 4 + 3 = 7 spaces
    place_tiles(g, "west", ["dt_b1", "dt_g1", "dt_w1"])
    put_elephant(g, 0, "west")
    for s in range(3):
        only_slots(g, s)
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    act(g, "East 1")
    act(g, "blue")
    act(g, "West 2 (skip 1, pay 1)")
    assert prompt(g) == WINDOW and goods(g, 0)["coins"] == 2 and knowledge(g, 0, "income") == 0
    return g


def test_gta_x3_elephant_first_then_main_and_secondary():
    g = _x3(ready(3))
    act(g, ELEPHANT)
    act(g, "Green tile 1")
    act(g, MAIN)
    act(g, "White tile 1")
    act(g, "2 marble")
    act(g, SECONDARY)
    assert done(g)
    assert knowledge(g, 0, "income") == 1
    assert goods(g, 0) == {"coins": 3, "marble": 2, "copper": 0, "gold": 1}


def test_gta_x3_main_then_elephant_then_secondary_is_refused():
    g = _x3(ready(3))
    act(g, MAIN)
    act(g, "White tile 1")
    act(g, "2 marble")
    act(g, ELEPHANT)
    act(g, "Green tile 1")
    assert done(g)  # the turn closed: no secondary left
    assert knowledge(g, 0, "income") == 0
    assert goods(g, 0) == {"coins": 2, "marble": 2, "copper": 0, "gold": 1}


def test_gta_x4_follow_actions():
    slots = {0: {"white": "mh_i"}, 1: {"white": "mh_i"}, 2: {"white": "mh_coin_marble"}}
    g = plain(ready(3), pp_=9)
    g = to_window(g, "white", "e1", tiles=["dt_b1", "dt_g1", "dt_y1"], slots=slots)
    put_elephant(g, 1, "east")  # grey could stand on a board, but holds nothing
    _end_worker_turn(g)
    assert prompt(g) == FOLLOW and g.pending["seat"] == 2  # grey cannot follow: not asked
    act(g, "Follow")
    assert done(g)
    assert goods(g, 2) == {"coins": 1, "marble": 1, "copper": 0, "gold": 0}
    assert goods(g, 1) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}
    assert pp(g, 0) == 10
