"""The game's one seeded random generator, whose whole state is a single integer kept in the state.

A 64-bit xorshift* generator: tiny, deterministic across platforms and Python versions, and its
state is plain data, so saving, copying and resuming a game keeps the random stream exact.
"""

from __future__ import annotations

import hashlib

MASK = (1 << 64) - 1


def seed_state(seed) -> int:
    """A non-zero 64-bit state derived from any seed (int or string)."""
    digest = hashlib.sha256(str(seed).encode()).digest()
    return int.from_bytes(digest[:8], "little") or 0x9E3779B97F4A7C15


def next_u64(state: int) -> tuple[int, int]:
    """Advance: return (new_state, output)."""
    x = state
    x ^= x >> 12
    x ^= (x << 25) & MASK
    x ^= x >> 27
    return x, (x * 0x2545F4914F6CDD1D) & MASK


def below(st: dict, n: int) -> int:
    """A uniform integer in [0, n) drawn from ``st['rng']`` (rejection sampling, no modulo bias)."""
    if n <= 1:
        return 0
    st["rng"], out = draw(st["rng"], n)
    return out


def draw(x: int, n: int) -> tuple[int, int]:
    """``below`` on a bare generator state ``x`` (n >= 2): return (new state, a uniform integer in [0, n))."""
    while True:  # next_u64, inline: this is the hottest call of a random game
        # MASK, SURE and SMALL_N written as literals: a module global is a lookup at every draw
        # (tests/engine/test_core_units.py checks draw against its definition)
        x ^= x >> 12
        x ^= (x << 25) & 0xFFFF_FFFF_FFFF_FFFF
        x ^= x >> 27
        out = (x * 0x2545F4914F6CDD1D) & 0xFFFF_FFFF_FFFF_FFFF
        # rejection sampling: keep ``out`` below the largest multiple of n under 2**64; for n up to
        # 2**16 that limit is above SURE, so the common case needs no lookup of the limit
        if out < 0xFFFF_FFFF_FFFF_0000 and n <= 0x1_0000:
            return x, out % n
        if out < (_LIMITS.get(n) or _limit(n)):
            return x, out % n


SMALL_N = 1 << 16
SURE = (1 << 64) - SMALL_N  # below the rejection limit of every n <= SMALL_N: 2**64 - (2**64 % n) > SURE
_LIMITS: dict = {}  # n -> the largest multiple of n below 2**64 (memo; n is a small option count)


def _limit(n: int) -> int:
    limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
    return limit


def limit(n: int) -> int:
    """The rejection limit of ``draw`` for ``n`` options: the largest multiple of n below 2**64 (kept)."""
    return _LIMITS.get(n) or _limit(n)


def shuffle(st: dict, items: list) -> None:
    """Fisher-Yates shuffle in place with the state's generator (``below`` for each place, the
    generator's state kept in a local until the end)."""
    if len(items) < 2:
        return
    x = st["rng"]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        while True:  # draw(x, n), written in place (a call less per card; test_core_units holds them equal)
            x ^= x >> 12
            x ^= (x << 25) & 0xFFFF_FFFF_FFFF_FFFF
            x ^= x >> 27
            out = (x * 0x2545F4914F6CDD1D) & 0xFFFF_FFFF_FFFF_FFFF
            if (out < 0xFFFF_FFFF_FFFF_0000 and n <= 0x1_0000) or out < (_LIMITS.get(n) or _limit(n)):
                break
        j = out % n
        items[i], items[j] = items[j], items[i]
    st["rng"] = x
