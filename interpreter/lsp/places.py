"""Places as the protocol counts them, and the server's own, converted both ways.

LSP counts a document's lines at ``\\n``, ``\\r\\n`` and ``\\r`` and a line's characters in UTF-16 code
units (the encoding the server is given when the client names none); the rule files' places (``Place``,
an index ``Spot``) count characters in code points of the text read with universal newlines. A character
outside the Basic Multilingual Plane (``🎲``) is one code point and two UTF-16 units, so a place after one
on its line moves. Every place the server sends is also kept within the document: a place that an
older text gave (a file that does not read keeps the names it had) or one past a line's end is pulled
back to the nearest place that exists.
"""

from __future__ import annotations

import re

from lsprotocol import types as T

LINE_BREAK = re.compile(r"\r\n|\r|\n")


def lines_of(text: str) -> list[str]:
    """The document's lines as LSP counts them, without their breaks (a text ending in a break has an
    empty last line)."""
    return LINE_BREAK.split(text)


def normal(text: str | None) -> str | None:
    """A text with universal newlines (as a rule file is read), so that its lines are LSP's lines."""
    return None if text is None else text.replace("\r\n", "\n").replace("\r", "\n")


def units(s: str) -> int:
    """The length of ``s`` in UTF-16 code units."""
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


def to_client(lines: list[str], line: int, col: int) -> T.Position:
    """The LSP position of a 0-based (line, code-point column), within the document."""
    if not lines:
        return T.Position(0, 0)
    line = min(max(line, 0), len(lines) - 1)
    text = lines[line]
    col = min(max(col, 0), len(text))
    return T.Position(line, units(text[:col]))


def client_range(lines: list[str], line: int, col: int, end: int) -> T.Range:
    """The LSP range of columns ``col`` to ``end`` (code points) of one line, within the document."""
    start = to_client(lines, line, col)
    if not lines or not 0 <= line < len(lines):
        return T.Range(start, start)
    return T.Range(start, to_client(lines, line, max(end, col)))


def from_client(lines: list[str], position: T.Position) -> tuple[int, int]:
    """The 0-based (line, code-point column) of an LSP position; a place beyond a line's end or past
    the last line is the end of that line, or (len(lines), 0)."""
    if position.line >= len(lines):
        return position.line, 0
    text = lines[position.line]
    want, seen = position.character, 0
    for i, ch in enumerate(text):
        if seen >= want:
            return position.line, i
        seen += 2 if ord(ch) > 0xFFFF else 1
    return position.line, len(text)
