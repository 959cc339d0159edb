"""A wheel: a rotating ring of slots over a fixed ring of stations; pieces sit in slots and turn with it.

``boards: {NAME: {kind: wheel, stations: [{id: ID, ...}, ...], slots: [{id: ID, ...}, ...], rotation: R}}``

- ``stations`` are listed clockwise; ``slots`` in their order on the wheel, one per station. Any
  key besides ``id`` is data for the rules (``wheel_station_info(b, st)["cost"]``,
  ``wheel_slot_info(b, sl)["bonus"]``).
- With the rotation counter r, slot k (0-based, declaration order) sits over station (k + r) mod n.
  One clockwise step is r + 1. ``rotation`` (default 0) is the starting r: a whole number, or a
  table column giving it per player count. r is kept between 0 and n - 1.
- A piece is any plain value (typically a card id), at most one per slot and never two equal ones
  on the wheel. ``cards: true`` says the pieces are cards: narration and the picture then show
  their names. ``label`` shapes narration (default: the board's name).
- ``words`` (optional): how the stations' and slots' data values read on the table, value -> words
  (``{special_or_vp1: special tile or 1 VP}``); a value without words is shown as its id in words.
- A slot *passes the end* when it goes from the last station to the first. ``wheel_turn`` records
  the pieces whose slot passed during that turn (once per passing, in the order they passed).

State: ``{"r": r, "pieces": {SLOT: piece or null}, "passed": [pieces that passed the end in the
latest wheel_turn]}``.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError, did_you_mean
from mason.primitives.ring import show
from mason.runtime.boards import (
    board,
    board_event,
    board_kind,
    board_model,
    declaration,
    ids_code,
    piece_type,
    state_code,
)
from mason.runtime.values import in_words, label_of

KEYS = ("status", "text", "kind", "label", "stations", "slots", "rotation", "cards", "words")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ==================================================================== declaration
def _ring_problems(items, key: str, what: str) -> list[tuple[str, str]]:
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        return [(f"{key} must be a non-empty list of mappings, each with an id", key)]
    out = [
        (f"{key}: entry {i} needs an id (a non-empty string)", key)
        for i, x in enumerate(items, 1)
        if not isinstance(x.get("id"), str) or not x["id"]
    ]
    ids = [x.get("id") for x in items if isinstance(x.get("id"), str)]
    out += [(f"{what} '{i}' is listed twice", key) for i in sorted(set(ids)) if ids.count(i) > 1]
    return out


def check_definition(d: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a wheel declaration as (message, key) pairs (empty when it is fine)."""
    out = [(f"unknown key '{k}'{did_you_mean(k, KEYS)}", k) for k in d if k not in KEYS]
    stations, slots = d.get("stations"), d.get("slots")
    bad_stations = _ring_problems(stations, "stations", "station")
    bad_slots = _ring_problems(slots, "slots", "slot")
    out += bad_stations + bad_slots
    if isinstance(stations, list) and isinstance(slots, list) and stations and len(slots) != len(stations):
        out.append((f"{len(slots)} slots for {len(stations)} stations: a wheel has one slot per station", "slots"))
    rot = d.get("rotation", 0)
    if isinstance(rot, str):
        if rot not in table_columns:
            out.append(
                (
                    f"rotation: '{rot}' is neither a whole number nor a table column{did_you_mean(rot, table_columns)}",
                    "rotation",
                )
            )
    elif not _whole(rot):
        out.append(("rotation must be a whole number or a table column", "rotation"))
    if not isinstance(d.get("cards", False), bool):
        out.append(("cards must be true or false", "cards"))
    said = d.get("words", {})
    if not isinstance(said, dict) or not all(isinstance(v, str) for v in said.values()):
        out.append(("words maps a data value to the words it reads as (a text)", "words"))
    return out


@board_kind("wheel", check=check_definition)
def _build(d, players, table):
    problems = check_definition(d, list(table))
    if problems:
        raise PlayError(f"wheel board: {problems[0][0]}", code="definition/board")
    rot = d.get("rotation", 0)
    if isinstance(rot, str):
        rot = table.get(rot)
        if not _whole(rot):
            raise PlayError(
                f"wheel board: table column '{d['rotation']}' gives {rot!r} for this player count, not a whole number",
                code="definition/board",
            )
    return {"r": rot % len(d["stations"]), "pieces": {sl["id"]: None for sl in d["slots"]}, "passed": []}


