"""The `track` board kind (interpreter/primitives/track.py) on the fixture game tests/fixtures/ziggurat."""

from __future__ import annotations

import random

import paths
import pytest
from scenario import board_events, counter, run, run_phase
from support import copy_game, new_game

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.model.validate import validate_game
from mason.presentation.render import render_view

ZIGGURAT = str(paths.FIXTURES / "ziggurat")


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def lore(g):
    return g.state["boards"]["lore"]


def said(g, start=0):
    return [e["text"] for e in g.log[start:] if "text" in e]


def test_tracks_steps_and_start_positions():
    g = new_game(ZIGGURAT, 3)
    assert lore(g) == {"study": [0, 0, 0], "craft": [0, 0, 0]}
    assert q(g, "track_names", "lore") == ["study", "craft"]
    assert q(g, "track_top", "lore", "study") == 3 and q(g, "track_top", "lore", "craft") == 2
    assert q(g, "track_step", "lore", "study", 0) == {}
    assert q(g, "track_step", "lore", "study", 3) == {"when": "final", "reward": "score", "amount": 3}
    assert q(g, "track_over_top", "lore", "craft") == {"reward": "score", "amount": 1}
    for args, code in (
        (("lore", "study", 4), "play/index"),
        (("lore", "dance", 0), "play/unknown"),
        (("ziggurat", "study", 0), "play/type"),
    ):
        with pytest.raises(PlayError) as e:
            q(g, "track_step", *args)
        assert e.value.code == code


def test_move_clamps_at_the_top_and_at_zero_and_narrates_real_changes():
    g = new_game(ZIGGURAT, 2)
    start = len(g.log)
    run(g, 'do track_move(lore, "study", 1, 2)')
    assert q(g, "track_pos", "lore", "study", 1) == 2 and not q(g, "track_at_top", "lore", "study", 1)
    run(g, 'do track_move(lore, "study", 1, 5)')
    assert q(g, "track_pos", "lore", "study", 1) == 3 and q(g, "track_at_top", "lore", "study", 1)
    run(g, 'do track_move(lore, "study", 1, 1)')  # already on the top: nothing happens
    run(g, 'do track_move(lore, "study", 1, -1)\ndo track_move(lore, "craft", 0, -2)')
    assert lore(g) == {"study": [0, 2], "craft": [0, 0]}
    assert said(g, start) == ["P2's study marker 0 -> 2", "P2's study marker 2 -> 3", "P2's study marker 3 -> 2"]
    for bad, code in (
        ('"study", 0, "1"', "play/type"),
        ('"study", 7, 1', "play/no-seat"),
        ('"dance", 0, 1', "play/unknown"),
    ):
        with pytest.raises(PlayError) as e:
            run(g, f"do track_move(lore, {bad})")
        assert e.value.code == code


def test_set_puts_the_marker_on_a_step_within_the_track():
    g = new_game(ZIGGURAT, 2)
    run(g, 'do track_set(lore, "craft", 0, 2)')
    assert q(g, "track_pos", "lore", "craft", 0) == 2 and q(g, "track_at_top", "lore", "craft", 0)
    run(g, 'do track_set(lore, "craft", 0, 0)')
    assert q(g, "track_pos", "lore", "craft", 0) == 0
    for i in ("3", "-1"):
        with pytest.raises(PlayError) as e:
            run(g, f'do track_set(lore, "craft", 0, {i})')
        assert e.value.code == "play/index"


def test_reached_steps_filtered_by_timing():
    g = new_game(ZIGGURAT, 2)
    assert q(g, "track_reached", "lore", "study", 0) == []
    lore(g)["study"][0] = 2
    assert [s["when"] for s in q(g, "track_reached", "lore", "study", 0)] == ["once", "round_end"]
    assert q(g, "track_reached", "lore", "study", 0, "when", "final") == []
    assert q(g, "track_reached", "lore", "study", 0, "when", "round_end") == [
        {"when": "round_end", "reward": "score", "amount": 1}
    ]
    lore(g)["study"][0] = 3
    assert q(g, "track_reached", "lore", "study", 0, "when", "final")[0]["amount"] == 3
    assert len(q(g, "track_reached", "lore", "study", 0, "amount")) == 3  # a key alone: steps having it
    assert q(g, "track_reached", "lore", "study", 1, "when") == []


