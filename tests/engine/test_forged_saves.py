"""Issue 29, item 7: logs and saves checked as data before use.

A log's start entry is checked against ``schemas/log.schema.json`` before its settings are used; a
save's state is checked against the game's declared shape (no unknown key, a ``type: seat``
variable holds a seat) and then rebuilt by replaying the save's own settings and answers
(session/saves.py ``_check_replay``): any difference is refused in one line naming the first place.
"""

from __future__ import annotations

import json

import pytest
from support import invoke, new_game

from mason.errors import SaveError
from mason.play.session import make_bot, play_game
from mason.session.game import Game, Settings


def one_line_failure(result) -> str:
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in result.output, result.stderr
    assert "error[internal]" not in err[0], err[0]
    return err[0]


@pytest.fixture(scope="module")
def mid_save():
    """A Citadels save 20 answers in (calling phase of round 1), as ``mason play --save`` writes it."""
    game = new_game("citadels", 4, 5)
    for _ in range(20):
        game.answer(0)
    return json.loads(json.dumps(game.to_json()))


def _forged(mid_save, change):
    data = json.loads(json.dumps(mid_save))
    change(data)
    return data


def _gold_999(d):
    d["state"]["counters"]["gold"][0] = 999


def _plausible_gold(d):  # within every cap and the bank's total: only the answers tell it is forged
    d["state"]["counters"]["gold"][0] += 1
    d["state"]["counters"]["bank"] -= 1


FORGERIES = {
    "over-mid-game": (
        lambda d: d["state"].__setitem__("over", True),
        "the save's state is not the one its answers lead to: state.over is true, its answers give false",
    ),
    "unknown-state-key": (
        lambda d: d["state"].__setitem__("cheat", 1),
        "the save is damaged: state: unknown key 'cheat'",
    ),
    "crown-42": (
        lambda d: d["state"]["vars"].__setitem__("crown", 42),
        "the save's state is damaged: crown is 42: a seat (0-3) or null expected",
    ),
    "gold-999": (_gold_999, "state.counters.gold[0] is 999, its answers give 1"),
    "format-true": (lambda d: d.__setitem__("mason", True), "not a Mason save file"),  # true == 1 in Python
}


@pytest.mark.parametrize("forgery", list(FORGERIES), ids=list(FORGERIES))
def test_issue29_item7_a_forged_save_is_refused_in_one_line_at_resume(forgery, mid_save, tmp_path):
    change, expected = FORGERIES[forgery]
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(_forged(mid_save, change)), encoding="utf-8")
    err = one_line_failure(invoke("play", "citadels", "--resume", path, "--bots", "random"))
    assert err.startswith(f"error[save/invalid]: {path}: ") and expected in err, err


@pytest.mark.parametrize(
    "change, expected",
    [
        (_plausible_gold, "state.counters.bank is 23, its answers give 24"),
        (lambda d: d["state"]["vars"].__setitem__("crown", 1), "state.vars.crown is 1, its answers give 0"),
        (lambda d: d["state"].__setitem__("rng", d["state"]["rng"] + 1), "state.rng is "),
        (lambda d: d["state"]["counters"]["completion"].__setitem__(2, 4), "state.counters.completion[2] is 4"),
        (
            lambda d: next(e for e in d["log"] if e.get("type") == "decision").__setitem__("answer", 1),
            "the save's state is not the one its answers lead to",
        ),
        (
            lambda d: next(e for e in d["log"] if e.get("type") == "decision").__setitem__("answer", 99),
            "the save's answers cannot be replayed: no option has index 99",
        ),
        (
            lambda d: next(e for e in d["log"] if e.get("type") == "say" or "text" in e).__setitem__("text", "lies"),
            "the save's log is not the one its answers lead to: entry",
        ),
    ],
    ids=[
        "gold-within-the-bank",
        "crown-to-another-seat",
        "rng",
        "completion",
        "answer-changed",
        "answer-illegal",
        "log-text",
    ],
)
def test_issue29_item7_the_state_must_be_the_one_its_answers_lead_to(change, expected, mid_save):
    with pytest.raises(SaveError) as info:
        Game.from_json(_forged(mid_save, change))
    assert expected in info.value.message and "\n" not in info.value.message, info.value.message


