"""The assembled runtime: the machine with every statement and frame kind its providers run.

``machine`` runs blocks, effects and the frames of its own loops; the statements are defined one
class each in ``mason.runtime.statements`` (importing it registers them, see ``mason.dsl.constructs``);
``turns`` (turns, the action window, the flow of phases) provides the rest of the frames as a table
(``FRAMES``), put into the machine's dispatch table here, in one place and once (a kind registered
twice is an error). Import the runtime from this module::

    from mason.runtime.engine import Runtime, run, resume, check_answer, fill_labels

The import order is one way: machine <- turns <- choices <- statements <- engine.
"""

from __future__ import annotations

from mason.runtime import direct, machine, statements, turns  # noqa: F401  (statements: registers them)
from mason.runtime.choices import check_answer, fill_labels, resume
from mason.runtime.machine import FRAME, Runtime, move_card, run

__all__ = ["FRAME", "Runtime", "check_answer", "fill_labels", "move_card", "resume", "run"]

for _kind, _handler in turns.FRAMES.items():
    machine.register_frame(_kind, _handler)

machine.BLOCKS.compile = direct.compile_block


def prepare(program) -> None:
    """Generate a program's run-time code when it is compiled (``model.validate`` calls it inside the
    compile cache's recording, so a game compiled from the cache compiles no code again): every
    block's function (``direct.compile_block``), each event's listeners (``machine._heard``), the
    action window's plan (``turns._plan``) and its
    function for a turn without a card and for each card of a type that turns are played as (a turn
    played as another card gets its function when it first opens a window)."""
    if program.fast:  # else every block runs by its statements' handlers (``Runtime.blocks``)
        for node in program.nodes:
            if node.kind == "block":
                direct.compile_block(node, program)
    machine._heard(program)
    plan = turns._plan(program)
    for tid in [None, *(t for t in program.type_order if t in program.turn_card_types)]:
        for card in [None] if tid is None else program.type_instances[tid]:
            turns._window_of(program, plan, card)
