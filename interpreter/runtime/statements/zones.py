"""The zone statements: ``move``, ``draw``, ``shuffle``, ``reveal``, ``swap`` (cards between zones, who sees them)."""

from __future__ import annotations

from typing import Optional

from mason.dsl import ast as A
from mason.dsl.ast import Expr, Stmt, node
from mason.dsl.constructs import statement
from mason.dsl.stmt import Node
from mason.runtime import rng
from mason.runtime.machine import card_ids, move_card
from mason.runtime.values import _amount_of, _seat_of, _visible_to, _zone_label, split_zone_key


def _place(meta, c):
    """``top`` | ``bottom``: which end of the destination a move puts the cards."""
    return str(c[0])


def _facing(meta, c):
    """``face up`` / ``face down`` / ``seen by SEAT``: (facing, the seat that sees them or None)."""
    if str(c[0]) == "seen":
        return ("seen", c[-1])
    return (str(c[1]), None)


@statement
@node
class Move(Stmt):
    """``move CARDS to ZONE [top|bottom] [face up|face down|seen by SEAT]``: cards to a zone, told to who sees them."""

    cards: Expr
    dest: Expr
    place: str = "top"  # top | bottom
    facing: str = ""  # "" | up | down | seen
    seen_by: Optional[Expr] = None

    rules = {"move": "simple"}
    grammar = 'move: "move" expr _TO expr [place] [facing]\n!place: "top" | "bottom"\n!facing: "face" "up" | "face" "down" | "seen" _BY expr'
    parts = {"place": _place, "facing": _facing}
    kinds = ("move",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        cards, dest, end, facing = c
        face, seen = facing if facing else ("", None)
        return cls(cards, dest, end or "top", face, seen, **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        where = f"on the bottom of {w.expr(self.dest)}" if self.place == "bottom" else f"in {w.expr(self.dest)}"
        return w._line(d, f"put {w.expr(self.cards)} {where}{w._facing(self)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node(
            "move",
            c.place(self),
            cards=c.x(self.cards, scope),
            dest=c.zone(self.dest, scope),
            bottom=self.place == "bottom",
            facing=self.facing,
            seen_by=c.x(self.seen_by, scope),
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        x = node.cards(rt, env)
        cards = [x] if type(x) is int and 0 <= x < len(rt.cards) else card_ids(rt, x, node)  # one card: the common case
        key = node.dest(rt, env)
        seen = node.seen_by(rt, env) if node.seen_by is not None else None
        if not rt.narrate or not rt.prog.zones[split_zone_key(key)[0]]["narrate"]:  # nothing to tell: no grouping
            bottom, facing = node.bottom, node.facing
            for c in cards:
                move_card(rt, c, key, bottom, facing, seen)
            return
        by_source: dict = {}
        for c in cards:
            card = rt.cards[c]
            by_source.setdefault(card["z"] if card["o"] is None else rt.zk[card["z"]][card["o"]], []).append(c)
        shown = {src: _who_sees(rt, src, moved) for src, moved in by_source.items()}  # before they move
        for c in cards:
            move_card(rt, c, key, node.bottom, node.facing, seen)
        for src, moved in by_source.items():
            _narrate_move(rt, node, moved, src, key, shown[src])

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """Write its fast form into a block's function (False: left to its run)."""
        if node.seen_by is not None or node.facing == "seen":
            return False
        setup, s1, single = w.cards(node.cards)
        key, s2 = w.operand(node.dest)
        setup.append(f"k = {key}")
        one = w.moved("x", key, node.bottom, node.facing)
        if single:  # a card for sure: no list to move
            return w.guarded(node, d, setup, s1 or s2, one)
        if w.whole_zone and not node.bottom:  # a zone's whole list, to the top of another (or itself)
            return w.guarded(node, d, setup, s1 or s2, w.moved_zone(key, node.facing))
        action = ["if one:"] + ["    " + line for line in one]
        action += ["else:", "    for c in list(x):"]  # a copy: the cards may be the list of the zone they leave
        action += ["        " + line for line in w.moved("c", key, node.bottom, node.facing)]
        return w.guarded(node, d, setup, s1 or s2, action)


@statement
@node
class Draw(Stmt):
    """``draw N from ZONE to ZONE [facing]``: up to N cards from the top of a zone, one by one."""

    count: Expr
    source: Expr
    dest: Expr
    facing: str = ""
    seen_by: Optional[Expr] = None

    rules = {"draw": "simple"}
    grammar = 'draw: "draw" expr "from" expr _TO expr [facing]'
    kinds = ("draw",)
    inline = True
    plain = True

    @classmethod
    def from_tree(cls, rule, meta, c, place):
        """Its node from a parse of one of its rules (the children already mapped)."""
        count, source, dest, facing = c
        face, seen = facing if facing else ("", None)
        return cls(count, source, dest, face, seen, **place)

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        n = self.count
        many = f"{n.value} card{'s' if n.value != 1 else ''}" if isinstance(n, A.Literal) else f"{w.expr(n)} cards"
        return w._line(d, f"draw {many} from {w.expr(self.source)} into {w.expr(self.dest)}{w._facing(self)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node(
            "draw",
            c.place(self),
            count=c.number(self.count, scope),
            source=c.zone(self.source, scope),
            dest=c.zone(self.dest, scope),
            facing=self.facing,
            seen_by=c.x(self.seen_by, scope),
        )

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        n = _amount_of(node.count(rt, env), node)
        src = node.source(rt, env)
        key = node.dest(rt, env)
        zone = rt.st["zones"][src]
        seen = node.seen_by(rt, env) if node.seen_by is not None else None
        drawn = []
        shown = _who_sees(rt, src, zone[len(zone) - min(n, len(zone)) :]) if rt.narrate else None  # before they move
        for _ in range(min(n, len(zone))):
            c = zone[-1]
            move_card(rt, c, key, False, node.facing, seen)
            drawn.append(c)
        if rt.narrate and drawn:
            _narrate_move(rt, node, drawn, src, key, shown)

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """As ``run``: up to ``count`` cards from the top of the source, one by one."""
        if node.seen_by is not None or node.facing == "seen":
            return False
        count, s1 = w.operand(node.count)
        source, s2 = w.operand(node.source)
        dest, s3 = w.operand(node.dest)
        setup = [
            f"a = {count}",
            "if type(a) is not int or a < 0: raise _Fallback",
            f"zone = rt.zones[{source}]",
            f"k = {dest}",
        ]
        action = ["for _ in range(min(a, len(zone))):"]
        action += ["    " + line for line in w.moved("x", dest, False, node.facing, top_of="zone")]
        return w.guarded(node, d, setup, s1 or s2 or s3, action)


@statement
@node
class Shuffle(Stmt):
    """``shuffle ZONE``: put a zone's cards in a random order (the state's generator)."""

    zone: Expr

    rules = {"shuffle": "simple"}
    grammar = 'shuffle: "shuffle" expr'
    kinds = ("shuffle",)
    inline = True
    plain = True

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"shuffle {w.expr(self.zone)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node("shuffle", c.place(self), zone=c.zone(self.zone, scope))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        key = node.zone(rt, env)
        rng.shuffle(rt.st, rt.st["zones"][key])
        if rt.narrate:
            rt.say(f"shuffle: {_zone_label(rt, key)}", node, type="shuffle", zone=key)


@statement
@node
class Reveal(Stmt):
    """``reveal CARDS [to SEAT]``: turn cards face up, or show them to one seat."""

    cards: Expr
    to: Optional[Expr]

    rules = {"reveal": "simple"}
    grammar = 'reveal: "reveal" expr [_TO expr]'
    kinds = ("reveal",)
    inline = True
    plain = True

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"reveal {w.expr(self.cards)}" + (f" to {w.expr(self.to)}" if self.to else ""))

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node("reveal", c.place(self), cards=c.x(self.cards, scope), to=c.x(self.to, scope))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        to = _seat_of(rt, env, node.to, node) if node.to is not None else None
        for c in card_ids(rt, node.cards(rt, env), node):
            card = rt.cards[c]
            if to is None:
                card["up"] = True
                if rt.narrate:
                    rt.say(f"{rt.card_name(c)} is revealed", node, type="reveal", card=c)
            else:
                seen = card.setdefault("seen", [])
                if to not in seen:
                    seen.append(to)
                if rt.narrate:
                    rt.say(f"{rt.seat_name(to)} sees {rt.card_name(c)}", node, to=[to], type="reveal", card=c, seat=to)

    @staticmethod
    def emit(w, node, d, i, parent) -> bool:
        """Write its fast form into a block's function (False: left to its run)."""
        setup, s1, _ = w.cards(node.cards)
        s2 = False
        if node.to is not None:
            to, s2 = w.operand(node.to)
            setup += w.seat(to)
        action = ["for c in ((x,) if one else list(x)):"]
        if node.to is None:
            action.append("    rt.cards[c]['up'] = True")
        else:
            action += [
                "    seen = rt.cards[c].setdefault('seen', [])",
                "    if s not in seen:",
                "        seen.append(s)",
            ]
        return w.guarded(node, d, setup, s1 or s2, action)


@statement
@node
class Swap(Stmt):
    """``swap ZONE with ZONE``: exchange the contents of two zones."""

    first: Expr
    second: Expr

    rules = {"swap": "simple"}
    grammar = 'swap: "swap" expr "with" expr'
    kinds = ("swap",)
    inline = True
    plain = True

    def describe(self, w, d):
        """Its words in the rulebook (``mason rules``): lines from the describer ``w`` at depth ``d``."""
        return w._line(d, f"swap {w.expr(self.first)} with {w.expr(self.second)}")

    def compile(self, c, scope):
        """Check it and give its compiled node."""
        return Node("swap", c.place(self), first=c.zone(self.first, scope), second=c.zone(self.second, scope))

    @staticmethod
    def run(rt, env, node, fr):
        """Run a compiled node of it (the reference semantics)."""
        a, b = node.first(rt, env), node.second(rt, env)
        zones = rt.st["zones"]
        zones[a], zones[b] = zones[b], zones[a]
        for key in (a, b):
            name, o = split_zone_key(key)
            for c in zones[key]:
                rt.cards[c]["z"], rt.cards[c]["o"] = name, o
        if rt.narrate:
            rt.say(f"{_zone_label(rt, a)} and {_zone_label(rt, b)} are swapped", node, type="swap", zones=[a, b])


def _who_sees(rt, key, cards):
    """Who sees every one of ``cards`` in zone ``key`` now (None: everyone, e.g. all lying face up)."""
    out = None
    for c in cards:
        v = _visible_to(rt, key, c)
        if v is not None:
            out = set(v) if out is None else out & set(v)
    return None if out is None else sorted(out)


def _narrate_move(rt, node, cards, src, dst, vis_src):
    """Tell a move of ``cards`` from ``src`` to ``dst``: named to whoever saw them where they were
    (``vis_src``, taken before the move: None for everyone, as for a card lying face up) or sees them
    where they go; counted to the others."""
    names = ", ".join(rt.card_name(c) for c in cards)
    a, b = _zone_label(rt, src), _zone_label(rt, dst)
    end = "top"  # which end of the destination the cards go to (machine-readable, beside the words)
    if getattr(node, "bottom", False):  # put under a pile (else on top, as a move says by default)
        b = f"the bottom of {b}"
        end = "bottom"
    vis_dst = _visible_to(rt, dst, cards[0])
    if vis_src is None or vis_dst is None:
        rt.say(f"{names}: {a} -> {b}", node, type="move", cards=list(cards), source=src, dest=dst, end=end)
        return
    who = sorted(set(vis_src) | set(vis_dst))
    if who:
        rt.say(f"{names}: {a} -> {b}", node, to=who, type="move", cards=list(cards), source=src, dest=dst, end=end)
    n = len(cards)
    rt.say(
        f"{n} card{'s' if n != 1 else ''}: {a} -> {b}",
        node,
        hide_from=who,
        type="move",
        count=n,
        source=src,
        dest=dst,
        end=end,
    )
