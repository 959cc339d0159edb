"""The machine: runs compiled effects over a plain-data state with an explicit, JSON-able stack.

Execution state lives in ``state['stack']``: a list of frames (dicts of ints, strings and lists,
typed in ``frames.py``). A frame names its compiled node by id; a block frame holds its program
counter (``next``); an invocation frame also holds its variables (``vars``). When a choice needs an answer the machine stores a
decision in ``state['pending']`` and returns; answering it resumes from the top frame. Nothing
else (no generator, closure or object) holds game state, so a state can be copied, saved and
resumed at any decision.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from mason.dsl.builtins import ITEM_CAP, RegistrationError
from mason.dsl.constructs import KINDS
from mason.dsl.fastexpr import FastFormError, _code, _Fallback, self_is
from mason.errors import MasonError, PlayError
from mason.runtime.frames import BlockFrame, ChoiceFrame, ForFrame, RepeatFrame, Scoped, TurnFrame, WhileFrame
from mason.runtime.values import (  # noqa: F401  (shared helpers; re-exported)
    _amount_of,
    _copy,
    _plain,
    _say_counter,
    _seat_of,
    _short,
    _show,
    _visible_to,
    _zone_label,
    counter_amount,
    in_words,
    label_of,
    split_zone_key,
    zone_key,
)

STEP_CAP = 2_000_000  # frames run between two decisions before the machine declares a loop
STACK_CAP = 1_000  # frames on the stack at once (triggers answering each other's events nest)


class Runtime:
    """Binds a Program to one state; the closures compiled from the DSL read through it."""

    def __init__(self, program, state, log=None, like: "Runtime | None" = None):
        """``like``: a runtime of the same program bound to a state this one's state is a copy of (a
        trial's, a copy's): its tables of card types and zone keys are this one's too (neither changes
        in a game), not made again, which a search bot would pay at every trial."""
        self.prog = program
        self.st = state
        self.cards = state["cards"]
        # the state's top-level dicts are never replaced, only their contents: keep direct references
        self.counters, self.zones, self.vars = state["counters"], state["zones"], state["vars"]
        self.types = program.types
        # each card's type (its dict of properties) by card number, for generated code: a card's type
        # is set when the state is made and never changes; an unknown type (a save edited by hand) is
        # None here, and reading its property fails over to the closure tree, which reports it
        n = self.n = state["n"]  # the number of seats (never changes in a game), read by generated code
        if like is not None and like.prog is program and like.n == n and len(like.cards) == len(self.cards):
            self.card_types: list = like.card_types
            self.zk: dict = like.zk
        else:
            self.card_types = [program.types.get(c.get("t")) if type(c) is dict else None for c in self.cards]
            self.zk = {
                name: [zone_key(name, s) for s in range(n)] for name, z in program.zones.items() if z["scope"] == "seat"
            }
        self.table = state["table"]
        self.constants = state["constants"]
        self.nodes = program.nodes
        self.log = log  # callable(entry) or None
        self.narrate = log is not None
        self.stats: dict | None = None  # optional coverage counter: dict key -> count
        self.spent = 0  # items gone through since the run began (see dsl.builtins.charge)
        self.changes: list = []  # counter changes not yet logged (narrating only): see change()
        self.decision_entry: int | None = None  # log index of the decision whose answer the machine is running
        self.memo: dict = {}  # what a primitive derives from the program alone, kept per runtime (by its name)
        # seat -> Agent.blind_pick of the bots answering in place (runtime/answers.py); None: every decision pauses
        self.answerers: dict | None = None
        self.decision_base = self.decision_cap = 0  # decisions at the start / limit of in-place answering
        # the compiler of blocks to Python (``BLOCKS``), None on the reference path: a program compiled
        # without fast forms (MASON_FAST=0, ``Settings.fast``) runs every block by its statements' handlers
        self.blocks = BLOCKS.compile if program.fast else None
        self.direct = False  # every seat is answered in place: nothing pauses, blocks run without frames (run_now)
        # the item budget (dsl.builtins.charge), from the class (where a test may lower it), held on the
        # instance: generated code reads it at every list, and an instance's own attribute reads faster
        self.item_cap = type(self).item_cap
        self.turn_seat_now = self.turn_card_now = None  # the turn being played (see sync_turn)
        self.sync_turn()

    item_cap = ITEM_CAP

    # ---------------------------------------------------------------- context
    def turn_frame(self):
        """The frame of the turn being played, or None."""
        ti = self.st["ti"]
        return None if ti < 0 else self.st["stack"][ti]

    def turn_seat(self):
        """The seat whose turn is being played, or None."""
        return self.turn_seat_now

    def turn_card(self):
        """The card the turn is played as, or None."""
        return self.turn_card_now

    def sync_turn(self) -> None:
        """Read the turn being played (``st["ti"]``, the index of its frame, -1 for none) into
        ``turn_seat_now`` and ``turn_card_now``, which generated code reads at every use: called
        whenever ``st["ti"]`` changes (a turn starts or ends, the game ends) and when the runtime is
        made. A turn frame's seat and card never change while it is on the stack."""
        st = self.st
        ti = st["ti"]
        fr = st["stack"][ti] if ti >= 0 else None
        self.turn_seat_now = None if fr is None else fr["seat"]
        self.turn_card_now = None if fr is None else fr["card"]

    def active(self, card: int) -> bool:
        """Whether a card lies in a zone where its abilities and modifiers count."""
        return self.cards[card]["z"] in self.prog.active_zones

    def value(self, name, args, env):
        """A named value: its default, then every active modifier in declaration order."""
        vd = self.prog.values[name]
        params = vd.params
        me = env.get("me")
        if not params:
            local = {"me": me}
        elif len(params) == 1:
            local = {params[0]: args[0], "me": me}
        else:
            local = dict(zip(params, args))
            local["me"] = me
        if not vd.mods:
            try:
                return vd.fn(self, local)
            except PlayError as exc:
                if exc.place is None:
                    exc.place = vd.place
                raise
        held = vd.held
        if held is None:  # modifiers added after the program was compiled (Program prepares the others)
            held = vd.prepare(self.prog)
        ev = vd.ev  # the generated form (see fastexpr.value_evaluator), when there is one
        if ev is None:
            return self._modified(vd, name, local, held)
        spent = self.spent
        try:
            return ev(self, local)
        except RecursionError:
            raise
        except _Fallback:  # its declared hand-over: the reference way decides
            self.spent = spent
        except Exception as exc:  # the reference way's rule error, else the fast form is wrong
            self.spent = spent
            self._modified(vd, name, local, held)
            raise FastFormError(
                f"{vd.place}: named value '{name}': its fast form raised {type(exc).__name__}: {exc}"
                " where the reference path gives a result"
            ) from exc
        return self._modified(vd, name, local, held)

    def _modified(self, vd, name, local, held):
        """``value``'s generic way: the body, then each modifier in turn (the reference behaviour)."""
        try:
            v = vd.fn(self, local)
        except PlayError as exc:
            if exc.place is None:
                exc.place = vd.place
            raise
        cards = self.cards
        active = self.prog.active_zones
        for mod, c in held:
            if c is not None and cards[c]["z"] not in active:
                continue
            menv = dict(local)
            menv["self"] = c
            menv["owner"] = cards[c]["o"] if c is not None else None
            menv["base"] = v
            try:
                if mod.when is not None and not mod.when(self, menv):
                    continue
                x = mod.fn(self, menv)
            except PlayError as exc:
                if exc.place is None:
                    exc.place = mod.place
                raise
            op = mod.op
            if op == "set":
                v = x
            elif _combines(op, v, x):
                v = v + x if op == "add" else max(v, x) if op == "max" else min(v, x)
            else:
                raise PlayError(
                    f"this modifier of '{name}' cannot apply {op} {_short(x)} to {_short(v)}", mod.place, "play/type"
                )
            if self.stats is not None:
                self.stats[mod.key] = self.stats.get(mod.key, 0) + 1
        return v

    # ---------------------------------------------------------------- narration
    def say(self, text, node=None, to=None, place=None, type="note", causes=True, **extra):
        """Log one event (docs/log-format.md): its ``type``, ``text`` (None for an event nobody reads as
        narration), ``at`` the rule-file place that caused it, ``because`` the chain of causes, and the
        counter ``changes`` made since the last event."""
        if self.log is None:
            return
        entry = {"type": type, "round": self.st["round"]}
        if text is not None:
            entry["text"] = text
        if to is not None:
            entry["to"] = to
        if node is not None:
            entry["at"] = str(node.place)
        elif place is not None:
            entry["at"] = str(place)
        entry.update(extra)
        if self.changes:
            entry["changes"], self.changes = self.changes, []
        entry["because"] = self.because(to) if causes else []
        self.log(entry)

    def change(self, seat, counter, delta=None, value=None) -> None:
        """Note a change of a per-seat counter (narrating only); the next event carries it in ``changes``."""
        if self.log is None:
            return
        if value is not None:
            self.changes.append({"seat": seat, "counter": counter, "value": value})
        elif delta:
            self.changes.append({"seat": seat, "counter": counter, "delta": delta})

    def flush_changes(self, node=None, place=None) -> None:
        """Log the counter changes no event has carried yet (a ``change`` event without narration)."""
        if self.changes:
            self.say(None, node, place=place, type="change")

    def because(self, to=None) -> list:
        """The causes of what happens now, nearest first: the actions, abilities, triggers, phases and
        setup steps running on the stack, the turn, and the decision whose answer started it. A card is
        named only when the readers of the entry (``to``; None: everyone) may see it."""
        chain = []
        origins = _origins(self.prog)
        stack = self.st["stack"]
        top = stack[-1] if stack else None
        for fr in reversed(stack):
            k = fr["kind"]
            if k == "block" and "vars" in fr:
                if fr["next"] == 0 and fr is not top:  # pushed, not begun (the setup steps after this one)
                    continue
                o = origins.get(fr["node"])
                if o is None:
                    continue
                item = dict(o)
                c = fr["vars"].get("self")
                if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(self.cards):
                    if self._may_see(c, to):
                        item["card"], item["name"] = c, self.card_name(c)
                chain.append(item)
            elif k == "turn":
                item = {"kind": "turn", "seat": fr["seat"]}
                c = fr.get("card")
                if isinstance(c, int) and self._may_see(c, to):
                    item["card"], item["name"] = c, self.card_name(c)
                chain.append(item)
            elif k == "flow" and self.st["round"]:
                chain.append({"kind": "round", "round": self.st["round"]})
        if self.decision_entry is not None:
            chain.append({"kind": "decision", "entry": self.decision_entry})
        return chain

    def _may_see(self, c, to) -> bool:
        card = self.cards[c]
        key = zone_key(card["z"], card["o"])
        if card["z"] is None:
            return False
        vis = _visible_to(self, key, c)
        return vis is None or (to is not None and set(to) <= set(vis))

    def digest(self, when: str, place=None) -> None:
        """Log the state digest after the pending changes: every per-seat counter, every game-wide
        counter (a bank, a supply), every zone's size and every board's state (boards are public: every
        seat's view holds them whole)."""
        if self.log is None:
            return
        self.flush_changes(place=place)
        counters, supplies = {}, {}
        for k, v in self.st["counters"].items():
            if self.prog.counters[k]["scope"] == "seat":
                counters[k] = list(v)
            else:
                supplies[k] = v
        zones = {k: len(v) for k, v in self.st["zones"].items()}
        boards = json.loads(json.dumps(self.st.get("boards") or {}))  # a copy: the log keeps this moment
        if place is None and when == "start":  # the counters' declaration
            place = (
                self.prog.spec.key_place(self.prog.spec.game, "counters") if "counters" in self.prog.spec.game else None
            )
        self.say(
            None,
            place=place,
            type="digest",
            causes=when != "start",
            when=when,
            counters=counters,
            supplies=supplies,
            zones=zones,
            boards=boards,
        )

    def why(self, chain) -> str:
        """The nearest cause of an event, in words (``Miner: Dig``, a card and its action), or ''.

        A card's trigger reads as the card's name, with the trigger's ``text`` when it has one
        (``Miller``, not ``Miller: miller bonus``): a trigger's id is a name for rule files, not text."""
        for item in chain:
            kind = item["kind"]
            if kind == "trigger" and item.get("name"):
                label = item.get("label")
                if not label or label == _id_in_words(item["id"]):  # no text of its own: the card says it
                    return item["name"]
                return f"{item['name']}: {label}"
            if kind in ("action", "ability"):
                label = label_of(item, item["id"])
                return f"{item['name']}: {label}" if item.get("name") else label
            if kind in ("phase", "setup", "stall", "trigger"):  # a step of the flow: no rule of a player's
                return ""
        return ""

    def seat_name(self, s) -> str:
        """``P1``, ``P2``, ... for players; an automated seat by its automaton's name."""
        if s is None:
            return "nobody"
        aid = (self.st.get("automata") or {}).get(str(s))
        return f"P{s + 1}" if aid is None else self.prog.automata[aid].name

    def card_name(self, c) -> str:
        """A card's name (its component type's)."""
        return self.types[self.cards[c]["t"]]["name"]

    def label(self, kind, v) -> str:
        """An option of a ``kind`` of choice as shown: a card's or seat's name, an id in words."""
        if v is None:
            return "none"
        if kind not in ("seat", "value") and isinstance(v, int):  # a card, or a family's card
            return self.card_name(v)
        if kind == "seat" and isinstance(v, int):
            return self.seat_name(v)
        if kind == "type" and isinstance(v, str):  # a component type's id (choose type): its name
            t = self.types.get(v)
            if t is not None:
                return t["name"]
        return in_words(v) if isinstance(v, str) else str(v)  # an id offered as a value: in words

    # ---------------------------------------------------------------- frames
    def push_block(self, block, scope_vars: dict):
        """Push the frame of an invocation's block with its own variables ``scope_vars``."""
        stack = self.st["stack"]
        frame: BlockFrame = {"kind": "block", "node": block.id, "next": 0, "scope": len(stack), "vars": scope_vars}
        stack.append(frame)

    def emit(self, event: str, args: dict):
        """Push the frames of every trigger listening to ``event`` (first declared runs first); which
        of them hear it is decided by the event's generated function (see ``_listeners``)."""
        listeners = self.prog._heard
        if listeners is None:
            listeners = _heard(self.prog)
        heard = listeners.get(event)
        if heard is None:
            return
        frames = heard(self, args)
        if not frames:
            return
        stack = self.st["stack"]
        if frames and len(stack) + len(frames) > STACK_CAP:
            trig = frames[0][0]
            raise PlayError(
                f"trigger '{trig.key}' on '{event}' would nest more than {STACK_CAP} frames deep:"
                " triggers answer each other's events without end",
                trig.place,
                "play/loop",
            )
        for trig, env in reversed(frames):
            frame: BlockFrame = {"kind": "block", "node": trig.block.id, "next": 0, "scope": len(stack), "vars": env}
            stack.append(frame)
            if self.stats is not None:
                self.stats[trig.key] = self.stats.get(trig.key, 0) + 1


def _heard(prog) -> dict:
    """Event -> its generated function (``_listeners``), for every event a trigger listens to; made
    once per program (``runtime.engine.prepare`` makes it when the program is compiled). A program
    compiled without fast forms gets the reference function (``_listening``) instead."""
    make = _listeners if prog.fast else _listening
    heard = prog._heard = {event: make(lst, prog.type_instances) for event, lst in prog.triggers.items() if lst}
    return heard


def _listening(triggers, instances):
    """The reference form of ``_listeners``' function: the same ``(trigger, env)`` pairs, found by a loop."""

    def heard(rt, args):
        cards = rt.cards
        active = rt.prog.active_zones
        turn_seat = rt.turn_seat_now
        frames = []
        for trig in triggers:
            try:
                if trig.type is None:
                    envs = [dict(args, me=turn_seat)]
                else:
                    envs = []
                    for c in instances[trig.type]:
                        card = cards[c]
                        if card["z"] in active:
                            owner = card["o"]
                            env = dict(args)
                            env["self"], env["owner"] = c, owner
                            env["me"] = owner if owner is not None else turn_seat
                            envs.append(env)
                for env in envs:
                    if trig.when is None or trig.when(rt, env):
                        frames.append((trig, env))
            except PlayError as exc:
                if exc.place is None:
                    exc.place = trig.place
                raise
        return frames

    return heard


