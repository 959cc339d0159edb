"""Amritsar: The Golden Temple: end of game and scoring, player counts, the solo game against the
Maharaja and the solo_hard variant (GTA-R168 .. GTA-R218), worked example GTA-X11."""

from __future__ import annotations

import pytest
from gt_support import (
    GAME,
    act,
    card,
    clear,
    counter,
    donate_at,
    done,
    elephant,
    game,
    goods,
    mahout,
    objective,
    owners,
    plain,
    pp,
    prompt,
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
from support import new_game

from mason.errors import MasonError
from mason.runtime.turns import finish as score_game

MAHA = 1  # the Maharaja's seat in a solo game


# ------------------------------------------------------------------ helpers (this file only)
def solo(seed=1, variants=()):
    """A solo game, calm: era I round 1, nobody's elephant on the board, no goods, 10 PP each."""
    return plain(ready(1, seed, variants))


def auto(g, text):
    """Run a snippet, then let the Maharaja's policy take every decision put to him."""
    run(g, text)
    g._automate()


def tiles(g, temple=("tt1", "tt2", "tt3"), bridges=("br1", "br2", "br4")):
    """Fix the temple tiles and the bridge tiles of eras I, II, III."""
    set_var(g, "temple_tiles", [card(g, t) for t in temple])
    set_var(g, "era_bridges", [card(g, b) for b in bridges])


def spare(g, colours, at=0):
    """The workers beside the Maharaja positions NE, ES, SW, WN, and the marker's position."""
    set_var(g, "spare_workers", list(colours))
    g.state["boards"]["paths"]["markers"]["maharaja"] = at


def mine(g):
    return [counter(g, f"mine_{r}") for r in ("marble", "copper", "gold")]


def set_mine(g, marble, copper, gold):
    g.state["counters"]["mine_marble"] = marble
    g.state["counters"]["mine_copper"] = copper
    g.state["counters"]["mine_gold"] = gold


def texts(g, since=0):
    """The narration, from log entry ``since`` on (non-narration entries read as "")."""
    return [e.get("text", "") for e in g.log[since:]]


def no_objectives(g):
    for s in range(g.state["n"]):
        clear(g, "objective_slots", s)
        clear(g, "objectives", s)


def final(g):
    """Final scoring as the engine runs it when the game ends."""
    score_game(g.rt)
    return g.result


def objective_score(g, s, type_id):
    """What one placed objective card scores for seat s (no other card placed anywhere)."""
    no_objectives(g)
    objective(g, s, type_id)
    return final(g)["parts"][s]["objectives"]


def calm(players=3, seed=1):
    g = plain(ready(players, seed))
    no_objectives(g)
    return g


# ------------------------------------------------------------------ end of game (GTA-R168 .. R171)
def test_gta_r168_game_ends_after_the_era_end_steps_of_era_three():
    g = plain(ready(3))
    set_var(g, "era", 3)
    set_var(g, "era_round", 4)
    g.state["boards"]["paths"]["markers"]["maharaja"] = 3  # WN: the next move closes the era
    run(g, "emit round_end")
    assert done(g)
    assert var(g, "finished") is True
    assert var(g, "temple_pieces")[-1] == "top"  # GTA-R85: the last era-end step ran


def test_gta_r168_era_two_end_does_not_end_the_game():
    g = plain(ready(3))
    set_var(g, "era", 2)
    set_var(g, "era_round", 4)
    g.state["boards"]["paths"]["markers"]["maharaja"] = 3
    run(g, "emit round_end")
    assert var(g, "finished") is False
    assert var(g, "era") == 3 and var(g, "era_round") == 1


@pytest.mark.parametrize("players", [1, 2])
def test_gta_r168_a_played_game_lasts_twelve_rounds(players):
    g = ready(players, seed=3)
    n = 0
    while not g.over:
        p = g.pending
        g.answer([] if p["subset"] else 0)
        n += 1
        assert n < 5000
    assert g.result["rounds"] == 12
    assert var(g, "era") == 3 and var(g, "finished") is True


def test_gta_r169_final_score_is_play_then_knowledge_then_objectives():
    g = calm(3)
    set_knowledge(g, 0, "income", 6)  # game-end: 1 PP per coin
    set_goods(g, 0, coins=3)
    objective(g, 0, "d1")  # most coins: 5 PP
    res = final(g)
    assert list(res["parts"][0]) == ["play", "knowledge", "objectives"]
    assert res["parts"][0] == {"play": 10, "knowledge": 3, "objectives": 5}
    assert res["scores"][0] == 18
    assert res["scores"][1] == 10


def test_gta_r170_knowledge_game_end_icons():
    g = calm(3)
    set_knowledge(g, 0, "research", 6)  # 1 PP per marker on the elephant
    set_counter(g, "on_elephant", 0, 4)
    set_knowledge(g, 1, "resources", 6)  # 1 PP per resource
    set_goods(g, 1, coins=5, marble=2, copper=1, gold=1)
    set_knowledge(g, 2, "income", 6)  # 1 PP per coin
    set_goods(g, 2, coins=3, marble=4)
    res = final(g)
    assert [res["parts"][s]["knowledge"] for s in range(3)] == [4, 4, 3]


def test_gta_r170_icon_below_the_top_step_scores_nothing():
    g = calm(3)
    set_knowledge(g, 0, "research", 5)
    set_knowledge(g, 0, "resources", 5)
    set_knowledge(g, 0, "income", 5)
    set_counter(g, "on_elephant", 0, 4)
    set_goods(g, 0, coins=3, marble=2)
    assert final(g)["parts"][0]["knowledge"] == 0


def test_gta_r171_objectives_are_revealed_at_the_end_of_era_three():
    g = plain(ready(3))
    set_var(g, "era", 3)
    slots = [zone(g, "objective_slots", s) for s in range(3)]
    assert all(not g.state["cards"][c]["up"] for z in slots for c in z)
    run(g, "emit era_end")
    assert var(g, "finished") is True
    assert all(g.state["cards"][c]["up"] for z in slots for c in z)


def test_gta_r171_only_placed_cards_score_and_only_for_their_owner():
    g = calm(3)
    donate_at(g, "north", "a1", 0)
    donate_at(g, "north", "a2", 0)
    objective(g, 0, "c1", placed=False)  # in hand: never placed
    assert final(g)["parts"][0]["objectives"] == 0
    objective(g, 1, "c3")  # placed by P2: South donations, P2 has none
    res = final(g)
    assert res["parts"][0]["objectives"] == 0 and res["parts"][1]["objectives"] == 0
    no_objectives(g)
    objective(g, 0, "c1")
    assert final(g)["parts"][0]["objectives"] == 2


# ------------------------------------------------------------------ objectives (GTA-R172 .. R184)
def test_gta_r172_tied_players_share_the_rank_and_the_next_is_rank_three():
    g = calm(3)
    for s, c in enumerate([3, 3, 2]):
        set_goods(g, s, coins=c)
    assert [objective_score(g, s, "d1") for s in range(3)] == [5, 5, 0]


def test_gta_r172_ranking_rule_is_a_data_switch():
    g = new_game(GAME, 3, seed=1, options=(("objective_ranking", "dense"),))
    while g.pending and g.state["round"] == 0:
        g.answer(0)
    plain(g)
    no_objectives(g)
    for s, c in enumerate([3, 3, 2]):
        set_goods(g, s, coins=c)
    assert [objective_score(g, s, "d1") for s in range(3)] == [5, 5, 2]  # the other reading (GTA-D13)


def test_gta_r172_tie_for_second_scores_two_each():
    g = calm(4)
    for s, c in enumerate([4, 2, 2, 1]):
        set_goods(g, s, coins=c)
    assert [objective_score(g, s, "d1") for s in range(4)] == [5, 2, 2, 0]


def test_gta_r173_majority_objective_five_two_nothing():
    g = calm(3)
    donate_at(g, "east", "a1", 0)
    donate_at(g, "east", "a2", 0)
    donate_at(g, "east", "a3", 1)
    donate_at(g, "north", "a1", 2)  # elsewhere: does not count for East
    assert [objective_score(g, s, "a2") for s in range(3)] == [5, 2, 0]


def test_gta_r173_majority_needs_a_marker_on_that_board():
    g = calm(3)
    donate_at(g, "west", "a1", 1)
    donate_at(g, "west", "a2", 1)
    # P1 and P3 hold 0 markers: tied second by count, but 0 markers score nothing
    assert objective_score(g, 0, "a4") == 0
    assert objective_score(g, 1, "a4") == 5


def test_gta_r174_per_marker_objective():
    g = calm(3)
    for slot in ("a1", "a2", "b1"):
        donate_at(g, "south", slot, 0)
    donate_at(g, "south", "a3", 1)
    donate_at(g, "north", "a1", 0)
    assert objective_score(g, 0, "c3") == 3
    assert objective_score(g, 1, "c3") == 1
    assert objective_score(g, 2, "c3") == 0


def test_gta_r175_most_coins_objective():
    g = calm(3)
    for s, c in enumerate([1, 6, 0]):
        set_goods(g, s, coins=c, marble=5 if s == 2 else 0)
    assert [objective_score(g, s, "d1") for s in range(3)] == [2, 5, 0]


def test_gta_r175_zero_coins_score_nothing_even_when_nobody_has_coins():
    g = calm(3)
    assert objective_score(g, 0, "d1") == 0


def test_gta_r176_most_resources_objective():
    g = calm(3)
    set_goods(g, 0, coins=9)  # coins are not resources
    set_goods(g, 1, marble=1, copper=1, gold=1)
    set_goods(g, 2, gold=2)
    assert [objective_score(g, s, "d2") for s in range(3)] == [0, 5, 2]


@pytest.mark.parametrize("boards,points", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5)])
def test_gta_r177_boards_reached(boards, points):
    g = calm(3)
    for d in ("north", "east", "south", "west")[:boards]:
        donate_at(g, d, "a1", 0)
        donate_at(g, d, "a2", 0)
    donate_at(g, "west", "a4", 1)
    assert objective_score(g, 0, "d3") == points


