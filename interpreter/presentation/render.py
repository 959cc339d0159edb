"""Plain-text rendering of a seat's view, of decisions, of log entries and of results (for terminals).

Everything here reads only the Program's declarations (zones, counters, variables, families and
their properties) and a seat's view: no game is known by name.
"""

from __future__ import annotations

import re

from mason.presentation.rules_text import value_words, words
from mason.runtime.values import in_words, plural, split_zone_key, zone_key


def seat_name(s, names=None) -> str:
    """P1, P2, ...; with ``names`` (a view's or ``Game.seat_names()``), an automated seat's name."""
    if s is None:
        return "nobody"
    return names[s] if names and 0 <= s < len(names) else f"P{s + 1}"


def _words(name: str) -> str:
    return name.replace("_", " ")


# ------------------------------------------------------------------------- components
def card_summary(program, type_id: str) -> str:
    """A component type's declared properties, short: ``trade, cost 2`` (empty when it has none).

    Ids are written in words (``blue_gem`` as ``blue gem``). A property whose value is one of
    the game's set members (a colour, a suit) is shown bare; a true flag by its name; a property
    that merely repeats the one it defaults to, or that its family declares ``shown: false`` (read
    by the rules, not by players), is left out; so is a fact the card's name already states
    (``Quarry (4 stone)`` is not described as ``stone`` again).
    """
    t = program.types.get(type_id)
    if t is None:
        return ""
    props = (program.families.get(t["family"]) or {}).get("properties") or {}
    out = []
    for pname, pdef in props.items():
        v = t.get(pname)
        if v is None or v is False or v == [] or v == "" or v == {}:
            continue
        if isinstance(pdef, dict) and pdef.get("shown") is False:
            continue
        said = value_words(pdef, v)
        if said is not None:
            out.append(f"{_words(pname)}: {said}")
            continue
        default = pdef.get("default") if isinstance(pdef, dict) else None
        if isinstance(default, str) and default in props and t.get(default) == v:
            continue
        if v is True:
            out.append(_words(pname))
        elif isinstance(v, str) and v in program.set_members:
            out.append(_words(v))
        elif isinstance(v, list):  # a position left empty (none) as "-": ``sides gem/-/-/blue gem``
            out.append(f"{_words(pname)} {'/'.join('-' if x is None else _words(str(x)) for x in v)}")
        elif isinstance(v, dict):  # a bundle of amounts: ``input 1 sand + 1 metal``
            out.append(f"{_words(pname)} " + " + ".join(f"{n} {_words(str(k))}" for k, n in v.items()))
        else:  # an id in words, as prompts write values
            out.append(f"{_words(pname)} {_words(str(v))}")
    name = str(t.get("name") or "").lower()
    return ", ".join(f for f in out if not re.search(rf"(?<!\w){re.escape(f.lower())}(?!\w)", name))


def card_text(program, type_id: str) -> str:
    """One component type described for a player: name, properties and its rules text."""
    t = program.types[type_id]
    summary = card_summary(program, type_id)
    head = t["name"] + (f" ({summary})" if summary else "")
    return head + (f": {t['text']}" if t.get("text") else "")


def card_data(program, type_id: str) -> str:
    """A component type's whole data, every declared property with its value (defaults and properties
    the table leaves out included): ``family: building; cost: 3; colour: red; ...``."""
    t = program.types[type_id]
    props = (program.families.get(t["family"]) or {}).get("properties") or {}
    parts = [f"family: {_words(t['family'])}"]
    for pname in props:
        v = t.get(pname)
        if isinstance(v, bool):
            said = "yes" if v else "no"
        elif isinstance(v, (list, dict)):
            said = words(v).replace("_", " ")
        else:
            said = "-" if v is None else in_words(v).replace("_", " ")
        parts.append(f"{_words(pname)}: {said}")
    return "; ".join(parts)


def find_type(program, name: str) -> list[str]:
    """Type ids whose name (or id) equals, else starts with, ``name`` (case-insensitive)."""
    key = name.strip().lower()
    exact = [tid for tid in program.type_order if program.types[tid]["name"].lower() == key or tid.lower() == key]
    if exact:
        return exact
    return [tid for tid in program.type_order if program.types[tid]["name"].lower().startswith(key)]


def _card(program, c: dict) -> str:
    summary = card_summary(program, c["type"])
    flags = [_words(k) for k, v in c.items() if k not in ("id", "type", "name") and v is True]
    inside = ", ".join(([summary] if summary else []) + flags)
    return c["name"] + (f" ({inside})" if inside else "")


