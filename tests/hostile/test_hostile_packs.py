"""The hostile pack corpus (issue 12): every pack here is refused with a coded DQ70xx error, by
the CLI a user runs, within the memory and time budget of docs/packs.md, leaving nothing behind.

Each test builds its hostile pack in tmp_path at test time; `run_hostile` (tests/hostile/conftest.py)
runs `python -m deckquest ...` under RLIMIT_AS and a CPU-time limit and checks the promises.
Installs run against a user folder that already holds one good pack (`base`), so "nothing left
behind" also means "the installed packs are exactly as they were".
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import stat
import struct
import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
EXAMPLES = Path(__file__).resolve().parents[2] / "scenarios"

SCENARIO = """\
scenario "Tiny":
    author "tests"
    version "1.0.0"
    players 1 to 4
    rules 2019

pc hero "The Hero":
    deck "decks/hero.txt"
    critical "Forest" x3

start scene hill "The Hill":
    "A hill."
    check green difficulty 2 by party as "Climb":
        success:
            end victory "Up."
        failure:
            end defeat "Down."
"""
DECK = "24 Forest\n16 Grizzly Bears\n"


def manifest(name="goblin-raid", version="1.0.0", extra="", scenarios=("tiny.quest",),
             decks=("decks/hero.txt",)) -> str:
    lines = [f"name: {name}", f"version: {version}", "title: Goblin Raid", "authors: [tests]",
             "license: CC0-1.0", 'deckquest: ">=0.1"', "scenarios:", *(f"  - {s}" for s in scenarios),
             "decks:", *(f"  - {d}" for d in decks)]
    return "\n".join(lines) + "\n" + extra


def pack_files(**options) -> dict[str, bytes]:
    return {"pack.yaml": manifest(**options).encode(), "tiny.quest": SCENARIO.encode(),
            "decks/hero.txt": DECK.encode()}


def write_folder(folder: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


def mkzip(path: Path, entries: list[tuple[str, bytes]]) -> Path:
    """The issue's `mkzip OUT NAME=FILE…`: a zip with a correct SHA256SUMS and the named entries."""
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n"
                   for name, data in entries if not name.endswith("/"))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("SHA256SUMS", sums)
        for name, data in entries:
            archive.writestr(name, data)
    return path


def many_entries_zip(path: Path, count: int) -> Path:
    """A real zip of `count` empty stored entries (zip64 end records past 65,535), written as raw bytes."""
    date = (1 << 5) | 1  # 1980-01-01
    local, central, offset = [], [], 0
    for index in range(count):
        name = f"decks/d{index:06d}.txt".encode()
        header = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, date, 0, 0, 0, len(name), 0) + name
        central.append(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, date, 0, 0, 0,
                                   len(name), 0, 0, 0, 0, 0, offset) + name)
        local.append(header)
        offset += len(header)
    directory = b"".join(central)
    end64 = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(directory), offset)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, offset + len(directory), 1)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(directory), offset, 0)
    path.write_bytes(b"".join(local) + directory + end64 + locator + end)
    return path


def tree(folder: Path) -> dict[str, bytes | None]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))} if folder.exists() else {}


