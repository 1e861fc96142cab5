"""Scryfall bulk data (oracle-cards, default-cards, all-cards) as deckquest entries.

A bulk file is one JSON array of card objects, one per printing. Every printing
carries the card's oracle values in English (`name`, `mana_cost`, `type_line`,
`oracle_text`, ...), whatever its language, so any printing makes the same Card;
a Japanese printing (`lang == "ja"`) also carries the Japanese name in
`printed_name`. Multi-faced cards keep per-face values in `card_faces`:

- split, flip, adventure: colours, colour identity and mana value at the top
  (a split card's mana value is its halves' total); cost and type of the front face;
- transform, modal_dfc, double_faced_token: no top-level colours or cost: the
  front face's are used;
- reversible_card: no top-level card values at all; each face is a whole card and
  is read as a printing of its own.
"""

from __future__ import annotations

from typing import Iterator

from deckquest.cards.importers import (
    ART_SERIES,
    FACE_SEPARATOR,
    NOT_A_CARD,
    REBALANCED,
    Entry,
    SkipCard,
    Skipped,
    card_from_fields,
    guarded,
)
from deckquest.cards.jsonstream import JsonStream

TOKEN_LAYOUTS = ("token", "double_faced_token")


def entries(stream: JsonStream) -> Iterator[Entry | Skipped]:
    """Every element of a Scryfall bulk array as an Entry or a Skipped."""
    for element in stream.array_items():
        yield from card_entries(element)


def card_entries(card: object) -> Iterator[Entry | Skipped]:
    """The entries of one card object: one, or one per face of a reversible card."""
    if not isinstance(card, dict) or card.get("object") != "card":
        yield Skipped(NOT_A_CARD)
        return
    faces = card.get("card_faces")
    if card.get("layout") == "reversible_card" and isinstance(faces, list) and faces:
        for face in faces:
            if not isinstance(face, dict):
                yield Skipped(NOT_A_CARD)
                continue
            whole = {key: value for key, value in card.items() if key != "card_faces"}
            yield guarded(lambda: entry({**whole, **face, "object": "card", "layout": face.get("layout", "normal")}))
        return
    yield guarded(lambda: entry(card))


def entry(card: dict) -> Entry:
    """One printing as an Entry (raises SkipCard for printings that are not cards to play)."""
    layout = card.get("layout")
    if layout == "art_series":
        raise SkipCard(ART_SERIES)
    if "rebalanced" in (card.get("promo_types") or ()):
        raise SkipCard(REBALANCED)
    faces = card.get("card_faces") or []
    front = faces[0] if faces else card
    name = card.get("name")
    built = card_from_fields(
        name,
        front.get("mana_cost"),
        front.get("type_line") or card.get("type_line"),
        colors=_first_present("colors", card, front),
        color_identity=card.get("color_identity"),
        power=front.get("power"),
        toughness=front.get("toughness"),
        loyalty=front.get("loyalty"),
        keywords=card.get("keywords") or [],
        oracle_text=FACE_SEPARATOR.join(face.get("oracle_text") or "" for face in faces) if faces else card.get("oracle_text"),
        is_token=layout in TOKEN_LAYOUTS,
        mana_value=_first_present("cmc", card, front),
    )
    lang = card.get("lang") or "en"
    front_name = front.get("name") if faces and front.get("name") != name else None
    return Entry(
        card=built,
        identity=card.get("oracle_id") or front.get("oracle_id") or name,
        lang=lang,
        front_name=front_name,
        name_ja=_printed_name(card, faces) if lang == "ja" else None,
        front_name_ja=front.get("printed_name") if lang == "ja" and faces else None,
    )


def _first_present(key: str, card: dict, front: dict) -> object:
    """The card's value for `key`, or its front face's where the card has none."""
    value = card.get(key)
    return front.get(key) if value is None else value


def _printed_name(card: dict, faces: list) -> str | None:
    """The printed (local-language) name: the card's, or its faces' joined with ` // `."""
    if card.get("printed_name"):
        return card["printed_name"]
    names = [face.get("printed_name") for face in faces]
    return " // ".join(names) if names and all(names) else None
