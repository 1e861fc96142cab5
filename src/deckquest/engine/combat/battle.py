"""`run_battle`: the one call the scenario interpreter makes for a battle.

It takes the party's PCs and the enemies, lets an agent make the survivors'
decisions until the battle ends, writes life, zones and status back into the
PCs and returns a `BattleResult`. See docs/battles.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from deckquest.cards.model import Card
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.state import Battle
from deckquest.engine.combat.turns import apply_legal, legal_actions, start_battle
from deckquest.engine.pc import PC


class BattleAgent(Protocol):
    """Makes the survivors' decisions: picks one of the legal actions."""

    def choose(self, battle: Battle, actions: list[Action], rng: random.Random) -> Action: ...


@dataclass(frozen=True)
class PCBattleResult:
    """One PC's battle: life before and after, T-7 status after, and its tallies."""

    id: str
    life_before: int
    life_after: int
    status: str
    life_lost: int
    life_gained: int
    damage_dealt: int
    damage_taken: int
    cards_milled: int
    spells_cast: int


@dataclass(frozen=True)
class BattleResult:
    """How a battle ended. `turns` counts both sides' turns (preparation turns included)."""

    outcome: str  # "victory", "defeat" or "escape"
    turns: int
    survivor_turns: int
    horde_turns: int
    preparation_turns: int
    pcs: tuple[PCBattleResult, ...]
    horde_library_left: int
    horde_creatures_left: int
    horde_cut: int

    @property
    def life_lost(self) -> dict[str, int]:
        return {pc.id: pc.life_lost for pc in self.pcs}

    @property
    def damage_dealt(self) -> int:
        return sum(pc.damage_dealt for pc in self.pcs)

    @property
    def damage_taken(self) -> int:
        return sum(pc.damage_taken for pc in self.pcs)

    @property
    def cards_milled(self) -> int:
        return sum(pc.cards_milled for pc in self.pcs)


def run_battle(
    pcs: Sequence[PC],
    enemies: Sequence[Card],
    agent: BattleAgent,
    rng: random.Random,
    rules: str = "2019",
    prepare: bool | int = True,
    events: list | None = None,
    cut: bool = True,
    on_turn: Callable[[int], None] | None = None,
) -> BattleResult:
    """Fight a horde (`enemies`: the horde deck's physical cards) with the PCs.

    The PCs are updated in place when the battle ends: life, zones, T-7 status
    (their concentration counter is as before the battle). `prepare` as in
    `start_battle` (True: the T-6.2 check). Events, if a list is given, are
    appended as dicts with an "event" key. `on_turn(n)` is called once for each
    turn n that began (for `when battle turn N` triggers; it may be called after
    the turn's first actions, never before the turn began). Same inputs and seed,
    same battle.
    """
    copies = [pc.copy() for pc in pcs]
    battle = start_battle(copies, enemies, rng, rules=rules, prepare=prepare, events=events, cut=cut)
    reported = 0
    while True:
        if on_turn is not None:
            for turn in range(reported + 1, battle.turn + 1):
                on_turn(turn)
            reported = battle.turn
        if battle.step == "over":
            break
        actions = legal_actions(battle)
        apply_legal(battle, agent.choose(battle, actions, rng), actions, rng, events)
    result = _result(battle, pcs)
    for original, fought in zip(pcs, battle.survivors):
        write_back(original, fought)
    if events is not None:
        events.append({"event": "battle_end", "outcome": result.outcome, "turns": result.turns})
    return result


def write_back(pc: PC, fought: PC) -> None:
    """Copy the battle's outcome for one PC into the party's PC (its concentration
    counter stays as it was: battle turns are not concentration)."""
    counter = pc.concentration_counter
    pc.life, pc.status = fought.life, fought.status
    pc.library, pc.hand, pc.battlefield = fought.library, fought.hand, fought.battlefield
    pc.graveyard, pc.exile, pc.exhaustion_zone = fought.graveyard, fought.exile, fought.exhaustion_zone
    pc.boost_exile, pc.boost_used, pc.land_played = fought.boost_exile, fought.boost_used, fought.land_played
    pc.concentration_counter = counter


def _result(battle: Battle, pcs: Sequence[PC]) -> BattleResult:
    horde = battle.horde
    results = []
    for before, after in zip(pcs, battle.survivors):
        tally = battle.tallies[after.id]
        results.append(PCBattleResult(
            id=after.id, life_before=before.life, life_after=after.life, status=after.status,
            life_lost=tally.life_lost, life_gained=tally.life_gained, damage_dealt=tally.damage_dealt,
            damage_taken=tally.damage_taken, cards_milled=tally.cards_milled, spells_cast=tally.spells_cast,
        ))
    return BattleResult(
        outcome=battle.outcome, turns=battle.turn, survivor_turns=battle.survivor_turns,
        horde_turns=battle.horde_turns, preparation_turns=battle.preparation_given,
        pcs=tuple(results), horde_library_left=len(horde.library),
        horde_creatures_left=sum(1 for p in horde.battlefield if horde.cards[p.card].is_creature),
        horde_cut=horde.cut,
    )
