"""Statistics for ``mason analyze`` and ``mason compare``: intervals, tests and sample sizes.

The computations stand on scipy.stats (distributions and tests) and numpy (quantiles), imported
lazily so that no other command pays their import cost. Every function takes and returns plain
numbers and lists (JSON data); ``None`` stands for "not defined" (no data, no variance, no
difference to detect).

Ties: a game won by ``k`` seats together gives each of them ``1/k`` of a win (a fractional win).
The binomial formulas (Wilson interval, z test) then take the win count as a real number: an
approximation, exact when no game is tied.
"""

from __future__ import annotations

import math
import warnings
from functools import cache
from typing import Any

ALPHA = 0.05
POWER = 0.8


def _norm():
    from scipy.stats import norm

    return norm


@cache
def z_quantile(q: float) -> float:
    """The standard normal quantile of ``q``."""
    return float(_norm().ppf(q))


@cache
def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.stats import t

    return float(t.ppf(q, df))


def wilson(wins: float, n: int, alpha: float = ALPHA) -> list | None:
    """The Wilson score interval of a proportion ``wins / n`` (``[low, high]``), None when n is 0."""
    if n <= 0:
        return None
    z = z_quantile(1 - alpha / 2)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return [max(0.0, centre - half), min(1.0, centre + half)]


def seat_balance(wins: list) -> dict:
    """Chi-square goodness of fit of the wins per seat against equal shares (df = seats - 1)."""
    from scipy.stats import chisquare

    total = sum(wins)
    if len(wins) < 2 or total <= 0:
        return {"test": "chi-square goodness of fit", "statistic": None, "df": max(len(wins) - 1, 0), "p": None}
    stat, p = chisquare(wins)
    return {"test": "chi-square goodness of fit", "statistic": float(stat), "df": len(wins) - 1, "p": float(p)}


def describe(values: list) -> dict:
    """n, mean, sample sd, min, quartiles (linear interpolation) and max."""
    import numpy as np

    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "sd": None, "min": None, "q1": None, "median": None, "q3": None, "max": None}
    a = np.asarray(values, dtype=float)
    q1, med, q3 = (float(x) for x in np.percentile(a, [25, 50, 75]))
    return {
        "n": n,
        "mean": float(a.mean()),
        "sd": float(a.std(ddof=1)) if n > 1 else None,
        "min": float(a.min()),
        "q1": q1,
        "median": med,
        "q3": q3,
        "max": float(a.max()),
    }


