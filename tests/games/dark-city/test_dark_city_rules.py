"""Dark City rule tests: one test per rule DC-R1 .. DC-R86 and per worked example DC-X1 .. DC-X26.

Rule ids follow shared/reference/citadels.md, section "Dark City expansion (DC)". Each test builds a
situation with tests/support.py on a game played ``--with dark-city`` (4 players, seed 2 unless
said otherwise), with every rank fixed by option (the base character unless the test names the Dark
City one) and no bonus district shuffled in, so the deck and the crown are those of the base tests;
it drives the turns by label and checks the outcome.
"""

from __future__ import annotations

import pytest
from support import *

from mason.errors import MasonError
from mason.session.game import Game

DC = ("dark-city",)
BASE = {1: "assassin", 2: "thief", 3: "magician", 4: "king", 5: "bishop", 6: "merchant", 7: "architect", 8: "warlord"}
RANK = {
    "witch": 1,
    "tax_collector": 2,
    "wizard": 3,
    "emperor": 4,
    "abbot": 5,
    "alchemist": 6,
    "navigator": 7,
    "diplomat": 8,
    **{v: k for k, v in BASE.items()},
}
BONUS = [
    "lighthouse",
    "armory",
    "museum",
    "imperial_treasury",
    "map_room",
    "wishing_well",
    "quarry",
    "poor_house",
    "bell_tower",
    "factory",
    "park",
    "hospital",
    "throne_room",
    "ball_room",
]


# ====================================================================== building a situation
def options(ranks=(), rank9="none", bonus=0, **extra) -> dict:
    opts = {f"rank{r}": c for r, c in BASE.items()}
    for c in ranks:
        opts[f"rank{RANK[c]}"] = c
    opts.update({"rank9": rank9, "bonus_districts": bonus, **extra})
    return opts


def dc_game(players=4, seed=2, ranks=(), rank9="none", bonus=0, variants=(), **extra) -> Game:
    opts = options(ranks, rank9, bonus, **extra)
    return new_game("citadels", players, seed, variants=variants, expansions=DC, options=opts.items())


def start(picks: dict, players=4, seed=2, ranks=(), rank9=None, **kw) -> Game:
    """A Dark City game with every character in the draft, each seat keeping ``picks[seat]``.

    The Dark City characters named in ``picks`` (and in ``ranks``) are the ones in use.
    """
    names = {v: k for k, v in NAMES.items()}
    wanted = [names[x] for v in picks.values() for x in ([v] if isinstance(v, str) else v)]
    ranks = tuple(ranks) + tuple(c for c in wanted if c in RANK)
    if rank9 is None:
        rank9 = next((c for c in wanted if c in ("artist", "queen")), "none" if players < 8 else "random")
    g = dc_game(players, seed, ranks, rank9, **kw)
    open_draft(g)
    pick(g, picks)
    return g


NAMES = {
    "assassin": "Assassin",
    "thief": "Thief",
    "magician": "Magician",
    "king": "King",
    "bishop": "Bishop",
    "merchant": "Merchant",
    "architect": "Architect",
    "warlord": "Warlord",
    "witch": "Witch",
    "tax_collector": "Tax Collector",
    "wizard": "Wizard",
    "emperor": "Emperor",
    "abbot": "Abbot",
    "alchemist": "Alchemist",
    "navigator": "Navigator",
    "diplomat": "Diplomat",
    "artist": "Artist",
    "queen": "Queen",
}

PASSIVE = (
    "End turn",
    "Take 2 gold",
    "none",
    "Let it go",
    "Thank the crown holder",
    "Do not draw",
    "Keep it in hand",
    "Give 1 gold",
)


def passive(g) -> int:
    """A do-nothing agent: end the turn when allowed, else take 2 gold; decline optional choices."""
    labels_ = g.pending["labels"]
    for pref in PASSIVE:
        if pref in labels_:
            return labels_.index(pref)
    return 0


def refresh(g) -> None:
    """Recompute the pending decision after the test edited the state (action windows too)."""
    fr = g.state["stack"][-1]
    if fr["kind"] == "turn":
        from mason.runtime.turns import action_label, window_options

        opts = window_options(g.rt, fr)
        g.state["pending"]["options"] = opts
        g.state["pending"]["labels"] = [action_label(g.rt, fr, k) for k in opts]
    else:
        refresh_pending(g)


def turn_seat(g):
    return g.rt.turn_seat()


def turn_type(g):
    c = g.rt.turn_card()
    return None if c is None else g.state["cards"][c]["t"]


def until_turn(g, type_id, seat=None) -> None:
    """Answer passively until ``type_id``'s turn (played by ``seat`` if given) asks for an action."""
    for _ in range(2000):
        p = g.pending
        if p and p["kind"] == "action" and turn_type(g) == type_id and (seat is None or turn_seat(g) == seat):
            refresh(g)
            return
        assert not g.over, f"the game ended before {type_id}'s turn"
        g.answer(passive(g))
    raise AssertionError(f"no turn for {type_id}")


def until_prompt(g, prompt: str) -> None:
    answer_until(g, prompt, passive)


def finish_turn(g) -> None:
    """Answer passively until the current turn is over."""
    ti = g.state["ti"]
    frame = g.state["stack"][ti]
    while g.pending and g.state["ti"] == ti and g.state["stack"][ti] is frame:
        g.answer(passive(g))


def texts(g, start_at: int = 0) -> list[str]:
    return [e["text"] for e in g.log[start_at:] if "text" in e]


def city_of(g, seat, *type_ids) -> list[int]:
    return [give(g, seat, t, "city") for t in type_ids]


def hand_of(g, seat, *type_ids) -> list[int]:
    clear_hand(g, seat)
    return [give(g, seat, t, "hand") for t in type_ids]


def crown(g):
    return g.state["vars"]["crown"]


def set_crown(g, seat) -> None:
    g.state["vars"]["crown"] = seat


def value(g, name, *args, me=None):
    return g.rt.value(name, tuple(args), {"me": me})


def card(g, c):
    return g.state["cards"][c]


def in_use(g) -> list[str]:
    return [card(g, c)["t"] for c in g.program.family_cards["character"] if card(g, c)["z"] != "box"]


def districts_in_play(g) -> list[str]:
    return [card(g, c)["t"] for c in g.program.family_cards["district"] if card(g, c)["z"] != "box"]


def total_gold(g) -> int:
    return bank(g) + sum(g.state["counters"]["gold"]) + g.state["counters"]["card_gold"]


def end_game_now(g) -> dict:
    g.state["vars"]["final_round"] = True
    play_out(g, passive)
    return g.result


def score_parts(g, seat) -> dict:
    """The final score parts of ``seat`` as they stand now (computed on a copy)."""
    from mason.runtime.turns import finish

    h = g.copy()
    h.rt.log = None
    h.rt.narrate = False
    finish(h.rt)
    return h.result["parts"][seat]


def options_of(g) -> set[int]:
    return {o for o in g.pending["options"] if o is not None}


def choose_card(g, c) -> None:
    g.answer(g.pending["options"].index(c))


# ====================================================================== package and setup
def test_dc_r1_ten_characters_and_fourteen_districts_become_available():
    g = dc_game(bonus_district_ids=BONUS)
    types = g.program.types
    for cid in (
        "witch",
        "tax_collector",
        "wizard",
        "emperor",
        "abbot",
        "alchemist",
        "navigator",
        "diplomat",
        "artist",
        "queen",
    ):
        assert types[cid]["family"] == "character"
    assert sorted(g.program.sets["dark_city_districts"]) == sorted(BONUS)
    assert all(types[d]["colour"] == "special" for d in BONUS)
    assert sorted(d for d in districts_in_play(g) if d in BONUS) == sorted(BONUS)


def test_dc_r2_exactly_one_character_per_rank():
    for seed in range(1, 25):
        g = dc_game(seed=seed, ranks=(), **{f"rank{r}": "random" for r in range(1, 9)})
        ranks = sorted(g.program.types[t]["rank"] for t in in_use(g))
        assert ranks == list(range(1, 9)), (seed, in_use(g))


def test_dc_r3_character_per_rank_is_an_option_random_by_default():
    g = dc_game(rank3="wizard")
    assert "wizard" in in_use(g) and "magician" not in in_use(g)
    seen = set()
    for seed in range(1, 30):
        h = new_game("citadels", 4, seed, expansions=DC)
        seen |= set(in_use(h))
        again = new_game("citadels", 4, seed, expansions=DC)
        assert in_use(again) == in_use(h)  # seeded
    assert {"witch", "assassin", "wizard", "magician", "emperor", "king", "diplomat", "warlord"} <= seen
    with pytest.raises(MasonError) as exc:
        dc_game(rank3="wizzard")
    assert exc.value.code == "play/failed" and "rank3" in exc.value.message


def test_dc_r4_the_random_rank_nine_pick_is_narrated_by_the_characters_name():
    # DC-D3: the setup draws none, the Artist or the Queen; the narration names the character
    # ("at random: Queen"), not its id ("at random: queen") (issue 28, narration)
    drawn = set()
    for seed in range(1, 13):
        g = dc_game(players=5, seed=seed, rank9="random")
        drawn |= {t for t in texts(g) if t.startswith("at random: ") and t[11:].lower() in ("none", "artist", "queen")}
    assert {"at random: Artist", "at random: Queen"} <= drawn and not drawn & {"at random: artist", "at random: queen"}


def test_dc_r4_rank_nine_only_with_five_players_and_required_at_eight():
    assert not {"artist", "queen"} & set(in_use(new_game("citadels", 4, 1, expansions=DC)))
    with pytest.raises(MasonError) as exc:
        dc_game(players=4, rank9="queen")
    assert "5 or more players" in exc.value.message
    assert "queen" in in_use(dc_game(players=5, rank9="queen"))
    assert not {"artist", "queen"} & set(in_use(dc_game(players=5, rank9="none")))
    with pytest.raises(MasonError):
        dc_game(players=8, rank9="none")
    for seed in range(1, 15):
        g = new_game("citadels", 8, seed, expansions=DC)
        assert len({"artist", "queen"} & set(in_use(g))) == 1
        assert len(in_use(g)) == 9


