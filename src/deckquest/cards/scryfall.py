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
- transform, modal_dfc, flip, meld, double_faced_token: the card is played as its front
  face: its rules text and keywords are the front face's (Delver of Secrets has no Flying);
  the back face's name finds the card too;
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
#: Layouts whose faces are never on the battlefield together: the card is played as its front
#: face (its back is what it transforms, flips or melds into, or the other face of a modal
#: card), so the card's values, rules text and keywords are the front face's.
ONE_FACE_LAYOUTS = ("transform", "modal_dfc", "flip", "meld", "double_faced_token")


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
    one_face = bool(faces) and layout in ONE_FACE_LAYOUTS
    keywords = card.get("keywords") or []
    if one_face:
        keywords = front_keywords(keywords, front.get("oracle_text"))
    oracle_text: object
    if faces and not one_face:
        oracle_text = FACE_SEPARATOR.join(face.get("oracle_text") or "" for face in faces)
    else:
        oracle_text = front.get("oracle_text")
    built = card_from_fields(
        name,
        front.get("mana_cost"),
        front.get("type_line") or card.get("type_line"),
        colors=_first_present("colors", card, front),
        color_identity=card.get("color_identity"),
        power=front.get("power"),
        toughness=front.get("toughness"),
        loyalty=front.get("loyalty"),
        keywords=keywords,
        oracle_text=oracle_text,
        is_token=layout in TOKEN_LAYOUTS,
        mana_value=_first_present("cmc", card, front),
        face_costs=tuple(face.get("mana_cost") for face in faces) if faces and not one_face else (),
    )
    lang = card.get("lang") or "en"
    front_name = front.get("name") if faces and front.get("name") != name else None
    return Entry(
        card=built,
        identity=card.get("oracle_id") or front.get("oracle_id") or name,
        lang=lang,
        front_name=front_name,
        back_names=tuple(face.get("name") for face in faces[1:] if face.get("name")),
        name_ja=_printed_name(card, faces) if lang == "ja" else None,
        front_name_ja=front.get("printed_name") if lang == "ja" and faces else None,
    )


def front_keywords(keywords: list, front_text: object) -> list:
    """The keywords of a card's front face. Scryfall lists one set of keywords for the
    whole card (Delver of Secrets has Flying, its back face's); a keyword the front face's
    rules text does not name is the back face's."""
    text = (front_text if isinstance(front_text, str) else "").casefold()
    return [word for word in keywords if isinstance(word, str) and word.casefold() in text]


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
