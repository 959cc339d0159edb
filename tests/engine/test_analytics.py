"""``mason analyze`` / ``mason compare``: the statistics against known values, the JSON structure, the
HTML page (self-contained, four plots at least), the progress bar and the one-line refusals."""

from __future__ import annotations

import json
import math
import re

import pytest
from support import invoke

from mason.play import stats
from mason.play.analytics import _holdings, compare, run_games, summarize
from mason.session.game import Settings, load_program


# ------------------------------------------------------------------ statistics
def test_wilson_known_values():
    lo, hi = stats.wilson(8, 10)  # the textbook 8/10 example
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson(0, 0) is None


def test_seat_balance_chi_square():
    b = stats.seat_balance([30, 10, 10, 10])  # expected 15 each: (225 + 3 * 25) / 15 = 20
    assert b["statistic"] == pytest.approx(20.0) and b["df"] == 3
    assert b["p"] == pytest.approx(1.7e-4, rel=0.01)
    assert stats.seat_balance([5, 5])["p"] == pytest.approx(1.0)
    assert stats.seat_balance([0, 0])["p"] is None


def test_describe_quartiles():
    d = stats.describe([1, 2, 3, 4])
    assert (d["mean"], d["q1"], d["median"], d["q3"], d["min"], d["max"]) == (2.5, 1.75, 2.5, 3.25, 1, 4)
    assert d["sd"] == pytest.approx(math.sqrt(5 / 3))
    assert stats.describe([])["mean"] is None


def test_two_proportions_z_and_sample_size():
    t = stats.two_proportions(50, 100, 65, 100)
    assert t["diff"] == pytest.approx(0.15)
    assert t["statistic"] == pytest.approx(2.1456, abs=1e-3)
    assert t["p"] == pytest.approx(0.0319, abs=1e-3)
    # (1.96 sqrt(2 .575 .425) + 0.8416 sqrt(.25 + .2275))^2 / .15^2 = 169.3 (the usual table: 170)
    assert t["n_needed"] == 170
    assert stats.n_for_proportions(0.3, 0.3) is None


def test_newcombe_interval_of_a_difference():
    # Newcombe (1998), example 56/70 - 48/80: method 10 gives 0.0524 to 0.3339
    lo, hi = stats.two_proportions(48, 80, 56, 70)["ci95"]
    assert lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)


def test_welch_matches_scipy_and_sample_size():
    from scipy.stats import ttest_ind

    a, b = [10, 12, 11, 14, 13, 9, 12], [15, 14, 17, 13, 16, 18]
    t = stats.two_means(a, b, paired=False)
    ref = ttest_ind(b, a, equal_var=False)
    assert t["p"] == pytest.approx(ref.pvalue) and t["statistic"] == pytest.approx(ref.statistic)
    assert t["diff"] == pytest.approx(sum(b) / 6 - sum(a) / 7)
    assert t["ci95"][0] < t["diff"] < t["ci95"][1] and t["ci95"][0] > 0
    assert t["mann_whitney_p"] < 0.05
    # 2 (1.96 + 0.8416)^2 * 4 / 1 = 62.8
    assert stats.n_for_means(1.0, 2.0, 2.0) == 63
    assert stats.two_means([3, 3], [3, 3])["p"] == 1.0


def test_paired_t():
    t = stats.two_means([1, 2, 3, 4], [2, 3, 5, 5], paired=True)
    # differences 1, 1, 2, 1: mean 1.25, sd 0.5, t = 1.25 / (0.5 / 2) = 5 on 3 df, p = 0.0154
    assert t["paired_t_p"] == pytest.approx(0.01539, abs=1e-4)


# ------------------------------------------------------------------ holdings and reports
def test_holdings_from_seat_zones_and_owner():
    state = {
        "cards": [{"t": "a", "o": None}, {"t": "b", "o": None}, {"t": "c", "o": 1}, {"t": "d", "o": None}],
        "zones": {"deck": [3], "hand/0": [0], "city/1": [1], "hand/1": []},
    }
    held = [set(), set()]
    _holdings(state, held)
    assert held == [{"a"}, {"b", "c"}]


