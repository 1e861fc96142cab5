"""Untrusted packs: every malicious archive is refused with a clear message and installs nothing.

The hostile archives are built here, in tmp_path, at test time.
"""

import hashlib
import stat
import zipfile

import pytest

from deckquest.errors import CompileError, DeckquestError
from deckquest.packs.archive import Limits
from deckquest.packs.build import build_pack
from deckquest.packs.install import install_pack
from deckquest.packs.store import installed_packs, packs_dir
from deckquest.packs.validate import validate_pack

from packtexts import DECK, SCENARIO, manifest_text

GOOD = {"pack.yaml": manifest_text().encode(), "tiny.quest": SCENARIO.encode(), "decks/hero.txt": DECK.encode()}


def make_archive(path, entries, sums=None, symlinks=()):
    """A zip with `entries` [(name, bytes)] and a SHA256SUMS of them (or the given text)."""
    if sums is None:
        sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in entries)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if sums is not False:
            archive.writestr("SHA256SUMS", sums)
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if name in symlinks:
                info.create_system = 3
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, data)
    return path


def tree(folder):
    """Every path under `folder` with its bytes: to show an install changed nothing."""
    if not folder.exists():
        return {}
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in folder.rglob("*")}


@pytest.fixture
def installed(make_pack, tmp_path):
    """One pack already installed, so refusals can be shown to leave it alone."""
    install_pack(build_pack(make_pack(name="base"), tmp_path).path)
    return tree(packs_dir())


def refused(archive, installed, match, limits=Limits()):
    """Install and validate both refuse `archive`, and the installed packs are untouched."""
    with pytest.raises(DeckquestError) as caught:
        install_pack(archive, limits)
    assert match in caught.value.render()
    with pytest.raises(DeckquestError):
        validate_pack(archive, limits)
    assert tree(packs_dir()) == installed
    return caught.value


@pytest.mark.parametrize("name, reason", [
    ("../evil.quest", "`..`"),
    ("decks/../../evil.txt", "`..`"),
    ("/etc/evil.quest", "relative, not absolute"),
    ("C:/Windows/evil.quest", "drive"),
    ("decks\\..\\..\\evil.txt", "`/`"),
])
def test_zip_entries_escaping_the_folder_are_refused(tmp_path, installed, name, reason):
    archive = make_archive(tmp_path / "evil.dqpack", [*GOOD.items(), (name, b"boo")])
    error = refused(archive, installed, reason)
    assert "refusing pack archive" in error.message
    assert not (tmp_path / "evil.quest").exists() and not (tmp_path.parent / "evil.txt").exists()


def test_symlink_entries_are_refused(tmp_path, installed):
    archive = make_archive(tmp_path / "link.dqpack", [*GOOD.items(), ("decks/passwd", b"/etc/passwd")],
                           symlinks={"decks/passwd"})
    refused(archive, installed, "is a link or special file")


def test_a_zip_bomb_is_refused_by_compression_ratio(tmp_path, installed):
    bomb = b"\0" * (20 * 1024 * 1024)  # 20 MiB of zeros: about 20 KiB compressed
    archive = make_archive(tmp_path / "bomb.dqpack", [*GOOD.items(), ("decks/bomb.txt", bomb)])
    assert archive.stat().st_size < 100_000
    refused(archive, installed, "compressed more than 100:1 (a zip bomb?)")


def test_total_size_and_file_count_limits(tmp_path, installed):
    many = [*GOOD.items(), *((f"decks/d{i}.txt", DECK.encode()) for i in range(20))]
    archive = make_archive(tmp_path / "many.dqpack", many)
    refused(archive, installed, "entries; a pack may hold 10", Limits(max_files=10))
    refused(archive, installed, "unpacks to more than 400 bytes", Limits(max_total_bytes=400))
    refused(archive, installed, "a file may have 100", Limits(max_file_bytes=100))


def test_a_checksum_mismatch_is_refused(tmp_path, installed):
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in GOOD.items())
    tampered = dict(GOOD, **{"tiny.quest": SCENARIO.replace("Up.", "Pwned.").encode()})
    archive = make_archive(tmp_path / "tampered.dqpack", list(tampered.items()), sums=sums)
    refused(archive, installed, "checksum mismatch for `tiny.quest`")


