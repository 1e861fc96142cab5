"""`deckquest pack install` and `pack remove`: changing the installed packs atomically.

An install unpacks (or copies) into a staging folder inside the packs folder,
checks everything there — archive safety, manifest, dependencies, every script
and deck — and only then renames the staging folder into place. Replacing an
installed version moves the old folder aside first and deletes it last. A
failure at any step deletes the staging folder, so the installed packs stay
exactly as they were; an interruption between the two renames is repaired by
:func:`deckquest.packs.store.recover_interrupted`, which puts the old version
back, and a killed install's staging folder is deleted by the next lock holder.

Installs and removals hold the packs folder's lock from start to end
(:func:`deckquest.packs.store.locked_store`), so concurrent ones run one after
the other, each checking dependencies against what the previous one left.

A replacement must be what the user expects: a newer version replaces an older
one; the same version with other contents (a stranger's pack under a known
name) needs `force`, and an older version needs `allow_downgrade`.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span
from deckquest.files import writing
from deckquest.packs.archive import DEFAULT_LIMITS, Limits, open_pack_file, unpack_archive
from deckquest.packs.manifest import MANIFEST_NAME, Manifest, load_manifest
from deckquest.packs.store import (OLD, STAGING, UNWRITABLE, InstalledPack, installed_packs, locked_store,
                                   recover_interrupted, store_hint)
from deckquest.packs.validate import check_deckquest_version, validate_folder, validate_unpacked

_CHUNK = 64 * 1024


@dataclass(frozen=True)
class InstallResult:
    pack: InstalledPack
    replaced: str | None  # the version that was installed before, if any
    unchanged: bool = False  # the same version with the same contents was already installed
    forced: bool = False  # the same version with other contents was replaced (`force`)


def install_pack(source: Path, limits: Limits = DEFAULT_LIMITS, *, force: bool = False,
                 allow_downgrade: bool = False) -> InstallResult:
    """Install a `.dqpack` archive or a pack folder; raise DeckquestError and change nothing on failure."""
    with locked_store() as folder:
        current = installed_packs()
        with writing(folder, UNWRITABLE, store_hint()):
            staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=folder))
        try:
            with writing(folder, UNWRITABLE, store_hint()):  # what the source does wrong is a DeckquestError already
                unpacked = staging / "pack"
                unpacked.mkdir()
                if source.is_dir() or source.name == MANIFEST_NAME:
                    origin = source if source.is_dir() else source.parent
                    manifest = _copy_folder(origin, unpacked, limits, current, allow_downgrade)
                else:
                    manifest = _unpack_archive(source, unpacked, limits, current, allow_downgrade)
                return _commit(unpacked, folder, manifest, current.get(manifest.name), force)
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def _copy_folder(source: Path, dest: Path, limits: Limits, current, allow_downgrade: bool) -> Manifest:
    """Check a folder, then copy exactly the files it lists (never links, never unlisted files).

    Dependencies are checked before the scripts are compiled: a script that
    `use`s a missing pack would otherwise fail with a less helpful message.
    """
    manifest = load_manifest(source)
    _check_before_unpacking(manifest, current, allow_downgrade)
    report = validate_folder(source, limits)
    total = 0
    for name in report.files:
        total += _copy_file(source.joinpath(*name.split("/")), dest.joinpath(*name.split("/")), limits)
        if total > limits.max_total_bytes:
            raise DeckquestError(_("the pack grew past {max_total_bytes} bytes while installing", max_total_bytes=limits.max_total_bytes),
                                 Span(str(source)), code="DQ7011")
    return load_manifest(dest, display=str(source / MANIFEST_NAME))  # messages name the source


def _copy_file(origin: Path, target: Path, limits: Limits) -> int:
    """Copy one plain file, at most the file size limit; return its size.

    The folder was checked a moment ago, but a file can be swapped since: it is
    opened without following links and without blocking, refused unless it is
    still a plain file, and counted as it is copied (never trusting `st_size`).
    """
    reader = open_pack_file(origin)
    target.parent.mkdir(parents=True, exist_ok=True)
    copied = 0
    with reader, open(target, "xb") as writer:
        for chunk in iter(lambda: reader.read(_CHUNK), b""):
            copied += len(chunk)
            if copied > limits.max_file_bytes:
                raise DeckquestError(_("`{origin}` grew past {max_file_bytes} bytes while installing", origin=origin, max_file_bytes=limits.max_file_bytes),
                                     Span(str(origin)), code="DQ7011")
            writer.write(chunk)
    return copied


def _unpack_archive(source: Path, dest: Path, limits: Limits, current, allow_downgrade: bool) -> Manifest:
    """Unpack an archive safely and check it, dependencies first (as for a folder)."""
    unpack_archive(source, dest, limits)
    manifest = load_manifest(dest, display=f"{source}!{MANIFEST_NAME}")
    _check_before_unpacking(manifest, current, allow_downgrade)
    validate_unpacked(source, dest, limits)
    return manifest


def _check_before_unpacking(manifest: Manifest, current: dict[str, InstalledPack],
                            allow_downgrade: bool) -> None:
    """The cheap checks, before any script is compiled: versions, downgrade, dependencies."""
    check_deckquest_version(manifest)
    installed = current.get(manifest.name)
    if installed is not None and manifest.version < installed.manifest.version and not allow_downgrade:
        raise DeckquestError(
            _("pack `{name}` {version} is installed; {version2} is older", name=manifest.name, version=installed.version, version2=manifest.version),
            manifest.span("version"), code="DQ7043",
            hint=_("pass `--allow-downgrade` to install the older version anyway"))
    _check_dependencies(manifest, current)


def _check_dependencies(manifest: Manifest, current: dict[str, InstalledPack]) -> None:
    """Every dependency installed in a wanted version; no installed pack broken by this version."""
    for dependency in manifest.depends:
        have = current.get(dependency.name)
        if have is None:
            raise DeckquestError(
                _("pack `{name}` needs pack `{name2}` {versions}, which is not installed", name=manifest.name, name2=dependency.name, versions=dependency.versions), manifest.span("depends"), code="DQ7040",
                hint=_("install `{name}` first, then this pack", name=dependency.name),
            )
        if not dependency.versions.allows(have.manifest.version):
            raise DeckquestError(
                _("pack `{name}` needs `{name2}` {versions}, but version {version} is installed", name=manifest.name, name2=dependency.name, versions=dependency.versions, version=have.version), manifest.span("depends"), code="DQ7040",
                hint=_("install a version of `{name}` that matches {versions}", name=dependency.name, versions=dependency.versions),
            )
    for other in current.values():
        for dependency in other.manifest.depends:
            if dependency.name == manifest.name and not dependency.versions.allows(manifest.version):
                raise DeckquestError(
                    _("installing `{name}` {version} would break pack `{name2}`, which needs `{name}` {versions}", name=manifest.name, version=manifest.version, name2=other.name, versions=dependency.versions), code="DQ7041",
                    hint=_("remove `{name}` first, or install a matching version", name=other.name),
                )


def _commit(unpacked: Path, folder: Path, manifest: Manifest, previous: InstalledPack | None,
            force: bool) -> InstallResult:
    """Swap the checked pack into place: old aside, new in, old deleted."""
    target = folder / manifest.name
    forced = False
    if previous is not None and previous.manifest.version == manifest.version:
        if _contents(unpacked) == _contents(previous.root):
            return InstallResult(previous, previous.version, unchanged=True)
        if not force:
            raise DeckquestError(
                _("pack `{name}` {version} is already installed with other contents", name=manifest.name, version=manifest.version),
                manifest.span("version"), code="DQ7042",
                hint=_("a different pack under the same name and version: check where it comes from; pass `--force` to replace the installed one with it"))
        forced = True
    aside = None
    try:
        if target.exists():
            aside = Path(tempfile.mkdtemp(prefix=f"{OLD}{manifest.name}-", dir=folder)) / "pack"
            target.rename(aside)
        unpacked.rename(target)
    except OSError:
        recover_interrupted(folder)  # the old version back in place, the aside folder gone
        raise
    if aside is not None:
        shutil.rmtree(aside.parent, ignore_errors=True)
    pack = InstalledPack(target, load_manifest(target))
    return InstallResult(pack, previous.version if previous else None, forced=forced)


def _contents(root: Path) -> dict[str, str]:
    """Each file a pack lists, with its sha256: what "the same pack" means."""
    manifest = load_manifest(root)
    found = {}
    for name in manifest.listed_files():
        digest = hashlib.sha256()
        with open_pack_file(root.joinpath(*name.split("/"))) as handle:
            for chunk in iter(lambda: handle.read(_CHUNK), b""):
                digest.update(chunk)
        found[name] = digest.hexdigest()
    return found


def remove_pack(name: str) -> InstalledPack:
    """Uninstall `name`; refuses while another installed pack depends on it."""
    with locked_store() as folder:
        current = installed_packs()
        pack = current.get(name)
        if pack is None:
            from deckquest.errors import did_you_mean

            raise DeckquestError(_("no installed pack `{name}`", name=name), code="DQ7044",
                                 hint=did_you_mean(name, current) or _("`deckquest pack list` shows them"))
        users = [p.name for p in current.values() if name in {d.name for d in p.manifest.depends}]
        if users:
            raise DeckquestError(_("pack `{names}` depends on `{name}`", names=', '.join(users), name=name), code="DQ7045",
                                 hint=_("remove the packs that depend on it first"))
        with writing(folder, UNWRITABLE, store_hint()):
            aside = Path(tempfile.mkdtemp(prefix=f"{OLD}{name}-", dir=folder))
            try:
                pack.root.rename(aside / "removed")
            finally:
                shutil.rmtree(aside, ignore_errors=True)  # the removed pack, or the unused folder
        return pack
