"""A person at a terminal: sees their seat's view and what changed, answers by number or name.

Commands at the prompt: ``help``, ``view``, ``log``, ``card NAME``, ``save [FILE]``, ``quit``.
``quit``, the end of input and Ctrl-C (KeyboardInterrupt while reading) save the game first (to
the session's save file) and stop the session; a save that fails at the end of input or at Ctrl-C
stops it with the error, a failed ``quit`` keeps the game going. One agent may serve several
seats (hot-seat); it then announces whose decision it is.
"""
from __future__ import annotations

from ..errors import IllegalAction, MasonError, PlayError
from ..machine import check_answer
from ..render import card_text, find_type, narration, render_decision, render_view, seat_name
from .base import Agent, parse_answer

HELP = """Answer with an option's number or its name (or the start of it); for a choice of several,
numbers or names separated by spaces or commas, or an empty line for none.
Commands: view (the whole table as you see it), log (everything you have seen), card NAME (what a
card does), save [FILE], quit (saves first), help."""

NEWS_LINES = 40


class QuitRequested(Exception):
    """The person asked to stop (``quit``, end of input, or Ctrl-C: ``interrupted``), the game saved first.

    ``saved_to`` is the file written; ``error`` the MasonError when the save could not be written
    (the session then exits non-zero).
    """

    def __init__(self, reason: str, saved_to=None, error: MasonError | None = None):
        super().__init__(reason)
        self.reason, self.saved_to, self.error = reason, saved_to, error


class HumanAgent(Agent):
    name = "human"

    def __init__(self, read_line, write, save_to=None):
        """``read_line()`` returns a line or None at end of input; ``write(text)`` prints a line.

        ``save_to`` is where ``quit`` and the end of input save: a file name or a ``SaveTarget``.
        """
        from ..saves import SaveTarget

        self.read_line, self.write = read_line, write
        self.save_to = save_to if save_to is None or isinstance(save_to, SaveTarget) else SaveTarget(save_to)
        self.seen: dict[int, int] = {}      # seat -> log length at its last decision
        self.where: dict[int, tuple] = {}   # seat -> (round, phase, turn) at its last full view
        self.last_seat = None

    def resume_from(self, game) -> None:
        """After loading a save: each seat's news start after its own last decision in the log."""
        for i, e in enumerate(game.log):
            if e.get("type") == "decision":
                self.seen[e["seat"]] = i + 1

    def catch_up(self, game, seats) -> None:
        """Print what ``seats`` have not seen yet (at the end of a game); several seats read the public log."""
        seats = sorted(seats)
        if not seats:
            return
        who = seats[0] if len(seats) == 1 else None
        start = min(self.seen.get(s, 0) for s in seats)
        news = narration(game.log, who, start, scores=False)
        if news:
            self.write("-- since your last decision --")
            self.write("\n".join(news[-NEWS_LINES:]))
        for s in seats:
            self.seen[s] = len(game.log)

    def decide(self, game, seat):
        pending = game.pending
        if self.last_seat is not None and self.last_seat != seat:
            self.write(f"\n===== {seat_name(seat)} to decide (hand over the terminal) =====")
        self.last_seat = seat
        news = narration(game.log, seat, self.seen.get(seat, 0))
        self.seen[seat] = len(game.log)
        if news:
            skipped = len(news) - NEWS_LINES
            self.write("-- since your last decision --" if seat in self.where else "-- so far --")
            if skipped > 0:
                self.write(f"({skipped} earlier lines; type 'log' to read them)")
            self.write("\n".join(news[-NEWS_LINES:]))
        view = game.view(seat)
        turn = view["turn"]
        where = (view["round"], view["phase"], turn["seat"] if turn else None, turn["card"] if turn else None)
        # the whole table when the situation moved on; within the same turn, your own block suffices
        self.write(render_view(game.program, view, compact=self.where.get(seat) == where))
        self.where[seat] = where
        while True:
            self.write(f"[{seat_name(seat)}] " + render_decision(pending, game.program, game.state, view))
            try:
                line = self.read_line()
            except KeyboardInterrupt:
                self.write("")
                self._stop(game, "interrupted")
            if line is None:
                self._stop(game, "end of input")
            text = line.strip()
            cmd, _, arg = text.partition(" ")
            cmd = cmd.lower()
            if cmd in ("help", "?"):
                self.write(HELP)
            elif cmd == "view":
                self.write(render_view(game.program, game.view(seat)))
            elif cmd == "log":
                self.write("\n".join(narration(game.log, seat)))
            elif cmd in ("card", "info") and arg.strip():
                self._describe(game.program, arg)
            elif cmd == "save":
                self._save_to(game, arg.strip())
            elif cmd == "quit":
                try:
                    self._stop(game, "quit")
                except QuitRequested as stop:
                    if stop.error is None:
                        raise
                    self.write("the game goes on: type 'save FILE' to save it elsewhere, or end the input to stop")
            else:
                try:
                    return check_answer(pending, parse_answer(text, pending))
                except (ValueError, IllegalAction) as exc:
                    msg = exc.message if isinstance(exc, MasonError) else str(exc)
                    self.write(f"not accepted: {msg} (type 'help' for help)")

    def _describe(self, program, name):
        found = find_type(program, name)
        if not found:
            self.write(f"no card named '{name.strip()}'")
        for tid in found[:10]:
            self.write(card_text(program, tid))

    def _save_to(self, game, path):
        """``save FILE`` (written over if it exists: the person named it), or ``save``: the session's file."""
        if not path and self.save_to is None:
            self.write("save where? type: save FILE")
            return
        try:
            if path:
                game.save(path)
            else:
                path = self.save_to.write(game)
            self.write(f"saved to {path}; resume with --resume {path}")
        except MasonError as exc:
            self.write(f"cannot save: {exc.message}")

    def _stop(self, game, why):
        """Save to the session's save file and stop (QuitRequested, with the error if the save failed)."""
        if self.save_to is None:
            self.write(f"{why}: not saved (no save file)")
            raise QuitRequested(why)
        try:
            path = self.save_to.write(game)
        except MasonError as exc:
            self.write(f"{why}: could not save the game: {exc.message}")
            raise QuitRequested(why, error=PlayError(f"{why}: the game could not be saved: {exc.message}",
                                                     code="play/save")) from None
        note = f" ({self.save_to.note})" if self.save_to.note else ""
        self.write(f"{why}: game saved to {path}{note}; resume with --resume {path}")
        raise QuitRequested(why, saved_to=path)
