"""Playing runs for statistics: what a script holds, and what each run did.

``ScriptMap`` reads a prepared ``Program`` once: its statement lines, its check sites
(every ``check`` and ``recruit`` statement) and the endings it can reach. ``play`` runs
one seeded play-through and adds what happened to a ``Tally``: a bag of counters that
worker processes fill independently and the parent adds up. Counting is commutative,
so the merged tally is the same whatever the number of workers or their order.

The interpreter tells the run's record which statement is about to run (its
``on_statement`` hook): that is how checks are attributed to their line and how every
line's hits are counted; and how each PC's check ended (its ``on_check`` hook). The
record listens to the few event kinds it counts (``EVENT_KINDS``); the interpreter builds
no other event.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field

from deckquest.dsl import ast
from deckquest.engine.pc import DEAD
from deckquest.errors import DeckquestError
from deckquest.runtime.interpreter import STUCK, Program, Run
from deckquest.systems import GameSystem
from deckquest.systems.trpg import nodes

ANY_SCENE = "(every scene)"  # where a check written in a scenario-wide trigger belongs
ERROR = "error"  # the pseudo-outcome of a run that stopped on a runtime error
GROUPED = ("all", "any")  # sites whose outcome is the group's (``check_group``), not each PC's


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index`` of a batch seeded ``seed``: from (seed, index) alone.

    Hashed rather than added, so batches with neighbouring seeds share no runs; the
    result is what ``deckquest run --seed`` takes to replay the run.
    """
    digest = hashlib.blake2b(f"{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


# ---------------------------------------------------------------- the script's map


@dataclass(frozen=True)
class Site:
    """One check site: a ``check`` or ``recruit`` statement of the script."""

    number: int
    scene: str
    line: int
    file: str
    label: str
    kind: str
    difficulty: int
    who: str  # party, each, all, any, or a PC id


class ScriptMap:
    """The parts of a program that statistics are counted against, found once."""

    def __init__(self, program: Program):
        self.program = program
        self.main_file = str(program.scenario.path)
        self.sites: list[Site] = []
        self.site_of: dict[int, Site] = {}  # id(statement) -> site
        self.site_at: dict[tuple, Site] = {}  # the statement's ``check_key`` -> site
        self.line_of: dict[int, tuple[str, int]] = {}  # id(statement) -> (file, line)
        self.endings: dict[str, int] = {}  # outcome -> line of its first `end`
        self.battles: dict[int, int] = {}  # id(battle statement) -> line
        self.battle_scenes: dict[int, str] = {}  # battle line -> scene
        for trigger in program.scenario.triggers:
            self._walk(trigger.body, ANY_SCENE)
        for scene in program.scenario.scenes.values():
            for trigger in scene.triggers:
                self._walk(trigger.body, scene.id)
            self._walk(scene.body, scene.id)

    def _walk(self, statements: list, scene: str) -> None:
        for stmt in statements:
            self.line_of[id(stmt)] = (stmt.span.file, stmt.span.line)
            if isinstance(stmt, (nodes.Check, nodes.Recruit)):
                self._add_site(stmt, scene)
            elif isinstance(stmt, ast.End):
                self.endings.setdefault(stmt.outcome, stmt.span.line)
            elif isinstance(stmt, nodes.Battle):
                self.battles[id(stmt)] = stmt.span.line
                self.battle_scenes[stmt.span.line] = scene
            for block in ast.nested_blocks(stmt):
                self._walk(block, scene)

    def _add_site(self, stmt, scene: str) -> None:
        prepared = self.program.sites[id(stmt)]  # kind, label and who, as the interpreter has them
        who = prepared.pc if prepared.who == "pc" else prepared.who
        site = Site(len(self.sites), scene, stmt.span.line, stmt.span.file, prepared.label, prepared.kind,
                    prepared.difficulty, who)
        self.sites.append(site)
        self.site_of[id(stmt)] = site
        self.site_at[prepared.key] = site

    def statement_lines(self) -> list[tuple[str, int]]:
        """Every (file, line) that holds a statement, in file order."""
        return sorted(set(self.line_of.values()))


# ---------------------------------------------------------------- the tally


def _earliest(mine: dict, theirs: dict) -> None:
    """Keep, per key, the (run index, detail) of the earliest run: deterministic merging."""
    for key, value in theirs.items():
        if key not in mine or value[0] < mine[key][0]:
            mine[key] = value


@dataclass
class Tally:
    """What a batch of runs did, as counters keyed by plain values (picklable, addable)."""

    runs: int = 0
    endings: Counter = field(default_factory=Counter)  # outcome -> runs
    end_scenes: Counter = field(default_factory=Counter)  # (outcome, scene) -> runs
    scenes: Counter = field(default_factory=Counter)  # scene -> runs that reached it
    attempts: Counter = field(default_factory=Counter)  # site number -> attempts
    successes: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)  # checks no PC could make (T-4.12, T-7.2)
    pc_attempts: Counter = field(default_factory=Counter)  # (site, pc) -> attempts
    pc_successes: Counter = field(default_factory=Counter)
    failed_by_ending: Counter = field(default_factory=Counter)  # (outcome, site) -> runs
    statuses: Counter = field(default_factory=Counter)  # (pc, status) -> runs that reached it
    life_lost: Counter = field(default_factory=Counter)  # (pc, life lost in the run) -> runs
    library_end: Counter = field(default_factory=Counter)  # (pc, cards) -> runs
    exhaustion_end: Counter = field(default_factory=Counter)  # (pc, cards) -> runs
    clock: Counter = field(default_factory=Counter)  # game minutes at the end -> runs
    steps: Counter = field(default_factory=Counter)  # statements run -> runs
    dead_pcs: Counter = field(default_factory=Counter)  # PCs dead at the end -> runs
    hits: Counter = field(default_factory=Counter)  # (file, line) -> times run
    stuck: Counter = field(default_factory=Counter)  # scene -> stuck runs
    first_stuck: dict = field(default_factory=dict)  # scene -> (run index, reason)
    errors: Counter = field(default_factory=Counter)  # (message, file, line, scene) -> runs
    first_error: dict = field(default_factory=dict)  # same key -> (run index, None)
    battles: Counter = field(default_factory=Counter)  # (line, outcome) -> battles
    battle_turns: Counter = field(default_factory=Counter)  # (line, turns) -> battles
    battle_out: Counter = field(default_factory=Counter)  # (line, PCs out after it) -> battles
    battle_damage: Counter = field(default_factory=Counter)  # (line, "dealt"/"taken") -> total
    tpk: Counter = field(default_factory=Counter)  # line -> battles that left every PC out
    system_rows: Counter = field(default_factory=Counter)  # a game system's row of a run -> runs

    _COUNTERS = ("endings", "end_scenes", "scenes", "attempts", "successes", "refused",
                 "pc_attempts", "pc_successes", "failed_by_ending", "statuses", "life_lost",
                 "library_end", "exhaustion_end", "clock", "steps", "dead_pcs", "hits", "stuck", "errors",
                 "battles", "battle_turns", "battle_out", "battle_damage", "tpk", "system_rows")

    def merge(self, other: "Tally") -> "Tally":
        self.runs += other.runs
        for name in self._COUNTERS:
            getattr(self, name).update(getattr(other, name))
        _earliest(self.first_stuck, other.first_stuck)
        _earliest(self.first_error, other.first_error)
        return self


