"""``mason play --resume SAVE --rules-changed`` (issue 32 item 3): a save goes on under edited rules when
the saved state still fits them, and the log says so (a ``rules_changed`` entry)."""

from __future__ import annotations

import json
import shutil

import paths
from log_schema import schema_errors
from support import invoke
from test_cli import assert_clean_failure

MANOR = "{id: manor, name: Manor, colour: noble, cost: 3, copies: 5,"


def _saved(tmp_path):
    """A copy of Citadels and a 3-player game of it saved after two decisions of the human seat."""
    folder = tmp_path / "mycit"
    shutil.copytree(paths.ROOT / "games" / "citadels", folder)
    result = invoke(
        "play", folder, "-p", 3, "--seed", 5, "--save", tmp_path / "s.json", input="1\n1\nquit\n", cwd=tmp_path
    )
    assert result.exit_code == 0, result.output
    return folder, tmp_path / "s.json"


def _edit(folder, old, new, name="districts.yaml"):
    """Edit a rule file of the copy, as a designer would between two commands (each its own process:
    here the programs this process compiled are dropped)."""
    from mason.session import game as game_module

    game_module._PROGRAMS.clear()
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_issue32_item3_rules_changed_resumes_a_save_under_edited_rules_and_logs_it(tmp_path):
    folder, save = _saved(tmp_path)
    _edit(folder, MANOR, MANOR.replace("cost: 3", "cost: 2"))
    # without the flag the save is refused, as before
    err = assert_clean_failure(invoke("play", folder, "--resume", save, input="quit\n", cwd=tmp_path))
    assert "the save was made with other rules" in err
    before = json.loads(save.read_text())
    result = invoke("play", folder, "--resume", save, "--rules-changed", input="quit\n", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert f"the rules changed since the save ({before['rules']} -> " in result.output
    data = json.loads(save.read_text())  # saved again at quit, under the new rules
    assert data["rules"] != before["rules"]
    change = [e for e in data["log"] if e["type"] == "rules_changed"]
    assert len(change) == 1 and change[0]["previous"] == before["rules"] and change[0]["rules"] == data["rules"]
    assert change[0]["decisions"] == before["state"]["decisions"] and change[0]["to"] == []  # the state: no seat's
    assert schema_errors(data["log"]) == []
    # that save now resumes without the flag (replayed from the change on), and plays to the end
    log = tmp_path / "after.jsonl"
    done = invoke("play", folder, "--resume", save, "--bots", "random", "--quiet", "--log", log, cwd=tmp_path)
    assert done.exit_code == 0, done.output
    assert "Winner:" in done.output
    # its log replays (from the state the game went on from) and checks against the schema
    replayed = invoke("replay", log, "--quiet", cwd=tmp_path)
    assert replayed.exit_code == 0 and replayed.output.startswith("replay OK:"), replayed.output
    assert schema_errors([json.loads(x) for x in log.read_text().splitlines()]) == []


def test_issue32_item3_rules_changed_refuses_a_save_that_no_longer_fits_in_one_line(tmp_path):
    folder, save = _saved(tmp_path)
    _edit(folder, MANOR, MANOR.replace("copies: 5", "copies: 4"))
    _edit(folder, "count: 66", "count: 65", "game.yaml")
    err = assert_clean_failure(invoke("play", folder, "--resume", save, "--rules-changed", cwd=tmp_path))
    assert err == (
        f"error[save/invalid]: {save}: the saved game does not fit the rules as they are now: "
        "the save's state does not match the game's components"
    )


def test_issue32_item3_rules_changed_with_unchanged_rules_says_so(tmp_path):
    folder, save = _saved(tmp_path)
    result = invoke("play", folder, "--resume", save, "--rules-changed", input="quit\n", cwd=tmp_path)
    assert result.exit_code == 0 and "note: the rules have not changed since the save" in result.output
    assert not [e for e in json.loads(save.read_text())["log"] if e["type"] == "rules_changed"]


def test_issue32_item3_rules_changed_needs_resume():
    err = assert_clean_failure(invoke("play", "citadels", "--rules-changed"))
    assert err == "error[cli/usage]: --rules-changed is for --resume SAVE (a saved game to go on with)"


def test_issue32_item3_a_forged_state_in_a_rules_change_is_refused(tmp_path):
    folder, save = _saved(tmp_path)
    _edit(folder, MANOR, MANOR.replace("cost: 3", "cost: 2"))
    assert invoke("play", folder, "--resume", save, "--rules-changed", input="quit\n", cwd=tmp_path).exit_code == 0
    data = json.loads(save.read_text())
    change = next(e for e in data["log"] if e["type"] == "rules_changed")
    change["state"]["counters"]["gold"][0] += 5  # more gold than the game held when the rules changed
    save.write_text(json.dumps(data))
    err = assert_clean_failure(invoke("play", folder, "--resume", save, cwd=tmp_path))
    assert err.startswith(f"error[save/invalid]: {save}: the save's state is not the one its answers lead to"), err


TAKE_GOLD = "      do: gain 2 gold\n"


def _went_on_under_changed_rules(tmp_path):
    """A 3-player game of a Citadels copy saved after 20 answers, 'Take 2 gold' then made to give 4, the
    save resumed under the edited rules and played to the end by bots: its log and the change's index."""
    folder = tmp_path / "mycit"
    shutil.copytree(paths.ROOT / "games" / "citadels", folder)
    save, log = tmp_path / "s.json", tmp_path / "after.jsonl"
    played = invoke("play", folder, "-p", 3, "--seed", 5, "--save", save, input="1\n" * 20 + "quit\n", cwd=tmp_path)
    assert played.exit_code == 0, played.output
    _edit(folder, TAKE_GOLD, TAKE_GOLD.replace("2", "4"), "game.yaml")
    assert invoke("play", folder, "--resume", save, "--rules-changed", input="quit\n", cwd=tmp_path).exit_code == 0
    done = invoke("play", folder, "--resume", save, "--bots", "random", "--quiet", "--log", log, cwd=tmp_path)
    assert done.exit_code == 0, done.output
    entries = [json.loads(x) for x in log.read_text().splitlines()]
    change = next(i for i, e in enumerate(entries) if e["type"] == "rules_changed")
    return folder, log, entries, change


def _actions(entries, start, stop):
    """The indexes of the action decisions among ``entries[start:stop]``."""
    return [i for i in range(start, stop) if entries[i]["type"] == "decision" and entries[i].get("kind") == "action"]


def test_explain_replays_an_entry_after_a_change_of_rules_from_the_change_under_the_new_rules(tmp_path):
    """``mason explain --entry K`` replays to an action decision to say what it did not offer: after a
    change of rules, from the state the change holds, under the new rules (from the start, under them,
    the game went otherwise: 'Take 2 gold' had given 4 from the first round)."""
    from mason.presentation.explain import replay_to

    _, log, entries, change = _went_on_under_changed_rules(tmp_path)
    after = _actions(entries, change, len(entries))[:8]
    assert len(after) == 8
    for k in after:
        game = replay_to(entries, k)
        assert game.state["decisions"] == sum(1 for e in entries[:k] if e["type"] == "decision"), k
        assert game.pending is not None and game.pending["seat"] == entries[k]["seat"], k
        assert game.pending["options"] == [o["id"] for o in entries[k]["options"]], k
    k = after[0]
    result = invoke("explain", log, "--seat", entries[k]["seat"] + 1, "--entry", k, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"entry {k} (round ") and "' was not offered: " in result.output


def test_explain_refuses_in_one_line_an_entry_played_under_rules_no_longer_on_disk(tmp_path):
    folder, log, entries, change = _went_on_under_changed_rules(tmp_path)
    k = _actions(entries, 0, change)[-1]  # played before the change, under rules the files no longer hold
    err = assert_clean_failure(invoke("explain", log, "--seat", entries[k]["seat"] + 1, "--entry", k, cwd=tmp_path))
    assert err.startswith(
        f"error[explain/rules-changed]: entry {k} was played under rules the rule files no longer hold, "
        f"before the log's change of rules at entry {change} (rules hash {entries[0]['rules']}, now "
        f"{entries[change]['rules']}): what it did not offer cannot be said"
    ), err
    # and after the change too, once the files changed again since the log was written
    _edit(folder, TAKE_GOLD.replace("2", "4"), TAKE_GOLD.replace("2", "5"), "game.yaml")
    k = _actions(entries, change, len(entries))[0]
    err = assert_clean_failure(invoke("explain", log, "--seat", entries[k]["seat"] + 1, "--entry", k, cwd=tmp_path))
    assert err.startswith(f"error[explain/rules-changed]: entry {k} was played under rules the rule files no"), err
