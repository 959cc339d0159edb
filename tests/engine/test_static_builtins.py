"""Builtins that generated expressions read without calling them (dsl/builtins.py ``builtin``'s
``static``, ``table`` and ``code`` hooks; dsl/fastexpr.py): a board's declared cells, stations and
slots and their data, looked up once when the code is made; a hexgrid cell's emptiness and a ring's
pieces, tokens and held pieces read from the state in place. Each expression is compiled in its
generated form and its closure tree (``fn.slow``), on the hexville (hexgrid), carousel (wheel) and
sowing (ring) fixtures: both must give the same value or the same error,
and where the hook applies the generated form must decide alone, without the builtin."""

from __future__ import annotations

import paths
import pytest
from scenario import card, run
from support import new_game

from mason.dsl.builtins import BUILTINS
from mason.dsl.expr import Scope
from mason.dsl.parser import parse_expression
from mason.errors import PlayError

HEXVILLE = paths.FIXTURES / "hexville"
CAROUSEL = paths.FIXTURES / "carousel"


def _forms(g, text, **local):
    fn = g.rt.prog.exprs.compile(parse_expression(text), Scope(("me",) + tuple(local)))
    return fn, getattr(fn, "slow", None) or fn


def _result(g, f, local):
    g.rt.spent = 0
    try:
        return ("ok", f(g.rt, {"me": 0, **local}), g.rt.spent)
    except PlayError as exc:
        return ("error", exc.message, exc.code)


def both(g, text, **local):
    fn, slow = _forms(g, text, **local)
    return _result(g, fn, local), _result(g, slow, local)


def alone(g, text, **local):
    """The generated form's value with its fallback made an error, and the builtins its code holds."""
    fn, _ = _forms(g, text, **local)
    assert fn.__code__.co_filename == "<mason expression>"

    def no_fallback(rt, env):
        raise AssertionError("the generated code fell back to the closure tree")

    fn.__globals__["_slow"] = no_fallback
    held = {id(v) for v in fn.__globals__.values()}
    used = {name for name, b in BUILTINS.items() if id(b.impl) in held or id(getattr(b.impl, "item", None)) in held}
    return fn(g.rt, {"me": 0, **local}), used


HEX_VALUES = [
    "hex_info('town', c)['kind']",
    "hex_info('town', c)['surcharge']",
    "[x for x in hex_cells('town') if hex_info('town', x)['kind'] == 'build']",
    "sum(hex_info('town', x)['surcharge'] for x in hex_cells('town') if x != '0,0' and x != '0,-1' and x != '-1,0' and x != '-1,1' and x != '0,1')",
    "hex_empty('town', c)",
    "[x for x in hex_cells('town') if not hex_empty('town', x)]",
]


@pytest.mark.parametrize("text", HEX_VALUES)
def test_hexgrid_queries_read_in_place_give_the_builtins_value(text):
    g = new_game(str(HEXVILLE), 2)
    t = card(g, "ford", 0)
    run(g, f'let t = {t}\ndo hex_place("town", "1,0", t, 0, t.edges, t.corners)')
    fast, slow = both(g, text, c="1,0")
    assert fast == slow and fast[0] == "ok"
    value, used = alone(g, text, c="1,0")
    assert value == fast[1]
    assert not used & {"hex_info", "hex_cells", "hex_empty"}  # every hexgrid query read without its builtin


def test_a_cell_written_otherwise_or_not_on_the_board_is_left_to_the_builtin():
    """``1, 0`` is the cell ``1,0`` written with a space: the table has no such key, the closure tree
    decides (the same value); a cell off the board or a board that is no hexgrid fails alike."""
    g = new_game(str(HEXVILLE), 2)
    assert both(g, "hex_info('town', '1, 0')['surcharge']") == (("ok", 1, 0), ("ok", 1, 0))
    assert both(g, "hex_empty('town', '1, 0')") == (("ok", True, 0), ("ok", True, 0))
    for text in (
        "hex_info('town', '9,9')['kind']",
        "hex_info('town', '1,0')['colour']",
        "hex_empty('town', '9,9')",
        "hex_info('nowhere', '1,0')['kind']",
        "hex_empty('nowhere', '1,0')",
        "count(hex_cells('nowhere'))",
    ):
        fast, slow = both(g, text)
        assert fast == slow and fast[0] == "error", text


