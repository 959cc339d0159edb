"""Hex maps: cells with data for the rules, pieces (tiles) stacked on cells with a rotation, icons on
their edges and marks on their corners (the links they make are in ``hexgrid_links.py``).

``boards: {NAME: {kind: hexgrid, cells: [{q: Q, r: R, ...}, ...], marks: [...], label: TEXT}}``, or
instead of ``cells``: ``rings: {centre: [Q, R], radius: N}`` (every cell within N steps of the
centre, listed row by row: r, then q, ascending) with optional ``cell_data: {"Q,R": {...}}``.
Any key of a cell other than ``q``/``r`` is data for the rules (``hex_info``). ``marks: [{q, r,
corner, mark}]`` are marks printed on the board at a cell's corner. ``label`` names the board in
narration and pictures (default: its name with spaces).

Geometry (fixed): axial coordinates (q, r), pointy-top hexes, r grows downward; a cell id is the
string ``"q,r"``. Directions clockwise from east: d0 E (+1,0), d1 SE (0,+1), d2 SW (-1,+1), d3 W
(-1,0), d4 NW (0,-1), d5 NE (+1,-1). Edge k faces direction k. Corner k lies between edges k and
k+1 (c0 lower-right, c1 bottom, c2 lower-left, c3 upper-left, c4 top, c5 upper-right): the same
vertex is corner (k+2) % 6 of the neighbour in direction k and corner (k+4) % 6 of the neighbour in
direction k+1. A piece placed with rotation s (0-5, clockwise 60-degree steps) shows its printed
edge/corner i at board edge/corner (i + s) % 6.

State: ``{"stacks": {CELL: [item, ...]}, "marks_paid": {"CELL/K": [cells]}}``; an item (the top is
the last) is ``{"piece": any JSON, "rot": s, "edges": [6 board-oriented icons or null], "corners":
[6 board-oriented marks or null], "paid": {"e<k>": [cells], "c<k>": [cells]}}``; ``marks_paid``
remembers the positions a printed mark (cell CELL, corner K) has paid with.
"""

from __future__ import annotations

import json

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError, did_you_mean
from mason.runtime.boards import board, board_event, board_kind, declaration, piece_type, state_code
from mason.runtime.values import label_of

KEYS = ("status", "text", "kind", "label", "cells", "rings", "cell_data", "marks")
DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIR_NAMES = ("E", "SE", "SW", "W", "NW", "NE")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ==================================================================== geometry (no board)
def cell_id(q: int, r: int) -> str:
    """The id of the cell at axial coordinates (q, r): ``"q,r"``."""
    return f"{q},{r}"


def parse_cell(cell) -> tuple[int, int]:
    """(q, r) of a cell id ``"q,r"``; ``play/type`` for anything else."""
    if isinstance(cell, str):
        q, sep, r = cell.partition(",")
        try:
            if sep:
                return int(q), int(r)
        except ValueError:
            pass
    raise PlayError(f'a cell is written "q,r" (e.g. "3,-1"), not {cell!r}', code="play/type")


def step(cell, k: int) -> str:
    """The id of the cell next to ``cell`` in direction k (on a board or not)."""
    q, r = parse_cell(cell)
    dq, dr = DIRS[k % 6]
    return cell_id(q + dq, r + dr)


def vertex(cell, k: int) -> list[tuple[str, int]]:
    """The three (cell, corner) pairs of corner k of ``cell``'s vertex: itself first."""
    return [(cell_id(*parse_cell(cell)), k % 6), (step(cell, k), (k + 2) % 6), (step(cell, k + 1), (k + 4) % 6)]


def distance(a, c) -> int:
    """The number of steps between two cells of a hex grid."""
    (q1, r1), (q2, r2) = parse_cell(a), parse_cell(c)
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def turn(printed: list, s: int) -> list:
    """A printed list of 6 as seen on the board with rotation s: board[(i + s) % 6] = printed[i]."""
    return [printed[(j - s) % 6] for j in range(6)]


# ==================================================================== declaration
def _ring_cells(rings) -> list[tuple[int, int]]:
    (cq, cr), n = rings["centre"], rings["radius"]
    return [
        (q, r)
        for r in range(cr - n, cr + n + 1)
        for q in range(cq - n, cq + n + 1)
        if distance(cell_id(q, r), cell_id(cq, cr)) <= n
    ]


