"""The language server (pygls over stdio): diagnostics as you type, completion, hover, definitions,
references and document symbols for Mason's rule files.

Diagnostics: a change to an open file schedules a check of its game after DEBOUNCE seconds of quiet,
on one worker thread, over the open files' unsaved texts. First the game as loaded is checked and
published (the quick part: only the edited file is read again, the rest comes from the compile cache),
then the complete check of ``mason validate`` (every variant and expansion) replaces it. A result is
dropped when the text changed while it ran. Every handler answers nothing rather than fail: no
exception reaches the editor and no traceback is written to stderr (``MASON_LSP_LOG=FILE`` logs).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path
from typing import NamedTuple

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from mason.lsp import help as H
from mason.lsp import shape
from mason.lsp.folders import Checked, Target, check, path_of, rule_files, target_of
from mason.lsp.index import PROSE, WORD, Declaration, GameIndex
from mason.lsp.places import client_range, from_client, lines_of, normal

DEBOUNCE = 0.1  # seconds of quiet after a keystroke before the game is checked
log = logging.getLogger("mason.lsp")

_KINDS = {
    "counter": T.SymbolKind.Variable,
    "zone": T.SymbolKind.Array,
    "variable": T.SymbolKind.Variable,
    "value": T.SymbolKind.Function,
    "constant": T.SymbolKind.Constant,
    "set": T.SymbolKind.Enum,
    "family": T.SymbolKind.Class,
    "phase": T.SymbolKind.Event,
    "action": T.SymbolKind.Method,
    "variant": T.SymbolKind.Module,
    "trigger": T.SymbolKind.Event,
    "table column": T.SymbolKind.Field,
    "board": T.SymbolKind.Struct,
    "automaton": T.SymbolKind.Object,
}


@dataclass
class GameState:
    """One game open in the editor: what to check, its name index, the last check's results."""

    target: Target
    index: GameIndex = field(default_factory=GameIndex)
    program: object = None
    published: set = field(default_factory=set)  # uris given diagnostics by the last check
    generation: int = 0  # bumped by every change; a check of an older generation is not published
    task: asyncio.Task | None = None
    last: Checked | None = None
    timings: list = field(default_factory=list)  # (stage, seconds) of recent checks (benchmarks)


