"""Determinization (interpreter/determinize.py) and the automatic leak check over every game.

The leak check plays seeded random games of every game and expansion at every player count. At
random decisions it resamples the hidden part of the state from the deciding seat's view several
times and checks that what that seat sees is the same in every sample: its view, the decision put
to it (kind, prompt, options, labels, size) asked again by the paused rule, and the log lines its
answer produces. A difference means the seat's screen depends on something it may not see.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import paths
import pytest
from support import edited_copy, new_game, random_answer

from mason.model.expansions import list_expansions
from mason.model.loader import find_game, list_games
from mason.runtime.engine import resume
from mason.runtime.state import view
from mason.session.determinize import determinize, hidden_cards
from mason.session.game import Game, load_program

SAMPLES = 3  # resampled states compared at each checked decision
CHECK_EVERY = 10  # about one decision in this many is checked
DECISION_CAP = 600  # decisions played per game (most games end sooner)
PENDING_KEYS = ("seat", "kind", "prompt", "options", "labels", "subset")


def _setups():
    for game in list_games():
        for exps in [()] + [(e,) for e in list_expansions(find_game(game))]:
            prog = load_program(game, (), exps)
            for n in range(prog.min_players, prog.max_players + 1):
                yield game, exps, n


SETUPS = list(_setups())
IDS = [f"{g}{''.join('+' + e for e in x)}-{n}p" for g, x, n in SETUPS]


_answer = random_answer


def _seen(game: Game, seat: int) -> str:
    """What ``seat`` sees now, as one comparable text: its view (the decision with its labels included)."""
    return json.dumps(game.view(seat), sort_keys=True)


def _answer_lines(game: Game, seat: int, answer) -> list[str]:
    """The log lines ``seat`` may read that binding ``answer`` to the pending decision writes
    (on a copy: the game itself is not changed)."""
    g = game.copy()
    g.rt.flush_changes()
    start = len(g.log)
    resume(g.rt, answer)
    g.rt.flush_changes()
    return [json.dumps(e, sort_keys=True) for e in g.visible_log(seat, start)]


def _sample_game(game: Game, seat: int, rng: random.Random) -> Game:
    # the same log: what runs next names the decision that started it (its index in the log)
    return Game(game.program, game.settings, determinize(game.program, game.state, seat, rng), list(game.log))


def leak(game: Game, answer, tag=0) -> str | None:
    """What the deciding seat would see differently in a resampled state (None: nothing).

    Compares, over SAMPLES samples from its view: its view (with the decision's labels), the
    decision its paused rule asks again, and the log lines its answer writes when bound.
    """
    pending = game.pending
    seat = pending["seat"]
    seen = _seen(game, seat)
    asked = {key: pending[key] for key in PENDING_KEYS}
    lines = _answer_lines(game, seat, answer)
    for i in range(SAMPLES):
        sample = _sample_game(game, seat, random.Random(f"{tag}/{i}"))
        assert json.loads(json.dumps(sample.state)) == sample.state
        if _seen(sample, seat) != seen:
            return "its view depends on what it cannot see"
        again = {key: sample.state["pending"][key] for key in PENDING_KEYS}
        if again != asked:
            diff = [key for key in PENDING_KEYS if again[key] != asked[key]]
            return f"its decision ({', '.join(diff)}) depends on what it cannot see"
        if _answer_lines(sample, seat, answer) != lines:
            return "the log lines of its answer depend on what it cannot see"
    return None


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("game_id,exps,players", SETUPS, ids=IDS)
def test_no_leak(game_id, exps, players, seed):
    game = new_game(game_id, players, seed, expansions=exps)
    moves = random.Random(f"moves/{game_id}/{players}/{seed}")
    picks = random.Random(f"picks/{game_id}/{players}/{seed}")
    checked = 0
    for k in range(DECISION_CAP):
        if game.over:
            break
        pending = game.pending
        answer = _answer(moves, pending)
        if picks.randrange(CHECK_EVERY) == 0 or k == 0:
            checked += 1
            found = leak(game, answer, k)
            assert found is None, (
                f"{game_id}{''.join('+' + e for e in exps)} {players}p seed {seed}, decision {k} "
                f"of P{pending['seat'] + 1} ({pending['prompt']!r}): {found}"
            )
        game.answer(answer)
    assert checked >= 1


def test_the_check_finds_a_planted_leak(tmp_path):
    """A copy of the mini fixture whose prompt names the deck's top gem (hidden): the check says so."""
    dest = edited_copy(
        tmp_path,
        paths.FIXTURES / "mini",
        [
            ('saying "Play which gem?"', 'saying "Play which gem? (next: {card_name(last(deck))})"'),
            ("id: mini", "id: leaky"),
        ],
        name="leaky",
    )
    game = new_game(dest, 2, 1)
    rng = random.Random(1)
    for _ in range(200):
        if game.over:
            break
        if game.pending["prompt"].startswith("Play which gem?"):
            found = {leak(game, 0, tag) for tag in range(8)}  # a few samples may deal the same top gem
            assert "its view depends on what it cannot see" in found
            return
        game.answer(_answer(rng, game.pending))
    pytest.fail("the mini game never asked 'Play which gem?'")


def _game_at(game_id, exps, players, seed, decisions):
    """A seeded random game after ``decisions`` answers (or at its end)."""
    game = new_game(game_id, players, seed, expansions=exps)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.over:
            break
        game.answer(_answer(rng, game.pending))
    return game


def _family_counts(program, state):
    """Per zone, how many cards of each family it holds (a determinization keeps these)."""
    return {key: Counter(program.family_of[state["cards"][c]["t"]] for c in ids) for key, ids in state["zones"].items()}


MAX_SETUPS = [(g, x, load_program(g, (), x).max_players) for g, x in dict.fromkeys((g, x) for g, x, _ in SETUPS)]


@pytest.mark.parametrize(
    "game_id,exps,players", MAX_SETUPS, ids=[f"{g}{''.join('+' + e for e in x)}" for g, x, _ in MAX_SETUPS]
)
def test_sample_differs_where_hidden_and_plays_on(game_id, exps, players):
    game = _game_at(game_id, exps, players, 5, 12)
    assert not game.over
    program, state = game.program, game.state
    seat = state["pending"]["seat"]
    before = json.dumps(state, sort_keys=True)
    hidden = hidden_cards(program, state, seat)
    samples = [determinize(program, state, seat, random.Random(i)) for i in range(6)]
    assert json.dumps(state, sort_keys=True) == before, "determinize changed the real state"
    shown = [c for c in range(len(state["cards"])) if c not in set(hidden)]
    for sample in samples:
        assert [sample["cards"][c] for c in shown] == [state["cards"][c] for c in shown]
        assert [c["t"] for c in sample["cards"]] == [c["t"] for c in state["cards"]], "an id names one component"
        assert {k: len(v) for k, v in sample["zones"].items()} == {k: len(v) for k, v in state["zones"].items()}
        assert _family_counts(program, sample) == _family_counts(program, state)
        assert sample["rng"] != state["rng"]
    # when two hidden places of one family hold different components, some sample deals them differently
    where = {c: (state["cards"][c]["z"], state["cards"][c]["o"]) for c in hidden}
    by_family: dict = {}
    for c in hidden:
        by_family.setdefault(program.family_of[state["cards"][c]["t"]], set()).add(where[c])
    if any(len(places) > 1 for places in by_family.values()):
        assert any((s["cards"][c]["z"], s["cards"][c]["o"]) != where[c] for s in samples for c in hidden)
    assert hidden, "no hidden card at all: pick a later decision"
    # a sample is a game: it plays on (random answers, two samples, a while or to the end)
    for i, sample in enumerate(samples[:2]):
        g = Game(program, game.settings, json.loads(json.dumps(sample)), [])
        rng = random.Random(i)
        for _ in range(150):
            if g.over:
                break
            g.answer(_answer(rng, g.pending))


def test_same_rng_same_sample():
    game = _game_at("citadels", (), 4, 3, 5)
    seat = game.state["pending"]["seat"]
    a = determinize(game.program, game.state, seat, random.Random(42))
    b = determinize(game.program, game.state, seat, random.Random(42))
    assert a == b
    assert determinize(game.program, game.state, seat, random.Random(43)) != a


def test_own_hand_kept_and_other_hands_redealt():
    """Citadels, 4 players: the deciding seat's hand is kept card for card; the other hands (and the
    deck) are re-dealt among themselves, each keeping its size."""
    game = _game_at("citadels", (), 4, 2, 3)
    program, state = game.program, game.state
    seat = state["pending"]["seat"]
    mine = f"hand/{seat}"
    samples = [determinize(program, state, seat, random.Random(i)) for i in range(8)]
    for s in samples:
        assert [s["cards"][c]["t"] for c in s["zones"][mine]] == [state["cards"][c]["t"] for c in state["zones"][mine]]
    others = [f"hand/{o}" for o in range(4) if o != seat]
    assert any(
        sorted(s["cards"][c]["t"] for c in s["zones"][k]) != sorted(state["cards"][c]["t"] for c in state["zones"][k])
        for s in samples
        for k in others
    )


def test_secret_values_without_domain_are_kept():
    """A secret int (visibility: owner) with no declared ``domain`` has no generic one: it is kept.
    Island Fortress' sealed bid declares its domain (tests/engine/test_secret_domains.py); without it,
    the bid would be kept as it is."""
    game = _game_at("island-fortress", (), 3, 1, 0)
    program = copy.copy(game.program)
    program.var_domains = {}  # the bid as if it declared no domain
    state = json.loads(json.dumps(game.state))
    state["vars"]["bid"] = [3, 1, 2]
    sample = determinize(program, state, 0, random.Random(1))
    assert sample["vars"]["bid"] == [3, 1, 2]
    assert view(program, sample, 0) == view(program, state, 0)
