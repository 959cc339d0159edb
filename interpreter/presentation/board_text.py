"""Boards drawn for a terminal from their board models (mason.presentation.table) and nothing else.

``full(model, names)``: every detail of a board (``view AREA``, the whole table); ``compact(model,
names)``: the board as the fitting table draws it, spatially where the board is spatial (the hex map
as offset hexes, a ring as a loop, a pyramid as a pyramid, a wheel as a dial), with a ``Legend`` of
every code it uses; ``line(model, names)``: one line of summary. Colour (``paint``) is added by the
caller only where the terminal supports it.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys

from mason.runtime.values import in_words, plural

SEAT_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan")
ANSI = {"red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37, "grey": 90}
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def use_colour(stream=None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    stream = stream or sys.stdout
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


def paint(text: str, colour: str | None) -> str:
    """``text`` in an ANSI colour (unchanged when the colour is unknown or None)."""
    code = ANSI.get(colour or "")
    return f"\x1b[{code}m{text}\x1b[0m" if code else text


def visible(text: str) -> str:
    """``text`` without its colour codes (what the width of a line is measured on)."""
    return _ANSI_RE.sub("", text)


ENVELOPE = ("name", "kind", "label", "status", "display")  # the keys every board model has


class Legend(dict):
    """code -> meaning, in the order first used; drawn as ``code = meaning`` pairs.

    One board's legend; ``shared`` (code -> meaning, one for the whole table) keeps codes unique
    across boards: a meaning keeps the code it got first, another meaning never takes it.
    """

    def __init__(self, shared: dict | None = None):
        super().__init__()
        self.shared = shared if shared is not None else {}
        self.long: dict = {}  # code -> a longer meaning (a card with its description), where room allows

    def code(self, meaning: str, size: int = 3, first: str | None = None) -> str:
        """The code of ``meaning`` on this table: the one it has, else ``first`` when free, else a new one."""
        for c, v in self.shared.items():
            if v == meaning:
                self[c] = v
                return c
        taken = set(self.shared) | set(self)
        c = first if first and first not in taken else code_for(meaning, taken, size)
        self.shared[c] = self[c] = meaning
        return c

    def lines(self, width: int = 100, head: str = "key: ") -> list[str]:
        """The key's entries wrapped on lines of ``width`` columns after ``head``."""
        return wrap([f"{k} = {v}" for k, v in self.items()], width, head, sep=", ")


def wrap(parts: list[str], width: int, head: str = "", sep: str = ", ", indent: str = "  ") -> list[str]:
    """``parts`` joined by ``sep`` on as few lines of at most ``width`` columns as they fit (a part
    too long for the first line starts the next one; one longer than a whole line is cut)."""
    out, line = [], head
    room = width - len(indent) - len(sep)
    for i, p in enumerate(parts):
        if len(visible(p)) > room:  # longer than a line: cut
            p = visible(p)[: room - 3].rstrip(" ,;") + "..."
        piece = p + (sep.rstrip() if i < len(parts) - 1 else "")
        if len(visible(line)) + len(visible(piece)) + 1 > width and line.strip():
            out.append(line.rstrip())
            line = indent
        line += piece + (" " if i < len(parts) - 1 else "")
    if line.strip():
        out.append(line.rstrip())
    return out


def who(o, names) -> str:
    """An occupant or owner: a seat number by the seat's name, a text as itself, nothing as ``-``."""
    if o is None:
        return "-"
    if isinstance(o, int) and not isinstance(o, bool):
        return names[o] if names and 0 <= o < len(names) else f"P{o + 1}"
    return o if isinstance(o, str) else json.dumps(o, separators=(",", ":"))


def _words(v) -> str:
    return str(v).replace("_", " ")


