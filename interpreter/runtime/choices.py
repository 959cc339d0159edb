"""Choices: the choose statements, decisions waiting for an answer, and resuming with the answer.

A choice with several legal options stores a decision in ``state['pending']`` (seat, kind, prompt,
options, labels) and a frame naming the choice; ``resume`` applies a checked answer to that frame.
A choice with a single legal option resolves itself and is not a decision.
"""

from __future__ import annotations

from mason.dsl.builtins import MAX_NUMBER
from mason.errors import PlayError
from mason.runtime.answers import answered_in_place, check_answer  # noqa: F401  (check_answer: re-exported)
from mason.runtime.frames import Asking, BlockFrame, ChoiceFrame, Frame, Scoped
from mason.runtime.machine import place_text, push_or_run, run_inline
from mason.runtime.turns import action_keys, action_label, take_action
from mason.runtime.values import _plain, _seat_of, _visible_to, _zone_label, in_words, label_of, zone_key


def _chooser(rt, env, node):
    if node.by is not None:
        return _seat_of(rt, env, node.by, node)
    s = env.get("me")
    if s is None:
        s = rt.turn_seat_now
    if s is None:
        raise PlayError("who chooses? add 'by SEAT' to this choice", node.place, "play/no-seat")
    return s


def _ask(rt, env, node, fr, seat, options, subset=0):
    if rt.answerers is not None:
        pick = rt.answerers.get(seat)
        if pick is not None:  # a bot answers in place (runtime/answers.py): bound as resume binds it
            answer = answered_in_place(rt, pick, seat, options, subset, subset and node.ordered)
            _bind_choice(rt, env, node, fr, [options[i] for i in answer] if subset else options[answer])
            return
    st = rt.st
    labels = None  # bots need no labels: fill_labels computes them when a person or a log asks
    if rt.narrate:
        labels = _choice_labels(rt, node, env, seat, options)
    prompt = _text(rt, fr, node.prompt) or _default_prompt(node)
    if subset and node.ordered:
        prompt += ORDERED_NOTE
    st["pending"] = {
        "seat": seat,
        "kind": node.ckind,
        "prompt": prompt,
        "options": options,
        "labels": labels,
        "subset": subset,
        "at": place_text(node),
    }
    if rt.narrate and _value_keyed(node, options):
        st["pending"]["keys"] = [str(v) for v in options]
    if subset and node.ordered:
        st["pending"]["ordered"] = True  # only on such a choice: other decisions read as before
    frame: ChoiceFrame = {"kind": "choice", "node": node.id, "scope": fr["scope"]}
    st["stack"].append(frame)


ORDERED_NOTE = " (in order: the items are taken in the order you list them)"
"""Said after the prompt of an ``ordered`` choice (``choose ordered up to N ...``), whose answer's order counts."""


def _choice_labels(rt, node, env, seat, options) -> list[str]:
    """The options of a ``choose`` as labels: each item's label, where a card lies (``_locate``), and
    what ``showing "TEXT"`` adds, evaluated with the choice's name bound to that option, in the
    choice's own scope: the value the rules go on to use (``pay build_cost(d) gold``) is computed
    by the same expression, with the same modifiers, as the label shows it."""
    labels = [_label(rt, node.ckind, v) if v is not None else "none" for v in options]
    if node.ckind == "card":
        _locate(rt, seat, options, labels)
    showing = getattr(node, "showing", None)
    if showing is not None:
        for i, v in enumerate(options):
            shown = "" if v is None else _text_in(rt, {**env, node.var: v}, showing)
            if shown:  # nothing to say of this option (an empty text): its label alone
                labels[i] = f"{labels[i]} ({shown})"
    return labels


