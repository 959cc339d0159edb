"""The DSL's Lark parser: text to AST nodes, and the one place Lark errors become positioned DSL errors.

Imported only when a text must really be parsed (``mason.dsl.parser`` is the front every caller
uses, and a compiled game read from the compile cache needs no parsing, so no Lark at all).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import Indenter

from mason.dsl import ast as A
from mason.dsl import catalogue as C
from mason.dsl import constructs, expressions  # noqa: F401  (expressions: their forms registered)
from mason.dsl.catalogue import friendly_message
from mason.dsl.syntax import _MAX_TREE, MAX_BRACKETS, MAX_DEPTH, MAX_TERMS, DslSyntaxError

GRAMMAR = Path(__file__).with_name("mason.lark")


class _Indent(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def _parser() -> Lark:
    """The DSL's Lark parser for the statements registered now (``mason.dsl.constructs``)."""
    return _parser_for(grammar())


def grammar() -> str:
    """The DSL's whole grammar: ``mason.lark`` (blocks, expressions) and the registered statements' rules."""
    return _base() + "\n" + constructs.statement_grammar()


@lru_cache(maxsize=None)
def _base() -> str:
    return GRAMMAR.read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def _parser_for(text: str) -> Lark:
    # cache=True: Lark keeps the analysed LALR tables in the temp folder, keyed by a hash of the grammar,
    # the options and Lark's version, so a new process (a worker, a CLI call) loads them in ~20 ms
    # instead of analysing the grammar again (~300 ms); a missing or stale cache is simply rebuilt
    return Lark(
        text,
        parser="lalr",
        postlex=_Indent(),
        start=["effect", "expression"],
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
    )


class _Built:
    """The statements' version (``constructs.VERSION``) the cached parses were made with."""

    version = -1


def parse(text: str, start: str):
    """The AST of ``text`` (cached: ASTs are immutable, and validation compiles a game once per variant;
    the cache is emptied when the registered statements change)."""
    if _Built.version != constructs.VERSION.n:
        _parse.cache_clear()
        _Built.version = constructs.VERSION.n
    return _parse(text, start)


@lru_cache(maxsize=8192)
def _parse(text: str, start: str):
    if not isinstance(text, str):
        raise DslSyntaxError("expected DSL text", 1, 1)
    if "\t" in text:
        before = text[: text.index("\t")]
        raise DslSyntaxError(C.TABS, before.count("\n") + 1, len(before) - before.rfind("\n"))
    source = text if text.endswith("\n") else text + "\n"
    _check_terms(source)
    _check_brackets(source)
    parser = _parser()
    try:
        tree = parser.parse(source, start=start)
    except UnexpectedInput as exc:
        line, col = _where(exc, source)
        found = _scan(source) or _header_without_colon(exc, source)
        if found and (found[1], found[2]) <= (line, col):
            raise DslSyntaxError(*found) from None
        raise DslSyntaxError(friendly_message(exc, source, parser), line, col) from None
    except Exception:  # noqa: BLE001 - the indenter raises plain errors (DedentError, assert)
        raise DslSyntaxError(*(_scan(source) or (C.BAD_DEDENT, 1, 1))) from None
    _check_tree(tree)
    try:
        ast = _ToAst().transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, DslSyntaxError):
            raise inner from None
        raise DslSyntaxError(str(inner), 1, 1) from None
    _check_depth(ast)
    return ast


parse.cache_clear = _parse.cache_clear  # type: ignore[attr-defined]


_TOO_DEEP = (
    f"nested too deeply: statements, blocks and expressions may nest at most {MAX_DEPTH} levels;"
    " split this into named values or 'let' steps"
)


# a term: a name or keyword, a number or a text; comments are skipped (a DSL string is one line)
_TERM = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|#[^\n]*|[A-Za-z_][A-Za-z_0-9]*|[0-9]+")


