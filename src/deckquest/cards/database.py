"""Finding cards by name: the user's imported database over the built-in one.

Lookup is by English or Japanese name, case-insensitive. User entries (from
`deckquest cards import`) override built-in ones of the same name.
"""

from __future__ import annotations

import difflib
import os
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Protocol

from deckquest.cards.model import Card
from deckquest.i18n import current


MAX_SUGGESTION_CHARS = 200
"""A longer name is no typo of a card's (the longest has 141 characters): no suggestion."""
SUGGESTION_REACH = 3
"""Names compared for a suggestion differ in length by at most this, or a quarter of the name's."""


def normalize_name(name: str) -> str:
    """The lookup key of a name: NFKC, case-folded, inner spaces collapsed."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(text.replace("’", "'").split())


class CardSource(Protocol):
    def get(self, name: str) -> Card | None: ...

    def names(self) -> Iterable[str]: ...


class CardIndex:
    """An in-memory card source keyed by English and Japanese names."""

    def __init__(self, cards: Iterable[Card]):
        self._by_key: dict[str, Card] = {}
        self._names: list[str] = []
        for card in cards:
            self._names.append(card.name)
            self._by_key[normalize_name(card.name)] = card
            if card.name_ja:
                self._by_key[normalize_name(card.name_ja)] = card
                self._names.append(card.name_ja)

    def get(self, name: str) -> Card | None:
        return self._by_key.get(normalize_name(name))

    def names(self) -> Iterable[str]:
        return self._names

    def __len__(self) -> int:
        return len({card.name for card in self._by_key.values()})

    def __iter__(self):
        seen = set()
        for card in self._by_key.values():
            if card.name not in seen:
                seen.add(card.name)
                yield card


class CardDatabase:
    """Sources searched in order: the first that knows a name wins."""

    def __init__(self, *sources: CardSource | CardDatabase):
        # a database layered over another (a script's own cards over the default one) takes
        # its sources, so that every source has `names()` for hints and front-face lookups
        self.sources = tuple(inner for source in sources
                             for inner in (source.sources if isinstance(source, CardDatabase) else (source,)))
        self._lengths: list[dict[int, dict[str, str]]] | None = None

    def get(self, name: str) -> Card | None:
        for source in self.sources:
            card = source.get(name)
            if card is not None:
                return card
        return None

    def suggest(self, name: str) -> str | None:
        """The closest known name, for a 'did you mean' hint.

        Only names of about the same length are compared (a typo changes a length by a
        character or two), from an index of each source's names built at the first call:
        comparing with every name of an imported database took milliseconds per call, and
        a hostile deck list of 40,000 unknown names took 96 s.
        """
        wanted = normalize_name(name)
        if not wanted or len(wanted) > MAX_SUGGESTION_CHARS:
            return None
        reach = max(SUGGESTION_REACH, len(wanted) // 4)
        best: tuple[float, str] | None = None
        for by_length in self._names_by_length():
            keys = {key: shown for length in range(len(wanted) - reach, len(wanted) + reach + 1)
                    for key, shown in by_length.get(length, {}).items()}
            for match in difflib.get_close_matches(wanted, keys, n=1, cutoff=0.6):
                score = difflib.SequenceMatcher(None, wanted, match).ratio()
                if best is None or score > best[0]:
                    best = (score, keys[match])
        return best[1] if best else None

    def _names_by_length(self) -> list[dict[int, dict[str, str]]]:
        """Per source: lookup key -> name as printed, grouped by the key's length."""
        if self._lengths is None:
            self._lengths = []
            for source in self.sources:
                by_length: dict[int, dict[str, str]] = {}
                for shown in source.names():
                    key = normalize_name(shown)
                    by_length.setdefault(len(key), {}).setdefault(key, shown)
                self._lengths.append(by_length)
        return self._lengths


def deckquest_home() -> Path:
    """Where user data lives: $DECKQUEST_HOME, else click's per-user app folder."""
    env = os.environ.get("DECKQUEST_HOME")
    if env:
        return Path(env)
    import click

    return Path(click.get_app_dir("deckquest"))


@lru_cache(maxsize=1)
def builtin_index() -> CardIndex:
    from deckquest.cards.builtin import load_builtin

    return CardIndex(load_builtin())


def default_database() -> CardDatabase:
    """The user's imported cards (if any) over the built-in database."""
    from deckquest.cards.userdb import UserCards

    sources: list[CardSource] = []
    user = UserCards.open_existing(deckquest_home())
    if user is not None:
        sources.append(user)
    sources.append(builtin_index())
    return CardDatabase(*sources)


def card_name(name: str) -> str:
    """A card's name in the current language (deckquest.i18n): its Japanese name (Card.name_ja)
    in Japanese, the English one where the card has none (tokens, a GM's own cards)."""
    return _japanese_name(name) if current() == "ja" else name


@lru_cache(maxsize=None)
def _japanese_name(name: str) -> str:
    card = default_database().get(name)
    return card.name_ja if card is not None and card.name_ja else name
