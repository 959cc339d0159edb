"""Agents: the random bot is reproducible per seed; the scripted agent reads numbers, labels and
subsets and reports running out as a MasonError; the human agent refuses bad answers with a reason."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from support import new_game

from mason.agents.base import parse_answer
from mason.agents.human import HumanAgent, QuitRequested
from mason.agents.random_agent import RandomAgent
from mason.agents.scripted import ScriptedAgent, ScriptExhausted
from mason.errors import MasonError
from mason.play.session import make_bot, play_game
from mason.session.game import Game


def _pending(labels, subset=0, kind="option"):
    return {
        "seat": 0,
        "kind": kind,
        "prompt": "Pick",
        "options": list(range(len(labels))),
        "labels": list(labels),
        "subset": subset,
        "at": "x.yaml:1:1",
    }


def _stub(pending):
    """Agents read only the pending decision (``game.pending``; bots its unlabelled form) and the bots' streams."""
    return SimpleNamespace(pending=pending, pending_unlabelled=pending, bot_streams={})


def _bot_game(seed, bot_seed=None, players=3):
    game = new_game("citadels", players, seed)
    agents = {s: RandomAgent(f"{seed if bot_seed is None else bot_seed}/{s}") for s in range(players)}
    play_game(game, agents)
    return game


# ------------------------------------------------------------------ random
def test_random_agent_same_seed_same_answers():
    assert RandomAgent("7/1").start == RandomAgent("7/1").start  # where its stream starts
    g1, g2 = _bot_game(11), _bot_game(11)
    assert g1.answers() == g2.answers()
    assert g1.log == g2.log
    assert g1.result == g2.result


def test_random_agent_seed_changes_answers_not_the_game_stream():
    g1, g2 = _bot_game(11), _bot_game(11, bot_seed=12)
    assert g1.answers() != g2.answers()
    # the bots draw from their own generators: setup (before any answer) is the same
    first = next(i for i, e in enumerate(g1.log) if e.get("type") == "decision")
    assert g1.log[:first] == g2.log[:first]


def test_make_bot_is_seeded_per_seat_and_rejects_unknown_kinds():
    assert make_bot("random", 5, 0).start == make_bot("random", 5, 0).start
    assert make_bot("random", 5, 0).start != make_bot("random", 5, 1).start
    with pytest.raises(MasonError) as err:
        make_bot("genius", 5, 0)
    assert err.value.code == "play/bot"


def test_random_agent_subset_answers_are_legal():
    agent = RandomAgent(3)
    game = _stub(_pending(["a", "b", "c", "d"], subset=2))
    for _ in range(50):
        answer = agent.decide(game, 0)
        assert answer == sorted(set(answer)) and len(answer) <= 2 and all(0 <= i < 4 for i in answer)


def test_random_agent_answers_an_ordered_subset_in_a_random_order():
    # an ordered subset (choose ordered up to N): the order counts, so the bot does not always
    # list ascending (issue 28, question 8); the same draws, so only the order differs
    pending = _pending(["a", "b", "c", "d", "e"], subset=5)
    ordered = dict(pending, ordered=True)
    a, b = RandomAgent(3), RandomAgent(3)
    plain_game, ordered_game = _stub(pending), _stub(ordered)
    seen_unsorted = False
    for _ in range(50):
        plain, shuffled = a.decide(plain_game, 0), b.decide(ordered_game, 0)
        assert plain == sorted(shuffled) and len(set(shuffled)) == len(shuffled)
        seen_unsorted |= shuffled != sorted(shuffled)
    assert seen_unsorted


# ------------------------------------------------------------------ parsing typed answers
def test_parse_answer_numbers_labels_and_prefixes():
    p = _pending(["Take 2 gold", "Draw districts", "Take income"])
    assert parse_answer("2", p) == 1
    assert parse_answer(" draw districts ", p) == 1
    assert parse_answer("Take income", p) == 2
    assert parse_answer("take 2", p) == 0
    with pytest.raises(
        ValueError, match=r"there is no option 99: options are numbered 1 to 3 \(the prompt counts from 1"
    ):
        parse_answer("99", p)  # the prompt's convention named (check_answer names the API's)
    with pytest.raises(ValueError, match="matches several"):
        parse_answer("take", p)
    with pytest.raises(ValueError, match="no option"):
        parse_answer("fly", p)
    with pytest.raises(ValueError, match="number from 1 to 3"):
        parse_answer("", p)


