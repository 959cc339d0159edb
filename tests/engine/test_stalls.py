"""Issue 10, item 7: stalls. The flow's idle guard (``flow.idle_rounds``; decisions that resolved by
themselves are progress, as automated ones already were: tests/engine/test_automata.py), a game's own
stall rule (``flow.stall``), the round cap naming its phase and place, and the Citadels stall rule
that ends a Dark City game whose bank is empty (docs/rule-files.md, "Stalls";
games/citadels/README.md, "Stalls").

The fixture ``tests/fixtures/stall`` (The Dry Well) is a made-up game: a well of 4 water that runs
dry long before anyone reaches the goal, so only its stall rule can end it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import paths
import pytest
from click.testing import CliRunner
from support import edited_copy, gold, new_game, set_gold

from mason.cli.main import main
from mason.errors import PlayError
from mason.model.validate import validate_game
from mason.session.game import Game, load_program

ROOT = paths.ROOT
FIXTURE = ROOT / "tests" / "fixtures" / "stall"
TEXT = (FIXTURE / "game.yaml").read_text(encoding="utf-8")
STALL_BLOCK = TEXT[TEXT.index("  stall:\n") : TEXT.index("  phases:\n")]
NO_STALL = [(STALL_BLOCK, "")]
NO_FLOW_KEYS = NO_STALL + [
    ("  idle_rounds: 2                # rounds in a row without any decision that make a stall\n", "")
]  # the flow as any game wrote it before issue 10


def line_col(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def place_of(folder: Path, needle: str) -> str:
    """``file:line:col`` of ``needle`` in a copy's game.yaml, as errors and log entries name it."""
    line, col = line_col((folder / "game.yaml").read_text(encoding="utf-8"), needle)
    return f"{folder / 'game.yaml'}:{line}:{col}"


def play_first(g: Game, limit: int = 1000) -> Game:
    """Answer "Draw water" (the first option) until the game ends."""
    for _ in range(limit):
        if g.over:
            return g
        g.answer(0)
    raise AssertionError("the game did not end")


def stall_entries(g: Game) -> list[dict]:
    return [e for e in g.log if e.get("stall")]


# ------------------------------------------------------------------ the idle guard
def test_item7_decisions_that_resolve_themselves_are_progress(tmp_path):
    """With one way at the well, every choice resolves by itself: no decision is ever asked, yet water
    is drawn every round, so no round is idle and the game reaches its goal (round 5, past the 3 idle
    rounds of the default guard)."""
    game = edited_copy(tmp_path, FIXTURE, NO_FLOW_KEYS + [("start: 4, label", "start: 20, label")])
    g = new_game(game, 2, 1, options=(("goal", 5), ("ways", 1)))
    assert g.over and g.state["decisions"] == 0
    assert g.result["rounds"] == 5 and g.result["scores"] == [5, 5]
    assert g.state["forced"] == 10  # two seats, five rounds


def test_item7_an_action_window_with_one_action_is_progress(tmp_path):
    """The same through a turn: the only legal action is taken without asking and counts as progress."""
    game = edited_copy(
        tmp_path,
        FIXTURE,
        NO_FLOW_KEYS
        + [
            ("start: 4, label", "start: 20, label"),
            (
                """            choose one by s saying "At the well":
                option "Draw water":
                    gain 1 water to s
                option "Rest" if ways > 1:
                    pass
""",
                """            turn s
turn:
  required: [water]
  actions:
    - {id: draw_water, label: Draw water, group: water, do: gain 1 water}
""",
            ),
        ],
    )
    g = new_game(game, 2, 1, options=(("goal", 4),))
    assert g.over and g.state["decisions"] == 0 and g.result["rounds"] == 4


