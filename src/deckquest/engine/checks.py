"""Checks (行動判定): the 2019 rules (T-4, the default) and the 2014 rules (T-5).

A check is a step procedure so that a player (or an agent) can decide on a
boost after seeing target and result (T-4.6), and nothing else (T-4.11):

    pending = begin_check(pc, "green", 2, rng)   # reveal; target and result fixed
    if wants_boost(pending): boost(pc, pending)  # optional, 2019 only
    record = finish_check(pc, pending, rng)      # revealed cards go to the bottom

``make_check`` runs the three steps with a boost policy. The pending check
and the record are plain data. No function here prints.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Callable, Final, Hashable, NamedTuple

from deckquest.i18n import _
from deckquest.cards.model import Card
from deckquest.engine.colors import (
    KINDS_2014, KINDS_2019, bonus_2014, check_kind, color_bonus, is_colorless_for_boost, rule_colors,
)
from deckquest.engine.pc import ABLE, PC, UNCONSCIOUS, RuleError, put_on_bottom, shuffle, wake_if_library

RULES: Final = ("2019", "2014")
CRITICAL_MANA_VALUE: Final = 20  # T-4.7
BOOST_SIZE: Final = 6  # T-4.6
ESCAPE: Final = "escape"  # T-4.12: the one check that may be repeated (once per turn)
_VALID_KINDS: Final = frozenset([(kind, "2019") for kind in KINDS_2019] + [(kind, "2014") for kind in KINDS_2014])


@dataclass(slots=True, init=False)
class PendingCheck:
    """A check between its reveal and its end: target and result are fixed (T-4.2, T-4.3).

    ``result`` already includes support (T-4.13) and, once boosted, the boost
    bonus (T-4.6). Card ids refer to the PC's card table. Its ``__init__`` is written
    out (the same defaults): the one ``dataclass`` makes is interpreted even in the
    compiled build, at ten times the cost, and every check makes one.
    """

    pc: str
    rules: str
    kind: str
    difficulty: int
    support: int = 0
    revealed: list[int] = field(default_factory=list)  # the cards in play now (2 in 2019, 1 in 2014)
    reveal_order: list[int] = field(default_factory=list)  # every card revealed, redo cards included
    known: list[int] = field(default_factory=list)  # T-4.10: known top cards set aside
    redo: int = 0  # T-4.7: times both revealed cards were critical
    color: str | None = None  # the colour that gave the bonus
    target: int = 0
    result: int = 0
    critical: str | None = None  # T-4.7: "failure" or "success"
    library_short: bool = False  # too few cards to reveal: the check fails [reading]
    boost_cards: list[int] = field(default_factory=list)
    boost_bonus: int = 0
    boosted: bool = False
    finished: bool = False

    def __init__(
        self, pc: str, rules: str, kind: str, difficulty: int, support: int = 0, revealed: list[int] | None = None,
        reveal_order: list[int] | None = None, known: list[int] | None = None, redo: int = 0,
        color: str | None = None, target: int = 0, result: int = 0, critical: str | None = None,
        library_short: bool = False, boost_cards: list[int] | None = None, boost_bonus: int = 0,
        boosted: bool = False, finished: bool = False,
    ) -> None:
        self.pc = pc
        self.rules = rules
        self.kind = kind
        self.difficulty = difficulty
        self.support = support
        self.revealed = [] if revealed is None else revealed
        self.reveal_order = [] if reveal_order is None else reveal_order
        self.known = [] if known is None else known
        self.redo = redo
        self.color = color
        self.target = target
        self.result = result
        self.critical = critical
        self.library_short = library_short
        self.boost_cards = [] if boost_cards is None else boost_cards
        self.boost_bonus = boost_bonus
        self.boosted = boosted
        self.finished = finished

    @property
    def success(self) -> bool:
        """T-4.4 (result >= target) or T-5.2 (value > target), unless decided automatically."""
        if self.library_short:
            return False
        if self.critical is not None:
            return self.critical == "success"
        if self.rules == "2014":
            return self.result > self.target
        return self.result >= self.target

    @property
    def degree(self) -> int:
        """T-4.4: degree of success = result - target (negative on a failure)."""
        return self.result - self.target

    def copy(self) -> "PendingCheck":
        return replace(
            self,
            revealed=list(self.revealed),
            reveal_order=list(self.reveal_order),
            known=list(self.known),
            boost_cards=list(self.boost_cards),
        )


class CheckRecord(NamedTuple):
    """What happened in one check, by card names: the transcript's and statistics' input.

    Immutable; a named tuple rather than a frozen dataclass because one is made per
    check, and a frozen dataclass costs a ``object.__setattr__`` per field to build.
    """

    pc: str
    rules: str
    kind: str
    difficulty: int
    revealed: tuple[str, ...]  # in reveal order, redo cards included
    color: str | None
    target: int
    result: int
    degree: int
    success: bool
    critical: str | None
    redo: int
    boost_cards: tuple[str, ...]
    boost_bonus: int
    support: int
    note: str = ""


# --- the steps ------------------------------------------------------------------------


def begin_check(
    pc: PC,
    kind: str,
    difficulty: int,
    rng: random.Random,
    rules: str = "2019",
    support: int = 0,
    known: int = 0,
) -> PendingCheck:
    """Reveal and fix target and result (2019: T-4.2 to T-4.7; 2014: T-5.2 to T-5.4).

    ``support`` is the supporting creatures' total power (T-3.3, T-4.13).
    ``known`` is how many top cards of the library the player knows (T-4.10).
    Raises RuleError when the PC may not check (T-2.5, T-7.2) and ValueError
    for an unknown kind or rules edition.
    """
    if (kind, rules) not in _VALID_KINDS:  # one lookup: a batch run makes a dozen checks
        if rules not in RULES:
            raise ValueError(f"unknown rules {rules!r}; expected 2019 or 2014")
        check_kind(kind, rules)
    if pc.status not in ABLE:
        raise RuleError(f"{pc.name} is {pc.status} and cannot make a check", "T-7.2")
    if pc.concentration_counter:
        raise RuleError(f"{pc.name} has a concentration counter and cannot make a check", "T-2.5")
    pending = PendingCheck(pc.id, rules, kind, difficulty, support)
    if known:
        _set_aside_known(pc, pending, known, rng)
    if rules == "2019":
        _reveal_2019(pc, pending, rng)
    else:
        _reveal_2014(pc, pending)
    return pending


def can_boost(pc: PC, pending: PendingCheck) -> bool:
    """T-4.6: 2019 only, one boost per check, once per scene/turn, at least 6 cards in library."""
    return (
        pending.rules == "2019"
        and not pending.finished
        and not pending.boosted
        and not pc.boost_used
        and len(pc.library) >= BOOST_SIZE
    )


def boost(pc: PC, pending: PendingCheck, rng: random.Random | None = None) -> int:
    """T-4.6: exile the top 6 cards; +1 to the result per colourless card among them.

    Basic lands count as colourless here. The cards stay in ``pc.boost_exile``
    until ``boost_cleanup`` (scene end, or turn end in combat). Returns the
    bonus. ``rng`` is accepted for a uniform step signature; a boost draws
    nothing at random.
    """
    if pending.rules != "2019":
        raise RuleError("the 2014 rules have no boost", "T-5")
    if pending.finished:
        raise RuleError("the check is over", "T-4.6")
    if pending.boosted:
        raise RuleError("one boost per check", "T-4.6")
    if pc.boost_used:
        raise RuleError(f"{pc.name} already boosted in this scene (or turn)", "T-4.6")
    if len(pc.library) < BOOST_SIZE:
        raise RuleError(f"{pc.name} has fewer than {BOOST_SIZE} cards in library", "T-4.6")
    cards, pc.library = pc.library[:BOOST_SIZE], pc.library[BOOST_SIZE:]
    pc.boost_exile.extend(cards)
    pc.boost_used = True
    colorless = card_facts(pc.cards).colorless_for_boost
    bonus = sum([colorless[i] for i in cards])
    pending.boost_cards = cards
    pending.boost_bonus = bonus
    pending.boosted = True
    pending.result += bonus
    return bonus


def finish_check(pc: PC, pending: PendingCheck, rng: random.Random) -> CheckRecord:
    """End the check (``end_check``) and say what happened (``check_record``)."""
    end_check(pc, pending, rng)
    return check_record(pc, pending)


def end_check(pc: PC, pending: PendingCheck, rng: random.Random) -> None:
    """End the check: T-4.8 revealed cards to the bottom in random order, T-4.10 known back on top.

    Success and degree are then ``pending.success`` and ``pending.degree``: a caller that
    needs no more (a batch run) builds no record.
    """
    if pending.finished:
        raise RuleError("the check is already finished", "T-4.8")
    if pending.rules == "2019":
        put_on_bottom(pc, pending.revealed, rng)
    if pending.known:
        pc.library[:0] = pending.known
    if pc.status == UNCONSCIOUS:
        wake_if_library(pc)
    pending.finished = True


def check_record(pc: PC, pending: PendingCheck) -> CheckRecord:
    """The record of a finished check, with the cards by name."""
    cards = pc.cards
    return CheckRecord(  # positional, in field order: one is made per check
        pending.pc,
        pending.rules,
        pending.kind,
        pending.difficulty,
        tuple([cards[i].name for i in pending.reveal_order]),  # revealed
        pending.color,
        pending.target,
        pending.result,
        pending.result - pending.target,  # degree
        pending.success,
        pending.critical,
        pending.redo,
        tuple([cards[i].name for i in pending.boost_cards]),
        pending.boost_bonus,
        pending.support,
        check_note(pending),
    )


BoostPolicy = Callable[[PC, PendingCheck], bool]


def boost_when_failing(pc: PC, pending: PendingCheck) -> bool:
    """The policy of the exact odds: boost whenever target and result say failure."""
    return can_boost(pc, pending) and pending.critical is None and not pending.success


def make_check(
    pc: PC,
    kind: str,
    difficulty: int,
    rng: random.Random,
    rules: str = "2019",
    boost_policy: BoostPolicy | None = None,
    support: int = 0,
    known: int = 0,
) -> CheckRecord:
    """A whole check: begin, boost if the policy says so (and T-4.6 allows), finish."""
    pending = begin_check(pc, kind, difficulty, rng, rules=rules, support=support, known=known)
    if boost_policy is not None and can_boost(pc, pending) and boost_policy(pc, pending):
        boost(pc, pending, rng)
    return finish_check(pc, pending, rng)


# --- the reveal -----------------------------------------------------------------------


def _set_aside_known(pc: PC, pending: PendingCheck, known: int, rng: random.Random) -> None:
    """T-4.10: known top cards are exiled for the check; a wholly known library is shuffled."""
    if known <= 0:
        return
    if known >= len(pc.library):
        shuffle(pc.library, rng)
        return
    pending.known, pc.library = pc.library[:known], pc.library[known:]


class CardFacts(NamedTuple):
    """What a check reads of each card of a card table, by physical card id."""

    cards: tuple[Card, ...]  # the table itself: kept so its id cannot be reused while cached
    mana_values: tuple[int, ...]  # T-1.5
    colors: tuple[tuple[str, ...], ...]  # T-1.4: rule colours
    colorless_for_boost: tuple[bool, ...]  # T-4.6
    # 2019 kind -> per card as a check's result card: (colour, bonus) when no choice is
    # made (T-4.3, T-4.9), None for a multicoloured one (T-4.5: the colour is drawn at
    # random); a kind's entry is made when a check of that kind first reveals from the table
    result_bonus: dict[str, tuple[tuple[str | None, int] | None, ...]]


_FACTS: Final[dict[int, CardFacts]] = {}
_FACTS_LIMIT: Final = 256  # card tables cached at once (a batch has one per party member)


def card_facts(cards: tuple[Card, ...]) -> CardFacts:
    """The mana values and colours of a card table, worked out once per table.

    Cards are immutable, and every PC dealt from the same party member shares its card
    table (``create_pc`` keeps the tuple it is given), so a batch of runs reads these
    from a tuple by card id instead of hashing the card for ``rule_colors`` on every
    check. Keyed by the table's identity; the entry holds the table, so a stale id
    cannot match (and a table given as a list that grew is read again).
    """
    facts = _FACTS.get(id(cards))
    if facts is None or facts.cards is not cards or len(facts.mana_values) != len(cards):
        if len(_FACTS) >= _FACTS_LIMIT:
            _FACTS.clear()
        facts = _FACTS[id(cards)] = CardFacts(
            cards,
            tuple(card.mana_value for card in cards),
            tuple(rule_colors(card) for card in cards),
            tuple(is_colorless_for_boost(card) for card in cards),
            {},
        )
    return facts


def _result_bonus(colors: tuple[str, ...], kind: str) -> tuple[str | None, int] | None:
    """A result card's colour and bonus when the check makes no choice, else None (T-4.5)."""
    if len(colors) > 1 and kind != "colorless":
        return None
    color = None if kind == "colorless" or not colors else colors[0]  # one colour or none: nothing is drawn
    return color, color_bonus(color, kind)


