"""Compile expression AST nodes into Python closures ``f(rt, env) -> value``.

Each expression kind compiles itself (its ``compile``, beside its tree mapping and its fast form:
``mason.dsl.expressions``, registered in ``mason.dsl.constructs.FORMS``); ``ExprCompiler`` is what
they are given: the game's names, where the text sits, and the records the program's checks read.
Names are resolved once, at load time: a local variable, a game name (counter, zone, variable,
named value, table column, constant, set member, component id) or a builtin function. An unknown
name is a definition error with a did-you-mean suggestion.
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl import (
    expressions,  # noqa: F401  (every expression kind registers its form)
    numbers,
)
from mason.dsl.compiling import HOST_ERRORS, CompileError, Scope  # noqa: F401  (re-exported)
from mason.dsl.constructs import FORMS
from mason.dsl.fastexpr import generate
from mason.errors import PlayError


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
        """Compile with ``fn()`` inside another context (places, parameters, value), restored after."""
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
        form = FORMS.get(type(node))
        if form is None:
            raise CompileError(f"unsupported expression {type(node).__name__}", node, "definition/dsl")
        rec = self._rec
        if rec is not None:  # a part: recorded for the generator
            fn = form.compile(self, node, scope)
            rec[id(node)] = fn
            if isinstance(node, A.Name) and node.name in scope.names:
                rec[("local", id(node))] = True
            return fn
        self._rec = rec = {}
        try:
            fn = form.compile(self, node, scope)
        finally:
            self._rec = None
        rec[id(node)] = fn  # the whole expression too: code that writes it in place reads it as a part
        if isinstance(node, A.Name) and node.name in scope.names:
            rec[("local", id(node))] = True
        return generate(node, fn, rec, self.names.p)

    def _local(self, node, scope):
        """(name, place function) when ``node`` reads a local variable, else None: a parent closure reads
        ``env`` itself instead of calling the variable's closure (same value, same error when unbound)."""
        if isinstance(node, A.Name) and node.name in scope.names:
            return node.name, self.at(node)
        return None

    # ------------------------------------------------------------------ operators

    # ------------------------------------------------------------------ calls
