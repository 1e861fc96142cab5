"""Scenario agents: whoever makes the players' decisions in a run (docs/agents.md).

The run asks the party's decisions one at a time (``Run.decision()``: an ``Asked`` with its
``kind``, its legal ``actions`` and ``about``, what the agent is told); an agent answers with
``choose(run, decision) -> action``, one of the legal actions, and the run applies it
(``Run.apply``). Agents only answer; they never change the game. The kinds, and what
``Answers`` hands each to the method of its name:

* ``pc_action``: at a decision point (``about["moment"]``: ``choice``, ``check``, ``fight``,
  ``battle``, ``take control``) the PCs may act first, one action at a time, (pc id, action,
  card id): concentrate, play a land, cast a permanent, rest (T-2.3 to T-2.6; the legal ones:
  ``deckquest.engine.adventure.legal_actions``), until the answer ``"done"``. Each is
  decided on the game as the run left it after the one before.
* ``choice``: which offered option (0-based; ``about["labels"]``; ``run.asking()`` is the
  ``choice`` statement).
* ``pick_pc``: who checks for ``party`` (the actions are the PCs that may).
* ``support``: which ready creature (a battlefield index) taps to support the check (T-3.3),
  or None.
* ``boost``: boost this check (T-4.6)? Asked only when allowed; ``decision.progress.pending``
  is the check as revealed.
* ``fighter``: which creature, (pc id, battlefield index), fights an NPC (T-3.4), or None
  (then the NPC hurts a PC).

``battle_agent()`` is the battle agent (``deckquest.runtime.battle_agents``) that makes the
survivors' decisions in one battle (T-6); a new one per battle. ``acts`` False: the agent
never lets PCs act, and the run asks it no ``pc_action``.

An agent keeps no state of its own: what it must remember lives in ``run.memory`` (not in
the game state), which snapshots, clones and saves carry, so they continue identically.
"""

from __future__ import annotations

import builtins
from fractions import Fraction
from typing import Callable, Hashable, Iterator

from deckquest.cards.database import card_name
from deckquest.engine.colors import check_kind_word
from deckquest.i18n import _
from deckquest.engine.checks import PendingCheck, boost_when_failing, standing
from deckquest.engine.combat.battle import BattleAgent
from deckquest.engine import adventure
from deckquest.engine.adventure import creature_power, destroyed, exchange_damage, npc_stats
from deckquest.engine.combat.profile import profile
from deckquest.engine.game import SeatIO
from deckquest.errors import DeckquestError, UsageError
from deckquest.runtime.battle_agents import GreedyBattleAgent, HumanBattleAgent, RandomBattleAgent
from deckquest.runtime.interpreter import DONE, PC_ACTION, PcAction, Run, ScenarioAgent, StopRun
from deckquest.runtime import preparation
from deckquest.runtime.preparation import ATTACK, PLAN, PREPARE
from deckquest.runtime.state import Asked

AGENT_NAMES = ("human", "first", "random", "scripted", "best")


# Run.memory: ``best``'s plan in progress, (the run state it plays on, a generator); a copy of
# the run plays on another state, and takes the plan up from PLAN. Never saved.
LIVE = "plan_in_progress"


class Answers:
    """The one entry point of a scenario agent, ``choose(run, decision)``: each decision goes
    to the agent's method named after its kind (``choice``, ``pc_action``, ``pick_pc``,
    ``support``, ``boost``, ``fighter``), ``method(run, decision) -> action``."""

    name = ""
    acts = True  # False: never lets PCs act, and is asked no pc_action
    # True: every answer is legal as made, and ``Run.run()`` does not check it (``best``). Said
    # here for every agent: ``getattr`` with a default costs an exception when it is not.
    legal_by_construction = False

    def choose(self, run: Run, decision: Asked) -> Hashable:
        method: Callable[[Run, Asked], Hashable] = getattr(self, decision.kind)
        return method(run, decision)

    def pc_action(self, run: Run, decision: Asked) -> Hashable:
        return DONE


class FirstAgent(Answers):
    """The baseline that measures the script alone: the first offered option of every choice,
    the first declared PC for ``party``, never a boost, never a support, no PC actions."""

    name = "first"
    acts = False  # the run knows, and asks it no pc_action

    def choice(self, run: Run, decision: Asked) -> Hashable:
        return 0

    def pick_pc(self, run: Run, decision: Asked) -> Hashable:
        return decision.actions[0]  # type: ignore[index]

    def boost(self, run: Run, decision: Asked) -> Hashable:
        return False

    def support(self, run: Run, decision: Asked) -> Hashable:
        return None

    def fighter(self, run: Run, decision: Asked) -> Hashable:
        return None

    def battle_agent(self) -> BattleAgent:
        """The greedy player: the baseline measures the script, which needs a deterministic,
        fair player in battles (the first legal action would never attack nor block)."""
        return GreedyBattleAgent()


