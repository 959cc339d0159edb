"""Automated seats ("automata"), on the made-up fixture tests/fixtures/automaton (Orchard Duel).

Played alone, the person (P1) faces Rival, an automaton whose policy has a fallback rule; at 2
players, Helper (an automaton without a fallback) takes a third seat. Setup deals without
shuffling: the market starts Apple, Pear, Cherry (and Fig at 2 players).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import paths
import pytest
from support import copy_game, invoke, new_game, random_answer

from mason.dsl.expr import Scope
from mason.dsl.parser import parse_expression
from mason.errors import MasonError, PlayError, SaveError
from mason.model.validate import validate_game
from mason.play.session import read_log, verify_log, write_log
from mason.presentation.render import render_result, render_view
from mason.runtime.machine import move_card
from mason.session.game import Game, load_program

FIXTURE = paths.FIXTURES / "automaton"
GAME = str(FIXTURE)
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[a-z/-]+)\]: (?P<msg>.+)$")


def new(players=1, seed=1, narrate=True) -> Game:
    return new_game(GAME, players, seed, narrate=narrate)


def ev(g: Game, text: str, me=None):
    """The value of a DSL expression in the game's current state."""
    fn = g.program.exprs.compile(parse_expression(text), Scope(("me",)))
    return fn(g.rt, {"me": me})


def card(g: Game, type_id: str, n: int = 0) -> int:
    return g.program.type_instances[type_id][n]


def names(g: Game, key: str) -> list[str]:
    return [g.program.types[g.state["cards"][c]["t"]]["name"] for c in g.state["zones"][key]]


def put(g: Game, key: str, type_ids: list[str]) -> None:
    """Make zone ``key`` hold exactly these cards (in this order, the others going to the compost)."""
    for c in list(g.state["zones"][key]):
        move_card(g.rt, c, "compost")
    for tid in type_ids:
        free = [c for c in g.program.type_instances[tid] if g.state["cards"][c]["z"] != key]
        move_card(g.rt, free[0], key, facing="up")


def act(g: Game, label: str) -> None:
    p = g.pending
    assert label in p["labels"], (label, p["prompt"], p["labels"])
    i = p["labels"].index(label)
    g.answer([i] if p["subset"] else i)


def automated(g: Game, start: int = 0) -> list[dict]:
    return [e for e in g.log[start:] if e.get("type") == "automated"]


def said(g: Game, start: int = 0) -> list[str]:
    return [e["text"] for e in g.log[start:] if "text" in e]


def random_play(g: Game, rng: random.Random, check=None) -> None:
    while not g.over:
        p = g.pending
        if check:
            check(g)
        g.answer(random_answer(rng, p))


# ------------------------------------------------------------------ seats and names
def test_seats_follow_the_players_and_are_named():
    g = new(1)
    assert g.state["n"] == 2 and g.players == 1 and g.state["automata"] == {"1": "rival"}
    assert g.seat_names() == ["P1", "Rival"]
    g2 = new(2)
    assert g2.state["n"] == 3 and g2.players == 2 and g2.state["automata"] == {"2": "helper"}
    assert g2.seat_names() == ["P1", "P2", "Helper"]
    # per-seat state exists for every seat
    assert len(g.state["counters"]["coins"]) == 2 and "crate/1" in g.state["zones"]
    assert len(g2.state["vars"]["bid"]) == 3


@pytest.mark.parametrize(
    "players, expected",
    [
        (
            1,
            {
                "players": 1,
                "seats": [0, 1],
                "others": [1],
                "seats_from(1)": [1, 0],
                "next_seat(0)": 1,
                "automated(1)": True,
                "automated(0)": False,
                "automated(none)": False,
                "automaton_seat(rival)": 1,
                'automaton_seat("rival")': 1,
                "automaton_seat(helper)": None,
                "seat_name(1)": "Rival",
                "seat_name(0)": "P1",
                "market_size": 3,
                "rival": "rival",
            },
        ),
        (
            2,
            {
                "players": 2,
                "seats": [0, 1, 2],
                "others": [1, 2],
                "automated(2)": True,
                "automated(1)": False,
                "automaton_seat(rival)": None,
                "automaton_seat(helper)": 2,
                "seat_name(2)": "Helper",
                "seat_name(1)": "P2",
                "market_size": 4,
            },
        ),
    ],
)
def test_dsl_names(players, expected):
    g = new(players)
    for text, value in expected.items():
        got = ev(g, text, me=0)
        assert got == value and type(got) is type(value), f"{text} gives {got!r}, not {value!r}"


