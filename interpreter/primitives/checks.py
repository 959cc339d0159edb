"""Rule-side checks: ``do fail(...)`` stops a game with a one-line error naming the rule place.

Games use it where a setting can only be checked while playing, e.g. a game option whose value
must name a component (``--option NAME=COMPONENT_ID``): setup runs when the game starts, so a bad
value is refused before the first decision, with the option's name in the message.
"""

from __future__ import annotations

from mason.dsl.builtins import procedure
from mason.errors import PlayError


def _text(rt, v) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(_text(rt, x) for x in v) + "]"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@procedure("fail", 1, 9)
def _fail(rt, node, *parts):
    """Stop the game with an error: the parts (text, numbers, lists) are joined into its message."""
    raise PlayError("".join(_text(rt, p) for p in parts), node.place, "play/failed")
