"""Praga Caput Regni: plazas, the King's Road and the bridge, timing, technologies, Charles University,
the Hunger Wall and the Cathedral, windows (PCR-R85 .. PCR-R116; worked examples PCR-X7, PCR-X18,
PCR-X21).

Most component data and the map, crane and staircase geometry are placeholders (digest 2.0): the tests
put the tiles they need where they need them and read placeholder facts (hex surcharges, tile costs,
staircase cells, slot bonuses, track marks) from the loaded program instead of assuming them. Exact
data used as such: plaza tile pz_y1 (top: one sideways move, bottom: 3 gold), bridge tiles IV-1, IV-2,
V-1, V-4, building B-X1, the tier-crossing costs, the Cathedral anchors of PCR-X7, the University top (8)
and the level-IV technology mark (6).
"""

from __future__ import annotations

import itertools

import pytest
from pr_support import (
    act,
    card,
    counter,
    crane,
    done,
    evaluate,
    finish,
    goods,
    hex_put,
    labels,
    move_card,
    plain,
    prompt,
    ready,
    run,
    set_counter,
    set_goods,
    set_stair,
    set_track,
    set_var,
    stair,
    track,
    var,
    vp,
    zone,
)

_BASE: dict = {}


# ------------------------------------------------------------------ helpers of this file
def fresh(players=3, seed=1, start=0):
    """A calm copy of a set-up game (each set-up game is built once per player count and seed)."""
    key = (players, seed)
    if key not in _BASE:
        _BASE[key] = ready(players, seed)
    return plain(_BASE[key].copy(), start=start)


def T(g, type_id):
    return g.program.types[type_id]


def tname(g, type_id):
    return T(g, type_id)["name"]


def cstate(g, type_id):
    return g.state["cards"][card(g, type_id)]


def types_where(g, family, **props):
    """Type ids of ``family`` whose properties equal ``props``, whose card is not already on the map."""
    out = []
    for tid, t in g.program.types.items():
        if t.get("family") == family and all(t.get(k) == v for k, v in props.items()):
            if g.state["cards"][card(g, tid)]["z"] != "city_tiles":
                out.append(tid)
    return out


def hex_info(g, cell):
    return evaluate(g, f"hex_info('city', '{cell}')")


def empty_around(g, plaza):
    return [c for c in evaluate(g, f"plaza_hexes('{plaza}')") if evaluate(g, f"hex_empty('city', '{c}')")]


def set_plaza(g, plaza, type_id="pz_y1"):
    """Lay plaza tile ``type_id`` on ``plaza`` (whatever lay there leaves the game)."""
    cell = evaluate(g, f"plaza_cell('{plaza}')")
    for c in zone(g, "plazas"):
        if g.state["cards"][c]["cell"] == cell:
            move_card(g.rt, c, "out")
    c = card(g, type_id)
    g.state["cards"][c]["cell"] = cell
    move_card(g.rt, c, "plazas", facing="up")
    return c


def big_plaza(g, n=5):
    """A plaza with a tile and at least ``n`` empty hexes around it; pz_y1 is laid on it."""
    p = next(
        p
        for p in evaluate(g, "plaza_ids")
        if evaluate(g, f"plaza_tile_of('{p}')") is not None and len(empty_around(g, p)) >= n
    )
    set_plaza(g, p)
    return p, empty_around(g, p)


def claim(g, cell, type_id, seat):
    """A building already standing on ``cell`` with ``seat``'s cube on it (None: no cube)."""
    c = hex_put(g, "city", cell, type_id, owner_zone="city_tiles")
    g.state["cards"][c]["cube"] = seat
    return c


def cube_tiles(g):
    return types_where(g, "building", era=1, special=False, cube_space=True)


def crown_tile(g):
    """The cheapest era-I crown building costing no stone and whose reward holds no gold and no moves."""
    ts = [
        t
        for t in types_where(g, "building", era=1, special=False, cube_space=False, stone=0)
        if not set(T(g, t)["reward"]) & {"gold", "hw_side", "cath_side"}
    ]
    return min(ts, key=lambda t: T(g, t)["gold"])


def only_in_row(g, row, *type_ids, special=None):
    """Make ``type_ids`` the normal tiles of ``row`` ('up', 'wall', 'bld'), ``special`` its special."""
    for c in zone(g, f"{row}_row") + zone(g, f"{row}_special"):
        move_card(g.rt, c, "out")
    for t in type_ids:
        move_card(g.rt, card(g, t), f"{row}_row", facing="up")
    if special:
        move_card(g.rt, card(g, special), f"{row}_special", facing="up")


def afford(g, seat, type_id, cell, discount=0):
    """Give ``seat`` exactly the gold and stone to build ``type_id`` on ``cell``."""
    set_counter(g, "gold", seat, max(0, T(g, type_id)["gold"] + hex_info(g, cell)["surcharge"] - discount))
    set_counter(g, "stone", seat, T(g, type_id)["stone"])


def build(g, seat, type_id, cell, pay=True):
    """``seat`` builds ``type_id`` on ``cell`` through the game's own place_building rule."""
    if pay:
        afford(g, seat, type_id, cell)
    run(g, f"emit place_building(who={seat}, tile={card(g, type_id)})")
    act(g, cell)
    act(g, "0")


def answer_all(g, choices):
    """Answer pending decisions: ``choices`` maps a prompt prefix to a label (or a list used in turn).
    Returns [(seat, prompt)] of the decisions asked."""
    asked = []
    while g.pending:
        p = prompt(g)
        key = next((k for k in choices if p.startswith(k)), None)
        assert key is not None, f"unexpected decision {p} {labels(g)}"
        want = choices[key]
        if isinstance(want, list):
            want = want.pop(0)
        asked.append((g.pending["seat"], p))
        act(g, want)
    return asked


def moves(g, s):
    return counter(g, "hw_moves", s) + counter(g, "cath_moves", s)


def give_tech(g, seat, type_id, since=None):
    """Seat holds technology ``type_id``, gained in its own turn ``since`` (default: an earlier turn)."""
    c = card(g, type_id)
    move_card(g.rt, c, f"techs/{seat}", facing="up")
    g.state["cards"][c]["owner_seat"] = seat
    g.state["cards"][c]["since"] = var(g, "tech_turn", seat) - 1 if since is None else since
    return c


def now_in_turn(g, seat, n=1):
    """Seat plays its n-th own turn (technologies of levels I-II gained in earlier turns work)."""
    set_var(g, "tech_turn", n, seat)


def use(g, type_id, seat=0):
    give_tech(g, seat, type_id)
    run(g, f"emit use_tech(who={seat}, tile={card(g, type_id)})")


def stack_order(g, zone_name, *type_ids):
    """Make ``type_ids`` the top of ``zone_name`` (the first id on top)."""
    for t in reversed(type_ids):
        move_card(g.rt, card(g, t), zone_name, facing="")


def only_in(g, zone_name, *type_ids):
    for c in zone(g, zone_name):
        move_card(g.rt, c, "out")
    for t in type_ids:
        move_card(g.rt, card(g, t), zone_name, facing="")


def cell(g, board, row, col):
    return evaluate(g, f"stair_cell('{board}', {row}, {col})")


def find_cells(g, board, pred):
    """[(row, col)] of ``board`` whose cell code (and the code one column further) satisfy ``pred``."""
    out = []
    for r in range(1, 7):
        for c in range(1, 9):
            nxt = cell(g, board, r, c + 1) if c < 8 else None
            if pred(cell(g, board, r, c), nxt, r, c):
                out.append((r, c))
    return out


def is_vp(code):
    return isinstance(code, int) and not isinstance(code, bool)


def climb(g, board):
    """In the action window: move up a row on ``board`` for 2 silver windows."""
    act(g, "Move up a row")
    if prompt(g) == "Move up on which staircase?":
        act(g, board)


def side(g, board, seat=0):
    run(g, f'emit sideways(who={seat}, stair="{board}")')


def station_with(g, zone_name, bonus_ok):
    """A station of ``zone_name`` whose notch bonus satisfies ``bonus_ok`` (turning the wheel if needed)."""
    w = crane(g)
    for _ in range(13):
        for st in evaluate(g, "wheel_stations('crane')"):
            if (
                evaluate(g, f"zone_of('{st}')") == zone_name
                and evaluate(g, f"is_notch('{st}')")
                and bonus_ok(evaluate(g, f"slot_bonus('{st}')"))
            ):
                return st
        w["r"] = (w["r"] + 1) % 13
    raise AssertionError("no such station")


