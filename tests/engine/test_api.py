"""The public API: ``import mason`` and its ``__all__``, docs/api.md performed, and what a wheel installs."""

from __future__ import annotations

import doctest
import importlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import mason

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_name_resolves_and_is_listed():
    assert mason.__all__ == sorted(n for n in mason.__all__ if n != "__version__") + ["__version__"]
    for name in mason.__all__:
        assert getattr(mason, name) is not None, name
    with pytest.raises(AttributeError):
        mason.no_such_name  # noqa: B018


def test_public_functions_are_not_shadowed_by_subpackages():
    # a subpackage imported before the function is asked for must not take its name
    importlib.import_module("mason.play.session")
    from mason import play_game, simulate

    assert callable(play_game) and callable(simulate)


def test_docs_api_examples_run_and_print_what_the_page_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, verbose=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 30
    assert result.failed == 0, f"{result.failed} example(s) of docs/api.md failed (run python -m doctest docs/api.md)"


def test_a_changed_example_output_fails_the_doctest(tmp_path):
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8").replace("(20, [])", "(21, [])")
    bad = tmp_path / "api.md"
    bad.write_text(page, encoding="utf-8")
    result = doctest.testfile(str(bad), module_relative=False, verbose=False, report=False)
    assert result.failed == 1


def test_the_wheel_installs_only_the_mason_package(tmp_path):
    """No top-level ``interpreter``, ``cli``, ``games`` or ``schemas``: the folders are mapped into ``mason``."""
    if shutil.which("pip") is None and importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not available to build a wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
    )
    if built.returncode != 0 and "Could not find a version" in built.stderr + built.stdout:
        pytest.skip("the build backend cannot be fetched (no package registry)")
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(tmp_path.glob("mason-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names}
    assert top == {"mason", next(t for t in top if t.endswith(".dist-info"))}
    assert "mason/dsl/mason.lark" in names
    for game in ("citadels", "golden-temple", "island-fortress", "pillars", "prague"):
        assert f"mason/games/{game}/game.yaml" in names
    assert "mason/games/citadels/expansions/dark-city/expansion.yaml" in names
    assert "mason/schemas/save.schema.json" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "mason = mason.cli.entry:run" in zipfile.ZipFile(wheel).read(entry).decode()
