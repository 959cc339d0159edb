"""Blocks compiled to Python for running direct: one generated function per block, statements in place.

When every seat is answered in place (``rt.direct``, runtime/answers.py), nothing pauses the rules, and
``machine.run_now`` runs a block (a branch, a loop's round, a choice's body, a frame's block) to its
end at once. This module turns such a block into the source of ONE Python function,
``block_<id>(rt, env, fr)``, that does what ``run_now`` does with the block's statement handlers, with
the common statements written in place: ``let``, ``set`` of a local or a card state, ``move``,
``draw``, ``reveal``, ``gain`` and ``pay`` (supply and cap included), ``choose`` of one card, seat,
value or family card (the bot's answer asked in place), and ``if`` / ``for`` / ``repeat`` with their
bodies written in place too (as ``s_if``, ``s_for`` and ``s_repeat`` run them direct). Their operands
are the expressions' generated code (dsl/fastexpr.py) written inline; a loop's item and a choice are
read from Python names in their bodies unless bound again there. Every other statement calls its
handler, and after one that may push frames (triggers, a turn, a ``while``) the frames run to their
end before the next statement (``machine.drain``), or the block ends when the stack was cut (``end
game``), as ``run_now`` does. A block of plain statements (``block.inline``) gets the same function,
which ``machine.run_inline`` calls when nothing is narrated. ``runtime.engine.prepare`` makes every
block's function when a program is compiled.

The generated code decides no error itself: a statement written in place evaluates its operands and
checks them (a card is a card, a number a whole number in range) before it changes anything, and
when anything there raises or a check fails, it restores the item budget and calls the statement's
handler, which evaluates the operands again and raises the error with its message, or does what
the statement does in the case the fast form leaves out (none given as the cards, a tuple). Errors are
placed as ``run_now``, ``run_inline`` and the inline loops of ``s_if`` / ``s_for`` place them: a
statement's error at the statement; Python's recursion limit at the statement whose runner catches
it; an error from frames run by ``drain`` as the enclosing runner would see it.

Nothing narrates here: ``rt.direct`` is only set for games that narrate nothing (``play_game``), and
``run_inline`` calls these functions only when ``rt.narrate`` is false.
tests/engine/test_direct_blocks.py holds the generated form to the handlers' states and errors.
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl.builtins import MAX_NUMBER, charge
from mason.dsl.fastexpr import _HELPERS, SEATS, FastFormError, _code, _Gen, _Unsupported, where
from mason.errors import PlayError
from mason.runtime import machine
from mason.runtime.answers import answered_in_place
from mason.runtime.machine import (
    _PLAIN,
    _SPLIT,
    _afresh,
    _at_statement,
    _cards_of,
    card_ids,
    drain,
    zone_split,
)
from mason.runtime.values import _amount_of, _plain


def _blame(exc, entry):
    """Place ``exc`` as the runner of the statement ``entry`` names would: ``(node for a PlayError,
    node for a RecursionError)``, None where that runner lets it through unplaced."""
    node = entry[1] if isinstance(exc, RecursionError) else entry[0]
    if node is None:
        raise exc
    _at_statement(exc, node)


class _Writer:
    """Writes one block's function: ``lines`` of source, ``consts`` its namespace, ``blame`` the table
    of places an error is given (indexed by the local ``i`` the code sets before each statement)."""

    def __init__(self, program):
        self.p = program
        self.gen = _Gen({}, program)
        self.lines: list[str] = []
        self.blame: list[tuple] = [(None, None)]  # 0: let errors through unplaced
        self.ids: dict = {}
        self.bound: dict = {}  # local variable -> the Python name holding it (a loop's item, a choice)
        self.cards_in: set = set()  # those Python names that hold a card for sure (an item of a zone)
        self.seats_in: set = set()  # those that hold a seat for sure (an item of ``seats``)

    def const(self, value, prefix="_o") -> str:
        key = id(value)
        name = self.ids.get(key)
        if name is None:
            name = self.ids[key] = f"{prefix}{len(self.ids)}"
            self.gen.consts[name] = value
        return name

    def new(self, prefix) -> str:
        return self.gen.new(prefix)

    def at(self, pnode, rnode) -> int:
        self.blame.append((pnode, rnode))
        return len(self.blame) - 1

    def w(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    # ------------------------------------------------------------------ operands
    def operand(self, fn) -> tuple[str, bool]:
        """Python code for an operand (a compiled expression) and whether it may spend items or call
        rules (then the item budget is saved before it): written in place when its shape allows."""
        if fn is None:
            return "None", False
        zone = getattr(fn, "mason_zone", None)
        if zone is not None:
            name, seat = zone
            if seat is None:
                return repr(name), False
            if seat == "me":
                return f"rt.zk[{name!r}][env['me']]", False
            code, spends = self.operand(seat)
            if code in self.seats_in:
                return f"rt.zk[{name!r}][{code}]", spends
            t = self.new("_s")
            return f"rt.zk[{name!r}][({t} if type({t} := {code}) is int and 0 <= {t} < rt.n else None)]", spends
        made = getattr(fn, "mason_ast", None)
        if made is not None:
            node, rec = made
            g = self.gen
            g.rec, g.bound, g.cards_in, g.seats_in = rec, dict(self.bound), set(self.cards_in), set(self.seats_in)
            reads, helpers = g.env_reads, len(g.helpers)
            try:
                code = g.e(node)
            except _Unsupported:
                pass
            else:
                return code, g.env_reads != reads or len(g.helpers) != helpers or "(" in code
        return f"{self.const(fn, '_f')}(rt, env)", True

    # ------------------------------------------------------------------ blocks
    def block(self, block, d: int, parent: int, inline_loop: bool) -> None:
        """The statements of ``block`` at indent ``d``. ``parent``: the blame entry of the statement
        whose body this is (0 at the top); ``inline_loop``: the body runs in an inline loop of
        ``s_if`` / ``s_for``, which lets a RecursionError through to the parent's runner."""
        for node in block.stmts:
            rnode = self.blame[parent][1] if inline_loop else node
            i = self.at(node, rnode)
            self.w(d, f"i = {i}")
            method = getattr(self, "s_" + node.kind, None)
            if method is not None and method(node, d, i, parent):
                continue  # written in place: whatever in it may push frames is followed by its own check
            self.call(node, d)
            if node.kind not in _PLAIN or getattr(node, "emits", False):
                self.after(d, parent)

    def after(self, d: int, parent: int) -> None:
        """After a statement that may push frames: run them to their end, or end the block if the
        stack was cut (an error from the frames is placed as the enclosing runner would)."""
        self.w(d, "if len(stack) != depth:")
        self.w(d + 1, "if len(stack) > depth:")
        self.w(d + 2, f"i = {parent}")
        self.w(d + 2, "drain(rt, depth)")
        self.w(d + 1, "if len(stack) < depth:")
        self.w(d + 2, "return")

    def call(self, node, d: int) -> None:
        handler = machine.STMT.get(node.kind) or machine._unknown(node.kind)
        self.w(d, f"{self.const(handler, '_h')}(rt, env, {self.const(node, '_n')}, fr)")

    def guarded(self, node, d: int, setup: list[str], spends: bool, action: list[str], parent=None) -> bool:
        """``setup`` (evaluate and check; raise to give up) then ``action`` (change the state; the
        caller may write more of it at ``d + 1``); when the setup raises, the budget is restored and
        the handler runs the statement instead (followed by the stack check, given the ``parent``'s
        blame entry, for a handler that may push frames)."""
        if spends:
            self.w(d, "sp = rt.spent")
        self.w(d, "try:")
        for line in setup:
            self.w(d + 1, line)
        for declared in (True, False):  # its hand-over (_Fallback); anything else: the handler's rule error, or a bug
            self.w(d, "except _Fallback:" if declared else "except Exception as exc:")
            if spends:
                self.w(d + 1, "rt.spent = sp")
            self.call(node, d + 1)
            if parent is not None:
                self.after(d + 1, parent)
            if not declared:
                self.w(d + 1, f"_wrong(exc, {self.const(_where_stmt(node), '_p')})")
        self.w(d, "else:")
        for line in action:
            self.w(d + 1, line)
        return True

    # ------------------------------------------------------------------ statements written in place
    def cards(self, fn) -> tuple[list[str], bool, bool]:
        """Setup lines that put a statement's cards in ``x`` (one card) and ``one = True``, or a list
        of cards and ``one = False``, as ``card_ids`` checks them (none and anything else: the handler);
        whether the setup spends items; whether ``x`` is one card for sure (an item of a zone)."""
        code, spends = self.operand(fn)
        g = self.gen
        if code in self.cards_in:
            return [f"x = {code}", "one = True"], spends, True
        if code in g.zone_lists or code in g.card_lists:  # a list of cards for sure
            return [f"x = {code}", "one = False"], spends, False
        lines = [
            f"x = {code}",
            "if type(x) is int and 0 <= x < len(rt.cards): one = True",
            "elif type(x) is list: one = False",
            "else: raise _Fallback",
        ]
        if code not in g.zone_lists and code not in g.card_lists:
            lines += [
                "if not one:",
                "    n = len(rt.cards)",
                "    for c in x:",
                "        if type(c) is not int or not 0 <= c < n: raise _Fallback",
            ]
        return lines, spends, False

    def moved(self, c: str, key: str, bottom: bool, facing: str, top_of: str = "") -> list[str]:
        """Lines that move the card ``c`` to the zone whose key is in ``k`` (``key`` its code: a
        literal is split here), as ``move_card`` does; ``top_of``: the zone list it is the top of."""
        if top_of:
            lines = [f"{c} = {top_of}.pop()", f"card = rt.cards[{c}]"]
        else:
            lines = [
                f"card = rt.cards[{c}]",
                "o = card['o']",
                "src = rt.zones[card['z'] if o is None else rt.zk[card['z']][o]]",
                f"if src[-1] == {c}: src.pop()",
                f"else: src.remove({c})",
            ]
        lines.append(f"rt.zones[k].insert(0, {c})" if bottom else f"rt.zones[k].append({c})")
        if key.startswith("'") and key.endswith("'") and key[1:-1].isidentifier():
            lines.append(f"card['z'], card['o'] = {key}, None")  # a zone of the game's
        else:
            lines.append("card['z'], card['o'] = _SPLIT.get(k) or zone_split(k)")
        up = facing == "up"
        # every card has both keys (state.new_state; a save's cards are checked against save.schema.json)
        lines += [f"card['up'] = {up}", "if card['seen']: card['seen'] = []"]
        return lines

    def s_move(self, node, d, i, parent) -> bool:
        if node.seen_by is not None or node.facing == "seen":
            return False
        setup, s1, single = self.cards(node.cards)
        key, s2 = self.operand(node.dest)
        setup.append(f"k = {key}")
        one = self.moved("x", key, node.bottom, node.facing)
        if single:  # a card for sure: no list to move
            return self.guarded(node, d, setup, s1 or s2, one)
        action = ["if one:"] + ["    " + line for line in one]
        action += ["else:", "    for c in list(x):"]  # a copy: the cards may be the list of the zone they leave
        action += ["        " + line for line in self.moved("c", key, node.bottom, node.facing)]
        return self.guarded(node, d, setup, s1 or s2, action)

    def s_reveal(self, node, d, i, parent) -> bool:
        setup, s1, _ = self.cards(node.cards)
        s2 = False
        if node.to is not None:
            to, s2 = self.operand(node.to)
            setup += self.seat(to)
        action = ["for c in ((x,) if one else list(x)):"]
        if node.to is None:
            action.append("    rt.cards[c]['up'] = True")
        else:
            action += [
                "    seen = rt.cards[c].setdefault('seen', [])",
                "    if s not in seen:",
                "        seen.append(s)",
            ]
        return self.guarded(node, d, setup, s1 or s2, action)

    def s_draw(self, node, d, i, parent) -> bool:
        """As ``s_draw``: up to ``count`` cards from the top of the source, one by one."""
        if node.seen_by is not None or node.facing == "seen":
            return False
        count, s1 = self.operand(node.count)
        source, s2 = self.operand(node.source)
        dest, s3 = self.operand(node.dest)
        setup = [
            f"a = {count}",
            "if type(a) is not int or a < 0: raise _Fallback",
            f"zone = rt.zones[{source}]",
            f"k = {dest}",
        ]
        action = ["for _ in range(min(a, len(zone))):"]
        action += ["    " + line for line in self.moved("x", dest, False, node.facing, top_of="zone")]
        return self.guarded(node, d, setup, s1 or s2 or s3, action)

    def stored(self, fn) -> tuple[list[str], bool]:
        """Setup lines that put the value of ``fn`` in ``v`` as a stored copy (``_plain`` where it acts:
        a list, a dict, a number out of range; a literal true, false, none, text or small number as
        it is)."""
        value, spends = self.operand(fn)
        made = getattr(fn, "mason_ast", None)
        node = made[0] if made is not None else None
        if type(node) is A.Literal and (
            type(node.value) in (bool, str, type(None))
            or (type(node.value) is int and -MAX_NUMBER <= node.value <= MAX_NUMBER)
        ):
            return [f"v = {value}"], spends
        lines = [
            f"v = {value}",
            "t = type(v)",
            "if t is list or t is dict or (t is int and not -MAX_NUMBER <= v <= MAX_NUMBER): v = _plain(v)",
        ]
        return lines, spends

    def s_set_attr(self, node, d, i, parent) -> bool:
        obj, s1 = self.operand(node.obj)
        value, s2 = self.stored(node.value)
        setup = [f"x = {obj}"]
        if obj not in self.cards_in:
            setup.append("if type(x) is not int or not 0 <= x < len(rt.cards): raise _Fallback")
        setup += value
        return self.guarded(node, d, setup, s1 or s2, [f"rt.cards[x][{node.name!r}] = v"])

    def s_set_var(self, node, d, i, parent) -> bool:
        """A game variable set, as ``s_set_var``; one whose change is an event (``event:``) is left to
        the handler, which emits it."""
        if self.p.vars[node.name]["event"]:
            return False
        setup, spends = self.stored(node.value)
        return self.guarded(node, d, setup, spends, [f"rt.st['vars'][{node.name!r}] = v"])

    def s_set_seatvar(self, node, d, i, parent) -> bool:
        """A seat's variable set, as ``s_set_seatvar``: the seat checked first, then the value; one whose
        change is an event is left to the handler."""
        if self.p.vars[node.name]["event"]:
            return False
        seat, s1 = self.operand(node.seat) if node.seat is not None else ("env.get('me')", False)
        setup = self.seat(seat)
        value, s2 = self.stored(node.value)
        return self.guarded(node, d, setup + value, s1 or s2, [f"rt.st['vars'][{node.name!r}][s] = v"])

    def s_set_local(self, node, d, i, parent) -> bool:
        setup, spends = self.stored(node.value)
        return self.guarded(node, d, setup, spends, [f"env[{node.name!r}] = v"])

    def _counter(self, node, d, sign: str) -> bool:
        """``gain`` / ``pay`` as ``s_gain`` / ``s_pay``: the seat and a whole amount checked, a payment
        the seat can afford; the supply (and a gain's cap) as they apply them."""
        cdef = self.p.counters[node.counter]
        supply, cap = cdef["supply"], cdef["cap"]
        seat, s1 = self.operand(node.seat) if node.seat is not None else ("env.get('me')", False)
        amount, s2 = self.operand(node.amount)
        setup = self.seat(seat) + [
            f"a = {amount}",
            "if type(a) is not int or not 0 <= a <= MAX_NUMBER: raise _Fallback",
            "cs = rt.counters",
            f"row = cs[{node.counter!r}]",
        ]
        if sign == "-":
            setup.append("if row[s] < a: raise _Fallback")
            action = ["row[s] -= a"] + ([f"cs[{supply!r}] += a"] if supply is not None else [])
            return self.guarded(node, d, setup, s1 or s2, action)
        action = []
        if supply is not None:
            action += [f"a = min(a, cs[{supply!r}])", f"cs[{supply!r}] -= a"]
        if cap is not None:
            action += [f"room = max(0, {cap!r} - row[s])", "if a > room:"]
            if supply is not None:
                action.append(f"    cs[{supply!r}] += a - room")
            action.append("    a = room")
        action.append("row[s] += a")
        return self.guarded(node, d, setup, s1 or s2, action)

    def s_gain(self, node, d, i, parent) -> bool:
        return self._counter(node, d, "+")

    def s_pay(self, node, d, i, parent) -> bool:
        return self._counter(node, d, "-")

    def s_if(self, node, d, i, parent) -> bool:
        """As ``s_if`` runs direct: the conditions in turn (each under the ``else`` of the one before),
        the body of the first that holds written in place."""
        for k, (cond, body) in enumerate(node.branches):
            code, spends = self.operand(cond)
            b = self.new("_b")
            self.value(d + k, b, code, spends, cond)
            self.w(d + k, f"if {b}:")
            self.block(body, d + k + 1, i, body.inline)
            self.w(d + k, "else:")
        last = d + len(node.branches)
        if node.other is not None:
            self.block(node.other, last, i, node.other.inline)
        else:
            self.w(last, "pass")
        return True

    def value(self, d: int, name: str, code: str, spends: bool, fn) -> None:
        """``name = code``; when it raises, the budget is restored and the expression's own function
        decides (its value, or its error)."""
        if spends:
            self.w(d, "sp = rt.spent")
        self.w(d, "try:")
        self.w(d + 1, f"{name} = {code}")
        self.w(d, "except _Fallback:")  # its hand-over: the expression's own function decides
        if spends:
            self.w(d + 1, "rt.spent = sp")
        self.w(d + 1, f"{name} = {self.const(fn, '_f')}(rt, env)")
        self.w(d, "except Exception as exc:")  # its function's rule error, else the code written here is wrong
        if spends:
            self.w(d + 1, "rt.spent = sp")
        ast = getattr(fn, "mason_ast", None)
        where_ = where(ast[0]) if ast else "an expression"
        self.w(d + 1, f"{name} = _disagree(exc, {self.const(fn, '_f')}, rt, env, {self.const(where_, '_p')})")

    def s_for(self, node, d, i, parent) -> bool:
        """As ``s_for`` runs direct: the items, then each round's body in place."""
        items = self.new("_i")
        code, spends = self.operand(node.source)
        self.value(d, items, code, spends, node.source)
        self.w(d, f"if not isinstance({items}, list):")
        self.w(d + 1, f"{items} = _cards_of({items}, {self.const(node, '_n')})")
        self.w(d, f"if {items}:")
        body = node.body
        if body.inline:
            self.w(d + 1, f"rt.spent += len({items})")
            self.w(d + 1, "if rt.spent > rt.item_cap:")
            self.w(d + 2, f"charge(rt, 0, lambda: {self.const(node, '_n')}.place)")
        x = self.new("_x")
        self.w(d + 1, f"for {x} in list({items}):")
        self.w(d + 2, f"env[{node.var!r}] = {x}")
        cards = code in self.gen.zone_lists or code in self.gen.card_lists
        self.body(body, d + 2, i, body.inline, node.var, x, cards, code == SEATS)
        return True

    def body(
        self, block, d: int, parent: int, inline_loop: bool, var: str, py: str, card: bool, seat: bool = False
    ) -> None:
        """``block`` with the variable ``var`` (just put in env) read from the Python name ``py`` too
        (a card for sure when ``card``, a seat when ``seat``), unless a statement in it binds ``var`` again."""
        if _binds(block, var):
            self.block(block, d, parent, inline_loop)
            return
        bound, cards_in, seats_in = self.bound, self.cards_in, self.seats_in
        self.bound = dict(bound, **{var: py})
        self.cards_in = cards_in | {py} if card else cards_in - {py}
        self.seats_in = seats_in | {py} if seat else seats_in - {py}
        try:
            self.block(block, d, parent, inline_loop)
        finally:
            self.bound, self.cards_in, self.seats_in = bound, cards_in, seats_in

    def seat(self, code: str) -> list[str]:
        """Setup lines putting the seat ``code`` gives in ``s``, checked unless it is one for sure."""
        if code in self.seats_in:
            return [f"s = {code}"]
        return [f"s = {code}", "if type(s) is not int or not 0 <= s < rt.n: raise _Fallback"]

    def s_choose(self, node, d, i, parent) -> bool:
        """As ``s_choose`` runs direct, for one card, seat, value or family card (not at random, not
        ``up to``): the options, the chooser, the bot's answer in place (a single option resolves
        itself), the choice bound, its body in place. Anything else, or a check that fails, goes to
        the handler before anything has changed."""
        if node.random or node.up_to is not None:
            return False
        source, s1 = self.operand(node.source)
        g = self.gen
        setup = [f"o = {source}", "if type(o) is not list: raise _Fallback"]
        if node.ckind == "card" and source not in g.zone_lists and source not in g.card_lists:
            setup += [  # as card_ids: every option a card
                "n = len(rt.cards)",
                "for c in o:",
                "    if type(c) is not int or not 0 <= c < n: raise _Fallback",
            ]
        if node.by is not None:
            seat, s2 = self.operand(node.by)
            setup += self.seat(seat)
        else:
            s2 = False
            setup += ["s = env.get('me')", "if s is None: s = rt.turn_seat_now", "if s is None: raise _Fallback"]
        setup += [
            "pick = rt.answerers.get(s) if rt.answerers is not None else None",
            "if pick is None: raise _Fallback",
        ]
        self.guarded(node, d, setup, s1 or s2, [], parent)
        e = d + 1
        self.w(e, "if not o:")
        self.w(e + 1, "v = None")
        self.w(e, "else:")
        if node.optional:
            self.w(e + 1, "o = o + [None]")
        self.w(e + 1, "if len(o) == 1:")
        self.w(e + 2, "st = rt.st")
        self.w(e + 2, "st['forced'] = st.get('forced', 0) + 1")
        self.w(e + 2, "v = o[0]")
        self.w(e + 1, "else:")
        self.w(e + 2, "v = o[answered_in_place(rt, pick, s, o)]")
        card = node.ckind == "card"
        if not card:  # a card option is a card number (checked above, or an item of a zone): stored as it is
            self.w(e, "t = type(v)")
            self.w(e, "if t is list or t is dict or (t is int and not -MAX_NUMBER <= v <= MAX_NUMBER): v = _plain(v)")
        self.w(e, f"env[{node.var!r}] = v")
        if node.body is not None:
            chosen = self.new("_v")
            self.w(e, f"{chosen} = v")
            self.w(e, "if v is not None:" if card else "if v is not None and v != []:")
            self.body(node.body, e + 1, i, False, node.var, chosen, card)
        return True

    def s_repeat(self, node, d, i, parent) -> bool:
        """As ``s_repeat`` runs direct: each round's body in place, the rounds counted against STEP_CAP."""
        n, seen, steps = self.new("_r"), self.new("_d"), self.new("_c")
        code, spends = self.operand(node.count)
        self.value(d, n, code, spends, node.count)
        self.w(d, f"{n} = _amount_of({n}, {self.const(node, '_n')})")
        self.w(d, f"{seen}, {steps} = rt.st['decisions'], 0")
        self.w(d, f"for _ in range({n}):")
        self.block(node.body, d + 1, i, False)
        self.w(d + 1, f"{steps} += 1")
        self.w(d + 1, f"if {steps} > _machine.STEP_CAP:")
        self.w(d + 2, f"{seen}, {steps} = _afresh(rt, {seen}), 0")
        return True


