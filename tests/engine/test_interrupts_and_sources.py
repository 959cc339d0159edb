"""Issue 29, items 1, 2, 3, 6, 9 and 11: no game lost to a closed terminal (SIGHUP, SIGTERM), no
traceback on Ctrl-C (from the first imports to the workers of a pool), no hang on an unreachable Ray
cluster, any character in a game folder's path, a log's rules found where they came from, and no
temporary file of a killed save left behind."""

from __future__ import annotations

import shutil

import paths
from support import invoke

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
