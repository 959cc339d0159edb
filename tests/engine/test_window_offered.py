"""The action window's generated test of the game's actions (runtime/turns.py ``_offered``): for every
combination of uses and groups done, it offers exactly the actions ``_available`` allows, in order,
and evaluates ``times`` and ``if`` in the same order (an error raised by one is raised the same)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from mason.runtime import turns


def _act(key, times=None, group="", after=(), cond=None):
    return SimpleNamespace(key=key, times=times, group=group, after=tuple(after), cond=cond)


ACTS = [
    _act("gold", group="action"),
    _act("draw", group="action"),
    _act("income", cond=lambda rt, env: env["rich"]),
    _act("build", times=lambda rt, env: env["limit"], after=["action"], cond=lambda rt, env: env["can"]),
    _act("twice", times=lambda rt, env: 2, group="extra"),
    _act("late", after=["income", "extra"]),
]


def _by_available(fr, env):
    return [a.key for a in ACTS if turns._available(None, fr, a, a.key, env)]


def test_the_generated_window_offers_what_available_allows():
    offered = turns._offered(tuple((a.key, a.times, a.group, a.after, a.cond) for a in ACTS))
    keys = [a.key for a in ACTS] + ["action", "extra"]
    seen = set()
    for counts in itertools.product((0, 1, 2), repeat=4):
        uses = dict(zip(("gold", "income", "build", "twice"), counts))
        for groups in ({}, {"action": 1}, {"extra": 1}, {"action": 1, "extra": 2}):
            for rich, can, limit in itertools.product((True, False), (True, False), (1, 3)):
                env = {"rich": rich, "can": can, "limit": limit}
                fr = {"uses": uses, "groups": groups}
                got = offered(None, env, uses, groups, [])
                assert got == _by_available(fr, env), (uses, groups, env)
                seen.add(tuple(got))
    assert len(seen) > 20 and set(keys) >= {k for s in seen for k in s}  # the cases differ


def test_the_generated_window_raises_what_the_first_failing_test_raises():
    def boom(rt, env):
        raise ValueError("times")

    def never(rt, env):
        raise AssertionError("the 'if' runs after 'times'")

    offered = turns._offered((("a", boom, "", (), never),))
    with pytest.raises(ValueError, match="times"):
        offered(None, {}, {}, {}, [])
    # an action used up never asks its 'if'
    offered = turns._offered((("a", None, "", (), never),))
    assert offered(None, {}, {"a": 1}, {}, []) == []
