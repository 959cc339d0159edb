"""One definition per DSL construct: the registries of statements and expression kinds, filled by their definitions.

Statements
----------

A statement kind is ONE class, a subclass of ``mason.dsl.ast.Stmt`` (so it is also the statement's
AST node, its annotated fields the node's fields), decorated with ``@statement``. Side by side it owns:

- ``rules`` and ``grammar``: its grammar rules (Lark text, added to the DSL's grammar; each rule named
  in ``rules`` as ``"simple"`` (one line) or ``"compound"`` (ends with a block)) and ``parts``, the
  mapping of its helper rules' trees (``{rule: fn(meta, children)}``);
- ``from_tree(rule, meta, children, place)``: its mapping from the parse tree to the node;
- ``compile(self, c, scope)``: its static checks and its compiled node(s) (``c`` is the
  ``mason.dsl.stmt.StmtCompiler``);
- ``run(rt, env, node, fr)``: its reference semantics, run by the machine;
- optionally ``emit(w, node, d, i, parent)``: its fast form, written in place into a block's generated
  function by ``mason.runtime.direct`` (``w`` the writer); returning False leaves it to ``run``.

A compiled node names its kind (``kinds``, one or more); a class that compiles to several kinds
gives each its ``run_<kind>`` / ``emit_<kind>``. ``inline``: the kind never pushes a frame nor waits,
so a block of such statements runs in one step; ``plain``: besides, it calls no code of a primitive,
so the runner looks for no frame after it.

The definitions live in the engine layer (``mason.runtime.statements``), which imports this module
and registers them: the grammar and the tree mapping are read from here by the parser, so a text is
parsed only once the engine is imported (``mason.runtime.engine``; the model and every command
import it). docs/architecture.md ("Adding a statement") shows a whole definition.

Expressions
-----------
An expression kind is ONE class decorated with ``@expression`` (in ``mason.dsl.expressions``), the form
of one AST record of ``mason.dsl.ast`` (``node``): ``rules``, the grammar rules (in ``mason.lark``,
whose precedence ladder is one piece) it maps, by ``from_tree(rule, meta, children, place)``;
``compile(x, node, scope)``, its static checks and its reference closure (``x`` the
``mason.dsl.expr.ExprCompiler``); and optionally ``emit(g, node)``, the Python source of its fast form
inside an expression's generated function (``g`` the ``mason.dsl.fastexpr`` generator; without it,
the node's closure is called from the generated code).
"""

from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple

from mason.dsl.ast import Stmt
from mason.dsl.builtins import RegistrationError

# grammar rule -> the statement class it is parsed into
STATEMENTS: dict[str, type[Stmt]] = {}
# helper rule -> its tree mapping (a statement's ``parts``)
PARTS: dict[str, Callable] = {}


class Kind(NamedTuple):
    """A compiled statement kind: its reference ``run``, its fast form's ``emit`` (or None), its flags
    and the class that defines it."""

    run: Callable
    emit: Callable | None
    inline: bool
    plain: bool
    owner: type


# compiled kind -> its Kind
KINDS: dict[str, Kind] = {}


class _Version:
    """How many times the statements changed (registered, removed): the parser's caches key on it."""

    n = 0


VERSION = _Version()


def statement(cls: type[Stmt]) -> type[Stmt]:
    """Register the statement class ``cls`` (see the module's doc): its rules, parts and kinds; once each."""
    for rule in cls.rules:
        _put(STATEMENTS, "statement rule", rule, cls)
    for rule, fn in cls.parts.items():
        _put(PARTS, "statement part", rule, fn)
    for kind in cls.kinds:
        run = getattr(cls, "run_" + kind, None) or cls.run
        emit = getattr(cls, "emit_" + kind, None) or cls.emit
        _put(KINDS, "statement", kind, Kind(run, emit, cls.inline, cls.plain and cls.inline, cls))
    VERSION.n += 1
    return cls


def unregister(cls: type[Stmt]) -> None:
    """Remove a statement class registered by ``statement`` (a test's toy statement, when done)."""
    for table, keys in ((STATEMENTS, cls.rules), (PARTS, cls.parts), (KINDS, cls.kinds)):
        for key in keys:
            table.pop(key, None)
    VERSION.n += 1


def _put(table: dict, what: str, key: str, entry: Any) -> None:
    old = table.get(key)
    if old is not None and old != entry:
        raise RegistrationError(f"{what} '{key}' is registered twice: by {_owner(old)} and by {_owner(entry)}")
    table[key] = entry


def _owner(entry) -> str:
    owner = entry.owner if isinstance(entry, Kind) else entry
    return f"{getattr(owner, '__module__', '?')}.{getattr(owner, '__qualname__', '?')}"


def kind_of(kind: str) -> Kind:
    """The registered ``Kind`` of a compiled statement kind; a KeyError names an unknown one."""
    return KINDS[kind]


def statement_grammar() -> str:
    """The statements' part of the DSL grammar: the ``_simple`` and ``_compound`` alternatives and
    every registered statement's rules, in registration order."""
    classes: list[type[Stmt]] = list(dict.fromkeys(STATEMENTS.values()))
    if not classes:
        raise RegistrationError(
            "no DSL statement is registered: import mason.runtime.engine (it registers them) before parsing"
        )
    simple = [r for c in classes for r, how in c.rules.items() if how == "simple"]
    compound = [r for c in classes for r, how in c.rules.items() if how == "compound"]
    lines = [f"_simple: {' | '.join(simple)}", f"_compound: {' | '.join(compound)}", ""]
    lines += [c.grammar.strip() + "\n" for c in classes]
    return "\n".join(lines)


def statement_words() -> list[str]:
    """The words each registered statement starts with (``gain``, ``stop turn``, ``choose one``), read
    from the literals that open its own grammar rules: what an editor offers and explains, so a new
    statement is offered without a second list. Clause words of a statement (``elif``, ``else``) open a
    helper rule, not a statement, and are not among them."""
    words: dict[str, None] = {}
    for cls in dict.fromkeys(STATEMENTS.values()):
        for rule, body in re.findall(r"(?m)^[?!]?(\w+)\s*:\s*(.*)$", cls.grammar):
            if rule in cls.rules:
                for alternative in body.split("|"):
                    opening = re.match(r'\s*((?:"[a-z_]+"\s*)+)', alternative)
                    if opening:
                        words[" ".join(re.findall(r'"([a-z_]+)"', opening.group(1)))] = None
    return list(words)


# ---------------------------------------------------------------- expressions
# grammar rule -> the expression form it is mapped by
EXPRESSIONS: dict[str, Any] = {}
# AST record type -> its expression form
FORMS: dict[type, Any] = {}


def expression(cls: Any) -> Any:
    """Register the expression form ``cls`` (see the module's doc): its node type, rules and parts; once each."""
    _put(FORMS, "expression", cls.node, cls)
    for rule in cls.rules:
        _put(EXPRESSIONS, "expression rule", rule, cls)
    for rule, fn in getattr(cls, "parts", {}).items():
        _put(PARTS, "expression part", rule, fn)
    VERSION.n += 1
    return cls


def text_of(tok) -> str:
    """A string token's text, without its quotes (a statement's or a literal's tree mapping)."""
    return str(tok)[1:-1]
