"""A one-move bot: tries each legal option on a copy of the state and keeps the best score estimate.

For each option of the pending decision the bot applies it to a copy of the state with the engine's
unchecked resume, runs the copy to the next decision (automated seats play on by their policy) and
scores the position for its seat. When that next decision is the bot's own again (one move asked as
a chain of questions: "which action?", then "which tile?", then "which space?"), the option is worth
the best of that decision's options, looked through the same way, up to ``LOOKAHEAD`` questions deep
and within ``BUDGET`` trials per decision, shared out evenly among the options (so no option is
judged on a deeper search than its rivals); a game whose moves are longer chains may declare its own
limits as the named values ``bot_lookahead`` and ``bot_budget`` (``limits``). Past that, the position
is scored as it stands:

- a finished game: winning beats everything, losing is worse than any unfinished position, and the
  final scores decide within each;
- otherwise the game's named value ``bot_estimate(s)`` when the rule files declare one (higher is
  better for seat ``s``), else the seat's total of the game's score parts minus the best other seat's
  (``scoring.lowest_wins``: the lowest other total minus the seat's own).

A subset decision ("choose up to N") is built one option at a time, adding the option that raises the
estimate most while one does. Ties are broken by the bot's own random stream, kept in the state like
the random bot's (``state["bots"][seat]``, see random_agent.py), so a seeded game replays identically
and a saved one resumes as it would have gone on.

Hidden information: the options are tried on the seat's sample of the state
(``determinize.determinize``: the cards the seat cannot see re-dealt, secret per-seat variables of a
known domain resampled, chance given a new generator drawn from the bot's stream), never on the real
state, so neither the estimate nor the step to the next decision reads what the seat cannot see. One
sample per decision serves every option (the options are compared on the same guess). Secrets the
sampler keeps as they are (a sealed bid, whose domain only the rules know) are the limit of that.
The bot reads the game through ``Game``'s public methods only (``determinized``, ``trial``,
``answer_unchecked``, ``score_totals``, ``value``), never its state.
"""

from __future__ import annotations

import math
import random

from mason.agents.base import Agent
from mason.errors import MasonError, PlayError
from mason.runtime import rng

ESTIMATE = "bot_estimate"
LOOKAHEAD_VALUE, BUDGET_VALUE = "bot_lookahead", "bot_budget"  # a game's own limits, when declared
POINTS_VALUE = "bot_points"  # the estimate's units in a point of score, when the game declares them
BEAM_VALUE = "bot_beam"  # a game's beam width: a turn-level search instead of the depth-first look (``beam``)
LOST, GOING, WON = -1, 0, 1
LOOKAHEAD = 3  # how many of its own follow-up questions an option is looked through
BUDGET = 48  # trials per decision for those follow-ups, shared out evenly among the options


class GreedyAgent(Agent):
    """The one-ply bot (kind ``greedy``): the option whose trial scores best for its seat."""

    name = "greedy"

    def __init__(self, seed=0):
        self.seed = seed
        self.start = rng.seed_state(f"greedy-agent/{seed}")

    def decide(self, game, seat):
        """Try each option on the seat's determinization and keep the best score estimate (ties: the bot's stream)."""
        p = game.pending_unlabelled
        n = len(p["options"])
        streams = game.bot_streams
        box = {"rng": streams.get(str(seat)) or self.start}
        self.figures = {}  # option index -> what the bot made of it (the reason, play/session.py)
        try:
            if n == 1 and not p["subset"]:
                return 0
            base = self._sample(game, seat, box)
            if p["subset"]:
                return self._subset(game, base, seat, p, box)
            keys = [key for key, _ in plans(game, base, seat, n)]
            self.figures = {i: figure(k) for i, k in enumerate(keys)}
            return _pick(range(n), keys, box)
        finally:
            streams[str(seat)] = box["rng"]

    # ---------------------------------------------------------------- the position to try options on
    @staticmethod
    def _sample(game, seat, box):
        """The game the options are tried on: a silent game on the seat's determinization, with a
        generator of its own (so the chance to come is not the real one)."""
        box["rng"], fresh = rng.next_u64(box["rng"])
        return game.determinized(seat, random.Random(fresh))

    def _subset(self, game, base, seat, p, box) -> list:
        chosen: list[int] = []
        current = self._score(game, base, seat, [])
        while len(chosen) < p["subset"]:
            rest = [i for i in range(len(p["options"])) if i not in chosen]
            if not rest:
                break
            keys = [self._score(game, base, seat, chosen + [i]) for i in rest]
            best = max(keys)
            if best <= current:
                break
            chosen.append(_pick(rest, keys, box))
            current = best
        return chosen

    # ---------------------------------------------------------------- one option tried
    def _score(self, game, base, seat, answer, budget=0, depth=1, lookahead=LOOKAHEAD) -> tuple:
        """(won/going/lost, estimate) after ``answer`` on a copy of ``base`` (``search``'s key)."""
        return search(game, base, seat, answer, budget, depth, lookahead)[0]


