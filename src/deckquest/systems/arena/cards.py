"""Army cards, abilities, spell cards and armies of Arena of the Planeswalkers (A-2, A-3, A-18, A-23).

The game's own cards are not public data, so every card here is written by a scenario's author.
Abilities and spell effects come from one small vocabulary (docs/arena.md):

- effects: ``Damage`` (deal N damage to a target), ``Heal`` (remove N damage), ``Strike`` (roll N
  attack dice against a target's defence), ``Bonus`` (a stat +N for a figure or an army, while a
  glyph is held, for the turn a spell is cast, or always for a card's static ability), ``Draw``;
- abilities: the keyword ``flying`` (A-12), static ``Bonus``es, ``Triggered`` effects (when the
  card is activated, when one of its figures is destroyed) and ``Activated`` abilities (a figure
  of the activated card uses one instead of attacking, A-18).
"""

from __future__ import annotations

from dataclasses import dataclass

from deckquest.i18n import _

CATEGORIES = ("planeswalker", "squad", "hero")

# The bounds of the numbers an author writes (docs/arena.md, "Numbers"). A shared script is
# untrusted input, and some numbers are work: a figure's move is the length of its route
# search, its attack and defence the dice of an exact roll, a spell deck a list dealt each game.
MAX_DICE = 30  # attack, defence, `roll N attack dice`
MAX_LIFE = 100  # life, `deal N damage`, `remove N damage`
MAX_REACH = 30  # move, range, `in range N`: far beyond any battlefield's width
STAT_RANGES = {"life": (1, MAX_LIFE), "move": (0, MAX_REACH), "range": (1, MAX_REACH), "attack": (0, MAX_DICE),
               "defence": (0, MAX_DICE), "size": (1, 20), "cost": (0, 10_000), "hexes": (1, 2)}
MAX_FIGURES = 40  # a card's `xN`
MAX_SPELL_DECK = 100  # the cards of an army's spell deck, all `spells` lines together
MAX_BONUS = 10  # `attack +N`: a bonus of N from 1 to 10, up or down
MAX_DRAW = 10  # `draw N spells`


@dataclass(frozen=True)
class Target:
    """Who an effect reaches: ``side`` is ``enemy``, ``friend`` or ``any`` figure; ``each``
    reaches every such figure at once; ``range`` counts hexes from ``origin`` (``planeswalker``
    = your planeswalker, ``self`` = the figure using the ability); None = anywhere."""

    side: str = "any"
    range: int | None = None
    origin: str = "planeswalker"
    each: bool = False


@dataclass(frozen=True)
class Damage:
    amount: int
    target: Target


@dataclass(frozen=True)
class Heal:
    amount: int
    target: Target


@dataclass(frozen=True)
class Strike:
    """Roll ``dice`` attack dice against the target's defence dice (A-19), as an attack does."""

    dice: int
    target: Target


@dataclass(frozen=True)
class Bonus:
    """``stat`` +``amount`` for ``scope``: ``army`` (every figure of the army) or ``figure``
    (the card's own figures). Held for as long as its source lasts: a glyph while held, a
    spell for the turn, a card's static ability always."""

    stat: str
    amount: int
    scope: str = "army"


@dataclass(frozen=True)
class Draw:
    count: int


Effect = Damage | Heal | Strike | Bonus | Draw


@dataclass(frozen=True)
class Triggered:
    """Effects that happen when ``event`` happens to the card: ``activated`` (A-6) or
    ``destroyed`` (one of its figures is destroyed)."""

    event: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Activated:
    """An ability a figure of the activated card may use instead of its attack (A-18)."""

    name: str
    effects: tuple[Effect, ...]


Ability = str | Bonus | Triggered | Activated  # a str is a keyword


