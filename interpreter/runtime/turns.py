"""Turns and their action window; the round/phase flow frame; final scoring.

A turn (``turn SEAT as CARD``) runs: ``turn_start`` triggers; the action window, where the seat
picks among the legal actions (the game's ``turn.actions`` and the abilities of the turn's card
and of the seat's cards in active zones) until it ends the turn; then ``turn_end`` triggers.
An action is usable ``times`` per turn (default once); ``group`` makes actions mutually
exclusive; ``after`` gates an action on a group or action done earlier in the turn;
``turn.required`` lists groups that must be done before the turn may end.
"""

from __future__ import annotations

from mason.dsl.fastexpr import _code
from mason.errors import PlayError, RoundCapReached
from mason.runtime.answers import answered_in_place
from mason.runtime.frames import TURN_DONE, TURN_END, TURN_START, TURN_WINDOW, FlowFrame, TurnFrame
from mason.runtime.machine import _block, log_resolved, place_text, push_and_run, run_inline
from mason.runtime.values import _plain

END = "end"


# ==================================================================== the turn statement
def _progress(st) -> int:
    """Decisions taken so far: answered by agents, taken by automated seats, and resolved by themselves
    (a single legal option, counted in ``forced``). A round without any is idle."""
    return st["decisions"] + st.get("automated", 0) + st.get("forced", 0)


def count_forced(st) -> None:
    """Count a decision that resolved itself: not a decision, but progress for the flow's idle guard."""
    st["forced"] = st.get("forced", 0) + 1


def _turn(rt, fr: TurnFrame) -> None:
    """One step of a turn; a step that pushes nothing (no trigger answers an event, the window
    closes) goes straight on to the next, without a round through the run loop. Running direct, an
    action answered in place whose effect left nothing on the stack is followed at once by the next
    window (a window that resolves itself returns to the loop, whose steps the loop guard counts)."""
    stack = rt.st["stack"]
    depth = len(stack)
    p = fr["step"]
    if p == TURN_START:
        fr["step"] = p = TURN_WINDOW
        rt.emit("turn_start", {"actor": fr["seat"], "card": fr["card"]})
        if len(stack) != depth:
            return
    window = None
    answerers = rt.answerers
    pick = None if answerers is None else answerers.get(fr["seat"])  # a bot answering in place
    while True:
        if p == TURN_WINDOW:
            options: list
            if fr["stop"]:
                options = []
            else:
                if window is None:  # the turn's card never changes: its window function, once
                    window = _window_fn(rt, fr)
                options = window(rt, fr)
            if not options or (options[0] == END and len(options) == 1):
                fr["step"] = p = TURN_END
        if p == TURN_END:
            fr["step"] = TURN_DONE
            rt.emit("turn_end", {"actor": fr["seat"], "card": fr["card"]})
            if len(stack) != depth:
                return
            p = TURN_DONE
        if p != TURN_WINDOW:
            break
        if len(options) == 1:
            count_forced(rt.st)
            if rt.narrate:
                log_resolved(
                    rt,
                    fr["seat"],
                    "action",
                    "Choose an action",
                    options,
                    [action_label(rt, fr, options[0])],
                    rt.nodes[fr["node"]].place,
                )
            take_action(rt, fr, options[0])
            return
        if pick is not None:  # a bot answers in place (runtime/answers.py): the action, as resume takes it
            take_action(rt, fr, options[answered_in_place(rt, pick, fr["seat"], options)], at_once=True)
            if rt.direct:  # nothing pauses: the action's frame runs now, as the run loop would run it next
                if len(stack) > depth:
                    _block(rt, stack[-1])
                if len(stack) == depth:  # its effect has run: the next window, or the turn's end
                    p = fr["step"]
                    continue
            return
        rt.st["pending"] = {
            "seat": fr["seat"],
            "kind": "action",
            "prompt": "Choose an action",
            "options": options,
            "labels": [action_label(rt, fr, k) for k in options] if rt.narrate else None,
            "subset": 0,
            "at": place_text(rt.nodes[fr["node"]]),
        }
        if rt.narrate:  # like the labels, for a person or a log: fill_labels adds them when asked
            rt.st["pending"]["keys"] = action_keys(rt, options)
        return
    st = rt.st
    stack.pop()
    st["ti"] = fr["outer_turn"]
    rt.sync_turn()


