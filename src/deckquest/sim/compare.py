"""`deckquest sim --compare`: what a ☆ option or a reading changes, on the same seeds.

Game A is the script as written, game B the script with CHANGES: a comma-separated list of
``option NAME`` (switch on), ``no option NAME`` (switch off) and ``reading NAME VALUE``,
checked against the script's game system. Both batches go through ``simulate`` with the
same seed, so run i of A and run i of B are dealt from the same seed and differ only where
the rules make them differ. Each figure the system gives per run
(``GameSystem.compare_figures``) is reported for A and B with B - A and its 95% interval: a
share (a seat's win) by Newcombe's interval for a difference of two proportions, a mean by
the normal interval of the difference of two means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from deckquest.errors import UsageError
from deckquest.signals import interruption
from deckquest.sim.batch import load, simulate
from deckquest.sim.report import Report
from deckquest.sim.stats import Z95, wilson_interval
from deckquest.systems import GameSystem, system_of


def apply_changes(system: type[GameSystem], options: frozenset[str], readings: dict[str, str],
                  changes: str) -> tuple[frozenset[str], dict[str, str]]:
    """The header's options and readings with CHANGES applied (a usage error names a bad one)."""
    switched, read = set(options), dict(readings)
    values = system.reading_values()
    known = "; ".join([f"options: {', '.join(system.option_names()) or 'none'}"]
                      + [f"reading {name} {'|'.join(choices)}" for name, choices in values.items()])
    for part in (p.strip() for p in changes.split(",") if p.strip()):
        words = part.split()
        if words[:2] == ["no", "option"] and " ".join(words[2:]) in system.option_names():
            switched.discard(" ".join(words[2:]))
        elif words[:1] == ["option"] and " ".join(words[1:]) in system.option_names():
            switched.add(" ".join(words[1:]))
        elif len(words) == 3 and words[0] == "reading" and words[2] in values.get(words[1], ()):
            read[words[1]] = words[2]
        else:
            raise UsageError(f"--compare: `{part}` is not `option NAME`, `no option NAME` or `reading NAME VALUE` "
                             f"of {system.title or system.name} ({known})")
    return frozenset(switched), read


@dataclass
class _Sums:
    """A figure's runs, total and total of squares over one batch's rows."""

    kind: str
    runs: int = 0
    total: float = 0.0
    squares: float = 0.0

    def mean(self) -> float:
        return self.total / self.runs if self.runs else 0.0

    def variance(self) -> float:
        if self.runs < 2:
            return 0.0
        return max(0.0, (self.squares - self.total ** 2 / self.runs) / (self.runs - 1))


def _sums(system: type[GameSystem], report: Report) -> dict[str, _Sums]:
    sums: dict[str, _Sums] = {}
    for row, count in report.system_rows.items():
        for title, kind, value in system.compare_figures(row) or ():
            entry = sums.setdefault(title, _Sums(kind))
            entry.runs += count
            entry.total += value * count
            entry.squares += value * value * count
    return sums


def share_difference(a: int, n: int, b: int, m: int) -> tuple[float, float, float]:
    """B - A of two proportions (a of n, b of m) with Newcombe's 95% interval (method 10)."""
    p1, p2 = a / n, b / m
    l1, u1 = wilson_interval(a, n)
    l2, u2 = wilson_interval(b, m)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def mean_difference(a: _Sums, b: _Sums) -> tuple[float, float, float]:
    """B - A of two means with the normal 95% interval of the difference."""
    d = b.mean() - a.mean()
    spread = Z95 * math.sqrt((a.variance() / a.runs if a.runs else 0.0) + (b.variance() / b.runs if b.runs else 0.0))
    return d, d - spread, d + spread


def _figure(title: str, a: _Sums, b: _Sums) -> dict[str, Any]:
    if a.kind == "share":
        d, low, high = share_difference(round(a.total), a.runs, round(b.total), b.runs)
    else:
        d, low, high = mean_difference(a, b)
    return {"figure": title, "kind": a.kind, "a": round(a.mean(), 6), "b": round(b.mean(), 6),
            "difference": round(d, 6), "interval": [round(low, 6), round(high, 6)]}


def _setting(options: frozenset[str], readings: dict[str, str]) -> dict[str, Any]:
    return {"options": sorted(options), "readings": dict(sorted(readings.items()))}


def compare(script, changes: str, runs: int = 2000, seed: int = 0, jobs: int | None = None, *,
            agent: str = "best", **options: Any) -> dict[str, Any]:
    """Play ``script`` as written (A) and with ``changes`` (B) on the same seeds; the JSON data
    of ``format_text``. ``options`` as ``simulate``'s (``party``, ``max_steps``, ``progress``)."""
    scenario, _ = load(script)
    system = system_of(scenario)
    if system.compare_figures.__func__ is GameSystem.compare_figures.__func__:  # type: ignore[attr-defined]
        raise UsageError(f"--compare: the {system.title or system.name} system gives no figures to compare")
    switched, read = apply_changes(system, scenario.options, scenario.readings, changes)
    if (switched, read) == (scenario.options, scenario.readings):
        raise UsageError(f"--compare: `{changes}` changes nothing: the script is written that way already")
    changed = replace(scenario, options=switched, readings=read)
    a = simulate(scenario, runs, seed, jobs, agent=agent, **options)
    _go_on(a)
    b = simulate(changed, runs, seed, jobs, agent=agent, **options)
    _go_on(b)
    sums_a, sums_b = _sums(system, a), _sums(system, b)
    return {
        "scenario": {"title": scenario.title, "path": str(scenario.path), "system": system.name},
        "changes": changes, "runs": a.runs, "seed": seed, "agent": agent,
        "a": _setting(scenario.options, scenario.readings), "b": _setting(switched, read),
        "figures": [_figure(title, sums_a[title], sums_b.get(title, _Sums(sums_a[title].kind)))
                    for title in sums_a],
    }


def _go_on(report: Report) -> None:
    """An interrupted batch (Ctrl-C, SIGTERM) stops the comparison as a whole: the other
    batch would be played for nothing, and the runs of a partial batch are not the runs of
    the other one."""
    if report.interrupted:
        raise interruption(report.stopped_by)


def format_text(data: dict[str, Any]) -> str:
    width = max([len("figure")] + [len(figure["figure"]) for figure in data["figures"]])
    lines = [f"{data['scenario']['title']}: {data['runs']:,} runs each, seed {data['seed']}, agent {data['agent']}",
             "A: as written", f"B: {data['changes']}"]
    lines += ["", f"  {'figure':<{width}}          A           B   B - A [95% interval]"]
    for figure in data["figures"]:
        low, high = figure["interval"]
        if figure["kind"] == "share":
            cells = (f"{figure['a']:10.1%}  {figure['b']:10.1%}   {figure['difference']:+6.1%} "
                     f"[{low:+.1%}, {high:+.1%}]")
        else:
            cells = (f"{figure['a']:10.2f}  {figure['b']:10.2f}   {figure['difference']:+6.2f} "
                     f"[{low:+.2f}, {high:+.2f}]")
        lines.append(f"  {figure['figure']:<{width}} {cells}")
    return "\n".join(lines) + "\n"
