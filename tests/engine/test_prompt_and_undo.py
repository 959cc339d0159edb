"""Issue 11, item 5 (the rest) and item 6: the designer's rough edges at the prompt, and undo.

- ``scoring.lowest_wins``: the lowest total wins and the tie-breaks follow it;
- variables declared ``type: seat`` are shown as P1..Pn (a seat is 0 inside the rules);
- every prompt shows the public table (compactly within a turn);
- actions that only their ``if`` keeps out are listed as unavailable, with the condition and its
  place, and are never selectable;
- an option typed exactly as displayed is accepted;
- ``undo`` goes back to the seat's previous decision unless another seat decided in between or
  hidden information was revealed (refused with the reason), per seat in hot-seat play.

The fixture ``tests/fixtures/lowball`` (Lowball) is a made-up game: each round every seat takes
1 or 2 penalty points (2 with a chip), or sheds one with a chip; it may also boast or draw a
face-down marker into its hand. The lowest total wins.
"""

from __future__ import annotations

import json

import paths
import pytest
from support import edited_copy, new_game

from mason.agents.human import HumanAgent, _as_displayed
from mason.model.validate import validate_game
from mason.presentation.render import option_texts, render_view
from mason.runtime.turns import unavailable_actions
from mason.session.game import Game, load_program

ROOT = paths.ROOT
FIXTURE = ROOT / "tests" / "fixtures" / "lowball"
SMALL, BIG, SHED, BOAST, PEEK, END = (
    "Take 1 point",
    "Take 2 points and a chip",
    "Shed a point",
    "Boast",
    "Draw a marker",
    "End turn",
)


def lowball(players=2, seed=1, rounds=2) -> Game:
    return new_game(FIXTURE, players, seed, options=(("rounds", rounds),))


def choose(g: Game, label: str) -> None:
    labels = g.pending["labels"]
    assert label in labels, (label, labels)
    g.answer(labels.index(label))


def turns(g: Game, *takes: str) -> Game:
    """Each seat in turn takes ``takes[i]`` and ends its turn."""
    for take in takes:
        choose(g, take)
        choose(g, END)
    return g


def human(lines):
    out: list[str] = []
    feed = iter(lines)
    return HumanAgent(lambda: next(feed, None), out.append), out


# ------------------------------------------------------------------ lowest wins
def test_lowest_total_wins():
    g = turns(lowball(), SMALL, BIG, SMALL, SMALL)
    assert g.over
    assert g.result["scores"] == [2, 3]
    assert g.result["winners"] == [0]


def test_tie_breaks_follow_the_lowest(tmp_path):
    # a copy where P2 also gets a chip with each single point: 3 points each, P1 without chips
    copy = edited_copy(
        tmp_path,
        FIXTURE,
        [
            (
                "        set last_amount = 1\n",
                "        set last_amount = 1\n        if me == 1:\n            gain 1 chips to me\n",
            )
        ],
    )
    g = turns(new_game(copy, 2, 1, options=(("rounds", 3),)), *[SMALL] * 6)
    assert g.result["scores"] == [3, 3]
    assert g.state["counters"]["chips"] == [0, 3]
    assert g.result["winners"] == [0]  # the fewest chips breaks the tie


def test_seats_still_tied_all_win():
    g = turns(lowball(), BIG, SMALL, SMALL, BIG)
    assert g.result["scores"] == [3, 3] and g.state["counters"]["chips"] == [1, 1]
    assert g.result["winners"] == [0, 1]


def test_without_lowest_wins_the_highest_wins(tmp_path):
    copy = edited_copy(tmp_path, FIXTURE, [("  lowest_wins: true\n", "")])
    g = turns(new_game(copy, 2, 1, options=(("rounds", 2),)), SMALL, BIG, SMALL, SMALL)
    assert g.result["winners"] == [1]


def test_lowest_wins_must_be_a_boolean(tmp_path):
    copy = edited_copy(tmp_path, FIXTURE, [("  lowest_wins: true", "  lowest_wins: sometimes")])
    _, errors = validate_game(str(copy))
    assert [e.code for e in errors] == ["definition/schema"]
    assert "lowest_wins" in errors[0].line() and "game.yaml:" in errors[0].line()


# ------------------------------------------------------------------ seats shown as P1..Pn
def test_seat_typed_variables_are_shown_as_seats():
    g = lowball()
    turns(g, SMALL)  # P1 took a point; last_taker is seat 0, last_amount the number 1
    text = render_view(g.program, g.view(1))
    assert "dealer: P1" in text and "last taker: P1" in text
    assert "last amount: 1" in text  # not a seat: the number itself (not "P2")
    assert "dealer: 0" not in text
    assert "P1 (dealer, last taker)" in text