def test_parse_answer_identical_labels_pick_the_first_free_copy():
    p = _pending(["Tavern", "Tavern", "Market"])
    assert parse_answer("tav", p) == 0
    s = _pending(["Tavern", "Tavern", "Market Hall"], subset=3)
    assert parse_answer("Tavern, Tavern", s) == [0, 1]
    assert parse_answer("market hall, tavern", s) == [2, 0]
    with pytest.raises(ValueError, match="already chosen"):
        parse_answer("Market Hall, Market Hall", s)


def test_parse_answer_subsets():
    p = _pending(["a1", "b2", "c3"], subset=2)
    assert parse_answer("1 3", p) == [0, 2]
    assert parse_answer("1,3", p) == [0, 2]
    assert parse_answer("", p) == []
    assert parse_answer("none", p) == []


# ------------------------------------------------------------------ scripted
def test_scripted_agent_reads_numbers_labels_and_subsets():
    agent = ScriptedAgent(["2", "Take income", "take 2", 0, "1 3", "a1, c3", [1]])
    one = _stub(_pending(["Take 2 gold", "Draw districts", "Take income"]))
    assert agent.decide(one, 0) == 1
    assert agent.decide(one, 0) == 2
    assert agent.decide(one, 0) == 0
    assert agent.decide(one, 0) == 0
    many = _stub(_pending(["a1", "b2", "c3"], subset=3))
    assert agent.decide(many, 0) == [0, 2]
    assert agent.decide(many, 0) == [0, 2]
    assert agent.decide(many, 0) == [1]
    assert agent.exhausted


def test_scripted_agent_exhaustion_is_a_mason_error():
    agent = ScriptedAgent(["1"])
    game = _stub(_pending(["x", "y"]))
    agent.decide(game, 0)
    with pytest.raises(ScriptExhausted) as err:
        agent.decide(game, 0)
    assert isinstance(err.value, MasonError)
    assert err.value.code == "play/script-exhausted"
    assert "decision 2" in err.value.line() and "Pick" in err.value.line()


def test_scripted_agent_bad_answer_names_its_position():
    for bad, subset in (("nope", 0), ("7", 0), (5, 0), (True, 0), ([0, 0], 2), ("1 9", 2)):
        agent = ScriptedAgent(["1", bad])
        game = _stub(_pending(["x", "y"], subset=subset))
        agent.decide(game, 0)
        with pytest.raises(MasonError) as err:
            agent.decide(game, 0)
        assert err.value.code == "play/script", bad
        assert "script answer 2" in err.value.message


def test_scripted_agent_from_file_skips_comments(tmp_path):
    f = tmp_path / "answers.txt"
    f.write_text("# a comment\n\n2\n  # indented comment\nx\n", encoding="utf-8")
    agent = ScriptedAgent.from_file(f)
    assert agent.answers == ["2", "x"]
    with pytest.raises(MasonError) as err:
        ScriptedAgent.from_file(tmp_path / "missing.txt")
    assert err.value.code == "play/script"


def test_scripted_agent_plays_a_whole_game():
    reference = _bot_game(4)
    numbers = [str(a + 1) if isinstance(a, int) else " ".join(str(i + 1) for i in a) for a in reference.answers()]
    game = new_game("citadels", 3, 4)
    agent = ScriptedAgent(numbers)
    play_game(game, {s: agent for s in range(3)})
    assert game.log == reference.log


# ------------------------------------------------------------------ human (in process)
def _human(lines, tmp_path):
    out = []
    feed = iter(lines)
    agent = HumanAgent(lambda: next(feed, None), out.append, str(tmp_path / "save.json"))
    return agent, out


