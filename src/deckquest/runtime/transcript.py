"""Transcripts: a run's events rendered for people (text) or programs (JSONL).

docs/transcripts.md describes both formats. The text is written in the current language
(deckquest.i18n: the script's `language` or `--lang`), with the cards' Japanese names in
Japanese; the JSONL stays as the events are. The text renderer keeps only what it needs to
name things (the party's names from the ``start`` event, the enemies' from ``combat``), so
it can render a stream of events as they arrive: the human agent reads the story while it
happens. A battle turn is the exception: its events are gathered into one or two lines,
written when the next turn begins or the battle ends.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from deckquest.cards.database import card_name
from deckquest.engine.colors import check_kind_word
from deckquest.engine.pc import status_word
from deckquest.i18n import _, ngettext
from deckquest.runtime.events import Event

if TYPE_CHECKING:
    from deckquest.systems import GameSystem

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}

_TAG = r"[TGAI]-\d+(?:\.\d+)*"
_TAGS = rf"{_TAG}(?:(?:, | to | and ){_TAG})*"
_TAG_ALONE = re.compile(rf" ?\({_TAGS}\)")  # "(T-6.2, T-6.11)", "(T-2.4 to T-2.6)"
_TAG_AFTER = re.compile(rf"(?:,? |、){_TAGS}(?=[):):])")  # "(24 cut, T-6.4)", "(scene end, T-2.9: …)", "削減、T-6.4)"
GM_TEXT = frozenset({"narration", "end"})
"""Events whose text the script's author wrote: shown as written, tags and all."""


def untagged(line: str) -> str:
    """A line without the rule tags (T-6.2, G-15, …) that point into the rules digests, which
    the package does not ship: the table transcript is for players (the JSONL keeps them)."""
    return _TAG_AFTER.sub("", _TAG_ALONE.sub("", line))


def color_word(color: str) -> str:
    """A card's colour (W, U, B, R, G) in the current language."""
    return check_kind_word(COLOR_WORDS.get(color, color))


def card_names(names: Iterable[str]) -> str:
    return _(", ").join(card_name(name) for name in names)


def clock(minutes: int) -> str:
    """Game time since the start: ``[0:05]``, ``[6:05]``, ``[1d 2:00]`` after a day."""
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return f"[{days}d {hours}:{mins:02d}]" if days else f"[{hours}:{mins:02d}]"


def signed(number: int) -> str:
    return f"+{number}" if number >= 0 else str(number)


def counted(names: list[str]) -> str:
    """``Goblin x3, Goblin Piker``: names in order of first appearance, repeats counted."""
    return _(", ").join(card_name(name) if count == 1 else f"{card_name(name)} x{count}"
                     for name, count in Counter(names).items())


