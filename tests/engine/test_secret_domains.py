"""A secret per-seat variable's declared ``domain``: determinization draws the other seats' values from it.

Island Fortress's sealed bid is the real case: while seat 2 is asked for its bid, seat 1's bid is
hidden from it, so seat 2's samples must not keep seat 1's real bid.
"""

from __future__ import annotations

import random
import shutil

from paths import GAMES
from support import new_game

from mason.errors import DefinitionErrors
from mason.session.determinize import determinize
from mason.session.game import load_program


def _at_second_bid(seed: int):
    g = new_game("island-fortress", 4, seed)
    rnd = random.Random(seed)
    while not g.over:
        p = g.state["pending"]
        if "sealed bid" in (p["prompt"] or "") and p["seat"] == 1:
            return g
        g.answer(rnd.randrange(len(p["options"])) if not p["subset"] else [])
    raise AssertionError("no bidding reached")


def test_a_hidden_bid_is_drawn_from_its_domain_not_kept():
    for seed in (1, 2, 3):
        g = _at_second_bid(seed)
        st = g.state
        real = st["vars"]["bid"][0]
        jade0 = st["counters"]["jade"][0]
        drawn = {determinize(g.program, st, 1, random.Random(k))["vars"]["bid"][0] for k in range(40)}
        assert drawn <= set(range(jade0 + 1)), (drawn, jade0)  # never more than seat 1 could afford
        if jade0 >= 2:
            assert len(drawn) > 1, f"seed {seed}: seat 1's bid {real} kept in every sample"
        # the seat's own secret is never resampled
        own = {determinize(g.program, st, 0, random.Random(k))["vars"]["bid"][0] for k in range(10)}
        assert own == {real}


def test_a_revealed_bid_is_known_and_kept():
    g = _at_second_bid(1)
    rnd = random.Random(5)
    while g.state["vars"]["revealed_bids"] is None:  # play on to the reveal
        p = g.state["pending"]
        g.answer(rnd.randrange(len(p["options"])) if not p["subset"] else [])
    st = g.state
    for k in range(10):
        assert determinize(g.program, st, 1, random.Random(k))["vars"]["bid"] == st["vars"]["bid"]


def test_a_domain_on_a_public_variable_is_refused(tmp_path):
    folder = tmp_path / "isf"
    shutil.copytree(GAMES / "island-fortress", folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("revealed_bids: {start: null}", 'revealed_bids: {start: null, domain: "[1]"}')
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    try:
        load_program(str(folder))
    except DefinitionErrors as exc:
        assert "a domain is for a secret per-seat variable" in str(exc)
        assert "game.yaml:" in exc.lines()[0]
    else:
        raise AssertionError("a domain on a public variable was accepted")
