"""The rules of a game as text, generated from its YAML and DSL (``mason rules``)."""
from __future__ import annotations


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


def _indent(text: str, pad: str = "      ") -> str:
    return "\n".join(pad + line for line in str(text).strip().splitlines())


def _automata(automata: dict) -> list[str]:
    """The automated seats: who, at which player counts, and the policy that takes their decisions."""
    out = ["## Automated seats",
           "An automated seat is played by the rules below, not by a person or a bot: for each decision",
           "the first rule whose condition holds ranks the options by its keys (highest first, ties to",
           "the option offered first); when no rule applies, the first option offered is taken."]
    for aid, a in automata.items():
        counts = a.get("players") or []
        status = f" [{a['status']}]" if a.get("status") and a["status"] != "exact" else ""
        out.append(f"### {a.get('name', aid)} (`{aid}`){status}")
        out.append(f"Joins at {' or '.join(str(n) for n in counts)} player{'s' if counts != [1] else ''}, "
                   f"after the players' seats.")
        if a.get("text"):
            out.append(a["text"])
        for rule in a.get("policy") or []:
            keys = ", then ".join(str(k) for k in rule.get("prefer") or []) or "the first option offered"
            out.append(f"- {'When ' + str(rule['when']) if 'when' in rule else 'Otherwise'}: prefer {keys}")
    return out


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
    if program.automata:
        out += _automata(g["automata"]) + [""]
    if program.table_rows:
        out.append("## By player count")
        cols = program.table_columns
        out.append("| players | " + " | ".join(cols) + " |")
        out.append("|---" * (len(cols) + 1) + "|")
        for n, row in sorted(program.table_rows.items()):
            out.append(f"| {n} | " + " | ".join(str(row.get(c, "")) for c in cols) + " |")
        out.append("")
    out.append("## Components")
    for fam, fdef in program.families.items():
        comps = spec.components.get(fam, [])
        total = sum(int(c.get("copies", 1)) for c in comps)
        out.append(f"### {fam} ({total} cards)")
        props = list((fdef.get("properties") or {}))
        for c in comps:
            t = program.types[c["id"]]
            facts = ", ".join(f"{p} {t[p]}" for p in props if t.get(p) not in (None, False))
            copies = f" x{c.get('copies', 1)}" if c.get("copies", 1) != 1 else ""
            status = f" [{c['status']}]" if c.get("status") and c.get("status") != "exact" else ""
            out.append(f"- **{t['name']}**{copies} ({facts}){status}")
            if c.get("text"):
                out.append(f"  {c['text']}")
            for a in c.get("abilities") or []:
                out.append(f"  - Ability '{a.get('label', a['id'])}'" + (f" ({a['rule']})" if a.get("rule") else "")
                           + (f", if {a['if']}" if a.get("if") else "")
                           + (f", after {', '.join(a['after'])}" if a.get("after") else "") + ":")
                out.append(_indent(a["do"]))
            for tr in c.get("triggers") or []:
                out.append(f"  - When {tr['on']}" + (f" and {tr['when']}" if tr.get("when") else "")
                           + (f" ({tr['rule']})" if tr.get("rule") else "") + ":")
                out.append(_indent(tr["do"]))
            for m in c.get("modifiers") or []:
                op = next(k for k in ("add", "set", "max", "min") if k in m)
                out.append(f"  - Modifies {m['value']}: {op} {m[op]}" + (f" when {m['when']}" if m.get("when") else "")
                           + (f" ({m['rule']})" if m.get("rule") else ""))
        out.append("")
    setup = g.get("setup")
    if setup:
        out.append("## Setup")
        for step in setup if isinstance(setup, list) else [{"id": "setup", "do": setup}]:
            out += [f"### {step['id']}", _indent(step["do"], "    ")]
        out.append("")
    flow = g.get("flow") or {}
    out.append("## Each round")
    for ph in flow.get("phases") or []:
        out += [f"### Phase {ph['id']}", _indent(ph["do"], "    ")]
    if flow.get("until"):
        out.append(f"\nThe game ends after the round in which: {flow['until']}")
    stall = flow.get("stall") if isinstance(flow.get("stall"), dict) else None
    if stall:
        said = stall.get("text") or f"when {stall.get('when', 'nothing changes')} for {stall.get('after', 'several')} rounds"
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
                extra.append(f"if {a['if']}")
            out.append(f"- **{a.get('label', a['id'])}**" + (f" ({a['rule']})" if a.get("rule") else "")
                       + (": " + "; ".join(extra) if extra else ""))
            out.append(_indent(a["do"]))
        out.append("")
    if g.get("triggers"):
        out.append("## Always")
        for tr in g["triggers"]:
            out.append(f"- When {tr['on']}" + (f" and {tr['when']}" if tr.get("when") else "")
                       + (f" ({tr['rule']})" if tr.get("rule") else "") + ":")
            out.append(_indent(tr["do"]))
        out.append("")
    if program.values:
        out.append("## Named values (components and variants modify them)")
        for name, vd in program.values.items():
            vdef = g["values"][name]
            text = vdef["value"] if isinstance(vdef, dict) else vdef
            params = f"({', '.join(vd.params)})" if vd.params else ""
            out.append(f"- {name}{params} = {text}" + (f"  [modified by {len(vd.mods)}]" if vd.mods else ""))
        out.append("")
    scoring = g.get("scoring") or {}
    out.append("## Scoring")
    for p in scoring.get("parts") or []:
        out.append(f"- {p.get('label', p['id'])}: {p['value']}")
    tb = scoring.get("tie_break") or []
    out.append("Ties: " + ("broken by " + ", then ".join(str(t) for t in tb) if tb else "all tied players win"))
    out.append("")
    if g.get("variants"):
        out.append("## Variants")
        for v in g["variants"]:
            out.append(f"- `{v['id']}`: {v.get('name', '')}" + (f" ({v['rule']})" if v.get("rule") else ""))
    return "\n".join(out) + "\n"
