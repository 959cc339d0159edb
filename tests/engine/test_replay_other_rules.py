"""``mason replay LOG --rules PATH | --variant V | --with X`` (issue 32 item 3): a log's answers under other
rules, and the first place where the game diverges."""

from __future__ import annotations

import json
import shutil

import paths
import pytest
from support import invoke
from test_cli import assert_clean_failure


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 4-player random-bot Citadels log (seed 3) and a copy of the game's folder beside it."""
    where = tmp_path_factory.mktemp("replay-rules")
    result = invoke("play", "citadels", "-p", 4, "--bots", "random", "--seed", 3, "--log", where / "a.jsonl", "--quiet")
    assert result.exit_code == 0, result.output
    return where


def _copy(where, name, old=None, new=None):
    folder = where / name
    if not folder.exists():
        shutil.copytree(paths.ROOT / "games" / "citadels", folder)
        if old is not None:
            path = folder / "districts.yaml"
            text = path.read_text()
            assert old in text
            path.write_text(text.replace(old, new))
    return folder


MANOR = "{id: manor, name: Manor, colour: noble, cost: 3,"


def test_issue32_item3_replay_rules_names_the_first_decision_an_edited_number_changes(played):
    # one number edited in a copy of the game: the Manor costs 2, not 3
    copy = _copy(played, "cheap-manor", MANOR, MANOR.replace("cost: 3", "cost: 2"))
    result = invoke("replay", played / "a.jsonl", "--rules", copy, cwd=played)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"replayed the 455 decisions of {played / 'a.jsonl'} under {copy}:"
    # the decision that changes, where it is in the log, and what is offered now
    assert lines[1].startswith("first divergence: decision 51 (round 3, P1: Build which district?), ")
    assert "now a decision, where the log had one option, which resolved itself" in lines[1]
    assert "    + Manor (pay 2 gold)" in lines
    # its causes, from the log
    assert any(
        x.startswith("    because the action 'Build a district' [rule CIT-R31, games/citadels/game.yaml:")
        for x in lines
    )
    assert "      from P1's turn as Assassin" in lines
    # and the state that differs (the log's rules replayed beside)
    assert "    P1's hand: +Tavern" in lines


def test_issue32_item3_replay_rules_of_an_unchanged_copy_goes_the_same_way_to_the_end(played):
    copy = _copy(played, "same")
    result = invoke("replay", played / "a.jsonl", "--rules", copy, cwd=played)
    assert result.exit_code == 0, result.output
    assert "the game would have gone the same way to the end (same options, same events)" in result.output
    assert "final scores: in the log P1 23, P2 20, P3 23, P4 31; now P1 23, P2 20, P3 23, P4 31" in result.output


def test_issue32_item3_replay_variant_reports_the_event_that_differs_with_both_causes(played):
    result = invoke("replay", played / "a.jsonl", "--variant", "short_game", cwd=played)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "under the log's rules (citadels) --variant short_game:" in out
    assert "first divergence: after decision 389 (P1: Build which district? -> Temple (pay 1 gold)), round 19" in out
    assert "  in the log: Warlord is revealed" in out
    assert "  now:        P1 gains 4 completion bonus" in out
    assert "    because the trigger 'completion' [rule CIT-R83" in out
    assert "    P1 completion: 0 -> 4" in out


def test_issue32_item3_replay_rules_json_report(played):
    copy = _copy(played, "cheap-manor", MANOR, MANOR.replace("cost: 3", "cost: 2"))
    result = invoke("replay", played / "a.jsonl", "--rules", copy, "--json", cwd=played)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["diverges"] is True and report["kind"] == "asked" and report["decision"] == 51
    assert report["added"] == ["Manor (pay 2 gold)"] and report["removed"] == []
    assert report["options_now"] == ["Tavern (pay 1 gold)", "Manor (pay 2 gold)"]
    same = json.loads(invoke("replay", played / "a.jsonl", "--rules", _copy(played, "same"), "--json").output)
    assert same["diverges"] is False and same["scores"] == same["scores_now"] == [23, 20, 23, 31]


def test_issue32_item3_plain_replay_still_refuses_a_log_of_other_rules(played):
    copy = _copy(played, "cheap-manor", MANOR, MANOR.replace("cost: 3", "cost: 2"))
    log = played / "a.jsonl"
    entries = [json.loads(x) for x in log.read_text().splitlines()]
    entries[0]["settings"]["game"] = str(copy)  # the log says it was played with the copy: its hash differs
    moved = played / "moved.jsonl"
    moved.write_text("".join(json.dumps(e) + "\n" for e in entries))
    err = assert_clean_failure(invoke("replay", moved))
    assert "the rules differ from those the log was written with" in err
    # the flag opts in: the same log, compared entry by entry under the copy (no rules hash check)
    result = invoke("replay", moved, "--rules", copy)
    assert result.exit_code == 0 and "first divergence: decision 51" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (("--variant", "nope"), "error[cli/usage]: --variant nope: unknown variant 'nope'"),
        (("--rules", "no-such-folder"), "no-such-folder: error[definition/no-game]: no game 'no-such-folder'"),
        (("--with", "nope"), "nope"),
        (("--json",), "error[cli/usage]: --json is for a replay under other rules"),
    ],
)
def test_issue32_item3_replay_other_rules_bad_input_is_one_line(played, args, message):
    err = assert_clean_failure(invoke("replay", played / "a.jsonl", *args, cwd=played))
    assert err.startswith(message) or message in err, err


def test_issue32_item3_replay_rules_that_do_not_load_give_their_place(played):
    broken = _copy(played, "broken", MANOR, "{id: manor, name: Manor, colour: noble, cost: [3,")
    result = invoke("replay", played / "a.jsonl", "--rules", broken, cwd=played)
    assert result.exit_code == 1 and "Traceback" not in result.output
    line = next(i for i, x in enumerate((broken / "districts.yaml").read_text().splitlines(), 1) if "id: manor" in x)
    assert f"districts.yaml:{line}:" in result.stderr.splitlines()[0]


def test_issue32_item3_replay_variant_of_a_solo_game_names_the_automated_seat_and_the_field(tmp_path):
    log = tmp_path / "gt.jsonl"
    played = invoke("play", "golden-temple", "-p", 1, "--bots", "random", "--seed", 2, "--log", log, "--quiet")
    assert played.exit_code == 0, played.output
    result = invoke("replay", log, "--variant", "maharaja_starts_at_5")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("first divergence: during the setup, before any decision, round 0, ")
    assert any(x.startswith("    because the setup step 'maharaja' [games/golden-temple/game.yaml:") for x in lines)
    assert (
        '  the entries differ: the log has changes [{"counter": "pp", "seat": 1, "value": 0}], '
        'now [{"counter": "pp", "seat": 1, "value": 5}]'
    ) in lines
    assert "    Maharaja pp: 0 -> 5" in lines
    copy = tmp_path / "gt"
    shutil.copytree(paths.ROOT / "games" / "golden-temple", copy)
    same = invoke("replay", log, "--rules", copy)
    assert "final scores: in the log P1 -6, Maharaja 67; now P1 -6, Maharaja 67" in same.output
