"""Party files: YAML checked against runtime/party.schema.json, errors at file:line:col."""

from __future__ import annotations

import shutil

import pytest

from deckquest.errors import DeckquestError
from deckquest.runtime.interpreter import Program, run_scenario
from deckquest.packs.store import resolve_script_reference
from deckquest.runtime.party import load_party as load_with
from runtime_helpers import DB, DECKS, SCENARIOS, compile_text, PRELUDE


def load_party(path, db):
    """A party file loaded as `run --party` loads it: decks under the loose-script path rule."""
    return load_with(path, db, locate=resolve_script_reference)


def write(tmp_path, text: str):
    if not (tmp_path / "decks").exists():
        shutil.copytree(DECKS, tmp_path / "decks")
    path = tmp_path / "party.yaml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = '''party:
  - id: alice
    name: Alice Again
    deck: decks/green.txt
    critical:
      - card: Forest
        copies: 2
      - card: Craw Wurm
  - id: bram
    name: Bram Again
    deck: decks/red.txt
    critical:
      - card: Mountain
        copies: 3
'''


def test_a_party_file_replaces_the_pregenerated_pcs(tmp_path):
    """T-4.7: two Forests and a Craw Wurm make Alice's three critical cards."""
    members = load_party(write(tmp_path, GOOD), DB)
    assert [m.name for m in members] == ["Alice Again", "Bram Again"]
    alice = members[0]
    assert sorted(alice.cards[i].name for i in alice.critical_cards) == ["Craw Wurm", "Forest", "Forest"]
    scenario = compile_text(tmp_path, PRELUDE + '''start scene one "A":
    "{alice} and {bram}"
    end victory ""
''')
    result = run_scenario(Program(scenario, members), "first", 1)
    assert [e["text"] for e in result.events if e["event"] == "narration"] == ["Alice Again and Bram Again"]


@pytest.mark.parametrize("folder", ["drowned_shrine", "bandit_toll"])
def test_the_example_parties_load(folder):
    members = load_party(SCENARIOS / folder / "party.yaml", DB)
    assert len(members) == 2 and all(len(m.critical_cards) == 3 for m in members)


@pytest.mark.parametrize(("text", "where", "words"), [
    (GOOD.replace("    name: Bram Again\n", "    nmae: Bram Again\n"), (10, 5), "unknown key `nmae`"),
    (GOOD.replace("    deck: decks/red.txt\n", ""), (9, 5), "missing key `deck`"),
    (GOOD.replace("copies: 3", "copies: three"), (14, 17), "must be of type integer"),
    (GOOD.replace("id: bram", "id: 9bram"), (9, 9), "not a valid id"),
    ("party: []\n", (1, 8), "party"),
])
def test_schema_errors_name_the_line_and_column_of_the_yaml_node(tmp_path, text, where, words):
    path = write(tmp_path, text)
    with pytest.raises(DeckquestError) as caught:
        load_party(path, DB)
    error = caught.value
    assert (error.span.line, error.span.col) == where
    assert words in error.message
    assert f"party.yaml:{where[0]}:{where[1]}: error[DQ9022]:" in error.render()


def test_unknown_key_gets_a_did_you_mean_hint(tmp_path):
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("    name: Bram", "    nmae: Bram")), DB)
    assert "did you mean `name`" in caught.value.hint


def test_wrong_number_of_critical_cards_is_an_error(tmp_path):
    """T-4.7: exactly three critical cards in a 60-card deck."""
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("copies: 3", "copies: 2")), DB)
    assert "T-4.7" in caught.value.message and caught.value.span.line == 9


def test_a_critical_card_missing_from_the_deck_is_an_error_at_its_entry(tmp_path):
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("card: Craw Wurm", "card: Shivan Dragon")), DB)
    assert "Shivan Dragon" in caught.value.message and caught.value.span.line == 8


def test_a_party_without_a_pc_the_script_names_is_an_error(tmp_path):
    members = load_party(write(tmp_path, GOOD.replace("id: bram", "id: dana")), DB)
    scenario = compile_text(tmp_path, PRELUDE + '''start scene one "A":
    bram loses 1 life
    end victory ""