def _listeners(triggers, instances):
    """One generated function, ``heard(rt, args)``, giving the ``(trigger, env)`` of the ``triggers``
    of one event that hear it now, in declaration order: a game trigger with the acting seat as
    ``me``; a card's for each card of its type lying in an active zone, with ``self``, ``owner`` and
    ``me`` (the owner, else the acting seat); each whose ``when`` holds. A PlayError without a place
    gets the place of the trigger being asked."""
    ns: dict = {"PlayError": PlayError}
    lines = [
        "def heard(rt, args):",
        "    cards = rt.cards",
        "    active = rt.prog.active_zones",
        "    turn_seat = rt.turn_seat_now",
        "    frames = []",
        "    trig = None",
        "    try:",
    ]
    for n, trig in enumerate(triggers):
        ns[f"_T{n}"] = trig
        lines.append(f"        trig = _T{n}")
        pad = "        "
        if trig.type is None:
            lines += [f"{pad}env = dict(args)", f"{pad}env['me'] = turn_seat"]
        else:
            ns[f"_I{n}"] = tuple(instances[trig.type])
            lines += [f"{pad}for c in _I{n}:"]
            must = self_is(trig.when)
            if must is not None:  # ``when: card == self``: only the card the event names may hear it
                lines += [f"{pad}    if args.get({must[1]!r}, c) != c:", f"{pad}        continue"]
            lines += [
                f"{pad}    card = cards[c]",
                f"{pad}    if card['z'] in active:",
                f"{pad}        owner = card['o']",
                f"{pad}        env = dict(args)",
                f"{pad}        env['self'], env['owner'] = c, owner",
                f"{pad}        env['me'] = owner if owner is not None else turn_seat",
            ]
            pad += "        "
        if trig.when is None:
            lines.append(f"{pad}frames.append((_T{n}, env))")
        else:
            ns[f"_W{n}"] = trig.when
            lines += [f"{pad}if _W{n}(rt, env):", f"{pad}    frames.append((_T{n}, env))"]
    lines += [
        "    except PlayError as exc:",
        "        if exc.place is None:",
        "            exc.place = trig.place",
        "        raise",
        "    return frames",
    ]
    exec(_code("\n".join(lines)), ns)
    return ns["heard"]


