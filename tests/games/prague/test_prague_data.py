"""Praga Caput Regni: data sanity of the component files (digest 2.0, 2.4 - 2.18).

The files are read with PyYAML only (the game itself is not loaded): one test per family checks the
counts, type splits, cost lists and invariants the digest states, plus the real tiles of its examples.
"""

from __future__ import annotations

from collections import Counter

import paths
import yaml

GAME_DIR = paths.ROOT / "games" / "prague"
STATUSES = {"exact", "inferred", "placeholder"}
COMMON = {"id", "name", "copies", "status", "text"}
ACTIONS = {"gold_mine", "quarry", "upgrade", "wall", "building", "kings_road"}
HEX_ACTIONS = ["upgrade", "wall", "building"]
VPS = {f"vp{n}": n for n in range(1, 10)}
# value unit u (digest 2.0); side_choice = one sideways move on either staircase
U = {
    "gold": 1,
    "stone": 1,
    "silver_window": 1.5,
    "gold_window": 3,
    "egg": 2,
    "book": 1.5,
    "cap": 1,
    "red_token": 1.5,
    "blue_token": 1.5,
    "hw_side": 2,
    "cath_side": 2,
    "side_choice": 2,
    **VPS,
}
ICONS = set(U)
EDGE_POOL = {"gold", "stone", "silver_window", "book", "vp2"}

FILES = {  # file: (family, count, family-specific properties)
    "action_tiles.yaml": ("action_tile", 6, {"a", "b"}),
    "upgrades.yaml": ("upgrade", 30, {"era", "special", "action", "reward", "edges", "corners"}),
    "buildings.yaml": (
        "building",
        36,
        {"era", "special", "gold", "stone", "reward", "cathedral", "cube_space", "crown", "corners"},
    ),
    "walls.yaml": ("wall", 36, {"era", "special", "stone", "gold", "reward", "hunger_wall", "edges", "corners"}),
    "technologies.yaml": ("technology", 24, {"level", "code", "icon"}),
    "production_tokens.yaml": ("production_token", 8, {"reward"}),
    "plazas.yaml": ("plaza_tile", 11, {"colour", "top", "bottom"}),
    "bridge_tiles.yaml": ("bridge_tile", 12, {"stack", "reward", "track", "final"}),
    "seals.yaml": ("seal", 5, {"gold", "stone", "ability"}),
    "kings_road_tiles.yaml": ("kings_road_tile", 3, {"zone", "action", "vp", "extra"}),
}


def load(name: str) -> list[dict]:
    doc = yaml.safe_load((GAME_DIR / name).read_text(encoding="utf-8"))
    family, count, props = FILES[name]
    assert doc["family"] == family
    comps = doc["components"]
    assert sum(c.get("copies", 1) for c in comps) == count, name
    for c in comps:
        assert c.get("status") in STATUSES, c["id"]
        assert set(c) - COMMON == props, (c["id"], set(c) ^ (props | COMMON))
        assert isinstance(c.get("name"), str) and c["name"], c["id"]
    return comps


def by_id(comps):
    return {c["id"]: c for c in comps}


def value(icons) -> float:
    assert all(i in ICONS for i in icons), icons
    return sum(U[i] for i in icons)


def marks(corners, colour):
    assert len(corners) == 6 and set(corners) <= {colour, None}, corners
    return corners.count(colour)


def icons_on(edges):
    assert len(edges) == 6 and set(edges) - {None} <= EDGE_POOL, edges
    return [e for e in edges if e is not None]


def assert_books_and_windows_most_common(tiles):
    freq = Counter(i for t in tiles for i in icons_on(t["edges"]))
    top = min(freq["book"], freq["silver_window"])
    assert all(freq[i] < top for i in ("gold", "stone", "vp2")), freq


def test_ids_are_unique_across_all_files():
    ids = [c["id"] for name in FILES for c in load(name)]
    assert len(ids) == len(set(ids))


