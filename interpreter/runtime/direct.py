"""Blocks compiled to Python for running direct: one generated function per block, statements in place.

When every seat is answered in place (``rt.direct``, runtime/answers.py), nothing pauses the rules, and
``machine.run_now`` runs a block (a branch, a loop's round, a choice's body, a frame's block) to its
end at once. This module turns such a block into the source of ONE Python function,
``block_<id>(rt, env, fr)``, that does what ``run_now`` does with the block's statements' runs. Each
statement is written by its own definition's fast form (``emit``, beside its ``run`` in
``mason.runtime.statements``; see ``mason.dsl.constructs``), given the ``Writer`` of this module and
its helpers (an operand's code, a guarded setup and action, cards, a seat, a stored value, a body
with a bound name). Today ``let``, ``set`` of a local, a variable or a card state, ``move``, ``draw``,
``reveal``, ``gain`` and ``pay`` (supply and cap included), ``choose`` of one card, seat, value or
family card (the bot's answer asked in place), and ``if`` / ``for`` / ``repeat`` (their bodies in
place too) have one. Their operands are the expressions' generated code (dsl/fastexpr.py) written
inline; a loop's item and a choice are read from Python names in their bodies unless bound again
there. A statement without a fast form (or whose ``emit`` declines, returning False) calls its
``run``, and after one that may push frames (triggers, a turn, a ``while``) the frames run to their
end before the next statement (``machine.drain``), or the block ends when the stack was cut (``end
game``), as ``run_now`` does. A block of inline statements (``block.inline``) gets the same function,
which ``machine.run_inline`` calls when nothing is narrated. ``runtime.engine.prepare`` makes every
block's function when a program is compiled.

The generated code decides no error itself: a statement written in place evaluates its operands and
checks them (a card is a card, a number a whole number in range) before it changes anything, and
when anything there raises or a check fails, it restores the item budget and calls the statement's
``run``, which evaluates the operands again and raises the error with its message, or does what
the statement does in the case the fast form leaves out (none given as the cards, a tuple); where
``run`` then gives a result, the fast form was wrong: an internal error (``FastFormError``). Errors
are placed as ``run_now``, ``run_inline`` and the inline loops of ``If.run`` / ``For.run`` place
them: a statement's error at the statement; Python's recursion limit at the statement whose runner
catches it; an error from frames run by ``drain`` as the enclosing runner would see it.

Nothing narrates here: ``rt.direct`` is only set for games that narrate nothing (``play_game``), and
``run_inline`` calls these functions only when ``rt.narrate`` is false.
tests/engine/test_direct_blocks.py holds the generated form to the handlers' states and errors.
"""

from __future__ import annotations

