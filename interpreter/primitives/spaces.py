"""Placement spaces: named locations with a number of spaces each, listed in the order they resolve.

``boards: {NAME: {kind: spaces, locations: [{id: ID, spaces: N, pick: BOOL, ...}, ...]}}``.
Locations are listed in resolution order (a location with ``spaces: 0`` is a step that takes no
piece but keeps its place in the order). At a location with ``pick: true`` the placer picks the
space (spot ``ID.1``, ``ID.2``, ...: each space has its own reward); elsewhere pieces fill the
spaces in placement order (spot ``ID``: the first piece placed takes space 1). Any other keys of a
location are data for the rules (``location_info``). State: ``{ID: [occupant or null per space]}``.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime.boards import board, board_event, board_kind, board_renderer
from mason.runtime.values import label_of


def _locations(definition):
    locs = definition.get("locations")
    if not isinstance(locs, list) or not all(isinstance(l, dict) and isinstance(l.get("id"), str) for l in locs):
        raise PlayError("a spaces board needs 'locations': a list of {id, spaces}", code="definition/board")
    return locs


@board_kind("spaces")
def _build(definition, players, table):
    return {loc["id"]: [None] * int(loc.get("spaces", 1)) for loc in _locations(definition)}


def _def(rt, name):
    d = rt.prog.boards.get(name) or {}
    if d.get("kind") != "spaces":
        raise PlayError(f"board '{name}' is not a spaces board", code="play/type")
    return d


def _loc(rt, name, loc):
    b = board(rt, name)
    if loc not in b:
        raise PlayError(f"board '{name}' has no location '{loc}'", code="play/unknown")
    return b[loc]


@builtin("locations", 1)
def _locations_q(rt, name):
    """Location ids in resolution order."""
    return [l["id"] for l in _locations(_def(rt, name))]


@builtin("location_info", 2)
def _info(rt, name, loc):
    """The location's declaration (its extra keys are data for the rules: ``location_info(b, l)["reward"]``)."""
    for l in _locations(_def(rt, name)):
        if l["id"] == loc:
            return dict(l)
    raise PlayError(f"board '{name}' has no location '{loc}'", code="play/unknown")


@builtin("open_spots", 1)
def _open(rt, name):
    """Where a piece can go now: ``ID`` for a location filled in order, ``ID.k`` for free space k of a
    pick location; in resolution order."""
    b = board(rt, name)
    out = []
    for l in _locations(_def(rt, name)):
        spaces = b[l["id"]]
        if l.get("pick"):
            out += [f"{l['id']}.{i + 1}" for i, o in enumerate(spaces) if o is None]
        elif None in spaces:
            out.append(l["id"])
    return out


@builtin("spot_location", 1)
def _spot_location(rt, spot):
    """The location id of a spot (``"market"`` for ``"market"``, ``"bridge"`` for ``"bridge.2"``)."""
    return str(spot).partition(".")[0]


@builtin("occupants", 2)
def _occupants(rt, name, loc):
    """One entry per space of the location, in space order: its occupant, or none."""
    return list(_loc(rt, name, loc))


@builtin("seats_at", 2)
def _seats_at(rt, name, loc):
    """The occupants of a location in space order, empty spaces left out (a seat may appear twice)."""
    return [o for o in _loc(rt, name, loc) if o is not None]


@procedure("place_at", 3)
def _place(rt, node, name, spot, who):
    """``do place_at(b, spot, s)``: put s's piece on a spot given by ``open_spots``."""
    loc, _, k = str(spot).partition(".")
    spaces = _loc(rt, name, loc)
    if k:
        if not k.isdigit() or not 1 <= int(k) <= len(spaces) or spaces[int(k) - 1] is not None:
            raise PlayError(f"space {spot} is not free", code="play/occupied")
        i = int(k) - 1
    else:
        if None not in spaces:
            raise PlayError(f"location {loc} is full", code="play/occupied")
        i = spaces.index(None)
    spaces[i] = who
    if rt.narrate:
        place = next((l for l in _locations(_def(rt, name)) if l.get("id") == loc), None)
        where = label_of(place, loc) + (f" (space {i + 1})" if len(spaces) > 1 else "")
        text = f"{rt.seat_name(who) if isinstance(who, int) else who} is placed at {where}"
        board_event(rt, node, name, "place", text, location=loc, space=i + 1, piece=who)


@procedure("clear_spots", 1)
def _clear(rt, node, name):
    """Every piece leaves the board."""
    b = board(rt, name)
    _def(rt, name)
    for loc in b:
        b[loc] = [None] * len(b[loc])
    if rt.narrate:
        board_event(rt, node, name, "clear", None)


@board_renderer("spaces")
def _render(program, name, data, seat):
    def who(o):
        return "-" if o is None else (f"P{o + 1}" if isinstance(o, int) and not isinstance(o, bool) else str(o))

    out = [f"{name.replace('_', ' ')}:"]
    for i, l in enumerate(program.boards[name]["locations"], 1):
        spaces = data.get(l["id"], [])
        if not spaces:
            continue
        out.append(f"  {i:>2}. {label_of(l, l['id'])}: " + " ".join(f"[{who(o)}]" for o in spaces))
    return out
