"""The effect vocabulary and the recogniser (battles are MTG games, T-6.1; planeswalker
loyalty abilities, T-8.2)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.cards.database import builtin_index
from deckquest.cards.importers import Entry, read_entries
from deckquest.cards.model import Card
from deckquest.cards.oracle import (
    ANY_TARGET,
    COMBAT_KEYWORDS,
    SELF,
    YOU,
    Amount,
    Condition,
    Cost,
    Target,
    coverage,
    format_coverage,
    parse_target,
    recognise,
    sentence_effects,
)
from deckquest.engine.combat.profile import KEYWORD_FLAGS

SHARED = Path("/work/shared/data")


def builtin(name: str) -> Card:
    card = builtin_index().get(name)
    assert card is not None, name
    return card


def only_effect(text: str):
    effects = sentence_effects(text)
    assert effects is not None and len(effects) == 1, (text, effects)
    return effects[0]


def test_combat_keywords_match_the_engine():
    """The keywords counted as understood are exactly those the combat engine implements."""
    assert COMBAT_KEYWORDS == frozenset(KEYWORD_FLAGS)


# --- each effect of the vocabulary ---------------------------------------------------------


def test_damage_to_any_target():
    effect = only_effect("~ deals 3 damage to any target.")
    assert (effect.kind, effect.amount, effect.target) == ("damage", Amount(3), ANY_TARGET)


def test_damage_x_and_to_each_creature():
    assert only_effect("~ deals X damage to any target").amount.is_x
    each = only_effect("~ deals 2 damage to each creature").target
    assert (each.scope, each.kinds) == ("each", ("creature",))


def test_damage_to_player_or_planeswalker_and_each_opponent():
    assert only_effect("~ deals 5 damage to target player or planeswalker").target.kinds == ("player", "planeswalker")
    opponents = only_effect("~ deals 2 damage to each opponent").target
    assert (opponents.scope, opponents.controller) == ("each", "opponent")


def test_destroy_with_conditions():
    effect = only_effect("Destroy target nonartifact, nonblack creature.")
    assert effect.kind == "destroy"
    assert effect.target.conditions == (Condition("not_type", "artifact"), Condition("not_color", "B"))
    big = only_effect("Destroy target creature with power 4 or greater").target
    assert big.conditions == (Condition("power_at_least", 4),)
    flying = only_effect("Destroy target creature with flying").target
    assert flying.conditions == (Condition("keyword", "flying"),)


def test_destroy_all_and_if_it_has():
    wrath = only_effect("Destroy all creatures")
    assert (wrath.target.scope, wrath.target.kinds) == ("each", ("creature",))
    push = only_effect("Destroy target creature if it has mana value 2 or less")
    assert push.target.conditions == (Condition("mana_value_at_most", 2),)


def test_destroy_either_kind():
    assert only_effect("Destroy target artifact or enchantment").target.kinds == ("artifact", "enchantment")
    assert only_effect("Destroy target creature or planeswalker").target.kinds == ("creature", "planeswalker")


def test_exile():
    effect = only_effect("Exile target creature")
    assert (effect.kind, effect.target.kinds) == ("exile", ("creature",))


def test_return_to_hand():
    effect = only_effect("Return target creature to its owner's hand.")
    assert (effect.kind, effect.target.kinds) == ("bounce", ("creature",))


def test_counter_a_spell_with_and_without_unless():
    plain = only_effect("Counter target spell.")
    assert (plain.kind, plain.target.kinds, plain.unless_pays) == ("counter", ("spell",), 0)
    leak = only_effect("Counter target spell unless its controller pays {3}.")
    assert leak.unless_pays == 3
    negate = only_effect("Counter target noncreature spell.")
    assert negate.target.conditions == (Condition("not_type", "creature"),)
    scatter = only_effect("Counter target creature spell.")
    assert scatter.target.conditions == (Condition("type", "creature"),)


def test_draw_for_you_and_for_a_target_player():
    assert only_effect("Draw two cards.").amount == Amount(2)
    assert only_effect("Draw a card").target == YOU
    assert only_effect("Target player draws three cards").target == Target("target", ("player",))


def test_discard_at_random():
    effect = only_effect("Target player discards two cards at random.")
    assert (effect.kind, effect.amount, effect.at_random) == ("discard", Amount(2), True)


def test_gain_and_lose_life():
    gain = only_effect("You gain 3 life.")
    assert (gain.kind, gain.amount, gain.target) == ("gain_life", Amount(3), YOU)
    lose = only_effect("Each opponent loses 2 life")
    assert (lose.kind, lose.target.controller) == ("lose_life", "opponent")


def test_subject_carries_over_and():
    """Sign in Blood: both halves are the target player's."""
    draw, lose = sentence_effects("Target player draws two cards and loses 2 life.")
    assert draw.target == lose.target == Target("target", ("player",))
    assert lose.kind == "lose_life"


