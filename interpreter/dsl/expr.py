"""Compile expression AST nodes into Python closures ``f(rt, env) -> value``.

Names are resolved here, once, at load time: a local variable, a game name (counter, zone,
variable, named value, table column, constant, set member, component id) or a builtin function.
An unknown name is a definition error with a did-you-mean suggestion.
"""
from __future__ import annotations

import operator

from ..errors import PlayError, did_you_mean
from . import ast as A
from .builtins import BUILTINS


class CompileError(Exception):
    """A name or shape problem at (line, col) inside a DSL string."""

    def __init__(self, message: str, node, code: str = "definition/unknown-name"):
        super().__init__(message)
        self.message, self.code = message, code
        self.line, self.col = getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1


class Scope:
    """Local names known at a point of compilation (function scoping, like Python)."""

    def __init__(self, names=(), parent: "Scope | None" = None):
        self.names = set(names)
        if parent:
            self.names |= parent.names

    def child(self, *names) -> "Scope":
        return Scope(names, self)

    def add(self, name: str) -> None:
        self.names.add(name)


_BIN = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def _seat_needed(node):
    def fail(rt, env):
        raise PlayError("no acting seat here: name the seat explicitly, e.g. gold(s)",
                        code="play/no-seat")
    return fail


class ExprCompiler:
    """Turns expressions into closures against a game's names (given by ``names``)."""

    def __init__(self, names):
        self.names = names  # interpreter.names.GameNames

    # ------------------------------------------------------------------ entry
    def compile(self, node: A.Expr, scope: Scope):
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise CompileError(f"unsupported expression {type(node).__name__}", node, "definition/dsl")
        return method(node, scope)

    # ------------------------------------------------------------------ leaves
    def c_Literal(self, node, scope):
        v = node.value
        return lambda rt, env: v

    def c_Name(self, node, scope):
        name = node.name
        if name in scope.names:
            def local(rt, env):
                try:
                    return env[name]
                except KeyError:
                    raise PlayError(f"'{name}' has no value here", code="play/unbound") from None
            return local
        return self.names.resolve_name(node, scope, self)

    def c_Attr(self, node, scope):
        obj = self.compile(node.obj, scope)
        name = node.name
        self.names.check_card_attr(node)
        if name == "type":
            key = "t"
        elif name in self.names.p.card_state or name in ("up", "seen"):
            key = name
        else:
            # a printed property: it lives on the component type (card state cannot shadow it)
            def static(rt, env):
                c = obj(rt, env)
                try:
                    if c < 0:
                        _card(c, node)
                    return rt.types[rt.cards[c]["t"]][name]
                except (IndexError, TypeError, KeyError):
                    _card(c, node)
                    raise
            return static

        def dynamic(rt, env):
            c = obj(rt, env)
            try:
                if c < 0:
                    _card(c, node)
                return rt.cards[c][key]
            except (IndexError, TypeError, KeyError):
                _card(c, node)
                raise
        return dynamic

    def c_Index(self, node, scope):
        obj, idx = self.compile(node.obj, scope), self.compile(node.index, scope)

        def index(rt, env):
            seq = obj(rt, env)
            i = idx(rt, env)
            try:
                return seq[i]
            except (IndexError, KeyError, TypeError):
                raise PlayError(f"index {i!r} out of range", code="play/index") from None
        return index

    def c_ListLit(self, node, scope):
        items = [self.compile(i, scope) for i in node.items]
        return lambda rt, env: [f(rt, env) for f in items]

    # ------------------------------------------------------------------ operators
    def c_BinOp(self, node, scope):
        left, right = self.compile(node.left, scope), self.compile(node.right, scope)
        op = node.op
        if op == "in":
            return lambda rt, env: left(rt, env) in right(rt, env)
        if op == "not in":
            return lambda rt, env: left(rt, env) not in right(rt, env)
        fn = _BIN[op]
        if op in ("==", "!="):
            return lambda rt, env: fn(left(rt, env), right(rt, env))

        def arith(rt, env):
            a, b = left(rt, env), right(rt, env)
            try:
                return fn(a, b)
            except (TypeError, ZeroDivisionError) as exc:
                raise PlayError(f"cannot compute {a!r} {op} {b!r}: {exc}", code="play/type") from None
        return arith

    def c_BoolOp(self, node, scope):
        items = [self.compile(i, scope) for i in node.items]
        if node.op == "and":
            if len(items) == 2:
                a, b = items
                return lambda rt, env: a(rt, env) and b(rt, env)
            def and_all(rt, env):
                v = True
                for f in items:
                    v = f(rt, env)
                    if not v:
                        return v
                return v
            return and_all
        if len(items) == 2:
            a, b = items
            return lambda rt, env: a(rt, env) or b(rt, env)
        def or_any(rt, env):
            v = False
            for f in items:
                v = f(rt, env)
                if v:
                    return v
            return v
        return or_any

    def c_Not(self, node, scope):
        f = self.compile(node.operand, scope)
        return lambda rt, env: not f(rt, env)

    def c_Neg(self, node, scope):
        f = self.compile(node.operand, scope)
        return lambda rt, env: -f(rt, env)

    def c_IfExpr(self, node, scope):
        then, cond, other = (self.compile(n, scope) for n in (node.then, node.cond, node.other))
        return lambda rt, env: then(rt, env) if cond(rt, env) else other(rt, env)

    # ------------------------------------------------------------------ calls
    def c_Call(self, node, scope):
        return self.names.resolve_call(node, scope, self)

    def c_Comprehension(self, node, scope):
        var = node.var
        source = self.compile(node.source, scope)
        inner = scope.child(var)
        item = self.compile(node.item, inner)
        cond = self.compile(node.cond, inner) if node.cond is not None else None

        def gen(rt, env):
            saved = env.get(var, _UNSET)  # a comprehension's variable is its own: restore the outer one
            out = []
            for x in source(rt, env):
                env[var] = x
                if cond is None or cond(rt, env):
                    out.append(item(rt, env))
            if saved is not _UNSET:
                env[var] = saved
            return out
        if node.func is None:
            return gen
        if node.func in ("any", "all"):
            want = node.func == "any"

            def short(rt, env):  # stops at the first deciding item
                saved = env.get(var, _UNSET)
                result = not want
                for x in source(rt, env):
                    env[var] = x
                    if (cond is None or cond(rt, env)) and bool(item(rt, env)) is want:
                        result = want
                        break
                if saved is not _UNSET:
                    env[var] = saved
                return result
            return short
        if node.func == "count" and cond is not None:
            def count(rt, env):
                saved = env.get(var, _UNSET)
                n = 0
                for x in source(rt, env):
                    env[var] = x
                    if cond(rt, env):
                        n += 1
                if saved is not _UNSET:
                    env[var] = saved
                return n
            return count
        fn = BUILTINS.get(node.func)
        if fn is None:
            raise CompileError(f"unknown function '{node.func}'{did_you_mean(node.func, BUILTINS)}", node)
        impl = fn.impl
        return lambda rt, env: impl(rt, gen(rt, env))


_UNSET = object()


def _card(c, node):
    if c is None or c is True or c is False or not isinstance(c, int) or c < 0:
        raise PlayError(f"'.{node.name}' needs a card, got {c!r}", code="play/type")
    raise PlayError(f"'.{node.name}': {c!r} is not a card of this game", code="play/type")
