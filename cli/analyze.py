"""``mason analyze`` and ``mason compare``: many bot games summarised, two settings compared.

The work is in ``mason.play.analytics`` (games and figures), ``mason.play.stats`` (tests) and
``mason.play.report`` (the HTML page); this module reads the command line, checks every setting and
output path before a game runs, shows the progress bar and prints the tables.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time

import click

from mason.agents import BOT_KINDS
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
from mason.errors import MasonError
from mason.play import sprt
from mason.runtime.values import plural
from mason.session.game import players_refusal

SETTING_HELP = "variant=V, option=K=V, with=X, bots=KIND or bot=SEAT=KIND"


class Side:
    """One setting's variants, expansions, options (KEY=VALUE texts) and bots."""

    def __init__(self, variants=(), expansions=(), options=(), bots="random", bot_seats=()):
        self.variants, self.expansions = list(variants), list(expansions)
        self.options, self.bots, self.bot_seats = list(options), bots, list(bot_seats)
        self.words: list[str] = []

    def add(self, flag: str, text: str) -> None:
        """Take one ``--a``/``--b`` SETTING (variant=, option=, with=, bots=, bot=) into this side."""
        kind, sep, value = text.partition("=")
        if not sep or not value or kind not in ("variant", "option", "with", "bots", "bot"):
            raise MasonError(f"{flag} {text}: expected {SETTING_HELP}", code="cli/usage")
        if kind == "variant":
            self.variants.append(value)
        elif kind == "with":
            self.expansions.append(value)
        elif kind == "option":
            self.options.append(value)
        elif kind == "bots":
            if value not in BOT_KINDS:
                raise MasonError(
                    f"{flag} {text}: unknown bot kind '{value}' (known: {', '.join(BOT_KINDS)})", code="cli/usage"
                )
            self.bots = value
        else:
            self.bot_seats.append(value)
        self.words.append(text)

    def resolve(self, game: str, players, seed: int, flag: str = ""):
        """Check everything against the game (no game is played): (Settings, bots, seat bots, program)."""
        from mason.session.game import Settings

        prog = load_for_cli(
            game,
            self.variants,
            self.expansions,
            (lambda name: f"{flag} variant={name}") if flag else (lambda name: f"--variant {name}"),
        )
        n = prog.min_players if players is None else players
        if not prog.min_players <= n <= prog.max_players:
            raise players_refusal(prog, n, self.variants)
        try:
            options = _options(self.options, prog)
            kinds = _seat_kinds(n, self.bots, self.bot_seats, names=[f"P{i + 1}" for i in range(n)])
            if "human" in kinds.values():
                raise MasonError(
                    f"--bot SEAT=KIND takes {', '.join(BOT_KINDS)}: analysis plays bots only", code="cli/usage"
                )
        except MasonError as exc:
            if flag:  # a side's setting: named as it was written (--b option=K=V, --b bot=SEAT=KIND)
                message = exc.message.replace("--option ", "option=", 1).replace("--bot ", "bot=", 1)
                raise MasonError(f"{flag} {message}", code=exc.code) from None
            raise
        seat_bots = {s: k for s, k in kinds.items() if k != self.bots}
        settings = Settings(
            _game_dir(game),
            n,
            seed,
            tuple(self.variants),
            tuple(_game_dir(e, "expansion.yaml") for e in self.expansions),
            options,
        )
        return settings, self.bots, seat_bots, prog

    def label(self) -> str:
        """The side's settings in words, for the report (``plain game`` when none)."""
        return ", ".join(self.words) or "plain game"


def _progress(total: int, hidden: bool, label: str):
    """A progress bar on stderr (None when hidden) and the ``on_done`` callback that moves it."""
    if hidden:
        return None, None
    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    bar.__enter__()
    state = {"shown": 0, "base": 0}

    def on_done(done):
        step = state["base"] + done - state["shown"]
        if step > 0:
            bar.update(step)
            state["shown"] += step

    def next_part(size):
        state["base"] += size

    on_done.__dict__["next_part"] = next_part  # a function's own attribute, read by analyze_until_decided
    return bar, on_done


def _check_html(path) -> None:
    if path:
        from mason.session.saves import check_target

        check_target(path, "--html")


