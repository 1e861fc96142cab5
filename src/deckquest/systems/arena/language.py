"""Arena's part of the scenario language: grammar fragment, AST nodes, builder methods
(docs/arena.md, "The scenario"). The resolver checks are in ``resolve.py``.

```
battlefield "The Duel":
    row "0 0 0 1 0 0 0"             # levels 0-9, ~ water, # wall, . no hex (A-1)
    start p1 at 1,1 2,1 3,1         # a seat's start zone (A-2)
    glyph "Glyph of Valor" at 4,2:  # a glyph and its power (A-14)
        attack +1 for its army
army p1 "Gideon's Legion":          # a seat's army (A-2, A-18)
    planeswalker "Gideon" life 6 move 5 range 1 attack 4 defence 2 size 5
    squad "Knights" x3 life 1 move 5 range 1 attack 2 defence 2 size 4 cost 40:
        flying
    spells "Smite" x10              # the spell deck (A-3)
spell "Smite":                      # an author's spell card (A-23)
    deal 2 damage to a figure in range 4 of your planeswalker
victory hold "Glyph of Valor" for 2 rounds
when a figure is destroyed:
    "{figure} falls."
```
"""

from __future__ import annotations

from dataclasses import dataclass

from deckquest.dsl import ast
from deckquest.dsl.parser import unquote
from deckquest.errors import Span
from deckquest.systems.arena.cards import Bonus, Damage, Draw, Effect, Heal, Strike, Target

GRAMMAR = r"""
// header: `turn limit 30 rounds` (A-24, A-R4), `dice 3 swords 2 shields 1 blank` (A-20, A-R7)
%extend header_entry: arena_turn_limit | arena_dice
arena_turn_limit: "turn" "limit" INT arena_limit_unit _NL
!arena_limit_unit: "rounds" | "round" | "turns" | "turn"
arena_dice: "dice" INT ("sword" | "swords") INT ("shield" | "shields") INT ("blank" | "blanks") _NL

%extend item: arena_battlefield | arena_army | arena_spell | arena_victory

// the battlefield (A-1, A-2, A-14)
arena_battlefield: "battlefield" STRING ":" _NL _INDENT arena_field_line+ _DEDENT
?arena_field_line: arena_row | arena_start | arena_glyph
arena_row: "row" STRING _NL
arena_start: "start" NAME "at" arena_pos+ _NL
arena_glyph: "glyph" STRING "at" arena_pos _NL
           | "glyph" STRING "at" arena_pos ":" _NL _INDENT arena_effect_line+ _DEDENT
arena_pos: INT "," INT

// armies (A-2, A-3, A-18)
arena_army: "army" NAME STRING ":" _NL _INDENT arena_army_line+ _DEDENT
?arena_army_line: arena_card | arena_spells | arena_plays | arena_points
arena_card: arena_category STRING [COPIES] arena_stat+ _NL
          | arena_category STRING [COPIES] arena_stat+ ":" _NL _INDENT arena_ability+ _DEDENT
!arena_category: "planeswalker" | "squad" | "hero"
arena_stat: arena_stat_word INT
!arena_stat_word: "life" | "move" | "range" | "attack" | "defence" | "defense" | "size" | "cost" | "hexes"
arena_spells: "spells" arena_copies ("," arena_copies)* _NL
arena_copies: STRING [COPIES]
arena_plays: "plays" NAME _NL
arena_points: "points" INT _NL
?arena_ability: arena_flying | arena_static | arena_when | arena_activated
arena_flying: "flying" _NL
arena_static: arena_bonus _NL
arena_when: "when" arena_card_event ":" _NL _INDENT arena_effect_line+ _DEDENT
!arena_card_event: "activated" | "destroyed"
arena_activated: "ability" STRING ":" _NL _INDENT arena_effect_line+ _DEDENT

// spells (A-23) and the effect vocabulary
arena_spell: "spell" STRING ":" _NL _INDENT arena_effect_line+ _DEDENT
arena_effect_line: arena_effect _NL
?arena_effect: arena_deal | arena_remove | arena_strike | arena_bonus | arena_draw
arena_deal: "deal" INT "damage" "to" arena_target
arena_remove: "remove" INT "damage" "from" arena_target
arena_strike: "roll" INT "attack" "dice" "against" arena_target
arena_bonus: arena_bonus_stat arena_amount [arena_scope]
!arena_bonus_stat: "attack" | "defence" | "defense" | "move" | "range"
arena_amount: "+" INT -> arena_plus
            | "-" INT -> arena_minus
arena_scope: "for" ("its" | "your") "army"
arena_draw: "draw" INT ("spell" | "spells" | "card" | "cards")
arena_target: ("a" | "an") [arena_side] "figure" [arena_range]  -> arena_one
            | "each" [arena_side] "figure" [arena_range]       -> arena_each
!arena_side: "enemy" | "friendly"
arena_range: "in" "range" INT ["of" arena_origin]
!arena_origin: "your" "planeswalker" | "it"

// victory conditions beside the planeswalker's (A-4, A-24)
arena_victory: "victory" "hold" STRING "for" INT ("round" | "rounds") _NL -> arena_victory_hold
             | "victory" "score" INT ["points"] _NL                     -> arena_victory_score

%extend event: "a" "figure" "is" "destroyed" -> ev_figure_destroyed
             | "a" "glyph" "is" "taken"      -> ev_glyph_taken
             | "round" INT                   -> ev_round
"""