def tile_at(g, action, station):
    """Put an action tile showing ``action`` (side A) on ``station``, swapping with whatever lies there."""
    w = crane(g)
    tid = next(t for t in ("at_1", "at_2", "at_3", "at_4", "at_5", "at_6") if action in T(g, t)["a"])
    c = card(g, tid)
    mine = next(k for k, v in w["pieces"].items() if v == c)
    there = evaluate(g, f"wheel_slot_at('crane', '{station}')")
    w["pieces"][mine], w["pieces"][there] = w["pieces"][there], c
    return tid


# PCR-R2 planks: the reward under each plank, fixed here (gold, book, cap + 1 VP, Cathedral move, egg + 1 VP)
PLANKS = [["gold", "gold"], ["book"], ["cap", "vp1"], ["cath_side"], ["egg", "vp1"]]


# ------------------------------------------------------------------ plazas (PCR-R85 .. R91)
def _plaza_majority(g):
    """A plaza with pz_y1 and 5 empty hexes: seat 0 2 cubes, seat 1 1 cube, one building without cube;
    seat 2 (no cube) builds a crown building on the last hex. Returns the plaza."""
    p, hexes = big_plaza(g)
    cubes = cube_tiles(g)
    claim(g, hexes[0], cubes[0], 0)
    claim(g, hexes[1], cubes[1], 0)
    claim(g, hexes[2], cubes[2], 1)
    claim(g, hexes[3], cubes[3], None)
    build(g, 2, crown_tile(g), hexes[4])
    return p


def test_pcr_r85_building_the_last_empty_hex_resolves_the_plaza_at_once():
    g = fresh()
    p = _plaza_majority(g)
    assert p in var(g, "resolved")
    assert prompt(g) == "One sideways move: on which staircase?" and g.pending["seat"] == 0  # resolving now


def test_pcr_r85_a_plaza_with_an_empty_hex_left_is_not_resolved():
    g = fresh()
    p, hexes = big_plaza(g)
    cubes = cube_tiles(g)
    claim(g, hexes[0], cubes[0], 0)
    claim(g, hexes[1], cubes[1], 1)
    build(g, 2, crown_tile(g), hexes[2])
    assert done(g)
    assert p not in var(g, "resolved")
    assert goods(g, 0)["gold"] == 0 and moves(g, 0) == 0 and moves(g, 1) == 0


def test_pcr_r85_pre_built_tiles_count_as_filled_hexes():
    g = fresh()  # 3 players: some hexes are pre-built (PCR-R14)
    p = next(
        p
        for p in evaluate(g, "plaza_ids")
        if evaluate(g, f"plaza_tile_of('{p}')") is not None
        and 0 < len(empty_around(g, p)) < len(evaluate(g, f"plaza_hexes('{p}')"))
    )
    set_plaza(g, p)
    hexes = empty_around(g, p)
    for h in hexes[:-1]:
        claim(g, h, cube_tiles(g)[0], 1)
    build(g, 0, crown_tile(g), hexes[-1])
    assert p in var(g, "resolved")
    answer_all(g, {"One sideways move": "Hunger Wall"})
    assert goods(g, 1)["gold"] == 3 and counter(g, "hw_moves", 1) == 1


def test_pcr_r86_a_claimant_without_majority_takes_one_reward_of_its_choice():
    g = fresh()
    _plaza_majority(g)
    asked = answer_all(g, {"One sideways move": "Hunger Wall", "Plaza reward": "Bottom"})
    assert (1, "Plaza reward: the top or the bottom?") in asked
    assert goods(g, 1)["gold"] == 3  # the bottom: 3 gold ...
    assert moves(g, 1) == 0  # ... and not the top


def test_pcr_r86_the_top_reward_instead_of_the_bottom():
    g = fresh()
    _plaza_majority(g)
    answer_all(g, {"One sideways move": ["Hunger Wall", "Cathedral"], "Plaza reward": "Top"})
    assert goods(g, 1)["gold"] == 0
    assert counter(g, "cath_moves", 1) == 1 and counter(g, "hw_moves", 1) == 0


def test_pcr_r86_a_player_without_a_cube_gains_nothing():
    g = fresh()
    _plaza_majority(g)  # seat 2 builds the last hex, with no cube
    before = goods(g, 2), vp(g, 2)
    asked = answer_all(g, {"One sideways move": "Hunger Wall", "Plaza reward": "Bottom"})
    assert all(s != 2 for s, _ in asked)
    assert (goods(g, 2), vp(g, 2)) == before and moves(g, 2) == 0


def test_pcr_r87_the_player_with_most_cubes_gains_both_rewards():
    g = fresh()
    _plaza_majority(g)
    asked = answer_all(g, {"One sideways move": "Hunger Wall", "Plaza reward": "Bottom"})
    assert (0, "Plaza reward: the top or the bottom?") not in asked
    assert goods(g, 0)["gold"] == 3 and counter(g, "hw_moves", 0) == 1


def _weight(g, t):
    return T(g, t)["gold"] + T(g, t)["stone"]


def test_pcr_r88_tie_for_most_cubes_broken_by_the_banner_costs():
    g = fresh()
    p, hexes = big_plaza(g)
    cubes = sorted(cube_tiles(g), key=lambda t: _weight(g, t))
    heavy, light = cubes[-2:], cubes[:2]
    assert sum(_weight(g, t) for t in heavy) > sum(_weight(g, t) for t in light)
    claim(g, hexes[0], light[0], 1)
    claim(g, hexes[1], heavy[0], 0)
    claim(g, hexes[2], light[1], 1)
    claim(g, hexes[3], heavy[1], 0)
    build(g, 2, crown_tile(g), hexes[4])
    asked = answer_all(g, {"One sideways move": "Hunger Wall", "Plaza reward": "Bottom"})
    assert [s for s, q in asked if q.startswith("Plaza reward")] == [1]
    assert goods(g, 0)["gold"] == 3 and counter(g, "hw_moves", 0) == 1
    assert goods(g, 1)["gold"] == 3 and counter(g, "hw_moves", 1) == 0


def test_pcr_r88_players_still_tied_all_gain_both_rewards():
    g = fresh()
    p, hexes = big_plaza(g)
    cubes = cube_tiles(g)
    pairs = [
        (a, b)
        for a, b in itertools.product(itertools.combinations(cubes, 2), repeat=2)
        if not set(a) & set(b) and sum(map(lambda t: _weight(g, t), a)) == sum(map(lambda t: _weight(g, t), b))
    ]
    if not pairs:
        pytest.skip("no two pairs of cube buildings with equal costs in the data")
    a, b = pairs[0]
    for h, t, s in zip(hexes, (a[0], b[0], a[1], b[1]), (0, 1, 0, 1)):
        claim(g, h, t, s)
    build(g, 2, crown_tile(g), hexes[4])
    asked = answer_all(g, {"One sideways move": ["Hunger Wall", "Cathedral"]})
    assert [s for s, _ in asked] == [0, 1]  # from the active seat (2) on, no top/bottom choice
    assert goods(g, 0)["gold"] == 3 and goods(g, 1)["gold"] == 3
    assert counter(g, "hw_moves", 0) == 1 and counter(g, "cath_moves", 1) == 1


def test_pcr_r89_a_double_winner_makes_one_sideways_move_on_either_staircase_and_takes_the_bottom():
    g = fresh()
    _plaza_majority(g)
    assert g.pending["seat"] == 0 and labels(g) == ["Hunger Wall", "Cathedral"]
    act(g, "Cathedral")
    answer_all(g, {"Plaza reward": "Bottom"})
    assert counter(g, "cath_moves", 0) == 1 and counter(g, "hw_moves", 0) == 0  # one move, never both
    assert goods(g, 0)["gold"] == 3  # and the bottom


def test_pcr_r90_all_cubes_return_to_their_owners_after_resolution():
    g = fresh()
    p, hexes = big_plaza(g)
    cubes = cube_tiles(g)
    set_counter(g, "cubes", 0, 0)  # both of seat 0's free cubes go on the plaza
    set_counter(g, "cubes", 1, 1)
    claim(g, hexes[0], cubes[0], 0)
    claim(g, hexes[1], cubes[1], 1)
    claim(g, hexes[2], cubes[2], None)
    claim(g, hexes[3], cubes[3], None)
    afford(g, 0, cubes[4], hexes[4])
    run(g, f"emit place_building(who=0, tile={card(g, cubes[4])})")
    act(g, hexes[4])
    act(g, "0")  # no free cube left: built without a claim
    answer_all(g, {"One sideways move": "Hunger Wall", "Plaza reward": "Bottom"})
    assert counter(g, "cubes", 0) == 1 and counter(g, "cubes", 1) == 2
    assert all(g.state["cards"][c]["cube"] is None for c in zone(g, "city_tiles"))