def _find(rt, key):
    """The ActionDef and card (or None) named by an option key: 'id' or 'id@card'."""
    found = _plan(rt.prog)[1].get(key)
    if found is not None:
        return found
    name, _, card = key.partition("@")
    if card:
        c = int(card)
        for a in rt.prog.abilities.get(rt.cards[c]["t"], ()):
            if a.key == name:
                return a, c
    else:
        for a in rt.prog.actions:
            if a.key == name:
                return a, None
    raise PlayError(f"no action '{key}'", code="play/internal")


def _letters(i: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa: a key a person types."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(97 + r) + out
    return out


def action_keys(rt, options) -> list[str]:
    """Each option of an action window as the key a person types: a letter fixed by the program, not
    by what is offered now, so an action keeps its key for the whole turn (and every turn): the
    game's actions in their declared order, then ``End turn``, then each type's abilities in the order
    of the types. Two cards of one type offering the same ability at once: the second key gets a 2."""
    prog = rt.prog
    order = {a.key: i for i, a in enumerate(prog.actions)}
    order[END] = len(prog.actions)
    for tid in prog.ability_types:
        for a in prog.abilities[tid]:
            order.setdefault(f"{a.key}@{tid}", len(order))
    out: list[str] = []
    for key in options:
        name, _, card = key.partition("@")
        k = _letters(order.get(f"{name}@{rt.cards[int(card)]['t']}" if card else key, len(order)))
        n = 1
        while (k if n == 1 else f"{k}{n}") in out:
            n += 1
        out.append(k if n == 1 else f"{k}{n}")
    return out


def action_label(rt, fr: TurnFrame, key) -> str:
    """An action window option's label: the action's, and the card's name for another card's ability."""
    if key == END:
        return "End turn"
    a, c = _find(rt, key)
    if c is not None and c != fr["card"]:
        return f"{a.label} ({rt.card_name(c)})"
    return a.label


def _plan(prog) -> tuple:
    """Computed once per program: the cards that carry abilities, in the order the window offers them
    (``(card, is a turn card, [(ActionDef, option key)])``), every option key -> (ActionDef, card),
    the game's actions as ``(key, times, group, after, cond)``, and the window functions made so far,
    per turn card (``_window_of``)."""
    plan = prog._window_plan
    if plan is None:
        cards: list[tuple] = []
        keys: dict[str, tuple] = {}
        for a in prog.actions:
            keys.setdefault(a.key, (a, None))
        for tid in prog.ability_types:
            is_turn_card = tid in prog.turn_card_types
            for c in prog.type_instances[tid]:
                pairs = [(a, f"{a.key}@{c}") for a in prog.abilities[tid]]
                cards.append((c, is_turn_card, pairs))
                for a, key in pairs:
                    keys.setdefault(key, (a, c))
        acts = tuple((a.key, a.times, a.group, a.after, a.cond) for a in prog.actions)  # the game's actions
        plan = prog._window_plan = (cards, keys, acts, {})
    return plan


def _window(acts, held, active, required=None):
    """One generated function, ``window(rt, env, seat, u, g, opts)``, that appends to ``opts`` the keys
    of the options a window offers, as ``_available`` decides them (``u`` the turn's uses, ``g`` its
    groups): the game's actions (``acts``, as ``(key, times, group, after, cond)``, with ``env``),
    then the abilities of ``held`` (``(card, check, [(ActionDef, key)])``: a card to check is offered
    only while ``seat`` holds it in one of the ``active`` zones; each with its own environment, ``me``,
    ``self`` and ``owner``). Each option's tests are written in place in ``_available``'s order: once
    (without ``times``), its group not yet done by another, every group or action it comes ``after``
    done, its ``times``, then its ``if`` (so a failing ``times`` or ``if`` raises as there).

    With ``required`` (the groups a turn must have done to end, ``turn.required``), the function is
    ``window(rt, fr)`` for the turn frame ``fr``: it makes ``env`` (``me``, the turn's seat) and the
    list, and gives the options with ``END`` last once every required group is done."""
    ns: dict = {"_active": active}
    if required is None:
        lines = ["def window(rt, env, seat, u, g, opts):"]
    else:
        lines = ["def window(rt, fr):", "    seat = fr['seat']", "    u, g = fr['uses'], fr['groups']"]
        lines += ["    env = {'me': seat}", "    opts = []"]

    def option(pad, n, key, times, group, after, cond, env):
        k = repr(key)
        tests = []
        # a key is in ``u`` / ``g`` only once used or done (its count is 1 or more: save.schema.json)
        if times is None:
            tests.append(f"{k} not in u")
            if group:
                tests.append(f"{group!r} not in g")
        else:
            lines.append(f"{pad}used = u.get({k}, 0)")
            if group:
                tests.append(f"(used or {group!r} not in g)")
        tests += [f"({req!r} in g or {req!r} in u)" for req in after]
        if times is not None:  # its call after the tests that read the turn alone, as in ``_available``
            ns[f"_t{n}"] = times
            tests.append(f"not (used >= _t{n}(rt, {env}))")
        if cond is not None:
            ns[f"_c{n}"] = cond
            tests.append(f"_c{n}(rt, {env})")
        lines.extend([f"{pad}if {' and '.join(tests)}:", f"{pad}    opts.append({k})"])

    n = 0
    for key, times, group, after, cond in acts:
        option("    ", n, key, times, group, after, cond, "env")
        n += 1
    if held:
        lines.append("    cards = rt.cards")
    for c, check, pairs in held:
        pad = "    "
        if check:
            lines += [f"    card = cards[{c}]", "    if card['o'] == seat and card['z'] in _active:"]
            pad = "        "
        lines.append(f"{pad}cenv = {{'me': seat, 'self': {c}, 'owner': seat}}")
        for a, key in pairs:
            option(pad, n, key, a.times, a.group, a.after, a.cond, "cenv")
            n += 1
    if required is not None:  # done: counted from 1, a group is in ``g`` once done
        ended = " and ".join(f"{req!r} in g" for req in required) or "True"
        lines += [f"    if {ended}:", f"        opts.append({END!r})"]
    lines.append("    return opts")
    exec(_code("\n".join(lines)), ns)
    return ns["window"]


def _window_of(prog, plan, turn_card):
    """The window function of a turn played as ``turn_card`` (see ``_window``): the game's actions, the
    turn's own card unchecked, every card not of a turn-card type checked; other turn cards never
    offer theirs. Memoised per turn card in the plan (``plan[3]``)."""
    held = tuple((c, c != turn_card, pairs) for c, is_turn_card, pairs in plan[0] if c == turn_card or not is_turn_card)
    if prog.fast:
        fn = plan[3][turn_card] = _window(plan[2], held, prog.active_zones, prog.turn_required)
    else:
        fn = plan[3][turn_card] = _reference_window(prog, held)
    return fn


def _reference_window(prog, held):
    """The reference form of ``_window``'s function (a program compiled without fast forms): each
    option asked of ``_available`` in the same order, ``END`` last once every required group is done."""
    actions, active, required = prog.actions, prog.active_zones, prog.turn_required

    def window(rt, fr: TurnFrame):
        seat = fr["seat"]
        env = {"me": seat}
        opts = [a.key for a in actions if _available(rt, fr, a, a.key, env)]
        cards = rt.cards
        for c, check, pairs in held:
            if check and not (cards[c]["o"] == seat and cards[c]["z"] in active):
                continue
            cenv = {"me": seat, "self": c, "owner": seat}
            opts += [key for a, key in pairs if _available(rt, fr, a, key, cenv)]
        if all(fr["groups"].get(req) for req in required):
            opts.append(END)
        return opts

    return window


def window_options(rt, fr: TurnFrame) -> list:
    """The keys of the options the turn ``fr``'s window offers now, ``END`` last once allowed."""
    return _window_fn(rt, fr)(rt, fr)


def _window_fn(rt, fr: TurnFrame):
    """The function giving the options of the turn ``fr``'s window, ``fn(rt, fr)``: generated per turn
    card (``_window``), or the one for a turn of one group."""
    if "only" in fr:  # a turn of one group (``turn ... only``)
        return _only_options
    prog = rt.prog
    plan = prog._window_plan or _plan(prog)
    turn_card = fr["card"]
    return plan[3].get(turn_card) or _window_of(prog, plan, turn_card)


def _only_options(rt, fr: TurnFrame) -> list:
    only = fr["only"]
    if fr["groups"].get(only):
        return [END]
    env = {"me": fr["seat"]}
    return [a.key for a in rt.prog.actions if a.group == only and _available(rt, fr, a, a.key, env)] or [END]


def unavailable_actions(rt, with_rule: bool = False, keyed: bool = False) -> list:
    """For a pending action window: the actions (and card abilities) that only their ``if`` keeps
    out, as ``(label, reason)``; the reason is the action's ``if_text`` (the condition in words),
    else the condition as written and its rule-file place; ``with_rule``: both (``mason explain``).
    Shown to the deciding seat, never offered (empty when no action window is pending). ``keyed``:
    ``(key, label, reason)``, with the letter the action keeps all turn (``action_keys``)."""
    st = rt.st
    p = st["pending"]
    if p is None or p["kind"] != "action" or st["ti"] < 0:
        return []
    fr: TurnFrame = st["stack"][st["ti"]]
    seat, only = fr["seat"], fr.get("only")
    out = []

    def check(a, key, env, label):
        if a.cond is None or (only is not None and a.group != only):
            return
        if key in p["options"] or not _available(rt, fr, a, key, env, cond=False):
            return
        rule = f"needs {a.cond_src} ({a.cond_place})"
        reason = rule if not a.cond_text else f"{a.cond_text}: {rule}" if with_rule else a.cond_text
        out.append((action_keys(rt, [key])[0], label, reason) if keyed else (label, reason))

    for a in rt.prog.actions:
        check(a, a.key, {"me": seat}, a.label)
    if only is None:
        for tid in rt.prog.ability_types:
            is_turn_card = tid in rt.prog.turn_card_types
            for c in rt.prog.type_instances[tid]:
                card = rt.cards[c]
                if c != fr["card"] and (is_turn_card or card["o"] != seat or card["z"] not in rt.prog.active_zones):
                    continue
                for a in rt.prog.abilities[tid]:
                    key = f"{a.key}@{c}"
                    check(a, key, {"me": seat, "self": c, "owner": seat}, action_label(rt, fr, key))
    return out


def _available(rt, fr: TurnFrame, a, key, env, cond=True) -> bool:
    used = fr["uses"].get(key, 0)
    if a.times is None and used:
        return False
    if a.group and fr["groups"].get(a.group) and not used:
        return False
    for req in a.after:
        if not fr["groups"].get(req) and not fr["uses"].get(req):
            return False
    if a.times is not None and used >= a.times(rt, env):  # after the tests that read the turn alone
        return False
    if cond and a.cond is not None and not a.cond(rt, env):
        return False
    return True


def take_action(rt, fr: TurnFrame, key, at_once: bool = False) -> None:
    """Take the option ``key`` of the turn ``fr``: count its use and push its block's frame; with
    ``at_once`` (asked in place, inside the run), running direct, run that block to its end now
    (``machine.push_and_run``). An answer given from outside (``resume``) only pushes it: the run
    that follows counts its items afresh."""
    if key == END:
        fr["step"] = TURN_END
        return
    a, c = (rt.prog._window_plan or _plan(rt.prog))[1].get(key) or _find(rt, key)
    u = fr["uses"]
    u[key] = u.get(key, 0) + 1
    seat = fr["seat"]
    if c is None:
        env = {"me": seat}
    else:
        u[a.key] = u.get(a.key, 0) + 1
        env = {"me": seat, "self": c, "owner": rt.cards[c]["o"]}
    if a.group:
        fr["groups"][a.group] = fr["groups"].get(a.group, 0) + 1
    narrate = rt.narrate
    if narrate:
        rt.say(
            f"{rt.seat_name(seat)}: {action_label(rt, fr, key)}",
            None,
            place=a.place,
            action=True,
            type="action",
            seat=seat,
            action_id=key,
        )
    if rt.stats is not None:
        k = f"{rt.cards[c]['t']}.{a.key}" if c is not None else f"game.{a.key}"
        rt.stats[k] = rt.stats.get(k, 0) + 1
    block = a.block
    if block.inline and not narrate:  # plain statements: run now (narrating, the frame names the action)
        if rt.blocks is not None:  # its generated function, as run_inline runs it (one call less)
            (block.direct or rt.blocks(block, rt.prog))(rt, env, fr)
        else:
            run_inline(rt, env, block, fr)
        return
    if at_once:
        push_and_run(rt, block, env)
    else:
        rt.push_block(block, env)


# ==================================================================== rounds and phases
# The flow frame (frames.FlowFrame): ``phase`` the next phase (``len(phases)``: the round's end; one
# more: a stall's effect has run, start the next round), ``round_start`` the decisions count at the
# round's start and ``idle_rounds`` the rounds in a row without any decision; with ``flow.stall``,
# ``stalled_rounds`` the rounds in a row that were stuck (``when`` held at their end and ``progress``
# kept the value ``stall_value`` it had at their start).
def _flow(rt, fr: FlowFrame) -> None:
    st = rt.st
    prog = rt.prog
    if st["over"]:
        finish(rt)
        return
    p = fr["phase"]
    n = len(prog.phases)
    if p == n:
        if rt.narrate:
            rt.digest("round_end", prog.phase_places[-1] if prog.phase_places else None)
        if prog.until is not None and _evaluate(rt, prog.until, "until"):
            finish(rt)
            return
        why = _stalled(rt, fr)
        if why:
            _stall(rt, fr, why)
            return
    if p >= n:
        fr["phase"] = p = 0
    if p == 0:
        if st["round"] >= prog.max_rounds:
            raise RoundCapReached(
                f"the game did not end within {prog.max_rounds} rounds (phase '{prog.phases[0][0]}'); "
                f"the cap is flow.max_rounds{_at(prog.flow_places.get('max_rounds'))}; "
                "flow.stall can end a game that no longer progresses",
                prog.phase_places[0],
                "play/loop",
            )
        st["round"] += 1
        fr["round_start"] = _progress(st)
        if prog.stall_progress is not None:
            fr["stall_value"] = _progress_value(rt)
        if rt.narrate:
            rt.say(f"== Round {st['round']} ==", prog.phases[0][1], round_start=True, type="round")
    phase_id, block = prog.phases[p]
    fr["phase"] = p + 1
    st["phase"] = phase_id
    if rt.narrate:
        rt.say(None, None, place=prog.phase_places[p], type="phase", phase=phase_id)
    rt.push_block(block, {"me": None})


def _at(place) -> str:
    return f" ({place})" if place else ""


def _evaluate(rt, fn, key):
    """A flow expression (``until``, ``stall.when``, ``stall.progress``); an error carries its place."""
    try:
        return fn(rt, {"me": None})
    except PlayError as exc:
        if exc.place is None:
            exc.place = rt.prog.flow_places.get(key)
        raise


def _progress_value(rt):

    return _plain(_evaluate(rt, rt.prog.stall_progress, "stall.progress"))


def _stalled(rt, fr: FlowFrame) -> str:
    """At a round's end: update the idle counts; why the game has stalled, or '' while it progresses."""
    st, prog = rt.st, rt.prog
    why = ""
    if _progress(st) == fr["round_start"]:
        fr["idle_rounds"] += 1
        if fr["idle_rounds"] >= prog.idle_rounds:
            why = f"{fr['idle_rounds']} rounds in a row without a decision"
    else:
        fr["idle_rounds"] = 0
    if prog.stall_when is not None or prog.stall_progress is not None:
        stuck = (prog.stall_when is None or _evaluate(rt, prog.stall_when, "stall.when")) and (
            prog.stall_progress is None or ("stall_value" in fr and _progress_value(rt) == fr["stall_value"])
        )
        fr["stalled_rounds"] = fr.get("stalled_rounds", 0) + 1 if stuck else 0
        if fr["stalled_rounds"] >= prog.stall_after and not why:
            why = f"{fr['stalled_rounds']} rounds in a row without progress"
    return why


def _stall(rt, fr: FlowFrame, why) -> None:
    """Run the game's stall effect (``flow.stall.do``), or stop with ``play/stall`` when it has none."""
    st, prog = rt.st, rt.prog
    last = next((i for i, (pid, _) in enumerate(prog.phases) if pid == st["phase"]), len(prog.phases) - 1)
    if prog.stall_do is None:
        raise PlayError(
            f"the game stalled in round {st['round']}: {why} (last phase '{st['phase']}'); "
            'flow.stall says what a stall does (docs/rule-files.md, "Stalls")',
            prog.phase_places[last],
            "play/stall",
        )
    fr["idle_rounds"] = fr["stalled_rounds"] = 0
    fr["phase"] = len(prog.phases) + 1  # after the effect: the next round, with no second stall check
    if rt.narrate:
        rt.say(f"The game has stalled: {why}.", None, place=prog.stall_place, stall=True, type="stall")
    rt.push_block(prog.stall_do, {"me": None})


def finish(rt) -> None:
    """Score the game, record the result and empty the stack."""
    st = rt.st
    prog = rt.prog
    n = st["n"]
    parts, totals, ties = [], [], []
    for s in range(n):
        env = {"s": s, "me": s}
        row = {}
        for part in prog.score_parts:
            row[part.id] = part.fn(rt, env)
        parts.append(row)
        totals.append(sum(v for v in row.values() if isinstance(v, (int, float))))
        ties.append([tb(rt, env) for tb in prog.tie_break])
    pick = min if prog.lowest_wins else max  # scoring.lowest_wins: the lowest total wins, tie-breaks follow
    best = pick(totals) if totals else 0
    contenders = [s for s in range(n) if totals[s] == best]
    for i in range(len(prog.tie_break)):
        values = [ties[s][i] for s in contenders if ties[s][i] is not None]  # none never wins a tie-break
        if not values:
            continue
        top = pick(values)
        contenders = [s for s in contenders if ties[s][i] == top]
    st["result"] = {"scores": totals, "parts": parts, "winners": contenders, "rounds": st["round"]}
    if rt.narrate:
        rt.digest("game_end", prog.score_parts[0].place if prog.score_parts else None)
    st["over"] = True
    st["stack"].clear()
    st["ti"] = -1
    rt.sync_turn()
    if rt.narrate:
        for s in range(n):
            detail = ", ".join(f"{k} {v}" for k, v in parts[s].items())
            rt.say(
                f"{rt.seat_name(s)} scores {totals[s]} ({detail})",
                None,
                place=prog.score_parts[0].place if prog.score_parts else None,
                score=True,
                type="score",
                seat=s,
                total=totals[s],
                parts=parts[s],
            )
        rt.say(
            "Winner" + ("s" if len(contenders) > 1 else "") + ": " + ", ".join(rt.seat_name(s) for s in contenders),
            None,
            place=prog.score_parts[0].place if prog.score_parts else None,
            score=True,
            type="winners",
            winners=contenders,
        )


FRAMES = {"turn": _turn, "flow": _flow}
