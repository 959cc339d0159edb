"""DSL trees in words, for the rulebook (``mason rules``): each node type describes itself.

``Describer(lexicon).block(tree)`` gives the lines of an effect (``Gain 2 gold.``, ``If ...:`` with
the lines it governs indented below), ``.expr(tree)`` one expression as a phrase (``the number of
cards in your hand``). No output holds the DSL's own spelling: no ``==``, no brackets of a list
or comprehension, no ``x if c else y``. The game's declarations (what a name is: a counter, a zone,
a value...) come in a ``Lexicon``, so that this module knows no game; a builtin or procedure may
give its words in ``PHRASES`` (``{0}``, ``{1}`` for its arguments), others read as their name in
words with their arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mason.dsl import ast as A


@dataclass
class Lexicon:
    """What a game's names stand for, as the describer needs it (built by the caller from a game).

    ``counters``/``zones``/``vars``: name -> (scope ``seat`` or ``game``, words); ``counter_one``: a
    counter's word for one unit; ``values``: named values -> words; ``things``: names that stand for
    a thing of the game (a board, a component type, a set member) -> words; ``turn_cards``: families
    whose card is the card of the turn; ``renames``: names read as other words (a value's parameter
    ``card`` as ``the card``, the scored seat ``s`` as ``the player``).
    """

    counters: dict = field(default_factory=dict)
    counter_one: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)
    vars: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    things: dict = field(default_factory=dict)
    turn_cards: dict = field(default_factory=dict)
    renames: dict = field(default_factory=dict)
    yes_no: set = field(default_factory=set)  # named values that are yes or no (read as conditions)


def spaced(name: str) -> str:
    """An id in words: ``build_cost`` as ``build cost``."""
    return str(name).replace("_", " ")


# Names every effect can use (model/names.py, CONTEXT_NAMES), in words.
CONTEXT_WORDS = {
    "me": "you",
    "self": "this card",
    "owner": "its owner",
    "seat": "the player whose turn it is",
    "players": "the number of players",
    "round": "the round number",
    "seats": "every player",
    "others": "the other players",
}

# Builtins and procedures in words: a template over the arguments' words ({0}, {1}, ...), by the
# number of arguments given (a key ``(name, n)`` wins over ``name``).
PHRASES = {
    "count": "the number of {0}",
    "len": "the number of {0}",
    "sum": "the total of {0}",
    ("max", 1): "the largest of {0}",
    ("min", 1): "the smallest of {0}",
    "max": "the largest of {all}",
    "min": "the smallest of {all}",
    "any": "any of {0}",
    "all": "all of {0}",
    "abs": "the absolute value of {0}",
    "first": "the first of {0}",
    "last": "the last of {0}",
    ("range", 1): "the numbers from 0 up to {0} (not included)",
    ("range", 2): "the numbers from {0} up to {1} (not included)",
    "flatten": "all of {0} together",
    "distinct": "the different {0}",
    ("sorted", 1): "{0} in order",
    ("sorted", 2): "{0} in order of {1}",
    "owner": "the owner of {0}",
    "zone": "the place of {0}",
    "seats_from": "every player clockwise from {0}",
    "next_seat": "the player to the left of {0}",
    "prev_seat": "the player to the right of {0}",
    "neighbours": "the neighbours of {0}",
    "covered": "how many different values {0} cover (each counting once)",
    "most": "the one player among {0} with strictly the most of {1}",
    "cards": "every {0} card",
    "seat_name": "{0}",
    "automated": "{0} is an automated seat",
    "automaton_seat": "the seat of {0}",
    "card_name": "the name of {0}",
    "str": "{0}",
    ("counted", 2): "{0} {1}",
    ("counted", 3): "{0} {1}",
    "done": "the times {0} was done this turn",
    # primitives' builtins and procedures most rules use (others read as their name in words)
    "holding": "what {0} holds of {1}",
    "gain_named": "{0} gains {2} {1}",
    "pay_named": "{0} pays {2} {1}",
    "return_named": "{0} returns {2} {1}",
    "pawn_put": "{1} stands on {2} of {0}",
    "ring_add_tokens": "add {3} {2} to {1} of {0}",
}
# procedures that change a counter named by a text: "who pays 1 coin"
COUNTED = {"gain_named": "gain", "pay_named": "pay", "return_named": "return"}
# procedures that are no rule a player follows: a rule-file check that stops a broken game
SILENT = {"fail"}
# a name of a query that ends in one of these words reads without "of": "the pawn at who"
PREPOSITIONS = ("at", "of", "in", "on", "from", "to", "for", "by", "with")

COMPARE = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "in": "is among",
    "not in": "is not among",
}
ARITH = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)", "%": "modulo"}
KINDS = {"card": "a card", "seat": "a player", "value": "", "type": "a kind of component"}


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return items[0] if items else "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


def _the(label: str) -> str:
    return label if label.startswith(("the ", "a ", "an ")) else f"the {label}"


# "you" takes the verb without its s: "you pay", not "you pays"
YOU_VERB = re.compile(r"\b([Yy]ou) (hold|pay|gain|return|choose|take|give|stand|get)s\b")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = YOU_VERB.sub(r"\1 \2", text[0].upper() + text[1:])
    return text if text.endswith((":", ".", "?", "!")) else text + "."


class Describer:
    """Words for DSL trees against one game's ``Lexicon``: one handler an expression type (``HANDLED``);
    a statement gives its own words (``Stmt.describe``), with this object's helpers."""

    def __init__(self, lexicon: Lexicon | None = None):
        self.lex = lexicon or Lexicon()
        self.variables: set[str] = set()  # the words of the rules' own variables met (never capitalised)

    # ------------------------------------------------------------------ expressions
    def expr(self, node) -> str:
        """An expression in words, by its node's ``x_<Kind>`` method."""
        return getattr(self, "x_" + type(node).__name__)(node)

    def _inner(self, node) -> str:
        """An operand inside a larger phrase: a condition made of ``and``/``or`` in parentheses."""
        text = self.expr(node)
        listed = isinstance(node, A.Comprehension) and node.func is None  # "(every x in L such that C)"
        return f"({text})" if isinstance(node, (A.BoolOp, A.IfExpr)) or listed else text

    def _of(self, what: str, node) -> str:
        """``what`` of ``node``: ``your gold``, ``s's gold``, ``this card's cost``, ``the gold of the
        owner of d``."""
        who = self.expr(node)
        if who == "you":
            return f"your {what}"
        if isinstance(node, A.Name) and len(who.split()) <= 2:
            return f"{who}'" + ("" if who.endswith("s") and len(who) > 2 else "s") + f" {what}"
        return f"the {what} of {who}"

    def x_Literal(self, node) -> str:
        """A literal in words (a number, a text, yes/no, none)."""
        v = node.value
        if v is True or v is False:
            return "yes" if v else "no"
        if v is None:
            return "none"
        if isinstance(v, str):
            if v in self.lex.things:
                return self.lex.things[v]
            if v in self.lex.counters:  # a counter named by a text: holding(s, "sand")
                return self.lex.counters[v][1]
            return f"“{spaced(v)}”"
        return str(v)

    def x_Name(self, node) -> str:
        """A bare name in words (``you`` for ``me``, a value's or constant's label)."""
        name, lex = node.name, self.lex
        if name in lex.renames:
            return lex.renames[name]
        if name in CONTEXT_WORDS:
            return CONTEXT_WORDS[name]
        if name in lex.turn_cards:
            return f"your {lex.turn_cards[name]}"
        if name in lex.counters:
            scope, label = lex.counters[name]
            return f"your {label}" if scope == "seat" else _the(label)
        if name in lex.zones:
            scope, label = lex.zones[name]
            return f"your {label}" if scope == "seat" else _the(label)
        if name in lex.vars:
            scope, label = lex.vars[name]
            return f"your {label}" if scope == "seat" else label
        if name in lex.values:
            return lex.values[name]
        if name in lex.things:
            return lex.things[name]
        self.variables.add(spaced(name))
        return spaced(name)

    def x_Attr(self, node) -> str:
        """A card's or seat's field in words (``the cost of c``)."""
        return self._of(spaced(node.name), node.obj)

    def x_Index(self, node) -> str:
        """An indexed item in words (``the first of xs``)."""
        i = node.index
        if isinstance(i, A.Literal) and isinstance(i.value, str):
            return f"the {spaced(i.value)} of {self.expr(node.obj)}"
        if isinstance(i, A.Literal) and isinstance(i.value, int) and not isinstance(i.value, bool):
            return f"item {i.value + 1} of {self.expr(node.obj)}"
        at = self.expr(i)
        return f"the item {f'({at})' if ' ' in at else at} of {self.expr(node.obj)}"

    def x_Call(self, node) -> str:
        """A call in words: a named value's label or a builtin's phrase."""
        f, lex = node.func, self.lex
        args = list(node.args) + [v for _k, v in node.kwargs]
        if f in lex.counters and len(args) == 1:
            return self._of(lex.counters[f][1], args[0])
        if f in lex.zones and len(args) == 1:
            return self._of(lex.zones[f][1], args[0])
        if f in lex.vars and len(args) == 1:
            return self._of(lex.vars[f][1], args[0])
        if f in lex.values:
            if not args:
                return lex.values[f]
            said = _and([self._inner(a) for a in args])
            if f in lex.yes_no:  # a value that is yes or no: "protected is true for s"
                return f"{spaced(f)} is true for {said}"
            return f"{lex.values[f]}{' ' if lex.values[f].endswith(' of') else ' of '}{said}"
        if f in ("count", "len") and len(args) == 1 and self._is_zone(args[0]):
            return f"the number of cards in {self.expr(args[0])}"
        if f in ("count", "len") and len(args) == 1 and isinstance(args[0], A.Comprehension) and args[0].func is None:
            return self.expr(A.Comprehension(*(getattr(args[0], n) for n in args[0]._fields[:4]), func="count"))
        return self._phrase(f, args)

    def _is_zone(self, node) -> bool:
        name = node.name if isinstance(node, A.Name) else node.func if isinstance(node, A.Call) else None
        return name in self.lex.zones

    def _phrase(self, f: str, args: list) -> str:
        said = [self._inner(a) for a in args]
        if f == "cards" and len(args) == 1 and isinstance(args[0], A.Literal):
            said = [spaced(str(args[0].value))]
        if f in ("counted",) and len(args) >= 2 and isinstance(args[1], A.Literal):
            said[1] = spaced(str(args[1].value))
        template = PHRASES.get((f, len(args))) or PHRASES.get(f)
        if template:
            return YOU_VERB.sub(r"\1 \2", template.format(*said, all=_and(said)))
        if not said:
            return f"the {spaced(f)}"
        joiner = " " if spaced(f).rsplit(" ", 1)[-1] in PREPOSITIONS else " of "
        return f"the {spaced(f)}{joiner}{_and(said)}"

    def x_Comprehension(self, node) -> str:
        """A list comprehension or an aggregate over one in words."""
        var = self.lex.renames.get(node.var, spaced(node.var))
        src = self._inner(node.source)
        cond = f" such that {self.expr(node.cond)}" if node.cond is not None else ""
        item_is_var = isinstance(node.item, A.Name) and node.item.name == node.var
        item = self._inner(node.item)
        if node.func in ("count", "len"):
            return f"the number of {var} in {src}{cond}"
        if node.func == "sum":
            return f"the total of {item} for every {var} in {src}{cond}"
        if node.func == "any":
            return f"at least one {var} in {src}{cond} meets: {item}"
        if node.func == "all":
            return f"every {var} in {src}{cond} meets: {item}"
        if node.func in ("max", "min"):
            return f"the {'largest' if node.func == 'max' else 'smallest'} {item} for every {var} in {src}{cond}"
        listed = f"every {var} in {src}{cond}" if item_is_var else f"{item} for every {var} in {src}{cond}"
        if node.func is None:
            return listed
        return self._phrase_words(node.func, f"({listed})")

    def _phrase_words(self, f: str, said: str) -> str:
        template = PHRASES.get((f, 1)) or PHRASES.get(f)
        return template.format(said, all=said) if template else f"the {spaced(f)} of {said}"

    def x_ListLit(self, node) -> str:
        """A written list in words (its items joined)."""
        if not node.items:
            return "nothing"
        return _and([self._inner(i) for i in node.items])

    def _pieces(self, node) -> list | None:
        """The parts of a text joined by ``+`` (``name + " (" + str(n) + ")"``), or None when no part
        is written as a text."""
        if isinstance(node, A.BinOp) and node.op == "+":
            left, right = self._pieces(node.left), self._pieces(node.right)
            if left is not None or right is not None:
                return (left if left is not None else [node.left]) + (right if right is not None else [node.right])
            return None
        if isinstance(node, A.Literal) and isinstance(node.value, str):
            return [node]
        return None

    def _text(self, pieces) -> str:
        """A text built of parts: its words with each computed part in angle quotes."""
        out = []
        for p in pieces:
            if isinstance(p, A.Literal) and isinstance(p.value, str):
                out.append(p.value)
            elif isinstance(p, A.Call) and p.func == "str" and len(p.args) == 1:
                out.append(f"‹{self.expr(p.args[0])}›")
            else:
                out.append(f"‹{self.expr(p)}›")
        return "“" + "".join(out) + "”"

    def x_BinOp(self, node) -> str:
        """An operator in words (``at least``, ``plus``, ...)."""
        op = node.op
        if op == "+":
            pieces = self._pieces(node)
            if pieces is not None and sum(isinstance(p, A.Literal) for p in pieces) * 2 >= len(pieces):
                return self._text(pieces)
        left, right = self._inner(node.left), self._inner(node.right)
        if op in COMPARE:
            if op in ("==", "!=") and isinstance(node.right, A.Literal) and node.right.value is None:
                return f"{left} is {'not ' if op == '!=' else ''}none"
            if op in ("in", "not in") and isinstance(node.right, A.ListLit):
                return f"{left} is {'not ' if op == 'not in' else ''}one of {right}"
            return f"{left} {COMPARE[op]} {right}"
        return f"{left} {ARITH.get(op, op)} {right}"

    def x_BoolOp(self, node) -> str:
        """An ``and``/``or`` in words."""
        return f" {node.op} ".join(self._inner(i) for i in node.items)

    def x_Not(self, node) -> str:
        """A negated condition in words."""
        inner = node.operand
        if isinstance(inner, A.BinOp) and inner.op == "in":
            return self.expr(A.BinOp("not in", inner.left, inner.right))
        if isinstance(inner, A.BinOp) and inner.op == "==":
            return self.expr(A.BinOp("!=", inner.left, inner.right))
        if isinstance(inner, A.Call) and inner.func in self.lex.yes_no and inner.args:
            return self.expr(inner).replace(" is true for ", " is not true for ", 1)
        return f"not {self._inner(inner)}"

    def x_Neg(self, node) -> str:
        """A negated number in words."""
        return f"minus {self._inner(node.operand)}"

    def x_IfExpr(self, node) -> str:
        """A conditional expression in words."""
        return f"{self._inner(node.then)} when {self.expr(node.cond)}, otherwise {self._inner(node.other)}"

    # ------------------------------------------------------------------ statements
    def block(self, node, depth: int = 0) -> list[tuple[int, str]]:
        """The lines of an effect: (depth, sentence) pairs, a governed block one deeper."""
        body = node.body if isinstance(node, A.Block) else node
        out: list[tuple[int, str]] = []
        for stmt in body:
            out += stmt.describe(self, depth)  # each statement's own words (its class, runtime/statements/)
        return out

    def _line(self, depth, text) -> list[tuple[int, str]]:
        first = text.split(" ", 1)[0]
        if first in self.variables and first not in CONTEXT_WORDS.values():  # "who takes a turn", not "Who"
            said = _sentence(text)
            return [(depth, first + said[len(first) :])]
        return [(depth, _sentence(text))]

    def _amount(self, amount, counter: str) -> str:
        one = self.lex.counter_one.get(counter)
        label = (self.lex.counters.get(counter) or ("seat", spaced(counter)))[1]
        n = self.expr(amount)
        return f"{n} {one if one and n == '1' else label}"

    def _subject(self, seat, verb: str) -> str:
        """``gain`` (you, unsaid) or ``P's owner gains``."""
        if seat is None:
            return verb
        who = self.expr(seat)
        return verb if who == "you" else f"{who} {verb}s"

    def _facing(self, node) -> str:
        if node.facing == "seen":
            return f", seen by {self.expr(node.seen_by)}" if node.seen_by is not None else ""
        return f" face {node.facing}" if node.facing else ""

    def _governed(self, head: str, body, d) -> list[tuple[int, str]]:
        inner = self.block(body, d + 1)
        return self._line(d, head + ":") + (inner or [(d + 1, "Nothing happens.")])

    def _prompt(self, prompt: str) -> str:
        return f" (“{prompt}”)" if prompt else ""

    def s_Block(self, node, d):
        """A nested block's lines at depth ``d``."""
        return self.block(node, d)


# The expression node types the describer handles; a statement describes itself (its ``describe``).
# Checked against every node type the AST declares (a new node without words fails
# tests/engine/test_rulebook.py).
HANDLED = {n[2:] for n in dir(Describer) if n.startswith(("x_", "s_"))}


def handled() -> set[str]:
    """Every node type with words: the expressions' handlers here and each statement class with a ``describe``."""
    return HANDLED | {name for name, cls in A.NODE_TYPES.items() if "describe" in vars(cls)}


def lines(described: list[tuple[int, str]], pad: str = "", step: str = "  ") -> list[str]:
    """Described lines as text, each ``pad`` plus ``step`` for each level."""
    return [pad + step * depth + text for depth, text in described]
