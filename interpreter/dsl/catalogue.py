"""Catalogue of common DSL mistakes with friendly messages; doubles as test data.

Each entry maps a message to example effects that make that mistake. A parse error is matched
against the examples (Lark's ``match_examples``: same parser state, same offending token), so a
new mistake is taught by adding one example here; ``tests/test_dsl_errors.py`` walks them all.
"""
from __future__ import annotations

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

DSL_ERRORS: dict[str, list[str]] = {
    "unbalanced parentheses: a '(' is never closed": [
        "gain (2 gold\n",
        "gain count(hand gold\n",
        "if (a and b:\n    pass\n",
        "gain max(1, 2 gold\n",
    ],
    "unbalanced brackets: a '[' is never closed": [
        "let x = [1, 2\n",
        "let x = [c for c in hand\n",
    ],
    "a ')' or ']' without its opening '(' or '['": [
        "gain 2) gold\n",
        "let x = 1]\n",
        "let x = a)\n",
    ],
    "missing ':' at the end of a block header (if/for/choose/option)": [
        "if x > 1\n    pass\n",
        "for c in hand\n    pass\n",
        "repeat 2\n    pass\n",
    ],
    "use '==' to compare; '=' only assigns in 'set' and 'let'": [
        "if x = 1:\n    pass\n",
        "let y = x = 1\n",
    ],
    "'gain' and 'pay' need an amount then a counter name, e.g. 'gain 2 gold'": [
        "gain gold\n",
        "pay gold\n",
        "gain 2\n",
        "pay 1\n",
    ],
    "a block header must be followed by an indented block": [
        "if x:\npass\n",
        "for c in hand:\npass\n",
    ],
    "'choose' needs a name and a source, e.g. 'choose card c from hand'": [
        "choose from hand\n",
        "choose card from hand\n",
        "choose c hand\n",
    ],
    "'move' needs a destination: 'move CARDS to ZONE'": [
        "move c\n",
        "move c deck\n",
    ],
    "strings are written in quotes and end on the same line": [
        "say \"hello\n",
    ],
}

_FALLBACK_TOKENS = {
    "$END": "the end of the text",
    "_NL": "the end of the line",
    "_DEDENT": "the end of the block",
    "_INDENT": "an indented block",
}


def friendly_message(exc: UnexpectedInput, source: str) -> str:
    """Turn a Lark error into one friendly sentence (catalogue first, then a generic message)."""
    from .parser import _parser  # late import: the parser module imports us

    start = "effect"
    try:
        label = exc.match_examples(lambda text: _parser().parse(text, start=start), DSL_ERRORS,
                                   use_accepts=True)
    except Exception:
        label = None
    if label:
        return label
    if isinstance(exc, UnexpectedCharacters):
        ch = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        return f"unexpected character '{ch}'"
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        seen = _FALLBACK_TOKENS.get(tok.type, f"'{tok}'")
        expected = sorted(_pretty(t) for t in exc.accepts or exc.expected)[:6]
        return f"unexpected {seen}; expected {', '.join(expected)}"
    if isinstance(exc, UnexpectedEOF):
        return "unexpected end of text"
    return "syntax error"


def _pretty(term: str) -> str:
    names = {"NAME": "a name", "NUMBER": "a number", "STRING": "a string", "_NL": "end of line",
             "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'",
             "EQUAL": "'='", "COMMA": "','", "DOT": "'.'", "_INDENT": "an indented block"}
    if term in names:
        return names[term]
    return f"'{term.lower()}'" if term.isupper() else term
