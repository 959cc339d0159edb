"""Unit tests of the DSL: parser (AST shapes and positions), expression compiler, and the
``covered`` / ``most`` / ``sorted`` builtins. Names resolve against the mini fixture game
(tests/fixtures/mini), evaluated in its state right after setup with P1 (seat 0) acting."""

from __future__ import annotations

import itertools
import random

import pytest
from support import mini_game, mini_program

from mason.dsl import ast as A
from mason.dsl.builtins import BUILTINS
from mason.dsl.expr import CompileError, Scope
from mason.dsl.parser import DslSyntaxError, parse_effect, parse_expression
from mason.errors import MasonError, PlayError
from mason.runtime import engine  # noqa: F401  (the machine's tables, filled)
from mason.runtime import statements as S
from mason.runtime.machine import FRAME
from mason.session.game import Game

# ====================================================================== helpers
program = mini_program
game = mini_game  # the fixture after setup, in P1's first action window


def compile_(text: str, *local_names):
    return program().exprs.compile(parse_expression(text), Scope(("me",) + local_names))


def ev(text: str, g: Game | None = None, **local):
    """Evaluate an expression in the fixture's prepared state, with P1 acting and ``local`` names."""
    g = g or game()
    env = {"me": 0, **local}
    return compile_(text, *local)(g.rt, env)


def run(text: str, g: Game, env: dict) -> dict:
    """Run an effect without decisions on top of ``g``'s stack; return its variables."""
    prog = program()
    k = len(prog.errors)
    block = prog.effect({"do": text}, "do", tuple(env))
    assert len(prog.errors) == k, prog.errors[k:]
    st = g.state
    st["pending"] = None
    base = len(st["stack"])
    st["stack"].append({"kind": "block", "node": block.id, "next": 0, "scope": base, "vars": env})
    while len(st["stack"]) > base:
        assert st["pending"] is None, "this helper runs effects without decisions"
        FRAME[st["stack"][-1]["kind"]](g.rt, st["stack"][-1])
    return env


walk = A.walk


# ====================================================================== parser: positions
SAMPLE = """\
let x = [c.points for c in hand if c.suit == sun]
gain sum(p for p in x) gold to next_seat(me)
if x and not (1 in x) or -gold < 0:
    pay 1 gold by me
elif x == []:
    transfer 1 gold from me to 1
else:
    set passed(1) = true if gold > 2 else false
for s in seats:
    move hand(s) to deck bottom face down
    draw 2 from deck to hand(s) seen by s
repeat 2:
    shuffle deck
while count(deck) > 3:
    reveal last(deck) to 1
swap hand with hand(1)
emit played(card=last(hand), player=me)
turn 1 as first(led(1)) only action
say "hi {gold}"
pass
choose optional random up to 2 card cs from hand by 1 saying "Pick":
    stop turn
choose secret value v from [1, 2]
choose one by me saying "Which":
    option "A" if gold > 1:
        end game
    option "B":
        pass
"""


def test_every_parsed_node_has_a_position():
    nodes = walk(parse_effect(SAMPLE))
    kinds = {type(n).__name__ for n in nodes}
    assert {
        "Let",
        "Gain",
        "If",
        "Pay",
        "Transfer",
        "Set",
        "For",
        "Move",
        "Draw",
        "Repeat",
        "Shuffle",
        "While",
        "Reveal",
        "Swap",
        "Emit",
        "Turn",
        "Say",
        "Pass",
        "Choose",
        "StopTurn",
        "ChooseOne",
        "Option",
        "EndGame",
        "Comprehension",
        "IfExpr",
        "BoolOp",
        "Not",
        "Neg",
        "Attr",
        "Call",
        "ListLit",
    } <= kinds
    lines = SAMPLE.splitlines()
    for n in nodes:
        assert n.line >= 1 and n.col >= 1, f"{type(n).__name__} has no position"
        assert n.line <= len(lines) and n.col <= len(lines[n.line - 1]) + 1, f"{n} is outside the text"


