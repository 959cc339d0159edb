"""``mason diff A B`` (issue 32 item 4) and modifiers in words (item 5): in ``mason rules``, in the terminal's
``card NAME`` and in the diff."""

from __future__ import annotations

import json
import shutil

import paths
import pytest
from support import invoke
from test_cli import assert_clean_failure

from mason.model.yamlpos import load_yaml_text

MANOR = "{id: manor, name: Manor, colour: noble, cost: 3,"
CHEAP_NOBLES = """  - id: cheap_nobles
    name: Cheap nobles
    modifiers:
      - {value: build_cost, add: -1, when: card.colour == "noble"}
  - id: official_tiebreak"""


def _copy(tmp_path, name="mycit", edits=()):
    """A copy of Citadels with ``edits`` ((file, old, new), ...) made."""
    folder = tmp_path / name
    shutil.copytree(paths.ROOT / "games" / "citadels", folder)
    for file, old, new in edits:
        path = folder / file
        text = path.read_text()
        assert old in text, old
        path.write_text(text.replace(old, new, 1))
    return folder


def test_issue32_item4_diff_names_a_component_field_changed(tmp_path):
    copy = _copy(tmp_path, edits=[("districts.yaml", MANOR, MANOR.replace("cost: 3", "cost: 2"))])
    result = invoke("diff", "citadels", copy, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "A: citadels",
        f"B: {copy}",
        "Components:",
        "  changed district Manor (manor): cost 3 -> 2; score 3 -> 2",  # score defaults to the cost
        "2 differences",
    ]


