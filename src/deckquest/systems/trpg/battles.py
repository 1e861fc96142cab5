"""What the interpreter needs around the battle engine (docs/battles.md, "Battles in scenarios").

A ``battle against …`` statement opens a fight (``deckquest.engine.combat.open_fight``) and
leaves it in the run's state (``RunState.battle``, a ``BattleInProgress``); each later
``Run.step`` answers one of the survivors' decisions, and the step that ends the battle closes
it. This module holds the pieces around that: the record of the battle in progress, the
engine's enemy for each kind of NPC, the battle agent that keeps the party from escaping when
the script has no ``escape:`` block, the event log that passes the engine's events on as they
happen, each stamped with the game clock, and the summary event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckquest.engine.combat.actions import ESCAPE
from deckquest.engine.combat.battle import Fight
from deckquest.engine.combat.boss import CreatureNpc, HordeNpc, PlaneswalkerNpc, PlayerNpc
from deckquest.engine.combat.state import HORDE

#: Game minutes a battle turn takes (either side's turn): about one sorcery-speed action,
#: the time T-2.3 gives a sorcery and T-6.7 allows once per turn.
BATTLE_TURN_MINUTES = 1


@dataclass
class BattleInProgress:
    """A battle statement's battle between two of the survivors' decisions: plain data, held in
    ``RunState.battle`` (cloned with the state, saved by ``runtime/saves.py``). The PCs that fight are ``fight.battle.survivors``'
    ids, and the run's own PCs stay as they were until the battle is closed. The statement is
    the one before the index of frame ``depth - 1`` (time a preparation check took may have
    queued triggers above it)."""

    fight: Fight
    depth: int  # the frames below the battle's triggers: the statement's frame is the last of them
    enemies: list[str]  # the NPC ids that fight (the `combat` event's)
    before: list[tuple[str, str]]  # every PC's T-7 status as the battle began
    reached: list[int] = field(default_factory=list)  # turns begun (for `battle turn N` triggers)
    start: int = 0  # the game clock as the battle began: its first turn's
    clock: int = 0  # the clock its events carry now (BattleLog)

    def names(self, scenario) -> dict[str, str]:
        """The enemies' names, for a transcript resumed mid-battle (the ``combat`` event said them)."""
        return {npc: scenario.npcs[npc].name for npc in self.enemies}

    def clone(self) -> "BattleInProgress":
        return BattleInProgress(self.fight.copy(), self.depth, list(self.enemies), list(self.before), list(self.reached),
                                self.start, self.clock)


def enemy(npc):
    """The battle engine's enemy for a scenario NPC (T-6.1, T-8.1 to T-8.3)."""
    if npc.kind == "horde":
        return HordeNpc(npc.id, npc.name, tuple(npc.deck.main_cards()))
    if npc.kind == "player":
        return PlayerNpc(npc.id, npc.name, tuple(npc.deck.main_cards()),
                         life=npc.life if npc.life is not None else 20)
    if npc.kind == "creature":
        return CreatureNpc(npc.id, npc.name, npc.battle_card())
    return PlaneswalkerNpc(npc.id, npc.name, npc.battle_card())


def one_horde(enemies: list) -> list:
    """The engine fights at most one horde: several hordes are shuffled together into one
    horde deck, cut as one (T-6.4), named after the first."""
    hordes = [e for e in enemies if isinstance(e, HordeNpc)]
    if len(hordes) < 2:
        return enemies
    merged = HordeNpc(hordes[0].id, hordes[0].name, tuple(c for h in hordes for c in h.cards))
    return [e for e in enemies if not isinstance(e, HordeNpc)] + [merged]


def defeated_enemies(result, fought: list[str], scenario) -> list[str]:
    """The NPC ids the battle beat (``EnemyResult.defeated``); a beaten horde is every horde
    NPC that fought."""
    beaten = []
    for outcome in result.enemies:
        if not outcome.defeated:
            continue
        if outcome.id == HORDE:
            beaten += [n for n in fought if scenario.npcs[n].kind == "horde"]
        else:
            beaten.append(outcome.id)
    return [n for n in fought if n in beaten]


#: A battle agent's optional shortcuts (``engine.combat.battle.BattleAgent``).
SHORTCUTS = ("choose_land", "planned_attacks", "planned_blocks")


class NoEscape:
    """A battle agent for a battle whose script has no ``escape:`` block: the party cannot
    escape (docs/language.md), so the escape actions are never offered to ``agent``.

    The agent's shortcuts (``engine.combat.battle.BattleAgent``: the land to play, the attacks
    and blocks of its plan) are its own: the lands, attacks and blocks they choose among are
    never escapes (T-6.6: escaping is a main phase's non-combat action, T-6.7).
    """

    def __init__(self, agent):
        self.agent = agent
        for shortcut in SHORTCUTS:
            if hasattr(agent, shortcut):
                setattr(self, shortcut, getattr(agent, shortcut))

    def choose(self, battle, actions, rng):
        return self.agent.choose(battle, [a for a in actions if a.kind != ESCAPE], rng)


class BattleLog(list):
    """The ``events`` list given to ``run_battle``: each engine event is passed on at once,
    as ``{"event", "clock", …}``; a battle turn begins ``BATTLE_TURN_MINUTES`` after the one
    before it, the first at ``start``."""

    def __init__(self, publish, start: int):
        super().__init__()
        self.publish = publish
        self.start = start
        self.clock = start

    def append(self, event: dict) -> None:
        if event["event"] == "battle_turn":
            self.clock = self.start + (event["turn"] - 1) * BATTLE_TURN_MINUTES
        stamped = {"event": event["event"], "clock": self.clock}
        stamped.update(event)
        super().append(stamped)
        self.publish(stamped)

    def extend(self, events) -> None:
        for event in events:
            self.append(event)


def summary(result, line: int, enemies: list[str], defeated: list[str]) -> dict:
    """The fields of the ``battle`` event: the engine's ``BattleResult``, per PC too. With no
    result (no PC could fight), the battle is lost without a turn (T-6.12)."""
    if result is None:
        return {"line": line, "enemies": enemies, "defeated": [], "outcome": "defeat", "turns": 0,
                "survivor_turns": 0, "horde_turns": 0, "preparation_turns": 0, "pcs": [],
                "horde_library_left": None, "horde_creatures_left": None, "horde_cut": 0}
    return {
        "line": line, "enemies": enemies, "defeated": defeated, "outcome": result.outcome,
        "turns": result.turns, "survivor_turns": result.survivor_turns, "horde_turns": result.horde_turns,
        "preparation_turns": result.preparation_turns,
        "pcs": [{"id": pc.id, "life_before": pc.life_before, "life_after": pc.life_after,
                 "status": pc.status, "life_lost": pc.life_lost, "life_gained": pc.life_gained,
                 "damage_dealt": pc.damage_dealt, "damage_taken": pc.damage_taken,
                 "cards_milled": pc.cards_milled, "spells_cast": pc.spells_cast} for pc in result.pcs],
        "horde_library_left": result.horde_library_left,
        "horde_creatures_left": result.horde_creatures_left, "horde_cut": result.horde_cut,
        **({"stopped": result.stopped} if result.stopped else {}),
    }
