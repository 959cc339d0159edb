"""The game an open file belongs to, and checking it as ``mason validate`` does over unsaved texts.

A file belongs to the nearest folder above it that holds ``game.yaml`` (a game) or ``expansion.yaml``
(an expansion). An expansion is checked with its base game, found as ``mason validate BASE --with X``
finds it: the game whose ``expansions/`` folder holds it, else the game its ``extends`` names.
"""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from mason.errors import DefinitionError, MasonError, Place
from mason.model.loader import GAMES_DIR, find_game
from mason.model.positions import overlaid

MAX_LEVELS = 8  # folders looked at above a file for its game.yaml or expansion.yaml
_EXTENDS = re.compile(r"^extends:\s*['\"]?([^'\"#\s]+)", re.MULTILINE)


@dataclass(frozen=True)
class Target:
    """What ``mason validate`` is run on for a file: a game folder, the expansions added, and every
    folder whose rule files take part (the game's, its shipped expansions', the expansion's)."""

    game: Path
    expansions: tuple[str, ...] = ()
    folders: tuple[Path, ...] = ()

    def command(self) -> str:
        """The equivalent command line, for messages and docs."""
        return " ".join(["mason validate", str(self.game)] + [f"--with {x}" for x in self.expansions])


def target_of(path: Path, texts: dict | None = None) -> Target | None:
    """The game a rule file belongs to, or None for a file outside any game (``texts``: unsaved
    buffers by path, read for an expansion's ``extends``)."""
    here = Path(path).resolve().parent
    for _ in range(MAX_LEVELS):
        if (here / "game.yaml").is_file():
            return Target(here, (), _folders(here))
        if (here / "expansion.yaml").is_file():
            return _expansion_target(here, texts or {})
        if here.parent == here:
            return None
        here = here.parent
    return None


def _folders(game: Path, *more: Path) -> tuple[Path, ...]:
    shipped = game / "expansions"
    found = [game] + (
        sorted(d for d in shipped.iterdir() if (d / "expansion.yaml").is_file()) if shipped.is_dir() else []
    )
    return tuple(dict.fromkeys(found + [m for m in more if m not in found]))


def _expansion_target(folder: Path, texts: dict) -> Target | None:
    if folder.parent.name == "expansions" and (folder.parent.parent / "game.yaml").is_file():
        base = folder.parent.parent
        return Target(base, (folder.name,), _folders(base, folder))
    manifest = folder / "expansion.yaml"
    text = texts.get(str(manifest))
    if text is None:
        try:
            text = manifest.read_text(encoding="utf-8", errors="replace")[:65536]
        except OSError:
            return None
    m = _EXTENDS.search(text)
    if m is None:
        return None
    try:
        base = find_game(m.group(1))
    except MasonError:
        return None
    return Target(base.resolve(), (str(folder),), _folders(base.resolve(), folder))


@dataclass
class Checked:
    """One check's result: the errors (as ``mason validate`` prints them), the compiled program when
    the game compiled, and the seconds it took (wall clock, and this thread's CPU time)."""

    errors: list[DefinitionError] = field(default_factory=list)
    program: object = None
    seconds: float = 0.0
    cpu: float = 0.0  # of those, seconds this thread ran (what the check costs on an idle machine)


def check(target: Target, texts: dict, complete: bool = True) -> Checked:
    """Validate ``target`` with ``texts`` (path -> unsaved text) read in place of those files.

    ``complete`` also checks every variant and shipped expansion (``mason validate``'s run); without it
    only the game as loaded (its errors come first in the complete run, same place and text). Never
    raises: a failure of the checker itself is one error at the top of the game's ``game.yaml``.
    """
    from mason.model.validate import validate_game

    start, cpu = time.perf_counter(), time.thread_time()
    try:
        with overlaid(texts), _reference_path():
            program, errors = validate_game(str(target.game), (), target.expansions, complete=complete)
    except MasonError as exc:
        program, errors = None, [exc if isinstance(exc, DefinitionError) else DefinitionError(exc.message, exc.place)]
    except Exception as exc:  # noqa: BLE001 - an editor must never see the server die on a rule file
        place = Place(str(target.game / "game.yaml"), 1, 1)
        errors = [DefinitionError(f"mason could not finish checking this game: {type(exc).__name__}: {exc}", place)]
        program = None
    return Checked(list(errors), program, time.perf_counter() - start, time.thread_time() - cpu)


def _reference_path():
    """Compile without the generated fast forms: they only make play faster, decide no error (docs/dsl.md),
    and generating them was a third of a check's time."""
    try:
        from mason.dsl.fastexpr import fast_forms
    except ImportError:
        return contextlib.nullcontext()
    return fast_forms(False)


def path_of(shown: str) -> Path:
    """The file a place names (places name files relative to the working folder, or ``games/...`` for a
    shipped game outside it)."""
    p = Path(shown)
    if p.is_absolute():
        return p
    here = Path.cwd() / p
    if here.exists():
        return here.resolve()
    parts = p.parts
    if parts and parts[0] == "games" and (GAMES_DIR / Path(*parts[1:])).exists():
        return (GAMES_DIR / Path(*parts[1:])).resolve()
    return here


def rule_files(target: Target) -> list[Path]:
    """Every YAML file of the target's folders (where names are declared and used)."""
    out: list[Path] = []
    for folder in target.folders:
        try:
            out += sorted(p.resolve() for p in folder.glob("*.yaml") if p.is_file())
        except OSError:
            continue
    return list(dict.fromkeys(out))