def code_for(name: str, taken: set, size: int = 3) -> str:
    """A short code for ``name`` not in ``taken``: its initials and its last digits (``Building I-06``
    as ``B06``), else its first letters, else a numbered one."""
    words = re.findall(r"[A-Za-z]+|\d+", name)
    digits = next((w for w in words if w.isdigit()), "")[-2:]  # the name's first number
    letters = [w for w in words if not w.isdigit()]
    tries = []
    if digits:
        tries.append(("".join(w[0] for w in letters) or "")[: size - len(digits)] + digits)
    tries.append("".join(w[0] for w in letters)[:size])
    tries.append("".join(ch for ch in name if ch.isalnum())[:size])
    for t in tries:
        if t and t not in taken:
            return t
    base = (tries[-1] or "x")[: size - 1]
    for i in range(1, 100):
        t = f"{base[: size - len(str(i))]}{i}"
        if t not in taken:
            return t
    return name[:size]


# ------------------------------------------------------------------------------------ full
def full(m: dict, names) -> list[str]:
    """Every detail of the board, the heading first (the board as ``view AREA`` shows it)."""
    fn = _FULL.get(m["kind"])
    if fn is None:  # a kind no drawing knows: its model's own keys, kept to one line
        own = {k: v for k, v in m.items() if k not in ENVELOPE}
        text = json.dumps(own.get("data", own), separators=(",", ":"))
        return [f"{m['label']}: {text if len(text) <= 100 else text[:97] + '...'}"]
    return fn(m, names)


def _full_bag(m, names):
    text = ", ".join(f"{who(e['piece'], names)} x{e['count']}" for e in m["inside"]) or "empty"
    line = f"{m['label']}: {text}"
    if m["drawn"] is not None:
        line += f" | drawn: {who(m['drawn'], names)}"
    if m["parked"]:
        line += " | parked: " + ", ".join(f"{who(p['piece'], names)} (slot {p['slot']})" for p in m["parked"])
    return [line]


def _full_cost_track(m, names):
    cells = [f"[{p}]" if i == m["position"] else str(p) for i, p in enumerate(m["prices"])]
    return [f"{m['label']}: " + " ".join(cells)]


def _market_cell(sp) -> str:
    extra = " ".join(f"{_words(k)} {v}" for k, v in sp.items() if k not in ("price", "filled"))
    return f"[{sp.get('price')}{'*' if sp['filled'] else ' '}{(' ' + extra) if extra else ''}]"


def _full_market(m, names):
    cells, columns = [], []
    for g in m["goods"]:
        if "spaces" in g:
            columns.append(f"  {g['label']}: " + " ".join(_market_cell(sp) for sp in g["spaces"]))
            continue
        buy = f"buy {g['buy']}" if g["buy"] is not None else "not sold"
        sell = f"sell {g['sell']}" if g["sell"] is not None else "not bought"
        stock = f", stock {g['stock']}" if g["buy"] is not None else ""
        cells.append(f"{g['id']} ({buy}, {sell}{stock})")
    return [f"{m['label']}:" + (" " + "; ".join(cells) if cells else "")] + columns


def _pyramid_lines(m, cell) -> list[tuple[int, str]]:
    slots = m["slots"]
    step = max(len(visible(cell(s))) for s in slots) + 1
    out = []
    for lv in sorted({s["layer"] for s in slots}, reverse=True):
        line = ""
        for s in [s for s in slots if s["layer"] == lv]:
            at = max(round((s["x"] - 1) * step), len(visible(line)) + 1 if line else 0)
            line = line + " " * (at - len(visible(line))) + cell(s)
        out.append((lv, line))
    return out


def _full_pyramid(m, names):
    def cell(s):
        if s["state"] == "filled":
            return f"[{s['id']}:{who(s['owner'], None if isinstance(s['owner'], int) else names)}]"
        return f"[{s['id']}:  ]" if s["state"] == "open" else f"[{s['id']}:..]"

    out = [f"{m['label']} ({m['shape']}):"]
    out += [f"  L{lv} {line}" for lv, line in _pyramid_lines(m, cell)]
    out.append("  [id:  ] open, [id:..] waiting for the slots below")
    return out