def test_pcr_r91_an_empty_plaza_hex_resolves_without_rewards_and_returns_cubes():
    g = fresh()  # 3 players: one plaza hex stays empty (PCR-R6)
    p = next(p for p in evaluate(g, "plaza_ids") if evaluate(g, f"plaza_tile_of('{p}')") is None)
    hexes = empty_around(g, p)
    cubes = cube_tiles(g)
    set_counter(g, "cubes", 0, 0)  # seats 0, 1, 0 put their cubes there
    set_counter(g, "cubes", 1, 1)
    assert len(hexes) == 4
    for i, h in enumerate(hexes[:-1]):
        claim(g, h, cubes[i], i % 2)
    build(g, 2, crown_tile(g), hexes[-1])
    assert done(g)  # nobody is asked anything
    assert p in var(g, "resolved")
    assert goods(g, 0) == {k: 0 for k in goods(g, 0)} and goods(g, 1) == {k: 0 for k in goods(g, 1)}
    assert moves(g, 0) == 0 and moves(g, 1) == 0 and vp(g, 0) == 0 and vp(g, 1) == 0
    assert counter(g, "cubes", 0) == 2 and counter(g, "cubes", 1) == 2


def test_pcr_x18_plaza_tie_broken_by_banner_sum():
    """Red 2 cubes on buildings costing 3 g and 2 g + 1 s (6), Blue 2 cubes worth 5 in all (the
    placeholder data has no 1-gold building with a cube space, so any pair summing to 5), Green 1 cube:
    Red gains both rewards, Blue and Green one each, every cube returns."""
    g = fresh()
    cubes = cube_tiles(g)
    red = [next((t for t in cubes if (T(g, t)["gold"], T(g, t)["stone"]) == cost), None) for cost in ((3, 0), (2, 1))]
    blue = next(
        (
            pr
            for pr in itertools.combinations([t for t in cubes if t not in red], 2)
            if sum(_weight(g, t) for t in pr) == 5
        ),
        None,
    )
    if None in red or blue is None:
        pytest.skip("the building data has no such costs")
    green = next(t for t in cubes if t not in red and t not in blue)
    p, hexes = big_plaza(g)
    claim(g, hexes[0], red[0], 0)
    claim(g, hexes[1], blue[0], 1)
    claim(g, hexes[2], blue[1], 1)
    claim(g, hexes[3], green, 2)
    for s, n in ((0, 1), (1, 0), (2, 1)):
        set_counter(g, "cubes", s, n)
    build(g, 0, red[1], hexes[4])  # Red's second cube fills the plaza
    assert p in var(g, "resolved")
    gold0 = T(g, red[1])["reward"].count("gold")
    asked = answer_all(g, {"One sideways move": "Hunger Wall", "Plaza reward": ["Bottom", "Top"]})
    assert [s for s, q in asked if q.startswith("Plaza reward")] == [1, 2]
    assert [s for s, q in asked if q.startswith("One sideways")] == [0, 2]
    assert goods(g, 0)["gold"] == gold0 + 3 and counter(g, "hw_moves", 0) == 1
    assert goods(g, 1)["gold"] == 3 and moves(g, 1) == 0
    assert goods(g, 2)["gold"] == 0 and counter(g, "hw_moves", 2) == 1
    assert [counter(g, "cubes", s) for s in range(3)] == [2, 2, 2]


# ------------------------------------------------------------------ the King's Road (PCR-R92 .. R99)
def kings_road(g, seat=0):
    run(g, f'emit perform(who={seat}, action="kings_road", source="tile")')


def test_pcr_r92_kings_road_moves_the_pawn_to_the_next_zone():
    g = fresh()
    kings_road(g)
    assert var(g, "kr_zone", 0) == 1 and done(g)
    kings_road(g)
    assert var(g, "kr_zone", 0) == 2 and var(g, "kr_zone", 1) == 0


def test_pcr_r93_zone_one_counts_era_one_upgrades_and_the_egg_may_be_declined():
    g = fresh()
    for t in ("u1_01", "u1_05", "u2_01"):  # two era-I tiles (covered ones count too)
        move_card(g.rt, card(g, t), "upgrades/0", facing="up")
    set_counter(g, "egg", 0, 1)
    kings_road(g)
    assert vp(g, 0) == 6  # 3 VP per era-I upgrade tile
    assert labels(g)[-1] == "No" and all(l.startswith("Pay 1 egg") for l in labels(g)[:-1])
    act(g, "No")
    assert done(g) and counter(g, "egg", 0) == 1 and vp(g, 0) == 6


def test_pcr_r93_the_egg_effect_costs_one_egg():
    g = fresh()
    set_counter(g, "egg", 0, 2)
    kings_road(g)
    act(g, labels(g)[0])
    assert counter(g, "egg", 0) == 1


def test_pcr_r93_without_an_egg_only_the_egg_free_effect():
    g = fresh()
    set_var(g, "kr_zone", 1, 0)
    set_counter(g, "silver", 0, 2)
    kings_road(g)  # zone II: 2 VP per silver window, nothing paid
    assert done(g) and vp(g, 0) == 4 and counter(g, "silver", 0) == 2


def test_pcr_r93_zone_three_pay_gold_for_vp_and_decline_the_egg():
    g = fresh()
    set_var(g, "kr_zone", 2, 0)
    set_goods(g, 0, gold=1, egg=1)
    kings_road(g)
    act(g, "Pay 1 gold: 4 VP")
    assert prompt(g) == "Zone III: pay 1 egg for a reward?"
    act(g, "No")
    assert done(g) and vp(g, 0) == 4 and goods(g, 0)["gold"] == 0 and goods(g, 0)["egg"] == 1


def test_pcr_r94_zone_four_needs_an_egg():
    g = fresh()
    set_var(g, "kr_zone", 3, 0)
    assert evaluate(g, "can_perform(0, 'kings_road', 9)") is False
    assert not any(o[2] == "kings_road" for o in evaluate(g, "tile_options(0)"))
    set_counter(g, "egg", 0, 1)
    assert any(o[2] == "kings_road" for o in evaluate(g, "tile_options(0)"))
    kings_road(g)
    assert var(g, "kr_zone", 0) == 4 and counter(g, "egg", 0) == 0


def _zone_four(g):
    set_var(g, "plank_sides", PLANKS)
    stack_order(g, "iv_stack", "iv_1", "iv_5", "iv_2")  # iv_1 on top
    set_var(g, "kr_zone", 3, 0)
    set_counter(g, "egg", 0, 1)


def test_pcr_r95_zone_four_draw_three_keep_one_on_a_plank():
    g = fresh()
    _zone_four(g)
    kings_road(g)
    assert prompt(g) == "Keep which silver bridge tile?"
    assert sorted(labels(g)) == sorted(tname(g, t) for t in ("iv_1", "iv_5", "iv_2"))
    act(g, tname(g, "iv_1"))
    assert prompt(g).startswith("Put the tile on which plank") and labels(g) == ["1", "2", "3", "4", "5"]
    act(g, "1")
    assert done(g)
    # plank 1: 2 gold; IV-1: a Hunger Wall move, a silver window and 2 VP
    assert goods(g, 0)["gold"] == 2 and goods(g, 0)["silver"] == 1 and vp(g, 0) == 2
    assert counter(g, "hw_moves", 0) == 1 and counter(g, "egg", 0) == 0
    assert var(g, "plank_tiles")[0] == card(g, "iv_1") and cstate(g, "iv_1")["z"] == "bridge"
    stack = zone(g, "iv_stack")
    assert set(stack[:2]) == {card(g, "iv_5"), card(g, "iv_2")} and len(stack) == 5  # the others to the bottom