@pytest.mark.parametrize("layers,points", [(0, 0), (1, 1), (2, 2), (3, 4), (4, 6)])
def test_gta_r178_layers_reached_on_any_boards(layers, points):
    g = calm(3)
    for s in ("a1", "a2", "a3", "b1", "b2", "c1"):
        donate_at(g, "north", s, 1)  # the supports belong to P2
    spots = [("east", "a1"), ("north", "b3"), ("north", "c2"), ("north", "d1")]
    donate_at(g, "north", "a4", 1)
    for d, s in spots[:layers]:
        donate_at(g, d, s, 0)
    if layers:
        donate_at(g, "south", "a1", 0)  # a second L1 marker adds no layer
    assert objective_score(g, 0, "d4") == points


@pytest.mark.parametrize("research,resources,points", [(3, 3, 6), (5, 6, 6), (3, 2, 0), (2, 3, 0), (0, 0, 0)])
def test_gta_r179_knowledge_pair_reached_or_passed(research, resources, points):
    g = calm(3)
    set_knowledge(g, 0, "research", research)
    set_knowledge(g, 0, "resources", resources)
    set_knowledge(g, 0, "income", 6)  # a third track does not matter
    assert objective_score(g, 0, "a5") == points


@pytest.mark.parametrize("l2,l3,points", [(2, 2, 5), (4, 0, 5), (1, 2, 0), (0, 3, 0)])
def test_gta_r180_middle_layers(l2, l3, points):
    g = calm(3)
    for d in ("north", "east"):
        for s in ("a1", "a2", "a3", "a4"):
            donate_at(g, d, s, 1)
    l2_spots = [("north", "b1"), ("north", "b2"), ("east", "b1"), ("east", "b2")]
    for d, s in l2_spots[:l2]:
        donate_at(g, d, s, 0)
    for d, s in [("south", "c1"), ("south", "c2"), ("west", "c1")][:l3]:
        donate_at(g, d, s, 0)
    donate_at(g, "west", "a1", 0)  # L1 does not count
    donate_at(g, "west", "d1", 0)  # nor L4
    assert objective_score(g, 0, "b2") == points


@pytest.mark.parametrize("n,points", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5), (6, 5)])
def test_gta_r181_layer_one_count(n, points):
    g = calm(3)
    spots = [(d, s) for d in ("north", "east") for s in ("a1", "a2", "a3")]
    for d, s in spots[:n]:
        donate_at(g, d, s, 0)
    donate_at(g, "south", "b1", 0)  # another layer does not count
    assert objective_score(g, 0, "b3") == points


