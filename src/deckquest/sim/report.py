"""The difficulty report: a tally turned into numbers, a verdict and a text page.

``Report.data`` is the ``--json`` object (checked against ``report.schema.json``);
``Report.text()`` is what ``deckquest sim`` prints; ``deckquest.sim.html`` draws the page.
Everything a GM reads first is in ``data["verdict"]``: a rating with its reasons.
"""

from __future__ import annotations

import json
import shlex

from deckquest import files
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS
from deckquest.sim.stats import histogram_mean, histogram_percentile, wilson_interval
from deckquest.sim.trace import ERROR, ScriptMap, Tally, run_seed
from deckquest.systems import REGISTRY

RATINGS = ("easy", "fair", "hard", "very hard")
RATING_FLOORS = (0.80, 0.55, 0.30)  # the party's success share at or above which each applies
DEADLY_SHARE = 0.25  # a PC dies in at least this share of runs: one rating harder
PCS_STATUSES = ("dying", "unconscious", "dead")


def _share(count: int, total: int) -> float:
    return round(count / total, 6) if total else 0.0


def _interval(count: int, total: int) -> list[float]:
    low, high = wilson_interval(count, total)
    return [round(low, 6), round(high, 6)]


def _summary(histogram: dict[int, int]) -> dict:
    """Mean, percentiles and the histogram itself (keys as strings, as JSON needs)."""
    return {
        "mean": round(histogram_mean(histogram), 6),
        "p10": histogram_percentile(histogram, 0.10),
        "p50": histogram_percentile(histogram, 0.50),
        "p90": histogram_percentile(histogram, 0.90),
        "max": max(histogram, default=0),
        "histogram": {str(value): histogram[value] for value in sorted(histogram)},
    }


def _per(counter) -> dict:
    """Split a counter keyed by (a, b) into {a: {b: count}}."""
    split: dict = {}
    for (first, second), count in counter.items():
        split.setdefault(first, {})[second] = count
    return split


class Report:
    """A batch's results: ``data`` (JSON-ready) with helpers for notebooks and the CLI."""

    def __init__(self, data: dict):
        self.data = data
        self.interrupted = data["interrupted"]
        self.jobs = 1
        self.elapsed = 0.0

    def __repr__(self) -> str:
        return f"<Report of {self.runs:,} runs: {self.data['verdict']['headline']}>"

    @property
    def runs(self) -> int:
        return self.data["runs"]

    @property
    def endings(self) -> dict[str, int]:
        return self.data["endings"]

    def share(self, outcome: str) -> float:
        return _share(self.endings.get(outcome, 0), self.runs)

    def check(self, label_or_line) -> dict:
        """The first check site with this label (case-insensitive) or line."""
        for site in self.data["checks"]:
            if site["line"] == label_or_line or str(site["label"]).lower() == str(label_or_line).lower():
                return site
        raise KeyError(label_or_line)

    def to_json(self) -> str:
        return json.dumps(self.data, indent=2, sort_keys=False) + "\n"

    def write_json(self, path) -> None:
        write_atomically(path, self.to_json())

    def write_html(self, path) -> None:
        from deckquest.sim.html import render_page

        write_atomically(path, render_page(self.data))

    def text(self) -> str:
        return format_text(self.data)


def write_atomically(path, text: str) -> None:
    """Write a report file atomically (never a half-written report)."""
    files.write_atomically(path, text, hint="write the report into an existing folder you may write to")


# ---------------------------------------------------------------- building the data


def build_report(script_map: ScriptMap, tally: Tally, batch, *, runs_requested: int,
                 interrupted: bool) -> Report:
    program = script_map.program
    scenario = program.scenario
    runs = tally.runs
    data = {
        "scenario": {"title": scenario.title, "path": str(scenario.path), "rules": program.rules},
        "runs": runs,
        "runs_requested": runs_requested,
        "interrupted": interrupted,
        "seed": batch.seed,
        "agent": batch.agent,
        "max_steps": batch.max_steps,
        "endings": _endings(script_map, tally),
        "ending_details": [],
        "scenes": _scenes(program, tally),
        "checks": _checks(script_map, tally),
        "pcs": _pcs(program, tally),
        "clock": _summary(tally.clock),
        "steps": _summary(tally.steps),
        "dead_pcs": _summary(tally.dead_pcs),
        "battles": _battles(script_map, tally),
        "coverage": _coverage(script_map),
        "stuck": sum(tally.stuck.values()),
        "stuck_scenes": _stuck(tally, batch),
        "errors": _errors(tally, batch, script_map),
        "lines": _lines(script_map, tally),
    }
    data["ending_details"] = _ending_details(data, tally)
    data["verdict"] = _verdict(data)
    data["graph"] = _graph(scenario, data)
    system = program.system
    section = system.report(tally.system_rows, runs)
    if section is not None:  # a game system's own section (GameSystem.report)
        data["system"] = {"name": system.name, **section}
    return Report(data)


