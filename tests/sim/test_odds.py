"""Exact odds (T-1.6) against the engine's own check procedure.

Two independent routes: every arrangement of a small library run through
``make_check`` (exact equality), and Monte Carlo of ``make_check`` on shuffled
PCs (within 4 standard errors), including random decks drawn by hypothesis.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckquest.cards.model import Card
from deckquest.engine.checks import boost_when_failing, make_check
from deckquest.engine.colors import KINDS_2014, KINDS_2019
from deckquest.engine.pc import PC, create_pc, designate_critical
from deckquest.engine.odds import (
    check_probability,
    composition,
    deck_memo,
    odds_table,
    parse_critical_option,
)

FOREST = Card.build("Forest", None, "Basic Land — Forest")
ISLAND = Card.build("Island", None, "Basic Land — Island")
MOUNTAIN = Card.build("Mountain", None, "Basic Land — Mountain")
TAIGA = Card.build("Taiga", None, "Land — Mountain Forest")
GUILDGATE = Card.build("Gruul Guildgate", None, "Land — Gate")
ELVES = Card.build("Llanowar Elves", "{G}", "Creature — Elf Druid")
BEAR = Card.build("Runeclaw Bear", "{1}{G}", "Creature — Bear")
WURM = Card.build("Craw Wurm", "{4}{G}{G}", "Creature — Wurm")
MIND_STONE = Card.build("Mind Stone", "{2}", "Artifact")
GOLD = Card.build("Kiora's Follower", "{G}{U}", "Creature — Merfolk")
THREE_COLOR = Card.build("Mantis Rider", "{U}{R}{W}", "Creature — Human Monk")
SHOCK = Card.build("Shock", "{R}", "Instant")
DEVOID = Card.build("Vile Aggregate", "{2}{B}", "Creature — Eldrazi Drone", keywords=("Devoid",))

MONO_GREEN = [FOREST] * 24 + [ELVES] * 8 + [BEAR] * 12 + [WURM] * 8 + [MIND_STONE] * 4 + [GUILDGATE] * 4
TEMUR = (
    [FOREST] * 12 + [ISLAND] * 10 + [TAIGA] * 4 + [GOLD] * 20 + [THREE_COLOR] * 14 + [SHOCK] * 20
    + [WURM] * 10 + [DEVOID] * 10
)  # 100 cards: a Commander deck, 5 critical cards
ARTIFACTS = [MIND_STONE] * 14 + [GUILDGATE] * 10 + [DEVOID] * 6 + [SHOCK] * 5 + [MOUNTAIN] * 5


# --- exact equality with every arrangement --------------------------------------------


class FixedColor(random.Random):
    """Chooses colour number ``k`` (modulo the count): enumerates T-4.5's choice."""

    def __init__(self, k: int):
        super().__init__(k)
        self.k = k

    def choice(self, seq):
        return seq[self.k % len(seq)]


def arrangements(counts: list[int]):
    """Every distinct order of a multiset given as counts per type (each equally likely)."""
    prefix: list[int] = []
    total = sum(counts)

    def place():
        if len(prefix) == total:
            yield tuple(prefix)
            return
        for kind, left in enumerate(counts):
            if left:
                counts[kind] -= 1
                prefix.append(kind)
                yield from place()
                prefix.pop()
                counts[kind] += 1

    yield from place()


def enumerated_probability(groups, kind, difficulty, boost):
    """P(success) over all arrangements; groups = [(card, critical, count)]; colours averaged."""
    colour_choices = 6  # divisible by 1, 2 and 3 colours
    wins = runs = 0
    for order in arrangements([count for _, _, count in groups]):
        cards = tuple(groups[g][0] for g in order)
        critical = frozenset(i for i, g in enumerate(order) if groups[g][1])
        for k in range(colour_choices):
            pc = PC(id="pc", name="Ann", cards=cards, critical_cards=critical, library=list(range(len(cards))))
            policy = boost_when_failing if boost else None
            wins += make_check(pc, kind, difficulty, FixedColor(k), boost_policy=policy).success
            runs += 1
    return Fraction(wins, runs)


def exact_from_groups(groups, kind, difficulty, boost):
    cards, critical = [], set()
    for card, is_critical, count in groups:
        for _ in range(count):
            if is_critical:
                critical.add(len(cards))
            cards.append(card)
    return check_probability(cards, critical, kind, difficulty, boost=boost)


