#!/usr/bin/env python3
"""Machine instructions per bot decision (valgrind's callgrind): exact and load-free, unlike seconds.

Plays the first CAP decisions of one game with every seat the bot KIND (default ``mcts``, its default
budget), once with CAP decisions and once with none (so start-up and loading cancel out), and prints
the instructions per decision. Two versions of Mason compare exactly on a machine that other work
keeps busy. Usage (from the project root; valgrind must be installed):

    python benchmarks/bot_instructions.py [GAME] [--cap 10] [--players 4] [--kind mcts] [--seed 1]
        [--variant V ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PLAY = """
import sys
from mason.play.session import make_bot
from mason.session.game import Game, Settings
game, cap, players, kind, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
g = Game.new(Settings(game, players, seed, tuple(sys.argv[6:]), (), {}), narrate=False)
bots = {s: make_bot(kind, seed, s) for s in range(players)}
n = 0
while g.result is None and g.state.get("pending") is not None and n < cap:
    seat = g.state["pending"]["seat"]
    g.answer(bots[seat].decide(g, seat))
    n += 1
print(n)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="citadels")
    ap.add_argument("--cap", type=int, default=10, help="decisions played (default 10)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--kind", default="mcts", help="every seat's bot kind (default mcts)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed")
    tail = [args.game, None, str(args.players), args.kind, str(args.seed), *args.variant]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    # once outside valgrind first, so neither measured run compiles the game (the compile cache has it)
    subprocess.run([sys.executable, "-c", _PLAY, *[t if t is not None else "0" for t in tail]], cwd=ROOT, env=env,
                   capture_output=True, check=False)  # fmt: skip
    counts = {}
    for cap in (0, args.cap):
        argv = [t if t is not None else str(cap) for t in tail]
        run = subprocess.run(
            [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", _PLAY, *argv],
            capture_output=True, text=True, env=env, cwd=ROOT, check=False,
        )  # fmt: skip
        found = re.search(r"Collected : (\d+)", run.stderr)
        if run.returncode != 0 or found is None:
            raise SystemExit(f"valgrind failed: {run.stderr.strip()[-300:]}")
        counts[cap] = (int(found.group(1)), int(run.stdout.split()[-1]))
    decisions = counts[args.cap][1]
    per = (counts[args.cap][0] - counts[0][0]) / max(1, decisions)
    print(f"{args.game}, {args.players} players, every seat {args.kind}: {decisions} decisions, "
          f"{per / 1e6:,.2f} M instructions a decision")  # fmt: skip


if __name__ == "__main__":
    main()