def test_human_refuses_with_a_reason_and_answers_by_name(tmp_path):
    game = new_game("citadels", 3, 5)
    agent, out = _human(["99", "zzz", "help", "view", "log", "1"], tmp_path)
    seat = game.pending["seat"]
    assert agent.decide(game, seat) == 0
    text = "\n".join(out)
    assert "not accepted: there is no option 99: options are numbered 1 to" in text
    assert "not accepted: no option 'zzz'" in text
    assert "Commands:" in text
    assert text.count(f"[P{seat + 1}] {game.pending['prompt']}") == 6  # asked again after each line
    label = game.pending["labels"][1]
    agent2, _ = _human([label.lower()], tmp_path)
    assert agent2.decide(game, seat) == 1


def test_human_view_shows_own_hand_and_others_hidden(tmp_path):
    game = new_game("citadels", 3, 5)
    seat = game.pending["seat"]
    agent, out = _human(["1"], tmp_path)
    agent.decide(game, seat)
    text = "\n".join(out)
    mine = [c["name"] for c in game.view(seat)["zones"][f"hand/{seat}"]["cards"]]
    assert mine and all(name in text for name in mine)
    assert f"P{seat + 1} (you" in text
    other = (seat + 1) % 3
    assert f"P{other + 1}: " in text and "hand 4 hidden" in text
    # another seat's hand is never named
    theirs = {game.program.types[game.state["cards"][c]["t"]]["name"] for c in game.state["zones"][f"hand/{other}"]}
    table = text[text.index("Round ") :]
    assert not any(name in table for name in theirs - set(mine))


def test_human_quit_and_end_of_input_save_first(tmp_path):
    game = new_game("citadels", 3, 5)
    seat = game.pending["seat"]
    agent, out = _human(["save " + str(tmp_path / "other.json"), "quit"], tmp_path)
    with pytest.raises(QuitRequested):
        agent.decide(game, seat)
    assert (tmp_path / "other.json").exists() and (tmp_path / "save.json").exists()
    assert Game.load(tmp_path / "save.json").state == game.state
    agent, out = _human([], tmp_path)
    with pytest.raises(QuitRequested) as err:
        agent.decide(game, seat)
    assert err.value.reason == "end of input"


def test_human_card_command_describes_a_component(tmp_path):
    game = new_game("citadels", 3, 5)
    tid = next(t for t in game.program.type_order if game.program.types[t]["text"])
    name = game.program.types[tid]["name"]
    agent, out = _human([f"card {name.lower()}", "card qqqq", "1"], tmp_path)
    agent.decide(game, game.pending["seat"])
    text = "\n".join(out)
    assert game.program.types[tid]["text"] in text
    assert "no card named 'qqqq'" in text


def test_option_places_are_shown_only_where_the_seat_can_see():
    from mason.presentation.render import render_decision

    game = new_game("citadels", 4, 3)
    seat = 0
    view = game.view(seat)
    visible = {c["id"] for z in view["zones"].values() for c in z["cards"]}
    cards = list(range(len(game.state["cards"])))
    pending = {
        "seat": seat,
        "kind": "card",
        "prompt": "Which?",
        "options": cards,
        "labels": [game.program.types[game.state["cards"][c]["t"]]["name"] for c in cards],
        "subset": 0,
    }
    lines = render_decision(pending, game.program, game.state, view).splitlines()[1:]
    assert len(lines) == len(cards)
    for c, line in zip(cards, lines):
        assert (" in " in line) == (c in visible), line
    own = game.state["zones"]["hand/0"][0]
    assert lines[own].endswith(" in your hand")


def test_numeric_options_are_answered_by_their_value():
    from mason.agents.base import parse_answer

    pending = {"labels": ["0", "1", "2", "3"], "subset": 0}
    assert parse_answer("3", pending) == 3  # the value 3, the fourth option
    assert parse_answer("0", pending) == 0
    assert parse_answer("#2", pending) == 1  # by position
    import pytest

    with pytest.raises(ValueError, match="not one of the values"):
        parse_answer("7", pending)


def test_numeric_options_are_shown_as_values():
    from mason.presentation.render import render_decision

    text = render_decision({"prompt": "Your bid", "labels": ["0", "1", "2"], "subset": 0})
    assert "type a value from 0 to 2" in text