def check_definition(d: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a hexgrid declaration as (message, key) pairs (empty when it is fine)."""
    out = [(f"unknown key '{k}'{did_you_mean(k, KEYS)}", k) for k in d if k not in KEYS]
    if ("cells" in d) == ("rings" in d):
        return out + [
            (
                "give either 'cells' (a list of {q, r, ...}) or 'rings' ({centre: [q, r], radius: N})",
                None if "cells" not in d else "rings",
            )
        ]
    ids: list[str] = []
    if "cells" in d:
        cells = d["cells"]
        if not isinstance(cells, list) or not cells:
            return out + [("cells must be a non-empty list of {q, r, ...}", "cells")]
        for i, c in enumerate(cells, 1):
            if not isinstance(c, dict) or not _whole(c.get("q")) or not _whole(c.get("r")):
                out.append((f"cell {i}: a mapping with whole numbers q and r", "cells"))
                continue
            cid = cell_id(c["q"], c["r"])
            if cid in ids:
                out.append((f"cell {cid} is listed twice", "cells"))
            ids.append(cid)
        if "cell_data" in d:
            out.append(("cell_data goes with rings; with cells, give the data in the cell's entry", "cell_data"))
    else:
        rings = d["rings"]
        centre = rings.get("centre") if isinstance(rings, dict) else None
        if not isinstance(centre, list) or len(centre) != 2 or not all(_whole(x) for x in centre):
            return out + [("rings: centre must be [q, r], two whole numbers", "rings")]
        if not _whole(rings.get("radius")) or rings["radius"] < 0:
            return out + [("rings: radius must be a whole number >= 0", "rings")]
        out += [(f"rings: unknown key '{k}'", "rings") for k in rings if k not in ("centre", "radius")]
        ids = [cell_id(q, r) for q, r in _ring_cells(rings)]
        data = d.get("cell_data", {})
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            out.append(('cell_data must map a cell id "q,r" to its data', "cell_data"))
        else:
            out += [
                (f"cell_data: no cell '{k}' within the rings{did_you_mean(k, ids)}", "cell_data")
                for k in data
                if k not in ids
            ]
    marks = d.get("marks", [])
    if not isinstance(marks, list):
        return out + [("marks must be a list of {q, r, corner, mark}", "marks")]
    seen: dict = {}
    for i, m in enumerate(marks, 1):
        if not isinstance(m, dict) or not _whole(m.get("q")) or not _whole(m.get("r")):
            out.append((f"mark {i}: a mapping with whole numbers q and r", "marks"))
            continue
        cid = cell_id(m["q"], m["r"])
        if cid not in ids:
            out.append((f"mark {i}: no cell {cid} on the board", "marks"))
        elif not _whole(m.get("corner")) or not 0 <= m["corner"] <= 5:
            out.append((f"mark {i} (cell {cid}): corner must be a whole number 0-5", "marks"))
        elif not isinstance(m.get("mark"), str) or not m["mark"]:
            out.append((f"mark {i} (cell {cid}): mark must name the mark", "marks"))
        else:
            here = frozenset(vertex(cid, m["corner"]))
            if (here, m["mark"]) in seen:
                out.append(
                    (
                        f"mark {i} (cell {cid}, corner {m['corner']}): the vertex already has mark "
                        f"'{m['mark']}' (mark {seen[here, m['mark']]})",
                        "marks",
                    )
                )
            seen.setdefault((here, m["mark"]), i)
    return out


_CELLS: dict = {}


def cells_of(d: dict) -> dict[str, dict]:
    """Cell id -> its data (with q and r), in declaration order (computed once per declaration)."""
    hit = _CELLS.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    if "cells" in d:
        cells = {cell_id(c["q"], c["r"]): dict(c) for c in d["cells"]}
    else:
        data = d.get("cell_data") or {}
        cells = {cell_id(q, r): {**data.get(cell_id(q, r), {}), "q": q, "r": r} for q, r in _ring_cells(d["rings"])}
    _CELLS[id(d)] = (d, cells)
    return cells


def printed(d: dict, cell: str) -> list[list]:
    """The marks printed on a cell: [[corner, mark], ...] in declaration order."""
    return [[m["corner"], m["mark"]] for m in d.get("marks") or () if cell_id(m["q"], m["r"]) == cell]


@board_kind("hexgrid", check=check_definition)
def _build(d, players, table):
    problems = check_definition(d)
    if problems:
        raise PlayError(f"hexgrid board: {problems[0][0]}", code="definition/board")
    return {"stacks": {c: [] for c in cells_of(d)}, "marks_paid": {}}


# ==================================================================== board access
def grid(rt, name):
    """The declaration, the state and the cells of a hexgrid board (the declaration and its cells
    looked up once per runtime: ``rt.memo['hexgrid']``)."""
    grids = rt.memo.get("hexgrid")
    if grids is None:
        grids = rt.memo["hexgrid"] = {}
    hit = grids.get(name) if type(name) is str else None
    if hit is None:
        d = rt.prog.boards.get(name) if isinstance(name, str) else None
        if d is None or d.get("kind") != "hexgrid":
            raise PlayError(f"'{name}' is not a hexgrid board", code="play/type")
        hit = grids[name] = (d, cells_of(d))
    try:
        return hit[0], rt.st["boards"][name], hit[1]
    except KeyError:
        return hit[0], board(rt, name), hit[1]


def on_board(cells, name, cell) -> str:
    """The canonical id of a cell of the board; ``play/unknown`` if it is not on it."""
    if type(cell) is str and cell in cells:  # already a cell's canonical id: the common case
        return cell
    cid = cell_id(*parse_cell(cell))
    if cid not in cells:
        raise PlayError(f"hexgrid '{name}' has no cell {cell!r}{did_you_mean(cid, cells)}", code="play/unknown")
    return cid


def index(v, what) -> int:
    """A direction or corner index 0-5, checked (``play/index`` otherwise)."""
    if not _whole(v) or not 0 <= v <= 5:
        raise PlayError(f"{what} must be a whole number 0-5, got {v!r}", code="play/index")
    return v


def top_item(data, cell):
    """The topmost piece stacked on a cell, or None."""
    stack = data["stacks"][cell]
    return stack[-1] if stack else None


def piece_name(names, piece) -> str:
    """A piece as text: a card id by its card's name (``names(card)``), a string as itself, else JSON."""
    if _whole(piece) and names is not None:
        name = names(piece)
        if name is not None:
            return name
    return piece if isinstance(piece, str) else json.dumps(piece, separators=(",", ":"))


def rt_names(rt):
    """A function naming a card id in this game (None for an id that is no card)."""

    def name(c):
        return rt.card_name(c) if 0 <= c < len(rt.cards) else None

    return name


# ==================================================================== queries
def _declared(program, name) -> dict:
    """Board ``name``'s cells, from the program alone (the static hooks of the queries below)."""
    return cells_of(declaration(program, name, "hexgrid"))


@builtin("hex_cells", 1, static=lambda program, name: list(_declared(program, name)))
def _cells(rt, name):
    """Every cell id, in declaration order (rings: row by row, r then q ascending)."""
    return list(grid(rt, name)[2])


def _cell_table(rt, name) -> dict:
    """The board's cells (declarations by cell id), from the runtime's memo once it holds them."""
    grids = rt.memo.get("hexgrid")
    hit = grids.get(name) if grids is not None and type(name) is str else None
    return hit[1] if hit is not None else grid(rt, name)[2]  # the cells alone: no need of the board's state


def _info_item(rt, name, cell, key):
    """``hex_info(name, cell)[key]`` without copying the cell's data (see ``builtin``'s ``item``)."""
    grids = rt.memo.get("hexgrid")
    hit = grids.get(name) if grids is not None and type(name) is str else None
    cells = hit[1] if hit is not None else grid(rt, name)[2]  # as _cell_table, inline: a hot path
    data = cells.get(cell) if type(cell) is str else None  # a canonical cell id: on_board's common case
    return (data if data is not None else cells[on_board(cells, name, cell)])[key]


@builtin("hex_info", 2, item=_info_item, table=_declared)
def _info(rt, name, cell):
    """The cell's data (its declaration's keys, with q and r): ``hex_info(b, c)["kind"]``."""
    cells = _cell_table(rt, name)
    return dict(cells[on_board(cells, name, cell)])


@builtin("hex_neighbour", 3)
def _neighbour(rt, name, cell, k):
    """The cell next to ``cell`` in direction k (0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE), or none if not on the board."""
    d, data, cells = grid(rt, name)
    n = step(on_board(cells, name, cell), index(k, "a direction"))
    return n if n in cells else None


@builtin("hex_neighbours", 2)
def _neighbours(rt, name, cell):
    """The cells next to ``cell`` that are on the board, in direction order (E first, clockwise)."""
    d, data, cells = grid(rt, name)
    cid = on_board(cells, name, cell)
    return [n for n in (step(cid, k) for k in range(6)) if n in cells]


@builtin("hex_distance", 2)
def _distance(rt, a, c):
    """Steps between two cell ids (no board needed): ``hex_distance("0,0", "2,-1")`` is 2."""
    return distance(a, c)


@builtin("hex_vertex", 3)
def _vertex(rt, name, cell, k):
    """Corner k of ``cell`` as the vertex it is: ``[cell, corner]`` pairs of the cells sharing it that are
    on the board, ``[cell, k]`` first, then the neighbours in directions k and k+1."""
    d, data, cells = grid(rt, name)
    return [[c, j] for c, j in vertex(on_board(cells, name, cell), index(k, "a corner")) if c in cells]


@builtin("hex_printed_marks", 2)
def _printed_marks(rt, name, cell):
    """The marks printed on the board at the cell's corners: ``[[corner, mark], ...]``."""
    d, data, cells = grid(rt, name)
    return printed(d, on_board(cells, name, cell))


@builtin("hex_top", 2)
def _top(rt, name, cell):
    """The piece on top of the cell's stack, or none."""
    d, data, cells = grid(rt, name)
    item = top_item(data, on_board(cells, name, cell))
    return None if item is None else item["piece"]


@builtin("hex_stack", 2)
def _stack(rt, name, cell):
    """The pieces stacked on the cell, bottom to top."""
    d, data, cells = grid(rt, name)
    return [it["piece"] for it in data["stacks"][on_board(cells, name, cell)]]


# the cell's stack read in place (a cell id that is not canonical raises, and ``_empty`` decides)
# a cell id not written canonically ("1, 0") is handed over (_bail): the builtin reads it as its cell
_EMPTY_CODE = "(not _st[_c] if (_c := {1}) in (_st := rt.st['boards'][{0}]['stacks']) else _bail())"


@builtin("hex_empty", 2, code=state_code("hexgrid", _EMPTY_CODE))
def _empty(rt, name, cell):
    """Whether no piece lies on the cell."""
    d, data, cells = grid(rt, name)
    return not data["stacks"][on_board(cells, name, cell)]


@builtin("hex_pieces", 1)
def _pieces(rt, name):
    """The cells holding pieces, in declaration order."""
    d, data, cells = grid(rt, name)
    return [c for c in cells if data["stacks"][c]]


@builtin("hex_rotation", 2)
def _rotation(rt, name, cell):
    """The rotation (0-5) of the top piece, or none on an empty cell."""
    d, data, cells = grid(rt, name)
    item = top_item(data, on_board(cells, name, cell))
    return None if item is None else item["rot"]


@builtin("hex_edge", 3)
def _edge(rt, name, cell, k):
    """The icon the top piece shows on board edge k (as rotated), or none (also on an empty cell)."""
    d, data, cells = grid(rt, name)
    item = top_item(data, on_board(cells, name, cell))
    k = index(k, "an edge")
    return None if item is None else item["edges"][k]


@builtin("hex_corner", 3)
def _corner(rt, name, cell, k):
    """The mark the top piece shows on board corner k (as rotated), or none (also on an empty cell)."""
    d, data, cells = grid(rt, name)
    item = top_item(data, on_board(cells, name, cell))
    k = index(k, "a corner")
    return None if item is None else item["corners"][k]


# ==================================================================== procedures
def _six(v, what) -> list:
    if v is None:
        return [None] * 6
    if not isinstance(v, list) or len(v) != 6 or any(isinstance(x, (list, dict)) for x in v):
        raise PlayError(f"{what} must be a list of 6 icons (or none), got {v!r}", code="play/type")
    return list(v)


@procedure("hex_place", 6)
def _place(rt, node, name, cell, piece, rotation, edges, corners):
    """``do hex_place(b, cell, piece, rotation, edges, corners)``: put a piece on top of the cell's stack,
    turned ``rotation`` steps clockwise; ``edges`` and ``corners`` are its printed lists of 6 (icon or
    none; none for no icons), stored as the board shows them."""
    d, data, cells = grid(rt, name)
    cid = on_board(cells, name, cell)
    s = index(rotation, "a rotation")
    item = {
        "piece": piece,
        "rot": s,
        "edges": turn(_six(edges, "edges"), s),
        "corners": turn(_six(corners, "corners"), s),
        "paid": {},
    }
    under = top_item(data, cid)
    data["stacks"][cid].append(json.loads(json.dumps(item)))
    if rt.narrate:
        names = rt_names(rt)
        over = f", covering {piece_name(names, under['piece'])}" if under is not None else ""
        text = f"{piece_name(names, piece)} -> {label_of(d, name)} {cid} (rotation {s}){over}"
        board_event(
            rt,
            node,
            name,
            "place",
            text,
            cell=cid,
            piece=piece,
            piece_type=piece_type(rt, piece),
            rotation=s,
            edges=item["edges"],
            corners=item["corners"],
            covers=under["piece"] if under is not None else None,
            height=len(data["stacks"][cid]),
        )


@procedure("hex_remove", 2)
def _remove(rt, node, name, cell):
    """Take the top piece off the cell (refused on an empty cell)."""
    d, data, cells = grid(rt, name)
    cid = on_board(cells, name, cell)
    if not data["stacks"][cid]:
        raise PlayError(f"no piece on {label_of(d, name)} {cid}", code="play/illegal-state")
    item = data["stacks"][cid].pop()
    if rt.narrate:
        text = f"{piece_name(rt_names(rt), item['piece'])} leaves {label_of(d, name)} {cid}"
        board_event(
            rt,
            node,
            name,
            "remove",
            text,
            cell=cid,
            piece=item["piece"],
            piece_type=piece_type(rt, item["piece"]),
            height=len(data["stacks"][cid]),
        )
