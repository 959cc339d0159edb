"""Where things are, for every test folder: the repository, tests/, its fixture games and goldens.

Tests live in tests/engine, tests/dsl and tests/games/<game-id>; ``tests/conftest.py`` puts tests/ on
``sys.path``, so ``import paths`` (like ``support``, ``scenario`` and the games' helpers) works from any
of them, and no test computes a place from its own ``__file__``.
"""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
GAMES = ROOT / "games"
FIXTURES = TESTS / "fixtures"
GOLDEN = TESTS / "golden"
PROBES = ROOT / "benchmarks" / "probes"  # engine probes (benchmarks/work_per_decision.py)
