"""Compile statement AST nodes into runnable nodes registered in the program's node table.

Each statement compiles itself (its ``compile``, beside its syntax and its run: mason.dsl.constructs);
``StmtCompiler`` is what they are given: the program, the expression compiler, the game's names and
the helpers they share (an operand, an amount, a zone, a text with ``{expr}`` parts, a block).

A compiled node is a small object with a ``kind`` and a ``place`` (its rule-file position). Nodes
that hold a block or wait for a decision get an integer id, so that a paused execution can name
them from plain JSON frames (see mason.runtime.machine).
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl.constructs import KINDS
from mason.dsl.expr import CompileError, ExprCompiler, Scope
from mason.errors import Place


class _Pos:
    """A bare (line, col) for errors found inside a statement's text."""

    def __init__(self, line, col):
        self.line, self.col = line, col


def text_at(text) -> tuple[int | None, int | None]:
    """Where a ``saying`` string's text starts in the effect (the parser keeps it), else (None, None)."""
    return getattr(text, "line", None), getattr(text, "col", None)


class Node:
    """A compiled statement or block: its ``kind``, its rule-file ``place``, its ``id`` (-1 until
    registered) and the fields its statement's ``compile`` gave it."""

    __slots__ = ("kind", "place", "id", "__dict__")

    # what the runtime derives from a block once and keeps on it (runtime/machine.py, runtime/direct.py):
    # its statements' handlers (``bound``), its steps (``steps``), its generated function (``direct``);
    # and a node's place in words (``at_text``); None until made
    bound = steps = direct = at_text = None

    def __init__(self, kind: str, place: Place, **fields):
        self.kind, self.place, self.id = kind, place, -1
        self.__dict__.update(fields)

    def __repr__(self):
        return f"<{self.kind} at {self.place}>"


class StmtCompiler:
    """Compiles one DSL string's statements. ``place_of(line, col)`` maps DSL positions to the file."""

    def __init__(self, program, exprs: ExprCompiler, names, place_of):
        self.program, self.exprs, self.names, self.place_of = program, exprs, names, place_of

    def x(self, node, scope):
        """Compile an operand (an expression, or None for one left out)."""
        return None if node is None else self.exprs.compile(node, scope)

    def number(self, node, scope):
        """Compile an amount or a count: a constant read here must hold a number (checked by the program)."""
        if node is not None:
            self.exprs.note(node, scope, numeric=True)
            self.exprs.demand(node, scope)
        return self.x(node, scope)

    def place(self, node) -> Place:
        """The rule-file place of an AST node."""
        return self.place_of(node.line or 1, node.col or 1)

    def block(self, block: A.Block, scope: Scope) -> Node:
        """Compile a block of statements, registered (it gets an id)."""
        stmts = [self.stmt(s, scope) for s in block.body]
        # a block of inline statements (nothing that pauses, pushes frames or ends the game) runs inline
        inline = all(KINDS[s.kind].inline and not getattr(s, "emits", False) for s in stmts)
        node = Node("block", self.place(block), stmts=stmts, inline=inline)
        return self.program.register(node)

    def stmt(self, s, scope: Scope) -> Node:
        """The compiled node of the statement ``s`` (it checks and compiles itself)."""
        return s.compile(self, scope)

    def zone(self, e, scope):
        """Compile a zone operand (a zone's name, or ``name(seat)``): its key when run."""
        return self.names.zone_ref(e, scope, self.exprs)

    def text_parts(self, text, s, line, col, scope):
        """Split ``text {expr} text`` (starting at ``line``:``col`` of the effect) into strings and
        compiled expressions, each ``{expr}`` compiled once here; errors point inside the braces."""
        from mason.dsl.parser import DslSyntaxError, parse_expression

        parts, i = [], 0
        while i < len(text):
            j = text.find("{", i)
            if j < 0:
                parts.append(text[i:])
                break
            k = text.find("}", j)
            if k < 0:
                raise CompileError("'{' without '}' in text", _Pos(line, col + j), "definition/dsl-syntax")
            parts.append(text[i:j])
            at = _Pos(line, col + j + 1)  # where the placeholder's text starts
            outer = self.exprs.place_of

            def place_of(line, col, a=at, outer=outer):
                return outer(a.line + line - 1, a.col + col - 1 if line == 1 else col)

            self.exprs.place_of = place_of
            try:
                expr = parse_expression(text[j + 1 : k])
                parts.append(self.exprs.compile(expr, scope))
            except DslSyntaxError as exc:
                raise CompileError(
                    f"in {{{text[j + 1 : k]}}}: {exc.message}",
                    _Pos(at.line, at.col + exc.col - 1),
                    "definition/dsl-syntax",
                ) from None
            except CompileError as exc:
                raise CompileError(exc.message, _Pos(at.line, at.col + exc.col - 1), exc.code) from None
            finally:
                self.exprs.place_of = outer
            i = k + 1
        return parts

    def placed_text(self, text, s, line, col, scope):
        """A prompt or label: the text itself when it has no ``{expr}``, else its parts (see ``text_parts``)."""
        if "{" not in text:
            return text
        return self.text_parts(text, s, line or s.line, col or s.col or 1, scope)
