"""Sequential tests for ``--until-decided``: a two-sided SPRT on the mean of per-game observations.

The data are numbers, one per game (``compare``: B's outcome minus A's on the same seed, a win share
or a score; ``analyze``: a seat's win share minus the equal share). The hypotheses are on that mean,
on its raw scale (a win rate difference in rate points, a score difference in points):

* H0: the mean is 0 (no difference);
* H1: the mean is ``+margin`` or ``-margin`` (a difference as large as the margin, either way).

It is Sobel and Wald's two-sided test: two one-sided sequential probability ratio tests, 0 against
``+margin`` and 0 against ``-margin``, each at level ``alpha / 2`` and power ``1 - beta``. The log
likelihood ratio of each is the normal (generalised SPRT) approximation chess-engine testing
frameworks use, with the variance estimated from the data so far::

    LLR = (mu1 - mu0) * (sum(x) - n * (mu0 + mu1) / 2) / var(x)

A side accepts H1 when its LLR reaches ``log((1 - beta) / (alpha / 2))`` and H0 when it falls to
``log(beta / (1 - alpha / 2))``; a side's decision is final. The test decides "different" as soon as
one side accepts H1 and "no difference as large as the margin" once both have accepted H0. It is
looked at only after whole batches of games (the decision then does not depend on how the games
were spread over workers), which makes it a little more cautious than its nominal error rates.
Several means at once (one per seat) share ``alpha`` equally (Bonferroni).
"""

from __future__ import annotations

import math

ALPHA = 0.05
BETA = 0.05
BATCH = 20  # games (per side) between two looks at the data
MAX_GAMES = 1000  # games (per side) after which an undecided test stops
WIN_MARGIN = 0.05  # H1 for a win rate: a difference of 5 rate points
SCORE_MARGIN = 1.0  # H1 for a mean score: a difference of 1 point

PRIOR_WEIGHT = 4  # pseudo-observations of the reference variance (Sequential.add)

DIFFERENT, SAME = "different", "same"


class OneSided:
    """Wald's SPRT of mean 0 against mean ``mu1`` (either sign), at level ``alpha`` and power ``1 - beta``."""

    def __init__(self, mu1: float, alpha: float, beta: float):
        self.mu1 = mu1
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.accepted: str | None = None  # "H0" or "H1", final once set
        self.llr = 0.0

    def look(self, n: int, total: float, var: float) -> None:
        """Update the log-likelihood ratio after ``n`` values and decide once it crosses a bound."""
        if self.accepted is not None or n < 2:
            return
        mid = n * self.mu1 / 2
        if var > 0:
            self.llr = self.mu1 * (total - mid) / var
        else:  # every observation alike: the data sit wholly on one side of the midpoint (or on it)
            self.llr = math.copysign(math.inf, self.mu1 * (total - mid)) if total != mid else 0.0
        if self.llr >= self.upper:
            self.accepted = "H1"
        elif self.llr <= self.lower:
            self.accepted = "H0"