def cli(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess:
    """A deckquest command that is expected to work (setting up, or checking the result)."""
    env = {**os.environ, "DECKQUEST_HOME": str(home), "PYTHONPATH": str(SRC)}
    return subprocess.run([sys.executable, "-m", "deckquest", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def installed_home(tmp_path_factory) -> Path:
    """A user folder with the pack `base` installed by the CLI, made once and copied per test."""
    folder = tmp_path_factory.mktemp("installed")
    base = write_folder(folder / "base-src", pack_files(name="base"))
    assert cli(["pack", "install", str(base)], folder, folder / "home").returncode == 0
    return folder / "home"


@pytest.fixture
def store(folders, installed_home):
    """(cwd, home) where home already has the pack `base` installed (so packs/ and its lock exist)."""
    cwd, home = folders
    shutil.copytree(installed_home, home)
    return cwd, home


def refused(run_hostile, store, args, code, **limits):
    """Run a hostile command; the coded refusal also leaves the installed packs byte for byte."""
    cwd, home = store
    before = tree(home)
    result = run_hostile(args, cwd=cwd, env_home=home, code=code, **limits)
    assert tree(home) == before
    return result


# -- item 2: patterns anchored at the true end of the string --------------------------------------

@pytest.mark.parametrize("field, extra", [
    ("name", ""),
    ("tags", 'tags: ["goblins\\n"]\n'),
    ("depends", 'depends:\n  - {name: "base\\n", version: "*"}\n'),
    ("version", ""),
])
def test_a_final_newline_does_not_pass_a_pattern(run_hostile, store, field, extra):
    """`name: "goblin-raid\\n"` installed beside the real goblin-raid; `$` matched before the newline."""
    cwd, _ = store
    text = manifest(extra=extra)
    if field == "name":
        text = text.replace("name: goblin-raid", 'name: "goblin-raid\\n"')
    if field == "version":
        text = text.replace("version: 1.0.0", 'version: "1.0.0\\n"')
    files = dict(pack_files(), **{"pack.yaml": text.encode()})
    mkzip(cwd / "newline.dqpack", list(files.items()))
    result = refused(run_hostile, store, ["pack", "install", "newline.dqpack"], "DQ7002")
    assert "\\n" in result.stderr  # shown escaped, on one line


def test_the_schema_accepts_exactly_the_versions_the_parser_reads(run_hostile, store):
    """`version: "0.1.0-.."` passed the schema, then Version.parse raised: exit 70."""
    cwd, _ = store
    write_folder(cwd / "dots", pack_files(version='"0.1.0-.."'))
    refused(run_hostile, store, ["pack", "validate", "dots"], "DQ7002")
    refused(run_hostile, store, ["pack", "install", "dots"], "DQ7002")


def test_a_mapping_key_holding_a_list_is_refused(run_hostile, store):
    """Found by the fuzzer (issue 28, item 11): `? authors:` over a list, a complex mapping key
    holding a list, made ruamel raise TypeError (unhashable; exit 70). It is invalid YAML here."""
    cwd, _ = store
    write_folder(cwd / "complex", pack_files(extra="? authors:\n  - tests\n: x\n"))
    refused(run_hostile, store, ["pack", "validate", "complex"], "DQ7001")


# -- item 3: special files in folder packs --------------------------------------------------------

def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays


def _device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 5))  # /dev/zero's numbers: reads never end
    except PermissionError:
        pytest.skip("creating a character device needs CAP_MKNOD")


SPECIAL_CASES = [(make, where, command) for command in ("validate", "install")
                 for make, where in [(_fifo, "deck"), (_fifo, "listed-under-files"), (_fifo, "manifest"),
                                     (_device, "deck"), (_device, "manifest"), (_socket, "deck")]]


@pytest.mark.parametrize("make, where, command", SPECIAL_CASES,
                         ids=[f"{c}-{m.__name__[1:]}-{w}" for m, w, c in SPECIAL_CASES])
def test_special_files_are_refused_without_reading_them(run_hostile, store, make, where, command):
    """A FIFO hung validate and install; a device read until MemoryError (the sizes used st_size)."""
    cwd, _ = store
    extra = "files:\n  - notes.txt\n" if where == "listed-under-files" else ""
    folder = write_folder(cwd / "special", pack_files(extra=extra))
    target = {"deck": "decks/hero.txt", "listed-under-files": "notes.txt", "manifest": "pack.yaml"}[where]
    (folder / target).unlink(missing_ok=True)
    make(folder / target)
    refused(run_hostile, store, ["pack", command, "special"], "DQ7010", seconds=10)


# -- item 5: archives and manifests that ended in exit 70 -----------------------------------------

def test_corrupt_deflate_data_is_a_coded_error(run_hostile, store):
    cwd, _ = store
    archive = mkzip(cwd / "corrupt.dqpack", list(pack_files().items()))
    with zipfile.ZipFile(archive) as reading:
        info = reading.getinfo("tiny.quest")
    data = bytearray(archive.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start:start + info.compress_size] = b"\xff" * info.compress_size
    archive.write_bytes(bytes(data))
    refused(run_hostile, store, ["pack", "install", "corrupt.dqpack"], "DQ7027")
    refused(run_hostile, store, ["pack", "validate", "corrupt.dqpack"], "DQ7027")


@pytest.mark.parametrize("entries", [
    [("notes", b"a file"), ("notes/x.txt", b"and a folder")],
    [("notes/x.txt", b"a folder"), ("notes", b"and a file")],
    [("notes/", b""), ("notes", b"a file")],
])
def test_a_name_used_as_file_and_folder_is_refused(run_hostile, store, entries):
    """Entries `notes` then `notes/x.txt` raised FileExistsError: exit 70."""
    cwd, _ = store
    mkzip(cwd / "clash.dqpack", [*pack_files().items(), *entries])
    refused(run_hostile, store, ["pack", "install", "clash.dqpack"], "DQ7023")


# -- item 12: spellings, replacements, entry counts -----------------------------------------------

CAFE_NFC = unicodedata.normalize("NFC", "decks/café.txt")
CAFE_NFD = unicodedata.normalize("NFD", "decks/café.txt")


def test_nfc_and_nfd_spellings_of_one_name_are_refused_in_a_folder(run_hostile, store):
    cwd, _ = store
    decks = ("decks/hero.txt", CAFE_NFC, CAFE_NFD)
    write_folder(cwd / "spelt", {**pack_files(decks=decks), CAFE_NFC: DECK.encode(), CAFE_NFD: DECK.encode()})
    refused(run_hostile, store, ["pack", "validate", "spelt"], "DQ7004")
    refused(run_hostile, store, ["pack", "install", "spelt"], "DQ7004")


@pytest.mark.parametrize("other", [CAFE_NFD, "decks/CAFÉ.txt"], ids=["nfd", "case"])
def test_two_spellings_of_one_name_are_refused_in_an_archive(run_hostile, store, other):
    cwd, _ = store
    files = {**pack_files(decks=("decks/hero.txt", CAFE_NFC, other)), CAFE_NFC: DECK.encode(),
             other: DECK.encode()}
    mkzip(cwd / "spelt.dqpack", list(files.items()))
    refused(run_hostile, store, ["pack", "install", "spelt.dqpack"], "DQ7023")


def test_300000_entries_are_refused_before_they_are_read(run_hostile, store):
    """300,000 entries cost 178 MB before the 2,000-entry limit refused them."""
    cwd, _ = store
    many_entries_zip(cwd / "many.dqpack", 300_000)
    count = subprocess.run([sys.executable, "-c", "import sys, zipfile; "
                            "print(len(zipfile.ZipFile(sys.argv[1]).infolist()))", "many.dqpack"],
                           cwd=cwd, capture_output=True, text=True).stdout  # a real zip (read elsewhere:
    assert count == "300000\n"                                              # this process stays small)
    # 128 MB of address space: reading the entry list first ended in MemoryError (exit 70) here.
    result = refused(run_hostile, store, ["pack", "install", "many.dqpack"], "DQ7021", memory_mb=128, seconds=5)
    assert "300000 entries" in result.stderr


def test_a_strangers_pack_with_the_same_name_and_version_needs_force(run_hostile, store):
    cwd, home = store
    stranger = write_folder(cwd.parent / "stranger", pack_files(name="base"))
    (stranger / "tiny.quest").write_text(SCENARIO.replace('"Up."', '"Pwned."'))
    result = refused(run_hostile, store, ["pack", "install", str(stranger)], "DQ7042")
    assert "--force" in result.stderr
    assert result.stderr.startswith(f"{stranger}/pack.yaml:2:")  # the user's folder, not a staging copy
    same = write_folder(cwd.parent / "same", pack_files(name="base"))
    assert cli(["pack", "install", str(same)], cwd, home).stdout == \
        "base 1.0.0 is already installed, with the same contents\n"
    forced = cli(["pack", "install", "--force", str(stranger)], cwd, home)
    assert forced.stdout == "installed base 1.0.0 (replacing the installed 1.0.0, whose contents differed)\n"
    assert "Pwned." in (home / "packs" / "base" / "tiny.quest").read_text()


def test_a_downgrade_needs_allow_downgrade(run_hostile, store):
    cwd, home = store
    newer = write_folder(cwd.parent / "newer", pack_files(name="base", version="1.1.0"))
    assert cli(["pack", "install", str(newer)], cwd, home).stdout == "installed base 1.1.0 (replacing 1.0.0)\n"
    older = write_folder(cwd.parent / "older", pack_files(name="base", version="1.0.0"))
    result = refused(run_hostile, store, ["pack", "install", str(older)], "DQ7043")
    assert "--allow-downgrade" in result.stderr
    done = cli(["pack", "install", "--allow-downgrade", str(older)], cwd, home)
    assert done.stdout == "installed base 1.0.0 (replacing 1.1.0)\n"


# -- the pack's work budget and the number of problems shown -------------------------------------

def test_a_pack_over_its_script_count_budget_is_refused_before_compiling(run_hostile, store):
    cwd, _ = store
    names = [f"s{i:03d}.quest" for i in range(200)]
    write_folder(cwd / "wide", {**pack_files(scenarios=("tiny.quest", *names)),
                                **{n: SCENARIO.encode() for n in names}})
    result = refused(run_hostile, store, ["pack", "validate", "wide"], "DQ7012", seconds=10)
    assert "201 scripts" in result.stderr


def test_a_pack_over_its_script_bytes_budget_is_refused_before_compiling(run_hostile, store):
    """Five scripts under the 1 MB script limit each, 4.5 MB in all: refused without compiling."""
    cwd, _ = store
    names = [f"s{i}.quest" for i in range(5)]
    body = (SCENARIO + "# " + "x" * 900_000 + "\n").encode()
    files = {**pack_files(scenarios=("tiny.quest", *names)), **{n: body for n in names}}
    mkzip(cwd / "heavy.dqpack", list(files.items()))
    refused(run_hostile, store, ["pack", "install", "heavy.dqpack"], "DQ7012", seconds=10)


def test_the_scenarios_of_a_pack_share_one_compile_budget(run_hostile, store):
    """Ten scenarios using one 900 KB library: 1.1 MB listed, but 9 MB compiled (each `use` compiles
    it again). Each compile is within its own 4 MB; the pack's shared budget (8 MiB) refuses."""
    cwd, _ = store
    library = ("flag alarm\n" + ("# " + "x" * 97 + "\n") * 9000).encode()
    names = [f"s{i}.quest" for i in range(10)]
    text = manifest(scenarios=names, extra="libraries:\n  - lib.quest\n")
    write_folder(cwd / "shared", {"pack.yaml": text.encode(), "decks/hero.txt": DECK.encode(),
                                  "lib.quest": library,
                                  **{n: ('use "lib.quest"\n' + SCENARIO).encode() for n in names}})
    refused(run_hostile, store, ["pack", "validate", "shared"], "DQ0100", seconds=15)


def test_a_pack_of_many_problems_reports_at_most_a_hundred(run_hostile, store):
    cwd, _ = store
    write_folder(cwd / "messy", {**pack_files(), **{f"junk/{i:04d}.txt": b"x" for i in range(1500)}})
    result = refused(run_hostile, store, ["pack", "validate", "messy"], "DQ7008", max_stderr=40_000)
    assert result.stderr.count("error[DQ7008]") == 100 and "1,400 more errors not shown" in result.stderr


# -- items 8 and 10: killed installs, concurrent installs and readers -----------------------------

def test_a_killed_install_leaves_nothing_the_next_command_does_not_clean(kill_while_writing, folders):
    """kill -9 during an install left `.staging-*` that `pack list` and the next install kept.
    The install is ended as it copies the first file over 1 KB into its staging folder."""
    cwd, home = folders
    packs = home / "packs"
    kill_while_writing(["pack", "install", str(EXAMPLES)], cwd=cwd, env_home=home, size=1024)
    assert any(p.name.startswith(".staging-") for p in packs.iterdir())  # the debris of the kill
    listed = cli(["pack", "list"], cwd, home)
    assert listed.returncode == 0
    assert sorted(p.name for p in packs.iterdir()) == []


LOCK_HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_reader_leaves_a_running_install_alone(store):
    """A `pack list` or `run` between an install's two renames triggered recover_interrupted."""
    cwd, home = store
    packs = home / "packs"
    (packs / ".staging-k3j2h1g0" / "pack").mkdir(parents=True)
    (packs / ".old-base-a1b2c3d4").mkdir()
    (packs / "base").rename(packs / ".old-base-a1b2c3d4" / "pack")  # mid-swap: old aside, new not in
    before = tree(packs)
    holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(home / "packs.lock")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        listed = cli(["pack", "list"], cwd, home)
        assert listed.returncode == 0 and "base" not in listed.stdout
        assert tree(packs) == before  # the install's staging and aside folders are untouched
    finally:
        holder.stdin.close()
        holder.wait()
    listed = cli(["pack", "list"], cwd, home)
    assert listed.stdout.startswith("base 1.0.0")
    assert sorted(p.name for p in packs.iterdir()) == ["base"]


def test_concurrent_installs_and_readers_never_fail(store):
    """Installs run one at a time under the lock; readers in between never end in exit 70."""
    cwd, home = store
    env = {**os.environ, "DECKQUEST_HOME": str(home), "PYTHONPATH": str(SRC)}
    sources = [write_folder(cwd.parent / f"p{i}", pack_files(name=f"pack{i}")) for i in range(3)]
    sources += [write_folder(cwd.parent / f"b{v}", pack_files(name="base", version=v)) for v in ("1.1.0", "1.2.0")]
    commands = [["pack", "install", str(s)] for s in sources] + [["pack", "list"]] * 4
    children = [subprocess.Popen([sys.executable, "-m", "deckquest", *c], cwd=cwd, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    results = [(c, child.communicate(timeout=120)) for c, child in zip(commands, children)]
    for (command, (out, err)), child in zip(results, children):
        if command[-1].endswith("b1.1.0") and "DQ7043" in err:
            continue  # 1.2.0 came first: the older version is refused, as it should be
        assert child.returncode == 0, (command, err)
    listed = cli(["pack", "list"], cwd, home).stdout
    assert "base 1.2.0" in listed and all(f"pack{i} 1.0.0" in listed for i in range(3))
    assert sorted(p.name for p in (home / "packs").iterdir()) == ["base", "pack0", "pack1", "pack2"]
