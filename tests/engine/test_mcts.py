"""The mcts bot (issue 13, part 2): information-set tree search, seeded, usable everywhere.

A tiny made-up game written to a temporary folder ("Tally": each round every seat picks a value and
gains that many points) shows the search finds the scoring option; the shipped games show it plays
legal, reproducible games, resumes from a save and never reads what its seat cannot see.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from mason.agents import BOT_KINDS, SEAT_KINDS
from mason.agents.greedy import GreedyAgent
from mason.agents.kinds import DEFAULT_ITERATIONS
from mason.agents.mcts import MctsAgent, parse_kind
from mason.cli.main import main
from mason.errors import MasonError
from mason.play.session import make_bot, play_game, simulate
from mason.session.determinize import _held_by_rules, hidden_cards
from mason.session.game import Game, Settings

TALLY = """\
id: tally
name: Tally
status: placeholder
description: Pick a value, gain that many points. A test fixture.
players: {min: 2, max: 3}
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
  kept: {scope: seat, visibility: all}
counters:
  points: {scope: seat, start: 0, label: points}
flow:
  until: round >= 2
  phases:
    - id: pick
      do: |
        for s in seats:
            choose value v from [1, 3, 2] by s saying "How many points?"
            gain v points to s
        for s in seats:
            choose up to 2 card cs from market by s saying "Keep which gems?"
            for c in cs:
                move c to kept(s)
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
    - {id: gems, label: gems, value: sum(c.worth for c in kept(s))}
"""
GEMS = """\
family: gem
components:
  - {id: pebble, name: Pebble, worth: -1, copies: 2}
  - {id: ruby, name: Ruby, worth: 2}
  - {id: pearl, name: Pearl, worth: 1}
