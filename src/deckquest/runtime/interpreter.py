"""The interpreter: runs a compiled scenario against the engine, one statement per step.

``Program`` prepares a scenario once (numbers its blocks, makes each statement and condition
a closure, ``deckquest.runtime.compiled``, indexes its triggers, reads the party's card
tables); ``Run`` plays it once with an agent and a seeded ``random.Random``.
The run's position is plain data (``deckquest.runtime.state``), so a run can be saved,
restored and cloned between any two steps, and the clone continues identically.

The adventure has the engine shape (``deckquest.engine.game``): when a statement needs the
party's answer (a choice's option, the PCs' actions before it, who checks, a support, a
boost, a fighter) it records the decision in the state (``Run.ask``: ``RunState.asked``)
and returns; ``Run.decision()`` is that decision with its legal actions, ``Run.apply(action)``
refuses any other and calls the statement's handler again, which takes the answer with
``Run.resumed()``. ``step()`` answers a pending decision with the run's agent
(``choose(run, decision)``: agents only answer) or runs one statement. An answer is not a
statement step.

What happens where, in the rules' words:

* Leaving a scene (``->``) fires ``when the scene ends``, then every PC goes through scene
  end (T-2.9, with the T-4.6 boost cleanup), then the next scene starts and fires
  ``when the scene starts``. A ``->`` inside a scene-end trigger only changes the destination.
* Triggers fire in declaration order, the scenario's before the scene's, and run before the
  statement after the one that caused them (a check's triggers before its success block).
* A check by ``party`` (or with no ``by``) lets the party pick the PC ("pick_pc"); ``each`` checks PC by
  PC, each followed by its block with ``pc`` bound; ``all`` succeeds if every PC succeeds
  (``pc`` and ``degree`` are the worst check's), ``any`` if one does (the best check's).
* A PC called to a check while it has a concentration counter rests first (T-2.5, T-2.6).
  A PC that already made the very same check fails it unrevealed (T-4.12: the same
  statement, kind and difficulty in the same situation, docs/checks.md; leaving and
  re-entering a scene changes nothing); so does an unconscious or dead one.
* The clock: concentrate, rest, sorcery-speed actions 1 minute (T-2.3, T-2.4, T-2.6), sleep
  6 hours (T-2.8), ``wait N minutes``, a battle 1 minute per turn; checks, choices and
  narration take no game time.
* A battle (``battle against …``, rules section 6) is part of the run's state while it goes
  on (``RunState.battle``): the statement opens it, and each step after answers one of the
  survivors' decisions, so a run can be saved or cloned mid-battle. Its triggers (``battle
  turn N``, T-7 statuses, ``NPC is defeated``) run after it, before the outcome's block
  (``deckquest.systems.trpg.statements``).
* When every PC is dead the run ends in defeat, after the triggers of the last death.
* More than ``max_steps`` statements end the run as ``stuck`` (a loop with no way out); so
  does a choice with no option available or a scene that runs out of statements.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Container, Hashable, Iterable, Iterator, Protocol, cast

from deckquest.cards.model import Card
from deckquest.engine.colors import check_kind_word
from deckquest.i18n import _
from deckquest.dsl import ast
from deckquest.systems.trpg import nodes
from deckquest.engine import pc as pcs
from deckquest.engine.combat.battle import BattleAgent, Enemy
from deckquest.engine.combat.turns import REFLEX_KIND
from deckquest.engine.game import CHANCE, OVER, Agent, Decision, draw_chance
from deckquest.engine.game import StopRun as StopRun  # the runtime's name too
from deckquest.errors import DeckquestError, Span
from deckquest.dsl.scenario import Scenario
from deckquest.runtime import compiled
from deckquest.runtime.events import Event
from deckquest.runtime.party import PartyMember, party_from_scenario
from deckquest.runtime.state import Asked, Frame, NpcState, RunState
from deckquest.systems.trpg.battles import enemy
from deckquest.systems.trpg.statements import CheckSite
from deckquest.systems import Fired, system_of

DEFAULT_MAX_STEPS = 10_000
RECRUIT_KIND = {"2019": "white", "2014": "negotiation"}  # T-8.4 [reading], T-5.5
STUCK = "stuck"
ABANDONED = "abandoned"
PC_ACTION = "pc_action"
DONE = "done"  # a pc_action decision's answer when the PCs act no more


class _Wait:
    """``Run.ask``'s answer when the run waits for the decision (stepped): the statement returns."""

    def __repr__(self) -> str:
        return "WAIT"


WAIT = _Wait()


#: What a PC does between statements, as an agent answers: (PC id, action, card id or None).
PcAction = tuple[str, str, int | None]
#: What ``Run.on_check`` is told of each PC's check: (the statement's ``check_key``, the PC or
#: None, success, whether a card was revealed).
CheckSeen = tuple[tuple[str, int, int], str | None, bool, bool]
#: What a run's value of an expression is: a number (a flag is a bool), or a PC's name.
Value = int | str
#: A compiled condition (``compiled.condition``): its value for (run, PC in scope, degree in scope).
Cond = Callable[["Run", str | None, int | None], Value]


