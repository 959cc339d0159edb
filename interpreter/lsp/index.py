"""Where each name of a game is declared and where it is used, read from the rule files' YAML.

Built from the YAML alone (not the compiled program), so it answers while a file does not compile:
a file that does not read keeps what was found in it the last time it read. A declaration is a key of
a declaring section (``counters``, ``zones``, ...; the same under an expansion's ``add``/``replace``),
the ``id`` of a listed item (phases, actions, variants, setup steps, triggers, score parts), a
component's ``id``, a set's member or a table column. A use is the name as a word of any string value
that is not prose (``text``, ``name``, ``label``, ...) or as a mapping key outside its declaration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from mason.errors import DefinitionError
from mason.model.positions import Positions, read_rule_bytes, rule_text

# game.yaml sections whose keys declare names, and the kind of name
SECTIONS = {
    "counters": "counter",
    "zones": "zone",
    "vars": "variable",
    "values": "value",
    "constants": "constant",
    "sets": "set",
    "families": "family",
    "automata": "automaton",
    "boards": "board",
    "card_state": "card state field",
    "events": "event",
}
# lists whose items' ids declare names
LISTS = {
    ("flow", "phases"): "phase",
    ("phases",): "phase",
    ("turn", "actions"): "action",
    ("actions",): "action",
    ("variants",): "variant",
    ("setup",): "setup step",
    ("triggers",): "trigger",
    ("scoring", "parts"): "score part",
    ("score_parts",): "score part",
}
OVERLAYS = ("add", "replace")  # an expansion's sections holding declarations as game.yaml does
PROSE = {"text", "name", "label", "description", "title", "status", "rule", "prompt", "say", "help", "note"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Spot:
    """A name's place: the file, 0-based line and column (as the protocol counts), its length."""

    path: Path
    line: int
    col: int
    length: int


@dataclass(frozen=True)
class Declaration:
    """A declared name: its kind (counter, zone, card of family F, ...), its place and its data."""

    name: str
    kind: str
    spot: Spot
    data: object = None
    family: str | None = None  # for a component: its family


@dataclass
class FileIndex:
    """What one file declares and uses, from its last text that read."""

    text: str
    declarations: list[Declaration] = field(default_factory=list)
    data: object = None
    positions: Positions | None = None
    path: Path | None = None
    _words: list | None = None

    @property
    def words(self) -> list[tuple[str, Spot]]:
        """Every word of a non-prose value or key, with its place (found when first asked: references)."""
        if self._words is None:
            self._words = _words(self.path, self.positions) if self.path and self.positions else []
        return self._words


class GameIndex:
    """The names of one game (with its expansions' files), kept up to date file by file."""

    def __init__(self):
        self.files: dict[Path, FileIndex] = {}

    def update(self, path: Path, text: str | None) -> None:
        """Read ``path`` (``text``: its unsaved text, else the file on disk) if it changed; a text that
        does not read leaves what the file had."""
        path = Path(path)
        if text is None:
            try:
                text = rule_text(read_rule_bytes(path, str(path)), str(path))
            except DefinitionError:
                return
        old = self.files.get(path)
        if old is not None and old.text == text:
            return
        found = index_file(path, text)
        if found is not None:
            self.files[path] = found
        elif old is not None:
            old.text = text  # unread: keep the last names found, but do not read this text again

    def keep_only(self, paths) -> None:
        """Forget files no longer part of the game."""
        keep = set(paths)
        for p in list(self.files):
            if p not in keep:
                del self.files[p]

    def declarations(self, name: str | None = None) -> list[Declaration]:
        """Every declaration (of ``name``), in file order."""
        return [d for f in self.files.values() for d in f.declarations if name is None or d.name == name]

    def names(self) -> dict[str, Declaration]:
        """Each declared name with its first declaration."""
        out: dict[str, Declaration] = {}
        for d in self.declarations():
            out.setdefault(d.name, d)
        return out

    def uses(self, name: str) -> list[Spot]:
        """Every place ``name`` is written as a word, declarations included."""
        return [spot for f in self.files.values() for word, spot in f.words if word == name]


