"""The compile cache: work that compiling a game repeats from run to run, kept between runs.

Most of a command's start was compiling its game (for a game of three files and some fifty rule
texts: reading the YAML files with PyYAML, checking them against their schemas, parsing the DSL texts
with Lark, about 0.3 s) and importing those three libraries. Each of these results depends only on
the bytes of a rule file and on Mason's own code, so it is kept, under a digest of exactly what it
depends on:

- a rule file as read, its data and places: ``yaml-<digest>.pickle``, the digest of the code, the
  name the file is shown by (places name it) and its bytes; only a file read without a problem;
- that file passed its schema: the empty file ``schema-<digest>``, the digest of the file's entry and
  the schema's name;
- the syntax trees of the DSL texts compiled from a set of files, and the code of the Python functions
  generated for their expressions (``mason.dsl.fastexpr``): ``dsl-<digest>.pickle``, the digest of
  those files' entries; a text (a source) is looked up by itself, so variants share the set's trees.

A game whose files are all known then compiles without PyYAML, jsonschema or Lark being imported;
what is left is building the program from the trees (benchmarks/RESULTS.md, "Start-up"). Nothing
but speed changes: an error is never kept (a file with a problem is read afresh each time, and only
trees of texts that parsed are kept), and a program built from the cache is the one built without it
(a test compares them for every game).

Where: ``$MASON_CACHE_DIR``, else ``$XDG_CACHE_HOME/mason``, else ``~/.cache/mason``;
``MASON_CACHE_DIR=off`` turns the cache off. Inside, one folder per version of the code: the digest
of Mason's source files (names, sizes, modification times), the Python version and the PyYAML, Lark
and jsonschema installed; the newest four folders are kept. An entry that cannot be read (damaged,
cut short) is ignored and written again; one that cannot be written (a read-only home) is skipped.
A version folder holds at most MAX_ENTRIES entries: beyond, the least recently used go.
Entries are written whole or not at all (a temporary file, then renamed), so runs in parallel share
the folder safely.

Entries are pickles (and the generated code, marshalled code objects), which run code when read, so
an entry is read only when it is signed: each starts with an HMAC-SHA256 of its name and contents
under a key of 32 random bytes kept *outside* the cache folder, beside it (``.<folder name>.key``,
e.g. ``~/.cache/.mason.key``), made on first use with mode 0600. An entry whose signature does not
match (planted, damaged, cut short, written under another key) is never unpickled: it is ignored,
removed and written again. The cache is off (nothing but speed changes) when the cache folder or its
version folder belongs to another user or may be written by group or others, or when the key file
cannot be made or is not a private file of this user (a link, another owner, readable by others).
Folders the cache makes are made 0700.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import marshal
import os
import pickle
import shutil
import stat
import sys
from functools import lru_cache
from pathlib import Path

from mason.errors import DefinitionError
from mason.model.positions import Positions, is_overlaid, read_rule_bytes

ENV = "MASON_CACHE_DIR"
OFF = ("off", "0", "no", "false")
KEEP_VERSIONS = 4  # code-version folders kept (the newest by use)
MAX_ENTRIES = 1000  # entries in a version folder; beyond, the least recently used are removed down to half
_LIBRARIES = ("yaml", "lark", "jsonschema")
MAGIC = b"mason-cache-signed-1\n"  # an entry: MAGIC, the HMAC-SHA256 of its name and contents, the contents
KEY_BYTES = 32
_KEYS: dict[Path, bytes] = {}  # version folder -> the key its entries are signed with


def folder() -> Path | None:
    """This code version's cache folder (created), or None when the cache is off or cannot be made."""
    return _folder(os.environ.get(ENV), os.environ.get("XDG_CACHE_HOME"))


@lru_cache(maxsize=8)
def _folder(setting: str | None, xdg: str | None) -> Path | None:
    if setting is not None and setting.strip().lower() in OFF + ("",):
        return None
    base = Path(setting) if setting else Path(xdg) / "mason" if xdg else Path.home() / ".cache" / "mason"
    here = base / code_version()
    try:
        if not here.is_dir():
            base.mkdir(mode=0o700, parents=True, exist_ok=True)
            here.mkdir(mode=0o700, exist_ok=True)
            _prune(base, here)
        if not (_private_folder(base) and _private_folder(here)):
            return None
        key = _key(base)
        if key is None:
            return None
        os.utime(here)  # newest by use: pruning keeps the versions in use
    except OSError:
        return None
    _KEYS[here] = key
    _trim(here)
    return here