class ScenarioAgent(Protocol):
    """Answers the run's decisions (``deckquest.runtime.agents``); the run applies the answers.

    ``choose(run, decision)`` gets the decision the run waits for (``Run.decision()``: an
    ``Asked``) and returns one of its legal actions; it never changes the game. ``acts``
    False: the agent never lets PCs act between statements, so the run asks it no
    ``pc_action`` decision (``first`` and ``random``: six decisions a run saved).
    """

    name: str
    acts: bool

    def choose(self, run: "Run", decision: Asked) -> Hashable: ...

    def battle_agent(self) -> BattleAgent: ...


class IllegalAction(ValueError):
    """``Run.apply`` of an action that is not among the pending decision's legal ones."""


# ---------------------------------------------------------------- the prepared program


class Program:
    """A scenario prepared once for any number of runs.

    Blocks (statement lists) get numbers so a ``Frame`` can name one; triggers are indexed by
    event kind in declaration order; the party's card tables are read once.
    """

    def __init__(self, scenario: Scenario, party: list[PartyMember] | None = None):
        self.scenario = scenario
        self.system = system_of(scenario)
        self.whole_game = self.system.whole_game()
        # a game system's statements' handlers (the core's statements are made in ``compiled``)
        self.handlers: dict[type, Callable[..., None]] = dict(self.system.statement_handlers())
        self.rules = str(scenario.rules)
        self.blocks: list[list[ast.Statement]] = []
        self.block_ids: dict[int, int] = {}  # id(statement list) -> its number
        self.triggers: list[tuple[ast.Trigger, str | None, int]] = []  # (trigger, scene, block)
        for trigger in scenario.triggers:
            self._add_trigger(trigger, None)
        self.scene_blocks: dict[str, int] = {}
        for scene in scenario.scenes.values():
            for trigger in scene.triggers:
                self._add_trigger(trigger, scene.id)
            self.scene_blocks[scene.id] = self._number(scene.body)
        self.trigger_conditions: list[Cond | None] = [
            None if trigger.condition is None else compiled.condition(trigger.condition) for trigger, _, _ in self.triggers]
        self.by_event: dict[str, list[int]] = {}
        for index, (trigger, _, _) in enumerate(self.triggers):
            self.by_event.setdefault(trigger.event.kind, []).append(index)
        self.party = party if party is not None else party_from_scenario(scenario)
        if not self.party and not self.whole_game:
            raise DeckquestError("the scenario declares no PCs and no party was given",
                                 Span(str(scenario.path)), hint="run it with `--party FILE`")
        if party is not None:
            _check_party_covers_script(scenario, party)
        # What every run starts from (``Run._initial_state``), read once: each PC's deal (T-1.2)
        # and the flags, counters and NPCs as the script declares them.
        self.deals: tuple[tuple[str, str, tuple[Card, ...], frozenset[int]], ...] = tuple(
            (m.id, m.name, m.cards, m.critical_cards) for m in self.party)
        self.initial_flags: dict[str, bool] = {name: False for name in scenario.flags}
        self.initial_counters: dict[str, int] = {name: decl.initial for name, decl in scenario.counters.items()}
        self.npc_names: tuple[str, ...] = tuple(scenario.npcs)
        self.scene_triggers: dict[str | None, dict[str, tuple[tuple[ast.Trigger, int, Cond | None], ...]]] = {
            scene: self._triggers_by_kind(scene) for scene in scenario.scenes}
        self.scene_triggers[None] = self._triggers_by_kind(None)  # a whole game's, outside scenes
        # `after N minutes` triggers by trigger number: those of each scene (reset as it
        # starts), and those that can fire in it (the scenario's and its own)
        self.scene_timers: dict[str, tuple[int, ...]] = {}
        self.timers_in: dict[str | None, tuple[int, ...]] = {scene: () for scene in [*scenario.scenes, None]}
        for index in self.by_event.get("after_minutes", ()):
            where = self.triggers[index][1]
            if where is not None:
                self.scene_timers[where] = self.scene_timers.get(where, ()) + (index,)
            for name in list(self.timers_in) if where is None else (where,):
                self.timers_in[name] += (index,)
        self.sites = {id(stmt): self._site(stmt) for block in self.blocks for stmt in block
                      if isinstance(stmt, (nodes.Check, nodes.Recruit))
                      or isinstance(stmt, nodes.Battle) and stmt.prepare is not None}
        # for agents that weigh exact odds (engine/odds.py): (pc, kind, difficulty, can boost) -> chance
        self.odds_cache: dict[tuple[str, str, int, bool], Fraction] = {}
        self._enemies: dict[str, Enemy] = {}
        # each statement as a closure, parallel to ``blocks`` (``compiled``): what runs call
        self.ops = compiled.ops(self)
        # what ``Run.value`` and ``Run.render`` are asked outside the ops (a choice's labels,
        # explore's, a system's handlers), compiled on first use: node id -> (node, closure)
        self.conditions: dict[int, tuple[ast.Expr, Cond]] = {}
        self.texts: dict[int, tuple[ast.Text, Callable[[Run, Frame], str]]] = {}

    def enemy(self, npc_id: str) -> Enemy:
        """The battle engine's enemy for an NPC, its cards read once per program."""
        if npc_id not in self._enemies:
            self._enemies[npc_id] = enemy(self.scenario.npcs[npc_id])
        return self._enemies[npc_id]

    def _triggers_by_kind(self, scene: str | None) -> dict[str, tuple[tuple[ast.Trigger, int, Cond | None], ...]]:
        """The (trigger, block, compiled condition) triples that can fire in ``scene``, by
        event kind: the scenario's, then the scene's, in declaration order. Worked out once
        per scene: runs fire triggers (checks, scene changes) many times a run."""
        found: dict[str, list[tuple[ast.Trigger, int, Cond | None]]] = {}
        for (trigger, where, block), test in zip(self.triggers, self.trigger_conditions):
            if where is None or where == scene:
                found.setdefault(trigger.event.kind, []).append((trigger, block, test))
        return {kind: tuple(pairs) for kind, pairs in found.items()}

    def _site(self, stmt: nodes.Check | nodes.Recruit | nodes.Battle) -> "CheckSite":
        if isinstance(stmt, nodes.Battle):  # T-6.2: the preparation check, part of the battle
            assert stmt.prepare is not None  # a battle has a site when it is prepared by someone
            return CheckSite(check_key(stmt), stmt.prepare.kind, stmt.prepare.pc, REFLEX_KIND[self.rules],
                             _("Preparation turns (T-6.2)"), None, None, None)
        by = stmt.by
        if isinstance(stmt, nodes.Recruit):  # T-8.4: a negotiation (2019: white) check
            kind, label = RECRUIT_KIND[self.rules], _("Recruit {name}", name=self.scenario.npcs[stmt.npc].name)
        else:
            kind, label = stmt.kind, stmt.label or _("{kind} check", kind=check_kind_word(stmt.kind))
        return CheckSite(
            check_key(stmt), "party" if by is None else by.kind, by.pc if by is not None else None,
            kind, label, None if stmt.success is None else self.block_id(stmt.success),
            None if stmt.failure is None else self.block_id(stmt.failure),
            stmt.npc if isinstance(stmt, nodes.Recruit) else None, stmt.difficulty)

    def block_id(self, statements: list[ast.Statement]) -> int:
        return self.block_ids[id(statements)]

    def _add_trigger(self, trigger: ast.Trigger, scene: str | None) -> None:
        self.triggers.append((trigger, scene, self._number(trigger.body)))

    def _number(self, statements: list[ast.Statement]) -> int:
        """Give ``statements`` and every block nested in it a number."""
        number = len(self.blocks)
        self.blocks.append(statements)
        self.block_ids[id(statements)] = number
        for stmt in statements:
            for block in ast.nested_blocks(stmt):
                self._number(block)
        return number


