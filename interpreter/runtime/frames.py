"""The frames of paused rule execution: what ``state['stack']`` holds, typed.

A frame is a plain dict (the state stays JSON), one of the kinds below, told apart by ``kind``.
Frames name compiled nodes by integer id (``node``), so a saved stack resumes in any process that
compiles the same game. The machine (``machine.py``) runs the frame on top of the stack; a frame
that needs an answer (``choice``, ``option``, a ``turn`` at its action window) stops the run with
``state['pending']`` set. ``scope`` is the index, in the stack, of the frame whose ``vars`` the
statements read and write: the invocation frame (an action, an ability, a trigger, a phase, a setup
step) of the block that is running.

Saves of format 1 wrote the same frames with one-letter keys; ``upgrade_stack`` renames them.
"""

from typing import Literal, NotRequired, TypedDict, Union

# ``kind`` of each frame
FLOW = "flow"
BLOCK = "block"
FOR = "for"
REPEAT = "repeat"
WHILE = "while"
CHOICE = "choice"
OPTION = "option"
TURN = "turn"

# the steps of a turn frame, in order (``TurnFrame.step``)
TURN_START = 0  # emit turn_start (its triggers run first)
TURN_WINDOW = 1  # the action window: offer the legal actions until the turn ends
TURN_END = 2  # emit turn_end
TURN_DONE = 3  # pop the turn


class FlowFrame(TypedDict):
    """The round loop, always at the bottom of the stack (``turns.py``)."""

    kind: Literal["flow"]
    phase: int  # the next phase; len(phases): the round's end; one more: a stall's effect ran
    round_start: int  # decisions taken (``turns._progress``) when the round began
    idle_rounds: int  # rounds in a row without any decision
    stall_value: NotRequired[object]  # flow.stall's ``progress`` as it was when the round began
    stalled_rounds: NotRequired[int]  # rounds in a row that were stuck (flow.stall)


class BlockFrame(TypedDict):
    """A block of statements being run."""

    kind: Literal["block"]
    node: int  # the block
    next: int  # the index of the next statement to run
    scope: int  # the stack index of the frame holding the variables
    vars: NotRequired[dict]  # the variables: only on an invocation frame (then scope is its own index)


class ForFrame(TypedDict):
    """A ``for`` loop over items fixed when it began."""

    kind: Literal["for"]
    node: int  # the for statement
    items: list  # the items, fixed when the loop began
    next: int  # the index of the next item
    scope: int


class RepeatFrame(TypedDict):
    """A ``repeat N`` loop."""

    kind: Literal["repeat"]
    node: int  # the repeat statement
    count: int  # rounds to run
    done: int  # rounds begun
    scope: int


class WhileFrame(TypedDict):
    """A ``while`` loop (at most 100,000 rounds)."""

    kind: Literal["while"]
    node: int  # the while statement
    done: int  # rounds begun (at most 100,000)
    scope: int


class ChoiceFrame(TypedDict):
    """A ``choose`` (``choice``) or ``choose one`` (``option``) waiting for its answer."""

    kind: Literal["choice", "option"]
    node: int  # the choose statement
    scope: int


class TurnFrame(TypedDict):
    """A turn: its triggers and action window (``turns.py``)."""

    kind: Literal["turn"]
    node: int  # the turn statement
    seat: int
    card: int | None  # the card the turn is played as (``turn SEAT as CARD``)
    uses: dict[str, int]  # option key -> times taken this turn
    groups: dict[str, int]  # action group -> actions of it taken this turn
    step: int  # TURN_START .. TURN_DONE
    stop: bool  # ``stop turn`` ran: the window closes
    outer_turn: int  # the stack index of the enclosing turn frame, -1 for none
    only: NotRequired[str]  # ``turn ... only GROUP``: the window offers that group's actions alone


Frame = Union[FlowFrame, BlockFrame, ForFrame, RepeatFrame, WhileFrame, ChoiceFrame, TurnFrame]
# a frame with a ``scope``: the one a statement runs in (a block, a loop's, a choice's), handed to
# the statements' handlers and to the runners of a body (``run_inline``, ``run_now``, ``push_or_run``)
Scoped = Union[BlockFrame, ForFrame, RepeatFrame, WhileFrame, ChoiceFrame]
# the frame on top of the stack while a decision waits (``state['pending']`` is set)
Asking = Union[ChoiceFrame, TurnFrame]

# format 1 (one-letter keys) -> today's names
_OLD_KINDS = {"flow": FLOW, "b": BLOCK, "f": FOR, "r": REPEAT, "w": WHILE, "c": CHOICE, "o": OPTION, "t": TURN}
_OLD_KEYS = {
    FLOW: {"p": "phase", "d0": "round_start", "idle": "idle_rounds", "pv": "stall_value", "still": "stalled_rounds"},
    BLOCK: {"n": "node", "i": "next", "s": "scope", "v": "vars"},
    FOR: {"n": "node", "l": "items", "i": "next", "s": "scope"},
    REPEAT: {"n": "node", "c": "count", "i": "done", "s": "scope"},
    WHILE: {"n": "node", "i": "done", "s": "scope"},
    CHOICE: {"n": "node", "s": "scope"},
    OPTION: {"n": "node", "s": "scope"},
    TURN: {"n": "node", "u": "uses", "g": "groups", "p": "step", "pti": "outer_turn"},
}


def upgrade_stack(stack) -> list:
    """A stack saved in format 1 (``{"k": "b", "n": .., "i": .., "s": ..}``) with today's frame names; any
    frame it does not recognise is left as it is, for the save's checks to refuse."""
    if not isinstance(stack, list):
        return stack
    out = []
    for fr in stack:
        old = fr.get("k") if isinstance(fr, dict) else None
        kind = _OLD_KINDS.get(old) if isinstance(old, str) else None
        if kind is None:
            out.append(fr)
            continue
        names = _OLD_KEYS[kind]
        new = {"kind": kind}
        for key, value in fr.items():
            if key != "k":
                new[names.get(key, key)] = value
        out.append(new)
    return out
