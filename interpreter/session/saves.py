"""Save files: written atomically, read back as data and checked against the game they name.

A save is one JSON object, described by ``schemas/save.schema.json``::

    {"mason": 2, "rules": "sha256:...", "settings": {...}, "seats": ["human", "random"],
     "state": {...}, "log": [...]}

``rules`` is the hash of the rules the game ran (rule files, expansions and variants merged) and
``seats`` says who played each player's seat (``--resume`` seats them again). Reading checks, in
this order: UTF-8, JSON, the format number, the settings, that the game loads, the schema, the rules
hash, then the state against the game (``check_state``), and last that the state is the one the
save's settings and answers lead to, by replaying them (``check_replay``). Every problem is one ``SaveError`` line
naming what is wrong (``the save is damaged: state.cards[3].z: expected a string or null, not a
number``). Format 1 differs only in how the paused execution's frames are written (one-letter keys,
``runtime/frames.py``); such a save is upgraded as it is read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from mason import schemas as _schemas
from mason.errors import MasonError, SaveError
from mason.runtime.engine import FRAME, Runtime
from mason.runtime.frames import TURN_WINDOW, upgrade_stack
from mason.runtime.machine import runner_of
from mason.runtime.state import copy_state, player_count
from mason.runtime.values import zone_key

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SAVE_FORMAT = 2
SCHEMA_FILE = Path(_schemas.__file__).resolve().parent / "save.schema.json"
LOG_SCHEMA_FILE = SCHEMA_FILE.parent / "log.schema.json"
DEFAULT_NAME = "mason-save.json"
# the compiled node each frame kind names (frame ``kind`` -> node kind)
FRAME_NODES = {
    "block": "block",
    "for": "for",
    "repeat": "repeat",
    "while": "while",
    "choice": "choose",
    "option": "choose_one",
    "turn": "turn",
}
_VALIDATORS: dict[str, Draft202012Validator] = {}  # jsonschema is imported on the first check
_HASHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


# the temporary files of a write: ``.NAME.PID.XXXXXXXX.tmp`` beside NAME (PID: the writer's process);
# ``.NAME.XXXXXXXX.tmp`` is the form before the PID was added
STALE_QUIET = 60  # seconds: a temporary file whose writer is gone and that has not changed for this long is stale
STALE_AGE = 24 * 3600  # seconds: any temporary file of Mason's untouched for a day is stale


# ------------------------------------------------------------------------- writing
def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: an interrupted write leaves
    the previous file whole. A write killed before its rename leaves its temporary file; the next write
    to the same place removes such leftovers (``clean_stale_temps``). Raises OSError."""
    path = Path(path)
    mode = _mode(path)
    clean_stale_temps(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def clean_stale_temps(path, now: float | None = None) -> list[str]:
    """Remove the stale temporary files that writes of ``path`` left beside it (a writer killed between
    writing and renaming), and return their names. Only Mason's own pattern for this very name is
    touched, only regular files of this user, and only stale ones: the writer's process (named in the
    file's name) no longer runs on this machine and the file has not changed for ``STALE_QUIET``
    seconds, or the file has not changed for ``STALE_AGE`` (its writer cannot be asked). A live
    writer's file is left alone. Problems (a file gone meanwhile, no permission) are ignored."""
    import stat
    import time

    path = Path(path)
    pattern = re.compile(re.escape(f".{path.name}.") + r"(?:(\d+)\.)?[a-z0-9_]{8}\.tmp")
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        m = pattern.fullmatch(entry.name)
        if m is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
                continue
            quiet = now - st.st_mtime
            writer = int(m.group(1)) if m.group(1) else None
            gone = writer is not None and writer != os.getpid() and not _running(writer)
            if (gone and quiet >= STALE_QUIET) or quiet >= STALE_AGE:
                os.unlink(entry.path)
                removed.append(entry.name)
        except (OSError, ValueError):
            continue
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (where that cannot be asked: assume it does)."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or a number that cannot be asked about
    return True


def _mode(path: Path) -> int:
    """The permissions a new file gets (those of the file it replaces, else the umask's)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def check_target(path, flag: str) -> None:
    """Refuse, before a game starts, a ``--save`` or ``--log`` target that could not be written."""
    p = Path(path)
    if p.is_dir():
        raise MasonError(f"{flag} {path}: is a directory", code="cli/usage")
    parent = p.parent
    if not parent.is_dir():
        raise MasonError(f"{flag} {path}: no directory '{parent}'", code="cli/usage")
    if p.exists() and not os.access(p, os.W_OK):
        raise MasonError(f"{flag} {path}: the file is not writable", code="cli/usage")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".mason-check-", dir=parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise MasonError(f"{flag} {path}: cannot write in '{parent}': {exc.strerror}", code="cli/usage") from None


class SaveTarget:
    """Where a session saves its game.

    A name the player gave (``--save``, ``save FILE``) or the resumed save is written over; the
    default name (``mason-save.json``) never replaces a file this session did not write: the save
    goes to ``mason-save-2.json`` (``-3``, ...) instead, and ``note`` says why.
    """

    def __init__(self, path=None, default: bool = False):
        self.path = Path(path if path is not None else DEFAULT_NAME)
        self.default = default
        self.written = False
        self.note = ""

    def write(self, game) -> Path:
        """Save ``game``; return the file written. Raises SaveError (code ``save/write``)."""
        if self.default and not self.written and self.path.exists():
            taken = self.path
            stem, suffix = taken.stem, taken.suffix
            k = 2
            while (taken.parent / f"{stem}-{k}{suffix}").exists():
                k += 1
            self.path = taken.parent / f"{stem}-{k}{suffix}"
            self.note = f"{taken} holds another game"
        game.save(self.path)
        self.written = True
        return self.path


# ------------------------------------------------------------------------- reading
def read_save(path):
    """The JSON data of a save file; SaveError (with the file) if it cannot be read as UTF-8 JSON."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(
            f"{path}: not a Mason save file: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # numbers too long, nesting too deep
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise SaveError(f"{path}: not JSON: {reason}") from None
    where = lone_surrogate(text)
    if where is not None:
        line, col = where
        raise SaveError(
            f"{path}:{line}:{col}: not a Mason save file: a string holds half a character (a lone \\u escape)"
        )
    return data


# a \uD800-\uDFFF escape (after an even run of backslashes), with the low half that may follow a high one
_SURROGATE_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)\\u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|"
    r"(?<!\\)((?:\\\\)*)\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def same_json(a, b) -> bool:
    """Whether two plain values are the same JSON: compared as JSON text, not by Python's ``==`` (where
    ``true`` is ``1`` and ``1.0`` is ``1``), so an edited log or save is no replay's."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def lone_surrogate(text: str) -> tuple[int, int] | None:
    """(line, column) of the first ``\\uD800``-``\\uDFFF`` escape in JSON ``text`` that is not half of a
    pair (JSON allows one; it is no character, and printing or writing it as UTF-8 fails), or None."""
    if "\\u" not in text:
        return None
    for m in _SURROGATE_ESCAPE.finditer(text):
        if m.group(2) is not None and m.group(3) is not None:
            continue  # a high half followed by its low half: one character
        at = m.start() + len(m.group(1) or m.group(4) or "")
        line = text.count("\n", 0, at) + 1
        return line, at - (text.rfind("\n", 0, at) + 1) + 1
    return None


def check_format(data) -> None:
    """The format number and the settings: enough to know which game to load. A save of format 1 is
    upgraded in place (its frames renamed: ``frames.upgrade_stack``)."""
    if isinstance(data, dict) and type(data.get("mason")) is int and data["mason"] == 1:  # (not true)
        if isinstance(data.get("state"), dict):
            data["state"]["stack"] = upgrade_stack(data["state"].get("stack"))
        data["mason"] = SAVE_FORMAT
    if not isinstance(data, dict) or data.get("mason") != SAVE_FORMAT:
        raise SaveError("not a Mason save file (missing or unknown 'mason' format number)")
    if "settings" not in data:
        raise SaveError("the save is damaged: 'settings' is missing")
    _schema_check(data["settings"], "settings", "settings")


def check_schema(data) -> None:
    """The whole save against ``schemas/save.schema.json``."""
    _schema_check(data, None, "")


def _validator(part: str | None) -> Draft202012Validator:
    key = part or ""
    if key not in _VALIDATORS:
        from jsonschema import Draft202012Validator

        schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
        if part:
            schema = {"$defs": schema["$defs"], **schema["$defs"][part]}
        _VALIDATORS[key] = Draft202012Validator(schema)
    return _VALIDATORS[key]


def log_entry_problem(entry) -> str | None:
    """What is wrong with a log entry by ``schemas/log.schema.json`` (``settings.options: expected an
    object, not a list``), or None."""
    if "log" not in _VALIDATORS:
        from jsonschema import Draft202012Validator

        _VALIDATORS["log"] = Draft202012Validator(json.loads(LOG_SCHEMA_FILE.read_text(encoding="utf-8")))
    try:
        errors = list(_VALIDATORS["log"].iter_errors(entry))
    except RecursionError:
        return "nested too deeply"
    if not errors:
        return None
    first = min(errors, key=lambda e: ([str(x) for x in e.absolute_path], e.validator != "required"))
    return f"{_where('', first.absolute_path)}: {_what(first)}"


def check_log_entries(log) -> None:
    """Every entry of a save's log against ``schemas/log.schema.json`` (for a log that is not replayed:
    a save resumed under changed rules); SaveError naming the first damaged entry."""
    for k, entry in enumerate(log):
        problem = log_entry_problem(entry)
        if problem:
            problem = problem.removeprefix("the file: ")  # (a problem of the entry itself)
            raise SaveError(f"the save's log is damaged: entry {k + 1}: {problem}")


def _schema_check(data, part, prefix) -> None:
    try:
        errors = list(_validator(part).iter_errors(data))
    except RecursionError:
        raise SaveError("the save is damaged: nested too deeply") from None
    if errors:
        first = min(errors, key=lambda e: ([str(x) for x in e.absolute_path], e.validator != "required"))
        raise SaveError(f"the save is damaged: {_where(prefix, first.absolute_path)}: {_what(first)}")


def _where(prefix: str, path) -> str:
    out = prefix
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "the file"


_JSON_TYPES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _json_type(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int):
        return "a whole number"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    return "a list" if isinstance(v, list) else "an object"


def _what(err) -> str:
    v, vv, inst = err.validator, err.validator_value, err.instance
    if v == "required":
        missing = [k for k in vv if isinstance(inst, dict) and k not in inst]
        return f"'{missing[0] if missing else vv[0]}' is missing"
    if v == "type":
        types = [vv] if isinstance(vv, str) else vv
        return f"expected {' or '.join(_JSON_TYPES[t] for t in types)}, not {_json_type(inst)}"
    if v in ("minimum", "maximum"):
        return f"{inst} is out of range ({'at least' if v == 'minimum' else 'at most'} {vv})"
    if v == "additionalProperties":
        extra = sorted(k for k in inst if k not in err.schema.get("properties", {}))
        return f"unknown key '{extra[0]}'" if extra else err.message
    if v == "const":
        return f"must be {json.dumps(vv)}"
    if v == "enum":
        return f"{_short(inst)} is not one of {', '.join(map(str, vv))}"
    if v == "pattern":
        return f"{_short(inst)} is not of the expected form"
    if v == "minItems":
        return "is empty"
    if v == "minLength":
        return "is empty"
    return err.message if len(err.message) < 120 else err.message[:117] + "..."


def _short(v) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


# ------------------------------------------------------------------------- the rules
def rules_hash(program) -> str:
    """``sha256:...`` of the rules a program runs (game, components, expansions and variants merged)."""
    h = _HASHES.get(program)
    if h is None:
        spec = program.spec
        text = json.dumps({"game": spec.game, "components": spec.components}, sort_keys=True, default=str)
        h = _HASHES[program] = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    return h


# ------------------------------------------------------------------------- the state
def check_state(prog, settings, data, same_rules: bool = True) -> None:
    """The state of a schema-valid save against its game; SaveError naming the first problem.
    ``same_rules`` False: the rules may have changed since (``--rules-changed``), the hash is not compared."""
    state = data["state"]
    damaged = "the save's state is damaged: "
    players = player_count(state)
    if players != settings.players:
        raise SaveError(damaged + "its settings and state disagree on the number of players")
    if same_rules and data.get("rules") is not None and data["rules"] != rules_hash(prog):
        raise SaveError(
            f"the save was made with other rules than {prog.name}'s rule files now hold "
            "(they changed since): it cannot go on exactly"
        )
    if not prog.min_players <= players <= prog.max_players:
        raise SaveError(
            f"the save's state has {players} players; {prog.name} takes {prog.min_players}-{prog.max_players}"
        )
    autos = prog.automata_at(players)
    if state.get("automata", {}) != {str(players + i): a for i, a in enumerate(autos)}:
        raise SaveError("the save's automated seats do not match the game's automata")
    n = state["n"]
    _check_settings(prog, settings, state, players)
    _check_seats(data, players)
    _check_cards(prog, state, n)
    _check_counters(prog, state, n)
    _check_vars(prog, state, n)
    if set(state.get("boards", {})) != set(prog.boards):
        raise SaveError("the save's boards do not match the game's boards")
    for seat in state.get("bots", {}):
        if int(seat) >= players:
            raise SaveError(damaged + f"state.bots: seat {int(seat) + 1} is not a player's seat")
    _check_stack(prog, state)
    _check_result(state, n)
    _check_pending(prog, state)
    _check_log(data, settings, state)


def _check_settings(prog, settings, state, players):
    for key, _value in settings.options:
        if key not in prog.constants:
            raise SaveError(f"the save's settings name an option '{key}' that {prog.name} does not have")
    if state["constants"] != {**prog.constants, **dict(settings.options)}:
        raise SaveError("the save's constants do not match its settings and the game's options")
    if state["table"] != prog.table_for(players):
        raise SaveError(f"the save's table does not match {prog.name}'s row for {players} players")


def _check_seats(data, players):
    seats = data.get("seats")
    if seats is None:
        return
    from mason.agents import SEAT_KINDS

    if len(seats) != players:
        raise SaveError(f"the save is damaged: seats: {len(seats)} seats for {players} players")
    for i, kind in enumerate(seats):
        if kind not in SEAT_KINDS:
            raise SaveError(f"the save is damaged: seats[{i}]: unknown kind '{kind}' (known: {', '.join(SEAT_KINDS)})")


def _check_cards(prog, state, n):
    cards, zones = state["cards"], state["zones"]
    if len(cards) != len(prog.instances):
        raise SaveError("the save's state does not match the game's components")
    expected = {
        zone_key(name, None if z["scope"] == "game" else s)
        for name, z in prog.zones.items()
        for s in (range(n) if z["scope"] == "seat" else [0])
    }
    if set(zones) != expected:
        raise SaveError("the save's zones do not match the game's zones")
    where: dict[int, str] = {}
    for key, ids in zones.items():
        for c in ids:
            if c >= len(cards):
                raise SaveError(f"the save's zone '{key}' holds something that is not a card of this game")
            if c in where:
                raise SaveError(
                    f"the save's card {c} ({_card_name(prog, c)}) is in two places: '{where[c]}' and '{key}'"
                )
            where[c] = key
    for i, card in enumerate(cards):
        name = _card_name(prog, i)
        if card["t"] != prog.instances[i]:
            raise SaveError(f"the save's card {i} is damaged: it should be {name}, not '{card['t']}'")
        if card["z"] is not None and card["z"] not in prog.zones:
            raise SaveError(f"the save's card {i} ({name}) is in an unknown zone '{card['z']}'")
        if card["o"] is not None and card["o"] >= n or any(s >= n for s in card["seen"]):
            raise SaveError(f"the save's card {i} ({name}) names a seat the game does not have")
        key = None if card["z"] is None else zone_key(card["z"], card["o"])
        if where.get(i) != key:
            if key is None:
                raise SaveError(f"the save's card {i} ({name}) is out of play but lies in '{where[i]}'")
            raise SaveError(f"the save's card {i} ({name}) is not where it says it is ('{key}')")
        for field in prog.card_state:
            if field not in card:
                raise SaveError(f"the save's card {i} ({name}) is damaged: '{field}' is missing")


def _card_name(prog, i) -> str:
    return prog.types[prog.instances[i]]["name"] if 0 <= i < len(prog.instances) else f"#{i}"


def _check_counters(prog, state, n):
    counters = state["counters"]
    if set(counters) != set(prog.counters):
        missing = sorted(set(prog.counters) - set(counters)) or sorted(set(counters) - set(prog.counters))
        raise SaveError(f"the save's state is damaged: counter '{missing[0]}' is missing or unknown")
    for name, cdef in prog.counters.items():
        v = counters[name]
        values = v if isinstance(v, list) else [v]
        if (cdef["scope"] == "seat") != isinstance(v, list) or (cdef["scope"] == "seat" and len(v) != n):
            raise SaveError(f"the save's state is damaged: counter '{name}' is missing or malformed")
        cap = cdef["cap"]
        for s, x in enumerate(values):
            who = f"P{s + 1}'s " if isinstance(v, list) else ""
            if cap is not None and x > cap:
                raise SaveError(f"the save's counter {who}{name} is {x}, above its cap of {cap}")
            if (cdef["supply"] is not None or name in _supplies(prog)) and x < 0:
                raise SaveError(f"the save's counter {who}{name} is {x}: a supply never goes below 0")


def _supplies(prog) -> set:
    return {c["supply"] for c in prog.counters.values() if c["supply"] is not None}


def _check_vars(prog, state, n):
    """Every declared variable present, none unknown, one value a seat for a seat variable, and a
    variable of ``type: seat`` holding a seat of the game or nothing."""
    damaged = "the save's state is damaged: "
    values = state["vars"]
    for name in values:
        if name not in prog.vars:
            raise SaveError(damaged + f"unknown variable '{name}'")
    for name, vdef in prog.vars.items():
        if name not in values:
            raise SaveError(f"the save's variables lack '{name}'")
        v = values[name]
        if vdef["scope"] == "seat" and not (isinstance(v, list) and len(v) == n):
            raise SaveError(damaged + f"variable '{name}' holds no value for every seat")
        if vdef.get("type") == "seat":
            for s, x in enumerate(v if vdef["scope"] == "seat" else [v]):
                if x is not None and not (type(x) is int and 0 <= x < n):
                    who = f"P{s + 1}'s " if vdef["scope"] == "seat" else ""
                    raise SaveError(damaged + f"{who}{name} is {_short(x)}: a seat (0-{n - 1}) or null expected")


def _check_stack(prog, state):
    stack, nodes = state["stack"], prog.nodes
    for i, fr in enumerate(stack):
        k = fr["kind"]
        if fr.get("node", 0) >= len(nodes):
            raise SaveError("the save's paused execution refers to rules this game does not have")
        if k == "flow":
            if i != 0:
                raise SaveError("the save's paused execution is damaged: the round loop is not at the bottom")
            continue
        node = nodes[fr["node"]]
        if node.kind != FRAME_NODES[k]:
            raise SaveError(
                f"the save's paused execution is damaged: frame {i} names a {node.kind}, not a {FRAME_NODES[k]}"
            )
        if k == "turn":
            outer = fr["outer_turn"]
            if not -1 <= outer < i or (outer >= 0 and stack[outer]["kind"] != "turn"):
                raise SaveError(f"the save's paused execution is damaged: turn frame {i} has no enclosing turn")
            if fr["seat"] >= state["n"] or (fr["card"] is not None and fr["card"] >= len(state["cards"])):
                raise SaveError(f"the save's paused execution is damaged: turn frame {i} names no seat or card")
            continue
        if fr["scope"] > i or not isinstance(stack[fr["scope"]].get("vars"), dict):
            raise SaveError(f"the save's paused execution is damaged: frame {i} has no variables")
        if k == "block" and fr["next"] > len(node.stmts):
            raise SaveError(f"the save's paused execution is damaged: frame {i} is past its block's end")
    ti = state["ti"]
    if not -1 <= ti < len(stack) or (ti >= 0 and stack[ti]["kind"] != "turn"):
        raise SaveError("the save's state is damaged: its current turn does not exist")


def _check_result(state, n):
    result = state["result"]
    if state["over"] and not state["stack"]:
        if result is None:
            raise SaveError("the save's state is damaged: the game is over without a result")
    if result is None:
        return
    ok = (
        isinstance(result.get("scores"), list)
        and len(result["scores"]) == n
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in result["scores"])
        and isinstance(result.get("parts"), list)
        and len(result["parts"]) == n
        and all(isinstance(x, dict) for x in result["parts"])
        and isinstance(result.get("winners"), list)
        and all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < n for w in result["winners"])
        and isinstance(result.get("rounds"), int)
    )
    if not ok:
        raise SaveError("the save's state is damaged: its result is malformed")


def _check_pending(prog, state):
    """The pending decision must be the one the engine asks at the paused rule: same seat, options, labels."""
    p, stack = state["pending"], state["stack"]
    if p is None:
        if stack and stack[-1]["kind"] in ("choice", "option"):
            raise SaveError("the save's pending decision is damaged: a choice waits without a decision")
        if not (state["over"] and not stack):
            raise SaveError("the save's state is damaged: no decision is pending and the game is not over")
        return
    damaged = "the save's pending decision is damaged"
    if not stack or stack[-1]["kind"] not in ("choice", "option", "turn"):
        raise SaveError(f"{damaged}: no paused rule asks it")
    if p["seat"] >= state["n"] or str(p["seat"]) in (state.get("automata") or {}):
        raise SaveError(f"{damaged}: it is put to seat {p['seat'] + 1}, which no player holds")
    if len(p["labels"]) != len(p["options"]):
        raise SaveError(f"{damaged}: its options and labels differ in number")
    try:
        fresh = _ask_again(prog, state)
    except (MasonError, TypeError, ValueError, IndexError, KeyError, AttributeError, RecursionError) as exc:
        reason = exc.message if isinstance(exc, MasonError) else type(exc).__name__
        raise SaveError(f"{damaged}: its paused rule cannot ask it again ({reason})") from None
    if fresh is None:
        raise SaveError(f"{damaged}: its paused rule asks nothing")
    for key, what in (
        ("seat", "seat"),
        ("kind", "kind"),
        ("subset", "size"),
        ("options", "options"),
        ("labels", "labels"),
        ("prompt", "prompt"),
    ):
        if fresh[key] != p[key]:
            if key == "seat":
                raise SaveError(f"{damaged}: it is put to P{p['seat'] + 1}, but the rule asks P{fresh['seat'] + 1}")
            raise SaveError(
                f"{damaged}: its {what} are not the ones the rule offers"
                if what in ("options", "labels")
                else f"{damaged}: its {what} is not the rule's"
            )


def _ask_again(prog, state) -> dict | None:
    """The decision the paused rule puts now, computed by the engine on a copy of the state."""
    st = copy_state(state)
    st["pending"] = None
    rt = Runtime(prog, st, lambda entry: None)  # narrating: labels are computed as for a person
    top = st["stack"][-1]
    if top["kind"] == "turn":
        if top["step"] != TURN_WINDOW:
            return None
        FRAME["turn"](rt, top)
        return st["pending"]
    st["stack"].pop()
    below = st["stack"][-1] if st["stack"] else None
    node = prog.nodes[top["node"]]
    if (
        below is None
        or below["kind"] != "block"
        or below["scope"] != top["scope"]
        or below["next"] < 1
        or prog.nodes[below["node"]].stmts[below["next"] - 1] is not node
    ):
        return None
    runner_of(node.kind)(rt, st["stack"][below["scope"]]["vars"], node, below)
    return st["pending"]


def _check_log(data, settings, state):
    log = data.get("log") or []
    if not log:
        return
    first = log[0]
    if first.get("type") != "start" or first.get("settings") != settings.to_json():
        raise SaveError("the save's log does not start with the save's settings")
    answered = sum(1 for e in log if e.get("type") == "decision")
    if answered != state["decisions"]:
        raise SaveError(f"the save's log holds {answered} decisions, its state {state['decisions']}")


# ------------------------------------------------------------------------- the replay
def check_replay(settings, data, new_game, from_state=None) -> None:
    """The state must be the one the save's own settings and answers lead to (after ``check_state``;
    ``new_game(settings, narrate=...)`` starts the game to replay: ``Game.new``).

    A save records its settings and every answer (in its log, or in ``answers`` for a game played
    without one); the engine is deterministic, so the state is derived data: replaying the answers
    rebuilds it exactly, and any difference (a counter forged above what its supply held, a game
    marked over mid-round, a variable given another value) is refused, naming the first place that
    differs. The log, when there is one, must be the replay's too. Only ``state.bots`` (each bot's
    own random stream, not the game's) is taken from the save as it is. A save that holds no
    answers cannot be checked and is refused. A log that records a change of rules (a
    ``rules_changed`` entry, ``--rules-changed``) is replayed from the state that entry holds, by
    ``from_state(state, log so far)``, with the answers after it.
    """
    from mason.runtime.engine import fill_labels

    log, state = data.get("log") or [], data["state"]
    changed = last_rules_change(log)
    if changed is not None and from_state is not None:
        answers = [e.get("answer", _ABSENT) for e in log[changed + 1 :] if e.get("type") == "decision"]
        if log[changed].get("rules") != data.get("rules"):
            raise SaveError("the save's log is damaged: its last change of rules is not to the save's rules")
    elif log:
        answers = [e.get("answer", _ABSENT) for e in log if e.get("type") == "decision"]
    elif data.get("answers") is not None:
        answers = data["answers"]
        if len(answers) != state["decisions"]:
            raise SaveError(f"the save holds {len(answers)} answers, its state {state['decisions']} decisions")
    else:
        raise SaveError("the save holds neither a log nor its answers, so its state cannot be checked")
    try:
        if changed is not None and from_state is not None:
            start = log[changed].get("state")
            if not isinstance(start, dict):
                raise SaveError("the save's log is damaged: its change of rules holds no state")
            game = from_state(json.loads(json.dumps(start)), json.loads(json.dumps(log[: changed + 1])))
        else:
            game = new_game(settings, narrate=bool(log))
        for k, answer in enumerate(answers):
            if game.state["pending"] is None:
                raise SaveError(f"the save's answer {k + 1} comes after the game ended")
            if answer is _ABSENT:
                raise SaveError(f"the save's log is damaged: decision {k + 1} has no answer")
            while len(game.log) < len(log) and bot_reason_entry(log[len(game.log)]):
                problem = bot_reason_problem(log[len(game.log)], game)
                if problem:
                    raise SaveError(f"the save's log is damaged: entry {len(game.log) + 1}: {problem}")
                game.log.append(log[len(game.log)])  # a bot's reason: the bot's thinking, not the rules'
            game.answer(answer)
    except SaveError:
        raise
    except MasonError as exc:  # an illegal answer, or the rules stopped the game
        raise SaveError(f"the save's answers cannot be replayed: {exc.message}") from None
    fill_labels(game.rt)
    if "bots" in state:
        game.state["bots"] = state["bots"]
    where = _first_difference(state, json.loads(json.dumps(game.state)), "state")
    if where is not None:
        path, saved, rebuilt = where
        raise SaveError(
            f"the save's state is not the one its answers lead to: {path} is {saved}, its answers give {rebuilt}"
        )
    replayed = json.loads(json.dumps(game.log))
    if not same_json(log, replayed):
        k = next(
            i
            for i in range(len(log) + 1)
            if i >= len(log) or i >= len(replayed) or _first_difference(log[i], replayed[i], "") is not None
        )
        raise SaveError(f"the save's log is not the one its answers lead to: entry {k + 1} differs")


_ABSENT = object()


def last_rules_change(log) -> int | None:
    """The index of the log's last ``rules_changed`` entry (a game that went on under changed rules), or None."""
    for i in range(len(log) - 1, -1, -1):
        if isinstance(log[i], dict) and log[i].get("type") == "rules_changed":
            return i
    return None


