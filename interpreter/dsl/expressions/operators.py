"""The operators of expressions: comparison and arithmetic (``BinOp``), ``and``/``or``, ``not``, negation,
and the conditional ``a if cond else b``."""

from __future__ import annotations

import operator

from mason.dsl import ast as A
from mason.dsl import numbers
from mason.dsl.builtins import MAX_ITEMS, MAX_NUMBER, charge, too_big
from mason.dsl.builtins import short as _short
from mason.dsl.compiling import HOST_ERRORS
from mason.dsl.compiling import placed as _placed
from mason.dsl.constructs import expression
from mason.dsl.fastexpr import _ORDER
from mason.errors import PlayError

_BIN = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_NUMERIC_OPS = ("-", "//", "%")  # an operand of these must be a number
_ORDER_OPS = ("+", "*", "<", "<=", ">", ">=")  # ... and of these, when the other one is a number
_SAME_KIND_OPS = ("+", "<", "<=", ">", ">=", "==", "!=")  # a side that gives a number needs one on the other


def _number_literal(*nodes) -> bool:
    return any(isinstance(n, A.Literal) and type(n.value) is int for n in nodes)


@expression
class BinOpForm:
    """``a OP b``: comparison (``==``, ``<``, ``in``, ...) and arithmetic (``+``, ``-``, ``*``, ``//``, ``%``)."""

    node = A.BinOp
    rules = ("compare", "arith")
    parts = {"comp_op": lambda meta, c: " ".join(str(t) for t in c)}

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        if rule == "compare":
            return A.BinOp(c[1], c[0], c[2], **place)
        node = c[0]  # a chain of + and - (or *, //, %): left to right
        for i in range(1, len(c), 2):
            node = A.BinOp(str(c[i]), node, c[i + 1], **place)
        return node

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        left, right = x.compile(node.left, scope), x.compile(node.right, scope)
        op = node.op
        at = x.at(node)
        if op in _NUMERIC_OPS or (op in _ORDER_OPS and _number_literal(node.left, node.right)):
            x.note(node.left, scope, numeric=True)
            x.note(node.right, scope, numeric=True)
            x.demand(node.left, scope)
            x.demand(node.right, scope)
        elif op in _SAME_KIND_OPS:
            numbers.meet(x, node.left, node.right, scope)
        if op in ("in", "not in"):
            negate = op == "not in"

            def contains(rt, env):
                a, b = left(rt, env), right(rt, env)
                try:
                    return (a in b) is not negate
                except TypeError:
                    raise PlayError(
                        f"cannot test {_short(a)} {op} {_short(b)}: the right side is not a list", at(), "play/type"
                    ) from None

            return contains
        fn = _BIN[op]
        if op in ("==", "!="):
            return _equality(x, node, scope, left, right, op == "==")
        if op == "*":

            def times(rt, env):  # list and text repetition is bounded before it is built
                a, b = left(rt, env), right(rt, env)
                try:
                    if type(a) is int and type(b) is int:
                        r = a * b
                        if -MAX_NUMBER <= r <= MAX_NUMBER:
                            return r
                        raise too_big(r, at())
                    if isinstance(a, (list, str)) or isinstance(b, (list, str)):
                        seq, k = (a, b) if isinstance(a, (list, str)) else (b, a)
                        if type(k) is int and len(seq) * k > MAX_ITEMS:
                            raise PlayError(
                                f"{_short(seq)} * {k} would hold {len(seq) * k:,} items; a rule may"
                                f" make at most {MAX_ITEMS:,}",
                                at(),
                                "play/too-big",
                            )
                        charge(rt, len(seq) * max(k, 0) if type(k) is int else 0, at)
                    return a * b
                except HOST_ERRORS as exc:
                    raise PlayError(f"cannot compute {_short(a)} * {_short(b)}: {exc}", at(), "play/type") from None
                except PlayError as exc:
                    raise _placed(exc, at) from None

            return times
        if op == "+":

            def plus(rt, env):  # joined lists and texts stay within the size limit
                a, b = left(rt, env), right(rt, env)
                try:
                    r = a + b
                except HOST_ERRORS as exc:
                    raise PlayError(f"cannot compute {_short(a)} + {_short(b)}: {exc}", at(), "play/type") from None
                t = type(r)
                if (t is list or t is str) and len(r) > MAX_ITEMS:
                    raise PlayError(
                        f"this would hold {len(r):,} items; a rule may make at most {MAX_ITEMS:,}", at(), "play/too-big"
                    )
                return r

            return plus

        if isinstance(node.right, A.Literal):  # ``count(x) > 1``: the literal is not called for
            b0 = node.right.value

            def arith_literal(rt, env):
                a = left(rt, env)
                try:
                    return fn(a, b0)
                except HOST_ERRORS as exc:
                    raise PlayError(f"cannot compute {_short(a)} {op} {_short(b0)}: {exc}", at(), "play/type") from None

            return arith_literal

        def arith(rt, env):
            a, b = left(rt, env), right(rt, env)
            try:
                return fn(a, b)
            except HOST_ERRORS as exc:
                raise PlayError(f"cannot compute {_short(a)} {op} {_short(b)}: {exc}", at(), "play/type") from None

        return arith

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        op = node.op
        if op in _ORDER:
            return f"({g.e(node.left)} {op} {g.e(node.right)})"
        if op == "+" and (g.never_joined(node.left) or g.never_joined(node.right)):
            return f"({g.e(node.left)} + {g.e(node.right)})"  # no list or text to bound
        if op == "+":
            chain = [node.right]  # a + b + c: ((a + b) + c), joined in one Python expression and bounded once
            left = node.left
            while type(left) is A.BinOp and left.op == "+" and not g.never_joined(left):
                chain.append(left.right)
                left = left.left
            if len(chain) > 1:
                return "_bound(" + " + ".join(g.e(n) for n in [left] + chain[::-1]) + ")"
            return f"_plus({g.e(node.left)}, {g.e(node.right)})"
        if op == "*":
            return f"_times(rt, {g.e(node.left)}, {g.e(node.right)})"
        return g.closure(node)