def _full_ring(m, names):
    places = m["places"]
    cap = places[0]["capacity"] if places else None
    width = max((len(p["label"]) for p in places), default=0)
    out = [f"{m['label']}: a ring, clockwise" + (f", {cap} {m['piece']}s per place" if cap else "")]
    for i, p in enumerate(places):
        cells = " ".join(f"[{x}]" for x in p["pieces"]) + " [ ]" * ((cap or 0) - len(p["pieces"]))
        parts = [cells.strip() or "-"]
        parts += [f"{_words(k)} {v}" for k, v in p["tokens"].items()]
        if p["pawns"]:
            parts.append(f"{m['pawn']} " + ", ".join(who(k, names) for k in p["pawns"]))
        out.append(f"  {p['label'].ljust(width)}  " + " | ".join(parts))
        for mk in m["markers"]:
            if mk["after"] == i:
                out.append(f"    ~ marker {mk['id']} ~")
    if m["held"]:
        out.append(f"  held: {', '.join(m['held'])} (after {m['cursor']})")
    return out


def _full_slots(m, names):
    width = 5
    symbols = m["symbols"]

    def cell(c):
        if c is None:
            return " " * width
        sym = "".join(symbols.get(k, "*") for k in c["marks"] for _ in range(c["marks"][k]))[:1] or " "
        if c["owner"] is not None or c["neutral"]:
            return f"[{'##' if c['neutral'] else who(c['owner'], names)[:2]}{sym}]"
        return "[ . ]" if c["open"] else "[   ]"

    gap, cols, regions = "  ", m["columns"], m["regions"]
    margin = max(5, len(m["store_label"]) + 1)
    head = " " * margin + gap.join(f"region {r}".ljust(cols * width) for r in range(1, regions + 1))
    lines = [
        f"{m['label']}: . = open slot, [   ] = not open yet, ## = {m['neutral']}"
        + "".join(f", {v} = {_words(k)}" for k, v in symbols.items()),
        head,
    ]
    for lv in m["levels"]:
        cells = lv["cells"]
        row = ["".join(cell(c) for c in cells[cols * r : cols * (r + 1)]) for r in range(regions)]
        lines.append(f"L{lv['level']}".ljust(margin) + gap.join(row))
    lines.append(" " * margin + gap.join("".join(f" C{c}  " for c in range(1, cols + 1)) for _ in range(regions)))
    if any(m["stores"]):
        parts = [", ".join(f"{v} {_words(k)}" for k, v in st.items()).ljust(cols * width) for st in m["stores"]]
        lines.append(m["store_label"].ljust(margin) + gap.join(parts))
    return lines


def _full_spaces(m, names):
    out = [f"{m['label']}:"]
    for i, l in enumerate(m["locations"], 1):
        if l["spaces"]:
            out.append(f"  {i:>2}. {l['label']}: " + " ".join(f"[{who(o, names)}]" for o in l["spaces"]))
    return out


def _full_staircase(m, names):
    rows = m["rows"]
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0
    here: dict = {}
    for s, (r, c) in enumerate(m["positions"]):
        here.setdefault((r, c), []).append(who(s, names))
    cells = [
        [
            str(rows[r - 1][c - 1]) + (f"[{','.join(here[(r, c)])}]" if (r, c) in here else "")
            for c in range(1, n_cols + 1)
        ]
        for r in range(1, n_rows + 1)
    ]
    values = [str(v) for v in m["column_values"]]
    width = [max([len(cells[r][c]) for r in range(n_rows)] + [len(values[c])]) for c in range(n_cols)]
    head = len(f"row {n_rows}")
    tier = {r: i for i, t in enumerate(m["tiers"]) for r in t}
    out = [f"{m['label']}: a staircase, top row first (row score at the right, a rule between tiers)"]
    for r in range(n_rows, 0, -1):
        line = "  ".join(cells[r - 1][c].ljust(width[c]) for c in range(n_cols))
        out.append(f"  {f'row {r}'.ljust(head)}  {line}  | {m['row_scores'][r - 1]}")
        if r > 1 and tier.get(r) != tier.get(r - 1):
            out.append("  " + "-" * (head + 2 + sum(width) + 2 * (n_cols - 1)))
    out.append(f"  {'value'.ljust(head)}  " + "  ".join(v.ljust(w) for v, w in zip(values, width)).rstrip())
    return out


def _full_track(m, names):
    out = [f"{m['label']}:"]
    for t in m["tracks"]:
        out.append(
            f"  {t['label']}: " + "  ".join(f"{who(s, names)} {p}/{t['top']}" for s, p in enumerate(t["positions"]))
        )
    return out


