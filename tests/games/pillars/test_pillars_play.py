"""The Pillars of the Earth at the terminal and in bulk: a person plays a whole game against bots, the
rendering shows what the game needs, simulations finish for 2 to 4 players with no error, reproducibly."""

from __future__ import annotations

import pytest
from support import invoke, new_game

from mason.play.session import simulate
from mason.presentation.render import render_view
from mason.session.game import Settings


def test_a_person_plays_a_whole_game_against_a_bot(tmp_path):
    result = invoke("play", "pillars", "-p", 2, "--seed", 1, "--save", tmp_path / "s.json", input="1\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "[P1] Take a card from the offer (none = pass):" in out
    assert "[P1] Place your master builder where?" in out
    assert "Final scores:" in out and "Winner" in out and "after 6 rounds" in out


def test_answers_by_name_and_refusals(tmp_path):
    result = invoke("play", "pillars", "-p", 3, "--seed", 2, input="Gravel\nbanana\n99\nquit\n")
    assert result.exit_code == 0
    assert "not accepted" in result.output and "saved" in result.output


def test_view_shows_board_offers_and_each_seat():
    g = new_game("pillars", 3, 1)
    text = render_view(g.program, g.view(0))
    for needle in (
        "town:",
        "1. Bishop: [-]",
        "9. Market: [-] [-] [-] [-]",
        "bag: P1 x3",
        "cost: [7] 6 5 4 3 2 1 0",
        "market: sand (buy 2, sell 2, stock 4)",
        "Phase-I offer:",
        "Kingsbridge cards:",
        "Shiring craftsmen:",
        "free workers 12",
        "VP 2",
        "craftsmen: Mortar mixer",
    ):
        assert needle in text, needle
    assert "gold 2" in text


def test_view_hides_face_down_cards():
    g = new_game("pillars", 4, 1)
    v = g.view(0)
    for zone in ("event_deck", "stacks", "advantage_deck", "set_aside", "box"):
        assert v["zones"][zone]["cards"] == [], zone


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulation_without_errors_and_reproducible(players):
    base = Settings("pillars", players, 1)
    a = simulate(base, 12)
    b = simulate(base, 12)
    assert a["completed"] == 12 and a["errors"] == []
    assert a["results"] == b["results"]
    assert all(r["rounds"] == 6 for r in a["results"])


@pytest.mark.parametrize("variant", ["tabletop", "no_start_player_veto", "gold_cap_wool_mill_only"])
def test_variants_play_out(variant):
    report = simulate(Settings("pillars", 3, 1, (variant,)), 5)
    assert report["completed"] == 5 and report["errors"] == []


def test_rules_text():
    result = invoke("rules", "pillars")
    assert result.exit_code == 0
    assert "### Phase 3: builders" in result.output and "`gold_cap_wool_mill_only`" in result.output
