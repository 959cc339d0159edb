"""Bots answered in place (mason.runtime.answers; runtime speed, issue 12): a bot that needs no view
(``Agent.blind_pick``) is asked by the statement that asks, and the rules go on without pausing; when every
seat is answered so, blocks run at once without frames (``machine.run_now``). Nothing observable may
change: a game ends in the same state, with the same decisions, as when every decision pauses and is
answered through ``Game.answer``; the loop guards still hold."""

from __future__ import annotations

import json

import pytest
from paths import FIXTURES, PROBES
from support import EVERY_GAME, copy_game

from mason.agents.base import Agent
from mason.agents.random_agent import RandomAgent
from mason.errors import MasonError, PlayError
from mason.play.session import make_bot, play_game
from mason.runtime import machine
from mason.session.game import Game, Settings


def _final(settings, in_place, agents=None, **kw):
    g = Game.new(settings, narrate=False)
    if agents is None:
        agents = {s: make_bot("random", settings.seed, s) for s in range(settings.players)}
    play_game(g, agents, in_place=in_place, **kw)
    assert g.rt.answerers is None  # in-place answering ends with the call
    return g, json.dumps(g.state, sort_keys=True)


GAMES = EVERY_GAME


@pytest.mark.parametrize("game,players,expansions", GAMES, ids=lambda v: str(v).rsplit("/", 1)[-1])
def test_a_game_answered_in_place_ends_in_the_same_state(game, players, expansions):
    for seed in (3, 4):
        settings = Settings(game, players, seed, expansions=expansions)
        paused, a = _final(settings, in_place=False)
        direct, b = _final(settings, in_place=True)
        assert paused.over and paused.state["decisions"] >= 10
        assert a == b


class Asking(Agent):
    """The random bot without ``blind_pick``: every one of its decisions pauses the rules."""

    def __init__(self, seed):
        self.bot = RandomAgent(seed)
        self.asked = 0

    def decide(self, game, seat):
        self.asked += 1
        return self.bot.decide(game, seat)


def test_a_seat_without_pick_is_asked_as_before_among_seats_answered_in_place():
    settings = Settings("citadels", 4, 7)
    _, everyone_in_place = _final(settings, in_place=True)
    agents = {s: make_bot("random", 7, s) for s in range(4)}
    agents[2] = Asking("7/2")  # the same stream as make_bot's random bot for seat 2
    g, mixed = _final(settings, in_place=True, agents=agents)
    assert mixed == everyone_in_place
    assert 10 < agents[2].asked < g.state["decisions"]


def test_nothing_is_answered_in_place_when_the_caller_looks_at_every_answer():
    settings = Settings("citadels", 4, 2)
    seen = []
    g, with_callback = _final(settings, in_place=True, on_answer=lambda game: seen.append(game.state["decisions"]))
    assert seen == list(range(1, g.state["decisions"] + 1))
    assert with_callback == _final(settings, in_place=True)[1]


def test_the_decision_limit_holds_in_place_as_when_paused():
    settings = Settings("citadels", 4, 1)
    counts = []
    for in_place in (False, True):
        g = Game.new(settings, narrate=False)
        agents = {s: make_bot("random", 1, s) for s in range(4)}
        with pytest.raises(MasonError, match="no end after 25 decisions") as info:
            play_game(g, agents, max_decisions=25, in_place=in_place)
        assert info.value.code == "play/loop"
        assert g.rt.answerers is None  # also after an error
        counts.append(g.state["decisions"])
    assert counts == [26, 26]


def test_the_loop_guard_counts_steps_from_the_last_decision_answered_in_place(monkeypatch, tmp_path):
    # a cap the paused game never reaches between two decisions, but a whole game goes far past:
    # answering in place must count afresh at each decision, not over the whole run
    settings = Settings("citadels", 4, 5)
    monkeypatch.setattr(machine, "STEP_CAP", 400)
    g, paused = _final(settings, in_place=False)
    _, direct = _final(settings, in_place=True)
    assert paused == direct
    g = Game.new(Settings("citadels", 4, 5), narrate=False)
    # a loop's rounds that hold decisions count afresh after each (a repeat of 60 choices, cap 30)
    folder = copy_game(tmp_path, PROBES / "choices-only", name="sixty")
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("repeat 20:", "repeat 60:"))
    probe = Settings(str(folder), 2, 1)
    monkeypatch.setattr(machine, "STEP_CAP", 30)
    assert _final(probe, in_place=False)[1] == _final(probe, in_place=True)[1]
    # a cap below what a stretch needs: still caught in place (run direct, Citadels' longest stretch
    # between two decisions is 3 steps: the rounds of 'for' and 'repeat' are not frames there)
    monkeypatch.setattr(machine, "STEP_CAP", 2)
    with pytest.raises(PlayError, match="no decision after 2 steps") as info:
        play_game(g, {s: make_bot("random", 5, s) for s in range(4)}, in_place=True)
    assert info.value.code == "play/loop"


