"""Permanents on a battlefield, shared by the adventure part and battles.

A permanent refers to a physical card by its id in its owner's card table
(engine state holds ids, not Card objects, so it stays cheap to copy).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(init=False)  # the __init__ below: one dataclasses would write is interpreted, even compiled
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

    def __init__(self, card: int, owner: str, tapped: bool = False, summoning_sick: bool = True, damage: int = 0,
                 plus_counters: int = 0, loyalty: int = 0, power_bonus: int = 0, toughness_bonus: int = 0,
                 granted: int = 0, static_power: int = 0, static_toughness: int = 0, static_keywords: int = 0) -> None:
        """The fields, in their order (what `dataclasses` would generate). Written out because
        the compiled build (docs/development.md) compiles the methods a class spells out but
        runs the ones `dataclasses` generates as interpreted code: a battle makes a permanent
        for every card that enters, and the generated `__init__` cost five times this one."""
        self.card = card
        self.owner = owner
        self.tapped = tapped
        self.summoning_sick = summoning_sick
        self.damage = damage
        self.plus_counters = plus_counters
        self.loyalty = loyalty
        self.power_bonus = power_bonus
        self.toughness_bonus = toughness_bonus
        self.granted = granted
        self.static_power = static_power
        self.static_toughness = static_toughness
        self.static_keywords = static_keywords

    def copy(self) -> Permanent:
        """The same fields (what `dataclasses.replace(permanent)` makes, without its
        interpreted walk over the fields: every battle copies its PCs' permanents)."""
        return Permanent(self.card, self.owner, self.tapped, self.summoning_sick, self.damage, self.plus_counters,
                         self.loyalty, self.power_bonus, self.toughness_bonus, self.granted, self.static_power,
                         self.static_toughness, self.static_keywords)
