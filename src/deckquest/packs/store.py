"""The installed packs, and how scripts and the CLI find files in packs.

Installed packs live in ``deckquest_home()/packs/<name>/``, one version per
name. Folders starting with a dot are the installer's work in progress and
are never read as packs (see :mod:`deckquest.packs.install`).

Installs, removals and the repair of interrupted ones hold an exclusive lock
(``flock`` on ``deckquest_home()/packs.lock``), so they happen one at a time
and never under each other's feet. A reader (``pack list``, ``run``) only
repairs when it can take that lock at once; while an install holds it, the
reader reads the packs as they are and leaves the install's work alone. A
user folder that cannot be written (read-only, full, a ``packs.lock`` that is
no file) refuses installs and removals (``UNWRITABLE``, DQ7052); readers need
no write.

Two functions here are the contract with the language and the run command:
:func:`resolve_script_reference` (``use "pack-name/path.quest"`` and file
references from scripts) and :func:`locate_scenario` (``deckquest run
pack-name/scenario``). Both only ever return paths inside one pack (or, for a
loose script, inside its own folder), whatever the reference says.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterator

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span, did_you_mean
from deckquest.files import writing
from deckquest.packs.manifest import MANIFEST_NAME, Manifest, load_manifest
from deckquest.packs.paths import is_inside, path_problem

PACK_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
LOCK_NAME = "packs.lock"
STAGING = ".staging-"  # an install's work folder: deleted when it ends, or by the next lock holder
OLD = ".old-"  # `.old-NAME-xxxxxxxx/pack`: a version moved aside while its replacement moves in
LOCK_WAIT_SECONDS = 120.0
UNWRITABLE = "DQ7052"  # the packs folder (or its lock) cannot be written: read-only, full, not a folder

_held = 0  # how deeply this process holds the lock (installs call readers that would take it)


@dataclass(frozen=True)
class InstalledPack:
    """A pack in the user's data folder."""

    root: Path
    manifest: Manifest

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def version(self) -> str:
        return str(self.manifest.version)


def packs_dir() -> Path:
    """The folder holding installed packs (it may not exist yet)."""
    from deckquest.cards.database import deckquest_home

    return deckquest_home() / "packs"


def store_hint() -> str:
    """What to do when the packs folder cannot be written."""
    return _("installed packs live in {folder}: make it a folder you may write to, on a disk with room, or set "
             "DECKQUEST_HOME to one", folder=packs_dir())


