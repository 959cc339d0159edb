"""Issue 11, item 4 and the first part of item 5: `mason rules` reads like a rulebook (texts shown,
constants, counters, the player-count table and the win condition stated, no Python spelling);
option labels name places; `{expr}` in `saying` prompts and `option` labels, compiled at load."""

from __future__ import annotations

import re

import paths
import pytest
from click.testing import CliRunner
from support import act, answer_until, edited_copy, new_game

from mason.cli.main import main
from mason.presentation.rules_text import rules_text, words
from mason.session.game import load_program

FIXTURES = paths.FIXTURES
GAMES = ("citadels", "island-fortress", "pillars", "golden-temple", "prague")
PYTHON_SPELLING = ("True", "None", "{'", "['")


@pytest.fixture(scope="module", params=GAMES)
def rules(request):
    prog = load_program(request.param)
    return prog, rules_text(prog)


def _flat(text) -> str:
    return " ".join(str(text).split())


# ------------------------------------------------------------------ mason rules: a rulebook
def test_rules_print_no_python_spelling(rules):
    prog, text = rules
    found = [(s, line) for line in text.splitlines() for s in PYTHON_SPELLING if s in line]
    assert not found, found[:5]
    assert not re.search(r"^- \*\*.*\*\*( x\d+)? \(\)", text, re.M), "a component with empty parentheses"


def test_rules_show_every_phase_text_and_every_given_text(rules):
    prog, text = rules
    g = prog.spec.game
    flat = _flat(text)
    for ph in g["flow"]["phases"]:
        assert ph.get("text"), f"phase {ph['id']} has no text"
        assert _flat(ph["text"]) in flat, ph["id"]
    items = (
        [s for s in g.get("setup") or [] if isinstance(s, dict)]
        + (g.get("turn") or {}).get("actions", [])
        + (g.get("triggers") or [])
        + [v for v in (g.get("values") or {}).values() if isinstance(v, dict)]
    )
    for item in items:
        if item.get("text"):
            assert _flat(item["text"]) in flat, item


def test_rules_state_constants_counters_table_and_the_win(rules):
    prog, text = rules
    g = prog.spec.game
    assert "## How the game ends and who wins" in text
    assert (
        "The lowest score wins." if (g.get("scoring") or {}).get("lowest_wins") else "The highest score wins."
    ) in text
    assert "Each player's score is the sum of: " in text
    if g.get("constants"):
        assert "## Constants" in text
        for name in g["constants"]:
            assert f"- {name.replace('_', ' ')}: " in text, name
    assert "## Counters" in text
    for name, c in prog.counters.items():
        label = c.get("label") or name.replace("_", " ")
        assert re.search(rf"^- {re.escape(label)}: (the game has|each player has) .* at the start", text, re.M), name
    if prog.table_rows:
        assert "## By player count" in text
        for n in prog.table_rows:
            assert re.search(rf"^\| {n} \|", text, re.M)


def test_citadels_rules_in_words():
    text = rules_text(load_program("citadels"))
    assert "| 2 | yes | 2 | none | 10 | inferred |" in text  # was: | 2 | True | 2 | [] | 10 |
    assert "| King | 4 | noble | yes |" in text  # was: never_face_up True
    assert "- bank gold: the game has 30 at the start" in text
    assert "- gold: each player has 0 at the start; taken from and returned to the bank gold" in text
    assert "The game ends after the round in which: final round is set." in text
    assert "Changes destructible: becomes no when the card is this card (CIT-R64)" in text
    assert "- destructible (of a card): yes" in text
    assert "### Phase 2: calling\n    The characters are called in rank order" in text
    source = rules_text(load_program("citadels"), source=True)  # the DSL too, under --source
    assert "the card is this card [source: set false when card == self]" in _flat(source)


def test_component_facts_in_words():
    text = rules_text(load_program("pillars"))
    assert "| Mortar mixer | inferred | 4 | 0 | - | 3 sand | 1 vp | 3 |" in text  # a wide family: two tables
    assert "| Mortar mixer | - | mortar mixer | - |" in text
    text = rules_text(load_program("island-fortress"))
    assert "- **Taskmaster** x4\n" in text or "| Taskmaster | 4 |" in text  # no facts: no "()"
    assert "| Favour 01 | 3 vp |" in text  # its "one time" column


