"""Counters by name: bundles of counters, compulsory payments with a penalty, floors, ceilings, carry limits.

The core ``gain``/``pay`` statements name their counter in the text. These primitives take counter
names as values (``"sand"``, a card's ``resource`` property) and *bundles*: mappings of counter name
to amount, usually a component property such as ``input: {sand: 1, metal: 1}``. Every gain keeps the
counter's ``cap`` and ``supply``; nothing here asks a decision (choices stay in the DSL around it).
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime.values import _say_counter, counter_amount

UNLIMITED = 10**9  # how many times an empty bundle can be paid


def _counter(rt, name):
    cdef = rt.prog.counters.get(name) if isinstance(name, str) else None
    if cdef is None or cdef["scope"] != "seat":
        raise PlayError(f"'{name}' is not a per-seat counter", code="play/unknown")
    return cdef


def _seat(rt, s):
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < rt.st["n"]:
        raise PlayError(f"not a seat: {s!r}", code="play/no-seat")
    return s


def _whole(v, what="amount"):
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise PlayError(f"{what} must be a whole number >= 0, got {v!r}", code="play/type")
    return v


def _bundle(b) -> dict:
    if b is None:
        return {}
    if not isinstance(b, dict):
        raise PlayError(f"a bundle is a mapping of counter name to amount, got {b!r}", code="play/type")
    return b


def held(rt, seat, name) -> int:
    """How much of counter ``name`` ``seat`` holds."""
    _counter(rt, name)
    return rt.st["counters"][name][seat]


def add(rt, seat, name, amount) -> int:
    """Add to a per-seat counter, keeping its supply and cap; return what was really gained."""
    cdef = _counter(rt, name)
    counters = rt.st["counters"]
    if cdef["supply"] is not None:
        amount = min(amount, counters[cdef["supply"]])
        counters[cdef["supply"]] -= amount
    if cdef["cap"] is not None:
        room = max(0, cdef["cap"] - counters[name][seat])
        if amount > room:
            if cdef["supply"] is not None:
                counters[cdef["supply"]] += amount - room
            amount = room
    counters[name][seat] += amount
    if rt.narrate:
        rt.change(seat, name, amount)
    return amount


def take(rt, seat, name, amount) -> None:
    """Remove from a per-seat counter (back to its supply); the caller has checked it is held."""
    cdef = _counter(rt, name)
    counters = rt.st["counters"]
    if counters[name][seat] < amount:
        raise PlayError(
            f"{rt.seat_name(seat)} cannot pay {amount} {name} (has {counters[name][seat]})", code="play/cannot-pay"
        )
    counters[name][seat] -= amount
    if cdef["supply"] is not None:
        counters[cdef["supply"]] += amount
    if rt.narrate:
        rt.change(seat, name, -amount)


def _say(rt, node, text, kind="note", **fields):
    """Narrate a change of counters, saying why; the event carries the real changes (``add``/``take``)."""
    if rt.narrate:
        _say_counter(rt, node, text, kind, **fields)


def _show(rt, bundle: dict, times: int) -> str:
    return ", ".join(counter_amount(rt.prog, k, v * times) for k, v in bundle.items() if v) or "nothing"


# ------------------------------------------------------------------ queries
@builtin("holding", 2, gives_number=True)
def _holding(rt, seat, names):
    """``holding(s, "sand")`` or ``holding(s, ["sand", "wood"])``: what seat s holds of these counters, summed."""
    _seat(rt, seat)
    names = [names] if isinstance(names, str) else list(names)
    return sum(held(rt, seat, n) for n in names)


@builtin("times_payable", 2, gives_number=True)
def _times_payable(rt, seat, bundle):
    """How many whole times seat can pay a bundle (10**9 for an empty bundle)."""
    _seat(rt, seat)
    b = _bundle(bundle)
    best = UNLIMITED
    for name, amount in b.items():
        if amount:
            best = min(best, held(rt, seat, name) // amount)
    return best


@builtin("can_pay", 2, 3)
def _can_pay(rt, seat, bundle, times=1):
    """Whether seat holds ``times`` x the bundle."""
    return _times_payable(rt, seat, bundle) >= times


@builtin("excess", 3, numbers=(2,), gives_number=True)
def _excess(rt, seat, names, limit):
    """How far seat's holding of these counters (summed) is above ``limit`` (0 when within it)."""
    return max(0, _holding(rt, seat, names) - limit)


# ------------------------------------------------------------------ procedures
@procedure("gain_named", 3)
def _gain_named(rt, node, seat, name, amount):
    """``do gain_named(s, "stone", 2)``: gain a counter given by name (cap and supply kept)."""
    got = add(rt, _seat(rt, seat), name, _whole(amount))
    _say(
        rt,
        node,
        f"{rt.seat_name(seat)} gains {counter_amount(rt.prog, name, got)}",
        "gain",
        seat=seat,
        counter=name,
        amount=got,
    )


