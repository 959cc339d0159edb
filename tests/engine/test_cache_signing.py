"""Issue 29, item 8: the compile cache never runs what it did not write.

Entries are signed (HMAC-SHA256 of name and contents, mode-0600 key kept beside the cache folder,
not in it); a planted, foreign or damaged entry is never unpickled but ignored and rebuilt, and a
cache folder others may write to, or a key file that is not the user's private file, turns the
cache off (mason.model.cache)."""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys

import pytest
from paths import ROOT

from mason.dsl import fastexpr, lark_parser, parser
from mason.model import cache
from mason.model.validate import validate_game
from mason.session import game as game_module


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    return folder


def _forget_trees(monkeypatch):
    monkeypatch.setattr(parser.TREES, "known", {})
    monkeypatch.setattr(fastexpr.CODE, "known", {})
    lark_parser.parse.cache_clear()


class _SideEffect:
    """Unpickling this opens (creates) ``marker``: what a planted entry could do."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _entries(folder):
    return sorted(folder.rglob("yaml-*.pickle")) + sorted(folder.rglob("dsl-*.pickle"))


def test_issue29_item8_a_planted_entry_with_a_side_effect_is_never_unpickled(cache_dir, tmp_path, monkeypatch):
    validate_game("citadels")
    entries = _entries(cache_dir)
    assert entries
    marker = tmp_path / "ran"
    planted = pickle.dumps(_SideEffect(marker))
    for entry in entries:
        entry.write_bytes(planted)
    _forget_trees(monkeypatch)
    prog, errors = validate_game("citadels")
    assert not errors and prog.name
    assert not marker.exists(), "a planted cache entry ran code"
    assert all(e.read_bytes().startswith(cache.MAGIC) for e in entries)  # rebuilt, signed


def test_issue29_item8_a_planted_entry_under_the_signature_header_is_not_run_either(cache_dir, tmp_path, monkeypatch):
    validate_game("citadels")
    marker = tmp_path / "ran"
    for entry in _entries(cache_dir):
        entry.write_bytes(cache.MAGIC + b"\0" * 32 + pickle.dumps(_SideEffect(marker)))
    _forget_trees(monkeypatch)
    assert not validate_game("citadels")[1] and not marker.exists()


def test_issue29_item8_an_entry_that_unpickles_to_a_pair_of_numbers_is_ignored_and_rebuilt(cache_dir, monkeypatch):
    validate_game("citadels")
    entries = list(cache_dir.rglob("yaml-*.pickle"))
    for entry in entries:
        entry.write_bytes(pickle.dumps((1, 2)))
    _forget_trees(monkeypatch)
    prog, errors = validate_game("citadels")
    assert not errors and prog.name
    assert all(e.read_bytes().startswith(cache.MAGIC) for e in entries)
    for entry in entries:  # even signed with the right key, a value of the wrong shape is a miss
        cache._write(entry, (1, 2))
    _forget_trees(monkeypatch)
    prog, errors = validate_game("citadels")
    assert not errors and prog.name


def test_issue29_item8_a_planted_pair_at_the_command_line_is_no_internal_error(tmp_path):
    env = {**os.environ, cache.ENV: str(tmp_path / "cache")}

    def validate():
        return subprocess.run(
            [sys.executable, "-m", "mason.cli.main", "validate", "citadels"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )

    assert validate().returncode == 0
    for entry in (tmp_path / "cache").rglob("yaml-*.pickle"):
        entry.write_bytes(pickle.dumps((1, 2)))
    out = validate()
    assert out.returncode == 0 and "error" not in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_issue29_item8_entries_signed_under_another_key_are_not_read(tmp_path, monkeypatch):
    first, second = tmp_path / "a" / "cache", tmp_path / "b" / "cache"
    monkeypatch.setenv(cache.ENV, str(first))
    validate_game("citadels")
    here = cache.folder()
    assert here is not None
    copied = second / here.name
    copied.mkdir(parents=True, mode=0o700)
    second.chmod(0o700)
    for entry in _entries(first):
        (copied / entry.name).write_bytes(entry.read_bytes())
    monkeypatch.setenv(cache.ENV, str(second))
    assert cache.folder() == copied
    assert cache.key_file(second).read_bytes() != cache.key_file(first).read_bytes()
    entry = _entries(copied)[0]
    assert cache._read(entry) is None and not entry.exists()  # ignored and removed: written again


def test_issue29_item8_the_key_is_private_and_kept_outside_the_cache_folder(cache_dir):
    here = cache.folder()
    key = cache.key_file(cache_dir)
    assert here is not None and key.parent == cache_dir.parent
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == cache.KEY_BYTES
    assert not list(cache_dir.rglob("*.key"))
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700 and stat.S_IMODE(here.stat().st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o757], ids=["0777", "0775", "0757"])
def test_issue29_item8_a_cache_folder_others_may_write_is_not_used(tmp_path, monkeypatch, mode):
    base = tmp_path / "shared"
    base.mkdir()
    base.chmod(mode)
    monkeypatch.setenv(cache.ENV, str(base))
    assert cache.folder() is None
    prog, errors = validate_game("citadels")
    assert not errors and prog.name


@pytest.mark.parametrize("damage", ["readable-by-others", "a-link", "short"])
def test_issue29_item8_a_key_file_that_is_not_private_turns_the_cache_off(tmp_path, monkeypatch, damage):
    base = tmp_path / "cache"
    key = cache.key_file(base)
    if damage == "readable-by-others":
        key.write_bytes(b"k" * cache.KEY_BYTES)
        key.chmod(0o644)
    elif damage == "a-link":
        target = tmp_path / "elsewhere"
        target.write_bytes(b"k" * cache.KEY_BYTES)
        target.chmod(0o600)
        key.symlink_to(target)
    else:
        key.write_bytes(b"k")
        key.chmod(0o600)
    monkeypatch.setenv(cache.ENV, str(base))
    assert cache.folder() is None
