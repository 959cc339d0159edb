"""An information-set Monte Carlo tree search bot (``mcts``), generic over every game.

Kind strings (parsed here, by ``parse_kind``, for ``make_bot`` and the seat-kind checks):

- ``mcts``: the default budget of ``DEFAULT_ITERATIONS`` iterations per decision;
- ``mcts:N``: ``N`` iterations per decision (``N`` from 1 to ``MAX_ITERATIONS``);
- ``mcts:N:dD``: ``N`` iterations, each truncated after ``D`` decisions (default: the number of seats);
- ``mcts:N:Ts`` (or ``mcts:N:dD:Ts``): at most ``N`` iterations and at most ``T`` seconds of wall clock
  per decision (``mcts:500:0.05s``). A time limit makes the games depend on the machine's speed and load: the
  same seed may then play differently. The iteration budget alone is reproducible.

The search (single-observer IS-MCTS). Each iteration:

1. samples a full state from what the bot's seat knows (determinize's sampling: the cards it cannot
   see re-dealt, secret per-seat variables of a known domain resampled, chance given a generator of
   the sample's own), from a copy in which the hidden cards are first put in a canonical order
   (``Game.information_set``), so the samples, and the answer, do not depend on the real state's hidden
   part (the limits are determinize's: secrets of no generic domain kept, held cards narrowed);
2. descends the tree of the seat's OWN decisions: a node's children are keyed by the options as the
   seat sees them (the decision's kind and the option's value: a card id, a number, a label), an
   option that is not offered in this sample is skipped, and a child is chosen by UCB1 counted over
   the samples that offered it (availability counts); the decisions of the other seats between two
   of the seat's own are not in the tree: they are rollout moves (uniformly random), automated seats
   play by their policy as in every game;
3. adds an option not yet tried at the node reached, then plays on with random answers for every
   seat; the whole descent and rollout is TRUNCATED after ``depth`` decisions from the root
   (``DEFAULT_DEPTH``: as many as the game has seats, about one lap of the table), the interpreter
   being too slow for rollouts to the end;
4. scores the position reached for its seat with the greedy bot's estimate (``greedy.estimate``: the
   game's ``bot_estimate`` when declared, else the score margin; a finished game: the final margin,
   plus one half for a win, minus one half for a loss) and adds the score to every node on the path.

Scores are not bounded, so UCB1 uses them normalised by the range seen so far in the decision's
search. The answer is the most visited option at the root (ties: the higher mean score, then the
bot's stream). A subset decision ("choose up to N") is answered as the greedy bot answers it (one
option at a time, while the estimate rises, on one determinize sample): its options would not make
a tree of single choices.

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

DEFAULT_DEPTH = None  # None: as many decisions as the game has seats (players and automata)
EXPLORATION = 0.7  # UCB1 constant, on scores normalised to [0, 1]


class _Node:
    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self):
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict = {}


class MctsAgent(Agent):
    """The information-set Monte Carlo tree search bot (kind ``mcts``, see the module docstring)."""

    name = "mcts"

    def __init__(
        self,
        seed=0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        depth: int | None = DEFAULT_DEPTH,
        exploration: float = EXPLORATION,
    ):
        self.seed = seed
        self.start = rng.seed_state(f"mcts-agent/{seed}")
        self.iterations, self.seconds, self.depth, self.c = iterations, seconds, depth, exploration

    def decide(self, game, seat):
        """Search the seat's own decisions over samples of what it knows; a subset is answered greedily."""
        p = game.pending_unlabelled
        streams = game.bot_streams
        box = {"rng": streams.get(str(seat)) or self.start}
        self.figures = {}  # option index -> its visits and mean score (the reason, play/session.py)
        try:
            if len(p["options"]) == 1 and not p["subset"]:
                return 0
            if p["subset"]:
                helper = greedy.GreedyAgent()
                base = helper._sample(game, seat, box)
                return helper._subset(game, base, seat, p, box)
            box["rng"], fresh = rng.next_u64(box["rng"])
            return self._search(game, seat, p, random.Random(fresh), box)
        finally:
            streams[str(seat)] = box["rng"]

    # ---------------------------------------------------------------- the search
    def _search(self, game, seat, p, rnd, box) -> int:
        root = _Node()
        info = game.information_set(seat)
        keys = [_key(p["kind"], o) for o in p["options"]]
        depth = self.depth if self.depth is not None else game.seat_count
        stats = {"lo": math.inf, "hi": -math.inf}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for _ in range(self.iterations):
            self._iterate(info, seat, root, rnd, depth, stats)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best, best_key = [], None
        for i, k in enumerate(keys):
            ch = root.children.get(k)
            if ch is not None and ch.visits:
                self.figures[i] = {"visits": ch.visits, "mean": round(ch.total / ch.visits, 3)}
            rank = (ch.visits, ch.total / ch.visits) if ch is not None and ch.visits else (0, -math.inf)
            if best_key is None or rank > best_key:
                best, best_key = [i], rank
            elif rank == best_key:
                best.append(i)
        return best[0] if len(best) == 1 else best[rng.below(box, len(best))]

    def _iterate(self, info, seat, root, rnd, depth, stats) -> None:
        trial = info.sample(rnd)
        node, path, steps = root, [root], 0
        try:
            while not trial.over and steps < depth:
                q = trial.pending_unlabelled
                if q is None:
                    break
                if node is not None and q["seat"] == seat and not q["subset"]:
                    answer, node = self._select(node, q, rnd, stats)
                    if node.visits == 0:
                        path.append(node)
                        node = None  # a new leaf: the rollout starts after it
                    else:
                        path.append(node)
                else:
                    answer = _random_answer(q, rnd)
                steps += 1
                trial.answer_unchecked(answer)  # the answer is one of the offered options
            value = _value(trial, seat)
        except MasonError:
            value = None  # a rule error in a sample: the path is scored as the worst seen
        if value is None:
            value = stats["lo"] if stats["lo"] != math.inf else 0.0
        stats["lo"] = min(stats["lo"], value)
        stats["hi"] = max(stats["hi"], value)
        for n in path:
            n.visits += 1
            n.total += value

    def _select(self, node, q, rnd, stats):
        """The option to take at ``node`` in this sample: an untried one first (drawn), else UCB1 over
        the options this sample offers."""
        kind, options = q["kind"], q["options"]
        untried: list[tuple[int, _Node]] = []
        offered: list[tuple[int, _Node]] = []
        for i, o in enumerate(options):
            k = _key(kind, o)
            ch = node.children.get(k)
            if ch is None:
                ch = node.children[k] = _Node()
            ch.avail += 1
            (untried if ch.visits == 0 else offered).append((i, ch))
        if untried:
            return untried[rnd.randrange(len(untried))] if len(untried) > 1 else untried[0]
        lo, hi = stats["lo"], stats["hi"]
        span = hi - lo if hi > lo else 1.0
        best, best_u = None, -math.inf
        for i, ch in offered:
            u = (ch.total / ch.visits - lo) / span + self.c * math.sqrt(math.log(ch.avail) / ch.visits)
            if u > best_u:
                best, best_u = (i, ch), u
        return best


def _key(kind, option):
    if isinstance(option, (int, str, float, bool)) or option is None:
        return (kind, option)
    return (kind, json.dumps(option, sort_keys=True))


def _random_answer(q, rnd):
    n = len(q["options"])
    if q["subset"]:
        k = min(rnd.randrange(q["subset"] + 1), n)
        picked = rnd.sample(range(n), k)  # in the drawn order when it counts
        return picked if q.get("ordered") else sorted(picked)
    return rnd.randrange(n) if n > 1 else 0


def _value(trial, seat) -> float:
    if trial.over:
        r = trial.result
        won = seat in r["winners"]
        return greedy._margin(trial.program, r["scores"], seat) + (0.5 if won else -0.5)
    return greedy.estimate(trial, seat)
