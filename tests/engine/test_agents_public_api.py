"""Agents read a game only through the public ``Game`` API, never its state (issue 31 item 4).

Read with ``ast`` over ``interpreter/agents/``: no ``.state`` and no ``.rt`` attribute anywhere (a game's
state or its runtime), and none of ``Game``'s private members (``_run``, ``_automate``, ...: the
names ``Game`` defines with a leading underscore, read from session/game.py). What a bot needs is a
public method (``pending_unlabelled``, ``bot_streams``, ``determinized``, ``information_set``,
``trial``, ``answer_unchecked``, ``score_totals``, ``value``, ``card_types``, ``unavailable_actions``).
The one exception is the engine's own contract: ``blind_pick(state, ...)`` is handed the state by the
engine (runtime/answers.py), and reads only the bots' streams in it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ROOT / "interpreter" / "agents"
FORBIDDEN = {"state", "rt"}


def _game_private_members() -> set[str]:
    tree = ast.parse((ROOT / "interpreter" / "session" / "game.py").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    names = {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in ast.walk(cls):  # attributes set on self
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _reads(source: str, private: set[str]) -> list[tuple[int, str]]:
    """(line, expression) for every read of a game's state, runtime or private member."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and (node.attr in FORBIDDEN or node.attr in private):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue  # an agent's own attribute
            out.append((node.lineno, ast.unparse(node)))
    return out


def test_reader_finds_state_reads():
    private = _game_private_members()
    assert {"_run", "_automate", "_append"} <= private
    src = "p = game.state['pending']\nr = trial.rt\ntrial._run()\nself._cache = 1\nx = game.pending\n"
    assert sorted(line for line, _ in _reads(src, private)) == [1, 2, 3]


def test_agents_use_the_public_game_api():
    private = _game_private_members()
    bad = []
    for path in sorted(AGENTS.glob("*.py")):
        for line, text in _reads(path.read_text(encoding="utf-8"), private):
            bad.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not bad, "agents read a game through Game's public API only:\n" + "\n".join(bad)