# ==================================================================== the run loop
def run(rt: Runtime) -> None:
    """Run until a decision is pending or the stack is empty."""
    st = rt.st
    stack = st["stack"]
    steps = 0
    seen = st["decisions"]
    rt.spent = 0
    frames = FRAME
    try:
        while stack and st["pending"] is None:
            fr = stack[-1]
            frames[fr["kind"]](rt, fr)
            steps += 1
            if steps > STEP_CAP:
                seen, steps = _afresh(rt, seen), 0
    except PlayError as exc:
        if exc.place is None and stack:
            exc.place = _frame_place(rt, stack)
        raise
    except RecursionError:
        raise PlayError(
            "the rules nest too deeply here (a named value calling itself without end?)",
            _frame_place(rt, stack),
            "play/too-deep",
        ) from None
    except MasonError:
        raise
    except Exception as exc:  # not the rules' fault: values are checked where they enter (statements, builtins)
        raise internal_error(exc, _frame_place(rt, stack)) from exc


def _afresh(rt, seen: int) -> int:
    """The loop guard, past ``STEP_CAP`` steps counted since the state held ``seen`` decisions: its
    error when no decision came since (the rules loop without end), else the decisions now, from
    which the steps are counted afresh (bots answered in place in between)."""
    st = rt.st
    if st["decisions"] == seen:
        raise PlayError(
            f"no decision after {STEP_CAP:,} steps in phase '{st.get('phase')}': the rules loop without end",
            _frame_place(rt, st["stack"]),
            "play/loop",
        )
    return st["decisions"]


