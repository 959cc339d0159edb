"""A bot that picks uniformly among the legal options, from its own seeded generator.

Its generator is separate from the game's, so a bot never disturbs the game's random stream.
"""
from __future__ import annotations

import random

from .base import Agent


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed=0):
        self.rng = random.Random(f"random-agent/{seed}")

    def decide(self, game, seat):
        p = game.state["pending"]  # options only: no labels needed
        n = len(p["options"])
        if p["subset"]:
            k = self.rng.randint(0, p["subset"])
            return sorted(self.rng.sample(range(n), k))
        return self.rng.randrange(n)