def test_the_random_bot_picks_what_it_decides():
    g = Game.new(Settings("citadels", 4, 9), narrate=False)
    bot = RandomAgent("x")
    for _ in range(40):
        seat = g.state["pending"]["seat"]
        p = g.state["pending"]
        twin = json.loads(json.dumps(g.state))
        picked = bot.blind_pick(twin, seat, len(p["options"]), p["subset"])
        decided = bot.decide(g, seat)
        assert picked == decided and twin["bots"] == g.state["bots"]
        g.answer(decided)


def _count_direct(monkeypatch):
    calls = []
    real = machine.run_now

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(machine, "run_now", counted)
    return calls


def test_blocks_run_direct_only_when_every_seat_is_answered_in_place(monkeypatch):
    settings = Settings("citadels", 4, 7)
    calls = _count_direct(monkeypatch)
    g, _ = _final(settings, in_place=True)
    assert len(calls) > g.state["round"]  # blocks ran without frames: at least each round's phases
    calls.clear()
    agents = {s: make_bot("random", 7, s) for s in range(4)}
    agents[1] = Asking("7/1")  # this seat pauses the rules: frames are kept for every block
    _final(settings, in_place=True, agents=agents)
    assert calls == []
    _final(Settings(str(FIXTURES / "automaton"), 2, 3), in_place=True)  # an automated seat pauses too
    assert calls == []


@pytest.mark.parametrize("depth", [0, 3, 6])
def test_blocks_pushed_past_the_direct_depth_run_as_frames_with_the_same_outcome(monkeypatch, depth):
    # above DIRECT_DEPTH frames a block is pushed even when running direct: the block running it, or
    # the run loop, then runs its frame
    expected = {}
    for game, players in (("citadels", 4), ("island-fortress", 3), (str(FIXTURES / "sowing"), 2)):
        expected[game] = _final(Settings(game, players, 11), in_place=False)[1]
    monkeypatch.setattr(machine, "DIRECT_DEPTH", depth)
    for game, players in (("citadels", 4), ("island-fortress", 3), (str(FIXTURES / "sowing"), 2)):
        assert _final(Settings(game, players, 11), in_place=True)[1] == expected[game]


def _looping(tmp_path, rounds):
    """The choices-only probe with a repeat of a branch, ``rounds`` long, in each choice's body."""
    folder = copy_game(tmp_path, PROBES / "choices-only", name=f"looping-{rounds}")
    game = folder / "game.yaml"
    loop = f"gain x points to s\n                    repeat {rounds}:\n                        if x > 0:\n"
    loop += "                            gain 1 points to s"
    game.write_text(game.read_text().replace("gain x points to s", loop))
    return Settings(str(folder), 2, 1)


def test_a_loop_without_decisions_inside_a_block_run_direct_is_still_caught(tmp_path, monkeypatch):
    # a choice's body (run direct) holds a repeat of a branch: its rounds are frames run by the
    # direct block, and they count against the loop guard as the run loop counts them
    calls = _count_direct(monkeypatch)
    settings = _looping(tmp_path, 30)
    assert _final(settings, in_place=False)[1] == _final(settings, in_place=True)[1] and calls
    settings = _looping(tmp_path, 1200)
    monkeypatch.setattr(machine, "STEP_CAP", 1000)
    for in_place in (False, True):
        g = Game.new(settings, narrate=False)
        with pytest.raises(PlayError, match="no decision after 1,000 steps") as info:
            play_game(g, {s: make_bot("random", 1, s) for s in range(2)}, in_place=in_place)
        assert info.value.code == "play/loop"


