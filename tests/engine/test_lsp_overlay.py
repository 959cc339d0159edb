"""Unsaved texts read in place of rule files (model/positions.overlaid, what ``mason lsp`` checks): every
reader sees them, the compile cache never keeps them, and a text equal to the file is the file."""

from __future__ import annotations

import shutil

from paths import GAMES

from mason.lsp.folders import check, target_of
from mason.model import cache
from mason.model.positions import is_overlaid, overlaid

BONUS = "do: gain 1 gold}"


def _entries(folder) -> set[str]:
    return {p.name for p in folder.iterdir() if p.name.startswith(("yaml-", "dsl-"))}


def test_an_unsaved_text_is_validated_in_place_of_the_file_and_never_kept_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MASON_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "citadels"
    shutil.copytree(GAMES / "citadels", game)
    chars = game / "characters.yaml"
    text = chars.read_text()
    target = target_of(chars)
    assert check(target, {}, complete=False).errors == []
    here = cache.folder()
    assert here is not None and _entries(here)
    before = _entries(here)
    typo = check(target, {str(chars): text.replace(BONUS, "do: gian 1 gold}", 1)}, complete=False)
    assert [(e.code, e.place.line) for e in typo.errors] == [
        ("definition/dsl-syntax", text[: text.index(BONUS)].count("\n") + 1)
    ]
    changed = check(target, {str(chars): text.replace(BONUS, "do: gain 2 gold}", 1)}, complete=False)
    assert changed.errors == [] and changed.program is not None
    assert _entries(here) == before  # neither the text read nor its compiled trees were written
    assert chars.read_text() == text  # nor the file


def test_a_text_equal_to_the_file_is_read_as_the_file(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("id: x\n")
    with overlaid({str(path): "id: x\n"}):
        assert not is_overlaid(path)
    with overlaid({str(path): "id: y\n"}):
        assert is_overlaid(path)
    assert not is_overlaid(path)
