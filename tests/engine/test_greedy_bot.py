"""The greedy bot (issue 13, item 2): one-ply search on a score estimate, seeded, usable everywhere.

A tiny made-up game written to a temporary folder ("Tally": each round every seat picks a value and
gains that many points; it may also keep up to two gems, each worth its points) shows what greedy
prefers; the shipped games show it plays legal, reproducible games and resumes from a save.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from support import new_game

from mason.agents import BOT_KINDS, SEAT_KINDS
from mason.agents.greedy import BUDGET, GOING, LOOKAHEAD, GreedyAgent, beam_width, estimate, limits, plans
from mason.cli.main import main
from mason.errors import MasonError
from mason.play.session import make_bot, play_game, simulate
from mason.session.game import Game, Settings

TALLY = """\
id: tally
name: Tally
status: placeholder
description: Pick a value, gain that many points. A test fixture.
players: {min: 2, max: 3}
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
counters:
  points: {scope: seat, start: 0, label: points}
zones:
  market: {visibility: all}
  kept: {scope: seat, visibility: all}
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
    def make(extra: str = ""):
        (tmp_path / "game.yaml").write_text(TALLY + extra)
        (tmp_path / "gems.yaml").write_text(GEMS)
        return str(tmp_path)

    return make


def labels_of(g: Game) -> list:
    return g.pending["labels"]


def test_greedy_is_a_bot_kind():
    assert "greedy" in BOT_KINDS and "greedy" in SEAT_KINDS
    assert isinstance(make_bot("greedy", 1, 0), GreedyAgent)


def test_greedy_takes_the_best_value_and_keeps_only_gems_worth_points(tally):
    g = new_game(tally(), 2, 1)
    bot = GreedyAgent(1)
    assert labels_of(g) == ["1", "3", "2"]
    assert bot.decide(g, 0) == 1
    g.answer(1)
    g.answer(0)  # P2 takes 1
    assert g.pending["subset"] == 2
    picked = [labels_of(g)[i] for i in bot.decide(g, 0)]
    assert sorted(picked) == ["Pearl", "Ruby"]  # never a Pebble, worth -1


def test_estimate_is_own_score_minus_the_best_other(tally):
    g = new_game(tally(), 3, 1)
    g.state["counters"]["points"] = [5, 7, 2]
    assert estimate(g, 0) == -2 and estimate(g, 1) == 2 and estimate(g, 2) == -5


def test_bot_estimate_in_the_rules_replaces_the_default(tally):
    contrary = "values:\n  bot_estimate: {params: [s], value: 0 - points(s)}\n"
    g = new_game(tally(contrary), 2, 1)
    assert estimate(g, 0) == 0
    assert GreedyAgent(1).decide(g, 0) == 0  # the fewest points, as the estimate says


def test_ties_are_broken_by_the_bots_own_stream_kept_in_the_state(tally):
    flat = "values:\n  bot_estimate: {params: [s], value: 0}\n"
    answers = set()
    for seed in range(12):
        g = new_game(tally(flat), 2, 1)
        answers.add(GreedyAgent(seed).decide(g, 0))
        assert "0" in g.state["bots"]  # the stream lives in the state, like the random bot's
    assert answers == {0, 1, 2}  # every tied option is drawn by some seed


def test_the_games_own_random_stream_does_not_steer_greedy():
    """The chance to come is not the real one: greedy tries its options with its own generator."""
    g = new_game("citadels", 4, 3, narrate=False)
    for _ in range(30):
        a = make_bot("greedy", 3, g.pending["seat"]).decide(g.copy(), g.pending["seat"])
        other = g.copy()
        other.state["rng"] = 12345
        assert make_bot("greedy", 3, g.pending["seat"]).decide(other, g.pending["seat"]) == a
        g.answer(a)


@pytest.mark.parametrize("game", ["citadels", "pillars", "island-fortress"])
def test_greedy_plays_legal_reproducible_games(game):
    def one():
        g = new_game(game, 3, 5)
        play_game(g, {s: make_bot("greedy" if s == 0 else "random", 5, s) for s in range(3)})
        return g

    a, b = one(), one()
    assert a.over and a.answers() == b.answers() and a.result == b.result


