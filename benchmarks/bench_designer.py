#!/usr/bin/env python3
"""Speed where designers feel it (issue 32 item 8): an mcts ``compare --until-decided`` and mcts decisions/s.

Times, as a designer runs it, the wall clock of

    mason compare citadels -p 4 --bots mcts --b variant=short_game --until-decided --seed 1 [PARALLEL]

with PARALLEL ``--workers 1``, ``--workers 2`` and ``--ray`` on a local Ray instance of 2 CPUs
(started for the run with ``RAY_ADDRESS=local``: a fresh instance, never one another user runs, torn
down when the command ends; no ``ray start``, so nothing is left in /tmp/ray), each stopped after
``--timeout`` seconds (then "not finished" is recorded with the time). The SPRT's looks fall on fixed
batches, so every finished run uses the same games and reaches the same decision; only the time
differs. Then the mcts bot's decisions per second, game by game: ``mason simulate GAME -n N -p 4
--bots mcts --seed 1 --json`` (every seat mcts at its default budget; decisions answered / seconds).
The machine's load average is recorded beside each figure: on a shared machine the times say as
much about the neighbours as about Mason.

Usage (from the project root):

    python benchmarks/bench_designer.py [--timeout 900] [--max-games N] [--games 2] [--skip-compare]
        [--skip-dps] [--only 1,2,ray] [--cap N [--kind KIND]] [--json FILE]

``--max-games N`` bounds each compare run (the SPRT then stops at N games a side if still undecided):
on a loaded machine the unbounded run may not end within the timeout. ``--cap N`` measures the
decisions per second over the first N decisions of each game, in-process, every seat ``--kind``
(default ``mcts``): whole games of four mcts seats take long in the slower games.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPARE = ["compare", "citadels", "-p", "4", "--bots", "mcts", "--b", "variant=short_game", "--until-decided"]
COMPARE += ["--seed", "1", "--quiet"]
RUNS = {"1": ["--workers", "1"], "2": ["--workers", "2"], "ray": ["--ray"]}
DPS_SETUPS = [("citadels", []), ("citadels", ["--with", "dark-city"]), ("golden-temple", []),
              ("island-fortress", []), ("pillars", []), ("prague", [])]  # fmt: skip


def mason() -> list[str]:
    """The command that runs this tree's mason (the venv's entry point when there is one)."""
    exe = Path(sys.executable).with_name("mason")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mason.cli.entry"]


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def run_compare(which: str, timeout: float, max_games: int | None = None) -> dict:
    """One timed compare run; the games it used and its decision read from its text report. A run
    past ``timeout`` is stopped with its whole process group (worker processes included)."""
    env = dict(os.environ)
    if which == "ray":
        env["RAY_ADDRESS"] = "local"  # a fresh local instance for this command, never a running cluster
    args = COMPARE + RUNS[which] + (["--max-games", str(max_games)] if max_games else [])
    row = {"run": which, "command": "mason " + " ".join(args), "load_before": load()}
    t = time.perf_counter()
    proc = subprocess.Popen(
        mason() + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
        start_new_session=True,
    )  # fmt: skip
    try:
        text, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate()
        row.update(finished=False, seconds=round(time.perf_counter() - t, 1), load_after=load())
        return row
    verdict = next((ln.strip() for ln in text.splitlines() if ln.startswith("sequential test")), "")
    games = re.findall(r"after (\d+) games? a side", text)
    row.update(
        finished=proc.returncode in (0, 1),
        exit=proc.returncode,
        seconds=round(time.perf_counter() - t, 1),
        games=int(games[0]) if games else None,
        verdict=verdict,
        load_after=load(),
    )
    return row


def run_dps(game: str, extra: list, games: int) -> dict:
    """mcts decisions per second in one game: simulate's own decisions and seconds (start-up excluded)."""
    cmd = mason() + ["simulate", game, *extra, "-n", str(games), "-p", "4", "--bots", "mcts", "--seed", "1", "--json"]
    before = load()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    r = json.loads(out.stdout)
    return {
        "setup": " ".join([game, *extra]),
        "games": r["completed"],
        "decisions": r["decisions"],
        "seconds": r["seconds"],
        "dps": round(r["decisions"] / r["seconds"], 1) if r["seconds"] else None,
        "load_before": before,
        "load_after": load(),
    }


