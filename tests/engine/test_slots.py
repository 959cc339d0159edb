"""The `slots` board kind (interpreter/primitives/slots.py) on the fixture game tests/fixtures/slot_wall:
geometry, support, owners and marks, groups with majority and score-once, patterns with an
orientation, region stores, the terminal picture and the load-time checks."""

from __future__ import annotations

import random

import paths
import pytest
from scenario import board_events
from support import act, edited_copy, new_game

from mason.dsl.builtins import BUILTINS, PROCEDURES
from mason.errors import PlayError
from mason.model.validate import validate_game
from mason.presentation.render import render_view
from mason.primitives import slots as S

FIXTURE = paths.FIXTURES / "slot_wall"


def new(players=2, seed=1):
    return new_game(FIXTURE, players, seed)


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def do(g, name, *args):
    PROCEDURES[name].impl(g.rt, None, *args)


# ------------------------------------------------------------------ geometry
def test_slot_ids_regions_levels_columns_and_x():
    g = new()
    assert len(q(g, "slots", "wall")) == 2 * (3 + 3 + 2)
    assert q(g, "slots", "wall")[:4] == ["R1L1C1", "R1L1C2", "R1L1C3", "R1L2C1"]
    assert (
        q(g, "slot_region", "wall", "R2L3C3"),
        q(g, "slot_level", "wall", "R2L3C3"),
        q(g, "slot_column", "wall", "R2L3C3"),
        q(g, "slot_x", "wall", "R2L3C3"),
    ) == (2, 3, 3, 6)
    assert q(g, "slot_at", "wall", 4, 1) == "R2L1C1" and q(g, "slot_at", "wall", 2, 3) is None
    assert q(g, "board_regions", "wall") == [1, 2]


def test_support_below_and_neighbours_across_region_borders():
    g = new()
    assert q(g, "slot_below", "wall", "R1L2C1") == "R1L1C1" and q(g, "slot_below", "wall", "R1L1C1") is None
    assert q(g, "slot_above", "wall", "R1L2C2") is None and q(g, "slot_above", "wall", "R1L2C3") == "R1L3C3"
    assert sorted(q(g, "slot_neighbours", "wall", "R1L1C3")) == ["R1L1C2", "R1L2C3", "R2L1C1"]


def test_open_slots_need_the_slot_below_filled_by_anyone():
    g = new()
    assert q(g, "open_slots", "wall") == [s for s in q(g, "slots", "wall") if "L1" in s]
    do(g, "place_piece", "wall", "R1L1C1", None)  # a neutral piece supports too
    assert "R1L2C1" in q(g, "open_slots", "wall", 1)
    assert q(g, "open_slots", "wall", 2) == ["R2L1C1", "R2L1C2", "R2L1C3"]
    with pytest.raises(PlayError, match="nothing below"):
        do(g, "place_piece", "wall", "R2L2C1", 0)
    with pytest.raises(PlayError, match="already filled"):
        do(g, "place_piece", "wall", "R1L1C1", 0)


# ------------------------------------------------------------------ owners and marks
def test_owner_neutral_filled_remove_and_set_owner():
    g = new()
    do(g, "place_piece", "wall", "R1L1C1", 1)
    do(g, "place_piece", "wall", "R1L1C2", None)
    assert q(g, "slot_owner", "wall", "R1L1C1") == 1 and q(g, "slot_owner", "wall", "R1L1C2") is None
    assert q(g, "slot_neutral", "wall", "R1L1C2") and not q(g, "slot_neutral", "wall", "R1L1C3")
    assert q(g, "slot_filled", "wall", "R1L1C2") and not q(g, "slot_filled", "wall", "R1L1C3")
    do(g, "set_owner", "wall", "R1L1C1", 0)
    assert q(g, "owned_slots", "wall", 0) == ["R1L1C1"]
    do(g, "remove_piece", "wall", "R1L1C1")
    assert q(g, "empty_slots", "wall", 1) == ["R1L1C1", "R1L1C3", "R1L2C1", "R1L2C2", "R1L2C3", "R1L3C1", "R1L3C3"]


