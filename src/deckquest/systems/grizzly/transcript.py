"""A game's events as the lines of a text transcript (the JSONL transcript is the events)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

COUNTED = frozenset({"damage", "draw", "discard", "mill", "counters", "scry"})
Line = Callable[[dict[str, Any], Callable[[str], str]], str]


def _turn(e: dict[str, Any], who: Callable[[str], str]) -> str:
    where = "home" if e["square"] < 0 else f"square {e['square']}"
    count = e["treasures"]
    return f"Round {e['round']}: {who(e['seat'])}'s turn ({where}, {count} Treasure{'' if count == 1 else 's'})."


def _move(e: dict[str, Any], who: Callable[[str], str]) -> str:
    where = "stays home" if e["square"] < 0 else f"moves {e['steps']} to square {e['square']}"
    return f"  {who(e['seat'])} {where}."


def _flip(e: dict[str, Any], who: Callable[[str], str]) -> str:
    if e["face_up_before"]:
        return f"  {e['card']} stands face up on square {e['square']}."
    return f"  {who(e['seat'])} flips {e['card']} ({e['kind']})."


def _combat(e: dict[str, Any], who: Callable[[str], str]) -> str:
    bears = who(e["seat"]) + (f" and {who(e['partner'])}" if e["partner"] else "")
    result = {"win": "the bears win", "lose": "the bears lose", "trade": "both die",
              "stand-off": "both stand"}[e["result"]]
    return (f"  Combat: {bears} ({e['bears_power']}/{e['bears_toughness']}) against {e['card']} "
            f"({e['power']}/{e['toughness']}): {result}.")


def _co_op(e: dict[str, Any], who: Callable[[str], str]) -> str:
    if e["accepted"]:
        return f"  {who(e['partner'])} joins {who(e['seat'])} in co-op."
    return f"  {who(e['partner'])} refuses co-op and gives {who(e['seat'])} {e['card']}."


def _effect(e: dict[str, Any], who: Callable[[str], str]) -> str:
    if e.get("ignored"):
        return f"  {e['card']}: {e['effect']} on {e['target']} does nothing here (G-26)."
    if e["effect"] == "pump":
        return f"  {e['card']}: {e['power']:+d}/{e['toughness']:+d} to {e['target']}."
    amount = f" {e['amount']}" if e["effect"] in COUNTED else ""
    return f"  {e['card']}: {e['effect']}{amount} on {e['target']}."


def _game_over(e: dict[str, Any], who: Callable[[str], str]) -> str:
    if e["winner"]:
        return f"{who(e['winner'])} wins with {e['treasures'][e['winner']]} Treasures in round {e['round']}."
    return f"The game stops in round {e['round']}: {e['reason']}."


LINES: dict[str, Line] = {
    "turn": _turn,
    "roll": lambda e, who: f"  {who(e['seat'])} rolls {e['value']}.",
    "dash": lambda e, who: f"  {who(e['seat'])} dashes, discarding {e['card']} ({e['steps']} squares).",
    "move": _move,
    "lap_completed": lambda e, who: f"  {who(e['seat'])} passes home" + ("." if e["bonus"] else " (a dash: no lap bonus)."),
    "treasure_gained": lambda e, who: f"  {who(e['seat'])} gains a Treasure ({e['source']}): {e['treasures']}.",
    "treasure_lost": lambda e, who: f"  {who(e['seat'])} loses a Treasure to {e['card']}: {e['treasures']}.",
    "bear_counter": lambda e, who: f"  {who(e['seat'])}'s bears get a {e.get('counter', '+1/+1')} counter ({e['why']}): {e['counters']}.",
    "venture": lambda e, who: f"  {who(e['seat'])} ventures into {e['room']}" + (f" ({e['note']})." if e["note"] else "."),
    "co_op": _co_op,
    "flip": _flip,
    "bears_fight": _combat,
    "bear_dies": lambda e, who: f"  {who(e['seat'])}'s bears die" + (f" ({e['card']})" if e["card"] else "") + " and go home.",
    "kill": lambda e, who: f"  {e['card']} dies ({e['how']}).",
    "leaves": lambda e, who: f"  {e['card']} leaves square {e['square']} ({e['how']}).",
    "cast": lambda e, who: f"  {who(e['seat'])} casts {e['card']}" + (" from hand." if e["source"] == "hand" else " (flipped, free)."),
    "effect": _effect,
    "place": lambda e, who: f"  {who(e['seat'])} places a card on square {e['square']}" + (" from hand." if e["source"] == "hand" else " from the library."),
    "cards_drawn": lambda e, who: f"  {who(e['seat'])} draws {e['count']} ({e['why']}).",
    "discard": lambda e, who: f"  {who(e['seat'])} discards {e['card']} ({e['why']}).",
    "discard_flipped": lambda e, who: f"  {who(e['seat'])} puts {e['card']} into the graveyard.",
    "equip": lambda e, who: f"  {who(e['seat'])} equips {e['card']}.",
    "attach": lambda e, who: f"  {e['card']} enchants {who(e['bear'])}'s bears.",
    "scry": lambda e, who: f"  {who(e['seat'])} scries: {e['top']} on top, {e['bottom']} to the bottom.",
    "shuffle": lambda e, who: f"  The graveyard is shuffled into the library ({e['cards']} cards).",
    "skips_next_turn": lambda e, who: f"  {who(e['seat'])} will skip a turn ({e['card']}).",
    "skip_turn": lambda e, who: f"Round {e['round']}: {who(e['seat'])} skips the turn.",
    "game_over": _game_over,
}


def render(event: dict[str, Any], names: Mapping[str, str]) -> str | None:
    """The text line of one event (None for an event kind this system does not emit)."""
    line = LINES.get(event["event"])
    return None if line is None else line(event, lambda seat: names.get(seat, seat))
