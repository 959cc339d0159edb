"""Generated expressions (mason/dsl/fastexpr.py) against the closure tree they stand for.

Every expression is compiled twice from the same text: its generated fast form and the closure
tree kept in ``fast.slow``. Both are evaluated in the mini fixture's state right after setup; they
must give the same value, or fail with the same error (message, code and place), and leave the
item budget and the local variables as each other.
"""

from __future__ import annotations

import pytest
from support import generated_source, mini_game, mini_program

from mason.dsl.expr import Scope
from mason.dsl.parser import parse_expression
from mason.errors import PlayError
from mason.runtime import engine  # noqa: F401  (the machine's tables, filled)
from mason.runtime.machine import move_card
from mason.runtime.state import new_state
from mason.session.game import Game, Settings

program = mini_program
game = mini_game


def both(text: str, **local):
    """(fast result, slow result): each ('ok', value, spent, env) or ('error', message, code, place)."""
    fn = program().exprs.compile(parse_expression(text), Scope(("me",) + tuple(local)))
    slow = getattr(fn, "slow", None)
    out = []
    for f in (fn, slow or fn):
        g = game()
        env = {"me": 0, **local}
        g.rt.spent = 0
        try:
            v = f(g.rt, env)
            out.append(("ok", v, g.rt.spent, env))
        except PlayError as exc:
            out.append(("error", exc.message, exc.code, str(exc.place)))
    return fn, out


VALUES = [
    "1 + 2 * 3 - 4 // 3 % 2",
    "gold + 1",
    "gold(1) + fame(2)",
    "count(hand) > 1 and count(vault) == 0 or bank >= 3",
    "not (gold == none)",
    "[c.cost for c in hand]",
    "[c.cost for c in hand if c.cost > 1]",
    "sum(c.cost for c in hand)",
    "any(c.cost > 2 for c in hand)",
    "all(c.cost > 0 for c in hand if c != none)",
    "count(c for c in hand if c.cost >= 1)",
    "[x * 2 for x in [1, 2, 3]]",
    "[[x, x] for x in [1, 2] if x in [2, 3]]",
    "'ab' + 'cd'",
    "[1, 2] + [3]",
    "[0] * 3",
    "3 if gold > 100 else 4",
    "-gold",
    "[5, 6, 7][1]",
    "play_cost(first(hand))",
    "gem_points(0) + hand_limit",
    "x.cost",
    "x.type",
    "round",
    "me",
    "count([1, 2, 3]) + len(hand) + sum([4, 5])",  # a list: Python's len and sum in place
    "count(c for c in hand) + sum(c.cost for c in hand)",
    "hand_limit",  # a named value read alone: its body in place
    # an inner list that reads no item of the outer comprehension: made once, counted at each use
    "[c for c in hand if c.type not in [d.type for d in vault]]",
    "any(c.cost > count([d for d in hand]) for c in hand)",
    "[count([d for d in hand if d != c]) for c in hand]",
    "[[d != c for d in hand] for c in hand]",  # reads the outer item: made at each item
    "[s for s in seats if s != me] + [players]",  # the seats and the number of players, in place
    "hand_size + start_gold",  # a column of the player-count table and a constant, in place
    "suits + [moon, prism]",  # a set (a new list), a set's member and a card type: names standing for themselves
    "[c for c in hand if c.type == prism or c.type in suits]",
]

ERRORS = [
    "gold(7)",  # not a seat
    "gold(-1)",  # negative: names.py lets the list say it
    "[1, 2][5]",  # index out of range
    "1 // 0",  # division by zero
    "'a' - 1",  # not numbers
    "y.cost",  # y holds no card
    "z.cost",  # a negative number is no card
    "sum(c.cost for c in 5)",  # not a list
    "[1] * 1000000000",  # too many items
    "x + [1]",  # a card number and a list
    "[c.cost for c in [z]]",  # not a zone: its items are checked to be cards
    "unset + 1",  # none and a number
    "count(5)",  # not a list: the builtin decides
    "sum(['a', 1])",  # Python's sum fails: the builtin's error
]


@pytest.mark.parametrize("text", VALUES)
def test_fast_form_gives_the_closure_trees_value(text):
    local = {"x": game().state["zones"]["hand/0"][0]}
    fn, (fast, slow) = both(text, **local)
    assert fast == slow


@pytest.mark.parametrize("text", ERRORS)
def test_fast_form_fails_as_the_closure_tree(text):
    hand = game().state["zones"]["hand/0"]
    local = {"x": hand[0], "y": None, "z": -2, "unset": None}
    fn, (fast, slow) = both(text, **local)
    assert fast == slow
    assert fast[0] == "error", fast


