"""Fixtures for the scenario-language tests: the card database and a pack folder with decks."""

from __future__ import annotations

import shutil

import pytest

from deckquest.cards.database import CardDatabase, builtin_index
from dsl_helpers import DECKS


@pytest.fixture(scope="session")
def db():
    """The built-in cards only, so a user's imported database cannot change results."""
    return CardDatabase(builtin_index())


@pytest.fixture
def pack(tmp_path):
    """A scenario folder holding the test decks under decks/."""
    shutil.copytree(DECKS, tmp_path / "decks")
    return tmp_path
