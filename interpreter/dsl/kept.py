"""What compiling the DSL produces from a source and may take from an earlier run instead.

The parser front keeps syntax trees by (text, start), the expression generator the code of its
generated functions by their source; the compile cache (``mason.model.cache``) *gives* both what an
earlier run produced, and *records* what a compilation produced anew to keep it for the next run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


class Kept:
    """Products by source: ``known`` (produced this run or given), and open recordings of each one used."""

    def __init__(self, limit: int | None = None):
        self.known: dict = {}
        self.limit = limit  # past this many, ``keep`` starts afresh (a long session compiling many games)
        self._recorders: list[dict] = []

    def give(self, items: dict) -> None:
        """Products of an earlier run: used instead of producing them again. Only what this code produced
        from exactly that source may be given (the compile cache keys them by the code's version)."""
        self.known.update(items)

    def keep(self, key, value) -> None:
        """A product made this run."""
        if self.limit is not None and len(self.known) >= self.limit:
            self.known.clear()
        self.known[key] = value

    def used(self, key, value) -> None:
        """Note a product used, for every open recording."""
        for rec in self._recorders:
            rec[key] = value

    @contextlib.contextmanager
    def recording(self) -> Iterator[dict]:
        """``with kept.recording() as used:`` collects ``key -> product`` of every one used inside."""
        rec: dict = {}
        self._recorders.append(rec)
        try:
            yield rec
        finally:
            self._recorders.remove(rec)