@expression
class BoolOpForm:
    """``a and b and ...`` / ``a or b or ...``: the first deciding value, as Python's."""

    node = A.BoolOp
    rules = ("or_", "and_")

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.BoolOp(rule[:-1], tuple(c), **place) if len(c) > 1 else c[0]

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        items = [x.compile(node.items[0], scope)] + [x.compile_if(i, scope) for i in node.items[1:]]
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

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        sep = f" {node.op} "
        return "(" + sep.join(g.e(i) for i in node.items) + ")"


@expression
class NotForm:
    """The expression ``not a``: true when the condition ``a`` is false."""

    node = A.Not
    rules = ("not_",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.Not(c[0], **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        f = x.compile(node.operand, scope)
        return lambda rt, env: not f(rt, env)

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        return f"(not {g.e(node.operand)})"


@expression
class NegForm:
    """``-a``: a number's negation."""

    node = A.Neg
    rules = ("neg",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.Neg(c[0], **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        f = x.compile(node.operand, scope)
        x.note(node.operand, scope, numeric=True)
        x.demand(node.operand, scope)
        at = x.at(node)

        def neg(rt, env):
            v = f(rt, env)
            try:
                return -v
            except TypeError:
                raise PlayError(f"cannot compute -{_short(v)}: not a number", at(), "play/type") from None

        return neg

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        return f"(-{g.e(node.operand)})"


@expression
class IfExprForm:
    """``a if cond else b``."""

    node = A.IfExpr
    rules = ("cond_expr",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.IfExpr(c[0], c[1], c[2], **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        cond = x.compile(node.cond, scope)
        then, other = x.compile_if(node.then, scope), x.compile_if(node.other, scope)
        numbers.meet(x, node.then, node.other, scope)
        return lambda rt, env: then(rt, env) if cond(rt, env) else other(rt, env)

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        return f"({g.e(node.then)} if {g.e(node.cond)} else {g.e(node.other)})"


def _equality(x, node, scope, left, right, equal):
    """``==`` / ``!=``, with a literal or a local variable on one side read in place (the most common
    comparisons: ``x.colour == colour``, ``c != none``)."""
    r_lit = isinstance(node.right, A.Literal)
    r_local = x._local(node.right, scope)
    if r_lit or r_local is None and isinstance(node.left, A.Literal):
        if r_lit:
            v, other = node.right.value, left
        else:
            v, other = node.left.value, right
        if v is None:
            if equal:
                return lambda rt, env: other(rt, env) is None
            return lambda rt, env: other(rt, env) is not None
        if equal:
            return lambda rt, env: other(rt, env) == v if r_lit else v == other(rt, env)
        return lambda rt, env: other(rt, env) != v if r_lit else v != other(rt, env)
    if r_local is not None:
        name, at = r_local

        def read(env):
            try:
                return env[name]
            except KeyError:
                raise PlayError(f"'{name}' has no value here", at(), "play/unbound") from None

        if equal:
            return lambda rt, env: left(rt, env) == read(env)
        return lambda rt, env: left(rt, env) != read(env)
    if equal:
        return lambda rt, env: left(rt, env) == right(rt, env)
    return lambda rt, env: left(rt, env) != right(rt, env)
