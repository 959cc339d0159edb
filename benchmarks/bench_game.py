#!/usr/bin/env python3
"""Seconds per game: random-bot games of any game, timed one by one, in this process.

Each game is set up (Game.new, which loads nothing: the program is compiled once before timing)
and played to its end by random bots; the time of each game is recorded and the median, the
quartiles, games per second and decisions per second are reported. With no GAME, every game and
Citadels with Dark City. Usage (from the project root):

    python benchmarks/bench_game.py [GAME ...] [--players 4] [--games 100] [--seed 1] [--with X] [--record]

``GAME`` may be ``citadels+dark-city`` (a game with an expansion). ``--record`` adds the rows to the
"Seconds per game" table of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.results_table import command, insert_rows, set_ups  # noqa: E402
from mason.model.loader import list_games  # noqa: E402
from mason.play.session import make_bot, play_game  # noqa: E402
from mason.session.game import Game, Settings, load_program  # noqa: E402

HEADING = "## Seconds per game: random-bot games of one game"


def measure(game: str, players: int, games: int, seed: int, expansions=()) -> tuple[list[float], int]:
    load_program(game, (), tuple(expansions))  # compile once, outside the timings
    times, decisions = [], 0
    for i in range(games):
        s = seed + i
        t0 = time.perf_counter()
        g = Game.new(Settings(game, players, s, (), tuple(expansions)), narrate=False)
        play_game(g, {p: make_bot("random", s, p) for p in range(players)})
        times.append(time.perf_counter() - t0)
        decisions += g.state["decisions"]
    return times, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_ids", nargs="*", metavar="GAME")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--with", dest="expansions", action="append", default=[])
    ap.add_argument("--record", action="store_true", help="add the rows to benchmarks/RESULTS.md")
    a = ap.parse_args()
    rows = []
    for name, expansions in set_ups(a.games_ids, a.expansions, [*list_games(), "citadels+dark-city"]):
        times, decisions = measure(name, a.players, a.games, a.seed, expansions)
        q = statistics.quantiles(times, n=4)
        median = statistics.median(times)
        label = " ".join([name] + [f"--with {x}" for x in expansions])
        print(
            f"{label}, {a.players} players, {a.games} random-bot games: median {median:.3f} s per game "
            f"(quartiles {q[0]:.3f} / {q[2]:.3f}), {a.games / sum(times):,.1f} games/s, "
            f"{decisions / sum(times):,.0f} decisions/s",
            flush=True,
        )
        cmd = command(
            "bench_game.py", name, expansions, [f"--players {a.players}", f"--games {a.games}", f"--seed {a.seed}"]
        )
        rows.append(
            f"| {datetime.now(timezone.utc):%Y-%m-%d} | {label} | {a.players} | {a.games} | **{median:.3f}** | "
            f"{q[0]:.3f} / {q[2]:.3f} | {a.games / sum(times):,.1f} | {decisions / sum(times):,.0f} "
            f"| {platform.machine()}, Python {platform.python_version()} | `{cmd}` |"
        )
    if a.record:
        insert_rows(ROOT / "benchmarks" / "RESULTS.md", HEADING, rows)


if __name__ == "__main__":
    main()