def test_statement_positions_top_level_and_nested():
    block = parse_effect('gain 2 gold\nif gold > 3:\n    pay 1 gold\nelse:\n    say "x"\n')
    gain, if_ = block.body
    assert (block.line, block.col) == (1, 1)
    assert (gain.line, gain.col) == (1, 1)
    assert (gain.amount.line, gain.amount.col) == (1, 6)
    assert (if_.line, if_.col) == (2, 1)
    cond, suite = if_.branches[0]
    assert (cond.line, cond.col) == (2, 4) and (cond.right.line, cond.right.col) == (2, 11)
    pay = suite.body[0]
    assert (pay.line, pay.col) == (3, 5)
    say = if_.other.body[0]
    assert (say.line, say.col) == (5, 5)


def test_positions_point_at_the_statement_start_after_blank_lines_and_comments():
    block = parse_effect(
        "# a comment\n\n   \ngain 1 gold  # trailing\n\nfor s in seats:\n\n    # inside\n    gain 1 gold to s\n"
    )
    gain, for_ = block.body
    assert (gain.line, gain.col) == (4, 1)
    assert (for_.line, for_.col) == (6, 1)
    inner = for_.body.body[0]
    assert (inner.line, inner.col) == (9, 5) and (inner.seat.line, inner.seat.col) == (9, 20)


def test_expression_positions():
    e = parse_expression("1 + foo.bar * max(a, b)")
    assert isinstance(e, A.BinOp) and e.op == "+" and (e.line, e.col) == (1, 1)
    mul = e.right
    assert mul.op == "*" and (mul.line, mul.col) == (1, 5)
    attr = mul.left
    assert isinstance(attr, A.Attr) and attr.name == "bar" and (attr.obj.line, attr.obj.col) == (1, 5)
    call = mul.right
    assert isinstance(call, A.Call) and (call.line, call.col) == (1, 15)
    assert [(a.name, a.col) for a in call.args] == [("a", 19), ("b", 22)]


def test_positions_inside_choices_and_options():
    block = parse_effect('choose one:\n    option "A" if x:\n        gain 1 gold\n    option "B":\n        pass\n')
    one = block.body[0]
    a, b = one.options
    assert (a.line, a.col) == (2, 5) and (a.cond.line, a.cond.col) == (2, 19)
    assert (a.body.body[0].line, a.body.body[0].col) == (3, 9)
    assert (b.line, b.col) == (4, 5) and b.cond is None


def test_multi_line_expressions_inside_brackets_keep_positions():
    block = parse_effect("let xs = [\n    c.points\n    for c in hand\n]\ngain 1 gold\n")
    let, gain = block.body
    comp = let.value
    assert isinstance(comp, A.Comprehension) and (comp.line, comp.col) == (1, 10)
    assert (comp.item.line, comp.item.col) == (2, 5) and (comp.source.line, comp.source.col) == (3, 14)
    assert (gain.line, gain.col) == (5, 1)


@pytest.mark.parametrize(
    "text,line",
    [
        ("gain 1 gold\nif gold > 1\n    pass\n", 2),
        ("gain 1 gold\nlet x = (1 + 2\n", 2),
        ("gain 1 gold\n\nmove x\n", 3),
    ],
)
def test_syntax_errors_name_the_line(text, line):
    with pytest.raises(DslSyntaxError) as info:
        parse_effect(text)
    assert info.value.line == line and info.value.col >= 1 and info.value.code == "definition/dsl-syntax"


# ====================================================================== parser: shapes
def test_choose_head_flags():
    c = parse_effect('choose optional random secret up to 2 card cs from hand by 1 saying "P"\n').body[0]
    assert isinstance(c, S.Choose)
    assert (c.optional, c.random, c.secret, c.kind, c.var, c.prompt) == (True, True, True, "card", "cs", "P")
    assert isinstance(c.up_to, A.Literal) and isinstance(c.by, A.Literal) and c.body is None
    plain = parse_effect("choose x from [1, 2]:\n    pass\n").body[0]
    assert (plain.optional, plain.random, plain.secret, plain.kind, plain.up_to, plain.by) == (
        False,
        False,
        False,
        "value",
        None,
        None,
    )
    assert isinstance(plain.body, A.Block)