def test_the_table_row_is_the_players_count():
    assert names(new(1), "market") == ["Apple", "Pear", "Cherry"]  # market_size 3 (1 player)
    assert names(new(2), "market") == ["Apple", "Pear", "Cherry", "Fig"]  # market_size 4


def test_views_and_render_name_the_automated_seat():
    g = new(1)
    v = g.view(0)
    assert v["players"] == 1 and v["seats"] == 2 and v["names"] == ["P1", "Rival"] and v["automated"] == [1]
    text = render_view(g.program, v)
    assert re.search(r"^Rival \(automated\)", text, re.M) and "P1 (you)" in text


# ------------------------------------------------------------------ the policy
def test_ranking_by_keys_and_ties_to_the_first_offered():
    g = new(1)
    put(g, "market", ["pear", "apple", "cherry"])  # Pear and Apple tie (3 points, rank 1): Pear is first
    start = len(g.log)
    act(g, "Rest")
    assert names(g, "crate/1") == ["Pear"]
    auto = automated(g, start)
    assert [(e["kind"], e["chosen"], e["rule"]) for e in auto[:2]] == [("action", "Harvest", 1), ("card", "Pear", 0)]
    assert "Rival chooses Pear" in said(g, start)

    g = new(1)
    put(g, "market", ["cherry", "apple", "pear"])  # Cherry has 3 points too, but rank 2 ranks below rank 1
    act(g, "Rest")
    assert names(g, "crate/1") == ["Apple"]


def test_when_selects_the_rule_and_the_fallback_takes_the_rest():
    g = new(1)
    put(g, "market", [])  # nothing to harvest: the action rule prefers trade to rest
    put(g, "crate/1", ["plum"])  # so that "Trade how?" has two options
    start = len(g.log)
    act(g, "Rest")
    auto = automated(g, start)
    assert [(e["kind"], e["chosen"], e["rule"]) for e in auto[:2]] == [
        ("action", "Trade", 1),
        ("option", "Buy from the pile", 5),
    ]  # "Trade how?": only the fallback holds
    assert g.state["counters"]["coins"][1] == 0 and len(g.state["zones"]["crate/1"]) == 2
    assert 'Rival answers "Trade how?": Buy from the pile' in said(g, start)


def test_no_matching_rule_takes_the_first_option():
    g = new(2)
    act(g, "Harvest")
    act(g, "Apple")  # P1
    act(g, "Harvest")
    act(g, "Pear")  # P2
    auto = automated(g)
    # Helper's only rule prefers rest over the harvest offered first
    assert [(e["seat"], e["kind"], e["chosen"], e["rule"]) for e in auto] == [(2, "action", "Rest", 0)]
    act(g, "0")
    act(g, "0")  # bids of P1 and P2
    bid = automated(g)[-1]
    assert (bid["seat"], bid["kind"], bid["chosen"], bid["rule"]) == (2, "value", "0", None)  # not the 3 coins
    assert g.state["vars"]["bid"] == [0, 0, 0]


def test_subset_and_optional_choices():
    g = new(1)
    act(g, "Rest")  # Rival harvests Apple
    put(g, "crate/1", ["plum", "cherry", "fig"])  # before the tidy phase
    start = len(g.log)
    act(g, "0")  # P1's bid; P1's crate is empty: no tidy decision
    auto = automated(g, start)
    compost, show = auto[-2], auto[-1]
    # optional: none is offered last and ranked like the others
    assert (compost["chosen"], compost["answer"], compost["rule"]) == ("none", 3, 4)
    # up to 2: the two best, in rank order (Cherry 3, Fig 2; not Plum 1)
    assert (show["chosen"], show["answer"], show["rule"]) == (["Cherry", "Fig"], [1, 2], 3)
    assert g.state["counters"]["score"][1] == 2 + 3 + 2  # the bid bonus, then the crops shown
    assert g.pending["seat"] == 0 and g.state["round"] == 2

    g = new(1)
    act(g, "Rest")
    put(g, "crate/1", ["plum", "apple", "pear"])  # Apple and Pear tie: offer order
    act(g, "0")
    assert automated(g)[-1]["chosen"] == ["Apple", "Pear"]


