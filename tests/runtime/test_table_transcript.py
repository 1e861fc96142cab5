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
            'loses 2 life.", loyalty 3 -> Sister Ilse -2 life (7).') in lines
    assert "    Zombie attacks Rook the Cutpurse; Rook the Cutpurse -2 life (3)." in lines
    salve = next(line for line in lines if line.startswith("  turn 6 (party) [0:32]"))
    assert salve.endswith("casts Healing Salve on Sister Ilse -> Sister Ilse +3 life (10).")
    assert "    Kor Skyfisher attacks The Ashen Saint; dies: The Ashen Saint." in lines


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
