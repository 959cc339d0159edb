"""The rules of a game as text, generated from its YAML and DSL (``mason rules``)."""

from __future__ import annotations

import re
import unicodedata

from mason.dsl import ast as A
from mason.dsl.describe import Describer, Lexicon, spaced
from mason.dsl.describe import lines as describe_lines
from mason.dsl.parser import parse_effect, parse_expression
from mason.dsl.syntax import DslSyntaxError
from mason.runtime.values import label_of


def data_status(spec) -> str | None:
    """How much of a game's component data is provisional, in one line, or None when all is exact.

    Counts component types by their ``status`` tag (no tag counts as exact), e.g.
    ``provisional data: 57 placeholder and 20 inferred of 89 component types (mason rules lists them)``.
    """
    counts = {"exact": 0, "inferred": 0, "placeholder": 0}
    for comps in spec.components.values():
        for c in comps:
            tag = c.get("status") or "exact"
            counts[tag if tag in counts else "exact"] += 1
    total = sum(counts.values())
    if not total or counts["exact"] == total:
        return None
    parts = [f"{counts[k]} {k}" for k in ("placeholder", "inferred") if counts[k]]
    return f"provisional data: {' and '.join(parts)} of {total} component types (mason rules lists them)"


def value_words(pdef, value) -> str | None:
    """The words a property declares for ``value`` (``words: {upg_w: one upgrade}``), else None."""
    said = pdef.get("words") if isinstance(pdef, dict) else None
    return said.get(value) if isinstance(said, dict) and isinstance(value, str) else None


