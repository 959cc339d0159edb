"""What other rules would have made of a recorded game (``mason replay LOG --rules PATH | --variant V |
--with X``): the log's answers are given, one by one, to the same game under the other rules, and the
first place where the game goes another way is reported: a decision offered with other options (or to
another seat, or not at all), an answer no longer legal, or an event that differs, with its causes and
the state that differs; else that the game would have gone the same way to the end, with the final
scores under both.

What is compared is what the rules did, not where they are written: an entry's rule-file places
(``at``), the rules hash and the settings are left out, so the same rules read from a copied folder
replay the same. The log's own rules are replayed beside the other ones when they still load with
the log's rules hash, so the state at the divergence can be compared whole (counters, variables,
zones, boards); a log whose rules changed since is compared to the log alone.
"""

from __future__ import annotations

import json
from dataclasses import replace

from mason.errors import IllegalAction, MasonError
from mason.runtime.values import split_zone_key
from mason.session.game import Game, Settings

# what an entry says about where a rule is written (and which rules), not about what happened
UNCOMPARED = ("at", "policy_at", "rules", "settings")
STATE_LINES = 12  # state differences shown at most


def other_settings(settings: Settings, rules: str | None = None, variants=(), expansions=()) -> Settings:
    """The log's settings under other rules: ``rules`` (a game folder or id) in place of the game, and
    ``variants`` and ``expansions`` added to the log's."""
    return replace(
        settings,
        game=rules or settings.game,
        variants=tuple(settings.variants) + tuple(v for v in variants if v not in settings.variants),
        expansions=tuple(settings.expansions) + tuple(e for e in expansions if e not in settings.expansions),
    )


def comparable(entry: dict) -> dict:
    """A log entry without its rule-file places, rules hash and settings, as JSON reads it back."""
    out = {k: v for k, v in entry.items() if k not in UNCOMPARED}
    if isinstance(out.get("because"), list):
        out["because"] = [{k: v for k, v in item.items() if k != "at"} for item in out["because"]]
    return json.loads(json.dumps(out, sort_keys=True))


def _start(settings: Settings, recorded: bool) -> Game:
    """The game started (to its first decision); an error during setup ends its log with the error."""
    try:
        return Game.new(settings, recorded=recorded)
    except MasonError as exc:
        game = getattr(exc, "game", None)
        if game is None:
            raise
        game.record_error(exc)
        return game


def _original(entries: list[dict]) -> Game | None:
    """The log's game under its own rules, when they still load and are the log's (same rules hash)."""
    try:
        game = _start(Settings.from_json(entries[0]["settings"]), recorded=True)
    except MasonError:
        return None
    if not game.log or game.log[0].get("rules") != entries[0].get("rules"):
        return None
    return game


def _stopped(game: Game) -> bool:
    return game.over or bool(game.log and game.log[-1].get("type") == "error")


