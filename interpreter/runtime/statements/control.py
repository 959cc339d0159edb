"""The control statements: ``if``/``elif``/``else``, ``for``, ``repeat``, ``while`` (their frames' runners: machine)."""

from __future__ import annotations

from typing import Optional

from mason.dsl.ast import Block, Expr, Stmt, node
from mason.dsl.builtins import charge
from mason.dsl.constructs import statement
from mason.dsl.describe import spaced
from mason.dsl.fastexpr import SEATS
from mason.dsl.stmt import Node
from mason.errors import PlayError
from mason.runtime.machine import (
    DIRECT_DEPTH,
    STEP_CAP,
    _afresh,
    _cards_of,
    bound,
    push_or_run,
    run_inline,
    run_now,
)
from mason.runtime.values import _amount_of


def _elif(meta, c):
    return ("elif", c[0], c[1])


def _else(meta, c):
    return c[0]


@statement
@node
class If(Stmt):
    """``if COND: ... elif COND: ... else: ...``: the block of the first condition that holds."""

    branches: tuple  # ((cond, Block), ...)
    other: Optional[Block]

    rules = {"if_stmt": "compound"}
    grammar = 'if_stmt: "if" expr ":" suite elif_clause* [else_clause]\nelif_clause: "elif" expr ":" suite\nelse_clause: "else" ":" suite'
    parts = {"elif_clause": _elif, "else_clause": _else}
    kinds = ("if",)

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        branches = [(c[0], c[1])]
        other = None
        for item in c[2:]:
            if isinstance(item, tuple) and item and item[0] == "elif":
                branches.append((item[1], item[2]))
            elif isinstance(item, Block):
                other = item
        return cls(tuple(branches), other, **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        out = []
        for i, (cond, body) in enumerate(self.branches):
            out += w._governed(("if " if i == 0 else "otherwise, if ") + w.expr(cond), body, d)
        if self.other is not None:
            out += w._governed("otherwise", self.other, d)
        return out

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        branches = [(c.x(cond, scope), c.block(b, scope)) for cond, b in self.branches]
        other = c.block(self.other, scope) if self.other is not None else None
        return Node("if", c.place(self), branches=branches, other=other)

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        for cond, block in node.branches:
            if cond(rt, env):
                break
        else:
            block = node.other
            if block is None:
                return
        if not block.inline:
            push_or_run(rt, env, block, fr)
            return
        for handler, stmt in block.bound or bound(block):  # inline
            try:
                handler(rt, env, stmt, fr)
            except PlayError as exc:
                if exc.place is None:
                    exc.place = stmt.place
                raise

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """As ``run`` runs direct: the conditions in turn (each under the ``else`` of the one before),
        the body of the first that holds written in place."""
        for k, (cond, body) in enumerate(node.branches):
            code, spends = w.operand(cond)
            b = w.new("_b")
            w.value(d + k, b, code, spends, cond)
            w.w(d + k, f"if {b}:")
            w.block(body, d + k + 1, i, body.inline)
            w.w(d + k, "else:")
        last = d + len(node.branches)
        if node.other is not None:
            w.block(node.other, last, i, node.other.inline)
        else:
            w.w(last, "pass")
        return True


@statement
@node
class For(Stmt):
    """``for NAME in ITEMS: ...``: the block once per item (a list, one value, or none for no round)."""

    var: str
    source: Expr
    body: Block

    rules = {"for_stmt": "compound"}
    grammar = 'for_stmt: "for" NAME "in" expr ":" suite'
    kinds = ("for",)

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(str(c[0]), c[1], c[2], **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        var = w.lex.renames.get(self.var, spaced(self.var))
        return w._governed(f"for each {var} in {w.expr(self.source)}", self.body, d)

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        source = c.x(self.source, scope)
        scope.add(self.var)
        return c.program.register(
            Node("for", c.place(self), var=self.var, source=source, body=c.block(self.body, scope))
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        items = node.source(rt, env)
        if not isinstance(items, list):
            items = _cards_of(items, node)
        if not items:
            return
        body = node.body
        if body.inline:  # the loop runs in this one step: its items count against the item budget
            rt.spent += len(items)
            if rt.spent > rt.item_cap:
                charge(rt, 0, lambda: node.place)
            var, plan = node.var, body.bound or bound(body)
            for x in list(items):
                env[var] = x
                for handler, stmt in plan:  # as run_inline
                    try:
                        handler(rt, env, stmt, fr)
                    except PlayError as exc:
                        if exc.place is None:
                            exc.place = stmt.place
                        raise
            return
        stack = rt.st["stack"]
        if rt.direct and len(stack) < DIRECT_DEPTH:  # nothing can pause: the rounds run now, without a frame
            var, depth = node.var, len(stack)
            for x in list(items):
                env[var] = x
                run_now(rt, env, body, fr)
                if len(stack) < depth:  # the stack was cut ('end game'): so is the loop
                    return
            return
        stack.append({"kind": "for", "node": node.id, "items": list(items), "next": 0, "scope": fr["scope"]})

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """As ``run`` runs direct: the items, then each round's body in place."""
        items = w.new("_i")
        code, spends = w.operand(node.source)
        w.value(d, items, code, spends, node.source)
        w.w(d, f"if not isinstance({items}, list):")
        w.w(d + 1, f"{items} = _cards_of({items}, {w.const(node, '_n')})")
        w.w(d, f"if {items}:")
        body = node.body
        if body.inline:
            w.w(d + 1, f"rt.spent += len({items})")
            w.w(d + 1, "if rt.spent > rt.item_cap:")
            w.w(d + 2, f"charge(rt, 0, lambda: {w.const(node, '_n')}.place)")
        x = w.new("_x")
        w.w(d + 1, f"for {x} in list({items}):")
        w.w(d + 2, f"env[{node.var!r}] = {x}")
        cards = code in w.gen.zone_lists or code in w.gen.card_lists
        w.body(body, d + 2, i, body.inline, node.var, x, cards, code == SEATS)
        return True


@statement
@node
class Repeat(Stmt):
    """``repeat N: ...``: the block N times."""

    count: Expr
    body: Block

    rules = {"repeat_stmt": "compound"}
    grammar = 'repeat_stmt: "repeat" expr ":" suite'
    kinds = ("repeat",)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._governed(f"repeat {w.expr(self.count)} times", self.body, d)

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return c.program.register(
            Node("repeat", c.place(self), count=c.number(self.count, scope), body=c.block(self.body, scope))
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        count = _amount_of(node.count(rt, env), node)
        if not count:
            return
        st = rt.st
        stack = st["stack"]
        if rt.direct and len(stack) < DIRECT_DEPTH:  # nothing can pause: the rounds run now, without a frame
            body, depth = node.body, len(stack)
            seen, steps = st["decisions"], 0
            for _ in range(count):
                if body.inline:
                    run_inline(rt, env, body, fr)
                else:
                    run_now(rt, env, body, fr)
                    if len(stack) < depth:  # the stack was cut ('end game'): so is the loop
                        return
                steps += 1  # one step per round, as the loop's frame counts them
                if steps > STEP_CAP:
                    seen, steps = _afresh(rt, seen), 0
            return
        stack.append({"kind": "repeat", "node": node.id, "count": count, "done": 0, "scope": fr["scope"]})

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """As ``run`` runs direct: each round's body in place, the rounds counted against STEP_CAP."""
        n, seen, steps = w.new("_r"), w.new("_d"), w.new("_c")
        code, spends = w.operand(node.count)
        w.value(d, n, code, spends, node.count)
        w.w(d, f"{n} = _amount_of({n}, {w.const(node, '_n')})")
        w.w(d, f"{seen}, {steps} = rt.st['decisions'], 0")
        w.w(d, f"for _ in range({n}):")
        w.block(node.body, d + 1, i, False)
        w.w(d + 1, f"{steps} += 1")
        w.w(d + 1, f"if {steps} > _machine.STEP_CAP:")
        w.w(d + 2, f"{seen}, {steps} = _afresh(rt, {seen}), 0")
        return True


@statement
@node
class While(Stmt):
    """``while COND: ...``: the block while the condition holds (at most 100,000 rounds)."""

    cond: Expr
    body: Block

    rules = {"while_stmt": "compound"}
    grammar = 'while_stmt: "while" expr ":" suite'
    kinds = ("while",)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._governed(f"as long as {w.expr(self.cond)}", self.body, d)

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return c.program.register(
            Node("while", c.place(self), cond=c.x(self.cond, scope), body=c.block(self.body, scope))
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        rt.st["stack"].append({"kind": "while", "node": node.id, "done": 0, "scope": fr["scope"]})
