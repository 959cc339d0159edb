"""The live games of ``mason serve``: creating, answering, undo, bots, and each seat's payload.

Everything a link receives is built here by ``payload(live, seat)`` from ``Game.view(seat)``, the
log entries that seat may read and, when it decides, the pending decision: never from the state
itself, so the payload of a seat is the same whatever it cannot see (the served-payload leak check,
tests/web). A game is rebuilt from the store by replaying its answers. Bots are made afresh for each
decision with a seed drawn from the game's seed and the decision's number, so a game with bots
plays the same with or without a restart. Every method is synchronous and holds the game's lock:
the app calls them in a thread pool, off the event loop.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time

from mason.errors import DefinitionErrors, IllegalAction, MasonError, SaveError
from mason.model.expansions import list_expansions
from mason.model.loader import find_game, list_games, load_spec
from mason.play.session import make_bot, verify_log
from mason.presentation.explain import explain_entry, not_offered
from mason.presentation.render import option_texts, render_entry
from mason.presentation.table import table_model
from mason.runtime.choices import option_previews
from mason.runtime.machine import option_entries
from mason.runtime.turns import unavailable_actions
from mason.session.game import Game, Settings, load_program, players_refusal

LOG_TAIL = 300  # log lines in a payload (the whole log: GET .../log)
# a lobby may not ask for a bot that would hold a worker for minutes: 256 rollouts, 16 times the default,
# take about 2 s a decision in the slowest shipped game (benchmarks/RESULTS.md, "Designer timings")
MAX_MCTS_ITERATIONS = 256
MAX_ANSWER_ITEMS = 64  # indices in one answer to a "choose up to N" decision
# Loading and compiling rule files is not thread-safe (the DSL parser keeps state while it reads): every
# call that may compile a game takes this lock. A compiled program is kept, so the lock is short after.
COMPILING = threading.RLock()


class WebError(Exception):
    """A refused request: an HTTP status and a one-line message; nothing was changed."""

    def __init__(self, status: int, message: str, code: str = "web/bad-request"):
        super().__init__(message)
        self.status, self.message, self.code = status, message, code


def _bad(message: str, status: int = 400, code: str = "web/bad-request") -> WebError:
    return WebError(status, message, code)


# ---------------------------------------------------------------------------- the installed games
def catalogue() -> list[dict]:
    """The installed games as the lobby offers them: id, name, players, variants, expansions, options."""
    with COMPILING:
        return _catalogue()


def _catalogue() -> list[dict]:
    out = []
    for gid in list_games():
        try:
            spec = load_spec(gid)
        except MasonError:
            continue
        g = spec.game
        prog = load_program(gid)
        out.append(
            {
                "id": gid,
                "name": g.get("name", gid),
                "min": g["players"]["min"],
                "max": g["players"]["max"],
                "variants": [{"id": v["id"], "name": v.get("name") or v["id"]} for v in g.get("variants") or []],
                "expansions": list_expansions(spec.root),
                "options": [{"id": k, "default": v} for k, v in prog.constants.items()],
            }
        )
    return out


def _installed(game) -> str:
    """``game`` when it is an installed game's id; else refused (a client's name never names a path)."""
    if not isinstance(game, str) or game not in list_games():
        raise _bad(f"no installed game {json.dumps(game)[:60]} (installed: {', '.join(list_games())})", 404, "web/game")
    return game


def _names(value, what: str, known: list) -> tuple:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(f"'{what}' must be a list of names")
    for v in value:
        if v not in known:
            raise _bad(f"unknown {what[:-1]} '{v[:60]}' (known: {', '.join(known) or 'none'})")
    return tuple(value)


def check_kind(kind) -> str:
    """A seat's kind from a client: ``human``, or a bot kind (random, greedy, mcts, mcts:N) within bounds."""
    if kind == "human":
        return kind
    if not isinstance(kind, str) or not re.fullmatch(r"random|greedy|mcts(:\d{1,7})?", kind):
        raise _bad(f"unknown seat kind {json.dumps(kind)[:40]} (human, random, greedy, mcts, mcts:N)")
    if kind.startswith("mcts:") and not 1 <= int(kind[5:]) <= MAX_MCTS_ITERATIONS:
        raise _bad(f"mcts:N takes 1 to {MAX_MCTS_ITERATIONS} iterations (rollouts) here")
    return kind


