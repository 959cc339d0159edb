"""Hex maps, part two: the links a piece just placed makes with its neighbours (paid connections with
a memory, for the covering rule) and the board model (what a seat sees: docs/boards.md). The board
kind is in ``hexgrid.py``.

Each item remembers, per edge ``e<k>`` and corner ``c<k>``, the positions (cell ids) it has paid
with; a printed mark remembers them in ``marks_paid["CELL/K"]``. ``hex_edge_links`` and
``hex_corner_links`` leave out what the other side already paid with the new piece's position, so
a piece that covers another at X never re-pays its neighbours' icons that paid with X, while a
pairing with a new piece at a neighbouring position pays. The rules pay and then record each side
with ``hex_mark_paid``.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.primitives.hexgrid import (
    DIR_NAMES,
    _six,
    cell_id,
    cells_of,
    grid,
    index,
    on_board,
    piece_name,
    printed,
    step,
    top_item,
    turn,
    vertex,
)
from mason.runtime.boards import board_event, board_model
from mason.runtime.values import in_words, label_of


def _placed(d, data, cells, name, cell):
    cid = on_board(cells, name, cell)
    item = top_item(data, cid)
    if item is None:
        raise PlayError(f"no piece on {label_of(d, name)} {cid}", code="play/illegal-state")
    return cid, item


@builtin("hex_edge_links", 2)
def _edge_links(rt, name, cell):
    """For the top piece of ``cell``: ``[k, neighbour, my icon, their icon]`` for each direction k whose
    neighbour's top piece shows an icon on the facing edge while this one shows one on edge k, unless
    that neighbour's edge already paid with this position."""
    d, data, cells = grid(rt, name)
    cid, item = _placed(d, data, cells, name, cell)
    return _edge_links_of(data, cells, cid, item)


@builtin("hex_links_if", 6)
def _links_if(rt, name, cell, edges, corners, rotation, mark):
    """What a piece with these printed ``edges`` and ``corners`` would link if it were put on ``cell`` now,
    turned ``rotation`` steps clockwise (an option's preview; nothing is placed): ``[edge links, corner
    links]``, each as ``hex_edge_links`` and ``hex_corner_links(..., mark)`` would give it after ``hex_place``."""
    d, data, cells = grid(rt, name)
    cid = on_board(cells, name, cell)
    s = index(rotation, "a rotation")
    item = {"edges": turn(_six(edges, "edges"), s), "corners": turn(_six(corners, "corners"), s), "paid": {}}
    return [_edge_links_of(data, cells, cid, item), _corner_links_of(d, data, cells, cid, item, mark)]


def _edge_links_of(data, cells, cid, item) -> list:
    out = []
    for k in range(6):
        n = step(cid, k)
        other = top_item(data, n) if n in cells else None
        if other is None or item["edges"][k] is None:
            continue
        facing = (k + 3) % 6
        theirs = other["edges"][facing]
        if theirs is not None and cid not in other["paid"].get(f"e{facing}", ()):
            out.append([k, n, item["edges"][k], theirs])
    return out


@builtin("hex_corner_links", 3)
def _corner_links(rt, name, cell, mark):
    """For the top piece of ``cell``, each corner k showing ``mark`` that meets other such marks at its
    vertex (on the top pieces of the two other cells, printed on any of the three) not yet paid with this
    position: ``[k, count, [[cell, corner, "c" (a piece's) or "m" (printed)], ...]]``."""
    d, data, cells = grid(rt, name)
    cid, item = _placed(d, data, cells, name, cell)
    return _corner_links_of(d, data, cells, cid, item, mark)


def _corner_links_of(d, data, cells, cid, item, mark) -> list:
    out = []
    for k in range(6):
        if item["corners"][k] != mark or mark is None:
            continue
        others = []
        for c, j in vertex(cid, k):
            if c not in cells:
                continue
            other = top_item(data, c)
            if (
                c != cid
                and other is not None
                and other["corners"][j] == mark
                and cid not in other["paid"].get(f"c{j}", ())
            ):
                others.append([c, j, "c"])
            if [j, mark] in printed(d, c) and cid not in data["marks_paid"].get(f"{c}/{j}", ()):
                others.append([c, j, "m"])
        if others:
            out.append([k, len(others), others])
    return out