@pytest.mark.parametrize("n,points", [(0, 0), (1, 2), (2, 3), (3, 4), (4, 6), (5, 6)])
def test_gta_r182_layer_two_count(n, points):
    g = calm(3)
    spots = [(d, s) for d in ("north", "east") for s in ("b1", "b2", "b3")]
    for d, s in spots[:n]:
        donate_at(g, d, s, 0)
    donate_at(g, "south", "a1", 0)
    assert objective_score(g, 0, "b4") == points


@pytest.mark.parametrize("n,points", [(0, 0), (1, 3), (2, 4), (3, 5), (4, 7), (5, 7)])
def test_gta_r183_layer_three_count(n, points):
    g = calm(3)
    spots = [(d, s) for d in ("north", "east", "south") for s in ("c1", "c2")]
    for d, s in spots[:n]:
        donate_at(g, d, s, 0)
    donate_at(g, "west", "b1", 0)
    assert objective_score(g, 0, "b5") == points


def test_gta_r184_layer_four_reached():
    g = calm(3)
    donate_at(g, "north", "c1", 0)
    assert objective_score(g, 0, "b6") == 0
    donate_at(g, "east", "d1", 0)
    assert objective_score(g, 0, "b6") == 5
    donate_at(g, "west", "d1", 0)  # a second one adds nothing
    assert objective_score(g, 0, "b6") == 5


# ------------------------------------------------------------------ the winner (GTA-R185)
def test_gta_r185_most_pp_wins():
    g = calm(3)
    for s, v in enumerate([12, 15, 14]):
        set_counter(g, "pp", s, v)
    donate_at(g, "north", "a1", 0)  # donations only break ties
    assert final(g)["winners"] == [1]


def test_gta_r185_tie_broken_by_most_donations():
    g = calm(3)
    for s, v in enumerate([15, 15, 9]):
        set_counter(g, "pp", s, v)
    donate_at(g, "north", "a1", 0)
    donate_at(g, "east", "a1", 1)
    donate_at(g, "east", "a2", 1)
    for slot in ("a3", "a4", "b1"):
        donate_at(g, "south", slot, 2)  # most donations, but not among the tied
    assert final(g)["winners"] == [1]


def test_gta_r185_still_tied_players_share_the_victory():
    g = calm(3)
    for s, v in enumerate([15, 15, 9]):
        set_counter(g, "pp", s, v)
    donate_at(g, "north", "a1", 0)
    donate_at(g, "east", "a1", 1)
    assert final(g)["winners"] == [0, 1]


# ------------------------------------------------------------------ player counts (GTA-R186, R187)
def _shape(g):
    return g.state["boards"]["donations_north"]["shape"], len(owners(g, "north"))


@pytest.mark.parametrize(
    "players,shape,spaces,display,spares", [(2, "two", 8, 6, 4), (3, "three", 10, 9, 0), (4, "four", 12, 12, 0)]
)
def test_gta_r186_player_count_changes_boards_display_and_spare_workers(players, shape, spaces, display, spares):
    g = ready(players, seed=2)
    for d in ("north", "east", "south", "west"):
        b = g.state["boards"][f"donations_{d}"]
        assert (b["shape"], len(b["owners"])) == (shape, spaces)
    assert len(zone(g, "warehouse_display")) == display
    assert len(var(g, "spare_workers")) == spares
    # everything else is set up alike: 12 workers on the ring, a full market, the same player set-up
    assert sum(len(v) for v in g.state["boards"]["workplaces"]["pieces"].values()) == 12
    assert g.state["boards"]["market"]["filled"] == {"marble": 5, "copper": 4, "gold": 4}
    assert g.state["n"] == players and not g.state["automata"]
    assert [counter(g, "on_elephant", s) for s in range(players)] == [2] * players
    assert [counter(g, "in_market", s) for s in range(players)] == [5] * players


def test_gta_r186_more_than_four_players_refused():
    with pytest.raises(MasonError):
        game(5)


def test_gta_r187_two_players_round_end_activation():
    g = plain(ready(2))
    spare(g, ["yellow", "green", "blue", "white"], at=0)
    mahout(g, 0, "mh_coin_marble", "green")
    mahout(g, 1, "mh_coin_marble", "green")
    run(g, "emit round_end")
    assert prompt(g).startswith("Round-end follow") and g.pending["seat"] == 0
    act(g, "Follow")
    assert prompt(g).startswith("Round-end follow") and g.pending["seat"] == 1
    act(g, "Follow")
    assert done(g)
    assert goods(g, 0)["marble"] == 1 and goods(g, 1)["marble"] == 1
    assert (pp(g, 0), pp(g, 1)) == (10, 10)  # nobody gains PP for these follows
    assert var(g, "era_round") == 2


def test_gta_r187_no_round_end_activation_with_three_players():
    g = plain(ready(3))
    for s in range(3):
        mahout(g, s, "mh_coin_marble", "green")
        mahout(g, s, "mh_any", "yellow")
        mahout(g, s, "mh_k", "blue")
    run(g, "emit round_end")
    assert done(g)
    assert all(goods(g, s)["marble"] == 0 for s in range(3))


# ------------------------------------------------------------------ solo set-up (GTA-R188 .. R199)
@pytest.mark.parametrize("seed", [1, 4])
def test_gta_r188_solo_sets_up_as_for_two_players(seed):
    g = ready(1, seed)
    for d in ("north", "east", "south", "west"):
        assert g.state["boards"][f"donations_{d}"]["shape"] == "two"
    assert len(zone(g, "warehouse_display")) == 6
    assert sorted(var(g, "spare_workers")) == ["blue", "green", "white", "yellow"]
    assert var(g, "start_player") == 0  # the human starts
    # the human sets up as usual (GTA-R19 .. R34)
    assert len(zone(g, "objective_slots", 0)) == 1 and len(zone(g, "objectives", 0)) == 3
    assert [g.state["cards"][c]["t"] for c in zone(g, "mahout_slots", 0)] == ["mh_i"]
    assert counter(g, "on_elephant", 0) == 2 and counter(g, "in_market", 0) == 5
    assert var(g, "tax_icons", 0) == 1 and counter(g, "coins", 0) == 1 and pp(g, 0) == 5


