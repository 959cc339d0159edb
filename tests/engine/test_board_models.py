"""Board models (docs/boards.md) and the table that fits a terminal (issue 30 items 1 and 2)."""

from __future__ import annotations

import json

import pytest

from mason.presentation.board_text import visible
from mason.presentation.table import table_model
from mason.presentation.table_text import render_area, render_table
from mason.session.game import Game, Settings, load_program

SETUPS = [
    ("citadels", ()),
    ("citadels", ("games/citadels/expansions/dark-city",)),
    ("golden-temple", ()),
    ("island-fortress", ()),
    ("pillars", ()),
    ("prague", ()),
]


def _cases():
    for game, exp in SETUPS:
        prog = load_program(game, (), exp)
        for n in range(prog.min_players, prog.max_players + 1):
            yield pytest.param(game, exp, n, id=f"{game}{'+' + exp[0].rsplit('/', 1)[1] if exp else ''}-{n}p")


def _game(game, exp, n, seed=3):
    return Game.new(Settings(game, n, seed, (), exp, {}))


@pytest.mark.parametrize("game,exp,n", list(_cases()))
def test_issue30_every_table_fits_50_lines_of_100_columns_and_its_model_is_json(game, exp, n):
    g = _game(game, exp, n)
    seat = g.pending["seat"]
    model = table_model(g.program, g.view(seat))
    assert json.loads(json.dumps(model)) == model
    for colour in (False, True):
        lines = render_table(g.program, g.view(seat), g.pending, colour=colour).splitlines()
        assert len(lines) <= 50, "\n".join(lines)
        assert max(len(visible(x)) for x in lines) <= 100


@pytest.mark.parametrize("game,exp", SETUPS, ids=[g + ("+dark-city" if e else "") for g, e in SETUPS])
def test_issue30_a_board_model_is_the_same_for_states_that_differ_only_in_what_the_seat_cannot_see(game, exp):
    from mason.play.session import make_bot

    n = load_program(game, (), exp).max_players
    g = _game(game, exp, n)
    bots = {s: make_bot("random", 3, s) for s in range(n)}
    for _ in range(40):  # into the game, where more is hidden than at the start
        g.answer(bots[g.pending["seat"]].decide(g, g.pending["seat"]))
    seat = g.pending["seat"]
    before = table_model(g.program, g.view(seat))
    # another order of every zone the seat sees nothing of (decks, other seats' hands): a state that
    # differs only in what the seat cannot see
    view = g.view(seat)
    changed = False
    for key, ids in g.state["zones"].items():
        if len(set(g.state["cards"][c]["t"] for c in ids)) > 1 and not view["zones"][key]["cards"]:
            ids.reverse()
            changed = True
    assert changed
    assert table_model(g.program, g.view(seat)) == before
    assert render_table(g.program, g.view(seat), g.pending) == render_table(g.program, view, g.pending)


def test_issue30_prague_city_is_drawn_as_offset_hexes_with_a_legend_of_its_codes():
    g = _game("prague", (), 4)
    text = render_table(g.program, g.view(g.pending["seat"]), g.pending)
    lines = text.splitlines()
    city = next(i for i, l in enumerate(lines) if l.startswith("city:"))
    rows = [l for l in lines[city + 1 : city + 14]]
    assert rows[0].split()[0] == "-4" and rows[-1].split()[0] == "8"
    # offset hexes: consecutive rows start half a cell apart
    assert "bo = build old" in text and "kr = kings road" in text and "p = plaza" in text


def test_issue30_view_area_shows_a_board_in_full_and_a_zone_card_by_card():
    g = _game("prague", (), 4)
    view = g.view(g.pending["seat"])
    crane = render_area(g.program, view, "crane")
    assert crane.startswith("crane: a wheel, rotation") and len(crane.splitlines()) == 14
    assert "Upgrade I-" in render_area(g.program, view, "upgrade row")
    assert render_area(g.program, view, "no such area") is None


