"""The primitives of bag, cost_track, spaces, market, converters and ledger: each name registered once, by
its own module (a second registration under the same name would silently replace it), and no game's words
in the interpreter."""

from __future__ import annotations

import re

import paths

from mason import primitives  # noqa: F401
from mason.dsl.builtins import BUILTINS, PROCEDURES
from mason.runtime.boards import BOARD_KINDS

ROOT = paths.ROOT

OWNED = {
    "bag": (
        {"bag_count", "bag_drawn", "bag_parked", "bag_slots"},
        {"bag_put", "bag_draw", "bag_keep", "bag_return", "bag_park", "bag_unpark", "bag_empty"},
        {"bag"},
    ),
    "cost_track": ({"cost_now", "cost_pos", "cost_at"}, {"cost_step", "cost_reset", "cost_finish"}, {"cost_track"}),
    "spaces": (
        {"locations", "location_info", "open_spots", "spot_location", "occupants", "seats_at"},
        {"place_at", "clear_spots"},
        {"spaces"},
    ),
    "market": (
        {
            "market_goods",
            "market_info",
            "market_stock",
            "market_price",
            "market_max_buy",
            "market_bought",
            "market_sold",
        },
        {"market_buy", "market_sell", "market_restock"},
        {"market"},
    ),
    "converters": ({"convert_max"}, {"convert", "reset_uses"}, set()),
    "ledger": (
        {"holding", "times_payable", "can_pay", "excess"},
        {"gain_named", "pay_named", "gain_upto", "lose", "pay_or_penalty", "gain_bundle", "pay_bundle"},
        set(),
    ),
}


def test_each_name_belongs_to_its_module():
    for module, (queries, procs, kinds) in OWNED.items():
        for name in queries:
            assert BUILTINS[name].impl.__module__ == f"mason.primitives.{module}", name
            assert BUILTINS[name].doc, name
        for name in procs:
            assert PROCEDURES[name].impl.__module__ == f"mason.primitives.{module}", name
            assert PROCEDURES[name].doc, name
        for kind in kinds:
            assert BOARD_KINDS[kind].__module__ == f"mason.primitives.{module}", kind


def test_documented_in_dsl_reference():
    doc = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    for queries, procs, _kinds in OWNED.values():
        for name in queries | procs:
            assert f"`{name}(" in doc or f"`do {name}(" in doc, name


def test_these_primitives_name_no_game_word():
    words = re.compile(r"pillars|kingsbridge|cathedral|craftsm|priory|shiring|wool", re.I)
    for module in OWNED:
        path = ROOT / "interpreter" / "primitives" / f"{module}.py"
        assert not words.search(path.read_text(encoding="utf-8")), path
