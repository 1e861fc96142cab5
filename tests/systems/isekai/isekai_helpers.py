"""Small duels built from one-name decks, so that a test knows every card dealt."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Hashable

from deckquest.dsl.resolver import compile_file
from deckquest.systems import load_all

from deckquest.engine.game import CHANCE
from deckquest.systems.isekai.cards import (
    DAMAGE, ENEMY_UNIT, OPPONENT, PREVENT, RECOVERY, ANY_UNIT, SKILL, MAGIC, STATUS, UNIT,
    CardDef, CardSet, Condition, Deck, Duelist, Effect,
)
from deckquest.systems.isekai.duel import DuelState, new_duel
from deckquest.systems.isekai.rules import Rules

CARDS = CardSet({card.id: card for card in (
    CardDef("knight", "Road Knight", UNIT, cost=2, speed=2, range="near", attack=2, hp=3),
    CardDef("blob", "Mud Blob", UNIT, cost=1, speed=1, range="near", attack=1, hp=9),
    CardDef("hawk", "Storm Hawk", UNIT, cost=1, speed=4, range="far", attack=1, hp=1),
    CardDef("sprinter", "Sprinter", UNIT, cost=1, speed=4, range="near", attack=1, hp=3),
    CardDef("archer", "Hill Archer", UNIT, cost=1, speed=3, range="far", attack=1, hp=2),
    CardDef("lancer", "Lancer", UNIT, cost=1, speed=2, range="middle", attack=2, hp=2),
    CardDef("phoenix", "Ember Phoenix", UNIT, cost=3, speed=4, range="middle", attack=3, hp=1,
            reversal=Condition("your main deck", 5, True)),
    CardDef("parry", "Parry", SKILL, cost=1, speed=3, effects=(Effect(PREVENT, 2, ANY_UNIT),)),
    CardDef("flare", "Flare", MAGIC, cost=1, speed=1, effects=(Effect(DAMAGE, 2, ANY_UNIT),)),
    CardDef("ward", "Ward", SKILL, cost=1, speed=2, effects=(Effect(PREVENT, 2, ANY_UNIT),)),
    CardDef("blast", "Blast", MAGIC, cost=1, speed=1, effects=(Effect(DAMAGE, 3, OPPONENT),)),
    CardDef("zap", "Zap", SKILL, cost=1, speed=3, effects=(Effect(DAMAGE, 1, ENEMY_UNIT),)),
    CardDef("bolt", "Bolt", MAGIC, cost=1, speed=1, effects=(Effect(DAMAGE, 1, OPPONENT),)),
    CardDef("mend", "Mend", MAGIC, cost=1, speed=1, effects=(Effect(RECOVERY, 3),)),
    CardDef("quick", "Quick Feet", STATUS, speed=1),
    CardDef("fighter", "Fighter's Oath", STATUS, speed=1, attack=1, range="near"),
)})


def deck(main: dict[str, int], skills: dict[str, int] | None = None, status: dict[str, int] | None = None,
         name: str = "d") -> Deck:
    return Deck(name, name, tuple(main.items()), tuple((skills or {"parry": 50}).items()),
                tuple((status or {}).items()))


def duel(first: Deck, second: Deck, rules: Rules | None = None, seed: int = 0,
         cards: CardSet = CARDS) -> tuple[DuelState, random.Random]:
    """A dealt duel in which ``first`` (seat "a", given +1 status speed) goes first (I-3)."""
    if not any(card == "quick" for card, _ in first.status):
        first = Deck(first.id, first.name, first.main, first.skills, first.status + (("quick", 1),))
    state = new_duel((Duelist("a", "A", first), Duelist("b", "B", second)), cards, rules)
    rng = random.Random(seed)
    decision = state.decision()
    assert decision.actor == CHANCE
    state.apply(decision.actions[0], rng)
    return state, rng


def act(state: DuelState, rng: random.Random, *actions: Hashable, events: list[dict[str, Any]] | None = None) -> None:
    """Apply each action through the step API, first checking it is legal."""
    for action in actions:
        decision = state.decision()
        assert action in decision.actions, f"{action} not legal for {decision.actor} ({decision.kind}): {decision.actions}"
        state.apply(action, rng, events)


def uids(state: DuelState, seat: str) -> list[int]:
    return [unit.uid for unit in state.players[state.seat_index(seat)].field]


def summon(state: DuelState, rng: random.Random, card_a: str, card_b: str) -> tuple[int, int]:
    """a plays card_a, b answers with card_b, a passes: both units resolve (I-5, I-R5).
    Both pay with mana. Returns the two units' numbers; the right is b's."""
    cost_a, cost_b = CARDS[card_a].cost, CARDS[card_b].cost
    act(state, rng, ("play", "hand", card_a, None, cost_a), ("play", "hand", card_b, None, cost_b), ("pass",))
    return uids(state, "a")[-1], uids(state, "b")[-1]


KNIGHTS_DECK = deck({"knight": 50})


SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
FRONTIER = SCENARIOS / "frontier_duel" / "frontier_duel.quest"
ROAD = SCENARIOS / "road_duel" / "road_duel.quest"


def bundled(path: Path = FRONTIER):
    """The card set and duelists of a bundled duel scenario, compiled as a user's would be."""
    load_all()
    table = compile_file(path).system_table
    return table.cards, table.duelists
