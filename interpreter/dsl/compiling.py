"""What compiling DSL text shares: the compile error, the scope of local names, the host errors a rule's
evaluation may raise, and placing an inner error at its expression."""

from __future__ import annotations

from mason.errors import PlayError


class CompileError(Exception):
    """A name or shape problem at (line, col) inside a DSL string."""

    def __init__(self, message: str, node, code: str = "definition/unknown-name"):
        super().__init__(message)
        self.message, self.code = message, code
        self.line, self.col = getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1


class Scope:
    """Local names known at a point of compilation (function scoping, like Python)."""

    def __init__(self, names=(), parent: "Scope | None" = None):
        self.names = set(names)
        if parent:
            self.names |= parent.names

    def child(self, *names) -> "Scope":
        """A scope inside this one with ``names`` added (a comprehension's variable)."""
        return Scope(names, self)

    def add(self, name: str) -> None:
        """Know ``name`` from here on (a ``let``, a loop's or a choice's variable)."""
        self.names.add(name)


# what evaluating a rule can raise besides PlayError: turned into a PlayError at the rule's place
HOST_ERRORS = (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, AttributeError, OverflowError)


def placed(exc: PlayError, at) -> PlayError:
    """Give a play error raised by an inner part (a builtin, a seat check) the place of this expression."""
    if exc.place is None:
        exc.place = at()
    return exc
