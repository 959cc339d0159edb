"""Fast forms against the reference path (issue 31): every game, expansion and player count played twice
from one seed, once with the generated fast forms (``Settings.fast=True``) and once on the reference
path (``fast=False``), with random, greedy and one mcts seat; at every decision the two games must
offer the same decision (its options and labels), show every seat the same view and have written
the same log entries. A game played in place (non-narrated, blocks run direct, every bot answered
without pausing) must end in the same state and result both ways.

Cost: whole games (all but 8-player Dark City end within ``DECISIONS`` decisions; that one is
compared up to the bound), the mcts seat searching with a small budget: about 48 s of CPU for the
file (2 workers, 26 s wall, measured 2026-11-28 with /usr/bin/time).
"""

from __future__ import annotations

import json

import pytest

from mason.play.session import make_bot, play_game
from mason.session.game import Game, Settings, load_program

GAMES = [
    ("citadels", ()),
    ("citadels", ("dark-city",)),
    ("golden-temple", ()),
    ("island-fortress", ()),
    ("pillars", ()),
    ("prague", ()),
]
DECISIONS = 1000  # a bound on the decisions compared per game
MCTS = "mcts:4:d6"  # 4 iterations of rollouts 6 decisions deep
KINDS = ("random", "greedy", MCTS)


def _configs():
    for game, expansions in GAMES:
        prog = load_program(game, (), expansions)
        for players in range(prog.min_players, prog.max_players + 1):
            yield pytest.param(
                game, expansions, players, id=f"{game}{'+' + '+'.join(expansions) if expansions else ''}-{players}"
            )


CONFIGS = list(_configs())


def _agents(seed, players):
    """Seat -> bot kind -> agent. With three seats or more: seat 1 random, 2 greedy, 3 mcts, the rest
    random and greedy in turn; with fewer, each seat has the three and they take turns by decision
    (``_kind``), so every player count meets the three."""
    return {s: {k: make_bot(k, seed, s) for k in KINDS} for s in range(players)}


def _kind(seat: int, players: int, decision: int) -> str:
    if players >= 3:
        return KINDS[seat] if seat < 3 else KINDS[seat % 2]
    return KINDS[(seat + decision) % 3]


def _same(fast: Game, ref: Game, seen: int, where: str) -> int:
    """Assert the two games agree now: pending decision, every seat's view (and the table's), the log
    entries written since ``seen``; the log length after."""
    assert fast.pending == ref.pending, f"{where}: the pending decision differs"
    for seat in [None, *range(fast.state["n"])]:
        assert json.dumps(fast.view(seat), sort_keys=True) == json.dumps(ref.view(seat), sort_keys=True), (
            f"{where}: seat {seat}'s view differs"
        )
    assert fast.log[seen:] == ref.log[seen:], f"{where}: the log entries differ"
    assert len(fast.log) == len(ref.log), f"{where}: the logs differ in length"
    return len(fast.log)


@pytest.mark.parametrize("game, expansions, players", CONFIGS)
def test_fast_forms_and_reference_path_agree_at_every_decision(game, expansions, players):
    seed = 11 + players
    fast = Game.new(Settings(game, players, seed, (), expansions, fast=True))
    ref = Game.new(Settings(game, players, seed, (), expansions, fast=False))
    assert fast.program.fast and not ref.program.fast
    agents = _agents(seed, players)
    seen = _same(fast, ref, 0, "after setup")
    for d in range(DECISIONS):
        if fast.over:
            break
        seat = fast.state["pending"]["seat"]
        answer = agents[seat][_kind(seat, players, d)].decide(fast, seat)
        fast.answer(answer)
        ref.answer(answer)
        seen = _same(fast, ref, seen, f"after decision {d + 1} (answer {answer!r})")
    assert fast.over == ref.over


@pytest.mark.parametrize("game, expansions, players", [c for c in CONFIGS if c.values[2] == 3])
def test_fast_forms_and_reference_path_end_a_game_played_in_place_alike(game, expansions, players):
    """Every bot answered in place, nothing narrated: blocks run by their generated functions (fast) or
    their statements' handlers (reference); the whole game, to its end, in the same state."""
    ends = []
    for fast in (True, False):
        g = Game.new(Settings(game, players, 5, (), expansions, fast=fast), narrate=False)
        play_game(g, {s: make_bot(KINDS[s % 2], 5, s) for s in range(players)})
        assert g.over
        ends.append(json.dumps(g.state, sort_keys=True))
    assert ends[0] == ends[1]


def test_the_switch_turns_every_fast_form_off():
    """A program compiled with ``fast=False`` has no generated block, listener or window function: its
    expressions are their closure trees."""
    from mason.runtime import turns

    prog = load_program("citadels", (), (), fast=False)
    assert not prog.fast
    assert all(getattr(n, "direct", None) is None for n in prog.nodes if n.kind == "block")
    assert all(fn.__code__.co_filename != "<mason expression>" for fn in (prog._heard or {}).values())
    plan = prog._window_plan or turns._plan(prog)
    assert all(fn.__qualname__.startswith("_reference_window") for fn in plan[3].values())
    assert all(not hasattr(vd.fn, "slow") for vd in prog.values.values())
    fast = load_program("citadels", (), (), fast=True)
    assert fast is not prog and fast.fast
    assert any(hasattr(vd.fn, "slow") for vd in fast.values.values())


def _simulate_json(env_fast: str | None) -> dict:
    """``mason simulate prague -n 20 -p 4 --seed 1 --json`` as a user runs it, with ``MASON_FAST`` set
    to ``env_fast`` (None: unset); its report without the timing fields."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "MASON_FAST"}
    if env_fast is not None:
        env["MASON_FAST"] = env_fast
    done = subprocess.run(
        [sys.executable, "-m", "mason.cli.main", "simulate", "prague", "-n", "20", "-p", "4", "--seed", "1", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    report.pop("seconds")
    report["stats"] = {k: v for k, v in report["stats"].items() if k != "decisions_per_second"}
    return report


def test_mason_fast_0_simulates_as_the_fast_path_does():
    """The switch from the environment, through the command users run: the same report but timing."""
    on, off = _simulate_json(None), _simulate_json("0")
    assert on["completed"] == 20 and on["decisions"] > 0
    assert on == off
