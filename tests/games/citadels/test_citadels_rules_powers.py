"""Citadels rule tests: characters' powers, the Warlord, purple districts and scoring.

Rule ids follow shared/reference/citadels.md (CIT-R42 .. CIT-R75, CIT-R86 .. CIT-R89) and its
worked examples (CIT-X*). Each test builds a situation with tests/support.py (4 players, seed 2
unless said otherwise: P2 holds the crown), drives the turns by label and checks the outcome.
"""

from __future__ import annotations

import pytest
from support import *


# ====================================================================== local helpers
def passive(g) -> int:
    """A do-nothing agent: end the turn when allowed, else take 2 gold; decline optional choices."""
    labels_ = g.pending["labels"]
    for pref in ("End turn", "Take 2 gold", "none", "Let it go"):
        if pref in labels_:
            return labels_.index(pref)
    return 0


def refresh(g) -> None:
    """Recompute the pending decision after the test edited the state (action windows too)."""
    fr = g.state["stack"][-1]
    if fr["kind"] == "turn":
        from mason.runtime.turns import action_label, window_options

        opts = window_options(g.rt, fr)
        g.pending["options"] = opts
        g.pending["labels"] = [action_label(g.rt, fr, k) for k in opts]
    else:
        refresh_pending(g)


def until_turn(g, type_id: str) -> None:
    """Answer passively until the holder of character ``type_id`` has an action decision in its turn.

    The pending window is recomputed, so a state prepared after the draft is taken into account.
    """
    c = card_of(g, type_id)
    for _ in range(500):
        if g.pending and g.pending["kind"] == "action" and g.rt.turn_card() == c:
            refresh(g)
            return
        assert not g.over, f"the game ended before {type_id}'s turn"
        g.answer(passive(g))
    raise AssertionError(f"no turn for {type_id}")


def until_prompt(g, prompt: str) -> None:
    answer_until(g, prompt, passive)


def texts(g, start: int = 0) -> list[str]:
    return [e["text"] for e in g.log[start:] if "text" in e]


def public(g, text: str) -> bool:
    """True if the log holds ``text`` as a line every seat may read."""
    return any(e.get("text") == text and e.get("to") is None for e in g.log)


def start(picks: dict, players: int = 4, seed: int = 2):
    """A game with every character in the draft, each seat keeping ``picks[seat]``."""
    g = new_game(players=players, seed=seed)
    open_draft(g)
    pick(g, picks)
    return g


def city_of(g, seat: int, *type_ids: str) -> list[int]:
    return [give(g, seat, t, "city") for t in type_ids]


def hand_of(g, seat: int, *type_ids: str) -> list[int]:
    clear_hand(g, seat)
    return [give(g, seat, t, "hand") for t in type_ids]


def deck_top(g, *type_ids: str) -> list[int]:
    """Put these districts on top of the deck, the last named on the very top."""
    return [give(g, None, t, "deck") for t in type_ids]


def warlord_end(g, seat: int, gold_at_end: int | None = None) -> None:
    """Play to the Warlord's turn, take 2 gold, optionally set its gold, and end the turn."""
    until_turn(g, "warlord")
    assert seat_to_move(g) == seat
    act(g, "Take 2 gold")
    if gold_at_end is not None:
        set_gold(g, seat, gold_at_end)
    act(g, "End turn")


def targets(g) -> set[int]:
    assert g.pending and g.pending["prompt"].startswith("Destroy"), g.pending
    return {o for o in g.pending["options"] if o is not None}


def destroy(g, card: int) -> None:
    g.answer(g.pending["options"].index(card))


def destroy_cost(g, seat: int, card: int) -> int:
    """Gold the Warlord (seat) pays to destroy ``card``, measured on a copy of the game."""
    h = g.copy()
    before = gold(h, seat)
    destroy(h, card)
    assert card not in cards_in(h, "city", g.state["cards"][card]["o"])
    return before - gold(h, seat)


def end_game_now(g) -> dict:
    """Make the current round the last one and play it out passively; return the result."""
    g.state["vars"]["final_round"] = True
    play_out(g, passive)
    return g.result


def total_gold(g) -> int:
    return bank(g) + sum(g.state["counters"]["gold"])


