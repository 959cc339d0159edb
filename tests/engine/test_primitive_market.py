"""The `market` board kind (interpreter/primitives/market.py) on the fixture game tests/fixtures/bazaar."""

from __future__ import annotations

import paths
import pytest
from scenario import board_events, run, run_phase, set_counter
from support import act, new_game, play_out

from mason.dsl.builtins import BUILTINS
from mason.errors import PlayError
from mason.presentation.render import render_view

BAZAAR = str(paths.FIXTURES / "bazaar")


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def souk(g):
    return g.state["boards"]["souk"]


def coins(g, s):
    return g.state["counters"]["coins"][s]


def test_stock_prices_and_declaration():
    g = new_game(BAZAAR, 2)
    assert q(g, "market_goods", "souk") == ["clay", "spice", "pot"]
    assert [q(g, "market_stock", "souk", x) for x in ("clay", "spice", "pot")] == [3, 2, 0]
    assert q(g, "market_price", "souk", "spice", "buy") == 3 and q(g, "market_price", "souk", "pot", "buy") is None
    assert q(g, "market_info", "souk", "spice")["needs"] == "spice_kiln"
    with pytest.raises(PlayError):
        q(g, "market_price", "souk", "clay", "borrow")


def test_max_buy_limited_by_stock_and_money():
    g = new_game(BAZAAR, 2)
    set_counter(g, "coins", 0, 2)
    assert q(g, "market_max_buy", "souk", 0, "clay") == 2
    set_counter(g, "coins", 0, 12)
    assert q(g, "market_max_buy", "souk", 0, "clay") == 3 and q(g, "market_max_buy", "souk", 0, "pot") == 0


def test_buy_and_sell_move_goods_and_money_and_remember():
    g = new_game(BAZAAR, 2)
    set_counter(g, "coins", 0, 10)
    run(g, 'do market_buy("souk", 0, "clay", 2)\ndo market_sell("souk", 0, "clay", 1)')
    assert coins(g, 0) == 9 and g.state["counters"]["clay"][0] == 3 and souk(g)["stock"]["clay"] == 1
    assert q(g, "market_bought", "souk", 0) == ["clay"] and q(g, "market_sold", "souk", 0) == ["clay"]
    run(g, 'do market_restock("souk")')
    assert souk(g)["stock"]["clay"] == 3 and q(g, "market_bought", "souk", 0) == []


def test_sales_respect_the_currency_cap():
    g = new_game(BAZAAR, 2)
    set_counter(g, "coins", 0, 11)
    set_counter(g, "pot", 0, 2)
    run(g, 'do market_sell("souk", 0, "pot", 2)')
    assert coins(g, 0) == 12 and any("lost at the limit" in e.get("text", "") for e in g.log)


@pytest.mark.parametrize(
    "text",
    [
        'do market_buy("souk", 0, "clay", 4)',
        'do market_buy("souk", 0, "pot", 1)',
        'do market_sell("souk", 0, "spice", 1)',
        'do market_buy("souk", 0, "gems", 1)',
    ],
)
def test_impossible_trades_are_play_errors(text):
    g = new_game(BAZAAR, 2)
    set_counter(g, "coins", 0, 12)
    with pytest.raises(PlayError):
        run(g, text)


def test_per_round_restriction_and_permission_in_play():
    g = new_game(BAZAAR, 2, seed=1)
    set_counter(g, "coins", 0, 12)
    run_phase(g, "souk")
    assert g.pending["seat"] == 0 and g.legal() == ["Buy", "Sell", "Leave"]
    act(g, "Buy")
    # clay was the only choice (spice needs a spice kiln, pots are never sold to players): not asked
    assert g.pending["prompt"] == "How many?" and g.legal() == ["1", "2", "3"]
    act(g, "2")
    assert g.state["counters"]["clay"][0] == 4
    act(g, "Leave", 1)
    assert g.pending["seat"] == 0 and "Sell" not in g.legal()  # bought clay this round: no selling clay


def test_render_and_play_out():
    g = new_game(BAZAAR, 3, seed=4)
    assert "souk: clay (buy 1, sell 1, stock 3); spice (buy 3, sell 2, stock 2); pot (not sold, sell 4)" in render_view(
        g.program, g.view(0)
    )
    play_out(g)
    assert g.over


# ==================================================================== typed log events (issue 28)
def test_trades_are_trade_events_with_what_was_paid_and_got_and_restock_is_a_board_event():
    """A purchase and a sale are ``trade`` events naming the market, the side, the good, the count and
    the bundles paid and got (a sale at the currency's cap gets what really came in); a restock is a
    ``board`` event with the stocks. A checker follows the stock from them alone."""
    g = new_game(BAZAAR, 2)
    set_counter(g, "coins", 0, 10)
    start = len(g.log)
    events = board_events(
        g, 'do market_buy("souk", 0, "clay", 2)\ndo market_sell("souk", 0, "clay", 1)\ndo market_restock("souk")'
    )
    trades = [e for e in g.log[start:] if e["type"] == "trade"]
    assert [(t["seat"], t["board"], t["side"], t["good"], t["count"], t["paid"], t["got"]) for t in trades] == [
        (0, "souk", "buy", "clay", 2, {"coins": 2}, {"clay": 2}),
        (0, "souk", "sell", "clay", 1, {"clay": 1}, {"coins": 1}),
    ]
    assert [(e["op"], e["stock"]) for e in events] == [("restock", {"clay": 3, "spice": 2, "pot": 0})]
    set_counter(g, "coins", 0, 11)
    set_counter(g, "pot", 0, 1)
    start = len(g.log)
    run(g, 'do market_sell("souk", 0, "pot", 1)')
    (sale,) = [e for e in g.log[start:] if e["type"] == "trade"]
    assert sale["got"] == {"coins": coins(g, 0) - 11} and sale["paid"] == {"pot": 1}