def _safe(default=None):
    """A handler that answers ``default`` instead of raising (logged when MASON_LSP_LOG is set)."""

    def wrap(fn):
        @wraps(fn)
        def inner(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:  # noqa: BLE001 - the editor must keep working whatever a file holds
                log.exception("handler %s failed", fn.__name__)
                return default

        return inner

    return wrap


class Cursor(NamedTuple):
    """What is at the cursor in an open document (``MasonServer.at_cursor``)."""

    text: str  # the document, with universal newlines
    lines: list[str]  # its lines, as LSP counts them
    line: str  # the cursor's line
    col: int  # the cursor's column, in code points
    start: int  # where the word under the cursor starts, in code points
    word: str  # the word (letters, digits, _) under the cursor, maybe empty
    range: T.Range  # the word's range, as the client counts it


class MasonServer(LanguageServer):
    """The server: games by folder, the checking worker and the protocol handlers."""

    def __init__(self):
        super().__init__("mason-lsp", "0.1.0")
        self.games: dict[Target, GameState] = {}
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mason-check")
        self.settled = False  # the objects of the first load are frozen (``_settle``)

    # ------------------------------------------------------------------ documents and games
    def texts(self) -> dict[str, str]:
        """The open documents' texts by file path."""
        out = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = to_fs_path(uri)
            if path:
                out[str(Path(path).resolve())] = doc.source
        return out

    def state_for(self, uri: str) -> GameState | None:
        """The game a document belongs to (made on first use), or None for a file outside any game."""
        path = to_fs_path(uri)
        if not path or not path.endswith((".yaml", ".yml")):
            return None
        target = target_of(Path(path), self.texts())
        if target is None:
            return None
        state = self.games.get(target)
        if state is None:
            state = self.games[target] = GameState(target)
        return state

    def refresh_index(self, state: GameState) -> GameIndex:
        """The game's names, with the files that changed (open texts, files on disk) read again."""
        texts = self.texts()
        files = rule_files(state.target)
        for p in files:
            state.index.update(p, normal(texts.get(str(p))))
        state.index.keep_only(files)
        return state.index

    def schedule(self, uri: str, delay: float = DEBOUNCE) -> None:
        """Check the document's game after ``delay`` seconds, unless another change comes first."""
        state = self.state_for(uri)
        if state is None:
            return
        state.generation += 1
        if state.task is not None and not state.task.done():
            state.task.cancel()
        state.task = asyncio.ensure_future(self._check_later(state, state.generation, delay))

    async def _check_later(self, state: GameState, generation: int, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            loop = asyncio.get_running_loop()
            for complete in (False, True):
                texts = self.texts()
                began = time.perf_counter()
                checked = await loop.run_in_executor(self.worker, check, state.target, texts, complete)
                if generation != state.generation:
                    return
                stage = "complete" if complete else "game"
                state.timings.append((stage, checked.seconds, checked.cpu, time.perf_counter() - began))
                del state.timings[:-50]
                if checked.program is not None or complete is False:
                    state.program = checked.program or state.program
                state.last = checked
                self.publish(state, checked)
                if complete and not self.settled:
                    self.settled = True
                    await loop.run_in_executor(self.worker, _settle)
        except asyncio.CancelledError:
            return
        except Exception:  # noqa: BLE001
            log.exception("check failed")

    def publish(self, state: GameState, checked: Checked) -> None:
        """Send a check's errors, file by file; an open file without errors and a file whose errors are
        gone get an empty list."""
        texts = self.texts()
        folders = [str(f.resolve()) for f in state.target.folders]
        lines: dict[str, list[str]] = {}  # each file's lines as the client counts them
        by_uri: dict[str, list[T.Diagnostic]] = {
            from_fs_path(p) or p: [] for p in texts if any(p.startswith(f + os.sep) for f in folders)
        }  # an open file without errors is told so (its old diagnostics go)
        for e in checked.errors:
            place = e.place
            path = path_of(place.file) if place is not None and place.file else state.target.game / "game.yaml"
            uri = from_fs_path(str(path)) or str(path)
            line = max((place.line if place is not None else 0) - 1, 0)
            col = max((place.col if place is not None else 0) - 1, 0)
            key = str(Path(path).resolve())
            if key not in lines:
                lines[key] = self.lines_of(Path(key))
            end = _token_end(lines[key], line, col)
            by_uri.setdefault(uri, []).append(
                T.Diagnostic(
                    range=client_range(lines[key], line, col, end),
                    message=e.message,
                    severity=T.DiagnosticSeverity.Error,
                    code=e.code,
                    source="mason",
                )
            )
        for uri in state.published - set(by_uri):  # a closed file's errors that are gone
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        for uri, diags in by_uri.items():
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags))
        state.published = set(by_uri)

    # ------------------------------------------------------------------ what is at the cursor
    def at_cursor(self, uri: str, position: T.Position) -> Cursor:
        """What is at the cursor (``Cursor``): the text with universal newlines, columns in code points,
        the word's range as the client counts it."""
        text = normal(self.workspace.get_text_document(uri).source) or ""
        lines = lines_of(text)
        _line_no, col = from_client(lines, position)
        line = lines[position.line] if position.line < len(lines) else ""
        start = col
        while start > 0 and (line[start - 1].isalnum() or line[start - 1] == "_"):
            start -= 1
        end = col
        while end < len(line) and (line[end].isalnum() or line[end] == "_"):
            end += 1
        word = line[start:end]
        return Cursor(text, lines, line, col, start, word, client_range(lines, position.line, start, end))

    def lines_of(self, path: Path) -> list[str]:
        """A rule file's current lines: its open text, else as last indexed, else as on disk."""
        text = self.texts().get(str(path))
        if text is None:
            for state in self.games.values():
                found = state.index.files.get(path)
                if found is not None:
                    text = found.text
                    break
        return lines_of(_disk_text(path) if text is None else normal(text) or "")


def _settle() -> None:
    """After the first check: what is loaded by then (modules, syntax trees, schemas) lives as long as the
    server, so it is moved out of the garbage collector's sight (``gc.freeze``). Validation pauses the
    collector while compiling and collects after; without this, each keystroke's collection walked
    every object of the first load again (the largest shipped game: a keystroke's check 0.14 s instead of 0.2-0.7 s on a
    loaded machine, benchmarks/bench_lsp.py)."""
    gc.collect()
    gc.freeze()


