"""Expressions compiled to Python source: one generated function per rule expression, for speed.

``ExprCompiler`` (expr.py) compiles every expression into a tree of closures, one per AST node: the
reference semantics, with every error message and place. This module turns the same expression
into the source of ONE Python function, in which the common nodes are written inline instead of
being called closure by closure: literals, local variables, card properties, comparisons and
arithmetic, and/or/not, conditional expressions, lists, indexing, comprehensions, builtin calls,
the game's counters, zones and variables (a seat's own by ``env['me']`` or by a checked seat), and
calls of named values (their body written in place when it has no modifier and reads nothing else
from ``env`` than ``me``). Each kind's code is written by its own definition's ``emit``, beside its
closure (``mason.dsl.expressions``); ``_Gen`` here is the generator they are given (``g.e`` a part,
``g.closure`` a node's closure, the shared analyses: static values and tables, sieves, named values
written in place). Any other node is called through its closure from the tree.

The generated function never decides an error itself: when anything in it raises (but a
RecursionError), it restores the item budget and evaluates the closure tree instead, which raises
the error with its message and place (or returns the value, if the fast form failed where the
reference does not). So the values are the closure tree's, and so are the errors. This relies on
expressions changing nothing but the item budget and a comprehension's own variable (builtins read
the state, procedures are statements): an error path runs the expression twice.

Nothing here holds game state: the functions read ``rt`` and ``env`` only, like the closures.
tests/engine/test_fast_expressions.py holds both forms to the same values and errors.
"""

from __future__ import annotations

import contextlib
import os
import re

from mason.dsl import ast as A
from mason.dsl.builtins import KNOWN_CARD, MAX_ITEMS, MAX_NUMBER, NOT_LITERAL
from mason.dsl.constructs import FORMS
from mason.dsl.kept import Kept

_ORDER = {"-", "//", "%", "<", "<=", ">", ">=", "==", "!=", "in", "not in"}
_SAFE_LITERALS = (bool, int, str, type(None))


class _Fallback(Exception):
    """Raised in generated code where the closure tree must decide (an item budget overrun)."""


class _Unsupported(Exception):
    """The expression has a shape the generator leaves to the closure tree."""


_UNSET = object()


def _plus(a, b):
    """``a + b`` as BinOpForm's closure ``plus``: a list or text past MAX_ITEMS is left to the closures' error."""
    r = a + b
    t = type(r)
    if (t is list or t is str) and len(r) > MAX_ITEMS:
        raise _Fallback
    return r


def _bound(r):
    """A chain ``a + b + ...`` joined at once (see ``BinOpForm.emit``): as ``_plus`` at every step, since a
    list or text only grows as it is joined, and a list or text past MAX_ITEMS is left to the closures."""
    t = type(r)
    if (t is list or t is str) and len(r) > MAX_ITEMS:
        raise _Fallback
    return r


def _again(rt, n: int) -> bool:
    """A comprehension's list used again (see ``ComprehensionForm.emit``): its ``n`` items counted in the
    item budget as the comprehension would count them; past it, the closure tree decides."""
    spent = rt.spent + n
    rt.spent = spent
    if spent > rt.item_cap:
        raise _Fallback
    return True


SIEVE_KEYS = 256  # a sieve keeps its lists for this many values of the outer names it reads, at most


def _sieve(rt, env, memo: dict, values: tuple, key: tuple, items: list, test, args: tuple):
    """The items of a comprehension over a list known when the code is made for which the leading
    conjuncts of its condition hold, made once per ``key`` (the values of the outer names those
    conjuncts read) and kept in ``memo`` (see ``_Gen.sieve``); None where they cannot be kept: a
    named value they call has a modifier (the program's modifiers are all known before any game
    runs), or they raise for some item (the full loop then meets the error where the closure tree
    would, or decides without it)."""
    try:
        kept = memo.get(key, _UNSET)
    except TypeError:  # an outer name holds a list: not kept, the full loop runs
        return None
    if kept is _UNSET:
        kept = None
        if not any(v.mods for v in values):
            try:
                kept = [x for x in items if test(rt, env, x, *args)]
            except RecursionError:
                raise
            except Exception:
                kept = None
        if len(memo) < SIEVE_KEYS:
            memo[key] = kept
    return kept


