"""Answers read from a list or a file (one per line): for tests and bug reports.

A line is an option number (1-based), an option label, or for a subset several numbers; blank
lines and lines starting with '#' are skipped. Running out of answers raises ScriptExhausted.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import MasonError
from .base import Agent, parse_answer


class ScriptExhausted(MasonError):
    code = "play/script-exhausted"


class ScriptedAgent(Agent):
    name = "scripted"

    def __init__(self, answers):
        self.answers = list(answers)
        self.pos = 0

    @classmethod
    def from_file(cls, path) -> "ScriptedAgent":
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise MasonError(f"{path}: cannot read answers: {exc.strerror}", code="play/script") from None
        return cls([l for l in lines if l.strip() and not l.lstrip().startswith("#")])

    def decide(self, game, seat):
        if self.pos >= len(self.answers):
            raise ScriptExhausted(f"the script has no answer for decision {self.pos + 1} "
                                  f"({game.pending['prompt']})")
        raw = self.answers[self.pos]
        self.pos += 1
        if isinstance(raw, (int, list)):
            return raw
        try:
            return parse_answer(str(raw), game.pending)
        except ValueError as exc:
            raise MasonError(f"script answer {self.pos} ('{raw}'): {exc}", code="play/script") from None