@pytest.mark.parametrize("idle_rounds", [None, 1, 2, 5])
def test_item7_idle_rounds_is_configurable_and_the_stall_names_its_phase_and_place(tmp_path, idle_rounds):
    """Rounds where nobody decides anything: ``idle_rounds`` of them (default 3) stop the game with
    play/stall at the place of the last phase, naming the round and the phase."""
    guard = "" if idle_rounds is None else f"  idle_rounds: {idle_rounds}\n"
    game = edited_copy(
        tmp_path,
        FIXTURE,
        NO_STALL
        + [
            ("  idle_rounds: 2                # rounds in a row without any decision that make a stall\n", guard),
            ("for s in seats:\n            choose one", "for s in []:\n            choose one"),
        ],
    )
    expected = 3 if idle_rounds is None else idle_rounds
    with pytest.raises(PlayError) as info:
        new_game(game, 2, 1)
    exc = info.value
    assert exc.code == "play/stall"
    assert str(exc.place) == place_of(game, "id: draw")
    assert exc.message.startswith(
        f"the game stalled in round {expected}: {expected} rounds in a row without a decision (last phase 'draw')"
    )


# ------------------------------------------------------------------ a game's stall rule
def test_item7_a_declared_stall_ends_the_game_and_scores_it():
    """The well is dry after round 2 (two seats drawing 1 each round from 4); three stuck rounds later
    (3, 4, 5) the stall rule runs `end game`: the game is scored and the log says why, at `stall:`."""
    g = play_first(new_game(FIXTURE, 2, 1))
    assert g.result["rounds"] == 5 and g.result["scores"] == [2, 2] and g.result["winners"] == [0, 1]
    entries = stall_entries(g)
    assert [e["text"] for e in entries] == ["The game has stalled: 3 rounds in a row without progress."]
    assert entries[0]["round"] == 5 and entries[0]["at"].endswith(":%d:%d" % line_col(TEXT, "stall:"))
    assert g.log[-1]["type"] == "end"


def test_item7_players_deciding_does_not_hide_a_stall():
    """Random bots keep deciding (draw or rest) every round; the stall is still seen and scored."""
    for seed in range(1, 6):
        g = new_game(FIXTURE, 3, seed)
        rng = random.Random(seed)
        while not g.over:
            g.answer(rng.randrange(len(g.pending["options"])))
        assert g.result["rounds"] <= 4 + 3 and len(stall_entries(g)) == 1
        assert sum(g.result["scores"]) == 4


def test_item7_stall_when_restricts_the_stuck_rounds(tmp_path):
    """`when` false at a round's end: that round is not stuck, whatever `progress` says."""
    game = edited_copy(tmp_path, FIXTURE, [("    progress: well ", "    when: round >= 7\n    progress: well ")])
    g = play_first(new_game(game, 2, 1))
    assert g.result["rounds"] == 9 and len(stall_entries(g)) == 1  # stuck: rounds 7, 8, 9


def test_item7_a_stall_effect_that_does_not_end_the_game_lets_it_go_on_until_the_round_cap(tmp_path):
    """A stall effect that only speaks: play goes on, the count restarts (a stall every 3 rounds), and
    the round cap then stops the game with play/loop at the first phase, naming where the cap is set."""
    game = edited_copy(
        tmp_path,
        FIXTURE,
        [
            (
                """    do: |
      say "The well is dry: the game ends."
      end game
""",
                """    do: say "Still dry."
""",
            )
        ],
    )
    g = new_game(game, 2, 1)
    with pytest.raises(PlayError) as info:
        play_first(g)
    assert [e["round"] for e in stall_entries(g)] == [5, 8, 11, 14, 17, 20, 23, 26, 29]
    exc = info.value
    assert exc.code == "play/loop" and str(exc.place) == place_of(game, "id: draw")
    assert exc.message.startswith(
        f"the game did not end within 30 rounds (phase 'draw'); the cap is flow.max_rounds ({place_of(game, '30')})"
    )


def test_item7_a_stall_without_an_effect_is_an_error_at_the_last_phase(tmp_path):
    game = edited_copy(
        tmp_path,
        FIXTURE,
        [
            (
                """    do: |
      say "The well is dry: the game ends."
      end game
""",
                "",
            )
        ],
    )
    g = new_game(game, 2, 1)
    with pytest.raises(PlayError) as info:
        play_first(g)
    assert info.value.code == "play/stall" and str(info.value.place) == place_of(game, "id: draw")
    assert "the game stalled in round 5: 3 rounds in a row without progress (last phase 'draw')" in info.value.message


