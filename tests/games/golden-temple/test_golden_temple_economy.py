"""Amritsar: The Golden Temple: end of round, end of era, storage, district-tile actions and the market
(GTA-R71 .. GTA-R113, GTA-R220, GTA-R221; worked examples GTA-X5, GTA-X7, GTA-X8, GTA-X9)."""

from __future__ import annotations

import pytest
from gt_support import (
    act,
    card,
    clear,
    counter,
    done,
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

from mason.errors import PlayError


# ------------------------------------------------------------------ helpers of this file
def temple(g, *type_ids):
    """Make ``type_ids`` the temple tiles of eras I, II, III (in that order)."""
    for c in zone(g, "temple"):
        move_card(g.rt, c, "box")
    cs = [card(g, t) for t in type_ids]
    for c in cs:
        move_card(g.rt, c, "temple", facing="up")
    set_var(g, "temple_tiles", cs)


def bridges(g, *type_ids):
    """Make ``type_ids`` the bridge tiles of eras I, II, III (in that order)."""
    for c in zone(g, "bridges"):
        move_card(g.rt, c, "box")
    cs = [card(g, t) for t in type_ids]
    for c in cs:
        move_card(g.rt, c, "bridges", facing="up")
    set_var(g, "era_bridges", cs)


def marker(g):
    return g.state["boards"]["paths"]["markers"]["maharaja"]


def set_marker(g, pos):
    g.state["boards"]["paths"]["markers"]["maharaja"] = pos


def filled(g):
    return dict(g.state["boards"]["market"]["filled"])


def set_filled(g, **cols):
    g.state["boards"]["market"]["filled"].update(cols)


def add_warehouse(g, s, type_id):
    """A warehouse tile on seat s's board with its tax icons counted (GTA-R81 stays true)."""
    c = warehouse(g, s, type_id)
    set_var(g, "tax_icons", var(g, "tax_icons", s) + g.program.types[type_id]["tax"], s)
    return c


def add_mahout(g, s, type_id, colour):
    """A mahout upgrade already made: the tile on its slot with its tax icon counted (GTA-R81)."""
    c = mahout(g, s, type_id, colour)
    set_var(g, "tax_icons", var(g, "tax_icons", s) + g.program.constants["mahout_tax"], s)
    return c


def tax_position(g, s, pos, tiles=("wh01", "wh02")):
    """Tax marker on ``pos`` (3 or 5) with a board that shows as many tax icons: the slot-1 objective (1)
    plus one or two tiles of 2 icons with one-time rewards only (wh01, wh02, wh03)."""
    assert pos in (3, 5)
    for t in tiles[: (pos - 1) // 2]:
        add_warehouse(g, s, t)
    assert var(g, "tax_icons", s) == pos


def stop(g):
    """End a market action (it ends by itself once stopping is its only option)."""
    if g.pending and prompt(g).startswith("Market"):
        act(g, "stop trading")


def said(g, start=0):
    return [e["text"] for e in g.log[start:] if "text" in e]


def era_end_calm(g, n=None):
    """Every seat can pay its 1-coin tax (tax marker on 1 after setup), so tax changes no PP."""
    for s in range(n or g.state["n"]):
        set_counter(g, "coins", s, 1)


# ------------------------------------------------------------------ end of round (GTA-R71 .. R74)
def test_gta_r71_last_player_moves_marker_after_the_round():
    g = ready(3)
    start = var(g, "start_player")
    last = var(g, "reminder")
    assert last == (start - 1) % 3
    n = len(g.log)
    while g.state["round"] == 1:
        g.answer(0)
    assert marker(g) == 1  # NE -> ES
    assert var(g, "era_round") == 2
    lines = said(g, n)
    moved = [i for i, t in enumerate(lines) if "moves the Maharaja marker" in t]
    assert len(moved) == 1
    assert lines[moved[0]].startswith(f"P{last + 1} ")
    turns = [i for i, t in enumerate(lines) if "follow actions." in t and "activated worker" in t]
    assert len(turns) == 3 and max(turns) < moved[0]  # after every turn's follow step


def test_gta_r71_marker_moves_one_position_clockwise():
    g = plain(ready(3))
    set_marker(g, 1)
    set_var(g, "era_round", 2)
    run(g, "emit round_end")
    assert done(g)
    assert marker(g) == 2 and var(g, "era_round") == 3 and var(g, "era") == 1


def _two_player_round_end(start=0):
    g = plain(ready(2), start=start)
    set_var(g, "spare_workers", ["yellow", "green", "blue", "white"])  # beside NE, ES, SW, WN
    bridges(g, "br1", "br2", "br3")
    return g


def test_gta_r72_two_players_round_end_activation_start_player_first():
    g = _two_player_round_end(start=1)
    mahout(g, 0, "mh_coin_pp", "green")
    mahout(g, 1, "mh_coin_marble", "green")
    run(g, "emit round_end")  # NE -> ES: the green worker
    assert prompt(g).startswith("Round-end follow") and g.pending["seat"] == 1
    act(g, "Follow", 1)
    assert prompt(g).startswith("Round-end follow") and g.pending["seat"] == 0
    act(g, "Follow", 0)
    assert done(g)
    assert goods(g, 1) == {"coins": 1, "marble": 1, "copper": 0, "gold": 0}
    assert pp(g, 1) == 10  # no PP for anybody's follow
    assert goods(g, 0)["coins"] == 1 and pp(g, 0) == 11  # only the tile's own 1 PP


def test_gta_r72_only_the_colour_beside_the_new_position_counts():
    g = _two_player_round_end()
    mahout(g, 0, "mh_coin_pp", "blue")  # blue sits beside SW, not ES
    mahout(g, 1, "mh_coin_pp", "white")
    run(g, "emit round_end")
    assert done(g)  # green: neither player has a green tile
    assert pp(g, 0) == 10 and pp(g, 1) == 10
    set_marker(g, 1)
    run(g, "emit round_end")  # ES -> SW: the blue worker
    assert prompt(g).startswith("Round-end follow") and g.pending["seat"] == 0
    act(g, "Follow")
    assert done(g) and pp(g, 0) == 11 and pp(g, 1) == 10


def test_gta_r72_no_round_end_activation_with_three_players():
    g = plain(ready(3))
    for s in range(3):
        mahout(g, s, "mh_coin_pp", "green")
        mahout(g, s, "mh_any", "blue")
    run(g, "emit round_end")
    assert done(g) and [pp(g, s) for s in range(3)] == [10, 10, 10]


def test_gta_r73_marker_back_at_start_ends_the_era_after_the_activation():
    g = _two_player_round_end()
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    donate_north = owners(g, "north")
    donate_north["a1"] = 0
    add_mahout(g, 0, "mh_coin_pp", "white")  # tax marker on 2: tax 1
    set_var(g, "spare_workers", ["white", "green", "blue", "yellow"])  # white beside NE
    set_marker(g, 3)  # WN, round 4
    set_var(g, "era_round", 4)
    run(g, "emit round_end")
    assert marker(g) == 0
    assert prompt(g).startswith("Round-end follow")  # the activation comes first ...
    assert var(g, "era") == 1 and pp(g, 0) == 10 and goods(g, 0)["coins"] == 1  # ... before any era-end step
    act(g, "Follow")
    assert done(g)
    assert var(g, "era") == 2 and var(g, "era_round") == 1
    # 1 PP from the tile, 4 PP for the North majority (tt1), tax 1 paid with 1 of the 2 coins
    assert pp(g, 0) == 15 and goods(g, 0)["coins"] == 1


def test_gta_r73_no_era_end_before_the_marker_returns():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    owners(g, "north")["a1"] = 0
    set_marker(g, 2)
    set_var(g, "era_round", 3)
    run(g, "emit round_end")
    assert marker(g) == 3 and var(g, "era") == 1 and var(g, "era_round") == 4
    assert pp(g, 0) == 10


def test_gta_r74_next_era_starts_with_round_one_and_same_order():
    g = ready(3)
    start = var(g, "start_player")
    while g.state["round"] <= 4:
        g.answer(0)
    assert var(g, "era") == 2 and var(g, "era_round") == 1 and marker(g) == 0
    assert var(g, "start_player") == start
    while g.state["round"] == 5:
        g.answer(0)
    turns = [e["text"] for e in g.log if e.get("round") == 5 and e.get("turn")]
    assert turns == [f"-- P{(start + i) % 3 + 1} plays --" for i in range(3)]


# ------------------------------------------------------------------ end of era (GTA-R75 .. R85, R220)
def test_gta_r75_scoring_uses_the_ending_eras_tile_and_tax_comes_before_income():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")  # North: 4 in era I, 1 in era II
    owners(g, "north")["a1"] = 0
    set_knowledge(g, 0, "income", 2)  # era-end: 1 coin + 1 PP
    run(g, "emit era_end")
    finish(g)
    # donation scoring with tt1 (+4); tax 1 owed with 0 coins (-1 PP) before the income coin arrives
    assert pp(g, 0) == 10 + 4 - 1 + 1
    assert goods(g, 0)["coins"] == 1
    lines = said(g)
    owes = next(i for i, t in enumerate(lines) if t.startswith("P1 owes"))
    income = max(i for i, t in enumerate(lines) if t == "P1 gains 1 coin")
    begins = next(i for i, t in enumerate(lines) if t.startswith("Era 2 begins"))
    assert owes < income < begins


def test_gta_r75_bridge_and_temple_steps_close_the_era():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    bridges(g, "br6", "br4", "br5")
    era_end_calm(g)
    run(g, "emit era_end")
    assert done(g)
    assert card(g, "br6") in zone(g, "box") and card(g, "tt1") in zone(g, "box")
    assert var(g, "temple_pieces") == ["base"] and var(g, "era") == 2


def test_gta_r220_each_step_done_for_all_players_choices_in_turn_order():
    g = plain(ready(3), start=1)
    temple(g, "tt1", "tt2", "tt3")
    for s in range(3):
        set_knowledge(g, s, "resources", 3)  # era-end: 1 any resource
        set_counter(g, "coins", s, 2)
    run(g, "emit era_end")
    asked = []
    while g.pending:
        assert prompt(g) == "Gain which resource?"
        # when the first income choice is asked, every player's tax is already paid
        assert [goods(g, s)["coins"] for s in range(3)] == [1, 1, 1]
        asked.append(g.pending["seat"])
        act(g, "gold")
    assert asked == [1, 2, 0]
    assert [goods(g, s)["gold"] for s in range(3)] == [1, 1, 1]


def test_gta_r76_majority_per_district_scores_the_temple_value():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")  # N 4, E 3, S 2, W 1
    era_end_calm(g)
    owners(g, "north").update(a1=0, a2=0, a3=1)
    owners(g, "east")["a1"] = 1
    owners(g, "west").update(a1=2, a2=0)
    run(g, "emit era_end")
    assert done(g)
    assert [pp(g, s) for s in range(3)] == [10 + 4 + 1, 10 + 3, 10 + 1]  # nobody scores South


def test_gta_r76_no_markers_no_score():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    run(g, "emit era_end")
    assert done(g) and [pp(g, s) for s in range(3)] == [10, 10, 10]


def test_gta_r77_all_tied_leaders_gain_the_full_value():
    g = plain(ready(3))
    temple(g, "tt2", "tt1", "tt3")  # era I tile tt2: East 4
    era_end_calm(g)
    owners(g, "east").update(a1=0, a2=1, a3=2)
    run(g, "emit era_end")
    assert done(g) and [pp(g, s) for s in range(3)] == [14, 14, 14]


def test_gta_x5_majority_tie_at_era_end():
    g = plain(ready(3))  # seat 0 purple, 1 grey, 2 pink
    temple(g, "tt1", "tt2", "tt3")  # S = 2
    era_end_calm(g)
    owners(g, "south").update(a1=0, a2=0, a3=2, a4=2, b1=1)
    run(g, "emit era_end")
    assert done(g)
    assert pp(g, 0) == 12 and pp(g, 2) == 12 and pp(g, 1) == 10


def test_gta_r78_tax_is_the_table_value_of_the_marker_position():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    tax_position(g, 0, 5)  # tax 3
    set_counter(g, "coins", 0, 4)
    tax_position(g, 1, 3, ("wh03",))  # tax 2
    set_counter(g, "coins", 1, 4)
    run(g, "emit era_end")
    assert done(g)
    assert [goods(g, s)["coins"] for s in range(3)] == [1, 2, 0]
    assert [pp(g, s) for s in range(3)] == [10, 10, 10]


def test_gta_r78_tax_cut_icons_and_wh08_lower_the_tax():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    tax_position(g, 0, 5)  # tax 3 - 1 (research 4) = 2
    set_knowledge(g, 0, "research", 4)
    set_counter(g, "coins", 0, 3)
    add_warehouse(g, 1, "wh08")  # position 3: tax 2 - 1 (wh08) = 1
    set_counter(g, "coins", 1, 3)
    run(g, "emit era_end")
    assert done(g)
    assert goods(g, 0)["coins"] == 1 and goods(g, 1)["coins"] == 2


def test_gta_r78_tax_never_below_zero():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_knowledge(g, 0, "research", 4)  # position 3 with wh08: 2 - 1 - 1 = 0
    add_warehouse(g, 0, "wh08")
    set_knowledge(g, 1, "research", 4)  # two tax cuts on a tax of 1 (position 1):
    set_knowledge(g, 1, "income", 5)  # 1 - 2 -> 0, not -1
    set_counter(g, "coins", 0, 2)
    set_counter(g, "coins", 1, 2)
    n = len(g.log)
    run(g, "emit era_end")
    finish(g)
    lines = said(g, n)
    assert "P1 owes 0 tax, pays 0, loses 0 PP." in lines
    assert "P2 owes 0 tax, pays 0, loses 0 PP." in lines
    assert goods(g, 0)["coins"] == 2 and pp(g, 0) == 10
    assert goods(g, 1)["coins"] == 3  # + the income coin, nothing paid


def test_gta_r79_r80_pay_what_you_can_lose_pp_for_the_rest_era_one():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    tax_position(g, 0, 5)  # owes 3
    set_counter(g, "coins", 0, 2)
    run(g, "emit era_end")
    assert done(g)
    assert goods(g, 0)["coins"] == 0 and pp(g, 0) == 9


@pytest.mark.parametrize("era,loss", [(2, 2), (3, 3)])
def test_gta_r80_unpaid_tax_costs_era_pp_per_coin(era, loss):
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_var(g, "era", era)
    tax_position(g, 0, 5)  # owes 3, has 1
    run(g, "emit era_end")
    finish(g)
    assert goods(g, 0)["coins"] == 0 and pp(g, 0) == 10 - 2 * loss


def test_gta_r79_paying_is_compulsory_when_coins_suffice():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_counter(g, "coins", 0, 4)
    run(g, "emit era_end")
    assert done(g)  # no choice to keep coins and lose PP
    assert goods(g, 0)["coins"] == 3 and pp(g, 0) == 10


def test_gta_r81_tax_marker_mismatch_is_an_engine_error():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_var(g, "tax_icons", 4, 0)  # board shows 1 icon
    with pytest.raises(PlayError, match="tax marker"):
        run(g, "emit era_end")


def test_gta_r81_tax_marker_follows_the_placements():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_goods(g, 0, coins=3, marble=1)
    clear(g, "warehouse_display")
    put(g, "wh02", "warehouse_display")
    run(g, 'emit upgrade(who=0, kinds=["warehouse"], free=false)')
    finish(g)
    assert var(g, "tax_icons", 0) == 3  # objective 1 + wh02 2
    run(g, "emit era_end")  # the check of GTA-R81 passes
    assert done(g) and goods(g, 0)["coins"] == 1  # tax 2 from position 3


def test_gta_r82_income_pays_every_reached_era_end_icon():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_knowledge(g, 0, "resources", 3)  # 1 any resource
    set_knowledge(g, 0, "income", 4)  # 1 coin + 1 PP (step 2), 1 marker (step 4)
    run(g, "emit era_end")
    assert prompt(g) == "Gain which resource?" and labels(g) == ["marble", "copper", "gold"]
    act(g, "copper")
    assert done(g)
    # one-time steps (1 marble, 1 copper, 1 coin, 2 coins) are not paid again
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 1, "gold": 0}
    assert pp(g, 0) == 11
    assert counter(g, "on_elephant", 0) == 3 and counter(g, "in_market", 0) == 4


def test_gta_r82_tax_cut_icons_pay_no_income():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_knowledge(g, 0, "research", 5)  # era-end tax -1 at step 4 only
    set_counter(g, "coins", 0, 0)
    run(g, "emit era_end")
    assert done(g)
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0} and pp(g, 0) == 10


