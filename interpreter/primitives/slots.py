"""Slot boards: layered regions x levels x columns, with support, owners, marks, groups and stores.

``boards: {NAME: {kind: slots, regions: N | TABLE_COLUMN, columns: C, levels: [[cols...], ...]}}``

- ``levels`` lists, bottom up, the columns present on each level (``[[1,2,3,4,5], [1,5]]``: a
  full first level and a second level at the two ends only); every region has the same shape.
- A slot is ``R{region}L{level}C{column}``; its *x* is its column counted across the regions
  (``columns * (region - 1) + column``), so the board is one grid of x by level.
- ``support: below`` (the default): a slot above level 1 may only be filled when the slot directly
  under it (same x) is filled; ``support: none``: any empty slot may be filled.
- ``group_levels`` (default: every level) lists the levels that form *rows* (the slots of one
  level in one region, group ``R{r}L{l}``) and *levels* (one level across all regions, ``L{l}``).
  Regions (``R{r}``) and the whole board (``all``) are groups too.
- ``stores`` names per-region containers of counts (``[coins, gems]``), e.g. a pot per region.
- ``piece``, ``neutral``, ``store_label`` and ``marks`` (``{name: symbol}``) only shape narration
  and the board model (what a table draws: docs/boards.md).

A slot holds at most one piece: a seat's piece, or a *neutral* piece that belongs to nobody (it
fills and supports but is never counted for a seat). A filled slot may carry marks (counted per
name). Groups remember whether they have been scored (``scored``/``mark_scored``), so that a
"score once" rule is data. State: ``{pieces: {slot: seat|null}, marks: {slot: {name: n}},
scored: [group], stores: {region: {name: n}}, ...shape}``.
"""

from __future__ import annotations

import json
from functools import lru_cache

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime.boards import board, board_event, board_kind, board_model, state_code

ORIENTATIONS = ("fixed", "mirror", "rotate", "any")


