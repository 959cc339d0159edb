"""Generated expressions (mason/dsl/fastexpr.py) against the closure tree they stand for.

Every expression is compiled twice from the same text: its generated fast form and the closure
tree kept in ``fast.slow``. Both are evaluated in the mini fixture's state right after setup; they
must give the same value, or fail with the same error (message, code and place), and leave the
item budget and the local variables as each other.
"""

from __future__ import annotations

import pytest
from support import mini_game, mini_program

from mason.dsl.expr import Scope
from mason.dsl.parser import parse_expression
from mason.errors import PlayError
from mason.runtime import engine  # noqa: F401  (the machine's tables, filled)

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
    "unset + 1",  # none and a number
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
    """A composite expression gets one generated function; a leaf keeps its closure."""
    prog = program()
    composite = prog.exprs.compile(parse_expression("[c.cost for c in hand if c.cost > 1]"), Scope(("me",)))
    leaf = prog.exprs.compile(parse_expression("gold"), Scope(("me",)))
    assert composite.__code__.co_filename == "<mason expression>"
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


def test_a_named_value_declared_later_is_written_in_place_too(tmp_path):
    """A value that calls one declared after it gets the callee's body in place once every value is
    compiled (the first generation could not see it), with the same value as its closure tree; and a
    body that indexes a query's result (``hex_info(b, c)["kind"]``, here ``[...][i]``) is written in place."""
    from support import MINI, edited_copy

    from mason.model.validate import validate_game
    from mason.runtime.game import Game, Settings
    from mason.runtime.state import new_state

    folder = edited_copy(
        tmp_path,
        MINI,
        [
            (
                "  play_cost: {params: [card], value: card.cost}\n",
                "  early: {params: [card], value: later(card) + 1}\n"
                "  picked: {params: [i], value: '[3, 4, 5][i] + 1'}\n"
                "  play_cost: {params: [card], value: card.cost}\n"
                "  later: {params: [card], value: card.cost}\n",
            )
        ],
    )
    prog, errors = validate_game(str(folder))
    assert not errors, [e.line() for e in errors]
    early = prog.values["early"].fn
    # written in place: no call of the callee's function (``.fn``) is left in the generated code
    assert early.__code__.co_filename == "<mason expression>" and "fn" not in early.__code__.co_names
    caller = prog.exprs.compile(parse_expression("picked(1) + later(first(hand))"), Scope(("me",)))
    assert "fn" not in caller.__code__.co_names
    g = Game(prog, Settings(str(folder), 3, 1), new_state(prog, 3, 1), [], narrate=False)
    g._run()
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
    """An inner comprehension reads the outer variable from env (its own helper does not hold it): the
    outer one puts it there for each item, and takes it away after."""
    text = "[count([y for y in hand if y != c]) for c in hand]"
    fn = _fast_only(program().exprs.compile(parse_expression(text), Scope(("me",))))
    g = game()
    env = _SpyEnv(me=0)
    hand = g.state["zones"]["hand/0"]
    assert fn(g.rt, env) == [len(hand) - 1] * len(hand)
    assert env.written.count("c") == len(hand) and env == {"me": 0}