# ====================================================================== Assassin
def test_cit_r42_assassin_murders_another_character_for_the_round():
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    act(g, "Murder a character", 0)
    assert g.pending["prompt"].startswith("Murder")
    assert "Assassin" not in labels(g)
    assert {"Thief", "King", "Warlord"} <= set(labels(g))
    n = len(g.log)
    act(g, "King")
    king = card_of(g, "king")
    assert g.state["cards"][king]["murdered"] is True
    assert "P1 chooses King" in texts(g, n) and public(g, "P1 chooses King")  # naming is public
    # murdered for this round only: next round the King plays again
    until_prompt(g, "Keep a character")
    assert g.state["cards"][king]["murdered"] is False
    open_draft(g)
    pick(g, {0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    n = len(g.log)
    until_turn(g, "king")
    assert seat_to_move(g) == 2
    assert "-- P3 plays as King --" in texts(g, n)


def test_cit_r43_murdered_holder_loses_the_whole_turn():
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Merchant"})
    hand_of(g, 2, "manor")
    city_of(g, 2, "castle")
    set_gold(g, 2, 5)
    act(g, "Murder a character")
    act(g, "King")
    n = len(g.log)
    until_prompt(g, "Keep a character")  # the round is over
    lines = texts(g, n)
    assert "-- P3 plays as King --" not in lines
    assert not any(line.startswith("P3:") for line in lines)  # no action, income, power or build
    assert gold(g, 2) == 5
    assert types_in(g, "city", 2) == ["castle"]
    assert types_in(g, "hand", 2) == ["manor"]
    assert "King is revealed" in lines  # revealed at round end (CIT-R20)


def test_cit_r43_murdered_warlord_has_no_end_of_turn_destruction():
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    city_of(g, 2, "watchtower")
    act(g, "Murder a character")
    act(g, "Warlord")
    until_prompt(g, "Keep a character")
    assert not any(e.get("prompt", "").startswith("Destroy") for e in g.log)
    assert not any(e.get("type") == "decision" and e["seat"] == 3 and e["kind"] == "action" for e in g.log)
    assert types_in(g, "city", 2) == ["watchtower"]


def test_cit_r44_murdered_bishop_gives_no_protection():
    g = start({0: "Warlord", 1: "Assassin", 2: "Bishop", 3: "King"})
    temple = city_of(g, 2, "temple")[0]
    act(g, "Murder a character", 1)
    act(g, "Bishop")
    warlord_end(g, 0)
    assert temple in targets(g)
    destroy(g, temple)
    assert temple not in cards_in(g, "city", 2)


# ====================================================================== Thief
def test_cit_r45_thief_cannot_rob_assassin_itself_or_the_murdered():
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    act(g, "Murder a character")
    act(g, "King")
    until_turn(g, "thief")
    act(g, "Rob a character")
    opts = set(labels(g))
    assert opts == {"Magician", "Bishop", "Merchant", "Architect", "Warlord"}


def test_cit_r46_theft_happens_at_reveal_before_the_action():
    g = start({0: "King", 1: "Thief", 2: "Merchant", 3: "Warlord"})
    city_of(g, 2, "tavern")
    until_turn(g, "thief")
    act(g, "Rob a character")
    act(g, "Merchant")
    act(g, "Take 2 gold")
    set_gold(g, 2, 3)
    thief_gold = gold(g, 1)
    n = len(g.log)
    act(g, "End turn")
    until_turn(g, "merchant")  # the King (rank 4) plays in between; P3 is not touched
    # the Merchant's first decision: the gold is already gone, nothing else has happened yet
    assert seat_to_move(g) == 2
    assert gold(g, 1) == thief_gold + 3 and gold(g, 2) == 0
    lines = texts(g, n)
    assert "P3 gives 3 gold to P2" in lines and public(g, "P3 gives 3 gold to P2")
    assert public(g, "P2 chooses Merchant")  # the Thief's naming is public
    assert lines.index("Merchant is revealed") < lines.index("P3 gives 3 gold to P2")
    assert "Take income" in labels(g)  # income not yet taken: the theft came first


def test_cit_r46_a_player_robbing_their_own_character_is_not_told_as_a_gift():
    # 2 players hold two characters each: a Thief naming its holder's other character moves no gold,
    # and the narration does not say "P1 gives 2 gold to P1" (issue 28, narration)
    g = new_game(players=2, seed=2)
    open_draft(g)
    wanted = {0: ["Thief", "Merchant"], 1: ["Bishop", "Warlord"]}
    keep = {n for v in wanted.values() for n in v}
    while g.state["phase"] == "selection":
        p = g.pending
        if p["prompt"].startswith("Keep"):
            act(g, wanted[p["seat"]].pop(0), p["seat"])
        else:
            g.answer(next(i for i, l in enumerate(p["labels"]) if l not in keep))
    until_turn(g, "thief")
    act(g, "Rob a character")
    act(g, "Merchant")
    act(g, "Take 2 gold")
    n = len(g.log)
    before = gold(g, 0)
    act(g, "End turn")
    until_turn(g, "merchant")
    lines = texts(g, n)
    assert "Merchant is revealed" in lines and gold(g, 0) == before
    assert not any(" gives " in line for line in lines), lines


def test_cit_r47_later_gains_are_not_stolen_and_unheld_target_gives_nothing():
    g = start({0: "King", 1: "Thief", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "thief")
    act(g, "Rob a character")
    act(g, "Merchant")
    act(g, "Take 2 gold")
    set_gold(g, 2, 0)
    act(g, "End turn")
    until_turn(g, "merchant")
    thief_gold = gold(g, 1)
    act(g, "Take 2 gold")
    act(g, "Take 1 extra gold")
    act(g, "End turn")
    assert gold(g, 2) == 3 and gold(g, 1) == thief_gold

    # naming a character nobody holds (the Bishop is out of the round): nothing happens
    g = start({0: "King", 1: "Thief", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "thief")
    act(g, "Rob a character")
    act(g, "Bishop")
    before = list(g.state["counters"]["gold"])
    n = len(g.log)
    act(g, "Take 2 gold")
    until_prompt(g, "Keep a character")
    assert not any(" gives " in line for line in texts(g, n))
    assert gold(g, 1) == before[1] + 2
    assert total_gold(g) == 30


def test_cit_x4_thief_timing_merchant_keeps_later_gold():
    g = start({0: "King", 1: "Thief", 2: "Merchant", 3: "Warlord"})
    city_of(g, 2, "tavern", "market")
    until_turn(g, "thief")
    act(g, "Rob a character")
    act(g, "Merchant")
    act(g, "Take 2 gold")
    set_gold(g, 2, 4)
    thief_gold = gold(g, 1)
    act(g, "End turn")
    until_turn(g, "merchant")
    assert gold(g, 1) == thief_gold + 4 and gold(g, 2) == 0
    act(g, "Take 2 gold")
    act(g, "Take 1 extra gold")
    act(g, "Take income")
    act(g, "End turn")
    assert gold(g, 2) == 5
    assert gold(g, 1) == thief_gold + 4


# ====================================================================== Magician
def test_cit_r48_cit_x9_magician_swaps_whole_hands_even_when_empty():
    g = start({0: "Magician", 1: "King", 2: "Bishop", 3: "Merchant"})
    hand_of(g, 0)
    theirs = hand_of(g, 1, "temple", "church", "manor", "castle", "tavern")
    until_turn(g, "magician")
    act(g, "Use the Magician's power", 0)
    # with an empty hand only the exchange is possible: it is taken at once
    assert g.pending["prompt"] == "Exchange with whom?"
    n = len(g.log)
    act(g, "P2")
    assert sorted(cards_in(g, "hand", 0)) == sorted(theirs)
    assert cards_in(g, "hand", 1) == []
    assert any("swapped" in line for line in texts(g, n))


def test_cit_r49_cit_x9_magician_replaces_cards_from_the_deck():
    g = start({0: "Magician", 1: "King", 2: "Bishop", 3: "Merchant"})
    temple, church, manor = hand_of(g, 0, "temple", "church", "manor")
    top = deck_top(g, "tavern", "market")  # market on the very top
    deck_size = len(cards_in(g, "deck"))
    until_turn(g, "magician")
    act(g, "Use the Magician's power", 0)
    act(g, "Replace cards from your hand")
    act_subset(g, ["Temple", "Church"])
    hand = cards_in(g, "hand", 0)
    assert len(hand) == 3
    assert set(hand) == {manor, *top}
    assert set(cards_in(g, "deck")[:2]) == {temple, church}
    assert len(cards_in(g, "deck")) == deck_size


def test_cit_r50_magician_uses_one_option_once_per_turn():
    g = start({0: "Magician", 1: "King", 2: "Bishop", 3: "Merchant"})
    hand_of(g, 0, "temple")
    hand_of(g, 1, "church")
    until_turn(g, "magician")
    assert "Use the Magician's power" in labels(g)  # usable before the action
    act(g, "Use the Magician's power")
    assert g.pending["prompt"] == "Magician"
    assert set(labels(g)) == {"Exchange hands with another player", "Replace cards from your hand"}
    act(g, "Exchange hands")
    act(g, "P2")
    assert "Use the Magician's power" not in labels(g)
    act(g, "Take 2 gold")
    assert "Use the Magician's power" not in labels(g)


# ====================================================================== King
def test_cit_r51_king_takes_the_crown_when_revealed():
    g = start({0: "Assassin", 1: "Thief", 2: "Merchant", 3: "King"})
    assert g.state["vars"]["crown"] == 1
    until_turn(g, "king")
    assert seat_to_move(g) == 3
    assert g.state["vars"]["crown"] == 3  # before the action
    assert not any(e.get("type") == "decision" and e["seat"] == 3 and e["kind"] == "action" for e in g.log)


def test_cit_r52_crown_holder_starts_the_next_selection():
    g = start({0: "Assassin", 1: "Thief", 2: "Merchant", 3: "King"})
    until_prompt(g, "Keep a character")
    assert g.state["round"] == 2
    assert seat_to_move(g) == 3
    # when nobody holds the King, the crown stays and the same seat starts again
    g = start({0: "Assassin", 1: "Thief", 2: "Merchant", 3: "Bishop"})
    until_prompt(g, "Keep a character")
    assert seat_to_move(g) == 1


# ====================================================================== Bishop
def test_cit_r53_warlord_cannot_target_the_revealed_bishop():
    g = start({0: "Warlord", 1: "Thief", 2: "Bishop", 3: "King"})
    temple = city_of(g, 2, "temple")[0]
    manor = city_of(g, 3, "manor")[0]
    warlord_end(g, 0)
    assert targets(g) == {manor}
    assert temple not in g.pending["options"]


# ====================================================================== Merchant
def test_cit_r54_merchant_gains_one_after_either_action():
    g = start({0: "Merchant", 1: "King", 2: "Bishop", 3: "Architect"})
    until_turn(g, "merchant")
    assert "Take 1 extra gold" not in labels(g)  # only after the action
    before, bank_before = gold(g, 0), bank(g)
    act(g, "Draw districts")
    until_prompt(g, "Choose an action")
    assert "Take 1 extra gold" in labels(g)
    act(g, "Take 1 extra gold")
    assert gold(g, 0) == before + 1 and bank(g) == bank_before - 1
    assert "Take 1 extra gold" not in labels(g)


# ====================================================================== Architect
def test_cit_r55_architect_draws_two_more_after_the_action():
    g = start({0: "Architect", 1: "King", 2: "Bishop", 3: "Merchant"})
    hand_of(g, 0)
    until_turn(g, "architect")
    assert "Draw 2 extra districts" not in labels(g)
    act(g, "Take 2 gold")
    top = deck_top(g, "temple", "church")
    act(g, "Draw 2 extra districts")
    assert sorted(cards_in(g, "hand", 0)) == sorted(top)
    assert "Draw 2 extra districts" not in labels(g)


def test_cit_r56_architect_builds_up_to_three():
    g = start({0: "Architect", 1: "King", 2: "Bishop", 3: "Merchant"})
    hand_of(g, 0, "temple", "church", "tavern", "market")
    set_gold(g, 0, 10)
    until_turn(g, "architect")
    act(g, "Take 2 gold")
    for name in ("Temple", "Church", "Tavern"):
        act(g, "Build a district")
        act(g, name)
    assert types_in(g, "city", 0) == ["temple", "church", "tavern"]
    assert "Build a district" not in labels(g)
    assert gold(g, 0) == 12 - 4


def test_cit_x8_architect_builds_manor_castle_harbor():
    g = start({0: "Architect", 1: "King", 2: "Bishop", 3: "Merchant"})
    hand_of(g, 0, "manor", "castle")
    set_gold(g, 0, 9)
    until_turn(g, "architect")
    assert "Draw 2 extra districts" not in labels(g)  # refused before the action
    act(g, "Take 2 gold")
    deck_top(g, "temple", "harbor")
    act(g, "Draw 2 extra districts")
    assert len(cards_in(g, "hand", 0)) == 4
    for name in ("Manor", "Castle", "Harbor"):
        act(g, "Build a district")
        act(g, name)
    assert gold(g, 0) == 0
    assert types_in(g, "city", 0) == ["manor", "castle", "harbor"]
    assert types_in(g, "hand", 0) == ["temple"]


# ====================================================================== Warlord
def test_cit_r57_warlord_destroys_at_turn_end_paying_cost_minus_one():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    tower, castle = city_of(g, 2, "watchtower", "castle")
    until_turn(g, "warlord")
    assert not any(l.startswith("Destroy") for l in labels(g))  # not an action of the window
    act(g, "Take 2 gold")
    set_gold(g, 0, 5)
    act(g, "End turn")
    assert targets(g) == {tower, castle}
    assert "none" in labels(g)  # optional
    # declining destroys nothing and costs nothing
    h = g.copy()
    h.answer(h.pending["labels"].index("none"))
    assert gold(h, 0) == 5 and set(cards_in(h, "city", 2)) == {tower, castle}
    # a cost-1 district is free
    h = g.copy()
    destroy(h, tower)
    assert gold(h, 0) == 5 and cards_in(h, "city", 2) == [castle]
    # a Castle (4) costs 3, paid to the bank
    bank_before = bank(g)
    n = len(g.log)
    destroy(g, castle)
    assert gold(g, 0) == 2 and bank(g) == bank_before + 3
    assert cards_in(g, "city", 2) == [tower]
    assert any("Castle: P3's city -> the destroyed district" in l for l in texts(g, n))


def test_cit_r57_warlord_cannot_destroy_what_it_cannot_afford():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    tower, palace = city_of(g, 2, "watchtower", "palace")
    warlord_end(g, 0, gold_at_end=3)
    assert targets(g) == {tower}


def test_cit_r58_warlord_may_destroy_in_its_own_city():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    own = city_of(g, 0, "prison")[0]
    warlord_end(g, 0)
    assert own in targets(g)
    destroy(g, own)
    assert own not in cards_in(g, "city", 0)


def test_cit_r59_complete_city_bishop_and_keep_are_refused():
    g = start({0: "Warlord", 1: "Bishop", 2: "King", 3: "Merchant"})
    city_of(g, 1, "temple")
    city_of(g, 2, "watchtower", "temple", "church", "manor", "tavern", "market", "prison", "docks")
    keep, tavern = city_of(g, 3, "keep", "tavern")
    warlord_end(g, 0, gold_at_end=10)
    assert targets(g) == {tavern}


def test_cit_r60_great_wall_adds_one_except_to_itself():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    plain_palace = city_of(g, 2, "palace")[0]
    palace, wall, temple = city_of(g, 3, "palace", "great_wall", "temple")
    warlord_end(g, 0, gold_at_end=6)
    assert targets(g) == {plain_palace, palace, wall, temple}
    assert destroy_cost(g, 0, plain_palace) == 4
    assert destroy_cost(g, 0, palace) == 5
    assert destroy_cost(g, 0, wall) == 5
    assert destroy_cost(g, 0, temple) == 1


def test_cit_r61_gates_cost_printed_cost_minus_one():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    gate, university = city_of(g, 2, "dragon_gate", "university")
    warlord_end(g, 0, gold_at_end=6)
    assert destroy_cost(g, 0, gate) == 5
    assert destroy_cost(g, 0, university) == 5
    # with 4 gold neither can be destroyed
    g2 = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    city_of(g2, 2, "dragon_gate", "university", "watchtower")
    warlord_end(g2, 0, gold_at_end=4)
    assert {g2.state["cards"][c]["t"] for c in targets(g2)} == {"watchtower"}


def test_cit_r62_destroyed_district_goes_to_the_bottom_of_the_deck():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    castle = city_of(g, 2, "castle")[0]
    warlord_end(g, 0, gold_at_end=6)
    size = len(cards_in(g, "deck"))
    destroy(g, castle)
    deck = cards_in(g, "deck")
    assert deck[0] == castle and len(deck) == size + 1
    assert cards_in(g, "destroyed") == []


def test_cit_x1_warlord_costs():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    tower, church, cathedral, gate, keep = city_of(g, 2, "watchtower", "church", "cathedral", "dragon_gate", "keep")
    palace, wall, temple = city_of(g, 3, "palace", "great_wall", "temple")
    warlord_end(g, 0, gold_at_end=6)
    assert keep not in g.pending["options"]  # refused
    costs = {g.state["cards"][c]["t"]: destroy_cost(g, 0, c) for c in targets(g)}
    assert costs == {
        "watchtower": 0,
        "church": 1,
        "cathedral": 4,
        "dragon_gate": 5,
        "palace": 5,
        "great_wall": 5,
        "temple": 1,
    }


def test_cit_x2_warlord_targets():
    # P2 holds the revealed Bishop, P3 has 8 districts: both refused; P4 and the Warlord's own allowed
    g = start({0: "Warlord", 1: "Bishop", 2: "King", 3: "Merchant"})
    city_of(g, 1, "temple")
    city_of(g, 2, "watchtower", "temple", "church", "manor", "tavern", "market", "prison", "docks")
    p4 = city_of(g, 3, "tavern")[0]
    own = city_of(g, 0, "watchtower")[0]
    warlord_end(g, 0)
    assert targets(g) == {p4, own}
    # P4 holds a murdered Bishop: allowed
    g = start({0: "Warlord", 1: "Assassin", 2: "King", 3: "Bishop"})
    p4 = city_of(g, 3, "temple")[0]
    act(g, "Murder a character", 1)
    act(g, "Bishop")
    warlord_end(g, 0)
    assert targets(g) == {p4}


# ====================================================================== purple districts
@pytest.mark.parametrize(
    "others, bonus",
    [
        (("manor", "tavern", "watchtower", "keep"), 3),  # lacks religious: counts as religious
        (("temple", "tavern", "watchtower", "keep"), 3),  # lacks noble: counts as noble
        (("temple", "tavern", "manor", "keep"), 3),  # lacks military: counts as military
        (("temple", "tavern", "manor"), 0),  # two colours missing: one wildcard is not enough
    ],
)
def test_cit_r63_haunted_city_counts_as_the_missing_colour(others, bonus):
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, *others, "haunted_city")  # built in an earlier round (no round recorded)
    res = end_game_now(g)
    assert res["parts"][0]["five_colours"] == bonus


def test_cit_r63_cit_x15_haunted_city_built_in_final_round_is_only_purple():
    g = start({0: "King", 1: "Merchant", 2: "Bishop", 3: "Architect"})
    city_of(g, 1, "manor", "tavern", "watchtower", "keep")  # lacks blue
    hand_of(g, 1, "haunted_city")
    until_turn(g, "merchant")
    g.state["vars"]["final_round"] = True
    act(g, "Take 2 gold")
    act(g, "Build a district")
    assert types_in(g, "city", 1)[-1] == "haunted_city"
    res = end_game_now(g)
    assert res["parts"][1]["five_colours"] == 0
    assert res["parts"][1]["districts"] == 3 + 1 + 1 + 3 + 2


def test_cit_x15_haunted_city_built_before_the_final_round_counts():
    g = start({0: "King", 1: "Merchant", 2: "Bishop", 3: "Architect"})
    city_of(g, 1, "manor", "tavern", "watchtower", "keep")
    hand_of(g, 1, "haunted_city")
    until_turn(g, "merchant")
    act(g, "Take 2 gold")
    act(g, "Build a district")
    until_prompt(g, "Keep a character")  # round 2
    res = end_game_now(g)
    assert res["rounds"] == 2
    assert res["parts"][1]["five_colours"] == 3


def test_cit_r64_keep_cannot_be_destroyed():
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    keep, tower = city_of(g, 2, "keep", "watchtower")
    warlord_end(g, 0, gold_at_end=10)
    assert targets(g) == {tower}
    # a city whose only district is a Keep offers no target at all
    g = start({0: "Warlord", 1: "King", 2: "Merchant", 3: "Architect"})
    city_of(g, 2, "keep")
    warlord_end(g, 0, gold_at_end=10)
    assert not (g.pending and g.pending["prompt"].startswith("Destroy"))


def test_cit_r65_laboratory_discards_a_card_for_one_gold_once_per_turn():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "laboratory")
    temple, church = hand_of(g, 0, "temple", "church")
    until_turn(g, "king")
    lab = [l for l in labels(g) if "(Laboratory)" in l]
    assert len(lab) == 1  # usable before the action
    before, bank_before = gold(g, 0), bank(g)
    act(g, lab[0])
    act(g, "Temple")
    assert gold(g, 0) == before + 1 and bank(g) == bank_before - 1
    assert cards_in(g, "hand", 0) == [church]
    assert cards_in(g, "deck")[0] == temple
    assert not any("(Laboratory)" in l for l in labels(g))
    act(g, "Take 2 gold")
    assert not any("(Laboratory)" in l for l in labels(g))
    # without a card in hand it is not offered
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "laboratory")
    hand_of(g, 0)
    until_turn(g, "king")
    assert not any("(Laboratory)" in l for l in labels(g))


def test_cit_r66_smithy_pays_two_to_draw_three():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "smithy")
    hand_of(g, 0)
    set_gold(g, 0, 2)
    until_turn(g, "king")
    top = deck_top(g, "temple", "church", "manor")
    bank_before = bank(g)
    smithy = [l for l in labels(g) if "(Smithy)" in l]
    assert len(smithy) == 1
    act(g, smithy[0])
    assert gold(g, 0) == 0 and bank(g) == bank_before + 2
    assert sorted(cards_in(g, "hand", 0)) == sorted(top)
    act(g, "Take 2 gold")
    assert not any("(Smithy)" in l for l in labels(g))  # once per turn
    # with 1 gold it is not offered
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "smithy")
    set_gold(g, 0, 1)
    until_turn(g, "king")
    assert not any("(Smithy)" in l for l in labels(g))


