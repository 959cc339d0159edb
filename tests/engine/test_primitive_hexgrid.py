"""The `hexgrid` board kind (interpreter/primitives/hexgrid.py, hexgrid_links.py) on the fixture game
tests/fixtures/hexville: geometry (neighbours, distance, the shared vertex, rotation of edges and
corners), stacking, edge and corner links with the covering rule (the worked examples), printed
marks, refusals, narration, the terminal picture, the load-time checks and a seeded game played to
its end."""

from __future__ import annotations

import copy
import math
import random

import paths
import pytest
from log_board_check import follow
from log_schema import schema_errors
from scenario import card, clear, counter, put, run
from support import act, edited_copy, new_game, play_out, refresh_pending

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.model.validate import validate_game
from mason.presentation.render import render_view
from mason.primitives.hexgrid import DIRS, parse_cell, step, vertex

HEXVILLE = paths.FIXTURES / "hexville"
YARD = ["0,-1", "1,-1", "-1,0", "0,0", "1,0", "-1,1", "0,1"]  # a ring of radius 1, row by row


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def fresh():
    g = new_game(str(HEXVILLE), 2)
    for b in ("town", "yard_0", "yard_1"):
        for stack in g.state["boards"][b]["stacks"].values():
            stack.clear()
    return g


def place(g, b, cell, tid, rot=0, n=0):
    c = card(g, tid, n)
    run(g, f'let t = {c}\ndo hex_place("{b}", "{cell}", t, {rot}, t.edges, t.corners)')
    return c


def paid(g, b, cell, kind, k, other):
    run(g, f'do hex_mark_paid("{b}", "{cell}", "{kind}", {k}, "{other}")')


def said(g, start):
    return [e["text"] for e in g.log[start:] if "text" in e]


# ==================================================================== geometry
def test_declared_and_generated_cells_with_their_data():
    g = fresh()
    assert q(g, "hex_cells", "town") == ["0,0", "1,-1", "0,-1", "-1,0", "1,0", "-1,1", "0,1", "2,0"]
    assert q(g, "hex_cells", "yard_0") == YARD
    assert q(g, "hex_info", "town", "1,0") == {"q": 1, "r": 0, "kind": "build", "surcharge": 1}
    assert q(g, "hex_info", "yard_1", "0,0") == {"kind": "well", "q": 0, "r": 0}
    assert q(g, "hex_info", "yard_1", "1,-1") == {"q": 1, "r": -1}
    assert g.state["boards"]["yard_0"] == {"stacks": {c: [] for c in YARD}, "marks_paid": {}}


def test_neighbours_directions_and_distance():
    g = fresh()
    assert [q(g, "hex_neighbour", "yard_0", "0,0", k) for k in range(6)] == [
        "1,0",
        "0,1",
        "-1,1",
        "-1,0",
        "0,-1",
        "1,-1",
    ]
    assert q(g, "hex_neighbour", "yard_0", "1,0", 0) is None  # 2,0 is off the yard
    assert q(g, "hex_neighbours", "yard_0", "1,0") == ["0,1", "0,0", "1,-1"]
    assert q(g, "hex_neighbours", "town", "0,0") == ["1,0", "0,1", "-1,1", "-1,0", "0,-1", "1,-1"]
    assert q(g, "hex_neighbours", "town", "2,0") == ["1,0"]
    assert q(g, "hex_distance", "0,0", "2,-1") == 2
    assert q(g, "hex_distance", "-3,1", "2,-1") == 5
    assert q(g, "hex_distance", "1,1", "1,1") == 0
    assert all(q(g, "hex_distance", "0,0", n) == 1 for n in q(g, "hex_neighbours", "town", "0,0"))


def _centre(cell):
    qq, r = parse_cell(cell)
    return math.sqrt(3) * (qq + r / 2), 1.5 * r  # pointy-top, r (and y) grow downward


def _corner_xy(cell, k):
    x, y = _centre(cell)
    a = math.radians(30 + 60 * k)  # c0 lower-right ... c4 top, c5 upper-right
    return round(x + math.cos(a), 6), round(y + math.sin(a), 6)


