"""MTG-TRPG's statements and PC actions, run by the interpreter through the game-system seam.

The handlers of ``check``, ``recruit``, ``encounter``, ``fight``, ``battle``, the effects on
PCs (``loses``/``gains`` life, ``draws``, ``give``) and ``the party rests|sleeps``, each
``handler(run, stmt, frame)``; and the PC actions agents take between statements
(``concentrate``, ``rest``, ``play_land``, ``cast``). They change the run through its
public methods (``deckquest.runtime.interpreter.Run``: ``emit``, ``publish``, ``fire``,
``push``, ``push_block``, ``advance``, ``act``, ``ask``, ``resumed``, ``finish``, ``value``,
``pc_named``) and the rules through the engine (``deckquest.engine``); see ``Run``'s module
docstring for the order in which things happen.

The party's decisions (the PCs' actions before a statement, who checks, a support, a boost,
which creature fights) are asked as data: a handler records the decision (``run.ask``, or
``run.act`` for the PCs' actions) and returns; the run calls it again with the answer
(``run.resumed()``). So the handlers are re-entrant, and what a statement has done so far is
in the run's state: a check's ``CheckInProgress`` (its PC, support, revealed cards), a
fight's role, ``Frame.pending`` of ``by each``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from hashlib import blake2b
from typing import Any, Callable, Hashable, Sequence

from deckquest.i18n import _
from deckquest.systems.trpg import nodes
from deckquest.engine import pc as pcs
from deckquest.engine.adventure import (
    CONCENTRATE_MINUTES, NPC_ABSENT, NPC_DEAD, NPC_PRESENT, NPC_UNCONSCIOUS, REST_MINUTES, SLEEP_MINUTES,
    SORCERY_MINUTES, cast_permanent, payment, creature_power, exchange_damage, destroyed, npc_stats, ready_creatures,
    untapped_creatures,
)
from deckquest.engine.adventure import allows, legal_actions
from deckquest.engine.checks import CheckHistory, PendingCheck, begin_check, boost, can_boost, check_note, end_check
from deckquest.engine.combat import BattleAgent, BattleResult, close_fight, decide, fight_over, open_fight, phases
from deckquest.engine.combat.profile import VIGILANCE, profile
from deckquest.engine.combat.turns import MAX_PREPARATION_TURNS
from deckquest.systems.trpg.battles import (
    BATTLE_TURN_MINUTES, BattleInProgress, BattleLog, NoEscape, defeated_enemies, one_horde, summary,
)

#: The run a handler is given (``deckquest.runtime.interpreter.Run``): systems may not import
#: the runtime (docs/development.md, layers), so it, its frames and NPC states are untyped
#: here (``Any``) and read through Python's attribute lookup, compiled or not. (The check
#: sites, ``CheckSite``, are defined here and read typed.)
RunLike = Any


@dataclass(frozen=True, slots=True)
class CheckSite:
    """What a ``check`` or ``recruit`` statement is, worked out once per program
    (``Program.sites``): typed here, so the compiled check handlers read its fields directly. The
    program's table of sites is where ``tune`` sets another difficulty between batches
    (``deckquest.sim.batch.set_difficulty``): the syntax tree is never changed."""

    key: tuple[str, int, int]  # T-4.12: ``check_key`` of the statement
    who: str  # party, each, all, any, or pc (``by NAME`` or ``by pc``)
    pc: str | None  # for who == "pc": a PC id, or "pc" for the PC in scope
    kind: str
    label: str
    success: int | None  # block numbers
    failure: int | None
    recruit: str | None  # the NPC a recruit check is about
    difficulty: int = 0  # as written, or as tuned (a battle's preparation counts permanents)


#: What one PC's check came to: (pc, success, degree, a critical card was revealed).
CheckRecord = tuple[str | None, bool, int, bool]

PC_ACTION = "pc_action"  # the run's decision of PC actions (deckquest.runtime.interpreter.PC_ACTION)
BATTLE_AGENT = "battle_agent"  # Run.memory: the battle player of the battle in progress
STUCK = "stuck"  # the outcome of a run that cannot go on (deckquest.runtime.interpreter.STUCK)
_STATUS_EVENTS = {pcs.DYING: "pc_dying", pcs.UNCONSCIOUS: "pc_unconscious", pcs.DEAD: "pc_dies"}


def _party_rests(run: RunLike, stmt: nodes.Rest, frame: Any) -> None:
    """T-2.6: every PC that can act rests at once (its end-step triggers, then the damage and
    the counter go): one minute."""
    before = _statuses(run, list(run.state.pcs))
    for pc in run.state.pcs.values():
        if pc.can_act:
            phases.rest(pc, run.rng, _phase_events(run))
    _status_changes(run, before)
    if "rest" in run.wanted:
        run.emit("rest", minutes=REST_MINUTES)
    run.advance(REST_MINUTES)


def _party_sleeps(run: RunLike, stmt: nodes.Sleep, frame: Any) -> None:
    """T-2.8: six hours; every living PC reshuffles, draws 7, life 20 (the unconscious too)."""
    run.emit("sleep", minutes=SLEEP_MINUTES)
    sleepers = [key for key, pc in run.state.pcs.items() if pc.status != pcs.DEAD]
    before = _statuses(run, sleepers)
    for key in sleepers:
        pcs.sleep(run.state.pcs[key], run.rng)
    _status_changes(run, before)
    run.advance(SLEEP_MINUTES)


def _targets(run: RunLike, target: nodes.Target, frame: Any) -> list[str]:
    if target.kind == "each":
        return [key for key, pc in run.state.pcs.items() if pc.status != pcs.DEAD]
    if target.kind == "pc":
        return [run.pc_named("pc", frame.pc, target.span).id]
    assert target.pc is not None  # a named target names its PC
    return [target.pc]


def _lose_life(run: RunLike, stmt: nodes.LoseLife, frame: Any) -> None:
    """T-7.4: an action that reduces life, even by 0 (``loses 0 life`` kills a dying PC)."""
    _change_life(run, _targets(run, stmt.target, frame), -stmt.amount, loss=True)


def _gain_life(run: RunLike, stmt: nodes.GainLife, frame: Any) -> None:
    _change_life(run, _targets(run, stmt.target, frame), stmt.amount)


def _change_life(run: RunLike, targets: list[str], change: int, loss: bool = False) -> None:
    """T-7.1, T-7.4: life loss may make a PC dying, or kill a dying or unconscious one."""
    before = _statuses(run, targets)
    for key in targets:
        pc = run.state.pcs[key]
        if pc.status == pcs.DEAD:
            continue
        if loss or change < 0:
            pcs.lose_life(pc, -change)
        else:
            pcs.gain_life(pc, change)
        if "life" in run.wanted:
            run.emit("life", pc=key, change=change, life=pc.life, loss=loss or change < 0)
    _status_changes(run, before)


def _draw(run: RunLike, stmt: nodes.Draw, frame: Any) -> None:
    """Drawing from an empty library makes the PC unconscious (T-7.2)."""
    targets = _targets(run, stmt.target, frame)
    before = _statuses(run, targets)
    for key in targets:
        pc = run.state.pcs[key]
        if pc.status != pcs.DEAD:
            drawn = pcs.draw(pc, stmt.amount)
            if "draw" in run.wanted:
                run.emit("draw", pc=key, count=len(drawn))
    _status_changes(run, before)


def _give(run: RunLike, stmt: nodes.Give, frame: Any) -> None:
    for key in _targets(run, stmt.target, frame):
        run.state.items.setdefault(key, []).append(stmt.item)
        run.emit("give", pc=key, item=stmt.item)


def _statuses(run: RunLike, keys: list[str]) -> list[tuple[str, str]]:
    return [(key, run.state.pcs[key].status) for key in keys]


def _status_changes(run: RunLike, before: list[tuple[str, str]]) -> None:
    """Emit T-7 status changes and fire their triggers, PC by PC in party order."""
    fired = []
    for key, old in before:
        new = run.state.pcs[key].status
        if new != old:
            run.emit("status", pc=key, status=new)
            if new == pcs.DEAD:
                run.state.party_dead = all(pc.status == pcs.DEAD for pc in run.state.pcs.values())
            event = _STATUS_EVENTS.get(new)
            if event:
                fired.append((event, key))
    for event, key in reversed(fired):
        run.fire(event, pc=key)


@dataclass(slots=True, init=False)
class CheckInProgress:
    """A check statement waiting for the party's decision (``RunState.asked.progress``):
    plain data, so that a run is saved and cloned at any of a check's decisions.

    ``mode`` says what the check belongs to: "one" (``by party`` or a PC), "group" (``all``,
    ``any``: ``pcs`` still to check, ``records`` of those checked), "each" (``by each``: the
    frame's ``pending`` holds the PCs after this one) or "prepare" (a battle's T-6.2 check:
    ``battle`` holds what the battle opens with). ``pc``, ``difficulty``, the ``support`` and
    ``supporter`` chosen and, once the cards are revealed, the ``pending`` check are the
    check being made. Its ``__init__`` is written out (the same defaults): the one
    ``dataclass`` makes runs interpreted in the compiled build (setup.py), and every check
    makes one.
    """

    mode: str
    difficulty: int
    pc: str | None = None
    pcs: list[str] | None = None  # (lists in "group" mode only: two checks a run spared the making)
    records: list[CheckRecord] | None = None
    support: int = 0
    supporter: str | None = None
    pending: PendingCheck | None = None
    battle: dict[str, Any] | None = None

    def __init__(self, mode: str, difficulty: int, pc: str | None = None, pcs: list[str] | None = None,
                 records: list[CheckRecord] | None = None, support: int = 0, supporter: str | None = None,
                 pending: PendingCheck | None = None, battle: dict[str, Any] | None = None) -> None:
        self.mode = mode
        self.difficulty = difficulty
        self.pc = pc
        self.pcs = pcs
        self.records = records
        self.support = support
        self.supporter = supporter
        self.pending = pending
        self.battle = battle

    def copy(self) -> "CheckInProgress":
        pending = self.pending
        if pending is not None:
            pending = replace(pending, revealed=list(pending.revealed), reveal_order=list(pending.reveal_order),
                              known=list(pending.known), boost_cards=list(pending.boost_cards))
        battle = self.battle
        if battle is not None:
            battle = {key: list(value) if type(value) is list else value for key, value in battle.items()}
        return CheckInProgress(self.mode, self.difficulty, self.pc, None if self.pcs is None else list(self.pcs),
                               None if self.records is None else list(self.records), self.support, self.supporter,
                               pending, battle)


def _check(run: RunLike, stmt: nodes.Check | nodes.Recruit, frame: Any) -> None:
    """``check`` and ``recruit`` (T-8.4: a negotiation check; success makes the NPC cooperate).

    Re-entrant: the party's decisions (who checks, support, boost) stop the statement, and
    the run resumes it with the answer (``run.resumed()``) and the ``CheckInProgress``."""
    site: CheckSite = run.program.sites[id(stmt)]
    reply = run.reply  # (``run.resumed()``, without its call: checks are the hot statements)
    if reply is not None:
        run.reply = None
    if reply is not None and reply[0].kind != PC_ACTION:
        record = _go_on_checking(run, site, frame, *reply)
        if record is not None:
            _checked(run, site, frame, reply[0].progress, record)
        return
    who = site.who
    if who == "each":
        _check_each(run, site, frame, reply)
        return
    if reply is None and run.agent_acts and run.act("check", frame):
        return
    difficulty = site.difficulty
    if who == "all" or who == "any":
        _group(run, site, frame, CheckInProgress("group", difficulty, None, _check_candidates(run, site, difficulty), []))
        return
    progress = CheckInProgress("one", difficulty)
    if who == "pc":
        progress.pc = frame.pc if site.pc == "pc" else site.pc  # `by pc`: the PC in scope
    else:
        candidates = _check_candidates(run, site, difficulty)
        if candidates:
            pc = run.ask("pick_pc", tuple(candidates), frame, about={"kind": site.kind, "difficulty": difficulty},
                         progress=progress)
            if pc is run.WAIT:
                return
            progress.pc = pc
    record = _one_check(run, site, frame, progress)
    if record is not None:  # (``_checked`` of the mode "one")
        _after_check(run, site, record[1], record[0], record[2], (record,) if record[3] else (), frame)


def _checked(run: RunLike, site: CheckSite, frame: Any, progress: CheckInProgress, record: CheckRecord) -> None:
    """A PC's check is made: what follows it in the statement the check belongs to."""
    if progress.mode == "group":
        assert progress.records is not None  # (a list in "group" mode)
        progress.records.append(record)
        _group(run, site, frame, progress)
    elif progress.mode == "each":
        _each_checked(run, site, frame, record)
    else:
        _after_check(run, site, record[1], record[0], record[2], (record,) if record[3] else (), frame)


