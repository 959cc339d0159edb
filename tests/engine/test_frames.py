"""Frames of paused execution (mason/runtime/frames.py): every frame the engine leaves on the stack
has exactly the keys its TypedDict declares, and a save of format 1 (one-letter keys) still resumes."""

from __future__ import annotations

import json
import random
import typing

import pytest
from support import new_game

from mason.runtime import frames as F
from mason.session.game import Game
from mason.session.saves import SAVE_FORMAT

_TYPES = {
    F.FLOW: F.FlowFrame,
    F.BLOCK: F.BlockFrame,
    F.FOR: F.ForFrame,
    F.REPEAT: F.RepeatFrame,
    F.WHILE: F.WhileFrame,
    F.CHOICE: F.ChoiceFrame,
    F.OPTION: F.ChoiceFrame,
    F.TURN: F.TurnFrame,
}

_OLD = {v: k for k, v in F._OLD_KINDS.items()}


def _conforms(fr: dict) -> None:
    td = _TYPES[fr["kind"]]
    keys = set(fr)
    assert td.__required_keys__ <= keys, (fr, td.__required_keys__ - keys)
    assert keys <= td.__required_keys__ | td.__optional_keys__, (fr, keys - td.__required_keys__ - td.__optional_keys__)
    hints = typing.get_type_hints(td)
    for key, value in fr.items():
        if hints[key] is int:
            assert type(value) is int, (key, value)


def _play(game: str, seed: int, steps: int, players: int = 4):
    g = new_game(game, players, seed)
    rnd = random.Random(seed)
    seen = set()
    for _ in range(steps):
        if g.over:
            break
        for fr in g.state["stack"]:
            _conforms(fr)
            seen.add(fr["kind"])
        p = g.state["pending"]
        g.answer(rnd.randrange(len(p["options"])) if not p["subset"] else [])
    return g, seen


@pytest.mark.parametrize("game", ["citadels", "golden-temple", "island-fortress", "pillars", "prague"])
def test_every_frame_on_the_stack_has_the_keys_of_its_kind(game):
    _, seen = _play(game, 3, 400)
    assert {F.FLOW, F.BLOCK, F.TURN} <= seen or {F.FLOW, F.BLOCK, F.CHOICE} <= seen, seen


def _downgrade(stack: list) -> list:
    """A stack as format 1 wrote it (the inverse of frames.upgrade_stack)."""
    out = []
    for fr in stack:
        names = {new: old for old, new in F._OLD_KEYS[fr["kind"]].items()}
        old = {"k": _OLD[fr["kind"]]}
        for key, value in fr.items():
            if key != "kind":
                old[names.get(key, key)] = value
        out.append(old)
    return out


@pytest.mark.parametrize("game, seed", [("citadels", 5), ("pillars", 2), ("island-fortress", 4)])
def test_a_format_1_save_resumes_and_ends_as_the_game_would_have(game, seed, tmp_path):
    g, _ = _play(game, seed, 60)
    data = json.loads(json.dumps(g.to_json()))
    assert data["mason"] == SAVE_FORMAT == 2
    old = json.loads(json.dumps(data))
    old["mason"] = 1
    old["state"]["stack"] = _downgrade(old["state"]["stack"])
    assert any("k" in fr for fr in old["state"]["stack"])
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    resumed = Game.load(path)
    assert resumed.state == g.state
    rnd_a, rnd_b = random.Random(9), random.Random(9)
    while not g.over:
        p = g.state["pending"]
        a = rnd_a.randrange(len(p["options"])) if not p["subset"] else []
        b = rnd_b.randrange(len(p["options"])) if not p["subset"] else []
        g.answer(a)
        resumed.answer(b)
    assert resumed.over and resumed.result == g.result


def test_an_unknown_old_frame_is_refused_in_one_line(tmp_path):
    g, _ = _play("citadels", 1, 10)
    data = json.loads(json.dumps(g.to_json()))
    data["mason"] = 1
    data["state"]["stack"] = _downgrade(data["state"]["stack"])
    data["state"]["stack"][-1]["k"] = "zz"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(Exception) as exc:
        Game.load(path)
    assert "the save is damaged: state.stack" in str(exc.value) and "\n" not in str(exc.value)


