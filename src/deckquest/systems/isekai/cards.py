"""Isekai TCG cards, decks and duelists: what an author writes (I-1, I-2, I-10, I-18, I-19).

The source lists no cards (the digest's preamble), so every card is an author's: a unit with
its four stats, or a card whose text is a few lines of the effect vocabulary below. Cards are
immutable; a duel refers to them by their index in one shared table, so a game state holds
only lists of small ints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Card kinds (I-1): which deck each may go into.
UNIT, ITEM, EQUIPMENT, MAGIC, SKILL, STATUS = "unit", "item", "equipment", "magic", "skill", "status"
MAIN_KINDS = frozenset({UNIT, ITEM, EQUIPMENT})  # I-1: the main deck (HP)
SKILL_KINDS = frozenset({MAGIC, SKILL, ITEM, EQUIPMENT})  # I-1: the skill deck (MP)

# Ranges (I-10): a unit's reach and its own distance.
RANGES = ("near", "middle", "far")

# Effect verbs. A card's text is a tuple of effects, each one line an author writes:
#   deal N damage to TARGET          damage (a unit's HP, or a player's main deck: I-17)
#   prevent N damage to TARGET       prevention: a shield used up by later damage
#   heal N damage from TARGET        healing of a unit's damage
#   recovery N                       I-19: N face-down exiled main-deck cards to the deck's bottom
#   give TARGET +N speed|attack|hp   speed and stat changes (equipment keeps them on its unit)
#   protect TARGET                   I-16: later effects on it need this card's speed
#   move N cards from ZONE to ZONE   moving cards between a player's zones
#   return TARGET to hand            a unit back to its owner's hand
DAMAGE, PREVENT, HEAL, RECOVERY, BOOST, PROTECT, MOVE, BOUNCE = (
    "damage", "prevent", "heal", "recovery", "boost", "protect", "move", "bounce")
STATS = ("speed", "attack", "hp")

# Targets: whom an effect is for. A card has at most one target, chosen when it is played.
ANY_UNIT, YOUR_UNIT, ENEMY_UNIT, OPPONENT, YOU = "a unit", "your unit", "an enemy unit", "the opponent", "you"
TARGETS = (ANY_UNIT, YOUR_UNIT, ENEMY_UNIT, OPPONENT, YOU)

# Zones a `move` effect names (always the caster's own). "exile" is the face-down exile.
ZONES = ("main deck", "skill deck", "hand", "mana zone", "exile")


@dataclass(frozen=True, slots=True)
class Effect:
    """One line of a card's text. ``amount`` is N; ``target`` one of TARGETS or "";
    ``stat`` is the stat a boost changes; ``source``/``destination`` are a move's zones."""

    verb: str
    amount: int = 0
    target: str = ""
    stat: str = ""
    source: str = ""
    destination: str = ""

    def text(self) -> str:
        """The line as an author writes it (transcripts, the human agent, docs)."""
        if self.verb == DAMAGE:
            return f"deal {self.amount} damage to {self.target}"
        if self.verb == PREVENT:
            return f"prevent {self.amount} damage to {self.target}"
        if self.verb == HEAL:
            return f"heal {self.amount} damage from {self.target}"
        if self.verb == RECOVERY:
            return f"recovery {self.amount}"
        if self.verb == BOOST:
            sign = "+" if self.amount >= 0 else "-"
            return f"give {self.target} {sign}{abs(self.amount)} {self.stat}"
        if self.verb == PROTECT:
            return f"protect {self.target}"
        if self.verb == MOVE:
            return f"move {self.amount} cards from your {self.source} to your {self.destination}"
        return f"return {self.target} to hand"


# Reversal conditions (I-18): "your main deck has 5 or fewer cards".
CONDITION_SUBJECTS = ("your main deck", "their main deck", "your mana zone", "your hand",
                      "your field", "their field")  # "their": the opponent's
MAX_COUNT = 100  # no zone holds more than the 100 cards of both decks


@dataclass(frozen=True, slots=True)
class Condition:
    """A [Reversal]'s condition: SUBJECT has N or fewer|or more cards (units on a field)."""

    subject: str
    amount: int
    at_most: bool  # "or fewer" (True) or "or more"

    def text(self) -> str:
        things = "units" if self.subject.endswith("field") else "cards"
        return f"{self.subject} has {self.amount} {'or fewer' if self.at_most else 'or more'} {things}"

    def problem(self) -> str | None:
        """Why the condition cannot be used, or None: an unknown subject, or a count that
        makes it always or never true (DQ4009)."""
        if self.subject not in CONDITION_SUBJECTS:
            return f"a reversal condition counts one of: {', '.join(CONDITION_SUBJECTS)}"
        if self.amount < 0 or self.amount > MAX_COUNT:
            return f"a reversal condition's count is 0 to {MAX_COUNT}, not {self.amount}"
        if not self.at_most and self.amount == 0:
            return "'0 or more' is always true: the reversal would have no condition"
        return None


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card an author defines. ``id`` is the script's name for it, ``name`` its title.

    Units have range, attack, hp and speed (I-10); every other kind has a speed for its
    answers and interrupts (I-9, I-14) and a text of effects. Status cards give their duelist
    attack, speed and range (I-R3). ``blessing`` is its [Blessing Skill] level (I-2),
    ``unique`` its [Unique] mark, ``reversal`` its [Reversal] condition (I-18)."""

    id: str
    name: str
    kind: str
    cost: int = 0
    speed: int = 0
    range: str = ""
    attack: int = 0
    hp: int = 0
    effects: tuple[Effect, ...] = ()
    blessing: int = 0
    unique: bool = False
    reversal: Condition | None = None

    @property
    def target(self) -> str:
        """The one target the card asks for when played ("" when none)."""
        for effect in self.effects:
            if effect.target:
                return effect.target
        return ""

    @property
    def recovery(self) -> int:
        """Its Recovery N (I-19), 0 when it has none."""
        return sum(e.amount for e in self.effects if e.verb == RECOVERY)

    def summary(self) -> str:
        """One line for a human: kind, cost, speed, stats or text, marks."""
        parts = [f"{self.name} ({self.kind}, cost {self.cost}, speed {self.speed}"]
        if self.kind == UNIT:
            parts[0] += f", {self.range}, {self.attack}/{self.hp}"
        parts[0] += ")"
        parts.extend(effect.text() for effect in self.effects)
        if self.blessing:
            parts.append(f"[Blessing Skill {self.blessing}]")
        if self.unique:
            parts.append("[Unique]")
        if self.reversal is not None:
            parts.append(f"[Reversal] if {self.reversal.text()}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Deck:
    """A duelist's cards (I-1): 50 main, 50 skill, any status cards, as (card id, count)."""

    id: str
    name: str
    main: tuple[tuple[str, int], ...]
    skills: tuple[tuple[str, int], ...]
    status: tuple[tuple[str, int], ...] = ()

    def cards(self, part: tuple[tuple[str, int], ...]) -> list[str]:
        return [card for card, count in part for _ in range(count)]


@dataclass(frozen=True)
class Duelist:
    """One side of a duel: a seat id, a display name and a deck."""

    id: str
    name: str
    deck: Deck


@dataclass(frozen=True)
class CardSet:
    """The cards a duel may use, by id; the duel's shared table is built from it."""

    cards: dict[str, CardDef] = field(default_factory=dict)

    def __getitem__(self, card_id: str) -> CardDef:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards
