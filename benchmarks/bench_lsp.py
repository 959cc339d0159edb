#!/usr/bin/env python3
"""Latency of ``mason lsp``'s diagnostics: a keystroke in a rule file to its diagnostics in the editor.

Starts ``mason lsp`` as a subprocess with a scratch compile cache (filled by one untimed
``mason validate`` first, as a user's cache is), drives it over stdio with pygls's LanguageClient
(tests/lsp_support.py), opens a copy of the game's FILE, waits for the first diagnostics (the first
load), then sends KEYS keystrokes, one at a time: each changes one character inside an effect (the
text then compiles anew) and every other one makes a DSL typo. For each it times, from the moment the
change is sent, the first publication (the game as loaded: what the 300 ms aim is about) and the second
(the complete check of ``mason validate``: every variant and expansion too). The times include the
server's debounce (DEBOUNCE seconds of quiet before a check). It also asks the server (``mason/timings``)
how long each check itself took, in its worker thread. Usage (from the project root):

    python benchmarks/bench_lsp.py [--game prague] [--file game.yaml] [--keys 20]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lsp_support import LspSession  # noqa: E402

from mason.lsp.server import DEBOUNCE  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="prague")
    ap.add_argument("--file", default="game.yaml")
    ap.add_argument("--keys", type=int, default=20)
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="mason-bench-lsp-"))
    try:
        folder = scratch / "work" / args.game
        shutil.copytree(ROOT / "games" / args.game, folder)
        env = {**os.environ, "MASON_CACHE_DIR": str(scratch / "cache")}
        subprocess.run(
            [sys.executable, "-c", "from mason.cli.entry import run; run()", "validate", str(folder)],
            cwd=folder.parent,
            env=env,
            capture_output=True,
            check=False,
        )
        path = folder / args.file
        text = path.read_text(encoding="utf-8")
        spots = [m.start(1) for m in re.finditer(r"\b(?:gain|pay) (\d)", text)]  # the amount's digit
        if not spots:
            sys.exit(f"{args.file} has no 'gain N' or 'pay N' to edit")
        first: list[float] = []
        complete: list[float] = []
        with LspSession(folder.parent, env=env) as s:
            began = time.perf_counter()
            s.open(path)
            s.diagnostics(path, after=0)
            load = time.perf_counter() - began
            s.diagnostics(path, after=1)  # the complete check of the first load
            load_complete = time.perf_counter() - began
            current = text
            for k in range(args.keys):
                at = spots[k % len(spots)]
                if k % 2 == 0:  # a typo: 'gain 2' -> 'gainx 2'
                    edited = text[: at - 1] + "x" + text[at - 1 :]
                else:  # a number changed: the effect compiles anew, no error
                    edited = text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1 :]
                if edited == current:
                    continue
                current = edited
                seen = s.count(path)
                sent = s.change(path, edited)
                s.diagnostics(path, after=seen)
                first.append(s.stamps[str(_uri(path))] - sent)
                s.diagnostics(path, after=seen + 1)
                complete.append(s.stamps[str(_uri(path))] - sent)
                time.sleep(0.3)
            checks = s.request("mason/timings")
        print(
            f"mason lsp, {args.game}/{args.file}, {len(first)} keystrokes (debounce {DEBOUNCE * 1000:.0f} ms included)"
        )
        print(f"  first load: diagnostics after {load * 1000:.0f} ms, complete after {load_complete * 1000:.0f} ms")
        for label, xs in (("the game as loaded", first), ("complete (variants, expansions)", complete)):
            xs = sorted(xs)
            p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
            print(
                f"  keystroke -> {label}: median {statistics.median(xs) * 1000:.0f} ms, "
                f"p90 {p90 * 1000:.0f} ms, best {xs[0] * 1000:.0f} ms, worst {xs[-1] * 1000:.0f} ms"
            )
        for stage, label in (("game", "the game as loaded"), ("complete", "complete")):
            xs = sorted(float(c[2]) for c in checks[-2 * len(first) :] if c[1] == stage)
            cpu = sorted(float(c[3]) for c in checks[-2 * len(first) :] if c[1] == stage)
            if xs:
                print(
                    f"  inside the server, checking ({label}): median {statistics.median(xs) * 1000:.0f} ms wall, "
                    f"{statistics.median(cpu) * 1000:.0f} ms CPU (best {cpu[0] * 1000:.0f}, worst {cpu[-1] * 1000:.0f})"
                )
        if s.stderr:
            print(f"  server stderr: {s.stderr[:300]!r}")
        print(f"  load average (1 min) at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _uri(path: Path) -> str:
    from lsp_support import uri

    return uri(path)


if __name__ == "__main__":
    main()
