"""Plain-value helpers shared by the runtime, the primitives and the play layer.

A low module: it imports only ``mason.errors`` and the DSL's limits and text form
(``mason.dsl.builtins``), so anything above the DSL may use it without an import cycle. It holds
how a stored value is copied (``_plain``), how a seat operand is checked (``_seat_of``), how a zone
key is built and split (``zone_key`` / ``split_zone_key``: a zone is keyed ``name`` when shared and
``name/seat`` when each seat has its own), how a zone and a value are written out for people, and
who sees a card in a zone.
"""

from __future__ import annotations

from mason.dsl.builtins import MAX_ITEMS, MAX_NESTED, MAX_NUMBER, too_big
from mason.dsl.builtins import short as _short  # (turns and machine import it from here too)
from mason.dsl.builtins import show as _show  # noqa: F401  (re-exported: how ``say`` writes a value)
from mason.errors import PlayError


# ==================================================================== zone keys
def zone_key(name: str, seat: int | None = None) -> str:
    """The state key of zone ``name``: ``name`` for a shared zone, ``name/seat`` for a seat's own."""
    return name if seat is None else f"{name}/{seat}"


def split_zone_key(key: str) -> tuple[str, int | None]:
    """The zone name and owning seat (None for a shared zone) of a zone key: the inverse of ``zone_key``."""
    name, _, owner = key.partition("/")
    return name, (int(owner) if owner else None)


# ==================================================================== operands and stored values
def _seat_of(rt, env, fn, node):
    s = env.get("me") if fn is None else fn(rt, env)
    if type(s) is not int or not 0 <= s < rt.n:  # a number, not true/false (bool is no int here)
        raise PlayError(f"not a seat: {s!r}", node.place, "play/no-seat")
    return s


def in_words(v) -> str:
    """A value as players read it (``say``, prompts, option labels, board pictures): as ``str`` writes
    it, but a text in words, its underscores as spaces (an id such as ``blue_gem`` reads ``blue gem``)."""
    if isinstance(v, list):
        return ", ".join(in_words(x) for x in v)
    if isinstance(v, str):
        return v.replace("_", " ")
    return _show(None, v)


def label_of(decl, name) -> str:
    """How a declared thing (a zone, a board, a track, a location, an action) reads to players: its
    ``label``, else its id in words (``kings_court`` as ``kings court``)."""
    return (decl.get("label") if isinstance(decl, dict) else None) or str(name).replace("_", " ")


def counter_amount(prog, name: str, n) -> str:
    """``n`` of a counter as narration says it: ``1 blue gem``, ``2 blue gems`` (its ``one`` for a
    single unit, else its ``label``, else its name in words)."""
    c = prog.counters.get(name) or {}
    word = c.get("one") if n == 1 and c.get("one") else label_of(c, name)
    return f"{n} {word}"


def _say_counter(rt, node, text, kind, **fields):
    """Narrate a counter change, saying why: ``P1 gains 2 gold (Take income)``."""
    chain = rt.because()
    why = rt.why(chain)
    rt.say(f"{text} ({why})" if why else text, node, type=kind, **fields)


def _plain(v):
    """A value to store: lists are copied (deeply), so a stored value never aliases a zone.

    The copy is bounded: at most MAX_ITEMS items in all and MAX_NESTED lists deep (a list built from
    itself, ``[x, x]``, doubles at every step), numbers within MAX_NUMBER.
    """
    t = type(v)
    if t is list or t is dict:
        return _copy(v, [MAX_ITEMS], 0)
    if t is int and not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise too_big(v)
    return v


def _copy(v, room, depth):
    room[0] -= len(v)
    if room[0] < 0:
        raise PlayError(
            f"this value would hold more than {MAX_ITEMS:,} items in all; a rule may store at most that",
            code="play/too-big",
        )
    if depth >= MAX_NESTED:
        raise PlayError(f"this value nests lists more than {MAX_NESTED} deep", code="play/too-deep")
    if type(v) is list:
        if _SCALARS.issuperset(map(type, v)):  # nothing to copy inside (checked without a Python loop)
            return v.copy()
        return [_copy(x, room, depth + 1) if isinstance(x, (list, dict)) else x for x in v]
    if _SCALARS.issuperset(map(type, v.values())):
        return v.copy()
    return {k: _copy(x, room, depth + 1) if isinstance(x, (list, dict)) else x for k, x in v.items()}


_SCALARS = frozenset((int, str, bool, float, type(None)))  # values a copy keeps as they are


def _amount_of(v, node):
    if type(v) is not int or v < 0:  # a whole number, not true/false
        raise PlayError(f"count must be a whole number >= 0, got {_short(v)}", node.place, "play/type")
    return v


# ==================================================================== for people
def plural(n, word: str) -> str:
    """``1 cell``, ``3 cells`` (``n`` may be a text such as a range of player counts: ``2-8 cells``)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _zone_label(rt, key):
    """A zone as narration names it: ``the discard``, ``P2's hand`` (a label that starts with "the"
    keeps its own article)."""
    name, owner = split_zone_key(key)
    zdef = rt.prog.zones[name]
    label = label_of(zdef, name)
    if owner is not None:
        return f"{rt.seat_name(owner)}'s {label}"
    return label if label.lower().startswith("the ") else f"the {label}"


def _visible_to(rt, key, c):
    """None when everyone sees card c in zone key, else the list of seats that do."""
    card = rt.cards[c]
    if card.get("up"):
        return None
    name, owner = split_zone_key(key)
    vis = rt.prog.zones[name]["visibility"]
    if vis == "all":
        return None
    seats = set(card.get("seen") or ())
    if vis == "owner" and owner is not None:
        seats.add(owner)
    return sorted(seats)