def test_pump_until_end_of_turn():
    effect = only_effect("Target creature gets +3/+3 until end of turn.")
    assert (effect.kind, effect.power, effect.toughness) == ("pump", 3, 3)
    shrink = only_effect("Target creature gets -2/-2 until end of turn")
    assert (shrink.power, shrink.toughness) == (-2, -2)
    self_pump = only_effect("~ gets +1/+0 until end of turn")
    assert self_pump.target == SELF


def test_pump_of_a_group_with_a_keyword():
    effect = only_effect("Creatures you control get +3/+3 and gain trample until end of turn")
    assert effect.target == Target("each", ("creature",), "you")
    assert effect.keywords == ("trample",)


def test_keyword_grant_is_a_pump_of_zero():
    effect = only_effect("Target creature gains double strike until end of turn.")
    assert (effect.kind, effect.power, effect.keywords) == ("pump", 0, ("double strike",))


def test_plus_one_counters():
    effect = only_effect("Put a +1/+1 counter on each creature you control.")
    assert (effect.kind, effect.amount, effect.target.scope) == ("counters", Amount(1), "each")


def test_create_tokens_with_keywords():
    effect = only_effect("Create three 1/1 white Spirit creature tokens with flying.")
    token = effect.token
    assert (effect.kind, effect.amount) == ("token", Amount(3))
    assert (token.name, token.power, token.toughness, token.colors, token.keywords) == ("Spirit", 1, 1, ("W",), ("flying",))


def test_tokens_counted_x():
    """Krenko, Mob Boss: X is the number of Goblins you control."""
    (ability,) = recognise(builtin("Krenko, Mob Boss")).abilities
    (effect,) = ability.effects
    assert effect.amount == Amount(0, count_of="Goblin")
    assert effect.amount.value(counted=4) == 4
    assert ability.cost == Cost(tap=True)


def test_tap_and_untap():
    tap = only_effect("Tap target creature.")
    assert (tap.kind, tap.target.kinds) == ("tap", ("creature",))
    untap = only_effect("Untap two target lands.")
    assert (untap.kind, untap.target.count, untap.target.kinds) == ("untap", 2, ("land",))


def test_mill():
    effect = only_effect("Target player mills two cards.")
    assert (effect.kind, effect.amount) == ("mill", Amount(2))


def test_search_for_a_basic_land():
    effect = only_effect("Search your library for a basic land card, put that card onto the battlefield tapped, then shuffle.")
    assert (effect.kind, effect.land_type, effect.tapped, effect.to_hand) == ("search_land", "basic", True, False)
    forest = only_effect("Search your library for a Forest card, put that card onto the battlefield, then shuffle.")
    assert (forest.land_type, forest.tapped) == ("Forest", False)


def test_fight():
    effect = only_effect("Target creature you control fights target creature you don't control.")
    assert effect.kind == "fight"
    assert (effect.target.controller, effect.other.controller) == ("you", "opponent")


def test_then_splits_a_sentence():
    draw, discard = sentence_effects("Draw two cards, then discard two cards.")
    assert (draw.kind, discard.kind) == ("draw", "discard")


def test_unknown_clause_is_none():
    assert sentence_effects("Take an extra turn after this one.") is None
    assert sentence_effects("Draw a card and take an extra turn after this one.") is None


# --- targets --------------------------------------------------------------------------------


