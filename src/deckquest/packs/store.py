"""The installed packs, and how scripts and the CLI find files in packs.

Installed packs live in ``deckquest_home()/packs/<name>/``, one version per
name. Folders starting with a dot are the installer's work in progress and
are never read as packs (see :mod:`deckquest.packs.install`).

Two functions here are the contract with the language and the run command:
:func:`resolve_script_reference` (``use "pack-name/path.quest"`` and file
references from scripts) and :func:`locate_scenario` (``deckquest run
pack-name/scenario``). Both only ever return paths inside one pack (or, for a
loose script, inside its own folder), whatever the reference says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span, did_you_mean
from deckquest.packs.manifest import MANIFEST_NAME, Manifest, load_manifest
from deckquest.packs.paths import is_inside, path_problem

PACK_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


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


def installed_packs() -> dict[str, InstalledPack]:
    """Every installed pack by name, sorted by name."""
    from deckquest.packs.install import recover_interrupted

    folder = packs_dir()
    if not folder.is_dir():
        return {}
    recover_interrupted(folder)
    found = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or not (entry / MANIFEST_NAME).is_file():
            continue
        found[entry.name] = InstalledPack(entry, load_manifest(entry))
    return found


def installed_pack(name: str) -> InstalledPack | None:
    """The installed pack called `name`, or None."""
    from deckquest.packs.install import recover_interrupted

    if not PACK_NAME.match(name):
        return None
    if packs_dir().is_dir():
        recover_interrupted(packs_dir())
    root = packs_dir() / name
    if not (root / MANIFEST_NAME).is_file():
        return None
    return InstalledPack(root, load_manifest(root))


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
    problem = path_problem(ref, allow_parent=True)
    if problem:
        raise DeckquestError(_("bad reference `{ref}`: {problem}", ref=str(ref)[:80], problem=problem), where)
    root = find_pack_root(base)
    own = load_manifest(root) if root else None
    first, _slash, rest = ref.partition("/")
    if rest and PACK_NAME.match(first) and not (base / first).exists():
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
                             where, hint=hint)


def _from_installed_pack(pack: InstalledPack, rest: str, ref: str, own: Manifest | None,
                         where: Span | None) -> Path:
    name = pack.name
    if own is not None and name not in {d.name for d in own.depends}:
        raise DeckquestError(
            _("`{ref}`: pack `{name}` uses pack `{name2}` without listing it under `depends`", ref=ref, name=own.name, name2=name),
            where, hint=_("add `- {{name: {name}, version: \"^{version}\"}}` under depends in pack.yaml", name=name, version=pack.version),
        )
    return _inside(pack.root, rest, ref, where)


def _inside(root: Path, relative: str, ref: str, where: Span | None) -> Path:
    """`root/relative`, normalised, after checking it (and any symlink) stays in `root`."""
    parts: list[str] = []
    for part in relative.split("/"):
        if part == "..":
            if not parts:
                raise DeckquestError(_("`{ref}` points outside its pack", ref=ref), where,
                                     hint=_("a script may only use files inside its own pack"))
            parts.pop()
        else:
            parts.append(part)
    target = root.joinpath(*parts)
    if not is_inside(target, root):
        raise DeckquestError(_("`{ref}` leads outside its pack (through a symbolic link)", ref=ref), where)
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
        raise DeckquestError(_("`{ref}` does not name a pack scenario", ref=ref),
                             hint=_("write PACK/SCENARIO, e.g. `deckquest-examples/goblin_cave`"))
    pack = installed_pack(name)
    if pack is None:
        raise DeckquestError(
            _("no installed pack `{name}`", name=name),
            hint=did_you_mean(name, installed_packs()) or _("`deckquest pack list` shows the installed packs"),
        )
    scenarios = pack.manifest.scenarios
    matches = [s for s in scenarios if wanted in (s, s.removesuffix(".quest"))]
    if not matches:
        matches = [s for s in scenarios if PurePosixPath(s).stem == wanted]
    if len(matches) != 1:
        refs = [ref.partition("/")[2] for ref in scenario_refs(pack.manifest)]
        what = _("is ambiguous") if matches else _("is not a scenario")
        raise DeckquestError(_("`{wanted}` {what} in pack `{name}` {version}", wanted=wanted, what=what, name=name, version=pack.version),
                             hint=did_you_mean(wanted, refs) or _("its scenarios: {names}", names=', '.join(refs)))
    return _inside(pack.root, matches[0], ref, None)
