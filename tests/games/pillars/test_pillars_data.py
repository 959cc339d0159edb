"""The Pillars of the Earth: component counts, data invariants and status tags (digest "Components and data")."""

from __future__ import annotations

from collections import Counter

import pytest

from mason.model.loader import load_spec
from mason.session.game import load_program

STATUSES = {"exact", "inferred", "placeholder"}


@pytest.fixture(scope="module")
def prog():
    return load_program("pillars")


def comps(prog, family):
    return [prog.spec.component(t) for t in prog.type_order if prog.family_of[t] == family]


def total(prog, family):
    return sum(int(c.get("copies", 1)) for c in comps(prog, family))


def test_family_counts(prog):
    assert {f: total(prog, f) for f in prog.families} == {
        "craftsman": 36,
        "resource_card": 9,
        "advantage": 16,
        "event": 10,
        "kit": 28,
    }


def test_every_component_and_datum_has_a_status(prog):
    for fam in prog.families:
        for c in comps(prog, fam):
            assert c.get("status") in STATUSES, c["id"]
    g = prog.spec.game
    tagged = [(name, status) for status in STATUSES for name in g["sets"].get(f"status_{status}", [])]
    assert sorted(n for n, _ in tagged) == sorted(g["constants"])  # each constant exactly once
    for name, c in g["counters"].items():
        assert c.get("status") in STATUSES, name
    for loc in g["boards"]["town"]["locations"]:
        assert loc.get("status") in STATUSES, loc["id"]
    for good, d in g["boards"]["market"]["goods"].items():
        assert d.get("status") in STATUSES, good
    assert g["boards"]["cost"]["status"] == "exact"


def test_statuses_follow_the_digest(prog):
    status = {t: prog.spec.component(t)["status"] for t in prog.type_order}
    assert [t for t in ("sand_2", "wood_4", "stone_4") if status[t] == "exact"] == ["sand_2", "wood_4", "stone_4"]
    assert {t for t, s in status.items() if prog.family_of[t] == "resource_card" and s == "exact"} == {
        "sand_2",
        "wood_4",
        "stone_4",
    }
    assert {t for t, s in status.items() if prog.family_of[t] == "craftsman" and s == "exact"} == {
        "start_woodworker",
        "start_stonecutter",
    }
    assert all(status[t] == "exact" for t in prog.type_order if prog.family_of[t] in ("advantage", "event"))
    assert status["grey_worker"] == status["black_worker"] == "inferred"
    locs = {l["id"]: l["status"] for l in prog.spec.game["boards"]["town"]["locations"]}
    assert [l for l, s in locs.items() if s == "inferred"] == [
        "bishop",
        "kings_court",
        "shiring_castle",
        "market",
        "cathedral",
    ]


def test_kit(prog):
    t = prog.types
    assert t["master_builder"]["per_seat"] == 3 and prog.spec.component("master_builder")["copies"] == 12
    assert t["worker_set"]["per_seat"] == 12
    assert sorted(t["tax_die"]["faces"]) == [2, 3, 3, 4, 4, 5]
    assert prog.spec.component("cathedral_piece")["copies"] == 6


def test_global_values(prog):
    g = prog.spec.game
    c = g["constants"]
    assert (c["rounds"], c["start_vp"], c["start_gold"], c["start_gold_step"]) == (6, 2, 20, 1)
    assert (c["gold_ceiling"], c["craftsman_limit_base"], c["carry_limit"], c["debt_rate"]) == (30, 5, 5, 2)
    assert g["counters"]["gold"]["cap"] == 30
    assert g["players"] == {"min": 2, "max": 4}


# ------------------------------------------------------------------ resource cards
def test_resource_card_invariants(prog):
    cards = [prog.types[c["id"]] for c in comps(prog, "resource_card")]
    by_res = {}
    for c in cards:
        by_res.setdefault(c["resource"], []).append(c)
    assert set(by_res) == {"sand", "wood", "stone"}
    for res, lst in by_res.items():
        assert sorted(c["yield"] for c in lst) == [2, 3, 4]
        ordered = sorted(lst, key=lambda c: c["yield"])
        assert all(a["workers"] < b["workers"] for a, b in zip(ordered, ordered[1:])), res
    assert all(2 <= c["workers"] <= 10 for c in cards)
    assert prog.types["sand_2"]["workers"] == 2 and prog.types["stone_4"]["workers"] == 10
    for y in (2, 3, 4):
        w = {c["resource"]: c["workers"] for c in cards if c["yield"] == y}
        assert w["sand"] <= w["wood"] <= w["stone"]
    assert sum(c["workers"] for c in cards) == 54


# ------------------------------------------------------------------ craftsmen
def test_craftsman_counts_and_starters(prog):
    cs = comps(prog, "craftsman")
    starters = [c for c in cs if c["round"] == 0]
    assert [(c["id"], c["copies"]) for c in starters] == [
        ("start_mortar_mixer", 4),
        ("start_woodworker", 4),
        ("start_stonecutter", 4),
    ]
    assert Counter(c["round"] for c in cs if c["round"] > 0) == {r: 4 for r in range(1, 7)}


