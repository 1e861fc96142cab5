"""Arena events in words: the text transcript of a game, with the map at each round's start.

The engine only emits events (dicts with an ``event`` key); ``TextTranscript`` is fed the state
and the events of each step and renders them, so a JSONL transcript (the events) and the text
one always tell the same game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from deckquest.systems.arena.render import draw_map

if TYPE_CHECKING:
    from deckquest.systems.arena.state import ArenaState


def figure_name(fid: str | None) -> str:
    """``p1.Knights of Thraben.2`` as ``Knights of Thraben 2 (p1)``."""
    if not fid:
        return "-"
    seat, _, rest = fid.partition(".")
    return f"{rest.replace('.', ' ')} ({seat})"


def describe_event(event: dict[str, Any]) -> str | None:
    """One event as a transcript line (None for events the map already shows)."""
    kind = event["event"]
    f = figure_name
    lines = {
        "place": lambda e: f"{f(e['figure'])} takes the field at {e['at']}.",
        "turn order": lambda e: f"Turn order (d20): {', '.join(e['order'])}.",
        "turn": lambda e: f"-- {e['seat']}'s turn --",
        "draw": lambda e: f"{e['seat']} draws {e['cards']} spell card{'s' if e['cards'] != 1 else ''}.",
        "activate": lambda e: f"{e['seat']} activates {e['card']}.",
        "summon": lambda e: f"{f(e['figure'])} is summoned at {e['at']}.",
        "spell": lambda e: f"{e['seat']} casts {e['spell']}" + (f" on {f(e['target'])}." if e["target"] else "."),
        "ability": lambda e: f"{f(e['figure'])} uses {e['ability']}" + (f" on {f(e['target'])}." if e["target"] else "."),
        "bonus": lambda e: f"{e['seat']}'s army gets {e['stat']} {e['amount']:+d} this turn.",
        "move": lambda e: f"{f(e['figure'])} moves {e['from']} -> {e['to']}" + (f" (via {' '.join(e['path'][:-1])})." if len(e["path"]) > 1 else "."),
        "swipe": lambda e: f"{f(e['figure'])} leaves {f(e['by'])}: a swipe.",
        "fall": lambda e: f"{f(e['figure'])} falls {e['levels']} levels.",
        "attack": lambda e: f"{f(e['attacker'])} attacks {f(e['target'])}: {e['attack dice']} dice against {e['defence dice']}.",
        "roll": lambda e: (f"  rolled {e['swords']} sword{'s' if e['swords'] != 1 else ''}, {e['shields']} shield{'s' if e['shields'] != 1 else ''}."
                           if "shields" in e else f"  the die shows {'a sword' if e['swords'] else 'no sword'}."),
        "wound": lambda e: f"  {f(e['figure'])} takes {e['damage']} damage ({e['total']}/{e['life']}).",
        "heal": lambda e: f"  {f(e['figure'])} heals {e['healed']} ({e['total']} damage left).",
        "figure destroyed": lambda e: f"  {f(e['figure'])} is destroyed at {e['at']}.",
        "glyph taken": lambda e: f"  {e['seat']} takes the {e['glyph']}.",
        "discard": lambda e: f"{e['seat']} discards {e['spell']}.",
        "game over": lambda e: (f"== {e['winner']} wins ({e['reason']}) in round {e['round']}. ==" if e["winner"]
                                else f"== A draw ({e['reason']}) in round {e['round']}. =="),
    }
    render = lines.get(kind)
    return render(event) if render else None


class TextTranscript:
    """Collects transcript lines as a game goes: ``feed`` after each step."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def feed(self, state: "ArenaState", events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            if event["event"] == "round start":
                self.lines.append(f"== Round {event['round']} ==")
                self.lines.extend(draw_map(state).splitlines())
                continue
            line = describe_event(event)
            if line is not None:
                self.lines.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
