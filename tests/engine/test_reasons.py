"""Issue 30 item 4: reasons in words for the decisions no person takes (runtime/reasons.py).

An automated seat's decision is followed by a public ``reason`` entry naming what its policy compared;
a greedy or mcts bot's answer is preceded by one with its figures (the bot's own seat reads the full
one, the other seats a twin naming no option they cannot see). ``why`` and ``mason explain`` show them.
"""

from __future__ import annotations

import json
import random
import re

import paths
from log_schema import schema_errors
from support import invoke, new_game, random_answer

from mason.play.session import make_bot, play_game, verify_log
from mason.presentation.explain import explain, explain_entry
from mason.presentation.render import narration
from mason.runtime.reasons import key_words, policy_reason
from mason.session.game import Game, Settings

AUTOMATON = str(paths.FIXTURES / "automaton")


def test_key_words_name_a_key_from_its_expression():
    assert key_words("temple_value(option)") == ("temple value", False)
    assert key_words("-ring_distance('paths', pawn_at('paths', me), option)") == ("ring distance", True)
    assert key_words("pyramid_info(maha_board, option)['points']") == ("points", False)
    assert key_words("-pyramid_rank(maha_board, option)") == ("pyramid rank", True)
    assert key_words("option.points") == ("points", False)
    assert key_words("-option.rank") == ("rank", True)
    assert key_words('option == "harvest"') == ("'option == \"harvest\"'", False)


def test_policy_reason_follows_the_ranking_through_ties():
    labels = ["north", "east", "south", "west"]
    sources = ("temple_value(option)", "-ring_distance('paths', pawn_at('paths', me), option)")
    values = [(1, -3), (4, 0), (3, -1), (2, -2)]
    assert policy_reason("Maharaja", labels, sources, values, 1) == (
        "Maharaja chose east: east had the highest temple value (4, against south 3, west 2, north 1)"
    )
    tied = [(3, -3), (4, -2), (4, -1), (2, 0)]
    assert policy_reason("Maharaja", labels, sources, tied, 2) == (
        "Maharaja chose south: east and south shared the highest temple value (4, against north 3, west 2); "
        "of those, south had the lowest ring distance (1, against east 2)"
    )
    same = [(4, -1), (4, -1), (2, 0), (1, 0)]
    assert policy_reason("Maharaja", labels, sources, same, 0).endswith(
        "north and east shared the highest temple value (4, against south 2, west 1); offered first"
    )
    assert policy_reason("Rival", labels, ("0",), [(0,)] * 4, 0) == (
        "Rival chose north: the first option offered (its policy ranks these options alike)"
    )
    assert policy_reason("Rival", labels, (), None, 0) == (
        "Rival chose north: the first option offered (no policy rule ranks these options)"
    )


def test_an_automated_decision_is_followed_by_its_reason_for_the_table():
    g = new_game(AUTOMATON, 1, 1)
    rnd = random.Random(3)
    while not g.over:
        g.answer(random_answer(rnd, g.pending))
    log = g.log
    autos = [i for i, e in enumerate(log) if e.get("type") == "automated"]
    assert autos
    for k in autos:
        reasons = [e for e in log[k + 1 :] if e.get("type") == "reason" and e.get("decision") == k]
        assert len(reasons) == 1, log[k]
        r = reasons[0]
        assert r["by"] == "policy" and r["seat"] == log[k]["seat"] and r["text"].startswith("Rival chose ")
        assert r["text"] in narration(log, 0)  # the person reads it, one line
    picks = [e for e in log if e.get("type") == "reason" and e["prompt"] == "Pick a crop"]
    assert picks and all(" rank (" in e["text"] or "tie on points and rank" in e["text"] for e in picks)
    bids = [e["text"] for e in log if e.get("type") == "reason" and e["prompt"] == "Bid how much?"]
    assert "Rival chose 2: 2 had the highest value (2, against 1, 0)" in bids
    # explain on a change the automaton's pick caused ends its cause chain with the reason in words
    k = autos[0]
    caused = next(i for i in range(k + 1, len(log)) if any(c.get("entry") == k for c in log[i].get("because") or ()))
    lines = explain_entry(log, caused, 0)
    assert any(
        line.strip().startswith(f"from entry {k}: Rival chose") or f"entry {k}: Rival chose" in line for line in lines
    )
    listed = explain(log, 0)
    assert any("Rival chose" in line for line in listed)