def _group(run: RunLike, site: CheckSite, frame: Any, progress: CheckInProgress) -> None:
    """``all`` succeeds if every PC succeeds (``pc`` and ``degree`` are the worst check's),
    ``any`` if one does (the best check's); the PCs check one after the other."""
    records = progress.records
    assert records is not None  # (a list in "group" mode)
    while progress.pcs:
        progress.pc = progress.pcs.pop(0)
        record = _one_check(run, site, frame, progress)
        if record is None:
            return  # waits for the party's decision
        records.append(record)
    who = site.who
    if not records:
        outcome, deciding = False, None
    elif who == "all":
        deciding = min(records, key=lambda r: r[2])
        outcome = all(r[1] for r in records)
    else:
        deciding = max(records, key=lambda r: r[2])
        outcome = any(r[1] for r in records)
    pc = deciding[0] if deciding else None
    degree = deciding[2] if deciding else 0
    if "check_group" in run.wanted:
        run.publish({"event": "check_group", "clock": run.state.clock, "who": who,
                     "label": site.label, "success": outcome, "degree": degree, "pc": pc})
    _after_check(run, site, outcome, pc, degree, [r for r in records if r[3]], frame)


def _check_each(run: RunLike, site: CheckSite, frame: Any, reply: tuple[Any, Hashable] | None) -> None:
    """``by each``: one PC per visit of this statement, its block right after its check."""
    if frame.pending is None:
        if reply is None and run.agent_acts and run.act("check", frame):
            return
        frame.pending = [p for p, pc in run.state.pcs.items() if pc.status != pcs.DEAD]
    if not frame.pending:
        frame.pending = None
        return
    record = _one_check(run, site, frame, CheckInProgress("each", site.difficulty, frame.pending.pop(0)))
    if record is not None:
        _each_checked(run, site, frame, record)


