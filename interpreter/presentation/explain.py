"""Why a change happened, read from a log as one seat may know it (``mason explain``, ``why`` at the prompt).

Every event carries ``because`` (docs/log-format.md): the rules running when it happened, nearest
first (an action, ability, trigger, phase or setup step with its rule id and rule-file place), the
turn, the round, and the decision whose answer set them going. Here that chain is put in words,
leaving out what the seat may not read: a decision of another seat is named only by its seat, a
card the entry's readers cannot see is not in the chain at all (the machine leaves it out).
A decision an automated seat or a bot took is named by its ``reason`` entry (runtime/reasons.py):
the policy's compared values or the bot's figures in words, as the seat may read them.
"""

from __future__ import annotations

from mason.errors import MasonError
from mason.runtime.values import label_of
from mason.session.game import Game, Settings


def readable(entry: dict, seat) -> bool:
    """Whether ``seat`` (None: an onlooker who sees only public entries) may read ``entry``."""
    to = entry.get("to")
    if to is not None and (seat is None or seat not in to):
        return False
    return seat is None or seat not in (entry.get("hide_from") or ())


def _seat(s) -> str:
    return f"P{s + 1}" if isinstance(s, int) else "nobody"


def describe(entry: dict) -> str:
    """An entry in one line: its narration, else what kind of event it is."""
    if entry.get("text"):
        return entry["text"]
    kind = entry.get("type")
    if kind in ("decision", "resolved", "automated"):
        how = {"decision": "chose", "resolved": "had one option", "automated": "chose (automated)"}[kind]
        chosen = entry.get("chosen")
        if chosen is None and entry.get("options"):
            chosen = entry["options"][0]["label"]
        shown = ", ".join(chosen) if isinstance(chosen, list) else chosen
        return f"{_seat(entry.get('seat'))} {how}: {entry.get('prompt', 'a decision')} -> {shown}"
    if kind == "phase":
        return f"phase {entry.get('phase')}"
    if kind == "digest":
        return f"state digest ({entry.get('when')})"
    if kind == "change":
        return "counters change: " + ", ".join(_change(c) for c in entry.get("changes") or ())
    if kind == "board":  # a change no narration tells (a payment recorded, a bag's piece kept)
        return f"{entry.get('primitive')} {entry.get('board')}: {str(entry.get('op')).replace('_', ' ')}"
    if kind == "trade":
        side = {"buy": "buys", "sell": "sells"}.get(str(entry.get("side")), "trades")
        return f"{_seat(entry.get('seat'))} {side} {entry.get('count')} {entry.get('good')}"
    return kind or "entry"


def _change(c: dict) -> str:
    name = c["counter"].replace("_", " ")
    if "value" in c:
        return f"{_seat(c['seat'])} {name} set to {c['value']}"
    return f"{_seat(c['seat'])} {'+' if c['delta'] > 0 else ''}{c['delta']} {name}"


def cause_lines(entries: list[dict], i: int, seat) -> list[str]:
    """The chain of causes of entry ``i``, one line each, nearest first."""
    out = []
    for item in entries[i].get("because") or ():
        kind = item.get("kind")
        if kind in ("action", "ability", "trigger", "phase", "setup", "stall"):
            label = label_of(item, item.get("id", ""))
            what = {
                "action": "the action",
                "ability": "the ability",
                "trigger": "the trigger",
                "phase": "the phase",
                "setup": "the setup step",
                "stall": "the stall rule",
            }[kind]
            line = f"{what} '{label}'"
            if item.get("name"):
                line += f" of {item['name']} (card #{item['card']})"
            rule = ", ".join(x for x in (f"rule {item['rule']}" if item.get("rule") else "", item.get("at", "")) if x)
            out.append(line + (f" [{rule}]" if rule else ""))
        elif kind == "turn":
            card = f" as {item['name']}" if item.get("name") else ""
            out.append(f"{_seat(item.get('seat'))}'s turn{card}")
        elif kind == "round":
            out.append(f"round {item.get('round')}")
        elif kind == "decision":
            k = item.get("entry")
            d = entries[k] if isinstance(k, int) and 0 <= k < len(entries) else None
            reason = reason_for(entries, k, seat) if d is not None else None
            if d is None:
                out.append(f"decision at entry {k}")
            elif reason is not None:  # an automated seat's or a bot's decision, with its reason in words
                out.append(f"entry {k}: {reason['text']}")
            elif readable(d, seat):
                out.append(f"entry {k}: {describe(d)}")
            else:
                out.append(f"entry {k}: a decision of {_seat(d.get('seat'))}")
    return out


def reason_for(entries: list[dict], k: int, seat) -> dict | None:
    """The ``reason`` entry ``seat`` may read for decision entry ``k``: an automated decision's follows
    it (naming it in ``decision``), a bot's comes just before it (the bot's own seat reads the full one,
    the others its public twin)."""
    d = entries[k]
    if d.get("type") == "automated":
        step, stop = 1, len(entries)
    elif d.get("type") == "decision":
        step, stop = -1, -1
    else:
        return None
    for j in range(k + step, stop, step):
        e = entries[j]
        if e.get("type") in ("decision", "automated"):
            return None
        if e.get("type") == "reason" and e.get("seat") == d.get("seat") and readable(e, seat):
            if step == 1 and e.get("decision") != k:
                continue
            return e
    return None


