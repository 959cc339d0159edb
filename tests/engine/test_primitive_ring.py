"""The `ring` board kind (interpreter/primitives/ring.py) on the fixture game tests/fixtures/sowing:
geometry, sowing past full places with a chosen colour, the last piece's landings and skips,
tokens, pawns with a step cost, a marker on a boundary (crossing, advance, return), narration,
the terminal picture, the load-time checks and a seeded game played to its end."""

from __future__ import annotations

import random

import paths
import pytest
from scenario import board_events, run
from support import broken_errors, new_game, play_out

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.presentation.render import render_view

SOWING = paths.FIXTURES / "sowing"
PLACES = ["a1", "a2", "b1", "b2", "c1", "c2"]


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def yard(g):
    return g.state["boards"]["yard"]


def fresh(players=2, **pieces):
    """A game at its first decision, with the yard's pieces replaced by ``pieces`` (place -> list)."""
    g = new_game(str(SOWING), players)
    yard(g)["pieces"] = {p: list(pieces.get(p, [])) for p in PLACES}
    return g


def said(g, start):
    return [e["text"] for e in g.log[start:] if "text" in e]


# ==================================================================== declaration and geometry
def test_built_state_and_geometry():
    g = new_game(str(SOWING), 3)
    y = yard(g)
    assert set(y) == {"pieces", "tokens", "pawns", "markers", "held", "cursor", "last"}
    assert y["pieces"]["b1"] == ["red", "red", "green"] and y["pieces"]["a2"] == ["green"]
    assert y["tokens"] == {p: {"coins": 1} for p in PLACES}  # the setup put one coin on each
    assert y["pawns"] == {"0": "a1", "1": "b1", "2": "c1"} and y["markers"] == {"round": 0}
    assert y["held"] == [] and y["cursor"] is None and y["last"] is None
    assert q(g, "ring_places", "yard") == PLACES
    assert q(g, "ring_next", "yard", "c2") == "a1"
    assert q(g, "ring_next", "yard", "b2", 3) == "a1"
    assert q(g, "ring_next", "yard", "a1", -1) == "c2"
    assert q(g, "ring_distance", "yard", "c1", "a2") == 3
    assert q(g, "ring_distance", "yard", "b1", "b1") == 0
    assert q(g, "ring_count", "yard", "b1") == 3 and q(g, "ring_full", "yard", "b1")
    assert not q(g, "ring_full", "yard", "a1")


@pytest.mark.parametrize(
    "call, code",
    [
        (("ring_count", "yard", "d1"), "play/unknown"),
        (("ring_tokens", "yard", "a1", "gems"), "play/unknown"),
        (("marker_at", "yard", "moon"), "play/unknown"),
        (("ring_places", "coins"), "play/type"),
        (("ring_next", "yard", "a1", "x"), "play/type"),
        (("ring_crosses", "yard", "a1", -1, "round"), "play/type"),
    ],
)
def test_bad_queries_are_refused(call, code):
    g = fresh()
    with pytest.raises(PlayError) as e:
        q(g, *call)
    assert e.value.code == code


# ==================================================================== sowing
def test_sowing_passes_full_places_free():
    g = fresh(a1=["red", "blue", "green"], a2=["red"] * 3, b2=["blue"] * 3)
    start = len(g.log)
    run(g, 'do ring_pick_up(yard, "a1")')
    assert q(g, "ring_held", "yard") == ["red", "blue", "green"] and yard(g)["pieces"]["a1"] == []
    assert q(g, "ring_next_open", "yard") == "b1"  # a2 is full: passed free
    run(g, 'do ring_drop(yard, "red")')
    run(g, 'do ring_drop(yard, "green")')  # b2 is full too
    assert yard(g)["pieces"]["b1"] == ["red"] and yard(g)["pieces"]["c1"] == ["green"]
    assert q(g, "ring_last", "yard") == ["c1", "green"] and yard(g)["cursor"] == "c1"
    assert q(g, "ring_held", "yard") == ["blue"]
    assert said(g, start) == [
        "workers picked up from A 1: red, blue, green",
        "red worker -> B 1",
        "green worker -> C 1",
    ]


def test_choosing_colours_drops_the_chosen_one():
    g = fresh(b1=["red", "blue", "red"])
    run(g, 'do ring_pick_up(yard, "b1")\ndo ring_drop(yard, "blue")')
    assert yard(g)["pieces"]["b2"] == ["blue"] and q(g, "ring_held", "yard") == ["red", "red"]
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_drop(yard, "green")')
    assert e.value.code == "play/illegal-state"
    run(g, 'do ring_drop(yard, "red")')
    assert yard(g)["pieces"]["c1"] == ["red"] and q(g, "ring_held", "yard") == ["red"]