# ==================================================================== helpers
def _wheel(rt, name):
    """The declaration and the state of a wheel board."""
    d = rt.prog.boards.get(name) if isinstance(name, str) else None
    if d is None or d.get("kind") != "wheel":
        raise PlayError(f"'{name}' is not a wheel board", code="play/type")
    return d, board(rt, name)


_POSITIONS: dict = {}  # id(a declaration's list) -> (the list, its ids, id -> position): see _positions


def _positions(d, key) -> tuple[list[str], dict]:
    """The ids of a wheel's stations or slots in order, and each id's position: derived from the
    program's declaration (never changed at play) once, not at every query. The entry keeps the list
    it was made from, so an id is never taken for another list's."""
    items = d[key]
    known = _POSITIONS.get(id(items))
    if known is None or known[0] is not items:
        if len(_POSITIONS) > 1_000:  # programs come and go (a long test run, a designer's session)
            _POSITIONS.clear()
        ids = [x["id"] for x in items]
        known = _POSITIONS[id(items)] = (items, ids, {i: k for k, i in reversed(list(enumerate(ids)))})
    return known[1], known[2]


def _ids(d, key) -> list[str]:
    return list(_positions(d, key)[0])


def _find(d, name, key, what, i) -> int:
    ids, where = _positions(d, key)
    k = where.get(i) if isinstance(i, (str, int, float, bool)) or i is None else None
    if k is None:
        raise PlayError(f"wheel '{name}' has no {what} {i!r}{did_you_mean(i, ids)}", code="play/unknown")
    return k


def _station_index(d, name, station) -> int:
    return _find(d, name, "stations", "station", station)


def _slot_index(d, name, slot) -> int:
    return _find(d, name, "slots", "slot", slot)


def _slot_over(d, data, j: int) -> str:
    """The slot over station index j."""
    return d["slots"][(j - data["r"]) % len(d["slots"])]["id"]


def _station_under(d, data, slot: str) -> str:
    k = _positions(d, "slots")[1][slot]
    return d["stations"][(k + data["r"]) % len(d["stations"])]["id"]


def _where(data, piece):
    return next((sl for sl, p in data["pieces"].items() if p is not None and p == piece), None)


def _piece_text(rt, d, piece) -> str:
    if d.get("cards") and _whole(piece) and 0 <= piece < len(rt.cards):
        return rt.card_name(piece)
    return show(piece)


def _say(rt, node, name, op, text, d, data, piece, source=None, dest=None):
    """The typed event of a piece put in, taken from or moved between slots: the slots and the stations
    under them, and the piece (a card by its type as well when the wheel holds cards)."""
    if rt.narrate:
        board_event(
            rt,
            node,
            name,
            op,
            text,
            piece=piece,
            piece_type=piece_type(rt, piece) if d.get("cards") else None,
            source=source,
            source_station=_station_under(d, data, source) if source is not None else None,
            dest=dest,
            dest_station=_station_under(d, data, dest) if dest is not None else None,
        )


# ==================================================================== queries
def _by_id(program, name, key) -> dict:
    """A wheel's stations or slots by id (the first of an id, as ``_find`` finds it)."""
    out: dict = {}
    for x in declaration(program, name, "wheel")[key]:
        out.setdefault(x["id"], x)
    return out


@builtin("wheel_rotation", 1)
def _rotation(rt, name):
    """The rotation counter r (0 .. stations - 1): slot k sits over station (k + r) mod n."""
    return _wheel(rt, name)[1]["r"]


@builtin(
    "wheel_stations", 1, static=lambda program, name: [x["id"] for x in declaration(program, name, "wheel")["stations"]]
)
def _stations(rt, name):
    """The station ids, clockwise."""
    return _ids(_wheel(rt, name)[0], "stations")


@builtin("wheel_slots", 1, static=lambda program, name: [x["id"] for x in declaration(program, name, "wheel")["slots"]])
def _slots(rt, name):
    """The slot ids, in declaration order."""
    return _ids(_wheel(rt, name)[0], "slots")


@builtin("wheel_station_info", 2, table=lambda program, name: _by_id(program, name, "stations"))
def _station_info(rt, name, station):
    """A station's declaration (its extra keys are data: ``wheel_station_info(b, st)["cost"]``)."""
    d = _wheel(rt, name)[0]
    return dict(d["stations"][_station_index(d, name, station)])


@builtin("wheel_slot_info", 2, table=lambda program, name: _by_id(program, name, "slots"))
def _slot_info(rt, name, slot):
    """A slot's declaration (its extra keys are data: ``wheel_slot_info(b, sl)["bonus"]``)."""
    d = _wheel(rt, name)[0]
    return dict(d["slots"][_slot_index(d, name, slot)])