# ------------------------------------------------------------------ GTA-D5: "passed" (超過) icons
def step_of(g, track, when, reward):
    """The step of ``track`` whose icon is (``when``, ``reward``): the tests do not rely on the layout."""
    steps = g.program.boards["knowledge"]["tracks"][track]["steps"]
    return next(i for i, x in enumerate(steps) if x.get("when") == when and x.get("reward") == reward)


def test_gta_d5_income_pays_the_era_end_icon_a_marker_stands_on():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_knowledge(g, 0, "income", step_of(g, "income", "era_end", "coin_pp"))  # on the icon's step
    run(g, "emit era_end")
    assert done(g)
    assert goods(g, 0)["coins"] == 1 and pp(g, 0) == 11  # tax 1 paid, then 1 coin + 1 PP


@pytest.mark.parametrize("above,coins,pp_", [(0, 0, 10), (1, 1, 11)])
def test_gta_d5_icons_passed_pays_only_the_icons_below_the_marker(above, coins, pp_):
    g = plain(ready(3, variants=("icons_passed",)))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    step = step_of(g, "income", "era_end", "coin_pp")
    assert g.program.boards["knowledge"]["tracks"]["income"]["steps"][step + 1].get("when") != "era_end"
    set_knowledge(g, 0, "income", step + above)  # on the icon: not yet passed; one above: passed
    run(g, "emit era_end")
    assert done(g)
    assert goods(g, 0)["coins"] == coins and pp(g, 0) == pp_


