#!/usr/bin/env python3
"""Where a decision's cycles go beyond its instructions: cache misses and mispredicted branches per
decision, Mason against the hand-written reference, from valgrind's cachegrind (simulated caches and
branch predictor, so the counts are the same from run to run and do not depend on the machine's load).

Each side runs twice under cachegrind, with GAMES games and with none, and the difference is divided by
the decisions the games made, so start-up and compiling are left out (Mason's first game is played
before the counted ones, outside the difference, as benchmarks/work_per_decision.py does). Usage (from
the project root; about three minutes):

    python benchmarks/cache_per_decision.py [--games 20] [--ref-games 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT.parent / "shared" / "bench" / "citadels_ref.py"

_PLAY = """
import sys
from mason.play.session import simulate
from mason.session.game import Settings
s = Settings("citadels", 4, int(sys.argv[2]), (), (), {})
simulate(s, 1)
print(simulate(s, int(sys.argv[1]))["decisions"])
"""

EVENTS = {
    "instructions": r"I\s+refs:\s+([\d,]+)",
    "I1 misses": r"I1\s+misses:\s+([\d,]+)",
    "D1 misses": r"D1\s+misses:\s+([\d,]+)",
    "LL misses": r"LL misses:\s+([\d,]+)",
    "branches": r"Branches:\s+([\d,]+)",
    "mispredicted": r"Mispredicts:\s+([\d,]+)",
}


def cachegrind(argv: list[str]) -> tuple[dict, str]:
    """The event counts of one command under cachegrind, and its standard output."""
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", "--cachegrind-out-file=/dev/null"]
        + argv,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"valgrind failed: {run.stderr.strip()[-300:]}")
    counts = {k: int(re.search(rx, run.stderr).group(1).replace(",", "")) for k, rx in EVENTS.items()}
    return counts, run.stdout


def per_decision(side: str, games: int, seed: int) -> tuple[dict, int]:
    """Events per decision of GAMES games of one side (``mason`` or ``reference``), and the decisions."""
    if side == "mason":
        subprocess.run([sys.executable, "-c", _PLAY, "0", str(seed)], cwd=ROOT, capture_output=True, check=False)
        argv = [sys.executable, "-c", _PLAY]
    else:
        argv = [sys.executable, str(REF)]
    runs = {}
    for n in (0, games):
        args = [str(n), str(seed)] if side == "mason" else [str(n), "4", str(seed)]
        counts, out = cachegrind(argv + args)
        decisions = int(out.split()[-1]) if side == "mason" else json.loads(out)["decisions"]
        runs[n] = (counts, decisions)
    decisions = runs[games][1]
    return {k: (runs[games][0][k] - runs[0][0][k]) / decisions for k in EVENTS}, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="Mason's random 4-player Citadels games")
    ap.add_argument("--ref-games", type=int, default=1000, help="the reference's games")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    mason, md = per_decision("mason", args.games, args.seed)
    ref, rd = per_decision("reference", args.ref_games, args.seed)
    print(f"per decision (Mason: {args.games} games, {md:,} decisions; reference: {args.ref_games} games, {rd:,})")
    print(f"{'':16} {'Mason':>10} {'reference':>10} {'ratio':>7}")
    for k in EVENTS:
        ratio = f"{mason[k] / ref[k]:7.1f}" if ref[k] >= 1 else "      -"  # (below one a decision: noise)
        print(f"{k:16} {mason[k]:10,.1f} {ref[k]:10,.1f} {ratio}")


if __name__ == "__main__":
    main()