def test_directions_and_corners_are_those_of_pointy_top_hexes():
    for k, (dq, dr) in enumerate(DIRS):  # direction k points at angle 60k (clockwise)
        x, y = _centre(f"{dq},{dr}")
        assert round(math.degrees(math.atan2(y, x))) % 360 == 60 * k
    # corner k lies between edges k and k+1: at the middle of the two edge directions
    assert _corner_xy("0,0", 1) == (0.0, 1.0) and _corner_xy("0,0", 4) == (0.0, -1.0)  # bottom, top


def test_a_vertex_is_shared_by_three_hexes():
    cells = [f"{a},{b}" for a in range(-3, 4) for b in range(-3, 4)]
    for cell in cells:
        for k in range(6):
            (_, k0), (n1, k1), (n2, k2) = vertex(cell, k)
            assert n1 == step(cell, k) and k1 == (k + 2) % 6
            assert n2 == step(cell, k + 1) and k2 == (k + 4) % 6
            assert _corner_xy(cell, k0) == _corner_xy(n1, k1) == _corner_xy(n2, k2)
    g = fresh()
    assert q(g, "hex_vertex", "yard_0", "0,0", 0) == [["0,0", 0], ["1,0", 2], ["0,1", 4]]
    assert q(g, "hex_vertex", "yard_0", "1,0", 0) == [["1,0", 0]]  # 2,0 and 1,1 are off the yard
    assert q(g, "hex_vertex", "town", "0,1", 2) == [["0,1", 2], ["-1,1", 0]]


def test_rotation_turns_edges_and_corners_clockwise():
    g = fresh()
    ford = place(g, "yard_0", "0,0", "ford", 1)  # printed edges road, river, -, road, river, -; red c2, c5
    assert q(g, "hex_rotation", "yard_0", "0,0") == 1 and q(g, "hex_top", "yard_0", "0,0") == ford
    assert [q(g, "hex_edge", "yard_0", "0,0", k) for k in range(6)] == [None, "road", "river", None, "road", "river"]
    assert [q(g, "hex_corner", "yard_0", "0,0", k) for k in range(6)] == ["red", None, None, "red", None, None]
    place(g, "yard_0", "1,0", "meadow", 5)  # printed SW river, NE road, turned 5 steps
    assert [q(g, "hex_edge", "yard_0", "1,0", k) for k in range(6)] == [None, "river", None, None, "road", None]
    assert [q(g, "hex_corner", "yard_0", "1,0", k) for k in range(6)] == ["red", None, "blue", None, None, None]
    assert q(g, "hex_edge", "yard_0", "0,1", 0) is None and q(g, "hex_rotation", "yard_0", "0,1") is None


# ==================================================================== stacking
def test_stacking_covering_and_removing():
    g = fresh()
    start = len(g.log)
    lane = place(g, "yard_0", "0,0", "lane")
    bend = place(g, "yard_0", "0,0", "bend", 3)
    run(g, 'do hex_place(yard_0, "1,0", "flag", 0, none, none)')
    assert q(g, "hex_stack", "yard_0", "0,0") == [lane, bend] and q(g, "hex_top", "yard_0", "0,0") == bend
    assert q(g, "hex_pieces", "yard_0") == ["0,0", "1,0"] and q(g, "hex_pieces", "yard_1") == []
    assert not q(g, "hex_empty", "yard_0", "0,0") and q(g, "hex_empty", "yard_0", "0,1")
    assert q(g, "hex_edge", "yard_0", "1,0", 0) is None
    run(g, 'do hex_remove(yard_0, "0,0")\ndo hex_remove(yard_0, "1,0")')
    assert q(g, "hex_stack", "yard_0", "0,0") == [lane] and q(g, "hex_empty", "yard_0", "1,0")
    assert q(g, "hex_edge", "yard_0", "0,0", 3) == "road"  # the Lane shows again
    assert said(g, start) == [
        "Lane -> P1's yard 0,0 (rotation 0)",
        "Bend -> P1's yard 0,0 (rotation 3), covering Lane",
        "flag -> P1's yard 1,0 (rotation 0)",
        "Bend leaves P1's yard 0,0",
        "flag leaves P1's yard 1,0",
    ]


