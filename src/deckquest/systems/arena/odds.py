"""``deckquest odds --attack N --defence M [--height]``: an attack's exact wound distribution
(A-19 to A-21), as a table or JSON."""

from __future__ import annotations

from fractions import Fraction

from deckquest.systems.arena.combat import wound_distribution
from deckquest.systems.arena.rules import DiceFaces

MAX_DICE = 30  # more dice than any army card rolls; keeps the exact sums small


def wound_report(attack: int, defence: int, height: int = 0, dice: DiceFaces = DiceFaces()) -> dict:
    """The wound distribution and its mean; ``height`` +1 attacker higher, -1 defender higher."""
    table = wound_distribution(attack, defence, dice, height)
    at_least = [sum(table[w:], Fraction(0)) for w in range(len(table))]
    return {
        "attack": attack, "defence": defence, "height": height,
        "dice": {"swords": dice.swords, "shields": dice.shields, "blanks": dice.blanks},
        "attack_dice": attack + max(height, 0), "defence_dice": defence + max(-height, 0),
        "wounds": [{"wounds": w, "exact": str(p), "probability": float(p), "at_least": float(at_least[w])}
                   for w, p in enumerate(table)],
        "mean": float(sum(w * p for w, p in enumerate(table))),
    }


def format_wound_report(report: dict) -> str:
    higher = {1: ", the attacker stands higher (+1 die)", -1: ", the defender stands higher (+1 die)"}.get(report["height"], "")
    dice = report["dice"]
    lines = [f"Attack {report['attack']} against defence {report['defence']}{higher}: "
             f"{report['attack_dice']} attack dice, {report['defence_dice']} defence dice "
             f"(a die: {dice['swords']} swords, {dice['shields']} shields, {dice['blanks']} blank{'s' if dice['blanks'] != 1 else ''})",
             "wounds   chance    at least   exact"]
    for row in report["wounds"]:
        lines.append(f"{row['wounds']:>6} {100 * row['probability']:8.2f}% {100 * row['at_least']:9.2f}%   {row['exact']}")
    lines.append(f"mean wounds: {report['mean']:.4f}")
    return "\n".join(lines)