def _times(rt, a, b):
    """``a * b`` as BinOpForm's closure ``times``: numbers within MAX_NUMBER, repetitions counted in the item budget."""
    if type(a) is int and type(b) is int:
        r = a * b
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
        raise _Fallback
    if isinstance(a, (list, str)) or isinstance(b, (list, str)):
        seq, k = (a, b) if isinstance(a, (list, str)) else (b, a)
        if type(k) is int and len(seq) * k > MAX_ITEMS:
            raise _Fallback
        spent = rt.spent + (len(seq) * max(k, 0) if type(k) is int else 0)
        rt.spent = spent
        if spent > rt.item_cap:
            raise _Fallback
    return a * b


class _Switch:
    """Whether programs compiled now get generated fast forms (expressions here, blocks in
    runtime/direct.py, listeners in runtime/machine.py, action windows in runtime/turns.py).
    ``MASON_FAST=0`` in the environment turns them off for the process; ``fast_forms`` (which
    ``load_program``'s ``fast`` and ``Settings.fast`` use) for one compilation. Off, every construct
    runs on its reference path. ``made`` / ``declined``: expressions given a fast form / left to their
    closures by the generator (at compile time), counted for the process."""

    def __init__(self) -> None:
        self.on = os.environ.get("MASON_FAST", "").strip() != "0"
        self.made = 0
        self.declined = 0


FAST = _Switch()


@contextlib.contextmanager
def fast_forms(on):
    """Compile with fast forms on or off (``on`` None: as the switch stands)."""
    if on is None:
        yield
        return
    before, FAST.on = FAST.on, bool(on)
    try:
        yield
    finally:
        FAST.on = before


class FastFormError(Exception):
    """A generated fast form raised where its reference path gives a result: a bug in a generator."""


def _entry(table, e, key):
    """``table[e][key]`` of a builtin's static table (``_Gen.table_of``); an id that is not canonical or
    a key the entry lacks hands the value over to the builtin (``_Fallback``), which decides."""
    try:
        return table[e][key]
    except (KeyError, TypeError):
        raise _Fallback from None


def _bail():
    """What generated code and builtin ``code`` templates call to hand a value over to the reference
    path (a shape they do not handle): raises ``_Fallback``, their one declared hand-over."""
    raise _Fallback


def where(node) -> str:
    """How an internal error names an expression: its kind and its place in its rule text (the run
    loop adds the rule file's place of the block running it)."""
    return (
        f"expression {type(node).__name__} at {getattr(node, 'line', '?')}:{getattr(node, 'col', '?')} of its rule text"
    )


def _disagree(exc, slow, rt, env, place):
    """A fast form raised ``exc`` (not ``_Fallback``, its declared hand-over): the reference path
    ``slow(rt, env)`` runs; its rule error is the error (the same positioned error on both paths),
    but a result means the fast form is wrong, an internal error naming the construct's place."""
    slow(rt, env)
    raise FastFormError(
        f"{place}: the fast form raised {type(exc).__name__}: {exc} where the reference path gives a result"
    )


# what generated code may call besides its own constants
_HELPERS = dict(
    _UNSET=_UNSET,
    _Fallback=_Fallback,
    _bail=_bail,
    _entry=_entry,
    _disagree=_disagree,
    _plus=_plus,
    _bound=_bound,
    _times=_times,
    _again=_again,
    _sieve=_sieve,
)


class _Locals(dict):
    """A comprehension's local names as its generated code reads them (``_Gen.bound``): a Python name,
    or ``env[name]`` for one it reads from the environment (see ``_Gen.e``)."""

    def __missing__(self, name):
        return f"env[{name!r}]"


