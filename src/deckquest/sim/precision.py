"""``sim --precision P``: play chunks of runs until every share the GM reads is known to ±P.

The shares are every ending's (over the runs) and every battle outcome's (over the battles
fought at that ``battle`` statement), each with its 95% Wilson interval
(``stats.wilson_interval``); the batch stops after the first chunk at whose end the widest
half-width is under P. The decision is taken on the runs of a *prefix* of chunks in
chunk order, never on whichever chunk a worker finished first, and chunk sizes depend on
the runs done alone (``PrecisionChunks``), so the same script, seed and precision stop at
the same run on any number of jobs or on a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from deckquest.errors import UsageError
from deckquest.sim.stats import wilson_interval

if TYPE_CHECKING:  # the report's page imports this module; it needs no interpreter
    from deckquest.sim.trace import ScriptMap, Tally

#: Chunk sizes grow with the runs done (1/16 of them), between these bounds: the overshoot
#: past the stopping point is at most ~6% of the runs, and small batches still stop early.
GROWTH = 16
MIN_CHUNK = 20
MAX_CHUNK = 250


def parse_precision(text: str) -> float:
    """``2%``, ``2 %`` or ``0.02`` -> 0.02: the half-width every interval must get under."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise UsageError(f"--precision must be a share like 2% or 0.02, not `{text}`") from None
    if not 0 < value < 0.5:
        raise UsageError(f"--precision must be above 0 and below 50%, not `{text}`",
                         hint="e.g. --precision 2% stops when every ending is known to ±2 points")
    return value


class PrecisionChunks:
    """Ranges of run indexes whose sizes depend on the runs done and the cap alone (not on
    the number of jobs): the stop rule is asked at the same runs whoever plays them."""

    def __init__(self, runs: int):
        self.runs = runs

    @staticmethod
    def size(start: int) -> int:
        return max(MIN_CHUNK, min(MAX_CHUNK, start // GROWTH))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        start = 0
        while start < self.runs:
            stop = min(start + self.size(start), self.runs)
            yield start, stop
            start = stop

    @property
    def count(self) -> int:
        """How many chunks there are (counted up to the fixed size, then worked out)."""
        start = chunks = 0
        while start < self.runs and self.size(start) < MAX_CHUNK:
            start += self.size(start)
            chunks += 1
        return chunks + max(0, -(-(self.runs - start) // MAX_CHUNK))


@dataclass(frozen=True)
class Share:
    """One share the rule watches: what it is, its count, out of how many, its half-width."""

    what: str
    count: int
    total: int

    @property
    def half_width(self) -> float:
        low, high = wilson_interval(self.count, self.total)
        return (high - low) / 2


@dataclass(frozen=True)
class Precision:
    """The stop rule: every ending's and every battle outcome's 95% interval within ±target."""

    target: float

    def shares(self, script_map: ScriptMap, tally: Tally) -> list[Share]:
        endings = dict.fromkeys(script_map.endings, 0)
        endings.update(tally.endings)
        shares = [Share(f"ending {outcome}", count, tally.runs) for outcome, count in sorted(endings.items())]
        fought: dict[int, int] = {}
        for (line, _), count in tally.battles.items():
            fought[line] = fought.get(line, 0) + count
        shares += [Share(f"battle at line {line}: {outcome}", count, fought[line])
                   for (line, outcome), count in sorted(tally.battles.items())]
        return shares

    def widest(self, script_map: ScriptMap, tally: Tally) -> Share | None:
        shares = self.shares(script_map, tally)
        return max(shares, key=lambda share: share.half_width) if shares else None

    def reached(self, script_map: ScriptMap, tally: Tally) -> bool:
        widest = self.widest(script_map, tally)
        return widest is not None and widest.half_width < self.target

    def section(self, script_map: ScriptMap, tally: Tally) -> dict:
        """The report's ``precision`` object: the target, whether the runs reached it, the
        widest interval left (its half-width rounded like every share)."""
        widest = self.widest(script_map, tally)
        return {"target": self.target, "reached": self.reached(script_map, tally),
                "widest": None if widest is None else {"what": widest.what,
                                                       "half_width": round(widest.half_width, 6)}}


def precision_line(data: dict) -> str | None:
    """The text report's line about the stop rule (None when the batch had none)."""
    section = data.get("precision")
    if section is None:
        return None
    target = f"±{100 * section['target']:g} points"
    widest = section["widest"]
    if section["reached"]:
        return (f"Precision: every ending and battle outcome known to {target} (95%) "
                f"after {data['runs']:,} runs")
    left = f"; the widest is {widest['what']} at ±{100 * widest['half_width']:.1f}" if widest else ""
    cap = "" if data["interrupted"] else " (the cap, -n)"
    return f"Precision: {target} not reached in {data['runs']:,} runs{cap}{left}"
