"""YAML with positions: node places, duplicate keys, YAML 1.1 quirks, and DSL places inside scalars."""

from __future__ import annotations

import pytest

from mason.errors import DefinitionError, Place
from mason.model.yamlpos import load_yaml, load_yaml_text


def load(text: str, strict: bool = True):
    return load_yaml_text(text, "f.yaml", strict)


def place_of(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, col) of the nth occurrence of needle in text."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    before = text[:i]
    return before.count("\n") + 1, i - (before.rfind("\n") + 1) + 1


# ------------------------------------------------------------------ node places
def test_places_of_mappings_sequences_and_scalars():
    text = "a: 1\nb:\n  c: [x, y]\n  d:\n    - {e: 5}\n"
    data, pos = load(text)
    assert data == {"a": 1, "b": {"c": ["x", "y"], "d": [{"e": 5}]}}
    assert pos.at(("a",)) == Place("f.yaml", 1, 4)
    assert pos.at(("b", "c", 1)) == Place("f.yaml", *place_of(text, "y"))
    assert pos.at(("b", "d", 0, "e")) == Place("f.yaml", *place_of(text, "5"))
    assert pos.key_at(("b", "d")) == Place("f.yaml", 4, 3)
    # a path that does not exist falls back to its nearest ancestor
    assert pos.at(("b", "c", 7)) == pos.at(("b", "c"))
    assert pos.at(("zzz",)) == Place("f.yaml", 1, 1)


def test_integer_keys_stay_integers():
    data, _ = load("table:\n  2: {picks: 2}\n  3: {picks: 1}\n")
    assert set(data["table"]) == {2, 3}


def test_on_off_yes_no_keys_stay_strings():
    data, pos = load("triggers:\n  - {on: built, do: pass}\n  - on: turn_end\n    off: 1\nyes: 2\nno: 3\n")
    assert data["triggers"][0]["on"] == "built"
    assert data["triggers"][1] == {"on": "turn_end", "off": 1}
    assert data["yes"] == 2 and data["no"] == 3
    assert pos.key_at(("triggers", 1, "on")) == Place("f.yaml", 3, 5)


def test_dates_stay_text():
    data, _ = load("released: 2024-01-02\n")
    assert data["released"] == "2024-01-02"


# ------------------------------------------------------------------ bad YAML
def test_duplicate_key_names_both_places():
    text = "a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n"
    with pytest.raises(DefinitionError) as info:
        load(text)
    err = info.value
    assert err.code == "definition/duplicate-key"
    assert err.place == Place("f.yaml", 5, 3)
    assert "duplicate key 'c'" in err.message and "line 3" in err.message


def test_duplicate_keys_are_all_collected_when_not_strict():
    data, pos = load("a: 1\na: 2\nb:\n  c: 1\n  c: 2\n", strict=False)
    assert data == {"a": 1, "b": {"c": 1}}  # the first definition is kept
    assert [(e.place.line, e.place.col) for e in pos.errors] == [(2, 1), (5, 3)]
    assert all(e.code == "definition/duplicate-key" for e in pos.errors)


@pytest.mark.parametrize(
    "text,line,col,words",
    [
        ("a: [1, 2\nb: 3\n", 1, 4, "never closed"),  # the unclosed '[' itself
        ("a: {x: 1\nb: 3\n", 1, 4, "never closed"),
        ("a: 'x\n", 1, 4, "starts here"),  # the unclosed quote
        ("a: 1\n\tb: 2\n", 2, 1, "'\\t'"),
        ("a:\n  b: 1\n   c: 2\n", 3, 5, "':' is not allowed here"),
    ],
)
def test_yaml_syntax_errors_point_at_the_mistake(text, line, col, words):
    with pytest.raises(DefinitionError) as info:
        load(text)
    err = info.value
    assert err.code == "definition/yaml"
    assert (err.place.line, err.place.col) == (line, col)
    assert words in err.message
    assert "\n" not in err.line()


@pytest.mark.parametrize(
    "text,words",
    [
        ("<<: {a: 1}\n", "merge keys"),
        ("? [a]\n: 1\n", "mapping keys"),
        ("a: &x [*x]\n", "cycle"),
        ("a: !!int x\n", "bad value"),
    ],
)
def test_other_bad_yaml_is_reported_not_raised(text, words):
    _, pos = load(text, strict=False)
    assert len(pos.errors) == 1 and words in pos.errors[0].message
    assert pos.errors[0].place.file == "f.yaml" and pos.errors[0].place.line >= 1


def test_unreadable_files(tmp_path):
    with pytest.raises(DefinitionError) as info:
        load_yaml(tmp_path / "missing.yaml", "missing.yaml")
    assert info.value.code == "definition/io"
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(DefinitionError) as info:
        load_yaml(bad, "latin1.yaml")
    assert info.value.code == "definition/io" and "UTF-8" in info.value.message


# ------------------------------------------------------------------ places inside scalars (DSL)
def inside(text: str, path, line: int, col: int) -> tuple[int, int]:
    _, pos = load(text)
    p = pos.inside(tuple(path), line, col)
    return p.line, p.col


def test_inside_plain_scalar():
    text = "when: card != none and (x\n"
    assert inside(text, ["when"], 1, len("card != none and (")) == place_of(text, "(")


def test_inside_plain_scalar_in_flow_mapping():
    text = "triggers:\n  - {id: crown, on: turn_start, when: card == asassin, do: pass}\n"
    assert inside(text, ["triggers", 0, "when"], 1, 9) == place_of(text, "asassin")


