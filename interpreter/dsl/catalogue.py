"""Catalogue of common DSL mistakes with friendly messages; doubles as test data.

Each entry maps a message to examples that make that mistake. An example is an effect, or an
expression when written ``"when: EXPR"`` (as in a YAML ``when:``/``if:``/``value:`` field).
``tests/dsl/test_dsl_errors.py`` checks that every example gives exactly its message.

A Lark parse error is matched against the examples by parser state: the same state and the same
offending token (or character) first, then the same state and kind of token (except for
``EXACT_ONLY`` labels), then the same state alone (except for those and ``SAME_KIND_ONLY``). So a new mistake is taught by adding one example here. A few mistakes are found by a
scan of the text rather than by the parser (``SCANNED``): unbalanced brackets, unterminated
strings, tabs and inconsistent dedents; their places are exact (the unclosed '(' itself).
"""

from __future__ import annotations

from functools import lru_cache

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

# ---- found by scanning the text (mason.dsl.lark_parser._scan)
UNCLOSED_PAREN = "unbalanced parentheses: a '(' is never closed"
UNCLOSED_BRACKET = "unbalanced brackets: a '[' is never closed"
STRAY_CLOSER = "a ')' or ']' without its opening '(' or '['"
MISMATCHED = "mismatched brackets: a '(' closes with ')' and a '[' with ']'"
UNCLOSED_STRING = "a string is not closed: it ends with the same quote on the same line"
BAD_DEDENT = "inconsistent indentation: this line lines up with no enclosing block"
TABS = "tabs are not allowed in DSL text; indent with spaces"

# ---- found by the parser
THEN = "there is no 'then': write 'if CONDITION:' and indent the block below it"
ELSE_IF = "write 'elif CONDITION:' rather than 'else if'"
C_OPERATORS = "write 'and', 'or', 'not' rather than '&&', '||', '!'"
MISSING_COLON = "missing ':' at the end of a block header (if/for/choose/option)"
NO_IF = "'else' or 'elif' must follow an 'if' block at the same indentation"
STATEMENT = (
    "a statement starts with a keyword (gain, pay, set, let, move, draw, if, for, choose, ...); "
    "to change a variable write 'set NAME = VALUE'"
)

