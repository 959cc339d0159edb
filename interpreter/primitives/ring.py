"""A ring: a closed loop of places listed clockwise, for sowing pieces and for pawns and markers.

``boards: {NAME: {kind: ring, places: [ID, ...]}}`` (places clockwise; the last is followed by the
first) with optional ``capacity`` (most pieces per place; omitted: unlimited), ``labels`` (``{ID:
text}``, how places are shown), ``tokens`` (kinds of tokens a place holds in any number),
``pieces`` (``{ID: [piece, ...]}`` at the start; a piece is any plain value, e.g. a colour),
``markers`` (``{NAME: start boundary}``; boundary i lies between ``places[i]`` and
``places[i + 1]``, the last between the last place and the first), ``step_cost`` (``{free: F,
each: E}``, defaults 0 and 1: a pawn's first F steps are free, each further one costs E),
``piece`` (the word for a piece in narration and pictures; default ``piece``) and ``pawn`` (the
word for a pawn there, e.g. ``ship``; default ``pawn``).

Sowing: ``ring_pick_up`` lifts a place's pieces into the hand (*held*) and puts the *cursor*
there; each ``ring_drop`` puts a held piece on the next non-full place clockwise (full places are
passed free); ``ring_drop_at`` may carry the last one further (the rules charge for what it skips,
``ring_skipped``). Pawns (keyed by a seat or a name, stored as strings) stand on places; markers
stand on boundaries and move clockwise.

State: ``{"pieces": {ID: [..]}, "tokens": {ID: {kind: n}}, "pawns": {key: ID}, "markers":
{NAME: boundary}, "held": [..], "cursor": ID or null, "last": [ID, piece] or null}``.
"""

from __future__ import annotations

import json

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError, did_you_mean
from mason.runtime.boards import board, board_event, board_kind, board_model, declaration, ids_code, state_code