def test_cit_r67_observatory_draws_three_keeps_one():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "observatory")
    hand_of(g, 0)
    until_turn(g, "king")
    temple, church, manor = deck_top(g, "temple", "church", "manor")
    act(g, "Draw districts")
    assert g.pending["prompt"] == "Keep a district"
    assert sorted(labels(g)) == ["Church", "Manor", "Temple"]
    act(g, "Church")
    assert g.pending["prompt"].startswith("Put on the bottom")
    act(g, "Temple")
    assert cards_in(g, "hand", 0) == [church]
    assert cards_in(g, "deck")[:2] == [manor, temple]  # each next card goes under the last
    assert cards_in(g, "looking", 0) == []


def test_cit_r68_library_keeps_both_drawn_cards():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "library")
    hand_of(g, 0)
    until_turn(g, "king")
    top = deck_top(g, "temple", "church")
    size = len(cards_in(g, "deck"))
    act(g, "Draw districts")
    assert g.pending["prompt"] == "Keep a district"
    act(g, "Temple")  # the second card is kept too (a single option: no question)
    assert sorted(cards_in(g, "hand", 0)) == sorted(top)
    assert len(cards_in(g, "deck")) == size - 2
    assert g.pending["prompt"] == "Choose an action"


def test_cit_r69_cit_x10_library_and_observatory_draw_three_keep_two():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "library", "observatory")
    hand_of(g, 0)
    until_turn(g, "king")
    temple, church, manor = deck_top(g, "temple", "church", "manor")
    act(g, "Draw districts")
    assert sorted(labels(g)) == ["Church", "Manor", "Temple"]
    act(g, "Manor")
    act(g, "Temple")
    assert sorted(cards_in(g, "hand", 0)) == sorted([manor, temple])
    assert cards_in(g, "deck")[0] == church
    assert g.pending["prompt"] == "Choose an action"


