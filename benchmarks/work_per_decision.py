#!/usr/bin/env python3
"""Where a decision's work goes: Python bytecodes executed per decision, by function, and by area.

Wall time on a shared machine varies by a factor of two from one day to the next; the work done does
not. This counts, with a tracer, every bytecode the interpreter executes while `simulate` plays
GAMES random-bot games (after one game played untraced, so compilation on first use is left out),
and prints the bytecodes per decision by function and by area of the engine (the run loop and
frames, statements, expressions, named values and modifiers, the action window, the answer path,
the rest). The counts are exact and repeatable: the same code and seed give the same figures, so
two versions of Mason can be compared without timing noise.

With --instructions it also counts machine instructions per decision with valgrind's callgrind
(a run of GAMES games minus a run of none), when valgrind is installed: slower (about a minute for
30 games), but it weighs each bytecode by what it costs. Usage (from the project root):

    python benchmarks/work_per_decision.py [--game citadels] [--games 10] [--players 4] [--top 25]
                                           [--instructions]
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# area of the engine -> (file, function name) patterns, first match wins; generated code by its file name
AREAS = [
    ("expressions (generated and closures)", [("<mason expression>", ""), ("expr.py", ""), ("names.py", "")]),
    ("builtins", [("builtins.py", "")]),
    ("named values and modifiers", [("machine.py", "value")]),
    ("action window and turns", [("turns.py", "")]),
    ("choices and answers", [("choices.py", ""), ("answers.py", ""), ("game.py", "answer"), ("game.py", "_run")]),
    ("bots", [("random_agent.py", ""), ("greedy.py", ""), ("rng.py", ""), ("session.py", "play_game")]),
    (
        "run loop and frames",
        [
            (
                "machine.py",
                r"^(run|_block|_for|_repeat|_while|run_inline|run_now|drain|push_or_run|push_block|bound|_steps)$",
            )
        ],
    ),
    ("statements", [("machine.py", r"^(s_|move_card|card_ids|_amount|_cards_of|emit|place_text)")]),
    ("values and narration helpers", [("values.py", ""), ("machine.py", "")]),
]


def area_of(filename: str, func: str) -> str:
    for area, patterns in AREAS:
        for file, name in patterns:
            if filename.endswith(file) and (not name or re.search(name, func)):
                return area
    return "other (primitives, state, the rest)"


def count_bytecodes(game: str, games: int, players: int) -> tuple[int, collections.Counter]:
    from mason.play.session import simulate
    from mason.session import game as game_module
    from mason.session.game import Settings

    def settings():
        return Settings(game, players, 1, (), (), {})

    simulate(settings(), 1)  # compile on first use, untraced
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        key = (Path(code.co_filename).name, code.co_name)

        def local(frame, event, arg):
            if event == "opcode":
                counts[key] += 1
            return local

        return local

    # a kept program's rule files are looked at again once a second (game.load_program): what that costs
    # depends on the clock, not on the games, so it is left out and two counts of the same games agree
    held = game_module.RECHECK_SECONDS
    game_module.RECHECK_SECONDS = math.inf
    sys.settrace(tracer)
    try:
        report = simulate(settings(), games)
    finally:
        sys.settrace(None)
        game_module.RECHECK_SECONDS = held
    if report["errors"]:
        raise SystemExit(f"simulate reported errors: {report['errors'][:2]}")
    return report["decisions"], counts


_PLAY = """
import sys
from mason.play.session import simulate
from mason.session.game import Settings
s = Settings(sys.argv[1], int(sys.argv[3]), 1, (), (), {})
simulate(s, 1)
print(simulate(s, int(sys.argv[2]))["decisions"])
"""


def instructions(game: str, games: int, players: int) -> tuple[int, int] | None:
    """(machine instructions of GAMES games minus none, decisions), or None without valgrind."""
    out = {}
    # one run first, outside valgrind, so both measured runs find the game in the compile cache (a run
    # that compiles it, after an edit, would count the compiling and make the difference meaningless)
    subprocess.run([sys.executable, "-c", _PLAY, game, "0", str(players)], cwd=ROOT, capture_output=True, check=False)
    for n in (0, games):
        count, stdout = callgrind([sys.executable, "-c", _PLAY, game, str(n), str(players)])
        if count is None:
            return None
        out[n] = (count, int(stdout.split()[-1]))
    return out[games][0] - out[0][0], out[games][1]


def callgrind(argv: list[str]) -> tuple[int | None, str]:
    """(machine instructions the command executes, its standard output) under valgrind's callgrind;
    (None, "") when valgrind is not installed."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None, ""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed: {run.stderr.strip()[-300:]}")
    return int(found.group(1)), run.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="citadels")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--top", type=int, default=25, help="functions listed")
    ap.add_argument("--instructions", action="store_true", help="also count machine instructions (valgrind)")
    args = ap.parse_args()
    decisions, counts = count_bytecodes(args.game, args.games, args.players)
    total = sum(counts.values())
    print(f"{args.game}, {args.players} players, {args.games} games: {decisions:,} decisions")
    print(f"bytecodes per decision: {total / decisions:,.0f}")
    areas: collections.Counter = collections.Counter()
    for (file, func), n in counts.items():
        areas[area_of(file, func)] += n
    print("\nby area:")
    for area, n in areas.most_common():
        print(f"  {n / decisions:8.1f}  {n / total:6.1%}  {area}")
    print(f"\ntop {args.top} functions:")
    for (file, func), n in counts.most_common(args.top):
        print(f"  {n / decisions:8.1f}  {n / total:6.1%}  {func} ({file})")
    if args.instructions:
        found = instructions(args.game, args.games, args.players)
        if found is None:
            print("\nmachine instructions: valgrind is not installed")
        else:
            ins, n = found
            print(f"\nmachine instructions per decision (callgrind, {n:,} decisions): {ins / n:,.0f}")


if __name__ == "__main__":
    main()