def test_gta_d5_icons_passed_keeps_the_tax_cut_and_game_end_icons_from_their_step():
    g = plain(ready(3, variants=("icons_passed",)))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_knowledge(g, 0, "research", step_of(g, "research", "era_end", "tax_cut"))  # tax 1 - 1 = 0
    run(g, "emit era_end")
    assert done(g)
    assert goods(g, 0)["coins"] == 1 and pp(g, 0) == 10
    set_knowledge(g, 0, "research", step_of(g, "research", "final", "per_marker"))  # the top step
    set_counter(g, "on_elephant", 0, 3)
    run(g, 'say "=> {knowledge_points(0)}"')
    assert g.log[-1]["text"] == "=> 3"


def test_gta_r83_bridge_of_the_ended_era_flips_next_one_becomes_current():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    bridges(g, "br6", "br4", "br5")
    era_end_calm(g)
    run(g, 'emit bridge_event(who=0, cond="market")')
    assert pp(g, 0) == 11  # br6 pays during era I
    run(g, "emit era_end")
    assert done(g)
    c = card(g, "br6")
    assert c in zone(g, "box") and not g.state["cards"][c]["up"]
    run(g, 'emit bridge_event(who=0, cond="market")')
    assert pp(g, 0) == 11  # br6 is gone
    run(g, 'emit bridge_event(who=0, cond="upgrade")')
    assert pp(g, 0) == 12  # br4 is current in era II


