#!/usr/bin/env python3
"""Do two versions of Mason play the same games? A guard for changes that must not change play.

Runs ``mason simulate SETUP -p 4 --seed 1 --json --coverage`` for a fixed list of set-ups (every game,
Citadels with Dark City, greedy seats and an mcts seat), drops the timing fields, and writes each
report to DIR (``--save DIR``) or compares it with the one saved there (``--check DIR``): scores,
winners, rounds and decisions per seed and the count of every rule that fired must be the same
(rule-file places are left out: a line added to a rule file moves them, not the games).
Usage (from the project root), around a change:

    python benchmarks/same_games.py --save /tmp/before     # on the code before the change
    python benchmarks/same_games.py --check /tmp/before    # on the code after it: exit 1 on a difference
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SETUPS = [
    ["citadels", "-n", "100"],
    ["citadels", "--with", "dark-city", "-n", "50"],
    ["golden-temple", "-n", "20"],
    ["island-fortress", "-n", "20"],
    ["pillars", "-n", "30"],
    ["prague", "-n", "12"],
    ["citadels", "-n", "30", "--bots", "greedy"],
    ["prague", "-n", "3", "--bot", "1=mcts:5"],
]


def report(setup: list[str]) -> dict:
    cmd = [sys.executable, "-m", "mason.cli.main", "simulate", *setup, "-p", "4", "--seed", "1", "--json", "--coverage"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if not out.stdout:
        sys.exit(f"{' '.join(setup)}: {out.stderr.strip()[-300:]}")
    data = json.loads(out.stdout)
    data.pop("seconds", None)
    data.get("stats", {}).pop("decisions_per_second", None)
    for r in data.get("results", []):
        r.pop("seconds", None)
    return data


def comparable(data: dict) -> dict:
    """The report without rule-file places (the coverage lists name each rule by key and place): a line
    added to a rule file moves the places, not the games."""

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k != "at"}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return strip(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, metavar="DIR")
    mode.add_argument("--check", type=Path, metavar="DIR")
    args = ap.parse_args()
    differ = 0
    for setup in SETUPS:
        name = "_".join(setup).replace("/", "-") + ".json"
        data = report(setup)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / name).write_text(json.dumps(data, sort_keys=True, indent=0), encoding="utf-8")
            print(f"saved   {' '.join(setup)}")
            continue
        before = json.loads((args.check / name).read_text(encoding="utf-8"))
        same = comparable(before) == comparable(data)
        differ += not same
        print(f"{'same   ' if same else 'DIFFERS'} {' '.join(setup)}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