def test_issue30_a_display_hint_that_is_not_known_is_refused_at_its_place(tmp_path):
    import shutil

    from mason.errors import DefinitionErrors

    shutil.copytree("games/prague", tmp_path / "prague")
    p = tmp_path / "prague" / "game.yaml"
    text = p.read_text()
    hint = "seat: 1, cell_code: action}"
    assert hint in text
    p.write_text(text.replace(hint, "seat: 0, cell_code: action, table: sideways}"))
    with pytest.raises(DefinitionErrors) as err:
        load_program(str(tmp_path / "prague"), (), ())
    lines = str(err.value).splitlines()
    row = next(i for i, l in enumerate(text.splitlines(), 1) if hint in l)
    assert any(
        f"game.yaml:{row}:" in l and "display.table: 'sideways' is not one of full, line, off" in l for l in lines
    )
    assert any(f"game.yaml:{row}:" in l and "display.seat: must be at least 1, got 0" in l for l in lines)


def _first_table(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Round "))
    end = next(i for i, l in enumerate(lines) if l.startswith("[P"))
    return lines[start:end]


@pytest.mark.parametrize("args", [("golden-temple", "-p", 1, "--seed", 7), ("prague", "-p", 4, "--seed", 3)])
def test_issue30_mason_play_prints_a_first_table_and_question_that_fit_50_lines_of_100_columns(args):
    from support import invoke

    out = invoke("play", *args, input="quit\n").output
    table = _first_table(out)
    lines = out.splitlines()
    asked = lines[lines.index(table[-1]) + 1 :]
    asked = asked[: next(i for i, l in enumerate(asked) if l.startswith("quit:"))]
    assert len(table) + len(asked) <= 50, "\n".join(table + asked)
    assert max(len(x) for x in table) <= 100
    assert "\x1b[" not in out  # not a terminal: no colour
    assert any(l.startswith("key: ") for l in table)


def test_issue30_every_code_of_the_prague_maps_is_in_the_key():
    from mason.presentation.board_text import Legend, compact

    g = _game("prague", (), 4)
    model = table_model(g.program, g.view(0))
    maps = [b for b in model["boards"] if b["kind"] == "hexgrid"]
    assert len(maps) == 5
    shared: dict = {}
    for m in maps:
        legend = Legend(shared)
        lines = compact(m, model["names"], legend)
        rows = [l for l in lines[1:] if not l.startswith(("printed", " "))] or lines[1:]
        rows = [l for l in lines[1:] if l[:2].strip().lstrip("-").isdigit()]
        assert len(rows) == (13 if m["name"] == "city" else 5)
        for row in rows:
            for token in row.split()[1:]:
                assert token in legend, (m["label"], token)
    # one code, one meaning across the table: the city's walled cells and the boards' wall action differ
    assert shared["w"] == "walled" and shared["wa"] == "wall"


def test_issue30_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    from mason.presentation.board_text import use_colour

    class Tty:
        def isatty(self):
            return True

    class Pipe:
        def isatty(self):
            return False

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Tty()) and not use_colour(Pipe())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Tty())
    g = _game("golden-temple", (), 1)
    coloured = render_table(g.program, g.view(0), g.pending, colour=True)
    plain = render_table(g.program, g.view(0), g.pending, colour=False)
    assert "\x1b[" in coloured and "\x1b[" not in plain


def test_issue30_a_decision_about_a_board_draws_it_on_the_table():
    from mason.presentation.table_text import focus_boards

    g = _game("prague", (), 4)
    model = table_model(g.program, g.view(0))
    about_city = {"prompt": "Build on which hex of the city?", "labels": ["0,4", "-1,5"], "seat": 0}
    assert focus_boards(model, about_city) == {"city"}
    about_ring = {"prompt": "Build the wall on which hex of your ring?", "labels": ["2,0", "2,-1"], "seat": 1}
    assert focus_boards(model, about_ring) == {"action_1"}  # the deciding player's own board
    lines = render_table(g.program, g.view(1), about_ring, height=30).splitlines()
    assert len(lines) <= 30
    assert any(l.startswith("P2's action board:") for l in lines)  # drawn, though the table is short
    assert any(l.startswith("  P1's action board: hex map, 19 cells") for l in lines)  # others summed up