def test_targets():
    assert parse_target("any target") == ANY_TARGET
    assert parse_target("target tapped creature").conditions == (Condition("tapped"),)
    assert parse_target("target attacking or blocking creature").conditions == (Condition("attacking_or_blocking"),)
    assert parse_target("another target nonland permanent") == Target(
        "target", ("permanent",), conditions=(Condition("not_type", "land"), Condition("another")))
    assert parse_target("target creature you don't control").controller == "opponent"
    assert parse_target("each creature without flying").conditions == (Condition("no_keyword", "flying"),)
    assert parse_target("target frobnicator") is None


# --- whole cards -----------------------------------------------------------------------------


def test_vanilla_and_keyword_cards_are_full():
    assert recognise(builtin("Hill Giant")).level == "full"
    assert recognise(builtin("Vampire Nighthawk")).level == "full"


def test_basic_and_dual_lands_are_full():
    """Reminder text is not rules text; "{T}: Add …" is a mana ability the engine pays with."""
    for name in ("Forest", "Gruul Guildgate", "Llanowar Elves", "Birds of Paradise"):
        assert recognise(builtin(name)).level == "full", name
    (ability,) = recognise(builtin("Llanowar Elves")).abilities
    assert ability.timing == "mana"


def test_a_spell_is_one_spell_ability():
    recognition = recognise(builtin("Lightning Bolt"))
    assert recognition.level == "full"
    assert [a.timing for a in recognition.abilities] == ["spell"]


def test_partial_lists_what_is_not_understood():
    recognition = recognise(builtin("Baneslayer Angel"))
    assert recognition.level == "partial"
    assert recognition.unrecognised == ("protection from Demons and from Dragons",)
    assert recognise(builtin("Black Knight")).level == "full"  # protection from a colour, CR 702.16


def test_none_when_nothing_is_understood():
    recognition = recognise(builtin("Time Walk"))
    assert recognition.level == "none"
    assert recognition.abilities == ()
    assert recognition.unrecognised == ("Take an extra turn after this one.",)


def test_ritual_mana_is_not_a_mana_ability():
    """Only "{T}: Add …" is paid by the engine; a spell that adds mana is not simulated."""
    assert recognise(builtin("Dark Ritual")).level == "none"
    assert recognise(builtin("Ancient Tomb")).level == "none"


def test_triggers():
    """Enters and dies triggers; "enters or dies" is one sentence with two abilities."""
    timings = [a.timing for a in recognise(builtin("Mogg War Marshal")).abilities]
    assert timings == ["enters", "dies"]
    marshal = recognise(builtin("Mogg War Marshal"))
    assert marshal.unrecognised == () and marshal.echo == "{1}{R}"  # echo, CR 702.30
    siege = recognise(builtin("Siege-Gang Commander"))
    assert siege.level == "full"
    assert siege.abilities[1].cost == Cost(mana="{1}{R}", sacrifice="Goblin")


def test_optional_trigger():
    (ability,) = recognise(builtin("Solemn Simulacrum")).abilities[:1]
    assert ability.optional and ability.effects[0].kind == "search_land"


def test_additional_cost_of_a_spell():
    (ability,) = recognise(builtin("Goblin Grenade")).abilities
    assert ability.cost == Cost(sacrifice="Goblin")
    assert ability.effects[0].amount == Amount(5)


def test_modal_spell():
    (ability,) = recognise(builtin("Izzet Charm")).abilities
    assert ability.modal and ability.effects == ()
    assert [[e.kind for e in mode] for mode in ability.modes] == [["counter"], ["damage"], ["draw", "discard"]]


def test_loyalty_abilities_t_8_2():
    """T-8.2: loyalty abilities with their loyalty cost."""
    recognition = recognise(builtin("Garruk Wildspeaker"))
    assert recognition.level == "full"
    assert [a.cost.loyalty for a in recognition.abilities] == [1, -1, -4]
    assert [a.timing for a in recognition.abilities] == ["loyalty"] * 3
    elspeth = recognise(builtin("Elspeth, Sun's Champion"))
    assert elspeth.level == "partial"
    assert [a.cost.loyalty for a in elspeth.abilities] == [1, -3]


def test_enters_with_counters():
    (ability,) = recognise(builtin("Triskelion")).abilities
    assert (ability.timing, ability.effects[0].kind, ability.effects[0].amount) == ("enters", "counters", Amount(3))