def check_mana_value(pc: PC, card_id: int) -> int:
    """T-4.7: during a check a critical card has mana value 20; others their own (T-1.5)."""
    if card_id in pc.critical_cards:
        return CRITICAL_MANA_VALUE
    return pc.cards[card_id].mana_value


def _reveal_2019(pc: PC, pending: PendingCheck, rng: random.Random) -> None:
    """T-4.2 to T-4.7: reveal two cards, redoing while both are critical."""
    while True:
        if len(pc.library) < 2:
            pending.library_short = True
            pending.target, pending.result = pending.difficulty, pending.support
            return
        # A library holds distinct ids: only one no longer than the critical set can be
        # all critical (the length test spares building a set of the library per check).
        if len(pc.library) <= len(pc.critical_cards) and pc.critical_cards.issuperset(pc.library):
            pending.critical = "failure"  # T-4.7: only critical cards remain
            pending.target, pending.result = pending.difficulty, pending.support
            return
        first, second = pc.library[0], pc.library[1]
        del pc.library[:2]
        pending.reveal_order += [first, second]
        if first in pc.critical_cards and second in pc.critical_cards:
            put_on_bottom(pc, [first, second], rng)  # T-4.7 redo, T-4.8
            pending.redo += 1
            continue
        break
    pending.revealed = [first, second]
    facts = card_facts(pc.cards)
    critical = pc.critical_cards
    # T-4.7: a critical card's mana value is 20 during a check (check_mana_value)
    first_value = CRITICAL_MANA_VALUE if first in critical else facts.mana_values[first]
    second_value = CRITICAL_MANA_VALUE if second in critical else facts.mana_values[second]
    pending.target = first_value + pending.difficulty  # T-4.2
    kind = pending.kind
    bonuses = facts.result_bonus.get(kind)
    if bonuses is None:
        bonuses = facts.result_bonus[kind] = tuple(_result_bonus(colors, kind) for colors in facts.colors)
    known = bonuses[second]
    if known is None:
        pending.color = _pick_color(facts.colors[second], kind, rng)
        bonus = color_bonus(pending.color, kind)
    else:
        pending.color, bonus = known
    pending.result = second_value + bonus + pending.support  # T-4.3, T-4.13
    if first in critical:
        pending.critical = "failure"
    elif second in critical:
        pending.critical = "success"


