"""Island Fortress data: component counts, the favour deck's checksums and invariants (digest 2.7),
the setup rules ISF-R1 .. ISF-R12 and the player-count rules ISF-R106 .. ISF-R109."""

from __future__ import annotations

import pytest
from isf_support import GAME, fresh, skip_setup, wall

from mason.errors import MasonError
from mason.primitives import slots as S
from mason.session.game import load_program

VU = {"vp": 1, "treasure": 1.5, "buyback_disc": 2, "jade": 0.7, "laborer": 0.5, "convict": 0.3, "block": 0.7}
PERSISTENT_VU = {"income": 4, "bid": 2}
SIZE_BASE = {2: 3, 3: 5, 4: 8}
HEIGHT_EXTRA = {0: 0, 1: 0.5, 2: 1.5, 3: 3}


@pytest.fixture(scope="module")
def prog():
    return load_program(GAME)


@pytest.fixture(scope="module")
def favours(prog):
    return [prog.types[t] for t in prog.type_order if prog.family_of[t] == "favour"]


def _two_region_wall(prog):
    data = S.build(prog.boards["wall"], 2, prog.table_for(2))
    return data, S.geometry(data)


# ------------------------------------------------------------------ favour deck (digest 2.6, 2.7)
def test_favour_deck_has_36_cards_12_of_each_size(favours):
    assert len(favours) == 36
    sizes = [len(f["pattern"]) for f in favours]
    assert (sizes.count(2), sizes.count(3), sizes.count(4)) == (12, 12, 12)


def test_every_favour_card_carries_its_status_placeholder(prog):
    for comp in prog.spec.components["favour"]:
        assert comp["status"] == "placeholder", comp["id"]


def test_favour_checksums(favours):
    def total(part, key):
        return sum((f[part] or {}).get(key, 0) for f in favours)

    income_cards = [f for f in favours if (f["persistent"] or {}).get("income")]
    bid_cards = [f for f in favours if (f["persistent"] or {}).get("bid")]
    assert (len(income_cards), total("persistent", "income")) == (5, 5)
    assert (len(bid_cards), total("persistent", "bid")) == (5, 7)
    got = {k: total("one_time", k) for k in VU}
    assert got == {"vp": 86, "treasure": 27, "jade": 19, "buyback_disc": 12, "convict": 11, "laborer": 12, "block": 7}


def test_favour_keys_and_ranges(favours):
    ranges = {"vp": 8, "jade": 4, "treasure": 3, "buyback_disc": 2, "convict": 4, "laborer": 3, "block": 3}
    for f in favours:
        assert set(f["one_time"] or {}) <= set(ranges), f["id"]
        assert set(f["persistent"] or {}) <= {"income", "bid"}, f["id"]
        for k, v in (f["one_time"] or {}).items():
            assert 0 <= v <= ranges[k], (f["id"], k)
        p = f["persistent"] or {}
        assert p.get("income", 0) in (0, 1), f["id"]
        assert p.get("bid", 0) in (0, 1, 2), f["id"]
        if len(f["pattern"]) == 2:
            assert not p.get("income"), f"{f['id']}: never income on a 2-cell card"


def test_favour_patterns_are_normalised_and_small(favours):
    for f in favours:
        cells = [tuple(c) for c in f["pattern"]]
        assert len(set(cells)) == len(cells), f["id"]
        assert min(x for x, _ in cells) == 0 and min(y for _, y in cells) == 0, f["id"]
        assert max(x for x, _ in cells) + 1 <= 5 and max(y for _, y in cells) <= 3, f["id"]


def test_favour_value_within_one_unit_of_budget(favours):
    for f in favours:
        value = sum(VU[k] * v for k, v in (f["one_time"] or {}).items())
        value += sum(PERSISTENT_VU[k] * v for k, v in (f["persistent"] or {}).items())
        height = max(y for _, y in f["pattern"])
        budget = SIZE_BASE[len(f["pattern"])] + HEIGHT_EXTRA[height]
        assert abs(value - budget) <= 1 + 1e-9, (f["id"], value, budget)


def test_every_favour_fits_the_two_region_wall_at_least_three_times(prog, favours):
    data, geo = _two_region_wall(prog)
    for f in favours:
        fits = S.matches(data, geo, f["pattern"], None, "fixed", None, any_piece=True)
        assert len(fits) >= 3, f["id"]


def test_tower_patterns_need_tower_columns(prog, favours):
    data, geo = _two_region_wall(prog)
    by_id = {f["id"]: f for f in favours}
    v4 = S.matches(data, geo, by_id["favour_35"]["pattern"], None, "fixed", None, any_piece=True)
    assert all(geo.info[m[0]][2] in (1, 5) for m in v4)
    d4 = S.matches(data, geo, by_id["favour_36"]["pattern"], None, "fixed", None, any_piece=True)
    assert d4 and all(geo.info[m[-1]][1] == 4 for m in d4)
    assert any(len({geo.info[s][0] for s in m}) == 2 for m in d4)  # one spans the region border


# ------------------------------------------------------------------ other components (digest 2.2)
def test_role_cards_five_per_colour_four_colours(prog):
    roles = [t for t in prog.type_order if prog.family_of[t] == "role"]
    assert roles == ["recruiter", "planner", "builder", "treasurer", "taskmaster"]
    assert len(prog.family_cards["role"]) == 20
    assert {t: prog.types[t]["repeat_cost"] for t in roles} == {
        "recruiter": 1,
        "planner": 2,
        "builder": 2,
        "treasurer": 3,
        "taskmaster": None,
    }