def test_a_board_named_by_a_variable_calls_the_builtin():
    """Only a board named by a literal is looked up when the code is made."""
    g = new_game(str(HEXVILLE), 2)
    fast, slow = both(g, "hex_info(b, '1,0')['surcharge'] + count(hex_cells(b))", b="town")
    assert fast == slow == ("ok", 1 + 8, 0)
    _, used = alone(g, "hex_info(b, '1,0')['surcharge'] + count(hex_cells(b))", b="town")
    assert {"hex_info", "hex_cells"} <= used


def test_a_static_list_is_a_new_list_at_each_use():
    g = new_game(str(HEXVILLE), 2)
    fn, _ = _forms(g, "hex_cells('town')")
    first = fn(g.rt, {"me": 0})
    first.append("spoiled")
    assert fn(g.rt, {"me": 0}) == ["0,0", "1,-1", "0,-1", "-1,0", "1,0", "-1,1", "0,1", "2,0"]


WHEEL_VALUES = [
    "wheel_stations('carousel')",
    "wheel_slots('carousel')",
    "wheel_station_info('carousel', 's0')['cost']",
    "[wheel_station_info('carousel', s)['zone'] for s in wheel_stations('carousel')]",
    "wheel_slot_info('carousel', 'w1')['bonus']",
]


@pytest.mark.parametrize("text", WHEEL_VALUES)
def test_wheel_declarations_read_in_place_give_the_builtins_value(text):
    g = new_game(str(CAROUSEL), 2)
    fast, slow = both(g, text)
    assert fast == slow and fast[0] == "ok"
    value, used = alone(g, text)
    assert value == fast[1]
    assert not used & {"wheel_stations", "wheel_slots", "wheel_station_info", "wheel_slot_info"}


def test_a_station_or_slot_not_declared_fails_as_the_builtin():
    g = new_game(str(CAROUSEL), 2)
    for text in (
        "wheel_station_info('carousel', 's9')['cost']",
        "wheel_slot_info('carousel', 'w9')['bonus']",
        "wheel_station_info('carousel', 's1')['cost']",  # a station without that key
    ):
        fast, slow = both(g, text)
        assert fast == slow and fast[0] == "error", text


SOWING = paths.FIXTURES / "sowing"
RING_VALUES = [
    "ring_count('yard', 'b1')",
    "[ring_count('yard', p) for p in ring_places('yard')]",
    "ring_pieces('yard', 'a1')",
    "ring_tokens('yard', 'c2', 'coins')",
    "ring_held('yard')",
]


@pytest.mark.parametrize("text", RING_VALUES)
def test_ring_state_read_in_place_gives_the_builtins_value(text):
    g = new_game(str(SOWING), 2)
    fast, slow = both(g, text)
    assert fast == slow and fast[0] == "ok"
    value, used = alone(g, text)
    assert value == fast[1]
    assert not used & {"ring_count", "ring_pieces", "ring_tokens", "ring_held", "ring_places"}


def test_a_place_or_token_kind_not_on_the_ring_fails_as_the_builtin():
    g = new_game(str(SOWING), 2)
    for text in (
        "ring_count('yard', 'z9')",
        "ring_pieces('yard', 'z9')",
        "ring_tokens('yard', 'a1', 'gems')",
        "ring_tokens('yard', 'z9', 'coins')",
        "ring_held('nowhere')",
    ):
        fast, slow = both(g, text)
        assert fast == slow and fast[0] == "error", text


def test_a_ring_list_read_in_place_is_a_new_list():
    g = new_game(str(SOWING), 2)
    fn, _ = _forms(g, "ring_pieces('yard', 'a1')")
    fn(g.rt, {"me": 0}).append("spoiled")
    assert fn(g.rt, {"me": 0}) == g.state["boards"]["yard"]["pieces"]["a1"] != [] and "spoiled" not in fn(
        g.rt, {"me": 0}
    )