def test_gta_r202_a_solo_game_played_by_hand_shows_the_reason_at_each_maharaja_choice(tmp_path):
    """The whole solo game at the terminal (P1 answers the first option each time): every decision the
    Maharaja's policy took is narrated with the values it compared, in words (GTA-R202, GTA-R203)."""
    res = invoke(
        "play",
        "golden-temple",
        "-p",
        1,
        "--seed",
        7,
        "--save",
        tmp_path / "s.json",
        "--log",
        tmp_path / "l.jsonl",
        input="1\n" * 400,
        cwd=tmp_path,
    )
    assert res.exit_code == 0, res.output
    assert "Winner" in res.output
    log = [json.loads(line) for line in (tmp_path / "l.jsonl").read_text().splitlines()]
    autos = [e for e in log if e.get("type") == "automated"]
    reasons = [e["text"] for e in log if e.get("type") == "reason"]
    assert len(autos) == len(reasons) >= 10
    assert schema_errors(log) == []
    shown = res.output.splitlines()
    for text in reasons:
        assert text in shown
    boards = [t for t in reasons if " had the highest temple value (" in t or " shared the highest temple value (" in t]
    spaces = [t for t in reasons if " the lowest pyramid rank (" in t or "points (" in t]
    assert boards and spaces and len(boards) + len(spaces) == len(reasons)
    # the board chosen is one of the districts, and the sentence names the others' values
    assert all(t.split(" chose ")[1].split(":")[0] in ("north", "east", "south", "west") for t in boards)
    assert all(", against " in t for t in boards)


# ---------------------------------------------------------------- bots: greedy and mcts
def _bot_game(kinds: dict, seed=5, players=3, game="citadels"):
    settings = Settings(game, players, seed)
    g = Game.new(settings)
    play_game(g, {s: make_bot(kinds.get(s, "random"), seed, s) for s in range(players)})
    return g


def test_a_greedy_answer_is_narrated_with_its_question_and_estimates_and_hides_what_others_cannot_see():
    g = _bot_game({0: "greedy", 1: "greedy", 2: "greedy"})
    log = g.log
    decisions = [i for i, e in enumerate(log) if e.get("type") == "decision"]
    assert decisions
    for k in decisions:
        d = log[k]
        before = []
        for j in range(k - 1, -1, -1):
            if log[j].get("type") in ("decision", "automated"):
                break
            if log[j].get("type") == "reason":
                before.append(log[j])
        full = [e for e in before if e.get("to") == [d["seat"]]]
        twin = [e for e in before if e.get("hide_from") == [d["seat"]]]
        assert len(full) == len(twin) == 1, d
        chosen = d["chosen"] if isinstance(d["chosen"], str) else ", ".join(d["chosen"])
        assert full[0]["text"].startswith(f'P{d["seat"] + 1} (greedy) answered "{d["prompt"]}": {chosen}')
        assert explain_reason(log, k, d["seat"]) == full[0]["text"]
        if d["prompt"] == "Keep a character":  # a hidden pick: the others learn that a pick was made, not which
            assert (
                twin[0]["text"]
                == f'P{d["seat"] + 1} (greedy) answered "Keep a character" with an option you cannot see'
            )
            assert all(o["label"] not in twin[0]["text"] for o in d["options"])
        # the others read the answer and its estimate, and how the best other option fared, unnamed: which
        # options a seat is offered is its own
        others = [o["label"] for o in d["options"] if o["label"] != chosen and o["label"] not in chosen]
        told = twin[0]["text"].split(f'"{d["prompt"]}"', 1)[1]  # after the question
        assert not [o for o in others if f"{o} " in told or f"{o})" in told], twin[0]["text"]
    actions = [e for e in log if e.get("type") == "reason" and e["prompt"] == "Choose an action"]
    assert any("(estimates: " in e["text"] and ", " in e["text"] for e in actions if "to" in e)
    assert any("(estimate " in e["text"] and "other option" in e["text"] for e in actions if "hide_from" in e)
    # the onlooker's narration (no seat) has the twins, one line each, never the full ones
    onlooker = narration(log, None)
    assert all(e["text"] in onlooker for e in log if e.get("type") == "reason" and "hide_from" in e)


def explain_reason(log, k, seat):
    from mason.presentation.explain import reason_for

    found = reason_for(log, k, seat)
    return found and found["text"]