def test_marks_are_counted_per_name():
    g = new()
    do(g, "place_piece", "wall", "R1L1C1", 0)
    do(g, "mark_slot", "wall", "R1L1C1", "seal")
    do(g, "mark_slot", "wall", "R1L1C1", "seal")
    assert q(g, "slot_marks", "wall", "R1L1C1", "seal") == 2
    assert q(g, "marked_slots", "wall", "seal") == ["R1L1C1"]
    do(g, "unmark_slot", "wall", "R1L1C1", "seal")
    do(g, "unmark_slot", "wall", "R1L1C1", "seal")
    assert q(g, "marked_slots", "wall", "seal") == [] and g.state["boards"]["wall"]["marks"] == {}
    with pytest.raises(PlayError):
        do(g, "mark_slot", "wall", "R1L1C2", "seal")  # an empty slot


# ------------------------------------------------------------------ groups, majority, score once
def test_groups_rows_levels_regions():
    g = new()
    assert q(g, "groups", "wall", "row") == ["R1L1", "R2L1", "R1L2", "R2L2"]
    assert q(g, "groups", "wall", "level") == ["L1", "L2"]  # group_levels: [1, 2]
    assert q(g, "group_slots", "wall", "L2") == ["R1L2C1", "R1L2C2", "R1L2C3", "R2L2C1", "R2L2C2", "R2L2C3"]
    assert q(g, "row_slots", "wall", 2, 1) == ["R2L1C1", "R2L1C2", "R2L1C3"]
    assert q(g, "level_slots", "wall", 3) == ["R1L3C1", "R1L3C3", "R2L3C1", "R2L3C3"]
    assert len(q(g, "region_slots", "wall", 1)) == 8
    assert q(g, "group_level", "wall", "R2L2") == 2 and q(g, "group_level", "wall", "R1") is None


def test_majority_ties_all_neutral_ignored_minimum():
    g = new(3)
    for s, o in zip(q(g, "row_slots", "wall", 1, 1), (0, 1, None)):
        do(g, "place_piece", "wall", s, o)
    row = q(g, "row_slots", "wall", 1, 1)
    assert q(g, "majority", "wall", row, [0, 1, 2]) == [0, 1]
    assert q(g, "majority", "wall", row, [0, 1, 2], 2) == []
    assert q(g, "majority", "wall", ["R1L1C3"], [0, 1, 2]) == []
    assert q(g, "count_owned", "wall", row, 1) == 1


def test_completed_by_and_mark_scored_make_score_once_data():
    g = new()
    for s in ("R1L1C1", "R1L1C2"):
        do(g, "place_piece", "wall", s, 0)
    assert q(g, "completed_by", "wall", "R1L1C2", "row") == []
    do(g, "place_piece", "wall", "R1L1C3", 1)
    assert q(g, "completed_by", "wall", "R1L1C3", "row") == ["R1L1"]
    assert q(g, "group_complete", "wall", "R1L1") and not q(g, "group_complete", "wall", "L1")
    do(g, "mark_scored", "wall", "R1L1")
    assert q(g, "scored", "wall", "R1L1") and q(g, "completed_by", "wall", "R1L1C3", "row") == []


def test_rows_score_once_in_play():
    g = new()
    act(g, "R1L1C1")
    act(g, "R2L1C1")  # P2
    act(g, "R1L1C2")
    act(g, "End turn")  # (a pair could be claimed)
    act(g, "R2L1C3")
    act(g, "R1L1C3")  # P1 completes row R1L1: 3 vs 0
    assert g.state["counters"]["points"] == [2, 0]
    assert g.state["boards"]["wall"]["scored"] == ["R1L1"]