def test_issue29_item7_a_true_save_still_resumes_and_its_bot_streams_are_its_own(mid_save):
    data = json.loads(json.dumps(mid_save))
    data["state"]["bots"] = {"1": 12345}  # a bot's own random stream is not the game's: kept as saved
    game = Game.from_json(data)
    assert game.state == data["state"] and game.log == data["log"]


def test_issue29_item7_a_save_of_a_game_without_a_log_holds_its_answers_and_is_checked_by_them(tmp_path):
    game = Game.new(Settings("citadels", 4, 6), narrate=False)
    bots = {s: make_bot("random", 6, s) for s in range(4)}
    for _ in range(25):
        seat = game.pending["seat"]
        game.answer(bots[seat].decide(game, seat))
    data = json.loads(json.dumps(game.to_json()))
    assert data["log"] == [] and len(data["answers"]) == 25
    assert Game.from_json(json.loads(json.dumps(data))).state == game.state
    _gold_999(data)
    with pytest.raises(SaveError, match=r"state.counters.gold\[0\] is 999"):
        Game.from_json(json.loads(json.dumps(data)))
    del data["answers"]
    with pytest.raises(SaveError, match="holds neither a log nor its answers"):
        Game.from_json(data)


def test_issue29_item7_a_game_played_by_bots_in_place_saves_no_answers_it_does_not_have():
    game = Game.new(Settings("citadels", 4, 6), narrate=False)
    play_game(game, {s: make_bot("random", 6, s) for s in range(4)})  # answered in place: no Game.answer
    assert "answers" not in game.to_json()


def test_issue29_item7_dark_city_saves_whose_bank_rules_move_gold_onto_cards_resume():
    # Dark City sets the bank directly (gold placed on districts): no fixed total holds, the replay does
    game = new_game("citadels", 4, 2, expansions=("dark-city",))
    rng_answers = iter(range(10_000))
    while not game.over and game.state["decisions"] < 150:
        p = game.pending
        k = next(rng_answers)
        game.answer(sorted({k % len(p["options"])})[: p["subset"]] if p["subset"] else k % len(p["options"]))
    data = json.loads(json.dumps(game.to_json()))
    assert Game.from_json(data).state == game.state


@pytest.mark.parametrize(
    "field, value, expected",
    [
        ("options", [1, 2], "settings.options: expected an object, not a list"),
        ("game", None, "settings.game: expected a string, not null"),
        ("with", [5], "settings.with[0]: expected a string, not a whole number"),
        ("game", "", "settings.game: is empty"),
    ],
    ids=["options-a-list", "game-null", "with-a-number", "game-empty"],
)
@pytest.mark.parametrize("command", ["replay", "explain"])
def test_issue29_item7_a_log_start_entry_with_wrongly_typed_settings_is_refused_in_one_line(
    command, field, value, expected, tmp_path
):
    game = new_game("citadels", 4, 5)
    for _ in range(6):
        game.answer(0)
    entries = json.loads(json.dumps(game.log))
    entries[0]["settings"][field] = value
    log = tmp_path / "g.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    err = one_line_failure(invoke(command, log))
    assert err == f"error[save/invalid]: {log}:1:1: the log's start entry is damaged: {expected}", err


@pytest.mark.parametrize("game", ["citadels", "golden-temple", "prague"])
def test_issue29_item7_saves_taken_after_undos_are_the_replay_of_their_answers(game):
    """Undo restores a snapshot and cuts the log back: the save is still its answers' replay."""
    import random

    from mason.session.game import load_program

    g = new_game(game, load_program(game).min_players, 11)
    rng, undos = random.Random(5), 0
    for _ in range(60):
        if g.over:
            break
        snap, p = g.snapshot(), g.pending
        g.answer(rng.randrange(len(p["options"])) if not p["subset"] else [])
        if rng.random() < 0.3 and g.undo_refusal(snap, p["seat"]) is None:
            g.restore(snap)
            undos += 1
    assert undos > 0
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).state == g.state
