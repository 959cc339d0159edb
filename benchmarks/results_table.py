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


def set_ups(ids: list[str], expansions: list[str], every: list[str]) -> list[tuple[str, list[str]]]:
    """(game, expansions) for each id given (``every`` when none): ``citadels+dark-city`` is a game
    with an expansion, added to the ``--with`` ones."""
    out = []
    for gid in ids or every:
        name, _, extra = gid.partition("+")
        out.append((name, expansions + ([extra] if extra else [])))
    return out


def command(tool: str, game: str, expansions: list[str], options: list[str]) -> str:
    """The command line that measures one set-up again, as recorded in RESULTS.md."""
    return " ".join([f"python benchmarks/{tool}", game] + [f"--with {x}" for x in expansions] + options)
