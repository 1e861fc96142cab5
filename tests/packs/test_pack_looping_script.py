"""A pack whose scenario loops forever in simulation: the run stops at a step limit, no hang.

The step limit belongs to the interpreter (`deckquest.runtime`); this test is
skipped only while `deckquest.runtime.interpreter` cannot be imported.
"""

import random

import pytest

from deckquest.errors import DeckquestError
from deckquest.packs.install import install_pack
from deckquest.packs.store import locate_scenario

from packtexts import SCENARIO

LOOPING = SCENARIO.split("start scene")[0] + '''counter torches = 3

start scene hall "The Hall of Mirrors":
    "The corridor bends back on itself."
    if torches > 100:
        end victory "You find the way out."
    -> mirror

scene mirror "The Mirror":
    "Your reflection waves you back."
    -> hall
'''


def test_a_script_that_loops_forever_is_stopped(make_pack):
    interpreter = pytest.importorskip(
        "deckquest.runtime.interpreter", reason="the interpreter (deckquest.runtime) has not landed yet")
    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.agents import FirstAgent

    install_pack(make_pack(name="mirrors", files={"tiny.quest": LOOPING}))
    scenario = compile_file(locate_scenario("mirrors/tiny"))
    run = interpreter.Run(interpreter.Program(scenario), FirstAgent(), random.Random(7), max_steps=500)
    try:
        result = run.run()
    except DeckquestError as error:  # a step-limit error is as good as a "stuck" outcome
        assert "step" in error.message
        return
    assert result.outcome == interpreter.STUCK
    assert result.steps <= 501
