"""Helpers for the battle tests (imported as `combat_helpers`): cards and boards."""

from __future__ import annotations

from deckquest.cards.model import Card
from deckquest.engine.combat.state import HORDE, Attack, Battle, Horde, Tally
from deckquest.engine.pc import PC
from deckquest.engine.permanents import Permanent

FOREST = Card.build("Forest", None, "Basic Land — Forest", oracle_text="({T}: Add {G}.)")
MOUNTAIN = Card.build("Mountain", None, "Basic Land — Mountain", oracle_text="({T}: Add {R}.)")
PLAINS = Card.build("Plains", None, "Basic Land — Plains", oracle_text="({T}: Add {W}.)")
WASTES = Card.build("Wastes", None, "Basic Land", oracle_text="{T}: Add {C}.")
SELESNYA_GATE = Card.build("Selesnya Guildgate", None, "Land — Gate",
                           oracle_text="Selesnya Guildgate enters tapped.\n{T}: Add {G} or {W}.")
MIND_STONE = Card.build("Mind Stone", "{2}", "Artifact",
                        oracle_text="{T}: Add {C}.\n{1}, {T}, Sacrifice Mind Stone: Draw a card.")
SOL_RING = Card.build("Sol Ring", "{1}", "Artifact", oracle_text="{T}: Add {C}{C}.")
ELVES = Card.build("Llanowar Elves", "{G}", "Creature — Elf Druid", power="1", toughness="1",
                   oracle_text="{T}: Add {G}.")
BEAR = Card.build("Grizzly Bears", "{1}{G}", "Creature — Bear", power="2", toughness="2")
WURM = Card.build("Craw Wurm", "{4}{G}{G}", "Creature — Wurm", power="6", toughness="4")
ZOMBIE = Card.build("Zombie", None, "Token Creature — Zombie", power="2", toughness="2",
                    colors="B", is_token=True)
CORPSE = Card.build("Walking Corpse", "{1}{B}", "Creature — Zombie", power="2", toughness="2")
GRAVE_RITE = Card.build("Grave Rite", "{B}", "Sorcery")


def creature(name: str, power: int, toughness: int, *keywords: str, cost: str = "{1}{G}",
             token: bool = False) -> Card:
    return Card.build(name, cost, "Creature — Beast", power=str(power), toughness=str(toughness),
                      keywords=keywords, is_token=token, oracle_text=", ".join(keywords))


def make_pc(pc_id: str = "ann", battlefield=(), hand=(), library=(FOREST,) * 10, life: int = 20,
            sick: bool = False) -> PC:
    """A PC whose card table is battlefield + hand + library cards, in that order
    (ids 0.. are the battlefield, then the hand, then the library top first)."""
    cards = tuple(battlefield) + tuple(hand) + tuple(library)
    nb, nh = len(battlefield), len(hand)
    return PC(
        id=pc_id, name=pc_id.title(), cards=cards, life=life,
        battlefield=[Permanent(card=i, owner=pc_id, summoning_sick=sick) for i in range(nb)],
        hand=list(range(nb, nb + nh)), library=list(range(nb + nh, len(cards))),
    )


def make_horde(battlefield=(), library=(), hand=(), tapped: bool = False) -> Horde:
    """A horde whose card table is battlefield + library + hand cards, in that order."""
    cards = tuple(battlefield) + tuple(library) + tuple(hand)
    nb, nl = len(battlefield), len(library)
    return Horde(
        cards=cards, library=list(range(nb, nb + nl)), hand=list(range(nb + nl, len(cards))),
        battlefield=[Permanent(card=i, owner=HORDE, tapped=tapped, summoning_sick=False) for i in range(nb)],
    )


def make_battle(pcs, horde: Horde, step: str = "main1", active: str = "survivors", turn: int = 3) -> Battle:
    return Battle(survivors=list(pcs), horde=horde, step=step, active=active, turn=turn,
                  tallies={pc.id: Tally() for pc in pcs})


def attack(owner: str, card: int, defender: str, *blockers: tuple[str, int]) -> Attack:
    return Attack(owner, card, defender, list(blockers))


def alive(side, card: int) -> bool:
    return any(p.card == card for p in side.battlefield)