''')
    with pytest.raises(DeckquestError) as caught:
        Program(scenario, members)
    assert "`bram`" in caught.value.message and caught.value.span.line == 10
    assert "id: bram" in caught.value.hint


def test_a_missing_pc_is_reported_where_the_script_first_names_it(tmp_path):
    members = load_party(write(tmp_path, GOOD.replace("id: bram", "id: dana")), DB)
    scenario = compile_text(tmp_path, PRELUDE + '''start scene one "A":
    "{bram} arrives."
    -> two
scene two "B":
    check red difficulty 1 by bram:
        success:
            bram loses 1 life
    end victory ""
''')
    with pytest.raises(DeckquestError) as caught:
        Program(scenario, members)
    assert (caught.value.span.line, caught.value.span.col) == (10, 6)


def test_a_missing_deck_file_is_an_error(tmp_path):
    """The error points at the party file's `deck:` value (file:line:col), not at a deck
    file that does not exist and so has no line to show."""
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("decks/red.txt", "decks/blue.txt")), DB)
    assert caught.value.span.file.endswith("party.yaml")
    assert (caught.value.span.line, caught.value.span.col) == (11, 11)
    assert "decks/blue.txt" in caught.value.message and "relative to the party file" in caught.value.hint


def test_by_pc_is_not_a_pc_name_a_party_must_have(tmp_path):
    """`check … by pc` means the PC in scope, so a party needs no PC called `pc`."""
    members = load_party(write(tmp_path, GOOD), DB)
    scenario = compile_text(tmp_path, PRELUDE + '''when a pc is dying:
    check white difficulty 1 by pc:
        success:
            "up"
        failure:
            "down"
start scene one "A":
    end victory ""
''')
    assert Program(scenario, members).party == members


# ---------------------------------------------------------------- hostile party files (issue 12, item 11)


SECRET = "root:x:0:0:root:/root:/bin/bash\n"


@pytest.mark.parametrize("deck", ["/etc/passwd", "../outside.txt", "decks/../../outside.txt"])
def test_a_deck_outside_the_party_files_folder_is_refused(tmp_path, deck):
    """A loose party file's decks follow a loose script's path rule (packs.store)."""
    folder = tmp_path / "party"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text(SECRET)
    with pytest.raises(DeckquestError) as caught:
        load_party(write(folder, GOOD.replace("decks/red.txt", deck)), DB)
    assert caught.value.code == "DQ9024" and (caught.value.span.line, caught.value.span.col) == (11, 11)
    assert "root:" not in caught.value.render()


def test_a_file_without_a_party_line_is_refused_unquoted(tmp_path):
    path = tmp_path / "passwd"
    path.write_text(SECRET + "x: [unclosed\n")
    with pytest.raises(DeckquestError) as caught:
        load_party(path, DB)
    assert caught.value.code == "DQ9021" and "root:" not in caught.value.render()


def test_a_long_line_is_quoted_short(tmp_path):
    path = write(tmp_path, "party: [" + "x, " * 10_000 + "\n")
    with pytest.raises(DeckquestError) as caught:
        load_party(path, DB)
    assert caught.value.code == "DQ9022" and len(caught.value.render()) < 600


def test_the_duplicate_id_and_missing_deck_codes(tmp_path):
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("id: bram", "id: alice")), DB)
    assert caught.value.code == "DQ9023"
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("decks/red.txt", "decks/blue.txt")), DB)
    assert caught.value.code == "DQ9025"
    with pytest.raises(DeckquestError) as caught:
        load_party(write(tmp_path, GOOD.replace("copies: 3", "copies: 2")), DB)
    assert caught.value.code == "DQ9026"
