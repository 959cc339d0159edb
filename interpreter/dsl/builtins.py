"""Builtin functions of the DSL. Each takes the runtime first; all are pure queries of the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mason.errors import PlayError


@dataclass(frozen=True)
class Builtin:
    """A builtin query: its name, its implementation and how many arguments it takes."""

    name: str
    impl: Callable
    min_args: int
    max_args: int
    doc: str
    # what the load-time number check knows of it (dsl/numbers.py): the positions of the arguments that
    # must be numbers, and whether its value is a number
    numbers: tuple = ()
    gives_number: bool = False


BUILTINS: dict[str, Builtin] = {}
PROCEDURES: dict[str, Builtin] = {}

# Runtime bounds (docs/dsl.md, "Limits"), so that no rule can allocate gigabytes or run for minutes:
MAX_ITEMS = 1_000_000  # items in one list (or characters in one text) a rule makes
MAX_NUMBER = 2**53  # the largest number a rule may compute by '*' or store (JSON-safe)
MAX_NESTED = 32  # lists inside lists in a value a rule stores
ITEM_CAP = 10_000_000  # items gone through (comprehensions, loops, range, repetition) between decisions


def charge(rt, n: int, at) -> None:
    """Count ``n`` items of work against the runtime's item budget; past it, stop with the rule's place."""
    spent = rt.spent + n
    rt.spent = spent
    if spent > rt.item_cap:
        raise PlayError(
            f"more than {rt.item_cap:,} items gone through since the last decision (loops,"
            " comprehensions, range, repetition): the rules go through too much or loop without end",
            at(),
            "play/loop",
        )


def short(v) -> str:
    """A value in a message, cut short (a rule may hold a list of a million items)."""
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def too_big(v, place=None) -> PlayError:
    """The error for a number beyond the DSL's bound (``play/too-big``), at ``place``."""
    return PlayError(
        f"a number beyond ±{MAX_NUMBER:,} (one of {abs(v).bit_length()} bits): the rules grow a number without end",
        place,
        "play/too-big",
    )


class RegistrationError(Exception):
    """A builtin, procedure, board kind, statement or frame registered twice under one name.

    A programming error in Mason or a primitive, raised when the second module is imported: a later
    registration never silently replaces an earlier one.
    """


def _register(table: dict, what: str, name: str, entry: Builtin) -> None:
    old = table.get(name)
    if old is not None:
        raise RegistrationError(
            f"{what} '{name}' is registered twice: by {old.impl.__module__} and by {entry.impl.__module__}"
        )
    table[name] = entry


