"""What the language server says about a word: a builtin, a statement, a declared name, an effect in
words (the rulebook's own words, ``mason rules``), a rule id from the game's reference digest.

Builtins come from the DSL's table of builtins with their documentation in ``docs/dsl.md`` (when the
docs are beside the package, as in a clone); statements from the headings of that page's
"Statements" section; a rule id (``CIT-R12``) from a ``reference/*.md`` digest found in a ``shared``
or ``reference`` folder above the game, or in ``$MASON_REFERENCE``.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path

import mason

# words that continue a statement rather than start one (its clauses), offered beside the statements
CLAUSES = ("elif", "else")
KEYWORDS = ("in", "to", "from", "of", "and", "or", "not", "true", "false", "none", "option", "as", "times")
# what every card has besides its family's properties (docs/dsl.md, "Cards")
CARD_FIELDS = ("id", "name", "family", "type", "copies", "status", "text", "up", "seen")
EFFECT_KEYS = {"do", "setup"}  # keys whose text is an effect (a block of statements); others hold expressions
RULE_ID = re.compile(r"\b[A-Z]{2,5}-[A-Z]{1,2}\d+[a-z]?\b")
MAX_DATA = 1200  # characters of a declaration's data shown in a hover


def docs_file() -> Path | None:
    """docs/dsl.md beside the package (a clone or an editable install), or None."""
    p = Path(mason.__file__).resolve().parent.parent / "docs" / "dsl.md"
    return p if p.is_file() else None


@lru_cache(maxsize=1)
def _dsl_doc() -> str:
    p = docs_file()
    try:
        return p.read_text(encoding="utf-8") if p else ""
    except OSError:
        return ""


@lru_cache(maxsize=1)
def builtins() -> dict[str, dict]:
    """Each builtin: its signature, what it gives, an example, from the DSL and docs/dsl.md."""
    from mason import primitives  # noqa: F401 - the primitives register their builtins
    from mason.dsl.builtins import BUILTINS

    rows: dict = {}
    for line in _dsl_doc().splitlines():
        m = re.match(r"\|\s*`([a-z_0-9]+)`\s*\|(.*?)\|(.*?)\|(.*?)\|\s*$", line)
        if m:
            rows.setdefault(m.group(1), (m.group(2).strip(), m.group(3).strip(), m.group(4).strip()))
    out = {}
    for name, b in BUILTINS.items():
        args = [f"x{i + 1}" for i in range(b.min_args)]
        extra = b.max_args - b.min_args if b.max_args >= 0 else -1
        if extra < 0 or extra > 3:
            args.append("...")
        else:
            args += [f"[x{b.min_args + i + 1}]" for i in range(extra)]
        gives, example, result = rows.get(name, ("", "", ""))
        out[name] = {
            "signature": f"{name}({', '.join(args)})",
            "doc": gives or (b.doc or "").strip(),
            "example": example.strip("`") + (f"  # => {result.strip('`')}" if result else ""),
        }
    return out


@lru_cache(maxsize=1)
def statements() -> dict[str, str]:
    """Each statement's first word with its section of docs/dsl.md (empty when the docs are absent)."""
    text = _dsl_doc()
    from mason.dsl.constructs import statement_words
    from mason.runtime import statements as _registered  # noqa: F401 - the statements register themselves

    out = {s.split()[0]: "" for s in (*statement_words(), *CLAUSES)}
    body = text.split("\n## Statements", 1)[1] if "\n## Statements" in text else ""
    body = re.split(r"\n## (?!#)", body, maxsplit=1)[0]
    for part in re.split(r"\n### ", body)[1:]:
        head, _, rest = part.partition("\n")
        section = "\n".join(rest.strip().split("\n\n")[:2])
        for word in re.split(r",\s*", head):
            first = word.split()[0] if word.split() else ""
            if first and not out.get(first):
                out[first] = f"**{head.strip()}**\n\n{section}"
    return out


