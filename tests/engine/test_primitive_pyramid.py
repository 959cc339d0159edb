"""The `pyramid` board kind (interpreter/primitives/pyramid.py) on the fixture game tests/fixtures/ziggurat."""

from __future__ import annotations

import paths
import pytest
from scenario import board_events, counter, done, run, run_phase
from support import act, edited_copy, new_game, play_out

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.model.validate import validate_game
from mason.presentation.render import render_view

ZIGGURAT = str(paths.FIXTURES / "ziggurat")
LARGE_ORDER = ["a1", "b1", "a2", "c1", "b2", "b3", "d1", "a3", "c2", "b4", "a4"]


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def owners(g):
    return g.state["boards"]["ziggurat"]["owners"]


def fill(g, **slots):
    owners(g).update(slots)


def said(g, start=0):
    return [e["text"] for e in g.log[start:] if "text" in e]


def test_shape_chosen_per_player_count_through_a_table_column():
    small, large = new_game(ZIGGURAT, 2), new_game(ZIGGURAT, 3)
    assert small.state["boards"]["ziggurat"] == {
        "shape": "small",
        "owners": dict.fromkeys(["a1", "a2", "a3", "b1", "b2", "c1"]),
    }
    assert large.state["boards"]["ziggurat"]["shape"] == "large"
    assert q(large, "pyramid_slots", "ziggurat") == ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c1", "c2", "d1"]


def test_slot_declarations_layers_and_supports():
    g = new_game(ZIGGURAT, 3)
    assert q(g, "pyramid_layer", "ziggurat", "d1") == 4
    assert q(g, "pyramid_supports", "ziggurat", "b3") == ["a2", "a3"]
    assert q(g, "pyramid_supports", "ziggurat", "a1") == []
    info = q(g, "pyramid_info", "ziggurat", "a4")
    assert info["points"] == 1 and info["advance"] == "craft" and info["layer"] == 1 and info["on"] == []
    assert q(g, "pyramid_info", "ziggurat", "d1")["label"] == "the shrine"
    with pytest.raises(PlayError) as e:
        q(g, "pyramid_layer", "ziggurat", "z9")
    assert e.value.code == "play/unknown"
    with pytest.raises(PlayError) as e:
        q(g, "pyramid_open", "lore")
    assert e.value.code == "play/type"


def test_open_and_blocked_slots_need_both_supports_filled_by_anyone():
    g = new_game(ZIGGURAT, 2)
    assert q(g, "pyramid_open", "ziggurat") == ["a1", "a2", "a3"]
    fill(g, a1=0)
    assert q(g, "pyramid_open", "ziggurat") == ["a2", "a3"]  # b1 still waits for a2
    with pytest.raises(PlayError) as e:
        run(g, 'do pyramid_place(ziggurat, "b1", 1)')
    assert e.value.code == "play/illegal-action" and "a2" in e.value.message
    fill(g, a2=1)
    assert q(g, "pyramid_open", "ziggurat") == ["b1", "a3"]  # left to right: b1 (x 1.5) before a3
    run(g, 'do pyramid_place(ziggurat, "b1", 1)')
    assert q(g, "pyramid_owner", "ziggurat", "b1") == 1
    assert said(g)[-1] == "P2 takes slot b1 of the ziggurat"
    with pytest.raises(PlayError) as e:
        run(g, 'do pyramid_place(ziggurat, "b1", 0)')
    assert e.value.code == "play/occupied"
    for bad, code in (('"x9", 0', "play/unknown"), ('"a3", 5', "play/no-seat"), ('"a3", none', "play/no-seat")):
        with pytest.raises(PlayError) as e:
            run(g, f"do pyramid_place(ziggurat, {bad})")
        assert e.value.code == code


def test_left_to_right_rank_mean_x_and_ties():
    g = new_game(ZIGGURAT, 3)
    ranks = {s: q(g, "pyramid_rank", "ziggurat", s) for s in q(g, "pyramid_slots", "ziggurat")}
    # x: a1..a4 = 1..4; b1 1.5, b2 = b3 2.5 (same pair), b4 3.5; c1 2, c2 3; d1 2.5.
    # Equal x: the lower layer first (a2 before c1; b2, b3 before d1), then declaration (b2 before b3).
    assert sorted(ranks, key=ranks.get) == LARGE_ORDER
    fill(g, a1=0, a2=1, a3=2, a4=0)
    assert q(g, "pyramid_open", "ziggurat") == ["b1", "b2", "b3", "b4"]
    fill(g, b2=1, b3=1, b4=2)
    assert q(g, "pyramid_open", "ziggurat") == ["b1", "c2"]
    g2 = new_game(ZIGGURAT, 3)
    run(
        g2,
        "let order = sorted([pyramid_rank(ziggurat, s) for s in pyramid_slots(ziggurat)])\n"
        'do gain_named(0, "score", order[-1])',
    )
    assert counter(g2, "score", 0) == 10


