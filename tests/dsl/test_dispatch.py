"""Every AST node type has exactly one compile handler, and every compiled statement kind one runner.

A statement is one class (mason.dsl.constructs): its grammar rules, its tree mapping, its compile,
its run and, optionally, its fast form; the registry is what the parser, the compiler, the machine
and the block writer read.
"""

import inspect
import re

from mason.dsl import ast as A
from mason.dsl import constructs
from mason.dsl.expr import ExprCompiler
from mason.runtime import engine  # noqa: F401  (the machine's tables, filled; the statements registered)
from mason.runtime.machine import FRAME


def _subclasses(base):
    return [c for c in A.NODE_TYPES.values() if issubclass(c, base) and c is not base]


def test_every_expression_node_has_one_form_with_its_rules_compile_and_fast_form():
    missing = [c.__name__ for c in _subclasses(A.Expr) if c not in constructs.FORMS]
    assert missing == []
    for node_type, form in constructs.FORMS.items():
        assert form.node is node_type and form.rules, form.__name__
        assert all(constructs.EXPRESSIONS[rule] is form for rule in form.rules), form.__name__
        assert callable(form.compile) and callable(form.from_tree), form.__name__
    assert not any(name.startswith("c_") for name in vars(ExprCompiler))  # no parallel compile table


def test_every_statement_class_is_registered_with_its_rules_compile_and_run():
    classes = _subclasses(A.Stmt)
    assert len(classes) >= 20
    for cls in classes:
        assert cls.rules, f"{cls.__name__} has no grammar rule"
        assert all(constructs.STATEMENTS[rule] is cls for rule in cls.rules), cls.__name__
        assert "compile" in cls.__dict__, f"{cls.__name__} does not compile itself"
        for kind in cls.kinds:
            assert constructs.KINDS[kind].owner is cls


def test_every_compiled_kind_has_a_runner():
    kinds = set()
    for cls in _subclasses(A.Stmt):
        source = inspect.getsource(cls.compile)
        kinds |= set(re.findall(r'(?:Node|Compiled)\(\s*"([a-z_]+)"', source))
    kinds -= {"block"}
    assert kinds, "no statement kinds found"
    assert sorted(k for k in kinds if k not in constructs.KINDS) == []
    for kind, entry in constructs.KINDS.items():
        assert entry.run is not A.Stmt.run, f"statement kind '{kind}' has no run"


def test_every_frame_kind_has_a_handler():
    from mason.runtime import frames as F

    kinds = {F.FLOW, F.BLOCK, F.FOR, F.REPEAT, F.WHILE, F.CHOICE, F.OPTION, F.TURN}
    assert kinds == {"flow", "block", "for", "repeat", "while", "choice", "option", "turn"}
    assert kinds == set(FRAME)
