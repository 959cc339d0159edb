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
SOWING = paths.FIXTURES / "sowing"


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


HEX = {"hex_info", "hex_cells", "hex_empty"}
WHEEL = {"wheel_stations", "wheel_slots", "wheel_station_info", "wheel_slot_info"}
RING = {"ring_count", "ring_pieces", "ring_tokens", "ring_held", "ring_places"}

# (fixture, expression, the builtins it must read without calling them); ``c`` is the cell "1,0",
# where hexville's game has a tile placed
VALUES = [
    (HEXVILLE, "hex_info('town', c)['kind']", HEX),
    (HEXVILLE, "hex_info('town', c)['surcharge']", HEX),
    (HEXVILLE, "[x for x in hex_cells('town') if hex_info('town', x)['kind'] == 'build']", HEX),
    (HEXVILLE, "sum(hex_info('town', x)['surcharge'] for x in hex_cells('town') if x in ['1,-1', '1,0'])", HEX),
    (HEXVILLE, "hex_empty('town', c)", HEX),
    (HEXVILLE, "[x for x in hex_cells('town') if not hex_empty('town', x)]", HEX),
    (CAROUSEL, "wheel_stations('carousel')", WHEEL),
    (CAROUSEL, "wheel_slots('carousel')", WHEEL),
    (CAROUSEL, "wheel_station_info('carousel', 's0')['cost']", WHEEL),
    (CAROUSEL, "[wheel_station_info('carousel', s)['zone'] for s in wheel_stations('carousel')]", WHEEL),
    (CAROUSEL, "wheel_slot_info('carousel', 'w1')['bonus']", WHEEL),
    (SOWING, "ring_count('yard', 'b1')", RING),
    (SOWING, "[ring_count('yard', p) for p in ring_places('yard')]", RING),
    (SOWING, "ring_pieces('yard', 'a1')", RING),
    (SOWING, "ring_tokens('yard', 'c2', 'coins')", RING),
    (SOWING, "ring_held('yard')", RING),
]

# what a table or the state lacks, written otherwise, or a board of another kind: the builtin's error
ERRORS = [
    (HEXVILLE, "hex_info('town', '9,9')['kind']"),
    (HEXVILLE, "hex_info('town', '1,0')['colour']"),
    (HEXVILLE, "hex_empty('town', '9,9')"),
    (HEXVILLE, "hex_info('nowhere', '1,0')['kind']"),
    (HEXVILLE, "hex_empty('nowhere', '1,0')"),
    (HEXVILLE, "count(hex_cells('nowhere'))"),
    (CAROUSEL, "wheel_station_info('carousel', 's9')['cost']"),
    (CAROUSEL, "wheel_slot_info('carousel', 'w9')['bonus']"),
    (CAROUSEL, "wheel_station_info('carousel', 's1')['cost']"),  # a station without that key
    (SOWING, "ring_count('yard', 'z9')"),
    (SOWING, "ring_pieces('yard', 'z9')"),
    (SOWING, "ring_tokens('yard', 'a1', 'gems')"),
    (SOWING, "ring_tokens('yard', 'z9', 'coins')"),
    (SOWING, "ring_held('nowhere')"),
]


def fresh(fixture):
    g = new_game(str(fixture), 2)
    if fixture == HEXVILLE:
        t = card(g, "ford", 0)
        run(g, f'let t = {t}\ndo hex_place("town", "1,0", t, 0, t.edges, t.corners)')
    return g


@pytest.mark.parametrize("fixture, text, hooked", VALUES, ids=[v[1] for v in VALUES])
def test_a_query_read_in_place_gives_the_builtins_value(fixture, text, hooked):
    g = fresh(fixture)
    fast, slow = both(g, text, c="1,0")
    assert fast == slow and fast[0] == "ok"
    value, used = alone(g, text, c="1,0")
    assert value == fast[1]
    assert not used & hooked  # every such query read without its builtin


@pytest.mark.parametrize("fixture, text", ERRORS, ids=[e[1] for e in ERRORS])
def test_what_the_table_or_the_state_lacks_fails_as_the_builtin(fixture, text):
    fast, slow = both(fresh(fixture), text)
    assert fast == slow and fast[0] == "error", text


def test_a_cell_written_otherwise_is_left_to_the_builtin():
    """``1, 0`` is the cell ``1,0`` written with a space: the table has no such key, and the closure
    tree decides, with the same value."""
    g = new_game(str(HEXVILLE), 2)
    assert both(g, "hex_info('town', '1, 0')['surcharge']") == (("ok", 1, 0), ("ok", 1, 0))
    assert both(g, "hex_empty('town', '1, 0')") == (("ok", True, 0), ("ok", True, 0))


def test_a_board_named_by_a_variable_calls_the_builtin():
    """Only a board named by a literal is looked up when the code is made."""
    g = new_game(str(HEXVILLE), 2)
    fast, slow = both(g, "hex_info(b, '1,0')['surcharge'] + count(hex_cells(b))", b="town")
    assert fast == slow == ("ok", 1 + 8, 0)
    _, used = alone(g, "hex_info(b, '1,0')['surcharge'] + count(hex_cells(b))", b="town")
    assert {"hex_info", "hex_cells"} <= used


@pytest.mark.parametrize("fixture, text", [(HEXVILLE, "hex_cells('town')"), (SOWING, "ring_pieces('yard', 'a1')")])
def test_a_list_read_in_place_is_a_new_list_at_each_use(fixture, text):
    g = fresh(fixture)
    fn, _ = _forms(g, text)
    first = fn(g.rt, {"me": 0})
    first.append("spoiled")
    assert fn(g.rt, {"me": 0}) == first[:-1] != []