def test_counts_layers_owned_filled_and_clear():
    g = new_game(ZIGGURAT, 3)
    fill(g, a1=0, a2=0, a3=1, a4=0, b1=0, b2=1, c1=0)
    assert q(g, "pyramid_count", "ziggurat", 0) == 5
    assert q(g, "pyramid_count", "ziggurat", 0, 1) == 3
    assert q(g, "pyramid_count", "ziggurat", 0, 2) == 1
    assert q(g, "pyramid_count", "ziggurat", 2) == 0
    assert q(g, "pyramid_layers", "ziggurat", 0) == [1, 2, 3]
    assert q(g, "pyramid_layers", "ziggurat", 1) == [1, 2]
    assert q(g, "pyramid_layers", "ziggurat", 2) == []
    assert q(g, "pyramid_owned", "ziggurat", 1) == ["a3", "b2"]
    assert q(g, "pyramid_filled", "ziggurat") == ["a1", "a2", "a3", "a4", "b1", "b2", "c1"]
    start = len(g.log)
    run(g, 'do pyramid_clear(ziggurat, "b2")\ndo pyramid_clear(ziggurat, "b3")')
    assert owners(g)["b2"] is None and owners(g)["c1"] == 0  # no gravity: c1 stays
    assert said(g, start) == ["P2 leaves slot b2 of the ziggurat"]  # clearing an empty slot says nothing
    assert q(g, "pyramid_open", "ziggurat") == ["b2", "b3", "b4"]


def test_building_pays_by_layer_and_rewards_every_supporting_owner():
    g = new_game(ZIGGURAT, 3)
    fill(g, a1=1, a2=1, a3=2, b2=2)
    g.state["counters"]["coins"] = [5, 5, 5]
    g.state["counters"]["score"] = [0, 0, 0]
    run_phase(g, "turns")
    act(g, "Build", 0)
    assert g.pending["labels"] == ["b1", "b3", "a4"]  # open ones, left to right (x 1.5, 2.5, 4)
    act(g, "b1", 0)  # rests on a1 and a2, both P2's
    assert counter(g, "coins", 0) == 3 and counter(g, "score") == [2, 2, 0]
    act(g, "Build", 1)
    act(g, "c1", 1)  # rests on b1 (P1) and b2 (P3)
    assert counter(g, "coins", 1) == 2 and counter(g, "score") == [3, 5, 1]
    act(g, "Build", 2)
    act(g, "a4", 2)  # layer 1: nobody below; advances craft
    assert counter(g, "score") == [3, 5, 2] and q(g, "track_pos", "lore", "craft", 2) == 1
    assert done(g)


def test_labelled_slot_narration_and_the_top_of_the_small_shape():
    g = new_game(ZIGGURAT, 2)
    fill(g, a1=0, a2=0, a3=1, b1=1, b2=0)
    start = len(g.log)
    run(g, 'do pyramid_place(ziggurat, "c1", 1)')
    assert said(g, start) == ["P2 takes the shrine of the ziggurat"]
    assert q(g, "pyramid_open", "ziggurat") == []


def test_render_draws_layers_top_first_open_blocked_and_filled():
    g = new_game(ZIGGURAT, 2)
    fill(g, a1=0, a2=1)
    lines = render_view(g.program, g.view(0)).splitlines()
    head = next(i for i, l in enumerate(lines) if "the ziggurat (small):" in l)
    l3, l2, l1 = lines[head + 1], lines[head + 2], lines[head + 3]
    assert l3.strip().startswith("L3") and l2.strip().startswith("L2") and l1.strip().startswith("L1")
    assert "[a1:P1]" in l1 and "[a2:P2]" in l1 and "[a3:  ]" in l1
    assert "[b1:  ]" in l2 and "[b2:..]" in l2 and "[c1:..]" in l3
    assert l1.index("[a1") < l2.index("[b1") < l1.index("[a2") < l2.index("[b2") < l1.index("[a3")


def test_played_to_the_end_fills_the_ziggurat():
    g = new_game(ZIGGURAT, 3, seed=5)
    g.state["counters"]["coins"] = [12, 12, 12]
    play_out(g)  # always the first option: build while one is affordable
    assert g.over and g.result["rounds"] < 8  # ended by the full ziggurat, not by the round limit
    assert q(g, "pyramid_open", "ziggurat") == [] and None not in owners(g).values()
    parts = g.result["parts"]
    assert [p["layers"] for p in parts] == [len(q(g, "pyramid_layers", "ziggurat", s)) for s in range(3)]
    assert sum(p["score"] for p in parts) >= sum(
        q(g, "pyramid_info", "ziggurat", s)["points"] for s in q(g, "pyramid_slots", "ziggurat")
    )


