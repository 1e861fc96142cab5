"""The whole state of a run as plain data: where the interpreter is, and what is true.

A run's position is a stack of ``Frame`` records (a block of statements by number, the index
of the next statement, and what is bound there: the PC in scope and the degree of the check
whose block runs). Together with the PCs (``deckquest.engine.pc.PC``), NPCs, flags, counters
and the game clock it is everything a run needs to continue, so ``RunState.copy()`` is a
save game and a clone at any decision or chance point, mid-battle too (the battle in progress is
part of the state): no deepcopy, no Python call stack. A decision of the party that the run
waits for (``Asked``: a choice's option, who checks, a boost ...) is part of it too, with what
the statement that asked resumes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Hashable

from deckquest.engine.adventure import NPC_ABSENT as NPC_ABSENT, NPC_DEAD as NPC_DEAD  # the runtime's names too
from deckquest.engine.adventure import NPC_PRESENT as NPC_PRESENT, NPC_UNCONSCIOUS as NPC_UNCONSCIOUS
from deckquest.engine.checks import CheckHistory
from deckquest.engine.pc import PC


@dataclass(slots=True, init=False)
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

    def __init__(self, block: int, index: int = 0, pc: str | None = None, degree: int | None = None,
                 pending: list[str] | None = None, in_trigger: bool = False) -> None:
        self.block = block
        self.index = index
        self.pc = pc
        self.degree = degree
        self.pending = pending
        self.in_trigger = in_trigger

    def copy(self) -> "Frame":
        return Frame(self.block, self.index, self.pc, self.degree,
                     None if self.pending is None else list(self.pending), self.in_trigger)


PARTY = "party"  # who answers the adventure's decisions (Asked.actor)


@dataclass(slots=True, init=False)
class Asked:
    """A decision of the party the run waits for (``Run.decision()``, ``Run.apply(action)``),
    shaped like ``deckquest.engine.game.Decision`` (``actor``, ``kind``, ``actions``).

    ``kind`` is "choice", "pc_action", "pick_pc", "support", "boost" or "fighter"; ``actions``
    the legal answers in a stable order (a ``pc_action``'s are worked out when read,
    ``Run.decision()``: listing what every PC may cast costs a mana payment per card, and
    ``best`` answers some 30 of them a run). ``frame`` (the frame's depth in
    ``RunState.frames``) and ``at`` (the statement's index in its block) name the statement
    that asked; ``about`` is what the agent is told (plain data: labels, a PC, a kind, a
    difficulty); ``progress`` is what that statement resumes from (plain data, or a game
    system's object with ``copy()``); ``depth``, for a ``pc_action``, how many frames there
    were when the PCs began to act (more after: their actions fired triggers).
    """

    kind: str
    actions: tuple[Hashable, ...] | None
    frame: int
    at: int
    about: dict[str, Any]
    progress: Any = None
    depth: int = 0

    def __init__(self, kind: str, actions: tuple[Hashable, ...] | None, frame: int, at: int, about: dict[str, Any],
                 progress: Any = None, depth: int = 0) -> None:
        self.kind = kind
        self.actions = actions
        self.frame = frame
        self.at = at
        self.about = about
        self.progress = progress
        self.depth = depth

    # (properties, not class variables: the compiled build's dataclass would take those for fields)
    @property
    def actor(self) -> str:
        return PARTY

    @property
    def probabilities(self) -> None:
        return None

    @property
    def over(self) -> bool:
        return False

    def copy(self) -> "Asked":
        progress = self.progress
        if progress is not None:
            progress = list(progress) if type(progress) is list else progress.copy()
        return Asked(self.kind, self.actions, self.frame, self.at, dict(self.about), progress, self.depth)


@dataclass(slots=True, init=False)
class NpcState:
    """An NPC in the story: whether it appeared, cooperates (T-8.4) and how it is."""

    status: str = NPC_ABSENT
    cooperating: bool = False
    damage: int = 0
    controller: str | None = None  # the PC that took control of it (T-8.4), or None

    def __init__(self, status: str = NPC_ABSENT, cooperating: bool = False, damage: int = 0,
                 controller: str | None = None) -> None:
        self.status = status
        self.cooperating = cooperating
        self.damage = damage
        self.controller = controller


@dataclass(slots=True, init=False)
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
    asked: Asked | None = None  # the party's decision the run waits for (Run.decision())

    def __init__(self, pcs: dict[str, PC], flags: dict[str, bool], counters: dict[str, int], npcs: dict[str, NpcState],
                 frames: list[Frame] | None = None, scene: str | None = None, scene_visit: int = 0, clock: int = 0,
                 scene_started_at: int = 0, leaving_to: str | None = None, fired: set[int] | None = None,
                 checks_made: CheckHistory | None = None, items: dict[str, list[str]] | None = None,
                 choices_made: int = 0, steps: int = 0, party_dead: bool = False, outcome: str | None = None,
                 outcome_text: str = "", game: Any = None, battle: Any = None, asked: Asked | None = None) -> None:
        self.pcs = pcs
        self.flags = flags
        self.counters = counters
        self.npcs = npcs
        self.frames = [] if frames is None else frames
        self.scene = scene
        self.scene_visit = scene_visit
        self.clock = clock
        self.scene_started_at = scene_started_at
        self.leaving_to = leaving_to
        self.fired = set() if fired is None else fired
        self.checks_made = CheckHistory() if checks_made is None else checks_made
        self.items = {} if items is None else items
        self.choices_made = choices_made
        self.steps = steps
        self.party_dead = party_dead
        self.outcome = outcome
        self.outcome_text = outcome_text
        self.game = game
        self.battle = battle
        self.asked = asked

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
            asked=None if self.asked is None else self.asked.copy(),
        )

    @property
    def finished(self) -> bool:
        return self.outcome is not None
