"""Rule files against their JSON Schemas, each problem a positioned DefinitionError.

The one place where jsonschema errors become diagnostics a designer reads (``file:line:col``, the
data path written as ``turn.actions[take_gold].do``, one message per problem). A low module of
``mason.model``: the loader's expansions check each file here before merging it, and ``validate``
checks the merged game.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from mason import schemas as _schemas
from mason.errors import DefinitionError, did_you_mean

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMAS = Path(_schemas.__file__).resolve().parent  # the ``schemas/`` folder, installed as ``mason.schemas``


@lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # here: a game read from the compile cache needs none

    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def check_file(schema: str, data, pos) -> list:
    """The problems of one rule file as read (``data``, places ``pos``) against ``schema`` (a file name in
    ``schemas/``); a file that passed before, unchanged, is not checked again (the compile cache)."""
    from mason.model import cache

    if cache.schema_passed(pos, schema):
        return []
    found = _schema_errors(_validator(schema), data, pos)
    if not found:
        cache.note_schema_passed(pos, schema)
    return found


def _schema_for(shown: str) -> str:
    """The schema a rule file is checked against, by its kind (its name)."""
    name = shown.replace("\\", "/").rsplit("/", 1)[-1]
    if name in ("game.yaml", "expansion.yaml") and (SCHEMAS / name.replace(".yaml", ".schema.json")).exists():
        return name.replace(".yaml", ".schema.json")
    return "components.schema.json"


# ------------------------------------------------------------------ schema
def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jsonable(v) for v in x]
    return x


def _real_path(data, path) -> tuple:
    """Map a JSON path (string keys) back to the YAML data's keys (which may be integers)."""
    out, node = [], data
    for p in path:
        if isinstance(node, dict) and p not in node and isinstance(p, str) and p.lstrip("-").isdigit():
            p = int(p)
        out.append(p)
        try:
            node = node[p]
        except (KeyError, IndexError, TypeError):
            node = None
    return tuple(out)


def where(path, data=None) -> str:
    """A data path as a designer reads it: ``turn.actions[take_gold].do`` (list items by id if any)."""
    out, node = "", data
    for p in path:
        item = node[p] if isinstance(node, (dict, list)) and _has(node, p) else None
        if isinstance(p, int) and not isinstance(p, bool):
            ident = item.get("id") if isinstance(item, dict) else None
            out += f"[{ident}]" if isinstance(ident, str) and ident else f"[{p}]"
        else:
            out += f".{p}" if out else str(p)
        node = item
    return out or "top level"


def _has(node, p) -> bool:
    if isinstance(node, dict):
        return p in node
    return isinstance(p, int) and -len(node) <= p < len(node)


def _schema_errors(validator, data, pos) -> list[DefinitionError]:
    out = []
    for err in validator.iter_errors(_jsonable(data)):
        out += _schema_error(err, data, pos)
    return out


def _schema_error(err, data, pos) -> list[DefinitionError]:
    err = _deepest(err)
    path = _real_path(data, err.absolute_path)
    at = where(path, data)
    place = pos.at(path)

    def one(message):
        return [DefinitionError(message, place, "definition/schema")]

    v, vv, inst = err.validator, err.validator_value, err.instance
    if v == "additionalProperties" and isinstance(inst, dict):
        allowed = list(err.schema.get("properties", {}))
        patterns = err.schema.get("patternProperties", {})
        return [
            DefinitionError(
                f"unknown key '{key}' in {at}{did_you_mean(key, allowed)}",
                pos.key_at(path + (_real_key(inst, key, data, path),)),
                "definition/schema",
            )
            for key in inst
            if key not in allowed and not any(re.match(p, str(key)) for p in patterns)
        ]
    if v == "required":
        missing = [k for k in vv if isinstance(inst, dict) and k not in inst]
        return one(
            f"{at}: missing key{'s' if len(missing) > 1 else ''} {', '.join(repr(k) for k in missing) or err.message}"
        )
    if v == "dependentRequired" and isinstance(inst, dict):  # a key that only explains another
        pairs = [(k, [d for d in needs if d not in inst]) for k, needs in vv.items() if k in inst]
        k, missing = next((k, m) for k, m in pairs if m)
        return [
            DefinitionError(
                f"{at}: '{k}' goes with {' and '.join(repr(m) for m in missing)}, which is missing",
                pos.key_at(path + (_real_key(inst, k, data, path),)),
                "definition/schema",
            )
        ]
    if v == "type" or v == "oneOf-types":
        return one(f"{at}: expected {_types(vv)}, got {_show(inst)}")
    if v == "enum":
        return one(f"{at}: {_show(inst)} is not one of {', '.join(map(str, vv))}{did_you_mean(inst, vv)}")
    if v == "const":
        return one(f"{at}: must be {vv!r}, got {_show(inst)}")
    if v == "pattern" and "propertyNames" in err.absolute_schema_path and isinstance(inst, str):
        return [
            DefinitionError(
                f"{at}: key {_show(inst)} {_PATTERNS.get(vv, f'does not match {vv}')}",
                pos.key_at(path + (inst,)),
                "definition/schema",
            )
        ]  # a bad key: placed at it
    if v == "pattern":
        return one(f"{at}: {_show(inst)} {_PATTERNS.get(vv, f'does not match {vv}')}")
    if v == "minimum":
        return one(f"{at}: must be at least {vv}, got {_show(inst)}")
    if v == "maximum":
        return one(f"{at}: must be at most {vv}, got {_show(inst)}")
    if v == "minLength" and vv == 1:
        return one(f"{at}: must not be empty")
    if v in ("minItems", "minProperties") and vv == 1:
        return one(f"{at}: must not be empty")
    return one(f"{at}: {err.message}")


def _real_key(inst, key, data, path):
    node = data
    for p in path:
        try:
            node = node[p]
        except (KeyError, IndexError, TypeError):
            return key
    if isinstance(node, dict) and key not in node and key.lstrip("-").isdigit() and int(key) in node:
        return int(key)
    return key


_PATTERNS = {
    "^[a-z][a-z0-9_]*$": "is not a snake_case name (lower-case letters, digits and '_', starting with a letter)",
    "^[A-Z]+-[A-Z]+[0-9]+$": "is not a rule id such as CIT-R12",
}


def _show(x) -> str:
    if x is None:
        return "nothing"
    if isinstance(x, dict):
        return "a mapping"
    if isinstance(x, list):
        return "a list"
    return repr(x)


class _TypesError:
    """A oneOf/anyOf whose every branch failed on type alone: report the accepted types together."""

    validator = "oneOf-types"

    def __init__(self, err, types):
        self.absolute_path, self.instance, self.validator_value = err.absolute_path, err.instance, types
        self.schema, self.message = err.schema, err.message


def _deepest(err):
    if err.validator in ("oneOf", "anyOf") and err.context:
        direct = [e for e in err.context if not e.relative_path]
        if direct and all(e.validator == "type" for e in direct) and len(direct) == len(err.validator_value):
            types = []
            for e in direct:
                types += e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
            return _TypesError(err, types)
        from jsonschema.exceptions import best_match

        return _deepest(best_match(err.context))
    return err


def _types(t) -> str:
    names = {
        "integer": "a whole number",
        "string": "text",
        "boolean": "true or false",
        "object": "a mapping",
        "array": "a list",
        "number": "a number",
        "null": "nothing",
    }
    if isinstance(t, list):
        return " or ".join(dict.fromkeys(names.get(x) or str(x) for x in t))
    return names.get(t, t)
