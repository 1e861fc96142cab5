"""MTG-TRPG's declaration checks: PCs (their deck and critical cards, T-1.1, T-4.7), NPCs
(T-8.1 to T-8.3: ``from card``, inline fields) and a GM's own cards (docs/effects.md).

The core declares the names (``pc``, NPC and ``card`` first, as it always did, so a clash
with a flag, counter or scene is reported where it always was); this module checks what they
say, where the core's compiler always checked it: before the walk over the scenes
(``GameSystem.resolve_declarations``). What it works out goes into the compiled program's
tables (``context.pcs``, ``npcs``, ``decks``, ``cards``: ``Scenario.pcs`` ...), never into
the syntax tree. Its codes are the core's older ones (DQ0021, DQ0030, DQ0052 to DQ0058) and
MTG-TRPG's DQ5000: they kept their numbers when the checks moved here (docs/development.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckquest.dsl import ast
from deckquest.dsl.resolver import kind_word
from deckquest.dsl.scenario import ResolvedNpc, ResolvedPc
from deckquest.errors import did_you_mean
from deckquest.i18n import _, ngettext

if TYPE_CHECKING:  # the card modules are imported when a script first needs them
    from deckquest.cards.decklist import Deck
    from deckquest.cards.model import Card
    from deckquest.dsl.resolver import SystemContext

NPC_FIELDS = {
    "creature": ("cost", "types", "stats", "keywords", "text"),
    "planeswalker": ("cost", "types", "keywords", "loyalty", "text"),
    "player": ("deck", "life"),
    "horde": ("deck",),
}
PLAYER_NPC_LIFE = 20
REPEATABLE_FIELDS = ("text",)  # one line of rules text each
# The card types a GM's own card may have: what a battle can play.
CARD_DECL_TYPES = ("Creature", "Planeswalker", "Instant", "Sorcery", "Artifact", "Enchantment", "Land")


def resolve_declarations(context: SystemContext) -> None:
    """Check the script's cards, then its PCs (not a used script's: the party is the main
    script's), then its NPCs, in that order: each NPC may take a GM's card's values."""
    declarations = Declarations(context)
    for card in context.script.cards:
        declarations.card(card)
    for pc in context.script.pcs if not context.library else ():
        declarations.pc(pc)
    for npc in context.script.npcs:
        declarations.npc(npc)