def test_sowing_laps_back_to_the_emptied_place_and_nowhere_is_refused():
    full = {p: ["red"] * 3 for p in PLACES}
    g = fresh(**full)
    run(g, 'do ring_pick_up(yard, "b1")\ndo ring_drop(yard, "red")')
    assert yard(g)["pieces"]["b1"] == ["red"] and q(g, "ring_last", "yard") == ["b1", "red"]
    g = fresh(**full)
    yard(g).update(held=["blue"], cursor="a1")
    assert q(g, "ring_next_open", "yard") is None and q(g, "ring_landings", "yard") == []
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_drop(yard, "blue")')
    assert e.value.code == "play/occupied"


def test_pick_up_is_refused_while_pieces_are_held():
    g = fresh(a1=["red", "blue"], c1=["green"])
    run(g, 'do ring_pick_up(yard, "a1")')
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_pick_up(yard, "c1")')
    assert e.value.code == "play/illegal-state" and yard(g)["pieces"]["c1"] == ["green"]
    run(g, 'do ring_drop(yard, "red")\ndo ring_drop(yard, "blue")\ndo ring_pick_up(yard, "c1")')
    assert q(g, "ring_held", "yard") == ["green"] and q(g, "ring_last", "yard") is None


def test_landings_never_complete_a_lap_and_include_the_emptied_start():
    g = fresh(b1=["red"], c1=["blue"] * 3)
    assert q(g, "ring_landings", "yard") == []  # nothing held
    run(g, 'do ring_pick_up(yard, "b1")')
    # natural landing b2; c1 is full; the emptied b1 comes last, after a whole lap less one
    assert q(g, "ring_landings", "yard") == ["b2", "c2", "a1", "a2", "b1"]
    assert q(g, "ring_landings", "yard", 2) == ["b2", "c2"]  # c1 (full) counts in the 2
    assert q(g, "ring_landings", "yard", 0) == ["b2"]
    assert q(g, "ring_landings", "yard", 40) == ["b2", "c2", "a1", "a2", "b1"]
    with pytest.raises(PlayError):
        q(g, "ring_landings", "yard", -1)
    g = fresh(a1=["red", "blue"])
    run(g, 'do ring_pick_up(yard, "a1")')
    assert q(g, "ring_landings", "yard") == []  # two pieces held


def test_skipped_places_and_drop_at():
    g = fresh(a1=["red"], b1=["blue"] * 3, c2=["red"])
    run(g, 'do ring_pick_up(yard, "a1")')
    assert q(g, "ring_skipped", "yard", "a2") == []  # the natural landing
    assert q(g, "ring_skipped", "yard", "b2") == ["a2"]  # the full b1 passes free
    assert q(g, "ring_skipped", "yard", "a1") == ["a2", "b2", "c1", "c2"]
    with pytest.raises(PlayError) as e:
        q(g, "ring_skipped", "yard", "b1")  # full: not a landing
    assert e.value.code == "play/illegal-state"
    with pytest.raises(PlayError):
        run(g, 'do ring_drop_at(yard, "red", "b1")')
    with pytest.raises(PlayError):
        run(g, 'do ring_drop_at(yard, "blue", "b2")')  # not the held piece
    start = len(g.log)
    run(g, 'do ring_drop_at(yard, "red", "c1")')
    assert yard(g)["pieces"]["c1"] == ["red"] and q(g, "ring_held", "yard") == []
    assert q(g, "ring_last", "yard") == ["c1", "red"] and yard(g)["cursor"] == "c1"
    assert said(g, start) == ["red worker -> C 1 (passing A 2, B 2)"]


def test_drop_at_refused_while_more_than_one_is_held():
    g = fresh(a1=["red", "blue"])
    run(g, 'do ring_pick_up(yard, "a1")')
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_drop_at(yard, "red", "a2")')
    assert e.value.code == "play/illegal-state" and yard(g)["pieces"]["a2"] == []


def test_put_and_remove():
    g = fresh(a2=["red"] * 3)
    start = len(g.log)
    run(g, 'do ring_put(yard, "a1", "blue")\ndo ring_put(yard, "a1", 7)\ndo ring_remove(yard, "a1", "blue")')
    assert q(g, "ring_pieces", "yard", "a1") == [7]
    assert said(g, start) == ["blue worker -> A 1", "7 worker -> A 1", "blue worker leaves A 1"]
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_put(yard, "a2", "blue")')
    assert e.value.code == "play/occupied"
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_remove(yard, "b1", "blue")')
    assert e.value.code == "play/illegal-state"


