"""The user card database: lookups, merging printings, and atomic replacement."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from deckquest.cards import importers, userdb
from deckquest.cards.database import CardIndex, default_database
from deckquest.cards.model import Card
from deckquest.cards.userdb import (
    LEGACY_DATABASE_FILE,
    UserCards,
    UserDatabase,
    card_sheet,
    database_file,
    find_with_origin,
    import_file,
)
from deckquest.errors import DeckquestError

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
SCRYFALL_SAMPLE = SHARED_DATA / "scryfall-sample" / "cards.json"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def write_json(path: Path, value) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


def printing(name: str, oracle_id: str, lang: str = "en", **fields) -> dict:
    return {
        "object": "card", "name": name, "oracle_id": oracle_id, "lang": lang, "layout": "normal",
        "mana_cost": "{G}", "cmc": 1.0, "type_line": "Creature — Elf", "colors": ["G"],
        "color_identity": ["G"], "keywords": [], "oracle_text": "", **fields,
    }


def test_no_import_means_no_user_database(home):
    assert UserCards.open_existing(home) is None


def test_import_then_lookup_by_english_front_face_and_japanese_names(home):
    report = import_file(FIXTURES / "scryfall-edge.json")
    database = UserCards.open_existing(home)
    assert report.database == home / database_file("scryfall") and report.imported == len(database) == 7
    assert database.get("GRIZZLY  bears").name == "Grizzly Bears"
    assert database.get("灰色熊").name == "Grizzly Bears"
    assert database.get("Grizzly Bears").name_ja == "灰色熊"  # the Japanese, not the German, printed name
    assert database.get("Grizzlybären") is None
    boom = database.get("boom")
    assert boom.name == "Boom // Bust" and boom.name_ja == "ブーム // バスト"
    assert database.get("ブーム") == boom == database.get("ブーム // バスト") == database.get("Boom // Bust")
    assert database.get("Bust") == boom  # every face's name finds the card (issue 17)
    assert {"Grizzly Bears", "灰色熊", "Boom", "ブーム"} <= set(database.names())


def test_japanese_name_attaches_whatever_order_printings_come_in(home, tmp_path):
    """The Japanese printing may come before or after the English one, or alone."""
    elves_ja = printing("Llanowar Elves", "o-elves", "ja", printed_name="ラノワールのエルフ")
    bears_ja = printing("Grizzly Bears", "o-bears", "ja", printed_name="灰色熊")
    bears = printing("Grizzly Bears", "o-bears")
    mystic_ja = printing("Elvish Mystic", "o-mystic", "ja", printed_name="エルフの神秘家")
    path = write_json(tmp_path / "cards.json", [elves_ja, printing("Llanowar Elves", "o-elves"), bears, bears_ja, mystic_ja])
    report = import_file(path)
    database = UserCards.open_existing(home)
    assert report.imported == 3
    assert dict(report.skipped) == {importers.DUPLICATE_PRINTING: 1, importers.NON_ENGLISH_PRINTING: 1}
    assert [database.get(name).name_ja for name in ("Llanowar Elves", "Grizzly Bears", "Elvish Mystic")] == [
        "ラノワールのエルフ", "灰色熊", "エルフの神秘家",
    ]
    assert database.get("ｸﾞﾘｽﾞﾘｰ") is None
    assert database.get("エルフの神秘家").name == "Elvish Mystic"


def test_cards_survive_the_round_trip_through_sqlite(home):
    import_file(FIXTURES / "scryfall-edge.json")
    database = UserCards.open_existing(home)
    sentinel = database.get("Kozilek's Sentinel")
    assert sentinel == Card.build(
        "Kozilek's Sentinel", "{2}{R}", "Creature — Eldrazi Drone", colors=(), color_identity=("R",),
        power="1", toughness="4", keywords=("Devoid",), oracle_text=sentinel.oracle_text, mana_value=3,
    )
    assert database.get("Jace, the Mind Sculptor").loyalty == "3"


def test_a_card_beats_a_token_of_the_same_name(home):
    report = import_file(FIXTURES / "scryfall-edge.json")
    construct = UserCards.open_existing(home).get("Construct")
    assert not construct.is_token and construct.power == "6"
    assert report.skipped[importers.TOKEN_NAMED_LIKE_CARD] == 1 and report.skipped[importers.SAME_NAME] == 1


def test_a_second_import_of_the_same_source_replaces_its_cards(home, tmp_path):
    import_file(FIXTURES / "scryfall-edge.json")
    report = import_file(write_json(tmp_path / "one.json", [printing("Elvish Mystic", "o-mystic")]))
    database = UserCards.open_existing(home)
    assert len(database) == 1 and database.get("Grizzly Bears") is None
    (only,) = database.databases
    assert only.meta("source") == str((tmp_path / "one.json").resolve()) and only.meta("format") == "scryfall"
    assert [(p.file_format, p.cards) for p in report.replaced] == [("scryfall", 7)] and report.kept == ()


def database_bytes(home: Path) -> bytes:
    return (home / database_file("scryfall")).read_bytes()


def leftovers(home: Path) -> list[str]:
    return sorted(path.name for path in home.iterdir() if path.name != database_file("scryfall"))


def test_failed_import_leaves_the_previous_database_exactly_as_it_was(home, tmp_path):
    import_file(FIXTURES / "scryfall-edge.json")
    before = database_bytes(home)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps([printing("Elvish Mystic", "o-mystic")] * 50)[:-30])
    with pytest.raises(DeckquestError, match="malformed JSON"):
        import_file(broken)
    assert database_bytes(home) == before and leftovers(home) == []
    with pytest.raises(DeckquestError, match="no cards found"):
        import_file(write_json(tmp_path / "nothing.json", [{"object": "set"}]))
    with pytest.raises(DeckquestError, match="cannot read"):
        import_file(tmp_path / "missing.json")
    assert database_bytes(home) == before and leftovers(home) == []
    assert UserCards.open_existing(home).get("Grizzly Bears") is not None


def test_interrupted_import_leaves_the_previous_database_and_no_temporary_file(home, monkeypatch):
    import_file(FIXTURES / "scryfall-edge.json")
    before = database_bytes(home)
    real_add = userdb._add
    calls = []

    def interrupt_on_third_card(connection, entry):
        calls.append(entry)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_add(connection, entry)

    monkeypatch.setattr(userdb, "_add", interrupt_on_third_card)
    with pytest.raises(KeyboardInterrupt):
        import_file(FIXTURES / "scryfall-edge.json")
    assert len(calls) == 3
    assert database_bytes(home) == before and leftovers(home) == []


def test_interrupted_first_import_leaves_no_database(home, monkeypatch):
    monkeypatch.setattr(userdb, "_attach_japanese_names", lambda connection: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        import_file(FIXTURES / "scryfall-edge.json")
    assert UserCards.open_existing(home) is None and leftovers(home) == []


def test_a_database_deckquest_cannot_read_is_a_user_error(home):
    home.mkdir(parents=True)
    (home / database_file("scryfall")).write_text("not sqlite at all")
    with pytest.raises(DeckquestError, match="not a card database") as caught:
        UserCards.open_existing(home)
    assert "cards import" in caught.value.hint
    (home / database_file("scryfall")).unlink()
    sqlite3.connect(home / database_file("scryfall")).execute("CREATE TABLE other (x)").connection.commit()
    with pytest.raises(DeckquestError, match="not a card database"):
        UserCards.open_existing(home)
    report = import_file(FIXTURES / "scryfall-edge.json")  # what the hint says: importing again mends it
    assert "replaced the unreadable card database" in report.summary()
    assert UserCards.open_existing(home).get("Grizzly Bears") is not None


def test_user_cards_override_built_in_ones(home, monkeypatch, tmp_path):
    """default_database() searches the import first, then the built-in cards."""
    built_in = CardIndex([Card.build("Grizzly Bears", "{1}{G}", "Creature — Bear", power="2", toughness="2"),
                          Card.build("Forest", None, "Basic Land — Forest")])
    monkeypatch.setattr("deckquest.cards.database.builtin_index", lambda: built_in)
    import_file(write_json(tmp_path / "bears.json", [printing("Grizzly Bears", "o-bears", oracle_text="Imported.")]))
    database = default_database()
    assert database.get("grizzly bears").oracle_text == "Imported."
    card, origin = find_with_origin(database, "Grizzly Bears")
    assert origin == f"imported from {(tmp_path / 'bears.json').resolve()}"
    assert find_with_origin(database, "forest")[1] == "built-in"
    assert find_with_origin(database, "Plains") is None
    assert database.suggest("Grizly Bears") == "Grizzly Bears"


def test_card_sheet_shows_every_field():
    card = Card.build(
        "Boom // Bust", "{1}{R}", "Sorcery", colors=("R",), color_identity=("R",), mana_value=8,
        oracle_text="Destroy two lands.\n//\nDestroy all lands.", name_ja="ブーム // バスト",
    )
    sheet = card_sheet(card, "built-in").splitlines()
    assert sheet == [
        "name:            Boom // Bust",
        "Japanese name:   ブーム // バスト",
        "mana cost:       {1}{R}",
        "mana value:      8",
        "colours:         red",
        "colour identity: red",
        "type line:       Sorcery",
        "keywords:        -",
        "source:          built-in",
        "oracle text:",
        "  Destroy two lands.",
        "  //",
        "  Destroy all lands.",
    ]
    bear = card_sheet(Card.build("Bear", None, "Creature — Bear", power="2", toughness="2", is_token=True), "x")
    assert "type line:       Token Creature — Bear" in bear and "power/toughness: 2/2" in bear
    assert "colours:         colourless" in bear


@pytest.mark.skipif(not SCRYFALL_SAMPLE.is_file(), reason="shared/data samples are not beside the repo")
def test_real_scryfall_sample_counts(home):
    report = import_file(SCRYFALL_SAMPLE)
    database = UserCards.open_existing(home)
    assert report.imported == len(database) == 48
    assert sum(report.skipped.values()) + report.imported == 89  # 88 printings, one reversible card with two faces
    assert report.skipped[importers.SAME_NAME] == 5  # Very Cryptic Command's variants
    assert database.get("Delver of Secrets").name == "Delver of Secrets // Insectile Aberration"
    assert database.get("goblin").is_token
    assert database.get("wastes").supertypes == ("Basic",)


def test_unwritable_home_is_a_user_error(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "file" / "home"))
    with pytest.raises(DeckquestError, match="cannot write the card database"):
        import_file(FIXTURES / "scryfall-edge.json")


def test_write_failure_mid_import_is_a_user_error_and_changes_nothing(home, monkeypatch):
    import_file(FIXTURES / "scryfall-edge.json")
    before = database_bytes(home)

    def disk_full(connection, entry):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(userdb, "_add", disk_full)
    with pytest.raises(DeckquestError, match="disk is full"):
        import_file(FIXTURES / "scryfall-edge.json")
    assert database_bytes(home) == before and leftovers(home) == []


# -- debris of killed imports (issue 12, item 8) --------------------------------------


def dead_pid() -> int:
    """The id of a process that has ended."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_an_import_removes_the_temporary_files_of_killed_imports(home):
    home.mkdir(parents=True, exist_ok=True)
    stale = home / f".cards-{dead_pid()}-abc.sqlite.tmp"
    stale.write_bytes(b"x" * 1000)
    import_file(FIXTURES / "scryfall-edge.json", home)
    assert not stale.exists() and leftovers(home) == []


