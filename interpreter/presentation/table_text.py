"""The table that fits a terminal: a seat's table model drawn in at most ``height`` lines of ``width``
columns, with a legend of every code it uses; ``view AREA`` shows any one area in full.

Boards are drawn compactly (mason.presentation.board_text), narrow ones side by side; when the table is still
too tall, boards are summed up on one line (those whose ``display: {table: line}`` asks for it
first, then the tallest), except the boards the pending decision is about (``focus``), which stay
drawn. Zones show their cards by name only, one line each, and other seats one line each.
"""

from __future__ import annotations

import re

from mason.presentation.board_text import Legend, compact, full, line, paint, visible, wrap
from mason.presentation.table import table_model

GAP = "  "
BIG = 10  # a drawing taller than this is a main board: summed up only after the zones gave way


def _fit(text: str, width: int, more: str = "") -> str:
    """``text`` cut to ``width`` visible columns, ending with ``more`` when cut."""
    if len(visible(text)) <= width:
        return text
    plain = visible(text)
    keep = width - len(more) - 3
    return plain[:keep].rstrip(" ,;") + "..." + more


def _zone_line(zone: dict, indent: str, width: int, longer: dict) -> str:
    """A zone on one line: its cards with their descriptions when that fits, else by name only, cut
    (its longer forms, wrapped, go to ``longer``, for a table with lines to spare)."""
    head = f"{indent}{zone['label']}: "
    described = _names(zone, True)
    if len(head) + len(described) <= width:
        return head + described
    line = _fit(head + _names(zone), width, f" (view {zone['zone']})")
    room = width - len(indent) - 4
    forms = [wrap(_cards(zone, True), width, head, sep=_sep(zone), indent=indent + "  ")]
    if any(len(c) > room for c in _cards(zone, True)):  # a description longer than a line: by name only
        forms = []
    if line != head + _names(zone):  # cut: by name, wrapped, is longer too
        forms.append(wrap(_cards(zone, False), width, head, sep=_sep(zone), indent=indent + "  "))
    longer[line] = forms
    return line


def _names(zone: dict, described: bool = False) -> str:
    return _sep(zone).join(_cards(zone, described))


def _sep(zone: dict) -> str:
    """Between the parts of a zone's line: groups (``display: {group_by: KEY}``) by ``; ``, cards by ``, ``."""
    return "; " if zone["display"].get("group_by") else ", "


def _cards(zone: dict, described: bool = False) -> list[str]:
    """A zone's cards as the table names them: each with the card state its ``display: {show: [KEY]}``
    asks for (``Helper: trade (slot: green)``), alike cards counted (``x2``); with ``display:
    {group_by: KEY}``, one part per value of that card-state key, in the order the zone first holds
    it (``north: Tile 1, Tile 3``)."""
    show = zone["display"].get("show") or []
    group = zone["display"].get("group_by")
    groups: dict = {}
    for c in zone["cards"]:
        state = c.get("state") or {}
        tags = [f"{_words(k)}: {_words(state[k])}" for k in show if state.get(k) is not None]
        extra = ([c["summary"]] if described and c["summary"] else []) + tags
        name = c["name"] + (f" ({'; '.join(extra)})" if extra else "")
        counts = groups.setdefault(state.get(group) if group else None, {})
        counts[name] = counts.get(name, 0) + 1
    out = []
    for value, counts in groups.items():
        names = [n + (f" x{k}" if k > 1 else "") for n, k in counts.items()]
        out.append(f"{_words(value)}: {', '.join(names)}" if value is not None else ", ".join(names))
    if zone["hidden"]:
        out.append(f"{zone['hidden']} hidden")
    return out


def _words(v) -> str:
    return str(v).replace("_", " ")


def _describe_pieces(program, b: dict, legend: Legend) -> None:
    """A legend entry naming a card piece on a board gets the card's description (its properties)."""
    from mason.presentation.render import card_summary

    types = {}
    for c in b.get("cells") or ():
        for it in c["stack"]:
            if it.get("type"):
                types[it["piece"]] = it["type"]
    for st in b.get("stations") or ():
        if st.get("piece_type"):
            types[st["piece"]] = st["piece_type"]
    for code, meaning in list(legend.items()):
        t = types.get(meaning)
        summary = card_summary(program, t) if t else ""
        if summary and summary not in meaning:
            legend.long[code] = f"{meaning} ({summary})"


def _count(zone: dict) -> str:
    n = len(zone["cards"]) + zone["hidden"]
    return f"{n} hidden" if not zone["cards"] else str(n)


