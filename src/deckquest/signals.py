"""Stopping on a signal: SIGTERM does what Ctrl-C does.

A user at a terminal stops a command with Ctrl-C (SIGINT, which Python raises as
``KeyboardInterrupt``); ``timeout``, systemd and CI stop it with SIGTERM, whose default
ends the process at once: no partial report, no save, no temporary file removed, and the
worker processes of a batch left running. While the command line runs a command
(``sigterm_as_interrupt``), SIGTERM raises ``Terminated``, a ``KeyboardInterrupt``, so
every place that answers Ctrl-C answers SIGTERM alike (a batch reports the runs finished,
``run --save`` saves, ``write_atomically`` removes its temporary file), and the command
exits ``exit_code(SIGTERM)``, 143, as a shell reports a process ended by SIGTERM.

Windows has the name SIGTERM but nothing sends it as POSIX ``kill`` does; it is looked up
with ``getattr`` so that this module imports and the command line runs there too.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

SIGTERM: int | None = getattr(signal, "SIGTERM", None)


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while the command line ran a command."""


def raise_terminated(signum: int, frame: object) -> None:
    """The handler of SIGTERM while a command runs (``sigterm_as_interrupt``)."""
    raise Terminated()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While active, SIGTERM raises ``Terminated``; the handler before is put back after.

    Left alone when SIGTERM is not this thread's to handle: not the main thread, or a handler
    someone else installed (an embedding program's), or ignored (SIG_IGN, as ``nohup``-like
    launchers may set it)."""
    if SIGTERM is None or threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(SIGTERM) is not signal.SIG_DFL:
        yield
        return
    previous = signal.signal(SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(SIGTERM, previous)


def signal_of(interrupt: KeyboardInterrupt) -> int:
    """The signal an interrupt stands for: SIGTERM for ``Terminated``, else SIGINT (Ctrl-C)."""
    if isinstance(interrupt, Terminated) and SIGTERM is not None:
        return SIGTERM
    return int(signal.SIGINT)


def interruption(signum: int) -> KeyboardInterrupt:
    """The interrupt to raise again for a stop by ``signum`` (a command that cannot give a
    partial result, such as ``tune``, stops as a whole)."""
    return Terminated() if signum == SIGTERM else KeyboardInterrupt()


def exit_code(signum: int) -> int:
    """The exit code of a command stopped by ``signum``: 128 + its number, as shells report a
    process a signal ended (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + signum
