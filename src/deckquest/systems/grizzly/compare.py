"""What does a ☆ option or a reading change? Two option sets played on the same seeds.

    python -m deckquest.systems.grizzly.compare SCRIPT "CHANGES" [-n 2000] [--seed 0] [--agent greedy]

CHANGES is a comma-separated list of ``option NAME`` (switch on), ``no option NAME`` (switch
off) and ``reading NAME VALUE``, applied to the script's own header: game A is the script as
written, game B the script with the changes. Game i of each is dealt from the same seed, so
the two differ only where the rules make them differ. The report gives each figure of A and
B and B - A with a 95% interval (win rates: Newcombe's interval for a difference of two
proportions; means: the normal interval of the difference).

``deckquest sim --compare`` is the place for this; the sim harness has no such option yet, so
the system offers it on its own (docs/grizzly.md, "A worked balance question").
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from typing import Any, Sequence

from deckquest.cards.database import default_database
from deckquest.dsl.resolver import compile_file
from deckquest.engine.game import play
from deckquest.errors import DeckquestError
from deckquest.systems.grizzly import config_of
from deckquest.systems.grizzly.agents import AGENTS, PolicyAgent
from deckquest.systems.grizzly.config import OPTIONS, READINGS, GrizzlyConfig
from deckquest.systems.grizzly.report import Z95, aggregate, row, wilson
from deckquest.systems.grizzly.state import GrizzlyState


def apply_changes(options: frozenset[str], readings: dict[str, str], changes: str) -> tuple[frozenset[str], dict[str, str]]:
    """The header's options and readings with CHANGES applied (ValueError names a bad one)."""
    switched, read = set(options), dict(readings)
    for part in (p.strip() for p in changes.split(",") if p.strip()):
        words = part.split()
        if words[:2] == ["no", "option"] and " ".join(words[2:]) in OPTIONS:
            switched.discard(" ".join(words[2:]))
        elif words[:1] == ["option"] and " ".join(words[1:]) in OPTIONS:
            switched.add(" ".join(words[1:]))
        elif len(words) == 3 and words[0] == "reading" and words[2] in READINGS.get(words[1], ()):
            read[words[1]] = words[2]
        else:
            raise ValueError(f"`{part}` is not `option NAME`, `no option NAME` or `reading NAME VALUE` "
                             f"(options: {', '.join(OPTIONS)}; readings: {', '.join(READINGS)})")
    return frozenset(switched), read


FIGURES = (("rounds", "Rounds"), ("turns", "Turns"), ("lap", "Lap Treasures"), ("dragon", "Dragon Treasures"),
           ("offers", "Co-op offers"), ("dashes", "Dashes"), ("lead_changes", "Lead changes"))


def play_games(config: GrizzlyConfig, table: Any, runs: int, seed: int,
               agent: str) -> tuple[Counter, dict[str, list[int]]]:
    """Rows (``report.row``) of ``runs`` games and each game's figures (``FIGURES``); game i
    is dealt from (seed, i)."""
    rows: Counter = Counter()
    figures: dict[str, list[int]] = {key: [] for key, _ in FIGURES}
    for index in range(runs):
        rng = random.Random(f"grizzly:{seed}:{index}")
        state = GrizzlyState.new(config, rng, table=table)
        agents = {seat.id: PolicyAgent(None, AGENTS[seat.agent or agent]()) for seat in config.seats}
        play(state, agents, rng)
        outcome = state.outcome()
        assert outcome is not None
        rows[row(outcome)] += 1
        record = outcome["record"]
        for key, value in (("rounds", outcome["round"]), ("turns", outcome["turns"]),
                           ("lap", record["sources"]["lap"]), ("dragon", record["sources"]["dragon"]),
                           ("offers", record["offers"]), ("dashes", record["dashes"]),
                           ("lead_changes", record["lead_changes"])):
            figures[key].append(value)
    return rows, figures


