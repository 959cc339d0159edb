"""Determinization: a full state sampled to be consistent with what one seat knows, for any game.

``determinize(program, state, seat, rng)`` returns a new state in which everything ``seat`` can see
(its view: ``state.view``) is unchanged and everything it cannot see is re-dealt at random:

- **Cards.** A card is hidden from the seat when its zone's visibility does not show it to the seat,
  it is face down and the seat is not in its ``seen`` list (the test of ``state.view``), and the
  seat's pending decision does not offer it (a card option is shown by its name) and it is not the
  card of a turn under way (a view names it). The hidden cards of each component family are
  re-dealt among the places those cards occupy: each place keeps its zone, position, owner, facing
  and ``seen`` list and receives another hidden card of the same family. A card keeps its id, its
  type and its card-state fields (an id always names the same component, as in every real game:
  option lists ordered by id read the same in every sample; a mark put on a card, a murdered
  card that names the target of an effect, say, stays on that card). So every zone keeps its size and its count per
  family; cards outside every zone are left alone. A hidden card whose id a paused rule holds (a
  loop's list of cards still to visit, a local variable) is re-dealt only among the places of other
  held hidden cards of its family in zones of the same name, so the paused rule finds, say, a
  chosen card still among the seats' chosen cards (an int that only looks like a card
  id, a seat say, narrows that card's re-deal; nothing is rewritten). Ids held by game variables
  and boards are not followed.
- **Secret variables.** A per-seat variable with ``visibility: owner`` is resampled for the other
  seats: from its declared ``domain`` (a DSL expression of the seat ``s``, evaluated on the sample:
  a sealed bid's ``range(coins(s) + 1)``, say, or the known value once the rules revealed it), else
  when its domain is known generically: ``type: seat`` (any seat) or a boolean value (true or false).
  A secret of any other value without a ``domain`` is **kept**: its domain depends on the rules,
  which the interpreter cannot read off the declaration (``mason validate`` does not require one).
- **Chance.** The game's generator state is replaced by one drawn from ``rng``, so the future draws
  of the sample are not the real game's future.
- **The pending decision** is asked again by its paused rule in the sample (the options of another
  seat's decision may depend on the cards just re-dealt), when the rule can ask it again.

What the seat knows is what the state records: its view now. A card the seat saw once and that has
since moved to a hidden place (a card passed in a draft, shuffled back into a deck) is re-dealt like
any other hidden card (moves clear ``seen``), and composition rules that only setup knows (piles
sorted by era, say) are not kept beyond the family. Values derived from hidden cards and kept in
paused frames' local variables are not rewritten.

The sample is plain data (a JSON round trip is exact) and a game plays on from it. Apart from the
kept secret values and the narrowing for cards held by paused rules, it tells the caller nothing
the seat could not see, so a bot may search over samples (information-set search) without reading
hidden state.
"""

from __future__ import annotations

import random

from mason.errors import MasonError
from mason.runtime.engine import Runtime
from mason.runtime.state import copy_state
from mason.runtime.values import split_zone_key, zone_key
from mason.session.saves import _ask_again  # the engine's own "ask the paused rule again" (it checks saves with it)

PLACE_FIELDS = ("z", "o", "up", "seen")  # what belongs to a card's place; its type and card state go with it


def hidden_cards(program, state: dict, seat: int) -> list[int]:
    """The ids of the cards in zones that ``seat`` cannot see: the complement of its view's cards and
    of the cards its pending decision offers (a draft shows the cards being passed as options)."""
    cards = state["cards"]
    pending = state["pending"]
    offered = set()
    if pending is not None and pending["seat"] == seat and pending["kind"] == "card":
        offered = {c for c in pending["options"] if isinstance(c, int)}
    # the card of every turn under way is public (a view names the current turn's card)
    offered.update(fr["card"] for fr in state["stack"] if fr["kind"] == "turn" and fr.get("card") is not None)
    out = []
    for key, ids in state["zones"].items():
        name, owner = split_zone_key(key)
        vis = program.zones[name]["visibility"]
        if vis == "all":
            continue
        mine = vis == "owner" and owner is not None and owner == seat
        if mine:
            continue
        for c in ids:
            card = cards[c]
            if not card["up"] and seat not in card["seen"] and c not in offered:
                out.append(c)
    return sorted(out)


def determinize(program, state: dict, seat: int, rng: random.Random) -> dict:
    """A new state consistent with what ``seat`` knows, the rest sampled with ``rng`` (see the module doc).

    ``state`` is not changed. ``rng`` is the caller's ``random.Random``: the same generator state
    gives the same sample.
    """
    st = copy_state(state)
    cards = st["cards"]
    zones = st["zones"]
    hidden = hidden_cards(program, st, seat)
    held = _held_by_rules(st, set(hidden))
    groups: dict[tuple, list[int]] = {}
    for c in hidden:
        # a card a paused rule holds stays within zones of the same name (a chosen card among
        # the seats' chosen cards); the others go anywhere their family is hidden
        groups.setdefault((program.family_of[cards[c]["t"]], cards[c]["z"] if c in held else ""), []).append(c)
    for group in sorted(groups):
        ids = groups[group]
        dealt = list(ids)
        rng.shuffle(dealt)
        # the place of card a (its zone slot, owner, facing, seen) -> card b
        places = {a: {k: cards[a][k] for k in PLACE_FIELDS} for a in ids}
        slots = {}
        for a in ids:
            rec = places[a]
            key = zone_key(rec["z"], rec["o"])
            slots[a] = (key, zones[key].index(a))
        for a, b in zip(ids, dealt):
            key, i = slots[a]
            zones[key][i] = b
            cards[b].update(places[a])
    _resample_vars(program, st, seat, rng)
    st["rng"] = rng.getrandbits(64) or 0x9E3779B97F4A7C15  # the generator's state must not be zero
    _ask_pending_again(program, st)
    return st


