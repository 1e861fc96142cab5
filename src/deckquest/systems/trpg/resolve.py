"""MTG-TRPG's resolver checks of its statements and trigger events, and its check over the
whole flow.

The core's walk over scenes (``deckquest.dsl.flow.Flow``) hands each MTG-TRPG statement to
its resolver here, in the walk, so each check's diagnostics come where they always came:
check kinds of the rules edition (T-4, T-5.5), ``by``/``prepare by`` (T-6.2), outcome
blocks, the PC (``pc``, ``degree``) in scope inside a check's blocks, NPC and PC names.
Each resolver returns the statement's resolved copy (canonical names, resolved blocks);
the parsed tree is never changed. A trigger's event is resolved the same way (``event``:
the NPC an `NPC is defeated` names), and ``event_binds`` says which triggers bind ``pc``
and ``degree``. Their codes are the core's older ones (DQ0021, DQ0032,
DQ0033, DQ0035, DQ0036, DQ0037, DQ0045, DQ0057): they kept their numbers when the checks
moved here (docs/development.md).

``identical_check_loops`` (``repeats``) warns, once the scenes are walked, about a loop of
scenes that can only bring a check back the very same (T-4.12, DQ5001).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, TypeVar

from deckquest.dsl.ast import Event
from deckquest.dsl.flow import Flow, Scope
from deckquest.errors import did_you_mean
from deckquest.i18n import _
from deckquest.systems.trpg import nodes

# T-5.5: the kind of one edition that corresponds to a kind of the other.
KIND_CORRESPONDENCE = {
    "negotiation": "white", "intellect": "blue", "dexterity": "black", "reflex": "red", "body": "green",
}
KIND_CORRESPONDENCE.update({v: k for k, v in list(KIND_CORRESPONDENCE.items())})
#: The statements that share a resolver: those acting on a `Target`, those with nothing to check.
_Targeted = TypeVar("_Targeted", nodes.LoseLife, nodes.GainLife, nodes.Draw, nodes.Give)
_Unchecked = TypeVar("_Unchecked", nodes.Rest, nodes.Sleep)


#: The trigger events about a PC (`pc` is bound in their triggers), and those about a check
#: (`degree` too).
PC_EVENTS = {"pc_dying", "pc_unconscious", "pc_dies", "check_succeeds", "check_fails", "critical_revealed"}
CHECK_EVENTS = {"check_succeeds", "check_fails"}


def event(walk: Flow, written: Event) -> Event:
    """`NPC is defeated` names a declared NPC; `battle turn N` counts from 1 (DQ0047)."""
    if written.kind == "npc_defeated":
        assert written.npc is not None  # the parser names the NPC of `npc_defeated`
        written = replace(written, npc=walk.npc(written.npc, written.name_span or written.span))
    if written.kind == "battle_turn" and written.number is not None and written.number < 1:
        walk.never_comes(written)
    return written


def event_binds(kind: str) -> tuple[bool, bool]:
    return kind in PC_EVENTS, kind in CHECK_EVENTS


def check(walk: Flow, s: nodes.Check, scope: Scope) -> nodes.Check:
    kinds = nodes.CHECK_KINDS[walk.rules]
    if s.kind not in kinds:
        other = KIND_CORRESPONDENCE.get(s.kind)
        if other in kinds:
            hint = _("in {rules} rules this check is `{other}` (T-5.5)", rules=walk.rules, other=other)
        else:
            hint = did_you_mean(s.kind, kinds) or _("kinds: {names}", names=", ".join(kinds))
        walk.error("DQ0036", _("`{kind}` is not a check kind of the {rules} rules", kind=s.kind, rules=walk.rules),
                   s.kind_span or s.span, hint)
    by = who(walk, s.by, scope, allowed=("pc", "party", "each", "all", "any"))
    resolved = outcomes(walk, s.outcomes, ("success", "failure"), scope.inside_check())
    return replace(s, by=by, outcomes=resolved, success=_block_of(resolved, "success"),
                   failure=_block_of(resolved, "failure"))


def recruit(walk: Flow, s: nodes.Recruit, scope: Scope) -> nodes.Recruit:
    npc = walk.npc(s.npc, s.name_span or s.span, kinds=("creature", "planeswalker"))
    by = who(walk, s.by, scope, allowed=("pc", "party"))
    resolved = outcomes(walk, s.outcomes, ("success", "failure"), scope.inside_check())
    return replace(s, npc=npc, by=by, outcomes=resolved, success=_block_of(resolved, "success"),
                   failure=_block_of(resolved, "failure"))


def take_control(walk: Flow, s: nodes.TakeControl, scope: Scope) -> nodes.TakeControl:
    npc = walk.npc(s.npc, s.name_span or s.span, kinds=("creature", "planeswalker"))
    by = who(walk, s.by, scope, allowed=("pc", "party"))
    resolved = outcomes(walk, s.outcomes, ("success", "failure"), scope)
    return replace(s, npc=npc, by=by, outcomes=resolved, success=_block_of(resolved, "success"),
                   failure=_block_of(resolved, "failure"))


def battle(walk: Flow, s: nodes.Battle, scope: Scope) -> nodes.Battle:
    enemies = [replace(enemy, name=walk.npc(enemy.name, enemy.span)) for enemy in s.enemies]
    for extra in s.prepares[1:]:
        walk.error("DQ0021", _("a battle has one `prepare by` line"), extra.span)
    prepare = who(walk, s.prepare, scope, allowed=("pc", "party"))
    resolved = outcomes(walk, s.outcomes, ("victory", "defeat", "escape"), scope)
    return replace(s, enemies=enemies, prepare=prepare, prepares=[prepare, *s.prepares[1:]] if prepare is not None else [],
                   outcomes=resolved, victory=_block_of(resolved, "victory"),
                   defeat=_block_of(resolved, "defeat"), escape=_block_of(resolved, "escape"))


def outcomes(walk: Flow, written: list[nodes.Outcome], allowed: tuple[str, ...], scope: Scope) -> list[nodes.Outcome]:
    seen = set()
    resolved = []
    for outcome in written:
        if outcome.kind not in allowed:
            walk.error("DQ0045", _("`{kind}:` does not belong here", kind=outcome.kind), outcome.span,
                       _("blocks here: {names}", names=", ".join(f"`{k}:`" for k in allowed)))
        elif outcome.kind in seen:
            walk.error("DQ0045", _("`{kind}:` is given twice", kind=outcome.kind), outcome.span)
        seen.add(outcome.kind)
        resolved.append(replace(outcome, body=walk.block(outcome.body, scope)))
    return resolved


def who(walk: Flow, by: nodes.Who | None, scope: Scope, allowed: tuple[str, ...]) -> nodes.Who | None:
    if by is None:
        return None
    if by.kind not in allowed:
        walk.error("DQ0057", _("`by {kind}` is not possible here", kind=by.kind), by.span,
                   _("here: {names}", names=", ".join(_("a PC id") if k == "pc" else f"`{k}`" for k in allowed)))
    elif by.kind == "pc":
        assert by.pc is not None  # `by NAME` names its PC
        return replace(by, pc=walk.pc(by.pc, by.span, scope, others=tuple(k for k in allowed if k != "pc")))
    return by


def encounter(walk: Flow, s: Any, scope: Scope) -> Any:
    """``encounter NPC`` and ``fight NPC``: the NPC's canonical name."""
    return replace(s, npc=walk.npc(s.npc, s.name_span or s.span))