KEYS = (
    "status",
    "text",
    "kind",
    "places",
    "capacity",
    "labels",
    "tokens",
    "pieces",
    "markers",
    "step_cost",
    "piece",
    "pawn",
)


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ==================================================================== declaration
def check_definition(d: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a ring declaration as (message, key) pairs (empty when it is fine)."""
    out = [(f"unknown key '{k}'{did_you_mean(k, KEYS)}", k) for k in d if k not in KEYS]
    places = d.get("places")
    if not isinstance(places, list) or not places or not all(isinstance(p, str) and p for p in places):
        return out + [("places must be a non-empty list of place ids (strings), clockwise", "places")]
    out += [(f"place '{p}' is listed twice", "places") for p in sorted(set(places)) if places.count(p) > 1]
    cap = d.get("capacity")
    if cap is not None and (not _whole(cap) or cap < 1):
        out.append(("capacity must be a whole number >= 1 (omit it for no limit)", "capacity"))
        cap = None

    labels, tokens, pieces = d.get("labels", {}), d.get("tokens", []), d.get("pieces", {})
    if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
        out.append(("labels must map a place id to its text", "labels"))
    else:
        out += [(f"labels: no place '{p}'{did_you_mean(p, places)}", "labels") for p in labels if p not in places]
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens) or len(set(tokens)) < len(tokens):
        out.append(("tokens must be a list of distinct token kinds", "tokens"))
    if not isinstance(pieces, dict) or not all(isinstance(v, list) for v in pieces.values()):
        out.append(("pieces must map a place id to its list of pieces", "pieces"))
    else:
        out += [(f"pieces: no place '{p}'{did_you_mean(p, places)}", "pieces") for p in pieces if p not in places]
        out += [
            (f"pieces: '{p}' starts with {len(v)} pieces, over the capacity {cap}", "pieces")
            for p, v in pieces.items()
            if cap is not None and len(v) > cap
        ]
    markers, cost = d.get("markers", {}), d.get("step_cost", {})
    if not isinstance(markers, dict):
        out.append(("markers must map a marker name to its start boundary", "markers"))
    else:
        out += [
            (f"marker '{m}': the start boundary must be between 0 and {len(places) - 1}", "markers")
            for m, i in markers.items()
            if not _whole(i) or not 0 <= i < len(places)
        ]
    if not isinstance(cost, dict) or any(k not in ("free", "each") or not _whole(v) or v < 0 for k, v in cost.items()):
        out.append(("step_cost must be {free: N, each: N} with whole numbers >= 0", "step_cost"))
    for word in ("piece", "pawn"):
        if not isinstance(d.get(word, word), str):
            out.append((f"{word} must be a word", word))
    return out


@board_kind("ring", check=check_definition)
def _build(d, players, table):
    problems = check_definition(d)
    if problems:
        raise PlayError(f"ring board: {problems[0][0]}", code="definition/board")
    start = d.get("pieces") or {}
    return {
        "pieces": {p: list(start.get(p, [])) for p in d["places"]},
        "tokens": {p: {t: 0 for t in d.get("tokens", [])} for p in d["places"]},
        "pawns": {},
        "markers": dict(d.get("markers") or {}),
        "held": [],
        "cursor": None,
        "last": None,
    }


# ==================================================================== helpers
def _ring(rt, name, *places):
    """The declaration and the state of a ring board (the places given must be on it)."""
    d = rt.prog.boards.get(name) if isinstance(name, str) else None
    if d is None or d.get("kind") != "ring":
        raise PlayError(f"'{name}' is not a ring board", code="play/type")
    for place in places:
        _index(d, name, place)
    data = rt.st["boards"].get(name)  # as board(), which says when the state has no such board
    return d, data if data is not None else board(rt, name)


def _index(d, name, place) -> int:
    try:
        return d["places"].index(place)
    except ValueError:
        raise PlayError(
            f"ring '{name}' has no place {place!r}{did_you_mean(place, d['places'])}", code="play/unknown"
        ) from None


def _int(v, what) -> int:
    if not _whole(v):
        raise PlayError(f"{what} must be a whole number, got {v!r}", code="play/type")
    return v


def _full(d, data, place) -> bool:
    cap = d.get("capacity")
    return cap is not None and len(data["pieces"][place]) >= cap


def _open_after(d, data, place):
    """The first non-full place clockwise after ``place`` (itself after a whole lap), or None."""
    places, i = d["places"], d["places"].index(place)
    for k in range(1, len(places) + 1):
        p = places[(i + k) % len(places)]
        if not _full(d, data, p):
            return p
    return None


def _key(key) -> str:
    if _whole(key) or isinstance(key, str):
        return str(key)
    raise PlayError(f"a pawn is keyed by a seat or a name, not {key!r}", code="play/type")


def _marker(d, data, name, marker) -> int:
    if marker not in data["markers"]:
        raise PlayError(
            f"ring '{name}' has no marker {marker!r}{did_you_mean(marker, data['markers'])}", code="play/unknown"
        )
    return data["markers"][marker]


def show(v) -> str:
    """A piece as text: a string as itself, anything else as compact JSON."""
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))


def _owner(rt, key: str) -> str:
    """Whose pawn, in narration: a seat's name (an automated seat's too), else the key."""
    return f"{rt.seat_name(int(key))}'s" if key.isdigit() else f"the {key}"


def pawn_name(key: str) -> str:
    """A pawn's name as shown: a seat's pawn as P1, P2, ...; a named pawn as itself."""
    return f"P{int(key) + 1}" if key.isdigit() else key


def _pawn_order(key: str):
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def _label(d, place) -> str:
    return (d.get("labels") or {}).get(place, place)


def _say(rt, node, name, op, text, **fields):
    """Narrate a change of the ring as a typed ``board`` event with its fields."""
    if rt.narrate:
        board_event(rt, node, name, op, text, **fields)


# ==================================================================== geometry
@builtin("ring_places", 1, static=lambda program, name: list(declaration(program, name, "ring")["places"]))
def _places(rt, name):
    """The place ids, clockwise."""
    return list(_ring(rt, name)[0]["places"])


@builtin("ring_next", 2, 3)
def _next(rt, name, place, k=1):
    """The place ``k`` steps clockwise (default 1; a negative k goes anticlockwise)."""
    d = _ring(rt, name)[0]
    return d["places"][(_index(d, name, place) + _int(k, "steps")) % len(d["places"])]


def _distance_code(program, name, *rest) -> str | None:
    """``ring_distance`` read in place: clockwise steps between the places' positions (the first of
    an id, as ``_index`` finds it); a place the ring lacks raises, and the builtin says so. None (a
    name that is no ring, ids a template cannot hold): the builtin is called."""
    places = declaration(program, name, "ring")["places"]
    ids = ids_code(places)
    return None if ids is None else f"((-{ids}.index({{1}}) + {ids}.index({{2}})) % {len(places)})"


def _move_cost_code(program, name, *rest) -> str | None:
    """``ring_move_cost`` read in place: the ring's step cost is part of its declaration."""
    cost = declaration(program, name, "ring").get("step_cost") or {}
    free, each = cost.get("free", 0), cost.get("each", 1)
    if not (_whole(free) and _whole(each)):
        return None
    # steps not a whole number: an IndexError, and the builtin gives its message
    return f"(max(0, _st - {free}) * {each} if type(_st := {{1}}) is int else _bail())"


