"""Path rules for untrusted packs: every name a pack uses stays inside the pack.

A pack names files in its manifest, in zip entries and in `use`/`deck`
references. All of them go through :func:`path_problem`, which accepts
only plain relative POSIX paths, so no name can reach outside the pack folder
whatever the host operating system: no absolute paths, no drive letters, no
backslashes, no `..` (a script's reference may climb with `..`, and is then checked
against its pack's root), no control characters.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from deckquest.i18n import _

MAX_PATH_LENGTH = 255
MAX_PATH_DEPTH = 16

_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def path_problem(text: object, *, allow_parent: bool = False, in_pack: bool = True) -> str | None:
    """Why `text` is not an acceptable pack-relative path, or None when it is.

    `in_pack` False: the path is a loose script's or party file's reference, held to the
    same rules, and the message does not speak of a pack."""
    if not isinstance(text, str) or not text:
        return _("a path must be a non-empty string")
    if len(text) > MAX_PATH_LENGTH:
        return _("a path may have at most {MAX_PATH_LENGTH} characters", MAX_PATH_LENGTH=MAX_PATH_LENGTH)
    if _CONTROL.search(text):
        return _("a path may not contain control characters")
    if "\\" in text:
        return _("a path uses `/` between folders, never `\\`")
    if _DRIVE.match(text):
        return _("a path inside a pack cannot name a drive (`C:`)") if in_pack else _("a path cannot name a drive (`C:`)")
    if text.startswith("/"):
        return (_("a path inside a pack must be relative, not absolute") if in_pack
                else _("a path must be relative to the file's folder, not absolute"))
    parts = text.split("/")
    if len(parts) > MAX_PATH_DEPTH:
        return _("a path may have at most {MAX_PATH_DEPTH} folders", MAX_PATH_DEPTH=MAX_PATH_DEPTH)
    if any(part in ("", ".") for part in parts):
        return _("a path may not contain empty or `.` segments")
    if not allow_parent and ".." in parts:
        return _("a path may not contain `..`: it must stay inside the pack")
    return None


def is_inside(path: Path, root: Path) -> bool:
    """Whether `path` (after following symlinks) lies inside `root`."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def name_key(name: str) -> str:
    """One key for every spelling of a name that some file system stores as one file.

    macOS stores names decomposed (NFD) and compares them ignoring case, Windows
    ignores case: `Café.txt`, `café.txt` and its NFD spelling would be one file
    there and two on Linux, so a pack may use only one of them.
    """
    return unicodedata.normalize("NFC", name).casefold()