def test_seat_type_is_declared_and_checked(tmp_path):
    prog = load_program(str(FIXTURE))
    assert prog.vars["dealer"]["type"] == "seat" and prog.vars["last_amount"]["type"] is None
    copy = edited_copy(tmp_path, FIXTURE, [("{start: 0, type: seat}", "{start: 0, type: player}")])
    _, errors = validate_game(str(copy))
    assert [e.code for e in errors] == ["definition/schema"]


@pytest.mark.parametrize(
    "game, names",
    [
        ("citadels", ["crown", "first_complete"]),
        ("golden-temple", ["start_player"]),
        ("island-fortress", ["governor", "last_placer"]),
        ("pillars", ["start_player", "next_start"]),
        ("prague", ["start_player"]),
    ],
)
def test_games_declare_their_seat_variables(game, names):
    prog = load_program(game)
    for name in names:
        assert prog.vars[name]["type"] == "seat", name


def test_dark_city_keeps_its_seat_variables():
    prog = load_program("citadels", expansions=("dark-city",))
    for name in ("crown", "witch_seat", "tax_to"):
        assert prog.vars[name]["type"] == "seat", name


# ------------------------------------------------------------------ the public table at every prompt
def test_every_prompt_shows_the_public_table():
    g = lowball(players=3)
    agent, out = human([SMALL, BOAST])
    assert agent.decide(g, 0) == g.pending["labels"].index(SMALL)
    choose(g, SMALL)
    out.clear()
    agent.decide(g, 0)  # the second decision of the same turn
    text = "\n".join(out)
    assert "dealer: P1" in text  # the shared variables
    # every other seat, its face-up cards by name (a table fits 50 lines: docs/boards.md)
    assert "\nP2\n    table: Marker" in text and "\nP3\n    table: Marker" in text
    assert "face down: deck 3" in text  # the shared zones, counted
    assert "P1 (you, dealer): penalty 1" in text


# ------------------------------------------------------------------ unavailable actions
def test_unavailable_actions_are_shown_with_their_condition_not_offered():
    g = lowball()
    assert SHED not in g.pending["labels"]
    barred = unavailable_actions(g.rt)
    assert [label for label, _ in barred] == [SHED]
    text = (FIXTURE / "game.yaml").read_text()
    i = text.index("chips(me) >= 1 and")
    line, col = text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)
    assert barred[0][1].startswith("needs chips(me) >= 1 and penalty(me) >= 1 (")
    assert barred[0][1].endswith(f"lowball/game.yaml:{line}:{col})")
    agent, out = human([SHED, "c", "5", "1"])
    assert agent.decide(g, 0) == 0
    shown = "\n".join(out)
    # with the letter it keeps all turn (issue 30), marked off from the offered "x." options
    assert f"  c) {SHED} (unavailable: needs chips(me) >= 1 and penalty(me) >= 1" in shown
    assert f"not accepted: '{SHED}' is unavailable: needs" in shown
    assert "not accepted: 'c' is unavailable: needs" in shown
    assert "not accepted: there is no option 5: type an action's letter (" in shown  # never lettered, never selectable


def test_an_action_with_if_text_is_unavailable_for_the_reason_in_words(tmp_path):
    cond = "      if: chips(me) >= 1 and penalty(me) >= 1\n"
    worded = edited_copy(tmp_path, FIXTURE, [(cond, cond + "      if_text: needs a chip and a point to shed\n")])
    g = new_game(worded, 2, 1, options=(("rounds", 2),))
    assert unavailable_actions(g.rt) == [(SHED, "needs a chip and a point to shed")]
    agent, out = human([SHED, "1"])
    agent.decide(g, 0)
    shown = "\n".join(out)
    assert f"  c) {SHED} (unavailable: needs a chip and a point to shed)" in shown
    assert f"not accepted: '{SHED}' is unavailable: needs a chip and a point to shed" in shown
    assert "game.yaml" not in shown.split("unavailable")[1].split("\n")[0]  # no rule-file place for players


def test_an_action_that_becomes_available_is_offered():
    g = turns(lowball(), BIG, SMALL)  # P1 has a chip and 2 points now
    assert SHED in g.pending["labels"]
    assert unavailable_actions(g.rt) == []


def test_no_unavailable_list_outside_action_windows():
    g = new_game("citadels", 4, 3)
    assert g.pending["kind"] != "action"
    assert unavailable_actions(g.rt) == []