def test_multi_faced_separator_is_not_a_sentence():
    card = Card.build("Up // Down", "{R}", "Instant", oracle_text="Draw a card.\n//\nDraw two cards.")
    assert recognise(card).level == "full"


def test_imported_card_with_own_name():
    card = Card.build("Zap Master", "{1}{R}", "Creature — Goblin", power="1", toughness="1",
                      oracle_text="{T}: Zap Master deals 1 damage to any target.")
    (ability,) = recognise(card).abilities
    assert ability.effects[0].target == ANY_TARGET


# --- coverage ---------------------------------------------------------------------------------


def test_builtin_database_coverage():
    """The recogniser's reach on the built-in database (the figure the issue asks for)."""
    report = coverage(builtin_index())
    full, partial, none = report.count("full"), report.count("partial"), report.count("none")
    assert full + partial + none == len(builtin_index())
    # shares, not counts: the built-in database grows (874 cards: 452 / 218 / 204, 64%;
    # most of the "none" are fetch lands, signets, equipment and tutors)
    assert full >= 0.45 * len(builtin_index()) and none <= 0.3 * len(builtin_index())
    assert report.score > 0.6


def test_every_builtin_card_is_classified_without_error():
    for card in builtin_index():
        recognition = recognise(card)
        assert recognition.level in ("full", "partial", "none")
        if recognition.level == "full":
            assert not recognition.unrecognised


@pytest.mark.parametrize("sample", ["scryfall-sample/cards.json", "mtgjson-sample/AtomicCards.sample.json"])
def test_real_card_samples_are_read(sample):
    path = SHARED / sample
    if not path.exists():
        pytest.skip("shared samples not present")
    cards = [e.card for e in read_entries(path) if isinstance(e, Entry)]
    report = coverage(cards)
    assert report.total == len(cards)
    assert any(c.recognition.level == "full" for c in report.cards)


def test_coverage_counts_copies():
    bolt, time_walk = builtin("Lightning Bolt"), builtin("Time Walk")
    report = coverage([bolt] * 3 + [time_walk])
    assert (report.total, report.count("full"), report.count("none")) == (4, 3, 1)
    assert report.score == 0.75
    text = format_coverage(report, "deck.txt")
    assert text.splitlines()[0] == "deck.txt: 4 cards, 75% simulated (full 3, partly 0, not at all 1)"
    assert "not simulated: Take an extra turn after this one." in text


WORDS = ["~", "deals", "damage", "to", "any", "target", "draw", "a", "card", "create", "two", "1/1", "red", "Goblin",
         "creature", "token", "tokens", "{T}:", "{1}{R},", "+1:", "−2:", "destroy", "target", "nonblack", "X", "each",
         "opponent", "you", "gain", "3", "life", "and", "then", "counter", "spell", "unless", "its", "controller",
         "pays", "{2}", "When", "enters,", "dies,", "Choose", "one", "—", "•", "(", ")", ".", "\n", "Sacrifice", "with",
         "power", "4", "or", "greater", "gets", "+2/+2", "until", "end", "of", "turn", "Flying,", "trample"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=30), st.sampled_from(["Instant", "Creature — Goblin", "Planeswalker — X"]))
def test_any_text_is_classified_without_error(words, type_line):
    """Imported cards can say anything: the recogniser never fails, and `full` means nothing was left over."""
    card = Card.build("Zap", "{R}", type_line, oracle_text=" ".join(words).replace("~", "Zap"))
    recognition = recognise(card)
    assert recognition.level in ("full", "partial", "none")
    assert (recognition.level == "full") == (not recognition.unrecognised)


# --- static abilities, more triggers, kicker, flash (docs/effects.md) -------------------------