def test_cit_r70_library_built_this_turn_does_not_change_the_draw():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    library = hand_of(g, 0, "library")[0]
    set_gold(g, 0, 6)
    until_turn(g, "king")
    assert "Build a district" not in labels(g)  # building only after the action
    temple, church = deck_top(g, "temple", "church")
    act(g, "Draw districts")
    assert g.pending["prompt"] == "Keep a district"  # keep one: no Library yet
    act(g, "Church")
    act(g, "Build a district")
    act(g, "Library")
    assert library in cards_in(g, "city", 0)
    assert cards_in(g, "hand", 0) == [church]
    assert cards_in(g, "deck")[0] == temple


def test_cit_x10_observatory_with_library_built_this_turn():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "observatory")
    hand_of(g, 0, "library")
    set_gold(g, 0, 6)
    until_turn(g, "king")
    temple, church, manor = deck_top(g, "temple", "church", "manor")
    act(g, "Draw districts")
    act(g, "Temple")  # only one kept
    act(g, "Church")
    act(g, "Build a district")
    act(g, "Library")
    assert types_in(g, "hand", 0) == ["temple"]
    assert set(cards_in(g, "deck")[:2]) == {church, manor}


def test_cit_r71_gates_cost_six_and_score_eight():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    hand_of(g, 0, "dragon_gate")
    city_of(g, 0, "university")
    set_gold(g, 0, 5)
    until_turn(g, "king")
    act(g, "Take 2 gold")
    bank_before = bank(g)
    act(g, "Build a district")
    assert gold(g, 0) == 1 and bank(g) == bank_before + 6
    assert types_in(g, "city", 0) == ["university", "dragon_gate"]
    res = end_game_now(g)
    assert res["parts"][0]["districts"] == 16