def builtin_hover(name: str) -> str | None:
    """Markdown for a builtin, or None."""
    b = builtins().get(name)
    if b is None:
        return None
    text = f"```\n{b['signature']}\n```\n{b['doc']}"
    return text + (f"\n\nExample: `{b['example']}`" if b["example"] else "")


def statement_hover(word: str) -> str | None:
    """Markdown for a statement's keyword, or None."""
    doc = statements().get(word)
    return doc or None


def declaration_hover(decl, root: Path | None = None) -> str:
    """Markdown for a declared name: its kind, where, and its data."""
    where = decl.spot.path
    if root is not None:
        try:
            where = decl.spot.path.relative_to(root)
        except ValueError:
            pass
    data = decl.data
    shown = json.dumps(data, ensure_ascii=False, default=str) if data is not None else ""
    if len(shown) > MAX_DATA:
        shown = shown[: MAX_DATA - 3] + "..."
    head = f"**{decl.kind}** `{decl.name}` ({where}:{decl.spot.line + 1}:{decl.spot.col + 1})"
    return head + (f"\n\n```json\n{shown}\n```" if shown else "")


def effect_words(text: str, key: str, program=None) -> list[str] | None:
    """A DSL text in words, as ``mason rules`` says it (with the game's words when ``program`` is
    its compiled program), or None when it does not parse."""
    from mason.dsl.describe import Describer, lines
    from mason.dsl.parser import DslSyntaxError, parse_effect, parse_expression

    lexicon = None
    if program is not None:
        from mason.presentation.rules_text import lexicon_of

        try:
            lexicon = lexicon_of(program)
        except Exception:  # noqa: BLE001 - a half-built program: plain words instead
            lexicon = None
    describer = Describer(lexicon)
    describer.lex.renames.update({"self": "this card", "owner": "its owner"})
    tries = ("effect", "expression") if key in EFFECT_KEYS else ("expression", "effect")
    for kind in tries:
        try:
            if kind == "effect":
                said = lines(describer.block(parse_effect(text)))
                return said or ["Nothing else happens."]
            return [describer.expr(parse_expression(text))]
        except DslSyntaxError:
            continue
        except Exception:  # noqa: BLE001 - words are a help; a node the describer lacks says nothing
            return None
    return None


def reference_folders(start: Path) -> list[Path]:
    """Folders that may hold the reference digests: ``$MASON_REFERENCE``, then ``shared/reference``
    or ``reference`` in any folder above ``start`` or beside one."""
    out = []
    env = os.environ.get("MASON_REFERENCE")
    if env:
        out.append(Path(env))
    for d in [start, *start.parents]:
        for c in (d / "shared" / "reference", d / "reference"):
            if c.is_dir():
                out.append(c)
    return list(dict.fromkeys(out))


def rule_text(rule_id: str, start: Path) -> str | None:
    """The reference digest's text of a rule or decision id, with the digest's name, or None."""
    pattern = re.compile(rf"^\s*[-*]?\s*\**{re.escape(rule_id)}\**[\s:.]")
    for folder in reference_folders(start):
        for md in sorted(folder.glob("*.md")):
            found = _rule_in(md, pattern)
            if found:
                return f"**{rule_id}** ({md.name})\n\n{found}"
    return None


@lru_cache(maxsize=16)
def _digest_lines(md: Path) -> tuple[str, ...]:
    try:
        return tuple(md.read_text(encoding="utf-8", errors="replace").splitlines())
    except OSError:
        return ()


def _rule_in(md: Path, pattern) -> str | None:
    text = _digest_lines(md)
    for i, line in enumerate(text):
        if pattern.match(line):
            out = [line.strip()]
            for more in text[i + 1 : i + 12]:  # a bullet's continuation lines
                if not more.strip() or not more.startswith((" ", "\t")):
                    break
                out.append(more.strip())
            return " ".join(out)
    return None
