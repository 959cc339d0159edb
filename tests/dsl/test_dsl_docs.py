"""docs/dsl.md is executable: every example runs against the mini fixture game and must hold.

Conventions (documented in docs/dsl.md, "The examples on this page"):

- a ```mason-effect block is an effect; comment lines ``# check: EXPR``, ``# options: A, B``,
  ``# answer: A`` (or ``[A, B]`` for an "up to" decision), ``# error: CODE``, ``# me: N``,
  ``# self: COMPONENT_ID`` and ``# after: ACTION LABEL`` say what happens;
- a ```mason-expr block holds one ``EXPR  # => LITERAL`` per line (``# after:``/``# me:``
  lines allowed first);
- the rows of the builtin table (``| `name` | gives | `example` | `result` |``) are expression
  examples too;
- a ```yaml block starting with ``# from tests/fixtures/mini/FILE`` must be part of that file.

Each example starts from the same prepared state: the fixture with 3 players, seed 1, in P1's
first turn (as the Jeweller), P1 acting. Coverage tests make sure every builtin, statement kind,
AST node type and context name is shown by a tested example.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import paths
import pytest
from support import random_answer

from mason.dsl import ast as A
from mason.dsl.builtins import BUILTINS, PROCEDURES
from mason.dsl.constructs import KINDS
from mason.dsl.expr import Scope
from mason.dsl.expressions.operators import _BIN
from mason.dsl.parser import parse_effect, parse_expression
from mason.dsl.stmt import Node
from mason.errors import MasonError
from mason.model.names import CONTEXT_NAMES
from mason.model.validate import validate_game
from mason.model.yamlpos import load_yaml_text
from mason.runtime import statements as S
from mason.runtime.engine import FRAME, check_answer, resume, run
from mason.runtime.state import new_state
from mason.session.game import Game, Settings

ROOT = paths.ROOT
DOC = ROOT / "docs" / "dsl.md"
RULE_FILES_DOC = ROOT / "docs" / "rule-files.md"
SCHEMAS = ROOT / "schemas"
FIXTURE = paths.FIXTURES / "mini"
PLAYERS, SEED = 3, 1

DIRECTIVE = re.compile(r"^# (check|options|answer|error|me|self|after):\s*(.*)$")
EXPR_LINE = re.compile(r"^(?P<expr>.*?)\s+# => (?P<expected>.+)$")
TABLE_ROW = re.compile(r"^\| `(?P<name>\w+)` \| [^|]* \| `(?P<expr>[^`]+)` \| `(?P<expected>[^`]+)` \|$")
HARNESS_NAMES = ("said", "asked", "turn_stopped", "game_over")


# ====================================================================== reading the docs
@dataclass
class Example:
    kind: str  # effect | expr
    line: int  # line of docs/dsl.md where the example (or expression) is
    code: str  # the DSL text
    checks: list = field(default_factory=list)
    steps: list = field(default_factory=list)  # [("options", [...]) | ("answer", str | list)]
    error: str | None = None
    me: object = 0
    self_type: str | None = None
    after: list = field(default_factory=list)
    expected: str | None = None  # expr examples: the literal result

    @property
    def id(self) -> str:
        return f"dsl.md:{self.line}"


def fenced_blocks(path: Path):
    """(tag, first line number of the content, content) of every fenced block of a markdown file."""
    out, tag, start, buf = [], None, 0, []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if tag is None and line.startswith("```"):
            tag, start, buf = line[3:].strip(), n + 1, []
        elif tag is not None and line.startswith("```"):
            out.append((tag, start, "\n".join(buf) + "\n"))
            tag = None
        elif tag is not None:
            buf.append(line)
    assert tag is None, f"{path.name}: unclosed fenced block at line {start - 1}"
    return out


def _directives(ex: Example, key: str, value: str) -> None:
    if key == "check":
        ex.checks.append(value)
    elif key == "options":
        ex.steps.append(("options", [v.strip() for v in value.split(", ")]))
    elif key == "answer":
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1].strip()
            ex.steps.append(("answer", [v.strip() for v in inner.split(",")] if inner else []))
        else:
            ex.steps.append(("answer", value))
    elif key == "error":
        ex.error = value
    elif key == "me":
        ex.me = None if value == "none" else int(value)
    elif key == "self":
        ex.self_type = value
    elif key == "after":
        ex.after.append(value)


def effect_example(start: int, text: str) -> Example:
    ex = Example("effect", start, text)
    for line in text.splitlines():
        m = DIRECTIVE.match(line)
        if m:
            _directives(ex, m.group(1), m.group(2).strip())
    return ex


def expr_examples(start: int, text: str) -> list[Example]:
    out, context = [], Example("expr", start, "")
    for i, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        m = DIRECTIVE.match(line)
        if m:
            assert m.group(1) in ("me", "after"), f"dsl.md:{start + i}: '# {m.group(1)}:' is for effect blocks"
            _directives(context, m.group(1), m.group(2).strip())
            continue
        m = EXPR_LINE.match(line)
        assert m, f"dsl.md:{start + i}: an expression example needs '# => RESULT': {line!r}"
        out.append(
            Example(
                "expr",
                start + i,
                m.group("expr").strip(),
                expected=m.group("expected").strip(),
                me=context.me,
                after=list(context.after),
            )
        )
    return out


def table_examples() -> list[tuple[str, Example]]:
    out = []
    for n, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        m = TABLE_ROW.match(line)
        if m:
            out.append((m.group("name"), Example("expr", n, m.group("expr"), expected=m.group("expected"))))
    return out


@lru_cache(maxsize=None)
def doc_examples() -> tuple:
    out = []
    for tag, start, text in fenced_blocks(DOC):
        if tag == "mason-effect":
            out.append(effect_example(start, text))
        elif tag == "mason-expr":
            out.extend(expr_examples(start, text))
    out.extend(ex for _, ex in table_examples())
    return tuple(out)


# ====================================================================== running an example
@lru_cache(maxsize=None)
def program():
    prog, errors = validate_game(str(FIXTURE))
    assert not errors, "\n".join(e.line() for e in errors)
    return prog


def compile_effect(prog, text: str, names=("me",)):
    """Compile an effect on the fixture's program; raise its first definition error."""
    k = len(prog.errors)
    block = prog.effect({"do": text}, "do", tuple(names))
    errors = prog.errors[k:]
    del prog.errors[k:]
    if errors:
        raise errors[0]
    return block