def test_inside_plain_scalar_over_several_lines():
    text = "when: card != none and\n  x.rank > 1 and\n\n  zzz\n"
    # the value is 'card != none and x.rank > 1 and\nzzz': fold and blank line included
    value = load(text)[0]["when"]
    assert value == "card != none and x.rank > 1 and\nzzz"
    assert inside(text, ["when"], 1, value.index("x.rank") + 1) == place_of(text, "x.rank")
    assert inside(text, ["when"], 2, 1) == place_of(text, "zzz")


def test_inside_double_quoted_scalar_with_escapes():
    text = 'value: "say \\"hi\\" then (x"\n'
    value = load(text)[0]["value"]
    assert value == 'say "hi" then (x'
    assert inside(text, ["value"], 1, value.index("(") + 1) == place_of(text, "(")
    assert inside(text, ["value"], 1, 1) == place_of(text, "say")


def test_inside_single_quoted_scalar():
    text = "value: 'it''s (x'\n"
    value = load(text)[0]["value"]
    assert value == "it's (x"
    assert inside(text, ["value"], 1, value.index("(") + 1) == place_of(text, "(")


def test_inside_quoted_scalar_over_several_lines():
    text = 'value: "first part\n   second (part"\n'
    value = load(text)[0]["value"]
    assert value == "first part second (part"
    assert inside(text, ["value"], 1, value.index("(") + 1) == place_of(text, "(")


def test_inside_literal_block_scalar():
    text = (
        "actions:\n  - id: build\n    do: |\n      choose card d from hand\n"
        "      if d.cost > 1:\n          pay (d.cost gold\n    label: x\n"
    )
    assert inside(text, ["actions", 0, "do"], 3, len("    pay (")) == place_of(text, "(")
    assert inside(text, ["actions", 0, "do"], 1, 1) == place_of(text, "choose")
    # the end of a line (where "missing ':'" points) is just after its last character
    line, col = place_of(text, "if d.cost")
    assert inside(text, ["actions", 0, "do"], 2, len("if d.cost > 1:") + 1) == (line, col + len("if d.cost > 1:"))


def test_inside_block_scalar_with_comment_blank_lines_and_chomping():
    text = "do: |-  # the effect\n\n    gain 1 gold\n\n    pay (1 gold\nnext: 1\n"
    value = load(text)[0]["do"]
    assert value == "\ngain 1 gold\n\npay (1 gold"
    assert inside(text, ["do"], 4, 5) == place_of(text, "(")


def test_inside_block_scalar_with_indentation_indicator():
    text = "do: |2\n    gain (1 gold\n"
    assert load(text)[0]["do"] == "  gain (1 gold\n"
    assert inside(text, ["do"], 1, 8) == place_of(text, "(")


def test_inside_folded_block_scalar():
    text = "when: >\n  card != none\n  and (x\n"
    value = load(text)[0]["when"]
    assert value == "card != none and (x\n"
    assert inside(text, ["when"], 1, value.index("(") + 1) == place_of(text, "(")


def test_inside_sequence_item():
    text = 'tie_break: ["gold(s)", "sum(x for x in (city(s))"]\n'
    value = load(text)[0]["tie_break"][1]
    assert inside(text, ["tie_break", 1], 1, value.index("(c") + 1) == place_of(text, "(city")


def test_inside_non_string_falls_back_to_the_node():
    text = "a:\n  b: 5\n"
    assert inside(text, ["a", "b"], 1, 3) == (2, 6)


# ------------------------------------------------------------------ lines end at a newline only
@pytest.mark.parametrize("breaker", ["\u2028", "\u2029", "\x85"])
def test_a_yaml_1_1_line_break_character_does_not_shift_the_lines_after_it(breaker):
    # found by the rule-file fuzzer (tests/engine/test_fuzz_rule_files.py): a U+2029 put into
    # citadels' districts.yaml gave places one line further down (past the file's last line, or past
    # the end of a line), as PyYAML counts U+0085, U+2028 and U+2029 as line breaks
    text = f'a: "one{breaker}two"\nb: 1\nc: [x, y]\nb: 2\n'
    data, pos = load(text, strict=False)
    assert pos.at(("c", 1)) == Place("f.yaml", 3, 8)
    assert [(e.place.line, e.place.col) for e in pos.errors] == [(4, 1)]  # the duplicate key
    with pytest.raises(DefinitionError) as info:
        load(f'a: "one{breaker}two"\nb: [1, 2\n')
    assert (info.value.place.line, info.value.place.col) == (2, 4), info.value.line()  # the unclosed '['
    assert "at line 3" in info.value.message, info.value.line()  # where PyYAML noticed it


def test_bytes_that_are_not_utf8_are_placed_at_the_first_of_them(tmp_path):
    # the rule-file fuzzer puts such bytes anywhere in a file: the error named the file's 1:1
    bad = tmp_path / "bad.yaml"
    bad.write_bytes("name: café\r\nlabel: ok\ntext: caf".encode() + b"\xe9 au lait\n")
    with pytest.raises(DefinitionError) as info:
        load_yaml(bad, "bad.yaml")
    assert info.value.code == "definition/io" and "not UTF-8" in info.value.message
    assert "byte 0xe9" in info.value.message, info.value.message
    assert (info.value.place.line, info.value.place.col) == (3, 10), info.value.line()
