"""``mason lsp`` (issue 34): the language server started as a subprocess and driven by a real LSP client
over stdio (pygls's LanguageClient, tests/lsp_support.py), on a copy of a shipped game.

Diagnostics are compared with ``mason validate`` run on the same texts saved to disk: same file, line,
column, code and message. No test asserts a timing (the benchmark, benchmarks/bench_lsp.py, measures).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from lsp_support import LspSession, position_of
from lsprotocol import types as T
from paths import GAMES

BONUS = "do: gain 1 gold}"  # the Merchant's bonus ability in citadels/characters.yaml (CIT-R54)
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[^\]]+)\]: (?P<message>.*)$")


@pytest.fixture
def game(tmp_path):
    """A copy of citadels (with its expansion) under tmp_path/work, and a made-up reference digest."""
    work = tmp_path / "work"
    shutil.copytree(GAMES / "citadels", work / "citadels")
    ref = tmp_path / "shared" / "reference"
    ref.mkdir(parents=True)
    (ref / "made_up.md").write_text("# A digest\n\n- **CIT-R54** The made-up text of rule fifty-four.\n")
    return work / "citadels"


def validate_lines(folder, cwd, *args) -> set[tuple]:
    """``mason validate FOLDER`` run as a user runs it: its errors as (file name, line, col, code, message)."""
    run = subprocess.run(
        [sys.executable, "-c", "from mason.cli.entry import run; run()", "validate", str(folder), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = set()
    for line in run.stderr.splitlines():
        m = LINE.match(line)
        if m:
            out.add((m["file"].rsplit("/", 1)[-1], int(m["line"]), int(m["col"]), m["code"], m["message"]))
    return out


def as_lines(path, diags) -> set[tuple]:
    """Diagnostics as ``mason validate`` prints them (1-based line and column)."""
    return {(path.name, d.range.start.line + 1, d.range.start.character + 1, d.code, d.message) for d in diags}


def test_lsp_dsl_typo_gets_the_diagnostic_mason_validate_gives_at_the_same_place(game):
    chars = game / "characters.yaml"
    text = chars.read_text()
    typo = text.replace(BONUS, "do: gian 1 gold}", 1)
    # what mason validate says of the same text saved, in another copy
    other = game.parent / "saved" / "citadels"
    shutil.copytree(game, other)
    (other / "characters.yaml").write_text(typo)
    expected = {e for e in validate_lines(other, game.parent) if e[0] == "characters.yaml"}
    assert expected and all(e[3] == "definition/dsl-syntax" for e in expected)
    line, col = position_of(text, BONUS, 4)
    assert any(e[1] == line + 1 and e[2] == col + 1 for e in expected)
    with LspSession(game.parent) as s:
        s.open(chars)
        assert s.diagnostics(chars) == []
        seen = s.count(chars)
        s.change(chars, typo)  # unsaved: the file on disk is still right
        got = s.diagnostics(chars, lambda d: as_lines(chars, d) == expected, after=seen)
        assert got[0].source == "mason"
        # mending the text clears them
        seen = s.count(chars)
        s.change(chars, text)
        assert s.diagnostics(chars, lambda d: d == [], after=seen) == []
    assert s.stderr == b""


def test_lsp_semantic_and_variant_errors_match_mason_validate(game):
    """An unknown name (a check of names, not of syntax) and a broken variant: the complete check's
    diagnostics equal mason validate's, with the variant named."""
    g = game / "game.yaml"
    text = g.read_text()
    assert "  gold: {scope: seat, start: 0, supply: bank}" in text
    edited = text.replace("supply: bank}", "supply: bnak}", 1)
    other = game.parent / "saved" / "citadels"
    shutil.copytree(game, other)
    (other / "game.yaml").write_text(edited)
    expected = {e for e in validate_lines(other, game.parent) if e[0] == "game.yaml"}
    assert any("unknown supply counter 'bnak'" in e[4] for e in expected)
    with LspSession(game.parent) as s:
        s.open(g, edited)
        s.diagnostics(g, lambda d: as_lines(g, d) == expected)
    assert s.stderr == b""


