"""How scripts and `deckquest run` find files in packs: never outside the pack."""

import os

import pytest

from deckquest.errors import DeckquestError
from deckquest.packs.install import install_pack
from deckquest.packs.store import locate_scenario, packs_dir, resolve_script_reference

from conftest import SCENARIO

LIBRARY = 'creature guard "Goblin Guard":\n    cost "{1}{R}"\n    types Goblin Warrior\n    stats 2/1\n'


@pytest.fixture
def monsters(make_pack):
    """An installed pack `monsters` with a library script."""
    folder = make_pack(name="monsters", extra="libraries: [lib/npcs.quest]\n",
                       files={"lib/npcs.quest": LIBRARY})
    return install_pack(folder).pack


def test_a_relative_reference_stays_in_the_script_folder(make_pack):
    folder = make_pack(files={"acts/one.quest": SCENARIO, "acts/two.quest": SCENARIO})
    script = folder / "acts" / "one.quest"
    assert resolve_script_reference("two.quest", script) == folder / "acts" / "two.quest"
    assert resolve_script_reference("two.quest", script.parent) == folder / "acts" / "two.quest"
    assert resolve_script_reference("../tiny.quest", script) == folder / "tiny.quest"


@pytest.mark.parametrize("ref, message", [
    ("../../x.quest", "points outside its pack"),
    ("/etc/passwd", "relative"),
    ("C:/x.quest", "drive"),
    ("a\\b.quest", "`/`"),
    ("x" * 300, "at most 255"),
])
def test_references_escaping_the_pack_are_refused(make_pack, ref, message):
    folder = make_pack(files={"acts/one.quest": SCENARIO})
    with pytest.raises(DeckquestError, match=message):
        resolve_script_reference(ref, folder / "acts" / "one.quest")


def test_a_loose_script_may_not_leave_its_folder(tmp_path):
    (tmp_path / "gm").mkdir()
    script = tmp_path / "gm" / "adventure.quest"
    script.write_text(SCENARIO)
    assert resolve_script_reference("decks/a.txt", script) == tmp_path / "gm" / "decks" / "a.txt"
    with pytest.raises(DeckquestError, match="outside"):
        resolve_script_reference("../secret.quest", script)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks on this system")
def test_a_symlink_cannot_smuggle_a_reference_out(make_pack, tmp_path):
    folder = make_pack()
    (folder / "escape").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(DeckquestError, match="symbolic link"):
        resolve_script_reference("escape/secret.quest", folder / "tiny.quest")


def test_a_pack_name_resolves_inside_the_installed_pack(monsters, make_pack):
    user = make_pack(name="quest", depends=[("monsters", "^1.0")])
    found = resolve_script_reference("monsters/lib/npcs.quest", user / "tiny.quest")
    assert found == packs_dir() / "monsters" / "lib" / "npcs.quest"
    with pytest.raises(DeckquestError, match="outside its pack"):
        resolve_script_reference("monsters/../quest/tiny.quest", user / "tiny.quest")


def test_a_pack_must_declare_the_packs_it_uses(monsters, make_pack):
    user = make_pack(name="quest")
    with pytest.raises(DeckquestError) as caught:
        resolve_script_reference("monsters/lib/npcs.quest", user / "tiny.quest")
    assert "without listing it under `depends`" in caught.value.message
    assert "name: monsters" in caught.value.hint


def test_a_pack_may_name_itself(make_pack):
    folder = make_pack(name="quest", files={"lib/x.quest": SCENARIO})
    assert resolve_script_reference("quest/lib/x.quest", folder / "tiny.quest") == folder / "lib" / "x.quest"


def test_an_unknown_pack_gets_a_hint(monsters, tmp_path):
    script = tmp_path / "a.quest"
    script.write_text(SCENARIO)
    with pytest.raises(DeckquestError) as caught:
        resolve_script_reference("monster/lib/npcs.quest", script)
    assert "no installed pack `monster`" in caught.value.message
    assert caught.value.hint == "did you mean `monsters`?"


def test_locate_scenario_by_path_or_stem(monsters):
    root = packs_dir() / "monsters"
    assert locate_scenario("monsters/tiny") == root / "tiny.quest"
    assert locate_scenario("monsters/tiny.quest") == root / "tiny.quest"
    with pytest.raises(DeckquestError, match="not a scenario"):
        locate_scenario("monsters/lib/npcs")  # a library is not a scenario


@pytest.mark.parametrize("ref, message, hint", [
    ("monsters", "does not name a pack scenario", "PACK/SCENARIO"),
    ("monsterz/tiny", "no installed pack `monsterz`", "did you mean `monsters`?"),
    ("monsters/dragon", "`dragon` is not a scenario in pack `monsters` 1.0.0", "its scenarios: tiny"),
])
def test_locate_scenario_errors(monsters, ref, message, hint):
    with pytest.raises(DeckquestError) as caught:
        locate_scenario(ref)
    assert message in caught.value.message and hint in caught.value.hint


def test_locate_in_an_empty_store():
    with pytest.raises(DeckquestError, match="no installed pack `x`"):
        locate_scenario("x/y")