def limits(game, seat: int) -> tuple[int, int]:
    """The look-ahead (questions deep) and the budget (trials a decision) of greedy's search in
    ``game``: the game's named values ``bot_lookahead`` and ``bot_budget`` when its rule files declare
    them (whole numbers from 1, e.g. ``bot_lookahead: "4"``), else ``LOOKAHEAD`` and ``BUDGET``."""
    return bot_limit(game, seat, LOOKAHEAD_VALUE, LOOKAHEAD), bot_limit(game, seat, BUDGET_VALUE, BUDGET)


def beam_width(game, seat: int) -> int:
    """The width of greedy's turn-level beam search in ``game``: the game's named value ``bot_beam``
    (a whole number from 0), or 0 when the game declares none; 0 is the depth-first look of ``search``."""
    return bot_limit(game, seat, BEAM_VALUE, 0, least=0)


def bot_limit(game, seat: int, name: str, default: int, least: int = 1) -> int:
    """The game's named value ``name`` for ``seat``, a whole number from ``least`` (a bad one is a
    one-line ``play/bot-limit`` error at its place), or ``default`` when the game declares none: how the
    bots read the limits a game may set (greedy's look, budget and beam, mcts's rollout cap)."""
    values = game.program.values
    if name not in values:
        return default
    v = game.value(name, seat)
    if isinstance(v, bool) or not isinstance(v, int) or v < least:
        raise PlayError(f"{name} must be a whole number from {least}, not {v!r}", values[name].place, "play/bot-limit")
    return v


def plans(game, base, seat: int, n: int) -> list[tuple[tuple, list]]:
    """Greedy's judgement of each of the ``n`` options of ``base``'s pending decision, as ``search``
    gives it for one: ``(key, follow-up answers)`` by option. The game's limits (``limits``) and, when
    it declares ``bot_beam``, the turn-level beam search (``beam``) instead of the depth-first look."""
    lookahead, budget = limits(game, seat)
    width = beam_width(game, seat)
    if width:
        return beam(game, base, seat, n, width, lookahead)
    share = max(0, budget - n) // n
    return [search(game, base, seat, i, share, lookahead=lookahead) for i in range(n)]


def beam(game, base, seat: int, n: int, width: int, lookahead: int) -> list[tuple[tuple, list]]:
    """A beam search over the seat's own questions until its turn ends: ``plans``'s answer when the
    game declares ``bot_beam`` (``width``).

    Every option of ``base``'s decision is tried; a trial whose next question is the seat's own again,
    in the same round, and not a subset, is a partial plan to go on with. Level by level, the ``width``
    partial plans with the best estimate (among equals, those whose last answer was an earlier option
    first, then in the order they were made; a position another plan reached already is passed over)
    are expanded, every option of their question tried. The plans that end are scored: another seat
    (or the end of the game, or a new round, or a subset question) is next; so are, as they stand, the
    plans cut short: not kept, reached already, or at ``lookahead`` questions with a choice. A question
    of the seat's own with one option is answered on the way, without a level. An option is worth the
    best plan that starts with it and ended; an option with none is worth its best plan cut short, put
    below every option with a plan that ended (a cut plan is scored mid-turn, an ended one after the
    turn: an estimate that drops at the turn's end would make pruned plans win). With a width at least
    the number of plans it is much like ``search`` without a budget, which stops at a one-option
    question instead."""
    first_round = base.round
    best: list = [None] * n
    seen: set = set()

    def record(root, key, path, ended=False):
        # a plan that ended (the turn, the round or the game) ranks above one cut short (``ended`` False:
        # pruned, reached again, at the look-ahead's limit, or a rule error), whatever their estimates
        if best[root] is None or (ended, key) > (best[root][2], best[root][0]):
            best[root] = (key, path, ended)

    def visit(parent, answer, root, path, depth):
        """Try ``answer`` on a copy of ``parent``; record the plan, or return it to go on with."""
        try:
            trial = parent.trial()
            trial.answer_unchecked(answer)  # the answer is one of the offered options
            while True:
                if trial.over:
                    r = trial.result
                    record(
                        root,
                        (WON if seat in r["winners"] else LOST, _margin(game.program, r["scores"], seat)),
                        path,
                        True,
                    )
                    return None
                q = trial.pending_unlabelled
                if not q or q["seat"] != seat or q["subset"] or trial.round != first_round:
                    break
                if len(q["options"]) != 1:
                    break
                path = path + [(q["kind"], q["options"][0])]
                trial.answer_unchecked(0)
        except MasonError:
            record(root, (LOST - 1, 0), path)
            return None
        key = (GOING, estimate(trial, seat))
        going_on = q and q["seat"] == seat and not q["subset"] and trial.round == first_round
        if going_on and depth < lookahead:
            return (key, root, path, trial, q, answer)
        record(root, key, path, not going_on)
        return None

    depth = 1  # the questions answered with a choice: the same for every plan of a level
    frontier = [x for i in range(n) if (x := visit(base, i, i, [], depth)) is not None]
    while frontier:
        # best first; among equals, the first answer of every plan before the second of any (the plans
        # made in order, a stable sort), so that equal estimates do not fill the beam with one plan's kin
        frontier.sort(key=lambda x: (-x[0][0], -x[0][1], x[5]))
        kept: list = []
        for x in frontier:
            if len(kept) < width:
                here = x[3].position()
                if here not in seen:  # (else another order of the same answers goes on from there)
                    seen.add(here)
                    kept.append(x)
                    continue
            record(x[1], x[0], x[2])
        nxt = []
        for _, root, path, trial, q, _ in kept:
            for j, option in enumerate(q["options"]):
                x = visit(trial, j, root, path + [(q["kind"], option)], depth + 1)
                if x is not None:
                    nxt.append(x)
        frontier, depth = nxt, depth + 1
    ended = [b[0] for b in best if b is not None and b[2]]
    floor = min(ended) if ended else None
    out: list[tuple[tuple, list]] = []
    for b in best:
        if b is None:
            out.append(((LOST - 1, 0), []))
        elif b[2] or floor is None or b[0] < floor:
            out.append((b[0], b[1]))
        else:  # only cut short: below every option with a plan that ended
            out.append(((floor[0], math.nextafter(float(floor[1]), -math.inf)), b[1]))
    return out


