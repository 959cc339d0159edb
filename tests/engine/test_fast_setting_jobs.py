"""``Settings.fast`` reaches every game a batch plays (issue 31 item 6): ``mason analyze`` / ``compare``
hand their games out as settings JSON (which leaves ``fast`` out: a record does not keep it) and
``simulate`` hands out Settings to worker processes or Ray tasks, whose environment (``MASON_FAST``)
may differ from the caller's. Each game must be compiled with fast forms as the caller's settings say,
and ``mason simulate --coverage`` reports how many expressions got a fast form."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from support import invoke

from mason.dsl.fastexpr import FAST
from mason.play import analytics, session
from mason.session import game as game_mod
from mason.session.game import Settings, load_program


@pytest.fixture
def asked(monkeypatch):
    """The ``fast`` argument of every ``load_program`` call that a new game makes."""
    calls: list = []
    real = game_mod.load_program

    def spy(game, variants=(), expansions=(), fast=None):
        calls.append(fast)
        return real(game, variants, expansions, fast)

    monkeypatch.setattr(game_mod, "load_program", spy)
    return calls


@pytest.mark.parametrize("fast", [False, True])
def test_run_games_plays_on_the_path_settings_fast_names(asked, fast):
    base = Settings("citadels", 4, 3, fast=fast)
    results = analytics.run_games(base, 2)
    assert all("error" not in r for r in results)
    assert asked and all(f is fast for f in asked)


def test_compare_until_decided_keeps_settings_fast_in_every_batch(asked):
    from mason.play.sprt import Sequential

    base = Settings("citadels", 4, 5, fast=False)
    test = Sequential(0.5)
    analytics.compare_until_decided([(base, "random", {}), (base, "random", {})], ("win", 0), test, 2, 4)
    assert asked and all(f is False for f in asked)


@pytest.mark.parametrize("on", [False, True])
def test_run_games_resolves_an_unset_fast_in_the_caller(monkeypatch, on):
    """``fast=None`` means the caller's ``MASON_FAST``: decided once, here, and sent with each job, so a
    worker with another environment plays the same way."""
    jobs: list = []
    monkeypatch.setattr("mason.play.parallel.map_games", lambda func, items, **kw: jobs.extend(items) or [])
    monkeypatch.setattr(FAST, "on", on)
    analytics.run_games(Settings("citadels", 4, 1), 3)
    assert [(len(job), job[4]) for job in jobs] == [(5, on)] * 3


@pytest.mark.parametrize("on", [False, True])
def test_simulate_resolves_an_unset_fast_in_the_caller(monkeypatch, on):
    jobs: list = []
    monkeypatch.setattr("mason.play.parallel.map_games", lambda func, items, **kw: jobs.extend(items) or [])
    monkeypatch.setattr(FAST, "on", on)
    session.simulate(Settings("citadels", 4, 1), 2)
    assert [job[0].fast for job in jobs] == [on, on]


def test_a_program_counts_its_fast_forms_made_and_declined():
    on, off = load_program("citadels", (), (), True), load_program("citadels", (), (), False)
    assert on.fast_forms["made"] > 0 and on.fast_forms["on"] is True
    assert off.fast_forms == {"on": False, "made": 0, "declined": 0}


def test_simulate_coverage_shows_the_fast_form_counts():
    out = invoke("simulate", "citadels", "-n", "1", "-p", "4", "--coverage", "--json")
    assert out.exit_code == 0, out.output
    forms = json.loads(out.output)["coverage"]["fast_forms"]
    prog = load_program("citadels")
    blocks = sum(1 for n in prog.nodes if n.kind == "block")
    assert forms == {**prog.fast_forms, "blocks": blocks, "blocks_generated": blocks} and forms["made"] > 0
    text = invoke("simulate", "citadels", "-n", "1", "-p", "4", "--coverage")
    made, declined = prog.fast_forms["made"], prog.fast_forms["declined"]
    assert f"fast forms: {made} expressions made, {declined} declined; {blocks} of {blocks} blocks generated" in (
        text.output
    )


def test_simulate_coverage_on_the_reference_path_says_so(monkeypatch):
    monkeypatch.setattr(FAST, "on", False)
    text = invoke("simulate", "citadels", "-n", "1", "-p", "4", "--coverage")
    assert text.exit_code == 0, text.output
    assert "fast forms: 0 expressions made, 0 declined; 0 of" in text.output
    assert "(off: every construct runs its reference path)" in text.output


def test_replace_keeps_settings_fast():
    """``_shifted`` (the batches of ``--until-decided``) moves the seed and keeps the rest, ``fast`` too."""
    base = Settings("citadels", 4, 7, fast=False)
    assert analytics._shifted(base, 10) == replace(base, seed=17)
    assert analytics._shifted(base, 10).fast is False
