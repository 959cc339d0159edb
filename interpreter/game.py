"""A game session: settings + state + log; the public API the CLI and the agents use.

``Game.new(settings)`` starts a game and runs it to the first decision. ``legal()`` lists the
pending decision's options; ``answer(a)`` checks the answer (refusing an illegal one with a
reason) and runs to the next decision. The log is a list of JSON entries; every entry names the
rule-file place that caused it (``at``) and, when not public, the seats that may read it (``to``).

Automated seats (``automata:`` in game.yaml, see agents/automaton.py) never wait for an answer:
``_run`` takes each decision put to one by its policy, logs it as an ``automated`` entry (read by
no seat) and goes on; those decisions are not counted in ``state['decisions']`` and are not
answers, so ``seed + answers`` replays an automated game exactly.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from . import turns  # noqa: F401  (registers the turn and flow frames)
from .agents.automaton import decide
from .errors import DefinitionErrors, IllegalAction, MasonError, PlayError, SaveError, did_you_mean
from .machine import Runtime, check_answer, fill_labels, resume, run
from .program import Program
from .state import copy_state, new_state, player_count, seat_names, view

SAVE_FORMAT = 1
_PROGRAMS: dict[tuple, Program] = {}
AUTOMATED_CAP = 1_000_000  # automated decisions in a row before the game is declared a loop


@dataclass(frozen=True)
class Settings:
    game: str
    players: int
    seed: object = 1
    variants: tuple = ()
    expansions: tuple = ()
    options: tuple = ()   # ((key, value), ...)

    def to_json(self) -> dict:
        return {"game": self.game, "players": self.players, "seed": self.seed, "variants": list(self.variants),
                "with": list(self.expansions), "options": dict(self.options)}

    @classmethod
    def from_json(cls, d: dict) -> "Settings":
        try:
            return cls(d["game"], int(d["players"]), d.get("seed", 1), tuple(d.get("variants") or ()),
                       tuple(d.get("with") or ()), tuple(sorted((d.get("options") or {}).items())))
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"bad settings in save file: {exc}") from None


def load_program(game: str, variants=(), expansions=()) -> Program:
    """Load and compile a game (cached per game, variants and expansions)."""
    key = (game, tuple(variants), tuple(expansions))
    prog = _PROGRAMS.get(key)
    if prog is None:
        from .validate import validate_game

        prog, errors = validate_game(game, variants, expansions)
        if errors:
            raise DefinitionErrors(errors)
        _PROGRAMS[key] = prog
    return prog


class Game:
    def __init__(self, program: Program, settings: Settings, state: dict, log: list | None, narrate=True):
        self.program, self.settings, self.state = program, settings, state
        self.log = log if log is not None else []
        self.narrate = narrate
        self.rt = Runtime(program, state, self._append if narrate else None)

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(cls, settings: Settings, narrate=True) -> "Game":
        prog = load_program(settings.game, settings.variants, settings.expansions)
        if not prog.min_players <= settings.players <= prog.max_players:
            raise MasonError(f"{prog.name} takes {prog.min_players} to {prog.max_players} players, "
                             f"not {settings.players}", code="play/players")
        for key, _ in settings.options:
            if key not in prog.constants:
                raise MasonError(f"unknown option '{key}'{did_you_mean(key, prog.constants)}"
                                 f" (options: {', '.join(prog.constants) or 'none'})", code="play/option")
        state = new_state(prog, settings.players, settings.seed, dict(settings.options))
        game = cls(prog, settings, state, [], narrate)
        if narrate:
            # the settings (with the seed, which would reveal every hidden card) are for replay only
            game.log.append({"type": "start", "settings": settings.to_json(), "to": []})
        game._run()
        return game

    def _append(self, entry: dict) -> None:
        self.log.append(entry)

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
            answer, rule = decide(self.rt, self.program.automata[autos[str(p["seat"])]], p)
            if self.narrate:
                labels = fill_labels(self.rt)["labels"]
                self.log.append({"type": "automated", "seat": p["seat"], "kind": p["kind"], "answer": answer,
                                 "rule": rule, "at": p["at"], "to": [],
                                 "chosen": [labels[i] for i in answer] if isinstance(answer, list) else labels[answer]})
            st["automated"] = st.get("automated", 0) + 1   # progress for the round's loop guard
            resume(self.rt, answer)
            run(self.rt)
        raise PlayError(f"{AUTOMATED_CAP} automated decisions in a row: the rules loop without end",
                        code="play/loop")

    # ---------------------------------------------------------------- queries
    @property
    def over(self) -> bool:
        return self.state["over"] and not self.state["stack"]

    @property
    def pending(self) -> dict | None:
        """The decision waiting for an answer (seat, kind, prompt, options, labels), or None."""
        return fill_labels(self.rt)

    @property
    def result(self) -> dict | None:
        return self.state["result"]

    def legal(self) -> list[str]:
        """Labels of the pending decision's options (empty when nothing is pending)."""
        p = self.state["pending"]
        return list(p["labels"]) if p else []

    @property
    def players(self) -> int:
        """The number of players (the seats without the automated ones)."""
        return player_count(self.state)

    def seat_names(self) -> list[str]:
        """How each seat is named (P1, P2, ..., an automated seat by its automaton's name)."""
        return seat_names(self.program, self.state)

    def view(self, seat: int | None) -> dict:
        fill_labels(self.rt)
        return view(self.program, self.state, seat)

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

    # ---------------------------------------------------------------- answering
    def answer(self, answer) -> None:
        """Answer the pending decision with an option index (or a list of indices for a subset)."""
        p = self.state["pending"]
        if p is None:
            raise IllegalAction("no decision is pending")
        answer = check_answer(p, answer)
        self.state["decisions"] += 1
        if self.narrate:
            self.log.append({"type": "decision", "seat": p["seat"], "kind": p["kind"], "answer": answer,
                             "at": p["at"], "to": [p["seat"]],
                             "chosen": ([p["labels"][i] for i in answer] if isinstance(answer, list)
                                        else p["labels"][answer])})
        resume(self.rt, answer)
        self._run()
        if self.over and self.narrate and not any(e.get("type") == "end" for e in self.log[-3:]):
            self.log.append({"type": "end", "result": self.state["result"]})

    def answers(self) -> list:
        return [e["answer"] for e in self.log if e.get("type") == "decision"]

    # ---------------------------------------------------------------- copies and saves
    def copy(self) -> "Game":
        return Game(self.program, self.settings, copy_state(self.state), list(self.log), self.narrate)

    def to_json(self) -> dict:
        fill_labels(self.rt)
        return {"mason": SAVE_FORMAT, "settings": self.settings.to_json(), "state": self.state, "log": self.log}

    def save(self, path) -> None:
        from pathlib import Path

        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def from_json(cls, data) -> "Game":
        if not isinstance(data, dict) or data.get("mason") != SAVE_FORMAT:
            raise SaveError("not a Mason save file (missing or unknown 'mason' format number)")
        settings = Settings.from_json(data.get("settings") or {})
        if isinstance(data.get("state"), dict) and (
                not isinstance(data["state"].get("n"), int) or not isinstance(data["state"].get("automata", {}), dict)
                or player_count(data["state"]) != settings.players):
            raise SaveError("the save's state is damaged: its settings and state disagree on the number of players")
        try:
            prog = load_program(settings.game, settings.variants, settings.expansions)
        except DefinitionErrors as exc:
            raise SaveError(f"the save's game does not load: {exc.errors[0].line()}") from None
        except MasonError as exc:
            raise SaveError(f"the save's game does not load: {exc.message}") from None
        state = data.get("state")
        _check_state(prog, state)
        return cls(prog, settings, state, list(data.get("log") or []))

    @classmethod
    def load(cls, path) -> "Game":
        from pathlib import Path

        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise SaveError(f"{path}: cannot read: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
        try:
            return cls.from_json(data)
        except SaveError as exc:
            raise SaveError(f"{path}: {exc.message}") from None


def _check_state(prog: Program, state) -> None:
    need = {"n": int, "round": int, "rng": int, "cards": list, "zones": dict, "counters": dict, "vars": dict,
            "stack": list, "ti": int, "decisions": int, "over": bool, "table": dict, "constants": dict}
    if not isinstance(state, dict):
        raise SaveError("the save has no state")
    for key, typ in need.items():
        if not isinstance(state.get(key), typ):
            raise SaveError(f"the save's state is damaged: '{key}' is missing or not a {typ.__name__}")
    if not isinstance(state.get("automata", {}), dict):   # older saves have no automated seats
        raise SaveError("the save's state is damaged: 'automata' is not a dict")
    if len(state["cards"]) != len(prog.instances):
        raise SaveError("the save's state does not match the game's components")
    for fr in state["stack"]:
        if not isinstance(fr, dict) or fr.get("k") not in ("b", "f", "r", "w", "c", "o", "t", "flow"):
            raise SaveError("the save's paused execution is damaged")
        n = fr.get("n")
        if n is not None and not (isinstance(n, int) and 0 <= n < len(prog.nodes)):
            raise SaveError("the save's paused execution refers to rules this game does not have")
    if not -1 <= state["ti"] < len(state["stack"]) or (state["ti"] >= 0 and state["stack"][state["ti"]].get("k") != "t"):
        raise SaveError("the save's state is damaged: its current turn does not exist")
    p = state.get("pending")
    if p is not None and (not isinstance(p, dict) or not isinstance(p.get("options"), list)
                          or not isinstance(p.get("subset"), int) or not isinstance(p.get("prompt"), str)
                          or not state["stack"] or state["stack"][-1].get("k") not in ("c", "o", "t")
                          or not isinstance(p.get("labels"), list) or len(p["labels"]) != len(p["options"])
                          or not isinstance(p.get("seat"), int) or not 0 <= p["seat"] < state["n"]
                          or str(p["seat"]) in (state.get("automata") or {})):
        raise SaveError("the save's pending decision is damaged")
    n = state["n"]
    players = player_count(state)
    if not prog.min_players <= players <= prog.max_players:
        raise SaveError(f"the save's state has {players} players; {prog.name} takes "
                        f"{prog.min_players}-{prog.max_players}")
    autos = prog.automata_at(players)
    if state.get("automata", {}) != {str(players + i): a for i, a in enumerate(autos)}:
        raise SaveError("the save's automated seats do not match the game's automata")
    expected = {name if z["scope"] == "game" else f"{name}/{s}"
                for name, z in prog.zones.items() for s in (range(n) if z["scope"] == "seat" else [0])}
    if set(state["zones"]) != expected:
        raise SaveError("the save's zones do not match the game's zones")
    seen = set()
    for key, ids in state["zones"].items():
        if not isinstance(ids, list) or any(not isinstance(c, int) or not 0 <= c < len(prog.instances) for c in ids):
            raise SaveError(f"the save's zone '{key}' holds something that is not a card of this game")
        seen.update(ids)
    for i, card in enumerate(state["cards"]):
        if not isinstance(card, dict) or card.get("t") != prog.instances[i]:
            raise SaveError(f"the save's card {i} is damaged")
        key = card.get("z") if card.get("o") is None else f"{card.get('z')}/{card.get('o')}"
        if card.get("z") is not None and i not in state["zones"].get(key, ()):
            raise SaveError(f"the save's card {i} is not where it says it is")
    for name, cdef in prog.counters.items():
        v = state["counters"].get(name)
        if cdef["scope"] == "seat":
            ok = isinstance(v, list) and len(v) == n and all(isinstance(x, int) for x in v)
        else:
            ok = isinstance(v, int)
        if not ok:
            raise SaveError(f"the save's state is damaged: counter '{name}' is missing or malformed")
    for name in prog.vars:
        if name not in state["vars"]:
            raise SaveError(f"the save's variables lack '{name}'")