def compile_expr(prog, text: str, names=()):
    return prog.exprs.compile(parse_expression(text), Scope(names))


def prepared(after=()) -> Game:
    """The fixture right after setup, paused in P1's first action window (its decision set aside)."""
    prog = program()
    g = Game(prog, Settings(str(FIXTURE), PLAYERS, SEED), new_state(prog, PLAYERS, SEED), [], narrate=True)
    g._run()
    for label in after:
        g.answer(_index(g.pending, label))
    p = g.pending
    assert p is not None and p["kind"] == "action" and p["seat"] == 0, "not in P1's action window"
    g.state["pending"] = None
    return g


def _index(pending: dict, label: str) -> int:
    labels = pending["labels"]
    assert label in labels, f"no option '{label}' among {labels} ({pending['prompt']})"
    return labels.index(label)


def _subset(pending: dict, chosen: list) -> list:
    labels, out = pending["labels"], []
    for label in chosen:
        i = next((i for i, l in enumerate(labels) if l == label and i not in out), None)
        assert i is not None, f"no option '{label}' among {labels}"
        out.append(i)
    return out


@dataclass
class Outcome:
    game: Game
    env: dict
    asked: int
    said: list


def run_effect(text: str, steps=(), me=0, self_type=None, after=()) -> Outcome:
    """Run ``text`` as an effect on top of the prepared state, answering decisions from ``steps``."""
    g = prepared(after)
    prog, st, rt = g.program, g.state, g.rt
    env = {"me": me}
    names = ["me"]
    if self_type is not None:
        c = prog.type_instances[self_type][0]
        env.update(self=c, owner=st["cards"][c]["o"])
        names += ["self", "owner"]
    start = len(g.log)
    block = compile_effect(prog, text, names)
    base = len(st["stack"])
    st["stack"].append({"kind": "block", "node": block.id, "next": 0, "scope": base, "vars": env})
    steps, asked, n = list(steps), 0, 0
    while len(st["stack"]) > base:
        p = st["pending"]
        if p is not None:
            while steps and steps[0][0] == "options":
                assert p["labels"] == steps.pop(0)[1], f"the decision offers {p['labels']} ({p['prompt']})"
            assert steps, f"a decision was asked that the example does not answer: {p['prompt']} {p['labels']}"
            _, answer = steps.pop(0)
            index = _subset(p, answer) if isinstance(answer, list) else _index(p, answer)
            resume(rt, check_answer(p, index))
            asked += 1
            continue
        fr = st["stack"][-1]
        FRAME[fr["kind"]](rt, fr)
        n += 1
        assert n < 100_000, "the example does not finish"
    assert not steps, f"the example expects decisions that were never asked: {steps}"
    if st["over"]:
        run(rt)  # let the flow score the ended game
        assert st["result"] is not None
    return Outcome(g, env, asked, [e["text"] for e in g.log[start:] if "text" in e])