def _combines(op: str, a, b) -> bool:
    """Whether a modifier's ``add`` / ``max`` / ``min`` applies to these values: numbers (not true/false)
    with numbers; ``add`` also joins two lists or two texts."""
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return True
    return op == "add" and ta is tb and (ta is list or ta is str)


def internal_error(exc: Exception, place=None) -> PlayError:
    """A Python error that escaped the checks of the values a rule gives: Mason's own bug, said as one
    line (``play/internal``) at the place of the rule that was running, never blamed on the rules."""
    return PlayError(
        f"internal error in Mason (not in the rules; please report it with the log): {type(exc).__name__}: {exc}",
        place,
        "play/internal",
    )


def _frame_place(rt, stack):
    """The rule-file place of the frame on top of the stack (a block, a loop, a turn), if it names one."""
    for fr in reversed(stack):
        n = fr.get("node")
        if isinstance(n, int) and 0 <= n < len(rt.nodes):
            return rt.nodes[n].place
    return None


def _unknown(kind):
    def handler(rt, env, node, fr):
        raise KeyError(kind)  # as an unknown kind would, inside the runner's handlers

    return handler


def runner_of(kind: str):
    """The reference run of a compiled statement kind (``KINDS``, filled by the statements' definitions)."""
    entry = KINDS.get(kind)
    return entry.run if entry is not None else _unknown(kind)


def bound(block) -> tuple:
    """The block's statements with their handlers: ``((handler, node), ...)``, looked up once per block
    (statement kinds are registered at import, before any rule runs)."""
    plan = block.bound
    if plan is None:
        plan = block.bound = tuple((runner_of(s.kind), s) for s in block.stmts)
    return plan


def is_plain(node) -> bool:
    """Whether a compiled statement never pushes a frame nor pauses and calls no primitive's code
    (its kind's ``plain``), and changes no variable whose change is an event."""
    entry = KINDS.get(node.kind)
    return entry is not None and entry.plain and not getattr(node, "emits", False)


def _steps(block) -> tuple:
    """``((handler, node, plain), ...)`` for the block runner: after a plain statement (see ``is_plain``) it
    neither saves its place in the frame nor looks for a pushed frame or a pending decision."""
    plan = block.steps = tuple((h, s, is_plain(s)) for h, s in block.bound or bound(block))
    return plan