@procedure("pay_named", 3)
def _pay_named(rt, node, seat, name, amount):
    """``do pay_named(s, "stone", 2)``: pay a counter given by name; an error if not held (a rules bug)."""
    take(rt, _seat(rt, seat), name, _whole(amount))
    _say(
        rt,
        node,
        f"{rt.seat_name(seat)} pays {counter_amount(rt.prog, name, amount)}",
        "pay",
        seat=seat,
        counter=name,
        amount=amount,
    )


@procedure("return_named", 3)
def _return_named(rt, node, seat, name, amount):
    """``do return_named(s, "marble", 1)``: put back a counter given by name, as ``pay_named`` takes it
    (to its supply counter when it has one), but narrated as a return, not a payment: ``P1 returns 1
    marble to the supply``."""
    take(rt, _seat(rt, seat), name, _whole(amount))
    if rt.narrate:
        _say(
            rt,
            node,
            f"{rt.seat_name(seat)} returns {counter_amount(rt.prog, name, amount)} to the supply",
            "pay",
            seat=seat,
            counter=name,
            amount=amount,
        )


@procedure("gain_upto", 4)
def _gain_upto(rt, node, seat, name, amount, ceiling):
    """``do gain_upto(s, "gold", n, 30)``: gain, but never above ``ceiling``; the excess is lost."""
    _seat(rt, seat)
    room = max(0, _whole(ceiling, "ceiling") - held(rt, seat, name))
    got = add(rt, seat, name, min(_whole(amount), room))
    lost = amount - got
    _say(
        rt,
        node,
        f"{rt.seat_name(seat)} gains {counter_amount(rt.prog, name, got)}"
        + (f" ({lost} lost at the limit)" if lost else ""),
        "gain",
        seat=seat,
        counter=name,
        amount=got,
    )


@procedure("lose", 3)
def _lose(rt, node, seat, name, amount):
    """``do lose(s, "vp", 2)``: lose up to ``amount``; a counter never goes below 0."""
    _seat(rt, seat)
    n = min(_whole(amount), held(rt, seat, name))
    take(rt, seat, name, n)
    _say(
        rt,
        node,
        f"{rt.seat_name(seat)} loses {counter_amount(rt.prog, name, n)}",
        "pay",
        seat=seat,
        counter=name,
        amount=n,
    )


@procedure("pay_or_penalty", 5)
def _pay_or_penalty(rt, node, seat, name, amount, penalty, per):
    """A compulsory payment: pay what can be paid of ``amount``; for the unpaid rest U lose U // per of
    ``penalty`` (never below 0). ``do pay_or_penalty(s, "gold", tax, "vp", 2)``."""
    _seat(rt, seat)
    amount, per = _whole(amount), _whole(per, "per")
    paid = min(amount, held(rt, seat, name))
    take(rt, seat, name, paid)
    unpaid = amount - paid
    loss = min(unpaid // per if per else 0, held(rt, seat, penalty))
    take(rt, seat, penalty, loss)
    text = f"{rt.seat_name(seat)} pays {counter_amount(rt.prog, name, paid)}"
    if unpaid:
        text += f", {unpaid} unpaid: loses {counter_amount(rt.prog, penalty, loss)}"
    _say(rt, node, text, "pay", seat=seat)


@procedure("gain_bundle", 2, 3)
def _gain_bundle(rt, node, seat, bundle, times=1):
    """``do gain_bundle(s, card.output)``: gain every counter of a bundle (``times`` over)."""
    _seat(rt, seat)
    b = _bundle(bundle)
    got = {name: add(rt, seat, name, _whole(amount) * _whole(times, "times")) for name, amount in b.items()}
    lost = sum(_whole(amount) * times for amount in b.values()) - sum(got.values())
    _say(
        rt,
        node,
        f"{rt.seat_name(seat)} gains {_show(rt, got, 1)}" + (f" ({lost} lost at the limit)" if lost else ""),
        "gain",
        seat=seat,
    )


@procedure("pay_bundle", 2, 3)
def _pay_bundle(rt, node, seat, bundle, times=1):
    """``do pay_bundle(s, card.input)``: pay every counter of a bundle (``times`` over); all or nothing."""
    _seat(rt, seat)
    b = _bundle(bundle)
    if _times_payable(rt, seat, b) < times:
        raise PlayError(f"{rt.seat_name(seat)} cannot pay {_show(rt, b, times)}", code="play/cannot-pay")
    for name, amount in b.items():
        take(rt, seat, name, _whole(amount) * _whole(times, "times"))
    _say(rt, node, f"{rt.seat_name(seat)} pays {_show(rt, b, times)}", "pay", seat=seat)
