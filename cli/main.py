"""The ``mason`` command: games, validate, play, simulate, replay, rules (a thin layer over interpreter)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from mason.cli.common import (
    OPTION_HELP,
    VARIANT_HELP,
    WITH_HELP,
    _fail,
    _game_dir,
    _options,
    _seat_kinds,
    bot_kind_option,
    load_for_cli,
    ray_option,
)
from mason.errors import DefinitionErrors, MasonError, Place, SaveError
from mason.model.loader import list_games, load_spec
from mason.play.session import BOT_KINDS, make_bot, play_game, read_log, simulate, verify_log, write_log
from mason.runtime.values import plural
from mason.session.game import Game, Settings, players_refusal

# Modules only some commands need are imported by those commands (playing in the terminal, narration,
# saves, analyses): `mason simulate` and `mason games` start without compiling them
# (tests/engine/test_cli.py::test_simulate_imports_only_what_it_runs).
LAZY_COMMANDS = {"analyze": "analyze_cmd", "compare": "compare_cmd"}  # command -> its function in cli/analyze.py
DESIGNER_COMMANDS = {"diff": "diff_cmd", "new": "new_cmd"}  # command -> its function in cli/designer.py


class MasonGroup(click.Group):
    """A click group whose usage errors are one line (``error[cli/usage]: ...``), like every Mason error,
    and whose ``LAZY_COMMANDS`` are imported when named (or listed, for ``--help``)."""

    def list_commands(self, ctx):
        """Every command's name, the lazily imported ones included."""
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS, *DESIGNER_COMMANDS})

    def get_command(self, ctx, name):
        """The command ``name``, importing cli/analyze.py or cli/designer.py first for a lazy one."""
        if name in LAZY_COMMANDS and name not in self.commands:
            from mason.cli import analyze

            self.add_command(getattr(analyze, LAZY_COMMANDS[name]), name)
        if name in DESIGNER_COMMANDS and name not in self.commands:
            from mason.cli import designer

            self.add_command(getattr(designer, DESIGNER_COMMANDS[name]), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        """Run the command; Ctrl-C becomes one ``interrupted`` line rather than click's Abort."""
        # click turns a KeyboardInterrupt into Abort after a blank line; Ctrl-C is told in one line instead
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _CommandInterrupted() from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run the group with Mason's one-line usage errors and exit codes."""
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _CommandInterrupted:
            _interrupted()
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx else "mason"
            click.echo(f"error[cli/usage]: {exc.format_message()} (see '{where} --help')", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"error[cli/usage]: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):  # Ctrl-C while the arguments were read
                _interrupted()
            click.echo("aborted", err=True)
            sys.exit(1)
        if standalone_mode:
            sys.exit(rv if isinstance(rv, int) else 0)
        return rv


class _CommandInterrupted(Exception):
    """Ctrl-C stopped a command (a KeyboardInterrupt, carried past click's own handling)."""


def _interrupted() -> None:
    """Ctrl-C: one line, exit 130; whatever the command was doing is dropped, nothing half done is
    written as if complete (reports are printed or written only once whole)."""
    click.echo("interrupted", err=True)
    sys.exit(130)


@click.group(cls=MasonGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Mason: a declarative rules interpreter for tabletop games."""


@main.command()
def games():
    """List installed games with their player counts, variants and options."""
    for gid in list_games():
        try:
            spec = load_spec(gid)
            g = spec.game
            from mason.model.program import is_declaration

            consts = (
                ", ".join(
                    f"{k}={json.dumps(v['value'] if is_declaration(v) else v)}"
                    for k, v in (g.get("constants") or {}).items()
                )
                or "none"
            )
            click.echo(f"{gid}: {g.get('name', gid)} ({g['players']['min']}-{g['players']['max']} players)")
            # one line a variant: its id (for --variant) and its name, the one-line description
            click.echo("    variants:" + ("" if g.get("variants") else " none"))
            for v in g.get("variants") or []:
                click.echo(f"      {v['id']}: {v.get('name') or v['id']}")
            click.echo(f"    options: {consts}")
            from mason.presentation.rules_text import data_status

            if data_status(spec):
                click.echo(f"    {data_status(spec)}")
            if g.get("automata"):
                click.echo("    automata: " + _automata_line(g["automata"]))
            from mason.model.expansions import list_expansions

            for eid in list_expansions(spec.root):
                try:
                    espec = load_spec(gid, expansions=(eid,))
                    eg = espec.game
                    extra = [k for k in (eg.get("constants") or {}) if k not in (g.get("constants") or {})]
                    click.echo(
                        f"    expansion {eid} (--with {eid}): {eg['players']['min']}-{eg['players']['max']} "
                        f"players" + (f"; options: {', '.join(extra)}" if extra else "")
                    )
                except MasonError:
                    click.echo(f"    expansion {eid}: does not load (see mason validate {gid} --with {eid})")
        except MasonError as exc:
            click.echo(
                f"{gid}: does not load ({exc.line() if not isinstance(exc, DefinitionErrors) else exc.lines()[0]})"
            )


def _automata_line(automata: dict) -> str:
    """``Rival (at 1 player, placeholder)``, ... for ``mason games``."""
    out = []
    for aid, a in automata.items():
        counts = a.get("players") or []
        word = "player" if counts == [1] else "players"
        status = f", {a['status']}" if a.get("status") and a["status"] != "exact" else ""
        out.append(f"{a.get('name', aid)} (at {'/'.join(str(n) for n in counts)} {word}{status})")
    return ", ".join(out)


@main.command()
@click.argument("targets", nargs=-1, required=True)
@click.option("--with", "expansions", multiple=True, help=WITH_HELP)
@click.option("--variant", "variants", multiple=True, help=VARIANT_HELP)
def validate(targets, expansions, variants):
    """Validate games (ids or folders): errors as file:line:col lines, exit 1 on any."""
    from mason.model.validate import validate_game

    bad = False
    for target in targets:
        try:
            program, errors = validate_game(target, variants, expansions, complete=True)
        except MasonError as exc:
            click.echo(exc.line(), err=True)
            bad = True
            continue
        if errors:
            bad = True
            for e in errors:
                click.echo(e.line(), err=True)
            click.echo(f"{target}: {len(errors)} error{'s' if len(errors) != 1 else ''}", err=True)
            continue
        assert program is not None  # no errors: the program compiled
        cards = len(program.instances)
        rules = (
            len(program.actions)
            + sum(len(v) for v in program.abilities.values())
            + sum(len(v) for v in program.triggers.values())
            + len(program.modifiers)
        )
        click.echo(
            f"{target}: valid - {program.name}, {program.min_players}-{program.max_players} players, "
            f"{len(program.types)} component types ({cards} cards), {rules} actions/triggers/modifiers, "
            f"{len(program.nodes)} compiled nodes"
        )
    sys.exit(1 if bad else 0)


@main.command()
@click.argument("game")
@click.option("-p", "--players", type=int, default=None, help="Number of players (default: the minimum).")
@click.option(
    "--seed", default=None, help="Random seed (default: a fresh one, shown in the save, the log and the final summary)."
)
@click.option(
    "--bots",
    "bots_all",
    callback=bot_kind_option,
    default=None,
    metavar="KIND",
    help="Every seat is a bot of this kind: random, greedy, mcts or mcts:N (N iterations a decision; "
    "docs/bots.md). Default: seat 1 human, others random.",
)
@click.option(
    "--bot",
    "bot_seats",
    multiple=True,
    help="SEAT=KIND, e.g. 2=random or 3=mcts:50 (seats from 1); 2=human: hot seat, the screen is cleared between seats.",
)
@click.option("--with", "expansions", multiple=True, help=WITH_HELP)
@click.option("--variant", "variants", multiple=True, help=VARIANT_HELP)
@click.option("--option", "options", multiple=True, help=OPTION_HELP)
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the event log (JSONL).")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    help="Save file for quit, end of input and Ctrl-C (default: mason-save.json, never another game's).",
)
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    help="Resume a saved game (its settings and seats come from the save).",
)
@click.option(
    "--rules-changed",
    is_flag=True,
    help="With --resume: go on under the rule files as they are now, when they changed since the save and "
    "the saved game still fits them (the log records the change).",
)
@click.option("--quiet", is_flag=True, help="Print only the final scores.")
def play(**params):
    """Play a game in the terminal, against bots or hot-seat (seat 1 human unless --bots)."""
    request = PlayRequest(**params)
    try:
        if request.rules_changed and not request.resume_path:
            raise MasonError("--rules-changed is for --resume SAVE (a saved game to go on with)", code="cli/usage")
        _play(request)
    except MasonError as exc:
        _fail(exc)


@dataclass(frozen=True)
class PlayRequest:
    """What ``mason play`` was asked, as its options parse (one field an option, named as the option's
    parameter): handed to ``_play`` whole, so the two cannot disagree on a list of arguments."""

    game: str
    players: int | None = None
    seed: str | None = None
    bots_all: str | None = None
    bot_seats: tuple[str, ...] = ()
    expansions: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    log_path: str | None = None
    save_path: str | None = None
    resume_path: str | None = None
    rules_changed: bool = False
    quiet: bool = False


def _play(request: PlayRequest) -> None:
    """``mason play`` as ``request`` says: a new or resumed game, played to its end or a stop."""
    from mason.agents.human import HumanAgent, QuitRequested
    from mason.presentation.render import narration, render_result
    from mason.session.saves import SaveTarget, check_target

    if request.resume_path:
        _refuse_settings_with_resume(
            request.players, request.seed, request.variants, request.expansions, request.options
        )
    _check_targets(request.log_path, request.save_path, request.resume_path)
    if request.resume_path:
        g = _load_save(request.resume_path, request.rules_changed)
        if g.settings.game != request.game and _game_dir(request.game) != g.settings.game:
            raise MasonError(
                f"{request.resume_path} is a game of '{g.settings.game}', not '{request.game}'", code="cli/usage"
            )
    else:
        prog = load_for_cli(request.game, request.variants, request.expansions)
        n = prog.min_players if request.players is None else request.players
        # a game or an expansion given as a folder is recorded by its absolute path, so that the save
        # resumes and the log replays from any directory
        settings = Settings(
            _game_dir(request.game),
            n,
            fresh_seed() if request.seed is None else _seed(request.seed),
            tuple(request.variants),
            tuple(_game_dir(e, "expansion.yaml") for e in request.expansions),
            _options(request.options, prog),
        )
        g = _new_game(settings, request.log_path, request.quiet)
    n = g.settings.players  # the players' seats; automated seats (after them) need no agent
    saved = g.seats if request.resume_path else None
    kinds = _seat_kinds(n, request.bots_all, request.bot_seats, g.seat_names(), saved=saved)
    g.seats = [kinds[s] for s in range(n)]
    humans = [s for s in range(n) if kinds[s] == "human"]
    target = SaveTarget(
        request.save_path or request.resume_path, default=not (request.save_path or request.resume_path)
    )
    if humans and target.default:
        try:
            check_target(target.path, "the default save file")
        except MasonError as exc:
            raise MasonError(f"{exc.message} (give --save FILE)", code="cli/usage") from None
    if request.resume_path:
        target.written = True  # the resumed save is this game's own: written over
        click.echo(
            f"resumed {g.program.name} from {request.resume_path} (round {g.state['round']}, "
            f"{g.state['decisions']} decisions so far)"
        )
        if saved and (request.bots_all or request.bot_seats):
            _notice_seats(g.seat_names(), saved, kinds)
    interrupts = _Interrupts()
    # hot seat (several human seats): the screen is cleared and the terminal handed over between seats
    human = HumanAgent(interrupts.read_line, click.echo, target, clear=_clear_screen if len(humans) > 1 else None)
    if request.resume_path:
        human.resume_from(g)
    agents = {s: human if kinds[s] == "human" else make_bot(kinds[s], g.settings.seed, s) for s in range(n)}
    # with no human at the table, narrate everything public as it happens
    printed = [len(g.log) if request.resume_path else 0]

    def narrate(game_):
        if not humans and not request.quiet:
            for line in narration(game_.log, None, printed[0], scores=False):
                click.echo(line)
        printed[0] = len(game_.log)

    def after_answer(game_):
        narrate(game_)
        if not game_.over:
            interrupts.check()  # a Ctrl-C while bots played stops here, between two decisions

    if not request.resume_path and not request.quiet:
        # the one who typed the command knows the settings; a fresh seed is not shown before the end,
        # where it would let a player rebuild the hidden hands from a second run
        st = g.settings
        click.echo(
            f"{st.game} with {plural(st.players, 'player')}"
            + (f", seed {st.seed}" if request.seed is not None else "")
            + "".join(f", with {e}" for e in st.expansions)
            + "".join(f", variant {v}" for v in st.variants)
            + (", automated: " + ", ".join(g.seat_names()[n:]) if g.seat_names()[n:] else "")
        )
        from mason.presentation.rules_text import data_status

        if data_status(g.program.spec):
            click.echo(f"Note: {data_status(g.program.spec)}.")
    narrate(g)
    with interrupts:
        try:
            play_game(g, agents, on_answer=after_answer)
        except QuitRequested as stop:
            if request.log_path:
                write_log(g, request.log_path)
            if stop.error:
                raise stop.error from None
            sys.exit(interrupts.exit_code() if stop.reason in STOP_REASONS.values() else 0)
        except Interrupted:
            _stop_interrupted(g, target, request.log_path, interrupts)
        except OSError as exc:
            if not interrupts.hung_up(exc):  # not the terminal gone: a bug in Mason, reported below
                _stop_with_error(g, exc, request.log_path, human, humans, request.quiet)
                raise
            _stop_interrupted(g, target, request.log_path, interrupts)
        except MasonError as exc:
            _stop_with_error(g, exc, request.log_path, human, humans, request.quiet)
            raise
        except Exception as exc:  # a bug in Mason: still keep the log, then report it
            _stop_with_error(g, exc, request.log_path, human, humans, request.quiet)
            raise
        except KeyboardInterrupt:  # a second Ctrl-C (or signal) while the rules ran: the person insists
            click.echo(f"{interrupts.reason()} twice: stopped at once, without saving", err=True)
            sys.exit(interrupts.exit_code())
    if humans and not request.quiet:
        human.catch_up(g, humans)
    if request.log_path:
        write_log(g, request.log_path)
    if not request.quiet or request.seed is None:  # --quiet prints only the scores, and a seed that was not given
        click.echo(f"Game over; seed {g.settings.seed} (--seed {g.settings.seed} deals this game again)")
    assert g.result is not None  # the game is over
    click.echo(render_result(g.program, g.result, g.seat_names()))
    if request.save_path:
        g.save(request.save_path)


def _clear_screen() -> None:
    """Clear the terminal (hot seat); when the output is no terminal (a pipe, a file), a blank line."""
    if sys.stdout.isatty():
        click.clear()
    else:
        click.echo("")


def fresh_seed() -> int:
    """A new random seed for a game started without --seed (never the same default twice)."""
    import secrets

    return secrets.randbelow(10**12)


def _new_game(settings, log_path, quiet=False) -> Game:
    """Start the game; an error during setup still writes the log (with the error entry) when asked,
    and shows the public part of what happened (unless --quiet)."""
    from mason.presentation.render import narration

    try:
        return Game.new(settings)
    except MasonError as exc:
        partial = getattr(exc, "game", None)
        if partial is not None:
            partial.record_error(exc)
            if log_path:
                with contextlib.suppress(MasonError):
                    write_log(partial, log_path)
            if not quiet:
                click.echo("-- so far --")
                click.echo("\n".join(narration(partial.log, None, scores=False)[-40:]))
        raise


def _refuse_settings_with_resume(players, seed, variants, expansions, options) -> None:
    given = [
        flag
        for flag, v in (
            ("-p", players),
            ("--seed", seed),
            ("--variant", variants),
            ("--with", expansions),
            ("--option", options),
        )
        if v
    ]
    if given:
        raise MasonError(
            f"{', '.join(given)} cannot be given with --resume: the save holds the game's settings "
            "(players, seed, variants, expansions, options)",
            code="cli/usage",
        )


def _check_targets(log_path, save_path, resume_path) -> None:
    """Refuse, before the game starts, a --log or --save that could not be written or would clash."""
    from mason.session.saves import check_target

    if log_path and save_path and Path(log_path).resolve() == Path(save_path).resolve():
        raise MasonError(f"--log and --save name the same file {log_path}", code="cli/usage")
    if log_path and resume_path and Path(log_path).resolve() == Path(resume_path).resolve():
        raise MasonError(f"--log {log_path} would write over the save being resumed", code="cli/usage")
    if log_path:
        check_target(log_path, "--log")
    if save_path:
        check_target(save_path, "--save")


def _notice_seats(names, saved, kinds) -> None:
    """Say which seats the flags give to someone else than the save did."""
    changed = [f"{names[s]} {saved[s]} -> {kinds[s]}" for s in range(len(saved)) if saved[s] != kinds[s]]
    if changed:
        click.echo("note: seats changed from the save: " + ", ".join(changed))


def _stop_interrupted(g, target, log_path, interrupts) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP) while bots played: save the game as it stood after the last decision,
    then stop with 128 + the signal's number."""
    why = interrupts.reason()
    if log_path:
        with contextlib.suppress(MasonError):
            write_log(g, log_path)
    try:
        path = target.write(g)
    except MasonError as exc:
        raise MasonError(f"{why}: could not save the game: {exc.message}", code="play/save") from None
    note = f" ({target.note})" if target.note else ""
    click.echo(f"{why}: game saved to {path}{note}; resume with --resume {path}")
    sys.exit(interrupts.exit_code())


def _stop_with_error(g, exc, log_path, human, humans, quiet) -> None:
    """The game stopped with an error: end the log with it, write it, and show what happened since the
    last decision (each human seat as it may see it; nothing more with --quiet)."""
    from mason.presentation.render import narration

    g.record_error(exc)
    if log_path:
        with contextlib.suppress(MasonError):
            write_log(g, log_path)
    if quiet:
        return
    if humans:
        human.catch_up(g, humans)
    else:
        lines = narration(g.log, None, _last_decision(g.log), scores=False)
        click.echo("-- since the last decision --")
        click.echo("\n".join(lines[-40:]))


def _last_decision(log) -> int:
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("type") == "decision":
            return i + 1
    return 0


def _load_save(path, rules_changed: bool = False) -> Game:
    """The saved game to resume (``rules_changed``: under the rule files as they are now, said in one line)."""
    try:
        g = Game.load(path, rules_changed=rules_changed)
        if rules_changed:
            last = g.log[-1] if g.log else {}
            if last.get("type") == "rules_changed" and last.get("decisions") == g.state["decisions"]:
                click.echo(
                    f"the rules changed since the save ({last['previous']} -> {last['rules']}): going on under them"
                )
            else:
                click.echo("note: the rules have not changed since the save")
        return g
    except SaveError:
        raise
    except MasonError as exc:  # the save names a game that does not load here
        raise SaveError(f"{path}: the save's game does not load: {exc.line()}") from None


def _seed(seed: str):
    return int(seed) if seed.lstrip("-").isdigit() else seed


def _read_line():
    """A line the person typed (None at the end of input), its control characters shown as U+FFFD.

    Read as bytes and decoded line by line, bytes that are not text in the terminal's encoding becoming
    U+FFFD: a text stream that meets them raises for the whole chunk it read, so the lines after them
    in a pipe were lost (or read again and again, by a stream that does not move on)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text-only stream (an embedding program's)
        try:
            line = sys.stdin.readline()
        except UnicodeDecodeError:  # bytes that are not text: an answer that matches nothing
            return "\ufffd\n"
    else:
        raw = stream.readline()
        if raw.endswith(b"\r\n"):  # (as a text stream reads it)
            raw = raw[:-2] + b"\n"
        line = raw.decode(sys.stdin.encoding or "utf-8", errors="replace")
    return None if line == "" else printable(line)


# control characters (but tab) and the Unicode line and paragraph separators: a refusal that echoed
# one would break its line, clear the screen or move the cursor (an escape sequence)
_UNPRINTABLE = {c: "\ufffd" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029] if c != 0x09}


def printable(line: str) -> str:
    """``line`` with each control character (but tab) replaced by U+FFFD, its final newline kept: no
    option, name or command holds one, so the answer still matches nothing, and echoing it back
    (``not accepted: no option '...'``) stays one line on the screen."""
    end = "\n" if line.endswith("\n") else ""
    return line[: len(line) - len(end)].translate(_UNPRINTABLE) + end


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM, SIGHUP) while no one was at a prompt: the game stops after the decision in progress."""


# the signals a game in play stops on as Ctrl-C stops it (saved first), and the word each is told with;
# SIGHUP (the terminal closed) and SIGTERM (a shutdown, `kill`) would otherwise end the process unsaved
STOP_REASONS = {"SIGINT": "interrupted", "SIGTERM": "terminated", "SIGHUP": "hung up"}


class _Stopped(KeyboardInterrupt):
    """A stop signal at a person's prompt: a KeyboardInterrupt (the human agent saves, as at Ctrl-C)
    that says which signal it was."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _Interrupts:
    """Ctrl-C, SIGTERM and SIGHUP during play. At a person's prompt a signal interrupts the reading at
    once (the human agent saves, as ``quit`` does); while the rules or bots run, it waits for the current
    decision to finish, so the game is saved whole; a second signal stops at once without saving. The
    process then exits with 128 + the first signal's number (130 for Ctrl-C). SIGHUP means the terminal
    is gone: the standard streams that were that terminal are pointed at /dev/null first, so the save
    is not lost to a write that fails."""

    def __init__(self):
        self.at_prompt = False
        self.requested = False
        self.signum: int | None = None  # the first stop signal received
        self.previous: dict = {}
        self.terminal: list[int] = []  # the standard streams that are a terminal (a hung-up one no longer says so)

    def __enter__(self):
        self.terminal = [fd for fd in (0, 1, 2) if _isatty(fd)]
        for name in STOP_REASONS:
            signum = getattr(signal, name, None)
            if signum is None:  # no SIGHUP on Windows
                continue
            try:
                self.previous[signum] = signal.signal(signum, self._handler)
            except ValueError:  # not the main thread (an embedding program): leave the signals alone
                break
        return self

    def __exit__(self, *exc):
        for signum, previous in self.previous.items():
            signal.signal(signum, previous)
        self.previous = {}
        return False

    def _handler(self, signum, frame):
        if signum == getattr(signal, "SIGHUP", None):
            _detach(self.terminal)
        if self.signum is None:
            self.signum = signum
        if self.at_prompt or self.requested:
            raise _Stopped(self.reason())
        self.requested = True

    def hung_up(self, exc: OSError) -> bool:
        """Whether ``exc`` (reading or writing the terminal failed with EIO) says the terminal is gone,
        before its SIGHUP came through; if so, stop as SIGHUP would."""
        import errno

        if exc.errno != errno.EIO or not self.terminal:
            return False
        _detach(self.terminal)
        if self.signum is None:
            self.signum = getattr(signal, "SIGHUP", signal.SIGTERM)
        return True

    def reason(self) -> str:
        return STOP_REASONS.get(signal.Signals(self.signum or signal.SIGINT).name, "interrupted")

    def exit_code(self) -> int:
        return 128 + int(self.signum or signal.SIGINT)

    def check(self):
        if self.requested:
            raise Interrupted()

    def read_line(self):
        self.at_prompt = True
        try:
            if self.requested:
                raise _Stopped(self.reason())
            return _read_line()
        finally:
            self.at_prompt = False


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _detach(fds) -> None:
    """Point the standard streams ``fds`` (those that were the terminal) at /dev/null: the terminal hung
    up, so reading it ends and writing to it fails."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    for fd in fds:
        with contextlib.suppress(OSError):
            os.dup2(null, fd)
    os.close(null)


@main.command()
@click.argument("game")
@click.option("-n", "--games", "n_games", type=click.IntRange(min=1), required=True, help="Number of games.")
@click.option(
    "-p",
    "--players",
    default=None,
    help="Number of players, or a range A-B: mixed counts, game i played by A + i mod (B - A + 1).",
)
@click.option("--seed", type=int, default=1, help="Seed of the first game; the next games count up.")
@click.option(
    "--bots",
    callback=bot_kind_option,
    default="random",
    metavar="KIND",
    help="Every seat's bot: random, greedy, mcts or mcts:N (docs/bots.md).",
)
@click.option(
    "--bot", "bot_seats", multiple=True, help="SEAT=KIND, e.g. 2=greedy or 1=mcts:20: that seat's bot (seats from 1)."
)
@click.option("--with", "expansions", multiple=True, help=WITH_HELP)
@click.option("--variant", "variants", multiple=True, help=VARIANT_HELP)
@click.option("--option", "options", multiple=True, help=OPTION_HELP)
@click.option("--workers", type=click.IntRange(min=1), default=1, help="Worker processes.")
@ray_option()
@click.option(
    "--ray-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="S",
    help="Seconds the Ray cluster at --ray ADDRESS has to answer before it is given up (default 30).",
)
@click.option("--coverage", is_flag=True, help="Count how often each ability, trigger and modifier fired.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report.")
def simulate_cmd(
    game,
    n_games,
    players,
    seed,
    bots,
    bot_seats,
    expansions,
    variants,
    options,
    workers,
    ray_address,
    ray_timeout,
    coverage,
    as_json,
):
    """Play many bot games and report results, errors and statistics."""
    try:
        if ray_timeout is not None and ray_address is None:
            raise MasonError("--ray-timeout is for --ray", code="cli/usage")
        prog = load_for_cli(game, variants, expansions)
        counts = _player_counts(players, prog, variants)
        base = Settings(game, counts[0], seed, tuple(variants), tuple(expansions), _options(options, prog))
        seat_bots = {s: k for s, k in _seat_kinds(min(counts), bots, bot_seats).items() if k != bots}
        if "human" in seat_bots.values():
            raise MasonError(
                "simulate plays bots only: --bot SEAT=KIND takes " + ", ".join(BOT_KINDS), code="cli/usage"
            )
        ray = None
        if ray_address is not None:
            from mason.play.parallel import RAY_TIMEOUT, connect_ray

            ray = True if ray_address == "local" else ray_address
            # before any game, and bounded: a missing Ray, an address that does not answer, a cluster
            # that does not come up in time are each one line
            connect_ray(ray, timeout=RAY_TIMEOUT if ray_timeout is None else ray_timeout)
        report = simulate(base, n_games, bots, workers, coverage, counts if len(counts) > 1 else (), seat_bots, ray=ray)
    except MasonError as exc:
        _fail(exc)
        return
    if coverage:
        report["coverage"] = _coverage_report(prog, report.get("coverage") or {})
    if report["seconds"]:
        report["stats"]["decisions_per_second"] = round(report["decisions"] / report["seconds"], 1)
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
    else:
        st = report["stats"]
        stalled = report["stalled"]
        click.echo(
            f"{report['completed']}/{report['games']} games completed in {report['seconds']} s, "
            f"{report['decisions']} decisions"
            + (f"; {len(stalled)} stalled (not ended by the rules)" if stalled else "")
        )
        if st.get("win_rate_by_seat"):
            names = report.get("seat_names") or [f"P{i + 1}" for i in range(len(st["win_rate_by_seat"]))]
            wins, means = st["win_rate_by_seat"], st["mean_score_by_seat"]
            click.echo("win rate by seat: " + ", ".join(f"{names[i]} {w:.1%}" for i, w in enumerate(wins)))
            click.echo("mean score by seat: " + ", ".join(f"{names[i]} {m}" for i, m in enumerate(means)))
            click.echo(
                f"scores {st['score_min']}..{st['score_max']}; rounds {st['min_rounds']}..{st['max_rounds']} "
                f"(mean {st['mean_rounds']})"
            )
        for e in report["errors"][:20]:
            click.echo(f"error (seed {e['seed']}): {e['message']}", err=True)
        for e in stalled[:20]:
            click.echo(f"stalled (seed {e['seed']}): {e['message']}", err=True)
        if coverage:
            never = report["coverage"]["never"]
            click.echo(f"coverage: {len(report['coverage']['fired'])} fired, {len(never)} never fired")
            forms = report["coverage"]["fast_forms"]
            click.echo(
                f"fast forms: {forms['made']} expressions made, {forms['declined']} declined;"
                f" {forms['blocks_generated']} of {forms['blocks']} blocks generated"
                + ("" if forms["on"] else " (off: every construct runs its reference path)")
            )
            for item in never:
                click.echo(f"  never fired: {item['key']} at {item['at']}")
    sys.exit(1 if report["errors"] or not report["completed"] else 0)  # (a stalled game is no error)


main.add_command(simulate_cmd, "simulate")


def _player_counts(text, prog, variants=()) -> tuple:
    """``-p N`` or ``-p A-B`` (every count from A to B, in turn); the minimum when not given."""
    text = str(prog.min_players if text is None else text).strip()
    lo, sep, hi = text.partition("-")
    try:
        counts = tuple(range(int(lo), int(hi) + 1)) if sep else (int(lo),)
    except ValueError:
        raise MasonError(f"-p {text}: expected a number of players or a range like 2-8", code="cli/usage") from None
    bad = [n for n in counts if not prog.min_players <= n <= prog.max_players]
    if not counts or bad:
        raise players_refusal(prog, text, variants)
    return counts


def _coverage_report(prog, counts: dict) -> dict:
    items = []
    for a in prog.actions:
        items.append((f"game.{a.key}", a.place))
    for tid, lst in prog.abilities.items():
        for a in lst:
            items.append((f"{tid}.{a.key}", a.place))
    for lst in prog.triggers.values():
        for t in lst:
            items.append((t.key, t.place))
    for m in prog.modifiers:
        items.append((m.key, m.place))
    fired = {k: counts.get(k, 0) for k, _ in items if counts.get(k)}
    never = [{"key": k, "at": f"{p.file}:{p.line}"} for k, p in items if not counts.get(k)]
    return {"fired": fired, "never": never, "fast_forms": _fast_forms(prog)}


def _fast_forms(prog) -> dict:
    """How many of the program's expressions run a generated fast form and how many its generator
    declined (they stay on the reference path), and how many of its blocks run as generated functions
    when the rules run direct; ``on`` false: every construct runs the reference path."""
    forms = dict(prog.fast_forms or {"on": prog.fast, "made": 0, "declined": 0})
    blocks = [n for n in prog.nodes if n.kind == "block"]
    forms["blocks"] = len(blocks)
    forms["blocks_generated"] = sum(1 for n in blocks if getattr(n, "direct", None) is not None)
    return forms


@main.command("replay")
@click.argument("log_path", type=click.Path(dir_okay=False))
@click.option("--quiet", is_flag=True, help="Only verify; do not show the game.")
@click.option(
    "--rules",
    "rules_path",
    default=None,
    metavar="PATH",
    help="Replay the answers under these rules (a game folder or id) and report the first divergence.",
)
@click.option(
    "--variant", "variants", multiple=True, help="Replay under the log's rules with this variant added (repeatable)."
)
@click.option(
    "--with", "expansions", multiple=True, help="Replay under the log's rules with this expansion added (repeatable)."
)
@click.option("--json", "as_json", is_flag=True, help="With --rules/--variant/--with: the report as one JSON object.")
def replay_cmd(log_path, quiet, rules_path, variants, expansions, as_json):
    """Re-run a game log, verify that it reproduces exactly, and show it; with --rules, --variant or
    --with, replay its answers under other rules and report where the game first diverges."""
    from mason.presentation.render import narration, render_result

    if rules_path is not None or variants or expansions:
        _replay_other_rules(log_path, rules_path, variants, expansions, as_json)
        return
    try:
        if as_json:
            raise MasonError("--json is for a replay under other rules (--rules, --variant, --with)", code="cli/usage")
        entries = read_log(log_path)
        game, index, reason = verify_log(entries)
    except MasonError as exc:
        _fail(exc)
        return
    if index is not None:
        lines = getattr(entries, "lines", None) or list(range(1, len(entries) + 1))
        line = lines[index] if index < len(lines) else lines[-1] + 1
        _fail(MasonError(str(reason), Place(str(log_path), line, 1), code="replay/differs"))
    if not quiet:
        for line in narration(game.log, None, scores=False):
            click.echo(line)
        if game.over and game.result is not None:  # (an ended game has its result)
            click.echo(render_result(game.program, game.result, game.seat_names()))
    last = game.log[-1] if game.log else {}
    state = (
        "to the end of the game"
        if game.over
        else f"to the error that stopped the game ({last.get('message')})"
        if last.get("type") == "error"
        else "(the game was not finished)"
    )
    click.echo(f"replay OK: {len(entries)} entries, {len(game.answers())} decisions reproduced {state}")


def _replay_other_rules(log_path, rules_path, variants, expansions, as_json) -> None:
    """``mason replay LOG --rules PATH | --variant V | --with X``: the first divergence, in words or JSON."""
    from mason.play.divergence import diverge, other_settings, report_lines

    try:
        entries = read_log(log_path)
        logged = Settings.from_json(entries[0]["settings"])
        settings = other_settings(
            logged,
            _game_dir(rules_path) if rules_path is not None else None,
            variants,
            tuple(_game_dir(e, "expansion.yaml") for e in expansions),
        )
        load_for_cli(settings.game, settings.variants, settings.expansions)  # the other rules load: else one line
        report = diverge(entries, settings)
    except MasonError as exc:
        _fail(exc)
        return
    shown = " ".join(
        ([rules_path] if rules_path is not None else [f"the log's rules ({logged.game})"])
        + [f"--variant {v}" for v in variants]
        + [f"--with {e}" for e in expansions]
    )
    if as_json:
        click.echo(json.dumps({"log": str(log_path), "under": shown, **report}, sort_keys=True))
        return
    click.echo("\n".join(report_lines(report, str(log_path), shown, getattr(entries, "lines", None))))


@main.command("explain")
@click.argument("log_path", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, help="Explain as this seat (from 1) may know it; default: public only.")
@click.option("--entry", type=int, default=None, help="The entry to explain (its index in the log, from 0).")
def explain_cmd(log_path, seat, entry):
    """Why a change happened: the chain of causes behind the log's changes, as one seat may know it."""
    from mason.presentation.explain import explain, not_offered, replay_to

    try:
        entries = read_log(log_path)
        try:
            seats = next(
                (
                    len(next(iter(e["counters"].values()), ()))
                    for e in entries
                    if e.get("type") == "digest" and e.get("counters")
                ),
                0,
            )
            seats = seats or entries[0]["settings"].get("players", 0)
            if seat is not None and not 1 <= seat <= seats:
                raise MasonError(f"no seat {seat}: the game has seats 1 to {seats}", code="cli/usage")
            s = None if seat is None else seat - 1
            lines = explain(entries, s, entry)
            if (
                entry is not None
                and entries[entry].get("type") == "decision"
                and entries[entry].get("kind") == "action"
            ):
                lines += ["  " + x for x in not_offered(replay_to(entries, entry))]
        except (TypeError, KeyError, AttributeError, IndexError, ValueError) as exc:  # entries not as written
            raise _damaged_log(log_path, entries, exc) from None
    except MasonError as exc:
        _fail(exc)
        return
    click.echo("\n".join(lines) if lines else "nothing this seat may read changed a counter")


def _damaged_log(path, entries, exc: Exception) -> SaveError:
    """A log that ``mason explain`` could not read as the game writes it: its first entry that
    ``schemas/log.schema.json`` refuses, in one line at its place (only the start entry is checked before
    use: checking every entry would cost more than explaining them); else the failure, which may be
    Mason's own."""
    from mason.session.saves import log_entry_problem

    lines = getattr(entries, "lines", None) or list(range(1, len(entries) + 1))
    for i, e in enumerate(entries):
        problem = log_entry_problem(e)
        if problem:
            return SaveError(f"{path}:{lines[i]}:1: the log's entry is damaged: {problem}")
    # every entry fits the schema: damage the schema cannot see, or a bug in explain; say both
    return SaveError(
        f"{path}: cannot explain this log ({type(exc).__name__}: {exc}): an entry is not as the game wrote"
        " it, or, if the log is Mason's own, this is a bug in Mason"
    )


@main.command()
@click.argument("game")
@click.option("--with", "expansions", multiple=True, help=WITH_HELP)
@click.option("--variant", "variants", multiple=True, help=VARIANT_HELP)
@click.option("--source", is_flag=True, help="Show each rule's DSL, as written, after its words.")
def rules(game, expansions, variants, source):
    """Print the rules of a game as a rulebook, generated from its YAML."""
    from mason.presentation.rules_text import rules_text

    try:
        prog = load_for_cli(game, variants, expansions)
    except MasonError as exc:
        _fail(exc)
        return
    click.echo(rules_text(prog, source=source), nl=False)


@main.command()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (127.0.0.1: this machine only)."
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default="mason-games.sqlite",
    show_default=True,
    help="The SQLite file the games are kept in (created if missing).",
)
def serve(host, port, db):
    """Play in a browser: a lobby, per-seat links, bots, live updates (docs/web.md)."""
    import socket
    import sqlite3

    import uvicorn

    from mason.web.app import create_app

    try:  # the address first: a port in use is one line before anything is printed
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        raise MasonError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", code="serve/address") from None
    try:
        app = create_app(db)
    except sqlite3.Error as exc:
        raise MasonError(f"{db}: cannot open the games database: {exc}", code="serve/db") from None
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"mason serve: open http://{shown}:{port}/ (games kept in {db}; Ctrl-C stops)")
    # a WebSocket message over 1 MiB closes the socket; the app refuses one over 16 KiB with a message
    config = uvicorn.Config(app, log_level="warning", ws_max_size=1024 * 1024, ws_per_message_deflate=False)
    uvicorn.Server(config).run(sockets=[sock])


_click_main = main


@main.command()
@click.option(
    "--stdio", is_flag=True, help="Talk over stdin and stdout (the default and only way; for editors that pass it)."
)
def lsp(stdio):
    """Language server for rule files over stdio: diagnostics as you type, completion, hover, go to
    definition (docs/editors.md)."""
    try:
        from mason.lsp.server import serve
    except ImportError as exc:
        _fail(MasonError(f"mason lsp needs pygls: pip install 'pygls>=2,<3' ({exc})"))
        return
    serve()


def run() -> None:
    """Entry point: no traceback ever reaches the user."""
    try:
        _click_main(standalone_mode=True)
    except SystemExit:
        raise
    except (KeyboardInterrupt, _CommandInterrupted):
        _interrupted()
    except MasonError as exc:
        _fail(exc)
    except Exception as exc:  # a bug in Mason: one line, non-zero exit
        click.echo(f"error[internal]: {type(exc).__name__}: {exc} (please report this)", err=True)
        sys.exit(2)


if __name__ == "__main__":
    run()