def test_move_and_draw_places_and_facing():
    m1, m2, m3, d1 = parse_effect(
        "move c to deck\nmove c to deck bottom face up\nmove c to hand(1) seen by 2\ndraw 2 from deck to hand face down\n"
    ).body
    assert (m1.place, m1.facing, m1.seen_by) == ("top", "", None)
    assert (m2.place, m2.facing) == ("bottom", "up")
    assert m3.facing == "seen" and isinstance(m3.seen_by, A.Literal) and isinstance(m3.dest, A.Call)
    assert d1.facing == "down"


def test_statements_shapes():
    body = parse_effect(
        "emit played(card=c, player=me)\nturn s as c after action\nturn s\nstop turn\nend game\n"
        "let a = 1\nset x.polished = true\nset gold(1) = 2\n"
    ).body
    emit, turn1, turn2, stop, end, let, set1, set2 = body
    assert [k for k, _ in emit.args] == ["card", "player"]
    assert (turn1.mode, turn1.group) == ("after", "action") and turn1.card is not None
    assert (turn2.mode, turn2.card) == ("", None)
    assert isinstance(stop, S.StopTurn) and isinstance(end, S.EndGame)
    assert isinstance(set1.target, A.Attr) and isinstance(set2.target, A.Call)
    with pytest.raises(DslSyntaxError):
        parse_effect("set 1 + 2 = 3\n")


@pytest.mark.parametrize(
    "text,shape",
    [
        ("a + b * c", ("+", "a", ("*", "b", "c"))),
        ("a - b - c", ("-", ("-", "a", "b"), "c")),
        ("-a * b", ("*", ("neg", "a"), "b")),
        ("not a == b", ("not", ("==", "a", "b"))),
        ("a and b or c", ("or", ("and", "a", "b"), "c")),
        ("a or b or c", ("or", "a", "b", "c")),
        ("a not in b", ("not in", "a", "b")),
        ("a if b else c if d else e", ("if", "a", "b", ("if", "c", "d", "e"))),
        ("a.b[c]", ("[]", (".b", "a"), "c")),
    ],
)
def test_precedence_and_associativity(text, shape):
    def sh(n):
        if isinstance(n, A.Name):
            return n.name
        if isinstance(n, A.BinOp):
            return (n.op, sh(n.left), sh(n.right))
        if isinstance(n, A.BoolOp):
            return (n.op,) + tuple(sh(i) for i in n.items)
        if isinstance(n, A.Not):
            return ("not", sh(n.operand))
        if isinstance(n, A.Neg):
            return ("neg", sh(n.operand))
        if isinstance(n, A.IfExpr):
            return ("if", sh(n.then), sh(n.cond), sh(n.other))
        if isinstance(n, A.Attr):
            return ("." + n.name, sh(n.obj))
        if isinstance(n, A.Index):
            return ("[]", sh(n.obj), sh(n.index))
        raise AssertionError(n)

    assert sh(parse_expression(text)) == shape


@pytest.mark.parametrize("text", ["1 < 2 < 3", "and", "a = 1", "1.5", "from + 1", "a b"])
def test_expressions_that_do_not_parse(text):
    with pytest.raises(DslSyntaxError):
        parse_expression(text)


def test_comprehension_nodes():
    lc = parse_expression("[x * 2 for x in xs if x > 1]")
    assert isinstance(lc, A.Comprehension) and lc.func is None and lc.var == "x" and lc.cond is not None
    gc = parse_expression("sum(x for x in xs)")
    assert isinstance(gc, A.Comprehension) and gc.func == "sum" and gc.cond is None
    call = parse_expression("sum([x for x in xs])")
    assert isinstance(call, A.Call) and isinstance(call.args[0], A.Comprehension)


