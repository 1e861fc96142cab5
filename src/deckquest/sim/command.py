"""`deckquest sim` and `deckquest tune`: the library calls behind the commands.

The report goes to stdout; the progress bar, the timing line and notes go to stderr, so
``deckquest sim … > report.txt`` keeps a clean report.
"""

from __future__ import annotations

from typing import Callable

from deckquest.i18n import _, language, ngettext
from deckquest.errors import UsageError
from deckquest.runtime.command import compile_script, party_members
from deckquest.signals import exit_code, signal_of


DEFAULT_RUNS = 2_000  # ending shares to about ±2 points
PRECISION_CAP = 100_000  # the most runs --precision plays when -n does not say


def sim(script: str, *, runs: int | None, seed: int, jobs: int | None, party, agent: str, json_file, html_file,
        max_steps: int, progress: bool, echo: Callable[..., None], precision: str | None = None,
        scheduler: str | None = None, scheduler_timeout: float | None = None) -> int:
    """Run the batch, print the text report, write the files; the exit code (128 + the signal
    after Ctrl-C or SIGTERM, which stop the batch between chunks: deckquest.signals)."""
    from deckquest.sim.batch import simulate
    from deckquest.sim.precision import parse_precision
    from deckquest.sim.progress import ProgressBar

    target = parse_precision(precision) if precision is not None else None
    if runs is None:
        runs = DEFAULT_RUNS if target is None else PRECISION_CAP
    if scheduler is not None and jobs is not None:
        raise UsageError("--jobs is for worker processes on this machine; with --scheduler the cluster's "
                         "workers play the runs", hint="leave out --jobs, or --scheduler")
    for output in (json_file, html_file):
        check_output_folder(output)
    bar = ProgressBar() if progress else None
    try:
        report = simulate(compile_script(script), runs, seed, jobs, party=party_members(party), agent=agent,
                          max_steps=max_steps, progress=bar, precision=target, scheduler=scheduler,
                          scheduler_timeout=scheduler_timeout, party_file=party)
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
        with language(report.language):
            if scheduler is not None:
                echo(ngettext("{runs:,} runs in {seconds:.2f} s on {count} worker thread ({rate:,.0f} runs/s)",
                              "{runs:,} runs in {seconds:.2f} s on {count} worker threads ({rate:,.0f} runs/s)",
                              report.jobs, runs=report.runs, seconds=report.elapsed, rate=rate), err=True)
            else:
                echo(ngettext("{runs:,} runs in {seconds:.2f} s on {count} job ({rate:,.0f} runs/s)",
                              "{runs:,} runs in {seconds:.2f} s on {count} jobs ({rate:,.0f} runs/s)", report.jobs,
                              runs=report.runs, seconds=report.elapsed, rate=rate), err=True)
    if report.interrupted:
        with language(report.language):
            echo(_("interrupted: the report covers the {runs:,} runs finished", runs=report.runs), err=True)
        return exit_code(report.stopped_by)
    return 0


def compare_command(script: str, changes: str, *, runs: int, seed: int, jobs: int | None, party, agent: str,
                    json_file, max_steps: int, echo: Callable[..., None]) -> int:
    """`sim --compare`: the script as written and with CHANGES on the same seeds (sim/compare.py).
    Interrupted, it compares nothing: the two batches' runs would not be the same runs."""
    import json

    from deckquest.sim.compare import compare, format_text
    from deckquest.sim.report import write_atomically

    check_output_folder(json_file)
    try:
        data = compare(compile_script(script), changes, runs, seed, jobs, agent=agent, party=party_members(party),
                       max_steps=max_steps)
    except KeyboardInterrupt as interrupt:
        echo(_("interrupted: nothing compared"), err=True)
        return exit_code(signal_of(interrupt))
    if json_file:
        write_atomically(json_file, json.dumps(data, indent=2) + "\n")
    echo(format_text(data), nl=False)
    return 0


def check_output_folder(path) -> None:
    """Fail before a long batch, not after it, when a report file cannot be written there."""
    from pathlib import Path

    from deckquest.errors import DeckquestError, file_span
    from deckquest.sim.report import UNWRITABLE_OUTPUT

    if path and not Path(path).parent.is_dir():
        raise DeckquestError(_("cannot write {path}: the folder {parent} does not exist", path=path, parent=Path(path).parent),
                             file_span(path), hint=_("create the folder first, or write the report elsewhere"),
                             code=UNWRITABLE_OUTPUT)


