"""Agents: human (scripted input), scripted, random, first and best."""

from __future__ import annotations

import pytest

from deckquest.errors import DeckquestError
from deckquest.runtime.agents import BestAgent, FirstAgent, HumanAgent, RandomAgent, ScriptedAgent, make_agent
from runtime_helpers import of_kind, play

CHOICE = '''start scene one "A":
    choice:
        "Left":
            end "left" "went left"
        "Right":
            choice:
                "Up":
                    end "up" ""
                "Down":
                    end "down" ""
'''


class Terminal:
    """Scripted input lines (EOF after the last) and a record of the output."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.shown: list[str] = []

    def input(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def agent(self) -> HumanAgent:
        return HumanAgent(self.input, self.shown.append)


def test_human_picks_numbered_options_and_is_asked_again_on_bad_input(tmp_path):
    # before each choice the PCs may act first: an empty answer means "nothing"
    # `²` is a digit to str.isdigit and none to int(), as 5,000 digits are (issue 28, item 2)
    terminal = Terminal("", "x", "0", "3", "²", "9" * 5000, "2", "", "", "2")
    result, events = play(tmp_path, CHOICE, terminal.agent())
    assert result.outcome == "down"
    assert "  1. Left" in terminal.shown and "  2. Right" in terminal.shown
    assert terminal.shown.count("please answer with a number from 1 to 2") == 6  # x, 0, 3, ², 9…9, ""
    assert [e["label"] for e in of_kind(events, "choice")] == ["Right", "Down"]


def test_human_end_of_input_ends_the_run_cleanly(tmp_path):
    terminal = Terminal("", "2")
    result, events = play(tmp_path, CHOICE, terminal.agent())
    assert result.outcome == "abandoned" and "end of input" in result.text
    assert events[-1]["event"] == "end"


def test_human_is_offered_pc_actions_and_a_boost(tmp_path):
    """Before a check the PCs may act (T-2.4 concentrate); a failing check offers a boost."""
    body = '''start scene one "A":
    check green difficulty 30 by alice:
        success:
            end victory ""
        failure:
            end defeat ""
'''
    terminal = Terminal("1", "0", "y")
    result, events = play(tmp_path, body, terminal.agent())
    assert any("Alice: concentrate" in line for line in terminal.shown)
    assert of_kind(events, "action")[0]["action"] == "concentrate"
    # the concentration counter forbids checks (T-2.5): Alice rests first, then checks
    assert [e["action"] for e in of_kind(events, "action")] == ["concentrate", "rest"]
    check = of_kind(events, "check")[0]
    assert check["boost"] is True and len(check["boost_cards"]) == 6
    assert result.outcome == "defeat"


def test_human_picks_who_checks_for_the_party_with_odds_shown(tmp_path):
    body = '''start scene one "A":
    check red difficulty 2:
        success:
            end victory ""
        failure:
            end defeat ""
'''
    terminal = Terminal("", "2", "n")
    _, events = play(tmp_path, body, terminal.agent())
    assert of_kind(events, "check")[0]["pc"] == "bram"
    assert any(line.startswith("  2. Bram (") and "% to succeed" in line for line in terminal.shown)


def test_scripted_agent_follows_the_list_then_fails_naming_the_choice(tmp_path):
    result, _ = play(tmp_path, CHOICE, ScriptedAgent([2, 1]))
    assert result.outcome == "up"
    with pytest.raises(DeckquestError) as caught:
        play(tmp_path, CHOICE, ScriptedAgent([2]))
    assert "ran out" in caught.value.message and "scene `one`" in caught.value.message
    assert caught.value.span.line == 14  # the inner choice


def test_scripted_agent_rejects_a_number_beyond_the_options(tmp_path):
    with pytest.raises(DeckquestError) as caught:
        play(tmp_path, CHOICE, ScriptedAgent([3]))
    assert "offers 2 options" in caught.value.message


def test_random_agent_draws_from_the_run_generator(tmp_path):
    outcomes = {play(tmp_path, CHOICE, RandomAgent(), seed=seed)[0].outcome for seed in range(30)}
    assert outcomes == {"left", "up", "down"}
    same = {play(tmp_path, CHOICE, RandomAgent(), seed=4)[0].outcome for _ in range(3)}
    assert len(same) == 1


def test_best_agent_takes_every_branch_of_a_story_choice_across_seeds(tmp_path):
    """A story choice has no best answer: `best` spreads over the options, seeded."""
    outcomes = {play(tmp_path, CHOICE, BestAgent(), seed=seed)[0].outcome for seed in range(30)}
    assert outcomes == {"left", "up", "down"}
    assert len({play(tmp_path, CHOICE, BestAgent(), seed=4)[0].outcome for _ in range(3)}) == 1


def test_first_agent_always_takes_the_first_option(tmp_path):
    outcomes = {play(tmp_path, CHOICE, FirstAgent(), seed=seed)[0].outcome for seed in range(10)}
    assert outcomes == {"left"}


def test_make_agent_knows_every_name():
    for name in ("first", "random", "best", "scripted", "human"):
        assert make_agent(name, [1]).name == name
    with pytest.raises(DeckquestError):
        make_agent("clever")


def test_pc_actions_offer_each_card_name_once(tmp_path):
    """Copies of a card are interchangeable: a hand of Forests offers one "play Forest"."""
    from deckquest.runtime.agents import legal_actions
    from deckquest.systems.trpg.statements import concentrate
    from runtime_helpers import start

    run = start(tmp_path, CHOICE)
    concentrate(run, "alice")
    offered = [text for _, _, text in legal_actions(run, "alice")]
    assert len(offered) == len(set(offered))
    hand = {run.state.pcs["alice"].cards[c].name for c in run.state.pcs["alice"].hand}
    lands = {name for name in hand if name == "Forest"}
    assert [t for t in offered if t.startswith("Alice: play ")] == [f"Alice: play {n}" for n in lands]


def test_the_best_party_destroys_a_spent_hordes_creatures_instead_of_a_stalemate_t_6_12():
    """T-6.12: the survivors win when the horde has no library, no hand and no creatures;
    T-6.10: damage to the horde only mills. Against every foe at once, this seed's party
    emptied the horde's library, then kept attacking it (milling nothing, tapping its
    creatures) and chump-blocked each 2/2 Zombie with one Goblin while Krenko made hundreds
    more: 777 permanents and a stalemate. The best player now holds back once the horde
    has no library and double-blocks the spent horde's attackers to destroy them."""
    from pathlib import Path

    from click.testing import CliRunner

    from deckquest.cli import main

    script = Path(__file__).parents[1] / "conformance" / "adventures" / "every_foe.quest"
    played = CliRunner().invoke(main, ["run", str(script), "--agent", "best", "--seed", "6124397637634551323"])
    assert played.exit_code == 0, played.output
    assert "did not end" not in played.output and "== The end: victory ==" in played.output
    assert "Dead is defeated" in played.output