def bot_reason_entry(entry) -> bool:
    """Whether a log entry is a bot's ``reason`` (play/session.py, ``log_bot_reason``): written before the
    bot's answer, from the bot's search; a replay of the answers cannot make it, so it takes it from the log."""
    return isinstance(entry, dict) and entry.get("type") == "reason" and entry.get("by") not in (None, "policy")


# the fields of a bot's reason entry (play/session.py ``log_bot_reason``)
BOT_REASON_KEYS = {"type", "by", "seat", "prompt", "round", "at", "because", "text", "to", "hide_from", "figures"}


def bot_reason_problem(entry: dict, game) -> str | None:
    """What is wrong with a bot's ``reason`` entry that a replay takes from a log, before ``game``'s
    pending decision (the one the bot answers next), or None. Only its ``text`` and ``figures`` are the
    bot's own (its search, which a replay does not run again: their shape is checked, not their
    figures); its seat, question, round, place, causes and readers are the rules', and must be the
    pending decision's (play/session.py ``log_bot_reason`` writes them)."""
    problem = log_entry_problem(entry)
    if problem:
        return f"a bot's reason: {problem}"
    p = game.pending
    if p is None:
        return "a bot's reason where no decision is pending"
    seat = p["seat"]
    expected = {"seat": seat, "prompt": p["prompt"], "round": game.state["round"], "at": game._asked_at(p)}
    expected["because"] = []
    for key, value in expected.items():
        if not same_json(entry.get(key), value):
            return f"a bot's reason whose {key} is {_short(entry.get(key))}, not the decision's {_short(value)}"
    unknown = sorted(set(entry) - BOT_REASON_KEYS)
    if unknown:
        return f"a bot's reason with an unknown field '{unknown[0]}'"
    readers = [k for k in ("to", "hide_from") if k in entry]
    if len(readers) != 1 or not same_json(entry[readers[0]], [seat]):
        return f"a bot's reason read by others than P{seat + 1} or the others"
    if not isinstance(entry.get("by"), str) or not isinstance(entry.get("text"), str):
        return "a bot's reason without its bot's kind or its text"
    labels = p.get("labels") or []
    figures = entry.get("figures", [])
    if not isinstance(figures, list) or not all(
        isinstance(f, dict)
        and f.get("option") in labels
        and all(k == "option" or isinstance(v, str) or (_is_number(v) and v == v) for k, v in f.items())
        for f in figures
    ):
        return "a bot's reason whose figures are not the bot's figures for the decision's options"
    return None


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _first_difference(a, b, path):
    """(path, a's value, b's value) at the first place two JSON values differ, else None."""
    if type(a) is not type(b) or not isinstance(a, (dict, list)):
        return None if a == b and type(a) is type(b) else (path, _shown(a), _shown(b))
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            found = _first_difference(a.get(key, _ABSENT), b.get(key, _ABSENT), f"{path}.{key}")
            if found:
                return found
        return None
    for i in range(max(len(a), len(b))):
        found = _first_difference(a[i] if i < len(a) else _ABSENT, b[i] if i < len(b) else _ABSENT, f"{path}[{i}]")
        if found:
            return found
    return None


def _shown(v) -> str:
    return "absent" if v is _ABSENT else _short(v)
