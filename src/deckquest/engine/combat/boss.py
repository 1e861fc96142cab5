"""The enemies beyond the horde, and the greedy policy that plays a boss.

- `PlayerNpc` (T-8.3): a boss with its own deck, life and hand; a player under
  the rules. It is a `PC` record on the enemy team during the battle and is
  beaten at life 0 or when it must draw from an empty library. Options of
  T-6.1 and T-6.5: `life` below its usual value (the GM's traps), `turns=2`
  (two turns in a row), `permanents` (cards of its deck that start on the
  battlefield).
- `CreatureNpc` (T-8.1) and `PlaneswalkerNpc` (T-8.2): one card each, put on
  the horde side's battlefield at the start (T-6.3). A creature NPC fights as a
  horde creature (it attacks each turn); a planeswalker NPC uses one loyalty
  ability each enemy turn and can be attacked; at 0 loyalty it is beaten.
- `HordeNpc` (T-6.1): a Horde Magic deck, as `run_battle` always took.

The boss's policy is greedy (as the survivors' `greedy` agent): play a land,
then the best play worth anything (`casting.play_value`), again and again;
attack with creatures no blocker can profitably stop (or when it has more
creatures than the party can block); block to kill attackers, and chump-block
when the attack would kill it; counter the survivors' spells worth countering.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, Sequence

from deckquest.cards.model import Card
from deckquest.cards.oracle import Ability
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.casting import activate, activations, cast, castable, play_value
from deckquest.engine.combat.combat import can_attack, can_block, declare_attacker
from deckquest.engine.combat.profile import DEATHTOUCH, DOUBLE_STRIKE, FIRST_STRIKE, INDESTRUCTIBLE, profile
from deckquest.engine.combat.resolve import (
    STACK, Ref, WorthMemo, ability_value, activated_abilities, choose_picks, permanent_value, resolve,
)
from deckquest.engine.combat.state import (
    HORDE, Battle, Side, enter_battlefield, facts_of, keywords_of, permanent_of, power, toughness,
)
from deckquest.engine.game import Events
from deckquest.engine.pc import OPENING_HAND, PC, draw, shuffle
from deckquest.engine.permanents import Permanent

#: A survivors' spell is worth a counterspell from this mana value up (or when it targets the boss's side).
COUNTER_WORTHY: Final = 3


@dataclass(frozen=True)
class PlayerNpc:
    """T-8.3: a boss: one deck = one character. See the module docstring for the options."""

    id: str
    name: str
    cards: tuple[Card, ...]
    life: int = 20
    turns: int = 1
    permanents: tuple[str, ...] = ()


@dataclass(frozen=True)
class CreatureNpc:
    """T-8.1: a creature-type NPC, fighting as the creature its card describes."""

    id: str
    name: str
    card: Card


@dataclass(frozen=True)
class PlaneswalkerNpc:
    """T-8.2: a planeswalker-type NPC with its card's loyalty and loyalty abilities."""

    id: str
    name: str
    card: Card


@dataclass(frozen=True)
class HordeNpc:
    """T-6.1: a Horde Magic enemy: its deck's physical cards."""

    id: str
    name: str
    cards: tuple[Card, ...]


def make_boss(spec: PlayerNpc, rng: random.Random) -> PC:
    """The boss at the start of the battle: its permanents out (T-6.5, there from turn 1,
    T-6.3), the rest shuffled, an opening hand of 7 drawn (a reset library, T-6.5)."""
    boss = PC(id=spec.id, name=spec.name, cards=tuple(spec.cards), life=spec.life)
    library = list(range(len(spec.cards)))
    for name in spec.permanents:
        card = next((c for c in library if spec.cards[c].name == name), None)
        if card is None:
            raise ValueError(f"the deck of {spec.name} has no (more) {name!r} to start on the battlefield")
        library.remove(card)
        boss.battlefield.append(Permanent(card=card, owner=spec.id, summoning_sick=False,
                                          loyalty=profile(spec.cards[card]).loyalty))
    shuffle(library, rng)
    boss.library = library
    draw(boss, OPENING_HAND)
    return boss


def place_npcs(battle: Battle, cards: Sequence[Card]) -> None:
    """Creature and planeswalker NPCs enter the horde side's battlefield, there from turn 1 (T-6.3)."""
    horde = battle.horde
    for card in cards:
        horde.cards = horde.cards + (card,)
        enter_battlefield(horde, len(horde.cards) - 1).summoning_sick = False


# --- the boss's main phase -------------------------------------------------------------------


