"""The `staircase` board kind (interpreter/primitives/staircase.py) on the fixture game
tests/fixtures/carousel: cells and their codes, tiers and their crossing, row scores and column
values, moves clamped to the grid, landing effects chained by the fixture's rules, the terminal
picture and the load-time checks."""

from __future__ import annotations

import copy

import paths
import pytest
from log_board_check import follow
from log_schema import schema_errors
from scenario import run
from support import broken_errors, errors_by_board_key, new_game

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.presentation.render import render_view
from mason.runtime.turns import finish

CAROUSEL = paths.FIXTURES / "carousel"


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def pos(g):
    return g.state["boards"]["tower"]["pos"]


def counters(g, seat=0):
    return g.state["counters"]["coins"][seat], g.state["counters"]["score"][seat]


def said(g, start):
    return [e["text"] for e in g.log[start:] if "text" in e]


def at(g, seat, row, column):
    pos(g)[seat] = [row, column]


# ==================================================================== the grid
def test_built_state_size_and_cell_codes():
    g = new_game(str(CAROUSEL), 3)
    assert g.state["boards"]["tower"] == {"pos": [[1, 1], [1, 1], [1, 1]]}
    assert q(g, "stair_rows", "tower") == 4 and q(g, "stair_columns", "tower") == 6
    assert [q(g, "stair_cell", "tower", 1, c) for c in range(1, 7)] == ["S", ".", 1, ">", ".", 2]
    assert q(g, "stair_cell", "tower", 3, 4) == "^" and q(g, "stair_cell", "tower", 4, 5) == 3
    assert q(g, "stair_here", "tower", 2) == "S"
    at(g, 1, 2, 4)
    assert q(g, "stair_row", "tower", 1) == 2 and q(g, "stair_column", "tower", 1) == 4
    assert q(g, "stair_here", "tower", 1) == 2


def test_tiers_scores_and_values():
    g = new_game(str(CAROUSEL), 2)
    assert [q(g, "stair_tier", "tower", r) for r in range(1, 5)] == [1, 1, 2, 2]
    assert [q(g, "stair_crosses_tier", "tower", r) for r in range(1, 5)] == [False, True, False, False]
    assert [q(g, "stair_row_score", "tower", r) for r in range(1, 5)] == [0, 2, 5, 8]
    assert [q(g, "stair_column_value", "tower", c) for c in range(1, 7)] == [0, 1, 1, 2, 2, 3]


@pytest.mark.parametrize(
    "call, code",
    [
        (("stair_cell", "tower", 5, 1), "play/index"),
        (("stair_cell", "tower", 1, 0), "play/index"),
        (("stair_tier", "tower", "2"), "play/index"),
        (("stair_column_value", "tower", 7), "play/index"),
        (("stair_row", "tower", 2), "play/no-seat"),
        (("stair_rows", "carousel"), "play/type"),
    ],
)
def test_bad_queries_are_refused(call, code):
    g = new_game(str(CAROUSEL), 2)
    with pytest.raises(PlayError) as e:
        q(g, *call)
    assert e.value.code == code


# ==================================================================== moves
def test_moves_are_clamped_to_the_grid_and_narrate_the_real_change():
    g = new_game(str(CAROUSEL), 2)
    at(g, 0, 3, 5)
    start = len(g.log)
    run(g, "do stair_move(tower, 0, 3, 4)")  # 2 rows and 3 columns are lost
    assert pos(g)[0] == [4, 6]
    run(g, "do stair_move(tower, 0, 1, 1)")  # nothing: no narration
    run(g, "do stair_move(tower, 0, -9, -2)")
    run(g, "do stair_set(tower, 1, 2, 3)")
    assert pos(g) == [[1, 4], [2, 3]]
    assert said(g, start) == [
        "P1's tower marker: row 3 col 5 -> row 4 col 6",
        "P1's tower marker: row 4 col 6 -> row 1 col 4",
        "P2's tower marker: row 1 col 1 -> row 2 col 3",
    ]


@pytest.mark.parametrize(
    "text, code",
    [
        ("do stair_set(tower, 0, 5, 1)", "play/index"),
        ("do stair_set(tower, 0, 1, 7)", "play/index"),
        ("do stair_move(tower, 2, 1, 0)", "play/no-seat"),
        ('do stair_move(tower, 0, "1", 0)', "play/type"),
        ("do stair_move(carousel, 0, 1, 0)", "play/type"),
    ],
)
def test_bad_moves_are_refused(text, code):
    g = new_game(str(CAROUSEL), 2)
    with pytest.raises(PlayError) as e:
        run(g, text)
    assert e.value.code == code
    assert pos(g) == [[1, 1], [1, 1]]


# ==================================================================== landing effects chained by the rules
def test_a_slide_then_a_lift_then_nothing():
    g = new_game(str(CAROUSEL), 2)
    at(g, 0, 3, 2)
    start = len(g.log)
    run(g, "emit climb(who=0, rows=0, columns=1)")  # (3,2) -> > at (3,3) -> ^ at (3,4) -> . at (4,4)
    assert pos(g)[0] == [4, 4] and counters(g) == (3, 0)
    assert said(g, start) == [
        "P1's tower marker: row 3 col 2 -> row 3 col 3",
        "P1's tower marker: row 3 col 3 -> row 3 col 4",
        "P1's tower marker: row 3 col 4 -> row 4 col 4",
    ]


