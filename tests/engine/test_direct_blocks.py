"""Blocks compiled to Python for running direct (mason.runtime.direct; runtime speed, issue 12).

A block run direct (``machine.run_now``, a frame's block when every seat is answered in place) or a
block of plain statements run when nothing is narrated (``machine.run_inline``) runs as one generated
function, its common statements written in place. Nothing observable may change: every game ends in
the same state as with the statements' handlers alone (``machine.BLOCKS.compile`` None), and a
statement that fails gives the handler's error, message, code and place."""

from __future__ import annotations

import builtins
import json
import types

import pytest
from paths import PROBES
from support import EVERY_GAME, copy_game, globals_read

from mason.dsl.constructs import KINDS
from mason.errors import PlayError
from mason.play.session import make_bot, play_game
from mason.runtime import direct, machine
from mason.session.game import Game, Settings


def _final(settings, in_place=True):
    g = Game.new(settings, narrate=False)
    play_game(g, {s: make_bot("random", settings.seed, s) for s in range(settings.players)}, in_place=in_place)
    return json.dumps(g.state, sort_keys=True)


def _without_compiler(monkeypatch):
    monkeypatch.setattr(machine.BLOCKS, "compile", None)


GAMES = EVERY_GAME


@pytest.mark.parametrize("game,players,expansions", GAMES, ids=lambda v: str(v).rsplit("/", 1)[-1])
def test_a_game_run_by_generated_blocks_ends_as_with_the_handlers(game, players, expansions, monkeypatch):
    settings = Settings(game, players, 5, expansions=expansions)
    with_code = [_final(settings, in_place) for in_place in (True, False)]  # direct; inline blocks only
    _without_compiler(monkeypatch)
    by_handlers = _final(settings, True)
    assert with_code == [by_handlers, by_handlers]


def _probe(tmp_path, body: str, name: str):
    """The choices-only probe with ``body`` (lines of a choice's body, ``x`` the number picked, ``s``
    the seat) in place of its body, a card state ``mark``, game variables ``tally`` and ``picks`` and a seat's ``mine``; its settings and the file's text."""
    folder = copy_game(tmp_path, PROBES / "choices-only", name=name)
    game = folder / "game.yaml"
    pad = "\n" + " " * 20
    text = game.read_text().replace("gain x points to s", pad.join(body.splitlines()))
    text = text.replace(
        "counters:\n",
        "vars:\n  tally: {start: 0}\n  picks: {start: []}\n  mine: {scope: seat, start: 0}\n\ncard_state:\n  mark: 0\n\ncounters:\n"
        "  bank: {scope: game, start: 9}\n",
    )
    text = text.replace("\n\nflow:", "\n  coins: {scope: seat, start: 0, supply: bank, cap: 4}\n\nflow:")
    game.write_text(text)
    return Settings(str(folder), 2, 1), text


def _error(settings, in_place=True):
    g = Game.new(settings, narrate=False)
    with pytest.raises(PlayError) as info:
        play_game(g, {s: make_bot("random", 1, s) for s in range(2)}, in_place=in_place)
    return info.value.line(), info.value.code, g.state["decisions"]


