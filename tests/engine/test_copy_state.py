"""``copy_state`` (marshal at format 2) equals the JSON round trip it replaced, on every shipped game's
states: every game, expansion and player count played by random bots, the state compared at every
decision. The state must be plain data for that to hold (string keys, lists, no tuples, no ``str``
subclasses), and the test checks that too, so a statement that stores a tuple fails here, not as a bot
that plays differently after a copy. A container met twice (Prague's ``for`` frames share their items
with the values they came from) is written twice by both, so the copies hold two equal containers."""

from __future__ import annotations

import json

import pytest

from mason.agents.random_agent import RandomAgent
from mason.runtime import state as state_module
from mason.runtime.state import copy_state
from mason.session.game import Game, Settings, load_program

GAMES = [("citadels", ()), ("citadels", ("dark-city",)), ("golden-temple", ()), ("island-fortress", ())]
GAMES += [("pillars", ()), ("prague", ())]
DECISIONS = 400  # decisions compared per game (the first ones, then every fifth)
PLAIN = (str, int, float, bool, type(None))


def _configs():
    for game, expansions in GAMES:
        prog = load_program(game, (), expansions)
        for players in range(prog.min_players, prog.max_players + 1):
            yield pytest.param(game, expansions, players, id=f"{game}{'+dark-city' if expansions else ''}-{players}")


def _not_plain(x, path="state"):
    """The first place in ``x`` that is not plain JSON-shaped data, or None."""
    t = type(x)
    if t is dict or t is list:
        items = x.items() if t is dict else enumerate(x)
        for k, v in items:
            if t is dict and type(k) is not str:
                return f"{path}: key {k!r} is a {type(k).__name__}"
            bad = _not_plain(v, f"{path}[{k!r}]")
            if bad:
                return bad
        return None
    return None if t in PLAIN else f"{path}: a {t.__name__}"


def _check(st: dict, where: str) -> None:
    assert _not_plain(st) is None, f"{where}: {_not_plain(st)}"
    copied = copy_state(st)
    assert copied == json.loads(json.dumps(st)), where
    assert copied is not st and copied["cards"] is not st["cards"]


@pytest.mark.parametrize(("game", "expansions", "players"), list(_configs()))
def test_copy_state_equals_the_json_round_trip_on_every_games_states(game, expansions, players, monkeypatch):
    def refuse(state):
        raise AssertionError("copy_state fell back to JSON: the state holds something marshal does not know")

    monkeypatch.setattr(state_module, "_json_copy", refuse)
    g = Game.new(Settings(game, players, 7, (), expansions, {}), narrate=False)
    bots = {s: RandomAgent(7 + s) for s in range(players)}
    n = 0
    while g.result is None and g.state.get("pending") is not None and n < 4 * DECISIONS:
        if n < DECISIONS // 2 or n % 5 == 0:
            _check(g.state, f"{game} {players}p decision {n}")
        seat = g.state["pending"]["seat"]
        g.answer(bots[seat].decide(g, seat))
        n += 1
    _check(g.state, f"{game} {players}p at the end")


def test_the_checker_finds_a_tuple_a_number_key_and_a_str_subclass():
    class Sub(str):
        pass

    assert "tuple" in _not_plain({"a": [(1, 2)]})
    assert "Sub" in _not_plain({"a": Sub("x")})
    assert "key 1" in _not_plain({1: 2})
    assert _not_plain({"a": [1, "b", None, 2.5, True, {"c": []}]}) is None


def test_a_container_met_twice_is_copied_twice_as_json_does():
    shared = [1]
    got = copy_state({"a": shared, "b": shared})
    assert got == {"a": [1], "b": [1]} and got["a"] is not got["b"]


def test_copy_state_copies_what_marshal_does_not_know_as_json_did():
    class Sub(str):
        pass

    got = copy_state({"a": Sub("x"), "b": [1]})
    assert got == {"a": "x", "b": [1]} and type(got["a"]) is str


def test_a_trial_and_a_sample_share_the_games_tables_and_play_as_a_fresh_runtime_would(monkeypatch):
    from mason.play.session import make_bot
    from mason.runtime import machine

    g = Game.new(Settings("citadels", 4, 3, (), (), {}), narrate=False)
    trial, copy, sample = g.trial(), g.copy(), g.information_set(0).sample(__import__("random").Random(1))
    for other in (trial, copy, sample):
        assert other.rt.card_types is g.rt.card_types and other.rt.zk is g.rt.zk
        fresh = machine.Runtime(other.program, other.state)
        assert fresh.card_types == other.rt.card_types and fresh.zk == other.rt.zk

    def answers():
        game = Game.new(Settings("citadels", 3, 5, (), (), {}), narrate=False)
        bots = {s: make_bot("mcts:6", 5, s) for s in range(3)}
        out = []
        while game.result is None and len(out) < 12:
            seat = game.state["pending"]["seat"]
            out.append(bots[seat].decide(game, seat))
            game.answer(out[-1])
        return out, copy_state(game.state)

    shared = answers()
    init = machine.Runtime.__init__
    monkeypatch.setattr(machine.Runtime, "__init__", lambda self, p, s, log=None, like=None: init(self, p, s, log))
    assert answers() == shared  # the same search, answers and state with every table made afresh