@pytest.mark.parametrize("kind, difficulty", [("green", 1), ("blue", 3), ("colorless", 0), ("red", 2)])
def test_T_4_5_T_4_6_exact_equals_every_arrangement_with_boost(kind, difficulty):
    groups = [(FOREST, False, 3), (WURM, False, 2), (GOLD, False, 2), (THREE_COLOR, False, 1)]
    assert exact_from_groups(groups, kind, difficulty, True) == enumerated_probability(groups, kind, difficulty, True)


@pytest.mark.parametrize("kind, difficulty", [("green", 2), ("white", 0), ("colorless", 1)])
def test_T_4_7_exact_equals_every_arrangement_with_criticals(kind, difficulty):
    groups = [(FOREST, True, 3), (WURM, False, 2), (GOLD, False, 1), (MIND_STONE, False, 1), (ISLAND, False, 1)]
    assert exact_from_groups(groups, kind, difficulty, False) == enumerated_probability(groups, kind, difficulty, False)


def test_T_4_7_exact_equals_every_arrangement_with_redo_and_boost():
    groups = [(FOREST, True, 2), (FOREST, False, 5), (WURM, False, 4)]
    for difficulty in (0, 3):
        exact = exact_from_groups(groups, "green", difficulty, True)
        assert exact == enumerated_probability(groups, "green", difficulty, True)


def test_T_4_7_exact_redo_reaching_returned_criticals_in_a_tiny_library():
    groups = [(FOREST, True, 2), (MIND_STONE, False, 1)]
    assert exact_from_groups(groups, "green", 9, False) == enumerated_probability(groups, "green", 9, False)
    assert exact_from_groups(groups, "green", 9, False) == Fraction(2, 3)


# --- hand-computable values -----------------------------------------------------------


def test_T_4_7_only_criticals_or_too_few_cards_never_succeed():
    assert check_probability([FOREST] * 3, {0, 1, 2}, "green", 0) == 0
    assert check_probability([FOREST], (), "green", 0) == 0
    assert check_probability([], (), "green", 0) == 0


def test_T_4_4_two_card_library_by_hand():
    # Wurm first: target 6, Forest result 5: fail. Forest first: target 0, Wurm 11: success.
    assert check_probability([WURM, FOREST], (), "green", 0) == Fraction(1, 2)
    # Critical Forest: first -> automatic failure, second -> automatic success.
    assert check_probability([WURM, FOREST], {1}, "green", 0) == Fraction(1, 2)
    assert check_probability([WURM, FOREST], {0}, "green", 0) == Fraction(1, 2)


def test_T_4_6_boost_needs_a_library_of_8_and_then_helps():
    small = [WURM, FOREST] + [FOREST] * 5
    assert check_probability(small, (), "green", 0, boost=True) == check_probability(small, (), "green", 0)
    enough = small + [FOREST]
    assert check_probability(enough, (), "green", 0, boost=True) > check_probability(enough, (), "green", 0)


def test_T_4_6_exact_boost_refuses_a_library_too_small_after_a_redo():
    with pytest.raises(ValueError, match="too small"):
        check_probability([FOREST] * 2 + [WURM] * 7, {0, 1}, "green", 3, boost=True)


def test_T_5_2_2014_odds_count_cards_whose_value_beats_the_target():
    deck = [FOREST] * 2 + [WURM] + [GUILDGATE]  # body values 5, 5, 11, 2
    assert check_probability(deck, (), "body", 4, rules="2014") == Fraction(3, 4)
    assert check_probability(deck, (), "body", 5, rules="2014") == Fraction(1, 4)
    assert check_probability(deck, {2}, "body", 5, rules="2014") == Fraction(1, 4)  # no criticals in 2014
    with pytest.raises(ValueError, match="no boost"):
        check_probability(deck, (), "body", 5, rules="2014", boost=True)


def test_odds_table_shape_and_monotone_in_difficulty():
    table = odds_table(MONO_GREEN, designate_critical(MONO_GREEN, "Forest", 3))
    boosted = odds_table(MONO_GREEN, designate_critical(MONO_GREEN, "Forest", 3), boost=True)
    assert list(table) == list(KINDS_2019)
    for kind in KINDS_2019:
        assert list(table[kind]) == list(range(9))
        values = list(table[kind].values())
        assert values == sorted(values, reverse=True)
        assert all(boosted[kind][d] >= table[kind][d] for d in range(9))
    assert table["green"][2] > table["blue"][2]
    old = odds_table(MONO_GREEN, (), rules="2014")
    assert list(old) == list(KINDS_2014) and list(old["body"]) == list(range(13))


def test_T_4_13_support_is_a_lower_difficulty():
    critical = designate_critical(MONO_GREEN, "Forest", 3)
    assert check_probability(MONO_GREEN, critical, "red", 5, support=2) == check_probability(
        MONO_GREEN, critical, "red", 3
    )


