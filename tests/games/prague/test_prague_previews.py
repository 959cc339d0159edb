"""Praga Caput Regni: options that preview what the rules compute (issue 30 item 3): each rotation of a
tile says what it would link (PCR-R72 .. R76), each city hex what it costs and scores (PCR-R80)."""

from __future__ import annotations

import re

from pr_support import act, counter, hex_put, labels, prompt, run, set_goods
from test_prague_tiles import calm, city, city_cells, set_row

from mason.agents.base import parse_answer
from mason.presentation.render import render_decision


def test_issue30_pcr_r72_r75_each_wall_rotation_shows_what_it_links_and_that_is_what_it_pays():
    g = calm(2)
    hex_put(g, "action_0", "2,0", "w1_02", owner_zone="walls", seat=0)
    hex_put(g, "action_0", "0,2", "w1_06", owner_zone="walls", seat=0)
    set_goods(g, 0, stone=9, gold=9)
    set_row(g, "wall", "w1_03")
    run(g, 'emit perform(who=0, action="wall", source="tile")')
    act(g, "1,1")
    assert prompt(g) == "Turn the wall tile: how many steps clockwise?"
    assert g.pending["keys"] == ["0", "1", "2", "3", "4", "5"]
    shown = labels(g)
    text = render_decision(g.pending, g.program, g.state, g.view(0))
    assert "  0. " in text and "  1. 0 (" not in text  # a rotation is typed as itself, not by its place
    assert parse_answer("3", g.pending) == 3
    seen_links = 0
    for rot in range(6):
        h = g.copy()
        red, start = counter(h, "red", 0), len(h.log)
        act(h, str(rot))
        said = [e.get("text", "") for e in h.log[start:]]
        edge_links = sum(1 for t in said if t.startswith("Edge link:"))
        m = re.search(r"(\d+) red tokens?", shown[rot])
        assert counter(h, "red", 0) - red == (int(m.group(1)) if m else 0), (rot, shown[rot])
        assert ("links " in shown[rot]) == (edge_links > 0), (rot, shown[rot], said)
        if "links " in shown[rot]:
            assert shown[rot].count(" + ") == edge_links  # one "icon + icon" per edge link
        seen_links += shown[rot] != f"{rot} (no link)"
    assert seen_links > 0  # the setup makes at least one rotation link


def test_issue30_pcr_r80_a_city_hex_option_shows_its_surcharge_and_vp():
    g = calm(4)
    set_row(g, "building", "b1_07")
    set_goods(g, 0, gold=9)
    run(g, 'emit perform(who=0, action="building", source="tile")')
    assert prompt(g) == "Build on which hex of the city?"
    old = next(c for c in city_cells(g, "build_old") if city(g, c, "surcharge") == 2)
    new = city_cells(g, "build_new")[0]
    assert f"{old} (pay 2 gold more, +{city(g, old, 'vp')} VP)" in labels(g)
    assert f"{new} (no surcharge)" in labels(g)


def test_issue30_pcr_x17_a_discounted_building_tile_shows_what_is_left_to_pay():
    """T4-1 (PCR-R107): the building tiles are offered at their price after the 2-gold discount."""
    from pr_support import card, put
    from test_prague_tiles import data

    g = calm(4)
    assert data(g, "b1_07")["gold"] == 3 and data(g, "b1_01")["gold"] == 1
    assert data(g, "b1_07")["stone"] == 0 and data(g, "b1_01")["stone"] == 0
    put(g, "t4_1", "techs", 0)
    set_row(g, "building", "b1_07", "b1_01")
    set_goods(g, 0, gold=3)
    run(g, f"emit use_tech(who=0, tile={card(g, 't4_1')})")
    assert prompt(g) == "Take which building tile?"
    assert sorted(labels(g)) == sorted(
        [f"{data(g, 'b1_07')['name']} (pay 1 gold)", f"{data(g, 'b1_01')['name']} (free)"]
    )


def test_issue30_pcr_r68_without_a_discount_a_wall_tile_shows_its_printed_price_alone():
    g = calm(2)
    set_row(g, "wall", "w1_02", "w1_03")
    set_goods(g, 0, stone=9, gold=9)
    run(g, 'emit perform(who=0, action="wall", source="tile")')
    assert prompt(g) == "Take which wall tile?"
    assert not any("pay" in label for label in labels(g))  # the name says the price: nothing added
