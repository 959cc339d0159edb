"""Issue 29, item 4: text where a number is needed is refused by `mason validate`, at its place.

A constant's, a card state's and a card property's kind is inferred from its uses in the DSL (an
amount or a count, arithmetic, the other side of `+` or of a comparison with a number, a branch of a
conditional whose other branch is a number, a builtin's number argument, a named value whose result
or parameter is used so); a declaration that holds text, true/false or a list there is an error at
the declaration (`file:line:col: error[definition/type]: ...`, exit 1). Each case below validated
before, and every game then stopped at run time with `cannot compute 'seventeen' + 0`.
"""

from __future__ import annotations

import pytest
from test_bounded_and_validation import MINI, ROOT, at, copy_of, edit, errors_of, only_error, validate


def _edit_once(path, old, new) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {path}"
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return text


# ============================================================ the issue's examples, in copies of the games
EXAMPLES = [
    # game, file, declaration as written, as edited, (file, line text) of the use named in the message
    ("pillars", "game.yaml", "start_gold: 20 ", "start_gold: seventeen ", "gain start_gold + ((s - first)"),
    ("golden-temple", "game.yaml", "objective_tax: 1", "objective_tax: one", "objective_tax * count("),
    ("golden-temple", "game.yaml", "mahout_tax: 1", "mahout_tax: one", "mahout_tax * max("),
    ("prague", "game.yaml", "overflow_bonus: 5 ", "overflow_bonus: five ", "set t.bonus = t.bonus + overflow_bonus"),
    ("prague", "game.yaml", "  bonus: 0 ", "  bonus: zero ", "wheel_piece_at('crane', st).bonus"),
    ("island-fortress", "game.yaml", "unlimited: 1000000", "unlimited: lots", "if limited_tokens else unlimited"),
    ("pillars", "game.yaml", "carry_limit: 5 ", "carry_limit: five ", "while excess(s, cubes, carry_limit)"),
    ("citadels", "expansions/dark-city/expansion.yaml", "bonus_districts: 3 ", "bonus_districts: three ", None),
    ("citadels", "expansions/dark-city/expansion.yaml", "beautify_bonus: 1 ", "beautify_bonus: one ", None),
]


@pytest.mark.parametrize(
    "game, file, old, new, use", EXAMPLES, ids=[f"{e[0]}-{e[3].split(':')[0].strip()}" for e in EXAMPLES]
)
def test_issue29_item4_text_for_a_number_in_a_shipped_game_is_refused_at_its_declaration(
    tmp_path, game, file, old, new, use
):
    folder = copy_of(tmp_path, ROOT / "games" / game, expansions=True)
    text = _edit_once(folder / file, old, new)
    err = only_error(folder)
    name = new.split(":")[0].strip()
    line, col = at(text, new)
    value_col = col + len(new) - len(new.lstrip()) + len(name) + 2  # the value after 'name: '
    assert (err["file"], err["line"], err["col"], err["code"]) == (
        file.split("/")[-1],
        line,
        value_col,
        "definition/type",
    ), err
    assert f"'{name}' " in err["msg"] and "uses it as a number" in err["msg"], err
    if use is not None:  # the message names the place of a use that needs a number
        used_line = next(i for i, l in enumerate(text.splitlines(), 1) if use in l)
        assert f"{file.split('/')[-1]}:{used_line}:" in err["msg"], err


def test_issue29_item4_every_shipped_game_and_expansion_still_validates():
    code, lines = validate("citadels", "golden-temple", "island-fortress", "pillars", "prague")
    assert code == 0, lines
    code, lines = validate("citadels", "--with", "dark-city")
    assert code == 0, lines


# ============================================================ generic: every constant and card field
def _mini(tmp_path, *edits):
    game = copy_of(tmp_path, MINI)
    text = ""
    for old, new, *file in edits:
        text = edit(game, old, new, *file)
    return game, text


def test_issue29_item4_a_constant_added_to_a_number_expression_must_hold_a_number(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: two"),
        ("gain start_gold gold to s", "gain players + start_gold gold to s"),
    )
    err = only_error(game)
    assert (err["line"], err["col"], err["code"]) == (*at(text, "two"), "definition/type"), err
    assert "constant 'start_gold' is 'two' (text)" in err["msg"]


def test_issue29_item4_a_constant_compared_with_a_counter_must_hold_a_number(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: 2\n  rich: very"),
        ("if: count(deck) > 0", "if: gold < rich"),
    )
    err = only_error(game)
    line, col = at(text, "rich: very")
    assert (err["line"], err["col"]) == (line, col + 6), err
    assert "constant 'rich'" in err["msg"] and "uses it as a number" in err["msg"]


def test_issue29_item4_a_constant_in_a_branch_whose_other_branch_is_a_number_must_hold_one(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: 2\n  late: [1, 2]"),
        ("  hand_limit: hand_size + 2", "  hand_limit: hand_size + 2\n  bonus_now: 'late if round > 3 else 0'"),
        ("do: gain 2 gold}", "do: gain bonus_now gold}"),
    )
    err = only_error(game)
    assert (err["line"], err["col"]) == at(text, "[1, 2]"), err
    assert "constant 'late' is a list" in err["msg"] and "uses it as a number" in err["msg"], err


