"""Places in a YAML rule file: a map from data paths to places, and string scalars' insides.

Apart from the YAML reader (``mason.model.yamlpos``) so that a file read from the compile cache
(``mason.model.cache``) brings its places without importing PyYAML.
"""

from __future__ import annotations

import contextlib
import os
import stat
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache

from mason.errors import DefinitionError, Place

# Bounds on the work one rule file can cause (docs/rule-files.md, "Limits"): a file is read only if
# it is at most MAX_FILE_BYTES long, its mappings and lists nest at most MAX_YAML_DEPTH deep, and
# its aliases (``*name``) copy at most MAX_ALIAS_NODES nodes in all (nested anchors multiply).
MAX_FILE_BYTES = 512 * 1024
MAX_YAML_DEPTH = 32
MAX_ALIAS_NODES = 10_000


# Texts that stand for files on disk while they are read (an editor's unsaved buffers: ``mason lsp``):
# resolved path -> the text's bytes. Set only through ``overlaid``.
_OVERLAY: dict[str, bytes] = {}


@contextlib.contextmanager
def overlaid(texts: dict) -> Iterator[None]:
    """Within the block, a rule file whose path is a key of ``texts`` (path -> str) is read as that text
    instead of the file on disk (its bytes, so the compile cache keys it by what is read). Every reader
    of rule files goes through ``read_rule_bytes``, so loading and validating see the texts."""
    saved = dict(_OVERLAY)
    for path, text in texts.items():
        real = os.path.realpath(path)
        raw = text.encode("utf-8", "surrogatepass")
        if raw != _on_disk(real, len(raw)):  # a text as saved is the file: read (and cached) as such
            _OVERLAY[real] = raw
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(saved)


def is_overlaid(path) -> bool:
    """Whether ``path`` is read from a text given by ``overlaid`` (then it is never kept in the compile
    cache: an unsaved text changes with every keystroke)."""
    return bool(_OVERLAY) and os.path.realpath(path) in _OVERLAY


def _on_disk(path: str, size: int) -> bytes | None:
    """The file's bytes when it has exactly ``size`` of them, else None."""
    try:
        if os.path.getsize(path) != size or not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            return f.read(size + 1)
    except OSError:
        return None


def read_rule_bytes(path, shown: str) -> bytes:
    """The bytes of one rule file, read in bounded time and memory; DefinitionError when it cannot be.

    Only a regular file (or a link to one) is read, and at most MAX_FILE_BYTES of it: a pipe would
    block the reader forever and a device like /dev/zero never ends. The file is opened without
    blocking and checked on the descriptor itself, so a pipe put in its place is never waited on.
    A text given by ``overlaid`` is read instead of the file, under the same bound.
    """
    place = Place(shown, 1, 1)
    if _OVERLAY:
        text = _OVERLAY.get(os.path.realpath(path))
        if text is not None:
            if len(text) > MAX_FILE_BYTES:
                raise DefinitionError(
                    f"this file is {len(text):,} bytes; a rule file may have at most {MAX_FILE_BYTES:,}"
                    " (split it into several files)",
                    place,
                    "definition/too-large",
                )
            return text
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise DefinitionError(f"cannot read file: {exc.strerror or exc}", place, "definition/io") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe" if stat.S_ISFIFO(info.st_mode) else "a device"
            raise DefinitionError(f"cannot read file: it is {kind}, not a regular file", place, "definition/io")
        if info.st_size > MAX_FILE_BYTES:
            raise DefinitionError(
                f"this file is {info.st_size:,} bytes; a rule file may have at most {MAX_FILE_BYTES:,}"
                " (split it into several files)",
                place,
                "definition/too-large",
            )
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise DefinitionError(f"cannot read file: {exc.strerror or exc}", place, "definition/io") from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise DefinitionError(
            f"this file is over {MAX_FILE_BYTES:,} bytes; a rule file may have at most {MAX_FILE_BYTES:,}"
            " (split it into several files)",
            place,
            "definition/too-large",
        )
    return b"".join(chunks)


