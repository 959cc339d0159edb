"""Load on ``mason serve``: many concurrent games over real WebSockets on the loopback (issue 33 item 8).

Starts ``mason serve`` in its own process on a free port with a fresh database, creates GAMES games
(the shipped games in turn, each at its smallest player count of at least 2, or 1 for a solo game)
in which seat 1 is a scripted client and every other seat alternately a scripted client or a bot
(random, greedy; ``--mcts K`` gives K more games an mcts seat, reported apart), and lets every
scripted client answer over its own WebSocket until it has answered DECISIONS decisions, its game
ends, or SECONDS pass. A client answers at random among the options offered, at once or, with
``--think T``, after 0.5T to 1.5T seconds (people read the page before they click).

Measured: for every answer, the time from sending it to receiving the next state pushed to that
client (the view with the answer applied), median and 95th percentile, apart for the games with an
mcts seat; and the server's resident memory at the end and its peak (VmRSS, VmHWM of its process).

    python benchmarks/bench_serve.py --games 50 --decisions 40 --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import websockets

GAMES = ["citadels", "prague", "golden-temple", "pillars", "island-fortress"]


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid: int) -> dict:
    """The resident memory of process ``pid`` now and at its peak, in MiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


async def client(
    url: str, rng: random.Random, decisions: int, deadline: float, times: list, errors: list, think: float = 0.0
) -> int:
    """One scripted seat: answer at random until ``decisions`` answers, the game's end or ``deadline``."""
    answered = 0
    async with websockets.connect(url, max_size=2**24) as ws:
        sent_at, sent_version = None, None
        while answered < decisions and time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            msg = json.loads(raw)
            if msg.get("type") == "error":
                errors.append(msg["error"])
                sent_at = None
                await ws.send(json.dumps({"type": "state"}))
                continue
            if msg.get("type") != "state":
                continue
            state = msg["state"]
            if sent_at is not None and state["version"] > sent_version:
                times.append(time.perf_counter() - sent_at)
                sent_at = None
            if state["over"] or state["failed"]:
                break
            d = state["decision"]
            if d and sent_at is None:
                if think:  # a person reads the page first (0.5 to 1.5 times THINK seconds)
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    if time.monotonic() >= deadline:
                        break
                n = len(d["options"])
                answer = (
                    sorted(rng.sample(range(n), rng.randint(0, min(n, d["subset"]))))
                    if d["subset"]
                    else rng.randrange(n)
                )
                sent_at, sent_version = time.perf_counter(), state["version"]
                await ws.send(json.dumps({"type": "answer", "decision": d["id"], "answer": answer}))
                answered += 1
    return answered


def quantile(xs: list, q: float) -> float:
    """The ``q`` quantile of ``xs`` (the value at that rank, no interpolation)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def run(args) -> dict:
    """Start the server, create the games, run every scripted client at once; the figures."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="mason-bench-serve-")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mason.cli.entry",
            "serve",
            "--port",
            str(port),
            "--db",
            os.path.join(folder, "games.sqlite"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            for _ in range(600):
                try:
                    if (await http.get("/api/games")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.05)
            catalogue = {g["id"]: g for g in (await http.get("/api/games")).json()}
            plans = []
            for k in range(args.games + args.mcts):
                game = GAMES[k % len(GAMES)]
                g = catalogue[game]
                players = max(g["min"], 2) if g["max"] >= 2 and game != "golden-temple" else 1
                seats = ["human"] + [
                    ("human" if (k + s) % 2 else ("random" if k % 3 else "greedy")) for s in range(1, players)
                ]
                mcts = k >= args.games
                if mcts:
                    seats = ["human"] + ["mcts:20"] * (players - 1) if players > 1 else ["human"]
                made = (
                    await http.post("/api/games", json={"game": game, "players": players, "seed": k, "seats": seats})
                ).json()
                tokens = [lk["token"] for lk in made["links"] if lk["role"] == "seat"]
                plans.append((game, mcts, tokens))
        deadline = time.monotonic() + args.seconds
        times = {False: [], True: []}
        errors: list = []
        rng = random.Random(args.seed)
        started, cpu0, mine0 = time.perf_counter(), cpu_seconds(proc.pid), time.process_time()
        jobs = [
            client(
                f"ws://127.0.0.1:{port}/ws/{t}",
                random.Random(rng.random()),
                args.decisions,
                deadline,
                times[mcts],
                errors,
            )
            for game, mcts, tokens in plans
            for t in tokens
        ]
        answered = await asyncio.gather(*jobs)
        wall = time.perf_counter() - started
        mem, cpu = memory(proc.pid), cpu_seconds(proc.pid) - cpu0
        clients_cpu = time.process_time() - mine0
    finally:
        proc.kill()
        proc.wait()
    plain = times[False]
    return {
        "games": args.games,
        "mcts_games": args.mcts,
        "clients": len(answered),
        "answers": sum(answered),
        "seconds": round(wall, 1),
        "median_ms": round(1000 * statistics.median(plain), 1) if plain else None,
        "p95_ms": round(1000 * quantile(plain, 0.95), 1) if plain else None,
        "mcts_median_ms": round(1000 * statistics.median(times[True]), 1) if times[True] else None,
        "mcts_p95_ms": round(1000 * quantile(times[True], 0.95), 1) if times[True] else None,
        "server_cpu_seconds": round(cpu, 1),
        "server_cpu_ms_per_answer": round(1000 * cpu / max(1, sum(answered)), 1),
        "clients_cpu_seconds": round(clients_cpu, 1),
        "load_average": os.getloadavg()[0],
        "rss_mib": round(mem.get("VmRSS", 0), 1),
        "peak_rss_mib": round(mem.get("VmHWM", 0), 1),
        "errors": len(errors),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }


def main() -> None:
    """Parse the arguments, run the load, print the figures as JSON and as a RESULTS.md row."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50, help="games without an mcts seat")
    ap.add_argument("--mcts", type=int, default=0, help="more games with mcts:20 seats, measured apart")
    ap.add_argument("--decisions", type=int, default=40, help="answers per scripted client at most")
    ap.add_argument("--seconds", type=float, default=120, help="time limit of the whole run")
    ap.add_argument("--think", type=float, default=0.0, help="seconds a client waits before answering (0.5x-1.5x)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    out = asyncio.run(run(args))
    print(json.dumps(out))
    cmd = (
        f"python benchmarks/bench_serve.py --games {args.games} --mcts {args.mcts} --decisions {args.decisions} "
        f"--seconds {args.seconds:g} --think {args.think:g}"
    )
    print(
        f"| {time.strftime('%Y-%m-%d')} | {out['games']} (+{out['mcts_games']} mcts) | {out['clients']} | {out['answers']} "
        f"| {out['median_ms']} | **{out['p95_ms']}** | {out['mcts_median_ms']} / {out['mcts_p95_ms']} "
        f"| {out['rss_mib']} ({out['peak_rss_mib']} peak) | {out['server_cpu_ms_per_answer']} | {out['load_average']:.1f} "
        f"| {out['errors']} | `{cmd}` |"
    )


if __name__ == "__main__":
    main()