def test_summary_is_deterministic_and_covers_every_family():
    base = Settings("citadels", 3, 5, (), (), ())
    r1, r2 = run_games(base, 6, coverage=True), run_games(base, 6, coverage=True)
    assert r1 == [dict(r, seconds=x["seconds"]) for r, x in zip(r2, r1)]
    rep = summarize(base, "random", None, r1)
    prog = load_program("citadels")
    assert list(rep["components"]) == list(prog.families)
    assert sum(len(v) for v in rep["components"].values()) == len(prog.types)
    assert sum(s["wins"] for s in rep["seats"]) == pytest.approx(rep["completed"])
    for row in rep["components"]["district"]:
        assert row["held"]["n"] + row["not_held"]["n"] == 3 * rep["completed"]
    assert rep["length"]["rounds"]["n"] == 6


def test_component_impact_compares_the_players_seats_only_not_an_automated_one():
    """Solo Golden Temple: the Maharaja (an automated seat) holds no warehouse, objective or mahout, so
    counting his seat made every type look like a loss for whoever held it; one row a game and player."""
    base = Settings("golden-temple", 1, 3, (), (), ())
    rep = summarize(base, "random", None, run_games(base, 4))
    assert rep["completed"] == 4 and len(rep["seats"]) == 2  # the player and the Maharaja
    for rows in rep["components"].values():
        for row in rows:
            assert row["held"]["n"] + row["not_held"]["n"] == rep["completed"]


def test_compare_of_a_setting_with_itself_finds_nothing():
    base = Settings("citadels", 4, 1, (), (), ())
    res = run_games(base, 8)
    a = summarize(base, "random", None, res, coverage=False)
    cmp = compare(a, a, res, res)
    assert cmp["paired_seeds"] == 8
    for m in cmp["metrics"]:
        assert m["diff"] == 0 and not m["significant"] and m["n_needed"] is None, m


# ------------------------------------------------------------------ the commands
def test_analyze_json_structure_and_no_progress_with_json():
    r = invoke("analyze", "citadels", "-n", 6, "-p", 3, "--seed", 2, "--json")
    assert r.exit_code == 0, r.output
    assert r.stderr == ""  # no progress bar with --json
    d = json.loads(r.stdout)
    assert d["report_format"] == 1 and d["games"] == 6 and d["completed"] == 6
    assert set(d) >= {"settings", "seats", "balance", "length", "components", "coverage", "results", "ties"}
    assert [s["name"] for s in d["seats"]] == ["P1", "P2", "P3"]
    seat = d["seats"][0]
    assert set(seat["score"]) == {"n", "mean", "sd", "min", "q1", "median", "q3", "max"}
    assert 0 <= seat["ci95"][0] <= seat["win_rate"] <= seat["ci95"][1] <= 1
    row = d["components"]["district"][0]
    assert set(row) == {"type", "name", "held", "not_held", "win_rate_diff", "score_diff"}
    assert set(d["coverage"]) == {"fired", "never"}


def test_analyze_text_shows_progress_on_stderr_only():
    r = invoke("analyze", "citadels", "-n", 3, "-p", 2)
    assert r.exit_code == 0, r.output
    assert "win rate" in r.stdout and "seat balance" in r.stdout and "component impact" in r.stdout
    assert r.stderr.strip()  # the progress bar
    assert invoke("analyze", "citadels", "-n", 3, "-p", 2, "--quiet").stderr == ""


def _self_contained(page: str):
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page, re.IGNORECASE)
    assert "<script" not in page.lower() and "@import" not in page
    assert not re.search(r"""url\(\s*["']?(?!#)""", page)  # only references inside the page
    assert page.count("<svg") + page.count("<img") >= 4


def test_analyze_html_is_self_contained(tmp_path):
    out = tmp_path / "report.html"
    r = invoke("analyze", "citadels", "-n", 5, "-p", 3, "--html", out, "--quiet")
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    _self_contained(page)
    assert "Win rate by seat" in page and "Component impact" in page and "Rules never fired" in page