def _check_terms(source: str) -> None:
    """Refuse a text of more than MAX_TERMS terms before parsing it, at the first term beyond: parsing
    and compiling take time and memory in proportion (100,000 terms took 26 s and 231 MB to refuse)."""
    if len(source) <= MAX_TERMS:
        return
    n = 0
    for m in _TERM.finditer(source):
        if m.group().startswith("#"):
            continue
        n += 1
        if n > MAX_TERMS:
            line = source.count("\n", 0, m.start()) + 1
            col = m.start() - (source.rfind("\n", 0, m.start()) + 1) + 1
            raise DslSyntaxError(
                f"this text has more than {MAX_TERMS:,} terms (names, numbers, texts); split it into"
                " named values, triggers or steps",
                line,
                col,
                "definition/too-large",
            )


def _check_brackets(source: str) -> None:
    """Refuse more than MAX_BRACKETS brackets open at once, at the first bracket beyond (strings and comments skipped)."""
    if source.count("(") + source.count("[") <= MAX_BRACKETS:
        return
    depth = 0
    for n, line in enumerate(source.split("\n"), start=1):
        for i, ch in _code_chars(line):
            if ch in "\"'":
                return  # the parser reports the open string
            if ch in "([":
                depth += 1
                if depth > MAX_BRACKETS:
                    raise DslSyntaxError(
                        f"more than {MAX_BRACKETS} brackets open at once here; split the expression"
                        " into named values or 'let' steps",
                        n,
                        i + 1,
                        "definition/too-deep",
                    )
            elif ch in ")]":
                depth = max(0, depth - 1)


def _code_chars(line: str):
    """``(index, character)`` for each character of one line of DSL text outside its strings and its
    comment; a quote that is never closed on the line comes as itself and ends the line."""
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == "#":
            return
        if ch in "\"'":
            end = line.find(ch, i + 1)
            if end < 0:
                yield i, ch
                return
            i = end + 1
            continue
        yield i, ch
        i += 1


def _check_tree(tree) -> None:
    """Refuse a parse tree deeper than _MAX_TREE before the (recursive) transformer walks it.

    The place given is the node MAX_DEPTH levels down that path, where the nesting went too far.
    """
    todo = [(tree, 1, tree)]
    while todo:
        node, depth, anchor = todo.pop()
        if depth > _MAX_TREE:
            meta = anchor.meta
            raise DslSyntaxError(
                _TOO_DEEP, getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1, "definition/too-deep"
            )
        if depth == MAX_DEPTH and not getattr(node.meta, "empty", True):
            anchor = node
        todo.extend((child, depth + 1, anchor) for child in node.children if isinstance(child, Tree))


def _check_depth(ast) -> None:
    """Refuse an AST nesting more than MAX_DEPTH nodes deep (a long chain of '+' is one Lark node, many AST levels).

    The place given is the last node that fits: the one whose parts nest too far.
    """
    todo = [(ast, 1, ast)]
    while todo:
        node, depth, parent = todo.pop()
        if isinstance(node, A.Node):
            if depth > MAX_DEPTH:
                raise DslSyntaxError(_TOO_DEEP, parent.line or 1, parent.col or 1, "definition/too-deep")
            for f in node._fields:
                todo.append((getattr(node, f), depth + 1, node))
        elif isinstance(node, (list, tuple)):
            todo.extend((x, depth, parent) for x in node)


def _where(exc: UnexpectedInput, source: str) -> tuple[int, int]:
    """The 1-based (line, col) a parse error is about."""
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "_INDENT":  # the first character of the indented line
            return tok.end_line, tok.end_column
        if tok.type in ("_NL", "_DEDENT") and getattr(tok, "line", None) not in (None, -1):
            # the end of the line's code, before any spaces or comment
            code = source.split("\n")[tok.line - 1][: tok.column - 1].rstrip()
            return tok.line, len(code) + 1
        if tok.type != "$END" and getattr(tok, "line", None) not in (None, -1):
            return tok.line, tok.column
    elif isinstance(exc, UnexpectedCharacters):
        return exc.line, exc.column
    lines = source.rstrip("\n").split("\n")  # the end of the text: after its last character
    return len(lines), len(lines[-1]) + 1


