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
from support import edited_copy, generated_source, new_game

from mason.dsl.builtins import BUILTINS
from mason.dsl.expr import Scope
from mason.dsl.parser import parse_expression
from mason.errors import PlayError

HEXVILLE = paths.FIXTURES / "hexville"
CAROUSEL = paths.FIXTURES / "carousel"
SOWING = paths.FIXTURES / "sowing"
SLOT_WALL = paths.FIXTURES / "slot_wall"


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
WHEEL = {"wheel_stations", "wheel_slots", "wheel_station_info", "wheel_slot_info", "wheel_slot_at", "wheel_piece_at"}
WHEEL |= {"wheel_piece"}
RING = {"ring_count", "ring_pieces", "ring_tokens", "ring_held", "ring_places", "ring_distance", "pawn_at"}
RING |= {"ring_move_cost"}
SLOTS = {"slot_level", "slot_owner"}

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
    (CAROUSEL, "[wheel_slot_at('carousel', s) for s in wheel_stations('carousel')]", WHEEL),
    (CAROUSEL, "[wheel_piece_at(carousel, s) for s in wheel_stations(carousel)]", WHEEL),
    (CAROUSEL, "[wheel_piece('carousel', w) for w in wheel_slots('carousel')]", WHEEL),
    (SOWING, "ring_count('yard', 'b1')", RING),
    (SOWING, "[ring_count('yard', p) for p in ring_places('yard')]", RING),
    (SOWING, "ring_pieces('yard', 'a1')", RING),
    (SOWING, "ring_tokens('yard', 'c2', 'coins')", RING),
    (SOWING, "ring_held('yard')", RING),
    (SOWING, "[[ring_distance('yard', a, b) for b in ring_places('yard')] for a in ring_places('yard')]", RING),
    (SOWING, "[pawn_at(yard, s) for s in seats] + [pawn_at(yard, 'nobody'), pawn_at(yard, 9)]", RING),
    (SOWING, "[ring_move_cost('yard', k) for k in [-2, 0, 1, 2, 5]]", RING),
    (SLOT_WALL, "[slot_level(wall, s) for s in slots(wall)]", SLOTS),
    (SLOT_WALL, "[slot_owner('wall', s) for s in slots('wall')]", SLOTS),
    # a board named without quotes: the name stands for itself, known when the code is made
    (HEXVILLE, "[x for x in hex_cells(town) if hex_info(town, x)['kind'] == 'build' and hex_empty(town, x)]", HEX),
    (CAROUSEL, "[wheel_station_info(carousel, s)['zone'] for s in wheel_stations(carousel)]", WHEEL),
    (SOWING, "[ring_count(yard, p) for p in ring_places(yard)]", RING),
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
    (CAROUSEL, "wheel_slot_at('carousel', 's9')"),
    (CAROUSEL, "wheel_slot_at('carousel', [1])"),
    (CAROUSEL, "wheel_piece_at('carousel', 3)"),
    (CAROUSEL, "wheel_piece('carousel', 'w9')"),
    (CAROUSEL, "wheel_piece('carousel', [2])"),
    (CAROUSEL, "wheel_station_info('carousel', 's1')['cost']"),  # a station without that key
    (SOWING, "ring_count('yard', 'z9')"),
    (SOWING, "ring_pieces('yard', 'z9')"),
    (SOWING, "ring_tokens('yard', 'a1', 'gems')"),
    (SOWING, "ring_distance('yard', 'a1', 'z9')"),
    (SOWING, "ring_distance('yard', 'z9', 'a1')"),
    (SOWING, "ring_distance('yard', [1], 'a1')"),
    (SOWING, "pawn_at('yard', true)"),
    (SOWING, "pawn_at('yard', [0])"),
    (SOWING, "ring_move_cost('yard', 'two')"),
    (SOWING, "ring_move_cost('yard', true)"),
    (SLOT_WALL, "slot_level('wall', 'R9L9C9')"),
    (SLOT_WALL, "slot_owner('wall', 'nowhere')"),
    (SLOT_WALL, "slot_level('wall', [1])"),
    (SOWING, "ring_tokens('yard', 'z9', 'coins')"),
    (SOWING, "ring_held('nowhere')"),
]


def fresh(fixture):
    g = new_game(str(fixture), 2)
    if fixture == HEXVILLE:
        _tile_on_1_0(g)
    return g


def _tile_on_1_0(g):
    """A hexville game with a tile placed on the town's cell "1,0"."""
    t = card(g, "ford", 0)
    run(g, f'let t = {t}\ndo hex_place("town", "1,0", t, 0, t.edges, t.corners)')


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