def test_end_game_inside_a_block_run_direct_ends_the_block_there(tmp_path, monkeypatch):
    # what follows 'end game' in a branch run direct never runs, as when the branch is a frame
    folder = copy_game(tmp_path, PROBES / "choices-only", name="ending")
    game = folder / "game.yaml"
    body = "gain x points to s\n                    if round >= 3:\n                        end game\n"
    body += "                        gain 100 points to s"
    game.write_text(game.read_text().replace("gain x points to s", body))
    settings = Settings(str(folder), 2, 1)
    calls = _count_direct(monkeypatch)
    paused, a = _final(settings, in_place=False)
    direct, b = _final(settings, in_place=True)
    assert paused.state["round"] == 3 and max(paused.result["scores"]) < 100
    assert a == b and calls


LOOPS = {
    "for": "for k in [1, 2, 3]:\n                        if round >= 3 and k == 2:\n"
    "                            end game\n                        gain k points to s\n",
    "repeat": "repeat 3:\n                        gain 1 points to s\n                        if round >= 3:\n"
    "                            end game\n",
}


@pytest.mark.parametrize("kind", sorted(LOOPS))
def test_a_loop_run_direct_runs_its_rounds_without_a_frame_and_ends_with_end_game(kind, tmp_path, monkeypatch):
    # a 'for' or 'repeat' whose body may push frames runs its rounds at once when running direct; an
    # 'end game' in a round ends the loop there (the later rounds and what follows the loop never
    # run), as with frames
    folder = copy_game(tmp_path, PROBES / "choices-only", name=f"looping-{kind}")
    game = folder / "game.yaml"
    body = "gain x points to s\n                    " + LOOPS[kind] + "                    gain 100 points to s"
    text = game.read_text().replace("gain x points to s", body)
    game.write_text(text)
    line = text[: text.index(LOOPS[kind])].count("\n") + 1  # the loop's line in the rule file
    settings = Settings(str(folder), 2, 1)
    frames = []  # the loop's frames run: one per round and one to end it, when the loop has a frame
    real = machine.FRAME[kind]

    def counted(rt, fr):
        if rt.nodes[fr["node"]].place.line == line:  # the loop added here
            frames.append(fr["kind"])
        real(rt, fr)

    monkeypatch.setitem(machine.FRAME, kind, counted)
    paused, a = _final(settings, in_place=False)
    assert paused.state["round"] == 3 and frames
    frames.clear()
    direct, b = _final(settings, in_place=True)
    assert a == b and not frames  # the same game, and no loop frame pushed


@pytest.mark.parametrize("kind", ["for k in [1, 2, 3]:", "repeat 3:"])
def test_a_rule_error_inside_a_loop_run_direct_is_the_one_a_frame_gives(kind, tmp_path):
    # a statement that fails in a loop's round fails with the same message, code and place either way
    folder = copy_game(tmp_path, PROBES / "choices-only", name="failing-loop")
    game = folder / "game.yaml"
    body = f"gain x points to s\n                    {kind}\n                        if round >= 2:\n"
    body += "                            gain x - 3 points to s"
    text = game.read_text().replace("gain x points to s", body)
    game.write_text(text)
    settings = Settings(str(folder), 2, 1)
    errors = []
    for in_place in (False, True):
        g = Game.new(settings, narrate=False)
        with pytest.raises(PlayError) as info:
            play_game(g, {s: make_bot("random", 1, s) for s in range(2)}, in_place=in_place)
        errors.append((info.value.line(), g.state["decisions"]))
    assert errors[0] == errors[1]
    line = text[: text.index("gain x - 3")].count("\n") + 1
    assert f"game.yaml:{line}:" in errors[0][0] and "amount must be a whole number >= 0" in errors[0][0]


@pytest.mark.parametrize("game,players", [("citadels", 4), ("prague", 3)])
def test_a_game_saved_at_a_pause_and_played_on_in_place_ends_as_one_sitting(game, players, tmp_path):
    # a decision answered in place is never a pause; a save is always taken at one, and the game
    # played on from it (bots in place, no narration) ends as the game played in one sitting
    settings = Settings(game, players, 6)
    _, whole = _final(settings, in_place=True)
    part = Game.new(settings, narrate=False)
    bots = {s: make_bot("random", 6, s) for s in range(players)}
    for _ in range(25):
        seat = part.pending["seat"]
        part.answer(bots[seat].decide(part, seat))
    part.save(tmp_path / "s.json")
    loaded = Game.load(tmp_path / "s.json")
    resumed = Game(loaded.program, loaded.settings, loaded.state, [], narrate=False)
    play_game(resumed, {s: make_bot("random", 6, s) for s in range(players)})
    assert json.dumps(resumed.state, sort_keys=True) == whole