def test_gta_r189_the_maharaja_is_an_extra_automated_seat_with_the_solo_board():
    g = ready(1)
    assert g.state["n"] == 2 and g.state["automata"] == {"1": "maharaja"}
    assert g.seat_names() == ["P1", "Maharaja"]
    assert counter(g, "grid", MAHA) == 15  # solo side: the marker grid
    # no player-side parts: no mahouts, objective hand, market markers, coins
    assert zone(g, "mahouts", MAHA) == [] and zone(g, "mahout_slots", MAHA) == []
    assert zone(g, "objectives", MAHA) == [] and counter(g, "in_market", MAHA) == 0
    assert counter(g, "coins", MAHA) == 0


@pytest.mark.parametrize("variants,maharaja", [((), 0), (("maharaja_starts_at_5",), 5)])
def test_gta_r190_the_maharaja_starts_at_0_pp_or_5_with_maharaja_starts_at_5(variants, maharaja):
    # the seed's solo setup (steps 1-6) lists every piece he takes and puts no score marker on 5;
    # the variant reads "set up as for 2 players" as putting it on 5 like a player's (README)
    g = ready(1, variants=variants)
    assert pp(g, 0) == 5 and pp(g, MAHA) == maharaja
    assert counter(g, "marble", MAHA) == 1  # his setup marble came from the mine, not as 1 PP


@pytest.mark.parametrize("seed", [1, 3, 4, 8])
def test_gta_r190_markers_and_elephant_on_the_four_pp_district(seed):
    g = ready(1, seed)
    assert counter(g, "grid", MAHA) == 15 and counter(g, "on_elephant", MAHA) == 1
    tile = g.state["cards"][var(g, "temple_tiles")[0]]["t"]
    four = {"tt1": "north", "tt2": "east", "tt3": "south", "tt4": "west"}[tile]
    assert elephant(g, MAHA) == four


def test_gta_r191_marker_gain_from_his_board_without_elephant_limit():
    g = solo()
    set_counter(g, "on_elephant", MAHA, 7)
    run(g, "emit take_marker(who=1)")
    assert counter(g, "grid", MAHA) == 14 and counter(g, "on_elephant", MAHA) == 8
    assert pp(g, MAHA) == 10


@pytest.mark.parametrize("grid,pp_gain,gold", [(11, 2, 0), (6, 0, 1), (1, 3, 0), (12, 0, 0), (7, 0, 0)])
def test_gta_r192_emptying_a_row_gives_its_reward(grid, pp_gain, gold):
    g = solo()
    set_counter(g, "grid", MAHA, grid)
    set_counter(g, "on_elephant", MAHA, 0)
    before = mine(g)
    run(g, "emit take_marker(who=1)")
    assert counter(g, "grid", MAHA) == grid - 1 and counter(g, "on_elephant", MAHA) == 1
    assert pp(g, MAHA) == 10 + pp_gain
    assert goods(g, MAHA)["gold"] == gold
    assert mine(g) == [before[0], before[1], before[2] - gold]  # the row's gold comes from his mine


def test_gta_r192_row_gold_follows_the_mine_substitution():
    g = solo()
    set_counter(g, "grid", MAHA, 6)
    set_mine(g, 2, 0, 0)  # no gold: gold -> marble along the arrow
    run(g, "emit take_marker(who=1)")
    assert goods(g, MAHA)["marble"] == 1 and goods(g, MAHA)["gold"] == 0
    assert mine(g) == [1, 0, 0]


def test_gta_r193_empty_board_marker_gain_gives_one_pp():
    g = solo()
    set_counter(g, "grid", MAHA, 0)
    set_counter(g, "on_elephant", MAHA, 2)
    run(g, "emit take_marker(who=1)")
    assert pp(g, MAHA) == 11 and counter(g, "on_elephant", MAHA) == 2 and counter(g, "grid", MAHA) == 0


def test_gta_r194_mine_filled_then_one_marble_to_his_warehouse():
    g = ready(1)
    full = g.state["constants"]["solo_mine"]  # marble, copper, gold (placeholder data)
    assert len(full) == 3 and min(full) >= 1
    assert mine(g) == [full[0] - 1, full[1], full[2]]
    assert goods(g, MAHA) == {"coins": 0, "marble": 1, "copper": 0, "gold": 0}


def test_gta_r195_his_gains_come_from_the_mine_and_payments_return_to_it():
    g = solo()
    set_mine(g, 4, 4, 3)
    run(g, 'emit gain_goods(who=1, what="copper", n=2)')
    assert goods(g, MAHA)["copper"] == 2 and mine(g) == [4, 2, 3]
    set_goods(g, MAHA, marble=1, copper=2)
    donate_at(g, "south", "a1", 0)
    donate_at(g, "south", "a2", 0)
    put_elephant(g, MAHA, "south")
    set_counter(g, "on_elephant", MAHA, 1)
    run(g, 'emit place_donation(who=1, d="south", x="b1")')  # L2: 1 marble + 1 copper
    assert goods(g, MAHA) == {"coins": 0, "marble": 0, "copper": 1, "gold": 0}
    assert mine(g) == [5, 3, 3]


def test_gta_r195_his_warehouse_has_no_limit():
    g = solo()
    set_goods(g, MAHA, coins=6, marble=6, copper=6)
    run(g, 'emit gain_goods(who=1, what="gold", n=3)')
    assert done(g) and goods(g, MAHA)["gold"] == 3 and mine(g)[2] == 0


@pytest.mark.parametrize(
    "what,stock,got,left",
    [
        ("marble", (0, 2, 2), "copper", (0, 1, 2)),
        ("marble", (0, 0, 2), "gold", (0, 0, 1)),
        ("copper", (2, 0, 0), "marble", (1, 0, 0)),
        ("gold", (0, 1, 0), "copper", (0, 0, 0)),
        ("gold", (1, 1, 1), "gold", (1, 1, 0)),
    ],
)
def test_gta_r196_substitution_along_the_mine_arrow(what, stock, got, left):
    g = solo()
    set_mine(g, *stock)
    run(g, f'emit maha_resource(who=1, what="{what}")')
    assert goods(g, MAHA)[got] == 1 and sum(goods(g, MAHA).values()) == 1
    assert tuple(mine(g)) == left and pp(g, MAHA) == 10