def _side_by_side(blocks: list[list[str]], width: int) -> list[list[str]]:
    """Blocks packed on shelves: a shelf is as tall as its first block; a later block goes below another
    in a column of a shelf while the column stays within that height, else beside it while the shelf
    stays within ``width``, else on a new shelf. Each shelf is returned as its lines."""
    shelves: list[dict] = []
    for b in blocks:
        w, h = max((len(visible(x)) for x in b), default=0), len(b)
        placed = False
        for sh in shelves:
            total = sum(c["w"] for c in sh["cols"]) + len(GAP) * (len(sh["cols"]) - 1)
            for c in sh["cols"]:
                if c["h"] + h <= sh["h"] and total - c["w"] + max(c["w"], w) <= width:
                    c["blocks"].append(b)
                    c["h"] += h
                    c["w"] = max(c["w"], w)
                    placed = True
                    break
            if not placed and h <= sh["h"] and total + len(GAP) + w <= width:
                sh["cols"].append({"w": w, "h": h, "blocks": [b]})
                placed = True
            if placed:
                break
        if not placed:
            shelves.append({"h": h, "cols": [{"w": w, "h": h, "blocks": [b]}]})
    out = []
    for sh in shelves:
        cols = [[x for blk in c["blocks"] for x in blk] for c in sh["cols"]]
        lines = []
        for i in range(max(len(c) for c in cols)):
            parts = []
            for c, col in zip(sh["cols"], cols):
                text = col[i] if i < len(col) else ""
                parts.append(text + " " * (c["w"] - len(visible(text))))
            lines.append(GAP.join(parts).rstrip())
        out.append(lines)
    return out


def focus_boards(model: dict, pending: dict | None) -> set:
    """The boards a pending decision is about: named in its prompt, or holding its options' places."""
    if not pending:
        return set()
    prompt = pending.get("prompt", "").lower()
    labels = [str(x).lower() for x in pending.get("labels") or []]
    named = {b["name"] for b in model["boards"] if b["label"].lower() in prompt}
    if named:
        return named
    found = set()
    for b in model["boards"]:
        ids = _place_ids(b)
        if (
            ids
            and labels
            and sum(1 for l in labels if any(re.search(rf"(?<![\w,-]){re.escape(i)}(?![\w,])", l) for i in ids)) * 2
            >= len(labels)
        ):
            found.add(b["name"])
    seat = pending.get("seat")
    own = {b["name"] for b in model["boards"] if b["name"] in found and b["display"].get("seat") == (seat or 0) + 1}
    return own or found


def _place_ids(b: dict) -> set:
    k = b["kind"]
    if k == "hexgrid":
        return {c["id"] for c in b["cells"]}
    if k == "ring":
        return {p["label"].lower() for p in b["places"]}
    if k == "pyramid":
        return {s["id"] for s in b["slots"]}
    if k == "wheel":
        return {s["id"] for s in b["stations"]}
    if k == "spaces":
        return {loc["label"].lower() for loc in b["locations"]}
    return set()


