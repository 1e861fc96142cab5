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
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span
from deckquest.files import NotRegularFile, open_regular
from deckquest.packs.paths import name_key, path_problem

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
    # The work budget (docs/packs.md, "Limits and budgets"): checking a pack reads,
    # compiles and resolves these, so their number and bytes bound its time.
    max_scripts: int = 200
    max_script_bytes: int = 4 * 1024 * 1024
    max_decks: int = 500
    max_deck_bytes: int = 2 * 1024 * 1024
    max_card_files: int = 20
    max_card_bytes: int = 16 * 1024 * 1024


DEFAULT_LIMITS = Limits()


def open_pack_file(path: Path) -> BinaryIO:
    """Open a file of a pack that was checked a moment ago, refusing it if it changed since
    into a link or a special file (DQ7010) or went missing (DQ7007)."""
    try:
        return open_regular(path, follow_links=False)
    except NotRegularFile:
        raise DeckquestError(_("`{origin}` changed into a link or special file after the pack was checked", origin=path),
                             Span(str(path)), code="DQ7010") from None
    except OSError as error:
        raise DeckquestError(_("cannot read {origin}: {strerror}", origin=path, strerror=error.strerror), Span(str(path)),
                             code="DQ7007") from None


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open_pack_file(path) as handle:
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
            with open_pack_file(root / name) as handle:
                data = handle.read(DEFAULT_LIMITS.max_file_bytes + 1)
            if len(data) > DEFAULT_LIMITS.max_file_bytes:
                raise DeckquestError(_("`{origin}` grew past {max_file_bytes} bytes after the pack was checked", origin=root / name,
                                       max_file_bytes=DEFAULT_LIMITS.max_file_bytes), Span(str(root / name)), code="DQ7011")
            _add(archive, name, data)


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
        handle = open_regular(source)
    except OSError as error:
        raise DeckquestError(_("{display} is not a pack archive ({error})", display=display, error=error.strerror), Span(display),
                             code="DQ7020") from None
    with handle:
        try:
            _check_directory_size(handle, display, limits)
            archive = zipfile.ZipFile(handle)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, struct.error) as error:
            raise DeckquestError(_("{display} is not a pack archive ({error})", display=display, error=error), Span(display),
                                 code="DQ7020") from None
        with archive:
            infos = _checked_entries(archive, display, limits)
            digests = {}
            for info in infos:
                digests[info.filename] = _extract(archive, info, dest, display, limits)
    _verify_checksums(dest, digests, display)
    (dest / CHECKSUMS_NAME).unlink()  # archive metadata, not part of the pack
    return sorted(name for name in digests if name != CHECKSUMS_NAME)


# The zip's last record (end of central directory), and its zip64 counterparts.
_END = b"PK\x05\x06"
_END64_LOCATOR = b"PK\x06\x07"
_END64 = b"PK\x06\x06"
_END_SIZE = 22
_MAX_COMMENT = 0xFFFF
_CENTRAL_BYTES_PER_ENTRY = 1024  # 46 fixed bytes, a name of at most 255, room for extra fields


def _check_directory_size(handle: BinaryIO, display: str, limits: Limits) -> None:
    """Refuse too many entries from the zip's last record, before the entry list is read.

    `zipfile` builds an object per entry of the central directory as it opens
    an archive (300,000 entries cost 178 MB), so the entry count and the
    directory's size are read first from the end record (at most 64 KiB
    from the end of the file, plus the zip64 record when there is one).
    """
    length = handle.seek(0, io.SEEK_END)
    handle.seek(max(0, length - _END_SIZE - _MAX_COMMENT))
    tail = handle.read()
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < _END_SIZE:
        raise zipfile.BadZipFile("no end of central directory record")
    count, size = struct.unpack("<HI", tail[at + 10:at + 16])
    locator = tail[at - 20:at] if at >= 20 else b""
    if locator[:4] == _END64_LOCATOR:
        (offset,) = struct.unpack("<Q", locator[8:16])
        if offset > length:
            raise zipfile.BadZipFile("the zip64 end record is past the end of the file")
        handle.seek(offset)
        record = handle.read(56)
        if record[:4] == _END64 and len(record) == 56:
            count, size = struct.unpack("<QQ", record[32:48])
    handle.seek(0)
    if count > limits.max_files:
        raise _refuse(display, f"it holds {count} entries; a pack may hold {limits.max_files}", "DQ7021")
    if size > (limits.max_files + 1) * _CENTRAL_BYTES_PER_ENTRY:
        raise _refuse(display, f"its list of entries takes {size} bytes, more than "
                               f"{limits.max_files} entries need", "DQ7021")


