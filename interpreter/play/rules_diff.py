"""What changed between two rule sets (``mason diff A B``): two game folders, a game and a variant of it,
two variants. Both sides are loaded and compiled as a game would be (expansions and variants merged),
and compared as data and as words, never as text, so a file reformatted (keys reordered, another YAML
style, a rule's DSL re-indented) shows no change:

- components added, removed, and changed field by field (their data as the program holds it: declared
  properties with their defaults, copies, status), and what each does in words (abilities, triggers,
  modifiers, as the rulebook says them: ``rules_text.card_rule_words``);
- the game's data (players, table, constants, counters, zones, variables, sets, families, boards),
  key by key;
- every other section of the rulebook (``mason rules``) whose words differ: setup, the round, a turn,
  the rules that always apply, the end and scoring, values (with the modifiers on them, in words),
  variants, automated seats.
"""

from __future__ import annotations

import difflib

from mason.presentation.rules_text import card_rule_words, rules_text

RULE_KEYS = ("abilities", "triggers", "modifiers", "text")  # said in words, compared as words
# game.yaml's data, compared key by key; every other part is compared as the rulebook says it
GAME_DATA: tuple[str, ...] = ("name", "players", "sets", "table", "constants", "counters", "zones", "vars")
GAME_DATA += ("card_state", "families", "boards", "events")
ABSENT = object()


def rules_diff(a, b) -> dict:
    """The differences between two compiled programs ``a`` and ``b``, as data: ``components`` (``added``,
    ``removed``: ``{"id", "family", "name"}``; ``changed``: also ``fields`` (``{"field", "a", "b"}``) and
    ``rules`` (``{"removed", "added"}`` lines in words)), ``game`` (``{"field", "a", "b"}``, dotted paths),
    ``sections`` (``{"section", "removed", "added"}``: rulebook lines) and ``count`` (all of them)."""
    comps = _components(a, b)
    game = _data(a.spec.game, b.spec.game)
    sections = _sections(a, b)
    count = (
        len(comps["added"])
        + len(comps["removed"])
        + sum(len(c["fields"]) + (1 if c.get("rules") else 0) for c in comps["changed"])
        + len(game)
        + len(sections)
    )
    return {"components": comps, "game": game, "sections": sections, "count": count}


def _component_data(prog) -> dict:
    """Each component type's data, as the program holds it, by id: its declared properties with their
    defaults, its copies and its status (what it does is compared in words)."""
    out = {}
    for fam, comps in prog.spec.components.items():
        for c in comps:
            if not isinstance(c, dict) or c.get("id") not in prog.types:
                continue
            data = {k: v for k, v in c.items() if k not in RULE_KEYS}
            data.update({k: v for k, v in prog.types[c["id"]].items() if k not in RULE_KEYS})
            data.setdefault("copies", 1)
            data["family"] = fam
            out[c["id"]] = (data, c)
    return out


def _components(a, b) -> dict:
    da, db = _component_data(a), _component_data(b)
    added = [_named(db[t][0]) for t in db if t not in da]
    removed = [_named(da[t][0]) for t in da if t not in db]
    changed = []
    for tid in da:
        if tid not in db:
            continue
        (xa, ca), (xb, cb) = da[tid], db[tid]
        fields = [
            {"field": k, "a": _shown(xa.get(k, ABSENT)), "b": _shown(xb.get(k, ABSENT))}
            for k in list(xa) + [k for k in xb if k not in xa]
            if xa.get(k, ABSENT) != xb.get(k, ABSENT)
        ]
        wa, wb = card_rule_words(a, ca), card_rule_words(b, cb)
        rules = _lines_diff(wa, wb) if wa != wb else None
        if fields or rules:
            item = {**_named(xb), "fields": fields}
            if rules:
                item["rules"] = rules
            changed.append(item)
    return {"added": added, "removed": removed, "changed": changed}


def _named(data: dict) -> dict:
    return {"id": data["id"], "family": data["family"], "name": data.get("name", data["id"])}


def _shown(v):
    return None if v is ABSENT else v


def _data(ga: dict, gb: dict) -> list[dict]:
    out: list[dict] = []
    for key in GAME_DATA:
        _walk(ga.get(key, ABSENT), gb.get(key, ABSENT), key, out)
    return out


