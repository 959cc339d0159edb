"""A staircase: one marker per seat on a grid of rows (1 = bottom) and columns (1 = the start side).

``boards: {NAME: {kind: staircase, rows: [TEXT, ...], tiers: [[1, 2], ...], row_scores: [..],
column_values: [..], start: [ROW, COLUMN]}}``

- ``rows`` lists the rows bottom first, each a string of cell codes separated by spaces
  (``"S . 1 > . 2"``); every row has the same number of cells. A code that is a whole number
  (``2``, ``-1``) is read as that number, any other as its text (``"."``, ``">"``, ``"^"``):
  the codes are data for the rules, which chain landing effects by reading ``stair_here``.
- ``tiers`` (default: one tier of every row) groups the rows, bottom tier first; together they
  list rows 1 .. R once each, in order. ``row_scores`` (one whole number per row) and
  ``column_values`` (one per column) default to 0s. ``start`` (default ``[1, 1]``) is every
  seat's first cell. ``label`` shapes narration (default: the board's name).
- Markers only move up and right (or down and left with negative counts); a move is clamped to
  the grid: what would go past the top row or the last column is lost.

State: ``{"pos": [[row, column] per seat]}``.
"""

from __future__ import annotations

import re

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError, did_you_mean
from mason.runtime.boards import board, board_event, board_kind, board_renderer
from mason.runtime.values import label_of

KEYS = ("status", "text", "kind", "label", "rows", "tiers", "row_scores", "column_values", "start")
_NUMBER = re.compile(r"-?\d+")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _code(text: str):
    return int(text) if _NUMBER.fullmatch(text) else text


def _grid(d) -> list[list]:
    """The cell codes, bottom row first."""
    return [[_code(t) for t in row.split()] for row in d["rows"]]