def builtin(
    name: str,
    min_args: int,
    max_args: int | None = None,
    item=None,
    on_list: str = "",
    static=None,
    table=None,
    code=None,
    gives_cards: bool = False,
    numbers: tuple = (),
    gives_number: bool = False,
):
    """Register a pure query usable in expressions: ``impl(rt, *args) -> value``.

    ``numbers``: the positions of the arguments that must be numbers, and ``gives_number``: its value
    is a number; what the check of a game's constants and card fields against their uses knows of the
    query (dsl/numbers.py).

    ``item(rt, *args, key)``, for a query that returns a fresh copy of a dict (a board cell's data):
    the value ``impl(rt, *args)[key]`` without the copy, or any exception where that would fail. A
    generated expression (dsl/fastexpr.py) calls it for ``query(...)["key"]``; on an exception it
    falls back on the closure tree, which calls ``impl`` and gives the error as always.

    ``on_list``: the name of a Python builtin that gives the query's value for one argument that is a
    list (``len`` for ``count``); generated expressions call it directly on a list, ``impl`` otherwise.

    For a query whose value depends on the program alone (a board's declaration), never on the state,
    generated expressions may look it up once, when they are made, for arguments written as literals:

    - ``static(program, *args)``: ``impl``'s value for these arguments (a list, a text, a number,
      true/false or none) in any game of ``program``; it raises where the arguments are not such a
      query's (the generated code then calls ``impl``). A list is copied at each use.
    - ``table(program, *leading)``: for a query ``impl(rt, *leading, entry)`` that gives a copy of one
      entry's data (a dict): every entry's data by its canonical id, so that ``query(..., e)["key"]``
      reads ``table[e]["key"]``; an id that is not canonical or a key it lacks raises, and the
      closure tree, calling ``impl``, decides (as for ``item``). It raises where ``leading`` names no
      such table.

    ``code(program, *args)``: Python source that gives the query's value in a generated expression,
    in place of calling ``impl``: a ``str.format`` template whose ``{0}``, ``{1}``, ... stand for the
    arguments' code, each used once and in order (one the hook took as a literal, a board's name,
    may be used again); it reads the state through ``rt``. ``args`` are the arguments' values where
    written as literals, ``KNOWN_CARD`` for a name holding a card's number for sure (an item of a
    zone), else ``NOT_LITERAL``. None, or an exception, where the hook does not apply:
    call ``impl``. Where the template hands a value over (a shape it does not handle), it calls
    ``_bail()``, and the closure tree, calling ``impl``, decides. Any other exception it raises must
    be one where ``impl`` gives a rule error (that error is then the error); where ``impl`` gives a
    value instead, the run stops with an internal error naming the expression (no silent fallback).

    ``gives_cards``: the query's value, whenever it has one, is a new list of cards' numbers (so that
    generated code reads the items' properties without checking them).
    """

    def deco(fn):
        if item is not None:
            fn.item = item
        if on_list:
            fn.on_list = on_list
        if static is not None:
            fn.static = static
        if table is not None:
            fn.table = table
        if code is not None:
            fn.code = code
        if gives_cards:
            fn.gives_cards = True
        _register(
            BUILTINS,
            "builtin",
            name,
            Builtin(
                name,
                fn,
                min_args,
                min_args if max_args is None else max_args,
                (fn.__doc__ or "").strip(),
                tuple(numbers),
                gives_number,
            ),
        )
        return fn

    return deco


NOT_LITERAL = object()  # an argument of a builtin's ``code`` hook that is not written as a literal
KNOWN_CARD = object()  # an argument of a ``code`` hook that holds a card's number for sure (no check needed)


def procedure(name: str, min_args: int, max_args: int | None = None):
    """Register a primitive that changes the state, run by ``do name(args)``: ``impl(rt, node, *args, **kw)``.

    A procedure must keep the state plain JSON data, must not ask for decisions (put choices in the
    DSL around it) and should narrate through ``rt.say`` when ``rt.narrate`` is true.
    """

    def deco(fn):
        _register(
            PROCEDURES,
            "procedure",
            name,
            Builtin(name, fn, min_args, min_args if max_args is None else max_args, (fn.__doc__ or "").strip()),
        )
        return fn

    return deco


def _list(x):
    if isinstance(x, list):
        return x
    if isinstance(x, (tuple, set)):
        return list(x)
    raise PlayError(f"expected a list, got {x!r}", code="play/type")


@builtin("count", 1, on_list="len", gives_number=True)
def _count(rt, items):
    """Number of items in a list (or generated by ``count(x for x in L if C)``)."""
    return len(_list(items))


@builtin("len", 1, on_list="len", gives_number=True)
def _len(rt, items):
    """Same as count."""
    return len(_list(items))


@builtin("sum", 1, on_list="sum", gives_number=True)
def _sum(rt, items):
    """Sum of numbers (0 for an empty list)."""
    return sum(_list(items))


@builtin("max", 1, 9)
def _max(rt, *items):
    """Largest of a list, or of several arguments; none for an empty list."""
    seq = _list(items[0]) if len(items) == 1 else list(items)
    return max(seq) if seq else None


@builtin("min", 1, 9)
def _min(rt, *items):
    """Smallest of a list, or of several arguments; none for an empty list."""
    seq = _list(items[0]) if len(items) == 1 else list(items)
    return min(seq) if seq else None


@builtin("any", 1)
def _any(rt, items):
    """True if any item is true."""
    return any(_list(items))


@builtin("all", 1)
def _all(rt, items):
    """True if every item is true (true for an empty list)."""
    return all(_list(items))


@builtin("abs", 1, numbers=(0,), gives_number=True)
def _abs(rt, x):
    """Absolute value."""
    return abs(x)


