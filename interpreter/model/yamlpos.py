"""YAML reading with source positions: plain data plus a map from data paths to places."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from mason.errors import DefinitionError, Place
from mason.model.positions import (  # noqa: F401 (limits re-exported)
    MAX_ALIAS_NODES,
    MAX_FILE_BYTES,
    MAX_YAML_DEPTH,
    Positions,
    read_rule_bytes,
    rule_text,
)


def load_yaml(path: Path, shown: str | None = None, strict: bool = True):
    """Read one YAML file; return (data, Positions).

    A file that cannot be read or parsed raises DefinitionError with a place. Problems that do
    not stop reading (duplicate keys, bad keys) are collected in ``Positions.errors``; with
    ``strict`` the first of them is raised instead.
    """
    shown = shown or str(path)
    text = rule_text(read_rule_bytes(path, shown), shown)
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
    fast = _c_compose(text)
    node, alias_marks = fast if fast is not None else _compose(text, shown)
    if node is None:
        return None, pos
    data = _Builder(pos, alias_marks).build(node, ())
    if strict and pos.errors:
        raise pos.errors[0]
    return data, pos


def _compose(text: str, shown: str):
    """(node tree or None, alias marks) by PyYAML's own parser; a YAML error becomes a positioned
    DefinitionError in a designer's words."""
    try:
        loader = _BoundedLoader(text)  # the reader refuses control characters (a NUL byte) here
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, shown) from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        ctx, cmark, pmark = exc.context or "", exc.context_mark, exc.problem_mark
        at = lambda m: _mark_place(shown, text, m)  # noqa: E731
        if "flow" in ctx and cmark and pmark and at(pmark).line > at(cmark).line:
            # an unclosed { or [ is noticed lines later: point at the bracket itself
            opener = text[cmark.index] if cmark.index < len(text) else "{"
            closer = {"{": "}", "[": "]"}.get(opener, "}")
            problem = f"this '{opener}' is never closed with '{closer}' (at line {at(pmark).line}: {problem})"
            mark = cmark
        elif "end of stream" in problem and cmark:
            problem = f"{problem} {ctx} that starts here"  # e.g. a quote never closed
            mark = cmark
        elif ctx and cmark and pmark and at(cmark).line != at(pmark).line:
            problem += f" ({ctx} at line {at(cmark).line})"
        for word, plain in _YAML_WORDS.items():
            problem = problem.replace(word, plain)
        place = at(mark) if mark else Place(shown, 1, 1)
        raise DefinitionError(f"YAML syntax: {problem}", place, "definition/yaml") from None
    except yaml.YAMLError as exc:
        raise DefinitionError(f"YAML syntax: {exc}", Place(shown, 1, 1), "definition/yaml") from None
    finally:
        loader.dispose()
    return node, loader.alias_marks


def _mark_place(shown: str, text: str, mark) -> Place:
    """The place of a YAML mark, counted from its character offset: lines end at a newline only.

    PyYAML's own line and column also count U+0085, U+2028 and U+2029 as line breaks (YAML 1.1), so
    past one of them its line is not the line an editor, grep or Mason's other places show.
    """
    i = min(max(getattr(mark, "index", 0) or 0, 0), len(text))
    start = text.rfind("\n", 0, i) + 1
    return Place(shown, text.count("\n", 0, i) + 1, i - start + 1)


def _reader_error(exc, text: str, shown: str) -> DefinitionError:
    """PyYAML's reader error (a character YAML does not allow) at its place in the file."""
    i = exc.position if isinstance(exc.position, int) and 0 <= exc.position <= len(text) else 0
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    char = exc.character
    code = ord(char) if isinstance(char, str) else char if isinstance(char, int) else None
    shown_char = f"U+{code:04X}" if code is not None else repr(char)
    return DefinitionError(
        f"YAML syntax: the character {shown_char} is not allowed in a rule file (control characters"
        " other than tab and newline)",
        Place(shown, line, col),
        "definition/yaml",
    )


class _Bounded:
    """Composing that refuses mappings and lists nested deeper than MAX_YAML_DEPTH and notes where each
    alias is written (a mixin over PyYAML's Composer and a parser of events).

    PyYAML composes nodes recursively; without this bound a file of a few thousand '[' would end
    in a RecursionError instead of a positioned message.
    """

    _depth = 0
    alias_marks: dict
    check_event: Callable[..., bool]  # the parser's, in the class this is mixed into
    peek_event: Callable[..., Any]

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
            return yaml.composer.Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1


class _BoundedLoader(_Bounded, yaml.SafeLoader):
    """The safe loader (PyYAML's parser, in Python), bounded."""

    def __init__(self, stream):
        yaml.SafeLoader.__init__(self, stream)
        self._depth = 0
        self.alias_marks: dict[tuple, object] = {}  # (id(parent), key node id or index) -> the alias's mark


_CParser: Any = getattr(getattr(yaml, "_yaml", None), "CParser", None) if yaml.__with_libyaml__ else None

if _CParser is not None:

    class _CEventLoader(_Bounded, yaml.composer.Composer, _CParser, yaml.resolver.Resolver):
        """The same composing over libyaml's parser of events (in C): the same nodes, marks and styles
        as PyYAML's parser, about six times faster on a large file (a 91 KB game.yaml: 21 ms, not 128)."""

        def __init__(self, stream):
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self._depth = 0
            self.alias_marks: dict[tuple, object] = {}


def _c_compose(text: str):
    """(node tree or None, alias marks) by libyaml's event parser, or None when PyYAML has no libyaml,
    the text holds a character PyYAML refuses, or either parser finds a problem: then PyYAML's own
    parser reads it again (``_compose``), so every message and every refusal is PyYAML's."""
    if _CParser is None or yaml.reader.Reader.NON_PRINTABLE.search(text):
        return None
    loader = _CEventLoader(text)
    try:
        return loader.get_single_node(), loader.alias_marks
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None
    finally:
        loader.dispose()


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
            pos.nodes[path] = pos.place_of_index(alias.index)
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
    """A node's place, counted from its character offset (see ``_mark_place``)."""
    return pos.place_of_index(node.start_mark.index)
