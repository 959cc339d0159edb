"""The DSL's statements, one class each (syntax, checks, reference run, fast form): importing registers them.

See ``mason.dsl.constructs`` for what a definition holds and docs/architecture.md ("Adding a statement").
"""

from mason.runtime.statements.choosing import Choose, ChooseOne, Option
from mason.runtime.statements.control import For, If, Repeat, While
from mason.runtime.statements.counters import Gain, Pay, Transfer
from mason.runtime.statements.flow import Do, Emit, EndGame, Pass, Say, StopTurn, Turn
from mason.runtime.statements.variables import Let, Set
from mason.runtime.statements.zones import Draw, Move, Reveal, Shuffle, Swap

__all__ = [
    "Choose",
    "ChooseOne",
    "Do",
    "Draw",
    "Emit",
    "EndGame",
    "For",
    "Gain",
    "If",
    "Let",
    "Move",
    "Option",
    "Pass",
    "Pay",
    "Repeat",
    "Reveal",
    "Say",
    "Set",
    "Shuffle",
    "StopTurn",
    "Swap",
    "Transfer",
    "Turn",
    "While",
]