def _broken(tmp_path, *edits):
    return edited_copy(tmp_path, ZIGGURAT, edits, first_only=True)


def test_bad_shapes_are_reported_at_load_time(tmp_path):
    bad = _broken(
        tmp_path,
        ("shape: ziggurat_shape", "shape: tower_shape"),
        ("{id: a2, layer: 1, points: 1, advance: craft}", "{id: a1, layer: 1, points: 1}"),
        ("{id: a3, layer: 1, points: 1}", "{id: a3, layer: 0, points: 1}"),
        ("{id: b2, layer: 2, on: [a2, a3], points: 2}", "{id: b2, layer: 2, points: 2}"),
        ("{id: c1, layer: 3, on: [b1, b2], points: 4", "{id: c1, layer: 3, on: [a1, b9], points: 4"),
        ("{id: a4, layer: 1, points: 1, advance: craft}", "{id: a4, layer: 1, on: [a1], points: 1}"),
    )
    _, errors = validate_game(str(bad))
    messages = [e.message for e in errors]
    expected = [
        "'tower_shape' is neither a shape of 'shapes' nor a table column",
        "shape 'small': slot id 'a1' is used twice",
        "slot 'a3': layer must be a whole number >= 1",
        "slot 'b2': a slot above layer 1 needs 'on'",
        "'a1' is on layer 1, not on layer 2",
        "'on' names an unknown slot 'b9'",
        "slot 'b1': 'on' names an unknown slot 'a2'",  # a2 was renamed a1
        "shape 'large', slot 'a4': a layer-1 slot rests on the ground",
    ]
    for text in expected:
        assert any(text in m for m in messages), (text, messages)
    assert len(errors) == len(expected)
    assert all(e.code == "definition/board" and e.place and e.place.line > 0 for e in errors)


def test_a_table_value_that_names_no_shape_fails_when_the_game_starts(tmp_path):
    bad = _broken(tmp_path, ("3: {ziggurat_shape: large}", "3: {ziggurat_shape: huge}"))
    assert validate_game(str(bad))[1] == []
    assert new_game(str(bad), 2).state["boards"]["ziggurat"]["shape"] == "small"
    with pytest.raises(PlayError) as e:
        new_game(str(bad), 3)
    assert e.value.code == "definition/board" and "'huge'" in e.value.message


def test_the_shape_geometry_is_built_once_per_program_not_at_every_query_or_runtime(monkeypatch):
    # the geometry (supports, x, left-to-right order) depends on the program alone: every runtime of
    # it (a search bot makes one a trial) shares it
    from mason.primitives import pyramid

    built = []
    real = pyramid.Shape

    def counted(slots):
        built.append(len(slots))
        return real(slots)

    monkeypatch.setattr(pyramid, "Shape", counted)
    monkeypatch.setattr(pyramid, "_SHAPES", {})  # (built by earlier tests of the same program)
    g = new_game(ZIGGURAT, 3, seed=5)
    g.state["counters"]["coins"] = [12, 12, 12]
    play_out(g)
    assert g.over and q(g, "pyramid_open", "ziggurat") == []
    assert q(g.trial(), "pyramid_open", "ziggurat") == [] and q(
        new_game(ZIGGURAT, 3, seed=6), "pyramid_open", "ziggurat"
    )
    assert built == [11]  # one board, one shape: built at its first query, once for every runtime
    with pytest.raises(PlayError) as e:  # a board of another kind is still refused by name
        q(g, "pyramid_open", "lore")
    assert e.value.code == "play/type" and "'lore' is not a pyramid board" in e.value.message


# ==================================================================== typed log events (issue 28)
def test_placements_and_clearings_are_typed_events_with_slot_seat_and_layer():
    g = new_game(str(ZIGGURAT), 2)
    events = board_events(
        g,
        'do pyramid_place("ziggurat", "a1", 0)\ndo pyramid_place("ziggurat", "a2", 1)\n'
        'do pyramid_place("ziggurat", "b1", 1)\ndo pyramid_clear("ziggurat", "b1")\ndo pyramid_clear("ziggurat", "b1")',
    )
    assert [(e["primitive"], e["op"], e["slot"], e["seat"], e["layer"]) for e in events] == [
        ("pyramid", "place", "a1", 0, 1),
        ("pyramid", "place", "a2", 1, 1),
        ("pyramid", "place", "b1", 1, 2),
        ("pyramid", "remove", "b1", 1, 2),  # clearing an empty slot changes nothing: no event
    ]
