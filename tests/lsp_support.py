"""A language-server client for tests and benchmarks: starts ``mason lsp`` as a subprocess and drives it
over stdio with pygls's LanguageClient (the real protocol: Content-Length framed JSON-RPC).

``with LspSession(cwd) as s:`` runs the client on its own event loop thread; ``s.open(path)``,
``s.change(path, text)``, ``s.diagnostics(path, until=...)``, ``s.request(method, params)``. Closing
shuts the server down properly and keeps what it wrote on stderr in ``s.stderr``.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import threading
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

TIMEOUT = float(
    __import__("os").environ.get("LSP_TEST_TIMEOUT", 120)
)  # seconds a test waits for an answer on a loaded machine (never asserted as a timing)


def server_command() -> list[str]:
    """``mason lsp``: the installed console script, else the entry point under this Python."""
    mason = shutil.which("mason", path=str(Path(sys.executable).parent))
    if mason:
        return [mason, "lsp"]
    return [sys.executable, "-c", "from mason.cli.entry import run; run()", "lsp"]


def uri(path) -> str:
    """The file URI of a path."""
    return from_fs_path(str(Path(path).resolve()))


class LspSession:
    """One server process and a client talking to it."""

    def __init__(self, cwd, env: dict | None = None):
        self.cwd, self.env = str(cwd), env
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.client = LanguageClient("mason-tests", "1")
        self.published: dict[str, list] = {}
        self.counts: dict[str, int] = {}
        self.stamps: dict[str, float] = {}
        self.versions: dict[str, int] = {}
        self.stderr = b""
        self.changed = threading.Condition()

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(ls, params: T.PublishDiagnosticsParams):  # `ls`: pygls passes the client
            with self.changed:
                self.published[params.uri] = list(params.diagnostics)
                self.counts[params.uri] = self.counts.get(params.uri, 0) + 1
                self.stamps[params.uri] = time.perf_counter()
                self.changed.notify_all()

    def run(self, coro, timeout: float = TIMEOUT):
        """Run a coroutine on the client's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn, *args):
        """Call a plain client method (a notification) on the client's loop."""
        self.loop.call_soon_threadsafe(fn, *args)

    def __enter__(self) -> LspSession:
        self.thread.start()
        cmd = server_command()
        kwargs = {"cwd": self.cwd}
        if self.env is not None:
            kwargs["env"] = self.env
        self.run(self.client.start_io(cmd[0], *cmd[1:], **kwargs))
        params = T.InitializeParams(capabilities=T.ClientCapabilities(), root_uri=uri(self.cwd), process_id=None)
        self.capabilities = self.run(self.client.initialize_async(params)).capabilities
        self.call(self.client.initialized, T.InitializedParams())
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.run(self.client.shutdown_async(None), 30)
            self.call(self.client.exit, None)
            server = self.client._server
            if server is not None:
                self.run(asyncio.wait_for(server.wait(), 30), 40)
                if server.stderr is not None:
                    self.stderr = self.run(server.stderr.read(), 30)
            self.run(self.client.stop(), 30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    # ------------------------------------------------------------------ documents
    def open(self, path, text: str | None = None) -> str:
        """Open a file (its text from disk unless given); returns its URI."""
        path = Path(path)
        text = path.read_text(encoding="utf-8") if text is None else text
        u = uri(path)
        self.versions[u] = 1
        item = T.TextDocumentItem(uri=u, language_id="yaml", version=1, text=text)
        self.call(self.client.text_document_did_open, T.DidOpenTextDocumentParams(text_document=item))
        return u

    def change(self, path, text: str) -> float:
        """Replace an open file's whole text (as an editor's keystroke does, in full); returns when it was sent."""
        u = uri(path)
        self.versions[u] += 1
        params = T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=u, version=self.versions[u]),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)],
        )
        sent = time.perf_counter()
        self.call(self.client.text_document_did_change, params)
        return sent

    def edit(self, path, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """Replace the text between two 0-based (line, UTF-16 character) places of an open file (an
        incremental change, as most editors send)."""
        u = uri(path)
        self.versions[u] += 1
        rng = T.Range(T.Position(*start), T.Position(*end))
        params = T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=u, version=self.versions[u]),
            content_changes=[T.TextDocumentContentChangePartial(range=rng, text=text)],
        )
        self.call(self.client.text_document_did_change, params)

    def close(self, path) -> None:
        """Close a document (the file on disk stands for it again)."""
        self.call(
            self.client.text_document_did_close,
            T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri(path))),
        )

    def diagnostics(self, path, until=lambda diags: True, after: int = 0, timeout: float = TIMEOUT) -> list:
        """The diagnostics published for ``path`` once ``until(diags)`` holds for a publication later than
        the ``after``-th; raises AssertionError when none comes."""
        u = uri(path)
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                if self.counts.get(u, 0) > after and until(self.published[u]):
                    return self.published[u]
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no diagnostics as expected for {path}: last {self.published.get(u)}")
                self.changed.wait(left)

    def count(self, path) -> int:
        """How many times diagnostics were published for ``path``."""
        with self.changed:
            return self.counts.get(uri(path), 0)

    # ------------------------------------------------------------------ requests
    def request(self, method: str, params=None):
        """Any request, by its method name; the answer."""

        async def ask():
            return await self.client.protocol.send_request_async(method, params)

        return self.run(ask())

    def hover(self, path, line: int, col: int):
        """The hover at a 0-based position."""
        params = T.HoverParams(text_document=T.TextDocumentIdentifier(uri=uri(path)), position=T.Position(line, col))
        return self.run(self.client.text_document_hover_async(params))

    def completion(self, path, line: int, col: int):
        """The completion items at a 0-based position."""
        params = T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri=uri(path)), position=T.Position(line, col)
        )
        got = self.run(self.client.text_document_completion_async(params))
        return got.items if isinstance(got, T.CompletionList) else (got or [])

    def definition(self, path, line: int, col: int):
        """The definition locations at a 0-based position."""
        params = T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri(path)), position=T.Position(line, col)
        )
        got = self.run(self.client.text_document_definition_async(params))
        return got if isinstance(got, list) else [got] if got else []

    def references(self, path, line: int, col: int):
        """The reference locations at a 0-based position (declarations included)."""
        params = T.ReferenceParams(
            text_document=T.TextDocumentIdentifier(uri=uri(path)),
            position=T.Position(line, col),
            context=T.ReferenceContext(include_declaration=True),
        )
        return self.run(self.client.text_document_references_async(params)) or []

    def symbols(self, path):
        """The document symbols (outline) of a file."""
        params = T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=uri(path)))
        return self.run(self.client.text_document_document_symbol_async(params)) or []


def position_of(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """The 0-based (line, column) of the first ``needle`` in ``text``, plus ``offset`` characters."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    return line, i - (text.rfind("\n", 0, i) + 1)
