"""The calls of expressions: ``f(args)`` (a builtin, a named value, a seat's counter) and comprehensions
(``[item for x in xs if cond]``, ``f(item for x in xs if cond)``)."""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl import numbers
from mason.dsl.builtins import BUILTINS, charge
from mason.dsl.builtins import short as _short
from mason.dsl.compiling import HOST_ERRORS, CompileError
from mason.dsl.compiling import placed as _placed
from mason.dsl.constructs import expression
from mason.dsl.fastexpr import SEATS, _Unsupported
from mason.errors import PlayError, did_you_mean

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


@expression
class CallForm:
    """``f(args)``: a builtin query, a named value, or a seat's counter, zone or variable (``gold(s)``)."""

    node = A.Call
    rules = ("call",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        args = c[1] if len(c) > 1 and c[1] is not None else []
        pos = tuple(a for a in args if isinstance(a, A.Expr))
        kw = tuple(a for a in args if isinstance(a, tuple))
        return A.Call(str(c[0]), pos, kw, **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        x.note(node, scope)
        p = x.names.p
        name = node.func
        if name in p.values or name in p.counters or name in p.zones or name in p.vars or name not in BUILTINS:
            # a named value (its own parts carry places), a per-seat read, or an unknown name
            if name in p.values:  # each argument, kept for when the value's parameters are known
                context = x.context()
                x.value_calls += [(name, i, a, scope, context) for i, a in enumerate(node.args)]
            return x.names.resolve_call(node, scope, x)
        b = BUILTINS[name]
        for i in b.numbers:
            if i < len(node.args):
                x.demand(node.args[i], scope)
        if name in ("min", "max") and len(node.args) > 1:
            if any(numbers.gives_number(x, a, scope) for a in node.args):
                for a in node.args:
                    x.demand(a, scope)
        args = [x.compile(a, scope) for a in node.args]
        if not b.min_args <= len(args) <= b.max_args:
            raise CompileError(
                f"'{name}' takes {b.min_args}..{b.max_args} argument(s), got {len(args)}", node, "definition/arity"
            )
        impl = b.impl
        at = x.at(node)
        if x._rec is not None:
            x._rec[("builtin", id(node))] = impl
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

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        impl = g.rec.get(("builtin", id(node)))
        if impl is None:
            return _value_call(g, node)
        static = g.static(node, impl, "static")
        if static is not None:  # known when the code is made (dsl.builtins.builtin's ``static``)
            return repr(static) if type(static) is not list else f"list({g.const(static)})"
        code = g.builtin_code(node, impl)
        if code is not None:  # the builtin's own code (dsl.builtins.builtin's ``code``)
            return code
        on_list = getattr(impl, "on_list", None)
        if on_list is not None and len(node.args) == 1:  # count(xs): len(xs) when xs is a list
            held = g.new()
            arg = g.e(node.args[0])
            return f"({on_list}({held}) if type({held} := {arg}) is list else {g.const(impl)}(rt, {held}))"
        args = "".join(", " + g.e(a) for a in node.args)
        code = f"{g.const(impl)}(rt{args})"
        if getattr(impl, "gives_cards", False):  # a new list of cards' numbers (``cards(family)``)
            g.card_lists.add(code)
        return code


@expression
class ComprehensionForm:
    """``[item for x in xs if cond]`` or ``f(item for x in xs if cond)``."""

    node = A.Comprehension
    rules = ("gen_call", "list_comp")

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        if rule == "gen_call":
            return A.Comprehension(c[1], str(c[2]), c[3], c[4], func=str(c[0]), **place)
        return A.Comprehension(c[0], str(c[1]), c[2], c[3], **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        var = node.var
        source = x.compile(node.source, scope)
        inner = scope.child(var)
        item = x.compile_if(node.item, inner)
        cond = x.compile_if(node.cond, inner) if node.cond is not None else None
        at = x.at(node)

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
        if x._rec is not None:
            x._rec[("builtin", id(node))] = impl

        def call(rt, env):
            values = gen(rt, env)
            try:
                return impl(rt, values)
            except PlayError as exc:
                raise _placed(exc, at) from None
            except HOST_ERRORS as exc:
                raise PlayError(f"cannot compute {node.func}(...): {exc}", at(), "play/type") from None

        return call

    @staticmethod
    def emit(g, node) -> str:
        """A helper function per comprehension, written as its closures ``gen`` / ``short`` / ``count`` (``compile`` above)."""
        var = node.var
        name = g.new("_c")
        outer = g.bound
        # the source runs in the helper, the rest per item; the locals the caller holds in Python names
        # (a named value's parameters written in place, an outer comprehension's item) are passed on to
        # it, under names of its own; what the caller reads from env, the helper reads there too
        kept: dict[str, str] = {}
        inside: dict[str, str] = {}  # a caller's Python name -> the helper's parameter
        for n, py in outer.items():
            if py.startswith("env"):
                kept[n] = py
            elif py.isidentifier():
                if py not in inside:
                    inside[py] = g.new("_p")
                kept[n] = inside[py]
        passed = "".join(", " + py for py in inside)  # the call's arguments
        params = "".join(", " + p for p in inside.values())  # the helper's parameters
        g.bound = dict(kept)
        cards_in, outer_reads, outer_hoist, closures = g.cards_in, g.reads, g.hoist, g.env_reads
        seats_in, outer_held = g.seats_in, g.held_reads
        g.held_reads = None  # the source is read once, in the helper: nothing to hold (nor the caller's)
        g.cards_in = {p for py, p in inside.items() if py in cards_in}
        g.seats_in = {p for py, p in inside.items() if py in seats_in}
        g.reads, g.hoist = set(), None
        try:
            source = g.e(node.source)
            g.bound = dict(kept, **{var: "x"})
            if source in g.zone_lists or source in g.card_lists:  # nothing but cards
                g.cards_in = g.cards_in | {"x"}
            if source == SEATS:  # nothing but seats
                g.seats_in = g.seats_in | {"x"}
            reads = g.env_reads
            g.hoist = []
            g.held_reads = [] if var != "me" else None  # (an item named ``me`` changes every read of me)
            item = g.e(node.item)
            sieve = None
            if node.cond is None:
                cond = None
            else:
                conjuncts = node.cond.items if type(node.cond) is A.BoolOp and node.cond.op == "and" else (node.cond,)
                texts = [g.e(c) for c in conjuncts]
                cond = texts[0] if len(texts) == 1 else "(" + " and ".join(texts) + ")"  # as e() writes it
                sieve = g.sieve(node.source, conjuncts, texts)
        finally:
            inner_reads, hoisted, read_once = g.reads, g.hoist or [], g.held_reads or []
            g.bound, g.cards_in, g.reads, g.hoist = outer, cards_in, outer_reads, outer_hoist
            g.seats_in, g.held_reads = seats_in, outer_held
        g.reads |= set(inside)  # the caller's Python names passed to the helper
        func = node.func
        # the variable is put in env only for what may read it there: a closure. Code written here reads
        # it as ``x``, a nested helper gets it as a parameter (``me`` is always put: env['me'] is read inline)
        put = g.env_reads != reads or var == "me"
        head = [f"def {name}(rt, env{params}):"] + [f"    {h} = _UNSET" for h in hoisted]
        if read_once:  # read ahead of need: one that fails hands the expression over (``held``)
            head += ["    try:"] + [f"        {py} = {read}" for py, read in read_once]
            head += ["    except Exception:", "        raise _Fallback from None"]
        if put:
            head.append(f"    saved = env.get({var!r}, _UNSET)")
        head += [
            f"    items = {source}",
            "    rt.spent += len(items)",
            "    if rt.spent > rt.item_cap:",
            "        raise _Fallback",
        ]
        loop = ["    for x in items:"] + ([f"        env[{var!r}] = x"] if put else [])
        restore = (
            [
                "    if saved is not _UNSET:",
                f"        env[{var!r}] = saved",
                "    else:",
                f"        env.pop({var!r}, None)",
            ]
            if put
            else []
        )

        def body(loop, cond) -> list:
            """The loop over ``items`` (or the sieve's ``kept``) testing ``cond``, as the function asks."""
            if func in ("any", "all"):
                want = func == "any"
                test = f"({item})" if want else f"not ({item})"  # as bool(item) is want
                if cond is not None:
                    test = f"({cond}) and {test}"
                return (
                    [f"    result = {not want}"]
                    + loop
                    + [f"        if {test}:", f"            result = {want}", "            break"]
                )
            if func == "count" and cond is not None:
                return ["    n = 0"] + loop + [f"        if {cond}:", "            n += 1"]
            if cond is None:
                return ["    out = []"] + loop + [f"        out.append({item})"]
            return ["    out = []"] + loop + [f"        if {cond}:", f"            out.append({item})"]

        lines = body(loop, cond)
        if sieve is not None:  # the loop over the kept items, testing the rest of the condition
            call, rest = sieve
            sifted = body([loop[0].replace(" in items:", " in kept:")] + loop[1:], rest)
            lines = (
                [f"    kept = {call}", "    if kept is None:"]
                + ["    " + line for line in lines]
                + ["    else:"]
                + ["    " + line for line in sifted]
            )
        result = "result" if func in ("any", "all") else "n" if func == "count" and cond is not None else "out"
        lines = head + lines + restore + [f"    return {result}"]
        g.helpers.append("\n".join(lines))
        if result != "out":
            return f"{name}(rt, env{passed})"
        if func is None:
            code = f"{name}(rt, env{passed})"
            if item == "x" and (source in g.zone_lists or source in g.card_lists):
                g.card_lists.add(code)  # the items themselves, of a zone: cards
            if (
                g.hoist is not None
                and cond is None
                and g.env_reads == closures
                and not inner_reads & set(inside.values())
            ):
                # in another comprehension's item or condition, reading none of its items and calling
                # no closure: the same list at every item of that one, made once (when first needed)
                # and counted in the item budget again at each use, as if made again
                held = g.new("_h")
                g.hoist.append(held)
                return f"({held} if {held} is not _UNSET and _again(rt, len({held})) else ({held} := {code}))"
            return code
        impl = g.rec.get(("builtin", id(node)))
        if impl is None:
            raise _Unsupported
        return f"{g.const(impl)}(rt, {name}(rt, env{passed}))"


def _value_call(g, node) -> str:
    """A call of a named value, as names.py's ``value1``: its own body direct while it has no
    modifier, else through ``rt.value`` (modifiers are added after the values are compiled)."""
    p, name = g.p, node.func
    vd = p.values.get(name)
    if vd is None and len(node.args) == 1 and g.rec.get(id(node)) is not None:
        # a seat's own counter, zone or variable, ``gold(s)``: the seat checked as names.py's _seat
        t = g.new()
        arg = g.e(node.args[0])
        seat = arg if arg in g.seats_in else f"({t} if type({t} := {arg}) is int and 0 <= {t} < rt.n else None)"
        if name in p.counters and p.counters[name]["scope"] == "seat":
            return f"rt.counters[{name!r}][{seat}]"
        if name in p.zones and p.zones[name]["scope"] == "seat":
            return g.zone(f"rt.zones[rt.zk[{name!r}][{seat}]]")
        if name in p.vars and p.vars[name]["scope"] == "seat":
            return f"rt.vars[{name!r}][{seat}]"
    if vd is None or len(node.args) != len(vd.params) or g.rec.get(id(node)) is None:
        return g.closure(node)
    args = [g.e(a) for a in node.args]
    vdc = g.const(vd)
    # with modifiers: the value's generated form (``ValueDef.evp``, see value_evaluator); where that
    # cannot decide (it raises), the closure tree runs, through ``rt.value``, as it does for a value
    # given modifiers after the program was compiled (no ``ev`` yet)
    local = "{" + "".join(f"{q!r}: {a}, " for q, a in zip(vd.params, args)) + "'me': env.get('me')}"
    inline = g.inline_body(vd, args) or f"{vdc}.fn(rt, {local})"
    mods = g.held(f"{vdc}.mods")
    return f"({vdc}.evp(rt, {''.join(a + ', ' for a in args)}env.get('me')) if {mods} else {inline})"
