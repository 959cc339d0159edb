"""The leaves of expressions: literals, names, a card's property (``x.name``), indexing, list literals."""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl.builtins import short as _short
from mason.dsl.constructs import expression, text_of
from mason.dsl.fastexpr import _SAFE_LITERALS, SEATS, _Unsupported
from mason.errors import PlayError


def _card(c, node, at):
    """Raise why ``c`` is no card for ``node``'s ``.name`` (none, not a number, out of range)."""
    if c is None or c is True or c is False or not isinstance(c, int) or c < 0:
        raise PlayError(f"'.{node.name}' needs a card, got {_short(c)}", at(), "play/type")
    raise PlayError(f"'.{node.name}': {c!r} is not a card of this game", at(), "play/type")


@expression
class LiteralForm:
    """A number, a text, true, false or none."""

    node = A.Literal
    rules = ("number", "string", "true", "false", "none")

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        if rule == "number":
            return A.Literal(int(c[0]), **place)
        if rule == "string":
            return A.Literal(text_of(c[0]), **place)
        return A.Literal({"true": True, "false": False, "none": None}[rule], **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        v = node.value
        return lambda rt, env: v

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        v = node.value
        if type(v) in _SAFE_LITERALS:
            return repr(v)
        return g.const(v)


@expression
class NameForm:
    """A name: a local variable, or a game's (counter, zone, variable, named value, constant, ...)."""

    node = A.Name
    rules = ("name",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.Name(str(c[0]), **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        name = node.name
        if name in scope.names:
            at = x.at(node)

            def local(rt, env):
                try:
                    return env[name]
                except KeyError:
                    raise PlayError(f"'{name}' has no value here", at(), "play/unbound") from None

            return local
        x.note(node, scope)
        return x.names.resolve_name(node, scope, x)

    @staticmethod
    def emit(g, node) -> str:
        """A local variable, else a name of the game read in place, as model/names.py resolves it (the same order of kinds);
        a seat's own counter, zone or variable indexed by ``env['me']`` (no seat: the fallback decides)."""
        if ("local", id(node)) in g.rec:  # a local variable: a Python name holding it, else env
            held = g.bound.get(node.name)
            if held is None:
                return f"env[{node.name!r}]"
            g.reads.add(held)
            return held
        p, name = g.p, node.name
        if g.rec.get(id(node)) is None:
            raise _Unsupported
        if name == "me":
            return "env.get('me')"
        if name in ("g", "owner", "seat", "players", "round", "seats", "others") or name in p.turn_families:
            if name in p.turn_families:  # the turn's card, as Runtime.turn_card gives it
                code = "rt.turn_card_now"
                g.turn_cards.add(code)
                return code
            if name == "seat":
                return "rt.turn_seat_now"
            if name == "round":
                return "rt.st['round']"
            if name == "seats":
                return SEATS
            if name == "players":  # automated seats are seats, not players
                return "(rt.n - len(rt.st.get('automata') or ()))"
            return g.closure(node)
        if name in p.counters:
            if p.counters[name]["scope"] == "game":
                return g.held(f"rt.counters[{name!r}]")
            return g.held(f"rt.counters[{name!r}][env['me']]")
        if name in p.zones:
            if p.zones[name]["scope"] == "game":
                return g.zone(f"rt.zones[{name!r}]")
            return g.zone(f"rt.zones[rt.zk[{name!r}][env['me']]]")
        if name in p.vars:
            if p.vars[name]["scope"] == "game":
                return g.held(f"rt.vars[{name!r}]")
            return g.held(f"rt.vars[{name!r}][env['me']]")
        if name in p.values and not p.values[name].params:
            vdc = g.const(p.values[name])  # as rt.value: its body direct while it has no modifier
            return (
                f"({vdc}.evp(rt, env.get('me')) if {g.held(vdc + '.mods')} else {vdc}.fn(rt, {{'me': env.get('me')}}))"
            )
        if name in p.values:
            return g.closure(node)
        if name in p.table_columns:
            return f"rt.table[{name!r}]"
        if name in p.constants:
            return f"rt.constants[{name!r}]"
        if name in p.sets:  # a new list of the set's members, as names.py gives it
            return f"list({g.const(list(p.sets[name]))})"
        if p.names_itself(name):
            return repr(name)  # a name standing for itself
        return g.closure(node)


@expression
class AttrForm:
    """``x.name``: a card's property (its type's) or state (its own), or ``.type``."""

    node = A.Attr
    rules = ("attr",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.Attr(c[0], str(c[1]), **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        obj = x.compile(node.obj, scope)
        name = node.name
        x.names.check_card_attr(node)
        at = x.at(node)
        if name == "type":
            key = "t"
        elif name in x.names.p.card_state or name in ("up", "seen"):
            key = name
        else:
            # a printed property: it lives on the component type (card state cannot shadow it)
            local = x._local(node.obj, scope)
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

        local = x._local(node.obj, scope)
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

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        obj = g.e(node.obj)
        t = g.new()
        # the card's number: an item of a zone as it is, and the turn's card (none fails as the check
        # would: a TypeError, and the closure tree says why), anything else checked (a negative number
        # is no card)
        if obj in g.cards_in or obj in g.turn_cards:
            number = obj
        else:
            number = f"({t} if ({t} := {obj}) >= 0 else None)"
        name = node.name
        if name == "type":
            return f"rt.cards[{number}]['t']"
        if name in g.card_state or name in ("up", "seen"):
            return f"rt.cards[{number}][{name!r}]"
        return f"rt.card_types[{number}][{name!r}]"  # a property of the card's type (Runtime.card_types)


@expression
class IndexForm:
    """``x[i]``: an item of a list, a key of a table."""

    node = A.Index
    rules = ("index",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.Index(c[0], c[1], **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        obj, idx = x.compile(node.obj, scope), x.compile(node.index, scope)
        at = x.at(node)

        def index(rt, env):
            seq = obj(rt, env)
            i = idx(rt, env)
            try:
                return seq[i]
            except (IndexError, KeyError, TypeError):
                raise PlayError(f"index {_short(i)} out of range", at(), "play/index") from None

        return index

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        if isinstance(node.obj, A.Literal) and type(node.obj.value) is not str:
            return g.closure(node)  # no subscript of a literal number: Python warns at compile
        key = node.index
        table = g.table_of(node)
        if table is not None:  # query(..., entry)["key"] read from the query's static table
            return f"_entry({g.const(table)}, {g.e(node.obj.args[-1])}, {key.value!r})"
        if type(node.obj) is A.Call and type(key) is A.Literal and type(key.value) is str:
            item = getattr(g.rec.get(("builtin", id(node.obj))), "item", None)
            if item is not None:  # query(...)["key"] without the query's copy (dsl.builtins.builtin)
                args = "".join(g.e(a) + ", " for a in node.obj.args)
                return f"{g.const(item)}(rt, {args}{key.value!r})"
        return f"({g.e(node.obj)})[{g.e(node.index)}]"


@expression
class ListLitForm:
    """``[a, b, ...]``: a list of values."""

    node = A.ListLit
    rules = ("list_lit",)

    @staticmethod
    def from_tree(rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return A.ListLit(tuple(x for x in c if x is not None), **place)

    @staticmethod
    def compile(x, node, scope):
        """Check it and give its closure (the reference semantics)."""
        items = [x.compile(i, scope) for i in node.items]
        return lambda rt, env: [f(rt, env) for f in items]

    @staticmethod
    def emit(g, node) -> str:
        """The Python source of its fast form, inside an expression's generated function."""
        return "[" + ", ".join(g.e(i) for i in node.items) + "]"