EVENTS = {"figure_destroyed": True, "glyph_taken": True, "round": False}
RESERVED = frozenset({"battlefield", "army", "spell", "victory", "glyph", "figure", "round"})


@dataclass(frozen=True)
class PosRef:
    span: Span
    pos: tuple[int, int]


@dataclass(frozen=True)
class RowLine:
    span: Span
    text: str
    line: int
    col: int  # the column of the row's first character inside the quotes


@dataclass(frozen=True)
class StartLine:
    span: Span
    seat: str
    positions: tuple[PosRef, ...]


@dataclass(frozen=True)
class EffectLine:
    span: Span
    effect: Effect


@dataclass(frozen=True)
class GlyphLine:
    span: Span
    name: str
    pos: PosRef
    effects: tuple[EffectLine, ...]


@dataclass(frozen=True)
class BattlefieldDecl:
    span: Span
    name: str
    rows: tuple[RowLine, ...]
    starts: tuple[StartLine, ...]
    glyphs: tuple[GlyphLine, ...]


@dataclass(frozen=True)
class AbilityLine:
    """A card's ability: ``kind`` is ``flying``, ``static``, ``activated`` or ``destroyed``
    (``when`` events), ``ability`` (activated by name)."""

    span: Span
    kind: str
    name: str
    effects: tuple[EffectLine, ...]


@dataclass(frozen=True)
class CardLine:
    span: Span
    category: str
    name: str
    figures: int
    stats: tuple[tuple[str, int, Span], ...]
    abilities: tuple[AbilityLine, ...]


@dataclass(frozen=True)
class SpellsLine:
    span: Span
    spells: tuple[tuple[str, int, Span], ...]


@dataclass(frozen=True)
class ArmyDecl:
    span: Span
    seat: str
    name: str
    cards: tuple[CardLine, ...]
    spells: tuple[SpellsLine, ...]
    plays: tuple[str, Span] | None
    points: int | None


@dataclass(frozen=True)
class SpellDecl:
    span: Span
    name: str
    effects: tuple[EffectLine, ...]


@dataclass(frozen=True)
class VictoryDecl:
    span: Span
    kind: str  # "hold" or "score"
    glyph: str | None
    number: int  # rounds held, or points