def test_whole_expressions_are_generated():
    """A composite expression gets one generated function; a leaf keeps its closure, but a named value."""
    prog = program()
    composite = prog.exprs.compile(parse_expression("[c.cost for c in hand if c.cost > 1]"), Scope(("me",)))
    leaf = prog.exprs.compile(parse_expression("gold"), Scope(("me",)))
    names = prog.exprs.compile(
        parse_expression("hand_size + start_gold + players + count(seats) + count(suits + [moon, prism])"),
        Scope(("me",)),
    )
    closures = [v for v in names.__globals__.values() if "resolve_name" in getattr(v, "__qualname__", "")]
    assert not closures  # every name read in place, none through its closure
    value = prog.exprs.compile(parse_expression("hand_limit"), Scope(("me",)))
    assert value.__code__.co_filename == "<mason expression>" and value.slow is not value
    assert composite.__code__.co_filename == "<mason expression>"
    assert "_c1" not in composite.__globals__  # a whole comprehension: its helper's body is the function's
    assert getattr(composite, "slow", None) is not None and composite.slow is not composite
    assert leaf.__code__.co_filename != "<mason expression>"


def test_unbound_comprehension_variable_is_restored():
    """A comprehension's variable is its own: the outer value is back after it, in both forms."""
    fn, (fast, slow) = both("[x for x in [1, 2]]", x=9)
    assert fast == slow and fast[3]["x"] == 9


def test_a_named_value_written_in_place_reads_its_own_parameters():
    """``play_cost(card)`` is written into its caller; a local of the caller named like its parameter
    (``card``) does not leak into it, and a modifier-free body gives the value's own result."""
    hand = game().state["zones"]["hand/0"]
    fn, (fast, slow) = both("play_cost(x) + play_cost(last(hand))", x=hand[0], card=10_000)
    assert fast == slow and fast[0] == "ok"
    assert fn.__code__.co_filename == "<mason expression>"


def _mini_with(tmp_path, values: str, modifiers: str = ""):
    """The mini fixture with more named values (YAML lines added at the end of ``values:``) and game
    modifiers: its program, and a game of it for 3 players right after setup."""
    from support import MINI, edited_copy

    from mason.model.validate import validate_game

    last = '  gem_points: {params: [s], value: "sum(c.points for c in vault(s))"}\n'
    more = last + values + (f"modifiers:\n{modifiers}" if modifiers else "")
    folder = edited_copy(tmp_path, MINI, [(last, more)])
    prog, errors = validate_game(str(folder))
    assert not errors, [e.line() for e in errors]
    g = Game(prog, Settings(str(folder), 3, 1), new_state(prog, 3, 1), [], narrate=False)
    g._run()
    return prog, g


def test_a_named_value_declared_later_is_written_in_place_too(tmp_path):
    """A value that calls one declared after it gets the callee's body in place once every value is
    compiled (the first generation could not see it), with the same value as its closure tree; and a
    body that indexes a query's result (``hex_info(b, c)["kind"]``, here ``[...][i]``) is written in place."""
    prog, g = _mini_with(
        tmp_path,
        "  early: {params: [card], value: later(card) + 1}\n"
        "  picked: {params: [i], value: '[3, 4, 5][i] + 1'}\n"
        "  later: {params: [card], value: card.cost}\n",
    )
    early = prog.values["early"].fn
    # written in place: no call of the callee's function (``.fn``) is left in the generated code
    assert early.__code__.co_filename == "<mason expression>" and "fn" not in early.__code__.co_names
    caller = prog.exprs.compile(parse_expression("picked(1) + later(first(hand))"), Scope(("me",)))
    assert "fn" not in caller.__code__.co_names
    env = {"me": 0}
    card = g.state["zones"]["hand/0"][0]
    cost = g.rt.types[g.rt.cards[card]["t"]]["cost"]
    assert early(g.rt, {"card": card, "me": 0}) == early.slow(g.rt, {"card": card, "me": 0}) == cost + 1
    assert caller(g.rt, env) == caller.slow(g.rt, env) == 5 + cost