def _each_checked(run: RunLike, site: CheckSite, frame: Any, record: CheckRecord) -> None:
    if frame.pending:
        frame.index -= 1  # come back to this statement for the next PC
    else:
        frame.pending = None
    _after_check(run, site, record[1], record[0], record[2], (record,) if record[3] else (), frame)


def _check_candidates(run: RunLike, site: CheckSite, difficulty: int, among: list[str] | None = None) -> list[str]:
    """The PCs (of ``among``, else the party) that may make this check: conscious, and not
    made the very same check already (T-4.12)."""
    made = run.state.checks_made
    action = check_action(run, site)
    ids = run.state.pcs if among is None else among
    return [p for p in ids if run.state.pcs[p].status in pcs.ABLE and made.allows(p, action, site.kind, difficulty)]


def check_action(run: RunLike, site: CheckSite) -> tuple[Hashable, str]:
    """What a check is for, in ``RunState.checks_made`` (T-4.12): its statement and the situation."""
    return site.key, situation(run.state)


def situation(state: Any) -> str:
    """T-4.12: what makes a check at the same statement no longer "the very same" when it
    changes (docs/checks.md): the values of the flags and counters, the NPCs' states
    (status, cooperating, controller, damage) and the items given. A scene left and entered
    again, time passing, and the PCs' own cards and life do not. A short digest of them
    (plain text for saves; the same values give the same digest in every process)."""
    flags: dict[str, bool] = state.flags
    counters: dict[str, int] = state.counters
    npcs: dict[str, Any] = state.npcs
    items: dict[str, list[str]] = state.items  # (often none: () without a call)
    values = (tuple(flags.values()) if flags else (), tuple(counters.values()) if counters else (),
              tuple([(n.status, n.cooperating, n.controller, n.damage) for n in npcs.values()]) if npcs else (),
              tuple([(pc, tuple(held)) for pc, held in items.items()]) if items else ())
    digest = _SITUATIONS.get(values)
    if digest is None:
        if len(_SITUATIONS) >= _SITUATIONS_LIMIT:
            _SITUATIONS.clear()
        digest = _SITUATIONS[values] = blake2b(repr(values).encode(), digest_size=8).hexdigest()
    return digest


#: ``situation``'s digests by the values they digest: every check of a batch asks for one, and
#: a batch's runs meet few situations. Equal values have the same text (flags hold booleans,
#: counters integers, NPCs' states strings, booleans, None and integers, items strings: the
#: language and save.schema.json allow no other), so the digest kept is the one made afresh.
_SITUATIONS: dict[tuple[tuple[object, ...], ...], str] = {}
_SITUATIONS_LIMIT = 4096


