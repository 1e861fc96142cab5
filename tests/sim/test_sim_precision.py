"""`sim --precision P`: chunks until every ending's and battle outcome's 95% Wilson interval
is narrower than ±P, decided on prefixes of chunks in seed order, so the same script, seed
and precision give the same report on any number of jobs (T-6: the battle's outcomes)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner
from sim_helpers import SCENARIOS, report_schema

from deckquest.cli import main
from deckquest.sim import simulate
from deckquest.sim.batch import InOrder, Player, make_batch
from deckquest.sim.precision import Precision, PrecisionChunks, parse_precision
from deckquest.sim.stats import wilson_interval

SKIRMISH = SCENARIOS / "skirmish.quest"  # one horde battle decides the ending
TWO_CHECKS = SCENARIOS / "two_checks.quest"


def widest_half_width(data: dict) -> float:
    """From the report alone: the widest 95% half-width of an ending's share (over the runs)
    or of a battle outcome's (over that battle's fights)."""
    widths = []
    for count in data["endings"].values():
        low, high = wilson_interval(count, data["runs"])
        widths.append((high - low) / 2)
    for row in data["battles"]:
        for count in row["outcomes"].values():
            low, high = wilson_interval(count, row["battles"])
            widths.append((high - low) / 2)
    return max(widths)


def without_precision(data: dict) -> dict:
    return {key: value for key, value in data.items() if key not in ("precision", "runs_requested")}


@pytest.mark.parametrize("script, agent", [(SKIRMISH, "random"), (TWO_CHECKS, "best")])
def test_stops_at_the_first_chunk_whose_runs_know_every_share_to_P(script, agent):
    """At the stop every interval is narrower than ±P; at the end of the chunk before, one is
    not; and the report is exactly the plain report of that many runs."""
    report = simulate(script, runs=100_000, seed=5, jobs=1, agent=agent, precision=0.03)
    runs = report.runs
    assert report.data["precision"]["reached"] is True
    assert widest_half_width(report.data) < 0.03
    assert report.data["precision"]["widest"]["half_width"] == pytest.approx(widest_half_width(report.data), abs=1e-6)
    boundaries = [stop for _, stop in PrecisionChunks(100_000)]
    assert runs in boundaries and 100 < runs < 5_000
    before = boundaries[boundaries.index(runs) - 1]
    assert widest_half_width(simulate(script, runs=before, seed=5, jobs=1, agent=agent).data) >= 0.03
    plain = simulate(script, runs=runs, seed=5, jobs=1, agent=agent)
    assert without_precision(plain.data) == without_precision(report.data)


def test_battle_outcomes_count_toward_the_rule():
    """T-6: in the skirmish the random agent escapes most battles; its rare defeats (about 4%)
    are what the ending shares do not show, and the report names the widest share left."""
    report = simulate(SKIRMISH, runs=100_000, seed=1, jobs=1, agent="random", precision=0.02)
    assert report.data["battles"][0]["outcomes"].keys() >= {"defeat", "escape"}
    assert report.data["precision"]["widest"]["what"].startswith(("ending", "battle at line"))


def test_same_report_on_one_and_two_jobs():
    one = simulate(SKIRMISH, runs=100_000, seed=3, jobs=1, agent="random", precision=0.02)
    two = simulate(SKIRMISH, runs=100_000, seed=3, jobs=2, agent="random", precision=0.02)
    assert one.to_json() == two.to_json()
    assert one.runs < 100_000


def test_the_rule_sees_prefixes_only_whatever_order_chunks_finish_in():
    """Chunks handed over out of order wait for the ones before them: the stop falls at the
    same run, and a later chunk that finished first is not counted."""
    batch = make_batch(SKIRMISH, agent="random", seed=3)
    player = Player(batch)
    chunks = list(PrecisionChunks(2_000))
    tallies = [player.play(start, stop) for start, stop in chunks]
    rule = Precision(0.03)
    in_order = InOrder(player.map, rule)
    for number, tally in enumerate(tallies):
        in_order.add(number, tally)
        if in_order.stopped:
            break
    stop_chunk, stop_at = number, in_order.tally.runs
    assert 0 < stop_chunk < len(tallies) - 1
    scrambled = InOrder(player.map, rule)
    # the chunks before the stop in reverse order, then the one after the stop before it
    order = list(reversed(range(stop_chunk))) + [stop_chunk + 1, stop_chunk] + list(range(stop_chunk + 2, len(tallies)))
    for number in order:
        scrambled.add(number, tallies[number])
    assert scrambled.stopped and scrambled.tally.runs == stop_at
    assert scrambled.tally.endings == in_order.tally.endings


def test_cap_reached_says_so():
    report = simulate(TWO_CHECKS, runs=200, seed=0, jobs=1, precision=0.01)
    assert report.runs == 200 and report.data["precision"]["reached"] is False
    assert "not reached in 200 runs (the cap, -n)" in report.text()


def test_parse_precision():
    assert parse_precision("2%") == pytest.approx(0.02)
    assert parse_precision("0.02") == pytest.approx(0.02)
    for bad in ("2x", "0", "50%", "-1%"):
        with pytest.raises(Exception, match="--precision"):
            parse_precision(bad)


def test_cli_text_json_and_html_say_how_many_runs(tmp_path):
    result = CliRunner().invoke(main, ["sim", str(SKIRMISH), "--agent", "random", "--precision", "3%", "--jobs", "1",
                                       "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "r.json").read_text())
    jsonschema.validate(data, report_schema(), cls=jsonschema.Draft202012Validator)
    line = f"Precision: every ending and battle outcome known to ±3 points (95%) after {data['runs']:,} runs"
    assert line in result.stdout
    assert data["runs_requested"] == 100_000 and data["precision"]["target"] == 0.03
    assert line in (tmp_path / "r.html").read_text()


def test_cli_rejects_a_bad_precision():
    result = CliRunner().invoke(main, ["sim", str(SKIRMISH), "--precision", "two"])
    assert result.exit_code == 2 and "--precision must be a share" in result.stderr
    assert "Traceback" not in result.output
