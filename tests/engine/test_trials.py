"""A search bot's trial game (``Game.trial`` and ``Game.answer_unchecked``) plays as the game would.

Found by the mcts work of 2026-11-29: an answer given unchecked was not counted as a decision, so a
trial that answered through ``flow.idle_rounds`` rounds (3 by default) with nothing else counted
stopped with ``play/stall``, "rounds in a row without a decision", where the real game goes on; a
greedy search then ranked that option as a rule error and an mcts rollout was dropped.
"""

from __future__ import annotations

from mason.session.game import Game, Settings

PICK = """\
id: pick
name: Pick
status: placeholder
description: Each round every seat picks a value and gains that many points. A test fixture.
players: {min: 2, max: 2}
families:
  gem: {file: gems.yaml, zone: market}
zones:
  market: {visibility: all}
counters:
  points: {scope: seat, start: 0, label: points}
flow:
  until: round >= 8
  phases:
    - id: pick
      do: |
        for s in seats:
            choose value v from [1, 2] by s saying "How many points?"
            gain v points to s
scoring:
  parts:
    - {id: points, label: points, value: points(s)}
"""


def _pick(tmp_path) -> Game:
    (tmp_path / "game.yaml").write_text(PICK)
    (tmp_path / "gems.yaml").write_text("family: gem\ncomponents:\n  - {id: ruby, name: Ruby}\n")
    return Game.new(Settings(str(tmp_path), 2, 1), narrate=False)


def test_a_trial_counts_its_unchecked_answers_as_decisions(tmp_path):
    game = _pick(tmp_path)
    trial = game.trial()
    before = trial.state["decisions"]
    trial.answer_unchecked(1)
    assert trial.state["decisions"] == before + 1  # as Game.answer counts it
    assert game.state["decisions"] == before  # the game itself is untouched


def test_a_trial_plays_past_the_idle_round_guard_as_the_game_does(tmp_path):
    game = _pick(tmp_path)
    trial = game.trial()
    for _ in range(2 * 5):  # five rounds of two answers each, past flow.idle_rounds (3)
        trial.answer_unchecked(1)
    for _ in range(2 * 5):
        game.answer(1)
    assert trial.state["round"] == game.state["round"] == 6
    assert trial.state == game.state  # the same answers, the same game
