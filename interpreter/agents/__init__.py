"""Agents that answer decisions: random, greedy (one-ply search), mcts (greedy-guided rollouts), scripted, human.

``BOT_KINDS`` are the bots a seat can be given (``--bots``, ``--bot SEAT=KIND``); ``SEAT_KINDS`` adds
``human``: what a save records for each player's seat. A kind may carry a budget, ``mcts:N`` or
``mcts:N:Ts`` (agents/kinds.py, ``parse_kind``): ``kind in BOT_KINDS`` accepts those spellings too, so
every check of a seat's kind (the command line, saves) takes them; iterating lists the bare kinds.
"""

from mason.agents.kinds import parse_kind
from mason.errors import MasonError


class _Kinds(tuple):
    """The bare kinds; ``in`` also accepts a well-formed budgeted spelling of one (``mcts:500``)."""

    def __contains__(self, kind) -> bool:
        if tuple.__contains__(self, kind):
            return True
        if not isinstance(kind, str) or ":" not in kind or kind.partition(":")[0] not in self:
            return False
        try:
            return parse_kind(kind) is not None
        except MasonError:
            return False


BOT_KINDS = _Kinds(("random", "greedy", "mcts"))
SEAT_KINDS = _Kinds(("human",) + BOT_KINDS)
