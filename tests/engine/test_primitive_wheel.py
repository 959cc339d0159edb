"""The `wheel` board kind (interpreter/primitives/wheel.py) on the fixture game tests/fixtures/carousel:
rotation maths, slot/station lookups, pieces passing the end across wrap-around and multi-step
turns, put/take/move refusals, narration, the terminal picture, the load-time checks, a fixture
game played by hand and a seeded game played to its end."""

from __future__ import annotations

import copy
import random

import paths
import pytest
from log_board_check import follow
from log_schema import schema_errors
from scenario import run
from support import broken_errors, errors_by_board_key, new_game, play_out

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.presentation.render import render_view

CAROUSEL = paths.FIXTURES / "carousel"
STATIONS = [f"s{i}" for i in range(6)]
SLOTS = [f"w{i}" for i in range(6)]
LANTERN, KITE, CART = 0, 1, 2  # card ids of the three tiles (declaration order)


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def wheel(g):
    return g.state["boards"]["carousel"]


def fresh(players=2, r=0, **pieces):
    """A game at its first decision, the wheel at rotation r holding ``pieces`` (slot -> piece)."""
    g = new_game(str(CAROUSEL), players)
    wheel(g).update(r=r, pieces={sl: pieces.get(sl) for sl in SLOTS}, passed=[])
    return g


def said(g, start):
    return [e["text"] for e in g.log[start:] if "text" in e]


# ==================================================================== built state and geometry
def test_built_state_rotation_from_the_table_and_setup():
    g = new_game(str(CAROUSEL), 2)
    assert wheel(g) == {
        "r": 0,
        "pieces": {"w0": LANTERN, "w1": None, "w2": KITE, "w3": None, "w4": CART, "w5": None},
        "passed": [],
    }
    g3 = new_game(str(CAROUSEL), 3)  # start_rotation 1 at 3 players: w5 over s0
    assert q(g3, "wheel_rotation", "carousel") == 1
    assert q(g3, "wheel_slot_at", "carousel", "s0") == "w5"
    assert [q(g3, "wheel_piece_at", "carousel", st) for st in ("s0", "s2", "s4")] == [LANTERN, KITE, CART]
    assert q(g, "wheel_stations", "carousel") == STATIONS and q(g, "wheel_slots", "carousel") == SLOTS
    assert q(g, "wheel_station_info", "carousel", "s3") == {"id": "s3", "zone": "blue", "points": 2}
    assert q(g, "wheel_slot_info", "carousel", "w0") == {"id": "w0", "arrow": True}


@pytest.mark.parametrize("r", range(6))
def test_slot_k_sits_over_station_k_plus_r(r):
    g = fresh(r=r)
    for k, slot in enumerate(SLOTS):
        station = STATIONS[(k + r) % 6]
        assert q(g, "wheel_station_of", "carousel", slot) == station
        assert q(g, "wheel_slot_at", "carousel", station) == slot


def test_piece_lookups_and_occupied_stations_in_station_order():
    g = fresh(r=4, w0="a", w3="b", w5=7)
    assert q(g, "wheel_piece", "carousel", "w3") == "b" and q(g, "wheel_piece", "carousel", "w1") is None
    assert q(g, "wheel_piece_at", "carousel", "s1") == "b"  # w3 over (3 + 4) % 6 = s1
    assert q(g, "wheel_piece_at", "carousel", "s0") is None
    assert q(g, "wheel_where", "carousel", 7) == "w5" and q(g, "wheel_where", "carousel", "zz") is None
    assert q(g, "wheel_occupied", "carousel") == ["s1", "s3", "s4"]  # b (w3), 7 (w5), a (w0)


# ==================================================================== turning
def test_one_step_turns_and_a_piece_passes_from_the_last_station_to_the_first():
    g = fresh(r=0, w5="x", w1="y")
    start = len(g.log)
    run(g, "do wheel_turn(carousel)")
    assert q(g, "wheel_rotation", "carousel") == 1 and q(g, "wheel_passed", "carousel") == ["x"]
    assert q(g, "wheel_piece_at", "carousel", "s0") == "x" and q(g, "wheel_piece_at", "carousel", "s2") == "y"
    assert said(g, start) == ["the carousel turns 1 step: w0 now over s1 (past the end: x)"]
    run(g, "do wheel_turn(carousel, 1)")  # nothing passes: the record starts afresh
    assert q(g, "wheel_passed", "carousel") == []


