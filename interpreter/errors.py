"""One error family for Mason: every problem carries a stable code and, where known, a place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Place:
    """A position in a rule file (1-based line and column)."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file

    def shifted(self, line: int, col: int) -> "Place":
        """The same file at another line and column (a place inside a text that starts here)."""
        return Place(self.file, line, col)


class MasonError(Exception):
    """Root of every error Mason reports to a user.

    `code` is a stable string such as ``definition/schema`` or ``play/illegal-action``;
    tests assert on it. `place` names the rule-file position when there is one.
    """

    code = "mason/error"
    game: Any = None  # the Game as it stood, when an error stopped one (its log tells what happened)

    def __init__(self, message: str, place: Place | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.place = place
        if code:
            self.code = code

    def line(self) -> str:
        """The one-line form shown to users: ``file:line:col: error[code]: message``."""
        where = f"{self.place}: " if self.place else ""
        return f"{where}error[{self.code}]: {self.message}"

    def __str__(self) -> str:
        return self.line()


class DefinitionError(MasonError):
    """A problem in a rule file (YAML, schema, DSL, references)."""

    code = "definition/invalid"


class DefinitionErrors(MasonError):
    """Several definition errors collected by validation, sorted by place."""

    code = "definition/invalid"

    def __init__(self, errors: list[DefinitionError]):
        self.errors = sorted(errors, key=_sort_key)
        super().__init__(
            self.errors[0].message if self.errors else "invalid", self.errors[0].place if self.errors else None
        )

    def lines(self) -> list[str]:
        """Each error as its one-line message."""
        return [e.line() for e in self.errors]

    def __str__(self) -> str:
        return "\n".join(self.lines())


class PlayError(MasonError):
    """A problem while playing: an illegal answer or a broken game invariant."""

    code = "play/error"


class RoundCapReached(PlayError):
    """A game still running after ``flow.max_rounds`` rounds: its rules did not end it (no rule broke).
    ``mason simulate`` reports such a game as stalled, not as an error."""

    code = "play/loop"


class IllegalAction(PlayError):
    """An answer the pending decision refuses (not one of its options, or of the wrong shape)."""

    code = "play/illegal-action"


class SaveError(MasonError):
    """A save file or log that cannot be read or does not match."""

    code = "save/invalid"


def _sort_key(e: MasonError):
    p = e.place or Place("")
    return (p.file, p.line, p.col, e.message)


def did_you_mean(name: str, candidates) -> str:
    """A ` (did you mean 'x'?)` suffix when a close candidate exists, else ''."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
