"""Answers read from a list or a file (one per line): for tests, bug reports and replays.

A line is an option number (1-based), an option label, or for a subset several numbers or labels;
blank lines and lines starting with '#' are skipped. A list may also hold ready answers (0-based
ints, lists of ints). Running out of answers raises ScriptExhausted; an answer that does not fit
the pending decision raises a MasonError naming the script position.
"""

from __future__ import annotations

from pathlib import Path

from mason.agents.base import Agent, parse_answer
from mason.errors import IllegalAction, MasonError
from mason.presentation.render import seat_name
from mason.runtime.engine import check_answer


class ScriptExhausted(MasonError):
    """A scripted agent was asked a decision after its last answer."""

    code = "play/script-exhausted"


class ScriptedAgent(Agent):
    """An agent that types a fixed list of answers, one per decision (tests, ``--answers`` files)."""

    name = "scripted"

    def __init__(self, answers):
        self.answers = list(answers)
        self.pos = 0

    @classmethod
    def from_file(cls, path) -> "ScriptedAgent":
        """The agent of an answers file: one answer a line, blank lines and ``#`` comments skipped."""
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise MasonError(f"{path}: cannot read answers: {exc.strerror}", code="play/script") from None
        return cls([l for l in lines if l.strip() and not l.lstrip().startswith("#")])

    @property
    def exhausted(self) -> bool:
        """Whether every answer of the script has been given."""
        return self.pos >= len(self.answers)

    def decide(self, game, seat):
        """The next answer of the script, read as a person's typed answer would be."""
        pending = game.pending
        if self.pos >= len(self.answers):
            raise ScriptExhausted(
                f"the script has no answer for decision {self.pos + 1} ({seat_name(seat)}: {pending['prompt']})"
            )
        raw = self.answers[self.pos]
        self.pos += 1
        try:
            if isinstance(raw, bool):
                raise ValueError(f"{raw} is not an answer")
            answer = raw if isinstance(raw, (int, list)) else parse_answer(str(raw), pending)
            return check_answer(pending, answer)
        except (ValueError, IllegalAction) as exc:
            reason = exc.message if isinstance(exc, MasonError) else str(exc)
            raise MasonError(
                f"script answer {self.pos} ('{raw}') to '{pending['prompt']}': {reason}", code="play/script"
            ) from None