def diverge(entries: list[dict], settings: Settings) -> dict:
    """Replay the answers of ``entries`` (a log read by ``session.read_log``) under ``settings``; the
    report as data: ``diverges`` (bool), ``decisions`` (in the log), and at a divergence ``kind``
    (``options``, ``answer``, ``event``, ``length``), ``decision`` (its number from 1, or 0 for the
    setup), ``entry`` (the log's index), ``round``, ``seat``, ``prompt``, the difference (``removed`` and
    ``added`` options, or ``logged`` and ``now`` entries), ``because`` (the cause chain in words) and
    ``state`` (the differences of the state, when the log's own rules could be replayed beside);
    without a divergence, ``scores`` and ``scores_now`` (None when the game did not end)."""
    from mason.session.saves import bot_reason_entry

    new = _start(settings, recorded=False)
    old = _original(entries)
    decisions = [(i, e) for i, e in enumerate(entries) if e.get("type") == "decision"]
    report: dict = {
        "decisions": len(decisions),
        "diverges": True,
        "rules": new.log[0].get("rules") if new.log else None,
        "seat_names": new.seat_names(),
    }
    checked = 0
    answered = 0  # decisions answered so far under the other rules

    def first_difference() -> int | None:
        """The index of the first entry, since the last look, where the replay and the log differ."""
        nonlocal checked
        produced = new.log
        for i in range(checked, min(len(produced), len(entries))):
            if comparable(produced[i]) != comparable(entries[i]):
                return i
        checked = min(len(produced), len(entries))
        return None

    def at(i: int, kind: str) -> dict:
        """The report of a divergence at log entry ``i``, after ``answered`` decisions."""
        last = decisions[answered - 1][1] if answered else None
        report.update(
            kind=kind, entry=i, decision=answered, round=(entries[i] if i < len(entries) else {}).get("round")
        )
        if last is not None:
            report.update(seat=last.get("seat"), prompt=last.get("prompt"), chosen=last.get("chosen"))
        if old is not None:
            report["state"] = state_differences(old, new)
        return report

    for k, (i, e) in enumerate(decisions):
        j = first_difference()
        if j is not None:
            return _event(at(j, "event"), entries, new.log, j)
        if _stopped(new) or len(new.log) < i:  # the other rules ended the game, or ask sooner
            j = len(new.log)
            report = _event(at(j, "length"), entries, new.log, j)
            p = None if _stopped(new) else new.pending
            if p is not None:  # a decision the log does not have here (where it had one option, or none)
                was = entries[j]
                logged = was.get("options") or () if was.get("type") == "resolved" else ()
                ids = [o.get("id") for o in logged]
                report.update(kind="asked", seat=p["seat"], prompt=p["prompt"], round=new.state["round"])
                report["decision"] = answered + 1
                # a resolved option's label has no preview: the options are matched by what they are
                report["removed"] = [o.get("label") for o in logged if o.get("id") not in p["options"]]
                report["added"] = [lab for o, lab in zip(p["options"], p["labels"]) if o not in ids]
                report["options_now"] = list(p["labels"])
                report["resolved"] = was.get("type") == "resolved" and was.get("prompt") == p["prompt"]
            return report
        while len(new.log) < i and bot_reason_entry(entries[len(new.log)]):
            new.log.append(entries[len(new.log)])  # a bot's reason: its thinking, taken from the log
        p = new.pending
        logged = [o.get("label") for o in e.get("options") or ()]
        if p is None or p["seat"] != e.get("seat") or p["prompt"] != e.get("prompt") or p["labels"] != logged:
            report.update(kind="options", entry=i, decision=k + 1, round=e.get("round"), seat=e.get("seat"))
            report.update(prompt=e.get("prompt"), chosen=e.get("chosen"))
            report["removed"] = [x for x in logged if p is None or x not in p["labels"]]
            report["added"] = [x for x in (p["labels"] if p else ()) if x not in logged]
            if p is not None and (p["seat"] != e.get("seat") or p["prompt"] != e.get("prompt")):
                report["now_asks"] = {"seat": p["seat"], "prompt": p["prompt"]}
            report["because"] = _causes(entries, i)
            if old is not None:
                report["state"] = state_differences(old, new)
            return report
        try:
            new.answer(e["answer"])
        except IllegalAction as exc:
            report.update(kind="answer", entry=i, decision=k + 1, round=e.get("round"), seat=e.get("seat"))
            report.update(prompt=e.get("prompt"), chosen=e.get("chosen"), reason=exc.message)
            report["because"] = _causes(entries, i)
            return report
        except MasonError as exc:  # the other rules stopped the game here: compared as an event
            new.record_error(exc)
        answered += 1
        if old is not None:
            try:
                while len(old.log) < i and bot_reason_entry(entries[len(old.log)]):
                    old.log.append(entries[len(old.log)])
                old.answer(e["answer"])
            except MasonError:
                old = None  # the log's own rules no longer replay it: compared to the log alone
    j = first_difference()
    if j is None and len(new.log) != len(entries):
        j = min(len(new.log), len(entries))
    if j is not None:
        return _event(at(j, "event" if j < min(len(new.log), len(entries)) else "length"), entries, new.log, j)
    end = next((x for x in reversed(entries) if x.get("type") == "end"), None)
    report.update(
        diverges=False,
        scores=(end or {}).get("result", {}).get("scores") if end else None,
        scores_now=new.result["scores"] if new.over and new.result else None,
    )
    return report