def explore_command(script: str, *, party, seed: int, max_steps: int, json_file, html_file,
                    echo: Callable[..., None]) -> int:
    """`sim --explore`: exit 1 when a path gets stuck or fails, as `check` does for errors."""
    import json

    from deckquest.sim.explore import explore
    from deckquest.sim.report import write_atomically

    if html_file:
        raise UsageError(_("--html goes with random runs; --explore prints its findings and writes --json"))
    check_output_folder(json_file)
    report = explore(compile_script(script), party=party_members(party), seed=seed, max_steps=max_steps)
    if json_file:
        write_atomically(json_file, json.dumps(report.as_dict(), indent=2) + "\n")
    echo(report.text(), nl=False)
    return 1 if report.problems else 0


def tune(script: str, *, check: str, target: str, runs: int, seed: int, jobs: int | None, party,
         agent: str, max_steps: int, echo: Callable[..., None]) -> int:
    """`deckquest tune`: the exit code (interrupted, it finds no difficulty)."""
    from deckquest.sim.tune import parse_target, tune as find_difficulty

    try:
        result = find_difficulty(compile_script(script), check, parse_target(target), runs=runs, seed=seed,
                                 jobs=jobs, party=party_members(party), agent=agent, max_steps=max_steps)
    except KeyboardInterrupt as interrupt:
        echo(_("interrupted: no difficulty found"), err=True)
        return exit_code(signal_of(interrupt))
    echo(result.text(), nl=False)
    return 0




MAX_REPORT_BYTES = 64 * 1024 * 1024  # a sim JSON report of a huge script is a few MB
UNREADABLE_REPORT = "DQ0015"  # `graph --sim FILE` is not a readable sim report of the script


def graph(script: str, *, fmt: str, sim_json, output, echo: Callable[..., None]) -> None:
    """`deckquest graph`: the scene graph as SVG, DOT or Mermaid, with exit rates from a sim
    JSON report when one is given."""
    from deckquest.sim.batch import load
    from deckquest.sim.graph import exit_rates, render, scene_graph
    from deckquest.sim.report import write_atomically

    scenario, _program = load(compile_script(script))
    graph_ = scene_graph(scenario)
    rates = exit_rates(graph_, read_report(sim_json, scenario), str(scenario.path)) if sim_json else None
    text = render(graph_, fmt, rates)
    if output:
        check_output_folder(output)
        write_atomically(output, text if text.endswith("\n") else text + "\n")
    else:
        echo(text, nl=not text.endswith("\n"))


def read_report(path, scenario) -> dict:
    """A `deckquest sim --json` report of this scenario (a DQ0015 user error otherwise)."""
    import json
    from pathlib import Path

    from deckquest.errors import DeckquestError, file_span
    from deckquest.files import TooLarge, read_regular

    path = Path(path)
    try:
        data = json.loads(read_regular(path, MAX_REPORT_BYTES).decode("utf-8"))
    except TooLarge:
        raise DeckquestError(_("{path} is larger than a sim report can be ({value} MB)", path=path, value=MAX_REPORT_BYTES // 2**20),
                             file_span(path), code=UNREADABLE_REPORT) from None
    except OSError as error:
        raise DeckquestError(_("cannot read {path}: {strerror}", path=path, strerror=error.strerror), file_span(path),
                             code=UNREADABLE_REPORT) from None
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise DeckquestError(_("{path} is not a JSON sim report", path=path), file_span(path),
                             hint=_("write one with: deckquest sim SCRIPT --json FILE"), code=UNREADABLE_REPORT) from None
    if not isinstance(data, dict) or not isinstance(data.get("lines"), dict) or "runs" not in data:
        raise DeckquestError(_("{path} is not a JSON sim report", path=path), file_span(path),
                             hint=_("write one with: deckquest sim SCRIPT --json FILE"), code=UNREADABLE_REPORT)
    title = data.get("scenario", {}).get("title") if isinstance(data.get("scenario"), dict) else None
    if title != scenario.title:
        raise DeckquestError(_("{path} is a report of \"{title}\", not of \"{title2}\"", path=path, title=title, title2=scenario.title), file_span(path),
                             hint=_("simulate this script again: deckquest sim SCRIPT --json FILE"), code=UNREADABLE_REPORT)
    return data