def _cards(program, z: dict) -> str:
    names = [_card(program, c) for c in z["cards"]]
    if z["hidden"]:
        hidden = plural(z["hidden"], "card") + " (hidden)" if not names else f"{z['hidden']} hidden"
        names.append(hidden)
    return ", ".join(names) if names else "-"


# ------------------------------------------------------------------------- the table
def seat_vars(program) -> set:
    """Variables that hold a seat (or a list of seats): those declared with ``type: seat``."""
    return {name for name, v in program.vars.items() if v.get("type") == "seat"}


def _is_seat(v, players) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < players


def _value(v, is_seat: bool, seats: int, names, said: dict | None = None) -> str:
    """A variable's value for a player: a seat as P1..Pn (a list of seats too), else the value in words,
    each id in the words the variable declares for it (``said``: ``{vp3: 3 VP}``), else as itself in words."""
    if is_seat and _is_seat(v, seats):
        return seat_name(v, names)
    if is_seat and isinstance(v, list) and all(_is_seat(x, seats) for x in v):
        return ", ".join(seat_name(x, names) for x in v) or "-"
    if said:
        v = _said(v, said)
    if isinstance(v, (list, dict)):  # in words, never Python's spelling: ``(gem, gem), (blue gem)``
        return words(v).replace("_", " ")
    return in_words(v)


def _said(v, said: dict):
    """``v`` with every text that ``said`` names replaced by its words (in lists and mappings too)."""
    if isinstance(v, str):
        return said.get(v, v)
    if isinstance(v, list):
        return [_said(x, said) for x in v]
    if isinstance(v, dict):
        return {k: _said(x, said) for k, x in v.items()}
    return v


def _shown(v) -> bool:
    """Whether a variable's value is worth a line: not unset, not false (0 is a value)."""
    return v is not None and v is not False and v != [] and v != {}


def render_view(program, view: dict, compact: bool = False) -> str:
    """The table as ``view['seat']`` sees it: shared counters, variables and zones, then one block per seat.

    ``compact`` is the same public table, shorter: shared counters and variables, the boards, the
    shared zones' cards by name only, one line of counters and zone sizes per other seat, and the
    viewing seat's own block in full.
    """
    seat, seats, names = view["seat"], view.get("seats", view["players"]), view.get("names")
    turn = view["turn"]
    head = f"Round {view['round']} - {_words(view['phase'])}"
    if turn:
        head += f" - {seat_name(turn['seat'], names)}'s turn" + (f" ({turn['card']})" if turn["card"] else "")
    lines = [head]
    holders: dict[int, list[str]] = {}
    shared = []
    held = seat_vars(program)
    for name, c in program.counters.items():
        if c["scope"] == "game":
            shared.append(f"{c['label'] or _words(name)}: {view['counters'][name]}")
    for name, v in program.vars.items():
        if v["scope"] != "game" or name not in view["vars"]:
            continue
        val = view["vars"][name]
        if not _shown(val):
            continue
        if name in held and _is_seat(val, seats):
            holders.setdefault(val, []).append(_words(name))
        if val is True:
            shared.append(_words(name))
        else:
            shared.append(f"{_words(name)}: {_value(val, name in held, seats, names, v.get('words'))}")
    if shared:
        lines.append("  " + " | ".join(shared))
    # boards are shown even in the compact form: a decision is often about a place on them
    lines.extend(_boards(program, view))
    piles = []  # the compact form counts the shared zones whose cards are all hidden on one line
    for key, z in view["zones"].items():
        if split_zone_key(key)[1] is not None or (not z["cards"] and not z["hidden"]):
            continue
        label = program.zones[key]["label"] or _words(key)
        if compact and not z["cards"]:
            piles.append(f"{label} {z['hidden']}")
        elif compact:
            lines.append(f"  {label}: " + _names(z))
        else:
            lines.append(f"  {label}: " + (_cards(program, z) if z["cards"] else plural(z["hidden"], "card")))
    if piles:
        lines.append("  face down: " + ", ".join(piles))
    for s in range(seats):
        if compact and s != seat:
            lines.append(_seat_line(program, view, s, holders.get(s, [])))
        else:
            lines.extend(_seat_block(program, view, s, holders.get(s, [])))
    return "\n".join(lines)


def _names(z: dict) -> str:
    """A zone's cards by name only (``Market x2``), then how many are hidden: the compact table's form."""
    counts: dict[str, int] = {}
    for c in z["cards"]:
        counts[c["name"]] = counts.get(c["name"], 0) + 1
    out = [name + (f" x{n}" if n > 1 else "") for name, n in counts.items()]
    if z["hidden"]:
        out.append(f"{z['hidden']} hidden")
    return ", ".join(out)