def test_gta_r196_empty_mine_gives_one_pp_per_resource():
    g = solo()
    set_mine(g, 0, 0, 0)
    set_var(g, "era", 3)
    spare(g, ["blue", "blue", "blue", "blue"])
    set_var(g, "last_colour", "blue")
    auto(g, 'emit maha_action(who=1, colour="blue")')  # era III: copper + gold
    assert pp(g, MAHA) == 12 and sum(goods(g, MAHA).values()) == 0


@pytest.mark.parametrize(
    "era,stock,said",
    [
        (2, (4, 4, 3), ["marble", "copper"]),
        (3, (4, 4, 3), ["copper", "gold"]),
        (2, (1, 0, 0), ["marble", "PP"]),  # copper finds copper, gold, marble all gone: 1 PP
        (3, (0, 1, 1), ["copper", "gold"]),
        (3, (1, 0, 1), ["gold", "marble"]),
    ],
)  # copper -> gold; then gold -> marble
def test_gta_r196_multi_resource_gain_resolved_one_at_a_time_in_order(era, stock, said):
    g = solo()
    set_mine(g, *stock)
    set_var(g, "era", era)
    mark = len(g.log)
    run(g, 'emit maha_action(who=1, colour="blue")')
    gains = [t.split()[-1] for t in texts(g, mark) if t.startswith("Maharaja gains 1 ")]
    assert gains == said
    assert sum(goods(g, MAHA).values()) + pp(g, MAHA) - 10 == 2


def test_gta_r197_r209_white_track_starts_leftmost_and_moves_right():
    g = ready(1)
    assert var(g, "maha_track", MAHA) == 0
    plain(g)
    run(g, 'emit maha_action(who=1, colour="white")')
    assert var(g, "maha_track", MAHA) == 1 and pp(g, MAHA) == 11  # space 1: 1 PP


@pytest.mark.parametrize("seed", [1, 2, 5, 8])
def test_gta_r198_his_objective_is_an_undrawn_type_c_card_with_the_solo_icon(seed):
    g = ready(1, seed)
    cards = g.state["cards"]
    mine_ = zone(g, "objective_slots", MAHA)
    assert len(mine_) == 1
    c = cards[mine_[0]]
    o = g.program.types[c["t"]]
    assert o["otype"] == "c" and o["solo"] is True and o["district"] in ("north", "east", "south", "west")
    assert c["up"] is True  # face up
    human_c = [
        cards[x]["t"]
        for x in zone(g, "objectives", 0) + zone(g, "objective_slots", 0)
        if g.program.types[cards[x]["t"]]["otype"] == "c"
    ]
    assert len(human_c) == 1 and human_c[0] != c["t"]
    # every other type-C card is out of the game
    rest = {f"c{i}" for i in range(1, 7)} - {c["t"], human_c[0]}
    assert {cards[x]["t"] for x in zone(g, "box")} >= rest


def test_gta_r199_the_maharaja_is_the_last_player_with_the_reminder():
    for seed in (1, 2, 3):
        g = ready(1, seed)
        assert var(g, "start_player") == 0 and var(g, "reminder") == MAHA


# ------------------------------------------------------------------ a solo round (GTA-R200, R212)
def _play_until(g, start, limit=500):
    n = 0
    while g.pending and not prompt(g).startswith(start):
        g.answer(0)
        n += 1
        assert n < limit, f"no '{start}' decision"


def test_gta_r200_r212_human_turn_then_maharaja_then_marker_and_round_end_follow():
    g = ready(1, seed=1)
    spares = var(g, "spare_workers")
    nxt = spares[1]  # the colour beside ES, where the marker goes
    human_slots = {g.state["cards"][c]["slot"] for c in zone(g, "mahout_slots", 0)}
    assert nxt not in human_slots
    mahout(g, 0, "mh_coin_marble", nxt)
    for c, t in zip(("yellow", "blue", "white", "green"), ("mh_coin_pp", "mh_coin_marble", "mh_any", "mh_k")):
        mahout(g, MAHA, t, c)  # even with tiles he never follows (GTA-R200)
    _play_until(g, "Round-end follow")
    assert g.pending["seat"] == 0 and g.state["round"] == 1
    said = texts(g)
    human_done = max(i for i, t in enumerate(said) if t.startswith("P1's activated worker is"))
    maha = max(i for i, t in enumerate(said) if t.startswith("Maharaja acts for"))
    moved = max(i for i, t in enumerate(said) if "moves the Maharaja marker" in t)
    assert human_done < maha < moved  # human, then Maharaja, then the marker
    assert said[moved].startswith("Maharaja moves")  # he is the last player (GTA-R199)
    assert g.state["boards"]["paths"]["markers"]["maharaja"] == 1
    assert not [e for e in g.log if e.get("type") == "automated" and e.get("chosen") in ("Follow", "Decline")]
    before = (goods(g, 0), pp(g, 0), pp(g, MAHA))
    act(g, "Follow")
    assert goods(g, 0)["coins"] == before[0]["coins"] + 1 and goods(g, 0)["marble"] == before[0]["marble"] + 1
    assert pp(g, 0) == before[1] and pp(g, MAHA) == before[2]  # no PP for the round-end follow
    assert var(g, "era_round") == 2 and g.state["round"] == 2


# ------------------------------------------------------------------ the Maharaja's step 1 (GTA-R201 .. R204)
def maha_ready(g, at="west", markers=1, **goods_):
    """Era I on tt1 (N 4, E 3, S 2, W 1); his elephant on ``at`` with ``markers``; his goods."""
    tiles(g)
    put_elephant(g, MAHA, at)
    set_counter(g, "on_elephant", MAHA, markers)
    set_goods(g, MAHA, **goods_)
    no_objectives(g)


def test_gta_r201_he_donates_with_a_marker_and_the_resources():
    g = solo()
    maha_ready(g, at="north", marble=1)
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert owners(g, "north")["a1"] == MAHA
    assert counter(g, "on_elephant", MAHA) == 0 and goods(g, MAHA)["marble"] == 0
    assert var(g, "maha_done") is True