def test_a_property_declared_not_shown_is_left_out_of_prompts_and_views_but_not_of_the_rules(tmp_path):
    from mason.presentation.render import card_summary

    hidden = edited_copy(
        tmp_path, paths.GAMES / "citadels", [("cost: {type: int}, score", "cost: {type: int, shown: false}, score")]
    )
    base, prog = load_program("citadels"), load_program(str(hidden))
    assert card_summary(base, "watchtower") == "military, cost 1"
    assert card_summary(prog, "watchtower") == "military"  # what a prompt or a view shows of it
    line = "| Watchtower | 3 | military | 1 | 1 |"
    assert line in rules_text(base) and line in rules_text(prog)  # the rules, the reference, list it all


def test_a_property_may_give_its_values_words_for_players_and_the_rules(tmp_path):
    from mason.presentation.render import card_summary

    gt = load_program("golden-temple")  # main and secondary: action codes, with the legend's words
    said = "main: one upgrade (warehouse, objective or mahout), secondary: gain 2 marble"  # White tile 3
    assert card_summary(gt, "dt_w3") == said
    text = rules_text(gt)
    assert "| White tile 3 | placeholder | white | one upgrade (warehouse, objective or mahout) |" in text
    assert "| White tile 3 | gain 2 marble |" in text
    bad = edited_copy(
        tmp_path, paths.GAMES / "citadels", [("cost: {type: int}, score", "cost: {type: int, words: [a]}, score")]
    )
    (err,) = validate_errors(bad)
    assert "words" in err and "game.yaml:" in err


def test_a_card_is_not_described_with_what_its_name_already_says():
    from mason.presentation.render import card_summary

    pillars = load_program("pillars")
    by_name = {pillars.types[t]["name"]: t for t in pillars.type_order}
    assert card_summary(pillars, by_name["Mason (round 1)"]).startswith("price 5, ")  # not "round 1" again
    assert card_summary(pillars, by_name["Quarry (4 stone)"]) == "yield 4, workers 10"  # not "stone" again
    assert "| Mason (round 1) | inferred | 1 | 1 | 5 | " in rules_text(pillars)  # the rules list every property
    gt = load_program("golden-temple")
    assert card_summary(gt, "dt_y1").startswith("main: ")  # "Yellow tile 1": not "yellow" again


def validate_errors(folder) -> list[str]:
    from mason.model.validate import validate_game

    return [e.line() for e in validate_game(str(folder))[1]]


@pytest.mark.parametrize("game", ["citadels", "golden-temple", "island-fortress", "pillars", "prague"])
def test_players_are_not_shown_where_data_came_from_internal_codes_or_none(game):
    """What a prompt or a view says of a component: no data source (a digest decision id), no template
    or code the rules dispatch on, no 'None' for an empty position, ids in words (no underscore)."""
    from mason.presentation.render import card_summary

    prog = load_program(game)
    for tid in prog.type_order:
        summary = card_summary(prog, tid)
        assert not re.search(r"\b(source|template|otype|code|tags|pattern)\b|None|-D\d|_", summary), (tid, summary)


@pytest.mark.parametrize(
    "game, expansions",
    [("citadels", ()), ("citadels", ("dark-city",)), ("golden-temple", ()), ("island-fortress", ()), ("pillars", ())]
    + [("prague", ())],
)
def test_every_conditional_action_says_in_words_why_it_is_unavailable(game, expansions):
    prog = load_program(game, (), expansions)
    actions = list(prog.actions) + [a for lst in prog.abilities.values() for a in lst]
    bare = [a.key for a in actions if a.cond is not None and not a.cond_text]
    assert bare == []  # each `if` has its `if_text`: a player is never shown DSL and a file place


@pytest.mark.parametrize(
    "value, said",
    [
        (True, "yes"),
        (False, "no"),
        (None, "none"),
        (0, "0"),
        ([], "none"),
        ({}, "none"),
        ({"sand": 3, "metal": 1}, "3 sand, 1 metal"),
        (["a", None], "a, none"),
        ([[0, 0], [1, 0]], "(0, 0), (1, 0)"),
        ({"side": "a", "gold_mine": True}, "side a, gold mine yes"),
    ],
)
def test_words(value, said):
    assert words(value) == said


def test_cli_rules_pillars_shows_phase_texts():
    result = CliRunner().invoke(main, ["rules", "pillars"])
    assert result.exit_code == 0
    assert "### Phase 3: builders\n    Master builders are drawn from the bag one at a time." in result.output
    assert not any(s in result.output for s in PYTHON_SPELLING)