def test_dc_r5_up_to_three_bonus_districts_are_shuffled_in():
    seen = set()
    for seed in range(1, 12):  # default: 3 drawn at random
        g = new_game("citadels", 4, seed, expansions=DC, options=(("rank1", "assassin"), ("rank8", "warlord")))
        bonus = [d for d in districts_in_play(g) if d in BONUS]
        assert len(bonus) == 3 and len(districts_in_play(g)) == 69
        seen |= set(bonus)
    assert len(seen) > 6
    g = dc_game(bonus_district_ids=["park", "museum"])
    assert sorted(d for d in districts_in_play(g) if d in BONUS) == ["museum", "park"]
    assert len(districts_in_play(g)) == 68


def test_dc_r6_more_than_three_bonus_districts_replace_base_ones():
    g = dc_game(bonus=5)
    in_play = districts_in_play(g)
    assert len(in_play) == 66 and len([d for d in in_play if d in BONUS]) == 5
    purples = [t for t in g.program.types if g.program.types[t].get("colour") == "special" and t not in BONUS]
    assert sum(1 for d in in_play if d in purples) == 12 - 5  # random base purples removed
    g = dc_game(bonus=4, removed_districts=["temple", "temple", "manor", "tavern"])
    in_play = districts_in_play(g)
    assert len(in_play) == 66 and in_play.count("temple") == 1 and in_play.count("manor") == 4
    with pytest.raises(MasonError):
        dc_game(bonus=4, removed_districts=["temple"] * 5)


def test_dc_r7_witch_removes_hospital_and_diplomat_removes_graveyard():
    g = dc_game(ranks=("witch", "diplomat"), bonus=14)
    in_play = districts_in_play(g)
    assert "hospital" not in in_play and "graveyard" not in in_play
    assert len([d for d in in_play if d in BONUS]) == 13
    g = dc_game(bonus=14)
    assert "hospital" in districts_in_play(g)
    with pytest.raises(MasonError) as exc:
        dc_game(ranks=("witch",), bonus_district_ids=["hospital"])
    assert "hospital" in exc.value.message


def test_dc_r8_emperor_is_never_a_face_up_discard():
    for seed in range(1, 40):
        g = dc_game(seed=seed, ranks=("emperor",))
        face_up = [card(g, c)["t"] for c in cards_in(g, "face_up")]
        assert len(face_up) == 2 and "emperor" not in face_up


@pytest.mark.parametrize("players,face_up", [(5, 2), (6, 1), (7, 0), (8, 0)])
def test_dc_r9_face_up_discards_with_nine_characters(players, face_up):
    g = dc_game(players=players, rank9="queen")
    assert len(cards_in(g, "face_up")) == face_up and len(cards_in(g, "face_down")) == 1
    # the last player chooses from 2 cards (at 8 players: the last card and the face-down one)
    while g.state["phase"] == "selection":
        last = len(cards_in(g, "draft"))
        g.answer(0)
    assert last == 2
    assert sum(len(cards_in(g, "chosen", s)) for s in range(players)) == players


def test_dc_r10_three_players_remove_the_rank_one_character_in_use():
    g = dc_game(players=3, ranks=("witch",))
    assert "witch" not in in_use(g) and "assassin" not in in_use(g)
    assert sorted(g.program.types[t]["rank"] for t in in_use(g)) == list(range(2, 9))


def test_dc_r11_emperor_abbot_and_diplomat_take_colour_income():
    g = start({0: "Emperor", 1: "Abbot", 2: "Diplomat", 3: "Merchant"})
    city_of(g, 0, "manor", "castle", "school_of_magic")
    city_of(g, 1, "temple", "church")
    city_of(g, 2, "watchtower")
    for seat, type_id, income in ((0, "emperor", 3), (1, "abbot", 2), (2, "diplomat", 1)):
        until_turn(g, type_id)
        before = gold(g, seat)
        act(g, "Take income", seat)
        assert gold(g, seat) - before == income


# ====================================================================== Witch
def witch_names(g, seat, target: str) -> None:
    """At the Witch's turn: take 2 gold and bewitch ``target`` (a character name)."""
    until_turn(g, "witch", seat)
    act(g, "Take 2 gold", seat)
    act(g, "Bewitch a character", seat)
    act(g, target, seat)


def test_dc_r12_witch_bewitches_after_her_action_and_her_turn_ends():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "witch")
    assert not any(l.startswith("Bewitch") for l in labels(g))  # only after the action
    h = g.copy()
    act(g, "Take 2 gold", 0)
    assert "Bewitch a character (ends your turn)" in labels(g)
    act(g, "Bewitch a character", 0)
    assert g.pending["prompt"] == "Bewitch which character?" and "Witch" not in labels(g)
    act(g, "Merchant", 0)
    assert card(g, card_of(g, "merchant"))["bewitched"] and g.state["vars"]["witch_seat"] == 0
    assert any(e.get("text") == "P1 bewitches the Merchant." and e.get("to") is None for e in g.log)
    assert turn_type(g) != "witch"  # no End turn question
    # anything else must come before: once she has built, she can no longer bewitch
    hand_of(h, 0, "temple", "church")
    city_of(h, 0, "laboratory")
    refresh(h)
    act(h, "Take 2 gold", 0)
    act(h, "Build a district", 0)
    act(h, "Temple", 0)
    assert turn_type(h) == "witch" and "End turn" in labels(h)
    assert not any(l.startswith("Bewitch") for l in labels(h))


def test_dc_r13_witch_naming_no_one_plays_a_normal_turn():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"})
    hand_of(g, 0, "temple")
    until_turn(g, "witch")
    act(g, "Take 2 gold", 0)
    act(g, "Build a district", 0)
    assert types_in(g, "city", 0) == ["temple"]  # the turn ends by itself
    until_turn(g, "merchant")
    assert turn_seat(g) == 2 and "Take 1 extra gold" not in labels(g)  # a normal Merchant turn
    act(g, "Take 2 gold", 2)
    assert "Take 1 extra gold" in labels(g)


def test_dc_r14_bewitched_holder_only_takes_the_action():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"})
    city_of(g, 2, "market", "library")
    witch_names(g, 0, "Merchant")
    until_turn(g, "merchant", 2)
    assert labels(g) == ["Take 2 gold", "Draw districts"]  # no income, power or building
    assert card(g, card_of(g, "merchant"))["up"]  # revealed
    hand_of(g, 2)
    act(g, "Draw districts", 2)
    g.answer(0)
    assert len(cards_in(g, "hand", 2)) == 2  # the Library applies
    assert turn_seat(g) == 0 and turn_type(g) == "merchant"  # the turn ended at once


def test_dc_r15_witch_plays_the_rest_of_the_bewitched_turn():
    g = start({0: "Witch", 1: "King", 2: "Architect", 3: "Warlord"})
    witch_names(g, 0, "Architect")
    until_turn(g, "architect", 2)
    act(g, "Take 2 gold", 2)
    assert turn_seat(g) == 0 and turn_type(g) == "architect"
    assert "Take 2 gold" not in labels(g) and "Draw districts" not in labels(g)  # no second action
    hand_of(g, 0, "temple", "church", "tavern")
    set_gold(g, 0, 9)
    refresh(g)
    act(g, "Draw 2 extra districts", 0)
    assert len(cards_in(g, "hand", 0)) == 5
    for _ in range(3):  # the Architect's 3 builds
        act(g, "Build a district", 0)
        g.answer(0)
    assert len(cards_in(g, "city", 0)) == 3 and cards_in(g, "city", 2) == []
    assert "Build a district" not in labels(g)


