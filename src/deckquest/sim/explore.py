"""``deckquest sim --explore``: take every option of every choice, force both outcomes of every
check and every written outcome of every battle, and report what a GM must fix.

The search replays *plans*: the list of decisions of a run so far (an option number for a
choice; success, failure or "as the cards fall" for a check; victory, defeat, escape or "as
the cards fall" for a battle). Every run uses the same seed, so replaying a plan reproduces
the run up to its last decision. Past its plan a run takes an alternative nobody has taken
yet, queueing the other untaken ones as new plans. That first round covers every
alternative once, but a line behind an ``if`` may need two of them together (an option
that sets a flag, then a success that counts): so an alternative is also new when it is
untaken in the *situation* the run is in (its scene, the flags and counters some condition
reads, the PCs' statuses), and while a line is unreached those plans are played once the
first round is done. In them a check may also be forced to a degree a condition compares
``degree`` with. When every alternative is taken in its situation a run chooses at random
(seeded) and lets the cards fall, so a loop cannot trap it. Each run takes at least one new
alternative, so the search ends when every line is reached or no situation it meets has an
untaken one, or at ``max_runs``.

When the search leaves a line unreached, ``sim``'s own runs are played (its default agent,
its seeds, up to ``SIM_RUNS``) until every line is reached: explore then reports nothing
as unreachable that ``sim`` reaches in its default runs.

A battle is part of the run's state, so the search clones it at its start rather than
playing the path to it again. An escape is the party's choice (T-6.6: a PC's non-combat
action of its turn), so explore takes it as it takes an option: in a clone of the battle as
dealt, the party tries to escape at every chance (each try a check as the cards fall).
Victory and defeat fall as the cards do, so a battle is brought to them by dealing again:
it is played again from its start (up to ``BATTLE_TRIES`` times) with the fighters' hands
and libraries shuffled together and their hands drawn anew, and the battle's own chance
reseeded, until it ends that way: what another run would have dealt (an escape not given
in the battle as dealt is sought the same way). An outcome no deal gives is left untaken.
Nothing else is altered: the PCs come out of the battle as they would.

Findings, each with the forced path that shows it: runs that got stuck (a scene that runs
out of statements, a choice with no option available, a loop past the step limit), runtime
errors, lines no run reached, and alternatives never available.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter, deque
from dataclasses import dataclass, field

from deckquest.dsl import ast
from deckquest.engine import pc as pcs
from deckquest.engine.combat.actions import ESCAPE
from deckquest.engine.pc import shuffle
from deckquest.errors import DeckquestError
from deckquest.runtime.agents import BestAgent
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, STUCK, Program, Run
from deckquest.sim.trace import ScriptMap, run_seed
from deckquest.systems.trpg import nodes
from deckquest.systems.trpg.statements import BATTLE_AGENT

NATURAL = None  # a check or battle decision that lets the cards decide
DEFAULT_MAX_RUNS = 5_000
BATTLE_TRIES = 100  # deals of a battle (the first as the run dealt it) to bring about one outcome
BATTLE_SEARCHES = 3  # searches for one outcome of one battle that may come to nothing before it is given up
SEARCH_STALEMATES = 3  # battles that do not end (each plays MAX_TURNS turns) that end a search
BATTLE_OUTCOMES = ("victory", "defeat", "escape")
SIM_RUNS = 2000  # sim's default number of runs: played when the search leaves lines unreached


@dataclass(frozen=True)
class Step:
    """One decision on a path, as a GM reads it."""

    line: int
    scene: str
    what: str  # `chose "Search the shelves"`, `"Find a key" forced to fail`, `battle … ended in defeat`

    def __str__(self) -> str:
        return f"line {self.line} ({self.scene}): {self.what}"


@dataclass
class Finding:
    kind: str  # "stuck" or "error"
    scene: str
    line: int
    message: str
    path: list[Step]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "scene": self.scene, "line": self.line, "message": self.message,
                "path": [str(step) for step in self.path]}


@dataclass
class ExploreReport:
    title: str
    runs: int
    alternatives: int
    taken: int
    unreached_lines: list[int]
    never_taken: list[str]
    findings: list[Finding] = field(default_factory=list)
    situations: int = 0  # distinct (decision, situation) pairs the runs met
    complete: bool = True  # False: stopped at ``max_runs`` with alternatives untried
    whole_game: str = ""  # the game's title when the script is a whole game, played by its seats

    @property
    def problems(self) -> bool:
        return bool(self.findings)

    def as_dict(self) -> dict:
        return {"scenario": self.title, "runs": self.runs, "alternatives": self.alternatives,
                "taken": self.taken, "unreached_lines": self.unreached_lines,
                "never_taken": self.never_taken, "situations": self.situations,
                "complete": self.complete,
                "stuck": [f.as_dict() for f in self.findings if f.kind == "stuck"],
                "errors": [f.as_dict() for f in self.findings if f.kind == "error"]}

    def text(self) -> str:
        lines = [f"{self.title}: explored in {self.runs:,} runs; {self.taken} of {self.alternatives} "
                 "choice options, check outcomes and battle outcomes taken"]
        if self.whole_game:
            lines.append(f"A whole game of {self.whole_game}: its seats decide every turn, so explore plays it as "
                         "`deckquest run` does, for runtime errors and the trigger lines it reaches; "
                         "`deckquest sim` without --explore reports its balance.")
        if not self.complete:
            lines.append(f"The search stopped at {self.runs:,} runs, its limit, with alternatives still untried"
                         + (": the lines listed as unreached may be reachable." if self.unreached_lines else "."))
        elif self.unreached_lines:
            lines.append(f"Every alternative was tried in each of the {self.situations:,} situations met "
                         "(scene, the flags and counters conditions read, the PCs' statuses).")
        for finding in self.findings:
            heading = "Dead end" if finding.kind == "stuck" else "Runtime error"
            lines += ["", f"{heading} in scene `{finding.scene}` (line {finding.line}): {finding.message}",
                      "  path:" if finding.path else "  path: the start, with no decision"]
            lines += _path_lines(finding.path)
        lines += ["", "Lines no run reached: " + (", ".join(map(str, self.unreached_lines)) or "none")]
        if self.never_taken:
            lines += ["Never available:"] + [f"  {item}" for item in self.never_taken]
        if not self.findings:
            lines.append("No dead ends and no runtime errors found.")
        return "\n".join(lines) + "\n"


def _path_lines(path: list[Step]) -> list[str]:
    """A path's steps, a run of the same step shown once with its count (a loop would
    otherwise print one line per trip round it, up to the step limit)."""
    lines: list[str] = []
    index = 0
    while index < len(path):
        end = index
        while end + 1 < len(path) and str(path[end + 1]) == str(path[index]):
            end += 1
        repeat = end - index + 1
        lines.append(f"    {path[index]}" + (f"  (x{repeat:,} in a row)" if repeat > 1 else ""))
        index = end + 1
    return lines


class _Agent(BestAgent):
    """Sim's default agent, ``best`` (its checks, boosts, supports, fights, PC actions and
    battle agent), but its choices come from the explorer's plan: explore and ``sim`` play
    the same party, so they agree on which lines and battle outcomes can be reached."""

    name = "explore"

    def __init__(self, explorer: "Explorer"):
        self.explorer = explorer

    def choice(self, run, decision):
        return self.explorer.choose(run, run.asking(), decision.about["labels"])


class _Fleeing:
    """The party's battle player in a battle explore wants escaped: the run's own player,
    except that a PC tries to escape (T-6.6) whenever the party may, as a player who
    chose to flee would."""

    def __init__(self, player):
        self.player = player

    def choose(self, battle, actions, rng):
        for action in actions:
            if action.kind == ESCAPE:
                return action
        return self.player.choose(battle, actions, rng)


class Explorer:
    def __init__(self, program: Program, seed: int = 0, max_steps: int = DEFAULT_MAX_STEPS,
                 max_runs: int = DEFAULT_MAX_RUNS):
        self.program = program
        self.map = ScriptMap(program)
        self.base_seed = seed
        self.seed = run_seed(seed, 0)
        self.max_steps = max_steps
        self.max_runs = max_runs
        self.rng = random.Random(seed)
        self.taken: set = set()  # (decision key, alternative) taken in some situation
        self.seen: set = set()  # (decision key, situation, alternative) tried
        self.situations: set = set()  # (decision key, situation) met
        self.queue: deque = deque()  # plans whose last decision no run has taken
        self.later: deque = deque()  # plans whose last decision is new only in its situation
        self.hits: set = set()
        self.findings: dict = {}
        self.runs = 0
        self.plan: list = []  # the decisions the run being played replays
        self.done: list = []  # (key, value, situation, Step) of the run being played
        self.battle_outcome: str | None = None  # what the last battle played ended in
        self.battle_misses: Counter = Counter()  # (battle key, outcome) -> searches that failed
        self.read_flags, self.read_counters = _condition_names(program)
        self.thresholds = _counter_thresholds(program, self.read_counters)
        self.degrees = _degree_variants(program)  # (success, degree) pairs worth forcing
        self.lines = {(file, line) for file, line in self.map.statement_lines() if file == self.map.main_file}
        self.alternatives = self._alternatives()

    def _alternatives(self) -> dict:
        """Every (site key, alternative) -> its description, for the `never taken` list."""
        found = {}
        for block in self.program.blocks:
            for stmt in block:
                if isinstance(stmt, ast.Choice):
                    for number, option in enumerate(stmt.options):
                        found[(("choice", stmt.span.line), number)] = \
                            f'line {option.span.line}: option "{option.label.raw}"'
                elif isinstance(stmt, (nodes.Check, nodes.Recruit)):
                    site = self.map.site_of[id(stmt)]
                    for outcome in (True, False):
                        found[(("check", stmt.span.line), outcome)] = \
                            f'line {stmt.span.line}: "{site.label}" {"succeeding" if outcome else "failing"}'
                elif isinstance(stmt, nodes.Battle):
                    for outcome in _battle_outcomes(stmt):
                        found[(("battle", stmt.span.line), outcome)] = \
                            f"line {stmt.span.line}: {_battle_name(stmt)} ending in {outcome}"
        return found

    # -- the search

    def explore(self) -> ExploreReport:
        self.queue.append([])
        while self.runs < self.max_runs:
            plan = self._next_plan()
            if plan is None:
                break
            self._play(plan)
        complete = self._next_plan() is None
        self._sim_runs()
        lines = sorted(line for file, line in self.lines - self.hits)
        never = [text + (f" (not in {BATTLE_TRIES} deals)" if self.battle_misses[key] else "")
                 for key, text in self.alternatives.items() if key not in self.taken]
        findings = sorted(self.findings.values(), key=lambda f: (f.line, f.kind, f.message))
        return ExploreReport(self.program.scenario.title, self.runs, len(self.alternatives),
                             len(self.taken & self.alternatives.keys()), lines, never, findings,
                             len(self.situations), complete,
                             self.program.system.title if self.program.whole_game else "")

    def _next_plan(self) -> list | None:
        """The next plan still worth a run: first those taking an alternative no run took,
        then, while a line is unreached, those taking one new in its situation (a plan
        queued twice is played once)."""
        while self.queue:
            plan = self.queue.popleft()
            if not plan or (plan[-1][0], plan[-1][1]) not in self.taken:
                return plan
        if self.lines <= self.hits:  # the situations are searched for the lines no run reached
            return None
        while self.later:
            plan = self.later.popleft()
            key, value, situation = plan[-1]
            if (key, situation, value) not in self.seen:
                return plan
        return None

    def _play(self, plan: list) -> None:
        self.runs += 1
        self.plan = plan
        self.done = []
        run = None
        statement = None
        try:
            run = Run(self.program, _Agent(self), random.Random(self.seed), record=False,
                      listener=self._heard, kinds=("battle",), battle_events=False,
                      max_steps=self.max_steps, seed=self.seed)
            while run.state.outcome is None:
                statement = run.next_statement()
                before = run.state.steps
                if isinstance(statement, nodes.Battle):
                    run.forced = NATURAL  # its preparation check falls as the cards do
                    self._battle(run, statement)
                else:
                    # a forced check still reveals its cards; only its outcome is decided (Run.forced)
                    run.forced = self._check_decision(run, statement) if isinstance(
                        statement, (nodes.Check, nodes.Recruit)) else NATURAL
                    _whole_statement(run)
                if statement is not None and run.state.steps != before and run.state.steps <= self.max_steps:
                    self.hits.add(self.map.line_of[id(statement)])  # (None: a whole game's own step)
        except Exception as error:
            message = error.message if isinstance(error, DeckquestError) else f"{type(error).__name__}: {error}"
            span = getattr(error, "span", None) or getattr(statement, "span", None)
            scene = run.state.scene if run is not None else self.program.scenario.start
            self._found("error", scene, getattr(span, "line", 0), message)
            return
        if run.state.outcome == STUCK:
            line = statement.span.line if statement is not None else 0
            self._found("stuck", run.state.scene, line, run.state.outcome_text)

    def _sim_runs(self) -> None:
        """While a line is unreached after the search, play ``sim``'s own runs: its default
        agent, seeded ``run_seed(seed, i)`` for i below ``SIM_RUNS``, as ``sim --seed S``
        plays them. A battle won or lost by a party worn down before it (the search deals a
        battle again, never what led to it) is reached as ``sim`` reaches it, so explore
        reports no line or battle outcome as unreached that ``sim``'s default runs reach.
        These runs only count what they reach: their dead ends and errors, which have no
        forced path, are ``sim``'s to report (with the seed that replays them)."""
        if self.program.whole_game:  # sim's default agent, best, plays MTG-TRPG's scenes
            return
        for index in range(SIM_RUNS):
            if self.lines <= self.hits or self.runs >= self.max_runs:
                return
            self.runs += 1
            seed = run_seed(self.base_seed, index)
            run = Run(self.program, BestAgent(), random.Random(seed), record=False, listener=self._battle_seen,
                      kinds=("battle",), battle_events=False, max_steps=self.max_steps, seed=seed,
                      on_statement=self._hit)
            try:
                run.run()
            except Exception:  # sim reports its runs' errors and dead ends, with their seeds
                continue

    def _hit(self, statement) -> None:
        self.hits.add(self.map.line_of[id(statement)])

    def _battle_seen(self, event: dict) -> None:
        self.taken.add((("battle", event["line"]), event["outcome"]))

    def _heard(self, event: dict) -> None:
        self.battle_outcome = event["outcome"]

    def _found(self, kind: str, scene: str, line: int, message: str) -> None:
        key = (kind, scene, line, message)
        if key not in self.findings:  # breadth first: the first path found is a short one
            self.findings[key] = Finding(kind, scene, line, message, [step for *_, step in self.done if step])

    def _situation(self, run: Run) -> tuple:
        """What the script's conditions can read at a decision, bar the PCs' numbers: the
        scene, the flags and counters some condition reads, and the PCs' statuses. A counter
        that conditions only compare with numbers counts as where it stands among them
        (``_near``): a counter that grows on every trip round a loop would otherwise make each
        trip a new situation, and the search would not end before its limit."""
        state = run.state
        counters = state.counters
        return (state.scene, tuple([state.flags[name] for name in self.read_flags]),
                tuple([counters[name] if numbers is None else _near(counters[name], numbers)
                       for name, numbers in self.thresholds]),
                tuple([pc.status for pc in state.pcs.values()]))

    def _decide(self, run: Run, key, alternatives: list, pick_default, mark: bool = True, variants=()):
        """The plan's decision, else an alternative no run took (queueing the others), else one
        untaken in this situation (queued for later), else a default; and the situation.
        ``variants`` are alternatives only worth taking in the situations' round."""
        situation = self._situation(run)
        self.situations.add((key, situation))
        position = len(self.done)
        if position < len(self.plan):
            value = self.plan[position][1]
        else:
            fresh = [a for a in alternatives if (key, a) not in self.taken]
            new_here = [a for a in [*alternatives, *variants] if (key, situation, a) not in self.seen]
            value = fresh[0] if fresh else new_here[0] if new_here else pick_default()
            prefix = [(k, v, s) for k, v, s, _ in self.done]
            self.queue.extend(prefix + [(key, other, situation)] for other in fresh if other != value)
            self.later.extend(prefix + [(key, other, situation)] for other in new_here
                              if other != value and other not in fresh)
        if value is not NATURAL and mark:
            self.taken.add((key, value))
            self.seen.add((key, situation, value))
        return value, situation

    def _check_decision(self, run: Run, stmt) -> bool | None:
        site = self.map.site_of[id(stmt)]
        key = ("check", stmt.span.line)
        value, situation = self._decide(run, key, [True, False], lambda: NATURAL, variants=self.degrees)
        step = None
        if type(value) is tuple:  # a degree forced too: the success or failure is taken as well
            self.taken.add((key, value[0]))
            step = Step(stmt.span.line, run.state.scene,
                        f'"{site.label}" forced to {"succeed" if value[0] else "fail"} with degree {value[1]}')
        elif value is not NATURAL:
            step = Step(stmt.span.line, run.state.scene, f'"{site.label}" forced to {"succeed" if value else "fail"}')
        self.done.append((key, value, situation, step))
        return value

    def _battle(self, run: Run, stmt: nodes.Battle) -> None:
        """Play the battle to the outcome the plan wants, or as the cards fall (BATTLE_TRIES).

        In the run's record (and so in the plans that extend it) a battle brought about
        by fleeing or by another deal is kept as (outcome, deal, fled): replaying it plays
        that one at once.
        """
        key = ("battle", stmt.span.line)
        scene = run.state.scene
        outcomes = [outcome for outcome in _battle_outcomes(stmt)
                    if self.battle_misses[key, outcome] < BATTLE_SEARCHES]
        wanted, situation = self._decide(run, key, outcomes, lambda: NATURAL, mark=False)
        if isinstance(wanted, tuple):  # replayed: how the outcome was brought about is known
            _, deal, fled = wanted
            outcome = self._play_battle(run, deal, fled)
        elif wanted is NATURAL:
            outcome, deal, fled = self._play_battle(run, 0), 0, False
        else:
            self.seen.add((key, situation, wanted))  # tried here, given or not: not tried again here
            outcome, deal, fled = self._fight_for(run, wanted)
            if outcome != wanted:
                self.battle_misses[key, wanted] += 1
        if outcome in BATTLE_OUTCOMES:
            self.taken.add((key, outcome))
            self.seen.add((key, situation, outcome))
        step = Step(stmt.span.line, scene, f"{_battle_name(stmt)} ended in {outcome}{_how(deal, fled)}")
        self.done.append((key, (outcome, deal, fled) if deal or fled else NATURAL, situation, step))

    def _play_battle(self, run: Run, deal: int, fled: bool = False) -> str | None:
        """Step the battle statement, as the run dealt it (``deal`` 0) or dealt again; with
        ``fled``, the party tries to escape at every chance (``_Fleeing``)."""
        if deal:
            self._deal_again(run, deal)
        self.battle_outcome = None
        _whole_statement(run)
        if fled and run.state.battle is not None:
            run.memory[BATTLE_AGENT] = _Fleeing(run.memory[BATTLE_AGENT])
        while run.state.battle is not None:  # each step answers one of the battle's decisions
            run.step()
        return self.battle_outcome

    def _deal_again(self, run: Run, deal: int) -> None:
        """What another run could have dealt the fighters: each one's hand and library
        shuffled together and the hand drawn anew; the battle's chance reseeded."""
        rng = run.rng
        rng.seed(run_seed(self.seed, deal))
        for pc in run.state.pcs.values():
            if pc.status == pcs.OK:
                cards = pc.hand + pc.library
                shuffle(cards, rng)
                pc.hand, pc.library = cards[:len(pc.hand)], cards[len(pc.hand):]

    def _fight_for(self, run: Run, wanted: str) -> tuple[str | None, int, bool]:
        """Play the battle until it ends in ``wanted``: (its outcome, the deal that gave it,
        whether the party fled). An escape is first sought in a clone of the battle as
        dealt, the party fleeing; then, as victory and defeat are, in other deals. With
        none giving ``wanted``, the battle is as the run dealt it: (that outcome, 0, False).
        A battle that does not end (a stalemate) plays MAX_TURNS turns each time: one as
        dealt is the dead end to report, and no search; a few among other deals end it."""
        start = run.snapshot()
        outcome = self._play_battle(run, 0)
        if outcome == wanted or outcome not in BATTLE_OUTCOMES:
            return outcome, 0, False
        as_dealt = run.snapshot()
        fled = wanted == "escape"
        stalemates = 0
        for deal in range(0 if fled else 1, BATTLE_TRIES):
            run.restore(start)
            got = self._play_battle(run, deal, fled)
            if got == wanted:
                return wanted, deal, fled
            stalemates += got not in BATTLE_OUTCOMES
            if stalemates == SEARCH_STALEMATES:
                break
        run.restore(as_dealt)
        self.battle_outcome = outcome
        return outcome, 0, False

    def choose(self, run: Run, stmt: ast.Choice, labels: list[str]) -> int:
        offered = offered_options(run, stmt, labels)
        key = ("choice", stmt.span.line)
        number, situation = self._decide(run, key, offered, lambda: self.rng.choice(offered))
        picked = offered.index(number)
        self.done.append((key, number, situation,
                          Step(stmt.span.line, run.state.scene, f'chose "{labels[picked]}"')))
        return picked