def test_multi_step_turn_wraps_around_and_lists_pieces_in_the_order_they_passed():
    g = fresh(r=5, w0="first", w5="second", w2="stays")  # w0 over s5, w5 over s4
    start = len(g.log)
    run(g, "do wheel_turn(carousel, 3)")
    assert q(g, "wheel_rotation", "carousel") == 2  # (5 + 3) % 6
    assert q(g, "wheel_passed", "carousel") == ["first", "second"]
    assert q(g, "wheel_occupied", "carousel") == ["s1", "s2", "s4"]
    assert said(g, start) == ["the carousel turns 3 steps: w0 now over s2 (past the end: first, second)"]


def test_a_turn_of_more_than_a_lap_lists_a_piece_once_per_passing():
    g = fresh(r=0, w5="lap")
    run(g, "do wheel_turn(carousel, 7)")
    assert q(g, "wheel_passed", "carousel") == ["lap", "lap"] and q(g, "wheel_rotation", "carousel") == 1


# ==================================================================== put, take, move
def test_put_take_and_move_with_card_names_in_narration():
    g = fresh(r=1)
    start = len(g.log)
    run(
        g,
        f'do wheel_put(carousel, "w5", {KITE})\ndo wheel_move(carousel, {KITE}, "w2")\n'
        f'do wheel_move(carousel, {KITE}, "w2")\ndo wheel_take(carousel, "w2")',
    )
    assert said(g, start) == ["Kite -> w5 (over s0)", "Kite: w5 -> w2 (over s3)", "Kite leaves w2 (over s3)"]
    assert all(p is None for p in wheel(g)["pieces"].values())


@pytest.mark.parametrize(
    "text, code",
    [
        ('do wheel_put(carousel, "w0", "b")', "play/occupied"),
        ('do wheel_put(carousel, "w1", "a")', "play/illegal-state"),  # already on the wheel
        ('do wheel_put(carousel, "w1", none)', "play/type"),
        ('do wheel_put(carousel, "w9", "b")', "play/unknown"),
        ('do wheel_take(carousel, "w1")', "play/empty"),
        ('do wheel_move(carousel, "zz", "w1")', "play/illegal-state"),  # not on the wheel
        ('do wheel_move(carousel, "a", "w3")', "play/occupied"),
        ("do wheel_turn(carousel, 0)", "play/type"),
        ("do wheel_turn(tower)", "play/type"),
        ('let x = wheel_slot_at(carousel, "s9")', "play/unknown"),
        ('let x = wheel_station_of(carousel, "s1")', "play/unknown"),  # a station, not a slot
    ],
)
def test_bad_calls_are_refused(text, code):
    g = fresh(w0="a", w3="c")
    before = dict(wheel(g)["pieces"])
    with pytest.raises(PlayError) as e:
        run(g, text)
    assert e.value.code == code
    assert wheel(g)["pieces"] == before


def test_unknown_slot_suggests_a_close_id():
    g = fresh()
    with pytest.raises(PlayError, match=r"no slot 'w10' \(did you mean 'w1'\?\)"):
        q(g, "wheel_piece", "carousel", "w10")


def test_ids_are_looked_up_in_a_table_made_once_with_the_same_answers_and_refusals():
    # the positions of stations and slots are derived from the declaration once (wheel._positions)
    g = fresh(w2="a")
    stations = q(g, "wheel_stations", "carousel")
    stations.append("mine")  # a list given to the rules is theirs: the next call is unchanged
    assert q(g, "wheel_stations", "carousel") == STATIONS
    assert q(g, "wheel_station_of", "carousel", "w2") == "s2"
    assert q(g, "wheel_piece_at", "carousel", "s2") == "a"
    for bad in (3, None, ["w1"], {"id": "w1"}, True):  # not an id: refused as an unknown slot, never a crash
        with pytest.raises(PlayError) as e:
            q(g, "wheel_piece", "carousel", bad)
        assert e.value.code == "play/unknown"