def test_opening_the_database_removes_them_too(home):
    import_file(FIXTURES / "scryfall-edge.json", home)
    stale = home / f".cards-{dead_pid()}-abc.sqlite.tmp"
    stale.write_bytes(b"x")
    UserCards.open_existing(home).close()
    assert not stale.exists()


def test_a_running_imports_temporary_file_is_kept(home):
    """A file whose process lives (here: this one) is never removed, nor one whose lock is held
    (a process id reused, or another machine sharing the folder)."""
    import fcntl
    import os

    home.mkdir(parents=True, exist_ok=True)
    alive = home / f".cards-{os.getpid()}-abc.sqlite.tmp"
    alive.write_bytes(b"x")
    locked = home / f".cards-{dead_pid()}-def.sqlite.tmp"
    locked.write_bytes(b"x")
    with open(locked, "rb") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)
        assert userdb.remove_stale_temporaries(home) == []
    assert alive.exists() and locked.exists()
    assert userdb.remove_stale_temporaries(home) == [locked]


def test_a_legacy_temporary_file_is_removed_once_it_is_old(home):
    """Files named before the process id was in the name: stale when unchanged for 5 minutes."""
    import os
    import time

    home.mkdir(parents=True, exist_ok=True)
    legacy = home / ".cards-k3j4h5.sqlite.tmp"
    legacy.write_bytes(b"x")
    assert userdb.remove_stale_temporaries(home) == []
    old = time.time() - userdb.LEGACY_TEMPORARY_AGE - 1
    os.utime(legacy, (old, old))
    assert userdb.remove_stale_temporaries(home) == [legacy]


