"""Generic primitives beyond the core DSL, one module each (boards, tracks, bags, markets...).

Each module plugs its primitive in when it is imported, and this package imports every one of them,
by name, below (``tests/engine/test_registries.py`` checks the list against the folder):

- builtin queries with ``mason.dsl.builtins.builtin`` and state-changing procedures (``do name(...)``)
  with ``mason.dsl.builtins.procedure``;
- a board kind as one ``mason.runtime.boards.BoardKind`` (builder, load-time check, terminal
  renderer), through the ``@board_kind`` / ``@board_renderer`` decorators.

A name registered twice is refused at import. ``mason.model.program`` imports this package, so a
compiled Program knows every primitive. Primitives name no game; each is documented in docs/dsl.md
and tested on a fixture game.
"""

from mason.primitives import (  # noqa: F401  (each module registers its primitive)
    announce,
    bag,
    checks,
    converters,
    cost_track,
    hexgrid,
    hexgrid_links,
    ledger,
    market,
    pyramid,
    ring,
    slots,
    spaces,
    staircase,
    track,
    wheel,
)
