"""Every AST node type has exactly one compile handler, and every compiled statement kind one runner."""

import inspect

from mason.dsl import ast as A
from mason.dsl.expr import ExprCompiler
from mason.dsl.stmt import SIMPLE_KINDS, StmtCompiler
from mason.runtime import engine  # noqa: F401  (the machine's tables, filled)
from mason.runtime.machine import FRAME, STMT


def _subclasses(base):
    return [c for c in A.NODE_TYPES.values() if issubclass(c, base) and c is not base]


def test_every_expression_node_has_a_compiler():
    missing = [c.__name__ for c in _subclasses(A.Expr) if not hasattr(ExprCompiler, "c_" + c.__name__)]
    assert missing == []


def test_every_statement_node_has_a_compiler():
    missing = [c.__name__ for c in _subclasses(A.Stmt) if not hasattr(StmtCompiler, "s_" + c.__name__)]
    assert missing == []


def test_every_compiled_kind_has_a_runner():
    source = inspect.getsource(StmtCompiler)
    import re

    kinds = set(re.findall(r'Node\("([a-z_]+)"', source)) - {"block"}
    assert kinds, "no statement kinds found"
    assert sorted(k for k in kinds if k not in STMT) == []
    assert SIMPLE_KINDS <= set(STMT)


def test_every_frame_kind_has_a_handler():
    from mason.runtime import frames as F

    kinds = {F.FLOW, F.BLOCK, F.FOR, F.REPEAT, F.WHILE, F.CHOICE, F.OPTION, F.TURN}
    assert kinds == {"flow", "block", "for", "repeat", "while", "choice", "option", "turn"}
    assert kinds == set(FRAME)
