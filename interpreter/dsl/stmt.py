"""Compile statement AST nodes into runnable nodes registered in the program's node table.

A compiled node is a small object with a ``kind`` and a ``place`` (its rule-file position). Nodes
that hold a block or wait for a decision get an integer id, so that a paused execution can name
them from plain JSON frames (see interpreter.machine).
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl import numbers
from mason.dsl.expr import CompileError, ExprCompiler, Scope
from mason.errors import Place, did_you_mean


class _Pos:
    """A bare (line, col) for errors found inside a statement's text."""

    def __init__(self, line, col):
        self.line, self.col = line, col


def _text_at(text) -> tuple[int | None, int | None]:
    """Where a ``saying`` string's text starts in the effect (the parser keeps it), else (None, None)."""
    return getattr(text, "line", None), getattr(text, "col", None)


class Node:
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


# statements that never push a frame nor wait: run inline by the block runner
SIMPLE_KINDS = frozenset(
    {
        "gain",
        "pay",
        "transfer",
        "set_local",
        "set_var",
        "set_seatvar",
        "set_attr",
        "set_counter",
        "move",
        "draw",
        "shuffle",
        "reveal",
        "swap",
        "say",
        "pass",
        "stop_turn",
        "end_game",
        "do",
    }
)
INLINE_KINDS = SIMPLE_KINDS - {"end_game"}


