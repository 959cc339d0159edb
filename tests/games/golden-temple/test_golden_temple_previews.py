"""Amritsar: The Golden Temple: options that preview what the rules compute (issue 30 item 3): where a
workplace's last worker lands and which district it activates (GTA-R49 .. R51), what an upgrade
costs (GTA-R123 .. R125), and a mahout action that would do nothing marked so (GTA-R61, GTA-R118)."""

from __future__ import annotations

from gt_support import (
    act,
    goods,
    labels,
    mahout,
    owners,
    plain,
    prompt,
    put_elephant,
    ready,
    ring,
    run,
    set_goods,
    set_ring,
    set_var,
)

PICK = "Take the workers of which workplace?"


def test_issue30_gta_r51_each_workplace_says_where_its_last_worker_lands_and_the_sowing_agrees():
    """North 1 holds 3 workers, East 1 is full (4): sown on North 2, East 2 (East 1 passed free) and
    South 1, the last lands on South 1, which makes south the action district, as its option said."""
    g = plain(ready(3))
    set_ring(g, {"n1": ["yellow", "blue", "white"], "e1": ["green"] * 4, "w2": ["blue"]})
    run(g, "emit sow(who=0)")
    assert prompt(g) == PICK
    assert labels(g) == [
        "North 1 (3 workers; the last lands on South 1, south district)",
        "East 1 (4 workers; the last lands on West 1, west district)",
        "West 2 (1 worker; the last lands on North 1, north district)",
    ]
    act(g, "North 1")
    asked = []
    while (prompt(g) or "").startswith("Leave which worker"):
        asked.append(prompt(g))
        act(g, labels(g)[0])
    assert asked == [  # each prompt names the workplace the worker is left on (East 1 is full)
        "Leave which worker on the next workplace, North 2?",
        "Leave which worker on the next workplace, East 2?",
    ]
    assert g.pending is None  # no coin to skip with: the last worker landed by itself
    r = ring(g)
    assert r["last"][0] == "s1" and r["pieces"]["e1"] == ["green"] * 4  # the full workplace passed
    assert g.state["vars"]["act_district"] == "south"


def test_issue30_gta_r123_r124_r125_upgrade_kinds_show_their_cost_and_charge_it():
    g = plain(ready(3))
    set_goods(g, 0, marble=1, copper=1, gold=1)
    run(g, "emit upgrade(who=0, kinds=upgrade_kinds, free=false)")
    assert prompt(g) == "Upgrade: which kind?"
    shown = labels(g)
    assert shown[0] == "warehouse (pay 1 marble)" and "objective (pay 1 copper)" in shown
    act(g, "objective")
    act(g, labels(g)[0])
    assert goods(g, 0)["copper"] == 0 and goods(g, 0)["marble"] == 1 and goods(g, 0)["gold"] == 1


def test_issue30_gta_r61_r118_the_donate_mahout_is_marked_when_it_can_do_nothing():
    """Elephant action with the donate mahout and no resource to pay a donation space: offered (the
    rules let the player choose it) but marked; chosen, it changes nothing, as marked."""
    g = plain(ready(3))
    set_var(g, "act_worker", "yellow")
    mahout(g, 0, "mh_coin_pp", "green")
    put_elephant(g, 0, "west")
    run(g, 'emit tile_action(who=0, code="mahout_any")')
    donate = "Mahout: donate (does nothing now: no donation space you can pay where your elephant stands)"
    assert labels(g) == [donate, "Mahout: 1 coin + 1 PP"]
    before = dict(owners(g, "west"))
    act(g, "Mahout: donate")
    assert owners(g, "west") == before and goods(g, 0) == {"coins": 0, "marble": 0, "copper": 0, "gold": 0}


def test_issue30_gta_r61_r118_the_donate_mahout_is_not_marked_when_a_space_can_be_paid():
    g = plain(ready(3))
    set_var(g, "act_worker", "yellow")
    mahout(g, 0, "mh_coin_pp", "green")
    put_elephant(g, 0, "west")
    set_goods(g, 0, marble=1)
    run(g, 'emit tile_action(who=0, code="mahout_any")')
    assert labels(g) == ["Mahout: donate", "Mahout: 1 coin + 1 PP"]
