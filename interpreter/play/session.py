"""Running games with agents: one game (play), many bot games (simulate), and log replay."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from mason.agents import BOT_KINDS, SEAT_KINDS  # noqa: F401  (re-exported)
from mason.agents.random_agent import RandomAgent
from mason.errors import IllegalAction, MasonError, RoundCapReached, SaveError
from mason.runtime.frames import Asking
from mason.runtime.state import names_at
from mason.session.game import Game, Settings, load_program, resolved_fast


def make_bot(kind: str, seed, seat: int):
    """The bot of ``kind`` for ``seat``: ``random``, ``greedy``, or ``mcts``, ``mcts:N`` (N iterations per
    decision), ``mcts:N:dD`` (rollouts of D decisions), ``mcts:N:Ts`` (and at most T seconds; see
    agents/mcts.py). A bad kind: a one-line MasonError."""
    if kind == "random":
        return RandomAgent(f"{seed}/{seat}")
    if kind == "greedy":
        from mason.agents.greedy import GreedyAgent

        return GreedyAgent(f"{seed}/{seat}")
    from mason.agents.mcts import MctsAgent, parse_kind

    budget = parse_kind(kind)
    if budget is not None:
        return MctsAgent(f"{seed}/{seat}", iterations=budget[0], seconds=budget[1], depth=budget[2])
    raise MasonError(
        f"unknown bot kind '{kind}' (known: {', '.join(BOT_KINDS)}; mcts:N, mcts:N:dD, mcts:N:Ts)", code="play/bot"
    )


def play_game(game: Game, agents: dict, on_answer=None, max_decisions: int = 1_000_000, in_place: bool = True) -> Game:
    """Ask agents until the game ends. ``agents`` maps seat -> Agent.

    Bots with ``Agent.blind_pick`` are asked in place (the rules do not pause for them, runtime/answers.py)
    when ``in_place`` and the game neither narrates nor has an ``on_answer`` to call after each answer;
    the game ends in the same state either way."""
    rt = game.rt
    if in_place and on_answer is None and not game.narrate:
        picks = {s: a.blind_pick for s, a in agents.items() if getattr(a, "blind_pick", None) is not None}
        if picks:
            rt.answerers = picks
            rt.direct = all(s in picks for s in range(game.state["n"]))  # nothing can pause: no frames needed
            rt.decision_base = game.state["decisions"]
            rt.decision_cap = rt.decision_base + max_decisions
    try:
        count = 0
        while not game.over:
            pending = game.state["pending"]  # labels are left to the agents that read them
            if pending is None:
                raise MasonError("the game stopped without a decision and without ending", code="play/internal")
            agent = agents[pending["seat"]]
            answer = agent.decide(game, pending["seat"])
            if game.narrate and getattr(agent, "figures", None) is not None:
                log_bot_reason(game, agent.name, answer, agent.figures)
            game.answer(answer)
            count += 1
            if on_answer:
                on_answer(game)
            done = game.state["decisions"] - rt.decision_base if rt.answerers else count  # (with those in place)
            if done > max_decisions:
                raise MasonError(f"no end after {max_decisions} decisions", code="play/loop")
    finally:
        rt.answerers = None
        rt.direct = False
    return game


def log_bot_reason(game: Game, kind: str, answer, figures: dict) -> None:
    """Log, before a bot's answer to the pending decision, its ``reason`` in one line (runtime/reasons.py):
    the question, the answer and the top options with the bot's figures. The bot's own seat reads it
    whole. The others read a twin that names only the answer, when they may know it by its label (not a
    card in a hand, an ability of one, a secret choice's answer), with its figure and how the other
    options fared, uncounted by name: which options a seat is offered is its own (the decision entry's
    ``to``). ``mason replay`` takes these entries from the log (a bot's thinking is not the rules'), so a
    log replays with or without them."""
    from mason.runtime.reasons import bot_reason, public_bot_reason

    p = game.pending
    assert p is not None  # the bot is answering it
    seat, labels = p["seat"], p["labels"]
    name = game.seat_names()[seat]
    public = _public_labels(game, p)
    chosen = answer if isinstance(answer, list) else [answer]
    base = {"type": "reason", "by": kind, "seat": seat, "prompt": p["prompt"], "round": game.state["round"]}
    base.update({"at": game._asked_at(p), "because": []})
    full = dict(base, text=bot_reason(name, kind, p["prompt"], labels, answer, figures), to=[seat])
    full["figures"] = [dict(option=labels[i], **f) for i, f in sorted(figures.items())]
    known = all(public[i] for i in chosen)
    text = public_bot_reason(name, kind, p["prompt"], labels if known else None, answer, figures)
    twin = dict(base, text=text, hide_from=[seat])
    if known:
        twin["figures"] = [dict(option=labels[i], **figures[i]) for i in chosen if i in figures]
    game.log += [full, twin]


def _public_labels(game: Game, p: dict) -> list[bool]:
    """Whether every seat may know each option of the pending decision by its label."""
    from mason.runtime.choices import _card_viewers
    from mason.runtime.turns import _find

    rt, n = game.rt, len(p["options"])
    fr: Asking = rt.st["stack"][-1]
    if fr["kind"] == "choice" and getattr(rt.nodes[fr["node"]], "secret", False):
        return [False] * n
    if fr["kind"] == "turn":  # an ability of a card: public when the card is
        cards = [_find(rt, k)[1] if k != "end" else None for k in p["options"]]
        return [c is None or _card_viewers(rt, [c]) is None for c in cards]
    if p["kind"] == "card":
        return [o is None or _card_viewers(rt, [o]) is None for o in p["options"]]
    return [True] * n


def write_log(game: Game, path) -> None:
    """Write the log as JSON lines, atomically (an interrupted write leaves the previous file whole)."""
    from mason.session.saves import write_atomic

    try:
        write_atomic(path, "".join(json.dumps(e, sort_keys=True) + "\n" for e in game.log))
    except OSError as exc:
        raise MasonError(f"{path}: cannot write the log: {exc.strerror or exc}", code="play/log") from None


# ------------------------------------------------------------------------- simulate
def simulate_one(settings: Settings, bots: str, coverage: bool = False, seat_bots: dict | None = None) -> dict:
    """One bot game; ``seat_bots`` (seat from 0 -> kind) overrides ``bots`` for some seats."""
    t = time.perf_counter()
    out: dict[str, Any] = {"seed": settings.seed}
    game = None
    try:
        game = Game.new(settings, narrate=False)
        if coverage:
            game.rt.stats = {}
        # agents for the players' seats only: the automated seats (after them) follow their policy
        agents = {s: make_bot((seat_bots or {}).get(s, bots), settings.seed, s) for s in range(settings.players)}
        play_game(game, agents)
        r = game.result
        assert r is not None  # played to its end
        out.update(
            {
                "scores": r["scores"],
                "winners": r["winners"],
                "rounds": r["rounds"],
                "decisions": game.state["decisions"],
                "parts": r["parts"],
            }
        )
        if coverage:
            out["coverage"] = game.rt.stats
    except RoundCapReached as exc:  # the rules never ended it: a stalled game, not a broken one
        stopped = exc.game if exc.game is not None else game
        out["stalled"] = f"{exc.place}: {exc.message}" if exc.place else exc.message
        out["rounds"] = stopped.state["round"] if stopped is not None else None
    except MasonError as exc:
        out["error"] = exc.line()
    except Exception as exc:  # a bug in Mason itself: report it, with where, and go on
        import traceback  # only for Mason's own bugs: not imported at every start

        tb = traceback.extract_tb(exc.__traceback__)[-1]
        out["error"] = f"internal error {type(exc).__name__}: {exc} ({Path(tb.filename).name}:{tb.lineno})"
    out["seconds"] = round(time.perf_counter() - t, 4)
    return out


_KEPT = ("seed", "scores", "winners", "rounds", "decisions", "coverage", "error", "stalled")


def _simulate_job(job) -> dict:
    """In a worker: one game, ``job`` = (settings, bots, coverage, seat_bots); only what the report uses."""
    out = simulate_one(*job)
    return {k: out[k] for k in _KEPT if k in out}


def _compile_programs(keys) -> None:
    """Pool initializer: compile each (game, variants, expansions, fast) once in this worker process."""
    for game, variants, expansions, fast in keys:
        try:
            load_program(game, variants, expansions, fast)
        except MasonError:
            pass  # each game then reports the error itself


def simulate(
    base: Settings,
    games: int,
    bots: str = "random",
    workers: int = 1,
    coverage: bool = False,
    player_counts: tuple = (),
    seat_bots: dict | None = None,
    ray: str | bool | None = None,
    on_done=None,
) -> dict:
    """Play ``games`` bot games with seeds base.seed, base.seed+1, ...; return the report dict.

    ``seat_bots`` maps some seats (from 0) to another bot kind than ``bots`` (``--bot SEAT=KIND``).

    With ``player_counts`` (mixed player counts), game ``i`` is played by ``player_counts[i % len]``
    players instead of ``base.players``.

    ``workers`` > 1 plays on that many processes, ``ray`` (True or an address) as Ray tasks (see
    :func:`mason.play.parallel.map_games`); the report is the same either way, but for ``seconds``.
    ``on_done(n)`` is called as games finish (a progress bar).
    """
    from mason.play.parallel import map_games

    seed0 = int(base.seed)
    counts = tuple(player_counts) or (base.players,)
    fast = resolved_fast(base)  # here, not in each worker: a Ray task's environment may differ
    all_settings = [
        Settings(base.game, counts[i % len(counts)], seed0 + i, base.variants, base.expansions, base.options, fast)
        for i in range(games)
    ]
    t = time.perf_counter()
    jobs = [(s, bots, coverage, seat_bots) for s in all_settings]
    keys = ((base.game, tuple(base.variants), tuple(base.expansions), fast),)
    if workers > 1 and not ray:  # compiled here, once: forked workers start with it (and the report needs it)
        _compile_programs(keys)
    results = map_games(
        _simulate_job, jobs, workers=workers, ray=ray, initializer=_compile_programs, initargs=(keys,), on_done=on_done
    )
    seconds = time.perf_counter() - t
    errors = [{"seed": r["seed"], "message": r["error"]} for r in results if "error" in r]
    stalled = [{"seed": r["seed"], "rounds": r["rounds"], "message": r["stalled"]} for r in results if "stalled" in r]
    done = [r for r in results if "error" not in r and "stalled" not in r]
    report = {
        "settings": {**base.to_json(), "seed": seed0, "bots": bots},
        "games": games,
        "completed": len(done),
        "errors": errors,
        "stalled": stalled,
        "decisions": sum(r["decisions"] for r in done),
        "seconds": round(seconds, 3),
        "results": [{k: r[k] for k in ("seed", "scores", "winners", "rounds", "decisions")} for r in done],
        "stats": _stats(done),
    }
    if len(counts) == 1:  # seats include the automated ones, named as in the game
        report["seat_names"] = names_at(load_program(base.game, base.variants, base.expansions), counts[0])
    if player_counts:
        report["settings"]["player_counts"] = list(counts)
    if seat_bots:  # seats numbered from 1, as on the command line
        report["settings"]["seat_bots"] = {str(s + 1): k for s, k in sorted(seat_bots.items())}
    if coverage:
        report["coverage"] = _merge_coverage(done)
    return report


def _stats(done: list) -> dict:
    """Per-seat rates cover every seat, automated ones included (mixed counts: seats of the largest)."""
    if not done:
        return {}
    n = len(done)
    seats = max(len(r["scores"]) for r in done)
    wins = [0.0] * seats
    for r in done:
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
    scores = [s for r in done for s in r["scores"]]
    seated = [[r for r in done if len(r["scores"]) > s] or [None] for s in range(seats)]  # mixed counts
    return {
        "win_rate_by_seat": [round(wins[s] / len(seated[s]), 4) for s in range(seats)],
        "mean_score_by_seat": [
            round(sum(r["scores"][s] for r in seated[s] if r) / len(seated[s]), 3) for s in range(seats)
        ],
        "score_min": min(scores),
        "score_max": max(scores),
        "mean_rounds": round(sum(r["rounds"] for r in done) / n, 3),
        "min_rounds": min(r["rounds"] for r in done),
        "max_rounds": max(r["rounds"] for r in done),
        "mean_decisions": round(sum(r["decisions"] for r in done) / n, 3),
        "decisions_per_second": None,
    }


def _merge_coverage(done: list) -> dict:
    total: dict = {}
    for r in done:
        for k, v in (r.get("coverage") or {}).items():
            total[k] = total.get(k, 0) + v
    return total


# ------------------------------------------------------------------------- replay
class LogEntries(list):
    """The entries of a log file; ``lines[i]`` is the file line of entry ``i``."""

    lines: list[int]


def read_log(path) -> LogEntries:
    """The entries of a JSONL log with their line numbers; a line that is not JSON is a SaveError."""
    entries = LogEntries()
    entries.lines = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a text file") from None
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SaveError(f"{path}:{i}:{exc.colno}: not a JSON line: {exc.msg}") from None
        if not isinstance(entry, dict):
            raise SaveError(f"{path}:{i}:1: a log entry is a JSON object")
        if "\\u" in line:
            from mason.session.saves import lone_surrogate

            where = lone_surrogate(line)
            if where is not None:
                raise SaveError(
                    f"{path}:{i}:{where[1]}: a log entry's string holds half a character (a lone \\u escape)"
                )
        entries.append(entry)
        entries.lines.append(i)
    if not entries or entries[0].get("type") != "start" or not isinstance(entries[0].get("settings"), dict):
        raise SaveError(f"{path}:1:1: a Mason log starts with a 'start' entry holding the settings")
    from mason.session.saves import log_entry_problem  # (not imported by bot games)

    problem = log_entry_problem(entries[0])  # the settings drive everything after: checked as data first
    if problem:
        raise SaveError(f"{path}:{entries.lines[0]}:1: the log's start entry is damaged: {problem}")
    return entries


def replay(entries: list[dict]) -> tuple[Game, int | None]:
    """Re-run a log's settings and answers; return (game, index of the first differing entry or None)."""
    game, index, _ = verify_log(entries)
    return game, index


def verify_log(entries: list[dict]) -> tuple[Game, int | None, str | None]:
    """Re-run a log and compare it entry by entry as the game goes.

    Returns (game, index of the first entry that differs or cannot be replayed, the reason), with
    index and reason None when the replay reproduces the log exactly. A log that ends with an
    ``error`` entry (the game stopped there) replays when the same error stops the replay.
    """
    settings = Settings.from_json(entries[0]["settings"])
    try:
        game = Game.new(settings, recorded=True)
    except MasonError as exc:
        game = exc.game  # the game as it stood, when it had begun
        if game is None:
            raise
        game.record_error(exc)
    from mason.session.saves import (  # (not imported by bot games)
        bot_reason_entry,
        bot_reason_problem,
        last_rules_change,
        same_json,
    )

    now = game.log[0].get("rules") if game.log else None
    changed = last_rules_change(entries)  # the game went on under changed rules (--rules-changed)
    logged_rules = entries[0].get("rules") if changed is None else entries[changed].get("rules")
    if logged_rules is not None and now is not None and logged_rules != now:
        return (
            game,
            0 if changed is None else changed,
            (
                f"the rules differ from those the log was written with (rules hash {logged_rules}, "
                f"now {now}): a rule file, expansion or variant changed"
            ),
        )
    decisions = [(i, e) for i, e in enumerate(entries) if e.get("type") == "decision"]
    if changed is not None:  # replayed from the state the game went on from, with the answers after it
        try:
            game = Game._from_rules_change(
                game.program,
                settings,
                json.loads(json.dumps(entries[changed].get("state"))),
                json.loads(json.dumps(entries[: changed + 1])),
            )
        except MasonError as exc:
            return game, changed, exc.message
        decisions = [(i, e) for i, e in decisions if i > changed]
    checked = 0
    stopped = bool(game.log) and game.log[-1].get("type") == "error"

    def first_difference():
        nonlocal checked
        produced = game.log
        for i in range(checked, min(len(produced), len(entries))):
            if not same_json(produced[i], entries[i]):
                return i, "replay differs from the log: " + _difference(entries[i], json.loads(json.dumps(produced[i])))
        checked = min(len(produced), len(entries))
        return None

    for k, (i, e) in enumerate(decisions):
        found = first_difference()
        if found:
            return game, *found
        if game.over or stopped:
            break
        pending = game.pending
        assert pending is not None  # the game runs on: a decision waits
        while len(game.log) < i and bot_reason_entry(entries[len(game.log)]):
            problem = bot_reason_problem(entries[len(game.log)], game)
            if problem:
                return game, len(game.log), f"the log is damaged: {problem}"
            game.log.append(entries[len(game.log)])  # a bot's reason: from the log, not from the rules
        if "answer" not in e:
            return game, i, f"decision {k + 1} has no answer"
        try:
            game.answer(e["answer"])
        except IllegalAction as exc:
            return (
                game,
                i,
                (
                    f"decision {k + 1} ({_seat(pending)}: {pending['prompt']}) cannot be replayed: "
                    f"answer {json.dumps(e['answer'])}: {exc.message}"
                ),
            )
        except MasonError as exc:  # the rules stopped the game: the log ends with the same error
            game.record_error(exc)
            stopped = True
    found = first_difference()
    if found:
        return game, *found
    produced = game.log
    if len(produced) < len(entries):
        return (
            game,
            len(produced),
            (
                f"the log goes on for {len(entries) - len(produced)} entries "
                f"after the replay {'ended' if game.over or stopped else 'ran out of answers'}"
            ),
        )
    if len(produced) > len(entries):
        return (
            game,
            len(entries),
            (
                f"the log stops here but the replay goes on "
                f"({'the game is not over' if not game.over else 'to the end'})"
            ),
        )
    return game, None, None


def _seat(pending) -> str:
    return f"P{pending['seat'] + 1}" if pending and pending.get("seat") is not None else "nobody"


def _difference(logged: dict, produced: dict) -> str:
    from mason.session.saves import same_json

    def short(v):
        text = json.dumps(v, sort_keys=True)
        return text if len(text) <= 60 else text[:57] + "..."

    for key in sorted(set(logged) | set(produced)):
        if key not in logged or key not in produced or not same_json(logged[key], produced[key]):
            if key not in produced:
                return f"the log has {key} {short(logged[key])}, the replay has none"
            if key not in logged:
                return f"the replay has {key} {short(produced[key])}, the log has none"
            return f"the log has {key} {short(logged[key])}, the replay gives {short(produced[key])}"
    return "the entries differ"
