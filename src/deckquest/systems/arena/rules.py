"""The numbers and readings an Arena game is played by (A-R1 to A-R7 and the digest's numbers).

Every reading of ``../shared/rules/arena-board.md`` is a named value here, its first value the
default; ``ArenaRules.from_readings`` builds the rules a scenario picked. The numbers the digest
asks to keep configurable (summon range, spells per turn, hand size, turn limit, dice faces)
are fields too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Mapping


@dataclass(frozen=True)
class DiceFaces:
    """The faces of a combat die (A-20, A-R7): how many show a sword, a shield, neither."""

    swords: int = 3
    shields: int = 2
    blanks: int = 1

    @property
    def sides(self) -> int:
        return self.swords + self.shields + self.blanks

    @property
    def sword(self) -> Fraction:
        return Fraction(self.swords, self.sides)

    @property
    def shield(self) -> Fraction:
        return Fraction(self.shields, self.sides)


DICE = {"heroscape": DiceFaces(3, 2, 1), "even": DiceFaces(2, 2, 2)}
SUMMON = {"two": 2, "three": 3, "six": 6}


@dataclass(frozen=True)
class ArenaRules:
    """How a game is played: readings A-R1 to A-R7 (defaults first) and the game's numbers."""

    summon: int = 2  # A-R1 ("two", "three", "six"): figures summoned per activation of the planeswalker
    engagement: str = "level"  # A-R2: "level" (same height, the seed) or "heroscape"
    attacks: str = "engaged"  # A-R3: an engaged figure attacks only figures it is engaged with
    limit: str = "rounds"  # A-R4: the turn limit counts "rounds" or player "turns"
    enemies: str = "block"  # A-R5: enemy hexes "block" movement, or figures may "pass" them
    sight: str = "hexline"  # A-R6: "hexline" with heights, or "flat" (only walls block)
    dice: DiceFaces = DiceFaces()  # A-R7
    turn_limit: int = 30
    summon_range: int = 5
    spells_per_turn: int = 3
    hand_limit: int = 7
    opening_hand: int = 3
    height_dice: int = 1  # extra die for the figure standing higher

    @classmethod
    def from_readings(cls, readings: Mapping[str, str], **numbers: object) -> "ArenaRules":
        """Rules from ``reading NAME VALUE`` choices (names as in ``ArenaSystem.readings``)."""
        rules = cls()
        values: dict[str, object] = {}
        for name, value in readings.items():
            if name == "summon":
                values["summon"] = SUMMON[value]
            elif name == "dice":
                values["dice"] = DICE[value]
            else:
                values[name] = value
        return replace(rules, **values, **numbers)  # type: ignore[arg-type]