@builtin("ring_distance", 3, code=_distance_code)
def _distance(rt, name, a, c):
    """Clockwise steps from place a to place c (0 .. number of places - 1)."""
    d = _ring(rt, name)[0]
    return (_index(d, name, c) - _index(d, name, a)) % len(d["places"])


# ==================================================================== pieces and tokens
def _state_code(template: str):
    """A ring query's ``code`` hook (runtime.boards.state_code)."""
    return state_code("ring", template)


@builtin("ring_pieces", 2, code=_state_code("list(rt.st['boards'][{0}]['pieces'][{1}])"))
def _pieces(rt, name, place):
    """The pieces on a place, in the order they arrived."""
    d, data = _ring(rt, name, place)
    return list(data["pieces"][place])


@builtin("ring_count", 2, code=_state_code("len(rt.st['boards'][{0}]['pieces'][{1}])"))
def _count(rt, name, place):
    """How many pieces a place holds."""
    return len(_pieces(rt, name, place))


@builtin("ring_full", 2)
def _full_q(rt, name, place):
    """Whether a place holds as many pieces as the capacity allows (never, without a capacity)."""
    d, data = _ring(rt, name, place)
    return _full(d, data, place)


@builtin("ring_tokens", 3, code=_state_code("rt.st['boards'][{0}]['tokens'][{1}][{2}]"))
def _tokens(rt, name, place, kind):
    """How many tokens of a kind lie on a place."""
    d, data = _ring(rt, name, place)
    if kind not in data["tokens"][place]:
        raise PlayError(f"ring '{name}' has no token kind {kind!r}", code="play/unknown")
    return data["tokens"][place][kind]


# ==================================================================== sowing
@builtin("ring_held", 1, code=_state_code("list(rt.st['boards'][{0}]['held'])"))
def _held(rt, name):
    """The picked-up pieces not yet dropped."""
    return list(_ring(rt, name)[1]["held"])


@builtin("ring_next_open", 1)
def _next_open(rt, name):
    """Where the next dropped piece lands: the first non-full place clockwise after the cursor;
    none if there is none (or nothing was picked up)."""
    d, data = _ring(rt, name)
    return None if data["cursor"] is None else _open_after(d, data, data["cursor"])


@builtin("ring_sow_end", 2)
def _sow_end(rt, name, place):
    """Where the last of a place's pieces would land if they were picked up and sown now, without a
    skip (each on the next non-full place, as ``ring_drop`` puts them): an option's preview; none
    when the place is empty, pieces are held, or they would find no room."""
    d, data = _ring(rt, name, place)
    places, cap = d["places"], d.get("capacity")
    n = len(data["pieces"][place])
    if not n or data["held"]:
        return None
    counts = {p: len(v) for p, v in data["pieces"].items()}
    counts[place], at = 0, places.index(place)
    for _ in range(n):
        for k in range(1, len(places) + 1):
            q = places[(at + k) % len(places)]
            if cap is None or counts[q] < cap:
                break
        else:
            return None
        counts[q] += 1
        at = places.index(q)
    return places[at]


