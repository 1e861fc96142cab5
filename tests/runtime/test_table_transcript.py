"""What a GM reads at the table (issue 18): the text transcript of `deckquest run` on the
Ashen Abbey (tests/runtime/ashen_abbey, the adventure of shared/repro/): two PCs, a horde,
a planeswalker NPC, a player-type boss."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from deckquest.cli import main

ABBEY = Path(__file__).parent / "ashen_abbey" / "ashen_abbey.quest"
RULE_TAG = re.compile(r"\b[TGAI]-\d+(?:\.\d+)*\b")


def deckquest(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_a_spells_effect_is_on_its_own_line_not_an_attacks_t_6_1():
    """Issue 18 item 5: Healing Salve's +3 life was printed on the line where a creature
    attacks, and the Ashen Saint's "+1: Target player loses 2 life." on a line where a Zombie
    attacks another PC. A spell's or an ability's results go after it (T-6.1: a battle is a
    game of MTG, its spells resolve before combat); the combat line keeps combat's."""
    text = deckquest("run", str(ABBEY), "--agent", "first", "--seed", "3").stdout
    lines = text.splitlines()
    assert ('  turn 3 (enemies) [0:29]: the enemy side activates The Ashen Saint: "+1: Target player '
            'loses 2 life.", loyalty 2 -> Sister Ilse -2 life (0, dying).') in lines
    assert "    Zombie attacks Rook the Cutpurse; Rook the Cutpurse -2 life (1)." in lines
    salve = next(line for line in lines if line.startswith("  turn 4 (party) [0:23]"))
    assert "casts Healing Salve on Sister Ilse -> Sister Ilse +3 life (17); Rook the Cutpurse" in salve
    assert "    Brother Porter attacks The Ashen Saint." in lines


def test_the_table_transcript_has_no_rule_tags_the_jsonl_keeps_them(tmp_path):
    """Issue 18 item 6: tags such as T-6.2 point into the rules digests, which the package
    does not ship; the text transcript leaves them out, the JSONL (for programs) keeps them,
    and the author's own narration is printed as written."""
    script = ABBEY.read_text(encoding="utf-8").replace(
        '"Grey ash falls like snow over the ruined abbey of Saint Verna."',
        '"Grey ash falls like snow (see T-1.1)."')
    shutil.copytree(ABBEY.parent / "decks", tmp_path / "decks")
    tagged = tmp_path / "tagged.quest"
    tagged.write_text(script, encoding="utf-8")
    text = deckquest("run", str(tagged), "--agent", "first", "--seed", "3").stdout
    jsonl = deckquest("run", str(tagged), "--agent", "first", "--seed", "3", "--format", "jsonl").stdout
    assert [line for line in text.splitlines() if RULE_TAG.search(line)] == ["Grey ash falls like snow (see T-1.1)."]
    assert "  No preparation turns: the enemies move first." in text
    assert "(scene end: cards to the exhaustion zone:" in text
    labels = [json.loads(line).get("label") for line in jsonl.splitlines()]
    assert "Preparation turns (T-6.2)" in labels


def test_escape_lines_show_the_cards_and_the_critical_card_that_decided_t_6_6_t_4_7():
    """Issue 18 item 4: an escape line said `target 20` with no reason. It shows the cards
    revealed (T-6.6: the escape is a check) and names the critical card that made the
    target 20 (first card) or the result 20 (second card, T-4.7)."""
    first = deckquest("run", str(ABBEY), "--agent", "random", "--seed", "1").stdout
    assert ("Sister Ilse tries to escape: revealed Island, Squadron Hawk; target 20 (critical Island), "
            "result 2, failure") in first
    ninth = deckquest("run", str(ABBEY), "--agent", "random", "--seed", "9").stdout
    assert ("Sister Ilse tries to escape: revealed Island, Serra Angel; target 0, "
            "result 21 (critical Serra Angel) (boost +1), success") in ninth