@builtin("first", 1)
def _first(rt, items):
    """First item of a list, or none."""
    seq = _list(items)
    return seq[0] if seq else None


@builtin("last", 1)
def _last(rt, items):
    """Last item of a list (the top of a zone), or none."""
    seq = _list(items)
    return seq[-1] if seq else None


@builtin("range", 1, 2, numbers=(0, 1))
def _range(rt, a, b=None):
    """``range(n)`` is 0..n-1; ``range(a, b)`` is a..b-1."""
    for x in (a, b):
        if x is not None and (type(x) is not int):
            raise PlayError(f"range needs whole numbers, got {x!r}", code="play/type")
    r = range(a) if b is None else range(a, b)
    if len(r) > MAX_ITEMS:
        raise PlayError(f"range of {len(r):,} numbers; a rule may make at most {MAX_ITEMS:,}", code="play/too-big")
    charge(rt, len(r), _nowhere)
    return list(r)


def _nowhere():
    return None  # the caller (a compiled call) adds the place


@builtin("flatten", 1)
def _flatten(rt, lists):
    """Concatenate a list of lists."""
    out: list = []
    for x in lists if type(lists) is list else _list(lists):
        out.extend(x if type(x) is list else _list(x))
        if len(out) > MAX_ITEMS:
            raise PlayError(f"flatten would make more than {MAX_ITEMS:,} items", code="play/too-big")
    if rt.spent + len(out) > rt.item_cap:
        charge(rt, len(out), _nowhere)
    rt.spent += len(out)
    return out


@builtin("distinct", 1)
def _distinct(rt, items):
    """The items without repeats, in first-seen order."""
    return list(dict.fromkeys(_list(items)))


@builtin("sorted", 1, 2)
def _sorted(rt, items, prop=None):
    """Sort a list; ``sorted(cards, "rank")`` sorts cards by a property (stable)."""
    seq = _list(items)
    try:
        if prop is None:
            return sorted(seq)
        cards, types = rt.cards, rt.types

        def key(c):
            d = cards[c]
            v = d.get(prop)
            return v if v is not None else types[d["t"]].get(prop)

        return sorted(seq, key=key)
    except (TypeError, IndexError) as exc:
        raise PlayError(f"cannot sort these values: {exc}", code="play/type") from None


@builtin(  # written in place (asked of every card a filter goes through)
    "owner",
    1,
    code=lambda program, card: (
        "rt.cards[{0}]['o']"
        if card is KNOWN_CARD
        else "(None if (_v := {0}) is None else rt.cards[_v if type(_v) is int and _v >= 0 else None]['o'])"
    ),
)
def _owner(rt, card):
    """The seat owning the zone a card lies in, or none (decks, shared displays)."""
    if card is None:
        return None
    return rt.cards[_card_number(rt, card, "owner")]["o"]


@builtin(  # written in place (asked of every card a filter goes through); a negative number is no card
    "zone",
    1,
    code=lambda program, card: (
        "rt.cards[{0}]['z']"
        if card is KNOWN_CARD
        else "rt.cards[_v if type(_v := {0}) is int and _v >= 0 else None]['z']"
    ),
)
def _zone(rt, card):
    """The name of the zone a card lies in (without its seat)."""
    return rt.cards[_card_number(rt, card, "zone")]["z"]


def _card_number(rt, card, query: str) -> int:
    """``card`` if it is a card's number (a whole number, not true or false, nor counted from the end)."""
    if type(card) is not int or not 0 <= card < len(rt.cards):
        raise PlayError(f"{query}(...) needs a card, got {short(card)}", code="play/type")
    return card


@builtin("seats_from", 1)
def _seats_from(rt, seat):
    """Every seat clockwise, starting with ``seat``."""
    n = rt.st["n"]
    return [(seat + i) % n for i in range(n)]


@builtin("next_seat", 1)
def _next_seat(rt, seat):
    """The seat to the left (clockwise)."""
    return (seat + 1) % rt.st["n"]


@builtin("prev_seat", 1)
def _prev_seat(rt, seat):
    """The seat to the right (counter-clockwise)."""
    return (seat - 1) % rt.st["n"]


