"""The low plain-value helpers (mason.runtime.values): zone keys, stored copies, text."""

from __future__ import annotations

import pytest

from mason.errors import PlayError
from mason.runtime import machine, values
from mason.runtime.values import _plain, plural, split_zone_key, zone_key


@pytest.mark.parametrize("name,seat,key", [("deck", None, "deck"), ("hand", 0, "hand/0"), ("hand", 11, "hand/11")])
def test_zone_key_and_its_inverse(name, seat, key):
    assert zone_key(name, seat) == key
    assert split_zone_key(key) == (name, seat)


def test_stored_values_are_copies_and_bounded():
    v = [[1, 2], {"a": [3]}]
    copy = _plain(v)
    assert copy == v and copy is not v and copy[0] is not v[0] and copy[1]["a"] is not v[1]["a"]
    deep = []
    for _ in range(40):
        deep = [deep]
    with pytest.raises(PlayError, match="nests lists more than"):
        _plain(deep)


def test_text_helpers():
    assert plural(1, "cell") == "1 cell" and plural(0, "cell") == "0 cells"
    assert values._show(None, [1, None, [2, "x"]]) == "1, none, 2, x"


def test_machine_reexports_the_moved_helpers():
    # the runtime's statements and older callers still find them in machine
    for name in ("_plain", "_seat_of", "_show", "_zone_label", "_visible_to", "_amount_of", "_say_counter"):
        assert getattr(machine, name) is getattr(values, name)