def settings_from(spec: dict) -> tuple[Settings, list]:
    """The Settings and seat kinds a lobby's request asks for, every name checked against what is installed."""
    with COMPILING:
        return _settings_from(spec)


def _settings_from(spec: dict) -> tuple[Settings, list]:
    if not isinstance(spec, dict):
        raise _bad("the request must be a JSON object")
    game = _installed(spec.get("game"))
    root = find_game(game)
    expansions = _names(spec.get("expansions"), "expansions", list_expansions(root))
    g = load_spec(game, expansions=expansions).game
    variants = _names(spec.get("variants"), "variants", [v["id"] for v in g.get("variants") or []])
    try:
        prog = load_program(game, variants, expansions)
    except DefinitionErrors as exc:
        raise _bad(f"these settings do not load: {exc.errors[0].line()}") from None
    players = spec.get("players", prog.min_players)
    if type(players) is not int or not prog.min_players <= players <= prog.max_players:
        raise _bad(players_refusal(prog, players, variants).message)
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise _bad("'options' must be an object of option: value")
    chosen = []
    for key, raw in options.items():
        if key not in prog.constants:
            raise _bad(f"unknown option '{str(key)[:60]}' (options: {', '.join(prog.constants) or 'none'})")
        value, problem = prog.option_value(key, raw if isinstance(raw, str) else json.dumps(raw))
        if problem:
            raise _bad(f"option {problem}")
        chosen.append((key, value))
    seed = spec.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    elif type(seed) is not int or not 0 <= seed < 2**63:
        raise _bad("'seed' must be a whole number from 0")
    seats = spec.get("seats") or ["human"] * players
    if not isinstance(seats, list) or len(seats) != players:
        raise _bad(f"'seats' must name one kind per player ({players})")
    kinds = [check_kind(k) for k in seats]
    return Settings(game, players, seed, variants, expansions, tuple(sorted(chosen))), kinds


# ---------------------------------------------------------------------------- live games
class LiveGame:
    """A game being played: the Game, who plays each seat, undo snapshots, a version for listeners.

    Payloads are built once per version and seat (``cache``), right after a change for the seats
    listening (``publish``), so a page's push never waits for a bot that has the game's lock; each
    seat's log lines are rendered once, as the log grows (``lines``)."""

    PUBLISH_EVERY = 0.5  # seconds: while bots play on, listeners see their moves at most this often

    def __init__(self, gid: str, game: Game, kinds: list):
        self.gid, self.game, self.kinds = gid, game, kinds
        self.lock = threading.RLock()
        self.version = 0
        self.history: dict[int, list] = {}  # seat -> snapshots before its answers (undo; this process only)
        self.listeners: dict[int, tuple] = {}  # key -> (seat, role, tell): told each published version
        self.cache: dict[tuple, dict] = {}  # (seat, role) -> the payload of the current version
        self.lines: dict = {}  # seat -> its rendered log lines so far (_SeatLines)
        self.failed: str | None = None  # a rule error stopped the game
        self.published = 0.0  # when listeners were last told
        self._keys = 0

    def bot_seat(self):
        """The seat of the pending decision when a bot plays it, else None."""
        p = self.game.state["pending"]
        if p is None or self.game.over or self.failed:
            return None
        seat = p["seat"]
        return seat if isinstance(seat, int) and seat < len(self.kinds) and self.kinds[seat] != "human" else None

    def listen(self, seat, role: str, tell) -> int:
        """Tell ``tell(version)`` of every published version (a WebSocket); the key for ``unlisten``."""
        with self.lock:
            self._keys += 1
            self.listeners[self._keys] = (seat, role, tell)
            return self._keys

    def unlisten(self, key: int) -> None:
        """Stop telling listener ``key``."""
        with self.lock:
            self.listeners.pop(key, None)

    def forget(self) -> None:
        """Drop what was built from the game (after the game itself was replaced or cut back)."""
        self.cache.clear()
        self.lines.clear()

    def changed(self, publish: bool = True) -> None:
        """A new version (the caller holds the lock); ``publish``: build the listening seats' payloads and
        tell them now (else later: bots playing several decisions in a row)."""
        self.version += 1
        self.cache.clear()
        if publish:
            self.publish()

    def publish(self) -> None:
        """Build the payload of every listening seat for this version and tell the listeners."""
        self.published = time.monotonic()
        for seat, role, _ in list(self.listeners.values()):
            if (seat, role) not in self.cache:
                self.cache[(seat, role)] = build_payload(self, seat, role)
        for _, _, tell in list(self.listeners.values()):
            tell(self.version)


