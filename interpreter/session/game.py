"""A game session: settings + state + log; the public API the CLI and the agents use.

``Game.new(settings)`` starts a game and runs it to the first decision. ``legal()`` lists the
pending decision's options; ``answer(a)`` checks the answer (refusing an illegal one with a
reason) and runs to the next decision. The log is a list of JSON entries; every entry names the
rule-file place that caused it (``at``) and, when not public, the seats that may read it (``to``).

Automated seats (``automata:`` in game.yaml, see runtime/automaton.py) never wait for an answer:
``_run`` takes each decision put to one by its policy, logs it as an ``automated`` entry (read by
no seat) followed by a ``reason`` entry for the table (the policy's keys and values in words) and goes on; those decisions are not counted in ``state['decisions']`` and are not
answers, so ``seed + answers`` replays an automated game exactly.
"""

from __future__ import annotations

import json
import random
import re
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from mason.dsl.fastexpr import FAST, fast_forms
from mason.errors import DefinitionErrors, IllegalAction, MasonError, PlayError, SaveError, did_you_mean
from mason.model import cache
from mason.model.loader import GAMES_DIR
from mason.model.program import Program
from mason.runtime.automaton import decide
from mason.runtime.choices import option_previews
from mason.runtime.engine import Runtime, check_answer, fill_labels, resume, run
from mason.runtime.machine import option_entries
from mason.runtime.state import copy_state, new_state, player_count, seat_names, view
from mason.runtime.turns import unavailable_actions

_PROGRAMS: dict[tuple, Program] = {}
_LOADED_IN: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # program -> directory it was read from
_STABLE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
# program -> [the rule files it was read from, their stamp then, when last looked at] (``_unchanged``)
_READ_FROM: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
AUTOMATED_CAP = 1_000_000  # automated decisions in a row before the game is declared a loop


