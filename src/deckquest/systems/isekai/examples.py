"""Two bundled decks of original cards, for the benchmark and the tests of the engine.

Ember Vanguard is fast and fragile (speed locks and extra attacks, I-15); Stone Bastion is slow
and sturdy (blocks, protection, Recovery). Both carry a [Reversal] card in the main deck.
"""

from __future__ import annotations

from deckquest.systems.isekai.cards import (
    BOOST, DAMAGE, ENEMY_UNIT, EQUIPMENT, HEAL, ITEM, MAGIC, OPPONENT, PREVENT, PROTECT, RECOVERY,
    SKILL, STATUS, UNIT, YOU, YOUR_UNIT, CardDef, CardSet, Condition, Deck, Duelist, Effect,
)

EXAMPLE_CARDS = CardSet({card.id: card for card in (
    # Ember Vanguard
    CardDef("scout", "Ash Scout", UNIT, cost=1, speed=3, range="near", attack=1, hp=1),
    CardDef("lancer", "Cinder Lancer", UNIT, cost=2, speed=2, range="middle", attack=2, hp=2),
    CardDef("drake", "Ember Drake", UNIT, cost=4, speed=4, range="far", attack=3, hp=3,
            reversal=Condition("your main deck", 3, True)),
    CardDef("flask", "Fire Flask", ITEM, cost=1, speed=2, effects=(Effect(DAMAGE, 1, ENEMY_UNIT),)),
    CardDef("boots", "Quickstep Boots", EQUIPMENT, cost=1, speed=1, effects=(Effect(BOOST, 1, YOUR_UNIT, "speed"),)),
    CardDef("flame", "Flame Lance", MAGIC, cost=2, speed=1, effects=(Effect(DAMAGE, 2, ENEMY_UNIT),)),
    CardDef("sidestep", "Sidestep", SKILL, cost=1, speed=4, effects=(Effect(PREVENT, 2, YOUR_UNIT),)),
    CardDef("blaze", "Blaze", MAGIC, cost=3, speed=1, effects=(Effect(DAMAGE, 2, OPPONENT),)),
    CardDef("warcry", "War Cry", SKILL, cost=1, speed=2, effects=(Effect(BOOST, 1, YOUR_UNIT, "attack"),)),
    CardDef("oath", "Wanderer's Oath", STATUS, speed=2, range="near", attack=1),
    # Stone Bastion
    CardDef("bearer", "Shield Bearer", UNIT, cost=2, speed=1, range="near", attack=1, hp=4),
    CardDef("archer", "Watch Archer", UNIT, cost=2, speed=2, range="far", attack=1, hp=2),
    CardDef("golem", "Stone Golem", UNIT, cost=4, speed=1, range="near", attack=3, hp=6),
    CardDef("guardian", "Old Guardian", UNIT, cost=5, speed=3, range="middle", attack=3, hp=5, unique=True),
    CardDef("herb", "Healing Herb", ITEM, cost=1, speed=1,
            effects=(Effect(HEAL, 3, YOUR_UNIT), Effect(RECOVERY, 1))),
    CardDef("second_wind", "Second Wind", ITEM, cost=3, speed=1, effects=(Effect(RECOVERY, 4),),
            reversal=Condition("your main deck", 2, True)),
    CardDef("bulwark", "Bulwark", SKILL, cost=1, speed=3,
            effects=(Effect(PREVENT, 2, YOUR_UNIT), Effect(PROTECT, 0, YOUR_UNIT))),
    CardDef("mend", "Mend", MAGIC, cost=2, speed=1, effects=(Effect(RECOVERY, 3),)),
    CardDef("riposte", "Riposte", SKILL, cost=2, speed=3, effects=(Effect(DAMAGE, 1, ENEMY_UNIT),)),
    CardDef("wall", "Earthen Wall", MAGIC, cost=2, speed=2, effects=(Effect(PREVENT, 2, YOU),), blessing=3),
    CardDef("mail", "Iron Mail", EQUIPMENT, cost=1, speed=1, effects=(Effect(BOOST, 2, YOUR_UNIT, "hp"),)),
    CardDef("resolve", "Warden's Resolve", STATUS, speed=1),
)})

EMBER = Deck("ember", "Ember Vanguard",
             main=(("scout", 20), ("lancer", 18), ("drake", 4), ("flask", 4), ("boots", 4)),
             skills=(("flame", 20), ("sidestep", 12), ("blaze", 8), ("warcry", 10)),
             status=(("oath", 1),))
BASTION = Deck("bastion", "Stone Bastion",
               main=(("bearer", 20), ("archer", 15), ("golem", 10), ("guardian", 1), ("herb", 2), ("second_wind", 2)),
               skills=(("bulwark", 16), ("mend", 8), ("riposte", 12), ("wall", 3), ("mail", 11)),
               status=(("resolve", 1),))

EXAMPLE_DUELISTS = (Duelist("ember", "Ember Vanguard", EMBER), Duelist("bastion", "Stone Bastion", BASTION))
