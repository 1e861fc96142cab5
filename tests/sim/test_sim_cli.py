"""`deckquest sim` and `deckquest tune` on the command line: thin layers over the library."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import jsonschema
import pytest
from click.testing import CliRunner
from sim_helpers import SCENARIOS, SHRINE, report_schema

from deckquest.cli import main


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_sim_prints_the_report_and_writes_json_and_html(tmp_path):
    result = invoke("sim", SHRINE, "-n", 300, "--seed", 2, "--jobs", 1,
                    "--json", tmp_path / "r.json", "--html", tmp_path / "r.html")
    assert result.exit_code == 0, result.output
    assert "Verdict:" in result.stdout and "Read the tide marks" in result.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    jsonschema.validate(data, report_schema(), cls=jsonschema.Draft202012Validator)
    assert data["runs"] == 300 and data["seed"] == 2
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]  # no temporary left


def test_json_is_the_same_for_one_and_two_jobs(tmp_path):
    for jobs in (1, 2):
        assert invoke("sim", SHRINE, "-n", 200, "--jobs", jobs, "--json", tmp_path / f"{jobs}.json").exit_code == 0
    assert (tmp_path / "1.json").read_text() == (tmp_path / "2.json").read_text()


def test_quiet_without_a_terminal():
    result = invoke("sim", SCENARIOS / "single_check.quest", "-n", 50, "--jobs", 1)
    assert result.exit_code == 0 and result.stderr == ""


def test_progress_bar_on_request():
    result = invoke("sim", SCENARIOS / "single_check.quest", "-n", 50, "--jobs", 1, "--progress")
    assert "ETA" in result.stderr and "runs/s" in result.stderr and "50 runs in" in result.stderr


def test_explore_exits_1_on_a_dead_end(tmp_path):
    result = invoke("sim", "--explore", SCENARIOS / "dead_end.quest", "--json", tmp_path / "e.json")
    assert result.exit_code == 1
    assert "Dead end in scene `hall`" in result.stdout and "forced to fail" in result.stdout
    data = json.loads((tmp_path / "e.json").read_text())
    assert data["stuck"][0]["scene"] == "hall"
    assert data["complete"] is True and data["situations"] == 2 and data["unreached_lines"] == [16]
    assert "Every alternative was tried in each of the 2 situations met" in result.stdout
    assert invoke("sim", "--explore", SHRINE).exit_code == 0


def test_tune_prints_difficulty_and_interval():
    result = invoke("tune", SCENARIOS / "single_check.quest", "--check", "Climb the cliff", "--target", "60%",
                    "-n", 300, "--jobs", 1, "--agent", "first")
    assert result.exit_code == 0, result.output
    assert "target 60%" in result.stdout and "95% interval" in result.stdout


@pytest.mark.parametrize("args", [
    ("sim", "nowhere.quest"),
    ("tune", SHRINE, "--check", "Nothing like it", "--target", "50%"),
    ("tune", SHRINE, "--check", "Read the tide marks", "--target", "lots"),
    ("sim", SHRINE, "--explore", "--html", "x.html"),
    ("sim", SHRINE, "-n", 20, "--jobs", 1, "--json", "no/such/folder/r.json"),
])
def test_user_errors_are_one_message_without_traceback(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code in (1, 2)
    assert "error" in result.stderr and "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_reports_the_runs_finished():
    process = subprocess.Popen(
        [sys.executable, "-m", "deckquest", "sim", str(SHRINE), "-n", "5000000", "--jobs", "2", "--progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a CI shell may ignore it
    try:
        assert process.stderr.read(1) == b"\r"  # the first progress line: the batch is running
        process.send_signal(signal.SIGINT)
        stdout, stderr = (stream.decode() for stream in process.communicate(timeout=60))
    finally:
        process.kill()
    assert process.returncode == 130
    assert "INTERRUPTED" in stdout and "Verdict:" in stdout
    assert "interrupted: the report covers" in stderr and "Traceback" not in stderr


def test_a_stuck_runs_replay_command_names_the_party_file():
    """The report's replay command plays the run it names: with the `--party` file the batch
    played (a run of the script's own PCs is another run)."""
    party = SHRINE.parent / "party.yaml"
    result = invoke("sim", SHRINE, "-n", 3, "--jobs", 1, "--party", party, "--max-steps", 3)
    assert result.exit_code == 0, result.output
    replays = [line for line in result.output.splitlines() if "replay: deckquest run" in line]
    assert replays and all(f"--party {party}" in line for line in replays), result.output
