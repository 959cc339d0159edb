"""The ``mason`` command line through click's CliRunner: the contract of DESIGN.md."""

from __future__ import annotations

import json
import re

import pytest
from support import invoke

from mason.session.game import load_program

PARTS = ("districts", "five colours", "completion")


def assert_clean_failure(result):
    """Non-zero exit, one line on stderr, no traceback."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    err = result.stderr.strip().splitlines()
    assert len(err) == 1, result.stderr
    assert err[0].startswith(("error[", "games/")) or re.match(r"^[^ ]+: error\[", err[0]), err[0]
    return err[0]


def score_lines(output: str) -> dict[int, tuple[int, dict]]:
    """Seat -> (total, {part: value}) from the final score table."""
    table = output[output.index("Final scores:") :]
    out = {}
    for m in re.finditer(r"^  P(\d+): +(\d+) +\(([^)]*)\)", table, re.M):
        parts = {}
        for item in m.group(3).split(", "):
            name, _, value = item.rpartition(" ")
            parts[name] = int(value)
        out[int(m.group(1))] = (int(m.group(2)), parts)
    return out


# ------------------------------------------------------------------ games, validate, rules
def test_games_lists_citadels():
    result = invoke("games")
    assert result.exit_code == 0
    assert re.search(r"^citadels: Citadels \(2-7 players\)", result.output, re.M)
    assert "variants:" in result.output and "options:" in result.output


def test_games_lists_each_variant_with_its_one_line_name():
    result = invoke("games")
    assert result.exit_code == 0
    block = result.output.split("golden-temple:", 1)[1].split("options:", 1)[0]
    prog = load_program("golden-temple")
    names = {v["id"]: v["name"] for v in prog.spec.game["variants"]}
    assert "icons_passed" in names and "maharaja_starts_at_5" in names
    for vid, name in names.items():
        assert f"\n      {vid}: {name}\n" in block


def test_validate_citadels():
    result = invoke("validate", "citadels")
    assert result.exit_code == 0, result.output
    assert "citadels: valid" in result.output


def test_rules_print_every_component_with_its_ability():
    result = invoke("rules", "citadels")
    assert result.exit_code == 0
    prog = load_program("citadels")
    for tid in prog.type_order:
        t = prog.types[tid]
        assert f"**{t['name']}**" in result.output or f"| {t['name']} |" in result.output, t["name"]
        if t["text"]:
            assert " ".join(t["text"].split()) in " ".join(result.output.split()), t["name"]
        for ability in prog.abilities.get(tid, ()):
            assert ability.label in result.output, (t["name"], ability.label)
    families = {prog.family_of[t] for t in prog.type_order}
    assert len(families) >= 2


# ------------------------------------------------------------------ play and replay
@pytest.fixture(scope="module")
def played(tmp_path_factory):
    log = tmp_path_factory.mktemp("play") / "f.jsonl"
    result = invoke("play", "citadels", "-p", 4, "--bots", "random", "--seed", 3, "--log", log)
    return result, log


def test_play_bots_narrates_and_scores_by_part(played):
    result, _ = played
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("citadels with 4 players, seed 3")
    assert "== Round 1 ==" in out and "== Round 2 ==" in out
    assert " plays as " in out
    assert "Final scores:" in out
    assert "Traceback" not in out and "error" not in out.lower()
    scores = score_lines(out)
    assert sorted(scores) == [1, 2, 3, 4]
    for _seat, (total, parts) in scores.items():
        assert list(parts) == list(PARTS), parts
        assert total == sum(parts.values())
    best = max(t for t, _ in scores.values())
    winners = [f"P{s}" for s, (t, _) in sorted(scores.items()) if t == best]
    last = out.strip().splitlines()[-1]
    assert last.startswith("Winner") and all(w in last for w in winners)


def test_play_is_deterministic_and_quiet_prints_only_scores(played):
    result, _ = played
    again = invoke("play", "citadels", "-p", 4, "--bots", "random", "--seed", 3, "--quiet")
    assert again.exit_code == 0
    assert again.output.startswith("Final scores:")
    assert again.output == result.output[result.output.index("Final scores:") :]


def test_replay_of_a_play_log_is_ok(played):
    _, log = played
    result = invoke("replay", log)
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("replay OK:")
    assert "Final scores:" in result.output
    quiet = invoke("replay", log, "--quiet")
    assert quiet.exit_code == 0 and quiet.output.startswith("replay OK:")


def _tamper(log, out, change):
    lines = log.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        e = json.loads(line)
        if e.get("type") == "decision" and change(e):
            lines[i] = json.dumps(e, sort_keys=True)
            out.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return i + 1
    raise AssertionError("nothing to tamper with")


def test_replay_of_a_tampered_log_fails_at_the_changed_line(played, tmp_path):
    _, log = played
    bad = tmp_path / "tampered.jsonl"

    def other_legal_answer(e):  # a different, still legal option
        if e["kind"] == "action" and e["answer"] == 0:
            e["answer"] = 1
            return True
        return False

    line = _tamper(log, bad, other_legal_answer)
    result = invoke("replay", bad)
    err = assert_clean_failure(result)
    assert err.startswith(f"{bad}:{line}:1: error[replay/differs]:"), err

    def illegal_answer(e):
        e["answer"] = 99
        return True

    line = _tamper(log, bad, illegal_answer)
    err = assert_clean_failure(invoke("replay", bad))
    assert err.startswith(f"{bad}:{line}:1: error[replay/differs]:") and "no option has index 99" in err, err


def test_replay_of_a_broken_file(tmp_path):
    f = tmp_path / "broken.jsonl"
    f.write_text('{"type": "start", "settings": {"game": "citadels", "players": 3}}\n{not json\n', encoding="utf-8")
    err = assert_clean_failure(invoke("replay", f))
    assert err.startswith(f"error[save/invalid]: {f}:2:")
    f.write_text('{"type": "decision"}\n', encoding="utf-8")
    assert "starts with a 'start' entry" in assert_clean_failure(invoke("replay", f))
    assert "cannot read" in assert_clean_failure(invoke("replay", tmp_path / "missing.jsonl"))


# ------------------------------------------------------------------ simulate
FIELDS = {"settings", "games", "completed", "errors", "decisions", "seconds", "results", "stats"}


def _sim(players, *extra):
    result = invoke("simulate", "citadels", "-n", 20, "-p", players, "--seed", 1, "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _without_timings(report):
    report = dict(report)
    report.pop("seconds")
    report["stats"] = {k: v for k, v in report["stats"].items() if k != "decisions_per_second"}
    return report


@pytest.mark.parametrize("players", range(2, 8))
def test_simulate_json_report(players):
    report = _sim(players)
    assert FIELDS <= set(report)
    assert report["settings"]["game"] == "citadels" and report["settings"]["players"] == players
    assert report["games"] == 20 and report["completed"] == 20 and report["errors"] == []
    assert len(report["results"]) == 20
    assert [r["seed"] for r in report["results"]] == list(range(1, 21))
    for r in report["results"]:
        assert {"seed", "scores", "winners", "rounds", "decisions"} <= set(r)
        assert len(r["scores"]) == players
        assert r["winners"] and all(r["scores"][w] == max(r["scores"]) for w in r["winners"])
        assert r["rounds"] >= 1 and r["decisions"] > 0
    assert report["decisions"] == sum(r["decisions"] for r in report["results"])
    stats = report["stats"]
    assert len(stats["win_rate_by_seat"]) == players
    assert abs(sum(stats["win_rate_by_seat"]) - 1) < 1e-3
    assert _without_timings(_sim(players)) == _without_timings(report)


def test_simulate_workers_give_the_same_results():
    one = invoke("simulate", "citadels", "-n", 6, "-p", 4, "--seed", 9, "--json")
    two = invoke("simulate", "citadels", "-n", 6, "-p", 4, "--seed", 9, "--json", "--workers", 2)
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    assert _without_timings(json.loads(one.stdout)) == _without_timings(json.loads(two.stdout))


def test_simulate_text_report():
    result = invoke("simulate", "citadels", "-n", 3, "-p", 3)
    assert result.exit_code == 0
    assert result.output.startswith("3/3 games completed")
    assert "win rate by seat: P1" in result.output


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    "args, expect",
    [
        (["play", "nosuchgame", "--bots", "random"], "no game 'nosuchgame'"),
        (["simulate", "nosuchgame", "-n", 1], "no game 'nosuchgame'"),
        (["rules", "nosuchgame"], "no game 'nosuchgame'"),
        (["validate", "nosuchgame"], "no game 'nosuchgame'"),
        (["play", "citadels", "-p", 9, "--bots", "random"], "2 to 7 players, not 9"),
        (["simulate", "citadels", "-n", 2, "-p", 9], "2 to 7 players, not 9"),
        # a variant that narrows the count is named with it ("takes 1 player", not "1 to 1 players")
        (
            ["simulate", "golden-temple", "-n", 1, "-p", 2, "--variant", "solo_hard"],
            "takes 1 player with the variant solo_hard, not 2",
        ),
        (
            ["play", "golden-temple", "-p", 3, "--variant", "solo_hard", "--bots", "random"],
            "takes 1 player with the variant solo_hard, not 3",
        ),
        (["analyze", "golden-temple", "-n", 1, "-p", 2, "--variant", "solo_hard"], "1 player with the variant"),
        (["play", "citadels", "-p", 4, "--bot", "9=random"], "--bot 9=random"),
        (["play", "citadels", "--bot", "2=genius"], "unknown kind 'genius'"),
        (["play", "citadels", "--option", "start_gold"], "KEY=VALUE"),
        (["play", "citadels", "--option", "no_such=1"], "no option 'no_such'"),
        (["play", "citadels", "--option", "start_gold=lots"], "takes a number"),
        (["simulate", "citadels", "-n", 1, "--option", "start_gold"], "KEY=VALUE"),
        # an unknown variant is the command line's mistake: named by its flag, not placed in the rule files
        (["play", "citadels", "--variant", "unknown"], "error[cli/usage]: --variant unknown: unknown variant"),
        (["simulate", "citadels", "-n", 1, "--variant", "short_gme"], "--variant short_gme: unknown variant"),
        (["rules", "citadels", "--variant", "unknown"], "error[cli/usage]: --variant unknown: unknown variant"),
        (["analyze", "citadels", "-n", 1, "--variant", "unknown"], "error[cli/usage]: --variant unknown"),
        (["simulate", "citadels", "-n", "x"], "'x' is not a valid integer"),
        (["simulate", "citadels", "-n", 0], "error[cli/usage]"),
        (["simulate", "citadels"], "Missing option"),
        (["play"], "Missing argument"),
        (["play", "citadels", "--bots", "genius"], "error[cli/usage]"),
        (["nosuchcommand"], "No such command"),
    ],
)
def test_bad_inputs_give_one_line_and_non_zero_exit(args, expect):
    err = assert_clean_failure(invoke(*args))
    assert expect in err, err


def test_resume_of_a_missing_or_corrupt_save(tmp_path):
    missing = tmp_path / "missing.json"
    err = assert_clean_failure(invoke("play", "citadels", "--resume", missing))
    assert err.startswith("error[save/invalid]") and "cannot read" in err
    corrupt = tmp_path / "corrupt.json"
    for text, expect in [
        ("garbage", "not JSON"),
        ('{"mason": 1, "settings"', "not JSON"),
        ('{"hello": 1}', "not a Mason save file"),
        ('{"mason": 1, "settings": {"game": "citadels", "players": 3}, "state": {}}', "damaged"),
        ('{"mason": 1, "settings": {"game": "nosuchgame", "players": 3}}', "does not load"),
    ]:
        corrupt.write_text(text, encoding="utf-8")
        err = assert_clean_failure(invoke("play", "citadels", "--resume", corrupt))
        assert err.startswith(f"error[save/invalid]: {corrupt}") and expect in err, err


def test_resume_of_another_games_save_is_refused(tmp_path):
    save = tmp_path / "s.json"
    result = invoke("play", "citadels", "-p", 3, "--seed", 5, "--save", save, input="quit\n")
    assert result.exit_code == 0 and save.exists()
    err = assert_clean_failure(invoke("play", "othergame", "--resume", save))
    assert "is a game of 'citadels'" in err


def test_options_reach_the_game(tmp_path):
    result = invoke(
        "play",
        "citadels",
        "-p",
        3,
        "--seed",
        2,
        "--option",
        "start_gold=5",
        "--save",
        tmp_path / "s.json",
        input="view\nquit\n",
    )
    assert result.exit_code == 0
    assert re.search(r"^P1 \(you[^)]*\): gold 5", result.output, re.M), result.output


def test_human_at_the_cli_quits_and_resumes(tmp_path):
    save = tmp_path / "s.json"
    first = invoke("play", "citadels", "-p", 3, "--seed", 5, "--save", save, input="1\n99\n1\nquit\n")
    assert first.exit_code == 0
    assert "not accepted: there is no option 99: type an action's letter (" in first.output
    assert f"quit: game saved to {save}" in first.output
    second = invoke("play", "citadels", "--resume", save, input="1\n" * 2000)
    assert second.exit_code == 0, second.output
    assert second.output.startswith(f"resumed Citadels from {save}")
    assert sorted(score_lines(second.output)) == [1, 2, 3]


def test_games_and_play_say_where_data_is_provisional():
    listing = invoke("games").output
    block = listing[listing.index("golden-temple:") : listing.index("island-fortress:")]
    assert "provisional data: " in block and "of 68 component types" in block
    citadels = listing[listing.index("citadels:") : listing.index("golden-temple:")]
    assert "provisional data" not in citadels  # every Citadels datum is exact
    started = invoke("play", "prague", "-p", 2, "--bots", "random", "--seed", 1).output
    assert started.splitlines()[1].startswith("Note: provisional data: ")


def test_every_option_of_every_command_says_what_it_does():
    """`mason CMD --help` explains each option (--with and --variant once showed a bare 'TEXT')."""
    import click

    from mason.cli.main import main

    ctx = click.Context(main)
    names = main.list_commands(ctx)
    assert {"analyze", "compare", "simulate", "play"} <= set(names)  # the lazily imported commands are listed
    bare = [
        f"{name} {param.opts[0]}"
        for name in names
        for param in main.get_command(ctx, name).params
        if param.param_type_name == "option" and not param.hidden and not (param.help or "").strip()
    ]
    assert bare == []


def test_simulate_imports_only_what_it_runs():
    """`mason simulate` (and `mason --help`) start without compiling the modules only other commands use
    (their import is most of the start-up on a machine that writes no bytecode):
    start-up is the serial part of `simulate --workers N` (issue 12). A fresh interpreter, so nothing
    an earlier test imported counts."""
    import subprocess
    import sys

    lazy = (
        "mason.agents.human",
        "mason.agents.greedy",
        "mason.cli.analyze",
        "mason.presentation.explain",
        "mason.presentation.render",
        "mason.session.saves",
    )
    script = (
        "import sys, contextlib, io\n"
        "from mason.cli.main import main\n"
        "try:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(sys.argv[1:], standalone_mode=False)\n"
        "finally:\n"
        "    print(' '.join(m for m in sys.modules if m.startswith('mason.')))\n"
    )
    for args in (["simulate", "citadels", "-n", "1", "--json"], ["--help"]):
        out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False)
        loaded = out.stdout.split()
        assert "mason.runtime.machine" in loaded or args == ["--help"], out.stderr  # the probe sees imports
        shown = ("mason.cli.analyze",) if args == ["--help"] else ()  # --help lists analyze's own help
        assert [m for m in lazy if m in loaded and m not in shown] == [], args
    # and the commands that need them still find them
    assert "Final scores" in invoke("play", "citadels", "-p", 4, "--bots", "random", "--seed", 1, "--quiet").output


def test_play_hands_its_options_to_the_game_as_one_request():
    """``mason play``'s options reach ``_play`` as one ``PlayRequest`` whose fields are the options, one for
    one (no second list of thirteen arguments that must agree with the first)."""
    import dataclasses

    from mason.cli.main import PlayRequest, play

    assert [f.name for f in dataclasses.fields(PlayRequest)] == [p.name for p in play.params]