def _disk_text(path: Path) -> str:
    """A file's text on disk (empty when it cannot be read)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _token_end(lines: list[str], line: int, col: int) -> int:
    """Where the name or token at (line, col) ends (a diagnostic's range), at least one column on when
    the line goes on."""
    if line >= len(lines):
        return col
    m = WORD.match(lines[line], col)
    return m.end() if m else min(col + 1, len(lines[line]))


def _locations(ls: MasonServer, spots) -> list[T.Location]:
    """The spots as LSP locations, each within its file's current text."""
    lines: dict[Path, list[str]] = {}
    out = []
    for spot in spots:
        if spot.path not in lines:
            lines[spot.path] = ls.lines_of(spot.path)
        rng = client_range(lines[spot.path], spot.line, spot.col, spot.col + spot.length)
        out.append(T.Location(uri=from_fs_path(str(spot.path)) or str(spot.path), range=rng))
    return out


def _in_comment(line: str, col: int) -> int | None:
    """Where a YAML comment starts on ``line`` before ``col`` (a '#' outside quotes after a space)."""
    quote = None
    for i, ch in enumerate(line[:col]):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return None


_LOCALS = re.compile(r"\b(?:let|for)\s+([a-z_][a-z0-9_]*)|\bchoose\b[^\n]*?\b([a-z_][a-z0-9_]*)\s+from\b")
_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")
_KEY_LINE = re.compile(r"^(\s*)(-\s+)?([A-Za-z_][A-Za-z0-9_]*|\d+)\s*:(?:\s|$)")


def yaml_path_at(lines: list[str], line_no: int, col: int) -> tuple[tuple, bool]:
    """The YAML path of the place (from indentation, so it works while the file does not read) and
    whether the cursor is where a key is written."""
    line = lines[line_no].rstrip("\r\n") if line_no < len(lines) else ""
    before = line[:col]
    m = _KEY_LINE.match(line)
    at_key = bool(re.fullmatch(r"\s*(-\s+)?[A-Za-z0-9_]*", before))
    path: list = []
    if m and not at_key and len(m.group(0).rstrip()) <= col:
        path.append(m.group(3))
    if m:
        cur = len(m.group(1)) + len(m.group(2) or "")
        dash = m.group(2) is not None
    else:
        stripped = before.lstrip(" ")
        cur = len(before) - len(stripped)
        dash = stripped.startswith("- ")
        if dash:
            cur += 2
    if dash:
        path.insert(0, 0)
        cur -= 2
    for up in range(line_no - 1, -1, -1):
        if cur <= 0:
            break
        um = _KEY_LINE.match(lines[up].rstrip("\r\n"))
        if not um:
            continue
        d = len(um.group(1))
        c = d + len(um.group(2) or "")
        if um.group(2) is not None and d < cur:
            if c < cur:
                path.insert(0, um.group(3))
            path.insert(0, 0)
            cur = d
        elif um.group(2) is None and c < cur:
            if not path or path == [m.group(3) if m else None]:
                at_key = at_key and not _BLOCK.search(lines[up])  # a line of a block text (``do: |``)
            path.insert(0, um.group(3))
            cur = c
    return tuple(int(p) if isinstance(p, str) and p.isdigit() else p for p in path), at_key


def _string_at(state: GameState | None, path: Path, text: str, line: int, col: int):
    """(yaml path, value) of the string that holds (line, col), or whose key is written there, in the
    file's text (None when that text does not read)."""
    if state is None:
        return None
    found = state.index.files.get(path)
    if found is None or found.positions is None or found.positions.text != text:
        return None
    pos = found.positions
    lines = text.split("\n")
    if line >= len(lines):
        return None
    offset = sum(len(x) + 1 for x in lines[:line]) + col
    for at, (start, end, _style, value) in pos.scalars.items():
        if start <= offset <= end:
            return at, value, False
    for at, place in pos.key_nodes.items():
        key = str(at[-1]) if at else ""
        if place.line == line + 1 and place.col - 1 <= col <= place.col - 1 + len(key) and at in pos.scalars:
            return at, pos.scalars[at][3], True
    return None


class _Document(TextDocument):
    """An open document whose lines end where LSP ends them: at ``\n``, ``\r\n`` or ``\r``. pygls
    splits them as ``str.splitlines`` does, also at ``\x0b``, ``\x0c``, ``\x1c``-``\x1e``, ``\x85``,
    ``\u2028`` and ``\u2029``, so an incremental change on a line after one of those was applied a line
    off from where the editor made it, and the server's text went on differing from the editor's."""

    @property
    def lines(self):
        return tuple(_KEEP_BREAKS.findall(self.source))


_KEEP_BREAKS = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _with_lsp_lines(workspace) -> None:
    """Make the workspace's documents ``_Document``s (pygls has no option for this)."""
    make = workspace._create_text_document

    def create(*args, **kwargs):
        doc = make(*args, **kwargs)
        doc.__class__ = _Document
        return doc

    workspace._create_text_document = create


def make_server() -> MasonServer:
    """A server with every handler registered."""
    ls = MasonServer()

    @ls.feature(T.INITIALIZE)
    @_safe()
    def initialize(ls: MasonServer, params: T.InitializeParams):
        _with_lsp_lines(ls.workspace)

    @ls.feature(T.TEXT_DOCUMENT_DID_OPEN)
    @_safe()
    def did_open(ls: MasonServer, params: T.DidOpenTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)

    @ls.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    @_safe()
    def did_change(ls: MasonServer, params: T.DidChangeTextDocumentParams):
        ls.schedule(params.text_document.uri)

    @ls.feature(T.TEXT_DOCUMENT_DID_SAVE)
    @_safe()
    def did_save(ls: MasonServer, params: T.DidSaveTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)

    @ls.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    @_safe()
    def did_close(ls: MasonServer, params: T.DidCloseTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)  # the file on disk stands for it again

    @ls.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", "(", " ", '"']))
    @_safe(None)
    def completion(ls: MasonServer, params: T.CompletionParams):
        return _completion(ls, params)

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    @_safe(None)
    def hover(ls: MasonServer, params: T.HoverParams):
        return _hover(ls, params)

    @ls.feature(T.TEXT_DOCUMENT_DEFINITION)
    @_safe(None)
    def definition(ls: MasonServer, params: T.DefinitionParams):
        state = ls.state_for(params.text_document.uri)
        if state is None:
            return None
        word = ls.at_cursor(params.text_document.uri, params.position).word
        found = ls.refresh_index(state).declarations(word) if word else []
        return _locations(ls, [d.spot for d in found]) or None

    @ls.feature(T.TEXT_DOCUMENT_REFERENCES)
    @_safe(None)
    def references(ls: MasonServer, params: T.ReferenceParams):
        state = ls.state_for(params.text_document.uri)
        if state is None:
            return None
        word = ls.at_cursor(params.text_document.uri, params.position).word
        index = ls.refresh_index(state)
        if not word or not index.declarations(word):
            return None
        declared = {d.spot for d in index.declarations(word)}
        include = params.context.include_declaration if params.context else True
        spots = [s for s in dict.fromkeys(index.uses(word) + list(declared)) if include or s not in declared]
        return _locations(ls, spots)

    @ls.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_safe(None)
    def symbols(ls: MasonServer, params: T.DocumentSymbolParams):
        state = ls.state_for(params.text_document.uri)
        if state is None:
            return None
        path = Path(str(to_fs_path(params.text_document.uri))).resolve()
        found = ls.refresh_index(state).files.get(path)
        return _symbols(found.declarations if found else [], ls.lines_of(path))

    @ls.feature("mason/timings")
    @_safe([])
    def timings(ls: MasonServer, *_):
        """The recent checks of every open game: [game folder, stage, seconds checking, CPU seconds of
        the check, seconds from sending it to the worker to its result] (benchmarks/bench_lsp.py)."""
        return [[str(st.target.game), *t] for st in ls.games.values() for t in st.timings]

    @ls.feature(T.SHUTDOWN)
    @_safe()
    def shutdown(ls: MasonServer, *_):
        ls.worker.shutdown(wait=False, cancel_futures=True)

    return ls


def _symbols(decls: list[Declaration], lines: list[str]) -> list[T.DocumentSymbol]:
    """The outline: declarations of the file, cards nested under their family (``lines``: the file's
    text now, which the places are kept within)."""

    def sym(d: Declaration, children=None) -> T.DocumentSymbol:
        r = client_range(lines, d.spot.line, d.spot.col, d.spot.col + d.spot.length)
        kind = T.SymbolKind.Object if d.family else _KINDS.get(d.kind, T.SymbolKind.Key)
        return T.DocumentSymbol(name=d.name, kind=kind, range=r, selection_range=r, detail=d.kind, children=children)

    cards = [d for d in decls if d.family]
    out = [sym(d) for d in decls if not d.family and not d.kind.startswith("member of")]
    if cards:
        fam = cards[0].family or "components"
        first, last = cards[0].spot, cards[-1].spot
        r = T.Range(
            client_range(lines, first.line, 0, 0).start,
            client_range(lines, last.line, last.col, last.col + last.length).end,
        )
        out.append(
            T.DocumentSymbol(
                name=fam,
                kind=T.SymbolKind.Class,
                range=r,
                selection_range=r,
                detail="family",
                children=[sym(c) for c in cards],
            )
        )
    return out


def _context(ls: MasonServer, params) -> dict:
    """What the cursor is on: the word, the line, the YAML path and whether it is DSL, prose or a key."""
    uri = params.text_document.uri
    text, lines, line, col, start, word, rng = ls.at_cursor(uri, params.position)
    state = ls.state_for(uri)
    path = Path(to_fs_path(uri) or uri).resolve()
    if state is not None:
        ls.refresh_index(state)
    comment = _in_comment(line, len(line))
    scalar = _string_at(state, path, text, params.position.line, col)
    ypath, at_key = yaml_path_at(lines, params.position.line, col)
    if scalar is not None:
        ypath = scalar[0]
        at_key = False
    kind = shape.dsl_kind(shape.schema_name(path.name), ypath) if ypath else None
    in_comment = comment is not None and col > comment
    prose = bool(ypath) and isinstance(ypath[-1], str) and ypath[-1] in PROSE
    return {
        "uri": uri, "lines": lines, "line": line, "col": col, "start": start, "word": word, "range": rng, "state": state,
        "path": path, "scalar": scalar, "ypath": ypath, "at_key": at_key, "dsl": kind,
        "comment": in_comment, "prose": prose,
    }  # fmt: skip


def _hover(ls: MasonServer, params: T.HoverParams):
    c = _context(ls, params)
    state, word, line = c["state"], c["word"], c["line"]
    parts: list[str] = []
    for m in H.RULE_ID.finditer(line):  # a rule id, in a comment or a ``rule:``
        if m.start() <= c["col"] <= m.end() and (c["comment"] or c["ypath"][-1:] == ("rule",)):
            text = H.rule_text(m.group(), c["path"].parent)
            rng = client_range(c["lines"], params.position.line, m.start(), m.end())
            return _markdown(text or f"**{m.group()}**: no reference digest found", rng)
    if c["comment"]:
        return None
    if word and state is not None:
        for d in state.index.declarations(word)[:3]:
            parts.append(H.declaration_hover(d, state.target.game.parent))
    on_key = c["scalar"] is not None and c["scalar"][2]
    if word and not parts and not on_key and (c["dsl"] or c["scalar"] is not None):
        doc = H.builtin_hover(word) or (H.statement_hover(word) if c["dsl"] == "effect" else None)
        if doc:
            parts.append(doc)
    if c["dsl"] and c["scalar"] is not None and isinstance(c["scalar"][1], str):
        key = c["ypath"][-1] if c["ypath"] else ""
        said = H.effect_words(c["scalar"][1], str(key), state.program if state else None)
        if said:
            label = "In words" if c["dsl"] == "effect" else "Reads as"
            parts.append(f"**{label}** (as `mason rules` says it):\n\n" + "\n".join(f"    {s}" for s in said))
    if not parts:
        return None
    return _markdown("\n\n---\n\n".join(parts), c["range"])


def _markdown(text: str, rng: T.Range) -> T.Hover:
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text), range=rng)


