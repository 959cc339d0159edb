"""The `spaces` board kind (interpreter/primitives/spaces.py) on the fixture game tests/fixtures/wharf."""

from __future__ import annotations

import paths
import pytest
from scenario import board_events, done, run, run_phase
from support import new_game, play_out

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.presentation.render import render_view

WHARF = str(paths.FIXTURES / "wharf")


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def board(g):
    return g.state["boards"]["docks"]


def test_declared_order_capacities_and_open_spots():
    g = new_game(WHARF, 3)
    assert q(g, "locations", "docks") == ["pier", "crane", "storm", "office"]
    assert {k: len(v) for k, v in board(g).items()} == {"pier": 2, "crane": 2, "storm": 0, "office": 1}
    assert q(g, "open_spots", "docks") == ["pier", "crane.1", "crane.2", "office"]
    assert q(g, "location_info", "docks", "pier")["reward"] == [3, 1]
    assert q(g, "spot_location", "crane.2") == "crane"


def test_fill_in_order_and_pick_a_space():
    g = new_game(WHARF, 3)
    run(g, 'do place_at("docks", "pier", 2)\ndo place_at("docks", "crane.2", 1)\ndo place_at("docks", "pier", 2)')
    assert q(g, "occupants", "docks", "pier") == [2, 2]
    assert q(g, "occupants", "docks", "crane") == [None, 1]
    assert q(g, "seats_at", "docks", "crane") == [1]
    assert q(g, "open_spots", "docks") == ["crane.1", "office"]


@pytest.mark.parametrize(
    "text",
    [
        'do place_at("docks", "office", 0)\ndo place_at("docks", "office", 1)',
        'do place_at("docks", "crane.1", 0)\ndo place_at("docks", "crane.1", 1)',
        'do place_at("docks", "crane.3", 0)',
        'do place_at("docks", "harbour", 0)',
    ],
)
def test_full_or_unknown_spots_refused(text):
    g = new_game(WHARF, 2)
    with pytest.raises(PlayError):
        run(g, text)


def test_resolution_in_declared_order_and_clear():
    g = new_game(WHARF, 2)
    for loc in board(g):
        board(g)[loc] = [None] * len(board(g)[loc])
    board(g)["pier"] = [1, 0]
    board(g)["crane"] = [None, 0]
    board(g)["office"] = [1]
    g.state["counters"]["score"] = [0, 0]
    start = len(g.log)
    run_phase(g, "payout")
    assert done(g)
    # P2: pier 3 + office 1, spared by the storm (office); P1: pier 1 + crane space 2 reward 1, minus 1
    assert g.state["counters"]["score"] == [1, 4]
    assert all(v == [None] * len(v) for v in board(g).values())
    texts = [e["text"] for e in g.log[start:] if "text" in e]
    assert texts.index("P2 gains 3 score") < texts.index("P1 gains 1 score")


def test_render_lists_spaces_in_order():
    g = new_game(WHARF, 2)
    run(g, 'do place_at("docks", "crane.2", 1)')
    text = render_view(g.program, g.view(0))
    assert "docks:" in text and "2. the crane: [-] [P2]" in text and "storm" not in text


def test_plays_out():
    g = new_game(WHARF, 3, seed=2)
    play_out(g)
    assert g.over and g.result["rounds"] == 2


# ==================================================================== typed log events (issue 28)
def test_a_placement_names_the_location_and_space_and_clearing_is_an_event():
    g = new_game(WHARF, 2)
    events = board_events(
        g, 'do clear_spots("docks")\ndo place_at("docks", "pier", 1)\ndo place_at("docks", "crane.2", 0)'
    )
    assert [(e["op"], e.get("location"), e.get("space"), e.get("piece")) for e in events] == [
        ("clear", None, None, None),
        ("place", "pier", 1, 1),
        ("place", "crane", 2, 0),
    ]
    assert events[2]["text"] == "P1 is placed at the crane (space 2)"
