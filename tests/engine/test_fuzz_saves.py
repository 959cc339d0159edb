"""Seeded fuzzing of save files, logs and prompt answers (non-negotiable 4: every bad input gets one line).

Three kinds of case, each run through the command line the way a user runs it (click's runner, in
process):

- a save: short games of every shipped game (and Citadels with Dark City) played at ``mason play --save``
  by a person (seat 1, answering a few lines) against random bots, stopped by the end of input in the
  middle; the save is mutated once (a number, a type, a key deleted or added, two list items swapped,
  the file truncated, bytes that are not UTF-8, an answer in its log) and resumed with
  ``mason play GAME --resume FILE`` and three answers. Either the resume is refused with one line, a
  non-zero exit and the file's bytes untouched, or the game goes on exactly as the unmutated save's
  does (same output, same save written at the end of input): the mutation was harmless (a key's value
  replaced by an equal one, a seat's kind, a bot's own random stream; see ``HARMLESS``).
- a log: the same games' ``--log`` files mutated the same ways, line by line too (a line deleted, doubled
  or swapped, blank lines); ``mason replay LOG`` either refuses it in one line (exit 1) or verifies it
  (``replay OK``) and then the log is the one the game wrote, up to blank lines; ``mason explain LOG`` either
  explains it (exit 0) or refuses it in one line.
- a prompt: ``mason play GAME`` with seat 1 a person and seeded random lines on its input (numbers out of
  range, letters, long and control-character lines, empty lines, ``help`` and the other commands), then
  the end of input. A refused answer is one ``not accepted:`` line followed by the same question; the end
  of input saves and exits 0 (README, "quit, the end of input and Ctrl-C save the game first"), and the
  save written resumes.

Never a traceback or an ``error[internal]``. Sizes: ``MASON_FUZZ_CASES=N`` runs N cases of each kind
(default 500 saves, 300 logs, 100 prompts: about 20 s on one core); ``MASON_FUZZ_SEED=S`` changes the seed
(default 1). A failing case names everything that reproduces it alone: the seed, the case, the base game,
the mutation, and the pytest command.
``MASON_FUZZ_RULES_CHANGED=1`` also resumes every save case with ``--rules-changed`` and its rules hash
changed (the save is then not replayed; off by default: damaged board states fail there, a known failure
for the lead, pinned by ``test_fuzz_known_...``).
"""

from __future__ import annotations

import json
import os
import random
import re
from functools import lru_cache
from pathlib import Path

import pytest
from support import invoke

SEED = int(os.environ.get("MASON_FUZZ_SEED", "1"))
_CASES = os.environ.get("MASON_FUZZ_CASES")
SAVE_CASES = int(_CASES) if _CASES else 500
LOG_CASES = int(_CASES) if _CASES else 300
PROMPT_CASES = int(_CASES) if _CASES else 100

# (name, game, flags): the games the bases are played in
GAMES = [
    ("citadels", "citadels", ()),
    ("dark-city", "citadels", ("--with", "dark-city")),
    ("island-fortress", "island-fortress", ()),
    ("pillars", "pillars", ()),
    ("golden-temple", "golden-temple", ()),
    ("prague", "prague", ()),
]
BASES_PER_GAME = 2
RESUME_INPUT = "1\n1\n1\n"  # what a resumed game is answered before its input ends

# Mutations a resume may accept, the game going on unchanged: who plays a seat (the seats are the
# save's, and --bot changes them) and a bot's own random stream (state.bots, taken from the save as it
# is: saves.py check_replay). Anything else accepted must leave the game exactly as it was.
HARMLESS = (re.compile(r"^seats\b"), re.compile(r"^state\.bots\b"))
# A bot's reason entry's text, figures and kind are the bot's own thinking, which a replay does not run
# again: edited within their shape, they change what the log says the bot thought, never the game.
BOT_OWN = re.compile(r"^(?:log)?\[(\d+)\]\.(?:text|figures|by)\b")


def bot_own(entries, path) -> bool:
    """Whether ``path`` is inside a bot's reason entry's own part (``BOT_OWN``) in ``entries``."""
    m = BOT_OWN.match(path or "")
    if not m or int(m.group(1)) >= len(entries):
        return False
    e = entries[int(m.group(1))]
    return e.get("type") == "reason" and e.get("by") not in (None, "policy")


