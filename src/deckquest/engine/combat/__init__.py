"""Battles (T-6): an MTG game of the PCs against a Horde Magic deck.

The public API: `run_battle` (whole battles), the same battle one survivors' decision at a
time for a run that holds it in its state (`open_fight`, `fight_over`, `decide`,
`close_fight`; a `Fight` is plain data), and the step interface `start_battle` / `legal_actions` / `apply` that agents use.
"""

from deckquest.engine.combat.actions import Action, describe
from deckquest.engine.combat.battle import (
    BattleAgent, BattleResult, Fight, PCBattleResult, close_fight, decide, fight_over, open_fight, run_battle,
    write_back,
)
from deckquest.engine.combat.state import HORDE, Battle, Horde
from deckquest.engine.combat.turns import apply, apply_legal, legal_actions, start_battle

__all__ = [
    "Action", "Battle", "BattleAgent", "BattleResult", "Fight", "HORDE", "Horde", "PCBattleResult",
    "apply", "apply_legal", "close_fight", "decide", "describe", "fight_over", "legal_actions", "open_fight",
    "run_battle", "start_battle", "write_back",
]