def _event(report: dict, logged: list[dict], produced: list[dict], j: int) -> dict:
    """A divergence at entry ``j``: the two entries (one may be missing) and the causes of each."""
    from mason.presentation.explain import describe

    report["logged"] = describe(logged[j]) if j < len(logged) else None
    report["now"] = describe(produced[j]) if j < len(produced) else None
    if j < len(logged) and j < len(produced):  # the first field that differs, as data
        from mason.play.session import _difference

        report["difference"] = _difference(comparable(logged[j]), comparable(produced[j]))
    report["because"] = _causes(logged, j) if j < len(logged) else []
    report["because_now"] = _causes(produced, j) if j < len(produced) else []
    if j < len(produced) and produced[j].get("type") == "error":
        report["error"] = produced[j].get("message")
    return report


def _causes(entries: list[dict], i: int) -> list[str]:
    """The cause chain of entry ``i`` in words, as the seat whose decision set it going may read it
    (the designer reads the whole log; that seat's own decision is then named with its answer)."""
    from mason.presentation.explain import cause_lines

    seat = entries[i].get("seat") if entries[i].get("type") == "decision" else None
    for item in entries[i].get("because") or ():
        k = item.get("entry") if item.get("kind") == "decision" else None
        if isinstance(k, int) and 0 <= k < len(entries):
            seat = entries[k].get("seat")
    return cause_lines(entries, i, seat)


def state_differences(old: Game, new: Game, limit: int = STATE_LINES) -> list[str]:
    """How the state under the other rules differs from the log's, in words: counters, variables, zones
    (the cards in each, by name) and boards, at most ``limit`` lines (then how many more)."""
    a, b = old.state, new.state
    names = new.seat_names()
    out: list[str] = []

    def seat(s: int) -> str:
        """A seat as the game names it."""
        return names[s] if s < len(names) else f"P{s + 1}"

    for part in ("counters", "vars"):
        for key in sorted(set(a[part]) | set(b[part])):
            va, vb = a[part].get(key), b[part].get(key)
            if va == vb:
                continue
            if isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
                out += [
                    f"{seat(s)} {_words(key)}: {_val(x)} -> {_val(y)}" for s, (x, y) in enumerate(zip(va, vb)) if x != y
                ]
            else:
                out.append(f"{_words(key)}: {_val(va)} -> {_val(vb)}")
    for key in sorted(set(a["zones"]) | set(b["zones"])):
        ca = [old.program.types[a["cards"][c]["t"]]["name"] for c in a["zones"].get(key, ())]
        cb = [new.program.types[b["cards"][c]["t"]]["name"] for c in b["zones"].get(key, ())]
        if sorted(ca) != sorted(cb):
            gone = _minus(ca, cb)
            came = _minus(cb, ca)
            said = ", ".join([f"-{x}" for x in gone] + [f"+{x}" for x in came]) or "the same cards, in another order"
            out.append(f"{_zone(key, seat)}: {said}")
    for key in sorted(set(a.get("boards", {})) | set(b.get("boards", {}))):
        if a.get("boards", {}).get(key) != b.get("boards", {}).get(key):
            out.append(f"board {_words(key)} differs")
    if a.get("round") != b.get("round"):
        out.append(f"round: {a.get('round')} -> {b.get('round')}")
    if len(out) > limit:
        out = out[:limit] + [f"... and {len(out) - limit} more"]
    return out


def _minus(xs: list, ys: list) -> list:
    rest = list(ys)
    out = []
    for x in xs:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def _words(key: str) -> str:
    return str(key).replace("_", " ")


def _val(v) -> str:
    return json.dumps(v) if not isinstance(v, str) else v


def _zone(key: str, seat) -> str:
    name, owner = split_zone_key(key)
    return f"{seat(owner)}'s {_words(name)}" if owner is not None else _words(name)


