"""The variable statements: ``let`` (a local) and ``set`` (a local, a game or seat variable, a counter,
a card's state)."""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl import numbers
from mason.dsl.ast import Expr, Stmt, node
from mason.dsl.builtins import MAX_NUMBER
from mason.dsl.constructs import statement
from mason.dsl.describe import spaced
from mason.dsl.stmt import Node
from mason.dsl.syntax import DslSyntaxError
from mason.errors import PlayError
from mason.runtime.values import _plain, _seat_of, _short


@statement
@node
class Let(Stmt):
    """``let NAME = VALUE``: bind a local variable (compiled kind ``set_local``, which ``set`` of a local shares)."""

    name: str
    value: Expr

    rules = {"let_stmt": "simple"}
    grammar = 'let_stmt: "let" NAME "=" expr'
    kinds = ("set_local",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(str(c[0]), c[1], **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"let {spaced(self.name)} be {w.expr(self.value)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        value = c.x(self.value, scope)
        scope.add(self.name)
        return Node("set_local", c.place(self), name=self.name, value=value)

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        v = node.value(rt, env)
        t = type(v)
        if t is list or t is dict or (t is int and not -MAX_NUMBER <= v <= MAX_NUMBER):  # _plain only where it acts
            v = _plain(v)
        env[node.name] = v

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """Write its fast form into a block's function (False: left to its run)."""
        setup, spends = w.stored(node.value)
        return w.guarded(node, d, setup, spends, [f"env[{node.name!r}] = v"])


@statement
@node
class Set(Stmt):
    """``set TARGET = VALUE``: a local, a game variable, a seat's variable or counter (``name(seat)``), a card's state."""

    target: Expr
    value: Expr

    rules = {"set_stmt": "simple"}
    grammar = 'set_stmt: "set" postfix "=" expr'
    kinds = ("set_var", "set_seatvar", "set_counter", "set_attr")
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        target = c[0]
        if not isinstance(target, (A.Name, A.Attr, A.Call)) or (isinstance(target, A.Call) and len(target.args) != 1):
            raise DslSyntaxError(
                "'set' needs a name, a property (x.name) or a per-seat value (name(seat))", meta.line, meta.column
            )
        return cls(target, c[1], **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"set {w.expr(self.target)} to {w.expr(self.value)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        value = c.x(self.value, scope)
        t = self.target
        if isinstance(t, A.Name):
            if t.name in scope.names:
                return Node("set_local", c.place(self), name=t.name, value=value)
            kind = c.names.settable(t, t.name)
            emits = bool(c.program.vars.get(t.name, {}).get("event"))  # triggers run before the next line
            if kind == "seatvar":
                return Node("set_seatvar", c.place(self), name=t.name, seat=None, value=value, emits=emits)
            if kind == "counter":
                c.exprs.demand(self.value, scope)
                return Node("set_counter", c.place(self), name=t.name, seat=None, value=value)
            return Node("set_var", c.place(self), name=t.name, value=value, emits=emits)
        if isinstance(t, A.Call):
            kind = c.names.settable(t, t.func, seat=True)
            node_kind = "set_seatvar" if kind == "seatvar" else "set_counter"
            if kind != "seatvar":
                c.exprs.demand(self.value, scope)
            emits = bool(c.program.vars.get(t.func, {}).get("event"))
            return Node(node_kind, c.place(self), name=t.func, seat=c.x(t.args[0], scope), value=value, emits=emits)
        assert isinstance(t, A.Attr)  # the grammar's third kind of target: a card's field
        c.names.check_card_attr(t, settable=True)
        if numbers.field_is_number(c.program, t.name):  # a card state that starts as a number stays one
            c.exprs.demand(self.value, scope)
        return Node("set_attr", c.place(self), obj=c.x(t.obj, scope), name=t.name, value=value)

    @staticmethod
    def run_set_var(rt, env, node, fr):
        """Run a compiled node of kind 'set_var' (the reference semantics)."""
        variables = rt.st["vars"]
        new = _plain(node.value(rt, env))
        old = variables[node.name]
        variables[node.name] = new
        event = rt.prog.vars[node.name]["event"]
        if event and old != new:
            rt.emit(event, {"old": old, "new": new})

    @staticmethod
    def emit_set_var(w, node, d, i, parent) -> bool:
        """A game variable set, as ``run_set_var``; one whose change is an event (``event:``) is left to
        the handler, which emits it."""
        if w.p.vars[node.name]["event"]:
            return False
        setup, spends = w.stored(node.value)
        return w.guarded(node, d, setup, spends, [f"rt.st['vars'][{node.name!r}] = v"])

    @staticmethod
    def run_set_seatvar(rt, env, node, fr):
        """Run a compiled node of kind 'set_seatvar' (the reference semantics)."""
        s = _seat_of(rt, env, node.seat, node)
        row = rt.st["vars"][node.name]
        old, new = row[s], _plain(node.value(rt, env))
        row[s] = new
        event = rt.prog.vars[node.name]["event"]
        if event and old != new:
            rt.emit(event, {"old": old, "new": new, "seat": s})

    @staticmethod
    def emit_set_seatvar(w, node, d, i, parent) -> bool:
        """A seat's variable set, as ``run_set_seatvar``: the seat checked first, then the value; one whose
        change is an event is left to the handler."""
        if w.p.vars[node.name]["event"]:
            return False
        seat, s1 = w.operand(node.seat) if node.seat is not None else ("env.get('me')", False)
        setup = w.seat(seat)
        value, s2 = w.stored(node.value)
        return w.guarded(node, d, setup + value, s1 or s2, [f"rt.st['vars'][{node.name!r}][s] = v"])

    @staticmethod
    def run_set_counter(rt, env, node, fr):
        """Run a compiled node of kind 'set_counter' (the reference semantics)."""
        v = node.value(rt, env)
        if type(v) is not int:
            raise PlayError(f"a counter holds a whole number, got {_short(v)}", node.place, "play/type")
        v = _plain(v)
        if node.seat is None and rt.prog.counters[node.name]["scope"] == "game":
            rt.st["counters"][node.name] = v
        else:
            s = _seat_of(rt, env, node.seat, node)
            rt.st["counters"][node.name][s] = v
            if rt.narrate:
                rt.change(s, node.name, value=v)
                rt.say(None, node, type="set", seat=s, counter=node.name, value=v)

    @staticmethod
    def run_set_attr(rt, env, node, fr):
        """Run a compiled node of kind 'set_attr' (the reference semantics)."""
        c = node.obj(rt, env)
        if type(c) is not int or not 0 <= c < len(rt.cards):
            raise PlayError(f"'.{node.name}' needs a card, got {_short(c)}", node.place, "play/type")
        v = node.value(rt, env)
        t = type(v)
        if t is list or t is dict or (t is int and not -MAX_NUMBER <= v <= MAX_NUMBER):  # _plain only where it acts
            v = _plain(v)
        rt.cards[c][node.name] = v

    @staticmethod
    def emit_set_attr(w, node, d, i, parent) -> bool:
        """Write the fast form of kind 'set_attr' into a block's function (False: left to its run)."""
        obj, s1 = w.operand(node.obj)
        value, s2 = w.stored(node.value)
        setup = [f"x = {obj}"]
        if obj not in w.cards_in:
            setup.append("if type(x) is not int or not 0 <= x < len(rt.cards): raise _Fallback")
        setup += value
        return w.guarded(node, d, setup, s1 or s2, [f"rt.cards[x][{node.name!r}] = v"])