# ====================================================================== expression compiler: operators
@pytest.mark.parametrize(
    "text,value",
    [
        ("2 + 3 * 4", 14),
        ("(2 + 3) * 4", 20),
        ("10 - 2 - 3", 5),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("-(2 + 3)", -5),
        ('"a" + "b"', "ab"),
        ("[1] + [2]", [1, 2]),
        ("[0] * 3", [0, 0, 0]),
        ("1 == 1", True),
        ("1 != 1", False),
        ("2 < 3", True),
        ("3 <= 3", True),
        ("3 > 3", False),
        ("3 >= 3", True),
        ('"b" > "a"', True),
        ("1 in [1, 2]", True),
        ("3 in [1, 2]", False),
        ("3 not in [1, 2]", True),
        ('"un" in "sun"', True),
        ("not 1 == 2", True),
        ("not []", True),
        ("true and false", False),
        ("true and 3", 3),
        ("false or 3", 3),
        ("0 or none", None),
        ("1 if true else 2", 1),
        ("1 if false else 2 if true else 3", 2),
        ("none == none", True),
        ("[1, 2, 3][1]", 2),
        ("[[1, 2], [3]][0][1]", 2),
    ],
)
def test_operators(text, value):
    assert ev(text) == value


@pytest.mark.parametrize("text,value", [("1 and 2 and 3", 3), ("0 or 0 or 5", 5), ("none or none or 2", 2)])
def test_and_or_with_three_operands_give_an_operand(text, value):
    assert ev(text) == value


def test_and_or_stop_early():
    assert ev("false and 1 // 0 == 0") is False
    assert ev("true or 1 // 0 == 0") is True
    assert ev("1 if true else 1 // 0") == 1


@pytest.mark.parametrize(
    "text,code",
    [
        ("1 // 0", "play/type"),
        ("1 % 0", "play/type"),
        ('"a" - 1', "play/type"),
        ("none + 1", "play/type"),
        ("[1][5]", "play/index"),
        ("none.name", "play/type"),
        ('"x".name', "play/type"),
        ("last(discard).points", "play/type"),
    ],
)
def test_runtime_errors_are_play_errors(text, code):
    with pytest.raises(PlayError) as info:
        ev(text)
    assert info.value.code == code


def test_game_names_and_locals():
    g = game()
    assert ev("gold", g) == 2 and ev("gold(1)", g) == 2 and ev("bank", g) == 6
    assert ev("[c.name for c in hand]", g) == ["Prism", "Ruby"]
    assert ev("hand_size", g) == 2 and ev("start_gold", g) == 2 and ev("suits", g) == ["sun", "moon", "star"]
    assert ev("sun", g) == "sun" and ev("ruby", g) == "ruby" and ev("hand_limit", g) == 4
    assert ev("gold + n", g, n=5) == 7
    assert ev("gold", g, gold=40) == 40  # a local shadows a game name
    with pytest.raises(PlayError) as info:
        compile_("gold")(g.rt, {"me": None})
    assert info.value.code == "play/no-seat"


def test_card_attributes():
    g = game()
    ruby = ev("last(hand)", g)
    assert ev("c.name", g, c=ruby) == "Ruby" and ev("c.type", g, c=ruby) == "ruby"
    assert ev("c.points", g, c=ruby) == 3 and ev("c.cost", g, c=ruby) == 3  # default: another property
    assert ev("c.family", g, c=ruby) == "gem" and ev("c.suit == sun", g, c=ruby) is True
    assert ev("c.polished", g, c=ruby) is False and ev("c.up", g, c=ruby) is False and ev("c.seen", g, c=ruby) == []
    run("set c.polished = true", g, {"me": 0, "c": ruby})
    assert ev("c.polished", g, c=ruby) is True