def words(v) -> str:
    """A rule-file value in words, never in Python's spelling: ``yes``/``no``, ``none``, ``3 sand``
    for a mapping of amounts, lists joined by commas, a pair as ``(0, 1)``."""
    if v is True or v is False:
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, dict):
        if not v:
            return "none"
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v.values()):
            return ", ".join(f"{x} {k.replace('_', ' ')}" for k, x in v.items())
        return ", ".join(f"{k.replace('_', ' ')} {words(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        if not v:
            return "none"
        return ", ".join(f"({words(x)})" if isinstance(x, (list, tuple, dict)) else words(x) for x in v)
    return str(v)


def _code(v) -> str:
    """A rule written in the DSL, as written (YAML turns a bare ``true`` into a boolean: shown as the DSL spells it)."""
    if v is True or v is False:
        return "true" if v else "false"
    return words(v) if v is None or isinstance(v, (list, tuple, dict)) else str(v)


def _said_value(g, expr) -> str:
    """An expression that names a value with a ``text``: that text; else the expression as written."""
    decl = (g.get("values") or {}).get(str(expr).strip()) if isinstance(expr, str) else None
    if isinstance(decl, dict) and decl.get("text"):
        return decl["text"]
    return _code(expr)


def _fact(name: str, v, pdef=None) -> str | None:
    """One property of a component type as shown (``None`` when it says nothing: unset, no, empty,
    or the property's declared default); a flag that holds is shown by its name alone, a value the
    property gives words for (``words:``) by those words."""
    default = pdef.get("default") if isinstance(pdef, dict) else None
    if v is None or v is False or v == [] or v == {} or (default is not None and v == default):
        return None
    name = name.replace("_", " ")
    said = value_words(pdef, v)
    if said is not None:
        return f"{name}: {said}"
    return name if v is True else f"{name} {words(v)}"


WIDTH = 100  # the rulebook's lines, tables apart, are wrapped to this many columns
STATUS_NOTE = (
    "Provisional data is marked [inferred] (deduced, not printed in the rulebook) or [placeholder]"
    " (a stand-in until the real data is known); unmarked data is exact."
)


def _status(d) -> str:
    """`` [inferred]`` or `` [placeholder]`` for provisional data, else nothing."""
    tag = d.get("status") if isinstance(d, dict) else None
    return f" [{tag}]" if tag and tag != "exact" else ""


class _Book:
    """The rulebook being written: the game's words (a ``Lexicon``) and whether to add the DSL."""

    def __init__(self, program, source: bool):
        self.program, self.source = program, source
        self.describer = Describer(lexicon_of(program))

    def effect(self, text, pad: str, renames: dict | None = None) -> list[str]:
        """An effect in words, each line ``pad`` indented (a governed line two more)."""
        if text in (None, ""):
            return []
        if text is True or text is False:
            return []
        try:
            tree = parse_effect(str(text))
        except DslSyntaxError:
            return [_indent(text, pad)]
        with self._renamed(renames):
            said = self.describer.block(tree)
        return describe_lines(said, pad) or [pad + "Nothing else happens."]

    def expr(self, text, renames: dict | None = None) -> str:
        """An expression in words (a value written as a number or a flag: in words too)."""
        if isinstance(text, (bool, int, float)) or text is None:
            return words(text)
        try:
            tree = parse_expression(str(text))
        except DslSyntaxError:
            return str(text)
        with self._renamed(renames):
            return self.describer.expr(tree)

    def _renamed(self, renames):
        book = self

        class _Scope:
            def __enter__(self):
                self.old = dict(book.describer.lex.renames)
                book.describer.lex.renames.update(renames or {})

            def __exit__(self, *exc):
                book.describer.lex.renames = self.old

        return _Scope()

    def said(self, item: dict, code_key: str = "do", pad: str = "    ", renames=None) -> list[str]:
        """An item's rule: its ``text`` when it has one (what a rulebook says), else its effect in
        words; with ``--source``, the rule as written after it."""
        out = [_indent(item["text"], pad)] if item.get("text") else self.effect(item.get(code_key), pad, renames)
        if self.source and item.get(code_key) not in (None, ""):
            out += [pad + "Source:"] + [_verbatim(_code(item[code_key]), pad + "    ")]
        return out

    def condition(self, item: dict, key: str = "if", renames=None) -> str:
        """An item's condition in words, with the DSL in brackets under ``--source``."""
        said = self.expr(item[key], renames)
        return said + (f" [source: {_code(item[key])}]" if self.source else "")


def lexicon_of(program) -> Lexicon:
    """The words for a game's names: counters by their labels, zones, variables, values, boards."""
    g = program.spec.game
    lex = Lexicon()
    for name, c in program.counters.items():
        lex.counters[name] = (c.get("scope", "seat"), label_of(c, name))
        if c.get("one"):
            lex.counter_one[name] = c["one"]
    for name, z in program.zones.items():
        lex.zones[name] = (z.get("scope", "game"), label_of(z, name))
    for name, v in program.vars.items():
        lex.vars[name] = (v.get("scope", "game"), spaced(name))
    for name in program.values:
        lex.values[name] = f"the {spaced(name)}" if (program.values[name].params) else spaced(name)
        if _yes_no(g["values"][name]):
            lex.yes_no.add(name)
    for name in list(program.table_columns) + list(program.constants) + list(program.sets):
        lex.things.setdefault(name, spaced(name))
    for name in program.set_members:
        lex.things.setdefault(name, spaced(name))
    for name, b in (g.get("boards") or {}).items():
        lex.things[name] = "the " + label_of(b, name)
    for tid, t in program.types.items():
        lex.things[tid] = str(t.get("name") or spaced(tid))
    for aid, a in (g.get("automata") or {}).items():
        lex.things[aid] = str(a.get("name") or spaced(aid))
    for fam in program.turn_families:
        lex.turn_cards[fam] = spaced(fam)
    return lex


def _yes_no(decl) -> bool:
    """Whether a named value is yes or no: written as a flag, a comparison or a condition."""
    text = decl.get("value") if isinstance(decl, dict) else decl
    if isinstance(text, bool):
        return True
    if not isinstance(text, str):
        return False
    try:
        tree = parse_expression(text)
    except DslSyntaxError:
        return False
    if isinstance(tree, A.BinOp):
        return tree.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
    if isinstance(tree, A.Literal):
        return isinstance(tree.value, bool)
    return isinstance(tree, (A.BoolOp, A.Not)) or (
        isinstance(tree, (A.Call, A.Comprehension)) and getattr(tree, "func", None) in ("any", "all")
    )


def _indent(text: str, pad: str = "      ") -> str:
    """A text as paragraphs under ``pad``, wrapped to the page."""
    out = []
    for line in str(text).strip().splitlines():
        out += _fill(line.strip(), pad, pad)
    return "\n".join(out)


def columns(text: str) -> int:
    """The columns a text takes on a terminal: a wide character (CJK) takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _fill(text: str, first: str, follow: str) -> list[str]:
    """``text`` in lines of at most ``WIDTH`` columns, broken at spaces: the first line starts with
    ``first``, the others with ``follow`` (a word longer than a line stands alone)."""
    out, line = [], first
    for word in text.split():
        bare = line in (first, follow)
        if not bare and columns(line) + 1 + columns(word) > WIDTH:
            out.append(line)
            line = follow
            bare = True
        line = line + word if bare else f"{line} {word}"
    if line not in (first, follow) or not out:
        out.append(line if text.split() else "")
    return out


VERBATIM = "\x00"  # marks a line of DSL as written (--source): never wrapped


def _verbatim(text: str, pad: str) -> str:
    return "\n".join(VERBATIM + pad + line for line in str(text).strip().splitlines())


def _wrap(text: str) -> list[str]:
    """Lines wrapped to ``WIDTH``; a table row or a heading is left whole, a continued line is
    indented two more than its first, a list item's under its text."""
    out = []
    for line in text.split("\n"):
        if line.startswith(VERBATIM):
            out.append(line[1:])
            continue
        if columns(line) <= WIDTH or line.lstrip().startswith("|") or line.startswith("#"):
            out.append(line)
            continue
        stripped = line.lstrip(" ")
        pad = line[: len(line) - len(stripped)]
        follow = pad + ("  " if stripped.startswith("- ") else "    " if pad else "")
        out += _fill(stripped, pad, follow)
    return out


# ---------------------------------------------------------------- sections in play order
def _intro(program) -> list[str]:
    spec, g = program.spec, program.spec.game
    out = [f"# {program.name}{_status(g)}", ""]
    if g.get("description"):
        out += [_indent(g["description"], ""), ""]
    out.append(f"Players: {program.min_players} to {program.max_players}.")
    if spec.variants:
        out.append("Variants in force: " + ", ".join(spec.variants) + " (what they change: see Variants).")
    note = data_status(spec)
    if note or _status(g):
        out.append(STATUS_NOTE)
    return out + [""]


def _table(program) -> list[str]:
    if not program.table_rows:
        return []
    cols = program.table_columns
    marked = any(_status(row) for row in program.table_rows.values())
    out = [
        "### By player count",
        "| players | " + " | ".join(c.replace("_", " ") for c in cols) + (" | data |" if marked else " |"),
        "|---" * (len(cols) + 1 + marked) + "|",
    ]
    for n, row in sorted(program.table_rows.items()):
        cells = [words(row[c]) if c in row else "-" for c in cols] + ([_status(row).strip(" []")] if marked else [])
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    return out + [""]


def _constants(book) -> list[str]:
    program = book.program
    g = program.spec.game
    out = []
    if g.get("constants"):
        out.append("### Constants")
        for name, decl in g["constants"].items():
            value, text = _declared(decl)
            out.append(
                f"- {name.replace('_', ' ')}: {spaced(words(program.constants.get(name, value)))}"
                + (f" ({text})" if text else "")
                + _status(decl)
            )
        out.append("")
    if program.counters:
        out.append("### Counters")
        for name, c in program.counters.items():
            label = label_of(c, name)
            whose = "the game has" if c.get("scope") == "game" else "each player has"
            start = c.get("start", 0)
            line = f"- {label}: {whose} {book.expr(start)} at the start"
            if c.get("cap") is not None:
                line += f", at most {book.expr(c['cap'])}"
            if c.get("supply"):
                sup = program.counters.get(c["supply"]) or {}
                line += f"; taken from and returned to the {sup.get('label') or c['supply'].replace('_', ' ')}"
            out.append(line + _status((g.get("counters") or {}).get(name)))
        out.append("")
    return out


def _declared(decl):
    """(value, text) of a constant or column declaration: a bare value or ``{value, text, ...}``."""
    if isinstance(decl, dict) and "value" in decl:
        return decl["value"], decl.get("text")
    return decl, None


def _boards(program) -> list[str]:
    boards = program.spec.game.get("boards") or {}
    if not boards:
        return []
    out = ["### Boards"]
    for name, b in boards.items():
        kind = str(b.get("kind", "board")).replace("_", " ") if isinstance(b, dict) else "board"
        out.append(f"- {label_of(b, name)}: a {kind}{_status(b)}" + (f". {b['text']}" if b.get("text") else ""))
    return out + [""]


def _family_table(program, comps, props) -> list[str] | None:
    """A family's components as a table (name, copies, every property shown, data tag), or None
    when it would be wider than the page."""
    cols = [p for p in props if any(_fact(p, program.types[c["id"]].get(p), props[p]) for c in comps)]
    many = any(c.get("copies", 1) != 1 for c in comps)
    marked = any(_status(c) for c in comps)
    head = ["name"] + (["data"] if marked else []) + (["copies"] if many else []) + [c.replace("_", " ") for c in cols]
    rows = []
    for c in comps:
        t = program.types[c["id"]]
        cells = [str(t["name"])] + ([_status(c).strip(" []") or "exact"] if marked else [])
        cells += [str(c.get("copies", 1))] if many else []
        for p in cols:
            v = t.get(p)
            shown = _fact(p, v, props[p])
            cells.append("-" if shown is None else (value_words(props[p], v) or _cell(v)))
        rows.append(cells)
    grid = [head] + rows
    widths = [max(len(r[i]) for r in grid) + 3 for i in range(len(head))]
    # columns after the name, packed into as few tables as fit the page (each repeats the name)
    parts: list[list[int]] = []
    part: list[int] = []
    used = widths[0] + 1
    for i in range(1, len(head)):
        if part and used + widths[i] > WIDTH:
            parts.append(part)
            part, used = [], widths[0] + 1
        part.append(i)
        used += widths[i]
    if part or not parts:
        parts.append(part)
    if len(parts) > 3 or used > WIDTH:
        return None
    lines = []
    for k, cols_in in enumerate(parts):
        pick = [0] + cols_in
        table = [[r[i] for i in pick] for r in grid]
        lines += ([""] if k else []) + [
            "| " + " | ".join(r) + " |" for r in [table[0], ["---"] * len(pick)] + table[1:]
        ]
    return lines if max(len(line) for line in lines) <= WIDTH else None


def _cell(v) -> str:
    """A value in a table's cell, short: a list as ``book/-/gold``, ids in words."""
    if v is True:
        return "yes"
    if isinstance(v, (list, tuple)) and v and all(not isinstance(x, (list, tuple, dict)) for x in v):
        return "/".join("-" if x is None else spaced(words(x)) for x in v)
    return spaced(words(v))


def _components(book) -> list[str]:
    program, spec = book.program, book.program.spec
    out = ["## Components", ""]
    out += _table(program) + _constants(book) + _boards(program)
    for fam, fdef in program.families.items():
        comps = spec.components.get(fam, [])
        total = sum(int(c.get("copies", 1)) for c in comps)
        out.append(f"### {fam.replace('_', ' ')} ({total} in all)")
        props = fdef.get("properties") or {}
        table = _family_table(program, comps, props)
        texts = []
        for c in comps:
            t = program.types[c["id"]]
            rules = _card_rules(book, c)
            if table is not None and not rules:
                continue
            facts = [f for f in (_fact(p, t.get(p), props[p]) for p in props) if f]
            copies = f" x{c.get('copies', 1)}" if c.get("copies", 1) != 1 else ""
            shown = "" if table is not None else (f" ({', '.join(facts)})" if facts else "") + _status(c)
            texts.append(f"- **{t['name']}**{copies}{shown}")
            texts += rules
        if table is not None:
            out += table + [""]
            if texts:
                out += ["What they do:"]
        out += texts + ([""] if texts or table is None else [])
    return out


def _card_rules(book, c: dict) -> list[str]:
    """What a component does: its text, then each ability, trigger and modifier in words."""
    out = []
    if c.get("text"):
        out.append(_indent(c["text"], "  "))
    card = {"self": "this card", "owner": "its owner"}
    for a in c.get("abilities") or []:
        head = f"  - {a.get('label', spaced(a['id']))}" + (f" ({a['rule']})" if a.get("rule") else "")
        when = []
        if a.get("after"):
            when.append("after the " + _and_words([spaced(x) for x in a["after"]]) + " action")
        if a.get("if"):
            when.append("if " + book.condition(a, renames=card))
        out.append(head + (": " + "; ".join(when) if when else "") + ":")
        out += book.said(a, pad="      ", renames=card)
    for tr in c.get("triggers") or []:
        out.append("  - " + _trigger_head(book, tr, card) + ":")
        out += book.said(tr, pad="      ", renames={**ENGINE_EVENTS.get(tr.get("on"), {}), **card})
    for m in c.get("modifiers") or []:
        out.append("  - Changes " + _modifier_words(book, m, card) + (f" ({m['rule']})" if m.get("rule") else ""))
        if m.get("text"):
            out.append(_indent(m["text"], "      "))
    return out


def _and_words(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# the parameters of the events the engine emits, in words (a game's own events name their own)
ENGINE_EVENTS = {
    "turn_start": {"actor": "the player whose turn it is", "card": "the turn's card"},
    "turn_end": {"actor": "the player whose turn it is", "card": "the turn's card"},
}


def _trigger_head(book, tr: dict, renames=None) -> str:
    renames = {**ENGINE_EVENTS.get(str(tr.get("on")), {}), **(renames or {})}
    head = f"When “{spaced(tr['on'])}” happens"
    if tr.get("when"):
        head += " and " + book.condition(tr, "when", renames)
    return head + (f" ({tr['rule']})" if tr.get("rule") else "")


def _modifier_words(book, m: dict, renames=None) -> str:
    """A modifier in words: ``destroy cost: 1 more when ...``, ``protected: becomes yes when ...``, and
    one that holds for the components of one kind, ``toll of stone carts: 1 less``."""
    value, scope, change = _modifier_parts(book, m, renames)
    written = ""
    if book.source and any(k in m for k in ("add", "set", "max", "min")):
        op = next(k for k in ("add", "set", "max", "min") if k in m)
        written = f" [source: {op} {_code(m[op])}" + (f" when {_code(m['when'])}" if m.get("when") else "") + "]"
    return f"{value}{f' of {scope}' if scope else ''}: {change}{written}"


# a modifier's condition that picks the components of one kind: ``cart.load == "stone"``
_ONE_KIND = re.compile(r"""\s*([A-Za-z_]\w+)\.(\w+)\s*==\s*(?:"(\w+)"|'(\w+)')\s*""")


def _modifier_parts(book, m: dict, renames=None) -> tuple[str, str | None, str]:
    """A modifier's value in words, the components it holds for (``stone carts``: when its condition
    only compares a property of the value's component parameter with a word; else None) and its change
    with the condition in words (``1 less when ...``)."""
    value = m.get("value", "")
    vdef = (book.program.spec.game.get("values") or {}).get(value)
    params = (vdef.get("params") if isinstance(vdef, dict) else None) or ()
    names = _param_names(p for p in params if isinstance(p, str))
    names.update(renames or {})
    op = next((k for k in ("add", "set", "max", "min") if k in m), None)
    if op is None:
        return spaced(value), None, "changes"
    amount = m[op]
    if op == "add" and isinstance(amount, int) and not isinstance(amount, bool):
        change = f"{abs(amount)} {'more' if amount >= 0 else 'less'}"
    elif op == "add":
        change = f"plus {book.expr(amount, names)}"
    elif op == "set":
        change = f"becomes {book.expr(amount, names)}"
    else:
        change = f"{'at least' if op == 'max' else 'at most'} {book.expr(amount, names)}"
    when = m.get("when")
    kind = _ONE_KIND.fullmatch(when) if isinstance(when, str) else None
    if kind and kind.group(1) in params and kind.group(1) not in (renames or {}):
        return spaced(value), f"{spaced(kind.group(3) or kind.group(4))} {spaced(kind.group(1))}s", change
    return spaced(value), None, change + (f" when {book.expr(when, names)}" if when else "")


def _setup(book) -> list[str]:
    setup = book.program.spec.game.get("setup")
    if not setup:
        return []
    out = ["## Setup"]
    if not isinstance(setup, list):  # one block: no heading of its own
        return out + book.said({"do": setup}) + [""]
    for step in setup:
        out += [f"### {spaced(step['id']).capitalize()}{_status(step)}"] + book.said(step)
    return out + [""]


def _round(book) -> list[str]:
    g = book.program.spec.game
    flow = g.get("flow") or {}
    out = ["## The round", "Each round goes through these phases in order."]
    for i, ph in enumerate(flow.get("phases") or [], 1):
        out += [f"### Phase {i}: {spaced(ph['id'])}"] + book.said(ph)
    stall = flow.get("stall") if isinstance(flow.get("stall"), dict) else None
    if stall:
        said = stall.get("text") or (
            f"when {book.expr(stall['when']) if stall.get('when') else 'nothing changes'}"
            f" for {stall.get('after', 'several')} rounds"
        )
        out.append("")
        out.append(f"A stalled game: {said}")
        if stall.get("do") and not stall.get("text"):
            out += book.effect(stall["do"], "    ")
    return out + [""]


def _turn(book) -> list[str]:
    turn = book.program.spec.game.get("turn") or {}
    if not turn:
        return []
    out = ["## A turn"]
    if turn.get("required"):
        out.append(
            "Before the turn ends you must do: " + _and_words([f"“{spaced(x)}”" for x in turn["required"]]) + "."
        )
    out.append("The actions:")
    for a in turn.get("actions") or []:
        extra = []
        if a.get("group"):
            extra.append(f"one action of the “{spaced(a['group'])}” group")
        if a.get("after"):
            extra.append("after " + _and_words([f"“{spaced(x)}”" for x in a["after"]]))
        if a.get("times"):
            extra.append(f"up to {book.expr(a['times'])} times")
        if a.get("if"):
            extra.append("if " + book.condition(a))
        out.append(
            f"- **{a.get('label', spaced(a['id']))}**"
            + (f" ({a['rule']})" if a.get("rule") else "")
            + (": " + "; ".join(extra) if extra else "")
        )
        out += book.said(a)
    return out + [""]


def _automata(book) -> list[str]:
    """The automated seats: who, at which player counts, and the policy that takes their decisions."""
    automata = book.program.spec.game.get("automata") or {}
    if not automata:
        return []
    out = [
        "## Automated seats",
        "An automated seat is played by the rules below, not by a person or a bot: for each decision"
        " the first rule whose condition holds ranks the options by its keys (highest first, ties to"
        " the option offered first); when no rule applies, the first option offered is taken.",
    ]
    for aid, a in automata.items():
        counts = a.get("players") or []
        out.append(f"### {a.get('name', spaced(aid))} (`{aid}`){_status(a)}")
        out.append(
            f"Joins at {' or '.join(str(n) for n in counts)} player{'s' if counts != [1] else ''}, "
            f"after the players' seats."
        )
        if a.get("text"):
            out.append(_indent(a["text"], ""))
        for rule in a.get("policy") or []:
            if rule.get("text"):
                out.append(f"- {rule['text']}")
                continue
            keys = [k for k in rule.get("prefer") or [] if not _constant_key(k)]
            said = "prefer " + ", then ".join(_key_words(book, k) for k in keys)
            cond = f"When {book.expr(rule['when'])}" if "when" in rule else "Otherwise"
            out.append(f"- {cond}: {said if keys else 'take the first option offered'}")
    return out + [""]


def _key_words(book, key) -> str:
    """A policy key in words: ``the highest X``, ``the lowest X`` (a key written ``-X``), or ``an
    option for which C`` (a key that is yes or no)."""
    try:
        tree = parse_expression(str(key))
    except DslSyntaxError:
        return str(key)
    if isinstance(tree, A.Neg):
        return "the lowest " + book.describer.expr(tree.operand)
    if _yes_no(key):
        return "an option for which " + book.describer.expr(tree)
    return "the highest " + book.describer.expr(tree)


def _constant_key(key) -> bool:
    """A policy key that is the same for every option (``0``): it prefers none."""
    if isinstance(key, (int, float, bool)):
        return True
    try:
        return isinstance(parse_expression(str(key)), A.Literal)
    except DslSyntaxError:
        return False


def _always(book) -> list[str]:
    g = book.program.spec.game
    if not g.get("triggers"):
        return []
    out = ["## Rules that always apply", "Whenever the event named happens, the rule follows at once."]
    for tr in g["triggers"]:
        out.append("- " + _trigger_head(book, tr) + ":")
        out += book.said(tr, renames=ENGINE_EVENTS.get(tr.get("on")))
    return out + [""]


def _ending(book) -> list[str]:
    """How the game ends, what scores and who wins."""
    g = book.program.spec.game
    flow = g.get("flow") or {}
    scoring = g.get("scoring") or {}
    out = ["## How the game ends and who wins"]
    if flow.get("until"):
        decl = (g.get("values") or {}).get(str(flow["until"]).strip())
        if isinstance(decl, dict) and decl.get("text"):
            until = decl["text"].rstrip(".")
        elif str(flow["until"]).strip() in (g.get("vars") or {}):  # a flag the rules set (the phases say when)
            until = f"{spaced(flow['until'])} is set"
        else:
            until = book.expr(flow["until"])
        out.append(f"The game ends after the round in which: {until}.")
    if flow.get("max_rounds"):
        out.append(f"It ends after round {flow['max_rounds']} at the latest.")
    lowest = scoring.get("lowest_wins") is True
    parts = scoring.get("parts") or []
    if parts:
        out.append(
            "Each player's score is the sum of: " + "; ".join(p.get("label", spaced(p["id"])) for p in parts) + "."
        )
    out.append(f"The {'lowest' if lowest else 'highest'} score wins.")
    scored = {"s": "the player"}
    tb = scoring.get("tie_break") or []
    order = " (lowest first)" if lowest else " (highest first)"
    out.append(
        "Ties: "
        + ("broken by " + ", then ".join(book.expr(t, scored) for t in tb) + order if tb else "all tied players win")
        + "."
    )
    if parts:
        out += ["", "### Scoring"]
        for p in parts:
            out.append(f"- {p.get('label', spaced(p['id']))}: {_value_words(book, p['value'], scored)}")
            if book.source:
                out.append(f"{VERBATIM}    Source: {_code(p['value'])}")
    return out + [""]


def _value_words(book, expr, renames=None) -> str:
    """An expression naming a value with a ``text``: that text; else the expression in words."""
    decl = (book.program.spec.game.get("values") or {}).get(str(expr).strip()) if isinstance(expr, str) else None
    if isinstance(decl, dict) and decl.get("text"):
        return decl["text"]
    return book.expr(expr, renames)


def _param_names(params) -> dict:
    """A named value's parameters in words: ``card`` as ``the card``; a letter stays itself."""
    return {p: f"the {spaced(p)}" if len(p) > 1 else p for p in params}


def _a(param: str) -> str:
    return f"a {spaced(param)}" if len(param) > 1 else param


def _values(book) -> list[str]:
    program = book.program
    g = program.spec.game
    if not program.values:
        return []
    out = ["## Values the rules use", "Components and variants may change them (the changes are listed)."]
    game_mods = g.get("modifiers") or []
    for name, vd in program.values.items():
        vdef = g["values"][name]
        names = _param_names(vd.params)
        of = f" (of {_and_words([_a(p) for p in vd.params])})" if vd.params else ""
        if isinstance(vdef, dict) and vdef.get("text"):
            said = vdef["text"]
        else:
            said = book.expr(vdef["value"] if isinstance(vdef, dict) else vdef, names)
        out.append(f"- {spaced(name)}{of}: {said}")
        if book.source:
            out.append(f"{VERBATIM}    Source: {_code(vdef['value'] if isinstance(vdef, dict) else vdef)}")
        by_cards = [m for m in vd.mods if m.type is not None]
        if by_cards:
            holders = list(dict.fromkeys(str(program.types[m.type]["name"]) for m in by_cards))
            out.append(f"    Changed by: {_and_words(holders)} (see Components).")
        for m in game_mods:
            if isinstance(m, dict) and m.get("value") == name:
                _, scope, change = _modifier_parts(book, m)
                out.append(
                    "    Changed: "
                    + (f"for {scope}, " if scope else "")
                    + change
                    + (f" ({m['rule']})" if m.get("rule") else "")
                )
    return out + [""]


def _variant_changes(book, v: dict) -> list[str]:
    """What a variant changes, in words: table rows, constants, values, modifiers, scoring."""
    out = []
    for n, row in sorted((v.get("table") or {}).items(), key=lambda kv: int(kv[0])):
        cells = ", ".join(f"{spaced(k)} {words(x)}" for k, x in row.items() if k != "status")
        out.append(f"at {n} player{'s' if int(n) != 1 else ''}: {cells}")
    for name, decl in (v.get("constants") or {}).items():
        out.append(f"{spaced(name)}: {words(_declared(decl)[0])}")
    for name, decl in (v.get("values") or {}).items():
        value = decl.get("value") if isinstance(decl, dict) else decl
        out.append(f"{spaced(name)}: {book.expr(value)}")
    for m in v.get("modifiers") or []:
        out.append(_modifier_words(book, m))
    scoring = v.get("scoring") or {}
    if scoring.get("tie_break"):
        out.append("ties broken by " + ", then ".join(book.expr(t, {"s": "the player"}) for t in scoring["tie_break"]))
    if "lowest_wins" in scoring:
        out.append("the " + ("lowest" if scoring["lowest_wins"] else "highest") + " score wins")
    if v.get("players"):
        p = v["players"]
        low, high = p.get("min"), p.get("max")
        if low is not None and high is not None:
            out.append(f"it is played by {low} to {high} players")
        elif high is not None:
            out.append(f"it is played by at most {high} player{'s' if high != 1 else ''}")
        elif low is not None:
            out.append(f"it is played by at least {low} players")
    for tr in v.get("triggers") or []:
        out.append("adds a rule: " + _trigger_head(book, tr))
    for key in v:
        if key not in ("id", "name", "rule", "text", "table", "constants", "values", "modifiers", "scoring") + (
            "players",
            "triggers",
            "status",
        ):
            out.append(f"changes the {spaced(key)}")
    return out


def _variants(book) -> list[str]:
    g = book.program.spec.game
    if not g.get("variants"):
        return []
    used = set(book.program.spec.variants)
    out = ["## Variants"]
    for v in g["variants"]:
        out.append(
            f"- **{v.get('name') or spaced(v['id'])}** (`{v['id']}`"
            + (f", {v['rule']}" if v.get("rule") else "")
            + (", in force" if v["id"] in used else "")
            + ")"
            + (f": {v['text']}" if v.get("text") else "")
            + _status(v)
        )
        out += [f"    Changes {c}." if i == 0 else f"    and {c}." for i, c in enumerate(_variant_changes(book, v))]
    return out + [""]


def card_rule_words(program, component: dict) -> list[str]:
    """What a component does, in words, one line each (its abilities, triggers and modifiers, as the
    rulebook says them, without its text): for comparing two versions of it (``mason diff``)."""
    rules = {k: component[k] for k in ("abilities", "triggers", "modifiers") if component.get(k)}
    return [line.strip() for line in _card_rules(_Book(program, False), rules)]


def card_modifier_words(program, type_id: str) -> list[str]:
    """The modifiers of the rules in force (the game's, its variants' and expansions') that hold for the
    components of ``type_id``'s kind, in words (``toll of stone carts: 1 less``): those whose
    condition picks a kind of component by a property its data has (the terminal's ``card NAME``)."""
    book = _Book(program, False)
    data = program.types[type_id]
    out = []
    for m in program.spec.game.get("modifiers") or []:
        when = m.get("when") if isinstance(m, dict) else None
        kind = _ONE_KIND.fullmatch(when) if isinstance(when, str) else None
        if kind and str(data.get(kind.group(2))) == (kind.group(3) or kind.group(4)):
            out.append(_modifier_words(book, m) + (f" ({m['rule']})" if m.get("rule") else ""))
    return out


def rules_text(program, source: bool = False, wrap: bool = True) -> str:
    """A game's rules as a rulebook, generated from its YAML: components and their data, setup, the
    round, a turn, the rules that always apply, the end and scoring, then the values and variants.
    Rules appear in words; ``source`` adds each rule's DSL as written; ``wrap`` False leaves each
    paragraph on one line."""
    book = _Book(program, source)
    out = _intro(program)
    out += _components(book)
    out += _setup(book)
    out += _round(book)
    out += _turn(book)
    out += _automata(book)
    out += _always(book)
    out += _ending(book)
    out += _values(book)
    out += _variants(book)
    sections = [line[3:] for line in out if line.startswith("## ")]
    at = out.index("## Components")
    out[at:at] = ["Contents: " + "; ".join(h[0].lower() + h[1:] for h in sections) + ".", ""]
    text = "\n".join(out).rstrip("\n") + "\n"
    if not wrap:
        return text
    return "\n".join(_wrap(text.rstrip("\n"))) + "\n"
