"""Island Fortress flow: rounds, income, the sealed commission, turns and buybacks (ISF-R13 .. ISF-R37)."""

from __future__ import annotations

import random

from isf_support import (
    bare,
    bids,
    counts,
    fresh,
    give_card,
    move_role,
    play,
    prison,
    prompt,
    roles_in,
    set_camp,
    set_counts,
    skip_setup,
    texts,
    turn_of,
)
from support import act, play_out


def to_round(g, rnd, prompt_start="Your sealed bid"):
    """Answer first options until the pending prompt starts with ``prompt_start`` in round ``rnd``."""
    n = 0
    while not (g.state["round"] == rnd and prompt(g).startswith(prompt_start)):
        g.answer([] if g.pending["subset"] else 0)
        n += 1
        assert n < 5000


def turn_lines(g, start=0):
    return [t for t in texts(g, start) if t.startswith("-- ")]


# ------------------------------------------------------------------ rounds and income
def test_isf_r13_round_is_income_commission_action():
    g = fresh(2)
    assert [p[0] for p in g.program.phases] == ["income", "commission", "actions", "round_end"]
    skip_setup(g)
    assert g.state["phase"] == "commission"
    bids(g, {0: 1})
    assert g.state["phase"] == "actions"


def test_isf_r14_income_three_jade_every_round_including_the_first():
    g = fresh(3)
    skip_setup(g)
    assert g.state["counters"]["jade"] == [15, 15, 15]
    to_round(g, 2)
    assert all(j >= 3 for j in g.state["counters"]["jade"])
    assert sum(1 for t in texts(g) if t.endswith("gains 3 jade")) >= 6


def test_isf_r15_completed_favour_income_adds_up():
    g = fresh(2)
    give_card(g, 0, "favour_13", "completed")  # income +1
    give_card(g, 0, "favour_25", "completed")  # income +1
    skip_setup(g)
    assert g.state["counters"]["jade"] == [12 + 5, 15]


# ------------------------------------------------------------------ the commission
def test_isf_r16_bids_are_sealed_zero_to_all_jade_revealed_together():
    g = fresh(2)
    skip_setup(g)
    p = g.pending
    assert p["seat"] == 0 and p["labels"] == [str(i) for i in range(16)]
    start = len(g.log)
    act(g, "7", 0)
    assert g.state["vars"]["bid"][0] == 7
    assert g.view(1)["vars"]["bid"] == {1: 0}  # P2 sees only its own bid
    assert not any("7" in (e.get("text") or "") for e in g.visible_log(1, start))
    assert g.state["vars"]["revealed_bids"] is None
    act(g, "3", 1)
    assert g.state["vars"]["revealed_bids"] == [7, 3]
    assert "P1 bid 7 jade: effective bid 7" in texts(g, start)


def test_isf_r17_effective_bid_adds_favour_bonuses():
    g = fresh(2)
    give_card(g, 1, "favour_21", "completed")  # bid +2
    skip_setup(g)
    bids(g, {0: 1, 1: 0})
    assert g.state["vars"]["revealed_bids"] == [1, 2]
    assert g.state["vars"]["governor"] == 1


def test_isf_r18_tie_won_by_the_larger_jade_bid():
    g = fresh(2)
    give_card(g, 1, "favour_21", "completed")  # bid +2
    skip_setup(g)
    bids(g, {0: 2, 1: 0})
    assert g.state["vars"]["revealed_bids"] == [2, 2]
    assert g.state["vars"]["governor"] == 0


def test_isf_r19_tie_goes_clockwise_from_the_holder_never_to_the_holder():
    g = fresh(3)
    skip_setup(g)
    bids(g, {0: 1})
    to_round(g, 2)
    assert g.state["vars"]["governor"] == 0
    for s in range(3):
        set_counts(g, s, jade=10)
    bids(g, {0: 4, 2: 4})
    assert g.state["vars"]["governor"] == 2  # P2 is not tied; P3 is next
    g2 = fresh(3)
    skip_setup(g2)
    bids(g2, {1: 1})
    to_round(g2, 2)
    for s in range(3):
        set_counts(g2, s, jade=10)
    bids(g2, {0: 3, 1: 3, 2: 3})
    assert g2.state["vars"]["governor"] == 2  # from P2 (holder): P3 first


