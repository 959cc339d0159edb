"""The designer's commands: ``mason diff`` (what changed between two rule sets, in words) and ``mason new``
(a new game folder that validates and plays at once). Imported only when one of them is run."""

from __future__ import annotations

import json
import sys

import click

from mason.cli.common import _fail, _game_dir, load_for_cli
from mason.errors import MasonError

SIDE_SETTINGS = ("variant", "with")


def _side(settings, flag: str) -> tuple[tuple, tuple]:
    """``--a``/``--b`` SETTINGs (``variant=V``, ``with=X``) as (variants, expansions)."""
    variants: list[str] = []
    expansions: list[str] = []
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or key not in SIDE_SETTINGS or not value:
            raise MasonError(f"{flag} {item}: expected variant=V or with=X", code="cli/usage")
        (variants if key == "variant" else expansions).append(value)
    return tuple(variants), tuple(expansions)


def _named(game: str, variants, expansions) -> str:
    return game + "".join(f" --with {e}" for e in expansions) + "".join(f" --variant {v}" for v in variants)


@click.command("diff")
@click.argument("game_a")
@click.argument("game_b", required=False)
@click.option("--variant", "variants", multiple=True, help="Variant applied to both sides (with one game: to B only).")
@click.option("--with", "expansions", multiple=True, help="Expansion added to both sides (with one game: to B only).")
@click.option("--a", "a_settings", multiple=True, metavar="SETTING", help="A's own: variant=V or with=X (repeatable).")
@click.option("--b", "b_settings", multiple=True, metavar="SETTING", help="B's own: variant=V or with=X (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the differences as one JSON object.")
def diff_cmd(game_a, game_b, variants, expansions, a_settings, b_settings, as_json):
    """What changed from rule set A to B, in words: two game folders (or ids), or a game and its
    variants (`mason diff GAME --variant V`, `mason diff GAME --a variant=X --b variant=Y`)."""
    from mason.play.rules_diff import diff_lines, rules_diff

    try:
        va, ea = _side(a_settings, "--a")
        vb, eb = _side(b_settings, "--b")
        if game_b is None and not a_settings and not b_settings:
            # one game: --variant and --with say what B adds to it
            shared_v, shared_e, vb, eb = (), (), tuple(variants), tuple(expansions)
        else:
            shared_v, shared_e = tuple(variants), tuple(expansions)
        game_b = game_a if game_b is None else game_b
        sides = []
        for game, vs, es in ((game_a, shared_v + va, shared_e + ea), (game_b, shared_v + vb, shared_e + eb)):
            prog = load_for_cli(_game_dir(game), vs, tuple(_game_dir(e, "expansion.yaml") for e in es))
            sides.append((prog, _named(game, vs, es)))
        (a, a_name), (b, b_name) = sides
        report = rules_diff(a, b)
    except MasonError as exc:
        _fail(exc)
        return
    if as_json:
        click.echo(json.dumps({"a": a_name, "b": b_name, **report}, sort_keys=True, default=str))
    else:
        click.echo("\n".join(diff_lines(report, a_name, b_name)))
    sys.exit(0)


# ------------------------------------------------------------------------- mason new
NAME_PATTERN = r"[a-z][a-z0-9_-]*"  # a game id (schemas/game.schema.json)


@click.command("new")
@click.argument("name")
@click.option("--from", "from_game", default=None, metavar="GAME", help="Start from a copy of this shipped game.")
@click.option(
    "--dir",
    "where",
    default=".",
    type=click.Path(file_okay=False),
    help="Make the folder in this directory (default: here).",
)
def new_cmd(name, from_game, where):
    """Make a new game folder NAME that validates and plays at once: game.yaml, a component file, a
    README and a test, or a copy of a shipped game (--from GAME) to start from."""
    from mason.play.new_game import make_game

    try:
        folder = make_game(name, where, from_game)
    except MasonError as exc:
        _fail(exc)
        return
    click.echo(f"made {folder}")
    click.echo(f"  mason validate {folder}")
    click.echo(f"  mason play {folder} --bots random --seed 1")
    click.echo(f"  python -m pytest {folder / 'tests'}")
    sys.exit(0)
