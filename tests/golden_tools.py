"""Golden playthroughs: one recorded bot game per game folder, replayed by the tests.

A golden is the game's log (``tests/golden/GAME.jsonl``) and the fingerprints of what every seat saw
at each decision (``tests/golden/GAME.views.json``). The tests replay its answers and compare what a
player meets: the views, the decisions' prompts, options and answers, the narration and every
event's type and values. They leave out the rule-file places (``at``, ``file:line:col``) and the
rules hash, so a comment line in a rule file does not break a golden; a changed rule does.
(``mason replay`` still checks a log byte for byte, places and rules hash included.)

Regenerate after an intended change of behaviour or narration:
    python tests/golden_tools.py            # every game
    python tests/golden_tools.py citadels   # one game
After a change of the log's format or narration only, keep the games and rewrite their logs:
    python tests/golden_tools.py --replay [GAME ...]   # the recorded answers again, same results checked
Either way GAME.views.json is written anew beside the log.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mason.errors import MasonError  # noqa: E402
from mason.model.loader import list_games  # noqa: E402
from mason.play.session import make_bot, play_game  # noqa: E402
from mason.session.game import Game, Settings  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 7


def golden_settings(game: str) -> Settings:
    from mason.session.game import load_program

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
    entries = record(game)
    path.write_text("".join(json.dumps(e, sort_keys=True) + "\n" for e in entries), encoding="utf-8")
    write_views(game, entries)
    return path


# ------------------------------------------------------------------ comparing without places


def without_places(entry: dict) -> dict:
    """A log entry as a player meets it: no rule-file places (``at``, at any depth), and for the
    start entry no rules hash."""

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "at"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out = strip(entry)
    if out.get("type") == "start":
        out.pop("rules", None)
    return out


def views_fingerprint(game: Game) -> str:
    """What every seat (and the table, seat None) sees now, as a short hash."""
    seen = [game.view(None)] + [game.view(seat) for seat in range(game.players)]
    return hashlib.sha256(json.dumps(seen, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def views_path(game: str) -> Path:
    return GOLDEN / f"{game}.views.json"


def views_of(entries: list[dict]) -> list[str]:
    """The views' fingerprint before each decision of a log, its answers replayed."""
    g = Game.new(Settings.from_json(entries[0]["settings"]))
    out = []
    for e in entries:
        if e.get("type") == "decision" and not g.over:
            out.append(views_fingerprint(g))
            g.answer(e["answer"])
    return out


def write_views(game: str, entries: list[dict]) -> Path:
    path = views_path(game)
    path.write_text(json.dumps(views_of(entries), indent=0) + "\n", encoding="utf-8")
    return path


def read_views(game: str) -> list[str] | None:
    path = views_path(game)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _short(v) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 70 else text[:67] + "..."


def _entry_difference(logged: dict, produced: dict) -> str:
    for key in sorted(set(logged) | set(produced)):
        if logged.get(key) != produced.get(key):
            return f"{key}: the golden has {_short(logged.get(key))}, the replay gives {_short(produced.get(key))}"
    return "the entries differ"


def replay_golden(entries: list[dict], folder=None, views: list[str] | None = None) -> tuple[Game, str | None]:
    """Replay a golden's answers, against the game ``folder`` when given (a copy, say), and compare
    the views (when ``views`` are given), decisions, narration and events with their places left out.

    Returns (game, None) when everything matches, else (game, one line naming the first difference).
    """
    settings = dict(entries[0]["settings"])
    if folder is not None:
        settings["game"] = str(folder)
    try:
        g = Game.new(Settings.from_json(settings))
    except MasonError as exc:
        raise AssertionError(f"the game does not start: {exc}") from None
    checked = 0

    def first_difference():
        nonlocal checked
        for i in range(checked, min(len(g.log), len(entries))):
            produced = without_places(json.loads(json.dumps(g.log[i], sort_keys=True)))
            logged = without_places(entries[i])
            if i == 0 and folder is not None:  # the copy is named by its path, the golden by its id
                produced = {**produced, "settings": {**produced["settings"], "game": logged["settings"]["game"]}}
            if produced != logged:
                return f"entry {i + 1} ({logged.get('type')}): {_entry_difference(logged, produced)}"
        checked = min(len(g.log), len(entries))
        return None

    k = 0
    for e in entries:
        if e.get("type") != "decision":
            continue
        found = first_difference()
        if found or g.over:
            break
        if views is not None:
            seen = views_fingerprint(g)
            if k >= len(views) or seen != views[k]:
                return g, f"decision {k + 1}: the views differ from the golden's"
        try:
            g.answer(e["answer"])
        except MasonError as exc:
            return g, f"decision {k + 1}: answer {_short(e['answer'])} cannot be replayed: {exc}"
        k += 1
    found = first_difference()
    if found:
        return g, found
    if len(g.log) != len(entries):
        return g, f"the golden has {len(entries)} entries, the replay {len(g.log)}"
    if views is not None and k != len(views):
        return g, f"the golden saw {len(views)} decisions, the replay {k}"
    if not g.over:
        return g, "the replay is not over"
    return g, None


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
    write_views(game, [json.loads(json.dumps(e)) for e in g.log])
    return path


if __name__ == "__main__":
    args = sys.argv[1:]
    keep = "--replay" in args
    names = [a for a in args if a != "--replay"]
    unknown = [a for a in names if a not in list_games()]
    if unknown:
        raise SystemExit(
            f"golden_tools: no game {', '.join(unknown)} (games: {', '.join(list_games())}; "
            f"usage: python tests/golden_tools.py [--replay] [GAME ...])"
        )
    for name in names or list_games():
        print("wrote", rewrite(name) if keep else write(name))