# ------------------------------------------------------------------ option labels name places
def test_pillars_builder_options_name_the_locations():
    g = new_game("pillars", 4, seed=1017)
    answer_until(g, "Place your master builder where?")
    labels = g.pending["labels"]
    assert "King's Court" in labels and not any("_" in label for label in labels), labels
    seat = g.pending["seat"]
    act(g, "King's Court")
    assert f"P{seat + 1} chooses King's Court" in [e.get("text") for e in g.log]
    assert f"P{seat + 1} is placed at King's Court (space 1)" in [e.get("text") for e in g.log]  # its label too
    assert seat in g.state["boards"]["town"]["kings_court"]


def test_spot_options_are_shown_as_places_and_answered_as_spots():
    g = new_game(str(FIXTURES / "wharf"), 2, seed=3)
    answer_until(
        g,
        "Where does your docker go?",
        chooser=lambda g: next(i for i, l in enumerate(g.pending["labels"]) if l.startswith("Wait")),
    )
    assert g.pending["labels"] == ["pier", "the crane, space 1", "the crane, space 2", "office"]
    seat = g.pending["seat"]
    act(g, "the crane, space 2")
    assert g.state["boards"]["docks"]["crane"] == [None, seat]


# ------------------------------------------------------------------ {expr} in prompts and labels
def _mini_with_rest_choice(tmp_path, prompt, yes, name="mini_interp"):
    return edited_copy(
        tmp_path,
        FIXTURES / "mini",
        [
            (
                "      do: |\n        set passed = true",
                f'      do: |\n        choose one saying "{prompt}":\n            option "{yes}":\n'
                f'                gain 1 fame\n            option "No":\n                pass\n        set passed = true',
            )
        ],
        name=name,
    )


def test_prompt_and_option_labels_interpolate(tmp_path):
    folder = _mini_with_rest_choice(tmp_path, "Rest with {gold} gold, P{me + 1}?", "Yes, and have {fame + 1} fame")
    g = new_game(str(folder), 2, seed=1)
    seat = g.pending["seat"]
    act(g, "Rest")
    gold = g.state["counters"]["gold"][seat]
    assert g.pending["prompt"] == f"Rest with {gold} gold, P{seat + 1}?"
    assert g.pending["labels"] == ["Yes, and have 1 fame", "No"]
    act(g, "Yes")
    # the narration repeats the question, as the player saw it (issue 30 item 4)
    assert f'P{seat + 1} answers "Rest with {gold} gold, P{seat + 1}?": Yes, and have 1 fame' in [
        e.get("text") for e in g.log
    ]


def test_bot_games_leave_labels_for_later_and_fill_them_with_values(tmp_path):
    folder = _mini_with_rest_choice(tmp_path, "Rest?", "Fame {fame} -> {fame + 1}")
    g = new_game(str(folder), 2, seed=1, narrate=False)
    assert g.pending["prompt"] == "Choose an action"
    g.answer(g.pending["labels"].index("Rest"))
    assert g.state["pending"]["prompt"] == "Rest?" and g.state["pending"]["labels"] is None
    assert g.pending["labels"] == ["Fame 0 -> 1", "No"]  # filled in when asked for


@pytest.mark.parametrize(
    "prompt, yes, needle, message",
    [
        ("Rest with {gld} gold?", "Yes", "gld", "unknown name 'gld' (did you mean 'gold'?)"),
        ("Rest?", "Yes, with {1 +}", "1 +}", "in {1 +}: "),
        ("Rest with {gold gold?", "Yes", "{gold", "'{' without '}' in text"),
    ],
)
def test_validate_reports_errors_inside_the_braces_at_their_place(tmp_path, prompt, yes, needle, message):
    folder = _mini_with_rest_choice(tmp_path, prompt, yes)
    text = (folder / "game.yaml").read_text()
    i = text.index(needle)
    line, col = text[:i].count("\n") + 1, i - text.rfind("\n", 0, i)
    if needle == "1 +}":
        col += len("1 +")  # the parser stops at the end of the placeholder's text
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith(f"{folder / 'game.yaml'}:{line}:{col}: error[definition/"), first
    assert message in first


@pytest.mark.parametrize("game", ["citadels", "golden-temple", "island-fortress", "pillars", "prague"])
def test_what_a_player_reads_writes_ids_in_words(game):
    """The views and board pictures a person sees through a game's first 60 decisions: no id with an
    underscore (``silver_window``), no Python ``None``."""
    import random

    from mason.presentation.render import render_view

    g = new_game(game, 3, 8)
    rng = random.Random(8)
    for _ in range(60):
        text = render_view(g.program, g.view(g.pending["seat"]))
        assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b|\bNone\b", text), re.findall(
            r".*\b[a-z]+_[a-z0-9]+\b.*|.*None.*", text
        )[:3]
        g.answer(rng.randrange(len(g.pending["options"])) if not g.pending["subset"] else [])