# ====================================================================== expression compiler: comprehensions
@pytest.mark.parametrize(
    "text,value",
    [
        ("[x * 2 for x in [1, 2, 3]]", [2, 4, 6]),
        ("[x for x in [1, 2, 3] if x != 2]", [1, 3]),
        ("[x for x in []]", []),
        ("[count([y for y in [1, 2, 3] if y > x]) for x in [0, 1, 2]]", [3, 2, 1]),
        ("sum(x for x in range(5))", 10),
        ("sum(x * 2 for x in range(4) if x % 2 == 0)", 4),
        ("count(x for x in [1, 2, 3] if x > 1)", 2),
        ("count(x for x in [0, 0])", 2),
        ("count(x for x in [0, none, false] if true)", 3),
        ("max(x for x in [3, 9, 2])", 9),
        ("min(x for x in [3, 9, 2] if x > 2)", 3),
        ("max(x for x in [] if true)", None),
        ("any(x == 2 for x in [1, 2, 3])", True),
        ("any(x > 5 for x in [1, 2, 3])", False),
        ("any(x for x in [])", False),
        ("all(x > 0 for x in [1, 2, 3])", True),
        ("all(x > 1 for x in [1, 2, 3])", False),
        ("all(x for x in [])", True),
        ("all(x > 1 for x in [1, 2, 3] if x > 1)", True),
        ("any(x > 1 for x in [1, 2, 3] if x < 2)", False),
        ("first(x for x in [4, 5] if x > 4)", 5),
        ("distinct(c.suit for c in hand + hand(1))", ["star", "sun"]),
        ("sum(c.points for c in hand)", 3),
        ("count(s for s in seats if gold(s) == 2)", 3),
    ],
)
def test_comprehensions(text, value):
    assert ev(text) == value


def test_a_comprehension_binds_one_name():
    with pytest.raises(CompileError):
        compile_("[[x, y] for x in [1, 2] if x > 0]")


def test_short_circuit_comprehensions_stop_at_the_deciding_item():
    assert ev("any(x == 1 or 1 // x > 0 for x in [1, 0])") is True
    assert ev("all(x == 1 and 1 // x > 0 for x in [2, 0])") is False


def test_comprehension_variable_is_local_to_the_comprehension_at_load_time():
    with pytest.raises(CompileError) as info:
        compile_("[x for x in [1]] + [x]")
    assert "unknown name 'x'" in info.value.message


def test_comprehension_sees_enclosing_locals():
    assert ev("[x + n for x in [1, 2]]", n=10) == [11, 12]


def test_comprehension_does_not_overwrite_a_local():
    env = run("let c = 5\nlet xs = [c * 2 for c in [1, 2]]\n", game(), {"me": 0})
    assert env["xs"] == [2, 4] and env["c"] == 5


def test_a_variable_set_to_a_zone_keeps_its_cards():
    g = game()
    run("set last_gem = hand\nmove first(hand) to vault\n", g, {"me": 0})
    assert len(g.state["vars"]["last_gem"]) == 2


def test_a_list_of_zones_is_a_snapshot():
    env = run("let xs = [hand]\nmove first(hand) to vault\n", game(), {"me": 0})
    assert len(env["xs"][0]) == 2


# ====================================================================== expression compiler: names
@pytest.mark.parametrize(
    "text,message",
    [
        ("gld", "unknown name 'gld' (did you mean 'gold'?)"),
        ("hnad", "unknown name 'hnad' (did you mean 'hand'?)"),
        ("1 + plya_cost(x)", "unknown function 'plya_cost' (did you mean 'play_cost'?)"),
        ("cout(hand)", "unknown function 'cout' (did you mean 'count'?)"),
        ("summ(x for x in hand)", "unknown function 'summ' (did you mean 'sum'?)"),
        ("last(hand).pionts", "unknown card property 'pionts' (did you mean 'points'?)"),
        ("qqqqqq", "unknown name 'qqqqqq'"),
    ],
)
def test_unknown_names_suggest_the_closest(text, message):
    with pytest.raises(CompileError) as info:
        compile_(text, "x")
    assert info.value.message == message and info.value.code == "definition/unknown-name"