def test_isf_r20_first_round_tie_is_drawn_at_random():
    winners = set()
    for seed in range(12):
        g = fresh(2, seed)
        skip_setup(g)
        start = len(g.log)
        bids(g, {0: 2, 1: 2})
        winners.add(g.state["vars"]["governor"])
        assert any(t.startswith("Tie for the commission broken, at random: P") for t in texts(g, start))
    assert winners == {0, 1}


def test_isf_r21_only_the_winner_pays_its_jade_bid():
    g = fresh(3)
    skip_setup(g)
    bids(g, {0: 5, 1: 4, 2: 3})
    assert g.state["counters"]["jade"] == [10, 15, 15]


def test_isf_r22_the_marker_stays_until_someone_else_wins():
    g = fresh(2)
    skip_setup(g)
    bids(g, {1: 1})
    assert g.state["vars"]["governor"] == 1
    to_round(g, 2)
    for s in range(2):
        set_counts(g, s, jade=5)
    bids(g, {1: 1})
    assert g.state["vars"]["governor"] == 1
    to_round(g, 3)
    for s in range(2):
        set_counts(g, s, jade=5)
    bids(g, {0: 2, 1: 1})
    assert g.state["vars"]["governor"] == 0


def test_isf_r23_the_winner_takes_a_governor_block():
    g = fresh(2)
    skip_setup(g)
    bids(g, {1: 1})
    assert g.state["counters"]["governor_block"] == [0, 1]
    assert g.state["counters"]["governor_supply"] == 11


def test_isf_r24_one_jade_one_convict_to_the_winners_taskmaster_prison():
    g = fresh(2)
    skip_setup(g)
    set_camp(g, 1, 2)
    bids(g, {1: 1})
    assert prison(g, 2) == {"jade": 1, "convict": 1}
    assert prison(g, 1) == {"jade": 0, "convict": 0}


# ------------------------------------------------------------------ the action phase
def test_isf_r25_all_role_cards_return_to_hand_at_action_phase_start():
    g = fresh(2)
    skip_setup(g)
    bids(g, {0: 1})
    to_round(g, 2)
    assert all(len(g.state["zones"][f"played/{s}"]) == 3 for s in range(2))
    bids(g, {0: 1})
    assert len(g.state["zones"]["roles/0"]) == 5 and len(g.state["zones"]["played/1"]) == 0


def test_isf_r26_three_passes_from_the_holder_clockwise():
    g = fresh(3)
    skip_setup(g)
    start = len(g.log)
    bids(g, {1: 1})
    to_round(g, 2)
    assert turn_lines(g, start) == ["-- P2 plays --", "-- P3 plays --", "-- P1 plays --"] * 3


def test_isf_r27_a_turn_plays_one_card_face_up_and_names_one_action():
    g = turn_of(0)
    play(g, "Treasurer", "Treasurer A")
    assert roles_in(g, "played", 0) == ["treasurer"]
    c = g.state["zones"]["played/0"][0]
    assert g.state["cards"][c]["up"]
    assert g.view(1)["zones"]["played/0"]["cards"][0]["name"] == "Treasurer"


def test_isf_r28_only_actions_the_player_can_afford_are_offered():
    g = turn_of(0)
    set_counts(g, 0, laborer=0, convict=1, block=0, jade=0)
    act(g, "Play a role card")
    assert "Builder" not in bare(g)  # no block: no Builder action at all
    act(g, "Recruiter")
    labels = bare(g)
    assert any(l.startswith("Recruiter A") for l in labels) and any(l.startswith("Recruiter C") for l in labels)
    assert not any(l.startswith("Recruiter B") for l in labels)


def test_isf_r29_taskmaster_buyback_costs_three_jade():
    g = turn_of(0)
    set_counts(g, 0, jade=3)
    play(g, "Taskmaster", "Taskmaster A")
    assert "Pay 3 jade to take the Taskmaster back and act again" in bare(g)
    act(g, "Pay 3 jade")
    assert counts(g, 0, "jade") == (0,)
    assert "taskmaster" in roles_in(g, "roles", 0)
    g2 = turn_of(0)
    set_counts(g2, 0, jade=2)
    play(g2, "Taskmaster", "Taskmaster A")
    assert not any(l.startswith("Pay 3 jade") for l in bare(g2))
    g3 = turn_of(0)
    play(g3, "Treasurer", "Treasurer A")
    assert not any(l.startswith("Pay 3 jade") for l in g3.legal())