def render_table(program, view: dict, pending=None, colour: bool = False, width: int = 100, height: int = 50) -> str:
    """The table for ``view``'s seat in at most ``height`` lines of ``width`` columns (see the module)."""
    model = table_model(program, view)
    names = model["names"]
    focus = focus_boards(model, pending if pending is not None else view.get("decision"))
    head = f"Round {model['round']} - {model['phase'].replace('_', ' ')}"
    if model["turn"]:
        t = model["turn"]
        head += f" - {names[t['seat']]}'s turn" + (f" ({t['card']})" if t["card"] else "")
    top = [head]
    shared = [
        f"{s['label']}: {s['value']}"
        if "text" not in s
        else (s["label"] if s["text"] is None else f"{s['label']}: {s['text']}")
        for s in model["shared"]
    ]
    top += wrap(shared, width, "  ", sep=" |")
    boards = []  # (model, compact lines, one line, its legend)
    codes: dict = {}  # code -> meaning, across the table (Legend.shared)
    players = view.get("players", len(names))
    for b in model["boards"]:
        if (b["display"].get("table")) == "off" and b["name"] not in focus:
            continue
        if (b["display"].get("seat") or 0) > players:  # the board of a player not in this game
            continue
        legend = Legend(codes)
        boards.append([b, compact(b, names, legend, colour), line(b, names), legend])
        _describe_pieces(program, b, legend)
    # the zones holding the options of the seat's card decision come first, and are kept
    offered = set()
    if pending is not None and pending.get("seat") == view["seat"]:
        offered = {o for o in pending.get("options") or () if isinstance(o, int) and not isinstance(o, bool)}
    zone_lines: list[str] = []
    asked: list[str] = []
    piles: list[str] = []
    longer: dict = {}
    for z in model["zones"]:
        if (z["display"].get("table")) == "off" or (not z["cards"] and not z["hidden"]):
            continue
        if not z["cards"]:
            piles.append(f"{z['label']} {z['hidden']}")
        elif offered & {c["id"] for c in z["cards"]}:
            asked.append(_zone_line(z, "  ", width, longer))
        else:
            zone_lines.append(_zone_line(z, "  ", width, longer))
    zone_lines = asked + _pairs(zone_lines, width)
    if piles:
        zone_lines.append(_fit("  face down: " + ", ".join(piles), width, " (view face down)"))
    seats_full: list[str] = []  # others' face-up cards named, or only counted (when too tall)
    seats_brief: list[str] = []
    own_lines: list[str] = []  # the viewing seat's lines (the same in both)
    for s in model["seats"]:
        tags = (["you"] if s["you"] else []) + (["automated"] if s["automated"] else []) + s["holds"]
        parts = [_counter_text(c) for c in s["counters"] if not c["quiet"]]
        parts += [f"{v['label']} {'' if v['used'] is None else str(v['used']) + '/'}{v['value']}" for v in s["values"]]
        parts += [v["label"] if v["text"] is None else f"{v['label']} {v['text']}" for v in s["vars"]]
        name = paint(s["name"], _seat_colour(s["seat"])) if colour else s["name"]
        who = name + (f" ({', '.join(tags)})" if tags else "")
        shown = [z for z in s["zones"] if z["cards"]]
        if s["you"]:
            yours = wrap(parts, width, who + ": ") if parts else [who]
            yours += [_zone_line(z, "    ", width, longer) for z in s["zones"] if z["cards"] or z["hidden"]]
            seats_full += yours
            seats_brief += yours
            own_lines = yours
            continue
        counted = [f"{z['label']} {_count(z)}" for z in s["zones"] if z["cards"] or z["hidden"]]
        seats_brief += wrap(parts + counted, width, who + ": ") if parts or counted else [who]
        hidden = [f"{z['label']} {z['hidden']} hidden" for z in s["zones"] if z["hidden"] and not z["cards"]]
        seats_full += wrap(parts + hidden, width, who + ": ") if parts or hidden else [who]
        seats_full += [_zone_line(z, "    ", width, longer) for z in shown]
    seat_lines = list(seats_full)

    brief = [False]  # the key names the cards on boards without their descriptions

    def assemble(folded: set) -> list[str]:
        drawn, lines1, used = [], [], Legend()
        for b, lines, one, legend in boards:
            if b["name"] in folded:
                lines1.append(_fit("  " + one, width))
            else:
                drawn.append(lines)
                for k, v in legend.items():  # a fixed symbol may mean two things on two boards
                    v = v if brief[0] else legend.long.get(k, v)
                    if k in used and v not in used[k].split(" or "):
                        used[k] += " or " + v
                    used.setdefault(k, v)
        out = list(top)
        for block in _side_by_side(sorted(drawn, key=len, reverse=True), width):
            out += [_fit(x, width) for x in block]
        out += lines1
        if used:
            out += used.lines(width, "key: ")
        return out + zone_lines + seat_lines

    folded = {b[0]["name"] for b in boards if b[0]["display"].get("table") == "line" and b[0]["name"] not in focus}
    out = assemble(folded)
    # while too tall, give up detail in this order: the key's descriptions of the cards on boards; the
    # other players' boards (``display: {seat: N}``) summed up; then the small drawings, smallest first
    # (the player's own board counts as a main one); others' face-up cards counted, not named;
    # the shared zones' lines merged into one; last the large drawings (a main map), smallest first.
    # A board the decision is about is never summed up; a step that makes the table longer is undone.
    others = {
        b[0]["name"] for b in boards if b[0]["display"].get("seat") not in (None, (view["seat"] or 0) + 1)
    } - focus
    ranked = [{b[0]["name"]} for b in sorted(boards, key=lambda b: len(b[1])) if b[0]["name"] not in focus]
    mine = {b[0]["name"] for b in boards if b[0]["display"].get("seat") == (view["seat"] or 0) + 1}
    small = [n for n in ranked if len(next(b[1] for b in boards if b[0]["name"] in n)) <= BIG and not n & mine]
    steps: list[str | set] = ["key"] + ([others] if others else []) + small + ["seats", "zones"]
    steps += [n for n in ranked if n not in small]
    for step in steps:
        if len(out) <= height:
            break
        if step == "key":
            brief[0] = True
            out = assemble(folded)
        elif step == "seats":
            if seats_brief != seats_full:
                seat_lines[:] = seats_brief
                out = assemble(folded)
        elif step == "zones":
            keep = max(len(asked), height - (len(out) - len(zone_lines)) - 1)
            if keep < len(zone_lines):
                names_left = [z.split(":")[0].strip() for z in zone_lines[keep:]]
                rest = _fit("  also (view AREA): " + ", ".join(names_left), width)
                zone_lines[:] = zone_lines[:keep] + [rest]
                out = assemble(folded)
        elif (
            isinstance(step, set) and not step <= folded
        ):  # kept unless longer: boards side by side give way one by one
            tried = assemble(folded | step)
            if len(tried) <= len(out) or step is others:
                folded |= step
                out = tried
    # lines to spare: a zone cut short is written out in full (described, else by name) where it fits
    # (the zones of the decision's options first, the seat's own zones, the shared ones, then the
    # other seats' zones, top down)
    own = seat_lines.index(own_lines[0]) if own_lines and own_lines[0] in seat_lines else 0
    for lines, i, limit in (
        (zone_lines, 0, len(asked)),
        (seat_lines, own, own + len(own_lines)),
        (zone_lines, 0, None),
        (seat_lines, 0, None),
    ):
        while i < len(lines) and (limit is None or i < limit):
            forms = [f for f in longer.get(lines[i], ()) if all(len(visible(x)) <= width for x in f)]
            form = next((f for f in forms if len(out) + len(f) - 1 <= height), [lines[i]])
            lines[i : i + 1] = form
            out = assemble(folded)
            i += len(form)
            if limit is not None:
                limit += len(form) - 1
    return "\n".join(out)


