"""A bag of pieces belonging to different seats, drawn one at a time at random, with parking for later.

``boards: {NAME: {kind: bag}}``. A piece is a plain value, usually the seat that owns it. A draw
takes one piece uniformly at random from the bag (a chance event, narrated) and holds it as *the
drawn piece* until the rules decide: keep it (``bag_keep``: it was placed), put it back
(``bag_return``: a veto, it will be drawn again) or park it in a numbered slot (``bag_park``) to be
dealt with once the bag is empty. Parked pieces come out again (``bag_unpark``) highest slot
first, and in parking order within a slot.

State: ``{"inside": [pieces], "drawn": piece or null, "parked": [[slot, piece], ...]}``.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime import rng
from mason.runtime.boards import board, board_event, board_kind, board_renderer


@board_kind("bag")
def _build(definition, players, table):
    return {"inside": [], "drawn": None, "parked": []}


def _bag(rt, name):
    b = board(rt, name)
    if not isinstance(b, dict) or "inside" not in b:
        raise PlayError(f"board '{name}' is not a bag", code="play/type")
    return b


def _who(rt, piece):
    return rt.seat_name(piece) if isinstance(piece, int) and not isinstance(piece, bool) else str(piece)


def _order(parked):
    # highest slot first; within a slot, first parked first (sort is stable)
    return sorted(parked, key=lambda e: -e[0])


@builtin("bag_count", 1, 2)
def _count(rt, name, piece=None):
    """Pieces still in the bag (``bag_count(b, s)``: only those equal to ``s``)."""
    inside = _bag(rt, name)["inside"]
    return len(inside) if piece is None else sum(1 for p in inside if p == piece)


@builtin("bag_drawn", 1)
def _drawn(rt, name):
    """The drawn piece awaiting a decision, or none."""
    return _bag(rt, name)["drawn"]


@builtin("bag_parked", 1)
def _parked(rt, name):
    """The parked pieces in the order they come out (highest slot first)."""
    return [p for _, p in _order(_bag(rt, name)["parked"])]


@builtin("bag_slots", 1)
def _slots(rt, name):
    """The parked pieces as ``[slot, piece]`` pairs, in the order they come out."""
    return [list(e) for e in _order(_bag(rt, name)["parked"])]


@procedure("bag_put", 2, 3)
def _put(rt, node, name, piece, count=1):
    """``do bag_put(b, s, 3)``: put ``count`` copies of a piece into the bag."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise PlayError(f"count must be a whole number >= 0, got {count!r}", code="play/type")
    _bag(rt, name)["inside"].extend([piece] * count)
    if rt.narrate:
        board_event(rt, node, name, "put", None, piece=piece, count=count)


@procedure("bag_draw", 1)
def _draw(rt, node, name):
    """Draw one piece at random; it becomes the drawn piece. An error if one is still undecided."""
    b = _bag(rt, name)
    if b["drawn"] is not None:
        raise PlayError(f"bag '{name}': the drawn piece was neither kept, returned nor parked", code="play/bag")
    if not b["inside"]:
        raise PlayError(f"bag '{name}' is empty", code="play/bag")
    b["drawn"] = b["inside"].pop(rng.below(rt.st, len(b["inside"])))
    if rt.narrate:
        text = f"drawn from the {name.replace('_', ' ')}: {_who(rt, b['drawn'])}'s piece"
        board_event(rt, node, name, "draw", text, piece=b["drawn"], left=len(b["inside"]), chance=True)


def _take_drawn(b, name):
    if b["drawn"] is None:
        raise PlayError(f"bag '{name}' has no drawn piece", code="play/bag")
    piece, b["drawn"] = b["drawn"], None
    return piece


@procedure("bag_keep", 1)
def _keep(rt, node, name):
    """The drawn piece leaves the bag for good (it was placed)."""
    piece = _take_drawn(_bag(rt, name), name)
    if rt.narrate:
        board_event(rt, node, name, "keep", None, piece=piece)


@procedure("bag_return", 1)
def _return(rt, node, name):
    """The drawn piece goes back into the bag, to be drawn again later."""
    b = _bag(rt, name)
    b["inside"].append(_take_drawn(b, name))
    if rt.narrate:
        text = f"the piece goes back into the {name.replace('_', ' ')}"
        board_event(rt, node, name, "return", text, piece=b["inside"][-1])


@procedure("bag_park", 2)
def _park(rt, node, name, slot):
    """``do bag_park(b, 7)``: the drawn piece waits in slot 7 until it is unparked."""
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise PlayError(f"a slot is a whole number, got {slot!r}", code="play/type")
    b = _bag(rt, name)
    b["parked"].append([slot, _take_drawn(b, name)])
    if rt.narrate:
        text = f"{_who(rt, b['parked'][-1][1])}'s piece waits in slot {slot}"
        board_event(rt, node, name, "park", text, piece=b["parked"][-1][1], slot=slot)


@procedure("bag_unpark", 1)
def _unpark(rt, node, name):
    """The next parked piece (highest slot first) becomes the drawn piece."""
    b = _bag(rt, name)
    if b["drawn"] is not None:
        raise PlayError(f"bag '{name}': the drawn piece was neither kept, returned nor parked", code="play/bag")
    if not b["parked"]:
        raise PlayError(f"bag '{name}' has no parked piece", code="play/bag")
    first = _order(b["parked"])[0]
    b["parked"].remove(first)
    b["drawn"] = first[1]
    if rt.narrate:
        board_event(rt, node, name, "unpark", None, piece=first[1], slot=first[0])


@procedure("bag_empty", 1)
def _empty(rt, node, name):
    """Remove every piece: inside, drawn and parked."""
    b = _bag(rt, name)
    b["inside"].clear()
    b["parked"].clear()
    b["drawn"] = None
    if rt.narrate:
        board_event(rt, node, name, "empty", None)


@board_renderer("bag")
def _render(program, name, data, seat):
    from collections import Counter

    def who(p):
        return f"P{p + 1}" if isinstance(p, int) and not isinstance(p, bool) else str(p)

    inside = Counter(data["inside"])
    text = ", ".join(f"{who(p)} x{n}" for p, n in sorted(inside.items(), key=lambda kv: str(kv[0]))) or "empty"
    line = f"{name.replace('_', ' ')}: {text}"
    if data["drawn"] is not None:
        line += f" | drawn: {who(data['drawn'])}"
    if data["parked"]:
        line += " | parked: " + ", ".join(f"{who(p)} (slot {s})" for s, p in _order(data["parked"]))
    return [line]
