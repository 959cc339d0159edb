"""One conformance test over every game folder: validates, plays, round-trips, reproduces, ends."""
from __future__ import annotations

import json
import random

import pytest

from mason.runtime.game import Game, Settings, load_program
from mason.model.loader import list_games
from mason.play.session import read_log, replay
from mason.model.validate import validate_game

from golden_tools import GOLDEN
from log_digest_check import check as check_digests
from test_log_events import schema_errors

GAMES = list_games()
DECISION_CAP = 20_000


def _with_expansions():
    """Every game alone, and every game with each of its expansions."""
    from mason.model.expansions import list_expansions
    from mason.model.loader import find_game

    for game in GAMES:
        yield game, ()
        for exp in list_expansions(find_game(game)):
            yield game, (exp,)


SETUPS = list(_with_expansions())
IDS = [g + "".join(f"+{e}" for e in exps) for g, exps in SETUPS]


def _cases():
    for game, exps in SETUPS:
        prog = load_program(game, (), exps)
        for n in range(prog.min_players, prog.max_players + 1):
            yield game, exps, n


@pytest.mark.parametrize("game,exps", SETUPS, ids=IDS)
def test_validates_with_expansions(game, exps):
    program, errors = validate_game(game, (), exps)
    assert errors == [], "\n".join(e.line() for e in errors)


@pytest.mark.parametrize("game", GAMES)
def test_game_validates(game):
    program, errors = validate_game(game)
    assert errors == [], "\n".join(e.line() for e in errors)
    assert program is not None


def _answer(rng, pending):
    n = len(pending["options"])
    if pending["subset"]:
        return sorted(rng.sample(range(n), rng.randint(0, pending["subset"])))
    return rng.randrange(n)


@pytest.mark.parametrize("game,exps,players", list(_cases()))
def test_plays_to_the_end_with_round_trips(game, exps, players):
    """Seeded random game: JSON round trip at every step, copy-then-continue equals continue."""
    g = Game.new(Settings(game, players, 11, (), exps))
    rng = random.Random(players)
    steps = 0
    fork_at = 40
    fork = None
    fork_answers = []
    while not g.over:
        state_json = json.dumps(g.state)
        assert json.loads(state_json) == g.state, "state is not plain JSON data"
        if steps == fork_at:
            fork = g.copy()
        a = _answer(rng, g.pending)
        if fork is not None:
            fork_answers.append(a)
        g.answer(a)
        steps += 1
        assert steps < DECISION_CAP, "the game does not end"
    # a score for every seat: the players' and the automated ones
    assert g.result and len(g.result["scores"]) == g.state["n"] == players + len(g.state["automata"])
    assert g.result["winners"]
    # the log: every entry meets schemas/log.schema.json; the digests add up from the changes alone
    entries = json.loads(json.dumps(g.log))
    assert schema_errors(entries) == []
    checked, problems = check_digests(entries)
    assert problems == [] and checked >= g.state["round"]
    if fork is not None:
        for a in fork_answers:
            fork.answer(a)
        assert fork.state == g.state
        assert fork.log == g.log


@pytest.mark.parametrize("game", GAMES)
def test_saved_and_resumed_mid_game_continues_identically(game, tmp_path):
    prog = load_program(game)
    g = Game.new(Settings(game, prog.min_players, 5))
    rng = random.Random(5)
    answers = []
    for _ in range(30):
        if g.over:
            break
        answers.append(_answer(rng, g.pending))
        g.answer(answers[-1])
    g.save(tmp_path / "s.json")
    resumed = Game.load(tmp_path / "s.json")
    assert resumed.state == g.state
    while not g.over:
        a = _answer(rng, g.pending)
        g.answer(a)
        resumed.answer(a)
    assert resumed.state == g.state and resumed.log == g.log


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_log(game):
    prog = load_program(game)

    def run():
        g = Game.new(Settings(game, prog.max_players, 3))
        rng = random.Random(3)
        while not g.over:
            g.answer(_answer(rng, g.pending))
        return json.dumps(g.log, sort_keys=True)

    assert run() == run()


def test_every_game_has_a_golden_playthrough():
    missing = [g for g in GAMES if not (GOLDEN / f"{g}.jsonl").exists()]
    assert not missing, f"no golden playthrough for {missing}: run python tests/golden_tools.py GAME"


@pytest.mark.parametrize("game", [g for g in GAMES if (GOLDEN / f"{g}.jsonl").exists()])
def test_golden_playthrough_reproduces(game):
    entries = read_log(GOLDEN / f"{game}.jsonl")
    replayed, diff = replay(entries)
    assert diff is None, (f"golden log differs at entry {diff + 1}: {entries[diff] if diff < len(entries) else 'end'}"
                          f" (if the change is intended, rewrite it: python tests/golden_tools.py {game})")
    assert replayed.over


@pytest.mark.parametrize("game", GAMES)
def test_every_log_entry_names_its_rule_place(game):
    prog = load_program(game)
    g = Game.new(Settings(game, prog.min_players, 2))
    rng = random.Random(2)
    while not g.over:
        g.answer(_answer(rng, g.pending))
    missing = [e for e in g.log if e.get("type") not in ("start", "end") and not e.get("at")]
    assert missing == []
    assert all(":" in e["at"] for e in g.log if e.get("at"))