@contextmanager
def locked_store(wait: float = LOCK_WAIT_SECONDS) -> Iterator[Path]:
    """Hold the packs folder's lock, waiting up to `wait` seconds for another install to end.

    Taking the lock first repairs what a killed install or removal left (see
    :func:`recover_interrupted`): no other process can be working in the
    folder then. Yields the packs folder. Reentrant within one process.
    """
    global _held
    folder = packs_dir()
    if _held:
        _held += 1
        try:
            yield folder
        finally:
            _held -= 1
        return
    with writing(folder, UNWRITABLE, store_hint()):
        folder.mkdir(parents=True, exist_ok=True)
    with writing(folder.parent / LOCK_NAME, UNWRITABLE, store_hint()):
        descriptor = os.open(folder.parent / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(descriptor):
            if time.monotonic() > deadline:
                raise DeckquestError(
                    _("another deckquest is installing or removing packs in {folder}", folder=folder), code="DQ7046",
                    hint=_("wait for it to finish, then try again"))
            time.sleep(0.05)
        _held = 1
        try:
            with writing(folder, UNWRITABLE, store_hint()):
                recover_interrupted(folder)
            yield folder
        finally:
            _held = 0
    finally:
        os.close(descriptor)  # closing the only descriptor releases the lock


def _try_lock(descriptor: int) -> bool:
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _repair_if_idle(folder: Path) -> None:
    """Repair a killed install's leftovers, but only when no install is running right now."""
    if _held or not folder.is_dir():
        return
    try:
        descriptor = os.open(folder.parent / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return  # a read-only user folder: nothing to repair that we could repair
    try:
        if _try_lock(descriptor):
            recover_interrupted(folder)
    except OSError:
        pass  # a folder it may not change: the packs are read as they are, the next install repairs
    finally:
        os.close(descriptor)


def recover_interrupted(folder: Path) -> None:
    """Put back a pack whose replacement was interrupted mid-swap, and delete staging leftovers.

    Only a holder of the lock calls this, so every `.staging-*` and `.old-*`
    folder belongs to an install or removal that is no longer running. A
    `.old-NAME-*` folder whose NAME is missing means an install stopped after
    moving the old version aside: the old version is restored. Everything
    else of ours (only real folders with our two prefixes) is deleted.
    """
    for entry in sorted(folder.iterdir()):
        if not entry.name.startswith((STAGING, OLD)) or entry.is_symlink() or not entry.is_dir():
            continue
        if entry.name.startswith(OLD):
            name = entry.name[len(OLD):].rsplit("-", 1)[0]
            kept, target = entry / "pack", folder / name
            if PACK_NAME.fullmatch(name) and kept.is_dir() and not kept.is_symlink() \
                    and not target.exists():
                kept.rename(target)
        shutil.rmtree(entry, ignore_errors=True)


def installed_packs() -> dict[str, InstalledPack]:
    """Every installed pack by name, sorted by name."""
    folder = packs_dir()
    if not folder.is_dir():
        return {}
    _repair_if_idle(folder)
    found = {}
    for entry in sorted(folder.iterdir()):
        pack = _read_installed(entry)
        if pack is not None:
            found[entry.name] = pack
    return found


def installed_pack(name: str) -> InstalledPack | None:
    """The installed pack called `name`, or None."""
    if not PACK_NAME.fullmatch(name):
        return None
    _repair_if_idle(packs_dir())
    return _read_installed(packs_dir() / name)


def _read_installed(root: Path) -> InstalledPack | None:
    """The pack in `root`, or None for a work folder or one that an install just moved away."""
    if root.name.startswith(".") or not (root / MANIFEST_NAME).is_file():
        return None
    try:
        return InstalledPack(root, load_manifest(root))
    except DeckquestError:
        if (root / MANIFEST_NAME).is_file():
            raise
        return None  # moved aside by an install in that very instant


def find_pack_root(path: Path) -> Path | None:
    """The nearest folder at or above `path` holding a pack.yaml, or None."""
    start = path.resolve()
    for folder in (start, *start.parents):
        if (folder / MANIFEST_NAME).is_file():
            return folder
    return None


def resolve_script_reference(ref: str, relative_to: Path) -> Path:
    """Where a script's reference (``use "…"``, ``deck "…"``) points, checked to be safe.

    `relative_to` is the referring script (or its folder). A plain relative
    path is taken from the script's folder and must stay inside the pack the
    script belongs to (the nearest folder with a pack.yaml), or inside the
    script's own folder for a loose script. ``name/rest`` where `name` is the
    script's own pack resolves in that pack; where `name` is an installed pack
    (and no local folder of that name exists) it resolves inside that installed
    pack, which a pack must list under `depends`. The result may not exist
    (the caller reports missing files); anything escaping raises DeckquestError.
    """
    base = relative_to if relative_to.is_dir() else relative_to.parent
    where = Span(str(relative_to)) if relative_to.is_file() else None
    root = find_pack_root(base)
    problem = path_problem(ref, allow_parent=True, in_pack=root is not None)
    if problem:
        raise DeckquestError(_("bad reference `{ref}`: {problem}", ref=str(ref)[:80], problem=problem), where, code="DQ0050")
    own = load_manifest(root) if root else None
    first, _slash, rest = ref.partition("/")
    if rest and PACK_NAME.fullmatch(first) and not (base / first).exists():
        if own is not None and first == own.name:
            return _inside(root, rest, ref, where)
        pack = installed_pack(first)
        if pack is not None:
            return _from_installed_pack(pack, rest, ref, own, where)
        _no_such_pack(first, ref, where)
    anchor = root or base.resolve()
    folder = base.resolve().relative_to(anchor).parts
    return _inside(anchor, "/".join([*folder, ref]), ref, where)


def _no_such_pack(name: str, ref: str, where: Span | None) -> None:
    """A missing local folder named like an installed pack is most likely a typo: say so."""
    hint = did_you_mean(name, installed_packs())
    if hint:
        raise DeckquestError(_("`{ref}`: no folder `{name}` here and no installed pack `{name}`", ref=ref, name=name),
                             where, hint=hint, code="DQ0050")


def _from_installed_pack(pack: InstalledPack, rest: str, ref: str, own: Manifest | None,
                         where: Span | None) -> Path:
    name = pack.name
    if own is not None and name not in {d.name for d in own.depends}:
        raise DeckquestError(
            _("`{ref}`: pack `{name}` uses pack `{name2}` without listing it under `depends`", ref=ref, name=own.name, name2=name),
            where, code="DQ0050",
            hint=_("add `- {{name: {name}, version: \"^{version}\"}}` under depends in pack.yaml", name=name, version=pack.version),
        )
    return _inside(pack.root, rest, ref, where)


def _inside(root: Path, relative: str, ref: str, where: Span | None) -> Path:
    """`root/relative`, normalised, after checking it (and any symlink) stays in `root`."""
    parts: list[str] = []
    for part in relative.split("/"):
        if part == "..":
            if not parts:
                raise DeckquestError(_("`{ref}` points outside its pack", ref=ref), where, code="DQ0050",
                                     hint=_("a script may only use files inside its own pack"))
            parts.pop()
        else:
            parts.append(part)
    target = root.joinpath(*parts)
    if not is_inside(target, root):
        raise DeckquestError(_("`{ref}` leads outside its pack (through a symbolic link)", ref=ref), where,
                             code="DQ0050")
    return target


def scenario_refs(manifest: Manifest) -> list[str]:
    """The shortest `pack/scenario` names :func:`locate_scenario` accepts for each scenario."""
    stems = [PurePosixPath(s).stem for s in manifest.scenarios]
    return [f"{manifest.name}/{stem if stems.count(stem) == 1 else path.removesuffix('.quest')}"
            for stem, path in zip(stems, manifest.scenarios)]


def locate_scenario(ref: str) -> Path:
    """The script of ``pack-name/scenario`` in an installed pack.

    `scenario` may be the script's path as listed in pack.yaml, with or
    without `.quest`, or just its file name stem when that is unambiguous.
    """
    name, _slash, wanted = ref.partition("/")
    if not wanted:
        raise DeckquestError(_("`{ref}` does not name a pack scenario", ref=ref), code="DQ7047",
                             hint=_("write PACK/SCENARIO, e.g. `deckquest-examples/goblin_cave`"))
    pack = installed_pack(name)
    if pack is None:
        raise DeckquestError(
            _("no installed pack `{name}`", name=name), code="DQ7044",
            hint=did_you_mean(name, installed_packs()) or _("`deckquest pack list` shows the installed packs"),
        )
    scenarios = pack.manifest.scenarios
    matches = [s for s in scenarios if wanted in (s, s.removesuffix(".quest"))]
    if not matches:
        matches = [s for s in scenarios if PurePosixPath(s).stem == wanted]
    if len(matches) != 1:
        refs = [ref.partition("/")[2] for ref in scenario_refs(pack.manifest)]
        what = _("is ambiguous") if matches else _("is not a scenario")
        raise DeckquestError(_("`{wanted}` {what} in pack `{name}` {version}", wanted=wanted, what=what, name=name, version=pack.version), code="DQ7047",
                             hint=did_you_mean(wanted, refs) or _("its scenarios: {names}", names=', '.join(refs)))
    return _inside(pack.root, matches[0], ref, None)