def test_unknown_name_error_points_at_the_name():
    with pytest.raises(CompileError) as info:
        compile_("(gold +\n  glod)")
    assert (info.value.line, info.value.col) == (2, 3)
    with pytest.raises(CompileError) as info:
        compile_("[c for c in hand if c.sute == sun]")
    assert (info.value.line, info.value.col) == (1, 21)


def test_locals_are_suggested_too():
    with pytest.raises(CompileError) as info:
        compile_("totl + 1", "total")
    assert info.value.code == "definition/unknown-name"


@pytest.mark.parametrize(
    "text",
    [
        "count()",
        "count(1, 2)",
        "play_cost()",
        "play_cost(1, 2)",
        "play_cost",
        "gold(1, 2)",
        "range()",
        "max(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)",
    ],
)
def test_wrong_number_of_arguments(text):
    with pytest.raises(CompileError) as info:
        compile_(text)
    assert info.value.code == "definition/arity"


def test_self_and_owner_only_in_components():
    for name in ("self", "owner"):
        with pytest.raises(CompileError) as info:
            compile_(name)
        assert "only defined in a component" in info.value.message
    assert compile_("self", "self") is not None


# ====================================================================== builtins: covered
def covered(entries):
    return BUILTINS["covered"].impl(None, entries)


@pytest.mark.parametrize(
    "entries,n",
    [
        ([], 0),
        ([[]], 0),
        ([["red"], ["blue"], ["red", "blue", "green"]], 3),  # the docstring's example
        ([["a"], ["a"]], 1),
        ([["a", "a"], ["a"]], 1),  # repeats inside an entry count once
        ([["a", "b"], ["a"]], 2),  # needs an augmenting path: the first moves to b
        ([["a", "b"], ["b", "c"], ["c", "a"]], 3),
        ([["a", "b"]] * 5, 2),  # more entries than values
        ([[], ["a"], []], 1),
        ([["x"], ["x", "y"], ["y", "z"], ["z", "w"]], 4),  # a chain of re-assignments
        (
            [["noble"], ["trade"], ["military"], ["religious"], ["noble", "religious", "trade", "military", "special"]],
            5,
        ),  # a wildcard fills the gap
        ([["noble"], ["noble"], ["trade"], ["noble", "religious", "trade", "military", "special"]], 3),
    ],
)
def test_covered(entries, n):
    assert covered(entries) == n


def _brute_covered(entries):
    best = 0
    for pick in itertools.product(*[list(e) + [None] for e in entries]):
        best = max(best, len({v for v in pick if v is not None}))
    return best


def test_covered_matches_brute_force():
    rng = random.Random(5)
    values = ["a", "b", "c", "d", "e"]
    for _ in range(300):
        entries = [rng.sample(values, rng.randint(0, 3)) for _ in range(rng.randint(0, 6))]
        assert covered(entries) == _brute_covered(entries), entries


def test_covered_in_the_dsl():
    assert ev("covered([[c.suit] for c in hand + hand(1) + hand(2)])") == 2
    assert ev("covered([[c.suit] for c in hand] + [suits])") == 3
    with pytest.raises(PlayError) as info:
        ev("covered(3)")
    assert info.value.code == "play/type"


# ====================================================================== builtins: most
def most(seats, values):
    return BUILTINS["most"].impl(None, seats, values)


@pytest.mark.parametrize(
    "seats,values,winner",
    [
        ([0, 1, 2], [1, 5, 2], 1),
        ([0, 1, 2], [5, 5, 2], None),  # a tie for the top: nobody
        ([0, 1, 2], [2, 5, 5], None),
        ([0, 1, 2], [0, 0, 0], None),
        ([], [], None),
        ([2], [0], 2),
        ([2, 0], [-3, -1], 0),
        ([1, 2, 0], [7, 3, 1], 1),  # seats are returned as given, not by position
    ],
)
def test_most(seats, values, winner):
    assert most(seats, values) == winner