def _after_check(run: RunLike, site: CheckSite, outcome: bool, pc: str | None, degree: int,
                 critical_records: Sequence[CheckRecord], frame: Any) -> None:
    """Queue the block, then the check's triggers above it, then critical-card triggers."""
    recruit = site.recruit
    if recruit is not None:
        npc = run.state.npcs[recruit]
        if outcome:
            npc.cooperating = True
            if npc.status == NPC_ABSENT:
                npc.status = NPC_PRESENT
        if "recruit" in run.wanted:
            run.emit("recruit", npc=recruit, name=run.scenario.npcs[recruit].name, success=outcome)
    block = site.success if outcome else site.failure
    if block is not None:
        run.push_block(block, pc, degree, frame.in_trigger)
    triggers = run.program.scene_triggers[run.state.scene]
    event = "check_succeeds" if outcome else "check_fails"
    if event in triggers:
        run.fire(event, pc=pc, degree=degree)
    if "critical_revealed" in triggers:
        for record in reversed(critical_records):
            run.fire("critical_revealed", pc=record[0], degree=record[2])


def _one_check(run: RunLike, site: CheckSite, frame: Any, progress: CheckInProgress) -> CheckRecord | None:
    """One PC's check (``progress.pc``), step by step: support, reveal, boost, finish (T-3.3,
    T-4, T-5). The party may support it with a ready creature ("support"): then it waits.

    Returns (pc, success, degree, a critical card was revealed), or None while it waits;
    the event carries the rest.
    """
    state = run.state
    party: dict[str, pcs.PC] = state.pcs  # (typed: the compiled build reads them directly)
    made: CheckHistory = state.checks_made
    kind = site.kind
    pc_id = progress.pc
    difficulty = progress.difficulty
    pc = party.get(pc_id) if pc_id is not None else None
    action = site.key, situation(state)  # (``check_action``)
    if pc_id is None or pc is None or pc.status not in pcs.ABLE or not made.allows(pc_id, action, kind, difficulty):
        return _refused_check(run, site, pc_id, pc, kind, difficulty)
    made.record(pc_id, action, kind, difficulty)
    if pc.concentration_counter:
        rest(run, pc_id)  # T-2.5: no checks with a concentration counter
    progress.support, progress.supporter = 0, None
    if pc.battlefield:  # T-3.3, T-4.13: the party may tap one of the PC's ready creatures
        ready = ready_creatures(pc)
        if ready:
            index = run.ask("support", (None, *ready), frame, about={"pc": pc_id, "kind": kind, "difficulty": difficulty},
                            progress=progress)
            return None if index is run.WAIT else _supported(run, site, frame, progress, index)
    return _reveal(run, site, frame, progress, pc)


def _supported(run: RunLike, site: CheckSite, frame: Any, progress: CheckInProgress, index: int | None) -> CheckRecord | None:
    """The creature the party tapped to support the check (a battlefield index), or None."""
    pc: pcs.PC = run.state.pcs[progress.pc]
    if index is not None:
        permanent = pc.battlefield[index]
        permanent.tapped = True
        progress.support, progress.supporter = creature_power(pc, permanent), pc.cards[permanent.card].name
    return _reveal(run, site, frame, progress, pc)


def _go_on_checking(run: RunLike, site: CheckSite, frame: Any, asked: Any, action: Any) -> CheckRecord | None:
    """Resume a check with the party's answer to ``asked``: who checks, the support, the boost."""
    progress = asked.progress
    if asked.kind == "pick_pc":
        progress.pc = action
        return _one_check(run, site, frame, progress)
    if asked.kind == "support":
        return _supported(run, site, frame, progress, action)
    pending, progress.pending = progress.pending, None
    return _end_check(run, site, progress, pending, action, run.state.pcs[progress.pc])


def _reveal(run: RunLike, site: CheckSite, frame: Any, progress: CheckInProgress, pc: pcs.PC) -> CheckRecord | None:
    """T-4.2, T-4.3: the cards are revealed; the party may boost the check if T-4.6 allows
    ("boost"): then it waits, with the check as revealed in the state."""
    pending = begin_check(pc, site.kind, progress.difficulty, run.rng, run.program.rules, progress.support)
    if can_boost(pc, pending):
        progress.pending = pending
        boosted = run.ask("boost", (False, True), frame, about={"pc": pc.id}, progress=progress)
        if boosted is run.WAIT:
            return None
        progress.pending = None
        return _end_check(run, site, progress, pending, boosted, pc)
    return _end_check(run, site, progress, pending, False, pc)


def _end_check(run: RunLike, site: CheckSite, progress: CheckInProgress, pending: PendingCheck, boosted: bool,
               pc: pcs.PC) -> CheckRecord:
    pc_id = progress.pc
    rng = run.rng
    rules = run.program.rules
    if boosted:
        boost(pc, pending, rng)
    end_check(pc, pending, rng)
    success, degree = pending.success, pending.result - pending.target
    # T-4.7 is a 2019 rule: the 2014 rules have no critical cards (docs/checks.md)
    critical = rules != "2014" and not pc.critical_cards.isdisjoint(pending.reveal_order)
    if run.forced is not None:
        success, degree = _outcome(run, pc_id, success, degree)
    if "check" in run.wanted:
        run.publish(_check_event(run, pc, pending, site.label, success, degree, boosted, progress.supporter))
    if run.on_check is not None:
        run.on_check((site.key, pc_id, success, bool(pending.reveal_order)))
    return pc_id, success, degree, critical


def _refused_check(run: RunLike, site: CheckSite, pc_id: str | None, pc: pcs.PC | None, kind: str,
                   difficulty: int) -> CheckRecord:
    """No card is revealed: the check fails (T-4.4) by at least 1, as if the result were 0."""
    if pc is None:
        refusal = _("no PC can make this check")
    elif pc.status not in pcs.ABLE:
        refusal = _("{pc} is {status} and cannot make a check (T-7.2)", pc=pc.name, status=pcs.status_word(pc.status))
    else:
        refusal = _("{pc} already made this very check, and nothing has changed since (T-4.12)", pc=pc.name)
    success, degree = _outcome(run, pc_id, False, -max(1, difficulty))
    run.emit("check", pc=pc_id, kind=kind, difficulty=difficulty, label=site.label, cards=[],
               color=None, target=difficulty, result=difficulty + degree, degree=degree, success=success,
               critical=None, criticals=[], boost=False, boost_cards=[], boost_bonus=0,
               support=0, supporter=None, note=refusal)
    if run.on_check is not None:
        run.on_check((site.key, pc_id, success, False))
    return pc_id, success, degree, False


