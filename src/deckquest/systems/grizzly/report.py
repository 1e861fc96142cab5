"""The balance report's Grizzly sections, from each game's events.

``row(outcome)`` makes one game's outcome and record (``GrizzlyState.record``) a hashable
row, which ``sim`` counts over the batch; ``aggregate(rows, seats)`` adds the games up;
``format_text`` prints the sections. What a host asks: is it fair to every seat (each seat's
win rate with its Wilson interval, balance = 1 - the largest gap between two seats' win
rates, first-seat advantage = the first seat's win rate minus the fair share 1/players), how
long a game lasts (rounds and turns: mean, p10, p50, p90), where Treasures come from, which
flips kill bears, how often co-op and dash are used, how often the lead changes, and which
games were stopped (turn limit, G-27's empty library) and why.
"""

from __future__ import annotations

import math
from html import escape
from collections import Counter
from typing import Any, Sequence

Z95 = 1.959964

#: (name, number) pairs: Treasures by source, flips or bear deaths by card.
Counts = tuple[tuple[str, int], ...]
#: One game's figures (``row``): the winner (None: stopped), the reason it ended, rounds,
#: turns, Treasures by source, flips and bear deaths by card, co-op offers and acceptances,
#: dashes and lead changes.
GameRow = tuple[str | None, str, int, int, Counts, Counts, Counts, int, int, int, int]


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (the batch report's interval)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def row(outcome: dict[str, Any]) -> GameRow:
    """One game's figures as a hashable row (``sim`` counts equal rows): the outcome's
    winner, reason and length with its record (``GrizzlyState.record``)."""
    record = outcome["record"]
    return (outcome["winner"], outcome["reason"], outcome["round"], outcome["turns"],
            tuple(sorted(record["sources"].items())), tuple(record["flips"].items()),
            tuple(record["deaths"].items()), record["offers"], record["accepted"], record["dashes"],
            record["lead_changes"])


def _spread_counts(counts: Counter[int]) -> dict[str, float]:
    return _spread([value for value, count in counts.items() for _ in range(count)])


def _spread(values: list[int]) -> dict[str, float]:
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]) if ordered else 0.0

    return {"mean": round(sum(ordered) / len(ordered), 3) if ordered else 0.0,
            "p10": at(0.1), "p50": at(0.5), "p90": at(0.9)}