def _full_wheel(m, names):
    out = [f"{m['label']}: a wheel, rotation {m['rotation']} (clockwise)"]
    left = [st["summary"] for st in m["stations"]]
    right = [st["slot_summary"] for st in m["stations"]]
    wl, wr = max(map(len, left), default=0), max(map(len, right), default=0)
    for st, a, b in zip(m["stations"], left, right):
        out.append(f"  {a.ljust(wl)}  <- {b.ljust(wr)}  {st['piece'] or '-'}")
    if m["passed"]:
        out.append("  past the end last turn: " + ", ".join(p or "-" for p in m["passed"]))
    return out


def _icons(values, prefix) -> str:
    return ", ".join(f"{prefix(k)} {in_words(v)}" for k, v in enumerate(values) if v is not None) or "-"


def _hex_rows(m, token) -> list[tuple[int, str, int, int]]:
    """The map row by row, each row shifted half a cell: ``token(cell) -> 3 characters``."""
    cells = m["cells"]
    xs = [2 * c["q"] + c["r"] for c in cells]
    left, width = min(xs), 2 * (max(xs) - min(xs)) + 3
    rows: dict = {}
    for c in cells:
        rows.setdefault(c["r"], []).append(c)
    out = []
    for r in sorted(rows):
        line = [" "] * width
        for c in rows[r]:
            at = 2 * (2 * c["q"] + r - left)
            line[at : at + 3] = token(c).center(3)[:3]
        qs = [c["q"] for c in rows[r]]
        out.append((r, "".join(line), min(qs), max(qs)))
    return out


def _short(text: str) -> str:
    letters = "".join(ch for ch in text if ch.isalnum())
    return (letters or text)[:3]


def _full_hexgrid(m, names):
    def token(c):
        if c["stack"]:
            return _short(c["stack"][-1]["piece"])
        v = _cell_value(m, c)
        return v[:1] if v is not None else "."

    out = [f"{m['label']}: hex map, {plural(len(m['cells']), 'cell')}"]
    for r, line, q0, q1 in _hex_rows(m, token):
        out.append(f"  r{r:>3}  {line}  (q {q0}..{q1})")
    if m["marks"]:
        out.append("  printed marks: " + ", ".join(f"{k['cell']} c{k['corner']} {k['mark']}" for k in m["marks"]))
    for c in m["cells"]:
        if not c["stack"]:
            continue
        top = c["stack"][-1]
        under = ", ".join(it["piece"] for it in reversed(c["stack"][:-1]))
        edges = _icons(top["edges"], lambda k: m["directions"][k])
        corners = _icons(top["corners"], lambda k: f"c{k}")
        out.append(
            f"  {c['id']}: {top['piece']} (rotation {top['rot']})"
            f"{f' over {under}' if under else ''}; edges {edges}; corners {corners}"
        )
    return out


_FULL = {
    "bag": _full_bag,
    "cost_track": _full_cost_track,
    "market": _full_market,
    "pyramid": _full_pyramid,
    "ring": _full_ring,
    "slots": _full_slots,
    "spaces": _full_spaces,
    "staircase": _full_staircase,
    "track": _full_track,
    "wheel": _full_wheel,
    "hexgrid": _full_hexgrid,
}


# ------------------------------------------------------------------------------------ compact
def compact(m: dict, names, legend: Legend, colour: bool = False) -> list[str]:
    """The board as the fitting table draws it (spatial where the board is); codes go to ``legend``."""
    fn = _COMPACT.get(m["kind"])
    return fn(m, names, legend, colour) if fn is not None else full(m, names)


def _seat_paint(o, names, colour, text=None):
    text = text if text is not None else who(o, names)
    if colour and isinstance(o, int) and not isinstance(o, bool):
        return paint(text, SEAT_COLOURS[o % len(SEAT_COLOURS)])
    return text


def _hints_colour(m, key) -> str | None:
    return ((m.get("display") or {}).get("colours") or {}).get(str(key))