def test_most_in_the_dsl():
    g = game()
    assert ev("most(seats, [gold(s) for s in seats])", g) is None
    run("gain 1 gold to 2", g, {"me": 0})
    assert ev("most(seats, [gold(s) for s in seats])", g) == 2
    assert ev("most(others, [count(hand(s)) for s in others])", g) is None


# ====================================================================== builtins: sorted
@pytest.mark.parametrize(
    "text,value",
    [
        ("sorted([3, 1, 2])", [1, 2, 3]),
        ("sorted([])", []),
        ('sorted(["b", "c", "a"])', ["a", "b", "c"]),
        ("sorted([c.points for c in hand + hand(1)])", [0, 1, 2, 3]),
        ('[c.name for c in sorted(hand(2), "points")]', ["Opal", "Ruby"]),
        ('[c.name for c in sorted(cards("hero"), "rank")]', ["Jeweller", "Miner", "Bard"]),
        (
            '[c.name for c in sorted(hand + hand(1) + hand(2), "cost")]',
            ["Prism", "Amber", "Opal", "Opal", "Ruby", "Ruby"],
        ),
        ('[c.name for c in sorted(hand + hand(1), "suit")]', ["Prism", "Opal", "Ruby", "Amber"]),
    ],
)
def test_sorted(text, value):
    assert ev(text) == value


def test_sorted_by_property_is_stable():
    g = game()
    pearls = ev('[c for c in cards("gem") if c.type == pearl]', g)
    assert ev('sorted(xs, "points")', g, xs=pearls) == pearls
    assert ev('sorted(xs, "points")', g, xs=list(reversed(pearls))) == list(reversed(pearls))


def test_sorted_by_card_state():
    g = game()
    hand = ev("hand", g)
    run("set first(hand).polished = true", g, {"me": 0})
    assert ev('sorted(hand, "polished")', g) == [hand[1], hand[0]]


def test_sorted_returns_a_new_list():
    g = game()
    before = list(g.state["zones"]["hand/2"])
    assert ev('sorted(hand(2), "points")', g) != before
    assert g.state["zones"]["hand/2"] == before


@pytest.mark.parametrize("text", ['sorted(cards("hero"), "input")', 'sorted([1, "a"])'])
def test_sorted_incomparable_values_is_a_play_error(text):
    with pytest.raises(MasonError):
        ev(text)


def test_attribute_of_a_number_that_is_no_card():
    with pytest.raises(PlayError):
        ev("x.name", x=999)


def test_ast_nodes_are_frozen_records_equal_by_their_fields_not_their_place():
    import copy
    import pickle
    from dataclasses import FrozenInstanceError

    from mason.dsl import ast as A

    a = S.Gain(A.Literal(1, line=1, col=6), "coin", None, line=1, col=1)
    b = S.Gain(amount=A.Literal(1), counter="coin", seat=None, line=5, col=9)
    assert a == b and hash(a) == hash(b)  # the place is not part of a node's value
    assert a != S.Pay(A.Literal(1), "coin", None)  # nor is a node equal to another kind with the same fields
    assert repr(a) == "Gain(line=1, col=1, amount=Literal(line=1, col=6, value=1), counter='coin', seat=None)"
    assert A.Call("f", ()).kwargs == ()  # a field's default
    assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a
    assert repr(pickle.loads(pickle.dumps(a))) == repr(a)
    with pytest.raises(FrozenInstanceError):
        a.counter = "gem"
    with pytest.raises(TypeError):
        S.Gain(A.Literal(1))  # counter missing
    with pytest.raises(TypeError):
        S.Gain(A.Literal(1), "coin", None, colour="red")
    assert S.Gain._fields == ("amount", "counter", "seat")
