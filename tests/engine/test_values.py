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


@pytest.mark.parametrize("v", [[1, "a", None, True, 2.5], {"a": 1, "b": None}, [], {}])
def test_a_stored_value_with_nothing_inside_to_copy_is_a_copy_all_the_same(v):
    copy = _plain(v)
    assert copy == v and copy is not v and type(copy) is type(v)


def test_a_stored_value_copies_what_lies_inside_past_its_first_scalars():
    inner = [3]
    v = [1, "a", inner, {"k": inner}]
    copy = _plain(v)
    assert copy == v and copy[2] is not inner and copy[3]["k"] is not inner
    with pytest.raises(PlayError, match="more than"):
        _plain([list(range(600_000)), list(range(600_000))])  # flat lists, counted all the same


def test_text_helpers():
    assert plural(1, "cell") == "1 cell" and plural(0, "cell") == "0 cells"
    assert values._show(None, [1, None, [2, "x"]]) == "1, none, 2, x"


def test_machine_reexports_the_moved_helpers():
    # the runtime's statements and older callers still find them in machine
    for name in ("_plain", "_seat_of", "_show", "_zone_label", "_visible_to", "_amount_of", "_say_counter"):
        assert getattr(machine, name) is getattr(values, name)