def _check_event(run: RunLike, pc: pcs.PC, pending: PendingCheck, label: str | None, success: bool, degree: int,
                 boosted: bool, supporter: str | None) -> dict[str, object]:
    """The ``check`` event of a check that revealed (or tried to reveal) its cards."""
    criticals = ([i for i in pending.reveal_order if i in pc.critical_cards]
                 if run.program.rules != "2014" else [])
    return {
        "event": "check", "clock": run.state.clock, "pc": pc.id, "kind": pending.kind,
        "difficulty": pending.difficulty, "label": label, "cards": pc.names(pending.reveal_order),
        "color": pending.color, "target": pending.target, "result": pending.result,
        "degree": degree, "success": success, "critical": pending.critical,
        "criticals": pc.names(criticals), "boost": boosted,
        "boost_cards": pc.names(pending.boost_cards), "boost_bonus": pending.boost_bonus,
        "support": pending.support, "supporter": supporter, "note": check_note(pending),
    }


def _outcome(run: RunLike, pc_id: str | None, success: bool, degree: int) -> tuple[bool, int]:
    """A check's success and degree, unless ``forced`` decides them (explore mode): a
    forced success has a degree of at least 0, a forced failure below 0, or the degree
    forced with it. A check that no PC was there to make stays failed."""
    forced = run.forced
    if forced is None or pc_id is None:
        return success, degree
    if type(forced) is tuple:
        return forced
    return forced, (max(degree, 0) if forced else min(degree, -1))


def _encounter(run: RunLike, stmt: nodes.Encounter, frame: Any) -> None:
    npc = run.state.npcs[stmt.npc]
    if npc.status == NPC_ABSENT:
        npc.status = NPC_PRESENT
    if "encounter" in run.wanted:
        run.emit("encounter", npc=stmt.npc, name=run.scenario.npcs[stmt.npc].name)


def _take_control(run: RunLike, stmt: nodes.TakeControl, frame: Any) -> None:
    """T-8.4: a PC pays the NPC's exact mana cost, colours included, from its untapped mana
    sources, and controls it; the NPC must cooperate already and not be defeated.

    ``by NAME`` (or ``by pc``) names the PC; ``by party`` (the default) is the first PC in
    party order that can pay. Paying takes no game time. Then the ``success:`` or
    ``failure:`` block runs.
    """
    decl = run.scenario.npcs[stmt.npc]
    npc = run.state.npcs[stmt.npc]
    if run.resumed() is None and run.agent_acts and run.act("take control", frame):
        return  # (resumed: the PCs acted)
    who = stmt.by.pc if stmt.by is not None and stmt.by.kind == "pc" else None
    if who == "pc":
        who = frame.pc
    payer, note = _payer(run, decl, npc, who)
    if payer is not None:
        pc = run.state.pcs[payer]
        for index in payment(pc, decl.battle_card()) or ():
            pc.battlefield[index].tapped = True
        npc.controller = payer
    run.emit("take_control", npc=stmt.npc, name=decl.name, pc=payer, cost=decl.cost,
             success=payer is not None, note=note)
    block = stmt.success if payer is not None else stmt.failure
    if block is not None:
        run.push(block, frame)


def _payer(run: RunLike, decl: Any, npc: Any, who: str | None) -> tuple[str | None, str]:
    """The PC that pays for the NPC (T-8.4), or None and why nobody can."""
    if not npc.cooperating:
        return None, _("{name} does not cooperate (recruit it first, T-8.4)", name=decl.name)
    if npc.status in (NPC_UNCONSCIOUS, NPC_DEAD):
        return None, _("{name} is {status}", name=decl.name, status=pcs.status_word(npc.status))
    if npc.controller is not None:
        return None, _("{pc} controls {name} already", pc=run.state.pcs[npc.controller].name, name=decl.name)
    card = decl.battle_card()
    able = [key for key, pc in run.state.pcs.items() if pc.can_act and (who is None or key == who)]
    payers = [key for key in able if payment(run.state.pcs[key], card) is not None]
    if not payers:
        return None, _("no PC can pay {cost} with untapped mana sources", cost=decl.cost)
    return payers[0], ""


