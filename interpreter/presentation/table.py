"""The table model: everything a seat sees, as plain JSON data, built from that seat's view alone.

``table_model(program, view)`` is the single source the terminal (``mason.presentation.render``,
``mason.presentation.board_text``) and a web client draw from: the heading, the shared counters and
variables, one board model per board (``board_model``: the kind's own model, docs/boards.md), the
shared zones and, per seat, its counters, variables and zones ("hands and counters"). Nothing here
reads the game state: only the view and the Program's declarations. No game is named.
"""

from __future__ import annotations

import weakref

from mason.runtime.boards import display_of, model_of
from mason.runtime.values import split_zone_key, zone_key


def _words(name) -> str:
    return str(name).replace("_", " ")


_SUMMARIES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # program -> {type: its summary}


def _summary(program, type_id: str) -> str:
    """``render.card_summary``, computed once per program and component type (it reads declarations only)."""
    known = _SUMMARIES.get(program)
    if known is None:
        known = _SUMMARIES[program] = {}
    found = known.get(type_id)
    if found is None:
        from mason.presentation.render import card_summary

        found = known[type_id] = card_summary(program, type_id)
    return found


def card_model(program, c: dict) -> dict:
    """A card a seat sees: id, type, name, its short description, its state flags (the card-state keys
    that are true) and its other card state as it stands (``state``: key -> value, set ones only)."""
    return {
        "id": c["id"],
        "type": c["type"],
        "name": c["name"],
        "summary": _summary(program, c["type"]),
        "flags": [_words(k) for k, v in c.items() if k not in ("id", "type", "name") and v is True],
        "state": {k: v for k, v in c.items() if k not in ("id", "type", "name") and v is not True},
    }


def zone_model(program, key: str, z: dict) -> dict:
    """One zone of a view as the table shows it: its owner, label, display hints and cards."""
    name, owner = split_zone_key(key)
    zdef = program.zones[name]
    return {
        "id": key,
        "zone": name,
        "owner": owner,
        "label": display_of(zdef).get("label") or zdef["label"] or _words(name),
        "display": display_of(zdef),
        "cards": [card_model(program, c) for c in z["cards"]],
        "hidden": z["hidden"],
    }


def table_model(program, view: dict) -> dict:
    """The whole table for ``view['seat']`` (see the module's docstring); JSON-serialisable."""
    from mason.presentation.render import _shown, _value, seat_vars

    seat, seats, names = view["seat"], view.get("seats", view["players"]), view.get("names")
    held = seat_vars(program)
    shared: list = []
    holders: dict = {}
    for name, c in program.counters.items():
        if c["scope"] == "game":
            shared.append({"id": name, "label": c["label"] or _words(name), "value": view["counters"][name]})
    for name, v in program.vars.items():
        if v["scope"] != "game" or name not in view["vars"]:
            continue
        val = view["vars"][name]
        if not _shown(val):
            continue
        if name in held and isinstance(val, int) and not isinstance(val, bool) and 0 <= val < seats:
            holders.setdefault(val, []).append(_words(name))
        text = None if val is True else _value(val, name in held, seats, names, v.get("words"))
        shared.append({"id": name, "label": _words(name), "value": val, "text": text})
    zones = []
    for key, z in view["zones"].items():
        if split_zone_key(key)[1] is None:
            zones.append(zone_model(program, key, z))
    seat_models = []
    for s in range(seats):
        counters, variables, own = [], [], []
        for name, c in program.counters.items():
            if c["scope"] != "seat":
                continue
            value = view["counters"][name][s]
            plain = value == c["start"] and not c["supply"] and c["cap"] is None
            counters.append(
                {"id": name, "label": c["label"] or _words(name), "value": value, "cap": c["cap"], "quiet": plain}
            )
        for name, v in program.vars.items():
            if v["scope"] != "seat" or name not in view["vars"]:
                continue
            vals = view["vars"][name]
            val = vals.get(s) if isinstance(vals, dict) else vals[s]
            if _shown(val) and val != v["start"]:
                text = None if val is True else _value(val, v.get("type") == "seat", seats, names, v.get("words"))
                variables.append({"id": name, "label": _words(name), "value": val, "text": text})
        shown = []  # the values the game shows of each seat (``display:`` under a value; docs/boards.md)
        values = view.get("values") or {}
        for name, d in getattr(program, "value_display", {}).items():
            val = (values.get(name) or [None] * seats)[s] if s < len(values.get(name) or ()) else None
            used = values[d["used"]][s] if d["used"] is not None and d["used"] in values else None
            if val is not None:
                shown.append({"id": name, "label": d["label"], "value": val, "used": used})
        for name, zdef in program.zones.items():
            if zdef["scope"] == "seat":
                own.append(zone_model(program, zone_key(name, s), view["zones"][zone_key(name, s)]))
        seat_models.append(
            {
                "seat": s,
                "name": names[s] if names and s < len(names) else f"P{s + 1}",
                "you": s == seat,
                "automated": s in view.get("automated", ()),
                "holds": holders.get(s, []),
                "counters": counters,
                "vars": variables,
                "values": shown,
                "zones": own,
            }
        )
    turn = view["turn"]
    return {
        "seat": seat,
        "names": list(names) if names else [f"P{s + 1}" for s in range(seats)],
        "round": view["round"],
        "phase": view["phase"],
        "turn": dict(turn) if turn else None,
        "shared": shared,
        "boards": [model_of(program, name, view) for name in (view.get("boards") or {})],
        "zones": zones,
        "seats": seat_models,
    }
