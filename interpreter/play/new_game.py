"""``mason new NAME [--from GAME]``: a new game folder that validates and plays at once.

Without ``--from``: a minimal playable game (``game.yaml`` and one component file, each with the schema
modeline the shipped games' YAML carry, pointing at the installed schemas), a README with the sections
the shipped games' READMEs use, and a test that validates it and plays bot games of it to the end.
With ``--from GAME``: a copy of a shipped game (its expansions too) with the new id, its modelines
pointed at the installed schemas, and the same test. An existing folder is never written over.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path

from mason.errors import MasonError
from mason.model.loader import GAMES_DIR, list_games

NAME = re.compile(r"[a-z][a-z0-9_-]*")  # a game id, as schemas/game.schema.json allows
MODELINE = re.compile(r"^# yaml-language-server: \$schema=\S*?([a-z]+\.schema\.json)\s*$", re.M)


def _schemas_dir() -> Path:
    from mason import schemas

    return Path(schemas.__file__).resolve().parent


def modeline(folder: Path, schema: str) -> str:
    """The schema modeline of a rule file in ``folder``: the installed schema, by a relative path when
    there is one (the shipped games' form), else absolute."""
    target = _schemas_dir() / schema
    try:
        path = os.path.relpath(target, folder.resolve())
    except ValueError:  # another drive (Windows)
        path = str(target)
    return f"# yaml-language-server: $schema={Path(path).as_posix()}"


def _modeline_of(folder: Path, match: re.Match) -> str:
    """A modeline matched in a rule file of ``folder``, re-pointed at the installed schema it names."""
    return modeline(folder, match.group(1))


def check_name(name: str, where) -> Path:
    """The folder to make for ``name`` in ``where``; a MasonError (one line) when the name is not a game
    id, names a shipped game, or the folder exists."""
    if not NAME.fullmatch(name):
        raise MasonError(
            f"'{name}' is not a game id: lower-case letters, digits, '-' and '_', starting with a letter",
            code="cli/usage",
        )
    if name in list_games():
        raise MasonError(f"'{name}' is a game Mason ships: choose another name (or --from {name})", code="cli/usage")
    base = Path(where)
    if not base.is_dir():
        raise MasonError(f"--dir {where}: no such directory", code="cli/usage")
    folder = base / name
    if folder.exists() or folder.is_symlink():
        raise MasonError(f"{folder} already exists: not written over (choose another name or --dir)", code="cli/usage")
    return folder


def make_game(name: str, where=".", from_game: str | None = None) -> Path:
    """Make the folder ``where/name`` (see the module's doc); return its path."""
    folder = check_name(name, where)
    if from_game is not None:
        if from_game not in list_games():
            raise MasonError(
                f"--from {from_game}: not a game Mason ships (games: {', '.join(list_games())})", code="cli/usage"
            )
        _copy_game(GAMES_DIR / from_game, folder, name, from_game)
    else:
        _write_minimal(folder, name)
    _write_test(folder, name)
    return folder


def _copy_game(source: Path, folder: Path, name: str, from_game: str) -> None:
    """A shipped game copied: every rule file's modeline pointed at the installed schemas, the id renamed."""
    try:
        shutil.copytree(source, folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "__init__.py"))
    except OSError as exc:
        raise MasonError(f"{folder}: cannot make the folder: {exc.strerror or exc}", code="cli/io") from None
    for path in folder.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        text = MODELINE.sub(functools.partial(_modeline_of, path.parent), text)
        if path == folder / "game.yaml":
            text = re.sub(rf"^id: {re.escape(from_game)}[ \t]*$", f"id: {name}", text, count=1, flags=re.M)
        elif path.name == "expansion.yaml":  # the copied expansions extend the copy
            text = re.sub(rf"^extends: {re.escape(from_game)}[ \t]*$", f"extends: {name}", text, count=1, flags=re.M)
        path.write_text(text, encoding="utf-8")
    readme = folder / "README.md"
    intro = f"Made by `mason new {name} --from {from_game}`: a copy of Mason's `{from_game}` to start from.\n\n"
    old = readme.read_text(encoding="utf-8") if readme.is_file() else f"# {name}\n"
    head, _, rest = old.partition("\n")
    readme.write_text(f"{head}\n\n{intro}{rest.lstrip()}", encoding="utf-8")


def _title(name: str) -> str:
    return re.sub(r"[-_]+", " ", name).strip().title()


