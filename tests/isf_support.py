"""Helpers for the Island Fortress rule tests: reach a turn, shape a situation, drive an action.

Typical use::

    g = turn_of(0)                                   # 2 players; P1 won the first commission
    set_counts(g, 0, block=2, jade=1, laborer=7, convict=3)
    put(g, "R1L1C3", 0)
    play(g, "Builder", "Builder A")                  # plays the card, names the action
    act(g, "Two blocks")
"""

from __future__ import annotations

from support import act, new_game, refresh_pending

GAME = "island-fortress"
SEATS = "ABCD"


def fresh(players=2, seed=1, variants=()):
    """A new game paused at its first decision (the first favour card to return)."""
    return new_game(GAME, players, seed, variants)


def skip_setup(g):
    """Return the first offered favour cards until the first commission bid."""
    while g.pending and g.pending["prompt"].startswith("Return a favour"):
        g.answer(0)


def bids(g, amounts: dict):
    """Answer the sealed bids of the commission in progress (seat -> jade); unnamed seats bid 0."""
    while g.pending and g.pending["prompt"].startswith("Your sealed bid"):
        s = g.pending["seat"]
        act(g, str(amounts.get(s, 0)), s)


def turn_of(first=0, players=2, seed=1, variants=(), keep_governor=False):
    """A game at the first action window of ``first``, who won round 1's commission with a bid of 1.

    The governor block it won is taken away again (unless ``keep_governor``) so that the window
    shows only 'Play a role card'; the pending decision is then the window (or, when it has one
    option, the role card choice).
    """
    g = fresh(players, seed, variants)
    skip_setup(g)
    set_counts(g, first, jade=g.state["counters"]["jade"][first])
    bids(g, {first: 1})
    assert g.state["vars"]["governor"] == first
    if not keep_governor:
        g.state["counters"]["governor_block"][first] = 0
    return g


def set_counts(g, seat, **counts):
    """Set per-seat counters directly (a situation, not a move)."""
    for name, v in counts.items():
        g.state["counters"][name][seat] = v


def counts(g, seat, *names):
    return tuple(g.state["counters"][n][seat] for n in names)


def wall(g) -> dict:
    return g.state["boards"]["wall"]


def put(g, slot, owner, marks=0):
    """Fill a slot (owner: a seat, or None for a governor block); ``marks`` reinforcements."""
    w = wall(g)
    w["pieces"][slot] = owner
    if marks:
        w["marks"][slot] = {"reinforcement": marks}


def fill(g, slots, owner):
    for s in slots:
        put(g, s, owner)


def prison(g, region):
    return dict(wall(g)["stores"][str(region)])


def set_prison(g, region, jade=0, convict=0):
    wall(g)["stores"][str(region)] = {"jade": jade, "convict": convict}


def set_camp(g, seat, region):
    g.state["vars"]["camp"][seat] = region


def give_card(g, seat, type_id, zone):
    """Move a copy of ``type_id`` into ``zone`` of ``seat`` (favour cards: the one copy)."""
    from mason.runtime.machine import move_card

    c = g.program.type_instances[type_id][0]
    move_card(g.rt, c, f"{zone}/{seat}")
    if zone in ("completed", "played"):
        g.state["cards"][c]["up"] = True
    return c


def role_card(g, seat, type_id):
    """The seat's own copy of a role card, wherever it lies."""
    for c in g.program.type_instances[type_id]:
        if g.state["cards"][c]["o"] == seat:
            return c
    raise AssertionError(f"P{seat + 1} has no {type_id}")


def move_role(g, seat, type_id, zone):
    from mason.runtime.machine import move_card

    c = role_card(g, seat, type_id)
    move_card(g.rt, c, f"{zone}/{seat}", facing="up" if zone == "played" else "")
    return c


def roles_in(g, zone, seat):
    return sorted(g.state["cards"][c]["t"] for c in g.state["zones"][f"{zone}/{seat}"])


def play(g, card: str, action: str | None = None):
    """From the action window (or the role card choice): play ``card`` and name ``action``."""
    p = g.pending
    if p["kind"] == "action":
        act(g, "Play a role card")
    else:
        refresh_pending(g)
    refresh_pending(g)
    act(g, card)
    if action is not None and prompt(g) == "Name an action of the card":
        act(g, action)  # with a single legal action, the action runs without asking


def bare(g) -> list[str]:
    """The pending options without the previews the rules add in brackets (``R1L1C2 (2 workers)``)."""
    return [label.split(" (")[0] for label in g.legal()]


def maybe(g, label: str) -> bool:
    """Answer ``label`` if the pending decision offers exactly it, a preview aside (one-option decisions
    resolve by themselves)."""
    if g.pending and label in bare(g):
        g.answer(bare(g).index(label))
        return True
    return False


def clear_favours(g, *seats):
    """Put the seats' favour cards in hand under the deck (a situation without them)."""
    from mason.runtime.machine import move_card

    for s in seats:
        for c in list(g.state["zones"][f"favours/{s}"]):
            move_card(g.rt, c, "favour_deck", bottom=True)


def prompt(g) -> str:
    return g.pending["prompt"] if g.pending else ""


def texts(g, start=0):
    return [e.get("text", "") for e in g.log[start:] if e.get("text")]