def test_dc_r16_bewitched_standing_effects_belong_to_the_witch():
    g = start({0: "Witch", 1: "Bishop", 2: "Merchant", 3: "Warlord"})
    city_of(g, 0, "temple")
    city_of(g, 1, "church")
    witch_names(g, 0, "Bishop")
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    act(g, "End turn", 3)
    assert g.pending["prompt"] == "Destroy a district?"
    targets = options_of(g)
    assert cards_in(g, "city", 1)[0] in targets and cards_in(g, "city", 0)[0] not in targets
    # a bewitched Tax Collector collects for the Witch
    g = start({0: "Witch", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    witch_names(g, 0, "Tax Collector")
    until_turn(g, "merchant", 2)
    assert g.state["vars"]["tax_to"] == 0


def test_dc_r17_bewitched_king_holder_still_takes_the_crown():
    g = start({0: "Witch", 1: "Bishop", 2: "King", 3: "Warlord"})
    set_crown(g, 1)
    witch_names(g, 0, "King")
    until_turn(g, "king", 2)
    assert crown(g) == 2
    act(g, "Take 2 gold", 2)
    assert turn_seat(g) == 0 and crown(g) == 2


def test_dc_r18_bewitched_emperor_the_witch_moves_the_crown_and_takes_the_fee():
    g = start({0: "Witch", 1: "Bishop", 2: "Emperor", 3: "Warlord"})
    set_crown(g, 1)
    witch_names(g, 0, "Emperor")
    until_turn(g, "emperor", 2)
    assert crown(g) == 1  # the holder moves nothing
    act(g, "Take 2 gold", 2)
    assert g.pending["prompt"] == "Give the crown to whom?" and g.pending["seat"] == 0
    assert labels(g) == ["P3", "P4"]  # not the crown holder, not her
    act(g, "P4", 0)
    before = gold(g, 0)
    act(g, "Give 1 gold", 3)
    assert crown(g) == 3 and gold(g, 0) == before + 1


def test_dc_r19_bewitched_navigator_witch_taking_four_cannot_build():
    g = start({0: "Witch", 1: "Bishop", 2: "Navigator", 3: "Warlord"})
    witch_names(g, 0, "Navigator")
    until_turn(g, "navigator", 2)
    act(g, "Take 2 gold", 2)
    hand_of(g, 0, "temple")
    refresh(g)
    assert "Build a district" in labels(g)
    act(g, "Gain 4 gold or draw 4 districts", 0)
    act(g, "Gain 4 gold", 0)
    assert "Build a district" not in labels(g)


def test_dc_r20_witch_does_not_resume_an_unheld_character():
    g = start({0: "Witch", 1: "Bishop", 2: "King", 3: "Warlord"})
    n = len(g.log)
    witch_names(g, 0, "Merchant")  # nobody holds it
    until_turn(g, "warlord", 3)
    turns = [e["text"] for e in g.log[n:] if e.get("turn")]
    assert "-- P3 plays as King --" in turns and not any("Merchant" in t for t in turns)


def test_dc_r21_thief_may_name_neither_the_witch_nor_the_bewitched():
    g = start({0: "Witch", 1: "Thief", 2: "King", 3: "Warlord"})
    witch_names(g, 0, "King")
    until_turn(g, "thief")
    act(g, "Rob a character", 1)
    assert "Witch" not in labels(g) and "King" not in labels(g) and "Thief" not in labels(g)
    assert "Warlord" in labels(g)


def test_dc_r22_bewitched_queen_seat_test_uses_the_witch_seat():
    # 6 players: the Witch at seat 0 sits next to the King's holder (seat 1); the Queen's holder does not
    g = start({0: "Witch", 1: "King", 2: "Bishop", 3: "Queen", 4: "Merchant", 5: "Warlord"}, players=6)
    witch_names(g, 0, "Queen")
    until_turn(g, "queen", 3)
    before = gold(g, 3)
    act(g, "Take 2 gold", 3)
    assert gold(g, 3) == before + 2  # no +3 for the holder
    assert turn_seat(g) == 0
    assert any(e.get("text") == "P1 gains 3 gold (Queen)" for e in g.log[-6:])


def test_dc_r23_end_of_turn_districts_work_after_both_witch_turns():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"})
    city_of(g, 0, "poor_house")
    until_turn(g, "witch", 0)
    act(g, "Take 2 gold", 0)
    set_gold(g, 0, 0)
    act(g, "Bewitch a character", 0)
    act(g, "Merchant", 0)
    assert gold(g, 0) == 1  # Poor House after her own turn
    until_turn(g, "merchant", 0)
    set_gold(g, 0, 0)
    refresh(g)
    act(g, "End turn", 0)
    assert gold(g, 0) == 1  # and after the resumed one


# ====================================================================== Tax Collector
def build(g, seat, name) -> None:
    act(g, "Build a district", seat)
    if g.pending and g.pending["prompt"] == "Build which district?":
        act(g, name, seat)


def test_dc_r24_builders_pay_the_tax_collector_at_the_end_of_their_turn():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "tax_collector", 1)
    assert g.state["vars"]["tax_to"] == 1
    hand_of(g, 1, "temple")
    refresh(g)
    act(g, "Take 2 gold", 1)
    before = gold(g, 1)
    build(g, 1, "Temple")  # the collector pays no tax
    assert gold(g, 1) == before - 1
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "tavern", "market")
    set_gold(g, 2, 2)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Tavern")
    p2, p3 = gold(g, 1), gold(g, 2)
    act(g, "End turn", 2)
    assert (gold(g, 1), gold(g, 2)) == (p2 + 1, p3 - 1)
    until_turn(g, "warlord", 3)  # no build, no tax
    p2 = gold(g, 1)
    act(g, "Take 2 gold", 3)
    act(g, "End turn", 3)
    finish_turn(g)
    assert gold(g, 1) == p2


def test_dc_r25_at_most_one_gold_of_tax_per_turn():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Architect", 3: "Warlord"})
    until_turn(g, "architect", 2)
    hand_of(g, 2, "temple", "tavern", "watchtower")
    set_gold(g, 2, 5)
    refresh(g)
    act(g, "Take 2 gold", 2)
    for name in ("Temple", "Tavern", "Watchtower"):
        build(g, 2, name)
    p2, p3 = gold(g, 1), gold(g, 2)
    finish_turn(g)
    assert (gold(g, 1), gold(g, 2)) == (p2 + 1, p3 - 1)


def test_dc_r26_assassin_who_built_pays_when_the_tax_collector_is_revealed():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "assassin", 0)
    hand_of(g, 0, "manor")
    set_gold(g, 0, 2)
    refresh(g)
    act(g, "Take 2 gold", 0)
    build(g, 0, "Manor")
    p1 = gold(g, 0)
    finish_turn(g)
    until_turn(g, "tax_collector", 1)
    assert gold(g, 0) == p1 - 1