def _block(rt, fr: BlockFrame) -> None:
    block = rt.nodes[fr["node"]]
    st = rt.st
    stack = st["stack"]
    env = stack[fr["scope"]]["vars"]
    depth = len(stack)
    if rt.direct and fr["next"] == 0 and depth < DIRECT_DEPTH and rt.blocks is not None:
        # nothing can pause: the whole block at once, as run_now runs a body (its frame stays below
        # what it pushes, for the loops that name its scope), then the frame goes
        run_now(rt, env, block, fr)
        if len(stack) == depth:
            stack.pop()
        return
    plan = block.steps or _steps(block)
    i = fr["next"]
    n = len(plan)
    while i < n:
        handler, node, plain = plan[i]
        i += 1
        if not plain:
            fr["next"] = i
        try:
            handler(rt, env, node, fr)
        except (PlayError, RecursionError) as exc:
            _at_statement(exc, node)
        if not plain and (len(stack) != depth or st["pending"] is not None):
            return
    stack.pop()


def _at_statement(exc, node):
    """Raise what a statement raised, placed at the statement: a PlayError without a place gets the
    statement's; Python's recursion limit is said as the rules nesting too deeply."""
    if isinstance(exc, RecursionError):
        raise PlayError(
            "this statement nests too deeply (a named value calling itself without end?)", node.place, "play/too-deep"
        ) from None
    if exc.place is None:
        exc.place = node.place
    raise exc


def run_inline(rt, env, block, fr: Scoped | TurnFrame) -> None:
    """Run a block of plain statements (``block.inline``: nothing in it pauses or pushes a frame) at once,
    in place of pushing its frame: the same statements, errors and places as its frame would give.
    When nothing is narrated, the block's generated function runs it (runtime/direct.py)."""
    if not rt.narrate and rt.blocks is not None:
        (block.direct or rt.blocks(block, rt.prog))(rt, env, fr)
        return
    for handler, node in block.bound or bound(block):
        try:
            handler(rt, env, node, fr)
        except (PlayError, RecursionError) as exc:
            _at_statement(exc, node)


def push_and_run(rt, block, env) -> None:
    """Push the frame of ``block`` (an action's, with its variables ``env``) and, running direct with a
    shallow stack, run it to its end at once, as the run loop's next step would (``_block``): one
    step, not three calls. Else the frame is left for the run loop."""
    stack = rt.st["stack"]
    depth = len(stack) + 1
    fr: BlockFrame = {"kind": "block", "node": block.id, "next": 0, "scope": depth - 1, "vars": env}
    stack.append(fr)
    if rt.direct and depth < DIRECT_DEPTH and rt.blocks is not None:
        (block.direct or rt.blocks(block, rt.prog))(rt, env, fr)
        if len(stack) == depth:
            stack.pop()


class _Blocks:
    """The compiler of blocks to Python for running direct (``runtime/direct.py``'s ``compile_block``),
    put in by ``runtime.engine``; None: ``run_now`` and ``run_inline`` run the statements' handlers.
    One instance, ``BLOCKS``: an instance's attribute is read faster than a class's, at every block."""

    def __init__(self) -> None:
        self.compile: Callable | None = None


BLOCKS = _Blocks()


DIRECT_DEPTH = 24  # frames on the stack above which a block is pushed even when running direct


def run_now(rt, env, block, fr: Scoped) -> None:
    """Run ``block`` (one with no variables of its own: a branch, a loop's or a choice's body) to its
    end at once, in place of pushing its frame: only when ``rt.direct`` (every seat is answered in
    place, so nothing can pause it). A statement that pushes frames (triggers, a turn, a loop) has
    them run to their end before the next statement, as the run loop would; one that cut the stack
    (``end game``) ends the block. ``fr`` is the frame whose scope the block shares. The block's
    generated function runs it (runtime/direct.py), when one is registered."""
    if rt.blocks is not None:
        (block.direct or rt.blocks(block, rt.prog))(rt, env, fr)
        return
    st = rt.st
    stack = st["stack"]
    depth = len(stack)
    for handler, node, plain in block.steps or _steps(block):
        try:
            handler(rt, env, node, fr)
        except (PlayError, RecursionError) as exc:
            _at_statement(exc, node)
        if not plain:
            if len(stack) > depth:
                drain(rt, depth)
            if len(stack) < depth:
                return