class ScriptedAgent(FirstAgent):
    """``--choose 1,2,1``: the listed option numbers for the choices in order, else as ``first``."""

    name = "scripted"

    def __init__(self, choices: list[int]) -> None:
        self.choices = list(choices)

    def choice(self, run: Run, decision: Asked) -> Hashable:
        labels = decision.about["labels"]
        stmt = run.asking()
        assert stmt is not None  # a choice statement asks this decision
        made = run.state.choices_made
        where = _("the choice in scene `{scene}` (line {line})", scene=run.state.scene, line=stmt.span.line)
        if made >= len(self.choices):
            raise DeckquestError(
                _("--choose ran out of answers at {where}, choice number {number}", where=where, number=made + 1),
                stmt.span, hint=_("add an answer from 1 to {count}: {options}", count=len(labels),
                                  options=", ".join(labels)),
            )
        number = self.choices[made]
        if not 1 <= number <= len(labels):
            raise DeckquestError(
                _("--choose answers {number} to {where}, which offers {count} options", number=number, where=where,
                  count=len(labels)),
                stmt.span, hint=_("the options: {options}", options=", ".join(labels)),
            )
        return number - 1


class RandomAgent(Answers):
    """Uniformly random legal decisions, drawn from the run's own generator.

    It takes no PC actions between statements (those are a policy, not a decision the
    script asks for); support and fighter choices include "none" as one of the options.
    """

    name = "random"
    acts = False  # the run knows, and asks it no pc_action

    def choice(self, run: Run, decision: Asked) -> Hashable:
        return run.rng.randrange(len(decision.actions))  # type: ignore[arg-type]

    def pick_pc(self, run: Run, decision: Asked) -> Hashable:
        return run.rng.choice(decision.actions)  # type: ignore[arg-type]

    def boost(self, run: Run, decision: Asked) -> Hashable:
        return run.rng.random() < 0.5

    def support(self, run: Run, decision: Asked) -> Hashable:
        options = decision.actions  # None (no support) first, then the ready creatures
        return options[run.rng.randrange(len(options))]  # type: ignore[index, arg-type]

    def fighter(self, run: Run, decision: Asked) -> Hashable:
        options = decision.actions  # None (no creature) first, then the candidates
        return options[run.rng.randrange(len(options))]  # type: ignore[index, arg-type]

    def battle_agent(self) -> BattleAgent:
        return RandomBattleAgent()


