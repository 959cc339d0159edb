#!/usr/bin/env python3
"""Wall time of short commands, whose time is mostly start-up: with the compile cache warm and off.

Runs, interleaved, each command with ``MASON_CACHE_DIR`` set to a scratch cache folder (filled by
one untimed run first) and with ``MASON_CACHE_DIR=off``, ROUNDS times each, timing the whole
command from outside (starting Python, importing Mason, compiling the game, the work, the output),
and prints the median and best of each and their ratio. Usage (from the project root):

    python benchmarks/bench_startup.py [--rounds 8] [--game citadels]

The commands: ``mason simulate GAME -n 1 -p 4 --json`` (one game: nearly all start-up),
``mason validate GAME`` (the game, each of its variants and its expansions compiled) and
``mason rules GAME``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {out.stderr.strip()[-500:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--game", default="citadels")
    args = ap.parse_args()
    commands = {
        "simulate -n 1": ["mason", "simulate", args.game, "-n", "1", "-p", "4", "--json"],
        "validate": ["mason", "validate", args.game],
        "rules": ["mason", "rules", args.game],
    }
    with tempfile.TemporaryDirectory(prefix="mason-bench-cache-") as folder:
        setups = {
            "cache warm": {**os.environ, "MASON_CACHE_DIR": folder},
            "cache off": {**os.environ, "MASON_CACHE_DIR": "off"},
        }
        for cmd in commands.values():
            timed(cmd, setups["cache warm"])  # fill the cache
        print(
            f"| command | cache | median s | best s | ({args.rounds} runs each, interleaved; load avg {os.getloadavg()[0]:.2f}) |"
        )
        print("|---|---|---|---|---|")
        for name, cmd in commands.items():
            runs: dict[str, list[float]] = {k: [] for k in setups}
            for _ in range(args.rounds):
                for setup, env in setups.items():
                    runs[setup].append(timed(cmd, env))
            for setup, times in runs.items():
                print(
                    f"| `mason {name}` ({args.game}) | {setup} | {statistics.median(times):.2f} | {min(times):.2f} | |"
                )
            off, warm = statistics.median(runs["cache off"]), statistics.median(runs["cache warm"])
            print(f"| | off / warm | {off / warm:.2f}x | {min(runs['cache off']) / min(runs['cache warm']):.2f}x | |")


if __name__ == "__main__":
    main()