def _repro(kind: str, i: int, what: str) -> str:
    return (
        f"[{what}] reproduce: MASON_FUZZ_SEED={SEED} MASON_FUZZ_CASES={max(i + 1, 1)} "
        f"python -m pytest tests/engine/test_fuzz_saves.py -k 'test_fuzz_{kind} and case{i}]'"
    )


# ------------------------------------------------------------------------- the bases
@lru_cache(maxsize=None)
def _base_dir() -> Path:
    import atexit
    import shutil
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="mason-fuzz-saves-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    return where


@lru_cache(maxsize=None)
def base(k: int) -> dict:
    """Base ``k``: a game of GAMES[k // BASES_PER_GAME] saved by the end of input in its middle (seat 1
    answering a few seeded lines), with its log; and how the unmutated save goes on when resumed."""
    name, game, flags = GAMES[k // BASES_PER_GAME]
    rnd = random.Random(f"{SEED}:base:{k}")
    where = _base_dir() / f"b{k}"
    where.mkdir()
    save, log = where / "save.json", where / "log.jsonl"
    answers = "".join(f"{rnd.randint(1, 3)}\n" for _ in range(rnd.randint(2, 7)))
    seed = rnd.randrange(10**6)
    if k % 2:  # a greedy bot beside: its reasons are in the log, taken from it by a replay
        flags = (*flags, "-p", "2", "--bot", "2=greedy")
    r = invoke("play", game, *flags, "--seed", seed, "--save", save, "--log", log, "--quiet", input=answers, cwd=where)
    assert r.exit_code == 0 and save.is_file(), (name, seed, r.output, r.exception)
    assert json.loads(save.read_text(encoding="utf-8"))["state"]["pending"] is not None, "the base game ended"
    raw = save.read_bytes()
    # how the true save goes on: the resume's output and the save its end of input writes
    again = where / "again.json"
    again.write_bytes(raw)
    r = invoke("play", game, "--resume", again, input=RESUME_INPUT, cwd=where)
    assert r.exit_code == 0, (name, r.output, r.exception)
    return {
        "name": name,
        "game": game,
        "flags": flags,
        "seed": seed,
        "answers": answers,
        "raw": raw,
        "log": log.read_bytes(),
        "out": r.stdout.replace(str(again), "SAVE"),
        "after": json.loads(again.read_text(encoding="utf-8")),
    }


# ------------------------------------------------------------------------- mutations
def _paths(node, path=()):
    """Every (path, value) in a JSON value, the root included."""
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))


def _shown(path) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "the file"


def _get(node, path):
    for key in path:
        node = node[key]
    return node


def _pick(rnd, data, accept):
    """A path to a value that ``accept`` takes: half the time uniform over them all, half the time by a
    random walk from the root (shallow places get their share)."""
    every = [(p, v) for p, v in _paths(data) if accept(p, v)]
    if not every:
        return None
    if rnd.random() < 0.5:
        return rnd.choice(every)[0]
    node, path = data, ()
    while True:
        kids = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        here = accept(path, node)
        if (here and (not kids or rnd.random() < 0.3)) or not kids:
            return path if here else rnd.choice(every)[0]
        key, node = rnd.choice(kids)
        path = (*path, key)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _number(rnd, v):
    x = rnd.choice(["+1", "-1", "0", "neg", "huge", "hugefloat", "float", "999", "true", "nan"])
    return {
        "+1": lambda: v + 1,
        "-1": lambda: v - 1,
        "0": lambda: 0,
        "neg": lambda: -abs(v) - 1,
        "huge": lambda: 10**30,
        "hugefloat": lambda: 1e300,
        "float": lambda: v + 0.5,
        "999": lambda: 999,
        "true": lambda: True,
        "nan": lambda: float("nan"),
    }[x](), x


OTHER_TYPES = ["fuzz", None, [], {}, True, 7, -1, [1, 2], {"fuzz": 1}, "", 1.5]