def run_dps_capped(game: str, extra: list, games: int, cap: int, kind: str = "mcts") -> dict:
    """Decisions per second of ``kind`` at every one of 4 seats over the first ``cap`` decisions of each
    of ``games`` games (seeds 1..games), in this process: where a whole game of every seat mcts takes
    too long. The seconds are the wall time of answering (the bots' search and the engine's run to the
    next decision), the set-up of each game excluded."""
    sys.path.insert(0, str(ROOT))
    from mason.play.session import make_bot
    from mason.session.game import Game, Settings

    expansions = tuple(extra[1::2])  # ["--with", X, ...]
    before, decisions, seconds = load(), 0, 0.0
    for seed in range(1, games + 1):
        g = Game.new(Settings(game, 4, seed, (), expansions), narrate=False)
        bots = {s: make_bot(kind, seed, s) for s in range(4)}
        t = time.perf_counter()
        for _ in range(cap):
            if g.over:
                break
            seat = g.pending_unlabelled["seat"]
            g.answer(bots[seat].decide(g, seat))
            decisions += 1
        seconds += time.perf_counter() - t
    return {
        "setup": " ".join([game, *extra]) + f" (first {cap} decisions, `{kind}`)",
        "games": games,
        "decisions": decisions,
        "seconds": round(seconds, 1),
        "dps": round(decisions / seconds, 1) if seconds else None,
        "load_before": before,
        "load_after": load(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds a compare run may take (default 900)")
    ap.add_argument("--games", type=int, default=2, help="games a game for the decisions per second (default 2)")
    ap.add_argument("--only", default="1,2,ray", help="which compare runs: 1, 2, ray (default all)")
    ap.add_argument("--max-games", type=int, default=None, help="pass --max-games to compare (a bounded run)")
    ap.add_argument("--cap", type=int, default=None, help="decisions/s over the first CAP decisions a game, in-process")
    ap.add_argument("--kind", default="mcts", help="the bot kind of every seat for --cap (default mcts)")
    ap.add_argument("--skip-compare", action="store_true")
    ap.add_argument("--skip-dps", action="store_true")
    ap.add_argument("--json", metavar="FILE", help="save the rows")
    a = ap.parse_args()
    rows: dict = {"compare": [], "dps": []}

    def save():
        if a.json:
            Path(a.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")

    if not a.skip_compare:
        print("| run | wall time | games a side | decision | load average before / after |")
        print("|---|---|---|---|---|")
        for which in a.only.split(","):
            r = run_compare(which, a.timeout, a.max_games)
            rows["compare"].append(r)
            save()
            wall = f"{r['seconds']} s" if r["finished"] else f"not finished in {r['seconds']} s"
            print(f"| `{r['command']}` | {wall} | {r.get('games') or '-'} | {r.get('verdict') or '-'} "
                  f"| {r['load_before']} / {r['load_after']} |", flush=True)  # fmt: skip
    if not a.skip_dps:
        print(
            "\n| set-up (4 players, every seat mcts) | games | decisions | seconds | decisions/s | load before / after |"
        )
        print("|---|---|---|---|---|---|")
        for game, extra in DPS_SETUPS:
            r = run_dps_capped(game, extra, a.games, a.cap, a.kind) if a.cap else run_dps(game, extra, a.games)
            rows["dps"].append(r)
            save()
            print(f"| {r['setup']} | {r['games']} | {r['decisions']} | {r['seconds']} | {r['dps']} "
                  f"| {r['load_before']} / {r['load_after']} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