def _private_folder(path: Path) -> bool:
    """Whether only this user may write in ``path`` (its owner, no write bit for group or others)."""
    st = os.stat(path)
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & 0o022


def key_file(base: Path) -> Path:
    """Where the key signing the entries of the cache folder ``base`` is kept: beside it, not in it."""
    return base.parent / f".{base.name}.key"


def _key(base: Path) -> bytes | None:
    """The signing key (made on first use, mode 0600), or None when it cannot be made or read, or the
    file is not this user's private regular file: then the cache is off."""
    path = key_file(base)
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        try:
            os.write(fd, os.urandom(KEY_BYTES))
        finally:
            os.close(fd)
    try:
        fd = os.open(path, os.O_RDONLY | nofollow)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077 or st.st_size != KEY_BYTES:
            return None
        key = os.read(fd, KEY_BYTES)
    finally:
        os.close(fd)
    return key if len(key) == KEY_BYTES else None


def _signature(path: Path, contents: bytes) -> bytes | None:
    key = _KEYS.get(path.parent)
    if key is None:
        return None
    return hmac.new(key, path.name.encode() + b"\0" + contents, hashlib.sha256).digest()


def _trim(here: Path) -> None:
    """Keep a version folder bounded (every edit of a rule file adds an entry): past MAX_ENTRIES, the
    least recently used entries go, down to half of it. Once per process, at its first use."""
    try:
        entries = [e for e in os.scandir(here) if e.is_file()]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime)
    except OSError:
        return
    for e in entries[: len(entries) - MAX_ENTRIES // 2]:
        with contextlib.suppress(OSError):
            os.unlink(e.path)


def _prune(base: Path, keep: Path) -> None:
    """Remove all but the KEEP_VERSIONS most recently used version folders (``keep`` stays)."""
    try:
        others = sorted(
            (p for p in base.iterdir() if p.is_dir() and p != keep and len(p.name) == 24),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    for old in others[KEEP_VERSIONS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the code a compilation runs: Mason's package and schemas (each file's name, size and
    modification time), Python's version and the YAML, Lark and jsonschema libraries installed."""
    import importlib.util

    import mason
    from mason import schemas

    h = hashlib.sha256(sys.version.encode())
    for root in (Path(mason.__file__).parent, Path(schemas.__file__).parent):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark", ".json") and "__pycache__" not in path.parts:
                st = path.stat()
                h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns};".encode())
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        mtime = os.stat(origin).st_mtime_ns if origin else 0
        h.update(f"{name}:{origin}:{mtime};".encode())
    return h.hexdigest()[:24]


def _digest(*parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


def _read(path: Path):
    """An entry's value, or None when there is none or it cannot be read (then it is removed). Only an
    entry signed with this cache's key is unpickled. An entry read is marked as used (its modification
    time), so trimming the folder keeps it."""
    contents = _signed_contents(path)
    if contents is None:
        return None
    try:
        return pickle.loads(contents)
    except Exception:  # noqa: BLE001 - signed but unreadable (another pickle protocol): a miss
        with contextlib.suppress(OSError):
            path.unlink()
        return None


def _signed_contents(path: Path) -> bytes | None:
    """The contents of an entry whose signature is this cache's (marked as used), else None (a foreign
    or damaged entry is removed, so that it is written again)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head = len(MAGIC) + hashlib.sha256().digest_size
    contents = raw[head:]
    expected = _signature(path, contents)
    if expected is None or not raw.startswith(MAGIC) or not hmac.compare_digest(raw[len(MAGIC) : head], expected):
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):
        os.utime(path)
    return contents


def _write(path: Path, value) -> None:
    """Write an entry whole (a temporary file, then renamed); give up quietly if it cannot be written."""
    try:
        contents = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return
    _write_signed(path, contents)


def _write_signed(path: Path, contents: bytes) -> None:
    signature = _signature(path, contents)
    if signature is None:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(MAGIC + signature + contents)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


# ------------------------------------------------------------------------------------- rule files
_READERS: list[list[Path]] = []  # the open ``reading()`` blocks: every rule file read_yaml reads is added


@contextlib.contextmanager
def reading():
    """Collect the paths of the rule files ``read_yaml`` reads inside the block (the files a program is
    made from, so that a process which keeps the program can tell when one of them changed: ``stamp``)."""
    paths: list[Path] = []
    _READERS.append(paths)
    try:
        yield paths
    finally:
        _READERS.remove(paths)


def stamp(paths) -> tuple:
    """What the files ``paths`` are now, cheaply: each one's modification time and size (None when it is
    gone). Two equal stamps: the files were not edited in between (as far as the file system says)."""
    out: list[tuple] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            out.append((str(path), None))
        else:
            out.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(out)


def read_yaml(path: Path, shown: str):
    """``load_yaml(path, shown, strict=False)``: (data, Positions), from the cache when this very file
    was read before. The Positions' ``digest`` is set when the cache is on (the key of its entry). A text
    that stands for the file (an editor's unsaved buffer, ``positions.overlaid``) is read, never kept."""
    for paths in _READERS:
        paths.append(path)
    if is_overlaid(path):
        return _yamlpos().load_yaml(path, shown, strict=False)
    here = folder()
    raw = _bytes(path) if here is not None else None
    if here is None or raw is None:  # cache off, or a file the reader must report on (missing, too large)
        return _yamlpos().load_yaml(path, shown, strict=False)
    key = _digest("yaml", shown, raw)
    entry = here / f"yaml-{key}.pickle"
    got = _read(entry)
    if isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], Positions):
        data, pos = got
    else:
        try:  # as Path.read_text reads it: UTF-8, universal newlines
            text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            return _yamlpos().load_yaml(path, shown, strict=False)  # raises, with its message
        data, pos = _yamlpos().load_yaml_text(text, shown, strict=False)
        if not pos.errors:
            _write(entry, (data, pos))
    pos.digest = key
    return data, pos