def _completion(ls: MasonServer, params: T.CompletionParams):
    c = _context(ls, params)
    if c["state"] is None or c["comment"] or c["prose"]:
        return None  # a file outside any game, a comment, prose
    items: list[T.CompletionItem] = []
    if c["at_key"]:
        keys = shape.keys_at(shape.schema_name(c["path"].name), c["ypath"])
        for key, doc in keys.items():
            items.append(
                T.CompletionItem(label=key, kind=T.CompletionItemKind.Property, detail=doc[:80], insert_text=key + ": ")
            )
        return T.CompletionList(is_incomplete=False, items=items)
    state: GameState | None = c["state"]
    before = c["line"][: c["start"]]
    if before.endswith(".") and state is not None:
        return T.CompletionList(is_incomplete=False, items=_attributes(state))
    if c["scalar"] is not None and isinstance(c["scalar"][1], str):  # the effect's own names: let, for, choose
        for m in _LOCALS.finditer(c["scalar"][1]):
            local = m.group(1) or m.group(2)
            items.append(T.CompletionItem(label=local, kind=T.CompletionItemKind.Variable, detail="named in this text"))
    if state is not None:
        for name, d in state.index.names().items():
            detail = d.kind + (", an option: --option NAME=VALUE" if d.kind == "constant" else "")
            items.append(T.CompletionItem(label=name, kind=_item_kind(d), detail=detail))
    if c["dsl"] or c["scalar"] is None:
        from mason.model.names import CONTEXT_NAMES

        for name, b in H.builtins().items():
            items.append(
                T.CompletionItem(
                    label=name,
                    kind=T.CompletionItemKind.Function,
                    detail=b["signature"],
                    documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=H.builtin_hover(name) or ""),
                )
            )
        for name in CONTEXT_NAMES:
            items.append(T.CompletionItem(label=name, kind=T.CompletionItemKind.Variable, detail="context name"))
        if c["dsl"] == "effect":
            for word, doc in H.statements().items():
                items.append(
                    T.CompletionItem(
                        label=word,
                        kind=T.CompletionItemKind.Keyword,
                        detail="statement",
                        documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=doc) if doc else None,
                    )
                )
        for word in H.KEYWORDS:
            items.append(T.CompletionItem(label=word, kind=T.CompletionItemKind.Keyword))
    seen: set = set()
    unique = []
    for item in items:  # the first item of each label
        if item.label not in seen:
            seen.add(item.label)
            unique.append(item)
    return T.CompletionList(is_incomplete=False, items=unique)