def test_gta_r84_temple_piece_with_next_tile_scores_the_next_era():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    run(g, "emit era_end")
    assert done(g)
    assert card(g, "tt1") in zone(g, "box") and card(g, "tt2") in zone(g, "temple")
    assert var(g, "temple_pieces") == ["base"]
    owners(g, "east")["a1"] = 0  # tt2: East 4 (tt1 had 3)
    era_end_calm(g)
    run(g, "emit era_end")
    assert done(g)
    assert pp(g, 0) == 14
    assert var(g, "temple_pieces") == ["base", "middle"]
    assert card(g, "tt2") in zone(g, "box") and var(g, "era") == 3


def test_gta_r85_after_era_three_top_piece_and_game_end():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_var(g, "era", 3)
    set_var(g, "temple_pieces", ["base", "middle"])
    run(g, "emit era_end")
    assert done(g)
    assert var(g, "temple_pieces") == ["base", "middle", "top"]
    assert var(g, "finished") is True and var(g, "era") == 3


def test_gta_r85_a_whole_game_ends_after_twelve_rounds():
    g = ready(2)
    n = 0
    while not g.over:
        g.answer([] if g.pending["subset"] else 0)
        n += 1
        assert n < 5000
    assert g.state["round"] == 12 and var(g, "era") == 3 and var(g, "finished") is True
    assert var(g, "temple_pieces") == ["base", "middle", "top"]


def test_gta_x8_tax_with_reduction_and_penalty():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_var(g, "era", 2)
    tax_position(g, 0, 5)  # tax 3
    set_knowledge(g, 0, "research", 4)  # tax -1
    set_counter(g, "coins", 0, 1)
    n = len(g.log)
    run(g, "emit era_end")
    assert done(g)
    assert "P1 owes 2 tax, pays 1, loses 2 PP." in said(g, n)
    assert goods(g, 0)["coins"] == 0 and pp(g, 0) == 8