class _Gen:
    """Writes one expression's generated function (see the module's doc): what each kind's ``emit`` is given."""

    def __init__(self, rec, program):
        self.rec = rec  # id(node) -> closure; ("local", id) / ("builtin", id) -> marks
        self.p = program
        self.card_state = program.card_state
        self.consts: dict = {}
        self.helpers: list[str] = []
        self.tmp = 0
        self.bound: dict = {}  # local variable -> the Python name holding it in this helper
        self.early = False  # a named value was called before its own body was compiled (see regenerate)
        self.env_reads = 0  # closures called so far in the code written: they may read any local from env
        self.cards_in: set = set()  # Python names that hold a card for sure (an item of a zone): no id check
        self.seats_in: set = set()  # Python names that hold a seat for sure (an item of ``seats``): no check
        self.inlining: set = set()  # the named values whose bodies are being written in place
        self.zone_lists: set = set()  # code written that reads one zone's list: its items are cards
        self.reads: set = set()  # Python names the code written reads (locals held in Python names)
        self.hoist: list | None = None  # in a comprehension's item or condition: the lists it keeps
        self.card_lists: set = set()  # code written that gives a new list of cards (some of a zone's, say)
        # in a comprehension's item or condition: reads of the state no item changes, made once before
        # its loop, as (Python name, code); None elsewhere
        self.held_reads: list | None = None
        self.turn_cards: set = set()  # code written that reads the turn's card: a card, or none

    def const(self, value) -> str:
        name = f"_k{len(self.consts)}"
        self.consts[name] = value
        return name

    def closure(self, node) -> str:
        fn = self.rec.get(id(node))
        if fn is None:
            raise _Unsupported
        self.env_reads += 1
        return f"{self.const(fn)}(rt, env)"

    def zone(self, code: str) -> str:
        """``code``, which reads one zone's list (or fails): noted, for the comprehensions over it."""
        self.zone_lists.add(code)
        return code

    def new(self, prefix="_t") -> str:
        self.tmp += 1
        return f"{prefix}{self.tmp}"

    # ------------------------------------------------------------------ nodes
    def e(self, node) -> str:
        """The Python source of ``node``: its kind's fast form (``emit``, beside its closure in
        ``mason.dsl.expressions``), else a call of its closure."""
        form = FORMS.get(type(node))
        emit = getattr(form, "emit", None)
        if emit is None:
            return self.closure(node)
        return emit(self, node)

    def literal(self, node, rec=None):
        """An argument's value when the code is made: a literal's (of a plain type), or a name's that
        stands for itself (a board, a card type: its closure says so, model/names.py); else NOT_LITERAL."""
        t = type(node)
        if t is A.Literal:
            return node.value if type(node.value) in _SAFE_LITERALS else NOT_LITERAL
        rec = self.rec if rec is None else rec
        if t is A.Name and ("local", id(node)) not in rec:
            return getattr(rec.get(id(node)), "mason_literal", NOT_LITERAL)
        return NOT_LITERAL

    def static(self, call, impl, hook: str, rec=None):
        """What builtin ``impl``'s ``hook`` (dsl.builtins.builtin: ``static`` or ``table``) gives for
        ``call``'s arguments known when the code is made (``literal``; for ``table``, all but the
        last): a list of plain values, a text, a number, true/false or none (``static``), a dict of
        dicts (``table``); None when there is no such hook, an argument is not known, or the hook
        raises (the code then calls the builtin, which decides). ``rec``: the resolutions of the
        nodes (by default the expression's; a named value's own for its body)."""
        fn = getattr(impl, hook, None)
        if fn is None:
            return None
        values = [self.literal(a, rec) for a in (call.args[:-1] if hook == "table" else call.args)]
        if any(v is NOT_LITERAL for v in values):
            return None
        try:
            v = fn(self.p, *values)
        except Exception:
            return None
        if hook == "table":
            return v if type(v) is dict and all(type(e) is dict for e in v.values()) else None
        if type(v) is list:
            return v if all(type(x) in _SAFE_LITERALS for x in v) else None
        return v if type(v) in _SAFE_LITERALS and v is not None else None

    def table_of(self, node, rec=None):
        """For ``query(..., entry)["key"]`` whose query has a static table (``static``'s ``table``
        hook) for the arguments before the entry: that table, else None."""
        if type(node) is not A.Index or type(node.obj) is not A.Call:
            return None
        key = node.index
        if type(key) is not A.Literal or type(key.value) is not str:
            return None
        rec = self.rec if rec is None else rec
        impl = rec.get(("builtin", id(node.obj)))
        return None if impl is None else self.static(node.obj, impl, "table", rec)

    def sieve(self, source, conjuncts, texts):
        """For a comprehension over a list known when the code is made (a builtin's ``static`` hook),
        whose condition begins with conjuncts that read nothing but the item, the program's data and
        outer names held in Python (``pure``): ``(call, rest)``, the call of ``_sieve`` that gives the
        items those conjuncts keep (made once per value of the outer names they read) and the rest of
        the condition (None: nothing left to test); else None. The conjuncts hold or fail for an item
        whatever the state, so testing them first for every item, once, keeps the same items in the
        same order; the item budget still counts every item of the list, as the closure tree does."""
        impl = self.rec.get(("builtin", id(source))) if type(source) is A.Call else None
        if impl is None or type(self.static(source, impl, "static")) is not list:
            return None
        names = _Locals(self.bound)
        reads: set = set()
        values: list = []
        k = 0
        while k < len(conjuncts):
            r: set = set()
            v: list = []
            if not self.pure(conjuncts[k], names, self.rec, r, v, frozenset()):
                break
            reads |= r
            values += v
            k += 1
        if k == 0:
            return None
        held = sorted(reads - {"x"})  # Python names (passed to the test) and reads of env
        # and the reads held before the loop that the test's code names (a named value's modifiers:
        # none while the kept items are used, see _sieve), passed to it, not keys of what is kept
        shown = [py for py, _ in self.held_reads or () if any(re.search(rf"\b{py}\b", t) for t in texts[:k])]
        args = [h for h in held if h.isidentifier()] + shown
        test = self.new("_s")
        self.helpers.append(
            f"def {test}(rt, env, x{''.join(', ' + a for a in args)}):\n    return {' and '.join(texts[:k])}"
        )
        key = "(" + "".join(h + ", " for h in held) + ")"
        passed = "(" + "".join(a + ", " for a in args) + ")"
        call = f"_sieve(rt, env, {self.const({})}, {self.const(tuple(values))}, {key}, items, {test}, {passed})"
        rest = texts[k:]
        return call, (None if not rest else rest[0] if len(rest) == 1 else "(" + " and ".join(rest) + ")")

    def pure(self, node, names: dict, rec: dict, reads: set, values: list, calling: frozenset) -> bool:
        """Whether ``node``'s value depends on nothing but the local names in ``names`` (name -> the
        Python name holding it, noted in ``reads`` when read) and the program: literals, comparisons,
        ``+``, and/or/not, conditionals, lists and indexing of such, builtins known when the code is
        made (``static`` hooks, and ``table`` hooks indexed by a key), and named values whose bodies
        are such (noted in ``values``: their modifiers, if any, read the state). Such a value may
        still raise for some item; it changes nothing."""
        t = type(node)
        if t is A.Literal:
            return type(node.value) in _SAFE_LITERALS
        if t is A.Name:
            if ("local", id(node)) not in rec:
                return self.literal(node, rec) is not NOT_LITERAL  # a board's name, say
            held = names[node.name] if type(names) is _Locals else names.get(node.name)
            if held is not None:
                reads.add(held)
            return held is not None
        if t is A.BinOp:
            return (node.op in _ORDER or node.op == "+") and all(
                self.pure(n, names, rec, reads, values, calling) for n in (node.left, node.right)
            )
        if t is A.BoolOp or t is A.ListLit:
            return all(self.pure(n, names, rec, reads, values, calling) for n in node.items)
        if t is A.Not or t is A.Neg:
            return self.pure(node.operand, names, rec, reads, values, calling)
        if t is A.IfExpr:
            return all(self.pure(n, names, rec, reads, values, calling) for n in (node.cond, node.then, node.other))
        if t is A.Index:
            if self.table_of(node, rec) is not None:
                return self.pure(node.obj.args[-1], names, rec, reads, values, calling)
            return all(self.pure(n, names, rec, reads, values, calling) for n in (node.obj, node.index))
        if t is A.Call:
            impl = rec.get(("builtin", id(node)))
            if impl is not None:
                return self.static(node, impl, "static", rec) is not None
            vd = self.p.values.get(node.func)
            made = getattr(getattr(vd, "fn", None), "mason_ast", None)
            if made is None or rec.get(id(node)) is None or len(node.args) != len(vd.params) or vd.name in calling:
                return False
            if not all(self.pure(a, names, rec, reads, values, calling) for a in node.args):
                return False
            body, inner = made
            values.append(vd)
            return self.pure(body, {q: q for q in vd.params}, inner, set(), values, calling | {vd.name})
        return False

    def builtin_code(self, call, impl):
        """``call`` written as its builtin's ``code`` hook gives it, or None (see dsl.builtins.builtin)."""
        hook = getattr(impl, "code", None)
        if hook is None:
            return None
        try:  # as ``static``: a hook that raises (a declaration with errors, say) leaves the call to the builtin
            template = hook(self.p, *(KNOWN_CARD if self.known_card(a) else self.literal(a) for a in call.args))
        except Exception:
            return None
        if template is None:
            return None
        return "(" + template.format(*(self.e(a) for a in call.args)) + ")"

    def held(self, code: str) -> str:
        """``code``, a read of the state (a counter, a variable, the modifiers of a value) that no item
        of the comprehension being written changes, read once before its loop (``held_reads``) when
        in one: a read that fails there (read ahead of need) hands the whole expression over to the
        closure tree (``_Fallback``), which then fails only where the read is needed."""
        if self.held_reads is None:
            return code
        for py, read in self.held_reads:
            if read == code:
                return py
        py = self.new("_r")
        self.held_reads.append((py, code))
        return py

    def known_card(self, node) -> bool:
        """Whether ``node`` is a local name holding a card for sure (an item of a zone, see ``cards_in``)."""
        return type(node) is A.Name and ("local", id(node)) in self.rec and self.bound.get(node.name) in self.cards_in

    def inline_body(self, vd, args):
        """The body of a named value written in place of its call (its parameters held in temporaries,
        evaluated once, in order; an argument that is a Python local is read as it is), when every
        part of the body is written inline and reads ``env`` for nothing but ``me`` (the value's own
        ``me`` is the caller's): else None."""
        made = getattr(vd.fn, "mason_ast", None)
        if made is None:
            if vd.fn is None:  # declared after the value being compiled: not compiled yet
                self.early = True
            return None
        body, rec = made
        params = set(vd.params)
        if vd.name in self.inlining or not _inlinable(body, rec, params, self.p):
            return None  # (a value calling itself, under a condition, is called, not written in place again)
        temps, names = [], {}
        for q, a in zip(vd.params, args):
            if a.isidentifier():  # a Python local of the caller (an item, a temporary): read as it is
                names[q] = a
            else:
                names[q] = self.new("_a")
                temps.append((names[q], a))
        outer_rec, outer_bound, outer_cards, outer_seats = self.rec, self.bound, self.cards_in, self.seats_in
        self.rec = dict(outer_rec)
        self.rec.update(rec)
        self.bound = dict(names, me="env.get('me')")
        self.cards_in = {names[q] for q, a in zip(vd.params, args) if a in outer_cards}  # a card passed on is one
        self.seats_in = {names[q] for q, a in zip(vd.params, args) if a in outer_seats}  # and a seat
        self.inlining.add(vd.name)
        try:
            text = self.e(body)
        finally:
            self.rec, self.bound, self.cards_in, self.seats_in = outer_rec, outer_bound, outer_cards, outer_seats
            self.inlining.discard(vd.name)
        if not temps:
            return text
        held = ", ".join(f"({t} := {a})" for t, a in temps)
        return f"({held}, {text})[-1]"

    def never_joined(self, node) -> bool:
        """Whether ``node``'s value, whenever it has one, is neither a list nor a text, so that ``+`` with
        it makes a number or fails (a list or a text is made only of two lists or two texts), and has no
        length to bound: a number, true/false or none written as such; a comparison, ``not`` or a
        negation; a difference or ``//``; ``+`` with such a value; a counter; a card property that no
        card type holds as a list or a text; a key of a builtin's static table
        (``hex_info(board, c)["surcharge"]``) that no entry holds so."""
        t = type(node)
        if t is A.Literal:
            return type(node.value) in (int, float, bool, type(None))
        if t is A.BinOp:
            op = node.op
            if op in ("-", "//") or (op in _ORDER and op != "%"):
                return True
            if op == "%":
                return self.never_joined(node.left)
            return op == "+" and (self.never_joined(node.left) or self.never_joined(node.right))
        if t is A.Not or t is A.Neg:
            return True
        if t is A.Name:  # a counter (``gold``: the seat's own)
            return (
                ("local", id(node)) not in self.rec
                and node.name in self.p.counters
                and self.rec.get(id(node)) is not None
            )
        if t is A.Call:  # a seat's counter, ``gold(s)``, as calls._value_call reads it
            p = self.p
            return (
                node.func in p.counters
                and node.func not in p.values
                and len(node.args) == 1
                and ("builtin", id(node)) not in self.rec
                and self.rec.get(id(node)) is not None
            )
        if t is A.Attr:
            name = node.name
            if name in self.card_state or name in ("type", "up", "seen"):  # the card's own, not its type's
                return False
            return all(type(props.get(name)) not in (list, str) for props in self.p.types.values())
        table = self.table_of(node)
        if table is not None:
            key = node.index.value
            return all(type(row.get(key)) not in (list, str) for row in table.values())
        return False