DSL_ERRORS: dict[str, list[str]] = {
    UNCLOSED_PAREN: [
        "gain (2 gold\n",
        "gain count(hand gold\n",
        "if (a and b:\n    pass\n",
        "gain max(1, 2 gold\n",
        "when: a and (b or c",
        "when: count(hand",
    ],
    UNCLOSED_BRACKET: [
        "let x = [1, 2\n",
        "let x = [c for c in hand\n",
        "when: x in [1, 2",
    ],
    STRAY_CLOSER: [
        "gain 2) gold\n",
        "let x = 1]\n",
        "let x = a)\n",
        "when: count(hand))",
    ],
    MISMATCHED: [
        "let x = (1]\n",
        "let x = [c for c in hand)\n",
        "when: max(1, 2]",
    ],
    UNCLOSED_STRING: [
        'say "hello\n',
        "choose card c from hand saying 'Which card?\n",
    ],
    BAD_DEDENT: [
        "if x:\n    pass\n  pass\n",
        "if x:\n    pass\n else:\n    pass\n",
    ],
    TABS: [
        "if x:\n\tpass\n",
    ],
    MISSING_COLON: [
        "if x > 1\n    pass\n",
        "for c in hand\n    pass\n",
        "repeat 2\n    pass\n",
        "gain 1 gold\nwhile x\n    pass\n",
        "if x:\n    pass\nelse\n    pass\n",
    ],
    THEN: [
        "if x then:\n    pass\n",
        "if x then\n    pass\n",
    ],
    ELSE_IF: [
        "if x:\n    pass\nelse if y:\n    pass\n",
    ],
    NO_IF: [
        "else:\n    pass\n",
        "elif x:\n    pass\n",
        "gain 1 gold\nelse:\n    pass\n",
        "for c in hand:\n    else:\n        pass\n",
    ],
    "use '==' to compare; '=' only assigns in 'set' and 'let'": [
        "if x = 1:\n    pass\n",
        "let y = x = 1\n",
        "while x = 1:\n    pass\n",
        "when: x = 1",
    ],
    "'set' and 'let' need '=': 'set NAME = VALUE', 'let NAME = VALUE'": [
        "let x 2\n",
        "set x 2\n",
        "set x == 2\n",
        "let x == 2\n",
    ],
    STATEMENT: [
        "x = 1\n",
        "gain 1 gold\nx = 1\n",
        "if x:\n    y = 1\n",
    ],
    "there is no '+=' or '-=': write 'set x = x + 1'": [
        "set x += 1\n",
    ],
    C_OPERATORS: [
        "if x && y:\n    pass\n",
        "if x || y:\n    pass\n",
        "if !x:\n    pass\n",
        "when: a && b",
        "when: !a",
    ],
    "one statement per line; there is no ';'": [
        "gain 2 gold; pay 1 gold\n",
        "gain 2 gold;\n",
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
    "unexpected indentation: only a block header ending with ':' opens an indented block": [
        "gain 2 gold\n    pass\n",
        "pass\n  pass\n",
    ],
    "'for' needs a name, 'in' and a list: 'for c in hand:'": [
        "for c of hand:\n    pass\n",
        "for c hand:\n    pass\n",
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
    "'say' needs its text in quotes, e.g. say \"Hello\"": [
        "say hello\n",
    ],
}

# labels produced by the text scan: never matched by parser state
SCANNED = frozenset({UNCLOSED_PAREN, UNCLOSED_BRACKET, STRAY_CLOSER, MISMATCHED, UNCLOSED_STRING, BAD_DEDENT, TABS})
# labels only given when the offending token is exactly the example's
EXACT_ONLY = frozenset({THEN, ELSE_IF})
# labels given for the same offending kind of token (any name, any 'else'), never for the state alone
SAME_KIND_ONLY = frozenset({NO_IF, STATEMENT})
# characters that are never DSL, whatever the parser state
CHAR_HINTS = {"&": C_OPERATORS, "|": C_OPERATORS, "!": C_OPERATORS, ";": "one statement per line; there is no ';'"}

EXPRESSION_PREFIX = "when: "


def example_start(example: str) -> tuple[str, str]:
    """(start rule, text) of a catalogue example."""
    if example.startswith(EXPRESSION_PREFIX):
        return "expression", example[len(EXPRESSION_PREFIX) :]
    return "effect", example


@lru_cache(maxsize=None)
def _examples(parser) -> tuple:
    """Each parser-matched example's error, parsed once by ``parser``: (label, error class, state, token)."""
    out = []
    for label, examples in DSL_ERRORS.items():
        if label in SCANNED:
            continue
        for example in examples:
            start, text = example_start(example)
            try:
                parser.parse(text if text.endswith("\n") else text + "\n", start=start)
            except UnexpectedInput as exc:
                out.append((label, type(exc), _state(exc), _token(exc, text)))
            except Exception:  # noqa: BLE001 - an example the indenter rejects teaches nothing here
                continue
    return tuple(out)


def _state(exc: UnexpectedInput):
    state = getattr(exc, "state", None)
    return getattr(state, "position", state)


def _token(exc: UnexpectedInput, source: str):
    if isinstance(exc, UnexpectedToken):
        return (exc.token.type, str(exc.token))
    if isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream or 0
        return ("char", source[at : at + 1])
    return None


def catalogue_label(exc: UnexpectedInput, source: str, parser) -> str | None:
    """The catalogue message for a parse error, or None when no example matches."""
    state, token = _state(exc), _token(exc, source)
    if state is None:
        return None
    same_state = [(label, tok) for label, cls, st, tok in _examples(parser) if st == state and cls is type(exc)]
    for label, tok in same_state:
        if tok == token:
            return label
    if isinstance(exc, UnexpectedCharacters) and token and token[1] in CHAR_HINTS:
        return CHAR_HINTS[token[1]]
    if isinstance(exc, UnexpectedToken):
        for label, tok in same_state:
            if tok and tok[0] == token[0] and label not in EXACT_ONLY:
                return label
    for label, _ in same_state:
        if label not in EXACT_ONLY and label not in SAME_KIND_ONLY:
            return label
    return None


# ---------------------------------------------------------------- the generic message
_SEEN = {"$END": "end of the text", "_NL": "end of the line", "_DEDENT": "end of the block", "_INDENT": "indentation"}
_NAMED = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string in quotes",
    "_NL": "end of the line",
    "$END": "end of the text",
    "_INDENT": "an indented block",
    "_DEDENT": "end of the block",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
}
_STATEMENT_WORDS = {
    "gain",
    "pay",
    "transfer",
    "set",
    "let",
    "move",
    "draw",
    "shuffle",
    "reveal",
    "swap",
    "emit",
    "turn",
    "say",
    "pass",
    "stop",
    "end",
    "if",
    "for",
    "repeat",
    "while",
    "choose",
    "do",
}
_EXPRESSION_START = {"NAME", "NUMBER", "STRING", "LPAR", "LSQB", "TRUE", "FALSE", "NONE", "NOT", "MINUS"}


def friendly_message(exc: UnexpectedInput, source: str, parser) -> str:
    """Turn a Lark error into one friendly sentence (catalogue first, then a generic message).

    ``parser`` is the DSL's Lark parser (``mason.dsl.lark_parser._parser()``), passed in so that this
    module does not import the parser module that imports it.
    """
    try:
        label = catalogue_label(exc, source, parser)
    except Exception:  # noqa: BLE001 - a broken catalogue must not hide the user's error
        label = None
    if label:
        return label
    if isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream or 0
        ch = source[at] if at < len(source) else "?"
        # a character that shows as nothing, or ends the line (U+2029), is named by its code point
        return f"unexpected character '{ch}'" if ch.isprintable() else f"unexpected character U+{ord(ch):04X}"
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        seen = _SEEN.get(tok.type, f"'{tok}'")
        return f"unexpected {seen}; expected {expected_text(exc.accepts or exc.expected, parser)}"
    if isinstance(exc, UnexpectedEOF):
        return "unexpected end of the text"
    return "syntax error"


def expected_text(terminals, parser) -> str:
    """What the parser would have accepted, in words: "a name, '(' or an expression"."""
    names = set(terminals)
    words: list[str] = []
    if _EXPRESSION_START & names >= {"NAME", "NUMBER"}:
        names -= _EXPRESSION_START
        words.append("an expression")
    literal = _literals(parser)
    statements = {n for n in names if literal.get(n) in _STATEMENT_WORDS}
    if len(statements) >= 5:
        names -= statements
        words.append("a statement")
    words += sorted(_pretty(n, literal) for n in names if not n.startswith("__") or n in literal)
    words = list(dict.fromkeys(words))
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else (words[0] if words else "something else")


@lru_cache(maxsize=None)
def _literals(parser) -> dict:
    out = {}
    for t in parser.terminals:
        if type(t.pattern).__name__ == "PatternStr":
            out[t.name] = t.pattern.value
    return out


def _pretty(term: str, literal: dict) -> str:
    if term in _NAMED:
        return _NAMED[term]
    if term in literal:
        return f"'{literal[term]}'"
    return term.lower()