def test_lsp_completes_a_card_name_and_builtins_inside_an_effect(game):
    chars = game / "characters.yaml"
    text = chars.read_text()
    edited = text.replace(BONUS, "do: move haunt}", 1)
    line, col = position_of(edited, "do: move haunt}", len("do: move haunt"))
    with LspSession(game.parent) as s:
        s.open(chars, edited)
        items = {i.label: i for i in s.completion(chars, line, col)}
        assert "haunted_city" in items and "district" in items["haunted_city"].detail
        assert "count" in items and items["count"].detail.startswith("count(")
        assert "gain" in items  # a statement, inside an effect
        assert "gold" in items and items["gold"].detail == "counter"
        # the names an effect gives itself (choose ... s from, let, for)
        mline, mcol = position_of(text, "swap hand with hand(s)", len("swap hand with hand("))
        s.change(chars, text)
        local = {i.label: i.detail for i in s.completion(chars, mline, mcol)}
        assert local.get("s") == "named in this text"
    assert s.stderr == b""


def test_lsp_completes_keys_from_the_schema(game):
    g = game / "game.yaml"
    text = g.read_text().replace("flow:\n", "flow:\n  max_\n", 1)
    line, col = position_of(text, "  max_\n", 6)
    with LspSession(game.parent) as s:
        s.open(g, text)
        labels = {i.label for i in s.completion(g, line, col)}
    assert {"max_rounds", "phases", "until"} <= labels
    assert "counters" not in labels  # a top-level key, not one of flow's


def test_lsp_hover_an_effect_gives_its_rules_text(game):
    chars = game / "characters.yaml"
    text = chars.read_text()
    line, col = position_of(text, BONUS, 1)  # on the key `do`
    with LspSession(game.parent) as s:
        s.open(chars)
        s.diagnostics(chars)  # checked once: the game's own words
        hover = s.hover(chars, line, col)
        assert "Gain 1 gold." in hover.contents.value
        # a builtin: its documentation from docs/dsl.md
        cline, ccol = position_of(text, "count(hand)", 1)
        assert "count(" in s.hover(chars, cline, ccol).contents.value
        # a rule id: the reference digest's text, found in shared/reference above the game
        rline, rcol = position_of(text, "rule: CIT-R54", 8)
        assert "made-up text of rule fifty-four" in s.hover(chars, rline, rcol).contents.value
        # a name: its declaration and data
        gline, gcol = position_of(text, BONUS, len("do: gain 1 g"))
        said = s.hover(chars, gline, gcol).contents.value
        assert "counter" in said and "game.yaml" in said and '"supply": "bank"' in said
    assert s.stderr == b""


def test_lsp_goes_from_a_name_to_its_definition_and_finds_its_uses(game):
    chars = game / "characters.yaml"
    text = chars.read_text()
    g = (game / "game.yaml").read_text()
    line, col = position_of(text, BONUS, len("do: gain 1 go"))
    with LspSession(game.parent) as s:
        s.open(chars)
        [loc] = s.definition(chars, line, col)
        assert loc.uri.endswith("/citadels/game.yaml")
        assert (loc.range.start.line, loc.range.start.character) == position_of(g, "  gold: {scope: seat", 2)
        refs = s.references(chars, line, col)
        files = {r.uri.rsplit("/", 1)[-1] for r in refs}
        assert {"game.yaml", "characters.yaml"} <= files
        assert any(r.range.start.line == line and r.range.start.character == col - 2 for r in refs)
        # a variant's overlay target: the table column it changes
        s.open(game / "game.yaml")
        vline, vcol = position_of(g, "table: {2: {threshold: 12}}", len("table: {2: {th"))
        [vloc] = s.definition(game / "game.yaml", vline, vcol)
        assert (vloc.range.start.line, vloc.range.start.character) == position_of(g, "threshold: 10", 0)
        # a card used by an effect in the expansion: its definition in the base game's districts.yaml
        dcity = game / "expansions" / "dark-city" / "characters.yaml"
        dtext = dcity.read_text()
        if "haunted_city" in dtext:
            hline, hcol = position_of(dtext, "haunted_city", 1)
            s.open(dcity)
            [hloc] = s.definition(dcity, hline, hcol)
            assert hloc.uri.endswith("/citadels/districts.yaml")
    assert s.stderr == b""