def _yamlpos():
    """The YAML reader (and PyYAML with it), imported only when a file must really be read."""
    from mason.model import yamlpos

    return yamlpos


def _bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when the reader must report on it (missing, too large, not a regular
    file: a pipe or a device is never waited on nor read without end)."""
    try:
        return read_rule_bytes(path, str(path))
    except DefinitionError:
        return None


def schema_passed(pos, schema: str) -> bool:
    """Whether this file read (``pos``) passed ``schema`` before, in this code version."""
    here = folder()
    if here is None or pos.digest is None:
        return False
    return _signed_contents(here / f"schema-{_digest(pos.digest, schema)}") == b""  # (marked as used)


def note_schema_passed(pos, schema: str) -> None:
    """Remember that the file of ``pos`` passed ``schema``, so the check is skipped next time."""
    here = folder()
    if here is not None and pos.digest is not None:
        _write_signed(here / f"schema-{_digest(pos.digest, schema)}", b"")


# ------------------------------------------------------------------------------------ DSL trees
@contextlib.contextmanager
def dsl_trees(positions):
    """Around one compilation of the files read as ``positions``: the DSL trees and the generated
    functions' code kept for those files are given to the parser and the expression generator first,
    and what the compilation parsed or compiled anew is kept after it (only when it ends without an
    exception). Code objects are kept with ``marshal``, which this code version's Python reads."""
    from mason.dsl import fastexpr, parser

    here = folder()
    digests = [p.digest for p in positions]
    if here is None or not digests or None in digests:
        yield
        return
    digests.sort()
    entry = here / f"dsl-{_digest(*digests)}.pickle"
    kept = _read(entry)
    trees, code = (kept.get("trees"), kept.get("code")) if isinstance(kept, dict) else (None, None)
    trees = trees if isinstance(trees, dict) else {}
    code = code if isinstance(code, dict) else {}
    parser.TREES.give(trees)
    try:
        fastexpr.CODE.give({src: marshal.loads(raw) for src, raw in code.items()})
    except (EOFError, ValueError, TypeError):  # damaged: compiled afresh, and written again below
        code = {}
    with parser.TREES.recording() as used, fastexpr.CODE.recording() as built:
        yield
    if not used.keys() <= trees.keys() or not built.keys() <= code.keys():
        code = {**code, **{src: marshal.dumps(c) for src, c in built.items() if src not in code}}
        _write(entry, {"trees": {**trees, **used}, "code": code})
