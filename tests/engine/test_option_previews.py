"""Issue 30 items 3 and 7: options that preview what the rules compute, stable action keys, and one
option-numbering convention between the prompt and the Python API."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import invoke

from mason import Game, IllegalAction, Settings, make_bot
from mason.agents.base import parse_answer

GAMES = Path(__file__).resolve().parents[2] / "games"

NOBLE_VARIANT = """  - id: cheap_nobles
    name: Noble districts cost 1 less
    modifiers:
      - {value: build_cost, when: card.colour == noble, add: -1}
"""


def _citadels_with_cheap_nobles(tmp_path) -> Path:
    """A copy of games/citadels with a designer's variant: noble districts cost 1 gold less to build."""
    folder = tmp_path / "citadels"
    shutil.copytree(GAMES / "citadels", folder)
    game = folder / "game.yaml"
    text = game.read_text()
    assert "\nvariants:\n" in text
    game.write_text(text.replace("\nvariants:\n", "\nvariants:\n" + NOBLE_VARIANT, 1))
    return folder


def test_issue30_item3_a_modified_build_cost_is_shown_in_the_build_prompt_and_charged(tmp_path):
    """The build prompt shows each district's cost after the variant's modifier (computed by the same
    ``build_cost(d)`` the rules charge), through the command line as a player runs it."""
    folder = _citadels_with_cheap_nobles(tmp_path)
    args = ("play", folder, "-p", 2, "--seed", 2, "--variant", "cheap_nobles")
    first = invoke(*args, input="1\n" * 40).output
    asked = first[: first.index("[P1] Build which district?")].count("[P1] ")  # the decisions before it
    result = invoke(*args, input="1\n" * asked + "3\n" + "quit\n")  # then the third option: Castle
    assert result.exit_code == 0, result.output
    out = result.output
    prompt = out[out.index("[P1] Build which district?") :]
    prompt = prompt[: prompt.index("-- since")]
    assert "  3. Castle (noble, cost 4; pay 3 gold)" in prompt  # printed cost 4, the game charges 3
    assert "  1. Market (trade, cost 2; pay 2 gold)" in prompt  # other colours at their printed cost
    after = out[out.index("[P1] Build which district?") :]
    assert "P1 pays 3 gold (Build a district)" in after and "Castle: P1's hand -> P1's city" in after


def test_issue30_item3_without_the_variant_the_build_prompt_shows_the_printed_cost(tmp_path):
    game = Game.new(Settings("citadels", players=2, seed=2))
    while game.pending["prompt"] != "Build which district?":
        game.answer(0)
    labels = game.pending["labels"]
    assert any(label.startswith("Castle (pay 4 gold)") for label in labels), labels


def _action_window(game, *labels):
    """Play on (first options; ``End turn`` when offered) to an action window offering ``labels``."""
    while game.pending["kind"] != "action" or not set(labels) <= set(game.pending["labels"]):
        p = game.pending
        game.answer(p["labels"].index("End turn") if "End turn" in p["labels"] else [] if p["subset"] else 0)
    return game.pending


def test_issue30_item3_actions_keep_their_letter_within_a_turn():
    """An action's key is fixed by the rules (the game's actions in order, then End turn), never by
    what else is offered: Build is ``d`` before and after the other actions are gone."""
    game = Game.new(Settings("citadels", players=3, seed=5))
    p = _action_window(game, "Take 2 gold", "Take income")
    first = dict(zip(p["labels"], p["keys"]))
    assert first["Take 2 gold"] == "a" and first["Draw districts"] == "b" and first["Take income"] == "c"
    game.answer("a")  # the API takes the key the prompt shows
    p = game.pending
    assert "Take 2 gold" not in p["labels"] and "Draw districts" not in p["labels"]
    assert dict(zip(p["labels"], p["keys"]))["Build a district"] == "d"
    assert dict(zip(p["labels"], p["keys"]))["End turn"] == "e"
    game.answer(p["keys"].index("c"))
    p = game.pending
    assert dict(zip(p["labels"], p["keys"]))["Build a district"] == "d"  # fewer offered, same letters
    assert p["keys"] == sorted(p["keys"]) and "c" not in p["keys"]
    from mason.presentation.render import render_decision

    text = render_decision(p, game.program, game.state, game.view(p["seat"]))
    assert "  d. Build a district" in text and "  e. End turn" in text and "  1." not in text
    assert parse_answer("d", p) == p["keys"].index("d") and parse_answer("E", p) == p["keys"].index("e")
    with pytest.raises(ValueError, match=rf"there is no option 9: type an action's letter \({', '.join(p['keys'])}\)"):
        parse_answer("9", p)