def mutate_json(rnd, data, op: str, log_key: str | None):
    """Apply mutation ``op`` to ``data`` (in place) and say what it did; None when ``op`` finds no place."""
    if op == "number":
        path = _pick(rnd, data, lambda p, v: p and _is_number(v))
        if path is None:
            return None
        new, how = _number(rnd, _get(data, path))
        _get(data, path[:-1])[path[-1]] = new
        return f"number {_shown(path)} {how} -> {json.dumps(new)}"
    if op == "type":
        path = _pick(rnd, data, lambda p, v: bool(p))
        if path is None:
            return None
        old = _get(data, path)
        new = rnd.choice([t for t in OTHER_TYPES if type(t) is not type(old)])
        _get(data, path[:-1])[path[-1]] = json.loads(json.dumps(new))
        return f"type {_shown(path)} -> {json.dumps(new)}"
    if op == "same-kind":  # a plausible value: another value of the same type found elsewhere in the file
        path = _pick(rnd, data, lambda p, v: p and isinstance(v, (str, int)) and not isinstance(v, bool))
        if path is None:
            return None
        old = _get(data, path)
        pool = sorted({v for _, v in _paths(data) if type(v) is type(old) and v != old}, key=str)[:500]
        if not pool:
            return None
        new = rnd.choice(pool)
        _get(data, path[:-1])[path[-1]] = new
        return f"same-kind {_shown(path)} -> {json.dumps(new)}"
    if op == "half-char":  # a lone UTF-16 half in a string: valid JSON (written as an escape), no text
        path = _pick(rnd, data, lambda p, v: p and isinstance(v, str))
        if path is None:
            return None
        old = _get(data, path)
        k = rnd.randint(0, len(old))
        _get(data, path[:-1])[path[-1]] = old[:k] + rnd.choice(["\ud800", "\udfff", "\udc80"]) + old[k:]
        return f"half-char {_shown(path)} at {k}"
    if op == "delete":
        path = _pick(rnd, data, lambda p, v: bool(p))
        if path is None:
            return None
        del _get(data, path[:-1])[path[-1]]
        return f"delete {_shown(path)}"
    if op == "add-key":
        path = _pick(rnd, data, lambda p, v: isinstance(v, dict))
        if path is None:
            return None
        _get(data, path)["fuzz"] = rnd.choice([1, None, "x"])
        return f"add-key {_shown(path)}.fuzz"
    if op == "swap":
        path = _pick(
            rnd, data, lambda p, v: isinstance(v, list) and len(v) >= 2 and len({json.dumps(x) for x in v}) > 1
        )
        if path is None:
            return None
        lst = _get(data, path)
        while True:
            i, j = rnd.sample(range(len(lst)), 2)
            if lst[i] != lst[j]:
                break
        lst[i], lst[j] = lst[j], lst[i]
        return f"swap {_shown(path)}[{i}] and [{j}]"
    if op == "answer":
        log = data.get(log_key) if log_key else data
        decisions = [k for k, e in enumerate(log or []) if isinstance(e, dict) and e.get("type") == "decision"]
        if not decisions:
            return None
        k = rnd.choice(decisions)
        entry = log[k]
        n = len(entry.get("options") or []) or 3
        new = rnd.choice([0, 1, 2, n - 1, n, -1, 99, [0], [], "a", None, 1.0, True, (entry.get("answer") or 0) + 1])
        entry["answer"] = new
        return f"answer {(log_key + '.') if log_key else ''}[{k}].answer -> {json.dumps(new)}"
    raise AssertionError(op)


JSON_OPS = ["number", "number", "type", "same-kind", "delete", "add-key", "swap", "answer", "half-char"]
BYTE_OPS = ["truncate", "not-utf8"]


def mutate_bytes(rnd, raw: bytes, op: str):
    if op == "truncate":
        k = rnd.randrange(len(raw))
        return raw[:k], f"truncate at byte {k} of {len(raw)}"
    k = rnd.randrange(len(raw) + 1)
    bad = rnd.choice([b"\xff", b"\xfe\xff", b"\xc3\x28", b"\x80", b"\xed\xa0\x80"])
    return raw[:k] + bad + raw[k:], f"not-utf8 {bad!r} at byte {k}"


# ------------------------------------------------------------------------- invariants
_ERROR_LINE = re.compile(r"^(\S.*?:\d+:\d+: )?error\[[a-z-]+/[a-z-]+\]: \S")  # [PLACE: ]error[CODE]: MESSAGE