def test_gta_r201_no_donation_without_a_marker_on_his_elephant():
    g = solo()
    maha_ready(g, at="north", markers=0, marble=3)
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert all(v is None for d in ("north", "east", "south", "west") for v in owners(g, d).values())
    assert goods(g, MAHA)["marble"] == 3 and var(g, "maha_done") is False


def test_gta_r201_no_donation_without_resources():
    g = solo()
    maha_ready(g, at="north", markers=3)
    set_goods(g, MAHA, coins=5)
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert all(v is None for v in owners(g, "north").values()) and var(g, "maha_done") is False


def test_gta_r202_board_worth_most_and_a_free_move_without_penalty():
    g = solo()
    maha_ready(g, at="west", marble=1)
    g.state["boards"]["paths"]["markers"]["maharaja"] = 3  # WN: a normal West -> North move crosses it
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert elephant(g, MAHA) == "north" and owners(g, "north")["a1"] == MAHA
    assert pp(g, MAHA) == 11 and goods(g, MAHA)["coins"] == 0  # 1 PP for a1, no coin paid, no penalty


def test_gta_r202_only_boards_where_he_can_legally_donate():
    g = solo()
    maha_ready(g, at="west", marble=1)
    for s in ("a1", "a2", "a3"):
        donate_at(g, "north", s, 0)  # North (4) has only L2 left: he lacks copper
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert elephant(g, MAHA) == "east" and owners(g, "east")["a1"] == MAHA  # East is worth 3
    assert owners(g, "north")["b1"] is None


def test_gta_r203_most_pp_space_and_supporters_gain():
    g = solo()
    maha_ready(g, at="north", marble=1, copper=1)
    donate_at(g, "north", "a1", 0)
    donate_at(g, "north", "a2", 0)
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert owners(g, "north")["b1"] == MAHA and owners(g, "north")["a3"] is None
    assert pp(g, MAHA) == 12 and pp(g, 0) == 12  # b1: 2 PP; the human's two supports: 1 each


def test_gta_r203_leftmost_among_equal_spaces():
    g = solo()
    maha_ready(g, at="north", marble=1)
    donate_at(g, "north", "a1", 0)
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert owners(g, "north")["a2"] == MAHA and owners(g, "north")["a3"] is None


def test_gta_r203_same_x_goes_to_the_lower_index():
    g = solo()
    maha_ready(g, at="north", copper=1, gold=1)
    for s in ("a1", "a2", "a3", "b1", "b2"):
        donate_at(g, "north", s, 0)
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert owners(g, "north")["c1"] == MAHA and owners(g, "north")["c2"] is None
    assert pp(g, MAHA) == 13


def test_gta_r204_no_donation_possible_elephant_stays_and_he_gains_a_marker():
    g = solo()
    maha_ready(g, at="west", markers=1)
    spare(g, ["white"] * 4)
    set_var(g, "last_colour", "white")  # step 2: two white moves, no marker
    auto(g, "emit automaton_turn(who=1)")
    assert elephant(g, MAHA) == "west"
    assert counter(g, "grid", MAHA) == 14 and counter(g, "on_elephant", MAHA) == 2


# ------------------------------------------------------------------ the Maharaja's step 2 (GTA-R205 .. R211)
def test_gta_r205_printed_colour_of_the_human_worker_and_the_worker_at_the_marker():
    g = solo()
    tiles(g)
    put_elephant(g, 0, "south")
    put_elephant(g, MAHA, "west")
    set_counter(g, "on_elephant", MAHA, 0)
    warehouse(g, 0, "wh04")  # the human's yellow counts as white ...
    set_ring(g, {"n1": ["yellow"]})
    run(g, "emit player_turn(who=0)")
    while g.pending:
        g.answer(0)
    assert var(g, "last_colour") == "yellow"  # ... but only for secondary actions
    spare(g, ["green", "green", "blue", "white"], at=2)  # SW: blue; the marker has not moved yet
    auto(g, "emit automaton_turn(who=1)")
    said = texts(g)
    assert "Maharaja acts for yellow (the player's worker) and blue (beside the Maharaja marker)." in said
    assert var(g, "maha_track", MAHA) == 0  # no white action
    # step 1: a marker (nothing to donate); yellow: a marker + 1 marble; blue (era I): 2 marble
    assert counter(g, "grid", MAHA) == 13 and goods(g, MAHA)["marble"] == 3
    assert g.state["boards"]["market"]["filled"]["marble"] == 4
    assert g.state["boards"]["paths"]["markers"]["maharaja"] == 2


def test_gta_r206_top_to_bottom_order():
    g = solo()
    maha_ready(g, markers=0)
    spare(g, ["blue"] * 4)
    set_var(g, "last_colour", "white")  # white is listed first, blue acts first
    mark = len(g.log)
    auto(g, "emit automaton_turn(who=1)")
    said = texts(g, mark)
    blue = said.index("Maharaja gains 1 marble")
    white = next(i for i, t in enumerate(said) if t.startswith("Maharaja's track marker moves"))
    assert blue < white


def test_gta_r206_two_workers_of_one_colour_act_twice():
    g = solo()
    maha_ready(g, markers=0)
    spare(g, ["white"] * 4)
    set_var(g, "last_colour", "white")
    auto(g, "emit automaton_turn(who=1)")
    assert var(g, "maha_track", MAHA) == 2


def test_gta_r207_yellow_marker_marble_then_market_return():
    g = solo()
    maha_ready(g, markers=0)
    mark = len(g.log)
    run(g, 'emit maha_action(who=1, colour="yellow")')
    assert counter(g, "grid", MAHA) == 14 and counter(g, "on_elephant", MAHA) == 1
    assert goods(g, MAHA)["marble"] == 1
    assert g.state["boards"]["market"]["filled"] == {"marble": 4, "copper": 4, "gold": 4}
    said = texts(g, mark)
    i = next(i for i, t in enumerate(said) if "takes a donation marker" in t)
    j = said.index("Maharaja gains 1 marble")
    k = next(i for i, t in enumerate(said) if "returns the lowest marble" in t)
    assert i < j < k