# ------------------------------------------------------------------------------------------ sieves
# A comprehension over a list known when the code is made (a ``static`` hook), whose condition
# begins with conjuncts reading nothing but the item, outer names and the program (dsl/fastexpr.py,
# ``_Gen.sieve``): the items those conjuncts keep are found once (per value of the outer names they
# read) and only the rest of the condition is tested at each use. ``k`` is "build"; after ``fresh``
# the cell "1,0" holds a tile.
SIEVED = [
    "[x for x in hex_cells('town') if hex_info('town', x)['kind'] == 'build' and hex_empty('town', x)]",
    "[x for x in hex_cells('town') if hex_info('town', x)['kind'] == k]",
    "count(x for x in hex_cells('town') if hex_info('town', x)['kind'] == k and not hex_empty('town', x))",
    "any(hex_empty('town', x) for x in hex_cells('town') if x != c and hex_info('town', x)['kind'] == 'plaza')",
    "all(hex_empty('town', x) for x in hex_cells('town') if hex_info('town', x)['kind'] in [k, 'plaza'])",
    "sum(hex_info('town', x)['surcharge'] for x in hex_cells('town') if x in ['1,-1', '2,0'] and hex_empty('town', x))",
]


def sieve_memos(fn) -> list:
    """The sieves' memos in a generated function's namespace: dicts of (outer values) -> kept items
    (None: not kept)."""
    return [v for v in fn.__globals__.values() if type(v) is dict and v and all(type(k) is tuple for k in v)]


def kept(fn) -> list:
    return [items for memo in sieve_memos(fn) for items in memo.values()]


@pytest.mark.parametrize("text", SIEVED)
def test_a_sieved_comprehension_gives_the_closure_trees_value_and_spends_as_much(text):
    g = fresh(HEXVILLE)
    fast, slow = both(g, text, c="1,0", k="build")
    assert fast == slow and fast[0] == "ok", text  # the value, and the item budget spent (every cell)
    assert fast == both(g, text, c="1,0", k="build")[0]  # again, from the kept items
    value, _ = alone(g, text, c="1,0", k="build")
    assert value == fast[1]
    fn, _ = _forms(g, text, c="1,0", k="build")
    fn(g.rt, {"me": 0, "c": "1,0", "k": "build"})
    assert any(items is not None for items in kept(fn)), "no sieve kept its items"


def test_a_sieve_keeps_its_items_per_value_of_the_outer_names_and_returns_new_lists():
    g = fresh(HEXVILLE)
    text = "[x for x in hex_cells('town') if hex_info('town', x)['kind'] == k]"
    fn, _ = _forms(g, text, k="build")
    builds = fn(g.rt, {"me": 0, "k": "build"})
    assert fn(g.rt, {"me": 0, "k": "plaza"}) == ["0,0"]
    assert len(builds) == 7
    builds.append("mine")  # the caller's list, not the sieve's
    assert fn(g.rt, {"me": 0, "k": "build"}) == builds[:-1]
    (memo,) = sieve_memos(fn)
    assert memo == {("build",): builds[:-1], ("plaza",): ["0,0"]}
    # a list is no key: the full loop runs
    assert fn(g.rt, {"me": 0, "k": ["build"]}) == fn.slow(g.rt, {"me": 0, "k": ["build"]}) == []


def test_a_prefix_failing_for_some_item_is_not_kept_and_the_full_loop_decides():
    g = fresh(HEXVILLE)
    text = "[x for x in hex_cells('town') if hex_info('town', x)['surcharge'] > 0]"  # the plaza has none
    fast, slow = both(g, text)
    assert fast == slow and fast[0] == "error"
    fn, _ = _forms(g, text)
    with pytest.raises(PlayError):
        fn(g.rt, {"me": 0})
    assert kept(fn) == [None]  # not kept
    # the prefix fails for a build cell without a surcharge, but any() finds one with a surcharge
    # first, in the full loop as in the closure tree
    text = "any(true for x in hex_cells('town') if hex_info('town', x)['kind'] == 'build' and hex_info('town', x)['surcharge'] > 0)"
    fast, slow = both(g, text)
    assert fast == slow == ("ok", True, 8)
    assert alone(g, text)[0] is True
    fn, _ = _forms(g, text)
    fn(g.rt, {"me": 0})
    assert kept(fn) == [None]


