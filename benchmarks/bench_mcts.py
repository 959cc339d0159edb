#!/usr/bin/env python3
"""The mcts bot against random bots: its win rate and the seconds each bot takes per decision.

Plays the same games as ``mason simulate GAME -n GAMES -p P --seed S --bot 1=mcts:N`` (seat 1 mcts
with N iterations per decision, ``mcts:N:dD`` with ``--depth D``, the other seats random, seeds S, S+1, ...; the seat is fixed, not
rotated), timing every ``decide`` call by bot kind (a decision with one option counts too: it is
answered at once), in wall-clock and in CPU seconds of this process (the CPU time is close to what a
quiet machine takes; on a loaded one the wall clock also counts the waits for a core). The win rate counts a shared win as a share (as ``simulate`` does). ``--record``
appends the rows to the mcts table of benchmarks/RESULTS.md. Usage (from the project root):

    python benchmarks/bench_mcts.py [GAME ...] [--players 4] [--games 100] [--seed 1] [--with X]
                                    [--iterations N] [--depth D] [--record]

``GAME`` may be ``citadels+dark-city`` (a game with an expansion) to measure several set-ups in one run.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.results_table import command, insert_rows, set_ups  # noqa: E402
from mason.agents.mcts import DEFAULT_ITERATIONS  # noqa: E402
from mason.model.loader import list_games  # noqa: E402
from mason.play.session import make_bot, play_game  # noqa: E402
from mason.session.game import Game, Settings, load_program  # noqa: E402

HEADING = "## The mcts bot against random bots"


class Timed:
    def __init__(self, agent, clock: dict):
        self.agent, self.clock = agent, clock

    def decide(self, game, seat):
        t, c = time.perf_counter(), time.process_time()
        try:
            return self.agent.decide(game, seat)
        finally:
            self.clock["s"] += time.perf_counter() - t
            self.clock["cpu"] += time.process_time() - c
            self.clock["n"] += 1


def measure(game: str, players: int, games: int, seed: int, expansions=(), kind="mcts") -> dict:
    load_program(game, (), expansions)
    clocks = {"mcts": {"s": 0.0, "cpu": 0.0, "n": 0}, "random": {"s": 0.0, "cpu": 0.0, "n": 0}}
    wins, errors = 0.0, 0
    for i in range(games):
        s = seed + i
        try:
            g = Game.new(Settings(game, players, s, (), tuple(expansions)), narrate=False)
            agents = {}
            for p in range(players):
                bot = make_bot(kind if p == 0 else "random", s, p)
                agents[p] = Timed(bot, clocks["mcts" if p == 0 else "random"])
            play_game(g, agents)
        except Exception as exc:  # noqa: BLE001 - counted and shown, the run goes on
            errors += 1
            print(f"{game} seed {s}: {exc}", file=sys.stderr)
            continue
        if 0 in g.result["winners"]:
            wins += 1 / len(g.result["winners"])
    done = games - errors
    return {
        "game": game + "".join(f" --with {x}" for x in expansions),
        "games": done,
        "errors": errors,
        "win_rate": wins / done if done else 0.0,
        "mcts_s": clocks["mcts"]["s"] / max(1, clocks["mcts"]["n"]),
        "mcts_cpu": clocks["mcts"]["cpu"] / max(1, clocks["mcts"]["n"]),
        "random_s": clocks["random"]["s"] / max(1, clocks["random"]["n"]),
    }


def record(rows: list[str]) -> None:
    insert_rows(ROOT / "benchmarks" / "RESULTS.md", HEADING, rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_ids", nargs="*", metavar="GAME")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--with", dest="expansions", action="append", default=[])
    ap.add_argument("--iterations", type=int, default=None, help="mcts:N (default: the kind 'mcts')")
    ap.add_argument("--depth", type=int, default=None, help="mcts:N:dD: rollouts of D decisions (default: the bot's)")
    ap.add_argument("--record", action="store_true", help="append the rows to benchmarks/RESULTS.md")
    a = ap.parse_args()
    kind = "mcts" if a.iterations is None else f"mcts:{a.iterations}"
    if a.depth is not None:
        kind = f"mcts:{a.iterations or DEFAULT_ITERATIONS}:d{a.depth}"
    print(
        f"| game | games | {kind} seat's win rate (fair share {100 / a.players:.0f}%) | mcts s/decision "
        f"(wall / CPU) | random s/decision |"
    )
    print("|---|---|---|---|---|")
    rows = []
    for name, expansions in set_ups(a.games_ids, a.expansions, list_games()):
        r = measure(name, a.players, a.games, a.seed, expansions, kind)
        print(
            f"| {r['game']} | {r['games']} | **{r['win_rate']:.1%}** | {r['mcts_s']:.4f} / {r['mcts_cpu']:.4f} "
            f"| {r['random_s']:.6f} |",
            flush=True,
        )
        cmd = command(
            "bench_mcts.py",
            name,
            expansions,
            [f"--players {a.players}", f"--games {a.games}", f"--seed {a.seed}"]
            + ([f"--iterations {a.iterations}"] if a.iterations is not None else [])
            + ([f"--depth {a.depth}"] if a.depth is not None else []),
        )
        rows.append(
            f"| {datetime.date.today()} | {r['game']} | {a.players} | {kind} | {r['games']} "
            f"| **{r['win_rate']:.1%}** | {r['mcts_s']:.4f} / {r['mcts_cpu']:.4f} | {r['random_s']:.6f} "
            f"| {platform.machine()}, Python {platform.python_version()} | `{cmd}` |"
        )
        if r["errors"]:
            rows[-1] += f" {r['errors']} errors"
    if a.record:
        record(rows)


if __name__ == "__main__":
    main()