# ------------------------------------------------------------------ 2.4 action tiles
def test_action_tiles_counts_and_invariants():
    tiles = load("action_tiles.yaml")
    assert [t["id"] for t in tiles] == [f"at_{i}" for i in range(1, 7)]
    for side in ("a", "b"):
        for t in tiles:
            assert len(t[side]) == 2 and set(t[side]) <= ACTIONS and t[side][0] != t[side][1], t["id"]
        assert Counter(a for t in tiles for a in t[side]) == {a: 2 for a in ACTIONS}, side
    # side A: one hex action per tile, recommended order from s0 (exact)
    hexes = [[a for a in t["a"] if a in HEX_ACTIONS] for t in tiles]
    assert hexes == [[a] for a in HEX_ACTIONS * 2]
    assert set(tiles[0]["a"]) == {"upgrade", "kings_road"}  # the seed's example tile


# ------------------------------------------------------------------ 2.6 upgrade tiles
UPGRADE_NORMAL = {"gold_mine": 2, "quarry": 2, "upgrade": 2, "wall": 2, "building": 2, "kings_road": 1}
UPGRADE_SPECIAL = {1: ["upgrade", "wall", "building", "kings_road"], 2: ["gold_mine", "quarry", "wall", "building"]}
UPGRADE_POOL = [
    ["vp1"],
    ["vp2"],
    ["gold"],
    ["stone"],
    ["gold", "gold"],
    ["stone", "stone"],
    ["silver_window"],
    ["book"],
    ["cap"],
    ["gold_window"],
    ["red_token"],
    ["hw_side"],
    ["cath_side"],
]


def test_upgrade_tiles_counts_and_invariants():
    tiles = load("upgrades.yaml")
    for era in (1, 2):
        mine = [t for t in tiles if t["era"] == era]
        assert [t["id"] for t in mine] == [f"u{era}_{i:02d}" for i in range(1, 16)]
        normal = [t for t in mine if not t["special"]]
        special = [t for t in mine if t["special"]]
        assert [t["id"] for t in special] == [f"u{era}_{i}" for i in range(12, 16)]  # specials last
        assert Counter(t["action"] for t in normal) == UPGRADE_NORMAL
        assert sorted(t["action"] for t in special) == sorted(UPGRADE_SPECIAL[era])
        # red corners: 1 mark on 7 normal tiles, 2 on 4 normal tiles and on every special
        assert Counter(marks(t["corners"], "red") for t in normal) == {1: 7, 2: 4}
        assert all(marks(t["corners"], "red") == 2 for t in special)
        for t in mine:
            edge_icons = icons_on(t["edges"])
            assert len(edge_icons) == (3 if t["special"] else 2), t["id"]
            assert None in t["edges"], t["id"]  # a blank edge carries the cap reminder
            assert t["reward"] in UPGRADE_POOL, t["id"]
            v = value(t["reward"])
            lo, hi = (1, 2) if era == 1 else (1, 3)
            if t["special"]:
                lo, hi = lo + 1, hi + 1
            assert lo <= v <= hi, (t["id"], v)
            if "gold_window" in t["reward"]:
                assert t["action"] == "upgrade" or t["special"], t["id"]
            if {"hw_side", "cath_side"} & set(t["reward"]):
                assert t["special"], t["id"]
            assert t["status"] in ("placeholder", "exact", "inferred")
    assert_books_and_windows_most_common(tiles)
    u = by_id(tiles)
    # the seed's real tiles (2.6e)
    x1, x2, x3 = u["u2_05"], u["u2_06"], u["u2_07"]
    assert (x1["era"], x1["action"], x1["reward"]) == (2, "upgrade", ["stone", "stone"])
    assert "silver_window" in x1["edges"] and marks(x1["corners"], "red") >= 1
    assert (x2["action"], x2["reward"]) == ("upgrade", ["gold_window"])
    assert (x3["era"], x3["action"], x3["reward"]) == (2, "wall", ["vp1"]) and marks(x3["corners"], "red") >= 1
    assert ("silver_window" in x2["edges"] and "book" in x3["edges"]) or (
        "book" in x2["edges"] and "silver_window" in x3["edges"]
    )
    assert (x1["status"], x2["status"], x3["status"]) == ("exact", "inferred", "exact")
    assert {t["id"] for t in tiles if t["status"] != "placeholder"} == {"u2_05", "u2_06", "u2_07"}


