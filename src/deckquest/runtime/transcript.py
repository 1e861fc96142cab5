"""Transcripts: a run's events rendered for people (text) or programs (JSONL).

docs/transcripts.md describes both formats. The text renderer keeps only what it needs to
name things (the party's names from the ``start`` event), so it can render a stream of
events as they arrive: the human agent reads the story while it happens.
"""

from __future__ import annotations

import json
from typing import Iterable

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def clock(minutes: int) -> str:
    """Game time since the start: ``[0:05]``, ``[6:05]``, ``[1d 2:00]`` after a day."""
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return f"[{days}d {hours}:{mins:02d}]" if days else f"[{hours}:{mins:02d}]"


def signed(number: int) -> str:
    return f"+{number}" if number >= 0 else str(number)


class TextRenderer:
    """Turns events into English lines, one event at a time."""

    def __init__(self):
        self.names: dict[str, str] = {}

    def name(self, pc: str | None) -> str:
        return self.names.get(pc, pc or "nobody")

    def lines(self, event: dict) -> list[str]:
        method = getattr(self, "_" + event["event"], None)
        return method(event) if method else []

    def _start(self, e):
        self.names = {member["id"]: member["name"] for member in e["party"]}
        seed = "" if e.get("seed") is None else f", seed {e['seed']}"
        party = ", ".join(member["name"] for member in e["party"])
        return [f"# {e['title']}", f"rules {e['rules']}{seed}, agent {e['agent']}", f"party: {party}"]

    def _scene(self, e):
        return ["", f"== {e['title']} == {clock(e['clock'])}"]

    def _scene_end(self, e):
        moved = [f"{self.name(pc)} {count}" for pc, count in e["exhausted"].items() if count]
        return [f"(scene end, T-2.9: cards to the exhaustion zone: {', '.join(moved)})"] if moved else []

    def _narration(self, e):
        return [e["text"]]

    def _choice(self, e):
        return [f"> {e['label']}  (option {e['chosen']} of {len(e['options'])})"]

    def _check(self, e):
        label = f' ("{e["label"]}")' if e.get("label") else ""
        head = f"{self.name(e['pc'])} checks {e['kind']}, difficulty {e['difficulty']}{label}"
        if not e["cards"] and e["note"]:
            return [head, f"  {e['note']}: failure"]
        parts = [f"revealed {', '.join(e['cards'])}"]
        if e["color"]:
            parts.append(f"colour {COLOR_WORDS.get(e['color'], e['color'])}")
        extras = []
        if e["support"]:
            extras.append(f"support +{e['support']} from {e['supporter']}")
        if e["boost"]:
            extras.append(f"boost +{e['boost_bonus']}")
        result = f"target {e['target']}, result {e['result']}"
        if extras:
            result += f" ({', '.join(extras)})"
        parts.append(result)
        line = "  " + "; ".join(parts)
        verdict = "success" if e["success"] else "failure"
        line += f" -> {verdict}, degree {signed(e['degree'])}"
        lines = [head, line]
        if e["criticals"]:
            automatic = f": automatic {e['critical']}" if e["critical"] else ""
            lines.append(f"  critical card revealed: {', '.join(e['criticals'])}{automatic} (T-4.7)")
        if e["boost"]:
            lines.append(f"  boost exiled {', '.join(e['boost_cards'])} (T-4.6)")
        if e["note"]:
            lines.append(f"  {e['note']}")
        return lines

    def _check_group(self, e):
        verdict = "success" if e["success"] else "failure"
        word = "every PC" if e["who"] == "all" else "any PC"
        return [f"  {e['label']} by {word}: {verdict}, degree {signed(e['degree'])}"]

    def _recruit(self, e):
        if e["success"]:
            return [f"{e['name']} agrees to cooperate (T-8.4)."]
        return [f"{e['name']} refuses to cooperate."]

    def _encounter(self, e):
        return [f"{e['name']} appears."]

    def _fight(self, e):
        manner = ", holding back" if e["holding_back"] else ""
        if e["note"] and e["creature"] is None and e["pc"] is None:
            return [f"{e['name']} is not fought: {e['note']}."]
        if e["creature"] is None:
            return [f"No creature fights {e['name']}{manner}: it hits {self.name(e['pc'])} for {e['taken']}."]
        line = (f"{self.name(e['pc'])}'s {e['creature']} fights {e['name']}{manner}: "
                f"deals {e['dealt']}, takes {e['taken']}")
        if e["creature_died"]:
            line += f"; {e['creature']} dies"
        return [line + "."]

    def _npc_defeated(self, e):
        return [f"{e['name']} is defeated ({e['status']})."]

    def _life(self, e):
        verb = "gains" if e["change"] >= 0 else "loses"
        return [f"{self.name(e['pc'])} {verb} {abs(e['change'])} life (now {e['life']})."]

    def _status(self, e):
        words = {"dying": "is dying (T-7.1)", "unconscious": "falls unconscious (T-7.2)",
                 "dead": "dies (T-7.4)", "ok": "is back on their feet"}
        return [f"{self.name(e['pc'])} {words.get(e['status'], e['status'])}."]

    def _draw(self, e):
        return [f"{self.name(e['pc'])} draws {e['count']} card{'s' if e['count'] != 1 else ''}."]

    def _give(self, e):
        return [f"{self.name(e['pc'])} receives {e['item']}."]

    def _action(self, e):
        who = self.name(e["pc"])
        text = {"concentrate": f"{who} concentrates", "rest": f"{who} rests",
                "play_land": f"{who} plays {e['card']}", "cast": f"{who} casts {e['card']}"}
        return [f"{clock(e['clock'])} {text[e['action']]}."]

    def _rest(self, e):
        unit = "minute" if e["minutes"] == 1 else "minutes"
        return [f"{clock(e['clock'])} The party rests ({e['minutes']} {unit})."]

    def _sleep(self, e):
        return [f"{clock(e['clock'])} The party sleeps for {e['minutes'] // 60} hours."]

    def _wait(self, e):
        if e["minutes"] == 1:
            return [f"{clock(e['clock'])} 1 minute passes."]
        return [f"{clock(e['clock'])} {e['minutes']} minutes pass."]

    def _flag(self, e):
        return [f"(flag {e['name']} {'set' if e['value'] else 'cleared'})"]

    def _counter(self, e):
        return [f"({e['name']} = {e['value']})"]

    def _end(self, e):
        lines = ["", f"== The end: {e['outcome']} == {clock(e['clock'])}"]
        if e["text"]:
            lines.append(e["text"])
        return lines


def render_text(events: Iterable[dict]) -> str:
    """A whole transcript as text, one line per line, ending with a newline."""
    renderer = TextRenderer()
    return "".join(line + "\n" for event in events for line in renderer.lines(event))


def render_jsonl(events: Iterable[dict]) -> str:
    return "".join(json_line(event) for event in events)


def json_line(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False) + "\n"
