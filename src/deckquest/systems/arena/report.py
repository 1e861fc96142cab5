"""Arena's sections of the ``deckquest sim`` report (docs/arena.md, "Balance reports").

Each finished run is recorded as one row: the static facts of the scenario (armies, battlefield,
glyphs; the same for every run), the winner, the turn order, the rounds played, how the game
ended, the figures each army lost, which armies held each glyph at a round's end, and where
figures were destroyed. ``report`` counts the rows into: win rates by army and by turn order
with 95% Wilson intervals, game length, how often the turn limit decides, figures lost, each
glyph's value (the win rate of an army that held it against one that did not), and the falls
per hex that the HTML report draws on an SVG map of the battlefield.
"""

from __future__ import annotations

import math
from collections import Counter
from html import escape
from typing import Any, Hashable

Z95 = 1.959963984540054


def wilson(wins: int, games: int) -> list[float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return [0.0, 1.0]
    p = wins / games
    centre = (p + Z95 * Z95 / (2 * games)) / (1 + Z95 * Z95 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95 * Z95 / (4 * games * games)) / (1 + Z95 * Z95 / games)
    return [round(max(centre - half, 0.0), 6), round(min(centre + half, 1.0), 6)]


def record(state: Any, scenario_facts: tuple) -> Hashable:
    """One run's row (see the module docstring)."""
    result = state.outcome() or {}
    lost = tuple((seat, sum(1 for fid, _ in state.fallen if state.figures[fid].seat == seat)) for seat in state.game.seats)
    held = tuple((glyph, tuple(sorted(seats))) for glyph, seats in sorted(state.holders.items()))
    fallen = tuple(sorted(f"{pos[0]},{pos[1]}" for _, pos in state.fallen))
    return (scenario_facts, result.get("winner"), state.order[0] if state.order else None, result.get("round", 0),
            result.get("reason"), lost, held, fallen)


def facts(table: Any) -> tuple:
    """What every row of a scenario shares: (seat, army) pairs, battlefield rows, glyphs."""
    terrain = table.battlefield.terrain
    rows = tuple(" ".join(_cell(terrain, (c, r)) for c in range(1, terrain.width + 1)) for r in range(1, terrain.height + 1))
    return (tuple((a.seat, a.name) for a in table.armies), rows,
            tuple((g.name, f"{g.pos[0]},{g.pos[1]}") for g in table.battlefield.glyphs))


def _cell(terrain: Any, pos: tuple[int, int]) -> str:
    if pos in terrain.walls:
        return "#"
    if pos not in terrain.levels:
        return "."
    level = terrain.levels[pos]
    return "~" if level == -1 else str(level)


def report(rows: Counter, runs: int) -> dict | None:
    if not rows:
        return None
    armies, battlefield, glyphs = next(iter(rows))[0]
    seats = [seat for seat, _ in armies]
    wins: Counter = Counter()
    order_wins: Counter = Counter()
    lengths: Counter = Counter()
    lost: Counter = Counter()
    falls: Counter = Counter()
    held_games: Counter = Counter()
    held_wins: Counter = Counter()
    limit = draws = 0
    for (_, winner, first, rounds, reason, losses, held, fallen), count in rows.items():
        wins[winner] += count
        if winner is not None:
            order_wins["first" if winner == first else "other"] += count
        else:
            draws += count
        lengths[rounds] += count
        limit += count if reason == "turn limit" else 0
        for seat, n in losses:
            lost[seat] += n * count
        for hexes in fallen:
            falls[hexes] += count
        holding = dict(held)
        for glyph, _ in glyphs:
            for seat in seats:
                key = (glyph, seat in holding.get(glyph, ()))
                held_games[key] += count
                held_wins[key] += count if winner == seat else 0
    total = sum(lengths.values())
    return {
        "armies": {seat: {"army": name, "wins": wins[seat], "share": round(wins[seat] / total, 6), "interval": wilson(wins[seat], total)}
                   for seat, name in armies},
        "draws": draws,
        "turn_order": {"first": {"wins": order_wins["first"], "share": round(order_wins["first"] / total, 6),
                                 "interval": wilson(order_wins["first"], total)}},
        "length": {"mean_rounds": round(sum(r * n for r, n in lengths.items()) / total, 6), "min_rounds": min(lengths),
                   "max_rounds": max(lengths), "rounds": {str(r): lengths[r] for r in sorted(lengths)}},
        "turn_limit": {"games": limit, "share": round(limit / total, 6)},
        "figures_lost": {seat: round(lost[seat] / total, 6) for seat in seats},
        "glyphs": {glyph: {"at": at, **{("held" if flag else "not_held"): _rate(held_wins[(glyph, flag)], held_games[(glyph, flag)])
                                        for flag in (True, False)}}
                   for glyph, at in glyphs},
        "battlefield": {"rows": list(battlefield), "falls": {hexes: falls[hexes] for hexes in sorted(falls)}},
    }


def _rate(wins: int, games: int) -> dict:
    return {"games": games, "win_rate": round(wins / games, 6) if games else None, "interval": wilson(wins, games)}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:5.1f}%"