def test_once_rewards_and_over_top_read_from_the_track_data():
    g = new_game(ZIGGURAT, 2)
    g.state["counters"]["coins"] = [0, 0]
    g.state["counters"]["score"] = [0, 0]
    run(g, 'emit advance(who=0, line="study")')  # step 1: once, 2 coins
    assert counter(g, "coins") == [2, 0]
    run(g, 'emit advance(who=0, line="study")\nemit advance(who=0, line="study")')  # round_end, final: nothing now
    assert counter(g, "coins") == [2, 0] and counter(g, "score") == [0, 0]
    run(g, 'emit advance(who=0, line="study")')  # at the top: over_top gives 1 coin
    assert counter(g, "coins") == [3, 0] and q(g, "track_pos", "lore", "study", 0) == 3
    run(g, 'emit advance(who=1, line="craft")\nemit advance(who=1, line="craft")\nemit advance(who=1, line="craft")')
    assert counter(g, "score") == [0, 3]  # step 2 once: 2; beyond the top: 1


def test_round_end_rewards_every_reached_round_end_step():
    g = new_game(ZIGGURAT, 3)
    g.state["counters"]["coins"] = [0, 0, 0]
    g.state["counters"]["score"] = [0, 0, 0]
    lore(g).update({"study": [3, 1, 0], "craft": [2, 0, 1]})
    run_phase(g, "round_end")
    assert counter(g, "score") == [1, 0, 0] and counter(g, "coins") == [1, 0, 1]


def test_render_one_line_per_track():
    g = new_game(ZIGGURAT, 2)
    lore(g).update({"study": [3, 1], "craft": [0, 2]})
    text = render_view(g.program, g.view(1))
    assert "lore:" in text
    assert "study: P1 3/3  P2 1/3" in text and "craft: P1 0/2  P2 2/2" in text


def test_start_key_and_bad_declarations(tmp_path):
    bad = copy_game(tmp_path, ZIGGURAT, "bad_ziggurat")
    path = bad / "game.yaml"
    text = path.read_text()
    path.write_text(text.replace("    kind: track\n", "    kind: track\n    start: 1\n"))
    g = new_game(str(bad), 2)
    assert lore(g) == {"study": [1, 1], "craft": [1, 1]}
    path.write_text(
        text.replace("    kind: track\n", "    kind: track\n    start: 3\n").replace(
            "steps: [{}, {when: round_end", "steps: [[], {when: round_end"
        )
    )
    _, errors = validate_game(str(bad))
    messages = [e.message for e in errors]
    assert any("track 'craft': steps must be a non-empty list of mappings" in m for m in messages), messages
    assert any("start 3 is beyond the top of" in m for m in messages), messages
    assert len(errors) == 2 and all(e.code == "definition/board" and e.place.line > 0 for e in errors)
    path.write_text(
        text.replace("      craft:\n        steps:", "      craft:\n        stairs:").replace(
            "over_top: {reward: coins, amount: 1}", "over_top: coin"
        )
    )
    messages = [e.message for e in validate_game(str(bad))[1]]
    assert any("track 'study': over_top must be a mapping" in m for m in messages), messages
    assert any("track 'craft': steps must be" in m for m in messages), messages


def test_seeded_random_games_end_and_score_the_final_steps():
    for players, seed in ((2, 4), (3, 7)):
        g = new_game(ZIGGURAT, players, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            g.answer(rng.randrange(len(g.pending["options"])))
        full = q(g, "pyramid_open", "ziggurat") == []
        assert full or g.result["rounds"] == 8
        for s, part in enumerate(g.result["parts"]):
            assert part["lore"] == (3 if lore(g)["study"][s] == 3 else 0)
            assert part["score"] == counter(g, "score", s)


# ==================================================================== typed log events (issue 28)
def test_a_marker_move_is_a_typed_event_with_track_seat_and_steps():
    g = new_game(str(ZIGGURAT), 2)
    events = board_events(
        g,
        'do track_move("lore", "study", 0, 2)\ndo track_set("lore", "study", 0, 1)\ndo track_move("lore", "craft", 1, -1)',
    )
    assert [(e["board"], e["op"], e["track"], e["seat"], e["source"], e["dest"]) for e in events] == [
        ("lore", "move", "study", 0, 0, 2),
        ("lore", "move", "study", 0, 2, 1),  # (the move below step 0 stays there: nothing to log)
    ]
    assert events[0]["text"] == "P1's study marker 0 -> 2"