def test_gta_r207_returns_the_type_actually_gained():
    g = solo()
    maha_ready(g, markers=0)
    set_mine(g, 0, 2, 2)  # no marble: copper instead
    run(g, 'emit maha_action(who=1, colour="yellow")')
    assert goods(g, MAHA)["copper"] == 1
    assert g.state["boards"]["market"]["filled"] == {"marble": 5, "copper": 3, "gold": 4}


def test_gta_r207_no_return_from_an_empty_column_or_after_pp():
    g = solo()
    maha_ready(g, markers=0)
    g.state["boards"]["market"]["filled"]["marble"] = 0
    run(g, 'emit maha_action(who=1, colour="yellow")')
    assert done(g) and goods(g, MAHA)["marble"] == 1
    assert g.state["boards"]["market"]["filled"] == {"marble": 0, "copper": 4, "gold": 4}
    g = solo()
    maha_ready(g, markers=0)
    set_mine(g, 0, 0, 0)
    run(g, 'emit maha_action(who=1, colour="yellow")')
    assert pp(g, MAHA) == 11 and sum(goods(g, MAHA).values()) == 0
    assert g.state["boards"]["market"]["filled"] == {"marble": 5, "copper": 4, "gold": 4}


@pytest.mark.parametrize(
    "era,gained", [(1, {"marble": 2}), (2, {"marble": 1, "copper": 1}), (3, {"copper": 1, "gold": 1})]
)
def test_gta_r208_blue_gains_by_era(era, gained):
    g = solo()
    maha_ready(g, markers=0)
    set_var(g, "era", era)
    before = mine(g)
    run(g, 'emit maha_action(who=1, colour="blue")')
    want = {"coins": 0, "marble": 0, "copper": 0, "gold": 0, **gained}
    assert goods(g, MAHA) == want
    assert mine(g) == [before[0] - want["marble"], before[1] - want["copper"], before[2] - want["gold"]]


@pytest.mark.parametrize("pos", range(0, 7))
def test_gta_r209_white_moves_one_space_and_gains_its_reward(pos):
    g = solo()
    maha_ready(g, markers=0)
    set_var(g, "maha_track", pos, MAHA)
    prize = g.state["constants"]["solo_track"][pos + 1]
    run(g, 'emit maha_action(who=1, colour="white")')
    assert var(g, "maha_track", MAHA) == pos + 1
    expect = {"pp1": (1, 0, 0), "pp2": (2, 0, 0), "marble1": (0, 1, 0), "marble2": (0, 2, 0), "marker": (0, 0, 1)}
    assert expect[prize] == (pp(g, MAHA) - 10, goods(g, MAHA)["marble"], counter(g, "on_elephant", MAHA))


def test_gta_r209_track_rewards_match_the_digest_kinds():
    track = ready(1).state["constants"]["solo_track"]
    assert len(track) == 9 and track[0] == "none"
    assert set(track[1:7]) <= {"pp1", "pp2", "marble1", "marble2", "marker"}


@pytest.mark.parametrize("start,then", [(6, 7), (7, 8), (8, 7)])
def test_gta_r210_the_two_rightmost_spaces_give_one_pp_and_bounce(start, then):
    g = solo()
    maha_ready(g, markers=0)
    set_var(g, "maha_track", start, MAHA)
    run(g, 'emit maha_action(who=1, colour="white")')
    assert var(g, "maha_track", MAHA) == then and pp(g, MAHA) == 11
    assert goods(g, MAHA)["marble"] == 0 and counter(g, "on_elephant", MAHA) == 0


def test_gta_r210_back_and_forth():
    g = solo()
    maha_ready(g, markers=0)
    set_var(g, "maha_track", 7, MAHA)
    seen = []
    for _ in range(4):
        run(g, 'emit maha_action(who=1, colour="white")')
        seen.append(var(g, "maha_track", MAHA))
    assert seen == [8, 7, 8, 7] and pp(g, MAHA) == 14


def test_gta_r211_green_donates_on_his_objective_district_first():
    g = solo()
    maha_ready(g, at="west", marble=1)
    objective(g, MAHA, "c3")  # South (2 on tt1), not North (4)
    auto(g, 'emit maha_action(who=1, colour="green")')
    assert elephant(g, MAHA) == "south" and owners(g, "south")["a1"] == MAHA
    assert all(v is None for v in owners(g, "north").values())


def test_gta_r211_green_falls_back_on_the_board_worth_most():
    g = solo()
    maha_ready(g, at="west", marble=1)
    objective(g, MAHA, "c3")
    for s in ("a1", "a2", "a3"):
        donate_at(g, "south", s, 0)  # South: only L2 left, he has no copper
    auto(g, 'emit maha_action(who=1, colour="green")')
    assert elephant(g, MAHA) == "north" and owners(g, "north")["a1"] == MAHA
    assert counter(g, "grid", MAHA) == 15


def test_gta_r211_green_without_a_donation_gains_a_marker_and_the_elephant_stays():
    g = solo()
    maha_ready(g, at="west", markers=1)
    objective(g, MAHA, "c3")
    auto(g, 'emit maha_action(who=1, colour="green")')
    assert elephant(g, MAHA) == "west"
    assert counter(g, "grid", MAHA) == 14 and counter(g, "on_elephant", MAHA) == 2


# ------------------------------------------------------------------ solo era end and game end (GTA-R213 .. R216)
def test_gta_r213_he_scores_majorities_but_pays_no_tax_and_gets_no_income():
    g = solo()
    tiles(g)  # era I: tt1, North 4, East 3
    donate_at(g, "north", "a1", MAHA)
    donate_at(g, "north", "a2", MAHA)
    donate_at(g, "north", "a3", 0)
    donate_at(g, "east", "a1", MAHA)
    donate_at(g, "east", "a2", 0)  # tied on East: both score 3
    set_var(g, "tax_icons", 6, MAHA)  # would owe 3
    set_knowledge(g, MAHA, "income", 2)  # would pay 1 coin + 1 PP
    set_knowledge(g, MAHA, "resources", 3)  # would pay 1 resource
    set_goods(g, MAHA, coins=1)
    run(g, "emit era_end")
    assert done(g)
    assert pp(g, MAHA) == 10 + 4 + 3
    assert goods(g, MAHA) == {"coins": 1, "marble": 0, "copper": 0, "gold": 0}
    assert pp(g, 0) == 10 + 3 - 1  # the human: East 3, tax 1 unpaid in era I
    assert var(g, "era") == 2


