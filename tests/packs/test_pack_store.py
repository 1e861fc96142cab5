"""How scripts and `deckquest run` find files in packs: never outside the pack."""

import os

import pytest

from deckquest.errors import DeckquestError
from deckquest.packs.install import install_pack
from deckquest.packs.store import locate_scenario, packs_dir, resolve_script_reference

from packtexts import SCENARIO

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


LOCK_HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.read()
"""


def test_an_install_waits_for_the_lock_and_says_so_when_it_gives_up(make_pack, home):
    """Item 10: installs and removals take the user folder's lock; a busy folder is DQ7046, not a mix."""
    import subprocess
    import sys

    from deckquest.packs.store import locked_store

    install_pack(make_pack(name="first"))
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(home / "packs.lock")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        with pytest.raises(DeckquestError) as caught:
            with locked_store(wait=0.3):
                pass
        assert caught.value.code == "DQ7046" and "another deckquest" in caught.value.message
    finally:
        holder.stdin.close()
        holder.wait()
    with locked_store(wait=0.3):
        with locked_store():  # reentrant: an install reads the store under its own lock
            assert install_pack(make_pack(name="second")).pack.name == "second"


def test_repair_deletes_only_our_own_work_folders(make_pack, home, tmp_path):
    """Item 8: `.staging-*` of a killed install go; a link named like one, or a user's file, stays."""
    from deckquest.packs.store import installed_packs

    install_pack(make_pack(name="first"))
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    (packs_dir() / ".staging-abcd1234" / "pack").mkdir(parents=True)
    (packs_dir() / ".staging-link").symlink_to(outside, target_is_directory=True)
    (packs_dir() / ".old-first-zzzz9999").mkdir()  # a finished swap's leftover: first is there
    (packs_dir() / "notes.txt").write_text("a user's file")
    assert list(installed_packs()) == ["first"]
    assert sorted(p.name for p in packs_dir().iterdir()) == [".staging-link", "first", "notes.txt"]
    assert (outside / "keep.txt").read_text() == "mine"