def test_a_number_that_is_no_card_is_shown_as_itself():
    g = fresh()
    start = len(g.log)
    run(g, 'do hex_place("yard_1", "0,0", 99, 2, none, none)')
    assert said(g, start) == ["99 -> P2's yard 0,0 (rotation 2)"] and q(g, "hex_top", "yard_1", "0,0") == 99


# ==================================================================== links and the covering rule
def test_edge_links_need_an_icon_on_both_facing_edges():
    g = fresh()
    place(g, "yard_0", "0,0", "ford", 0)  # E road, SE river, W road, NW river
    assert q(g, "hex_edge_links", "yard_0", "0,0") == []
    place(g, "yard_0", "1,0", "lane", 0)  # its W road faces the ford's E road
    place(g, "yard_0", "0,1", "orchard")  # no edges: nothing with the ford's SE river
    place(g, "yard_0", "-1,0", "brook", 0)  # its E river faces the ford's W road
    assert q(g, "hex_edge_links", "yard_0", "1,0") == [[3, "0,0", "road", "road"]]
    assert q(g, "hex_edge_links", "yard_0", "0,1") == []
    assert q(g, "hex_edge_links", "yard_0", "-1,0") == [[0, "0,0", "river", "road"]]  # the rules judge icons
    assert q(g, "hex_edge_links", "yard_0", "0,0") == [[0, "1,0", "road", "road"], [3, "-1,0", "road", "river"]]


def test_covering_example_edges():
    """A and B pay; C covers A: C-B pays nothing (B's icon paid with A's position); D covers B: C-D pays."""
    g = fresh()
    place(g, "yard_0", "0,0", "lane", 0)  # A
    assert q(g, "hex_edge_links", "yard_0", "0,0") == []
    place(g, "yard_0", "1,0", "lane", 0, n=1)  # B
    assert q(g, "hex_edge_links", "yard_0", "1,0") == [[3, "0,0", "road", "road"]]
    paid(g, "yard_0", "1,0", "e", 3, "0,0")
    paid(g, "yard_0", "0,0", "e", 0, "1,0")
    assert q(g, "hex_edge_links", "yard_0", "1,0") == [] and q(g, "hex_edge_links", "yard_0", "0,0") == []
    place(g, "yard_0", "0,0", "square")  # C covers A
    assert q(g, "hex_edge_links", "yard_0", "0,0") == []
    place(g, "yard_0", "1,0", "bend", 3)  # D covers B: roads on W and NW (1,-1 is empty)
    assert q(g, "hex_edge_links", "yard_0", "1,0") == [[3, "0,0", "road", "road"]]
    top = g.state["boards"]["yard_0"]["stacks"]["0,0"]
    assert top[0]["paid"] == {"e0": ["1,0"]} and top[1]["paid"] == {}  # C remembers nothing of A's


def test_covering_example_through_the_rules_pays_each_builder():
    g = fresh()
    g.state["counters"]["score"] = [0, 0]
    steps = [("lane", 0, "0,0", 0, 0), ("lane", 1, "1,0", 0, 1), ("square", 0, "0,0", 0, 0), ("bend", 0, "1,0", 3, 1)]
    gained = []
    for tid, n, cell, rot, who in steps:
        c = card(g, tid, n)
        run(
            g,
            f'let t = {c}\nset t.builder = {who}\ndo hex_place(yard_0, "{cell}", t, {rot}, t.edges, t.corners)\n'
            f'emit placed(who={who}, map="yard_0", spot="{cell}")',
        )
        gained.append(list(counter(g, "score")))
    assert gained == [[0, 0], [1, 1], [1, 1], [2, 2]]  # A-B pays both; C-B nothing; C-D both


