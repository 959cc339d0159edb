"""Blocks of plain statements run in place of their frame (runtime speed, issue 12): a choice's body,
a repeat's or while's round, and (narration off) an action's effect. Nothing observable may change:
the states at every decision, and an error's message and rule-file place."""

from __future__ import annotations

import json

import pytest
from support import edited_copy

from mason.agents.random_agent import RandomAgent
from mason.errors import PlayError
from mason.session.game import Game, Settings


def _states(settings, narrate, limit=400):
    """The state at each decision of a random game (labels and keys left out: only a narrating game has them)."""
    g = Game.new(settings, narrate=narrate)
    bots = {s: RandomAgent(f"inline/{s}") for s in range(settings.players)}
    out = []
    while not g.over and len(out) < limit:
        st = json.loads(json.dumps(g.state))
        if st["pending"] is not None:
            st["pending"]["labels"] = None
            st["pending"].pop("keys", None)
        out.append(json.dumps(st, sort_keys=True))
        p = g.state["pending"]
        g.answer(bots[p["seat"]].decide(g, p["seat"]))
    out.append(json.dumps(g.state["result"], sort_keys=True))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_narrated_and_silent_games_pass_through_the_same_states(seed):
    # narration off, an action of plain statements runs without its frame; narrating, with it
    settings = Settings("citadels", 4, seed)
    silent, told = _states(settings, False), _states(settings, True)
    assert len(silent) > 50
    assert silent == told


def test_an_error_in_a_choice_body_run_in_place_keeps_its_statement_place(tmp_path):
    # the selection's "keep a character" body is one plain statement: it runs in place of a frame
    folder = edited_copy(
        tmp_path,
        "citadels",
        [("move c to chosen(s)", "pay 1000 gold by s\n                move c to chosen(s)")],
        first_only=True,
        name="citadels",
    )
    lines = (folder / "game.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "pay 1000 gold by s" in text)
    g = Game.new(Settings(str(folder), 4, 1), narrate=False)
    with pytest.raises(PlayError) as info:
        for _ in range(10):
            g.answer(0)
    exc = info.value
    assert exc.code == "play/cannot-pay"
    assert "cannot pay 1000 gold" in exc.message
    assert exc.place is not None and exc.place.line == line
