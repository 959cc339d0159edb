#!/usr/bin/env python3
"""Wall time of the whole `mason simulate` command with 1 worker, with W workers (and with Ray).

Runs, interleaved, `mason simulate GAME -n GAMES -p PLAYERS --workers 1 --json` and the same with
`--workers W` (and, with --ray, `--ray`), ROUNDS times each, timing each whole command (start-up,
compilation, play, report) from outside; notes the 1-minute load average before each run (other
processes share the machine); checks that every run's report is the same but for its timing
fields; prints one row per run (wall time of the command and the report's own `seconds`, the
games alone), and the ratios of the medians and of the best runs (on a shared
machine the best run is the one least slowed by others; `nice -n -20` helps too). Usage (from the project root):

    python benchmarks/bench_workers.py [--game citadels] [--games 400] [--players 4] [--workers 2]
                                       [--rounds 3] [--ray]

With --ceiling it also measures, in each round, what two processes give on this machine at all: the
same plain Python loop (no Mason) run alone, then twice at once; the speed-up of the pair (twice the
work in the pair's wall time) is the most two workers could show here, whatever Mason does. On
virtual machines whose two cores share a physical core, or are shared with other guests, it is
well below 2.

On a machine shared with other work, run it in its own session with its scheduling group raised
(Linux with autogroup, as root), so that the others' load slows it as little as possible:

    setsid bash -c 'echo -20 > /proc/self/autogroup; python benchmarks/bench_workers.py'

The command is the `mason` console script installed beside this Python (``bin/mason`` of its venv),
what a user of that venv runs, not whatever `mason` comes first on PATH: a version manager's shim
(pyenv's is a shell script that starts `pyenv exec`) adds its own start-up, about 0.18 s here, to
every run. Start-up also includes compiling Mason's modules to bytecode when Python has no up-to-date
cached bytecode for them (PYTHONDONTWRITEBYTECODE set, and no ``__pycache__`` or one older than an
edit), about 0.2 s for all of them here; the tool says for how many modules it has it (a normal
install has it for all: pip compiles them, or Python writes them on first use after an edit).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def mason_command() -> str:
    """The `mason` console script beside this Python (its venv's), else `mason` from PATH."""
    here = Path(sys.executable).parent / "mason"
    return str(here) if here.is_file() else "mason"


def bytecode_cached(package: str = "mason") -> tuple[int, int]:
    """(modules of ``package`` whose cached bytecode is up to date, all its modules): a module without
    it is compiled from source at every start (Python checks the source's time and size in the header)."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return 0, 0
    fresh = total = 0
    for folder in spec.submodule_search_locations:
        for src in Path(folder).rglob("*.py"):
            total += 1
            pyc = Path(importlib.util.cache_from_source(str(src)))
            try:
                head, stat = pyc.read_bytes()[:16], src.stat()
            except OSError:
                continue
            flags = int.from_bytes(head[4:8], "little")
            if flags & 1:  # hash-based (PEP 552): used as it is unless checked, then checked against the source
                fresh += not flags & 2 or head[8:16] == importlib.util.source_hash(src.read_bytes())
            else:  # timestamp-based: the source's modification time and size as the header records them
                mtime, size = int.from_bytes(head[8:12], "little"), int.from_bytes(head[12:16], "little")
                fresh += mtime == int(stat.st_mtime) & 0xFFFFFFFF and size == stat.st_size & 0xFFFFFFFF
    return fresh, total


TIMING = ("seconds",)


def comparable(report: dict) -> dict:
    """The report without its timing fields."""
    report = {k: v for k, v in report.items() if k not in TIMING}
    report["stats"] = {k: v for k, v in report["stats"].items() if k != "decisions_per_second"}
    return report


def run(cmd: list[str]) -> tuple[float, float, dict]:
    load = os.getloadavg()[0]
    t = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    if out.returncode not in (0, 1) or not out.stdout:
        sys.exit(f"{' '.join(cmd)} failed: {out.stderr.strip()[-500:]}")
    return wall, load, json.loads(out.stdout)


# a plain Python loop of about a second (no Mason, no I/O): the machine's ceiling for two processes
SPIN = "d = {}\nfor i in range(6_000_000):\n    d[i & 1023] = i\n"


def ceiling() -> tuple[float, float, float]:
    """(one loop alone s, two at once s, speed-up of the pair = 2 * alone / pair)."""
    cmd = [sys.executable, "-c", SPIN]
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    alone = time.perf_counter() - t
    t = time.perf_counter()
    procs = [subprocess.Popen(cmd) for _ in range(2)]
    for p in procs:
        p.wait()
    pair = time.perf_counter() - t
    return alone, pair, 2 * alone / pair


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="citadels")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", default="4")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ray", action="store_true", help="also time --ray (a local Ray instance per run)")
    ap.add_argument("--ceiling", action="store_true", help="also time one plain Python loop alone and two at once")
    args = ap.parse_args()
    mason = mason_command()
    fresh, total = bytecode_cached()
    print(f"command: {mason}; Mason's modules with up-to-date cached bytecode: {fresh} of {total}")
    base = [mason, "simulate", args.game, "-n", str(args.games), "-p", args.players, "--json"]
    setups = {"--workers 1": ["--workers", "1"], f"--workers {args.workers}": ["--workers", str(args.workers)]}
    if args.ray:
        setups["--ray"] = ["--ray"]
    times: dict[str, list[float]] = {k: [] for k in setups}
    plays: dict[str, list[float]] = {k: [] for k in setups}  # the report's own `seconds`: the games only
    print("| command | run | wall s (whole command) | play s (report's `seconds`) | load avg (1 min) | games |")
    print("|---|---|---|---|---|---|")
    reference = None
    ceilings: list[float] = []
    for i in range(args.rounds):
        if args.ceiling:
            alone, pair, up = ceiling()
            ceilings.append(up)
            print(
                f"| plain loop: alone, then two at once | {i + 1} | {alone:.2f} / {pair:.2f} | speed-up {up:.2f}x | | |"
            )
        for name, extra in setups.items():
            wall, load, report = run(base + extra)
            same = comparable(report)
            if reference is None:
                reference = same
            elif same != reference:
                sys.exit(f"results differ: {name}, round {i + 1}")
            times[name].append(wall)
            plays[name].append(report["seconds"])
            print(
                f"| `{' '.join(['mason', *base[1:], *extra])}` | {i + 1} | {wall:.2f} | {report['seconds']:.2f} | {load:.2f} "
                f"| {report['completed']} |",
                flush=True,
            )
    med = {k: statistics.median(v) for k, v in times.items()}
    best = {k: min(v) for k, v in times.items()}
    for name in times:
        print(
            f"{name}: median {med[name]:.2f} s (speed-up {med['--workers 1'] / med[name]:.2f}x), "
            f"best {best[name]:.2f} s (speed-up {best['--workers 1'] / best[name]:.2f}x); "
            f"runs: {', '.join(f'{t:.2f}' for t in times[name])}; play only: median "
            f"{statistics.median(plays[name]):.2f} s (speed-up "
            f"{statistics.median(plays['--workers 1']) / statistics.median(plays[name]):.2f}x)"
        )
    if ceilings:
        print(
            f"machine ceiling (a plain Python loop, two at once against alone): median {statistics.median(ceilings):.2f}x, "
            f"best {max(ceilings):.2f}x; runs: {', '.join(f'{c:.2f}' for c in ceilings)}"
        )
    print("all reports identical but for timing fields")


if __name__ == "__main__":
    main()
