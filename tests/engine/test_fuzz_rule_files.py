"""A seeded fuzzer of rule files: every broken game folder gets positioned one-line errors, never a traceback.

Each case copies one shipped game (or Citadels with its Dark City expansion, validated ``--with
dark-city``) to ``tmp_path``, applies ONE structured mutation chosen by a ``random.Random`` seeded
with the run's seed, the game and the case number, and runs ``mason validate`` on it through click's
CliRunner, as a user runs it. The invariants (non-negotiable 4):

- the exit code is 0 or 1;
- no ``Traceback``, no ``internal error`` in the output;
- on exit 1, every error line reads ``<path>:<line>:<col>: error[...]`` where ``path`` is a file of
  the copied folder and the line and column lie within that file (or the line names the folder
  itself, for a file that is missing);
- on exit 0, a one-game ``mason simulate`` of the mutated game (random bots, 2 players or the game's
  minimum) plays to its end or reports one one-line error (or a stall), never an internal error.

Mutations (``MUTATIONS``): delete a mapping key; replace a scalar by a value of another type (text,
whole number, negative, huge, float, true/false, null, list, mapping); duplicate an id or a key;
rename a reference to an unknown name; cut a DSL text at a random character; insert a random DSL
token; break the YAML (an unclosed quote, a bad indent, a tab); empty a file; bytes that are not
UTF-8.

Size and seed: ``MASON_FUZZ_CASES`` cases a game (default ``DEFAULT_CASES``), ``MASON_FUZZ_SEED``
(default 0); the same seed and count give the same cases on every run. A failing case names its
seed, game, case number and mutation, and prints the offending output; run it alone with
``MASON_FUZZ_SEED=S MASON_FUZZ_CASES=N python -m pytest tests/engine/test_fuzz_rule_files.py -k 'GAME-I'``.

Hangs: a game's own caps (``flow.max_rounds``, the step cap) bound a simulated game; a watchdog
(``WATCHDOG_SECONDS``, far above any case's time) turns a case that never ends into a failure
naming it, instead of a CI job that never ends. It asserts nothing about speed.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import paths
import pytest
import yaml
from click.testing import CliRunner

from mason.cli.main import main

DEFAULT_CASES = 20
CASES = int(os.environ.get("MASON_FUZZ_CASES", DEFAULT_CASES))
SEED = os.environ.get("MASON_FUZZ_SEED", "0")
WATCHDOG_SECONDS = 300

# (name in test ids, game folder, expansion validated with it or None)
TARGETS = [
    ("citadels", "citadels", None),
    ("island-fortress", "island-fortress", None),
    ("pillars", "pillars", None),
    ("golden-temple", "golden-temple", None),
    ("prague", "prague", None),
    ("dark-city", "citadels", "dark-city"),
]

ERROR_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error\[[a-z0-9/_-]+\]: \S")
FOLDER_LINE = re.compile(r"^(?P<file>.+?): error\[[a-z0-9/_-]+\]: \S")
VALID_LINE = re.compile(r"^.+: valid - .+, (?P<min>\d+)-(?P<max>\d+) players, ")
INTERNAL = ("Traceback", "internal error", "error[internal]", "play/internal")

# texts that are words for people, not DSL
PROSE_KEYS = {"text", "label", "name", "description", "rule", "status", "id", "file", "if_text", "rows", "title"}
# tokens a designer might mistype into a DSL text: keywords, statements, operators, literals, layout
DSL_TOKENS = [
    *"and or not in if else elif for true false none to by from".split(),
    *"choose gain pay transfer emit turn do say pass let set move draw shuffle reveal swap repeat while".split(),
    *"stop end game each".split(),
    *"( ) [ ] { } , . : ; = == != < <= > >= + - * / // % ! & | @ # $ ^ ~ ? ' \"".split(),
    "0",
    "-1",
    "7",
    "1.5",
    "99999999999999999999999",
    '"text"',
    "'x'",
    "nosuch_name",
    "me",
    "\n",
    "\n    ",
    "\t",
    ":\n",
]
OTHER_TYPES = [
    '"fuzz"',
    "fuzz",
    "0",
    "7",
    "-3",
    "-1",
    "99999999999999999999999",
    "-99999999999999999999999",
    "1.5",
    "1e400",
    "true",
    "false",
    "null",
    "[]",
    "[1, 2]",
    "{}",
    "{a: 1}",
    '""',
]
# characters that are text but not what they seem: YAML 1.1's other line breaks, a byte-order mark, a
# zero-width space, a no-break space, a carriage return, an escape, one beyond the 16-bit plane
ODD_CHARACTERS = ["\u2028", "\u2029", "\x85", "\ufeff", "\u200b", "\xa0", "\r", "\x1b", "\x00", "\U0001f600", "\xe9"]
NOT_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xe2\x82", b"\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]


# ====================================================================== the pristine files, parsed once
@dataclass(frozen=True)
class Source:
    """One rule file of a game as shipped: its text and its composed YAML nodes."""

    rel: str  # path inside the copied folder
    text: str
    root: object  # yaml node or None


@lru_cache(maxsize=None)
def sources(game: str, expansion: str | None) -> tuple[Source, ...]:
    """The files a case of ``game`` (with ``expansion``) may mutate: the expansion's files, or the game's own."""
    folder = paths.GAMES / game
    base = folder / "expansions" / expansion if expansion else folder
    out = []
    for path in sorted(base.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        out.append(Source(str(path.relative_to(folder)), text, yaml.compose(text, Loader=yaml.SafeLoader)))
    return tuple(out)


def walk(node, key=None, parent=None):
    """(node, the key it is the value of or None, the node holding it) for every node under ``node``."""
    yield node, key, parent
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from walk(v, k.value if isinstance(k, yaml.ScalarNode) else None, node)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from walk(item, key, node)


def value_scalars(src: Source):
    """The scalar values of a file (not keys), with the key each is written under."""
    if src.root is None:
        return []
    return [(n, k) for n, k, _ in walk(src.root) if isinstance(n, yaml.ScalarNode)]


def is_dsl(node, key) -> bool:
    """Does this scalar look like a DSL text (an effect or an expression), not a label or a plain name?"""
    v = node.value
    return (
        node.tag == "tag:yaml.org,2002:str"
        and key not in PROSE_KEYS
        and bool(re.search(r"[ ()\[\].+*<>=\n-]", v))
        and not re.search(r"[A-Z][a-z]+ [a-z]+ [a-z]+", v)  # prose
    )


@lru_cache(maxsize=None)
def declared_names(game: str, expansion: str | None) -> frozenset[str]:
    """Every mapping key and every ``id`` of the game and its expansions: what a reference may name."""
    names: set[str] = set()
    folder = paths.GAMES / game
    for path in folder.rglob("*.yaml"):
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        for n, k, _ in walk(root) if root is not None else ():
            if isinstance(n, yaml.MappingNode):
                names.update(kn.value for kn, _ in n.value if isinstance(kn, yaml.ScalarNode))
            elif isinstance(n, yaml.ScalarNode) and k == "id":
                names.add(n.value)
    return frozenset(n for n in names if re.fullmatch(r"[a-z_][a-z0-9_]{2,}", n))


# ====================================================================== editing text at nodes
def line_start(text: str, i: int) -> int:
    return text.rfind("\n", 0, i) + 1


def scalar_text(text: str, node, value: str) -> tuple[int, int, str]:
    """(start, end, replacement) that writes ``value`` in place of the scalar ``node``, in its own style
    when it is a block (``|``, ``>``), else as a double-quoted scalar (JSON's escapes are YAML's)."""
    start, end = node.start_mark.index, node.end_mark.index
    if node.style in ("|", ">"):
        header_end = text.index("\n", start)
        header = text[start:header_end]
        body = text[header_end + 1 :]
        indent = len(body) - len(body.lstrip(" "))
        indent = max(indent, node.start_mark.column + 1)
        lines = value.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        out = header + "\n" + "".join((" " * indent + ln if ln.strip() else "") + "\n" for ln in lines)
        if not lines:
            out = '""' + ("\n" if text[end - 1 : end] == "\n" else "")
        return start, end, out
    return start, end, json.dumps(value, ensure_ascii=False)


def splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


# ====================================================================== mutations
class NoSite(Exception):
    """The chosen mutation has nowhere to apply in these files: another is drawn."""


def _pick_file(rng, srcs, usable=lambda s: True) -> Source:
    files = [s for s in srcs if usable(s)]
    if not files:
        raise NoSite
    return rng.choice(files)


def m_delete_key(rng, srcs, names):
    sites = [
        (s, n, i)
        for s in srcs
        if s.root is not None
        for n, _, _ in walk(s.root)
        if isinstance(n, yaml.MappingNode)
        for i in range(len(n.value))
    ]
    if not sites:
        raise NoSite
    s, m, i = rng.choice(sites)
    text = s.text
    entries = m.value
    k, v = entries[i]
    if len(entries) == 1:
        start, end, new = k.start_mark.index, v.end_mark.index, "{}"
        if text[start:end].endswith("\n"):
            new += "\n"
    elif i < len(entries) - 1:
        start, end, new = k.start_mark.index, entries[i + 1][0].start_mark.index, ""
    elif m.flow_style:
        start, end, new = entries[i - 1][1].end_mark.index, v.end_mark.index, ""
    else:
        ls = line_start(text, k.start_mark.index)
        start = ls if not text[ls : k.start_mark.index].strip() else k.start_mark.index
        start, end, new = start, v.end_mark.index, ""
        if text[start:end].endswith("\n") is False and end < len(text) and text[end] == "\n":
            end += 1
    return s.rel, splice(text, start, end, new), f"delete key '{k.value}' at {s.rel}:{k.start_mark.line + 1}"


def m_other_type(rng, srcs, names):
    sites = [(s, n, k) for s in srcs for n, k in value_scalars(s)]
    if not sites:
        raise NoSite
    s, n, k = rng.choice(sites)
    new = rng.choice(OTHER_TYPES)
    start, end = n.start_mark.index, n.end_mark.index
    if n.style in ("|", ">") and s.text[start:end].endswith("\n"):
        new += "\n"
    return (
        s.rel,
        splice(s.text, start, end, new),
        f"'{k}' value {n.value[:40]!r} -> {new.strip()} at {s.rel}:{n.start_mark.line + 1}",
    )


def m_delete_item(rng, srcs, names):
    sites = [
        (s, n, i)
        for s in srcs
        if s.root is not None
        for n, _, _ in walk(s.root)
        if isinstance(n, yaml.SequenceNode)
        for i in range(len(n.value))
    ]
    if not sites:
        raise NoSite
    s, seq, i = rng.choice(sites)
    text, items = s.text, seq.value
    item = items[i]
    if len(items) == 1:
        start, end, new = seq.start_mark.index, seq.end_mark.index, "[]"
        if text[start:end].endswith("\n"):
            new += "\n"
    elif seq.flow_style:
        if i < len(items) - 1:
            start, end = item.start_mark.index, items[i + 1].start_mark.index
        else:
            start, end = items[i - 1].end_mark.index, item.end_mark.index
        new = ""
    else:  # a block list: from this item's '-' to the next one's
        dash = text.rfind("-", 0, item.start_mark.index)
        start = dash
        end = text.rfind("-", 0, items[i + 1].start_mark.index) if i < len(items) - 1 else item.end_mark.index
        new = ""
    return s.rel, splice(text, start, end, new), f"delete list item {i} at {s.rel}:{item.start_mark.line + 1}"


def m_replace_node(rng, srcs, names):
    sites = [
        (s, n, k)
        for s in srcs
        if s.root is not None
        for n, k, parent in walk(s.root)
        if parent is not None and isinstance(n, (yaml.MappingNode, yaml.SequenceNode)) and n.value
    ]
    if not sites:
        raise NoSite
    s, n, k = rng.choice(sites)
    new = rng.choice(OTHER_TYPES)
    start, end = n.start_mark.index, n.end_mark.index
    if not n.flow_style:
        if s.text[start:end].endswith("\n"):
            new += "\n"
    return (
        s.rel,
        splice(s.text, start, end, new),
        f"'{k}' {'mapping' if isinstance(n, yaml.MappingNode) else 'list'} -> {new.strip()} at {s.rel}:{n.start_mark.line + 1}",
    )


def m_duplicate_id(rng, srcs, names):
    sites = []
    for s in srcs:
        for n, _, _ in walk(s.root) if s.root is not None else ():
            if isinstance(n, yaml.SequenceNode):
                ids = [
                    v
                    for item in n.value
                    if isinstance(item, yaml.MappingNode)
                    for k, v in item.value
                    if k.value == "id" and isinstance(v, yaml.ScalarNode)
                ]
                if len(ids) >= 2:
                    sites.append((s, ids, "id"))
            elif isinstance(n, yaml.MappingNode) and len(n.value) >= 2:
                sites.append((s, [k for k, _ in n.value if isinstance(k, yaml.ScalarNode)], "key"))
    sites = [x for x in sites if len(x[1]) >= 2]
    if not sites:
        raise NoSite
    s, nodes, what = rng.choice(sites)
    a, b = rng.sample(nodes, 2)
    start, end, new = scalar_text(s.text, b, a.value)
    if what == "key":
        new = a.value if re.fullmatch(r"[A-Za-z_][\w-]*", a.value) else new
    return s.rel, splice(s.text, start, end, new), f"duplicate {what} '{a.value}' at {s.rel}:{b.start_mark.line + 1}"


def m_unknown_reference(rng, srcs, names):
    sites = []
    for s in srcs:
        for n, k in value_scalars(s):
            if n.tag != "tag:yaml.org,2002:str" or k == "id":
                continue
            if n.value in names:
                sites.append((s, n, None))
            elif is_dsl(n, k):
                for m in re.finditer(r"\b[a-z_][a-z0-9_]*\b", n.value):
                    if m.group() in names:
                        sites.append((s, n, m))
    if not sites:
        raise NoSite
    s, n, m = rng.choice(sites)
    word = m.group() if m else n.value
    wrong = rng.choice([word[:-1], word + "x", word + "_zz", "nosuch_" + word])
    value = n.value[: m.start()] + wrong + n.value[m.end() :] if m else wrong
    start, end, new = scalar_text(s.text, n, value)
    return s.rel, splice(s.text, start, end, new), f"rename '{word}' -> '{wrong}' at {s.rel}:{n.start_mark.line + 1}"


def _dsl_sites(srcs):
    sites = [(s, n, k) for s in srcs for n, k in value_scalars(s) if is_dsl(n, k)]
    if not sites:
        raise NoSite
    return sites


def m_cut_dsl(rng, srcs, names):
    s, n, k = rng.choice(_dsl_sites(srcs))
    cut = rng.randrange(len(n.value))
    start, end, new = scalar_text(s.text, n, n.value[:cut])
    return s.rel, splice(s.text, start, end, new), f"cut '{k}' text at char {cut} at {s.rel}:{n.start_mark.line + 1}"


def m_insert_token(rng, srcs, names):
    s, n, k = rng.choice(_dsl_sites(srcs))
    v = n.value
    bounds = [i for i in range(len(v) + 1) if i in (0, len(v)) or not (v[i - 1].isalnum() and v[i].isalnum())]
    i = rng.choice(bounds)
    tok = rng.choice(DSL_TOKENS)
    pad = rng.choice(["", " "])
    value = v[:i] + pad + tok + pad + v[i:]
    start, end, new = scalar_text(s.text, n, value)
    return (
        s.rel,
        splice(s.text, start, end, new),
        f"insert {tok!r} into '{k}' at char {i} at {s.rel}:{n.start_mark.line + 1}",
    )


def m_break_yaml(rng, srcs, names):
    s = _pick_file(rng, srcs, lambda s: s.text.strip())
    text = s.text
    lines = text.split("\n")
    how = rng.choice(["quote", "indent", "tab", "colon", "bracket"])
    if how == "quote":
        scalars = [n for n, _ in value_scalars(s) if n.style is None] or [None]
        n = rng.choice(scalars)
        i = n.start_mark.index if n is not None else rng.randrange(len(text))
        q = rng.choice(['"', "'"])
        return s.rel, splice(text, i, i, q), f"unclosed {q} at {s.rel} index {i}"
    candidates = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    li = rng.choice(candidates)
    ln = lines[li]
    body = ln.lstrip(" ")
    ind = len(ln) - len(body)
    if how == "indent":
        delta = rng.choice([-3, -2, -1, 1, 2, 3])
        lines[li] = " " * max(0, ind + delta) + body
    elif how == "tab":
        lines[li] = rng.choice(["\t" + body, " " * ind + "\t" + body, ln + "\t", ln.replace(" ", "\t", 1)])
    elif how == "colon":
        j = rng.randrange(len(ln) + 1)
        lines[li] = ln[:j] + rng.choice([": ", ":", " - ", "- ", " #", "&a ", "*a ", "!x ", "? "]) + ln[j:]
    else:
        j = rng.randrange(len(ln) + 1)
        lines[li] = ln[:j] + rng.choice(["[", "{", "]", "}", "|", ">", "%", "@", "`"]) + ln[j:]
    return s.rel, "\n".join(lines), f"break YAML ({how}) at {s.rel}:{li + 1}"


def m_empty_file(rng, srcs, names):
    s = _pick_file(rng, srcs)
    return s.rel, rng.choice(["", "\n", "# nothing\n", "---\n", "~\n", "[]\n", "x\n"]), f"empty {s.rel}"


def m_not_utf8(rng, srcs, names):
    s = _pick_file(rng, srcs)
    i = rng.randrange(len(s.text) + 1)
    bad = rng.choice(NOT_UTF8)
    data = s.text[:i].encode() + bad + s.text[i:].encode()
    line = s.text.count("\n", 0, i) + 1
    return s.rel, data, f"bytes {bad!r} (not UTF-8) at {s.rel}:{line}"


def m_odd_character(rng, srcs, names):
    s = _pick_file(rng, srcs)
    i = rng.randrange(len(s.text) + 1)
    ch = rng.choice(ODD_CHARACTERS)
    line = s.text.count("\n", 0, i) + 1
    return s.rel, splice(s.text, i, i, ch), f"character {ch!r} at {s.rel}:{line}"


MUTATIONS = {
    "delete-key": m_delete_key,
    "other-type": m_other_type,
    "replace-node": m_replace_node,
    "delete-item": m_delete_item,
    "duplicate-id": m_duplicate_id,
    "unknown-reference": m_unknown_reference,
    "cut-dsl": m_cut_dsl,
    "insert-token": m_insert_token,
    "break-yaml": m_break_yaml,
    "empty-file": m_empty_file,
    "not-utf8": m_not_utf8,
    "odd-character": m_odd_character,
}


def mutate(rng: random.Random, game: str, expansion: str | None):
    """(kind, file inside the folder, new contents, description) of one mutation drawn with ``rng``."""
    srcs, names = sources(game, expansion), declared_names(game, expansion)
    kinds = sorted(MUTATIONS)
    while True:
        kind = rng.choice(kinds)
        try:
            rel, new, what = MUTATIONS[kind](rng, srcs, names)
        except NoSite:
            continue
        return kind, rel, new, what


# ====================================================================== running a case
class Hang(BaseException):
    """The watchdog fired: a case ran for WATCHDOG_SECONDS (a BaseException, so CliRunner lets it through)."""


def _watchdog(signum, frame):
    raise Hang()


def invoke(args: list[str]):
    """``mason ARGS`` through CliRunner: (exit code, output: stdout and stderr, stdout alone)."""
    result = CliRunner().invoke(main, args)
    code = result.exit_code
    out = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        out += f"\nTraceback (CliRunner caught {type(result.exception).__name__}: {result.exception})"
    return code, out, result.stdout


def invoke_command(args: list[str]):
    """``mason ARGS`` as a command in a child process (the console script's entry point, which turns any
    exception into one line): (exit code, stderr and stdout, stdout alone); a hang is killed."""
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "mason.cli.entry", *args], capture_output=True, text=True, timeout=WATCHDOG_SECONDS
        )
    except subprocess.TimeoutExpired:
        raise Hang() from None
    return proc.returncode, proc.stderr + proc.stdout, proc.stdout


def placed_within(file: str, line: int, col: int, folder: Path) -> str | None:
    """Why ``file:line:col`` is not a place in the copied ``folder`` (None when it is)."""
    path = Path(file)
    if not path.is_absolute():
        path = Path.cwd() / path
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return f"{file} is not in the copied folder {folder}"
    if not path.is_file():
        return f"{file} is not a file"
    lines = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not 1 <= line <= len(lines):
        return f"line {line} is outside {file} ({len(lines)} lines)"
    if not 1 <= col <= len(lines[line - 1]) + 1:
        return f"column {col} is outside line {line} of {file} ({len(lines[line - 1])} characters)"
    return None


def check_validate(code: int, out: str, target: Path, folders: set[Path]) -> list[str]:
    """The invariants of ``mason validate``'s answer; the problems found."""
    problems = []
    if code not in (0, 1):
        problems.append(f"exit code {code}")
    for word in INTERNAL:
        if word in out:
            problems.append(f"{word!r} in the output")
    lines = [ln for ln in out.split("\n") if ln.strip()]  # lines end at a newline only
    for ln in lines:
        odd = sorted({f"U+{ord(c):04X}" for c in ln if c != "\t" and unicodedata.category(c) in ("Cc", "Zl", "Zp")})
        if odd:
            problems.append(f"a line holds {', '.join(odd)}, which a terminal or editor may show as a break: {ln!r}")
    if code == 1:
        summary = re.compile(rf"^{re.escape(str(target))}: \d+ errors?$")
        errors = [ln for ln in lines if not summary.match(ln)]
        if not errors:
            problems.append("exit 1 without an error line")
        for ln in errors:
            m = ERROR_LINE.match(ln)
            if m:
                why = placed_within(m["file"], int(m["line"]), int(m["col"]), target)
                if why:
                    problems.append(f"misplaced: {why}: {ln}")
                continue
            m = FOLDER_LINE.match(ln)
            if m and Path(m["file"]).resolve() in folders:
                continue
            problems.append(f"not a positioned error line: {ln!r}")
    elif code == 0 and not (len(lines) == 1 and VALID_LINE.match(lines[0])):
        problems.append("exit 0 without the one 'valid' line")
    return problems


