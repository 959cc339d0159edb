"""Automated seats: seats whose every decision a policy written in the rule files takes.

game.yaml::

    automata:
      ID:                       # snake_case
        name: Rival             # how the seat is named everywhere (instead of P2)
        players: [1]            # the player counts at which it joins, after the players' seats
        status: placeholder     # optional; text: optional description (``mason rules``)
        policy:                 # the first rule whose ``when`` holds decides
          - when: 'kind == "action"'               # optional; sees prompt, kind, me
            prefer: ['option == "harvest"', "coins"]  # keys of each offered ``option``, highest first

State: ``state["automata"]`` maps each automated seat (as a string, JSON keys) to its automaton
id; ``state["n"]`` counts every seat. No agent answers for such a seat: ``Game`` applies
``decide`` to every decision put to it, logs it as an ``automated`` entry (not a ``decision``)
and does not count it in ``state["decisions"]``.

Ranking: each offered option gets the tuple of its ``prefer`` keys (numbers or true/false,
``none`` below everything); the highest tuple wins and ties go to the option offered first. An
``up to N`` choice takes the N best in that order. No rule matches: the first option offered.
``option`` is the card, seat or value offered; ``none`` for an optional choice's "none"; the
label text for ``choose one``; the action id (``"end"`` for ending the turn) in an action window.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from mason.errors import Place, PlayError
from mason.runtime.frames import Asking

WHEN_NAMES = ("prompt", "kind", "me")
KEY_NAMES = ("option", "prompt", "kind", "me")
END = "end"


@dataclass
class PolicyRule:
    """One rule of an automaton's policy: when it applies and the keys it prefers options by."""

    when: Optional[Callable]
    prefer: list  # [(closure, Place)]
    place: Place
    sources: tuple = ()  # each prefer key as written (for the reason in words, runtime/reasons.py)
    text: str = ""  # the rule in words, as the rule files give it


@dataclass
class AutomatonDef:
    """An automated seat: its name, the player counts it joins at and its policy rules."""

    id: str
    name: str
    players: tuple
    status: str
    text: str
    rules: list = field(default_factory=list)
    place: Optional[Place] = None


def compile_automata(program) -> dict[str, AutomatonDef]:
    """Compile every policy expression once; errors are collected on the program (file:line:col)."""
    out = {}
    for aid, adef in (program.spec.game.get("automata") or {}).items():
        rules = []
        for rule in adef.get("policy") or []:
            prefer = rule.get("prefer") or []
            keys = [(program.expr(prefer, i, KEY_NAMES), program.place(prefer, i)) for i in range(len(prefer))]
            sources = tuple(str(x) for x in prefer)
            rules.append(
                PolicyRule(
                    program.expr(rule, "when", WHEN_NAMES), keys, program.place(rule), sources, rule.get("text", "")
                )
            )
        out[aid] = AutomatonDef(
            aid,
            adef.get("name", aid),
            tuple(adef.get("players") or ()),
            adef.get("status", ""),
            adef.get("text", ""),
            rules,
            program.place(adef),
        )
    return out


def option_values(rt, pending) -> list:
    """What ``option`` is for each offered option of the pending decision."""
    fr: Asking = rt.st["stack"][-1]
    if fr["kind"] == "turn":
        return [k.partition("@")[0] for k in pending["options"]]
    if fr["kind"] == "option":
        # late: choices can only be imported after machine (machine imports it at its end)
        from mason.runtime.choices import _text  # a label with {expr} parts is the text shown

        node = rt.nodes[fr["node"]]
        return [_text(rt, fr, node.options[i][0]) for i in pending["options"]]
    return list(pending["options"])


def decide(rt, auto: AutomatonDef, pending: dict):
    """(answer, index of the policy rule used or None) for a decision put to an automated seat."""
    chosen = policy_rule(rt, auto, pending)
    keys = policy_keys(rt, auto, pending, chosen)
    n = len(pending["options"])
    order = list(range(n)) if keys is None else sorted(range(n), key=keys.__getitem__, reverse=True)  # stable
    if pending["subset"]:
        return order[: pending["subset"]], chosen
    return order[0], chosen


def policy_rule(rt, auto: AutomatonDef, pending: dict):
    """The index of the first policy rule whose ``when`` holds for the pending decision, or None."""
    env = {"me": pending["seat"], "prompt": pending["prompt"], "kind": pending["kind"]}
    for i, rule in enumerate(auto.rules):
        if rule.when is None or _eval(rt, rule.when, env, rule.place, "when"):
            return i
    return None


def policy_keys(rt, auto: AutomatonDef, pending: dict, chosen, raw: bool = False):
    """Each offered option's tuple of ranks by rule ``chosen``'s ``prefer`` keys (None: no rule or no
    key, the first option offered decides); ``raw``: the keys' values as the expressions gave them."""
    if chosen is None or not auto.rules[chosen].prefer:
        return None
    env = {"me": pending["seat"], "prompt": pending["prompt"], "kind": pending["kind"]}
    keys = []
    for v in option_values(rt, pending):
        kenv = dict(env, option=v)
        got = [(_eval(rt, fn, kenv, place, "prefer"), place) for fn, place in auto.rules[chosen].prefer]
        keys.append(tuple(v for v, _ in got) if raw else tuple(_rank(v, place) for v, place in got))
    return keys


def _eval(rt, fn, env, place, what):
    try:
        return fn(rt, dict(env))
    except PlayError as exc:
        if exc.place is None:
            exc.place = place
        raise
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
        raise PlayError(
            f"cannot evaluate this policy {what}: {type(exc).__name__}: {exc}", place, "play/type"
        ) from None


def _rank(v, place):
    if v is None:
        return (0, 0)
    if isinstance(v, (bool, int, float)):
        return (1, int(v) if isinstance(v, bool) else v)
    raise PlayError(f"a policy key gives a number, true/false or none, not {v!r}", place, "play/type")