def _seat_line(program, view, s, holds) -> str:
    """Another seat on one line: its block's head (counters, variables) and the size of each of its zones."""
    head = _seat_block(program, view, s, holds)[0]
    sizes = []
    for name, zdef in program.zones.items():
        if zdef["scope"] != "seat":
            continue
        z = view["zones"][zone_key(name, s)]
        n = len(z["cards"]) + z["hidden"]
        if n:
            sizes.append(f"{zdef['label'] or _words(name)} {n}")
    return head + ("; " if ":" in head else ": ") + ", ".join(sizes) if sizes else head


def _boards(program, view) -> list[str]:
    """Every board in full, drawn from its board model (mason.presentation.table, mason.presentation.board_text)."""
    from mason.presentation.board_text import full
    from mason.runtime.boards import model_of

    out: list[str] = []
    for name in view.get("boards") or {}:
        out.extend("  " + line for line in full(model_of(program, name, view), view.get("names")))
    return out


def _seat_block(program, view, s, holds) -> list[str]:
    tags = (["you"] if s == view["seat"] else []) + (["automated"] if s in view.get("automated", ()) else []) + holds
    parts = []
    for name, c in program.counters.items():
        if c["scope"] != "seat":
            continue
        value = view["counters"][name][s]
        # a plain score-like counter still at its start value is noise; resources always show
        if value == c["start"] and not c["supply"] and c["cap"] is None:
            continue
        parts.append(f"{c['label'] or _words(name)} {value}" + (f"/{c['cap']}" if c["cap"] is not None else ""))
    for name, v in program.vars.items():
        if v["scope"] != "seat" or name not in view["vars"]:
            continue
        vals = view["vars"][name]
        val = vals.get(s) if isinstance(vals, dict) else vals[s]
        if _shown(val) and val != v["start"]:
            seats_now, names_now = view.get("seats", view["players"]), view.get("names")
            shown = _value(val, v.get("type") == "seat", seats_now, names_now, v.get("words"))
            parts.append(_words(name) if val is True else f"{_words(name)} {shown}")
    head = seat_name(s, view.get("names")) + (f" ({', '.join(tags)})" if tags else "")
    out = [head + (": " + ", ".join(parts) if parts else "")]
    for name, zdef in program.zones.items():
        if zdef["scope"] != "seat":
            continue
        z = view["zones"][zone_key(name, s)]
        if not z["cards"] and not z["hidden"]:
            continue
        out.append(f"    {zdef['label'] or _words(name)}: {_cards(program, z)}")
    return out


# ------------------------------------------------------------------------- decisions
def render_decision(pending: dict, program=None, state=None, view=None, unavailable=(), card_types=None) -> str:
    """The prompt and the options: numbered from 1 in a list, lettered in an action window.

    An action window's options carry the keys of ``pending['keys']`` (``turns.action_keys``): each
    action keeps its letter whatever else is offered, so a key never means another action.

    With the program and state (or ``card_types``, ``Game.card_types()``), card options show their
    properties; with the deciding seat's view
    too, where each option lies when the seat can see it and the options lie in several places.
    ``unavailable`` (``(label, reason)`` pairs, or ``(key, label, reason)``: see
    turns.unavailable_actions) are listed after the options with their letter (else a dash) and the
    reason: shown, never selectable.
    """
    prompt = pending["prompt"].rstrip()
    if pending["subset"]:
        prompt += (
            f" (up to {pending['subset']}: numbers or names, separated by spaces or commas; an empty line for none)"
        )
    labels = pending["labels"]
    if labels and not pending["subset"] and all(l.lstrip("-").isdigit() for l in labels):
        # numeric options (a bid, a quantity): the player types the value itself
        return (
            prompt.rstrip(":")
            + f": type a value from {labels[0]} to {labels[-1]}"
            + (f" (offered: {', '.join(labels)})" if len(labels) <= 12 else "")
        )
    lines = [prompt if prompt[-1:] in "?:!." else prompt + ":"]
    keys = pending.get("keys") or [str(i + 1) for i in range(len(labels))]  # actions: letters, lists: numbers
    for key, text in zip(keys, option_texts(pending, program, state, view, card_types)):
        if pending.get("keys") and text.startswith(f"{key} (") and text.endswith(")"):
            text = text[len(key) + 2 : -1]  # a number typed as itself: ``3. no link`` for the value 3
        lines.append(f"  {key}. {text}")
    for item in unavailable:
        key, label, reason = item if len(item) == 3 else ("-", *item)
        lines.append(
            f"  {key}  {label} (unavailable: {reason})" if key == "-" else f"  {key}) {label} (unavailable: {reason})"
        )
    return "\n".join(lines)