def boss_play(battle: Battle, boss: PC, rng: random.Random, events: Events) -> bool:
    """Make the boss's next play of its main phase: a land, or the most valuable cast or
    activation. Puts a spell or ability on the stack (the caller resolves it) and returns
    True; False when the boss has nothing more worth doing."""
    land = _land_to_play(boss)
    if land is not None:
        boss.hand.remove(land)
        enter_battlefield(boss, land)
        boss.land_played = True
        if events is not None:
            events.append({"event": "battle_play_land", "player": boss.id, "card": boss.cards[land].name})
        return boss_play(battle, boss, rng, events)
    options = castable(boss, battle) + activations(boss, battle)
    costs: WorthMemo = {}
    plays = [(play_value(battle, a, rng, costs), a) for a in options]
    plays = [(value, a) for value, a in plays if value > 0]
    if not plays:
        return False
    _, best = max(plays, key=lambda p: (p[0], p[1].x, -p[1].card))
    (cast if best.kind == act.CAST else activate)(battle, best, rng, events)
    return True


def _land_to_play(boss: PC) -> int | None:
    """The land the boss plays first: the first in its hand, unless it played one this turn
    (CR 305.2), the land `castable` would list first (without listing its spells for it)."""
    if boss.land_played:
        return None
    return next((card for card in boss.hand if facts_of(boss, card).is_land), None)


def boss_response(battle: Battle, rng: random.Random, events: Events) -> bool:
    """A boss answers the survivors' spell on top of the stack with a counterspell when it
    is worth it: mana value COUNTER_WORTHY or more, or aimed at the boss's side. True when
    it responded (the response is on the stack)."""
    if not battle.stack or battle.stack[-1] is None or battle.is_enemy(battle.stack[-1].controller):
        return False
    top = battle.stack[-1]
    card = battle.side(top.controller).cards[top.card]
    aimed = any(owner != STACK and battle.is_enemy(owner) for owner, _ in top.picks)
    if card.mana_value < COUNTER_WORTHY and not aimed:
        return False
    for boss in battle.fighting_bosses():
        for action in castable(boss, battle, instant_speed=True):
            if action.target == (STACK, len(battle.stack) - 1) and play_value(battle, action, rng) > 0:
                cast(battle, action, rng, events)
                return True
    return False


def planeswalker_npcs(battle: Battle, rng: random.Random, events: Events) -> None:
    """T-8.2: each planeswalker NPC uses the loyalty ability worth most to it (a + ability
    counts a little for the loyalty it adds), once per enemy turn. It does not kill itself:
    an ability whose cost would leave it at 0 loyalty (CR 704.5i: it would die) is used only
    when it wins the battle for the enemies."""
    horde = battle.horde
    for permanent in list(horde.battlefield):
        card = horde.cards[permanent.card]
        if not card.is_type("Planeswalker") or battle.outcome or permanent not in horde.battlefield:
            continue
        best = None
        for ability in activated_abilities(card):
            cost = ability.cost.loyalty if ability.cost is not None else None
            if cost is None or permanent.loyalty + cost < 0:
                continue
            picks = choose_picks(battle, HORDE, ability, 0, 0, (HORDE, permanent.card), rng)
            if picks is None:
                continue
            if permanent.loyalty + cost == 0 and not _wins(battle, permanent, ability, cost, picks, rng):
                continue
            value = ability_value(battle, HORDE, ability, picks, 0, 0, (HORDE, permanent.card)) + 0.5 * cost
            if best is None or value > best[0]:
                best = (value, cost, ability, picks)
        if best is None:
            continue
        _, cost, ability, picks = best
        permanent.loyalty += cost
        if events is not None:
            events.append({"event": "battle_activate", "player": HORDE, "card": card.name, "id": permanent.card,
                           "ability": ability.text, "loyalty": permanent.loyalty})
        resolve(battle, HORDE, permanent.card, ability, picks, 0, rng, events)


def _wins(battle: Battle, walker: Permanent, ability: Ability, loyalty: int, picks: tuple[Ref, ...],
          rng: random.Random) -> bool:
    """Whether the planeswalker's ability, resolved now, beats the survivors (T-6.12): tried
    on a copy of the battle with a copy of the generator, so the battle itself draws nothing."""
    trial = battle.copy()
    trial_rng = random.Random()
    trial_rng.setstate(rng.getstate())
    copy = trial.horde.battlefield[battle.horde.battlefield.index(walker)]
    copy.loyalty += loyalty
    resolve(trial, HORDE, copy.card, ability, picks, 0, trial_rng, None)
    return trial.outcome == "defeat"


# --- combat ----------------------------------------------------------------------------------


