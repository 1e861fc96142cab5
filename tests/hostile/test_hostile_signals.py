"""Signals (issue 28, item 4): `timeout`, systemd and CI stop a command with SIGTERM.

`sim --jobs N` killed by SIGTERM ended at once with no report and left its workers running
(alive 11 minutes later). SIGTERM now does what Ctrl-C does: the batch stops between chunks,
the partial report is written and marked interrupted, and the command exits 143 (128 + 15);
no worker process outlives its batch, even when the parent is killed with SIGKILL.

Every command here runs as a user's does (`python -m deckquest` in a subprocess, its own
session, so that a signal can go to its process group as `timeout` sends it). The batches
run with multiprocessing's default start method here (fork on Linux) and with `spawn`, the
default on macOS and Windows (and Python 3.14 starts workers from a server, not by a fork):
a forked worker inherits its parent's signal handlers, a spawned one starts with the
defaults. The tests wait for events (the progress line that says runs are done, the worker
processes, a prompt), never for a length of time; the deadlines only keep a broken build from
hanging the suite. Processes are found and watched through /proc, by pid.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
SINGLE_CHECK = ROOT / "tests" / "sim" / "scenarios" / "single_check.quest"
SHRINE = ROOT / "scenarios" / "drowned_shrine" / "drowned_shrine.quest"
SWORD_COAST = ROOT / "scenarios" / "sword_coast" / "sword_coast.quest"
HANG_GUARD = 120  # seconds: far past what any of these takes, even on a loaded machine

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds worker processes in /proc")


#: `python -m deckquest` whose worker processes start by the method named first (`spawn`).
WITH_START_METHOD = ("import multiprocessing, sys; multiprocessing.set_start_method(sys.argv.pop(1)); "
                     "from deckquest.cli import main; main(prog_name='deckquest')")


def start(args: list[str], cwd: Path, method: str = "default", **streams) -> subprocess.Popen:
    """`python -m deckquest ARGS` in a session of its own (its process group is its pid), its
    workers started by `method` (multiprocessing's start method)."""
    env = {**os.environ, "DECKQUEST_HOME": str(cwd / "home"), "PYTHONPATH": str(SRC)}
    env.pop("DECKQUEST_DEBUG", None)
    command = ["-m", "deckquest"] if method == "default" else ["-c", WITH_START_METHOD, method]
    return subprocess.Popen([sys.executable, *command, *args], cwd=cwd, env=env, start_new_session=True,
                            **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **streams})


def read_until(stream, marker: bytes) -> bytes:
    """What `stream` gives up to and including the first `marker` (a hang guard, no timing)."""
    seen = b""
    deadline = time.monotonic() + HANG_GUARD
    while marker not in seen:
        ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(stream.fileno(), 4096) if ready else b""
        assert chunk, f"no {marker!r} in the output: {seen[-2000:]!r}"
        seen += chunk
    return seen


def stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name, or None when there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text[text.rindex(")") + 2:].split()


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid`."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat(int(entry))
            if fields is not None and int(fields[1]) == pid:
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    """A process that still runs (a zombie waiting to be reaped has ended)."""
    fields = stat(pid)
    return fields is not None and fields[0] != "Z"


def is_worker(pid: int) -> bool:
    """A worker process, not multiprocessing's resource tracker (started beside spawned workers)."""
    try:
        return b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return False


def started_by(process: subprocess.Popen, workers: int) -> set[int]:
    """Every process `process` started, once `workers` worker processes are among them."""
    deadline = time.monotonic() + HANG_GUARD
    while sum(map(is_worker, found := {pid for pid in children(process.pid) if alive(pid)})) < workers:
        assert process.poll() is None and time.monotonic() < deadline, f"started: {found}"
        time.sleep(0.05)
    return found


def left_running(pids: set[int]) -> set[int]:
    """Those of `pids` still running once each had its chance to end (the hang guard bounds it)."""
    deadline = time.monotonic() + HANG_GUARD
    while (running := {pid for pid in pids if alive(pid)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running


def finish(process: subprocess.Popen) -> None:
    """Whatever a failed test left of the command and its workers: killed, and reaped."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


@pytest.mark.parametrize("target, method", [("process", "default"), ("group", "default"), ("group", "spawn")])
def test_sigterm_stops_sim_like_ctrl_c_with_its_partial_report(tmp_path, target, method):
    """Item 4: SIGTERM to `sim --jobs 2` (to the command, as `kill` sends it, or to its whole
    process group, workers included, as `timeout` and systemd do) stops the batch between
    chunks: the report of the runs finished on stdout and in --json, marked interrupted,
    exit 143, and no process it started left. Ctrl-C keeps its code, 130
    (tests/sim/test_sim_cli.py)."""
    process = start(["sim", str(SINGLE_CHECK), "-n", "100000000", "--jobs", "2", "--progress",
                     "--json", "report.json"], tmp_path, method)
    try:
        read_until(process.stderr, b" runs/s")  # the progress line: chunks of runs are done
        workers = started_by(process, 2)
        if target == "group":
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.send_signal(signal.SIGTERM)
        stdout, stderr = (stream.decode() for stream in process.communicate(timeout=HANG_GUARD))
    finally:
        finish(process)
    assert process.returncode == 143, stderr[-2000:]
    assert "Traceback" not in stderr and "interrupted: the report covers the" in stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["interrupted"] and 0 < report["runs"] < 100_000_000
    assert f"INTERRUPTED: {report['runs']:,} of 100,000,000 runs finished" in stdout
    assert left_running(workers) == set()


@pytest.mark.parametrize("method", ["default", "spawn"])
def test_workers_end_when_the_sim_is_killed(tmp_path, method):
    """Item 4: SIGKILL leaves the parent no chance to stop its workers; they end by themselves
    (each waits on its parent's end) instead of waiting for their next chunk for ever."""
    process = start(["sim", str(SINGLE_CHECK), "-n", "100000000", "--jobs", "4", "--progress"], tmp_path, method)
    try:
        read_until(process.stderr, b" runs/s")
        workers = started_by(process, 4)
        process.kill()
        process.wait()
        running = left_running(workers)
    finally:
        for pid in children(process.pid) | workers:  # a failure here must not leave them running
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        finish(process)
    assert running == set()


@pytest.mark.parametrize("command", [
    ["tune", str(SINGLE_CHECK), "--check", "Climb the cliff", "--target", "60%", "-n", "100000000"],
    ["sim", str(SWORD_COAST), "--compare", "no option dragon bounty", "-n", "100000000", "--agent", "first"],
], ids=["tune", "compare"])
def test_sigterm_stops_tune_and_compare_as_a_whole(tmp_path, command):
    """Item 4: the commands of several batches stop at the first interrupted one (the next
    trial or batch used to start after it): one line saying so, exit 143, no worker left."""
    process = start([*command, "--jobs", "2"], tmp_path)
    try:
        workers = started_by(process, 2)  # a batch is running
        os.killpg(process.pid, signal.SIGTERM)
        stdout, stderr = (stream.decode() for stream in process.communicate(timeout=HANG_GUARD))
    finally:
        finish(process)
    assert process.returncode == 143, stderr[-2000:]
    assert stderr.strip() in ("interrupted: no difficulty found", "interrupted: nothing compared"), stderr[-2000:]
    assert stdout == ""
    assert left_running(workers) == set()


def test_sigterm_saves_a_session_as_ctrl_c_does(tmp_path):
    """Item 4: `run --save` stopped by SIGTERM at a prompt saves the run (as Ctrl-C does) and
    exits 143; the save resumes at that prompt, and no temporary file is left beside it."""
    process = start(["run", str(SHRINE), "--agent", "human", "--save", "shrine.json"], tmp_path,
                    stdin=subprocess.PIPE)
    try:
        prompt = read_until(process.stdout, b"(enter = nothing): ")
        process.send_signal(signal.SIGTERM)
        _, stderr = (stream.decode() for stream in process.communicate(timeout=HANG_GUARD))
    finally:
        finish(process)
    assert process.returncode == 143, stderr[-2000:]
    assert "the run is saved to shrine.json" in stderr and "Traceback" not in stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shrine.json"]
    resumed = start(["run", str(SHRINE), "--resume", "shrine.json"], tmp_path, stdin=subprocess.DEVNULL)
    stdout, stderr = (stream.decode() for stream in resumed.communicate(timeout=HANG_GUARD))
    assert resumed.returncode == 0 and "Traceback" not in stderr, stderr[-2000:]
    question = prompt.decode()
    assert stdout.startswith(question[question.rindex("Before the choice"):]), (question[-600:], stdout[:600])


def ignores_sigterm(pid: int) -> bool:
    """Whether the process ignores SIGTERM (its SigIgn mask in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    raise AssertionError(f"no SigIgn for {pid}")


def test_sigterm_reaching_a_worker_still_starting_ends_the_batch_cleanly(tmp_path):
    """Item 4: `timeout` signals the whole process group, so SIGTERM can reach a worker
    spawned a moment ago, still importing, before it ignores the signal: it ends, and the
    process pool with it (BrokenProcessPool, exit 70 before). The batch stops as for any
    SIGTERM: the report of the runs finished (none here), exit 143, nothing left running."""
    process = start(["sim", str(SINGLE_CHECK), "-n", "100000000", "--jobs", "2", "--json", "report.json"],
                    tmp_path, "spawn")
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not any(b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes() and not ignores_sigterm(pid)
                      for pid in children(process.pid) if alive(pid)):
            assert process.poll() is None and time.monotonic() < deadline, "no worker seen starting"
            time.sleep(0.01)
        started = started_by(process, 0)
        os.killpg(process.pid, signal.SIGTERM)
        stdout, stderr = (stream.decode() for stream in process.communicate(timeout=HANG_GUARD))
    finally:
        finish(process)
    assert process.returncode == 143, stderr[-2000:]
    assert "Traceback" not in stderr and "INTERRUPTED" in stdout
    assert json.loads((tmp_path / "report.json").read_text())["interrupted"]
    assert left_running(started) == set()