def test_composition_groups_by_check_signature():
    comp = composition([FOREST, FOREST, ELVES, SHOCK], {0})
    assert sum(n for _, n in comp) == 4
    assert len(comp) == 4  # critical Forest, Forest, green 1, red 1


def test_T_1_6_deck_memo_counts_colors_lands_and_multicolor_once_each():
    memo = deck_memo([FOREST] * 20 + [TAIGA] * 2 + [GOLD] * 3 + [GUILDGATE] + [MIND_STONE] * 2 + [DEVOID])
    assert memo.colors == {"white": 0, "blue": 3, "black": 0, "red": 2, "green": 25, "colorless": 4}
    assert memo.library == 29
    assert str(memo) == "U3 R2 G25 colorless 4 / 29"


def test_parse_critical_option_default_count_is_1():
    assert parse_critical_option("Forest:3") == ("Forest", 3)
    assert parse_critical_option("Craw Wurm") == ("Craw Wurm", 1)
    assert parse_critical_option("Circle of Protection: Red") == ("Circle of Protection: Red", 1)


# --- Monte Carlo of the engine ----------------------------------------------------------


def monte_carlo(cards, critical, kind, difficulty, boost, trials, seed, rules="2019"):
    rng = random.Random(seed)
    policy = boost_when_failing if boost else None
    wins = 0
    cards = tuple(cards)  # one card table for every PC dealt, as a batch's party member has
    for _ in range(trials):
        pc = create_pc("pc", "Ann", cards, critical, rng)  # shuffled, opening hand drawn
        wins += make_check(pc, kind, difficulty, rng, rules=rules, boost_policy=policy).success
    return wins / trials


def assert_within_4_se(exact: Fraction, observed: float, trials: int):
    p = float(exact)
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(observed - p) <= 4 * se + 1e-12, (p, observed, se)


@pytest.mark.parametrize(
    "kind, difficulty, boost",
    [("green", 3, False), ("green", 6, True), ("white", 2, True), ("colorless", 1, False)],
)
def test_exact_matches_monte_carlo_mono_green(kind, difficulty, boost):
    critical = designate_critical(MONO_GREEN, "Forest", 3)
    exact = check_probability(MONO_GREEN, critical, kind, difficulty, boost=boost)
    assert_within_4_se(exact, monte_carlo(MONO_GREEN, critical, kind, difficulty, boost, 4000, 1), 4000)


@pytest.mark.slow
@pytest.mark.parametrize("deck_name", ["MONO_GREEN", "TEMUR", "ARTIFACTS"])
def test_exact_matches_monte_carlo_every_kind(deck_name):
    deck = {"MONO_GREEN": MONO_GREEN, "TEMUR": TEMUR, "ARTIFACTS": ARTIFACTS}[deck_name]
    critical = frozenset(range(5 if deck is TEMUR else 3))  # the first cards of the list
    trials = 3000
    for n, kind in enumerate(KINDS_2019):
        for boost in (False, True):
            difficulty = (2 * n + boost) % 9
            exact = check_probability(deck, critical, kind, difficulty, boost=boost)
            observed = monte_carlo(deck, critical, kind, difficulty, boost, trials, n * 2 + boost)
            assert_within_4_se(exact, observed, trials)
    for n, kind in enumerate(KINDS_2014):
        exact = check_probability(deck, critical, kind, 3 + n, rules="2014")
        assert_within_4_se(exact, monte_carlo(deck, critical, kind, 3 + n, False, trials, 99, "2014"), trials)


CARD_POOL = [FOREST, ISLAND, MOUNTAIN, TAIGA, GUILDGATE, ELVES, BEAR, WURM, MIND_STONE, GOLD, THREE_COLOR, SHOCK, DEVOID]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    counts=st.lists(st.integers(0, 8), min_size=len(CARD_POOL), max_size=len(CARD_POOL)).filter(
        lambda c: 22 <= sum(c) <= 60
    ),
    criticals=st.integers(0, 5),
    kind=st.sampled_from(KINDS_2019),
    difficulty=st.integers(0, 8),
    boost=st.booleans(),
)
def test_exact_matches_monte_carlo_random_decks(counts, criticals, kind, difficulty, boost):
    deck = [card for card, count in zip(CARD_POOL, counts) for _ in range(count)]
    critical = frozenset(random.Random(sum(counts)).sample(range(len(deck)), criticals))
    exact = check_probability(deck, critical, kind, difficulty, boost=boost)
    trials = 3000
    assert_within_4_se(exact, monte_carlo(deck, critical, kind, difficulty, boost, trials, 7), trials)