def _fight(run: RunLike, stmt: nodes.Fight, frame: Any) -> None:
    """T-3.1 to T-3.4: a creature of the party attacks the NPC, or blocks it, or the NPC
    hurts a PC.

    Attacking (T-3.1) taps the creature (not with vigilance) and needs its PC's
    concentration counter and a creature that may tap (untapped, not summoning sick,
    T-2.10). Without an attacker a creature NPC attacks the party: any untapped creature
    of a PC that can act may block it (T-3.2: instant speed, no counter, summoning sick
    or not, no tap), dealing its power back. Damage stays on a creature until its PC
    rests (T-2.6). With neither, the NPC deals its power to the PC in scope (else the
    first PC that can act) as life loss: nothing stood between it and the PC.
    """
    decl = run.scenario.npcs[stmt.npc]
    npc = run.state.npcs[stmt.npc]
    reply = run.resumed()
    if reply is None:
        if npc.status in (NPC_UNCONSCIOUS, NPC_DEAD):
            run.emit("fight", npc=stmt.npc, name=decl.name, pc=None, creature=None,
                     holding_back=stmt.holding_back, dealt=0, taken=0, npc_defeated=False,
                     creature_died=False, blocked=False,
                     note=_("{name} is already {status}", name=decl.name, status=pcs.status_word(npc.status)))
            return
        npc.status = NPC_PRESENT
        if run.agent_acts and run.act("fight", frame):
            return
        role, pick = None, None
    else:  # the PCs acted ("done"), or the party named its attacker or blocker
        role = reply[0].progress
        pick = reply[1] if role is not None else None
    able = [(key, pc) for key, pc in run.state.pcs.items() if pc.can_act]
    if role is None:
        role = "attack"
        attackers = [(key, index) for key, pc in able if pc.concentration_counter for index in ready_creatures(pc)]
        if attackers:
            pick = run.ask("fighter", (None, *attackers), frame, about={"npc": stmt.npc, "role": role}, progress=role)
            if pick is run.WAIT:
                return
    if pick is None and role == "attack" and decl.kind == "creature":
        blockers = [(key, index) for key, pc in able for index in untapped_creatures(pc)]
        if blockers:
            role = "block"
            pick = run.ask("fighter", (None, *blockers), frame, about={"npc": stmt.npc, "role": role}, progress=role)
            if pick is run.WAIT:
                return
    blocked = role == "block" and pick is not None
    power, toughness, keywords = npc_stats(decl)
    if pick is None:
        _fight_bare(run, stmt, decl, power, frame)
        return
    owner, index = pick
    pc = run.state.pcs[owner]
    permanent = pc.battlefield[index]
    card = pc.cards[permanent.card]
    mine = profile(card)
    my_power = creature_power(pc, permanent)
    my_toughness = mine.toughness + permanent.plus_counters - permanent.damage
    remaining = toughness - npc.damage
    dealt, taken = exchange_damage(my_power, mine.keywords, my_toughness,
                                    power, keywords, remaining)
    npc.damage += dealt
    if not blocked and not mine.keywords & VIGILANCE:
        permanent.tapped = True
    npc_down = destroyed(dealt, remaining, mine.keywords, keywords)
    creature_died = destroyed(taken, my_toughness, keywords, mine.keywords)
    if creature_died:
        pc.battlefield.pop(index)
        pc.graveyard.append(permanent.card)
    else:
        permanent.damage += taken  # T-2.6: until its PC rests
    run.emit("fight", npc=stmt.npc, name=decl.name, pc=owner, creature=card.name,
               holding_back=stmt.holding_back, dealt=dealt, taken=taken,
               npc_defeated=npc_down, creature_died=creature_died, blocked=blocked, note="")
    if npc_down:
        _defeat_npc(run, stmt.npc, stmt.holding_back)


def _fight_bare(run: RunLike, stmt: nodes.Fight, decl: Any, power: int, frame: Any) -> None:
    able = [key for key, pc in run.state.pcs.items() if pc.can_act]
    victim = frame.pc if frame.pc is not None and frame.pc in able else (able[0] if able else None)
    run.emit("fight", npc=stmt.npc, name=decl.name, pc=victim, creature=None,
               holding_back=stmt.holding_back, dealt=0, taken=power if victim else 0,
               npc_defeated=False, creature_died=False, blocked=False, note=_("no creature to fight for the party"))
    if victim is not None and power > 0:
        _change_life(run, [victim], -power)


def _defeat_npc(run: RunLike, npc_id: str, holding_back: bool) -> None:
    """T-3.4: held back, a defeated creature is unconscious (a 0/1 defender), not dead."""
    status = NPC_UNCONSCIOUS if holding_back else NPC_DEAD
    run.state.npcs[npc_id].status = status
    run.emit("npc_defeated", npc=npc_id, name=run.scenario.npcs[npc_id].name, status=status)
    run.fire("npc_defeated", npc=npc_id)


def _battle(run: RunLike, stmt: nodes.Battle, frame: Any) -> None:
    """Open the battle; it stays in the run's state (``RunState.battle``) and each later step
    answers one of the survivors' decisions (``battle_step``) until it is over. Its triggers
    run after it, then the outcome's block."""
    reply = run.resumed()
    if reply is not None and reply[0].kind != PC_ACTION:  # the preparation check's decisions
        asked = reply[0]
        site: CheckSite = run.program.sites[id(stmt)]
        record = _go_on_checking(run, site, frame, *reply)
        if record is not None:
            _open_battle(run, stmt, frame, asked.progress.battle, _preparation_turns(record))
        return
    if reply is None and run.agent_acts and run.act("battle", frame):
        return
    state = run.state
    depth = len(state.frames)  # the outcome's block goes here, under the battle's triggers
    allies = _allies(run)  # T-8.2, T-8.4: they fight on the party's side, even if named as enemies
    enemies = [ref.name for ref in stmt.enemies if ref.name not in allies
               and state.npcs[ref.name].status not in (NPC_DEAD, NPC_UNCONSCIOUS)]
    for npc_id in enemies:
        state.npcs[npc_id].status = NPC_PRESENT
    fighters = [pc for pc in state.pcs.values() if pc.status == pcs.OK]
    if "combat" in run.wanted:
        run.emit("combat", line=stmt.span.line, enemies=list(enemies),
                 names=[run.scenario.npcs[n].name for n in enemies], pcs=[pc.id for pc in fighters],
                 allies=allies, ally_names=[run.scenario.npcs[n].name for n in allies])
    before = _statuses(run, list(state.pcs))
    if not fighters:  # T-6.12: with every PC out of the fight, the survivors have lost at once
        _after_battle(run, stmt, frame, depth, None, enemies, before, [])
        return
    opening = {"depth": depth, "enemies": enemies, "allies": allies, "before": before,
               "fighters": [pc.id for pc in fighters]}
    turns = _preparation(run, stmt, frame, fighters, opening)
    if turns is not None:
        _open_battle(run, stmt, frame, opening, turns)