def report_text(section: dict) -> list[str]:
    lines = ["Armies                         wins   share   95% interval"]
    for seat, row in section["armies"].items():
        lo, hi = row["interval"]
        lines.append(f"  {seat:<4} {row['army']:<24} {row['wins']:>6,} {_pct(row['share'])}   {_pct(lo)} - {_pct(hi)}")
    first = section["turn_order"]["first"]
    lo, hi = first["interval"]
    lines.append(f"  the first player (d20) wins {_pct(first['share'])} ({_pct(lo)} - {_pct(hi)}); draws {section['draws']:,}")
    length = section["length"]
    limit = section["turn_limit"]
    lines.append(f"Game length: {length['mean_rounds']:.1f} rounds on average ({length['min_rounds']}-{length['max_rounds']}); "
                 f"the turn limit decides {_pct(limit['share']).strip()} ({limit['games']:,} games)")
    lines.append("Figures lost per game: " + ", ".join(f"{seat} {n:.2f}" for seat, n in section["figures_lost"].items()))
    for glyph, row in section["glyphs"].items():
        held, not_held = row["held"], row["not_held"]
        lines.append(f"Glyph {glyph} ({row['at']}): an army that held it wins {_pct(held['win_rate']).strip()} of {held['games']:,}, "
                     f"one that did not {_pct(not_held['win_rate']).strip()} of {not_held['games']:,}")
    return lines


def report_html(section: dict) -> str:
    armies = "".join(f"<tr><td>{escape(seat)}</td><td>{escape(row['army'])}</td><td>{row['wins']}</td><td>{_pct(row['share'])}</td>"
                     f"<td>{_pct(row['interval'][0])} - {_pct(row['interval'][1])}</td></tr>" for seat, row in section["armies"].items())
    glyphs = "".join(f"<tr><td>{escape(name)}</td><td>{_pct(row['held']['win_rate'])} ({row['held']['games']})</td>"
                     f"<td>{_pct(row['not_held']['win_rate'])} ({row['not_held']['games']})</td></tr>" for name, row in section["glyphs"].items())
    length, limit = section["length"], section["turn_limit"]
    return (f'<h2 id="arena">Arena</h2><table><tr><th>seat</th><th>army</th><th>wins</th><th>share</th><th>95% interval</th></tr>{armies}</table>'
            f"<p>Game length {length['mean_rounds']:.1f} rounds on average; the turn limit decides {_pct(limit['share'])}; "
            f"the first player wins {_pct(section['turn_order']['first']['share'])}.</p>"
            + (f"<table><tr><th>glyph</th><th>held: win rate</th><th>not held</th></tr>{glyphs}</table>" if glyphs else "")
            + f"<h3>Where figures fell</h3>{svg_map(section['battlefield'])}")


LEVEL_FILL = ("#e8e4d8", "#d6cfb8", "#c4b998", "#b2a378", "#a08d5a", "#8e7840", "#7c652c", "#6a521c", "#583f10", "#462f08")


def svg_map(battlefield: dict, size: float = 22.0) -> str:
    """The battlefield as an SVG of hexes (levels shaded, water blue, walls dark), with a red
    disc on each hex where figures fell, its area growing with the count."""
    rows = [row.split() for row in battlefield["rows"]]
    falls = battlefield["falls"]
    top = max(falls.values(), default=1)
    width = math.sqrt(3) * size
    cols = max((len(r) for r in rows), default=0)
    parts = []
    for r, cells in enumerate(rows, start=1):
        for c, cell in enumerate(cells, start=1):
            if cell == ".":
                continue
            x = (c - 1 + (0.5 if r % 2 else 0.0)) * width + width / 2 + 4
            y = (r - 1) * 1.5 * size + size + 4
            corners = " ".join(f"{x + size * math.cos(math.radians(60 * k - 30)):.1f},{y + size * math.sin(math.radians(60 * k - 30)):.1f}"
                               for k in range(6))
            fill = "#6fa8dc" if cell == "~" else "#333333" if cell == "#" else LEVEL_FILL[int(cell)]
            parts.append(f'<polygon points="{corners}" fill="{fill}" stroke="#777"><title>{c},{r}: {escape(cell)}</title></polygon>')
            count = falls.get(f"{c},{r}", 0)
            if count:
                radius = 2 + (0.55 * size - 2) * math.sqrt(count / top)
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#c00" fill-opacity="0.55">'
                             f"<title>{c},{r}: {count} fell</title></circle>"
                             f'<text x="{x:.1f}" y="{y + size * 0.75:.1f}" font-size="{size * 0.4:.0f}" text-anchor="middle">{count}</text>')
    w = (cols + 0.5) * width + 8
    h = (len(rows) - 1) * 1.5 * size + 2 * size + 8
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}">{"".join(parts)}</svg>'
