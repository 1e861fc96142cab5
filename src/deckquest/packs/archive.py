"""`.dqpack` archives: writing them reproducibly and unpacking untrusted ones safely.

A `.dqpack` is a zip holding `SHA256SUMS` (one ``<sha256>  <path>`` line per
file, the format `sha256sum -c` checks), `pack.yaml` and the files pack.yaml
lists. Unpacking never trusts the archive: every entry name is checked before
anything is written, sizes are capped both as declared and as actually
read (a zip can lie about sizes), and every file must match its checksum.
"""

from __future__ import annotations

import hashlib
import io
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span
from deckquest.packs.paths import path_problem

CHECKSUMS_NAME = "SHA256SUMS"
ARCHIVE_SUFFIX = ".dqpack"
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest zip timestamp: the same for every build
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Limits:
    """How much an untrusted pack may hold; generous for adventures, fatal to zip bombs."""

    max_files: int = 2000
    max_file_bytes: int = 16 * 1024 * 1024
    max_total_bytes: int = 64 * 1024 * 1024
    max_ratio: int = 100  # uncompressed / compressed, for entries over ratio_floor bytes
    ratio_floor: int = 1024 * 1024


DEFAULT_LIMITS = Limits()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def write_archive(root: Path, names: list[str], target) -> None:
    """Write the zip of `names` (relative to `root`) to the binary stream `target`.

    Everything that could vary between machines or runs is fixed: entry order,
    timestamps, permissions, the creating system and the compression level,
    so the same folder always gives the same bytes.
    """
    sums = "".join(f"{sha256_file(root / name)}  {name}\n" for name in names)
    with zipfile.ZipFile(target, "w") as archive:
        _add(archive, CHECKSUMS_NAME, sums.encode("utf-8"))
        for name in names:
            _add(archive, name, (root / name).read_bytes())


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # unix, so the permission bits below are meaningful everywhere
    info.external_attr = (stat.S_IFREG | 0o644) << 16
    archive.writestr(info, data, compresslevel=9)


def unpack_archive(source: Path, dest: Path, limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """Unpack the `.dqpack` at `source` into the empty folder `dest`; return the pack's file names.

    Raises DeckquestError, naming the archive and the entry, for: not a zip,
    too many entries, an entry name escaping the folder or naming a drive, a
    link or special file, a duplicate entry, sizes or compression ratios over
    the limits, a corrupt entry, and any checksum problem. The caller deletes
    `dest` on failure; nothing outside `dest` is ever written.
    """
    display = str(source)
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as error:
        raise DeckquestError(_("{display} is not a pack archive ({error})", display=display, error=error), Span(display)) from None
    with archive:
        infos = _checked_entries(archive, display, limits)
        digests = {}
        for info in infos:
            digests[info.filename] = _extract(archive, info, dest, display, limits)
    _verify_checksums(dest, digests, display)
    (dest / CHECKSUMS_NAME).unlink()  # archive metadata, not part of the pack
    return sorted(name for name in digests if name != CHECKSUMS_NAME)


def _checked_entries(archive: zipfile.ZipFile, display: str, limits: Limits) -> list[zipfile.ZipInfo]:
    """Check every entry's name, kind and declared size before writing a single byte."""
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise _refuse(display, f"it holds {len(infos)} entries; a pack may hold {limits.max_files}")
    seen: set[str] = set()
    total = 0
    files = []
    for info in infos:
        name = info.filename
        problem = path_problem(name.rstrip("/") if info.is_dir() else name)
        if problem:
            raise _refuse(display, f"entry `{_printable(name)}`: {problem}")
        if name.casefold() in seen:
            raise _refuse(display, f"entry `{name}` appears twice")
        seen.add(name.casefold())
        mode = info.external_attr >> 16
        if info.create_system == 3 and stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise _refuse(display, f"entry `{name}` is a link or special file; packs hold plain files")
        if info.flag_bits & 0x1:
            raise _refuse(display, f"entry `{name}` is encrypted")
        if info.is_dir():
            continue
        if info.file_size > limits.ratio_floor and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            raise _refuse(display, f"entry `{name}` is compressed more than {limits.max_ratio}:1 "
                                   "(a zip bomb?)")
        if info.file_size > limits.max_file_bytes:
            raise _refuse(display, f"entry `{name}` unpacks to {info.file_size} bytes; "
                                   f"a file may have {limits.max_file_bytes}")
        total += info.file_size
        if total > limits.max_total_bytes:
            raise _refuse(display, f"it unpacks to more than {limits.max_total_bytes} bytes")
        files.append(info)
    return files


def _extract(archive: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, display: str,
             limits: Limits) -> str:
    """Copy one entry out, counting real bytes against its declared size; return its sha256."""
    target = dest.joinpath(*info.filename.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    written = 0
    try:
        with archive.open(info) as reader, open(target, "xb") as writer:
            for chunk in iter(lambda: reader.read(_CHUNK), b""):
                written += len(chunk)
                if written > info.file_size or written > limits.max_file_bytes:
                    raise _refuse(display, f"entry `{info.filename}` is larger than it claims")
                digest.update(chunk)
                writer.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as error:
        raise _refuse(display, f"entry `{info.filename}` is corrupt ({error})") from None
    except FileExistsError:
        raise _refuse(display, f"entry `{info.filename}` appears twice") from None
    except (OSError, ValueError) as error:
        raise _refuse(display, f"entry `{info.filename}` cannot be unpacked ({error})") from None
    return digest.hexdigest()


def _verify_checksums(dest: Path, digests: dict[str, str], display: str) -> None:
    """Every file is in SHA256SUMS with its true hash, and SHA256SUMS names nothing else."""
    if CHECKSUMS_NAME not in digests:
        raise _refuse(display, f"it has no {CHECKSUMS_NAME} file list",
                      hint="build pack archives with `deckquest pack build`")
    listed = _read_checksums(dest / CHECKSUMS_NAME, display)
    for name, digest in digests.items():
        if name == CHECKSUMS_NAME:
            continue
        if name not in listed:
            raise _refuse(display, f"entry `{name}` is not in {CHECKSUMS_NAME}")
        if listed[name] != digest:
            raise _refuse(display, f"checksum mismatch for `{name}`: the archive is corrupt "
                                   "or was altered after it was built")
    missing = sorted(set(listed) - set(digests))
    if missing:
        raise _refuse(display, f"{CHECKSUMS_NAME} lists `{missing[0]}`, which is not in the archive")


def _read_checksums(path: Path, display: str) -> dict[str, str]:
    listed: dict[str, str] = {}
    text = path.read_bytes().decode("utf-8", errors="replace")
    for number, line in enumerate(io.StringIO(text), start=1):
        digest, sep, name = line.rstrip("\n").partition("  ")
        if not sep or len(digest) != 64 or name in listed:
            raise _refuse(display, f"{CHECKSUMS_NAME} line {number} is not `<sha256>  <path>` "
                                   "or repeats a path")
        listed[name] = digest.lower()
    return listed


def _printable(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii")[:120]


def _refuse(display: str, reason: str, hint: str | None = None) -> DeckquestError:
    return DeckquestError(_("refusing pack archive: {reason}", reason=reason), Span(display), hint=hint)