def _graph(scenario, data: dict) -> dict:
    """The scene graph with each exit's rate (its statement's runs per run, sim/graph.py)."""
    from deckquest.sim.graph import exit_rates, scene_graph

    graph = scene_graph(scenario)
    return graph.as_dict(exit_rates(graph, data, str(scenario.path)))


def _endings(script_map: ScriptMap, tally: Tally) -> dict[str, int]:
    """Every outcome the script can end with (0 when no run did), most frequent first."""
    counts = {outcome: tally.endings.get(outcome, 0) for outcome in script_map.endings}
    counts.update(tally.endings)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _scenes(program, tally: Tally) -> dict:
    runs = tally.runs
    return {scene_id: {"title": scene.title, "reached": tally.scenes.get(scene_id, 0),
                       "share": _share(tally.scenes.get(scene_id, 0), runs),
                       "ended_here": sum(n for (_, where), n in tally.end_scenes.items() if where == scene_id)
                       + tally.stuck.get(scene_id, 0)}
            for scene_id, scene in program.scenario.scenes.items()}


def _exact(program, site, pc_id: str, boost: bool) -> float | None:
    """The fresh-deck odds of `deckquest odds` for one PC at one site (None if unknowable)."""
    from deckquest.engine.odds import check_probability

    member = next((m for m in program.party if m.id == pc_id), None)
    if member is None or (boost and program.rules != "2019"):
        return None
    key = ("report", pc_id, site.kind, site.difficulty, boost)
    cache = program.odds_cache
    if key not in cache:
        try:
            cache[key] = float(check_probability(member.cards, member.critical_cards, site.kind,
                                                 site.difficulty, rules=program.rules, boost=boost))
        except ValueError:  # e.g. a library too small for the exact boost odds
            cache[key] = None
    return cache[key]


def _combine(who: str, weighted: list[tuple[int, float | None]]) -> float | None:
    """A site's exact odds from its PCs': weighted by attempts, or all/any of them."""
    known = [(n, p) for n, p in weighted if p is not None]
    if not known or len(known) != len(weighted):
        return None
    if who == "all":
        product = 1.0
        for _, p in known:
            product *= p
        return round(product, 6)
    if who == "any":
        miss = 1.0
        for _, p in known:
            miss *= 1 - p
        return round(1 - miss, 6)
    total = sum(n for n, _ in known)
    return round(sum(n * p for n, p in known) / total, 6) if total else None


def _checks(script_map: ScriptMap, tally: Tally) -> list[dict]:
    program = script_map.program
    pc_ids = [member.id for member in program.party]
    rows = []
    for site in script_map.sites:
        attempts = tally.attempts.get(site.number, 0)
        successes = tally.successes.get(site.number, 0)
        pcs = {}
        for pc_id in pc_ids:
            made = tally.pc_attempts.get((site.number, pc_id), 0)
            if made:
                pcs[pc_id] = {"attempts": made, "successes": tally.pc_successes.get((site.number, pc_id), 0),
                              "exact": _rounded(_exact(program, site, pc_id, False)),
                              "exact_boost": _rounded(_exact(program, site, pc_id, True))}
        weights = [(row["attempts"], row["exact"]) for row in pcs.values()]
        boost_weights = [(row["attempts"], row["exact_boost"]) for row in pcs.values()]
        rows.append({
            "scene": site.scene, "line": site.line, "label": site.label, "kind": site.kind,
            "difficulty": site.difficulty, "who": site.who, "pcs_checking": list(pcs),
            "attempts": attempts, "successes": successes, "refused": tally.refused.get(site.number, 0),
            "rate": _share(successes, attempts) if attempts else None,
            "interval": _interval(successes, attempts) if attempts else None,
            "exact": _combine(site.who, weights), "exact_boost": _combine(site.who, boost_weights),
            "pcs": pcs,
        })
    return rows


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _pcs(program, tally: Tally) -> dict:
    runs = tally.runs
    life = _per(tally.life_lost)
    library = _per(tally.library_end)
    exhaustion = _per(tally.exhaustion_end)
    result = {}
    for member in program.party:
        entry: dict = {"name": member.name}
        for status in PCS_STATUSES:
            entry[status] = tally.statuses.get((member.id, status), 0)
            entry[f"{status}_share"] = _share(entry[status], runs)
        entry["life_lost"] = _summary(life.get(member.id, {}))
        entry["library_end"] = _summary(library.get(member.id, {}))
        entry["exhaustion_end"] = _summary(exhaustion.get(member.id, {}))
        result[member.id] = entry
    return result