# ---------------------------------------------------------------- one run


class Recorder:
    """What the runs of one chunk did, gathered from their events into a tally.

    One recorder serves a chunk of runs: ``begin`` starts a run, ``commit`` ends it,
    ``finish`` adds the whole chunk to the tally. The per-run work is appends to lists:
    two interpreter hooks are lists' ``append`` (calls into C with no Python frame):
    ``on_statement`` gets every statement started, 36 a run, and ``on_check`` every PC's
    check as a tuple (site, pc, success, revealed); and ``commit`` appends one row for the
    run and one per PC. ``finish`` counts the rows, lines and checks in C, then turns the
    few hundred distinct rows into the tally's counters. The last statement appended is
    the one running, so events are attributed to it.
    """

    __slots__ = ("map", "tally", "statements", "on_statement", "checks", "on_check", "first",
                 "first_check", "scenes", "failed", "statuses", "life_lost",
                 "ends", "pc_ends", "reached", "fell", "failed_at", "system_rows", "record_row")

    # A ``by all`` or ``by any`` site's outcome comes through the ``check_group`` event.

    def __init__(self, script_map: ScriptMap, tally: Tally):
        self.map = script_map
        self.tally = tally
        self.statements: list = []  # every statement started in the chunk, in order
        self.on_statement = self.statements.append  # the interpreter's hook
        self.checks: list[tuple] = []  # every PC's check in the chunk: (site key, pc, success, revealed)
        self.on_check = self.checks.append  # the interpreter's hook
        self.first = 0  # where the running run's statements start in ``statements``
        self.first_check = 0  # and its checks in ``checks``
        self.scenes: set[str] = set()  # what the running run reached, once each
        self.failed: set[int] = set()  # site numbers that failed in the run
        self.statuses: set[tuple[str, str]] = set()
        self.life_lost: Counter = Counter()
        # The chunk's rows, counted by ``finish``:
        self.ends: list[tuple] = []  # a run's (outcome, scene, ended, clock, steps, dead PCs)
        self.pc_ends: list[tuple] = []  # a run's PC's (pc, life lost, library, exhaustion zone)
        self.reached: list[str] = []  # each scene each run reached
        self.fell: list[tuple[str, str]] = []  # each (pc, status) each run reached
        self.failed_at: list[tuple[str, int]] = []  # each (outcome, site number) a run failed
        self.system_rows: list = []  # each run's row of its game system (GameSystem.record)
        record = script_map.program.system.record  # None when the system records nothing
        self.record_row = None if getattr(record, "__func__", None) is GameSystem.record.__func__ else record

    def begin(self) -> None:
        """A new run starts: forget what the last one reached."""
        self.first = len(self.statements)
        self.first_check = len(self.checks)
        self.scenes.clear()
        self.failed.clear()
        self.statuses.clear()
        self.life_lost.clear()

    @property
    def statement(self):
        """The statement being run (the last one this run started): its events belong to it."""
        return self.statements[-1] if len(self.statements) > self.first else None

    def finish(self) -> None:
        """Add the chunk to the tally: its rows, line hits and checks counted in C, then the
        distinct ones (a few hundred at most) turned into counters by line, site, scene."""
        tally = self.tally
        tally.runs += len(self.ends)
        for (outcome, scene, ended, clock, steps, dead), times in Counter(self.ends).items():
            if ended:
                tally.endings[outcome] += times
                tally.end_scenes[outcome, scene] += times
            if clock is None:  # no end state: the run failed as it was dealt
                continue
            tally.clock[clock] += times
            tally.steps[steps] += times
            tally.dead_pcs[dead] += times
        for (pc, lost, library, exhaustion), times in Counter(self.pc_ends).items():
            tally.life_lost[pc, lost] += times
            tally.library_end[pc, library] += times
            tally.exhaustion_end[pc, exhaustion] += times
        tally.scenes.update(Counter(self.reached))
        tally.statuses.update(Counter(self.fell))
        tally.failed_by_ending.update(Counter(self.failed_at))
        tally.system_rows.update(Counter(self.system_rows))
        hits = tally.hits
        line_of = self.map.line_of
        for statement, times in Counter(map(id, self.statements)).items():
            hits[line_of[statement]] += times
        for (key, pc, success, revealed), times in Counter(self.checks).items():
            site = self.map.site_at.get(key)  # None: a battle's preparation
            if site is None:
                continue
            number = site.number
            if not revealed:
                tally.refused[number] += times
            elif pc is not None:
                tally.pc_attempts[number, pc] += times
                if success:
                    tally.pc_successes[number, pc] += times
            if site.who not in GROUPED:
                tally.attempts[number] += times
                if success:
                    tally.successes[number] += times
        for rows in (self.statements, self.checks, self.ends, self.pc_ends, self.reached, self.fell,
                     self.failed_at, self.system_rows):
            rows.clear()
        self.first = self.first_check = 0

    def on_event(self, event: dict) -> None:
        _HANDLERS[event["event"]](self, event)

    def _group(self, event: dict) -> None:
        site = self.map.site_of.get(id(self.statements[-1]))  # the `check … by all/any` running
        if site is not None:
            self.tally.attempts[site.number] += 1
            if event["success"]:
                self.tally.successes[site.number] += 1
            else:
                self.failed.add(site.number)

    def _add_failed_checks(self) -> None:
        """The run's failed sites, from its checks (a grouped site's from ``check_group``)."""
        site_at = self.map.site_at
        for key, _, success, _ in self.checks[self.first_check:]:
            if not success:
                site = site_at.get(key)
                if site is not None and site.who not in GROUPED:
                    self.failed.add(site.number)

    def _status(self, event: dict) -> None:
        self.statuses.add((event["pc"], event["status"]))

    def _life(self, event: dict) -> None:
        if event["change"] < 0:
            self.life_lost[event["pc"]] -= event["change"]

    def _battle(self, event: dict) -> None:
        """A battle's result: the ``battle`` event (``runtime.battles.summary`` of a ``BattleResult``)."""
        tally = self.tally
        line = self.map.battles.get(id(self.statement), event.get("line", 0))
        tally.battles[line, event.get("outcome", "?")] += 1
        tally.battle_turns[line, event.get("turns", 0)] += 1
        pcs = event.get("pcs", ())
        out = sum(1 for pc in pcs if pc.get("status", "ok") != "ok")
        tally.battle_out[line, out] += 1
        if out == len(pcs):  # no PC left standing (or none could fight at all, T-6.12)
            tally.tpk[line] += 1
        for pc in pcs:
            tally.battle_damage[line, "dealt"] += pc.get("damage_dealt", 0)
            tally.battle_damage[line, "taken"] += pc.get("damage_taken", 0)
            if pc.get("life_lost"):
                self.life_lost[pc["id"]] += pc["life_lost"]

    def commit(self, program: Program, run: Run | None, index: int, error: Exception | None) -> None:
        """End the run that just ended (or stopped on ``error``): its rows, for ``finish``."""
        self._add_failed_checks()
        state = run.state if run is not None else None
        scene = state.scene if state is not None else program.scenario.start
        ended = False
        if error is not None:
            tally = self.tally
            statement = self.statement
            span = getattr(error, "span", None) or getattr(statement, "span", None)
            message = error.message if isinstance(error, DeckquestError) else f"{type(error).__name__}: {error}"
            key = (message, getattr(span, "file", ""), getattr(span, "line", 0), scene)
            tally.errors[key] += 1
            _earliest(tally.first_error, {key: (index, None)})
            outcome = ERROR
        else:
            outcome = state.outcome
            if outcome == STUCK:
                self.tally.stuck[scene] += 1
                _earliest(self.tally.first_stuck, {scene: (index, state.outcome_text)})
            else:
                ended = True
        if self.failed:
            self.failed_at += [(outcome, number) for number in self.failed]
        self.reached += self.scenes
        if self.statuses:
            self.fell += self.statuses
        if state is None:  # the run failed as it was dealt: it counts as a run, with no end state
            self.ends.append((outcome, scene, False, None, None, None))
            return
        if self.record_row is not None:
            row = self.record_row(run)
            if row is not None:
                self.system_rows.append(row)
        life_lost = self.life_lost
        dead = 0
        for pc_id, pc in state.pcs.items():
            self.pc_ends.append((pc_id, life_lost[pc_id], len(pc.library), len(pc.exhaustion_zone)))
            dead += pc.status == DEAD
        self.ends.append((outcome, scene, ended, state.clock, state.steps, dead))