def test_dc_r27_witch_pays_on_reveal_if_she_built_or_after_her_resumed_turn():
    g = start({0: "Witch", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "witch", 0)
    hand_of(g, 0, "manor")
    refresh(g)
    act(g, "Take 2 gold", 0)
    build(g, 0, "Manor")  # no bewitching: a normal turn, 4 - 3 = 1 gold left
    until_turn(g, "tax_collector", 1)
    assert gold(g, 0) == 0
    g = start({0: "Witch", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    witch_names(g, 0, "Merchant")
    p1 = gold(g, 0)
    until_turn(g, "tax_collector", 1)
    assert gold(g, 0) == p1  # she did not build
    until_turn(g, "merchant", 0)
    hand_of(g, 0, "temple")
    refresh(g)
    build(g, 0, "Temple")
    p1, p2 = gold(g, 0), gold(g, 1)
    act(g, "End turn", 0)
    assert (gold(g, 0), gold(g, 1)) == (p1 - 1, p2 + 1)


def test_dc_r28_murdered_tax_collector_collects_nothing():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "assassin", 0)
    act(g, "Murder a character", 0)
    act(g, "Tax Collector", 0)
    finish_turn(g)
    until_turn(g, "merchant", 2)
    assert g.state["vars"]["tax_to"] is None
    hand_of(g, 2, "tavern")
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Tavern")
    p2 = gold(g, 1)
    finish_turn(g)
    assert gold(g, 1) == p2


def test_dc_x14_tax_before_the_poor_house():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "merchant", 2)
    city_of(g, 2, "poor_house")
    hand_of(g, 2, "tavern")
    set_gold(g, 2, 0)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Tavern")  # 1 gold left
    assert gold(g, 2) == 1
    n = len(g.log)
    act(g, "End turn", 2)
    assert gold(g, 2) == 1
    said = texts(g, n)
    assert said.index("P3 gives 1 gold to P2") < said.index("P3 gains 1 gold (Poor House)")


def test_dc_x15_tax_and_the_assassin():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Merchant", 3: "Warlord"})
    until_turn(g, "assassin", 0)
    hand_of(g, 0, "manor")
    set_gold(g, 0, 3)
    refresh(g)
    act(g, "Take 2 gold", 0)
    build(g, 0, "Manor")
    assert gold(g, 0) == 2
    finish_turn(g)
    until_turn(g, "tax_collector", 1)
    assert gold(g, 0) == 1


def test_dc_x16_tax_once_per_turn():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Architect", 3: "Warlord"})
    until_turn(g, "architect", 2)
    hand_of(g, 2, "manor", "castle", "harbor")
    set_gold(g, 2, 9)
    refresh(g)
    act(g, "Take 2 gold", 2)
    for name in ("Manor", "Castle", "Harbor"):
        build(g, 2, name)
    assert gold(g, 2) == 0
    set_gold(g, 2, 3)
    p2 = gold(g, 1)
    finish_turn(g)
    assert gold(g, 1) == p2 + 1 and gold(g, 2) == 2


# ====================================================================== Wizard
def test_dc_r29_wizard_takes_one_card_from_another_hand():
    g = start({0: "Assassin", 1: "Thief", 2: "Wizard", 3: "Warlord"})
    until_turn(g, "wizard", 2)
    hand_of(g, 0)
    hand_of(g, 1, "palace", "temple")
    refresh(g)
    act(g, "Take a card from another player's hand", 2)
    assert g.pending["prompt"] == "Look at whose hand?" and "P1" not in labels(g)  # an empty hand gives nothing
    act(g, "P2", 2)
    assert sorted(labels(g)) == ["Palace (P2's hand)", "Temple (P2's hand)"]  # the whole hand is shown
    act(g, "Palace", 2)
    assert types_in(g, "hand", 1) == ["temple"] and "palace" in types_in(g, "hand", 2)


def wizard_takes(g, seat_label, card_label) -> None:
    act(g, "Take a card from another player's hand", 2)
    act(g, seat_label, 2)
    if g.pending["prompt"] == "Take which card?":
        act(g, card_label, 2)


def test_dc_r30_wizard_may_build_the_taken_card_at_once_without_using_the_build():
    g = start({0: "Assassin", 1: "Thief", 2: "Wizard", 3: "Warlord"})
    until_turn(g, "wizard", 2)
    hand_of(g, 1, "castle")
    hand_of(g, 2, "temple")
    set_gold(g, 2, 9)
    refresh(g)
    h = g.copy()
    wizard_takes(h, "P2", "Castle")  # before the action: hand only
    assert "castle" in types_in(h, "hand", 2) and h.pending["kind"] == "action"
    act(g, "Take 2 gold", 2)
    wizard_takes(g, "P2", "Castle")
    act(g, "Build it now", 2)
    assert types_in(g, "city", 2) == ["castle"] and gold(g, 2) == 7
    build(g, 2, "Temple")  # the normal build remains
    assert sorted(types_in(g, "city", 2)) == ["castle", "temple"]


def test_dc_r31_wizard_may_build_duplicates():
    g = start({0: "Assassin", 1: "Thief", 2: "Wizard", 3: "Warlord"})
    until_turn(g, "wizard", 2)
    city_of(g, 2, "manor")
    hand_of(g, 2, "manor")
    set_gold(g, 2, 3)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Manor")
    assert types_in(g, "city", 2) == ["manor", "manor"]
    # another character may not
    until_turn(g, "warlord", 3)
    city_of(g, 3, "temple")
    hand_of(g, 3, "temple")
    refresh(g)
    act(g, "Take 2 gold", 3)
    assert "Build a district" not in labels(g)


def test_dc_x20_wizard_duplicates():
    g = start({0: "Assassin", 1: "Thief", 2: "Wizard", 3: "Warlord"})
    until_turn(g, "wizard", 2)
    city_of(g, 2, "manor")
    hand_of(g, 2, "manor")
    hand_of(g, 1, "manor")
    set_gold(g, 2, 7)
    refresh(g)
    act(g, "Take 2 gold", 2)
    wizard_takes(g, "P2", "Manor")
    act(g, "Build it now", 2)
    assert types_in(g, "city", 2) == ["manor", "manor"] and gold(g, 2) == 6
    assert "Build a district" in labels(g)  # not counted
    build(g, 2, "Manor")
    assert types_in(g, "city", 2) == ["manor"] * 3 and gold(g, 2) == 3


# ====================================================================== Emperor
def test_dc_r32_emperor_must_give_the_crown_on_reveal():
    g = start({0: "Assassin", 1: "Thief", 2: "Emperor", 3: "Warlord"})
    set_crown(g, 1)
    until_prompt(g, "Give the crown to whom?")
    assert g.pending["seat"] == 2 and labels(g) == ["P1", "P4"]  # not P2 (crown), not P3
    assert "none" not in labels(g)  # mandatory
    act(g, "P1", 2)
    assert crown(g) == 0


def test_dc_r33_receiver_gives_one_gold_or_one_card_or_nothing():
    g = start({0: "Assassin", 1: "Thief", 2: "Emperor", 3: "Warlord"})
    set_crown(g, 1)
    hand_of(g, 0, "palace")
    set_gold(g, 0, 3)
    until_prompt(g, "Give the crown to whom?")
    act(g, "P1", 2)
    assert g.pending["seat"] == 0 and labels(g) == ["Give 1 gold", "Give 1 card"]
    act(g, "Give 1 card", 0)
    assert "palace" in types_in(g, "hand", 2) and cards_in(g, "hand", 0) == []
    g = start({0: "Assassin", 1: "Thief", 2: "Emperor", 3: "Warlord"})
    set_crown(g, 1)
    until_prompt(g, "Give the crown to whom?")
    hand_of(g, 0)
    set_gold(g, 0, 0)
    before = (gold(g, 2), len(cards_in(g, "hand", 2)))
    act(g, "P1", 2)
    assert crown(g) == 0 and g.pending["kind"] == "action"
    assert (gold(g, 2), len(cards_in(g, "hand", 2))) == before


def test_dc_r34_no_receiver_the_crown_stays():
    g = dc_game(players=2, ranks=("emperor",))
    open_draft(g)
    pick(
        g,
        {1: ["Emperor", "Warlord"], 0: ["Thief", "Merchant"]}
        if crown(g) == 1
        else {0: ["Emperor", "Warlord"], 1: ["Thief", "Merchant"]},
    )
    holder_ = holder(g, "emperor")
    other = 1 - holder_
    set_crown(g, other)
    until_turn(g, "emperor", holder_)
    assert crown(g) == other


def test_dc_r35_murdered_emperor_does_not_move_the_crown():
    g = start({0: "Assassin", 1: "Thief", 2: "Emperor", 3: "Warlord"})
    set_crown(g, 1)
    until_turn(g, "assassin", 0)
    act(g, "Murder a character", 0)
    act(g, "Emperor", 0)
    until_prompt(g, "Keep a character")
    assert crown(g) == 1


def test_dc_x17_emperor_and_throne_room():
    g = start({0: "Assassin", 1: "Emperor", 2: "Bishop", 3: "Warlord"})
    set_crown(g, 0)
    city_of(g, 2, "throne_room")
    set_gold(g, 2, 2)
    until_prompt(g, "Give the crown to whom?")
    assert labels(g) == ["P3", "P4"]
    act(g, "P3", 1)
    assert gold(g, 2) == 3  # Throne Room
    assert labels(g) == ["Give 1 gold", "Give 1 card"] and g.pending["seat"] == 2


# ====================================================================== Abbot
def test_dc_r36_the_strictly_richest_player_gives_the_abbot_one_gold():
    g = start({0: "Assassin", 1: "Thief", 2: "Abbot", 3: "Warlord"})
    until_turn(g, "abbot", 2)
    for s, v in enumerate((3, 7, 1, 2)):
        set_gold(g, s, v)
    refresh(g)
    act(g, "The richest player gives you 1 gold", 2)
    assert gold(g, 1) == 6 and gold(g, 2) == 2
    assert "The richest player gives you 1 gold" not in labels(g)  # once per turn
    h = start({0: "Assassin", 1: "Thief", 2: "Abbot", 3: "Warlord"})
    until_turn(h, "abbot", 2)
    for s, v in enumerate((1, 3, 5, 2)):  # the Abbot is the richest
        set_gold(h, s, v)
    refresh(h)
    assert "The richest player gives you 1 gold" not in labels(h)


def test_dc_r37_abbot_gives_no_protection():
    g = start({0: "Assassin", 1: "Thief", 2: "Abbot", 3: "Warlord"})
    city_of(g, 2, "temple")
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    act(g, "End turn", 3)
    assert cards_in(g, "city", 2)[0] in options_of(g)


def test_dc_x18_abbot_tie():
    g = start({0: "Assassin", 1: "Thief", 2: "Abbot", 3: "Warlord"})
    until_turn(g, "abbot", 2)
    for s, v in enumerate((2, 6, 1, 6)):
        set_gold(g, s, v)
    refresh(g)
    assert "The richest player gives you 1 gold" not in labels(g)
    set_gold(g, 1, 7)
    refresh(g)
    act(g, "The richest player gives you 1 gold", 2)
    assert gold(g, 1) == 6 and gold(g, 2) == 2


# ====================================================================== Alchemist
def test_dc_r38_alchemist_gets_back_the_gold_paid_to_build():
    g = start({0: "Assassin", 1: "Thief", 2: "Alchemist", 3: "Warlord"})
    until_turn(g, "alchemist", 2)
    city_of(g, 2, "smithy", "laboratory")
    hand_of(g, 2, "castle")
    set_gold(g, 2, 4)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Castle")
    act(g, "Pay 2 gold to draw 3 districts", 2)  # not refunded
    assert gold(g, 2) == 0
    act(g, "End turn", 2)
    assert gold(g, 2) == 4


def test_dc_r39_alchemist_builds_only_with_gold_held():
    test_dc_x1_alchemist_four_gold()


def test_dc_r40_alchemist_has_no_bonus_and_no_income():
    g = start({0: "Assassin", 1: "Thief", 2: "Alchemist", 3: "Warlord"})
    city_of(g, 2, "tavern", "market")
    until_turn(g, "alchemist", 2)
    act(g, "Take 2 gold", 2)
    assert "Take income" not in labels(g) and "Take 1 extra gold" not in labels(g)


def test_dc_x1_alchemist_four_gold():
    g = start({0: "Assassin", 1: "Thief", 2: "Alchemist", 3: "Warlord"})
    until_turn(g, "alchemist", 2)
    hand_of(g, 2, "castle", "palace")
    city_of(g, 2, "laboratory")
    set_gold(g, 2, 2)
    refresh(g)
    act(g, "Take 2 gold", 2)
    act(g, "Build a district", 2)  # the Palace (5) is refused:
    assert types_in(g, "city", 2)[-1] == "castle" and "palace" in types_in(g, "hand", 2)  # one choice left
    assert gold(g, 2) == 0 and "Build a district" not in labels(g)
    finish_turn(g)
    assert gold(g, 2) == 4  # refunded only at the end


def test_dc_x2_alchemist_and_tax():
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Alchemist", 3: "Warlord"})
    until_turn(g, "alchemist", 2)
    hand_of(g, 2, "castle", "palace")
    city_of(g, 2, "laboratory")
    set_gold(g, 2, 2)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Castle")
    assert gold(g, 2) == 0
    n = len(g.log)
    finish_turn(g)
    assert gold(g, 2) == 3
    said = texts(g, n)
    assert said.index("P3 gains 4 gold (Alchemist)") < said.index("P3 gives 1 gold to P2")


def test_dc_x26_factory():
    g = start({0: "Assassin", 1: "Thief", 2: "Alchemist", 3: "Warlord"})
    until_turn(g, "alchemist", 2)
    city_of(g, 2, "factory", "laboratory")
    hand_of(g, 2, "library", "temple")
    set_gold(g, 2, 3)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Library")
    assert gold(g, 2) == 0
    finish_turn(g)
    assert gold(g, 2) == 5
    library = cards_in(g, "city", 2)[-1]
    assert value(g, "destroy_cost", library, me=3) == 5


# ====================================================================== Navigator
def test_dc_r41_navigator_gains_four_gold_or_four_cards():
    for choice, gold_gain, cards_gain in (("Gain 4 gold", 4, 0), ("Draw 4 districts", 0, 4)):
        g = start({0: "Assassin", 1: "Thief", 2: "Navigator", 3: "Warlord"})
        until_turn(g, "navigator", 2)
        assert "Gain 4 gold or draw 4 districts (no building)" not in labels(g)
        act(g, "Take 2 gold", 2)
        before = (gold(g, 2), len(cards_in(g, "hand", 2)))
        act(g, "Gain 4 gold or draw 4 districts", 2)
        act(g, choice, 2)
        assert (gold(g, 2), len(cards_in(g, "hand", 2))) == (before[0] + gold_gain, before[1] + cards_gain)


def test_dc_r42_navigator_taking_four_cannot_build():
    test_dc_x19_navigator()
    g = start({0: "Assassin", 1: "Thief", 2: "Navigator", 3: "Warlord"})
    until_turn(g, "navigator", 2)
    hand_of(g, 2, "temple", "church")
    city_of(g, 2, "laboratory")
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Temple")
    assert "Gain 4 gold or draw 4 districts (no building)" not in labels(g)  # only before building


def test_dc_x19_navigator():
    g = start({0: "Assassin", 1: "Thief", 2: "Navigator", 3: "Warlord"})
    until_turn(g, "navigator", 2)
    hand_of(g, 2, "temple")
    refresh(g)
    act(g, "Take 2 gold", 2)
    h = g.copy()
    act(g, "Gain 4 gold or draw 4 districts", 2)
    act(g, "Gain 4 gold", 2)
    assert "Build a district" not in labels(g)
    assert "Build a district" in labels(h)
    build(h, 2, "Temple")
    assert types_in(h, "city", 2) == ["temple"]
    v = start({0: "Assassin", 1: "Thief", 2: "Navigator", 3: "Warlord"}, variants=("faidutti_mandatory_powers",))
    until_turn(v, "navigator", 2)
    hand_of(v, 2, "temple")
    refresh(v)
    act(v, "Take 2 gold", 2)
    assert "Build a district" not in labels(v)


# ====================================================================== Diplomat
DIPLOMAT_PICKS = {0: "Assassin", 1: "Thief", 2: "Bishop", 3: "Diplomat"}


def diplomat_end(g, gold_at_end=None, seat=3) -> None:
    """Play to the Diplomat's turn, take 2 gold, optionally set its gold, and end the turn."""
    until_turn(g, "diplomat", seat)
    act(g, "Take 2 gold", seat)
    if gold_at_end is not None:
        set_gold(g, seat, gold_at_end)
    act(g, "End turn", seat)


def exchange(g, give_card, take_card) -> None:
    assert g.pending["prompt"] == "Diplomat: give which district?"
    choose_card(g, give_card)
    if g.pending and g.pending["prompt"] == "Take which district?":
        choose_card(g, take_card)


def takes_for(g, give_card) -> set[int]:
    h = g.copy()
    choose_card(h, give_card)
    if h.pending and h.pending["prompt"] == "Take which district?":
        return options_of(h)
    return {c for c in cards_in(h, "city", 3)} - set(cards_in(g, "city", 3))


def test_dc_r43_diplomat_exchanges_districts_and_pays_the_difference():
    g = start(DIPLOMAT_PICKS)
    (temple,) = city_of(g, 3, "temple")
    (castle,) = city_of(g, 1, "castle")
    diplomat_end(g, 5)
    p2 = gold(g, 1)
    exchange(g, temple, castle)
    assert cards_in(g, "city", 3) == [castle] and cards_in(g, "city", 1) == [temple]
    assert gold(g, 3) == 2 and gold(g, 1) == p2 + 3
    # taking a cheaper district costs nothing
    g = start(DIPLOMAT_PICKS)
    (palace,) = city_of(g, 3, "palace")
    (tavern,) = city_of(g, 0, "tavern")
    diplomat_end(g, 0)
    exchange(g, palace, tavern)
    assert cards_in(g, "city", 3) == [tavern] and gold(g, 0) >= 0 and gold(g, 3) == 0


def test_dc_r44_diplomat_limits():
    g = start(DIPLOMAT_PICKS)
    (temple,) = city_of(g, 3, "temple", "church", "monastery", "watchtower", "prison", "battlefield", "manor")[:1]
    keep, castle = city_of(g, 1, "keep", "castle")
    (bishops,) = city_of(g, 2, "tavern")
    full = city_of(g, 0, "market", "docks", "harbor", "palace", "fortress", "cathedral", "town_hall", "trading_post")
    diplomat_end(g, 9)
    takes = takes_for(g, temple)
    assert castle in takes
    assert keep not in takes and bishops not in takes and not set(full) & takes
    # the Diplomat's own city may be complete
    g = start(DIPLOMAT_PICKS)
    own = city_of(g, 3, "temple", "church", "monastery", "watchtower", "prison", "battlefield", "manor", "tavern")
    (castle,) = city_of(g, 1, "castle")
    diplomat_end(g, 9)
    assert castle in takes_for(g, own[0])


def test_dc_r45_great_wall_adds_one_to_the_payment():
    test_dc_x8_diplomat_and_great_wall()
    g = start(DIPLOMAT_PICKS)
    (palace,) = city_of(g, 3, "palace")
    temple, _ = city_of(g, 1, "temple", "great_wall")
    diplomat_end(g, 1)
    p2 = gold(g, 1)
    exchange(g, palace, temple)  # at least 1
    assert gold(g, 3) == 0 and gold(g, 1) == p2 + 1


def test_dc_r46_differences_use_printed_costs():
    test_dc_x9_diplomat_and_university()
    g = start(DIPLOMAT_PICKS)
    (church,) = city_of(g, 3, "church")
    factory, library = city_of(g, 1, "factory", "library")
    (manor,) = city_of(g, 0, "manor")
    card(g, manor)["gilded"] = True  # Artist gold: +1
    diplomat_end(g, 9)
    h = g.copy()
    exchange(h, church, library)  # Factory discount ignored
    assert gold(h, 3) == 9 - 4
    exchange(g, church, manor)
    assert gold(g, 3) == 9 - 2


def test_dc_r47_exchange_may_not_leave_a_duplicate_without_a_quarry():
    g = start(DIPLOMAT_PICKS)
    temple, manor_mine = city_of(g, 3, "temple", "manor")
    manor, castle = city_of(g, 1, "manor", "castle")
    diplomat_end(g, 9)
    assert manor not in takes_for(g, temple) and castle in takes_for(g, temple)
    assert manor in takes_for(g, manor_mine)  # giving the Manor away is fine
    g = start(DIPLOMAT_PICKS)
    temple, _, _ = city_of(g, 3, "temple", "manor", "quarry")
    (manor,) = city_of(g, 1, "manor")
    diplomat_end(g, 9)
    assert manor in takes_for(g, temple)


def test_dc_r48_museum_cards_and_artist_gold_move_with_the_district():
    test_dc_x7_museum_exchanged()
    g = start(DIPLOMAT_PICKS)
    (temple,) = city_of(g, 3, "temple")
    (castle,) = city_of(g, 1, "castle")
    card(g, castle)["gilded"] = True
    diplomat_end(g, 9)
    exchange(g, temple, castle)
    assert card(g, castle)["gilded"] and castle in cards_in(g, "city", 3) and gold(g, 3) == 9 - 4


def test_dc_x7_museum_exchanged():
    g = start(DIPLOMAT_PICKS)
    (temple,) = city_of(g, 3, "temple")
    (museum,) = city_of(g, 1, "museum")
    stored = [give(g, 1, "tavern", "museum_store"), give(g, 1, "market", "museum_store")]
    diplomat_end(g, 5)
    p2 = gold(g, 1)
    exchange(g, temple, museum)
    assert gold(g, 3) == 2 and gold(g, 1) == p2 + 3
    assert cards_in(g, "museum_store", 3) == stored and cards_in(g, "museum_store", 1) == []
    assert g.view(3)["zones"]["museum_store/3"]["hidden"] == 0  # the new owner sees them
    assert g.view(1)["zones"]["museum_store/3"]["hidden"] == 2  # the others only count them
    assert score_parts(g, 3)["museum"] == 2 and score_parts(g, 1)["museum"] == 0


def test_dc_x8_diplomat_and_great_wall():
    for take, price in (("palace", 4), ("great_wall", 4)):
        g = start(DIPLOMAT_PICKS)
        (church,) = city_of(g, 3, "church")
        wall, palace = city_of(g, 1, "great_wall", "palace")
        diplomat_end(g, 9)
        exchange(g, church, palace if take == "palace" else wall)
        assert gold(g, 3) == 9 - price


def test_dc_x9_diplomat_and_university():
    g = start(DIPLOMAT_PICKS)
    (harbor,) = city_of(g, 3, "harbor")
    (university,) = city_of(g, 1, "university")
    diplomat_end(g, 9)
    exchange(g, harbor, university)
    assert gold(g, 3) == 7


def test_dc_x10_diplomat_limits():
    picks = {0: "Assassin", 1: "Thief", 2: "King", 3: "Merchant", 4: "Bishop", 5: "Diplomat"}
    g = start(picks, players=6)
    own = city_of(g, 5, "temple", "church", "monastery", "watchtower", "prison", "battlefield", "tavern", "manor")
    (p5,) = city_of(g, 4, "castle")
    p2_keep, p2_palace = city_of(g, 1, "keep", "palace")
    p3 = city_of(g, 2, "market", "docks", "harbor", "fortress", "cathedral", "town_hall", "trading_post", "library")
    p4_manor, p4_castle = city_of(g, 3, "manor", "castle")
    diplomat_end(g, 9, seat=5)
    takes = set()
    for giving in own:
        h = g.copy()
        choose_card(h, giving)
        takes |= options_of(h)
    assert p5 not in takes and p2_keep not in takes and not set(p3) & takes
    assert {p2_palace, p4_castle} <= takes
    h = g.copy()
    choose_card(h, own[0])  # giving a Temple
    assert p4_castle in options_of(h) and p4_manor not in options_of(h)  # (no second Manor for it)
    h = g.copy()
    choose_card(h, own[-1])  # giving its Manor: a second
    assert p2_palace in options_of(h) and p4_castle not in options_of(h)  # Manor for P4 is refused
    assert p4_manor in options_of(h)  # (Manor for Manor is not)


# ====================================================================== Artist
ARTIST_PICKS = {0: "Assassin", 1: "Thief", 2: "Bishop", 3: "Warlord", 4: "Artist"}


def test_dc_r49_artist_puts_gold_on_one_or_two_districts_once_each():
    g = start(ARTIST_PICKS, players=5)
    castle, manor, temple = city_of(g, 4, "castle", "manor", "temple")
    until_turn(g, "artist", 4)
    set_gold(g, 4, 5)
    city_of(g, 4, "laboratory")
    refresh(g)
    act(g, "Beautify 1 or 2 of your districts", 4)
    assert g.pending["subset"] == 2
    act_subset(g, ["Castle", "Manor"])
    assert card(g, castle)["gilded"] and card(g, manor)["gilded"] and not card(g, temple)["gilded"]
    assert gold(g, 4) == 3 and g.state["counters"]["card_gold"] == 2 and total_gold(g) == 30
    assert not any(l.startswith("Beautify") for l in labels(g))  # once per turn
    # next turn only districts without gold may be chosen
    finish_turn(g)
    until_turn(g, "artist", 4)
    h = g.copy()
    act(h, "Beautify", 4)
    assert set(h.pending["options"]) == {temple, cards_in(g, "city", 4)[-1]}


def test_dc_r50_artist_gold_counts_for_scoring_and_destruction():
    test_dc_x25_artist()


def test_dc_r51_gold_on_districts_is_not_the_players_gold():
    g = start({0: "Assassin", 1: "Thief", 2: "Abbot", 3: "Warlord", 4: "Artist"}, players=5)
    until_turn(g, "thief", 1)
    act(g, "Rob a character", 1)
    act(g, "Artist", 1)
    until_turn(g, "abbot", 2)
    set_gold(g, 3, 3)
    set_gold(g, 4, 2)
    (castle,) = city_of(g, 4, "castle")
    card(g, castle)["gilded"] = True
    g.state["counters"]["bank"] -= 1
    g.state["counters"]["card_gold"] += 1
    set_gold(g, 0, 0), set_gold(g, 1, 0), set_gold(g, 2, 0)
    refresh(g)
    act(g, "The richest player gives you 1 gold", 2)  # P4 (3) and not P5 (2 + 1)
    assert gold(g, 3) == 2
    until_turn(g, "artist", 4)
    assert gold(g, 4) == 0 and card(g, castle)["gilded"]  # the Thief took 2, not 3
    assert total_gold(g) == 30


def test_dc_r52_destroyed_district_gold_returns_to_the_bank():
    g = start(ARTIST_PICKS, players=5)
    (castle,) = city_of(g, 2, "castle")
    card(g, castle)["gilded"] = True
    g.state["counters"]["bank"] -= 1
    g.state["counters"]["card_gold"] += 1
    g.state["cards"][card_of(g, "bishop")]["murdered"] = True
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    set_gold(g, 3, 4)
    act(g, "End turn", 3)
    b = bank(g)
    choose_card(g, castle)
    assert not card(g, castle)["gilded"] and g.state["counters"]["card_gold"] == 0
    assert bank(g) == b + 4 + 1 and gold(g, 3) == 0 and total_gold(g) == 30


def test_dc_x25_artist():
    g = start(ARTIST_PICKS, players=5)
    castle, manor = city_of(g, 4, "castle", "manor")
    until_turn(g, "artist", 4)
    set_gold(g, 4, 3)
    refresh(g)
    act(g, "Beautify", 4)
    act_subset(g, ["Castle", "Manor"])
    assert gold(g, 4) == 1
    assert value(g, "score_of", castle) == 5 and value(g, "score_of", manor) == 4
    assert score_parts(g, 4)["districts"] == 9
    assert value(g, "destroy_cost", castle, me=3) == 4


# ====================================================================== Queen
def test_dc_r53_queen_gains_three_next_to_the_king():
    for king, queen_seat, gains in (("King", 0, 3), ("King", 3, 0), ("Emperor", 0, 3)):
        picks = {0: "Assassin", 1: "Thief", 2: "Bishop", 3: "Warlord", 4: "Merchant"}
        picks[queen_seat] = "Queen"
        picks[1] = king
        g = start(picks, players=5)
        until_turn(g, "queen", queen_seat)
        first_turn = [e for e in g.log if e.get("turn") and "Queen" in e["text"]]
        assert first_turn
        n = g.log.index(first_turn[-1])
        assert (f"P{queen_seat + 1} gains 3 gold (Queen)" in texts(g, n)) == bool(gains)


def test_dc_r54_queen_gains_at_round_end_when_the_murdered_king_reveals():
    test_dc_x24_queen_and_murdered_king()


def test_dc_r55_queen_gains_nothing_without_a_king_holder_or_when_murdered():
    g = start({0: "Queen", 1: "Thief", 2: "Bishop", 3: "Warlord", 4: "Merchant"}, players=5)
    until_turn(g, "queen", 0)
    assert "P1 gains 3 gold" not in texts(g)
    g = start({0: "Queen", 1: "King", 2: "Assassin", 3: "Warlord", 4: "Merchant"}, players=5)
    until_turn(g, "assassin", 2)
    act(g, "Murder a character", 2)
    act(g, "Queen", 2)
    n = len(g.log)
    until_prompt(g, "Keep a character")
    assert "P1 gains 3 gold" not in texts(g, n)


def test_dc_x24_queen_and_murdered_king():
    picks = {0: "Assassin", 1: "Thief", 2: "Queen", 3: "King", 4: "Merchant", 5: "Warlord"}
    g = start(picks, players=6)
    set_crown(g, 0)
    until_turn(g, "assassin", 0)
    act(g, "Murder a character", 0)
    act(g, "King", 0)
    until_turn(g, "queen", 2)
    before = gold(g, 2)
    act(g, "Take 2 gold", 2)
    assert gold(g, 2) == before + 2
    n = len(g.log)
    until_prompt(g, "Keep a character")
    said = texts(g, n)
    assert "P4 takes the crown." in said and "P3 gains 3 gold (Queen)" in said and crown(g) == 3


# ====================================================================== bonus districts
PICKS = {0: "Assassin", 1: "Thief", 2: "Merchant", 3: "Warlord"}


def test_dc_r56_lighthouse_takes_any_card_of_the_deck_then_shuffles():
    g = start(PICKS)
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "lighthouse")
    refresh(g)
    palace = next(c for c in cards_in(g, "deck") if card(g, c)["t"] == "palace")
    act(g, "Take 2 gold", 2)
    n = len(g.log)
    build(g, 2, "Lighthouse")
    assert g.pending["prompt"] == "Lighthouse: take which card from the deck?" and g.pending["seat"] == 2
    assert "none" in labels(g) and len(g.pending["options"]) == len(cards_in(g, "deck")) + 1
    choose_card(g, palace)
    assert palace in cards_in(g, "hand", 2)
    assert "shuffle: the district deck" in texts(g, n)