def refused_in_one_line(r, what: str) -> str:
    """The command ended with one error line and a non-zero exit, no traceback, no internal error."""
    assert isinstance(r.exception, SystemExit), f"{what}: not a clean exit: {r.exception!r}"
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, f"{what}: {len(lines)} error lines: {r.stderr[-2000:]}"
    assert _ERROR_LINE.match(lines[0]) and "error[internal]" not in lines[0], f"{what}: {lines[0]}"
    assert "Traceback" not in r.output, f"{what}: {r.output[-2000:]}"
    return lines[0]


def _same(a, b) -> bool:
    """Equal as JSON (``true`` is not ``1``, ``1.0`` is not ``1``, as Python's == would have it)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def no_crash(r, what: str) -> None:
    assert r.exception is None or isinstance(r.exception, SystemExit), f"{what}: crashed: {r.exception!r}"
    assert "Traceback" not in r.output and "error[internal]" not in r.output, f"{what}: {r.output[-2000:]}"


# ------------------------------------------------------------------------- saves
def save_case(i: int):
    rnd = random.Random(f"{SEED}:save:{i}")
    k = rnd.randrange(len(GAMES) * BASES_PER_GAME)
    b = base(k)
    op = rnd.choice(JSON_OPS + BYTE_OPS)
    if op in BYTE_OPS:
        raw, what = mutate_bytes(rnd, b["raw"], op)
        path = None
    else:
        data = json.loads(b["raw"])
        what = None
        while what is None:
            what = mutate_json(rnd, data, op, "log")
            if what is None:
                op = rnd.choice(JSON_OPS)
        raw = json.dumps(data).encode("utf-8")
        path = what.split(" ")[1]
    return (
        b,
        raw,
        f"case {i}: base {b['name']} {' '.join(b['flags'])} (seed {b['seed']}, answers {b['answers']!r}): {what}",
        path,
    )


@pytest.mark.parametrize("i", range(SAVE_CASES), ids=[f"case{i}" for i in range(SAVE_CASES)])
def test_fuzz_save(i, tmp_path):
    b, raw, what, path = save_case(i)
    what = _repro("save", i, what)
    target = tmp_path / "mutated.json"
    target.write_bytes(raw)
    r = invoke("play", b["game"], "--resume", target, input=RESUME_INPUT, cwd=tmp_path)
    if r.exit_code != 0:
        refused_in_one_line(r, what)
        assert target.read_bytes() == raw, f"{what}: a refused resume changed the save file"
        return
    no_crash(r, what)
    after = json.loads(target.read_text(encoding="utf-8"))
    if path is not None and any(h.match(path) for h in HARMLESS):
        return
    if bot_own(json.loads(b["raw"])["log"], path):
        assert _same(after["state"], b["after"]["state"]), (
            f"{what}: a bot's reason edited, and the game went on otherwise"
        )
        return
    same_output = r.stdout.replace(str(target), "SAVE") == b["out"]
    assert same_output, f"{what}: accepted, and the game went on otherwise"
    assert _same(after, b["after"]), f"{what}: accepted, and the game went on to another save"


# A save resumed with --rules-changed whose rules hash says the rules changed is checked against the rules
# as they are now (check_state), not replayed: a forged state that check_state lets through is played on.
# Off by default (a known failure, below); MASON_FUZZ_RULES_CHANGED=1 runs the save cases this way too.
RULES_CHANGED = os.environ.get("MASON_FUZZ_RULES_CHANGED") == "1"


_RC_CASES = SAVE_CASES if RULES_CHANGED else 0  # (off: one 'empty parameter set' skip, not 500)


@pytest.mark.parametrize("i", range(_RC_CASES), ids=[f"case{i}" for i in range(_RC_CASES)])
def test_fuzz_save_rules_changed(i, tmp_path):
    b, raw, what, path = save_case(i)
    what = _repro("save_rules_changed", i, what) + " (MASON_FUZZ_RULES_CHANGED=1)"
    try:
        data = json.loads(raw)
        data["rules"] = "sha256:" + "0" * 64  # as if the rule files had changed since
        raw = json.dumps(data).encode("utf-8")
    except (ValueError, TypeError):
        pass  # a file that is not JSON any more: as it is
    target = tmp_path / "mutated.json"
    target.write_bytes(raw)
    r = invoke("play", b["game"], "--resume", target, "--rules-changed", input=RESUME_INPUT, cwd=tmp_path)
    if r.exit_code != 0:
        refused_in_one_line(r, what)
        assert target.read_bytes() == raw, f"{what}: a refused resume changed the save file"
    else:
        no_crash(r, what)


@pytest.mark.xfail(strict=True, reason="board states are not checked by check_state (for the lead: primitives)")
def test_fuzz_known_a_damaged_board_state_resumed_under_changed_rules_is_refused_in_one_line(tmp_path):
    """Found by the rules-changed fuzzer (seed 1, case 31): a Prague save whose ``state.boards.city.stacks``
    holds ``true`` for one stack, its rules hash changed, resumed with --rules-changed: check_state
    compares only the boards' names, nothing replays the state, and the game stops with
    ``error[internal]: TypeError: 'bool' object is not iterable`` at the first turn."""
    k = next(k for k in range(len(GAMES) * BASES_PER_GAME) if GAMES[k // BASES_PER_GAME][0] == "prague")
    data = json.loads(base(k)["raw"])
    stacks = data["state"]["boards"]["city"]["stacks"]
    for key in stacks:
        stacks[key] = True
    data["rules"] = "sha256:" + "0" * 64
    target = tmp_path / "p.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    r = invoke("play", "prague", "--resume", target, "--rules-changed", input=RESUME_INPUT, cwd=tmp_path)
    refused_in_one_line(r, "prague board")


# ------------------------------------------------------------------------- logs
LINE_OPS = ["delete-line", "double-line", "swap-lines", "blank-lines", "garbage-line"]


def log_case(i: int):
    rnd = random.Random(f"{SEED}:log:{i}")
    k = rnd.randrange(len(GAMES) * BASES_PER_GAME)
    b = base(k)
    op = rnd.choice(JSON_OPS + BYTE_OPS + LINE_OPS)
    lines = b["log"].decode("utf-8").splitlines()
    same_entries = False  # the mutation leaves the entries as they were (blank lines)
    path = None
    if op in BYTE_OPS:
        raw, what = mutate_bytes(rnd, b["log"], op)
    elif op in LINE_OPS:
        j = rnd.randrange(len(lines))
        if op == "delete-line":
            del lines[j]
        elif op == "double-line":
            lines.insert(j, lines[j])
        elif op == "swap-lines":
            m = rnd.choice([x for x in range(len(lines)) if lines[x] != lines[j]])
            lines[j], lines[m] = lines[m], lines[j]
            j = f"{j} and {m}"
        elif op == "blank-lines":
            lines.insert(j, rnd.choice(["", "   ", "\t"]))
            same_entries = True
        else:
            lines.insert(j, rnd.choice(["{", "not json", "[]", "1", '"x"', "null", '{"type": "decision"}']))
        raw, what = ("\n".join(lines) + "\n").encode("utf-8"), f"{op} {j}"
    else:
        data = [json.loads(line) for line in lines]
        what = None
        while what is None:
            what = mutate_json(rnd, data, op, None)
            if what is None:
                op = rnd.choice(JSON_OPS)
        raw = "".join(json.dumps(e, sort_keys=True) + "\n" for e in data).encode("utf-8")
        path = what.split(" ")[1]
    return (
        b,
        raw,
        f"case {i}: log of base {b['name']} {' '.join(b['flags'])} (seed {b['seed']}, answers {b['answers']!r}): {what}",
        same_entries,
        path,
    )


def _entries(raw: bytes):
    return [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("i", range(LOG_CASES), ids=[f"case{i}" for i in range(LOG_CASES)])
def test_fuzz_log(i, tmp_path):
    b, raw, what, same_entries, path = log_case(i)
    what = _repro("log", i, what)
    log = tmp_path / "mutated.jsonl"
    log.write_bytes(raw)
    r = invoke("replay", log, "--quiet", cwd=tmp_path)
    if r.exit_code != 0:
        refused_in_one_line(r, what + " (replay)")
        assert r.exit_code == 1, f"{what}: replay exit {r.exit_code}"
    else:
        no_crash(r, what + " (replay)")
        assert r.stdout.startswith("replay OK:"), f"{what}: {r.stdout[-500:]}"
        entries, true = _entries(raw), _entries(b["log"])
        # a log's first entries are a true log of the game so far; a bot's own thinking is not replayed
        harmless = same_entries or bot_own(true, path) or (entries and _same(entries, true[: len(entries)]))
        assert harmless or _same(entries, true), f"{what}: replay verified an edited log"
    rnd = random.Random(f"{SEED}:log:{i}:explain")
    how = rnd.choice([(), (), ("--seat", rnd.randint(0, 3)), ("--entry", rnd.randrange(-2, raw.count(b"\n") + 2))])
    what += f" (explain {' '.join(map(str, how))})"
    r = invoke("explain", log, *how, cwd=tmp_path)
    if r.exit_code != 0:
        refused_in_one_line(r, what + " (explain)")
        assert r.exit_code == 1, f"{what}: explain exit {r.exit_code}"
    else:
        no_crash(r, what + " (explain)")
    assert log.read_bytes() == raw, f"{what}: the log file changed"


# ------------------------------------------------------------------------- prompt answers
def _line(rnd) -> str:
    kind = rnd.choice(
        ["valid", "valid", "range", "negative", "letters", "long", "control", "empty", "command", "odd-number"]
    )
    if kind == "valid":
        return str(rnd.randint(1, 4))
    if kind == "range":
        return str(rnd.choice([0, 5, 9, 10, 99, 10**6, 10**40]))
    if kind == "negative":
        return str(-rnd.randint(0, 100))
    if kind == "letters":
        return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzXYZ é中") for _ in range(rnd.randint(1, 8)))
    if kind == "long":
        return rnd.choice(["9", "a", "take ", "1 "]) * rnd.randint(200, 5000)
    if kind == "control":
        return "".join(
            rnd.choice(["\x00", "\x1b[2J", "\x07", "\x08", "\x7f", "\x1b", "\t", "\v", "\f", "1"]) for _ in range(3)
        )
    if kind == "empty":
        return rnd.choice(["", " ", "\t"])
    if kind == "odd-number":
        return rnd.choice(["1.0", "1e3", "0x1", "+1", "-0", "nan", "inf", "1 2", "1,2", "１", "٣", "²", "1/2", "[0]"])
    return rnd.choice(
        [
            "help",
            "?",
            "view",
            "view nothing-here",
            "card",
            "card zzz",
            "log",
            "why",
            "undo",
            "info x",
            "save",
            "save /nonexistent-dir/x.json",
            "HELP",
            "Undo",
        ]
    )


def prompt_case(i: int):
    rnd = random.Random(f"{SEED}:prompt:{i}")
    name, game, flags = GAMES[i % len(GAMES)]
    seed = rnd.randrange(10**6)
    lines = [_line(rnd) for _ in range(rnd.randint(5, 30))]
    if rnd.random() < 0.25:  # hot seat: a second person at the terminal, "Pass to P2, press Enter" between
        flags = (*flags, "-p", "2", "--bot", "2=human")
    if rnd.random() < 0.1:
        lines.append("quit")
    tail = rnd.choice([b"", b"", b"\xff\xfe\n", b"1"])  # a last line without its newline, bytes that are not text
    raw = "".join(x + "\n" for x in lines).encode("utf-8") + tail
    return game, flags, seed, raw, f"case {i}: mason play {game} {' '.join(flags)} --seed {seed}, input {raw[:3000]!r}"


_QUESTION = re.compile(r"^\[P\d+\] ")


@pytest.mark.parametrize("i", range(PROMPT_CASES), ids=[f"case{i}" for i in range(PROMPT_CASES)])
def test_fuzz_prompt(i, tmp_path):
    game, flags, seed, raw, what = prompt_case(i)
    what = _repro("prompt", i, what)
    save = tmp_path / "s.json"
    r = invoke("play", game, *flags, "--seed", seed, "--save", save, input=raw, cwd=tmp_path)
    no_crash(r, what)
    assert r.exit_code == 0, f"{what}: exit {r.exit_code}: {r.stderr[-1000:]}"
    out = r.stdout.splitlines()
    for j, line in enumerate(out):
        if not line.startswith("not accepted: "):
            continue
        q = max(x for x in range(j) if _QUESTION.match(out[x]))
        asked = out[q:j]
        again = out[j + 1 : j + 1 + len(asked)] == asked  # (a bool: pytest's diff of long lists takes minutes)
        assert again, f"{what}: line {j}: not the same question after {line[:300]!r}: {out[j + 1 : j + 3]!r}"
    assert "Game over" in r.stdout or f"game saved to {save}" in r.stdout, f"{what}: {r.stdout[-1000:]}"
    if save.exists():
        again = invoke("play", game, "--resume", save, input="", cwd=tmp_path)
        no_crash(again, what + " (resumed)")
        assert again.exit_code == 0, f"{what}: the save does not resume: {again.stderr}"


# ------------------------------------------------------------------------- regressions the fuzzer found
def test_fuzz_regression_a_refused_answer_with_control_characters_is_one_line_and_the_question_again(tmp_path):
    """A line holding an escape, a bell, a vertical tab or a NUL was echoed raw in its refusal: the
    refusal broke into several lines (or cleared the screen) before the question was asked again."""
    save = tmp_path / "s.json"
    r = invoke("play", "citadels", "--seed", 3, "--save", save, input="\x1b[2J\x0b\x07\x00\n", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    out = r.stdout.splitlines()
    j = next(k for k, line in enumerate(out) if line.startswith("not accepted: "))
    assert "\x1b" not in out[j] and "\x07" not in out[j] and "\x00" not in out[j], repr(out[j])
    q = max(x for x in range(j) if _QUESTION.match(out[x]))
    assert out[j + 1 : j + 1 + (j - q)] == out[q:j]


def test_fuzz_regression_a_save_whose_log_says_true_for_1_is_refused(tmp_path):
    """The save's log was compared with the replay's by Python's ==, where true is 1: a log entry's
    ``round: 1`` edited to ``true`` was accepted, and written on into the next save and log."""
    from mason.errors import SaveError
    from mason.session.game import Game

    b = base(0)
    data = json.loads(b["raw"])
    entry = next(e for e in data["log"] if e.get("round") == 1)
    entry["round"] = True
    with pytest.raises(SaveError, match="the save's log is not the one its answers lead to: entry"):
        Game.from_json(data)


def test_fuzz_regression_replay_refuses_a_log_that_says_true_for_1(tmp_path):
    """``mason replay`` compared each entry with the replay's by Python's ==, where true is 1: a log
    whose entry said ``round: true`` was verified (``replay OK``)."""
    entries = _entries(base(0)["log"])
    k = next(i for i, e in enumerate(entries) if i and e.get("round") == 1)
    entries[k]["round"] = True
    log = tmp_path / "g.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    r = invoke("replay", log, "--quiet", cwd=tmp_path)
    err = refused_in_one_line(r, "replay")
    assert err.startswith(
        f"{log}:{k + 1}:1: error[replay/differs]: replay differs from the log: the log has round true"
    ), err


def test_fuzz_regression_explain_refuses_an_entry_whose_causes_are_not_a_list_in_one_line(tmp_path):
    """``mason explain`` read every entry's ``because`` as the game writes it: a log whose entry held an
    object there stopped with an AttributeError (a traceback at the terminal)."""
    entries = _entries(base(0)["log"])
    k = next(i for i, e in enumerate(entries) if e.get("because") and e.get("changes"))
    entries[k]["because"] = {"fuzz": 1}
    log = tmp_path / "g.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    err = refused_in_one_line(invoke("explain", log, cwd=tmp_path), "explain")
    assert (
        err
        == f"error[save/invalid]: {log}:{k + 1}:1: the log's entry is damaged: because: expected a list, not an object"
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("seat", 999),
        ("round", 1.5),
        ("prompt", "another question"),
        ("figures", [{"option": "x", "estimate": 1}]),
        ("fuzz", 1),
    ],
)
def test_fuzz_regression_a_bots_reason_in_a_save_or_log_must_fit_the_decision_it_comes_before(field, value, tmp_path):
    """A bot's ``reason`` entries were taken from a save's or a log's log as they were (a replay does not
    run the bot's search again): one edited to another seat, round or question, or holding figures for no
    option, was accepted by --resume and verified by mason replay. Only its text and figures' numbers are
    the bot's own."""
    from mason.errors import SaveError
    from mason.session.game import Game

    b = base(1)  # a greedy bot at seat 2
    data = json.loads(b["raw"])
    k = next(i for i, e in enumerate(data["log"]) if e.get("type") == "reason" and e.get("by") == "greedy")
    data["log"][k][field] = value
    with pytest.raises(SaveError, match=rf"the save's log is damaged: entry {k + 1}: a bot's reason"):
        Game.from_json(data)
    log = tmp_path / "g.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in data["log"]), encoding="utf-8")
    err = refused_in_one_line(invoke("replay", log, "--quiet", cwd=tmp_path), "replay")
    assert f"{log}:{k + 1}:1: error[replay/differs]: the log is damaged: a bot's reason" in err, err