def _cell_value(m, c):
    """What a cell shows when empty: its ``display.cell_code`` key (default its ``kind``), or None."""
    key = (m.get("display") or {}).get("cell_code") or "kind"
    v = c["kind"] if key == "kind" else c["data"].get(key)
    return None if v is None or isinstance(v, (dict, list)) else str(v)


def _compact_hexgrid(m, names, legend, colour):
    """Offset hexes (each row half a cell right of the one above), a cell's code: the code of its top
    piece, else of its kind (or ``display.cell_code`` key), else ``.``; every code in the legend."""
    values = [_cell_value(m, c) for c in m["cells"]]
    used = {v for c, v in zip(m["cells"], values) if not c["stack"]}
    codes: dict = {}
    for k in dict.fromkeys(v for v in values if v is not None and v in used):
        codes[k] = legend.code(_words(k), 2, "".join(w[0] for w in k.split("_") if w)[:2].lower())
    pieces: dict = {}
    for c in m["cells"]:
        if c["stack"]:
            name = c["stack"][-1]["piece"]
            if name not in pieces:
                pieces[name] = legend.code(name)
    value_of = {c["id"]: v for c, v in zip(m["cells"], values)}

    def token(c):
        if c["stack"]:
            return pieces[c["stack"][-1]["piece"]]
        v = value_of[c["id"]]
        return "." if v is None else codes[v]

    out = [f"{m['label']}:"]
    for r, line, q0, q1 in _hex_rows(m, token):
        out.append(f"{r:>2} {line.rstrip()}")
    if colour:
        out = [_colour_codes(l, m, codes) for l in out]
    if None in used:
        legend.setdefault(".", "an empty cell")
    if m["marks"]:
        marks = [f"{k['cell']} c{k['corner']} {_words(k['mark'])}" for k in m["marks"]]
        out += wrap(marks, 54, "printed marks: ")
        legend.setdefault("c2", "corner 2 (c0 lower right, clockwise)")
    return out


def _colour_codes(line, m, codes):
    for k, code in codes.items():
        col = _hints_colour(m, k)
        if col:
            line = re.sub(rf"(?<![\w\x1b]){re.escape(code)}(?!\w)", paint(code, col), line)
    return line


def _compact_ring(m, names, legend, colour):
    places = m["places"]
    n = len(places)
    codes: dict = {}
    for x in [x for p in places for x in p["pieces"]] + m["held"]:
        if x not in codes:
            codes[x] = legend.code(x, 1)

    def cell(i):
        p = places[i]
        inside = [
            (_hints_colour(m, x) and colour and paint(codes[x], _hints_colour(m, x))) or codes[x] for x in p["pieces"]
        ]
        inside += ["."] * max(0, (p["capacity"] or 0) - len(p["pieces"]))
        parts = [p["label"] + ":", " ".join(inside) if inside else "-"]
        parts += [f"{_words(k)} {v}" for k, v in p["tokens"].items()]
        if p["pawns"]:
            parts.append(m["pawn"] + " " + ",".join(_seat_paint(k, names, colour) for k in p["pawns"]))
        marks = [mk["id"] for mk in m["markers"] if mk["after"] == i]
        text = " ".join(parts)
        return text + "".join(f" ~{_words(k)}~" for k in marks)

    out = [f"{m['label']} (clockwise):"] + _loop([cell(i) for i in range(n)], 98)
    if any(mk for mk in m["markers"]):
        legend.setdefault("~x~", "a marker on the ring, after that place")
    if any(p["capacity"] for p in places):
        legend.setdefault(".", f"an empty {m['piece']} space")
    if m["held"]:
        out.append(f"  held: {', '.join(m['held'])} (after {m['cursor']})")
    return out