def test_lsp_document_symbols_list_families_cards_and_phases(game):
    with LspSession(game.parent) as s:
        s.open(game / "districts.yaml")
        [family] = s.symbols(game / "districts.yaml")
        assert family.name == "district" and "haunted_city" in {c.name for c in family.children}
        s.open(game / "game.yaml")
        names = {x.name: x.detail for x in s.symbols(game / "game.yaml")}
        assert names["selection"] == "phase" and names["district"] == "family" and names["gold"] == "counter"
    assert s.stderr == b""


def test_lsp_expansion_file_is_checked_with_its_base(game):
    dc = game / "expansions" / "dark-city" / "districts.yaml"
    text = dc.read_text()
    m = re.search(r"do: \|?\s*\n?\s*(gain|pay|move|draw|choose|if|for|let|set)\b", text)
    assert m, "the expansion's districts have an effect"
    typo = text[: m.start(1)] + "gian" + text[m.start(1) + len(m.group(1)) :]
    other = game.parent / "saved" / "citadels"
    shutil.copytree(game, other)
    (other / "expansions" / "dark-city" / "districts.yaml").write_text(typo)
    expected = {
        e for e in validate_lines(other, game.parent, "--with", "dark-city") if e[0] == "districts.yaml" and e[4]
    }
    assert expected
    with LspSession(game.parent) as s:
        s.open(dc, typo)
        got = s.diagnostics(dc, lambda d: bool(d))
        assert {(x[1], x[2], x[3]) for x in as_lines(dc, got)} <= {(e[1], e[2], e[3]) for e in expected}
    assert s.stderr == b""


@pytest.mark.parametrize(
    "case",
    ["malformed-yaml", "half-typed-expression", "huge-file", "nul-character"],
)
def test_lsp_robustness_a_bad_buffer_gets_a_diagnostic_never_a_traceback(game, case):
    chars = game / "characters.yaml"
    text = chars.read_text()
    bad = {
        "malformed-yaml": text.replace(BONUS, "do: gain 1 gold", 1),  # a '{' never closed
        "half-typed-expression": text.replace(BONUS, "do: gain count(hand}", 1),
        "huge-file": text + "# " + "x" * 600_000 + "\n",
        "nul-character": text.replace(BONUS, "do: gain 1 \x00gold}", 1),
    }[case]
    code = {
        "malformed-yaml": "definition/yaml",
        "half-typed-expression": "definition/dsl-syntax",
        "huge-file": "definition/too-large",
        "nul-character": "definition/yaml",
    }[case]
    with LspSession(game.parent) as s:
        s.open(chars, bad)
        got = s.diagnostics(chars, lambda d: bool(d))
        assert code in {d.code for d in got}
        # the server goes on answering, and the text on disk was never touched
        line, col = position_of(text, "count(hand)", 1)
        s.hover(chars, line, col)
        s.completion(chars, line, col)
        s.definition(chars, line, col)
        s.symbols(chars)
    assert chars.read_text() == text
    assert s.stderr == b""


def test_lsp_file_outside_any_game_gets_nothing_and_no_error(tmp_path):
    loose = tmp_path / "notes.yaml"
    loose.write_text("just: [some, yaml\n")
    with LspSession(tmp_path) as s:
        s.open(loose)
        assert s.hover(loose, 0, 1) is None
        assert s.definition(loose, 0, 1) == []
        assert s.completion(loose, 0, 8) == []
        assert s.symbols(loose) == []
    assert s.count(loose) == 0
    assert s.stderr == b""


def test_lsp_closing_a_file_brings_back_the_text_on_disk(game):
    chars = game / "characters.yaml"
    typo = chars.read_text().replace(BONUS, "do: gian 1 gold}", 1)
    with LspSession(game.parent) as s:
        s.open(chars, typo)
        s.diagnostics(chars, lambda d: bool(d))
        seen = s.count(chars)
        s.close(chars)
        s.diagnostics(chars, lambda d: d == [], after=seen)
    assert s.stderr == b""


def test_yaml_path_from_indentation_while_a_file_does_not_read():
    from mason.lsp.server import yaml_path_at

    lines = ["flow:", "  phases:", "    - id: a", "      do: |", "        gain 1 gold", "    - id: b", "      "]
    assert yaml_path_at(lines, 4, 10) == (("flow", "phases", 0, "do"), False)
    assert yaml_path_at(lines, 6, 6) == (("flow", "phases", 0), True)
    assert yaml_path_at(["counters:", "  gold: {"], 1, 4) == (("counters",), True)