def _battles(script_map: ScriptMap, tally: Tally) -> list[dict]:
    """Per battle statement: outcomes, TPKs, PCs out, length and damage (empty until battles run)."""
    outcomes = _per(tally.battles)
    turns = _per(tally.battle_turns)
    out = _per(tally.battle_out)
    rows = []
    for line in sorted(outcomes):
        count = sum(outcomes[line].values())
        rows.append({
            "line": line, "scene": script_map.battle_scenes.get(line, ""), "battles": count,
            "outcomes": dict(sorted(outcomes[line].items())),
            "shares": {k: _share(v, count) for k, v in sorted(outcomes[line].items())},
            "tpk": tally.tpk.get(line, 0), "tpk_share": _share(tally.tpk.get(line, 0), count),
            "pcs_out": _summary(out.get(line, {})),
            "turns": _summary(turns.get(line, {})),
            "damage_dealt_mean": round(tally.battle_damage.get((line, "dealt"), 0) / count, 6),
            "damage_taken_mean": round(tally.battle_damage.get((line, "taken"), 0) / count, 6),
        })
    return rows


def _coverage(script_map: ScriptMap) -> list[dict]:
    """How much of each deck that fights the battles are simulated (docs/effects.md), so a GM
    knows which cards' text the battle figures leave out. Empty for a script with no battle."""
    if not script_map.battle_scenes:
        return []
    from deckquest.cards.oracle import coverage

    program = script_map.program
    decks = [(member.id, member.name, member.cards) for member in program.party]
    decks += [(npc.id, npc.name, npc.deck.main_cards()) for npc in program.scenario.npcs.values()
              if npc.deck is not None]
    rows = []
    for owner, name, cards in decks:
        report = coverage(cards)
        rows.append({
            "owner": owner, "name": name, "cards": report.total, "score": round(report.score, 6),
            "partly": [entry.name for entry in report.cards if entry.recognition.level == "partial"],
            "not_simulated": [entry.name for entry in report.cards if entry.recognition.level == "none"],
        })
    return rows


def _replay(batch, index: int) -> dict:
    """How to see run ``index`` again: its seed and the `deckquest run` command."""
    seed = run_seed(batch.seed, index)
    script = batch.scenario.path
    command = f"deckquest run {shlex.quote(str(script))} --agent {batch.agent} --seed {seed}"
    if batch.party_file:
        command += f" --party {shlex.quote(batch.party_file)}"
    if batch.max_steps != DEFAULT_MAX_STEPS:
        command += f" --max-steps {batch.max_steps}"
    return {"run": index, "seed": seed, "command": command}


def _stuck(tally: Tally, batch) -> dict:
    return {scene: {"runs": count, "reason": tally.first_stuck[scene][1],
                    **_replay(batch, tally.first_stuck[scene][0])}
            for scene, count in sorted(tally.stuck.items(), key=lambda item: (-item[1], item[0]))}


def _errors(tally: Tally, batch, script_map: ScriptMap) -> list[dict]:
    rows = []
    for key, count in sorted(tally.errors.items(), key=lambda item: (-item[1], item[0])):
        message, file, line, scene = key
        row = {"message": message, "line": line, "scene": scene, "runs": count,
               **_replay(batch, tally.first_error[key][0])}
        if file and file != script_map.main_file:
            row["file"] = file
        rows.append(row)
    return rows