"""


@pytest.fixture()
def tally(tmp_path):
    (tmp_path / "game.yaml").write_text(TALLY)
    (tmp_path / "gems.yaml").write_text(GEMS)
    return str(tmp_path)


def test_mcts_is_a_bot_kind_with_a_budget():
    assert "mcts" in BOT_KINDS and "mcts" in SEAT_KINDS
    assert "mcts:500" in BOT_KINDS and "mcts:50:0.05s" in SEAT_KINDS
    assert "mcts:0" not in BOT_KINDS and "greedy:5" not in BOT_KINDS
    bot = make_bot("mcts:120", 1, 0)
    assert isinstance(bot, MctsAgent) and (bot.iterations, bot.seconds) == (120, None)
    bot = make_bot("mcts:7:0.5s", 1, 0)
    assert (bot.iterations, bot.seconds, bot.depth) == (7, 0.5, None)
    bot = make_bot("mcts:9:d8", 1, 0)
    assert (bot.iterations, bot.seconds, bot.depth) == (9, None, 8)
    assert parse_kind("mcts:9:d8:1s") == (9, 1.0, 8)
    assert parse_kind("greedy") is None


@pytest.mark.parametrize(
    "kind",
    [
        "mcts:abc",
        "mcts:0",
        "mcts:-3",
        "mcts:5:fast",
        "mcts:5:0s",
        "mcts:1:2:3",
        "mcts:5:nans",
        "mcts:5:d0",
        "mcts:5:dx",
        "mcts:5:1s:d2",
        "mcts:5:d2:d3",
    ],
)
def test_bad_kind_strings_give_one_line(kind):
    with pytest.raises(MasonError) as err:
        make_bot(kind, 1, 0)
    line = err.value.line()
    assert "\n" not in line and kind in line


def test_cli_rejects_a_bad_mcts_kind_in_one_line():
    res = CliRunner().invoke(main, ["simulate", "citadels", "-n", "1", "-p", "4", "--bot", "2=mcts:abc"])
    assert res.exit_code != 0 and res.exception is None or isinstance(res.exception, SystemExit)
    assert "mcts:abc" in res.output and len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", range(4))
def test_mcts_takes_the_scoring_option(tally, seed):
    g = Game.new(Settings(tally, 2, 1))
    assert g.pending["labels"] == ["1", "3", "2"]
    assert MctsAgent(seed, iterations=60).decide(g, 0) == 1


def test_a_subset_decision_is_built_the_greedy_way(tally):
    g = Game.new(Settings(tally, 2, 1))
    g.answer(1)
    g.answer(0)
    assert g.pending["subset"] == 2
    picked = [g.pending["labels"][i] for i in MctsAgent(1, iterations=5).decide(g, 0)]
    assert sorted(picked) == ["Pearl", "Ruby"]  # never a Pebble, worth -1


def test_a_single_option_costs_no_search_and_no_draw(tally):
    g = Game.new(Settings(tally, 2, 1))
    g.state["pending"]["options"] = g.state["pending"]["options"][:1]
    assert MctsAgent(1, iterations=5).decide(g, 0) == 0


def _swap_hidden(g: Game, seat: int) -> bool:
    """Swap two cards of one family that ``seat`` cannot see (a hand and the deck, say) and no paused
    rule holds: a state that differs from ``g``'s only in what the seat does not know. False when there
    are no two such cards."""
    st, prog = g.state, g.program
    hidden = hidden_cards(prog, st, seat)
    held = _held_by_rules(st, set(hidden))  # ids a paused rule holds stay in their zones (determinize.py)
    by_family: dict = {}
    for c in hidden:
        if c not in held:
            by_family.setdefault(prog.family_of[st["cards"][c]["t"]], []).append(c)
    for ids in by_family.values():
        pairs = [
            (a, b)
            for a in ids
            for b in ids
            if a < b and (st["cards"][a]["z"], st["cards"][a]["o"]) != (st["cards"][b]["z"], st["cards"][b]["o"])
        ]
        if pairs:
            a, b = pairs[0]
            ca, cb = st["cards"][a], st["cards"][b]
            ka = ca["z"] if ca["o"] is None else f"{ca['z']}/{ca['o']}"
            kb = cb["z"] if cb["o"] is None else f"{cb['z']}/{cb['o']}"
            ia, ib = st["zones"][ka].index(a), st["zones"][kb].index(b)
            st["zones"][ka][ia], st["zones"][kb][ib] = b, a
            for k in ("z", "o", "up", "seen"):
                ca[k], cb[k] = cb[k], ca[k]
            return True
    return False


def test_never_reads_hidden_state():
    """Two states that differ only in where the cards the seat cannot see lie, and in the game's own
    random generator: the same bot stream gives the same answer and leaves the same stream."""
    g = Game.new(Settings("citadels", 4, 3), narrate=False)
    swapped = 0
    for _ in range(40):
        seat = g.state["pending"]["seat"]
        bot = lambda: MctsAgent("h", iterations=6)  # noqa: E731
        a, b = g.copy(), g.copy()
        if _swap_hidden(b, seat):
            swapped += 1
        b.state["rng"] = 12345
        answer = bot().decide(a, seat)
        assert bot().decide(b, seat) == answer
        assert a.state["bots"] == b.state["bots"]
        g.answer(answer)
    assert swapped >= 30


def test_seeded_games_replay_identically():
    def one():
        g = Game.new(Settings("citadels", 3, 5))
        play_game(g, {s: make_bot("mcts:4" if s == 0 else "random", 5, s) for s in range(3)})
        return g

    a, b = one(), one()
    assert a.over and a.answers() == b.answers() and a.result == b.result


def test_a_game_saved_midway_ends_as_it_would_have():
    settings = Settings("pillars", 3, 7)
    agents = lambda: {s: make_bot("mcts:3" if s == 1 else "random", 7, s) for s in range(3)}  # noqa: E731
    whole = play_game(Game.new(settings), agents())
    g = Game.new(settings)
    bots = agents()
    for _ in range(40):
        g.answer(bots[g.pending["seat"]].decide(g, g.pending["seat"]))
    resumed = play_game(Game.from_json(json.loads(json.dumps(g.to_json()))), agents())
    assert resumed.answers() == whole.answers()


def test_simulate_and_cli_take_an_mcts_seat():
    r = simulate(Settings("citadels", 4, 1), 1, "random", seat_bots={1: "mcts:3"})
    assert r["completed"] == 1 and r["settings"]["seat_bots"] == {"2": "mcts:3"}
    res = CliRunner().invoke(main, ["simulate", "citadels", "-n", "1", "-p", "4", "--bot", "2=mcts:3", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["settings"]["seat_bots"] == {"2": "mcts:3"}


def test_a_time_limit_ends_the_search(tally):
    """``mcts:N:Ts``: a huge iteration budget, a small time limit; the search stops and answers."""
    g = Game.new(Settings(tally, 2, 1))
    assert make_bot("mcts:1000000:0.01s", 1, 0).decide(g, 0) in (0, 1, 2)


# ---------------------------------------------------------------- the greedy-guided search (issue 32 item 1)
GEM = "family: gem\ncomponents:\n  - {id: pebble, name: Pebble, worth: 1}\n"
HEAD = """\
players: {min: 2, max: 2}
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
counters:
  points: {scope: seat, start: 0, label: points}
  bonus: {scope: seat, start: 0, label: bonus}
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
"""
# "bold" pays only through one answer of ten in its follow-up question: random rollouts rate it
# 1 point on average, below "safe"'s sure 2; greedy looks through the follow-up and finds the 10.
CHAIN = """\
id: chain
name: Chain
status: placeholder
description: A safe way or a bold one whose follow-up hides one good answer. A test fixture.
flow:
  until: round >= 2
  phases:
    - id: pick
      do: |
        for s in seats:
            choose value a from ["safe", "bold"] by s saying "Which way?"
            if a == "safe":
                choose value v from [1, 2, 3] by s saying "Any number"
                gain 2 points to s
            else:
                choose value v from [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] by s saying "Guess"
                if v == 7:
                    gain 10 points to s
