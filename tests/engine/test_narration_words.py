"""Issue 28, narration: the generic text paths say names and readable words, never ids, and count in
the right number. Each case is the general path (a cause, a value's label, a transfer, a number with
its word, a return to the supply), tried on the Mini fixture; the games' own checks are in their
rule tests."""

from __future__ import annotations

import paths
import pytest
from scenario import run
from support import edited_copy, invoke, new_game

from mason.errors import MasonError
from mason.presentation.render import render_entry

MINI = paths.FIXTURES / "mini"


def mini_game():
    """The Mini fixture for 3 players, narrated, in P1's first action window."""
    return new_game(str(MINI), 3, 1)


def _said(g, start: int) -> list[str]:
    return [e["text"] for e in g.log[start:] if "text" in e]


# ------------------------------------------------------------------ causes
def test_a_cards_trigger_is_told_by_the_cards_name_not_its_id():
    g = mini_game()
    n = len(g.log)
    run(g, "emit played(card=first(hand), player=2)", me=2)  # the Bard (seat 3's hero) sings
    assert "P3 gains 1 fame (Bard)" in _said(g, n)  # not "(Bard: song)"


def test_a_cards_trigger_with_a_text_is_told_with_it(tmp_path):
    folder = edited_copy(
        tmp_path,
        MINI,
        [("{id: song, on: played,", "{id: song, text: Sing for fame, on: played,")],
        file="heroes.yaml",
    )
    g = new_game(str(folder), 3, 1)
    n = len(g.log)
    run(g, "emit played(card=first(hand), player=2)", me=2)
    assert "P3 gains 1 fame (Bard: Sing for fame)" in _said(g, n)


# ------------------------------------------------------------------ values
def test_a_component_type_id_drawn_or_offered_as_a_type_reads_as_the_types_name():
    g = mini_game()
    n = len(g.log)
    run(g, 'choose random type v from ["bard", "bard"] saying "Hero"', me=0)
    assert _said(g, n) == ["Hero, at random: Bard"]  # not "bard": the type's name
    run(g, 'choose type v from ["miner", "blue_gem", "none"]', me=0)
    assert g.pending["labels"] == ["Miner", "blue gem", "none"]  # an id of nothing: in words
    run(g, 'choose value v from ["miner", "blue_gem"]', me=0)  # a value is a value: only in words
    assert g.pending["labels"] == ["miner", "blue gem"]


# ------------------------------------------------------------------ transfers
def test_a_seat_giving_to_itself_is_not_told():
    g = mini_game()
    before = g.state["counters"]["gold"][0]
    n = len(g.log)
    run(g, "transfer 2 gold from me to me", me=0)
    assert _said(g, n) == [] and g.state["counters"]["gold"][0] == before
    run(g, "transfer 1 gold from me to 1", me=0)
    assert _said(g, n) == ["P1 gives 1 gold to P2"]


def test_a_transfer_from_an_empty_purse_says_there_was_nothing_to_give():
    # issue 28, narration: a theft from an empty purse read "P3 gives 0 gold to P1"
    g = mini_game()
    g.state["counters"]["gold"][0] = 0
    n = len(g.log)
    run(g, "transfer 2 gold from me to 1", me=0)
    assert _said(g, n) == ["P1 has no gold to give P2"]
    assert [e["amount"] for e in g.log[n:] if e["type"] == "transfer"] == [0]


# ------------------------------------------------------------------ one or many
@pytest.mark.parametrize(
    "expr, text",
    [
        ("counted(1, 'coin')", "1 coin"),
        ("counted(0, 'coin')", "0 coins"),
        ("counted(2, 'coin')", "2 coins"),
        ("counted(1, 'leaf', 'leaves')", "1 leaf"),
        ("counted(3, 'leaf', 'leaves')", "3 leaves"),
    ],
)
def test_counted_says_one_thing_or_many(expr, text):
    g = mini_game()
    n = len(g.log)
    run(g, f'say "{{{expr}}}"', me=0)
    assert _said(g, n) == [text]


def test_counted_refuses_what_is_not_a_number_and_words():
    g = mini_game()
    with pytest.raises(MasonError) as err:
        run(g, "say \"{counted('one', 'coin')}\"", me=0)
    assert err.value.code == "play/type"


def test_the_start_line_counts_players_in_the_right_number():
    start = {"type": "start", "settings": {"game": "solo", "players": 1, "seed": 3}}
    assert render_entry(start) == "solo with 1 player, seed 3"
    start["settings"]["players"] = 4
    assert render_entry(start) == "solo with 4 players, seed 3"


def test_mason_play_counts_one_player_in_the_singular():
    out = invoke("play", paths.FIXTURES / "automaton", "-p", 1, "--bots", "random", "--seed", 3)
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].endswith("automaton with 1 player, seed 3, automated: Rival")


# ------------------------------------------------------------------ returns
def test_goods_returned_to_the_supply_are_a_return_not_a_payment():
    g = mini_game()
    before = g.state["counters"]["gold"][0]
    n = len(g.log)
    run(g, 'do return_named(me, "gold", 1)', me=0)
    assert _said(g, n) == ["P1 returns 1 gold to the supply"]
    assert g.state["counters"]["gold"][0] == before - 1