def _write_html(path, text: str) -> None:
    from mason.session.saves import write_atomic

    try:
        write_atomic(path, text)
    except OSError as exc:
        raise MasonError(f"--html {path}: cannot write: {exc.strerror or exc}", code="cli/usage") from None


def _run_side(settings, bots, seat_bots, n, workers, on_done, coverage, ray=None):
    from mason.play.analytics import run_games, summarize

    t = time.perf_counter()
    results = run_games(settings, n, bots, seat_bots, workers, coverage, on_done, ray=ray)
    seconds = time.perf_counter() - t
    return summarize(settings, bots, seat_bots, results, seconds, coverage), results


def _metric(text: str, players: int) -> tuple:
    """``win``, ``score``, ``win:SEAT`` or ``score:SEAT`` (seats from 1) -> (kind, seat index)."""
    kind, _, seat = text.partition(":")
    if kind not in ("win", "score") or (seat and not seat.isdigit()):
        raise MasonError(f"--metric {text}: expected win, score, win:SEAT or score:SEAT", code="cli/usage")
    n = int(seat or 1)
    if not 1 <= n <= players:
        raise MasonError(f"--metric {text}: no seat {n} (seats 1 to {players})", code="cli/usage")
    return kind, n - 1


common = [
    click.argument("game"),
    click.option(
        "-n",
        "--games",
        "n_games",
        type=click.IntRange(min=1),
        default=None,
        help="Games per setting (or --until-decided).",
    ),
    click.option("-p", "--players", type=int, default=None, help="Number of players (default: the minimum)."),
    click.option("--seed", type=int, default=1, help="Seed of the first game; the next games count up."),
    click.option("--workers", type=click.IntRange(min=1), default=1, help="Worker processes."),
    ray_option(),
    click.option("--json", "as_json", is_flag=True, help="Print one JSON report (no tables, no progress bar)."),
    click.option("--html", "html_path", type=click.Path(), default=None, help="Write a self-contained HTML report."),
    click.option("--quiet", is_flag=True, help="No progress bar."),
    click.option(
        "--until-decided",
        is_flag=True,
        help=f"Play batches of games until a sequential test (SPRT) decides, at most --max-games "
        f"(default {sprt.MAX_GAMES}) a setting; instead of -n (docs/designers.md).",
    ),
    click.option(
        "--max-games", type=click.IntRange(min=1), default=None, help="--until-decided: games per setting at most."
    ),
    click.option(
        "--batch",
        type=click.IntRange(min=2),
        default=None,
        help=f"--until-decided: games per setting between two looks (default {sprt.BATCH}).",
    ),
    click.option(
        "--alpha",
        type=click.FloatRange(0, 1, min_open=True, max_open=True),
        default=None,
        help=f"--until-decided: the chance of finding a difference where there is none (default {sprt.ALPHA}).",
    ),
    click.option(
        "--beta",
        type=click.FloatRange(0, 1, min_open=True, max_open=True),
        default=None,
        help=f"--until-decided: the chance of missing a difference of --margin (default {sprt.BETA}).",
    ),
    click.option(
        "--margin",
        type=click.FloatRange(0, min_open=True),
        default=None,
        help=f"--until-decided: the smallest difference worth finding (H1), on the metric's raw scale: "
        f"a win rate as a fraction (default {sprt.WIN_MARGIN}, 5 rate points), a score in points "
        f"(default {sprt.SCORE_MARGIN}).",
    ),
]