class Builder:
    """Builder methods merged into the core's transformer, one per rule of ``GRAMMAR``."""

    def _copies(self, token) -> int:
        """`xN` (1 without it), through the core's `_int`: DQ0013 past 1,000,000."""
        return self._int(token, skip=1) if token is not None else 1

    def arena_turn_limit(self, meta, c):
        unit = str(c[1])
        return ast.HeaderEntry(self._span(meta), "turn limit", (self._int(c[0]), "rounds" if unit.startswith("round") else "turns"))

    def arena_limit_unit(self, meta, c):
        return c[0]

    def arena_dice(self, meta, c):
        numbers = [self._int(t) for t in c if getattr(t, "type", "") == "INT"]
        return ast.HeaderEntry(self._span(meta), "dice", tuple(numbers))

    def arena_battlefield(self, meta, c):
        lines = c[1:]
        return BattlefieldDecl(self._span(meta), unquote(c[0]), tuple(x for x in lines if isinstance(x, RowLine)),
                               tuple(x for x in lines if isinstance(x, StartLine)),
                               tuple(x for x in lines if isinstance(x, GlyphLine)))

    def arena_row(self, meta, c):
        token = c[0]
        return RowLine(self._span(meta), unquote(token), token.line, token.column + 1)

    def arena_start(self, meta, c):
        return StartLine(self._span(meta), str(c[0]), tuple(c[1:]))

    def arena_glyph(self, meta, c):
        return GlyphLine(self._span(meta), unquote(c[0]), c[1], tuple(c[2:]))

    def arena_pos(self, meta, c):
        return PosRef(self._span(meta), (self._int(c[0]), self._int(c[1])))

    def arena_army(self, meta, c):
        seat, name, *lines = c
        plays = next((x[1:] for x in lines if isinstance(x, tuple) and x[0] == "plays"), None)
        points = next((x[1] for x in lines if isinstance(x, tuple) and x[0] == "points"), None)
        return ArmyDecl(self._span(meta), str(seat), unquote(name), tuple(x for x in lines if isinstance(x, CardLine)),
                        tuple(x for x in lines if isinstance(x, SpellsLine)), plays, points)

    def arena_card(self, meta, c):
        category, name, copies, *rest = c
        stats = tuple(x for x in rest if isinstance(x, tuple))
        abilities = tuple(x for x in rest if isinstance(x, AbilityLine))
        return CardLine(self._span(meta), str(category), unquote(name), self._copies(copies), stats, abilities)

    def arena_category(self, meta, c):
        return str(c[0])

    def arena_stat(self, meta, c):
        word = str(c[0])
        return ("defence" if word == "defense" else word, self._int(c[1]), self._span(meta))

    def arena_stat_word(self, meta, c):
        return c[0]

    def arena_spells(self, meta, c):
        return SpellsLine(self._span(meta), tuple(c))

    def arena_copies(self, meta, c):
        return (unquote(c[0]), self._copies(c[1]), self._span(meta))

    def arena_plays(self, meta, c):
        return ("plays", str(c[0]), self._span(meta))

    def arena_points(self, meta, c):
        return ("points", self._int(c[0]))

    def arena_flying(self, meta, c):
        return AbilityLine(self._span(meta), "flying", "flying", ())

    def arena_static(self, meta, c):
        return AbilityLine(self._span(meta), "static", "", (EffectLine(self._span(meta), c[0]),))

    def arena_when(self, meta, c):
        return AbilityLine(self._span(meta), str(c[0]), "", tuple(c[1:]))

    def arena_card_event(self, meta, c):
        return str(c[0])

    def arena_activated(self, meta, c):
        return AbilityLine(self._span(meta), "ability", unquote(c[0]), tuple(c[1:]))

    def arena_spell(self, meta, c):
        return SpellDecl(self._span(meta), unquote(c[0]), tuple(c[1:]))

    def arena_effect_line(self, meta, c):
        return EffectLine(self._span(meta), c[0])

    def arena_deal(self, meta, c):
        return Damage(self._int(c[0]), c[1])

    def arena_remove(self, meta, c):
        return Heal(self._int(c[0]), c[1])

    def arena_strike(self, meta, c):
        return Strike(self._int(c[0]), c[1])

    def arena_bonus(self, meta, c):
        stat, amount, scope = c
        stat = "defence" if str(stat) == "defense" else str(stat)
        return Bonus(stat, amount, "army" if scope else "figure")

    def arena_bonus_stat(self, meta, c):
        return c[0]

    def arena_plus(self, meta, c):
        return self._int(c[0])

    def arena_minus(self, meta, c):
        return -self._int(c[0])

    def arena_scope(self, meta, c):
        return "army"

    def arena_draw(self, meta, c):
        return Draw(self._int(c[0]))

    def arena_one(self, meta, c):
        return _target(c, each=False)

    def arena_each(self, meta, c):
        return _target(c, each=True)

    def arena_side(self, meta, c):
        return "friend" if str(c[0]) == "friendly" else "enemy"

    def arena_range(self, meta, c):
        return ("range", self._int(c[0]), c[1])

    def arena_origin(self, meta, c):
        return "self" if str(c[0]) == "it" else "planeswalker"

    def arena_victory_hold(self, meta, c):
        return VictoryDecl(self._span(meta), "hold", unquote(c[0]), self._int(c[1]))

    def arena_victory_score(self, meta, c):
        return VictoryDecl(self._span(meta), "score", None, self._int(c[0]))

    def ev_figure_destroyed(self, meta, c):
        return self._event(meta, "figure_destroyed")

    def ev_glyph_taken(self, meta, c):
        return self._event(meta, "glyph_taken")

    def ev_round(self, meta, c):
        return self._event(meta, "round", number=self._int(c[0]))


def _target(c: list, each: bool) -> Target:
    side, reach = c
    if reach is None:
        return Target(side or "any", None, "planeswalker", each)
    _, distance, origin = reach
    return Target(side or "any", distance, origin or "", each)
