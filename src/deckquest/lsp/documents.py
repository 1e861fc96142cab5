"""The open scripts, and their analysis off the request thread (issue 28, item 5).

An editor sends a ``didChange`` for every key the GM presses. Compiling each version in turn
on the thread that answers requests put a hover behind every one of them (200 quick edits: a
hover waited seconds; 2,000: minutes). Here a change only records the document's newest text;
one worker thread analyses a document once its changes have paused for ``DEBOUNCE`` seconds
(or ``PATIENCE`` seconds after the first change it has not analysed, so diagnostics still come
while the GM types without a pause), and always its latest text: versions that were
superseded while it waited are never analysed. Requests answer at once from the last finished
analysis, which may be a few keystrokes old.

Diagnostics are published for the latest version only: an analysis that finishes after a newer
change came is kept for requests but not published (the newer version's analysis will be), so
the editor never sees diagnostics older than ones it already has.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

from deckquest.lsp.analysis import Analysis, analyse

DEBOUNCE = 0.15  # seconds without a change before a document is analysed
PATIENCE = 1.0  # seconds after its first unanalysed change, at most, paused or not


@dataclass
class Document:
    """One open script: its newest text and what has been done with it.

    ``received`` counts its versions in the order they came (didOpen is the first): the order
    "older" and "newer" mean here, whatever numbers the client gives its versions.
    """

    uri: str
    path: str
    text: str
    version: int | None  # the client's number for the newest text
    received: int = 1
    analysis: Analysis | None = None  # the last finished analysis, of version `analysed_at`
    analysed_at: int = 0
    published_at: int = 0  # the version whose diagnostics the editor has
    analysed: int = 0  # how many analyses were made
    published: int = 0  # how many times diagnostics were published

    def status(self) -> dict[str, int | None]:
        return {"version": self.version, "received": self.received, "analysed": self.analysed,
                "published": self.published}


Publish = Callable[[Document, Analysis], None]
Failed = Callable[[str, BaseException], None]


class Documents:
    """The open documents, and the worker thread that analyses their latest versions."""

    def __init__(self, publish: Publish, failed: Failed, debounce: float = DEBOUNCE,
                 patience: float = PATIENCE) -> None:
        self.publish = publish  # called on the worker thread, under the lock: one publication at a time
        self.failed = failed  # an analysis raised: the server's internal-error report
        self.debounce, self.patience = debounce, patience
        self.open: dict[str, Document] = {}  # by key: the URI unquoted, as pygls keys its workspace
        self._pending: dict[str, tuple[float, float]] = {}  # key: (first, last) unanalysed change
        self._lock = threading.Condition()
        self._worker: threading.Thread | None = None
        self._busy = False
        self._stopped = False

    # ------------------------------------------------------------ the request thread

    def get(self, key: str) -> Document | None:
        return self.open.get(key)

    def opened(self, key: str, uri: str, path: str, text: str, version: int | None) -> None:
        """A document opened: ``key`` is its URI as pygls' workspace keys it (unquoted)."""
        with self._lock:
            self.open[key] = Document(uri, path, text, version)
            self._changed(key)

    def changed(self, key: str, text: str, version: int | None) -> None:
        with self._lock:
            document = self.open.get(key)
            if document is None:
                return
            document.text, document.version = text, version
            document.received += 1
            self._changed(key)

    def saved(self, key: str) -> None:
        """Analyse again (a deck list or a `use`d library beside it may have changed)."""
        with self._lock:
            if key in self.open:
                self._changed(key)

    def closed(self, key: str) -> None:
        with self._lock:
            self.open.pop(key, None)
            self._pending.pop(key, None)

    @property
    def pending(self) -> int:
        """Documents waiting for an analysis or being analysed."""
        with self._lock:
            return len(self._pending) + self._busy

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every change has been analysed (the fuzzer and the tests); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._pending and not self._busy, timeout)

    def stop(self) -> None:
        """No more analyses: the worker thread ends once the one it is making (if any) is done."""
        with self._lock:
            self._stopped = True
            self._pending.clear()
            self._lock.notify_all()

    def _changed(self, key: str) -> None:
        now = time.monotonic()
        first, _ = self._pending.get(key, (now, now))
        self._pending[key] = (first, now)
        if self._worker is None and not self._stopped:
            self._worker = threading.Thread(target=self._work, name="deckquest-analysis", daemon=True)
            self._worker.start()
        self._lock.notify_all()

    # ------------------------------------------------------------ the worker thread

    def _work(self) -> None:
        while True:
            with self._lock:
                key = self._due()
                while key is None:
                    self._busy = False
                    self._lock.notify_all()
                    if self._stopped:
                        return
                    self._lock.wait(self._wait())
                    key = self._due()
                self._busy = True
                del self._pending[key]
                document = self.open[key]
                text, received, previous = document.text, document.received, document.analysis
            try:
                analysis = analyse(document.path, text, previous)
            except Exception as error:  # a bug in the analysis: reported, and the worker goes on
                self.failed("analysis", error)
                continue
            with self._lock:
                self._finished(key, document, analysis, received)

    def _due(self) -> str | None:
        """A document whose pause is over (or whose patience ran out)."""
        now = time.monotonic()
        for key, (first, last) in self._pending.items():
            if now >= min(last + self.debounce, first + self.patience):
                return key
        return None

    def _wait(self) -> float | None:
        """Seconds until the next document is due; None when none is pending."""
        if not self._pending:
            return None
        now = time.monotonic()
        return max(min(min(last + self.debounce, first + self.patience) for first, last in self._pending.values())
                   - now, 0.0)

    def _finished(self, key: str, document: Document, analysis: Analysis, received: int) -> None:
        document.analysed += 1
        if self.open.get(key) is not document:  # closed (or opened again) meanwhile
            return
        if received >= document.analysed_at:
            document.analysis, document.analysed_at = analysis, received
        if received == document.received and received >= document.published_at:
            document.published_at = received
            document.published += 1
            try:
                self.publish(document, analysis)
            except OSError:  # the editor has gone: the request loop sees its input end
                pass
            except Exception as error:
                self.failed("publishDiagnostics", error)