@pytest.mark.parametrize(
    "tile, track_name, start",
    [("iv_3", "gold_mine", 4), ("iv_4", "quarry", 3), ("iv_5", "technology", 0), ("iv_6", "university", 0)],
)
def test_pcr_d12_pcr_r95_silver_bridge_tile_advances_its_track_three_times(tile, track_name, start):
    """Seed l. 384 "(銀色)增加對應的軌道三次" (advance the matching track three times): keeping IV-3 ..
    IV-6 pays the plank and moves the tile's track 3 steps, each step with its one-shot effects."""
    g = fresh()
    set_var(g, "plank_sides", PLANKS)
    stack_order(g, "iv_stack", tile, "iv_1", "iv_2")
    set_var(g, "kr_zone", 3, 0)
    set_counter(g, "egg", 0, 1)
    assert track(g, 0, track_name) == start
    kings_road(g)
    act(g, tname(g, tile))
    act(g, "2")  # plank 2: a book
    finish(g)  # production tokens, technology draws: the first option
    book = 1 if track_name == "technology" else 0
    assert track(g, 0, track_name) == start + 3 + book
    assert track(g, 0, "technology") == (start + 3 if track_name == "technology" else 0) + 1  # the plank's book
    assert cstate(g, tile)["z"] == "bridge" and var(g, "plank_tiles")[1] == card(g, tile)


def test_pcr_d12_silver_bridge_tile_track_steps_past_the_top_give_2_vp():
    g = fresh()
    set_var(g, "plank_sides", PLANKS)
    stack_order(g, "iv_stack", "iv_6", "iv_1", "iv_2")
    set_var(g, "kr_zone", 3, 0)
    set_counter(g, "egg", 0, 1)
    set_track(g, 0, "university", 7)  # one step below the top (8): the other two give 2 VP each
    kings_road(g)
    act(g, tname(g, "iv_6"))
    act(g, "1")  # plank 1: 2 gold
    assert done(g)
    assert track(g, 0, "university") == 8 and vp(g, 0) == 4


def test_pcr_r96_zone_five_costs_an_egg_and_gives_a_gold_tile_and_its_plank():
    g = fresh()
    set_var(g, "plank_sides", PLANKS)
    set_var(g, "plank_tiles", [card(g, "iv_3"), None, None, None, None])
    only_in(g, "v_bridge", "v_1", "v_3")
    set_var(g, "kr_zone", 4, 0)
    set_counter(g, "egg", 0, 1)
    kings_road(g)
    assert prompt(g) == "Take which gold bridge tile?"
    act(g, tname(g, "v_1"))
    assert labels(g) == ["2", "3", "4", "5"]  # an empty plank
    act(g, "3")  # plank 3: cap + 1 VP
    assert done(g)
    assert var(g, "kr_zone", 0) == 5 and counter(g, "egg", 0) == 0
    assert vp(g, 0) == 1 + 3 and track(g, 0, "university") == 1  # plank + V-1's immediate 3 VP
    assert cstate(g, "v_1")["z"] == "bridge_held" and cstate(g, "v_1")["o"] == 0
    assert var(g, "plank_tiles")[2] == card(g, "v_1")


def test_pcr_r96_zone_five_without_an_egg_is_not_possible():
    g = fresh()
    set_var(g, "kr_zone", 4, 0)
    assert evaluate(g, "can_perform(0, 'kings_road', 9)") is False


def _full_bridge(g):
    set_var(g, "plank_sides", PLANKS)
    set_var(g, "plank_tiles", [card(g, t) for t in ("iv_3", "iv_4", "iv_6", "v_4", "v_5")])


def test_pcr_r97_complete_bridge_zone_four_keeps_the_reward_but_discards_the_tile():
    g = fresh()
    _zone_four(g)
    _full_bridge(g)
    kings_road(g)
    act(g, tname(g, "iv_2"))
    assert done(g)  # no plank to choose
    assert vp(g, 0) == 2 and counter(g, "cath_moves", 0) == 1 and goods(g, 0)["silver"] == 1
    assert goods(g, 0)["gold"] == 0  # no plank reward
    assert cstate(g, "iv_2")["z"] == "out"


def test_pcr_r97_complete_bridge_zone_five_keeps_the_gold_tile():
    g = fresh()
    _full_bridge(g)
    only_in(g, "v_bridge", "v_2", "v_3")
    set_var(g, "kr_zone", 4, 0)
    set_counter(g, "egg", 0, 1)
    kings_road(g)
    act(g, tname(g, "v_2"))
    assert done(g)  # no plank to choose
    assert zone(g, "bridge_held", 0) == [card(g, "v_2")] and var(g, "kr_zone", 0) == 5
    assert goods(g, 0)["gold"] == 0 and vp(g, 0) == 0


def test_pcr_r98_empty_gold_stack_zone_five_gives_nothing():
    g = fresh()
    only_in(g, "v_bridge")
    set_var(g, "kr_zone", 4, 0)
    set_counter(g, "egg", 0, 1)
    assert evaluate(g, "can_perform(0, 'kings_road', 0)") is True  # allowed ...
    kings_road(g)
    assert done(g)  # ... and pointless
    assert var(g, "kr_zone", 0) == 5 and vp(g, 0) == 0 and zone(g, "bridge_held", 0) == []


def test_pcr_r99_no_kings_road_from_zone_five():
    g = fresh()
    set_var(g, "kr_zone", 5, 0)
    set_goods(g, 0, gold=9, egg=3, goldwin=2)
    assert evaluate(g, "can_perform(0, 'kings_road', 9)") is False
    opts = evaluate(g, "tile_options(0)")
    assert opts and not any(o[2] == "kings_road" for o in opts)
    run(g, "turn 0")
    act(g, "Buy an extra action")
    assert prompt(g) == "Which extra action?" and "kings_road" not in labels(g)


# ------------------------------------------------------------------ timing (PCR-R100, R101)
def test_pcr_r100_no_red_zone_tile_before_its_cost():
    g = fresh()
    st = next(
        s
        for s in evaluate(g, "wheel_occupied('crane')")
        if evaluate(g, f"station_cost('{s}')") > 0
        and set(evaluate(g, f"tile_actions(wheel_piece_at('crane', '{s}'))")) & {"gold_mine", "quarry"}
    )
    cost = evaluate(g, f"station_cost('{st}')")
    set_goods(g, 0, gold=cost - 1)
    assert not any(o[1] == st for o in evaluate(g, "tile_options(0)"))
    set_goods(g, 0, gold=cost)
    opts = [o[0] for o in evaluate(g, "tile_options(0)") if o[1] == st and o[2] in ("gold_mine", "quarry")]
    assert opts
    run(g, "emit take_tile(who=0)")
    act(g, opts[0])
    assert goods(g, 0)["gold"] == 0  # paid before the action
    assert prompt(g).startswith("Manage")


def test_pcr_r100_no_building_benefit_before_its_cost():
    g = fresh()
    cheap = crown_tile(g)
    dear = next(
        t for t in types_where(g, "building", era=1, special=False, stone=0) if T(g, t)["gold"] > T(g, cheap)["gold"]
    )
    other = next(t for t in types_where(g, "building", era=1, special=False, stone=0) if t not in (cheap, dear))
    only_in_row(g, "bld", dear, cheap, other)
    new_town = next(
        c
        for c in evaluate(g, "hex_cells('city')")
        if hex_info(g, c)["kind"] == "build_new" and evaluate(g, f"hex_empty('city', '{c}')")
    )
    set_goods(g, 0, gold=T(g, cheap)["gold"])
    run(g, 'emit perform(who=0, action="building", source="tile")')
    if prompt(g) == "Take which building tile?":
        assert tname(g, dear) not in labels(g)
        act(g, tname(g, cheap))
    act(g, new_town)
    act(g, "0")
    assert cstate(g, dear)["z"] == "bld_row"


def test_pcr_r101_free_order_inside_the_turn():
    g = fresh()
    set_goods(g, 0, goldwin=2, silver=2)
    give_tech(g, 0, "t3_3")
    set_counter(g, "hw_moves", 0, 1)
    run(g, "turn 0")
    before = labels(g)
    for lab in (
        "Take an action tile and perform its action",
        "Buy an extra action (2 gold windows, or 1 gold + 1 silver)",
        "Move up a row on the Hunger Wall or the Cathedral (2 silver windows)",
        "Make a sideways move you gained this turn",
        "Use a one-shot technology (level III or IV)",
    ):
        assert lab in before
    assert "End turn" not in before  # the action tile is mandatory
    act(g, "Buy an extra action")  # the extra action before the tile
    act(g, "2 gold windows")
    act(g, "gold_mine")
    act(g, "Gain 1 and add one")
    assert track(g, 0, "gold_mine") == 5
    act(g, "Use a one-shot technology")
    assert track(g, 0, "university") == 4
    act(g, "Make a sideways move")
    assert stair(g, 0, "hunger_wall") == [1, 2]
    act(g, "Take an action tile")
    act(g, next(l for l in labels(g) if "quarry" in l and "pay" not in l))
    act(g, "Gain 1 and add one")
    assert "End turn" in labels(g)