def _lines(script_map: ScriptMap, tally: Tally) -> dict:
    hits = {}
    unreached = []
    for file, line in script_map.statement_lines():
        key = str(line) if file == script_map.main_file else f"{file}:{line}"
        hits[key] = tally.hits.get((file, line), 0)
        if not hits[key]:
            unreached.append(key)
    return {"hits": hits, "unreached": unreached}


# ---------------------------------------------------------------- the verdict


def _frequency(share: float, count: int) -> str:
    if count == 0:
        return "never"
    if share >= 0.30:
        return "common"
    if share >= 0.10:
        return "occasional"
    if share >= 0.01:
        return "rare"
    return "very rare"


def _site_name(site: dict) -> str:
    return f"\"{site['label']}\" (line {site['line']}, {site['kind']} {site['difficulty']})"


def _ending_details(data: dict, tally: Tally) -> list[dict]:
    """Per ending: how often, where those runs end, and the checks they failed most."""
    runs = data["runs"]
    details = []
    for outcome, count in data["endings"].items():
        scenes = {scene: n for (ending, scene), n in tally.end_scenes.items() if ending == outcome}
        where = max(sorted(scenes), key=scenes.get) if scenes else None
        failed = sorted(((n, number) for (ending, number), n in tally.failed_by_ending.items()
                         if ending == outcome), key=lambda item: (-item[0], item[1]))[:3]
        reasons = []
        if where is not None:
            reasons.append(f"most of these runs end in the scene `{where}` ({scenes[where] / count:.0%})")
        for n, number in failed:
            site = data["checks"][number]
            reasons.append(f"{_site_name(site)} failed in {n / count:.0%} of these runs")
        details.append({
            "outcome": outcome, "runs": count, "share": _share(count, runs),
            "interval": _interval(count, runs), "rating": _frequency(count / runs if runs else 0, count),
            "scene": where, "scenes": dict(sorted(scenes.items())), "reasons": reasons,
        })
    return details


def _success_share(data: dict) -> tuple[float, str]:
    """The party's success: victories if the script has them, else every end but defeat."""
    runs = data["runs"] or 1
    endings = data["endings"]
    if "victory" in endings:
        return endings["victory"] / runs, "the party wins"
    good = sum(n for outcome, n in endings.items() if outcome not in ("defeat", ERROR))
    return good / runs, "the party avoids defeat"


def _verdict(data: dict) -> dict:
    runs = data["runs"]
    if runs == 0:
        return {"rating": "unknown", "headline": "no run finished", "reasons": []}
    share, what = _success_share(data)
    level = next((i for i, floor in enumerate(RATING_FLOORS) if share >= floor), len(RATING_FLOORS))
    reasons = [f"{what} in {share:.1%} of {runs:,} runs"]
    any_death = _any_death_share(data)
    if any_death >= DEADLY_SHARE and level < len(RATINGS) - 1:
        level += 1
        reasons.append(f"a PC dies in {any_death:.0%} of runs: one rating harder")
    elif any_death:
        reasons.append(f"a PC dies in {any_death:.1%} of runs")
    for site in _hardest_checks(data["checks"]):
        failures = site["attempts"] - site["successes"]
        exact = (f" (on a fresh deck it succeeds {site['exact']:.0%})" if site["exact"] is not None else "")
        reasons.append(f"{_site_name(site)} in `{site['scene']}` fails in {failures:,} of {site['attempts']:,} "
                       f"attempts: it succeeds {site['successes'] / site['attempts']:.0%} of the time{exact}")
    reasons += [_battle_reason(row) for row in _deadliest_battles(data["battles"])]
    reasons += _coverage_reasons(data["coverage"])
    ends = {scene: info["ended_here"] for scene, info in data["scenes"].items() if info["ended_here"]}
    if ends:
        scene = max(sorted(ends), key=ends.get)
        reasons.append(f"most parties end in the scene `{scene}` ({ends[scene] / runs:.0%} of runs)")
    if data["stuck"]:
        runs_word = "run" if data["stuck"] == 1 else "runs"
        reasons.append(f"{data['stuck']:,} {runs_word} got stuck (see \"Stuck runs\" below)")
    errors = sum(row["runs"] for row in data["errors"])
    if errors:
        reasons.append(f"{errors:,} runs stopped on a runtime error (see errors)")
    rating = RATINGS[level]
    return {"rating": rating, "success_share": round(share, 6),
            "headline": f"{rating.upper()}: {what} in {share:.0%} of runs", "reasons": reasons}