# ------------------------------------------------------------------ 2.7 building tiles
BUILDING_NORMAL_I = [
    (1, 0),
    (2, 0),
    (2, 0),
    (2, 0),
    (3, 0),
    (3, 0),
    (3, 0),
    (4, 0),
    (4, 0),
    (5, 0),
    (1, 1),
    (2, 1),
    (2, 1),
    (3, 1),
]
BUILDING_SPECIAL_I = [(3, 0), (4, 0), (5, 0), (4, 1)]
BUILDING_POOL = {"silver_window", "gold_window", "book", "cap", "egg", "stone", *VPS}


def test_building_tiles_counts_and_invariants():
    tiles = load("buildings.yaml")
    for era in (1, 2):
        mine = [t for t in tiles if t["era"] == era]
        assert [t["id"] for t in mine] == [f"b{era}_{i:02d}" for i in range(1, 19)]
        normal = [t for t in mine if not t["special"]]
        special = [t for t in mine if t["special"]]
        assert [t["id"] for t in special] == [f"b{era}_{i}" for i in range(15, 19)]
        extra = era - 1  # era II: each era-I cost + 1 gold
        assert sorted((t["gold"], t["stone"]) for t in normal) == sorted((g + extra, s) for g, s in BUILDING_NORMAL_I)
        assert sorted((t["gold"], t["stone"]) for t in special) == sorted((g + extra, s) for g, s in BUILDING_SPECIAL_I)
        # type split: cube type 8 normal + 2 special, crown type 6 + 2
        assert Counter(t["cube_space"] for t in normal) == {True: 8, False: 6}
        assert Counter(t["cube_space"] for t in special) == {True: 2, False: 2}
        assert Counter(marks(t["corners"], "blue") for t in mine) == {0: 3, 1: 8, 2: 5, 3: 2}
        for t in mine:
            assert t["cathedral"] == t["cube_space"], t["id"]  # cathedral <=> cube space
            assert t["crown"] == (not t["cube_space"]), t["id"]  # crown <=> no cube space
            assert t["gold"] >= 1, t["id"]
            cost = t["gold"] + t["stone"]
            assert set(t["reward"]) <= BUILDING_POOL, t["id"]
            if "gold_window" in t["reward"]:
                assert cost >= 4, t["id"]
            target = max(1, cost - (2 if t["cube_space"] else 1)) + (2 if t["special"] else 0)
            assert abs(value(t["reward"]) - target) <= 0.5, (t["id"], value(t["reward"]), target)
    bx1 = by_id(tiles)["b1_08"]  # B-X1 (2.7e)
    assert (bx1["gold"], bx1["stone"], bx1["reward"], bx1["cathedral"], bx1["cube_space"]) == (
        4,
        0,
        ["silver_window"],
        True,
        True,
    )
    assert {t["id"] for t in tiles if t["status"] != "placeholder"} == {"b1_08"} and bx1["status"] == "exact"


# ------------------------------------------------------------------ 2.8 wall tiles
WALL_NORMAL_I = [
    (1, 0),
    (1, 0),
    (2, 0),
    (2, 0),
    (2, 0),
    (3, 0),
    (3, 0),
    (3, 0),
    (4, 0),
    (4, 0),
    (5, 0),
    (1, 1),
    (2, 1),
    (3, 1),
]
WALL_SPECIAL_I = [(3, 0), (4, 0), (5, 0), (4, 1)]


