"""Combat dice, exactly (A-19 to A-21): the wound distribution of an attack and duel odds.

An attack rolls ``attack`` dice counting swords against ``defence`` dice counting shields;
wounds = swords - shields when positive (A-19). The figure standing higher rolls one die more,
attacking or defending (A-21). All of it is a product of two binomials, so it is computed
exactly (``Fraction``) and the engine's chance decisions carry the same probabilities.

``duel_odds`` is the exact win rate of the simplest whole game: two figures that stay engaged
and attack each other in turn until one is destroyed or the turn limit ends it, a Markov chain
over the wounds each has taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from deckquest.systems.arena.rules import DiceFaces


@lru_cache(maxsize=None)
def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k successes in n dice), k = 0..n."""
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=None)
def roll_outcomes(attack: int, defence: int, dice: DiceFaces) -> tuple[tuple[tuple[int, int], ...], tuple[float, ...]]:
    """An attack's chance decision: every (swords, shields) pair with its probability."""
    swords = binomial(attack, dice.sword)
    shields = binomial(defence, dice.shield)
    actions = tuple((s, h) for s in range(attack + 1) for h in range(defence + 1))
    return actions, tuple(float(swords[s] * shields[h]) for s, h in actions)


def height_dice(attacker_level: int, defender_level: int, extra: int = 1) -> tuple[int, int]:
    """Extra (attack, defence) dice for standing higher (A-21)."""
    if attacker_level > defender_level:
        return extra, 0
    if defender_level > attacker_level:
        return 0, extra
    return 0, 0


@lru_cache(maxsize=None)
def wound_distribution(attack: int, defence: int, dice: DiceFaces = DiceFaces(), height: int = 0) -> tuple[Fraction, ...]:
    """P(wounds = w), w = 0..dice rolled, for ``attack`` dice against ``defence`` dice;
    ``height`` +1 when the attacker stands higher, -1 when the defender does (A-21)."""
    attack += max(height, 0)
    defence += max(-height, 0)
    swords = binomial(attack, dice.sword)
    shields = binomial(defence, dice.shield)
    table = [Fraction(0)] * (attack + 1)
    for s, ps in enumerate(swords):
        for h, ph in enumerate(shields):
            table[max(s - h, 0)] += ps * ph
    return tuple(table)


@lru_cache(maxsize=None)
def expected_wounds(attack: int, defence: int, dice: DiceFaces = DiceFaces(), cap: int | None = None) -> float:
    """Mean wounds of an attack, counting at most ``cap`` (the target's life left)."""
    table = wound_distribution(attack, defence, dice)
    return float(sum(p * (w if cap is None else min(w, cap)) for w, p in enumerate(table)))


@dataclass(frozen=True)
class Duelist:
    """One side of a duel: life, and the dice it rolls attacking and defending (height
    advantage already added)."""

    life: int
    attack: int
    defence: int


@dataclass(frozen=True)
class DuelOdds:
    first: Fraction  # the first player's figure destroys the other
    second: Fraction
    draw: Fraction  # the turn limit comes first


def duel_odds(first: Duelist, second: Duelist, player_turns: int, dice: DiceFaces = DiceFaces()) -> DuelOdds:
    """Exact outcome of a duel where ``first`` attacks on turns 1, 3, 5, ... and ``second``
    on turns 2, 4, ..., for at most ``player_turns`` attacks in all (the turn limit: 30 rounds
    = 60 player turns, A-24, A-R4). A backward induction over (turn, wounds on each)."""
    hit_second = wound_distribution(first.attack, second.defence, dice)
    hit_first = wound_distribution(second.attack, first.defence, dice)
    # value[(a, b)] = (P first wins, P second wins) from here, a/b wounds on first/second
    after: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}
    zero = (Fraction(0), Fraction(0))
    for turn in range(player_turns - 1, -1, -1):
        now: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}
        for a in range(first.life):
            for b in range(second.life):
                win1 = win2 = Fraction(0)
                if turn % 2 == 0:
                    for w, p in enumerate(hit_second):
                        if b + w >= second.life:
                            win1 += p
                        else:
                            x, y = after.get((a, b + w), zero)
                            win1, win2 = win1 + p * x, win2 + p * y
                else:
                    for w, p in enumerate(hit_first):
                        if a + w >= first.life:
                            win2 += p
                        else:
                            x, y = after.get((a + w, b), zero)
                            win1, win2 = win1 + p * x, win2 + p * y
                now[(a, b)] = (win1, win2)
        after = now
    win1, win2 = after.get((0, 0), zero)
    return DuelOdds(win1, win2, 1 - win1 - win2)
