"""Exact check odds from a deck's composition (T-1.6: real odds instead of the deck memo).

The probability that a check succeeds on a freshly shuffled library, as a
``Fraction``, with no sampling. Only a card's check-relevant signature matters
(mana value, rules colours, critical, colourless for boost), so the library is
counted by signature groups: ordered pairs of groups for the two revealed
cards (T-4.2, T-4.3), each colour of a multicolour card with equal weight
(T-4.5), critical cards with their automatic results and redo (T-4.7), and the
boost's six cards as a hypergeometric draw from the unrevealed rest (T-4.6).
Integers are counted and one Fraction is made per redo level.

Positions in a uniform shuffle are exchangeable, so these odds also hold for
a PC that has drawn its opening hand: its top two cards are still a uniform
random pair of the deck.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Collection, Iterable, Sequence

from deckquest.engine.colors import check_kind_word
from deckquest.i18n import _, ljust
from deckquest.cards.model import COLORS, COLOR_NAMES, Card
from deckquest.engine.checks import BOOST_SIZE
from deckquest.engine.colors import (
    KINDS_2014,
    KINDS_2019,
    bonus_2014,
    check_kind,
    color_bonus,
    is_colorless_for_boost,
    rule_colors,
)

DIFFICULTIES = tuple(range(0, 9))  # T-4.1: difficulty usually 0-8
TARGET_NUMBERS_2014 = tuple(range(0, 13))
_COLOR_WEIGHT = 60  # divisible by 1..5 colours: each colour of a card gets 60 / count (T-4.5)

# (mana value, rules colours, critical, colourless for boost)
Signature = tuple[int, tuple[str, ...], bool, bool]
Composition = tuple[tuple[Signature, int], ...]


def signature(card: Card, critical: bool) -> Signature:
    """What a check can see of a card: T-1.5 mana value, T-1.4 colours, T-4.7, T-4.6."""
    return (card.mana_value, rule_colors(card), critical, is_colorless_for_boost(card))


def composition(cards: Sequence[Card], critical_ids: Collection[int] = ()) -> Composition:
    """The library as counts per signature, in a canonical order (the cache key)."""
    counts = Counter(signature(card, i in critical_ids) for i, card in enumerate(cards))
    return tuple(sorted(counts.items()))


# --- T-1.6: the deck memo ------------------------------------------------------------


@dataclass(frozen=True)
class DeckMemo:
    """T-1.6: cards per rules colour (a multicolour card once per colour), colourless, library."""

    colors: dict[str, int]  # white, blue, black, red, green, colorless
    library: int

    def __str__(self) -> str:
        parts = [f"{color}{self.colors[COLOR_NAMES[color]]}" for color in COLORS if self.colors[COLOR_NAMES[color]]]
        parts.append(_("colorless {count}", count=self.colors["colorless"]))
        return f"{' '.join(parts)} / {self.library}"


def deck_memo(cards: Iterable[Card]) -> DeckMemo:
    """T-1.6 with T-1.4: a Forest counts as green, a two-colour card once for each colour."""
    counts = dict.fromkeys([COLOR_NAMES[c] for c in COLORS] + ["colorless"], 0)
    library = 0
    for card in cards:
        library += 1
        colors = rule_colors(card)
        for color in colors:
            counts[COLOR_NAMES[color]] += 1
        if not colors:
            counts["colorless"] += 1
    return DeckMemo(counts, library)


# --- 2019 rules -----------------------------------------------------------------------


@dataclass(frozen=True)
class _PairOutcomes:
    """The ordered pairs of distinct cards of one composition, sorted by what decides a check.

    ``margins[(margin, colorless_in_pair)]`` counts non-critical pairs (times
    _COLOR_WEIGHT) whose result minus target, before difficulty, support and
    boost, is ``margin``. ``redo`` lists, per pair of critical groups, the
    composition left to reveal from and the number of ordered pairs.
    """

    size: int
    noncritical: int
    colorless: int
    margins: dict[tuple[int, int], int]
    auto_success: int  # non-critical first, critical second, times _COLOR_WEIGHT
    redo: tuple[tuple[Composition, int], ...]


@lru_cache(maxsize=1024)
def _pair_outcomes(comp: Composition, kind: str) -> _PairOutcomes:
    size = sum(n for _, n in comp)
    critical = [(sig, n) for sig, n in comp if sig[2]]
    ordinary = [(sig, n) for sig, n in comp if not sig[2]]
    noncritical = sum(n for _, n in ordinary)
    colorless = sum(n for sig, n in comp if sig[3])
    margins: Counter[tuple[int, int]] = Counter()
    for first, n_first in ordinary:
        for second, n_second in ordinary:
            pairs = n_first * (n_second - (first == second))
            if not pairs:
                continue
            colorless_in_pair = first[3] + second[3]
            for bonus, weight in _bonus_weights(second[1], kind):
                margins[(second[0] + bonus - first[0], colorless_in_pair)] += pairs * weight
    crit_count = size - noncritical
    auto_success = noncritical * crit_count * _COLOR_WEIGHT
    redo = []
    for i, (first, n_first) in enumerate(critical):
        for j, (second, n_second) in enumerate(critical):
            pairs = n_first * (n_second - (i == j))
            if pairs:
                redo.append((_remove(comp, first, second), pairs))
    return _PairOutcomes(size, noncritical, colorless, dict(margins), auto_success, tuple(redo))


def _bonus_weights(colors: tuple[str, ...], kind: str) -> list[tuple[int, int]]:
    """T-4.3, T-4.5: each colour of the result card equally likely, weights summing to 60."""
    if not colors or kind == "colorless":
        return [(0, _COLOR_WEIGHT)]
    weight = _COLOR_WEIGHT // len(colors)
    return [(color_bonus(color, kind), weight) for color in colors]


def _remove(comp: Composition, *signatures: Signature) -> Composition:
    counts = dict(comp)
    for sig in signatures:
        counts[sig] -= 1
    return tuple((sig, counts[sig]) for sig, _ in comp if counts[sig])


@lru_cache(maxsize=4096)
def _boost_tail(colorless: int, pool: int, needed: int) -> int:
    """Ways to exile 6 of ``pool`` cards with at least ``needed`` of the ``colorless`` (T-4.6)."""
    top = min(BOOST_SIZE, colorless)
    return sum(comb(colorless, x) * comb(pool - colorless, BOOST_SIZE - x) for x in range(max(needed, 0), top + 1))


@lru_cache(maxsize=16384)
def _success_2019(comp: Composition, kind: str, need: int, boost: bool, library: int) -> Fraction:
    """P(success) revealing from ``comp``, the cards not yet revealed; ``library`` is the full size.

    ``need`` = difficulty - support: the check succeeds when margin >= need.
    """
    out = _pair_outcomes(comp, kind)
    if out.noncritical == 0:
        return Fraction(0)  # T-4.7: only critical cards remain (or no cards at all)
    if out.size == 1:
        # After a redo, one fresh card is left and the returned criticals follow it:
        # the second card is critical, an automatic success. With no redo: too few cards.
        return Fraction(1) if out.size < library else Fraction(0)
    boosting = boost and library - 2 >= BOOST_SIZE
    pool = out.size - 2
    if boosting and pool < BOOST_SIZE:
        raise ValueError(
            f"exact boost odds need {BOOST_SIZE} unrevealed cards after the critical redo; "
            f"this library of {library} is too small"
        )
    ways = comb(pool, BOOST_SIZE) if boosting else 1
    favourable = out.auto_success * ways
    for (margin, colorless_in_pair), weight in out.margins.items():
        if margin >= need:
            favourable += weight * ways
        elif boosting and need - margin <= BOOST_SIZE:
            favourable += weight * _boost_tail(out.colorless - colorless_in_pair, pool, need - margin)
    pairs = out.size * (out.size - 1)
    probability = Fraction(favourable, pairs * _COLOR_WEIGHT * ways)
    for rest, count in out.redo:
        probability += Fraction(count, pairs) * _success_2019(rest, kind, need, boost, library)
    return probability


# --- 2014 rules -----------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _values_2014(comp: Composition, kind: str) -> tuple[tuple[int, int], ...]:
    """T-5.2 to T-5.4: (value, count) of the top card; criticals count as themselves."""
    values: Counter[int] = Counter()
    for sig, n in comp:
        values[sig[0] + bonus_2014(sig[1], kind)[0]] += n
    return tuple(sorted(values.items()))


def _success_2014(comp: Composition, kind: str, target: int, support: int) -> Fraction:
    values = _values_2014(comp, kind)
    size = sum(n for _, n in values)
    if size == 0:
        return Fraction(0)
    return Fraction(sum(n for value, n in values if value + support > target), size)


# --- public API -----------------------------------------------------------------------


def check_probability(
    cards: Sequence[Card],
    critical_ids: Collection[int],
    kind: str,
    difficulty: int,
    rules: str = "2019",
    boost: bool = False,
    support: int = 0,
) -> Fraction:
    """The exact chance that a check succeeds on a freshly shuffled library of ``cards``.

    2019: ``difficulty`` as T-4.2; with ``boost`` the PC boosts whenever target
    and result say failure (T-4.6), assuming its boost is unused. 2014:
    ``difficulty`` is the target number (T-5.2) and ``boost`` must be False.
    ``critical_ids`` are indexes into ``cards`` (T-4.7; ignored by 2014 rules,
    which have none). Raises ValueError for an unknown kind or rules edition.
    """
    return _probability(composition(cards, critical_ids), kind, difficulty, rules, boost, support)


def _probability(comp: Composition, kind: str, difficulty: int, rules: str, boost: bool, support: int) -> Fraction:
    if rules == "2014":
        check_kind(kind, rules)
        if boost:
            raise ValueError("the 2014 rules have no boost")
        return _success_2014(comp, kind, difficulty, support)
    if rules != "2019":
        raise ValueError(f"unknown rules {rules!r}; expected 2019 or 2014")
    check_kind(kind, rules)
    library = sum(n for _, n in comp)
    return _success_2019(comp, kind, difficulty - support, boost, library)


def odds_table(
    cards: Sequence[Card],
    critical_ids: Collection[int] = (),
    rules: str = "2019",
    boost: bool = False,
    support: int = 0,
) -> dict[str, dict[int, Fraction]]:
    """Every kind by every difficulty 0-8 (2019) or target number 0-12 (2014)."""
    comp = composition(cards, critical_ids)
    kinds = KINDS_2019 if rules == "2019" else KINDS_2014
    levels = DIFFICULTIES if rules == "2019" else TARGET_NUMBERS_2014
    return {kind: {level: _probability(comp, kind, level, rules, boost, support) for level in levels} for kind in kinds}


# --- the `deckquest odds` command -------------------------------------------------------

DEFAULT_CRITICAL_COUNT = 1
"""`--critical NAME` without `:COUNT` designates one copy (a singleton such as a rare)."""


def parse_critical_option(text: str) -> tuple[str, int]:
    """`NAME[:COUNT]` -> (name, count); a colon inside a card name is kept when no count follows."""
    name, colon, count = text.rpartition(":")
    if colon and count.strip().isdigit():
        return name.strip(), int(count)
    return text.strip(), DEFAULT_CRITICAL_COUNT


def critical_ids_from_options(cards: Sequence[Card], options: Iterable[str]) -> frozenset[int]:
    """T-4.7 designations from repeated `--critical` options; a user error names the option."""
    from deckquest.engine.pc import designate_critical
    from deckquest.errors import DeckquestError

    chosen: frozenset[int] = frozenset()
    for option in options:
        name, count = parse_critical_option(option)
        try:
            chosen |= designate_critical(cards, name, count, already=chosen)
        except ValueError as error:
            raise DeckquestError(_("--critical {option!r}: {error}", option=option, error=error), hint=_critical_hint(cards, name)) from None
    return chosen


def _critical_hint(cards: Sequence[Card], name: str) -> str:
    from deckquest.cards.database import normalize_name
    from deckquest.errors import did_you_mean

    names = sorted({card.name for card in cards})
    if any(normalize_name(name) == normalize_name(known) for known in names):
        return "give a COUNT no larger than the copies in the deck: --critical NAME:COUNT"
    return did_you_mean(name, names) or "name a card of the deck's main deck"


def odds_report(cards: Sequence[Card], critical_ids: Collection[int], rules: str = "2019") -> dict[str, Any]:
    """The `deckquest odds --json` object: memo, and odds as floats keyed by kind and level."""
    memo = deck_memo(cards)
    report: dict[str, Any] = {"rules": rules, "library": memo.library, "colors": dict(memo.colors)}

    def as_floats(table: dict[str, dict[int, Fraction]]) -> dict[str, dict[str, float]]:
        return {kind: {str(level): float(p) for level, p in row.items()} for kind, row in table.items()}

    report["odds"] = as_floats(odds_table(cards, critical_ids, rules))
    if rules == "2019":
        report["odds_boost"] = as_floats(odds_table(cards, critical_ids, rules, boost=True))
    return report


def format_odds(report: dict[str, Any], critical_names: Sequence[str] = ()) -> str:
    """The text of `deckquest odds`: the memo, then success chances in percent."""
    colors = report["colors"]
    memo = DeckMemo(colors, report["library"])
    lines = [_("deck memo (T-1.6): {memo}", memo=memo)]
    designated = Counter(critical_names)
    listed = ", ".join(f"{name} x{n}" for name, n in designated.items()) or _("none")
    if report["rules"] == "2019" or designated:
        lines.append(_("critical cards (T-4.7): {count} ({listed})", count=sum(designated.values()), listed=listed))
    else:
        lines.append(_("critical cards: none, the 2014 rules have none (T-5.2)"))
    if report["rules"] == "2019":
        lines += ["", _("chance of success in percent, 2019 rules (T-4.4: result >= target)")]
        lines += _format_table(report["odds"], _("difficulty"))
        lines += ["", _("with boost when failing (T-4.6: exile the top 6, +1 per colorless card)")]
        lines += _format_table(report["odds_boost"], _("difficulty"))
    else:
        lines += ["", _("chance of success in percent, 2014 rules (T-5.2: value > target number)")]
        lines += _format_table(report["odds"], _("target"))
    return "\n".join(lines)


def _format_table(table: dict[str, dict[str, float]], heading: str) -> list[str]:
    levels = list(next(iter(table.values())))
    rows = [ljust(heading, 12) + "".join(f"{level:>6}" for level in levels)]
    for kind, row in table.items():
        rows.append(ljust(check_kind_word(kind), 12) + "".join(f"{100 * row[level]:6.1f}" for level in levels))
    return rows