# ------------------------------------------------------------------ technologies (PCR-R102 .. R107)
def mark(g, level):
    return next(p for p, lv in g.program.constants["tech_marks"] if lv == level)


def test_pcr_r102_book_mark_draws_three_keeps_one_rest_to_the_bottom():
    g = fresh()
    set_track(g, 0, "technology", mark(g, 1) - 1)
    pile = zone(g, "tech_1")
    top3 = pile[-3:]
    run(g, 'emit gain_icon(who=0, icon="book")')
    assert prompt(g) == "Keep which technology?"
    name = lambda c: g.program.types[g.state["cards"][c]["t"]]["name"]
    assert sorted(labels(g)) == sorted(name(c) for c in top3)
    keep = top3[-1]
    act(g, name(keep))
    assert done(g)
    assert zone(g, "techs", 0) == [keep] and g.state["cards"][keep]["up"]
    after = zone(g, "tech_1")
    assert len(after) == len(pile) - 1 and set(after[:2]) == set(top3[:2])


def test_pcr_r102_fewer_tiles_left_fewer_drawn():
    g = fresh()
    for c in zone(g, "tech_2")[:-2]:
        move_card(g.rt, c, "out")
    set_track(g, 0, "technology", mark(g, 2) - 1)
    run(g, 'emit gain_icon(who=0, icon="book")')
    assert prompt(g) == "Keep which technology?" and len(labels(g)) == 2


def test_pcr_r103_level_one_works_only_from_the_next_own_turn():
    g = fresh()
    now_in_turn(g, 0, 3)
    c = give_tech(g, 0, "t1_5", since=3)  # gained in this turn
    assert evaluate(g, "has_tech(0, 't1_5')") is False
    set_counter(g, "silver", 0, 4)
    run(g, 'emit up_move(who=0, stair="hunger_wall", free=false)')
    assert vp(g, 0) == 0
    run(g, "turn 0")  # the next own turn
    assert var(g, "tech_turn", 0) == 4 and g.state["cards"][c]["since"] == 3
    before = vp(g, 0)
    climb(g, "cathedral")
    row, col = stair(g, 0, "cathedral")
    landed = cell(g, "cathedral", row, col)
    assert vp(g, 0) - before == 2 + (landed if is_vp(landed) else 0)


def test_pcr_r103_drawn_technology_is_marked_with_the_turn_gained():
    g = fresh()
    now_in_turn(g, 0, 5)
    set_track(g, 0, "technology", mark(g, 1) - 1)
    run(g, 'emit gain_icon(who=0, icon="book")')
    act(g, labels(g)[0])
    (c,) = zone(g, "techs", 0)
    assert g.state["cards"][c]["since"] == 5
    code = g.state["cards"][c]["t"]
    assert evaluate(g, f"has_tech(0, '{code}')") is False
    now_in_turn(g, 0, 6)
    assert evaluate(g, f"has_tech(0, '{code}')") is True


def test_pcr_r104_level_three_is_one_shot_usable_in_the_turn_gained():
    g = fresh()
    give_tech(g, 0, "t3_3", since=1)
    run(g, "turn 0")  # own turn 1: the turn it was gained
    act(g, "Use a one-shot technology")
    assert track(g, 0, "university") == 4
    assert cstate(g, "t3_3")["z"] == "out"
    assert not any(l.startswith("Use a one-shot") for l in labels(g))


def test_pcr_r104_a_one_shot_can_wait_for_a_later_turn():
    g = fresh()
    give_tech(g, 0, "t3_3", since=1)
    now_in_turn(g, 0, 7)
    run(g, "turn 0")
    assert any(l.startswith("Use a one-shot") for l in labels(g))


def test_pcr_r104_level_one_is_not_a_one_shot():
    g = fresh()
    give_tech(g, 0, "t1_5")
    run(g, "turn 0")
    assert not any(l.startswith("Use a one-shot") for l in labels(g))


def test_pcr_r105_no_tiles_after_the_level_four_mark_and_2_vp_past_the_top():
    g = fresh()
    set_track(g, 0, "technology", mark(g, 4))
    run(g, 'emit gain_icon(who=0, icon="book")')
    assert done(g) and track(g, 0, "technology") == mark(g, 4) + 1 and zone(g, "techs", 0) == []
    top = evaluate(g, "track_top('tracks', 'technology')")
    set_track(g, 0, "technology", top)
    run(g, 'emit gain_icons(who=0, icons=["book", "book"])')
    assert done(g) and track(g, 0, "technology") == top and vp(g, 0) == 4


def _mine_upgrade(g):
    """Seat 0's Manage Mines is upgraded with u1_01."""
    hex_put(g, "action_0", "1,0", "u1_01", owner_zone="upgrades", seat=0)
    return T(g, "u1_01")["reward"]


def _as_gain(g, icons, seat=0):
    """What gaining ``icons`` does to seat's goods and VP, on a copy."""
    h = g.copy()
    run(h, f"emit gain_icons(who={seat}, icons={icons!r})".replace("'", '"'))
    return goods(h, seat), vp(h, seat)


def test_pcr_r106_a_technology_granted_action_earns_the_upgrade_reward():
    g = fresh()
    reward = _mine_upgrade(g)
    give_tech(g, 0, "t4_3")
    run(g, f"emit use_tech(who=0, tile={card(g, 't4_3')})")
    act(g, "gold_mine")
    act(g, "Gain 1 and add one")
    assert var(g, "claims") == ["gold_mine"]
    expected = _as_gain(g, reward)
    run(g, "emit claim_reward(who=0)")
    assert (goods(g, 0), vp(g, 0)) == expected


def test_pcr_r106_t4_6_is_not_a_manage_action():
    g = fresh()
    _mine_upgrade(g)
    base = g.copy()
    run(base, 'emit advance(who=0, track="gold_mine", n=1)')
    run(base, 'emit produce(who=0, track="gold_mine")')
    use(g, "t4_6")
    act(g, "One more gold mine")
    act(g, "Produce gold")
    assert done(g) and var(g, "claims") == []  # no Manage Mines upgrade reward
    assert track(g, 0, "gold_mine") == 5
    assert goods(g, 0) == goods(base, 0) and vp(g, 0) == vp(base, 0)


def test_pcr_r107_t1_1_doubles_its_wheel_bonus_icon():
    g = fresh()
    icon = T(g, "t1_1")["icon"]
    now_in_turn(g, 0)
    give_tech(g, 0, "t1_1")
    st = station_with(g, "green", lambda b: b == icon)
    tile_at(g, "quarry", st)
    base = g.copy()
    move_card(base.rt, card(base, "t1_1"), "out")
    for h in (g, base):
        run(h, "emit take_tile(who=0)")
        act(h, f"{st}: quarry")
        act(h, "Gain 1 and add one")
    assert vp(g, 0) == vp(base, 0) + 1
    extra = _as_gain(base, [icon])
    assert goods(g, 0) == extra[0]


def test_pcr_r107_t1_3_two_vp_per_step_on_its_track():
    g = fresh()
    icon = T(g, "t1_3")["icon"]
    other = "quarry" if icon == "gold_mine" else "gold_mine"
    now_in_turn(g, 0)
    give_tech(g, 0, "t1_3")
    run(g, f'emit advance(who=0, track="{icon}", n=1)')
    assert vp(g, 0) == 2
    run(g, f'emit advance(who=0, track="{other}", n=1)')
    assert vp(g, 0) == 2


def test_pcr_r107_t1_5_two_vp_for_a_free_up_move_too():
    g = fresh()
    now_in_turn(g, 0)
    give_tech(g, 0, "t1_5")
    base = g.copy()
    move_card(base.rt, card(base, "t1_5"), "out")
    for h in (g, base):
        run(h, 'emit up_move(who=0, stair="hunger_wall", free=true)')
    assert vp(g, 0) == vp(base, 0) + 2


def test_pcr_r107_t1_6_one_more_vp_when_the_tile_gave_vp():
    g = fresh()
    now_in_turn(g, 0)
    give_tech(g, 0, "t1_6")
    st = station_with(g, "blue", lambda b: b in (None, "buy_egg_gold", "buy_egg_stone", "cap", "gold_window"))
    tile_at(g, "gold_mine", st)
    run(g, "emit take_tile(who=0)")
    act(g, f"{st}: gold_mine")
    act(g, "Gain 1 and add one")
    assert vp(g, 0) == evaluate(g, f"station_vp('{st}')") + 1


