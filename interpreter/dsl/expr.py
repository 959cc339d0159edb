"""Compile expression AST nodes into Python closures ``f(rt, env) -> value``.

Names are resolved here, once, at load time: a local variable, a game name (counter, zone,
variable, named value, table column, constant, set member, component id) or a builtin function.
An unknown name is a definition error with a did-you-mean suggestion.
"""

from __future__ import annotations

import operator

from mason.dsl import ast as A
from mason.dsl import numbers
from mason.dsl.builtins import BUILTINS, MAX_ITEMS, MAX_NUMBER, charge, too_big
from mason.dsl.builtins import short as _short
from mason.dsl.fastexpr import generate
from mason.errors import PlayError, did_you_mean


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
# what evaluating a rule can raise besides PlayError: turned into a PlayError at the rule's place
HOST_ERRORS = (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, AttributeError, OverflowError)


def _no_place(line, col):
    return None


def _seat_needed(node):
    def fail(rt, env):
        raise PlayError("no acting seat here: name the seat explicitly, e.g. gold(s)", code="play/no-seat")

    return fail


class ExprCompiler:
    """Turns expressions into closures against a game's names (given by ``names``)."""

    def __init__(self, names):
        self.names = names  # interpreter.names.GameNames
        # set by the program before each DSL string is compiled: (line, col) in the string -> Place
        self.place_of = _no_place
        # names this compilation reads that are not local variables: (name, Place, used as a number,
        # read only under a condition: a branch, the right of and/or, a comprehension's item or filter)
        self.uses: list[tuple] = []
        self._conditional = 0
        # what must hold numbers, found from the uses (dsl/numbers.py): names read where a number is
        # needed (name, Place, the named value being compiled), card fields by name (the first place),
        # named values' parameters (value, index), and each call of a named value's arguments, kept
        # until the program knows which parameters must be numbers
        self.demanded: list[tuple] = []
        self.fields: dict[str, object] = {}
        self.value_params: set[tuple] = set()
        self.value_calls: list[tuple] = []
        self.value_trees: dict[str, list] = {}  # value -> [(tree, scope, context)]: its body, what modifiers set
        self.value_numbers: dict[str, bool] = {}  # value -> whether it surely gives a number (numbers.py)
        self.params: tuple = ()  # the parameters of the named value being compiled
        self.in_value: str | None = None
        self._rec = None  # while compiling a whole expression: its parts' closures, for fastexpr

    def at(self, node):
        """A function giving the rule-file place of ``node`` (computed only when an error needs it)."""
        place_of, line, col = self.place_of, getattr(node, "line", 0) or 1, getattr(node, "col", 0) or 1
        return lambda: place_of(line, col)

    def note(self, node, scope, numeric=False):
        """Record a name the compiled string reads (named values, constants) for the program's checks."""
        if isinstance(node, A.Name) and node.name not in scope.names:
            name = node.name
        elif isinstance(node, A.Call):
            name = node.func
        else:
            return
        self.uses.append((name, self.place_of(node.line or 1, node.col or 1), numeric, self._conditional > 0))

    def demand(self, node, scope):
        """``node`` must give a number (an amount, a count, an operand of arithmetic): dsl/numbers.py."""
        numbers.demand(self, node, scope)

    def context(self) -> tuple:
        """Where compilation is, for a check made later (``within``)."""
        return self.place_of, self.params, self.in_value

    def within(self, context, fn):
        saved = self.context()
        self.place_of, self.params, self.in_value = context
        try:
            return fn()
        finally:
            self.place_of, self.params, self.in_value = saved

    def compile_if(self, node, scope):
        """Compile a part that runs only under a condition (see ``uses``)."""
        self._conditional += 1
        try:
            return self.compile(node, scope)
        finally:
            self._conditional -= 1

    # ------------------------------------------------------------------ entry
    def compile(self, node: A.Expr, scope: Scope):
        """The closure for ``node``; for a whole expression (not a part), its generated fast form
        (dsl/fastexpr.py), which evaluates to the same value and falls back on the closures for errors."""
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise CompileError(f"unsupported expression {type(node).__name__}", node, "definition/dsl")
        rec = self._rec
        if rec is not None:  # a part: recorded for the generator
            fn = method(node, scope)
            rec[id(node)] = fn
            if isinstance(node, A.Name) and node.name in scope.names:
                rec[("local", id(node))] = True
            return fn
        self._rec = rec = {}
        try:
            fn = method(node, scope)
        finally:
            self._rec = None
        rec[id(node)] = fn  # the whole expression too: code that writes it in place reads it as a part
        if isinstance(node, A.Name) and node.name in scope.names:
            rec[("local", id(node))] = True
        return generate(node, fn, rec, self.names.p)

    # ------------------------------------------------------------------ leaves
    def c_Literal(self, node, scope):
        v = node.value
        return lambda rt, env: v

    def _local(self, node, scope):
        """(name, place function) when ``node`` reads a local variable, else None: a parent closure reads
        ``env`` itself instead of calling the variable's closure (same value, same error when unbound)."""
        if isinstance(node, A.Name) and node.name in scope.names:
            return node.name, self.at(node)
        return None

    def c_Name(self, node, scope):
        name = node.name
        if name in scope.names:
            at = self.at(node)

            def local(rt, env):
                try:
                    return env[name]
                except KeyError:
                    raise PlayError(f"'{name}' has no value here", at(), "play/unbound") from None

            return local
        self.note(node, scope)
        return self.names.resolve_name(node, scope, self)

    def c_Attr(self, node, scope):
        obj = self.compile(node.obj, scope)
        name = node.name
        self.names.check_card_attr(node)
        at = self.at(node)
        if name == "type":
            key = "t"
        elif name in self.names.p.card_state or name in ("up", "seen"):
            key = name
        else:
            # a printed property: it lives on the component type (card state cannot shadow it)
            local = self._local(node.obj, scope)
            if local is not None:  # the common ``c.cost`` of a local card: one closure, not two
                vname, vat = local

                def static_local(rt, env):
                    try:
                        c = env[vname]
                    except KeyError:
                        raise PlayError(f"'{vname}' has no value here", vat(), "play/unbound") from None
                    try:
                        if c < 0:
                            _card(c, node, at)
                        return rt.types[rt.cards[c]["t"]][name]
                    except (IndexError, TypeError, KeyError):
                        _card(c, node, at)
                        raise

                return static_local

            def static(rt, env):
                c = obj(rt, env)
                try:
                    if c < 0:
                        _card(c, node, at)
                    return rt.types[rt.cards[c]["t"]][name]
                except (IndexError, TypeError, KeyError):
                    _card(c, node, at)
                    raise

            return static

        local = self._local(node.obj, scope)
        if local is not None:
            vname, vat = local

            def dynamic_local(rt, env):
                try:
                    c = env[vname]
                except KeyError:
                    raise PlayError(f"'{vname}' has no value here", vat(), "play/unbound") from None
                try:
                    if c < 0:
                        _card(c, node, at)
                    return rt.cards[c][key]
                except (IndexError, TypeError, KeyError):
                    _card(c, node, at)
                    raise

            return dynamic_local

        def dynamic(rt, env):
            c = obj(rt, env)
            try:
                if c < 0:
                    _card(c, node, at)
                return rt.cards[c][key]
            except (IndexError, TypeError, KeyError):
                _card(c, node, at)
                raise

        return dynamic

    def c_Index(self, node, scope):
        obj, idx = self.compile(node.obj, scope), self.compile(node.index, scope)
        at = self.at(node)

        def index(rt, env):
            seq = obj(rt, env)
            i = idx(rt, env)
            try:
                return seq[i]
            except (IndexError, KeyError, TypeError):
                raise PlayError(f"index {_short(i)} out of range", at(), "play/index") from None

        return index

    def c_ListLit(self, node, scope):
        items = [self.compile(i, scope) for i in node.items]
        return lambda rt, env: [f(rt, env) for f in items]

    # ------------------------------------------------------------------ operators
    def c_BinOp(self, node, scope):
        left, right = self.compile(node.left, scope), self.compile(node.right, scope)
        op = node.op
        at = self.at(node)
        if op in _NUMERIC_OPS or (op in _ORDER_OPS and _number_literal(node.left, node.right)):
            self.note(node.left, scope, numeric=True)
            self.note(node.right, scope, numeric=True)
            self.demand(node.left, scope)
            self.demand(node.right, scope)
        elif op in _SAME_KIND_OPS:
            numbers.meet(self, node.left, node.right, scope)
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
            return self._equality(node, scope, left, right, op == "==")
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

    def _equality(self, node, scope, left, right, equal):
        """``==`` / ``!=``, with a literal or a local variable on one side read in place (the most common
        comparisons: ``x.colour == colour``, ``c != none``)."""
        r_lit = isinstance(node.right, A.Literal)
        r_local = self._local(node.right, scope)
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

    def c_BoolOp(self, node, scope):
        items = [self.compile(node.items[0], scope)] + [self.compile_if(i, scope) for i in node.items[1:]]
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
        self.note(node.operand, scope, numeric=True)
        self.demand(node.operand, scope)
        at = self.at(node)

        def neg(rt, env):
            v = f(rt, env)
            try:
                return -v
            except TypeError:
                raise PlayError(f"cannot compute -{_short(v)}: not a number", at(), "play/type") from None

        return neg

    def c_IfExpr(self, node, scope):
        cond = self.compile(node.cond, scope)
        then, other = self.compile_if(node.then, scope), self.compile_if(node.other, scope)
        numbers.meet(self, node.then, node.other, scope)
        return lambda rt, env: then(rt, env) if cond(rt, env) else other(rt, env)

    # ------------------------------------------------------------------ calls
    def c_Call(self, node, scope):
        self.note(node, scope)
        p = self.names.p
        name = node.func
        if name in p.values or name in p.counters or name in p.zones or name in p.vars or name not in BUILTINS:
            # a named value (its own parts carry places), a per-seat read, or an unknown name
            if name in p.values:  # each argument, kept for when the value's parameters are known
                context = self.context()
                self.value_calls += [(name, i, a, scope, context) for i, a in enumerate(node.args)]
            return self.names.resolve_call(node, scope, self)
        b = BUILTINS[name]
        for i in b.numbers:
            if i < len(node.args):
                self.demand(node.args[i], scope)
        if name in ("min", "max") and len(node.args) > 1:
            if any(numbers.gives_number(self, a, scope) for a in node.args):
                for a in node.args:
                    self.demand(a, scope)
        args = [self.compile(a, scope) for a in node.args]
        if not b.min_args <= len(args) <= b.max_args:
            raise CompileError(
                f"'{name}' takes {b.min_args}..{b.max_args} argument(s), got {len(args)}", node, "definition/arity"
            )
        impl = b.impl
        at = self.at(node)
        if self._rec is not None:
            self._rec[("builtin", id(node))] = impl
        if len(args) == 1:  # a builtin: its failures are placed at the call
            a0 = args[0]

            def builtin1(rt, env):
                try:
                    return impl(rt, a0(rt, env))
                except PlayError as exc:
                    raise _placed(exc, at) from None
                except HOST_ERRORS as exc:
                    raise PlayError(f"cannot compute {name}(...): {exc}", at(), "play/type") from None

            return builtin1

        def builtin(rt, env):
            try:
                return impl(rt, *[a(rt, env) for a in args])
            except PlayError as exc:
                raise _placed(exc, at) from None
            except HOST_ERRORS as exc:
                raise PlayError(f"cannot compute {name}(...): {exc}", at(), "play/type") from None

        return builtin

    def c_Comprehension(self, node, scope):
        var = node.var
        source = self.compile(node.source, scope)
        inner = scope.child(var)
        item = self.compile_if(node.item, inner)
        cond = self.compile_if(node.cond, inner) if node.cond is not None else None
        at = self.at(node)

        def gen(rt, env):
            saved = env.get(var, _UNSET)  # a comprehension's variable is its own: restore the outer one, or leave none
            out = []
            items = _spend(rt, source(rt, env), at)
            for x in items:
                env[var] = x
                if cond is None or cond(rt, env):
                    out.append(item(rt, env))
            if saved is not _UNSET:
                env[var] = saved
            else:
                env.pop(var, None)
            return out

        if node.func is None:
            return gen
        if node.func in ("any", "all"):
            want = node.func == "any"

            def short(rt, env):  # stops at the first deciding item
                saved = env.get(var, _UNSET)
                result = not want
                items = _spend(rt, source(rt, env), at)
                for x in items:
                    env[var] = x
                    if (cond is None or cond(rt, env)) and bool(item(rt, env)) is want:
                        result = want
                        break
                if saved is not _UNSET:
                    env[var] = saved
                else:
                    env.pop(var, None)
                return result

            return short
        if node.func == "count" and cond is not None:

            def count(rt, env):
                saved = env.get(var, _UNSET)
                n = 0
                items = _spend(rt, source(rt, env), at)
                for x in items:
                    env[var] = x
                    if cond(rt, env):
                        n += 1
                if saved is not _UNSET:
                    env[var] = saved
                else:
                    env.pop(var, None)
                return n

            return count
        fn = BUILTINS.get(node.func)
        if fn is None:
            raise CompileError(f"unknown function '{node.func}'{did_you_mean(node.func, BUILTINS)}", node)
        impl = fn.impl
        if self._rec is not None:
            self._rec[("builtin", id(node))] = impl

        def call(rt, env):
            values = gen(rt, env)
            try:
                return impl(rt, values)
            except PlayError as exc:
                raise _placed(exc, at) from None
            except HOST_ERRORS as exc:
                raise PlayError(f"cannot compute {node.func}(...): {exc}", at(), "play/type") from None

        return call


_UNSET = object()


def _spend(rt, items, at):
    """The items a comprehension goes through, counted against the item budget (docs/dsl.md, "Limits")."""
    try:
        rt.spent += len(items)
    except TypeError:
        _not_a_list(items, at)
    if rt.spent > rt.item_cap:
        charge(rt, 0, at)
    return items


def _not_a_list(items, at):
    raise PlayError(f"cannot go through {_short(items)}: not a list", at(), "play/type")


def _number_literal(*nodes) -> bool:
    return any(isinstance(n, A.Literal) and type(n.value) is int for n in nodes)


def _card(c, node, at):
    if c is None or c is True or c is False or not isinstance(c, int) or c < 0:
        raise PlayError(f"'.{node.name}' needs a card, got {_short(c)}", at(), "play/type")
    raise PlayError(f"'.{node.name}': {c!r} is not a card of this game", at(), "play/type")


def _placed(exc: PlayError, at) -> PlayError:
    """Give a play error raised by an inner part (a builtin, a seat check) the place of this expression."""
    if exc.place is None:
        exc.place = at()
    return exc
