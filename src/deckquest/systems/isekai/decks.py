"""Deck construction (I-1, I-2) as coded diagnostics, DQ4001 to DQ4009.

A deck is checked against the card set it uses; each problem is a Diagnostic with the span of
the entry at fault (the resolver passes the script's spans; library callers may pass none).
Codes (docs/errors.md):
  DQ4001 main deck is not 50 cards        DQ4002 skill deck is not 50 cards
  DQ4003 a card kind the main deck cannot hold   DQ4004 ... the skill deck cannot hold
  DQ4005 a status slot holding a non-status card
  DQ4006 [Blessing Skill] levels above 10  DQ4007 a [Unique] card more than once
  DQ4008 an unknown card                  DQ4009 a reversal condition that cannot work
"""

from __future__ import annotations

from typing import Mapping

from deckquest.errors import Diagnostic, Span, did_you_mean
from deckquest.systems.isekai.cards import (
    MAIN_KINDS, SKILL_KINDS, STATUS, CardDef, CardSet, Deck,
)

DECK_SIZE = 50  # I-1
BLESSING_LIMIT = 10  # I-2

# Where each entry of a deck was written: (part, index) -> span, part "main", "skills", "status".
Spans = Mapping[tuple[str, int], Span]

PARTS = (
    ("main", "main deck", MAIN_KINDS, "DQ4003", "units, items and equipment"),
    ("skills", "skill deck", SKILL_KINDS, "DQ4004", "magic, skills, items and equipment"),
    ("status", "status cards", frozenset({STATUS}), "DQ4005", "status cards"),
)


def check_deck(deck: Deck, cards: CardSet, spans: Spans | None = None, deck_span: Span | None = None) -> list[Diagnostic]:
    """Every way ``deck`` breaks I-1 or I-2, in the order an author reads the deck."""
    spans = spans or {}
    whole = deck_span or Span("<deck>")
    found: list[Diagnostic] = []

    def error(code: str, message: str, span: Span, hint: str | None = None) -> None:
        found.append(Diagnostic("error", message, span, code, hint))

    for part, label, kinds, code, allowed in PARTS:
        for index, (card_id, _count) in enumerate(getattr(deck, part)):
            span = spans.get((part, index), whole)
            if card_id not in cards:
                error("DQ4008", f"unknown card '{card_id}' in deck '{deck.id}'", span,
                      did_you_mean(card_id, cards.cards)
                      or "declare it with unit, item, equipment, magic, skill or status")
            elif cards[card_id].kind not in kinds:
                error(code, f"the {label} holds {allowed}, not the {cards[card_id].kind} '{card_id}' (I-1)", span)
    for part, code, label in (("main", "DQ4001", "main deck"), ("skills", "DQ4002", "skill deck")):
        size = sum(count for _card, count in getattr(deck, part))
        if size != DECK_SIZE:
            span = spans.get((part, 0), whole)
            error(code, f"deck '{deck.id}': the {label} has {size} cards, not {DECK_SIZE} (I-1)", span,
                  f"add {DECK_SIZE - size} cards" if size < DECK_SIZE else f"take out {size - DECK_SIZE} cards")
    found.extend(_marks(deck, cards, spans, whole))
    return found


def _marks(deck: Deck, cards: CardSet, spans: Spans, whole: Span) -> list[Diagnostic]:
    """I-2: [Blessing Skill] levels total at most 10; one copy of each [Unique] card."""
    found: list[Diagnostic] = []
    blessing = 0
    copies: dict[str, int] = {}
    last_span: dict[str, Span] = {}
    blessing_span = whole
    for part in ("main", "skills", "status"):
        for index, (card_id, count) in enumerate(getattr(deck, part)):
            card: CardDef | None = cards.cards.get(card_id)
            if card is None:
                continue
            span = spans.get((part, index), whole)
            if card.blessing:
                blessing += card.blessing * count
                if blessing > BLESSING_LIMIT and blessing_span is whole:
                    blessing_span = span
            if card.unique:
                copies[card_id] = copies.get(card_id, 0) + count
                last_span[card_id] = span
    if blessing > BLESSING_LIMIT:
        found.append(Diagnostic(
            "error", f"deck '{deck.id}': [Blessing Skill] levels total {blessing}, more than {BLESSING_LIMIT} (I-2)",
            blessing_span, "DQ4006", "take out cards with [Blessing Skill] or lower their levels"))
    for card_id, count in copies.items():
        if count > 1:
            found.append(Diagnostic(
                "error", f"deck '{deck.id}': [Unique] card '{card_id}' is in it {count} times, at most once (I-2)",
                last_span[card_id], "DQ4007"))
    return found


def check_card(card: CardDef, span: Span | None = None) -> list[Diagnostic]:
    """A card's own problems: a reversal condition that cannot work (DQ4009)."""
    if card.reversal is None:
        return []
    problem = card.reversal.problem()
    if problem is None:
        return []
    return [Diagnostic("error", f"card '{card.id}': {problem} (I-18)", span or Span("<card>"), "DQ4009")]