# -- imports add to what is there (issue 18, item 13) ------------------------------------


def mtgjson_file(path: Path, *cards: dict) -> Path:
    return write_json(path, {"meta": {}, "data": {card["name"]: [card] for card in cards}})


def atomic(name: str, oracle_id: str, **fields) -> dict:
    return {"name": name, "manaCost": "{R}", "type": "Instant", "colors": ["R"], "colorIdentity": ["R"],
            "manaValue": 1, "text": "", "identifiers": {"scryfallOracleId": oracle_id}, **fields}


def test_an_import_of_another_source_keeps_the_first_and_its_japanese_names(home, tmp_path):
    """Issue 18 item 13: after a Scryfall import, an MTGJSON import used to replace everything,
    so the Scryfall cards were gone and Lightning Bolt lost its Japanese name."""
    bolt = dict(mana_cost="{R}", type_line="Instant", colors=["R"], color_identity=["R"],
                oracle_text="Lightning Bolt deals 3 damage to any target.")
    import_file(write_json(tmp_path / "scryfall.json", [
        printing("Lightning Bolt", "o-bolt", **bolt), printing("Lightning Bolt", "o-bolt", "ja", printed_name="稲妻", **bolt),
        printing("Llanowar Elves", "o-elves")]))
    report = import_file(mtgjson_file(tmp_path / "atomic.json",
                                      atomic("Lightning Bolt", "o-bolt", text="Lightning Bolt deals 3 damage to any target!"),
                                      atomic("Shock", "o-shock")))
    assert report.replaced == () and [(p.file_format, p.cards) for p in report.kept] == [("scryfall", 2)]
    assert "kept 2 cards of the Scryfall import of" in report.summary()
    database = default_database()
    assert database.get("Llanowar Elves") is not None and database.get("Shock") is not None
    bolt_card = database.get("Lightning Bolt")
    assert bolt_card.name_ja == "稲妻" and bolt_card.oracle_text.endswith("!")  # the latest import's values
    assert database.get("稲妻") == bolt_card
    assert find_with_origin(database, "稲妻")[1] == f"imported from {(tmp_path / 'atomic.json').resolve()}"
    assert len(UserCards.open_existing(home)) == 3


