"""The agent contract: given the game and the deciding seat, return an answer for the pending decision.

An answer is an option index (0-based) or, for a subset decision, a list of indices. Agents see
only what ``Game.view(seat)`` and ``Game.visible_log(seat)`` give them.
"""
from __future__ import annotations


class Agent:
    name = "agent"

    def decide(self, game, seat: int):
        raise NotImplementedError


def parse_answer(text: str, pending: dict):
    """Read a typed answer: a number (1-based), an option's label, or several numbers for a subset.

    Returns the 0-based answer, or raises ValueError with a reason a person can act on.
    """
    text = text.strip()
    labels = pending["labels"]
    if pending["subset"]:
        if text in ("", "none", "0", "-"):
            return []
        parts = text.replace(",", " ").split()
        out = []
        for part in parts:
            if not part.isdigit():
                raise ValueError(f"'{part}' is not an option number")
            out.append(int(part) - 1)
        return out
    if text.isdigit():
        return int(text) - 1
    lowered = [l.lower() for l in labels]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    starts = [i for i, l in enumerate(lowered) if l.startswith(text.lower())]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise ValueError(f"'{text}' matches several options: " + ", ".join(labels[i] for i in starts))
    raise ValueError(f"no option '{text}'; type a number from 1 to {len(labels)}")
