"""Values are checked where they enter the statements, and nothing else is caught on the hot path.

A rule that hands a statement the wrong kind of value (a number where a card is needed, a list for a
counter) gets a one-line ``play/type`` error at the statement; a Python error that escapes those checks
is Mason's own bug and surfaces as ``play/internal`` at the rule that was running, never as a rule error.
Runs effects on the mini fixture game (tests/fixtures/mini) through the machine's run loop.
"""

from __future__ import annotations

import pytest
from support import mini_game, mini_program

from mason.dsl.constructs import KINDS
from mason.errors import PlayError
from mason.runtime import (
    engine,  # noqa: F401  (the machine's tables, filled)
    machine,
)
from mason.session.game import Game


def run_effect(text: str) -> Game:
    """Run ``text`` (an effect with no decision in it) for P1 through ``machine.run``."""
    prog = mini_program()
    k = len(prog.errors)
    block = prog.effect({"do": text}, "do", ("me",))
    assert len(prog.errors) == k, prog.errors[k:]
    g = mini_game()
    st = g.state
    st["pending"] = None
    base = len(st["stack"])
    st["stack"].append({"kind": "block", "node": block.id, "next": 0, "scope": base, "vars": {"me": 0}})
    machine.run(g.rt)  # the effect, then the game below it up to its next decision
    assert len(st["stack"]) <= base, "the effect paused: these effects take no decision"
    return g


def error_of(text: str) -> PlayError:
    with pytest.raises(PlayError) as info:
        run_effect(text)
    return info.value


@pytest.mark.parametrize(
    "text, words",
    [
        ("move 999 to discard", "expected cards, got 999"),
        ("move [first(deck), 999] to discard", "expected cards, got 999 among them"),
        ('move "gem" to discard', "expected cards, got 'gem'"),
        ("move true to discard", "expected cards, got True"),
        ("reveal 999", "expected cards, got 999"),
        ("reveal first(deck) to 7", "not a seat: 7"),
        ("set 999.polished = true", "'.polished' needs a card, got 999"),
        ("set fame = [1, 2]", "a counter holds a whole number, got [1, 2]"),
        ("set plays = true", "a counter holds a whole number, got True"),
        ('for x in "abc":\n    gain 1 fame', "expected a list, got 'abc'"),
        ("choose random card c from [first(deck), 999]:\n    move c to discard", "expected cards, got 999"),
    ],
)
def test_a_wrong_value_for_a_statement_is_a_one_line_rule_error_at_the_statement(text, words):
    err = error_of(text)
    assert err.code in ("play/type", "play/no-seat"), err.line()
    assert words in err.message, err.line()
    assert err.place is not None and err.place.line >= 1
    assert "\n" not in err.line()


def test_good_values_still_run():
    g = run_effect("move first(deck) to discard\nset fame = 3\nfor x in [1, 2]:\n    gain 1 fame")
    assert len(g.state["zones"]["discard"]) == 1
    assert g.state["counters"]["fame"][0] == 5


def test_an_error_that_escapes_the_checks_is_an_internal_error_not_a_rule_error(monkeypatch):
    def broken(rt, env, node, fr):
        raise KeyError("no such thing")  # a bug in a statement handler, not in the rules

    monkeypatch.setitem(KINDS, "gain", KINDS["gain"]._replace(run=broken))
    prog = mini_program()
    for block in prog.nodes:  # forget the handlers bound before the patch
        for attr in ("bound", "steps"):
            block.__dict__.pop(attr, None)
    try:
        err = error_of("gain 1 fame")
    finally:
        for block in prog.nodes:
            for attr in ("bound", "steps"):
                block.__dict__.pop(attr, None)
    assert err.code == "play/internal", err.line()
    assert "internal error in Mason (not in the rules" in err.message and "KeyError" in err.message
    assert err.place is not None and "\n" not in err.line()


def test_a_modifier_that_cannot_combine_names_the_modifier():
    assert machine._combines("add", 1, 2) and machine._combines("add", [1], [2]) and machine._combines("max", 1, 2.5)
    assert not machine._combines("add", 1, [2]) and not machine._combines("max", [1], [2])
    assert not machine._combines("add", True, 1)