def test_gta_r214_he_gains_the_donation_bridge_coin():
    g = solo()
    maha_ready(g, at="north", marble=1)
    tiles(g, bridges=("br3", "br1", "br2"))
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert owners(g, "north")["a1"] == MAHA and goods(g, MAHA)["coins"] == 1


def test_gta_r214_other_bridges_give_him_nothing_for_a_donation():
    g = solo()
    maha_ready(g, at="north", marble=1)
    tiles(g, bridges=("br4", "br6", "br3"))  # br3 is a later era's bridge
    auto(g, "emit maha_donate(who=1, prefer=none)")
    assert owners(g, "north")["a1"] == MAHA
    assert goods(g, MAHA)["coins"] == 0 and pp(g, MAHA) == 11


@pytest.mark.parametrize("track,bonus", [(6, 0), (7, 4), (8, 3)])
def test_gta_r215_objective_plus_track_end_bonus(track, bonus):
    g = solo()
    no_objectives(g)
    objective(g, MAHA, "c1")  # North: 1 PP per marker
    donate_at(g, "north", "a1", MAHA)
    donate_at(g, "north", "a2", MAHA)
    set_goods(g, MAHA, coins=3, marble=2, copper=1, gold=1)  # 3 coins, 4 resources
    set_var(g, "maha_track", track, MAHA)
    res = final(g)
    assert res["parts"][MAHA] == {"play": 10, "knowledge": bonus, "objectives": 2}


def test_gta_r216_human_wins_with_more_pp():
    g = solo()
    no_objectives(g)
    set_counter(g, "pp", 0, 31)
    set_counter(g, "pp", MAHA, 30)
    donate_at(g, "north", "a1", MAHA)
    assert final(g)["winners"] == [0]
    set_counter(g, "pp", 0, 29)
    assert final(g)["winners"] == [MAHA]


def test_gta_r216_tie_broken_by_donations():
    g = solo()
    no_objectives(g)
    set_counter(g, "pp", 0, 30)
    set_counter(g, "pp", MAHA, 30)
    donate_at(g, "north", "a1", MAHA)
    donate_at(g, "east", "a1", 0)
    donate_at(g, "east", "a2", 0)
    assert final(g)["winners"] == [0]
    donate_at(g, "west", "a1", MAHA)
    assert final(g)["winners"] == [0, MAHA]


def test_gta_r216_the_maharaja_counts_for_the_human_ranking_objectives():
    g = solo()
    set_goods(g, 0, coins=2)
    set_goods(g, MAHA, coins=3)
    assert objective_score(g, 0, "d1") == 2
    set_goods(g, MAHA, coins=1)
    assert objective_score(g, 0, "d1") == 5
    donate_at(g, "south", "a1", MAHA)
    donate_at(g, "south", "a2", MAHA)
    donate_at(g, "south", "a3", 0)
    assert objective_score(g, 0, "a3") == 2  # South majority: second behind him


# ------------------------------------------------------------------ solo_hard (GTA-R217, R218)
def test_gta_r217_hard_two_markers_on_his_elephant_and_fourteen_on_his_board():
    g = ready(1, variants=("solo_hard",))
    assert counter(g, "on_elephant", MAHA) == 2 and counter(g, "grid", MAHA) == 14
    e = ready(1)
    assert counter(e, "on_elephant", MAHA) == 1 and counter(e, "grid", MAHA) == 15


def test_gta_r217_hard_top_left_space_empty_first_row_ends_after_four():
    g = plain(ready(1, variants=("solo_hard",)))
    pts = []
    for _ in range(4):
        run(g, "emit take_marker(who=1)")
        pts.append(pp(g, MAHA))
    assert pts == [10, 10, 10, 12]  # the 4th marker empties row 1: 2 PP
    assert counter(g, "grid", MAHA) == 10


def test_gta_r217_hard_variant_is_solo_only():
    with pytest.raises(MasonError):
        game(2, variants=("solo_hard",))


@pytest.mark.parametrize("variants,points", [((), 3), (("solo_hard",), 6)])
def test_gta_r218_hard_objective_scores_twice(variants, points):
    g = plain(ready(1, variants=variants))
    no_objectives(g)
    objective(g, MAHA, "c2")
    for s in ("a1", "a2", "a3"):
        donate_at(g, "east", s, MAHA)
    objective(g, 0, "c1")
    donate_at(g, "north", "a1", 0)
    res = final(g)
    assert res["parts"][MAHA]["objectives"] == points
    assert res["parts"][0]["objectives"] == 1  # the human's card is never doubled


# ------------------------------------------------------------------ worked example
def test_gta_x11_solo_maharaja_turn():
    g = solo()
    no_objectives(g)
    set_var(g, "era", 2)
    tiles(g, temple=("tt1", "tt2", "tt3"), bridges=("br1", "br4", "br2"))  # era II: tt2 (E 4), br4
    put_elephant(g, MAHA, "north")
    set_counter(g, "on_elephant", MAHA, 1)
    set_goods(g, MAHA, marble=1)
    set_var(g, "maha_track", 0, MAHA)
    set_var(g, "last_colour", "white")  # the human just activated a white worker
    spare(g, ["yellow", "blue", "green", "white"], at=1)  # the worker beside ES is blue
    before = mine(g)
    auto(g, "emit automaton_turn(who=1)")
    assert done(g)
    assert elephant(g, MAHA) == "east"  # moved free
    assert owners(g, "east")["a1"] == MAHA  # leftmost of the 1-PP spaces
    assert sum(v is not None for d in ("north", "east", "south", "west") for v in owners(g, d).values()) == 1
    assert counter(g, "on_elephant", MAHA) == 0
    # the marble went back to his mine, then blue took 1 marble + 1 copper from it
    assert mine(g) == [before[0] + 1 - 1, before[1] - 1, before[2]]
    assert goods(g, MAHA) == {"coins": 0, "marble": 1, "copper": 1, "gold": 0}
    assert var(g, "maha_track", MAHA) == 1
    assert pp(g, MAHA) == 10 + 1 + 1  # a1, then the white track's space 1
    assert counter(g, "grid", MAHA) == 15