def _with_and_without(g, tech, action):
    """Run ``action(h)`` on g (holding ``tech`` since an earlier turn) and on a copy without it."""
    now_in_turn(g, 0)
    give_tech(g, 0, tech)
    base = g.copy()
    move_card(base.rt, card(base, tech), "out")
    for h in (g, base):
        action(h)
    return base


def test_pcr_r107_t2_1_building_with_a_cathedral_icon():
    g = fresh()
    t = types_where(g, "building", era=1, special=False, cathedral=True)[0]
    h = next(
        c
        for c in evaluate(g, "hex_cells('city')")
        if hex_info(g, c)["kind"] == "build_new" and evaluate(g, f"hex_empty('city', '{c}')")
    )
    base = _with_and_without(g, "t2_1", lambda x: build(x, 0, t, h))
    assert vp(g, 0) == vp(base, 0) + 1
    assert goods(g, 0)["gold"] == goods(base, 0)["gold"] + 1


@pytest.mark.parametrize("tech, mark, resource", [("t2_2", "red", "stone"), ("t2_3", "blue", "gold")])
def test_pcr_r107_t2_2_t2_3_fire_on_corner_tokens_from_any_source_once_per_turn(tech, mark, resource):
    """README, question 7: seed l. 405 "如果你得到對應圖示的角落獎勵指示物" names the token kind (the
    red and blue "corner bonus tokens" of final scoring, l. 309, whatever gave them), not the link: a
    token from an upgrade or plaza reward counts; once per turn."""
    g = fresh()
    base = _with_and_without(g, tech, lambda x: run(x, f'emit gain_icons(who=0, icons=["{mark}_token"])'))
    assert counter(g, mark, 0) == counter(base, mark, 0) == 1
    assert vp(g, 0) == vp(base, 0) + 1 and goods(g, 0)[resource] == goods(base, 0)[resource] + 1
    run(g, f'emit gain_icons(who=0, icons=["{mark}_token"])')  # the same turn: not again
    assert counter(g, mark, 0) == 2 and vp(g, 0) == vp(base, 0) + 1
    other = "blue" if mark == "red" else "red"
    h = fresh()
    base = _with_and_without(h, tech, lambda x: run(x, f'emit gain_icons(who=0, icons=["{other}_token"])'))
    assert vp(h, 0) == vp(base, 0) and goods(h, 0) == goods(base, 0)  # the other colour: nothing


def test_pcr_r107_t2_2_and_t2_3_each_fire_once_in_the_same_turn():
    g = fresh()
    now_in_turn(g, 0)
    give_tech(g, 0, "t2_2")
    give_tech(g, 0, "t2_3")
    run(g, 'emit gain_icons(who=0, icons=["red_token", "blue_token", "red_token"])')
    assert vp(g, 0) == 2 and goods(g, 0)["stone"] == 1 and goods(g, 0)["gold"] == 1


def test_pcr_r107_t2_3_fires_for_a_plaza_claimant_outside_its_own_turn():
    g = fresh()
    now_in_turn(g, 1)
    give_tech(g, 1, "t2_3")
    run(g, 'emit gain_icons(who=1, icons=["blue_token"])')  # e.g. a plaza bottom reward in P1's turn
    assert vp(g, 1) == 1 and goods(g, 1)["gold"] == 1


def test_pcr_r107_t2_4_building_without_a_cathedral_icon():
    g = fresh()
    t = crown_tile(g)
    h = next(
        c
        for c in evaluate(g, "hex_cells('city')")
        if hex_info(g, c)["kind"] == "build_new" and evaluate(g, f"hex_empty('city', '{c}')")
    )
    base = _with_and_without(g, "t2_4", lambda x: build(x, 0, t, h))
    assert vp(g, 0) == vp(base, 0) + 1
    assert goods(g, 0)["gold"] == goods(base, 0)["gold"] + 1
    g2 = fresh()
    t2 = types_where(g2, "building", era=1, special=False, cathedral=True)[0]
    base2 = _with_and_without(g2, "t2_4", lambda x: build(x, 0, t2, h))
    assert vp(g2, 0) == vp(base2, 0) and goods(g2, 0) == goods(base2, 0)  # not for a cathedral building


def test_pcr_r107_t2_5_each_egg_gives_vp_and_stone():
    g = fresh()
    base = _with_and_without(g, "t2_5", lambda x: run(x, 'emit gain_icons(who=0, icons=["egg", "egg"])'))
    assert goods(g, 0)["egg"] == 2 and vp(g, 0) == vp(base, 0) + 2
    assert goods(g, 0)["stone"] == goods(base, 0)["stone"] + 2


def _wall(g):
    t = types_where(g, "wall", era=1, special=False, hunger_wall=True, gold=0)[0]
    only_in_row(g, "wall", t)
    set_counter(g, "stone", 0, T(g, t)["stone"])
    run(g, 'emit perform(who=0, action="wall", source="tile")')
    act(g, evaluate(g, "ring_free(0)")[0])
    act(g, "0")


def test_pcr_r107_t2_6_wall_with_a_hunger_wall_icon():
    g = fresh()
    base = _with_and_without(g, "t2_6", _wall)
    assert vp(g, 0) == vp(base, 0) + 1
    assert goods(g, 0)["stone"] == goods(base, 0)["stone"] + 1
    assert counter(g, "hw_moves", 0) == counter(base, "hw_moves", 0) == 1


def test_pcr_r107_t3_1_egg_then_kings_road():
    g = fresh()
    use(g, "t3_1")
    assert var(g, "kr_zone", 0) == 1
    assert prompt(g) == "Zone I: pay 1 egg for a reward?"
    act(g, "No")
    assert counter(g, "egg", 0) == 1


def test_pcr_r107_t3_2_free_up_move_ignores_windows_and_tier_cost():
    g = fresh()
    set_stair(g, 0, "hunger_wall", 2, 1)
    use(g, "t3_2")
    act(g, "hunger_wall")
    assert stair(g, 0, "hunger_wall")[0] == 3
    assert goods(g, 0)["gold"] == 0 and goods(g, 0)["stone"] == 0 and goods(g, 0)["silver"] == 0


def test_pcr_r107_t3_3_university_four_steps():
    g = fresh()
    set_track(g, 0, "university", 6)
    use(g, "t3_3")
    assert track(g, 0, "university") == 8 and vp(g, 0) == 4  # 2 steps, then 2 VP for each step past the top


def test_pcr_r107_t3_4_upgrade_and_three_vp():
    g = fresh()
    only_in_row(g, "up", "u1_03")
    use(g, "t3_4")
    act(g, "0")  # the only tile is taken, then turned
    assert vp(g, 0) == 3
    assert cstate(g, "u1_03")["z"] == "upgrades" and track(g, 0, "university") == 1
    assert var(g, "claims") == ["upgrade"]


def test_pcr_r107_t3_6_produce_stone_and_two_gold():
    g = fresh()
    base = g.copy()
    run(base, 'emit produce(who=0, track="quarry")')
    use(g, "t3_6")
    assert done(g)
    assert goods(g, 0)["stone"] == goods(base, 0)["stone"]
    assert goods(g, 0)["gold"] == goods(base, 0)["gold"] + 2 and var(g, "claims") == []


def test_pcr_r107_t4_1_building_two_gold_cheaper_surcharge_included():
    g = fresh()
    t = crown_tile(g)
    only_in_row(g, "bld", t)
    h = next(
        c
        for c in evaluate(g, "hex_cells('city')")
        if hex_info(g, c)["kind"] == "build_old"
        and hex_info(g, c)["surcharge"] >= 1
        and evaluate(g, f"hex_empty('city', '{c}')")
    )
    need = T(g, t)["gold"] + hex_info(g, h)["surcharge"] - 2
    set_goods(g, 0, gold=need)
    assert evaluate(g, f"can_perform(0, 'building', {need})") is False  # not without the technology
    use(g, "t4_1")
    act(g, h)
    act(g, "0")
    assert cstate(g, t)["z"] == "city_tiles"
    assert goods(g, 0)["gold"] == 0 and var(g, "gold_discount") == 0


