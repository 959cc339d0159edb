#!/usr/bin/env python3
"""Bot conformance (issue 32 item 1): greedy beats random and mcts beats greedy in every shipped set-up.

For each set-up (a game, its expansions, a player count; solo included) the same seeds are played
three times, seat 1 taken by ``random``, then ``greedy``, then ``mcts`` (its default budget), every
other seat ``random`` (automated seats follow their policy, as always). The measure is seat 1's
*margin*: its final score minus the best other seat's (the automated seat's in solo; with
``scoring.lowest_wins`` the other way round). Paired by seed, the differences greedy - random and
mcts - greedy give a mean and its 95% interval (t); a set-up conforms when both intervals lie
above zero. Win rates (a shared win counts as a share) are shown beside them, and, for a game
listed in ``END_MARKERS``, how many games ended by that rule (Island Fortress: the wall complete).

Usage (from the project root):

    python benchmarks/bench_bots.py [SETUP ...] [--games N] [--seed S] [--json FILE]
    python benchmarks/bench_bots.py --table FILE.json ... [--write]

A SETUP is ``GAME``, ``GAME+EXPANSION`` or either with ``:P`` for one player count
(``citadels+dark-city:8``); without ``:P`` every player count of the set-up is played. ``--table``
renders saved runs; ``--write`` puts the table into benchmarks/RESULTS.md, section "Bot conformance".
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mason.model.loader import list_games  # noqa: E402
from mason.play.session import make_bot, play_game  # noqa: E402
from mason.play.stats import mean_interval  # noqa: E402
from mason.session.game import Game, Settings, load_program  # noqa: E402

KINDS = ("random", "greedy", "mcts")
# A game variable read when a game ends, counted per bot kind: did the game end by this rule?
END_MARKERS = {"island-fortress": ("wall_full", "wall complete")}
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
SECTION = "## Bot conformance (issue 32)"


def setups(names: list[str]) -> list[tuple[str, tuple, int]]:
    """(game, expansions, players) for each SETUP argument (every shipped set-up when none)."""
    if not names:
        names = [g for g in list_games()]
        names[names.index("citadels") + 1 : names.index("citadels") + 1] = ["citadels+dark-city"]
    out = []
    for name in names:
        spec, _, count = name.partition(":")
        game, *expansions = spec.split("+")
        prog = load_program(game, (), tuple(expansions))
        counts = [int(count)] if count else range(prog.min_players, prog.max_players + 1)
        out.extend((game, tuple(expansions), p) for p in counts)
    return out


def margin(result: dict, seat: int, lowest_wins: bool) -> float:
    """Seat's final score minus the best other seat's (the other way round when lowest wins)."""
    scores = result["scores"]
    others = [v for s, v in enumerate(scores) if s != seat]
    return (min(others) - scores[seat]) if lowest_wins else (scores[seat] - max(others))


MCTS = "mcts"  # the kind the third run plays (``--mcts mcts:100`` for a larger budget)


def play(game: str, expansions: tuple, players: int, seed: int, kind: str) -> dict:
    """One game, seat 1 ``kind``, the other seats random: its margin, win share and end marker."""
    g = Game.new(Settings(game, players, seed, (), expansions), narrate=False)
    n = g.state["n"]  # players and automated seats
    seat1 = MCTS if kind == "mcts" else kind
    agents = {s: make_bot(seat1 if s == 0 else "random", seed, s) for s in range(players)}
    play_game(g, agents)
    r = g.result
    out = {
        "margin": margin(r, 0, g.program.lowest_wins),
        "win": (1 / len(r["winners"])) if 0 in r["winners"] else 0.0,
        "seats": n,
    }
    marker = END_MARKERS.get(game)
    if marker:
        out["ended_by"] = bool(g.state["vars"].get(marker[0]))
    return out


def measure(game: str, expansions: tuple, players: int, games: int, seed: int) -> dict:
    """The three runs of a set-up over seeds seed .. seed+games-1, and their paired comparison."""
    row = {"game": game, "with": list(expansions), "players": players, "games": games, "seed": seed, "mcts": MCTS}
    runs: dict[str, list] = {}
    for kind in KINDS:
        t = time.perf_counter()
        runs[kind] = []
        for i in range(games):
            try:
                runs[kind].append(play(game, expansions, players, seed + i, kind))
            except Exception as exc:  # noqa: BLE001 - shown and counted, the run goes on
                print(f"{game} {players}p seed {seed + i} {kind}: {exc}", file=sys.stderr)
                runs[kind].append(None)
        row[f"{kind}_seconds"] = round(time.perf_counter() - t, 1)
    ok = [i for i in range(games) if all(runs[k][i] is not None for k in KINDS)]
    row["completed"] = len(ok)
    for kind in KINDS:
        row[f"{kind}_win"] = sum(runs[kind][i]["win"] for i in ok) / max(1, len(ok))
        row[f"{kind}_margin"] = sum(runs[kind][i]["margin"] for i in ok) / max(1, len(ok))
        if game in END_MARKERS:
            row[f"{kind}_ended"] = sum(1 for i in ok if runs[kind][i]["ended_by"])
    for hi, lo in (("greedy", "random"), ("mcts", "greedy")):
        diffs = [runs[hi][i]["margin"] - runs[lo][i]["margin"] for i in ok]
        row[f"{hi}_vs_{lo}"] = sum(diffs) / max(1, len(diffs))
        row[f"{hi}_vs_{lo}_ci"] = mean_interval(diffs)
    return row


def conforms(row: dict, key: str) -> bool:
    ci = row.get(f"{key}_ci")
    return bool(ci) and ci[0] > 0


def label(row: dict) -> str:
    """The set-up as the table names it (with the mcts kind when it is not the default)."""
    kind = row.get("mcts", "mcts")
    return row["game"] + "".join(f" --with {x}" for x in row["with"]) + ("" if kind == "mcts" else f" (`{kind}`)")


def cell(row: dict, key: str) -> str:
    """A paired difference and its 95% interval, as the table shows it."""
    ci = row.get(f"{key}_ci")
    span = f"[{ci[0]:+.1f}, {ci[1]:+.1f}]" if ci else "[n/a]"
    return f"{row[key]:+.1f} {span}"


def table(rows: list[dict]) -> str:
    """The markdown table of a run (one row per set-up)."""
    head = (
        "| set-up | players | games | greedy - random: margin [95% CI] | win rate random / greedy "
        "| mcts - greedy: margin [95% CI] | win rate mcts | conforms | seconds r/g/m |"
    )
    lines = [head, "|" + "---|" * 9]
    for r in rows:
        ends = ""
        if "greedy_ended" in r:
            name = END_MARKERS[r["game"]][1]
            ends = f"; {name}: random {r['random_ended']}, greedy {r['greedy_ended']}, mcts {r['mcts_ended']} of {r['completed']}"
        both = conforms(r, "greedy_vs_random") and conforms(r, "mcts_vs_greedy")
        verdict = (
            "yes"
            if both
            else (
                "greedy only"
                if conforms(r, "greedy_vs_random")
                else "mcts only"
                if conforms(r, "mcts_vs_greedy")
                else "no"
            )
        )
        lines.append(
            f"| {label(r)} | {r['players']} | {r['completed']}{ends} | {cell(r, 'greedy_vs_random')} "
            f"| {100 * r['random_win']:.0f}% / {100 * r['greedy_win']:.0f}% | {cell(r, 'mcts_vs_greedy')} "
            f"| {100 * r['mcts_win']:.0f}% | {verdict} "
            f"| {r['random_seconds']:.0f}/{r['greedy_seconds']:.0f}/{r['mcts_seconds']:.0f} |"
        )
    return "\n".join(lines)


def write_results(text: str) -> None:
    """Put ``text`` under SECTION in RESULTS.md, replacing what the section held."""
    doc = RESULTS.read_text(encoding="utf-8")
    block = f"{SECTION}\n\n{text.strip()}\n"
    if SECTION in doc:
        start = doc.index(SECTION)
        nxt = doc.find("\n## ", start + len(SECTION))
        doc = doc[:start] + block + (doc[nxt:] if nxt >= 0 else "")
    else:
        doc = doc.rstrip("\n") + "\n\n" + block
    RESULTS.write_text(doc, encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("setups", nargs="*", metavar="SETUP")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE", help="save the rows (one JSON list)")
    ap.add_argument("--table", nargs="+", metavar="FILE", help="render saved rows instead of playing")
    ap.add_argument("--write", action="store_true", help="put the table into benchmarks/RESULTS.md")
    ap.add_argument("--mcts", default="mcts", help="the mcts kind of the third run (default: mcts, its default budget)")
    a = ap.parse_args()
    global MCTS
    MCTS = a.mcts
    if a.table:
        rows = [r for f in a.table for r in json.loads(Path(f).read_text(encoding="utf-8"))]
    else:
        rows = []
        for game, expansions, players in setups(a.setups):
            rows.append(measure(game, expansions, players, a.games, a.seed))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
            if a.json:
                Path(a.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    text = table(rows)
    print(text)
    if a.write:
        games = sorted({r["games"] for r in rows})
        note = (
            f"Measured {date.today().isoformat()} on {platform.processor() or platform.machine()}, "
            f"Python {platform.python_version()}, seeds {rows[0]['seed']}.. ({', '.join(map(str, games))} games a set-up)."
        )
        write_results(note + "\n\n" + text)


if __name__ == "__main__":
    main()
