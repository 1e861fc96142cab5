"""The horde (T-6.1, T-6.4, T-6.8 to T-6.13): an enemy that pilots itself.

It has infinite mana, no life and no choices of its own: what it must choose
(whom to attack, how to block) it chooses at random with the battle's seeded
generator (T-6.8). Its deck names tokens as cards (`40 Zombie`, T-6.13).
"""

from __future__ import annotations

import random
from typing import Final

from deckquest.cards.model import Card
from deckquest.engine.combat.combat import (
    blockers_are_legal, can_attack, can_block, declare_attacker, state_based_actions,
)
from deckquest.engine.combat.effects import effect_of
from deckquest.engine.combat.resolve import choose_picks, enters_triggers, modes_of, resolve, spell_ability
from deckquest.engine.combat.profile import MENACE, profile
from deckquest.engine.combat.state import HORDE, Battle, Horde, enter_battlefield, facts_of, permanent_of
from deckquest.engine.combat.statics import refresh_statics
from deckquest.engine.game import Events
from deckquest.engine.pc import randbelow, shuffle

#: T-6.4: library size after the cut, by the number of players (4 or more: 60).
CUT_SIZES: Final = {1: 27, 2: 36, 3: 45}
#: T-6.4: only a horde deck of this size is cut (「敵が60枚大群デッキの時は」, seed 000 line 210).
CUT_DECK_SIZE: Final = 60


def cut_size(players: int) -> int:
    return CUT_SIZES.get(players, 60)


def make_horde(cards: list[Card] | tuple[Card, ...], players: int, rng: random.Random,
               cut: bool = True) -> Horde:
    """Shuffle the horde deck and cut it (T-6.4): a 60-card horde deck is milled from the
    top until the library holds 27, 36, 45 or 60 cards for 1, 2, 3 or 4+ players. The rule
    names 60-card horde decks only: a deck of any other size (a 100-card horde, a 40-card
    one) is fought whole, as its author built it."""
    horde = Horde(cards=tuple(cards), library=list(range(len(cards))))
    shuffle(horde.library, rng)
    if cut and len(cards) == CUT_DECK_SIZE:
        excess = max(0, len(horde.library) - cut_size(players))
        horde.graveyard.extend(horde.library[:excess])
        del horde.library[:excess]
        horde.cut = excess
    return horde


def horde_main_phase(battle: Battle, rng: random.Random, events: Events) -> None:
    """T-6.9: reveal from the top until a non-token card; cast the revealed tokens,
    then the non-token card; then cast the cards that were already in hand."""
    horde = battle.horde
    waiting = horde.hand[:]
    revealed = []
    while horde.library:
        card = horde.library.pop(0)
        revealed.append(card)
        if not horde.cards[card].is_token:
            break
    if events is not None:
        events.append({"event": "battle_reveal", "player": HORDE, "cards": [horde.cards[c].name for c in revealed]})
    revealed.sort(key=lambda c: not horde.cards[c].is_token)  # tokens first, stable order
    for card in revealed + waiting:
        if card in horde.hand:
            horde.hand.remove(card)
        horde_cast(battle, card, rng, events)


def horde_cast(battle: Battle, card: int, rng: random.Random, events: Events) -> None:
    """The horde casts a card with its infinite mana (T-6.8): a permanent enters
    the battlefield (its enters abilities trigger), any other spell does what its
    text says (or its registered effect) and goes to the graveyard. Its targets are
    chosen at random (T-6.8); a spell with no legal target does nothing; X is 0."""
    horde = battle.horde
    physical = horde.cards[card]
    facts = profile(physical)
    if events is not None:
        events.append({"event": "battle_cast", "player": HORDE, "card": physical.name, "id": card})
    effect = effect_of(physical)
    if facts.is_permanent:
        enter_battlefield(horde, card)  # echo (CR 702.30): the horde's infinite mana pays it
        refresh_statics(battle)
        enters_triggers(battle, HORDE, card, rng, events, kicked=True)  # infinite mana pays any kicker
        if "Legendary" in physical.supertypes:
            state_based_actions(battle, events, rng)  # the legend rule, CR 704.5j
    if effect is not None:
        effect.resolve(battle, HORDE, card, 0, rng, events)
    elif not facts.is_permanent and (ability := spell_ability(physical)) is not None:
        mode = randbelow(rng, len(modes_of(ability)))
        picks = choose_picks(battle, HORDE, ability, mode, 0, (HORDE, card), rng, at_random=True)
        if picks is not None:
            resolve(battle, HORDE, card, ability, picks, 0, rng, events, mode)
    if not facts.is_permanent:
        horde.graveyard.append(card)


def horde_attacks(battle: Battle, rng: random.Random, events: Events) -> None:
    """T-6.9: every horde creature has haste and attacks each turn if able, each one a PC
    still in the fight or one of their planeswalkers (CR 508.1b), chosen at random (T-6.8)."""
    targets = [(pc.id, -1) for pc in battle.fighting()]
    if not targets:
        return
    targets += [(pc.id, p.card) for pc in battle.fighting() for p in pc.battlefield
                if pc.cards[p.card].is_type("Planeswalker")]
    horde = battle.horde
    for permanent in horde.battlefield:
        if can_attack(horde, permanent, haste_for_all=True):
            defender, walker = targets[randbelow(rng, len(targets))]
            declare_attacker(battle, HORDE, permanent.card, defender, events, defender_card=walker)


def horde_blocks(battle: Battle, rng: random.Random, events: Events) -> None:
    """T-6.8: each untapped horde creature blocks an attacker (of those attacking the horde
    side) it can block, or none, chosen uniformly at random; a lone blocker of a menace
    attacker is taken back."""
    horde = battle.horde
    for permanent in horde.battlefield:
        if permanent.tapped or not facts_of(horde, permanent.card).is_creature:
            continue
        options = [a for a in battle.attacks if a.defender == HORDE
                   and can_block(horde, permanent, battle.side(a.owner), permanent_of(battle.side(a.owner), a.card))]
        pick = randbelow(rng, len(options) + 1)
        if pick < len(options):
            options[pick].blockers.append((HORDE, permanent.card))
    if not blockers_are_legal(battle):
        for attack in battle.attacks:
            if len(attack.blockers) == 1 and facts_of(battle.side(attack.owner), attack.card).keywords & MENACE:
                attack.blockers.clear()
    if events is not None:
        for attack in battle.attacks:
            for _, blocker in attack.blockers:
                events.append({"event": "battle_block", "player": HORDE, "card": horde.cards[blocker].name,
                               "id": blocker, "attacker": battle.side(attack.owner).cards[attack.card].name})
