"""A one-line progress bar with rate and ETA, for a terminal's stderr.

``simulate`` reports progress through a callback; this is the callback the CLI passes
when stderr is a terminal (or ``--progress`` asks for it). Redrawn at most ten times a
second, so it costs nothing next to the runs.
"""

from __future__ import annotations

import sys
import time

WIDTH = 30


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class ProgressBar:
    """``bar(done, total)`` redraws ``[####      ]  40%  4,000/10,000  8,512 runs/s  ETA 0:00:01``."""

    def __init__(self, stream=None, label: str = "runs"):
        self.stream = stream or sys.stderr
        self.label = label
        self.started = time.perf_counter()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.drawn < 0.1:
            return
        self.drawn = now
        elapsed = max(now - self.started, 1e-9)
        rate = done / elapsed
        eta = (total - done) / rate if rate else 0.0
        filled = WIDTH * done // total if total else WIDTH
        self.stream.write(f"\r[{'#' * filled}{' ' * (WIDTH - filled)}] {done / total:4.0%}  "
                          f"{done:,}/{total:,} {self.label}  {rate:,.0f} {self.label}/s  ETA {_clock(eta)} ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """End the bar's line so later output starts on a fresh one."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
