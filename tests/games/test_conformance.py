"""One conformance test over every game folder: validates, plays, round-trips, reproduces, ends."""

from __future__ import annotations

import json
import random
import shutil

import pytest
from golden_tools import GOLDEN, read_views, replay_golden
from log_digest_check import check as check_digests
from log_schema import schema_errors
from support import new_game, random_answer

from mason.model.loader import find_game, list_games
from mason.model.validate import validate_game
from mason.play.session import read_log
from mason.session.game import Game, load_program

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


_answer = random_answer


@pytest.mark.parametrize("game,exps,players", list(_cases()))
def test_plays_to_the_end_with_round_trips(game, exps, players):
    """Seeded random game: JSON round trip at every step, copy-then-continue equals continue."""
    g = new_game(game, players, 11, expansions=exps)
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
    g = new_game(game, prog.min_players, 5)
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
        g = new_game(game, prog.max_players, 3)
        rng = random.Random(3)
        while not g.over:
            g.answer(_answer(rng, g.pending))
        return json.dumps(g.log, sort_keys=True)

    assert run() == run()


def test_every_game_has_a_golden_playthrough():
    missing = [g for g in GAMES if not (GOLDEN / f"{g}.jsonl").exists()]
    assert not missing, f"no golden playthrough for {missing}: run python tests/golden_tools.py GAME"


GOLDEN_GAMES = [g for g in GAMES if (GOLDEN / f"{g}.jsonl").exists()]


def test_every_golden_has_its_views():
    missing = [g for g in GOLDEN_GAMES if read_views(g) is None]
    assert not missing, f"no recorded views for {missing}: run python tests/golden_tools.py --replay GAME"


@pytest.mark.parametrize("game", GOLDEN_GAMES)
def test_golden_playthrough_reproduces(game):
    """The golden's answers give the same views, decisions, narration and events (places aside)."""
    entries = read_log(GOLDEN / f"{game}.jsonl")
    replayed, diff = replay_golden(entries, views=read_views(game))
    assert diff is None, (
        f"{diff} (if the change is intended, rewrite it: python tests/golden_tools.py --replay {game}"
        f" when the same answers still make the same game, else python tests/golden_tools.py {game})"
    )
    assert replayed.over


def _copy_game(game, tmp_path):
    folder = tmp_path / game
    shutil.copytree(find_game(game), folder)
    return folder


@pytest.mark.parametrize("game", GOLDEN_GAMES)
def test_golden_survives_a_comment_line(game, tmp_path):
    """A comment line at the top of a rule file moves every rule-file place; the golden still replays."""
    folder = _copy_game(game, tmp_path)
    rules = folder / "game.yaml"
    rules.write_text(
        "# a comment line, moving every place below it\n" + rules.read_text(encoding="utf-8"), encoding="utf-8"
    )
    entries = read_log(GOLDEN / f"{game}.jsonl")
    replayed, diff = replay_golden(entries, folder, views=read_views(game))
    assert diff is None
    assert replayed.over
    # the places did move: the same game as from the game's own folder, logged one line further down
    original, _ = replay_golden(entries)
    shifted = [(o["at"], c["at"]) for o, c in zip(original.log, replayed.log) if "game.yaml:" in o.get("at", "")]
    assert len(original.log) == len(replayed.log) and shifted
    assert all(int(c.split(":")[-2]) == int(o.split(":")[-2]) + 1 for o, c in shifted)


# a changed rule of the Citadels base game: the golden no longer replays, and says where it parts
# (rule text, changed text, what the replay reports with the views compared, and from the log alone)
RULE_CHANGES = {
    "value": (
        "do: gain 2 gold",
        "do: gain 3 gold",
        "entry 64 (gain): amount: the golden has 2, the replay gives 3",
        "entry 64 (gain): amount: the golden has 2, the replay gives 3",
    ),
    "label": (
        "label: Take 2 gold",
        "label: Take two gold",
        "decision 5: the views differ from the golden's",
        "entry 46 (decision): options: the golden has ",
    ),
}


@pytest.mark.parametrize("change", sorted(RULE_CHANGES))
def test_golden_fails_when_a_rule_changes(change, tmp_path):
    before, after, with_views, from_log = RULE_CHANGES[change]
    folder = _copy_game("citadels", tmp_path)
    rules = folder / "game.yaml"
    text = rules.read_text(encoding="utf-8")
    assert text.count(before) == 1
    rules.write_text(text.replace(before, after), encoding="utf-8")
    entries = read_log(GOLDEN / "citadels.jsonl")
    assert replay_golden(entries, folder, views=read_views("citadels"))[1] == with_views
    assert replay_golden(entries, folder)[1].startswith(from_log)


def test_golden_fails_when_a_view_differs():
    """The views are compared too: a golden whose recorded view of one decision is not what is seen fails."""
    views = read_views("citadels")
    views[len(views) // 2] = "0" * 16
    _, diff = replay_golden(read_log(GOLDEN / "citadels.jsonl"), views=views)
    assert diff == f"decision {len(views) // 2 + 1}: the views differ from the golden's"


@pytest.mark.parametrize("game", GAMES)
def test_every_log_entry_names_its_rule_place(game):
    prog = load_program(game)
    g = new_game(game, prog.min_players, 2)
    rng = random.Random(2)
    while not g.over:
        g.answer(_answer(rng, g.pending))
    missing = [e for e in g.log if e.get("type") not in ("start", "end") and not e.get("at")]
    assert missing == []
    assert all(":" in e["at"] for e in g.log if e.get("at"))