def test_missing_or_incomplete_checksums_are_refused(tmp_path, installed):
    refused(make_archive(tmp_path / "nosums.dqpack", list(GOOD.items()), sums=False), installed,
            "no SHA256SUMS")
    partial = "".join(f"{hashlib.sha256(d).hexdigest()}  {n}\n" for n, d in GOOD.items() if n != "tiny.quest")
    refused(make_archive(tmp_path / "partial.dqpack", list(GOOD.items()), sums=partial), installed,
            "`tiny.quest` is not in SHA256SUMS")


def test_duplicate_entries_are_refused(tmp_path, installed):
    with pytest.warns(UserWarning, match="Duplicate name"):
        archive = make_archive(tmp_path / "dup.dqpack", [*GOOD.items(), ("tiny.quest", b"other")])
    refused(archive, installed, "entry `tiny.quest` appears twice")
    archive = make_archive(tmp_path / "case.dqpack", [*GOOD.items(), ("TINY.quest", b"x")])
    refused(archive, installed, "entry `TINY.quest` appears twice")


def test_unlisted_files_in_an_archive_are_refused(tmp_path, installed):
    archive = make_archive(tmp_path / "extra.dqpack", [*GOOD.items(), ("payload.py", b"import os")])
    error = refused(archive, installed, "`payload.py` is in the pack folder but not listed")
    assert isinstance(error, CompileError)
    assert "extra.dqpack!payload.py" in error.render()


def test_a_manifest_with_unknown_keys_or_wrong_types_is_refused(tmp_path, installed):
    bad = manifest_text().replace("title: Tiny", "title: [1, 2]") + "run: rm -rf /\n"
    archive = make_archive(tmp_path / "keys.dqpack", list(dict(GOOD, **{"pack.yaml": bad.encode()}).items()))
    error = refused(archive, installed, "unknown key `run`")
    rendered = error.render()
    assert "keys.dqpack!pack.yaml:3:8: error[DQ7002]: `title` must be a string, not a list" in rendered
    assert "keys.dqpack!pack.yaml:11:1" in rendered and "    run: rm -rf /" in rendered


def test_huge_strings_and_deep_nesting_in_an_archive_are_refused(tmp_path, installed):
    huge = manifest_text().replace("title: Tiny", "title: " + "A" * 100_000)
    archive = make_archive(tmp_path / "huge.dqpack", list(dict(GOOD, **{"pack.yaml": huge.encode()}).items()))
    refused(archive, installed, "`title` is too long (100000 characters; at most 200)")
    deep = manifest_text() + "tags: " + "[" * 5000 + "]" * 5000 + "\n"
    archive = make_archive(tmp_path / "deep.dqpack", list(dict(GOOD, **{"pack.yaml": deep.encode()}).items()))
    refused(archive, installed, "nested too deeply")


def test_not_a_zip_is_refused(tmp_path, installed):
    fake = tmp_path / "fake.dqpack"
    fake.write_bytes(b"#!/bin/sh\necho pwned\n")
    refused(fake, installed, "is not a pack archive")


def test_nothing_in_a_pack_runs_host_code(tmp_path, installed):
    """A YAML tag asking for a Python object is refused before anything is built from it."""
    marker = tmp_path / "ran"
    evil = manifest_text() + f'x: !!python/object/apply:os.system ["touch {marker}"]\n'
    archive = make_archive(tmp_path / "tag.dqpack", list(dict(GOOD, **{"pack.yaml": evil.encode()}).items()))
    refused(archive, installed, "YAML tag")
    assert not marker.exists()


def test_the_safe_base_pack_is_still_installed(installed):
    assert list(installed_packs()) == ["base"]


def test_hidden_files_in_an_archive_count_as_unlisted(tmp_path, installed):
    archive = make_archive(tmp_path / "hidden.dqpack", [*GOOD.items(), (".hidden/payload", b"x")])
    refused(archive, installed, "`.hidden/payload` is in the pack folder but not listed")
