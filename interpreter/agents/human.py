"""A person at a terminal: sees their seat's view and what changed, answers by number or name.

Commands at the prompt: ``help``, ``view``, ``log``, ``why``, ``card NAME``, ``undo``, ``save [FILE]``, ``quit``.
``quit``, the end of input and Ctrl-C (KeyboardInterrupt while reading; one with a ``reason``, such as
``terminated`` or ``hung up``, names that reason) save the game first (to the session's save file) and
stop the session; a save that fails at the end of input or at Ctrl-C
stops it with the error, a failed ``quit`` keeps the game going. One agent may serve several
seats (hot seat, ``--bot 2=human``); it then clears the screen between two seats' decisions and waits
for Enter after a hand-off line ("Pass to P2, press Enter"), so no hand is left on screen.

``undo`` goes back to the deciding seat's previous decision (each seat its own, in hot-seat play)
when the engine allows it (``Game.undo_refusal``: no other seat decided in between, nothing hidden
was revealed); otherwise it is refused with the reason. Undo reaches back only to decisions taken
in this session (not before a resume).
"""

from __future__ import annotations

from mason.agents.base import Agent, parse_answer
from mason.errors import IllegalAction, MasonError, PlayError
from mason.presentation.board_text import use_colour
from mason.presentation.explain import cause_lines, changes, describe, not_offered
from mason.presentation.render import (
    card_data,
    card_text,
    find_type,
    narration,
    option_texts,
    render_decision,
    render_view,
    seat_name,
)
from mason.presentation.table_text import render_area, render_table
from mason.runtime.engine import check_answer
from mason.session.saves import SaveTarget

HELP = """Answer with an option's number (lists count from 1), its letter (your turn's actions: each keeps
its letter all turn) or its name (or the start of it); for a choice of several, numbers or names
separated by spaces or commas, or an empty line for none.
Typing an option exactly as it is displayed (with or without its number) works too.
Commands: view (the whole table as you see it), view AREA (one board or zone in full: its name as
the table writes it), log (everything you have seen), why (what caused the changes since your last
decision, and why an action is not offered), card NAME (a card's or tile's whole data),
undo (back to your previous decision, when nothing hidden was revealed and no one else decided
since), save [FILE], quit (saves first), help."""

NEWS_LINES = 40
TABLE_LINES = 50  # a terminal's height: the table and the pending question fit in it


UNDONE = object()  # what a prompt returns when ``undo`` put the game back: ask again


def _as_displayed(text: str, texts: list[str], pending: dict):
    """The option typed exactly as displayed (``Market (trade, cost 2)`` or ``3. Market ...``), else None."""
    if pending["subset"] or not text:
        return None
    key = " ".join(text.split()).lower()
    number, dot, rest = key.partition(". ")
    if dot and number.isdigit() and 1 <= int(number) <= len(texts) and texts[int(number) - 1].lower() == rest:
        return int(number) - 1
    for i, shown in enumerate(texts):
        if " ".join(shown.split()).lower() == key:
            return i
    return None


def _why(game, seat) -> str:
    """``why``: the reasons of the automated seats' and bots' decisions and the causes of the changes since
    ``seat``'s previous decision, as it may know them, and the conditions that kept actions out of the
    pending decision."""

    log = game.log
    start = next(
        (i + 1 for i in range(len(log) - 1, -1, -1) if log[i].get("type") == "decision" and log[i].get("seat") == seat),
        0,
    )
    from mason.presentation.explain import readable

    # the reasons of the automated seats' and bots' decisions since (runtime/reasons.py), then the changes
    lines = [e["text"] for e in log[start:] if e.get("type") == "reason" and readable(e, seat)][-NEWS_LINES:]
    for i in changes(log, seat, start)[-NEWS_LINES:]:
        causes = cause_lines(log, i, seat)
        lines.append(
            describe(log[i])
            + "".join(f"\n    because {c}" if k == 0 else f"\n    from {c}" for k, c in enumerate(causes[:3]))
        )
    lines += not_offered(game)
    return "\n".join(lines) or "nothing changed since your last decision, and every action is offered"


class QuitRequested(Exception):
    """The person asked to stop (``quit``, end of input, or Ctrl-C: ``interrupted``, or another signal's
    reason), the game saved first.

    ``saved_to`` is the file written; ``error`` the MasonError when the save could not be written
    (the session then exits non-zero).
    """

    def __init__(self, reason: str, saved_to=None, error: MasonError | None = None):
        super().__init__(reason)
        self.reason, self.saved_to, self.error = reason, saved_to, error


