"""Issue 29, item 5: bounded work when a game loads.

A card's ``copies`` is bounded before one object is made per card; a character YAML refuses (a NUL
byte) is placed; a rule file that is a pipe or a device is refused without being read; a DSL text
of very many terms is refused before it is parsed. Each test would hang, exhaust memory or take
minutes without its bound; the child process of ``mason_in_a_child`` is killed after 60 s or at
2 GB, so a regression fails instead of hanging. No time is asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_bounded_and_validation import (
    CITADELS,
    LINE,
    MINI,
    at,
    copy_of,
    edit,
    errors_of,
    mason_in_a_child,
    only_error,
    validate,
)


def _first(err: str):
    first = LINE.match(err.splitlines()[0]) if err.strip() else None
    assert first, err
    assert "Traceback" not in err and "error[internal]" not in err, err
    return first


def test_issue29_item5_a_billion_copies_of_one_card_are_refused_before_they_are_made(tmp_path):
    game = copy_of(tmp_path)
    text = edit(game, "copies: 6", "copies: 1000000000", file="gems.yaml")
    code, err, _seconds, mb = mason_in_a_child("validate", game)
    assert code == 1, err
    _first(err)
    first = next(m for m in map(LINE.match, err.splitlines()) if m and m["code"] == "definition/too-large")
    line, col = at(text, "copies: 1000000000")
    assert (first["file"].endswith("gems.yaml"), int(first["line"]), int(first["col"])) == (True, line, col + 8), err
    assert first["code"] == "definition/too-large" and "at most 100,000" in first["msg"], err
    assert mb < 300, mb  # one object per card would need tens of GB


@pytest.mark.parametrize("extra", [0, 1])
def test_issue29_item5_a_game_at_the_card_bound_still_loads_and_one_more_is_refused(tmp_path, extra):
    from mason.model.program import MAX_CARDS

    game = copy_of(tmp_path)
    # the mini game's other cards (gems and heroes) add up to 9: Pearls take the rest of the bound
    edit(game, "copies: 6", f"copies: {MAX_CARDS - 9 + extra}", file="gems.yaml")
    edit(game, "count: 12", f"count: {MAX_CARDS - 3 + extra}")
    found = [(e["code"], e["msg"]) for e in errors_of(game)] if extra else []
    if not extra:
        assert validate(game)[0] == 0
    assert (
        found
        == [
            (
                "definition/too-large",
                f"hero 'bard': 1 copies bring the game's cards to {MAX_CARDS + 1:,}; a game may have at most {MAX_CARDS:,}",
            )
        ][:extra]
    ), found


def test_issue29_item5_a_nul_byte_in_a_rule_file_is_a_placed_yaml_error(tmp_path):
    game = copy_of(tmp_path)
    text = edit(game, "  start_gold: 2\n", "  start_gold: 2   # a\x00b\n")
    err = only_error(game)
    line, col = at(text, "\x00")
    assert (err["file"], err["line"], err["col"], err["code"]) == ("game.yaml", line, col, "definition/yaml"), err
    assert "U+0000" in err["msg"]


@pytest.mark.parametrize("cache", ["on", "off"])
def test_issue29_item5_a_game_yaml_that_is_a_pipe_is_refused_without_waiting(tmp_path, cache):
    game = tmp_path / "piped"
    game.mkdir()
    os.mkfifo(game / "game.yaml")
    env = dict(os.environ, MASON_CACHE_DIR=str(tmp_path / "cache") if cache == "on" else "off")
    proc = subprocess.run(
        [sys.executable, "-m", "mason.cli.main", "validate", str(game)],
        capture_output=True,
        text=True,
        timeout=60,  # a guard against a regression hanging the suite; no time is asserted
        env=env,
    )
    assert proc.returncode == 1, proc.stderr
    first = _first(proc.stderr or proc.stdout)
    assert (first["line"], first["col"], first["code"]) == ("1", "1", "definition/io"), proc.stderr
    assert first["file"].endswith("game.yaml") and "a pipe, not a regular file" in first["msg"]


def test_issue29_item5_a_game_yaml_linked_to_dev_zero_is_refused_without_reading_it(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    game = copy_of(tmp_path)
    (game / "game.yaml").unlink()
    (game / "game.yaml").symlink_to("/dev/zero")
    code, err, _seconds, mb = mason_in_a_child("validate", game)
    assert code == 1, err
    first = _first(err)
    assert (first["line"], first["col"], first["code"]) == ("1", "1", "definition/io"), err
    assert "a device, not a regular file" in first["msg"]
    assert mb < 300, mb


def test_issue29_item5_an_expansion_file_linked_to_a_device_is_refused_too(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    game = copy_of(tmp_path, CITADELS, expansions=True)
    manifest = game / "expansions" / "dark-city" / "expansion.yaml"
    manifest.unlink()
    manifest.symlink_to("/dev/zero")
    code, err, _seconds, mb = mason_in_a_child("validate", game)
    assert code == 1, err
    first = _first(err)
    assert first["file"].endswith("expansion.yaml") and first["code"] == "definition/io", err
    assert "a device, not a regular file" in first["msg"]
    assert mb < 300, mb


def test_issue29_item5_a_dsl_text_of_100000_terms_is_refused_before_it_is_parsed(tmp_path):
    game = copy_of(tmp_path, CITADELS)
    text = edit(game, "do: gain 2 gold", "do: gain " + " + ".join(["1"] * 100_000) + " gold")
    code, err, _seconds, mb = mason_in_a_child("validate", game)
    assert code == 1, err
    first = _first(err)
    assert first["code"] == "definition/too-large" and "more than 5,000 terms" in first["msg"], err
    line, col = at(text, "gain 1 + 1")
    # the 5,001st term: 'gain' is the first, then each '1 + ' is four characters
    assert (int(first["line"]), int(first["col"])) == (line, col + 5 + 4 * 4999), err
    assert mb < 150, mb


def test_issue29_item5_the_term_bound_skips_comments_and_keeps_shipped_texts():
    from mason.dsl.lark_parser import _check_terms
    from mason.dsl.syntax import MAX_TERMS

    _check_terms("# " + "word " * (2 * MAX_TERMS) + "\ngain 1 gold\n")  # a long comment is not terms
    _check_terms(" ".join(["x"] * MAX_TERMS) + "\n")  # exactly the bound


assert MINI.is_dir()