def test_fuzz_regression_a_line_that_is_not_text_loses_no_answer_after_it(tmp_path):
    """Bytes that are not UTF-8 on the input of a strict UTF-8 terminal made the text stream raise for
    the whole chunk it had read: the answers after them in a pipe were lost (here all three), and a
    stream that does not move on (click's runner) asked the same question forever."""
    import subprocess
    import sys

    import paths

    save = tmp_path / "s.json"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    args = [sys.executable, "-m", "mason.cli.main", "play", "citadels", "--seed", "3", "--save", str(save)]
    run = subprocess.run(args, input=b"\xff\xfe\n1\n1\n1\n", cwd=paths.ROOT, env=env, capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count(b"not accepted: ") == 1, run.stdout[-2000:]
    log = json.loads(save.read_text(encoding="utf-8"))["log"]
    assert sum(1 for e in log if e.get("type") == "decision" and e["seat"] == 0) == 3


def test_fuzz_regression_explain_refuses_a_digest_whose_counters_are_not_an_object_in_one_line(tmp_path):
    """``mason explain`` counted the seats from the first digest's counters before anything else: a log
    whose digest held a number there stopped with an AttributeError (a traceback at the terminal)."""
    entries = _entries(base(0)["log"])
    k = next(i for i, e in enumerate(entries) if e.get("type") == "digest")
    entries[k]["counters"] = -1
    log = tmp_path / "g.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    err = refused_in_one_line(invoke("explain", log, cwd=tmp_path), "explain")
    assert (
        err
        == f"error[save/invalid]: {log}:{k + 1}:1: the log's entry is damaged: counters: expected an object, not a whole number"
    )


def test_fuzz_regression_a_save_or_log_whose_string_holds_a_lone_surrogate_is_refused_in_one_line(tmp_path):
    """JSON allows a ``\\ud800`` escape, which is half a character: a save holding one in its log, resumed
    under changed rules (its log not replayed), stopped with a UnicodeEncodeError when the narration
    printed it; ``mason explain`` of such a log too."""
    from mason.errors import SaveError
    from mason.session.saves import read_save

    b = base(0)
    save = tmp_path / "s.json"
    save.write_text(b["raw"].decode("utf-8").replace('"text": "', '"text": "\\ud800', 1), encoding="utf-8")
    with pytest.raises(SaveError, match=r"s.json:1:\d+: not a Mason save file: a string holds half a character"):
        read_save(save)
    lines = b["log"].decode("utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"text": "' in line and i)
    lines[k] = lines[k].replace('"text": "', '"text": "\\udc00', 1)
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    err = refused_in_one_line(invoke("explain", log, cwd=tmp_path), "explain")
    assert re.match(
        rf"error\[save/invalid\]: {re.escape(str(log))}:{k + 1}:\d+: a log entry's string holds half", err
    ), err


def test_fuzz_regression_a_save_resumed_under_changed_rules_has_its_log_checked_as_data(tmp_path):
    """Under --rules-changed the save's log is not replayed: a decision entry without its answer was
    taken, and the resume stopped with a KeyError (error[internal])."""
    data = json.loads(base(0)["raw"])
    data["rules"] = "sha256:" + "0" * 64
    k = next(i for i, e in enumerate(data["log"]) if e.get("type") == "decision")
    del data["log"][k]["answer"]
    save = tmp_path / "s.json"
    save.write_text(json.dumps(data), encoding="utf-8")
    r = invoke("play", "citadels", "--resume", save, "--rules-changed", input="", cwd=tmp_path)
    err = refused_in_one_line(r, "rules-changed")
    assert err.endswith(f"the save's log is damaged: entry {k + 1}: 'answer' is missing"), err
