"""Plain-text rendering of a seat's view, of decisions and of log entries (for terminals)."""
from __future__ import annotations


def seat_name(s) -> str:
    return "nobody" if s is None else f"P{s + 1}"


def _cards(z) -> str:
    names = [c["name"] + _marks(c) for c in z["cards"]]
    if z["hidden"]:
        names.append(f"{z['hidden']} hidden")
    return ", ".join(names) if names else "-"


def _marks(c) -> str:
    marks = [k for k, v in c.items() if k not in ("id", "type", "name") and v not in (None, False)]
    return f" [{', '.join(marks)}]" if marks else ""


def render_view(program, view: dict) -> str:
    """The table as ``view['seat']`` sees it: shared zones and counters, then one block per seat."""
    seat = view["seat"]
    lines = []
    turn = view["turn"]
    head = f"Round {view['round']} - {view['phase']}"
    if turn:
        head += f" - {seat_name(turn['seat'])}'s turn" + (f" ({turn['card']})" if turn["card"] else "")
    lines.append(head)
    shared = []
    for name, c in program.counters.items():
        if c["scope"] == "game":
            shared.append(f"{c['label'] or name}: {view['counters'][name]}")
    for name, v in program.vars.items():
        if v["scope"] == "game" and name in view["vars"]:
            val = view["vars"][name]
            if val not in (None, False):
                shown = seat_name(val) if isinstance(val, int) and not isinstance(val, bool) and name in _seat_vars(program) else val
                shared.append(f"{name.replace('_', ' ')}: {shown}")
    if shared:
        lines.append("  " + " | ".join(shared))
    for key, z in view["zones"].items():
        if "/" in key or (not z["cards"] and not z["hidden"]):
            continue
        label = program.zones[key]["label"] or key.replace("_", " ")
        lines.append(f"  {label}: " + (_cards(z) if z["cards"] else f"{z['hidden']} cards"))
    for s in range(view["players"]):
        you = " (you)" if s == seat else ""
        parts = []
        for name, c in program.counters.items():
            if c["scope"] == "seat":
                parts.append(f"{c['label'] or name} {view['counters'][name][s]}")
        lines.append(f"{seat_name(s)}{you}: " + ", ".join(parts))
        for name, zdef in program.zones.items():
            if zdef["scope"] != "seat":
                continue
            z = view["zones"][f"{name}/{s}"]
            if not z["cards"] and not z["hidden"]:
                continue
            label = zdef["label"] or name.replace("_", " ")
            lines.append(f"    {label}: {_cards(z)}")
    return "\n".join(lines)


def _seat_vars(program):
    """Game variables that hold a seat, by convention of their start value None and DSL use."""
    return {name for name, v in program.vars.items() if v["start"] is None}


def render_decision(pending: dict) -> str:
    lines = [pending["prompt"] + (f" (up to {pending['subset']}, numbers separated by spaces; empty for none)"
                                  if pending["subset"] else "") + ":"]
    for i, label in enumerate(pending["labels"], 1):
        lines.append(f"  {i}. {label}")
    return "\n".join(lines)


def render_entry(e: dict) -> str | None:
    if e.get("type") == "decision":
        return None
    if e.get("type") == "start":
        s = e["settings"]
        return f"{s['game']} with {s['players']} players, seed {s['seed']}"
    if e.get("type") == "end":
        return None
    return e.get("text")


def render_result(program, result: dict) -> str:
    lines = ["Final scores:"]
    for s, total in enumerate(result["scores"]):
        parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in result["parts"][s].items())
        lines.append(f"  {seat_name(s)}: {total} ({parts})")
    w = result["winners"]
    lines.append(("Winners: " if len(w) > 1 else "Winner: ") + ", ".join(seat_name(s) for s in w))
    return "\n".join(lines)
