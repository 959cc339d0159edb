"""The action window's generated function (runtime/turns.py ``_window``): for every combination of
uses and groups done, it offers exactly the actions and card abilities ``_available`` allows, in
order (a card's only while the seat holds it in an active zone), and evaluates ``times`` and ``if``
in the same order (an error raised by one is raised the same)."""

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


ABILITY = _act("steal", after=["action"], cond=lambda rt, env: env["self"] == 7 and env["owner"] == env["me"])
HELD = ((7, True, [(ABILITY, "steal@7")]), (9, False, [(_act("magic", group="action"), "magic@9")]))


def _by_available(rt, fr, env, seat):
    out = [a.key for a in ACTS if turns._available(rt, fr, a, a.key, env)]
    for c, check, pairs in HELD:
        card = rt.cards[c]
        if not check or (card["o"] == seat and card["z"] in ("city",)):
            cenv = {"me": seat, "self": c, "owner": seat}
            out += [key for a, key in pairs if turns._available(rt, fr, a, key, cenv)]
    return out


def test_the_generated_window_offers_what_available_allows():
    window = turns._window(tuple((a.key, a.times, a.group, a.after, a.cond) for a in ACTS), HELD, {"city"})
    seen = set()
    for counts in itertools.product((0, 1, 2), repeat=4):
        # as the engine keeps them: a use counted from 1, none absent (save.schema.json holds saves to it)
        uses = {k: n for k, n in zip(("gold", "income", "build", "steal@7"), counts) if n}
        for groups in ({}, {"action": 1}, {"extra": 1}, {"action": 1, "extra": 2}):
            for rich, can, limit, held in itertools.product((True, False), (True, False), (1, 3), (0, 1, 2)):
                cards = {7: {"o": 0 if held else 1, "z": "city" if held < 2 else "hand"}, 9: {"o": 1, "z": "deck"}}
                rt = SimpleNamespace(cards=cards)
                env = {"rich": rich, "can": can, "limit": limit, "me": 0}
                fr = {"uses": uses, "groups": groups}
                got = window(rt, env, 0, uses, groups, [])
                assert got == _by_available(rt, fr, env, 0), (uses, groups, env, cards)
                seen.add(tuple(got))
    offered = {k for s in seen for k in s}
    assert len(seen) > 20 and offered == {a.key for a in ACTS} | {"steal@7", "magic@9"}  # the cases differ


def test_the_generated_window_raises_what_the_first_failing_test_raises():
    def boom(rt, env):
        raise ValueError("times")

    def never(rt, env):
        raise AssertionError("the 'if' runs after 'times'")

    window = turns._window((("a", boom, "", (), never),), (), set())
    with pytest.raises(ValueError, match="times"):
        window(None, {}, 0, {}, {}, [])
    # an action used up never asks its 'if'
    window = turns._window((("a", None, "", (), never),), (), set())
    assert window(None, {}, 0, {"a": 1}, {}, []) == []


@pytest.mark.parametrize("generated", [True, False])
def test_times_is_asked_only_once_the_tests_reading_the_turn_alone_pass(generated):
    """An action's ``times`` (a value, perhaps with modifiers) is asked after its group and its
    ``after`` are checked: not at all before the action it comes after, then before its ``if``."""
    asked = []

    def times(rt, env):
        asked.append("times")
        return 1

    def cond(rt, env):
        asked.append("if")
        return True

    act = _act("build", times=times, group="b", after=["action"], cond=cond)

    def offered(uses, groups):
        if generated:
            window = turns._window(((act.key, act.times, act.group, act.after, act.cond),), (), set())
            return window(None, {}, 0, uses, groups, [])
        return ["build"] if turns._available(None, {"uses": uses, "groups": groups}, act, "build", {}) else []

    assert offered({}, {}) == [] and asked == []  # the action not taken yet
    assert offered({}, {"action": 1, "b": 1}) == [] and asked == []  # its group done by another
    assert offered({}, {"action": 1}) == ["build"] and asked == ["times", "if"]


def _reading(extra: dict):
    """ACTS and HELD with their ``times`` and ``if`` reading ``extra`` beside the env they are given."""

    def wrap(f):
        return None if f is None else (lambda rt, env: f(rt, {**extra, **env}))

    acts = tuple((a.key, wrap(a.times), a.group, a.after, wrap(a.cond)) for a in ACTS)
    held = tuple(
        (c, check, [(_act(a.key, wrap(a.times), a.group, a.after, wrap(a.cond)), key) for a, key in pairs])
        for c, check, pairs in HELD
    )
    return acts, held


@pytest.mark.parametrize("required", [(), ("action",), ("action", "extra")])
def test_the_window_of_a_turn_frame_offers_the_same_and_ends_once_the_required_groups_are_done(required):
    """``_window(..., required)`` is ``window(rt, fr)``, as the turn calls it: the same options for the
    frame's seat, uses and groups, then ``END`` once every group of ``turn.required`` is done."""
    acts, held_cards = _reading({"rich": True, "can": True, "limit": 2})
    plain = turns._window(acts, held_cards, {"city"})
    framed = turns._window(acts, held_cards, {"city"}, required)
    ended = 0
    for uses in ({}, {"gold": 1}, {"build": 1, "steal@7": 1}):
        for groups in ({}, {"action": 1}, {"extra": 1}, {"action": 1, "extra": 2}):
            for held in (0, 1, 2):
                cards = {7: {"o": 0 if held else 1, "z": "city" if held < 2 else "hand"}, 9: {"o": 1, "z": "deck"}}
                rt = SimpleNamespace(cards=cards)
                want = plain(rt, {"me": 0}, 0, uses, groups, [])
                if all(req in groups for req in required):
                    want.append(turns.END)
                    ended += 1
                assert framed(rt, {"seat": 0, "uses": uses, "groups": groups}) == want
    assert 0 < ended < 36 or not required