# ==================================================================== tokens
def test_tokens_added_taken_and_never_below_zero():
    g = fresh()
    start = len(g.log)
    run(g, 'do ring_add_tokens(yard, "b2", "coins", 3)\ndo ring_add_tokens(yard, "b2", "coins", -4)')
    assert q(g, "ring_tokens", "yard", "b2", "coins") == 0
    assert said(g, start) == ["coins on B 2: 1 -> 4", "coins on B 2: 4 -> 0"]
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_add_tokens(yard, "b2", "coins", -1)')
    assert e.value.code == "play/illegal-state" and q(g, "ring_tokens", "yard", "b2", "coins") == 0
    with pytest.raises(PlayError) as e:
        run(g, 'do ring_add_tokens(yard, "b2", "gems", 1)')
    assert e.value.code == "play/unknown"


# ==================================================================== pawns and markers
def test_pawns_keys_and_step_cost():
    g = fresh()
    assert [q(g, "ring_move_cost", "yard", k) for k in range(5)] == [0, 0, 1, 2, 3]  # free 1, each 1
    start = len(g.log)
    run(g, 'do pawn_put(yard, 1, "c1")\ndo pawn_put(yard, "ferry", "c1")\ndo pawn_put(yard, 0, none)')
    assert q(g, "pawn_at", "yard", 1) == "c1" and q(g, "pawn_at", "yard", "1") == "c1"
    assert q(g, "pawn_at", "yard", 0) is None
    yard(g)["pawns"]["10"] = "c1"
    assert q(g, "pawns_at", "yard", "c1") == ["1", "10", "ferry"]
    assert said(g, start) == ["P2's pawn -> C 1", "the ferry pawn -> C 1", "P1's pawn leaves the ring"]


def test_crossing_the_marker_including_wrap_around():
    g = fresh()
    assert q(g, "marker_places", "yard", "round") == ["a1", "a2"]
    assert not q(g, "ring_crosses", "yard", "a1", 0, "round")
    assert q(g, "ring_crosses", "yard", "a1", 1, "round")
    assert not q(g, "ring_crosses", "yard", "a2", 5, "round")  # a2 -> a1 stops short of it
    assert q(g, "ring_crosses", "yard", "a2", 6, "round")  # a whole lap crosses it
    yard(g)["markers"]["round"] = 5  # between c2 and a1
    assert q(g, "marker_places", "yard", "round") == ["c2", "a1"]
    assert not q(g, "ring_crosses", "yard", "c1", 1, "round")
    assert q(g, "ring_crosses", "yard", "c1", 2, "round")
    assert q(g, "ring_crosses", "yard", "c2", 3, "round")
    assert not q(g, "ring_crosses", "yard", "a1", 5, "round")


def test_marker_advances_and_returns_to_its_start():
    g = fresh()
    start = len(g.log)
    run(g, 'do marker_advance(yard, "round")')
    assert q(g, "marker_at", "yard", "round") == 1 and q(g, "marker_start", "yard", "round") == 0
    assert said(g, start) == ["marker round -> between A 2 and B 1"]
    run(g, 'do marker_advance(yard, "round", 3)')
    assert q(g, "marker_places", "yard", "round") == ["c1", "c2"] and not g.over
    run(
        g,
        'repeat 2:\n    do marker_advance(yard, "round")\nif marker_at(yard, "round") == marker_start(yard, "round"):\n    end game',
    )
    assert q(g, "marker_at", "yard", "round") == 0 and g.over  # back at its start: the end


# ==================================================================== picture
def test_render_lists_places_clockwise_with_markers_between():
    g = fresh(a1=["red", "blue"], b1=["green"] * 3)
    yard(g)["markers"]["round"] = 2
    run(g, 'do ring_pick_up(yard, "a1")\ndo ring_drop(yard, "blue")')
    lines = render_view(g.program, g.view(1)).splitlines()
    top = next(i for i, l in enumerate(lines) if "yard: a ring, clockwise, 3 workers per place" in l)
    body = [l.strip() for l in lines[top + 1 : top + 9]]
    assert body == [
        "A 1  [ ] [ ] [ ] | coins 1 | pawn P1",
        "A 2  [blue] [ ] [ ] | coins 1",
        "B 1  [green] [green] [green] | coins 1 | pawn P2",
        "~ marker round ~",
        "B 2  [ ] [ ] [ ] | coins 1",
        "C 1  [ ] [ ] [ ] | coins 1",
        "C 2  [ ] [ ] [ ] | coins 1",
        "held: red (after A 2)",
    ]