def _coverage_reasons(rows: list[dict]) -> list[str]:
    """A warning for each battling deck whose cards the battle engine mostly cannot play."""
    from deckquest.engine.combat.battle import LOW_COVERAGE

    return [f"battles simulate only {row['score']:.0%} of {row['name']}'s deck: the battle figures "
            f"are rough (see `deckquest cards coverage`)" for row in rows if row["score"] < LOW_COVERAGE]


def _any_death_share(data: dict) -> float:
    """The share of runs that ended with at least one PC dead."""
    dead = data["dead_pcs"]["histogram"]
    return sum(n for count, n in dead.items() if count != "0") / data["runs"]


def _deadliest_battles(battles: list[dict], count: int = 2) -> list[dict]:
    """The battles lost most often (by share), those lost at least once."""
    lost = [row for row in battles if row["outcomes"].get("defeat")]
    lost.sort(key=lambda row: (-row["shares"]["defeat"], row["line"]))
    return lost[:count]


def _battle_reason(row: dict) -> str:
    return (f"the battle at line {row['line']} in `{row['scene']}` is lost in {row['shares']['defeat']:.1%} "
            f"of {row['battles']:,} battles (every PC out at its end in {row['tpk_share']:.1%})")


def _hardest_checks(checks: list[dict], count: int = 3) -> list[dict]:
    """The sites that fail most often in absolute numbers: what stops the most parties."""
    tried = [site for site in checks if site["attempts"] and site["attempts"] > site["successes"]]
    tried.sort(key=lambda site: (-(site["attempts"] - site["successes"]), site["line"]))
    return tried[:count]


# ---------------------------------------------------------------- the text page


def _pct(value: float | None) -> str:
    return "   -  " if value is None else f"{100 * value:5.1f}%"


def format_text(data: dict) -> str:
    lines = [f"{data['scenario']['title']}: {data['runs']:,} runs, seed {data['seed']}, agent {data['agent']}"]
    if data["interrupted"]:
        lines.append(f"INTERRUPTED: {data['runs']:,} of {data['runs_requested']:,} runs finished")
    verdict = data["verdict"]
    lines += ["", f"Verdict: {verdict['headline']}"] + [f"  - {reason}" for reason in verdict["reasons"]]
    lines += ["", "Endings                 runs   share   95% interval   rating"]
    for detail in data["ending_details"]:
        low, high = detail["interval"]
        lines.append(f"  {detail['outcome']:<18} {detail['runs']:>7,} {_pct(detail['share'])}  "
                     f"{_pct(low)}-{_pct(high).strip():<7} {detail['rating']}")
        lines += [f"      {reason}" for reason in detail["reasons"]]
    if data["stuck"]:
        lines.append(f"  {'(stuck)':<18} {data['stuck']:>7,} {_pct(data['stuck'] / data['runs'])}")
    lines += ["", "Scenes                  reached  share   ended here"]
    for scene_id, scene in data["scenes"].items():
        lines.append(f"  {scene_id:<20} {scene['reached']:>8,} {_pct(scene['share'])}  {scene['ended_here']:>8,}")
    lines += _checks_text(data["checks"])
    lines += ["", "PCs           dying  unconscious    dead   life lost (mean p50 p90)   library at end   exhaustion at end"]
    for pc_id, pc in data["pcs"].items():
        lines.append(
            f"  {pc_id:<10} {_pct(pc['dying_share'])} {_pct(pc['unconscious_share'])}      {_pct(pc['dead_share'])}   "
            f"{pc['life_lost']['mean']:6.1f} {pc['life_lost']['p50']:4.0f} {pc['life_lost']['p90']:4.0f}"
            f"            {pc['library_end']['mean']:6.1f}            {pc['exhaustion_end']['mean']:6.1f}")
    clock = data["clock"]
    lines += ["", f"Game clock at the end: mean {clock['mean']:.0f} min, median {clock['p50']:.0f}, "
                  f"90% under {clock['p90']:.0f}, longest {clock['max']} min"]
    lines += _battle_text(data["battles"])
    lines += _coverage_text(data["coverage"])
    if data["stuck_scenes"]:
        lines += ["", "Stuck runs"]
    for scene, row in data["stuck_scenes"].items():
        lines.append(f"  in `{scene}`: {row['runs']:,} runs ({row['reason']}); replay: {row['command']}")
    for row in data["errors"]:
        lines.append(f"Runtime error in {row['runs']:,} runs at line {row['line']} (scene `{row['scene']}`): "
                     f"{row['message']}\n  replay: {row['command']}")
    lines += _system_text(data)
    unreached = data["lines"]["unreached"]
    lines += ["", f"Lines no run reached: {', '.join(unreached) if unreached else 'none'}"]
    return "\n".join(lines) + "\n"


