"""docs/tutorial.md and docs/transcripts.md: every script and command in them works as shown."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from deckquest.cli import main
from runtime_helpers import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)


def blocks(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(TUTORIAL.read_text(encoding="utf-8")) if lang == kind]


def commands_after(script: str) -> list[str]:
    """The `deckquest` commands in the sh blocks that follow a script block."""
    doc = TUTORIAL.read_text(encoding="utf-8")
    start = doc.index(script)
    following = doc[start + len(script):]
    next_script = following.find("```quest")
    section = following if next_script < 0 else following[:next_script]
    return [line for lang, body in FENCE.findall(section) if lang == "sh"
            for line in body.splitlines() if line.startswith("deckquest ")]


DECK_FILE = re.compile(r"^# (decks/[\w.]+\.txt)")


@pytest.fixture
def lamb_folder(tmp_path, monkeypatch):
    """A folder with every deck the tutorial writes (a text block starting `# decks/NAME.txt`)."""
    (tmp_path / "decks").mkdir()
    for body in blocks("text"):
        named = DECK_FILE.match(body)
        if named:
            (tmp_path / named.group(1)).write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("step", [0, 1, 2, 3])
def test_every_tutorial_step_checks_and_runs(lamb_folder, step):
    script = blocks("quest")[step]
    (lamb_folder / "lamb.quest").write_text(script, encoding="utf-8")
    commands = commands_after(script)
    assert commands, f"step {step + 1} shows no command"
    for command in commands:
        result = CliRunner().invoke(main, shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"


def test_the_tutorial_transcript_is_what_the_last_step_prints(lamb_folder):
    (lamb_folder / "lamb.quest").write_text(blocks("quest")[2], encoding="utf-8")
    shown = next(body for body in blocks("text") if body.startswith("# The Lost Lamb"))
    result = CliRunner().invoke(main, ["run", "lamb.quest", "--seed", "3"])
    assert result.exit_code == 0
    assert result.stdout == shown


def test_the_battle_excerpt_is_what_step_4_prints(lamb_folder):
    """The excerpt's lines up to the horde deck's cut are exactly the output's beginning
    (what follows depends on the battle engine's play, and is elided with `…`)."""
    (lamb_folder / "lamb.quest").write_text(blocks("quest")[3], encoding="utf-8")
    excerpt = next(body for body in blocks("text") if body.startswith("== The Den =="))
    head = excerpt[:excerpt.index("  turn 1 ")]
    result = CliRunner().invoke(main, ["run", "lamb.quest", "--seed", "2"])
    assert result.exit_code == 0 and head in result.stdout
    assert "\n== The end: " in result.stdout


def test_the_jsonl_examples_in_transcripts_md_are_real_output():
    doc = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    examples = [line for line in doc.splitlines() if line.startswith('{"event"')]
    shrine = str(ROOT / "scenarios" / "drowned_shrine" / "drowned_shrine.quest")
    out = CliRunner().invoke(main, ["run", shrine, "--seed", "1", "--agent", "first",
                                    "--format", "jsonl"]).stdout.splitlines()
    assert examples and all(example in out for example in examples)


def test_every_event_kind_is_documented_and_rendered():
    from deckquest.runtime.events import EVENT_KINDS
    from deckquest.runtime.transcript import TextRenderer

    doc = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    for kind in EVENT_KINDS:
        assert f"| `{kind}` |" in doc, f"docs/transcripts.md does not document `{kind}`"
        assert hasattr(TextRenderer, "_" + kind), f"no text rendering for `{kind}`"


def test_runs_emit_only_documented_event_kinds():
    """The interpreter's kinds are EVENT_KINDS; a battle's engine events (`battle_…`) are
    named in docs/transcripts.md too."""
    from deckquest.runtime.events import EVENT_KINDS

    seen = set()
    shrine = str(ROOT / "scenarios" / "drowned_shrine" / "drowned_shrine.quest")
    cellar = str(ROOT / "scenarios" / "rat_cellar" / "rat_cellar.quest")
    runs = [(shrine, 1, "first"), (shrine, 3, "best"), (shrine, 2, "random"), (shrine, 7, "random"),
            (cellar, 3, "first"), (cellar, 6, "best")]
    for script, seed, agent in runs:
        out = CliRunner().invoke(main, ["run", script, "--seed", str(seed), "--agent", agent,
                                        "--format", "jsonl"]).stdout
        seen |= {line.split('"')[3] for line in out.splitlines()}
    engine = {kind for kind in seen if kind.startswith("battle_")}
    assert {"combat", "battle"} <= seen and engine
    assert seen - engine <= set(EVENT_KINDS)
    doc = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    assert all(f"`{kind}`" in doc for kind in engine)
