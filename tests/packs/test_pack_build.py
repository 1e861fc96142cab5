"""pack validate / build / init: what a pack author sees."""

import hashlib
import os
import zipfile

import pytest

from deckquest.errors import CompileError, DeckquestError
from deckquest.packs.build import build_pack, init_pack
from deckquest.packs.validate import validate_pack

from packtexts import SCENARIO


def messages(error):
    return [d.message for d in error.diagnostics]


def test_a_valid_folder_validates(make_pack):
    report = validate_pack(make_pack())
    assert report.manifest.name == "tiny"
    assert report.files == ("pack.yaml", "tiny.quest", "decks/hero.txt")
    assert (report.scenarios, report.decks) == (1, 1)


def test_missing_and_unlisted_files_are_named_with_the_fix(make_pack):
    folder = make_pack(files={"notes/extra.quest": SCENARIO})
    (folder / "decks" / "hero.txt").rename(folder / "decks" / "renamed.txt")
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    found = {d.message: d for d in caught.value.diagnostics}
    missing = found["`decks/hero.txt` is listed under `decks` but is not in the pack"]
    assert (missing.span.line, missing.span.col) == (10, 5)
    unlisted = found["`notes/extra.quest` is in the pack folder but not listed in pack.yaml"]
    assert unlisted.span.file.endswith("notes/extra.quest")
    assert unlisted.hint == ("add `- notes/extra.quest` under `scenarios:` (or `libraries:` if only other "
                             "scripts `use` it) in pack.yaml, or delete the file")
    assert "add `- decks/renamed.txt` under `decks:`" in found[
        "`decks/renamed.txt` is in the pack folder but not listed in pack.yaml"].hint


def test_hidden_authoring_files_are_ignored(make_pack):
    folder = make_pack(files={".git/config": "x", ".DS_Store": "x"})
    assert validate_pack(folder).files == ("pack.yaml", "tiny.quest", "decks/hero.txt")


def test_a_bad_deck_is_reported_with_its_line(make_pack):
    folder = make_pack(files={"decks/hero.txt": "24 Forest\n16 Grizly Bears\n"})
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.span.file.endswith("hero.txt") and diagnostic.span.line == 2


def test_a_pack_needing_a_newer_deckquest_is_refused(make_pack):
    folder = make_pack()
    text = (folder / "pack.yaml").read_text().replace('">=0.1"', '">=99.0"')
    (folder / "pack.yaml").write_text(text)
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    assert "needs deckquest >=99.0" in caught.value.diagnostics[0].message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks on this system")
def test_symlinks_in_a_folder_are_refused(make_pack, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("24 Forest\n16 Grizzly Bears\n")
    folder = make_pack()
    (folder / "decks" / "hero.txt").unlink()
    (folder / "decks" / "hero.txt").symlink_to(secret)
    (folder / "outside").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    text = "\n".join(messages(caught.value))
    assert "`decks/hero.txt` is a symbolic link" in text
    assert "`outside` is a symbolic link" in text


def test_build_is_reproducible_and_lists_sha256_of_every_file(make_pack, tmp_path):
    folder = make_pack()
    first = build_pack(folder, tmp_path / "one.dqpack")
    os.utime(folder / "tiny.quest", (1_000_000, 1_000_000))  # a touched file changes nothing
    second = build_pack(folder, tmp_path / "two.dqpack")
    assert first.path.read_bytes() == second.path.read_bytes()
    with zipfile.ZipFile(first.path) as archive:
        names = archive.namelist()
        sums = archive.read("SHA256SUMS").decode()
    assert names == ["SHA256SUMS", "decks/hero.txt", "pack.yaml", "tiny.quest"]
    expected = hashlib.sha256((folder / "tiny.quest").read_bytes()).hexdigest()
    assert f"{expected}  tiny.quest\n" in sums
    assert sums.count("\n") == 3
    assert validate_pack(first.path).manifest.name == "tiny"


def test_build_names_the_archive_and_refuses_to_write_inside_the_pack(make_pack, tmp_path, monkeypatch):
    folder = make_pack()
    monkeypatch.chdir(folder)
    result = build_pack(folder)
    assert result.path == folder.parent / "tiny-1.0.0.dqpack"
    with pytest.raises(DeckquestError, match="inside the pack folder"):
        build_pack(folder, folder / "x.dqpack")


def test_a_failed_build_writes_nothing(make_pack, tmp_path):
    folder = make_pack(files={"stray.txt": "x"})
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(CompileError):
        build_pack(folder, out)
    assert list(out.iterdir()) == []


def test_init_makes_a_skeleton_that_validates(tmp_path):
    root = init_pack("my-quest", tmp_path)
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "decks/hero.txt", "my_quest.quest", "pack.yaml"]
    assert validate_pack(root).manifest.name == "my-quest"
    with pytest.raises(DeckquestError, match="already exists"):
        init_pack("my-quest", tmp_path)
    with pytest.raises(DeckquestError, match="not a pack name"):
        init_pack("My Quest", tmp_path)