# ------------------------------------------------------------------ patterns
def test_shapes_under_each_orientation():
    step = [[0, 0], [1, 1]]
    assert S.shapes(step, "fixed") == [((0, 0), (1, 1))]
    assert sorted(S.shapes(step, "mirror")) == [((0, 0), (1, 1)), ((0, 1), (1, 0))]
    assert len(S.shapes([[0, 0], [1, 0], [0, 1]], "rotate")) == 4
    assert len(S.shapes([[0, 0], [1, 0], [2, 0], [2, 1]], "any")) == 8
    with pytest.raises(PlayError):
        S.shapes(step, "sideways")


def test_a_patterns_shapes_are_found_once_and_errors_raised_each_time():
    step = [[0, 0], [1, 1]]
    first = S.shapes(step, "mirror")
    again = S.shapes(step, "mirror")
    assert again == first and again is not first  # the kept shapes, as a new list
    assert S._SHAPES[(repr(step), "mirror")] == first
    again.clear()
    assert S.shapes(step, "mirror") == first
    assert S.shapes([["0", 0], [1, 1.0]], "mirror") == first  # as int() reads them, kept apart by repr
    for bad in ([[0]], [], "ab", [[0, "x"]]):
        for _ in range(2):
            with pytest.raises(PlayError):
                S.shapes(bad, "fixed")


def test_pattern_matches_own_unmarked_pieces_by_translation():
    g = new()
    for s in ("R1L1C3", "R2L1C1", "R1L2C3"):
        do(g, "place_piece", "wall", s, 0)
    pair = [[0, 0], [1, 0]]
    assert q(g, "pattern_matches", "wall", pair, 0) == [["R1L1C3", "R2L1C1"]]  # across the border
    assert q(g, "pattern_matches", "wall", pair, 1) == []
    assert q(g, "pattern_matches", "wall", [[0, 1], [1, 0]], 0) == [["R1L2C3", "R2L1C1"]]
    assert q(g, "pattern_matches", "wall", [[0, 0], [1, 1]], 0, "fixed") == []
    assert q(g, "pattern_matches", "wall", [[0, 0], [1, 1]], 0, "mirror") == [["R1L2C3", "R2L1C1"]]
    do(g, "mark_slot", "wall", "R2L1C1", "seal")
    assert q(g, "pattern_matches", "wall", pair, 0, "fixed", "seal") == []
    assert q(g, "pattern_slots", "wall", [[0, 0], [0, 1]], 0) == ["R1L1C3", "R1L2C3"]
    assert q(g, "pattern_fits", "wall", [[0, 0], [0, 1], [0, 2]]) == 4  # the 4 end columns


def _every_placement(data, geo, pattern, seat, orientation, without_mark):
    """pattern matching by trying every position of the board, as slots.matches did before it
    started from the seat's own pieces: the reference its answers must equal, in order."""
    pieces, marks = data["pieces"], data["marks"]
    found, seen = [], set()
    for shape in S.shapes(pattern, orientation):
        w, h = max(x for x, _ in shape), max(y for _, y in shape)
        for x0 in range(1, geo.width - w + 1):
            for y0 in range(1, geo.height - h + 1):
                cells = [geo.at.get((x0 + dx, y0 + dy)) for dx, dy in shape]
                if None in cells or seat is None or any(pieces.get(c) != seat for c in cells):
                    continue
                if without_mark is not None and any((marks.get(c) or {}).get(without_mark) for c in cells):
                    continue
                key = tuple(sorted(cells, key=geo.index.get))
                if key not in seen:
                    seen.add(key)
                    found.append(list(key))
    return found


