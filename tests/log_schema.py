"""The log's JSON schema (schemas/log.schema.json) and a check of log entries against it."""

from __future__ import annotations

import json

import paths
from jsonschema import Draft202012Validator

SCHEMA = json.loads((paths.ROOT / "schemas" / "log.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)


def schema_errors(entries: list[dict]) -> list[str]:
    """Every entry checked against schemas/log.schema.json: 'entry i: message' for each problem."""
    return [
        f"entry {i}: {err.message} at {list(err.absolute_path)}"
        for i, e in enumerate(entries)
        for err in VALIDATOR.iter_errors(e)
    ]