def test_issue32_item4_diff_of_a_reformatted_copy_shows_no_change(tmp_path):
    copy = _copy(tmp_path, edits=[("districts.yaml", "when: owner == me, add: 1}", "when: 'owner  ==  me', add: 1}")])
    path = copy / "districts.yaml"
    data, _ = load_yaml_text(path.read_text(), "districts.yaml")  # read as Mason reads YAML (`on` is a key)
    data["components"] = [dict(sorted(c.items())) for c in data["components"]]  # keys reordered
    path.write_text(json.dumps(data, indent=3))  # and written in another style (JSON is YAML)
    result = invoke("diff", "citadels", copy, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "no difference: the same components, data and rules"


def test_issue32_item4_diff_components_added_removed_and_rules_in_words(tmp_path):
    observatory = "{value: draw_count, rule: CIT-R67, when: owner == me, add: 1}"
    copy = _copy(
        tmp_path,
        edits=[
            (
                "districts.yaml",
                "  - id: observatory\n",
                "  - id: watch_post\n    name: Watch Post\n    colour: military\n"
                "    cost: 2\n    status: exact\n  - id: observatory\n",
            ),
            ("districts.yaml", observatory, observatory.replace("add: 1", "add: 2")),
            (
                "districts.yaml",
                "  - {id: temple, name: Temple, colour: religious, cost: 1, copies: 3, status: exact}\n",
                "",
            ),
            ("game.yaml", "count: 66", "count: 64"),
        ],
    )
    result = invoke("diff", "citadels", copy, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  added district Watch Post (watch_post)" in lines
    assert "  removed district Temple (temple)" in lines
    at = lines.index("  changed district Observatory (observatory)")
    assert lines[at + 1 : at + 4] == [
        "    what it does (- A, + B):",
        "      - - Changes draw count: 1 more when its owner is you (CIT-R67)",
        "      + - Changes draw count: 2 more when its owner is you (CIT-R67)",
    ]
    assert "  families.district.count: 66 -> 64" in lines


def test_issue32_item4_diff_of_a_game_and_its_variant_and_of_two_variants(tmp_path):
    result = invoke("diff", "citadels", "--variant", "short_game")
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert out[:2] == ["A: citadels", "B: citadels --variant short_game"]
    assert "Rules, Values the rules use (- A, + B):" in out and "  + end threshold: Changed: 1 less (CIT-R103)" in out
    two = invoke("diff", "citadels", "--a", "variant=short_game", "--b", "variant=official_tiebreak")
    assert two.exit_code == 0, two.output
    assert (
        "  + Ties: broken by the total of the score of d for every d in the player's city, then the player's gold"
        in (two.output)
    )
    assert "  - end threshold: Changed: 1 less (CIT-R103)" in two.output


def test_issue32_item4_diff_json(tmp_path):
    copy = _copy(tmp_path, edits=[("districts.yaml", MANOR, MANOR.replace("cost: 3", "cost: 2"))])
    report = json.loads(invoke("diff", "citadels", copy, "--json", cwd=tmp_path).output)
    assert report["a"] == "citadels" and report["count"] == 2
    assert report["components"]["changed"] == [
        {
            "id": "manor",
            "family": "district",
            "name": "Manor",
            "fields": [{"field": "cost", "a": 3, "b": 2}, {"field": "score", "a": 3, "b": 2}],
        }
    ]
    assert report["components"]["added"] == report["components"]["removed"] == [] == report["sections"]


def test_diff_names_the_value_a_variant_changes_in_words_and_json():
    """A line under a value (``Changed: 1 less``) says which value it changes, and a variant now in force
    shows its own line once, not the lines under it again."""
    out = invoke("diff", "citadels", "--variant", "short_game").output.splitlines()
    values = out.index("Rules, Values the rules use (- A, + B):")
    assert out[values + 1 : values + 2] == ["  + end threshold: Changed: 1 less (CIT-R103)"]
    variants = out.index("Rules, Variants (- A, + B):")
    assert out[variants + 1 : variants + 3] == [
        "  - - **Shorter game (threshold one lower)** (`short_game`, CIT-R103)",
        "  + - **Shorter game (threshold one lower)** (`short_game`, CIT-R103, in force)",
    ]
    assert out[variants + 3] == "3 differences"
    report = json.loads(invoke("diff", "citadels", "--variant", "short_game", "--json").output)
    sections = {s["section"]: s for s in report["sections"]}
    assert sections["Values the rules use"]["added"] == ["end threshold: Changed: 1 less (CIT-R103)"]
    dark = invoke("diff", "citadels", "--with", "dark-city").output.splitlines()
    assert "  + end threshold: Changed by: Bell Tower (see Components)." in dark
    assert "  + score of (of a card): Changed: plus beautify bonus when the card's gilded (DC-R50)" in dark


def test_diff_sees_a_change_moved_from_one_value_to_another(tmp_path):
    """The same words under another value are a difference: the shorter game's ``1 less`` moved from the
    end threshold to the draw count."""
    short = "      - {value: end_threshold, add: -1, rule: CIT-R103}"
    copy = _copy(tmp_path, edits=[("game.yaml", short, short.replace("end_threshold", "draw_count"))])
    result = invoke("diff", "citadels", copy, "--a", "variant=short_game", "--b", "variant=short_game", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  - end threshold: Changed: 1 less (CIT-R103)" in lines
    assert "  + draw count: Changed: 1 less (CIT-R103)" in lines


@pytest.mark.parametrize(
    "args, message",
    [
        (("citadels", "--variant", "nope"), "error[cli/usage]: --variant nope: unknown variant 'nope'"),
        (("citadels", "no-such-game"), "no-such-game: error[definition/no-game]: no game 'no-such-game'"),
        (("citadels", "--b", "colour=red"), "error[cli/usage]: --b colour=red: expected variant=V or with=X"),
    ],
)
def test_issue32_item4_diff_bad_input_is_one_line(args, message):
    err = assert_clean_failure(invoke("diff", *args))
    assert err.startswith(message), err


def test_issue32_item4_diff_of_rules_that_do_not_load_gives_the_place(tmp_path):
    copy = _copy(tmp_path, edits=[("districts.yaml", MANOR, "{id: manor, name: Manor, colour: noble, cost: [3,")])
    result = invoke("diff", "citadels", copy, cwd=tmp_path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    line = next(i for i, x in enumerate((copy / "districts.yaml").read_text().splitlines(), 1) if "id: manor" in x)
    assert result.stderr.splitlines()[0].startswith(f"mycit/districts.yaml:{line}:")


# ------------------------------------------------------------------ item 5: modifiers in words
def test_issue32_item5_a_variant_modifier_in_words_in_rules_diff_and_card(tmp_path):
    copy = _copy(tmp_path, "nob", edits=[("game.yaml", "  - id: official_tiebreak", CHEAP_NOBLES)])
    rules = invoke("rules", copy, "--variant", "cheap_nobles", cwd=tmp_path)
    assert rules.exit_code == 0, rules.output
    assert "    Changes build cost of noble cards: 1 less." in rules.output.splitlines()
    assert "    Changed: for noble cards, 1 less" in rules.output.splitlines()
    diff = invoke("diff", copy, "--variant", "cheap_nobles", cwd=tmp_path)
    assert "  + build cost (of a card): Changed: for noble cards, 1 less" in diff.output.splitlines()
    played = invoke(
        "play", copy, "-p", 3, "--seed", 1, "--variant", "cheap_nobles", input="card manor\nquit\n", cwd=tmp_path
    )
    lines = played.output.splitlines()
    at = lines.index("Manor (noble, cost 3)")
    assert lines[at + 2] == "  - Changed by the rules in force: build cost of noble cards: 1 less"


def test_issue32_item5_card_command_says_what_a_card_does_in_words(tmp_path):
    played = invoke("play", "citadels", "-p", 3, "--seed", 1, input="card observatory\nquit\n", cwd=tmp_path)
    lines = played.output.splitlines()
    at = lines.index("Observatory (special, cost 5): When you take the draw action, draw 3 cards instead of 2.")
    assert lines[at + 2] == "  - Changes draw count: 1 more when its owner is you (CIT-R67)"
