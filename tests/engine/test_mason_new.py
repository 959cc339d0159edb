"""``mason new NAME [--from GAME] [--dir D]`` (issue 32 item 6): a new game folder that validates and plays
at once, with schema modelines, a README with the shipped games' sections and a test that plays it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import paths
import pytest
from support import invoke
from test_cli import assert_clean_failure

SCHEMAS = paths.ROOT / "schemas"
README_SECTIONS = ["## Files", "## How the rules are expressed", "## Decisions taken here", "## Rules not implemented"]


def _schema_of(path: Path) -> Path:
    """The schema file a rule file's modeline (its first line) names, resolved from the file's folder."""
    first = path.read_text().splitlines()[0]
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert m, first
    return (path.parent / m.group(1)).resolve()


def test_issue32_item6_new_makes_a_game_that_validates_and_plays_at_once(tmp_path):
    result = invoke("new", "my-game", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "my-game"
    assert result.output.splitlines()[0] == "made my-game"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "cards.yaml", "game.yaml", "tests"]
    assert _schema_of(folder / "game.yaml") == (SCHEMAS / "game.schema.json").resolve()
    assert _schema_of(folder / "cards.yaml") == (SCHEMAS / "components.schema.json").resolve()
    readme = (folder / "README.md").read_text().splitlines()
    assert readme[0] == "# My Game" and [x for x in readme if x in README_SECTIONS] == README_SECTIONS
    valid = invoke("validate", "my-game", cwd=tmp_path)
    assert valid.exit_code == 0 and valid.output.startswith("my-game: valid - My Game, 2-4 players"), valid.output
    bots = invoke("play", "my-game", "-p", 3, "--bots", "random", "--seed", 1, cwd=tmp_path)
    assert bots.exit_code == 0 and "Winner:" in bots.output, bots.output
    person = invoke("play", "my-game", "--seed", 2, input="1\nquit\n", cwd=tmp_path)  # seat 1: you
    assert person.exit_code == 0 and "[P1] Choose an action:" in person.output, person.output
    assert "Play which card?" in person.output or "Draw a card" in person.output


def test_issue32_item6_the_new_game_s_own_test_passes(tmp_path):
    assert invoke("new", "duel", cwd=tmp_path).exit_code == 0
    tests = tmp_path / "duel" / "tests"
    assert [p.name for p in tests.iterdir()] == ["test_duel.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_issue32_item6_new_from_a_shipped_game_copies_it_with_its_expansion(tmp_path):
    result = invoke("new", "my-citadels", "--from", "citadels", "--dir", tmp_path, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "my-citadels"
    assert re.search(r"^id: my-citadels$", (folder / "game.yaml").read_text(), re.M)
    expansion = folder / "expansions" / "dark-city" / "expansion.yaml"
    assert re.search(r"^extends: my-citadels$", expansion.read_text(), re.M)
    assert _schema_of(folder / "districts.yaml") == (SCHEMAS / "components.schema.json").resolve()
    assert _schema_of(expansion) == (SCHEMAS / "expansion.schema.json").resolve()
    assert "Made by `mason new my-citadels --from citadels`" in (folder / "README.md").read_text()
    for extra in ((), ("--with", "dark-city")):
        valid = invoke("validate", folder, *extra, cwd=tmp_path)
        assert valid.exit_code == 0, valid.output
    # the copy is the same game: no difference but its id
    same = invoke("diff", "citadels", folder, cwd=tmp_path)
    assert same.output.splitlines()[-1] == "no difference: the same components, data and rules"


@pytest.mark.parametrize(
    "args, message",
    [
        (("Bad!",), "error[cli/usage]: 'Bad!' is not a game id: lower-case letters, digits, '-' and '_', starting"),
        (("citadels",), "error[cli/usage]: 'citadels' is a game Mason ships: choose another name (or --from citadels)"),
        (("x", "--from", "nope"), "error[cli/usage]: --from nope: not a game Mason ships (games: citadels,"),
        (("x", "--dir", "no-such-dir"), "error[cli/usage]: --dir no-such-dir: no such directory"),
    ],
)
def test_issue32_item6_new_bad_input_is_one_line(tmp_path, args, message):
    err = assert_clean_failure(invoke("new", *args, cwd=tmp_path))
    assert err.startswith(message), err
    assert list(tmp_path.iterdir()) == []  # nothing made


def test_issue32_item6_new_refuses_to_overwrite_an_existing_folder(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    err = assert_clean_failure(invoke("new", "mine", cwd=tmp_path))
    assert err == "error[cli/usage]: mine already exists: not written over (choose another name or --dir)"
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