# ==================================================================== declaration
def check_definition(d: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a staircase declaration as (message, key) pairs (empty when it is fine)."""
    out = [(f"unknown key '{k}'{did_you_mean(k, KEYS)}", k) for k in d if k not in KEYS]
    rows = d.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) and r.split() for r in rows):
        return out + [
            (
                "rows must be a non-empty list of rows (bottom first), each a string of cell codes separated by spaces",
                "rows",
            )
        ]
    widths = [len(r.split()) for r in rows]
    out += [
        (f"row {i} has {w} cells, row 1 has {widths[0]}: every row needs the same number", "rows")
        for i, w in enumerate(widths, 1)
        if w != widths[0]
    ]
    n_rows, n_cols = len(rows), widths[0]
    tiers = d.get("tiers")
    if tiers is not None:
        flat = (
            [r for t in tiers for r in t]
            if isinstance(tiers, list) and all(isinstance(t, list) and t for t in tiers)
            else None
        )
        if flat != list(range(1, n_rows + 1)):
            out.append(
                (
                    f"tiers must list the rows 1 to {n_rows} once each, in order, bottom tier first "
                    f"(e.g. [[1, 2], [3, {n_rows}]])",
                    "tiers",
                )
            )
    for key, n, what in (("row_scores", n_rows, "row"), ("column_values", n_cols, "column")):
        v = d.get(key)
        if v is not None and (not isinstance(v, list) or len(v) != n or not all(_whole(x) for x in v)):
            out.append((f"{key} must list {n} whole numbers, one per {what}", key))
    start = d.get("start", [1, 1])
    if not (
        isinstance(start, list)
        and len(start) == 2
        and all(_whole(x) for x in start)
        and 1 <= start[0] <= n_rows
        and 1 <= start[1] <= n_cols
    ):
        out.append(
            (f"start must be [row, column] with a row from 1 to {n_rows} and a column from 1 to {n_cols}", "start")
        )
    return out


@board_kind("staircase", check=check_definition)
def _build(d, players, table):
    problems = check_definition(d)
    if problems:
        raise PlayError(f"staircase board: {problems[0][0]}", code="definition/board")
    start = list(d.get("start", [1, 1]))
    return {"pos": [list(start) for _ in range(players)]}


# ==================================================================== helpers
def _stair(rt, name):
    d = rt.prog.boards.get(name) if isinstance(name, str) else None
    if d is None or d.get("kind") != "staircase":
        raise PlayError(f"'{name}' is not a staircase board", code="play/type")
    return d, board(rt, name)


def _size(d) -> tuple[int, int]:
    return len(d["rows"]), len(d["rows"][0].split())


def _seat(rt, data, s) -> int:
    if not _whole(s) or not 0 <= s < len(data["pos"]):
        raise PlayError(f"not a seat: {s!r}", code="play/no-seat")
    return s


def _in(n: int, v, what: str) -> int:
    if not _whole(v) or not 1 <= v <= n:
        raise PlayError(f"{what} {v!r} is not on the staircase (1 to {n})", code="play/index")
    return v


def _tiers(d) -> list[list[int]]:
    return d.get("tiers") or [list(range(1, len(d["rows"]) + 1))]


def _tier_of(d, row: int) -> int:
    return next(i for i, t in enumerate(_tiers(d), 1) if row in t)


# ==================================================================== queries
@builtin("stair_rows", 1)
def _rows(rt, name):
    """The number of rows (the top row's number)."""
    return _size(_stair(rt, name)[0])[0]


@builtin("stair_columns", 1)
def _columns(rt, name):
    """The number of columns (the last column's number)."""
    return _size(_stair(rt, name)[0])[1]


@builtin("stair_row", 2)
def _row(rt, name, seat):
    """The row of seat's marker (1 = bottom)."""
    data = _stair(rt, name)[1]
    return data["pos"][_seat(rt, data, seat)][0]


@builtin("stair_column", 2)
def _column(rt, name, seat):
    """The column of seat's marker (1 = the start side)."""
    data = _stair(rt, name)[1]
    return data["pos"][_seat(rt, data, seat)][1]


@builtin("stair_cell", 3)
def _cell(rt, name, row, column):
    """The code of a cell: a whole number, or its text (``"."``, ``">"``, ``"^"`` ...)."""
    d = _stair(rt, name)[0]
    n_rows, n_cols = _size(d)
    return _grid(d)[_in(n_rows, row, "row") - 1][_in(n_cols, column, "column") - 1]


@builtin("stair_here", 2)
def _here(rt, name, seat):
    """The code of the cell under seat's marker."""
    return _cell(rt, name, _row(rt, name, seat), _column(rt, name, seat))


@builtin("stair_tier", 2)
def _tier(rt, name, row):
    """The tier (1 = bottom) a row belongs to."""
    d = _stair(rt, name)[0]
    return _tier_of(d, _in(_size(d)[0], row, "row"))


@builtin("stair_crosses_tier", 2)
def _crosses(rt, name, row):
    """Whether moving up one row from ``row`` enters a new tier (false on the top row)."""
    d = _stair(rt, name)[0]
    n_rows = _size(d)[0]
    _in(n_rows, row, "row")
    return row < n_rows and _tier_of(d, row + 1) != _tier_of(d, row)


@builtin("stair_row_score", 2)
def _row_score(rt, name, row):
    """The score of a row (``row_scores``; 0 when not declared)."""
    d = _stair(rt, name)[0]
    n_rows = _size(d)[0]
    return (d.get("row_scores") or [0] * n_rows)[_in(n_rows, row, "row") - 1]


@builtin("stair_column_value", 2)
def _column_value(rt, name, column):
    """The value of a column (``column_values``; 0 when not declared)."""
    d = _stair(rt, name)[0]
    n_cols = _size(d)[1]
    return (d.get("column_values") or [0] * n_cols)[_in(n_cols, column, "column") - 1]


# ==================================================================== procedures
def _go(rt, node, name, d, data, seat, row, column):
    old = list(data["pos"][seat])
    data["pos"][seat] = [row, column]
    if rt.narrate and old != [row, column]:
        text = f"{rt.seat_name(seat)}'s {label_of(d, name)} marker: row {old[0]} col {old[1]} -> row {row} col {column}"
        board_event(rt, node, name, "move", text, seat=seat, source=old, dest=[row, column])


@procedure("stair_move", 4)
def _move(rt, node, name, seat, rows, columns):
    """``do stair_move(b, s, rows, columns)``: move seat's marker up ``rows`` and right ``columns``
    (negative: down, left), clamped to the grid: what would go past an edge is lost."""
    d, data = _stair(rt, name)
    _seat(rt, data, seat)
    if not _whole(rows) or not _whole(columns):
        raise PlayError(
            f"a staircase move is whole numbers of rows and columns, got {rows!r}, {columns!r}", code="play/type"
        )
    n_rows, n_cols = _size(d)
    row, column = data["pos"][seat]
    _go(rt, node, name, d, data, seat, max(1, min(n_rows, row + rows)), max(1, min(n_cols, column + columns)))


@procedure("stair_set", 4)
def _set(rt, node, name, seat, row, column):
    """``do stair_set(b, s, row, column)``: put seat's marker on a cell (``play/index`` off the grid)."""
    d, data = _stair(rt, name)
    _seat(rt, data, seat)
    n_rows, n_cols = _size(d)
    _go(rt, node, name, d, data, seat, _in(n_rows, row, "row"), _in(n_cols, column, "column"))


# ==================================================================== picture
@board_renderer("staircase")
def render(program, name, data, seat) -> list[str]:
    """Rows top first (cell codes, markers as ``[P1]`` after the code, the row's score at the right),
    a rule between tiers, then the column values."""
    d = program.boards.get(name) or {}
    grid = _grid(d)
    n_rows, n_cols = len(grid), len(grid[0]) if grid else 0
    here: dict[tuple[int, int], list[str]] = {}
    for s, (r, c) in enumerate(data["pos"]):
        here.setdefault((r, c), []).append(f"P{s + 1}")
    cells = [
        [
            str(grid[r - 1][c - 1]) + (f"[{','.join(here[(r, c)])}]" if (r, c) in here else "")
            for c in range(1, n_cols + 1)
        ]
        for r in range(1, n_rows + 1)
    ]
    values = [str(v) for v in (d.get("column_values") or [0] * n_cols)]
    width = [max([len(cells[r][c]) for r in range(n_rows)] + [len(values[c])]) for c in range(n_cols)]
    scores = d.get("row_scores") or [0] * n_rows
    head = len(f"row {n_rows}")
    out = [f"{label_of(d, name)}: a staircase, top row first (row score at the right, a rule between tiers)"]
    for r in range(n_rows, 0, -1):
        line = "  ".join(cells[r - 1][c].ljust(width[c]) for c in range(n_cols))
        out.append(f"  {f'row {r}'.ljust(head)}  {line}  | {scores[r - 1]}")
        if r > 1 and _tier_of(d, r) != _tier_of(d, r - 1):
            out.append("  " + "-" * (head + 2 + sum(width) + 2 * (n_cols - 1)))
    out.append(f"  {'value'.ljust(head)}  " + "  ".join(v.ljust(w) for v, w in zip(values, width)).rstrip())
    return out