def test_pattern_matches_from_the_seats_pieces_finds_what_every_placement_finds():
    rnd = random.Random(4)
    hits = 0
    patterns = [
        [[0, 0], [1, 0]],
        [[0, 0], [0, 1]],
        [[0, 0], [1, 1]],
        [[0, 1], [1, 0], [2, 0]],
        [[0, 0], [1, 0], [1, 1]],
    ]
    for _ in range(60):
        g = new()
        data, geo = S._g(g.rt, "wall")
        for sl in geo.slots:
            data["pieces"][sl] = rnd.choice([None, None, 0, 1, "neutral"])
            if rnd.random() < 0.2:
                data["marks"][sl] = {"seal": 1}
        for pattern in patterns:
            for orientation in S.ORIENTATIONS:
                for seat in (0, 1, None):
                    for mark in (None, "seal"):
                        expected = _every_placement(data, geo, pattern, seat, orientation, mark)
                        assert S.matches(data, geo, pattern, seat, orientation, mark) == expected
                        hits += len(expected) > 1
    assert hits > 100  # many boards with several placements, whose order counts


def test_open_slots_are_the_slots_is_open_accepts_on_random_boards():
    rnd = random.Random(8)
    for _ in range(40):
        g = new()
        data, geo = S._g(g.rt, "wall")
        data["pieces"] = {sl: rnd.choice([0, 1, "neutral"]) for sl in geo.slots if rnd.random() < 0.4}
        data["support"] = rnd.choice(["below", "none"])
        for region in (None, 1, 2, 3):
            expected = [
                s for s in geo.slots if (region is None or geo.info[s][0] == region) and S.is_open(data, geo, s)
            ]
            assert q(g, "open_slots", "wall", *(() if region is None else (region,))) == expected


@pytest.mark.parametrize("region", [1, 2, 3, 1.0, True, 0, "1", [1]])
def test_a_regions_slots_are_those_whose_region_equals_it(region):
    """``region_slots``, ``empty_slots`` and ``open_slots`` of a region look its slots up; they are
    the slots whose region equals the value given, for any value (none for one that is no region)."""
    g = new()
    data, geo = S._g(g.rt, "wall")
    data["pieces"] = {sl: 0 for sl in geo.slots[::3]}
    mine = [s for s in geo.slots if geo.info[s][0] == region]
    assert q(g, "region_slots", "wall", region) == mine
    assert q(g, "empty_slots", "wall", region) == [s for s in mine if s not in data["pieces"]]
    assert q(g, "open_slots", "wall", region) == [s for s in mine if S.is_open(data, geo, s)]
    assert q(g, "region_slots", "wall", region) is not q(g, "region_slots", "wall", region)  # a new list


def test_claim_a_shape_in_play_marks_one_piece():
    g = new()
    act(g, "R1L1C1")  # nothing to claim: the turn ends
    act(g, "R2L1C3")  # P2
    act(g, "R1L2C1")  # P1: vertical pair at C1
    assert "Claim a shape" in g.legal()
    act(g, "Claim a shape")
    assert g.legal() == ["R1L1C1", "R1L2C1"]  # the Stack is the only match: chosen at once
    act(g, "R1L2C1")
    assert g.state["boards"]["wall"]["marks"] == {"R1L2C1": {"seal": 1}}
    assert g.state["counters"]["points"][0] == 3


# ------------------------------------------------------------------ stores, play, picture
def test_region_stores():
    g = new()
    assert q(g, "store", "wall", 2, "coins") == 0
    do(g, "store_add", "wall", 2, "coins", 3)
    do(g, "store_add", "wall", 2, "coins", -1)
    assert q(g, "store", "wall", 2, "coins") == 2
    with pytest.raises(PlayError):
        do(g, "store_add", "wall", 2, "coins", -5)
    with pytest.raises(PlayError):
        q(g, "store", "wall", 2, "gems")


def test_random_games_fill_the_wall_and_end():
    for players in (2, 3):
        g = new(players, seed=players)
        rng = random.Random(players)
        while not g.over:
            g.answer(rng.randrange(len(g.pending["options"])))
        assert q(g, "empty_slots", "wall") == []
        assert sum(p["stones"] for p in g.result["parts"]) == 16