def _slot_at_code(program, name, *rest) -> str | None:
    """``wheel_slot_at``'s ``code`` hook: the slot over a station read in place (the ids of a wheel
    named by a literal written as tuples; the first of an id, as ``_find`` finds it); where it raises
    (a station the wheel lacks), the builtin decides, with its own message. None: the builtin."""
    d = declaration(program, name, "wheel")
    slots = ids_code(x["id"] for x in d["slots"])
    stations = ids_code(x["id"] for x in d["stations"])
    if slots is None or stations is None:
        return None  # ids the template cannot hold as written
    return f"{slots}[({stations}.index({{1}}) - rt.st['boards'][{{0}}]['r']) % {len(d['slots'])}]"


def _piece_at_code(program, name, *rest) -> str | None:
    """``wheel_piece_at``'s ``code`` hook: the piece in the slot over a station, read in place."""
    slot = _slot_at_code(program, name)
    return None if slot is None else f"rt.st['boards'][{{0}}]['pieces'][{slot}]"


@builtin("wheel_slot_at", 2, code=_slot_at_code)
def _slot_at(rt, name, station):
    """The slot over a station now."""
    d, data = _wheel(rt, name)
    return _slot_over(d, data, _station_index(d, name, station))


@builtin("wheel_station_of", 2)
def _station_of(rt, name, slot):
    """The station a slot sits over now."""
    d, data = _wheel(rt, name)
    _slot_index(d, name, slot)
    return _station_under(d, data, slot)


@builtin("wheel_piece", 2, code=state_code("wheel", "rt.st['boards'][{0}]['pieces'][{1}]"))
def _piece(rt, name, slot):
    """The piece in a slot, or none."""
    d, data = _wheel(rt, name)
    _slot_index(d, name, slot)
    return data["pieces"][slot]


@builtin("wheel_piece_at", 2, code=_piece_at_code)
def _piece_at(rt, name, station):
    """The piece over a station (in the slot over it), or none."""
    return _piece(rt, name, _slot_at(rt, name, station))


@builtin("wheel_where", 2)
def _where_q(rt, name, piece):
    """The slot holding a piece, or none when it is not on the wheel."""
    return _where(_wheel(rt, name)[1], piece)


@builtin("wheel_occupied", 1)
def _occupied(rt, name):
    """The stations with a piece over them, in station order."""
    d, data = _wheel(rt, name)
    return [st["id"] for j, st in enumerate(d["stations"]) if data["pieces"][_slot_over(d, data, j)] is not None]


@builtin("wheel_passed", 1)
def _passed(rt, name):
    """The pieces whose slot went from the last station to the first in the latest ``wheel_turn``, in
    the order they passed (once per passing)."""
    return list(_wheel(rt, name)[1]["passed"])


# ==================================================================== procedures
@procedure("wheel_turn", 1, 2)
def _turn(rt, node, name, k=1):
    """``do wheel_turn(b, [k])``: turn the wheel k >= 1 steps clockwise (default 1); records ``wheel_passed``."""
    d, data = _wheel(rt, name)
    if not _whole(k) or k < 1:
        raise PlayError(f"a wheel turns a whole number of steps >= 1, not {k!r}", code="play/type")
    n = len(d["stations"])
    passed = []
    for _ in range(k):
        last = _slot_over(d, data, n - 1)  # this slot goes from the last station to the first
        if data["pieces"][last] is not None:
            passed.append(data["pieces"][last])
        data["r"] = (data["r"] + 1) % n
    data["passed"] = passed
    if rt.narrate:
        first = d["slots"][0]["id"]
        text = (
            f"the {label_of(d, name)} turns {k} step{'s' if k > 1 else ''}: "
            f"{first} now over {_station_under(d, data, first)}"
        )
        if passed:
            text += " (past the end: " + ", ".join(_piece_text(rt, d, p) for p in passed) + ")"
        board_event(
            rt,
            node,
            name,
            "turn",
            text,
            steps=k,
            rotation=data["r"],
            first=first,
            under=_station_under(d, data, first),
            passed=passed,
        )


def _empty_slot(rt, d, data, name, slot):
    _slot_index(d, name, slot)
    if data["pieces"][slot] is not None:
        raise PlayError(
            f"slot {slot} (over {_station_under(d, data, slot)}) already holds "
            f"{_piece_text(rt, d, data['pieces'][slot])}",
            code="play/occupied",
        )