def test_a_failing_key_stops_the_game_at_its_place(tmp_path):
    game = copy_fixture(tmp_path)
    text = edit(game, "prefer: [option == none]", "prefer: [option.points]")  # none has no points
    with pytest.raises(PlayError) as info:
        g = new_game(game, 1, 1)
        act(g, "Rest")
        act(g, "0")
    line, col = at(text, "option.points]", after="Compost a crop")
    assert info.value.code == "play/type" and (info.value.place.line, info.value.place.col) == (line, col)


# ------------------------------------------------------------------ decisions, logs, saves
def test_no_pending_decision_ever_belongs_to_an_automated_seat():
    for players in (1, 2):
        for seed in range(1, 16):
            g = new(players, seed, narrate=seed % 2 == 0)
            seen_auto = []

            def check(game):
                assert game.pending["seat"] < game.players
                assert game.legal() or not game.state["pending"]["labels"]
                seen_auto.append(len(automated(game)))  # noqa: B023 - called within this iteration

            random_play(g, random.Random(seed), check)
            assert g.over and len(g.result["scores"]) == g.state["n"]
            assert json.loads(json.dumps(g.state)) == g.state


def test_automated_decisions_are_not_counted_nor_answers():
    g = new(1, 3)
    random_play(g, random.Random(3))
    decisions = [e for e in g.log if e.get("type") == "decision"]
    assert automated(g), "the rival decided nothing"
    assert g.state["decisions"] == len(decisions) == len(g.answers())
    assert all(e["to"] == [] and e.get("at") for e in automated(g))
    assert all(e["seat"] == 0 for e in decisions)
    # seed + the person's answers alone reproduce the game
    again = new(1, 3)
    for a in g.answers():
        again.answer(a)
    assert again.log == g.log and again.state == g.state


def test_narration_names_the_automated_seat():
    g = new(1)
    random_play(g, random.Random(1))
    text = said(g)
    assert "Rival plays by the rules of the box" in text  # seat_name(s) in a say
    assert "-- Rival plays --" in text and "Rival: Harvest" in text
    assert any(t.startswith("Rival scores ") for t in text)
    assert not any("P2" in t for t in text)
    out = render_result(g.program, g.result, g.seat_names())
    assert re.search(r"^  Rival: ", out, re.M)


def test_saved_and_resumed_mid_game_equals_one_sitting(tmp_path):
    rng = random.Random(4)
    whole = new(1, 4)
    answers = []
    while not whole.over:
        p = whole.pending
        a = (
            sorted(rng.sample(range(len(p["options"])), rng.randint(0, p["subset"])))
            if p["subset"]
            else rng.randrange(len(p["options"]))
        )
        answers.append(a)
        whole.answer(a)
    assert len(answers) >= 4
    part = new(1, 4)
    for a in answers[:3]:
        part.answer(a)
    part.save(tmp_path / "s.json")
    resumed = Game.load(tmp_path / "s.json")
    assert resumed.state == part.state and resumed.seat_names() == ["P1", "Rival"]
    for a in answers[3:]:
        resumed.answer(a)
    assert resumed.state == whole.state and resumed.log == whole.log
    copy = part.copy()
    for a in answers[3:]:
        copy.answer(a)
    assert copy.state == whole.state


def test_a_save_with_wrong_automated_seats_is_refused(tmp_path):
    g = new(1)
    data = g.to_json()
    data["state"]["automata"] = {"1": "helper"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="automated seats"):
        Game.load(path)
    data["state"]["automata"] = {}
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="number of players"):
        Game.load(path)


def test_same_seed_same_log():
    def run():
        g = new(1, 9)
        random_play(g, random.Random(9))
        return json.dumps(g.log, sort_keys=True)

    assert run() == run()


def test_replay_of_a_log(tmp_path):
    g = new(1, 5)
    random_play(g, random.Random(5))
    write_log(g, tmp_path / "game.jsonl")
    entries = read_log(tmp_path / "game.jsonl")
    game, index, reason = verify_log(entries)
    assert index is None and reason is None and game.over and game.log == g.log
    # an automated entry that differs from what the policy does is found
    i = next(i for i, e in enumerate(entries) if e.get("type") == "automated")
    entries[i]["chosen"] = "something else"
    _, index, reason = verify_log(entries)
    assert index == i and "chosen" in reason


