"""Helpers for rule tests: build a situation (prepared state), then drive decisions by label.

Typical use::

    g = new_game("citadels", 4, seed=1)
    open_draft(g)                                   # every character available in the draft
    pick(g, {0: "Warlord", 1: "Bishop", 2: "King", 3: "Merchant"})
    give(g, 1, "temple", "city"); set_gold(g, 0, 6)
    act(g, "Take 2 gold")                           # answers the pending decision by its label
"""

from __future__ import annotations

from functools import lru_cache

import paths

from mason.model.validate import validate_game
from mason.runtime.engine import Runtime, move_card
from mason.runtime.state import new_state
from mason.session.game import Game, Settings

MINI = paths.FIXTURES / "mini"  # the mini fixture game of the DSL and engine unit tests

# (game, players, expansions): every game, Dark City, and the fixtures whose flow ends oddly, for the
# tests that play each one two ways and compare the final states
EVERY_GAME = [
    ("citadels", 4, ()),
    ("citadels", 5, ("dark-city",)),
    ("island-fortress", 4, ()),
    ("pillars", 4, ()),
    ("golden-temple", 4, ()),
    ("prague", 4, ()),
    (str(paths.FIXTURES / "automaton"), 2, ()),  # automated seats decide by their policy in between
    (str(paths.FIXTURES / "sowing"), 2, ()),  # 'end game' inside a branch run direct
    (str(paths.FIXTURES / "stall"), 2, ()),  # a stall's effect ends the game
]


def new_game(game="citadels", players=4, seed=1, variants=(), options=(), narrate=True, expansions=()) -> Game:
    """A new game: a shipped game's id or a folder (a ``Path`` will do), options as ``(key, value)`` pairs."""
    return Game.new(
        Settings(str(game), players, seed, tuple(variants), tuple(expansions), tuple(sorted(options))), narrate=narrate
    )


@lru_cache(maxsize=None)
def mini_program():
    """The mini fixture game, compiled once per process (tests may add effects to it)."""
    prog, errors = validate_game(str(MINI))
    assert not errors, "\n".join(e.line() for e in errors)
    return prog


def mini_game() -> Game:
    """The mini fixture for 3 players (seed 1) after setup, in P1's first action window."""
    prog = mini_program()
    g = Game(prog, Settings(str(MINI), 3, 1), new_state(prog, 3, 1), [], narrate=False)
    g._run()
    return g


def generated_source(fn) -> str:
    """The Python source generated for a compiled expression (dsl/fastexpr.py), helpers included."""
    from mason.dsl.fastexpr import CODE

    return next(src for src, code in CODE.known.items() if fn.__code__ in (code, *code.co_consts))


def random_answer(rng, pending):
    """A legal answer drawn with ``rng`` (a ``random.Random``): one option, or a subset of up to the
    decision's ``subset`` options."""
    n = len(pending["options"])
    if pending["subset"]:
        return sorted(rng.sample(range(n), rng.randint(0, min(n, pending["subset"]))))
    return rng.randrange(n)


# ------------------------------------------------------------------ reading the state
def labels(g: Game) -> list[str]:
    return g.legal()


def seat_to_move(g: Game) -> int | None:
    return g.pending["seat"] if g.pending else None


def cards_in(g: Game, zone: str, seat: int | None = None) -> list[int]:
    key = zone if seat is None else f"{zone}/{seat}"
    return list(g.state["zones"][key])


def names_in(g: Game, zone: str, seat: int | None = None) -> list[str]:
    return [g.program.types[g.state["cards"][c]["t"]]["name"] for c in cards_in(g, zone, seat)]


def types_in(g: Game, zone: str, seat: int | None = None) -> list[str]:
    return [g.state["cards"][c]["t"] for c in cards_in(g, zone, seat)]


def gold(g: Game, seat: int) -> int:
    return g.state["counters"]["gold"][seat]


def bank(g: Game) -> int:
    return g.state["counters"]["bank"]


def card_of(g: Game, type_id: str, n: int = 0) -> int:
    return g.program.type_instances[type_id][n]


