"""`deckquest pack install` and `pack remove`: changing the installed packs atomically.

An install unpacks (or copies) into a staging folder inside the packs folder,
checks everything there — archive safety, manifest, dependencies, every script
and deck — and only then renames the staging folder into place. Replacing an
installed version moves the old folder aside first and deletes it last. A
failure at any step deletes the staging folder, so the installed packs stay
exactly as they were; an interruption between the two renames is repaired by
:func:`recover_interrupted`, which puts the old version back.

One install or remove at a time: concurrent installs into one user folder are
not coordinated.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span
from deckquest.packs.archive import DEFAULT_LIMITS, Limits, unpack_archive
from deckquest.packs.manifest import MANIFEST_NAME, Manifest, load_manifest
from deckquest.packs.paths import is_inside
from deckquest.packs.store import InstalledPack, installed_packs, packs_dir
from deckquest.packs.validate import check_deckquest_version, validate_folder, validate_unpacked

_STAGING = ".staging-"
_OLD = ".old-"


@dataclass(frozen=True)
class InstallResult:
    pack: InstalledPack
    replaced: str | None  # the version that was installed before, if any


def install_pack(source: Path, limits: Limits = DEFAULT_LIMITS) -> InstallResult:
    """Install a `.dqpack` archive or a pack folder; raise DeckquestError and change nothing on failure."""
    folder = packs_dir()
    folder.mkdir(parents=True, exist_ok=True)
    current = installed_packs()
    staging = Path(tempfile.mkdtemp(prefix=_STAGING, dir=folder))
    try:
        unpacked = staging / "pack"
        unpacked.mkdir()
        if source.is_dir() or source.name == MANIFEST_NAME:
            manifest = _copy_folder(source if source.is_dir() else source.parent, unpacked, limits, current)
        else:
            manifest = _unpack_archive(source, unpacked, limits, current)
        return _commit(unpacked, folder, manifest, current.get(manifest.name))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _copy_folder(source: Path, dest: Path, limits: Limits, current) -> Manifest:
    """Check a folder, then copy exactly the files it lists (never links, never unlisted files).

    Dependencies are checked before the scripts are compiled: a script that
    `use`s a missing pack would otherwise fail with a less helpful message.
    """
    manifest = load_manifest(source)
    check_deckquest_version(manifest)
    _check_dependencies(manifest, current)
    report = validate_folder(source, limits)
    for name in report.files:
        origin = source.joinpath(*name.split("/"))
        if origin.is_symlink() or not is_inside(origin, source):
            raise DeckquestError(_("`{name}` changed into a link while installing", name=name), Span(str(origin)))
        target = dest.joinpath(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(origin, target)
    return load_manifest(dest)


def _unpack_archive(source: Path, dest: Path, limits: Limits, current) -> Manifest:
    """Unpack an archive safely and check it, dependencies first (as for a folder)."""
    unpack_archive(source, dest, limits)
    manifest = load_manifest(dest, display=f"{source}!{MANIFEST_NAME}")
    check_deckquest_version(manifest)
    _check_dependencies(manifest, current)
    validate_unpacked(source, dest, limits)
    return load_manifest(dest)


def _check_dependencies(manifest: Manifest, current: dict[str, InstalledPack]) -> None:
    """Every dependency installed in a wanted version; no installed pack broken by this version."""
    for dependency in manifest.depends:
        have = current.get(dependency.name)
        if have is None:
            raise DeckquestError(
                _("pack `{name}` needs pack `{name2}` {versions}, which is not installed", name=manifest.name, name2=dependency.name, versions=dependency.versions), manifest.span("depends"),
                hint=_("install `{name}` first, then this pack", name=dependency.name),
            )
        if not dependency.versions.allows(have.manifest.version):
            raise DeckquestError(
                _("pack `{name}` needs `{name2}` {versions}, but version {version} is installed", name=manifest.name, name2=dependency.name, versions=dependency.versions, version=have.version), manifest.span("depends"),
                hint=_("install a version of `{name}` that matches {versions}", name=dependency.name, versions=dependency.versions),
            )
    for other in current.values():
        for dependency in other.manifest.depends:
            if dependency.name == manifest.name and not dependency.versions.allows(manifest.version):
                raise DeckquestError(
                    _("installing `{name}` {version} would break pack `{name2}`, which needs `{name}` {versions}", name=manifest.name, version=manifest.version, name2=other.name, versions=dependency.versions),
                    hint=_("remove `{name}` first, or install a matching version", name=other.name),
                )


def _commit(unpacked: Path, folder: Path, manifest: Manifest, previous: InstalledPack | None) -> InstallResult:
    """Swap the checked pack into place: old aside, new in, old deleted."""
    target = folder / manifest.name
    aside = None
    if target.exists():
        aside = Path(tempfile.mkdtemp(prefix=f"{_OLD}{manifest.name}-", dir=folder)) / "pack"
        target.rename(aside)
    unpacked.rename(target)
    if aside is not None:
        shutil.rmtree(aside.parent, ignore_errors=True)
    pack = InstalledPack(target, load_manifest(target))
    return InstallResult(pack, previous.version if previous else None)


def remove_pack(name: str) -> InstalledPack:
    """Uninstall `name`; refuses while another installed pack depends on it."""
    current = installed_packs()
    pack = current.get(name)
    if pack is None:
        from deckquest.errors import did_you_mean

        raise DeckquestError(_("no installed pack `{name}`", name=name),
                             hint=did_you_mean(name, current) or _("`deckquest pack list` shows them"))
    users = [p.name for p in current.values() if name in {d.name for d in p.manifest.depends}]
    if users:
        raise DeckquestError(_("pack `{names}` depends on `{name}`", names=', '.join(users), name=name),
                             hint=_("remove the packs that depend on it first"))
    folder = packs_dir()
    aside = Path(tempfile.mkdtemp(prefix=f"{_OLD}{name}-", dir=folder))
    pack.root.rename(aside / "removed")
    shutil.rmtree(aside, ignore_errors=True)
    return pack


def recover_interrupted(folder: Path) -> None:
    """Put back a pack whose replacement was interrupted mid-swap.

    A `.old-NAME-*` folder whose NAME is missing means an install stopped after
    moving the old version aside: the old version is restored. Otherwise the
    leftover is garbage from a finished or failed operation and is deleted.
    """
    for entry in folder.glob(f"{_OLD}*"):
        name = entry.name[len(_OLD):].rsplit("-", 1)[0]
        kept = entry / "pack"
        target = folder / name
        if kept.is_dir() and not target.exists() and is_inside(kept, folder):
            kept.rename(target)
        shutil.rmtree(entry, ignore_errors=True)
