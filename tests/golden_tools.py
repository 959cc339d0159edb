"""Golden playthroughs: one recorded bot game per game folder, replayed byte for byte by the tests.

Regenerate after an intended change of behaviour or narration:
    python tests/golden_tools.py            # every game
    python tests/golden_tools.py citadels   # one game
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.game import Game, Settings  # noqa: E402
from interpreter.loader import list_games  # noqa: E402
from interpreter.session import make_bot, play_game  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 7


def golden_settings(game: str) -> Settings:
    from interpreter.game import load_program

    prog = load_program(game)
    players = min(max(prog.min_players, 4), prog.max_players)
    return Settings(game, players, SEED)


def record(game: str) -> list[dict]:
    settings = golden_settings(game)
    g = Game.new(settings)
    play_game(g, {s: make_bot("random", SEED, s) for s in range(settings.players)})
    return [json.loads(json.dumps(e, sort_keys=True)) for e in g.log]


def write(game: str) -> Path:
    path = GOLDEN / f"{game}.jsonl"
    path.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in record(game)), encoding="utf-8")
    return path


if __name__ == "__main__":
    for name in sys.argv[1:] or list_games():
        print("wrote", write(name))
