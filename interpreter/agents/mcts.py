"""A Monte Carlo search bot (``mcts``) guided by the greedy bot's estimate, generic over every game.

Kind strings (parsed by ``parse_kind`` in agents/kinds.py, for ``make_bot`` and the seat-kind checks):

- ``mcts``: the default budget of ``DEFAULT_ITERATIONS`` iterations (rollouts) per decision;
- ``mcts:N``: ``N`` rollouts per decision (``N`` from 1 to ``MAX_ITERATIONS``);
- ``mcts:N:dD``: ``N`` rollouts, each truncated after ``D`` decisions (default: the game's named value
  ``bot_rollout_depth`` when it declares one, else ``4 x seats``, a cap meant to be seldom reached: a rollout
  ends at the seat's next turn, in a solo game at the next round);
- ``mcts:N:Ts`` (or ``mcts:N:dD:Ts``): at most ``N`` rollouts and at most ``T`` seconds of wall clock
  per decision (``mcts:500:0.05s``). A time limit makes the games depend on the machine's speed and load: the
  same seed may then play differently. The rollout budget alone is reproducible.

The search, for one decision of the bot's seat:

1. **Priors.** On one sample of what the seat knows (``Game.information_set``: the hidden cards first
   put in a canonical order, then re-dealt; secret per-seat variables of a known domain resampled;
   chance given a generator of the sample's own), every option is scored exactly as the greedy bot
   scores it (``greedy``: the estimate after the option, looking through the seat's own follow-up
   questions within greedy's budget). An option that wins the game outright is answered at once.
2. **Candidates.** The ``WIDTH`` options greedy rates best are kept (options that lose the game or
   break a rule are dropped while others remain); when one is left it is the answer.
3. **Rollouts.** The candidates are compared by sequential halving (Karnin, Koren and Somekh, 2013):
   the budget is split into rounds; in each round every remaining candidate is played on the SAME
   fresh samples with the SAME rollout generator (common random numbers: the candidates meet the same
   deal and the same opponents' moves, so their difference is not drowned in the noise of the deal),
   and the worse half (rounded down) is dropped after each round but the last. A rollout answers the
   candidate, then plays on: the seat's own follow-up questions by the answers greedy found for them
   in step 1 (its chain), then by a cheap greedy policy (each option tried one step, the best estimate
   kept; at most ``ROLLOUT_OPTIONS`` options looked at, drawn when there are more; a step of the chain
   that the sample does not offer, a card drawn from a hidden deck say, is answered by it too, and the
   chain goes on); the other seats' questions at random (automated seats by their policy, as in every
   game). It stops when the seat is asked again after another seat has answered (one lap of the
   table; in a solo game, where no other seat answers, when it is asked in a new round: the round
   played, the automated seats' turns in it too), or after ``depth`` decisions, and the position is
   scored with ``greedy.estimate`` (a finished game: the final margin, plus one half for a win, minus
   one half for a loss). A rollout that meets a rule error is left out of the means.
4. **Answer.** The candidate with the best mean rollout score over all its rollouts among those that
   survived to the last round (ties: greedy's order).

So mcts is greedy's judgement checked against what the table may do in the next lap, over several
deals: it never considers an option greedy rates outside its best ``WIDTH``. A subset decision
("choose up to N") is answered as the greedy bot answers it (one option at a time, while the estimate
rises, on one sample).

Reproducibility: every random draw of a decision comes from one generator seeded from the bot's own
stream, kept in the state like the random and greedy bots' (``state["bots"][seat]``), advanced once
per decision; so a seeded game replays identically and a saved game resumes as it would have gone on.
"""

from __future__ import annotations

import json
import math
import random
import time

from mason.agents import greedy
from mason.agents.base import Agent
from mason.agents.kinds import DEFAULT_ITERATIONS, KIND, MAX_DEPTH, MAX_ITERATIONS, parse_kind  # noqa: F401
from mason.errors import MasonError
from mason.runtime import rng

DEFAULT_DEPTH = None  # None: the game's bot_rollout_depth, else 4 x seats decisions (``rollout_depth``)
DEPTH_VALUE = "bot_rollout_depth"  # a game's own cap on a rollout's decisions, when declared
WIDTH = 4  # how many of greedy's best options the rollouts compare
ROLLOUT_OPTIONS = 4  # at most this many options tried by the seat's own rollout policy


