"""`deckquest check --watch` (issue 18, item 17): checking again on every save of the script or
of a file it reads (a deck list), through the library call the command makes."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from deckquest.cli import main
from deckquest.dsl.command import watch

CAVE = Path(__file__).resolve().parents[2] / "scenarios" / "goblin_cave"


def test_watch_checks_again_when_the_script_or_a_deck_changes(tmp_path):
    folder = tmp_path / "cave"
    shutil.copytree(CAVE, folder)
    script = folder / "goblin_cave.quest"
    deck = folder / "decks" / "mono_red.txt"
    edits = [
        lambda: script.write_text(script.read_text("utf-8").replace("-> hall", "-> hal", 1), "utf-8"),
        lambda: None,  # nothing saved: nothing checked
        lambda: deck.write_text(deck.read_text("utf-8") + "1 Shivan Dragonn\n", "utf-8"),
    ]
    said: list[str] = []

    def sleep(_seconds: float) -> None:
        edits.pop(0)()

    watch([script], lambda text="", **_: said.append(text), interval=0, cycles=3, sleep=sleep)
    output = "\n".join(said)
    assert output.count("checking again") == 2
    first, after_script, after_deck = output.split("checking again")
    assert "ok (4 scenes" in first and "watching" in first
    assert "goblin_cave.quest changed" in first.splitlines()[-1]
    assert "unknown scene `hal`" in after_script and "did you mean" in after_script
    assert "mono_red.txt changed" in after_script.splitlines()[-1]
    assert "Shivan Dragonn" in after_deck


def test_the_option_is_on_the_command():
    result = CliRunner().invoke(main, ["check", "--help"])
    assert "--watch" in result.output