from mason.dsl import ast as A
from mason.dsl.builtins import MAX_NUMBER, charge
from mason.dsl.constructs import KINDS
from mason.dsl.fastexpr import _HELPERS, FastFormError, _code, _Gen, _Unsupported, where
from mason.errors import PlayError
from mason.runtime import machine
from mason.runtime.answers import answered_in_place
from mason.runtime.machine import (
    _SPLIT,
    _afresh,
    _at_statement,
    _cards_of,
    card_ids,
    drain,
    is_plain,
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


class Writer:
    """Writes one block's function: ``lines`` of source, ``consts`` its namespace, ``blame`` the table
    of places an error is given (indexed by ``line_blame``: per line written, the statement it belongs to).

    What a statement's ``emit(w, node, d, i, parent)`` is given: ``w.operand(fn)`` an operand's code,
    ``w.guarded(node, d, setup, spends, action)`` a checked setup then the change, ``w.cards``,
    ``w.seat``, ``w.stored``, ``w.moved`` the common setups, ``w.value`` an expression's value,
    ``w.block`` / ``w.body`` a nested block, ``w.w(d, line)`` a line, ``w.const`` / ``w.new`` names."""

    def __init__(self, program):
        self.p = program
        self.gen = _Gen({}, program)
        self.lines: list[str] = []
        self.blame: list[tuple] = [(None, None)]  # 0: let errors through unplaced
        self.cur = 0  # the blame entry of the statement being written
        self.line_blame: list[int] = []  # per line written, the entry an error raised there is blamed on
        self.ids: dict = {}
        self.bound: dict = {}  # local variable -> the Python name holding it (a loop's item, a choice)
        self.cards_in: set = set()  # those Python names that hold a card for sure (an item of a zone)
        self.seats_in: set = set()  # those that hold a seat for sure (an item of ``seats``)
        self.whole_zone = False  # whether the cards of the last ``cards`` are one zone's whole list
        self.checks_stack = False  # whether a statement may push frames (``after``): the block reads the stack

    def const(self, value, prefix="_o") -> str:
        """The generated code's name for the Python object ``value`` (one name per object)."""
        key = id(value)
        name = self.ids.get(key)
        if name is None:
            name = self.ids[key] = f"{prefix}{len(self.ids)}"
            self.gen.consts[name] = value
        return name

    def new(self, prefix) -> str:
        """A fresh local name with ``prefix`` in the generated function."""
        return self.gen.new(prefix)

    def at(self, pnode, rnode) -> int:
        """Record which statement a generated line blames on error; its index in ``blame``."""
        self.blame.append((pnode, rnode))
        return len(self.blame) - 1

    def w(self, depth: int, text: str) -> None:
        """Write one line of generated code at ``depth`` levels of indentation."""
        self.lines.append("    " * depth + text)
        self.line_blame.append(self.cur)

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
        ``If.run`` / ``For.run``, which lets a RecursionError through to the parent's runner."""
        for node in block.stmts:
            rnode = self.blame[parent][1] if inline_loop else node
            i = self.cur = self.at(node, rnode)
            emit = KINDS[node.kind].emit if node.kind in KINDS else None
            if emit is not None and emit(self, node, d, i, parent):
                continue  # written in place: whatever in it may push frames is followed by its own check
            self.call(node, d)
            if not is_plain(node):
                self.after(d, parent)

    def after(self, d: int, parent: int) -> None:
        """After a statement that may push frames: run them to their end, or end the block if the
        stack was cut (an error from the frames is placed as the enclosing runner would)."""
        self.checks_stack = True
        self.w(d, "if len(stack) != depth:")
        self.w(d + 1, "if len(stack) > depth:")
        cur, self.cur = self.cur, parent  # an error from the frames: the enclosing runner's
        self.w(d + 2, "drain(rt, depth)")
        self.cur = cur
        self.w(d + 1, "if len(stack) < depth:")
        self.w(d + 2, "return")

    def call(self, node, d: int) -> None:
        """Write a call of a statement's reference handler (a kind with no fast form)."""
        handler = machine.runner_of(node.kind)
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
        self.whole_zone = code in g.zone_lists
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

    def moved_zone(self, key: str, facing: str) -> list[str]:
        """Lines that move every card of the zone list in ``x`` to the top of the zone whose key is in
        ``k``, in order, as ``move_card`` moves them one by one: they all leave ``x`` (a card lies in the
        zone its ``z`` and ``o`` name), so the list is emptied at once and each card renamed."""
        lines = ["cs = x[:]", "x.clear()", "rt.zones[k].extend(cs)", f"z, o = {_split(key)}", "for c in cs:"]
        return lines + ["    card = rt.cards[c]", "    card['z'], card['o'] = z, o", *_faced(facing, "    ")]

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
        return lines + [f"card['z'], card['o'] = {_split(key)}", *_faced(facing)]

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
        if value in self.seats_in or value in self.cards_in or _truth(node):
            return [f"v = {value}"], spends  # a seat, a card or true/false for sure: stored as it is
        if self._number(node):  # a number for sure (or the expression raised): only its range to check
            return [f"v = {value}", "if not -MAX_NUMBER <= v <= MAX_NUMBER: v = _plain(v)"], spends
        lines = [
            f"v = {value}",
            "t = type(v)",
            "if t is list or t is dict or (t is int and not -MAX_NUMBER <= v <= MAX_NUMBER): v = _plain(v)",
        ]
        return lines, spends

    def _number(self, node) -> bool:
        """Whether ``node``'s value is a number whenever it has one (a difference, ``//``, a negation,
        ``+`` with a side that is never a list or a text): no list or dict to copy, only its range."""
        t = type(node)
        if t is A.Neg:
            return True
        return t is A.BinOp and (node.op in ("-", "//") or (node.op == "+" and self.gen.never_joined(node)))

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


def _split(key: str) -> str:
    """Code giving the zone name and owner of the zone key in ``k`` (``key`` its code: a literal zone
    of the game's is split here)."""
    if key.startswith("'") and key.endswith("'") and key[1:-1].isidentifier():
        return f"{key}, None"
    return "_SPLIT.get(k) or zone_split(k)"


def _faced(facing: str, pad: str = "") -> list[str]:
    """Lines that set a moved ``card``'s facing and forget who saw it, as ``move_card`` does (every card
    has both keys: state.new_state; a save's cards are checked against save.schema.json)."""
    return [f"{pad}card['up'] = {facing == 'up'}", f"{pad}if card['seen']: card['seen'] = []"]


_TRUTH_OPS = frozenset(("==", "!=", "<", "<=", ">", ">=", "in", "not in"))


def _truth(node) -> bool:
    """Whether ``node``'s value is true or false for sure: a comparison, ``not``, or ``and``/``or`` of such."""
    t = type(node)
    if t is A.BinOp:
        return node.op in _TRUTH_OPS
    if t is A.Not:
        return True
    if t is A.BoolOp:
        return all(_truth(i) for i in node.items)
    return t is A.Literal and type(node.value) is bool


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
    wr = Writer(program)
    wr.block(block, 2, 0, False)
    body = wr.lines or ["        pass"]
    head = wr.gen.helpers + [f"def block_{block.id}(rt, env, fr):"]  # named by its node, for profiles
    if wr.checks_stack:  # a statement that may push frames: the stack's depth checked after it
        head += ["    stack = rt.st['stack']", "    depth = len(stack)"]
    head.append("    try:")
    # an error is blamed by the line of this function it came through (its traceback's first entry)
    src = "\n".join(
        head
        + body
        + ["    except (PlayError, RecursionError) as exc:", "        _blame(exc, _B[_L[exc.__traceback__.tb_lineno]])"]
    )
    lines = [0] * (1 + sum(h.count("\n") + 1 for h in head)) + (wr.line_blame or [0]) + [0, 0]
    ns = dict(
        wr.gen.consts,
        _B=tuple(wr.blame),
        _L=tuple(lines),
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
