"""The `--html` report: one self-contained page, charts drawn as inline SVG.

No scripts, fonts or stylesheets are fetched: the page must open the same on a
laptop at the table with no network. Everything is escaped; titles and labels
come from untrusted scenario scripts.
"""

from __future__ import annotations

from html import escape

from deckquest.sim.precision import precision_line
from deckquest.engine.colors import check_kind_word, who_word
from deckquest.i18n import _, current, pgettext
from deckquest.sim.report import outcome_word, rating_word
from deckquest.systems import REGISTRY

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
    span = CHART_WIDTH - LABEL_WIDTH - 120  # room for "simulated 100.0%"
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{CHART_WIDTH}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    words = {"simulated": _("simulated"), "exact": _("exact")}
    for index, (label, rate, exact) in enumerate(rows):
        y = 5 + index * 2 * BAR_HEIGHT
        parts.append(f'<text x="0" y="{y + 15}">{escape(label[:38])}</text>')
        for offset, value, color, name in ((0, rate, "#4c72b0", "simulated"), (BAR_HEIGHT - 4, exact, "#aaaaaa", "exact")):
            if value is None:
                continue
            width = max(0.0, min(1.0, value)) * span
            parts.append(
                f'<rect class="bar {name}" x="{LABEL_WIDTH}" y="{y + offset + 2}" width="{width:.1f}" '
                f'height="{BAR_HEIGHT - 8}" fill="{color}"><title>{words[name]} {value:.1%}</title></rect>'
            )
            parts.append(f'<text x="{LABEL_WIDTH + width + 6:.1f}" y="{y + offset + 13}">{words[name]} {value:.1%}</text>')
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
            text = _number(cell) if isinstance(cell, float) else str(cell)
            cells.append(f"<td{css}>{escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _number(value: float) -> str:
    """A float as people write it: 10.5, 10, 0.33 (never 10.500)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


# ---------------------------------------------------------------- the page


def render_page(data: dict) -> str:
    """The whole report as one HTML document: verdict, charts, then the tables."""
    title = _("{title}: difficulty report", title=data["scenario"]["title"])
    body = [f"<h1>{escape(title)}</h1>", _meta(data), _verdict(data["verdict"]),
            _endings(data), _funnel(data), _scene_graph(data), _checks(data), _pcs(data), _battles(data),
            _coverage(data), _system(data), _problems(data)]
    return (f'<!DOCTYPE html>\n<html lang="{current()}"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")


def _heading(anchor: str, text: str) -> str:
    return f'<h2 id="{anchor}">{escape(text)}</h2>'


def _paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def _system(data: dict) -> str:
    """The game system's section (GameSystem.report_html: a fragment it escapes itself)."""
    section = data.get("system")
    system = REGISTRY.find(section["name"]) if section is not None else None
    return system.report_html(section) if system is not None else ""


def _meta(data: dict) -> str:
    text = escape(_("{runs:,} runs of {path}, seed {seed}, agent {agent}, rules {rules}", runs=data["runs"],
                    path=data["scenario"]["path"], seed=data["seed"], agent=data["agent"],
                    rules=data["scenario"]["rules"]))
    if data["interrupted"]:
        text += escape(_(" (interrupted: {runs:,} of {requested:,} runs)", runs=data["runs"],
                         requested=data["runs_requested"]))
    if "precision" in data:
        text += f"<br>{escape(precision_line(data))}"
    return f'<p class="meta">{text}</p>'


def _verdict(verdict: dict) -> str:
    reasons = "".join(f"<li>{escape(reason)}</li>" for reason in verdict["reasons"])
    return (f'<div class="verdict" id="verdict"><strong>{escape(verdict["headline"])}</strong>'
            f"<ul>{reasons}</ul></div>")


def _endings(data: dict) -> str:
    details = data["ending_details"]
    rows = [(outcome_word(d["outcome"]), d["share"], f"{d['share']:.1%} ({d['runs']:,})") for d in details]
    if data["stuck"]:
        rows.append(("(" + _("stuck") + ")", data["stuck"] / data["runs"], f"{data['stuck'] / data['runs']:.1%}"))
    table_rows = [[outcome_word(d["outcome"]), d["runs"], percent(d["share"]),
                   _span(d["interval"][0], d["interval"][1]), rating_word(d["rating"]),
                   "; ".join(d["reasons"])] for d in details]
    return (_heading("endings", _("Endings")) + bar_chart(_("Ending shares"), rows, "#55a868")
            + table([_("ending"), _("runs"), _("share"), _("95% interval"), _("rating"), _("why")], table_rows))


def _span(low: float | None, high: float | None) -> str:
    return _("{low} to {high}", low=percent(low), high=percent(high))


def _funnel(data: dict) -> str:
    scenes = data["scenes"]
    rows = [(f"{scene_id}: {info['title']}", info["share"], f"{info['share']:.1%}")
            for scene_id, info in scenes.items()]
    table_rows = [[scene_id, info["title"], info["reached"], percent(info["share"]), info["ended_here"]]
                  for scene_id, info in scenes.items()]
    return (_heading("scenes", _("Scene funnel")) + bar_chart(_("Scene reach"), rows)
            + table([_("scene"), _("title"), _("runs reaching it"), _("share"), _("runs ending there")], table_rows))


def _scene_graph(data: dict) -> str:
    from deckquest.sim.graph import SceneGraph, to_svg

    graph, rates = SceneGraph.from_dict(data["graph"])
    if not graph.nodes:  # a whole game without scenes
        return ""
    return (_heading("graph", _("Scenes and exits"))
            + _paragraph(_("Each exit with the branch that takes it and the times runs took it per run (above 100% "
                           "when parties loop)."))
            + f'<div class="graph">{to_svg(graph, rates)}</div>')


def _checks(data: dict) -> str:
    checks = data["checks"]
    if not checks:
        return _heading("checks", _("Checks")) + _paragraph(_("The script has no checks."))
    rows = [(f"{site['line']}: {site['label']}", site["rate"], site["exact"]) for site in checks]
    table_rows = []
    for site in checks:
        interval = site["interval"]
        table_rows.append([
            site["line"], site["scene"], site["label"], f"{check_kind_word(site['kind'])} {site['difficulty']}",
            who_word(site["who"]),
            site["attempts"], percent(site["rate"]),
            _span(interval[0], interval[1]) if interval else "-",
            percent(site["exact"]), percent(site["exact_boost"]), ", ".join(site["pcs_checking"])])
    return (_heading("checks", _("Checks: simulated success and fresh-deck odds"))
            + paired_bar_chart(_("Check success"), rows)
            + table([_("line"), _("scene"), _("check"), _("kind"), _("by"), _("attempts"), pgettext("column", "success"),
                     _("95% interval"), _("exact"), _("exact with boost"), _("PCs")], table_rows))


def _pcs(data: dict) -> str:
    parts = [_heading("pcs", _("Player characters"))]
    rows = []
    for pc_id, pc in data["pcs"].items():
        rows.append([pc_id, pc["name"], percent(pc["dying_share"]), percent(pc["unconscious_share"]),
                     percent(pc["dead_share"]), pc["life_lost"]["mean"], pc["life_lost"]["p90"],
                     pc["library_end"]["mean"], pc["exhaustion_end"]["mean"]])
    parts.append(table([_("PC"), _("name"), _("dying"), _("unconscious"), _("dead"), _("life lost (mean)"),
                        _("life lost (p90)"), _("library at end (mean)"), _("exhaustion zone at end (mean)")], rows))
    for pc_id, pc in data["pcs"].items():
        counts = {int(value): count for value, count in pc["life_lost"]["histogram"].items()}
        parts.append("<h3>" + escape(_("Life lost by {name} (runs per amount)", name=pc["name"])) + "</h3>")
        parts.append(histogram_chart(_("Life lost by {name}", name=pc["name"]), counts))
    clock = data["clock"]
    parts.append("<p>" + _("Game clock at the end: mean {mean:.0f} minutes, median {p50:.0f}, 90% of runs under "
                           "{p90:.0f}, longest {longest}.", mean=clock["mean"], p50=clock["p50"], p90=clock["p90"],
                           longest=clock["max"]) + "</p>")
    return "".join(parts)


def _battles(data: dict) -> str:
    battles = data["battles"]
    if not battles:
        return _heading("battles", _("Battles")) + _paragraph(_("No battle was fought in these runs."))
    rows = [[row["line"], row["scene"], row["battles"],
             ", ".join(f"{outcome_word(k)} {v:.1%}" for k, v in row["shares"].items()),
             percent(row["tpk_share"]), row["pcs_out"]["mean"], row["turns"]["p50"], row["turns"]["p90"],
             row["damage_dealt_mean"], row["damage_taken_mean"]] for row in battles]
    return (_heading("battles", _("Battles"))
            + table([_("line"), _("scene"), _("battles"), _("outcomes"), _("every PC out"), _("PCs out (mean)"),
                     _("turns (median)"), _("turns (p90)"), _("damage dealt (mean)"), _("damage taken (mean)")], rows))


def _coverage(data: dict) -> str:
    rows = [[row["name"], row["cards"], percent(row["score"]), ", ".join(row["not_simulated"]) or "-",
             ", ".join(row["partly"]) or "-"] for row in data["coverage"]]
    if not rows:
        return ""
    return (_heading("coverage", _("Cards in battles"))
            + _paragraph(_("How much of each deck the battle engine simulates; the battle figures leave out the text "
                           "of the cards listed."))
            + table([_("deck of"), _("cards"), _("simulated"), _("not simulated"), _("partly")], rows))


def _problems(data: dict) -> str:
    parts = [_heading("problems", _("Stuck runs, errors and unreached lines"))]
    stuck = [[scene, row["runs"], row["reason"], row["command"]] for scene, row in data["stuck_scenes"].items()]
    if stuck:
        parts.append(table([_("scene"), _("stuck runs"), _("why"), _("replay")], stuck))
    errors = [[row["line"], row["scene"], row["runs"], row["message"], row["command"]] for row in data["errors"]]
    if errors:
        parts.append(table([_("line"), _("scene"), _("runs"), _("error"), _("replay")], errors))
    unreached = data["lines"]["unreached"]
    parts.append("<p>" + escape(_("Lines no run reached: {lines}.", lines=", ".join(unreached) if unreached
                                  else _("none"))) + "</p>")
    return "".join(parts)