def _open_battle(run: RunLike, stmt: nodes.Battle, frame: Any, opening: dict[str, Any], turns: int) -> None:
    """Deal the battle after its preparation (``turns`` preparation turns, T-6.2)."""
    state = run.state
    enemies, allies = opening["enemies"], opening["allies"]
    fighters = [state.pcs[pc_id] for pc_id in opening["fighters"]]
    progress = BattleInProgress(None, opening["depth"], enemies, opening["before"], [], state.clock,  # type: ignore[arg-type]
                                state.clock)
    log = _log(run, progress)
    if log is not None:
        log.append({"event": "battle_preparation", "turns": turns})
    foes = one_horde([run.program.enemy(npc_id) for npc_id in enemies])
    progress.fight = open_fight(fighters, foes, run.rng, rules=run.program.rules, prepare=turns, events=log,
                                allies=[run.program.enemy(npc_id) for npc_id in allies])
    _keep_clock(progress, log)
    run.memory[BATTLE_AGENT] = _battle_agent(run, stmt)
    state.battle = progress
    _go_on(run, progress, stmt, frame, log)


def battle_step(run: RunLike) -> None:
    """One decision of the survivors in the battle in progress, answered by the run's battle
    agent and applied; the step that ends the battle closes it (``_after_battle``).

    In ``Run.run()``'s loop (``run.inline``) nobody steps in between two of the battle's
    decisions, so the battle's decisions are all answered here, one after the other: the
    same decisions in the same order from the same generator, without going back through
    the interpreter's loop for each one (a battle is most of a batch run's decisions)."""
    progress: BattleInProgress = run.state.battle
    frame = run.state.frames[progress.depth - 1]
    stmt = run.program.blocks[frame.block][frame.index - 1]
    agent = run.memory.get(BATTLE_AGENT)
    if agent is None:  # a resumed run: the agent's battle player starts afresh
        agent = run.memory[BATTLE_AGENT] = _battle_agent(run, stmt)
    log = _log(run, progress)
    fight, rng = progress.fight, run.rng
    on_turn = _on_turn(run, progress)
    while True:
        decide(fight.battle, agent, rng, log)
        _keep_clock(progress, log)
        if fight_over(fight, log, on_turn):
            _close_battle(run, progress, stmt, frame, log)
            return
        if not run.inline:
            return


def _go_on(run: RunLike, progress: BattleInProgress, stmt: nodes.Battle, frame: Any, log: BattleLog | None) -> None:
    """Count the turns begun; when the battle is over, close it and run what follows it."""
    if fight_over(progress.fight, log, _on_turn(run, progress)):
        _close_battle(run, progress, stmt, frame, log)


def _on_turn(run: RunLike, progress: BattleInProgress) -> Callable[[int], None] | None:
    """Where the turns begun are counted, for the ``battle turn N`` triggers (None: none)."""
    return progress.reached.append if "battle_turn" in run.program.by_event else None


def _close_battle(run: RunLike, progress: BattleInProgress, stmt: nodes.Battle, frame: Any,
                  log: BattleLog | None) -> None:
    run.state.battle = None
    run.memory.pop(BATTLE_AGENT, None)
    fighters = [run.state.pcs[fought.id] for fought in progress.fight.battle.survivors]
    result = close_fight(progress.fight, fighters, run.rng, log)
    _after_battle(run, stmt, frame, progress.depth, result, progress.enemies, progress.before,
                  progress.reached)


def _after_battle(run: RunLike, stmt: nodes.Battle, frame: Any, depth: int, result: BattleResult | None,
                  enemies: list[str], before: list[tuple[str, str]], reached: list[int]) -> None:
    """The battle's time and summary, then its triggers queued to run before the outcome's
    block, in this order: ``battle turn N`` for each turn played (in turn order), the T-7
    status changes of the PCs (``a pc is dying``, ``falls unconscious``), ``NPC is defeated``
    for every enemy the battle beat (and every ally that fell on the party's side), then
    ``after N minutes`` now due. A stalemate (a battle that would not end) ends the run as
    stuck, with the limit that stopped it (``BattleResult.stopped``)."""
    if result is None:
        outcome, turns, beaten = "defeat", 0, []
    else:
        outcome, turns = result.outcome, result.turns
        beaten = defeated_enemies(result, enemies, run.scenario)
        beaten += [ally.id for ally in result.allies if ally.defeated]  # fell on the party's side
    run.advance(turns * BATTLE_TURN_MINUTES)
    if "battle" in run.wanted:
        run.emit("battle", **summary(result, stmt.span.line, enemies, beaten))
    for npc_id in reversed(beaten):
        _defeat_npc(run, npc_id, holding_back=False)
    _status_changes(run, before)
    for turn in reversed(reached):
        fire_battle_turn(run, turn)
    if outcome == "stalemate":  # BattleResult.stopped: which limit was hit, in words
        run.finish(STUCK, _("the battle at line {line} did not end: {reason}", line=stmt.span.line,
                            reason=result.stopped if result is not None else ""))
        return
    block = {"victory": stmt.victory, "defeat": stmt.defeat, "escape": stmt.escape}[outcome]
    if block is not None:
        run.push(block, frame)
        run.state.frames.insert(depth, run.state.frames.pop())


def _allies(run: RunLike) -> list[str]:
    """The NPCs that fight on the party's side (T-8.2, T-8.4): creature and planeswalker NPCs
    that cooperate or are controlled, and are not defeated."""
    return [npc_id for npc_id, npc in run.state.npcs.items()
            if (npc.cooperating or npc.controller is not None)
            and npc.status not in (NPC_DEAD, NPC_UNCONSCIOUS)
            and run.scenario.npcs[npc_id].kind in ("creature", "planeswalker")]


def _battle_agent(run: RunLike, stmt: nodes.Battle) -> BattleAgent:
    """The agent's battle player; with no ``escape:`` block the party cannot escape."""
    agent = run.agent.battle_agent()
    return agent if stmt.escape is not None else NoEscape(agent)