def _checked_entries(archive: zipfile.ZipFile, display: str, limits: Limits) -> list[zipfile.ZipInfo]:
    """Check every entry's name, kind and declared size before writing a single byte."""
    infos = archive.infolist()
    if len(infos) > limits.max_files:
        raise _refuse(display, f"it holds {len(infos)} entries; a pack may hold {limits.max_files}",
                      "DQ7021")
    total = 0
    files = []
    for info in infos:
        name = info.filename
        problem = path_problem(name.rstrip("/") if info.is_dir() else name)
        if problem:
            raise _refuse(display, f"entry `{_printable(name)}`: {problem}", "DQ7022")
        mode = info.external_attr >> 16
        if info.create_system == 3 and stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise _refuse(display, f"entry `{name}` is a link or special file; packs hold plain files",
                          "DQ7024")
        if info.flag_bits & 0x1:
            raise _refuse(display, f"entry `{name}` is encrypted", "DQ7025")
        if info.is_dir():
            continue
        if info.file_size > limits.ratio_floor and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            raise _refuse(display, f"entry `{name}` is compressed more than {limits.max_ratio}:1 "
                                   "(a zip bomb?)", "DQ7026")
        if info.file_size > limits.max_file_bytes:
            raise _refuse(display, f"entry `{name}` unpacks to {info.file_size} bytes; "
                                   f"a file may have {limits.max_file_bytes}", "DQ7026")
        total += info.file_size
        if total > limits.max_total_bytes:
            raise _refuse(display, f"it unpacks to more than {limits.max_total_bytes} bytes", "DQ7026")
        files.append(info)
    _check_collisions(infos, display)
    return files


def _check_collisions(infos: list[zipfile.ZipInfo], display: str) -> None:
    """No two entries under one name (in any spelling), and no file also used as a folder."""
    entries: dict[str, str] = {}
    files: dict[str, str] = {}
    folders: dict[str, str] = {}
    for info in infos:
        name = info.filename.rstrip("/")
        key = name_key(name)
        if key in entries:
            raise _refuse(display, f"entry `{_printable(name)}` appears twice"
                                   + (f" (also as `{_printable(entries[key])}`)" if entries[key] != name else ""),
                          "DQ7023")
        entries[key] = name
        parts = name.split("/")
        for depth in range(1, len(parts)):
            folders.setdefault(name_key("/".join(parts[:depth])), "/".join(parts[:depth]))
        if not info.is_dir():
            files[key] = name
    for key, name in files.items():
        if key in folders:
            raise _refuse(display, f"entry `{_printable(name)}` is a file, but other entries use it "
                                   f"as a folder (`{_printable(folders[key])}/…`)", "DQ7023")


def _extract(archive: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, display: str,
             limits: Limits) -> str:
    """Copy one entry out, counting real bytes against its declared size; return its sha256.

    What the archive does wrong is refused here; what the disk does (full, read-only) is the
    OSError of the write, for the caller to name the folder it was filling."""
    target = dest.joinpath(*info.filename.split("/"))
    digest = hashlib.sha256()
    written = 0
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        writer = open(target, "xb")
    except FileExistsError:
        raise _refuse(display, f"entry `{info.filename}` appears twice", "DQ7023") from None
    with writer:
        for chunk in _entry_chunks(archive, info, display):
            written += len(chunk)
            if written > info.file_size or written > limits.max_file_bytes:
                raise _refuse(display, f"entry `{info.filename}` is larger than it claims", "DQ7026")
            digest.update(chunk)
            writer.write(chunk)
    return digest.hexdigest()


def _entry_chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, display: str) -> Iterator[bytes]:
    """The entry's bytes as they are inflated; a corrupt entry is refused (DQ7027)."""
    try:
        with archive.open(info) as reader:
            while chunk := reader.read(_CHUNK):
                yield chunk
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, zlib.error, OSError,
            ValueError) as error:
        raise _refuse(display, f"entry `{info.filename}` is corrupt ({error})", "DQ7027") from None


def _verify_checksums(dest: Path, digests: dict[str, str], display: str) -> None:
    """Every file is in SHA256SUMS with its true hash, and SHA256SUMS names nothing else."""
    if CHECKSUMS_NAME not in digests:
        raise _refuse(display, f"it has no {CHECKSUMS_NAME} file list", "DQ7028",
                      hint="build pack archives with `deckquest pack build`")
    listed = _read_checksums(dest / CHECKSUMS_NAME, display)
    for name, digest in digests.items():
        if name == CHECKSUMS_NAME:
            continue
        if name not in listed:
            raise _refuse(display, f"entry `{name}` is not in {CHECKSUMS_NAME}", "DQ7028")
        if listed[name] != digest:
            raise _refuse(display, f"checksum mismatch for `{name}`: the archive is corrupt "
                                   "or was altered after it was built", "DQ7028")
    missing = sorted(set(listed) - set(digests))
    if missing:
        raise _refuse(display, f"{CHECKSUMS_NAME} lists `{missing[0]}`, which is not in the archive",
                      "DQ7028")


def _read_checksums(path: Path, display: str) -> dict[str, str]:
    listed: dict[str, str] = {}
    with open_pack_file(path) as handle:  # unpacked a moment ago, within the entry size limit
        text = handle.read().decode("utf-8", errors="replace")
    for number, line in enumerate(io.StringIO(text), start=1):
        digest, sep, name = line.rstrip("\n").partition("  ")
        if not sep or len(digest) != 64 or name in listed:
            raise _refuse(display, f"{CHECKSUMS_NAME} line {number} is not `<sha256>  <path>` "
                                   "or repeats a path", "DQ7028")
        listed[name] = digest.lower()
    return listed


def _printable(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii")[:120]


def _refuse(display: str, reason: str, code: str, hint: str | None = None) -> DeckquestError:
    return DeckquestError(_("refusing pack archive: {reason}", reason=reason), Span(display), hint=hint, code=code)