def _whole_statement(run: Run) -> None:
    """Step the run, and on through the party's decisions the statement asks (its PCs'
    actions, who checks, support, boost): the statement as one move of the search, its
    check forced (``Run.forced``) or its battle dealt as the search wants."""
    while run.step() and run.state.asked is not None:
        pass


def _how(deal: int, fled: bool) -> str:
    """How a battle's outcome came about, when not as the run dealt and played it."""
    how = ([f"dealt again: deal {deal + 1}"] if deal else []) + (["the party fled at every chance"] if fled else [])
    return f" ({'; '.join(how)})" if how else ""


def _condition_names(program: Program) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The flags and the counters some condition of the script reads (``if``, an option's
    ``if``, a trigger's ``if``), in declaration order: the rest cannot open a line."""
    names = {expr.name for expr in _condition_parts(program) if isinstance(expr, ast.Var)}
    scenario = program.scenario
    return (tuple(name for name in scenario.flags if name in names),
            tuple(name for name in scenario.counters if name in names))


NEAR = 3  # steps from a number a condition compares a counter with that situations tell apart


def _near(value: int, numbers: tuple[int, ...]) -> tuple:
    """Where ``value`` stands among the sorted ``numbers`` its conditions compare it with: which
    gap it is in, and how far from each end of it, up to ``NEAR`` steps. Every condition reads
    the same of two values with the same answer, and a count up to (or down to) a number
    still meets a new situation at each of its last steps."""
    gap = bisect_left(numbers, value)
    if gap < len(numbers) and numbers[gap] == value:
        return (gap, 0, 0)
    below = min(value - numbers[gap - 1], NEAR) if gap else None
    above = min(numbers[gap] - value, NEAR) if gap < len(numbers) else None
    return (gap, below, above)


def _counter_thresholds(program: Program, counters: tuple[str, ...]) -> tuple[tuple[str, tuple[int, ...] | None], ...]:
    """Each counter some condition reads, with the numbers the conditions compare it with;
    None when a condition compares it with anything else (another counter, a PC's life).
    0 is always among them, for a condition that reads a counter as true when not 0."""
    numbers: dict[str, set[int] | None] = {name: {0} for name in counters}
    for expr in _condition_parts(program):
        if not isinstance(expr, ast.Compare):
            continue
        for side, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(side, ast.Var) and side.name in numbers:
                found = numbers[side.name]
                if found is not None and isinstance(other, ast.IntLit):
                    found.add(other.value)
                else:
                    numbers[side.name] = None
    return tuple((name, None if found is None else tuple(sorted(found))) for name, found in numbers.items())


def _degree_variants(program: Program) -> tuple[tuple[bool, int], ...]:
    """(success, degree) pairs that tell apart what the script's conditions compare
    ``degree`` with: each number compared, one below and one above, as successes (degree
    0 and up) or failures (-1 and down). None when no condition reads ``degree``."""
    points: set[int] = set()
    for expr in _condition_parts(program):
        sides = (expr.left, expr.right) if isinstance(expr, ast.Compare) else ()
        if any(isinstance(side, ast.Degree) for side in sides):
            points.update(number for side in sides if isinstance(side, ast.IntLit)
                          for number in (side.value - 1, side.value, side.value + 1))
    if not points:
        return ()
    successes = sorted({0} | {point for point in points if point >= 0})
    failures = sorted({-1} | {point for point in points if point < 0}, reverse=True)
    return tuple([(True, degree) for degree in successes] + [(False, degree) for degree in failures])


def _condition_parts(program: Program):
    """Every expression in every condition of the script (of its ``if``s, its options and
    its triggers), the conditions themselves included."""
    stack = [trigger.condition for trigger, _, _ in program.triggers]
    for block in program.blocks:
        for stmt in block:
            if isinstance(stmt, ast.If):
                stack.append(stmt.condition)
            elif isinstance(stmt, ast.Choice):
                stack += [option.condition for option in stmt.options]
    while stack:
        expr = stack.pop()
        if expr is not None:
            yield expr
            stack += ast.operands(expr)


def _battle_outcomes(stmt: nodes.Battle) -> tuple[str, ...]:
    """The outcomes the script gives a block of its own: the ones worth forcing."""
    return tuple(outcome for outcome in BATTLE_OUTCOMES if getattr(stmt, outcome) is not None)


def _battle_name(stmt: nodes.Battle) -> str:
    return "battle against " + ", ".join(ref.name for ref in stmt.enemies)


def offered_options(run: Run, stmt: ast.Choice, labels: list[str]) -> list[int]:
    """The option numbers behind the offered labels, matched in order by their rendered text."""
    if len(labels) == len(stmt.options):
        return list(range(len(labels)))
    frame = run.state.frames[-1]
    numbers, position = [], 0
    for number, option in enumerate(stmt.options):
        if position < len(labels) and _render(run, option, frame) == labels[position]:
            numbers.append(number)
            position += 1
    return numbers if len(numbers) == len(labels) else list(range(len(labels)))


def _render(run: Run, option, frame) -> str | None:
    try:
        return run.render(option.label, frame)
    except DeckquestError:  # a label that cannot be rendered here was not offered
        return None


def explore(script, *, party=None, seed: int = 0, max_steps: int = DEFAULT_MAX_STEPS,
            max_runs: int = DEFAULT_MAX_RUNS) -> ExploreReport:
    """Explore ``script`` (a path or a compiled scenario); see the module docstring."""
    from deckquest.sim.batch import load

    scenario, members = load(script, party)
    return Explorer(Program(scenario, members), seed, max_steps, max_runs).explore()