def _held_by_rules(st: dict, hidden: set) -> set:
    """The hidden cards whose ids the paused rules hold (a loop's list, a local variable).

    Only ints that are ids of hidden cards count; an int that is really a count or a seat only
    narrows the re-deal of the card with that id, it is never rewritten.
    """
    held: set = set()

    def walk(value):
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            if value in hidden:
                held.add(value)
        elif isinstance(value, list):
            for x in value:
                walk(x)
        elif isinstance(value, dict):
            for x in value.values():
                walk(x)

    for frame in st["stack"]:
        if "items" in frame:
            walk(frame["items"])
        walk(frame.get("vars") or {})
    return held


def _resample_vars(program, st: dict, seat: int, rng: random.Random) -> None:
    n = st["n"]
    for name in sorted(program.vars):
        vdef = program.vars[name]
        if vdef["scope"] != "seat" or vdef["visibility"] != "owner":
            continue
        values = st["vars"][name]
        domain = program.var_domains.get(name)
        rt = Runtime(program, st, None) if domain is not None else None
        for s in range(n):
            if s == seat:
                continue
            v = values[s]
            if domain is not None:
                values[s] = _from_domain(rt, domain, s, v, rng)
            elif vdef.get("type") == "seat" and isinstance(v, int) and not isinstance(v, bool):
                values[s] = rng.randrange(n)
            elif isinstance(v, bool):
                values[s] = rng.random() < 0.5
            # any other value is kept: no generic domain (module doc)


def _from_domain(rt, domain, s: int, value, rng: random.Random):
    """A value drawn from the declared ``domain`` of seat ``s``'s secret, as the sample's other cards
    and counters stand; an empty or broken domain keeps the value (the declaration is the game's)."""
    try:
        options = domain(rt, {"s": s, "me": s})
    except MasonError:
        return value
    options = list(options) if isinstance(options, (list, tuple, range)) else []
    return rng.choice(options) if options else value


def _ask_pending_again(program, st: dict) -> None:
    """Replace the pending decision by the one its paused rule asks in the sample (labels included)."""
    if st["pending"] is None:
        return
    try:
        fresh = _ask_again(program, st)
    except MasonError:
        fresh = None
    if fresh is not None and fresh["seat"] == st["pending"]["seat"]:
        st["pending"] = fresh


# ==================================================================== information sets (the mcts bot)
def information_set(program, state: dict, seat: int) -> tuple[dict, list]:
    """What the seat knows, in a form that does not depend on the arrangement of what it cannot see:
    a copy of the state in which the hidden cards of each group are put in their places in id order,
    and the groups (ids, places) to re-deal from it.

    The groups are ``determinize``'s: a component family, narrowed to the
    zones of one name for the cards a paused rule holds; a place is a zone slot with its owner,
    facing and ``seen`` list. So two states that differ only in which hidden card lies where (and in
    the game's random generator) give the same copy and the same samples, and the search the same
    answer. The pending decision is the seat's own: its options are shown to it, so the sample keeps
    it as it is (determinize asks it again for the decisions of other seats).
    """
    st = copy_state(state)
    cards, zones = st["cards"], st["zones"]
    hidden = hidden_cards(program, st, seat)
    held = _held_by_rules(st, set(hidden))
    by_group: dict = {}
    for c in hidden:
        by_group.setdefault((program.family_of[cards[c]["t"]], cards[c]["z"] if c in held else ""), []).append(c)
    groups = []
    for g in sorted(by_group):
        ids = by_group[g]
        places = []
        for a in ids:
            rec = {k: cards[a][k] for k in PLACE_FIELDS}
            key = zone_key(rec["z"], rec["o"])
            places.append(((key, zones[key].index(a)), rec))
        places.sort(key=lambda p: p[0])
        for c, ((key, i), rec) in zip(ids, places):  # the canonical deal: ids in place order
            zones[key][i] = c
            cards[c].update(rec)
        groups.append((ids, places))
    st["rng"] = 0x9E3779B97F4A7C15  # the real generator is no part of what the seat knows
    return st, groups


def sample_information_set(program, base: dict, groups: list, seat: int, rnd: random.Random) -> dict:
    """One determinization of the information set: the hidden cards of each group re-dealt among
    their places, the secret per-seat variables of a known domain resampled, a new generator."""
    st = copy_state(base)
    cards, zones = st["cards"], st["zones"]
    for ids, places in groups:
        if len(ids) > 1:
            dealt = list(ids)
            rnd.shuffle(dealt)
            for c, ((key, i), rec) in zip(dealt, places):
                zones[key][i] = c
                cards[c].update(rec)
                cards[c]["seen"] = list(rec["seen"])  # the sample's own list: the rules may change it
    _resample_vars(program, st, seat, rnd)
    st["rng"] = rnd.getrandbits(64) or 0x9E3779B97F4A7C15  # the generator's state must not be zero
    return st
