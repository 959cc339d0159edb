"""Follow every board of a Mason log from its typed ``board`` events alone and check the state digests.

No Mason code: only the log format (docs/log-format.md, "Board events"). The first ``digest`` entry
(``when: start``) gives every board as built; each later ``board`` event (and a market's ``trade``)
changes it as its fields say; every later ``digest`` must hold the boards recomputed. A change some
primitive made without its event shows here as a mismatch.

    python tests/log_board_check.py LOG.jsonl ...     # exit 1 and a line per mismatch
"""

from __future__ import annotations

import copy
import json
import sys


def _bag(b, e):
    op = e["op"]
    if op == "put":
        b["inside"].extend([e["piece"]] * e["count"])
    elif op == "draw":
        b["inside"].remove(e["piece"])
        b["drawn"] = e["piece"]
    elif op == "keep":
        b["drawn"] = None
    elif op == "return":
        b["inside"].append(e["piece"])
        b["drawn"] = None
    elif op == "park":
        b["parked"].append([e["slot"], e["piece"]])
        b["drawn"] = None
    elif op == "unpark":
        b["parked"].remove([e["slot"], e["piece"]])
        b["drawn"] = e["piece"]
    elif op == "empty":
        b.update(inside=[], parked=[], drawn=None)


def _hexgrid(b, e):
    op, stack = e["op"], b["stacks"].get(e["cell"])
    if op == "place":
        item = {"piece": e["piece"], "rot": e["rotation"], "edges": e["edges"], "corners": e["corners"], "paid": {}}
        stack.append(item)
    elif op == "remove":
        stack.pop()
    elif op == "mark_paid":
        if e["mark"] == "m":
            paid = b["marks_paid"].setdefault(f"{e['cell']}/{e['index']}", [])
        else:
            paid = stack[-1]["paid"].setdefault(f"{e['mark']}{e['index']}", [])
        paid.append(e["other"])


def _market(b, e):
    if e["op"] == "fill":
        b["filled"][e["good"]] = e["dest"]
    elif e["op"] == "restock":
        b["stock"].update(e["stock"])
        for lst in b["bought"] + b["sold"]:
            lst.clear()


def _trade(b, e):
    """A market's trade (a ``trade`` entry naming its ``board``): the stock and who bought or sold what."""
    good, seat = e["good"], e["seat"]
    if e["side"] == "buy":
        b["stock"][good] -= e["count"]
        if good not in b["bought"][seat]:
            b["bought"][seat].append(good)
    elif good not in b["sold"][seat]:
        b["sold"][seat].append(good)


def _ring(b, e):
    op = e["op"]
    if op == "put":
        b["pieces"][e["dest"]].append(e["piece"])
    elif op == "remove":
        b["pieces"][e["source"]].remove(e["piece"])
    elif op == "pick_up":
        b["held"], b["pieces"][e["source"]] = list(e["pieces"]), []
        b["cursor"], b["last"] = e["source"], None
    elif op == "drop":
        b["held"].remove(e["piece"])
        b["pieces"][e["dest"]].append(e["piece"])
        b["cursor"], b["last"] = e["dest"], [e["dest"], e["piece"]]
    elif op == "tokens":
        b["tokens"][e["where"]][e["token"]] = e["dest"]
    elif op == "pawn":
        key = str(e["pawn"])
        if "dest" in e:
            b["pawns"][key] = e["dest"]
        else:
            b["pawns"].pop(key, None)
    elif op == "marker":
        b["markers"][e["marker"]] = e["dest"]


def _slots(b, e):
    op, s = e["op"], e.get("slot")
    owner = e.get("seat")
    if op in ("place", "replace"):
        b["pieces"][s] = owner
    elif op == "remove":
        b["pieces"].pop(s)
        b["marks"].pop(s, None)
    elif op in ("mark", "unmark"):
        marks = b["marks"].setdefault(s, {})
        marks[e["mark"]] = e["count"]
        if not e["count"]:
            del marks[e["mark"]]
        if not marks:
            del b["marks"][s]
    elif op == "scored":
        b["scored"].append(e["group"])
    elif op == "store":
        b["stores"][str(e["region"])][e["good"]] = e["dest"]


def _wheel(b, e):
    op = e["op"]
    if op == "turn":
        b["r"], b["passed"] = e["rotation"], list(e["passed"])
    if op in ("take", "move"):
        b["pieces"][e["source"]] = None
    if op in ("put", "move"):
        b["pieces"][e["dest"]] = e["piece"]


def _spaces(b, e):
    if e["op"] == "place":
        b[e["location"]][e["space"] - 1] = e["piece"]
    else:
        for loc in b:
            b[loc] = [None] * len(b[loc])


def _pyramid(b, e):
    b["owners"][e["slot"]] = e["seat"] if e["op"] == "place" else None


def _staircase(b, e):
    b["pos"][e["seat"]] = list(e["dest"])


def _track(b, e):
    b[e["track"]][e["seat"]] = e["dest"]


def _cost_track(b, e):
    b["pos"] = e["dest"]


APPLY = {
    "bag": _bag,
    "cost_track": _cost_track,
    "hexgrid": _hexgrid,
    "market": _market,
    "pyramid": _pyramid,
    "ring": _ring,
    "slots": _slots,
    "spaces": _spaces,
    "staircase": _staircase,
    "track": _track,
    "wheel": _wheel,
}


def _same(kind, a, b) -> bool:
    if kind == "bag":  # a draw takes a piece at random: what is inside counts, not its order
        a, b = dict(a), dict(b)
        a["inside"], b["inside"] = sorted(map(json.dumps, a["inside"])), sorted(map(json.dumps, b["inside"]))
    return a == b


def follow(boards: dict, entries: list[dict]) -> dict:
    """The boards after ``entries``, from ``boards`` before them (a copy is changed, not ``boards``)."""
    boards = copy.deepcopy(boards)
    for e in entries:
        if e.get("type") == "board":
            APPLY[e["primitive"]](boards[e["board"]], e)
        elif e.get("type") == "trade" and "board" in e:
            _trade(boards[e["board"]], e)
    return boards


def check(entries: list[dict]) -> tuple[int, list[str], dict]:
    """(digests checked, mismatches, board events applied by kind) for the entries of one log."""
    boards, kinds = None, {}
    checked, problems, applied = 0, [], {}
    for i, e in enumerate(entries):
        t = e.get("type")
        if t == "digest" and boards is None:
            boards = copy.deepcopy(e["boards"])
            continue
        if boards is None:
            continue
        if t == "board":
            kinds[e["board"]] = e["primitive"]
            APPLY[e["primitive"]](boards[e["board"]], e)
            applied[e["primitive"]] = applied.get(e["primitive"], 0) + 1
        elif t == "trade" and "board" in e:
            _trade(boards[e["board"]], e)
        elif t == "digest":
            checked += 1
            for name, now in e["boards"].items():
                if not _same(kinds.get(name), boards.get(name), now):
                    problems.append(
                        f"entry {i} (round {e.get('round')}, {e.get('when')}): board {name} is "
                        f"{json.dumps(now)[:300]}, recomputed {json.dumps(boards.get(name))[:300]}"
                    )
                    boards[name] = copy.deepcopy(now)
    if boards is None:
        problems.append("no digest in the log")
    return checked, problems, applied


def main(paths) -> int:
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            entries = [json.loads(line) for line in f if line.strip()]
        checked, problems, applied = check(entries)
        for p in problems:
            print(f"{path}: {p}")
        bad += bool(problems)
        if not problems:
            print(f"{path}: {checked} digests match, board events: {applied}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
