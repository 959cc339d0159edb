"""Pyramids: slots in layers, where a slot above the bottom rests on slots of the layer below it.

``boards: {NAME: {kind: pyramid, shape: SHAPE | TABLE_COLUMN, shapes: {SHAPE: [SLOT, ...]}, label: TEXT}}``
with ``SLOT = {id: ID, layer: N, on: [ID, ...], label: TEXT, ...}``.

- ``shapes`` declares one or more shapes by name (boards may share them through YAML anchors);
  ``shape`` picks one: a shape name, or a table column whose value (per player count) is one.
- ``layer`` is 1 for the bottom; every slot above layer 1 names in ``on`` the slots (two or more,
  exactly one layer below) it rests on, and is *open* only when all of them are filled, by anyone.
  A layer-1 slot rests on the ground and is open while empty.
- Any other key of a slot is data for the rules (``points``, a reward...): ``pyramid_info``.
  ``label`` (slot or board) only shapes the narration.
- Left to right: a layer-1 slot's x is its position among the layer-1 slots (1, 2, ...); an upper
  slot's x is the mean of the x of the slots it rests on. The order is smallest x, then lower layer,
  then declaration order; ``pyramid_rank`` gives each slot's position in it (integers sort in the DSL).

State: ``{"shape": SHAPE, "owners": {ID: seat or null}}`` (every slot of the shape is a key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime.boards import board, board_event, board_kind, board_model
from mason.runtime.values import label_of

if TYPE_CHECKING:
    from fractions import Fraction


# ==================================================================== definition
def _is_int(v) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _shape_problems(sname, slots) -> list[str]:
    if not isinstance(slots, list) or not slots:
        return [f"shape '{sname}' must be a non-empty list of slots {{id, layer, on}}"]
    out: list[str] = []
    layer: dict[str, int | None] = {}
    for i, sl in enumerate(slots, 1):
        if not isinstance(sl, dict) or not isinstance(sl.get("id"), str):
            out.append(f"shape '{sname}', slot {i}: a mapping with a text 'id'")
            continue
        if sl["id"] in layer:
            out.append(f"shape '{sname}': slot id '{sl['id']}' is used twice")
        lv = sl.get("layer")
        if not _is_int(lv) or lv < 1:
            out.append(f"shape '{sname}', slot '{sl['id']}': layer must be a whole number >= 1")
            layer.setdefault(sl["id"], None)
            continue
        layer.setdefault(sl["id"], lv)
    for sl in slots:
        if not isinstance(sl, dict) or not isinstance(sl.get("id"), str) or layer.get(sl["id"]) is None:
            continue
        sid, lv, on = sl["id"], sl["layer"], sl.get("on")
        if lv == 1:
            if on not in (None, []):
                out.append(f"shape '{sname}', slot '{sid}': a layer-1 slot rests on the ground (no 'on')")
            continue
        if not isinstance(on, list) or not on or not all(isinstance(x, str) for x in on):
            out.append(f"shape '{sname}', slot '{sid}': a slot above layer 1 needs 'on', the slots it rests on")
            continue
        if len(set(on)) != len(on):
            out.append(f"shape '{sname}', slot '{sid}': 'on' names a slot twice")
        for x in on:
            if x not in layer:
                out.append(f"shape '{sname}', slot '{sid}': 'on' names an unknown slot '{x}'")
            elif layer[x] is not None and layer[x] != lv - 1:
                out.append(
                    f"shape '{sname}', slot '{sid}' (layer {lv}): '{x}' is on layer {layer[x]}, not on layer {lv - 1}"
                )
    return out


def check_definition(definition: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a pyramid board declaration as (message, key) pairs (empty when it is fine)."""
    out: list[tuple[str, str | None]] = []
    shapes = definition.get("shapes")
    if not isinstance(shapes, dict) or not shapes:
        return [("shapes must map a shape name to its list of slots", "shapes")]
    for sname, slots in shapes.items():
        out += [(m, "shapes") for m in _shape_problems(sname, slots)]
    shape = definition.get("shape")
    if not isinstance(shape, str):
        out.append(("shape must name one of 'shapes' or a table column holding one", "shape"))
    elif shape not in shapes and shape not in table_columns:
        out.append((f"shape: '{shape}' is neither a shape of 'shapes' nor a table column", "shape"))
    return out


def _shape_name(definition: dict, table: dict) -> str:
    shape, shapes = definition["shape"], definition["shapes"]
    if shape in shapes:
        return shape
    value = table.get(shape)
    if value not in shapes:
        raise PlayError(
            f"pyramid board: table column '{shape}' gives {value!r} for this player count, "
            f"not one of the shapes {', '.join(shapes)}",
            code="definition/board",
        )
    return str(value)  # one of the shapes' names


