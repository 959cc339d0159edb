"""Turns the rules play for a seat: ``do announce_turn(s)`` logs a ``turn`` entry for it.

A player's turn (the ``turn`` statement) logs its own ``turn`` entry. A seat whose turn the rules
play themselves (an automated seat's, run by a trigger: take a tile, move a marker) has no turn
frame; calling ``announce_turn`` where that turn begins gives it the same entry, so that a reader of
the log (docs/log-format.md) sees where each seat's turn starts, automated or not.
"""

from __future__ import annotations

from mason.dsl.builtins import procedure
from mason.errors import PlayError


@procedure("announce_turn", 1)
def _announce_turn(rt, node, seat):
    """``do announce_turn(s)``: log that seat s's turn begins (a ``turn`` entry, ``automated`` when an
    automaton plays the seat), as a player's turn is logged; nothing else changes."""
    if type(seat) is not int or not 0 <= seat < rt.st["n"]:
        raise PlayError(f"announce_turn needs a seat, got {seat!r}", code="play/no-seat")
    if rt.narrate:
        automated = str(seat) in (rt.st.get("automata") or {})
        rt.say(
            f"-- {rt.seat_name(seat)} plays --",
            node,
            turn=True,
            type="turn",
            seat=seat,
            **({"automated": True} if automated else {}),
        )