"""
# Two points now give the next seat 4 more at its own turn: past greedy's horizon (the next seat's
# question), within a lap of the table.
TRAP = """\
id: trap
name: Trap
status: placeholder
description: Two points now open a bonus for the next seat. A test fixture.
flow:
  until: round >= 3
  phases:
    - id: pick
      do: |
        for s in seats:
            choose value v from [1, 2] by s saying "How many points?"
            gain v points to s
            gain bonus(s) points to s
            pay bonus(s) bonus by s
            if v == 2:
                for o in others:
                    gain 4 bonus to o
"""


def _fixture(tmp_path, text):
    (tmp_path / "game.yaml").write_text(text + HEAD)
    (tmp_path / "gems.yaml").write_text(GEM)
    return Game.new(Settings(str(tmp_path), 2, 1))


@pytest.mark.parametrize("seed", range(4))
def test_mcts_takes_greedys_clear_best_through_a_follow_up_question(tmp_path, seed):
    """Rollouts follow the answers greedy found for the seat's own follow-up questions (the old
    search, on random rollouts, answered "safe" here for every seed)."""
    g = _fixture(tmp_path, CHAIN)
    assert g.pending["labels"] == ["safe", "bold"]
    assert GreedyAgent(seed).decide(g.copy(), 0) == 1
    assert MctsAgent(seed).decide(g.copy(), 0) == 1


@pytest.mark.parametrize("seed", range(4))
def test_mcts_sees_past_greedys_horizon_to_the_next_seats_turn(tmp_path, seed):
    g = _fixture(tmp_path, TRAP)
    assert g.pending["labels"] == ["1", "2"]
    assert GreedyAgent(seed).decide(g.copy(), 0) == 1  # +2 now: greedy stops at the next seat's question
    bot = MctsAgent(seed)
    assert bot.decide(g.copy(), 0) == 0
    assert bot.figures[0]["mean"] > bot.figures[1]["mean"]
    assert sum(f["visits"] for f in bot.figures.values()) == DEFAULT_ITERATIONS


def test_mcts_priors_are_greedys_scores_and_prune_to_its_best(tally):
    """The priors are greedy's score keys on one sample; only greedy's best WIDTH options get rollouts;
    with a width of 1 greedy's best is the answer, without a rollout."""
    g = Game.new(Settings(tally, 2, 1))
    p = g.pending_unlabelled
    order, keys, paths = MctsAgent.priors(g, g.information_set(0), 0, p, random.Random(3))
    base = g.information_set(0).sample(random.Random(3))
    assert keys == [GreedyAgent()._score(g, base, 0, i, (48 - 3) // 3) for i in range(3)]
    assert order == [1, 2, 0] and paths == [[], [], []]  # 3 points, then 2, then 1
    bot = MctsAgent(1, width=2)
    assert bot.decide(g.copy(), 0) == 1 and sorted(bot.figures) == [1, 2]
    bot = MctsAgent(1, width=1)
    assert bot.decide(g.copy(), 0) == 1 and bot.figures == {}


def test_mcts_answers_and_streams_repeat_for_a_seed(tmp_path):
    g = _fixture(tmp_path, TRAP)
    a, b = g.copy(), g.copy()
    assert MctsAgent(5, iterations=9).decide(a, 0) == MctsAgent(5, iterations=9).decide(b, 0)
    assert a.state["bots"] == b.state["bots"] and a.state["bots"] != g.state.get("bots")


def _finished(folder):
    """A Tally game played to its end by random bots."""
    from mason.agents.random_agent import RandomAgent

    g = Game.new(Settings(folder, 2, 3, (), (), {}), narrate=False)
    bots = {s: RandomAgent(s) for s in range(2)}
    while g.result is None:
        seat = g.state["pending"]["seat"]
        g.answer(bots[seat].decide(g, seat))
    return g


def test_mcts_weighs_a_finished_rollout_on_the_estimates_scale(tmp_path):
    """A game whose estimate counts tenths of a point declares ``bot_points: "10"``: a rollout that
    ends the game is worth its margin (plus or minus half a point for the win) in tenths too, so it
    compares fairly with the estimate of one that does not (before, it counted points: a tenth of
    their worth, and mcts shunned moves that end the game)."""
    from mason.agents import mcts as mcts_module

    (tmp_path / "gems.yaml").write_text(GEMS)
    (tmp_path / "game.yaml").write_text(TALLY)
    plain = _finished(str(tmp_path))
    margin = plain.result["scores"][0] - plain.result["scores"][1] + (0.5 if 0 in plain.result["winners"] else -0.5)
    assert mcts_module._value(plain, 0) == margin  # no bot_points: points, as before
    tenths = tmp_path / "tenths"
    tenths.mkdir()
    (tenths / "gems.yaml").write_text(GEMS)
    (tenths / "game.yaml").write_text(
        TALLY
        + 'values:\n  bot_estimate: {params: [s], value: "10 * (points(s) - max(points(o) for o in seats if o != s))"}\n'
        '  bot_points: "10"\n'
    )
    scaled = _finished(str(tenths))
    assert scaled.result == plain.result
    assert mcts_module._value(scaled, 0) == 10 * margin


def test_a_bot_points_that_is_not_above_zero_is_one_line(tmp_path):
    from mason.agents import greedy

    (tmp_path / "gems.yaml").write_text(GEMS)
    (tmp_path / "game.yaml").write_text(TALLY + 'values:\n  bot_points: "0"\n')
    g = Game.new(Settings(str(tmp_path), 2, 3, (), (), {}), narrate=False)
    with pytest.raises(MasonError) as err:
        greedy.points_scale(g, 0)
    assert "bot_points must be a number above 0" in err.value.line() and "\n" not in err.value.line()


# "draw" shows the seat three gems from a hidden deck and it keeps one (5 points); "safe" pays 2 now.
# Solo, one question deep: greedy keeps a gem on its sample and rates "draw" 5 against "safe"'s 4.
DRAW = """\
id: draw
name: Draw
status: placeholder
description: Solo, two points or a gem kept from three drawn from a hidden deck. A test fixture.
players: {min: 1, max: 1}
families:
  gem: {file: gems.yaml, zone: deck, properties: {worth: {type: int}}}
zones:
  deck: {visibility: none}
  shown: {scope: seat, visibility: owner}
  kept: {scope: seat, visibility: all}
  discard: {visibility: none}
counters:
  points: {scope: seat, start: 0, label: points}
setup: |
  shuffle deck
flow:
  until: round >= 2
  phases:
    - id: pick
      do: |
        for s in seats:
            repeat 4:
                choose value a from ["safe", "draw"] by s saying "Which way?"
                if a == "safe":
                    gain 2 points to s
                else:
                    draw 3 from deck to shown(s)
                    choose card c from shown(s) by s saying "Keep which gem?"
                    move c to kept(s)
                    for o in shown(s):
                        move o to discard
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
    - {id: gems, label: gems, value: sum(c.worth for c in kept(s))}
values:
  bot_lookahead: "2"
"""


@pytest.mark.parametrize("seed", range(4))
def test_mcts_solo_rollout_plays_a_planned_step_its_sample_does_not_offer(tmp_path, seed):
    """Greedy's plan for "draw" keeps the gem it drew on its own sample; another sample draws other
    gems (the deck is hidden), so that step is not offered there. The rollout then chooses by its
    own policy and goes on to the plan's end. Before, a solo rollout stopped there, before the keep,
    rated "draw" 0 on most samples and answered "safe" for every seed."""
    (tmp_path / "game.yaml").write_text(DRAW)
    (tmp_path / "gems.yaml").write_text("family: gem\ncomponents:\n  - {id: coin, name: Coin, worth: 5, copies: 30}\n")
    g = Game.new(Settings(str(tmp_path), 1, 1))
    assert g.pending["labels"] == ["safe", "draw"]
    assert GreedyAgent(seed).decide(g.copy(), 0) == 1
    bot = MctsAgent(seed)
    assert bot.decide(g.copy(), 0) == 1
    assert bot.figures[1]["mean"] > bot.figures[0]["mean"]


@pytest.mark.parametrize("seed", range(2))
def test_mcts_rollout_depth_is_the_games_bot_rollout_depth_when_declared(tmp_path, seed):
    """``bot_rollout_depth`` caps a rollout's decisions when the kind names none (``mcts:N:dD`` still wins):
    with 1, a rollout ends right after the candidate, short of the next seat's bonus, so mcts answers
    as greedy does; with 8 (or undeclared, 4 decisions a seat: the test above) it sees the bonus."""
    (tmp_path / "game.yaml").write_text(TRAP + HEAD + 'values:\n  bot_rollout_depth: "1"\n')
    (tmp_path / "gems.yaml").write_text(GEM)
    g = Game.new(Settings(str(tmp_path), 2, 1))
    assert MctsAgent(seed).decide(g.copy(), 0) == 1
    assert MctsAgent(seed, depth=8).decide(g.copy(), 0) == 0


def test_a_bot_rollout_depth_below_one_is_one_line(tmp_path):
    (tmp_path / "game.yaml").write_text(TRAP + HEAD + 'values:\n  bot_rollout_depth: "0"\n')
    (tmp_path / "gems.yaml").write_text(GEM)
    g = Game.new(Settings(str(tmp_path), 2, 1))
    with pytest.raises(MasonError) as err:
        MctsAgent(1).decide(g, 0)
    assert "bot_rollout_depth must be a whole number from 1" in err.value.line() and "\n" not in err.value.line()


# Solo: two points now cost five at the round's end, after another question of the seat's own; greedy
# looks one question deep (``bot_lookahead: "1"``) and stops at that question.
LATE = """\
id: late
name: Late
status: placeholder
description: Solo, two points now and a penalty at the round's end. A test fixture.
players: {min: 1, max: 1}
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
counters:
  points: {scope: seat, start: 10, label: points}
flow:
  until: round >= 3
  phases:
    - id: pick
      do: |
        for s in seats:
            choose value v from [1, 2] by s saying "How many points?"
            gain v points to s
            choose value w from [1, 2, 3] by s saying "Any number"
            if v == 2:
                pay 5 points by s
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
values:
  bot_lookahead: "1"
"""


@pytest.mark.parametrize("seed", range(3))
def test_mcts_solo_rollout_plays_the_round_out(tmp_path, seed):
    """With no other seat to end a lap, a solo rollout plays past greedy's chain to the round's end
    (the penalty) and stops when the seat is asked in the next round. Before, it stopped where
    greedy's chain ended, and mcts took greedy's +2."""
    (tmp_path / "game.yaml").write_text(LATE)
    (tmp_path / "gems.yaml").write_text(GEM)
    g = Game.new(Settings(str(tmp_path), 1, 1))
    assert g.pending["labels"] == ["1", "2"]
    assert GreedyAgent(seed).decide(g.copy(), 0) == 1
    bot = MctsAgent(seed)
    assert bot.decide(g.copy(), 0) == 0
    assert bot.figures[0]["mean"] == 11.0 and bot.figures[1]["mean"] == 7.0  # 10 + 1; 10 + 2 - 5: no more