FAILING = {
    "move-not-a-card": ("move x to box", "x to box", "expected cards"),
    "set-state-of-a-number": ("set (x + 5).mark = 1", "set (x + 5)", "needs a card"),
    "set-state-to-a-bad-value": ("set token_card().mark = x // (x - x)", "set token_card()", "by zero"),
    "let-fails": ("let y = x // (x - x)", "let y", "by zero"),
    "set-variable-fails": ("set tally = x // (x - x)", "set tally", "by zero"),
    "set-seat-variable-fails": ("set mine(s) = x // (x - x)", "set mine", "by zero"),
    "set-variable-of-no-seat": ("set mine(x + 5) = 1", "set mine", "not a seat"),
    "gain-negative": ("gain x - 3 points to s", "gain x - 3", "whole number >= 0"),
    "pay-too-much": ("pay x + 100 points by s", "pay x + 100", "cannot pay"),
    "if-condition-fails": ("if x // (x - x) > 0:\n    gain 1 points to s", "if x //", "by zero"),
    "if-body-fails": ("if x > 0:\n    gain x - 3 points to s\n    gain 1 points to s", "gain x - 3", ">= 0"),
    "elif-body-fails": (
        "if x > 5:\n    gain 1 points to s\nelif x > 0:\n    let z = 1\n    gain x - 3 points to s",
        "gain x - 3",
        ">= 0",
    ),
    "for-over-text": ("for k in 'abc':\n    gain 1 points to s", "for k", "expected a list"),
    "for-body-fails": ("for k in [x, x]:\n    gain k - 3 points to s", "gain k - 3", ">= 0"),
    "repeat-negative": ("repeat x - 3:\n    gain 1 points to s", "repeat x - 3", ">= 0"),
    "move-a-list-with-a-number": ("move [c for c in box] + [x + 5] to box", "move [c", "expected cards"),
    "reveal-a-number": ("reveal x + 5 to s", "reveal x + 5", "expected cards"),
    "reveal-to-a-number": ("reveal [c for c in box] to x + 5", "reveal [c", "not a seat"),
    "choose-among-numbers-as-cards": (
        'choose card c from [x + 5, x + 6] by s saying "Which":\n    gain 1 points to s',
        "choose card c",
        "expected cards",
    ),
    "choose-without-a-chooser": ('choose value v from [1, 2] saying "Which"', "choose value v", "who chooses"),
    "choose-by-a-number": ('choose value v from [1, 2] by x + 5 saying "Which"', "choose value v", "not a seat"),
    "choose-body-fails": (
        'choose value v from [x, x + 1] by s saying "Which":\n    gain v - 3 points to s',
        "gain v - 3",
        ">= 0",
    ),
    "draw-negative": ("draw x - 3 from box to box", "draw x - 3", "whole number >= 0"),
    "for-over-numbers-sets-state": ("for k in [x + 5]:\n    set k.mark = 1", "set k.mark", "needs a card"),
    "for-bound-again-fails": (
        "for c in box:\n    set c.mark = x\n    let c = x + 5\n    set c.mark = 1",
        "set c.mark = 1",
        "needs a card",
    ),
    "repeat-body-fails": ("repeat 2:\n    if x > 0:\n        gain x - 3 points to s", "gain x - 3", ">= 0"),
}


@pytest.mark.parametrize("case", sorted(FAILING))
def test_a_statement_written_in_place_fails_as_its_handler(case, tmp_path, monkeypatch):
    body, needle, message = FAILING[case]
    body = body.replace("token_card()", "[c for c in box][0]")
    needle = needle.replace("token_card()", "[c for c in box][0]")
    settings, text = _probe(tmp_path, body, case)
    line = text[: text.index(needle)].count("\n") + 1
    generated = [_error(settings, in_place) for in_place in (True, False)]
    _without_compiler(monkeypatch)
    by_handlers = _error(settings, True)
    assert generated == [by_handlers, by_handlers]
    said, code, _ = by_handlers
    assert f"game.yaml:{line}:" in said and message in said, said


def _sources(settings) -> str:
    """The generated functions' source of every block a direct game ran."""
    g = Game.new(settings, narrate=False)
    play_game(g, {s: make_bot("random", 1, s) for s in range(2)})
    return "\n".join(n.direct.source for n in g.program.nodes if n.kind == "block" and "direct" in n.__dict__)