def holder(g: Game, type_id: str) -> int | None:
    return g.state["cards"][card_of(g, type_id)]["o"]


# ------------------------------------------------------------------ preparing a situation
def _rt(g: Game) -> Runtime:
    return g.rt


def give(g: Game, seat: int | None, type_id: str, zone: str = "hand", bottom=False) -> int:
    """Move a copy of ``type_id`` (one not already in a seat's zone, if any) into ``zone`` of ``seat``."""
    ids = g.program.type_instances[type_id]
    cards = g.state["cards"]
    free = [c for c in ids if cards[c]["o"] is None] or [
        c for c in ids if cards[c]["z"] not in g.program.active_zones
    ]  # never out of a city in play
    assert free, f"every copy of {type_id} is already in play"
    c = free[0]
    key = zone if seat is None else f"{zone}/{seat}"
    move_card(g.rt, c, key, bottom=bottom)
    return c


def set_gold(g: Game, seat: int, amount: int) -> None:
    """Set a seat's gold, taking from or returning to the bank so the total stays 30."""
    counters = g.state["counters"]
    delta = amount - counters["gold"][seat]
    assert counters["bank"] >= delta, "the bank cannot cover this"
    counters["bank"] -= delta
    counters["gold"][seat] = amount


def clear_hand(g: Game, seat: int) -> None:
    for c in cards_in(g, "hand", seat):
        move_card(g.rt, c, "deck", bottom=True)


def refresh_pending(g: Game) -> None:
    """After editing a zone a pending card choice reads from, recompute its options (test-only)."""
    p = g.pending
    fr = g.state["stack"][-1]
    node = g.program.nodes[fr["node"]]
    if fr["kind"] == "choice":
        env = g.state["stack"][fr["scope"]]["vars"]
        items = node.source(g.rt, env)
        options = list(items) + ([None] if node.optional else [])
        p["options"] = options
        p["labels"] = [g.rt.label(node.ckind, v) if v is not None else "none" for v in options]


def open_draft(g: Game) -> None:
    """Put every character of the round (face-down and face-up discards too) into the draft."""
    for zone in ("face_down", "face_up", "aside"):
        for c in cards_in(g, zone):
            move_card(g.rt, c, "draft")
    refresh_pending(g)


# ------------------------------------------------------------------ answering
def act(g: Game, label: str, seat: int | None = None) -> None:
    """Answer the pending decision with the option whose label equals (or uniquely starts) ``label``;
    ids in it may keep their underscores (``s4: kings_road``): labels show them in words."""
    p = g.pending
    assert p is not None, "no decision is pending"
    if seat is not None:
        assert p["seat"] == seat, f"P{p['seat'] + 1} decides, not P{seat + 1}: {p['prompt']} {p['labels']}"
    opts = p["labels"]
    if label not in opts:
        label = label.replace("_", " ")
    if label in opts:
        i = opts.index(label)
    else:
        starts = [i for i, l in enumerate(opts) if l.lower().startswith(label.lower())]
        assert len(starts) == 1, f"'{label}' not among {opts} ({p['prompt']})"
        i = starts[0]
    g.answer([i] if p["subset"] else i)


def act_subset(g: Game, chosen: list[str]) -> None:
    p = g.pending
    assert p["subset"], "not a subset decision"
    idx, used = [], set()
    for label in chosen:
        i = next(i for i, l in enumerate(p["labels"]) if l == label and i not in used)
        used.add(i)
        idx.append(i)
    g.answer(idx)


def pick(g: Game, picks: dict[int, str | list[str]]) -> None:
    """Answer the draft: ``picks[seat]`` names the character(s) each seat keeps, in draft order.

    Discard decisions (two-player draft) set aside the first remaining option.
    """
    wanted = {s: ([v] if isinstance(v, str) else list(v)) for s, v in picks.items()}
    while g.pending and g.state["phase"] == "selection":
        p = g.pending
        s = p["seat"]
        if p["prompt"].startswith("Keep"):
            act(g, wanted[s].pop(0), s)
        else:
            g.answer(0)


def end_turn(g: Game) -> None:
    act(g, "End turn")