class MctsAgent(Agent):
    """The greedy-guided Monte Carlo search bot (kind ``mcts``, see the module docstring)."""

    name = "mcts"

    def __init__(
        self,
        seed=0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        depth: int | None = DEFAULT_DEPTH,
        width: int = WIDTH,
    ):
        self.seed = seed
        self.start = rng.seed_state(f"mcts-agent/{seed}")
        self.iterations, self.seconds, self.depth, self.width = iterations, seconds, depth, width

    def decide(self, game, seat):
        """Score the options greedily, then compare greedy's best few by rollouts; a subset is answered greedily."""
        p = game.pending_unlabelled
        streams = game.bot_streams
        box = {"rng": streams.get(str(seat)) or self.start}
        self.figures = {}  # option index -> its rollouts and mean score (the reason, play/session.py)
        try:
            if len(p["options"]) == 1 and not p["subset"]:
                return 0
            if p["subset"]:
                helper = greedy.GreedyAgent()
                base = helper._sample(game, seat, box)
                return helper._subset(game, base, seat, p, box)
            box["rng"], fresh = rng.next_u64(box["rng"])
            return self._search(game, seat, p, random.Random(fresh))
        finally:
            streams[str(seat)] = box["rng"]

    # ---------------------------------------------------------------- the search
    def _search(self, game, seat, p, rnd) -> int:
        info = game.information_set(seat)
        order, keys, paths = self.priors(game, info, seat, p, rnd)
        if keys[order[0]][0] == greedy.WON:
            return order[0]
        alive = [i for i in order if keys[i][0] >= greedy.GOING] or order
        candidates = alive[: max(1, self.width)]
        if len(candidates) == 1:
            return candidates[0]
        rank = {i: r for r, i in enumerate(order)}
        option_keys = {_key(p["kind"], p["options"][i]): i for i in candidates}
        depth = self.depth if self.depth is not None else rollout_depth(game, seat)
        solo = game.players == 1
        totals = {i: 0.0 for i in candidates}
        counts = {i: 0 for i in candidates}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        budget, remaining = self.iterations, list(candidates)
        for r in range(rounds):
            per = max(1, budget // ((rounds - r) * len(remaining)))
            for _ in range(per):
                if budget <= 0 or (deadline is not None and time.perf_counter() >= deadline):
                    break
                sample = info.sample(rnd)
                seed = rnd.getrandbits(64)
                offered = _offered(sample, p["kind"], option_keys)
                for i in remaining:
                    if i not in offered or budget <= 0:
                        continue
                    value = _rollout(sample, seat, offered[i], paths[i], random.Random(seed), depth, solo)
                    budget -= 1
                    if value is not None:
                        totals[i] += value
                        counts[i] += 1
            if r < rounds - 1:  # the better half (rounded up) goes on to the next round
                remaining.sort(key=lambda i: (-_mean(totals, counts, i), rank[i]))
                remaining = remaining[: (len(remaining) + 1) // 2]
        for i in candidates:
            self.figures[i] = {"visits": counts[i], "mean": round(_mean(totals, counts, i), 3) if counts[i] else 0.0}
        return min(remaining, key=lambda i: (-_mean(totals, counts, i), rank[i]))

    @staticmethod
    def priors(game, info, seat, p, rnd) -> tuple[list, list, list]:
        """The options in greedy's order (best first; ties in option order), greedy's score key of every
        option on one sample of the information set, and the follow-up answers greedy found for each."""
        base = info.sample(rnd)
        n = len(p["options"])
        scored = greedy.plans(game, base, seat, n)
        keys = [k for k, _ in scored]
        order = sorted(range(n), key=lambda i: keys[i], reverse=True)
        return order, keys, [path for _, path in scored]


def rollout_depth(game, seat: int) -> int:
    """The decisions a rollout may play at most when the kind names none (``mcts:N:dD``): the game's
    named value ``bot_rollout_depth`` (a whole number from 1) when its rule files declare one, for games whose
    lap of the table is longer than the default, else 4 decisions a seat."""
    return greedy.bot_limit(game, seat, DEPTH_VALUE, 4 * game.seat_count)


def _mean(totals, counts, i) -> float:
    return totals[i] / counts[i] if counts[i] else -math.inf


def _key(kind, option):
    if isinstance(option, (int, str, float, bool)) or option is None:
        return (kind, option)
    return (kind, json.dumps(option, sort_keys=True))


def _offered(sample, kind, option_keys) -> dict:
    """Candidate index -> the index of the same option in the sample's decision (a sample may offer
    other options than the real game; those it does not offer are left out)."""
    q = sample.pending_unlabelled
    out = {}
    for j, o in enumerate(q["options"]):
        i = option_keys.get(_key(kind, o))
        if i is not None:
            out[i] = j
    return out


def _rollout(sample, seat, answer, path, rnd, depth, solo) -> float | None:
    """The estimate for ``seat`` after ``answer`` on a copy of ``sample`` and a lap of play (see the
    module docstring); None when a rule error ends the rollout."""
    trial = sample.trial()
    first_round = sample.round
    try:
        trial.answer_unchecked(answer)  # the answer is one of the offered options
        steps, others, chain = 1, False, 0
        while not trial.over and steps < depth:
            q = trial.pending_unlabelled
            if q is None:
                break
            if q["seat"] == seat:
                if others or (solo and trial.round != first_round):
                    break  # the seat's next turn: one lap played (in solo, the round played)
                # greedy's chain; past it, or at a step this sample does not offer (a card drawn from
                # a hidden deck, say), the rollout policy
                choice = _follow(q, path[chain]) if chain < len(path) else None
                chain += 1
                if choice is None:
                    choice, played = _own_move(trial, seat, q, rnd)
                    if played is not None:  # the best option's trial, already answered: it goes on from there
                        trial, steps = played, steps + 1
                        continue
            else:
                others = True
                choice = _random_answer(q, rnd)
            trial.answer_unchecked(choice)
            steps += 1
        return _value(trial, seat)
    except MasonError:
        return None


def _follow(q, step):
    """The index in decision ``q`` of the option greedy found, ``step`` (``(kind, option)``, from
    ``greedy.search``), None when it is not offered."""
    if q["subset"]:
        return None
    key = _key(*step)
    for j, o in enumerate(q["options"]):
        if _key(q["kind"], o) == key:
            return j
    return None


def _own_move(trial, seat, q, rnd):
    """The seat's rollout policy: each option (at most ROLLOUT_OPTIONS, drawn) tried one step, the best
    estimate. Returns ``(answer, game)``: ``game`` the trial that played the best option (the rollout goes
    on from it, the answer already given), None when the answer is still to be given on ``trial``."""
    n = len(q["options"])
    if q["subset"]:
        return _random_answer(q, rnd), None
    if n == 1:
        return 0, None
    tried = range(n) if n <= ROLLOUT_OPTIONS else sorted(rnd.sample(range(n), ROLLOUT_OPTIONS))
    best, best_value, best_game = None, -math.inf, None
    for i in tried:
        t = trial.trial()
        try:
            t.answer_unchecked(i)
            v = _value(t, seat)
        except MasonError:
            continue
        if v > best_value:
            best, best_value, best_game = i, v, t
    return (best, best_game) if best is not None else (rnd.randrange(n), None)


def _random_answer(q, rnd):
    n = len(q["options"])
    if q["subset"]:
        k = min(rnd.randrange(q["subset"] + 1), n)
        picked = rnd.sample(range(n), k)  # in the drawn order when it counts
        return picked if q.get("ordered") else sorted(picked)
    return rnd.randrange(n) if n > 1 else 0


def _value(trial, seat) -> float:
    """A rollout's end on the estimate's scale: an unfinished game's estimate, a finished one's margin
    in points (half a point more for a win, less for a loss) times the estimate's units in a point
    (``greedy.points_scale``: a game whose estimate counts tenths of a point declares 10), so the
    two kinds of end compare fairly."""
    if trial.over:
        r = trial.result
        won = seat in r["winners"]
        margin = greedy._margin(trial.program, r["scores"], seat) + (0.5 if won else -0.5)
        return margin * greedy.points_scale(trial, seat)
    return greedy.estimate(trial, seat)
