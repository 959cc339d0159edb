"""Issue 30 item 5: hot seat. ``--bot 2=human`` puts a second person at the terminal; between two
different human seats the screen is cleared and a hand-off line waits for Enter, so that no hand is
left on screen for the next person to read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import paths
from support import invoke

CLEAR = "\x1b[2J"


def test_hot_seat_hands_off_between_two_human_seats_and_waits_for_enter(tmp_path):
    save = tmp_path / "hs.json"
    # P1 keeps a character; the hand-off waits for Enter (the empty line); P2 keeps one; at the hand-off
    # back to P1, quit (saved first)
    res = invoke("play", "citadels", "-p", 3, "--seed", 5, "--bot", "2=human", "--save", save, input="1\n\n1\nquit\n")
    out = res.output
    assert res.exit_code == 0, out
    p1, hand1 = out.index("[P1] Keep a character"), out.index("Pass to P2, press Enter")
    p2, hand2 = out.index("[P2] Keep a character"), out.index("Pass to P1, press Enter")
    assert p1 < hand1 < p2 < hand2
    assert "not accepted" not in out  # the Enter was the hand-off's, not an answer to P2's prompt
    assert "hand over the terminal" not in out
    assert f"quit: game saved to {save}" in out[hand2:]
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["seats"] == ["human", "human", "random"]
    assert saved["state"]["pending"]["seat"] == 0 and saved["state"]["round"] == 1


def test_one_human_seat_gets_no_hand_off(tmp_path):
    res = invoke("play", "citadels", "-p", 3, "--seed", 5, "--save", tmp_path / "one.json", input="1\n1\nquit\n")
    assert res.exit_code == 0, res.output
    assert "Pass to" not in res.output and "press Enter" not in res.output


def test_hot_seat_on_a_real_terminal_clears_the_screen_before_the_hand_off(tmp_path):
    """A real process whose output is a terminal (a pty): the clear-screen sequence comes after P1's
    prompt and before the hand-off line, and P2's table only after the Enter."""
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mason.cli.main", "play", "citadels", "-p", "3", "--seed", "5", "--bot", "2=human"]
        + ["--save", str(tmp_path / "pty.json")],
        stdin=subprocess.PIPE,
        stdout=slave,
        stderr=slave,
        cwd=paths.ROOT,
        env=dict(os.environ, NO_COLOR="1"),
    )
    os.close(slave)
    chunks: list[bytes] = []

    def read():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    proc.communicate(b"1\n\n1\nquit\n", timeout=120)
    reader.join(timeout=30)
    os.close(master)
    out = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0, out[-2000:]
    p1 = out.index("[P1] Keep a character")
    handoff = out.index("Pass to P2, press Enter")
    p2 = out.index("[P2] Keep a character")
    assert p1 < out.index(CLEAR, p1) < handoff < p2
    assert out.count(CLEAR) == 2  # P1 -> P2 and P2 -> P1
