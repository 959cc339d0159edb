"""Market columns of the `market` board kind (interpreter/primitives/market.py) on the fixture game
tests/fixtures/stalls: a top-aligned block of filled spaces, prices and data read from the right
space, refusals when empty or full, restock, narration, the terminal picture, load-time checks, the
per-turn rule written in the fixture's DSL and seeded games played to the end."""

from __future__ import annotations

import json
import random

import paths
import pytest
from scenario import board_events, run, set_counter
from support import act, edited_copy, new_game, play_out

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.model.validate import validate_game
from mason.presentation.render import render_view

STALLS = paths.FIXTURES / "stalls"
CLAY = [{"price": 4, "points": 2}, {"price": 3, "points": 1}, {"price": 2}, {"price": 1}]


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def board(g):
    return g.state["boards"]["stalls"]


def texts(g, start=0):
    return [e["text"] for e in g.log[start:] if "text" in e]


def test_declaration_and_state():
    g = new_game(str(STALLS), 2)
    assert q(g, "market_goods", "stalls") == ["clay", "salt", "silk"]
    assert q(g, "column_goods", "stalls") == ["clay", "salt"]
    assert q(g, "column_spaces", "stalls", "clay") == CLAY
    assert board(g)["filled"] == {"clay": 2, "salt": 2} and board(g)["stock"] == {"silk": 2}
    assert q(g, "column_filled", "stalls", "clay") == 2
    assert q(g, "column_buy_space", "stalls", "clay") == 2 and q(g, "column_sell_space", "stalls", "clay") == 3
    assert q(g, "column_space", "stalls", "clay", 1) == {"price": 4, "points": 2}
    assert q(g, "market_info", "stalls", "salt")["stock"] == 2
    # the ordinary good next to the columns keeps its behaviour
    assert q(g, "market_price", "stalls", "silk", "buy") == 3 and q(g, "market_stock", "stalls", "silk") == 2
    with pytest.raises(PlayError) as e:
        q(g, "column_filled", "stalls", "silk")
    assert e.value.code == "play/type"
    for bad in (0, 5, "2", None):
        with pytest.raises(PlayError) as e:
            q(g, "column_space", "stalls", "clay", bad)
        assert e.value.code == "play/index"


def test_a_column_without_stock_starts_full(tmp_path):
    d = edited_copy(tmp_path, STALLS, [("{price: 2}], stock: 2}", "{price: 2}]}")], name="full")
    g = new_game(str(d), 2)
    assert board(g)["filled"]["salt"] == 3
    assert q(g, "column_buy_space", "stalls", "salt") == 3 and q(g, "column_sell_space", "stalls", "salt") is None


def test_take_and_put_read_prices_from_the_right_spaces():
    g = new_game(str(STALLS), 2)
    # two filled: a purchase empties space 2 (price 3), a sale fills space 3 (price 2)
    assert q(g, "market_price", "stalls", "clay", "buy") == 3 and q(g, "market_price", "stalls", "clay", "sell") == 2
    run(g, 'do column_take(stalls, "clay")')
    assert q(g, "column_filled", "stalls", "clay") == 1
    assert q(g, "market_price", "stalls", "clay", "buy") == 4 and q(g, "market_price", "stalls", "clay", "sell") == 3
    assert q(g, "column_space", "stalls", "clay", q(g, "column_sell_space", "stalls", "clay"))["points"] == 1
    run(g, 'do column_take(stalls, "clay")')
    assert q(g, "column_buy_space", "stalls", "clay") is None and q(g, "market_price", "stalls", "clay", "buy") is None
    assert q(g, "column_sell_space", "stalls", "clay") == 1 and q(g, "market_stock", "stalls", "clay") == 0
    run(g, 'do column_put(stalls, "clay")\ndo column_put(stalls, "clay")\ndo column_put(stalls, "clay")')
    assert q(g, "column_filled", "stalls", "clay") == 3 and q(g, "market_price", "stalls", "clay", "sell") == 1


def test_market_max_buy_walks_up_the_column():
    g = new_game(str(STALLS), 2)
    set_counter(g, "coins", 0, 6)
    assert q(g, "market_max_buy", "stalls", 0, "clay") == 1  # 3, then 4 is more than the 3 left
    set_counter(g, "coins", 0, 7)
    assert q(g, "market_max_buy", "stalls", 0, "clay") == 2  # 3 + 4, then the column is empty
    set_counter(g, "coins", 0, 2)
    assert q(g, "market_max_buy", "stalls", 0, "clay") == 0