def mean_interval(values: list, alpha: float = ALPHA) -> list | None:
    """The t interval of a mean, None below two values."""
    n = len(values)
    if n < 2:
        return None
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = t_quantile(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
    return [m - half, m + half]


def two_proportions(w1: float, n1: int, w2: float, n2: int) -> dict:
    """Two-sided two-proportion z test (pooled variance) of ``w2/n2 - w1/n1``, with the difference's
    Newcombe interval (from the two Wilson intervals) and the games per side needed to detect it."""
    out: dict[str, Any] = {
        "test": "two-proportion z",
        "diff": None,
        "ci95": None,
        "statistic": None,
        "p": None,
        "n_needed": None,
    }
    if n1 <= 0 or n2 <= 0:
        return out
    p1, p2 = w1 / n1, w2 / n2
    diff = p2 - p1
    out["diff"] = diff
    w_1, w_2 = wilson(w1, n1), wilson(w2, n2)
    assert w_1 is not None and w_2 is not None  # n1, n2 > 0
    (l1, u1), (l2, u2) = w_1, w_2  # Newcombe's hybrid score interval (method 10)
    out["ci95"] = [diff - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), diff + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)]
    pooled = (w1 + w2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se0 > 0:
        stat = diff / se0
        out["statistic"] = stat
        out["p"] = math.erfc(abs(stat) / math.sqrt(2))  # 2 * (1 - Phi(|z|))
    elif diff == 0:
        out["p"] = 1.0
    out["n_needed"] = n_for_proportions(p1, p2)
    return out


def n_for_proportions(p1: float, p2: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """Games per side for a two-sided two-proportion z test to detect p1 vs p2 (normal approximation)."""
    if p1 == p2:
        return None
    za, zb = z_quantile(1 - alpha / 2), z_quantile(power)
    pbar = (p1 + p2) / 2
    num = za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(num * num / (p1 - p2) ** 2)


def n_for_means(
    diff: float, sd1: float | None, sd2: float | None, alpha: float = ALPHA, power: float = POWER
) -> int | None:
    """Games per side for a two-sided two-sample test of means to detect ``diff`` given the two sds
    (normal approximation: 2 (z_a/2 + z_b)^2 s^2 / diff^2 with s^2 the mean of the variances)."""
    if not diff or sd1 is None or sd2 is None:
        return None
    za, zb = z_quantile(1 - alpha / 2), z_quantile(power)
    var = (sd1 * sd1 + sd2 * sd2) / 2
    return max(2, math.ceil(2 * (za + zb) ** 2 * var / (diff * diff)))


def two_means(a: list, b: list, paired: bool = False, rank_test: bool = True) -> dict:
    """Welch's t test of ``mean(b) - mean(a)`` (two-sided), with its interval, the Mann-Whitney U test's
    p value, the paired t test's when ``paired`` (same seeds, same order, equal lengths) and the games
    per side needed to detect the difference."""
    from scipy import stats

    out: dict[str, Any] = {
        "test": "Welch t",
        "a": None,
        "b": None,
        "diff": None,
        "ci95": None,
        "statistic": None,
        "p": None,
        "mann_whitney_p": None,
        "n_needed": None,
    }
    if paired:
        out["paired_t_p"] = None
    if not a or not b:
        return out
    da, db = describe(a), describe(b)
    out["a"], out["b"] = da["mean"], db["mean"]
    out["diff"] = db["mean"] - da["mean"]
    if len(a) < 2 or len(b) < 2:
        return out
    va, vb = da["sd"] ** 2 / len(a), db["sd"] ** 2 / len(b)
    if va + vb == 0:
        out["p"] = 1.0 if out["diff"] == 0 else 0.0
    else:
        stat = out["diff"] / math.sqrt(va + vb)
        df = (va + vb) ** 2 / ((va * va / (len(a) - 1)) + (vb * vb / (len(b) - 1)))
        out["statistic"], out["p"] = stat, float(2 * stats.t.sf(abs(stat), df))  # Welch's t test
        half = t_quantile(1 - ALPHA / 2, df) * math.sqrt(va + vb)
        out["ci95"] = [out["diff"] - half, out["diff"] + half]
    if rank_test and len(set(a) | set(b)) > 1:
        out["mann_whitney_p"] = float(stats.mannwhitneyu(b, a, alternative="two-sided").pvalue)
    if paired and len(a) == len(b):
        d = [y - x for x, y in zip(a, b)]
        if len(set(d)) > 1:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # nearly equal differences
                out["paired_t_p"] = float(stats.ttest_rel(b, a).pvalue)
        elif d and d[0] == 0:
            out["paired_t_p"] = 1.0
    out["n_needed"] = n_for_means(out["diff"], da["sd"], db["sd"])
    return out


def significant(p) -> bool:
    """Whether a p value (or an adjusted one, a q) is below ``ALPHA``."""
    return p is not None and p < ALPHA


FDR = "Benjamini-Hochberg"


def bh_adjust(ps: list) -> list:
    """Benjamini-Hochberg adjusted p values (q values) of a family of tests, in the same order.

    Flagging the tests whose q is below alpha keeps the expected share of false discoveries among the
    flagged ones at most alpha (independent or positively dependent tests). ``None`` (no test) stays
    ``None`` and does not count in the family."""
    known = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(known)
    out: list = [None] * len(ps)
    running = 1.0
    for rank in range(m, 0, -1):  # from the largest p down: q = min over the larger ranks of p * m / rank
        p, i = known[rank - 1]
        running = min(running, p * m / rank)
        out[i] = max(running, min(p, 1.0))  # never below p (p * m / m may round down)
    return out
