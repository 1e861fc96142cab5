"""The hook for card effects (the next issue): a registry from card name to effect.

In this issue cards play as their type and stats: permanents enter the
battlefield, creatures fight, mana sources make mana. A card whose rules text
does something else gets it by registering an `Effect` under its English name.
The engine calls `resolve` when such a spell resolves, or when such a permanent
enters the battlefield (its enters trigger). Instants and sorceries with no
registered effect are not castable by the survivors; the horde casts them and
they do nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from deckquest.cards.model import Card


@dataclass(frozen=True)
class Effect:
    """`resolve(battle, controller_id, card_id, x, rng, events)` changes the battle
    state (plain data), draws randomness only from `rng` and reports through `events`
    (a list of dicts, or None when nobody records)."""

    resolve: Callable[..., None]


REGISTRY: dict[str, Effect] = {}


def register(card_name: str, effect: Effect) -> None:
    REGISTRY[card_name] = effect


def effect_of(card: Card) -> Effect | None:
    return REGISTRY.get(card.name)
