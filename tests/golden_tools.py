"""Golden playthroughs: one recorded bot game per game folder, replayed byte for byte by the tests.

Regenerate after an intended change of behaviour or narration:
    python tests/golden_tools.py            # every game
    python tests/golden_tools.py citadels   # one game
After a change of the log's format or narration only, keep the games and rewrite their logs:
    python tests/golden_tools.py --replay [GAME ...]   # the recorded answers again, same results checked
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mason.runtime.game import Game, Settings  # noqa: E402
from mason.model.loader import list_games  # noqa: E402
from mason.play.session import make_bot, play_game  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 7


def golden_settings(game: str) -> Settings:
    from mason.runtime.game import load_program

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


def rewrite(game: str) -> Path:
    """Replay a golden's own answers and write the log they give now; the game's result must not change."""
    path = GOLDEN / f"{game}.jsonl"
    old = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    g = Game.new(Settings.from_json(old[0]["settings"]))
    for e in old:
        if e.get("type") == "decision":
            g.answer(e["answer"])
    ended = [e for e in old if e.get("type") == "end"]
    if not g.over or (ended and ended[-1]["result"] != g.result):
        raise SystemExit(f"{game}: the recorded answers no longer give the same game; record it anew")
    path.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in g.log), encoding="utf-8")
    return path


if __name__ == "__main__":
    args = sys.argv[1:]
    keep = "--replay" in args
    for name in [a for a in args if a != "--replay"] or list_games():
        print("wrote", rewrite(name) if keep else write(name))
