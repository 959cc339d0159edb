"""Bot kind strings: ``random``, ``greedy``, ``mcts`` and its budgeted spellings (``mcts:N``,
``mcts:N:dD``, ``mcts:N:Ts``, ``mcts:N:dD:Ts``), parsed in this one place (agents/mcts.py runs them).

Pure string work: no game, no search, so the command line and save files check a kind without
importing a bot.
"""

from __future__ import annotations

import math

from mason.errors import MasonError

KIND = "mcts"
DEFAULT_ITERATIONS = 16
MAX_ITERATIONS = 1_000_000
MAX_DEPTH = 10_000


def parse_kind(kind: str):
    """``(iterations, seconds or None, depth or None)`` for an mcts kind string, None when ``kind`` is not
    an mcts kind; a MasonError (one line) when it is one spelled wrong."""
    if kind != KIND and not kind.startswith(KIND + ":"):
        return None
    parts = kind.split(":")[1:]
    if len(parts) > 3:
        raise _bad(kind, "expected mcts, mcts:N, mcts:N:dD, mcts:N:Ts or mcts:N:dD:Ts")
    iterations, seconds, depth = DEFAULT_ITERATIONS, None, None
    if parts:
        if not parts[0].isdigit() or not 1 <= int(parts[0]) <= MAX_ITERATIONS:
            raise _bad(kind, f"the iterations N must be a whole number from 1 to {MAX_ITERATIONS}")
        iterations = int(parts[0])
    for t in parts[1:]:
        if t.startswith("d"):
            if depth is not None or seconds is not None:
                raise _bad(kind, "expected mcts, mcts:N, mcts:N:dD, mcts:N:Ts or mcts:N:dD:Ts")
            if not t[1:].isdigit() or not 1 <= int(t[1:]) <= MAX_DEPTH:
                raise _bad(kind, f"the depth dD must be d and a whole number from 1 to {MAX_DEPTH}, e.g. d8")
            depth = int(t[1:])
            continue
        if seconds is not None:
            raise _bad(kind, "expected mcts, mcts:N, mcts:N:dD, mcts:N:Ts or mcts:N:dD:Ts")
        try:
            seconds = float(t[:-1]) if t.endswith("s") else None
        except ValueError:
            seconds = None
        if seconds is None or not math.isfinite(seconds) or seconds <= 0:
            raise _bad(kind, "the time limit must be a positive number of seconds ending in 's', e.g. 0.05s")
    return iterations, seconds, depth


def _bad(kind, why):
    return MasonError(f"bad bot kind '{kind}': {why}", code="play/bot")
