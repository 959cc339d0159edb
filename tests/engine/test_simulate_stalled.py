"""Issue 29, item 10: a bot game that its rules never end is reported as stalled, not as an error.

A game still running at ``flow.max_rounds`` raises ``RoundCapReached`` (code ``play/loop``, as
before); ``mason simulate`` lists it under ``stalled`` apart from ``errors`` and from the statistics,
prints one ``stalled (seed S): ...`` line for it, and exits non-zero only when a game stopped with an
error or no game of the N completed. The Dry Well fixture is edited so that a game ends when seat 1
draws the well's single unit of water and otherwise never ends (its stall effect only speaks)."""

from __future__ import annotations

import json

import pytest
from paths import FIXTURES
from support import edited_copy, invoke

from mason.errors import RoundCapReached
from mason.play.session import simulate
from mason.session.game import Settings

NEVER_DRY = [
    ("well: {scope: game, start: 4", "well: {scope: game, start: 1"),
    ("until: any(water(s) >= goal for s in seats)", "until: water(0) >= 1"),
    (
        """    do: |
      say "The well is dry: the game ends."
      end game
""",
        """    do: say "Still dry."
""",
    ),
]
STALLED_SEEDS = [6, 8, 10, 12]  # of seeds 1..12 with random bots: the others end in round 1 or 2


@pytest.fixture
def well(tmp_path):
    return edited_copy(tmp_path, FIXTURES / "stall", NEVER_DRY, name="never_dry")


def _stderr_lines(result):
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result.stderr.strip().splitlines()


def test_issue29_item10_games_at_the_round_cap_are_stalled_not_errors(well):
    report = simulate(Settings(str(well), 2, 1), 12)
    assert report["errors"] == []
    assert [e["seed"] for e in report["stalled"]] == STALLED_SEEDS
    assert all(e["rounds"] == 30 and "did not end within 30 rounds" in e["message"] for e in report["stalled"])
    assert report["completed"] == 12 - len(STALLED_SEEDS) == len(report["results"])
    assert sorted(r["seed"] for r in report["results"]) == [s for s in range(1, 13) if s not in STALLED_SEEDS]


def test_issue29_item10_simulate_exits_zero_when_some_games_complete_and_others_stall(well):
    result = invoke("simulate", well, "-p", 2, "-n", 12, "--seed", 1)
    assert result.exit_code == 0, result.output
    assert (
        result.stdout.startswith("8/12 games completed in ") and "; 4 stalled (not ended by the rules)" in result.stdout
    )
    lines = _stderr_lines(result)
    assert [line.split(")")[0] for line in lines] == [f"stalled (seed {s}" for s in STALLED_SEEDS]
    assert not any("error[" in line for line in lines)


def test_issue29_item10_simulate_exits_non_zero_when_no_game_completes(well):
    result = invoke("simulate", well, "-p", 2, "-n", 1, "--seed", 6)
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("0/1 games completed in ")
    (line,) = _stderr_lines(result)
    assert line.startswith("stalled (seed 6): ") and "game.yaml:" in line and "did not end within 30 rounds" in line
    report = json.loads(invoke("simulate", well, "-p", 2, "-n", 1, "--seed", 6, "--json").stdout)
    assert report["completed"] == 0 and report["errors"] == [] and report["stalled"][0]["seed"] == 6


def test_issue29_item10_the_round_cap_is_still_play_loop_for_a_game_played_alone(well):
    from support import new_game

    from mason.play.session import make_bot, play_game

    g = new_game(well, 2, 6, narrate=False)
    with pytest.raises(RoundCapReached) as info:
        play_game(g, {s: make_bot("random", 6, s) for s in range(2)})
    assert info.value.code == "play/loop" and g.state["round"] == 30


def test_issue29_item10_the_dark_city_game_of_seed_391_is_no_error():
    """The issue's reproduction: ``mason simulate citadels --with dark-city -p 8 -n 1 --seed 391`` built
    and destroyed for 100 rounds with gold still circulating. Whether it ends or stalls is the rules'
    business; it is never an error, and the command says which in one line."""
    result = invoke("simulate", "citadels", "--with", "dark-city", "-p", 8, "-n", 1, "--seed", 391, "--json")
    report = json.loads(result.stdout)
    assert report["errors"] == [] and report["completed"] + len(report["stalled"]) == 1
    assert result.exit_code == (0 if report["completed"] else 1)
    text = invoke("simulate", "citadels", "--with", "dark-city", "-p", 8, "-n", 1, "--seed", 391)
    lines = _stderr_lines(text)
    assert len(lines) == (0 if report["completed"] else 1)
    assert all(line.startswith("stalled (seed 391): ") for line in lines)


def test_issue29_item10_analyze_and_compare_report_stalled_games_as_simulate_does(well):
    # analyze: the 4 stalled seeds of 1..12 are listed apart, left out of the statistics, and are no error
    result = invoke("analyze", well, "-p", 2, "-n", 12, "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [e["seed"] for e in report["stalled"]] == STALLED_SEEDS and report["errors"] == []
    assert report["completed"] == 8
    assert [line.split(")")[0] for line in _stderr_lines(result)] == [f"stalled (seed {s}" for s in STALLED_SEEDS]
    # a setting none of whose games ends exits non-zero, with one line a game
    result = invoke("analyze", well, "-p", 2, "-n", 1, "--seed", 6, "--quiet")
    assert result.exit_code == 1, result.output
    assert [line for line in _stderr_lines(result) if line.startswith("stalled (seed 6): ")], result.stderr
    # compare: each side's stalled games apart from its errors; no error, so exit 0
    result = invoke("compare", well, "-p", 2, "-n", 12, "--seed", 1, "--b", "bots=random", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [e["seed"] for e in report["a"]["stalled"]] == STALLED_SEEDS and report["a"]["errors"] == []
