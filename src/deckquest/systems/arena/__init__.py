"""Arena of the Planeswalkers (``system arena``): hex battlefields, armies and dice combat.

The rules are ``../shared/rules/arena-board.md`` (A-1 to A-24) from the seed
``003_f24437f5eb1b8ebf.txt``; every open point (A-R1 to A-R7) is a reading here, its first
value the default. docs/arena.md is the player's guide.
"""

from __future__ import annotations

from deckquest.systems import CodeRange, GameSystem, Reading, register

SEED = "seeds/003_f24437f5eb1b8ebf.txt"


@register
class ArenaSystem(GameSystem):
    name = "arena"
    title = "Arena of the Planeswalkers"
    rules_document = "arena-board.md"
    codes = CodeRange(3000, 3999)
    readings = (
        Reading("summon", ("2", "3", "6"), "A-R1", f"{SEED}:126",
                "figures a planeswalker summons per activation (A-6): the blog's house reading 2; videos show 3 or 6"),
        Reading("engagement", ("level", "heroscape"), "A-R2", f"{SEED}:91",
                "engaged means adjacent at the same level (the seed), or adjacent and neither standing on top "
                "of the other's height (Heroscape)"),
        Reading("attacks", ("engaged", "free"), "A-R3", f"{SEED}:91",
                "an engaged figure attacks only figures it is engaged with, without needing sight (A-22, "
                "Heroscape), or any figure in range and sight"),
        Reading("limit", ("rounds", "turns"), "A-R4", f"{SEED}:160",
                "the turn limit (A-24) counts rounds (every player's five phases once) or player turns"),
        Reading("enemies", ("block", "pass"), "A-R5", f"{SEED}:103",
                "enemy figures block movement (only friends may be passed, A-16), or figures may pass enemies"),
        Reading("sight", ("hexline", "flat"), "A-R6", f"{SEED}:25",
                "line of sight: a hex line with levels and figure heights, or only walls block"),
        Reading("dice", ("heroscape", "even"), "A-R7", f"{SEED}:47",
                "combat die faces: 3 swords, 2 shields, 1 blank (Heroscape), or 2 of each"),
    )
