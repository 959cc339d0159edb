"""YAML reading with source positions: plain data plus a map from data paths to places."""

from __future__ import annotations

import datetime
from bisect import bisect_right
from pathlib import Path

import yaml

from mason.errors import DefinitionError, Place

# Bounds on the work one rule file can cause (docs/rule-files.md, "Limits"): a file is read only if
# it is at most MAX_FILE_BYTES long, its mappings and lists nest at most MAX_YAML_DEPTH deep, and
# its aliases (``*name``) copy at most MAX_ALIAS_NODES nodes in all (nested anchors multiply).
MAX_FILE_BYTES = 512 * 1024
MAX_YAML_DEPTH = 32
MAX_ALIAS_NODES = 10_000


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
        self.lines = text.splitlines()
        self.nodes: dict[tuple, Place] = {}
        self.key_nodes: dict[tuple, Place] = {}
        self.scalars: dict[tuple, tuple] = {}  # path -> (start index, end index, style, value)
        self.errors: list[DefinitionError] = []
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        self._maps: dict[tuple, list[int] | None] = {}

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
    lines = value.split("\n")
    line = max(1, line)
    if line > len(lines):
        return len(value)
    return sum(len(x) + 1 for x in lines[: line - 1]) + min(max(col, 1) - 1, len(lines[line - 1]))


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
def load_yaml(path: Path, shown: str | None = None, strict: bool = True):
    """Read one YAML file; return (data, Positions).

    A file that cannot be read or parsed raises DefinitionError with a place. Problems that do
    not stop reading (duplicate keys, bad keys) are collected in ``Positions.errors``; with
    ``strict`` the first of them is raised instead.
    """
    shown = shown or str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise DefinitionError(
                f"this file is {size:,} bytes; a rule file may have at most {MAX_FILE_BYTES:,}"
                " (split it into several files)",
                Place(shown, 1, 1),
                "definition/too-large",
            )
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DefinitionError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", Place(shown, 1, 1), "definition/io"
        ) from None
    except OSError as exc:
        raise DefinitionError(f"cannot read file: {exc.strerror or exc}", Place(shown, 1, 1), "definition/io") from None
    return load_yaml_text(text, shown, strict)


# PyYAML's token names, in a designer's words
_YAML_WORDS = {
    "<block end>": "the end of the indented block (check the indentation)",
    "but found '?'": "but found a key",
    "but found '-'": "but found a list item ('-')",
    "<block mapping start>": "a mapping",
    "<block sequence start>": "a list",
    "mapping values are not allowed here": "a ':' is not allowed here (quote the value, or check the indentation)",
    "scalar": "value",
}


