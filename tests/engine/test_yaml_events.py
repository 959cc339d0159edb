"""The YAML reader composes with libyaml's event parser when PyYAML has it (model/yamlpos._c_compose):
the data, places, scalars' spans and key problems must be exactly those of PyYAML's own parser, for
every rule file shipped and for the odd texts below; a text either parser refuses is read by PyYAML's
(the same message as always)."""

from __future__ import annotations

import pytest
import yaml
from paths import FIXTURES, GAMES, ROOT

from mason.errors import DefinitionError
from mason.model import yamlpos

pytestmark = pytest.mark.skipif(yamlpos._CParser is None, reason="PyYAML without libyaml")

ODD = [
    "a: 1\na: 2\n",  # a duplicate key (a problem found while building)
    "base: &b {x: 1, y: [1, 2]}\nmore: *b\nlist:\n  - *b\n  - {<<: *b}\n",
    "q: \"é€\\u00e9 \\n x\"\nr: 'it''s'\ns: |\n  two\n   lines\nt: >-\n  folded\n  text\n",
    "k: [1, {a: b}, 'c']\n? complex\n: value\n",
    "- 1\n- - 2\n  - 3\n",
    "x: 2026-11-28\ny: 0x1F\nz: ~\nw: yes\n",
    "",
    "# only a comment\n",
]
BAD = [
    "a: [1, 2\nb: 3\n",  # a '[' never closed
    "a: 'open\n",
    "a: 1\n  b: 2\n",
    "a: \x00\n",
    "[" * 40 + "]" * 40 + "\n",  # nested past MAX_YAML_DEPTH
    "--- 1\n--- 2\n",  # two documents
]


def _both(text: str):
    fast = yamlpos.load_yaml_text(text, "f.yaml", strict=False)
    saved = yamlpos._CParser
    yamlpos._CParser = None
    try:
        slow = yamlpos.load_yaml_text(text, "f.yaml", strict=False)
    finally:
        yamlpos._CParser = saved
    return fast, slow


def _same(fast, slow):
    (fd, fp), (sd, sp) = fast, slow
    assert fd == sd
    assert fp.nodes == sp.nodes and fp.key_nodes == sp.key_nodes and fp.scalars == sp.scalars
    assert [e.line() for e in fp.errors] == [e.line() for e in sp.errors]


def test_every_shipped_rule_file_reads_the_same_with_libyaml_events():
    files = sorted(GAMES.rglob("*.yaml")) + sorted(FIXTURES.rglob("*.yaml"))
    assert len(files) > 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        _same(*_both(text))
        assert yamlpos._c_compose(text) is not None, path  # the fast path was taken
    assert (ROOT / "games" / "prague" / "game.yaml") in files


@pytest.mark.parametrize("text", ODD)
def test_odd_yaml_reads_the_same_with_libyaml_events(text):
    _same(*_both(text))


@pytest.mark.parametrize("text", BAD)
def test_bad_yaml_gets_pyyaml_s_own_message(text):
    saved = yamlpos._CParser
    yamlpos._CParser = None
    try:
        with pytest.raises(DefinitionError) as slow:
            yamlpos.load_yaml_text(text, "f.yaml", strict=False)
    finally:
        yamlpos._CParser = saved
    with pytest.raises(DefinitionError) as fast:
        yamlpos.load_yaml_text(text, "f.yaml", strict=False)
    assert fast.value.line() == slow.value.line()
    assert isinstance(yaml.__with_libyaml__, bool)