def _result_color(pc: PC, card_id: int, kind: str, rng: random.Random) -> str | None:
    """T-4.5: a multicolour result card counts as one of its colours, chosen at random.

    A colourless check (T-4.9) needs no colour, so it draws nothing.
    """
    return _pick_color(rule_colors(pc.cards[card_id]), kind, rng)


def _pick_color(colors: tuple[str, ...], kind: str, rng: random.Random) -> str | None:
    """``_result_color`` given the result card's rule colours."""
    if kind == "colorless" or not colors:
        return None
    if len(colors) == 1:
        return colors[0]
    return rng.choice(colors)


def _reveal_2014(pc: PC, pending: PendingCheck) -> None:
    """T-5.2 to T-5.4: the top card goes to the exhaustion zone; value = mana value + bonus.

    The 2014 rules have no critical cards: a designated card counts as itself.
    """
    pending.target = pending.difficulty
    if not pc.library:
        pending.library_short = True
        pending.result = pending.support
        return
    card_id = pc.library.pop(0)
    pc.exhaustion_zone.append(card_id)
    pending.revealed = [card_id]
    pending.reveal_order = [card_id]
    bonus, pending.color = bonus_2014(rule_colors(pc.cards[card_id]), pending.kind)
    pending.result = pc.cards[card_id].mana_value + bonus + pending.support