class BestAgent(Answers):
    """A fair stand-in for good players.

    * Choices: any available option with equal chance, from the run's generator. A story
      choice has no best answer, and a party of good players may take any branch; so a
      simulation with ``best`` covers every branch (``first`` and ``scripted`` fix choices).
    * ``party`` checks: the PC with the best exact odds (``deckquest.engine.odds``, on its whole
      deck, counting the boost it still has); ties go to the first declared PC.
    * Boost whenever target and result say failure (T-4.6); support with the strongest ready
      creature (T-3.3); fight with the creature that best defeats the NPC and survives.
    * PC actions, once per scene at its first decision point, for each PC that can act:
      concentrate (T-2.4), play a land (one that makes a colour its creatures need, else the
      first), cast the strongest creature it can pay for from untapped lands, as often as
      the mana allows (T-2.3), rest (T-2.6); if it cast a creature, concentrate again (so the
      creature loses summoning sickness, T-2.10, and the lands untap) and rest again, so the
      PC can make checks (T-2.5). Each action takes its minute of game time. Before a
      ``fight``, a PC with a creature and no concentration counter concentrates, so its
      creatures may attack (T-3.1).
    """

    name = "best"
    # Its PC actions are picked among what the rules allow (engine.adventure.allows: a land
    # when none was played, a creature its untapped sources pay for, concentrate without a
    # counter), so the batch loop applies them unchecked; ``step()`` and ``Run.apply`` check
    # each (tests/runtime/test_decisions.py plays it both ways).
    legal_by_construction = True

    def choose(self, run: Run, decision: Asked) -> Hashable:
        """``Answers.choose``; a pc_action (some 20 a run) is answered here, without the
        dispatch's call: the next PC action of the scene's preparation (see the class
        docstring), once per scene visit, then "done". The visit it prepared in and its place
        in the plan are agent memory (``run.memory``), plain data; the plan in progress is a
        generator kept there too (``LIVE``), with the state it plays on: a copy of the run, a
        restored or a resumed one (another state object) takes the plan up from its place."""
        if decision.kind != PC_ACTION:
            method: Callable[[Run, Asked], Hashable] = getattr(self, decision.kind)
            return method(run, decision)
        memory = run.memory
        live: tuple[object, Iterator[PcAction]] | None = memory.get(LIVE)  # type: ignore[assignment]
        if live is None or live[0] is not run.state:
            plan = memory.get(PLAN)
            if plan is None:  # the decision point's first
                fight = decision.about["moment"] == "fight"
                if memory.get("prepared_visit", 0) == run.state.scene_visit:
                    if not fight:
                        return DONE
                    plan = (ATTACK, 0, 0, False, fight)
                else:
                    memory["prepared_visit"] = run.state.scene_visit
                    plan = (PREPARE, 0, 0, False, fight)
            live = memory[LIVE] = (run.state, preparation.plan(run, memory, plan))  # type: ignore[arg-type]
        action = next(live[1], None)
        if action is None:
            memory.pop(PLAN, None)
            memory.pop(LIVE, None)
            return DONE
        return action

    def choice(self, run: Run, decision: Asked) -> Hashable:
        return run.rng.randrange(len(decision.actions))  # type: ignore[arg-type]

    def pick_pc(self, run: Run, decision: Asked) -> Hashable:
        candidates: list[str] = list(decision.actions)  # type: ignore[arg-type]
        kind, difficulty = decision.about["kind"], decision.about["difficulty"]
        return max(candidates, key=lambda pc_id: (odds(run, pc_id, kind, difficulty),
                                                  -candidates.index(pc_id)))

    def boost(self, run: Run, decision: Asked) -> Hashable:
        return boost_when_failing(run.state.pcs[decision.about["pc"]], decision.progress.pending)

    def support(self, run: Run, decision: Asked) -> Hashable:
        pc = run.state.pcs[decision.about["pc"]]
        ready: list[int] = list(decision.actions[1:])  # type: ignore[index, arg-type]
        strongest = max(ready, key=lambda index: creature_power(pc, pc.battlefield[index]))
        return strongest if creature_power(pc, pc.battlefield[strongest]) > 0 else None

    def fighter(self, run: Run, decision: Asked) -> Hashable:
        npc_id = decision.about["npc"]
        power, toughness, keywords = npc_stats(run.scenario.npcs[npc_id])
        remaining = toughness - run.state.npcs[npc_id].damage

        def value(candidate: tuple[str, int]) -> tuple[bool, bool, int]:
            pc = run.state.pcs[candidate[0]]
            permanent = pc.battlefield[candidate[1]]
            mine = profile(pc.cards[permanent.card])
            my_power = creature_power(pc, permanent)
            my_toughness = mine.toughness + permanent.plus_counters - permanent.damage
            dealt, taken = exchange_damage(my_power, mine.keywords, my_toughness,
                                            power, keywords, remaining)
            kills = destroyed(dealt, remaining, mine.keywords, keywords)
            survives = not destroyed(taken, my_toughness, keywords, mine.keywords)
            return (kills, survives, my_power)

        candidates: list[tuple[str, int]] = list(decision.actions[1:])  # type: ignore[index, arg-type]
        return max(candidates, key=value)

    def battle_agent(self) -> BattleAgent:
        return GreedyBattleAgent()


def odds(run: Run, pc_id: str, kind: str, difficulty: int) -> Fraction:
    """The exact chance the PC's check succeeds on a shuffled deck, cached per program."""
    from deckquest.engine.odds import check_probability

    pc = run.state.pcs[pc_id]
    can_boost = run.program.rules == "2019" and not pc.boost_used
    key = (pc_id, kind, difficulty, can_boost)
    cache = run.program.odds_cache
    if key not in cache:
        member = next(m for m in run.program.party if m.id == pc_id)
        cache[key] = check_probability(member.cards, member.critical_cards, kind, difficulty,
                                       rules=run.program.rules, boost=can_boost)
    return cache[key]


