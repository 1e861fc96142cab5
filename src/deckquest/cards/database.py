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

    def __init__(self, *sources: CardSource):
        # a database layered over another (a script's own cards over the default one) takes
        # its sources, so that every source has `names()` for hints and front-face lookups
        self.sources = tuple(inner for source in sources
                             for inner in (source.sources if isinstance(source, CardDatabase) else (source,)))

    def get(self, name: str) -> Card | None:
        for source in self.sources:
            card = source.get(name)
            if card is not None:
                return card
        return None

    def suggest(self, name: str) -> str | None:
        """The closest known name, for a 'did you mean' hint."""
        wanted = normalize_name(name)
        best: tuple[float, str] | None = None
        for source in self.sources:
            keys = {normalize_name(n): n for n in source.names()}
            for match in difflib.get_close_matches(wanted, keys, n=1, cutoff=0.6):
                score = difflib.SequenceMatcher(None, wanted, match).ratio()
                if best is None or score > best[0]:
                    best = (score, keys[match])
        return best[1] if best else None


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
    from deckquest.cards.userdb import UserDatabase

    sources: list[CardSource] = []
    user = UserDatabase.open_existing(deckquest_home())
    if user is not None:
        sources.append(user)
    sources.append(builtin_index())
    return CardDatabase(*sources)
