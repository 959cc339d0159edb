"""Boards: structured shared state declared under ``boards:`` in game.yaml, built by a registered kind.

A board is plain JSON data in ``state['boards'][name]``, created at setup by its kind's builder from
the YAML definition and the player count. A kind plugs in as ONE object, ``BoardKind``: its builder,
its load-time check and its board model (what a seat sees of it, as plain data: docs/boards.md),
registered once by name (``register_board_kind``; the ``@board_kind`` and ``@board_model``
decorators are thin wrappers over it). A second registration under a name, or a second model for a
kind, is refused at import. Terminals and web clients draw boards from their models only
(``mason.presentation.table``, ``mason.presentation.board_text``). Kinds live in
``mason.primitives``; their queries and procedures (``mason.dsl.builtins``) take the board's name as
first argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from mason.dsl.builtins import RegistrationError
from mason.errors import PlayError


@dataclass
class BoardKind:
    """A board primitive: everything the rest of Mason asks of ``kind: <name>``.

    ``build(definition: dict, players: int, table: dict) -> JSON data``: the board at setup.
    ``check(definition, table_columns) -> [(message, key or None), ...]``: the problems of a
    declaration at load time (``mason validate``), each placed at ``key`` of the board; None: none.
    ``model(program, name, data) -> dict``: what a seat sees of the board as plain JSON data (places,
    owners, labels, legend; docs/boards.md), from ``data`` as it stands in that seat's view and the
    declarations alone; None: the model holds the data itself.
    """

    name: str
    build: Callable
    check: Optional[Callable] = None
    model: Optional[Callable] = None
    module: str = ""  # the module that registered it (for messages and the docs test)


KINDS: dict[str, BoardKind] = {}

# a board's layout hints in YAML (``display:``, any kind; docs/boards.md), read by mason.play only
DISPLAY_KEYS = ("label", "table", "colours", "seat", "cell_code")
TABLE_FORMS = ("full", "line", "off")  # drawn / summed up on one line / left out of the table
COLOURS = ("red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey")


def display_problems(d) -> list:
    """The problems of a board's ``display`` hints: ``label`` a text, ``table`` one of TABLE_FORMS,
    ``colours`` a mapping of a code or value to one of COLOURS, ``seat`` the number (from 1) of the
    player whose board it is, ``cell_code`` the cell key a map shows as a cell's code (default
    ``kind``); ``[(message, "display"), ...]``."""
    if d is None:
        return []
    if not isinstance(d, dict):
        return [(f"display: a mapping of layout hints ({', '.join(DISPLAY_KEYS)})", "display")]
    out = [
        (f"display: unknown key '{k}' (known: {', '.join(DISPLAY_KEYS)})", "display")
        for k in d
        if k not in DISPLAY_KEYS
    ]
    if "label" in d and not isinstance(d["label"], str):
        out.append(("display: label must be a text", "display"))
    if "table" in d and d["table"] not in TABLE_FORMS:
        out.append((f"display: table must be one of {', '.join(TABLE_FORMS)}, not {d['table']!r}", "display"))
    if "seat" in d and not (type(d["seat"]) is int and d["seat"] >= 1):
        out.append(("display: seat is a player's number, from 1", "display"))
    if "cell_code" in d and not isinstance(d["cell_code"], str):
        out.append(("display: cell_code names a cell's key (a text)", "display"))
    colours = d.get("colours", {})
    if not isinstance(colours, dict) or any(c not in COLOURS for c in colours.values()):
        out.append((f"display: colours maps codes to colour names ({', '.join(COLOURS)})", "display"))
    return out


# a zone's layout hints in YAML (``display:`` under a zone; docs/boards.md), read by mason.play only
ZONE_DISPLAY_KEYS = ("label", "table", "group_by", "show")


def zone_display_problems(d, card_state) -> list:
    """The problems of a zone's ``display`` hints: ``label`` a text, ``table`` one of TABLE_FORMS,
    ``group_by`` a card-state key (the table lists the zone's cards grouped by its value), ``show`` a
    list of card-state keys (written after each card's name); ``[(message, "display"), ...]``."""
    if d is None:
        return []
    if not isinstance(d, dict):
        return [(f"display: a mapping of layout hints ({', '.join(ZONE_DISPLAY_KEYS)})", "display")]
    out = [
        (f"display: unknown key '{k}' (known: {', '.join(ZONE_DISPLAY_KEYS)})", "display")
        for k in d
        if k not in ZONE_DISPLAY_KEYS
    ]
    if "label" in d and not isinstance(d["label"], str):
        out.append(("display: label must be a text", "display"))
    if "table" in d and d["table"] not in TABLE_FORMS:
        out.append((f"display: table must be one of {', '.join(TABLE_FORMS)}, not {d['table']!r}", "display"))
    keys = [d["group_by"]] if "group_by" in d else []
    if "show" in d:
        keys += d["show"] if isinstance(d["show"], list) else [d["show"]]
    for k in keys:
        if not isinstance(k, str) or k not in (card_state or {}):
            out.append((f"display: '{k}' is no card_state key (group_by and show name card_state keys)", "display"))
    return out


# name -> builder / checker: derived indexes kept by register_board_kind (and only there)
BOARD_KINDS: dict[str, Callable] = {}
BOARD_CHECKS: dict[str, Callable] = {}


def register_board_kind(kind: BoardKind) -> BoardKind:
    """Register a board kind; a kind already registered under that name is an error."""
    old = KINDS.get(kind.name)
    if old is not None:
        raise RegistrationError(
            f"board kind '{kind.name}' is registered twice: by {old.module or '?'} and by {kind.module or '?'}"
        )
    KINDS[kind.name] = kind
    BOARD_KINDS[kind.name] = kind.build
    if kind.check is not None:
        BOARD_CHECKS[kind.name] = kind.check
    return kind


def board_kind(name: str, check: Callable | None = None):
    """Decorator: register ``build`` (the decorated function) as board kind ``name`` (see BoardKind)."""

    def deco(fn):
        register_board_kind(BoardKind(name, fn, check, module=fn.__module__))
        return fn

    return deco


def board_model(name: str):
    """Decorator: the board model of kind ``name`` (registered before; one model per kind)."""

    def deco(fn):
        kind = KINDS.get(name)
        if kind is None:
            raise RegistrationError(f"a board model for board kind '{name}' ({fn.__module__}), which is not registered")
        if kind.model is not None:
            raise RegistrationError(f"board kind '{name}' gets a second board model ({fn.__module__})")
        kind.model = fn
        return fn

    return deco


def build_boards(program, players: int, table: dict) -> dict:
    """Every board's starting state, built by its kind for this player count and table row."""
    out = {}
    for name, definition in program.boards.items():
        if "display" in definition:  # layout hints (docs/boards.md) are no concern of the kind's builder
            definition = {k: v for k, v in definition.items() if k != "display"}
        out[name] = KINDS[definition["kind"]].build(definition, players, table)
    return out


def declaration(program, name, kind: str) -> dict:
    """The declaration of board ``name`` of this ``kind``, from the program alone (a builtin's static
    hooks, dsl.builtins.builtin); a KeyError when ``name`` is not such a board."""
    d = program.boards.get(name) if type(name) is str else None
    if d is None or d.get("kind") != kind:
        raise KeyError(name)
    return d


def state_code(kind: str, template: str):
    """A ``code`` hook (dsl.builtins.builtin) for a query of a board of this ``kind`` named by a literal
    (else it raises, and the builtin is called): ``template`` reads the board's state in place; where
    that raises (a cell or place the board lacks, say), the builtin must raise its own rule error,
    which is then the error; an argument the builtin reads otherwise than the template (a cell id
    it canonicalises) is handed over with ``_bail()`` (dsl.builtins.builtin's ``code``)."""

    def hook(program, name, *rest):
        declaration(program, name, kind)  # a KeyError where it names no such board: impl is called
        return template

    return hook


def ids_code(ids) -> str | None:
    """A board's ids (places, stations, slots) written as a Python tuple for a ``code`` hook's
    template (its ``.index`` finds the first of an id, as the queries do); None when an id is not a
    text or a whole number, or holds a brace, which the template's ``format`` would read."""
    ids = tuple(ids)
    text = repr(ids)
    if "{" in text or "}" in text or not all(type(i) in (str, int) for i in ids):
        return None
    return text


_SAY_PARAMS = frozenset(("text", "node", "to", "place", "type", "causes", "board", "primitive", "op"))


def board_event(rt, node, name: str, op: str, text: str | None = None, **fields) -> None:
    """Log a typed ``board`` event (docs/log-format.md): what a primitive did to board ``name``, as
    ``op`` (``place``, ``move``, ``turn``, ...) with its machine-readable ``fields``, beside the
    narration ``text`` (None: the change is logged without narration). The entry names the board and
    its kind (``primitive``). Boards are public (every seat's view holds them whole), so a board event
    is read by every seat. Logs nothing when the game is not narrated."""
    if rt.log is None:
        return
    taken = _SAY_PARAMS.intersection(fields)
    if taken:  # a field under one of say's own parameter names would be read as that parameter
        raise TypeError(f"board event field(s) {sorted(taken)} clash with the log's own keys")
    d = rt.prog.boards.get(name) if type(name) is str else None
    fields = {k: v for k, v in fields.items() if v is not None}
    rt.say(text, node, type="board", board=name, primitive=d["kind"] if d else None, op=op, **fields)


def piece_type(rt, piece) -> str | None:
    """The card type of a piece that is a card every seat may see (a board event names it beside the
    instance id), else None: a piece that is no card, or a card some seat may not see."""
    if type(piece) is not int or not 0 <= piece < len(rt.cards) or not rt._may_see(piece, None):
        return None
    return rt.cards[piece]["t"]


def board(rt, name: str):
    """The state of board ``name`` (``play/unknown`` when there is none)."""
    try:
        return rt.st["boards"][name]
    except KeyError:
        raise PlayError(f"no board '{name}'", code="play/unknown") from None


def _words(name) -> str:
    return str(name).replace("_", " ")


def display_of(decl) -> dict:
    """A declaration's layout hints (``display: {label, table, colours}``), {} when it has none."""
    d = decl.get("display") if isinstance(decl, dict) else None
    return dict(d) if isinstance(d, dict) else {}


def model_of(program, name: str, view: dict) -> dict:
    """The model of board ``name`` as ``view``'s seat sees it: ``name``, ``kind``, ``label``,
    ``status`` (exact / inferred / placeholder, when declared), ``display`` (layout hints from YAML),
    then the kind's own keys (docs/boards.md). Plain JSON data."""
    d = (getattr(program, "boards", None) or {}).get(name) or {}
    data = (view.get("boards") or {})[name]
    kind = d.get("kind")
    hints = display_of(d)
    out = {
        "name": name,
        "kind": kind,
        "label": hints.get("label") or d.get("label") or _words(name),
        "status": d.get("status"),
        "display": hints,
    }
    fn = KINDS[kind].model if kind in KINDS else None
    out.update(fn(program, name, data) if fn is not None else {"data": data})
    return out
