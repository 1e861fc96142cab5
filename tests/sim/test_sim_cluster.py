"""`sim --scheduler ADDRESS`: the same batch on a Dask cluster, byte for byte the local report
(runs seeded from (S, i) alone, chunk tallies added in chunk order), tested on a 2-worker
LocalCluster of processes (the tasks and tallies really are pickled, as on a cluster)."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from sim_helpers import SCENARIOS, SHRINE

from deckquest.cli import main
from deckquest.sim import simulate

SKIRMISH = SCENARIOS / "skirmish.quest"


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (the `cluster` extra)")
    # The workers' scratch folder in tmp_path, not Dask's shared /tmp/dask-scratch-space.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  local_directory=str(tmp_path_factory.mktemp("dask"))) as cluster:
        yield cluster.scheduler_address


def test_cluster_report_is_byte_identical_to_a_local_one(scheduler):
    local = simulate(SHRINE, runs=300, seed=11, jobs=1)
    remote = simulate(SHRINE, runs=300, seed=11, scheduler=scheduler)
    assert remote.to_json() == local.to_json()
    assert remote.text() == local.text()
    assert remote.jobs == 2  # the cluster's worker threads


def test_precision_stops_at_the_same_run_on_a_cluster(scheduler):
    """T-6: the skirmish's battle outcomes decide the stop; the cluster stops where one job does."""
    local = simulate(SKIRMISH, runs=100_000, seed=3, jobs=1, agent="random", precision=0.02)
    remote = simulate(SKIRMISH, runs=100_000, seed=3, agent="random", precision=0.02, scheduler=scheduler)
    assert remote.to_json() == local.to_json() and local.runs < 100_000


def test_cli_scheduler_writes_the_local_json(scheduler, tmp_path):
    runner = CliRunner()
    for name, extra in (("local", ["--jobs", "1"]), ("cluster", ["--scheduler", scheduler])):
        result = runner.invoke(main, ["sim", str(SHRINE), "-n", "200", "--json", str(tmp_path / f"{name}.json"), *extra],
                               catch_exceptions=False)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "cluster.json").read_bytes() == (tmp_path / "local.json").read_bytes()


def test_without_dask_the_option_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    result = CliRunner().invoke(main, ["sim", str(SHRINE), "-n", "20", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2
    assert "--scheduler needs Dask" in result.stderr and "deckquest[cluster]" in result.stderr
    assert "Traceback" not in result.output


def test_jobs_and_scheduler_together_are_refused():
    result = CliRunner().invoke(main, ["sim", str(SHRINE), "--jobs", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and "--jobs is for worker processes" in result.stderr


def test_a_scheduler_without_workers_is_a_usage_error():
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (the `cluster` extra)")
    from deckquest.errors import UsageError

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty:
        with pytest.raises(UsageError, match="has no workers"):
            simulate(SHRINE, runs=20, scheduler=empty.scheduler_address)
