"""A market: goods with a stock, a buy price and a sell price, and a record of who bought or sold what.

``boards: {NAME: {kind: market, currency: gold, goods: {GOOD: {buy: 2, sell: 2, stock: 4}, ...}}}``.
Each good and the currency are per-seat counters of the same names. A good without ``buy`` cannot be
bought, one without ``sell`` cannot be sold. Buying takes from the stock; sold goods go to the
general supply and do not refill the stock. ``market_restock`` puts every stock back to its
declared amount and forgets the round's purchases and sales. Which trades a seat may make (a ban on
selling what was bought this round, a permission that needs a card) is for the rules to say with
``market_bought``/``market_sold``; the market itself refuses only what stock and money forbid.

A good may instead be a *column*: ``GOOD: {spaces: [{price: 2, points: 1}, {price: 1}], stock: 1}``,
its spaces listed top first, each with an int ``price`` and any other data for the rules. The
filled spaces are always a top-aligned block: ``column_take`` empties the lowest filled space (the
buy price is that space's), ``column_put`` fills the topmost empty one (the sell price and data
are that space's). ``stock`` (default: every space) is how many start filled; ``market_restock``
puts it back. Column goods are board operations only: the rules pay and gain around them
(``market_buy``/``market_sell`` refuse them); ``market_stock`` and ``market_price`` report the
column's filled count and current prices.
State: ``{"stock": {GOOD: n}, "bought": [[goods] per seat], "sold": [[goods] per seat],
"filled": {COLUMN_GOOD: n}}`` (``stock`` holds the ordinary goods, ``filled`` the column goods).
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.primitives.ledger import _seat, _whole, add, held, take
from mason.runtime.boards import board, board_event, board_kind, board_model


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_definition(definition: dict, table_columns=()) -> list[tuple[str, str | None]]:
    """Problems of a market declaration as (message, key) pairs (empty when it is fine)."""
    out: list[tuple[str, str | None]] = []
    if not isinstance(definition.get("currency"), str):
        out.append(("currency must name the per-seat counter that pays", "currency"))
    goods = definition.get("goods")
    if not isinstance(goods, dict) or not goods:
        return out + [("goods must map each good to {buy, sell, stock} or {spaces, stock}", "goods")]
    for g, gd in goods.items():
        if not isinstance(gd, dict):
            out.append((f"good '{g}': a mapping ({{buy, sell, stock}} or {{spaces, stock}})", "goods"))
            continue
        stock = gd.get("stock")
        if "spaces" not in gd:
            if stock is not None and (not _int(stock) or stock < 0):
                out.append((f"good '{g}': stock must be a whole number >= 0", "goods"))
            continue
        both = [k for k in ("buy", "sell") if k in gd]
        if both:
            out.append(
                (f"good '{g}': a column (spaces) has no {' or '.join(both)}: its spaces hold the prices", "goods")
            )
        spaces = gd["spaces"]
        if not isinstance(spaces, list) or not spaces:
            out.append((f"good '{g}': spaces must be a non-empty list of {{price, ...}}, top first", "goods"))
            continue
        for i, sp in enumerate(spaces, 1):
            if not isinstance(sp, dict) or not _int(sp.get("price")):
                out.append((f"good '{g}': space {i} must be a mapping with a whole-number price", "goods"))
        if stock is not None and (not _int(stock) or not 0 <= stock <= len(spaces)):
            out.append((f"good '{g}': stock must be a whole number from 0 to {len(spaces)} (its spaces)", "goods"))
    return out


def _goods(definition):
    goods = definition.get("goods")
    if not isinstance(goods, dict) or not goods:
        raise PlayError("a market board needs 'goods': {GOOD: {buy, sell, stock}}", code="definition/board")
    return goods


def _is_column(gd) -> bool:
    return isinstance(gd, dict) and "spaces" in gd


def _start(gd) -> int:
    """How many a good starts with: its stock, or every space of a column without one."""
    if _is_column(gd):
        return int(gd.get("stock", len(gd["spaces"])))
    return int(gd.get("stock", 0))


@board_kind("market", check=check_definition)
def _build(definition, players, table):
    goods = _goods(definition)
    return {
        "stock": {g: _start(d) for g, d in goods.items() if not _is_column(d)},
        "bought": [[] for _ in range(players)],
        "sold": [[] for _ in range(players)],
        "filled": {g: _start(d) for g, d in goods.items() if _is_column(d)},
    }


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


def _column(rt, name, good):
    gd = _good(rt, name, good)
    if not _is_column(gd):
        raise PlayError(f"good '{good}' of market '{name}' is not a column", code="play/type")
    return gd["spaces"]


def _filled(rt, name, good) -> int:
    return board(rt, name)["filled"][good]


def _ordinary(rt, name, good, what):
    gd = _good(rt, name, good)
    if _is_column(gd):
        raise PlayError(
            f"{good} is a column good: {what} it with column_take/column_put and pay in the rules", code="play/type"
        )
    return gd


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
    """How many of a good the market can still sell (a column good: its filled spaces)."""
    if _is_column(_good(rt, name, good)):
        return _filled(rt, name, good)
    return board(rt, name)["stock"][good]


@builtin("market_price", 3)
def _price(rt, name, good, side):
    """``market_price(m, g, "buy")`` or ``"sell"``: the price of one, or none if that trade does not exist
    (a column good: the price of its lowest filled / topmost empty space, none when empty / full)."""
    if side not in ("buy", "sell"):
        raise PlayError(f"market_price side is 'buy' or 'sell', not {side!r}", code="play/type")
    gd = _good(rt, name, good)
    if _is_column(gd):
        i = _buy_space(rt, name, good) if side == "buy" else _sell_space(rt, name, good)
        return None if i is None else gd["spaces"][i - 1]["price"]
    return gd.get(side)


@builtin("market_max_buy", 3)
def _max_buy(rt, name, seat, good):
    """The most of a good seat can buy now: limited by the stock and by the currency held (a column
    good: one after the other, each at the price of the next filled space up)."""
    gd = _good(rt, name, good)
    money = held(rt, _seat(rt, seat), _def(rt, name)["currency"])
    if _is_column(gd):  # each one bought costs the price of the next space up
        n = 0
        for space in reversed(gd["spaces"][: _filled(rt, name, good)]):
            if space["price"] > money:
                break
            money -= space["price"]
            n += 1
        return n
    price = gd.get("buy")
    if price is None:
        return 0
    stock = board(rt, name)["stock"][good]
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
    _ordinary(rt, name, good, "buy")
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
        rt.say(
            f"{rt.seat_name(seat)} buys {n} {good} for {price * n} {d['currency']}",
            node,
            type="trade",
            seat=seat,
            board=name,
            side="buy",
            good=good,
            count=n,
            paid={d["currency"]: price * n},
            got={good: n},
        )


@procedure("market_sell", 4)
def _sell(rt, node, name, seat, good, n):
    """``do market_sell(m, s, g, n)``: s hands over n of g and gains n x the sell price."""
    _seat(rt, seat)
    n = _whole(n)
    price = _ordinary(rt, name, good, "sell").get("sell")
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
        rt.say(
            f"{rt.seat_name(seat)} sells {n} {good} for {got} {d['currency']}"
            + (f" ({lost} lost at the limit)" if lost else ""),
            node,
            type="trade",
            seat=seat,
            board=name,
            side="sell",
            good=good,
            count=n,
            paid={good: n},
            got={d["currency"]: got},
        )


@procedure("trade_made", 5)
def _trade_made(rt, node, seat, side, good, count, price):
    """``do trade_made(s, "buy", g, n, [["coins", 3]])``: tell the log of a trade the rules made with
    their own payments (a column good's, paid and gained around ``column_take``/``column_put``): a
    ``trade`` event with the seat, the ``side``, the good, the count and the bundles ``paid`` and
    ``got`` (``price``, a list of ``[counter, amount]`` pairs, on the other side from the good;
    amounts of 0 left out), beside the narration of the payments themselves. Changes nothing."""
    _seat(rt, seat)
    if side not in ("buy", "sell"):
        raise PlayError(f'a trade\'s side is "buy" or "sell", not {side!r}', code="play/type")
    n = _whole(count)
    bundle: dict[str, int] = {}
    for pair in price if isinstance(price, list) else [None]:
        if not isinstance(pair, list) or len(pair) != 2 or pair[0] not in rt.prog.counters:
            raise PlayError(f"a trade's price is a list of [counter, amount] pairs, got {price!r}", code="play/type")
        amount = _whole(pair[1])
        if amount:
            bundle[pair[0]] = bundle.get(pair[0], 0) + amount
    if good not in rt.prog.counters:
        raise PlayError(f"no counter {good!r} to trade", code="play/unknown")
    if rt.narrate:
        goods = {good: n} if n else {}
        paid, got = (bundle, goods) if side == "buy" else (goods, bundle)
        rt.say(None, node, type="trade", seat=seat, side=side, good=good, count=n, paid=paid, got=got)


def _set_filled(rt, node, name, good, n):
    filled = board(rt, name).setdefault("filled", {})
    before = filled.get(good, n)
    filled[good] = n
    if rt.narrate and before != n:
        text = f"{good.replace('_', ' ')} column: {before} -> {n} filled"
        board_event(rt, node, name, "fill", text, good=good, source=before, dest=n)


@procedure("market_restock", 1)
def _restock(rt, node, name):
    """Stocks (and columns) back to their declared amounts; the record of purchases and sales starts afresh."""
    b = board(rt, name)
    for good, gd in _goods(_def(rt, name)).items():
        if _is_column(gd):
            _set_filled(rt, node, name, good, _start(gd))
        else:
            b["stock"][good] = _start(gd)
    for lst in b["bought"] + b["sold"]:
        lst.clear()
    if rt.narrate and b["stock"]:
        board_event(rt, node, name, "restock", None, stock=dict(b["stock"]))


# ------------------------------------------------------------------ columns
@builtin("column_goods", 1)
def _column_goods(rt, name):
    """The column goods of a market, in declaration order."""
    return [g for g, gd in _goods(_def(rt, name)).items() if _is_column(gd)]


@builtin("column_spaces", 2)
def _column_spaces(rt, name, good):
    """The declared spaces of a column good, top first (each a mapping with its ``price`` and data)."""
    return [dict(sp) for sp in _column(rt, name, good)]


@builtin("column_filled", 2)
def _column_filled(rt, name, good):
    """How many spaces of a column good are filled (always the top ones)."""
    _column(rt, name, good)
    return _filled(rt, name, good)


@builtin("column_buy_space", 2)
def _buy_space(rt, name, good):
    """The 1-based index of the lowest filled space (the one a purchase empties), or none when empty."""
    _column(rt, name, good)
    n = _filled(rt, name, good)
    return n if n > 0 else None


@builtin("column_sell_space", 2)
def _sell_space(rt, name, good):
    """The 1-based index of the topmost empty space (the one a sale fills), or none when full."""
    spaces = _column(rt, name, good)
    n = _filled(rt, name, good)
    return n + 1 if n < len(spaces) else None


@builtin("column_space", 3)
def _column_space(rt, name, good, i):
    """``column_space(m, g, i)``: the declared data of space i (1 = top), its ``price`` included."""
    spaces = _column(rt, name, good)
    if not _int(i) or not 1 <= i <= len(spaces):
        raise PlayError(f"{good} column has spaces 1 to {len(spaces)}, not {i!r}", code="play/index")
    return dict(spaces[i - 1])


@procedure("column_take", 2)
def _column_take(rt, node, name, good):
    """``do column_take(m, g)``: empty the lowest filled space of a column good (an error when empty)."""
    _column(rt, name, good)
    n = _filled(rt, name, good)
    if n == 0:
        raise PlayError(f"the {good} column of '{name}' is empty", code="play/empty")
    _set_filled(rt, node, name, good, n - 1)


@procedure("column_put", 2)
def _column_put(rt, node, name, good):
    """``do column_put(m, g)``: fill the topmost empty space of a column good (an error when full)."""
    spaces = _column(rt, name, good)
    n = _filled(rt, name, good)
    if n >= len(spaces):
        raise PlayError(f"the {good} column of '{name}' is full", code="play/full")
    _set_filled(rt, node, name, good, n + 1)


def _cell(space, filled) -> str:
    extra = "".join(f" {k} {v}" for k, v in space.items() if k != "price")
    return f"[{space['price']}{'*' if filled else ' '}{extra}]"


@board_model("market")
def _model(program, name, data):
    """``goods``: [{id, label, spaces: [{price, points, filled}]}] for a column of priced spaces, or
    [{id, label, buy, sell, stock}] for a good traded at fixed prices."""
    out = []
    for g, gd in program.boards[name]["goods"].items():
        if _is_column(gd):
            n = (data.get("filled") or {}).get(g, 0)
            spaces = [{**{k: v for k, v in sp.items()}, "filled": i < n} for i, sp in enumerate(gd["spaces"])]
            out.append({"id": g, "label": g.replace("_", " "), "spaces": spaces})
        else:
            stock = data["stock"][g] if gd.get("buy") is not None else None
            out.append(
                {"id": g, "label": g.replace("_", " "), "buy": gd.get("buy"), "sell": gd.get("sell"), "stock": stock}
            )
    return {"goods": out}