def test_cit_r72_school_of_magic_income_colour_but_purple_for_the_bonus():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "manor", "temple", "tavern", "keep", "school_of_magic")  # no military
    until_turn(g, "king")
    before = gold(g, 0)
    act(g, "Take income")
    assert gold(g, 0) == before + 2  # Manor + School of Magic
    res = end_game_now(g)
    assert res["parts"][0]["five_colours"] == 0


def test_cit_x11_school_of_magic_bishop_income_three():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 1, "temple", "church", "school_of_magic")
    until_turn(g, "bishop")
    before = gold(g, 1)
    n = len(g.log)
    act(g, "Take income")
    assert gold(g, 1) == before + 3
    assert "P2 gains 3 gold (Take income)" in texts(g, n)


def test_cit_r73_cit_x12_graveyard_buys_back_the_destroyed_district():
    g = start({0: "King", 1: "Warlord", 2: "Merchant", 3: "Bishop"})
    castle = city_of(g, 0, "castle")[0]
    city_of(g, 3, "graveyard")
    until_turn(g, "warlord")
    act(g, "Take 2 gold")
    set_gold(g, 1, 4)
    set_gold(g, 3, 2)
    act(g, "End turn")
    bank_before = bank(g)
    destroy(g, castle)
    assert g.pending["seat"] == 3 and g.pending["prompt"].startswith("Graveyard")
    act(g, "Pay 1 gold and take it")
    assert gold(g, 1) == 1 and gold(g, 3) == 1
    assert bank(g) == bank_before + 3 + 1
    assert castle in cards_in(g, "hand", 3)
    assert castle not in cards_in(g, "deck")


