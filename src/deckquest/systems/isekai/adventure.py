"""A duel inside an isekai-world adventure: ``duel against NPC with DECK [by PC]:`` with
``victory:``, ``defeat:`` and ``draw:`` blocks, the way ``battle`` works (docs/isekai.md,
"Duels in an adventure").

The adventure's rules for its duels are the script's own: a script whose header says
``system isekai`` follows I-1 to I-19 with the readings its header picks. The statement deals
the duel; like an MTG-TRPG battle it is then part of the run's state (the duel in
``RunState.game``, a ``DuelInProgress`` in ``RunState.battle``) and each later step answers
one of its decisions (``duel_step``), so a session can be saved, resumed and cloned
mid-duel. Its events are published as they happen; the script's duel triggers they fire run
after the duel, before the outcome's block, as a battle's do. The run keeps the duel as its
game until the next one: the triggers' ``{duelist}`` and ``duelist.main`` read it, and
`deckquest sim` records it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from deckquest.engine.game import CHANCE, Agent, draw_chance
from deckquest.systems import Event, Fired, RunLike
from deckquest.systems.isekai.agents import GreedyAgent, HumanAgent, RandomAgent
from deckquest.systems.isekai.cards import Duelist
from deckquest.systems.isekai.duel import DuelState, new_duel
from deckquest.systems.isekai.language import DuelStmt, IsekaiTable, place
from deckquest.systems.isekai.rules import Rules

if TYPE_CHECKING:
    from deckquest.dsl.scenario import Scenario

SEAT_AGENTS: dict[str, type[GreedyAgent] | type[RandomAgent]] = {"greedy": GreedyAgent, "random": RandomAgent}
DUEL_AGENTS = "duel_agents"  # Run.memory: who answers each seat's decisions in the duel in progress



@dataclass
class DuelInProgress:
    """A duel statement's duel between two of its decisions (``RunState.battle``; the duel
    itself is ``RunState.game``): whose seat is the PC's, and the triggers its events fired so
    far, run when it ends. Plain data: cloned with the state, saved (``to_data``)."""

    hero: str
    npc: str
    fired: list[Fired] = field(default_factory=list)

    def clone(self) -> "DuelInProgress":
        return DuelInProgress(self.hero, self.npc, list(self.fired))

    def names(self, scenario: Scenario) -> dict[str, str]:
        """The NPC duelist's name, for a transcript resumed mid-duel (the ``deal`` event said it)."""
        table: IsekaiTable = scenario.system_table
        npc = next(duelist for duelist in table.duelists if duelist.id == self.npc)
        return {npc.id: npc.name}

    def to_data(self) -> dict[str, Any]:
        return {"hero": self.hero, "npc": self.npc, "fired": [list(trigger) for trigger in self.fired]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "DuelInProgress":
        return cls(str(data["hero"]), str(data["npc"]),
                   [(str(kind), subject, number) for kind, subject, number in data["fired"]])


def party_agent(run: RunLike) -> Agent:
    """Who duels for the PC: a person when the run asks one (through the run's own prompt),
    random for a random run, else greedy."""
    agent = run.agent
    name = getattr(agent, "name", "")
    if name == "human":
        return HumanAgent(input=agent.input, output=agent.output)
    return RandomAgent() if name == "random" else GreedyAgent()


def duel(run: RunLike, stmt: DuelStmt, frame: Any) -> None:
    """Deal the duel (I-3 is its first decision) and keep it in the run's state."""
    table: IsekaiTable = run.scenario.system_table
    npc_id, deck_id, by = table.duels[place(stmt.span)]
    npc = next(d for d in table.duelists if d.id == npc_id)
    pc = run.state.pcs[by or frame.pc or next(iter(run.state.pcs))]
    hero = Duelist(pc.id, pc.name, table.decks[deck_id])
    run.state.game = new_duel((hero, npc), table.cards, Rules.from_readings(run.scenario.readings))
    run.state.battle = DuelInProgress(hero.id, npc.id)
    run.memory[DUEL_AGENTS] = _agents(run, run.state.battle)


def _agents(run: RunLike, progress: DuelInProgress) -> dict[str, Agent]:
    table: IsekaiTable = run.scenario.system_table
    plays = table.plays
    return {progress.hero: party_agent(run), progress.npc: SEAT_AGENTS[plays.get(progress.npc) or "greedy"]()}


def duel_step(run: RunLike) -> None:
    """One decision of the duel in progress: drawn by chance or answered by its seat's agent,
    applied, its events published; the step that ends the duel runs what follows it."""
    state: DuelState = run.state.game  # the duel the statement dealt
    progress: DuelInProgress = run.state.battle  # IsekaiSystem.battle_step checked it
    agents = run.memory.get(DUEL_AGENTS)
    if agents is None:  # a resumed run: the duelists' agents start afresh
        agents = run.memory[DUEL_AGENTS] = _agents(run, progress)
    decision = state.decision()
    if decision.actor == CHANCE:
        action = draw_chance(decision, run.rng)
    else:
        action = agents[decision.actor].choose(state, decision, run.rng)
    events: list[Event] = []
    state.apply(action, run.rng, events)
    run.game_events(events, held=progress.fired)
    if state.decision().over:
        _duel_over(run, progress)


def _duel_over(run: RunLike, progress: DuelInProgress) -> None:
    """The outcome's block, then the duel's triggers above it, in the order their events came."""
    run.state.battle = None
    run.memory.pop(DUEL_AGENTS, None)
    frame = run.state.frames[-1]
    stmt = run.program.blocks[frame.block][frame.index - 1]
    result = run.state.game.outcome() or {}
    kind = "draw" if result.get("winner") is None else "victory" if result["winner"] == progress.hero else "defeat"
    block = next((outcome.body for outcome in stmt.outcomes if outcome.kind == kind), None)
    if block is not None:
        run.push(block, frame)
    run.fire_game_triggers(progress.fired)
