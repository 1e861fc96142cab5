"""The hostile corpus: inputs built to exhaust, crash or litter, each refused within a budget.

Every hostile test runs one deckquest command the way a user would (``python -m deckquest
...`` in a subprocess) under a memory limit (RLIMIT_AS) and a CPU-time limit (RLIMIT_CPU), then
asserts the promises of docs/packs.md ("Limits and budgets"):

- exit code 1 or 2 (a user error), never 70 (internal error), a crash or a timeout;
- a coded message ``error[DQxxxx]`` on stderr, no ``Traceback``;
- stderr of bounded size (``max_stderr`` bytes);
- nothing left behind: no new file or folder in the working folder or in $DECKQUEST_HOME.

Budgets are CPU time (user + system, the command's and its worker processes'), never wall-clock
time: a command's wall time grows with whatever else the machine runs, its CPU time does not, so
the corpus passes on a busy machine (docs/development.md, "The test suite"). A wall-clock limit
remains only as a guard against a command that blocks without using CPU (a FIFO read for ever):
``HANG_GUARD`` seconds, far beyond any command's need even with every core busy.

Hostile inputs are generated in tmp_path at test time; none is committed.

Use (any test module in tests/hostile/)::

    def test_something(run_hostile, folders):
        cwd, home = folders                      # fresh, empty folders in tmp_path
        (cwd / "bad.quest").write_text(...)
        result = run_hostile(["check", "bad.quest"], cwd=cwd, env_home=home, code="DQ0100")
        assert result.seconds < 5                # CPU seconds; figures are returned for reports

``run_hostile(args, *, cwd, env_home, memory_mb=512, seconds=20, code=None, max_stderr=65_536,
expect_refusal=True, file_size=None, when=()) -> Result(returncode, stdout, stderr, seconds, peak_kb, wall_seconds)``.
``seconds`` is the command's CPU budget: more fails the test. With ``expect_refusal=False`` only
the limits are enforced (no crash, no traceback, bounded stderr, within CPU time and memory),
for a command that may legitimately succeed; ``code`` is a code (or code prefix such as
``"DQ70"``) that must appear in stderr. ``file_size`` (bytes) stands for a full disk; ``when``
acts on what the command says as it runs (see `run_command`).
"""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
CODED = re.compile(r"error\[DQ\d{4}\]")

#: Wall-clock seconds after which a command is taken to hang and is killed: only for commands
#: that block without using CPU (their budget is CPU time, `seconds`). The slowest hostile command
#: (four scripts of 245,700 errors in one `check`) uses 7 to 10 s of CPU; with 2 cores and a load
#: average of 14 it gets a seventh of a core, about 50 to 70 s. pytest-timeout (240 s, pyproject.toml)
#: stays above the guard, so a hang fails with this message, not pytest-timeout's.
HANG_GUARD = 180


@dataclass(frozen=True)
class Result:
    """What one hostile command did: its exit code, its output and what it cost."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float  # CPU seconds, user + system, of the command and the workers it waited for
    peak_kb: int  # the command's maximum resident set size (getrusage of that one process)
    wall_seconds: float  # for reports only: it depends on the machine's load, never assert on it


#: The command runs as the child of this small launcher, not of pytest: a process's maximum
#: resident set size (`ru_maxrss`) counts the image it was forked from until it exec'd, so a
#: command forked straight from pytest reported pytest's own size (over 150 MB late in a full
#: run) instead of its own. The launcher applies the limits, starts its own process group,
#: forks the command, reaps it with wait4 and writes the command's `ru_maxrss` (KB) on fd 3;
#: it exits as the command did. Ctrl-C (SIGINT) reaches the command through the group. The same
#: wait4 gives the command's CPU time (its own and that of the workers it reaped), written after
#: the peak. RLIMIT_CPU ends a command (SIGXCPU) that spins past its budget.
_LAUNCHER = """
import os, resource, signal, sys
memory, cpu, file_size, report = (int(argument) for argument in sys.argv[1:5])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
if file_size:  # a full disk: no file may grow past this (EFBIG; Python ignores SIGXFSZ)
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
signal.signal(signal.SIGINT, lambda *_: None)  # the command's to answer; reset to default by exec
pid = os.fork()
if pid == 0:
    os.close(report)  # only the launcher writes the report, and its end closes with it
    os.execv(sys.executable, [sys.executable, "-m", "deckquest", *sys.argv[5:]])
_, status, usage = os.wait4(pid, 0)
os.write(report, f"{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}".encode())
if os.WIFSIGNALED(status):  # end as the command ended (SIGKILL cannot be given a handler)
    if os.WTERMSIG(status) != signal.SIGKILL:
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
    os.kill(os.getpid(), os.WTERMSIG(status))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def _own_group() -> None:
    """Runs in the launcher before exec: its own process group, so a timeout kills the command
    and any worker processes too, and Ctrl-C reaches the command."""
    os.setsid()


def _tree(folder: Path) -> set[str]:
    if not folder.exists():
        return set()
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _read(handle, cap: int) -> str:
    handle.seek(0)
    return handle.read(cap).decode("utf-8", errors="replace")


#: (what the command's stderr shows, what to do then: a callable, or None for Ctrl-C)
Step = tuple[str, Callable[[], None] | None]


def run_command(args: list[str], *, cwd: Path, env_home: Path, memory_mb: int = 512,
                seconds: float = 20, max_output: int = 1_048_576, interrupt: signal.Signals | None = None,
                file_size: int | None = None, when: Sequence[Step] = ()) -> Result:
    """Run `python -m deckquest ARGS` in `cwd` under the limits; output read up to max_output.

    `seconds` is the command's CPU budget (RLIMIT_CPU ends it past that); a command still
    running after HANG_GUARD wall-clock seconds fails the test. `interrupt` (SIGINT, as Ctrl-C
    at the terminal; SIGTERM, as `timeout` or CI) is sent once the command has written to stderr:
    for commands that run as long as they are let (`sim -n 10000000000 --progress`, whose first
    progress line says the batch is running), whatever time the machine takes to get there.
    `file_size` bytes: no file the command writes may grow past it (RLIMIT_FSIZE), as if the
    disk were full. `when`: (TEXT, ACTION) steps taken in order as the command runs: once its
    stderr shows TEXT (after the previous step's), ACTION is called, or Ctrl-C is sent for
    None; so a test acts on what the command said, not after a guessed sleep.
    """
    env = {**os.environ, "DECKQUEST_HOME": str(env_home), "PYTHONPATH": str(SRC)}
    env.pop("DECKQUEST_DEBUG", None)
    limits = [str(memory_mb * 1024 * 1024), str(int(seconds) + 2), str(file_size or 0)]
    read_peak, write_peak = os.pipe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        try:
            child = subprocess.Popen([sys.executable, "-c", _LAUNCHER, *limits, str(write_peak), *args], cwd=cwd,
                                     env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                     pass_fds=(write_peak,), preexec_fn=_own_group)
        finally:
            os.close(write_peak)
        with os.fdopen(read_peak, "rb") as peak:
            written = (lambda: os.fstat(err.fileno()).st_size > 0) if interrupt is not None else None
            status, timed_out = _wait(child, interrupt, written, _Steps(when, err, max_output))
            elapsed = time.monotonic() - started
            reported = peak.read().split()
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        command = f"`deckquest {' '.join(args)[:200]}`"
        if timed_out:
            pytest.fail(f"{command} still ran after {HANG_GUARD} s: it hangs")
        if child.returncode == -signal.SIGXCPU:
            pytest.fail(f"{command} used more than its {seconds} s of CPU")
        peak_kb, cpu = (int(reported[0]), float(reported[1])) if reported else (0, 0.0)
        return Result(child.returncode, _read(out, max_output), _read(err, max_output), cpu, peak_kb, elapsed)


class _Steps:
    """The `when` steps of one command, taken as its stderr shows their texts."""

    def __init__(self, steps: Sequence[Step], err, cap: int):
        self.steps, self.err, self.cap = list(steps), err, cap
        self.position = 0  # where in stderr the previous step's text ended

    def take(self, group: int) -> None:
        while self.steps:
            # pread: the command writes through the same file offset, which a seek would move
            shown = os.pread(self.err.fileno(), self.cap, 0).decode("utf-8", errors="replace")
            text, action = self.steps[0]
            found = shown.find(text, self.position)
            if found < 0:
                return
            self.position = found + len(text)
            self.steps.pop(0)
            if action is None:
                os.killpg(group, signal.SIGINT)
            else:
                action()