class TextRenderer:
    """Turns events into lines in the current language, one event at a time.

    A battle turn's engine events are gathered and written as one or two lines when the
    next turn begins or the battle ends (``BattleTurn``).
    """

    def __init__(self, system: type[GameSystem] | None = None) -> None:
        self.names: dict[str, str] = {}
        self.turn: BattleTurn | None = None
        self.horde = "the horde"  # the engine's horde side: a battle without a horde deck holds NPCs
        self.system = system  # a game system renders its own events first (GameSystem.render)

    def name(self, pc: str | None) -> str:
        if pc == "horde":
            return _("the horde") if self.horde == "the horde" else _("the enemy side")
        if not pc:
            return _("nobody")
        return self.names.get(pc) or card_name(pc)  # a PC, an enemy, or a card a spell targets

    def lines(self, event: Event) -> list[str]:
        """The event's lines, without rule tags but in the author's own text (`untagged`)."""
        rendered = self._lines(event)
        return rendered if event["event"] in GM_TEXT else [untagged(line) for line in rendered]

    def _lines(self, event: Event) -> list[str]:
        kind = event["event"]
        if isinstance(event.get("names"), dict):  # a game's own {id: name} (an adventure's duel)
            self.names.update(event["names"])
        if self.system is not None:
            own = self.system.render(event, self.names)
            if own is not None:
                return own
        method = getattr(self, "_" + kind, None)
        if method is not None:
            own_lines: list[str] = method(event)  # one of the methods below
            return own_lines
        if self.turn is not None and kind.startswith("battle_"):
            self.turn.add(event)
        return []

    def _start(self, e: Event) -> list[str]:
        self.names = {member["id"]: member["name"] for member in e["party"]}
        if e.get("seats"):  # a whole game: its seats instead of a party (an adventure has none)
            self.names.update({seat["id"]: seat["name"] for seat in e["seats"]})
            seed = "" if e.get("seed") is None else f", seed {e['seed']}"
            seats = ", ".join(f"{seat['name']} ({seat['agent']})" for seat in e["seats"])
            return [f"# {e['title']}", f"system {e['system']}{seed}, agent {e['agent']}", f"seats: {seats}"]
        seed = "" if e.get("seed") is None else _(", seed {seed}", seed=e["seed"])
        party = _(", ").join(member["name"] for member in e["party"])
        return [f"# {e['title']}", _("rules {rules}{seed}, agent {agent}", rules=e["rules"], seed=seed, agent=e["agent"]),
                _("party: {party}", party=party)]

    def _scene(self, e: Event) -> list[str]:
        return ["", f"== {e['title']} == {clock(e['clock'])}"]

    def _scene_end(self, e: Event) -> list[str]:
        moved = [f"{self.name(pc)} {count}" for pc, count in e["exhausted"].items() if count]
        return ([_("(scene end, T-2.9: cards to the exhaustion zone: {moved})", moved=_(", ").join(moved))]
                if moved else [])

    def _narration(self, e: Event) -> list[str]:
        return [e["text"]]

    def _choice(self, e: Event) -> list[str]:
        return [_("> {label}  (option {chosen} of {options})", label=e["label"], chosen=e["chosen"],
                  options=len(e["options"]))]

    def _check(self, e: Event) -> list[str]:
        fields = dict(pc=self.name(e["pc"]), kind=check_kind_word(e["kind"]), difficulty=e["difficulty"])
        head = (_("{pc} checks {kind}, difficulty {difficulty} (\"{label}\")", label=e["label"], **fields)
                if e.get("label") else _("{pc} checks {kind}, difficulty {difficulty}", **fields))
        if not e["cards"] and e["note"]:
            return [head, "  " + _("{note}: failure", note=e["note"])]
        parts = [_("revealed {cards}", cards=card_names(e["cards"]))]
        if e["color"]:
            parts.append(_("colour {color}", color=color_word(e["color"])))
        extras = []
        if e["support"]:
            extras.append(_("support +{support} from {supporter}", support=e["support"], supporter=e["supporter"]))
        if e["boost"]:
            extras.append(_("boost +{bonus}", bonus=e["boost_bonus"]))
        result = _("target {target}, result {result}", target=e["target"], result=e["result"])
        if extras:
            result += f" ({', '.join(extras)})"
        parts.append(result)
        line = "  " + _("; ").join(parts)
        verdict = _("success") if e["success"] else _("failure")
        line += " " + _("-> {verdict}, degree {degree}", verdict=verdict, degree=signed(e["degree"]))
        lines = [head, line]
        if e["criticals"]:
            criticals = card_names(e["criticals"])
            lines.append("  " + (_("critical card revealed: {cards}: automatic {verdict} (T-4.7)", cards=criticals,
                                   verdict=_("success") if e["critical"] == "success" else _("failure"))
                                 if e["critical"] else
                                 _("critical card revealed: {cards} (T-4.7)", cards=criticals)))
        if e["boost"]:
            lines.append("  " + _("boost exiled {cards} (T-4.6)", cards=card_names(e["boost_cards"])))
        if e["note"]:
            lines.append(f"  {e['note']}")
        return lines

    def _check_group(self, e: Event) -> list[str]:
        verdict = _("success") if e["success"] else _("failure")
        fields = dict(label=e["label"], verdict=verdict, degree=signed(e["degree"]))
        if e["who"] == "all":
            return ["  " + _("{label} by every PC: {verdict}, degree {degree}", **fields)]
        return ["  " + _("{label} by any PC: {verdict}, degree {degree}", **fields)]

    def _recruit(self, e: Event) -> list[str]:
        if e["success"]:
            return [_("{name} agrees to cooperate (T-8.4).", name=e["name"])]
        return [_("{name} refuses to cooperate.", name=e["name"])]

    def _take_control(self, e: Event) -> list[str]:
        if e["success"]:
            return [_("{pc} pays {cost} and takes control of {name} (T-8.4).", pc=self.name(e["pc"]), cost=e["cost"],
                      name=e["name"])]
        return [_("Nobody takes control of {name}: {note}.", name=e["name"], note=e["note"])]

    def _encounter(self, e: Event) -> list[str]:
        return [_("{name} appears.", name=e["name"])]

    def _fight(self, e: Event) -> list[str]:
        manner = _(", holding back") if e["holding_back"] else ""
        if e["note"] and e["creature"] is None and e["pc"] is None:
            return [_("{name} is not fought: {note}.", name=e["name"], note=e["note"])]
        if e["creature"] is None:
            return [_("No creature fights {name}{manner}: it hits {pc} for {taken}.", name=e["name"], manner=manner,
                      pc=self.name(e["pc"]), taken=e["taken"])]
        fields = dict(pc=self.name(e["pc"]), creature=card_name(e["creature"]), name=e["name"], manner=manner,
                      dealt=e["dealt"], taken=e["taken"])
        if e.get("blocked"):  # T-3.2: it blocked the NPC's attack
            if e["creature_died"]:
                return [_("{pc}'s {creature} blocks {name}{manner}: deals {dealt}, takes {taken}; {creature} dies.",
                          **fields)]
            return [_("{pc}'s {creature} blocks {name}{manner}: deals {dealt}, takes {taken}.", **fields)]
        if e["creature_died"]:
            return [_("{pc}'s {creature} fights {name}{manner}: deals {dealt}, takes {taken}; {creature} dies.",
                      **fields)]
        return [_("{pc}'s {creature} fights {name}{manner}: deals {dealt}, takes {taken}.", **fields)]

    def _npc_defeated(self, e: Event) -> list[str]:
        return [_("{name} is defeated ({status}).", name=e["name"], status=status_word(e["status"]))]

    def _life(self, e: Event) -> list[str]:
        fields = dict(pc=self.name(e["pc"]), amount=abs(e["change"]), life=e["life"])
        if not e.get("loss", e["change"] < 0):  # T-7.4: `loses 0 life` is a loss
            return [_("{pc} gains {amount} life (now {life}).", **fields)]
        return [_("{pc} loses {amount} life (now {life}).", **fields)]

    def _status(self, e: Event) -> list[str]:
        pc = self.name(e["pc"])
        lines = {"dying": _("{pc} is dying (T-7.1).", pc=pc), "unconscious": _("{pc} falls unconscious (T-7.2).", pc=pc),
                 "dead": _("{pc} dies (T-7.4).", pc=pc), "ok": _("{pc} is back on their feet.", pc=pc)}
        return [lines.get(e["status"], f"{pc} {e['status']}.")]

    def _draw(self, e: Event) -> list[str]:
        return [ngettext("{pc} draws {count} card.", "{pc} draws {count} cards.", e["count"], pc=self.name(e["pc"]))]

    def _give(self, e: Event) -> list[str]:
        return [_("{pc} receives {item}.", pc=self.name(e["pc"]), item=e["item"])]

    def _action(self, e: Event) -> list[str]:
        who = self.name(e["pc"])
        if e["action"] == "concentrate":
            text = _("{pc} concentrates.", pc=who)
        elif e["action"] == "rest":
            text = _("{pc} rests.", pc=who)
        elif e["action"] == "play_land":
            text = _("{pc} plays {card}.", pc=who, card=card_name(e["card"]))
        else:
            text = _("{pc} casts {card}.", pc=who, card=card_name(e["card"]))
        return [f"{clock(e['clock'])} {text}"]

    def _rest(self, e: Event) -> list[str]:
        return [f"{clock(e['clock'])} " + ngettext("The party rests ({count} minute).", "The party rests ({count} minutes).",
                                                   e["minutes"])]

    def _sleep(self, e: Event) -> list[str]:
        return [f"{clock(e['clock'])} " + _("The party sleeps for {hours} hours.", hours=e["minutes"] // 60)]

    def _wait(self, e: Event) -> list[str]:
        return [f"{clock(e['clock'])} " + ngettext("{count} minute passes.", "{count} minutes pass.", e["minutes"])]

    def _flag(self, e: Event) -> list[str]:
        if e["value"]:
            return [_("(flag {name} set)", name=e["name"])]
        return [_("(flag {name} cleared)", name=e["name"])]

    def _counter(self, e: Event) -> list[str]:
        return [f"({e['name']} = {e['value']})"]

    def _combat(self, e: Event) -> list[str]:
        self.names.update(zip(e["enemies"], e["names"]))
        fighters = _(", ").join(self.name(pc) for pc in e["pcs"]) or _("nobody")
        foes = _(", ").join(e["names"]) or _("no enemy left standing")  # all beaten before (T-3.4)
        self.names.update(zip(e.get("allies", ()), e.get("ally_names", ())))
        if e.get("ally_names"):  # T-8.4: cooperating NPCs fight on the party's side
            return ["", _("Battle against {foes} {clock}: {fighters} in the fight, with {allies} on their side (T-8.4).",
                          foes=foes, clock=clock(e["clock"]), fighters=fighters, allies=_(", ").join(e["ally_names"]))]
        return ["", _("Battle against {foes} {clock}: {fighters} in the fight.", foes=foes, clock=clock(e["clock"]),
                      fighters=fighters)]

    def _battle_preparation(self, e: Event) -> list[str]:
        if e["turns"] == 0:
            return ["  " + _("No preparation turns: the enemies move first (T-6.2, T-6.11).")]
        return ["  " + ngettext("{count} preparation turn for the party (T-6.2).",
                                "{count} preparation turns for the party (T-6.2).", e["turns"])]

    def _battle_start(self, e: Event) -> list[str]:
        self.horde = "the horde" if e.get("horde_library") or e.get("horde_cut") else "the enemy side"
        if self.horde != "the horde":
            return []
        return ["  " + ngettext("The horde deck: {count} card ({cut} cut, T-6.4).",
                                "The horde deck: {count} cards ({cut} cut, T-6.4).", e["horde_library"],
                                cut=e["horde_cut"])]

    def _battle_warning(self, e: Event) -> list[str]:
        return ["  " + _("warning: {message}", message=e["message"])]

    def _battle_boss(self, e: Event) -> list[str]:
        fields = dict(name=e["name"], life=e["life"], library=e["library"])
        if e.get("permanents"):
            return ["  " + _("{name}: life {life}, library {library}, on the battlefield: {permanents} (T-8.3).",
                             permanents=counted(e["permanents"]), **fields)]
        return ["  " + _("{name}: life {life}, library {library} (T-8.3).", **fields)]

    def _battle_npc(self, e: Event) -> list[str]:
        if e.get("loyalty"):
            return ["  " + _("{card} joins the enemies with loyalty {loyalty}.", card=card_name(e["card"]),
                             loyalty=e["loyalty"])]
        return ["  " + _("{card} joins the enemies.", card=card_name(e["card"]))]

    def _battle_turn(self, e: Event) -> list[str]:
        done = self._battle_end(e)
        self.turn = BattleTurn(e, self.name)
        return done

    def _battle_end(self, e: Event) -> list[str]:
        done, self.turn = self.turn, None
        return done.lines() if done is not None else []

    def _battle(self, e: Event) -> list[str]:
        outcome = {"victory": _("Victory (T-6.12)"), "defeat": _("Defeat (T-6.12)"),
                   "escape": _("The party escapes (T-6.6)"),
                   "stalemate": _("No end in sight: the battle is stopped")}[e["outcome"]]
        lives = _(", ").join(_("{pc} life {life}", pc=self.name(pc["id"]), life=pc["life_after"]) for pc in e["pcs"])
        turns = ngettext("{count} turn", "{count} turns", e["turns"])
        head = _("{outcome} after {turns} {clock}", outcome=outcome, turns=turns, clock=clock(e["clock"]))
        lines = [head + (f": {lives}." if lives else ".")]
        if e.get("stopped"):
            lines.append("  " + _("(stopped: {reason})", reason=e["stopped"]))
        return lines

    def _end(self, e: Event) -> list[str]:
        lines = ["", _("== The end: {outcome} == {clock}", outcome=end_word(e["outcome"]), clock=clock(e["clock"]))]
        if e["text"]:
            lines.append(e["text"])
        return lines


def end_word(outcome: str) -> str:
    """How a run ended (`end victory`, `end defeat`, stuck, ...) in the current language."""
    words = {"victory": _("victory"), "defeat": _("defeat"), "stuck": _("stuck"), "abandoned": _("abandoned"),
             "error": _("error")}
    return words.get(outcome, outcome)


def render_text(events: Iterable[Event], system: type[GameSystem] | None = None) -> str:
    """A whole transcript as text, one line per line, ending with a newline."""
    renderer = TextRenderer(system)
    return "".join(line + "\n" for event in events for line in renderer.lines(event))


def render_jsonl(events: Iterable[Event]) -> str:
    return "".join(json_line(event) for event in events)


def json_line(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False) + "\n"


class BattleTurn:
    """One battle turn's engine events, written as a line of what each side did (lands,
    spells, the horde's reveal, escape checks) and a line of its combat and results
    (attacks, blocks, life, cards milled, permanents that died or left). Other engine events
    (damage to creatures, triggers, pumps) are in the JSONL only.

    What a spell or an ability did outside combat (life, deaths, cards leaving, milling) is
    written on the deed's own line, after it (`casts Healing Salve on Ilse -> Ilse +3 life
    (15)`), never on the line of an attack it has nothing to do with. What happened from the
    first attack to the combat damage (a trick cast meanwhile included) is the combat line's;
    a deed after the combat damage has its results again."""

    def __init__(self, event: Event, name: Callable[[str | None], str]) -> None:
        fields = dict(turn=event["turn"], clock=clock(event["clock"]))
        self.head = "  " + (_("turn {turn} (party) {clock}", **fields) if event["active"] == "survivors"
                            else _("turn {turn} (enemies) {clock}", **fields))
        self.name = name
        self.deeds: dict[str, list[tuple[str, TurnEffects]]] = {}  # player -> what they did, in order
        self.revealed: list[str] = []
        self.horde_casts: list[str] = []
        self.attacks: dict[str, list[str]] = {}  # defender -> the attackers' names
        self.blocks: list[str] = []
        self.effects: TurnEffects | None = None  # the results of the latest deed, until combat
        self.combat = TurnEffects()  # the results of the attacks on, and of no deed
        self.fighters: set[str] = set()  # the attacking and blocking creatures' names
        self.fought = False  # combat damage was dealt: later deeds are the second main phase's

    def add(self, e: Event) -> None:
        method = getattr(self, "_" + e["event"][len("battle_"):], None)
        if method is not None:
            method(e)

    def _did(self, player: str, deed: str) -> None:
        in_combat = bool(self.fighters) and not self.fought
        self.effects = None if in_combat else TurnEffects()
        self.deeds.setdefault(player, []).append((deed, self.effects or TurnEffects()))

    def _results(self) -> "TurnEffects":
        """Where a result goes: the latest deed's effects before combat, else the combat line's."""
        return self.effects if self.effects is not None else self.combat

    def _play_land(self, e: Event) -> None:
        self._did(e["player"], _("plays {card}", card=card_name(e["card"])))

    def _cast(self, e: Event) -> None:
        if e["player"] == "horde":
            self.horde_casts.append(e["card"])
            self.effects = None  # the horde's spells are on its reveal: their results go with combat's
            return
        spell = card_name(e["card"]) + (f" (X={e['x']})" if e.get("x") else "")
        if e.get("targets"):
            self._did(e["player"], _("casts {card} on {targets}", card=spell,
                                     targets=_(", ").join(self.name(t) for t in e["targets"])))
        else:
            self._did(e["player"], _("casts {card}", card=spell))

    def _activate(self, e: Event) -> None:
        if "loyalty" in e:  # a loyalty ability (T-8.2): which one, and the loyalty it left
            self._did(e["player"], _("activates {card}: \"{ability}\", loyalty {loyalty}", card=card_name(e["card"]),
                                     ability=e["ability"], loyalty=e["loyalty"]))
        else:
            self._did(e["player"], _("activates {card}", card=card_name(e["card"])))

    def _tokens(self, e: Event) -> None:
        self._did(e["player"], _("makes {count} {card}", count=e["count"], card=card_name(e["card"])))

    def _reveal(self, e: Event) -> None:
        self.revealed += e["cards"]

    def _check(self, e: Event) -> None:
        """An escape check (T-6.6): the cards revealed, and the critical card where one
        decided it (a critical first card makes the target 20, a second the result 20, T-4.7)."""
        verdict = _("success") if e["success"] else _("failure")
        revealed = e.get("revealed") or []
        target, result = _("target {target}", target=e["target"]), _("result {result}", result=e["result"])
        if e.get("critical") == "failure" and len(revealed) >= 2:
            target += " (" + _("critical {card}", card=card_name(revealed[-2])) + ")"
        elif e.get("critical") == "success" and len(revealed) >= 2:
            result += " (" + _("critical {card}", card=card_name(revealed[-1])) + ")"
        elif e.get("critical"):  # only critical cards were left to reveal
            verdict += " (" + _("only critical cards left") + ")"
        if e.get("boost_bonus"):
            result += " (" + _("boost +{bonus}", bonus=e["boost_bonus"]) + ")"
        cards = _("revealed {cards}; ", cards=card_names(revealed)) if revealed else ""
        self._did(e["player"], _("tries to escape: {cards}{target}, {result}, {verdict}", cards=cards, target=target,
                                 result=result, verdict=verdict))

    def _draw(self, e: Event) -> None:
        if e["status"] != "ok":
            self._did(e["player"], _("cannot draw and is {status} (T-7.2)", status=status_word(e["status"])))

    def _discard(self, e: Event) -> None:
        self._did(e["player"], _("discards {card}", card=card_name(e["card"])))

    def _attack(self, e: Event) -> None:
        self.effects = None  # from the first attack on, results are combat's
        self.fighters.add(e["card"])
        defender = card_name(e["planeswalker"]) if e.get("planeswalker") else self.name(e["defender"])
        self.attacks.setdefault(defender, []).append(e["card"])

    def _block(self, e: Event) -> None:
        self.fighters.add(e["card"])
        self.blocks.append(_("{card} on {attacker}", card=card_name(e["card"]), attacker=card_name(e["attacker"])))

    def _damage(self, e: Event) -> None:
        if e["source"] in self.fighters:
            self.effects, self.fought = None, True

    def _life(self, e: Event) -> None:
        entry = self._results().life.setdefault(e["player"], LifeChange())
        entry.change += e["change"]
        entry.life, entry.status = e["life"], e["status"]

    def _mill(self, e: Event) -> None:
        self._results().milled[e["player"]] += len(e["cards"])

    def _dies(self, e: Event) -> None:
        self._results().died.append(e["card"])

    def _exile(self, e: Event) -> None:
        self._results().left.append(_("{card} (exiled)", card=card_name(e["card"])))

    def _bounce(self, e: Event) -> None:
        self._results().left.append(_("{card} (to its owner's hand)", card=card_name(e["card"])))

    def _counter(self, e: Event) -> None:
        self._did(e["player"], _("has {card} countered", card=card_name(e["card"])))

    def lines(self) -> list[str]:
        deeds = [_("{player} {deeds}", player=self.name(player),
                   deeds=_(", ").join(self._deed(deed, effects) for deed, effects in done))
                 for player, done in self.deeds.items()]
        if self.revealed:
            horde = [_("reveals {cards}", cards=counted(self.revealed))]
            extra = Counter(self.horde_casts) - Counter(self.revealed)
            if extra:
                horde.append(_("casts {card}", card=counted(list(extra.elements()))))
            deeds.insert(0, _("the horde {deeds}", deeds=_(", ").join(horde)))
        lines = [f"{self.head}: " + (_("; ").join(deeds) or _("nothing cast")) + _(".")]
        results = []
        results += [ngettext("{attackers} attacks {defender}", "{attackers} attack {defender}", len(names),
                             attackers=counted(names), defender=defender)
                    for defender, names in self.attacks.items()]
        if self.blocks:
            results.append(_("blocks: {blocks}", blocks=_(", ").join(self.blocks)))
        results += self.combat.words(self.name)
        if results:
            lines.append("    " + _("; ").join(results) + _("."))
        return lines

    def _deed(self, deed: str, effects: "TurnEffects") -> str:
        words = effects.words(self.name)
        return deed + " -> " + _("; ").join(words) if words else deed


@dataclass
class LifeChange:
    """A player's life in a battle turn: the net change, the life after and the status after."""

    change: int = 0
    life: int = 0
    status: str = "ok"


class TurnEffects:
    """Results in a battle turn: each player's net life change with the life after, cards
    milled, permanents that died or left the battlefield."""

    def __init__(self) -> None:
        self.life: dict[str, LifeChange] = {}
        self.milled: Counter[str] = Counter()
        self.died: list[str] = []
        self.left: list[str] = []  # exiled or returned to hand

    def words(self, name: Callable[[str | None], str]) -> list[str]:
        found = []
        for player, entry in self.life.items():
            change, life, status = entry.change, entry.life, entry.status
            fields = dict(player=name(player), change=signed(change), life=life)
            found.append(_("{player} {change} life ({life})", **fields) if status == "ok" else
                         _("{player} {change} life ({life}, {status})", status=status_word(str(status)), **fields))
        found += [_("{player} mills {count}", player=name(player), count=count) for player, count in self.milled.items()]
        if self.died:
            found.append(_("dies: {cards}", cards=counted(self.died)))
        if self.left:
            found.append(_("leaves: {cards}", cards=counted(self.left)))
        return found
