#!/usr/bin/env python3
"""The greedy bot against random bots: its win rate and the seconds each bot takes per decision.

Plays the same games as ``mason simulate GAME -n GAMES -p P --seed S --bot 1=greedy`` (seat 1 greedy,
the other seats random, seeds S, S+1, ...), timing every ``decide`` call by bot kind. The win rate
counts a shared win as a share (as ``simulate`` does). Usage (from the project root):

    python benchmarks/bench_greedy.py [GAME ...] [--players 4] [--games 100] [--seed 1] [--with X]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mason.model.loader import list_games  # noqa: E402
from mason.play.session import make_bot, play_game  # noqa: E402
from mason.session.game import Game, Settings, load_program  # noqa: E402


class Timed:
    def __init__(self, agent, clock: dict):
        self.agent, self.clock = agent, clock

    def decide(self, game, seat):
        t = time.perf_counter()
        try:
            return self.agent.decide(game, seat)
        finally:
            self.clock["s"] += time.perf_counter() - t
            self.clock["n"] += 1


def measure(game: str, players: int, games: int, seed: int, expansions=()) -> dict:
    load_program(game, (), expansions)
    clocks = {"greedy": {"s": 0.0, "n": 0}, "random": {"s": 0.0, "n": 0}}
    wins, errors = 0.0, 0
    for i in range(games):
        s = seed + i
        try:
            g = Game.new(Settings(game, players, s, (), tuple(expansions)), narrate=False)
            agents = {}
            for p in range(players):
                kind = "greedy" if p == 0 else "random"
                agents[p] = Timed(make_bot(kind, s, p), clocks[kind])
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
        "greedy_s": clocks["greedy"]["s"] / max(1, clocks["greedy"]["n"]),
        "random_s": clocks["random"]["s"] / max(1, clocks["random"]["n"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_ids", nargs="*", metavar="GAME")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--with", dest="expansions", action="append", default=[])
    a = ap.parse_args()
    print(
        "| game | games | greedy seat's win rate (fair share %.0f%%) | greedy s/decision | random s/decision |"
        % (100 / a.players)
    )
    print("|---|---|---|---|---|")
    for gid in a.games_ids or list_games():
        r = measure(gid, a.players, a.games, a.seed, a.expansions)
        print(
            f"| {r['game']} | {r['games']} | **{r['win_rate']:.1%}** | {r['greedy_s']:.4f} | {r['random_s']:.6f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