def _binds(block, var: str) -> bool:
    """Whether a statement in ``block`` (at any depth) binds the local ``var``: ``let``/``set`` of it,
    or a ``for`` or a choice naming it."""
    for node in block.stmts:
        if node.kind == "set_local" and node.name == var:
            return True
        if node.kind in ("for", "choose") and node.var == var:
            return True
        for value in node.__dict__.values():
            for part in value if isinstance(value, (list, tuple)) else (value,):
                for sub in part if isinstance(part, tuple) else (part,):
                    if getattr(sub, "kind", None) == "block" and _binds(sub, var):
                        return True
    return False


def _where_stmt(node) -> str:
    """How an internal error names a statement written in place: its kind and rule-file place."""
    return f"{getattr(node, 'place', None) or '?'}: statement '{node.kind}'"


def _wrong(exc, where_: str):
    """A statement's code written in place raised ``exc`` where its handler ran it without a rule error."""
    raise FastFormError(
        f"{where_}: its fast form raised {type(exc).__name__}: {exc} where the reference path gives a result"
    )


def compile_block(block, program):
    """The generated function of ``block`` (see the module's doc), made once per block."""
    fn = block.direct
    if fn is not None:
        return fn
    wr = _Writer(program)
    wr.block(block, 2, 0, False)
    body = wr.lines
    src = "\n".join(
        wr.gen.helpers
        + [
            f"def block_{block.id}(rt, env, fr):",  # named by its node, for profiles
            "    stack = rt.st['stack']",
            "    depth = len(stack)",
            "    i = 0",
            "    try:",
            *(body or ["        pass"]),
            "    except (PlayError, RecursionError) as exc:",
            "        _blame(exc, _B[i])",
        ]
    )
    ns = dict(
        wr.gen.consts,
        _B=tuple(wr.blame),
        _blame=_blame,
        PlayError=PlayError,
        MAX_NUMBER=MAX_NUMBER,
        _machine=machine,
        **_HELPERS,
        _plain=_plain,
        _amount_of=_amount_of,
        _cards_of=_cards_of,
        _afresh=_afresh,
        _wrong=_wrong,
        card_ids=card_ids,
        answered_in_place=answered_in_place,
        charge=charge,
        drain=drain,
        _SPLIT=_SPLIT,
        zone_split=zone_split,
    )
    exec(_code(src), ns)
    fn = block.direct = ns[f"block_{block.id}"]
    fn.source = src
    return fn