# ------------------------------------------------------------------ the command line
def test_cli_play_alone_against_the_automaton():
    result = invoke("play", GAME, "-p", 1, "--seed", 1, input="1\n" * 12)  # more lines than needed
    assert result.exit_code == 0, result.output
    out = result.output
    assert "automated: Rival" in out.splitlines()[0]
    assert "[P1] Choose an action" in out and "Rival (automated)" in out and "Rival: Harvest" in out
    assert "[Rival]" not in out and "P2" not in out
    table = out[out.index("Final scores:") :]
    assert re.search(r"^  P1: ", table, re.M) and re.search(r"^  Rival: ", table, re.M)


def test_cli_refuses_a_bot_on_an_automated_seat():
    result = invoke("play", GAME, "-p", 1, "--bot", "2=random")
    assert result.exit_code == 1
    err = result.stderr.strip().splitlines()
    assert err == [
        "error[cli/usage]: --bot 2=random: seat 2 is Rival, an automated seat: the game's policy takes its decisions"
    ]
    result = invoke("play", GAME, "-p", 1, "--bot", "3=random")
    assert result.exit_code == 1 and "SEAT from 1 to 1" in result.stderr


def test_cli_bots_only_play_the_players_seats():
    result = invoke("play", GAME, "-p", 1, "--bots", "random", "--quiet")
    assert result.exit_code == 0, result.output
    assert "Final scores:" in result.output and "Rival" in result.output


