"""pack install / list / remove: dependencies, conflicts, and atomic changes."""

from pathlib import Path

import pytest

from deckquest.errors import DeckquestError
from deckquest.packs import install as install_module
from deckquest.packs.build import build_pack
from deckquest.packs.install import install_pack, remove_pack
from deckquest.packs.store import installed_packs, packs_dir


@pytest.fixture
def archive(make_pack, tmp_path):
    """archive(name=..., version=..., depends=[...]) -> a built .dqpack."""
    out = tmp_path / "archives"
    out.mkdir()

    def make(**options) -> Path:
        return build_pack(make_pack(**options), out).path

    return make


def versions():
    return {name: pack.version for name, pack in installed_packs().items()}


def test_install_an_archive_unpacks_exactly_the_listed_files(archive):
    result = install_pack(archive())
    assert (result.pack.name, result.pack.version, result.replaced) == ("tiny", "1.0.0", None)
    root = packs_dir() / "tiny"
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "decks/hero.txt", "pack.yaml", "tiny.quest"]
    assert [p.name for p in packs_dir().iterdir()] == ["tiny"]  # no staging leftovers


def test_install_a_folder_copies_only_listed_files(make_pack):
    folder = make_pack(files={".git/HEAD": "ref"})
    install_pack(folder)
    assert not (packs_dir() / "tiny" / ".git").exists()
    assert versions() == {"tiny": "1.0.0"}


def test_upgrade_replaces_the_installed_version(archive):
    install_pack(archive(version="1.0.0"))
    result = install_pack(archive(version="1.1.0"))
    assert result.replaced == "1.0.0"
    assert versions() == {"tiny": "1.1.0"}


def test_a_missing_dependency_is_a_clear_error(archive):
    with pytest.raises(DeckquestError) as caught:
        install_pack(archive(name="quest", depends=[("monsters", "^1.0")]))
    assert caught.value.message == "pack `quest` needs pack `monsters` ^1.0, which is not installed"
    assert caught.value.span.line > 0 and "install `monsters` first" in caught.value.hint
    assert versions() == {}


def test_a_dependency_in_the_wrong_version_is_a_clear_error(archive):
    install_pack(archive(name="monsters", version="2.1.0"))
    with pytest.raises(DeckquestError, match="needs `monsters` \\^1.0, but version 2.1.0 is installed"):
        install_pack(archive(name="quest", depends=[("monsters", "^1.0")]))
    assert versions() == {"monsters": "2.1.0"}


def test_dependencies_resolve_from_installed_packs(archive):
    install_pack(archive(name="monsters", version="1.4.0"))
    install_pack(archive(name="quest", depends=[("monsters", ">=1.2, <2")]))
    assert versions() == {"monsters": "1.4.0", "quest": "1.0.0"}


def test_an_upgrade_that_breaks_a_dependent_pack_is_refused(archive):
    install_pack(archive(name="monsters", version="1.0.0"))
    install_pack(archive(name="quest", depends=[("monsters", "^1.0")]))
    with pytest.raises(DeckquestError) as caught:
        install_pack(archive(name="monsters", version="2.0.0"))
    assert "would break pack `quest`, which needs `monsters` ^1.0" in caught.value.message
    assert versions() == {"monsters": "1.0.0", "quest": "1.0.0"}


def test_remove_refuses_while_needed_then_removes(archive):
    install_pack(archive(name="monsters"))
    install_pack(archive(name="quest", depends=[("monsters", "*")]))
    with pytest.raises(DeckquestError, match="pack `quest` depends on `monsters`"):
        remove_pack("monsters")
    assert remove_pack("quest").name == "quest"
    remove_pack("monsters")
    assert versions() == {}
    assert list(packs_dir().iterdir()) == []
    with pytest.raises(DeckquestError, match="no installed pack `monsters`"):
        remove_pack("monsters")


def test_a_failure_while_swapping_leaves_the_old_version(archive, monkeypatch):
    """An error or interruption between moving the old version aside and moving the new one in."""
    install_pack(archive(version="1.0.0"))
    before = (packs_dir() / "tiny" / "pack.yaml").read_text()
    real_rename = Path.rename

    def interrupted(self, target):
        if self.name == "pack" and Path(target).name == "tiny":
            raise KeyboardInterrupt
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", interrupted)
    with pytest.raises(KeyboardInterrupt):
        install_pack(archive(version="2.0.0"))
    monkeypatch.setattr(Path, "rename", real_rename)
    assert not (packs_dir() / "tiny").exists()  # the moment of the interruption
    assert versions() == {"tiny": "1.0.0"}  # the next look at the store puts it back
    assert (packs_dir() / "tiny" / "pack.yaml").read_text() == before
    assert [p.name for p in packs_dir().iterdir()] == ["tiny"]


def test_a_failed_validation_leaves_no_staging_folder(make_pack, monkeypatch):
    def broken(*args, **kwargs):
        raise DeckquestError("broken on purpose")

    monkeypatch.setattr(install_module, "validate_unpacked", broken)
    install_pack(make_pack(name="other"))
    folder = make_pack()
    with pytest.raises(DeckquestError):
        install_pack(build_pack(folder, folder.parent).path)
    assert [p.name for p in packs_dir().iterdir()] == ["other"]
