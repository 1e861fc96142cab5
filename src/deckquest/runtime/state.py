"""The whole state of a run as plain data: where the interpreter is, and what is true.

A run's position is a stack of ``Frame`` records (a block of statements by number, the index
of the next statement, and what is bound there: the PC in scope and the degree of the check
whose block runs). Together with the PCs (``deckquest.engine.pc.PC``), NPCs, flags, counters
and the game clock it is everything a run needs to continue, so ``RunState.copy()`` is a
save game and a clone at any decision or chance point, mid-battle too (the battle in progress is
part of the state): no deepcopy, no Python call stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from deckquest.engine.adventure import NPC_ABSENT as NPC_ABSENT, NPC_DEAD as NPC_DEAD  # the runtime's names too
from deckquest.engine.adventure import NPC_PRESENT as NPC_PRESENT, NPC_UNCONSCIOUS as NPC_UNCONSCIOUS
from deckquest.engine.checks import CheckHistory
from deckquest.engine.pc import PC


@dataclass(slots=True)
class Frame:
    """One block being run: ``block`` numbers a statement list of the compiled program.

    ``pending`` is used by ``check … by each``: the PCs still to check, while that statement
    waits for their blocks to run one after the other.
    """

    block: int
    index: int = 0
    pc: str | None = None
    degree: int | None = None
    pending: list[str] | None = None
    in_trigger: bool = False  # part of a trigger's body (runs even after the last PC died)

    def copy(self) -> "Frame":
        return Frame(self.block, self.index, self.pc, self.degree,
                     None if self.pending is None else list(self.pending), self.in_trigger)


@dataclass(slots=True)
class NpcState:
    """An NPC in the story: whether it appeared, cooperates (T-8.4) and how it is."""

    status: str = NPC_ABSENT
    cooperating: bool = False
    damage: int = 0
    controller: str | None = None  # the PC that took control of it (T-8.4), or None


@dataclass(slots=True)
class RunState:
    """Everything that changes during a run; ``copy()`` is cheap and complete."""

    pcs: dict[str, PC]
    flags: dict[str, bool]
    counters: dict[str, int]
    npcs: dict[str, NpcState]
    frames: list[Frame] = field(default_factory=list)
    scene: str | None = None
    scene_visit: int = 0  # how many scenes have started; agents key per-scene plans on it (Run.memory)
    clock: int = 0  # game minutes since the start (T-2.3, T-2.4, T-2.6, T-2.8)
    scene_started_at: int = 0
    leaving_to: str | None = None  # a scene change waiting for `when the scene ends` triggers
    fired: set[int] = field(default_factory=set)  # `after N minutes` triggers already fired
    # T-4.12: (pc, (check_key, situation), kind, difficulty) of every check made in the run
    checks_made: CheckHistory = field(default_factory=CheckHistory)
    items: dict[str, list[str]] = field(default_factory=dict)  # `give "Item" to pc`
    choices_made: int = 0
    steps: int = 0
    party_dead: bool = False  # every PC is dead: the run ends in defeat
    outcome: str | None = None  # victory, defeat, a custom outcome, or "stuck"
    outcome_text: str = ""
    game: Any = None  # a whole game system's game (deckquest.engine.game.GameState), or None
    # A sub-game in progress (MTG-TRPG's battle: systems.trpg.battles.BattleInProgress), or None:
    # while there is one, each step answers one of its decisions (GameSystem.battle_step).
    battle: Any = None

    def copy(self) -> "RunState":
        return replace(
            self,
            pcs={key: pc.copy() for key, pc in self.pcs.items()},
            flags=dict(self.flags),
            counters=dict(self.counters),
            npcs={key: replace(npc) for key, npc in self.npcs.items()},
            frames=[frame.copy() for frame in self.frames],
            fired=set(self.fired),
            checks_made=self.checks_made.copy(),
            items={key: list(value) for key, value in self.items.items()},
            game=None if self.game is None else self.game.clone(),
            battle=None if self.battle is None else self.battle.clone(),
        )

    @property
    def finished(self) -> bool:
        return self.outcome is not None
