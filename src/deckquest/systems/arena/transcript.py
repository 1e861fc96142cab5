"""Arena events in words: the text transcript of a game, with the map at each round's start.

The engine only emits events (dicts with an ``event`` key); a round's start carries the map as
drawn then, so the text and JSONL transcripts tell the same game from the events alone.
"""

from __future__ import annotations

from typing import Any, Iterable


def figure_name(fid: str | None) -> str:
    """``p1.Knights of Thraben.2`` as ``Knights of Thraben 2 (p1)``."""
    if not fid:
        return "-"
    seat, _, rest = fid.partition(".")
    return f"{rest.replace('.', ' ')} ({seat})"


def describe_event(event: dict[str, Any], names: dict[str, str]) -> str | None:
    """One event as a transcript line (None for events that are not Arena's); ``names`` gives
    the seats' names (their armies)."""
    kind = event["event"]
    f = figure_name

    def seat(e: dict[str, Any]) -> str:
        return names.get(e["seat"], e["seat"])
    lines = {
        "place": lambda e: f"{f(e['figure'])} takes the field at {e['at']}.",
        "turn order": lambda e: f"Turn order (d20): {', '.join(names.get(s, s) for s in e['order'])}.",
        "turn": lambda e: f"-- {seat(e)}'s turn --",
        "draw": lambda e: f"{seat(e)} draws {e['cards']} spell card{'s' if e['cards'] != 1 else ''}.",
        "activate": lambda e: f"{seat(e)} activates {e['card']}.",
        "summon": lambda e: f"{f(e['figure'])} is summoned at {e['at']}.",
        "spell": lambda e: f"{seat(e)} casts {e['spell']}" + (f" on {f(e['target'])}." if e["target"] else "."),
        "ability": lambda e: f"{f(e['figure'])} uses {e['ability']}" + (f" on {f(e['target'])}." if e["target"] else "."),
        "bonus": lambda e: f"{seat(e)} gets {e['stat']} {e['amount']:+d} this turn.",
        "move": lambda e: f"{f(e['figure'])} moves {e['from']} -> {e['to']}" + (f" (via {' '.join(e['path'][:-1])})." if len(e["path"]) > 1 else "."),
        "swipe": lambda e: f"{f(e['figure'])} leaves {f(e['by'])}: a swipe.",
        "fall": lambda e: f"{f(e['figure'])} falls {e['levels']} levels.",
        "attack": lambda e: f"{f(e['attacker'])} attacks {f(e['target'])}: {e['attack dice']} dice against {e['defence dice']}.",
        "roll": lambda e: (f"  rolled {e['swords']} sword{'s' if e['swords'] != 1 else ''}, {e['shields']} shield{'s' if e['shields'] != 1 else ''}."
                           if "shields" in e else f"  the die shows {'a sword' if e['swords'] else 'no sword'}."),
        "wound": lambda e: f"  {f(e['figure'])} takes {e['damage']} damage ({e['total']}/{e['life']}).",
        "heal": lambda e: f"  {f(e['figure'])} heals {e['healed']} ({e['total']} damage left).",
        "figure destroyed": lambda e: f"  {f(e['figure'])} is destroyed at {e['at']}.",
        "glyph taken": lambda e: f"  {seat(e)} takes the {e['glyph']}.",
        "discard": lambda e: f"{seat(e)} discards {e['spell']}.",
        "game over": lambda e: (f"== {names.get(e['winner'], e['winner'])} wins ({e['reason']}) in round {e['round']}. ==" if e["winner"]
                                else f"== A draw ({e['reason']}) in round {e['round']}. =="),
    }
    render = lines.get(kind)
    return render(event) if render else None


def event_lines(event: dict[str, Any], names: dict[str, str] | None = None) -> list[str] | None:
    """An Arena event as transcript lines; a round's start draws the map (None: not Arena's)."""
    if event["event"] == "round start":
        return [f"== Round {event['round']} ==", *event.get("map", ())]
    line = describe_event(event, names or {})
    return None if line is None else [line]


def render_events(events: Iterable[dict[str, Any]], names: dict[str, str] | None = None) -> str:
    """A whole game's text transcript."""
    return "".join(line + "\n" for event in events for line in event_lines(event, names) or ())