def reason_lines(entry: dict) -> list[str]:
    """The figures behind a ``reason`` entry, one line an option: a policy's key values, a bot's estimates."""
    out = []
    if entry.get("values"):
        if entry.get("policy"):
            out.append(f"  policy: {entry['policy']}")
        out.append("  each option's keys (" + ", ".join(entry.get("keys") or ()) + "), the highest tuple chosen:")
        for v in entry["values"]:
            out.append(f"    {v['option']}: " + ", ".join(json_text(x) for x in v["keys"]))
    for f in entry.get("figures") or ():
        shown = ", ".join(f"{k} {v}" for k, v in f.items() if k != "option")
        out.append(f"    {f['option']}: {shown}")
    return out


def json_text(v) -> str:
    """A log value in words: none, true, false or the value itself."""
    return "none" if v is None else ("true" if v is True else "false" if v is False else str(v))


def changes(entries: list[dict], seat, start: int = 0) -> list[int]:
    """Indexes of the entries from ``start`` that change counters or score, readable by ``seat``."""
    return [
        i
        for i in range(start, len(entries))
        if (entries[i].get("changes") or entries[i].get("type") in ("gain", "pay", "transfer", "score"))
        and readable(entries[i], seat)
    ]


def explain_entry(entries: list[dict], i: int, seat) -> list[str]:
    """Entry ``i`` and why it happened; a MasonError when ``seat`` may not read it."""
    if not 0 <= i < len(entries):
        raise MasonError(f"no entry {i}: the log has entries 0 to {len(entries) - 1}", code="explain/entry")
    e = entries[i]
    if not readable(e, seat):
        hidden = (
            f"is not visible to {_seat(seat)}" if seat is not None else "is not public (--seat N: as seat N sees it)"
        )
        raise MasonError(f"entry {i} {hidden}", code="explain/hidden")
    lines = [f"entry {i} (round {e.get('round', 0)}): {describe(e)}"]
    if e.get("at"):
        lines.append(f"  at {e['at']}")
    if e.get("type") == "reason":
        lines += reason_lines(e)
    elif e.get("type") in ("automated", "decision"):
        found = reason_for(entries, i, seat)
        if found is not None:
            lines.append(f"  reason: {found['text']}")
            lines += reason_lines(found)
    for c in e.get("changes") or ():
        lines.append(f"  change: {_change(c)}")
    causes = cause_lines(entries, i, seat)
    lines += ["  because " + c if k == 0 else "    from " + c for k, c in enumerate(causes)]
    if not causes and e.get("type") != "reason":
        lines.append("  (no rule running: the game's own bookkeeping)")
    return lines


def explain(entries: list[dict], seat, entry: int | None = None) -> list[str]:
    """``mason explain``: one entry (``entry``, its index in the log) with its causes, or every counter
    change the seat may read with its nearest causes."""
    if entry is not None:
        return explain_entry(entries, entry, seat)
    out = []
    reasons = {i for i, e in enumerate(entries) if e.get("type") == "reason" and readable(e, seat)}
    for i in sorted(set(changes(entries, seat)) | reasons):
        if i in reasons:
            out.append(f"[{i}] {entries[i]['text']}")
            continue
        causes = cause_lines(entries, i, seat)
        out.append(f"[{i}] {describe(entries[i])}" + (f"  <- {causes[0]}" if causes else ""))
    return out


def not_offered(game: Game) -> list[str]:
    """The actions the pending decision leaves out only by their condition: the reason in words (when the
    action gives one), the condition as written and its place."""
    return [f"'{label}' was not offered: {reason}" for label, reason in game.unavailable_actions(with_rule=True)]


def replay_to(entries: list[dict], i: int):
    """The game of a log replayed up to decision entry ``i`` (that decision pending), from its answers,
    under the rules that were in force there: from the start, or from the state of the last change of
    rules before ``i`` (a ``rules_changed`` entry, ``mason play --resume SAVE --rules-changed``). Only
    the rule files as they are now can be loaded: when the rules in force at ``i`` were others (the
    entry comes before a change, or the files changed since), a MasonError ``explain/rules-changed``
    names the entry rather than replay it under the wrong rules."""
    import json

    from mason.session.saves import last_rules_change, rules_hash

    settings = Settings.from_json(entries[0]["settings"])
    game = Game.new(settings, recorded=True)
    change = last_rules_change(entries[:i])
    in_force = (entries[change] if change is not None else entries[0]).get("rules")
    now = rules_hash(game.program)
    if in_force is not None and in_force != now:
        later = last_rules_change(entries)
        before = f", before the log's change of rules at entry {later}" if change is None and later is not None else ""
        raise MasonError(
            f"entry {i} was played under rules the rule files no longer hold{before} (rules hash {in_force}, "
            f"now {now}): what it did not offer cannot be said",
            code="explain/rules-changed",
        )
    start = 0
    if change is not None:  # the game went on from the state the change holds, under the rules now
        state, before = (
            json.loads(json.dumps(entries[change].get("state"))),
            json.loads(json.dumps(entries[: change + 1])),
        )
        game = Game._from_rules_change(game.program, settings, state, before)
        start = change + 1
    for e in entries[start:i]:
        if e.get("type") == "decision":
            if game.over:
                break
            game.answer(e["answer"])
    return game
