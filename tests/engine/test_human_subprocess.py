"""A person at a real terminal process: answers on stdin, refused answers, commands, save, quit, resume."""

from __future__ import annotations

import json
import re

import paths
from support import mason_process

ROOT = paths.ROOT
TIMEOUT = 60


def mason(*args, input: str):
    return mason_process(*args, input=input, timeout=TIMEOUT)


def test_human_plays_saves_quits_and_resumes_to_the_end(tmp_path):
    save, mid = tmp_path / "S.json", tmp_path / "mid.json"
    answers = ["1", "99", "view", "help", "1", "log", "1", f"save {mid}", "quit"]
    first = mason("play", "citadels", "-p", 3, "--seed", 5, "--save", save, input="\n".join(answers) + "\n")
    out = first.stdout
    assert first.returncode == 0, first.stderr
    assert first.stderr == "" and "Traceback" not in out
    # the seat's own table: its hand named, the others' hidden, the crown by seat name
    assert re.search(r"^P1 \(you[^)]*\): gold \d+", out, re.M)
    assert re.search(r"^    hand: \w", out, re.M)
    assert "cards (hidden)" in out
    assert re.search(r"crown: P[123]", out)
    assert re.search(r"^\[P1\] .+\n  1\. ", out, re.M)  # numbered options
    assert "not accepted: there is no option 99: type an action's letter (" in out  # the refusal says why
    assert "Commands: view" in out  # help
    assert out.count("-- since your last decision --") >= 2
    assert f"saved to {mid}" in out
    assert f"quit: game saved to {save}; resume with --resume {save}" in out
    assert "Final scores:" not in out
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["state"]["pending"]["seat"] == 0 and not saved["state"]["over"]
    assert saved["state"]["round"] == 1 and saved["state"]["decisions"] >= 3  # mid-round
    assert json.loads(mid.read_text(encoding="utf-8"))["state"] == saved["state"]

    second = mason("play", "citadels", "--resume", save, "--log", tmp_path / "game.jsonl", input="1\n" * 3000)
    out = second.stdout
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in out + second.stderr
    assert out.startswith(f"resumed Citadels from {save} (round 1")
    table = out[out.index("Final scores:") :].splitlines()
    assert [l.split(":")[0].strip() for l in table[1:4]] == ["P1", "P2", "P3"]
    assert all("districts" in l and "completion" in l for l in table[1:4])
    assert table[-1].startswith("Winner")

    # the log of the resumed game replays from its start, the first process's answers included
    replay = mason("replay", tmp_path / "game.jsonl", "--quiet", input="")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("replay OK:")


def test_end_of_input_saves_and_stops(tmp_path):
    save = tmp_path / "eof.json"
    run = mason("play", "citadels", "-p", 2, "--seed", 1, "--save", save, input="1\n")
    assert run.returncode == 0, run.stderr
    assert f"end of input: game saved to {save}" in run.stdout
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["state"]["pending"]["seat"] == 0
    assert [e["seat"] for e in saved["log"] if e.get("type") == "decision"].count(0) == 1


def test_bad_resume_is_one_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ not a save", encoding="utf-8")
    run = mason("play", "citadels", "--resume", bad, input="")
    assert run.returncode == 1
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith(f"error[save/invalid]: {bad}:1:")