class Declarations:
    """The checks of one script's declarations, reporting through the compiler's context."""

    def __init__(self, context: SystemContext):
        self.context = context

    def pc(self, pc: ast.PcDecl) -> None:
        deck_lines = [f for f in pc.fields if f.key == "deck"]
        for extra in deck_lines[1:]:
            self.context.error("DQ0021", _("a PC has one `deck`"), extra.span, _("the first is at line {line}", line=deck_lines[0].span.line))
        deck, deck_path = None, None
        if pc.deck is None:
            self.context.error("DQ0055", _("the PC `{id}` has no deck", id=pc.id), pc.span, _("add `deck \"decks/name.txt\"` under it"))
        else:
            deck_span = pc.deck_span or pc.span  # the parser gives a deck line its place
            deck_path, deck = self.context.deck(pc.deck, deck_span)
            if deck is not None:
                self.context.decks[pc.id] = deck
                self._criticals(pc, deck)
                from deckquest.cards.decklist import not_constructed
                if (why := not_constructed(deck)) is not None:
                    self.context.warn("DQ5000", _("the deck of `{id}` is legal in no constructed format: {why} (T-1.1)", id=pc.id, why=why),
                                      deck_span, _("a PC's deck is a deck of a constructed format: 60 cards or more with at most 4 of a card but basic lands, or a 100-card singleton Commander deck"))
        self.context.pcs[pc.id] = ResolvedPc(pc.id, pc.name, pc, deck_path, deck,
                                             tuple((c.card, c.copies) for c in pc.criticals))

    def _criticals(self, pc: ast.PcDecl, deck: Deck) -> None:
        """T-4.7: exactly 3 critical cards (5 in a Commander deck), all of them in the deck (2019 only: T-5 has none)."""
        for critical in pc.criticals:
            have = deck.count_of(critical.card)
            if critical.copies < 1:
                self.context.error("DQ0057", _("`x{copies}` designates no critical card", copies=critical.copies), critical.span,
                                   _("write at least `x1`, or delete the line"))
            elif have < critical.copies:
                names = sorted({card.name for card in deck.main_cards()})
                hint = did_you_mean(critical.card, names) if have == 0 else None
                what = _("no copy") if have == 0 else ngettext("only {count} copy", "only {count} copies", have)
                self.context.error("DQ0052", _("the deck of `{id}` has {what} of \"{card}\"", id=pc.id, what=what, card=critical.card), critical.span,
                                   hint or _("critical cards are specific cards of the PC's main deck (T-4.7)"))
        wanted = 5 if deck.is_commander else 3
        total = sum(c.copies for c in pc.criticals)
        if total != wanted and self.context.rules == 2019:
            kind = _("a 100-card Commander deck") if deck.is_commander else _("a deck")
            self.context.error("DQ0053", _("`{id}` has {total} critical cards; {kind} has exactly {wanted} (T-4.7)", id=pc.id, total=total, kind=kind, wanted=wanted),
                               pc.criticals[0].span if pc.criticals else pc.span,
                               _("name them with `critical \"Card\" xN` lines that add up to {wanted}", wanted=wanted))

    def card(self, decl: ast.CardDecl) -> None:
        """A GM's own card: a type line with a card type, a mana cost, stats for a creature,
        loyalty for a planeswalker, keywords the battle engine knows, and rules text that maps
        completely onto the effect vocabulary (docs/effects.md)."""
        from deckquest.cards.model import Card, TypeLine

        if not self._fields_once(decl.fields, "card", ("cost", "type", "stats", "keywords", "loyalty", "text")):
            return
        type_line = decl.get("type")
        if type_line is None:
            self.context.error("DQ0055", _("the card `{id}` has no `type`", id=decl.id), decl.span,
                               _("add a type line under it, e.g. `type \"Creature — Goblin Warrior\"`"))
            return
        types = TypeLine.parse(self._field(decl, "type").text).card_types
        if not any(t in CARD_DECL_TYPES for t in types):
            self.context.error("DQ0057", _("`{type_line}` names no card type", type_line=type_line), self._field(decl, "type").span,
                               _("a type line starts with one of {names}", names=', '.join(CARD_DECL_TYPES)))
            return
        ok = self._cost_ok(decl) & self._keywords_ok(decl.fields)
        ok &= self._stat_field(decl, "stats", "Creature" in types, "stats 2/2", _("a creature"))
        ok &= self._stat_field(decl, "loyalty", "Planeswalker" in types, "loyalty 3", _("a planeswalker"))
        if not ok:
            return
        if decl.name in self.context.cards:
            self.context.error("DQ0030", _("the card \"{name}\" is declared twice", name=decl.name), decl.span,
                               _("every card name is declared once"))
            return
        stats = decl.get("stats")
        power, toughness = self._field(decl, "stats").stats if stats else (None, None)
        loyalty = decl.get("loyalty")
        cost = decl.get("cost")
        keywords = self._field(decl, "keywords").words if decl.get("keywords") else ()
        card = Card.build(
            decl.name, self._field(decl, "cost").text if cost is not None else None, self._field(decl, "type").text,
            power=str(power) if stats else None, toughness=str(toughness) if stats else None,
            loyalty=str(loyalty) if loyalty is not None else None,
            keywords=tuple(k.capitalize() for k in keywords),
            oracle_text="\n".join(f.text for f in decl.texts()),
        )
        if self._texts_understood(card, decl.texts()):
            self.context.add_card(card)

    def _fields_once(self, fields: list[ast.NpcField], kind: str, allowed: tuple[str, ...]) -> bool:
        """DQ0021 for a field given twice (`text` may repeat), DQ0056 for one not allowed."""
        seen: dict[str, ast.NpcField] = {}
        ok = True
        for item in fields:
            if item.key in seen and item.key not in REPEATABLE_FIELDS:
                self.context.error("DQ0021", _("`{key}` is given twice", key=item.key), item.span, _("the first is at line {line}", line=seen[item.key].span.line))
                ok = False
            elif item.key not in allowed:
                self.context.error("DQ0056", _("a {kind} has no `{key}`", kind=kind_word(kind), key=item.key), item.span,
                                   _("a {kind} has {names}", kind=kind_word(kind), names=', '.join(f'`{k}`' for k in allowed)))
                ok = False
            seen.setdefault(item.key, item)
        return ok

    @staticmethod
    def _field(decl: ast.CardDecl | ast.NpcDecl, key: str) -> ast.NpcField:
        return next(f for f in decl.fields if f.key == key)

    def _cost_ok(self, decl: ast.CardDecl) -> bool:
        from deckquest.cards.model import ManaCost, ManaCostError

        if decl.get("cost") is None:
            return True
        try:
            ManaCost.parse(self._field(decl, "cost").text)
        except ManaCostError as problem:
            self.context.error("DQ0057", _("`{value}` is not a mana cost: {problem}", value=decl.get('cost'), problem=problem), self._field(decl, "cost").span,
                               _("write costs as mana symbols, like \"{1}{R}\""))
            return False
        return True

    def _keywords_ok(self, fields: list[ast.NpcField]) -> bool:
        """Only keywords the battle engine plays (docs/effects.md) may be given."""
        from deckquest.cards.oracle import COMBAT_KEYWORDS

        ok = True
        for item in fields:
            for keyword in item.words if item.key == "keywords" else ():
                if keyword.lower() not in COMBAT_KEYWORDS:
                    self.context.error("DQ0057", _("`{keyword}` is not a keyword battles play", keyword=keyword), item.span,
                                       did_you_mean(keyword.lower(), sorted(COMBAT_KEYWORDS))
                                       or _("the keywords are {names}", names=', '.join(sorted(COMBAT_KEYWORDS))))
                    ok = False
        return ok

    def _stat_field(self, decl: ast.CardDecl, key: str, needed: bool, example: str, kind: str) -> bool:
        """A creature card needs `stats`, a planeswalker card `loyalty`; other cards have neither."""
        if needed and decl.get(key) is None:
            self.context.error("DQ0055", _("the card `{id}` is {kind} and has no `{key}`", id=decl.id, kind=kind, key=key), decl.span, _("add `{example}` under it", example=example))
            return False
        if not needed and decl.get(key) is not None:
            self.context.error("DQ0056", _("only {kind} card has `{key}`", kind=kind, key=key), self._field(decl, key).span,
                               _("remove the line, or change the card's `type`"))
            return False
        return True

    def _texts_understood(self, card: Card, texts: list[ast.NpcField]) -> bool:
        """DQ0058 for each `text` line the effect vocabulary does not cover: a GM's card is
        simulated exactly as written, so nothing in it may be silently ignored."""
        from dataclasses import replace

        from deckquest.cards.oracle import recognise

        ok = True
        for item in texts:
            recognition = recognise(replace(card, oracle_text=item.text))
            for sentence in recognition.unrecognised:
                self.context.error("DQ0058", _("the battle engine does not understand \"{sentence}\"", sentence=sentence), item.span,
                                   _("write it in the effect vocabulary (docs/effects.md), e.g. \"{name} deals 2 damage to any target.\" or \"When this creature enters, draw a card.\"", name=card.name))
                ok = False
        return ok

    def npc(self, npc: ast.NpcDecl) -> None:
        """T-8.1 to T-8.3: the values from `from card`, overridden by inline fields."""
        resolved = ResolvedNpc(self.context.prefix + npc.id, npc.kind, npc.name, npc)
        if npc.from_card is not None:
            self._npc_card(npc, resolved)
        seen: dict[str, ast.NpcField] = {}
        for item in npc.fields:
            if item.key in seen and item.key not in REPEATABLE_FIELDS:
                self.context.error("DQ0021", _("`{key}` is given twice", key=item.key), item.span, _("the first is at line {line}", line=seen[item.key].span.line))
            elif item.key not in NPC_FIELDS[npc.kind]:
                allowed = ", ".join(f"`{k}`" for k in NPC_FIELDS[npc.kind])
                self.context.error("DQ0056", _("a {kind} NPC has no `{key}`", kind=kind_word(npc.kind), key=item.key), item.span, _("a {kind} has {allowed}", kind=kind_word(npc.kind), allowed=allowed))
            else:
                seen[item.key] = item
                self._npc_field(item, resolved)
        self._npc_complete(npc, resolved)
        self.context.npcs[resolved.id] = resolved

    def _npc_card(self, npc: ast.NpcDecl, resolved: ResolvedNpc) -> None:
        if npc.kind not in ("creature", "planeswalker"):
            self.context.error("DQ0056", _("a {kind} NPC cannot take its values `from card`", kind=kind_word(npc.kind)), npc.span,
                               _("a player or horde NPC is a deck: give it a `deck` line"))
            return
        assert npc.from_card is not None
        card = self.context.database().get(npc.from_card)
        if card is None:
            suggestion = self.context.database().suggest(npc.from_card)
            self.context.error("DQ0054", _("unknown card \"{from_card}\"", from_card=npc.from_card), npc.from_card_span or npc.span,
                               _("did you mean \"{suggestion}\"? If it is another card, import it with `deckquest cards import`", suggestion=suggestion)
                               if suggestion else _("import card data with `deckquest cards import`"))
            return
        if not card.is_type(npc.kind.capitalize()):
            self.context.error("DQ0057", _("\"{name}\" is not a {kind} card", name=card.name, kind=kind_word(npc.kind)), npc.span,
                               _("a {kind} NPC takes a {kind} card's values (T-8.1, T-8.2)", kind=kind_word(npc.kind)))
            return
        resolved.card = card
        resolved.cost = str(card.mana_cost) if card.mana_cost else None
        resolved.types = tuple(card.subtypes)
        resolved.power, resolved.toughness = _number(card.power), _number(card.toughness)
        resolved.keywords = tuple(card.keywords)
        resolved.loyalty = _number(card.loyalty)

    def _npc_field(self, item: ast.NpcField, resolved: ResolvedNpc) -> None:
        if item.key == "cost":
            from deckquest.cards.model import ManaCost, ManaCostError

            try:
                ManaCost.parse(item.text)
            except ManaCostError as problem:
                self.context.error("DQ0057", _("`{value}` is not a mana cost: {problem}", value=item.value, problem=problem), item.span,
                                   _("write costs as mana symbols, like \"{1}{R}\""))
                return
            resolved.cost = item.text
        elif item.key == "stats":
            resolved.power, resolved.toughness = item.stats
        elif item.key == "deck":
            resolved.deck_path, resolved.deck = self.context.deck(item.text, item.span)
            if resolved.deck is not None:
                self.context.decks[resolved.id] = resolved.deck
        elif item.key == "keywords":
            if self._keywords_ok([item]):
                resolved.keywords = item.words
        elif item.key == "text":
            from deckquest.cards.model import Card

            if self._texts_understood(Card.build(resolved.name, type_line=resolved.kind.capitalize()), [item]):
                resolved.texts += (item.text,)
        else:
            setattr(resolved, item.key, item.value)

    def _npc_complete(self, npc: ast.NpcDecl, resolved: ResolvedNpc) -> None:
        missing = {
            "creature": ("stats", resolved.power is None and resolved.card is None, "stats 2/2"),
            "planeswalker": ("loyalty", resolved.loyalty is None and resolved.card is None, "loyalty 3"),
            "player": ("deck", npc.get("deck") is None, 'deck "decks/boss.txt"'),
            "horde": ("deck", npc.get("deck") is None, 'deck "decks/horde.txt"'),
        }[npc.kind]
        if missing[1] and not self.context.reported_at(npc.span, npc.from_card_span):
            self.context.error("DQ0055", _("the {kind} `{id}` has no `{missing0}`", kind=kind_word(npc.kind), id=npc.id, missing0=missing[0]), npc.span,
                               (_("add `{line}` under it, or take a card's values: `from card \"Name\"`", line=missing[2])
                                if npc.kind in ("creature", "planeswalker") else _("add `{line}` under it", line=missing[2])))
        if npc.kind == "player" and resolved.life is None:
            resolved.life = PLAYER_NPC_LIFE


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.lstrip("-").isdigit() else None
