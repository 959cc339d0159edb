"""A person plays a solo game against an automated seat at a real terminal process, saves, resumes in a
new process and finishes; the final table shows every scoring part for both seats. Golden Temple (the
Maharaja) and Prague (the dummy), and a resumed game equals the same game played in one sitting."""

from __future__ import annotations

import json

import paths
import pytest
from support import mason_process

ROOT = paths.ROOT
TIMEOUT = 120

SOLO = [
    ("golden-temple", "Maharaja", ["PP during play", "knowledge game-end icons", "objectives"]),
    (
        "prague",
        "Dummy",
        [
            "VP during play",
            "unresolved plazas",
            "academics",
            "Hunger Wall and Cathedral rows",
            "red and blue tokens",
            "walls",
            "gold tiles and seals",
            "eggs",
        ],
    ),
]


def mason(*args, input: str):
    return mason_process(*args, input=input, timeout=TIMEOUT)


@pytest.mark.parametrize("game,rival,parts", SOLO, ids=[g for g, _, _ in SOLO])
def test_solo_game_saved_resumed_and_finished_in_a_new_process(game, rival, parts, tmp_path):
    save = tmp_path / "solo.json"
    first = mason("play", game, "-p", 1, "--seed", 4, "--save", save, input="1\n" * 25 + "quit\n")
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stdout + first.stderr
    assert f"automated: {rival}" in first.stdout.splitlines()[0]
    assert f"quit: game saved to {save}" in first.stdout
    state = json.loads(save.read_text(encoding="utf-8"))["state"]
    assert not state["over"] and state["pending"]["seat"] == 0  # never waiting for the automaton

    second = mason("play", game, "--resume", save, "--log", tmp_path / "solo.jsonl", input="1\n" * 5000)
    assert second.returncode == 0, second.stderr
    out = second.stdout
    assert "Traceback" not in out + second.stderr
    table = out[out.index("Final scores:") :].splitlines()
    rows = {l.split(":")[0].strip(): l for l in table[1:3]}
    assert set(rows) == {"P1", rival}
    for row in rows.values():
        assert all(p in row for p in parts), row
    assert table[-1].startswith("Winner")

    # the two sittings replay as one game from the start, the automated decisions included
    replay = mason("replay", tmp_path / "solo.jsonl", "--quiet", input="")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("replay OK:")

    # the same answers in one sitting give the same final table
    whole = mason("play", game, "-p", 1, "--seed", 4, input="1\n" * 5025)
    assert whole.returncode == 0, whole.stderr
    assert whole.stdout[whole.stdout.index("Final scores:") :] == out[out.index("Final scores:") :]