def test_compare_json_html_and_significant_length(tmp_path):
    out = tmp_path / "cmp.html"
    r = invoke(
        "compare", "citadels", "-n", 40, "-p", 4, "--seed", 1, "--b", "variant=short_game", "--json", "--html", out
    )
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    d = json.loads(r.stdout)
    assert d["a"]["settings"]["variants"] == [] and d["b"]["settings"]["variants"] == ["short_game"]
    assert [x["seed"] for x in d["a"]["results"]] == [x["seed"] for x in d["b"]["results"]]
    rounds = next(m for m in d["metrics"] if m["metric"] == "rounds")
    assert rounds["diff"] < 0 and rounds["significant"] and rounds["n_needed"] >= 2
    assert {m["test"] for m in d["metrics"]} == {"two-proportion z", "Welch t"}
    _self_contained(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "args, words",
    [
        (["compare", "citadels", "-n", 5, "--b", "variant=nosuch"], "--b variant=nosuch: unknown variant 'nosuch'"),
        (["compare", "citadels", "-n", 5, "--b", "foo"], "--b foo: expected variant=V"),
        (["compare", "citadels", "-n", 5, "--a", "bots=nosuch", "--b", "with=dark-city"], "unknown bot kind"),
        (["compare", "citadels", "-n", 5, "--b", "option=nope=1"], "--b option=nope=1: Citadels has no option"),
        (["analyze", "citadels", "-n", 5, "--html", "/nonexistent-dir/r.html"], "no directory"),
        (["analyze", "citadels", "-n", 5, "--bot", "1=human"], "plays bots only"),
    ],
)
def test_bad_settings_one_line_before_any_game(args, words, monkeypatch):
    from mason.play import analytics

    def no_games(*a, **k):
        raise AssertionError("a game ran")

    monkeypatch.setattr(analytics, "run_games", no_games)
    r = invoke(*args)
    assert r.exit_code != 0 and isinstance(r.exception, SystemExit)
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and words in err[0], r.stderr
    assert "Traceback" not in r.output


def _rows(not_held_counts, total=100):
    return [{"held": {"n": total - k}, "not_held": {"n": k}} for k in not_held_counts]


def test_a_family_most_seats_held_gets_a_caution_and_others_do_not():
    from mason.play.analytics import FEW_NOT_HELD, component_notes

    notes = component_notes({"character": _rows([5, 10, 15, 30]), "district": _rows([20, 40, 60])})
    assert set(notes) == {"character"}
    assert "a median of 12% of seat-games did not" in notes["character"]
    assert component_notes({"x": _rows([int(FEW_NOT_HELD * 100)] * 3)}) == {}  # at the threshold: no note
    assert component_notes({"x": _rows([0, 100])}) == {}  # no type both held and not held


def test_analyze_shows_the_caution_under_its_family():
    r = invoke("analyze", "citadels", "-n", 20, "-p", 4, "--seed", 1, "--quiet")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    i = next(k for k, l in enumerate(lines) if l.strip().startswith("character ("))
    assert lines[i + 1].strip().startswith("note: most seats held each character type at some point")
    d = json.loads(invoke("analyze", "citadels", "-n", 20, "-p", 4, "--seed", 1, "--json").stdout)
    assert "character" in d["component_notes"] and "district" not in d["component_notes"]


def test_compare_page_shows_each_sides_caution_by_its_chart_and_analyze_once(tmp_path):
    out = tmp_path / "cmp.html"
    r = invoke("compare", "citadels", "-n", 20, "-p", 4, "--seed", 1, "--b", "variant=short_game", "--html", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "A: plain game: character: most seats held" in page
    assert "B: variant=short_game: character: most seats held" in page
    one = tmp_path / "one.html"
    assert invoke("analyze", "citadels", "-n", 20, "-p", 4, "--html", one, "--quiet").exit_code == 0
    assert one.read_text(encoding="utf-8").count("most seats held each character type") == 1
