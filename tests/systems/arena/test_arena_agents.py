"""Agents (random, greedy, human at the terminal) and the text transcript with the map."""

from __future__ import annotations

import random

import pytest
from arena_helpers import card, duel_game
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from deckquest.engine.game import CHANCE, draw_chance
from deckquest.systems.arena.agents import GreedyAgent, HumanAgent, RandomAgent
from deckquest.systems.arena.battlefield import Glyph
from deckquest.systems.arena.cards import Bonus, Damage, Spell, Target
from deckquest.systems.arena.state import DONE
from deckquest.systems.arena.transcript import render_events

DUEL = ["0 0 0 1 0 0 0", "0 0 1 2 1 0 0", "0 ~ ~ 1 0 # 0", "0 0 0 0 0 0 0"]


class TranscriptSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def transcript_snapshot(snapshot):
    return snapshot.use_extension(TranscriptSnapshot)


def the_duel(**more):
    starts = {"p1": tuple((c, 1) for c in range(1, 8)), "p2": tuple((c, 4) for c in range(1, 8))}
    knights = card("Knights of Thraben", life=1, move=5, attack=2, defence=2, size=4, figures=3)
    zombies = card("Zombies", life=1, move=4, attack=2, defence=1, size=4, figures=4)
    return duel_game(DUEL, card("Gideon", life=6, move=5, attack=4, defence=2, size=5),
                     card("Liliana", life=5, move=5, range=4, attack=3, defence=3, size=5), starts=starts,
                     p1_cards=(knights,), p2_cards=(zombies,), glyphs=(Glyph("Glyph of Valor", (4, 2), (Bonus("attack", 1),)),),
                     **more)


def play_with(game, agents, seed):
    state = game.new_state()
    rng = random.Random(seed)
    transcript: list[dict] = []
    while not state.decision().over:
        decision = state.decision()
        action = draw_chance(decision, rng) if decision.actor == CHANCE else agents[decision.actor].choose(state, decision, rng)
        assert action in decision.actions
        state.apply(action, rng, transcript)
    return state, render_events(transcript, {"p1": "Gideon's Legion", "p2": "Liliana's Horde"})


def test_transcript_of_a_greedy_game_with_the_map(transcript_snapshot):
    """The text transcript: the map at every round's start, moves, attacks, dice, wounds."""
    state, text = play_with(the_duel(), {"p1": GreedyAgent(), "p2": GreedyAgent()}, 4)
    assert state.outcome() is not None
    assert text == transcript_snapshot


def test_random_agents_only_choose_legal_actions_to_the_end():
    game = the_duel(p1_spells=("Smite",) * 10, spells={"Smite": Spell("Smite", (Damage(2, Target(range=4)),))})
    for seed in range(30):
        state, _ = play_with(game, {"p1": RandomAgent(), "p2": RandomAgent()}, seed)
        assert state.outcome()["reason"] in ("planeswalker", "turn limit")


def test_greedy_moves_to_engage_and_attacks():
    """The greedy player walks its planeswalker next to the enemy and attacks it."""
    game = duel_game(["0 0 0 0 0 0"], card("G", move=3), card("L", move=0), starts={"p1": ((1, 1),), "p2": ((5, 1),)})
    state = game.new_state()
    rng = random.Random(2)
    greedy = GreedyAgent()
    for _ in range(3):
        state.apply(greedy.choose(state, state.decision(), rng) if state.decision().actor != CHANCE else "p1", rng, [])
    assert state.decision().kind == "activate"
    events: list[dict] = []
    while state.decision().kind != "attack roll":
        state.apply(greedy.choose(state, state.decision(), rng), rng, events)
    assert state.figures["p1.G"].hexes == ((4, 1),)
    assert events[-1]["event"] == "attack" and events[-1]["target"] == "p2.L"


def test_human_agent_shows_map_and_reachable_hexes_and_reads_a_number():
    answers = iter(["x", "9", "²", "9" * 5000, "2"])  # ², 9…9: no int() (issue 28, item 2)
    shown: list[str] = []
    human = HumanAgent(input=lambda prompt: next(answers), output=shown.append)
    game = duel_game(["0 0 0"], card("G", move=1), card("L"), starts={"p1": ((1, 1),), "p2": ((3, 1),)})
    state = game.new_state()
    rng = random.Random(1)
    state.apply(("place", ((1, 1),)), rng, [])
    state.apply(("place", ((3, 1),)), rng, [])
    state.apply("p1", rng, [])
    state.apply(("activate", "G"), rng, [])
    state.apply(("move", "p1.G"), rng, [])
    choice = human.choose(state, state.decision(), rng)
    assert choice == ("to", ((2, 1),))
    text = "\n".join(shown)
    assert " A o a" in text  # the map: G, a reachable hex, L
    assert "1. to 1,1" in text and "2. to 2,1" in text
    assert text.count("please answer with a number from 1 to 2") == 4


def test_human_agent_at_end_of_input_answers_done():
    def no_more(prompt):
        raise EOFError
    human = HumanAgent(input=no_more, output=lambda line: None)
    game = duel_game(["0 0 0"], card("G"), card("L"), starts={"p1": ((1, 1),), "p2": ((3, 1),)})
    state = game.new_state()
    rng = random.Random(1)
    for action in (("place", ((1, 1),)), ("place", ((3, 1),)), "p1", ("activate", "G")):
        state.apply(action, rng, [])
    assert human.choose(state, state.decision(), rng) == DONE
