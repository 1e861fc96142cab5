"""MTGJSON AtomicCards.json as deckquest entries.

The file is `{"meta": {...}, "data": {name: [face, ...]}}`: one member per card
(not per printing), the list holding the card's faces in side order ("a", "b",
...). Every face repeats the card's `name` ("Wear // Tear") and carries its own
`faceName`, `manaCost`, `type`, `text` and `colors`; `manaValue` and
`colorIdentity` are the whole card's. So a multi-faced card is stored as:

- colours: the union of the faces' colours for split and aftermath cards (both
  halves are one card outside the stack), the front face's for every other layout;
- cost, type line, P/T, loyalty: the front face's; keywords and rules text: every face's,
  but the front face's alone for cards played as their front face (transform, modal_dfc,
  flip, meld: Delver of Secrets has no Flying); the other faces' names find the card too;
- Japanese names: from the front face's `foreignData` entry for Japanese.

Entries of one name without sides (rare variants of un-cards) are one card: the
first; the others are skipped.
"""

from __future__ import annotations

from typing import Iterator

from deckquest.cards.importers import (
    FACE_SEPARATOR,
    MALFORMED,
    SAME_NAME,
    Entry,
    Skipped,
    card_from_fields,
    guarded,
)
from deckquest.cards.jsonstream import JsonStream

COMBINED_COLOR_LAYOUTS = ("split", "aftermath")
#: Layouts played as their front face (see `scryfall.ONE_FACE_LAYOUTS`).
ONE_FACE_LAYOUTS = ("transform", "modal_dfc", "flip", "meld", "double_faced_token")


def entries(stream: JsonStream) -> Iterator[Entry | Skipped]:
    """Every member of the file's "data" object as Entries or Skippeds."""
    for key, faces in stream.members_of("data"):
        if not isinstance(faces, list) or not faces or not all(isinstance(face, dict) for face in faces):
            yield Skipped(MALFORMED)
            continue
        card_faces, variants = split_variants(faces)
        yield guarded(lambda: entry(key, card_faces))
        for _variant in variants:
            yield Skipped(SAME_NAME)


def split_variants(faces: list[dict]) -> tuple[list[dict], list[dict]]:
    """The faces of one card in side order, and the entries left over (variants)."""
    if len(faces) == 1 or not all(face.get("side") for face in faces):
        return faces[:1], faces[1:]
    by_side: dict[str, dict] = {}
    extra = []
    for face in faces:
        if face["side"] in by_side:
            extra.append(face)
        else:
            by_side[face["side"]] = face
    return [by_side[side] for side in sorted(by_side)], extra


def entry(key: str, faces: list[dict]) -> Entry:
    front = faces[0]
    name = front.get("name") or key
    layout = front.get("layout")
    multi = len(faces) > 1
    if layout in COMBINED_COLOR_LAYOUTS and multi:
        colors = [color for face in faces for color in face.get("colors") or ()]
    else:
        colors = front.get("colors")
    one_face = multi and layout in ONE_FACE_LAYOUTS
    played = faces[:1] if one_face else faces
    keywords: list[str] = []
    for face in played:
        keywords += [word for word in face.get("keywords") or () if word not in keywords]
    built = card_from_fields(
        name,
        front.get("manaCost"),
        front.get("type"),
        colors=colors,
        color_identity=front.get("colorIdentity"),
        power=front.get("power"),
        toughness=front.get("toughness"),
        loyalty=front.get("loyalty"),
        keywords=keywords,
        oracle_text=FACE_SEPARATOR.join(face.get("text") or "" for face in faces) if len(played) > 1 else front.get("text"),
        is_token=False,
        mana_value=front.get("manaValue", front.get("convertedManaCost")),
        face_costs=tuple(face.get("manaCost") for face in faces) if multi and not one_face else (),
    )
    face_name = front.get("faceName")
    japanese = _japanese(front)
    return Entry(
        card=built,
        identity=(front.get("identifiers") or {}).get("scryfallOracleId") or name,
        front_name=face_name if face_name and face_name != name else None,
        back_names=tuple(face["faceName"] for face in faces[1:] if face.get("faceName")),
        name_ja=japanese.get("name"),
        front_name_ja=japanese.get("faceName") if multi else None,
    )


def _japanese(face: dict) -> dict:
    """The face's foreignData entry for Japanese ({} when it has none)."""
    for foreign in face.get("foreignData") or ():
        if isinstance(foreign, dict) and foreign.get("language") == "Japanese":
            return foreign
    return {}