class UntilDecided:
    """The --until-decided settings, checked against -n before any game."""

    def __init__(self, n_games, until, max_games, batch, alpha, beta, margin):
        given = [
            name
            for name, v in (
                ("--max-games", max_games),
                ("--batch", batch),
                ("--alpha", alpha),
                ("--beta", beta),
                ("--margin", margin),
            )
            if v is not None
        ]
        if until and n_games is not None:
            raise MasonError("-n and --until-decided exclude each other: --max-games caps the games", code="cli/usage")
        if not until and n_games is None:
            raise MasonError("give -n GAMES or --until-decided", code="cli/usage")
        if not until and given:
            raise MasonError(f"{given[0]} is for --until-decided", code="cli/usage")
        self.on = until
        self.max_games = max_games or sprt.MAX_GAMES
        self.batch = batch or sprt.BATCH
        self.alpha = sprt.ALPHA if alpha is None else alpha
        self.beta = sprt.BETA if beta is None else beta
        self.margin = margin

    def games(self, n_games) -> int:
        """The games to play: the sequential test's cap with --until-decided, else ``-n``."""
        return self.max_games if self.on else n_games

    def report(self, test, what: str, margin: float, games: int, pairs: int, count: int = 1) -> dict:
        """The sequential test's part of a report: hypotheses, levels, decision and games played."""
        return {
            "test": "two-sided SPRT (Sobel-Wald; normal approximation, variance from the data)",
            "hypotheses": sprt.hypotheses(margin, self.alpha, self.beta, what, count),
            "metric": what,
            "margin": margin,
            "alpha": self.alpha,
            "beta": self.beta,
            "batch": self.batch,
            "max_games": self.max_games,
            "games": games,
            "observations": pairs,
            "decision": test.decision,
        }


def _connect(ray_address):
    if ray_address is None:
        return None
    from mason.play.parallel import connect_ray

    ray = True if ray_address == "local" else ray_address
    connect_ray(ray)  # before any game: a missing Ray or an address that does not answer is one line
    return ray


def _common(f):
    for deco in reversed(common):
        f = deco(f)
    return f


@click.command("analyze")
@_common
@click.option(
    "--bots",
    callback=bot_kind_option,
    default="random",
    metavar="KIND",
    help="Every seat's bot (random, greedy, mcts, mcts:N).",
)
@click.option("--bot", "bot_seats", multiple=True, help="SEAT=KIND: that seat's bot (seats from 1).")
@click.option("--variant", "variants", multiple=True, help=VARIANT_HELP)
@click.option("--option", "options", multiple=True, help=OPTION_HELP)
@click.option("--with", "expansions", multiple=True, help=WITH_HELP)
def analyze_cmd(game, n_games, players, seed, workers, ray_address, as_json, html_path, quiet, **kw):
    """Play many bot games of one setting: win rates by seat, seat balance, scores, game length,
    component impact and the rules that never fired.

    --until-decided plays batches until a sequential test (SPRT) decides the seat balance:
    H0 every seat wins its equal share, H1 some seat's win rate is off it by --margin or more
    (one two-sided test a seat, --alpha shared between them)."""

    try:
        seq = UntilDecided(
            n_games, *(kw.pop(k) for k in ("until_decided", "max_games", "batch", "alpha", "beta", "margin"))
        )
        side = Side(kw["variants"], kw["expansions"], kw["options"], kw["bots"], kw["bot_seats"])
        settings, bots_, seat_bots, _ = side.resolve(game, players, seed)
        _check_html(html_path)
        ray = _connect(ray_address)
        total = seq.games(n_games)
        bar, on_done = _progress(total, as_json or quiet, plural(total, "game") + (" at most" if seq.on else ""))
        try:
            if seq.on:
                from mason.play.analytics import analyze_until_decided, summarize

                margin = seq.margin or sprt.WIN_MARGIN
                seats = len(summarize_names(settings))
                tests = sprt.Several(seats, margin, seq.alpha, seq.beta)
                t = time.perf_counter()
                results = analyze_until_decided(
                    (settings, bots_, seat_bots),
                    tests,
                    seq.batch,
                    seq.max_games,
                    workers=workers,
                    ray=ray,
                    coverage=True,
                    on_done=on_done,
                )
                report = summarize(settings, bots_, seat_bots, results, time.perf_counter() - t, True)
                report["sequential"] = seq.report(
                    tests, "a seat's win rate - its equal share", margin, len(results), tests.tests[0].n, seats
                )
                report["sequential"]["seats"] = [
                    {"seat": s, "name": row["name"], **test.to_json()}
                    for s, (row, test) in enumerate(zip(report["seats"], tests.tests))
                ]
            else:
                report, _ = _run_side(settings, bots_, seat_bots, n_games, workers, on_done, True, ray)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        if html_path:
            from mason.play.report import analyze_html

            _write_html(html_path, analyze_html(report))
    except MasonError as exc:
        _fail(exc)
        return
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
    else:
        click.echo(analyze_text(report))
        if html_path:
            click.echo(f"report written to {html_path}")
    _tell_stopped(report["errors"], report["stalled"])
    sys.exit(1 if report["errors"] or not report["completed"] else 0)  # (a stalled game is no error)