def _difference(a: int, b: int, n: int) -> tuple[float, float, float]:
    """B - A of two proportions over n games each, with Newcombe's 95% interval."""
    p1, p2 = a / n, b / n
    l1, u1 = wilson(a, n)
    l2, u2 = wilson(b, n)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def _mean_difference(a: Sequence[int], b: Sequence[int]) -> tuple[float, float, float]:
    def mean_var(values: Sequence[int]) -> tuple[float, float]:
        mean = sum(values) / len(values)
        return mean, sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)

    (ma, va), (mb, vb) = mean_var(a), mean_var(b)
    spread = Z95 * math.sqrt(va / len(a) + vb / len(b))
    return mb - ma, mb - ma - spread, mb - ma + spread


def compare(script: str, changes: str, runs: int = 2000, seed: int = 0, agent: str = "greedy") -> dict[str, Any]:
    """Play the script as written (A) and with ``changes`` (B) on the same seeds."""
    scenario = compile_file(script, default_database())
    options, readings = apply_changes(scenario.options, scenario.readings, changes)
    seats = [(seat, name) for seat, name, _, _ in scenario.system_table.seats]
    config_a, table_a = config_of(scenario)
    config_b, table_b = config_of(scenario, options, readings)
    rows_a, figures_a = play_games(config_a, table_a, runs, seed, agent)
    rows_b, figures_b = play_games(config_b, table_b, runs, seed, agent)
    a, b = aggregate(rows_a, seats), aggregate(rows_b, seats)
    return {
        "script": script, "changes": changes, "runs": runs, "seed": seed, "agent": agent, "a": a, "b": b,
        "seats": [{"seat": sa["seat"], "name": sa["name"], "a": sa["rate"], "b": sb["rate"],
                   "difference": _difference(sa["wins"], sb["wins"], runs)}
                  for sa, sb in zip(a["seats"], b["seats"])],
        "figures": [{"figure": key, "title": title, "a": sum(figures_a[key]) / runs, "b": sum(figures_b[key]) / runs,
                     "difference": _mean_difference(figures_a[key], figures_b[key])} for key, title in FIGURES],
    }


def format_text(data: dict[str, Any]) -> str:
    a, b = data["a"], data["b"]
    lines = [f"{data['script']}: {data['runs']} games each, seed {data['seed']}, agent {data['agent']}",
             "A: as written", f"B: {data['changes']}", "",
             "Seat            A win rate   B win rate   B - A [95% interval]"]
    for seat in data["seats"]:
        d, low, high = seat["difference"]
        lines.append(f"  {seat['name']:<14} {seat['a']:9.1%}   {seat['b']:9.1%}   {d:+6.1%} [{low:+.1%}, {high:+.1%}]")
    lines.append("")
    lines.append("Per game (mean)    A            B            B - A [95% interval]")
    for figure in data["figures"]:
        d, low, high = figure["difference"]
        lines.append(f"  {figure['title']:<16} {figure['a']:9.2f}   {figure['b']:9.2f}   {d:+6.2f} [{low:+.2f}, {high:+.2f}]")
    lines.append("")
    lines.append(f"Balance            {a['balance']:9.3f}   {b['balance']:9.3f}")
    lines.append(f"First-seat adv.    {a['first_seat_advantage']:+9.1%}   {b['first_seat_advantage']:+9.1%}   "
                 "(its difference is the first seat's above)")
    lines.append(f"Stopped games      {sum(a['stopped'].values()):9d}   {sum(b['stopped'].values()):9d}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deckquest.systems.grizzly.compare",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("script")
    parser.add_argument("changes", help='e.g. "no option dragon bounty, reading home square"')
    parser.add_argument("-n", "--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="greedy", choices=[name for name in AGENTS if name != "human"])
    args = parser.parse_args(argv)
    try:
        data = compare(args.script, args.changes, args.runs, args.seed, args.agent)
    except DeckquestError as error:
        print(error.render(), file=sys.stderr)
        return 1
    except ValueError as error:
        parser.error(str(error))
    sys.stdout.write(format_text(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