def _walk(a, b, path: str, out: list) -> None:
    """Leaf differences of two JSON-like values, with dotted paths (``counters.bank.start``)."""
    if a == b and type(a) is type(b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _walk(a.get(k, ABSENT), b.get(k, ABSENT), f"{path}.{k}", out)
        return
    out.append({"field": path, "a": _shown(a), "b": _shown(b)})


def _sections(a, b) -> list[dict]:
    """The rulebook's sections (but the components, compared above) whose lines differ."""
    sa, sb = _split(rules_text(a, wrap=False)), _split(rules_text(b, wrap=False))
    out = []
    for name in list(sa) + [n for n in sb if n not in sa]:
        if name == "Components":
            continue
        la, lb = sa.get(name, []), sb.get(name, [])
        if la != lb:
            out.append({"section": name, **_items_diff(la, lb)})
    return out


Item = tuple[str, list[str]]  # a rulebook line and, for a list item (``- ...``), the lines indented under it


def _split(text: str) -> dict[str, list[Item]]:
    """The rulebook's lines by ``## `` section (the lines before the first: ``Introduction``), each a list
    of items: a list item (``- end threshold: threshold``) holds the lines indented under it (``Changed:
    1 less``), every other line stands alone."""
    out: dict[str, list[Item]] = {"Introduction": []}
    current = "Introduction"
    under_item = False  # whether an indented line belongs to the list item above it
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
            under_item = False
        elif line.strip() and not line.startswith("Contents: "):
            if under_item and line[:1].isspace():
                out[current][-1][1].append(line.strip())
                continue
            out[current].append((line.strip(), []))
            under_item = line.startswith("- ")
    return out


def _label(head: str) -> str:
    """What a list item is about, to name it beside a line under it: ``- end threshold: threshold`` is
    ``end threshold``, ``- When “built” happens (CIT-R83):`` is ``When “built” happens (CIT-R83)``."""
    text = head.removeprefix("- ").rstrip(":")
    return text.partition(": ")[0]


def _items_diff(ia: list[Item], ib: list[Item]) -> dict:
    """The lines only ``ia`` has (``removed``) and only ``ib`` has (``added``), in order. Items are matched
    by their first line; a line under an item is compared with the lines under the matched item, and one
    that differs is named by its item (``end threshold: Changed: 1 less (CIT-R103)``), since alone it
    would not say what it changes. Items without a partner are compared line by line."""
    heads_a, heads_b = [h for h, _ in ia], [h for h, _ in ib]
    removed: list[str] = []
    added: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=heads_a, b=heads_b, autojunk=False).get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for (ha, sa), (hb, sb) in zip(ia[i1:i2], ib[j1:j2]):
                if ha != hb:  # an item changed in place (a variant now in force): its first line, then its own
                    removed.append(ha)
                    added.append(hb)
                under = _lines_diff(sa, sb)
                removed += [f"{_label(ha)}: {x}" for x in under["removed"]]
                added += [f"{_label(hb)}: {x}" for x in under["added"]]
            continue
        # items without a partner: line by line, so a body that stayed the same is not shown twice
        flat = _lines_diff(
            [x for h, sub in ia[i1:i2] for x in (h, *sub)], [x for h, sub in ib[j1:j2] for x in (h, *sub)]
        )
        removed += flat["removed"]
        added += flat["added"]
    return {"removed": removed, "added": added}


def _lines_diff(la: list[str], lb: list[str]) -> dict:
    """The lines only ``la`` has (``removed``) and only ``lb`` has (``added``), in order."""
    removed, added = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=la, b=lb, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            removed += la[i1:i2]
        if op in ("replace", "insert"):
            added += lb[j1:j2]
    return {"removed": removed, "added": added}


def diff_lines(report: dict, a_name: str, b_name: str) -> list[str]:
    """The report of ``rules_diff`` in words."""
    from mason.presentation.render import in_words

    def val(v) -> str:
        """A value in words (a mapping or a list as data)."""
        return "(none)" if v is None else in_words(v) if not isinstance(v, (dict, list)) else str(v)

    out = [f"A: {a_name}", f"B: {b_name}"]
    if not report["count"]:
        return out + ["no difference: the same components, data and rules"]
    comps = report["components"]
    if comps["added"] or comps["removed"] or comps["changed"]:
        out.append("Components:")
        out += [f"  added {c['family']} {c['name']} ({c['id']})" for c in comps["added"]]
        out += [f"  removed {c['family']} {c['name']} ({c['id']})" for c in comps["removed"]]
        for c in comps["changed"]:
            said = "; ".join(f"{f['field']} {val(f['a'])} -> {val(f['b'])}" for f in c["fields"])
            out.append(f"  changed {c['family']} {c['name']} ({c['id']})" + (f": {said}" if said else ""))
            if c.get("rules"):
                out.append("    what it does (- A, + B):")
                out += [f"      - {x}" for x in c["rules"]["removed"]] + [f"      + {x}" for x in c["rules"]["added"]]
    if report["game"]:
        out.append("Game data:")
        out += [f"  {g['field']}: {val(g['a'])} -> {val(g['b'])}" for g in report["game"]]
    for s in report["sections"]:
        out.append(f"Rules, {s['section']} (- A, + B):")
        out += [f"  - {x}" for x in s["removed"]] + [f"  + {x}" for x in s["added"]]
    n = report["count"]
    out.append(f"{n} difference{'s' if n != 1 else ''}")
    return out
