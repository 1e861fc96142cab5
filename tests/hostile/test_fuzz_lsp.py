"""The fuzzer's `lsp` kind (tests/hostile/fuzzing_lsp.py) in CI (issue 28, item 11): client
sessions built from mutated scripts (edits, requests, wrong-typed messages, broken frames) fed
to the language server, in process through its frame reader and handlers, and over stdio to a
real `python -m deckquest lsp`, one session from a script of each of the four games. No
internal error, no answer with a traceback or an internal-error code, every intact request
answered. `benchmarks/fuzz.py --target lsp --minutes N` runs the same kind at length."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from fuzzing import SCENARIOS, TOKENS, Fuzzer  # noqa: E402
from fuzzing_lsp import LanguageServerTarget, script_seeds  # noqa: E402

INPUTS = 30  # sessions in process: a count, not a time, so CI tries the same inputs on any machine
MAX_INPUT = 3_000
GAMES = {"trpg": "goblin_cave", "grizzly": "sword_coast", "arena": "the_duel", "isekai": "frontier_duel"}


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory):
    return Fuzzer(tmp_path_factory.mktemp("fuzz-lsp"), seed=28, max_input=MAX_INPUT)


def test_sessions_in_process_are_answered_and_never_crash(fuzzer):
    figures = fuzzer.run(targets=["lsp"], inputs=INPUTS)
    assert figures.tried["lsp"] == INPUTS, figures.tried
    crashes = "\n\n".join(f"{c.signature}\n{c.text[:500]!r}\n{c.trace[-1500:]}" for c in figures.crashes[:3])
    assert not figures.crashes, f"{len(figures.crashes)} crashes:\n{crashes}"


@pytest.mark.parametrize("game", GAMES)
def test_a_session_over_stdio_is_answered_and_never_crashes(fuzzer, game):
    target = LanguageServerTarget(fuzzer.folder, script_seeds(fuzzer), TOKENS["script"])
    script = (SCENARIOS / GAMES[game] / f"{GAMES[game]}.quest").read_text("utf-8")
    status = target.over_stdio(fuzzer._edit(script, "lsp"))  # the game's script, mutated once
    assert status["internalErrors"] == {} and status["pending"] == 0, status
