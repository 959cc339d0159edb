"""The test suite's layout, and what makes its helpers importable from every folder.

    tests/engine/            the runtime, saves, the command line, agents, primitives, the log,
                             scenarios and the fixture games' tests
    tests/dsl/               the DSL: parsing, compiling, its documentation, its error messages
    tests/games/<game-id>/   a game's rule tests (named by rule id), data tests
    tests/games/             tests over every game: conformance, goldens, rule coverage
    tests/fixtures/          made-up games the engine tests run; tests/golden/: golden playthroughs

The helper modules stay here in tests/ (``paths``, ``support``, ``scenario``, ``log_schema``,
``golden_tools``, ``log_digest_check`` and the games' ``gt_support``, ``pr_support``, ``isf_support``,
``pillars_tools``): this file puts tests/ on ``sys.path`` before any test module is imported, so a
test in any folder imports them by name. Test folders are not packages, so test file names must stay
unique across the folders. Places come from ``paths`` (never from a test's own ``__file__``).

The suite runs in parallel (``pytest -q -n auto``, pytest-xdist: one worker process per core, each
collecting every module and running its share of the tests in any order), and also as plain
``pytest -q``: a test writes its files under its own ``tmp_path`` (or a scratch directory), never in a
fixed place another test may use at the same time, and depends on no other test having run before it.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    """The suite's own compile cache (mason.model.cache): a fresh folder for the run, shared by the
    xdist workers (they start after this, with this environment), removed at the end; the user's
    cache is neither read nor filled by the many edited copies of games the tests compile. A
    MASON_CACHE_DIR set by the caller is kept."""
    import os
    import tempfile

    if os.environ.get("MASON_CACHE_DIR") is None and not hasattr(config, "workerinput"):
        folder = tempfile.mkdtemp(prefix="mason-test-cache-")
        os.environ["MASON_CACHE_DIR"] = folder
        config._mason_cache = folder


def pytest_unconfigure(config):
    import shutil

    folder = getattr(config, "_mason_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