def test_a_game_saved_midway_ends_as_it_would_have():
    settings = Settings("citadels", 3, 7)
    agents = lambda: {s: make_bot("greedy", 7, s) for s in range(3)}  # noqa: E731
    whole = play_game(Game.new(settings), agents())
    g = Game.new(settings)
    bots = agents()
    for _ in range(40):
        g.answer(bots[g.pending["seat"]].decide(g, g.pending["seat"]))
    resumed = play_game(Game.from_json(json.loads(json.dumps(g.to_json()))), agents())
    assert resumed.answers() == whole.answers()


def test_simulate_takes_a_greedy_seat():
    r = simulate(Settings("citadels", 4, 1), 2, "random", seat_bots={1: "greedy"})
    assert r["completed"] == 2 and r["settings"]["seat_bots"] == {"2": "greedy"}


def test_cli_simulate_and_play_accept_greedy():
    runner = CliRunner()
    res = runner.invoke(main, ["simulate", "citadels", "-n", "2", "-p", "4", "--bot", "2=greedy", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["settings"]["seat_bots"] == {"2": "greedy"}
    res = runner.invoke(main, ["simulate", "citadels", "-n", "1", "-p", "4", "--bot", "2=human"])
    assert res.exit_code != 0 and "bots only" in res.output
    res = runner.invoke(main, ["play", "citadels", "-p", "3", "--seed", "2", "--bots", "greedy"])
    assert res.exit_code == 0, res.output
    assert "Winner" in res.output


CHAIN = """\
id: chain
name: Chain
status: placeholder
description: One move asked as two questions. A test fixture.
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
players: {min: 2, max: 2}
counters:
  points: {scope: seat, start: 0, label: points}
flow:
  until: round >= 1
  phases:
    - id: act
      do: |
        for s in seats:
            choose one by s saying "Which action?":
                option "Rest (2 points)":
                    gain 2 points to s
                option "Dig":
                    choose value v from [1, 5, 3] by s saying "How deep?"
                    gain v points to s
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
"""


def test_greedy_judges_a_move_asked_as_a_chain_of_its_own_questions_by_its_outcome(tmp_path):
    """Digging asks a second question before any point is gained: looked at one question deep, Rest (+2)
    beats Dig (+0 so far); greedy looks through its own follow-up question and digs 5 deep."""
    (tmp_path / "game.yaml").write_text(CHAIN)
    (tmp_path / "gems.yaml").write_text(GEMS)
    for seed in range(4):
        g = new_game(str(tmp_path), 2, seed)
        bot = GreedyAgent(seed)
        assert labels_of(g) == ["Rest (2 points)", "Dig"]
        assert bot.decide(g, 0) == 1
        assert bot.figures[1]["estimate"] == 5 and bot.figures[0]["estimate"] == 2
        g.answer(1)
        assert bot.decide(g, 0) == 1  # 5 deep


DEEP = """\
id: deep
name: Deep
status: placeholder
description: One move asked as four questions. A test fixture.
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
players: {min: 2, max: 2}
counters:
  points: {scope: seat, start: 0, label: points}
flow:
  until: round >= 1
  phases:
    - id: act
      do: |
        for s in seats:
            choose one by s saying "Which action?":
                option "Rest (2 points)":
                    gain 2 points to s
                option "Dig":
                    choose value a from [1, 2] by s saying "Which shovel?"
                    choose value b from [1, 2] by s saying "Which spot?"
                    choose value v from [1, 5] by s saying "How deep?"
                    gain v points to s
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
"""


def _deep(tmp_path, extra=""):
    folder = tmp_path / f"deep{len(list(tmp_path.iterdir()))}"  # a folder a version (the program cache)
    folder.mkdir()
    (folder / "game.yaml").write_text(DEEP + extra)
    (folder / "gems.yaml").write_text(GEMS)
    return new_game(str(folder), 2, 1)


def test_a_game_declares_a_deeper_look_ahead_for_moves_asked_as_longer_chains(tmp_path):
    """Digging pays only at its fourth question: with greedy's default look-ahead (3 questions) Rest
    (+2) beats Dig (+0 so far); a game declaring ``bot_lookahead: "4"`` gets a bot that digs 5 deep,
    and ``bot_budget`` bounds the trials (2 a decision: no follow-up is looked through, Rest again)."""
    bot = GreedyAgent(1)
    assert bot.decide(_deep(tmp_path), 0) == 0
    assert bot.figures[1]["estimate"] == 0
    g = _deep(tmp_path, 'values:\n  bot_lookahead: "4"\n')
    assert bot.decide(g, 0) == 1 and bot.figures[1]["estimate"] == 5
    assert bot.decide(_deep(tmp_path, 'values:\n  bot_lookahead: "4"\n  bot_budget: "2"\n'), 0) == 0


def test_a_bad_bot_lookahead_is_refused_with_its_place(tmp_path):
    g = _deep(tmp_path, 'values:\n  bot_lookahead: "0"\n')
    with pytest.raises(MasonError) as err:
        GreedyAgent(1).decide(g, 0)
    line = err.value.line()
    assert "game.yaml:" in line and "bot_lookahead must be a whole number from 1, not 0" in line


def test_golden_temple_declares_a_turn_level_beam_in_solo_only():
    """Golden Temple's donation is a chain of five or six questions in a turn of up to a dozen: in solo
    greedy plans the whole turn with a beam of 12 (8 before 2026-11-29), 16 questions deep at most;
    with more players the defaults stay, and no beam (README "Bots")."""
    solo, three = new_game("golden-temple", 1, 1), new_game("golden-temple", 3, 1)
    assert limits(solo, 0)[0] == 16 and beam_width(solo, 0) == 12
    assert limits(three, 0) == (LOOKAHEAD, BUDGET) and beam_width(three, 0) == 0


BUILD = """\
id: build
name: Build
status: placeholder
description: One move asked as five questions, paying only at the last. A test fixture.
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
players: {min: 2, max: 2}
counters:
  points: {scope: seat, start: 0, label: points}
  stones: {scope: seat, start: 0, label: stones}
flow:
  until: round >= 1
  phases:
    - id: act
      do: |
        for s in seats:
            choose one by s saying "Which action?":
                option "Rest (2 points)":
                    gain 2 points to s
                option "Build":
                    repeat 3:
                        choose value v from [0, 1, 2] by s saying "Which stone?"
                        gain v stones to s
                    choose value r from [0, 1] by s saying "Raise the roof?"
                    if r == 1 and stones(s) >= 6:
                        gain 5 points to s
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
values:
  bot_estimate: {params: [s], value: "10 * points(s) + stones(s)"}
  bot_lookahead: "5"
"""


def _build(tmp_path, extra=""):
    folder = tmp_path / f"build{len(list(tmp_path.iterdir()))}"  # a folder a version (the program cache)
    folder.mkdir()
    (folder / "game.yaml").write_text(BUILD + extra)
    (folder / "gems.yaml").write_text(GEMS)
    return new_game(str(folder), 2, 1)


def test_a_beam_search_finds_a_plan_of_five_questions_past_the_depth_first_budget(tmp_path):
    """Building pays (5 points, 50 in the estimate, a stone 1) only at its fifth question, after three stones of 2: looked through
    depth first within the default 48 trials, greedy gets three questions deep and rests (+2); a game
    declaring ``bot_beam: "2"`` gets a turn-level beam search (the 2 best partial plans a level, by the
    estimate) that reaches the roof and builds, then follows the plan question by question."""
    bot = GreedyAgent(1)
    g = _build(tmp_path)
    assert bot.decide(g, 0) == 0 and bot.figures[1]["estimate"] < 20
    g = _build(tmp_path, '  bot_beam: "2"\n')
    assert bot.decide(g, 0) == 1 and bot.figures[1]["estimate"] == 56 and bot.figures[0]["estimate"] == 20
    assert beam_width(g, 0) == 2
    g.answer(1)
    for _ in range(3):
        assert labels_of(g) == ["0", "1", "2"] and bot.decide(g, 0) == 2
        g.answer(2)
    assert bot.decide(g, 0) == 1


def test_the_beam_ends_a_plan_with_the_turn_and_narrow_beams_prune(tmp_path):
    """The plan ends when another seat is asked (seat 2's question is not looked through), and a beam of
    1 keeps only the best partial plan a level: the first stone of 2 is kept, the others are scored as
    they stand."""
    g = _build(tmp_path, '  bot_beam: "1"\n')
    base = g.trial()
    out = plans(g, base, 0, 2)
    assert out[0] == ((GOING, 20.0), [])
    assert out[1][0] == (GOING, 56.0) and [o for _, o in out[1][1]] == [2, 2, 2, 1]


def test_a_bad_bot_beam_is_refused_with_its_place(tmp_path):
    g = _build(tmp_path, '  bot_beam: "-1"\n')
    with pytest.raises(MasonError) as err:
        GreedyAgent(1).decide(g, 0)
    assert "game.yaml:" in err.value.line() and "bot_beam must be a whole number from 0, not -1" in err.value.line()
    assert beam_width(_build(tmp_path, '  bot_beam: "0"\n'), 0) == 0  # 0: no beam (a game's other player counts)


SEASONS = """\
id: seasons
name: Seasons
status: placeholder
description: Sow in one round, reap in the next. A test fixture.
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
players: {min: 2, max: 2}
counters:
  points: {scope: seat, start: 1, label: points}
  seeds: {scope: seat, start: 0, label: seeds}
flow:
  until: round >= 2
  phases:
    - id: act
      do: |
        if seeds(0) > 0:
            choose value r from [0, 1] by 0 saying "Reap?"
            if r == 1:
                set seeds(0) = 0
                gain 5 points to 0
        choose value v from [0, 1] by 0 saying "Sow a seed (1 point)?"
        if v == 1:
            pay 1 points by 0
            gain 1 seeds to 0
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
values:
  bot_lookahead: "5"
  bot_beam: "4"
"""


def test_the_beam_plans_the_turn_and_stops_where_the_round_ends(tmp_path):
    """Seat 1 is asked in every round and no other seat ever is: the plan ends with the round. Sowing
    costs a point now and pays 5 only when reaped in the next round, so planned to the round's end it
    is not worth it (a plan that ran on into the next round would sow)."""
    (tmp_path / "game.yaml").write_text(SEASONS)
    (tmp_path / "gems.yaml").write_text(GEMS)
    g = new_game(str(tmp_path), 2, 1)
    assert labels_of(g) == ["0", "1"]
    out = plans(g, g.trial(), 0, 2)
    assert out[0] == ((GOING, 0.0), []) and out[1] == ((GOING, -1.0), [])
    assert GreedyAgent(1).decide(g, 0) == 0


WANDER = """\
id: wander
name: Wander
status: placeholder
description: A turn whose middle looks better than its end. A test fixture.
families:
  gem: {file: gems.yaml, zone: market, properties: {worth: {type: int}}}
zones:
  market: {visibility: all}
players: {min: 2, max: 2}
counters:
  points: {scope: seat, start: 0, label: points}
  busy: {scope: seat, start: 0, label: busy}
flow:
  until: round >= 1
  phases:
    - id: act
      do: |
        for s in seats:
            choose one by s saying "Which action?":
                option "Rest (2 points)":
                    gain 2 points to s
                option "Wander (1 point)":
                    gain 1 busy to s
                    repeat 2:
                        choose value v from [0, 1] by s saying "Which way?"
                    set busy(s) = 0
                    gain 1 points to s
                option "Dawdle":
                    gain 1 busy to s
                    repeat 2:
                        choose value v from [0, 1] by s saying "Which way?"
                    set busy(s) = 0
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
values:
  bot_estimate: {params: [s], value: "10 * points(s) + 30 * busy(s)"}
  bot_lookahead: "5"
  bot_beam: "1"
"""


def test_the_beam_ranks_a_plan_that_ended_above_one_cut_short(tmp_path):
    """Mid-turn the estimate counts 30 for being busy, which the turn's end takes away (as Golden Temple's
    rates shrink when the round ends and the Maharaja's turn comes between): a plan cut short (pruned
    by the beam of 1, or reached again) is scored as it stands, so before 2026-11-29 wandering's
    pruned second way (30) beat resting (20) although every wander that ends is worth 10. Now an option
    is worth its best plan that ended; an option whose plans were all cut short (dawdling, pruned at
    the first level) ranks below every option with a plan that ended."""
    (tmp_path / "game.yaml").write_text(WANDER)
    (tmp_path / "gems.yaml").write_text(GEMS)
    g = new_game(str(tmp_path), 2, 1)
    out = plans(g, g.trial(), 0, 3)
    assert out[0] == ((GOING, 20.0), [])
    assert out[1][0] == (GOING, 10.0) and [o for _, o in out[1][1]] == [0, 0]
    assert out[2][0][0] == GOING and out[2][0][1] < 10.0
    assert GreedyAgent(1).decide(g, 0) == 0
