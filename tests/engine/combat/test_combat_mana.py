"""Mana from lands and mana abilities; paying generic, coloured, hybrid and X costs."""

from __future__ import annotations

import random

import pytest
from combat_helpers import (
    BEAR, ELVES, FOREST, MIND_STONE, MOUNTAIN, PLAINS, SELESNYA_GATE, SOL_RING, WASTES,
    make_battle, make_horde, make_pc,
)

from deckquest.cards.model import Card, ManaCost
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.mana import max_x, pay, requirement
from deckquest.engine.combat.profile import mana_units
from deckquest.engine.combat.turns import apply, castable, legal_actions, mana_sources

G, W, R, C = frozenset("G"), frozenset("W"), frozenset("R"), frozenset("C")


def sources(*units):
    """One single-unit source per argument (a tuple argument: a multi-unit source)."""
    return [(i, made if isinstance(made, tuple) else (made,)) for i, made in enumerate(units)]


@pytest.mark.parametrize("card, units", [
    (FOREST, (G,)),
    (WASTES, (C,)),
    (SELESNYA_GATE, (frozenset("GW"),)),
    (MIND_STONE, (C,)),
    (SOL_RING, (C, C)),
    (ELVES, (G,)),
    (Card.build("Birds", "{G}", "Creature — Bird", oracle_text="Flying\n{T}: Add one mana of any color."),
     (frozenset("WUBRG"),)),
    (Card.build("Forest Cave", None, "Land — Forest Mountain"), (frozenset("GR"),)),
    (Card.build("Signet", "{2}", "Artifact", oracle_text="{1}, {T}: Add {G}{W}."), ()),
    (BEAR, ()),
])
def test_mana_abilities_are_recognised_from_the_text(card, units):
    assert mana_units(card) == units


def test_coloured_symbols_take_the_least_flexible_source():
    """{G}{W} from a Forest and a G/W gate: the Forest must pay G, the gate W."""
    cost = requirement(ManaCost.parse("{G}{W}"))
    assert pay(sources(frozenset("GW"), G), cost) == [0, 1]
    assert pay(sources(frozenset("GW"), frozenset("GW")), cost) == [0, 1]
    assert pay(sources(G, G), cost) is None


def test_generic_mana_prefers_the_rest_of_a_source_already_tapped():
    """{1}{C}: Sol Ring's two units cover both; the Forest stays untapped."""
    cost = requirement(ManaCost.parse("{1}{C}"))
    assert pay(sources(G, C), cost) == [0, 1]
    assert pay(sources(G, (C, C)), cost) == [1]


def test_hybrid_and_colorless_hybrid_symbols():
    assert pay(sources(R), requirement(ManaCost.parse("{R/G}"))) == [0]
    assert pay(sources(W), requirement(ManaCost.parse("{R/G}"))) is None
    assert pay(sources(C), requirement(ManaCost.parse("{C/W}"))) == [0]


def test_twobrid_is_paid_with_its_colour_or_two_generic():
    cost = requirement(ManaCost.parse("{2/G}"))
    assert pay(sources(G, R, R), cost) == [0]
    assert pay(sources(R, R), cost) == [0, 1]
    assert pay(sources(R), cost) is None


def test_x_costs_scale_with_x_and_max_x_is_what_the_sources_allow():
    cost = requirement(ManaCost.parse("{X}{G}"))
    four = sources(G, G, R, R)
    assert pay(four, cost, 3) == [0, 1, 2, 3]
    assert pay(four, cost, 4) is None
    assert max_x(four, cost) == 3


def test_summoning_sick_mana_creature_cannot_tap_for_mana_but_a_new_mana_rock_can():
    """CR 302.6: a creature's {T} ability needs it free of summoning sickness; artifacts don't."""
    pc = make_pc(battlefield=[ELVES, MIND_STONE], sick=True)
    assert [index for index, _ in mana_sources(pc)] == [1]


def test_casting_taps_only_untapped_sources_and_the_creature_enters_summoning_sick():
    pc = make_pc(battlefield=[FOREST, FOREST, MOUNTAIN], hand=[BEAR, BEAR])
    pc.battlefield[0].tapped = True
    battle = make_battle([pc], make_horde(library=[BEAR] * 3))
    casts = [a for a in legal_actions(battle) if a.kind == act.CAST]
    assert casts == [Action(act.CAST, "ann", 3)]  # one action per card name
    apply(battle, casts[0], random.Random(1))
    assert [p.tapped for p in pc.battlefield[:3]] == [True, True, True]
    assert pc.battlefield[3].card == 3 and pc.battlefield[3].summoning_sick
    assert not [a for a in legal_actions(battle) if a.kind == act.CAST]


def test_one_land_per_turn_and_a_tapped_land_enters_tapped():
    pc = make_pc(hand=[SELESNYA_GATE, FOREST])
    battle = make_battle([pc], make_horde(library=[BEAR] * 3))
    apply(battle, Action(act.PLAY_LAND, "ann", 0), random.Random(1))
    assert pc.battlefield[0].tapped
    assert not [a for a in legal_actions(battle) if a.kind == act.PLAY_LAND]


def test_targeted_spells_need_the_battle_to_be_listed():
    """Without the battle, a spell's targets are unknown, so `castable(pc)` leaves it out
    (the engine always passes the battle: see test_combat_card_effects)."""
    shock = Card.build("Shock", "{R}", "Instant", oracle_text="Shock deals 2 damage to any target.")
    pc = make_pc(battlefield=[MOUNTAIN], hand=[shock])
    assert castable(pc) == []


def test_x_creature_lists_one_cast_per_value_of_x():
    hydra = Card.build("Hydra", "{X}{G}", "Creature — Hydra", power="0", toughness="0")
    pc = make_pc(battlefield=[FOREST, FOREST, PLAINS], hand=[hydra])
    assert [a.x for a in castable(pc)] == [0, 1, 2]