def _check_party_covers_script(scenario: Scenario, party: list[PartyMember]) -> None:
    """A party file replaces the pre-generated PCs; the PCs the script names must be in it."""
    ids = {member.id for member in party}
    # the first place in the file, so the error points where a reader meets the name first
    for name, span in sorted(_named_pcs(scenario), key=lambda found: (found[1].line, found[1].col)):
        if name not in ids:
            raise DeckquestError(
                _("the scenario refers to the PC `{name}` by name, but the party has no PC with that id", name=name),
                span, hint=_("give one party member `id: {name}` (party ids: {ids})", name=name,
                             ids=", ".join(sorted(ids))),
            )


def _named_pcs(scenario: Scenario) -> Iterator[tuple[str, Span]]:
    """Every (PC id, span) that a statement, condition or text of the scenario names."""
    stack: list[object] = list(scenario.triggers) + list(scenario.scenes.values())
    while stack:
        node = stack.pop()
        if isinstance(node, (nodes.Who, nodes.Target)) and node.pc is not None and node.pc != "pc":
            yield node.pc, node.span
        elif isinstance(node, (ast.PcStat, ast.PcName)) and node.pc != "pc":
            yield node.pc, node.span
        elif isinstance(node, list):
            stack.extend(node)
        elif dataclasses.is_dataclass(node) and not isinstance(node, (Span, type)):
            stack.extend(getattr(node, field.name) for field in dataclasses.fields(node) if field.name != "span")


# ---------------------------------------------------------------- a run


@dataclass(init=False)
class RunResult:
    """How a run ended, and what it emitted (``events`` is None when not recorded). Its
    ``__init__`` is written out: every run of a batch makes one, and the one ``dataclass``
    makes runs interpreted in the compiled build (setup.py)."""

    outcome: str
    text: str
    scene: str | None
    steps: int
    clock: int
    events: list[Event] | None

    def __init__(self, outcome: str, text: str, scene: str | None, steps: int, clock: int,
                 events: list[Event] | None) -> None:
        self.outcome = outcome
        self.text = text
        self.scene = scene
        self.steps = steps
        self.clock = clock
        self.events = events


@dataclass
class Snapshot:
    """A saved run position: the state, the generator's state, how many events there were,
    and the agents' memory."""

    state: RunState
    rng_state: tuple[Any, ...]  # random.Random.getstate()
    event_count: int
    memory: dict[str, object]


class _EveryKind:
    """The event kinds wanted by a run that records, or whose listener takes every event."""

    def __contains__(self, kind: object) -> bool:
        return True


EVERY_KIND = _EveryKind()