@pytest.mark.parametrize("text, controller, conditions, pt, keywords", [
    ("Other Goblin creatures you control get +1/+1 and have haste.", "you",
     (Condition("another"), Condition("subtype", "Goblin")), (1, 1), ("haste",)),
    ("Other Goblin creatures get +1/+1 and have mountainwalk.", "any",
     (Condition("another"), Condition("subtype", "Goblin")), (1, 1), ("mountainwalk",)),
    ("Creatures you control get +1/+1.", "you", (), (1, 1), ()),
    ("White creatures get +1/+1.", "any", (Condition("color", "W"),), (1, 1), ()),
    ("Goblin creatures you control have haste.", "you", (Condition("subtype", "Goblin"),), (0, 0), ("haste",)),
])
def test_lords_and_anthems_are_static_anthem_effects_cr_611_3(text, controller, conditions, pt, keywords):
    from deckquest.cards.oracle import static_ability

    ability = static_ability(text)
    assert ability is not None and ability.timing == "static"
    (effect,) = ability.effects
    assert effect.kind == "anthem" and effect.target.scope == "each" and effect.target.kinds == ("creature",)
    assert (effect.target.controller, effect.target.conditions) == (controller, conditions)
    assert ((effect.power, effect.toughness), effect.keywords) == (pt, keywords)


def test_conditional_statics_stay_unrecognised():
    """The lord text is not read; the creature still plays as a 2/2, so it is partly simulated."""
    card = Card.build("Sunny Lord", "{1}{W}", "Creature — Human", power="2", toughness="2",
                      oracle_text="~ gets +1/+1 as long as you control a Plains.".replace("~", "Sunny Lord"))
    recognition = recognise(card)
    assert recognition.level == "partial" and recognition.abilities == ()


def test_cant_block_is_a_static_restriction_of_the_card():
    (ability,) = recognise(builtin("Goblin Raider")).abilities
    assert ability.timing == "static" and ability.effects[0].target == SELF
    assert ability.effects[0].keywords == ("can't block",)


def test_upkeep_and_end_step_triggers():
    upkeep = Card.build("Pinger", "{R}", "Creature — Imp", power="1", toughness="1",
                        oracle_text="At the beginning of your upkeep, Pinger deals 1 damage to you.")
    end = Card.build("Healer", "{W}", "Enchantment", oracle_text="At the beginning of your end step, you gain 2 life.")
    assert [a.timing for a in recognise(upkeep).abilities] == ["upkeep"]
    assert [a.timing for a in recognise(end).abilities] == ["end_step"]


def test_kicker_and_the_kicked_enters_trigger_cr_702_33():
    recognition = recognise(builtin("Goblin Bushwhacker"))
    assert recognition.level == "full" and recognition.kicker == "{R}"
    (ability,) = recognition.abilities
    assert ability.timing == "enters" and ability.kicked


def test_you_may_have_it_deal_damage_is_an_optional_damage_trigger():
    (ability,) = recognise(builtin("Goblin Arsonist")).abilities
    assert ability.timing == "dies" and ability.optional
    assert ability.effects[0].kind == "damage" and ability.effects[0].target == ANY_TARGET


def test_damage_to_a_player_trigger_and_that_player():
    (ability,) = recognise(builtin("Hypnotic Specter")).abilities
    assert ability.timing == "hits"
    assert ability.effects[0].kind == "discard" and ability.effects[0].target.scope == "its_controller"


def test_goblin_guide_gives_the_defending_player_a_land():
    (ability,) = recognise(builtin("Goblin Guide")).abilities
    assert ability.timing == "attacks" and ability.effects[0].kind == "reveal_land"
    assert ability.effects[0].target.scope == "defending"


def test_flash_is_understood():
    card = Card.build("Ambush Bear", "{1}{G}", "Creature — Bear", power="2", toughness="2",
                      keywords=("Flash",), oracle_text="Flash")
    assert recognise(card).level == "full"


def test_what_a_card_text_means_survives_pickling_and_copying():
    """The compiled build compiles this reader (docs/development.md): a frozen value restored
    by setting its fields one by one is refused there, so every reading of the built-in cards
    (effects, amounts, targets, conditions, tokens, costs, abilities, coverage) must come back
    equal from `pickle` and `copy.deepcopy`."""
    import copy
    import pickle

    index = builtin_index()
    cards = [index.get(name) for name in index.names()]
    readings = [recognise(card) for card in cards if card is not None]
    assert any(r.abilities for r in readings) and any(e.token for r in readings for e in r.effects)
    report = coverage([card for card in cards if card is not None])
    for value in [*readings, report]:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