class _SeatLines:
    """One seat's log lines, rendered as the log grows: the entries it reads, their lines, ``since``."""

    def __init__(self):
        self.upto, self.n, self.lines, self.since = 0, 0, [], None


def replay_answers(settings: Settings, answers: list) -> Game:
    """The game ``settings`` and ``answers`` lead to (how a stored game is rebuilt)."""
    game = Game.new(settings, recorded=True)
    for a in answers:
        game.answer(a)
    return game


class Hub:
    """The live games of one server, over its Store."""

    def __init__(self, store):
        self.store = store
        self.games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ creating and finding
    def create(self, spec: dict) -> dict:
        """A new game from a lobby request: its id and links (a token per human seat, spectator, host)."""
        settings, kinds = settings_from(spec)
        try:
            with COMPILING:
                game = Game.new(settings)
        except MasonError as exc:
            raise _bad(f"the game does not start: {exc.message}") from None
        return self._add(game, kinds)

    def _add(self, game: Game, kinds: list) -> dict:
        gid = secrets.token_hex(8)
        links: list[tuple[str, int | None, str]] = [
            (secrets.token_urlsafe(24), s, "seat") for s, k in enumerate(kinds) if k == "human"
        ]
        links += [(secrets.token_urlsafe(24), None, "spectator"), (secrets.token_urlsafe(24), None, "host")]
        game.seats = list(kinds)
        answers = list(game.answered or [])
        self.store.create(gid, game.settings.to_json(), kinds, answers, links)
        live = LiveGame(gid, game, kinds)
        with self._lock:
            self.games[gid] = live
        return {"id": gid, "links": [{"token": t, "seat": s, "role": r} for t, s, r in links]}

    def live(self, gid: str) -> LiveGame:
        """A game by id, rebuilt from the store by replaying its answers when this process has not got it."""
        with self._lock:
            live = self.games.get(gid)
            if live is not None:
                return live
            row = self.store.game(gid)
            if row is None:
                raise _bad("no such game", 404, "web/no-game")
            with COMPILING:
                game = replay_answers(Settings.from_json(row["settings"]), row["answers"])
            game.seats = list(row["seats"])
            live = self.games[gid] = LiveGame(gid, game, row["seats"])
            return live

    def resolve(self, token) -> tuple[LiveGame, int | None, str]:
        """``(game, seat or None, role)`` for a link's token; an unknown token is refused."""
        if not isinstance(token, str) or not re.fullmatch(r"[A-Za-z0-9_-]{16,64}", token):
            raise _bad("no such link", 404, "web/link")
        found = self.store.link(token)
        if found is None:
            raise _bad("no such link", 404, "web/link")
        gid, seat, role = found
        return self.live(gid), seat, role

    def links(self, gid: str) -> list:
        """Every link of a game (for the host's page)."""
        return [{"token": t, "seat": s, "role": r} for t, s, r in self.store.links(gid)]

    # ------------------------------------------------------------------ playing
    def _persist(self, live: LiveGame) -> None:
        game = live.game
        self.store.save_answers(live.gid, list(game.answered or []), game.over or bool(live.failed))

    def answer(self, live: LiveGame, seat, decision, answer) -> None:
        """``seat`` answers decision number ``decision``; refused (nothing changed) when it is not that
        seat's, when the game has moved on, or when the answer is not one of the options."""
        answer = _checked_answer(answer)
        with live.lock:
            game = live.game
            p = game.state["pending"]
            if seat is None:
                raise _bad("this link only watches the game: it cannot answer", 403, "web/spectator")
            if game.over or p is None or live.failed:
                raise _bad("the game is over: there is nothing to answer", 409, "web/over")
            if type(decision) is not int or decision != game.state["decisions"]:
                raise _bad(
                    f"stale decision: this answer is for decision {str(decision)[:20]}, the game is at decision "
                    f"{game.state['decisions']} (reload the page)",
                    409,
                    "web/stale",
                )
            if p["seat"] != seat:
                raise _bad(f"not your decision: {game.seat_names()[p['seat']]} decides now", 403, "web/seat")
            snap = game.snapshot()
            try:
                game.answer(answer)
            except IllegalAction as exc:
                raise _bad(f"not accepted: {exc.message}", 422, "web/illegal") from None
            except MasonError as exc:
                game.record_error(exc)
                live.failed = exc.message
            live.history.setdefault(seat, []).append(snap)
            self._persist(live)
            live.changed()

    def advance(self, live: LiveGame, limit: int = 10_000) -> int:
        """Let the bots answer while one of them decides (one decision at a time, each stored); how many.

        A bot thinks on a copy of the game, without the game's lock: the game's pages are served
        meanwhile. Its answer is applied only if nothing changed in between (else it thinks again).
        The bot of each decision is made afresh from the game's seed and the decision's number, and
        its random stream stays in the copy: replaying the answers gives the same game."""
        done = 0
        while done < limit:
            with live.lock:
                seat = live.bot_seat()
                if seat is None:
                    return done
                version, number = live.version, live.game.state["decisions"]
                mine = live.game.copy()
                bot = make_bot(live.kinds[seat], f"{mine.settings.seed}/{number}", seat)
            try:
                choice, error = bot.decide(mine, seat), None
            except MasonError as exc:
                choice, error = None, exc
            with live.lock:
                if live.version != version:
                    continue
                game = live.game
                try:
                    if error is not None:
                        raise error
                    game.answer(choice)
                except MasonError as exc:
                    game.record_error(exc)
                    live.failed = exc.message
                self._persist(live)
                live.changed(publish=False)
                if live.bot_seat() is None or time.monotonic() - live.published >= live.PUBLISH_EVERY:
                    live.publish()
            done += 1
        return done

    def undo(self, live: LiveGame, seat) -> str:
        """Back to ``seat``'s previous decision under the terminal's rules (``Game.undo_refusal``)."""
        with live.lock:
            if seat is None:
                raise _bad("this link only watches the game: it cannot undo", 403, "web/spectator")
            past = live.history.get(seat)
            if not past:
                raise _bad("cannot undo: no earlier decision of yours since the server started", 409, "web/undo")
            why = live.game.undo_refusal(past[-1], seat)
            if why:
                raise _bad(f"cannot undo: {why}", 409, "web/undo")
            snap = past.pop()
            live.game.restore(snap)
            live.forget()
            for s, snaps in live.history.items():
                snaps[:] = [x for x in snaps if x["state"]["decisions"] < snap["state"]["decisions"] or x is snap]
            self._persist(live)
            live.changed()
            return "undone: back to your previous decision"

    # ------------------------------------------------------------------ what a link receives
    def payload(self, live: LiveGame, seat, role: str = "seat") -> dict:
        """Everything ``seat`` (None: a spectator) may see, as JSON data (see the module)."""
        found = live.cache.get((seat, role))  # built at the last change: no wait for the lock
        if found is not None and found["version"] == live.version:
            return found
        with live.lock:
            found = live.cache.get((seat, role))
            if found is None:
                found = live.cache[(seat, role)] = build_payload(live, seat, role)
            return found

    def log_lines(self, live: LiveGame, seat) -> list:
        """Every log line ``seat`` may read (the payload holds only the last LOG_TAIL)."""
        with live.lock:
            return list(_lines(live, seat)[0])

    def why(self, live: LiveGame, seat, n) -> list[str]:
        """Entry ``n`` of the lines ``seat`` reads and why it happened (``mason explain --entry``)."""
        with live.lock:
            index = _readable(live.game.log, seat)
            if type(n) is not int or not 0 <= n < len(index):
                raise _bad(f"no log line {str(n)[:20]}: lines are numbered 0 to {len(index) - 1}", 404, "web/entry")
            lines = explain_entry(live.game.log, index[n], seat)
            # the log's entry numbers count entries this seat does not read: its own line numbers instead
            number = {i: k for k, i in enumerate(index)}

            def line_of(m) -> str:
                k = number.get(int(m.group(1)))
                return f"line {k}" if k is not None else "an entry you do not see"

            return [re.sub(r"\bentry (\d+)", line_of, text) for text in lines]

    def export(self, live: LiveGame, role: str, fmt: str) -> tuple[str, str]:
        """The game as a save (``save``: JSON) or a log (``log``: JSONL); the host's link, or anyone's at the end
        (a save or a log holds the seed, hence every hidden card)."""
        with live.lock:
            game = live.game
            if role != "host" and not game.over:
                raise _bad(
                    "only the host's link exports a game before its end (it shows every hidden card)", 403, "web/export"
                )
            if fmt == "save":
                return json.dumps(game.to_json()), "application/json"
            if fmt == "log":
                return "".join(json.dumps(e) + "\n" for e in game.log), "application/x-ndjson"
            raise _bad("format must be 'save' or 'log'")

    def import_game(self, text: str, seats) -> dict:
        """A new game from an exported save (JSON) or log (JSONL), each seat ``human`` unless told; its links."""
        data = None
        stripped = text.strip()
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        try:
            with COMPILING:
                game = _imported(data, stripped)
        except SaveError as exc:
            raise _bad(f"cannot import: {exc.message}") from None
        except MasonError as exc:
            raise _bad(f"cannot import: {exc.message}") from None
        if game.answered is None:
            game.answered = game.answers()
        kinds = seats if seats is not None else ["human"] * game.players
        if not isinstance(kinds, list) or len(kinds) != game.players:
            raise _bad(f"'seats' must name one kind per player ({game.players})")
        kinds = [check_kind(k) for k in kinds]
        return self._add(game, kinds)