def option_previews(rt, pending) -> list | None:
    """For a pending ``choose ... showing "TEXT"`` (the top frame), each option's preview as the log's
    structured fields (docs/log-format.md): ``{"preview": TEXT, "preview_values": [...]}``, the text
    as its label adds it and the values of its ``{expr}`` parts in order, as the expressions give
    them ({} for an option with nothing to show); None for any other decision. Computed as the
    labels are, by the same expressions in the choice's own scope."""
    stack = rt.st["stack"]
    top: Frame | None = stack[-1] if stack else None
    if pending is None or top is None or top["kind"] != "choice":
        return None
    fr: ChoiceFrame = top
    node = rt.nodes[fr["node"]]
    showing = getattr(node, "showing", None)
    if showing is None or getattr(node, "var", None) is None:
        return None
    env = stack[fr["scope"]]["vars"]
    out: list[dict] = []
    for v in pending["options"]:
        if v is None:
            out.append({})
            continue
        local = {**env, node.var: v}
        parts = [showing] if isinstance(showing, str) else showing
        values = [p(rt, local) for p in parts if not isinstance(p, str)]
        text = "".join(p if isinstance(p, str) else in_words(x) for p, x in _paired(parts, values))
        if not text:
            out.append({})
            continue
        entry: dict = {"preview": text}
        if values:
            entry["preview_values"] = [_plain(x) for x in values]
        out.append(entry)
    return out


def _paired(parts, values):
    """Each part of a text with, for an ``{expr}`` part, its value (computed once)."""
    it = iter(values)
    for p in parts:
        yield (p, None) if isinstance(p, str) else (p, next(it))


def _value_keyed(node, options) -> bool:
    """A choice of numbers previewed with ``showing`` (a rotation, a quantity): its options are typed
    as the numbers themselves (``pending['keys']``), never by their place in the list."""
    return (
        getattr(node, "showing", None) is not None
        and node.ckind == "value"
        and all(type(v) is int for v in options)
        and len(set(options)) == len(options)
    )


def _locate(rt, seat, options, labels):
    """Add where a card lies ("Tower (P2's city)" for a card named Tower) when the options are not all in one zone of the decider."""
    keys = set()
    for v in options:
        if v is not None:
            card = rt.cards[v]
            keys.add((card["z"], card["o"]))
    if len(keys) <= 1 and all(o is None or o == seat for _, o in keys):
        return
    for i, v in enumerate(options):
        if v is not None:
            card = rt.cards[v]
            key = zone_key(card["z"], card["o"])
            labels[i] = f"{labels[i]} ({_zone_label(rt, key).removeprefix('the ')})"


def _label(rt, kind, v) -> str:
    """An option as shown: a value naming a place on a board (a location ``ID``, or space ``ID.k`` of a
    pick location) by the place's ``label`` (else its id in words), anything else as ``rt.label``."""
    if kind == "value" and isinstance(v, str):
        loc, _, k = v.partition(".")
        for d in rt.prog.boards.values():
            for l in d.get("locations") or () if isinstance(d, dict) else ():
                if isinstance(l, dict) and l.get("id") == loc and (not k or k.isdigit()):
                    name = label_of(l, loc)
                    return f"{name}, space {k}" if k else name
    return rt.label(kind, v)


def _text(rt, fr: Scoped, text):
    """A prompt or option label as shown: ``{expr}`` parts (compiled at load) evaluated as ``say`` does;
    a plain ``str`` (never the rule text's ``PlacedText``: what goes into the state is plain data)."""
    if isinstance(text, str):
        return str(text)
    return _text_in(rt, rt.st["stack"][fr["scope"]]["vars"], text)


def _text_in(rt, env, text):
    if isinstance(text, str):
        return str(text)
    return "".join(p if isinstance(p, str) else in_words(p(rt, env)) for p in text)


def _default_prompt(node):
    if node.up_to is not None:
        return f"Choose up to the allowed number of {node.ckind}s"
    if node.ckind == "value":
        return "Choose"
    return {"card": "Choose a card", "seat": "Choose a player"}.get(
        node.ckind, f"Choose a {node.ckind.replace('_', ' ')}"
    )


def _bind_choice(rt, env, node, fr: Scoped, value):
    t = type(value)
    if t is list or t is dict or (t is int and not -MAX_NUMBER <= value <= MAX_NUMBER):  # _plain only where it acts
        value = _plain(value)
    env[node.var] = value
    if node.body is not None and value is not None and value != []:
        if node.body.inline:  # plain statements: run now, as their frame would run next
            run_inline(rt, env, node.body, fr)
            return
        push_or_run(rt, env, node.body, fr)