# ==================================================================== picture
def test_render_one_line_per_station_with_the_slot_over_it_and_its_piece():
    g = fresh(r=2, w3=CART, w1="loose")
    run(g, "do wheel_turn(carousel)")
    lines = render_view(g.program, g.view(0)).splitlines()
    top = next(i for i, l in enumerate(lines) if "carousel: a wheel, rotation 3 (clockwise)" in l)
    assert [l.strip() for l in lines[top + 1 : top + 8]] == [
        "s0 (zone red, cost 2)     <- w3                Cart",
        "s1 (zone blue, points 1)  <- w4 (bonus coin)   -",
        "s2 (zone red, cost 1)     <- w5 (bonus point)  -",
        "s3 (zone blue, points 2)  <- w0 (arrow)        -",
        "s4 (zone red, cost 0)     <- w1 (bonus coin)   loose",
        "s5 (zone blue, points 3)  <- w2 (bonus step)   -",
        "past the end last turn: Cart",
    ]


def test_the_model_says_each_station_and_slot_in_words_the_wheel_may_declare(tmp_path):
    """A station's and a slot's data in words (a flag by its name, a value after its key, in the words
    the wheel declares for it): the model's ``words``, which its ``summary`` and the terminal show too."""
    from support import edited_copy

    from mason.presentation.table import table_model

    folder = edited_copy(
        tmp_path,
        CAROUSEL,
        [
            (
                "    rotation: start_rotation\n",
                "    rotation: start_rotation\n    words: {coin: one coin, red: the red zone}\n",
            )
        ],
    )
    g = new_game(str(folder), 2)
    wheel(g).update(r=0, pieces={sl: None for sl in SLOTS}, passed=[])
    board = next(b for b in table_model(g.program, g.view(0))["boards"] if b["kind"] == "wheel")
    first = board["stations"][0], board["stations"][1]
    assert [(s["words"], s["slot_words"], s["summary"], s["slot_summary"]) for s in first] == [
        ("zone the red zone, cost 2", "arrow", "s0 (zone the red zone, cost 2)", "w0 (arrow)"),
        ("zone blue, points 1", "bonus one coin", "s1 (zone blue, points 1)", "w1 (bonus one coin)"),
    ]
    assert (
        "    s1 (zone blue, points 1)        <- w1 (bonus one coin)  -"
        in render_view(g.program, g.view(0)).splitlines()
    )


# ==================================================================== load-time checks
def _broken(tmp_path, replacements):
    return broken_errors(tmp_path, CAROUSEL, replacements)


def test_bad_wheel_declarations_are_reported_where_they_are(tmp_path):
    lines, errors = _broken(
        tmp_path,
        [
            ("{id: s4, zone: red, cost: 0}", "{id: s1, zone: red, cost: 0}"),
            ("{id: w3}", "{name: w3}"),
            ("rotation: start_rotation", "rotation: start_rotaton"),
            ("cards: true", "cards: yes please"),
            ("kind: wheel\n", "kind: wheel\n    colour: red\n    words: {coin: 1}\n"),
        ],
    )
    assert errors_by_board_key(lines, errors) == {
        "stations": ["board 'carousel': station 's1' is listed twice"],
        "slots": ["board 'carousel': slots: entry 4 needs an id (a non-empty string)"],
        "rotation": [
            "board 'carousel': rotation: 'start_rotaton' is neither a whole number nor a table column "
            "(did you mean 'start_rotation'?)"
        ],
        "cards": ["board 'carousel': cards must be true or false"],
        "colour": ["board 'carousel': unknown key 'colour'"],
        "words": ["board 'carousel': words maps a data value to the words it reads as (a text)"],
    }


def test_slot_count_and_empty_lists(tmp_path):
    lines, errors = _broken(tmp_path, [("      - {id: w5, bonus: point}\n", "")])
    assert errors_by_board_key(lines, errors) == {
        "slots": ["board 'carousel': 5 slots for 6 stations: a wheel has one slot per station"]
    }
    lines, errors = _broken(
        tmp_path / "x",
        [
            ("    stations:                              # clockwise", "    stations: []\n    old_stations:"),
            ("rotation: start_rotation", "rotation: 1.5"),
        ],
    )
    by_key = errors_by_board_key(lines, errors)
    assert by_key["stations"] == ["board 'carousel': stations must be a non-empty list of mappings, each with an id"]
    assert by_key["rotation"] == ["board 'carousel': rotation must be a whole number or a table column"]