class Sequential:
    """The two-sided test of one mean; feed it batches with :meth:`add`, read :attr:`decision`."""

    def __init__(self, margin: float, alpha: float = ALPHA, beta: float = BETA):
        if not margin > 0:
            raise ValueError("the margin must be positive")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("alpha and beta must lie between 0 and 1")
        self.margin, self.alpha, self.beta = margin, alpha, beta
        self.up = OneSided(margin, alpha / 2, beta)
        self.down = OneSided(-margin, alpha / 2, beta)
        self.n, self.total, self.squares = 0, 0.0, 0.0
        self.reference: float | None = None

    def add(self, values, reference: float | None = None) -> str | None:
        """Take more observations and look: ``"different"``, ``"same"`` or None (play on).

        ``reference``, when given, is a variance the observations' own is drawn towards by
        ``PRIOR_WEIGHT`` pseudo-observations (for B - A on the same seeds: var A + var B, the variance
        had the pairing helped nothing). It keeps a few alike observations (no game whose outcome the
        change moved, yet) from passing for certainty."""
        for v in values:
            self.n += 1
            self.total += v
            self.squares += v * v
        self.reference = reference
        if self.decision is None:
            var = self.variance
            self.up.look(self.n, self.total, var)
            self.down.look(self.n, self.total, var)
        return self.decision

    @property
    def mean(self) -> float | None:
        """The mean of the values so far (None before the first)."""
        return self.total / self.n if self.n else None

    @property
    def variance(self) -> float:
        """The values' variance (or the pairs' reference variance), 0 before two values."""
        if self.n < 2:
            return 0.0
        deviations = max(0.0, self.squares - self.total * self.total / self.n)
        if self.reference is None:
            return deviations / (self.n - 1)
        return (deviations + PRIOR_WEIGHT * self.reference) / (self.n - 1 + PRIOR_WEIGHT)

    @property
    def decision(self) -> str | None:
        """``different``, ``same`` or None (not decided yet), from the two one-sided tests."""
        if self.up.accepted == "H1" or self.down.accepted == "H1":
            return DIFFERENT
        if self.up.accepted == "H0" and self.down.accepted == "H0":
            return SAME
        return None

    @property
    def direction(self) -> int:
        """+1 when the mean was found above 0, -1 below, 0 otherwise."""
        return 1 if self.up.accepted == "H1" else -1 if self.down.accepted == "H1" else 0

    def to_json(self) -> dict:
        """The test's state as plain data, for the reports."""
        return {
            "n": self.n,
            "mean": self.mean,
            "decision": self.decision,
            "direction": self.direction,
            "llr_up": _finite(self.up.llr),
            "llr_down": _finite(self.down.llr),
            "bounds": [self.up.lower, self.up.upper],
        }


def _finite(x: float):
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def hypotheses(margin: float, alpha: float, beta: float, what: str, count: int = 1) -> str:
    """The hypotheses in words; ``count`` tests sharing ``alpha`` (one a seat)."""
    level = f"alpha {alpha:g}/2 each" if count == 1 else f"alpha {alpha:g}/{count}/2 each, {count} tests"
    return f"H0: {what} = 0; H1: |{what}| >= {margin:g} (two one-sided SPRTs at {level}, beta {beta:g})"


class Several:
    """One two-sided test a mean (a seat), ``alpha`` shared equally: "different" as soon as one test
    finds a difference, "same" once every test has found none."""

    def __init__(self, count: int, margin: float, alpha: float = ALPHA, beta: float = BETA):
        self.tests = [Sequential(margin, alpha / count, beta) for _ in range(count)]

    @property
    def decision(self) -> str | None:
        """``different`` once one test finds a difference, ``same`` once all find none, else None."""
        decisions = [t.decision for t in self.tests]
        if DIFFERENT in decisions:
            return DIFFERENT
        return SAME if all(d == SAME for d in decisions) else None


def verdict(report: dict) -> list[str]:
    """An analyze or compare report's sequential test in words: [the verdict with the games used,
    the hypotheses]; [] when the report has no sequential test."""
    seq = report.get("sequential")
    if seq is None:
        return []
    per = " a side" if "a" in report else ""
    games = f"{seq['games']} game{'' if seq['games'] == 1 else 's'}{per}"
    rate = "win" in seq["metric"]

    def fmt(x: float) -> str:
        return f"{100 * x:.1f}%" if rate else f"{x:.2f}".rstrip("0").rstrip(".")

    if seq["decision"] is None:
        text = f"undecided after {games}, the --max-games cap"
    elif "seats" in seq:  # analyze: seat balance
        off = [s for s in seq["seats"] if s["decision"] == DIFFERENT]
        text = f"decided after {games}: " + (
            "unbalanced: " + ", ".join(f"{s['name']} wins {'more' if s['direction'] > 0 else 'less'}" for s in off)
            if off
            else f"balanced (no seat's win rate off its equal share by {fmt(seq['margin'])} or more)"
        )
    elif seq["decision"] == DIFFERENT:
        text = f"decided after {games}: different, B {'higher' if seq['direction'] > 0 else 'lower'}"
    else:
        text = f"decided after {games}: no difference as large as {fmt(seq['margin'])}"
    if "seats" not in seq and seq.get("mean") is not None:
        text += f" (mean B - A {fmt(seq['mean'])} over {seq['observations']} seeds)"
    return [
        f"sequential test on {seq['metric']}: {text}",
        f"{seq['hypotheses']}; looked after every {seq['batch']} games{per}",
    ]