class StmtCompiler:
    """Compiles one DSL string's statements. ``place_of(line, col)`` maps DSL positions to the file."""

    def __init__(self, program, exprs: ExprCompiler, names, place_of):
        self.program, self.exprs, self.names, self.place_of = program, exprs, names, place_of

    def x(self, node, scope):
        return None if node is None else self.exprs.compile(node, scope)

    def number(self, node, scope):
        """Compile an amount or a count: a constant read here must hold a number (checked by the program)."""
        if node is not None:
            self.exprs.note(node, scope, numeric=True)
            self.exprs.demand(node, scope)
        return self.x(node, scope)

    def place(self, node) -> Place:
        return self.place_of(node.line or 1, node.col or 1)

    def block(self, block: A.Block, scope: Scope) -> Node:
        stmts = [self.stmt(s, scope) for s in block.body]
        # a block of plain statements (nothing that pauses, pushes frames or ends the game) runs inline
        inline = all(s.kind in INLINE_KINDS and not getattr(s, "emits", False) for s in stmts)
        node = Node("block", self.place(block), stmts=stmts, inline=inline)
        return self.program.register(node)

    def stmt(self, s, scope: Scope) -> Node:
        method = getattr(self, "s_" + type(s).__name__)
        return method(s, scope)

    # ----------------------------------------------------------- resources
    def s_Gain(self, s, scope):
        self.names.check_counter(s, s.counter, seat=True)
        return Node(
            "gain", self.place(s), amount=self.number(s.amount, scope), counter=s.counter, seat=self.x(s.seat, scope)
        )

    def s_Pay(self, s, scope):
        self.names.check_counter(s, s.counter, seat=True)
        return Node(
            "pay", self.place(s), amount=self.number(s.amount, scope), counter=s.counter, seat=self.x(s.seat, scope)
        )

    def s_Transfer(self, s, scope):
        self.names.check_counter(s, s.counter, seat=True)
        return Node(
            "transfer",
            self.place(s),
            amount=self.number(s.amount, scope),
            counter=s.counter,
            source=self.x(s.source, scope),
            dest=self.x(s.dest, scope),
        )

    # ----------------------------------------------------------- variables
    def s_Let(self, s, scope):
        value = self.x(s.value, scope)
        scope.add(s.name)
        return Node("set_local", self.place(s), name=s.name, value=value)

    def s_Set(self, s, scope):
        value = self.x(s.value, scope)
        t = s.target
        if isinstance(t, A.Name):
            if t.name in scope.names:
                return Node("set_local", self.place(s), name=t.name, value=value)
            kind = self.names.settable(t, t.name)
            emits = bool(self.program.vars.get(t.name, {}).get("event"))  # triggers run before the next line
            if kind == "seatvar":
                return Node("set_seatvar", self.place(s), name=t.name, seat=None, value=value, emits=emits)
            if kind == "counter":
                self.exprs.demand(s.value, scope)
                return Node("set_counter", self.place(s), name=t.name, seat=None, value=value)
            return Node("set_var", self.place(s), name=t.name, value=value, emits=emits)
        if isinstance(t, A.Call):
            kind = self.names.settable(t, t.func, seat=True)
            node_kind = "set_seatvar" if kind == "seatvar" else "set_counter"
            if kind != "seatvar":
                self.exprs.demand(s.value, scope)
            emits = bool(self.program.vars.get(t.func, {}).get("event"))
            return Node(node_kind, self.place(s), name=t.func, seat=self.x(t.args[0], scope), value=value, emits=emits)
        self.names.check_card_attr(t, settable=True)
        if numbers.field_is_number(self.program, t.name):  # a card state that starts as a number stays one
            self.exprs.demand(s.value, scope)
        return Node("set_attr", self.place(s), obj=self.x(t.obj, scope), name=t.name, value=value)

    # ----------------------------------------------------------- zones
    def s_Move(self, s, scope):
        return Node(
            "move",
            self.place(s),
            cards=self.x(s.cards, scope),
            dest=self.zone(s.dest, scope),
            bottom=s.place == "bottom",
            facing=s.facing,
            seen_by=self.x(s.seen_by, scope),
        )

    def s_Draw(self, s, scope):
        return Node(
            "draw",
            self.place(s),
            count=self.number(s.count, scope),
            source=self.zone(s.source, scope),
            dest=self.zone(s.dest, scope),
            facing=s.facing,
            seen_by=self.x(s.seen_by, scope),
        )

    def s_Shuffle(self, s, scope):
        return Node("shuffle", self.place(s), zone=self.zone(s.zone, scope))

    def s_Reveal(self, s, scope):
        return Node("reveal", self.place(s), cards=self.x(s.cards, scope), to=self.x(s.to, scope))

    def s_Swap(self, s, scope):
        return Node("swap", self.place(s), first=self.zone(s.first, scope), second=self.zone(s.second, scope))

    def zone(self, e, scope):
        return self.names.zone_ref(e, scope, self.exprs)

    # ----------------------------------------------------------- events, turns, text
    def s_Emit(self, s, scope):
        self.names.check_event(s, s.event, s.args)
        args = [(k, self.x(v, scope)) for k, v in s.args]
        return self.program.register(Node("emit", self.place(s), event=s.event, args=args))

    def s_Turn(self, s, scope):
        return self.program.register(
            Node(
                "turn",
                self.place(s),
                seat=self.x(s.seat, scope),
                card=self.x(s.card, scope),
                mode=s.mode,
                group=s.group,
            )
        )

    def s_Do(self, s, scope):
        from mason.dsl.builtins import PROCEDURES

        proc = PROCEDURES.get(s.proc)
        if proc is None:
            raise CompileError(f"unknown procedure '{s.proc}'{did_you_mean(s.proc, PROCEDURES)}", s)
        if not proc.min_args <= len(s.args) <= proc.max_args:
            raise CompileError(
                f"'{s.proc}' takes {proc.min_args}..{proc.max_args} argument(s), got {len(s.args)}",
                s,
                "definition/arity",
            )
        args = [self.x(a, scope) for a in s.args]
        kwargs = [(k, self.x(v, scope)) for k, v in s.kwargs]
        return Node("do", self.place(s), proc=proc.impl, args=args, kwargs=kwargs)

    def s_Say(self, s, scope):
        """``say "text {expr} text"``: each ``{expr}`` is compiled once and shown when said."""
        return Node("say", self.place(s), parts=self.text_parts(s.text, s, s.line, (s.col or 1) + len('say "'), scope))

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

    def s_Pass(self, s, scope):
        return Node("pass", self.place(s))

    def s_StopTurn(self, s, scope):
        return Node("stop_turn", self.place(s))

    def s_EndGame(self, s, scope):
        return Node("end_game", self.place(s))

    # ----------------------------------------------------------- control flow
    def s_If(self, s, scope):
        branches = [(self.x(c, scope), self.block(b, scope)) for c, b in s.branches]
        other = self.block(s.other, scope) if s.other is not None else None
        return Node("if", self.place(s), branches=branches, other=other)

    def s_For(self, s, scope):
        source = self.x(s.source, scope)
        scope.add(s.var)
        return self.program.register(
            Node("for", self.place(s), var=s.var, source=source, body=self.block(s.body, scope))
        )

    def s_Repeat(self, s, scope):
        return self.program.register(
            Node("repeat", self.place(s), count=self.number(s.count, scope), body=self.block(s.body, scope))
        )

    def s_While(self, s, scope):
        return self.program.register(
            Node("while", self.place(s), cond=self.x(s.cond, scope), body=self.block(s.body, scope))
        )

    def s_Choose(self, s, scope):
        source = self.x(s.source, scope)
        up_to = self.x(s.up_to, scope)
        by = self.x(s.by, scope)
        scope.add(s.var)
        body = self.block(s.body, scope) if s.body is not None else None
        if s.ordered and s.up_to is None:
            raise CompileError(
                "'ordered' needs 'up to N': only a choice of several items has an order", s, "definition/dsl"
            )
        if s.kind not in ("card", "seat", "value", "type") and s.kind not in self.program.families:
            raise CompileError(
                f"unknown choice kind '{s.kind}' (card, seat, value, type or a family: {', '.join(self.program.families)})",
                s,
                "definition/dsl",
            )
        return self.program.register(
            Node(
                "choose",
                self.place(s),
                var=s.var,
                source=source,
                ckind=s.kind,
                optional=s.optional,
                random=s.random,
                secret=s.secret,
                ordered=s.ordered,
                up_to=up_to,
                by=by,
                prompt=self.placed_text(s.prompt, s, *_text_at(s.prompt), scope),
                showing=None if s.showing is None else self.placed_text(s.showing, s, *_text_at(s.showing), scope),
                body=body,
            )
        )

    def s_ChooseOne(self, s, scope):
        if not s.options:
            raise CompileError("'choose one' needs at least one option", s, "definition/dsl")
        options = [
            (
                self.placed_text(o.label, o, o.line, (o.col or 1) + len('option "'), scope),
                self.x(o.cond, scope),
                self.block(o.body, scope),
            )
            for o in s.options
        ]
        return self.program.register(
            Node(
                "choose_one",
                self.place(s),
                options=options,
                by=self.x(s.by, scope),
                prompt=self.placed_text(s.prompt, s, *_text_at(s.prompt), scope),
            )
        )
