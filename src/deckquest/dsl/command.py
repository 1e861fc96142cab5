"""`deckquest check [--watch]`: compile scripts and print their diagnostics, once or on every save.

Watching polls the modification times of each script and of everything its last good
compile read (the scripts it ``use``s, its PCs' and NPCs' deck lists): a GM's editor saves
by writing or by renaming a new file over the old one, and polling sees both, with no
dependency and no platform's file-event API.
"""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable

from deckquest.dsl.resolver import compile_file
from deckquest.dsl.scenario import Scenario
from deckquest.packs.store import resolve_script_reference
from deckquest.errors import CompileError
from deckquest.i18n import _, language, language_for, ngettext

WATCH_INTERVAL = 0.5  # seconds between two looks at the files


def check_scripts(scripts: Iterable[Path], echo: Callable[..., None]) -> tuple[bool, set[Path]]:
    """Compile each script and print what it says; (whether any failed, the files they read)."""
    failed = False
    read: set[Path] = set()
    for script in scripts:
        read.add(Path(script))
        try:
            scenario = compile_file(script, locator=resolve_script_reference)
        except CompileError as failure:
            failed = True
            with language(language_for(failure.language)):
                echo(failure.render(), err=True)
            continue
        read |= dependencies(scenario)
        with language(language_for(scenario.language)):
            _report_ok(script, scenario, echo)
    return failed, read


def _report_ok(script: Path, scenario: Scenario, echo: Callable[..., None]) -> None:
    """A script that compiles: its warnings and the `ok` line, in the script's language."""
    for warning in scenario.warnings:
        echo(warning.render(), err=True)
    if scenario.omitted_warnings:
        echo(ngettext("{count:,} more warning not shown", "{count:,} more warnings not shown",
                      scenario.omitted_warnings), err=True)
    scenes = ngettext("{count} scene", "{count} scenes", len(scenario.scenes))
    count = len(scenario.warnings) + scenario.omitted_warnings
    if count:
        echo(_("{script}: ok ({scenes}, {warnings})", script=script, scenes=scenes,
               warnings=ngettext("{count} warning", "{count} warnings", count)), err=True)
    else:
        echo(_("{script}: ok ({scenes})", script=script, scenes=scenes), err=True)


def dependencies(scenario: Scenario) -> set[Path]:
    """The files a compile of ``scenario`` read besides the script: used scripts and deck lists."""
    files = set(scenario.imports.values())
    files |= {pc.deck_path for pc in scenario.pcs.values() if pc.deck_path is not None}
    files |= {npc.deck_path for npc in scenario.npcs.values() if npc.deck_path is not None}
    return {Path(f) for f in files}


def _stamp(paths: Iterable[Path]) -> dict[Path, tuple[int, int] | None]:
    stamps: dict[Path, tuple[int, int] | None] = {}
    for path in paths:
        try:
            info = path.stat()
            stamps[path] = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamps[path] = None  # deleted (or not yet there): its coming back is a change too
    return stamps


def watch(scripts: list[Path], echo: Callable[..., None], *, interval: float = WATCH_INTERVAL,
          cycles: int | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
    """Check the scripts, then again whenever one of them or a file they read changes, until
    interrupted (Ctrl-C) or, for tests, after ``cycles`` looks at the files."""
    _failed, watched = check_scripts(scripts, echo)
    watched |= set(scripts)
    stamps = _stamp(watched)
    echo(ngettext("watching {count} file; Ctrl-C to stop", "watching {count} files; Ctrl-C to stop", len(stamps)),
         err=True)
    looked = 0
    while cycles is None or looked < cycles:
        sleep(interval)
        looked += 1
        now = _stamp(stamps)
        changed = sorted(str(path) for path in now if now[path] != stamps[path])
        if not changed:
            continue
        echo("\n" + _("--- {time} {files} changed: checking again", time=f"{datetime.now():%H:%M:%S}",
                        files=", ".join(changed)), err=True)
        _failed, read = check_scripts(scripts, echo)
        stamps = _stamp(set(stamps) | read)