# ==================================================================== the fixture, by hand and seeded
def test_a_game_by_hand_passing_pieces_go_back_and_the_arrow_doubles_the_turn():
    g = new_game(str(CAROUSEL), 2)
    assert g.pending["labels"] == ["s0", "s2", "s4"]
    g.answer(0)  # P1: Lantern at s0 (red, 2 coins), the arrow slot
    assert g.state["counters"]["coins"] == [1, 3] and g.state["boards"]["tower"]["pos"][0] == [2, 1]
    assert wheel(g)["r"] == 1 and wheel(g)["pieces"]["w5"] == LANTERN  # back over s0
    assert g.pending["labels"] == ["s0", "s3", "s5"]
    start = len(g.log)
    g.answer(1)  # P2: Kite at s3 (blue, 2 points), slot bonus: a step
    assert said(g, start)[:6] == [
        "P2 chooses s3",
        "Kite leaves w2 (over s3)",
        "P2 gains 2 score",
        "P2's tower marker: row 1 col 1 -> row 1 col 2",
        "the carousel turns 1 step: w0 now over s2 (past the end: Cart)",
        "Cart: w4 -> w0 (over s2)",
    ]  # s1 holds the Lantern
    assert wheel(g)["passed"] == [CART] and g.state["cards"][CART]["laps"] == 1
    assert wheel(g)["pieces"]["w4"] == KITE and q(g, "wheel_station_of", "carousel", "w4") == "s0"
    g.answer(g.pending["labels"].index("s2"))  # P1: Cart strides 2 + 1 lap = 3 columns
    assert g.state["boards"]["tower"]["pos"][0] == [2, 4] and g.state["counters"]["coins"][0] == 0 + 2
    g.answer(g.pending["labels"].index("s1"))
    g.answer(g.pending["labels"].index("s3"))
    assert q(g, "wheel_station_of", "carousel", "w0") == "s5"  # the arrow would land on s0
    start = len(g.log)
    g.answer(g.pending["labels"].index("s2"))
    assert "the carousel turns 2 steps: w0 now over s1" in said(g, start)
    assert wheel(g)["r"] == 1


def _random_game(seed, players):
    g = new_game(str(CAROUSEL), players, seed=seed)
    r = random.Random(seed)
    play_out(g, lambda g: r.randrange(len(g.pending["options"])))
    return g


@pytest.mark.parametrize("players, rounds", [(2, 4), (3, 3)])
def test_seeded_games_play_to_the_end(players, rounds):
    g = _random_game(4, players)
    assert g.over and g.result["rounds"] == rounds
    pieces = wheel(g)["pieces"]
    assert sorted(p for p in pieces.values() if p is not None) == [LANTERN, KITE, CART]
    texts = [e["text"] for e in g.log if "text" in e]
    passings = sum(t.count(",") + 1 for t in texts if "(past the end: " in t)
    assert passings == sum(c["laps"] for c in g.state["cards"]) > 0
    assert q(g, "wheel_piece_at", "carousel", "s0") is not None  # the tile taken last came back
    again = _random_game(4, players)
    assert again.result == g.result and wheel(again) == wheel(g)


# ==================================================================== typed log events (issue 28)
def test_board_events_carry_rotation_passing_pieces_slots_and_stations():
    """A turn is a typed ``board`` event with the steps, the rotation after and the pieces carried past
    the end (the crane's overflow); a put, move and take name the slots and the stations under them.
    A checker rebuilds the wheel from the events alone."""
    g = fresh(r=0, w5=LANTERN)
    before = copy.deepcopy(g.state["boards"])
    start = len(g.log)
    run(g, f'do wheel_turn("carousel", 2)\ndo wheel_put("carousel", "w2", {KITE})')
    run(g, f'do wheel_move("carousel", {KITE}, "w3")\ndo wheel_take("carousel", "w3")')
    events = [e for e in g.log[start:] if e["type"] == "board"]
    assert [(e["board"], e["primitive"], e["op"]) for e in events] == [
        ("carousel", "wheel", op) for op in ("turn", "put", "move", "take")
    ]
    turn, put, move, take = events
    assert (turn["steps"], turn["rotation"], turn["passed"]) == (2, 2, [LANTERN])
    assert (turn["first"], turn["under"]) == ("w0", "s2") and turn["text"].endswith("(past the end: Lantern)")
    assert (put["piece"], put["piece_type"], put["dest"], put["dest_station"]) == (KITE, "kite", "w2", "s4")
    assert (move["source"], move["source_station"], move["dest"], move["dest_station"]) == ("w2", "s4", "w3", "s5")
    assert (take["source"], take["source_station"], take["piece"]) == ("w3", "s5", KITE)
    assert follow(before, g.log[start:]) == g.state["boards"] and schema_errors(g.log[start:]) == []