@pytest.mark.parametrize("seed", range(6))
def test_filled_spaces_stay_a_top_aligned_block(seed):
    g = new_game(str(STALLS), 2)
    rnd = random.Random(seed)
    for _ in range(40):
        good = rnd.choice(["clay", "salt"])
        spaces = q(g, "column_spaces", "stalls", good)
        n = q(g, "column_filled", "stalls", good)
        take = rnd.random() < 0.5
        if (take and n == 0) or (not take and n == len(spaces)):
            with pytest.raises(PlayError):
                run(g, f'do column_{"take" if take else "put"}(stalls, "{good}")')
            assert q(g, "column_filled", "stalls", good) == n  # a refusal changes nothing
            continue
        run(g, f'do column_{"take" if take else "put"}(stalls, "{good}")')
        m = q(g, "column_filled", "stalls", good)
        assert m == (n - 1 if take else n + 1) and 0 <= m <= len(spaces)
        # filled = spaces 1..m; the buy space is the last of them, the sell space the first empty one
        assert q(g, "column_buy_space", "stalls", good) == (m or None)
        assert q(g, "column_sell_space", "stalls", good) == (m + 1 if m < len(spaces) else None)
        assert q(g, "market_price", "stalls", good, "buy") == (spaces[m - 1]["price"] if m else None)
        assert q(g, "market_price", "stalls", good, "sell") == (spaces[m]["price"] if m < len(spaces) else None)
        line = next(l for l in render_view(g.program, g.view(0)).splitlines() if l.strip().startswith(good + ":"))
        marks = [cell[len(str(sp["price"]))] for cell, sp in zip(line.split("[")[1:], spaces)]
        assert marks == ["*"] * m + [" "] * (len(spaces) - m)


def test_empty_and_full_columns_refuse():
    g = new_game(str(STALLS), 2)
    board(g)["filled"]["clay"] = 0
    with pytest.raises(PlayError) as e:
        run(g, 'do column_take(stalls, "clay")')
    assert e.value.code == "play/empty" and board(g)["filled"]["clay"] == 0
    board(g)["filled"]["salt"] = 3
    with pytest.raises(PlayError) as e:
        run(g, 'do column_put(stalls, "salt")')
    assert e.value.code == "play/full" and board(g)["filled"]["salt"] == 3
    with pytest.raises(PlayError) as e:
        run(g, 'do column_put(stalls, "silk")')
    assert e.value.code == "play/type"


def test_market_buy_and_sell_refuse_column_goods():
    g = new_game(str(STALLS), 2)
    set_counter(g, "coins", 0, 20)
    for text in ('do market_buy(stalls, 0, "clay", 1)', 'do market_sell(stalls, 0, "salt", 1)'):
        with pytest.raises(PlayError) as e:
            run(g, text)
        assert e.value.code == "play/type"
    assert board(g)["filled"] == {"clay": 2, "salt": 2} and g.state["counters"]["coins"][0] == 20


def test_restock_resets_columns_and_narrates_real_changes_only():
    g = new_game(str(STALLS), 2)
    set_counter(g, "coins", 0, 10)
    start = len(g.log)
    run(g, 'do column_take(stalls, "clay")\ndo column_put(stalls, "salt")\ndo market_buy(stalls, 0, "silk", 1)')
    assert texts(g, start) == ["clay column: 2 -> 1 filled", "salt column: 2 -> 3 filled", "P1 buys 1 silk for 3 coins"]
    assert q(g, "market_bought", "stalls", 0) == ["silk"]
    start = len(g.log)
    run(g, "do market_restock(stalls)")
    assert board(g)["filled"] == {"clay": 2, "salt": 2} and board(g)["stock"]["silk"] == 2
    assert q(g, "market_bought", "stalls", 0) == []
    assert texts(g, start) == ["clay column: 1 -> 2 filled", "salt column: 3 -> 2 filled"]
    start = len(g.log)
    run(g, "do market_restock(stalls)")
    assert texts(g, start) == []


def test_render_shows_columns_top_first_with_prices_and_points():
    g = new_game(str(STALLS), 2)
    run(g, 'do column_take(stalls, "clay")')
    lines = render_view(g.program, g.view(0)).splitlines()
    assert "  stalls: silk (buy 3, sell 2, stock 2)" in lines
    assert "    clay: [4* points 2] [3  points 1] [2 ] [1 ]" in lines
    assert "    salt: [5* points 2] [3*] [2 ]" in lines