def points_scale(game, seat: int) -> float:
    """How many units of the game's ``bot_estimate`` make one point of score: its named value
    ``bot_points`` when its rule files declare it (a number above 0; e.g. 10 for an estimate counted
    in tenths of a point), else 1. A search that weighs finished games (their margin in points) against
    unfinished ones (their estimate) puts both on the estimate's scale with it."""
    values = game.program.values
    if POINTS_VALUE not in values:
        return 1.0
    v = game.value(POINTS_VALUE, seat)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
        raise PlayError(
            f"{POINTS_VALUE} must be a number above 0, not {v!r}", values[POINTS_VALUE].place, "play/bot-limit"
        )
    return float(v)


def search(game, base, seat: int, answer, budget=0, depth=1, lookahead=LOOKAHEAD) -> tuple[tuple, list]:
    """The greedy bot's judgement of ``answer`` on a copy of ``base``: its score key (won/going/lost,
    estimate; a rule error ranks last) and the follow-up answers it found best for the seat's own next
    questions, as ``(kind, option)`` pairs (the mcts bot plays them in its rollouts).

    When the seat itself is asked next, the best of that question's options (the first of equals),
    each given an even share of ``budget`` trials, while ``depth`` stays within ``lookahead``."""
    try:
        trial = base.trial()
        trial.answer_unchecked(answer)  # the answer is one of the offered options
        if trial.over:
            r = trial.result
            return (WON if seat in r["winners"] else LOST, _margin(game.program, r["scores"], seat)), []
    except MasonError:
        return (LOST - 1, 0), []
    q = trial.pending_unlabelled
    m = len(q["options"]) if q else 0
    if q and q["seat"] == seat and not q["subset"] and depth < lookahead and 1 < m <= budget:
        share = (budget - m) // m
        best: tuple = ((), [])
        for i in range(m):
            key, path = search(game, trial, seat, i, share, depth + 1, lookahead)
            if i == 0 or key > best[0]:
                best = (key, [(q["kind"], q["options"][i])] + path)
        return best
    return (GOING, estimate(trial, seat)), []


def figure(key: tuple) -> dict:
    """An option's score key in the reason's terms: the estimate, and the outcome when the trial ended the game."""
    state, value = key
    out: dict[str, object] = {"estimate": round(float(value), 3)}
    if state != GOING:
        out["outcome"] = {WON: "wins", LOST: "loses"}.get(state, "rule error")
    return out


def estimate(game, seat: int) -> float:
    """The score estimate of ``seat`` in an unfinished game (see the module docstring)."""
    prog = game.program
    if ESTIMATE in prog.values:
        v = game.value(ESTIMATE, seat)
        return float(v) if isinstance(v, (int, float)) else 0.0
    return _margin(prog, game.score_totals(), seat)


def _margin(prog, totals, seat) -> float:
    others = [t for s, t in enumerate(totals) if s != seat]
    if not others:
        return -totals[seat] if prog.lowest_wins else totals[seat]
    if prog.lowest_wins:
        return min(others) - totals[seat]
    return totals[seat] - max(others)


def _pick(items, keys, box):
    """The item with the highest key; among equal ones, one drawn from the bot's stream."""
    items = list(items)
    best = max(keys)
    tied = [x for x, k in zip(items, keys) if k == best]
    return tied[0] if len(tied) == 1 else tied[rng.below(box, len(tied))]