def evaluate(g: Game, text: str, env: dict):
    return compile_expr(g.program, text, tuple(env))(g.rt, env)


def literal(text: str):
    """The value of a literal DSL expression (numbers, strings, true/false/none, lists of them)."""

    def value(node):
        if isinstance(node, A.Literal):
            return node.value
        if isinstance(node, A.Neg) and isinstance(node.operand, A.Literal):
            return -node.operand.value
        if isinstance(node, A.ListLit):
            return [value(x) for x in node.items]
        raise AssertionError(f"an expected result must be a literal, not {text!r}")

    return value(parse_expression(text))


def same(a, b) -> bool:
    """Equal, and true/false never equal to 1/0."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def run_example(ex: Example):
    if ex.kind == "expr":
        g = prepared(ex.after)
        got = evaluate(g, ex.code, {"me": ex.me})
        assert same(got, literal(ex.expected)), f"{ex.code} gives {got!r}, not {ex.expected}"
        return
    if ex.error:
        with pytest.raises(MasonError) as info:
            run_effect(ex.code, ex.steps, ex.me, ex.self_type, ex.after)
        assert info.value.code == ex.error, info.value.line()
        return
    out = run_effect(ex.code, ex.steps, ex.me, ex.self_type, ex.after)
    st = out.game.state
    ti = st["ti"]
    env = dict(
        out.env,
        said=out.said,
        asked=out.asked,
        game_over=st["over"],
        turn_stopped=ti >= 0 and bool(st["stack"][ti].get("stop")),
    )
    for check in ex.checks:
        assert evaluate(out.game, check, dict(env)) is True, f"check failed: {check} (narration: {out.said})"


# ====================================================================== the examples
@pytest.mark.parametrize("ex", doc_examples(), ids=lambda ex: ex.id)
def test_doc_example(ex):
    run_example(ex)


def test_docs_have_examples():
    kinds = [ex.kind for ex in doc_examples()]
    assert kinds.count("effect") >= 40 and kinds.count("expr") >= 80


def test_effect_examples_say_what_happens():
    """An effect example without a check, an error or a decision would prove nothing."""
    for ex in doc_examples():
        if ex.kind == "effect":
            assert ex.checks or ex.error, f"{ex.id}: add '# check:' or '# error:'"


def test_harness_fails_on_a_wrong_claim():
    wrong = effect_example(1, "gain 2 gold\n# check: gold == 5\n")
    with pytest.raises(AssertionError, match="check failed"):
        run_example(wrong)
    with pytest.raises(AssertionError):
        run_example(Example("expr", 1, "count(hand)", expected="3"))
    with pytest.raises(AssertionError):
        run_example(Example("expr", 1, "count(market) == 2", expected="1"))
    with pytest.raises(AssertionError, match="does not answer"):
        run_example(effect_example(1, "choose card c from hand\n# check: true\n"))
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        run_example(effect_example(1, "gain 1 gold\n# error: play/type\n"))


# ====================================================================== coverage of the DSL
def _nodes(block: Node):
    """Every compiled node reachable from a block."""
    seen, todo = [], [block]
    while todo:
        x = todo.pop()
        if isinstance(x, Node):
            seen.append(x)
            todo.extend(x.__dict__.values())
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
    return seen


_ast = A.walk


def _tested_effects():
    return [ex for ex in doc_examples() if ex.kind == "effect" and not ex.error]


def _all_ast():
    nodes = []
    for ex in doc_examples():
        nodes += _ast(parse_effect(ex.code) if ex.kind == "effect" else parse_expression(ex.code))
    return nodes


def test_every_statement_kind_has_a_running_example():
    prog = program()
    used = set()
    for ex in _tested_effects():
        names = ("me", "self", "owner") if ex.self_type else ("me",)
        used |= {n.kind for n in _nodes(compile_effect(prog, ex.code, names))}
    kinds = set(KINDS) - {"block"}
    if not PROCEDURES:  # no procedure is registered yet: 'do' can only be shown refusing a name
        kinds.discard("do")
        assert any(isinstance(n, S.Do) for n in _all_ast()), "'do NAME(...)' needs an example"
    missing = sorted(kinds - used)
    assert not missing, f"statement kinds without a running example in docs/dsl.md: {missing}"


def test_every_ast_node_type_and_operator_has_an_example():
    nodes = _all_ast()
    types = {type(n).__name__ for n in nodes}
    abstract = {"Node", "Expr", "Stmt"}
    missing = sorted(set(A.NODE_TYPES) - abstract - types)
    assert not missing, f"AST node types without an example in docs/dsl.md: {missing}"
    ops = {n.op for n in nodes if isinstance(n, (A.BinOp, A.BoolOp))}
    missing_ops = sorted((set(_BIN) | {"in", "not in", "and", "or"}) - ops)
    assert not missing_ops, f"operators without an example: {missing_ops}"


def test_every_statement_variant_has_an_example():
    features = set()
    for n in _all_ast():
        if isinstance(n, S.Choose):
            features.add(f"choose {n.kind if n.kind in ('card', 'seat', 'value', 'type') else 'family'}")
            features |= {
                f"choose {f}"
                for f in ("optional", "random", "secret", "ordered", "up_to", "by", "prompt", "body")
                if getattr(n, f) not in (None, False, "")
            }
        elif isinstance(n, S.ChooseOne):
            features |= {f"choose one {f}" for f in ("by", "prompt") if getattr(n, f)}
            features |= {"option if" for o in n.options if o.cond is not None}
        elif isinstance(n, (S.Move, S.Draw)):
            features.add(f"{type(n).__name__} facing {n.facing or 'default'}")
            if isinstance(n, S.Move):
                features.add(f"Move {n.place}")
        elif isinstance(n, (S.Gain, S.Pay)) and n.seat is not None:
            features.add(f"{type(n).__name__} seat")
        elif isinstance(n, S.Reveal):
            features.add("reveal to" if n.to is not None else "reveal")
        elif isinstance(n, S.Turn):
            features.add("turn as" if n.card is not None else "turn")
            if n.mode:
                features.add(f"turn {n.mode}")
        elif isinstance(n, S.If):
            features |= {"elif" for _ in n.branches[1:]} | ({"else"} if n.other else set())
        elif isinstance(n, A.Comprehension):
            features.add("comprehension call" if n.func else "comprehension")
            if n.cond is not None:
                features.add("comprehension if")
        elif isinstance(n, S.Set):
            features.add(f"set {type(n.target).__name__}")
    wanted = {
        f"choose {k}"
        for k in (
            "card",
            "seat",
            "value",
            "type",
            "family",
            "optional",
            "random",
            "secret",
            "ordered",
            "up_to",
            "by",
            "prompt",
            "body",
        )
    }
    wanted |= {
        "choose one by",
        "choose one prompt",
        "option if",
        "Move top",
        "Move bottom",
        "Move facing up",
        "Move facing down",
        "Move facing seen",
        "Move facing default",
        "Draw facing up",
        "Draw facing default",
        "Gain seat",
        "Pay seat",
        "reveal",
        "reveal to",
        "turn",
        "turn as",
        "turn only",
        "turn after",
        "elif",
        "else",
        "comprehension",
        "comprehension call",
        "comprehension if",
        "set Name",
        "set Call",
        "set Attr",
    }
    missing = sorted(wanted - features)
    assert not missing, f"statement forms without an example in docs/dsl.md: {missing}"


def _core(b) -> bool:
    return b.impl.__module__ == "mason.dsl.builtins"


def test_every_core_builtin_is_in_the_table_with_its_example():
    rows = dict(table_examples())
    core = {name for name, b in BUILTINS.items() if _core(b)}
    missing = sorted(core - set(rows))
    assert not missing, f"builtins missing from the table of docs/dsl.md: {missing}"
    unknown = sorted(set(rows) - core)
    assert not unknown, f"the builtin table names functions that are not core builtins: {unknown}"
    for name, ex in rows.items():
        assert re.search(rf"\b{name}\(", ex.code), f"dsl.md:{ex.line}: the example of '{name}' does not call it"


def primitive_rows() -> dict[str, int]:
    """``| `name(...)` | ...`` and ``| `do name(...)` | ...`` rows of the primitives tables: name -> line."""
    out = {}
    for n, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        m = re.match(r"^\| `(do )?(\w+)\(.*?\)` \| ", line)
        if m:
            out[("do " if m.group(1) else "") + m.group(2)] = n
    return out


def test_every_primitive_builtin_and_procedure_is_documented():
    rows = primitive_rows()
    wanted = {name for name, b in BUILTINS.items() if not _core(b)} | {f"do {name}" for name in PROCEDURES}
    missing = sorted(wanted - set(rows))
    assert not missing, f"primitives without a row in the Primitives section of docs/dsl.md: {missing}"
    stale = sorted(f"{name} (dsl.md:{line})" for name, line in rows.items() if name not in wanted)
    assert not stale, f"docs/dsl.md documents primitives that do not exist: {stale}"


def test_procedures_with_examples_run():
    """Procedures shown in tested examples are real (a misspelt one would be a load error anyway)."""
    code = "\n".join(ex.code for ex in _tested_effects())
    shown = set(re.findall(r"\bdo (\w+)\(", code))
    assert shown and shown <= set(PROCEDURES), sorted(shown - set(PROCEDURES))


def test_every_context_name_is_shown():
    code = "\n".join(ex.code for ex in doc_examples())
    missing = [n for n in CONTEXT_NAMES if not re.search(rf"\b{n}\b", code)]
    assert not missing, f"context names without an example: {missing}"
    text = DOC.read_text(encoding="utf-8")
    assert all(f"| `{n}` |" in text for n in CONTEXT_NAMES), "every context name needs a row in its table"


# ====================================================================== yaml excerpts
def _is_part(part, whole) -> bool:
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and _is_part(v, whole[k]) for k, v in part.items())
    if isinstance(part, list):
        return isinstance(whole, list) and all(any(_is_part(p, w) for w in whole) for p in part)
    return part == whole


def test_yaml_excerpts_match_the_fixture():
    """A yaml block of dsl.md is either an excerpt of the fixture (it must match) or a game.yaml
    sample (it must be valid against the schema)."""
    excerpts = [(start, text) for tag, start, text in fenced_blocks(DOC) if tag == "yaml"]
    assert excerpts
    for start, text in excerpts:
        first = text.splitlines()[0]
        if first == "# game.yaml":
            _check_against_schema("dsl.md", start, text, "game")
            continue
        m = re.match(r"# from tests/fixtures/mini/(\S+)$", first)
        assert m, f"dsl.md:{start}: a yaml block starts with '# from tests/fixtures/mini/FILE' or '# game.yaml'"
        whole, _ = load_yaml_text((FIXTURE / m.group(1)).read_text(encoding="utf-8"), m.group(1))
        part, _ = load_yaml_text(text, f"dsl.md:{start}")
        assert _is_part(part, whole), f"dsl.md:{start}: excerpt differs from {m.group(1)}"


def _property_validator(schema: dict, key: str):
    """A validator for one top-level property of a schema (its $defs kept for references)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator({"$defs": schema.get("$defs", {}), **schema["properties"][key]})


