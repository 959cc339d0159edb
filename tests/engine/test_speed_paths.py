"""Hot paths written for speed against their plain definitions (issue 31 item 6): each shortcut must give
exactly what the definition gives, since saved games, logs and the goldens depend on every number."""

from __future__ import annotations

from mason.agents.random_agent import RandomAgent
from mason.runtime import rng


def _pick_by_definition(stream: int, n: int) -> tuple[int, int]:
    """The random bot's answer among ``n`` options: ``rng.draw`` on the seat's stream (0 for one option)."""
    if n <= 1:
        return stream, 0
    return rng.draw(stream, n)


def test_random_bot_pick_draws_what_rng_draw_draws():
    """``blind_pick`` writes ``rng.draw`` in place; for small and huge option counts (the rejection path
    included) it must answer and leave the stream as ``draw`` does, seat by seat."""
    bot = RandomAgent("speed/1")
    st: dict = {}
    streams = {0: bot.start, 5: bot.start}
    for n in (1, 2, 3, 7, 64, 1000, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, (1 << 40) + 3, (1 << 63) + 1):
        for i in range(200):
            seat = 0 if i % 3 else 5
            streams[seat], want = _pick_by_definition(streams[seat], n)
            assert bot.blind_pick(st, seat, n, 0) == want, n
            assert st["bots"][str(seat)] == streams[seat], n


def test_rng_limit_is_the_largest_multiple_below_two_to_the_64():
    for n in (2, 3, 1000, (1 << 16) + 1, (1 << 63) + 1):
        limit = rng.limit(n)
        assert limit % n == 0 and (1 << 64) - n < limit <= 1 << 64
