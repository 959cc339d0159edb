"""The Dark City as a package: overlays and conflicts, options on the command line, mixed player
counts in ``mason simulate``, coverage places and the gold invariant with gold lying on districts."""

from __future__ import annotations

import json
import random

import paths
import support
from support import new_game

from mason.model.validate import validate_game

ROOT = paths.ROOT
FIXTURE = ROOT / "tests" / "fixtures" / "expansions" / "greedy-thief"
DC_FILE = "games/citadels/expansions/dark-city/expansion.yaml"


def invoke(*args):
    return support.invoke(*args, cwd=ROOT)


# ---------------------------------------------------------------------- overlays and conflicts
def test_expansion_touching_a_dark_city_id_conflicts_naming_both_files():
    program, errors = validate_game("citadels", (), ("dark-city", str(FIXTURE)))
    assert program is None
    conflicts = [e for e in errors if e.code == "definition/conflict"]
    assert len(conflicts) == 1, [e.line() for e in errors]
    line = conflicts[0].line()
    assert "greedy-thief/expansion.yaml:" in line and DC_FILE + ":" in line
    assert "component 'thief'" in line and "'dark-city' and 'greedy-thief'" in line
    result = invoke("validate", "citadels", "--with", "dark-city", "--with", FIXTURE)
    assert result.exit_code == 1 and "error[definition/conflict]" in result.output


def test_the_conflict_goes_when_the_expansion_requires_dark_city(tmp_path):
    folder = support.copy_game(tmp_path, FIXTURE)
    manifest = folder / "expansion.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "status: placeholder\nreplace:", "status: placeholder\nrequires: [dark-city]\nreplace:"
        )
    )
    program, errors = validate_game("citadels", (), ("dark-city", str(folder)))
    assert errors == [] and program is not None
    program, errors = validate_game("citadels", (), (str(folder),))
    assert any(e.code == "definition/expansion" and "requires 'dark-city'" in e.message for e in errors)


def test_dark_city_alone_validates_and_base_game_is_untouched():
    result = invoke("validate", "citadels", "--with", "dark-city")
    assert result.exit_code == 0 and "2-8 players" in result.output
    result = invoke("validate", "citadels")
    assert result.exit_code == 0 and "2-7 players" in result.output


# ---------------------------------------------------------------------- options
def test_character_options_on_the_command_line():
    result = invoke(
        "play",
        "citadels",
        "--with",
        "dark-city",
        "-p",
        "4",
        "--bots",
        "random",
        "--quiet",
        "--option",
        "rank3=wizard",
        "--option",
        "rank1=witch",
        "--seed",
        "3",
    )
    assert result.exit_code == 0, result.output
    result = invoke(
        "play", "citadels", "--with", "dark-city", "-p", "4", "--bots", "random", "--quiet", "--option", "rank3=wizzard"
    )
    assert result.exit_code == 1
    err = result.output.strip().splitlines()
    assert len(err) == 1 and "error[play/failed]" in err[0] and "rank3=wizzard" in err[0]
    assert err[0].startswith(DC_FILE + ":")


def test_default_mix_is_random_per_rank_and_reproducible():
    def used(seed):
        g = new_game("citadels", 5, seed, expansions=("dark-city",), narrate=False)
        return sorted(
            g.state["cards"][c]["t"] for c in g.program.family_cards["character"] if g.state["cards"][c]["z"] != "box"
        )

    mixes = {tuple(used(s)) for s in range(1, 9)}
    assert len(mixes) > 4 and used(4) == used(4)


# ---------------------------------------------------------------------- simulate
def test_simulate_mixed_player_counts_with_coverage():
    result = invoke(
        "simulate", "citadels", "--with", "dark-city", "-n", "14", "-p", "2-8", "--seed", "1", "--coverage", "--json"
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["completed"] == 14 and report["errors"] == []
    assert report["settings"]["player_counts"] == [2, 3, 4, 5, 6, 7, 8]
    assert sorted({len(r["scores"]) for r in report["results"]}) == [2, 3, 4, 5, 6, 7, 8]
    assert len(report["stats"]["win_rate_by_seat"]) == 8
    places = {item["key"]: item["at"] for item in report["coverage"]["never"]}
    places.update({k: "" for k in report["coverage"]["fired"]})
    for key in (
        "witch.bewitch",
        "tax_collector.collect",
        "wizard.conjure",
        "emperor.crown_transfer",
        "abbot.alms",
        "alchemist.refund",
        "navigator.navigate",
        "diplomat.exchange",
        "artist.beautify",
        "queen.queen_gold",
        "queen.queen_late",
        "armory.armory",
        "museum.museum",
        "lighthouse.lighthouse",
        "ball_room.ball_room",
        "throne_room.throne_room",
        "park.park",
        "poor_house.poor_house",
        "bell_tower.bell_tower",
        "hospital.modifiers[0]",
    ):
        assert key in places, key
    assert all("dark-city" in at for key, at in places.items() if key.startswith("witch.") and at)
    again = json.loads(
        invoke(
            "simulate",
            "citadels",
            "--with",
            "dark-city",
            "-n",
            "14",
            "-p",
            "2-8",
            "--seed",
            "1",
            "--coverage",
            "--json",
        ).output
    )
    assert again["results"] == report["results"]


def test_simulate_refuses_a_bad_player_range():
    result = invoke("simulate", "citadels", "-n", "2", "-p", "2-9")
    assert result.exit_code == 1 and "error[play/players]" in result.output
    result = invoke("simulate", "citadels", "-n", "2", "-p", "two")
    assert result.exit_code == 1 and "error[cli/usage]" in result.output


# ---------------------------------------------------------------------- the gold invariant
def test_bank_players_and_districts_hold_thirty_gold_at_every_decision():
    for players, seed in ((5, 3), (8, 4)):
        g = new_game(
            "citadels", players, seed, expansions=("dark-city",), options=(("rank9", "artist"),), narrate=False
        )
        rng = random.Random(seed)
        steps = 0
        while not g.over:
            c = g.state["counters"]
            assert c["bank"] + sum(c["gold"]) + c["card_gold"] == 30
            gilded = sum(1 for card in g.state["cards"] if card.get("gilded"))
            assert gilded == c["card_gold"]
            p = g.pending
            g.answer(
                sorted(rng.sample(range(len(p["options"])), rng.randint(0, p["subset"])))
                if p["subset"]
                else rng.randrange(len(p["options"]))
            )
            steps += 1
            assert steps < 20_000


def test_simulate_with_a_bad_option_reports_every_game_without_crashing():
    result = invoke(
        "simulate",
        "citadels",
        "--with",
        "dark-city",
        "-n",
        "2",
        "-p",
        "4",
        "--option",
        'bonus_district_ids=["museum","nope"]',
    )
    assert result.exit_code == 1 and "internal" not in result.output
    assert result.output.count("error[play/failed]: option bonus_district_ids: 'nope'") == 2