def _imported(data, text: str) -> Game:
    """The game of an exported save (``data``, its JSON) or log (``text``, JSON lines), replayed and checked."""
    if isinstance(data, dict) and "mason" in data:
        _check_names(data.get("settings"))
        return Game.from_json(data)
    entries = _log_entries(text)
    _check_names(entries[0].get("settings"))
    game, index, why = verify_log(entries)
    if index is not None:
        raise _bad(f"the log does not replay: entry {index}: {why}")
    return game


def _check_names(settings) -> None:
    """A record's game and expansions must be installed ones (an imported file never names a path)."""
    if not isinstance(settings, dict):
        raise _bad("cannot import: no settings")
    game = _installed(settings.get("game"))
    _names(settings.get("with") or [], "expansions", list_expansions(find_game(game)))


def _log_entries(text: str) -> list:
    entries = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError as exc:
            raise _bad(f"cannot import: line {i}: neither a save (JSON) nor a log (JSON lines): {exc}") from None
        if not isinstance(entry, dict):
            raise _bad(f"cannot import: line {i}: a log entry is a JSON object")
        entries.append(entry)
    if not entries or entries[0].get("type") != "start" or not isinstance(entries[0].get("settings"), dict):
        raise _bad("cannot import: a Mason log starts with a 'start' entry holding the settings")
    return entries