def test_common_statements_are_written_in_place_not_called(tmp_path, monkeypatch):
    body = (
        "let y = x\nif y > 1:\n    gain y points to s\nelse:\n    pay 0 points by s\nfor k in box:\n    set k.mark = y"
    )
    body += "\nmove [c for c in box][0] to box\nrepeat 2:\n    gain 1 points to s\nmove box to box\nreveal box to s"
    body += '\nreveal [c for c in box]\nchoose value v from [1, 2] by s saying "More":\n    gain v points to s'
    body += "\nset tally = tally + x\nset picks = picks + [x]\nset mine(s) = mine(s) + x"
    settings, _ = _probe(tmp_path, body, "in-place")
    called = []
    kinds = ("set_local", "if", "gain", "pay", "for", "set_attr", "move", "repeat", "reveal", "choose", "set_var")
    kinds += ("set_seatvar",)
    for kind in kinds:

        def counted(rt, env, node, fr, kind=kind, real=KINDS[kind].run):
            if rt.direct:  # (the first phase runs before the bots are asked in place)
                called.append(kind)
            real(rt, env, node, fr)

        monkeypatch.setitem(KINDS, kind, KINDS[kind]._replace(run=counted))
    g = Game.new(settings, narrate=False)
    play_game(g, {s: make_bot("random", 1, s) for s in range(2)})
    assert called == []  # no handler ran: every statement was written in place
    src = _sources(settings)
    assert "rt.zones[k].append(x)" in src and "row[s] += a" in src and "row[s] -= a" in src
    assert "rt.cards[x]['mark'] = v" in src and "env['y'] = v" in src and "rt.st['vars']['tally'] = v" in src
    assert "rt.st['vars']['mine'][s] = v" in src
    # and they did what they say: each pick gained, plus 2, plus 1 or 2; the token marked with the
    # last pick, face up and seen by the last seat (a move forgets who saw a card)
    picks = 20 * 20 * 2
    assert 4 * picks <= sum(g.state["counters"]["points"]) <= 7 * picks
    token = g.state["cards"][0]
    assert token["mark"] in (1, 2, 3) and token["up"] is True and token["seen"] in ([0], [1])
    assert g.state["decisions"] == 2 * picks  # the probe's picks and the bodies' own choices
    stored = g.state["vars"]["picks"]  # a stored list: a copy, joined a pick at a time
    assert (
        len(stored) == picks
        and set(stored) == {1, 2, 3}
        and g.state["vars"]["tally"] == sum(stored) == sum(g.state["vars"]["mine"])
    )


def test_counters_with_a_supply_and_a_cap_and_draws_end_as_with_the_handlers(tmp_path, monkeypatch):
    # the bank runs dry and the cap of 4 stops gains: what does not fit stays in the bank
    body = "gain x coins to s\nif x == 3:\n    pay 2 coins by s\ndraw x from box to box\ngain x points to s"
    settings, _ = _probe(tmp_path, body, "supply")
    generated = _final(settings)
    state = json.loads(generated)
    assert state["counters"]["bank"] + sum(state["counters"]["coins"]) == 9
    assert max(state["counters"]["coins"]) <= 4 and sum(state["counters"]["points"]) >= 800
    _without_compiler(monkeypatch)
    assert _final(settings) == generated


def test_a_loop_or_choice_variable_read_in_place_ends_as_with_the_handlers(tmp_path, monkeypatch):
    # a loop's item and a choice are read from Python names in their bodies, unless bound again there
    body = "for c in box:\n    set c.mark = x\n    if c.mark > 1:\n        let c = x\n        gain c points to s"
    body += "\nfor e in box:\n    set e.mark = e.mark + x"
    body += '\nchoose card d from box by s saying "Which":\n    set d.mark = d.mark + 1\n    move d to box'
    settings, _ = _probe(tmp_path, body, "bound")
    src = _sources(settings)
    assert "rt.cards[_x" in src and "x = _v" in src  # read from the loop's and the choice's Python names
    assert "env['c'] = v" in src  # (the first loop binds its variable again: read from env)
    generated = _final(settings)
    _without_compiler(monkeypatch)
    assert _final(settings) == generated


def test_a_whole_zone_moved_at_once_ends_as_with_the_handlers(tmp_path, monkeypatch):
    # a zone's whole list moved to the top of another, or of itself, is emptied at once (x.clear()),
    # its cards renamed in order; a zone moved to the bottom goes card by card
    settings, _ = _probe(
        tmp_path, "move box to aside face up\nmove aside to aside\nmove aside to box\ngain x points to s", "zone"
    )
    folder = tmp_path / "zone"
    tokens = folder / "tokens.yaml"
    tokens.write_text(tokens.read_text().replace("copies: 1", "copies: 4"))
    game = folder / "game.yaml"
    text = game.read_text().replace("count: 1, zone: box", "count: 4, zone: box")
    game.write_text(text.replace("  box: {visibility: all}", "  box: {visibility: all}\n  aside: {visibility: all}"))
    src = _sources(settings)
    assert "x.clear()" in src
    generated = _final(settings)
    state = json.loads(generated)
    assert len(state["zones"]["box"]) == 4 and all(c["z"] == "box" and not c["up"] for c in state["cards"])
    _without_compiler(monkeypatch)
    assert _final(settings) == generated
    bottom = _probe(tmp_path, "move box to box bottom\ngain x points to s", "bottom")[0]
    assert "x.clear()" not in _sources(bottom)


