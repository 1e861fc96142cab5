"""Battles (T-6): an MTG game of the PCs against a Horde Magic deck.

The public API: `run_battle` (whole battles, for the interpreter and batch runs)
and the step interface `start_battle` / `legal_actions` / `apply` that agents use.
"""

from deckquest.engine.combat.actions import Action, describe
from deckquest.engine.combat.battle import BattleAgent, BattleResult, PCBattleResult, run_battle, write_back
from deckquest.engine.combat.state import HORDE, Battle, Horde
from deckquest.engine.combat.turns import apply, apply_legal, legal_actions, start_battle

__all__ = [
    "Action", "Battle", "BattleAgent", "BattleResult", "HORDE", "Horde", "PCBattleResult",
    "apply", "apply_legal", "describe", "legal_actions", "run_battle", "start_battle", "write_back",
]
