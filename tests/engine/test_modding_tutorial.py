"""docs/modding.md, performed: every file it shows is written, every command run, every output compared.

Blocks are taken in the order of the page:
- ```` ```yaml file=PATH ```` writes PATH (relative to a scratch folder);
- ```` ```diff file=PATH ```` replaces each ``-`` line of PATH by the ``+`` line after it;
- ```` ```sh ```` runs each ``mason ...`` line (through click's CliRunner, in the scratch folder);
- ```` ```text ```` right after a ``sh`` block is the output of its last command: each shown line
  must equal the output's line at the same place, or start it when the shown line ends in ``...``;
  a line ``...`` alone skips the rest. Output with ``error[`` means exit status 1, else 0;
- ```` ```python ```` is executed in the scratch folder.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import paths
from click.testing import CliRunner

from mason.cli.main import main

DOC = paths.ROOT / "docs" / "modding.md"
FENCE = re.compile(r"^```(\w+)(?: file=(\S+))?\s*$")


def blocks():
    """(kind, file, text, line) for every fenced block of the page."""
    out, lines = [], DOC.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while not lines[j].startswith("```"):
            j += 1
        out.append((m.group(1), m.group(2), "\n".join(lines[i + 1 : j]) + "\n", i + 1))
        i = j + 1
    return out


def apply_diff(path: Path, text: str, where: str) -> None:
    body = path.read_text(encoding="utf-8")
    rows = [l for l in text.splitlines() if l]
    for old, new in zip(rows[0::2], rows[1::2]):
        assert old.startswith("-") and new.startswith("+"), f"{where}: a diff block alternates - and + lines"
        assert body.count(old[1:] + "\n") == 1, f"{where}: '{old[1:]}' is not (once) in {path.name}"
        body = body.replace(old[1:] + "\n", new[1:] + "\n")
    path.write_text(body, encoding="utf-8")


def compare(shown: str, result, where: str) -> None:
    actual = result.output.splitlines()
    expect_error = "error[" in shown
    assert (result.exit_code == 1) if expect_error else (result.exit_code == 0), (
        f"{where}: exit {result.exit_code}\n{result.output}"
    )
    for k, line in enumerate(shown.splitlines()):
        if line == "...":
            return
        assert k < len(actual), f"{where}: the output stops before '{line}'\n{result.output}"
        if line.endswith("..."):
            assert actual[k].startswith(line[:-3]), f"{where}: '{actual[k]}' does not start with '{line[:-3]}'"
        else:
            assert actual[k] == line, f"{where}: '{actual[k]}' != '{line}'"


def test_the_tutorial_does_what_it_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    last = None
    ran = {"yaml": 0, "diff": 0, "sh": 0, "text": 0, "python": 0}
    for kind, file, text, line in blocks():
        where = f"docs/modding.md:{line}"
        if kind == "yaml" and file:
            path = tmp_path / file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        elif kind == "diff":
            apply_diff(tmp_path / file, text, where)
        elif kind == "sh":
            for cmd in text.splitlines():
                if cmd.startswith("mason "):
                    last = runner.invoke(main, shlex.split(cmd)[1:])
                    assert last.exception is None or isinstance(last.exception, SystemExit), (
                        f"{where}: {cmd}: {last.exception!r}"
                    )
        elif kind == "text":
            assert last is not None, f"{where}: an output block needs a command before it"
            compare(text, last, where)
            last = None
        elif kind == "python":
            exec(compile(text, where, "exec"), {"__name__": "tutorial"})
        else:
            continue
        ran[kind] += 1
    assert ran["yaml"] == 2 and ran["diff"] == 2 and ran["python"] == 1
    assert ran["sh"] >= 5 and ran["text"] >= 5
    # what the reader ends with: a valid expansion in its own folder, base files untouched
    assert sorted(p.name for p in (tmp_path / "patron").iterdir()) == ["characters.yaml", "expansion.yaml"]
    assert "d.colour == special" in (tmp_path / "patron" / "characters.yaml").read_text()
    assert not (Path(os.getcwd()) / "games").exists()