def test_gta_x9_two_player_round_end_activation():
    g = _two_player_round_end(start=0)
    mahout(g, 0, "mh_market", "green")  # the other player's green slot is empty
    set_counter(g, "coins", 0, 2)
    run(g, "emit round_end")  # NE -> ES, the green worker
    assert marker(g) == 1
    assert g.pending["seat"] == 0 and labels(g) == ["Follow", "Decline"]
    act(g, "Follow")
    assert prompt(g).startswith("Market")
    act(g, "buy marble for 1")
    stop(g)
    assert done(g)  # the other player is never asked
    assert goods(g, 0) == {"coins": 1, "marble": 1, "copper": 0, "gold": 0}
    assert pp(g, 0) == 10 and pp(g, 1) == 10  # nobody gains PP
    assert var(g, "era_round") == 2 and var(g, "era") == 1


# ------------------------------------------------------------------ storage (GTA-R86 .. R88)
def test_gta_r86_coins_and_resources_share_the_warehouse_spaces():
    g = plain(ready(3))
    set_goods(g, 0, coins=2, marble=1)
    run(g, 'emit gain_goods(who=0, what="copper", n=1)')
    assert done(g) and goods(g, 0) == {"coins": 2, "marble": 1, "copper": 1, "gold": 0}
    run(g, 'emit gain_goods(who=0, what="coins", n=1)')  # a fifth item in 4 spaces
    assert prompt(g) == "Your storage is full: return what to the supply?"


def test_gta_r86_payments_come_out_of_the_warehouse():
    g = plain(ready(3))
    set_goods(g, 0, coins=3)
    run(g, "emit market_action(who=0)")
    act(g, "buy marble for 1")
    stop(g)
    assert goods(g, 0) == {"coins": 2, "marble": 1, "copper": 0, "gold": 0}


def test_gta_r87_capacity_is_four_plus_the_tiles_spaces():
    g = plain(ready(3))
    warehouse(g, 0, "wh02")  # 3 spaces
    warehouse(g, 0, "wh07")  # 2 spaces: capacity 9
    set_goods(g, 0, coins=4, marble=4)
    run(g, 'emit gain_goods(who=0, what="gold", n=1)')
    assert done(g) and sum(goods(g, 0).values()) == 9
    run(g, 'emit gain_goods(who=0, what="gold", n=1)')
    assert prompt(g) == "Your storage is full: return what to the supply?"


def test_gta_r88_overflow_checked_after_each_gain_player_chooses_discard():
    g = plain(ready(3))
    set_goods(g, 0, coins=4)  # 4 of 4 spaces used
    run(g, 'emit gain_goods(who=0, what="marble", n=2)')
    assert prompt(g) == "Your storage is full: return what to the supply?"
    assert goods(g, 0)["marble"] == 1  # asked after the first marble already
    assert labels(g) == ["coins", "marble"]
    act(g, "coins")
    assert prompt(g) == "Your storage is full: return what to the supply?"
    assert goods(g, 0) == {"coins": 3, "marble": 2, "copper": 0, "gold": 0}
    n = len(g.log)
    act(g, "coins")
    assert done(g) and goods(g, 0) == {"coins": 2, "marble": 2, "copper": 0, "gold": 0}
    said = [e["text"] for e in g.log[n:] if "text" in e]
    assert "P1 returns 1 coin to the supply" in said and not any("pays" in t for t in said)  # a return


def test_gta_r88_the_gained_item_itself_may_go_back():
    g = plain(ready(3))
    set_goods(g, 0, coins=2, gold=2)
    run(g, 'emit gain_goods(who=0, what="marble", n=1)')
    act(g, "marble")  # the gained item itself may go back
    assert done(g) and goods(g, 0) == {"coins": 2, "marble": 0, "copper": 0, "gold": 2}


# ------------------------------------------------------------------ district-tile actions (GTA-R89 .. R101)
def _tile(g, code, who=0):
    run(g, f'emit tile_action(who={who}, code="{code}")')


@pytest.mark.parametrize(
    "code,gain",
    [
        ("gain_2m", {"marble": 2}),  # GTA-R89
        ("gain_1c", {"copper": 1}),  # GTA-R90
        ("gain_1g", {"gold": 1}),  # GTA-R92
    ],
)
def test_gta_r89_r90_r92_fixed_gains(code, gain):
    g = plain(ready(3))
    _tile(g, code)
    assert done(g)
    want = {"coins": 0, "marble": 0, "copper": 0, "gold": 0}
    want.update(gain)
    assert goods(g, 0) == want and goods(g, 1)["marble"] == 0


@pytest.mark.parametrize("choice,want", [("2 marble", (2, 0)), ("1 copper", (0, 1))])
def test_gta_r91_two_marble_or_one_copper(choice, want):
    g = plain(ready(3))
    _tile(g, "gain_2m_or_1c")
    assert labels(g) == ["2 marble", "1 copper"]
    act(g, choice)
    assert done(g) and (goods(g, 0)["marble"], goods(g, 0)["copper"]) == want


def test_gta_r93_one_resource_of_choice():
    g = plain(ready(3))
    _tile(g, "gain_1any")
    assert labels(g) == ["marble", "copper", "gold"]
    act(g, "gold")
    assert done(g) and goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 1}


def test_gta_r94_market_tile_gives_one_market_action():
    g = plain(ready(3))
    set_goods(g, 0, coins=2)
    _tile(g, "market")
    assert prompt(g) == "Market: buy or sell one resource, or stop"
    act(g, "buy copper for 1")
    stop(g)
    assert done(g)
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 1, "gold": 0}
    assert counter(g, "on_elephant", 0) == 3