def summarize_names(settings) -> list:
    """The seats' names, automated seats included (what the seat-balance test counts)."""
    from mason.runtime.state import names_at
    from mason.session.game import load_program

    return names_at(load_program(settings.game, settings.variants, settings.expansions), settings.players)


@click.command("compare")
@_common
@click.option(
    "--bots",
    callback=bot_kind_option,
    default="random",
    metavar="KIND",
    help="Every seat's bot, both sides (random, greedy, mcts, mcts:N).",
)
@click.option(
    "--a",
    "a_settings",
    multiple=True,
    metavar="SETTING",
    help=f"Side A's setting ({SETTING_HELP}); repeatable; default: the plain game.",
)
@click.option(
    "--b", "b_settings", multiple=True, required=True, metavar="SETTING", help="Side B's setting, as --a; repeatable."
)
@click.option(
    "--metric",
    default=None,
    metavar="win|score[:SEAT]",
    help="--until-decided: what the test compares, seat by seat on the same seeds (B - A): a seat's win "
    "rate (win, the default) or mean score (score); seat 1 unless :SEAT.",
)
def compare_cmd(
    game,
    n_games,
    players,
    seed,
    workers,
    ray_address,
    as_json,
    html_path,
    quiet,
    bots,
    a_settings,
    b_settings,
    metric,
    **kw,
):
    """Play the same seeds under two settings and test each metric's difference (B - A).

    --until-decided plays batches until a sequential test (SPRT) of the --metric decides:
    H0 B - A = 0, H1 |B - A| >= --margin (two one-sided SPRTs at --alpha/2 each, power 1 - --beta)."""

    try:
        seq = UntilDecided(
            n_games, *(kw.pop(k) for k in ("until_decided", "max_games", "batch", "alpha", "beta", "margin"))
        )
        if metric is not None and not seq.on:
            raise MasonError("--metric is for --until-decided", code="cli/usage")
        sides = []
        for flag, texts in (("--a", a_settings), ("--b", b_settings)):
            side = Side(bots=bots)
            for text in texts:
                side.add(flag, text)
            sides.append((side, side.resolve(game, players, seed, flag)))
        if seq.on:  # checked before any game too
            metric = _metric(metric or "win", len(summarize_names(sides[0][1][0])))
        _check_html(html_path)
        ray = _connect(ray_address)
        total = seq.games(n_games)
        bar, on_done = _progress(
            2 * total, as_json or quiet, plural(total, "game") + " x 2" + (" at most" if seq.on else "")
        )
        try:
            if seq.on:
                out, tail = _compare_sequential(sides, seq, metric, workers, ray, on_done)
            else:
                out, tail = [], None
                for side, (settings, bots_, seat_bots, _) in sides:
                    out.append(_run_side(settings, bots_, seat_bots, n_games, workers, on_done, True, ray))
                    if on_done is not None:
                        on_done.next_part(n_games)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        from mason.play.analytics import compare

        (ra, res_a), (rb, res_b) = out
        ra["label"], rb["label"] = sides[0][0].label(), sides[1][0].label()
        report = compare(ra, rb, res_a, res_b)
        if tail is not None:
            report["sequential"] = tail
        if html_path:
            from mason.play.report import compare_html

            _write_html(html_path, compare_html(report))
    except MasonError as exc:
        _fail(exc)
        return
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
    else:
        click.echo(compare_text(report))
        if html_path:
            click.echo(f"report written to {html_path}")
    errors = report["a"]["errors"] + report["b"]["errors"]
    _tell_stopped(errors, report["a"]["stalled"] + report["b"]["stalled"])
    sys.exit(1 if errors or not (report["a"]["completed"] and report["b"]["completed"]) else 0)


def _tell_stopped(errors: list, stalled: list) -> None:
    """One line a game that stopped with an error or stalled at the round cap (20 of each at most)."""
    for e in errors[:20]:
        click.echo(f"error (seed {e['seed']}): {e['message']}", err=True)
    for e in stalled[:20]:
        click.echo(f"stalled (seed {e['seed']}): {e['message']}", err=True)


