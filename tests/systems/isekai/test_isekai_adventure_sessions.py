"""An isekai-world adventure at the table and in batch, as a user meets it: the transcript
names the party and the NPC duelist, a session saved before its first duel resumes, and the
sim report's seat rates count each duelist's own duels (I-5, I-17; docs/isekai.md, "Duels in
an adventure")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckquest.cli import main
from isekai_helpers import FRONTIER

MISTFORD = FRONTIER.parents[1] / "mistford_toll" / "mistford_toll.quest"


def deckquest(*args, stdin: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def test_the_transcript_names_the_party_and_the_npc_duelist():
    """The header is an adventure's (its party), and each action right (I-5) of the NPC's is
    headed by the duelist's name, as the PC's are."""
    out = deckquest("run", MISTFORD, "--seed", "1", "--agent", "first").stdout
    assert out.splitlines()[1:3] == ["rules 2019, seed 1, agent first", "party: Rin the Summoned"]
    assert "[1] The Toll-keeper" in out and "\n[1] keeper" not in out
    assert "  The Toll-keeper plays troll" in out


def test_a_session_saved_before_the_first_duel_resumes(tmp_path):
    """docs/isekai.md: an adventure's session saves before and after its duels. A save made
    before any duel holds no duel; resuming it is no damaged save (DQ9006)."""
    save = tmp_path / "toll.json"
    first = deckquest("run", MISTFORD, "--seed", "1", "--agent", "human", "--save", save, stdin="save\n")
    assert first.exit_code == 0 and "saved to" in first.stderr, first.output
    rest = deckquest("run", MISTFORD, "--resume", save, "--agent", "first")
    whole = deckquest("run", MISTFORD, "--seed", "1", "--agent", "first")
    assert rest.exit_code == 0, rest.output
    assert rest.stdout.splitlines()[-1] == whole.stdout.splitlines()[-1] == "Rin crosses the Mistford."


TWO_DUELS = '''scenario "Two Challengers":
    system isekai
    players 1
    reading stall 50

pc rin "Rin":
    deck "decks/green.txt"
    critical "Forest" x3

unit knight "Road Knight":
    cost 2
    range near
    attack 2
    hp 3
    speed 2
magic bolt "Bolt":
    cost 1
    speed 1
    deal 2 damage to the opponent
unit wolf "Grey Wolf":
    cost 1
    range near
    attack 1
    hp 2
    speed 3
deck road "Road":
    main knight x50
    skills bolt x50
deck pack "Pack":
    main wolf x50
    skills bolt x50
duelist ada "Ada" with pack
duelist bo "Bo" with road

start scene gate "Gate":
    choice:
        "Face Ada":
            duel against ada:
                victory:
                    end victory "won"
        "Face Bo":
            duel against bo with road:
                victory:
                    end victory "won"
    end defeat "lost"
'''


def test_the_sim_rates_each_seat_over_the_duels_it_played(tmp_path):
    """A run's (last) duel seats the PC and one of two NPCs: each NPC's win rate counts the
    duels it played, and every duelist is listed."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "green.txt").write_text("52 Forest\n8 Grizzly Bears\n")
    script = tmp_path / "two.quest"
    script.write_text(TWO_DUELS, encoding="utf-8")
    result = deckquest("sim", script, "-n", 12, "--jobs", 1, "--json", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    section = json.loads((tmp_path / "r.json").read_text())["system"]
    seats = section["seats"]
    assert set(seats) == {"rin", "ada", "bo"}
    assert seats["rin"]["games"] == section["duels"] == 12
    assert seats["ada"]["games"] + seats["bo"]["games"] == 12 and seats["ada"]["games"] and seats["bo"]["games"]


def test_a_duel_without_with_seats_the_pc_with_the_npcs_own_deck(tmp_path):
    """language.md's form `duel against NPC:` (no `with DECK`): the NPC has a deck of Isekai
    cards (I-1), and the PC plays a copy of it: Rin summons Ada's wolves, never a knight."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "green.txt").write_text("52 Forest\n8 Grizzly Bears\n")
    script = tmp_path / "two.quest"
    script.write_text(TWO_DUELS, encoding="utf-8")
    out = deckquest("run", script, "--seed", 1, "--choose", "1").stdout
    assert "Rin plays wolf" in out and "Rin plays knight" not in out, out


def test_a_duelist_with_an_unknown_deck_is_one_error_not_two(tmp_path):
    """I-1: a duelist whose deck is misspelt gets DQ4014 at the deck's name; the duels against
    it do not add a DQ4018 "not a duelist" (it is declared, with a hint to declare it)."""
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "green.txt").write_text("52 Forest\\n8 Grizzly Bears\\n")
    script = tmp_path / "two.quest"
    script.write_text(TWO_DUELS.replace('duelist ada "Ada" with pack', 'duelist ada "Ada" with pakc'), encoding="utf-8")
    result = deckquest("check", script)
    assert result.exit_code == 1
    assert "error[DQ4014]: unknown deck `pakc`" in result.stderr and "DQ4018" not in result.stderr, result.stderr


def test_an_mtg_trpg_adventure_with_rules_2019_holds_a_duel_as_written_in_the_contract(tmp_path):
    """language.md: "An MTG-TRPG adventure can hold an Isekai duel as an encounter, the way it
    holds a battle". The Mistford Toll with `rules 2019` and no `system` line checks, and
    plays seed for seed as with `system isekai` (its default readings); `rules 2014` is
    refused, as an isekai adventure checks by the 2019 rules (DQ0121)."""
    shutil.copytree(MISTFORD.parent / "decks", tmp_path / "decks")
    text = MISTFORD.read_text(encoding="utf-8").replace("    reading stall 200 ", "    # reading stall 200 ")
    (tmp_path / "isekai.quest").write_text(text, encoding="utf-8")
    (tmp_path / "trpg.quest").write_text(text.replace("    system isekai\n", "    rules 2019\n"), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(tmp_path / "trpg.quest")]).exit_code == 0
    played = []
    for seed in ("1", "3"):
        plain = runner.invoke(main, ["run", str(tmp_path / "trpg.quest"), "--seed", seed, "--agent", "random"])
        isekai = runner.invoke(main, ["run", str(tmp_path / "isekai.quest"), "--seed", seed, "--agent", "random"])
        assert plain.exit_code == 0 and plain.stdout == isekai.stdout
        played.append(plain.stdout)
    assert "main deck is gone" in played[1]  # seed 3 challenges the keeper: the duel is played
    (tmp_path / "old.quest").write_text(text.replace("    system isekai\n", "    rules 2014\n"), encoding="utf-8")
    refused = runner.invoke(main, ["check", str(tmp_path / "old.quest")])
    assert refused.exit_code == 1 and "DQ0121" in refused.output and "check by the rules 2019" in refused.output
    assert "DQ0036" not in refused.output  # its `check green` is read by the 2019 rules, not refused again


def test_an_npcs_isekai_deck_imported_with_use_i_1_language_contract(tmp_path):
    """language.md: the NPC of a duel has "a `deck` of Isekai cards declared in the script or
    imported with `use`". The Mistford Toll's cards, decks and keeper moved into a library
    `use`d as `toll`: `duel against toll.keeper with toll.wanderer` plays card for card as
    the script with them declared in it (the cards named by their qualified ids)."""
    import re

    shutil.copytree(MISTFORD.parent / "decks", tmp_path / "decks")
    lines = MISTFORD.read_text(encoding="utf-8").replace("    reading stall 200 ", "    # reading stall 200 ").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("unit squire"))
    end = next(i for i, line in enumerate(lines) if line.startswith("duelist keeper"))
    (tmp_path / "keeper.quest").write_text('scenario "Toll cards":\n    system isekai\n\n'
                                           + "\n".join(lines[start:end + 1]) + "\n", encoding="utf-8")
    main_script = "\n".join(lines[:start] + ['use "keeper.quest" as toll'] + lines[end + 1:])
    main_script = main_script.replace("    system isekai\n", "    rules 2019\n").replace(
        "duel against keeper with wanderer", "duel against toll.keeper with toll.wanderer")
    (tmp_path / "main.quest").write_text(main_script, encoding="utf-8")
    (tmp_path / "whole.quest").write_text("\n".join(lines), encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(tmp_path / "main.quest")])
    assert checked.exit_code == 0, checked.output
    used = runner.invoke(main, ["run", str(tmp_path / "main.quest"), "--seed", "3", "--agent", "random"]).stdout
    whole = runner.invoke(main, ["run", str(tmp_path / "whole.quest"), "--seed", "3", "--agent", "random"]).stdout
    assert "toll.troll" in used and re.sub(r"\btoll\.(?=\w)", "", used) == whole
    wrong = main_script.replace("toll.keeper with", "toll.keepr with")
    (tmp_path / "wrong.quest").write_text(wrong, encoding="utf-8")
    refused = runner.invoke(main, ["check", str(tmp_path / "wrong.quest")])
    assert refused.exit_code == 1 and "DQ4018" in refused.output and "toll.keeper" in refused.output


def duel_transcript(agent: str, seed: int, stop: int | None = None, tmp_path=None) -> tuple[bytes, int]:
    """The Mistford Toll's text transcript, uninterrupted, or saved after ``stop`` decisions of
    its duel and resumed from the file in a fresh run; and how many duel decisions it took."""
    import random

    from deckquest.dsl.resolver import compile_file
    from deckquest.runtime.agents import make_agent
    from deckquest.runtime.interpreter import Program, Run
    from deckquest.runtime.saves import load_run, save_run
    from deckquest.runtime.transcript import TextRenderer

    program = Program(compile_file(MISTFORD))
    renderer = TextRenderer(program.system)
    lines: list[str] = []
    run = Run(program, make_agent(agent), random.Random(seed), record=False,
              listener=lambda event: lines.extend(renderer.lines(event)), seed=seed)
    decisions = 0
    while run.step():
        decisions += run.state.battle is not None
        if decisions == stop and run.state.battle is not None:
            save_run(run, tmp_path / "mid_duel.json", seed=seed, agent=agent)
            run = load_run(program, tmp_path / "mid_duel.json", make_agent(agent), record=False,
                           listener=lambda event: lines.extend(renderer.lines(event)))
            stop = None
    return "\n".join(lines).encode("utf-8"), decisions


@pytest.mark.parametrize("agent, seed", [("random", 3), ("first", 1)])
def test_an_adventure_saved_at_a_decision_mid_duel_resumes_byte_for_byte(tmp_path, agent, seed):
    """Issue 13 (a sub-game is part of the run's state): an adventure's duel is stepped one
    decision (I-3's deal, an I-5 action right, an answer) at a time, so a session saved in
    the middle of it goes on exactly as the uninterrupted run: the same transcript, byte for byte."""
    uninterrupted, decisions = duel_transcript(agent, seed)
    assert decisions >= 20, "the run should duel for many decisions"
    for point in sorted({1, decisions // 2, decisions - 1}):
        assert duel_transcript(agent, seed, point, tmp_path)[0] == uninterrupted, point


def test_a_person_saves_in_the_middle_of_a_duel_and_resumes_there(tmp_path):
    """docs/isekai.md: `save` typed at a duel prompt saves the session at that decision (the
    duel as it stands, the run's other state); `--resume` goes on with the same duel: its next
    line is an action of the duel, not the bridge's narration again."""
    save = tmp_path / "toll.json"
    answers = "\n" * 4 + "1\n" * 30 + "save\n"  # no PC actions, "Challenge him", then 29 duel answers
    first = deckquest("run", MISTFORD, "--seed", "1", "--agent", "human", "--save", save, stdin=answers)
    assert first.exit_code == 0 and "saved to" in first.stderr, first.output
    saved = json.loads(save.read_text())["state"]
    assert saved["battle"]["sub_game"]["duel"]["npc"] == "keeper" and saved["game"]["result"] is None
    rest = deckquest("run", MISTFORD, "--resume", save, "--agent", "first")
    assert rest.exit_code == 0, rest.output
    assert "A toll-keeper" not in rest.stdout and "[" in rest.stdout.splitlines()[1]
    assert rest.stdout.splitlines()[-1] in ("Rin crosses the Mistford.", "The keeper keeps the bridge.",
                                            "Rin crosses, unimpressed.")
