"""A process that keeps compiled programs (``mason serve``, a notebook, the API) starts its next game
under the rules a designer saved since, not the ones it compiled first (``load_program`` looks at the
rule files' stamps at most once every ``RECHECK_SECONDS``)."""

from __future__ import annotations

import os
import shutil

import paths

from mason.model import cache
from mason.session import game as game_module
from mason.session.game import Game, Settings, load_program

MANOR = "{id: manor, name: Manor, colour: noble, cost: 3, copies: 5,"


def _copy(tmp_path):
    folder = tmp_path / "mycit"
    shutil.copytree(paths.ROOT / "games" / "citadels", folder)
    return folder


def _manor_cost(prog) -> int:
    return next(t for t in prog.types.values() if t.get("name") == "Manor")["cost"]


def _edit(folder, old, new, name="districts.yaml"):
    path = folder / name
    text = path.read_text()
    assert old in text
    before = os.stat(path).st_mtime_ns
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a later time, whatever the file system's grain


def test_a_kept_program_is_compiled_again_once_a_rule_file_is_edited(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    monkeypatch.setattr(game_module, "RECHECK_SECONDS", 0.0)
    folder = _copy(tmp_path)
    first = load_program(str(folder))
    assert load_program(str(folder)) is first  # nothing edited: the same program
    assert _manor_cost(first) == 3
    _edit(folder, MANOR, MANOR.replace("cost: 3", "cost: 2"))
    second = load_program(str(folder))
    assert second is not first and _manor_cost(second) == 2
    # a game started now plays the edited rules; the program of a game already started is left as it was
    game = Game.new(Settings(str(folder), 3, 1, (), (), {}), narrate=False)
    assert game.program is second and _manor_cost(first) == 3


def test_a_rule_file_removed_since_is_said_in_one_line_not_served_stale(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    monkeypatch.setattr(game_module, "RECHECK_SECONDS", 0.0)
    folder = _copy(tmp_path)
    load_program(str(folder))
    (folder / "districts.yaml").unlink()
    try:
        load_program(str(folder))
    except Exception as exc:  # the loader's positioned error for the missing family file
        assert "districts.yaml" in str(exc)
    else:
        raise AssertionError("a program whose rule file is gone was served from memory")


def test_the_files_are_looked_at_no_more_than_once_a_recheck_interval(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    monkeypatch.setattr(game_module, "RECHECK_SECONDS", 3600.0)
    folder = _copy(tmp_path)
    first = load_program(str(folder))
    looked = []
    real = cache.stamp
    monkeypatch.setattr(cache, "stamp", lambda files: looked.append(1) or real(files))
    for _ in range(50):  # as simulate starts game after game
        assert load_program(str(folder)) is first
    assert looked == []


def test_the_program_records_every_file_it_was_read_from(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    folder = _copy(tmp_path)
    prog = load_program(str(folder))
    files = {os.path.basename(p) for p in game_module._READ_FROM[prog][0]}
    assert {"game.yaml", "districts.yaml"} <= files