def legal_actions(run: Run, pc_id: str) -> list[tuple[str, int | None, str]]:
    """What one PC may do now outside combat (``deckquest.engine.adventure.legal_actions``)."""
    return adventure.legal_actions(run.state.pcs[pc_id])


STOP_WORDS = ("save", "quit")  # typed at any prompt: the run stops (and is saved with --save)


def before_moment(moment: str) -> str:
    """The human's cue to act before a choice, a check, a fight or a battle (T-2.4 to T-2.6)."""
    cues = {"choice": _("Before the choice, your PCs may act (T-2.4 to T-2.6):"),
            "check": _("Before the check, your PCs may act (T-2.4 to T-2.6):"),
            "fight": _("Before the fight, your PCs may act (T-2.4 to T-2.6):"),
            "battle": _("Before the battle, your PCs may act (T-2.4 to T-2.6):")}
    return cues.get(moment) or _("Before the {moment}, your PCs may act (T-2.4 to T-2.6):", moment=moment)


class HumanAgent(Answers):
    """Asks a person at the terminal, through injected ``input`` and ``output`` callables.

    Options are numbered; anything else is refused and asked again. End of input, or ``save``
    or ``quit`` typed at a prompt, ends the run cleanly (``StopRun``): the run's outcome is
    "abandoned" with a message (``deckquest run --save`` then saves it, docs/saves.md).
    """

    name = "human"

    def __init__(self, input: Callable[[str], str] = builtins.input,
                 output: Callable[[str], None] = print) -> None:
        self.input = input
        self.output = output

    @property
    def io(self) -> SeatIO:
        """The same terminal for a whole game's human seats (``Run.seats``)."""
        return SeatIO(self.input, self.output)

    def _ask(self, prompt: str, count: int, allow_zero: bool = False) -> int:
        low = 0 if allow_zero else 1
        while True:
            try:
                answer = self.input(prompt).strip()
            except EOFError:
                raise StopRun(_("end of input: the run stops here")) from None
            if answer.lower() in STOP_WORDS:
                raise StopRun(_("`{answer}`: the run stops here", answer=answer.lower()))
            if answer.isascii() and answer.isdigit() and len(answer) < 7 and low <= int(answer) <= count:
                return int(answer)
            if allow_zero and answer == "":
                return 0
            self.output(_("please answer with a number from {low} to {high}", low=low, high=count))

    def _yes(self, prompt: str) -> bool:
        while True:
            try:
                answer = self.input(prompt).strip().lower()
            except EOFError:
                raise StopRun(_("end of input: the run stops here")) from None
            if answer in STOP_WORDS:
                raise StopRun(_("`{answer}`: the run stops here", answer=answer))
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.output(_("please answer y or n"))

    def pc_action(self, run: Run, decision: Asked) -> Hashable:
        """The PCs' next action, or "done" (enter, or nothing left to do: not asked then)."""
        actions = [(pc_id, *action) for pc_id in run.state.pcs for action in legal_actions(run, pc_id)]
        if not actions:
            return DONE
        self.output(before_moment(decision.about["moment"]))
        for pc_id in dict.fromkeys(action[0] for action in actions):
            pc = run.state.pcs[pc_id]
            hand = _(", ").join(card_name(name) for name in pc.names(pc.hand)) or _("empty")
            self.output("  " + _("{pc}: life {life}, hand: {hand}", pc=pc.name, life=pc.life, hand=hand))
        for number, offered in enumerate(actions, start=1):
            self.output(f"  {number}. {offered[3]}")
        self.output("  0. " + _("nothing more"))
        picked = self._ask(_("action 0-{count} (enter = nothing): ", count=len(actions)), len(actions), True)
        if picked == 0:
            return DONE
        pc_id, action, card_id, _text = actions[picked - 1]
        return pc_id, action, card_id

    def choice(self, run: Run, decision: Asked) -> Hashable:
        labels = decision.about["labels"]
        for number, label in enumerate(labels, start=1):
            self.output(f"  {number}. {label}")
        return self._ask(_("choose {low}-{high}: ", low=1, high=len(labels)), len(labels)) - 1

    def pick_pc(self, run: Run, decision: Asked) -> Hashable:
        candidates: tuple[str, ...] = decision.actions  # type: ignore[assignment]
        kind, difficulty = decision.about["kind"], decision.about["difficulty"]
        self.output(_("Who makes the {kind} check (difficulty {difficulty})?", kind=check_kind_word(kind),
                      difficulty=difficulty))
        for number, pc_id in enumerate(candidates, start=1):
            chance = float(odds(run, pc_id, kind, difficulty))
            self.output(f"  {number}. " + _("{pc} ({chance:.0%} to succeed)", pc=run.state.pcs[pc_id].name,
                                             chance=chance))
        return candidates[self._ask(_("choose {low}-{high}: ", low=1, high=len(candidates)), len(candidates)) - 1]

    def boost(self, run: Run, decision: Asked) -> Hashable:
        pc = run.state.pcs[decision.about["pc"]]
        pending: PendingCheck = decision.progress.pending
        cards = _(", ").join(card_name(name) for name in pc.names(pending.revealed))
        return self._yes(_("{pc} revealed {cards}: target {target}, result {result}: {standing}. Boost (exile the "
                           "top 6 cards)? [y/n] ", pc=pc.name, cards=cards, target=pending.target,
                           result=pending.result, standing=standing(pc, pending)))

    def support(self, run: Run, decision: Asked) -> Hashable:
        pc = run.state.pcs[decision.about["pc"]]
        ready: tuple[int, ...] = decision.actions[1:]  # type: ignore[index, assignment]
        self.output(_("Support {pc}'s {kind} check with a creature (T-3.3)?", pc=pc.name,
                      kind=check_kind_word(decision.about["kind"])))
        for number, index in enumerate(ready, start=1):
            permanent = pc.battlefield[index]
            self.output(f"  {number}. {card_name(pc.cards[permanent.card].name)} "
                        f"(+{creature_power(pc, permanent)})")
        self.output("  0. " + _("no support"))
        picked = self._ask(_("choose {low}-{high}: ", low=0, high=len(ready)), len(ready), True)
        return ready[picked - 1] if picked else None

    def fighter(self, run: Run, decision: Asked) -> Hashable:
        candidates: tuple[tuple[str, int], ...] = decision.actions[1:]  # type: ignore[index, assignment]
        name = run.scenario.npcs[decision.about["npc"]].name
        self.output(_("Which creature fights {name}?", name=name))
        for number, (pc_id, index) in enumerate(candidates, start=1):
            pc = run.state.pcs[pc_id]
            self.output(f"  {number}. " + _("{pc}'s {card}", pc=pc.name,
                                             card=card_name(pc.cards[pc.battlefield[index].card].name)))
        self.output("  0. " + _("none (the PC takes the blow)"))
        picked = self._ask(_("choose {low}-{high}: ", low=0, high=len(candidates)), len(candidates), True)
        return candidates[picked - 1] if picked else None

    def battle_agent(self) -> BattleAgent:
        """The same person, asked through the same input and output. End of input, `save` or
        `quit` in a battle stops the run there (``StopRun``): a battle is one statement, so
        the run stops, and is saved, at the decision before it (issue 18)."""
        def stop(why: str) -> None:
            raise StopRun(f"{why} in a battle: the run stops before the battle")

        return HumanBattleAgent(self.input, self.output, stop=stop, stop_words=STOP_WORDS)


