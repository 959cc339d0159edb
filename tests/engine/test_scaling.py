"""Simulation spread over worker processes or Ray gives the same report as one process (issue 12)."""

from __future__ import annotations

import json
import operator
import sys

import pytest
from click.testing import CliRunner

from mason.cli.main import main
from mason.play.parallel import RAY_MISSING, chunk_bounds, map_games
from mason.play.session import simulate
from mason.session.game import Settings


def _same(report: dict) -> dict:
    """A simulate report without its timing fields."""
    report = dict(report)
    report.pop("seconds")
    report["stats"] = {k: v for k, v in report["stats"].items() if k != "decisions_per_second"}
    return report


@pytest.mark.parametrize("n, parts", [(1, 1), (1, 4), (7, 3), (10, 4), (400, 8), (5, 5)])
def test_chunks_are_contiguous_balanced_and_cover_everything(n, parts):
    bounds = chunk_bounds(n, parts)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    sizes = [b - a for a, b in bounds]
    assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1
    assert len(bounds) == min(n, parts)


def test_map_games_keeps_the_order_of_the_items_on_a_pool():
    items = list(range(37))
    seen = []
    out = map_games(operator.neg, items, workers=3, chunks_per_worker=3, on_done=seen.append)
    assert out == [-i for i in items]
    assert seen == sorted(seen) and seen[-1] == len(items)  # progress counts up to every item
    assert map_games(operator.neg, items) == out  # and the same in this process
    assert map_games(operator.neg, [], workers=2) == []


def test_two_workers_give_the_report_of_one():
    base = Settings("citadels", 4, 11)
    done = []
    one = simulate(base, 10, workers=1)
    two = simulate(base, 10, workers=2, on_done=done.append)
    assert one["completed"] == 10 and not one["errors"]
    assert _same(two) == _same(one)
    assert [r["seed"] for r in two["results"]] == list(range(11, 21))
    assert done[-1] == 10


def test_workers_start_with_the_game_compiled_once_in_the_calling_process(monkeypatch):
    """With workers, the game is compiled before the pool starts: forked workers start with it (their
    initializer finds it), and the report's seat names need it after."""
    from mason.play import parallel, session
    from mason.session import game as game_module

    key = game_module.program_key("citadels")
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    seen = []
    real = parallel.map_games

    def watched(*args, **kwargs):
        seen.append(key in game_module._PROGRAMS)
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "map_games", watched)
    report = session.simulate(Settings("citadels", 4, 3), 4, workers=2)
    assert seen == [True] and report["completed"] == 4


def test_spawned_workers_give_the_report_of_one(monkeypatch):
    from mason.play import parallel

    base = Settings("citadels", 4, 7)
    one = simulate(base, 4, workers=1)
    monkeypatch.setattr(parallel, "_start_method", lambda: "spawn")  # as on macOS and Windows
    assert _same(simulate(base, 4, workers=2)) == _same(one)


def test_workers_with_coverage_and_mixed_seats_give_the_report_of_one():
    base = Settings("citadels", 4, 3)
    one = simulate(base, 6, workers=1, coverage=True, player_counts=(4, 5), seat_bots={0: "greedy"})
    three = simulate(base, 6, workers=3, coverage=True, player_counts=(4, 5), seat_bots={0: "greedy"})
    assert one["coverage"] and _same(three) == _same(one)


def test_cli_workers_give_the_same_json():
    runs = [
        CliRunner().invoke(main, ["simulate", "citadels", "-n", "6", "-p", "4", "--workers", w, "--json"])
        for w in ("1", "2")
    ]
    assert [r.exit_code for r in runs] == [0, 0]
    assert _same(json.loads(runs[0].stdout)) == _same(json.loads(runs[1].stdout))


def test_cli_ray_without_ray_installed_is_a_one_line_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    result = CliRunner().invoke(main, ["simulate", "citadels", "-n", "2", "-p", "4", "--ray", "--json"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"error[cli/ray]: {RAY_MISSING}"]
    assert "Traceback" not in result.output
    result = CliRunner().invoke(main, ["simulate", "citadels", "-n", "2", "-p", "4", "--ray", "ray://head:10001"])
    assert result.exit_code == 1 and "--ray needs Ray" in result.stderr and "Traceback" not in result.output


def test_ray_gives_the_report_of_a_local_run():
    ray = pytest.importorskip("ray", reason="Ray cannot be installed here: pip install 'mason[ray]' to run this")
    base = Settings("citadels", 4, 5)
    local = simulate(base, 8, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        done = []
        remote = simulate(base, 8, ray=True, on_done=done.append)  # joins the instance started above
        cli = CliRunner().invoke(main, ["simulate", "citadels", "-n", "8", "-p", "4", "--seed", "5", "--ray", "--json"])
    finally:
        ray.shutdown()
    assert _same(remote) == _same(local) and done[-1] == 8
    assert cli.exit_code == 0, cli.output
    assert _same(json.loads(cli.stdout)) == _same(local)


def test_a_dead_local_ray_cluster_on_record_is_not_joined(monkeypatch):
    ray = pytest.importorskip("ray", reason="Ray cannot be installed here: pip install 'mason[ray]' to run this")
    import socket

    from mason.play import parallel

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        monkeypatch.setattr(ray._private.services, "find_bootstrap_address", lambda temp_dir: f"127.0.0.1:{port}")
        assert not parallel._stale_local_cluster(ray)  # something answers there: join it
    assert parallel._stale_local_cluster(ray)  # closed now: start a fresh instance instead
    monkeypatch.setattr(ray._private.services, "find_bootstrap_address", lambda temp_dir: None)
    assert not parallel._stale_local_cluster(ray)  # nothing on record: ray.init() starts one