def _check_against_schema(doc: str, start: int, text: str, name: str) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    data, _ = load_yaml_text(text, f"{doc}:{start}")  # Mason's reader: 'on:' is a key, not true
    data = json.loads(json.dumps(data))  # string keys, as the validator sees them
    assert isinstance(data, dict), f"{doc}:{start}: expected a mapping"
    for key, value in data.items():
        assert key in schema["properties"], f"{doc}:{start}: unknown key '{key}' for {name}"
        errors = [e.message for e in _property_validator(schema, key).iter_errors(value)]
        assert not errors, f"{doc}:{start}: '{key}': {errors}"


def test_rule_files_doc_yaml_blocks_are_valid():
    """docs/rule-files.md: each yaml block names its file (game.yaml, expansion.yaml or a component
    file) in its first line, and every top-level key of it is valid against that file's schema."""
    blocks = [(s, t) for tag, s, t in fenced_blocks(RULE_FILES_DOC) if tag == "yaml"]
    assert len(blocks) >= 15
    for start, text in blocks:
        first = text.splitlines()[0]
        m = re.match(r"# (?:yaml-language-server: \$schema=\S*/)?(\w[\w.-]*?)(?:\.schema\.json)?(?:\.yaml)?$", first)
        assert m, f"rule-files.md:{start}: a yaml block starts with a comment naming its file"
        name = m.group(1) if m.group(1) in ("game", "expansion") else "components"
        _check_against_schema("rule-files.md", start, text, name)