@builtin("neighbours", 1)
def _neighbours(rt, seat):
    """The seats immediately left and right of a seat (one seat with 2 players)."""
    n = rt.st["n"]
    return list(dict.fromkeys([(seat + 1) % n, (seat - 1) % n]))


@builtin("covered", 1)
def _covered(rt, options):
    """Most distinct values coverable when each entry contributes one value of its own list.

    ``covered([["red"], ["blue"], ["red", "blue", "green"]])`` is 3: a wildcard entry counts as
    whichever value it is best used as (bipartite matching, augmenting paths).
    """
    entries = [list(dict.fromkeys(_list(o))) for o in _list(options)]
    if all(len(e) <= 1 for e in entries):  # no entry with a choice (the common case): the distinct values
        return len({v for e in entries for v in e})
    match: dict = {}

    def augment(i, seen):
        for v in entries[i]:
            if v in seen:
                continue
            seen.add(v)
            if v not in match or augment(match[v], seen):
                match[v] = i
                return True
        return False

    for i in range(len(entries)):
        augment(i, set())
    return len(match)


@builtin("most", 2)
def _most(rt, seats, values):
    """The one seat of ``seats`` whose value (same position in ``values``) is strictly highest, or none."""
    seats, values = _list(seats), _list(values)
    if not seats:
        return None
    top = max(values)
    winners = [s for s, v in zip(seats, values) if v == top]
    return winners[0] if len(winners) == 1 else None


@builtin("cards", 1, gives_cards=True)
def _cards(rt, family):
    """Every card of a component family, wherever it lies: ``cards("hero")``."""
    try:
        return list(rt.prog.family_cards[family])
    except KeyError:
        raise PlayError(f"no component family '{family}'", code="play/unknown") from None


@builtin("seat_name", 1)
def _seat_name(rt, seat):
    """How a seat is shown: P1, P2, ... (an automated seat by its automaton's name)."""
    return rt.seat_name(seat)


@builtin("automated", 1)
def _automated(rt, seat):
    """True for an automated seat (one whose decisions the game's policy takes); false for none."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return False
    return str(seat) in (rt.st.get("automata") or ())


@builtin("automaton_seat", 1)
def _automaton_seat(rt, automaton):
    """The seat of an automaton (by id), or none when it does not play at this player count."""
    for seat, aid in (rt.st.get("automata") or {}).items():
        if aid == automaton:
            return int(seat)
    return None


@builtin("card_name", 1)
def _card_name(rt, card):
    """A card's name (its component's ``name``)."""
    return "none" if card is None else rt.card_name(card)


def show(rt, v) -> str:
    """A value as ``say`` and ``str`` write it: a list's items joined by commas, ``none`` for no value."""
    if isinstance(v, list):
        return ", ".join(show(rt, x) for x in v)
    return "none" if v is None else str(v)


@builtin(  # written in place (labels are built from numbers at many decisions); a list: the builtin
    "str",
    1,
    code=lambda program, *args: '("none" if (_v := {0}) is None else str(_v) if type(_v) is not list else _bail())',
)
def _str(rt, value):
    """A value written out as text, the way ``say`` writes it (for labels built from numbers)."""
    return show(rt, value)


@builtin("counted", 2, 3)
def _counted(rt, n, one, many=None):
    """``n`` things as text, singular or plural by the number: ``counted(1, "coin")`` is ``"1 coin"``,
    ``counted(3, "coin")`` ``"3 coins"``; ``many`` for a plural that is not ``one`` + ``s``
    (``counted(2, "leaf", "leaves")``)."""
    if type(n) is not int or not isinstance(one, str) or (many is not None and not isinstance(many, str)):
        raise PlayError(f"counted(n, one[, many]) needs a whole number and words, got {short(n)}", code="play/type")
    return f"{n} {one}" if n == 1 else f"{n} {many if many is not None else one + 's'}"


@builtin("done", 1)
def _done(rt, action):
    """How many times an action (or any action of a group) was used in the current turn."""
    t = rt.turn_frame()
    if t is None:
        return 0
    return t["uses"].get(action, 0) + t["groups"].get(action, 0)
