"""A cost track: the price of the next placement falls one step with every placement (or pass).

``boards: {NAME: {kind: cost_track, prices: [7, 6, 5, 4, 3, 2, 1, 0]}}``. A marker starts on the
first price; ``cost_step`` moves it one place down the list; on the last price it stays (so with a
final 0 every later placement is free). State: ``{"pos": index of the marker}``.
"""

from __future__ import annotations

from mason.dsl.builtins import builtin, procedure
from mason.errors import PlayError
from mason.runtime.boards import board, board_event, board_kind, board_renderer


@board_kind("cost_track")
def _build(definition, players, table):
    prices = definition.get("prices")
    if not isinstance(prices, list) or not prices or not all(isinstance(p, int) for p in prices):
        raise PlayError("a cost_track board needs 'prices': a list of whole numbers", code="definition/board")
    return {"pos": 0}


def _prices(rt, name):
    d = rt.prog.boards.get(name) or {}
    if d.get("kind") != "cost_track":
        raise PlayError(f"board '{name}' is not a cost_track", code="play/type")
    return d["prices"]


@builtin("cost_now", 1)
def _now(rt, name):
    """The current price on the track."""
    prices = _prices(rt, name)
    return prices[min(board(rt, name)["pos"], len(prices) - 1)]


@builtin("cost_pos", 1)
def _pos(rt, name):
    """Where the marker stands: 0 on the first price, len(prices) - 1 on the last."""
    _prices(rt, name)
    return board(rt, name)["pos"]


@builtin("cost_at", 2)
def _at(rt, name, i):
    """The price after ``i`` steps (the last price for any later step)."""
    prices = _prices(rt, name)
    return prices[min(max(0, i), len(prices) - 1)]


@procedure("cost_step", 1)
def _step(rt, node, name):
    """Move the marker one step down the price list (it stays on the last price)."""
    prices = _prices(rt, name)
    b = board(rt, name)
    old = b["pos"]
    b["pos"] = min(b["pos"] + 1, len(prices) - 1)
    _moved(rt, node, name, "step", prices, old, b["pos"])


def _moved(rt, node, name, op, prices, old, new):
    """The typed event of a move of the marker (no narration: the rules say what it means)."""
    if rt.narrate and old != new:
        board_event(rt, node, name, op, None, source=old, dest=new, price=prices[min(new, len(prices) - 1)])


@procedure("cost_reset", 1)
def _reset(rt, node, name):
    """Put the marker back on the first price."""
    prices = _prices(rt, name)
    b = board(rt, name)
    old, b["pos"] = b["pos"], 0
    _moved(rt, node, name, "reset", prices, old, 0)


@procedure("cost_finish", 1)
def _finish(rt, node, name):
    """Put the marker on the last price (e.g. once every piece has been drawn)."""
    prices = _prices(rt, name)
    b = board(rt, name)
    old, b["pos"] = b["pos"], len(prices) - 1
    _moved(rt, node, name, "finish", prices, old, b["pos"])


@board_renderer("cost_track")
def _render(program, name, data, seat):
    prices = program.boards[name]["prices"]
    pos = min(data["pos"], len(prices) - 1)
    cells = [f"[{p}]" if i == pos else str(p) for i, p in enumerate(prices)]
    return [f"{name.replace('_', ' ')}: " + " ".join(cells)]