# ==================================================================== load-time checks
def _broken(tmp_path, replacements):
    return broken_errors(tmp_path, SOWING, replacements)


def test_bad_declarations_are_reported_at_load_time(tmp_path):
    lines, errors = _broken(
        tmp_path,
        [
            ("capacity: 3", "capacity: 0"),
            ("c2: [red]}", "c2: [red], d4: [red]}"),
            ("markers: {round: 0}", "markers: {round: 6}"),
            ("step_cost: {free: 1, each: 1}", "step_cost: {free: -1, each: 1}"),
            ("piece: worker", "peice: worker"),
        ],
    )
    by_key = {}
    for e in errors:
        assert e.code == "definition/board" and e.place and e.place.line > 0, e.line()
        by_key.setdefault(lines[e.place.line - 1].split(":")[0].strip(), []).append(e.message)
    assert by_key["capacity"] == ["board 'yard': capacity must be a whole number >= 1 (omit it for no limit)"]
    assert by_key["pieces"] == ["board 'yard': pieces: no place 'd4'"]
    assert by_key["markers"] == ["board 'yard': marker 'round': the start boundary must be between 0 and 5"]
    assert by_key["step_cost"] == ["board 'yard': step_cost must be {free: N, each: N} with whole numbers >= 0"]
    assert by_key["peice"] == ["board 'yard': unknown key 'peice' (did you mean 'piece'?)"]


def test_places_and_capacity_checks(tmp_path):
    lines, errors = _broken(
        tmp_path,
        [
            ("places: [a1, a2, b1, b2, c1, c2]", "places: [a1, a2, b1, b2, c1, c1, c2]"),
            ("b1: [red, red, green]", "b1: [red, red, green, blue]"),
            ("a1: A 1,", "a3: A 1,"),
        ],
    )
    messages = sorted(e.message for e in errors)
    assert messages == [
        "board 'yard': labels: no place 'a3'",
        "board 'yard': pieces: 'b1' starts with 4 pieces, over the capacity 3",
        "board 'yard': place 'c1' is listed twice",
    ]
    assert all(lines[e.place.line - 1].strip().startswith(("places", "pieces", "labels")) for e in errors)
    _, errors = _broken(tmp_path / "x", [("places: [a1, a2, b1, b2, c1, c2]", "places: []")])
    assert [e.message for e in errors] == [
        "board 'yard': places must be a non-empty list of place ids (strings), clockwise"
    ]


# ==================================================================== the fixture played out
def _random_game(seed):
    g = new_game(str(SOWING), 3, seed=seed)
    r = random.Random(seed)
    asked = []

    def chooser(g):
        asked.append(g.pending["prompt"])
        return r.randrange(len(g.pending["options"]))

    play_out(g, chooser)
    return g, asked


def test_seeded_game_plays_to_the_marker_s_return():
    g, asked = _random_game(7)
    assert g.over and g.result["rounds"] == 6  # six boundaries, one per round
    y = yard(g)
    assert y["markers"]["round"] == 0 and y["held"] == []
    assert sorted(x for p in PLACES for x in y["pieces"][p]) == sorted(
        ["red", "blue", "green", "red", "red", "green", "blue", "green", "blue", "red"]
    )
    assert all(len(y["pieces"][p]) <= 3 for p in PLACES)
    assert {
        "Pick up the workers of which plot?",
        "Which colour do you drop next?",
        "Where does your last worker go?",
        "How far does your pawn walk?",
    } <= set(asked)
    texts = [e["text"] for e in g.log if "text" in e]
    assert any("(passing " in t for t in texts)  # a paid skip happened
    assert sum("s pawn -> " in t for t in texts) == 3 + 6 * 3
    again, _ = _random_game(7)
    assert again.result == g.result and yard(again) == y


