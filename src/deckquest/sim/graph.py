"""``deckquest graph``: a script's scenes and their exits as a picture.

A GM checking an adventure's shape wants to see which scene leads where, under which
branch, and (after ``deckquest sim``) how often parties take each way. The graph is read
from the compiled scenario's syntax tree, never changed: a node per scene and per ending, an
edge per ``->`` and per ``end`` statement, labelled with the branches that lead to it (the
choice option, the check or battle outcome, the ``if``). A sim report's line hit counts give
each exit's rate: the times its statement ran per run (above 100% when parties loop).

Three renderings: Graphviz DOT and Mermaid text for other tools, and a self-contained SVG
laid out here (scenes in layers by their distance from the start scene), which the HTML
report embeds.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from deckquest.dsl import ast

ENDING = "ending"
SCENE = "scene"
ANYWHERE = "(any scene)"  # the source of an exit in a scenario-wide trigger


@dataclass(frozen=True)
class Node:
    id: str
    title: str
    kind: str  # SCENE or ENDING
    start: bool = False


@dataclass(frozen=True)
class Exit:
    source: str
    target: str
    label: str  # the branches that lead to it, "" when the scene always takes it
    file: str
    line: int


@dataclass(frozen=True)
class SceneGraph:
    nodes: tuple[Node, ...]
    exits: tuple[Exit, ...]

    @classmethod
    def from_dict(cls, data: dict) -> tuple["SceneGraph", dict[Exit, float]]:
        """The graph and its rates back from ``as_dict`` (the report's JSON ``graph``)."""
        nodes = tuple(Node(n["id"], n["title"], n["kind"], n["start"]) for n in data["nodes"])
        exits = [(Exit(e["from"], e["to"], e["label"], "", e["line"]), e["rate"]) for e in data["exits"]]
        graph = cls(nodes, tuple(exit_ for exit_, _ in exits))
        return graph, {exit_: rate for exit_, rate in exits if rate is not None}

    def as_dict(self, rates: dict[Exit, float] | None = None) -> dict:
        return {"nodes": [{"id": n.id, "title": n.title, "kind": n.kind, "start": n.start} for n in self.nodes],
                "exits": [{"from": e.source, "to": e.target, "label": e.label, "line": e.line,
                           "rate": None if rates is None else rates.get(e)} for e in self.exits]}


def scene_graph(scenario) -> SceneGraph:
    """The scenes of a compiled scenario, its endings, and every exit between them."""
    nodes: dict[str, Node] = {}
    exits: list[Exit] = []
    for scene in scenario.scenes.values():
        nodes[scene.id] = Node(scene.id, scene.title, SCENE, scene.start)
    for scene in scenario.scenes.values():
        for trigger in scene.triggers:
            _walk(trigger.body, scene.id, [_trigger_label(trigger)], nodes, exits)
        _walk(scene.body, scene.id, [], nodes, exits)
    for trigger in scenario.triggers:
        _walk(trigger.body, ANYWHERE, [_trigger_label(trigger)], nodes, exits)
    if any(e.source == ANYWHERE for e in exits):
        nodes[ANYWHERE] = Node(ANYWHERE, "any scene (a trigger)", SCENE)
    ordered = sorted(nodes.values(), key=lambda n: (n.kind == ENDING, not n.start))
    return SceneGraph(tuple(ordered), tuple(exits))


def _walk(statements, scene: str, path: list[str], nodes: dict[str, Node], exits: list[Exit]) -> None:
    for stmt in statements:
        label = " / ".join(path)
        if isinstance(stmt, ast.Goto):
            exits.append(Exit(scene, stmt.scene, label, stmt.span.file, stmt.span.line))
        elif isinstance(stmt, ast.End):
            ending = f"end:{stmt.outcome}"
            nodes.setdefault(ending, Node(ending, stmt.outcome, ENDING))
            exits.append(Exit(scene, ending, label, stmt.span.file, stmt.span.line))
        for branch, block in labelled_blocks(stmt):
            _walk(block, scene, path + [branch], nodes, exits)


def labelled_blocks(stmt) -> list[tuple[str, list]]:
    """The blocks nested in a statement, each with the branch that runs it."""
    if isinstance(stmt, ast.Choice):
        return [(f'"{option.label.raw}"', option.body) for option in stmt.options]
    if isinstance(stmt, ast.If):
        return [(b, block) for b, block in (("if", stmt.then), ("else", stmt.orelse)) if block is not None]
    outcomes = getattr(stmt, "outcomes", None) or []
    name = getattr(stmt, "label", None) or type(stmt).__name__.lower()
    return [(f"{name}: {outcome.kind}", outcome.body) for outcome in outcomes]


def _trigger_label(trigger) -> str:
    return f"when {trigger.event.kind.replace('_', ' ')}"


# ---------------------------------------------------------------- rates from a sim report


def exit_rates(graph: SceneGraph, report: dict, main_file: str) -> dict[Exit, float]:
    """Each exit's statement runs per run, from a sim report's ``lines.hits``."""
    runs = report.get("runs") or 0
    hits = report.get("lines", {}).get("hits", {})
    rates = {}
    for exit_ in graph.exits:
        key = str(exit_.line) if exit_.file == main_file else f"{exit_.file}:{exit_.line}"
        if runs and key in hits:
            rates[exit_] = hits[key] / runs
    return rates


def _rate_text(rate: float | None) -> str:
    return "" if rate is None else f"{100 * rate:.1f}%"


def _edge_label(exit_: Exit, rates: dict[Exit, float] | None) -> str:
    rate = _rate_text(rates.get(exit_)) if rates else ""
    return "\n".join(part for part in (exit_.label, rate) if part)


# ---------------------------------------------------------------- DOT and Mermaid


def to_dot(graph: SceneGraph, rates: dict[Exit, float] | None = None) -> str:
    def quote(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    lines = ["digraph scenes {", "    rankdir=TB;", "    node [fontname=\"sans-serif\"];"]
    for node in graph.nodes:
        shape = "ellipse" if node.kind == ENDING else "box"
        extra = ", peripheries=2" if node.start else ""
        lines.append(f"    {quote(node.id)} [label={quote(node.title)}, shape={shape}{extra}];")
    for exit_ in graph.exits:
        label = _edge_label(exit_, rates)
        attributes = f" [label={quote(label)}]" if label else ""
        lines.append(f"    {quote(exit_.source)} -> {quote(exit_.target)}{attributes};")
    return "\n".join(lines + ["}"]) + "\n"


def to_mermaid(graph: SceneGraph, rates: dict[Exit, float] | None = None) -> str:
    ids = {node.id: f"n{number}" for number, node in enumerate(graph.nodes)}

    def text(value: str) -> str:
        return value.replace('"', "#quot;").replace("\n", "<br/>")

    lines = ["flowchart TD"]
    for node in graph.nodes:
        title = text(node.title + (" (start)" if node.start else ""))
        lines.append(f'    {ids[node.id]}(["{title}"])' if node.kind == ENDING else f'    {ids[node.id]}["{title}"]')
    for exit_ in graph.exits:
        label = _edge_label(exit_, rates)
        arrow = f'-->|"{text(label)}"|' if label else "-->"
        lines.append(f"    {ids[exit_.source]} {arrow} {ids[exit_.target]}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- SVG

NODE_WIDTH = 190
NODE_HEIGHT = 46
COLUMN_GAP = 60
LAYER_GAP = 110
MARGIN = 30
SIDE_ROOM = 120  # each side, for exits that bow out past layers or go back up


def layers(graph: SceneGraph) -> list[list[Node]]:
    """Nodes by their distance from the start scene (breadth first); endings in the last layer,
    nodes no exit reaches after them."""
    by_id = {node.id: node for node in graph.nodes}
    following: dict[str, list[str]] = {}
    for exit_ in graph.exits:
        following.setdefault(exit_.source, []).append(exit_.target)
    depth: dict[str, int] = {}
    frontier = [n.id for n in graph.nodes if n.start or n.id == ANYWHERE]
    for node_id in frontier:
        depth[node_id] = 0
    while frontier:
        next_frontier = []
        for node_id in frontier:
            for target in following.get(node_id, []):
                if target not in depth:
                    depth[target] = depth[node_id] + 1
                    next_frontier.append(target)
        frontier = next_frontier
    scene_depth = max([d for n, d in depth.items() if by_id[n].kind == SCENE], default=0)
    rows: dict[int, list[Node]] = {}
    for node in graph.nodes:
        if node.kind == ENDING:
            row = scene_depth + 1
        else:
            row = depth.get(node.id, scene_depth + 2)
        rows.setdefault(row, []).append(node)
    return [rows[key] for key in sorted(rows)]


def _wrap(text: str, width: int = 24, lines: int = 2) -> list[str]:
    """Words on at most ``lines`` lines of about ``width`` characters (never cut mid-word)."""
    most = lines
    wrapped: list[str] = []
    for word in text.split():
        if wrapped and len(wrapped[-1]) + 1 + len(word) <= width:
            wrapped[-1] += " " + word
        else:
            wrapped.append(word)
    if len(wrapped) > most:
        wrapped = wrapped[:most - 1] + [" ".join(wrapped[most - 1:])]
    return wrapped or [""]


def to_svg(graph: SceneGraph, rates: dict[Exit, float] | None = None) -> str:
    if not graph.nodes:  # a whole game (a system without scenes): nothing to draw
        return ('<svg xmlns="http://www.w3.org/2000/svg" class="scene-graph" viewBox="0 0 240 40" width="240" '
                'height="40" role="img" aria-label="no scenes"><text x="10" y="25" font-size="12" '
                'font-family="sans-serif">The script has no scenes.</text></svg>')
    rows = layers(graph)
    widest = max(len(row) for row in rows)
    width = MARGIN * 2 + widest * NODE_WIDTH + (widest - 1) * COLUMN_GAP + 2 * SIDE_ROOM
    height = MARGIN * 2 + len(rows) * NODE_HEIGHT + (len(rows) - 1) * LAYER_GAP
    place: dict[str, tuple[float, float]] = {}
    for number, row in enumerate(rows):
        row_width = len(row) * NODE_WIDTH + (len(row) - 1) * COLUMN_GAP
        left = (width - row_width) / 2
        for column, node in enumerate(row):
            place[node.id] = (left + column * (NODE_WIDTH + COLUMN_GAP), MARGIN + number * (NODE_HEIGHT + LAYER_GAP))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="scene-graph" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="scenes and their exits">']
    spans = [(min(place[n.id][0] for n in row), max(place[n.id][0] for n in row) + NODE_WIDTH) for row in rows]
    pair_count: dict[tuple[str, str], int] = {}
    for exit_ in graph.exits:
        key = (exit_.source, exit_.target)
        bend = pair_count.get(key, 0)
        pair_count[key] = bend + 1
        parts.append(_svg_exit(exit_, place, bend, rates, spans))
    for node in graph.nodes:
        parts.append(_svg_node(node, *place[node.id]))
    parts.append("</svg>")
    return "".join(parts)


def _svg_node(node: Node, x: float, y: float) -> str:
    radius = NODE_HEIGHT / 2 if node.kind == ENDING else 6
    fill = "#eef5ee" if node.kind == ENDING else ("#e8eef8" if node.start else "#f6f6f6")
    stroke_width = 3 if node.start else 1.5
    lines = _wrap(node.title)
    text_y = y + NODE_HEIGHT / 2 - (len(lines) - 1) * 7 + 5
    text = "".join(f'<tspan x="{x + NODE_WIDTH / 2:.1f}" y="{text_y + 14 * i:.1f}">{escape(line)}</tspan>'
                   for i, line in enumerate(lines))
    return (f'<g class="node"><title>{escape(node.id)}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="{radius}" '
            f'fill="{fill}" stroke="#555" stroke-width="{stroke_width}"/>'
            f'<text text-anchor="middle" font-size="12" font-family="sans-serif">{text}</text></g>')


def _svg_exit(exit_: Exit, place: dict[str, tuple[float, float]], bend: int,
              rates: dict[Exit, float] | None, spans: list[tuple[float, float]]) -> str:
    source, target = place[exit_.source], place[exit_.target]
    layer = round((source[1] - MARGIN) / (NODE_HEIGHT + LAYER_GAP))
    between = spans[layer + 1:round((target[1] - MARGIN) / (NODE_HEIGHT + LAYER_GAP))]
    start, control, end = _route(source, target, bend, between)
    path = f"M {start[0]:.1f} {start[1]:.1f} Q {control[0]:.1f} {control[1]:.1f} {end[0]:.1f} {end[1]:.1f}"
    # labels nearer the target, where the exits of one scene have fanned out; parallel exits
    # (two ways from one scene to another) take turns above and below
    t = 0.6 if bend == 0 else (0.35 if bend % 2 else 0.8)
    label_x = (1 - t) ** 2 * start[0] + 2 * t * (1 - t) * control[0] + t * t * end[0]
    label_y = (1 - t) ** 2 * start[1] + 2 * t * (1 - t) * control[1] + t * t * end[1]
    label = [line for part in _edge_label(exit_, rates).split("\n") for line in _wrap(part, 30, lines=3) if line]
    top = label_y - 6 * (len(label) - 1)
    text = "".join(f'<tspan x="{label_x:.1f}" y="{top + 12 * i:.1f}">{escape(line)}</tspan>'
                   for i, line in enumerate(label))
    tip = f"line {exit_.line}: {exit_.source} -> {exit_.target}"
    return (f'<g class="exit"><title>{escape(tip)}</title><path d="{path}" fill="none" stroke="#555" '
            f'stroke-width="1.3"/>{_arrowhead(control, end)}<text text-anchor="middle" font-size="10" '
            f'font-family="sans-serif" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">{text}</text></g>')


Point = tuple[float, float]


def _route(source: Point, target: Point, bend: int,
           between: list[tuple[float, float]]) -> tuple[Point, Point, Point]:
    """Start, control point and end of an exit's curve. Down one layer: bottom to top, parallel
    exits bowing apart; down further: bowing out to the side, round the layers ``between``
    (their left and right edges); within a layer: side to facing side; back up: out of the
    right side and round."""
    (sx, sy), (tx, ty) = source, target
    spread = 60 * ((bend + 1) // 2) * (1 if bend % 2 else -1)
    if ty > sy:
        start, end = (sx + NODE_WIDTH / 2, sy + NODE_HEIGHT), (tx + NODE_WIDTH / 2, ty)
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        if between:  # the curve's apex is (start + 2 control + end) / 4: put it clear of them
            if tx < sx or (tx == sx and bend % 2 == 0):
                apex = min(left for left, _ in between) - 25 - abs(spread)
            else:
                apex = max(right for _, right in between) + 25 + abs(spread)
            return start, ((4 * apex - start[0] - end[0]) / 2, middle[1]), end
        return start, (middle[0] + spread, middle[1]), end
    if ty == sy:
        if tx > sx:
            start, end = (sx + NODE_WIDTH, sy + NODE_HEIGHT / 2), (tx, ty + NODE_HEIGHT / 2)
        else:
            start, end = (sx, sy + NODE_HEIGHT / 2), (tx + NODE_WIDTH, ty + NODE_HEIGHT / 2)
        return start, ((start[0] + end[0]) / 2, start[1] - 25 + spread), end
    start, end = (sx + NODE_WIDTH, sy + NODE_HEIGHT / 2), (tx + NODE_WIDTH, ty + NODE_HEIGHT / 2)
    return start, (max(start[0], end[0]) + 60 + abs(spread), (start[1] + end[1]) / 2), end


def _arrowhead(control: tuple[float, float], tip: tuple[float, float], size: float = 8) -> str:
    """A filled triangle at ``tip`` pointing along the curve's last tangent (from ``control``);
    drawn, not a marker, so the page refers to nothing, not even to itself."""
    dx, dy = tip[0] - control[0], tip[1] - control[1]
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    base = (tip[0] - ux * size, tip[1] - uy * size)
    left = (base[0] - uy * size / 2, base[1] + ux * size / 2)
    right = (base[0] + uy * size / 2, base[1] - ux * size / 2)
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, left, right))
    return f'<polygon points="{points}" fill="#555"/>'


FORMATS = {"svg": to_svg, "dot": to_dot, "mermaid": to_mermaid}


def render(graph: SceneGraph, fmt: str, rates: dict[Exit, float] | None = None) -> str:
    return FORMATS[fmt](graph, rates)