def test_bot_reasons_keep_the_log_reproducible_and_replayable():
    kinds = {0: "greedy", 1: "mcts:12", 2: "random"}
    a, b = _bot_game(kinds), _bot_game(kinds)
    assert json.dumps(a.log, sort_keys=True) == json.dumps(b.log, sort_keys=True)
    mcts = [e["text"] for e in a.log if e.get("type") == "reason" and e["by"] == "mcts" and "to" in e]
    assert mcts and any("(visits/mean score: " in t for t in mcts)
    public = [e["text"] for e in a.log if e.get("type") == "reason" and e["by"] == "mcts" and "hide_from" in e]
    assert any(re.search(r"\(\d+ of \d+ visits, mean [+-]\d", t) for t in public)
    assert not [e for e in a.log if e.get("type") == "reason" and e["seat"] == 2]  # random: no figures
    replayed, index, why = verify_log(json.loads(json.dumps(a.log)))
    assert index is None, why
    assert schema_errors(json.loads(json.dumps(a.log))) == []


def test_why_lists_the_reasons_of_the_bots_since_your_last_decision():
    from mason.agents.human import _why

    class Enough(Exception):
        pass

    def stop(g):
        last = max((i for i, e in enumerate(g.log) if e.get("type") == "decision" and e["seat"] == 0), default=None)
        if last is not None and g.pending["seat"] == 0 and any(e.get("type") == "reason" for e in g.log[last:]):
            raise Enough

    g = Game.new(Settings("citadels", 3, 5))
    try:
        play_game(
            g, {0: make_bot("random", 5, 0), 1: make_bot("greedy", 5, 1), 2: make_bot("mcts:8", 5, 2)}, on_answer=stop
        )
    except Enough:
        pass
    shown = _why(g, 0).splitlines()
    last = max(i for i, e in enumerate(g.log) if e.get("type") == "decision" and e["seat"] == 0)
    twins = [e["text"] for e in g.log[last:] if e.get("type") == "reason" and 0 not in e.get("hide_from", [0])]
    assert twins and all(t in shown for t in twins)
    assert not [e for e in g.log[last:] if e.get("type") == "reason" and e.get("to") and e["text"] in shown]


def test_a_bot_answer_to_choose_one_repeats_its_question():
    """'P2 chooses: No' dropped the question; every answer to a ``choose one`` is narrated with it, a
    random bot's included (which gives no reason line of its own)."""
    g = _bot_game({})
    answered = [e for e in g.log if e.get("type") == "decision" and e["kind"] == "option"]
    assert answered
    texts = [e.get("text") for e in g.log]
    for d in answered:
        assert f'P{d["seat"] + 1} answers "{d["prompt"]}": {d["chosen"]}' in texts
    assert not [t for t in texts if t and " chooses: " in t]


def test_a_game_with_bot_reasons_saves_and_resumes(tmp_path):
    """The save's log holds the bots' reasons; loading it replays the answers and takes those from the log."""
    save = tmp_path / "bots.json"
    res = invoke(
        "play",
        "citadels",
        "-p",
        3,
        "--seed",
        2,
        "--bot",
        "2=greedy",
        "--bot",
        "3=mcts:6",
        "--save",
        save,
        input="1\n" * 12,
        cwd=tmp_path,
    )
    assert res.exit_code == 0, res.output
    assert any(e.get("type") == "reason" for e in json.loads(save.read_text())["log"])
    again = invoke(
        "play", "citadels", "--resume", save, "--log", tmp_path / "g.jsonl", input="1\n" * 3000, cwd=tmp_path
    )
    assert again.exit_code == 0, again.output
    assert "Winner" in again.output
    assert invoke("replay", tmp_path / "g.jsonl").exit_code == 0


def test_why_at_the_prompt_gives_the_automated_seats_reasons_since_your_last_decision():
    from mason.agents.human import _why

    g = new_game(AUTOMATON, 1, 1)
    rnd = random.Random(3)
    while True:
        last = max((i for i, e in enumerate(g.log) if e.get("type") == "decision"), default=-1)
        reasons = [e["text"] for e in g.log[last + 1 :] if e.get("type") == "reason"]
        if reasons and last >= 0:
            break
        g.answer(random_answer(rnd, g.pending))
    shown = _why(g, 0).splitlines()
    assert reasons and all(t in shown for t in reasons)
    assert all(t.startswith("Rival chose ") for t in reasons)
