"""The counter statements: ``gain``, ``pay``, ``transfer`` (per-seat counters, their supply and cap)."""

from __future__ import annotations

from typing import Optional

from mason.dsl.ast import Expr, Stmt, node
from mason.dsl.builtins import MAX_NUMBER, too_big
from mason.dsl.constructs import statement
from mason.dsl.stmt import Node
from mason.errors import PlayError
from mason.runtime.values import _say_counter, _seat_of, _short, counter_amount, label_of


def _amount(node, rt, env):
    """The statement's ``amount``: a whole number >= 0 within the number limit."""
    v = node.amount(rt, env)
    if type(v) is not int or v < 0:  # a whole number, not true/false
        raise PlayError(f"amount must be a whole number >= 0, got {_short(v)}", node.place, "play/type")
    if v > MAX_NUMBER:
        raise too_big(v, node.place)
    return v


def _compiled(stmt, kind: str, c, scope):
    """The compiled node of a ``gain`` or ``pay`` (its counter checked as a per-seat counter's name)."""
    c.names.check_counter(stmt, stmt.counter, seat=True)
    return Node(
        kind, c.place(stmt), amount=c.number(stmt.amount, scope), counter=stmt.counter, seat=c.x(stmt.seat, scope)
    )


@statement
@node
class Gain(Stmt):
    """``gain AMOUNT COUNTER [to SEAT]``: add to a seat's counter, taken from its supply, up to its cap."""

    amount: Expr
    counter: str
    seat: Optional[Expr]

    rules = {"gain": "simple"}
    grammar = 'gain: "gain" expr NAME [_TO expr]'
    kinds = ("gain",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(c[0], str(c[1]), c[2], **place)  # amount, counter, seat

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"{w._subject(self.seat, 'gain')} {w._amount(self.amount, self.counter)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return _compiled(self, "gain", c, scope)

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        s = _seat_of(rt, env, node.seat, node)
        amount = _amount(node, rt, env)
        cdef = rt.prog.counters[node.counter]
        counters = rt.st["counters"]
        if cdef["supply"] is not None:
            amount = min(amount, counters[cdef["supply"]])
            counters[cdef["supply"]] -= amount
        if cdef["cap"] is not None:
            room = max(0, cdef["cap"] - counters[node.counter][s])
            if amount > room:
                if cdef["supply"] is not None:
                    counters[cdef["supply"]] += amount - room
                amount = room
        counters[node.counter][s] += amount
        if rt.narrate:
            rt.change(s, node.counter, amount)
            _say_counter(
                rt,
                node,
                f"{rt.seat_name(s)} gains {counter_amount(rt.prog, node.counter, amount)}",
                "gain",
                seat=s,
                counter=node.counter,
                amount=amount,
            )

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """Write its fast form into a block's function (False: left to its run)."""
        return _counter(w, node, d, "+")


@statement
@node
class Pay(Stmt):
    """``pay AMOUNT COUNTER [by SEAT]``: take from a seat's counter (it must have enough), back to its supply."""

    amount: Expr
    counter: str
    seat: Optional[Expr]

    rules = {"pay": "simple"}
    grammar = 'pay: "pay" expr NAME [_BY expr]'
    kinds = ("pay",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(c[0], str(c[1]), c[2], **place)  # amount, counter, seat

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"{w._subject(self.seat, 'pay')} {w._amount(self.amount, self.counter)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return _compiled(self, "pay", c, scope)

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        s = _seat_of(rt, env, node.seat, node)
        amount = _amount(node, rt, env)
        cdef = rt.prog.counters[node.counter]
        counters = rt.st["counters"]
        if counters[node.counter][s] < amount:
            raise PlayError(
                f"{rt.seat_name(s)} cannot pay {amount} {node.counter} (has {counters[node.counter][s]})",
                node.place,
                "play/cannot-pay",
            )
        counters[node.counter][s] -= amount
        if cdef["supply"] is not None:
            counters[cdef["supply"]] += amount
        if rt.narrate:
            rt.change(s, node.counter, -amount)
            _say_counter(
                rt,
                node,
                f"{rt.seat_name(s)} pays {counter_amount(rt.prog, node.counter, amount)}",
                "pay",
                seat=s,
                counter=node.counter,
                amount=amount,
            )

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """Write its fast form into a block's function (False: left to its run)."""
        return _counter(w, node, d, "-")


@statement
@node
class Transfer(Stmt):
    """``transfer AMOUNT COUNTER from SEAT to SEAT``: what the giver has, up to what fits the taker's cap."""

    amount: Expr
    counter: str
    source: Expr
    dest: Expr

    rules = {"transfer": "simple"}
    grammar = 'transfer: "transfer" expr NAME "from" expr _TO expr'
    kinds = ("transfer",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(c[0], str(c[1]), c[2], c[3], **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(
            d,
            f"{w.expr(self.source)} gives {w._amount(self.amount, self.counter)} to {w.expr(self.dest)}",
        )

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        c.names.check_counter(self, self.counter, seat=True)
        return Node(
            "transfer",
            c.place(self),
            amount=c.number(self.amount, scope),
            counter=self.counter,
            source=c.x(self.source, scope),
            dest=c.x(self.dest, scope),
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        a = _seat_of(rt, env, node.source, node)
        b = _seat_of(rt, env, node.dest, node)
        counter = rt.st["counters"][node.counter]
        amount = min(_amount(node, rt, env), counter[a])
        cap = rt.prog.counters[node.counter]["cap"]
        if cap is not None:
            amount = min(amount, max(0, cap - counter[b]))  # what does not fit stays with the giver
        counter[a] -= amount
        counter[b] += amount
        if rt.narrate and a != b:  # a seat giving to itself (one player with two roles) changes nothing: not told
            rt.change(a, node.counter, -amount)
            rt.change(b, node.counter, amount)
            _say_counter(
                rt,
                node,
                f"{rt.seat_name(a)} gives {counter_amount(rt.prog, node.counter, amount)} to {rt.seat_name(b)}"
                if amount
                else f"{rt.seat_name(a)} has no {label_of(rt.prog.counters.get(node.counter) or {}, node.counter)}"
                f" to give {rt.seat_name(b)}",  # a theft from an empty purse: nothing changes hands
                "transfer",
                seat=a,
                to_seat=b,
                counter=node.counter,
                amount=amount,
            )


def _counter(w, node, d, sign: str) -> bool:
    """``gain`` / ``pay`` as ``Gain.run`` / ``Pay.run``: the seat and a whole amount checked, a payment
    the seat can afford; the supply (and a gain's cap) as they apply them."""
    cdef = w.p.counters[node.counter]
    supply, cap = cdef["supply"], cdef["cap"]
    seat, s1 = w.operand(node.seat) if node.seat is not None else ("env.get('me')", False)
    amount, s2 = w.operand(node.amount)
    setup = w.seat(seat) + [
        f"a = {amount}",
        "if type(a) is not int or not 0 <= a <= MAX_NUMBER: raise _Fallback",
        "cs = rt.counters",
        f"row = cs[{node.counter!r}]",
    ]
    if sign == "-":
        setup.append("if row[s] < a: raise _Fallback")
        action = ["row[s] -= a"] + ([f"cs[{supply!r}] += a"] if supply is not None else [])
        return w.guarded(node, d, setup, s1 or s2, action)
    action = []
    if supply is not None:
        action += [f"a = min(a, cs[{supply!r}])", f"cs[{supply!r}] -= a"]
    if cap is not None:
        action += [f"room = max(0, {cap!r} - row[s])", "if a > room:"]
        if supply is not None:
            action.append(f"    cs[{supply!r}] += a - room")
        action.append("    a = room")
    action.append("row[s] += a")
    return w.guarded(node, d, setup, s1 or s2, action)