class Run:
    """One play-through of a program with an agent; ``run()`` it or ``step()`` it.

    Hooks for tools that watch or steer runs (the simulator, explore mode):

    * ``listener`` gets each event; ``kinds`` names the event kinds it wants (None: all).
      An event that is neither recorded nor wanted is never built, so a listener that
      needs a few kinds costs little more than no listener.
    * ``on_statement(stmt)`` is called just before each statement runs (not for the
      bookkeeping moves between statements, nor past ``max_steps``).
    * ``on_check((site, pc, success, revealed))`` is called after each PC's check (also a
      refused one: ``revealed`` is False when no card was revealed, ``pc`` None when no PC
      could check) with one tuple: the ``check_key`` of the statement, and the PC and
      success the ``check`` event carries. It is what the simulator counts: much cheaper
      than building the full ``check`` event (21 fields), and a list's ``append`` can take it.
    * ``on_scene(scene_id)`` is called as each scene starts (the simulator's reach counts).
    * ``next_statement()`` is the statement the next ``step()`` will run, if any.
    * ``forced`` (None, True or False), when set, decides every PC's check made meanwhile:
      the cards are revealed and moved as dealt, only success and degree's sign change;
      a (success, degree) pair decides the degree too.
    """

    WAIT = WAIT  # what ``ask`` returns when the run waits (the handlers of a system compare with it)

    def __init__(self, program: Program, agent: ScenarioAgent, rng: random.Random, *, record: bool = True,
                 listener: Callable[[Event], None] | None = None, kinds: Iterable[str] | None = None,
                 on_statement: Callable[[ast.Statement], None] | None = None,
                 on_check: Callable[[CheckSeen], None] | None = None, on_scene: Callable[[str], None] | None = None,
                 max_steps: int = DEFAULT_MAX_STEPS, seed: int | None = None,
                 battle_events: bool = True, state: RunState | None = None):
        self.program = program
        self.scenario = program.scenario
        self.agent = agent
        self.agent_acts: bool = getattr(agent, "acts", True)
        # Whether ``run()``'s loop checks the agent's PC actions: not those of an agent whose
        # answers are legal by construction (``best``; ``step()`` and ``apply`` check every answer).
        self.agent_checked: bool = not getattr(agent, "legal_by_construction", False)
        # The answer a statement resumes with (``apply``), between the run's handing it over
        # and the handler's taking it (``resumed()``): never there between two steps.
        self.reply: tuple[Asked, Hashable] | None = None
        # True while ``run()`` plays: the agent answers each decision as it is asked (``ask``).
        self.inline = False
        self.rng = rng
        self.events: list[Event] | None = [] if record else None
        self.listener = listener
        self.listener_kinds: Container[str] = EVERY_KIND if kinds is None else frozenset(kinds)
        self.wanted: Container[str]
        if record:
            self.wanted = EVERY_KIND  # the kinds of event built at all
        else:
            self.wanted = self.listener_kinds if listener is not None else frozenset()
        self.on_statement = on_statement
        self.on_check = on_check
        self.on_scene = on_scene
        self.forced: bool | tuple[bool, int] | None = None
        self.battle_events = battle_events  # False: a battle emits its summary, not every turn
        self.max_steps = max_steps
        # What agents remember between decisions (``best``: the scene visit it prepared in):
        # not game state, but copied with snapshots and clones so they continue identically.
        self.memory: dict[str, object] = {}
        self.script_changes = ""  # a resumed run: the lines its script changed since the save (saves.py)
        self._seats: dict[str, Agent] | None = None  # a whole game's seats (``seats``), made when first asked
        if state is not None:  # a resumed run (runtime/saves.py): ``rng`` is in the saved state
            self.state = state
            return
        self.state = self._initial_state()
        if "start" in self.wanted:
            self.emit("start", title=self.scenario.title, rules=program.rules, seed=seed,
                       agent=getattr(agent, "name", type(agent).__name__),
                       party=[{"id": m.id, "name": m.name} for m in program.party], **self._system_fields())
        if program.whole_game:
            self.state.game = program.system.new_game(self)
        if self.scenario.start:
            self._enter(self.scenario.start)

    def _system_fields(self) -> dict[str, object]:
        """A game system's name and seats on the ``start`` event (MTG-TRPG's has neither)."""
        system = self.program.system
        if not self.program.whole_game:
            return {}
        names = system.seats(self.scenario)
        return {"system": system.name, "seats": [{"id": seat, "name": names[seat][0], "agent": agent.name}
                                                 for seat, agent in self.seats.items()]}

    @property
    def seats(self) -> dict[str, Agent]:
        """A whole game's seats, each with its agent (engine.game.Agent): the agent the script
        names for the seat, else the one named like the run's agent, else the system's first."""
        seats = self._seats
        if seats is None:
            system = self.program.system
            default = getattr(self.agent, "name", "first")
            if default not in system.agents:
                default = next(iter(system.agents))
            io = getattr(self.agent, "io", None)  # the person's terminal, for the human seats
            seats = {seat: system.seat_agent(name or default, self.rng, io=io)
                     for seat, (_, name) in system.seats(self.scenario).items()}
            self._seats = seats
        return seats

    def _initial_state(self) -> RunState:
        """T-1.2: every PC shuffles, draws 7 and starts at life 20."""
        program, rng = self.program, self.rng
        party = {pc_id: pcs.create_pc(pc_id, name, cards, critical, rng)
                 for pc_id, name, cards, critical in program.deals}
        return RunState(party, dict(program.initial_flags), dict(program.initial_counters),
                        {name: NpcState() for name in program.npc_names})

    # -- driving

    def step(self) -> bool:
        """Answer the pending decision with the run's agent and apply it, answer one decision
        of the battle in progress, run one statement, or do one bookkeeping move; False once
        the run has ended."""
        state = self.state
        if state.outcome is not None:
            return False
        try:
            self._step(state)
        except StopRun as stop:
            self.finish(ABANDONED, str(stop))
        return not state.finished  # (not ``state.outcome``: mypy still takes it for the None tested above)

    def _step(self, state: RunState) -> None:
        asked = state.asked
        if asked is not None:  # the party's decision: the agent answers, the run applies
            self._resume(asked, self.agent.choose(self, asked))
            return
        if state.battle is not None:  # a battle in progress: one of its decisions
            self.program.system.battle_step(self)
            return
        frames = state.frames
        if not frames:
            if state.leaving_to is not None:
                self._finish_leaving()
            elif state.game is not None:
                self._game_step(state)
            else:
                self.finish(STUCK, _("the scene `{scene}` ran out of statements", scene=state.scene))
            return
        frame = frames[-1]
        block = self.program.ops[frame.block]
        if frame.index >= len(block):
            frames.pop()
            return
        if state.party_dead and not frame.in_trigger:
            self.finish("defeat", _("Every PC is dead."))
            return
        state.steps += 1
        if state.steps > self.max_steps:
            self.finish(STUCK, _("more than {steps} steps: a loop with no way out?", steps=self.max_steps))
            return
        index = frame.index
        frame.index = index + 1
        if self.on_statement is not None:
            self.on_statement(self.program.blocks[frame.block][index])
        block[index](self, frame)

    # -- the party's decisions (the adventure's engine shape: decision(), apply(action))

    def decision(self) -> Asked | Decision | None:
        """The decision the run waits for: the party's (an ``Asked``: its kind and legal
        actions), ``OVER`` once the run has ended, or None when the next ``step()`` runs a
        statement, a bookkeeping move or a battle's decision (no one is asked)."""
        state = self.state
        if state.outcome is not None:
            return Decision(OVER, "over")
        asked = state.asked
        if asked is not None and asked.actions is None:  # a pc_action's, worked out now
            legal = self.program.system.legal_pc_actions(self)
            asked.actions = (*legal, DONE)
        return asked

    def apply(self, action: Hashable) -> None:
        """Answer the pending decision with ``action`` and go on with the statement that
        asked, up to its next decision or its end; ``IllegalAction`` if ``action`` is not
        one of the decision's legal actions (the run is unchanged then)."""
        asked = self.state.asked
        if asked is None:
            raise IllegalAction("no decision is pending: step() the run to one")
        try:
            self._resume(asked, action)
        except StopRun as stop:
            self.finish(ABANDONED, str(stop))

    def _resume(self, asked: Asked, action: Hashable) -> None:
        """Apply the answer ``action`` to ``asked`` (refused unless legal): a PC
        action is applied and the PCs are asked again; "done" goes on with the statement
        (or, when the actions fired triggers, runs it again after them); any other answer
        goes back to the statement that asked, which takes it with ``resumed()``."""
        state = self.state
        if asked.kind == PC_ACTION:
            if action != DONE:
                self._apply_pc_action(action)
                return
            state.asked = None
            frame = state.frames[asked.frame]
            if len(state.frames) > asked.depth:  # their actions fired triggers: those run first,
                frame.index = asked.at  # and the statement runs again after them
                return
        else:
            if action not in asked.actions:  # type: ignore[operator]
                raise IllegalAction(f"not one of the {asked.kind} decision's actions: {action!r}")
            state.asked = None
            frame = state.frames[asked.frame]
        self.reply = (asked, action)
        try:
            self.program.ops[frame.block][asked.at](self, frame)
        finally:
            self.reply = None

    def ask(self, kind: str, actions: tuple[Hashable, ...], frame: Frame, *, at: int | None = None,
            about: dict[str, Any] | None = None, progress: Any = None) -> Hashable:
        """The party's decision: recorded in the state (``RunState.asked``) for the statement
        running in ``frame`` (at index ``at``, else the one just begun), with ``progress``, what
        the statement goes on from (plain data). Stepped (``step()``, ``apply``), the run waits:
        ``WAIT`` is returned, the statement returns, and the run hands it the answer later
        (``resumed()``). In ``run()``'s loop, where nobody steps in between, the run's agent
        answers at once and the answer is returned, checked: the same decision at the same
        point, without leaving the statement (the hot loop of batch runs)."""
        frames = self.state.frames
        depth = len(frames) - 1
        while frames[depth] is not frame:
            depth -= 1
        asked = self.state.asked = Asked(kind, actions, depth, frame.index - 1 if at is None else at,
                                         {} if about is None else about, progress, len(frames))
        if not self.inline:
            return WAIT
        action = self.agent.choose(self, asked)
        if action not in actions:
            raise IllegalAction(f"not one of the {kind} decision's actions: {action!r}")
        self.state.asked = None
        return action

    def resumed(self) -> tuple[Asked, Hashable] | None:
        """The decision a statement asked and its answer, when the run resumes the statement
        with them (else None: the statement begins); taken once."""
        reply, self.reply = self.reply, None
        return reply

    def asking(self) -> ast.Statement | None:
        """The statement whose decision the run waits for, if any."""
        asked = self.state.asked
        if asked is None:
            return None
        frame = self.state.frames[asked.frame]
        return self.program.blocks[frame.block][asked.at]

    def next_decision(self) -> Asked | Decision:
        """Step until the party is asked a decision or the run ends; that decision."""
        while True:
            decision = self.decision()
            if decision is not None:
                return decision
            self.step()

    def _game_step(self, state: RunState) -> None:
        """A whole game's next decision, answered by its seat's agent or drawn by chance; the
        events the engine appends are published and fire the script's triggers."""
        game = state.game
        decision = game.decision()
        if decision.actor == OVER:
            self.finish(*self.program.system.outcome(self))
            return
        state.steps += 1
        if state.steps > self.max_steps:
            self.finish(STUCK, f"more than {self.max_steps} steps: a game with no end?")
            return
        if decision.actor == CHANCE:
            action = draw_chance(decision, self.rng)
        else:
            action = self.seats[decision.actor].choose(game, decision, self.rng)
        events: list[Event] = []
        game.apply(action, self.rng, events)
        self.game_events(events)

    def game_events(self, events: list[Event], held: list[Fired] | None = None) -> None:
        """Publish a game's events (with the clock) and queue the triggers they fire, in order.
        A game system's statement handlers call it with the events their change made. A
        sub-game in progress (an Isekai adventure's duel) passes ``held``: the triggers are
        kept there, to be queued when it ends (``fire_game_triggers``)."""
        fired: list[Fired] = [] if held is None else held
        for event in events:
            if event["event"] in self.wanted:
                self.publish({"event": event["event"], "clock": self.state.clock, **event})
            fired.extend(self.program.system.triggers_for(event))
        if held is None:
            self.fire_game_triggers(fired)

    def fire_game_triggers(self, fired: list[Fired]) -> None:
        """Queue the triggers a game's events fired, so that they run in the events' order."""
        for kind, subject, number in reversed(fired):
            self.fire(kind, pc=subject, number=number)

    def next_statement(self) -> ast.Statement | None:
        """The statement the next ``step()`` runs, or None when it does bookkeeping or answers
        a decision (the party's, or the battle's in progress)."""
        frames = self.state.frames
        if frames and self.state.battle is None and self.state.asked is None:
            frame = frames[-1]
            block = self.program.blocks[frame.block]
            if frame.index < len(block):
                return block[frame.index]
        return None

    def run(self) -> RunResult:
        """Step to the end (the hot loop of batch runs).

        The common steps, closing a finished block and running a statement of the top
        frame (its closure, ``Program.ops``), are done right here with their names at hand (one Python call less per
        step, and no attribute lookups of the program's blocks); everything else (leaving
        a scene, defeat, ``max_steps``) goes through ``_step``, which decides the very
        same way. The party's decisions are answered as they are asked (``ask``, ``act``:
        the same agent at the same points, the same answers, checked the same), so a
        statement runs through without being left and resumed; a decision pending when
        ``run()`` begins (a run stepped or resumed to it) is answered first.
        """
        state = self.state
        step = self._step
        blocks = self.program.blocks
        ops = self.program.ops
        on_statement = self.on_statement
        max_steps = self.max_steps
        self.inline = True  # decisions are answered as they are asked (``ask``)
        try:
            while state.asked is not None and state.outcome is None:  # (a run stepped to a decision)
                self._resume(state.asked, self.agent.choose(self, state.asked))
            while state.outcome is None:
                frames = state.frames
                if frames and state.battle is None:  # (a battle's decisions: through _step)
                    frame = frames[-1]
                    block = ops[frame.block]
                    index = frame.index
                    if index >= len(block):  # a finished block: back to the one around it
                        frames.pop()
                        continue
                    if state.steps < max_steps and (frame.in_trigger or not state.party_dead):
                        state.steps += 1
                        frame.index = index + 1
                        if on_statement is not None:
                            on_statement(blocks[frame.block][index])
                        block[index](self, frame)
                        continue
                step(state)
        except StopRun as stop:
            self.finish(ABANDONED, str(stop))
        finally:
            self.inline = False
        return self.result()

    def result(self) -> RunResult:
        state = self.state
        return RunResult(state.outcome or "", state.outcome_text, state.scene, state.steps,
                         state.clock, self.events)

    # -- saving and cloning

    def snapshot(self) -> Snapshot:
        return Snapshot(self.state.copy(), self.rng.getstate(),
                        len(self.events) if self.events is not None else 0, dict(self.memory))

    def restore(self, snapshot: Snapshot) -> None:
        self.state = snapshot.state.copy()
        self.memory = dict(snapshot.memory)
        self.rng.setstate(snapshot.rng_state)
        if self.events is not None:
            del self.events[snapshot.event_count:]

    def clone(self) -> "Run":
        """An independent run at the same position, with a generator in the same state."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        twin = Run(self.program, self.agent, rng, record=False, listener=self.listener, on_statement=self.on_statement,
                   on_check=self.on_check, on_scene=self.on_scene, max_steps=self.max_steps,
                   battle_events=self.battle_events, state=self.state.copy())
        twin.listener_kinds = self.listener_kinds
        twin.wanted = self.wanted
        twin.events = list(self.events) if self.events is not None else None
        twin.forced = self.forced
        twin.memory = dict(self.memory)
        twin.script_changes = self.script_changes
        twin._seats = self._seats
        return twin

    # -- events

    def emit(self, event_kind: str, /, **fields: object) -> None:
        """The event ``event_kind`` with ``fields``, if it is wanted. (The name is not ``kind``:
        the compiled build passes a positional-only argument by name too, and a ``check``
        event has a field ``kind``.)"""
        if event_kind not in self.wanted:
            return
        self.publish({"event": event_kind, "clock": self.state.clock, **fields})

    def publish(self, event: Event) -> None:
        """Record an event and hand it to the listener if it wants that kind."""
        if self.events is not None:
            self.events.append(event)
        if self.listener is not None and event["event"] in self.listener_kinds:
            self.listener(event)

    def finish(self, outcome: str, text: str) -> None:
        state = self.state
        state.outcome = outcome
        state.outcome_text = text
        state.frames.clear()
        state.asked = None
        self.emit("end", outcome=outcome, text=text, scene=state.scene)

    # -- scenes

    def _enter(self, scene_id: str) -> None:
        state = self.state
        scene = self.scenario.scenes[scene_id]
        state.scene = scene_id
        state.scene_visit += 1
        state.scene_started_at = state.clock
        timers = self.program.scene_timers.get(scene_id)
        if timers:  # a scene's `after N minutes` count from each start of the scene
            state.fired.difference_update(timers)
        if "scene" in self.wanted:
            self.emit("scene", id=scene_id, title=scene.title)
        if self.on_scene is not None:
            self.on_scene(scene_id)
        state.frames = [Frame(self.program.scene_blocks[scene_id])]
        if "scene_starts" in self.program.scene_triggers[scene_id]:
            self.fire("scene_starts")

    def goto(self, scene: str) -> None:
        """``-> scene``: the scene ends (its triggers first), then ``scene`` starts."""
        state = self.state
        state.frames.clear()
        if state.leaving_to is not None:
            state.leaving_to = scene  # a `->` in a scene-end trigger changes the destination
            return
        state.leaving_to = scene
        if "scene_ends" in self.program.scene_triggers[state.scene]:
            self.fire("scene_ends")

    def _finish_leaving(self) -> None:
        """T-2.9 scene end for every PC (with the T-4.6 cleanup), then the next scene."""
        state = self.state
        rng = self.rng
        living = [pc for pc in state.pcs.values() if pc.status != pcs.DEAD]
        before = [len(pc.exhaustion_zone) for pc in living] if "scene_end" in self.wanted else None
        for pc in living:
            pcs.scene_end(pc, rng)
        if before is not None:
            self.emit("scene_end", id=state.scene, exhausted={
                pc.id: len(pc.exhaustion_zone) - count for pc, count in zip(living, before)})
        target, state.leaving_to = state.leaving_to, None
        assert target is not None  # a `->` set where the run goes
        self._enter(target)

    # -- triggers

    def fire(self, kind: str, pc: str | None = None, npc: str | None = None,
              number: int | None = None, degree: int | None = None) -> None:
        """Queue the matching triggers' bodies so they run next, in declaration order."""
        triggers = self.program.scene_triggers[self.state.scene].get(kind)
        if triggers is None:
            return
        chosen = []
        for trigger, block, test in triggers:
            if npc is not None and trigger.event.npc != npc:
                continue
            if number is not None and trigger.event.number != number:
                continue
            if test is not None and not test(self, pc, degree):
                continue
            chosen.append(block)
        for block in reversed(chosen):
            self.state.frames.append(Frame(block, pc=pc, degree=degree, in_trigger=True))

    def advance(self, minutes: int) -> None:
        """Move the game clock, then fire the ``after N minutes`` triggers now due."""
        state = self.state
        if minutes <= 0:
            return
        state.clock += minutes
        due = []
        tests = self.program.trigger_conditions
        for index in self.program.timers_in[state.scene]:
            trigger, where, block = self.program.triggers[index]
            if index in state.fired:
                continue
            since = state.clock - (0 if where is None else state.scene_started_at)
            after = trigger.event.number
            assert after is not None  # `after N minutes`
            if since >= after:
                test = tests[index]
                if test is None or test(self, None, None):
                    due.append(block)
                    state.fired.add(index)
        for block in reversed(due):
            state.frames.append(Frame(block, 0, None, None, None, True))

    # -- values and text

    def value(self, expr: ast.Expr, pc: str | None, degree: int | None) -> Value:
        """An expression's value, with ``pc`` and ``degree`` in scope: its compiled condition
        (``compiled.condition``), made once per program."""
        made = self.program.conditions.get(id(expr))
        if made is None or made[0] is not expr:  # (the node kept beside it: an id is reused once freed)
            made = self.program.conditions[id(expr)] = (expr, compiled.condition(expr))
        return made[1](self, pc, degree)

    @staticmethod
    def subject(in_scope: str | None, span: Span) -> str:
        if in_scope is None:
            raise DeckquestError("nothing is in scope here for a game system's trigger", span)
        return in_scope

    def pc_named(self, name: str, in_scope: str | None, span: Span) -> pcs.PC:
        if name == "pc":
            if in_scope is None:
                raise DeckquestError("`pc` has no value here: no PC is in scope", span,
                                     hint="`pc` is the PC who checked, or the one a trigger is about")
            name = in_scope
        return self.state.pcs[name]

    def render(self, text: ast.Text, frame: Frame) -> str:
        """A text with its ``{…}`` parts filled in (``compiled.text``, made once per program):
        what is not a statement's own text (a choice's labels, explore's)."""
        made = self.program.texts.get(id(text))
        if made is None or made[0] is not text:
            made = self.program.texts[id(text)] = (text, compiled.text(text))
        return made[1](self, frame)

    # -- blocks

    def push(self, statements: list[ast.Statement], frame: Frame) -> None:
        """Run a nested block next; it sees the enclosing bindings (``pc``, ``degree``)."""
        self.state.frames.append(Frame(self.program.block_ids[id(statements)], 0, frame.pc,
                                       frame.degree, None, frame.in_trigger))

    def push_block(self, block: int, pc: str | None, degree: int | None, in_trigger: bool) -> None:
        """Run block number ``block`` next, with ``pc`` and ``degree`` bound (a check's outcome)."""
        self.state.frames.append(Frame(block, 0, pc, degree, None, in_trigger))

    # -- decisions

    def choice(self, stmt: ast.Choice, offers: tuple[Cond | None, ...], frame: Frame) -> None:
        """The options available now (``offers``: each option's compiled condition); the PCs
        may act first (``act``); then the party's "choice" decision, whose actions are the
        offered options' places (0-based)."""
        reply = self.resumed()
        if reply is None:
            offered = [i for i, offer in enumerate(offers) if offer is None or offer(self, frame.pc, frame.degree)]
            if not offered:
                self.finish(STUCK, _("no option of the choice at line {line} is available", line=stmt.span.line))
                return
            if self.agent_acts and self.act("choice", frame, offered):
                return
        else:
            asked, answer = reply
            offered = asked.progress
            if asked.kind == "choice":
                self._chosen(stmt, frame, offered, asked.about["labels"], cast(int, answer))
                return
        labels = [self.render(stmt.options[i].label, frame) for i in offered]
        answer = self.ask("choice", tuple(range(len(offered))), frame, about={"labels": labels}, progress=offered)
        if answer is not WAIT:
            self._chosen(stmt, frame, offered, labels, cast(int, answer))

    def _chosen(self, stmt: ast.Choice, frame: Frame, offered: list[int], labels: list[str], picked: int) -> None:
        self.state.choices_made += 1
        if "choice" in self.wanted:
            self.emit("choice", options=labels, chosen=picked + 1, label=labels[picked])
        self.push(stmt.options[offered[picked]].body, frame)

    def act(self, moment: str, frame: Frame, progress: Any = None) -> bool:
        """A decision point: the PCs may act first (concentrate, play lands, …). The party is
        asked "pc_action" decisions, one PC action at a time (``GameSystem.pc_actions``, the
        legal ones ``GameSystem.legal_pc_actions``), until it answers "done"; the statement
        then goes on (``resumed()`` gives it its ``progress`` back), or, when their actions
        fired triggers (time passed, a PC fell unconscious), runs again after them.

        True: the statement stops here and waits.
        """
        state = self.state
        frames = state.frames
        depth = len(frames) - 1
        while frames[depth] is not frame:
            depth -= 1
        asked = state.asked = Asked(PC_ACTION, None, depth, frame.index - 1, {"moment": moment}, progress, len(frames))
        if not self.inline:
            return True  # the run waits for the party's answer (``ask``)
        choose = self.agent.choose
        system = self.program.system
        allows, apply = system.allows_pc_action, system.pc_actions
        checked = self.agent_checked
        while (action := choose(self, asked)) != DONE:  # answered and applied at once (``ask``)
            if checked and not allows(self, action):  # (as ``_apply_pc_action``, without its call)
                raise IllegalAction(f"not a legal PC action now: {action!r}")
            move: PcAction = action  # type: ignore[assignment]
            asked.actions = None
            apply[move[1]](self, move[0], move[2])
        state.asked = None
        if len(frames) > asked.depth:  # their actions fired triggers: those run first,
            frame.index = asked.at  # and the statement runs again after them
            return True
        return False

    def _apply_pc_action(self, action: Hashable) -> None:
        """Apply one legal PC action (``IllegalAction`` for any other); the PCs are asked again."""
        system = self.program.system
        if not system.allows_pc_action(self, action):
            raise IllegalAction(f"not a legal PC action now: {action!r}")
        move: PcAction = action  # type: ignore[assignment]
        asked = self.state.asked
        assert asked is not None  # a pc_action decision
        asked.actions = None  # the PCs' legal actions change with each one
        system.pc_actions[move[1]](self, move[0], move[2])


