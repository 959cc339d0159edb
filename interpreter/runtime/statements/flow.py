"""The statements of events, turns and words: ``emit``, ``turn``, ``do``, ``say``, ``pass``, ``stop turn``, ``end game``."""

from __future__ import annotations

from typing import Optional

from mason.dsl import ast as A
from mason.dsl.ast import Expr, Stmt, node
from mason.dsl.builtins import PROCEDURES
from mason.dsl.constructs import statement, text_of
from mason.dsl.describe import COUNTED, PHRASES, SILENT, _and, spaced
from mason.dsl.expr import CompileError
from mason.dsl.stmt import Node
from mason.errors import PlayError, did_you_mean
from mason.runtime.frames import TURN_START
from mason.runtime.values import _plain, _seat_of, _short, in_words


def _turn_mode(meta, c):
    """``only GROUP`` | ``after GROUP``: (mode, group)."""
    return (str(c[0]), str(c[1]))


@statement
@node
class Emit(Stmt):
    """``emit EVENT(name=VALUE, ...)``: the triggers listening to the event run, first declared first."""

    event: str
    args: tuple  # ((name, Expr), ...)

    rules = {"emit": "simple"}
    grammar = 'emit: "emit" NAME ["(" [kwarg ("," kwarg)*] ")"]'
    kinds = ("emit",)

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(str(c[0]), tuple(x for x in c[1:] if x is not None), **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        args = ", ".join(f"{spaced(k)}: {w.expr(v)}" for k, v in self.args)
        return w._line(d, f"then “{spaced(self.event)}” happens" + (f" ({args})" if args else ""))

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        c.names.check_event(self, self.event, self.args)
        args = [(k, c.x(v, scope)) for k, v in self.args]
        return c.program.register(Node("emit", c.place(self), event=self.event, args=args))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        args = {k: _plain(f(rt, env)) for k, f in node.args}  # never a live zone list
        rt.emit(node.event, args)


@statement
@node
class Turn(Stmt):
    """``turn S [as C] [only GROUP | after GROUP]``: ``only`` offers just that group's actions and ends
    the turn once one is done; ``after`` starts the turn with that group already done."""

    seat: Expr
    card: Optional[Expr]
    mode: str = ""
    group: str = ""

    rules = {"turn": "simple"}
    grammar = 'turn: "turn" expr ["as" expr] [turn_mode]\n!turn_mode: "only" NAME | "after" NAME'
    parts = {"turn_mode": _turn_mode}
    kinds = ("turn",)

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        mode = c[2] if len(c) > 2 and c[2] else ("", "")
        return cls(c[0], c[1], mode[0], mode[1], **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        text = f"{w.expr(self.seat)} takes a turn"
        if self.card is not None:
            text += f" as {w.expr(self.card)}"
        if self.mode == "only":
            text += f", with only the “{spaced(self.group)}” actions"
        elif self.mode == "after":
            text += f", the “{spaced(self.group)}” actions already done"
        return w._line(d, text)

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return c.program.register(
            Node(
                "turn",
                c.place(self),
                seat=c.x(self.seat, scope),
                card=c.x(self.card, scope),
                mode=self.mode,
                group=self.group,
            )
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        seat = _seat_of(rt, env, node.seat, node)
        card = node.card(rt, env) if node.card is not None else None
        if card is not None and (type(card) is not int or not 0 <= card < len(rt.cards)):
            raise PlayError(f"a turn is played as a card, got {_short(card)}", node.place, "play/type")
        st = rt.st
        fr = {
            "kind": "turn",
            "node": node.id,
            "seat": seat,
            "card": card,
            "uses": {},
            "groups": {},
            "step": TURN_START,
            "stop": False,
            "outer_turn": st["ti"],
        }
        if node.mode == "after":
            fr["groups"][node.group] = 1
        elif node.mode == "only":
            fr["only"] = node.group
        st["stack"].append(fr)
        st["ti"] = len(st["stack"]) - 1
        rt.turn_seat_now, rt.turn_card_now = seat, card  # as sync_turn reads them
        if rt.narrate:
            what = f" as {rt.card_name(card)}" if card is not None else ""
            rt.say(
                f"-- {rt.seat_name(seat)} plays{what} --",
                node,
                turn=True,
                type="turn",
                seat=seat,
                **({"card": card} if card is not None else {}),
            )


@statement
@node
class Do(Stmt):
    """``do name(args)``: run a registered procedure (a primitive that changes the state)."""

    proc: str
    args: tuple
    kwargs: tuple = ()

    rules = {"call_stmt": "simple"}
    grammar = 'call_stmt: "do" NAME "(" [args] ")"'
    kinds = ("do",)
    inline = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        args = c[1] if len(c) > 1 and c[1] is not None else []
        pos = tuple(a for a in args if isinstance(a, Expr))
        kw = tuple(a for a in args if isinstance(a, tuple))
        return cls(str(c[0]), pos, kw, **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        if self.proc in SILENT:
            return []
        args = list(self.args) + [v for _k, v in self.kwargs]
        if (
            self.proc in COUNTED
            and len(args) == 3
            and isinstance(args[1], A.Literal)
            and args[1].value in w.lex.counters
        ):
            who = w.expr(args[0])
            verb = COUNTED[self.proc]
            return w._line(d, f"{verb if who == 'you' else who + ' ' + verb + 's'} {w._amount(args[2], args[1].value)}")
        template = PHRASES.get((self.proc, len(args))) or PHRASES.get(self.proc)
        said = [w._inner(a) for a in args]
        if template:
            return w._line(d, template.format(*said, all=_and(said)))
        return w._line(d, f"{spaced(self.proc)}" + (f": {_and(said)}" if said else ""))

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        proc = PROCEDURES.get(self.proc)
        if proc is None:
            raise CompileError(f"unknown procedure '{self.proc}'{did_you_mean(self.proc, PROCEDURES)}", self)
        if not proc.min_args <= len(self.args) <= proc.max_args:
            raise CompileError(
                f"'{self.proc}' takes {proc.min_args}..{proc.max_args} argument(s), got {len(self.args)}",
                self,
                "definition/arity",
            )
        args = [c.x(a, scope) for a in self.args]
        kwargs = [(k, c.x(v, scope)) for k, v in self.kwargs]
        return Node("do", c.place(self), proc=proc.impl, args=args, kwargs=kwargs)

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        node.proc(rt, node, *[a(rt, env) for a in node.args], **{k: v(rt, env) for k, v in node.kwargs})


@statement
@node
class Say(Stmt):
    """``say "text {expr} text"``: narrate a line (each ``{expr}`` compiled once, shown in words)."""

    text: str

    rules = {"log_stmt": "simple"}
    grammar = 'log_stmt: "say" STRING'
    kinds = ("say",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        return cls(text_of(c[0]), **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return []  # narration, not a rule

    def compile(self, c, scope):
        """``say "text {expr} text"``: each ``{expr}`` is compiled once and shown when said."""
        return Node(
            "say", c.place(self), parts=c.text_parts(self.text, self, self.line, (self.col or 1) + len('say "'), scope)
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        if rt.narrate:
            parts = [p if isinstance(p, str) else in_words(p(rt, env)) for p in node.parts]
            rt.say("".join(parts), node, type="say")


@statement
@node
class Pass(Stmt):
    """``pass``: do nothing (a block that must hold a statement)."""

    rules = {"pass_stmt": "simple"}
    grammar = 'pass_stmt: "pass"'
    kinds = ("pass",)
    inline = True
    plain = True

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, "nothing happens")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node("pass", c.place(self))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        pass


@statement
@node
class StopTurn(Stmt):
    """``stop turn``: the turn being played ends after this effect."""

    rules = {"stop_turn": "simple"}
    grammar = 'stop_turn: "stop" "turn"'
    kinds = ("stop_turn",)
    inline = True
    plain = True

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, "the turn ends")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node("stop_turn", c.place(self))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        t = rt.turn_frame()
        if t is not None:
            t["stop"] = True


@statement
@node
class EndGame(Stmt):
    """``end game``: the game ends now (the flow scores it)."""

    rules = {"end_game": "simple"}
    grammar = 'end_game: "end" "game"'
    kinds = ("end_game",)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, "the game ends")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node("end_game", c.place(self))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        rt.st["over"] = True
        st = rt.st
        # drop everything but the flow frame: the flow sees 'over' and scores
        del st["stack"][1:]
        st["ti"] = -1
        rt.sync_turn()