@builtin("ring_landings", 1, 2)
def _landings(rt, name, extra=None):
    """Where the last held piece may go: its natural landing (``ring_next_open``), then every
    non-full place among the next ``extra`` places clockwise after it (default: places - 1, so
    never a whole lap; the emptied pick-up place counts like any other); [] unless exactly one
    piece is held."""
    d, data = _ring(rt, name)
    n = len(d["places"])
    extra = n - 1 if extra is None else _int(extra, "extra")
    if extra < 0:
        raise PlayError(f"extra must be >= 0, got {extra}", code="play/type")
    return _landings_of(d, data, extra)


def _landings_of(d, data, extra: int) -> list:
    """``ring_landings`` of a ring's declaration and state (``extra`` checked)."""
    places, n = d["places"], len(d["places"])
    first = None if data["cursor"] is None else _open_after(d, data, data["cursor"])  # ring_next_open
    if len(data["held"]) != 1 or first is None:
        return []
    i = places.index(first)
    cap, pieces = d.get("capacity"), data["pieces"]  # as _full, for each place
    out = [first]
    for k in range(i + 1, i + min(extra, n - 1) + 1):  # one loop: a query of every sowing decision
        p = places[k % n]
        if cap is None or len(pieces[p]) < cap:
            out.append(p)
    return out


@builtin("ring_skipped", 2)
def _skipped(rt, name, place):
    """The non-full places a deliberate skip to ``place`` passes: from the natural landing
    (included) to ``place`` (excluded); [] for the natural landing; full places pass free."""
    d, data = _ring(rt, name, place)
    landings = _landings_of(d, data, len(d["places"]) - 1)
    if place not in landings:
        raise PlayError(f"{_label(d, place)} is not a landing of the last held piece", code="play/illegal-state")
    return landings[: landings.index(place)]


@builtin("ring_last", 1)
def _last(rt, name):
    """``[place, piece]`` of the last piece dropped since the last pick-up, or none."""
    last = _ring(rt, name)[1]["last"]
    return None if last is None else list(last)


# ==================================================================== pawns and markers
@builtin(
    "pawn_at",
    2,  # a seat or a name as the key, as _key takes it; anything else an IndexError: the builtin says why
    code=state_code(
        "ring", "rt.st['boards'][{0}]['pawns'].get(str(_k) if type(_k := {1}) is int or type(_k) is str else _bail())"
    ),
)
def _pawn_at(rt, name, key):
    """The place a pawn (keyed by a seat or a name) stands on, or none."""
    return _ring(rt, name)[1]["pawns"].get(_key(key))


@builtin("pawns_at", 2)
def _pawns_at(rt, name, place):
    """The keys (as strings) of the pawns on a place, sorted (seats in seat order)."""
    d, data = _ring(rt, name, place)
    return sorted((k for k, p in data["pawns"].items() if p == place), key=_pawn_order)


@builtin("ring_move_cost", 2, code=_move_cost_code)
def _move_cost(rt, name, steps):
    """What moving a pawn ``steps`` costs: max(0, steps - free) * each."""
    cost = _ring(rt, name)[0].get("step_cost") or {}
    steps = _int(steps, "steps")
    return max(0, steps - cost.get("free", 0)) * cost.get("each", 1)


@builtin("ring_crosses", 4)
def _crosses(rt, name, place, steps, marker):
    """Whether moving ``steps`` clockwise from ``place`` crosses the marker's boundary (0 steps cross nothing)."""
    d, data = _ring(rt, name)
    i, m = _index(d, name, place), _marker(d, data, name, marker)
    steps = _int(steps, "steps")
    if steps < 0:
        raise PlayError(f"steps must be >= 0, got {steps}", code="play/type")
    return (m - i) % len(d["places"]) < steps