def test_wall_geometry_17_slots_per_region(prog):
    for players, slots in ((2, 34), (3, 34), (4, 51)):
        data = S.build(prog.boards["wall"], players, prog.table_for(players))
        geo = S.geometry(data)
        assert len(geo.slots) == slots
        assert len(geo.kinds["row"]) == 3 * data["regions"]
        assert [s for s in geo.slots if geo.info[s][1] == 4] == [
            f"R{r}L4C{c}" for r in range(1, data["regions"] + 1) for c in (1, 5)
        ]


# ------------------------------------------------------------------ setup rules
def test_isf_r1_eighteen_blocks_in_stock_none_on_the_board():
    g = fresh(3)
    assert g.state["counters"]["stock"] == [18, 18, 18]
    assert g.state["counters"]["block"] == [0, 0, 0]


def test_isf_r2_scores_start_at_zero_taskmasters_exist():
    g = fresh(4)
    assert g.state["counters"]["vp"] == [0, 0, 0, 0]
    assert g.state["vars"]["camp"] == [1, 1, 1, 1]


def test_isf_r3_each_player_has_one_set_of_five_roles():
    g = fresh(3)
    for s in range(3):
        types = sorted(g.state["cards"][c]["t"] for c in g.state["zones"][f"roles/{s}"])
        assert types == sorted(["recruiter", "planner", "builder", "treasurer", "taskmaster"])
        assert all(g.state["cards"][c]["o"] == s for c in g.state["zones"][f"roles/{s}"])


def test_isf_r4_two_regions_for_two_or_three_players_three_for_four():
    assert wall(fresh(2))["regions"] == 2
    assert wall(fresh(3))["regions"] == 2
    assert wall(fresh(4))["regions"] == 3


def test_isf_r5_taskmasters_start_in_region_one():
    assert fresh(3).state["vars"]["camp"] == [1, 1, 1]


def test_isf_r6_unused_colours_are_out_of_the_game():
    g = fresh(2)
    assert len(g.state["zones"]["role_box"]) == 10  # the two unused sets
    assert len(g.state["counters"]["stock"]) == 2


def test_isf_r7_twelve_jade_each():
    g = fresh(4)
    assert g.state["counters"]["jade"] == [12, 12, 12, 12]


def test_isf_r8_governor_supply_twelve_or_eleven():
    assert fresh(2).state["counters"]["governor_supply"] == 12
    assert fresh(3).state["counters"]["governor_supply"] == 12
    assert fresh(4).state["counters"]["governor_supply"] == 11


def test_isf_r9_players_start_without_workers_blocks_discs_treasure_prisons_empty():
    g = fresh(3)
    for name in ("laborer", "convict", "block", "buyback_disc", "treasure", "governor_block"):
        assert g.state["counters"][name] == [0, 0, 0], name
    assert all(v == {"jade": 0, "convict": 0} for v in wall(g)["stores"].values())


def test_isf_r10_governor_marker_held_by_nobody_at_start():
    assert fresh(2).state["vars"]["governor"] is None


def test_isf_r11_deal_five_keep_three_returned_cards_shuffled_back():
    g = fresh(3)
    assert [len(g.state["zones"][f"favours/{s}"]) for s in range(3)] == [5, 5, 5]
    assert g.pending["prompt"].startswith("Return a favour") and g.pending["seat"] == 0
    skip_setup(g)
    assert [len(g.state["zones"][f"favours/{s}"]) for s in range(3)] == [3, 3, 3]
    assert len(g.state["zones"]["favour_deck"]) == 36 - 9
    assert any(e.get("text") == "shuffle: the favour deck" for e in g.log[-20:])


def test_isf_r12_favour_hands_are_owner_only_public_information_is_public():
    g = fresh(2)
    skip_setup(g)
    v = g.view(1)
    assert v["zones"]["favours/0"]["cards"] == [] and v["zones"]["favours/0"]["hidden"] == 3
    assert len(v["zones"]["favours/1"]["cards"]) == 3
    assert v["counters"]["jade"] == g.state["counters"]["jade"]
    assert v["counters"]["laborer"] == g.state["counters"]["laborer"]
    assert v["boards"]["wall"] == wall(g)


# ------------------------------------------------------------------ player counts
def test_isf_r106_two_players_34_slots_12_governor_blocks():
    g = fresh(2)
    assert len(S.geometry(wall(g)).slots) == 34 and g.state["counters"]["governor_supply"] == 12


def test_isf_r107_three_players_34_slots_12_governor_blocks():
    g = fresh(3)
    assert len(S.geometry(wall(g)).slots) == 34 and g.state["counters"]["governor_supply"] == 12


def test_isf_r108_four_players_51_slots_11_governor_blocks():
    g = fresh(4)
    assert len(S.geometry(wall(g)).slots) == 51 and g.state["counters"]["governor_supply"] == 11


@pytest.mark.parametrize("players", [1, 5])
def test_isf_r109_other_player_counts_are_refused(players):
    with pytest.raises(MasonError) as exc:
        fresh(players)
    assert exc.value.code == "play/players"
