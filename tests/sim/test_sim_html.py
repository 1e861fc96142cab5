"""`--html`: one self-contained page, rendered in a real browser (headless Chromium)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from sim_helpers import SHRINE

from deckquest.sim import simulate
from deckquest.sim.html import render_page

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine: .ci/run installs Debian's chromium package; "
                "elsewhere install chromium to run the browser test")


def headless(tmp_path, *args) -> subprocess.CompletedProcess:
    command = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    report = simulate(SHRINE, runs=500, seed=0, jobs=1)
    path = folder / "report.html"
    report.write_html(path)
    return report, path


def test_page_is_self_contained(page):
    _, path = page
    html = path.read_text("utf-8")
    assert not re.search(r"<script|<link|<img|@import|url\(|src=", html, re.IGNORECASE)
    assert set(re.findall(r"https?://[^\"' )]+", html)) <= {"http://www.w3.org/2000/svg"}  # a namespace


def test_untrusted_text_is_escaped():
    from deckquest.sim.html import bar_chart, table

    assert "<b>" not in bar_chart("t", [("<b>x</b>", 0.5, "<i>")])
    assert "&lt;script&gt;" in table(["h"], [["<script>"]])


@pytest.mark.slow
def test_rendered_in_chromium(page, tmp_path):
    report, path = page
    result = headless(tmp_path, "--dump-dom", path.as_uri())
    dom = result.stdout
    assert "VERY HARD" in dom or report.data["verdict"]["headline"] in dom
    for heading in ("Endings", "Scene funnel", "Checks: simulated success", "Player characters"):
        assert heading in dom
    charts = re.findall(r'<svg class="chart"[^>]*aria-label="([^"]+)"', dom)
    assert {"Ending shares", "Scene reach", "Check success"} <= set(charts)
    assert any(label.startswith("Life lost by") for label in charts)
    bars = re.findall(r'<rect class="bar simulated"[^>]*width="([0-9.]+)"', dom)
    assert len(bars) == len(report.data["checks"])  # one simulated bar per check site
    assert all(float(width) > 0 for width in bars)
    shot = tmp_path / "page.png"
    headless(tmp_path, f"--screenshot={shot}", "--window-size=1000,1400", path.as_uri())
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_interrupted_report_says_so(page):
    report, _ = page
    data = dict(report.data, interrupted=True, runs_requested=1000)
    assert "interrupted: 500 of 1,000 runs" in render_page(data)