def rule_text(raw: bytes, shown: str) -> str:
    """A rule file's bytes as text, as ``Path.read_text`` reads it: UTF-8, universal newlines."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        # placed at the first byte that is not UTF-8: the text before it is read as the file would be
        before = raw[: exc.start].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        line_start = before.rfind("\n") + 1
        raise DefinitionError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x}: {exc.reason}, at byte {exc.start} of the file)",
            Place(shown, before.count("\n") + 1, len(before) - line_start + 1),
            "definition/io",
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


class Positions:
    """Places of the nodes of one YAML document, keyed by their path (a tuple of keys/indices).

    ``scalars`` also remembers where and how each string scalar was written, so that a DSL error
    at (line, col) inside the string can be mapped back to the exact place in the file, whatever
    the scalar style (plain, quoted, literal ``|`` or folded ``>``, over one line or several).
    ``errors`` collects the non-fatal problems found while reading (duplicate keys, ...).
    """

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.lines = text.split("\n")  # lines end at a newline only (not at U+2028 and the like)
        self.nodes: dict[tuple, Place] = {}
        self.key_nodes: dict[tuple, Place] = {}
        self.scalars: dict[tuple, tuple] = {}  # path -> (start index, end index, style, value)
        self.errors: list[DefinitionError] = []
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        self._maps: dict[tuple, list[int] | None] = {}
        self.digest: str | None = None  # the compile cache's key for this file read (mason.model.cache)

    def at(self, path: tuple) -> Place:
        """The place of `path`, or of its nearest existing ancestor."""
        path = tuple(path)
        while path:
            if path in self.nodes:
                return self.nodes[path]
            path = path[:-1]
        return self.nodes.get((), Place(self.file, 1, 1))

    def key_at(self, path: tuple) -> Place:
        """The place of the key of `path` (for mappings), else of the value."""
        return self.key_nodes.get(tuple(path)) or self.at(path)

    def place_of_index(self, index: int) -> Place:
        """The place of a 0-based character offset in the file text."""
        line = bisect_right(self._line_starts, index) - 1
        return Place(self.file, line + 1, index - self._line_starts[line] + 1)

    def inside(self, path: tuple, line: int, col: int) -> Place:
        """Map a 1-based (line, col) inside the string at `path` to a place in the file.

        Exact for every scalar style: the value is re-derived from the source text character by
        character (folding, escapes, block indentation), and if that ever disagrees with what
        PyYAML read, the place falls back to a line/column offset from the scalar's start.
        """
        path = tuple(path)
        info = self.scalars.get(path)
        if info is None:
            return self.at(path)
        start, end, style, value = info
        offset = _offset(value, line, col)
        if path not in self._maps:
            self._maps[path] = _char_map(self.text, start, end, style, value)
        cmap = self._maps[path]
        if cmap is not None:
            return self.place_of_index(cmap[min(offset, len(cmap) - 1)])
        return self._rough(start, style, line, col)

    def _rough(self, start: int, style: str, line: int, col: int) -> Place:
        first = self.place_of_index(start)
        if style in ("|", ">"):
            sline = first.line  # 1-based line of the indicator; content starts on the next line
            indent = 0
            for raw in self.lines[sline:]:
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
            return Place(self.file, sline + line, indent + col)
        if line == 1:
            return Place(self.file, first.line, first.col + (1 if style in ("'", '"') else 0) + col - 1)
        return Place(self.file, first.line + line - 1, col)


def _offset(value: str, line: int, col: int) -> int:
    """The character offset of 1-based (line, col) in `value` (clamped to its end)."""
    starts = _line_starts(value)
    line = max(1, line)
    if line > len(starts):
        return len(value)
    end = starts[line] - 1 if line < len(starts) else len(value)  # the line's length, without its newline
    return starts[line - 1] + min(max(col, 1) - 1, end - starts[line - 1])


@lru_cache(maxsize=4096)
def _line_starts(value: str) -> tuple[int, ...]:
    """The offsets where the lines of `value` start (a DSL text's places are mapped once per name it reads)."""
    return (0, *(i + 1 for i, ch in enumerate(value) if ch == "\n"))


# ---------------------------------------------------------------- scalar character maps
_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX = {"x": 2, "u": 4, "U": 8}


def _char_map(text: str, start: int, end: int, style: str, value: str) -> list[int] | None:
    """Source offsets of each character of `value` plus one for its end, or None if unsure."""
    try:
        if style in ("|", ">"):
            chars, idx = _block(text, start, end, style)
            if not idx or not chars.startswith(value):  # chomping only trims the end
                return None
            return idx[: len(value)] + [idx[len(value)] if len(idx) > len(value) else idx[-1]]
        a, b = (start + 1, end - 1) if style in ("'", '"') else (start, end)
        chars, idx = _flow(text, a, b, style)
        return idx + [b] if chars == value else None
    except (IndexError, ValueError, KeyError):
        return None


def _lines(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """(start, end) offsets of the lines of text[a:b], without their line breaks."""
    out, i = [], a
    while True:
        j = text.find("\n", i, b)
        if j < 0:
            out.append((i, b))
            return out
        out.append((i, j - 1 if j > i and text[j - 1] == "\r" else j))
        i = j + 1


def _flow(text: str, a: int, b: int, style: str) -> tuple[str, list[int]]:
    """Characters of a plain or quoted scalar with their source offsets (YAML line folding)."""
    chars: list[str] = []
    idx: list[int] = []
    lines = _lines(text, a, b)
    empties = 0
    escaped_break = False
    for n, (s, e) in enumerate(lines):
        last = n == len(lines) - 1
        if n > 0:
            while s < e and text[s] in " \t":
                s += 1
        if not last:
            while e > s and text[e - 1] in " \t" and not (style == '"' and _escaped(text, s, e - 1)):
                e -= 1
        if n > 0 and s == e and not last:
            empties += 1
            continue
        if n > 0:
            if empties:
                chars.extend("\n" * empties)
                idx.extend([s] * empties)
            elif not escaped_break:
                chars.append(" ")
                idx.append(s)
        empties, escaped_break = 0, False
        i = s
        while i < e:
            ch = text[i]
            if style == "'" and ch == "'" and i + 1 < e and text[i + 1] == "'":
                chars.append("'")
                idx.append(i)
                i += 2
            elif style == '"' and ch == "\\":
                if i + 1 >= e:  # an escaped line break joins the lines without a space
                    escaped_break = True
                    break
                code = text[i + 1]
                if code in _HEX:
                    width = _HEX[code]
                    chars.append(chr(int(text[i + 2 : i + 2 + width], 16)))
                    idx.append(i)
                    i += 2 + width
                else:
                    chars.append(_ESCAPES[code])
                    idx.append(i)
                    i += 2
            else:
                chars.append(ch)
                idx.append(i)
                i += 1
    return "".join(chars), idx


def _escaped(text: str, s: int, i: int) -> bool:
    """Is text[i] preceded by an odd number of backslashes (within the line from s)?"""
    n = 0
    while i - 1 - n >= s and text[i - 1 - n] == "\\":
        n += 1
    return n % 2 == 1


def _block(text: str, start: int, end: int, style: str) -> tuple[str, list[int]]:
    """Characters of a literal or folded block scalar with their source offsets."""
    header_end = text.index("\n", start)
    header = text[start:header_end].split("#")[0]
    lines = _lines(text, header_end + 1, end)
    digits = [ch for ch in header if ch.isdigit()]
    if digits:  # explicit indentation indicator: relative to the line holding the header
        line_start = text.rfind("\n", 0, start) + 1
        head_line = text[line_start:header_end]
        indent = len(head_line) - len(head_line.lstrip(" ")) + int(digits[0])
    else:
        indent = next((len(text[s:e]) - len(text[s:e].lstrip(" ")) for s, e in lines if text[s:e].strip()), 0)
    chars: list[str] = []
    idx: list[int] = []
    prev_kind = None  # None, "normal" or "more" (more-indented or starting with a space)
    pending: list[int] = []  # offsets of line breaks not yet emitted (folded style)
    for s, e in lines:
        content_start = s + indent
        blank = not text[s:e].strip()
        if style == "|":
            if e > content_start:
                for i in range(content_start, e):
                    chars.append(text[i])
                    idx.append(i)
            chars.append("\n")
            idx.append(e)
            continue
        if blank:
            pending.append(e)
            continue
        kind = "more" if text[content_start] in " \t" else "normal"
        if prev_kind is not None:
            breaks = pending[1:] if (prev_kind == "normal" and kind == "normal") else pending
            if prev_kind == "normal" and kind == "normal" and len(pending) == 1:
                chars.append(" ")
                idx.append(pending[0])
            else:
                chars.extend("\n" * len(breaks))
                idx.extend(breaks)
        else:
            chars.extend("\n" * len(pending))
            idx.extend(pending)
        pending = [e]
        for i in range(content_start, e):
            chars.append(text[i])
            idx.append(i)
        prev_kind = kind
    if style == ">" and pending:
        chars.extend("\n" * len(pending))
        idx.extend(pending)
    return "".join(chars), idx


# ---------------------------------------------------------------- reading
