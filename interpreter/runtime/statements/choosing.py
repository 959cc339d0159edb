"""The choice statements: ``choose`` (one item, or ``up to N``, of a list) and ``choose one`` (of options).

Their decisions, labels and resuming with an answer are in ``mason.runtime.choices``.
"""

from __future__ import annotations

from typing import Optional

from mason.dsl.ast import Block, Expr, Node, PlacedText, Stmt, node
from mason.dsl.constructs import statement, text_of
from mason.dsl.describe import KINDS as CHOICE_WORDS
from mason.dsl.describe import spaced
from mason.dsl.expr import CompileError
from mason.dsl.stmt import Node as Compiled
from mason.dsl.stmt import text_at
from mason.runtime import rng
from mason.runtime.answers import answered_in_place
from mason.runtime.choices import (
    _ask,
    _bind_choice,
    _card_viewers,
    _chooser,
    _default_prompt,
    _label,
    _text,
)
from mason.runtime.machine import card_ids, log_resolved, place_text, push_or_run
from mason.runtime.values import _amount_of


def _choice_head(meta, c):
    """The words of a ``choose`` before its block: its flags, kind, name, source, chooser, prompt, showing."""
    optional, rand, secret, ordered, upto, kind, name, source, by, prompt, showing = c
    return dict(
        optional=optional is not None,
        random=rand is not None,
        secret=secret is not None,
        ordered=ordered is not None,
        up_to=upto,
        kind=kind or "value",
        var=str(name),
        source=source,
        by=by,
        prompt=prompt or "",
        showing=showing,
    )


def _placed(meta, c):
    """A ``saying`` / ``showing`` text that remembers where it starts (after its quote)."""
    return PlacedText(text_of(c[0]), c[0].line, c[0].column + 1)


CHOOSE = """
choose_simple: "choose" choice_head
choose_block: "choose" choice_head ":" suite
!choice_kind: "card" | "seat" | "value" | NAME   // NAME: a family id
choice_head: [OPTIONAL] [RANDOM] [SECRET] [ORDERED] [upto] [choice_kind] NAME "from" expr [_BY expr] [prompt] [showing]
upto: "up" _TO expr
prompt: "saying" STRING
showing: "showing" STRING   // what each option adds to its label, with the chosen name bound
OPTIONAL: "optional"
RANDOM: "random"
SECRET: "secret"
ORDERED: "ordered"
"""


@node
class Option(Node):
    """One option of a ``choose one``: its label, its condition, its block."""

    label: str
    cond: Optional[Expr]
    body: Block


