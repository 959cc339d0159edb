"""Answers: checking an answer against a decision, and decisions answered in place by bots.

A bot that needs no view to decide (it answers from the options' number alone, as the random bot
does: ``Agent.blind_pick``) may be asked *in place*: the statement that asks (a choice, the action window)
gets its answer at once and goes on, instead of storing a pending decision, leaving the run loop and
being resumed. The rules run the same statements in the same order and the bots draw the same
numbers, so a game ends in the same state either way (``tests/engine/test_in_place.py``); only the
round trip through ``state['pending']`` and ``Game.answer`` is saved. ``play_game`` turns it on
for a game that does not narrate and whose caller does not look at each answer (``simulate``).
"""

from __future__ import annotations

from mason.errors import IllegalAction, MasonError


def answered_in_place(rt, pick, seat: int, options: list, subset: int = 0, ordered: bool = False):
    """``pick``'s answer (an option index, or a list of them for a subset) to the decision ``seat``
    would be asked, counted as a decision: what ``Game.answer`` does for an answer from outside.
    ``ordered``: a subset whose order counts (``choose ordered up to N``), told to the bot."""
    st = rt.st
    n = len(options)
    if subset:
        answer = pick(st, seat, n, subset, ordered) if ordered else pick(st, seat, n, subset)
        answer = check_answer({"options": options, "subset": subset}, answer)
    else:  # one option's index: the common case
        answer = pick(st, seat, n, 0)
        if type(answer) is not int or not 0 <= answer < n:
            answer = check_answer({"options": options, "subset": 0}, answer)
    count = st["decisions"] = st["decisions"] + 1
    if count > rt.decision_cap:
        raise MasonError(f"no end after {rt.decision_cap - rt.decision_base} decisions", code="play/loop")
    rt.spent = 0  # items gone through are counted from one decision to the next, as a resumed run does
    return answer


INDEXED = "Game.answer takes an option's index, counted from 0 (the prompt's number less 1)"


def check_answer(pending: dict, answer):
    """Validate an answer against a pending decision; return it normalised or raise IllegalAction.

    An answer is an option's index from 0 (a list of them for a subset); the prompt shows numbers
    from 1 (index + 1). An action window's key (``pending['keys']``, the letter the prompt shows) is
    accepted too and read as its index."""
    n = len(pending["options"])
    keys = pending.get("keys")
    if isinstance(answer, str) and keys and answer.lower() in keys:
        return keys.index(answer.lower())
    if pending["subset"]:
        if not isinstance(answer, list) or any(not isinstance(i, int) or isinstance(i, bool) for i in answer):
            raise IllegalAction("this choice takes a list of option numbers")
        if len(set(answer)) != len(answer):
            raise IllegalAction("an option may be chosen only once")
        if len(answer) > pending["subset"]:
            raise IllegalAction(f"choose at most {pending['subset']}")
        bad = [i for i in answer if not 0 <= i < n]
        if bad:
            raise IllegalAction(f"no option has index {bad[0]}: {INDEXED}: 0 to {n - 1} here")
        return list(answer)  # the order given is kept: it is the order the player lists them
    if not isinstance(answer, int) or isinstance(answer, bool):
        letters = f" or one of the keys {', '.join(keys)}" if keys else ""
        raise IllegalAction(f"answer with one option's index{letters}: {INDEXED}: 0 to {n - 1} here")
    if not 0 <= answer < n:
        raise IllegalAction(f"no option has index {answer}: {INDEXED}: 0 to {n - 1} here")
    return answer
