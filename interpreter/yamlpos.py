"""YAML reading with source positions: plain data plus a map from data paths to places."""
from __future__ import annotations

from pathlib import Path

import yaml

from .errors import DefinitionError, Place


class Positions:
    """Places of the nodes of one YAML document, keyed by their path (a tuple of keys/indices).

    ``scalar_places`` also remembers how a string scalar was written so that a DSL error at
    (line, col) inside the string can be mapped back to the file.
    """

    def __init__(self, file: str, text: str):
        self.file = file
        self.lines = text.splitlines()
        self.nodes: dict[tuple, Place] = {}
        self.key_nodes: dict[tuple, Place] = {}
        self.scalars: dict[tuple, tuple[int, int, str]] = {}

    def at(self, path: tuple) -> Place:
        """The place of `path`, or of its nearest existing ancestor."""
        path = tuple(path)
        while path:
            if path in self.nodes:
                return self.nodes[path]
            path = path[:-1]
        return self.nodes.get((), Place(self.file, 1, 1))

    def key_at(self, path: tuple) -> Place:
        return self.key_nodes.get(tuple(path)) or self.at(path)

    def inside(self, path: tuple, line: int, col: int) -> Place:
        """Map a 1-based (line, col) inside the string at `path` to a place in the file."""
        info = self.scalars.get(tuple(path))
        if info is None:
            return self.at(path)
        sline, scol, style = info  # 0-based line/column of the node start
        if style in ("|", ">"):
            # block scalar: content starts on the next line, at the block's indentation
            first = sline + 1
            indent = 0
            for raw in self.lines[first:]:
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
            return Place(self.file, first + line, indent + col)
        offset = 1 if style in ("'", '"') else 0
        if line == 1:
            return Place(self.file, sline + 1, scol + offset + col)
        return Place(self.file, sline + line, col)


def load_yaml(path: Path, shown: str | None = None):
    """Read one YAML file; return (data, Positions). Raises DefinitionError with a place."""
    shown = shown or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DefinitionError(f"cannot read file: {exc}", Place(shown), "definition/io") from None
    return load_yaml_text(text, shown)


def load_yaml_text(text: str, shown: str):
    pos = Positions(shown, text)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = Place(shown, mark.line + 1, mark.column + 1) if mark else Place(shown)
        problem = exc.problem or exc.context or "invalid YAML"
        raise DefinitionError(f"YAML syntax: {problem}", place, "definition/yaml") from None
    except yaml.YAMLError as exc:
        raise DefinitionError(f"YAML syntax: {exc}", Place(shown), "definition/yaml") from None
    if node is None:
        return None, pos
    return _build(node, (), pos), pos


def _build(node, path: tuple, pos: Positions):
    pos.nodes[path] = Place(pos.file, node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise DefinitionError("YAML merge keys ('<<') are not supported",
                                      _place(pos, key_node), "definition/yaml")
            key = _scalar(key_node)
            if isinstance(key, bool):  # YAML 1.1 reads on/off/yes/no as booleans; keys are names
                key = key_node.value
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise DefinitionError("mapping keys must be strings or integers",
                                      _place(pos, key_node), "definition/yaml")
            if key in out:
                first = pos.key_nodes[path + (key,)]
                raise DefinitionError(f"duplicate key '{key}' (first defined at line {first.line})",
                                      _place(pos, key_node), "definition/duplicate-key")
            pos.key_nodes[path + (key,)] = _place(pos, key_node)
            out[key] = _build(value_node, path + (key,), pos)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), pos) for i, item in enumerate(node.value)]
    value = _scalar(node)
    if isinstance(value, str):
        pos.scalars[path] = (node.start_mark.line, node.start_mark.column, node.style or "")
    return value


def _place(pos: Positions, node) -> Place:
    return Place(pos.file, node.start_mark.line + 1, node.start_mark.column + 1)


_resolver = yaml.SafeLoader


def _scalar(node):
    if not isinstance(node, yaml.ScalarNode):
        return ("<complex>",)
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        raise DefinitionError(f"bad scalar: {exc}", Place("", node.start_mark.line + 1, node.start_mark.column + 1),
                              "definition/yaml") from None