def _loop(cells: list[str], width: int) -> list[str]:
    """Cells around a rectangle, clockwise: the top row left to right, down the right side, the bottom
    row right to left, up the left side; as many on the top row as ``width`` allows."""
    n = len(cells)
    w = max(len(visible(c)) for c in cells)

    def pad(c):
        return c + " " * (w - len(visible(c)))

    k = (n + 1) // 2
    while k > 1 and 2 + k * w + (k - 1) * 4 + 3 > width:
        k -= 1
    r = (n - 2 * k + 1) // 2
    top, right = cells[:k], cells[k : k + r]
    bottom, left = cells[k + r : 2 * k + r][::-1], cells[2 * k + r :][::-1]
    out = ["  " + " -> ".join(pad(c) for c in top) + (" -." if n > 1 else "")]
    last = 2 + (k - 1) * (w + 4)  # where the top row's last cell starts
    for j in range(max(len(right), len(left))):
        line = ("^ " + pad(left[j])) if j < len(left) else ""
        if j < len(right):
            line = line + " " * max(1, last - 2 - len(visible(line))) + "v " + right[j]
        out.append(line.rstrip())
    if bottom:
        out.append("  " + " <- ".join(pad(c) for c in bottom) + " <'")
    return out


def _compact_pyramid(m, names, legend, colour):
    def cell(s):
        if s["state"] == "filled":
            o = s["owner"]
            text = who(o, names)[:2] if isinstance(o, int) else str(o)[:2]
            return "[" + _seat_paint(o, names, colour, text.ljust(2)) + "]"
        return "[  ]" if s["state"] == "open" else "[..]"

    out = [f"{m['label']}:"]
    out += [line for lv, line in _pyramid_lines(m, cell)]
    legend.setdefault("[  ]", "an open slot")
    legend.setdefault("[..]", "a slot waiting for the two below")
    return out


def _compact_staircase(m, names, legend, colour):
    rows = m["rows"]
    here: dict = {}
    for s, (r, c) in enumerate(m["positions"]):
        here.setdefault(r, []).append(f"{_seat_paint(s, names, colour)}@{c}")
    out = [f"{m['label']}:"]
    for r in range(len(rows), 0, -1):
        cells = " ".join(str(x) for x in rows[r - 1])
        out.append(f"{r} {cells} |{m['row_scores'][r - 1]:>2} " + " ".join(here.get(r, [])))
    out.append("v " + " ".join(str(v) for v in m["column_values"]) + " |row score")
    legend.setdefault("S", "start")
    legend.setdefault("^ >", "step up, step right")
    legend.setdefault("v", "column values")
    legend.setdefault("P1@3", "P1 in column 3")
    return out


def _compact_track(m, names, legend, colour):
    out = [f"{m['label']}:"]
    for t in m["tracks"]:
        pos = "  ".join(f"{_seat_paint(s, names, colour)} {p}" for s, p in enumerate(t["positions"]))
        out.append(f"{t['label']} (0-{t['top']}): {pos}")
    return out