def load_yaml_text(text: str, shown: str, strict: bool = True):
    """Parse YAML text; see ``load_yaml``."""
    pos = Positions(shown, text)
    if len(text) > MAX_FILE_BYTES:
        raise DefinitionError(
            f"this text is {len(text):,} characters; a rule file may have at most "
            f"{MAX_FILE_BYTES:,} (split it into several files)",
            Place(shown, 1, 1),
            "definition/too-large",
        )
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        ctx, cmark, pmark = exc.context or "", exc.context_mark, exc.problem_mark
        if "flow" in ctx and cmark and pmark and pmark.line > cmark.line:
            # an unclosed { or [ is noticed lines later: point at the bracket itself
            opener = text[cmark.index] if cmark.index < len(text) else "{"
            closer = {"{": "}", "[": "]"}.get(opener, "}")
            problem = f"this '{opener}' is never closed with '{closer}' (at line {pmark.line + 1}: {problem})"
            mark = cmark
        elif "end of stream" in problem and cmark:
            problem = f"{problem} {ctx} that starts here"  # e.g. a quote never closed
            mark = cmark
        elif ctx and cmark and pmark and cmark.line != pmark.line:
            problem += f" ({ctx} at line {cmark.line + 1})"
        for word, plain in _YAML_WORDS.items():
            problem = problem.replace(word, plain)
        place = Place(shown, mark.line + 1, mark.column + 1) if mark else Place(shown, 1, 1)
        raise DefinitionError(f"YAML syntax: {problem}", place, "definition/yaml") from None
    except yaml.YAMLError as exc:
        raise DefinitionError(f"YAML syntax: {exc}", Place(shown, 1, 1), "definition/yaml") from None
    finally:
        loader.dispose()
    if node is None:
        return None, pos
    data = _Builder(pos, loader.alias_marks).build(node, ())
    if strict and pos.errors:
        raise pos.errors[0]
    return data, pos


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing mappings and lists nested deeper than MAX_YAML_DEPTH.

    PyYAML composes nodes recursively; without this bound a file of a few thousand '[' would end
    in a RecursionError instead of a positioned message.
    """

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self.alias_marks: dict[tuple, object] = {}  # (id(parent), key node id or index) -> the alias's mark

    def compose_node(self, parent, index):
        if parent is not None and self.check_event(yaml.AliasEvent):
            self.alias_marks[(id(parent), index if isinstance(index, int) else id(index))] = (
                self.peek_event().start_mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH and not self.check_event(yaml.AliasEvent, yaml.ScalarEvent):
                mark = self.peek_event().start_mark
                raise yaml.MarkedYAMLError(
                    problem=f"mappings and lists nest more than {MAX_YAML_DEPTH} deep here"
                    " (a rule file may nest at most that far)",
                    problem_mark=mark,
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Builder:
    """Turns composed YAML nodes into plain data, recording places and collecting key problems."""

    def __init__(self, pos: Positions, alias_marks: dict | None = None):
        self.pos = pos
        self.alias_marks = alias_marks or {}
        self.constructor = yaml.constructor.SafeConstructor()
        self.open: set[int] = set()  # nodes being built (an alias back to one is a cycle)
        self.built: set[int] = set()  # nodes built once: building one again is expanding an alias
        self.copied = 0  # nodes built again through aliases, in all
        self.alias_place: Place | None = None  # the outermost alias being expanded
        self.expanding = 0  # aliases being expanded, one inside the other

    def error(self, message: str, node, code: str = "definition/yaml") -> None:
        self.pos.errors.append(DefinitionError(message, _place(self.pos, node), code))

    def build(self, node, path: tuple, alias=None):
        pos = self.pos
        if alias is None:
            pos.nodes[path] = _place(pos, node)
        else:
            pos.nodes[path] = Place(pos.file, alias.line + 1, alias.column + 1)
            if not self.expanding:
                self.alias_place = pos.nodes[path]
            self.expanding += 1
            try:
                return self._build(node, path)
            finally:
                self.expanding -= 1
        return self._build(node, path)

    def _build(self, node, path: tuple):
        pos = self.pos
        if id(node) in self.open:
            self.error("a YAML alias refers to its own ancestor (a cycle)", node)
            return None
        if id(node) in self.built:
            self.copied += 1
            if self.copied > MAX_ALIAS_NODES:
                raise DefinitionError(
                    f"YAML aliases here copy more than {MAX_ALIAS_NODES:,} nodes in all (anchors"
                    " nested in anchors multiply); write the data out",
                    self.alias_place or pos.at(path),
                    "definition/yaml",
                )
        else:
            self.built.add(id(node))
        if isinstance(node, yaml.MappingNode):
            self.open.add(id(node))
            out: dict = {}
            for key_node, value_node in node.value:
                key = self.key(key_node)
                if key is None:
                    continue
                if key in out:
                    first = pos.key_nodes[path + (key,)]
                    self.error(
                        f"duplicate key '{key}' (first defined at line {first.line})",
                        key_node,
                        "definition/duplicate-key",
                    )
                    continue
                pos.key_nodes[path + (key,)] = _place(pos, key_node)
                out[key] = self.build(value_node, path + (key,), self.alias_marks.get((id(node), id(key_node))))
            self.open.discard(id(node))
            return out
        if isinstance(node, yaml.SequenceNode):
            self.open.add(id(node))
            out_list = [
                self.build(item, path + (i,), self.alias_marks.get((id(node), i))) for i, item in enumerate(node.value)
            ]
            self.open.discard(id(node))
            return out_list
        value = self.scalar(node)
        if isinstance(value, str):
            pos.scalars[path] = (node.start_mark.index, node.end_mark.index, node.style or "", value)
        return value

    def key(self, key_node):
        if key_node.tag == "tag:yaml.org,2002:merge":
            self.error("YAML merge keys ('<<') are not supported; write the keys out", key_node)
            return None
        if not isinstance(key_node, yaml.ScalarNode):
            self.error("mapping keys must be plain names or numbers, not lists or mappings", key_node)
            return None
        key = self.scalar(key_node)
        if isinstance(key, bool):
            key = key_node.value  # YAML 1.1 reads on/off/yes/no as booleans; keys are names
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            self.error(f"mapping keys must be names or whole numbers, not {key_node.value or 'empty'!r}", key_node)
            return None
        return key

    def scalar(self, node):
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
            self.error(f"bad value {node.value!r}: {getattr(exc, 'problem', None) or exc}", node)
            return node.value
        if isinstance(value, (datetime.date, datetime.datetime)):
            return node.value  # YAML 1.1 reads 2024-01-02 as a date; Mason has no dates
        return value


def _place(pos: Positions, node) -> Place:
    return Place(pos.file, node.start_mark.line + 1, node.start_mark.column + 1)