def report_lines(report: dict, log_name: str, rules_name: str, lines: list[int] | None = None) -> list[str]:
    """The report of ``diverge`` in words; ``lines`` maps the log's entries to its file lines."""

    def line_of(i: int) -> str:
        """Where entry ``i`` is: ``FILE:LINE``."""
        if lines and 0 <= i < len(lines):
            return f"{log_name}:{lines[i]}"
        return f"{log_name}, entry {i}"

    n = report["decisions"]
    head = f"replayed the {n} decision{'s' if n != 1 else ''} of {log_name} under {rules_name}"
    if not report["diverges"]:
        out = [head + ": the game would have gone the same way to the end (same options, same events)"]
        if report.get("scores") is not None or report.get("scores_now") is not None:
            names = report.get("seat_names")
            out.append(
                f"final scores: in the log {_scores(report.get('scores'), names)}; "
                f"now {_scores(report.get('scores_now'), names)}"
            )
        else:
            out.append("the log stops before the game's end; so does the replay")
        return out
    names = report.get("seat_names") or []
    seat = report.get("seat")
    who = (names[seat] if seat < len(names) else f"P{seat + 1}") if isinstance(seat, int) else "nobody"
    out = [head + ":"]
    kind = report["kind"]
    if kind in ("options", "answer"):
        out.append(
            f"first divergence: decision {report['decision']} of {n} (round {report.get('round')}, {who}: "
            f"{report.get('prompt')}), {line_of(report['entry'])}"
        )
        if kind == "answer":
            out.append(f"  the log's answer '{_chosen(report.get('chosen'))}' is not legal now: {report['reason']}")
        else:
            asks = report.get("now_asks")
            if asks:
                out.append(f"  now P{asks['seat'] + 1} is asked instead: {asks['prompt']}")
            out.append("  the options differ (- the log's only, + now only):")
            out += [f"    - {x}" for x in report.get("removed") or ()] + [
                f"    + {x}" for x in report.get("added") or ()
            ]
            if not report.get("removed") and not report.get("added"):
                out.append("    (the same options in another order)")
            out.append(f"  in the log {who} chose: {_chosen(report.get('chosen'))}")
    elif kind == "asked":
        out.append(
            f"first divergence: decision {report['decision']} (round {report.get('round')}, {who}: "
            f"{report.get('prompt')}), {line_of(report['entry'])}: now a decision, where the log "
            + ("had one option, which resolved itself" if report.get("resolved") else "goes on without one")
        )
        if report.get("resolved"):
            out.append("  the options differ (- the log's only, + now only):")
            out += [f"    - {x}" for x in report.get("removed") or ()] + [
                f"    + {x}" for x in report.get("added") or ()
            ]
        else:
            out.append(
                f"  in the log: {report['logged'] if report.get('logged') is not None else '(the log ends here)'}"
            )
            out.append("  now offered: " + "; ".join(report.get("options_now") or ()))
    else:
        after = (
            f"after decision {report['decision']} ({who}: {report.get('prompt')} -> {_chosen(report.get('chosen'))})"
            if report["decision"]
            else "during the setup, before any decision"
        )
        out.append(f"first divergence: {after}, round {report.get('round')}, {line_of(report['entry'])}")
        out.append(f"  in the log: {report['logged'] if report.get('logged') is not None else '(the log ends here)'}")
        out += _chain(report.get("because") or [])
        out.append(f"  now:        {report['now'] if report.get('now') is not None else '(the replay ends here)'}")
        if report.get("because_now") != report.get("because"):
            out += _chain(report.get("because_now") or [])
        if report.get("difference"):
            out.append(f"  the entries differ: {report['difference'].replace('the replay gives', 'now')}")
    if kind != "event":
        out += _chain(report.get("because") or [])
    if report.get("state"):
        when = " (the log's rules, at their next decision -> now)" if kind == "asked" else " (the log's rules -> now)"
        out.append(f"  the state differs{when}:")
        out += [f"    {x}" for x in report["state"]]
    elif "state" in report:
        out.append("  the state is the same so far")
    return out


def _chain(causes: list[str]) -> list[str]:
    return ["    because " + c if k == 0 else "      from " + c for k, c in enumerate(causes)]


def _chosen(c) -> str:
    return ", ".join(map(str, c)) if isinstance(c, list) else str(c)


def _scores(scores, names=None) -> str:
    if scores is None:
        return "(not ended)"
    return ", ".join(f"{names[s] if names and s < len(names) else f'P{s + 1}'} {x}" for s, x in enumerate(scores))
