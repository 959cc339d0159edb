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


def _correlated_pairs(p, q, diff):
    """(A, B) on the same seed: alike but for a share ``q`` of the seeds, where B wins (with
    probability 1/2 + diff / 2q) and A loses or the other way round."""

    def draw(rng, k):
        a = (rng.random(k) < p).astype(float)
        moved = rng.random(k) < q
        b = np.where(moved, (rng.random(k) < 0.5 + diff / (2 * q)).astype(float), a)
        return np.where(moved, 1.0 - b, a), b

    return draw


@pytest.mark.parametrize("q", [0.05, 0.2])
def test_sprt_same_seed_pairs_that_mostly_agree_keep_their_error_rates(q):
    """Few seeds whose outcome the change moves: a first batch of alike pairs must not pass for
    certainty (the reference variance var A + var B holds the estimate until the data outweigh it)."""
    for diff, seed in ((0.0, 8), (0.05, 9)):
        rng = np.random.default_rng(seed)
        found = 0
        for _ in range(REPS):
            test, seen_a, seen_b = Sequential(0.05), [], []
            while test.decision is None:
                a, b = _correlated_pairs(0.25, q, diff)(rng, 20)
                seen_a += a.tolist()
                seen_b += b.tolist()
                test.add((b - a).tolist(), float(np.var(seen_a, ddof=1) + np.var(seen_b, ddof=1)))
            found += test.decision == DIFFERENT
        if diff:
            assert found >= 0.95 * REPS - 3 * 4.4 - 10  # measured 371 (q 0.05) and 382 (q 0.2) of 400
        else:
            assert found <= 0.05 * REPS + 3 * 4.4


# ------------------------------------------------------------------------------------------ command line
SHORT = ["compare", "citadels", "-p", 4, "--b", "variant=short_game", "--until-decided", "--seed", 1]


def _without_timing(report):
    """The JSON report without the wall times (the only part parallelism may change)."""
    if isinstance(report, dict):
        return {k: _without_timing(v) for k, v in report.items() if k != "seconds"}
    if isinstance(report, list):
        return [_without_timing(v) for v in report]
    return report


def test_compare_until_decided_stops_by_itself_and_says_after_how_many_games(tmp_path):
    page = tmp_path / "cmp.html"
    r = invoke(*SHORT, "--max-games", 200, "--metric", "score", "--quiet", "--html", page)
    assert r.exit_code == 0, r.output
    flat = " ".join(r.stdout.split())  # the prose wraps at 100 columns
    m = re.search(r"sequential test on score P1 \(B - A\): decided after (\d+) games a side: different, B lower", flat)
    assert m, r.stdout
    n = int(m.group(1))
    assert n < 200 and n % 20 == 0
    assert f"{n}/{n} games completed (seeds 1..{n})" in r.stdout
    assert f"<h2>Sequential test</h2><p>{m.group(0)}" in page.read_text(encoding="utf-8")


def test_compare_until_decided_same_report_with_one_or_two_workers():
    args = [*SHORT, "--max-games", 200, "--metric", "score", "--json"]
    one, two = invoke(*args, "--workers", 1), invoke(*args, "--workers", 2)
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    d1, d2 = json.loads(one.stdout), json.loads(two.stdout)
    seq = d1["sequential"]
    assert seq["decision"] == "different" and seq["direction"] == -1 and seq["kind"] == "score"
    assert d1["a"]["games"] == d1["b"]["games"] == seq["games"] == seq["observations"] < 200
    assert _without_timing(d1) == _without_timing(d2)
    text = [invoke(*SHORT, "--max-games", 200, "--metric", "score", "--quiet", "--workers", w).stdout for w in (1, 2)]
    assert [re.sub(r" in [0-9.]+ s", "", t) for t in text[:1]] == [re.sub(r" in [0-9.]+ s", "", t) for t in text[1:]]


def test_compare_until_decided_caps_at_max_games_and_says_so():
    r = invoke(*SHORT, "--max-games", 40, "--json")
    d = json.loads(r.stdout)
    assert d["sequential"]["decision"] is None and d["a"]["games"] == 40 and d["sequential"]["metric"].startswith("win")
    text = invoke(*SHORT, "--max-games", 40, "--quiet").stdout
    assert "undecided after 40 games a side, the --max-games cap" in " ".join(text.split())


def test_analyze_until_decided_seat_balance_and_workers():
    args = ["analyze", "golden-temple", "-p", 1, "--until-decided", "--seed", 1, "--max-games", 100]
    r = invoke(*args, "--quiet")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.stdout.split())  # the prose wraps at 100 columns
    m = re.search(r"decided after (\d+) games: unbalanced: P1 wins less, Maharaja wins more", flat)
    assert m and int(m.group(1)) <= 100, r.stdout
    one, two = (json.loads(invoke(*args, "--json", "--workers", w).stdout) for w in (1, 2))
    assert _without_timing(one) == _without_timing(two)
    assert [s["decision"] for s in one["sequential"]["seats"]] == ["different", "different"]
    assert "alpha 0.05/2/2 each, 2 tests" in one["sequential"]["hypotheses"]


def test_ray_takes_the_same_path(monkeypatch):
    """--ray hands the same fixed batches to Ray (here a stand-in that runs them locally)."""
    from mason.play import parallel

    calls = []
    monkeypatch.setattr(parallel, "connect_ray", lambda address, **kw: calls.append(("connect", address)))

    def local(func, items, workers, ray, *rest):
        calls.append(("batch", len(items)))
        return [func(item) for item in items]

    monkeypatch.setattr(parallel, "_map_ray", local)
    args = [*SHORT, "--max-games", 200, "--metric", "score", "--json"]
    via_ray, plain = invoke(*args, "--ray"), invoke(*args)
    assert via_ray.exit_code == 0, via_ray.output
    assert _without_timing(json.loads(via_ray.stdout)) == _without_timing(json.loads(plain.stdout))
    assert calls[0] == ("connect", True) and {c for c in calls[1:]} == {("batch", 20)}


@pytest.mark.parametrize(
    "args, words",
    [
        (["compare", "citadels", "--b", "variant=short_game"], "give -n GAMES or --until-decided"),
        (["compare", "citadels", "-n", 5, "--until-decided", "--b", "variant=short_game"], "exclude each other"),
        (["analyze", "citadels", "-n", 5, "--alpha", 0.1], "--alpha is for --until-decided"),
        (["compare", "citadels", "-n", 5, "--metric", "score", "--b", "variant=short_game"], "--metric is for"),
        (["compare", "citadels", "--until-decided", "--metric", "wins", "--b", "variant=short_game"], "expected win"),
        (["compare", "citadels", "--until-decided", "--metric", "win:3", "--b", "variant=short_game"], "no seat 3"),
        (["analyze", "citadels", "--until-decided", "--beta", 1.5], "--beta"),
    ],
)
def test_until_decided_usage_errors_are_one_line_before_any_game(args, words, monkeypatch):
    from mason.play import analytics

    def no_games(*a, **k):
        raise AssertionError("a game ran")

    monkeypatch.setattr(analytics, "run_games", no_games)
    r = invoke(*args)
    assert r.exit_code != 0 and isinstance(r.exception, SystemExit)
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and words in err[0], r.stderr
    assert "Traceback" not in r.output
