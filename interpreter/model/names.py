"""Name resolution for the DSL against one game's declarations (counters, zones, vars, values...).

Every bare name and call in a DSL string is resolved here at load time into a closure; an unknown
name is reported with a did-you-mean suggestion drawn from everything the game declares.
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl.builtins import BUILTINS
from mason.dsl.expr import CompileError
from mason.errors import PlayError, did_you_mean

# names every effect can use; see docs/dsl.md
CONTEXT_NAMES = ("seat", "players", "round", "seats", "others", "me", "self", "owner")
# and the id of each family declared ``turn_card: true``: the card of the turn under way


class GameNames:
    """What the names in a game's expressions mean: values, counters, variables, card fields, events."""

    def __init__(self, program):
        self.p = program

    # ------------------------------------------------------------------ helpers
    def _known(self):
        p = self.p
        return (
            list(CONTEXT_NAMES)
            + sorted(p.turn_families)
            + list(p.counters)
            + list(p.zones)
            + list(p.vars)
            + list(p.values)
            + list(p.table_columns)
            + list(p.constants)
            + list(p.set_members)
            + list(p.types)
            + list(p.sets)
            + list(BUILTINS)
            + list(getattr(p, "boards", ()))
            + list(p.automaton_ids)
        )

    def unknown(self, node, name, what="name"):
        """The error for an unknown name, with the nearest known one suggested."""
        return CompileError(f"unknown {what} '{name}'{did_you_mean(name, self._known())}", node)

    # ------------------------------------------------------------------ bare names
    def resolve_name(self, node: A.Name, scope, exprs):
        """The closure that reads a bare name (a variable, a value, a constant, a seat word) in ``scope``."""
        p, name = self.p, node.name
        if name in ("self", "owner", "me"):
            if name in scope.names:
                return lambda rt, env: env.get(name)
            if name == "me":
                return lambda rt, env: env.get("me")
            raise CompileError(
                f"'{name}' is only defined in a component's ability, trigger or modifier",
                node,
                "definition/unknown-name",
            )
        if name == "seat":
            return lambda rt, env: rt.turn_seat()
        if name in p.turn_families:
            return lambda rt, env: rt.turn_card()
        if name == "players":  # automated seats are seats, not players
            return lambda rt, env: rt.st["n"] - len(rt.st.get("automata") or ())
        if name == "round":
            return lambda rt, env: rt.st["round"]
        if name == "seats":
            return lambda rt, env: list(range(rt.st["n"]))
        if name == "others":

            def others(rt, env):
                me = env.get("me")
                return [s for s in range(rt.st["n"]) if s != me]

            return others
        if name in p.counters:
            c = p.counters[name]
            if c["scope"] == "game":
                return lambda rt, env: rt.counters[name]
            return lambda rt, env: rt.counters[name][_me(env)]
        if name in p.zones:
            z = p.zones[name]
            # zones read as lists are not copied: statements that keep or iterate a list copy it
            if z["scope"] == "game":
                return lambda rt, env: rt.zones[name]
            return lambda rt, env: rt.zones[rt.zk[name][_me(env)]]
        if name in p.vars:
            v = p.vars[name]
            if v["scope"] == "game":
                return lambda rt, env: rt.vars[name]
            return lambda rt, env: rt.vars[name][_me(env)]
        if name in p.values:
            vd = p.values[name]
            if vd.params:
                raise CompileError(
                    f"'{name}' needs {len(vd.params)} argument(s): {name}({', '.join(vd.params)})",
                    node,
                    "definition/arity",
                )
            return lambda rt, env: rt.value(name, (), env)
        if name in p.table_columns:
            return lambda rt, env: rt.table[name]
        if name in p.constants:
            v = p.constants[name]
            return lambda rt, env: rt.constants[name]
        if name in p.sets:
            values = list(p.sets[name])
            return lambda rt, env: list(values)
        if p.names_itself(name):
            return _itself(name)  # a board name stands for itself: open_slots(tiers)
        raise self.unknown(node, name)

    # ------------------------------------------------------------------ calls
    def resolve_call(self, node: A.Call, scope, exprs):
        """The closure of a call by name: a named value, a builtin or a primitive's query."""
        p, name = self.p, node.func
        args = [exprs.compile(a, scope) for a in node.args]
        if name in p.values:
            vd = p.values[name]
            if len(args) != len(vd.params):
                raise CompileError(
                    f"'{name}' takes {len(vd.params)} argument(s), got {len(args)}", node, "definition/arity"
                )
            if len(args) == 1:
                a0, p0 = args[0], vd.params[0]

                def value1(rt, env):
                    if vd.mods:
                        return rt.value(name, (a0(rt, env),), env)
                    return vd.fn(rt, {p0: a0(rt, env), "me": env.get("me")})

                return value1
            return lambda rt, env: rt.value(name, tuple(a(rt, env) for a in args), env)
        per_seat = None
        if name in p.counters and p.counters[name]["scope"] == "seat":
            per_seat = lambda rt, s: rt.counters[name][s]
        elif name in p.zones and p.zones[name]["scope"] == "seat":
            per_seat = lambda rt, s: rt.zones[rt.zk[name][s]]
        elif name in p.vars and p.vars[name]["scope"] == "seat":
            per_seat = lambda rt, s: rt.vars[name][s]
        if per_seat is not None:
            if len(args) != 1:
                raise CompileError(f"'{name}(seat)' takes one seat", node, "definition/arity")
            a0 = args[0]
            return lambda rt, env: per_seat(rt, _seat(a0(rt, env), name, rt))
        if name in BUILTINS:
            b = BUILTINS[name]
            if not b.min_args <= len(args) <= b.max_args:
                raise CompileError(
                    f"'{name}' takes {b.min_args}..{b.max_args} argument(s), got {len(args)}", node, "definition/arity"
                )
            impl = b.impl
            if len(args) == 1:
                a0 = args[0]
                return lambda rt, env: impl(rt, a0(rt, env))
            return lambda rt, env: impl(rt, *[a(rt, env) for a in args])
        raise self.unknown(node, name, "function")

    # ------------------------------------------------------------------ zones as places
    def zone_ref(self, e, scope, exprs):
        """A closure giving a zone key, for move/draw/shuffle/swap destinations and sources."""
        p = self.p
        if isinstance(e, A.Name) and e.name in p.zones:
            name = e.name
            if p.zones[name]["scope"] == "game":
                return _zone_fn(lambda rt, env: name, name, None)
            return _zone_fn(lambda rt, env: rt.zk[name][_me(env)], name, "me")
        if isinstance(e, A.Call) and e.func in p.zones and p.zones[e.func]["scope"] == "seat":
            if len(e.args) != 1:
                raise CompileError(f"'{e.func}(seat)' takes one seat", e, "definition/arity")
            name, a0 = e.func, exprs.compile(e.args[0], scope)
            return _zone_fn(lambda rt, env: rt.zk[name][_seat(a0(rt, env), name, rt)], name, a0)
        if isinstance(e, (A.Name, A.Call)):
            n = e.name if isinstance(e, A.Name) else e.func
            if n in scope.names:
                raise CompileError(f"'{n}' is a variable; a zone is needed here", e, "definition/type")
            raise CompileError(f"unknown zone '{n}'{did_you_mean(n, p.zones)}", e)
        raise CompileError("a zone is needed here, e.g. deck, hand, city(s)", e, "definition/type")

    # ------------------------------------------------------------------ checks
    def check_counter(self, node, name, seat=False):
        """Refuse an unknown counter (and, with ``seat``, one that is not per seat)."""
        c = self.p.counters.get(name)
        if c is None:
            raise CompileError(f"unknown counter '{name}'{did_you_mean(name, self.p.counters)}", node)
        if seat and c["scope"] != "seat":
            raise CompileError(
                f"'{name}' is a game counter; gain/pay/transfer move per-seat counters", node, "definition/type"
            )

    def check_card_attr(self, node, settable=False):
        """Refuse a card field the game does not declare (``settable``: one the rules may set)."""
        name = node.name
        p = self.p
        if name in p.card_state:
            return
        if settable:
            raise CompileError(
                f"'{name}' is not a card state; declare it under card_state{did_you_mean(name, p.card_state)}", node
            )
        if name in p.card_props:
            return
        raise CompileError(
            f"unknown card property '{name}'{did_you_mean(name, list(p.card_props) + list(p.card_state))}", node
        )

    def check_event(self, node, event, args=()):
        """Refuse an undeclared event, or arguments it does not declare."""
        p = self.p
        if event not in p.events:
            raise CompileError(f"unknown event '{event}'{did_you_mean(event, p.events)}; declare it under events", node)
        declared = p.events[event]
        given = [k for k, _ in args]
        if sorted(given) != sorted(declared):
            raise CompileError(
                f"event '{event}' takes ({', '.join(declared)}), got ({', '.join(given)})", node, "definition/arity"
            )
        p.events_emitted.add(event)

    def settable(self, node, name, seat=False):
        """What ``set NAME`` writes: ``var``, ``seatvar`` or a counter; refuses anything else."""
        p = self.p
        if name in p.vars:
            if seat and p.vars[name]["scope"] != "seat":
                raise CompileError(f"'{name}' is a game variable; write 'set {name} = ...'", node, "definition/type")
            return "seatvar" if p.vars[name]["scope"] == "seat" else "var"
        if name in p.counters and p.counters[name].get("supply") is None:
            if seat != (p.counters[name]["scope"] == "seat") and seat:
                raise CompileError(f"'{name}' is a game counter", node, "definition/type")
            return "counter"
        if name in p.counters:
            raise CompileError(
                f"'{name}' has a supply; use gain/pay/transfer so the supply stays exact", node, "definition/type"
            )
        raise CompileError(
            f"unknown variable '{name}'{did_you_mean(name, list(p.vars) + list(p.counters))}; declare it under vars",
            node,
        )


def _itself(name):
    """The closure of a name that stands for itself, marked for code made when the program is
    compiled (dsl/fastexpr.py, ``_Gen.literal``): ``mason_literal = name``."""

    def itself(rt, env):
        return name

    itself.__dict__["mason_literal"] = name  # a function's own attribute, read with getattr
    return itself


def _zone_fn(fn, name, seat):
    """A zone reference's closure, marked for code that writes it in place (runtime/direct.py):
    ``mason_zone = (zone, seat)``, seat None for a game zone, ``"me"``, or the seat's expression."""
    fn.mason_zone = (name, seat)
    return fn


def _me(env):
    try:
        me = env["me"]
    except KeyError:
        me = None
    if me is None:
        raise PlayError("no acting seat here: name the seat, e.g. hand(s)", code="play/no-seat")
    return me


def _seat(s, name, rt):
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < rt.st["n"]:
        raise PlayError(f"'{name}(...)' needs a seat, got {s!r}", code="play/type")
    return s
