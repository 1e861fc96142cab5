"""Files that are not what they say (issue 28, item 1): each is refused with its coded error,
through the CLI, within the budgets of docs/hostile.md, with nothing left behind.

Every file deckquest reads goes through `deckquest.files.open_regular`, which refuses a FIFO or
a device without blocking on it and reads at most the limit plus one byte. A FIFO that blocked
would be caught by `run_hostile`'s time limit, not by a sleep here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