def test_cli_simulate_scores_every_seat():
    result = invoke("simulate", GAME, "-n", 5, "-p", 1, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["completed"] == 5 and report["seat_names"] == ["P1", "Rival"]
    assert all(len(r["scores"]) == 2 for r in report["results"])
    assert any(1 in r["winners"] for r in report["results"])  # the automaton can win
    assert len(report["stats"]["win_rate_by_seat"]) == 2
    assert abs(sum(report["stats"]["win_rate_by_seat"]) - 1) < 1e-3
    # decisions are the bot's only
    assert report["decisions"] == sum(r["decisions"] for r in report["results"])
    text = invoke("simulate", GAME, "-n", 3, "-p", 1)
    assert "win rate by seat: P1 " in text.output and ", Rival " in text.output


def test_cli_rules_and_games_mention_the_automata(monkeypatch):
    out = invoke("rules", GAME).output
    assert "## Automated seats" in out and "### Rival (`rival`) [placeholder]" in out
    assert "Joins at 1 player" in out and "When kind is “action”: prefer an option for which option is “harvest”" in out
    import mason.cli.main as cli

    monkeypatch.setattr(cli, "list_games", lambda: [GAME])
    out = invoke("games").output
    assert "automata: Rival (at 1 player, placeholder), Helper (at 2 players)" in out


# ------------------------------------------------------------------ load-time errors
def copy_fixture(tmp_path) -> Path:
    return copy_game(tmp_path, FIXTURE)


def edit(game: Path, old: str, new: str) -> str:
    path = game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return text


def at(text: str, needle: str, after: str = "") -> tuple[int, int]:
    i = text.index(needle, text.index(after) if after else 0)
    before = text[:i]
    return before.count("\n") + 1, i - before.rfind("\n")


def errors(game: Path) -> list[dict]:
    prog, errs = validate_game(str(game))
    assert prog is None and errs
    out = []
    for e in errs:
        m = LINE.match(e.line())
        assert m, e.line()
        out.append(m.groupdict())
    return out


@pytest.mark.parametrize(
    "old, new, needle, code, message",
    [
        (
            "prefer: [option.points, -option.rank]",
            "prefer: [option.points, -option.rnk]",
            "option.rnk",
            "definition/unknown-name",
            "unknown card property 'rnk'",
        ),
        ("prefer: [option]", "prefer: [optoin]", "optoin", "definition/unknown-name", "unknown name 'optoin'"),
        (
            'when: kind == "action"\n        prefer: [\'option == "harvest"\'',
            'when: option == "action"\n        prefer: [\'option == "harvest"\'',
            'option == "action"',
            "definition/unknown-name",
            "unknown name 'option'",
        ),  # `when` does not see the option
        ("prefer: [option.points]", "prefer: [option.points +]", "+]", "definition/dsl-syntax", "expected"),
    ],
)
def test_a_bad_policy_expression_is_a_positioned_error(tmp_path, old, new, needle, code, message):
    game = copy_fixture(tmp_path)
    text = edit(game, old, new)
    errs = errors(game)
    e = errs[0]
    assert e["file"].endswith("game.yaml") and e["code"] == code, e
    line, col = at(text, needle)
    if needle == "+]":
        col += 1  # a syntax error is placed where the text stops making sense: its end
    assert (int(e["line"]), int(e["col"])) == (line, col), (e, line, col)
    assert message in e["msg"]


@pytest.mark.parametrize(
    "old, new, needle, message",
    [
        ("  rival:\n", "  Rival:\n", "Rival:", "key 'Rival' is not a snake_case name"),
        ("    players: [1]\n    status", "    players: [0]\n    status", "0]", "must be at least 1"),
        (
            "    players: [1]\n    status",
            "    players: [3]\n    status",
            "3]",
            "joins at 3 players, but the game takes 1 to 2",
        ),
        ("    players: [1]\n    status", "    players: [1, 1]\n    status", "1]", "lists 1 players twice"),
        ("    name: Helper\n", "    name: Helper\n    colour: red\n", "colour", "unknown key 'colour'"),
        ("      - prefer: [0]", "      - prefr: [0]", "prefr", "unknown key 'prefr'"),
        ("    name: Rival\n", "", "players: [1]", "missing key 'name'"),  # at the mapping's first key
    ],
)
def test_a_bad_automata_block_is_a_positioned_error(tmp_path, old, new, needle, message):
    game = copy_fixture(tmp_path)
    text = edit(game, old, new)
    errs = errors(game)
    assert any(message in e["msg"] for e in errs), errs
    e = next(e for e in errs if message in e["msg"])
    assert (int(e["line"]), int(e["col"])) == at(text, needle, after="automata:"), e


def test_rounds_where_only_the_automaton_decides_are_progress(tmp_path):
    """The flow's loop guard (3 rounds in a row without a decision) counts the automaton's decisions."""
    game = copy_fixture(tmp_path)
    path = game / "game.yaml"
    path.write_text(
        path.read_text(encoding="utf-8")
        .replace("for s in seats:", "for s in [1]:")
        .replace("until: round >= 2", "until: round >= 4"),
        encoding="utf-8",
    )
    g = new_game(game, 1, 1)  # nobody but the automaton ever decides
    assert g.over and g.result["rounds"] == 4 and g.state["decisions"] == 0
    assert {e["round"] for e in g.log if e.get("text", "").startswith("Rival chooses")} == {1, 2, 3, 4}


def test_a_solitaire_without_automaton(tmp_path):
    game = copy_fixture(tmp_path)
    edit(game, "    players: [1]\n    status", "    players: [2]\n    status")  # nobody joins at 1
    g = new_game(game, 1, 2)
    assert g.state["n"] == 1 and g.state["automata"] == {} and g.seat_names() == ["P1"]
    random_play(g, random.Random(2))
    assert g.result["winners"] == [0] and len(g.result["scores"]) == 1


def test_player_counts_outside_the_game_are_refused():
    with pytest.raises(MasonError, match="takes 1 to 2 players, not 3"):
        new(3)
    assert load_program(GAME).automata_at(1) == ["rival"] and load_program(GAME).automata_at(2) == ["helper"]


def test_an_automated_decision_names_the_policy_rule_by_its_place():
    """Issue 28: an ``automated`` entry names the policy rule that decided (``rule``, its index) and
    its place in the rule files (``policy_at``); when no rule matched (Helper has no fallback), the
    automaton's own place, with ``rule`` null."""
    lines = (FIXTURE / "game.yaml").read_text(encoding="utf-8").splitlines()

    def place(text):  # the line (from 1) and column of the first line holding text
        i = next(i for i, line in enumerate(lines) if text in line)
        return f"game.yaml:{i + 1}:{lines[i].index(text) + 1}"

    g = new(1)
    random_play(g, random.Random(3))
    picks = [e for e in automated(g) if e["prompt"] == "Pick a crop"]
    assert picks and all(e["rule"] == 0 for e in picks)
    assert all(e["policy_at"].endswith(place('when: prompt == "Pick a crop"')) for e in picks)
    g2 = new(2, seed=1)
    random_play(g2, random.Random(1))
    unmatched = [e for e in automated(g2) if e["rule"] is None]
    assert unmatched and all(e["policy_at"].endswith(place("name: Helper")) for e in unmatched)  # its mapping
