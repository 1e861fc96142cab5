"""`deckquest graph` (issue 18, item 16): the scenes and their exits as SVG, DOT and Mermaid,
each exit labelled with the branch that takes it and, from a sim report, its rate."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree

import pytest
from click.testing import CliRunner
from sim_helpers import ROOT, SCENARIOS

from deckquest.cli import main

CAVE = ROOT / "scenarios" / "goblin_cave" / "goblin_cave.quest"


def graph(*args: str):
    return CliRunner().invoke(main, ["graph", *args])


def dot_edges(text: str) -> set[tuple[str, str, str]]:
    return {(source, target, label.replace('\\"', '"'))
            for source, target, label in re.findall(r'"([^"]+)" -> "([^"]+)"(?: \[label="((?:[^"\\]|\\.)*)"\])?;', text)}


def test_dot_has_every_scene_ending_and_exit_with_its_branch():
    result = graph(str(CAVE), "--format", "dot")
    assert result.exit_code == 0, result.output
    assert '"gate" [label="The Cave Gate", shape=box, peripheries=2];' in result.output  # the start scene
    assert '"end:victory" [label="victory", shape=ellipse];' in result.output
    edges = dot_edges(result.output)
    assert ("gate", "hall", '"Push the boulder aside" / Move the boulder: success') in edges
    assert ("gate", "side_tunnel", '"Look for another way in"') in edges
    assert ("side_tunnel", "hall", "") in edges  # a scene that always takes its exit
    assert ("hall", "gate", "battle: escape") in edges
    assert ("throne", "end:defeat", "battle: defeat") in edges
    assert len(edges) == 9


def test_rates_come_from_the_sim_reports_line_hits(tmp_path):
    report_path = tmp_path / "cave.json"
    assert CliRunner().invoke(main, ["sim", str(CAVE), "-n", "60", "--json", str(report_path)]).exit_code == 0
    report = json.loads(report_path.read_text("utf-8"))
    result = graph(str(CAVE), "--format", "dot", "--sim", str(report_path))
    assert result.exit_code == 0, result.output
    lines = CAVE.read_text("utf-8").splitlines()
    escape_line = next(n for n, text in enumerate(lines, 1) if "-> gate" in text)
    rate = report["lines"]["hits"][str(escape_line)] / report["runs"]
    assert f'"hall" -> "gate" [label="battle: escape\\n{100 * rate:.1f}%"];' in result.output
    assert report["graph"]["exits"] and all(e["rate"] is not None for e in report["graph"]["exits"])


def test_mermaid_and_svg(tmp_path):
    mermaid = graph(str(CAVE), "--format", "mermaid").output
    assert mermaid.startswith("flowchart TD\n")
    assert '["The Cave Gate (start)"]' in mermaid and '(["victory"])' in mermaid
    out = tmp_path / "cave.svg"
    assert graph(str(CAVE), "-o", str(out)).exit_code == 0
    svg = ElementTree.fromstring(out.read_text("utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.findall(f"{ns}g[@class='node']")) == 6  # four scenes, two endings
    assert len(svg.findall(f"{ns}g[@class='exit']")) == 9


def test_a_report_of_another_script_is_refused(tmp_path):
    report_path = tmp_path / "loop.json"
    assert CliRunner().invoke(main, ["sim", str(SCENARIOS / "loop.quest"), "-n", "5", "--max-steps", "50",
                                     "--json", str(report_path)]).exit_code == 0
    result = graph(str(CAVE), "--sim", str(report_path))
    assert result.exit_code == 1
    assert "is a report of" in result.output and "Traceback" not in result.output
    junk = tmp_path / "junk.json"
    junk.write_text("[[[", encoding="utf-8")
    result = graph(str(CAVE), "--sim", str(junk))
    assert result.exit_code == 1 and "not a JSON sim report" in result.output


@pytest.mark.parametrize("fmt", ["svg", "dot", "mermaid"])
def test_a_trigger_exit_comes_from_any_scene(tmp_path, fmt):
    script = tmp_path / "t.quest"
    script.write_text(
        'scenario "T":\n    players 1 to 1\n    rules 2019\n\n'
        'when after 5 minutes:\n    end "lost" "Time ran out."\n\n'
        'start scene road "Road":\n    wait 1 minute\n    -> road\n', encoding="utf-8")
    result = graph(str(script), "--format", fmt)
    assert result.exit_code == 0, result.output
    assert "any scene" in result.output and "lost" in result.output


def test_the_html_report_shows_the_graph(tmp_path):
    from deckquest.sim import simulate

    html = tmp_path / "report.html"
    simulate(CAVE, runs=30, jobs=1).write_html(html)
    page = html.read_text("utf-8")
    assert '<h2 id="graph">Scenes and exits</h2>' in page and 'class="scene-graph"' in page