@procedure("hex_mark_paid", 5)
def _mark_paid(rt, node, name, cell, kind, k, other):
    """``do hex_mark_paid(b, cell, kind, k, other)``: record that edge k (kind ``"e"``) or corner k (``"c"``)
    of the cell's top piece, or the mark printed at the cell's corner k (``"m"``), paid with position
    ``other``."""
    d, data, cells = grid(rt, name)
    cid = on_board(cells, name, cell)
    k = index(k, "an edge or corner")
    pos = on_board(cells, name, other)
    if kind == "m":
        if k not in [j for j, _ in printed(d, cid)]:
            raise PlayError(f"no mark is printed at {label_of(d, name)} {cid}, corner {k}", code="play/illegal-state")
        paid = data["marks_paid"].setdefault(f"{cid}/{k}", [])
    elif kind in ("e", "c"):
        item = top_item(data, cid)
        if item is None:
            raise PlayError(f"no piece on {label_of(d, name)} {cid}", code="play/illegal-state")
        paid = item["paid"].setdefault(f"{kind}{k}", [])
    else:
        raise PlayError(f'kind must be "e" (edge), "c" (corner) or "m" (printed mark), not {kind!r}', code="play/type")
    if pos not in paid:
        paid.append(pos)
        if rt.narrate:
            board_event(rt, node, name, "mark_paid", None, cell=cid, mark=kind, index=k, other=pos)


# ==================================================================== board model (docs/boards.md)
def _type_of(program, piece):
    """A card piece's component type (None for any other piece)."""
    if isinstance(piece, int) and not isinstance(piece, bool) and 0 <= piece < len(program.instances):
        return program.instances[piece]
    return None


def _card_names(program):
    def name(c):
        if 0 <= c < len(program.instances):
            return program.types[program.instances[c]]["name"]
        return None

    return name


def _short(text: str) -> str:
    letters = "".join(ch for ch in text if ch.isalnum())
    return (letters or text)[:3]


def _icons(values, prefix) -> str:
    return ", ".join(f"{prefix(k)} {in_words(v)}" for k, v in enumerate(values) if v is not None) or "-"


_INFOS: dict = {}  # id(declaration) -> (declaration, cell id -> its data without q, r and kind)


def _cell_infos(d: dict) -> dict:
    """Each cell's own data (not q, r, kind), computed once per declaration: the keys, read from the rule
    files, compare slowly, and a board model is built for every payload of ``mason serve``."""
    hit = _INFOS.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    infos = {c: {k: v for k, v in cd.items() if k not in ("q", "r", "kind")} for c, cd in cells_of(d).items()}
    _INFOS[id(d)] = (d, infos)
    return infos


@board_model("hexgrid")
def board_model_(program, name, data) -> dict:
    """``cells`` in declaration order: [{id, q, r, kind, data, stack}], a stack bottom first, each piece
    {piece (its name), type (a card's component type, else None), rot, edges, corners} (board-oriented); ``marks`` printed: [{cell, corner, mark}]."""
    d = program.boards.get(name) or {}
    names = _card_names(program)
    stacks = data.get("stacks") or {}
    infos = _cell_infos(d)
    cells = []
    for c, cd in cells_of(d).items():
        stack = [
            {
                "piece": piece_name(names, it["piece"]),
                "type": _type_of(program, it["piece"]),
                "rot": it["rot"],
                "edges": list(it["edges"]),
                "corners": list(it["corners"]),
            }
            for it in stacks.get(c) or []
        ]
        info = dict(infos[c])
        cells.append({"id": c, "q": cd["q"], "r": cd["r"], "kind": cd.get("kind"), "data": info, "stack": stack})
    marks = [{"cell": cell_id(m["q"], m["r"]), "corner": m["corner"], "mark": m["mark"]} for m in d.get("marks") or ()]
    return {"cells": cells, "marks": marks, "directions": list(DIR_NAMES)}
