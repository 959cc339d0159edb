"""A statement is one definition: a toy statement defined and registered in this file alone runs through
parse, static check, reference run, fast form and the rulebook's words (issue 31 item 1;
docs/architecture.md, "Adding a statement").

``double COUNTER [for SEAT]`` doubles a seat's counter. Nothing outside this file knows it: its grammar
rule, its tree mapping, its check, its run and its fast form are the class below.
"""

from __future__ import annotations

from typing import Optional

import pytest
from support import mini_game, mini_program

from mason.dsl import ast as A
from mason.dsl.ast import Expr, Stmt, node
from mason.dsl.constructs import KINDS, STATEMENTS, statement, statement_words, unregister
from mason.dsl.describe import Describer
from mason.dsl.parser import DslSyntaxError, parse_effect
from mason.dsl.stmt import Node
from mason.errors import DefinitionError
from mason.runtime import direct, engine  # noqa: F401  (the shipped statements registered)
from mason.runtime.values import _seat_of


@node
class Double(Stmt):
    """``double COUNTER [for SEAT]``: a seat's counter (the acting seat's by default) doubled."""

    counter: str
    seat: Optional[Expr]

    rules = {"double_stmt": "simple"}
    grammar = 'double_stmt: "double" NAME ["for" expr]'
    kinds = ("double",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        return cls(str(c[0]), c[1], **place)

    def compile(self, c, scope):
        c.names.check_counter(self, self.counter, seat=True)
        return Node("double", c.place(self), counter=self.counter, seat=c.x(self.seat, scope))

    @staticmethod
    def run(rt, env, node, fr):
        s = _seat_of(rt, env, node.seat, node)
        rt.counters[node.counter][s] *= 2

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        seat, spends = w.operand(node.seat) if node.seat is not None else ("env.get('me')", False)
        return w.guarded(node, d, w.seat(seat), spends, [f"rt.counters[{node.counter!r}][s] *= 2"])

    def describe(self, w, d):
        return w._line(
            d,
            f"{w._subject(self.seat, 'double')} {w._of(self.counter, self.seat) if self.seat else 'your ' + self.counter}",
        )


A.NODE_TYPES.pop("Double")  # a node type of this test only: the docs' tests list the shipped ones


@pytest.fixture
def toy():
    statement(Double)
    try:
        yield Double
    finally:
        unregister(Double)


def _compiled(text):
    prog = mini_program()
    k = len(prog.errors)
    block = prog.effect({"do": text}, "do", ("me",))
    errors = prog.errors[k:]
    del prog.errors[k:]
    if errors:
        raise errors[0]
    return prog, block


def test_a_toy_statement_parses_once_registered_and_not_before_or_after(toy):
    assert STATEMENTS["double_stmt"] is Double and KINDS["double"].run is Double.run
    assert parse_effect("double fame for 1\n").body == (Double("fame", A.Literal(1, line=1, col=17), line=1, col=1),)
    assert "double" in statement_words()  # an editor offers it (mason lsp): no second list
    unregister(Double)
    with pytest.raises(DslSyntaxError):
        parse_effect("double gold\n")
    assert "double" not in statement_words()
    statement(Double)
    assert isinstance(parse_effect("double gold\n").body[0], Double)


def test_a_toy_statement_is_checked_at_compile_time_with_its_place(toy):
    with pytest.raises(DefinitionError) as info:
        _compiled("gain 1 fame\ndouble glory")
    err = info.value
    assert "glory" in err.message and err.place.line is not None


def test_a_toy_statement_runs_by_its_reference_run_and_by_its_fast_form_alike(toy):
    prog, block = _compiled("gain 3 fame\ndouble fame\ndouble fame for 2")
    assert [s.kind for s in block.stmts] == ["gain", "double", "double"]
    ends = []
    for fast in (False, True):
        g = mini_game()
        rt = g.rt
        st = g.state
        st["pending"] = None
        before = [list(st["counters"]["fame"])]
        fr = {"kind": "block", "node": block.id, "next": 0, "scope": len(st["stack"]), "vars": {"me": 0}}
        if fast:
            fn = direct.compile_block(block, prog)
            assert "rt.counters['fame'][s] *= 2" in fn.source  # its emit wrote it in place
            assert "_h" not in fn.source.split("def block_")[1].split("except")[0]  # no handler called
            fn(rt, {"me": 0}, fr)
        else:
            for stmt in block.stmts:
                KINDS[stmt.kind].run(rt, {"me": 0}, stmt, fr)
        fame = st["counters"]["fame"]
        assert fame[0] == (before[0][0] + 3) * 2 and fame[2] == before[0][2] * 2
        ends.append(list(fame))
    assert ends[0] == ends[1]


def test_a_toy_statement_gives_its_own_words_in_the_rulebook(toy):
    said = Describer().block(parse_effect("double fame\ndouble gold for owner\n"))
    assert said == [(0, "Double your fame."), (0, "Its owner doubles its owner's gold.")]


def test_the_shipped_statements_words_come_from_their_definitions():
    words = statement_words()
    for w in ("gain", "pay", "transfer", "stop turn", "end game", "choose one", "if", "for", "while"):
        assert w in words
    assert not {"elif", "else", "face up", "after"} & set(words)  # clauses and helper rules start no statement