def test_dc_r57_armory_destroys_itself_and_another_district():
    g = start(PICKS)
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "armory")
    (castle,) = city_of(g, 0, "castle")
    city_of(g, 1, "temple")
    set_gold(g, 2, 3)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Armory")
    armory = cards_in(g, "city", 2)[0]
    act(g, "Destroy the Armory to destroy a district", 2)  # the turn it is built
    choose_card(g, castle)
    assert cards_in(g, "city", 0) == [] and cards_in(g, "city", 2) == []
    assert cards_in(g, "deck")[:2] == [castle, armory]  # both to the bottom
    assert gold(g, 2) == 2  # free of charge


def test_dc_r58_armory_ignores_protection_but_not_its_own_city():
    g = start({0: "Assassin", 1: "Bishop", 2: "Merchant", 3: "Warlord"})
    city_of(g, 2, "armory", "temple")
    (keep,) = city_of(g, 0, "keep")
    (church,) = city_of(g, 1, "church")
    full = city_of(g, 3, "market", "docks", "harbor", "palace", "fortress", "cathedral", "town_hall", "manor")
    until_turn(g, "merchant", 2)
    act(g, "Destroy the Armory", 2)
    opts = options_of(g)
    assert {keep, church} <= opts and set(full) <= opts
    assert not set(cards_in(g, "city", 2)) & opts