@builtin("marker_at", 2)
def _marker_at(rt, name, marker):
    """The boundary a marker stands on (boundary i lies after place i, clockwise)."""
    d, data = _ring(rt, name)
    return _marker(d, data, name, marker)


@builtin("marker_start", 2)
def _marker_start(rt, name, marker):
    """The boundary a marker started on (declared under ``markers``): ``marker_at(b, m) ==
    marker_start(b, m)`` after an advance means it came back."""
    d, data = _ring(rt, name)
    _marker(d, data, name, marker)
    return d["markers"][marker]


@builtin("marker_places", 2)
def _marker_places(rt, name, marker):
    """``[place before, place after]`` the marker's boundary, clockwise."""
    d, data = _ring(rt, name)
    m, places = _marker(d, data, name, marker), d["places"]
    return [places[m], places[(m + 1) % len(places)]]


# ==================================================================== procedures
def _pawn_field(key: str):
    """A pawn's key in an event: the seat as a number, else its name."""
    return int(key) if key.isdigit() else key


def _word(d, piece) -> str:
    return f"{show(piece)} {d.get('piece', 'piece')}"


@procedure("ring_put", 3)
def _put(rt, node, name, place, piece):
    """Put a piece on a place (refused when the place is full)."""
    d, data = _ring(rt, name, place)
    if _full(d, data, place):
        raise PlayError(f"{_label(d, place)} is full", code="play/occupied")
    data["pieces"][place].append(piece)
    _say(rt, node, name, "put", f"{_word(d, piece)} -> {_label(d, place)}", piece=piece, dest=place)


@procedure("ring_remove", 3)
def _remove(rt, node, name, place, piece):
    """Take one piece equal to ``piece`` off a place."""
    d, data = _ring(rt, name, place)
    if piece not in data["pieces"][place]:
        raise PlayError(f"no {_word(d, piece)} on {_label(d, place)}", code="play/illegal-state")
    data["pieces"][place].remove(piece)
    _say(rt, node, name, "remove", f"{_word(d, piece)} leaves {_label(d, place)}", piece=piece, source=place)


@procedure("ring_pick_up", 2)
def _pick_up(rt, node, name, place):
    """Every piece of a place goes to the hand (in place order); the cursor goes there; refused while pieces are held."""
    d, data = _ring(rt, name, place)
    if data["held"]:
        raise PlayError(f"{len(data['held'])} picked-up pieces are still to be dropped", code="play/illegal-state")
    data["held"], data["pieces"][place] = data["pieces"][place], []
    data["cursor"], data["last"] = place, None
    word = d.get("piece", "piece")
    what = ", ".join(show(p) for p in data["held"]) or "nothing"
    _say(
        rt,
        node,
        name,
        "pick_up",
        f"{word}s picked up from {_label(d, place)}: {what}",
        source=place,
        pieces=list(data["held"]),
    )


def _land(rt, node, name, d, data, piece, place, skipped=()):
    data["pieces"][place].append(piece)
    data["cursor"], data["last"] = place, [place, piece]
    if rt.narrate:
        passing = f" (passing {', '.join(_label(d, p) for p in skipped)})" if skipped else ""
        text = f"{_word(d, piece)} -> {_label(d, place)}{passing}"
        _say(rt, node, name, "drop", text, piece=piece, dest=place, skipped=list(skipped), held=len(data["held"]))


@procedure("ring_drop", 2)
def _drop(rt, node, name, piece):
    """One held piece equal to ``piece`` goes to ``ring_next_open``; refused if not held or nowhere to go."""
    d, data = _ring(rt, name)
    if piece not in data["held"]:
        raise PlayError(f"no {_word(d, piece)} is held", code="play/illegal-state")
    place = _next_open(rt, name)
    if place is None:
        raise PlayError(f"every place of '{name}' is full", code="play/occupied")
    data["held"].remove(piece)
    _land(rt, node, name, d, data, piece, place)


