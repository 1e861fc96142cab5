"""Imported double-faced cards (issue 17, item 12): a transform card is played as its front
face (T-1.1: the deck's cards as MTG plays them), and every face's name finds it.

The path a user takes: `deckquest cards import` of a Scryfall file, a deck list naming the
card, and a battle through the engine's step API."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from deckquest.cards.database import default_database
from deckquest.cards.decklist import parse_deck
from deckquest.cards.userdb import import_file
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.turns import legal_actions, start_battle
from deckquest.engine.pc import PC
from deckquest.engine.permanents import Permanent

# Delver of Secrets as Scryfall's bulk data has it (trimmed): one keyword list for the whole
# card, Flying being its back face's.
DELVER = {
    "object": "card", "name": "Delver of Secrets // Insectile Aberration",
    "oracle_id": "edd531b9-f615-4399-8c8c-1c5e18c4acbf", "lang": "en", "layout": "transform", "cmc": 1.0,
    "color_identity": ["U"], "keywords": ["Flying", "Transform"],
    "card_faces": [
        {"object": "card_face", "name": "Delver of Secrets", "mana_cost": "{U}",
         "type_line": "Creature — Human Wizard",
         "oracle_text": "At the beginning of your upkeep, look at the top card of your library. You may reveal "
                        "that card. If an instant or sorcery card is revealed this way, transform Delver of Secrets.",
         "colors": ["U"], "power": "1", "toughness": "1"},
        {"object": "card_face", "name": "Insectile Aberration", "mana_cost": "", "type_line": "Creature — Human Insect",
         "oracle_text": "Flying", "colors": ["U"], "power": "3", "toughness": "2"},
    ],
}
BEARS = {
    "object": "card", "name": "Grizzly Bears", "oracle_id": "bears", "lang": "en", "layout": "normal",
    "mana_cost": "{1}{G}", "cmc": 2.0, "type_line": "Creature — Bear", "colors": ["G"], "color_identity": ["G"],
    "keywords": [], "oracle_text": "", "power": "2", "toughness": "2",
}


@pytest.fixture
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([DELVER, BEARS], ensure_ascii=False), encoding="utf-8")
    import_file(path)
    return default_database()


def test_a_back_face_name_finds_the_card_in_a_deck_list(database, tmp_path: Path):
    deck = parse_deck("4 Insectile Aberration\n4 Delver of Secrets\n", str(tmp_path / "deck.txt"), database)
    assert {entry.card.name for entry in deck.main} == {"Delver of Secrets // Insectile Aberration"}
    assert database.get("Insectile Aberration").name == "Delver of Secrets // Insectile Aberration"


def test_a_transform_card_fights_as_its_front_face_without_the_back_faces_flying(database):
    """A horde of Delvers attacks (T-6.9); a 1/1 without flying is blocked by the PC's Bear:
    before, the imported Delver had its back face's Flying and no block was offered."""
    delver, bears = database.get("Delver of Secrets"), database.get("Grizzly Bears")
    assert delver.keywords == ("Transform",) and "Flying" not in delver.oracle_text
    pc = PC(id="ann", name="Ann", cards=(bears,) + (bears,) * 10,
            battlefield=[Permanent(card=0, owner="ann", summoning_sick=False)], library=list(range(1, 11)))
    battle = start_battle([pc], [delver] * 10, random.Random(1), prepare=False)
    assert battle.step == "declare_blockers"
    assert any(a.kind == act.BLOCK for a in legal_actions(battle))