def test_craftsman_generation_invariants(prog):
    for c in (prog.types[x["id"]] for x in comps(prog, "craftsman") if x["round"] > 0):
        assert 2 <= c["price"] <= 10, c["id"]
        assert c["cap"] is None or 1 <= c["cap"] <= 8, c["id"]
        assert len(c["output"]) == 1 and set(c["output"]) <= {"vp", "gold"}, c["id"]
        best = c["output"][next(iter(c["output"]))] * (c["cap"] or 1)
        assert best <= 8, c["id"]
        if "gold" in c["output"]:
            assert c["round"] == 1, c["id"]
        if "metal" in c["input"]:
            assert c["round"] >= 4, c["id"]
        if "gold" in c["input"]:
            assert c["round"] >= 5, c["id"]
        if c["name"].startswith("Mason"):
            assert c["requires"] == "mortar_mixer", c["id"]
    prices = {r: [prog.types[x["id"]]["price"] for x in comps(prog, "craftsman") if x["round"] == r] for r in (1, 6)}
    assert sum(prices[1]) / 4 < sum(prices[6]) / 4


def test_craftsman_tags(prog):
    tagged = {}
    for c in comps(prog, "craftsman"):
        for tag in prog.types[c["id"]]["tags"]:
            tagged.setdefault(tag, set()).add(c["id"])
    assert tagged == {
        "mortar_mixer": {"start_mortar_mixer", "r1_expert_mortar_mixer"},
        "woodworker": {"start_woodworker", "r1_master_woodworker"},
        "stonecutter": {"start_stonecutter"},
        "no_boost": {"r6_bell_founder", "r6_organ_builder"},
    }


def test_craftsman_digest_rows(prog):
    t = prog.types
    rows = {  # id: (round, price, input, output, cap)
        "start_mortar_mixer": (0, None, {"sand": 3}, {"vp": 1}, 3),
        "start_woodworker": (0, None, {"wood": 2}, {"vp": 1}, 4),
        "start_stonecutter": (0, None, {"stone": 2}, {"vp": 1}, 4),
        "r1_tool_maker": (1, 2, {}, {"gold": 2}, None),
        "r1_master_woodworker": (1, 3, {"wood": 1}, {"gold": 4}, 2),
        "r2_architect": (2, 6, {}, {"vp": 1}, None),
        "r4_glassblower": (4, 8, {"sand": 1, "metal": 1}, {"vp": 3}, 1),
        "r5_goldsmith": (5, 7, {"gold": 3}, {"vp": 1}, 6),
        "r6_bell_founder": (6, 10, {"metal": 1}, {"vp": 4}, 2),
        "r6_organ_builder": (6, 9, {"wood": 1, "metal": 1}, {"vp": 6}, 1),
        "r6_goldsmith": (6, 7, {"gold": 3}, {"vp": 1}, 8),
    }
    for cid, (rnd, price, inp, out, cap) in rows.items():
        c = t[cid]
        assert (c["round"], c["price"], c["input"], c["output"], c["cap"]) == (rnd, price, inp, out, cap), cid
    assert t["r1_tool_maker"]["needs"] == {"metal": 1}


# ------------------------------------------------------------------ advantage and event cards
def test_advantage_cards(prog):
    cs = [prog.types[c["id"]] for c in comps(prog, "advantage")]
    assert Counter(c["kind"] for c in cs) == {"lasting": 8, "once": 3, "instant": 5}
    assert {c["id"] for c in cs if c["final"]} == {"stone_and_wood", "metal_1"}
    assert {c["id"] for c in cs if c["kind"] == "once"} == {"free_master_builder", "event_protection", "tax_exemption"}


def test_event_cards(prog):
    cs = [prog.types[c["id"]] for c in comps(prog, "event")]
    assert len(cs) == 10 and sum(c["harmful"] for c in cs) == 5
    assert [c["harmful"] for c in cs] == [False] * 5 + [True] * 5  # the seed lists the negative ones last


def test_board_and_market(prog):
    g = prog.spec.game
    spaces = {l["id"]: l["spaces"] for l in g["boards"]["town"]["locations"]}
    assert spaces == {
        "bishop": 1,
        "wool_mill": 0,
        "kingsbridge": 2,
        "priory": 2,
        "production": 0,
        "kings_court": 4,
        "shiring": 2,
        "shiring_castle": 1,
        "market": 4,
        "cathedral": 1,
        "build": 0,
    }
    assert sum(spaces.values()) == 17 >= 12
    goods = g["boards"]["market"]["goods"]
    assert {k: (v.get("buy"), v.get("sell"), v["stock"]) for k, v in goods.items()} == {
        "sand": (2, 2, 4),
        "wood": (3, 3, 4),
        "stone": (4, 4, 4),
        "metal": (None, 5, 0),
    }
    assert goods["wood"]["buy_needs"] == "woodworker" and goods["stone"]["sell_needs"] == "stonecutter"
    assert g["boards"]["cost"]["prices"] == [7, 6, 5, 4, 3, 2, 1, 0]


def test_variants_declared():
    spec = load_spec("pillars")
    assert [v["id"] for v in spec.game["variants"]] == ["tabletop", "no_start_player_veto", "gold_cap_wool_mill_only"]
    for v in spec.game["variants"]:
        assert load_program("pillars", (v["id"],)) is not None


def test_every_rule_and_example_has_a_test():
    import glob
    import re
    from pathlib import Path

    ids = set()
    for f in glob.glob(str(Path(__file__).parent / "test_pillars_*.py")):
        for name in re.findall(r"def (test_poe_[a-z0-9_]+)", Path(f).read_text(encoding="utf-8")):
            ids |= set(re.findall(r"(?:^test_poe_|_)([rx]\d+)(?=_|$)", name))
    assert not [f"POE-R{i}" for i in range(1, 131) if f"r{i}" not in ids]
    assert not [f"POE-X{i}" for i in range(1, 29) if f"x{i}" not in ids]
