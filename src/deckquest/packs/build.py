"""`deckquest pack build` and `pack init`: making packs.

A build validates the folder first (a broken pack is never shipped), then
writes the archive to a temporary file beside the target and renames it into
place, so an interrupted build never leaves a half-written `.dqpack`.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span
from deckquest.files import writing
from deckquest.packs.archive import ARCHIVE_SUFFIX, write_archive
from deckquest.packs.paths import is_inside
from deckquest.packs.store import PACK_NAME
from deckquest.packs.validate import validate_folder


@dataclass(frozen=True)
class BuildResult:
    path: Path
    name: str
    version: str
    files: int
    size: int


def build_pack(folder: Path, output: Path | None = None) -> BuildResult:
    """Validate `folder` and write `NAME-VERSION.dqpack` (by default into the current folder,
    or beside the pack folder when run from inside it).

    `output` may be a folder or a file path. The same folder always gives the
    same bytes (see :func:`deckquest.packs.archive.write_archive`).
    """
    report = validate_folder(folder)
    manifest = report.manifest
    default_name = f"{manifest.name}-{manifest.version}{ARCHIVE_SUFFIX}"
    if output is None:
        here = Path.cwd()
        output = (folder.resolve().parent if is_inside(here, folder) else here) / default_name
    elif output.is_dir():
        output = output / default_name
    if is_inside(output.parent, folder):
        raise DeckquestError(_("cannot write the archive inside the pack folder {folder}", folder=folder),
                             Span(str(output)), code="DQ7050", hint=_("pass `--output` with a folder outside the pack"))
    names = sorted(report.files)
    with writing(output, "DQ7053", hint=_("write the archive into a folder you may write to, on a disk with room")):
        handle, temporary = tempfile.mkstemp(prefix=".building-", suffix=ARCHIVE_SUFFIX, dir=output.parent)
        try:
            with os.fdopen(handle, "wb") as target:
                write_archive(folder, names, target)  # a file changed since it was checked: DeckquestError
            os.chmod(temporary, 0o644)  # mkstemp's 0600 would make the shared file private
            os.replace(temporary, output)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return BuildResult(output, manifest.name, str(manifest.version), len(names), output.stat().st_size)


def init_pack(name: str, parent: Path) -> Path:
    """Create `parent/name`: a pack skeleton with one scenario that validates as it is.

    `parent` is created when missing (`--dir adventures/new`). The pack folder gets the
    permissions of any folder the user makes (0777 less the umask), not the 0700 of the
    private staging folder it is assembled in: it is made to be shared."""
    if not PACK_NAME.fullmatch(name):
        raise DeckquestError(_("`{name}` is not a pack name", name=name), code="DQ7051",
                             hint=_("use lowercase letters, digits and single dashes, e.g. `goblin-cave`"))
    root = parent / name
    if root.exists():
        raise DeckquestError(_("{root} already exists", root=root), code="DQ7051", hint=_("choose another name or folder"))
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DeckquestError(_("cannot create the folder {parent}: {reason}", parent=parent, reason=error.strerror or error),
                             Span(str(parent)), code="DQ7051", hint=_("pass `--dir` a folder you can write in")) from None
    script = name.replace("-", "_")
    files = {
        "pack.yaml": _MANIFEST.format(name=name, script=script, title=name.replace("-", " ").title()),
        f"{script}.quest": _SCENARIO.format(title=name.replace("-", " ").title()),
        "decks/hero.txt": _DECK,
    }
    with writing(parent, "DQ7051", hint=_("pass `--dir` a folder you can write in")):
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=parent))
        try:
            for relative, text in files.items():
                path = staging / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            os.chmod(staging, 0o777 & ~_umask())
            staging.rename(root)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return root


def _umask() -> int:
    """The process's umask (reading it means setting it; it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_MANIFEST = """\
# A deckquest scenario pack. `deckquest pack validate .` checks it,
# `deckquest pack build .` makes a shareable {name}-VERSION.dqpack.
name: {name}
version: 0.1.0
title: "{title}"
authors:
  - "Your Name"
license: CC-BY-4.0
description: >
  One line about the adventure.
deckquest: ">=0.1, <1.0"
scenarios:
  - {script}.quest
decks:
  - decks/hero.txt
tags:
  - starter
"""

_SCENARIO = """\
# A one-scene adventure: replace it with yours.
scenario "{title}":
    author "Your Name"
    version "0.1.0"
    players 1 to 4
    rules 2019

pc hero "The Hero":
    deck "decks/hero.txt"
    critical "Forest" x3

start scene hill "The Hill":
    "A steep hill rises before you."
    check green difficulty 2 by party as "Climb the hill":
        success:
            end victory "You reach the top."
        failure:
            end defeat "You tumble back down."
"""

_DECK = """\
# 40 cards: a mono-green starter deck
24 Forest
16 Grizzly Bears
"""