def _kills(attacker_side: Side, attacker: Permanent, defender_side: Side, defender: Permanent) -> bool:
    damage = power(attacker_side, attacker)
    if damage <= 0 or keywords_of(defender_side, defender) & INDESTRUCTIBLE:
        return False
    return bool(keywords_of(attacker_side, attacker) & DEATHTOUCH) or damage >= toughness(defender_side, defender) - defender.damage


def _survives(mine_side: Side, mine: Permanent, their_side: Side, theirs: Permanent) -> bool:
    first = FIRST_STRIKE | DOUBLE_STRIKE
    if keywords_of(mine_side, mine) & first and not keywords_of(their_side, theirs) & first \
            and _kills(mine_side, mine, their_side, theirs):
        return True
    return not _kills(their_side, theirs, mine_side, mine)


def boss_attacks(battle: Battle, boss: PC, events: Events) -> None:
    """Attack the PC with the least life with each creature that no untapped PC creature can
    block to kill it and live (or with everything when the boss has more attackers than the
    party has blockers); the biggest of them at a PC's planeswalker when they can kill it."""
    targets = sorted(battle.fighting(), key=lambda pc: (pc.life, pc.id))
    if not targets:
        return
    defender = targets[0]
    blockers = [(pc, p) for pc in battle.fighting() for p in pc.battlefield
                if facts_of(pc, p.card).is_creature and not p.tapped]
    ready = [p for p in boss.battlefield if can_attack(boss, p)]
    swarm = len(ready) > len(blockers) + 1
    going = []
    for permanent in ready:
        risky = any(can_block(pc, b, boss, permanent) and _kills(pc, b, boss, permanent)
                    and _survives(pc, b, boss, permanent) for pc, b in blockers)
        if swarm or not risky:
            going.append(permanent)
    # CR 508.1b: the PCs' planeswalkers can be attacked: the boss sends its biggest attackers
    # at the one with the least loyalty when they can bring it down, the rest at the PC.
    walkers = sorted(((pc, p) for pc in battle.fighting() for p in pc.battlefield
                      if pc.cards[p.card].is_type("Planeswalker")), key=lambda w: (w[1].loyalty, w[0].id))
    sent_at: dict[int, tuple[str, int]] = {}  # id(attacker) -> the planeswalker it attacks
    if walkers and going:
        pc, walker = walkers[0]
        strongest = sorted(going, key=lambda p: -power(boss, p))
        sent: list[Permanent] = []
        total = 0
        for permanent in strongest:
            if total >= walker.loyalty:
                break
            sent.append(permanent)
            total += max(0, power(boss, permanent))
        if total >= walker.loyalty:
            sent_at = {id(p): (pc.id, walker.card) for p in sent}
    for permanent in going:
        owner, walker_card = sent_at.get(id(permanent), (defender.id, -1))
        declare_attacker(battle, boss.id, permanent.card, owner, events, defender_card=walker_card)


def boss_blocks(battle: Battle, boss: PC, events: Events) -> None:
    """Block the attackers coming at the boss (or its planeswalkers): kill and survive first,
    then chump the biggest while the unblocked damage would take the boss to 0."""
    attacks = sorted((a for a in battle.attacks if a.defender == boss.id and not a.blockers),
                     key=lambda a: -power(battle.side(a.owner), permanent_of(battle.side(a.owner), a.card)))
    free = [p for p in boss.battlefield if facts_of(boss, p.card).is_creature and not p.tapped]
    for attack in attacks:
        side = battle.side(attack.owner)
        attacker = permanent_of(side, attack.card)
        good = [b for b in free if can_block(boss, b, side, attacker) and _kills(boss, b, side, attacker)
                and _survives(boss, b, side, attacker)]
        if good:
            chosen = min(good, key=lambda b: permanent_value(boss, b))
            attack.blockers.append((boss.id, chosen.card))
            free.remove(chosen)
    incoming = sum(power(battle.side(a.owner), permanent_of(battle.side(a.owner), a.card))
                   for a in attacks if not a.blockers and a.defender_card < 0)
    for attack in attacks:
        if incoming < boss.life or attack.blockers:
            continue
        side = battle.side(attack.owner)
        attacker = permanent_of(side, attack.card)
        chumps = [b for b in free if can_block(boss, b, side, attacker)]
        if chumps:
            chosen = min(chumps, key=lambda b: permanent_value(boss, b))
            attack.blockers.append((boss.id, chosen.card))
            free.remove(chosen)
            incoming -= power(side, attacker)
    if events is not None:
        for attack in attacks:
            for _, blocker in attack.blockers:
                events.append({"event": "battle_block", "player": boss.id, "card": boss.cards[blocker].name,
                               "id": blocker, "attacker": battle.side(attack.owner).cards[attack.card].name})
