"""The `bag` board kind (interpreter/primitives/bag.py) on the fixture game tests/fixtures/wharf."""

from __future__ import annotations

import json

import paths
import pytest
from scenario import bag_state, board_events, run
from support import act, new_game, play_out

from mason.errors import PlayError
from mason.presentation.render import render_view

WHARF = str(paths.FIXTURES / "wharf")


def wharf(players=2, seed=1):
    return new_game(WHARF, players, seed=seed)


def test_bag_starts_with_each_seats_pieces_and_draws_one():
    g = wharf(3)
    b = bag_state(g)
    assert sorted(b["inside"] + [b["drawn"]]) == [0, 0, 1, 1, 2, 2]
    assert g.pending["seat"] == b["drawn"]
    said = [e["text"] for e in g.log if e.get("text", "").startswith("drawn from the bag: ")]
    assert said == [f"drawn from the bag: P{b['drawn'] + 1}'s piece"]  # whose piece it is


def test_draws_are_uniform_and_seeded():
    firsts = [wharf(2, seed=k).state["boards"]["bag"]["drawn"] for k in range(60)]
    assert 15 < firsts.count(0) < 45
    assert firsts == [wharf(2, seed=k).state["boards"]["bag"]["drawn"] for k in range(60)]


def test_keep_return_park_unpark():
    g = wharf(2)
    b = bag_state(g)
    b.update(inside=[0, 1, 1], drawn=None, parked=[])
    run(g, 'do bag_draw("bag")\ndo bag_return("bag")')
    assert len(b["inside"]) == 3 and b["drawn"] is None
    run(
        g,
        'do bag_draw("bag")\ndo bag_park("bag", 2)\ndo bag_draw("bag")\ndo bag_park("bag", 5)\n'
        'do bag_draw("bag")\ndo bag_park("bag", 2)',
    )
    assert b["inside"] == [] and [s for s, _ in b["parked"]] == [2, 5, 2]
    first_at_2 = b["parked"][0][1]
    run(g, 'do bag_unpark("bag")')
    assert b["drawn"] is not None and [s for s, _ in b["parked"]] == [2, 2]  # slot 5 came out first
    run(g, 'do bag_keep("bag")\ndo bag_unpark("bag")')
    assert b["drawn"] == first_at_2  # within a slot: first parked, first out


def test_parked_order_queries():
    g = wharf(3)
    b = bag_state(g)
    b.update(inside=[], drawn=None, parked=[[1, 2], [3, 0], [1, 1]])
    from mason.dsl.builtins import BUILTINS

    assert BUILTINS["bag_parked"].impl(g.rt, "bag") == [0, 2, 1]
    assert BUILTINS["bag_slots"].impl(g.rt, "bag") == [[3, 0], [1, 2], [1, 1]]
    b["inside"] = [0, 1, 1]
    assert BUILTINS["bag_count"].impl(g.rt, "bag") == 3 and BUILTINS["bag_count"].impl(g.rt, "bag", 1) == 2


@pytest.mark.parametrize(
    "text,code",
    [
        ('do bag_draw("bag")\ndo bag_draw("bag")', "play/bag"),
        ('do bag_empty("bag")\ndo bag_draw("bag")', "play/bag"),
        ('do bag_empty("bag")\ndo bag_keep("bag")', "play/bag"),
        ('do bag_empty("bag")\ndo bag_unpark("bag")', "play/bag"),
        ('do bag_put("bag", 0, -1)', "play/type"),
        ('do bag_draw("price")', "play/type"),
    ],
)
def test_misuse_is_a_play_error(text, code):
    g = wharf(2)
    bag_state(g)["drawn"] = None
    with pytest.raises(PlayError) as exc:
        run(g, text)
    assert exc.value.code == code


def test_pass_and_place_later_in_a_game():
    g = wharf(2, seed=3)
    first = g.pending["seat"]
    act(g, "Wait")
    assert bag_state(g)["parked"] == [[3, first]]
    while g.pending and g.pending["prompt"] == "Your docker is drawn":
        act(g, "Wait" if "Wait (placed later, free)" in g.legal() else g.legal()[0])
    # the 4th docker is drawn at price 0: placed at once, no waiting
    assert g.pending["prompt"] == "Where does your docker go?" and len(bag_state(g)["parked"]) == 3
    act(g, "pier")
    # the bag is empty: parked dockers come out, highest declined price first (3, then 2, then 1)
    order = []
    while g.pending:
        order.append(g.pending["seat"])
        act(g, g.legal()[0])
        if g.state["phase"] != "dockers":
            break
    assert order[0] == first and [s for s, _ in bag_state(g)["parked"]] == []


def test_render_and_plain_data():
    g = wharf(2)
    text = render_view(g.program, g.view(0))
    assert "bag: P1 x" in text and "drawn: P" in text
    assert json.loads(json.dumps(g.state)) == g.state
    play_out(g)
    assert g.over


# ==================================================================== typed log events (issue 28)
def test_every_bag_change_is_a_typed_event_the_draw_names_the_piece():
    """Puts, draws (a chance event: the piece and how many are left), returns, parks and unparks are
    typed ``board`` events, the unnarrated ones too; they alone rebuild the bag."""
    g = new_game(WHARF, 2)
    events = board_events(
        g,
        'do bag_empty("bag")\ndo bag_put("bag", 0, 2)\ndo bag_put("bag", 1)\ndo bag_draw("bag")\ndo bag_return("bag")\n'
        'do bag_draw("bag")\ndo bag_park("bag", 7)\ndo bag_unpark("bag")\ndo bag_keep("bag")',
    )
    ops = [e["op"] for e in events]
    assert ops == ["empty", "put", "put", "draw", "return", "draw", "park", "unpark", "keep"]
    assert (events[1]["piece"], events[1]["count"], events[2]["piece"], events[2]["count"]) == (0, 2, 1, 1)
    draw, back = events[3], events[4]
    assert draw["chance"] is True and draw["left"] == 2 and back["piece"] == draw["piece"] in (0, 1)
    park, unpark, keep = events[6:]
    assert (
        park["slot"] == unpark["slot"] == 7 and park["piece"] == unpark["piece"] == keep["piece"] == events[5]["piece"]
    )