@dataclass(frozen=True)
class ArmyCard:
    """One army card (A-18) and how many figures it brings; ``hexes`` is 1, or 2 for a
    two-hex figure (A-17)."""

    name: str
    category: str
    life: int
    move: int
    range: int
    attack: int
    defence: int
    size: int
    cost: int = 0
    figures: int = 1
    hexes: int = 1
    abilities: tuple[Ability, ...] = ()

    @property
    def flying(self) -> bool:
        return "flying" in self.abilities

    def bonuses(self) -> tuple[Bonus, ...]:
        return tuple(a for a in self.abilities if isinstance(a, Bonus))

    def triggered(self, event: str) -> tuple[Triggered, ...]:
        return tuple(a for a in self.abilities if isinstance(a, Triggered) and a.event == event)

    def activated(self) -> tuple[Activated, ...]:
        return tuple(a for a in self.abilities if isinstance(a, Activated))


@dataclass(frozen=True)
class Spell:
    """A spell card written by the scenario's author (A-23)."""

    name: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Army:
    """A player's army: its cards (exactly one planeswalker) and its spell deck (names, with
    repeats); ``points`` is the limit it was built to, if any."""

    seat: str
    name: str
    cards: tuple[ArmyCard, ...]
    spells: tuple[str, ...] = ()
    points: int | None = None

    @property
    def planeswalker(self) -> ArmyCard:
        return next(c for c in self.cards if c.category == "planeswalker")

    def card(self, name: str) -> ArmyCard:
        return next(c for c in self.cards if c.name == name)

    @property
    def total_cost(self) -> int:
        return sum(c.cost for c in self.cards)


@dataclass(frozen=True)
class ArmyProblem:
    """Something wrong with an army as built; ``code`` is its DQ30xx diagnostic."""

    code: str
    message: str
    card: str | None = None
    hint: str | None = None


def check_army(army: Army, spells: dict[str, Spell] | None = None) -> list[ArmyProblem]:
    """What is wrong with ``army``: not exactly one planeswalker (A-2), over its points, a
    card's numbers out of range, a spell its deck names that no ``spell`` defines."""
    problems: list[ArmyProblem] = []
    walkers = [c for c in army.cards if c.category == "planeswalker"]
    if len(walkers) != 1:
        problems.append(ArmyProblem("DQ3010", f"army {army.name!r} has {len(walkers)} planeswalkers; it needs exactly one (A-2)",
                                    hint="mark one card `planeswalker`, the others `squad` or `hero`"))
    for card in walkers:
        if card.figures != 1:
            problems.append(ArmyProblem("DQ3010", f"planeswalker {card.name!r} has {card.figures} figures; a planeswalker is one figure", card.name))
    if army.points is not None and army.total_cost > army.points:
        problems.append(ArmyProblem("DQ3011", f"army {army.name!r} costs {army.total_cost} points, over its {army.points}",
                                    hint="drop a card or raise the army's points"))
    problems.extend(_card_problems(army))
    for name in dict.fromkeys(army.spells):
        if spells is not None and name not in spells:
            problems.append(ArmyProblem("DQ3020", f"the spell deck names {name!r}, which no `spell` defines"))
    return problems


def _card_problems(army: Army) -> list[ArmyProblem]:
    problems: list[ArmyProblem] = []
    seen: set[str] = set()
    for card in army.cards:
        if card.name in seen:
            problems.append(ArmyProblem("DQ3012", f"army {army.name!r} has two cards named {card.name!r}", card.name))
        seen.add(card.name)
        if card.category not in CATEGORIES:
            problems.append(ArmyProblem("DQ3012", f"unknown category {card.category!r}", card.name, hint="planeswalker, squad or hero"))
        for stat, (low, high) in {**STAT_RANGES, "figures": (1, MAX_FIGURES)}.items():
            value = getattr(card, stat)
            if not low <= value <= high:
                problems.append(ArmyProblem("DQ3012", stat_message(card.name, stat, value, low, high), card.name))
    return problems


def stat_message(card: str, stat: str, value: int, low: int, high: int) -> str:
    """DQ3012's words for a number of an army card out of its range."""
    if stat == "hexes":
        return _("'{card}' covers {value} hexes; a figure covers 1 or 2 (A-17)", card=card, value=value)
    if stat == "figures":
        return _("'{card}' brings {value:,} figures: from {low} to {high}", card=card, value=value, low=low, high=high)
    return _("'{card}' has `{stat} {value}`: from {low:,} to {high:,}", card=card, stat=stat, value=value, low=low,
             high=high)
