"""Regression tests for the review findings: hidden seed, seat ranges, times: 0, emit copies, change
triggers in order, expansion setup steps, duplicate ids, unwritable logs."""

from __future__ import annotations

import paths
import pytest
from support import copy_game, edited_copy, new_game

from mason.errors import MasonError, PlayError
from mason.model.validate import validate_game
from mason.play.session import write_log
from mason.session.game import Game

MINI = paths.FIXTURES / "mini"


def _mini(tmp_path, old=None, new=None, name="mini"):
    return copy_game(tmp_path, MINI, name) if old is None else edited_copy(tmp_path, MINI, [(old, new)], name=name)


def _phase(folder, effect):
    """Replace the mini game's only phase by ``effect``."""
    text = (folder / "game.yaml").read_text()
    start = text.index("    - id: turns\n")
    end = text.index("\nturn:")
    body = "".join("          " + line + "\n" for line in effect.strip().splitlines())
    (folder / "game.yaml").write_text(text[:start] + "    - id: turns\n      do: |\n" + body + text[end:])


def test_the_seed_is_shown_to_no_seat():
    g = new_game("citadels", 4, 12345)
    for seat in (0, 1, None):
        assert not any(e.get("type") == "start" for e in g.visible_log(seat))
    assert g.log[0]["settings"]["seed"] == 12345  # kept for replay


def test_a_seat_out_of_range_is_a_play_error(tmp_path):
    folder = _mini(tmp_path)
    _phase(folder, "draw 1 from deck to hand(-1)\nend game")
    with pytest.raises(PlayError, match="needs a seat"):
        new_game(folder, 2, 1)


def test_times_zero_offers_no_use(tmp_path):
    folder = _mini(tmp_path, "      times: 2\n", "      times: 0\n")
    g = new_game(folder, 2, 1)
    g.answer(g.pending["labels"].index("Take 2 gold"))
    assert "Play a gem" not in g.pending["labels"]


def test_change_triggers_run_before_the_next_statement(tmp_path):
    folder = _mini(tmp_path)
    _phase(folder, 'for s in [1, 0]:\n    set leader = s\n    say "fame {fame(0)} {fame(1)}"\nend game')
    g = new_game(folder, 2, 1)
    said = [e["text"] for e in g.log if e.get("text", "").startswith("fame ")]
    assert said == ["fame 0 1", "fame 1 1"]


def test_event_arguments_are_copies_not_live_zones(tmp_path):
    folder = _mini(tmp_path, "  played: [card, player]\n", "  played: [card, player]\n  dump: [cs]\n")
    text = (
        (folder / "game.yaml")
        .read_text()
        .replace(
            "triggers:\n",
            "triggers:\n  - id: dump_check\n    on: dump\n    do: |\n"
            "      move first(cs) to discard\n      set last_gem = count(cs)\n",
            1,
        )
    )
    (folder / "game.yaml").write_text(text)
    _phase(folder, "emit dump(cs=hand(0))\nend game")
    g = new_game(folder, 2, 1)
    assert g.state["vars"]["last_gem"] == 3  # the list handed to the trigger did not shrink


def test_expansion_steps_go_around_a_one_effect_setup(tmp_path):
    folder = _mini(tmp_path)
    exp = tmp_path / "bonus"
    exp.mkdir()
    (exp / "expansion.yaml").write_text(
        "id: bonus\nname: Bonus\nextends: mini\nadd:\n  setup:\n    - id: bonus_fame\n      after: setup\n"
        "      do: |\n        for s in seats:\n            gain 3 fame to s\n"
    )
    g = new_game(folder, 2, 1, expansions=(str(exp),))
    assert g.state["counters"]["fame"] == [3, 3]


def test_duplicate_action_ids_are_reported(tmp_path):
    folder = _mini(tmp_path, "    - {id: draw_gem,", "    - {id: take_gold,")
    _, errors = validate_game(str(folder))
    assert any(e.code == "definition/duplicate-id" and "take_gold" in e.message for e in errors)
    assert errors[0].place.line > 0


def test_an_unwritable_log_is_a_one_line_error(tmp_path):
    g = new_game("citadels", 2, 1)
    with pytest.raises(MasonError, match="cannot write the log"):
        write_log(g, tmp_path / "missing" / "x.jsonl")


@pytest.mark.parametrize(
    "body,where",
    [
        ("add: [1, 2]", "add"),
        ("families: [a]", "families"),
        ("replace: {components: [ruby]}", "replace.components"),
        ("add: {triggers: [foo]}", "add.triggers"),
    ],
)
def test_a_malformed_expansion_is_a_schema_error_not_a_crash(tmp_path, body, where):
    exp = tmp_path / "bad"
    exp.mkdir()
    (exp / "expansion.yaml").write_text(f"id: bad\nname: Bad\nextends: mini\n{body}\n")
    _, errors = validate_game(str(MINI), (), (str(exp),))
    assert errors and errors[0].code == "definition/schema" and errors[0].message.startswith(where)
    assert errors[0].place.file.endswith("expansion.yaml") and errors[0].place.line == 4


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["state"]["pending"].pop("subset"),
        lambda d: d["state"].__setitem__("ti", 99),
        lambda d: d["state"]["counters"].__setitem__("gold", [1]),
    ],
)
def test_damaged_saves_are_refused_with_one_line(tmp_path, damage):
    import json

    from mason.errors import SaveError

    g = new_game("citadels", 3, 1)
    data = json.loads(json.dumps(g.to_json()))
    damage(data)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="damaged") as info:
        Game.load(path)
    assert "\n" not in info.value.line()


def test_a_tie_break_of_none_does_not_crash(tmp_path):
    folder = _mini(tmp_path, "  tie_break: [gold(s)]", "  tie_break: [none]")
    g = new_game(folder, 2, 1)
    while not g.over:
        g.answer([] if g.pending["subset"] else 0)
    assert g.result["winners"]