def drain(rt, depth: int) -> None:
    """Run the frames above ``depth`` until the stack is back to it (see ``run_now``); the loop guard
    counts their steps as ``run`` does."""
    st = rt.st
    stack = st["stack"]
    frames = FRAME
    steps = 0
    seen = st["decisions"]
    while len(stack) > depth:
        if st["pending"] is not None:
            raise PlayError("internal: a decision is pending while the rules run direct", code="play/internal")
        fr = stack[-1]
        frames[fr["kind"]](rt, fr)
        steps += 1
        if steps > STEP_CAP:
            seen, steps = _afresh(rt, seen), 0


def push_or_run(rt, env, block, fr: Scoped) -> None:
    """A block with no variables of its own, after its statement: run now when running direct (and the
    stack is shallow), else pushed as a frame for the run loop."""
    stack = rt.st["stack"]
    if rt.direct and len(stack) < DIRECT_DEPTH:
        run_now(rt, env, block, fr)
    else:
        frame: BlockFrame = {"kind": "block", "node": block.id, "next": 0, "scope": fr["scope"]}
        stack.append(frame)


def _for(rt, fr: ForFrame) -> None:
    node = rt.nodes[fr["node"]]
    items = fr["items"]
    i = fr["next"]
    if i >= len(items):
        rt.st["stack"].pop()
        return
    fr["next"] = i + 1
    stack = rt.st["stack"]
    env = stack[fr["scope"]]["vars"]
    env[node.var] = items[i]
    push_or_run(rt, env, node.body, fr)


def _repeat(rt, fr: RepeatFrame) -> None:
    node = rt.nodes[fr["node"]]
    if fr["done"] >= fr["count"]:
        rt.st["stack"].pop()
        return
    fr["done"] += 1
    if node.body.inline:  # one round per step, as with the body's own frame
        run_inline(rt, rt.st["stack"][fr["scope"]]["vars"], node.body, fr)
        return
    push_or_run(rt, rt.st["stack"][fr["scope"]]["vars"], node.body, fr)


def _while(rt, fr: WhileFrame) -> None:
    node = rt.nodes[fr["node"]]
    stack = rt.st["stack"]
    if node.cond(rt, stack[fr["scope"]]["vars"]):
        fr["done"] += 1
        if fr["done"] > 100_000:
            raise PlayError("a 'while' loop ran 100000 times", node.place, "play/loop")
        if node.body.inline:  # one round per step, as with the body's own frame
            run_inline(rt, stack[fr["scope"]]["vars"], node.body, fr)
            return
        push_or_run(rt, stack[fr["scope"]]["vars"], node.body, fr)
    else:
        stack.pop()


def _waiting(rt, fr: ChoiceFrame) -> None:
    raise PlayError("internal: a choice frame is on top without a pending decision", code="play/internal")


def _id_in_words(key: str) -> str:
    """A trigger's key (``miller.miller_bonus``) as its default label: its last part in words."""
    return key.rpartition(".")[2].replace("_", " ")


def _origins(prog) -> dict:
    """Block id -> what invokes it (an action, ability, trigger, phase, setup step, the stall), for ``because``."""
    out = getattr(prog, "_log_origins", None)
    if out is not None:
        return out
    out = {}

    def put(block, kind, ident, place, rule="", label=""):
        if block is not None:
            item = {"kind": kind, "id": ident}
            if label:
                item["label"] = label
            if rule:
                item["rule"] = rule
            if place is not None and str(place):
                item["at"] = str(place)
            out.setdefault(block.id, item)

    for a in prog.actions:
        put(a.block, "action", a.key, a.place, a.rule, a.label)
    for lst in prog.abilities.values():
        for a in lst:
            put(a.block, "ability", a.key, a.place, a.rule, a.label)
    for lst in prog.triggers.values():
        for t in lst:
            put(t.block, "trigger", t.key, t.place, t.rule, t.text or _id_in_words(t.key))
    for (pid, block), place in zip(prog.phases, prog.phase_places):
        put(block, "phase", pid, place)
    for sid, block in prog.setup_steps:
        put(block, "setup", sid, block.place if block is not None else None)
    put(prog.stall_do, "stall", "stall", prog.stall_place)
    prog._log_origins = out
    return out


FRAME: dict[str, Callable[..., None]] = {
    "block": _block,
    "for": _for,
    "repeat": _repeat,
    "while": _while,
    "choice": _waiting,
    "option": _waiting,
}


def _cards_of(x, node):
    """The items a ``for`` goes through: a list, one value (not true/false) as a list of one, none as []."""
    if x is None:
        return []
    t = type(x)
    if t is list or t is tuple:
        return list(x)
    if t is int:
        return [x]
    raise PlayError(f"expected a list, got {_short(x)}", node.place, "play/type")


