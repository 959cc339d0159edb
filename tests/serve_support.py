"""Helpers of the ``mason serve`` tests (tests/web): a real server in a process, on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx


def free_port() -> int:
    """A port nobody listens on now (the server binds it right after)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db, port):
    """``mason serve --port PORT --db DB`` in a process; (process, base URL) once it answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mason.cli.entry", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if proc.poll() is not None:
            break
        try:
            if httpx.get(base + "/api/games", timeout=5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start: " + proc.stderr.read().decode()[-500:])
