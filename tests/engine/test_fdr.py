"""Many tests at once in the reports (issue 32 item 7): Benjamini-Hochberg q values beside the raw p
values, and A/A comparisons (the same settings on both sides, different seeds) that flag no more than
their error rate over many repetitions, on synthetic data (no game is played but the CLI checks)."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from support import invoke

from mason.play import stats
from mason.play.analytics import compare, component_impact

REPETITIONS = 300
# Under the complete null the chance that a BH-adjusted family flags anything is at most alpha (0.05):
# 15 expected in 300 repetitions; more than 27 would happen by chance less than once in a thousand.
MOST_FLAGGED = 27


def test_bh_adjust_matches_scipy_and_keeps_missing_tests_out_of_the_family():
    from scipy.stats import false_discovery_control

    rnd = random.Random(3)
    ps = [rnd.random() ** 3 for _ in range(40)]
    assert stats.bh_adjust(ps) == pytest.approx(list(false_discovery_control(ps)))
    # None is no test: the family is the three known p values
    assert stats.bh_adjust([None, 0.01, 0.04, None, 0.03]) == pytest.approx([None, 0.03, 0.04, None, 0.04])
    assert stats.bh_adjust([]) == []


def _side(rnd: random.Random, seeds: range, seats: int) -> tuple[dict, list]:
    """A synthetic report and its results: every seat's score drawn from the same distribution."""
    results = []
    for seed in seeds:
        scores = [rnd.randint(10, 40) for _ in range(seats)]
        best = max(scores)
        results.append(
            {
                "seed": seed,
                "scores": scores,
                "winners": [s for s in range(seats) if scores[s] == best],
                "rounds": rnd.randint(6, 10),
                "decisions": rnd.randint(80, 140),
            }
        )
    wins = [sum(1 / len(r["winners"]) for r in results if s in r["winners"]) for s in range(seats)]
    n = len(results)
    report = {
        "completed": n,
        "seats": [{"name": f"P{s + 1}", "wins": wins[s], "win_rate": wins[s] / n} for s in range(seats)],
    }
    return report, results


def test_an_a_a_compare_flags_no_more_than_its_error_rate():
    """Same distribution on both sides, other seeds' draws: 10 metrics a comparison, 300 comparisons."""
    rnd = random.Random(2026)
    flagged = raw_flagged = 0
    for _ in range(REPETITIONS):
        a, ra = _side(rnd, range(1, 41), 4)
        b, rb = _side(rnd, range(1, 41), 4)
        cmp = compare(a, b, ra, rb)
        assert all("q" in m and (m["q"] is None or m["q"] >= min(m["p"], 1.0)) for m in cmp["metrics"])
        assert "Benjamini-Hochberg" in cmp["fdr"]
        flagged += any(m["significant"] for m in cmp["metrics"])
        raw_flagged += any(stats.significant(m["p"]) for m in cmp["metrics"])
    assert flagged <= MOST_FLAGGED, (flagged, raw_flagged)
    assert raw_flagged > flagged  # what the adjustment is for: raw p values flag more often


def test_an_a_a_component_impact_flags_no_more_than_its_error_rate():
    """72 tests a report (36 types, win and score differences), none with an effect: holding a type is
    drawn independently of the outcome. Raw p values flag some type in most reports; q values in at
    most alpha of them."""
    types = [f"t{i}" for i in range(36)]
    program = SimpleNamespace(
        families=["one", "two"],
        type_order=types,
        family_of={t: ("one" if i < 18 else "two") for i, t in enumerate(types)},
        types={t: {"name": t.upper()} for t in types},
    )
    rnd = random.Random(7)
    flagged = raw_flagged = 0
    for _ in range(REPETITIONS):
        _, done = _side(rnd, range(1, 31), 3)
        for r in done:
            r["held"] = [sorted(t for t in types if rnd.random() < 0.5) for _ in range(3)]
        impact = component_impact(program, done, 3)
        tests = [r[k] for rows in impact.values() for r in rows for k in ("win_rate_diff", "score_diff")]
        assert len(tests) == 72 and all("q" in t for t in tests)
        flagged += any(stats.significant(t["q"]) for t in tests)
        raw_flagged += any(stats.significant(t["p"]) for t in tests)
    assert flagged <= MOST_FLAGGED, (flagged, raw_flagged)
    assert raw_flagged > REPETITIONS // 2, raw_flagged  # unadjusted, most A/A reports would flag something


def test_analyze_shows_q_beside_p_and_says_so():
    r = invoke("analyze", "citadels", "-n", 4, "-p", 3, "--seed", 2, "--quiet")
    assert r.exit_code == 0, r.output
    assert "Benjamini-Hochberg" in r.stdout and "false discovery rate" in r.stdout
    header = next(line for line in r.stdout.splitlines() if line.strip().startswith("type") and "held n" in line)
    assert header.split()[-6:] == ["p", "q", "score", "diff", "p", "q"]
    d = json.loads(invoke("analyze", "citadels", "-n", 4, "-p", 3, "--seed", 2, "--json").stdout)
    row = d["components"]["district"][0]
    assert "q" in row["win_rate_diff"] and "q" in row["score_diff"] and "Benjamini-Hochberg" in d["fdr"]


def test_analyze_names_the_automated_seat_as_play_does():
    r = invoke("analyze", "golden-temple", "-n", 2, "-p", 1, "--quiet", "--json")
    assert r.exit_code == 0, r.output
    seats = json.loads(r.stdout)["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("P1", "random"), ("Maharaja", "automated")]