def test_cit_r73_graveyard_may_decline_and_needs_gold():
    g = start({0: "King", 1: "Warlord", 2: "Merchant", 3: "Bishop"})
    castle = city_of(g, 0, "castle")[0]
    city_of(g, 3, "graveyard")
    until_turn(g, "warlord")
    act(g, "Take 2 gold")
    act(g, "End turn")
    h = g.copy()
    destroy(h, castle)
    act(h, "Let it go", 3)
    assert cards_in(h, "deck")[0] == castle
    # without gold the owner is not asked
    set_gold(g, 3, 0)
    destroy(g, castle)
    assert not (g.pending and g.pending["prompt"].startswith("Graveyard"))
    assert cards_in(g, "deck")[0] == castle


def test_cit_x12_graveyard_of_the_warlord_holder_does_not_work():
    g = start({0: "King", 1: "Merchant", 2: "Bishop", 3: "Warlord"})
    castle = city_of(g, 0, "castle")[0]
    city_of(g, 3, "graveyard")
    warlord_end(g, 3, gold_at_end=4)
    destroy(g, castle)
    assert not (g.pending and g.pending["prompt"].startswith("Graveyard"))
    assert cards_in(g, "deck")[0] == castle
    assert gold(g, 3) == 1


def test_cit_r74_graveyard_cannot_recover_itself_or_other_discards():
    g = start({0: "King", 1: "Warlord", 2: "Merchant", 3: "Architect"})
    grave = city_of(g, 3, "graveyard")[0]
    until_turn(g, "warlord")
    act(g, "Take 2 gold")
    set_gold(g, 1, 6)
    set_gold(g, 3, 3)
    act(g, "End turn")
    destroy(g, grave)
    assert not (g.pending and g.pending["prompt"].startswith("Graveyard"))
    assert cards_in(g, "deck")[0] == grave
    assert gold(g, 3) == 3
    # a card put under the deck by a Laboratory is not a destruction
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "laboratory")
    city_of(g, 3, "graveyard")
    temple = hand_of(g, 0, "temple")[0]
    until_turn(g, "king")
    act(g, next(l for l in labels(g) if "(Laboratory)" in l))
    assert cards_in(g, "deck")[0] == temple
    assert g.pending["seat"] == 0 and g.pending["prompt"] == "Choose an action"


