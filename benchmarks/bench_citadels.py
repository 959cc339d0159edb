#!/usr/bin/env python3
"""Mason vs the hand-coded reference: decisions per second on random 4-player Citadels games.

Runs, interleaved in one process session, `mason simulate citadels -p 4 -n GAMES --json` (in a
subprocess, so start-up is excluded by using the report's own `seconds`; those include loading the
compiled game from its cache, about 0.05 s of 1.9 s for 200 games, 2026-11-27, counted against Mason)
and the reference `citadels_ref.py REF_GAMES 4 SEED`, for several rounds, and reports the best and the median of each
and their ratios. Usage (from the project root):

    python benchmarks/bench_citadels.py [--games 200] [--ref-games 1600] [--rounds 5]
                                        [--ref ../shared/bench/citadels_ref.py]
                                        [--record benchmarks/RESULTS.md] [--instructions 30]

The ratio is that of the best runs: each program's fastest round, the run least slowed by the
machine's other work (as ``timeit`` takes its minimum). This machine's speed moves by up to 2x within
minutes, even between the two runs of one round, so the rounds' own ratios spread widely (0.12 to
0.24 in one run) and the median of Mason's runs and that of the reference's can come from different
machine speeds; the best runs were the steadiest figure (0.153, 0.151 and 0.145 in three runs within
half an hour).
The median of the rounds' ratios and the ratio of the medians are printed too. The reference plays
REF_GAMES games (by default 8 x GAMES) so that its run lasts about as long as Mason's: a run of a
tenth of a second is timed within one burst of the machine's speed, fast or slow.

Wall time on a shared machine moves by 2x within an hour. ``--instructions N`` also counts, with
valgrind's callgrind, the machine instructions per decision of N games of each (N games minus none,
so start-up is left out): exact and repeatable, and their ratio (the reference's per decision over
Mason's) is what the decisions per second would show if both ran their instructions equally fast.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_mason(games: int, seed: int) -> tuple[float, float]:
    """(decisions per second, games per second) of ``mason simulate``, by its own ``seconds``."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mason.cli.main",
            "simulate",
            "citadels",
            "-p",
            "4",
            "-n",
            str(games),
            "--seed",
            str(seed),
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(out.stdout)
    if report["errors"]:
        raise SystemExit(f"mason simulate reported errors: {report['errors'][:3]}")
    return report["decisions"] / report["seconds"], games / report["seconds"]


def run_ref(ref: Path, games: int, seed: int) -> tuple[float, float]:
    """(decisions per second, games per second) of the reference, by its own ``seconds``."""
    out = subprocess.run(
        [sys.executable, str(ref), str(games), "4", str(seed)], capture_output=True, text=True, check=True
    )
    report = json.loads(out.stdout)
    return report["decisions_per_second"], games / report["seconds"]


def instructions_per_decision(ref: Path, games: int, seed: int) -> tuple[float, float]:
    """(Mason's, the reference's) machine instructions per decision over ``games`` games each."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import work_per_decision as work

    mason = work.instructions("citadels", games, 4)
    if mason is None:
        raise SystemExit("--instructions needs valgrind")
    counts = {}
    for n in (0, games):
        count, out = work.callgrind([sys.executable, str(ref), str(n), "4", str(seed)])
        counts[n] = (count, json.loads(out)["decisions"])
    return mason[0] / mason[1], (counts[games][0] - counts[0][0]) / counts[games][1]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--ref-games", type=int, default=0, help="games of the reference per round (default 8 x --games)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ref", type=Path, default=ROOT.parent / "shared" / "bench" / "citadels_ref.py")
    ap.add_argument("--record", type=Path, default=None, help="append the result to this Markdown file")
    ap.add_argument("--instructions", type=int, default=0, metavar="N", help="also count instructions of N games")
    args = ap.parse_args()
    if not args.ref.exists():
        raise SystemExit(f"reference not found: {args.ref} (pass --ref)")
    if args.instructions:
        m, f = instructions_per_decision(args.ref, args.instructions, args.seed)
        print(
            f"instructions per decision ({args.instructions} games each, callgrind): mason {m:,.0f}, reference {f:,.0f}"
        )
        print(f"instruction ratio (reference / mason): {f / m:.3f}", flush=True)
    ref_n = args.ref_games or 8 * args.games
    mason, ref, mason_games, ref_games, paired = [], [], [], [], []
    for r in range(args.rounds):  # interleaved so both see the same machine load
        (dm, gm), (dr, gr) = run_mason(args.games, args.seed + r), run_ref(args.ref, ref_n, args.seed + r)
        mason.append(dm)
        ref.append(dr)
        mason_games.append(gm)
        ref_games.append(gr)
        paired.append(dm / dr)
        print(
            f"round {r + 1}: mason {dm:,.0f} dec/s ({gm:,.1f} games/s), reference {dr:,.0f} dec/s ({gr:,.1f} games/s),"
            f" ratio {dm / dr:.3f}",
            flush=True,
        )
    m, f = statistics.median(mason), statistics.median(ref)
    ratio = max(mason) / max(ref)
    cmd = (
        f"python benchmarks/bench_citadels.py --games {args.games} --ref-games {ref_n} --rounds {args.rounds}"
        f" --seed {args.seed}"
    )
    summary = (
        f"| {datetime.now(timezone.utc).strftime('%Y-%m-%d')} | {max(mason):,.0f} | {max(ref):,.0f} | **{ratio:.3f}** | "
        f"{args.games} games (reference {ref_n}) x {args.rounds} rounds | {machine()} | `{cmd}` |"
    )
    print(
        f"best: mason {max(mason):,.0f} dec/s, reference {max(ref):,.0f} dec/s, ratio {ratio:.3f}; median: mason"
        f" {m:,.0f}, reference {f:,.0f} dec/s, ratio of the medians {m / f:.3f}, median of the rounds' ratios"
        f" {statistics.median(paired):.3f}"
    )
    gm, gr = statistics.median(mason_games), statistics.median(ref_games)
    print(
        f"games/s: best mason {max(mason_games):,.1f}, reference {max(ref_games):,.1f}, ratio"
        f" {max(mason_games) / max(ref_games):.3f}; median mason {gm:,.1f}, reference {gr:,.1f}, ratio {gm / gr:.3f}"
        " (Mason's games have more decisions)"
    )
    print(f"command: {cmd}")
    if args.record:
        args.record.write_text(add_row(args.record.read_text() if args.record.exists() else "", summary))


HEADER = "| date | Mason dec/s | reference dec/s | ratio | size | machine | command |"


def add_row(text: str, row: str) -> str:
    """``text`` with ``row`` added as the last row of the Citadels table (made at the end if missing),
    not after whatever other tables follow it in the file."""
    lines = text.splitlines()
    if HEADER not in lines:
        return text + f"\n{HEADER}\n|---|---|---|---|---|---|---|\n{row}\n"
    end = lines.index(HEADER) + 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines.insert(end, row)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