@procedure("wheel_put", 3)
def _put(rt, node, name, slot, piece):
    """``do wheel_put(b, slot, piece)``: put a piece in an empty slot (not one already on the wheel)."""
    d, data = _wheel(rt, name)
    if piece is None:
        raise PlayError("none is not a piece", code="play/type")
    _empty_slot(rt, d, data, name, slot)
    there = _where(data, piece)
    if there is not None:
        raise PlayError(
            f"{_piece_text(rt, d, piece)} is already on the wheel (slot {there})", code="play/illegal-state"
        )
    data["pieces"][slot] = piece
    _say(
        rt,
        node,
        name,
        "put",
        f"{_piece_text(rt, d, piece)} -> {slot} (over {_station_under(d, data, slot)})",
        d,
        data,
        piece,
        dest=slot,
    )


@procedure("wheel_take", 2)
def _take(rt, node, name, slot):
    """``do wheel_take(b, slot)``: take the piece out of a slot (``play/empty`` when it holds none)."""
    d, data = _wheel(rt, name)
    piece = _piece(rt, name, slot)
    if piece is None:
        raise PlayError(f"slot {slot} (over {_station_under(d, data, slot)}) is empty", code="play/empty")
    data["pieces"][slot] = None
    _say(
        rt,
        node,
        name,
        "take",
        f"{_piece_text(rt, d, piece)} leaves {slot} (over {_station_under(d, data, slot)})",
        d,
        data,
        piece,
        source=slot,
    )


@procedure("wheel_move", 3)
def _move(rt, node, name, piece, slot):
    """``do wheel_move(b, piece, slot)``: move a piece on the wheel to an empty slot (nothing if it is there)."""
    d, data = _wheel(rt, name)
    src = _where(data, piece)
    if src is None:
        raise PlayError(f"{_piece_text(rt, d, piece)} is not on the wheel", code="play/illegal-state")
    if src == slot:
        return
    _empty_slot(rt, d, data, name, slot)
    data["pieces"][src], data["pieces"][slot] = None, piece
    _say(
        rt,
        node,
        name,
        "move",
        f"{_piece_text(rt, d, piece)}: {src} -> {slot} (over {_station_under(d, data, slot)})",
        d,
        data,
        piece,
        source=src,
        dest=slot,
    )


# ==================================================================== picture
def data_words(item: dict, said: dict | None = None) -> str:
    """A station's or slot's data in words, as the table shows it (``zone red, cost 1, star``): a true
    flag by its name, a value after its key, in the words the wheel declares for it (``said``) or as its
    id in words; false and unset keys are left out."""
    said = said or {}

    def value(v) -> str:
        return said[v] if isinstance(v, str) and v in said else in_words(v)

    return ", ".join(
        k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {value(v)}"
        for k, v in item.items()
        if k != "id" and v is not None and v is not False
    )


def _summary(item: dict, said: dict | None = None) -> str:
    said_data = data_words(item, said)
    return f"{item['id']} ({said_data})" if said_data else item["id"]


@board_model("wheel")
def board_model_(program, name, data) -> dict:
    """``rotation`` and ``stations`` clockwise: [{id, data, words, summary, slot, slot_data, slot_words,
    slot_summary, piece, piece_type}] (the slot now over the station, the data in words (``data_words``),
    the piece in it by name and, a card, its type), and ``passed`` (pieces past the end last turn)."""
    d = program.boards.get(name) or {}
    stations, slots = d.get("stations") or [], d.get("slots") or []
    n = len(stations)
    said = d.get("words") or {}

    def piece(p):
        if p is None:
            return None
        if d.get("cards") and _whole(p) and 0 <= p < len(program.instances):
            return program.types[program.instances[p]]["name"]
        return show(p)

    def _piece_type(p):
        if d.get("cards") and _whole(p) and 0 <= p < len(program.instances):
            return program.instances[p]
        return None

    out = []
    for j, st in enumerate(stations):
        slot = slots[(j - data["r"]) % n]
        out.append(
            {
                "id": st["id"],
                "data": {k: v for k, v in st.items() if k != "id"},
                "words": data_words(st, said),
                "summary": _summary(st, said),
                "slot": slot["id"],
                "slot_data": {k: v for k, v in slot.items() if k != "id"},
                "slot_words": data_words(slot, said),
                "slot_summary": _summary(slot, said),
                "piece": piece(data["pieces"].get(slot["id"])),
                "piece_type": _piece_type(data["pieces"].get(slot["id"])),
            }
        )
    return {"rotation": data["r"], "stations": out, "passed": [piece(p) for p in data.get("passed") or []]}