def test_a_market_of_columns_only_renders_its_name_alone(tmp_path):
    d = edited_copy(
        tmp_path,
        STALLS,
        [
            ("      silk: {buy: 3, sell: 2, stock: 2}\n", ""),
            ('market_max_buy(stalls, me, "silk") > 0', "false"),
            ('do market_buy(stalls, me, "silk", 1)', "pass"),
        ],
        name="columns_only",
    )
    g = new_game(str(d), 2)
    lines = render_view(g.program, g.view(0)).splitlines()
    i = lines.index("  stalls:")
    assert lines[i + 1].startswith("    clay: [4*") and lines[i + 2].startswith("    salt: [5*")


def test_selling_into_a_space_scores_its_points_and_the_turn_rule_holds():
    g = new_game(str(STALLS), 2, seed=1)
    set_counter(g, "coins", 0, 9)
    assert g.pending["seat"] == 0 and g.legal() == ["Buy", "Sell", "Buy silk", "End turn"]
    act(g, "Buy", 0)
    act(g, "clay", 0)  # space 2 (price 3) empties
    assert g.state["counters"]["coins"][0] == 6 and g.state["counters"]["clay"][0] == 2
    act(g, "Sell", 0)  # clay was bought this turn: only salt can be sold
    assert g.state["counters"]["salt"][0] == 0
    assert board(g)["filled"]["salt"] == 3 and g.state["counters"]["coins"][0] == 8
    assert g.legal() == ["Buy", "Buy silk", "End turn"]  # nothing left that may be sold
    act(g, "Buy", 0)  # salt was sold this turn: only clay (space 1, price 4)
    assert board(g)["filled"]["clay"] == 0 and g.state["counters"]["coins"][0] == 4
    act(g, "End turn", 0)
    # P2 sells clay into the empty column (the salt column is full: clay is the only choice,
    # taken without asking): the top space pays 4 coins and 2 points, the next one 3 and 1
    assert g.pending["seat"] == 1
    set_counter(g, "clay", 1, 2)
    act(g, "Sell", 1)
    assert g.state["counters"]["points"][1] == 2 and g.state["counters"]["coins"][1] == 9
    act(g, "Sell", 1)
    assert g.state["counters"]["points"][1] == 3 and g.state["counters"]["coins"][1] == 12
    assert board(g)["filled"]["clay"] == 2 and g.state["counters"]["clay"][1] == 0
    assert g.legal() == ["Buy", "Buy silk", "End turn"]
    act(g, "Buy", 1)  # clay was sold this turn: only salt, its lowest space (price 2)
    assert board(g)["filled"] == {"clay": 2, "salt": 2} and g.state["counters"]["coins"][1] == 10
    assert g.legal() == ["Buy", "Buy silk", "End turn"]  # salt bought: no selling it now


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 5), (3, 2), (3, 9)])
def test_seeded_games_play_to_the_end(players, seed):
    g = new_game(str(STALLS), players, seed=seed)
    rnd = random.Random(seed)
    play_out(g, lambda g: rnd.randrange(len(g.pending["labels"])))
    assert g.over and g.result["rounds"] == 5
    for good, spaces in (("clay", 4), ("salt", 3)):
        assert 0 <= board(g)["filled"][good] <= spaces
    said = texts(g)
    assert any(t.endswith("filled") and " column: " in t for t in said)
    # every seat's points come from sales into spaces with points printed on them
    assert all(p >= 0 for p in g.state["counters"]["points"])


def test_first_option_games_end_too():
    g = new_game(str(STALLS), 3, seed=4)
    play_out(g)
    assert g.over


def _broken(tmp_path, *edits):
    return validate_game(str(edited_copy(tmp_path, STALLS, edits)))[1]