def _counter_text(c: dict) -> str:
    """A seat's counter as the table writes it: ``gold 4/9`` where the counter has a cap, else ``gold 4``."""
    return f"{c['label']} {c['value']}" + (f"/{c['cap']}" if c.get("cap") is not None else "")


def _pairs(lines: list[str], width: int) -> list[str]:
    """Short lines two to a row (each half as wide as the table), the long ones first."""
    half = (width - 2) // 2
    lines = [x for x in lines if len(visible(x)) > half] + [x for x in lines if len(visible(x)) <= half]
    out, i = [], 0
    while i < len(lines):
        a = lines[i]
        b = lines[i + 1] if i + 1 < len(lines) else None
        if b is not None and len(visible(a)) <= half and len(visible(b.strip())) <= half - 2:
            out.append(a + " " * (half - len(visible(a))) + "  " + b.strip())
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def _seat_colour(s):
    from mason.presentation.board_text import SEAT_COLOURS

    return SEAT_COLOURS[s % len(SEAT_COLOURS)]


def render_area(program, view: dict, area: str) -> str | None:
    """``view AREA``: a board in full, or a zone with every card's description; None when no area of
    the table is called ``area`` (by name or label, or the start of one)."""
    from mason.presentation.render import _card

    model = table_model(program, view)
    key = area.strip().lower().replace("_", " ")
    boards = [b for b in model["boards"] if key in (b["name"].replace("_", " "), b["label"].lower())]
    boards = boards or [b for b in model["boards"] if b["label"].lower().startswith(key) or b["name"].startswith(key)]
    if boards:
        return "\n".join(x for b in boards for x in full(b, model["names"]))
    zones = list(model["zones"]) + [z for s in model["seats"] for z in s["zones"]]
    hits = [z for z in zones if key in (z["zone"].replace("_", " "), z["label"].lower())]
    hits = hits or [z for z in zones if z["label"].lower().startswith(key)]
    if not hits:
        return None
    out = []
    for z in hits:
        if z["owner"] is not None and z["owner"] != view["seat"] and not z["cards"]:
            out.append(f"{model['names'][z['owner']]}'s {z['label']}: {z['hidden']} hidden")
            continue
        owner = (
            ""
            if z["owner"] is None
            else ("your " if z["owner"] == view["seat"] else f"{model['names'][z['owner']]}'s ")
        )
        out.append(
            f"{owner}{z['label']}:" + ("" if z["cards"] else f" {z['hidden']} hidden" if z["hidden"] else " empty")
        )
        show, group = z["display"].get("show") or [], z["display"].get("group_by")
        groups: dict = {}  # with ``group_by``: the cards under a heading per value (docs/boards.md)
        for c in z["cards"]:
            state = c.get("state") or {}
            tags = [f"{_words(k)}: {_words(state[k])}" for k in show if state.get(k) is not None]
            text = _card(program, {"id": c["id"], "type": c["type"], "name": c["name"]})
            groups.setdefault(state.get(group) if group else None, []).append(
                text + (f" ({'; '.join(tags)})" if tags else "")
            )
        for value, texts in groups.items():
            if value is not None:
                out.append(f"  {_words(value)}:")
            out += [("    " if value is not None else "  ") + t for t in texts]
        if z["cards"] and z["hidden"]:
            out.append(f"  and {z['hidden']} hidden")
    return "\n".join(out)
