"""The rules of a game as text, generated from its YAML and DSL (``mason rules``)."""

from __future__ import annotations

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


def _said(item: dict, code_key: str = "do", pad: str = "      ") -> list[str]:
    """An item's ``text`` when it has one (what a rulebook says), else its rule as written."""
    if item.get("text"):
        return [_indent(item["text"], pad)]
    if item.get(code_key) not in (None, ""):
        return [_indent(item[code_key], pad)]
    return []


def _indent(text: str, pad: str = "      ") -> str:
    return "\n".join(pad + line for line in str(text).strip().splitlines())


def _automata(automata: dict) -> list[str]:
    """The automated seats: who, at which player counts, and the policy that takes their decisions."""
    out = [
        "## Automated seats",
        "An automated seat is played by the rules below, not by a person or a bot: for each decision",
        "the first rule whose condition holds ranks the options by its keys (highest first, ties to",
        "the option offered first); when no rule applies, the first option offered is taken.",
    ]
    for aid, a in automata.items():
        counts = a.get("players") or []
        status = f" [{a['status']}]" if a.get("status") and a["status"] != "exact" else ""
        out.append(f"### {a.get('name', aid)} (`{aid}`){status}")
        out.append(
            f"Joins at {' or '.join(str(n) for n in counts)} player{'s' if counts != [1] else ''}, "
            f"after the players' seats."
        )
        if a.get("text"):
            out.append(a["text"])
        for rule in a.get("policy") or []:
            if rule.get("text"):
                out.append(f"- {rule['text']}")
                continue
            keys = ", then ".join(str(k) for k in rule.get("prefer") or []) or "the first option offered"
            out.append(f"- {'When ' + str(rule['when']) if 'when' in rule else 'Otherwise'}: prefer {keys}")
    return out


def _declared(decl):
    """(value, text) of a constant or column declaration: a bare value or ``{value, text, ...}``."""
    if isinstance(decl, dict) and "value" in decl:
        return decl["value"], decl.get("text")
    return decl, None


def _start(program) -> list[str]:
    """Constants and the counters' starts, caps and supplies, stated."""
    g = program.spec.game
    out = []
    if g.get("constants"):
        out.append("## Constants")
        for name, decl in g["constants"].items():
            value, text = _declared(decl)
            out.append(
                f"- {name.replace('_', ' ')}: {words(program.constants.get(name, value))}"
                + (f" ({text})" if text else "")
            )
        out.append("")
    if program.counters:
        out.append("## Counters")
        for name, c in program.counters.items():
            label = label_of(c, name)
            whose = "the game has" if c.get("scope") == "game" else "each player has"
            start = c.get("start", 0)
            line = f"- {label}: {whose} {words(start) if not isinstance(start, str) else start} at the start"
            if c.get("cap") is not None:
                line += f", at most {words(c['cap'])}"
            if c.get("supply"):
                sup = program.counters.get(c["supply"]) or {}
                line += f"; taken from and returned to the {sup.get('label') or c['supply'].replace('_', ' ')}"
            out.append(line)
        out.append("")
    return out


def _table(program) -> list[str]:
    if not program.table_rows:
        return []
    cols = program.table_columns
    out = [
        "## By player count",
        "| players | " + " | ".join(c.replace("_", " ") for c in cols) + " |",
        "|---" * (len(cols) + 1) + "|",
    ]
    for n, row in sorted(program.table_rows.items()):
        out.append(f"| {n} | " + " | ".join(words(row[c]) if c in row else "-" for c in cols) + " |")
    return out + [""]


def _winning(g) -> list[str]:
    """How the game ends and who wins."""
    flow = g.get("flow") or {}
    scoring = g.get("scoring") or {}
    out = ["## How the game ends and who wins"]
    if flow.get("until"):
        until = _said_value(g, flow["until"]).rstrip(".")
        if until in (g.get("vars") or {}):  # a flag the rules set (the phases say when)
            until = f"{until.replace('_', ' ')} is set"
        out.append(f"The game ends after the round in which: {until}.")
    if flow.get("max_rounds"):
        out.append(f"It ends after round {flow['max_rounds']} at the latest.")
    lowest = scoring.get("lowest_wins") is True
    parts = scoring.get("parts") or []
    out.append(
        "Each player's score is the sum of: "
        + "; ".join(p.get("label", p["id"].replace("_", " ")) for p in parts)
        + "."
        if parts
        else ""
    )
    out.append(f"The {'lowest' if lowest else 'highest'} score wins.")
    tb = scoring.get("tie_break") or []
    out.append(
        "Ties: "
        + (
            "broken by " + ", then ".join(str(t) for t in tb) + (" (lowest first)" if lowest else " (highest first)")
            if tb
            else "all tied players win"
        )
        + "."
    )
    return [line for line in out if line] + [""]