def _hexville_with(tmp_path, modifiers: str = ""):
    values = "values:\n  spot: {params: [x], value: \"hex_info('town', x)['kind'] == 'build'\"}\n"
    folder = edited_copy(tmp_path, HEXVILLE, [("values:\n", values)], first_only=True)
    if modifiers:
        with open(folder / "game.yaml", "a") as f:
            f.write("\nmodifiers:\n" + modifiers)
    g = new_game(str(folder), 2)
    _tile_on_1_0(g)
    return g


def test_a_named_value_in_the_prefix_is_sieved_while_it_has_no_modifier(tmp_path):
    text = "[x for x in hex_cells('town') if spot(x) and hex_empty('town', x)]"
    g = _hexville_with(tmp_path)
    fast, slow = both(g, text)
    assert fast == slow == ("ok", ["1,-1", "0,-1", "-1,0", "-1,1", "0,1", "2,0"], 8)
    fn, _ = _forms(g, text)
    fn(g.rt, {"me": 0})
    assert [len(items) for items in kept(fn)] == [7]
    # with a modifier, the value may change with the state: nothing is kept, the full loop runs
    g = _hexville_with(tmp_path / "mod", "  - {value: spot, set: \"x == '2,0' and coins(0) >= 0\"}\n")
    fast, slow = both(g, text)
    assert fast == slow == ("ok", ["2,0"], 8)
    fn, _ = _forms(g, text)
    fn(g.rt, {"me": 0})
    assert kept(fn) == [None]


def test_a_table_key_never_a_list_or_text_is_added_in_place():
    """``hex_info(b, c)["surcharge"] + coins(s)``: no entry of the board's table holds the key as a
    list or a text, so the ``+`` is Python's, without the size bound; a cell without the key (the
    plaza) fails as the builtin does."""
    g = fresh(HEXVILLE)
    text = "hex_info('town', c)['surcharge'] + coins(0)"
    fn, _ = _forms(g, text, c="1,0")
    assert "_plus(" not in generated_source(fn)
    coins = g.state["counters"]["coins"][0]
    assert both(g, text, c="1,0") == (("ok", 1 + coins, 0), ("ok", 1 + coins, 0))
    fast, slow = both(g, text, c="0,0")
    assert fast == slow and fast[0] == "error", fast
    fn, _ = _forms(g, "hex_info('town', c)['kind'] + 'x'", c="1,0")  # texts: bounded
    assert "_plus(" in generated_source(fn)


def test_the_slot_and_piece_over_a_station_read_in_place_follow_the_wheels_turns():
    """``wheel_slot_at`` and ``wheel_piece_at`` written in place (``code`` hooks) give the builtin's
    value whatever the rotation: the wheel turned 1 to 7 steps, every station."""
    g = fresh(CAROUSEL)
    texts = [
        "[wheel_slot_at(carousel, s) for s in wheel_stations(carousel)]",
        "[wheel_piece_at('carousel', s) for s in wheel_stations('carousel')]",
    ]
    seen = set()
    for _ in range(7):
        run(g, "do wheel_turn(carousel, 1)")
        for text in texts:
            fast, slow = both(g, text)
            assert fast == slow and fast[0] == "ok", text
            assert alone(g, text)[0] == fast[1]
            seen.add(tuple(fast[1]))
    assert len(seen) > 7  # the rotations gave different answers


def test_ids_written_into_a_template_are_texts_or_whole_numbers_without_braces():
    from mason.runtime.boards import ids_code

    assert ids_code(["a1", 2]) == "('a1', 2)" and ids_code([]) == "()"
    assert ids_code(["a{0}"]) is None and ids_code(["}"]) is None  # format would read them
    assert ids_code([1.5]) is None and ids_code([None]) is None and ids_code([True]) is None


def test_a_slot_query_read_in_place_follows_the_board_the_state_holds():
    """``slot_level`` and ``slot_owner`` read the geometry the runtime keeps for a slots board only
    while the state holds the board it was made from: a board put in its place is read afresh (the
    builtin decides, and keeps the new one)."""
    g = fresh(SLOT_WALL)
    text = "[slot_owner('wall', s) for s in slots('wall')]"
    assert both(g, text)[0] == both(g, text)[1]
    first = g.state["boards"]["wall"]
    some = list(_forms(g, "slots('wall')")[0](g.rt, {"me": 0}))[:3]
    g.state["boards"]["wall"] = {**first, "pieces": {some[0]: 1, some[2]: 0}}
    fast, slow = both(g, text)
    assert fast == slow and fast[1][:3] == [1, None, 0]
    assert alone(g, text)[0] == fast[1]  # the memo now holds the new board
