"""What the rule files' JSON Schemas say of a place in a file: the keys it may have, and whether its
value is DSL (an effect, ``$defs/dsl``, or an expression, ``$defs/expr``).

A place is a path of keys and list indexes from the top of the file, as ``Positions`` keeps it.
"""

from __future__ import annotations

import json
from functools import lru_cache

from mason.model.schema import SCHEMAS

DSL_REFS = {"#/$defs/dsl": "effect", "#/$defs/expr": "expression"}


def schema_name(file_name: str) -> str:
    """The schema a rule file is checked against, by its name (as ``mason validate`` picks it)."""
    if file_name in ("game.yaml", "expansion.yaml"):
        return file_name.replace(".yaml", ".schema.json")
    return "components.schema.json"


@lru_cache(maxsize=8)
def _schema(name: str) -> dict:
    try:
        return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def nodes_at(name: str, path: tuple) -> list[dict]:
    """The schema nodes (several where a value may take several shapes) that describe ``path``."""
    root = _schema(name)
    current = _expand(root, root, [])
    for step in path:
        following: list[dict] = []
        for node in current:
            following += _child(root, node, step)
        current = following
        if not current:
            break
    return current


def _expand(root: dict, node, out: list, depth: int = 0) -> list[dict]:
    """``node`` with its ``$ref``, ``oneOf``, ``anyOf`` and ``allOf`` followed (a ``$ref`` to DSL is kept)."""
    if not isinstance(node, dict) or depth > 12:
        return out
    ref = node.get("$ref")
    if isinstance(ref, str):
        if ref in DSL_REFS:
            out.append(node)
            return out
        if ref.startswith("#/"):
            target = root
            for part in ref[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
            _expand(root, target, out, depth + 1)
    out.append(node)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in node.get(key) or ():
            _expand(root, sub, out, depth + 1)
    return out


def _child(root: dict, node: dict, step) -> list[dict]:
    out: list[dict] = []
    if isinstance(step, int):
        items = node.get("items")
        if isinstance(items, dict):
            _expand(root, items, out)
        return out
    props = node.get("properties")
    if isinstance(props, dict) and step in props:
        return _expand(root, props[step], out)
    for pattern_node in (node.get("patternProperties") or {}).values():
        _expand(root, pattern_node, out)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        _expand(root, extra, out)
    return out


def keys_at(name: str, path: tuple) -> dict[str, str]:
    """The keys a mapping at ``path`` may have, each with its description (or its type)."""
    out: dict[str, str] = {}
    for node in nodes_at(name, path):
        for key, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict):
                out.setdefault(key, str(sub.get("description") or sub.get("type") or _ref_word(sub)))
    return out


def _ref_word(node: dict) -> str:
    ref = node.get("$ref")
    if isinstance(ref, str):
        return DSL_REFS.get(ref, ref.rsplit("/", 1)[-1])
    return ""


EFFECT_KEYS = ("do", "setup")  # the keys whose text is an effect (``$defs/dsl``, a non-empty string)
_EXPR_SHAPE = [{"type": "string", "minLength": 1}, {"type": "integer"}, {"type": "boolean"}]


def dsl_kind(name: str, path: tuple) -> str | None:
    """``effect`` or ``expression`` when the value at ``path`` is DSL, else None. The schemas write
    ``$defs/dsl`` and ``$defs/expr`` out in place, so their shapes are recognised too: an expression is a
    string, a whole number or a flag; an effect a non-empty string under ``do`` or ``setup``."""
    kinds = set()
    for n in nodes_at(name, path):
        if n.get("$ref") in DSL_REFS:
            kinds.add(DSL_REFS[n["$ref"]])
        elif n.get("oneOf") == _EXPR_SHAPE:
            kinds.add("expression")
        elif path and path[-1] in EFFECT_KEYS and n.get("type") == "string":
            kinds.add("effect")
    if "effect" in kinds:
        return "effect"
    return "expression" if kinds else None