def test_item7_a_stalled_game_keeps_its_log_ending_with_the_error_place_and_phase(tmp_path):
    """`mason play` on a game that stalls without a stall effect: one positioned line, exit 1, and the
    log written, ending with the error entry at the phase's place, its message naming the phase."""
    game = edited_copy(
        tmp_path,
        FIXTURE,
        [
            (
                """    do: |
      say "The well is dry: the game ends."
      end game
""",
                "",
            )
        ],
    )
    log = tmp_path / "stalled.jsonl"
    result = CliRunner().invoke(
        main, ["play", str(game), "-p", "2", "--bots", "random", "--seed", "3", "--log", str(log)]
    )
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{place_of(game, 'id: draw')}: error[play/stall]: the game stalled" in result.output
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["type"] == "error" and last["code"] == "play/stall"
    assert last["at"] == place_of(game, "id: draw") and "(last phase 'draw')" in last["message"]


@pytest.mark.parametrize(
    "old, new, needle",
    [
        ("    progress: well ", "    progress: water ", "water              #"),
        ("    progress: well ", "    when: water > 0\n    progress: well ", "water > 0"),
        ("until: any(water(s) >= goal for s in seats)", "until: water >= goal", "water >= goal"),
    ],
)
def test_item7_a_flow_expression_that_fails_in_play_names_its_place(tmp_path, old, new, needle):
    """`water` without a seat has no meaning in the flow: the error names the expression's place."""
    game = edited_copy(tmp_path, FIXTURE, [(old, new)])
    with pytest.raises(PlayError) as info:
        play_first(new_game(game, 2, 1))
    assert info.value.code == "play/no-seat" and str(info.value.place) == place_of(game, needle)


# ------------------------------------------------------------------ validation of the flow keys
@pytest.mark.parametrize(
    "old, new, needle, message",
    [
        (
            "    progress: well              # a round that leaves the well as it found it is idle\n",
            "",
            "3                    # three",
            "stall.after counts rounds that are stuck",
        ),
        ("idle_rounds: 2 ", "idle_rounds: 0 ", "0 ", "flow.idle_rounds: must be at least 1"),
        ("idle_rounds: 2 ", "idle_rounds: two ", "two", "flow.idle_rounds: expected a whole number"),
        ("after: 3 ", "afterwards: 3 ", "afterwards", "afterwards"),
        ("      end game\n", "      end gam\n", "gam\n", ""),
        ("progress: well ", "progress: wel ", "wel ", "unknown name 'wel'"),
    ],
)
def test_item7_the_stall_keys_are_checked_at_validation(tmp_path, old, new, needle, message):
    game = edited_copy(tmp_path, FIXTURE, [(old, new)])
    prog, errors = validate_game(str(game))
    assert prog is None and errors
    text = (game / "game.yaml").read_text(encoding="utf-8")
    line, col = line_col(text, needle)
    hits = [e for e in errors if e.place and (e.place.line, e.place.col) == (line, col) and message in e.message]
    assert hits, [e.line() for e in errors]


def test_item7_the_fixture_and_citadels_validate():
    assert load_program(str(FIXTURE)).stall_after == 3 and load_program(str(FIXTURE)).idle_rounds == 2
    prog = load_program("citadels")
    assert prog.stall_after == 10 and prog.idle_rounds == 3 and prog.stall_when is not None


# ------------------------------------------------------------------ Citadels: the Dark City stall
def _all_gold_on_districts(g: Game) -> None:
    """The stall of issue 10: the bank empty and every coin lying on districts (the Artist's gold)."""
    counters = g.state["counters"]
    for s in range(g.state["n"]):
        set_gold(g, s, 0)
    counters["card_gold"] += counters["bank"]
    counters["bank"] = 0


