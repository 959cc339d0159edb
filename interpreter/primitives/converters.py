"""Converters: components that turn an input bundle into an output bundle, a limited number of times a round.

A converter is a card whose type has the properties ``input`` and ``output`` (bundles: counter name
-> amount; an empty or missing ``input`` means the card needs nothing) and whose card state has
``uses`` (declare ``card_state: {uses: 0}``). The use limit is given by the caller, so that a named
value (with modifiers: a one-round boost, a permanent upgrade) can decide it.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.primitives.ledger import _bundle, _seat, _times_payable, _whole, add, take


def _card(rt, c):
    if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < len(rt.cards):
        raise PlayError(f"expected a card, got {c!r}", code="play/type")
    return c


def _prop(rt, c, name):
    return _bundle(rt.types[rt.cards[c]["t"]].get(name))


@builtin("convert_max", 3)
def _convert_max(rt, seat, card, limit):
    """How many more uses of converter ``card`` seat can make now: the uses left under ``limit``, and
    no more than the input held pays for."""
    _seat(rt, seat)
    c = _card(rt, card)
    left = max(0, _whole(limit, "limit") - int(rt.cards[c].get("uses") or 0))
    return min(left, _times_payable(rt, seat, _prop(rt, c, "input")))  # an empty input never limits


@procedure("convert", 2, 3)
def _convert(rt, node, seat, card, times=1):
    """``do convert(s, c, n)``: pay the input n times, gain the output n times, count n uses."""
    _seat(rt, seat)
    c = _card(rt, card)
    n = _whole(times, "times")
    inp, out = _prop(rt, c, "input"), _prop(rt, c, "output")
    if _times_payable(rt, seat, inp) < n:
        raise PlayError(
            f"{rt.seat_name(seat)} lacks the input for {n} use(s) of {rt.card_name(c)}", code="play/cannot-pay"
        )
    for name, amount in inp.items():
        take(rt, seat, name, amount * n)
    got = {name: add(rt, seat, name, amount * n) for name, amount in out.items()}
    rt.cards[c]["uses"] = int(rt.cards[c].get("uses") or 0) + n
    if rt.narrate:
        spent = ", ".join(f"{a * n} {k}" for k, a in inp.items() if a) or "nothing"
        gained = ", ".join(f"{a} {k}" for k, a in got.items()) or "nothing"
        rt.say(
            f"{rt.seat_name(seat)} uses {rt.card_name(c)} x{n}: {spent} -> {gained}",
            node,
            type="trade",
            seat=seat,
            times=n,
            **({"card": c} if rt._may_see(c, None) else {}),  # a card some seat may not see is not named
            paid={k: a * n for k, a in inp.items() if a},
            got={k: a for k, a in got.items() if a},
        )


@procedure("reset_uses", 1)
def _reset_uses(rt, node, cards):
    """``do reset_uses(cards("machine"))``: every listed card starts the next round with 0 uses."""
    for c in [cards] if isinstance(cards, int) else list(cards or ()):
        rt.cards[_card(rt, c)]["uses"] = 0
