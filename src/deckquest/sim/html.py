"""The `--html` report: one self-contained page, charts drawn as inline SVG.

No scripts, fonts or stylesheets are fetched: the page must open the same on a
laptop at the table with no network. Everything is escaped; titles and labels
come from untrusted scenario scripts.
"""

from __future__ import annotations

from html import escape

BAR_HEIGHT = 22
CHART_WIDTH = 640
LABEL_WIDTH = 240

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; } td, th { padding: 0.2em 0.7em; text-align: left; }
th { background: #eee; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { font-size: 1.2em; padding: 0.5em 1em; background: #f4f0e6; border-left: 6px solid #b58900; }
svg text { font-size: 12px; fill: #222; }
"""


def bar_chart(title: str, rows: list[tuple[str, float, str]], color: str = "#4c72b0") -> str:
    """Horizontal bars: (label, value in [0, 1], text shown after the bar)."""
    height = BAR_HEIGHT * max(len(rows), 1) + 10
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{CHART_WIDTH}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    span = CHART_WIDTH - LABEL_WIDTH - 80
    for index, (label, value, text) in enumerate(rows):
        y = 5 + index * BAR_HEIGHT
        width = max(0.0, min(1.0, value)) * span
        parts.append(f'<text x="0" y="{y + 15}">{escape(label[:38])}</text>')
        parts.append(
            f'<rect class="bar" x="{LABEL_WIDTH}" y="{y + 3}" width="{width:.1f}" '
            f'height="{BAR_HEIGHT - 6}" fill="{color}"><title>{escape(label)}: {escape(text)}</title></rect>'
        )
        parts.append(f'<text x="{LABEL_WIDTH + width + 6:.1f}" y="{y + 15}">{escape(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def paired_bar_chart(title: str, rows: list[tuple[str, float, float | None]]) -> str:
    """Two bars per row: the simulated rate and the exact fresh-deck odds."""
    height = 2 * BAR_HEIGHT * max(len(rows), 1) + 10
    span = CHART_WIDTH - LABEL_WIDTH - 80
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{CHART_WIDTH}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for index, (label, rate, exact) in enumerate(rows):
        y = 5 + index * 2 * BAR_HEIGHT
        parts.append(f'<text x="0" y="{y + 15}">{escape(label[:38])}</text>')
        for offset, value, color, name in ((0, rate, "#4c72b0", "simulated"), (BAR_HEIGHT - 4, exact, "#aaaaaa", "exact")):
            if value is None:
                continue
            width = max(0.0, min(1.0, value)) * span
            parts.append(
                f'<rect class="bar {name}" x="{LABEL_WIDTH}" y="{y + offset + 2}" width="{width:.1f}" '
                f'height="{BAR_HEIGHT - 8}" fill="{color}"><title>{name} {value:.1%}</title></rect>'
            )
            parts.append(f'<text x="{LABEL_WIDTH + width + 6:.1f}" y="{y + offset + 13}">{name} {value:.1%}</text>')
    parts.append("</svg>")
    return "".join(parts)


def histogram_chart(title: str, counts: dict[int, int]) -> str:
    """Vertical bars of a {value: count} histogram."""
    if not counts:
        return "<p>No data.</p>"
    low, high = min(counts), max(counts)
    values = list(range(low, high + 1))
    peak = max(counts.values())
    width = max(8, min(40, (CHART_WIDTH - 40) // len(values)))
    height = 160
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{width * len(values) + 40}" '
        f'height="{height + 30}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for index, value in enumerate(values):
        count = counts.get(value, 0)
        bar = height * count / peak
        x = 20 + index * width
        parts.append(
            f'<rect class="bar" x="{x}" y="{height - bar:.1f}" width="{width - 2}" height="{bar:.1f}" '
            f'fill="#c44e52"><title>{value}: {count} runs</title></rect>'
        )
        if len(values) <= 25 or index % 5 == 0:
            parts.append(f'<text x="{x}" y="{height + 15}">{value}</text>')
    parts.append("</svg>")
    return "".join(parts)


def table(headers: list[str], rows: list[list[object]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for cell in row:
            css = ' class="num"' if isinstance(cell, (int, float)) else ""
            text = f"{cell:.3f}" if isinstance(cell, float) else str(cell)
            cells.append(f"<td{css}>{escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"
