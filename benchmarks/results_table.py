"""Recording benchmark rows in benchmarks/RESULTS.md: each tool's rows go at the end of the first
table under its own section heading, not at the end of the file."""

from __future__ import annotations

from pathlib import Path


def insert_rows(path: Path, heading: str, rows: list[str]) -> None:
    """Add ``rows`` after the last row of the first table below ``heading`` (a whole line of the file)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if heading not in lines:
        raise SystemExit(f"{path}: no '{heading}' section to record in")
    i = lines.index(heading) + 1
    while i < len(lines) and not lines[i].startswith("|"):
        i += 1
    while i < len(lines) and lines[i].startswith("|"):
        i += 1
    lines[i:i] = rows
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