def test_window_offers_the_turn_cards_abilities_and_the_seats_held_cards_only():
    """The action window offers the abilities of the turn's own card, and of every card not of a
    turn-card family that the seat holds in an active zone; another turn card's never, even held
    in an active zone. The offer keeps the program's order whatever the turn card (memoised per card)."""
    from support import mini_game

    from mason.runtime.machine import move_card
    from mason.runtime.turns import window_options

    g = mini_game()
    rt, st = g.rt, g.state
    fr = st["stack"][st["ti"]]
    prism, jeweller, miner = 11, 12, 13
    assert [rt.cards[c]["t"] for c in (prism, jeweller, miner)] == ["prism", "jeweller", "miner"]
    assert fr["seat"] == 0 and fr["card"] == jeweller
    base = window_options(rt, fr)
    assert not any("@" in k for k in base)  # the prism is in hand: not an active zone
    move_card(rt, prism, "vault/0")
    assert window_options(rt, fr) == base + [f"polish@{prism}"]
    move_card(rt, miner, "vault/0")  # a turn card held in an active zone: not its turn
    assert f"dig@{miner}" not in window_options(rt, fr)
    fr["card"] = miner  # a turn played as the miner: its ability too, in the program's order
    order = [t for t in rt.prog.ability_types if t in ("miner", "prism")]
    assert window_options(rt, fr) == base + [f"dig@{miner}" if t == "miner" else f"polish@{prism}" for t in order]
    move_card(rt, prism, "vault/1")  # another seat's card
    fr["card"] = jeweller
    assert window_options(rt, fr) == base


def _turn_now(st) -> tuple:
    """The turn being played, read from the state: its seat and card, or (None, None)."""
    ti = st["ti"]
    return (None, None) if ti < 0 else (st["stack"][ti]["seat"], st["stack"][ti]["card"])


@pytest.mark.parametrize(
    "game,expansions,turns",
    [
        ("citadels", (), True),
        ("citadels", ("dark-city",), True),
        ("golden-temple", (), True),
        ("island-fortress", (), True),
        ("pillars", (), False),  # no turn statement: every decision outside a turn
        ("prague", (), True),
    ],
)
def test_the_runtimes_turn_seat_and_card_follow_the_state_at_every_decision(game, expansions, turns):
    """Generated code reads the turn being played from the runtime (``turn_seat_now``,
    ``turn_card_now``), which ``Runtime.sync_turn`` keeps: at every decision, asked in place (nothing
    pauses) or after a pause, and after a restore, it is what the state's turn frame says."""
    from mason.agents.random_agent import RandomAgent
    from mason.play.session import play_game

    g = new_game(game, 4, 3, narrate=False, expansions=expansions)
    rt = g.rt
    checked = []

    class Checking(RandomAgent):
        def blind_pick(self, st, seat, n, subset, ordered=False):
            assert (rt.turn_seat_now, rt.turn_card_now) == _turn_now(st)
            checked.append(st["ti"] >= 0)
            return super().blind_pick(st, seat, n, subset, ordered)

    play_game(g, {s: Checking(s) for s in range(4)})  # in place: every decision, nothing pausing
    assert g.over and any(checked) is turns and not all(checked)
    assert (rt.turn_seat_now, rt.turn_card_now) == (None, None)
    g = new_game(game, 4, 3, narrate=False, expansions=expansions)
    rng = random.Random(3)
    snap = None
    while not g.over:  # paused at every decision: the state read back after each answer, and a restore
        assert (g.rt.turn_seat_now, g.rt.turn_card_now) == _turn_now(g.state)
        if g.state["decisions"] == 30:
            snap = g.snapshot()
        if g.state["decisions"] == 60 and snap is not None:
            g.restore(snap)
            snap = None
            assert (g.rt.turn_seat_now, g.rt.turn_card_now) == _turn_now(g.state)
        p = g.state["pending"]
        n = len(p["options"])
        g.answer(sorted(rng.sample(range(n), rng.randint(0, min(n, p["subset"])))) if p["subset"] else rng.randrange(n))