CUSTOM_CARD = ('[{"object": "card", "lang": "en", "name": "Cave Goblin Shaman", "oracle_id": "pack-1", '
               '"layout": "normal", "mana_cost": "{R}", "type_line": "Creature \\u2014 Goblin Shaman", '
               '"oracle_text": "", "power": "1", "toughness": "1", "colors": ["R"], "keywords": []}]')


def test_a_deck_may_use_the_packs_own_cards(make_pack):
    deck = "24 Forest\n16 Cave Goblin Shaman\n"
    folder = make_pack(files={"decks/hero.txt": deck, "cards/custom.json": CUSTOM_CARD},
                       extra="cards: [cards/custom.json]\n")
    assert validate_pack(folder).cards == 1
    (folder / "pack.yaml").write_text((folder / "pack.yaml").read_text().replace("cards: [cards/custom.json]\n", ""))
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    text = caught.value.render()
    assert "`cards/custom.json` is in the pack folder but not listed" in text
    assert "under `cards:`" in text


def test_a_party_deck_outside_the_pack_is_refused(make_pack, tmp_path):
    party = "party:\n  - id: hero\n    name: Hero\n    deck: ../../outside.txt\n    critical:\n      - card: Forest\n        copies: 3\n"
    folder = make_pack(files={"parties/four.yaml": party}, extra="parties: [parties/four.yaml]\n")
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    assert "four.yaml:4:11: error[DQ7003]: party deck `../../outside.txt`: it is outside the pack" in caught.value.render()


def test_a_party_file_is_checked(make_pack):
    party = "party:\n  - id: hero\n    name: Hero\n    deck: ../decks/hero.txt\n    critical:\n      - card: Forest\n        copies: 3\n"
    folder = make_pack(files={"parties/solo.yaml": party}, extra="parties: [parties/solo.yaml]\n")
    assert validate_pack(folder).manifest.parties == ("parties/solo.yaml",)
    (folder / "parties" / "solo.yaml").write_text(party.replace("Forest", "Forrest"))
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    assert "solo.yaml:" in caught.value.render()


def test_a_pack_stops_being_checked_once_its_report_is_full(make_pack):
    """Issue 12, item 1 for packs: a pack of many bad files cannot take hours or print gigabytes;
    after 100 problems the remaining files are not checked, and the report says so."""
    decks = [f"decks/bad{i:03d}.txt" for i in range(150)]
    folder = make_pack(decks=("decks/hero.txt", *decks),
                       files={name: "1 Nonexistent Card Xyzzy\n" for name in decks})
    with pytest.raises(CompileError) as caught:
        validate_pack(folder)
    rendered = caught.value.render()
    assert rendered.count("bad1") <= 100 and "bad149" not in rendered
    assert "checking stopped there" in rendered
