"""The Pillars of the Earth: end of game, scoring, player counts and variants (POE-R119 .. POE-R130)."""

from __future__ import annotations

import pytest
from pillars_tools import game, gold, plain, step
from scenario import occupy, run, run_phase, set_counter, set_var, var
from support import act, play_out


def _finish(g):
    """Score the game now (as the flow does after round 6)."""
    from mason.runtime.turns import finish

    finish(g.rt)
    return g.result


def test_poe_r119_game_ends_after_round_six():
    g = game(3, seed=4)
    play_out(g)
    assert g.over and g.result["rounds"] == 6 and g.state["round"] == 6


def test_poe_r120_most_vp_wins():
    g = plain(game(3))
    for s, v in enumerate((7, 9, 8)):
        set_counter(g, "vp", s, v)
    assert _finish(g)["winners"] == [1]


def test_poe_r121_tie_broken_by_gold():
    g = plain(game(3))
    for s, (v, money) in enumerate(((9, 3), (9, 5), (4, 30))):
        set_counter(g, "vp", s, v)
        set_counter(g, "gold", s, money)
    assert _finish(g)["winners"] == [1]


def test_poe_r122_full_tie_shared_win():
    g = plain(game(3))
    for s, (v, money) in enumerate(((9, 5), (9, 5), (4, 5))):
        set_counter(g, "vp", s, v)
        set_counter(g, "gold", s, money)
    assert _finish(g)["winners"] == [0, 1]


def test_poe_r123_leftovers_worth_nothing():
    g = plain(game(2))
    set_counter(g, "vp", 0, 5)
    set_counter(g, "vp", 1, 5)
    set_counter(g, "stone", 0, 5)
    set_counter(g, "gold", 0, 30)
    r = _finish(g)
    assert r["scores"] == [5, 5] and r["parts"][0] == {"vp": 5}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_poe_r124_two_to_four_players_same_board(players):
    g = game(players)
    assert g.program.min_players == 2 and g.program.max_players == 4
    assert {k: len(v) for k, v in g.state["boards"]["town"].items()} == {
        "bishop": 1,
        "wool_mill": 0,
        "kingsbridge": 2,
        "priory": 2,
        "production": 0,
        "kings_court": 4,
        "shiring": 2,
        "shiring_castle": 1,
        "market": 4,
        "cathedral": 1,
        "build": 0,
    }
    assert len(g.state["zones"]["offer"]) == 9


@pytest.mark.parametrize("players", [2, 3, 4])
def test_poe_r125_three_builders_each_prices_seven_to_free(players):
    g = game(players)
    assert len(g.state["boards"]["bag"]["inside"]) == 3 * players
    assert g.program.boards["cost"]["prices"] == [7, 6, 5, 4, 3, 2, 1, 0]


def test_poe_r126_two_players_prices_seven_to_two_then_free():
    g = plain(game(2))
    set_var(g, "vetoed", True)
    for s in (0, 1):
        set_counter(g, "gold", s, 30)
    run_phase(g, "builders")
    prices = []
    while g.pending and g.pending["prompt"] == "Your master builder is drawn":
        prices.append(g.state["boards"]["cost"]["pos"])
        act(g, "Pass")
    assert prices == [0, 1, 2, 3, 4, 5]  # 7, 6, 5, 4, 3, 2
    assert g.state["boards"]["cost"]["pos"] == 7  # then the marker is set to 0
    n = 0
    while g.pending:
        act(g, g.legal()[0])
        n += 1
    assert n == 6 and gold(g, 0) == 30 and gold(g, 1) == 30


def test_poe_r127_tabletop_market_ban_only_on_reselling():
    g = plain(game(2, variants=("tabletop",)))
    occupy(g, "market", [0])
    set_counter(g, "sand", 0, 2)
    step(g, "market")
    act(g, "Sell")
    act(g, "2")
    act(g, "Buy")
    assert "sand" in g.legal()
    act(g, "sand")
    act(g, "1")
    assert g.legal() == ["Buy (kaufen)", "Leave the market (verlassen)"]  # bought sand cannot be resold


def test_poe_r128_no_start_player_veto_variant():
    g = game(2, variants=("no_start_player_veto",))
    assert var(g, "vetoed") is True
    plain(g)
    run_phase(g, "builders")
    assert g.pending["prompt"] != "A builder is drawn: veto it (once a round)?"


def test_poe_r129_gold_cap_wool_mill_only_variant():
    g = plain(game(2, variants=("gold_cap_wool_mill_only",)))
    set_counter(g, "gold", 0, 29)
    run(g, "gain 8 gold to 0")
    assert gold(g, 0) == 37
    set_counter(g, "wool_mill", 0, 5)
    step(g, "wool_mill")
    assert gold(g, 0) == 37  # already above 30: the Wool Mill adds nothing


def test_poe_r130_expansion_not_covered():
    from mason.model.loader import GAMES_DIR

    assert not (GAMES_DIR / "pillars" / "expansions").exists()
    readme = (GAMES_DIR / "pillars" / "README.md").read_text()
    assert "POE-R130" in readme
