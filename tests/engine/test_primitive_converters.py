"""Converters (interpreter/primitives/converters.py) on the fixture game tests/fixtures/bazaar."""

from __future__ import annotations

import paths
import pytest
from scenario import clear, done, put, run, run_phase, set_counter
from support import act, new_game

from mason.dsl.builtins import BUILTINS
from mason.errors import IllegalAction, PlayError

BAZAAR = str(paths.FIXTURES / "bazaar")


def q(g, name, *args):
    return BUILTINS[name].impl(g.rt, *args)


def c(g, name, s):
    return g.state["counters"][name][s]


def setup(g, *kilns):
    for s in range(g.state["n"]):
        clear(g, "workshop", s, to="yard")
        for name in ("clay", "spice", "pot"):
            set_counter(g, name, s, 0)
    return [put(g, k, "workshop", 0) for k in kilns]


def test_convert_max_is_the_smaller_of_uses_left_and_input_held():
    g = new_game(BAZAAR, 2)
    (k,) = setup(g, "clay_kiln")
    set_counter(g, "clay", 0, 5)
    assert q(g, "convert_max", 0, k, 2) == 2
    assert q(g, "convert_max", 0, k, 9) == 2  # 5 clay pays for 2 uses of 2
    set_counter(g, "clay", 0, 3)
    assert q(g, "convert_max", 0, k, 9) == 1
    g.state["cards"][k]["uses"] = 2
    assert q(g, "convert_max", 0, k, 2) == 0 and q(g, "convert_max", 0, k, 3) == 1


def test_convert_pays_gains_and_counts_uses():
    g = new_game(BAZAAR, 2)
    (k,) = setup(g, "spice_kiln")
    set_counter(g, "clay", 0, 2)
    set_counter(g, "spice", 0, 1)
    fame = c(g, "fame", 0)
    run(g, "do convert(0, %d, 1)" % k)
    assert (c(g, "clay", 0), c(g, "spice", 0), c(g, "pot", 0), c(g, "fame", 0)) == (1, 0, 1, fame + 1)
    assert g.state["cards"][k]["uses"] == 1
    with pytest.raises(PlayError):
        run(g, "do convert(0, %d, 1)" % k)  # no spice left
    run(g, 'do reset_uses(cards("kiln"))')
    assert g.state["cards"][k]["uses"] == 0


def test_per_round_use_limit_in_play():
    g = new_game(BAZAAR, 2)
    (k,) = setup(g, "clay_kiln")
    set_counter(g, "clay", 0, 8)
    run_phase(g, "fire")
    act(g, "Clay kiln")
    assert g.legal() == ["1", "2"]  # cap 2, though 8 clay would pay for 4
    with pytest.raises(IllegalAction):
        g.answer(2)
    act(g, "2")
    assert done(g) and c(g, "pot", 0) == 2 and c(g, "clay", 0) == 4


def test_auto_converter_with_a_held_condition():
    g = new_game(BAZAAR, 2)
    setup(g, "shrine")
    fame = c(g, "fame", 0)
    run_phase(g, "fire")
    assert c(g, "fame", 0) == fame  # no pot held: nothing
    set_counter(g, "pot", 0, 1)
    run_phase(g, "fire")
    assert c(g, "fame", 0) == fame + 1 and c(g, "pot", 0) == 1  # the pot is not spent


# ==================================================================== typed log events (issue 28)
def test_a_use_is_a_trade_event_with_the_bundles_paid_and_got():
    g = new_game(BAZAAR, 2)
    (k,) = setup(g, "clay_kiln")
    set_counter(g, "clay", 0, 4)
    start = len(g.log)
    run(g, "do convert(0, %d, 2)" % k)
    (use,) = [e for e in g.log[start:] if e["type"] == "trade"]
    assert (use["seat"], use["times"], use["paid"], use["got"]) == (0, 2, {"clay": 4}, {"pot": 2})
    assert use["card"] == k and use["text"] == "P1 uses Clay kiln x2: 4 clay -> 2 pot"