def test_the_boost_prompt_says_whether_the_check_already_succeeds_t_4_6():
    """Issue 18 item 4: `target 3, result 5. Boost…?` did not say the check had succeeded
    already; a boost (T-4.6) is only worth its six cards when the check is failing."""
    from deckquest.runtime.command import play

    prompts: list[str] = []
    asked = 0

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if len(prompts) >= 2 or asked > 200:  # answering "1" in a battle may block and unblock forever
            raise EOFError
        if "[y/n]" in prompt:
            prompts.append(prompt)
            return "n"
        return "" if prompt.startswith("action") else "1"

    play(str(ABBEY), party=None, seed=3, agent="human", choose=None, output_format="text",
         echo=lambda line: None, ask=ask, interactive=False, max_steps=10_000)
    assert prompts[0] == ("Sister Ilse revealed Suntail Hawk, Plains: target 3, result 5: already a success. "
                          "Boost (exile the top 6 cards)? [y/n] ")
    assert prompts[1] == ("Sister Ilse revealed Swords to Plowshares, Plains: target 1, result 0: a failure by 1 "
                          "so far (a boost adds 1 per colourless card among the top 6). "
                          "Boost (exile the top 6 cards)? [y/n] ")


def test_the_human_agents_prompts_have_no_rule_tags_either():
    """Issue 18 item 6: the prompts at the table (`… may act (T-2.4 to T-2.6):`, `concentrate
    (1 minute, T-2.4)`) are part of what the table reads."""
    shown = deckquest("run", str(ABBEY), "--agent", "human", "--seed", "3", stdin="\n").stdout
    assert "Before the choice, your PCs may act:" in shown
    assert "  1. Sister Ilse: concentrate (1 minute)" in shown
    assert not RULE_TAG.search(shown)


def test_a_resumed_transcript_names_the_pcs_as_the_first_one_did(tmp_path):
    """Issue 18 item 1: after `--resume` the transcript said `ilse concentrates.`: the names
    came from the `start` event, which a resumed run does not repeat."""
    save = tmp_path / "abbey.json"
    first = deckquest("run", str(ABBEY), "--agent", "human", "--seed", "3", "--save", str(save), stdin="")
    assert first.exit_code == 0 and save.exists(), first.output
    resumed = deckquest("run", str(ABBEY), "--resume", str(save), "--agent", "first", stdin="")
    assert resumed.exit_code == 0, resumed.output
    assert "Sister Ilse checks white, difficulty 2" in resumed.stdout
    assert "ilse" not in resumed.stdout.replace("Ilse", "")


def test_input_that_ends_in_a_battle_saves_the_session_in_the_battle(tmp_path, capsys):
    """Issue 18 item 2: input that ended in a battle made the human pass every turn, usually
    to a defeat; the run was over and `--save` wrote nothing. Now the run stops there and is
    saved at that decision, the battle (T-6) in progress included, and `--resume` goes on
    with the battle where it stopped."""
    import json

    from deckquest.runtime.command import play

    save = tmp_path / "abbey.json"
    shown: list[str] = []
    battle_answers: list[str] = []

    def ask(prompt: str) -> str:
        if "[y/n]" in prompt:
            return "n"
        if prompt.startswith("action"):
            return ""
        if any(line.startswith("turn ") for line in shown):  # the battle board is up
            battle_answers.append(prompt)
            if len(battle_answers) > 3:
                raise EOFError
        return "1"

    result = play(str(ABBEY), party=None, seed=3, agent="human", choose=None, output_format="text",
                  echo=shown.append, ask=ask, interactive=False, max_steps=10_000, save=str(save))
    assert result.outcome == "abandoned" and save.exists()
    assert capsys.readouterr().err == f"note: the run is saved to {save}; continue it with --resume {save}\n"
    assert json.loads(save.read_text("utf-8"))["state"]["battle"] is not None  # mid-battle
    resumed = deckquest("run", str(ABBEY), "--resume", str(save), "--agent", "first")
    assert resumed.exit_code == 0, resumed.output
    assert "Battle against The Cellar Swarm" not in resumed.stdout  # not fought again from its start
    assert resumed.stdout.lstrip("\n").startswith("  turn ")
    assert "== The end: " in resumed.stdout and "abandoned" not in resumed.stdout