def target(walk: Flow, aimed: nodes.Target, scope: Scope) -> nodes.Target:
    if aimed.kind == "pc":
        walk.pc("pc", aimed.span, scope)
    elif aimed.kind == "named":
        assert aimed.pc is not None  # a named target names its PC
        return replace(aimed, pc=walk.pc(aimed.pc, aimed.span, scope))
    return aimed


def targeted(walk: Flow, s: _Targeted, scope: Scope) -> _Targeted:
    return replace(s, target=target(walk, s.target, scope))


def unchecked(walk: Flow, s: _Unchecked, scope: Scope) -> _Unchecked:
    """Nothing to check: the party rests or sleeps."""
    return s


RESOLVERS: dict[type, Callable[..., Any]] = {
    nodes.Check: check, nodes.Recruit: recruit, nodes.TakeControl: take_control, nodes.Battle: battle,
    nodes.Encounter: encounter, nodes.Fight: encounter,
    nodes.LoseLife: targeted, nodes.GainLife: targeted, nodes.Draw: targeted, nodes.Give: targeted,
    nodes.Rest: unchecked, nodes.Sleep: unchecked,
}


def _block_of(resolved: list[nodes.Outcome], kind: str) -> list[Any] | None:
    """The body of the first outcome block of that kind, or None (as the parser picks it)."""
    return next((o.body for o in resolved if o.kind == kind), None)