def rules_text(program) -> str:
    spec = program.spec
    g = spec.game
    out = [f"# {program.name}", ""]
    if g.get("description"):
        out += [g["description"], ""]
    out.append(f"Players: {program.min_players} to {program.max_players}.")
    if spec.variants:
        out.append("Variants in force: " + ", ".join(spec.variants) + ".")
    out.append("")
    out += _winning(g)
    if program.automata:
        out += _automata(g["automata"]) + [""]
    out += _table(program)
    out += _start(program)
    out.append("## Components")
    for fam, fdef in program.families.items():
        comps = spec.components.get(fam, [])
        total = sum(int(c.get("copies", 1)) for c in comps)
        out.append(f"### {fam.replace('_', ' ')} ({total} cards)")
        props = fdef.get("properties") or {}
        for c in comps:
            t = program.types[c["id"]]
            facts = [f for f in (_fact(p, t.get(p), props[p]) for p in props) if f]
            copies = f" x{c.get('copies', 1)}" if c.get("copies", 1) != 1 else ""
            status = f" [{c['status']}]" if c.get("status") and c.get("status") != "exact" else ""
            out.append(f"- **{t['name']}**{copies}" + (f" ({', '.join(facts)})" if facts else "") + status)
            if c.get("text"):
                out.append(f"  {c['text']}")
            for a in c.get("abilities") or []:
                out.append(
                    f"  - Ability '{a.get('label', a['id'])}'"
                    + (f" ({a['rule']})" if a.get("rule") else "")
                    + (f", if {a['if']}" if a.get("if") else "")
                    + (f" (when not: {a['if_text']})" if a.get("if_text") else "")
                    + (f", after {', '.join(a['after'])}" if a.get("after") else "")
                    + ":"
                )
                out += _said(a)
            for tr in c.get("triggers") or []:
                out.append(
                    f"  - When {tr['on']}"
                    + (f" and {tr['when']}" if tr.get("when") else "")
                    + (f" ({tr['rule']})" if tr.get("rule") else "")
                    + ":"
                )
                out += _said(tr)
            for m in c.get("modifiers") or []:
                op = next(k for k in ("add", "set", "max", "min") if k in m)
                out.append(
                    f"  - Modifies {m['value']}: {op} {_code(m[op])}"
                    + (f" when {m['when']}" if m.get("when") else "")
                    + (f" ({m['rule']})" if m.get("rule") else "")
                )
                if m.get("text"):
                    out.append(_indent(m["text"]))
        out.append("")
    setup = g.get("setup")
    if setup:
        out.append("## Setup")
        for step in setup if isinstance(setup, list) else [{"id": "setup", "do": setup}]:
            out += [f"### {step['id']}"] + _said(step, pad="    ")
        out.append("")
    flow = g.get("flow") or {}
    out.append("## Each round")
    for ph in flow.get("phases") or []:
        out += [f"### Phase {ph['id']}"] + _said(ph, pad="    ")
    stall = flow.get("stall") if isinstance(flow.get("stall"), dict) else None
    if stall:
        said = (
            stall.get("text")
            or f"when {stall.get('when', 'nothing changes')} for {stall.get('after', 'several')} rounds"
        )
        out.append(f"\nA stalled game: {said}" + (f" Then: {stall['do']}" if stall.get("do") else ""))
    out.append("")
    turn = g.get("turn") or {}
    if turn:
        out.append("## A turn")
        if turn.get("required"):
            out.append("Must be done before the turn ends: " + ", ".join(turn["required"]))
        for a in turn.get("actions") or []:
            extra = []
            if a.get("group"):
                extra.append(f"one action of group '{a['group']}'")
            if a.get("after"):
                extra.append("after " + ", ".join(a["after"]))
            if a.get("times"):
                extra.append(f"up to {a['times']} times")
            if a.get("if"):
                extra.append(f"if {a['if']}" + (f" (when not: {a['if_text']})" if a.get("if_text") else ""))
            out.append(
                f"- **{a.get('label', a['id'])}**"
                + (f" ({a['rule']})" if a.get("rule") else "")
                + (": " + "; ".join(extra) if extra else "")
            )
            out += _said(a)
        out.append("")
    if g.get("triggers"):
        out.append("## Always")
        for tr in g["triggers"]:
            out.append(
                f"- When {tr['on']}"
                + (f" and {tr['when']}" if tr.get("when") else "")
                + (f" ({tr['rule']})" if tr.get("rule") else "")
                + ":"
            )
            out += _said(tr)
        out.append("")
    if program.values:
        out.append("## Named values (components and variants modify them)")
        for name, vd in program.values.items():
            vdef = g["values"][name]
            params = f"({', '.join(vd.params)})" if vd.params else ""
            mods = f"  [modified by {len(vd.mods)}]" if vd.mods else ""
            if isinstance(vdef, dict) and vdef.get("text"):
                out.append(f"- {name}{params}: {vdef['text']}{mods}")
            else:
                text = vdef["value"] if isinstance(vdef, dict) else vdef
                out.append(f"- {name}{params} = {_code(text)}{mods}")
        out.append("")
    scoring = g.get("scoring") or {}
    out.append("## Scoring")
    for p in scoring.get("parts") or []:
        out.append(f"- {p.get('label', p['id'])}: {_said_value(g, p['value'])}")
    out.append("")
    if g.get("variants"):
        out.append("## Variants")
        for v in g["variants"]:
            out.append(
                f"- `{v['id']}`: {v.get('name', '')}"
                + (f" ({v['rule']})" if v.get("rule") else "")
                + (f". {v['text']}" if v.get("text") else "")
            )
    return "\n".join(out) + "\n"
