"""Files that are not what they say, a home that cannot be written, a full disk (issue 28,
items 1, 7 and 9): each is refused with its coded error, through the CLI, within the budgets of
docs/hostile.md, with nothing left behind and no file half written.

Item 1: every file deckquest reads goes through `deckquest.files.open_regular`, which refuses a
FIFO or a device without blocking on it and reads at most the limit plus one byte. A FIFO that
blocked would be caught by `run_hostile`'s time limit, not by a sleep here.

Item 7: a read-only $DECKQUEST_HOME. The tests may run as root, whom `chmod 555` does not stop;
so the home is made unwritable in ways that stop root too: its lock file `packs.lock` is a
folder (an open for writing fails with EISDIR), its `packs` folder is a file, or the home
itself is a file. A `chmod -R a-w` home is tried as well where it means something (not as root).

Item 9: a full disk is simulated with RLIMIT_FSIZE (`run_hostile(file_size=...)`): a write that
would take a file past the limit fails with EFBIG, for root as for any user, with no mount and
no privilege (a small tmpfs needs both). deckquest treats EFBIG like ENOSPC and EDQUOT.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from test_hostile_packs import cli, pack_files, tree, write_folder

SRC = Path(__file__).resolve().parents[2] / "src"
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
HEADER = 'scenario "Hostile":\n    rules 2019\n\n'
SCRIPT = HEADER + 'start scene hall "Hall":\n    "A hall."\n    end victory\n'
PARTY = """party:
  - id: kai
    name: Kai
    deck: {deck}
    critical:
      - card: Mountain
        copies: 3