def _compact_wheel(m, names, legend, colour):
    st = m["stations"]
    n = len(st)
    codes: dict = {}
    for s in st:
        if s["piece"] is not None and s["piece"] not in codes:
            codes[s["piece"]] = legend.code(s["piece"])
    tokens = [f"{s['id']}:{codes[s['piece']] if s['piece'] is not None else '-'}" for s in st]
    height, width = 7, 56
    cy, cx, a, b = 3, width // 2, width // 2 - 5, 3
    grid = [[" "] * width for _ in range(height)]
    for j, tok in enumerate(tokens):
        th = 2 * math.pi * j / n
        y = round(cy - b * math.cos(th))
        x = round(cx + a * math.sin(th)) - len(tok) // 2
        x = max(0, min(width - len(tok), x))
        while any(ch != " " for ch in grid[y][max(0, x - 1) : x + len(tok) + 1]) and x + len(tok) < width:
            x += 1
        grid[y][x : x + len(tok)] = list(tok)
    centre = f"rotation {m['rotation']}"
    grid[cy][cx - len(centre) // 2 : cx - len(centre) // 2 + len(centre)] = list(centre)
    out = [f"{m['label']} (a dial, clockwise; station:piece):"]
    out += ["".join(row).rstrip() for row in grid]
    legend.setdefault("s:-", "a station with no piece")
    return out


def _compact_market(m, names, legend, colour):
    """A column good as its spaces cheapest last: ``[2|1]`` a filled space (price 2, then its other
    numbers), `` 2|1 `` an empty one; a traded good as in full."""
    out, extra = [f"{m['label']}:"], []
    for g in m["goods"]:
        if "spaces" not in g:
            buy = f"buy {g['buy']}" if g["buy"] is not None else "not sold"
            sell = f"sell {g['sell']}" if g["sell"] is not None else "not bought"
            out.append(f"  {g['label']}: {buy}, {sell}" + (f", stock {g['stock']}" if g["buy"] is not None else ""))
            continue
        cells = []
        for sp in g["spaces"]:
            more = [k for k in sp if k not in ("price", "filled")]
            extra += [k for k in more if k not in extra]
            text = "|".join(str(sp.get(k)) for k in ["price"] + more)
            cells.append(f"[{text}]" if sp["filled"] else f" {text} ")
        out.append(f"  {g['label']}: " + " ".join(cells))
    if any("spaces" in g for g in m["goods"]):
        what = "|".join(["price"] + [_words(k) for k in extra])
        legend.setdefault("[2|1]", f"a filled market space ({what}); without [ ] an empty one")
    return out


def _compact_spaces(m, names, legend, colour):
    out = [f"{m['label']}:"]
    for i, loc in enumerate(m["locations"], 1):
        if loc["spaces"]:
            cells = " ".join("[" + _seat_paint(o, names, colour) + "]" for o in loc["spaces"])
            out.append(f"  {i:>2}. {loc['label']}: {cells}")
    legend.setdefault("[-]", "an empty space")
    return out


def _compact_cost_track(m, names, legend, colour):
    legend.setdefault("[n]", "the price that applies now")
    return _full_cost_track(m, names)


_COMPACT = {
    "cost_track": _compact_cost_track,
    "spaces": _compact_spaces,
    "hexgrid": _compact_hexgrid,
    "ring": _compact_ring,
    "pyramid": _compact_pyramid,
    "staircase": _compact_staircase,
    "track": _compact_track,
    "wheel": _compact_wheel,
    "market": _compact_market,
}


# ------------------------------------------------------------------------------------ one line
def line(m: dict, names) -> str:
    """The board summed up on one line, with the command that shows it."""
    k = m["kind"]
    if k == "hexgrid":
        filled = sum(1 for c in m["cells"] if c["stack"])
        text = f"hex map, {plural(len(m['cells']), 'cell')}, {filled} with a piece"
    elif k == "ring":
        text = f"ring of {plural(len(m['places']), 'place')}, {sum(len(p['pieces']) for p in m['places'])} pieces"
    elif k == "pyramid":
        taken = [s for s in m["slots"] if s["state"] == "filled"]
        opened = [s["id"] for s in m["slots"] if s["state"] == "open"]
        text = f"{len(taken)}/{len(m['slots'])} filled, open: {' '.join(opened) or 'none'}"
    elif k == "wheel":
        text = f"rotation {m['rotation']}, " + ", ".join(f"{s['id']} {s['piece']}" for s in m["stations"] if s["piece"])
    elif k == "staircase":
        text = ", ".join(f"{who(s, names)} row {r} col {c}" for s, (r, c) in enumerate(m["positions"]))
    elif k == "track":
        text = "; ".join(f"{t['label']} " + " ".join(str(p) for p in t["positions"]) for t in m["tracks"])
    elif k == "market":
        text = ", ".join(
            f"{g['label']} {sum(sp['filled'] for sp in g['spaces'])}/{len(g['spaces'])} filled"
            if "spaces" in g
            else f"{g['label']} stock {g['stock']}"
            for g in m["goods"]
        )
    elif k == "spaces":
        taken = [o for loc in m["locations"] for o in loc["spaces"] if o is not None]
        text = f"{len(taken)} of {sum(len(loc['spaces']) for loc in m['locations'])} spaces taken"
    elif k == "slots":
        cells = [c for lv in m["levels"] for c in lv["cells"] if c is not None]
        text = f"{sum(1 for c in cells if c['owner'] is not None or c['neutral'])} of {len(cells)} slots filled"
    else:
        lines = full(m, names)
        text = lines[0].partition(": ")[2] if len(lines) == 1 else f"{len(lines) - 1} lines"
    return f"{m['label']}: {text} (view {m['name']})"