def fill_labels(rt) -> dict | None:
    """The pending decision with its option labels (computed now if they were left out)."""
    p = rt.st["pending"]
    if p is None:
        return p
    fr: Asking = rt.st["stack"][-1]
    if fr["kind"] == "turn":  # derived from the options and the program alone (a save's are not trusted)
        p["keys"] = action_keys(rt, p["options"])
    if p.get("labels") is not None:
        return p
    if fr["kind"] == "turn":
        p["labels"] = [action_label(rt, fr, k) for k in p["options"]]
    elif fr["kind"] == "option":
        node = rt.nodes[fr["node"]]
        p["labels"] = [_text(rt, fr, node.options[i][0]) for i in p["options"]]
    else:
        node = rt.nodes[fr["node"]]
        p["labels"] = _choice_labels(rt, node, rt.st["stack"][fr["scope"]]["vars"], p["seat"], p["options"])
        if not p["subset"] and _value_keyed(node, p["options"]):
            p["keys"] = [str(v) for v in p["options"]]
    return p


def resume(rt, answer) -> None:
    """Apply an already-validated answer (an option index, or a list for a subset) to the top frame."""
    st = rt.st
    pending = st["pending"]
    fr: Asking = st["stack"][-1]
    st["pending"] = None
    if fr["kind"] == "turn":  # the action window stays on the stack
        take_action(rt, fr, pending["options"][answer])
        return
    st["stack"].pop()
    node = rt.nodes[fr["node"]]
    if fr["kind"] == "choice":
        env = st["stack"][fr["scope"]]["vars"]
        if pending["subset"]:
            value = [pending["options"][i] for i in answer]
        else:
            value = pending["options"][answer]
        if rt.narrate:
            _narrate_choice(rt, node, pending, value)
        _bind_choice(rt, env, node, fr, value)
    elif fr["kind"] == "option":
        i = pending["options"][answer]
        if rt.narrate:
            label = (pending.get("labels") or [None] * len(pending["options"]))[answer] or _text(
                rt, fr, node.options[i][0]
            )
            rt.say(  # with its question: "P2 answers "Trade a card?": No"
                f'{rt.seat_name(pending["seat"])} answers "{pending["prompt"]}": {label}',
                node,
                type="choice",
                seat=pending["seat"],
                kind="option",
                value=i,
            )
        body: BlockFrame = {"kind": "block", "node": node.options[i][2].id, "next": 0, "scope": fr["scope"]}
        st["stack"].append(body)
    else:
        raise PlayError("internal: answer for a frame that asked nothing", code="play/internal")


def _card_viewers(rt, cards):
    """None if every card is public where it lies, else the seats that see all of them."""
    seats = None
    for c in cards:
        card = rt.cards[c]
        key = zone_key(card["z"], card["o"])
        vis = _visible_to(rt, key, c)
        if vis is not None:
            seats = set(vis) if seats is None else seats & set(vis)
    return None if seats is None else sorted(seats)


def _narrate_choice(rt, node, pending, value):
    """Naming a seat, a value or a card of a family (``choose <family>``) is public; picking cards is seen
    by those who see them."""
    seat = pending["seat"]
    who = rt.seat_name(seat)
    items = value if isinstance(value, list) else [value]
    shown = ", ".join(_label(rt, node.ckind, v) for v in items) or "nothing"
    said = f"{who} chooses {shown}"
    if node.ckind == "value" and type(value) is int and node.prompt is not None:  # a bare number needs its question
        said = f'{who} answers {value} to "{pending["prompt"]}"'
    to = None
    # a typed ``choice`` event: who chose, the kind of choice and what (the option's id, a list for a
    # subset), read by the same seats as the narration
    typed = {"type": "choice", "seat": seat, "kind": node.ckind, "value": _plain(value)}
    cards = [v for v in items if v is not None]
    if node.ckind not in ("card", "seat", "value") and all(type(v) is int for v in cards):
        # a family's card named for everyone (a character by rank, say); a type id (choose type) is public
        if _card_viewers(rt, cards) is not None:  # some lie hidden: name their type, not which copy
            del typed["value"]
            types = [rt.cards[c]["t"] for c in cards]
            typed["card_type"] = types if isinstance(value, list) else (types[0] if types else None)
    if node.secret:
        rt.say(said, node, to=[seat], **typed)
        rt.say(f"{who} has chosen", node, hide_from=[seat], type="choice", seat=seat, kind=node.ckind)
        return
    if node.ckind == "card":
        to = _card_viewers(rt, [v for v in items if v is not None])
        if to is not None and seat not in to:
            to = sorted(set(to) | {seat})
    rt.say(said, node, to=to, **typed)
