"""A market: goods with a stock, a buy price and a sell price, and a record of who bought or sold what.

``boards: {NAME: {kind: market, currency: gold, goods: {GOOD: {buy: 2, sell: 2, stock: 4}, ...}}}``.
Each good and the currency are per-seat counters of the same names. A good without ``buy`` cannot be
bought, one without ``sell`` cannot be sold. Buying takes from the stock; sold goods go to the
general supply and do not refill the stock. ``market_restock`` puts every stock back to its
declared amount and forgets the round's purchases and sales. Which trades a seat may make (a ban on
selling what was bought this round, a permission that needs a card) is for the rules to say with
``market_bought``/``market_sold``; the market itself refuses only what stock and money forbid.
State: ``{"stock": {GOOD: n}, "bought": [[goods] per seat], "sold": [[goods] per seat]}``.
"""
from __future__ import annotations

from ..boards import board, board_kind
from ..dsl.builtins import builtin, procedure
from ..errors import PlayError
from ..render import board_renderer
from .ledger import _seat, _whole, add, held, take


def _goods(definition):
    goods = definition.get("goods")
    if not isinstance(goods, dict) or not goods:
        raise PlayError("a market board needs 'goods': {GOOD: {buy, sell, stock}}", code="definition/board")
    return goods


@board_kind("market")
def _build(definition, players, table):
    return {"stock": {g: int(d.get("stock", 0)) for g, d in _goods(definition).items()},
            "bought": [[] for _ in range(players)], "sold": [[] for _ in range(players)]}


def _def(rt, name):
    d = rt.prog.boards.get(name) or {}
    if d.get("kind") != "market":
        raise PlayError(f"board '{name}' is not a market", code="play/type")
    return d


def _good(rt, name, good):
    goods = _goods(_def(rt, name))
    if good not in goods:
        raise PlayError(f"market '{name}' has no good '{good}'", code="play/unknown")
    return goods[good]


@builtin("market_goods", 1)
def _goods_q(rt, name):
    """The goods in declaration order."""
    return list(_goods(_def(rt, name)))


@builtin("market_info", 2)
def _info(rt, name, good):
    """The good's declaration (its extra keys are data for the rules: ``market_info(m, g)["needs"]``)."""
    return dict(_good(rt, name, good))


@builtin("market_stock", 2)
def _stock(rt, name, good):
    """How many of a good the market can still sell."""
    _good(rt, name, good)
    return board(rt, name)["stock"][good]


@builtin("market_price", 3)
def _price(rt, name, good, side):
    """``market_price(m, g, "buy")`` or ``"sell"``: the price of one, or none if that trade does not exist."""
    if side not in ("buy", "sell"):
        raise PlayError(f"market_price side is 'buy' or 'sell', not {side!r}", code="play/type")
    return _good(rt, name, good).get(side)


@builtin("market_max_buy", 3)
def _max_buy(rt, name, seat, good):
    """The most of a good seat can buy now: limited by the stock and by the currency held."""
    price = _good(rt, name, good).get("buy")
    if price is None:
        return 0
    stock = board(rt, name)["stock"][good]
    money = held(rt, _seat(rt, seat), _def(rt, name)["currency"])
    return min(stock, money // price) if price else stock


@builtin("market_bought", 2)
def _bought(rt, name, seat):
    """The goods seat bought since the last restock."""
    return list(board(rt, name)["bought"][_seat(rt, seat)])


@builtin("market_sold", 2)
def _sold(rt, name, seat):
    """The goods seat sold since the last restock."""
    return list(board(rt, name)["sold"][_seat(rt, seat)])


@procedure("market_buy", 4)
def _buy(rt, node, name, seat, good, n):
    """``do market_buy(m, s, g, n)``: s pays n x the buy price and takes n of g from the stock."""
    _seat(rt, seat)
    n = _whole(n)
    if n > _max_buy(rt, name, seat, good):
        raise PlayError(f"{rt.seat_name(seat)} cannot buy {n} {good}", code="play/cannot-pay")
    d = _def(rt, name)
    price = _good(rt, name, good)["buy"]
    b = board(rt, name)
    take(rt, seat, d["currency"], price * n)
    b["stock"][good] -= n
    add(rt, seat, good, n)
    if good not in b["bought"][seat]:
        b["bought"][seat].append(good)
    if rt.narrate:
        rt.say(f"{rt.seat_name(seat)} buys {n} {good} for {price * n} {d['currency']}", node)


@procedure("market_sell", 4)
def _sell(rt, node, name, seat, good, n):
    """``do market_sell(m, s, g, n)``: s hands over n of g and gains n x the sell price."""
    _seat(rt, seat)
    n = _whole(n)
    price = _good(rt, name, good).get("sell")
    if price is None:
        raise PlayError(f"market '{name}' does not buy {good}", code="play/illegal-action")
    if held(rt, seat, good) < n:
        raise PlayError(f"{rt.seat_name(seat)} has fewer than {n} {good}", code="play/cannot-pay")
    d = _def(rt, name)
    b = board(rt, name)
    take(rt, seat, good, n)
    got = add(rt, seat, d["currency"], price * n)
    if good not in b["sold"][seat]:
        b["sold"][seat].append(good)
    if rt.narrate:
        lost = price * n - got
        rt.say(f"{rt.seat_name(seat)} sells {n} {good} for {price * n} {d['currency']}"
               + (f" ({lost} lost at the limit)" if lost else ""), node)


@procedure("market_restock", 1)
def _restock(rt, node, name):
    """Stocks back to their declared amounts; the record of purchases and sales starts afresh."""
    b = board(rt, name)
    for good, gd in _goods(_def(rt, name)).items():
        b["stock"][good] = int(gd.get("stock", 0))
    for lst in b["bought"] + b["sold"]:
        lst.clear()


@board_renderer("market")
def _render(program, name, data, seat):
    goods = program.boards[name]["goods"]
    cells = []
    for g, gd in goods.items():
        buy = f"buy {gd['buy']}" if gd.get("buy") is not None else "not sold"
        sell = f"sell {gd['sell']}" if gd.get("sell") is not None else "not bought"
        stock = f", stock {data['stock'][g]}" if gd.get("buy") is not None else ""
        cells.append(f"{g} ({buy}, {sell}{stock})")
    return [f"{name.replace('_', ' ')}: " + "; ".join(cells)]
