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
