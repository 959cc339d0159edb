"""A minimal Marionette client: drives a headless Firefox for the browser tests of ``mason serve``.

Firefox speaks Marionette (its own remote protocol, built in: ``--marionette``) on a TCP port; Selenium
reaches it only through geckodriver, which Debian does not package, so the tests speak the protocol
directly: each message is ``LENGTH:JSON``, a command ``[0, id, name, params]``, its reply
``[1, id, error, result]``. Only the WebDriver commands the tests use are wrapped.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")


class MarionetteError(Exception):
    """A command Firefox refused: its error and message."""


class Firefox:
    """One headless Firefox with its own profile and Marionette port, closed by :meth:`quit`."""

    def __init__(self, port: int, width: int = 1280, height: int = 800, timeout: float = 60.0):
        self.profile = Path(tempfile.mkdtemp(prefix="mason-firefox-"))
        (self.profile / "user.js").write_text(f'user_pref("marionette.port", {port});\n')
        self.proc = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", str(self.profile)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.quit()
                    raise MarionetteError("firefox did not open its Marionette port") from None
                time.sleep(0.1)
        self.reader = self.sock.makefile("rb")
        self.ids = 0
        self._read()  # the server's greeting
        self.command("WebDriver:NewSession", {"capabilities": {}})
        self.command("WebDriver:SetWindowRect", {"width": width, "height": height})

    def _read(self):
        size = b""
        while (c := self.reader.read(1)) != b":":
            if not c:
                raise MarionetteError("firefox closed the connection")
            size += c
        return json.loads(self.reader.read(int(size)))

    def command(self, name: str, params: dict):
        """Send one command and return its result; a refusal raises :class:`MarionetteError`."""
        self.ids += 1
        body = json.dumps([0, self.ids, name, params]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        _, _, error, result = self._read()
        if error:
            raise MarionetteError(f"{name}: {error.get('error')}: {error.get('message')}")
        return result

    def get(self, url: str) -> None:
        """Open ``url`` and wait for its load event."""
        self.command("WebDriver:Navigate", {"url": url})

    def run(self, script: str, *args):
        """Run ``script`` (a function body) in the page; its return value."""
        return self.command("WebDriver:ExecuteScript", {"script": script, "args": list(args)})["value"]

    def click(self, css: str) -> bool:
        """Click the first element ``css`` selects, as a person would (scrolled into view, a real
        pointer event); False when there is none. An element the page re-rendered between being found
        and being clicked (a live update arrived: "stale element") is found again, as a person would
        click the button now shown; a few times at most."""
        for attempt in range(5):
            try:
                found = self.command("WebDriver:FindElement", {"using": "css selector", "value": css})["value"]
            except MarionetteError:
                return False
            try:
                self.command("WebDriver:ElementClick", {"id": next(iter(found.values()))})
            except MarionetteError as exc:
                if "stale element" not in str(exc) or attempt == 4:
                    raise
                continue
            return True
        return False

    def resize(self, width: int, height: int) -> None:
        """Set the window's size."""
        self.command("WebDriver:SetWindowRect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        """Write the visible page as a PNG."""
        import base64

        path.write_bytes(base64.b64decode(self.command("WebDriver:TakeScreenshot", {"full": False})["value"]))

    def quit(self) -> None:
        """Close Firefox and remove its profile."""
        try:
            self.sock.close()
        except AttributeError:
            pass
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
