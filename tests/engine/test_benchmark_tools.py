"""The benchmark tools' own inputs stay usable: the engine probe game validates and plays to its end,
and the work counter of benchmarks/work_per_decision.py counts exactly and repeatably."""

from __future__ import annotations

import importlib.util

import paths

from mason.model.validate import validate_game
from mason.play.session import simulate
from mason.session.game import Settings

PROBE = paths.ROOT / "benchmarks" / "probes" / "choices-only"


def _tool(name="work_per_decision"):
    spec = importlib.util.spec_from_file_location(name, paths.ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_choices_only_probe_validates_and_plays_its_400_decisions_per_seat():
    prog, errors = validate_game(str(PROBE))
    assert not errors
    report = simulate(Settings(str(PROBE), 2, 1, (), (), {}), 2)
    assert report["errors"] == []
    assert [r["decisions"] for r in report["results"]] == [800, 800]  # 2 seats x 20 picks x 20 rounds
    for r in report["results"]:
        assert all(400 <= s <= 1200 for s in r["scores"])  # 400 picks of 1..3 each


def test_work_counter_is_repeatable_and_sorts_the_engine_into_areas():
    tool = _tool()
    first = tool.count_bytecodes(str(PROBE), 1, 2)
    second = tool.count_bytecodes(str(PROBE), 1, 2)
    assert first == second  # the same code and seed: the same counts
    decisions, counts = first
    assert decisions == 800
    areas = {tool.area_of(file, func) for file, func in counts}
    assert {"run loop and frames", "choices and answers", "bots", "statements"} <= areas
    assert tool.area_of("machine.py", "value") == "named values and modifiers"
    assert tool.area_of("<mason expression>", "_c1") == "expressions (generated and closures)"


def test_work_counter_leaves_out_the_rule_files_look_on_the_clock(monkeypatch):
    """load_program looks at a kept program's rule files once a second: a count must not depend on
    whether that second passed during the traced games (it made the counts differ under load)."""
    from mason.session import game as game_module

    tool = _tool()
    monkeypatch.setattr(game_module, "RECHECK_SECONDS", 0.0)  # the look at every game
    every_game = tool.count_bytecodes(str(PROBE), 1, 2)
    monkeypatch.setattr(game_module, "RECHECK_SECONDS", 3600.0)  # never within the test
    never = tool.count_bytecodes(str(PROBE), 1, 2)
    assert every_game == never
    assert game_module.RECHECK_SECONDS == 3600.0  # restored after counting


def test_workers_ceiling_times_one_loop_alone_then_two_at_once(monkeypatch):
    """bench_workers --ceiling: the speed-up it reports is twice the work in the pair's wall time."""
    tool = _tool("bench_workers")
    monkeypatch.setattr(tool, "SPIN", "d = {}\nfor i in range(200_000):\n    d[i & 1023] = i\n")
    calls = []
    real = tool.subprocess.Popen

    def counted(cmd, *args, **kw):
        calls.append(cmd)
        return real(cmd, *args, **kw)

    monkeypatch.setattr(tool.subprocess, "Popen", counted)
    alone, pair, up = tool.ceiling()
    assert alone > 0 and pair > 0 and up == 2 * alone / pair
    assert len(calls) == 3 and all(c[-1] == tool.SPIN for c in calls)  # the loop alone, then two copies


def test_workers_counts_the_modules_whose_cached_bytecode_is_up_to_date(tmp_path, monkeypatch):
    """bench_workers says for how many modules Python has up-to-date bytecode: none before compiling,
    all after, and one fewer once a source is edited (its size changed) after its bytecode was written."""
    import py_compile
    import sys

    tool = _tool("bench_workers")
    pkg = tmp_path / "cachedpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("X = 1\n")
    (pkg / "sub").mkdir()
    (pkg / "sub" / "__init__.py").write_text("Y = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "cachedpkg", raising=False)
    assert tool.bytecode_cached("cachedpkg") == (0, 3)

    def compile_all(mode):
        for src in pkg.rglob("*.py"):
            cfile = importlib.util.cache_from_source(str(src))
            py_compile.compile(str(src), cfile=cfile, doraise=True, invalidation_mode=mode)

    for mode in (py_compile.PycInvalidationMode.TIMESTAMP, py_compile.PycInvalidationMode.CHECKED_HASH):
        (pkg / "mod.py").write_text("X = 1\n")
        compile_all(mode)
        assert tool.bytecode_cached("cachedpkg") == (3, 3), mode
        (pkg / "mod.py").write_text("X = 10\n")  # edited: one byte longer, another hash
        assert tool.bytecode_cached("cachedpkg") == (2, 3), mode
    compile_all(py_compile.PycInvalidationMode.UNCHECKED_HASH)  # used whatever the source
    (pkg / "mod.py").write_text("X = 100\n")
    assert tool.bytecode_cached("cachedpkg") == (3, 3)
    assert tool.bytecode_cached("no_such_package_here") == (0, 0)


def test_a_benchmark_row_goes_into_its_own_table_not_at_the_end_of_the_file(tmp_path):
    results = tmp_path / "RESULTS.md"
    results.write_text("# B\n\n## One\n\ntext\n\n| a |\n|---|\n| 1 |\n\nnotes\n\n## Two\n\n| b |\n|---|\n| 2 |\n")
    _tool("results_table").insert_rows(results, "## One", ["| 3 |", "| 4 |"])
    assert results.read_text() == (
        "# B\n\n## One\n\ntext\n\n| a |\n|---|\n| 1 |\n| 3 |\n| 4 |\n\nnotes\n\n## Two\n\n| b |\n|---|\n| 2 |\n"
    )


def test_the_per_game_benchmark_times_every_game_it_is_given():
    times, decisions = _tool("bench_game").measure("citadels", 4, 2, 5, ["dark-city"])
    assert len(times) == 2 and all(t > 0 for t in times) and decisions > 0
