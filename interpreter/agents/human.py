"""A person at a terminal: sees their seat's view and what changed, answers by number or name.

Commands at the prompt: ``help``, ``view``, ``log``, ``save FILE``, ``quit``. ``quit`` and the
end of input save the game first (to the session's save file) and stop the session.
"""
from __future__ import annotations

from ..errors import IllegalAction, MasonError
from ..machine import check_answer
from ..render import render_decision, render_entry, render_view
from .base import Agent, parse_answer

HELP = """Answer with an option's number or the start of its name.
Commands: view (the table as you see it), log (everything you have seen), save FILE, quit (saves first), help."""


class QuitRequested(Exception):
    """The person asked to stop (or input ended); the session saves and exits."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class HumanAgent(Agent):
    name = "human"

    def __init__(self, read_line, write, save_to=None):
        """``read_line()`` returns a line or None at end of input; ``write(text)`` prints a line."""
        self.read_line, self.write, self.save_to = read_line, write, save_to
        self.seen: dict[int, int] = {}

    def decide(self, game, seat):
        start = self.seen.get(seat, 0)
        news = [t for t in (render_entry(e) for e in game.visible_log(seat, start)) if t]
        self.seen[seat] = len(game.log)
        if news:
            self.write("\n".join(news[-40:]))
        self.write(render_view(game.program, game.view(seat)))
        pending = game.pending
        while True:
            self.write(f"[P{seat + 1}] " + render_decision(pending))
            line = self.read_line()
            if line is None:
                self._save(game, "end of input")
                raise QuitRequested("end of input")
            text = line.strip()
            cmd, _, arg = text.partition(" ")
            if cmd == "help":
                self.write(HELP)
                continue
            if cmd == "view":
                self.write(render_view(game.program, game.view(seat)))
                continue
            if cmd == "log":
                self.write("\n".join(t for t in (render_entry(e) for e in game.visible_log(seat)) if t))
                continue
            if cmd == "save":
                path = arg.strip() or self.save_to
                if not path:
                    self.write("save where? type: save FILE")
                    continue
                try:
                    game.save(path)
                    self.write(f"saved to {path}")
                except OSError as exc:
                    self.write(f"cannot save to {path}: {exc.strerror}")
                continue
            if cmd == "quit":
                self._save(game, "quit")
                raise QuitRequested("quit")
            try:
                answer = check_answer(pending, parse_answer(text, pending))
            except (ValueError, IllegalAction) as exc:
                msg = exc.message if isinstance(exc, MasonError) else str(exc)
                self.write(f"not accepted: {msg}")
                continue
            return answer

    def _save(self, game, why):
        if self.save_to:
            try:
                game.save(self.save_to)
                self.write(f"{why}: game saved to {self.save_to}; resume with --resume {self.save_to}")
            except OSError as exc:
                self.write(f"{why}: could not save to {self.save_to}: {exc.strerror}")
