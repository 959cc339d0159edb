"""The `cost_track` board kind (interpreter/primitives/cost_track.py) on the fixture game tests/fixtures/wharf."""

from __future__ import annotations

import paths
import pytest
from scenario import board_events, run
from support import act, new_game

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.presentation.render import render_view
from mason.runtime.boards import BOARD_KINDS

WHARF = str(paths.FIXTURES / "wharf")


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def test_price_falls_one_step_and_stays_on_the_last():
    g = new_game(WHARF, 2)
    run(g, 'do cost_reset("price")')
    seen = []
    for _ in range(6):
        seen.append(q(g, "cost_now", "price"))
        run(g, 'do cost_step("price")')
    assert seen == [3, 2, 1, 0, 0, 0] and q(g, "cost_pos", "price") == 3
    assert [q(g, "cost_at", "price", i) for i in (0, 2, 9, -1)] == [3, 1, 0, 3]
    run(g, 'do cost_reset("price")')
    assert q(g, "cost_now", "price") == 3
    run(g, 'do cost_finish("price")')
    assert q(g, "cost_now", "price") == 0


def test_in_play_each_placement_or_wait_moves_the_marker():
    g = new_game(WHARF, 2, seed=5)
    assert q(g, "cost_now", "price") == 3
    act(g, "Wait")
    assert q(g, "cost_now", "price") == 2
    act(g, "Pay and place")
    act(g, "pier")
    assert q(g, "cost_now", "price") == 1


def test_render_marks_the_current_price():
    g = new_game(WHARF, 2)
    assert "price: [3] 2 1 0" in render_view(g.program, g.view(0))


def test_bad_definition_and_wrong_board():
    with pytest.raises(PlayError):
        BOARD_KINDS["cost_track"]({"kind": "cost_track", "prices": []}, 2, {})
    g = new_game(WHARF, 2)
    with pytest.raises(PlayError):
        q(g, "cost_now", "bag")


# ==================================================================== typed log events (issue 28)
def test_the_marker_moves_are_typed_events_with_the_price_now():
    g = new_game(WHARF, 2)
    run(g, 'do cost_reset("price")')
    events = board_events(
        g, 'do cost_step("price")\ndo cost_finish("price")\ndo cost_step("price")\ndo cost_reset("price")'
    )
    assert [(e["op"], e["source"], e["dest"], e["price"]) for e in events] == [
        ("step", 0, 1, 2),
        ("finish", 1, 3, 0),  # (a step on the last price goes nowhere: nothing to log)
        ("reset", 3, 0, 3),
    ]