def _checked_answer(answer):
    """An answer as data: an option index, an action's letter, or a list of indices; else refused."""
    if type(answer) is int:
        return answer
    if isinstance(answer, str) and 0 < len(answer) <= 8:
        return answer
    if isinstance(answer, list) and len(answer) <= MAX_ANSWER_ITEMS and all(type(a) is int for a in answer):
        return answer
    raise _bad("an answer is an option's index, an action's letter, or a list of indices", 422, "web/answer")


# ---------------------------------------------------------------------------- payloads
def _readable(log: list, seat) -> list[int]:
    """The indices of the entries ``seat`` reads (one of a private line and its public twin)."""
    out = []
    for i, e in enumerate(log):
        to = e.get("to")
        if to is not None and (seat is None or seat not in to):
            continue
        if seat is not None and seat in (e.get("hide_from") or ()):
            continue
        out.append(i)
    return out


def _lines(live: LiveGame, seat) -> tuple[list, int | None]:
    """The narration ``seat`` reads, ``{n, text, round}`` each (``n``: the line's number among the entries it
    reads, for ``why``), and the number of the first line since its last decision (None: none yet).
    Rendered once per entry: only the entries added since the last call are read."""
    log = live.game.log
    mine = live.lines.get(seat)
    if mine is None or len(log) < mine.upto:
        mine = live.lines[seat] = _SeatLines()
    for i in range(mine.upto, len(log)):
        e = log[i]
        to = e.get("to")
        if to is not None and (seat is None or seat not in to):
            continue
        if seat is not None and seat in (e.get("hide_from") or ()):
            continue
        n = mine.n
        mine.n += 1
        if seat is not None and e.get("type") == "decision" and e.get("seat") == seat:
            mine.since = n + 1
        text = render_entry(e)
        if text:
            mine.lines.append({"n": n, "text": text, "round": e.get("round")})
    mine.upto = len(log)
    return mine.lines, mine.since


