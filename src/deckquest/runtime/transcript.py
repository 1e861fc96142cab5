"""Transcripts: a run's events rendered for people (text) or programs (JSONL).

docs/transcripts.md describes both formats. The text renderer keeps only what it needs to
name things (the party's names from the ``start`` event, the enemies' from ``combat``), so
it can render a stream of events as they arrive: the human agent reads the story while it
happens. A battle turn is the exception: its events are gathered into one or two lines,
written when the next turn begins or the battle ends.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Iterable

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def clock(minutes: int) -> str:
    """Game time since the start: ``[0:05]``, ``[6:05]``, ``[1d 2:00]`` after a day."""
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return f"[{days}d {hours}:{mins:02d}]" if days else f"[{hours}:{mins:02d}]"


def signed(number: int) -> str:
    return f"+{number}" if number >= 0 else str(number)


def counted(names: list[str]) -> str:
    """``Goblin x3, Goblin Piker``: names in order of first appearance, repeats counted."""
    return ", ".join(name if count == 1 else f"{name} x{count}" for name, count in Counter(names).items())


class TextRenderer:
    """Turns events into English lines, one event at a time.

    A battle turn's engine events are gathered and written as one or two lines when the
    next turn begins or the battle ends (``BattleTurn``).
    """

    def __init__(self, system=None):
        self.names: dict[str, str] = {}
        self.turn: BattleTurn | None = None
        self.horde = "the horde"  # the engine's horde side: a battle without a horde deck holds NPCs
        self.system = system  # a game system renders its own events first (GameSystem.render)

    def name(self, pc: str | None) -> str:
        if pc == "horde":
            return self.horde
        return self.names.get(pc, pc or "nobody")

    def lines(self, event: dict) -> list[str]:
        kind = event["event"]
        if self.system is not None:
            own = self.system.render(event, self.names)
            if own is not None:
                return own
        method = getattr(self, "_" + kind, None)
        if method is not None:
            return method(event)
        if self.turn is not None and kind.startswith("battle_"):
            self.turn.add(event)
        return []

    def _start(self, e):
        self.names = {member["id"]: member["name"] for member in e["party"]}
        if "system" in e:  # a whole game: its seats instead of a party
            self.names.update({seat["id"]: seat["name"] for seat in e["seats"]})
            seed = "" if e.get("seed") is None else f", seed {e['seed']}"
            seats = ", ".join(f"{seat['name']} ({seat['agent']})" for seat in e["seats"])
            return [f"# {e['title']}", f"system {e['system']}{seed}, agent {e['agent']}", f"seats: {seats}"]
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

    def _take_control(self, e):
        if e["success"]:
            return [f"{self.name(e['pc'])} pays {e['cost']} and takes control of {e['name']} (T-8.4)."]
        return [f"Nobody takes control of {e['name']}: {e['note']}."]

    def _encounter(self, e):
        return [f"{e['name']} appears."]

    def _fight(self, e):
        manner = ", holding back" if e["holding_back"] else ""
        if e["note"] and e["creature"] is None and e["pc"] is None:
            return [f"{e['name']} is not fought: {e['note']}."]
        if e["creature"] is None:
            return [f"No creature fights {e['name']}{manner}: it hits {self.name(e['pc'])} for {e['taken']}."]
        verb = "blocks" if e.get("blocked") else "attacks"  # T-3.2, T-3.1
        line = (f"{self.name(e['pc'])}'s {e['creature']} {verb} {e['name']}{manner}: "
                f"deals {e['dealt']}, takes {e['taken']}")
        if e["creature_died"]:
            line += f"; {e['creature']} dies"
        return [line + "."]

    def _npc_defeated(self, e):
        return [f"{e['name']} is defeated ({e['status']})."]

    def _life(self, e):
        verb = "loses" if e.get("loss", e["change"] < 0) else "gains"
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

    def _combat(self, e):
        self.names.update(zip(e["enemies"], e["names"]))
        fighters = ", ".join(self.name(pc) for pc in e["pcs"]) or "nobody"
        foes = ", ".join(e["names"]) or "no enemy left standing"  # all beaten before (T-3.4)
        self.names.update(zip(e.get("allies", ()), e.get("ally_names", ())))
        with_them = f", with {', '.join(e['ally_names'])} on their side (T-8.4)" if e.get("ally_names") else ""
        return ["", f"Battle against {foes} {clock(e['clock'])}: {fighters} in the fight{with_them}."]

    def _battle_preparation(self, e):
        if e["turns"] == 0:
            return ["  No preparation turns: the enemies move first (T-6.2, T-6.11)."]
        return [f"  {e['turns']} preparation turn{'s' if e['turns'] != 1 else ''} for the party (T-6.2)."]

    def _battle_start(self, e):
        self.horde = "the horde" if e.get("horde_library") or e.get("horde_cut") else "the enemy side"
        if self.horde != "the horde":
            return []
        cards = e["horde_library"]
        return [f"  The horde deck: {cards} card{'s' if cards != 1 else ''} ({e['horde_cut']} cut, T-6.4)."]

    def _battle_warning(self, e):
        return [f"  warning: {e['message']}"]

    def _battle_boss(self, e):
        out = f", on the battlefield: {counted(e['permanents'])}" if e.get("permanents") else ""
        return [f"  {e['name']}: life {e['life']}, library {e['library']}{out} (T-8.3)."]

    def _battle_npc(self, e):
        loyalty = f" with loyalty {e['loyalty']}" if e.get("loyalty") else ""
        return [f"  {e['card']} joins the enemies{loyalty}."]

    def _battle_turn(self, e):
        done = self._battle_end(e)
        self.turn = BattleTurn(e, self.name)
        return done

    def _battle_end(self, e):
        done, self.turn = self.turn, None
        return done.lines() if done is not None else []

    def _battle(self, e):
        outcome = {"victory": "Victory (T-6.12)", "defeat": "Defeat (T-6.12)",
                   "escape": "The party escapes (T-6.6)",
                   "stalemate": "No end in sight: the battle is stopped"}[e["outcome"]]
        lives = ", ".join(f"{self.name(pc['id'])} life {pc['life_after']}" for pc in e["pcs"])
        turns = f"{e['turns']} turn{'s' if e['turns'] != 1 else ''}"
        lines = [f"{outcome} after {turns} {clock(e['clock'])}" + (f": {lives}." if lives else ".")]
        if e.get("stopped"):
            lines.append(f"  (stopped: {e['stopped']})")
        return lines

    def _end(self, e):
        lines = ["", f"== The end: {e['outcome']} == {clock(e['clock'])}"]
        if e["text"]:
            lines.append(e["text"])
        return lines


def render_text(events: Iterable[dict], system=None) -> str:
    """A whole transcript as text, one line per line, ending with a newline."""
    renderer = TextRenderer(system)
    return "".join(line + "\n" for event in events for line in renderer.lines(event))


def render_jsonl(events: Iterable[dict]) -> str:
    return "".join(json_line(event) for event in events)


def json_line(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False) + "\n"


class BattleTurn:
    """One battle turn's engine events, written as a line of what each side did (lands,
    spells, the horde's reveal, escape checks) and a line of its combat and results
    (attacks, blocks, life, cards milled, permanents that died or left). Other engine events
    (damage to creatures, triggers, pumps) are in the JSONL only."""

    def __init__(self, event: dict, name):
        side = "party" if event["active"] == "survivors" else "enemies"
        self.head = f"  turn {event['turn']} ({side}) {clock(event['clock'])}"
        self.name = name
        self.deeds: dict[str, list[str]] = {}  # player -> what they did, in order
        self.revealed: list[str] = []
        self.horde_casts: list[str] = []
        self.attacks: dict[str, list[str]] = {}  # defender -> the attackers' names
        self.blocks: list[str] = []
        self.life: dict[str, list[int | str]] = {}  # player -> [net change, life after, status]
        self.milled: Counter = Counter()
        self.died: list[str] = []
        self.left: list[str] = []  # exiled or returned to hand

    def add(self, e: dict) -> None:
        method = getattr(self, "_" + e["event"][len("battle_"):], None)
        if method is not None:
            method(e)

    def _did(self, player: str, deed: str) -> None:
        self.deeds.setdefault(player, []).append(deed)

    def _play_land(self, e):
        self._did(e["player"], f"plays {e['card']}")

    def _cast(self, e):
        if e["player"] == "horde":
            self.horde_casts.append(e["card"])
            return
        target = f" on {', '.join(self.name(t) for t in e['targets'])}" if e.get("targets") else ""
        x = f" (X={e['x']})" if e.get("x") else ""
        self._did(e["player"], f"casts {e['card']}{x}{target}")

    def _activate(self, e):
        if "loyalty" in e:  # a loyalty ability (T-8.2): which one, and the loyalty it left
            self._did(e["player"], f"activates {e['card']}: \"{e['ability']}\", loyalty {e['loyalty']}")
        else:
            self._did(e["player"], f"activates {e['card']}")

    def _tokens(self, e):
        self._did(e["player"], f"makes {e['count']} {e['card']}")

    def _reveal(self, e):
        self.revealed += e["cards"]

    def _check(self, e):
        verdict = "success" if e["success"] else "failure"
        self._did(e["player"], f"tries to escape: target {e['target']}, result {e['result']}, {verdict}")

    def _draw(self, e):
        if e["status"] != "ok":
            self._did(e["player"], f"cannot draw and is {e['status']} (T-7.2)")

    def _discard(self, e):
        self._did(e["player"], f"discards {e['card']}")

    def _attack(self, e):
        defender = e.get("planeswalker") or self.name(e["defender"])
        self.attacks.setdefault(defender, []).append(e["card"])

    def _block(self, e):
        self.blocks.append(f"{e['card']} on {e['attacker']}")

    def _life(self, e):
        entry = self.life.setdefault(e["player"], [0, 0, "ok"])
        entry[0] += e["change"]
        entry[1:] = [e["life"], e["status"]]

    def _mill(self, e):
        self.milled[e["player"]] += len(e["cards"])

    def _dies(self, e):
        self.died.append(e["card"])

    def _exile(self, e):
        self.left.append(f"{e['card']} (exiled)")

    def _bounce(self, e):
        self.left.append(f"{e['card']} (to its owner's hand)")

    def _counter(self, e):
        self._did(e["player"], f"has {e['card']} countered")

    def lines(self) -> list[str]:
        deeds = [f"{self.name(player)} {', '.join(done)}" for player, done in self.deeds.items()]
        if self.revealed:
            horde = [f"reveals {counted(self.revealed)}"]
            extra = Counter(self.horde_casts) - Counter(self.revealed)
            if extra:
                horde.append(f"casts {counted(list(extra.elements()))}")
            deeds.insert(0, "the horde " + ", ".join(horde))
        lines = [f"{self.head}: {'; '.join(deeds) or 'nothing cast'}."]
        results = []
        results += [f"{counted(names)} attack{'s' if len(names) == 1 else ''} {defender}"
                    for defender, names in self.attacks.items()]
        if self.blocks:
            results.append("blocks: " + ", ".join(self.blocks))
        for player, (change, life, status) in self.life.items():
            state = f", {status}" if status != "ok" else ""
            results.append(f"{self.name(player)} {signed(change)} life ({life}{state})")
        results += [f"{self.name(player)} mills {count}" for player, count in self.milled.items()]
        if self.died:
            results.append("dies: " + counted(self.died))
        if self.left:
            results.append("leaves: " + counted(self.left))
        if results:
            lines.append("    " + "; ".join(results) + ".")
        return lines