"""
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def fifo(path: Path) -> None:
    os.mkfifo(path)


def zero(path: Path) -> None:
    """A link to /dev/zero: a device whose reads never end (`check` read 7.5 GB of it)."""
    path.symlink_to("/dev/zero")


SPECIAL = [fifo, zero]


@pytest.fixture
def toll(folders):
    """A loose copy of the Bandit Toll (no pack.yaml above it) in the working folder."""
    cwd, home = folders
    shutil.copytree(SCENARIOS / "bandit_toll", cwd / "toll")
    return cwd, home


# ------------------------------------------------------------------ item 1: one bounded reader


@pytest.mark.parametrize("command", ["check", "run"])
@pytest.mark.parametrize("make", SPECIAL, ids=lambda make: make.__name__)
def test_a_script_that_is_a_fifo_or_a_device_is_refused_without_reading_it(run_hostile, folders, command, make):
    """Item 1: `check f.quest` on a FIFO hung for ever; on a link to /dev/zero it read 7.5 GB
    (the 1 MB limit was checked on `st_size`, then the file was read whole)."""
    cwd, home = folders
    make(cwd / "f.quest")
    result = run_hostile([command, "f.quest"], cwd=cwd, env_home=home, code="DQ0014", memory_mb=256, seconds=15)
    assert "not a regular file" in result.stderr
    assert result.peak_kb < 100_000


def test_a_script_linked_to_a_plain_file_is_read(run_hostile, folders):
    """A loose file the user names may be a link: it is followed (only a pack's files may not be links)."""
    cwd, home = folders
    (cwd / "real.quest").write_text(SCRIPT)
    (cwd / "link.quest").symlink_to("real.quest")
    result = run_hostile(["check", "link.quest"], cwd=cwd, env_home=home, expect_refusal=False)
    assert result.returncode == 0 and "link.quest: ok" in result.stderr


def _library(cwd: Path, home: Path, make) -> list[str]:
    (cwd / "main.quest").write_text(HEADER + 'use "lib.quest" as lib\n\nstart scene hall "Hall":\n    end victory\n')
    make(cwd / "lib.quest")
    return ["check", "main.quest"]


def _deck(cwd: Path, home: Path, make) -> list[str]:
    (cwd / "toll" / "decks" / "mono_red.txt").unlink()
    make(cwd / "toll" / "decks" / "mono_red.txt")
    return ["check", "toll/bandit_toll.quest"]


def _party(cwd: Path, home: Path, make) -> list[str]:
    make(cwd / "party.yaml")
    return ["run", "toll/bandit_toll.quest", "--party", "party.yaml"]


def _save(cwd: Path, home: Path, make) -> list[str]:
    make(cwd / "save.json")
    return ["run", "toll/bandit_toll.quest", "--resume", "save.json"]


def _cards(cwd: Path, home: Path, make) -> list[str]:
    make(cwd / "cards.json")
    return ["cards", "import", "cards.json"]


def _sim_report(cwd: Path, home: Path, make) -> list[str]:
    make(cwd / "report.json")
    return ["graph", "toll/bandit_toll.quest", "--sim", "report.json"]


def _archive(cwd: Path, home: Path, make) -> list[str]:
    (home / "packs").mkdir(parents=True)  # as an earlier install left them: the install's
    (home / "packs.lock").touch()         # lock is not what this test is about
    make(cwd / "raid.dqpack")
    return ["pack", "install", "raid.dqpack"]


# A link to /dev/zero named by a script leads out of the script's folder: refused as such (DQ0050)
# before anything is opened. Named on the command line, it is followed, then refused.
KINDS = [(_library, fifo, "DQ0014"), (_library, zero, "DQ0050"), (_deck, fifo, "DQ1008"), (_deck, zero, "DQ0050"),
         *((kind, make, code) for kind, code in [(_party, "DQ9020"), (_save, "DQ9001"), (_cards, "DQ8001"),
                                                 (_sim_report, "DQ0015"), (_archive, "DQ7020")]
           for make in SPECIAL)]


@pytest.mark.parametrize("kind, make, code", KINDS, ids=[f"{kind.__name__[1:]}-{make.__name__}" for kind, make, _ in KINDS])
def test_every_kind_of_file_refuses_a_fifo_or_a_device_with_its_own_code(run_hostile, toll, kind, make, code):
    """Item 1: `use`d libraries, deck lists, party files, saves, card data, sim reports (`graph
    --sim` read a FIFO for ever) and pack archives all go through the one reader, each with its
    own code."""
    cwd, home = toll
    result = run_hostile(kind(cwd, home, make), cwd=cwd, env_home=home, code=code, memory_mb=256, seconds=15)
    assert ("not a regular file" if code != "DQ0050" else "symbolic link") in result.stderr
    assert result.peak_kb < 150_000


def test_a_party_file_linked_to_a_plain_file_is_read(run_hostile, toll):
    """A party file was refused when it was a link (it was read as a pack's file is)."""
    cwd, home = toll
    (cwd / "toll" / "mine.yaml").write_text(PARTY.format(deck="decks/mono_red.txt"))
    (cwd / "toll" / "party.yaml").unlink()
    (cwd / "toll" / "party.yaml").symlink_to("mine.yaml")
    result = run_hostile(["run", "toll/bandit_toll.quest", "--party", "toll/party.yaml"], cwd=cwd, env_home=home,
                         expect_refusal=False, seconds=15)
    assert result.returncode == 0 and "party: Kai" in result.stdout


def test_watch_survives_the_script_becoming_a_fifo(run_hostile, folders):
    """Item 1: `check --watch a.quest`, then `rm a.quest; mkfifo a.quest`, hung for ever. The
    watch reports the FIFO (DQ0014) and keeps watching: a plain file again is checked again."""
    cwd, home = folders
    script = cwd / "a.quest"
    script.write_text(SCRIPT)

    def to_fifo() -> None:
        script.unlink()
        os.mkfifo(script)

    def to_file() -> None:
        script.unlink()
        script.write_text(SCRIPT)

    result = run_hostile(["check", "--watch", "a.quest"], cwd=cwd, env_home=home, seconds=30, expect_refusal=False,
                         code="DQ0014", when=[("watching 1 file", to_fifo), ("error[DQ0014]", to_file),
                                              ("a.quest: ok", None)])
    assert result.returncode == 0 and result.stderr.rstrip().endswith("stopped watching")
    assert "a FIFO" in result.stderr


#: The reader with its first look (stat/lstat) fooled into seeing a plain file, as when a FIFO is
#: swapped in between the look and the open: the open descriptor must still be refused.
SWAPPED = """
import os, sys
from deckquest.files import NotRegularFile, read_regular
path, follow = sys.argv[1], sys.argv[2] == "follow"
plain = os.stat(sys.argv[3])
for name in ("stat", "lstat"):
    real = getattr(os, name)
    setattr(os, name, lambda target, *a, real=real, **k: plain if os.fspath(target) == path else real(target, *a, **k))
try:
    read_regular(path, 100, follow_links=follow)
except NotRegularFile as error:
    print(error.strerror)
"""


@pytest.mark.parametrize("follow", ["follow", "no-follow"])
def test_a_fifo_swapped_in_after_the_look_is_refused_without_blocking(tmp_path, follow):
    """Item 1: `read_bounded` looked (stat), then opened: a FIFO swapped in between blocked the
    open for ever. The open never blocks, and the open descriptor is looked at again (fstat).
    The subprocess's timeout is the guard: a blocked open would hang it."""
    os.mkfifo(tmp_path / "swapped.quest")
    (tmp_path / "plain.quest").write_text(SCRIPT)
    done = subprocess.run([sys.executable, "-c", SWAPPED, str(tmp_path / "swapped.quest"), follow,
                           str(tmp_path / "plain.quest")], capture_output=True, text=True, timeout=20,
                          env={**os.environ, "PYTHONPATH": str(SRC)})
    assert done.stdout.strip() == "it is a FIFO (named pipe), not a regular file", done.stderr


NO_FLAGS = """
import os, sys
for name in ("O_NONBLOCK", "O_NOFOLLOW", "set_blocking"):
    delattr(os, name)
from deckquest.files import read_regular
print(read_regular(sys.argv[1], 100).decode(), end="")
"""


def test_the_reader_works_without_the_flags_windows_lacks(tmp_path):
    """Windows has no O_NONBLOCK, O_NOFOLLOW (nor, before Python 3.12, os.set_blocking): the
    module imports and reads a plain file without them."""
    (tmp_path / "plain.quest").write_text(SCRIPT)
    done = subprocess.run([sys.executable, "-c", NO_FLAGS, str(tmp_path / "plain.quest")], capture_output=True,
                          text=True, timeout=20, env={**os.environ, "PYTHONPATH": str(SRC)})
    assert done.stdout == SCRIPT, done.stderr


# ------------------------------------------------------------------ item 7: a home that cannot be written


def _lock_is_a_folder(home: Path) -> None:
    (home / "packs.lock").unlink()
    (home / "packs.lock").mkdir()


def _packs_is_a_file(home: Path) -> None:
    shutil.rmtree(home / "packs")
    (home / "packs").write_text("")


def _home_is_a_file(home: Path) -> None:
    shutil.rmtree(home)
    home.write_text("")


def _read_only(home: Path) -> None:
    """`chmod -R a-w`: what a user sees; root writes through it, so it is skipped there."""
    if ROOT:
        pytest.skip("root writes through permission bits; the other cases stop root too")
    for path in [home, *home.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


UNWRITABLE = [_lock_is_a_folder, _packs_is_a_file, _home_is_a_file, _read_only]


@pytest.fixture
def installed(folders):
    """(cwd, home): the pack `base` installed in home, and a pack `raid` in cwd ready to install."""
    cwd, home = folders
    write_folder(cwd / "base", pack_files(name="base"))
    assert cli(["pack", "install", "base"], cwd, home).returncode == 0
    shutil.rmtree(cwd / "base")
    write_folder(cwd / "raid", pack_files(name="raid"))
    yield cwd, home
    for path in [home, *home.rglob("*")] if home.is_dir() else []:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)  # so that tmp_path can be removed


@pytest.mark.parametrize("spoil", UNWRITABLE, ids=lambda spoil: spoil.__name__[1:])
@pytest.mark.parametrize("command", [["pack", "install", "raid"], ["pack", "remove", "base"]], ids=["install", "remove"])
def test_a_home_that_cannot_be_written_refuses_installs_and_removals(run_hostile, installed, spoil, command):
    """Item 7: with a read-only DECKQUEST_HOME, `pack install` and `pack remove` ended in exit 70
    (`OSError: [Errno 30]` on packs.lock). Now DQ7052, naming what could not be written, and the
    installed packs are left as they were."""
    cwd, home = installed
    spoil(home)
    before = tree(home) if home.is_dir() else home.read_bytes()
    result = run_hostile(command, cwd=cwd, env_home=home, code="DQ7052", seconds=15)
    assert (tree(home) if home.is_dir() else home.read_bytes()) == before
    assert "DECKQUEST_HOME" in result.stderr


def test_reading_the_packs_needs_no_write(run_hostile, installed):
    """`pack list` (and `run PACK/SCENARIO`) only repair a killed install when they can: with the
    lock unwritable they read the packs as they are."""
    cwd, home = installed
    _lock_is_a_folder(home)
    result = run_hostile(["pack", "list"], cwd=cwd, env_home=home, expect_refusal=False)
    assert result.returncode == 0 and "base" in result.stdout


@pytest.mark.parametrize("spoil", [_home_is_a_file, _read_only], ids=lambda spoil: spoil.__name__[1:])
def test_a_home_that_cannot_be_written_refuses_a_card_import(run_hostile, installed, spoil):
    cwd, home = installed
    (cwd / "cards.json").write_text(json.dumps([{"object": "card", "name": "Grizzly Bears", "type_line": "Creature"}]))
    spoil(home)
    run_hostile(["cards", "import", "cards.json"], cwd=cwd, env_home=home, code="DQ8008", seconds=15)


# ------------------------------------------------------------------ item 9: a full disk, and a party's deck

FULL = 64 * 1024  # bytes a file may grow to: the disk is "full" past it


def test_a_full_disk_during_an_install_blames_the_disk_not_the_archive(run_hostile, installed):
    """Item 9: a full disk during `pack install` said DQ7027 "entry SHA256SUMS cannot be unpacked"
    (the archive's fault). Now DQ7052 "no space left on device writing <the packs folder>", for
    an archive and for a folder; the installed packs are left as they were."""
    cwd, home = installed
    listed = "files:\n  - music.txt\n"
    write_folder(cwd / "big", {**pack_files(name="big", extra=listed), "music.txt": os.urandom(FULL).hex().encode()})
    assert cli(["pack", "build", "big"], cwd, home).returncode == 0
    before = tree(home)
    for source in ["big-1.0.0.dqpack", "big"]:
        result = run_hostile(["pack", "install", source], cwd=cwd, env_home=home, code="DQ7052", file_size=FULL,
                             seconds=15)
        assert f"no space left on device writing {home / 'packs'}" in result.stderr
        assert "DQ7027" not in result.stderr
        assert tree(home) == before
    run_hostile(["pack", "validate", "big-1.0.0.dqpack"], cwd=cwd, env_home=home, code="DQ7052", file_size=FULL)


def test_a_full_disk_during_a_build_leaves_no_archive(run_hostile, installed):
    cwd, home = installed
    write_folder(cwd / "big", {**pack_files(name="big", extra="files:\n  - music.txt\n"),
                               "music.txt": os.urandom(FULL).hex().encode()})
    result = run_hostile(["pack", "build", "big"], cwd=cwd, env_home=home, code="DQ7053", file_size=FULL)
    assert f"no space left on device writing {cwd / 'big-1.0.0.dqpack'}" in result.stderr


def test_a_full_disk_during_a_save_keeps_the_previous_save(run_hostile, toll):
    """Item 9: `run --save` on a full disk printed no DQ code. Now DQ9008, and the save that was
    there is kept whole (a save of the Bandit Toll holds 16 KB; the disk has room for 8 KB)."""
    cwd, home = toll
    (cwd / "save.json").write_text("the previous save\n")
    result = run_hostile(["run", "toll/bandit_toll.quest", "--agent", "human", "--save", "save.json"], cwd=cwd,
                         env_home=home, code="DQ9008", file_size=8 * 1024, seconds=15)
    assert "no space left on device writing save.json" in result.stderr
    assert (cwd / "save.json").read_text() == "the previous save\n"


@pytest.mark.parametrize("args", [["sim", "toll/bandit_toll.quest", "-n", "20", "--jobs", "1", "--json", "out.json"],
                                  ["sim", "toll/bandit_toll.quest", "-n", "20", "--jobs", "1", "--html", "out.html"],
                                  ["graph", "toll/bandit_toll.quest", "-o", "out.svg"]],
                         ids=["sim-json", "sim-html", "graph"])
def test_a_full_disk_during_a_report_is_DQ0016(run_hostile, toll, args):
    """Item 9: `sim --json` on a full disk printed no DQ code (a report of 20 runs holds 9 KB)."""
    cwd, home = toll
    result = run_hostile(args, cwd=cwd, env_home=home, code="DQ0016", file_size=4 * 1024, seconds=30)
    assert f"no space left on device writing {args[-1]}" in result.stderr


def test_a_full_disk_during_a_card_import_changes_nothing(run_hostile, installed):
    cwd, home = installed
    cards = [{"object": "card", "name": f"Bear {i}", "oracle_id": f"bear{i}", "type_line": "Creature — Bear",
              "mana_cost": "{1}{G}", "cmc": 2} for i in range(2_000)]
    (cwd / "cards.json").write_text(json.dumps(cards))
    before = tree(home)
    run_hostile(["cards", "import", "cards.json"], cwd=cwd, env_home=home, code="DQ8008", file_size=FULL, seconds=15)
    assert tree(home) == before


@pytest.mark.parametrize("deck", ["/etc/passwd", "C:/Windows/win.ini"])
def test_a_loose_party_files_deck_is_not_said_to_be_in_a_pack(run_hostile, toll, deck):
    """Item 9: a loose party file with `deck: /etc/passwd` was told "a path inside a pack must be
    relative": it is in no pack."""
    cwd, home = toll
    (cwd / "toll" / "party.yaml").write_text(PARTY.format(deck=deck))
    result = run_hostile(["run", "toll/bandit_toll.quest", "--party", "toll/party.yaml"], cwd=cwd, env_home=home,
                         code="DQ9024", seconds=15)
    assert "pack" not in result.stderr.splitlines()[0]
    assert "a path " in result.stderr