def test_dc_r59_armory_does_not_trigger_the_graveyard():
    g = start(PICKS)
    city_of(g, 2, "armory")
    (castle,) = city_of(g, 0, "castle")
    city_of(g, 1, "graveyard")
    until_turn(g, "merchant", 2)
    set_gold(g, 1, 5)
    act(g, "Destroy the Armory", 2)
    choose_card(g, castle)
    assert g.pending["kind"] == "action" and castle in cards_in(g, "deck")


def test_dc_r60_museum_stores_one_card_a_turn_for_one_point_each():
    g = start(PICKS)
    (museum,) = city_of(g, 2, "museum")
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "temple", "palace")
    refresh(g)
    act(g, "Put a card under the Museum", 2)
    act(g, "Palace", 2)
    assert "Put a card under the Museum" not in labels(g)  # once per turn
    assert types_in(g, "museum_store", 2) == ["palace"] and types_in(g, "hand", 2) == ["temple"]
    assert g.view(0)["zones"]["museum_store/2"] == {"cards": [], "hidden": 1}  # face down: others count it
    assert score_parts(g, 2)["museum"] == 1


def test_dc_r61_destroyed_museum_goes_to_the_deck_with_its_cards():
    test_dc_x6_museum_destroyed()


def test_dc_r62_imperial_treasury_scores_gold_held():
    g = start(PICKS)
    city_of(g, 1, "imperial_treasury", "castle")
    set_gold(g, 1, 6)
    card(g, cards_in(g, "city", 1)[1])["gilded"] = True  # gold on districts excluded
    assert score_parts(g, 1)["imperial_treasury"] == 6
    assert score_parts(g, 0)["imperial_treasury"] == 0


def test_dc_r63_map_room_scores_cards_in_hand():
    g = start(PICKS)
    city_of(g, 1, "map_room")
    hand_of(g, 1, "temple", "castle", "palace")
    assert score_parts(g, 1)["map_room"] == 3 and score_parts(g, 0)["map_room"] == 0


def test_dc_r64_wishing_well_scores_other_purples():
    g = start(PICKS)
    city_of(g, 1, "wishing_well", "library", "smithy", "temple")
    assert score_parts(g, 1)["wishing_well"] == 2


def test_dc_r65_quarry_allows_one_duplicate_at_a_time():
    g = start(PICKS)
    city_of(g, 2, "quarry", "temple", "tavern")
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "temple", "tavern")
    set_gold(g, 2, 5)
    refresh(g)
    act(g, "Take 2 gold", 2)
    act(g, "Build a district", 2)
    assert sorted(labels(g)) == ["Tavern (pay 1 gold)", "Temple (pay 1 gold)"]
    act(g, "Temple", 2)
    assert types_in(g, "city", 2).count("temple") == 2
    # one duplicate already: no second one (checked on the next turn's allowance)
    assert value(g, "can_build", cards_in(g, "hand", 2)[0], me=2) is False


def test_dc_r66_duplicates_stay_when_the_quarry_is_destroyed():
    test_dc_x23_quarry_destroyed()


