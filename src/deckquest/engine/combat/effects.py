"""An override for card effects: a registry from card name to effect.

Cards do what their rules text says as far as the effect vocabulary reaches
(`deckquest.cards.oracle`, executed by `resolve.py`). A card registered here
under its English name does its registered `Effect` instead of its text's
effects: the engine calls `resolve` when such a spell resolves, or when such a
permanent enters the battlefield (its enters trigger). It serves card text the
vocabulary cannot say, and tests.
"""

from __future__ import annotations

from dataclasses import dataclass
import random
from typing import Callable, Final, TYPE_CHECKING

from deckquest.cards.model import Card
from deckquest.engine.game import Events

if TYPE_CHECKING:  # the battle state imports the registry's users
    from deckquest.engine.combat.state import Battle


@dataclass(frozen=True)
class Effect:
    """`resolve(battle, controller_id, card_id, x, rng, events)` changes the battle
    state (plain data), draws randomness only from `rng` and reports through `events`
    (a list of dicts, or None when nobody records)."""

    resolve: Callable[[Battle, str, int, int, random.Random, Events], None]


REGISTRY: Final[dict[str, Effect]] = {}


def register(card_name: str, effect: Effect) -> None:
    REGISTRY[card_name] = effect


def effect_of(card: Card) -> Effect | None:
    return REGISTRY.get(card.name)
