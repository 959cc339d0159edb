"""The compile cache (mason.model.cache): a game compiled from it is the game compiled afresh, and a
warm cache compiles without PyYAML, jsonschema or Lark; a damaged, foreign or unwritable cache never
changes a result or an error, and a file with a problem is never kept."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from paths import FIXTURES, ROOT
from support import copy_game, play_out, random_answer

from mason.dsl import fastexpr, lark_parser, parser
from mason.model import cache
from mason.model.validate import validate_game
from mason.session import game as game_module
from mason.session.game import Game, Settings

GAMES = [("citadels", 4, ()), ("citadels", 5, ("dark-city",)), ("island-fortress", 3, ()), ("pillars", 3, ())]
GAMES += [("golden-temple", 4, ()), ("prague", 4, ())]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    monkeypatch.setattr(game_module, "_PROGRAMS", {})  # compile again in this test
    return folder


def _entries(folder, prefix):
    return sorted(p.name for p in folder.rglob(f"{prefix}-*"))


def _forget_trees(monkeypatch):
    """No tree or generated code known in this process: a compilation gets them from the cache, or
    parses and compiles."""
    monkeypatch.setattr(parser.TREES, "known", {})
    monkeypatch.setattr(fastexpr.CODE, "known", {})
    lark_parser.parse.cache_clear()


def _played(prog, players, expansions, seed=3):
    """A whole game of seeded random answers on ``prog``: its log and final state."""
    settings = Settings(prog.id if not expansions else "citadels", players, seed, (), expansions)
    game_module._PROGRAMS[game_module.program_key(settings.game, (), expansions)] = prog
    g = Game.new(settings)
    rng = random.Random(seed)
    play_out(g, lambda g: random_answer(rng, g.pending))
    return json.dumps(g.log, sort_keys=True), json.dumps(g.state, sort_keys=True)


@pytest.mark.parametrize(("game", "players", "expansions"), GAMES, ids=lambda x: str(x))
def test_a_game_compiled_from_the_cache_plays_as_one_compiled_afresh(cache_dir, monkeypatch, game, players, expansions):
    monkeypatch.setenv(cache.ENV, "off")
    _forget_trees(monkeypatch)
    fresh, errors = validate_game(game, (), expansions)
    assert not errors and not cache_dir.exists()
    monkeypatch.setenv(cache.ENV, str(cache_dir))
    _forget_trees(monkeypatch)
    first, errors = validate_game(game, (), expansions)  # fills the cache
    assert not errors and _entries(cache_dir, "yaml") and _entries(cache_dir, "dsl")
    _forget_trees(monkeypatch)

    def no_parsing(text, start):
        raise AssertionError(f"parsed again: {text!r}")

    def no_compiling(*args):
        raise AssertionError("generated code compiled again")

    monkeypatch.setattr(lark_parser, "parse", no_parsing)
    monkeypatch.setattr(fastexpr, "compile", no_compiling, raising=False)
    cached, errors = validate_game(game, (), expansions)  # files, schema checks, trees and code from the cache
    assert not errors
    assert _played(cached, players, expansions) == _played(fresh, players, expansions)


def test_a_warm_cache_compiles_without_yaml_jsonschema_or_lark(tmp_path):
    script = (
        "import sys; from mason.session.game import load_program; load_program('citadels');"
        "print(sorted(m for m in ('yaml', 'lark', 'jsonschema') if m in sys.modules))"
    )
    env = {**os.environ, cache.ENV: str(tmp_path / "cache")}

    def run():
        out = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run() == "['jsonschema', 'lark', 'yaml']"  # cold: read, checked and parsed
    assert run() == "[]"


def test_a_damaged_entry_is_read_afresh_and_written_again(cache_dir, monkeypatch):
    validate_game("citadels")
    entries = list(cache_dir.rglob("yaml-*.pickle")) + list(cache_dir.rglob("dsl-*.pickle"))
    for entry in entries:
        entry.write_bytes(b"not a pickle")
    _forget_trees(monkeypatch)
    prog, errors = validate_game("citadels")
    assert not errors and prog.name
    assert all(e.read_bytes() != b"not a pickle" for e in entries)


def test_a_file_with_a_problem_is_not_kept_and_its_error_stays_the_same(cache_dir, tmp_path):
    folder = copy_game(tmp_path, FIXTURES / "mini", "dup")
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("\nname:", "\nname: twice\nname:", 1))
    first = [e.line() for e in validate_game(str(folder))[1]]
    second = [e.line() for e in validate_game(str(folder))[1]]
    assert first and first == second
    assert any("duplicate key" in line for line in first)
    assert len(_entries(cache_dir, "yaml")) == sum(1 for _ in folder.glob("*.yaml")) - 1  # all but game.yaml


def test_a_dsl_error_is_found_again_with_a_warm_cache(cache_dir, tmp_path, monkeypatch):
    folder = copy_game(tmp_path, FIXTURES / "mini", "bad")
    validate_game(str(folder))  # warm: the good version's files and trees
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("gain ", "gain (", 1))
    _forget_trees(monkeypatch)
    errors = validate_game(str(folder))[1]
    assert errors and errors[0].code.startswith("definition/dsl")
    _forget_trees(monkeypatch)
    assert [e.line() for e in validate_game(str(folder))[1]] == [e.line() for e in errors]


def test_an_edited_file_is_read_again(cache_dir, tmp_path):
    folder = copy_game(tmp_path, FIXTURES / "mini", "edited")
    before = validate_game(str(folder))[0]
    text = (folder / "game.yaml").read_text()
    name = before.name
    (folder / "game.yaml").write_text(text.replace(f"name: {name}", "name: Renamed", 1))
    assert validate_game(str(folder))[0].name == "Renamed"


@pytest.mark.parametrize("setting", ["off", "0", ""])
def test_the_cache_can_be_turned_off(tmp_path, monkeypatch, setting):
    monkeypatch.setenv(cache.ENV, setting)
    assert cache.folder() is None
    prog, errors = validate_game("citadels")
    assert not errors and prog.name


def test_a_cache_that_cannot_be_made_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV, str(blocker / "cache"))
    assert cache.folder() is None
    prog, errors = validate_game("citadels")
    assert not errors and prog.name


def test_only_the_newest_code_versions_are_kept(tmp_path, monkeypatch):
    base = tmp_path / "cache"
    for i in range(6):
        old = base / f"{i:024d}"
        old.mkdir(parents=True)
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    monkeypatch.setenv(cache.ENV, str(base))
    here = cache.folder()
    left = sorted(p.name for p in base.iterdir())
    assert here is not None and here.name in left
    assert len(left) == cache.KEEP_VERSIONS
    assert f"{5:024d}" in left and f"{0:024d}" not in left  # the most recently used stay


def test_a_version_folder_is_trimmed_to_its_most_recently_used_entries(tmp_path, monkeypatch):
    base = tmp_path / "cache"
    here = base / cache.code_version()
    here.mkdir(parents=True)
    for i in range(cache.MAX_ENTRIES + 100):
        entry = here / f"schema-{i:08d}"
        entry.touch()
        os.utime(entry, (1_000_000 + i, 1_000_000 + i))
    monkeypatch.setenv(cache.ENV, str(base))
    assert cache.folder() == here
    left = sorted(p.name for p in here.iterdir())
    assert len(left) == cache.MAX_ENTRIES // 2
    assert left[0] == f"schema-{cache.MAX_ENTRIES + 100 - cache.MAX_ENTRIES // 2:08d}"  # the newest stay