def test_dc_r67_poor_house_gives_one_gold_to_a_broke_owner():
    g = start(PICKS)
    city_of(g, 2, "poor_house", "laboratory")
    until_turn(g, "merchant", 2)
    act(g, "Take 2 gold", 2)
    set_gold(g, 2, 0)
    act(g, "End turn", 2)
    assert gold(g, 2) == 1
    g = start(PICKS)
    city_of(g, 2, "poor_house")
    until_turn(g, "merchant", 2)
    act(g, "Take 2 gold", 2)
    before = gold(g, 2)
    finish_turn(g)
    assert gold(g, 2) == before


def test_dc_r68_factory_makes_other_purples_cheaper_to_build():
    g = start(PICKS)
    (factory,) = city_of(g, 2, "factory")
    library = give(g, 2, "library")
    temple = give(g, 2, "temple")
    assert value(g, "build_cost", library, me=2) == 5 and value(g, "build_cost", temple, me=2) == 1
    assert value(g, "build_cost", library, me=1) == 6  # only for its owner
    assert value(g, "destroy_cost", factory, me=3) == 5  # destruction unchanged


def test_dc_r68_the_build_prompt_shows_the_factory_price_and_charges_it():
    """Issue 30: the build prompt shows each district at the price the rules charge (build_cost after
    the Factory's modifier): the Library at 5, not its printed 6; the Temple at its printed 1."""
    g = start(PICKS)
    city_of(g, 2, "factory")
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "library", "temple")
    set_gold(g, 2, 6)
    refresh(g)
    act(g, "Take 2 gold", 2)
    act(g, "Build a district", 2)
    assert g.pending["prompt"] == "Build which district?"
    assert sorted(labels(g)) == ["Library (pay 5 gold)", "Temple (pay 1 gold)"]
    gold = g.state["counters"]["gold"][2]
    act(g, "Library", 2)
    assert g.state["counters"]["gold"][2] == gold - 5


def test_dc_r69_park_draws_two_when_the_hand_is_empty():
    g = start(PICKS)
    city_of(g, 2, "park")
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "tavern")
    set_gold(g, 2, 0)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Tavern")
    act(g, "End turn", 2) if g.pending["kind"] == "action" else None
    assert g.pending["prompt"] == "Park: draw 2 districts?" and g.pending["seat"] == 2
    act(g, "Draw 2 districts", 2)
    assert len(cards_in(g, "hand", 2)) == 2


def test_dc_r70_hospital_murdered_owner_takes_the_action_only():
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    city_of(g, 2, "hospital", "manor", "laboratory")
    hand_of(g, 2, "temple", "church")
    until_turn(g, "assassin", 0)
    act(g, "Murder a character", 0)
    act(g, "King", 0)
    until_prompt(g, "Choose an action")
    while turn_seat(g) != 2:
        g.answer(passive(g))
    assert turn_type(g) is None and card(g, card_of(g, "king"))["up"]  # revealed, played without powers
    assert labels(g) == ["Take 2 gold", "Draw districts", "Discard a card for 1 gold (Laboratory)"]
    act(g, "Take 2 gold", 2)
    assert "Build a district" not in labels(g) and "Take income" not in labels(g)
    act(g, "End turn", 2)
    assert g.state["vars"]["limited"] is False


def test_dc_r71_throne_room_gains_when_the_crown_changes_hands():
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    city_of(g, 3, "throne_room")
    set_crown(g, 1)
    until_turn(g, "thief", 1)
    before = gold(g, 3)
    n = len(g.log)
    until_turn(g, "king", 2)
    assert crown(g) == 2 and gold(g, 3) == before + 1
    assert "P4 gains 1 gold (Throne Room)" in texts(g, n)  # the card's name, not "Throne Room: throne room"
    g = start({0: "Assassin", 1: "Thief", 2: "King", 3: "Warlord"})
    city_of(g, 3, "throne_room")
    set_crown(g, 2)  # the crown stays: nothing
    until_turn(g, "thief", 1)
    before = gold(g, 3)
    until_turn(g, "king", 2)
    assert gold(g, 3) == before


def test_dc_r72_ball_room_others_must_thank_the_crown_holder():
    g = start({0: "Assassin", 1: "Thief", 2: "Merchant", 3: "Warlord"})
    city_of(g, 1, "ball_room")
    set_crown(g, 1)
    until_turn(g, "assassin", 0)
    n = len(g.log)
    until_prompt(g, "Ball Room")  # the owner (P2) is not asked
    assert g.pending["seat"] == 2 and turn_type(g) == "merchant"
    assert labels(g) == ["Thank the crown holder", "Stay silent (lose the rest of the turn)"]
    assert "-- P2 plays as Thief --" in texts(g, n)
    act(g, "Thank", 2)
    assert "P3 thanks P2." in texts(g, n)
    assert turn_seat(g) == 2 and "Take 2 gold" in labels(g)


def test_dc_r73_not_thanking_loses_the_rest_of_the_turn():
    g = start({0: "Assassin", 1: "Magician", 2: "Tax Collector", 3: "Warlord"})
    city_of(g, 1, "ball_room")
    city_of(g, 2, "poor_house")
    set_crown(g, 1)
    until_prompt(g, "Ball Room")
    assert turn_type(g) == "tax_collector" and g.state["vars"]["tax_to"] == 2  # reveal effects came first
    set_gold(g, 2, 0)
    act(g, "Stay silent", 2)
    assert turn_seat(g) != 2 and gold(g, 2) == 0  # no action, no Poor House
    assert card(g, card_of(g, "tax_collector"))["murdered"] is False
    until_turn(g, "warlord", 3)  # the tax still applies
    act(g, "Thank", 3) if g.pending["prompt"].startswith("Ball Room") else None
    hand_of(g, 3, "temple")
    refresh(g)
    act(g, "Take 2 gold", 3)
    build(g, 3, "Temple")
    finish_turn(g)
    assert gold(g, 2) == 1


def test_dc_r73_silent_queen_forfeits_her_gold():
    # CIT-R25, DC-R72: the question comes right after the reveal effects; the Queen's +3 is her
    # power, so a Queen who stays silent does not keep it (DC-R53)
    picks = {0: "Queen", 1: "King", 2: "Assassin", 3: "Warlord", 4: "Merchant"}
    g = start(picks, players=5)
    for answer, gains in (("Stay silent", 0), ("Thank", 3)):
        g = start(picks, players=5)
        city_of(g, 1, "ball_room")
        until_prompt(g, "Ball Room")
        while turn_type(g) != "queen":  # the others thank; nothing else moves P1's gold
            before = gold(g, 0)
            act(g, "Thank", g.pending["seat"])
            until_prompt(g, "Ball Room")
        assert g.pending["seat"] == 0 and crown(g) == 1
        assert gold(g, 0) == before  # nothing paid before the question
        act(g, answer, 0)
        assert gold(g, 0) == before + gains


def test_dc_r73_silent_queen_forfeits_the_round_end_gold_of_a_murdered_king():
    # DC-R54 pays at round end what her turn's power would have paid; silence lost that power
    picks = {0: "Assassin", 1: "Thief", 2: "Queen", 3: "King", 4: "Merchant", 5: "Warlord"}
    for answer, gains in (("Stay silent", 0), ("Thank", 3)):
        g = start(picks, players=6)
        city_of(g, 1, "ball_room")
        set_crown(g, 1)
        until_turn(g, "assassin", 0)
        act(g, "Murder a character", 0)
        act(g, "King", 0)
        until_prompt(g, "Ball Room")
        while turn_type(g) != "queen":
            act(g, "Thank", g.pending["seat"])
            until_prompt(g, "Ball Room")
        before = gold(g, 2)
        act(g, answer, 2)
        until_prompt(g, "Keep a character")
        assert crown(g) == 3 and gold(g, 2) == before + gains + (2 if gains else 0)


def test_dc_r74_bell_tower_lowers_the_end_threshold():
    g = start(PICKS)
    assert value(g, "end_threshold") == 8
    city_of(g, 3, "bell_tower")
    assert value(g, "end_threshold") == 7
    for variants, t in ((("short_game",), 6),):
        h = start(PICKS, variants=variants)
        city_of(h, 0, "bell_tower")
        assert value(h, "end_threshold") == t
    h = dc_game(players=2)
    city_of(h, 0, "bell_tower")
    assert value(h, "end_threshold") == 9


def test_dc_r75_building_the_bell_tower_can_end_the_game_at_once():
    g = start(PICKS)
    city_of(g, 0, "temple", "church", "monastery", "watchtower", "prison", "battlefield", "tavern")
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "bell_tower")
    set_gold(g, 2, 5)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Bell Tower")
    assert g.state["vars"]["final_round"] is True and g.state["vars"]["first_complete"] == 0


def test_dc_r76_everyone_complete_when_the_bell_tower_is_built_earns_four():
    test_dc_x3_bell_tower_several_fours()
    test_dc_x4_bell_tower_usual_order()


def test_dc_r77_destroyed_bell_tower_restores_the_threshold():
    test_dc_x5_bell_tower_destroyed()


def test_dc_r78_with_the_bell_tower_seven_districts_protect_a_city():
    g = start(PICKS)
    seven = city_of(g, 0, "temple", "church", "monastery", "watchtower", "prison", "battlefield", "tavern")
    six = city_of(g, 1, "temple", "church", "monastery", "watchtower", "prison", "bell_tower")
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    set_gold(g, 3, 9)
    act(g, "End turn", 3)
    opts = options_of(g)
    assert not set(seven) & opts and set(six) <= opts


def test_dc_r79_short_game_bell_tower_gives_six():
    g = start(PICKS, variants=("short_game",))
    city_of(g, 1, "bell_tower")
    assert value(g, "end_threshold") == 6