class SeatsAgent(FirstAgent):
    """A run's agent named after a game system's seat agent (``--agent greedy``): the seats
    play that agent (``Run.seats``); the script's own choices take their first option."""

    def __init__(self, name: str, io: SeatIO | None = None) -> None:
        self.name = name
        self.io = io  # the terminal of a system's human seats (``--agent`` a system's human agent)


def agent_names(system: object = None) -> tuple[str, ...]:
    """The agent names a run takes: the scenario agents, and a whole game system's seat agents."""
    extra = tuple(name for name in getattr(system, "agents", ()) if name not in AGENT_NAMES)
    return AGENT_NAMES + extra


def make_agent(name: str, choices: list[int] | None = None, input: Callable[[str], str] | None = None,
               output: Callable[[str], None] | None = None, system: object = None) -> ScenarioAgent:
    """An agent by its command-line name (``system``: the game system, whose seat agents'
    names are names too)."""
    if name not in AGENT_NAMES and name in getattr(system, "agents", ()):
        return SeatsAgent(name, SeatIO(input or builtins.input, output or print))
    if name == "first":
        return FirstAgent()
    if name == "scripted":
        return ScriptedAgent(choices or [])
    if name == "random":
        return RandomAgent()
    if name == "best":
        return BestAgent()
    if name == "human":
        return HumanAgent(input or builtins.input, output or print)
    raise UsageError(_("unknown agent `{agent}`", agent=name), hint=_("agents: {names}", names=", ".join(agent_names(system))))
