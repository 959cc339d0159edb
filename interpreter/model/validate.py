"""Validation of a game folder: YAML, JSON Schema, semantic checks and DSL compilation.

Every problem becomes a DefinitionError placed at the offending node (``file:line:col``); all of
them are collected and returned sorted by place. This is the one place where jsonschema errors
are turned into positioned diagnostics.
"""

from __future__ import annotations

import contextlib
import gc
from pathlib import Path

from mason.errors import DefinitionError, DefinitionErrors, Place, did_you_mean
from mason.model import cache
from mason.model.expansions import find_expansion, list_expansions
from mason.model.loader import Spec, _reader, apply_variants, load_spec
from mason.model.program import MAX_CARDS, Program, check_constants
from mason.model.schema import SCHEMAS, _schema_error, _schema_errors, _schema_for, _show, _validator, check_file, where  # noqa: F401  (re-exported)
from mason.runtime import engine

BASIC_TYPES = {"int": int, "str": str, "bool": bool, "any": object}


def validate_game(
    name: str, variants=(), expansions=(), complete: bool = False
) -> tuple[Program | None, list[DefinitionError]]:
    """Return (program or None, sorted errors). Never raises for a problem in the rule files.

    Stages run as far as the earlier ones allow, so one run reports as much as it can: the files
    that read are schema-checked; the semantic checks need the schema to hold; the DSL is
    compiled when every file read and met the schema, even if other checks found problems
    (a duplicate key, an unknown colour, a count that does not add up).

    ``complete`` (what ``mason validate`` asks) also checks everything the game can run besides:
    the game with each of its variants, and with each expansion it ships (with those it requires),
    so that a mistake inside a variant is found before anyone chooses it. Their errors say which
    variant or expansion found them.
    """
    with _collector_paused():
        return _validate_game(name, variants, expansions, complete)