def check_simulate(
    target: Path, expansion: str | None, valid_line: str, seed: int, run=invoke
) -> tuple[list[str], str]:
    """Play one game of a game validate passed: it ends, or reports one one-line error; the problems found."""
    m = VALID_LINE.match(valid_line)
    lo, hi = int(m["min"]), int(m["max"])
    players = max(lo, min(2, hi))
    args = ["simulate", str(target), "-n", "1", "-p", str(players), "--seed", str(seed), "--bots", "random", "--json"]
    args += ["--with", expansion] if expansion else []
    code, out, stdout = run(args)
    problems = []
    if code not in (0, 1):
        problems.append(f"simulate: exit code {code}")
    for word in INTERNAL:
        if word in out:
            problems.append(f"simulate: {word!r} in the output")
    try:
        report = json.loads(stdout)
    except ValueError:
        problems.append("simulate: no JSON report for a game validate passed")
        return problems, out
    for e in report.get("errors", []):
        if "\n" in e["message"] or not e["message"].strip():
            problems.append(f"simulate: an error that is not one line: {e['message']!r}")
    done = report.get("completed", 0) + len(report.get("stalled", []))
    if done + len(report.get("errors", [])) != 1:
        problems.append("simulate: the game neither ended nor reported an error")
    return problems, out


