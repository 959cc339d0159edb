"""Registries refuse a second registration under one name; a board primitive is one BoardKind object."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

import mason.primitives  # noqa: F401  (every primitive registered)
from mason.dsl.builtins import BUILTINS, PROCEDURES, RegistrationError, builtin, procedure
from mason.presentation import render
from mason.runtime import boards, machine
from mason.runtime.boards import BOARD_CHECKS, BOARD_KINDS, KINDS, BoardKind, board_kind, board_model

PRIMITIVES = Path(mason.primitives.__file__).parent


@pytest.fixture
def scratch():
    """Names made by a test, removed from every table afterwards."""
    made = []
    yield made
    for table, name in made:
        table.pop(name, None)
    for name in [n for n in KINDS if n.startswith("zz_")]:
        for table in (KINDS, BOARD_KINDS, BOARD_CHECKS):
            table.pop(name, None)


def test_builtin_twice_is_refused(scratch):
    scratch.append((BUILTINS, "zz_probe"))
    builtin("zz_probe", 0)(lambda rt: 1)
    with pytest.raises(RegistrationError, match="builtin 'zz_probe' is registered twice"):
        builtin("zz_probe", 0)(lambda rt: 2)
    assert BUILTINS["zz_probe"].impl(None) == 1  # the first one stays


def test_existing_builtin_and_procedure_cannot_be_replaced():
    with pytest.raises(RegistrationError, match="builtin 'count' is registered twice: by mason.dsl.builtins"):
        builtin("count", 1)(lambda rt, x: 0)
    some_procedure = next(iter(PROCEDURES))
    with pytest.raises(RegistrationError, match=f"procedure '{some_procedure}' is registered twice"):
        procedure(some_procedure, 0)(lambda rt, node: None)


def test_board_kind_twice_is_refused(scratch):
    board_kind("zz_board")(lambda d, p, t: {})
    with pytest.raises(RegistrationError, match="board kind 'zz_board' is registered twice"):
        board_kind("zz_board")(lambda d, p, t: {"other": 1})
    with pytest.raises(RegistrationError, match="board kind 'slots' is registered twice: by mason.primitives.slots"):
        board_kind("slots")(lambda d, p, t: {})


def test_board_model_once_and_only_for_a_known_kind(scratch):
    board_kind("zz_shown")(lambda d, p, t: {"n": len(d)})
    board_model("zz_shown")(lambda program, name, data: {"holds": data["n"]})
    with pytest.raises(RegistrationError, match="second board model"):
        board_model("zz_shown")(lambda *a: {})
    with pytest.raises(RegistrationError, match="not registered"):
        board_model("zz_nowhere")(lambda *a: {})


def test_a_board_kind_is_one_object_used_everywhere(scratch):
    checks = []
    kind = boards.register_board_kind(
        BoardKind(
            "zz_whole",
            build=lambda d, players, table: {"players": players},
            check=lambda d, cols: checks.append(d) or [],
            model=lambda program, name, data: {"seen": data["players"]},
            module=__name__,
        )
    )
    assert (
        KINDS["zz_whole"] is kind and BOARD_KINDS["zz_whole"] is kind.build and BOARD_CHECKS["zz_whole"] is kind.check
    )
    program = SimpleNamespace(boards={"pit": {"kind": "zz_whole"}})
    built = boards.build_boards(program, 3, {})
    assert built == {"pit": {"players": 3}}
    # a kind no terminal drawing knows is shown by its model's own keys, on one line
    assert render._boards(program, {"boards": built, "seat": 0}) == ['  pit: {"seen":3}']


def test_every_shipped_board_kind_is_registered_by_a_primitive():
    assert KINDS, "no board kinds registered"
    for name, kind in KINDS.items():
        if name.startswith("zz_"):
            continue
        assert kind.module.startswith("mason.primitives."), (name, kind.module)
        assert kind.build is BOARD_KINDS[name]
        assert (BOARD_CHECKS.get(name) is kind.check) or (kind.check is None and name not in BOARD_CHECKS)


def test_statement_and_frame_twice_are_refused():
    from mason.dsl import ast as A
    from mason.dsl.constructs import statement
    from mason.runtime.statements.counters import Gain

    class Again(Gain):
        """A second definition of ``gain``."""

    try:
        with pytest.raises(RegistrationError, match="statement rule 'gain' is registered twice"):
            statement(Again)
    finally:
        A.NODE_TYPES.pop("Again", None)  # an AST node type only for this test
    with pytest.raises(RegistrationError, match="frame 'block' is registered twice"):
        machine.register_frame("block", lambda rt, fr: None)
    machine.register_frame("block", machine.FRAME["block"])  # the same handler again changes nothing


def test_the_primitives_package_imports_every_module_by_name():
    init = ast.parse((PRIMITIVES / "__init__.py").read_text(encoding="utf-8"))
    listed = {
        alias.name
        for node in ast.walk(init)
        if isinstance(node, ast.ImportFrom) and node.module == "mason.primitives"
        for alias in node.names
    }
    present = {p.stem for p in PRIMITIVES.glob("*.py") if p.stem != "__init__"}
    assert listed == present, (
        f"mason/primitives/__init__.py must import: {sorted(present - listed)}; gone: {sorted(listed - present)}"
    )