def test_cit_r75_district_abilities_reset_each_character_turn():
    g = new_game(players=2, seed=2)
    open_draft(g)
    wanted = {0: ["King", "Warlord"], 1: ["Bishop", "Merchant"]}
    keep = {n for v in wanted.values() for n in v}
    while g.state["phase"] == "selection":
        p = g.pending
        if p["prompt"].startswith("Keep"):
            act(g, wanted[p["seat"]].pop(0), p["seat"])
        else:
            g.answer(next(i for i, l in enumerate(p["labels"]) if l not in keep))
    city_of(g, 0, "laboratory")
    hand_of(g, 0, "temple", "church", "manor")
    for char in ("king", "warlord"):
        until_turn(g, char)
        assert seat_to_move(g) == 0
        before = gold(g, 0)
        act(g, next(l for l in labels(g) if "(Laboratory)" in l))
        act(g, labels(g)[0])
        assert gold(g, 0) == before + 1
        assert not any("(Laboratory)" in l for l in labels(g))
        act(g, "Take 2 gold")
        act(g, "End turn")
        if g.pending and g.pending["prompt"].startswith("Destroy"):
            act(g, "none")
    assert len(cards_in(g, "hand", 0)) == 1


# ====================================================================== scoring
def test_cit_r86_districts_score_their_score_value():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "temple", "dragon_gate", "university", "palace")
    city_of(g, 1, "castle", "harbor")
    res = end_game_now(g)
    assert res["parts"][0]["districts"] == 1 + 8 + 8 + 5
    assert res["parts"][1]["districts"] == 8
    assert res["parts"][2]["districts"] == 0


