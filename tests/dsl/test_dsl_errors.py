"""The DSL error catalogue is test data: every example gives exactly its friendly message.

Also: error places are exact (the offending token, the unclosed bracket), messages are one
sentence without Lark's internal names, and a mistake is recognised however deeply it is nested.
"""

from __future__ import annotations

import re

import pytest

from mason.dsl import catalogue as C
from mason.dsl.catalogue import DSL_ERRORS, example_start
from mason.dsl.parser import DslSyntaxError, parse_effect, parse_expression
from mason.runtime import engine  # noqa: F401  (registers the statements the parser reads)

EXAMPLES = [(label, example) for label, examples in DSL_ERRORS.items() for example in examples]


def parse(example: str):
    start, text = example_start(example)
    return (parse_effect if start == "effect" else parse_expression)(text)


def error_of(example: str) -> DslSyntaxError:
    with pytest.raises(DslSyntaxError) as info:
        parse(example)
    return info.value


@pytest.mark.parametrize("label,example", EXAMPLES, ids=[repr(e) for _, e in EXAMPLES])
def test_catalogue_example_gives_its_label(label, example):
    err = error_of(example)
    assert err.message == label
    assert err.code == "definition/dsl-syntax"
    assert err.line >= 1 and err.col >= 1


def test_every_catalogue_entry_has_examples():
    assert len(DSL_ERRORS) >= 15
    for label, examples in DSL_ERRORS.items():
        assert examples, label
        assert "\n" not in label


def test_catalogue_covers_common_mistakes():
    for label in (C.THEN, C.ELSE_IF, C.C_OPERATORS, "use '==' to compare; '=' only assigns in 'set' and 'let'"):
        assert label in DSL_ERRORS


# ------------------------------------------------------------------ places
@pytest.mark.parametrize(
    "text,line,col",
    [
        ("gain (2 gold\n", 1, 6),  # the '(' that is never closed
        ("let x = 1\nlet y = [1, (2\n", 2, 13),  # the innermost unclosed opener
        ("let x = (1 +\n   2\ngain x gold\n", 1, 9),  # the opener, not the end of the text
        ("gain 2) gold\n", 1, 7),  # the stray closer
        ("let x = (1]\n", 1, 11),  # the wrong closer
        ('say "hello\n', 1, 5),  # the quote that is never closed
        ("if x:\n    pass\n  pass\n", 3, 3),  # the line that lines up with nothing
        ("gain 2 gold\n    pass\n", 2, 5),  # the unexpected indented line
        ("move c to hand\nif x\n    pass\n", 2, 5),  # the end of the header missing ':'
        ("if x:\n    pass\nelse if y:\n    pass\n", 3, 6),
        ("if x:\n\tpass\n", 2, 1),
        ("if a:\n    for c in hand  # note\n        pass\n", 2, 18),  # before the comment
        ('choose card c from hand saying "Which?"\n    move c to deck\n', 1, 40),  # the header, not the indent
    ],
)
def test_error_places_are_exact(text, line, col):
    err = error_of(text)
    assert (err.line, err.col) == (line, col), err.message


def test_bracket_inside_string_or_comment_is_not_a_mistake():
    parse_effect('say "a (b"\n')
    parse_effect("gain 2 gold  # (see rule 3\n")
    parse_effect("let x = [1,\n    2]\ngain x gold\n")
    # nor do they count against the limit of brackets open at once (40 here, the limit 32)
    parse_effect('say "' + "(" * 40 + '"\ngain 1 gold  # ' + "[" * 40 + "\n")
    with pytest.raises(DslSyntaxError) as deep:
        parse_effect("say " + "(" * 40 + "1" + ")" * 40 + "\n")
    assert deep.value.code == "definition/too-deep"


def test_earlier_mistake_wins_over_a_later_unclosed_bracket():
    err = error_of("gain gold\nlet x = (1\n")
    assert (err.line, err.message) == (1, "'gain' and 'pay' need an amount then a counter name, e.g. 'gain 2 gold'")


@pytest.mark.parametrize(
    "text,label",
    [
        ("for c in hand:\n    if x = 1:\n        pass\n", "use '==' to compare; '=' only assigns in 'set' and 'let'"),
        ("if a:\n    gain gold\n", "'gain' and 'pay' need an amount then a counter name, e.g. 'gain 2 gold'"),
        ("if a:\n    if b then:\n        pass\n", C.THEN),
        ("if a:\n    for c in hand\n        pass\n", "missing ':' at the end of a block header (if/for/choose/option)"),
        ("if a:\n    pass\nelse:\n    if b:\n        pass\n    else if c:\n        pass\n", C.ELSE_IF),
        ("choose card c from hand:\n    move c\n", "'move' needs a destination: 'move CARDS to ZONE'"),
    ],
)
def test_mistakes_are_recognised_when_nested(text, label):
    assert error_of(text).message == label


def test_indent_after_a_header_without_colon_is_a_missing_colon():
    err = error_of('choose card c from hand saying "Which?"\n    move c to deck\n')
    assert err.message == C.MISSING_COLON


def test_then_label_only_for_then():
    # same parser state as "if x then:", but another word: the generic ':' message
    assert error_of("if x foo:\n    pass\n").message.startswith("missing ':'")


def test_generic_messages_use_words_not_grammar_names():
    for text in ("gain 2 gold to\n", "gain 2 gold if x\n", "let x == 1 2\n", "when: a b", "for c in hand: pass pass\n"):
        try:
            parse(text)
        except DslSyntaxError as err:
            msg = err.message
        else:
            continue
        assert not re.search(r"__ANON|_NL|\$END|_INDENT|_DEDENT|_FOR|_TO|_BY|\bthe the\b|unexpected the", msg), msg
        assert "\n" not in msg


def test_expected_in_words():
    assert error_of("gain 2 gold to\n").message == "unexpected end of the line; expected an expression"
    assert error_of("gain 2 gold if x\n").message == "unexpected 'if'; expected 'to' or end of the line"


@pytest.mark.parametrize("ch", ["\u2029", "\u2028", "\x85", "\u200b", "\x1b", "\xa0"])
def test_an_unexpected_character_that_does_not_show_is_named_by_its_code(ch):
    # found by the rule-file fuzzer (tests/engine/test_fuzz_rule_files.py): a U+2029 put into a DSL
    # text of dark-city's districts.yaml was quoted as itself, and the one-line error ended at it
    err = error_of(f"gain 2{ch} gold\n")
    assert err.message == f"unexpected character U+{ord(ch):04X}", err.message
    assert (err.line, err.col) == (1, 7)
    assert error_of("gain 2 ¤ gold\n").message == "unexpected character '¤'"  # one that shows stays itself