def zone_label(program, key: str, seat=None, names=None) -> str:
    """``hand/1`` -> "P2's hand" (or "your hand" for ``seat`` 1); ``deck`` -> its label."""
    name, owner = split_zone_key(key)
    label = program.zones[name]["label"] or _words(name)
    if owner is None:
        return label
    return f"your {label}" if owner == seat else f"{seat_name(owner, names)}'s {label}"


def option_texts(pending, program, state, view, card_types=None) -> list[str]:
    """Each option as ``render_decision`` displays it (a person may type it back exactly); a card's type
    is read from ``card_types`` (``Game.card_types()``) when given, else from ``state``."""
    labels = pending["labels"]
    if card_types is None and state is not None:
        card_types = [c["t"] for c in state["cards"]]
    if program is None or card_types is None or pending["kind"] in ("seat", "value", "type"):
        return list(labels)
    where = {}
    if view is not None:
        for key, z in view["zones"].items():
            for c in z["cards"]:
                where[c["id"]] = zone_label(program, key, view["seat"], view.get("names"))
    cards = [
        c if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(card_types) else None
        for c in pending["options"]
    ]
    places = [where.get(c) for c in cards]
    show_place = len({p for c, p in zip(cards, places) if c is not None}) > 1
    out = []
    for label, c, place in zip(labels, cards, places):
        if c is None:
            out.append(label)
            continue
        name = program.types[card_types[c]]["name"]
        summary = card_summary(program, card_types[c])
        text = name + (f" ({summary})" if summary else "")
        if label == name:
            out.append(text + (f" in {place}" if show_place and place else ""))
        elif label.startswith(name):  # the engine already added to the label (a place, a preview): keep it
            rest = label[len(name) :]
            if summary and rest.startswith(" ("):  # one pair of brackets: ``Mill (red, cost 4; pay 3 gold)``
                out.append(f"{text[:-1]}; {rest[2:]}")
            else:
                out.append(text + rest)
        else:
            out.append(label)
    return out


# ------------------------------------------------------------------------- the log
def render_entry(e: dict, scores: bool = True) -> str | None:
    """A log entry as a line of narration (None for entries that are not narration).

    ``scores=False`` leaves out the final score lines (for callers that print ``render_result``).
    """
    kind = e.get("type")
    if kind in ("decision", "automated", "end"):
        return None
    if kind == "start":
        s = e["settings"]
        extra = "".join(f", {k} {', '.join(s[k])}" for k in ("with", "variants") if s.get(k))
        return f"{s['game']} with {plural(s['players'], 'player')}, seed {s['seed']}{extra}"
    if not scores and e.get("score"):
        return None
    return e.get("text")


def entries_for(log: list[dict], seat, start: int = 0) -> list[dict]:
    """Entries from ``start`` that ``seat`` may read, without the public twin of a private line.

    A move of hidden cards is logged twice: named, for the seats that see the cards (``to``), and
    counted, for everyone else (``hide_from``). A seat reads exactly one of the two.
    """
    out = []
    for e in log[start:]:
        to = e.get("to")
        if to is not None and (seat is None or seat not in to):
            continue
        if seat is not None and seat in (e.get("hide_from") or ()):
            continue
        out.append(e)
    return out


def narration(log: list[dict], seat, start: int = 0, scores: bool = True) -> list[str]:
    """The log entries from ``start`` that ``seat`` may read, each as its line of narration."""
    return [t for t in (render_entry(e, scores) for e in entries_for(log, seat, start)) if t]


# ------------------------------------------------------------------------- results
def render_result(program, result: dict, names=None) -> str:
    """Final scores, each broken into the game's named parts, then the winner(s) (``names``: the seats')."""
    labels = {p.id: p.label for p in getattr(program, "score_parts", ())}
    lines = ["Final scores:"]
    width = max(len(str(t)) for t in result["scores"]) if result["scores"] else 1
    shown = [seat_name(s, names) + ":" for s in range(len(result["scores"]))]
    pad = max(map(len, shown), default=0)
    for s, total in enumerate(result["scores"]):
        parts = ", ".join(f"{labels.get(k, _words(k))} {v}" for k, v in result["parts"][s].items())
        mark = "  <- winner" if s in result["winners"] else ""
        lines.append(f"  {shown[s]:<{pad}} {total:>{width}}" + (f"  ({parts})" if parts else "") + mark)
    w = result["winners"]
    best = result["scores"][w[0]] if w else 0
    lines.append(
        ("Winners: " if len(w) > 1 else "Winner: ")
        + ", ".join(seat_name(s, names) for s in w)
        + f" with {best} after {plural(result['rounds'], 'round')}"
    )
    return "\n".join(lines)