def test_a_round_of_the_fixture_by_hand():
    g = new_game(str(SOWING), 2)
    assert g.pending["seat"] == 0
    g.answer(g.pending["labels"].index("b1"))  # red, red, green
    assert g.state["counters"]["coins"][0] == 3  # the coin on B 1
    assert g.pending["prompt"] == "Which colour do you drop next?" and g.pending["labels"] == ["red", "green"]
    g.answer(1)  # green -> B 2
    assert yard(g)["pieces"]["b2"] == ["blue", "green"]
    assert yard(g)["pieces"]["c1"] == ["green", "blue", "red"]  # one colour left: no question
    assert g.pending["labels"] == ["c2", "a1", "a2"] and q(g, "ring_held", "yard") == ["red"]
    g.answer(2)  # skip c2 and a1: 2 coins
    assert g.state["counters"]["coins"][0] == 1 + 1  # paid 2, took A 2's coin
    assert yard(g)["tokens"]["c2"]["coins"] == 2 and yard(g)["tokens"]["a1"]["coins"] == 2
    assert yard(g)["pieces"]["a2"] == ["green", "red"] and g.state["counters"]["score"][0] == 1
    assert g.pending["prompt"] == "How far does your pawn walk?" and g.pending["labels"] == ["0", "1", "2", "3"]
    g.answer(3)  # a1 -> b2, crossing the marker
    assert yard(g)["pawns"]["0"] == "b2" and g.state["counters"]["coins"][0] == 0
    assert g.state["counters"]["score"][0] == 2  # 1 - 2 (never below 0) + 2
    assert g.pending["seat"] == 1


def test_a_ring_names_its_pawns_by_its_pawn_word(tmp_path):
    """``pawn: elephant``: narration and the picture say elephant where they said pawn."""
    from support import edited_copy

    from mason.presentation.render import render_view

    text = (SOWING / "game.yaml").read_text()
    anchor = next(line for line in text.splitlines() if line.strip().startswith("kind: ring"))
    worded = edited_copy(
        tmp_path,
        SOWING,
        [(anchor + "\n", anchor + "\n" + anchor.replace("kind: ring", "pawn: elephant") + "\n")],
        first_only=True,
    )
    g = new_game(str(worded), 2)
    start = len(g.log)
    run(g, 'do pawn_put(yard, 1, "c1")\ndo pawn_put(yard, 1, none)\ndo pawn_put(yard, 0, "c1")')
    assert said(g, start) == ["P2's elephant -> C 1", "P2's elephant leaves the ring", "P1's elephant -> C 1"]
    assert "elephant P1" in render_view(g.program, g.view(0))


# ==================================================================== typed log events (issue 28)
def test_board_events_say_where_each_sown_worker_lands():
    """Sowing as typed ``board`` events: the pick-up lists the pieces taken in hand, each drop names the
    piece, the place it lands on and what is still held; puts, removals, tokens, pawns and markers
    carry their places. The events alone rebuild the ring (``board_events`` checks it)."""
    g = new_game(str(SOWING), 2)
    events = board_events(
        g,
        'do ring_put("yard", "a2", "red")\ndo ring_remove("yard", "a1", "blue")\ndo ring_pick_up("yard", "b1")\n'
        'do ring_drop("yard", "red")\ndo ring_drop("yard", "red")\ndo ring_drop("yard", "green")\n'
        'do ring_add_tokens("yard", "c1", "coins", 2)\ndo pawn_put("yard", 0, "c2")\ndo pawn_put("yard", 0, none)\n'
        'do marker_advance("yard", "round", 2)',
    )
    assert all((e["board"], e["primitive"]) == ("yard", "ring") for e in events)
    assert [e["op"] for e in events] == [
        "put",
        "remove",
        "pick_up",
        "drop",
        "drop",
        "drop",
        "tokens",
        "pawn",
        "pawn",
        "marker",
    ]
    put, remove, pick, *drops, tokens, pawn, off, marker = events
    assert (put["piece"], put["dest"], remove["piece"], remove["source"]) == ("red", "a2", "blue", "a1")
    assert (pick["source"], pick["pieces"]) == ("b1", ["red", "red", "green"])
    assert [(d["piece"], d["dest"], d["held"]) for d in drops] == [
        ("red", "b2", 2),
        ("red", "c1", 1),
        ("green", "c2", 0),
    ]
    assert (tokens["where"], tokens["token"], tokens["source"], tokens["dest"]) == ("c1", "coins", 1, 3)
    assert (pawn["pawn"], pawn["source"], pawn["dest"]) == (0, "a1", "c2") and "dest" not in off
    assert (marker["marker"], marker["steps"], marker["dest"], marker["between"]) == ("round", 2, 2, ["b1", "b2"])
    assert drops[0]["text"] == "red worker -> B 2"  # the narration is unchanged beside the fields
