"""The zone key (``name`` or ``name/seat``) is built and split only by its helpers in runtime/values.py.

``zone_key(name, seat)`` builds it and ``split_zone_key(key)`` splits it (issue 31 item 4): a second
spelling of the format in another module is a second definition that can drift. Read with ``ast``
across ``interpreter/`` and ``cli/``: an f-string that is two values joined by ``/`` (``f"{a}/{b}"``),
a ``+ "/" +`` concatenation, and a ``partition``/``rpartition``/``split``/``rsplit`` on ``"/"`` are
flagged, except in the helpers themselves and in the few places listed below that build other keys.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = [ROOT / "interpreter", ROOT / "cli"]
HELPERS = ("interpreter/runtime/values.py", {"zone_key", "split_zone_key"})

# (file, the expression as ast.unparse writes it) -> why it is not a zone key. Only shrinks or gets
# a reason; a zone key is never listed here.
NOT_ZONE_KEYS = {
    ("interpreter/primitives/hexgrid_links.py", "f'{c}/{j}'"): "a placed tile's mark: cell id / mark index",
    ("interpreter/primitives/hexgrid_links.py", "f'{cid}/{k}'"): "a placed tile's mark: cell id / mark index",
    ("interpreter/play/session.py", "f'{seed}/{seat}'"): "a bot's seed: the game's seed / its seat",
    ("interpreter/web/hub.py", "f'{mine.settings.seed}/{number}'"): "a served bot's seed: the game's seed / decision",
    ("interpreter/runtime/reasons.py", "f\"{f['visits']}/{f['mean']:+.2f}\""): "a search's visits / mean score",
    ("interpreter/presentation/table_text.py", "str(v['used']) + '/'"): "a value's used / total, as shown",
    ("interpreter/lsp/shape.py", "ref[2:].split('/')"): "a JSON pointer's parts",
    ("interpreter/lsp/shape.py", "ref.rsplit('/', 1)"): "a JSON schema reference's last part",
    ("interpreter/model/schema.py", "shown.replace('\\\\', '/').rsplit('/', 1)"): "a file path's last part",
}

SPLITTERS = {"partition", "rpartition", "split", "rsplit"}


def _is_slash(node) -> bool:
    return isinstance(node, ast.Constant) and node.value == "/"


def _hand_made(tree: ast.AST):
    """(line, expression) for every place that builds or splits ``a/b`` by hand, outside the helpers."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in HELPERS[1]:
            skip.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            v = node.values
            if len(v) == 3 and isinstance(v[0], ast.FormattedValue) and _is_slash(v[1]):
                yield node.lineno, ast.unparse(node)
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add)
            and (_is_slash(node.left) or _is_slash(node.right))
        ):
            yield node.lineno, ast.unparse(node)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in SPLITTERS
            and node.args
            and _is_slash(node.args[0])
        ):
            yield (
                node.lineno,
                ast.unparse(node.func.value)
                + f".{node.func.attr}"
                + ast.unparse(ast.Tuple(elts=node.args)).replace(",)", ")"),
            )


def _found() -> list[tuple[str, int, str]]:
    out = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for line, text in _hand_made(tree):
                out.append((rel, line, text))
    return out


def test_reader_finds_hand_made_keys():
    src = (
        "def zone_key(name, seat):\n    return f'{name}/{seat}'\n"
        "k = f\"{card['z']}/{card['o']}\"\n"
        "a = name + '/' + str(s)\n"
        "n, _, o = key.partition('/')\n"
        "label = f'{used}/{cap} filled'\n"
    )
    found = [line for line, _ in _hand_made(ast.parse(src))]
    assert sorted(found) == [3, 4, 5], found  # the helper is skipped; 'x/y filled' is text, not a key
    # the helpers themselves are the only code that builds or splits a zone key
    values = ast.parse((ROOT / HELPERS[0]).read_text(encoding="utf-8"))
    names = {n.name for n in ast.walk(values) if isinstance(n, ast.FunctionDef)}
    assert HELPERS[1] <= names


def test_zone_keys_only_by_their_helpers():
    found = _found()
    bad = [f"{f}:{line}: {text}" for f, line, text in found if (f, text) not in NOT_ZONE_KEYS]
    assert not bad, (
        "build and split zone keys with runtime/values.py zone_key / split_zone_key"
        " (or, for a key that is no zone key, list it in NOT_ZONE_KEYS with the reason):\n" + "\n".join(bad)
    )
    stale = [k for k in NOT_ZONE_KEYS if not any((f, t) == k for f, _, t in found)]
    assert not stale, f"these listed places are gone: shrink NOT_ZONE_KEYS: {stale}"
