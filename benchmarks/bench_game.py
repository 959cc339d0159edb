#!/usr/bin/env python3
"""Seconds per game: random-bot games of any game, timed one by one, in this process.

Each game is set up (Game.new, which loads nothing: the program is compiled once before timing)
and played to its end by random bots; the time of each game is recorded and the median, the
quartiles and decisions per second are reported. Usage (from the project root):

    python benchmarks/bench_game.py GAME [--players 4] [--games 100] [--seed 1] [--record benchmarks/RESULTS.md]
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

from mason.play.session import make_bot, play_game  # noqa: E402
from mason.runtime.game import Game, Settings, load_program  # noqa: E402


def measure(game: str, players: int, games: int, seed: int) -> tuple[list[float], int]:
    load_program(game)  # compile once, outside the timings
    times, decisions = [], 0
    for i in range(games):
        s = seed + i
        t0 = time.perf_counter()
        g = Game.new(Settings(game, players, s), narrate=False)
        play_game(g, {p: make_bot("random", s, p) for p in range(players)})
        times.append(time.perf_counter() - t0)
        decisions += g.state["decisions"]
    return times, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", type=Path, default=None, help="append a row to this RESULTS.md")
    a = ap.parse_args()
    times, decisions = measure(a.game, a.players, a.games, a.seed)
    q = statistics.quantiles(times, n=4)
    median = statistics.median(times)
    rate = decisions / sum(times)
    print(
        f"{a.game}, {a.players} players, {a.games} random-bot games: median {median:.3f} s per game "
        f"(quartiles {q[0]:.3f} / {q[2]:.3f}), {rate:,.0f} decisions/s"
    )
    if a.record:
        machine = f"{platform.machine()}, Python {platform.python_version()}"
        cmd = f"`python benchmarks/bench_game.py {a.game} --players {a.players} --games {a.games} --seed {a.seed}`"
        row = (
            f"| {datetime.now(timezone.utc):%Y-%m-%d} | {a.game} | {a.players} | {a.games} | **{median:.3f}** | "
            f"{q[0]:.3f} / {q[2]:.3f} | {rate:,.0f} | {machine} | {cmd} |\n"
        )
        with a.record.open("a", encoding="utf-8") as f:
            f.write(row)


if __name__ == "__main__":
    main()