def test_issue29_item4_a_named_value_parameter_used_as_a_number_needs_numbers_from_its_calls(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: 2\n  margin: wide"),
        (
            "  hand_limit: hand_size + 2",
            "  hand_limit: hand_size + 2\n  over: {params: [s, n], value: 'max(0, fame(s) - n)'}",
        ),
        ("      times: 2\n", "      times: 'over(me, margin) + 1'\n"),
    )
    err = only_error(game)
    line, col = at(text, "margin: wide")
    assert (err["line"], err["col"]) == (line, col + 8), err
    assert "constant 'margin'" in err["msg"], err


def test_issue29_item4_a_builtin_number_argument_needs_a_number(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: 2\n  laps: three"),
        ("if: count(deck) > 0", "if: count(range(laps)) > 0"),
    )
    err = only_error(game)
    line, col = at(text, "laps: three")
    assert (err["line"], err["col"]) == (line, col + 6), err


def test_issue29_item4_a_card_state_read_as_a_number_must_start_as_one(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  uses: 0", "  uses: none yet"),
        ("        move c to vault\n", "        move c to vault\n        set plays = plays + c.uses\n"),
    )
    err = only_error(game)
    assert (err["line"], err["col"], err["code"]) == (*at(text, "none yet"), "definition/type"), err
    assert "card state 'uses' starts as 'none yet' (text)" in err["msg"], err


def test_issue29_item4_a_card_property_of_a_text_type_read_as_a_number_is_refused_at_its_type(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  hand_limit: hand_size + 2", "  hand_limit: hand_size + 2\n  suit_score: {params: [c], value: c.suit + 1}"),
        ("do: gain 2 gold}", "do: gain suit_score(first(hand)) gold}"),
    )
    err = only_error(game)
    assert (err["line"], err["col"]) == at(text, "suits}"), err
    assert "property 'suit' of family 'gem'" in err["msg"] and "uses it as a number" in err["msg"], err


def test_issue29_item4_a_card_property_of_type_any_read_as_a_number_is_refused_at_the_card(tmp_path):
    game, _ = _mini(tmp_path, ("do: gain 2 gold}", "do: gain first(led).input + 0 gold}"))
    errors = errors_of(game)
    assert len(errors) == 1, errors
    err = errors[0]
    heroes = (game / "heroes.yaml").read_text(encoding="utf-8")
    line, col = at(heroes, "{gold: 1}")
    assert (err["file"], err["line"], err["col"]) == ("heroes.yaml", line, col), err
    assert "hero 'miner': 'input' is" in err["msg"], err


def test_issue29_item4_text_constants_used_as_text_still_validate(tmp_path):
    game, _ = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: 2\n  greeting: hello\n  none_yet: null"),
        (
            "  hand_limit: hand_size + 2",
            "  hand_limit: hand_size + 2\n  welcome: \"greeting + ' ' + seat_name(0)\"\n"
            "  countdown: {params: [n], value: '0 if n == 0 else countdown(n - 1)'}\n"
            "  spare: 'none_yet if round > 99 else 1'",
        ),
        ("do: gain 2 gold}", "do: gain countdown(2) + spare gold}"),
        (
            "  draw 2 from deck to market face up\n",
            '  draw 2 from deck to market face up\n  say "{welcome} {greeting}"\n',
        ),
    )
    code, lines = validate(game)
    assert code == 0, lines


def test_issue29_item4_a_table_column_read_as_a_count_holds_a_number_in_every_row(tmp_path):
    game, text = _mini(tmp_path, ("  3: {hand_size: 2, goal: 6}", "  3: {hand_size: two, goal: 6}"))
    err = only_error(game)  # setup: repeat hand_size
    assert (err["line"], err["col"], err["code"]) == (*at(text, "two, goal"), "definition/type"), err
    assert "table column 'hand_size' is 'two' for 3 players" in err["msg"], err


def test_issue29_item4_a_named_value_written_as_a_number_makes_the_other_side_a_number(tmp_path):
    game, text = _mini(
        tmp_path,
        ("  start_gold: 2", "  start_gold: two"),
        ("  hand_limit: hand_size + 2", "  hand_limit: hand_size + 2\n  base_gold: 1"),
        ("gain start_gold gold to s", "gain base_gold gold to s\n      set last_gem = start_gold + base_gold"),
    )
    err = only_error(game)
    assert (err["line"], err["col"]) == at(text, "two"), err
    assert "constant 'start_gold'" in err["msg"], err


def test_issue29_item4_a_variant_that_writes_text_in_a_numeric_table_column_is_refused_at_the_variant(tmp_path):
    game, text = _mini(tmp_path, ("table: {2: {goal: 5}, 3: {goal: 4}}", "table: {2: {goal: five}, 3: {goal: 4}}"))
    err = only_error(game)
    assert (err["line"], err["col"], err["code"]) == (*at(text, "five}"), "definition/type"), err
    assert "table column 'goal' is 'five' for 2 players" in err["msg"] and "variant 'short'" in err["msg"], err
