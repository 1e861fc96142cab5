"""Duel events as transcript lines: one line per event, numbered by action right.

The engine emits dicts; this is the one place that words them (text transcripts, golden
traces, the human agent's log)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

NAMED = ("seat", "first", "target", "winner", "attacker")  # fields that may hold a duelist's id


def render_event(event: dict[str, Any], names: Mapping[str, str] | None = None) -> str | None:
    """One event in words (duelists by ``names`` when given), or None for an event a reader
    does not need."""
    names = {**event.get("names", {}), **(names or {})}  # the duel's own names, then the run's
    if names:
        event = {key: names.get(value, value) if key in NAMED and isinstance(value, str) else value
                 for key, value in event.items()}
        if "hands" in event:
            event["hands"] = {names.get(who, who): count for who, count in event["hands"].items()}
    kind = event["event"]
    seat = event.get("seat")
    if kind == "deal":
        hands = ", ".join(f"{who} {count}" for who, count in event["hands"].items())
        return f"{event['first']} goes first; 5 mana cards each; hands: {hands}"
    if kind == "right":
        return f"[{event['number']}] {seat}{' (answering)' if event['answering'] else ''}"
    if kind == "pass":
        return f"  {seat} passes" + (" (the right went to the reversal)" if event.get("why") else "")
    if kind == "charge":
        return f"  {seat} charges {event['cards']} mana (streak {event['streak']}): mana {event['mana']}, main deck {event['main']}"
    if kind == "take":
        return f"  {seat} takes {event['count']} {event['card']} from mana to hand"
    if kind == "restore":
        return f"  {seat} returns an exiled {event['card']} to the skill deck"
    if kind == "cast":
        aim = f" on {event['target']}" if event["target"] else ""
        return (f"  {seat} plays {event['card']} from {event['from']}{aim} "
                f"(speed {event['speed']}; paid {event['mana']} mana, {event['skill']} skill)")
    if kind == "interrupt":
        return f"  {seat}'s {event['card']} interrupts {event['over']} (I-9)"
    if kind == "resolve":
        return f"  {seat}'s {event['card']} resolves"
    if kind == "summon":
        return f"  {seat} summons {event['card']}#{event['unit']}"
    if kind == "attack":
        extra = " again (I-15)" if event["extra"] else ""
        return f"  {event['attacker']} attacks {event['target']}{extra} at speed {event['speed']}"
    if kind == "defend":
        return f"  {seat} defends (-1)"
    if kind == "block":
        return f"  {seat} blocks with {event['card']}#{event['unit']}"
    if kind == "hit":
        note = ""
        if event.get("speed_locked"):
            note = " (too slow to strike back)"
        elif event.get("struck_back"):
            note = " (struck back)"
        return f"  hit on {event['target']}: {event['damage']}{note}"
    if kind == "damage":
        return f"  {seat} takes {event['amount']}: {event['cards']} cards exiled face down, main deck {event['main']}"
    if kind == "unit damage":
        prevented = f" ({event['prevented']} prevented)" if event["prevented"] else ""
        return f"  {event['card']}#{event['unit']} takes {event['amount']}{prevented}"
    if kind == "destroy":
        return f"  {event['card']}#{event['unit']} is destroyed"
    if kind == "heal":
        return f"  {event['card']}#{event['unit']} recovers (I-12)"
    if kind == "extra attack":
        return f"  unit #{event['unit']} may attack again at speed {event['speed']}"
    if kind == "reveal":
        return f"  {seat} turns face up: {', '.join(event['cards'])}"
    if kind == "reversal":
        return f"  {seat} activates the [Reversal] of {event['card']}! main deck {event['main']}"
    if kind == "effect":
        aim = f" ({event['target']})" if event["target"] else ""
        return f"  {seat}'s {event['card']}: {event['text']}{aim}"
    if kind == "recovery":
        return f"  {seat} recovers {event['cards']} cards: main deck {event['main']}"
    if kind == "duel end":
        if event["winner"] is None:
            return f"the duel is a draw ({event['reason']}) after {event['rights']} action rights"
        return f"{event['winner']} wins ({event['reason']}) after {event['rights']} action rights"
    return None


def render_duel(events: Iterable[dict[str, Any]]) -> str:
    return "\n".join(line for line in map(render_event, events) if line is not None)