def test_pcr_r107_t4_2_wall_two_stone_cheaper():
    g = fresh()
    t = next(x for x in types_where(g, "wall", era=1, special=False, gold=0) if T(g, x)["stone"] >= 3)
    only_in_row(g, "wall", t)
    set_goods(g, 0, stone=T(g, t)["stone"] - 2)
    use(g, "t4_2")
    act(g, evaluate(g, "ring_free(0)")[0])
    act(g, "0")
    assert goods(g, 0)["stone"] == 0 and zone(g, "walls", 0) == [card(g, t)]
    assert var(g, "stone_discount") == 0


def test_pcr_r104_t4_1_is_neither_offered_nor_spent_when_no_building_can_be_paid():
    """README, question 7: T4-1 is "執行建造建築" (perform Build building); a building that cannot be
    paid cannot be taken (seed l. 185), so the one-shot tile stays for a later turn."""
    g = fresh()
    t = next(x for x in types_where(g, "building", era=1, special=False, stone=0) if T(g, x)["gold"] >= 4)
    only_in_row(g, "bld", t)
    give_tech(g, 0, "t4_1")
    set_goods(g, 0, gold=T(g, t)["gold"] - 3)  # even 2 gold cheaper: unpayable
    run(g, "turn 0")
    assert not any(l.startswith("Use a one-shot technology") for l in labels(g))
    assert cstate(g, "t4_1")["z"] == "techs"
    g = fresh()
    only_in_row(g, "bld", t)
    give_tech(g, 0, "t4_1")
    set_goods(g, 0, gold=T(g, t)["gold"] - 2)  # payable with the discount on a new-town hex
    run(g, "turn 0")
    act(g, "Use a one-shot technology")
    assert prompt(g) == "Build on which hex of the city?"


def test_pcr_r104_t4_2_is_neither_offered_nor_spent_when_no_wall_can_be_paid():
    g = fresh()
    t = next(x for x in types_where(g, "wall", era=1, special=False, gold=0) if T(g, x)["stone"] >= 4)
    only_in_row(g, "wall", t)
    give_tech(g, 0, "t4_2")
    set_goods(g, 0, stone=T(g, t)["stone"] - 3)
    run(g, "turn 0")
    assert not any(l.startswith("Use a one-shot technology") for l in labels(g))
    assert evaluate(g, f"tech_usable(0, {card(g, 't4_2')})") is False
    set_goods(g, 0, stone=T(g, t)["stone"] - 2)
    assert evaluate(g, f"tech_usable(0, {card(g, 't4_2')})") is True
    give_tech(g, 0, "t3_3")  # another one-shot tile: only the usable ones are listed
    set_goods(g, 0, stone=0)
    assert evaluate(g, "[t for t in techs(0) if tech_usable(0, t)]") == [card(g, "t3_3")]


def test_pcr_r107_t4_4_gold_window_and_upgrade():
    g = fresh()
    only_in_row(g, "up", "u1_03")
    use(g, "t4_4")
    act(g, "0")
    assert goods(g, 0)["goldwin"] == 1 and cstate(g, "u1_03")["z"] == "upgrades"


def test_pcr_r107_t4_5_both_rewards_of_any_plaza_tile():
    g = fresh()
    set_plaza(g, evaluate(g, "plaza_ids")[1], "pz_y1")
    set_var(g, "resolved", [evaluate(g, "plaza_ids")[1]])  # resolved or not
    use(g, "t4_5")
    act(g, tname(g, "pz_y1"))
    act(g, "Hunger Wall")
    assert done(g)
    assert goods(g, 0)["gold"] == 3 and counter(g, "hw_moves", 0) == 1


def test_pcr_r107_t4_6_one_more_quarry_then_produce():
    g = fresh()
    base = g.copy()
    run(base, 'emit advance(who=0, track="quarry", n=1)')
    run(base, 'emit produce(who=0, track="quarry")')
    use(g, "t4_6")
    act(g, "One more quarry")
    act(g, "Produce stone")
    for h in (g, base):  # a book bonus may draw a technology
        while h.pending and prompt(h) == "Keep which technology?":
            act(h, labels(h)[0])
    assert track(g, 0, "quarry") == track(base, 0, "quarry") == 4
    assert goods(g, 0)["stone"] == goods(base, 0)["stone"] and var(g, "claims") == []


def test_pcr_x21_t3_5_produces_gold_and_two_stone_without_the_mine_reward():
    g = fresh()
    _mine_upgrade(g)
    base = g.copy()
    run(base, 'emit produce(who=0, track="gold_mine")')
    give_tech(g, 0, "t3_5")
    run(g, "turn 0")
    act(g, "Use a one-shot technology")
    assert goods(g, 0)["gold"] == goods(base, 0)["gold"] > 0
    assert goods(g, 0)["stone"] == goods(base, 0)["stone"] + 2
    assert var(g, "claims") == []  # no Manage Mines upgrade reward
    assert not any(l.startswith("Take an upgrade reward") for l in labels(g))


# ------------------------------------------------------------------ Charles University (PCR-R108)
def test_pcr_r108_university_steps_give_nothing_and_2_vp_past_the_top():
    g = fresh()
    run(g, 'emit gain_icons(who=0, icons=["cap", "cap"])')
    assert done(g) and track(g, 0, "university") == 2 and vp(g, 0) == 0
    set_track(g, 0, "university", 7)
    run(g, 'emit advance(who=0, track="university", n=3)')
    assert track(g, 0, "university") == 8 and vp(g, 0) == 4


# ------------------------------------------------------------------ Hunger Wall and Cathedral (PCR-R109 .. R115)
def test_pcr_r109_sideways_moves_one_column_forward():
    g = fresh()
    set_stair(g, 0, "hunger_wall", 1, 1)
    set_stair(g, 0, "cathedral", 1, 1)
    side(g, "hunger_wall")
    side(g, "cathedral")
    assert stair(g, 0, "hunger_wall")[1] >= 2 and stair(g, 0, "cathedral")[1] >= 2
    g = fresh()
    r, c = find_cells(g, "cathedral", lambda x, nxt, r, c: c < 8 and x == "." and nxt == ".")[0]
    set_stair(g, 0, "cathedral", r, c)
    side(g, "cathedral")
    assert stair(g, 0, "cathedral") == [r, c + 1]


def test_pcr_r109_sideways_from_the_last_column_is_lost():
    g = fresh()
    r = next(r for r in range(1, 7) if is_vp(cell(g, "cathedral", r, 8)))
    set_stair(g, 0, "cathedral", r, 8)
    side(g, "cathedral")
    assert done(g) and stair(g, 0, "cathedral") == [r, 8] and vp(g, 0) == 0  # no second landing


def test_pcr_r109_unused_moves_are_made_at_the_end_of_the_turn():
    g = fresh()
    set_counter(g, "cath_moves", 0, 1)
    run(g, "emit resolve_moves(who=0)")
    assert stair(g, 0, "cathedral")[1] >= 2 and counter(g, "cath_moves", 0) == 0


def test_pcr_r110_up_moves_for_two_silver_windows_each_any_number():
    g = fresh()
    set_goods(g, 0, silver=6, gold=1, stone=2)
    set_stair(g, 0, "hunger_wall", 3, 1)
    run(g, "turn 0")
    climb(g, "hunger_wall")
    climb(g, "hunger_wall")  # row 4 -> 5 also pays the tier crossing
    climb(g, "cathedral")
    assert stair(g, 0, "hunger_wall")[0] == 5 and stair(g, 0, "cathedral")[0] == 2
    assert goods(g, 0)["silver"] == 0
    assert not any(l.startswith("Move up a row") for l in labels(g))


def test_pcr_r110_one_silver_window_is_not_enough():
    g = fresh()
    set_goods(g, 0, silver=1)
    assert evaluate(g, "can_climb(0, 'cathedral', 2)") is False
    run(g, "turn 0")
    assert not any(l.startswith("Move up a row") for l in labels(g))


def test_pcr_r111_tier_crossing_costs():
    g = fresh()
    set_stair(g, 0, "hunger_wall", 2, 1)
    set_goods(g, 0, silver=2, gold=1, stone=0)
    assert evaluate(g, "can_climb(0, 'hunger_wall', 2)") is False  # I -> II: 1 gold + 1 stone
    set_goods(g, 0, silver=2, gold=1, stone=1)
    run(g, 'emit up_move(who=0, stair="hunger_wall", free=false)')
    assert stair(g, 0, "hunger_wall")[0] == 3 and goods(g, 0)["gold"] == 0 and goods(g, 0)["stone"] == 0
    set_stair(g, 0, "cathedral", 4, 1)
    set_goods(g, 0, silver=2, gold=1, stone=1)
    assert evaluate(g, "can_climb(0, 'cathedral', 2)") is False  # II -> III: 1 gold + 2 stone
    set_goods(g, 0, silver=2, gold=1, stone=2)
    assert evaluate(g, "can_climb(0, 'cathedral', 2)") is True
    set_stair(g, 0, "cathedral", 3, 1)
    set_goods(g, 0, silver=2)
    assert evaluate(g, "can_climb(0, 'cathedral', 2)") is True  # inside a tier: windows only