def test_corner_example_two_marks_already_joined():
    g = fresh()
    place(g, "yard_0", "0,0", "bend", 0)  # red at c0
    place(g, "yard_0", "1,0", "orchard", 0)  # red at c0, c1, c2
    assert q(g, "hex_corner_links", "yard_0", "1,0", "red") == [[2, 1, [["0,0", 0, "c"]]]]
    assert q(g, "hex_corner_links", "yard_0", "1,0", "blue") == []
    paid(g, "yard_0", "1,0", "c", 2, "0,0")
    paid(g, "yard_0", "0,0", "c", 0, "1,0")
    place(g, "yard_0", "0,1", "bend", 4, n=1)  # red turned to c4: the same vertex
    assert q(g, "hex_corner_links", "yard_0", "0,1", "red") == [[4, 2, [["0,0", 0, "c"], ["1,0", 2, "c"]]]]
    paid(g, "yard_0", "0,1", "c", 4, "0,0")
    paid(g, "yard_0", "0,0", "c", 0, "0,1")
    assert q(g, "hex_corner_links", "yard_0", "0,1", "red") == [[4, 1, [["1,0", 2, "c"]]]]


def test_corner_links_through_the_rules_score_the_count():
    g = fresh()
    g.state["counters"]["score"] = [0, 0]
    for tid, cell, rot in [("bend", "0,0", 0), ("orchard", "1,0", 0), ("bend", "0,1", 4)]:
        c = card(g, tid, 1 if cell == "0,1" else 0)
        run(
            g,
            f'let t = {c}\nset t.builder = 0\ndo hex_place(yard_0, "{cell}", t, {rot}, t.edges, t.corners)\n'
            f'emit placed(who=0, map="yard_0", spot="{cell}")',
        )
    # corners: 1 for the orchard meeting the bend, 2 for the last bend; edges: the last bend's NW road
    # meets the first bend's SE road (1 to each builder, both seat 0); the orchard shows no edges
    assert counter(g, "score") == [5, 0]
    assert q(g, "hex_corner_links", "yard_0", "0,1", "red") == []


def test_printed_marks_count_and_remember_what_they_paid_with():
    g = fresh()
    assert q(g, "hex_printed_marks", "town", "0,1") == [[2, "blue"]]
    assert q(g, "hex_printed_marks", "town", "1,0") == [[4, "red"]] and q(g, "hex_printed_marks", "town", "0,0") == []
    place(g, "town", "-1,1", "pond", 0)  # blue at c0: the vertex of the printed 0,1 c2
    assert q(g, "hex_corner_links", "town", "-1,1", "blue") == [[0, 1, [["0,1", 2, "m"]]]]
    paid(g, "town", "-1,1", "c", 0, "0,1")
    paid(g, "town", "0,1", "m", 2, "-1,1")
    assert g.state["boards"]["town"]["marks_paid"] == {"0,1/2": ["-1,1"]}
    place(g, "town", "-1,1", "pond", 0)  # covering: the printed mark paid with -1,1
    assert q(g, "hex_corner_links", "town", "-1,1", "blue") == []
    place(g, "town", "0,1", "chapel", 2)  # blue at c2 on the cell printed with it
    assert q(g, "hex_corner_links", "town", "0,1", "blue") == [[2, 2, [["0,1", 2, "m"], ["-1,1", 0, "c"]]]]
    assert q(g, "hex_corner_links", "town", "0,1", "red") == []


def test_a_placement_in_town_through_the_rules():
    g = fresh()
    clear(g, "hand", 0, to="deck")
    put(g, "pond", "hand", 0)
    refresh_pending(g)
    g.state["counters"]["coins"] = [5, 5]
    g.state["counters"]["score"] = [0, 0]
    for label in ("Pond", "town", "-1,1", "0"):
        act(g, label, 0)
    # no surcharge at -1,1; next to the plaza: 1 coin; the printed blue mark: 1 point (P2's turn has
    # begun: its round coin)
    assert counter(g, "coins") == [6, 6] and counter(g, "score") == [1, 0]
    assert g.pending["seat"] == 1
    assert g.state["boards"]["town"]["marks_paid"] == {"0,1/2": ["-1,1"]}


# ==================================================================== refusals
@pytest.mark.parametrize(
    "call, code",
    [
        (("hex_info", "town", "5,5"), "play/unknown"),
        (("hex_top", "yard_0", "2,0"), "play/unknown"),
        (("hex_top", "yard_0", "north"), "play/type"),
        (("hex_top", "yard_0", [0, 0]), "play/type"),
        (("hex_cells", "coins"), "play/type"),
        (("hex_neighbour", "town", "0,0", 6), "play/index"),
        (("hex_corner", "town", "0,0", -1), "play/index"),
        (("hex_vertex", "town", "0,0", "1"), "play/index"),
        (("hex_distance", "0,0", "x,1"), "play/type"),
        (("hex_edge_links", "town", "0,0"), "play/illegal-state"),
    ],
)
def test_bad_queries_are_refused(call, code):
    g = fresh()
    with pytest.raises(PlayError) as e:
        q(g, *call)
    assert e.value.code == code


