"""The card-effects override (effects.REGISTRY), and spells castable by their understood text."""

from __future__ import annotations

import random

from combat_helpers import CORPSE, FOREST, ZOMBIE, make_battle, make_horde, make_pc

from deckquest.cards.model import Card
from deckquest.engine.combat import actions as act
from deckquest.engine.combat import effects
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.casting import play_value
from deckquest.engine.combat.turns import apply, castable
from deckquest.engine.pc import gain_life

SALVE = Card.build("Healing Salve", "{W}", "Instant", oracle_text="You gain 3 life.")
PLANESWALKER = Card.build("Garruk Wildspeaker", "{2}{G}{G}", "Legendary Planeswalker — Garruk", loyalty="3")


def gain_three(battle, controller, card, x, rng, events):
    gain_life(battle.side(controller), 3)


def test_a_registered_effect_makes_a_spell_castable_and_resolves_it(monkeypatch):
    monkeypatch.setitem(effects.REGISTRY, "Healing Salve", effects.Effect(gain_three))
    pc = make_pc(battlefield=[Card.build("Plains", None, "Basic Land — Plains")], hand=[SALVE], life=10)
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 3))
    assert castable(pc) == [Action(act.CAST, "ann", 1)]
    apply(battle, Action(act.CAST, "ann", 1), random.Random(1))
    assert pc.life == 13 and pc.graveyard == [1]


def test_the_greedy_value_of_a_registered_spell_is_its_mana_value(monkeypatch):
    """The greedy policies and bosses weigh a spell with a registered effect like a permanent:
    its mana value (`Effect` has no value of its own)."""
    monkeypatch.setitem(effects.REGISTRY, "Healing Salve", effects.Effect(gain_three))
    pc = make_pc(battlefield=[Card.build("Plains", None, "Basic Land — Plains")], hand=[SALVE], life=10)
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 3))
    assert play_value(battle, Action(act.CAST, "ann", 1)) == 1


def test_a_spell_whose_text_is_not_understood_is_not_offered():
    """docs/effects.md: a spell the recogniser cannot read would do nothing, so it is not offered."""
    walk = Card.build("Time Walk", "{W}", "Sorcery", oracle_text="Take an extra turn after this one.")
    pc = make_pc(battlefield=[Card.build("Plains", None, "Basic Land — Plains")], hand=[walk])
    assert castable(pc) == []


def test_an_understood_spell_is_offered_and_resolves():
    pc = make_pc(battlefield=[Card.build("Plains", None, "Basic Land — Plains")], hand=[SALVE], life=10)
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 3))
    assert castable(pc, battle) == [Action(act.CAST, "ann", 1)]
    apply(battle, Action(act.CAST, "ann", 1), random.Random(1))
    assert pc.life == 13 and pc.graveyard == [1]


def test_the_horde_resolves_registered_effects_of_its_spells(monkeypatch):
    """T-6.8: the horde casts every revealed card; a registered effect resolves."""
    resolved = []
    monkeypatch.setitem(effects.REGISTRY, "Walking Corpse",
                        effects.Effect(lambda battle, owner, card, x, rng, events: resolved.append((owner, card))))
    battle = make_battle([make_pc()], make_horde(library=[CORPSE, ZOMBIE]))
    apply(battle, Action(act.END_TURN), random.Random(1))
    assert resolved == [("horde", 0)]


def test_a_planeswalker_enters_with_its_printed_loyalty():
    pc = make_pc(battlefield=[FOREST] * 4, hand=[PLANESWALKER])
    battle = make_battle([pc], make_horde(library=[ZOMBIE] * 3))
    apply(battle, Action(act.CAST, "ann", 4), random.Random(1))
    assert pc.battlefield[-1].card == 4 and pc.battlefield[-1].loyalty == 3