@dataclass(frozen=True)
class Settings:
    """What starts a game: the game, player count, seed, variants, expansions and options."""

    game: str
    players: int
    seed: int | str = 1
    variants: tuple = ()
    expansions: tuple = ()
    options: tuple = ()  # ((key, value), ...)
    # generated fast forms on (True) or the reference path only (False); None: as MASON_FAST says.
    # Not recorded: both paths give the same game.
    fast: bool | None = field(default=None, compare=False)

    def to_json(self) -> dict:
        """The settings as plain data (in saves and the log's first entry)."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "variants": list(self.variants),
            "with": list(self.expansions),
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, d: dict) -> "Settings":
        """Settings read back from plain data; a malformed record is a SaveError."""
        try:
            return cls(
                d["game"],
                int(d["players"]),
                d.get("seed", 1),
                tuple(d.get("variants") or ()),
                tuple(d.get("with") or ()),
                tuple(sorted((d.get("options") or {}).items())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"bad settings in save file: {exc}") from None


def resolved_fast(settings: Settings) -> bool:
    """Whether ``settings``' games run with fast forms: ``settings.fast``, or (None) as ``MASON_FAST``
    says in this process. Resolved where games are handed out, so worker processes and Ray tasks, whose
    environment may differ, play the way the caller asked."""
    return FAST.on if settings.fast is None else bool(settings.fast)


def program_key(game: str, variants=(), expansions=(), fast: bool | None = None) -> tuple:
    """The key ``load_program`` keeps a compiled program under (``fast`` None: as ``MASON_FAST`` says)."""
    return (game, tuple(variants), tuple(expansions), FAST.on if fast is None else bool(fast))


def load_program(game: str, variants=(), expansions=(), fast: bool | None = None) -> Program:
    """Load and compile a game (cached per game, variants, expansions and fast forms). ``fast``: with
    generated fast forms (True), on the reference path only (False), or as ``MASON_FAST`` says (None)."""
    fast = FAST.on if fast is None else bool(fast)
    key = program_key(game, variants, expansions, fast)
    prog = _PROGRAMS.get(key)
    if prog is not None and not _unchanged(prog):
        prog = None  # a rule file was edited since: compiled again (games already started keep theirs)
    if prog is None:
        from mason.model.validate import validate_game

        made, declined = FAST.made, FAST.declined
        with fast_forms(fast), cache.reading() as read:
            checked, errors = validate_game(game, variants, expansions)
        if errors or checked is None:
            raise DefinitionErrors(errors)
        # the expressions given a fast form, and those its generator declined (left on the reference
        # path), while this program compiled: what ``mason simulate --coverage`` shows
        checked.fast_forms = {"on": fast, "made": FAST.made - made, "declined": FAST.declined - declined}
        prog = _PROGRAMS[key] = checked
        _LOADED_IN[prog] = Path.cwd()
        files = tuple(dict.fromkeys(read))
        _READ_FROM[prog] = [files, cache.stamp(files), time.monotonic()]
    return prog


RECHECK_SECONDS = 1.0  # a kept program's rule files are looked at again at most this often


def _unchanged(prog: Program) -> bool:
    """Whether the rule files ``prog`` was compiled from are as they were then (looked at at most once
    every RECHECK_SECONDS, so a loop that starts many games pays nothing): a long-running process such
    as ``mason serve`` then starts its next game under the rules a designer just saved."""
    seen = _READ_FROM.get(prog)
    if seen is None:
        return True
    now = time.monotonic()
    if now - seen[2] < RECHECK_SECONDS:
        return True
    seen[2] = now
    return cache.stamp(seen[0]) == seen[1]


def recorded_program(settings: Settings) -> Program:
    """The program a recorded game ran (a log's start entry, a save's settings), found where the record
    says its rules came from. A record names a game or an expansion read from a folder by the folder's
    absolute path (``Game.new`` and the CLI record it so), and one of Mason's own by its bare id; so a
    bare id here is the shipped game (and that game's own expansion), never a folder of the same name
    that the working directory happens to hold. A bare id that Mason does not ship is looked up as
    before (a record written before this rule)."""
    game, expansions = settings.game, list(settings.expansions)
    shipped = GAMES_DIR / game
    if _bare(game) and (shipped / "game.yaml").is_file():
        root = shipped
        if (Path(game) / "game.yaml").is_file():  # the loader would find the folder here first
            game = str(shipped)
    else:
        root = Path(game)
    for i, name in enumerate(expansions):
        own = root / "expansions" / name
        if _bare(name) and (Path(name) / "expansion.yaml").is_file() and (own / "expansion.yaml").is_file():
            expansions[i] = str(own.resolve())
    return load_program(game, settings.variants, tuple(expansions), settings.fast)


def players_refusal(prog: Program, players, variants=()) -> MasonError:
    """The one-line refusal of a player count (a number, or ``-p``'s text) that ``prog`` does not take.
    The variants asked for are named, since one may narrow the count (a solo-only variant)."""
    lo, hi = prog.min_players, prog.max_players
    takes = f"{lo} player{'' if lo == 1 else 's'}" if lo == hi else f"{lo} to {hi} players"
    chosen = f" with the variant{'s' if len(variants) > 1 else ''} {', '.join(variants)}" if variants else ""
    return MasonError(f"{prog.name} takes {takes}{chosen}, not {players}", code="play/players")


def _as_recorded(settings: Settings) -> Settings:
    """``settings`` as a record must name its rules: a game or expansion given by a bare name that the
    loader finds as a folder in the working directory is named by that folder's absolute path (a bare
    id in a record means Mason's own, see ``recorded_program``)."""
    from dataclasses import replace

    game = str(Path(settings.game).resolve()) if _local(settings.game, "game.yaml") else settings.game
    expansions = tuple(str(Path(e).resolve()) if _local(e, "expansion.yaml") else e for e in settings.expansions)
    if (game, expansions) == (settings.game, settings.expansions):
        return settings
    return replace(settings, game=game, expansions=expansions)


def _bare(name: str) -> bool:
    """A name with no folder part: an id (or a folder of the working directory)."""
    return bool(name) and Path(name).name == name and name not in (".", "..")


def _local(name: str, marker: str) -> bool:
    return _bare(name) and (Path(name) / marker).is_file()


def stable_places(prog: Program):
    """A function giving the log's form of a rule-file place (``file:line:col``), the same from any
    working directory: ``games/<id>/...`` for a shipped game, the absolute path for any other file.

    The program names its files relative to the directory it was loaded from (for messages a
    person can click); a log must replay from anywhere.
    """
    fn = _STABLE.get(prog)
    if fn is None:
        base = _LOADED_IN.get(prog) or Path.cwd()
        memo: dict[str, str] = {}

        def fn(at: str) -> str:
            out = memo.get(at)
            if out is None:
                out = memo[at] = _stable_place(at, base)
            return out

        _STABLE[prog] = fn
    return fn


def _stable_place(at: str, base: Path) -> str:
    # DOTALL: a folder's name may hold a newline (or any character but NUL and '/')
    m = re.fullmatch(r"(.*?)((?::\d+){2})?", at, re.DOTALL)
    assert m is not None  # the pattern matches every string
    file, pos = m.group(1), m.group(2) or ""
    path = Path(file)
    if not path.is_absolute():
        path = base / path if (base / path).exists() else GAMES_DIR.parent / path
    if not file or not path.exists():
        return at
    path = path.resolve()
    try:
        return "games/" + path.relative_to(GAMES_DIR.resolve()).as_posix() + pos
    except ValueError:
        return str(path) + pos


LOG_FORMAT = 3  # docs/log-format.md; schemas/log.schema.json


def _options(rt, pending, labels) -> list:
    """The offered options of a decision, as the log holds them: ``{"id", "label"}`` each, with the
    structured fields of ``machine.option_entries``."""
    out = option_entries(rt, pending["seat"], pending["kind"], pending["options"], labels)
    previews = option_previews(rt, pending)  # a ``showing`` choice: each option's preview as data
    if previews is not None and len(previews) == len(out):
        for item, extra in zip(out, previews):
            item.update(extra)
    return out


def _seen_cards(program, state, seat) -> set:
    """The cards ``seat`` can identify in ``state`` (from its view)."""
    return {c["id"] for z in view(program, state, seat)["zones"].values() for c in z["cards"]}


def _last_decision(log) -> int | None:
    """The index of the log's last decision (answered or automated): the cause of what runs next."""
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("type") in ("decision", "automated"):
            return i
    return None


class Game:
    """A game being played: its program, settings, state and log, and the API to answer, view and save it."""

    def __init__(
        self,
        program: Program,
        settings: Settings,
        state: dict,
        log: list | None,
        narrate=True,
        like: "Game | None" = None,
    ):
        """``like``: the game whose state ``state`` is a copy of (its runtime's tables are shared)."""
        self.program, self.settings, self.state = program, settings, state
        self.log = log if log is not None else []
        self.narrate = narrate
        self.seats: list[str] | None = None  # who plays each player's seat (human, a bot kind), for saves
        # every answer from the start, for a save of a game without a log (None: not known from the start)
        self.answered: list | None = (
            [e["answer"] for e in self.log if e.get("type") == "decision"]
            if self.log or state["decisions"] == 0
            else None
        )
        self._at = stable_places(program)
        self.rt: Runtime = Runtime(
            program, state, self._append if narrate else None, like.rt if like is not None else None
        )
        self.rt.decision_entry = _last_decision(self.log)

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(cls, settings: Settings, narrate=True, recorded=False) -> "Game":
        """Start a game and run it to its first decision.

        ``recorded``: the settings come from a record (a log being replayed), whose bare ids name
        Mason's own games (``recorded_program``); otherwise a game given by a bare name that is a
        folder here is recorded by its absolute path. An error during setup is raised with the game as
        it stood in ``exc.game`` (its log tells what happened up to the error), so a caller can still
        write the log.
        """
        if recorded:
            prog = recorded_program(settings)
        else:
            settings = _as_recorded(settings)
            prog = load_program(settings.game, settings.variants, settings.expansions, settings.fast)
        if not prog.min_players <= settings.players <= prog.max_players:
            raise players_refusal(prog, settings.players, settings.variants)
        for key, _ in settings.options:
            if key not in prog.constants:
                raise MasonError(
                    f"unknown option '{key}'{did_you_mean(key, prog.constants)}"
                    f" (options: {', '.join(prog.constants) or 'none'})",
                    code="play/option",
                )
        state = new_state(prog, settings.players, settings.seed, dict(settings.options))
        game = cls(prog, settings, state, [], narrate)
        if narrate:
            # the settings (with the seed, which would reveal every hidden card) are for replay only
            game.log.append(
                {
                    "type": "start",
                    "settings": settings.to_json(),
                    "rules": _saves().rules_hash(prog),
                    "log_format": LOG_FORMAT,
                    "to": [],
                }
            )
            game.rt.digest("start")
        try:
            game._run()
        except MasonError as exc:
            exc.game = game
            raise
        return game

    def _append(self, entry: dict) -> None:
        at = entry.get("at")
        if at:
            entry["at"] = self._at(at)
        for item in entry.get("because") or ():
            if item.get("at"):
                item["at"] = self._at(item["at"])
        self.log.append(entry)

    def _because(self, to) -> list:
        """The causes of the pending decision (``Runtime.because``), places in the log's form."""
        chain = self.rt.because(to)
        for item in chain:
            if item.get("at"):
                item["at"] = self._at(item["at"])
        return chain

    def _asked_at(self, pending) -> str:
        """Where the pending decision is asked, in the log's form (from the paused rule, not the saved text)."""
        stack = self.state["stack"]
        if stack and "node" in stack[-1]:
            return self._at(str(self.program.nodes[stack[-1]["node"]].place))
        return pending["at"]

    def record_error(self, exc: BaseException) -> dict:
        """End the log with an ``error`` entry for what stopped the game (the replay expects it too)."""
        if isinstance(exc, MasonError):
            entry: dict[str, object] = {"type": "error", "code": exc.code, "message": exc.message}
            if exc.place is not None:
                entry["at"] = self._at(str(exc.place))
        else:
            entry = {"type": "error", "code": "internal", "message": f"{type(exc).__name__}: {exc}"}
        entry["round"], entry["phase"] = self.state.get("round"), self.state.get("phase")
        entry["text"] = f"the game stopped: {entry['message']}"
        self.log.append(entry)
        return entry

    def _run(self):
        run(self.rt)
        if self.state.get("automata"):
            self._automate()

    def _automate(self):
        """Take every decision put to an automated seat by its policy, until a player's is pending."""
        st, autos = self.state, self.state["automata"]
        for _ in range(AUTOMATED_CAP):
            p = st["pending"]
            if p is None or str(p["seat"]) not in autos:
                return
            auto = self.program.automata[autos[str(p["seat"])]]
            answer, rule = decide(self.rt, auto, p)
            if self.narrate:
                self.rt.flush_changes(place=p["at"])
                filled = fill_labels(self.rt)
                assert filled is not None  # p is pending
                labels = filled["labels"]
                self.log.append(
                    {
                        "type": "automated",
                        "seat": p["seat"],
                        "kind": p["kind"],
                        "answer": answer,
                        "rule": rule,
                        # the policy rule that decided, as its place in the rule files (none matched:
                        # the automaton's, whose default takes the first option)
                        "policy_at": str(auto.rules[rule].place if rule is not None else auto.place or "?:0:0"),
                        "at": self._asked_at(p),
                        "to": [],
                        "prompt": p["prompt"],
                        "options": _options(self.rt, p, labels),
                        "round": self.state["round"],
                        "chosen": [labels[i] for i in answer] if isinstance(answer, list) else labels[answer],
                        "because": self._because([]),
                    }
                )
                self.rt.decision_entry = len(self.log) - 1
                self._policy_reason(p, answer, rule, labels)
            st["automated"] = st.get("automated", 0) + 1  # progress for the round's loop guard
            resume(self.rt, answer)
            run(self.rt)
        raise PlayError(f"{AUTOMATED_CAP} automated decisions in a row: the rules loop without end", code="play/loop")

    def _policy_reason(self, p, answer, rule, labels) -> None:
        """Log, after an automated decision (entry ``decision_entry``), a ``reason`` entry for the table:
        the policy rule that chose and the values of its keys, in words (runtime/reasons.py). Cards
        offered that some seat cannot see make it readable only by the seats that see them all."""
        from mason.runtime.automaton import policy_keys
        from mason.runtime.choices import _card_viewers
        from mason.runtime.reasons import policy_reason

        auto = self.program.automata[self.state["automata"][str(p["seat"])]]
        policy = auto.rules[rule] if rule is not None else None
        values = policy_keys(self.rt, auto, p, rule, raw=True)
        text = policy_reason(auto.name, labels, policy.sources if policy else (), values, answer)
        entry = {
            "type": "reason",
            "by": "policy",
            "seat": p["seat"],
            "decision": self.rt.decision_entry,
            "rule": rule,
            "prompt": p["prompt"],
            "text": text,
            "round": self.state["round"],
            "at": self._at(str(policy.place if policy else auto.place or p["at"])),
            "because": [],
        }
        if policy is not None and policy.text:
            entry["policy"] = policy.text
        if values is not None and policy is not None:
            entry["keys"] = list(policy.sources)
            entry["values"] = [
                {
                    "option": lab,
                    "keys": [v if v is None or isinstance(v, (bool, int, float, str)) else str(v) for v in vs],
                }
                for lab, vs in zip(labels, values)
            ]
        if p["kind"] == "card":
            to = _card_viewers(self.rt, [o for o in p["options"] if o is not None])
            if to is not None:
                entry["to"] = to
        self.log.append(entry)

    # ---------------------------------------------------------------- queries
    @property
    def over(self) -> bool:
        """Whether the game has ended (its end ran to completion)."""
        return self.state["over"] and not self.state["stack"]

    @property
    def pending(self) -> dict | None:
        """The decision waiting for an answer (seat, kind, prompt, options, labels), or None."""
        return fill_labels(self.rt)

    @property
    def result(self) -> dict | None:
        """The final scores, winners and rounds once the game is over, else None."""
        return self.state["result"]

    def legal(self) -> list[str]:
        """Labels of the pending decision's options (empty when nothing is pending)."""
        p = self.state["pending"]
        return list(p["labels"]) if p else []

    @property
    def round(self) -> int:
        """The round being played (0 during setup; a search bot's trials end a turn's plan when it changes)."""
        return self.state["round"]

    @property
    def players(self) -> int:
        """The number of players (the seats without the automated ones)."""
        return player_count(self.state)

    def seat_names(self) -> list[str]:
        """How each seat is named (P1, P2, ..., an automated seat by its automaton's name)."""
        return seat_names(self.program, self.state)

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see now (None: a spectator), with the values the game shows on the table."""
        fill_labels(self.rt)
        out = view(self.program, self.state, seat)
        if self.program.value_display:
            out["values"] = self._shown_values()
        return out

    def _shown_values(self) -> dict:
        """The values a game shows on each seat's line (``display:`` under a value of one seat,
        docs/boards.md): name -> its value per seat (None where it cannot be computed now). Such a
        value is declared public by its designer: every seat's view holds it."""
        out = {}
        names = set(self.program.value_display) | {
            d["used"] for d in self.program.value_display.values() if d["used"] is not None
        }
        for name in sorted(names):
            vals = []
            for s in range(self.state["n"]):
                try:
                    vals.append(self.rt.value(name, [s], {"me": s}))
                except PlayError:
                    vals.append(None)
            out[name] = vals
        return out

    def visible_log(self, seat: int | None, start: int = 0) -> list[dict]:
        """Log entries from index ``start`` that ``seat`` may read."""
        out = []
        for e in self.log[start:]:
            to = e.get("to")
            if to is not None and (seat is None or seat not in to):
                continue
            if seat is not None and seat in e.get("hide_from", ()):
                continue
            out.append(e)
        return out

    # ---------------------------------------------------------------- for bots (agents never read the state)
    @property
    def pending_unlabelled(self) -> dict | None:
        """The pending decision as the engine holds it (seat, kind, options, subset), its labels not
        computed: what a bot that needs no labels reads (``pending`` computes them)."""
        return self.state["pending"]

    @property
    def seat_count(self) -> int:
        """The number of seats, the automated ones included (``players`` leaves them out)."""
        return self.state["n"]

    @property
    def bot_streams(self) -> dict:
        """The bots' random streams, ``str(seat)`` -> generator state: kept in the state, so a saved
        game resumes each bot drawing what it would have drawn in one sitting."""
        return self.state.setdefault("bots", {})

    def card_types(self) -> list[str]:
        """Each card's component type id, by card id (setup makes the same cards, in the same order,
        in every game of these settings: no hidden information); to show an offered card."""
        return [c["t"] for c in self.state["cards"]]

    def unavailable_actions(self, with_rule: bool = False, keyed: bool = False) -> list:
        """For a pending action window, the actions only their condition keeps out, with the reason
        (``turns.unavailable_actions``): shown to the deciding seat, never offered."""
        return unavailable_actions(self.rt, with_rule=with_rule, keyed=keyed)

    def value(self, name: str, seat: int):
        """The game's named value ``name`` of ``seat`` as things stand (``name(seat)`` with ``me`` = seat)."""
        return self.rt.value(name, [seat], {"me": seat})

    def score_totals(self) -> list:
        """Each seat's total of the game's score parts as things stand (a part that is not a number
        counts 0): an unfinished game's running score."""
        rt, totals = self.rt, []
        for s in range(self.state["n"]):
            env = {"s": s, "me": s}
            total: float = 0
            for part in self.program.score_parts:
                v = part.fn(rt, env)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    total += v
            totals.append(total)
        return totals

    def position(self) -> str:
        """The position as one string, the same for two games whose states are equal (what a search
        bot compares to see that two orders of the same answers reached the same place)."""
        return json.dumps(self.state, separators=(",", ":"), sort_keys=True)

    def trial(self) -> "Game":
        """A silent copy (no log, no narration) to try answers on: a search bot's scratch game."""
        return Game(self.program, self.settings, copy_state(self.state), [], narrate=False, like=self)

    def answer_unchecked(self, answer) -> None:
        """Apply an answer known to be one of the offered options and run to the next decision,
        without the checks and the log entry of ``answer``: for a trial game. It is counted as a
        decision, as ``answer`` counts it: the flow's idle-round guard must see a trial's rounds as the
        game's (uncounted, three rounds of trial answers stopped a trial with ``play/stall``)."""
        self.state["decisions"] += 1
        resume(self.rt, answer)
        self._run()

    def determinized(self, seat: int, rnd: random.Random) -> "Game":
        """A silent game on a sample of the state consistent with what ``seat`` sees
        (``determinize.determinize``): what a bot may search on without reading hidden state."""
        from mason.session.determinize import determinize  # (imports saves: not for every game)

        return Game(self.program, self.settings, determinize(self.program, self.state, seat, rnd), [], narrate=False)

    def information_set(self, seat: int) -> "InformationSet":
        """What ``seat`` knows, in a form independent of where the hidden cards lie, to sample silent
        games from (the mcts bot's search)."""
        return InformationSet(self, seat)

    # ---------------------------------------------------------------- answering
    def answer(self, answer) -> None:
        """Answer the pending decision with an option index (or a list of indices for a subset)."""
        p = self.state["pending"]
        if p is None:
            raise IllegalAction("no decision is pending")
        if type(answer) is not int or p["subset"] or not 0 <= answer < len(p["options"]):
            answer = check_answer(p, answer)  # (one option number in range, the common answer, is valid as it is)
        self.state["decisions"] += 1
        if self.narrate:
            self.rt.flush_changes(place=p["at"])
            filled = fill_labels(self.rt)
            assert filled is not None  # p is pending
            labels = filled["labels"]
            self.log.append(
                {
                    "type": "decision",
                    "seat": p["seat"],
                    "kind": p["kind"],
                    "answer": answer,
                    "at": self._asked_at(p),
                    "to": [p["seat"]],
                    "prompt": p["prompt"],
                    "options": _options(self.rt, p, labels),
                    "round": self.state["round"],
                    "chosen": ([labels[i] for i in answer] if isinstance(answer, list) else labels[answer]),
                    "because": self._because([p["seat"]]),
                }
            )
            self.rt.decision_entry = len(self.log) - 1
        if self.answered is not None:
            self.answered.append(answer)
        resume(self.rt, answer)
        self._run()
        if self.narrate and self.over and not any(e.get("type") == "end" for e in self.log[-3:]):
            self.log.append({"type": "end", "result": self.state["result"]})

    def answers(self) -> list:
        """The answers of the logged decisions, in order."""
        return [e["answer"] for e in self.log if e.get("type") == "decision"]

    # ---------------------------------------------------------------- undo
    def snapshot(self) -> dict:
        """The game as it stands (a copy of the state and the log's length), for ``restore``."""
        return {"state": copy_state(self.state), "log": len(self.log)}

    def restore(self, snap: dict) -> None:
        """Put the game back as it stood at ``snapshot()``: a copy of its state, with a runtime bound
        to it (the runtime holds parts of the state), and the log cut back to that length."""
        stats = self.rt.stats
        self.state = copy_state(snap["state"])
        self.rt = Runtime(self.program, self.state, self._append if self.narrate else None)
        self.rt.stats = stats
        del self.log[snap["log"] :]
        if self.answered is not None:
            del self.answered[self.state["decisions"] :]
        self.rt.decision_entry = _last_decision(self.log)

    def undo_refusal(self, snap: dict, seat: int) -> str | None:
        """Why the game may not go back to ``snap``, ``seat``'s previous decision (None: it may).

        The policy is the engine's, from the states alone: refused when another seat (or the same
        seat twice) decided in between, when a random draw was made, or when ``seat`` came to see a
        card it could not see then (hidden information revealed).
        """
        then, now = snap["state"], self.state
        if now["decisions"] - then["decisions"] != 1:
            who = sorted({e["seat"] for e in self.log[snap["log"] :] if e.get("type") == "decision"} - {seat})
            names = self.seat_names()
            if who:
                return f"{', '.join(names[s] for s in who)} decided since"
            return "more than one decision was taken since"
        if now["rng"] != then["rng"]:
            return "a random draw was made since (hidden information)"
        before = _seen_cards(self.program, then, seat)
        revealed = _seen_cards(self.program, now, seat) - before
        if revealed:
            return (
                f"{len(revealed)} card{'s' if len(revealed) > 1 else ''} you could not see "
                f"{'were' if len(revealed) > 1 else 'was'} revealed to you since"
            )
        return None

    # ---------------------------------------------------------------- copies and saves
    def copy(self) -> "Game":
        """An independent copy of the game (state and log), narrating as this one does."""
        game = Game(self.program, self.settings, copy_state(self.state), list(self.log), self.narrate, like=self)
        game.seats = self.seats
        game.answered = None if self.answered is None else list(self.answered)
        return game

    def to_json(self) -> dict:
        """The game as a save's plain data: format, rules hash, settings, seats, state and log."""
        fill_labels(self.rt)
        saves = _saves()
        data = {
            "mason": saves.SAVE_FORMAT,
            "rules": saves.rules_hash(self.program),
            "settings": self.settings.to_json(),
        }
        if self.seats is not None:
            data["seats"] = list(self.seats)
        data.update(state=self.state, log=self.log)
        if not self.log and self.answered is not None and len(self.answered) == self.state["decisions"]:
            data["answers"] = list(self.answered)  # no log to hold them (bots answering in place skip this list)
        return data

    def save(self, path) -> None:
        """Write the save file atomically (a temporary file renamed over it); SaveError ``save/write``."""
        try:
            _saves().write_atomic(path, json.dumps(self.to_json()))
        except OSError as exc:
            raise SaveError(f"cannot write {path}: {exc.strerror or exc}", code="save/write") from None

    @classmethod
    def from_json(cls, data, rules_changed: bool = False) -> "Game":
        """A game from save data, checked as data first (see saves.py); SaveError naming what is wrong.

        ``rules_changed``: the rule files may have changed since the save (``mason play --resume SAVE
        --rules-changed``). When they did, the saved state is checked against the rules as they are now
        (``check_state``: cards, counters, variables, boards, the paused rule asking the pending decision
        again), not replayed (the rules it was played under are gone), and the log records the change in
        a ``rules_changed`` entry holding the state the game goes on from (docs/log-format.md)."""
        saves = _saves()
        saves.check_format(data)
        settings = Settings.from_json(data["settings"])
        try:
            prog = recorded_program(settings)
        except DefinitionErrors as exc:
            raise SaveError(f"the save's game does not load: {exc.errors[0].line()}") from None
        except MasonError as exc:
            raise SaveError(f"the save's game does not load: {exc.message}") from None
        saves.check_schema(data)
        changed = rules_changed and data.get("rules") != saves.rules_hash(prog)
        if changed:
            if not data.get("log"):
                raise SaveError("a save without a log cannot go on under changed rules (the log records the change)")
            # the log is not replayed (its rules are gone), so it is checked as data: it goes on into the next save
            saves.check_log_entries(data["log"])
            try:
                saves.check_state(prog, settings, data, same_rules=False)
            except SaveError as exc:
                raise SaveError(f"the saved game does not fit the rules as they are now: {exc.message}") from None
        else:
            saves.check_state(prog, settings, data)
            # the state must be the one its answers lead to (replayed from the same rules: a record's),
            # from the last change of rules the log records, if any
            saves.check_replay(
                settings,
                data,
                lambda st, narrate: cls.new(st, narrate, recorded=True),
                lambda state, log: cls._from_rules_change(prog, settings, state, log),
            )
        game = cls(prog, settings, data["state"], list(data.get("log") or []))
        if not game.log and data.get("answers") is not None:
            game.answered = list(data["answers"])
        game.seats = list(data["seats"]) if data.get("seats") is not None else None
        if changed:
            game.log.append(
                {
                    "type": "rules_changed",
                    "rules": saves.rules_hash(prog),
                    "previous": data.get("rules"),
                    "decisions": game.state["decisions"],
                    "round": game.state["round"],
                    "state": json.loads(json.dumps(game.state)),  # the whole state: read by no seat
                    "to": [],
                }
            )
        return game

    @classmethod
    def _from_rules_change(cls, prog: Program, settings: Settings, state: dict, log: list) -> "Game":
        """The game as it went on after a change of rules, from the state its ``rules_changed`` entry
        holds (checked against the rules first, as a save's state is); SaveError when it is damaged."""
        try:
            _saves().check_state(prog, settings, {"state": state}, same_rules=False)
            return cls(prog, settings, state, log)
        except SaveError as exc:
            raise SaveError(f"the log's change of rules holds a damaged state: {exc.message}") from None
        except (TypeError, KeyError, ValueError, IndexError, AttributeError) as exc:
            raise SaveError(f"the log's change of rules holds a damaged state ({type(exc).__name__})") from None

    @classmethod
    def load(cls, path, rules_changed: bool = False) -> "Game":
        """The game saved at ``path`` (``rules_changed``: see ``from_json``); SaveError naming the file."""
        data = _saves().read_save(path)
        try:
            return cls.from_json(data, rules_changed)
        except SaveError as exc:
            raise SaveError(f"{path}: {exc.message}") from None


class InformationSet:
    """What one seat knows of a game (``determinize.information_set``), to sample silent games from."""

    def __init__(self, game: Game, seat: int):
        from mason.session.determinize import information_set  # (imports saves: not for every game)

        self.program, self.settings, self.seat = game.program, game.settings, seat
        self._base, self._groups = information_set(game.program, game.state, seat)
        self._like = game  # a sample re-deals cards among places, never changes a card's type

    def sample(self, rnd: random.Random) -> Game:
        """A silent game on one sample: the hidden cards re-dealt, secret variables resampled, a new generator."""
        from mason.session.determinize import sample_information_set

        st = sample_information_set(self.program, self._base, self._groups, self.seat, rnd)
        return Game(self.program, self.settings, st, [], narrate=False, like=self._like)


def _saves():
    """The saves module (session/saves.py), imported when a game is first saved, loaded or logged:
    bot games (``mason simulate``) start without it."""
    from mason.session import saves

    return saves