def _write_minimal(folder: Path, name: str) -> None:
    try:
        folder.mkdir(parents=False)
    except OSError as exc:
        raise MasonError(f"{folder}: cannot make the folder: {exc.strerror or exc}", code="cli/io") from None
    title = _title(name)
    (folder / "game.yaml").write_text(
        GAME_YAML.format(modeline=modeline(folder, "game.schema.json"), id=name, title=title)
    )
    (folder / "cards.yaml").write_text(
        CARDS_YAML.format(modeline=modeline(folder, "components.schema.json"), title=title)
    )
    (folder / "README.md").write_text(README.format(id=name, title=title))


def _write_test(folder: Path, name: str) -> None:
    tests = folder / "tests"
    tests.mkdir(exist_ok=True)
    (tests / f"test_{name.replace('-', '_')}.py").write_text(TEST.format(id=name))


GAME_YAML = """{modeline}
# {title}: a new game made by `mason new`. The rules are in docs/rule-files.md (the keys of this file)
# and docs/dsl.md (the effects); `mason rules FOLDER` says them in words, `mason validate FOLDER` checks
# them (file:line:col), `mason play FOLDER` plays them.
id: {id}
name: {title}
status: placeholder
description: Draw cards, take coins, play cards to your table; the most points wins.
players: {{min: 2, max: 4}}

families:
  card: {{file: cards.yaml, count: 12, zone: deck, properties: {{points: {{type: int}}}}}}

counters:
  coins: {{scope: seat, start: 1}}

zones:
  deck: {{visibility: none, label: draw deck}}
  hand: {{scope: seat, visibility: owner}}
  table: {{scope: seat, visibility: all}}

setup: |
  shuffle deck
  repeat 2:
      for s in seats:
          draw 1 from deck to hand(s)

flow:
  max_rounds: 20
  until: round >= 5
  phases:
    - id: turns
      do: |
        for s in seats:
            turn s

turn:
  required: [action]
  actions:
    - {{id: draw, label: Draw a card, group: action, if: count(deck) > 0, do: draw 1 from deck to hand}}
    - {{id: take_coin, label: Take a coin, group: action, do: gain 1 coins}}
    - id: play
      label: Play a card
      group: action
      if: count(hand) > 0 and coins >= 1
      do: |
        choose card c from hand saying "Play which card?"
        pay 1 coins
        move c to table

scoring:
  parts:
    - {{id: cards, label: card points, value: "sum(c.points for c in table(s))"}}
    - {{id: coins, value: coins(s)}}
  tie_break: [coins(s)]
"""

CARDS_YAML = """{modeline}
# {title}: the cards (one entry a kind; `copies` for several alike).
family: card
components:
  - {{id: one, name: One, points: 1, copies: 4}}
  - {{id: two, name: Two, points: 2, copies: 4}}
  - {{id: three, name: Three, points: 3, copies: 4}}
"""

README = """# {title}

A new game made by `mason new {id}`: 2-4 players draw cards, take coins and pay a coin to play a card
to their table; after 5 rounds the most card points (and coins) wins. Replace it with your own rules.

```sh
mason validate .                        # the rule files checked: file:line:col for every problem
mason rules .                           # the rules in words, generated from the YAML
mason play . -p 2 --bots random --seed 1
python -m pytest tests                  # validates it and plays bot games of it to the end
```

## Files

| file | what |
|---|---|
| `game.yaml` | players, the card family, counters, zones, setup, the round, the turn's actions, scoring |
| `cards.yaml` | the cards: one entry a kind, with its points and copies |
| `tests/test_{id}.py` | the game validates, and bot games of it end with a winner |

## How the rules are expressed

- A turn offers three actions of one `group` (one a turn): draw, take a coin, play a card.
- The game ends after round 5 (`flow.until`); scoring adds the card points and the coins.

## Decisions taken here

- (none yet: write here each choice the rules leave open, with its reason)

## Rules not implemented

- (none yet)
"""

TEST = '''"""{id}: the rule files validate, and bot games of it play to the end (made by `mason new`)."""

from pathlib import Path

import mason

HERE = str(Path(__file__).resolve().parent.parent)  # the game's folder


def test_the_rules_validate():
    assert [e.line() for e in mason.validate_game(HERE)] == []


def test_bot_games_play_to_the_end():
    program = mason.load_game(HERE)
    report = mason.simulate(HERE, games=5, players=program.min_players, seed=1, bots="random")
    assert report["errors"] == [] and report["completed"] == 5
'''
