"""Which names must hold numbers, found from their uses when a game compiles (docs/rule-files.md, constants).

A constant, a card property or a card state written as text where its uses need a number
(``start_gold: seventeen`` read by ``gain start_gold + 1 gold``) would pass validation and stop every
game at run time. The compiler asks two questions of each expression's tree:

- ``gives_number``: does it surely give a number (a number literal, a counter, a constant holding a
  number, ``count(...)``, an arithmetic result, a named value whose result is such)?
- ``demand``: it must give a number (an amount, a count, an operand of arithmetic, the other side of
  ``+`` or of a comparison whose one side gives a number, a branch of a conditional whose other branch
  gives one, a builtin's number argument): which names does it read that must then hold numbers?

A demanded name is recorded where it is read (``ExprCompiler.uses``, ``fields``, ``value_params``); the
program checks each declaration against what its uses demand, and follows named values into their
bodies and their parameters to the arguments of their calls (model/program.py, ``_check_uses``).
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl.builtins import BUILTINS

_ARITHMETIC = ("-", "//", "%")
_NUMBER_TYPES = ("int", "number")


def is_number(v) -> bool:
    """Whether ``v`` is a number of the rules (an int or float, not true/false)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def gives_number(exprs, node, scope, _seen=None) -> bool:
    """Whether ``node`` surely gives a number (when it gives anything): see the module's header."""
    p = exprs.names.p
    if isinstance(node, A.Literal):
        return is_number(node.value)
    if isinstance(node, A.Neg):
        return True
    if isinstance(node, A.BinOp):
        if node.op in _ARITHMETIC:
            return True
        if node.op == "+":
            return gives_number(exprs, node.left, scope, _seen) or gives_number(exprs, node.right, scope, _seen)
        if node.op == "*":
            return gives_number(exprs, node.left, scope, _seen) and gives_number(exprs, node.right, scope, _seen)
        return False
    if isinstance(node, A.IfExpr):
        return gives_number(exprs, node.then, scope, _seen) and gives_number(exprs, node.other, scope, _seen)
    if isinstance(node, A.Comprehension):
        return node.func in ("count", "sum", "len")
    if isinstance(node, A.Name):
        name = node.name
        if name in scope.names:
            return False
        if name in ("players", "round") or name in p.counters:
            return True
        if name in p.constants:
            return p.constant_types[name].type in _NUMBER_TYPES
        if name in p.vars:
            return is_number(p.vars[name]["start"])
        if name in p.table_columns:
            return all(is_number(row.get(name)) for row in p.table_rows.values())
        if name in p.values:
            return _value_gives_number(exprs, name, _seen)
        return False
    if isinstance(node, A.Call):
        name = node.func
        if name in p.values:
            return _value_gives_number(exprs, name, _seen)
        if name in p.counters:
            return True
        if name in p.vars:
            return is_number(p.vars[name]["start"])
        if name in ("min", "max") and len(node.args) > 1:
            return any(gives_number(exprs, a, scope, _seen) for a in node.args)
        b = BUILTINS.get(name)
        return b is not None and b.gives_number
    if isinstance(node, A.Attr):
        return field_is_number(p, node.name)
    return False


def _value_gives_number(exprs, name, seen) -> bool:
    """Whether named value ``name`` surely gives a number; known once per value (values call each
    other at most 32 deep, but a value read twice in each of its callers must not be walked 2**32 times)."""
    trees = exprs.value_trees.get(name)
    if not trees:  # not compiled yet: unknown, and not remembered
        return False
    known = exprs.value_numbers.get(name)
    if known is not None:
        return known
    seen = set() if seen is None else seen
    if name in seen:  # a value that calls itself: its other branch decides
        return False
    seen.add(name)
    body, scope, _ = trees[0]
    exprs.value_numbers[name] = result = gives_number(exprs, body, scope, seen)
    return result


def follow(exprs) -> None:
    """After every string compiled: demand the bodies of the named values whose results must be numbers
    (and what their modifiers set), and the arguments given to parameters that must be numbers, until
    nothing more is found."""
    p = exprs.names.p
    values_done: set = set()
    calls_done: set = set()
    changed = True
    while changed:
        changed = False
        for name, _place, _caller in list(exprs.demanded):
            if name in p.values and name not in values_done:
                values_done.add(name)
                changed = True
                for tree, scope, context in exprs.value_trees.get(name, ()):
                    exprs.within(context, lambda t=tree, sc=scope: demand(exprs, t, sc))
        for k, (name, i, arg, scope, context) in enumerate(exprs.value_calls):
            if k not in calls_done and (name, i) in exprs.value_params:
                calls_done.add(k)
                changed = True
                exprs.within(context, lambda a=arg, sc=scope: demand(exprs, a, sc))


def field_is_number(p, name) -> bool:
    """A card state that starts as a number, or a property that every family declaring it types int."""
    if name in p.card_state:
        return is_number(p.card_state[name])
    types = [
        (fdef.get("properties") or {})[name].get("type")
        for fdef in p.families.values()
        if isinstance(fdef, dict) and isinstance((fdef.get("properties") or {}).get(name), dict)
    ]
    return bool(types) and all(t == "int" for t in types)


def demand(exprs, node, scope) -> None:
    """``node`` must give a number: record the names it reads that must then hold numbers."""
    if node is None:
        return
    p = exprs.names.p
    if isinstance(node, A.Name):
        if node.name in scope.names:
            if node.name in exprs.params:
                exprs.value_params.add((exprs.in_value, exprs.params.index(node.name)))
            return
        _record(exprs, node, node.name)
    elif isinstance(node, A.Call):
        name = node.func
        if name in p.values:
            _record(exprs, node, name)
        elif name in ("min", "max") and len(node.args) > 1:
            for a in node.args:
                demand(exprs, a, scope)
        elif name in ("abs",):
            for a in node.args:
                demand(exprs, a, scope)
    elif isinstance(node, A.Attr):
        if node.name not in exprs.fields:
            exprs.fields[node.name] = _place(exprs, node)
    elif isinstance(node, A.BinOp):
        if node.op in ("+", "*") or node.op in _ARITHMETIC:
            demand(exprs, node.left, scope)
            demand(exprs, node.right, scope)
    elif isinstance(node, A.IfExpr):
        demand(exprs, node.then, scope)
        demand(exprs, node.other, scope)
    elif isinstance(node, A.Neg):
        demand(exprs, node.operand, scope)


def _record(exprs, node, name) -> None:
    exprs.demanded.append((name, _place(exprs, node), exprs.in_value))


def _place(exprs, node):
    return exprs.place_of(getattr(node, "line", 0) or 1, getattr(node, "col", 0) or 1)


def meet(exprs, left, right, scope) -> None:
    """Two sides that must be of one kind (``a + b``, ``a < b``, the branches of ``x if c else y``):
    when one surely gives a number, the other must too."""
    if gives_number(exprs, left, scope):
        demand(exprs, right, scope)
    if gives_number(exprs, right, scope):
        demand(exprs, left, scope)