def _compare_sequential(sides, seq, metric, workers, ray, on_done):
    """Both sides played until the SPRT decides: ([(report, results)] a side, the test's report)."""
    from mason.play.analytics import compare_until_decided, summarize

    kind, seat = metric
    margin = seq.margin or (sprt.WIN_MARGIN if kind == "win" else sprt.SCORE_MARGIN)
    test = sprt.Sequential(margin, seq.alpha, seq.beta)
    t = time.perf_counter()
    res_a, res_b = compare_until_decided(
        [(s, b, sb) for _, (s, b, sb, _) in sides],
        (kind, seat),
        test,
        seq.batch,
        seq.max_games,
        workers=workers,
        ray=ray,
        coverage=True,
        on_done=on_done,
    )
    half = (time.perf_counter() - t) / 2  # both sides alternate batch by batch: each gets half the time
    out = [(summarize(s, b, sb, res, half, True), res) for (_, (s, b, sb, _)), res in zip(sides, (res_a, res_b))]
    name = out[0][0]["seats"][seat]["name"]
    what = f"{'win rate' if kind == 'win' else 'score'} {name} (B - A)"
    tail = seq.report(test, what, margin, len(res_a), test.n)
    tail.update({"seat": seat, "kind": kind, **{k: v for k, v in test.to_json().items() if k != "n"}})
    return out, tail


# ------------------------------------------------------------------------------------------ tables
def _wrap(text: str, indent: str = "") -> list:
    """A long line of prose as lines of at most WIDTH characters (tables are left as they are)."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")


def _table(headers: list, rows: list, indent: str = "") -> list[str]:
    """Columns padded to their widest cell; the first column left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    return [
        indent + "  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip()
        for r in cells
    ]


def _num(x, digits: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.{digits}f}"
    return str(int(x)) if isinstance(x, float) else str(x)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(ci, pct: bool = True) -> str:
    if not ci:
        return "-"
    return f"[{_pct(ci[0])[:-1]}, {_pct(ci[1])[:-1]}]" if pct else f"[{_num(ci[0])}, {_num(ci[1])}]"


def _p(p) -> str:
    return "-" if p is None else ("<0.001" if p < 0.001 else f"{p:.3f}")


def _q(test: dict) -> str:
    """A test's adjusted p value (false discovery rate), * when it is below alpha."""
    from mason.play.stats import significant

    q = test.get("q")
    return _p(q) + ("*" if significant(q) else "")


def _settings_line(report: dict) -> str:
    st = report["settings"]
    extra = (
        "".join(f", with {e}" for e in st.get("expansions") or [])
        + "".join(f", variant {v}" for v in st.get("variants") or [])
        + "".join(f", option {k}={json.dumps(v)}" for k, v in (st.get("options") or {}).items())
        + "".join(f", seat {s} {k}" for s, k in (st.get("seat_bots") or {}).items())
    )
    return (
        f"{st['game']}, {plural(st['players'], 'player')}, bots {st['bots']}{extra}: {report['completed']}/"
        f"{report['games']} games completed (seeds {st['seed']}..{int(st['seed']) + report['games'] - 1})"
        + (f" in {report['seconds']} s" if report.get("seconds") is not None else "")
    )


TOP_TYPES = 8
WIDTH = 100  # prose lines of the text report wrap here (a terminal of 100 columns or more shows them whole)


