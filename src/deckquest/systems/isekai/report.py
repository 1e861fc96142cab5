"""`deckquest sim`'s duel section: win rates by seat, by deck and for the first player, with
95% Wilson intervals; duel length in action rights; interrupts, Reversals, speed-locked and
further attacks; stalls (I-R6).

A run's row (``IsekaiSystem.record``): (winner, first seat, action rights, interrupts,
Reversals, speed-locked hits, further attacks, how it ended, ((seat, deck), ...)).
"""

from __future__ import annotations

from collections import Counter
from html import escape
from math import sqrt
from typing import Any, Hashable

OWN_EVENTS = frozenset({
    "deal", "right", "pass", "charge", "take", "restore", "cast", "interrupt", "resolve", "summon", "attack",
    "defend", "block", "hit", "damage", "unit damage", "destroy", "heal", "extra attack", "reveal", "reversal",
    "recovery", "effect", "duel end",
})
Z = 1.959964  # the 95% normal quantile
#: A run's row (the module docstring).
Row = tuple[str | None, str | None, int, int, int, int, int, str | None, tuple[tuple[str, str], ...]]


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (exact enough for small counts, never outside 0..1)."""
    if games == 0:
        return 0.0, 0.0
    share = wins / games
    centre = (share + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * sqrt(share * (1 - share) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {"wins": wins, "games": games, "share": round(wins / games, 6) if games else 0.0, "low": low, "high": high}


def section(rows: Counter[Hashable], runs: int) -> dict[str, Any] | None:
    """The section over the runs that played a duel (an adventure's run may end before one)."""
    runs = sum(count for row, count in rows.items() if row is not None)
    if runs == 0:
        return None
    seat_wins: Counter[str] = Counter()
    seat_games: Counter[str] = Counter()  # an adventure's duels seat different PCs and NPCs
    deck_wins: Counter[str] = Counter()
    deck_games: Counter[str] = Counter()
    first_wins = draws = 0
    lengths: list[tuple[int, int]] = []
    totals: Counter[str] = Counter()
    with_reversal = 0
    seats: list[str] = []
    for row, count in rows.items():
        if row is None:
            continue
        winner, first, rights, interrupts, reversals, locked, extra, reason, decks = _row(row)
        deck_of = dict(decks)
        seats += [seat for seat, _ in decks if seat not in seats]
        for seat, deck in decks:
            seat_games[seat] += count
            deck_games[deck] += count
        if winner is None:
            draws += count
        else:
            seat_wins[winner] += count
            deck_wins[deck_of[winner]] += count
            first_wins += count if winner == first else 0
        lengths.append((rights, count))
        totals.update({"interrupts": interrupts * count, "reversals": reversals * count,
                       "speed_locked": locked * count, "extra_attacks": extra * count, "rights": rights * count})
        with_reversal += count if reversals else 0
    lengths.sort()
    return {
        "duels": runs,
        "seats": {seat: _rate(seat_wins[seat], seat_games[seat]) for seat in seats},
        "decks": {deck: _rate(deck_wins[deck], deck_games[deck]) for deck in sorted(deck_games)},
        "first_player": _rate(first_wins, runs),
        "draws": _rate(draws, runs),
        "rights": {"mean": round(totals["rights"] / runs, 3), "min": lengths[0][0], "median": _median(lengths, runs),
                   "max": lengths[-1][0]},
        "per_duel": {key: round(totals[key] / runs, 3) for key in ("interrupts", "reversals", "speed_locked", "extra_attacks")},
        "duels_with_reversal": _rate(with_reversal, runs),
    }


def _row(row: Hashable) -> Row:
    """A row the batch counted: one ``IsekaiSystem.record`` made."""
    assert isinstance(row, tuple)  # sim counts the rows of the script's own system only
    return row


def _median(lengths: list[tuple[int, int]], runs: int) -> int:
    seen = 0
    for rights, count in lengths:
        seen += count
        if 2 * seen >= runs:
            return rights
    return lengths[-1][0]


def _line(label: str, rate: dict[str, Any]) -> str:
    return (f"  {label:<18} {rate['wins']:>7,} of {rate['games']:>7,}  {100 * rate['share']:5.1f}%"
            f"  (95% {100 * rate['low']:.1f}-{100 * rate['high']:.1f}%)")


def text(section: dict[str, Any]) -> list[str]:
    lines = [f"Duels ({section['duels']:,})", "Win rates by seat"]
    lines += [_line(seat, rate) for seat, rate in section["seats"].items()]
    lines.append("Win rates by deck")
    lines += [_line(deck, rate) for deck, rate in section["decks"].items()]
    lines += [_line("first player", section["first_player"]), _line("draws (stalls)", section["draws"])]
    rights = section["rights"]
    lines.append(f"Duel length in action rights: mean {rights['mean']:.1f}, min {rights['min']}, "
                 f"median {rights['median']}, max {rights['max']}")
    per = section["per_duel"]
    lines.append(f"Per duel: {per['interrupts']:.2f} interrupts, {per['reversals']:.3f} Reversals, "
                 f"{per['speed_locked']:.2f} speed-locked hits, {per['extra_attacks']:.2f} further attacks")
    lines.append(_line("with a Reversal", section["duels_with_reversal"]))
    return lines


def html(section: dict[str, Any]) -> str:
    def row(label: str, rate: dict[str, Any]) -> str:
        return (f"<tr><td>{escape(label)}</td><td>{rate['wins']}</td><td>{rate['games']}</td>"
                f"<td>{100 * rate['share']:.1f}%</td><td>{100 * rate['low']:.1f}-{100 * rate['high']:.1f}%</td></tr>")
    rows = [row(f"seat {seat}", rate) for seat, rate in section["seats"].items()]
    rows += [row(f"deck {deck}", rate) for deck, rate in section["decks"].items()]
    rows += [row("first player", section["first_player"]), row("draws", section["draws"])]
    per = section["per_duel"]
    rights = section["rights"]
    return ('<h2 id="duels">Duels</h2><table><tr><th></th><th>wins</th><th>of</th><th>share</th><th>95%</th></tr>'
            + "".join(rows) + "</table>"
            + f"<p>Action rights a duel: mean {rights['mean']:.1f}, median {rights['median']}, max {rights['max']}. "
            f"Per duel: {per['interrupts']:.2f} interrupts, {per['reversals']:.3f} Reversals, "
            f"{per['speed_locked']:.2f} speed-locked hits, {per['extra_attacks']:.2f} further attacks.</p>")
