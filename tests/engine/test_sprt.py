"""The sequential test of ``--until-decided`` (``mason.play.sprt``): its error rates on synthetic data
with a known difference and a known absence of one (seeded draws, many repetitions), and the
command line's ``compare``/``analyze --until-decided``."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from support import invoke

from mason.play.sprt import DIFFERENT, SAME, Sequential

REPS = 400


def _outcomes(draw, margin, seed, alpha=0.05, beta=0.05, batch=20):
    """Decisions of REPS sequential tests on seeded synthetic data, each run until it decides."""
    rng = np.random.default_rng(seed)
    out = {DIFFERENT: 0, SAME: 0, "up": 0, "down": 0}
    for _ in range(REPS):
        test = Sequential(margin, alpha, beta)
        while test.decision is None:
            assert test.n < 100_000
            test.add(draw(rng, batch).tolist())
        out[test.decision] += 1
        out["up" if test.direction > 0 else "down" if test.direction < 0 else SAME] += test.direction != 0
    return out


def _paired_wins(p, diff):
    """B's win (0/1) minus A's on the same seed, A winning with probability p and B with p + diff."""
    return lambda rng, k: (rng.random(k) < p + diff).astype(float) - (rng.random(k) < p).astype(float)


@pytest.mark.parametrize("p", [0.25, 0.5])
def test_sprt_win_rate_false_positives_stay_near_alpha(p):
    out = _outcomes(_paired_wins(p, 0.0), 0.05, seed=1)
    # nominal alpha 0.05: 20 of 400; the binomial sd of the count is 4.4, the looks after batches only lower it
    assert out[DIFFERENT] <= 0.05 * REPS + 3 * 4.4
    assert out[DIFFERENT] >= 0.01 * REPS  # not a test that never says "different"


@pytest.mark.parametrize("p", [0.25, 0.5])
def test_sprt_win_rate_power_stays_near_one_minus_beta(p):
    out = _outcomes(_paired_wins(p, 0.05), 0.05, seed=2)
    assert out[DIFFERENT] >= (1 - 0.05) * REPS - 3 * 4.4
    assert out["up"] == out[DIFFERENT]  # B better: found above, never below


def test_sprt_scores_both_directions_and_no_difference():
    normal = lambda mu: lambda rng, k: rng.normal(mu, 6.0, k)  # noqa: E731
    none = _outcomes(normal(0.0), 1.0, seed=3)
    assert none[DIFFERENT] <= 0.05 * REPS + 3 * 4.4
    up, down = _outcomes(normal(1.0), 1.0, seed=4), _outcomes(normal(-1.0), 1.0, seed=5)
    assert up["up"] >= 0.95 * REPS - 3 * 4.4 and up["down"] == 0
    assert down["down"] >= 0.95 * REPS - 3 * 4.4 and down["up"] == 0


def test_sprt_other_alpha_and_beta_move_the_error_rates():
    out = _outcomes(_paired_wins(0.5, 0.0), 0.1, seed=6, alpha=0.2, beta=0.2)
    assert 0.2 * REPS - 3 * 8 <= out[DIFFERENT] <= 0.2 * REPS + 3 * 8  # sd of the count: 8
    out = _outcomes(_paired_wins(0.5, 0.1), 0.1, seed=7, alpha=0.2, beta=0.2)
    assert 0.8 * REPS - 3 * 8 <= out[DIFFERENT]


def test_sprt_identical_observations_decide_at_once():
    assert Sequential(0.05).add([0.0] * 20) == SAME
    t = Sequential(0.05)
    assert t.add([1.0] * 20) == DIFFERENT and t.direction == 1


def test_sprt_refuses_bad_parameters():
    for args in ((0.0,), (0.1, 1.5), (0.1, 0.05, 0.0)):
        with pytest.raises(ValueError):
            Sequential(*args)
