"""A bot that picks uniformly among the legal options.

Its random stream is kept in the game state (``state["bots"][seat]``, one integer per bot seat, the
same generator as the game's own, see rng.py), so a saved game resumes with the bots drawing exactly
what they would have drawn in one sitting; it is separate from the game's stream, so a bot never
disturbs the deal. The stream starts from the agent's seed the first time the seat decides.
"""

from __future__ import annotations

from mason.agents.base import Agent
from mason.runtime import rng


class RandomAgent(Agent):
    """The bot that picks uniformly among the legal options (kind ``random``), from its own stream."""

    name = "random"

    def __init__(self, seed=0):
        self.seed = seed
        self.start = rng.seed_state(f"random-agent/{seed}")

    def decide(self, game, seat):
        """A uniformly drawn answer to the pending decision, from the seat's stream in the game."""
        p = game.pending_unlabelled  # options only: no labels needed
        return self.pick(game.bot_streams, seat, len(p["options"]), p["subset"], p.get("ordered", False))

    def pick(self, streams: dict, seat, n, subset, ordered=False):
        """The answer to a decision of ``n`` options (``subset``: choose up to that many; ``ordered``:
        in an order that counts), drawn from the seat's stream in ``streams`` (``Game.bot_streams``).
        An ordered subset comes in the drawn (random) order, any other in ascending order."""
        return RandomAgent.blind_pick(self, {"bots": streams}, seat, n, subset, ordered)  # this class's draw

    def blind_pick(self, st, seat, n, subset, ordered=False):
        """``pick`` from the state's bot streams (``st["bots"]``, made if missing) alone: no view
        needed, so the engine may ask it in place (runtime/answers.py). The one implementation of the
        draw, here because the engine asks it at every decision of a game played in place."""
        streams = st.get("bots")
        if streams is None:
            streams = st["bots"] = {}
        key = _KEYS.get(seat) or str(seat)
        if not subset:  # one option number: the common case, drawn without a box
            x = streams.get(key) or self.start
            if n <= 1:
                streams[key] = x
                return 0
            while True:  # rng.draw(x, n), written in place: one call less at every decision of a game
                x ^= x >> 12
                x ^= (x << 25) & 0xFFFF_FFFF_FFFF_FFFF
                x ^= x >> 27
                out = (x * 0x2545F4914F6CDD1D) & 0xFFFF_FFFF_FFFF_FFFF
                if (out < 0xFFFF_FFFF_FFFF_0000 and n <= 0x1_0000) or out < rng.limit(n):
                    streams[key] = x
                    return out % n
        box = {"rng": streams.get(key) or self.start}
        k = min(rng.below(box, subset + 1), n)
        pool = list(range(n))
        for i in range(k):  # the first k of a partial Fisher-Yates shuffle
            j = i + rng.below(box, n - i)
            pool[i], pool[j] = pool[j], pool[i]
        picked = pool[:k] if ordered else sorted(pool[:k])
        streams[key] = box["rng"]
        return picked


_KEYS = {s: str(s) for s in range(64)}  # a seat's key in state["bots"] (made once for the common seats)
