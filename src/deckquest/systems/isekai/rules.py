"""The readings of the Isekai TCG (I-R1 to I-R8) as one immutable value the engine consults.

Each reading is a named scenario option (``reading NAME VALUE``); its values, first the
default, and the seed line it comes from are in READINGS, which the registered system
publishes. ``Rules.from_readings`` turns the chosen names into the engine's typed fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from deckquest.systems import Reading

SEED = "seeds/002_bcf54f510b6a7297.txt"

READINGS: tuple[Reading, ...] = (
    Reading("hit_by", ("holder", "attacker"), "I-R1", f"{SEED}:63",
            "Who lands a hit (I-17) by passing during the attack's declaration: whoever holds the "
            "action right (holder), or only the attacker (attacker: the defender's pass hands the "
            "right back)."),
    Reading("reversal_cards", ("damage", "hand"), "I-R2", f"{SEED}:66",
            "The cards a reversal chance (I-18) exiles face up: the hit's own damage cards, turned "
            "face up instead of face down (damage), or cards from the hand (hand)."),
    Reading("player_attacks", ("yes", "no"), "I-R3", f"{SEED}:33",
            "Whether a duelist whose status cards give attack power may attack and strike back "
            "(I-6 option 4), range permitting."),
    Reading("skill_play", ("chosen", "top"), "I-R4", f"{SEED}:38",
            "How a card is played from the skill deck: any card chosen from it, as costs are "
            "(chosen), or only its top card (top)."),
    Reading("answer_order", ("lifo", "fifo"), "I-R5", f"{SEED}:42",
            "Order of answers within a speed gap of 1 (only a gap of 2 or more interrupts, I-9): "
            "last in, first out (lifo), or in the order played (fifo)."),
    Reading("stall", ("100", "50", "200", "400"), "I-R6", f"{SEED}:21",
            "A duel with no damage to a player for this many action rights is a draw (so is one "
            "of ten times as many rights in all)."),
    Reading("extra_attack_gap", ("2", "3"), "I-R7", f"{SEED}:58",
            "The speed lead that lets a unit attack again after a fight, at its speed minus its "
            "opponent's (I-15): 2 or more, or 3 or more."),
    Reading("mana_charge", ("triangular", "one"), "I-R8", f"{SEED}:30",
            "Cards a mana charge moves (I-6 option 1): the n-th consecutive charge moves n cards "
            "(triangular), or 1 each (one)."),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The readings in force for one duel, typed for the engine."""

    hit_by_holder: bool = True  # I-R1
    reversal_from_damage: bool = True  # I-R2
    player_attacks: bool = True  # I-R3
    skill_chosen: bool = True  # I-R4
    answers_lifo: bool = True  # I-R5
    stall: int = 100  # I-R6
    extra_attack_gap: int = 2  # I-R7
    triangular_charge: bool = True  # I-R8

    @classmethod
    def from_readings(cls, chosen: Mapping[str, str] | None = None) -> "Rules":
        """Rules from ``{reading name: value}``; unnamed readings keep their defaults.
        Unknown names or values are the resolver's to report; here they raise ValueError."""
        values = {r.name: r.default for r in READINGS}
        for name, value in (chosen or {}).items():
            reading = next((r for r in READINGS if r.name == name), None)
            if reading is None or value not in reading.values:
                raise ValueError(f"no reading {name} {value}")
            values[name] = value
        return cls(
            hit_by_holder=values["hit_by"] == "holder",
            reversal_from_damage=values["reversal_cards"] == "damage",
            player_attacks=values["player_attacks"] == "yes",
            skill_chosen=values["skill_play"] == "chosen",
            answers_lifo=values["answer_order"] == "lifo",
            stall=int(values["stall"]),
            extra_attack_gap=int(values["extra_attack_gap"]),
            triangular_charge=values["mana_charge"] == "triangular",
        )
