"""Permanents on a battlefield, shared by the adventure part and battles.

A permanent refers to a physical card by its id in its owner's card table
(engine state holds ids, not Card objects, so it stays cheap to copy).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Permanent:
    card: int  # physical card id in the owner's card table
    owner: str  # the id of the PC or NPC that owns it
    tapped: bool = False
    summoning_sick: bool = True  # T-2.10: cannot tap or attack until its owner concentrated
    damage: int = 0
    plus_counters: int = 0  # +1/+1 counters (negative for -1/-1)
    loyalty: int = 0
    power_bonus: int = 0  # "+N/+N until end of turn" (card effects); cleared at end of turn
    toughness_bonus: int = 0
    granted: int = 0  # keyword flags gained until end of turn (engine.combat.profile)
    # Continuous effects of static abilities (lords, anthems), recomputed by the battle
    # engine whenever the battlefield changes (engine.combat.statics); 0 outside battles.
    static_power: int = 0
    static_toughness: int = 0
    static_keywords: int = 0