@board_kind("pyramid", check=check_definition)
def build(definition: dict, players: int, table: dict) -> dict:
    """A pyramid board's starting state: its shape for this player count and every slot free."""
    problems = check_definition(definition, list(table))
    if problems:
        raise PlayError(f"pyramid board: {problems[0][0]}", code="definition/board")
    name = _shape_name(definition, table)
    return {"shape": name, "owners": {sl["id"]: None for sl in definition["shapes"][name]}}


# ==================================================================== geometry (derived, never stored)
class Shape:
    """The slots of one shape: declarations by id, supports, x and the left-to-right order."""

    def __init__(self, slots: list):
        from fractions import Fraction  # imported here: only games with a pyramid need it, at every start

        self.decl = {sl["id"]: sl for sl in slots}
        self.ids = [sl["id"] for sl in slots]
        self.layer = {sl["id"]: sl["layer"] for sl in slots}
        self.on = {sl["id"]: list(sl.get("on") or []) for sl in slots}
        self.x: dict[str, Fraction] = {}
        for i, sid in enumerate([s for s in self.ids if self.layer[s] == 1], 1):
            self.x[sid] = Fraction(i)
        for lv in sorted(set(self.layer.values()) - {1}):
            for sid in self.ids:
                if self.layer[sid] == lv:
                    self.x[sid] = sum((self.x[o] for o in self.on[sid]), Fraction(0)) / len(self.on[sid])
        index = {s: i for i, s in enumerate(self.ids)}
        self.order = sorted(self.ids, key=lambda s: (self.x[s], self.layer[s], index[s]))
        self.rank = {s: i for i, s in enumerate(self.order)}


# (id of a board's definition, shape name) -> (the definition, kept so that its id is not reused; its
# geometry): the geometry depends on the program alone, so every runtime of it (a search bot makes one
# a trial) shares it instead of building it again
_SHAPES: dict[tuple[int, str], tuple[dict, Shape]] = {}


def _shape(definition: dict, data: dict) -> Shape:
    key = (id(definition), data["shape"])
    known = _SHAPES.get(key)
    if known is None or known[0] is not definition:
        known = _SHAPES[key] = (definition, Shape(definition["shapes"][data["shape"]]))
    return known[1]


def _def(rt, name):
    d = rt.prog.boards.get(name) if isinstance(name, str) else None
    if d is None or d.get("kind") != "pyramid":
        raise PlayError(f"'{name}' is not a pyramid board", code="play/type")
    return d


def _g(rt, name):
    """The board's state and its shape's geometry; the geometry depends on the program alone, so it is
    built once per runtime and shape (``rt.memo['pyramid']``), not at every query."""
    data = board(rt, name)
    shapes = rt.memo.get("pyramid")
    if shapes is None:
        shapes = rt.memo["pyramid"] = {}
    known = shapes.get(name)
    if known is None or known[0] != data.get("shape"):
        definition = _def(rt, name)  # (a board of another kind: said here, before its data is read)
        known = shapes[name] = (data["shape"], _shape(definition, data))
    return data, known[1]


def _slot(shape: Shape, name, s):
    if not isinstance(s, str) or s not in shape.decl:
        raise PlayError(f"pyramid '{name}' has no slot {s!r}", code="play/unknown")
    return s


def _seat(rt, s):
    if not _is_int(s) or not 0 <= s < rt.st["n"]:
        raise PlayError(f"not a seat: {s!r}", code="play/no-seat")
    return s


def is_open(owners: dict, shape: Shape, s: str) -> bool:
    """Empty, and every slot it rests on is filled (layer-1 slots rest on the ground)."""
    return owners[s] is None and all(owners[o] is not None for o in shape.on[s])


# ==================================================================== queries
@builtin("pyramid_slots", 1)
def _slots(rt, name):
    """Every slot id of the pyramid's shape, in declaration order."""
    return list(_g(rt, name)[1].ids)


@builtin("pyramid_layer", 2)
def _layer(rt, name, s):
    """The layer of a slot (1 = bottom)."""
    shape = _g(rt, name)[1]
    return shape.layer[_slot(shape, name, s)]


@builtin("pyramid_info", 2)
def _info(rt, name, s):
    """The slot's declaration as a dict: ``pyramid_info(b, s)["points"]`` and any other data."""
    shape = _g(rt, name)[1]
    d = dict(shape.decl[_slot(shape, name, s)])
    d["on"] = list(d.get("on") or [])
    return d


