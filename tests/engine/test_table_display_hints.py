"""The table shows what a game's display hints ask (issue 30): counter caps (``gold 2/9``), a zone's
cards grouped by a card-state key or with card state after their names, and a seat's shown values
(``storage 1/4``); docs/boards.md, "Layout hints"."""

from __future__ import annotations

from support import broken_errors

from mason.presentation.table import table_model
from mason.presentation.table_text import render_table
from mason.session.game import Game, Settings


def _game(game, n, seed=7):
    return Game.new(Settings(game, n, seed, (), (), {}))


def _table(g, seat=None):
    seat = g.pending["seat"] if seat is None else seat
    return render_table(g.program, g.view(seat), g.pending)


def _answer_until(g, done, limit=60):
    for _ in range(limit):
        if done(g):
            return
        g.answer(0)
    raise AssertionError("the situation was not reached")


def test_pcr_r56_the_table_shows_gold_and_stone_against_their_cap_of_9():
    g = _game("prague", 4, seed=3)
    lines = _table(g).splitlines()
    for s in range(4):
        line = next(x for x in lines if x.startswith(f"P{s + 1}:") or x.startswith(f"P{s + 1} ("))
        gold = g.state["counters"]["gold"][s]
        assert f"gold {gold}/9" in line and f"stone {g.state['counters']['stone'][s]}/9" in line, line


def test_gta_r11_r12_the_table_says_which_district_holds_which_tile():
    g = _game("golden-temple", 1)
    text = _table(g)
    view = g.view(0)
    by_district: dict = {}
    for c in view["zones"]["district_tiles"]["cards"]:
        by_district.setdefault(c["in_district"], []).append(c["name"])
    assert set(by_district) == {"north", "east", "south", "west"}
    flat = " ".join(text.split())  # the zone's line may wrap
    for d, names in by_district.items():
        assert f"{d}: {', '.join(names)}" in flat, (d, names, text)


def test_gta_r31_the_table_shows_the_mahout_slot_each_player_chose():
    g = _game("golden-temple", 4)
    _answer_until(g, lambda g: all(g.view(0)["zones"][f"mahout_slots/{s}"]["cards"] for s in range(4)))
    lines = _table(g, 0).splitlines()
    for s in range(4):
        (tile,) = g.view(0)["zones"][f"mahout_slots/{s}"]["cards"]
        assert tile["slot"] in ("green", "yellow", "white", "blue")
        assert any(f"mahout slots: Mahout: donate (slot: {tile['slot']})" in x for x in lines), "\n".join(lines)


def test_gta_r87_the_table_shows_what_each_players_storage_holds_of_its_capacity():
    g = _game("golden-temple", 4)
    lines = _table(g, 0).splitlines()
    c = g.state["counters"]
    for s in range(4):
        stored = c["coins"][s] + c["marble"][s] + c["copper"][s] + c["gold"][s]
        line = next(x for x in lines if x.startswith(f"P{s + 1}:") or x.startswith(f"P{s + 1} ("))
        assert f"storage {stored}/4" in line, line  # GTA-R87: the starting warehouse holds 4
    model = table_model(g.program, g.view(0))
    assert model["seats"][0]["values"] == [{"id": "storage_limit", "label": "storage", "value": 4, "used": stored}]


def test_gta_r87_the_maharaja_seat_shows_no_storage():
    g = _game("golden-temple", 1)
    model = table_model(g.program, g.view(0))
    auto = [s for s in model["seats"] if s["automated"]]
    assert auto and all(s["values"] == [] for s in auto)
    assert model["seats"][0]["values"][0]["label"] == "storage"


def test_issue30_a_zone_display_hint_naming_no_card_state_key_is_refused_at_its_place(tmp_path):
    lines, errors = broken_errors(
        tmp_path,
        "golden-temple",
        [("display: {group_by: in_district}", "display: {group_by: in_distric}")],
    )
    (e,) = errors
    assert e.code == "definition/zone" and "'in_distric' is no card_state key" in e.message
    assert "district_tiles" in lines[e.place.line - 1]


def test_issue30_a_value_shown_on_the_table_must_take_one_seat(tmp_path):
    _, errors = broken_errors(
        tmp_path,
        "golden-temple",
        [("display: {label: storage, used: stored}", "display: {label: storage, used: era_penalty}")],
    )
    (e,) = errors
    assert e.code == "definition/value" and "used must name a value of one seat" in e.message and e.place.line > 0


def test_gta_r11_r12_view_district_tiles_lists_each_districts_tiles_under_its_name():
    from mason.presentation.table_text import render_area

    g = _game("golden-temple", 4)
    lines = render_area(g.program, g.view(0), "district tiles").splitlines()
    heads = [x.strip() for x in lines if x.startswith("  ") and not x.startswith("    ")]
    assert heads == ["north:", "east:", "south:", "west:"], lines
    for c in g.view(0)["zones"]["district_tiles"]["cards"]:
        head = lines.index(f"  {c['in_district']}:")
        block = lines[head + 1 : head + 4]
        assert any(x.startswith(f"    {c['name']} (") for x in block), (c, lines)


def test_cit_r32_a_build_decision_logs_each_options_cost_as_a_structured_preview():
    import random

    g = _game("citadels", 4, seed=5)
    pick = random.Random(5)
    for _ in range(400):
        p = g.pending
        if p["prompt"] == "Build which district?" and len(p["options"]) > 1:
            break
        n = len(p["options"])
        g.answer(sorted(pick.sample(range(n), pick.randint(0, n))) if p.get("subset") else pick.randrange(n))
    else:
        raise AssertionError("no build decision was reached")
    options = list(g.pending["options"])
    g.answer(0)
    entry = [e for e in g.log if e["type"] == "decision"][-1]
    assert entry["prompt"] == "Build which district?"
    for o, item in zip(options, entry["options"]):
        cost = g.rt.value("build_cost", [o], {"me": entry["seat"]})
        assert item["preview"] == f"pay {cost} gold" and item["preview_values"] == [cost], item
        assert item["label"].endswith(f"(pay {cost} gold)")


def test_issue28_a_decision_without_showing_logs_no_preview():
    g = _game("golden-temple", 4)
    g.answer(0)
    entry = [e for e in g.log if e["type"] == "decision"][-1]
    assert all("preview" not in o and "preview_values" not in o for o in entry["options"])