_INLINE_NAMES = ("me", "round", "seat")  # game names written without reading env (but me); and turn families


def _inlinable(node, rec, params, p) -> bool:
    """Whether a named value's body may be written into its caller (see ``_Gen.inline_body``)."""
    t = type(node)
    if t is A.Literal:
        return True
    if t is A.Name:
        if ("local", id(node)) in rec:
            return node.name in params or node.name == "me"
        n = node.name
        if id(node) not in rec:
            return False
        if n in _INLINE_NAMES or n in p.turn_families or n in p.counters or n in p.zones or n in p.vars:
            return True
        if n in p.values:
            return not p.values[n].params  # as game_name writes it: reads env for me only
        # read in place without env (game_name): a table column, a constant, a set, a name standing for itself
        return n in p.table_columns or n in p.constants or n in p.sets or p.names_itself(n)
    if t is A.Attr:
        return _inlinable(node.obj, rec, params, p)
    if t is A.BinOp:
        return _inlinable(node.left, rec, params, p) and _inlinable(node.right, rec, params, p)
    if t is A.BoolOp or t is A.ListLit:
        return all(_inlinable(i, rec, params, p) for i in node.items)
    if t is A.Not or t is A.Neg:
        return _inlinable(node.operand, rec, params, p)
    if t is A.IfExpr:
        return all(_inlinable(i, rec, params, p) for i in (node.cond, node.then, node.other))
    if (
        t is A.Call
    ):  # a builtin; a named value; a seat's own counter, zone or variable (as calls._value_call writes them)
        if ("builtin", id(node)) not in rec:
            if id(node) not in rec:
                return False
            vd = p.values.get(node.func)
            if vd is not None:
                if len(node.args) != len(vd.params):
                    return False
            elif len(node.args) != 1 or not any(
                node.func in kind and kind[node.func]["scope"] == "seat" for kind in (p.counters, p.zones, p.vars)
            ):
                return False
        return all(_inlinable(a, rec, params, p) for a in node.args)
    if t is A.Comprehension:  # as ComprehensionForm.emit writes it: the parameters are passed to its helper
        if node.func not in (None, "any", "all") and not (node.func == "count" and node.cond is not None):
            if ("builtin", id(node)) not in rec:
                return False
        inner = params | {node.var}
        return _inlinable(node.source, rec, params, p) and all(
            _inlinable(x, rec, inner, p) for x in (node.item, node.cond) if x is not None
        )
    if t is A.Index:  # as _Gen.e writes it, but a literal number's index (that one is left to its closure)
        if type(node.obj) is A.Literal and type(node.obj.value) is not str:
            return False
        return _inlinable(node.obj, rec, params, p) and _inlinable(node.index, rec, params, p)
    return False