def _checks_text(checks: list[dict]) -> list[str]:
    """The checks table; its columns are as wide as their longest entry (never cut mid-word)."""
    label = max([len("label")] + [len(site["label"]) for site in checks])
    kind = max([len("kind")] + [len(site["kind"]) for site in checks])
    who = max([len("who")] + [len(site["who"]) for site in checks])
    lines = ["", f"Checks  line {'label':<{label}} {'kind':>{kind}} difficulty {'who':<{who}} "
                 "attempts  success [95% interval]   exact  exact+boost"]
    for site in checks:
        interval = site["interval"] or [None, None]
        lines.append(
            f"        {site['line']:>4} {site['label']:<{label}} {site['kind']:>{kind}} {site['difficulty']:>10} "
            f"{site['who']:<{who}} {site['attempts']:>8,}  {_pct(site['rate'])} "
            f"[{_pct(interval[0]).strip()}-{_pct(interval[1]).strip()}]  {_pct(site['exact'])}  {_pct(site['exact_boost'])}")
        if len(site["pcs"]) > 1:
            for pc_id, row in site["pcs"].items():
                rate = row["successes"] / row["attempts"]
                lines.append(f"             {pc_id}: {row['attempts']:,} checks, {_pct(rate)} "
                             f"(exact {_pct(row['exact']).strip()})")
    return lines
def _system_text(data: dict) -> list[str]:
    """The game system's section of the text page (GameSystem.report_text)."""
    section = data.get("system")
    system = REGISTRY.find(section["name"]) if section is not None else None
    return ["", *system.report_text(section)] if system is not None else []


def _coverage_text(rows: list[dict]) -> list[str]:
    if not rows:
        return []
    from deckquest.engine.combat.battle import LOW_COVERAGE

    lines = ["", "Cards in battles (deckquest cards coverage DECK lists each card's text)"]
    for row in rows:
        warning = "  LOW: battle figures leave much of this deck out" if row["score"] < LOW_COVERAGE else ""
        lines.append(f"  {row['name']}: {row['cards']} cards, {row['score']:.0%} simulated{warning}")
        for label, names in (("not simulated", row["not_simulated"]), ("partly", row["partly"])):
            if names:
                lines.append(f"      {label}: {', '.join(names)}")
    return lines


def _battle_text(battles: list[dict]) -> list[str]:
    if not battles:
        return []
    shares = [", ".join(f"{k} {100 * v:.1f}%" for k, v in row["shares"].items()) for row in battles]
    width = max(len("outcomes"), *(len(text) for text in shares))
    lines = ["", f"Battles (line)   battles   {'outcomes':<{width}}  every PC out  PCs out (mean)  turns (p50 p90)"]
    for row, outcomes in zip(battles, shares):
        lines.append(f"  {row['line']:>4}          {row['battles']:>8,}   {outcomes:<{width}}  "
                     f"{_pct(row['tpk_share']):>12}  {row['pcs_out']['mean']:14.2f}  "
                     f"{row['turns']['p50']:.0f} {row['turns']['p90']:.0f}")
    lines.append("  (every PC out: no PC was still ok at the battle's end, whatever its outcome: a horde that "
                 "runs out of cards loses even to unconscious PCs, T-6.12)")
    return lines