def test_issue30_item3_every_action_has_one_letter_over_a_whole_game():
    game = Game.new(Settings("citadels", players=4, seed=11))
    bots = [make_bot("random", 11, s) for s in range(4)]
    seen: dict[str, str] = {}
    windows = 0
    while not game.over:
        p = game.pending
        if p["kind"] == "action":
            windows += 1
            for label, key in zip(p["labels"], p["keys"]):
                assert seen.setdefault(label, key) == key, (label, key, seen[label])
        game.answer(bots[p["seat"]].decide(game, p["seat"]))
    assert windows > 20 and len(set(seen.values())) == len(seen)


def test_issue30_item3_a_card_ability_keeps_its_letter_after_the_game_actions():
    """Abilities come after the game's actions and End turn, by their type's order: the same ability
    has the same letter whichever actions are offered beside it."""
    from mason.runtime.turns import action_keys

    game = Game.new(Settings("citadels", players=3, seed=5))
    prog = game.program
    tid = prog.ability_types[0]
    ability = prog.abilities[tid][0]
    card = prog.type_instances[tid][0]
    n = len(prog.actions)
    keys = action_keys(game.rt, [f"{ability.key}@{card}", "end"])
    assert keys == [chr(ord("a") + n + 1), chr(ord("a") + n)]
    assert action_keys(game.rt, ["build", f"{ability.key}@{card}"])[1] == keys[0]


def test_issue30_item7_the_api_refuses_an_index_out_of_range_naming_its_convention():
    game = Game.new(Settings("citadels", players=4, seed=7))
    n = len(game.pending["options"])
    with pytest.raises(
        IllegalAction,
        match=rf"no option has index {n}: Game.answer takes an option's index, counted from 0 \(the prompt's number less 1\): 0 to {n - 1}",
    ):
        game.answer(n)
    with pytest.raises(IllegalAction, match="counted from 0"):
        game.answer(-1)


def test_issue30_item7_the_prompt_refuses_a_number_out_of_range_naming_its_convention():
    pending = {"labels": ["Tavern", "Market", "Castle"], "options": [1, 2, 3], "subset": 0, "kind": "card"}
    assert parse_answer("3", pending) == 2  # the prompt's number 3 is Game.answer(2)
    with pytest.raises(
        ValueError,
        match=r"there is no option 4: options are numbered 1 to 3 \(the prompt counts from 1; Game.answer takes the index, from 0\)",
    ):
        parse_answer("4", pending)
    with pytest.raises(ValueError, match="there is no option 0"):
        parse_answer("#0", pending)
    subset = {**pending, "subset": 2}
    with pytest.raises(ValueError, match="there is no option 7: options are numbered 1 to 3"):
        parse_answer("1 7", subset)


# ------------------------------------------------------------------ ring_sow_end: where a sowing ends
def test_issue30_item3_ring_sow_end_is_where_the_last_sown_piece_lands():
    """The preview agrees with the sowing itself: full places passed free, the emptied place counted."""
    import paths
    from scenario import run
    from support import new_game

    from mason.dsl.builtins import BUILTINS

    places = ["a1", "a2", "b1", "b2", "c1", "c2"]

    def fresh(**pieces):
        g = new_game(str(paths.FIXTURES / "sowing"), 2)
        g.state["boards"]["yard"]["pieces"] = {p: list(pieces.get(p, [])) for p in places}
        return g

    def end(g, place):
        return BUILTINS["ring_sow_end"].impl(g.rt, "yard", place)

    g = fresh(a1=["red", "blue", "green"], a2=["red"] * 3, b2=["blue"] * 3)
    assert end(g, "a1") == "c2"  # a2 and b2 full: b1, c1, then c2
    run(g, 'do ring_pick_up(yard, "a1")\ndo ring_drop(yard, "red")\ndo ring_drop(yard, "blue")')
    assert BUILTINS["ring_next_open"].impl(g.rt, "yard") == "c2"  # the real sowing's last landing
    assert end(fresh(**{p: ["red"] * 3 for p in places}), "b1") == "b1"  # laps back to the emptied place
    assert end(fresh(a1=["red"] * 2), "a1") == "b1" and end(fresh(), "a1") is None