def aggregate(rows: Counter[GameRow], seats: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The sections' figures over a batch of rows (``row``) with their counts; ``seats`` are
    (id, name) in turn order."""
    games = sum(rows.values())
    wins: Counter[str] = Counter()
    flips: Counter[str] = Counter()
    deaths: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    stopped: Counter[str] = Counter()
    rounds: Counter[int] = Counter()
    turns: Counter[int] = Counter()
    leads: Counter[int] = Counter()
    offers = accepted = dashes = 0
    for (winner, reason, played, taken, found, flipped, killed, offered, took, dashed, changes), count in rows.items():
        if winner is not None:
            wins[winner] += count
        if reason != "treasures":
            stopped[reason] += count
        rounds[played] += count
        turns[taken] += count
        leads[changes] += count
        for source, number in found:
            sources[source] += number * count
        for card, number in flipped:
            flips[card] += number * count
        for card, number in killed:
            deaths[card] += number * count
        offers, accepted, dashes = offers + offered * count, accepted + took * count, dashes + dashed * count
    seat_rows: list[dict[str, Any]] = []
    for seat_id, name in seats:
        low, high = wilson(wins[seat_id], games)
        seat_rows.append({"seat": seat_id, "name": name, "wins": wins[seat_id],
                          "rate": round(wins[seat_id] / games, 6) if games else 0.0,
                          "low": round(low, 6), "high": round(high, 6)})
    rates = [seat["rate"] for seat in seat_rows]
    deadly: list[dict[str, Any]] = [{"card": card, "flips": flips[card], "deaths": deaths[card],
                                     "per_flip": round(deaths[card] / flips[card], 4)} for card in flips if deaths[card]]
    deadly.sort(key=lambda entry: (-entry["per_flip"], -entry["deaths"], entry["card"]))
    return {
        "games": games,
        "seats": seat_rows,
        "balance": round(1 - (max(rates) - min(rates)), 6) if rates else 1.0,
        "first_seat_advantage": round(rates[0] - 1 / len(rates), 6) if rates else 0.0,
        "rounds": _spread_counts(rounds),
        "rounds_histogram": {str(played): rounds[played] for played in sorted(rounds)},
        "turns": _spread_counts(turns),
        "treasures_by_source": {source: round(count / games, 4) for source, count in sorted(sources.items())}
        if games else {},
        "deaths_per_flip": deadly,
        "co_op": {"offers_per_game": round(offers / games, 4) if games else 0.0,
                  "accepted": round(accepted / offers, 4) if offers else 0.0},
        "dashes_per_game": round(dashes / games, 4) if games else 0.0,
        "lead_changes": _spread_counts(leads),
        "stopped": dict(sorted(stopped.items())),
    }


def compare_figures(seats: Sequence[tuple[str, str]], game: GameRow) -> list[tuple[str, str, float]]:
    """One game's figures for ``sim --compare`` (docs/grizzly.md, "A worked balance question"):
    each seat's win, a stopped game, and the game's length, Treasures by source, co-op offers,
    dashes and lead changes."""
    winner, reason, played, taken, found, _, _, offered, _, dashed, changes = game
    sources = dict(found)
    return ([(f"{name} wins", "share", float(winner == seat)) for seat, name in seats]
            + [("stopped games", "share", float(reason != "treasures")), ("rounds", "mean", played),
               ("turns", "mean", taken), ("lap Treasures", "mean", sources.get("lap", 0)),
               ("dragon Treasures", "mean", sources.get("dragon", 0)), ("co-op offers", "mean", offered),
               ("dashes", "mean", dashed), ("lead changes", "mean", changes)])


FAIR_BALANCE = 0.8  # balance at or above which no seat is far behind another


def verdict(data: dict[str, Any]) -> dict[str, Any]:
    """What a host asks first: is the game fair to every seat (balance, the seats that win
    most and least, the first seat's edge) and does it end with a winner."""
    seats = sorted(data["seats"], key=lambda seat: (-seat["rate"], seat["seat"]))
    fair = "FAIR" if data["balance"] >= FAIR_BALANCE else "UNEVEN"
    reasons = [f"{seats[0]['name']} wins most ({seats[0]['rate']:.1%}), {seats[-1]['name']} least "
               f"({seats[-1]['rate']:.1%}) of {data['games']:,} games",
               f"the first seat wins {data['first_seat_advantage']:+.1%} above the fair share"]
    reasons += [f"{count:,} games stopped: {STOP_REASONS.get(reason, reason)}" for reason, count in data["stopped"].items()]
    return {"headline": f"{fair}: balance {data['balance']:.2f} between {len(seats)} seats", "reasons": reasons}


STOP_REASONS = {
    "turn limit": "the turn limit was reached before anyone had the Treasures to win",
    "library out": "a draw from an empty library ended the game (G-27, expert rules)",
}


def format_text(data: dict[str, Any], deadliest: int = 5) -> str:
    """The sections as the text report prints them."""
    games = data["games"]
    lines = [f"Seats ({games} games)           wins   win rate  95% interval"]
    for row in data["seats"]:
        lines.append(f"  {row['name']:<24} {row['wins']:>6}   {row['rate']:7.1%}  "
                     f"{row['low']:.1%} - {row['high']:.1%}")
    lines.append(f"Balance: {data['balance']:.3f} (1 - the largest gap between two seats' win rates)")
    lines.append(f"First-seat advantage: {data['first_seat_advantage']:+.1%} (its win rate minus the fair share)")
    for key, title in (("rounds", "Rounds"), ("turns", "Turns")):
        spread = data[key]
        lines.append(f"{title}: mean {spread['mean']:.1f}, p10 {spread['p10']:.0f}, p50 {spread['p50']:.0f}, "
                     f"p90 {spread['p90']:.0f}")
    sources = ", ".join(f"{source} {count:.2f}" for source, count in data["treasures_by_source"].items())
    lines.append(f"Treasures per game by source: {sources or 'none'}")
    lines.append("Deadliest flips (bear deaths per flip of the card)")
    for row in data["deaths_per_flip"][:deadliest]:
        lines.append(f"  {row['card']:<28} {row['per_flip']:.2f} ({row['deaths']} deaths in {row['flips']} flips)")
    co_op = data["co_op"]
    lines.append(f"Co-op: {co_op['offers_per_game']:.2f} offers a game, {co_op['accepted']:.0%} accepted; "
                 f"dash: {data['dashes_per_game']:.2f} a game")
    lead = data["lead_changes"]
    lines.append(f"Lead changes: mean {lead['mean']:.1f}, p50 {lead['p50']:.0f}, p90 {lead['p90']:.0f}")
    if data["stopped"]:
        for reason, count in data["stopped"].items():
            lines.append(f"Stopped: {count} games: {STOP_REASONS.get(reason, reason)}")
    else:
        lines.append("Stopped: none (every game ended with a winner)")
    return "\n".join(lines) + "\n"


def _rate_chart(seats: Sequence[dict[str, Any]]) -> str:
    """Each seat's win rate as a bar with its 95% interval as a whisker, the fair share dashed."""
    width, row, left = 420, 26, 110
    height = row * len(seats) + 24
    fair = 1 / len(seats) if seats else 0.0
    parts = [f'<svg class="chart" width="{width + left + 20}" height="{height}" role="img" '
             'aria-label="win rate per seat with 95% intervals">']
    for index, seat in enumerate(seats):
        y = 8 + index * row
        parts.append(f'<text x="{left - 8}" y="{y + 14}" text-anchor="end">{escape(seat["name"])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{seat["rate"] * width:.1f}" height="16" fill="#6a8f3a"/>')
        parts.append(f'<line x1="{left + seat["low"] * width:.1f}" x2="{left + seat["high"] * width:.1f}" '
                     f'y1="{y + 10}" y2="{y + 10}" stroke="#222" stroke-width="2"/>')
        parts.append(f'<text x="{left + seat["rate"] * width + 6:.1f}" y="{y + 14}">{seat["rate"]:.1%}</text>')
    x = left + fair * width
    parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="4" y2="{height - 4}" stroke="#999" stroke-dasharray="4 3"/>')
    parts.append("</svg>")
    return "".join(parts)


def _bars(title: str, label: str, pairs: Sequence[tuple[str, float]], unit: str) -> str:
    """A horizontal bar chart of (label, value) pairs, the longest bar full width."""
    width, row, left = 360, 18, 170
    top = max((value for _, value in pairs), default=0) or 1
    parts = [f'<svg class="chart" width="{width + left + 60}" height="{row * len(pairs) + 10}" role="img" '
             f'aria-label="{escape(title)}">']
    for index, (name, value) in enumerate(pairs):
        y = 4 + index * row
        parts.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{escape(name)}</text>')
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{value / top * width:.1f}" height="12" fill="#8a6a3a"/>')
        parts.append(f'<text x="{left + value / top * width + 4:.1f}" y="{y + 12}">{value:g}{unit}</text>')
    parts.append("</svg>")
    return f"<h3>{escape(title)} ({escape(label)})</h3>" + "".join(parts)


def format_html(data: dict[str, Any]) -> str:
    """The sections as an HTML fragment (every text escaped), with the win-rate chart."""
    rows = "".join(f"<tr><td>{escape(s['name'])}</td><td>{s['wins']}</td><td>{s['rate']:.1%}</td>"
                   f"<td>{s['low']:.1%} - {s['high']:.1%}</td></tr>" for s in data["seats"])
    deadly = "".join(f"<tr><td>{escape(d['card'])}</td><td>{d['per_flip']:.2f}</td><td>{d['deaths']}</td>"
                     f"<td>{d['flips']}</td></tr>" for d in data["deaths_per_flip"][:10])
    lines = [escape(line) for line in format_text(data).splitlines()
             if line.startswith(("Balance", "First-seat", "Rounds", "Turns", "Treasures", "Co-op", "Lead", "Stopped"))]
    coverage = f"<p>Library: {escape(data['coverage'])}</p>" if "coverage" in data else ""
    return (f'<h2 id="grizzly">Grizzly Bears\' Adventure: {data["games"]} games</h2>{coverage}'
            f"{_rate_chart(data['seats'])}"
            f"<table><tr><th>seat</th><th>wins</th><th>win rate</th><th>95% interval</th></tr>{rows}</table>"
            + "".join(f"<p>{line}</p>" for line in lines)
            + _bars("Rounds a game", "games per length",
                    [(played, count) for played, count in data.get("rounds_histogram", {}).items()], "")
            + _bars("Deadliest flips", "bear deaths per flip",
                    [(d["card"], d["per_flip"]) for d in data["deaths_per_flip"][:10]], "")
            + "<table><tr><th>card</th><th>bear deaths per flip</th><th>deaths</th>"
            f"<th>flips</th></tr>{deadly}</table>")
