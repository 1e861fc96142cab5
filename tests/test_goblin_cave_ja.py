"""The Japanese Goblin Cave (issue 20): a Japanese GM plays and simulates it without meeting an
English sentence of deckquest's own.

What may stay in Latin letters: the cards' English names where the card database has no
Japanese one (tokens, some cards), the script's ids (scenes, PCs, NPCs, flags, counters), agent
names, numbers, rule IDs (T-6.2) and diagnostic codes. Anything else of three letters or more
is English that slipped through. The run's transcript itself is a snapshot in
tests/runtime/test_run_cli.py (``goblin_cave_ja_best``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckquest.cli import main
from deckquest.dsl.resolver import compile_file
from deckquest.runtime.agents import AGENT_NAMES

ROOT = Path(__file__).parents[1]
CAVE_JA = ROOT / "scenarios" / "goblin_cave_ja" / "goblin_cave_ja.quest"
WORD = re.compile(r"[A-Za-z]{3,}")


def allowed_words() -> list[str]:
    """Ids, English card names and agent names, longest first (so `Goblin Guide` goes before
    `Goblin`)."""
    scenario = compile_file(CAVE_JA)
    names = set(scenario.scenes) | set(scenario.pcs) | set(scenario.npcs) | set(scenario.flags)
    names |= set(scenario.counters) | set(AGENT_NAMES)
    for deck in scenario.decks.values():
        names |= {card.name for card in deck.main_cards()}
    names |= {"Goblin"}  # the horde's tokens (Krenko, Mogg War Marshal) are named for their type
    return sorted(names, key=len, reverse=True)


def english_left(text: str) -> list[str]:
    text = re.sub(r"`[^`\n]*`", "", text)  # code: a command to type, a line of the script
    for name in allowed_words():
        text = text.replace(name, "")
    return sorted(set(WORD.findall(text)))


def test_english_left_finds_a_sentence_of_deckquest():
    """The check itself: deckquest's English is found, card names and ids are not."""
    assert english_left("レンジャーのアリス plays Kalonian Tusker in the hall") == ["plays", "the"]


@pytest.mark.parametrize("agent, seed", [("best", "2"), ("first", "1"), ("random", "3")])
def test_playing_the_japanese_goblin_cave_meets_no_english(agent, seed):
    result = CliRunner().invoke(main, ["run", str(CAVE_JA), "--agent", agent, "--seed", seed])
    assert result.exit_code == 0, result.output
    assert "== 終幕:" in result.stdout
    assert english_left(result.output) == []


def test_the_human_agents_prompts_are_japanese():
    """The table: the human agent's prompts (actions, choices, checks, battles) in Japanese."""
    answers = "\n".join(["0", "2", "1", "0", "1"] + ["1"] * 400) + "\n"
    result = CliRunner().invoke(main, ["run", str(CAVE_JA), "--agent", "human", "--seed", "4"], input=answers)
    assert "戦闘の前に、PCは行動できます" in result.output or "選択の前に、PCは行動できます" in result.output
    assert "選択 1-" in result.output
    assert english_left(result.output) == []


def test_simulating_the_japanese_goblin_cave_meets_no_english(tmp_path):
    html = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["sim", str(CAVE_JA), "-n", "60", "--jobs", "1", "--html", str(html)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ゴブリンの洞窟: 60 回、シード 0、エージェント best\n")
    assert "判定結果: " in result.stdout and "結末" in result.stdout
    assert english_left(result.stdout) == []
    page = html.read_text(encoding="utf-8")
    assert '<html lang="ja">' in page and "難易度レポート" in page
    visible = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|svg)\b.*?</\1>", " ", page, flags=re.S))
    assert english_left(visible.replace(str(CAVE_JA), "")) == []


def test_the_odds_of_the_japanese_goblin_cave_are_japanese():
    result = CliRunner().invoke(main, ["odds", str(CAVE_JA)])
    assert result.exit_code == 0
    assert "緑判定 難易度 3" in result.output
    assert english_left(result.output) == []