def generate(node, slow, rec, program):
    """The fast function for expression ``node`` whose closure tree is ``slow``; ``slow`` itself when the
    expression is a leaf (nothing to gain) or has a shape left to the closures."""
    try:
        slow.mason_ast = (node, rec)  # for the callers of a named value, which may write its body in place
    except AttributeError:  # not a plain function: nothing to write in place
        pass
    if not getattr(program, "fast", FAST.on):  # the reference path only (MASON_FAST=0, ``fast_forms(False)``)
        return slow
    if type(node) is A.Literal:
        return slow
    if type(node) is A.Name:  # a leaf: its closure is as fast, but for a named value (its body, in place)
        vd = None if ("local", id(node)) in rec else program.values.get(node.name)
        if vd is None or vd.params:
            return slow
    gen = _Gen(rec, program)
    try:
        body = gen.e(node)
    except _Unsupported:  # declined at compile time: the closures run it
        FAST.declined += 1
        return slow
    if body.endswith("(rt, env)") and body.startswith("_k") and body.count("(") == 1:
        return slow  # the whole expression is one closure call: the closure itself is as fast
    helpers, inner = gen.helpers, f"        return {body}\n"
    if helpers and helpers[-1].startswith(f"def {body}:"):  # the whole expression is one comprehension:
        inner = "\n".join("    " + line for line in helpers[-1].splitlines()[1:]) + "\n"  # its helper's body
        helpers = helpers[:-1]
    src = "\n\n".join(
        helpers
        + [
            "def fast(rt, env):\n"
            "    spent = rt.spent\n"
            "    try:\n"
            f"{inner}"
            "    except RecursionError:\n"
            "        raise\n"
            "    except _Fallback:\n"
            "        rt.spent = spent\n"
            "        return _slow(rt, env)\n"
            "    except Exception as exc:\n"
            "        rt.spent = spent\n"
            "        return _disagree(exc, _slow, rt, env, _where)\n"
        ]
    )
    FAST.made += 1
    ns = dict(gen.consts, _slow=slow, _where=where(node), **_HELPERS)
    exec(_code(src), ns)
    fast = ns["fast"]
    fast.slow = slow
    fast.mason_ast = (node, rec)
    fast.early = gen.early
    return fast