def play_out(g: Game, chooser=lambda g: 0, limit: int = 100_000) -> None:
    """Answer every remaining decision with ``chooser(g)`` (default: the first option)."""
    n = 0
    while not g.over:
        p = g.pending
        g.answer([] if p["subset"] else chooser(g))
        n += 1
        assert n < limit


def answer_until(g: Game, prompt_start: str, chooser=lambda g: 0, limit: int = 10_000) -> None:
    """Answer decisions until one whose prompt starts with ``prompt_start`` is pending."""
    n = 0
    while g.pending and not g.pending["prompt"].startswith(prompt_start):
        p = g.pending
        g.answer([] if p["subset"] else chooser(g))
        n += 1
        assert n < limit, f"no '{prompt_start}' decision"


# ------------------------------------------------------------------ copies of games and fixtures
def copy_game(tmp_path, folder, name=None, ignore=()):
    """A copy of a game folder (a path, or a shipped game's id) as ``tmp_path/name`` (the folder's own
    name by default), leaving out the entries named in ``ignore`` (``("expansions",)``, say)."""
    import shutil
    from pathlib import Path

    from mason.model.loader import find_game

    folder = Path(folder) if Path(folder).is_dir() else find_game(str(folder))
    dest = tmp_path / (name or folder.name)
    shutil.copytree(folder, dest, ignore=shutil.ignore_patterns(*ignore) if ignore else None)
    return dest


def edited_copy(tmp_path, folder, edits, first_only=False, name=None, file="game.yaml"):
    """A copy of a game folder under ``tmp_path`` with text replacements ``(old, new)`` in one of its
    files (each ``old`` must occur; every occurrence is replaced unless ``first_only``); returns the copy."""
    from pathlib import Path

    bad = copy_game(tmp_path, folder, name or f"bad_{Path(folder).name}")
    text = (bad / file).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1) if first_only else text.replace(old, new)
    (bad / file).write_text(text)
    return bad


def errors_by_board_key(lines, errors):
    """Load-time board errors by the board key they are placed at (a block list at its first item)."""
    out = {}
    for e in errors:
        assert e.code == "definition/board" and e.place and e.place.line > 0, e.line()
        i = e.place.line - 1
        while not (lines[i].startswith("    ") and lines[i][4] not in " -"):
            i -= 1
        out.setdefault(lines[i].split(":")[0].strip(), []).append(e.message)
    return out


def broken_errors(tmp_path, folder, edits):
    """The lines of an edited copy's game.yaml and the load-time errors of that copy."""
    from mason.model.validate import validate_game

    bad = edited_copy(tmp_path, folder, edits)
    return (bad / "game.yaml").read_text().splitlines(), validate_game(str(bad))[1]


# ------------------------------------------------------------------ the command line
def invoke(*args, input=None, cwd=None):
    """``mason ARGS`` in process (click's runner), in ``cwd`` or else a scratch directory (a human
    seat saves there at the end of its input); arguments may be paths or numbers."""
    import contextlib
    import tempfile

    from click.testing import CliRunner

    from mason.cli.main import main

    with contextlib.ExitStack() as stack:
        where = cwd if cwd is not None else stack.enter_context(tempfile.TemporaryDirectory())
        stack.enter_context(contextlib.chdir(where))
        return CliRunner().invoke(main, [str(a) for a in args], input=input)


def mason_process(*args, input="", cwd=None, timeout=120, env=None):
    """``mason ARGS`` as a real process (``python -m mason.cli.main``) in ``cwd`` (the repository by
    default), with its output captured as text; ``timeout`` only keeps a hung child from hanging the suite."""
    import subprocess
    import sys

    import paths

    return subprocess.run(
        [sys.executable, "-m", "mason.cli.main", *map(str, args)],
        input=input,
        cwd=paths.ROOT if cwd is None else cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def globals_read(code):
    """The global names a code object (and the code objects it holds) reads: for checking that
    generated code reads only names its namespace defines."""
    import dis

    for i in dis.get_instructions(code):
        if i.opname == "LOAD_GLOBAL":
            yield i.argval
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            yield from globals_read(c)
