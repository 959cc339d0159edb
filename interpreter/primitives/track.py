"""Reward tracks: one marker per seat on each named track, moving between step 0 and a top step.

``boards: {NAME: {kind: track, tracks: {TRACK: {steps: [STEP, ...], over_top: DATA, label: TEXT}}, start: N}}``

- ``steps`` lists the steps from step 0 (the start) to the top; each step is a mapping of data for
  the rules (``{when: round_end, reward: coin}``, ``{}``): the track itself never reads it.
- A marker never passes the top step nor goes below step 0 (``track_move`` clamps). ``over_top``
  is optional data saying what a move beyond the top gives; the rules apply it (``track_at_top``
  before the move tells them when).
- ``start`` (default 0) is every seat's starting step on every track. ``label`` shapes narration.

State: ``{TRACK: [position per seat]}``.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime.boards import board, board_event, board_kind, board_model
from mason.runtime.values import label_of


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_definition(definition: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a track board declaration as (message, key) pairs (empty when it is fine)."""
    tracks = definition.get("tracks")
    if not isinstance(tracks, dict) or not tracks:
        return [("tracks must map a track name to {steps: [...], over_top: {...}}", "tracks")]
    out: list[tuple[str, str | None]] = []
    for t, td in tracks.items():
        steps = td.get("steps") if isinstance(td, dict) else None
        if not isinstance(steps, list) or not steps or not all(isinstance(s, dict) for s in steps):
            out.append((f"track '{t}': steps must be a non-empty list of mappings (step 0 first)", "tracks"))
        elif "over_top" in td and not isinstance(td["over_top"], (dict, type(None))):
            out.append((f"track '{t}': over_top must be a mapping of data", "tracks"))
    start = definition.get("start", 0)
    if not _is_int(start) or start < 0:
        out.append(("start must be a whole number >= 0", "start"))
    else:
        short = [
            t
            for t, td in tracks.items()
            if isinstance(td, dict) and isinstance(td.get("steps"), list) and start >= len(td["steps"])
        ]
        if short:
            out.append((f"start {start} is beyond the top of {', '.join(short)}", "start"))
    return out


@board_kind("track", check=check_definition)
def build(definition: dict, players: int, table: dict) -> dict:
    """A track board's starting state: every seat's marker on the start step of every track."""
    problems = check_definition(definition)
    if problems:
        raise PlayError(f"track board: {problems[0][0]}", code="definition/board")
    start = definition.get("start", 0)
    return {t: [start] * players for t in definition["tracks"]}


def _def(rt, name):
    d = rt.prog.boards.get(name) if isinstance(name, str) else None
    if d is None or d.get("kind") != "track":
        raise PlayError(f"'{name}' is not a track board", code="play/type")
    return d


def _track(rt, name, t) -> dict:
    tracks = _def(rt, name)["tracks"]
    if not isinstance(t, str) or t not in tracks:
        raise PlayError(f"track board '{name}' has no track {t!r}", code="play/unknown")
    return tracks[t]


def _seat(rt, s):
    if not _is_int(s) or not 0 <= s < rt.st["n"]:
        raise PlayError(f"not a seat: {s!r}", code="play/no-seat")
    return s


# ==================================================================== queries
@builtin("track_names", 1)
def _names(rt, name):
    """The tracks of a track board, in declaration order."""
    return list(_def(rt, name)["tracks"])


@builtin("track_pos", 3)
def _pos(rt, name, t, seat):
    """The step where seat's marker stands on track t (0 = start)."""
    _track(rt, name, t)
    return board(rt, name)[t][_seat(rt, seat)]


@builtin("track_top", 2)
def _top(rt, name, t):
    """The index of the top step of track t."""
    return len(_track(rt, name, t)["steps"]) - 1


@builtin("track_step", 3)
def _step(rt, name, t, i):
    """The data of step i of track t (a dict; ``{}`` for a bare step)."""
    steps = _track(rt, name, t)["steps"]
    if not _is_int(i) or not 0 <= i < len(steps):
        raise PlayError(f"track '{t}' has no step {i!r} (0..{len(steps) - 1})", code="play/index")
    return dict(steps[i])


@builtin("track_over_top", 2)
def _over_top(rt, name, t):
    """What a move beyond the top of track t gives (its ``over_top`` data), or none."""
    data = _track(rt, name, t).get("over_top")
    return dict(data) if isinstance(data, dict) else None


@builtin("track_reached", 3, 5)
def _reached(rt, name, t, seat, key=None, value=None):
    """The data of steps 1..seat's position on track t; ``track_reached(b, t, s, "when", "final")``: only
    those whose ``when`` is ``"final"`` (with a key alone: those that have it)."""
    steps = _track(rt, name, t)["steps"]
    pos = board(rt, name)[t][_seat(rt, seat)]
    out = [dict(st) for st in steps[1 : pos + 1]]
    if key is None:
        return out
    if value is None:
        return [st for st in out if st.get(key) is not None]
    return [st for st in out if st.get(key) == value]


@builtin("track_at_top", 3)
def _at_top(rt, name, t, seat):
    """Whether seat's marker stands on the top step of track t."""
    return _pos(rt, name, t, seat) == _top(rt, name, t)


# ==================================================================== procedures
def _go(rt, node, name, t, seat, new):
    positions = board(rt, name)[t]
    old = positions[seat]
    positions[seat] = new
    if rt.narrate and new != old:
        label = label_of(_track(rt, name, t), t)
        text = f"{rt.seat_name(seat)}'s {label} marker {old} -> {new}"
        board_event(rt, node, name, "move", text, track=t, seat=seat, source=old, dest=new)


@procedure("track_move", 4)
def _move(rt, node, name, t, seat, n):
    """``do track_move(b, t, s, n)``: move seat's marker n steps (n < 0: back), stopping at 0 and at the top."""
    top = _top(rt, name, t)
    _seat(rt, seat)
    if not _is_int(n):
        raise PlayError(f"a track move is a whole number of steps, got {n!r}", code="play/type")
    _go(rt, node, name, t, seat, max(0, min(top, board(rt, name)[t][seat] + n)))


@procedure("track_set", 4)
def _set(rt, node, name, t, seat, i):
    """``do track_set(b, t, s, i)``: put seat's marker on step i (0..top)."""
    top = _top(rt, name, t)
    _seat(rt, seat)
    if not _is_int(i) or not 0 <= i <= top:
        raise PlayError(f"track '{t}' has no step {i!r} (0..{top})", code="play/index")
    _go(rt, node, name, t, seat, i)


# ==================================================================== picture
@board_model("track")
def board_model_(program, name, data) -> dict:
    """``tracks``: [{id, label, top, positions (per seat), steps}] (a step's rewards as declared)."""
    d = program.boards[name]
    out = []
    for t, td in d["tracks"].items():
        out.append(
            {
                "id": t,
                "label": label_of(td, t),
                "top": len(td["steps"]) - 1,
                "positions": list(data[t]),
                "steps": [dict(st) if isinstance(st, dict) else st for st in td["steps"]],
            }
        )
    return {"tracks": out}