def test_wall_tiles_counts_and_invariants():
    tiles = load("walls.yaml")
    for era in (1, 2):
        mine = [t for t in tiles if t["era"] == era]
        assert [t["id"] for t in mine] == [f"w{era}_{i:02d}" for i in range(1, 19)]
        normal = [t for t in mine if not t["special"]]
        special = [t for t in mine if t["special"]]
        assert [t["id"] for t in special] == [f"w{era}_{i}" for i in range(15, 19)]
        extra = era - 1  # era II: each era-I cost + 1 stone
        assert sorted((t["stone"], t["gold"]) for t in normal) == sorted((s + extra, g) for s, g in WALL_NORMAL_I)
        assert sorted((t["stone"], t["gold"]) for t in special) == sorted((s + extra, g) for s, g in WALL_SPECIAL_I)
        assert Counter(t["hunger_wall"] for t in normal) == {True: 6, False: 8}
        assert Counter(t["hunger_wall"] for t in special) == {True: 2, False: 2}
        assert Counter(len(icons_on(t["edges"])) for t in mine) == {1: 10, 2: 8}
        assert Counter(marks(t["corners"], "red") for t in mine) == {0: 4, 1: 10, 2: 4}
        swaps = 0
        for t in mine:
            assert t["stone"] >= 1, t["id"]
            cost = t["stone"] + t["gold"]
            vp = cost + (0 if t["hunger_wall"] else 2) + (2 if t["special"] else 0)
            plain = [f"vp{vp}"]
            if t["reward"] != plain:  # 2 VP swapped for a silver window or an egg
                swaps += 1
                assert t["reward"] in ([i, f"vp{vp - 2}"] for i in ("silver_window", "egg")), t["id"]
            assert value(t["reward"]) >= cost, t["id"]
        assert swaps <= 4, era
    assert_books_and_windows_most_common(tiles)
    wx1 = by_id(tiles)["w2_06"]  # W-X1 (2.8e)
    assert (wx1["era"], wx1["stone"], wx1["gold"], wx1["reward"]) == (2, 4, 0, ["vp6"])
    assert marks(wx1["corners"], "red") >= 1
    assert {t["id"] for t in tiles if t["status"] != "placeholder"} == {"w2_06"} and wx1["status"] == "exact"


# ------------------------------------------------------------------ 2.15 technology tiles
TECH_ICONS = {
    "t1_1": "silver_window",
    "t1_2": "book",
    "t1_3": "gold_mine",
    "t1_4": "quarry",
    "t2_2": "red_token",
    "t2_3": "blue_token",
}
TECH_PLACEHOLDER = {"t1_1", "t1_2", "t1_3", "t1_4", "t2_1", "t2_2", "t2_3", "t2_4", "t2_6"}


def test_technology_tiles_counts_and_invariants():
    tiles = load("technologies.yaml")
    assert Counter(t["level"] for t in tiles) == {1: 6, 2: 6, 3: 6, 4: 6}
    assert [t["id"] for t in tiles] == [f"t{lv}_{n}" for lv in range(1, 5) for n in range(1, 7)]
    for t in tiles:
        assert t["code"] == t["id"] == f"t{t['level']}_{t['id'][-1]}"
        assert t["icon"] == TECH_ICONS.get(t["id"]), t["id"]
        assert isinstance(t["text"], str) and len(t["text"]) > 10, t["id"]
        assert t["status"] == ("placeholder" if t["id"] in TECH_PLACEHOLDER else "exact"), t["id"]


# ------------------------------------------------------------------ 2.16 production tokens
def test_production_tokens_counts_and_invariants():
    tokens = load("production_tokens.yaml")
    assert [t["id"] for t in tokens] == [f"pt_{i}" for i in range(1, 9)]
    kinds = Counter(tuple(sorted(t["reward"])) for t in tokens)
    # at least the helper's 3-player bot set: two_point x2, point_gold, point_stone, gold, stone
    assert kinds[("vp2",)] >= 2 and kinds[("gold", "vp1")] >= 1 and kinds[("stone", "vp1")] >= 1
    assert kinds[("gold", "gold")] >= 1 and kinds[("stone", "stone")] >= 1
    assert all(value(t["reward"]) == 2 for t in tokens)  # each about 2 u