def option_places(table: dict, labels: list) -> list[list]:
    """For each option, the board places its label names (``[board, place id]`` pairs): a hex cell
    ``q,r``, a ring's place, a pyramid's slot, a wheel's station, a location, a wall's cell. A board
    counts only when it names the places of at least half the options (as the terminal's focus)."""
    out: list[list] = [[] for _ in labels]
    lower = [str(lab).lower() for lab in labels]
    for b in table["boards"]:
        places = _places(b)
        if not places:
            continue
        found: list[list] = [[] for _ in labels]
        for k, lab in enumerate(lower):
            for pid, key in places:
                if re.match(rf"{re.escape(key)}(?![\w,-])", lab):
                    found[k].append([b["name"], pid])
                    break
        if sum(1 for f in found if f) * 2 >= len(labels):
            for k, f in enumerate(found):
                out[k] += f
    return out


def _places(b: dict) -> list[tuple[str, str]]:
    """A board's places as ``(id, the words a label names it by)``."""
    k = b["kind"]
    if k == "hexgrid":
        return [(c["id"], c["id"]) for c in b["cells"]]
    if k == "ring":
        return sorted(((p["id"], p["label"].lower()) for p in b["places"]), key=lambda x: -len(x[1]))
    if k == "pyramid":
        return [(s["id"], s["id"].lower()) for s in b["slots"]]
    if k == "wheel":
        return [(s["id"], s["id"].lower()) for s in b["stations"]]
    if k == "spaces":
        return sorted(((loc["id"], loc["label"].lower()) for loc in b["locations"]), key=lambda x: -len(x[1]))
    if k == "slots":
        return [(c["id"], c["id"].lower()) for lv in b["levels"] for c in lv["cells"] if c]
    return []


def build_payload(live: LiveGame, seat, role: str) -> dict:
    """The payload of ``seat`` (see ``Hub.payload``); the caller holds the game's lock."""
    game = live.game
    view = game.view(seat)
    table = table_model(game.program, view)
    names = game.seat_names()
    lines, since = _lines(live, seat)
    p = game.pending
    decision, waiting = None, None
    if p is not None and not game.over and not live.failed:
        if seat is not None and p["seat"] == seat:
            decision = _decision(game, p, view, table)
        elif isinstance(p["seat"], int):
            waiting = {"seat": p["seat"], "name": names[p["seat"]], "bot": live.bot_seat() is not None}
    result = None
    if game.over and game.result:
        labels = {part.id: part.label for part in getattr(game.program, "score_parts", ())}
        r = game.result
        result = {
            "scores": r["scores"],
            "winners": r["winners"],
            "rounds": r.get("rounds"),
            "parts": [{k: v for k, v in parts.items()} for parts in r["parts"]],
            "labels": {k: labels.get(k, k.replace("_", " ")) for parts in r["parts"] for k in parts},
        }
    history = live.history.get(seat) if seat is not None else None
    return {
        "game": live.gid,
        "title": game.program.name,
        "role": role,
        "seat": seat,
        "names": names,
        "kinds": [live.kinds[s] if s < len(live.kinds) else "automated" for s in range(len(names))],
        "version": live.version,
        "table": table,
        "decision": decision,
        "waiting": waiting,
        "over": game.over,
        "failed": live.failed,
        "result": result,
        "log": lines[-LOG_TAIL:],
        "log_count": len(lines),
        "since": since,
        "can_undo": bool(history),
    }


def _decision(game: Game, p: dict, view: dict, table: dict) -> dict:
    texts = option_texts(p, game.program, game.state, view)
    previews = option_previews(game.rt, p) or [{} for _ in p["labels"]]
    places = option_places(table, p["labels"])
    keys = p.get("keys")
    entries = option_entries(game.rt, p["seat"], p["kind"], p["options"], p["labels"])
    options = []
    for i, label in enumerate(p["labels"]):
        item = {"i": i, "label": label, "text": texts[i], "places": places[i]}
        if "card" in entries[i] and "zone" in entries[i]:  # a card the seat sees where it lies: clickable there
            item["card"] = entries[i]["card"]
        if keys:
            item["key"] = keys[i]
        if i < len(previews) and previews[i].get("preview"):
            item["preview"] = previews[i]["preview"]
        options.append(item)
    return {
        "id": game.state["decisions"],
        "kind": p["kind"],
        "prompt": p["prompt"],
        "subset": p["subset"],
        "options": options,
        "unavailable": [
            {"key": k, "label": lab, "reason": r} for k, lab, r in unavailable_actions(game.rt, keyed=True)
        ],
        "not_offered": not_offered(game),
    }