def test_a_statement_left_to_its_handler_is_called_and_its_frames_run_first(tmp_path):
    # a 'while' pushes its frame: it runs to its end before the next statement, as run_now runs it
    body = "let n = 0\nwhile n < x:\n    set n = n + 1\ngain n points to s"
    settings, _ = _probe(tmp_path, body, "while")
    src = _sources(settings)
    assert "_h" in src and "drain(rt, depth)" in src
    g = Game.new(settings, narrate=False)
    play_game(g, {s: make_bot("random", 1, s) for s in range(2)})
    again = Game.new(settings, narrate=False)
    play_game(again, {s: make_bot("random", 1, s) for s in range(2)}, in_place=False)
    assert g.state["counters"] == again.state["counters"] and sum(g.state["counters"]["points"]) > 0


def test_blame_places_errors_as_the_runner_would():
    node = type("N", (), {"place": "here"})()
    err = PlayError("x")
    with pytest.raises(PlayError) as info:
        direct._blame(err, (node, None))
    assert info.value.place == "here"
    with pytest.raises(PlayError) as info:  # a drain's error at the top: unplaced, for the enclosing runner
        direct._blame(PlayError("y"), (None, None))
    assert info.value.place is None
    with pytest.raises(RecursionError):  # an inline loop lets it through to its parent's runner
        direct._blame(RecursionError(), (node, None))
    with pytest.raises(PlayError, match="nests too deeply"):
        direct._blame(RecursionError(), (node, node))


@pytest.mark.parametrize("handler", ["unplaced", "too-deep"])
def test_an_error_without_a_place_is_blamed_on_the_statement_whose_line_raised_it(handler, tmp_path, monkeypatch):
    """A generated block blames an error by the line of its code that it came through (a table from
    line to statement, no statement index kept as the block runs): a handler's error without a place
    gets the place of its statement, nested in a loop and a branch, as the handlers give it; Python's
    recursion limit is the enclosing runner's statement nesting too deeply."""
    body = "repeat 2:\n    gain 1 points to s\n    if x > 0:\n        let y = x\n        shuffle box\n    gain 1 points to s"
    settings, text = _probe(tmp_path, body, f"blame-{handler}")
    # a RecursionError goes through the branch's inline loop to the ``if``'s runner
    line = text[: text.index("shuffle box" if handler == "unplaced" else "if x > 0")].count("\n") + 1

    def fails(rt, env, node, fr):
        if handler == "unplaced":
            raise PlayError("no place given")
        raise RecursionError("too deep")

    monkeypatch.setitem(KINDS, "shuffle", KINDS["shuffle"]._replace(run=fails))
    generated = [_error(settings, in_place) for in_place in (True, False)]
    _without_compiler(monkeypatch)
    by_handlers = _error(settings, True)
    assert generated == [by_handlers, by_handlers]
    assert f"game.yaml:{line}:" in by_handlers[0], by_handlers


def test_a_turn_run_direct_goes_from_action_to_window_without_the_run_loop(monkeypatch):
    # an action answered in place runs its effect at once, and the next window (or the turn's end)
    # follows in the same step of the turn: far fewer steps than turns taking two or three actions
    steps = []
    real = machine.FRAME["turn"]

    def counted(rt, fr):
        steps.append(rt.direct)
        real(rt, fr)

    monkeypatch.setitem(machine.FRAME, "turn", counted)
    settings = Settings("citadels", 4, 2)
    direct = _final(settings, True)
    n_direct = steps.count(True)
    steps.clear()
    paused = _final(settings, False)
    turns = json.loads(paused)["decisions"]  # each decision of a random Citadels game: a window or a choice
    assert direct == paused and steps and n_direct < len(steps) / 2 < turns


