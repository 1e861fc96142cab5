"""Colours as the MTG-TRPG rules read them, and the check bonus tables.

The rules colour of a card (T-1.4) differs from its MTG colour: a land with a
basic land type counts as that type's colour (a Forest is green for a check).
The boost of T-4.6 is the one place that goes back to MTG colour: a Forest is
colourless there. The bonus tables are T-4.3 (2019 kinds) and T-5.2 (2014 kinds).
"""

from __future__ import annotations

from typing import Final

from deckquest.i18n import _
from deckquest.cards.model import BASIC_LAND_TYPES, COLORS, Card, sort_colors

#: T-4.1: the 2019 check kinds; "colorless" is the check without colour bonus (T-4.9).
KINDS_2019 = ("white", "blue", "black", "red", "green", "colorless")
#: T-5.1: the 2014 check kinds.
KINDS_2014 = ("negotiation", "intellect", "dexterity", "reflex", "body")



def check_kind_word(kind: str) -> str:
    """A check kind in the current language: the rules' own names (白判定, 交渉判定, ...)."""
    words = {"white": _("white"), "blue": _("blue"), "black": _("black"), "red": _("red"), "green": _("green"),
             "colorless": _("colorless"), "negotiation": _("negotiation"), "intellect": _("intellect"),
             "dexterity": _("dexterity"), "reflex": _("reflex"), "body": _("body")}
    return words.get(kind, kind)


def who_word(who: str) -> str:
    """Who makes a check (`by party`, `each`, `all`, `any`, or a PC's id) in the current language."""
    words = {"party": _("party"), "each": _("each PC"), "all": _("every PC"), "any": _("any PC")}
    return words.get(who, who)


KIND_COLOR = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}

#: T-4.3: allied colours are neighbours on the colour wheel W-U-B-R-G-W.
ALLIES = frozenset(
    frozenset(pair) for pair in (("W", "U"), ("U", "B"), ("B", "R"), ("R", "G"), ("G", "W"))
)

#: T-5.2: row = card colour, columns in KINDS_2014 order.
TABLE_2014 = {
    "W": (5, 4, 2, 1, 3),
    "U": (3, 5, 4, 2, 1),
    "B": (1, 3, 5, 4, 2),
    "R": (2, 1, 3, 5, 4),
    "G": (4, 2, 1, 3, 5),
}
#: T-5.4: a colourless card gives +2 in every 2014 kind.
COLORLESS_BONUS_2014 = 2

#: T-5.5 [reading]: which 2019 kind stands for a 2014 kind.
KIND_2014_TO_2019 = {
    "negotiation": "white",
    "intellect": "blue",
    "dexterity": "black",
    "reflex": "red",
    "body": "green",
}


def rule_colors(card: Card) -> tuple[str, ...]:
    """T-1.4: the card's colours plus the colour of each basic land type it has.

    Cards are immutable, so the answer is kept, by the card's identity: every check asks it
    of its result card, and a PC's whole card table is read again once a battle's tokens
    have grown it. (Kept by equality, each lookup would hash the card, its type line and
    its mana cost field by field.) The entry holds the card, so a reused id cannot match.
    """
    kept = _RULE_COLORS.get(id(card))
    if kept is not None and kept[0] is card:
        return kept[1]
    if len(_RULE_COLORS) >= _RULE_COLORS_LIMIT:
        _RULE_COLORS.clear()
    from_land_types = (BASIC_LAND_TYPES[t] for t in card.basic_land_types)
    colors = sort_colors(set(card.colors) | set(from_land_types))
    _RULE_COLORS[id(card)] = (card, colors)
    return colors


_RULE_COLORS: Final[dict[int, tuple[Card, tuple[str, ...]]]] = {}
_RULE_COLORS_LIMIT: Final = 4096


def is_colorless_for_boost(card: Card) -> bool:
    """T-4.6: colourless in MTG terms; lands with basic land types count as colourless here."""
    return not card.colors


def color_bonus(color: str | None, kind: str) -> int:
    """T-4.3: +5 for the check's own colour, +3 for an ally, +0 for an enemy or colourless.

    A colourless check (T-4.9) gives no bonus whatever the card's colour.
    """
    bonus = _BONUS.get((color, kind))
    if bonus is not None:
        return bonus
    return _color_bonus(color, kind)


def _color_bonus(color: str | None, kind: str) -> int:
    wanted = KIND_COLOR.get(kind)
    if color is None or wanted is None:
        return 0
    if color == wanted:
        return 5
    if frozenset((color, wanted)) in ALLIES:
        return 3
    return 0


def bonus_2014(colors: tuple[str, ...], kind: str) -> tuple[int, str | None]:
    """T-5.2 to T-5.4: the bonus and the colour used; a multicolour card takes its best colour.

    The player chooses among a multicolour card's colours (T-5.3); the engine
    chooses the highest bonus, the first in WUBRG order on a tie.
    """
    column = KINDS_2014.index(kind)
    if not colors:
        return COLORLESS_BONUS_2014, None
    best = max(colors, key=lambda color: (TABLE_2014[color][column], -COLORS.index(color)))
    return TABLE_2014[best][column], best


def check_kind(kind: str, rules: str) -> str:
    """The kind name, validated for the rules edition; a ValueError names the allowed kinds."""
    allowed = KINDS_2019 if rules == "2019" else KINDS_2014
    if kind not in allowed:
        raise ValueError(f"unknown {rules} check kind {kind!r}; expected one of {', '.join(allowed)}")
    return kind


#: ``color_bonus`` of every colour and 2019 kind, worked out once: each check asks it.
_BONUS: dict[tuple[str | None, str], int] = {(color, kind): _color_bonus(color, kind) for color in COLORS for kind in KINDS_2019}