def test_gta_r95_coin_first_pays_for_the_market():
    g = plain(ready(3))
    set_goods(g, 0, gold=1)
    _tile(g, "coin_market")
    assert labels(g) == ["1 coin, then the market", "The market, then 1 coin"]
    act(g, "1 coin, then the market")
    assert "buy marble for 1" in labels(g)  # the new coin is already there
    act(g, "buy marble for 1")
    stop(g)
    assert done(g) and goods(g, 0) == {"coins": 0, "marble": 1, "copper": 0, "gold": 1}


def test_gta_r95_market_first_then_the_coin():
    g = plain(ready(3))
    set_goods(g, 0, gold=1)
    _tile(g, "coin_market")
    act(g, "The market, then 1 coin")
    assert labels(g) == ["sell gold for 1 coin (to the supply)", "stop trading"]  # no coin yet
    stop(g)
    assert done(g) and goods(g, 0) == {"coins": 1, "marble": 0, "copper": 0, "gold": 1}


def test_gta_r96_mahout_any_ignores_the_slot_colour():
    g = plain(ready(3))
    set_var(g, "act_worker", "yellow")
    mahout(g, 0, "mh_coin_pp", "green")
    _tile(g, "mahout_any")
    assert labels(g) == [  # the donate tile can do nothing here: marked so (issue 30, README)
        "Mahout: donate (does nothing now: no donation space you can pay where your elephant stands)",
        "Mahout: 1 coin + 1 PP",
    ]
    act(g, "Mahout: 1 coin + 1 PP")
    assert done(g) and goods(g, 0)["coins"] == 1 and pp(g, 0) == 11


@pytest.mark.parametrize(
    "code,kinds",
    [
        ("upg_wo", ["warehouse", "objective"]),  # GTA-R97
        ("upg_wm", ["warehouse", "mahout"]),  # GTA-R98
        ("upg_wom", ["warehouse", "objective", "mahout"]),  # GTA-R99
    ],
)
def test_gta_r97_r98_r99_upgrade_tiles_offer_their_kinds(code, kinds):
    g = plain(ready(3))
    set_goods(g, 0, marble=1, copper=1, gold=1)
    _tile(g, code)
    assert prompt(g) == "Upgrade: which kind?" and [x.split(" (")[0] for x in labels(g)] == kinds


def test_gta_r98_mahout_upgrade_places_a_tile():
    g = plain(ready(3))
    set_goods(g, 0, marble=1, gold=1)
    _tile(g, "upg_wm")
    act(g, "mahout")
    act(g, "Mahout: 1 coin + 1 PP")
    act(g, "green")
    assert done(g)
    slots = {g.state["cards"][c]["t"]: g.state["cards"][c]["slot"] for c in zone(g, "mahout_slots", 0)}
    assert slots["mh_coin_pp"] == "green"
    assert goods(g, 0) == {"coins": 0, "marble": 1, "copper": 0, "gold": 0}


@pytest.mark.parametrize(
    "code,track", [("k_research", "research"), ("k_resources", "resources"), ("k_income", "income")]
)
def test_gta_r100_knowledge_tiles_move_their_marker(code, track):
    g = plain(ready(3))
    _tile(g, code)
    finish(g)
    assert [knowledge(g, 0, t) for t in ("research", "resources", "income")] == [
        1 if t == track else 0 for t in ("research", "resources", "income")
    ]


def test_gta_r101_k_any_moves_a_marker_of_choice():
    g = plain(ready(3))
    _tile(g, "k_any")
    assert labels(g) == ["research", "resources", "income"]
    act(g, "income")
    assert done(g)
    assert (knowledge(g, 0, "research"), knowledge(g, 0, "income")) == (0, 1)
    assert goods(g, 0)["coins"] == 1  # income step 1: 1 coin


# ------------------------------------------------------------------ market (GTA-R102 .. R113, R221)
def _market(g, who=0):
    run(g, f"emit market_action(who={who})")


def test_gta_r102_several_trades_in_one_market_action():
    g = plain(ready(3))
    set_goods(g, 0, coins=2, gold=1)
    _market(g)
    act(g, "buy marble for 1")
    assert goods(g, 0)["coins"] == 1 and goods(g, 0)["marble"] == 1  # resolved before the next
    act(g, "buy copper for 1")
    act(g, "sell gold")
    stop(g)
    assert done(g)
    assert goods(g, 0) == {"coins": 1, "marble": 1, "copper": 1, "gold": 0}
    assert counter(g, "on_elephant", 0) == 3  # still one market action: one marker


def test_gta_r102_each_trade_settles_payment_gain_and_storage_before_the_next():
    g = plain(ready(3))
    set_goods(g, 0, coins=2, gold=2)  # 4 of 4 spaces used
    _market(g)
    act(g, "buy marble for 1")  # pays first: 1 + 1 + 2 = 4, no overflow
    assert prompt(g).startswith("Market") and goods(g, 0)["marble"] == 1
    act(g, "sell gold for 1 coin")  # the gold leaves before the coin arrives
    assert prompt(g).startswith("Market")
    assert goods(g, 0) == {"coins": 2, "marble": 1, "copper": 0, "gold": 1}
    set_filled(g, gold=2)  # next gold sale: space 3, 2 coins
    _market(g)
    act(g, "sell gold for 2 coins")  # 3 coins + 1 marble + 0 gold + 1 = 5 > 4
    assert prompt(g) == "Your storage is full: return what to the supply?"
    act(g, "marble")
    assert prompt(g).startswith("Market")  # settled, then the next trade
    stop(g)
    assert goods(g, 0) == {"coins": 4, "marble": 0, "copper": 0, "gold": 0}