def analyze_text(report: dict) -> str:
    """The analysis report as terminal text: seat balance, lengths, components, coverage."""
    out = [_settings_line(report), ""]
    out += _table(
        ["seat", "bot", "win rate", "95% CI", "mean score", "sd", "min", "q1", "median", "q3", "max"],
        [
            [
                s["name"],
                s["bot"],
                _pct(s["win_rate"]),
                _ci(s["ci95"]),
                _num(s["score"]["mean"]),
                _num(s["score"]["sd"]),
                _num(s["score"]["min"]),
                _num(s["score"]["q1"]),
                _num(s["score"]["median"]),
                _num(s["score"]["q3"]),
                _num(s["score"]["max"]),
            ]
            for s in report["seats"]
        ],
    )
    b = report["balance"]
    out += _wrap(
        f"seat balance ({b['test']} vs equal shares): chi2 {_num(b['statistic'])}, df {b['df']}, "
        f"p {_p(b['p'])}; ties: {report['ties']}"
    )
    out.append("")
    out += _table(
        ["game length", "mean", "sd", "min", "q1", "median", "q3", "max"],
        [
            [k, *(_num(d[f]) for f in ("mean", "sd", "min", "q1", "median", "q3", "max"))]
            for k, d in report["length"].items()
        ],
    )
    out.append("")
    out += _wrap(
        f"component impact: seats that held or played a type vs those that did not (one row a game "
        f"and player seat, automated seats left out; the {TOP_TYPES} largest win-rate differences a family, all in --json/--html)"
    )
    if report.get("fdr"):
        out += _wrap(f"{report['fdr']} (marked *)")
    for fam, rows in report["components"].items():
        seen = [r for r in rows if r["held"]["n"] and r["not_held"]["n"]]
        if not seen:
            out.append(f"  {fam}: no type both held and not held by some seat")
            continue
        seen.sort(key=lambda r: -abs(r["win_rate_diff"]["diff"] or 0))
        out.append(f"  {fam} ({len(seen)} of {len(rows)} types both held and not held):")
        if fam in report.get("component_notes", {}):
            out += _wrap(f"note: {report['component_notes'][fam]}", "    ")
        out += _table(
            ["type", "held n", "win", "not n", "win", "diff", "p", "q", "score diff", "p", "q"],
            [
                [
                    r["name"],
                    r["held"]["n"],
                    _pct(r["held"]["win_rate"]),
                    r["not_held"]["n"],
                    _pct(r["not_held"]["win_rate"]),
                    _pct(r["win_rate_diff"]["diff"]),
                    _p(r["win_rate_diff"]["p"]),
                    _q(r["win_rate_diff"]),
                    _num(r["score_diff"]["diff"]),
                    _p(r["score_diff"]["p"]),
                    _q(r["score_diff"]),
                ]
                for r in seen[:TOP_TYPES]
            ],
            indent="    ",
        )
    out += _sequential_lines(report)
    cov = report.get("coverage")
    if cov is not None:
        out.append("")
        out.append(f"rules: {len(cov['fired'])} fired, {len(cov['never'])} never fired")
        out += [f"  never fired: {item['key']} at {item['at']}" for item in cov["never"]]
    return "\n".join(out)


def compare_text(report: dict) -> str:
    """The comparison report as terminal text: each metric for A and B, the difference and its test."""
    a, b = report["a"], report["b"]
    out = [
        *_wrap(f"A: {a['label']}; {_settings_line(a)}"),
        *_wrap(f"B: {b['label']}; {_settings_line(b)}"),
        *_wrap(
            f"same seeds on both sides ({report['paired_seeds']} games completed on both); B - A; "
            f"n/side: games per side to detect the difference "
            f"(power {report['power']})"
        ),
        "",
    ]
    rows = []
    for m in report["metrics"]:
        rate = m["kind"] == "rate"
        fmt = _pct if rate else _num
        rows.append(
            [
                m["metric"],
                fmt(m["a"]),
                fmt(m["b"]),
                fmt(m["diff"]),
                _ci(m["ci95"], pct=rate),
                m["test"],
                _p(m["p"]),
                _p(m.get("q")),
                "yes" if m["significant"] else "no",
                _num(m["n_needed"]),
            ]
        )
    out += _table(["metric", "A", "B", "B - A", "95% CI", "test", "p", "q", "significant", "n/side"], rows)
    if report.get("fdr"):
        out += _wrap(report["fdr"])
    out.append("")
    for tag, r in (("A", a), ("B", b)):
        bal = r["balance"]
        out.append(f"seat balance {tag}: chi2 {_num(bal['statistic'])}, df {bal['df']}, p {_p(bal['p'])}")
    out += _wrap("tests: " + "; ".join(f"{k}: {v}" for k, v in report["tests"].items()))
    out += _sequential_lines(report)
    return "\n".join(out)


def _sequential_lines(report: dict) -> list:
    """--until-decided: the games used, the decision and the hypotheses, in words."""
    from mason.play.sprt import verdict

    lines = verdict(report)
    if not lines:
        return []
    return ["", *_wrap(lines[0]), *_wrap(lines[1], "  ")]