# ------------------------------------------------------------------ 2.11 plaza tiles
def test_plaza_tiles_counts_and_invariants():
    tiles = load("plazas.yaml")
    assert Counter(t["colour"] for t in tiles) == {"yellow": 5, "green": 6}
    assert [t["id"] for t in tiles] == [f"pz_y{i}" for i in range(1, 6)] + [f"pz_g{i}" for i in range(1, 7)]
    glossary = by_id(tiles)["pz_y1"]
    assert (glossary["top"], glossary["bottom"], glossary["status"]) == (["side_choice"], ["gold"] * 3, "exact")
    for t in tiles:
        assert t["top"] and set(t["top"]) <= ICONS, t["id"]
        assert t["top"] == ["side_choice"], t["id"]  # default top (PCR-D10)
        assert 3 <= value(t["bottom"]) <= 4, t["id"]
        assert t["status"] == ("exact" if t["id"] == "pz_y1" else "placeholder"), t["id"]


# ------------------------------------------------------------------ 2.13 bridge tiles
def test_bridge_tiles_counts_and_invariants():
    tiles = load("bridge_tiles.yaml")
    t = by_id(tiles)
    assert [x["id"] for x in tiles] == [f"iv_{i}" for i in range(1, 7)] + [f"v_{i}" for i in range(1, 7)]
    assert Counter(x["stack"] for x in tiles) == {"iv": 6, "v": 6}
    for x in tiles:
        assert set(x["reward"]) <= ICONS, x["id"]
    assert sorted(t["iv_1"]["reward"]) == ["hw_side", "silver_window", "vp2"]
    assert sorted(t["iv_2"]["reward"]) == ["cath_side", "silver_window", "vp2"]
    assert [t[f"iv_{i}"]["track"] for i in (1, 2)] == [None, None]
    assert sorted(t[f"iv_{i}"]["track"] for i in range(3, 7)) == ["gold_mine", "quarry", "technology", "university"]
    assert all(t[f"iv_{i}"]["reward"] == [] for i in range(3, 7))
    assert all(x["final"] is None for x in tiles if x["stack"] == "iv")
    assert [t[f"v_{i}"]["final"] for i in range(1, 7)] == [
        "university_pos",
        "upgrades_x3",
        "walls_x2",
        "mines",
        "quarries",
        "rows_x2",
    ]
    assert [t[f"v_{i}"]["reward"] for i in range(1, 7)] == [["vp3"], [], [], ["vp3"], ["vp3"], []]
    assert all(x["track"] is None for x in tiles if x["stack"] == "v")
    assert {x["id"] for x in tiles if x["status"] == "inferred"} == {"iv_3", "iv_4", "iv_5", "iv_6"}
    assert all(x["status"] == "exact" for x in tiles if x["id"] not in {"iv_3", "iv_4", "iv_5", "iv_6"})


# ------------------------------------------------------------------ 2.18 seals
SEAL_ABILITIES = {
    "gold_x2": ("rate", 2),
    "stone_x2": ("rate", 2),
    "pair_x3": ("rate", 3),
    "flat6": ("flat", 6),
    "eggs_x3": ("rate", 3),
}


def test_seals_counts_and_invariants():
    seals = load("seals.yaml")
    assert [s["id"] for s in seals] == ["s1", "s2", "s3", "s4", "s5"]
    assert [s["ability"] for s in seals[:3]] == ["gold_x2", "stone_x2", "pair_x3"]  # S1-S3 unchanged
    assert [s["ability"] for s in seals] == ["gold_x2", "stone_x2", "pair_x3", "flat6", "eggs_x3"]
    for s in seals:
        assert 0 <= s["gold"] + s["stone"] <= 2 and s["gold"] >= 0 and s["stone"] >= 0, s["id"]
        kind, n = SEAL_ABILITIES[s["ability"]]
        assert (n <= 8) if kind == "flat" else (2 <= n <= 3), s["id"]
        assert s["status"] == "placeholder", s["id"]  # every claim cost is a placeholder


# ------------------------------------------------------------------ 2.12 King's Road tiles
def test_kings_road_tiles_counts_and_invariants():
    tiles = load("kings_road_tiles.yaml")
    assert [(t["id"], t["zone"], t["action"], t["vp"]) for t in tiles] == [
        ("kr_1", 1, "upgrade", 2),
        ("kr_2", 2, "wall", 2),
        ("kr_3", 3, "building", 3),
    ]
    assert [t["extra"] for t in tiles] == ["gold_or_stone", [], "without_cathedral"]
    assert all(t["status"] == "exact" for t in tiles)