# ====================================================================== the fixture itself
def test_fixture_validates_and_the_prepared_state_is_as_documented():
    prog = program()
    assert prog.id == "mini"
    g = prepared()
    names = lambda key: [prog.types[g.state["cards"][c]["t"]]["name"] for c in g.state["zones"][key]]
    assert names("hand/0") == ["Prism", "Ruby"] and names("hand/1") == ["Amber", "Opal"]
    assert names("hand/2") == ["Ruby", "Opal"] and names("deck") == ["Pearl"] * 4
    assert names("market") == ["Pearl", "Pearl"] and names("led/0") == ["Jeweller"]
    assert g.state["counters"] == {"bank": 6, "gold": [2, 2, 2], "fame": [0, 0, 0], "plays": 0}


@pytest.mark.parametrize("players", [2, 3])
def test_fixture_plays_to_the_end(players):
    g = Game(program(), Settings(str(FIXTURE), players, 7), new_state(program(), players, 7), [])
    g._run()
    rng = random.Random(players)
    for _ in range(5_000):
        if g.over:
            break
        g.answer(random_answer(rng, g.pending))
    assert g.over and g.result["winners"]
    assert json.loads(json.dumps(g.state)) == g.state


# ====================================================================== known issues (see docs/dsl.md)
def test_choose_random_up_to_binds_a_subset():
    out = run_effect("choose random up to 2 card cs from deck\n")
    assert isinstance(out.env["cs"], list) and len(out.env["cs"]) <= 2


def test_transfer_respects_the_cap():
    out = run_effect("gain 4 gold to 1\ntransfer 2 gold from 0 to 1\n")
    assert out.game.state["counters"]["gold"][1] <= 6
