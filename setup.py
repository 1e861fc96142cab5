"""The optional compiled build (docs/performance.md, "Compiled build").

`pip install .` reads everything from pyproject.toml and installs pure Python; this file adds
nothing then. With `DECKQUEST_MYPYC=1 pip install .` it compiles the battle engine with mypyc
(the build backend, build_backend/deckquest_build.py, installs mypy for it): the same modules,
type-checked strictly by `[tool.mypy]` first, as C extensions installed beside their sources.
"""

import os

from setuptools import setup

#: The battle hot path: the whole engine (it imports only cards, i18n and errors from outside
#: it), the battle agents that the runtime asks at every decision, the card model, whose
#: fields and properties (`is_land`, `card_types`, `has_keyword`, …) the engine reads at every
#: step, and the rules-text reader, whose effects, amounts and targets every valuation reads:
#: uncompiled, each was an interpreted call or a dictionary lookup from compiled code. Then the
#: adventure's own hot path: MTG-TRPG's statement handlers (every check, battle and PC action of
#: a run) and `best`'s PC actions (docs/performance.md, "Issue 19 item 4: the MTG-TRPG system
#: compiled"); and the interpreter, its run state and its statements' closures, once the
#: handlers they call were compiled (docs/performance.md, "Issue 19 after its seventh session").
COMPILED = [
    "src/deckquest/cards/model.py",
    "src/deckquest/cards/oracle.py",
    "src/deckquest/engine/adventure.py",
    "src/deckquest/engine/checks.py",
    "src/deckquest/engine/colors.py",
    "src/deckquest/engine/game.py",
    "src/deckquest/engine/odds.py",
    "src/deckquest/engine/pc.py",
    "src/deckquest/engine/permanents.py",
    "src/deckquest/engine/combat/actions.py",
    "src/deckquest/engine/combat/battle.py",
    "src/deckquest/engine/combat/boss.py",
    "src/deckquest/engine/combat/casting.py",
    "src/deckquest/engine/combat/combat.py",
    "src/deckquest/engine/combat/effects.py",
    "src/deckquest/engine/combat/horde.py",
    "src/deckquest/engine/combat/mana.py",
    "src/deckquest/engine/combat/phases.py",
    "src/deckquest/engine/combat/profile.py",
    "src/deckquest/engine/combat/program.py",
    "src/deckquest/engine/combat/resolve.py",
    "src/deckquest/engine/combat/state.py",
    "src/deckquest/engine/combat/statics.py",
    "src/deckquest/engine/combat/turns.py",
    "src/deckquest/runtime/battle_agents.py",
    "src/deckquest/runtime/compiled.py",
    "src/deckquest/runtime/interpreter.py",
    "src/deckquest/runtime/preparation.py",
    "src/deckquest/runtime/state.py",
    "src/deckquest/systems/trpg/statements.py",
]


def ext_modules() -> list:
    """mypyc's extensions when `DECKQUEST_MYPYC=1`, else none (a pure-Python build)."""
    if os.environ.get("DECKQUEST_MYPYC") != "1":
        return []
    from mypyc.build import mypycify

    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=ext_modules())