SEATS = "list(range(rt.n))"  # the code of ``seats``: its items are seats for sure


def regenerate(fn, program):
    """A named value's function generated again once every named value is compiled, when its first
    generation called a value declared after it (whose body could not be written in place then);
    else ``fn`` itself."""
    if not getattr(fn, "early", False):
        return fn
    node, rec = fn.mason_ast
    return generate(node, fn.slow, rec, program)


# source -> code object: compiled this run, or given by the compile cache (mason.model.cache), which
# keeps the code of a game's generated functions between runs as it keeps its syntax trees
CODE = Kept(limit=20_000)


def _code(src: str):
    """The compiled code of a generated function's source, compiled once per source: a game's variants
    and expansions compile mostly the same expressions again (`mason validate` builds a program for
    each variant), and a game compiled before gets its code from the compile cache. Each program still
    runs the code in its own namespace."""
    code = CODE.known.get(src)
    if code is None:
        code = compile(src, "<mason expression>", "exec")
        CODE.keep(src, code)
    CODE.used(src, code)
    return code


def self_is(when, program=None):
    """What a condition requires to equal ``self`` (``card == self``, alone or as one of its ``and``
    conditions): ``("local", name)`` for a local name other than ``self``, ``owner``, ``me`` and
    ``base``, ``("turn", family)`` for the turn's card (a turn family's name, with ``program``), or
    None. A trigger's ``when`` naming an event's argument so cannot hold for a card other than the
    one the event names, a modifier's for a card other than the value's argument or the turn's card."""
    made = getattr(when, "mason_ast", None)
    if made is None:
        return None
    node, rec = made
    conds = node.items if type(node) is A.BoolOp and node.op == "and" else (node,)
    for c in conds:
        if type(c) is not A.BinOp or c.op != "==" or type(c.left) is not A.Name or type(c.right) is not A.Name:
            continue
        ends = [(n.name, ("local", id(n)) in rec) for n in (c.left, c.right)]
        if ("self", True) not in ends:
            continue
        name, local = ends[1] if ends[0] == ("self", True) else ends[0]
        if local and name not in ("self", "owner", "me", "base"):
            return ("local", name)
        if not local and program is not None and name in program.turn_families:
            return ("turn", name)
    return None


