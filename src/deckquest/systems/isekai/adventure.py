"""A duel inside an isekai-world adventure: ``duel against NPC with DECK [by PC]:`` with
``victory:``, ``defeat:`` and ``draw:`` blocks, the way ``battle`` works (docs/isekai.md,
"Duels in an adventure").

The adventure's rules for its duels are the script's own: a script whose header says
``system isekai`` follows I-1 to I-19 with the readings its header picks. The duel is played
to its end inside the statement (it cannot be saved half-way); its events are then
published, firing the script's duel triggers, and the outcome's block runs. The run keeps
the duel as its game until the next one: the triggers' ``{duelist}`` and ``duelist.main``
read it, and `deckquest sim` records it.
"""

from __future__ import annotations

from typing import Any

from deckquest.engine.game import CHANCE, Agent, draw_chance
from deckquest.systems.isekai.agents import GreedyAgent, HumanAgent, RandomAgent
from deckquest.systems.isekai.cards import Duelist
from deckquest.systems.isekai.duel import new_duel
from deckquest.systems.isekai.language import DuelStmt, place
from deckquest.systems.isekai.rules import Rules

SEAT_AGENTS: dict[str, type[GreedyAgent] | type[RandomAgent]] = {"greedy": GreedyAgent, "random": RandomAgent}


def party_agent(run: Any) -> Agent:
    """Who duels for the PC: a person when the run asks one (through the run's own prompt),
    random for a random run, else greedy."""
    agent = run.agent
    name = getattr(agent, "name", "")
    if name == "human":
        return HumanAgent(input=agent.input, output=agent.output)
    return RandomAgent() if name == "random" else GreedyAgent()


def duel(run: Any, stmt: DuelStmt, frame: Any) -> None:
    table = run.scenario.system_table
    npc_id, deck_id, by = table.duels[place(stmt.span)]
    npc = next(d for d in table.duelists if d.id == npc_id)
    pc = run.state.pcs[by or frame.pc or next(iter(run.state.pcs))]
    hero = Duelist(pc.id, pc.name, table.decks[deck_id])
    state = new_duel((hero, npc), table.cards, Rules.from_readings(run.scenario.readings))
    agents: dict[str, Agent] = {hero.id: party_agent(run), npc.id: SEAT_AGENTS[table.plays.get(npc.id) or "greedy"]()}
    events: list[dict] = []
    while True:
        decision = state.decision()
        if decision.over:
            break
        if decision.actor == CHANCE:
            action = draw_chance(decision, run.rng)
        else:
            action = agents[decision.actor].choose(state, decision, run.rng)
        state.apply(action, run.rng, events)
    result = state.outcome() or {}
    kind = "draw" if result.get("winner") is None else "victory" if result["winner"] == hero.id else "defeat"
    block = next((outcome.body for outcome in stmt.outcomes if outcome.kind == kind), None)
    if block is not None:
        run.push(block, frame)
    run.state.game = state
    run.game_events(events)