@statement
@node
class Choose(Stmt):
    """A decision: pick one item (or, with ``up_to``, a subset) of ``source``; bind it to ``var``."""

    var: str
    source: Expr
    kind: str = "value"  # card | seat | value | type | a family (character)
    optional: bool = False
    random: bool = False
    secret: bool = False
    ordered: bool = False  # with ``up_to``: the order of the answer counts (the seat lists the items in order)
    up_to: Optional[Expr] = None
    by: Optional[Expr] = None
    prompt: str = ""
    body: Optional[Block] = None
    showing: Optional[str] = None  # ``showing "TEXT"``: added to each option's label, ``{expr}`` with ``var`` bound

    rules = {"choose_simple": "simple", "choose_block": "compound"}
    grammar = CHOOSE
    parts = {
        "choice_head": _choice_head,
        "upto": lambda meta, c: c[0],
        "choice_kind": lambda meta, c: str(c[0]),
        "prompt": _placed,
        "showing": _placed,
    }
    kinds = ("choose",)

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        if rule == "choose_block":
            return cls(**c[0], body=c[1], **place)
        return cls(**c[0], **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        who = w.expr(self.by) if self.by is not None else "you"
        verb = (
            ("may choose" if self.optional else "chooses")
            if who != "you"
            else ("may choose" if self.optional else "choose")
        )
        kind = CHOICE_WORDS.get(self.kind, f"a {spaced(self.kind)}")
        what = f"{kind} {spaced(self.var)}".strip()
        if self.random:
            verb, what = ("is given", f"at random {what}") if who != "you" else ("take", f"at random {what}")
        if self.up_to is not None:
            things = kind.split(" ")[-1] + "s" if kind else "of them"
            what = f"up to {w.expr(self.up_to)} {things} {spaced(self.var)}" + (", in order," if self.ordered else "")
        head = f"{'' if who == 'you' else who + ' '}{verb} {what} from {w.expr(self.source)}"
        head += w._prompt(self.prompt)
        if self.body is None:
            return w._line(d, head)
        return w._governed(head + ("; if so" if self.optional else "; then"), self.body, d)

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        source = c.x(self.source, scope)
        up_to = c.x(self.up_to, scope)
        by = c.x(self.by, scope)
        scope.add(self.var)
        body = c.block(self.body, scope) if self.body is not None else None
        if self.ordered and self.up_to is None:
            raise CompileError(
                "'ordered' needs 'up to N': only a choice of several items has an order", self, "definition/dsl"
            )
        if self.kind not in ("card", "seat", "value", "type") and self.kind not in c.program.families:
            raise CompileError(
                f"unknown choice kind '{self.kind}' (card, seat, value, type or a family: {', '.join(c.program.families)})",
                self,
                "definition/dsl",
            )
        return c.program.register(
            Compiled(
                "choose",
                c.place(self),
                var=self.var,
                source=source,
                ckind=self.kind,
                optional=self.optional,
                random=self.random,
                secret=self.secret,
                ordered=self.ordered,
                up_to=up_to,
                by=by,
                prompt=c.placed_text(self.prompt, self, *text_at(self.prompt), scope),
                showing=None
                if self.showing is None
                else c.placed_text(self.showing, self, *text_at(self.showing), scope),
                body=body,
            )
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        items = node.source(rt, env)
        if node.ckind == "card":  # the options are cards: checked where the rule's value enters
            items = card_ids(rt, items, node)
        else:
            items = [] if items is None else (list(items) if isinstance(items, (list, tuple)) else [items])
        value: object  # the item or items drawn: any value of the rules
        if node.random:
            if node.up_to is not None:  # a random subset of exactly min(N, available) items
                pool = list(items)
                rng.shuffle(rt.st, pool)
                value = pool[: _amount_of(node.up_to(rt, env), node)]
            else:
                value = items[rng.below(rt.st, len(items))] if items else None
            if rt.narrate and value is not None and not node.secret:  # a secret draw is told to nobody
                chosen = value if isinstance(value, list) else [value]
                what = ", ".join(_label(rt, node.ckind, v) for v in chosen) or "nothing"
                rt.say(  # with its question when it has one: "First player, at random: P3"
                    f"{_text(rt, fr, node.prompt)}, at random: {what}" if node.prompt else f"at random: {what}",
                    node,
                    to=_card_viewers(rt, chosen) if node.ckind == "card" else None,
                )
            _bind_choice(rt, env, node, fr, value)
            return
        chooser = _chooser(rt, env, node)
        if node.up_to is not None:
            limit = _amount_of(node.up_to(rt, env), node)
            limit = min(limit, len(items))
            if limit == 0 or not items:
                _bind_choice(rt, env, node, fr, [])
                return
            _ask(rt, env, node, fr, chooser, items, subset=limit)
            return
        if not items:
            _bind_choice(rt, env, node, fr, None)
            return
        options = items + [None] if node.optional else items
        if len(options) == 1:
            rt.st["forced"] = rt.st.get("forced", 0) + 1  # resolved by itself: progress for the idle guard
            if rt.narrate:
                prompt = node.prompt and _text(rt, fr, node.prompt) or _default_prompt(node)
                log_resolved(
                    rt,
                    chooser,
                    node.ckind,
                    prompt,
                    options,
                    [_label(rt, node.ckind, v) if v is not None else "none" for v in options],
                    node.place,
                )
            _bind_choice(rt, env, node, fr, options[0])
            return
        _ask(rt, env, node, fr, chooser, options)

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """As ``run`` runs direct, for one card, seat, value or family card (not at random, not
        ``up to``): the options, the chooser, the bot's answer in place (a single option resolves
        itself), the choice bound, its body in place. Anything else, or a check that fails, goes to
        the handler before anything has changed."""
        if node.random or node.up_to is not None:
            return False
        source, s1 = w.operand(node.source)
        g = w.gen
        setup = [f"o = {source}", "if type(o) is not list: raise _Fallback"]
        if node.ckind == "card" and source not in g.zone_lists and source not in g.card_lists:
            setup += [  # as card_ids: every option a card
                "n = len(rt.cards)",
                "for c in o:",
                "    if type(c) is not int or not 0 <= c < n: raise _Fallback",
            ]
        if node.by is not None:
            seat, s2 = w.operand(node.by)
            setup += w.seat(seat)
        else:
            s2 = False
            setup += ["s = env.get('me')", "if s is None: s = rt.turn_seat_now", "if s is None: raise _Fallback"]
        setup += [
            "pick = rt.answerers.get(s) if rt.answerers is not None else None",
            "if pick is None: raise _Fallback",
        ]
        w.guarded(node, d, setup, s1 or s2, [], parent)
        e = d + 1
        w.w(e, "if not o:")
        w.w(e + 1, "v = None")
        w.w(e, "else:")
        if node.optional:
            w.w(e + 1, "o = o + [None]")
        w.w(e + 1, "if len(o) == 1:")
        w.w(e + 2, "st = rt.st")
        w.w(e + 2, "st['forced'] = st.get('forced', 0) + 1")
        w.w(e + 2, "v = o[0]")
        w.w(e + 1, "else:")
        w.w(e + 2, "v = o[answered_in_place(rt, pick, s, o)]")
        card = node.ckind == "card"
        if not card:  # a card option is a card number (checked above, or an item of a zone): stored as it is
            w.w(e, "t = type(v)")
            w.w(e, "if t is list or t is dict or (t is int and not -MAX_NUMBER <= v <= MAX_NUMBER): v = _plain(v)")
        w.w(e, f"env[{node.var!r}] = v")
        if node.body is not None:
            chosen = w.new("_v")
            w.w(e, f"{chosen} = v")
            w.w(e, "if v is not None:" if card else "if v is not None and v != []:")
            w.body(node.body, e + 1, i, False, node.var, chosen, card)
        return True


@statement
@node
class ChooseOne(Stmt):
    """``choose one [by SEAT] [saying TEXT]:`` then ``option LABEL [if COND]: ...``: one option's block."""

    options: tuple
    by: Optional[Expr] = None
    prompt: str = ""

    rules = {"choose_one": "compound"}
    grammar = 'choose_one: "choose" "one" [_BY expr] [prompt] ":" _NL _INDENT option+ _DEDENT\noption: "option" STRING ["if" expr] ":" suite'
    parts = {
        "option": lambda meta, c: Option(
            text_of(c[0]),
            c[1],
            c[2],
            **({} if getattr(meta, "empty", True) else {"line": meta.line, "col": meta.column}),
        )
    }
    kinds = ("choose_one",)

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        options = tuple(x for x in c[2:] if isinstance(x, Option))
        return cls(options, c[0], c[1] or "", **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        who = w.expr(self.by) if self.by is not None else "you"
        head = ("choose one" if who == "you" else f"{who} chooses one") + w._prompt(self.prompt)
        out = w._line(d, head + ":")
        for opt in self.options:
            label = f"“{opt.label}”" + (f", if {w.expr(opt.cond)}" if opt.cond is not None else "")
            out += w._governed(label, opt.body, d + 1)
        return out

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        if not self.options:
            raise CompileError("'choose one' needs at least one option", self, "definition/dsl")
        options = [
            (
                c.placed_text(o.label, o, o.line, (o.col or 1) + len('option "'), scope),
                c.x(o.cond, scope),
                c.block(o.body, scope),
            )
            for o in self.options
        ]
        return c.program.register(
            Compiled(
                "choose_one",
                c.place(self),
                options=options,
                by=c.x(self.by, scope),
                prompt=c.placed_text(self.prompt, self, *text_at(self.prompt), scope),
            )
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        available = [i for i, (label, cond, block) in enumerate(node.options) if cond is None or cond(rt, env)]
        if not available:
            return
        if len(available) == 1:
            rt.st["forced"] = rt.st.get("forced", 0) + 1  # resolved by itself: progress for the idle guard
            if rt.narrate:
                s = (
                    node.by(rt, env)
                    if node.by is not None
                    else (env.get("me") if env.get("me") is not None else rt.turn_seat_now)
                )
                log_resolved(
                    rt,
                    s,
                    "option",
                    node.prompt and _text(rt, fr, node.prompt) or "Choose one",
                    available,
                    [_text(rt, fr, node.options[available[0]][0])],
                    node.place,
                )
            push_or_run(rt, env, node.options[available[0]][2], fr)
            return
        seat = _chooser(rt, env, node)
        st = rt.st
        if rt.answerers is not None:
            pick = rt.answerers.get(seat)
            if pick is not None:  # a bot answers in place (runtime/answers.py): the option's block, as resume pushes it
                push_or_run(rt, env, node.options[available[answered_in_place(rt, pick, seat, available)]][2], fr)
                return
        st["pending"] = {
            "seat": seat,
            "kind": "option",
            "prompt": _text(rt, fr, node.prompt) or "Choose one",
            "options": available,
            "labels": [_text(rt, fr, node.options[i][0]) for i in available] if rt.narrate else None,
            "subset": 0,
            "at": place_text(node),
        }
        st["stack"].append({"kind": "option", "node": node.id, "scope": fr["scope"]})
