#!/usr/bin/env python3
"""Island Fortress: how far the bots build the wall (issue 32 item 1).

Every seat plays the same bot kind (``--bots``; ``greedy,random`` alternates the kinds seat by seat);
for seeds seed .. seed+games-1 it reports how many games ended with the wall complete (ISF-R90), the
mean number of filled wall slots (own and governor blocks; 34 with 2-3 players, 51 with 4) and of the
players' own blocks on the wall.

Usage (from the project root):

    python benchmarks/isf_wall.py PLAYERS [--games N] [--seed S] [--bots KIND[,KIND...]]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mason.play.session import make_bot, play_game  # noqa: E402
from mason.session.game import Game, Settings  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", type=int)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="greedy")
    a = ap.parse_args()
    kinds = a.bots.split(",")
    complete = filled = own = 0
    slots = 0
    t = time.perf_counter()
    for seed in range(a.seed, a.seed + a.games):
        g = Game.new(Settings("island-fortress", a.players, seed), narrate=False)
        play_game(g, {s: make_bot(kinds[s % len(kinds)], seed, s) for s in range(a.players)})
        wall = g.state["boards"]["wall"]
        pieces = wall["pieces"]
        slots = wall["regions"] * sum(len(level) for level in wall["levels"])
        complete += bool(g.state["vars"]["wall_full"])
        filled += len(pieces)
        own += sum(1 for owner in pieces.values() if owner is not None)
    n = a.games
    print(
        f"island-fortress {a.players}p, bots {a.bots}, seeds {a.seed}-{a.seed + n - 1}: wall complete in "
        f"{complete} of {n}; filled slots {filled / n:.1f} of {slots}; own blocks on the wall "
        f"{own / n:.1f} (all seats); {time.perf_counter() - t:.0f} s"
    )


if __name__ == "__main__":
    main()