def index_file(path: Path, text: str) -> FileIndex | None:
    """Declarations and words of one file's text, or None when the text is not YAML that reads."""
    from mason.model.yamlpos import load_yaml_text

    try:
        data, pos = load_yaml_text(text, str(path), strict=False)
    except DefinitionError:
        return None
    out = FileIndex(text, data=data, positions=pos, path=path)
    if not isinstance(data, dict):
        return out
    decl = _Declarations(path, pos, out.declarations)
    if path.name in ("game.yaml", "expansion.yaml"):
        decl.game(data, ())
        for section in OVERLAYS:
            if isinstance(data.get(section), dict):
                decl.game(data[section], (section,))
    comps = data.get("components")
    family = data.get("family") if isinstance(data.get("family"), str) else path.stem
    for i, comp in enumerate(comps if isinstance(comps, list) else ()):
        if isinstance(comp, dict) and isinstance(comp.get("id"), str):
            decl.value(comp["id"], f"{family} component", ("components", i, "id"), comp, family)
    return out


class _Declarations:
    """Adds the declarations found in a file's data to a list."""

    def __init__(self, path: Path, pos: Positions, out: list):
        self.path, self.pos, self.out = path, pos, out

    def key(self, name, kind, path, data):
        place = self.pos.key_at(path)
        if place.line:
            self.out.append(
                Declaration(str(name), kind, Spot(self.path, place.line - 1, place.col - 1, len(str(name))), data)
            )

    def value(self, name, kind, path, data, family=None):
        spot = value_spot(self.path, self.pos, path)
        if spot is not None:
            self.out.append(Declaration(name, kind, spot, data, family))

    def game(self, g: dict, at: tuple) -> None:
        for section, kind in SECTIONS.items():
            entries = g.get(section)
            if isinstance(entries, dict):
                for name, data in entries.items():
                    self.key(name, kind, at + (section, name), data)
        sets = g.get("sets")
        for sname, members in sets.items() if isinstance(sets, dict) else ():
            for i, m in enumerate(members if isinstance(members, list) else ()):
                if isinstance(m, str):
                    self.value(m, f"member of the set {sname}", at + ("sets", sname, i), sname)
        for where, kind in LISTS.items():
            items = _get(g, where)
            for i, item in enumerate(items if isinstance(items, list) else ()):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    self.value(item["id"], kind, at + where + (i, "id"), item)
        table = g.get("table") if not at else None  # an expansion's rows extend the game's columns
        seen: set = set()
        rows = table if isinstance(table, dict) else {}
        for n, row in rows.items():
            for col in row if isinstance(row, dict) else ():
                if col != "status" and col not in seen:
                    seen.add(col)
                    self.key(
                        col,
                        "table column",
                        at + ("table", n, col),
                        {k: r.get(col) for k, r in rows.items() if isinstance(r, dict)},
                    )


def _get(g: dict, where: tuple):
    """The value at the key path ``where`` in ``g`` (None where a step is missing or not a mapping)."""
    found: object = g
    for k in where:
        if not isinstance(found, dict):
            return None
        found = found.get(k)
    return found


def value_spot(path: Path, pos: Positions, at: tuple) -> Spot | None:
    """The place of a string value's first character (inside its quotes)."""
    info = pos.scalars.get(tuple(at))
    if info is None:
        return None
    start, _end, style, value = info
    if style in ("'", '"'):
        start += 1
    place = pos.place_of_index(start)
    return Spot(path, place.line - 1, place.col - 1, len(str(value)))


def _words(path: Path, pos: Positions) -> list[tuple[str, Spot]]:
    """Every word of every non-prose string value, and every mapping key, with its place."""
    out: list[tuple[str, Spot]] = []
    for at, (start, end, style, value) in pos.scalars.items():
        if not isinstance(value, str) or (at and at[-1] in PROSE) or (len(at) > 1 and at[-2] in PROSE):
            continue
        plain = style in ("", None) and "\n" not in pos.text[start:end]
        for m in WORD.finditer(value):
            if plain:  # the value is the text as written: no mapping needed
                place = pos.place_of_index(start + m.start())
            else:
                line = value.count("\n", 0, m.start()) + 1
                col = m.start() - (value.rfind("\n", 0, m.start()) + 1) + 1
                place = pos.inside(at, line, col)
            out.append((m.group(), Spot(path, place.line - 1, place.col - 1, len(m.group()))))
    for at, place in pos.key_nodes.items():
        if at and isinstance(at[-1], str) and place.line:
            out.append((at[-1], Spot(path, place.line - 1, place.col - 1, len(at[-1]))))
    return out