def test_a_lift_into_a_new_tier_pays_and_a_number_pays_coins():
    g = new_game(str(CAROUSEL), 2)
    at(g, 0, 2, 1)
    run(g, "emit climb(who=0, rows=0, columns=1)")  # ^ at (2,2) lifts into tier 2: +2 points
    assert pos(g)[0] == [3, 2] and counters(g) == (3, 2)
    at(g, 1, 1, 1)
    run(g, "emit climb(who=1, rows=2, columns=0)")  # (3,1) is 1: +1 coin; crossing 2 -> 3: +2
    assert pos(g)[1] == [3, 1] and counters(g, 1) == (4, 2)
    run(g, "emit climb(who=1, rows=0, columns=4)")  # (3,5) is . : nothing more
    assert pos(g)[1] == [3, 5] and counters(g, 1) == (4, 2)


def test_a_move_lost_at_the_edge_lands_nowhere():
    g = new_game(str(CAROUSEL), 2)
    at(g, 0, 4, 5)  # on a 3
    start = len(g.log)
    run(g, "emit climb(who=0, rows=1, columns=0)")
    assert pos(g)[0] == [4, 5] and counters(g) == (3, 0) and said(g, start) == []
    at(g, 0, 1, 5)
    run(g, "emit climb(who=0, rows=0, columns=3)")  # clamped to (1,6), a 2
    assert pos(g)[0] == [1, 6] and counters(g) == (5, 0)


def test_final_score_is_points_plus_row_score_plus_column_value():
    g = new_game(str(CAROUSEL), 2)
    at(g, 0, 3, 6)
    at(g, 1, 2, 2)
    g.state["counters"]["score"] = [1, 4]
    finish(g.rt)
    assert g.state["result"]["parts"] == [{"score": 1, "tower": 5 + 3}, {"score": 4, "tower": 2 + 1}]


# ==================================================================== picture
def test_render_rows_top_first_with_markers_scores_tier_rule_and_values():
    g = new_game(str(CAROUSEL), 3)
    at(g, 0, 2, 4)
    at(g, 2, 2, 4)
    lines = render_view(g.program, g.view(0)).splitlines()
    top = next(i for i, l in enumerate(lines) if "tower: a staircase, top row first" in l)
    assert [l.rstrip() for l in lines[top + 1 : top + 7]] == [
        "    row 4  .      2  .  .         3  .  | 8",
        "    row 3  1      .  >  ^         .  3  | 5",
        "    ----------------------------------",
        "    row 2  .      ^  .  2[P1,P3]  >  .  | 2",
        "    row 1  S[P2]  .  1  >         .  2  | 0",
        "    value  0      1  1  2         2  3",
    ]


# ==================================================================== load-time checks
def _broken(tmp_path, replacements):
    return broken_errors(tmp_path, CAROUSEL, replacements)


def test_bad_staircase_declarations_are_reported_where_they_are(tmp_path):
    lines, errors = _broken(
        tmp_path,
        [
            ('"1 . > ^ . 3"', '"1 . > ^ ."'),
            ("tiers: [[1, 2], [3, 4]]", "tiers: [[1], [3, 4], [2]]"),
            ("row_scores: [0, 2, 5, 8]", "row_scores: [0, 2, 5]"),
            ("column_values: [0, 1, 1, 2, 2, 3]", "column_values: [0, 1, 1, 2, 2, x]"),
            ("start: [1, 1]", "start: [5, 1]"),
            ("kind: staircase\n", "kind: staircase\n    tier: 6\n"),
        ],
    )
    assert errors_by_board_key(lines, errors) == {
        "rows": ["board 'tower': row 3 has 5 cells, row 1 has 6: every row needs the same number"],
        "tiers": [
            "board 'tower': tiers must list the rows 1 to 4 once each, in order, bottom tier first "
            "(e.g. [[1, 2], [3, 4]])"
        ],
        "row_scores": ["board 'tower': row_scores must list 4 whole numbers, one per row"],
        "column_values": ["board 'tower': column_values must list 6 whole numbers, one per column"],
        "start": ["board 'tower': start must be [row, column] with a row from 1 to 4 and a column from 1 to 6"],
        "tier": ["board 'tower': unknown key 'tier' (did you mean 'tiers'?)"],
    }


def test_rows_must_be_text(tmp_path):
    lines, errors = _broken(tmp_path, [('"S . 1 > . 2"', "[S, ., 1]")])
    assert errors_by_board_key(lines, errors) == {
        "rows": [
            "board 'tower': rows must be a non-empty list of rows (bottom first), each a string of cell codes "
            "separated by spaces"
        ]
    }


# ==================================================================== typed log events (issue 28)
def test_a_marker_move_is_a_typed_event_with_rows_and_columns():
    g = new_game(str(CAROUSEL), 2)
    before = copy.deepcopy(g.state["boards"])
    start = len(g.log)
    run(g, 'do stair_move("tower", 0, 2, 1)\ndo stair_move("tower", 1, 0, 0)')
    events = [e for e in g.log[start:] if e["type"] == "board"]
    assert len(events) == 1  # a move that goes nowhere changes nothing and says nothing
    e = events[0]
    assert (e["board"], e["primitive"], e["op"], e["seat"]) == ("tower", "staircase", "move", 0)
    assert (e["source"], e["dest"]) == ([1, 1], [3, 2]) and e["text"] == "P1's tower marker: row 1 col 1 -> row 3 col 2"
    assert follow(before, g.log[start:]) == g.state["boards"] and schema_errors(g.log[start:]) == []