def value_evaluator(vd, held, program):
    """One generated function for a named value with modifiers, as ``Runtime.value`` evaluates it:
    ``ev(rt, env)`` (``env`` the value's parameters and ``me``) gives the value's body, then applies
    every modifier of ``held`` (``(modifier, holding card or None)``, in declaration order) whose
    card lies in an active zone and whose ``when`` holds: ``set``, or ``add`` / ``max`` / ``min`` of
    two whole numbers. A modifier's ``when`` and amount are written in place when every part of them
    can be (they read the value's parameters, ``me``, ``self``, ``owner`` and ``base``), else called
    with their environment; each one that applies is counted in ``rt.stats`` (rule coverage) as
    the generic way counts it, once the value is given (a value left half-way to the generic way is
    counted by it alone). Anything else (another kind of value to combine, an error) raises,
    and the value is evaluated again the generic way (``Runtime._modified``), which decides. Returns
    ``(ev, evp)``: ``evp(rt, *arguments, me)`` is the same function given the value's arguments and
    ``me`` as Python arguments (generated expressions call it: no dict to make); None when there are
    no modifiers, or no fast forms are made (``FAST``)."""
    if not vd.mods or not getattr(program, "fast", FAST.on):
        return None
    gen = _Gen({}, program)
    params = [f"_p{i}" for i in range(len(vd.params))]
    body = dict(zip(vd.params, params))  # the body's locals, then a modifier's
    body["me"] = "_me"
    names = dict(body, self="_self", owner="_owner", base="v")

    def part(fn, local: dict, call: str) -> str:
        """``fn``'s code written in place when it can be (reading ``local``), else ``call`` of it."""
        if type(getattr(fn, "constant", None)) in (int, bool):  # a number or true/false written in YAML
            return repr(fn.constant)
        made = getattr(fn, "mason_ast", None)
        if made is not None and _inlinable(made[0], made[1], set(local), program):
            gen.rec, gen.bound = made[1], dict(local)
            try:
                return gen.e(made[0])
            except _Unsupported:
                pass
        return call.format(gen.const(fn))

    modified = "{}(rt, {{**env, 'self': _self, 'owner': _owner, 'base': v}})"  # as Runtime.value builds it
    # the modifiers that applied, counted in rt.stats (rule coverage) only once the value is given: when
    # this function gives up half-way, Runtime._modified runs them all again and counts them itself
    lines = ["    _hit = ()", f"    v = {part(vd.fn, body, '{}(rt, env)')}"]
    lines += ["    cards = rt.cards", "    active = rt.prog.active_zones"]
    for mod, c in held:
        pad = "    "
        if c is None:
            lines += [f"{pad}_self = _owner = None"]
        else:
            must = self_is(mod.when, program)  # ``when: card == self``: no other card applies it (no zone read)
            if must is not None and (must[0] == "turn" or must[1] in body):
                lines += [f"{pad}if {'rt.turn_card_now' if must[0] == 'turn' else body[must[1]]} == {c}:"]
                pad += "    "
            lines += [f"{pad}_card = cards[{c}]", f"{pad}if _card['z'] in active:"]
            pad += "    "
            lines += [f"{pad}_self, _owner = {c}, _card['o']"]
        if mod.when is not None:
            lines += [f"{pad}if {part(mod.when, names, modified)}:"]
            pad += "    "
        lines += [f"{pad}_x = {part(mod.fn, names, modified)}"]
        if mod.op == "set":
            lines += [f"{pad}v = _x"]
        else:
            lines += [f"{pad}if type(v) is not int or type(_x) is not int:", f"{pad}    raise _Fallback"]
            lines += [f"{pad}v = {'v + _x' if mod.op == 'add' else f'{mod.op}(v, _x)'}"]
        lines += [f"{pad}if rt.stats is not None:  # rule coverage, as Runtime._modified counts it"]
        lines += [f"{pad}    _hit += ({mod.key!r},)"]
    lines += [
        "    if _hit:",
        "        stats = rt.stats",
        "        for k in _hit:",
        "            stats[k] = stats.get(k, 0) + 1",
    ]
    lines += ["    return v"]
    # ``evp(rt, *arguments, me)``, for generated code: the value's environment as Python arguments, made
    # into a dict only where the code reads one (a part called with it, a seat's own zone, a helper);
    # ``ev(rt, env)`` as Runtime.value calls it
    env = "{" + "".join(f"{q!r}: {a}, " for q, a in zip(vd.params, params)) + "'me': _me}"
    uses_env = re.search(r"\benv\b", "\n".join(gen.helpers + lines)) is not None
    head = [f"def evp(rt, {''.join(a + ', ' for a in params)}_me):"] + ([f"    env = {env}"] if uses_env else [])
    ev = ["def ev(rt, env):", f"    return evp(rt, {''.join(f'env[{q!r}], ' for q in vd.params)}env['me'])"]
    src = "\n\n".join(gen.helpers + ["\n".join(head + lines), "\n".join(ev)])
    ns = dict(gen.consts, **_HELPERS)
    exec(_code(src), ns)
    return ns["ev"], ns["evp"]
