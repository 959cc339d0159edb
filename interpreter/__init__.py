"""Mason: a declarative rules interpreter for tabletop games.

The public Python API (documented with examples in ``docs/api.md``)::

    from mason import Game, Settings, load_game, simulate, list_games

    game_id = list_games()[0]                 # a shipped game's id, or a game folder's path
    game = Game.new(Settings(game_id, players=4, seed=7))
    while not game.over:
        game.answer(0)                        # the first option; or ask an agent, see docs/api.md
    print(game.result["winners"])

    report = simulate(game_id, games=50, players=4, seed=1)

Everything in ``__all__`` is stable; the subpackages (``mason.model``, ``mason.dsl``,
``mason.runtime``, ``mason.primitives``, ``mason.session``, ``mason.presentation``, ``mason.agents``,
``mason.play``, ``mason.cli``) are the implementation and may change. Names are imported on first use, so ``import mason`` stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "Game": "mason.session.game",
    "Settings": "mason.session.game",
    "Program": "mason.model.program",
    "MasonError": "mason.errors",
    "DefinitionError": "mason.errors",
    "DefinitionErrors": "mason.errors",
    "PlayError": "mason.errors",
    "IllegalAction": "mason.errors",
    "SaveError": "mason.errors",
    "load_game": "mason.api",
    "validate_game": "mason.api",
    "list_games": "mason.api",
    "simulate": "mason.api",
    "play_game": "mason.api",
    "make_bot": "mason.api",
    "BOT_KINDS": "mason.agents",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mason' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