# ==================================================================== definition and geometry
def check_definition(definition: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a slots board declaration as (message, key) pairs (empty when it is fine)."""
    out: list[tuple[str, str | None]] = []
    regions = definition.get("regions", 1)
    if isinstance(regions, str):
        if regions not in table_columns:
            out.append((f"regions: '{regions}' is neither a number nor a table column", "regions"))
    elif not isinstance(regions, int) or isinstance(regions, bool) or regions < 1:
        out.append(("regions must be a whole number >= 1 or a table column", "regions"))
    columns = definition.get("columns")
    if not isinstance(columns, int) or isinstance(columns, bool) or columns < 1:
        out.append(("columns must be a whole number >= 1", "columns"))
        return out
    levels = definition.get("levels")
    if not isinstance(levels, list) or not levels:
        out.append(("levels must be a list, bottom up, of the columns present on each level", "levels"))
        return out
    for i, cols in enumerate(levels):
        if (
            not isinstance(cols, list)
            or not cols
            or any(not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= columns for c in cols)
        ):
            out.append((f"level {i + 1}: a list of columns between 1 and {columns}", "levels"))
        elif (
            i > 0
            and definition.get("support", "below") == "below"
            and any(c not in (levels[i - 1] or []) for c in cols)
        ):
            out.append((f"level {i + 1}: a column has no slot below it to rest on", "levels"))
    if definition.get("support", "below") not in ("below", "none"):
        out.append(("support must be 'below' or 'none'", "support"))
    gl = definition.get("group_levels")
    if gl is not None and (
        not isinstance(gl, list) or any(not isinstance(x, int) or not 1 <= x <= len(levels) for x in gl)
    ):
        out.append((f"group_levels must list levels between 1 and {len(levels)}", "group_levels"))
    stores = definition.get("stores", [])
    if not isinstance(stores, list) or any(not isinstance(s, str) for s in stores):
        out.append(("stores must be a list of names", "stores"))
    marks = definition.get("marks", {})
    if not isinstance(marks, dict):
        out.append(("marks must map a mark name to its symbol", "marks"))
    return out


@board_kind("slots", check=check_definition)
def build(definition: dict, players: int, table: dict) -> dict:
    """A slots board's starting state: its regions, columns, levels and no piece placed."""
    problems = check_definition(definition, table)
    if problems:
        raise PlayError(f"slots board: {problems[0][0]}", code="definition/board")
    regions = definition.get("regions", 1)
    if isinstance(regions, str):
        regions = int(table[regions])
    levels = [list(cols) for cols in definition["levels"]]
    return {
        "regions": regions,
        "columns": definition["columns"],
        "levels": levels,
        "group_levels": list(definition.get("group_levels") or range(1, len(levels) + 1)),
        "support": definition.get("support", "below"),
        "pieces": {},
        "marks": {},
        "scored": [],
        "stores": {str(r): {name: 0 for name in definition.get("stores", [])} for r in range(1, regions + 1)},
    }


class Geometry:
    """Derived, read-only facts of a board shape (cached per shape; never part of the state)."""

    def __init__(self, regions: int, columns: int, levels: tuple, group_levels: tuple):
        self.regions, self.columns, self.height = regions, columns, len(levels)
        self.width = regions * columns
        self.slots: list[str] = []
        self.info: dict[str, tuple] = {}  # slot -> (region, level, column, x)
        self.at: dict[tuple, str] = {}  # (x, level) -> slot
        for r in range(1, regions + 1):
            for lv, cols in enumerate(levels, 1):
                for c in sorted(cols):
                    sid = f"R{r}L{lv}C{c}"
                    x = columns * (r - 1) + c
                    self.slots.append(sid)
                    self.info[sid] = (r, lv, c, x)
                    self.at[(x, lv)] = sid
        self.index = {s: i for i, s in enumerate(self.slots)}
        self.below = {s: self.at.get((i[3], i[1] - 1)) for s, i in self.info.items()}
        self.above = {s: self.at.get((i[3], i[1] + 1)) for s, i in self.info.items()}
        self.groups: dict[str, list[str]] = {}
        self.kinds: dict[str, list[str]] = {"row": [], "level": [], "region": [], "all": ["all"]}
        for lv in group_levels:
            for r in range(1, regions + 1):
                g = f"R{r}L{lv}"
                self.kinds["row"].append(g)
                self.groups[g] = [s for s in self.slots if self.info[s][0] == r and self.info[s][1] == lv]
        for lv in group_levels:
            g = f"L{lv}"
            self.kinds["level"].append(g)
            self.groups[g] = [s for s in self.slots if self.info[s][1] == lv]
        for r in range(1, regions + 1):
            g = f"R{r}"
            self.kinds["region"].append(g)
            self.groups[g] = [s for s in self.slots if self.info[s][0] == r]
        self.groups["all"] = list(self.slots)
        self.in_region: dict[int, tuple] = {r: tuple(self.groups[f"R{r}"]) for r in range(1, regions + 1)}
        self.group_of: dict[str, dict[str, list[str]]] = {s: {k: [] for k in self.kinds} for s in self.slots}
        for kind, names in self.kinds.items():
            for g in names:
                for s in self.groups[g]:
                    self.group_of[s][kind].append(g)


def _in_region(geo: Geometry, region) -> tuple:
    """The slots of a region in board order, looked up (the rules ask for them at most decisions):
    none for a value that is no region, as comparing it with every slot's region finds none."""
    try:
        return geo.in_region.get(region, ())
    except TypeError:  # a list, say: equal to no region
        return ()


@lru_cache(maxsize=64)
def _geometry(regions, columns, levels_json, group_levels) -> Geometry:
    return Geometry(regions, columns, tuple(tuple(x) for x in json.loads(levels_json)), group_levels)


def geometry(data: dict) -> Geometry:
    """The board's geometry (its slots and their neighbours), made once per shape."""
    return _geometry(data["regions"], data["columns"], json.dumps(data["levels"]), tuple(data["group_levels"]))


def _board(rt, name):
    d = rt.prog.boards.get(name) if isinstance(name, str) else None
    if d is None or d.get("kind") != "slots":
        raise PlayError(f"'{name}' is not a slots board", code="play/type")
    return board(rt, name)


def _slot(geo: Geometry, name, s):
    if s not in geo.info:
        raise PlayError(f"board '{name}' has no slot {s!r}", code="play/unknown")
    return s


# ==================================================================== pure functions (also used by tests)
def is_open(data: dict, geo: Geometry, s: str) -> bool:
    """Empty, and (with support below) resting on a filled slot or on the ground."""
    if s in data["pieces"]:
        return False
    if data["support"] == "none":
        return True
    b = geo.below[s]
    return b is None or b in data["pieces"]


_SHAPES: dict = {}  # (repr of a pattern, orientation) -> its shapes: a pattern is rule data, met again and again


def shapes(pattern, orientation: str = "fixed") -> list[tuple]:
    """The distinct normalised cell sets of a pattern ``[[dx, dy], ...]`` under an orientation.

    ``fixed``: as given (translation only); ``mirror``: also mirrored left-right; ``rotate``: the
    four quarter turns; ``any``: quarter turns and their mirror images. Found once per pattern
    (keyed by its ``repr``, which tells a number from a text, true or a list) and orientation.
    """
    key = (repr(pattern), orientation)
    known = _SHAPES.get(key)
    if known is None:
        if len(_SHAPES) > 1_000:  # patterns made at play (a rule may build one): bounded
            _SHAPES.clear()
        known = _SHAPES[key] = _shapes(pattern, orientation)
    return list(known)


def _shapes(pattern, orientation: str) -> list[tuple]:
    if orientation not in ORIENTATIONS:
        raise PlayError(f"orientation must be one of {', '.join(ORIENTATIONS)}, got {orientation!r}", code="play/type")
    try:
        cells = [(int(c[0]), int(c[1])) for c in pattern]
    except (TypeError, ValueError, IndexError, KeyError):
        raise PlayError(f"a pattern is a list of [dx, dy] cells, got {pattern!r}", code="play/type") from None
    if not cells:
        raise PlayError("a pattern needs at least one cell", code="play/type")
    variants = [cells]
    if orientation in ("rotate", "any"):
        cur = cells
        for _ in range(3):
            cur = [(-y, x) for x, y in cur]
            variants.append(cur)
    if orientation in ("mirror", "any"):
        variants += [[(-x, y) for x, y in v] for v in variants]
    out = []
    for v in variants:
        mx, my = min(x for x, _ in v), min(y for _, y in v)
        norm = tuple(sorted((x - mx, y - my) for x, y in v))
        if norm not in out:
            out.append(norm)
    return out


def matches(
    data: dict, geo: Geometry, pattern, seat=None, orientation="fixed", without_mark=None, any_piece=False
) -> list[list[str]]:
    """Every placement of the pattern whose cells all hold a piece of ``seat`` (or, with
    ``any_piece``, any slot at all: the geometric fit) and carry no ``without_mark``."""
    pieces, marks = data["pieces"], data["marks"]
    found, seen = [], set()
    mine = None  # any_piece: every position; else a placement's first cell covers one of the seat's pieces
    if not any_piece:
        mine = [] if seat is None else [geo.info[s] for s, o in pieces.items() if o == seat and s in geo.info]
    for shape in shapes(pattern, orientation):
        w = max(x for x, _ in shape)
        h = max(y for _, y in shape)
        if mine is None:
            starts = [(x0, y0) for x0 in range(1, geo.width - w + 1) for y0 in range(1, geo.height - h + 1)]
        else:  # the same placements in the same order (x0, then y0), found from the seat's pieces
            dx0, dy0 = shape[0]
            starts = sorted(
                {
                    (i[3] - dx0, i[1] - dy0)
                    for i in mine
                    if 1 <= i[3] - dx0 <= geo.width - w and 1 <= i[1] - dy0 <= geo.height - h
                }
            )
        for x0, y0 in starts:
            cells = []
            for dx, dy in shape:
                s = geo.at.get((x0 + dx, y0 + dy))
                if s is None:
                    break
                if not any_piece:
                    if s not in pieces or pieces[s] != seat or seat is None:
                        break
                    if without_mark is not None and (marks.get(s) or {}).get(without_mark):
                        break
                cells.append(s)
            else:
                key = tuple(sorted(cells, key=lambda s: geo.index[s]))
                if key not in seen:
                    seen.add(key)
                    found.append(list(key))
    return found


def majority(data: dict, slots, seats, minimum: int = 1) -> list[int]:
    """The seats with the most pieces among ``slots`` (ties all win; neutral pieces never count);
    nobody when the best count is below ``minimum``."""
    pieces = data["pieces"]
    counts = {s: 0 for s in seats}
    for sl in slots:
        o = pieces.get(sl)
        if o is not None and o in counts:
            counts[o] += 1
    if not counts:
        return []
    top = max(counts.values())
    if top < minimum:
        return []
    return [s for s in seats if counts[s] == top]


# ==================================================================== queries
def _g(rt, name):
    """The board's state and its geometry. The geometry's fields are written when the board is built
    and never changed at play, so it is looked up once per runtime and board (``rt.memo['slots']``),
    not keyed afresh (a JSON text of its levels) at every query."""
    memo = rt.memo.get("slots")
    if memo is None:
        memo = rt.memo["slots"] = {}
    known = memo.get(name) if type(name) is str else None
    if known is not None and rt.st["boards"].get(name) is known[0]:  # checked a slots board when kept
        return known
    data = _board(rt, name)
    known = memo[name] = (data, geometry(data))
    return known


@builtin("slots", 1)
def _slots(rt, name):
    """Every slot id of a slots board, by region, level, column."""
    return list(_g(rt, name)[1].slots)


@builtin("empty_slots", 1, 2)
def _empty(rt, name, region=None):
    """Empty slots (of one region when given)."""
    data, geo = _g(rt, name)
    pieces = data["pieces"]
    return [s for s in (geo.slots if region is None else _in_region(geo, region)) if s not in pieces]


@builtin("open_slots", 1, 2)
def _open(rt, name, region=None):
    """Slots a piece may be placed in now: empty and supported (of one region when given)."""
    data, geo = _g(rt, name)
    pieces, below, anywhere = data["pieces"], geo.below, data["support"] == "none"
    slots = geo.slots if region is None else _in_region(geo, region)
    # is_open, written in the loop: the rules ask for the open slots at almost every decision
    return [s for s in slots if s not in pieces and (anywhere or (b := below[s]) is None or b in pieces)]


@builtin("slot_region", 2)
def _region(rt, name, s):
    """The region (1..) of a slot."""
    geo = _g(rt, name)[1]
    return geo.info[_slot(geo, name, s)][0]


# A slot query read in place (``code`` hooks, dsl/builtins.py): the geometry ``_g`` keeps in the
# runtime's memo, while the state still holds the board it was made from; with no memo yet (a runtime
# made afresh from a state, as a resumed save or a bot's trial is) or a board put in its place, the
# query is handed to the builtin (``_bail``); a slot the board lacks raises, and the builtin decides.
_GEO = "((_m := rt.memo.get('slots', {{}}).get({0})) or _bail())[0] is rt.st['boards'][{0}]"
_level_code = state_code("slots", f"(_m[1].info[{{1}}][1] if {_GEO} else _bail())")
_owner_code = state_code(
    "slots",
    f"(rt.st['boards'][{{0}}]['pieces'].get(_s) if (_s := {{1}}) in (_m[1].info if {_GEO} else _bail()) else _bail())",
)


@builtin("slot_level", 2, code=_level_code)
def _level(rt, name, s):
    """The level (1 = bottom) of a slot."""
    geo = _g(rt, name)[1]
    return geo.info[_slot(geo, name, s)][1]


@builtin("slot_column", 2)
def _column(rt, name, s):
    """The column of a slot inside its region (1..columns)."""
    geo = _g(rt, name)[1]
    return geo.info[_slot(geo, name, s)][2]


@builtin("slot_x", 2)
def _x(rt, name, s):
    """The column of a slot counted across the regions (1..regions*columns)."""
    geo = _g(rt, name)[1]
    return geo.info[_slot(geo, name, s)][3]


@builtin("slot_at", 3)
def _at(rt, name, x, level):
    """The slot at column x (across regions) and level, or none."""
    return _g(rt, name)[1].at.get((x, level))


@builtin("slot_below", 2)
def _below(rt, name, s):
    """The slot directly under a slot, or none."""
    geo = _g(rt, name)[1]
    return geo.below[_slot(geo, name, s)]


@builtin("slot_above", 2)
def _above(rt, name, s):
    """The slot directly above a slot, or none."""
    geo = _g(rt, name)[1]
    return geo.above[_slot(geo, name, s)]


@builtin("slot_neighbours", 2)
def _neighbours(rt, name, s):
    """Slots next to a slot: left and right on its level (across region borders), below, above."""
    geo = _g(rt, name)[1]
    r, lv, c, x = geo.info[_slot(geo, name, s)]
    near = [geo.at.get((x - 1, lv)), geo.at.get((x + 1, lv)), geo.below[s], geo.above[s]]
    return [n for n in near if n is not None]


@builtin("slot_filled", 2)
def _filled(rt, name, s):
    """Whether a slot holds a piece (a seat's or a neutral one)."""
    data, geo = _g(rt, name)
    return _slot(geo, name, s) in data["pieces"]


@builtin("slot_owner", 2, code=_owner_code)
def _owner(rt, name, s):
    """The seat whose piece fills a slot; none when empty or neutral."""
    data, geo = _g(rt, name)
    return data["pieces"].get(_slot(geo, name, s))


@builtin("slot_neutral", 2)
def _neutral(rt, name, s):
    """Whether a slot holds a neutral piece (one that belongs to nobody)."""
    data, geo = _g(rt, name)
    s = _slot(geo, name, s)
    return s in data["pieces"] and data["pieces"][s] is None


@builtin("slot_marks", 3)
def _marks(rt, name, s, mark):
    """How many marks of a name a slot carries."""
    data, geo = _g(rt, name)
    return (data["marks"].get(_slot(geo, name, s)) or {}).get(mark, 0)


@builtin("owned_slots", 2, 3)
def _owned(rt, name, seat, slots=None):
    """The slots holding a seat's pieces (among ``slots`` when given)."""
    data, geo = _g(rt, name)
    pieces = data["pieces"]
    pool = geo.slots if slots is None else slots
    return [s for s in pool if s in pieces and pieces[s] == seat]


@builtin("count_owned", 3)
def _count_owned(rt, name, slots, seat):
    """How many of ``slots`` hold a piece of ``seat``."""
    pieces = _board(rt, name)["pieces"]
    return sum(1 for s in slots if s in pieces and pieces[s] == seat)


@builtin("marked_slots", 2, 3)
def _marked(rt, name, mark, slots=None):
    """Slots carrying at least one mark of a name (among ``slots`` when given)."""
    data, geo = _g(rt, name)
    pool = geo.slots if slots is None else slots
    return [s for s in pool if (data["marks"].get(s) or {}).get(mark)]


@builtin("board_regions", 1)
def _regions(rt, name):
    """The region numbers of a slots board: [1, 2, ...]."""
    return list(range(1, _board(rt, name)["regions"] + 1))


@builtin("groups", 2)
def _groups(rt, name, kind):
    """Group ids of a kind: ``row`` (R1L1 ...), ``level`` (L1 ...), ``region`` (R1 ...), ``all``."""
    geo = _g(rt, name)[1]
    if kind not in geo.kinds:
        raise PlayError(f"group kind must be one of {', '.join(geo.kinds)}, got {kind!r}", code="play/type")
    return list(geo.kinds[kind])


@builtin("group_slots", 2)
def _group_slots(rt, name, g):
    """The slots of a group (``R1L2``, ``L2``, ``R1`` or ``all``)."""
    geo = _g(rt, name)[1]
    if g not in geo.groups:
        raise PlayError(f"board '{name}' has no group {g!r}", code="play/unknown")
    return list(geo.groups[g])


@builtin("group_level", 2)
def _group_level(rt, name, g):
    """The level of a row or level group (none for regions and the whole board)."""
    geo = _g(rt, name)[1]
    slots = geo.groups.get(g)
    if not slots:
        raise PlayError(f"board '{name}' has no group {g!r}", code="play/unknown")
    levels = {geo.info[s][1] for s in slots}
    return levels.pop() if len(levels) == 1 else None


@builtin("row_slots", 3)
def _row(rt, name, region, level):
    """The slots of one level in one region."""
    geo = _g(rt, name)[1]
    return [s for s in geo.slots if geo.info[s][0] == region and geo.info[s][1] == level]


@builtin("level_slots", 2)
def _level_slots(rt, name, level):
    """The slots of one level across every region."""
    geo = _g(rt, name)[1]
    return [s for s in geo.slots if geo.info[s][1] == level]


@builtin("region_slots", 2)
def _region_slots(rt, name, region):
    """The slots of one region (every level)."""
    return list(_in_region(_g(rt, name)[1], region))


@builtin("group_complete", 2)
def _group_complete(rt, name, g):
    """Whether every slot of a group is filled."""
    data, geo = _g(rt, name)
    if g not in geo.groups:
        raise PlayError(f"board '{name}' has no group {g!r}", code="play/unknown")
    return all(s in data["pieces"] for s in geo.groups[g])


@builtin("completed_by", 3)
def _completed_by(rt, name, s, kind):
    """Groups of a kind that contain slot ``s``, are now complete and are not yet scored."""
    data, geo = _g(rt, name)
    pieces, scored = data["pieces"], data["scored"]
    return [
        g
        for g in geo.group_of[_slot(geo, name, s)].get(kind, [])
        if g not in scored and all(x in pieces for x in geo.groups[g])
    ]


@builtin("scored", 2)
def _scored(rt, name, g):
    """Whether a group has been marked as scored (see ``do mark_scored``)."""
    return g in _board(rt, name)["scored"]


@builtin("majority", 3, 4)
def _majority(rt, name, slots, seats, minimum=1):
    """Seats (of ``seats``) with the most pieces among ``slots``; ties all win; neutral pieces are
    ignored; nobody when the best count is below ``minimum`` (default 1)."""
    return majority(_board(rt, name), slots, seats, minimum)


@builtin("pattern_matches", 3, 5)
def _pattern_matches(rt, name, pattern, seat, orientation="fixed", without_mark=None):
    """Every placement of a pattern (``[[dx, dy], ...]``, dy up) on pieces of ``seat``, as lists of
    slots; ``orientation`` is fixed, mirror, rotate or any; slots with ``without_mark`` do not count."""
    data, geo = _g(rt, name)
    return matches(data, geo, pattern, seat, orientation, without_mark)


@builtin("pattern_slots", 3, 5)
def _pattern_slots(rt, name, pattern, seat, orientation="fixed", without_mark=None):
    """The distinct slots that belong to at least one match of ``pattern_matches``."""
    data, geo = _g(rt, name)
    found = {s for m in matches(data, geo, pattern, seat, orientation, without_mark) for s in m}
    return [s for s in geo.slots if s in found]


@builtin("pattern_fits", 2, 3)
def _pattern_fits(rt, name, pattern, orientation="fixed"):
    """How many placements of a pattern the board's shape allows, whatever the pieces."""
    data, geo = _g(rt, name)
    return len(matches(data, geo, pattern, None, orientation, None, any_piece=True))


@builtin("store", 3)
def _store(rt, name, region, what):
    """A region's store count (``store(board, 1, "coins")``)."""
    data = _board(rt, name)
    try:
        return data["stores"][str(region)][what]
    except KeyError:
        raise PlayError(f"board '{name}' has no store '{what}' in region {region!r}", code="play/unknown") from None


# ==================================================================== procedures
def _say(rt, node, name, op, text, **fields):
    """Narrate a change of the board as a typed ``board`` event with its fields."""
    if rt.narrate:
        board_event(rt, node, name, op, text, **fields)


def _owner_fields(owner, key="seat") -> dict:
    """A piece's owner in an event: ``seat`` (a number), or ``neutral: true`` for a neutral piece
    (``replaced`` / ``replaced_neutral: true`` for the piece a new owner's replaced)."""
    if owner is not None:
        return {key: owner}
    return {"neutral" if key == "seat" else f"{key}_neutral": True}


def _piece_word(rt, name, owner):
    d = rt.prog.boards[name]
    if owner is None:
        return d.get("neutral", "neutral piece")
    return d.get("piece", "piece")


def _seat_or_none(rt, v, what):
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < rt.st["n"]:
        raise PlayError(f"{what} must be a seat or none, got {v!r}", code="play/no-seat")
    return v


@procedure("place_piece", 3)
def _place(rt, node, name, s, owner):
    """Put a piece of ``owner`` (none: a neutral piece) into slot ``s``, which must be open."""
    data, geo = _g(rt, name)
    _slot(geo, name, s)
    owner = _seat_or_none(rt, owner, "the owner")
    if s in data["pieces"]:
        raise PlayError(f"slot {s} is already filled", code="play/illegal-state")
    if not is_open(data, geo, s):
        raise PlayError(f"slot {s} has nothing below it to rest on", code="play/illegal-state")
    data["pieces"][s] = owner
    who = rt.seat_name(owner) + "'s " if owner is not None else "a "
    if rt.narrate:
        text = f"{who}{_piece_word(rt, name, owner)} goes to {s}"
        _say(rt, node, name, "place", text, slot=s, **_owner_fields(owner))


@procedure("remove_piece", 2)
def _remove(rt, node, name, s):
    """Take the piece out of slot ``s`` (and its marks). Pieces resting on it stay (no gravity)."""
    data, geo = _g(rt, name)
    _slot(geo, name, s)
    if s not in data["pieces"]:
        raise PlayError(f"slot {s} is empty", code="play/illegal-state")
    owner = data["pieces"].pop(s)
    data["marks"].pop(s, None)
    if rt.narrate:
        text = f"the {_piece_word(rt, name, owner)} at {s} is removed"
        _say(rt, node, name, "remove", text, slot=s, **_owner_fields(owner))


@procedure("set_owner", 3)
def _set_owner(rt, node, name, s, owner):
    """Replace the piece in a filled slot by a piece of ``owner`` (its marks stay with the slot)."""
    data, geo = _g(rt, name)
    _slot(geo, name, s)
    owner = _seat_or_none(rt, owner, "the owner")
    if s not in data["pieces"]:
        raise PlayError(f"slot {s} is empty", code="play/illegal-state")
    old = data["pieces"][s]
    data["pieces"][s] = owner
    if rt.narrate:
        text = f"{rt.seat_name(owner)}'s {_piece_word(rt, name, owner)} replaces {rt.seat_name(old)}'s at {s}"
        _say(rt, node, name, "replace", text, slot=s, **_owner_fields(owner), **_owner_fields(old, "replaced"))


@procedure("mark_slot", 3)
def _mark(rt, node, name, s, mark):
    """Add one mark named ``mark`` to a filled slot."""
    data, geo = _g(rt, name)
    _slot(geo, name, s)
    if s not in data["pieces"]:
        raise PlayError(f"slot {s} is empty: nothing to mark", code="play/illegal-state")
    m = data["marks"].setdefault(s, {})
    m[mark] = m.get(mark, 0) + 1
    _say(rt, node, name, "mark", f"{s} gets a {mark.replace('_', ' ')}", slot=s, mark=mark, count=m[mark])


@procedure("unmark_slot", 3)
def _unmark(rt, node, name, s, mark):
    """Take one mark named ``mark`` off a slot."""
    data, geo = _g(rt, name)
    _slot(geo, name, s)
    m = data["marks"].get(s) or {}
    if not m.get(mark):
        raise PlayError(f"slot {s} has no {mark}", code="play/illegal-state")
    m[mark] -= 1
    if not m[mark]:
        del m[mark]
    if not m:
        data["marks"].pop(s, None)
    _say(
        rt,
        node,
        name,
        "unmark",
        f"the {mark.replace('_', ' ')} on {s} is removed",
        slot=s,
        mark=mark,
        count=m.get(mark, 0),
    )


@procedure("mark_scored", 2)
def _mark_scored(rt, node, name, g):
    """Remember that a group has been scored (``scored`` and ``completed_by`` then skip it)."""
    data, geo = _g(rt, name)
    if g not in geo.groups:
        raise PlayError(f"board '{name}' has no group {g!r}", code="play/unknown")
    if g not in data["scored"]:
        data["scored"].append(g)
        _say(rt, node, name, "scored", None, group=g)


@procedure("store_add", 4)
def _store_add(rt, node, name, region, what, n):
    """Add ``n`` (may be negative, never below 0) to a region's store."""
    data = _board(rt, name)
    try:
        cur = data["stores"][str(region)][what]
    except KeyError:
        raise PlayError(f"board '{name}' has no store '{what}' in region {region!r}", code="play/unknown") from None
    if not isinstance(n, int) or isinstance(n, bool) or cur + n < 0:
        raise PlayError(f"cannot add {n!r} to {what} ({cur}) in region {region}", code="play/type")
    data["stores"][str(region)][what] = cur + n
    if n:
        label = rt.prog.boards[name].get("store_label", "store")
        text = f"{label} of region {region}: {what.replace('_', ' ')} {cur} -> {cur + n}"
        _say(rt, node, name, "store", text, region=region, good=what, source=cur, dest=cur + n)


# ==================================================================== board model (docs/boards.md)
@board_model("slots")
def board_model_(program, name, data) -> dict:
    """``regions``, ``columns``, ``height``; ``levels`` top first, each a row of regions x columns cells
    {id, owner, neutral, open, marks} (None where the shape has no slot); ``stores`` per region;
    ``symbols`` (a mark's one-letter code), ``neutral`` and ``store_label`` words."""
    d = program.boards.get(name) or {}
    geo = geometry(data)
    pieces, marks = data["pieces"], data["marks"]
    levels = []
    for lv in range(geo.height, 0, -1):
        row: list[dict | None] = []
        for r in range(1, geo.regions + 1):
            for c in range(1, geo.columns + 1):
                s = geo.at.get((geo.columns * (r - 1) + c, lv))
                if s is None:
                    row.append(None)
                    continue
                row.append(
                    {
                        "id": s,
                        "owner": pieces.get(s),
                        "neutral": s in pieces and pieces[s] is None,
                        "open": is_open(data, geo, s),
                        "marks": dict(marks.get(s) or {}),
                    }
                )
        levels.append({"level": lv, "cells": row})
    return {
        "regions": geo.regions,
        "columns": geo.columns,
        "height": geo.height,
        "levels": levels,
        "stores": [dict(data["stores"].get(str(r)) or {}) for r in range(1, geo.regions + 1)],
        "symbols": dict(d.get("marks") or {}),
        "neutral": d.get("neutral", "neutral piece"),
        "store_label": d.get("store_label", "store"),
    }