@pytest.mark.parametrize("game,players,expansions", GAMES, ids=lambda v: str(v).rsplit("/", 1)[-1])
def test_a_generated_block_reads_only_names_its_namespace_defines(game, players, expansions):
    """A block's function holds its expressions' generated code, with the helpers that code calls
    (``_again``, ``_sieve``, ...): a name missing from the block's namespace would fail at every run
    and send the block to its statements' handlers, unseen (the values are the same, only slower)."""
    program = Game.new(Settings(game, players, 1, (), expansions, {}), narrate=False).program
    read: set = set()
    for node in program.nodes:
        if node.kind != "block":
            continue
        ns = direct.compile_block(node, program).__globals__
        names = {
            n
            for v in ns.values()
            if isinstance(v, types.FunctionType) and v.__globals__ is ns
            for n in globals_read(v.__code__)
        }
        assert {n for n in names if n not in ns and not hasattr(builtins, n)} == set(), node
        read |= names
    if game == "prague":
        assert "_sieve" in read  # (its building hexes: the city's building cells, found once)


@pytest.mark.parametrize("direct", [True, False])
def test_an_actions_frame_is_run_at_once_when_running_direct_else_left_for_the_run_loop(direct):
    """``machine.push_and_run``: running direct, the action's block runs to its end at once, its frame
    below what it runs and gone after; otherwise its frame is pushed, as the run loop would find it."""
    from scenario import compile_snippet
    from support import new_game

    g = new_game("citadels", 4, 1, narrate=False)
    rt, st = g.rt, g.state
    block = compile_snippet(g.program, "let n = count(hand)\ngain n gold")
    st["pending"] = None
    depth = len(st["stack"])
    before = st["counters"]["gold"][0]
    rt.direct = direct
    try:
        machine.push_and_run(rt, block, {"me": 0})
    finally:
        rt.direct = False
    if direct:
        assert len(st["stack"]) == depth and st["counters"]["gold"][0] == before + len(st["zones"]["hand/0"])
    else:
        assert st["stack"][-1] == {"kind": "block", "node": block.id, "next": 0, "scope": depth, "vars": {"me": 0}}
        assert st["counters"]["gold"][0] == before


def test_a_loop_over_seats_reads_its_item_as_a_seat_without_a_check(tmp_path, monkeypatch):
    """An item of ``seats`` is a seat for sure: a loop over them gains, sets and reads a seat's zone
    with no seat check (one over a list that may hold anything keeps it), ending as the handlers do."""
    body = "for t in seats:\n    gain 1 points to t\n    set mine(t) = mine(t) + x\n    move [c for c in box][0] to box"
    body += "\nfor u in [s, 0]:\n    gain 1 points to u"
    settings, _ = _probe(tmp_path, body, "seats")
    src = _sources(settings)
    loop = src[src.index("for _x") : src.index("for _x", src.index("for _x") + 1)]
    assert "s = _x" in loop and "0 <= s < rt.n" not in loop, loop  # the seats' loop: no check
    assert src.count("0 <= s < rt.n") >= 1  # the other loop's items are checked
    generated = _final(settings)
    _without_compiler(monkeypatch)
    assert _final(settings) == generated


def test_a_statement_written_in_place_that_raises_where_its_handler_runs_is_an_internal_error(monkeypatch):
    """Issue 31: code written in place for a block that raises (here every operand, by a wrong
    generator) is no longer rerun silently by the statement's handler: where the handler (or the
    expression's own function) gives a result, the game stops with a one-line internal error at the
    rule's place, naming the construct."""
    from mason.errors import PlayError
    from mason.play.session import make_bot, play_game
    from mason.runtime import direct
    from mason.session import game as game_module
    from mason.session.game import Game, Settings

    real = direct.Writer.operand

    def wrong(self, fn):
        code, spends = real(self, fn)
        return f"(({code}) if rt.n < 0 else [][1])", spends

    monkeypatch.setattr(direct.Writer, "operand", wrong)
    monkeypatch.setattr(game_module, "_PROGRAMS", {})
    monkeypatch.setenv("MASON_CACHE_DIR", "off")
    with pytest.raises(PlayError) as info:
        g = Game.new(Settings("citadels", 4, 3, fast=True), narrate=False)
        play_game(g, {s: make_bot("random", 3, s) for s in range(4)})
    exc = info.value
    assert exc.code == "play/internal" and "FastFormError" in exc.message
    assert "IndexError" in exc.message and ".yaml:" in str(exc.place) and "statement '" in exc.message