# ---------------------------------------------------------------- helpers

def check_key(stmt: ast.Statement) -> tuple[str, int, int]:
    """What names a check statement in ``RunState.checks_made`` (T-4.12): where it starts.

    Plain data like the span it comes from, but a tuple of a string and ints hashes in C;
    a frozen dataclass's hash is a Python call, and each check looks its key up 2 to 4 times.
    """
    span = stmt.span
    return span.file, span.line, span.col


# ---------------------------------------------------------------- the library entry point


def run_scenario(scenario: str | Path | Scenario | Program, agent: str | ScenarioAgent = "first", seed: int = 0, *,
                 party: list[PartyMember] | None = None, choices: list[int] | None = None, record: bool = True,
                 listener: Callable[[Event], None] | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> RunResult:
    """Run a scenario once: ``scenario`` is a path, a compiled ``Scenario`` or a ``Program``.

    ``agent`` is an agent object or a name (first, random, scripted, best, human). Batch
    callers should build the ``Program`` once and pass it, with ``record=False``.
    """
    if not isinstance(scenario, Program):
        if not isinstance(scenario, Scenario):
            from deckquest.dsl.resolver import compile_file

            scenario = compile_file(scenario)
        scenario = Program(scenario, party)
    if isinstance(agent, str):
        from deckquest.runtime.agents import make_agent

        agent = make_agent(agent, choices)
    run = Run(scenario, agent, random.Random(seed), record=record, listener=listener,
              max_steps=max_steps, seed=seed)
    return run.run()
