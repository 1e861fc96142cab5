"""``deckquest sim --explore``: take every option of every choice and force both outcomes of
every check at least once, and report what a GM must fix.

The search replays *plans*: the list of decisions of a run so far (an option number for a
choice; success, failure or "as the cards fall" for a check). Every run uses the same seed,
so replaying a plan reproduces the run up to its last decision. Past its plan a run takes
an alternative nobody has taken yet, queueing the other untaken ones as new plans; when all
are taken it chooses at random (seeded), so a loop cannot trap it. Each run that is played
takes at least one new alternative, so the search ends after at most as many runs as the
script has alternatives (bounded by ``max_runs`` too).

Findings, each with the forced path that shows it: runs that got stuck (a scene that runs
out of statements, a choice with no option available, a loop past the step limit), runtime
errors, lines no run reached, and alternatives never available.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from deckquest.dsl import ast
from deckquest.errors import DeckquestError
from deckquest.runtime.agents import FirstAgent
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, STUCK, Program, Run
from deckquest.sim.trace import ScriptMap, run_seed

NATURAL = None  # a check decision that lets the cards decide
DEFAULT_MAX_RUNS = 5_000


@dataclass(frozen=True)
class Step:
    """One decision on a path, as a GM reads it."""

    line: int
    scene: str
    what: str  # `chose "Search the shelves"` or `"Find a key" forced to fail`

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

    @property
    def problems(self) -> bool:
        return bool(self.findings)

    def as_dict(self) -> dict:
        return {"scenario": self.title, "runs": self.runs, "alternatives": self.alternatives,
                "taken": self.taken, "unreached_lines": self.unreached_lines,
                "never_taken": self.never_taken,
                "stuck": [f.as_dict() for f in self.findings if f.kind == "stuck"],
                "errors": [f.as_dict() for f in self.findings if f.kind == "error"]}

    def text(self) -> str:
        lines = [f"{self.title}: explored in {self.runs:,} runs; {self.taken} of {self.alternatives} "
                 "choice options and check outcomes taken"]
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


class _Agent(FirstAgent):
    """The first agent, but its choices come from the explorer's plan."""

    name = "explore"

    def __init__(self, explorer: "Explorer"):
        self.explorer = explorer

    def choose(self, run, stmt, labels):
        return self.explorer.choose(run, stmt, labels)


class Explorer:
    def __init__(self, program: Program, seed: int = 0, max_steps: int = DEFAULT_MAX_STEPS,
                 max_runs: int = DEFAULT_MAX_RUNS):
        self.program = program
        self.map = ScriptMap(program)
        self.seed = run_seed(seed, 0)
        self.max_steps = max_steps
        self.max_runs = max_runs
        self.rng = random.Random(seed)
        self.taken: set = set()
        self.queue: deque = deque()
        self.hits: set = set()
        self.findings: dict = {}
        self.runs = 0
        self.plan: list = []  # the decisions the run being played replays
        self.done: list = []  # (key, value, Step) of the run being played
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
                elif isinstance(stmt, (ast.Check, ast.Recruit)):
                    site = self.map.site_of[id(stmt)]
                    for outcome in (True, False):
                        found[(("check", stmt.span.line), outcome)] = \
                            f'line {stmt.span.line}: "{site.label}" {"succeeding" if outcome else "failing"}'
        return found

    # -- the search

    def explore(self) -> ExploreReport:
        self.queue.append([])
        while self.queue and self.runs < self.max_runs:
            plan = self.queue.popleft()
            if plan and self._is_taken_target(plan):
                continue
            self._play(plan)
        lines = [line for file, line in self.map.statement_lines()
                 if (file, line) not in self.hits and file == self.map.main_file]
        never = [text for key, text in self.alternatives.items() if key not in self.taken]
        findings = sorted(self.findings.values(), key=lambda f: (f.line, f.kind, f.message))
        return ExploreReport(self.program.scenario.title, self.runs, len(self.alternatives),
                             len(self.taken & self.alternatives.keys()), lines, never, findings)

    def _is_taken_target(self, plan: list) -> bool:
        key, value = plan[-1][0], plan[-1][1]
        return (key, value) in self.taken

    def _play(self, plan: list) -> None:
        self.runs += 1
        self.plan = plan
        self.done = []
        run = None
        statement = None
        try:
            run = Run(self.program, _Agent(self), random.Random(self.seed), record=False,
                      max_steps=self.max_steps, seed=self.seed)
            state = run.state
            while state.outcome is None:
                # a forced check still reveals its cards; only its outcome is decided (Run.forced)
                statement = run.next_statement()
                run.forced = self._check_decision(run, statement) if isinstance(
                    statement, (ast.Check, ast.Recruit)) else NATURAL
                before = state.steps
                run.step()
                if state.steps != before and state.steps <= self.max_steps:
                    self.hits.add(self.map.line_of[id(statement)])
        except Exception as error:
            message = error.message if isinstance(error, DeckquestError) else f"{type(error).__name__}: {error}"
            span = getattr(error, "span", None) or getattr(statement, "span", None)
            scene = run.state.scene if run is not None else self.program.scenario.start
            self._found("error", scene, getattr(span, "line", 0), message)
            return
        if state.outcome == STUCK:
            line = statement.span.line if statement is not None else 0
            self._found("stuck", state.scene, line, state.outcome_text)

    def _found(self, kind: str, scene: str, line: int, message: str) -> None:
        key = (kind, scene, line, message)
        if key not in self.findings:  # breadth first: the first path found is a short one
            self.findings[key] = Finding(kind, scene, line, message, [step for _, _, step in self.done if step])

    def _decide(self, key, alternatives: list, pick_default):
        """The plan's decision, else an untaken alternative (queueing the others), else a default."""
        position = len(self.done)
        if position < len(self.plan):
            value = self.plan[position][1]
        else:
            untaken = [a for a in alternatives if (key, a) not in self.taken]
            if untaken:
                value = untaken[0]
                prefix = [(k, v) for k, v, _ in self.done]
                self.queue.extend(prefix + [(key, other)] for other in untaken[1:])
            else:
                value = pick_default()
        if value is not NATURAL:
            self.taken.add((key, value))
        return value

    def _check_decision(self, run: Run, stmt) -> bool | None:
        site = self.map.site_of[id(stmt)]
        key = ("check", stmt.span.line)
        value = self._decide(key, [True, False], lambda: NATURAL)
        step = None if value is NATURAL else Step(
            stmt.span.line, run.state.scene, f'"{site.label}" forced to {"succeed" if value else "fail"}')
        self.done.append((key, value, step))
        return value

    def choose(self, run: Run, stmt: ast.Choice, labels: list[str]) -> int:
        offered = offered_options(run, stmt, labels)
        key = ("choice", stmt.span.line)
        number = self._decide(key, offered, lambda: self.rng.choice(offered))
        picked = offered.index(number)
        self.done.append((key, number, Step(stmt.span.line, run.state.scene, f'chose "{labels[picked]}"')))
        return picked


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