def test_issue30_card_and_view_area_at_the_prompt(tmp_path):
    from support import invoke

    out = invoke(
        "play", "prague", "-p", 4, "--seed", 3, input="card Building I-10\nview crane\nview nowhere\nquit\n"
    ).output
    assert "family: building; era: 1; special: no; gold: 5" in out
    assert "crane: a wheel, rotation" in out
    assert "no area called 'nowhere'" in out


@pytest.mark.parametrize("game,exp", SETUPS, ids=[g + ("+dark-city" if e else "") for g, e in SETUPS])
def test_issue30_the_table_fits_at_every_decision_of_a_bot_game_at_the_most_players(game, exp):
    from mason.play.session import make_bot

    n = load_program(game, (), exp).max_players
    g = _game(game, exp, n, seed=5)
    bots = {s: make_bot("random", 5, s) for s in range(n)}
    for _ in range(60):
        if g.over:
            break
        p = g.pending
        lines = render_table(g.program, g.view(p["seat"]), p).splitlines()
        assert len(lines) <= 50 and max(len(visible(x)) for x in lines) <= 100, "\n".join(lines)
        g.answer(bots[p["seat"]].decide(g, p["seat"]))


def test_issue30_display_hints_checked_in_the_engine_too():
    from mason.runtime.boards import display_problems

    assert display_problems({"table": "line", "seat": 2, "cell_code": "action", "colours": {"river": "blue"}}) == []
    said = [m for m, _ in display_problems({"table": "sideways", "seat": 0, "colours": {"river": "teal"}, "x": 1})]
    assert "display: unknown key 'x' (known: label, table, colours, seat, cell_code)" in said
    assert any("table must be one of full, line, off" in m for m in said)
    assert any("seat is a player's number, from 1" in m for m in said)
    assert any("colours maps codes to colour names" in m for m in said)


def test_issue30_the_boards_of_players_not_in_the_game_are_left_out_and_your_own_is_drawn():
    g = _game("prague", (), 2)
    text = render_table(g.program, g.view(0), g.pending)
    assert "P3's action board" not in text and "P4's action board" not in text
    lines = text.splitlines()
    assert any(l.rstrip().endswith("P1's action board:") or l.startswith("P1's action board:") for l in lines)
    assert any(l.startswith("  P2's action board: hex map") for l in lines)  # another player's: one line


def test_prague_crane_and_planks_read_in_words_on_the_table_the_terminal_and_the_model_alike():
    """The crane's stations and slots in words (``zone red, cost 1, star``, not ``red 1 true``) and the
    planks' rewards in the words the variable declares (``1 VP``, not ``vp1``): the table model holds
    them and the terminal writes the same words."""
    g = Game.new(Settings("prague", 2, 1, ("bridge_sides_fixed",), (), {}))  # every plank on its first side
    view = g.view(0)
    model = table_model(g.program, view)
    crane = next(b for b in model["boards"] if b["name"] == "crane")
    by_id = {s["id"]: s for s in crane["stations"]}
    assert by_id["s3"]["words"] == "zone red, cost 1, star" and by_id["s4"]["words"] == "zone green, hole"
    slots = {s["slot"]: s["slot_words"] for s in crane["stations"]}
    assert slots["w1"] == "notch, bonus special tile or 1 VP" and slots["w3"] == "notch, bonus an egg for 1 gold"
    planks = next(v for v in model["shared"] if v["id"] == "plank_sides")
    assert planks["text"] == "(gold, gold), (silver window), (3 VP), (Hunger Wall sideways move), (gold window)"
    terminal = render_area(g.program, view, "crane").splitlines()
    for s in crane["stations"]:
        line = next(x for x in terminal if x.strip().startswith(s["id"] + " "))
        assert f"{s['id']} ({s['words']})" in line and f"{s['slot']} ({s['slot_words']})" in line
    table = render_table(g.program, view, g.pending)
    assert "plank sides: (gold, gold), (silver window), (3 VP), (Hunger Wall sideways move), (gold window)" in table