# ---------------------------------------------------------------------- district worked examples
def test_dc_x3_bell_tower_several_fours():
    g = start(PICKS)
    city_of(g, 0, "temple", "church", "monastery", "watchtower", "prison", "battlefield", "tavern")
    city_of(g, 2, "temple", "church", "monastery", "watchtower", "prison", "battlefield")
    until_turn(g, "merchant", 2)
    hand_of(g, 2, "bell_tower")
    set_gold(g, 2, 5)
    refresh(g)
    act(g, "Take 2 gold", 2)
    build(g, 2, "Bell Tower")
    assert value(g, "end_threshold") == 7 and g.state["vars"]["final_round"] is True
    assert g.state["counters"]["completion"] == [4, 0, 4, 0]
    until_turn(g, "warlord", 3)
    city_of(g, 3, "temple", "church", "monastery", "watchtower", "prison", "battlefield")
    hand_of(g, 3, "tavern")
    refresh(g)
    act(g, "Take 2 gold", 3)
    build(g, 3, "Tavern")
    assert g.state["counters"]["completion"] == [4, 0, 4, 2]


def test_dc_x4_bell_tower_usual_order():
    g = start(PICKS)
    city_of(g, 1, "bell_tower")
    city_of(g, 0, "temple", "church", "monastery", "watchtower", "prison", "battlefield")
    city_of(g, 3, "temple", "church", "monastery", "watchtower", "prison", "battlefield")
    until_turn(g, "assassin", 0)
    hand_of(g, 0, "tavern")
    refresh(g)
    act(g, "Take 2 gold", 0)
    build(g, 0, "Tavern")
    assert g.state["counters"]["completion"][0] == 4 and g.state["vars"]["final_round"]
    until_turn(g, "warlord", 3)
    hand_of(g, 3, "tavern")
    refresh(g)
    act(g, "Take 2 gold", 3)
    build(g, 3, "Tavern")
    assert g.state["counters"]["completion"] == [4, 0, 0, 2]


def test_dc_x5_bell_tower_destroyed():
    g = start(PICKS)
    (tower,) = city_of(g, 1, "bell_tower")
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    set_gold(g, 3, 4)
    act(g, "End turn", 3)
    choose_card(g, tower)
    assert gold(g, 3) == 0 and value(g, "end_threshold") == 8
    # after the end was triggered it stays triggered, and the +4 is kept
    g = start(PICKS)
    (tower,) = city_of(g, 1, "bell_tower")
    city_of(g, 0, "temple", "church", "monastery", "watchtower", "prison", "battlefield")
    until_turn(g, "assassin", 0)
    hand_of(g, 0, "tavern")
    refresh(g)
    act(g, "Take 2 gold", 0)
    build(g, 0, "Tavern")
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    set_gold(g, 3, 4)
    act(g, "End turn", 3)
    choose_card(g, tower)
    assert value(g, "end_threshold") == 8 and g.state["vars"]["final_round"] is True
    assert g.state["counters"]["completion"][0] == 4


def test_dc_x6_museum_destroyed():
    g = start(PICKS)
    (museum,) = city_of(g, 2, "museum")
    stored = [give(g, 2, t, "museum_store") for t in ("tavern", "market", "temple")]
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    set_gold(g, 3, 3)
    act(g, "End turn", 3)
    choose_card(g, museum)
    assert gold(g, 3) == 0
    deck = cards_in(g, "deck")
    assert museum in deck[:4] and set(stored) <= set(deck[:4]) and cards_in(g, "museum_store", 2) == []
    assert score_parts(g, 2)["museum"] == 0 and score_parts(g, 2)["districts"] == 0


def test_dc_x21_wishing_well_and_haunted_city():
    g = start(PICKS)
    city_of(g, 1, "wishing_well", "haunted_city", "library", "manor", "tavern", "watchtower")
    parts = score_parts(g, 1)
    assert parts["five_colours"] == 3 and parts["wishing_well"] == 1  # scored as blue: +3, +1
    g = start(PICKS)
    city_of(g, 1, "wishing_well", "haunted_city", "library", "manor", "tavern")
    parts = score_parts(g, 1)  # two colours missing: purple
    assert parts["five_colours"] == 0 and parts["wishing_well"] == 2


def test_dc_x22_armory_on_a_complete_city():
    g = start(PICKS)
    (tower,) = city_of(g, 1, "watchtower")
    city_of(g, 1, "temple", "manor", "tavern", "keep", "church", "market", "castle")
    g.state["vars"]["first_complete"] = 1
    g.state["vars"]["final_round"] = True
    g.state["vars"]["completed"][1] = True
    g.state["counters"]["completion"][1] = 4
    assert score_parts(g, 1)["five_colours"] == 3
    city_of(g, 3, "armory")
    until_turn(g, "warlord", 3)
    act(g, "Destroy the Armory", 3)
    choose_card(g, tower)
    assert len(cards_in(g, "city", 1)) == 7 and g.state["vars"]["final_round"] is True
    parts = score_parts(g, 1)
    assert parts["completion"] == 4 and parts["five_colours"] == 0


def test_dc_x23_quarry_destroyed():
    g = start(PICKS)
    quarry, t1, t2 = city_of(g, 0, "quarry", "temple", "temple")
    until_turn(g, "warlord", 3)
    act(g, "Take 2 gold", 3)
    set_gold(g, 3, 9)
    act(g, "End turn", 3)
    choose_card(g, quarry)
    assert types_in(g, "city", 0) == ["temple", "temple"]
    church = give(g, 0, "church")
    temple3 = give(g, 0, "temple")
    assert value(g, "can_build", temple3, me=0) is False and value(g, "can_build", church, me=0) is True


# ====================================================================== turn end, scoring, counts, variants
def test_dc_r80_end_of_turn_order():
    prog = dc_game().program
    order = [t.key for t in prog.triggers["turn_end"]]
    expected = [
        "warlord.destroy",
        "diplomat.exchange",
        "alchemist.refund",
        "game.tax",
        "poor_house.poor_house",
        "park.park",
    ]
    assert [k for k in order if k in expected] == expected
    g = start({0: "Assassin", 1: "Tax Collector", 2: "Alchemist", 3: "Warlord"})
    city_of(g, 2, "park")
    until_turn(g, "alchemist", 2)
    hand_of(g, 2, "church")
    set_gold(g, 2, 0)
    refresh(g)
    act(g, "Take 2 gold", 2)
    n = len(g.log)
    build(g, 2, "Church")  # the turn ends by itself
    said = texts(g, n)
    assert said.index("P3 gains 2 gold (Alchemist)") < said.index("P3 gives 1 gold to P2")
    assert g.pending["prompt"] == "Park: draw 2 districts?"


def test_dc_r81_extra_score_parts():
    g = start(PICKS)
    result = end_game_now(g)
    assert list(result["parts"][0]) == [
        "districts",
        "five_colours",
        "completion",
        "museum",
        "imperial_treasury",
        "map_room",
        "wishing_well",
    ]


def test_dc_r82_haunted_city_colour_counts_for_both_bonuses():
    test_dc_x21_wishing_well_and_haunted_city()


def test_dc_r83_eight_players():
    g = dc_game(players=8, rank9="artist")
    assert len(in_use(g)) == 9 and cards_in(g, "face_up") == []
    assert g.state["table"]["threshold"] == 8
    while g.state["phase"] == "selection":
        size = len(cards_in(g, "draft"))
        g.answer(0)
    assert size == 2  # the eighth also gets the face-down
    assert cards_in(g, "face_down") == [] and len(cards_in(g, "aside")) == 1


def test_dc_r84_mandatory_powers_variant():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"}, variants=("faidutti_mandatory_powers",))
    until_turn(g, "witch", 0)
    hand_of(g, 0, "temple")
    refresh(g)
    act(g, "Take 2 gold", 0)
    assert "Build a district" not in labels(g)  # never builds on her own turn
    act(g, "End turn", 0)
    assert g.pending["prompt"] == "Bewitch which character?" and "none" not in labels(g)
    act(g, "Merchant", 0)
    assert g.state["vars"]["witch_seat"] == 0
    test_dc_x19_navigator()


def test_dc_r85_official_bell_tower_must_be_declared():
    for answer, threshold in (("Declare it", 7), ("Do not declare", 8)):
        g = start(PICKS, variants=("official_bell_tower",))
        until_turn(g, "merchant", 2)
        hand_of(g, 2, "bell_tower")
        set_gold(g, 2, 5)
        refresh(g)
        act(g, "Take 2 gold", 2)
        build(g, 2, "Bell Tower")
        assert g.pending["prompt"] == "Bell Tower: declare the end one district earlier?"
        act(g, answer, 2)
        assert value(g, "end_threshold") == threshold


def test_dc_r86_short_game_bell_tower_off_variant():
    g = start(PICKS, variants=("short_game_bell_tower_off",))
    assert value(g, "end_threshold") == 7
    city_of(g, 1, "bell_tower")
    assert value(g, "end_threshold") == 7


# ====================================================================== Witch worked examples
def test_dc_x11_witch_and_merchant():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"})
    city_of(g, 0, "tavern", "market")
    witch_names(g, 0, "Merchant")
    until_turn(g, "merchant", 2)
    p3 = gold(g, 2)
    act(g, "Take 2 gold", 2)
    assert gold(g, 2) == p3 + 2 and turn_seat(g) == 0
    hand_of(g, 0, "temple")
    refresh(g)
    p1 = gold(g, 0)
    act(g, "Take 1 extra gold", 0)
    act(g, "Take income", 0)
    assert gold(g, 0) == p1 + 3
    build(g, 0, "Temple")
    assert types_in(g, "city", 0)[-1] == "temple"


def test_dc_x12_witch_and_king():
    g = start({0: "Witch", 1: "King", 2: "Merchant", 3: "Warlord"})
    city_of(g, 0, "manor", "castle")
    set_crown(g, 3)
    witch_names(g, 0, "King")
    until_turn(g, "king", 0)
    assert crown(g) == 1
    p1 = gold(g, 0)
    act(g, "Take income", 0)
    assert gold(g, 0) == p1 + 2  # noble income on her city
    hand_of(g, 0, "temple", "church")
    refresh(g)
    build(g, 0, "Temple")
    assert "Build a district" not in labels(g)  # 1 build


def test_dc_x13_witch_and_bishop():
    test_dc_r16_bewitched_standing_effects_belong_to_the_witch()
