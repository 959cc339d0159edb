"""What the commands share: one-line failure, checked ``--option`` pairs, game folders, seat kinds."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mason.agents import BOT_KINDS, SEAT_KINDS
from mason.agents.kinds import parse_kind
from mason.errors import DefinitionErrors, MasonError, did_you_mean


def _fail(exc: MasonError) -> None:
    if isinstance(exc, DefinitionErrors):
        for line in exc.lines():
            click.echo(line, err=True)
    else:
        click.echo(exc.line(), err=True)
    sys.exit(1)


def _options(pairs, program) -> tuple:
    """``--option KEY=VALUE`` pairs, checked against the game's constants (name and type of value)."""
    out = {}
    known = program.constants
    for p in pairs:
        key, sep, value = p.partition("=")
        key = key.strip()
        if not sep or not key:
            raise MasonError(f"--option {p}: expected KEY=VALUE", code="cli/usage")
        if key not in known:
            names = ", ".join(known) or "none"
            raise MasonError(
                f"--option {p}: {program.name} has no option '{key}'{did_you_mean(key, known)} (options: {names})",
                code="cli/usage",
            )
        parsed, problem = program.option_value(key, value)  # the constant's type and range
        if problem:
            raise MasonError(f"--option {p}: {problem}", code="cli/usage")
        out[key] = parsed
    return tuple(sorted(out.items()))


def load_for_cli(game: str, variants=(), expansions=(), flag=lambda name: f"--variant {name}"):
    """The compiled game for a command, with its ``--variant`` and ``--with`` flags. An unknown variant is
    the command line's mistake, not the rule file's: one ``cli/usage`` line naming the flag (``flag``
    spells it as the user wrote it), not a place in the game's files."""
    from mason.session.game import load_program

    try:
        return load_program(game, tuple(variants), tuple(expansions))
    except DefinitionErrors as exc:
        for err in exc.errors:
            if err.code == "definition/unknown-variant":
                name = next((v for v in variants if f"'{v}'" in err.message), "")
                raise MasonError(f"{flag(name)}: {err.message}", code="cli/usage") from None
        raise


def _game_dir(name: str, marker: str = "game.yaml") -> str:
    """A game (or an expansion: ``marker`` expansion.yaml) given as a folder, as the loader finds it
    first: its absolute path; an id: itself."""
    return str(Path(name).resolve()) if (Path(name) / marker).is_file() else name


def _seat_kinds(n, bots_all, bot_seats, names=(), saved=None) -> dict:
    """Human or bot kind of each of the ``n`` players' seats; ``names`` are every seat's, automated ones
    last; ``saved`` the kinds a resumed save recorded (the flags change them)."""
    if bots_all:
        kinds = {s: bots_all for s in range(n)}
    elif saved:
        kinds = dict(enumerate(saved))
    else:
        kinds = {s: ("human" if s == 0 else "random") for s in range(n)}
    for item in bot_seats:
        seat, sep, kind = item.partition("=")
        if sep and seat.isdigit() and n < int(seat) <= len(names):
            raise MasonError(
                f"--bot {item}: seat {seat} is {names[int(seat) - 1]}, an automated seat: "
                f"the game's policy takes its decisions",
                code="cli/usage",
            )
        if not sep or not seat.isdigit() or not 1 <= int(seat) <= n:
            raise MasonError(f"--bot {item}: expected SEAT=KIND with SEAT from 1 to {n}", code="cli/usage")
        problem = kind_problem(kind, SEAT_KINDS)
        if problem:
            raise MasonError(f"--bot {item}: {problem}", code="cli/usage")
        kinds[int(seat) - 1] = kind
    return kinds


KIND_SPELLINGS = "random, greedy, mcts, mcts:N, mcts:N:dD, mcts:N:Ts"

# the help of the options every command that loads a game shares (``mason games`` lists the ids)
WITH_HELP = "Expansion to add, by id (repeatable; `mason games` lists them)."
VARIANT_HELP = "Variant to apply, by id (repeatable; `mason games` lists them)."
OPTION_HELP = "KEY=VALUE game option."


def kind_problem(kind: str, kinds=BOT_KINDS) -> str | None:
    """Why ``kind`` is not one of ``kinds`` (with the reason a budgeted spelling is wrong), or None."""
    if kind in kinds:
        return None
    try:
        parse_kind(kind)
    except MasonError as exc:
        return exc.message
    return (
        f"unknown kind '{kind}' (known: {', '.join(k for k in kinds if k not in BOT_KINDS)}"
        f"{', ' if kinds is not BOT_KINDS else ''}{KIND_SPELLINGS})"
    )


def bot_kind_option(ctx, param, value):
    """click callback of ``--bots``: a bot kind, budgeted spellings included (``mcts:500``)."""
    if value is None:
        return value
    problem = kind_problem(value)
    if problem:
        raise click.BadParameter(problem)
    return value


def ray_option():
    """The ``--ray [ADDRESS]`` option of the commands that play many games (simulate, analyze, compare)."""
    return click.option(
        "--ray",
        "ray_address",
        is_flag=False,
        flag_value="local",
        default=None,
        metavar="[ADDRESS]",
        help="Play the games as Ray tasks: --ray alone starts or joins a local Ray instance; "
        "--ray auto or --ray ray://HOST:10001 joins a cluster (docs/scaling.md).",
    )
