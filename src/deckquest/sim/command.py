"""`deckquest sim` and `deckquest tune`: the library calls behind the commands.

The report goes to stdout; the progress bar, the timing line and notes go to stderr, so
``deckquest sim … > report.txt`` keeps a clean report.
"""

from __future__ import annotations

from typing import Callable

from deckquest.errors import UsageError
from deckquest.runtime.command import compile_script, party_members

INTERRUPTED = 130  # the shell's code for "stopped by Ctrl-C"


def sim(script: str, *, runs: int, seed: int, jobs: int | None, party, agent: str, json_file, html_file,
        max_steps: int, progress: bool, echo: Callable[..., None]) -> int:
    """Run the batch, print the text report, write the files; the exit code."""
    from deckquest.sim.batch import simulate
    from deckquest.sim.progress import ProgressBar

    for output in (json_file, html_file):
        check_output_folder(output)
    bar = ProgressBar() if progress else None
    try:
        report = simulate(compile_script(script), runs, seed, jobs, party=party_members(party), agent=agent, max_steps=max_steps,
                          progress=bar)
    finally:
        if bar is not None:
            bar.close()
    if json_file:
        report.write_json(json_file)
    if html_file:
        report.write_html(html_file)
    echo(report.text(), nl=False)
    if progress:  # with the bar, the final speed; without it (a pipe, CI) stderr stays quiet
        rate = report.runs / report.elapsed if report.elapsed else 0.0
        echo(f"{report.runs:,} runs in {report.elapsed:.2f} s on {report.jobs} job"
             f"{'s' if report.jobs != 1 else ''} ({rate:,.0f} runs/s)", err=True)
    if report.interrupted:
        echo(f"interrupted: the report covers the {report.runs:,} runs finished", err=True)
        return INTERRUPTED
    return 0


def check_output_folder(path) -> None:
    """Fail before a long batch, not after it, when a report file cannot be written there."""
    from pathlib import Path

    from deckquest.errors import DeckquestError, file_span

    if path and not Path(path).parent.is_dir():
        raise DeckquestError(f"cannot write {path}: the folder {Path(path).parent} does not exist",
                             file_span(path), hint="create the folder first, or write the report elsewhere")


def explore_command(script: str, *, party, seed: int, max_steps: int, json_file, html_file,
                    echo: Callable[..., None]) -> int:
    """`sim --explore`: exit 1 when a path gets stuck or fails, as `check` does for errors."""
    import json

    from deckquest.sim.explore import explore
    from deckquest.sim.report import write_atomically

    if html_file:
        raise UsageError("--html goes with random runs; --explore prints its findings and writes --json")
    check_output_folder(json_file)
    report = explore(compile_script(script), party=party_members(party), seed=seed, max_steps=max_steps)
    if json_file:
        write_atomically(json_file, json.dumps(report.as_dict(), indent=2) + "\n")
    echo(report.text(), nl=False)
    return 1 if report.problems else 0


def tune(script: str, *, check: str, target: str, runs: int, seed: int, jobs: int | None, party,
         agent: str, max_steps: int, echo: Callable[..., None]) -> None:
    from deckquest.sim.tune import parse_target, tune as find_difficulty

    result = find_difficulty(compile_script(script), check, parse_target(target), runs=runs, seed=seed, jobs=jobs,
                             party=party_members(party), agent=agent, max_steps=max_steps)
    echo(result.text(), nl=False)




MAX_REPORT_BYTES = 64 * 1024 * 1024  # a sim JSON report of a huge script is a few MB


def graph(script: str, *, fmt: str, sim_json, output, echo: Callable[..., None]) -> None:
    """`deckquest graph`: the scene graph as SVG, DOT or Mermaid, with exit rates from a sim
    JSON report when one is given."""
    from deckquest.files import write_atomically
    from deckquest.sim.batch import load
    from deckquest.sim.graph import exit_rates, render, scene_graph

    scenario, _ = load(compile_script(script))
    graph_ = scene_graph(scenario)
    rates = exit_rates(graph_, read_report(sim_json, scenario), str(scenario.path)) if sim_json else None
    text = render(graph_, fmt, rates)
    if output:
        check_output_folder(output)
        write_atomically(output, text if text.endswith("\n") else text + "\n")
    else:
        echo(text, nl=not text.endswith("\n"))


def read_report(path, scenario) -> dict:
    """A `deckquest sim --json` report of this scenario (a user error otherwise)."""
    import json
    from pathlib import Path

    from deckquest.errors import DeckquestError, file_span

    path = Path(path)
    try:
        if path.stat().st_size > MAX_REPORT_BYTES:
            raise DeckquestError(f"{path} is larger than a sim report can be ({MAX_REPORT_BYTES // 2**20} MB)",
                                 file_span(path))
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DeckquestError(f"cannot read {path}: {error.strerror}", file_span(path)) from None
    except (ValueError, RecursionError):
        raise DeckquestError(f"{path} is not a JSON sim report", file_span(path),
                             hint="write one with: deckquest sim SCRIPT --json FILE") from None
    if not isinstance(data, dict) or not isinstance(data.get("lines"), dict) or "runs" not in data:
        raise DeckquestError(f"{path} is not a JSON sim report", file_span(path),
                             hint="write one with: deckquest sim SCRIPT --json FILE")
    title = data.get("scenario", {}).get("title") if isinstance(data.get("scenario"), dict) else None
    if title != scenario.title:
        raise DeckquestError(f"{path} is a report of \"{title}\", not of \"{scenario.title}\"", file_span(path),
                             hint="simulate this script again: deckquest sim SCRIPT --json FILE")
    return data