def _attributes(state: GameState) -> list[T.CompletionItem]:
    """A card's fields after ``c.``: every family's properties, card state and each card's own fields."""
    out: dict[str, str] = {n: "every card" for n in H.CARD_FIELDS}
    for d in state.index.declarations():
        if d.kind == "family" and isinstance(d.data, dict):
            for prop in d.data.get("properties") or {}:
                out.setdefault(str(prop), f"property of family {d.name}")
        elif d.kind == "card state field":
            out.setdefault(d.name, "card state")
    return [T.CompletionItem(label=n, kind=T.CompletionItemKind.Field, detail=w) for n, w in out.items()]


def _item_kind(d: Declaration) -> T.CompletionItemKind:
    if d.family:
        return T.CompletionItemKind.Constant
    return {
        "counter": T.CompletionItemKind.Variable,
        "zone": T.CompletionItemKind.Field,
        "variable": T.CompletionItemKind.Variable,
        "value": T.CompletionItemKind.Function,
        "constant": T.CompletionItemKind.Constant,
        "family": T.CompletionItemKind.Class,
        "set": T.CompletionItemKind.Enum,
    }.get(d.kind, T.CompletionItemKind.EnumMember if d.kind.startswith("member") else T.CompletionItemKind.Reference)


def serve() -> None:
    """Run the server on stdin and stdout until the editor closes it."""
    logging.getLogger().handlers[:] = []
    target = os.environ.get("MASON_LSP_LOG")
    if target:
        logging.basicConfig(filename=target, level=logging.INFO)
    else:
        logging.getLogger().addHandler(logging.NullHandler())
        logging.getLogger().setLevel(logging.CRITICAL + 1)
    logging.lastResort = None  # nothing on stderr, even from a library's warning
    make_server().start_io()