def test_isf_r30_a_disc_buys_back_any_role():
    g = turn_of(0)
    set_counts(g, 0, buyback_disc=1)
    play(g, "Treasurer", "Treasurer A")
    act(g, "Spend a buyback disc")
    assert counts(g, 0, "buyback_disc") == (0,)
    assert prompt(g) == "Play which role card?" and "Treasurer" in bare(g)


def test_isf_r31_a_buyback_forces_a_second_action_which_may_repeat_the_first():
    g = turn_of(0)
    set_counts(g, 0, buyback_disc=1, jade=0)
    play(g, "Treasurer", "Treasurer A")
    act(g, "Spend a buyback disc")
    assert g.pending["seat"] == 0 and prompt(g) == "Play which role card?"
    assert "End turn" not in bare(g)
    act(g, "Treasurer")  # no convicts: Treasurer A runs at once
    assert counts(g, 0, "jade") == (6,)
    assert roles_in(g, "played", 0) == ["treasurer"]


def test_isf_r32_no_buyback_after_the_second_action():
    g = turn_of(0)
    set_counts(g, 0, buyback_disc=2, jade=6)
    play(g, "Taskmaster", "Taskmaster A")
    act(g, "Pay 3 jade")
    act(g, "Taskmaster")  # nothing to repeat: Taskmaster A at once
    # the turn ended by itself: nothing but End turn was left, so P2 decides now
    assert g.pending["seat"] == 1 and prompt(g) == "Play which role card?"
    assert counts(g, 0, "buyback_disc", "jade") == (2, 3)


def test_isf_r33_only_the_card_just_played_comes_back():
    g = turn_of(0)
    move_role(g, 0, "recruiter", "played")  # from an earlier turn
    set_counts(g, 0, buyback_disc=1)
    play(g, "Treasurer", "Treasurer A")
    act(g, "Spend a buyback disc")
    assert roles_in(g, "played", 0) == ["recruiter"]
    assert "treasurer" in roles_in(g, "roles", 0)


def test_isf_r34_face_up_roles_equal_turns_taken():
    g = fresh(3, seed=4)
    skip_setup(g)
    rng = random.Random(4)
    checked = 0
    while g.state["round"] < 4:
        if g.state["phase"] == "actions":
            here = [e["text"] for e in g.log if e.get("turn") and e.get("round") == g.state["round"]]
            current = g.state["stack"][g.state["ti"]]["seat"] if g.state["ti"] >= 0 else None
            for s in range(3):
                if s != current:
                    assert len(g.state["zones"][f"played/{s}"]) == here.count(f"-- P{s + 1} plays --")
                    checked += 1
        p = g.pending
        g.answer([] if p["subset"] else rng.randrange(len(p["options"])))
    assert checked > 50


def test_isf_r35_building_and_prisons_use_the_taskmaster_region():
    g = turn_of(0)
    set_camp(g, 0, 2)
    set_counts(g, 0, block=1, laborer=2)
    play(g, "Builder", "Builder A")
    assert all(x.startswith("R2") for x in bare(g))
    assert prison(g, 2)["convict"] == 1


def test_isf_r36_an_unplaced_governor_block_is_lost_at_round_end():
    g = fresh(2)
    skip_setup(g)
    bids(g, {0: 1})
    assert g.state["counters"]["governor_block"][0] == 1
    start = len(g.log)
    while g.state["round"] == 1:
        p = g.pending
        labels = p["labels"]
        g.answer(next((i for i, l in enumerate(labels) if l != "Place your governor block"), 0))
    assert g.state["counters"]["governor_block"][0] == 0
    assert "P1's unplaced governor block is removed from the game" in texts(g, start)


def test_isf_r37_game_ends_when_the_governor_supply_is_empty():
    for players, rounds in ((2, 12), (4, 11)):
        g = fresh(players, seed=2)
        play_out(g, chooser=lambda g: 0)
        assert g.result["rounds"] == rounds
        assert g.state["counters"]["governor_supply"] == 0