def test_gta_r103_buy_the_lowest_resource_at_its_price():
    g = plain(ready(3))
    set_goods(g, 0, coins=4)
    _market(g)
    assert "buy copper for 1" in labels(g)  # space 4 of 4
    act(g, "buy copper for 1")
    assert filled(g)["copper"] == 3 and goods(g, 0)["coins"] == 3
    act(g, "buy copper for 1")  # space 3
    assert filled(g)["copper"] == 2
    assert "buy copper for 2" in labels(g)  # space 2
    act(g, "buy copper for 2")
    stop(g)
    assert filled(g)["copper"] == 1
    assert goods(g, 0) == {"coins": 0, "marble": 0, "copper": 3, "gold": 0}


def test_gta_r104_empty_column_buy_from_supply_for_two():
    g = plain(ready(3))
    set_filled(g, gold=0)
    set_goods(g, 0, coins=1)
    _market(g)
    assert not any(l.startswith("buy gold") for l in labels(g))  # 2 coins needed
    set_goods(g, 0, coins=3)
    _market(g)
    act(g, "buy gold for 2")
    stop(g)
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 0, "gold": 1}
    assert filled(g)["gold"] == 0


def test_gta_r105_sell_onto_the_topmost_empty_space():
    g = plain(ready(3))
    set_filled(g, copper=1)  # spaces 2 (2 coins), 3 and 4 (1 coin) empty
    set_goods(g, 0, copper=2)
    _market(g)
    act(g, "sell copper for 2 coins")  # space 2, not the bottom space 4
    assert filled(g)["copper"] == 2 and goods(g, 0)["coins"] == 2
    assert "sell copper for 1 coin" in labels(g)  # one coin, not "1 coins" (counted, issue 28)
    act(g, "sell copper for 1 coin")  # then space 3
    stop(g)
    assert filled(g)["copper"] == 3 and goods(g, 0) == {"coins": 3, "marble": 0, "copper": 0, "gold": 0}
    assert pp(g, 0) == 10


def test_gta_r105_r106_sale_on_a_space_with_pp_icon():
    g = plain(ready(3))
    set_filled(g, gold=1)  # space 2: 2 coins, 1 PP
    set_goods(g, 0, gold=2)
    _market(g)
    act(g, "sell gold for 2 coins + 1 PP")
    assert goods(g, 0)["coins"] == 2 and pp(g, 0) == 11 and filled(g)["gold"] == 2
    act(g, "sell gold for 2 coins")  # space 3: no icon
    stop(g)
    assert goods(g, 0)["coins"] == 4 and pp(g, 0) == 11
    set_filled(g, marble=0, copper=0)
    set_goods(g, 1, marble=1, copper=1)
    _market(g, 1)
    assert labels(g)[:2] == ["sell marble for 2 coins + 1 PP", "sell copper for 2 coins + 1 PP"]


def test_gta_r107_full_column_sell_to_the_supply_for_one_coin():
    g = plain(ready(3))
    set_goods(g, 0, copper=1)
    _market(g)
    act(g, "sell copper for 1 coin (to the supply)")
    stop(g)
    assert filled(g)["copper"] == 4
    assert goods(g, 0) == {"coins": 1, "marble": 0, "copper": 0, "gold": 0} and pp(g, 0) == 10


def test_gta_r108_no_buy_and_sell_of_one_type_in_a_turn():
    g = plain(ready(3))
    set_goods(g, 0, coins=3, copper=1)
    _market(g)
    act(g, "buy marble for 1")
    assert not any(l.startswith("sell marble") for l in labels(g))
    act(g, "sell copper")
    assert not any(l.startswith("buy copper") for l in labels(g))
    stop(g)
    run(g, "emit market_action(who=0)")  # a second market action, same turn
    ls = labels(g)
    assert not any(l.startswith("sell marble") or l.startswith("buy copper") for l in ls)
    assert any(l.startswith("buy gold") for l in ls)


def test_gta_r108_a_new_turn_clears_the_restriction():
    g = plain(ready(3))
    set_var(g, "bought", ["marble"], 0)
    set_var(g, "sold", ["copper"], 1)
    put_elephant(g, 0, "north")
    set_ring(g, {"n1": ["blue"]})
    run(g, "emit player_turn(who=0)")
    assert prompt(g) == "Move your elephant?"
    assert var(g, "bought", 0) == [] and var(g, "sold", 1) == []


def test_gta_r109_a_trading_market_action_gives_one_marker():
    g = plain(ready(3))
    set_goods(g, 0, coins=3)
    _market(g)
    act(g, "buy marble for 1")
    act(g, "buy copper for 1")
    stop(g)
    assert counter(g, "in_market", 0) == 4 and counter(g, "on_elephant", 0) == 3
    assert pp(g, 0) == 10


def test_gta_r110_no_marker_left_in_the_market_gives_one_pp():
    g = plain(ready(3))
    set_counter(g, "in_market", 0, 0)
    set_goods(g, 0, coins=1)
    _market(g)
    act(g, "buy marble for 1")
    stop(g)
    assert counter(g, "on_elephant", 0) == 2 and pp(g, 0) == 11


