"""deckquest's version, on the ground floor so that every layer may read it (packs check a
pack's `deckquest:` range against it)."""

__version__ = "0.1.0"
