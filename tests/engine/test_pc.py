"""The PC: creation (T-1.2, T-4.7), time (T-2.4 to T-2.9) and death and recovery (T-7)."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from deckquest.cards.model import Card
from deckquest.engine.pc import (
    DYING,
    PC,
    RuleError,
    concentrate,
    create_pc,
    designate_critical,
    draw,
    gain_life,
    lose_life,
    play_land,
    required_critical_count,
    rest,
    scene_end,
    sleep,
    treat_life_as_zero,
)
from deckquest.engine.permanents import Permanent

FOREST = Card.build("Forest", None, "Basic Land — Forest", name_ja="森")
BEAR = Card.build("Runeclaw Bear", "{1}{G}", "Creature — Bear", power="2", toughness="2")
BOOM = Card.build("Boom // Bust", "{1}{R}", "Sorcery")
DECK = [FOREST] * 24 + [BEAR] * 35 + [BOOM]


def new_pc(seed: int = 1, deck=DECK) -> PC:
    return create_pc("ann", "Ann", deck, designate_critical(deck, "Forest", 3), random.Random(seed))


# --- T-1.2, T-4.7: a new PC -----------------------------------------------------------


def test_T_1_2_new_pc_has_life_20_and_an_opening_hand_of_7():
    pc = new_pc()
    assert pc.life == 20 and len(pc.hand) == 7 and len(pc.library) == 53
    assert sorted(pc.hand + pc.library) == list(range(60))
    assert pc.status == "ok" and not pc.concentration_counter


def test_new_pc_is_reproducible_from_the_seed():
    assert new_pc(5) == new_pc(5)
    assert new_pc(5).library != new_pc(6).library


def test_pcs_dealt_from_the_same_list_share_one_card_table():
    """What a check works out once per card table is not worked out again per PC dealt."""
    from deckquest.engine.checks import card_facts

    first, second = new_pc(1), new_pc(2)
    assert first.cards is second.cards and card_facts(first.cards) is card_facts(second.cards)
    assert new_pc(3, deck=list(reversed(DECK))).cards is not first.cards  # other order, other table
    table = tuple(DECK)
    assert new_pc(4, deck=table).cards is table  # a tuple is its own table


def test_T_4_7_designate_critical_picks_physical_copies():
    ids = designate_critical(DECK, "Forest", 3)
    assert len(ids) == 3 and all(DECK[i] is FOREST for i in ids)
    assert designate_critical(DECK, "森", 2) <= ids | designate_critical(DECK, "Forest", 24)
    assert designate_critical(DECK, "Boom", 1) == {59}  # a split card by its front face
    more = designate_critical(DECK, "forest", 2, already=ids)
    assert not more & ids


def test_T_4_7_designate_critical_errors_are_clear():
    with pytest.raises(ValueError, match="only 24"):
        designate_critical(DECK, "Forest", 25)
    with pytest.raises(ValueError, match="no card named 'Forrest'"):
        designate_critical(DECK, "Forrest", 1)
    with pytest.raises(ValueError, match="3 of them already critical"):
        designate_critical(DECK, "Forest", 22, already=designate_critical(DECK, "Forest", 3))


def test_T_4_7_three_critical_cards_five_for_commander():
    assert required_critical_count(False) == 3 and required_critical_count(True) == 5


def test_create_pc_rejects_critical_ids_outside_the_deck():
    with pytest.raises(ValueError, match="not in the deck"):
        create_pc("ann", "Ann", DECK, frozenset({60}), random.Random(1))


def test_T_1_2_create_pc_deals_what_a_plain_shuffle_and_draw_deal():
    """``create_pc`` builds the PC with its hand already dealt: the same PC, and the generator
    left in the same state, as shuffling with ``random.Random.shuffle`` and drawing 7 (a deck
    of fewer than 7 cards leaves the PC unconscious, T-7.2)."""
    for deck in (DECK, DECK[:5], DECK[:7]):
        for seed in range(20):
            ours, theirs = random.Random(seed), random.Random(seed)
            expected = PC("ann", "Ann", tuple(deck), frozenset({0}), library=list(range(len(deck))))
            theirs.shuffle(expected.library)
            draw(expected, 7)
            assert create_pc("ann", "Ann", deck, frozenset({0}), ours) == expected
            assert ours.getstate() == theirs.getstate()
    assert new_pc_of(DECK[:5]).status == "unconscious" and new_pc_of(DECK[:7]).status == "ok"


def new_pc_of(deck) -> PC:
    return create_pc("ann", "Ann", deck, frozenset(), random.Random(1))


def test_copy_is_independent():
    pc = new_pc()
    pc.battlefield.append(Permanent(card=pc.hand[0], owner="ann"))
    clone = pc.copy()
    clone.library.pop()
    clone.battlefield[0].tapped = True
    assert len(pc.library) == 53 and not pc.battlefield[0].tapped
    assert clone.cards is pc.cards


def test_a_copy_keeps_every_field():
    """A copy (each battle fights with copies of the PCs) equals its PC in every field,
    whatever each holds: a field the copy forgot would come back as its default."""
    pc = new_pc()
    concentrate(pc)
    pc.battlefield.append(Permanent(card=pc.hand.pop(), owner="ann", tapped=True))
    pc.graveyard.append(pc.hand.pop())
    pc.exile.append(pc.hand.pop())
    pc.exhaustion_zone.append(pc.library.pop())
    pc.stack.append(pc.library.pop())
    pc.boost_exile.append(pc.library.pop())
    pc.life, pc.land_played, pc.boost_used, pc.status = 7, True, True, DYING
    pc.critical_cards = frozenset({1, 2})
    clone = pc.copy()
    assert clone == pc
    defaults = PC(pc.id, pc.name, pc.cards)
    assert all(getattr(pc, f.name) != getattr(defaults, f.name) for f in fields(PC) if f.name not in ("id", "name", "cards"))


# --- T-2.4 to T-2.9 -------------------------------------------------------------------


def test_T_2_4_concentrate_untaps_ends_summoning_sickness_draws_and_gives_a_counter():
    pc = new_pc()
    pc.battlefield.append(Permanent(card=pc.hand.pop(), owner="ann", tapped=True))
    drawn = concentrate(pc)
    assert len(drawn) == 1 and len(pc.hand) == 7
    assert pc.concentration_counter
    assert not pc.battlefield[0].tapped and not pc.battlefield[0].summoning_sick


def test_T_2_4_no_draw_with_a_full_hand_of_7():
    pc = new_pc()
    assert concentrate(pc) == [] and len(pc.hand) == 7


def test_T_2_4_cannot_concentrate_twice():
    pc = new_pc()
    concentrate(pc)
    with pytest.raises(RuleError, match="T-2.4"):
        concentrate(pc)


def test_T_2_4_T_7_2_concentrating_on_an_empty_library_makes_the_pc_unconscious():
    pc = new_pc()
    pc.hand.pop()
    pc.library.clear()
    assert concentrate(pc) == []
    assert pc.status == "unconscious"
    with pytest.raises(RuleError, match="T-7.2"):
        rest(pc)


def test_T_2_5_play_a_land_needs_a_counter_and_one_per_concentration():
    pc = PC(id="ann", name="Ann", cards=(FOREST, FOREST, BEAR), hand=[0, 1, 2], library=[])
    pc.hand += [2] * 5  # a full hand so concentrating draws nothing
    with pytest.raises(RuleError, match="must concentrate"):
        play_land(pc, 0)
    concentrate(pc)
    permanent = play_land(pc, 0)
    assert pc.battlefield == [permanent] and 0 not in pc.hand
    with pytest.raises(RuleError, match="already played a land"):
        play_land(pc, 1)
    with pytest.raises(RuleError, match="not a land"):
        play_land(pc, 2)
    rest(pc)
    concentrate(pc)
    play_land(pc, 1)
    assert len(pc.battlefield) == 2


def test_T_2_6_rest_removes_damage_then_the_counter():
    pc = new_pc()
    pc.battlefield.append(Permanent(card=pc.hand.pop(), owner="ann", damage=1))
    concentrate(pc)
    rest(pc)
    assert pc.battlefield[0].damage == 0 and not pc.concentration_counter
    concentrate(pc)  # allowed again


def test_T_2_8_sleep_resets_library_hand_and_life():
    pc = new_pc()
    rng = random.Random(2)
    pc.graveyard.append(pc.hand.pop())
    pc.exhaustion_zone.append(pc.hand.pop())
    pc.battlefield.append(Permanent(card=pc.hand.pop(), owner="ann"))
    pc.exile.append(pc.library.pop())
    pc.boost_exile += [pc.library.pop() for _ in range(6)]
    pc.boost_used = True
    lose_life(pc, 15)
    sleep(pc, rng)
    assert pc.life == 20 and len(pc.hand) == 7 and len(pc.library) == 53
    assert sorted(pc.hand + pc.library) == list(range(60))
    assert not (pc.graveyard or pc.exile or pc.exhaustion_zone or pc.battlefield or pc.boost_exile)
    assert not pc.boost_used


def test_T_2_8_sleep_keeps_life_when_the_scenario_says_so():
    pc = new_pc()
    lose_life(pc, 5)
    sleep(pc, random.Random(1), restore_life=False)
    assert pc.life == 15


def test_T_2_8_T_7_2_sleep_wakes_an_unconscious_pc():
    pc = new_pc()
    pc.hand.clear()
    draw(pc, 60)
    assert pc.status == "unconscious"
    sleep(pc, random.Random(1))
    assert pc.status == "ok" and len(pc.hand) == 7


def test_T_2_9_scene_end_moves_everything_but_hand_and_library_to_exhaustion():
    pc = new_pc()
    rng = random.Random(3)
    moved = [pc.hand.pop() for _ in range(4)]
    pc.battlefield.append(Permanent(card=moved[0], owner="ann"))
    pc.graveyard.append(moved[1])
    pc.exile.append(moved[2])
    pc.stack.append(moved[3])
    hand, library = list(pc.hand), list(pc.library)
    scene_end(pc, rng)
    assert sorted(pc.exhaustion_zone) == sorted(moved)
    assert pc.hand == hand and pc.library == library
    assert not (pc.battlefield or pc.graveyard or pc.exile or pc.stack)


# --- T-7 ------------------------------------------------------------------------------


def test_T_7_1_life_0_makes_the_pc_dying():
    pc = new_pc()
    lose_life(pc, 19)
    assert pc.status == "ok"
    lose_life(pc, 1)
    assert pc.life == 0 and pc.status == "dying"


def test_T_7_4_further_life_loss_while_dying_kills():
    pc = new_pc()
    lose_life(pc, 25)
    assert pc.status == "dying"
    lose_life(pc, 1)
    assert pc.status == "dead"
    with pytest.raises(RuleError):
        sleep(pc, random.Random(1))


def test_T_7_2_drawing_from_an_empty_library_makes_the_pc_unconscious():
    pc = new_pc()
    assert len(draw(pc, 60)) == 53
    assert pc.status == "unconscious"


def test_T_7_4_life_loss_while_unconscious_kills():
    pc = new_pc()
    draw(pc, 60)
    lose_life(pc, 1)
    assert pc.status == "dead"


def test_T_7_2_unconsciousness_lasts_until_the_library_has_a_card():
    """Boost cards returning at cleanup refill the library and wake the PC."""
    pc = new_pc()
    pc.boost_exile = [pc.library.pop() for _ in range(6)]
    draw(pc, 60)
    assert pc.status == "unconscious"
    scene_end(pc, random.Random(1))
    assert pc.status == "ok" and len(pc.library) == 6


def test_T_7_3_another_loss_condition_treats_life_as_0():
    pc = new_pc()
    treat_life_as_zero(pc)
    assert (pc.life, pc.status) == (0, "dying")
    treat_life_as_zero(pc)
    assert pc.status == "dead"


def test_gaining_life_lifts_a_dying_pc_above_0_reading():
    pc = new_pc()
    lose_life(pc, 20)
    gain_life(pc, 3)
    assert (pc.life, pc.status) == (3, "ok")
    lose_life(pc, 0)
    assert pc.status == "ok"


def _with_token_on_battlefield(pc: PC) -> int:
    """A battle left a token on the PC's battlefield: its card is appended to the card table."""
    goblin = Card.build("Goblin", None, "Token Creature — Goblin", power="1", toughness="1",
                        is_token=True)
    pc.cards = pc.cards + (goblin,)
    token = len(pc.cards) - 1
    pc.battlefield.append(Permanent(card=token, owner=pc.id))
    return token


def test_T_2_9_a_token_ceases_to_exist_at_scene_end():
    pc = new_pc()
    token = _with_token_on_battlefield(pc)
    scene_end(pc, random.Random(1))
    assert token not in pc.exhaustion_zone and not pc.battlefield


def test_T_2_8_a_token_is_not_shuffled_into_the_library_by_sleep():
    pc = new_pc()
    token = _with_token_on_battlefield(pc)
    sleep(pc, random.Random(1))
    assert token not in pc.library + pc.hand
    assert sorted(pc.library + pc.hand) == list(range(60))


def test_T_7_4_an_action_that_reduces_life_kills_a_dying_pc_even_when_it_takes_0():
    """T-7.4 (seed 000 line 229, 「もう1度ライフを減らす行動をされた場合」): the action counts,
    not the amount: losing 0 life kills a dying PC. (A script's `pc loses 0 life` reaches this
    once the interpreter sends a 0 loss to `lose_life`, not to `gain_life`.)"""
    pc = new_pc()
    lose_life(pc, 20)
    assert pc.status == "dying"
    lose_life(pc, 0)
    assert (pc.life, pc.status) == (0, "dead")
