"""`mason validate` on broken copies of Citadels: one-line positioned errors, all of them, sorted.

Each test copies games/citadels to a temporary folder, breaks one thing, runs the CLI through
click's CliRunner and checks: exit code 1, every error line is ``file:line:col: error[code]: msg``,
the place is the broken spot (computed from the edited text), and no traceback. The last part
checks that bad save files give one-line SaveErrors.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import paths
import pytest
from click.testing import CliRunner
from support import copy_game, new_game

from mason.cli.main import main
from mason.errors import SaveError
from mason.session.game import Game

GAMES = paths.ROOT / "games"
LINE = re.compile(r"^[^:]+:\d+:\d+: error\[[a-z/-]+\]: .+$")
PARTS = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[a-z/-]+)\]: (?P<msg>.+)$")
SUMMARY = re.compile(r"^\S+: \d+ errors?$")  # the CLI's count after the error lines


@pytest.fixture
def game(tmp_path) -> Path:
    return copy_game(tmp_path, GAMES / "citadels", ignore=("expansions",))


def edit(game: Path, file: str, old: str, new: str) -> str:
    """Replace the one occurrence of `old` in game/file by `new`; return the new text."""
    path = game / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {file}"
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return text


def at(text: str, needle: str, after: str = "") -> tuple[int, int]:
    """1-based (line, col) of `needle` in `text` (the first one after `after`, which must be unique)."""
    start = 0
    if after:
        assert text.count(after) == 1, after
        start = text.index(after)
    i = text.index(needle, start)
    before = text[:i]
    return before.count("\n") + 1, i - before.rfind("\n")


def validate(*targets) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["validate", *map(str, targets)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output.splitlines()


def errors_of(game: Path) -> list[dict]:
    """Validate a broken game: exit 1, every line well formed; the parsed error lines."""
    code, lines = validate(game)
    assert code == 1, lines
    assert lines and SUMMARY.match(lines[-1]), lines
    errors = lines[:-1]
    assert errors
    for line in errors:
        assert LINE.match(line), line
    out = []
    for line in errors:
        m = PARTS.match(line).groupdict()
        m["line"], m["col"] = int(m["line"]), int(m["col"])
        m["file"] = Path(m["file"]).name
        out.append(m)
    assert int(lines[-1].rsplit(": ", 1)[1].split()[0]) == len(errors)
    return out


def only_error(game: Path) -> dict:
    errors = errors_of(game)
    assert len(errors) == 1, errors
    return errors[0]


def assert_at(err: dict, file: str, place: tuple[int, int]):
    assert (err["file"], err["line"], err["col"]) == (file, *place), err


# ------------------------------------------------------------------ the valid game
def test_valid_game_exits_0_with_one_line_summary():
    code, lines = validate("citadels")
    assert code == 0
    assert len(lines) == 1
    assert re.match(r"^citadels: valid - Citadels, \d+-\d+ players, ", lines[0])


def test_valid_copy_by_path(game):
    code, lines = validate(game)
    assert code == 0 and len(lines) == 1 and "valid" in lines[0]


# ------------------------------------------------------------------ YAML
def test_yaml_syntax_error_points_at_the_unclosed_brace(game):
    text = edit(game, "game.yaml", "players: {min: 2, max: 7}", "players: {min: 2, max: 7")
    err = only_error(game)
    assert err["code"] == "definition/yaml"
    assert_at(err, "game.yaml", at(text, "{min: 2"))
    assert "never closed" in err["msg"]


def test_yaml_syntax_error_bad_indentation(game):
    text = edit(game, "districts.yaml", "    name: Keep\n", "    name: Keep\n     colour: special\n")
    err = only_error(game)
    assert err["code"] == "definition/yaml"
    line, _ = at(text, "     colour: special")
    assert (err["file"], err["line"]) == ("districts.yaml", line)


def test_yaml_tab_indentation(game):
    text = edit(game, "game.yaml", "  start_hand: 4", "\tstart_hand: 4")
    err = only_error(game)
    assert err["code"] == "definition/yaml"
    assert_at(err, "game.yaml", at(text, "\tstart_hand"))


def test_duplicated_key(game):
    text = edit(game, "game.yaml", "  start_hand: 4", "  start_hand: 4\n  start_gold: 3")
    err = only_error(game)
    assert err["code"] == "definition/duplicate-key"
    assert_at(err, "game.yaml", at(text, "start_gold: 3"))
    first, _ = at(text, "start_gold: 2")
    assert f"duplicate key 'start_gold' (first defined at line {first})" in err["msg"]


def test_missing_family_file_did_you_mean(game):
    text = edit(game, "game.yaml", "file: districts.yaml", "file: district.yaml")
    err = only_error(game)
    assert_at(err, "game.yaml", at(text, "district.yaml"))
    assert "did you mean 'districts.yaml'" in err["msg"]


def test_an_if_text_without_its_if_is_placed_at_the_if_text(game):
    text = edit(game, "game.yaml", "      label: Take 2 gold\n", "      label: Take 2 gold\n      if_text: never\n")
    err = only_error(game)
    assert err["code"] == "definition/schema"
    assert_at(err, "game.yaml", at(text, "if_text: never"))
    assert "'if_text' goes with 'if', which is missing" in err["msg"]


@pytest.mark.parametrize(
    "field, words",
    [("cost", "hides the property 'cost' of family 'district' (at "), ("name", "hides every card's own 'name'")],
)
def test_card_state_field_named_like_a_card_property_is_refused(game, field, words):
    """A card_state field shadows the printed property of that name (``c.cost`` reads the state): once
    a silent bug (a bridge tile's printed ``track`` read as the state's none), now a positioned error."""
    text = edit(game, "game.yaml", "  built_round: null\n", f"  built_round: null\n  {field}: 0\n")
    err = only_error(game)
    assert err["code"] == "definition/duplicate-name"
    assert_at(err, "game.yaml", at(text, f"{field}: 0", after="built_round: null"))
    assert f"card_state field '{field}' {words}" in err["msg"] and "rename one of them" in err["msg"]


# ------------------------------------------------------------------ component data
def test_misspelt_colour(game):
    text = edit(
        game, "districts.yaml", "{id: manor, name: Manor, colour: noble,", "{id: manor, name: Manor, colour: nobel,"
    )
    err = only_error(game)
    assert err["code"] == "definition/unknown-name"
    assert_at(err, "districts.yaml", at(text, "nobel"))
    assert "unknown colour 'nobel'" in err["msg"] and "did you mean 'noble'" in err["msg"]


def test_cost_written_as_a_word(game):
    text = edit(game, "districts.yaml", "colour: noble, cost: 3,", "colour: noble, cost: three,")
    err = only_error(game)
    assert_at(err, "districts.yaml", at(text, "three"))
    assert "'cost'" in err["msg"] and "whole number" in err["msg"] and "'three'" in err["msg"]


def test_family_count_that_does_not_add_up(game):
    text = edit(game, "game.yaml", "count: 66,", "count: 65,")
    err = only_error(game)
    assert err["code"] == "definition/count"
    assert_at(err, "game.yaml", at(text, "65,"))
    assert "65" in err["msg"] and "66" in err["msg"]


def test_copies_that_break_the_count(game):
    edit(game, "districts.yaml", "cost: 3, copies: 5,", "cost: 3, copies: 6,")
    err = only_error(game)
    assert err["code"] == "definition/count"
    assert_at(err, "game.yaml", at((game / "game.yaml").read_text(encoding="utf-8"), "66,"))
    assert "add up to 67" in err["msg"]


@pytest.mark.parametrize(
    "file,old,new,key,suggestion",
    [
        ("game.yaml", "      label: Take 2 gold", "      lable: Take 2 gold", "lable", "label"),
        ("game.yaml", "\nconstants:\n", "\nconstans:\n", "constans", "constants"),
        ("districts.yaml", "cost: 3, copies: 5,", "cost: 3, copise: 5,", "copise", "copies"),
    ],
)
def test_unknown_key_did_you_mean(game, file, old, new, key, suggestion):
    text = edit(game, file, old, new)
    errors = errors_of(game)
    err = errors[0]
    assert_at(err, file, at(text, key + ":"))
    assert "unknown" in err["msg"] and f"'{key}'" in err["msg"]
    assert f"did you mean '{suggestion}'" in err["msg"]


@pytest.mark.parametrize(
    "file,old,new,needle,words",
    [
        (
            "game.yaml",
            "when: card != none and card.robbed_by != none",
            "when: [1]",
            "[1]",
            "triggers[theft].when: expected text or a whole number or true or false, got a list",
        ),
        (
            "game.yaml",
            "players: {min: 2, max: 7}",
            "players: {min: 2, max: seven}",
            "seven",
            "players.max: expected a whole number, got 'seven'",
        ),
        ("game.yaml", "    - id: take_gold\n", "    - id: Take_Gold\n", "Take_Gold", "is not a snake_case name"),
        (
            "districts.yaml",
            "{id: manor, name: Manor, colour: noble, cost: 3, copies: 5, status: exact}",
            "{id: manor, name: Manor, colour: noble, cost: 3, copies: 5, status: exactly}",
            "exactly",
            "components[manor].status: 'exactly' is not one of exact, inferred, placeholder (did you mean 'exact'?)",
        ),
    ],
)
def test_schema_errors_in_plain_words(game, file, old, new, needle, words):
    text = edit(game, file, old, new)
    err = only_error(game)
    assert err["code"] == "definition/schema"
    assert_at(err, file, at(text, needle, after=new.strip()))
    assert words in err["msg"]


def test_missing_required_key(game):
    text = edit(game, "game.yaml", "      rule: CIT-R26\n      do: gain 2 gold\n", "      rule: CIT-R26\n")
    err = only_error(game)
    assert_at(err, "game.yaml", at(text, "id: take_gold"))
    assert err["msg"] == "turn.actions[take_gold]: missing key 'do'"


# ------------------------------------------------------------------ DSL
@pytest.mark.parametrize(
    "file,old,new,opener",
    [
        # literal block scalar (|)
        ("characters.yaml", "set c.murdered = true", "set c.murdered = (true", "(true"),
        # plain scalar
        (
            "game.yaml",
            "when: card != none and card.robbed_by != none",
            "when: card != none and (card.robbed_by != none",
            "(card.robbed_by",
        ),
        # double-quoted scalar in a flow mapping
        (
            "game.yaml",
            'value: "sum(score_of(d) for d in city(s))"',
            'value: "sum(score_of(d) for d in city(s)"',
            '(score_of(d) for d in city(s)"',
        ),
    ],
)
def test_dsl_unbalanced_parenthesis_points_at_the_open_paren(game, file, old, new, opener):
    text = edit(game, file, old, new)
    err = only_error(game)
    assert err["code"] == "definition/dsl-syntax"
    assert err["msg"] == "unbalanced parentheses: a '(' is never closed"
    assert_at(err, file, at(text, opener))


def test_dsl_syntax_error_in_a_block_points_at_the_token(game):
    text = edit(game, "characters.yaml", "set c.murdered = true", "set c.murdered == true")
    err = only_error(game)
    assert err["code"] == "definition/dsl-syntax"
    line, col = at(text, "set c.murdered == true")
    assert (err["file"], err["line"], err["col"]) == ("characters.yaml", line, col + len("set c.murdered "))
    assert "'='" in err["msg"]


def test_dsl_missing_colon_points_at_the_end_of_the_header(game):
    text = edit(game, "game.yaml", "if crown_by_draw:", "if crown_by_draw")
    err = only_error(game)
    line, col = at(text, "if crown_by_draw")
    assert (err["file"], err["line"], err["col"]) == ("game.yaml", line, col + len("if crown_by_draw"))
    assert err["msg"].startswith("missing ':'")


def test_unknown_character_name_in_a_block(game):
    text = edit(game, "characters.yaml", "x.rank != 1 and x != self", "x != assasin and x != self")
    err = only_error(game)
    assert err["code"] == "definition/unknown-name"
    assert_at(err, "characters.yaml", at(text, "assasin"))
    assert "'assasin'" in err["msg"] and "did you mean 'assassin'" in err["msg"]


def test_unknown_component_id_in_a_flow_mapping(game):
    text = edit(game, "districts.yaml", "when: card == self, set: false", "when: card == kep, set: false")
    err = only_error(game)
    assert err["code"] == "definition/unknown-name"
    assert_at(err, "districts.yaml", at(text, "kep,"))
    assert "did you mean 'keep'" in err["msg"]


# ------------------------------------------------------------------ many at once
def test_several_errors_are_all_reported_sorted_by_place(game):
    g = edit(game, "game.yaml", "  start_hand: 4", "  start_hand: 4\n  start_gold: 3")
    g = edit(
        game,
        "game.yaml",
        "when: card != none and card.robbed_by != none",
        "when: card != none and (card.robbed_by != none",
    )
    d = edit(
        game,
        "districts.yaml",
        "{id: manor, name: Manor, colour: noble, cost: 3,",
        "{id: manor, name: Manor, colour: nobel, cost: three,",
    )
    c = edit(game, "characters.yaml", "x.rank != 1 and x != self", "x != assasin and x != self")
    errors = errors_of(game)
    got = [(e["file"], e["line"], e["col"], e["code"]) for e in errors]
    expected = {
        ("game.yaml", *at(g, "start_gold: 3"), "definition/duplicate-key"),
        ("game.yaml", *at(g, "(card.robbed_by"), "definition/dsl-syntax"),
        ("districts.yaml", *at(d, "nobel"), "definition/unknown-name"),
        ("districts.yaml", *at(d, "three"), "definition/type"),
        ("characters.yaml", *at(c, "assasin"), "definition/unknown-name"),
    }
    assert set(got) == expected
    assert got == sorted(got, key=lambda e: (str(game / e[0]), e[1], e[2]))


def test_errors_in_several_games_and_files_keep_their_files(game):
    edit(game, "districts.yaml", "colour: noble, cost: 3,", "colour: nobel, cost: 3,")
    code, lines = validate(game, "citadels")
    assert code == 1
    assert any(line.startswith(str(game / "districts.yaml")) for line in lines)
    assert lines[-1].startswith("citadels: valid")


def test_unknown_game_is_one_line():
    code, lines = validate("no-such-game")
    assert code == 1
    assert len(lines) == 1 and "error[definition/no-game]" in lines[0]


# ------------------------------------------------------------------ bad saves
@pytest.fixture(scope="module")
def save_data(tmp_path_factory) -> dict:
    g = new_game("citadels", 4, 1)
    path = tmp_path_factory.mktemp("saves") / "good.json"
    g.save(path)
    return json.loads(path.read_text(encoding="utf-8"))


def load_error(tmp_path, content: str) -> SaveError:
    path = tmp_path / "save.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SaveError) as info:
        Game.load(path)
    err = info.value
    assert err.code.startswith("save/")
    assert "\n" not in err.line() and str(path) in err.line()
    return err


def test_good_save_loads(tmp_path, save_data):
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save_data), encoding="utf-8")
    g = Game.load(path)
    assert g.legal()


def test_save_that_is_not_json(tmp_path):
    err = load_error(tmp_path, "this is { not json")
    assert "not JSON" in err.message


def test_save_that_is_json_but_not_a_save(tmp_path):
    assert "not a Mason save" in load_error(tmp_path, '{"hello": "world"}').message
    assert "not a Mason save" in load_error(tmp_path, "[1, 2, 3]").message


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["state"].pop("cards"),
        lambda d: d["state"].__setitem__("round", "three"),
        lambda d: d.__setitem__("state", "broken"),
        lambda d: d["state"].__setitem__("cards", d["state"]["cards"][:3]),
        lambda d: d["state"].__setitem__("stack", [{"kind": "?"}]),
        lambda d: d["state"]["stack"][0].__setitem__("node", 10**6),
        lambda d: d["state"].__setitem__("pending", {"seat": 0}),
        lambda d: d.__setitem__("settings", {"players": 4}),
    ],
    ids=[
        "no-cards",
        "round-not-int",
        "state-not-dict",
        "cards-missing",
        "bad-frame",
        "bad-node",
        "bad-pending",
        "no-game",
    ],
)
def test_save_with_damaged_state(tmp_path, save_data, damage):
    data = json.loads(json.dumps(save_data))
    damage(data)
    err = load_error(tmp_path, json.dumps(data))
    assert "save" in err.message


def test_missing_save_file(tmp_path):
    with pytest.raises(SaveError) as info:
        Game.load(tmp_path / "nope.json")
    assert "\n" not in info.value.line()


def test_save_with_damaged_zones(tmp_path, save_data):
    data = json.loads(json.dumps(save_data))
    data["state"]["zones"] = {}
    load_error(tmp_path, json.dumps(data))


def test_save_of_an_unknown_game(tmp_path, save_data):
    data = json.loads(json.dumps(save_data))
    data["settings"]["game"] = "no-such-game"
    load_error(tmp_path, json.dumps(data))


def test_compiling_pauses_the_garbage_collector_and_turns_it_back_on(monkeypatch):
    import gc

    from mason.model import validate as v

    seen = []
    real = v._validate

    def spy(*args, **kw):
        seen.append(gc.isenabled())
        return real(*args, **kw)

    monkeypatch.setattr(v, "_validate", spy)
    assert gc.isenabled()
    v.validate_game("citadels")
    assert seen == [False] and gc.isenabled()

    def boom(*args, **kw):
        raise RuntimeError("interpreter bug")

    monkeypatch.setattr(v, "_validate", boom)
    with pytest.raises(RuntimeError):
        v.validate_game("citadels")
    assert gc.isenabled()  # on again whatever happened
    gc.disable()
    try:
        monkeypatch.setattr(v, "_validate", spy)
        v.validate_game("citadels")
        assert not gc.isenabled()  # a caller's own choice is left as it was
    finally:
        gc.enable()
