"""The functions of Mason's public API (``from mason import ...``); see docs/api.md for examples.

They are thin, keyword-friendly wrappers over the runtime (``mason.session.game``) and the play layer
(``mason.play.session``), so a notebook needs no knowledge of the package layout.
"""

from __future__ import annotations

from typing import Iterable

from mason.model.loader import list_games as _list_games
from mason.model.program import Program
from mason.play.session import make_bot
from mason.play.session import play_game as _play_until_end
from mason.play.session import simulate as _simulate
from mason.session.game import Game, Settings, load_program

__all__ = ["list_games", "load_game", "validate_game", "simulate", "play_game", "make_bot"]


def list_games() -> list[str]:
    """The ids of the shipped games (folders of ``games/``)."""
    return _list_games()


def load_game(game: str, variants: Iterable[str] = (), expansions: Iterable[str] = ()) -> Program:
    """Load, check and compile a game (an id or a folder path); raises ``DefinitionErrors`` on a bad file.

    The compiled ``Program`` is cached per (game, variants, expansions).
    """
    return load_program(game, tuple(variants), tuple(expansions))


def validate_game(game: str, variants: Iterable[str] = (), expansions: Iterable[str] = ()) -> list:
    """Every problem of a game's rule files as ``DefinitionError`` (``file:line:col: message``); [] if valid."""
    from mason.model.validate import validate_game as _validate

    return _validate(game, tuple(variants), tuple(expansions), complete=True)[1]


def _settings(game: str, players: int, seed, variants, expansions, options) -> Settings:
    return Settings(
        game, int(players), seed, tuple(variants), tuple(expansions), tuple(sorted(dict(options or {}).items()))
    )


def simulate(
    game: str,
    games: int = 100,
    players: int = 4,
    seed: int = 1,
    bots: str = "random",
    *,
    seat_bots: dict[int, str] | None = None,
    variants: Iterable[str] = (),
    expansions: Iterable[str] = (),
    options: dict | None = None,
    workers: int = 1,
) -> dict:
    """Play ``games`` bot games (seeds ``seed``, ``seed+1``, ...) and return the report that
    ``mason simulate --json`` prints: per-game ``results`` (scores, winners, rounds, decisions), ``stats``
    and ``errors``. ``seat_bots`` gives some seats (numbered from 0) another bot kind than ``bots``.
    The results do not depend on ``workers``.
    """
    base = _settings(game, players, seed, variants, expansions, options)
    return _simulate(base, games, bots=bots, workers=workers, seat_bots=seat_bots)


def play_game(
    game: str,
    players: int = 4,
    seed=1,
    agents: dict | None = None,
    bots: str = "random",
    *,
    variants: Iterable[str] = (),
    expansions: Iterable[str] = (),
    options: dict | None = None,
) -> Game:
    """Play one game to its end and return the finished ``Game`` (``.result``, ``.log``, ``.state``).

    ``agents`` maps some seats (from 0) to agents (objects with ``decide(game, seat) -> answer``);
    the other players' seats get ``bots`` seeded from ``seed``.
    """
    settings = _settings(game, players, seed, variants, expansions, options)
    g = Game.new(settings, narrate=False)
    chosen = {s: make_bot(bots, seed, s) for s in range(settings.players)}
    chosen.update(agents or {})
    return _play_until_end(g, chosen)
