"""Unit tests of the core modules not covered elsewhere: rng, state and views, the machine's answers,
expansions' overlay errors, the loop guard."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from support import cards_in, edited_copy, new_game

from mason.errors import IllegalAction, PlayError
from mason.runtime import rng
from mason.runtime.engine import check_answer
from mason.runtime.state import copy_state


# ------------------------------------------------------------------ rng
def test_rng_is_deterministic_and_plain_data():
    a, b = {"rng": rng.seed_state(42)}, {"rng": rng.seed_state(42)}
    assert [rng.below(a, 10) for _ in range(50)] == [rng.below(b, 10) for _ in range(50)]
    assert isinstance(a["rng"], int) and json.loads(json.dumps(a)) == a
    assert rng.seed_state(1) != rng.seed_state(2)


def test_rng_below_is_in_range_and_roughly_uniform():
    st = {"rng": rng.seed_state("u")}
    counts = Counter(rng.below(st, 6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def _draw_by_definition(x, n):
    """next_u64 until its output is below the largest multiple of n under 2**64, then output % n."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x, out = rng.next_u64(x)
        if out < limit:
            return x, out % n


def test_rng_draw_is_next_u64_with_rejection_for_small_and_huge_n():
    # small n take the shortcut that skips the limit; n just above 2**16 does not; n = 2**63 + 1 has
    # a limit of 2**63 + 1, so about half the outputs are rejected and the loop runs again
    x = rng.seed_state("draw")
    rejected = 0
    for n in (2, 3, 7, 64, 1000, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, (1 << 40) + 3, (1 << 63) + 1):
        for _ in range(300):
            want = _draw_by_definition(x, n)
            rejected += want[0] != rng.next_u64(x)[0]
            assert rng.draw(x, n) == want, n
            x = want[0]
    assert rejected > 50  # the rejection path ran
    assert rng.SURE < (1 << 64) - ((1 << 64) % rng.SMALL_N)  # the shortcut's bound, at its largest n


def test_shuffle_is_a_permutation():
    st = {"rng": rng.seed_state(3)}
    items = list(range(20))
    rng.shuffle(st, items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


@pytest.mark.parametrize("size", [0, 1, 2, 5, 66])
def test_shuffle_is_fisher_yates_with_below_and_leaves_the_state_where_it_would(size):
    """The shuffle keeps the generator in a local: the same order and the same state afterwards as a
    Fisher-Yates shuffle drawing each place with ``below`` (saved games depend on both)."""
    st, want_st = {"rng": rng.seed_state(size)}, {"rng": rng.seed_state(size)}
    items, want = list(range(size)), list(range(size))
    rng.shuffle(st, items)
    for i in range(size - 1, 0, -1):
        j = rng.below(want_st, i + 1)
        want[i], want[j] = want[j], want[i]
    assert items == want and st == want_st


# ------------------------------------------------------------------ state and views
def test_copy_state_is_independent():
    g = new_game(players=3, seed=1)
    c = copy_state(g.state)
    assert c == g.state
    c["zones"]["deck"].pop()
    assert c != g.state


def test_view_hides_other_hands_and_the_deck():
    g = new_game(players=3, seed=1)
    v = g.view(0)
    assert len(v["zones"]["hand/0"]["cards"]) == 4 and v["zones"]["hand/0"]["hidden"] == 0
    assert v["zones"]["hand/1"]["cards"] == [] and v["zones"]["hand/1"]["hidden"] == 4
    assert v["zones"]["deck"]["cards"] == []
    spectator = g.view(None)
    assert all(z["cards"] == [] for k, z in spectator["zones"].items() if k.startswith("hand/"))


def test_a_pending_decision_is_shown_only_to_its_seat():
    g = new_game(players=3, seed=1)
    seat = g.pending["seat"]
    assert g.view(seat)["decision"]["labels"] == g.pending["labels"]
    other = (seat + 1) % 3
    assert g.view(other)["decision"] is None and g.view(other)["waiting_for"] == seat


def test_private_log_lines_reach_only_their_seats():
    g = new_game(players=3, seed=1)
    names = ", ".join(g.program.types[g.state["cards"][c]["t"]]["name"] for c in cards_in(g, "hand", 0))
    full = f"{names}: the district deck -> P1's hand"
    assert full in [e.get("text") for e in g.visible_log(0)]
    seen_by_p2 = [e.get("text") for e in g.visible_log(1)]
    assert full not in seen_by_p2 and "4 cards: the district deck -> P1's hand" in seen_by_p2
    assert full not in [e.get("text") for e in g.visible_log(None)]


# ------------------------------------------------------------------ answers
def test_check_answer_refuses_with_reasons():
    single = {"options": [1, 2, 3], "subset": 0}
    assert check_answer(single, 2) == 2
    for bad, reason in (
        (3, "no option has index 3"),
        (-1, "index -1"),
        ("1", "one option's index"),
        (True, "one option"),
    ):
        with pytest.raises(IllegalAction, match=reason):
            check_answer(single, bad)
    subset = {"options": [1, 2, 3], "subset": 2}
    assert check_answer(subset, [2, 0]) == [2, 0]  # the order given is kept
    for bad, reason in (
        ([0, 0], "only once"),
        ([0, 1, 2], "at most 2"),
        ([5], "no option has index 5.*counted from 0"),
        (1, "list"),
    ):
        with pytest.raises(IllegalAction, match=reason):
            check_answer(subset, bad)


def test_answer_without_a_pending_decision_is_refused():
    g = new_game(players=2, seed=1)
    while not g.over:
        g.answer([] if g.pending["subset"] else 0)
    with pytest.raises(IllegalAction):
        g.answer(0)


def test_a_single_legal_option_is_not_a_decision():
    g = new_game(players=4, seed=1)
    assert len(g.pending["options"]) >= 2
    before = g.state["decisions"]
    g.answer(0)
    assert g.state["decisions"] == before + 1


# ------------------------------------------------------------------ flow guard
def test_round_cap_names_the_phase(tmp_path):
    folder = edited_copy(tmp_path, "citadels", [("max_rounds: 100", "max_rounds: 1")], name="citadels")
    g = new_game(folder, 4, 1, narrate=False)
    with pytest.raises(PlayError, match=r"within 1 rounds \(phase 'selection'\)"):
        while not g.over:
            g.answer([] if g.pending["subset"] else 0)


def test_zone_lists_never_alias_stored_values():
    g = new_game(players=2, seed=1)
    deck = cards_in(g, "deck")
    assert deck is not g.state["zones"]["deck"]
