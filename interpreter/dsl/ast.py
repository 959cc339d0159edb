"""AST of the rules DSL: frozen dataclasses, each carrying its (line, col) inside the DSL text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

NODE_TYPES: dict[str, type] = {}


class PlacedText(str):
    """A string literal's text that remembers where it starts (for errors inside its ``{expr}``)."""

    def __new__(cls, text, line=None, col=None):
        self = super().__new__(cls, text)
        self.line, self.col = line, col
        return self


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, compare=False, kw_only=True)
    col: int = field(default=0, compare=False, kw_only=True)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        NODE_TYPES[cls.__name__] = cls


def walk(node) -> list:
    """Every AST node reachable from ``node`` (itself included)."""
    out, todo = [], [node]
    while todo:
        x = todo.pop()
        if isinstance(x, Node):
            out.append(x)
            todo.extend(getattr(x, f) for f in x.__dataclass_fields__ if f not in ("line", "col"))
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
    return out


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class Literal(Expr):
    value: object


@dataclass(frozen=True)
class Name(Expr):
    name: str


@dataclass(frozen=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple
    kwargs: tuple = ()  # ((name, Expr), ...)


@dataclass(frozen=True)
class Comprehension(Expr):
    """``[item for var in source if cond]`` or ``func(item for var in source if cond)``."""

    item: Expr
    var: str
    source: Expr
    cond: Optional[Expr]
    func: Optional[str] = None  # None for a list comprehension


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple


@dataclass(frozen=True)
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp(Expr):
    op: str  # 'and' | 'or'
    items: tuple


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True)
class IfExpr(Expr):
    then: Expr
    cond: Expr
    other: Expr


# ---------------------------------------------------------------- statements
@dataclass(frozen=True)
class Stmt(Node):
    pass


@dataclass(frozen=True)
class Block(Node):
    body: tuple


@dataclass(frozen=True)
class Gain(Stmt):
    amount: Expr
    counter: str
    seat: Optional[Expr]


@dataclass(frozen=True)
class Pay(Stmt):
    amount: Expr
    counter: str
    seat: Optional[Expr]


@dataclass(frozen=True)
class Transfer(Stmt):
    amount: Expr
    counter: str
    source: Expr
    dest: Expr


@dataclass(frozen=True)
class Set(Stmt):
    target: Expr
    value: Expr


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Move(Stmt):
    cards: Expr
    dest: Expr
    place: str = "top"  # top | bottom
    facing: str = ""  # "" | up | down | seen
    seen_by: Optional[Expr] = None


@dataclass(frozen=True)
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr
    facing: str = ""
    seen_by: Optional[Expr] = None


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    cards: Expr
    to: Optional[Expr]


@dataclass(frozen=True)
class Swap(Stmt):
    first: Expr
    second: Expr


@dataclass(frozen=True)
class Emit(Stmt):
    event: str
    args: tuple  # ((name, Expr), ...)


@dataclass(frozen=True)
class Turn(Stmt):
    """``turn S [as C] [only GROUP | after GROUP]``: ``only`` offers just that group's actions and ends
    the turn once one is done; ``after`` starts the turn with that group already done."""

    seat: Expr
    card: Optional[Expr]
    mode: str = ""
    group: str = ""


@dataclass(frozen=True)
class Do(Stmt):
    """``do name(args)``: run a registered procedure (a primitive that changes the state)."""

    proc: str
    args: tuple
    kwargs: tuple = ()


@dataclass(frozen=True)
class Say(Stmt):
    text: str


@dataclass(frozen=True)
class Pass(Stmt):
    pass


@dataclass(frozen=True)
class StopTurn(Stmt):
    pass


@dataclass(frozen=True)
class EndGame(Stmt):
    pass


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple  # ((cond, Block), ...)
    other: Optional[Block]


@dataclass(frozen=True)
class For(Stmt):
    var: str
    source: Expr
    body: Block


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass(frozen=True)
class While(Stmt):
    cond: Expr
    body: Block


@dataclass(frozen=True)
class Choose(Stmt):
    """A decision: pick one item (or, with ``up_to``, a subset) of ``source``; bind it to ``var``."""

    var: str
    source: Expr
    kind: str = "value"  # card | seat | value | character
    optional: bool = False
    random: bool = False
    secret: bool = False
    up_to: Optional[Expr] = None
    by: Optional[Expr] = None
    prompt: str = ""
    body: Optional[Block] = None


@dataclass(frozen=True)
class Option(Node):
    label: str
    cond: Optional[Expr]
    body: Block


@dataclass(frozen=True)
class ChooseOne(Stmt):
    options: tuple
    by: Optional[Expr] = None
    prompt: str = ""