#: What a run's record counts: the interpreter builds no other event for it.
_HANDLERS = {"check_group": Recorder._group, "status": Recorder._status, "life": Recorder._life, "battle": Recorder._battle}
EVENT_KINDS = frozenset(_HANDLERS)


def play(program: Program, script_map: ScriptMap, agent, seed: int, index: int,
         max_steps: int, tally: Tally) -> None:
    """Play run ``index`` (seeded ``seed``) to its end and add it to ``tally``."""
    play_runs(program, script_map, agent, [(index, seed)], max_steps, tally)


def play_runs(program: Program, script_map: ScriptMap, agent, runs, max_steps: int,
              tally: Tally) -> None:
    """Play each (run index, seed) of ``runs`` to its end and add it to ``tally``."""
    record = Recorder(script_map, tally)
    for index, seed in runs:
        record.begin()
        run = None
        error = None
        try:
            run = Run(program, agent, random.Random(seed), record=False, listener=record.on_event,
                      kinds=EVENT_KINDS, on_statement=record.on_statement, on_check=record.on_check,
                      on_scene=record.scenes.add,
                      max_steps=max_steps, seed=seed, battle_events=False)  # a summary per battle
            run.run()
        except Exception as failure:  # a run-time error is a finding of the batch, with its seed
            error = failure
        record.commit(program, run, index, error)
    record.finish()