@contextlib.contextmanager
def _collector_paused():
    """Compiling builds many objects that live on (closures, nodes, generated functions); the cyclic
    garbage collector's passes over them free nothing and took 15-25% of the CPU of ``mason validate``
    (fresh processes, two of the shipped games). It is paused while compiling and on again after, when
    it collects whatever cycles compiling left (peak memory of the larger game's validation: 65 MB, not 60)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _validate_game(name, variants, expansions, complete):
    files: dict | None = {} if complete else None
    checked: set[str] = set()
    spec, program, errors = _validate(name, variants, expansions, files, checked)
    if not complete or spec is None or any(e.code in _UNREAD or e.code == "definition/schema" for e in errors):
        return program, sorted(_unique(errors), key=_key)
    seen = {(e.place, e.code, e.message) for e in errors}
    done = set(variants)
    for vid in _variant_ids(spec):
        if vid not in done:
            done.add(vid)
            _, _, found = _validate(
                name, tuple(variants) + (vid,), expansions, files, checked, _changes_rules(spec, vid)
            )
            errors += _new(found, seen, f" (with variant '{vid}')")
    for xid in list_expansions(spec.root):
        if xid in expansions:
            continue
        chain = tuple(expansions) + tuple(
            x for x in _with_required(spec, xid, files, find_expansion) if x not in expansions
        )
        xspec, _, found = _validate(name, variants, chain, files, checked)
        folder = find_expansion(spec, xid)
        errors += _new(found, seen, f" (with expansion '{xid}')", folder)
        for vid in _variant_ids(xspec) if not found else ():  # the variants the expansion brings
            if vid not in done:
                done.add(vid)
                _, _, found_v = _validate(name, tuple(variants) + (vid,), chain, files, checked)
                errors += _new(found_v, seen, f" (with expansion '{xid}' and variant '{vid}')", folder)
    if errors:
        program = None
    return program, sorted(_unique(errors), key=_key)


# what a variant may change without its DSL needing a compile (apply_overlay's data sections)
_DATA_ONLY = {"id", "name", "label", "text", "rule", "status", "table", "constants", "players"}


def _changes_rules(spec, vid) -> bool:
    """Does variant ``vid`` bring DSL or names (values, scoring, modifiers, triggers, counters)?"""
    listed = spec.game.get("variants") or []
    v = next((x for x in listed if isinstance(x, dict) and x.get("id") == vid), {})
    return any(k not in _DATA_ONLY for k in v)


def _variant_ids(spec) -> list[str]:
    listed = spec.game.get("variants") if spec is not None else None
    return [
        v["id"]
        for v in (listed if isinstance(listed, list) else ())
        if isinstance(v, dict) and isinstance(v.get("id"), str)
    ]


def _validate(name, variants, expansions, files, checked, compile_ok=True):
    """One validation run: (spec or None, program or None, errors).

    Without ``compile_ok`` the DSL is not compiled: the semantic checks and the constants' types only
    (for a variant that changes only data: table rows, constants, player counts).
    """
    errors: list[DefinitionError] = []
    spec = load_spec(name, expansions=expansions, collect=errors, files=files)
    if not spec.game:
        return None, None, errors
    read_ok = not any(e.code in _UNREAD for e in errors)
    schema_errors = []
    for shown, (data, pos) in spec.files.items():
        if shown not in checked:
            schema_errors += check_file(_schema_for(shown), data, pos)
    errors += schema_errors
    if schema_errors:
        return spec, None, errors
    checked.update(spec.files)
    base_table = spec.game.get("table")
    base_table = dict(base_table) if isinstance(base_table, dict) else {}
    if variants:
        apply_variants(spec, variants, errors)
    errors += semantic_errors(spec)
    program = None
    if any(e.code == "definition/too-large" for e in errors):
        read_ok = False  # not one object is made per card of a game past MAX_CARDS
    if read_ok and compile_ok:
        try:
            with cache.dsl_trees([pos for _, pos in spec.files.values()]):
                program = Program(spec)
                engine.prepare(program)
        except DefinitionErrors as exc:
            errors += exc.errors
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            if not errors:  # nothing explains it: an interpreter bug, let it show
                raise
            # otherwise the errors found so far name the cause
    elif read_ok:
        errors += check_constants(spec, spec.game.get("constants") or {})[3]
        errors += _table_numbers(spec, base_table)
    if errors:
        program = None
    return spec, program, errors


def _table_numbers(spec, base: dict) -> list[DefinitionError]:
    """A variant that changes table rows without rules to compile: a column that holds numbers in every
    row of the game's own table keeps holding numbers (as a constant keeps its type; the compiled run
    checks the columns the rules read as numbers)."""
    table = spec.game.get("table")
    rows = [r for r in base.values() if isinstance(r, dict)]
    numeric = {c for r in rows for c in r if all(_number(x.get(c)) for x in rows)}
    out = []
    for n, row in table.items() if isinstance(table, dict) else ():
        for c in sorted(numeric & set(row) if isinstance(row, dict) else ()):
            v = row[c]
            if v is not None and not _number(v):
                out.append(
                    DefinitionError(
                        f"table column '{c}' is {v!r} for {n} players; it holds a number in every row of the game's table",
                        spec.place(row, c),
                        "definition/type",
                    )
                )
    return out


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _new(found, seen: set, suffix: str, folder=None) -> list[DefinitionError]:
    """The errors of a variant's or an expansion's run not found before, saying which run found them."""
    out = []
    for e in _unique(found):
        key = (e.place, e.code, e.message)
        if key in seen:
            continue
        seen.add(key)
        inside = folder is not None and e.place is not None and _within(e.place.file, folder)
        out.append(e if inside else DefinitionError(e.message + suffix, e.place, e.code))
    return out


def _within(file: str, folder) -> bool:
    try:
        Path(file).resolve().relative_to(Path(folder).resolve())
        return True
    except (ValueError, OSError):
        return False


def _with_required(spec, xid, files, find_expansion) -> list[str]:
    """``xid`` after the expansions it requires (their own requirements first), as far as they are found."""
    read = _reader(files)
    order: list[str] = []

    def visit(x, trail):
        if x in order or x in trail:
            return
        folder = find_expansion(spec, x)
        requires: object = []
        if folder is not None:
            try:
                data, _ = read(folder / "expansion.yaml")
                requires = data.get("requires") if isinstance(data, dict) else None
            except DefinitionError:
                requires = None
        for r in requires if isinstance(requires, list) else ():
            if isinstance(r, str):
                visit(r, trail | {x})
        order.append(x)

    visit(xid, frozenset())
    return order


# errors after which the spec misses a file or a part: its DSL is not compiled
_UNREAD = {"definition/yaml", "definition/io", "definition/no-game", "definition/no-expansion"}


def _key(e):
    p = e.place or Place("")
    return (p.file, p.line, p.col, e.message)


def _unique(errors):
    seen, out = set(), []
    for e in errors:
        k = (e.place, e.code, e.message)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out


# ------------------------------------------------------------------ semantics
def semantic_errors(spec: Spec) -> list[DefinitionError]:
    """The checks no schema can make (references between ids, counts, shapes), positioned."""
    g = spec.game
    out: list[DefinitionError] = []
    err = lambda msg, obj, key=None, code="definition/invalid": out.append(
        DefinitionError(msg, spec.place(obj, key), code)
    )
    sets = g.get("sets") or {}
    zones = g.get("zones") or {}
    counters = g.get("counters") or {}
    families = g.get("families") or {}
    pmin, pmax = g["players"]["min"], g["players"]["max"]
    cards = 0  # in the whole game, bounded before anything is made per card
    if pmin > pmax:
        err(f"players: min {pmin} is above max {pmax}", g["players"])
    for fam, fdef in families.items():
        props = fdef.get("properties") or {}
        for pname, pdef in props.items():
            t = pdef["type"]
            if t not in BASIC_TYPES and t not in sets:
                err(
                    f"unknown property type '{t}' (int, str, bool, any or a set: {', '.join(sets)})"
                    f"{did_you_mean(t, list(BASIC_TYPES) + list(sets))}",
                    pdef,
                    "type",
                    "definition/unknown-name",
                )
        if fdef.get("zone") and fdef["zone"] not in zones:
            err(
                f"unknown zone '{fdef['zone']}'{did_you_mean(fdef['zone'], zones)}",
                fdef,
                "zone",
                "definition/unknown-name",
            )
        elif fdef.get("zone") and (zones[fdef["zone"]] or {}).get("scope", "game") != "game":
            err(f"a family starts in a game zone, not the per-seat zone '{fdef['zone']}'", fdef, "zone")
        comps = spec.components.get(fam)
        file_data = spec.family_files.get(fam)
        if isinstance(file_data, dict) and file_data.get("family") != fam:
            err(
                f"this file holds family '{file_data.get('family')}' but game.yaml loads it as '{fam}'",
                file_data,
                "family",
            )
        total = 0
        for comp in comps or []:
            copies = int(comp.get("copies", 1))
            total += copies
            if cards <= MAX_CARDS < cards + copies:
                err(
                    f"{fam} '{comp.get('id')}': {copies:,} copies bring the game's cards to {cards + copies:,};"
                    f" a game may have at most {MAX_CARDS:,}",
                    comp,
                    "copies" if "copies" in comp else "id",
                    "definition/too-large",
                )
            cards += copies
            known = set(props) | {"id", "name", "copies", "status", "text", "abilities", "triggers", "modifiers"}
            for key in comp:
                if key not in known:
                    out.append(
                        DefinitionError(
                            f"unknown property '{key}' for a {fam}{did_you_mean(key, known)}",
                            spec.key_place(comp, key),
                            "definition/unknown-name",
                        )
                    )
            for pname, pdef in props.items():
                if pname not in comp:
                    if "default" not in pdef:
                        err(f"{fam} '{comp['id']}' lacks '{pname}'", comp, "id", "definition/schema")
                    continue
                _check_prop(err, comp, pname, pdef["type"], sets)
        if "count" in fdef and comps is not None and total != fdef["count"]:
            err(
                f"family '{fam}' declares {fdef['count']} cards but its components add up to {total}",
                fdef,
                "count",
                "definition/count",
            )
    for _name, c in counters.items():
        sup = (c or {}).get("supply")
        if sup is not None:
            if sup not in counters:
                err(
                    f"unknown supply counter '{sup}'{did_you_mean(sup, counters)}",
                    c,
                    "supply",
                    "definition/unknown-name",
                )
            elif (counters[sup] or {}).get("scope", "seat") != "game":
                err(f"supply '{sup}' must be a game counter (scope: game)", c, "supply")
    table = g.get("table") or {}
    if table:
        for n in range(pmin, pmax + 1):
            if n not in table:
                err(f"table has no row for {n} players", table, None, "definition/table")
        cols = None
        for n, row in table.items():
            keys = set(row) - {"status"}
            if cols is None:
                cols = keys
            elif keys != cols:
                err(f"table row {n} has columns {sorted(keys)}, expected {sorted(cols)}", row, None, "definition/table")
    _automata(g, err, pmin, pmax)
    _name_clashes(spec, err)
    _card_state_clashes(spec, out)
    _duplicate_ids(spec, err)
    return out


def _automata(g, err, pmin, pmax):
    """An automaton joins at player counts the game allows, at most once per count."""
    for aid, adef in (g.get("automata") or {}).items():
        counts = adef.get("players") or []
        for i, n in enumerate(counts):
            if not pmin <= n <= pmax:
                err(
                    f"automaton '{aid}' joins at {n} players, but the game takes {pmin} to {pmax}",
                    counts,
                    i,
                    "definition/invalid",
                )
            elif n in counts[:i]:
                err(f"automaton '{aid}' lists {n} players twice", counts, i, "definition/invalid")


def _check_prop(err, comp, pname, t, sets):
    v = comp[pname]
    if t in sets:
        if v is None:
            return
        if v not in sets[t]:
            word = {"colours": "colour"}.get(t, t.rstrip("s") if t.endswith("s") else t)
            err(f"unknown {word} '{v}'{did_you_mean(v, sets[t])}", comp, pname, "definition/unknown-name")
        return
    py = BASIC_TYPES.get(t, object)
    if v is not None and (not isinstance(v, py) or (py is int and isinstance(v, bool))):
        err(f"'{pname}' must be {'a whole number' if py is int else t}, got {v!r}", comp, pname, "definition/type")


def _name_clashes(spec, err):
    g = spec.game
    spaces = {
        "counter": g.get("counters") or {},
        "zone": g.get("zones") or {},
        "variable": g.get("vars") or {},
        "value": g.get("values") or {},
        "constant": g.get("constants") or {},
        "set": g.get("sets") or {},
        "automaton": g.get("automata") or {},
    }
    cols = {c for row in (g.get("table") or {}).values() for c in row if c != "status"}
    seen: dict[str, str] = {}
    for kind, names in list(spaces.items()) + [("table column", {c: None for c in cols})]:
        for name in names:
            if name in seen:
                holder = names if kind != "table column" else g.get("table")
                err(
                    f"'{name}' is declared as both a {seen[name]} and a {kind}; names must be unique",
                    holder,
                    name if kind != "table column" else None,
                    "definition/duplicate-name",
                )
            else:
                seen[name] = kind


# what every card reads besides its family's properties (model/program.py ``card_props``)
_CARD_BUILTINS = ("id", "name", "family", "type", "copies", "status", "text", "up", "seen")


def _card_state_clashes(spec, out):
    """A ``card_state`` field may not take the name of a card property: ``c.field`` reads the card's
    state, so a printed value of that name could never be read (a family's ``track`` would be none)."""
    g = spec.game
    state = g.get("card_state") or {}
    props: dict = {}
    for fam, fdef in (g.get("families") or {}).items():
        for pname in (fdef or {}).get("properties") or {}:
            props.setdefault(pname, (fam, fdef["properties"]))
    for name in state:
        if name in _CARD_BUILTINS:
            what = f"every card's own '{name}'"
        elif name in props:
            fam, holder = props[name]
            what = f"the property '{name}' of family '{fam}' (at {spec.key_place(holder, name)})"
        else:
            continue
        out.append(
            DefinitionError(
                f"card_state field '{name}' hides {what}: `c.{name}` would read the state, never the printed"
                " value; rename one of them",
                spec.key_place(state, name),
                "definition/duplicate-name",
            )
        )


def _duplicate_ids(spec, err):
    """Ids must be unique within a list: turn actions, phases, setup steps, triggers, variants, abilities."""
    g = spec.game
    lists = [
        ("action", (g.get("turn") or {}).get("actions")),
        ("phase", (g.get("flow") or {}).get("phases")),
        ("setup step", g.get("setup") if isinstance(g.get("setup"), list) else None),
        ("trigger", g.get("triggers")),
        ("variant", g.get("variants")),
    ]
    for comps in spec.components.values():
        for comp in comps:
            if isinstance(comp, dict):
                lists.append((f"ability of '{comp.get('id')}'", comp.get("abilities")))
                lists.append((f"trigger of '{comp.get('id')}'", comp.get("triggers")))
    for what, items in lists:
        seen: dict = {}
        for item in items or []:
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            if item["id"] in seen:
                err(
                    f"duplicate {what} id '{item['id']}' (first at {spec.place(seen[item['id']], 'id')})",
                    item,
                    "id",
                    "definition/duplicate-id",
                )
            else:
                seen[item["id"]] = item
