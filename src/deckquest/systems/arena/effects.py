"""The effect vocabulary at work: spells (A-23), activated and triggered abilities (A-18).

A spell or ability with a chosen target names it in its action (a figure id); effects whose
target is ``each`` reach every figure that fits at once. A ``Strike`` rolls like an attack and
is a chance decision; everything else resolves at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckquest.systems.arena.cards import Bonus, Damage, Draw, Effect, Heal, Strike, Target
from deckquest.systems.arena.hexes import distance

if TYPE_CHECKING:
    from deckquest.systems.arena.state import ArenaState, Figure


def chosen_target(effects: tuple[Effect, ...]) -> Target | None:
    """The one target a player picks for these effects (the first that is not ``each``)."""
    for effect in effects:
        target = getattr(effect, "target", None)
        if target is not None and not target.each:
            return target
    return None


def fitting(state: "ArenaState", seat: str, target: Target, user: "Figure | None") -> list["Figure"]:
    """The figures on the map that ``target`` may reach for ``seat``."""
    if target.range is None:
        origin = None
    elif target.origin == "self":
        origin = user
    else:
        origin = state.planeswalker(seat)
        if origin is None:
            return []
    found = []
    for g in state.on_map():
        if target.side == "enemy" and g.seat == seat or target.side == "friend" and g.seat != seat:
            continue
        if origin is not None and target.range is not None:
            if min(distance(a, b) for a in origin.hexes for b in g.hexes) > target.range:
                continue
        found.append(g)
    return found


def choices(state: "ArenaState", seat: str, effects: tuple[Effect, ...], user: "Figure | None") -> list[str | None]:
    """The targets a player may pick (figure ids), or ``[None]`` when nothing is picked."""
    target = chosen_target(effects)
    if target is None:
        return [None]
    return [g.id for g in fitting(state, seat, target, user)]


def resolve(state: "ArenaState", seat: str, effects: tuple[Effect, ...], target: str | None, user: "Figure | None",
            events: list[dict[str, Any]]) -> None:
    """Carry out ``effects`` for ``seat``, the picked ``target`` (a figure id) where one is picked."""
    for effect in effects:
        if isinstance(effect, (Bonus, Draw)):
            _untargeted(state, seat, effect, events)
            continue
        if effect.target.each:
            figures = fitting(state, seat, effect.target, user)
        else:
            figures = [state.figures[target]] if target is not None else []
        for g in figures:
            _on_figure(state, seat, effect, g, events)


def resolve_each(state: "ArenaState", seat: str, effects: tuple[Effect, ...], user: "Figure | None",
                 events: list[dict[str, Any]]) -> None:
    """A trigger's effects: only those that pick no target (``each``, bonuses, draws) happen."""
    for effect in effects:
        if isinstance(effect, (Bonus, Draw)) or effect.target.each:
            resolve(state, seat, (effect,), None, user, events)


def _untargeted(state: "ArenaState", seat: str, effect: Bonus | Draw, events: list[dict[str, Any]]) -> None:
    if isinstance(effect, Draw):
        state.draw(seat, effect.count, events)
    else:
        state.turn_bonuses.append((seat, effect))
        events.append({"event": "bonus", "seat": seat, "stat": effect.stat, "amount": effect.amount})


def _on_figure(state: "ArenaState", seat: str, effect: Damage | Heal | Strike, g: "Figure", events: list[dict[str, Any]]) -> None:
    if g.place != "map":
        return
    if isinstance(effect, Damage):
        state.wound(g, effect.amount, seat, events)
    elif isinstance(effect, Heal):
        healed = min(effect.amount, g.damage)
        g.damage -= healed
        events.append({"event": "heal", "figure": g.id, "healed": healed, "total": g.damage})
    else:
        state.pending.append(("strike", seat, g.id, effect.dice, state.stat(g, "defence")))