def card_ids(rt, x, node) -> list:
    """The cards a statement is given (one card, a list of cards, a zone's cards, or none), each checked
    to be a card: where a rule's value enters the card statements (move, reveal, choose card)."""
    if x is None:
        return []
    n = len(rt.cards)
    t = type(x)
    if t is int:
        if 0 <= x < n:
            return [x]
    elif t is list or t is tuple:
        for c in x:
            if type(c) is not int or not 0 <= c < n:
                raise PlayError(f"expected cards, got {_short(c)} among them", node.place, "play/type")
        return list(x)
    raise PlayError(f"expected cards, got {_short(x)}", node.place, "play/type")


def place_text(node) -> str:
    """``str(node.place)``, computed once per node (a pending decision's ``at``)."""
    text = node.at_text
    if text is None:
        text = node.at_text = str(node.place)
    return text


_SPLIT: dict = {}  # zone key -> (zone name, owning seat or None), as move_card stores them on a card


def zone_split(key: str) -> tuple:
    """(zone name, owning seat or None) of a zone key, as a card stores its place; kept in ``_SPLIT``."""
    split = _SPLIT[key] = split_zone_key(key)
    return split


def move_card(rt, c: int, key: str, bottom=False, facing="", seen=None):
    """Move one card to the zone ``key`` (top = end of the list)."""
    card = rt.cards[c]
    zones = rt.zones
    o = card["o"]
    old = card["z"] if o is None else rt.zk[card["z"]][o]
    src = zones[old]
    if src[-1] == c:  # from the top (a draw): no search through the zone
        src.pop()
    else:
        src.remove(c)
    dest = zones[key]
    if bottom:
        dest.insert(0, c)
    else:
        dest.append(c)
    card["z"], card["o"] = _SPLIT.get(key) or zone_split(key)
    up = facing == "up"
    if card.get("up") != up:
        card["up"] = up
    if facing == "seen":
        card["seen"] = [seen] if seen is not None else []
    elif card.get("seen"):
        card["seen"] = []
    return old


def register_frame(kind: str, handler) -> None:
    """Add a frame runner (``k`` of a frame); once per kind."""
    _register(FRAME, "frame", kind, handler)


def _register(table, what, kind, handler):
    old = table.get(kind)
    if old is not None and old is not handler:
        raise RegistrationError(f"{what} '{kind}' is registered twice: by {old.__module__} and by {handler.__module__}")
    table[kind] = handler


def option_entries(rt, seat, kind, options, labels) -> list:
    """The offered options as the log holds them: ``{"id", "label"}`` each, with structured fields
    beside the label (docs/log-format.md): an action's ``action`` id, ``group``, ``rule`` and the
    ``card`` it is an ability of; a seat's ``seat``; a card's ``card``, and the ``zone`` it lies in and
    its ``type`` when the deciding seat sees it there. Decisions are read by the deciding seat only."""
    out = []
    for o, lab in zip(options, labels):
        item = {"id": o, "label": lab}
        if kind == "action" and type(o) is str:
            name, _, card = o.partition("@")  # an option key: 'id', or 'id@card' for a card's ability
            c = int(card) if card.isdigit() and int(card) < len(rt.cards) else None
            defs = rt.prog.abilities.get(rt.cards[c]["t"], ()) if c is not None else rt.prog.actions
            a = next((a for a in defs if a.key == name), None)
            if a is None:  # the window's own option: end the turn (turns.END)
                item["action"] = o
            else:
                item["action"], item["group"] = a.key, a.group
                if a.rule:
                    item["rule"] = a.rule
                if c is not None and rt._may_see(c, [seat] if isinstance(seat, int) else []):
                    item["card"] = c
        elif kind == "seat" and type(o) is int:
            item["seat"] = o
        elif kind not in ("value", "option", "action") and type(o) is int and 0 <= o < len(rt.cards):
            card = rt.cards[o]  # a card (kind card, or a family's)
            item["card"] = o
            # where it lies and what it is, only when the decider sees it there: a character named
            # by rank must not tell who holds it
            if card["z"] is not None and rt._may_see(o, [seat] if isinstance(seat, int) else []):
                item["zone"] = zone_key(card["z"], card["o"])
                item["type"] = card["t"]
        out.append(item)
    return out


def log_resolved(rt, seat, kind, prompt, options, labels, place) -> None:
    """Log a decision that resolved itself (a single legal option): read by the deciding seat only."""
    rt.say(
        None,
        None,
        to=[seat] if isinstance(seat, int) else [],
        place=place,
        type="resolved",
        seat=seat,
        kind=kind,
        prompt=prompt,
        options=option_entries(rt, seat, kind, options, labels),
        answer=0,
    )