def test_gta_r111_full_elephant_takes_nothing():
    g = plain(ready(3))
    set_counter(g, "on_elephant", 0, 6)
    set_counter(g, "in_market", 0, 0)  # not even the PP fallback
    set_goods(g, 0, coins=1)
    _market(g)
    act(g, "buy marble for 1")
    stop(g)
    assert counter(g, "on_elephant", 0) == 6 and counter(g, "in_market", 0) == 0 and pp(g, 0) == 10
    set_counter(g, "in_market", 0, 3)
    set_goods(g, 0, coins=1)
    _market(g)
    act(g, "buy copper for 1")
    stop(g)
    assert counter(g, "on_elephant", 0) == 6 and counter(g, "in_market", 0) == 3 and pp(g, 0) == 10


def test_gta_r112_knowledge_marker_reward_follows_the_same_fallbacks():
    g = plain(ready(3))
    set_counter(g, "in_market", 0, 0)
    run(g, 'emit knowledge(who=0, track="research")')  # step 1: take 1 donation marker
    assert done(g) and pp(g, 0) == 11 and counter(g, "on_elephant", 0) == 2
    set_counter(g, "on_elephant", 1, 6)
    run(g, 'emit knowledge(who=1, track="research")')
    assert done(g) and pp(g, 1) == 10 and counter(g, "on_elephant", 1) == 6
    assert counter(g, "in_market", 1) == 5
    run(g, 'emit knowledge(who=2, track="research")')
    assert done(g) and counter(g, "on_elephant", 2) == 3 and counter(g, "in_market", 2) == 4


def test_gta_r112_income_marker_follows_the_same_fallbacks():
    g = plain(ready(3))
    temple(g, "tt1", "tt2", "tt3")
    era_end_calm(g)
    set_knowledge(g, 0, "income", 4)  # era-end marker (and coin + PP at step 2)
    set_counter(g, "in_market", 0, 0)
    set_knowledge(g, 1, "income", 4)
    set_counter(g, "on_elephant", 1, 6)
    run(g, "emit era_end")
    assert done(g)
    assert pp(g, 0) == 12 and counter(g, "on_elephant", 0) == 2  # 1 PP (coin_pp) + 1 PP instead
    assert pp(g, 1) == 11 and counter(g, "on_elephant", 1) == 6 and counter(g, "in_market", 1) == 5


def test_gta_r113_market_action_without_trade_counts_for_nothing():
    g = plain(ready(3))
    bridges(g, "br6", "br4", "br5")
    set_goods(g, 0, coins=2)
    _market(g)
    stop(g)
    assert done(g)
    assert counter(g, "in_market", 0) == 5 and counter(g, "on_elephant", 0) == 2 and pp(g, 0) == 10
    assert var(g, "performed") is False


def _turn_with_blue_follow(g):
    """Seat 0 activates a blue worker in North and takes 2 marble; seat 1 may follow with mh_market."""
    place_tiles(g, "north", ["dt_y1", "dt_g1", "dt_w1"])
    mahout(g, 1, "mh_market", "blue")
    set_goods(g, 1, coins=2)
    for s in range(3):
        put_elephant(g, s, "south")
    set_ring(g, {"n1": ["blue"]})
    run(g, "emit player_turn(who=0)")
    act(g, "stay")
    act(g, "Yellow tile 1")  # the main action is the only action
    assert g.pending["seat"] == 1 and labels(g) == ["Follow", "Decline"]
    act(g, "Follow")


def test_gta_r113_follow_without_trade_gives_the_active_player_no_pp():
    g = plain(ready(3))
    _turn_with_blue_follow(g)
    stop(g)
    assert done(g)
    assert goods(g, 0)["marble"] == 2 and pp(g, 0) == 10
    assert counter(g, "on_elephant", 1) == 2


def test_gta_r113_follow_with_a_trade_counts():
    g = plain(ready(3))
    _turn_with_blue_follow(g)
    act(g, "buy marble for 1")
    stop(g)
    assert done(g)
    assert pp(g, 0) == 11 and counter(g, "on_elephant", 1) == 3


def test_gta_r221_market_area_has_no_capacity_limit():
    g = plain(ready(3))
    set_counter(g, "on_elephant", 0, 6)
    run(g, "emit slot_marker(who=0)")
    assert done(g) and counter(g, "in_market", 0) == 6  # beyond its 5 printed spaces
    set_counter(g, "on_elephant", 0, 0)
    for _ in range(6):
        run(g, "emit take_marker(who=0)")
    assert counter(g, "on_elephant", 0) == 6 and counter(g, "in_market", 0) == 0 and pp(g, 0) == 10


def test_gta_x7_sale_onto_a_pp_icon():
    g = plain(ready(3))  # pink = seat 2
    bridges(g, "br6", "br4", "br5")
    set_filled(g, gold=0)
    set_goods(g, 2, gold=1, coins=1)
    set_counter(g, "in_market", 2, 2)
    set_counter(g, "on_elephant", 2, 3)
    _market(g, 2)
    act(g, "sell gold for 2 coins + 2 PP")
    stop(g)
    assert done(g)
    assert filled(g)["gold"] == 1
    assert goods(g, 2)["coins"] == 3 and pp(g, 2) == 10 + 2 + 1
    assert counter(g, "on_elephant", 2) == 4 and counter(g, "in_market", 2) == 1
    _market(g, 2)  # later in the same turn
    assert not any(l.startswith("buy gold") for l in labels(g))
    assert any(l.startswith("buy marble") for l in labels(g))