class _SpyEnv(dict):
    """An env that records the names written into it."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.written = []

    def __setitem__(self, key, value):
        self.written.append(key)
        super().__setitem__(key, value)


def _comprehension_code(fn):
    """The code of the expression's comprehension: its helper's, or the generated function's own when the
    whole expression is that comprehension (its helper's body is written in the function)."""
    helper = fn.__globals__.get("_c1")
    return (helper or fn).__code__


def _fast_only(fn):
    """``fn`` with its closure-tree fallback made an error: the generated code must decide alone."""

    def no_fallback(rt, env):
        raise AssertionError("the generated code fell back to the closure tree")

    fn.__globals__["_slow"] = no_fallback
    return fn


@pytest.mark.parametrize(
    "text",
    ["[c.cost for c in hand if c.cost > 0]", "any(c.cost > 2 for c in hand)", "count(c for c in hand if c.cost >= 1)"],
)
def test_a_comprehension_written_all_inline_puts_nothing_in_env(text):
    """Nothing in the body reads the variable from env: the generated loop keeps it in a Python local;
    the closure tree puts it there and takes it away after. Both leave env as it was."""
    fn = _fast_only(program().exprs.compile(parse_expression(text), Scope(("me",))))
    g = game()
    fast_env, slow_env = _SpyEnv(me=0), _SpyEnv(me=0)
    assert fn(g.rt, fast_env) == fn.slow(g.rt, slow_env)
    assert fast_env.written == [] and "c" in slow_env.written
    assert fast_env == slow_env == {"me": 0}


def test_a_comprehension_read_from_env_by_inner_code_is_put_there():
    """Code the generator leaves to a closure (``others`` here) may read the variable from env: the
    comprehension puts it there for each item, and takes it away after. An inner comprehension gets
    the outer item passed to its helper instead: nothing is put in env."""
    g = game()
    hand = g.state["zones"]["hand/0"]
    fn = _fast_only(program().exprs.compile(parse_expression("[c for c in hand if c not in others]"), Scope(("me",))))
    env = _SpyEnv(me=0)
    assert fn(g.rt, env) == hand
    assert env.written.count("c") == len(hand) and env == {"me": 0}
    text = "[count([y for y in hand if y != c]) for c in hand]"
    fn = _fast_only(program().exprs.compile(parse_expression(text), Scope(("me",))))
    env = _SpyEnv(me=0)
    assert fn(g.rt, env) == [len(hand) - 1] * len(hand) == fn.slow(g.rt, {"me": 0})
    assert env.written == [] and env == {"me": 0}


def test_a_modified_value_is_one_generated_function_giving_the_generic_value():
    """A value with modifiers is evaluated by one generated function (``ValueDef.ev``), modifiers'
    ``when`` and amount written in place; it gives what the generic way (``Runtime._modified``) gives,
    with the modifier's card active or not."""
    prog = program()
    g = game()
    rt = g.rt
    cost, points = prog.values["play_cost"], prog.values["gem_points"]
    for vd in (cost, points):
        assert vd.ev.__code__.co_filename == "<mason expression>"
    # the jeweller's ``when: hero == self`` and ``set: max(base - 1, 0)``: in place, no expression called
    assert not [f for k, f in cost.ev.__globals__.items() if k.startswith("_k") and f.__name__ == "fast"]
    for c in g.state["zones"]["hand/0"]:  # the jeweller's turn: gems cost 1 less, never below 0
        env = {"card": c, "me": 0}
        base = rt.types[rt.cards[c]["t"]]["cost"]
        assert cost.ev(rt, env) == rt._modified(cost, "play_cost", env, cost.held) == max(base - 1, 0)
    prism = 11
    assert rt.cards[prism]["t"] == "prism" and rt.cards[prism]["z"] == "hand"
    before = points.ev(rt, {"s": 0, "me": 0})
    assert before == rt._modified(points, "gem_points", {"s": 0, "me": 0}, points.held)
    move_card(rt, prism, "vault/0")  # the prism counts 1 for its owner once in an active zone
    assert points.ev(rt, {"s": 0, "me": 0}) == rt._modified(points, "gem_points", {"s": 0, "me": 0}, points.held)
    assert points.ev(rt, {"s": 0, "me": 0}) == before + 1 and points.ev(rt, {"s": 1, "me": 0}) == 0
    # what generated expressions call: the same function, its arguments and ``me`` given as such
    for c in g.state["zones"]["hand/0"]:
        assert cost.evp(rt, c, 0) == cost.ev(rt, {"card": c, "me": 0})
    assert points.evp(rt, 0, 0) == before + 1 and points.evp(rt, 1, 0) == 0


def test_a_modified_value_reading_the_seats_own_zone_decides_in_its_generated_form(tmp_path):
    """The generated form given its arguments as such still has the environment its code reads (a seat's
    own zone, a comprehension's helper): it decides alone, without the generic way."""
    prog, g = _mini_with(
        tmp_path,
        '  room: {params: [c], value: "count(hand) + count(d for d in hand if d != c)"}\n',
        '  - {value: room, when: "count(hand) > 0", add: 1}\n',
    )
    vd, rt = prog.values["room"], g.rt
    hand = g.state["zones"]["hand/0"]
    assert hand and "env = {" in generated_source(vd.evp)
    assert vd.evp(rt, hand[0], 0) == vd.ev(rt, {"c": hand[0], "me": 0}) == 2 * len(hand)


def test_what_the_generated_value_cannot_combine_the_generic_way_decides(tmp_path):
    """``add`` of two lists, or of a text to a number: the generated form gives up, and ``rt.value``
    gives the generic way's list, or its error with the modifier's place."""
    prog, g = _mini_with(
        tmp_path,
        "  tags: \"['a']\"\n  bad: 1\n",
        "  - {value: tags, add: \"['b']\"}\n  - {value: bad, add: \"'x'\"}\n",
    )
    with pytest.raises(Exception):  # noqa: B017  (the generated form's own signal, whatever it is)
        prog.values["tags"].ev(g.rt, {"me": 0})
    assert g.rt.value("tags", (), {"me": 0}) == ["a", "b"]
    with pytest.raises(PlayError) as err:
        g.rt.value("bad", (), {"me": 0})
    assert err.value.code == "play/type" and "cannot apply add 'x' to 1" in err.value.message
    assert err.value.place is not None and err.value.place.line > 0


def test_rule_coverage_counts_a_modifier_once_each_time_it_applies_in_either_form():
    """``mason simulate --coverage`` counts every modifier that applies (``rt.stats``): the generated
    form counts as the generic way does, once per application, also when called from generated code."""
    fn = _fast_only(program().exprs.compile(parse_expression("[play_cost(c) for c in hand]"), Scope(("me",))))
    counts = []
    for way in ("generated", "generic"):
        g = game()
        g.rt.stats = {}
        if way == "generated":
            fn(g.rt, {"me": 0})
        else:
            vd = g.rt.prog.values["play_cost"]
            for c in g.state["zones"]["hand/0"]:
                g.rt._modified(vd, "play_cost", {"card": c, "me": 0}, vd.held)
        counts.append(g.rt.stats)
    assert counts[0] == counts[1] == {"jeweller.modifiers[0]": len(game().state["zones"]["hand/0"])}


def test_a_card_property_is_read_from_the_runtimes_card_types():
    """``c.cost`` reads the card's type through ``Runtime.card_types`` (one entry per card, made with
    the runtime); a card whose type the program does not know (a save edited by hand) gives the
    closure tree's error, not a crash when the runtime is made."""
    from mason.runtime.machine import Runtime

    g = game()
    c = g.state["zones"]["hand/0"][0]
    fn = program().exprs.compile(parse_expression("x.cost"), Scope(("me", "x")))
    assert "card_types" in fn.__code__.co_names
    assert g.rt.card_types[c] is g.rt.types[g.state["cards"][c]["t"]]
    assert fn(g.rt, {"me": 0, "x": c}) == fn.slow(g.rt, {"me": 0, "x": c})
    g.state["cards"][c]["t"] = "no_such_type"
    rt = Runtime(g.rt.prog, g.state)
    assert rt.card_types[c] is None
    errors = []
    for f in (fn, fn.slow):
        with pytest.raises(PlayError) as exc:
            f(rt, {"me": 0, "x": c})
        errors.append((exc.value.message, exc.value.code, str(exc.value.place)))
    assert errors[0] == errors[1]


def test_the_items_of_a_zone_are_read_as_cards_without_a_check():
    """A comprehension over a zone reads its items' properties directly (a zone holds nothing but
    cards); over another list, each item is checked first (``[c.cost for c in [z]]`` in ERRORS)."""
    for text, checked in (("[c.cost for c in hand]", False), ("[c.cost for c in [first(hand)]]", True)):
        fn = program().exprs.compile(parse_expression(text), Scope(("me",)))
        helper = _comprehension_code(fn)
        assert any(v.startswith("_t") for v in helper.co_varnames) is checked, text
        fast, slow = both(text)[1]
        assert fast == slow and fast[0] == "ok"


def test_a_named_value_with_a_comprehension_is_written_in_place(tmp_path):
    """A value whose body goes through a list, reading its own parameter there, is written into its
    caller: the parameter is passed to the comprehension's helper, and the value is the closure tree's."""
    prog, g = _mini_with(
        tmp_path, "  twins: {params: [card], value: 'count([c for c in hand if c.type == card.type])'}\n"
    )
    caller = prog.exprs.compile(parse_expression("[twins(c) for c in hand]"), Scope(("me",)))
    assert "fn" not in _comprehension_code(caller).co_names  # no call of the value's own function
    hand = g.state["zones"]["hand/0"]
    kinds = [g.rt.cards[c]["t"] for c in hand]
    expected = [kinds.count(k) for k in kinds]
    assert _fast_only(caller)(g.rt, {"me": 0}) == caller.slow(g.rt, {"me": 0}) == expected


def test_a_value_calling_values_and_a_seats_own_zone_is_written_in_place(tmp_path):
    """A body that calls another named value, or reads a seat's own zone or counter (``hand(s)``), is
    written in place too; a value that calls itself (under a condition) is written in place once,
    its own call left as a call."""
    prog, g = _mini_with(
        tmp_path,
        "  held: {params: [s], value: 'count(hand(s)) + gold(s)'}\n"
        "  twice: {params: [s], value: 'held(s) * 2'}\n"
        "  down: {params: [n], value: '0 if n <= 0 else down(n - 1) + 1'}\n",
    )
    caller = prog.exprs.compile(parse_expression("[twice(s) for s in [0, 1, 2]]"), Scope(("me",)))
    assert "fn" not in _comprehension_code(caller).co_names  # neither value's own function called
    st = g.state
    expected = [2 * (len(st["zones"][f"hand/{s}"]) + st["counters"]["gold"][s]) for s in range(3)]
    assert _fast_only(caller)(g.rt, {"me": 0}) == caller.slow(g.rt, {"me": 0}) == expected
    down = prog.exprs.compile(parse_expression("[down(n) for n in [0, 5]]"), Scope(("me",)))
    assert _fast_only(down)(g.rt, {"me": 0}) == down.slow(g.rt, {"me": 0}) == [0, 5]


def test_a_comprehension_reading_another_local_from_env_puts_nothing_there():
    """Reading another local (``y``) from env does not make the comprehension put its own variable
    there: only a closure could read it from env."""
    fn = program().exprs.compile(parse_expression("[c.cost + y for c in hand]"), Scope(("me", "y")))
    fn = _fast_only(fn)
    g = game()
    env = _SpyEnv(me=0, y=10)
    costs = [g.rt.types[g.rt.cards[c]["t"]]["cost"] + 10 for c in g.state["zones"]["hand/0"]]
    assert fn(g.rt, env) == costs == fn.slow(g.rt, {"me": 0, "y": 10})
    assert env.written == [] and env == {"me": 0, "y": 10}


def test_an_inner_list_that_reads_no_outer_item_is_made_once_and_counted_at_each_use():
    prog = program()
    once = prog.exprs.compile(parse_expression("[c.cost + count([d for d in hand]) for c in hand]"), Scope(("me",)))
    each = prog.exprs.compile(parse_expression("[[d != c for d in hand] for c in hand]"), Scope(("me",)))
    assert "_again" in once.__code__.co_names and "_again" not in each.__code__.co_names
    g = game()
    hand = g.state["zones"]["hand/0"]
    assert len(hand) >= 2
    g.rt.spent = 0
    value = _fast_only(once)(g.rt, {"me": 0})
    assert value == once.slow(game().rt, {"me": 0}) and g.rt.spent == len(hand) + len(hand) * len(hand)


def test_a_modifier_counted_before_the_generated_value_gives_up_is_counted_once(tmp_path):
    """The generated form counts a modifier that applied (``rt.stats``) only when it gives the value:
    here the first modifier applies, then the second adds two lists, which the generated form leaves
    to the generic way; that way counts both, once each (the generated form's count would make two)."""
    prog, g = _mini_with(
        tmp_path,
        "  tags: \"['a']\"\n",
        "  - {value: tags, set: \"['z']\"}\n  - {value: tags, add: \"['b']\"}\n",
    )
    g.rt.stats = {}
    assert g.rt.value("tags", (), {"me": 0}) == ["z", "b"]
    assert g.rt.stats == {"game.modifiers[0]": 1, "game.modifiers[1]": 1}


def test_a_property_of_the_turns_card_is_read_without_a_check_and_fails_as_the_closure_tree():
    """The turn's card (a turn family's name, ``character`` in Citadels) is a card or none, so its
    property is read without the card-number check; outside a turn the generated form fails as the
    closure tree does (same message, code and place), and inside one gives its value."""
    from support import new_game

    g = new_game("citadels", 4, 1, narrate=False)
    fn = g.rt.prog.exprs.compile(parse_expression("character.rank"), Scope(("me",)))
    source = generated_source(fn)
    assert "rt.card_types[rt.turn_card_now]['rank']" in source
    errors = []
    assert g.state["ti"] == -1  # the draft: no turn yet
    for f in (fn, fn.slow):
        with pytest.raises(PlayError) as exc:
            f(g.rt, {"me": 0})
        errors.append((exc.value.message, exc.value.code, str(exc.value.place)))
    assert errors[0] == errors[1]
    while g.state["ti"] < 0:
        g.answer(0)
    card = g.state["stack"][g.state["ti"]]["card"]
    assert fn(g.rt, {"me": 0}) == fn.slow(g.rt, {"me": 0}) == g.rt.types[g.state["cards"][card]["t"]]["rank"]


JOINS = [  # (text, whether the + is written in place): an operand that is never a list or a text
    ("gold + x.cost", True),  # a counter, a card property no card type holds as a list or text
    ("x.cost + gold(1)", True),  # a seat's counter
    ("(gold > 1) + gold(2)", True),  # a comparison
    ("-gold(1) + fame(2)", True),
    ("(fame(0) - 1) + (gold // 2)", True),
    ("(3 + x.cost) + gold(0)", True),
    ("'ab' + 'cd'", False),  # texts: the result is bounded
    ("[1, 2] + [3]", False),
    ("x.type + 'a'", False),
]

CHAINS = ["'a' + x.type + 'b' + 'c'", "[1] + [x] + [2, 3]", "x.type + ' (' + 'pay ' + 'gold)'"]


@pytest.mark.parametrize("text", CHAINS)
def test_a_chain_of_plus_is_joined_at_once_and_bounded_once(text):
    """``a + b + c`` is ``((a + b) + c)``: joined in one Python expression and its size bounded once
    (a list or a text only grows as it is joined, so a step past the bound leaves the end past it)."""
    fn, (fast, slow) = both(text, x=game().state["zones"]["hand/0"][0])
    assert fast == slow and fast[0] == "ok", (fast, slow)
    source = generated_source(fn)
    assert source.count("_bound(") == 1 and "_plus(" not in source, source


@pytest.mark.parametrize(
    "text",
    [
        "[1] * 600000 + [2] * 600000 + [3]",  # past the bound at the first step
        "[1] * 600000 + [2] + [3] * 400000",  # past it at the last
        "'a' + 'b' + z",  # a text and a number
        "[1] + [2] + y",  # a list and none
    ],
)
def test_a_chain_of_plus_fails_as_the_closure_tree(text):
    fn, (fast, slow) = both(text, y=None, z=3)
    assert "_bound(" in generated_source(fn)
    assert fast == slow and fast[0] == "error", (fast, slow)


@pytest.mark.parametrize("text, in_place", JOINS, ids=[j[0] for j in JOINS])
def test_a_plus_with_an_operand_never_a_list_or_text_is_written_in_place(text, in_place):
    """``a + b`` makes a list or a text only of two lists or two texts, so with one operand that is
    never either it needs no size bound (``_plus``): it makes a number or fails as Python's ``+``."""
    fn, (fast, slow) = both(text, x=game().state["zones"]["hand/0"][0])
    assert fast == slow and fast[0] == "ok", (fast, slow)
    assert ("_plus(" not in generated_source(fn)) is in_place, generated_source(fn)


@pytest.mark.parametrize("text", ["gold + [1]", "x.cost + 'a'", "gold(1) + y", "(gold > 1) + [2]"])
def test_a_plus_written_in_place_fails_as_the_closure_tree(text):
    fn, (fast, slow) = both(text, x=game().state["zones"]["hand/0"][0], y=None)
    assert "_plus(" not in generated_source(fn)
    assert fast == slow and fast[0] == "error", (fast, slow)


@pytest.mark.parametrize(
    "text", ["str(gold)", "str(none)", "str(x.cost)", "str('a_b')", "str(true)", "str([gold, none])"]
)
def test_str_is_written_in_place_and_writes_as_the_builtin(text):
    """``str(v)`` in place: ``none`` for no value, Python's ``str`` for anything but a list, which is
    left to the builtin (its items joined by commas)."""
    fn, (fast, slow) = both(text, x=game().state["zones"]["hand/0"][0])
    assert fast == slow and fast[0] == "ok", (fast, slow)
    assert "str(_v)" in generated_source(fn)


@pytest.mark.parametrize(
    "text", ["zone(x)", "owner(x)", "owner(none)", "[c for c in hand if zone(c) == 'hand' and owner(c) == me]"]
)
def test_zone_and_owner_are_written_in_place_and_give_the_builtins_value(text):
    """``zone(c)`` and ``owner(c)`` read the card in place (``owner(none)`` is none, as the builtin)."""
    fn, (fast, slow) = both(text, x=game().state["zones"]["hand/0"][0])
    assert fast == slow and fast[0] == "ok", (fast, slow)
    source = generated_source(fn)
    assert "['z']" in source or "['o']" in source, source


@pytest.mark.parametrize(
    "text", ["zone(z)", "owner(z)", "zone(none)", "zone('a')", "owner('a')", "owner(true)", "zone(99999)"]
)
def test_zone_and_owner_in_place_fail_as_the_builtins(text):
    """A negative number is no card (not one counted from the end), nor true, a text or a number past
    the last card, nor none for ``zone``: in place or not, the same one-line error."""
    fn, (fast, slow) = both(text, z=-2)
    assert fast == slow, (fast, slow)
    assert fast[0] == "error" and "needs a card" in fast[1], fast


@pytest.mark.parametrize(
    "text",
    [
        "[zone(c) for c in hand]",
        "[owner(c) for c in cards('gem')]",
        "[c.cost for c in cards('gem') if zone(c) == 'hand']",
        "[owner(d) for d in [c for c in cards('gem') if c.cost > 1]]",
    ],
)
def test_the_items_of_a_zone_or_of_cards_are_read_in_place_without_a_check(text):
    """An item of a zone, of ``cards(family)`` or of a filtered list of either is a card for sure:
    ``zone``, ``owner`` and properties read it without the card-number check, with the same values."""
    fn, (fast, slow) = both(text)
    assert fast == slow and fast[0] == "ok", (fast, slow)
    source = generated_source(fn)
    assert "rt.cards[x]['" in source or "rt.card_types[x]['" in source, source
    assert "_v >= 0" not in source and ">= 0 else None" not in source, source


@pytest.mark.parametrize("text", ["[gold(s) for s in seats]", "[count(hand(s)) for s in seats if s != me]"])
def test_an_item_of_seats_is_read_as_a_seat_without_a_check(text):
    """``seats`` holds nothing but seats: its items index a seat's counter or zone with no check."""
    fn, (fast, slow) = both(text)
    assert fast == slow and fast[0] == "ok", (fast, slow)
    assert "< rt.n else None" not in generated_source(fn)


def test_an_item_of_another_list_is_checked_as_a_seat():
    fn, (fast, slow) = both("[gold(s) for s in [0, 7]]")
    assert fast == slow and fast[0] == "error", (fast, slow)
    assert "< rt.n else None" in generated_source(fn)


@pytest.mark.parametrize(
    "text",
    [
        "any(c.cost <= gold for c in hand)",
        "[c for c in hand if c.cost <= gold and bank > 0]",
        "count(c for c in hand if play_cost(c) <= gold)",  # a value with modifiers: its .mods held too
        "[[gold + d.cost for d in hand] for c in hand]",  # the inner list holds its own
    ],
)
def test_a_comprehension_reads_the_state_its_items_cannot_change_once_before_its_loop(text):
    fn, (fast, slow) = both(text)
    assert fast == slow and fast[0] == "ok", (fast, slow)
    source = generated_source(fn)
    assert "_r" in source and "= rt.counters[" in source, source
    loop = source[source.index("for x in items:") :]
    assert "rt.counters[" not in loop.split("return")[0], source  # not read again at each item


def test_a_comprehension_over_me_reads_each_seats_own_counter():
    """An item named ``me`` changes what ``gold`` reads: nothing is held before that loop."""
    fn, (fast, slow) = both("[gold for me in seats]")
    assert fast == slow and fast[0] == "ok", (fast, slow)
    assert "= rt.counters[" not in generated_source(fn)


def test_a_held_read_that_fails_leaves_the_expression_to_the_closure_tree():
    """``gold`` with no seat fails when held before the loop, even for no item: the closure tree then
    gives the value (the empty list), as without the read held."""
    fn = program().exprs.compile(parse_expression("[c for c in [] if c > gold]"), Scope(("me",)))
    g = game()
    assert fn(g.rt, {"me": None}) == fn.slow(g.rt, {"me": None}) == []
    assert "= rt.counters[" in generated_source(fn)


def test_generated_expressions_read_only_names_their_namespace_defines():
    """As for blocks (test_direct_blocks): a name missing from a generated expression's namespace (a
    read held before a loop, written where the loop's function cannot see it) would fail at every
    call and leave the expression to the closure tree, unseen. Every game's, after a game played."""
    import builtins
    import gc
    import types

    from support import EVERY_GAME, globals_read

    from mason.play.session import simulate

    for game, players, expansions in EVERY_GAME:
        simulate(Settings(game, players, 1, (), expansions, {}), 1)

    made = [
        f for f in gc.get_objects() if type(f) is types.FunctionType and f.__code__.co_filename == "<mason expression>"
    ]
    missing = {
        (f.__code__.co_name, n)
        for f in made
        for n in globals_read(f.__code__)
        if n not in f.__globals__ and not hasattr(builtins, n)
    }
    assert len(made) > 1000 and missing == set()


@pytest.mark.parametrize(
    "when, arg",
    [
        ("card == self", ("local", "card")),
        ("self == card", ("local", "card")),
        ("gold > 1 and card == self", ("local", "card")),
        ("hero == self", ("turn", "hero")),  # the turn's card (a turn family's name)
        ("card == self or gold > 1", None),  # not required
        ("card != self", None),
        ("owner == self", None),  # not an event's argument
        ("card == x", None),
        ("base == self", None),  # a modifier's value so far, not an argument
    ],
)
def test_a_trigger_heard_only_by_the_card_its_event_names_is_found_from_its_when(when, arg):
    """``fastexpr.self_is``: the event argument a trigger's ``when`` requires to be ``self``; the
    generated ``heard`` then asks no other card of the type (its ``when`` could not hold)."""
    from mason.dsl.fastexpr import self_is

    fn = program().exprs.compile(parse_expression(when), Scope(("me", "self", "owner", "card", "x", "base")))
    assert self_is(fn, program()) == arg


def test_the_generated_heard_skips_the_cards_an_event_does_not_name():
    """Citadels' King takes the crown on its own turn: on the others' turns its trigger is not asked
    (no environment made, no ``when`` called), and on its own it is, as before."""
    from support import new_game

    from mason.runtime import machine

    g = new_game("citadels", 4, 1, narrate=False)
    heard = machine._heard(g.program)["turn_start"]
    king = next(c for c, card in enumerate(g.state["cards"]) if card["t"] == "king")
    asked = []
    trig = next(t for t in g.program.triggers["turn_start"] if t.key == "king.crown")
    when = trig.when
    g.state["cards"][king]["z"], g.state["cards"][king]["o"] = "chosen", 0
    try:

        def counting(rt, env):
            asked.append(env["self"])
            return when(rt, env)

        counting.mason_ast = when.mason_ast  # the same condition, counted
        trig.when = counting
        machine._heard(g.program)  # made again with the counting when
        heard = g.program._heard["turn_start"]
        frames = heard(g.rt, {"actor": 0, "card": king + 1})
        assert asked == [] and all(t is not trig for t, _ in frames)
        frames = heard(g.rt, {"actor": 0, "card": king})
        assert asked == [king] and any(t is trig for t, _ in frames)
    finally:
        trig.when = when
        machine._heard(g.program)


def test_a_modifier_applying_to_its_own_card_only_is_asked_of_that_card_alone():
    """Citadels' Keep: ``destructible`` is false for the Keep itself (``when: card == self``). The
    generated value asks each Keep only when the value's argument is that Keep (no zone read for any
    other card), and gives what the generic way gives, for every card, a Keep in a city or not."""
    from support import new_game

    from mason.runtime.machine import move_card

    g = new_game("citadels", 4, 1, narrate=False)
    rt, vd = g.rt, g.program.values["destructible"]
    keeps = [c for c, card in enumerate(g.state["cards"]) if card["t"] == "keep"]
    source = generated_source(vd.evp)
    assert keeps and all(f"if _p0 == {k}:" in source for k in keeps), source

    def same():
        for c in range(len(g.state["cards"])):
            env = {"card": c, "me": 0}
            assert vd.evp(rt, c, 0) == rt._modified(vd, "destructible", env, vd.held), c

    same()
    move_card(rt, keeps[0], "city/0")
    same()
    assert len(keeps) == 2 and vd.evp(rt, keeps[0], 0) is False and vd.evp(rt, keeps[1], 0) is True  # (in the deck)


def test_a_modifier_applying_on_its_own_cards_turn_is_asked_only_then():
    """Citadels' Architect: ``build_limit`` is 3 on the Architect's turn (``when: character == self``);
    its card is asked only while it is the turn's card, and the value is the generic one either way."""
    from support import new_game

    g = new_game("citadels", 4, 1, narrate=False)
    rt, vd = g.rt, g.program.values["build_limit"]
    architect = next(c for c, card in enumerate(g.state["cards"]) if card["t"] == "architect")
    assert f"if rt.turn_card_now == {architect}:" in generated_source(vd.evp)
    g.state["cards"][architect]["z"], g.state["cards"][architect]["o"] = "chosen", 0
    for card in (None, architect, architect + 1):
        rt.turn_card_now = card
        assert vd.evp(rt, 0) == rt._modified(vd, "build_limit", {"me": 0}, vd.held) == (3 if card == architect else 1)
    rt.sync_turn()


# ---------------------------------------------------------------- no silent fallback (issue 31 item 2)
def _with_str_template(monkeypatch, template: str):
    """``str``'s ``code`` hook giving ``template`` (a generator written wrong, for the test)."""
    from mason.dsl.builtins import BUILTINS

    monkeypatch.setattr(BUILTINS["str"].impl, "code", lambda program, *args: template)


def test_a_fast_form_that_raises_where_the_reference_path_gives_a_value_is_an_internal_error(monkeypatch):
    """Before issue 31 the reference path's value came back unseen; now the fast form's exception is
    reported, naming the expression, while the reference path alone still gives the value."""
    from mason.dsl.fastexpr import FastFormError

    _with_str_template(monkeypatch, "(str({0})[99])")  # an IndexError for any short text
    fn = program().exprs.compile(parse_expression("str(gold + 1)"), Scope(("me",)))
    g = game()
    assert fn.slow(g.rt, {"me": 0}) == str(g.rt.counters["gold"][0] + 1)
    with pytest.raises(FastFormError, match=r"expression Call at 1:1 .*IndexError"):
        fn(g.rt, {"me": 0})


def test_a_fast_form_that_hands_over_with_bail_gets_the_reference_value(monkeypatch):
    """``_bail()`` (a declared hand-over, ``_Fallback``) is no error: the reference path decides."""
    _with_str_template(monkeypatch, "(_bail())")
    fn = program().exprs.compile(parse_expression("str(gold + 1)"), Scope(("me",)))
    g = game()
    assert fn(g.rt, {"me": 0}) == fn.slow(g.rt, {"me": 0})


def test_a_fast_form_that_raises_where_the_reference_path_has_a_rule_error_gives_that_error(monkeypatch):
    """A rule error keeps its message, code and place on both paths."""
    _, out = both("count(3) + 1")
    assert out[0] == out[1] and out[0][0] == "error"


def test_a_game_stops_with_a_one_line_internal_error_at_the_rules_place_when_a_fast_form_is_wrong(monkeypatch):
    """Through a whole game: the run loop reports the FastFormError as play/internal at the place of
    the rule that was running (its rule file, line and column)."""
    from mason.session import game as game_module

    _with_str_template(monkeypatch, "(str({0})[99])")
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    monkeypatch.setenv("MASON_CACHE_DIR", "off")
    with pytest.raises(PlayError) as info:
        g = Game.new(Settings("prague", 2, 1, fast=True))
        while not g.over:
            g.answer(0)
    exc = info.value
    assert exc.code == "play/internal" and "FastFormError" in exc.message and "expression" in exc.message
    assert ".yaml:" in str(exc.place)