_BLOCK_WORDS = ("if", "elif", "else", "for", "repeat", "while", "choose", "option")


def _header_without_colon(exc: UnexpectedInput, source: str) -> tuple[str, int, int] | None:
    """An indented line after a block header that lacks its ':' is about the header, not the indent."""
    if not (isinstance(exc, UnexpectedToken) and exc.token.type == "_INDENT"):
        return None
    lines = source.split("\n")
    n = exc.token.line  # the line before the indented one (the _INDENT borrows its newline's place)
    head = lines[n - 1].split("#", 1)[0].rstrip() if 0 < n <= len(lines) else ""
    words = head.split()
    if words and words[0] in _BLOCK_WORDS and not head.endswith(":"):
        return C.MISSING_COLON, n, len(head) + 1
    return None


def _scan(source: str) -> tuple[str, int, int] | None:
    """The first bracket, string or indentation mistake in DSL text: (message, line, col), or None.

    Found by reading the text rather than parsing it, so the place is the mistake itself: the
    '(' that is never closed, the stray ')', the quote that is never closed, the bad dedent.
    """
    closer = {")": "(", "]": "["}
    stack: list[tuple[str, int, int]] = []
    indents = [0]
    for n, line in enumerate(source.split("\n"), start=1):
        stripped = line.strip()
        if not stack and stripped and not stripped.startswith("#"):  # a line the indenter measures
            indent = len(line) - len(line.lstrip(" "))
            if indent > indents[-1]:
                indents.append(indent)
            else:
                while indent < indents[-1]:
                    indents.pop()
                if indent != indents[-1]:
                    return C.BAD_DEDENT, n, indent + 1
        for i, ch in _code_chars(line):
            if ch in "\"'":
                return C.UNCLOSED_STRING, n, i + 1
            if ch in "([":
                stack.append((ch, n, i + 1))
            elif ch in ")]":
                if not stack:
                    return C.STRAY_CLOSER, n, i + 1
                if stack[-1][0] != closer[ch]:
                    return C.MISMATCHED, n, i + 1
                stack.pop()
    if stack:
        ch, n, col = stack[-1]
        return (C.UNCLOSED_PAREN if ch == "(" else C.UNCLOSED_BRACKET), n, col
    return None


def _pos(meta) -> dict:
    """A node's place (``line``, ``col`` keywords) from a parse tree's meta; none for an empty one."""
    if getattr(meta, "empty", True):
        return {}
    return {"line": meta.line, "col": meta.column}


@v_args(meta=True)
class _ToAst(Transformer):
    # -------- entry points
    def effect(self, meta, children):
        return A.Block(tuple(c for c in children if isinstance(c, A.Stmt)), **_pos(meta))

    def expression(self, meta, children):
        return [c for c in children if isinstance(c, A.Expr)][0]

    def suite(self, meta, children):
        return A.Block(tuple(c for c in children if isinstance(c, A.Stmt)), **_pos(meta))

    # -------- statements and expressions: each registered kind maps its own rules (mason.dsl.constructs)
    def __default__(self, data, children, meta):
        cls = constructs.STATEMENTS.get(data) or constructs.EXPRESSIONS.get(data)
        if cls is not None:
            return cls.from_tree(data, meta, children, _pos(meta))
        part = constructs.PARTS.get(data)
        if part is not None:
            return part(meta, children)
        return super().__default__(data, children, meta)

    def kwarg(self, meta, c):
        return (str(c[0]), c[1])

    def args(self, meta, c):
        return list(c)


def is_tree(x) -> bool:
    """Whether ``x`` is a Lark parse tree (not a token or a mapped value)."""
    return isinstance(x, Tree)
