"""Every numbered rule of a game's digest is named by a test or listed as not implemented.

The digests live beside the project (``../shared/reference/``); where they are not present (a bare
checkout) the test is skipped, since the ids cannot be read.
"""

from __future__ import annotations

import re
from pathlib import Path

import paths
import pytest

ROOT = paths.ROOT
REFERENCE = ROOT.parent / "shared" / "reference"
# digest file, rule-id prefixes, the README that lists rules not implemented, the folder implementing them
GAMES = ROOT / "games"
DIGESTS = [
    ("citadels.md", ("CIT",), GAMES / "citadels" / "README.md", GAMES / "citadels"),
    ("citadels.md", ("DC",), GAMES / "citadels" / "README.md", GAMES / "citadels" / "expansions" / "dark-city"),
    ("island_fortress.md", ("ISF",), GAMES / "island-fortress" / "README.md", GAMES / "island-fortress"),
    ("pillars.md", ("POE",), GAMES / "pillars" / "README.md", GAMES / "pillars"),
    ("golden_temple.md", ("GTA",), GAMES / "golden-temple" / "README.md", GAMES / "golden-temple"),
    ("prague.md", ("PCR",), GAMES / "prague" / "README.md", GAMES / "prague"),
]


def _tested_ids() -> set[str]:
    """Rule ids carried by test names (test_cit_r12_..., test_cit_r96_r97_r98_..., test_dc_x3_...) in
    every test file under tests/, whichever folder it is in (tests/games/<game-id>/, tests/engine/...)."""
    ids = set()
    for path in sorted(paths.TESTS.rglob("test_*.py")):
        for name in re.findall(r"^\s*def (test_\w+)", path.read_text(encoding="utf-8"), re.M):
            m = re.match(r"test_([a-z]+)_((?:[rx]\d+_?)+)", name)
            if m:
                for part in re.findall(r"[rx]\d+", m.group(2)):
                    ids.add(f"{m.group(1).upper()}-{part.upper()}")
    return ids


def not_implemented(readme: Path) -> set[str]:
    if not readme.exists():
        return set()
    text = readme.read_text(encoding="utf-8")
    section = text.split("Rules not implemented", 1)[1] if "Rules not implemented" in text else ""
    return set(re.findall(r"\b([A-Z]+-R\d+)\b", section))


@pytest.mark.parametrize("digest,prefixes,readme,folder", DIGESTS, ids=[d[1][0] for d in DIGESTS])
def test_every_rule_id_is_tested_or_listed(digest, prefixes, readme, folder):
    path = REFERENCE / digest
    if not path.exists():
        pytest.skip(f"{path} not present")
    if not folder.exists():
        pytest.skip(f"{folder.name} is not in this checkout")
    text = path.read_text(encoding="utf-8")
    wanted = {i for p in prefixes for i in re.findall(rf"\*\*({p}-R\d+)\*\*", text)}
    assert wanted, f"no {prefixes} rule ids found in {digest}"
    covered = _tested_ids() | not_implemented(readme)
    missing = sorted(wanted - covered, key=lambda s: int(s.split("-R")[1]))
    assert missing == [], f"rules neither tested nor listed as not implemented: {missing}"
