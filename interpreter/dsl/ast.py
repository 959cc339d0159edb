"""AST of the rules DSL: frozen records, each carrying its (line, col) inside the DSL text."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, ClassVar, Optional

NODE_TYPES: dict[str, type] = {}


class PlacedText(str):
    """A string literal's text that remembers where it starts (for errors inside its ``{expr}``)."""

    line: int | None
    col: int | None

    def __new__(cls, text, line=None, col=None):
        self = super().__new__(cls, text)
        self.line, self.col = line, col
        return self


class Node:
    """An AST node: a frozen record of its fields, plus its place ``line``, ``col`` (keyword-only,
    left out of equality and hashing), as ``@dataclass(frozen=True)`` made them: the same
    constructor, equality, hash and repr. Built by the ``node`` decorator from the class's annotated
    fields without generating code per class (creating some forty dataclasses took about 50 ms of
    every command's start)."""

    _fields: tuple[str, ...] = ()  # the node's fields in order, its place (line, col) apart
    _defaults: dict = {}
    line: int  # the place in the DSL text (set by __init__; no field)
    col: int

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        NODE_TYPES[cls.__name__] = cls

    def __init__(self, *args, line: int = 0, col: int = 0, **kw):
        names, d = self._fields, self.__dict__
        if len(args) > len(names):
            raise TypeError(
                f"{type(self).__name__}() takes {len(names)} positional arguments but {len(args)} were given"
            )
        d["line"], d["col"] = line, col
        for name, value in zip(names, args):
            d[name] = value
        for name in names[len(args) :]:
            if name in kw:
                d[name] = kw.pop(name)
            elif name in self._defaults:
                d[name] = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__}() missing argument: '{name}'")
        if kw:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{next(iter(kw))}'")

    def _key(self) -> tuple:
        d = self.__dict__
        return tuple(d[n] for n in self._fields)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        d = self.__dict__
        inside = ", ".join(f"{n}={d[n]!r}" for n in ("line", "col", *self._fields))
        return f"{type(self).__qualname__}({inside})"

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field '{name}'")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field '{name}'")


def node(cls):
    """Make ``cls`` a node type: its fields are its annotated names after its bases' (a class attribute
    of the same name is the field's default), as a dataclass's are; a ``ClassVar`` is no field."""
    notes = cls.__dict__.get("__annotations__", {})
    own = [n for n, t in notes.items() if n not in ("line", "col") and not str(t).startswith("ClassVar")]
    base = next((b for b in cls.__mro__[1:] if issubclass(b, Node)), Node)
    inherited = [n for n in base._fields if n not in own]
    cls._fields = tuple(inherited + own)
    cls._defaults = {**base._defaults, **{n: cls.__dict__[n] for n in own if n in cls.__dict__}}
    return cls


def walk(node) -> list:
    """Every AST node reachable from ``node`` (itself included)."""
    out, todo = [], [node]
    while todo:
        x = todo.pop()
        if isinstance(x, Node):
            out.append(x)
            todo.extend(getattr(x, f) for f in x._fields)
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
    return out


# ---------------------------------------------------------------- expressions
@node
class Expr(Node):
    """The base of the expression nodes of the DSL's tree."""

    pass


@node
class Literal(Expr):
    """A number, text, true/false or none written as such."""

    value: object


@node
class Name(Expr):
    """A bare name: a variable, a named value, a constant or a seat word."""

    name: str


@node
class Attr(Expr):
    """A field of a card or a seat's value read with a dot (``c.cost``)."""

    obj: Expr
    name: str


@node
class Index(Expr):
    """An item of a list or mapping read with brackets (``xs[0]``)."""

    obj: Expr
    index: Expr


@node
class Call(Expr):
    """A call by name: a named value, a builtin or a primitive's query, with its arguments."""

    func: str
    args: tuple
    kwargs: tuple = ()  # ((name, Expr), ...)


@node
class Comprehension(Expr):
    """``[item for var in source if cond]`` or ``func(item for var in source if cond)``."""

    item: Expr
    var: str
    source: Expr
    cond: Optional[Expr]
    func: Optional[str] = None  # None for a list comprehension


@node
class ListLit(Expr):
    """A list written out in brackets."""

    items: tuple


@node
class BinOp(Expr):
    """An arithmetic or comparison operator between two expressions."""

    op: str
    left: Expr
    right: Expr


@node
class BoolOp(Expr):
    """``and`` or ``or`` over two or more expressions."""

    op: str  # 'and' | 'or'
    items: tuple


@node
class Not(Expr):
    """The negation ``not a`` of a condition."""

    operand: Expr


@node
class Neg(Expr):
    """The arithmetic negation ``-a`` of a number."""

    operand: Expr


@node
class IfExpr(Expr):
    """A conditional expression ``a if cond else b``."""

    then: Expr
    cond: Expr
    other: Expr


# ---------------------------------------------------------------- statements
@node
class Stmt(Node):
    """A statement: each kind is one subclass, its whole definition (see ``mason.dsl.constructs``)."""

    rules: ClassVar[dict] = {}  # its grammar rules: name -> "simple" | "compound"
    grammar: ClassVar[str] = ""  # those rules (and its helper rules) in Lark
    parts: ClassVar[dict] = {}  # helper rule -> fn(meta, children): its value in the tree mapping
    kinds: ClassVar[tuple] = ()  # the compiled kinds it makes (each runs by ``run`` or ``run_<kind>``)
    inline: ClassVar[bool] = False  # never pushes a frame nor waits: runs inline in a block
    plain: ClassVar[bool] = False  # inline and calls no primitive's code: nothing to look for after it
    emit: ClassVar[Any] = None  # its fast form: emit(w, node, d, i, parent) -> bool (see runtime/direct.py)

    @classmethod
    def from_tree(cls, rule: str, meta, c: list, place: dict):
        """The node of a parse of one of its ``rules`` (``c``: the children, already mapped)."""
        return cls(*c, **place)

    def compile(self, c, scope):
        """Check this statement and give its compiled node (``c``: the StmtCompiler)."""
        raise NotImplementedError(type(self).__name__)

    @staticmethod
    def run(rt, env, node, fr) -> None:
        """Run a compiled node of this statement (the reference semantics)."""
        raise NotImplementedError

    def describe(self, w, d: int) -> list:
        """Its words in the rulebook: ``(depth, sentence)`` lines, from the describer ``w`` (dsl/describe.py)."""
        raise NotImplementedError(type(self).__name__)


@node
class Block(Node):
    """A block of statements run in order."""

    body: tuple
