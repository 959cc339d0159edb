"""Issue 29, items 1, 2, 3, 6, 9 and 11: no game lost to a closed terminal (SIGHUP, SIGTERM), no
traceback on Ctrl-C (from the first imports to the workers of a pool), no hang on an unreachable Ray
cluster, any character in a game folder's path, a log's rules found where they came from, and no
temporary file of a killed save left behind."""

from __future__ import annotations

import json
import re
import shutil

import paths
from support import invoke, mason_process

from mason.runtime.game import Game, Settings

ROOT = paths.ROOT
MINI = paths.FIXTURES / "mini"


def one_line(result) -> str:
    """The single stderr line of a failed command run in process (no traceback)."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in result.output, result.stderr
    return err[0]


# ============================================================ item 6: a newline in the game's path
def test_item6_a_newline_in_the_game_folders_path_plays_logs_and_replays(tmp_path):
    folder = tmp_path / "two\nlines" / "mini"
    shutil.copytree(MINI, folder)
    log = tmp_path / "g.jsonl"
    run = invoke("play", folder, "--bots", "random", "--seed", 3, "--quiet", "--log", log, cwd=tmp_path)
    assert run.exit_code == 0, run.output
    assert "error[internal]" not in run.output and "Final scores" in run.output
    replay = invoke("replay", log, "--quiet", cwd=tmp_path)
    assert replay.exit_code == 0, replay.output
    assert replay.output.startswith("replay OK:")


# ============================================================ item 9: a log's rules found where they came from
def shadowing_folder(tmp_path):
    """A directory holding folders named like a shipped game (``citadels``) and its expansion
    (``dark-city``), each with other rules than Mason's own (two more gold at the start, a district
    more expensive)."""
    here = tmp_path / "here"
    shutil.copytree(paths.GAMES / "citadels", here / "citadels", ignore=shutil.ignore_patterns("expansions"))
    game = here / "citadels" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("start_gold: 2 ", "start_gold: 4 "), encoding="utf-8")
    shutil.copytree(paths.GAMES / "citadels" / "expansions" / "dark-city", here / "dark-city")
    districts = here / "dark-city" / "districts.yaml"
    text = districts.read_text(encoding="utf-8")
    changed = re.sub(r"cost: (\d+)", lambda m: f"cost: {int(m.group(1)) + 1}", text, count=1)
    assert changed != text
    districts.write_text(changed, encoding="utf-8")
    return here


def test_item9_a_shipped_games_log_replays_from_a_directory_holding_a_folder_of_that_name(tmp_path):
    log, save = tmp_path / "g.jsonl", tmp_path / "s.json"
    made = mason_process(
        "play", "citadels", "-p", 3, "--with", "dark-city", "--bots", "random", "--seed", 2, "--quiet",
        "--log", log, cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert json.loads(log.read_text().splitlines()[0])["settings"]["game"] == "citadels"
    here = shadowing_folder(tmp_path)
    replay = mason_process("replay", log, "--quiet", cwd=here)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("replay OK:") and replay.stderr == ""
    explained = mason_process("explain", log, "--seat", 1, cwd=here)
    assert explained.returncode == 0, explained.stderr

    # a save of the shipped game resumes there as the shipped game too
    game = Game.new(Settings("citadels", 3, 5, expansions=("dark-city",)))
    for _ in range(3):
        game.answer(0)
    game.save(save)
    resumed = mason_process("play", "citadels", "--resume", save, "--bots", "random", "--quiet", cwd=here)
    assert resumed.returncode == 0, resumed.stderr
    assert "Winner" in resumed.stdout


def test_item9_a_game_played_from_a_folder_named_like_a_shipped_one_records_the_folder(tmp_path, monkeypatch):
    here = shadowing_folder(tmp_path)
    log = tmp_path / "local.jsonl"
    made = mason_process(
        "play", "citadels", "-p", 3, "--with", "dark-city", "--bots", "random", "--seed", 2, "--quiet",
        "--log", log, cwd=here,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    settings = json.loads(log.read_text().splitlines()[0])["settings"]
    assert settings["game"] == str(here / "citadels") and settings["with"] == [str(here / "dark-city")]
    elsewhere = mason_process("replay", log, "--quiet", cwd=tmp_path)
    assert elsewhere.returncode == 0, elsewhere.stderr

    # the Python API records such a folder by its absolute path too (its log replays from anywhere)
    monkeypatch.chdir(here)
    game = Game.new(Settings("citadels", 3, 5, expansions=("dark-city",)))
    assert game.settings.game == str(here / "citadels")
    assert game.settings.expansions == (str(here / "dark-city"),)
    assert game.log[0]["settings"]["game"] == str(here / "citadels")
    assert game.program.constants["start_gold"] == 4  # the folder's rules, not Mason's own