@pytest.mark.parametrize(
    "text, code",
    [
        ('do hex_place(town, "9,9", 1, 0, none, none)', "play/unknown"),
        ('do hex_place(town, "0,0", 1, 6, none, none)', "play/index"),
        ('do hex_place(town, "0,0", 1, -1, none, none)', "play/index"),
        ('do hex_place(town, "0,0", 1, 0, [1, 2], none)', "play/type"),
        ('do hex_remove(town, "0,0")', "play/illegal-state"),
        ('do hex_mark_paid(town, "0,0", "e", 0, "1,0")', "play/illegal-state"),
        ('do hex_mark_paid(town, "0,0", "m", 0, "1,0")', "play/illegal-state"),
        ('do hex_mark_paid(town, "0,1", "x", 2, "1,0")', "play/type"),
        ('do hex_mark_paid(town, "0,1", "m", 2, "7,7")', "play/unknown"),
    ],
)
def test_bad_calls_are_refused(text, code):
    g = fresh()
    with pytest.raises(PlayError) as e:
        run(g, text)
    assert e.value.code == code
    assert all(not s for s in g.state["boards"]["town"]["stacks"].values())


# ==================================================================== picture
def test_render_draws_rows_shifted_and_lists_the_pieces():
    g = fresh()
    place(g, "town", "1,0", "ford", 1)
    place(g, "town", "1,0", "meadow", 0)
    lines = render_view(g.program, g.view(0)).splitlines()
    head = next(i for i, l in enumerate(lines) if "the town: hex map, 8 cells" in l)
    top, mid, low = lines[head + 1], lines[head + 2], lines[head + 3]
    assert top.split() == ["r", "-1", "b", "b", "(q", "0..1)"]
    assert mid.split() == ["r", "0", "b", "p", "Mea", "b", "(q", "-1..2)"]
    assert low.split() == ["r", "1", "b", "b", "(q", "-1..0)"]
    # half a cell per row: 0,-1 sits between -1,0 and 0,0; -1,1 under it
    assert mid.index("b") < top.index("b") < mid.index("p") and low.index("b") == top.index("b")
    assert top.rindex("b") < mid.index("Mea") + 1 < mid.rindex("b")
    assert lines[head + 4].strip() == "printed marks: 0,1 c2 blue, 1,0 c4 red"
    assert lines[head + 5].strip() == (
        "1,0: Meadow (rotation 0) over Ford; edges SW river, NE road; corners c1 red, c3 blue"
    )
    yard = next(i for i, l in enumerate(lines) if "P1's yard: hex map, 7 cells" in l)
    assert lines[yard + 2].split() == ["r", "0", ".", "w", ".", "(q", "-1..1)"]


# ==================================================================== load-time checks
def _broken(tmp_path, *edits):
    return edited_copy(tmp_path, HEXVILLE, edits, first_only=True)


def test_fixture_is_valid():
    assert validate_game(str(HEXVILLE))[1] == []