def run_case(
    tmp: Path, name: str, game: str, expansion: str | None, case: int, seed: str = SEED, run=invoke
) -> tuple[str, list[str]]:
    """One case: (its description, the problems found; empty when every invariant holds); ``run`` runs
    ``mason`` (``invoke``: through CliRunner; ``invoke_command``: a child process)."""
    rng = random.Random(f"{seed}:{name}:{case}")
    target = tmp / game
    shutil.copytree(paths.GAMES / game, target, ignore=None if expansion else shutil.ignore_patterns("expansions"))
    kind, rel, new, what = mutate(rng, game, expansion)
    path = target / rel
    if isinstance(new, bytes):
        path.write_bytes(new)
    else:
        path.write_text(new, encoding="utf-8")
    folders = {target.resolve(), path.parent.resolve()}
    about = f"MASON_FUZZ_SEED={seed} game {name} case {case}: {kind}: {what}"
    code = None
    old = signal.signal(signal.SIGALRM, _watchdog)
    signal.alarm(WATCHDOG_SECONDS)
    out = ""
    try:
        code, out, _ = run(["validate", str(target)] + (["--with", expansion] if expansion else []))
        problems = check_validate(code, out, target, folders)
        if code == 0 and not problems:
            sim, sim_out = check_simulate(target, expansion, out.strip(), rng.randrange(1, 10**6), run)
            problems += sim
            out += "\n--- simulate:\n" + sim_out
    except Hang:
        problems = [f"no answer within {WATCHDOG_SECONDS} s (a hang)"]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    about += f" -> validate exit {code}" + (", simulated" if "--- simulate" in out else "")
    if problems:
        about += "\n" + "\n".join(problems) + "\n--- output:\n" + out[-4000:]
    return about, problems