def test_bad_declarations_are_reported_at_load_time(tmp_path):
    errors = _broken(
        tmp_path,
        ("{price: 3, points: 1}, {price: 2}, {price: 1}], stock: 2}", "{points: 1}, {price: two}, 7], stock: 5}"),
        ("salt: {spaces: [{price: 5, points: 2}, {price: 3}, {price: 2}], stock: 2}", "salt: {spaces: [], buy: 2}"),
        (
            "silk: {buy: 3, sell: 2, stock: 2}",
            "silk: {buy: 3, sell: 2, stock: -1}\n      wool: {spaces: [{price: 1}], sell: 1}",
        ),
        ("currency: coins", "currency: [coins]"),
    )
    messages = sorted(e.message for e in errors)
    assert messages == sorted(
        [
            "board 'stalls': good 'clay': space 2 must be a mapping with a whole-number price",
            "board 'stalls': good 'clay': space 3 must be a mapping with a whole-number price",
            "board 'stalls': good 'clay': space 4 must be a mapping with a whole-number price",
            "board 'stalls': good 'clay': stock must be a whole number from 0 to 4 (its spaces)",
            "board 'stalls': good 'salt': a column (spaces) has no buy: its spaces hold the prices",
            "board 'stalls': good 'salt': spaces must be a non-empty list of {price, ...}, top first",
            "board 'stalls': good 'silk': stock must be a whole number >= 0",
            "board 'stalls': good 'wool': a column (spaces) has no sell: its spaces hold the prices",
            "board 'stalls': currency must name the per-seat counter that pays",
        ]
    )
    assert all(e.code == "definition/board" for e in errors)
    yaml_lines = (tmp_path / "bad_stalls" / "game.yaml").read_text().splitlines()
    for e in errors:
        assert e.place and e.place.file.endswith("game.yaml") and e.place.line > 0
        word = "currency" if "currency" in e.message else "goods"
        # placed on the board's 'goods' (or 'currency') entry: that line or the first good under it
        assert word in yaml_lines[e.place.line - 1] or yaml_lines[e.place.line - 2].strip() == "goods:"


def test_a_good_missing_goods_is_reported(tmp_path):
    errors = _broken(tmp_path, ("    goods:\n      clay:", "    wares:\n      clay:"))
    assert [e.message for e in errors] == [
        "board 'stalls': goods must map each good to {buy, sell, stock} or {spaces, stock}"
    ]
    assert errors[0].code == "definition/board" and errors[0].place.line > 0


def test_the_shipped_fixture_is_valid():
    _, errors = validate_game(str(STALLS))
    assert errors == []


# ==================================================================== typed log events (issue 28)
def test_a_column_fill_is_a_typed_event_with_the_filled_spaces_before_and_after():
    g = new_game(str(STALLS), 2)
    events = board_events(
        g, 'do column_take(stalls, "clay")\ndo column_put(stalls, "clay")\ndo column_put(stalls, "salt")'
    )
    assert [(e["primitive"], e["op"], e["good"], e["source"], e["dest"]) for e in events] == [
        ("market", "fill", "clay", 2, 1),
        ("market", "fill", "clay", 1, 2),
        ("market", "fill", "salt", 2, 3),
    ]
    assert events[0]["text"] == "clay column: 2 -> 1 filled"


def test_trade_made_logs_a_trade_event_of_the_rules_own_payments_and_changes_nothing():
    g = new_game(str(STALLS), 2)
    counters = json.loads(json.dumps(g.state["counters"]))
    start = len(g.log)
    run(
        g,
        'do trade_made(0, "sell", "clay", 1, [["coins", 3], ["points", 1]])\ndo trade_made(1, "buy", "salt", 2, [["coins", 5], ["points", 0]])',
    )
    trades = [e for e in g.log[start:] if e["type"] == "trade"]
    assert [(t["seat"], t["side"], t["good"], t["count"], t["paid"], t["got"]) for t in trades] == [
        (0, "sell", "clay", 1, {"clay": 1}, {"coins": 3, "points": 1}),
        (1, "buy", "salt", 2, {"coins": 5}, {"salt": 2}),  # an amount of 0 is left out
    ]
    assert g.state["counters"] == counters and all("text" not in t and "changes" not in t for t in trades)
    for bad, code in [
        ('do trade_made(0, "swap", "clay", 1, [["coins", 3]])', "play/type"),
        ('do trade_made(0, "buy", "clay", 1, [["rubies", 3]])', "play/type"),
        ('do trade_made(0, "buy", "clay", 1, ["coins", 3])', "play/type"),
        ('do trade_made(0, "buy", "gems", 1, [["coins", 3]])', "play/unknown"),
    ]:
        with pytest.raises(PlayError) as exc:
            run(g, bad)
        assert exc.value.code == code, bad