def test_bad_declarations_are_reported_at_load_time(tmp_path):
    bad = _broken(
        tmp_path,
        ("{q: 1, r: -1, kind: build, surcharge: 1}", "{q: 1, r: -1, kind: build, surcharge: 1, colour: x}"),
        ("{q: 0, r: -1, kind: build}", "{q: 1, r: -1, kind: build}"),
        ("{q: -1, r: 0, kind: build}", "{q: -1, r: zero, kind: build}"),
        ("{q: 0, r: 1, corner: 2, mark: blue}", "{q: 0, r: 1, corner: 6, mark: blue}"),
        (
            "{q: 1, r: 0, corner: 4, mark: red}",
            "{q: 1, r: 0, corner: 4, mark: red}\n      - {q: 1, r: -1, corner: 0, mark: red}\n"
            "      - {q: 3, r: 3, corner: 0, mark: red}",
        ),
        ("label: P1's yard", "labels: P1's yard"),
        (
            'rings: {centre: [0, 0], radius: 1}\n    cell_data: {"0,0": {kind: well}}\n  yard_1',
            'rings: {centre: [0, 0], radius: 1}\n    cell_data: {"5,0": {kind: well}}\n  yard_1',
        ),
        (
            'rings: {centre: [0, 0], radius: 1}\n    cell_data: {"0,0": {kind: well}}\n\n',
            "rings: {centre: [0, 0], radius: -1}\n\n",
        ),
    )
    _, errors = validate_game(str(bad))
    messages = [e.message for e in errors]
    expected = [
        "board 'town': cell 1,-1 is listed twice",
        "board 'town': cell 4: a mapping with whole numbers q and r",
        "board 'town': mark 1 (cell 0,1): corner must be a whole number 0-5",
        "board 'town': mark 3 (cell 1,-1, corner 0): the vertex already has mark 'red' (mark 2)",
        "board 'town': mark 4: no cell 3,3 on the board",
        "board 'yard_0': unknown key 'labels' (did you mean 'label'?)",
        "board 'yard_0': cell_data: no cell '5,0' within the rings",
        "board 'yard_1': rings: radius must be a whole number >= 0",
    ]
    for text in expected:
        assert any(m.startswith(text) for m in messages), (text, messages)
    assert len(errors) == len(expected), messages
    assert all(e.code == "definition/board" and e.place and e.place.line > 0 for e in errors)
    lines = (bad / "game.yaml").read_text().splitlines()
    by_msg = {e.message: e.place.line for e in errors}
    assert lines[by_msg[messages[0]] - 2].strip() == "cells:"  # placed at the town's cells
    assert lines[by_msg["board 'yard_1': rings: radius must be a whole number >= 0"] - 1].strip().startswith("rings:")


def test_cells_and_rings_together_or_neither_are_refused(tmp_path):
    bad = _broken(
        tmp_path,
        ("label: P2's yard", "label: P2's yard\n    cells: [{q: 0, r: 0}]"),
        ("    label: P1's yard\n    rings: {centre: [0, 0], radius: 1}\n", "    label: P1's yard\n"),
    )
    messages = [e.message for e in validate_game(str(bad))[1]]
    assert any(m.startswith("board 'yard_1': give either 'cells'") for m in messages), messages
    assert any(m.startswith("board 'yard_0': give either 'cells'") for m in messages), messages


# ==================================================================== a whole game
def _edge_pairs_paid(g, b):
    """Every two touching top pieces showing the same icon on the facing edges paid (on one side at least)."""
    stacks = g.state["boards"][b]["stacks"]
    for cell, stack in stacks.items():
        for k in range(3):  # each pair once: E, SE, SW
            n = step(cell, k)
            if not stack or not stacks.get(n):
                continue
            mine, theirs = stack[-1], stacks[n][-1]
            if mine["edges"][k] is not None and mine["edges"][k] == theirs["edges"][k + 3]:
                assert n in mine["paid"].get(f"e{k}", []) or cell in theirs["paid"].get(f"e{k + 3}", []), (b, cell, n)


def _random_game(seed):
    g = new_game(str(HEXVILLE), 2, seed=seed)
    rng = random.Random(seed)
    play_out(g, lambda g: rng.randrange(len(g.pending["options"])))
    return g


def test_seeded_game_played_to_the_end():
    g = _random_game(1)
    assert g.over and g.result["rounds"] == 6
    assert len(g.state["zones"]["built"]) == 12 and g.state["zones"]["deck"] == []
    boards = g.state["boards"]
    assert sum(len(s) for b in ("town", "yard_0", "yard_1") for s in boards[b]["stacks"].values()) == 12
    assert any(len(s) > 1 for b in ("yard_0", "yard_1") for s in boards[b]["stacks"].values())  # covered
    assert counter(g, "score") == [1, 1]
    assert [p["score"] for p in g.result["parts"]] == [1, 1]
    again = _random_game(1)
    assert again.result == g.result and again.state["boards"] == boards