def _wait(child: subprocess.Popen, interrupt: signal.Signals | None, written: Callable[[], bool] | None,
          steps: _Steps | None = None):
    """Reap the launcher (waitpid: not every child's); send `interrupt` to its group once
    `written()` says the command has written; take the `when` steps; kill the group after
    HANG_GUARD seconds."""
    deadline = time.monotonic() + HANG_GUARD
    while True:
        pid, status = os.waitpid(child.pid, os.WNOHANG)
        if pid:
            return status, False
        if interrupt is not None and written is not None and written():
            os.killpg(child.pid, interrupt)
            interrupt = None
        if steps is not None:
            steps.take(child.pid)
        if time.monotonic() > deadline:
            os.killpg(child.pid, signal.SIGKILL)
            _, status = os.waitpid(child.pid, 0)
            return status, True
        time.sleep(0.02)


def run_hostile(args: list[str], *, cwd: Path, env_home: Path, memory_mb: int = 512, seconds: float = 20,
                code: str | None = None, max_stderr: int = 65_536, expect_refusal: bool = True,
                file_size: int | None = None, when: Sequence[Step] = ()) -> Result:
    """Run a hostile command and assert it was refused cleanly within its budget (see module doc)."""
    cwd, env_home = Path(cwd), Path(env_home)
    before = (_tree(cwd), _tree(env_home))
    result = run_command(args, cwd=cwd, env_home=env_home, memory_mb=memory_mb, seconds=seconds,
                         max_output=max_stderr * 4, file_size=file_size, when=when)
    shown = f"`deckquest {' '.join(args)[:200]}` -> exit {result.returncode}\n{result.stderr[:2000]}"
    assert "Traceback" not in result.stderr, shown
    assert result.returncode not in (70,) and result.returncode >= 0, shown
    assert len(result.stderr.encode()) <= max_stderr, f"{len(result.stderr.encode()):,} bytes on stderr; " + shown
    assert result.seconds <= seconds, f"{result.seconds:.1f} s of CPU, over the budget of {seconds} s; " + shown
    if expect_refusal:
        assert result.returncode in (1, 2), shown
        assert CODED.search(result.stderr), "no coded error[DQxxxx] message: " + shown
        left = (_tree(cwd) - before[0], _tree(env_home) - before[1])
        assert left == (set(), set()), f"left behind in cwd / home: {left}; " + shown
    if code is not None:
        assert f"[{code}" in result.stderr, f"no [{code}...] in: " + shown
    return result


#: `python -m deckquest ARGS`, except that SIGXFSZ ends it: CPython ignores that signal at start,
#: so a write past RLIMIT_FSIZE would only fail (and be cleaned up) instead of ending the process.
_ENDED_BY_FILE_SIZE = ("import runpy, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); "
                       "sys.argv[0] = 'deckquest'; runpy.run_module('deckquest', run_name='__main__')")


def kill_while_writing(args: list[str], *, cwd: Path, env_home: Path, size: int) -> None:
    """Run `deckquest ARGS` until it writes a regular file past `size` bytes, where the kernel ends
    it (SIGXFSZ) as abruptly as kill -9: no handler, no `finally`, no cleanup runs.

    This stops the command at a point of its own work, however busy the machine, where a
    `kill -9` sent by the test would race the command (too early, or after it finished).
    """
    env = {**os.environ, "DECKQUEST_HOME": str(env_home), "PYTHONPATH": str(SRC),
           "PYTHONDONTWRITEBYTECODE": "1"}  # no .pyc written: the first file past `size` is the command's

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXFSZ dumps core by default

    ended = subprocess.run([sys.executable, "-c", _ENDED_BY_FILE_SIZE, *args], cwd=cwd, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, preexec_fn=limits, timeout=HANG_GUARD)
    assert ended.returncode == -signal.SIGXFSZ, \
        f"`deckquest {' '.join(args)}` ended with {ended.returncode} before writing {size} bytes:\n" \
        + ended.stderr.decode(errors="replace")[-2000:]


@pytest.fixture(name="kill_while_writing")
def kill_while_writing_fixture():
    """The `kill_while_writing` helper: a command ended abruptly at a point of its work."""
    return kill_while_writing


@pytest.fixture(name="run_hostile")
def run_hostile_fixture():
    """The `run_hostile` helper (see the module docstring)."""
    return run_hostile


@pytest.fixture(name="run_command")
def run_command_fixture():
    """The `run_command` helper: the limits of `run_hostile` without its assertions."""
    return run_command


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    """(working folder, $DECKQUEST_HOME): fresh folders; the home is not created up front."""
    cwd = tmp_path / "work"
    cwd.mkdir()
    return cwd, tmp_path / "home"