def test_render_draws_levels_top_down_with_owners_marks_and_stores():
    g = new()
    do(g, "place_piece", "wall", "R1L1C1", 0)
    do(g, "mark_slot", "wall", "R1L1C1", "seal")
    do(g, "place_piece", "wall", "R2L1C3", None)
    text = render_view(g.program, g.view(0))
    lines = text.splitlines()
    top = next(i for i, l in enumerate(lines) if l.strip().startswith("L3"))
    bottom = next(i for i, l in enumerate(lines) if l.strip().startswith("L1"))
    assert top < bottom
    assert "[P1*]" in lines[bottom] and "[## ]" in lines[bottom] and "[ . ]" in lines[bottom]
    assert "## = neutral stone" in text and "* = seal" in text
    assert any(l.strip().startswith("pot") for l in lines)


def test_bad_declarations_are_reported_at_load_time(tmp_path):
    bad = edited_copy(
        tmp_path,
        FIXTURE,
        [
            ("levels: [[1, 2, 3], [1, 2, 3], [1, 3]]", "levels: [[1, 2], [1, 2, 3]]"),
            ("regions: region_count", "regions: region_total"),
        ],
        name="bad_wall",
    )
    _, errors = validate_game(str(bad))
    messages = [e.message for e in errors]
    assert any("no slot below it" in m for m in messages)
    assert any("'region_total' is neither a number nor a table column" in m for m in messages)
    assert all(e.code == "definition/board" for e in errors)
    assert all(e.place and e.place.line > 0 for e in errors)


def test_the_memo_of_a_board_follows_the_state_it_was_made_from():
    """Queries find a board's geometry in the runtime's memo while the state holds the same board
    dict; a board put in its place (a state restored by hand, say) is read afresh, and a name that
    is no slots board is refused every time, memo or not."""
    g = new()
    before = q(g, "open_slots", "wall")
    replaced = {**g.state["boards"]["wall"], "pieces": {before[0]: 0}}
    g.state["boards"]["wall"] = replaced
    after = q(g, "open_slots", "wall")
    assert after != before and before[0] not in after
    assert after == [s for s in q(g, "slots", "wall") if S.is_open(replaced, S.geometry(replaced), s)]
    for _ in range(2):
        with pytest.raises(PlayError):
            q(g, "open_slots", "nowhere")


# ==================================================================== typed log events (issue 28)
def test_placements_owners_marks_groups_and_stores_are_typed_events():
    """A neutral piece says ``neutral: true`` where a seat's says ``seat``; a mark's event gives the
    mark's count after; the events alone rebuild the wall (``board_events`` checks it)."""
    g = new_game(str(FIXTURE), 2)
    events = board_events(
        g,
        'do place_piece("wall", "R1L1C1", 1)\ndo place_piece("wall", "R1L1C2", none)\ndo set_owner("wall", "R1L1C2", 0)\n'
        'do mark_slot("wall", "R1L1C1", "seal")\ndo mark_slot("wall", "R1L1C1", "seal")\n'
        'do unmark_slot("wall", "R1L1C1", "seal")\ndo remove_piece("wall", "R1L1C1")\ndo store_add("wall", 1, "coins", 3)',
    )
    assert [e["op"] for e in events] == ["place", "place", "replace", "mark", "mark", "unmark", "remove", "store"]
    mine, neutral, replaced = events[:3]
    assert (mine["slot"], mine["seat"], "neutral" in mine) == ("R1L1C1", 1, False)
    assert (neutral["slot"], neutral["neutral"], "seat" in neutral) == ("R1L1C2", True, False)
    assert (replaced["seat"], replaced["replaced_neutral"]) == (0, True)
    assert [e["count"] for e in events[3:6]] == [1, 2, 1] and events[6]["seat"] == 1
    assert (events[7]["region"], events[7]["good"], events[7]["source"], events[7]["dest"]) == (1, "coins", 0, 3)
