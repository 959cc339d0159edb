"""The shape of the ``mason`` package: no import cycles, no old top-level names, imports go down the layers.

The import graph is read from the source with ``ast`` (nothing is imported): every ``import`` and
``from ... import`` statement, at module level *and* inside functions (a function-level import that
dodges a cycle is still a cycle), plus ``importlib.import_module("<constant>")``, each resolved to the
``mason`` module it loads. The layer order is the one written in docs/architecture.md ("Layers").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# package -> folder (pyproject.toml's package-dir mapping)
FOLDERS = {"mason": ROOT / "interpreter", "mason.cli": ROOT / "cli"}

# Layers, lowest first. A module may import modules of its own layer or of a lower one, never of a
# higher one. A pattern names a module or a package (a package pattern covers all its modules); the
# most specific pattern decides. Every layer is one folder (subpackage); only the top-level modules
# (mason, mason.errors, mason.api) are placed one by one. Keep this list and docs/architecture.md
# ("Layers") the same.
LAYERS = [
    ("base", ["mason", "mason.errors"]),
    ("dsl", ["mason.dsl"]),
    ("engine", ["mason.runtime"]),  # frames, statements, choices, turns, state, automated seats
    ("primitives", ["mason.primitives"]),
    ("model", ["mason.model"]),  # rule files -> Program (needs primitives' names)
    ("session", ["mason.session"]),  # Game, saves, determinization
    ("presentation", ["mason.presentation"]),
    ("agents", ["mason.agents"]),
    ("play", ["mason.play", "mason.api", "mason.lsp"]),
    ("web", ["mason.web"]),  # mason serve: the server over the play layer (docs/web.md)
    ("cli", ["mason.cli"]),
]

# Known cycles not removed yet, each a set of modules that import one another (a strongly connected
# component of the graph). The test fails on any other cycle AND on an entry here that is gone, so
# this list only shrinks. Target: empty.
ALLOWED_CYCLES: list[set[str]] = [
    # none left; a cycle that must stay for a while goes here with the reason and the way out
]

# Imports that go up a layer, each (importer, imported) with the reason; the same rule: only shrinks.
ALLOWED_UPWARD = {
    # the seat kinds a save may record are the agents package's constant; a save checks them
    ("mason.session.saves", "mason.agents"): "SEAT_KINDS constant",
}

# Modules allowed to import by a computed name (importlib.import_module with a non-constant argument).
DYNAMIC_IMPORTERS = {
    "mason",  # the lazy public API: __getattr__ imports the module _EXPORTS names for a public name
}

FORBIDDEN_TOP_LEVEL = {"interpreter", "cli"}  # the old top-level names; everything is mason.*


def _modules() -> dict[str, Path]:
    mods = {}
    for pkg, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if "__pycache__" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join([pkg] + parts)] = path
    return mods


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The mason module that importing ``name`` loads (``mason.x.y.attr`` -> ``mason.x.y``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path):
    """(imported module name, line, inside a function, dynamic) for every import in a module."""
    return _imports_in(module, path.read_text(encoding="utf-8"), path.name == "__init__.py")


def _imports_in(module: str, source: str, is_pkg: bool = False):
    tree = ast.parse(source)

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, child.lineno, inner, False
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    pkg = module if is_pkg else module.rpartition(".")[0]
                    for _ in range(child.level - 1):
                        pkg = pkg.rpartition(".")[0]
                    base = f"{pkg}.{base}" if base else pkg
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    yield (full if full in MODULES else base), child.lineno, inner, False
            elif (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr == "import_module"
            ):
                arg = child.args[0] if child.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value, child.lineno, inner, False
                else:
                    yield "", child.lineno, inner, True
            yield from visit(child, inner)

    yield from visit(tree, False)


def _graph():
    edges: dict[str, dict[str, list]] = {m: {} for m in MODULES}
    raw = {}
    for module, path in MODULES.items():
        raw[module] = list(_imports(module, path))
        for name, line, inner, _dynamic in raw[module]:
            target = _resolve(name) if name.split(".")[0] == "mason" else None
            if target and target != module:
                edges[module].setdefault(target, []).append((line, inner))
    return edges, raw


EDGES, RAW = _graph()


def _cycles(edges) -> list[set[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(edges[w])))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(comp)
    return out


def _describe(comp: set[str]) -> str:
    lines = []
    for m in sorted(comp):
        for t, sites in sorted(EDGES[m].items()):
            if t in comp:
                where = ", ".join(f"line {ln}{' (in a function)' if inner else ''}" for ln, inner in sites)
                lines.append(f"  {m} -> {t}  [{where}]")
    return "\n".join(lines)


def _layer(module: str) -> int:
    best, rank = -1, None
    for i, (_, patterns) in enumerate(LAYERS):
        for p in patterns:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    assert rank is not None, f"{module} is in no layer: add it to LAYERS (and docs/architecture.md)"
    return rank


def test_graph_is_read():
    # the reader itself: known edges are found, including one inside a function
    assert "mason.errors" in EDGES["mason.runtime.machine"]
    assert "mason.dsl.parser" in EDGES["mason.model.program"]
    found = list(
        _imports_in(
            "mason.runtime.x",
            "import mason.errors\n"
            "def f():\n    from ..dsl import parser\n    from . import machine\n"
            "importlib.import_module('mason.api')\nimportlib.import_module(name)\n",
        )
    )
    assert found == [
        ("mason.errors", 1, False, False),
        ("mason.dsl.parser", 3, True, False),
        ("mason.runtime.machine", 4, True, False),
        ("mason.api", 5, False, False),
        ("", 6, False, True),
    ]
    assert _cycles({"a": {"b": 0}, "b": {"c": 0}, "c": {"a": 0}, "d": {"a": 0}}) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b": 0}, "b": {}}) == []


def test_no_import_cycles():
    found = _cycles(EDGES)
    unexpected = [c for c in found if not any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert not unexpected, "import cycles among mason modules:\n" + "\n\n".join(_describe(c) for c in unexpected)
    stale = [a for a in ALLOWED_CYCLES if not any(c & a and len(c & a) == len(a) for c in found)]
    assert not stale, f"these allowed cycles are gone (or smaller): shrink ALLOWED_CYCLES: {stale}"


def test_no_old_top_level_names():
    bad = [
        f"{m}:{line} imports {name}"
        for m, items in RAW.items()
        for name, line, _, dyn in items
        if not dyn and name.split(".")[0] in FORBIDDEN_TOP_LEVEL
    ]
    assert not bad, "import mason.* names only:\n" + "\n".join(bad)


def test_no_dynamic_imports():
    bad = [f"{m}:{line}" for m, items in RAW.items() for _, line, _, dyn in items if dyn and m not in DYNAMIC_IMPORTERS]
    assert not bad, (
        "import_module with a computed name hides an import from this test; import explicitly:\n" + "\n".join(bad)
    )


def test_every_module_has_a_layer():
    for module in MODULES:
        _layer(module)


def test_imports_go_down_the_layers():
    bad = []
    for m, targets in EDGES.items():
        for t, sites in targets.items():
            if _layer(t) > _layer(m) and (m, t) not in ALLOWED_UPWARD:
                bad.append(f"{m} ({LAYERS[_layer(m)][0]}) imports {t} ({LAYERS[_layer(t)][0]}) at line {sites[0][0]}")
    assert not bad, "imports up the layers:\n" + "\n".join(bad)
    stale = [k for k in ALLOWED_UPWARD if k[1] not in EDGES.get(k[0], {})]
    assert not stale, f"shrink ALLOWED_UPWARD, these imports are gone: {stale}"


def _folder(module: str) -> str:
    """The subpackage (folder) a module lives in; a top-level module stands for itself."""
    parts = module.split(".")
    if module == "mason.cli" or module.startswith("mason.cli."):
        return "mason.cli"
    if len(parts) > 2 or MODULES[module].name == "__init__.py":
        return ".".join(parts[:2])
    return module


def test_each_folder_is_one_layer():
    """Folders match the layers: all modules of a subpackage sit in the same layer."""
    layers: dict[str, set[str]] = {}
    for m in MODULES:
        layers.setdefault(_folder(m), set()).add(LAYERS[_layer(m)][0])
    mixed = {f: sorted(ls) for f, ls in layers.items() if len(ls) > 1}
    assert not mixed, f"a folder spans several layers (split it or move modules): {mixed}"


def test_no_folder_imports_a_folder_above_it():
    bad = []
    for m, targets in EDGES.items():
        for t in targets:
            fm, ft = _folder(m), _folder(t)
            if fm != ft and _layer(t) > _layer(m) and (m, t) not in ALLOWED_UPWARD:
                bad.append(f"{fm} ({m}) imports {ft} ({t})")
    assert not bad, "folders importing a folder above them:\n" + "\n".join(sorted(bad))


@pytest.mark.parametrize(
    "low,high",
    [
        ("mason.dsl", "mason.runtime"),
        ("mason.dsl", "mason.play"),
        ("mason.dsl", "mason.model"),
        ("mason.model", "mason.play"),
        ("mason.primitives", "mason.play"),
        ("mason.primitives", "mason.model"),
        ("mason.runtime.machine", "mason.model"),
        ("mason.runtime", "mason.session"),
        ("mason.model", "mason.session"),
        ("mason.session", "mason.presentation"),
        ("mason.presentation", "mason.agents"),
        ("mason.agents", "mason.play"),
    ],
)
def test_named_layer_rules(low, high):
    bad = [
        f"{m} -> {t}"
        for m, targets in EDGES.items()
        if m == low or m.startswith(low + ".")
        for t in targets
        if t == high or t.startswith(high + ".")
    ]
    assert not bad, f"{low} must not import {high}: " + ", ".join(bad)


# Modules that cannot be the first mason module a process imports, because of a cycle above that
# they enter from the wrong end (the same cycles: shrink together).
FRAGILE_FIRST_IMPORT: set[str] = set()

_IMPORT_EACH = r"""
import os, sys
bad = []
for name in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:
        try:
            __import__(name)
        except BaseException as exc:
            sys.stderr.write(f"{name}: {type(exc).__name__}: {exc}\n")
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status:
        bad.append(name)
print(" ".join(bad))
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_every_module_imports_first():
    """Each module imports in a fresh process as the first mason module (no import-order dependence)."""
    import subprocess
    import sys

    names = sorted(MODULES)
    run = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH, *names], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    failed = set(run.stdout.split())
    assert run.returncode == 0, run.stderr
    assert failed == FRAGILE_FIRST_IMPORT, (
        f"cannot be imported first: {sorted(failed - FRAGILE_FIRST_IMPORT)}; "
        f"fixed, remove from FRAGILE_FIRST_IMPORT: {sorted(FRAGILE_FIRST_IMPORT - failed)}\n{run.stderr}"
    )