def test_the_latest_import_wins_where_two_know_a_card(home, tmp_path):
    import_file(mtgjson_file(tmp_path / "atomic.json", atomic("Shock", "o-shock", text="Old.")))
    import_file(write_json(tmp_path / "new.json", [printing("Shock", "o-shock", oracle_text="New.")]))
    assert default_database().get("Shock").oracle_text == "New."
    import_file(mtgjson_file(tmp_path / "atomic.json", atomic("Shock", "o-shock", text="Newest.")))
    assert default_database().get("Shock").oracle_text == "Newest."


def test_a_legacy_database_is_read_and_replaced_by_its_formats_next_import(home, tmp_path):
    """A `cards.sqlite` written before imports were kept per source still finds its cards, is
    kept by an import of another format and replaced by one of its own."""
    import_file(FIXTURES / "scryfall-edge.json")
    (home / database_file("scryfall")).rename(home / LEGACY_DATABASE_FILE)
    assert default_database().get("灰色熊").name == "Grizzly Bears"
    import_file(mtgjson_file(tmp_path / "atomic.json", atomic("Shock", "o-shock")))
    assert (home / LEGACY_DATABASE_FILE).is_file() and default_database().get("Grizzly Bears") is not None
    report = import_file(write_json(tmp_path / "one.json", [printing("Elvish Mystic", "o-mystic")]))
    assert [(p.file_format, p.cards) for p in report.replaced] == [("scryfall", 7)]
    assert not (home / LEGACY_DATABASE_FILE).exists() and UserCards.open_existing(home).get("Grizzly Bears") is None


def test_a_split_cards_sheet_shows_both_halves_costs(home):
    """Issue 18 item 13: `cards show` of a split card showed the first half's cost beside the
    whole card's mana value (Boom // Bust: {1}{R}, 8)."""
    import_file(FIXTURES / "scryfall-edge.json")
    card, origin = find_with_origin(default_database(), "boom")
    sheet = card_sheet(card, origin).splitlines()
    assert sheet[2:4] == ["mana cost:       {1}{R} // {5}{R}", "mana value:      8"]
    assert str(card.mana_cost) == "{1}{R}"  # a battle still casts the front half
    import_file(FIXTURES / "mtgjson-edge.json")
    fire = default_database().get("Fire // Ice")
    assert card_sheet(fire, "x").splitlines()[2] == "mana cost:       {1}{R} // {1}{U}"