@procedure("ring_drop_at", 3)
def _drop_at(rt, node, name, piece, place):
    """The last held piece (equal to ``piece``) goes to ``place``, one of ``ring_landings``."""
    d, data = _ring(rt, name, place)
    if data["held"] != [piece]:
        raise PlayError(
            f"ring_drop_at needs the {_word(d, piece)} to be the only piece held "
            f"(held: {', '.join(show(p) for p in data['held']) or 'none'})",
            code="play/illegal-state",
        )
    skipped = _skipped(rt, name, place)
    data["held"] = []
    _land(rt, node, name, d, data, piece, place, skipped)


@procedure("ring_add_tokens", 4)
def _add_tokens(rt, node, name, place, kind, n):
    """Add ``n`` tokens of a kind to a place (``n`` may be negative; never below 0)."""
    d, data = _ring(rt, name)
    cur = _tokens(rt, name, place, kind)
    n = _int(n, "the number of tokens")
    if cur + n < 0:
        raise PlayError(f"{_label(d, place)} holds {cur} {kind}, cannot take {-n}", code="play/illegal-state")
    data["tokens"][place][kind] = cur + n
    if n:
        text = f"{kind.replace('_', ' ')} on {_label(d, place)}: {cur} -> {cur + n}"
        _say(rt, node, name, "tokens", text, where=place, token=kind, source=cur, dest=cur + n)


@procedure("pawn_put", 3)
def _pawn_put(rt, node, name, key, place):
    """Stand a pawn (keyed by a seat or a name) on a place; place none takes it off the ring."""
    d, data = _ring(rt, name)
    key = _key(key)
    if place is None:
        if data["pawns"].pop(key, None) is not None:
            text = f"{_owner(rt, key)} {d.get('pawn', 'pawn')} leaves the ring"
            _say(rt, node, name, "pawn", text, pawn=_pawn_field(key), dest=None)
        return
    _index(d, name, place)
    old = data["pawns"].get(key)
    data["pawns"][key] = place
    text = f"{_owner(rt, key)} {d.get('pawn', 'pawn')} -> {_label(d, place)}"
    _say(rt, node, name, "pawn", text, pawn=_pawn_field(key), source=old, dest=place)


@procedure("marker_advance", 2, 3)
def _marker_advance(rt, node, name, marker, k=1):
    """Move a marker ``k`` boundaries clockwise (default 1)."""
    d, data = _ring(rt, name)
    m = _marker(d, data, name, marker)
    data["markers"][marker] = (m + _int(k, "steps")) % len(d["places"])
    a, b = _marker_places(rt, name, marker)
    text = f"marker {marker} -> between {_label(d, a)} and {_label(d, b)}"
    _say(rt, node, name, "marker", text, marker=marker, steps=k, dest=data["markers"][marker], between=[a, b])


# ==================================================================== board model (docs/boards.md)
@board_model("ring")
def board_model_(program, name, data) -> dict:
    """``places`` clockwise: [{id, label, pieces, capacity, tokens, pawns}] (a pawn by its key: a seat's
    number as text), ``markers``: [{id, after}] (the place index a marker follows), ``held`` and
    ``cursor``, and the words ``piece`` and ``pawn``."""
    d = program.boards.get(name) or {}
    places = []
    for p in d.get("places") or []:
        pawns = sorted((k for k, at in data["pawns"].items() if at == p), key=_pawn_order)
        places.append(
            {
                "id": p,
                "label": _label(d, p),
                "pieces": [show(x) for x in data["pieces"].get(p, [])],
                "capacity": d.get("capacity"),
                "tokens": {k: v for k, v in (data["tokens"].get(p) or {}).items() if v},
                "pawns": [int(k) if k.isdigit() else k for k in pawns],
            }
        )
    return {
        "places": places,
        "markers": [{"id": m, "after": at} for m, at in sorted(data["markers"].items())],
        "held": [show(x) for x in data["held"]],
        "cursor": _label(d, data["cursor"]) if data["held"] else None,
        "piece": d.get("piece", "piece"),
        "pawn": d.get("pawn", "pawn"),
    }
