"""Issue 11, items 1-3: the log as typed events with causes (docs/log-format.md, schemas/log.schema.json),
narration that says why with the real amounts, ``mason explain`` and ``why`` at the prompt."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import paths
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from log_board_check import check as check_boards
from log_digest_check import check as check_digests
from log_schema import SCHEMA, schema_errors
from scenario import run, set_counter
from support import new_game

from mason.agents.human import HumanAgent
from mason.cli.main import main
from mason.play.session import make_bot, play_game, verify_log
from mason.session.game import Game, load_program
from mason.session.saves import rules_hash

ROOT = paths.ROOT
GAMES = ["citadels", "island-fortress", "pillars", "golden-temple", "prague"]


def bot_game(game="citadels", players=4, seed=3, expansions=()) -> Game:
    g = new_game(game, players, seed, expansions=expansions)
    play_game(g, {s: make_bot("random", seed, s) for s in range(players)})
    return g


def as_written(g: Game) -> list[dict]:
    return [json.loads(json.dumps(e, sort_keys=True)) for e in g.log]


# ------------------------------------------------------------------ 1. structured events
def test_the_log_schema_is_a_schema():
    Draft202012Validator.check_schema(SCHEMA)


def test_every_entry_is_typed_and_places_and_causes_are_there():
    entries = as_written(bot_game())
    assert schema_errors(entries) == []
    assert all(e.get("type") for e in entries)
    gains = [e for e in entries if e["type"] == "gain"]
    assert gains and all({"seat", "counter", "amount", "because"} <= set(e) for e in gains)
    assert {"round", "phase", "turn", "digest", "decision", "move"} <= {e["type"] for e in entries}


def test_the_start_entry_carries_the_rules_hash_and_replay_checks_it():
    g = bot_game(seed=4)
    entries = as_written(g)
    assert entries[0]["rules"] == rules_hash(g.program) and entries[0]["rules"].startswith("sha256:")
    _, index, reason = verify_log(entries)
    assert index is None, reason
    entries[0]["rules"] = "sha256:" + "0" * 64
    _, index, reason = verify_log(entries)
    assert index == 0 and "rules differ" in reason


def test_decisions_carry_prompt_options_and_answer_and_self_resolved_ones_are_logged():
    g = bot_game()
    entries = as_written(g)
    decisions = [e for e in entries if e["type"] == "decision"]
    assert decisions
    for d in decisions:
        assert d["prompt"] and d["options"] and all({"id", "label"} <= set(o) for o in d["options"])
        chosen = d["answer"] if isinstance(d["answer"], list) else [d["answer"]]
        assert all(0 <= i < len(d["options"]) for i in chosen)
        assert d["to"] == [d["seat"]]
    resolved = [e for e in entries if e["type"] == "resolved"]
    assert resolved and all(len(e["options"]) == 1 and e["to"] == [e["seat"]] for e in resolved)
    # a self-resolved decision is no decision: it is not counted, and replay needs only the answered ones
    assert len(decisions) == g.state["decisions"]


def test_card_instances_have_stable_ids_two_copies_are_distinguishable():
    g = bot_game()
    moves = [e for e in g.log if e.get("type") == "move" and "cards" in e]
    dup = next(e for e in moves if len({g.state["cards"][c]["t"] for c in e["cards"]}) < len(e["cards"]))
    assert len(set(dup["cards"])) == len(dup["cards"])  # e.g. "Tavern, Tavern": two ids
    hidden = [e for e in g.log if e.get("type") == "move" and "count" in e]
    assert hidden and not any("cards" in e for e in hidden)  # a hidden move names no card, not even by id


def test_a_digest_at_every_round_end_adds_up_from_the_changes():
    for game in GAMES:
        g = bot_game(game, seed=5)
        entries = as_written(g)
        ends = [e for e in entries if e["type"] == "digest" and e["when"] == "round_end"]
        assert len(ends) >= g.state["round"] - 1, game
        checked, problems = check_digests(entries)
        assert problems == [] and checked >= len(ends), (game, problems[:2])


def test_the_golden_logs_meet_the_schema_and_their_digests_add_up():
    for path in sorted((ROOT / "tests" / "golden").glob("*.jsonl")):
        entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert schema_errors(entries)[:3] == [], path.name
        checked, problems = check_digests(entries)
        assert problems == [] and checked, path.name


def test_the_digest_check_is_mason_free(tmp_path):
    source = (ROOT / "tests" / "log_digest_check.py").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(from|import)\s+(interpreter|cli|mason)\b", source, re.M)
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in as_written(bot_game(seed=6))), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", str(ROOT / "tests" / "log_digest_check.py"), str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and "digests match" in done.stdout, done.stdout + done.stderr


def test_public_causes_name_no_hidden_card():
    g = new_game("citadels", 4, 8)
    append, named = g.rt.log, []

    def record(entry):  # checked as the entry is written: where each named card lies then
        append(entry)
        if entry.get("to") is None:
            for item in entry.get("because") or ():
                if "card" in item:
                    c = g.state["cards"][item["card"]]
                    named.append(item["card"])
                    assert c["up"] or g.program.zones[c["z"]]["visibility"] == "all", entry

    g.rt.log = record
    play_game(g, {s: make_bot("random", 8, s) for s in range(4)})
    assert named


# ------------------------------------------------------------------ 2. narration says why, real amounts
def test_narration_says_why_a_merchant_gains():
    g = bot_game()
    texts = [e["text"] for e in g.log if e.get("type") == "gain"]
    assert any(t.endswith("(Merchant: Take 1 extra gold)") for t in texts)
    assert any(t.endswith("(Take income)") for t in texts)


def test_pillars_1017_every_narrated_gain_equals_the_change_in_the_state():
    g = new_game("pillars", 4, 1017)
    snaps = []
    append = g.rt.log

    def record(entry):  # the counters as they stand when each entry is written
        append(entry)
        snaps.append(json.loads(json.dumps(g.state["counters"])))

    g.rt.log = record
    start = len(g.log)
    play_game(g, {s: make_bot("random", 1017, s) for s in range(4)})
    entries = g.log[start:]
    assert len(entries) >= len(snaps)
    said = 0
    prev = None
    written = [e for e in entries if e.get("type") not in ("decision", "automated", "end")]
    for e, now in zip(written, snaps):
        for m in re.finditer(r"(P\d) gains ((?:\d+ [a-z ]+?)(?:, \d+ [a-z ]+?)*)(?= \(|$)", e.get("text", "")):
            s = int(m.group(1)[1:]) - 1
            for part in m.group(2).split(", "):
                n, _, name = part.partition(" ")
                counter = name.replace(" ", "_")
                before = prev[counter][s] if prev else now[counter][s]
                assert now[counter][s] - before == int(n), e
                said += 1
        prev = now
    assert said > 50


def test_a_bundle_gain_at_the_ceiling_narrates_what_really_came_in():
    g = new_game("pillars", 4, seed=2)
    set_counter(g, "gold", 3, 30)
    start = len(g.log)
    run(g, 'do gain_bundle(3, first([c for c in cards("craftsman") if c.name == "Tool maker"]).output)')
    assert g.state["counters"]["gold"][3] == 30
    said = [e for e in g.log[start:] if e.get("text")]
    assert said[-1]["text"] == "P4 gains nothing (2 lost at the limit)" and "changes" not in said[-1]


# ------------------------------------------------------------------ 3. explain and why
def _citadels_log(tmp_path) -> tuple[Path, list[dict]]:
    entries = as_written(bot_game())
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    return path, entries


def test_explain_names_the_merchants_rule_for_the_extra_gold(tmp_path):
    path, entries = _citadels_log(tmp_path)
    k = next(i for i, e in enumerate(entries) if e.get("text", "").endswith("(Merchant: Take 1 extra gold)"))
    seat = entries[k]["seat"]
    out = CliRunner().invoke(main, ["explain", str(path), "--seat", str(seat + 1), "--entry", str(k)])
    assert out.exit_code == 0, out.output
    assert "Merchant" in out.output and "CIT-R54" in out.output and "characters.yaml:" in out.output
    assert "turn as Merchant" in out.output and "decision" not in out.output.split("from entry")[0]
    listing = CliRunner().invoke(main, ["explain", str(path), "--seat", str(seat + 1)])
    assert listing.exit_code == 0 and f"[{k}] " in listing.output and "CIT-R54" in listing.output


def test_explain_keeps_to_what_the_seat_may_know(tmp_path):
    path, entries = _citadels_log(tmp_path)
    k = next(i for i, e in enumerate(entries) if e["type"] == "decision" and e["seat"] == 0)
    out = CliRunner().invoke(main, ["explain", str(path), "--seat", "2", "--entry", str(k)])
    assert out.exit_code != 0 and "not visible to P2" in out.output
    public = CliRunner().invoke(main, ["explain", str(path), "--entry", str(k)])  # no seat: the public view
    assert public.exit_code != 0 and "is not public (--seat N" in public.output and "nobody" not in public.output
    gain = next(
        i
        for i, e in enumerate(entries)
        if e["type"] == "gain"
        and e["seat"] == 1
        and e["round"] >= 1
        and any(c["kind"] == "decision" for c in e["because"])
    )
    dec = next(c["entry"] for c in entries[gain]["because"] if c["kind"] == "decision")
    if entries[dec]["seat"] != 0:
        out = CliRunner().invoke(main, ["explain", str(path), "--seat", "1", "--entry", str(gain)])
        assert out.exit_code == 0 and f"entry {dec}: a decision of P{entries[dec]['seat'] + 1}" in out.output
    bad = CliRunner().invoke(main, ["explain", str(path), "--entry", "999999"])
    assert bad.exit_code != 0 and "no entry 999999" in bad.output
    bad = CliRunner().invoke(main, ["explain", str(path), "--seat", "9"])
    assert bad.exit_code != 0 and "no seat 9: the game has seats 1 to 4" in bad.output


def test_explain_a_decision_names_the_condition_that_kept_an_action_out(tmp_path):
    path, entries = _citadels_log(tmp_path)
    for k, e in enumerate(entries):
        offered = {o["label"] for o in e.get("options") or ()}
        if e["type"] == "decision" and e["kind"] == "action" and "Take income" not in offered:
            break
    out = CliRunner().invoke(main, ["explain", str(path), "--seat", str(entries[k]["seat"] + 1), "--entry", str(k)])
    assert out.exit_code == 0, out.output
    words = "only a character with a district colour takes income"  # its if_text, then the rule itself
    assert re.search(rf"'Take income' was not offered: {words}: needs .*game\.yaml:\d+:\d+", out.output), out.output


def test_why_at_the_prompt_gives_the_causes_of_what_changed(capsys):
    g = new_game("citadels", 4, 3)
    bots = {s: make_bot("random", 3, s) for s in range(1, 4)}
    while g.pending["seat"] != 0 or g.pending["kind"] != "action":
        g.answer(bots[g.pending["seat"]].decide(g, g.pending["seat"]) if g.pending["seat"] else 0)
    lines = iter(["why", "1"])
    said = []
    human = HumanAgent(lambda: next(lines), said.append)
    human.decide(g, 0)
    out = "\n".join(said)
    assert re.search(
        r"gains \d+ gold.*\n    because the action '[^']+' \[rule CIT-R\d+, games/citadels/game\.yaml:", out
    ), out


def test_narration_names_a_counter_by_its_label_and_one_unit_by_its_one():
    from mason.runtime.values import counter_amount

    prague, isf = load_program("prague"), load_program("island-fortress")
    assert counter_amount(prague, "goldwin", 1) == "1 gold window"  # `one`
    assert counter_amount(prague, "goldwin", 2) == "2 gold windows"  # `label`
    assert counter_amount(prague, "vp", 1) == "1 VP"  # a label without `one`: the label
    assert counter_amount(isf, "end_rows", 3) == "3 end rows"  # neither: the name in words
    g = new_game("golden-temple", 3, 3)
    said = [e["text"] for e in g.log if e.get("type") == "gain"]
    assert "P1 gains 1 coin" in said and "P1 gains 5 PP" in said  # as views name them, one unit singular


def test_a_move_names_cards_to_whoever_saw_them_before_they_moved():
    """A card revealed face up is named to everyone when it goes back face down (it was public where it
    lay); a card set aside seen by one seat is named to that seat only; the others read a count."""
    g = new_game("citadels", 4, 17)
    bots = {s: make_bot("random", 17, s) for s in range(4)}
    while g.state["round"] < 2:
        g.answer(bots[g.pending["seat"]].decide(g, g.pending["seat"]))
    back = [e for e in g.log if e.get("type") == "move" and e.get("dest") == "characters" and e["round"] == 1]
    revealed = [e for e in back if e["source"].startswith("chosen/") and "cards" in e]
    assert revealed and all("to" not in e and "hide_from" not in e for e in revealed)  # public: one entry each
    aside = [e for e in back if e["source"] == "aside"]
    named = [e for e in aside if "cards" in e]
    counted = [e for e in aside if "count" in e]
    assert len(named) == 1 and len(named[0]["to"]) == 1  # the last picker saw them
    assert counted and counted[0]["hide_from"] == named[0]["to"]


def test_a_move_to_the_bottom_of_a_zone_says_so():
    """``move ... bottom`` puts cards under a pile: the narration says where, to those who see the card
    and to the others (a card moved within its own pile read "the deck -> the deck" before)."""
    g = new_game("citadels", 4, 2)
    g.log.clear()
    run(g, "move last(deck) to deck bottom\nmove last(deck) to deck")
    said = [e["text"] for e in g.log if e.get("type") == "move"]
    assert said == [
        "1 card: the district deck -> the bottom of the district deck",
        "1 card: the district deck -> the district deck",
    ]
    hand = g.state["zones"]["hand/0"]
    run(g, f"move {hand[0]} to deck bottom")
    moved = [e for e in g.log if e.get("type") == "move"][-2:]
    assert moved[0]["text"].endswith(": P1's hand -> the bottom of the district deck") and moved[0]["to"] == [0]
    assert moved[1]["text"] == "1 card: P1's hand -> the bottom of the district deck" and moved[1]["hide_from"] == [0]


def test_a_random_choice_is_told_with_its_question_when_it_has_one():
    """``choose random ... saying "..."``: the narration says what was drawn for ("Start player, at
    random: P2"), its ``{...}`` parts filled in; without a question, only what was drawn."""
    g = new_game("citadels", 4, 2)
    g.log.clear()
    run(
        g,
        'choose random seat s from seats saying "Start player"\nchoose random value v from [7] saying "After {seat_name(s)}"\nchoose random value w from [4]',
    )
    said = [e["text"] for e in g.log if "at random" in e.get("text", "")]
    seat = said[0].removeprefix("Start player, at random: ")
    assert seat in ("P1", "P2", "P3", "P4")
    assert said[1:] == [f"After {seat}, at random: 7", "at random: 4"]


def test_a_zone_whose_label_has_its_article_is_not_named_with_two():
    from mason.runtime.values import _zone_label

    g = new_game("prague", 2, 1)
    assert g.program.zones["in_hand"]["label"] == "the action tile taken this turn"
    assert _zone_label(g.rt, "in_hand") == "the action tile taken this turn"  # not "the the ..."
    assert _zone_label(g.rt, "tile_box") == "the action tiles out of play"  # a label without one gets it


# ------------------------------------------------------------------ 4. the board as typed events (issue 28)
def _cli_log(tmp_path, *args) -> list[dict]:
    path = tmp_path / "g.jsonl"
    out = CliRunner().invoke(main, ["play", *args, "--log", str(path), "--quiet"])
    assert out.exit_code == 0, out.output
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_prague_every_hex_placement_track_move_and_crane_turn_is_a_typed_event(tmp_path):
    """Issue 28's check: ``mason play prague -p 4 --bots random --seed 1 --log p.jsonl --quiet``. Every
    hex placement (cell, rotation, icons as they lie), track move and crane turn is a ``board`` event
    with its fields; no such change is told by narration alone; the log meets the schema; and the
    boards recomputed from the events alone match every digest."""
    entries = _cli_log(tmp_path, "prague", "-p", "4", "--bots", "random", "--seed", "1")
    assert schema_errors(entries) == []
    board = [e for e in entries if e["type"] == "board"]
    hexes = [e for e in board if e["primitive"] == "hexgrid" and e["op"] == "place"]
    tracks = [e for e in board if e["primitive"] == "track"]
    turns = [e for e in board if e["primitive"] == "wheel" and e["op"] == "turn"]
    assert hexes and tracks and turns
    assert all({"cell", "piece", "rotation", "edges", "corners"} <= set(e) for e in hexes)
    assert all(0 <= e["rotation"] <= 5 and len(e["edges"]) == len(e["corners"]) == 6 for e in hexes)
    assert all({"track", "seat", "source", "dest"} <= set(e) and e["source"] != e["dest"] for e in tracks)
    assert all({"steps", "rotation", "passed"} <= set(e) and e["board"] == "crane" for e in turns)
    told = [e["text"] for e in entries if e["type"] in ("note", "say") and "text" in e]
    placement = re.compile(r"\(rotation \d\)|marker \d+ -> \d+|turns \d+ steps?:")
    assert not [t for t in told if placement.search(t)]  # each of them is a board event instead
    checked, problems, applied = check_boards(entries)
    assert problems == [] and checked >= 16 and applied["hexgrid"] >= len(hexes)


def test_every_games_log_meets_the_schema_and_its_boards_follow_from_the_events():
    """All five games and Citadels with Dark City: the log meets the schema, and the digests' boards are
    what the board events alone make of the start digest's (a checker needs no narration)."""
    for game, players, expansions in [(g, 4, ()) for g in GAMES] + [("citadels", 5, ("dark-city",)), ("prague", 1, ())]:
        entries = as_written(bot_game(game, players, seed=11, expansions=expansions))
        assert schema_errors(entries)[:3] == [], game
        checked, problems, applied = check_boards(entries)
        assert problems == [] and checked >= 2, (game, problems[:2])
        digest = next(e for e in entries if e["type"] == "digest")
        assert set(digest["boards"]) == set(load_program(game).boards), game
        assert (game == "citadels") == (not applied), (game, applied)  # Citadels has no board


def test_the_board_check_finds_a_change_no_event_told():
    entries = as_written(bot_game("prague", 2, seed=3))
    k = next(i for i, e in enumerate(entries) if e["type"] == "board" and e["primitive"] == "hexgrid")
    checked, problems, _ = check_boards(entries[:k] + entries[k + 1 :])
    assert problems and f": board {entries[k]['board']} is " in problems[0], problems[:1]


def test_the_digest_holds_the_bank_and_every_board():
    entries = as_written(bot_game("citadels", 4, seed=2))
    digests = [e for e in entries if e["type"] == "digest"]
    assert digests[0]["supplies"] == {"bank": 30} and digests[0]["boards"] == {}
    g = bot_game("golden-temple", 3, seed=2)
    last = [e for e in g.log if e.get("type") == "digest"][-1]
    assert last["boards"] == g.state["boards"]
    shared = {k for k, c in g.program.counters.items() if c["scope"] != "seat"}
    assert set(last["supplies"]) == shared and all(last["supplies"][k] == g.state["counters"][k] for k in shared)


def test_board_events_replay_byte_for_byte(tmp_path):
    entries = _cli_log(tmp_path, "prague", "-p", "2", "--bots", "random", "--seed", "4")
    assert any(e["type"] == "board" for e in entries)
    _, index, reason = verify_log(entries)
    assert index is None, reason
    again = _cli_log(tmp_path, "prague", "-p", "2", "--bots", "random", "--seed", "4")
    assert json.dumps(again) == json.dumps(entries)


def _sees(g, seat, c) -> bool:
    """Whether ``seat`` sees card ``c`` where it lies now (the rule of state.view)."""
    card = g.state["cards"][c]
    if card["z"] is None:
        return False
    vis = g.program.zones[card["z"]]["visibility"]
    return vis == "all" or card["up"] or (vis == "owner" and card["o"] == seat) or seat in card["seen"]


def test_no_typed_event_names_a_hidden_card_to_a_seat_that_does_not_see_it():
    """Every card a typed event names (a move's ``cards``, a trade's or reveal's ``card``, a board
    event's piece with its ``piece_type``, a turn's card, a card chosen) is one every seat reading the event sees now
    or has seen before (a seat that saw a card knows which it is). Checked as each entry is written,
    over games with hidden hands, decks and tile stacks."""
    named = 0
    for game, players, expansions in [("citadels", 4, ()), ("citadels", 5, ("dark-city",)), ("prague", 4, ())]:
        g = new_game(game, players, 8, expansions=expansions)
        n, count = g.state["n"], len(g.state["cards"])
        known = [{c for c in range(count) if _sees(g, s, c)} for s in range(n)]
        append = g.rt.log

        def record(entry, g=g, append=append, n=n, count=count, known=known):
            nonlocal named
            append(entry)
            if entry.get("type") not in ("decision", "resolved", "automated"):  # those: the decider's own view
                readers = set(entry["to"]) if entry.get("to") is not None else set(range(n))
                readers -= set(entry.get("hide_from") or ())
                cards = list(entry.get("cards") or ())
                if isinstance(entry.get("card"), int):
                    cards.append(entry["card"])
                if "piece_type" in entry:
                    cards.append(entry["piece"])
                if entry.get("type") == "choice" and entry["kind"] not in ("value", "seat", "option"):
                    chosen = entry.get("value")  # a card chosen (or a family's: a character named by rank)
                    cards += [c for c in (chosen if isinstance(chosen, list) else [chosen]) if isinstance(c, int)]
                    readers.discard(entry["seat"])  # the chooser knows: the options were shown to it
                for c in cards:
                    assert all(c in known[s] or _sees(g, s, c) for s in readers), (c, entry)
                    named += 1
            for s in range(n):
                known[s].update(c for c in range(count) if _sees(g, s, c))

        g.rt.log = record
        play_game(g, {s: make_bot("random", 8, s) for s in range(players)})
    assert named > 100


def test_an_automated_seats_turn_has_its_own_turn_entry_and_its_decisions_name_the_policy_rule():
    """Solo Prague's dummy and Golden Temple's Maharaja: each round, the automated seat's turn begins
    with a ``turn`` entry (``automated: true``), as a player's does (``do announce_turn``); its
    decisions within that turn come after it and name the policy rule that took them (``policy_at``)."""
    for game in ("prague", "golden-temple"):
        g = bot_game(game, 1, seed=2)
        auto = 1
        turns = [e for e in g.log if e.get("type") == "turn"]
        mine = [e for e in turns if e["seat"] == auto]
        assert (
            mine
            and all(e.get("automated") is True for e in mine)
            and all("automated" not in e for e in turns if e["seat"] != auto)
        )
        assert len(mine) >= g.state["round"] - 1, game
        last_turn = None
        policy = re.compile(r"^games/" + game + r"/game\.yaml:\d+:\d+$")
        for e in g.log:
            if e.get("type") == "turn":
                last_turn = e["seat"]
            elif e.get("type") == "automated":
                assert policy.match(e["policy_at"]), e["policy_at"]
                assert last_turn == auto, (game, e["prompt"])


def test_options_carry_structured_fields_and_a_card_the_decider_cannot_see_tells_nothing_more():
    """Beside its label, an action option names its ``action``, ``group`` and ``rule`` (and the card of
    an ability); a seat option its ``seat``; a card option its ``card``, with the ``zone`` it lies in
    and its ``type`` only when the deciding seat sees it there (Dark City's characters chosen by rank
    lie hidden in other seats' hands: their holder is not told)."""
    g = new_game("citadels", 5, 12, expansions=("dark-city",))
    bots = {s: make_bot("random", 12, s) for s in range(5)}
    kinds, hidden = set(), 0
    while not g.over:
        p = g.pending
        seat = p["seat"]
        cards = p["kind"] not in ("action", "seat", "option", "value")
        sees = {o: _sees(g, seat, o) for o in p["options"] if cards and o is not None}  # (none: "no card")
        start = len(g.log)
        g.answer(bots[seat].decide(g, seat))
        entry = next(e for e in g.log[start:] if e.get("type") == "decision")
        kinds.add(entry["kind"])
        for o in entry["options"]:
            if entry["kind"] == "action":
                assert o["action"] == o["id"].partition("@")[0] and ("group" in o or o["action"] == "end")
                assert ("card" in o) == ("@" in o["id"])
            elif entry["kind"] == "seat":
                assert o["seat"] == o["id"]
            elif entry["kind"] not in ("option", "value") and o["id"] is not None:
                assert o["card"] == o["id"]
                assert ("zone" in o) == ("type" in o) == sees[o["id"]], (entry["prompt"], o)
                hidden += not sees[o["id"]]
                if "type" in o:
                    assert o["type"] == g.state["cards"][o["card"]]["t"]
    assert {"action", "seat", "card"} <= kinds and hidden > 0
    assert schema_errors(as_written(g)) == []


def test_golden_temple_market_trades_are_trade_events():
    """Golden Temple trades at its market with its own payments around a column market: each buy or
    sell chosen is one ``trade`` event (``do trade_made``) naming the seat, side and good, whose
    ``paid`` and ``got`` are the counter changes the trade made (PP of a selling space included)."""
    trades = 0
    for seed in (1, 2, 3):
        entries = as_written(bot_game("golden-temple", 3, seed=seed))
        market = [i for i, e in enumerate(entries) if e["type"] == "decision" and e["prompt"].startswith("Market: buy")]
        for i in market:
            chosen = entries[i]["chosen"]
            if chosen == "stop trading":
                continue
            side, good = chosen.split()[:2]
            j = next(k for k in range(i + 1, len(entries)) if entries[k]["type"] in ("trade", "decision"))
            trade = entries[j]
            assert trade["type"] == "trade", (chosen, trade)
            assert (trade["seat"], trade["side"], trade["good"], trade["count"]) == (entries[i]["seat"], side, good, 1)
            moved: dict = {}
            for e in entries[i + 1 : j + 1]:
                for c in e.get("changes") or ():
                    if c["seat"] == trade["seat"]:
                        moved[c["counter"]] = moved.get(c["counter"], 0) + c["delta"]
            expected = {k: -v for k, v in trade["paid"].items()}
            for k, v in trade["got"].items():
                expected[k] = expected.get(k, 0) + v
            assert {k: v for k, v in moved.items() if v} == expected, (chosen, moved, trade)
            trades += 1
    assert trades >= 5


def test_explain_describes_a_board_event_and_a_trade_without_narration(tmp_path):
    from mason.presentation.explain import describe

    assert (
        describe({"type": "board", "board": "city", "primitive": "hexgrid", "op": "mark_paid"})
        == "hexgrid city: mark paid"
    )
    assert describe({"type": "trade", "seat": 1, "side": "sell", "good": "marble", "count": 1}) == "P2 sells 1 marble"
    entries = _cli_log(tmp_path, "pillars", "-p", "2", "--bots", "random", "--seed", "5")  # a bag's kept piece
    k = next(i for i, e in enumerate(entries) if e["type"] == "board" and "text" not in e)
    out = CliRunner().invoke(main, ["explain", str(tmp_path / "g.jsonl"), "--seat", "1", "--entry", str(k)])
    assert out.exit_code == 0 and f"{entries[k]['primitive']} {entries[k]['board']}: " in out.output, out.output


def test_a_choice_told_to_the_table_is_a_typed_choice_event():
    """ "P2 chooses ..." is a ``choice`` event: the seat, the kind of choice and the ``value`` chosen (an
    option's index for ``choose one``); a secret choice's twin for the others ("P2 has chosen") has no
    value; a character named by rank while it lies hidden gives its ``card_type``, not which copy."""
    seen = set()
    for game, players, expansions in [("citadels", 5, ("dark-city",)), ("island-fortress", 4, ())]:
        entries = as_written(bot_game(game, players, seed=2, expansions=expansions))
        assert not [e for e in entries if e["type"] == "note" and " chooses" in e.get("text", "")]
        for e in (e for e in entries if e["type"] == "choice"):
            assert e["text"].startswith(f"P{e['seat'] + 1} ") and e["kind"]
            if "hide_from" in e:
                assert e["hide_from"] == [e["seat"]] and "value" not in e and e["text"].endswith("has chosen")
                seen.add("secret")
            elif "card_type" in e:
                assert (
                    "value" not in e
                    and isinstance(e["card_type"], str)
                    and e["card_type"].replace("_", " ") in e["text"].lower()
                )
                seen.add("named hidden")
            else:
                assert "value" in e
                if e["kind"] in ("seat", "option"):
                    assert isinstance(e["value"], int)
                seen.add(e["kind"])
    assert {"secret", "named hidden", "card", "seat", "option", "value"} <= seen, seen