def check_note(pending: PendingCheck) -> str:
    """Why a check failed without a comparison, or "" when it was compared."""
    if pending.library_short:
        return _("too few cards in the library to reveal: the check fails")
    if pending.critical == "failure" and not pending.revealed:
        return _("only critical cards remain in the library: the check fails (T-4.7)")
    return ""


def standing(pc: PC, pending: PendingCheck) -> str:
    """Where a check stands before its boost is decided (T-4.6), in words for the player:
    already a success, a failure by how much, or decided by a critical card (T-4.7), which a
    boost cannot change."""
    if pending.critical is not None:
        deciding = pending.revealed[0] if pending.critical == "failure" else pending.revealed[-1]
        outcome = _("success") if pending.critical == "success" else _("failure")
        return (_("critical {card}: automatic {outcome}, which a boost cannot change",
                  card=pc.cards[deciding].name, outcome=outcome) if pending.revealed else check_note(pending))
    if pending.success:
        return _("already a success")
    short = pending.target - pending.result + (1 if pending.rules == "2014" else 0)
    return _("a failure by {short} so far (a boost adds 1 per colourless card among the top 6)", short=short)


# --- T-4.12: no repeat of the very same check ------------------------------------------


@dataclass(init=False)
class CheckHistory:
    """The checks each PC has made, so the very same check is not repeated (T-4.12).

    ``action`` names what the check is for: any plain, hashable value; include anything
    that makes a situation new in it (the interpreter: the check statement and the
    situation, docs/checks.md). A changed kind or difficulty is a new check. The escape
    check (T-6.6) is exempt.
    """

    made: set[tuple[str, Hashable, str, int]] = field(default_factory=set)

    # (written out: the one ``dataclass`` makes is interpreted in the compiled build, and every
    # run makes one)
    def __init__(self, made: set[tuple[str, Hashable, str, int]] | None = None) -> None:
        self.made = set() if made is None else made

    def allows(self, pc_id: str, action: Hashable, kind: str, difficulty: int) -> bool:
        return action == ESCAPE or (pc_id, action, kind, difficulty) not in self.made

    def record(self, pc_id: str, action: Hashable, kind: str, difficulty: int) -> None:
        self.made.add((pc_id, action, kind, difficulty))

    def copy(self) -> "CheckHistory":
        return CheckHistory(set(self.made))