def test_item7_dark_city_eight_players_with_all_gold_on_districts_end_and_score():
    g = new_game("citadels", 8, 5, expansions=("dark-city",))
    _all_gold_on_districts(g)
    rng = random.Random(5)
    while not g.over:
        p = g.pending
        g.answer(
            sorted(rng.sample(range(len(p["options"])), rng.randint(0, p["subset"])))
            if p["subset"]
            else rng.randrange(len(p["options"]))
        )
    assert g.result["rounds"] == 10 and len(g.result["scores"]) == 8
    assert [e["text"] for e in stall_entries(g)] == ["The game has stalled: 10 rounds in a row without progress."]
    assert g.state["counters"]["card_gold"] == 30 and all(gold(g, s) == 0 for s in range(8))


def test_item7_players_who_hold_gold_and_do_not_build_never_stall():
    """An empty bank and no city changing is not enough: the players hold the gold (28 coins) and
    only choose not to build. Fifteen passive rounds later the game goes on."""
    g = new_game("citadels", 5, 3, expansions=("dark-city",))
    for s in range(5):
        set_gold(g, s, gold(g, s) + g.state["counters"]["bank"] // (5 - s))
    assert g.state["counters"]["bank"] == 0
    cities = [list(g.state["zones"][f"city/{s}"]) for s in range(5)]
    while g.state["round"] <= 15:
        labels = g.pending["labels"]
        passive = (
            [i for i, label in enumerate(labels) if label == "End turn"]
            or [i for i, label in enumerate(labels) if not label.startswith(("Build", "Beautify"))]
            or [0]
        )
        g.answer([] if g.pending["subset"] else passive[0])
    assert not g.over and not stall_entries(g)
    assert [list(g.state["zones"][f"city/{s}"]) for s in range(5)] == cities


def test_item7_the_base_game_never_stalls_on_an_empty_bank():
    """Without Dark City the bank and the players hold all 30 coins: the stall condition never holds."""
    g = new_game("citadels", 4, seed=2)
    for s in range(4):
        set_gold(g, s, gold(g, s) + g.state["counters"]["bank"] // (4 - s))
    assert g.state["counters"]["bank"] == 0
    rng = random.Random(2)
    while not g.over:
        p = g.pending
        g.answer(
            sorted(rng.sample(range(len(p["options"])), rng.randint(0, p["subset"])))
            if p["subset"]
            else rng.randrange(len(p["options"]))
        )
    assert not stall_entries(g) and any(g.state["vars"]["completed"])


class _FirstRandomBot:
    """The random bot as it was when issue 10 was filed (its own ``random.Random`` per seat), so the
    seeds reported there replay the same games whatever the bots of today draw."""

    def __init__(self, seed, seat):
        self.rng = random.Random(f"random-agent/{seed}/{seat}")

    def decide(self, p):
        n = len(p["options"])
        if p["subset"]:
            return sorted(self.rng.sample(range(n), self.rng.randint(0, p["subset"])))
        return self.rng.randrange(n)


@pytest.mark.parametrize("seed, rounds", [(658, 45), (1414, 47)])
def test_item7_the_dark_city_stalls_of_issue_10_end_and_score(seed, rounds):
    """Seeds 658 and 1414 of `mason simulate citadels --with dark-city -p 8`: the bank empty and nearly all
    gold on districts, they used to stop at the 100-round cap with play/loop; now the stall rule ends them."""
    g = new_game("citadels", 8, seed, expansions=("dark-city",), narrate=False)
    bots = [_FirstRandomBot(seed, s) for s in range(8)]
    while not g.over:
        p = g.state["pending"]
        g.answer(bots[p["seat"]].decide(p))
    assert g.result["rounds"] == rounds and g.state["counters"]["bank"] == 0
    assert len(g.result["winners"]) >= 1 and len(g.result["scores"]) == 8


def test_item7_mason_rules_states_the_stall_rule():
    from mason.presentation.rules_text import rules_text
    from mason.session.game import load_program

    text = " ".join(rules_text(load_program("citadels")).split())
    assert "A stalled game: " in text and "the game ends at once and is scored" in text