def test_pcr_r112_landing_on_a_vp_cell_scores_it():
    g = fresh()
    r, c = find_cells(g, "cathedral", lambda x, nxt, r, c: c < 8 and is_vp(nxt))[0]
    set_stair(g, 0, "cathedral", r, c)
    side(g, "cathedral")
    assert vp(g, 0) == cell(g, "cathedral", r, c + 1)
    g = fresh()  # by an up move too (inside tier I)
    r, c = next((r, c) for r, c in find_cells(g, "hunger_wall", lambda x, nxt, r, c: r == 2 and is_vp(x)))
    set_stair(g, 0, "hunger_wall", 1, c)
    run(g, 'emit up_move(who=0, stair="hunger_wall", free=false)')
    assert stair(g, 0, "hunger_wall") == [2, c] and vp(g, 0) == cell(g, "hunger_wall", 2, c)


def test_pcr_r113_a_sideways_arrow_moves_on_and_the_new_cell_applies():
    g = fresh()
    found = [
        (b, rc)
        for b in ("cathedral", "hunger_wall")
        for rc in find_cells(g, b, lambda x, nxt, r, c: c < 8 and x == ">" and is_vp(nxt))
    ]
    b, (r, c) = found[0]
    set_stair(g, 0, b, r, c - 1)
    assert cell(g, b, r, c - 1) != ">"
    side(g, b)
    assert stair(g, 0, b) == [r, c + 1] and vp(g, 0) == cell(g, b, r, c + 1)


def test_pcr_r114_an_up_arrow_offers_a_window_free_move_paying_the_tier():
    g = fresh()
    assert cell(g, "cathedral", 2, 3) == "^"  # exact anchor (PCR-X7)
    set_stair(g, 0, "cathedral", 2, 2)
    set_goods(g, 0, gold=1, stone=1)
    side(g, "cathedral")
    assert labels(g) == ["Move up", "Stay"]
    act(g, "Move up")
    assert stair(g, 0, "cathedral") == [3, 3] and goods(g, 0)["gold"] == 0 and goods(g, 0)["stone"] == 0


def test_pcr_r114_a_declined_up_arrow_is_lost():
    g = fresh()
    set_stair(g, 0, "cathedral", 2, 2)
    set_goods(g, 0, gold=1, stone=1)
    side(g, "cathedral")
    act(g, "Stay")
    assert done(g) and stair(g, 0, "cathedral") == [2, 3]
    run(g, "turn 0")  # no saved chance in the action window
    assert not any(l.startswith("Move up a row") for l in labels(g))


def test_pcr_r114_an_unpayable_tier_crossing_loses_the_up_arrow():
    g = fresh()
    set_stair(g, 0, "cathedral", 2, 2)
    set_goods(g, 0, gold=1)
    side(g, "cathedral")
    assert done(g) and stair(g, 0, "cathedral") == [2, 3]


def test_pcr_r115_first_reaching_the_cathedral_top_tier_takes_a_gold_tile():
    g = fresh()
    only_in(g, "v_cathedral", "v_4", "v_6")
    set_stair(g, 0, "cathedral", 4, 1)
    set_goods(g, 0, silver=4, gold=2, stone=4)
    run(g, 'emit up_move(who=0, stair="cathedral", free=false)')
    assert prompt(g) == "Take which gold tile beside the Cathedral?"
    act(g, tname(g, "v_4"))
    assert cstate(g, "v_4")["z"] == "bridge_held" and cstate(g, "v_4")["o"] == 0
    assert vp(g, 0) == 3 + (cell(g, "cathedral", 5, 1) if is_vp(cell(g, "cathedral", 5, 1)) else 0)  # V-4: 3 VP now
    set_stair(g, 0, "cathedral", 5, 1)
    run(g, 'emit up_move(who=0, stair="cathedral", free=true)')  # row 6: no second tile
    assert prompt(g) != "Take which gold tile beside the Cathedral?"
    assert zone(g, "v_cathedral") == [card(g, "v_6")]


def test_pcr_r115_the_hunger_wall_top_tier_gives_no_gold_tile():
    g = fresh()
    set_stair(g, 0, "hunger_wall", 4, 1)
    run(g, 'emit up_move(who=0, stair="hunger_wall", free=true)')
    assert prompt(g) != "Take which gold tile beside the Cathedral?" and len(zone(g, "v_cathedral")) == 3


# ------------------------------------------------------------------ windows (PCR-R116)
def test_pcr_r116_gold_windows_do_not_pay_up_moves():
    g = fresh()
    set_goods(g, 0, goldwin=2)
    run(g, "turn 0")
    assert not any(l.startswith("Move up a row") for l in labels(g))
    assert "Buy an extra action (2 gold windows, or 1 gold + 1 silver)" in labels(g)


def test_pcr_r116_silver_windows_alone_do_not_buy_the_extra_action():
    g = fresh()
    set_goods(g, 0, silver=2)
    run(g, "turn 0")
    assert not any(l.startswith("Buy an extra action") for l in labels(g))
    assert any(l.startswith("Move up a row") for l in labels(g))


def test_pcr_r116_one_gold_and_one_silver_window_buy_the_extra_action():
    g = fresh()
    set_goods(g, 0, goldwin=1, silver=1)
    run(g, "turn 0")
    act(g, "Buy an extra action")
    if prompt(g) == "Pay the extra action with?":
        assert labels(g) == ["1 gold window and 1 silver window"]
        act(g, "1 gold window and 1 silver window")
    assert prompt(g) == "Which extra action?"
    assert goods(g, 0)["goldwin"] == 0 and goods(g, 0)["silver"] == 0


def test_pcr_r116_one_gold_window_alone_buys_nothing():
    g = fresh()
    set_goods(g, 0, goldwin=1)
    run(g, "turn 0")
    assert not any(l.startswith("Buy an extra action") for l in labels(g))


# ------------------------------------------------------------------ worked example PCR-X7
def _x7(g):
    only_in_row(g, "bld", "b1_08")  # B-X1: 4 gold, silver window, cathedral
    set_goods(g, 0, gold=5, stone=1)
    set_stair(g, 0, "cathedral", 1, 3)
    st = station_with(g, "green", lambda b: b == "silver_window")
    tile_at(g, "building", st)
    new_town = next(
        c
        for c in evaluate(g, "hex_cells('city')")
        if hex_info(g, c)["kind"] == "build_new" and evaluate(g, f"hex_empty('city', '{c}')")
    )
    run(g, "turn 0")
    act(g, "Take an action tile")
    act(g, f"{st}: building")
    act(g, new_town)
    act(g, "0")
    assert goods(g, 0)["silver"] == 2 and goods(g, 0)["gold"] == 1 and counter(g, "cath_moves", 0) == 1


def test_pcr_x7_cathedral_moves_up_arrow_first():
    g = fresh(seed=2)  # B-X1 is not pre-built with this seed
    _x7(g)
    climb(g, "cathedral")
    assert stair(g, 0, "cathedral") == [2, 3] and labels(g) == ["Move up", "Stay"]
    act(g, "Move up")  # the up arrow: tier I -> II, 1 gold + 1 stone
    assert stair(g, 0, "cathedral") == [3, 3]
    act(g, "Make a sideways move")
    assert stair(g, 0, "cathedral") == [3, 4]
    assert vp(g, 0) == 2
    assert goods(g, 0)["gold"] == 0 and goods(g, 0)["stone"] == 0 and goods(g, 0)["silver"] == 0


def test_pcr_x7_sideways_first_misses_the_up_arrow():
    g = fresh(seed=2)
    _x7(g)
    act(g, "Make a sideways move")
    assert stair(g, 0, "cathedral")[1] >= 4
    climb(g, "cathedral")
    assert stair(g, 0, "cathedral")[0] == 2  # no up arrow: tier II not reached
    assert goods(g, 0)["gold"] == 1 and goods(g, 0)["stone"] == 1