CASE_IDS = [(name, game, expansion, i) for name, game, expansion in TARGETS for i in range(CASES)]


@pytest.mark.parametrize("name,game,expansion,case", CASE_IDS, ids=[f"{n}-{i}" for n, _, _, i in CASE_IDS])
def test_a_mutated_rule_file_gets_positioned_errors_or_plays(tmp_path, name, game, expansion, case):
    about, problems = run_case(tmp_path, name, game, expansion, case)
    assert not problems, about


# a few cases through the ``mason`` command itself, in a child process: the cases after the CliRunner ones
COMMAND_CASES = [("citadels", "citadels", None), ("dark-city", "citadels", "dark-city"), ("pillars", "pillars", None)]


@pytest.mark.parametrize("name,game,expansion", COMMAND_CASES, ids=[n for n, _, _ in COMMAND_CASES])
def test_a_mutated_rule_file_through_the_mason_command(tmp_path, name, game, expansion):
    about, problems = run_case(tmp_path, name, game, expansion, CASES, run=invoke_command)
    assert not problems, about


def test_the_mutations_draw_every_kind_and_change_the_file():
    """The fuzzer itself: over a few draws every kind of mutation occurs, each changes its file, and the
    same seed draws the same mutation."""
    seen = set()
    for name, game, expansion in TARGETS:
        for i in range(30):
            kind, rel, new, what = mutate(random.Random(f"t:{name}:{i}"), game, expansion)
            again = mutate(random.Random(f"t:{name}:{i}"), game, expansion)
            assert again == (kind, rel, new, what)
            old = (paths.GAMES / game / rel).read_text(encoding="utf-8")
            assert (new if isinstance(new, str) else new.decode("utf-8", "replace")) != old, what
            seen.add(kind)
    assert seen == set(MUTATIONS)


def test_a_scalar_rewritten_with_its_own_text_reads_the_same():
    """The rewriting of a scalar in place (``scalar_text``) keeps YAML's reading of every other value:
    texts of the shipped games (every block text, a sample of the others) written back as themselves
    read as the same data."""
    load = lambda text: yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: E731
    for name, game, expansion in TARGETS:
        for s in sources(game, expansion):
            data = load(s.text)
            texts = [n for n, _ in value_scalars(s) if n.tag == "tag:yaml.org,2002:str"]
            blocks = [n for n in texts if n.style in ("|", ">")]
            for n in blocks[:: max(1, len(blocks) // 8)] + texts[:: max(1, len(texts) // 4)]:
                start, end, new = scalar_text(s.text, n, n.value)
                assert load(splice(s.text, start, end, new)) == data, (s.rel, n.start_mark.line + 1)