# ------------------------------------------------------------------ typing an option as displayed
def test_an_option_typed_exactly_as_displayed_is_accepted():
    g = new_game("citadels", 4, 3)
    seat = g.pending["seat"]
    texts = option_texts(g.pending, g.program, g.state, g.view(seat))
    assert texts[0] != g.pending["labels"][0]  # the display adds the card's properties
    agent, _ = human([texts[2]])
    assert agent.decide(g, seat) == 2
    agent, _ = human([f"2. {texts[1]}"])
    assert agent.decide(g, seat) == 1
    agent, _ = human([texts[3].upper()])
    assert agent.decide(g, seat) == 3


def test_as_displayed_only_matches_whole_options():
    pending = {"labels": ["Market", "Tavern"], "subset": 0}
    texts = ["Market (trade, cost 2)", "Tavern (trade, cost 1)"]
    assert _as_displayed("market (trade, cost 2)", texts, pending) == 0
    assert _as_displayed("Market (trade", texts, pending) is None
    assert _as_displayed("1. Tavern (trade, cost 1)", texts, pending) is None  # the number must match
    assert _as_displayed("2. Tavern (trade, cost 1)", texts, pending) == 1


# ------------------------------------------------------------------ undo
def test_undo_goes_back_to_the_seats_previous_decision():
    g = lowball()
    agent, out = human([SMALL, "undo", BIG])
    first = agent.decide(g, 0)
    log_at_first = list(g.log)
    g.answer(first)
    state_after = json.dumps(g.state, sort_keys=True)
    answer = agent.decide(g, 0)  # "undo" at the second decision, then "Take 2 points"
    assert "undone: back to your previous decision" in "\n".join(out)
    assert g.pending["labels"][answer] == BIG
    assert g.log == log_at_first  # the undone answer and what it caused are gone
    assert json.dumps(g.state, sort_keys=True) != state_after
    g.answer(answer)
    assert g.state["counters"]["penalty"] == [2, 0]
    # the game as it goes on is the game that never took the undone answer
    fresh = lowball()
    for a in g.answers():
        fresh.answer(a)
    assert fresh.log == g.log and fresh.state == g.state


def test_undo_refused_when_another_seat_decided():
    g = lowball()
    agent, out = human([SMALL, END, "undo", "1"])
    g.answer(agent.decide(g, 0))
    g.answer(agent.decide(g, 0))  # End turn: P2 (a bot here) decides next
    turns(g, SMALL)
    agent.decide(g, 0)
    assert "cannot undo: P2 decided since" in "\n".join(out)


def test_undo_refused_when_hidden_information_was_revealed():
    g = lowball()
    agent, out = human([PEEK, "undo", "1"])
    g.answer(agent.decide(g, 0))  # draws a face-down marker into P1's hand
    agent.decide(g, 0)
    assert "cannot undo: 1 card you could not see was revealed to you since" in "\n".join(out)


def test_undo_refused_when_a_random_draw_was_made(tmp_path):
    copy = edited_copy(
        tmp_path, FIXTURE, [("      do: draw 1 from deck to hand(me)", "      do: |\n        shuffle deck")]
    )
    g = new_game(copy, 2, 1, options=(("rounds", 2),))
    agent, out = human([PEEK, "undo", "1"])
    g.answer(agent.decide(g, 0))
    agent.decide(g, 0)
    assert "cannot undo: a random draw was made since" in "\n".join(out)


def test_undo_with_nothing_to_undo():
    g = lowball()
    agent, out = human(["undo", "1"])
    agent.decide(g, 0)
    assert "cannot undo: no earlier decision of yours in this session" in "\n".join(out)


def test_hot_seat_undo_is_per_seat():
    g = lowball()
    agent, out = human([SMALL, END, BOAST, "undo", "undo", SMALL])
    g.answer(agent.decide(g, 0))
    g.answer(agent.decide(g, 0))  # P1 ends its turn
    g.answer(agent.decide(g, 1))  # P2 boasts
    # P2: undo goes back to its own previous decision (nobody else decided since) ...
    answer = agent.decide(g, 1)
    text = "\n".join(out)
    assert "undone: back to your previous decision" in text
    # ... and a second undo would reach before P1's decisions: refused
    assert "cannot undo: no earlier decision of yours in this session" in text
    assert g.pending["labels"][answer] == SMALL
    assert g.state["counters"]["penalty"] == [1, 0]


def test_hot_seat_undo_refused_across_seats():
    g = lowball()
    agent, out = human([SMALL, END, SMALL, END, "undo", "1"])
    for seat in (0, 0, 1, 1):
        g.answer(agent.decide(g, seat))
    agent.decide(g, 0)  # round 2: P1's previous decision was before P2's
    assert "cannot undo: P2 decided since" in "\n".join(out)