def _log(run: RunLike, progress: BattleInProgress) -> BattleLog | None:
    """The battle's events, passed on as they happen with their clock (None: none wanted)."""
    if not (run.battle_events and (run.events is not None or run.listener is not None)):
        return None
    log = BattleLog(run.publish, progress.start)
    log.clock = progress.clock
    return log


def _keep_clock(progress: BattleInProgress, log: BattleLog | None) -> None:
    if log is not None:
        progress.clock = log.clock


def _preparation(run: RunLike, stmt: nodes.Battle, frame: Any, fighters: list[pcs.PC],
                 opening: dict[str, Any]) -> int | None:
    """T-6.2: the representative's red (2014: reflex) check, difficulty = the permanents
    the party controls; a success gives its degree in preparation turns, at most 5.

    ``prepare by party`` lets the party pick the representative among the PCs in the
    fight ("pick_pc"), ``prepare by alice`` names one. Without ``prepare by`` there is no
    check and no preparation turn: the horde moves first (T-6.11's first turns are T-6.2's
    in this game). The check is part of the battle: it fires no check triggers. None while
    the check waits for the party's decision (``opening``: what the battle opens with then).
    """
    if stmt.prepare is None:
        return 0
    site: CheckSite = run.program.sites[id(stmt)]
    difficulty = sum(len(pc.battlefield) for pc in fighters)
    progress = CheckInProgress("prepare", difficulty, battle=opening)
    if site.who == "pc":
        progress.pc = frame.pc if site.pc == "pc" else site.pc
    else:
        candidates = _check_candidates(run, site, difficulty, [pc.id for pc in fighters])
        if candidates:
            pc = run.ask("pick_pc", tuple(candidates), frame, about={"kind": site.kind, "difficulty": difficulty},
                         progress=progress)
            if pc is run.WAIT:
                return None
            progress.pc = pc
    record = _one_check(run, site, frame, progress)
    return None if record is None else _preparation_turns(record)


def _preparation_turns(record: CheckRecord) -> int:
    _pc, success, degree, _critical = record
    return min(MAX_PREPARATION_TURNS, degree) if success else 0


def fire_battle_turn(run: RunLike, turn: int) -> None:
    """Queue the ``when battle turn N`` triggers of turn ``turn`` (a turn the battle played)."""
    run.fire("battle_turn", number=turn)


# ---------------------------------------------------------------- what PCs do between statements
# (called by agents; docs/agents.md)


def concentrate(run: RunLike, pc_id: str, card_id: int | None = None) -> None:
    """T-2.4: one minute; untap, end summoning sickness, upkeep triggers, draw to 7,
    concentration counter (``engine.combat.phases``)."""
    pc = run.state.pcs[pc_id]
    status = pc.status
    phases.concentrate(pc, run.rng, _phase_events(run))
    _action(run, pc_id, "concentrate", None, CONCENTRATE_MINUTES)
    if pc.status != status:  # (``_status_changes`` of one PC, called only when there is one)
        _status_changes(run, [(pc_id, status)])


def rest(run: RunLike, pc_id: str, card_id: int | None = None) -> None:
    """T-2.6: one minute; end-step triggers, then damage leaves creatures and the
    concentration counter goes (``engine.combat.phases``)."""
    pc = run.state.pcs[pc_id]
    status = pc.status
    phases.rest(pc, run.rng, _phase_events(run))
    _action(run, pc_id, "rest", None, REST_MINUTES)
    if pc.status != status:
        _status_changes(run, [(pc_id, status)])


def _phase_events(run: RunLike) -> BattleLog | None:
    """Where the triggers of a concentration or rest report (the battle engine's events,
    ``battle_trigger`` and what it did, stamped with the clock), when the run records or
    listens; else None."""
    if run.battle_events and (run.events is not None or run.listener is not None):
        return BattleLog(run.publish, run.state.clock)
    return None


def play_land(run: RunLike, pc_id: str, card_id: int) -> None:
    """T-2.3, T-2.5: a sorcery-speed action of one minute, once per concentration."""
    pc = run.state.pcs[pc_id]
    pcs.play_land(pc, card_id)
    _action(run, pc_id, "play_land", pc.cards[card_id].name, SORCERY_MINUTES)


def cast(run: RunLike, pc_id: str, card_id: int) -> None:
    """T-2.3, T-2.5: cast a permanent spell from hand, paying with untapped mana sources."""
    pc = run.state.pcs[pc_id]
    cast_permanent(pc, card_id)
    _action(run, pc_id, "cast", pc.cards[card_id].name, SORCERY_MINUTES)


def _action(run: RunLike, pc_id: str, action: str, card: str | None, minutes: int) -> None:
    if "action" in run.wanted:
        run.emit("action", pc=pc_id, action=action, card=card, minutes=minutes)
    run.advance(minutes)


# What agents may do between statements (deckquest.engine.adventure.legal_actions): each
# ``action(run, pc id, card id)``, applied by the run (GameSystem.pc_actions).
PC_ACTIONS = {"concentrate": concentrate, "rest": rest, "play_land": play_land, "cast": cast}


def legal_pc_actions(run: RunLike) -> list[tuple[str, str, int | None]]:
    """Every PC's legal actions now, (pc id, action, card id), party order: a "pc_action"
    decision's actions before its "done" (GameSystem.legal_pc_actions)."""
    return [(pc_id, action, card_id) for pc_id, pc in run.state.pcs.items()
            for action, card_id, _text in legal_actions(pc)]


def allows_pc_action(run: RunLike, action: Any) -> bool:
    """Whether ``action``, (pc id, action, card id), is legal now (GameSystem.allows_pc_action)."""
    try:
        pc_id, name, card_id = action
        pc = run.state.pcs[pc_id]
    except (TypeError, ValueError, KeyError):
        return False
    return type(action) is tuple and name in PC_ACTIONS and allows(pc, name, card_id)