@pytest.mark.parametrize("seed", range(2, 8))
def test_random_games_remember_every_matching_edge_as_paid(seed):
    g = _random_game(seed)
    assert g.over
    for b in ("town", "yard_0", "yard_1"):
        _edge_pairs_paid(g, b)


@pytest.mark.parametrize(
    "board, text",
    [
        ("town", 'hex_info(b, "1,0")["surcharge"]'),
        ("town", 'hex_info(b, "1,0")["kind"]'),
        ("yard_1", 'hex_info(b, "1,-1")["q"]'),
        ("town", 'hex_info(b, "1,0")["nothing"]'),  # no such key: the closures' error
        ("town", 'hex_info(b, "5,5")["kind"]'),  # not on the board
        ("tower", 'hex_info(b, "1,0")["kind"]'),  # not a hexgrid board
        ("town", 'hex_info(b, 3)["kind"]'),
    ],
)
def test_a_key_of_hex_info_read_without_the_copy_gives_the_closures_value_or_error(board, text):
    # dsl.builtins.builtin(item=...): the generated expression reads the key from the cell itself (a
    # board named by a literal is read from the query's static table: tests/engine/test_static_builtins.py)
    from mason.dsl.expr import Scope
    from mason.dsl.parser import parse_expression

    g = fresh()
    fn = g.program.exprs.compile(parse_expression(text), Scope(("me", "b")))
    assert getattr(fn, "slow", None) is not None  # a generated function, with its closure tree
    from mason.primitives.hexgrid import _info_item

    assert _info_item in fn.__globals__.values()  # it reads the key through the query's item
    out = []
    for f in (fn, fn.slow):
        try:
            out.append(("ok", f(g.rt, {"me": 0, "b": board})))
        except PlayError as exc:
            out.append(("error", exc.message, exc.code))
    assert out[0] == out[1]
    if "nothing" not in text and "5,5" not in text and board != "tower" and ", 3)" not in text:
        assert out[0][0] == "ok"


# ==================================================================== typed log events (issue 28)
def test_board_events_carry_cell_rotation_icons_cover_and_payments():
    """Each change of a hex grid is a typed ``board`` event beside its narration: the cell, the piece,
    its rotation and its icons as they lie, what it covers; a payment, unnarrated, is one as well. A
    checker rebuilds the grid from them alone. The piece's type is named only for a card every seat
    sees (the Bend, still in the hidden deck, is not)."""
    g = fresh()
    lane, bend = card(g, "lane"), card(g, "bend")
    run(g, f"move {lane} to built")
    before = copy.deepcopy(g.state["boards"])
    start = len(g.log)
    place(g, "yard_0", "0,0", "lane")
    run(g, f'let t = {bend}\ndo hex_place("yard_0", "0,0", t, 3, t.edges, t.corners)')
    paid(g, "yard_0", "0,0", "e", 3, "1,0")
    run(g, 'do hex_remove(yard_0, "0,0")')
    events = [e for e in g.log[start:] if e["type"] == "board"]
    assert [(e["board"], e["primitive"], e["op"], e["cell"]) for e in events] == [
        ("yard_0", "hexgrid", "place", "0,0"),
        ("yard_0", "hexgrid", "place", "0,0"),
        ("yard_0", "hexgrid", "mark_paid", "0,0"),
        ("yard_0", "hexgrid", "remove", "0,0"),
    ]
    first, second, pay, gone = events
    assert first["piece"] == lane and first["piece_type"] == "lane" and first["rotation"] == 0
    assert first["edges"] == ["road", None, None, "road", None, None] and "covers" not in first
    assert second["piece"] == bend and "piece_type" not in second and second["rotation"] == 3
    assert second["covers"] == lane and second["height"] == 2 and second["text"].endswith("covering Lane")
    assert second["edges"] == [None, None, None, "road", "road", None]  # printed edges 0 and 1, turned 3 steps
    assert (pay["mark"], pay["index"], pay["other"]) == ("e", 3, "1,0") and "text" not in pay
    assert gone["piece"] == bend and gone["height"] == 1
    assert follow(before, g.log[start:]) == g.state["boards"]
    assert schema_errors(g.log[start:]) == []