def test_cit_r87_five_colours_bonus_and_lost_colour():
    g = start({0: "Warlord", 1: "Merchant", 2: "King", 3: "Architect"})
    tower = city_of(g, 1, "temple", "watchtower", "manor", "tavern", "keep")[1]
    city_of(g, 2, "temple", "watchtower", "manor", "tavern", "market")  # no purple
    g.state["vars"]["final_round"] = True
    warlord_end(g, 0)
    kept = g.copy()
    kept.answer(kept.pending["labels"].index("none"))
    play_out(kept, passive)
    assert kept.result["parts"][1]["five_colours"] == 3
    assert kept.result["parts"][2]["five_colours"] == 0
    destroy(g, tower)  # the only military district, before the end
    play_out(g, passive)
    assert g.result["parts"][1]["five_colours"] == 0
    assert g.result["parts"][1]["districts"] == 1 + 3 + 1 + 3


def test_cit_r88_highest_total_wins_and_ties_share():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "palace")
    city_of(g, 2, "palace")
    h = g.copy()
    res = end_game_now(g)
    assert res["scores"] == [5, 0, 5, 0]
    assert res["winners"] == [0, 2]
    assert "Winners: P1, P3" in texts(g)
    city_of(h, 2, "temple")
    res = end_game_now(h)
    assert res["winners"] == [2]
    assert "Winner: P3" in texts(h)


def test_cit_r89_score_is_reported_in_named_parts():
    g = start({0: "King", 1: "Bishop", 2: "Merchant", 3: "Architect"})
    city_of(g, 0, "temple", "watchtower", "manor", "tavern", "keep")
    g.state["counters"]["completion"][0] = 4
    res = end_game_now(g)
    assert all(set(p) == {"districts", "five_colours", "completion"} for p in res["parts"])
    assert res["parts"][0] == {"districts": 9, "five_colours": 3, "completion": 4}
    assert res["scores"][0] == 16
    assert "P1 scores 16 (districts 9, five_colours 3, completion 4)" in texts(g)


def test_cit_x14_scoring_example():
    g = start({0: "King", 1: "Merchant", 2: "Bishop", 3: "Magician"})
    city_of(g, 0, "temple", "watchtower", "manor", "tavern", "market", "dragon_gate", "haunted_city")
    hand_of(g, 0, "castle")
    set_gold(g, 0, 2)
    city_of(g, 1, "church", "monastery", "prison", "battlefield", "docks", "harbor", "trading_post")
    hand_of(g, 1, "manor")
    set_gold(g, 1, 1)
    until_turn(g, "king")
    act(g, "Take 2 gold")
    n = len(g.log)
    act(g, "Build a district")
    assert g.state["vars"]["final_round"] is True
    assert "P1 gains 4 completion bonus" in texts(g, n)
    until_turn(g, "merchant")
    act(g, "Take 2 gold")
    n = len(g.log)
    act(g, "Build a district")
    assert "P2 gains 2 completion bonus" in texts(g, n)
    play_out(g, passive)
    res = g.result
    assert res["rounds"] == 1
    assert res["parts"][0] == {"districts": 22, "five_colours": 3, "completion": 4}
    assert res["scores"][0] == 29
    assert res["parts"][1] == {"districts": 22, "five_colours": 0, "completion": 2}
    assert res["winners"] == [0]
    assert "P1 scores 29 (districts 22, five_colours 3, completion 4)" in texts(g)