class HumanAgent(Agent):
    """A person at the terminal: shows the table and the question, reads an answer or a command."""

    name = "human"
    handoff = "Pass to {seat}, press Enter"  # hot seat: shown on a cleared screen between two seats

    def __init__(self, read_line, write, save_to=None, clear=None):
        """``read_line()`` returns a line or None at end of input; ``write(text)`` prints a line.

        ``save_to`` is where ``quit`` and the end of input save: a file name or a ``SaveTarget``.
        ``clear`` (hot seat: several seats at one terminal) is called to clear the screen when the
        decision passes from one seat to another; the hand-off line then waits for Enter before the
        next seat's news and hand are shown. Without it, a banner names the next seat.
        """
        self.read_line, self.write, self.clear = read_line, write, clear
        self.save_to = save_to if save_to is None or isinstance(save_to, SaveTarget) else SaveTarget(save_to)
        self.seen: dict[int, int] = {}  # seat -> log length at its last decision
        self.where: dict[int, tuple] = {}  # seat -> (round, phase, turn) at its last full view
        self.last_seat = None
        self.history: dict[int, list] = {}  # seat -> snapshots of the game at its decisions (for undo)

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
        """Ask the person until an answer is given (an undone decision asks again)."""
        while True:
            answer = self._decide(game, seat)
            if answer is not UNDONE:
                return answer

    def _decide(self, game, seat):
        """Prompt until an answer (returned), or until ``undo`` put the game back (UNDONE)."""
        snap = game.snapshot()
        pending = game.pending
        if self.last_seat is not None and self.last_seat != seat:
            if self.clear is not None:
                self._hand_off(game, seat)
            else:
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
        # the table that fits a terminal (50 x 100), the boards this decision is about drawn in full
        unavailable = game.unavailable_actions(keyed=True)
        types = game.card_types()
        # the table and the question fit a terminal of TABLE_LINES lines together (the table at least 30)
        asked = render_decision(pending, game.program, None, view, unavailable, card_types=types).count("\n") + 1
        height = max(30, TABLE_LINES - asked)
        self.write(render_table(game.program, view, pending, colour=use_colour(), height=height))
        self.where[seat] = where
        texts = option_texts(pending, game.program, None, view, card_types=types)
        while True:
            question = render_decision(pending, game.program, None, view, unavailable, card_types=types)
            self.write(f"[{seat_name(seat)}] " + question)
            try:
                line = self.read_line()
            except KeyboardInterrupt as exc:  # Ctrl-C; a session may raise it for other signals, with a reason
                self.write("")
                self._stop(game, getattr(exc, "reason", "interrupted"))
            if line is None:
                self._stop(game, "end of input")
            text = line.strip()
            cmd, _, arg = text.partition(" ")
            cmd = cmd.lower()
            if cmd in ("help", "?"):
                self.write(HELP)
            elif cmd == "view" and arg.strip():
                shown = render_area(game.program, game.view(seat), arg)
                self.write(
                    shown if shown is not None else f"no area called '{arg.strip()}' (the table's areas follow 'view')"
                )
            elif cmd == "view":
                self.write(render_view(game.program, game.view(seat)))
            elif cmd == "log":
                self.write("\n".join(narration(game.log, seat)))
            elif cmd == "why":
                self.write(_why(game, seat))
            elif cmd in ("card", "info") and arg.strip():
                self._describe(game.program, arg)
            elif cmd == "save":
                self._save_to(game, arg.strip())
            elif text.lower() == "undo":
                if self._undo(game, seat):
                    return UNDONE
            elif cmd == "quit":
                try:
                    self._stop(game, "quit")
                except QuitRequested as stop:
                    if stop.error is None:
                        raise
                    self.write("the game goes on: type 'save FILE' to save it elsewhere, or end the input to stop")
            else:
                try:
                    shown = _as_displayed(text, texts, pending)
                    answer = check_answer(pending, shown if shown is not None else parse_answer(text, pending))
                except (ValueError, IllegalAction) as exc:
                    msg = exc.message if isinstance(exc, MasonError) else str(exc)
                    barred = [r for key, label, r in unavailable if text.lower() in (label.lower(), key)]
                    if barred:
                        msg = f"'{text}' is unavailable: {barred[0]}"
                    self.write(f"not accepted: {msg} (type 'help' for help)")
                else:
                    self.history.setdefault(seat, []).append(snap)
                    return answer

    def _hand_off(self, game, seat) -> None:
        """Hot seat: clear the screen (no hand is left on it) and wait for Enter from the next seat.
        ``quit`` or the end of input there stop the game as at a prompt (saved first)."""
        self.clear()
        self.write(self.handoff.format(seat=seat_name(seat)))
        try:
            line = self.read_line()
        except KeyboardInterrupt:
            self.write("")
            self._stop(game, "interrupted")
        if line is None:
            self._stop(game, "end of input")
        if line.strip().lower() == "quit":
            self._stop(game, "quit")

    def _undo(self, game, seat) -> bool:
        """Put the game back at ``seat``'s previous decision when the engine allows it; say why not."""
        past = self.history.get(seat)
        if not past:
            self.write("cannot undo: no earlier decision of yours in this session")
            return False
        why = game.undo_refusal(past[-1], seat)
        if why:
            self.write(f"cannot undo: {why}")
            return False
        game.restore(past.pop())
        for s in self.seen:  # news already read stay read; nothing after the point of return exists
            self.seen[s] = min(self.seen[s], len(game.log))
        self.seen[seat] = len(game.log)
        self.write("undone: back to your previous decision")
        return True

    def _describe(self, program, name):
        found = find_type(program, name)
        if not found:
            self.write(f"no card named '{name.strip()}'")
        for tid in found[:10]:
            self.write(card_text(program, tid))
            if len(found) <= 3:  # one card asked for: its whole data too, and its rules in words
                from mason.presentation.rules_text import card_modifier_words, card_rule_words

                self.write("  " + card_data(program, tid))
                for line in card_rule_words(program, program.spec.component(tid)):
                    self.write("  " + line)
                for line in card_modifier_words(program, tid):
                    self.write("  - Changed by the rules in force: " + line)

    def _save_to(self, game, path):
        """``save FILE`` (written over if it exists: the person named it), or ``save``: the session's file."""
        if not path and self.save_to is None:
            self.write("save where? type: save FILE")
            return
        try:
            if path:
                game.save(path)
            elif self.save_to is not None:
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
            raise QuitRequested(
                why, error=PlayError(f"{why}: the game could not be saved: {exc.message}", code="play/save")
            ) from None
        note = f" ({self.save_to.note})" if self.save_to.note else ""
        self.write(f"{why}: game saved to {path}{note}; resume with --resume {path}")
        raise QuitRequested(why, saved_to=path)