@builtin("pyramid_supports", 2)
def _supports(rt, name, s):
    """The slots a slot rests on ([] on layer 1)."""
    shape = _g(rt, name)[1]
    return list(shape.on[_slot(shape, name, s)])


@builtin("pyramid_owner", 2)
def _owner(rt, name, s):
    """The seat that filled a slot, or none while it is empty."""
    data, shape = _g(rt, name)
    return data["owners"][_slot(shape, name, s)]


@builtin("pyramid_open", 1)
def _open(rt, name):
    """Empty slots whose supports are all filled, left to right."""
    data, shape = _g(rt, name)
    return [s for s in shape.order if is_open(data["owners"], shape, s)]


@builtin("pyramid_count", 2, 3)
def _count(rt, name, seat, layer=None):
    """How many slots seat holds (``pyramid_count(b, s, 2)``: only on layer 2)."""
    data, shape = _g(rt, name)
    _seat(rt, seat)
    return sum(1 for s in shape.ids if data["owners"][s] == seat and layer in (None, shape.layer[s]))


@builtin("pyramid_layers", 2)
def _layers(rt, name, seat):
    """The distinct layers where seat holds a slot, lowest first."""
    data, shape = _g(rt, name)
    _seat(rt, seat)
    return sorted({shape.layer[s] for s in shape.ids if data["owners"][s] == seat})


@builtin("pyramid_owned", 2)
def _owned(rt, name, seat):
    """The slots seat holds, in declaration order."""
    data, shape = _g(rt, name)
    _seat(rt, seat)
    return [s for s in shape.ids if data["owners"][s] == seat]


@builtin("pyramid_rank", 2)
def _rank(rt, name, s):
    """A slot's position (0 = leftmost) in the left-to-right order: x, then lower layer, then declaration."""
    shape = _g(rt, name)[1]
    return shape.rank[_slot(shape, name, s)]


@builtin("pyramid_filled", 1)
def _filled(rt, name):
    """The filled slots, in declaration order."""
    data, shape = _g(rt, name)
    return [s for s in shape.ids if data["owners"][s] is not None]


# ==================================================================== procedures
def _where(rt, name, shape, s) -> str:
    label = shape.decl[s].get("label")
    where = label_of(rt.prog.boards[name], name)
    return f"{label} of {where}" if label else f"slot {s} of {where}"


@procedure("pyramid_place", 3)
def _place(rt, node, name, s, seat):
    """``do pyramid_place(b, s, seat)``: seat takes slot s, which must be open (empty, supports filled)."""
    data, shape = _g(rt, name)
    _slot(shape, name, s)
    _seat(rt, seat)
    if data["owners"][s] is not None:
        raise PlayError(
            f"slot {s} of {name} is already taken by {rt.seat_name(data['owners'][s])}", code="play/occupied"
        )
    if not is_open(data["owners"], shape, s):
        missing = [o for o in shape.on[s] if data["owners"][o] is None]
        raise PlayError(f"slot {s} of {name} rests on {', '.join(missing)}, not yet filled", code="play/illegal-action")
    data["owners"][s] = seat
    if rt.narrate:
        text = f"{rt.seat_name(seat)} takes {_where(rt, name, shape, s)}"
        board_event(rt, node, name, "place", text, slot=s, seat=seat, layer=_layer(rt, name, s))


@procedure("pyramid_clear", 2)
def _clear(rt, node, name, s):
    """``do pyramid_clear(b, s)``: slot s becomes empty (nothing when it was); slots resting on it stay."""
    data, shape = _g(rt, name)
    _slot(shape, name, s)
    old = data["owners"][s]
    if old is None:
        return
    data["owners"][s] = None
    if rt.narrate:
        text = f"{rt.seat_name(old)} leaves {_where(rt, name, shape, s)}"
        board_event(rt, node, name, "remove", text, slot=s, seat=old, layer=_layer(rt, name, s))


# ==================================================================== picture
@board_model("pyramid")
def board_model_(program, name, data) -> dict:
    """``shape`` and ``slots``: [{id, layer, x, on, points, owner, state}] left to right, ``state``
    ``filled``, ``open`` (its supports are filled) or ``waiting``."""
    d = program.boards[name]
    shape = _shape(d, data)
    owners = data["owners"]
    slots = []
    for s in shape.order:
        o = owners[s]
        state = "filled" if o is not None else "open" if is_open(owners, shape, s) else "waiting"
        decl = shape.decl[s]
        slots.append(
            {
                "id": s,
                "layer": shape.layer[s],
                "x": float(shape.x[s]),
                "on": list(shape.on[s]),
                "points": decl.get("points"),
                "owner": o,
                "state": state,
            }
        )
    return {"shape": data["shape"], "slots": slots}