# ------------------------------------------------------------------ hex_links_if: a placement's preview
def test_issue30_item3_hex_links_if_previews_what_each_rotation_links_after_hex_place():
    """For every rotation of a bend next to a ford and an orchard (edge and corner links, a covered
    cell too), the preview equals what hex_edge_links / hex_corner_links give once the piece is placed."""
    import paths
    from scenario import card, run
    from support import new_game

    from mason.dsl.builtins import BUILTINS

    def q(g, name, *args):
        return BUILTINS[name].impl(g.rt, *args)

    def fresh():
        g = new_game(str(paths.FIXTURES / "hexville"), 2)
        for b in ("town", "yard_0", "yard_1"):
            for stack in g.state["boards"][b]["stacks"].values():
                stack.clear()
        for tid, cell, rot in (("ford", "0,0", 0), ("orchard", "1,0", 0), ("lane", "0,1", 2)):
            c = card(g, tid)
            run(g, f'let t = {c}\ndo hex_place("yard_0", "{cell}", t, {rot}, t.edges, t.corners)')
        return g

    linked = 0
    for cell in ("1,-1", "0,1"):  # an empty cell, and one whose lane is covered
        for rot in range(6):
            g = fresh()
            bend = card(g, "bend")
            t = g.state["cards"][bend]
            tdef = g.program.types[t["t"]]
            edges, corners = tdef.get("edges"), tdef.get("corners")
            preview = q(g, "hex_links_if", "yard_0", cell, edges, corners, rot, "red")
            stacks = {k: len(v) for k, v in g.state["boards"]["yard_0"]["stacks"].items()}
            assert {k: len(v) for k, v in g.state["boards"]["yard_0"]["stacks"].items()} == stacks  # nothing placed
            run(g, f'let t = {bend}\ndo hex_place("yard_0", "{cell}", t, {rot}, t.edges, t.corners)')
            after = [q(g, "hex_edge_links", "yard_0", cell), q(g, "hex_corner_links", "yard_0", cell, "red")]
            assert preview == after, (cell, rot)
            linked += bool(after[0] or after[1])
    assert linked >= 3  # the rotations differ: some link, some do not


def test_issue30_item3_previewed_numbers_are_typed_as_themselves():
    """A choice of numbers with ``showing`` (a rotation) keys each option by its number: ``3`` is the
    value 3, never the third option, and a number not offered is refused with the numbers offered."""
    pending = {
        "labels": ["0 (no link)", "2 (links book + book)", "3 (no link)"],
        "options": [0, 2, 3],
        "keys": ["0", "2", "3"],
        "subset": 0,
        "kind": "value",
    }
    assert parse_answer("3", pending) == 2 and parse_answer("0", pending) == 0
    with pytest.raises(ValueError, match="there is no option 1: the options are the numbers 0, 2, 3"):
        parse_answer("1", pending)
    from mason.presentation.render import render_decision

    text = render_decision({**pending, "prompt": "Turn the tile?"})
    assert text.splitlines()[1:] == ["  0. no link", "  2. links book + book", "  3. no link"]


def test_issue30_item3_a_mistake_inside_showing_is_reported_at_its_place(tmp_path):
    from mason import validate_game

    folder = tmp_path / "citadels"
    shutil.copytree(GAMES / "citadels", folder)
    game = folder / "game.yaml"
    text = game.read_text()
    good = 'showing "pay {build_cost(d)} gold"'
    assert good in text
    game.write_text(text.replace(good, good.replace("build_cost", "build_cots"), 1))
    line_no, line = next((i, l) for i, l in enumerate(game.read_text().splitlines(), 1) if "build_cots" in l)
    errors = [str(e) for e in validate_game(str(folder))]
    assert len(errors) == 1, errors
    assert f"game.yaml:{line_no}:{line.index('build_cots') + 1}: error[definition/unknown-name]" in errors[0]
    assert "did you mean 'build_cost'" in errors[0]