def test_lsp_places_count_utf16_units_after_a_character_outside_the_bmp(game):
    """LSP counts a line's characters in UTF-16 units: after a 🎲 (two units, one code point) a
    diagnostic's column, a cursor and a found reference are two units further on than code points."""
    chars = game / "characters.yaml"
    text = chars.read_text()
    dice = text.replace("label: Take 1 extra gold,", "label: Take 1 extra gold 🎲🎲,", 1)
    typo = dice.replace(BONUS, "do: gian 1 gold}", 1)
    line, col = position_of(dice, BONUS, 4)  # code points
    with LspSession(game.parent) as s:
        s.open(chars, typo)
        [got] = s.diagnostics(chars, lambda d: bool(d))
        assert (got.range.start.line, got.range.start.character) == (line, col + 2)
        assert got.range.end.character == col + 2 + len("gian")
        s.change(chars, dice)
        gline, gcol = position_of(dice, BONUS, len("do: gain 1 go"))
        [loc] = s.definition(chars, gline, gcol + 2)  # the cursor on `gold`, in UTF-16 units
        assert loc.uri.endswith("/citadels/game.yaml")
        refs = [r for r in s.references(chars, gline, gcol + 2) if r.uri.endswith("characters.yaml")]
        word = gcol - 2  # where `gold` starts, in code points; two units on in UTF-16
        assert any(r.range.start == T.Position(gline, word + 2) for r in refs)
        hover = s.hover(chars, gline, gcol + 2)
        assert (hover.range.start.character, hover.range.end.character) == (word + 2, word + 2 + len("gold"))
    assert s.stderr == b""


def test_lsp_outline_of_a_file_cut_short_that_no_longer_reads_stays_within_its_text(game):
    """A file that does not read keeps the names it had (the outline does not vanish while typing), but
    their places are pulled back within the text the editor holds now."""
    districts = game / "districts.yaml"
    text = districts.read_text()
    cut = "\n".join(text.split("\n")[:6]) + "\n  - {id: [\n"  # the rest deleted, a flow never closed
    with LspSession(game.parent) as s:
        s.open(districts)
        assert s.symbols(districts)  # read once: the names are known
        s.change(districts, cut)
        got = s.symbols(districts)
        assert got, "the last names found are kept"
        count = len(cut.split("\n"))
        for sym in [got[0], *got[0].children]:
            for r in (sym.range, sym.selection_range):
                assert r.start.line < count and r.end.line < count, (sym.name, r)
    assert s.stderr == b""


@pytest.mark.parametrize("brk", ["\x85", "\u2028"])
def test_lsp_incremental_change_after_a_character_python_takes_for_a_line_break_lands_where_it_was_made(game, brk):
    """LSP ends lines at \\n, \\r\\n and \\r only: a change made on a line below a NEL or a LINE SEPARATOR
    (line breaks to Python's str.splitlines) is applied to that line, not to the one above."""
    chars = game / "characters.yaml"
    text = chars.read_text()
    marked = text.replace("# ", f"# a{brk}# b ", 1)  # a comment still to YAML, above the bonus
    assert marked != text
    line, col = position_of(marked, BONUS, len("do: g"))
    with LspSession(game.parent) as s:
        s.open(chars, marked)
        assert s.diagnostics(chars) == []
        seen = s.count(chars)
        s.edit(chars, (line, col), (line, col + 2), "ia")  # "gain" -> "gian"
        got = s.diagnostics(chars, lambda d: bool(d), after=seen)
        assert [(d.range.start.line, d.code) for d in got] == [(line, "definition/dsl-syntax")]
    assert s.stderr == b""


def test_lsp_diagnostic_of_a_file_emptied_in_the_editor_lies_within_it(game):
    """The whole text deleted: game.yaml is no mapping, and the diagnostic's range is the empty
    document's one place (0:0-0:0), not a character past its end."""
    g = game / "game.yaml"
    with LspSession(game.parent) as s:
        s.open(g)
        s.change(g, "")
        got = s.diagnostics(g, lambda d: bool(d))
        assert "definition/schema" in {d.code for d in got}
        for d in got:
            assert (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character) == (
                0,
                0,
                0,
                0,
            )
    assert s.stderr == b""
