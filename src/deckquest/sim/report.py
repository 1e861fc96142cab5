"""The difficulty report: a tally turned into numbers, a verdict and a text page.

``Report.data`` is the ``--json`` object (checked against ``report.schema.json``);
``Report.text()`` is what ``deckquest sim`` prints; ``deckquest.sim.html`` draws the page.
Everything a GM reads first is in ``data["verdict"]``: a rating with its reasons.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter

from deckquest import files
from deckquest.engine.colors import check_kind_word, who_word
from deckquest.i18n import _, current, language, language_for, ljust, localize, ngettext, rjust, width
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS
from deckquest.sim.precision import precision_line
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

    def __init__(self, data: dict, system_rows: Counter | None = None):
        self.data = data
        self.system_rows = system_rows if system_rows is not None else Counter()  # GameSystem.record's rows
        self.interrupted = data["interrupted"]
        self.stopped_by = 0  # the signal that interrupted the batch (SIGINT, SIGTERM); not in the data
        self.jobs = 1
        self.elapsed = 0.0
        self.language = current()  # the text and HTML pages are written in it

    def __repr__(self) -> str:
        verdict = self.data["verdict"]
        return f"<Report of {self.runs:,} runs{': ' + verdict['headline'] if verdict else ''}>"

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

        with language(self.language):
            write_atomically(path, render_page(self.data))

    def text(self) -> str:
        with language(self.language):
            return format_text(self.data)


UNWRITABLE_OUTPUT = "DQ0016"  # a report, or the graph, could not be written (a full disk, no such folder)


def write_atomically(path, text: str) -> None:
    """Write a report file atomically (never a half-written report)."""
    files.write_atomically(path, text, code=UNWRITABLE_OUTPUT,
                           hint=_("write the report into an existing folder you may write to"))


# ---------------------------------------------------------------- building the data


def build_report(script_map: ScriptMap, tally: Tally, batch, *, runs_requested: int,
                 interrupted: bool, precision: dict | None = None) -> Report:
    """The report's data; its sentences (verdict, reasons) in the script's language (or --lang)."""
    with language(language_for(script_map.program.scenario.language)):
        return _build_report(script_map, tally, batch, runs_requested=runs_requested, interrupted=interrupted,
                             precision=precision)


def _build_report(script_map: ScriptMap, tally: Tally, batch, *, runs_requested: int,
                  interrupted: bool, precision: dict | None = None) -> Report:
    program = script_map.program
    scenario = program.scenario
    runs = tally.runs
    data = {
        "scenario": {"title": scenario.title, "path": str(scenario.path), "rules": program.rules,
                     "success_endings": list(scenario.success_endings)},
        "runs": runs,
        "runs_requested": runs_requested,
        "interrupted": interrupted,
        **({"precision": precision} if precision is not None else {}),  # sim --precision
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
    system = program.system
    section = system.report(tally.system_rows, runs)
    if not scenario.scenes:  # a whole game: no party, scenes or checks; the system judges its game
        data["verdict"] = system.verdict(section) if section is not None and runs else None
    else:
        data["verdict"] = _verdict(data)
    data["graph"] = _graph(scenario, data)
    if section is not None:  # a game system's own section (GameSystem.report)
        data["system"] = {"name": system.name, **section}
    return Report(data, tally.system_rows)


def whole_game(data: dict) -> bool:
    """A report of a script with no scenes (a whole game of its system): the party, scene,
    check, clock and battle sections are MTG-TRPG's adventure's and say nothing about the
    game, so the pages leave them out. (Every MTG-TRPG script has a start scene.)"""
    return not data["scenes"]


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
            "scene": site.scene, "line": site.line, "label": localize(site.label), "kind": site.kind,
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
    return {scene: {"runs": count, "reason": localize(tally.first_stuck[scene][1]),
                    **_replay(batch, tally.first_stuck[scene][0])}
            for scene, count in sorted(tally.stuck.items(), key=lambda item: (-item[1], item[0]))}


def _errors(tally: Tally, batch, script_map: ScriptMap) -> list[dict]:
    rows = []
    for key, count in sorted(tally.errors.items(), key=lambda item: (-item[1], item[0])):
        message, file, line, scene = key
        row = {"message": localize(message), "line": line, "scene": scene, "runs": count,
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


def rating_word(rating: str) -> str:
    """A verdict's or an ending's rating (the JSON keeps the English word) in the current language."""
    words = {"easy": _("easy"), "fair": _("fair"), "hard": _("hard"), "very hard": _("very hard"),
             "unknown": _("unknown"), "never": _("never"), "common": _("common"), "occasional": _("occasional"),
             "rare": _("rare"), "very rare": _("very rare")}
    return words.get(rating, rating)


def outcome_word(outcome: str) -> str:
    """How a run ended, in the current language."""
    words = {"victory": _("victory"), "defeat": _("defeat"), "stuck": _("stuck"), ERROR: _("error"),
             "abandoned": _("abandoned"), "escape": _("escape"), "stalemate": _("stalemate")}
    return words.get(outcome, outcome)


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
    return _("\"{label}\" (line {line}, {kind} {difficulty})", label=site["label"], line=site["line"],
             kind=check_kind_word(site["kind"]), difficulty=site["difficulty"])


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
            reasons.append(_("most of these runs end in the scene `{scene}` ({share:.0%})", scene=where,
                             share=scenes[where] / count))
        for n, number in failed:
            site = data["checks"][number]
            reasons.append(_("{site} failed in {share:.0%} of these runs", site=_site_name(site), share=n / count))
        details.append({
            "outcome": outcome, "runs": count, "share": _share(count, runs),
            "interval": _interval(count, runs), "rating": _frequency(count / runs if runs else 0, count),
            "scene": where, "scenes": dict(sorted(scenes.items())), "reasons": reasons,
        })
    return details


def _success_share(data: dict) -> tuple[float, str]:
    """The party's success: the endings the script's header counts as success (`success
    endings victory, "peace"`); without that line, victories if the script has them, else
    every end but defeat."""
    runs = data["runs"] or 1
    endings = data["endings"]
    declared = data["scenario"].get("success_endings")
    if declared:
        names = ", ".join(declared[:-1]) + (" or " if len(declared) > 1 else "") + declared[-1]
        return sum(endings.get(name, 0) for name in declared) / runs, f"the party ends in {names}"
    if "victory" in endings:
        return endings["victory"] / runs, _("the party wins")
    good = sum(n for outcome, n in endings.items() if outcome not in ("defeat", ERROR))
    return good / runs, _("the party avoids defeat")


def _verdict(data: dict) -> dict:
    runs = data["runs"]
    if runs == 0:
        return {"rating": "unknown", "headline": _("no run finished"), "reasons": []}
    share, what = _success_share(data)
    level = next((i for i, floor in enumerate(RATING_FLOORS) if share >= floor), len(RATING_FLOORS))
    reasons = [ngettext("{what} in {share:.1%} of {count:,} run", "{what} in {share:.1%} of {count:,} runs", runs,
                        what=what, share=share)]
    any_death = _any_death_share(data)
    if any_death >= DEADLY_SHARE and level < len(RATINGS) - 1:
        level += 1
        reasons.append(_("a PC dies in {share:.0%} of runs: one rating harder", share=any_death))
    elif any_death:
        reasons.append(_("a PC dies in {share:.1%} of runs", share=any_death))
    for site in _hardest_checks(data["checks"]):
        failures = site["attempts"] - site["successes"]
        fields = dict(site=_site_name(site), scene=site["scene"], failures=failures, attempts=site["attempts"],
                      rate=site["successes"] / site["attempts"])
        if site["exact"] is None:
            reasons.append(_("{site} in `{scene}` fails in {failures:,} of {attempts:,} attempts: it succeeds "
                             "{rate:.0%} of the time", **fields))
        else:
            reasons.append(_("{site} in `{scene}` fails in {failures:,} of {attempts:,} attempts: it succeeds "
                             "{rate:.0%} of the time (on a fresh deck it succeeds {exact:.0%})",
                             exact=site["exact"], **fields))
    reasons += [_battle_reason(row) for row in _deadliest_battles(data["battles"])]
    reasons += _coverage_reasons(data["coverage"])
    ends = {scene: info["ended_here"] for scene, info in data["scenes"].items() if info["ended_here"]}
    if ends:
        scene = max(sorted(ends), key=ends.get)
        reasons.append(_("most parties end in the scene `{scene}` ({share:.0%} of runs)", scene=scene,
                         share=ends[scene] / runs))
    if data["stuck"]:
        reasons.append(ngettext("{count:,} run got stuck (see \"Stuck runs\" below)",
                                "{count:,} runs got stuck (see \"Stuck runs\" below)", data["stuck"]))
    errors = sum(row["runs"] for row in data["errors"])
    if errors:
        reasons.append(ngettext("{count:,} run stopped on a runtime error (see errors)",
                                "{count:,} runs stopped on a runtime error (see errors)", errors))
    rating = RATINGS[level]
    return {"rating": rating, "success_share": round(share, 6),
            "headline": _("{rating}: {what} in {share:.0%} of runs", rating=rating_word(rating).upper(), what=what,
                          share=share), "reasons": reasons}


def _coverage_reasons(rows: list[dict]) -> list[str]:
    """A warning for each battling deck whose cards the battle engine mostly cannot play."""
    from deckquest.engine.combat.battle import LOW_COVERAGE

    return [_("battles simulate only {score:.0%} of {name}'s deck: the battle figures are rough "
              "(see `deckquest cards coverage`)", score=row["score"], name=row["name"])
            for row in rows if row["score"] < LOW_COVERAGE]


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
    return _("the battle at line {line} in `{scene}` is lost in {share:.1%} of {battles:,} battles "
             "(every PC out at its end in {tpk:.1%})", line=row["line"], scene=row["scene"],
             share=row["shares"]["defeat"], battles=row["battles"], tpk=row["tpk_share"])


def _hardest_checks(checks: list[dict], count: int = 3) -> list[dict]:
    """The sites that fail most often in absolute numbers: what stops the most parties."""
    tried = [site for site in checks if site["attempts"] and site["attempts"] > site["successes"]]
    tried.sort(key=lambda site: (-(site["attempts"] - site["successes"]), site["line"]))
    return tried[:count]


# ---------------------------------------------------------------- the text page


def _pct(value: float | None) -> str:
    return "   -  " if value is None else f"{100 * value:5.1f}%"


def format_text(data: dict) -> str:
    lines = [_("{title}: {runs:,} runs, seed {seed}, agent {agent}", title=data["scenario"]["title"],
               runs=data["runs"], seed=data["seed"], agent=data["agent"])]
    if data["interrupted"]:
        lines.append(_("INTERRUPTED: {runs:,} of {requested:,} runs finished", runs=data["runs"],
                       requested=data["runs_requested"]))
    if "precision" in data:
        lines.append(precision_line(data))
    verdict = data["verdict"]
    if verdict is not None:
        lines += ["", _("Verdict: {headline}", headline=verdict["headline"])]
        lines += [f"  - {reason}" for reason in verdict["reasons"]]
    lines += ["", _("Endings                 runs   share   95% interval   rating")]
    for detail in data["ending_details"]:
        low, high = detail["interval"]
        lines.append(f"  {ljust(outcome_word(detail['outcome']), 18)} {detail['runs']:>7,} {_pct(detail['share'])}  "
                     f"{_pct(low)}-{_pct(high).strip():<7} {rating_word(detail['rating'])}")
        lines += [f"      {reason}" for reason in detail["reasons"]]
    if data["stuck"]:
        stuck = "(" + _("stuck") + ")"
        lines.append(f"  {ljust(stuck, 18)} {data['stuck']:>7,} {_pct(data['stuck'] / data['runs'])}")
    if not whole_game(data):
        lines += _adventure_text(data)
    if data["stuck_scenes"]:
        lines += ["", _("Stuck runs")]
    for scene, row in data["stuck_scenes"].items():
        lines.append("  " + _("in `{scene}`: {runs:,} runs ({reason}); replay: {command}", scene=scene, runs=row["runs"],
                              reason=row["reason"], command=row["command"]))
    for row in data["errors"]:
        lines.append(_("Runtime error in {runs:,} runs at line {line} (scene `{scene}`): {message}", runs=row["runs"],
                       line=row["line"], scene=row["scene"], message=row["message"]))
        lines.append("  " + _("replay: {command}", command=row["command"]))
    lines += _system_text(data)
    unreached = data["lines"]["unreached"]
    lines += ["", _("Lines no run reached: {lines}", lines=", ".join(unreached) if unreached else _("none"))]
    return "\n".join(lines) + "\n"


def _adventure_text(data: dict) -> list[str]:
    """MTG-TRPG's sections: scenes, checks, PCs, the clock, battles and their cards."""
    lines = ["", _("Scenes                  reached  share   ended here")]
    for scene_id, scene in data["scenes"].items():
        lines.append(f"  {scene_id:<20} {scene['reached']:>8,} {_pct(scene['share'])}  {scene['ended_here']:>8,}")
    lines += _checks_text(data["checks"])
    lines += ["", _("PCs           dying  unconscious    dead   life lost (mean p50 p90)   library at end   "
                    "exhaustion at end")]
    for pc_id, pc in data["pcs"].items():
        lines.append(
            f"  {pc_id:<10} {_pct(pc['dying_share'])} {_pct(pc['unconscious_share'])}      {_pct(pc['dead_share'])}   "
            f"{pc['life_lost']['mean']:6.1f} {pc['life_lost']['p50']:4.0f} {pc['life_lost']['p90']:4.0f}"
            f"            {pc['library_end']['mean']:6.1f}            {pc['exhaustion_end']['mean']:6.1f}")
    clock = data["clock"]
    lines += ["", _("Game clock at the end: mean {mean:.0f} min, median {p50:.0f}, 90% under {p90:.0f}, "
                    "longest {longest} min", mean=clock["mean"], p50=clock["p50"], p90=clock["p90"], longest=clock["max"])]
    lines += _battle_text(data["battles"])
    lines += _coverage_text(data["coverage"])
    return lines


def _checks_text(checks: list[dict]) -> list[str]:
    """The checks table; its columns are as wide as their longest entry (never cut mid-word)."""
    words = {"label": _("label"), "kind": _("kind"), "who": _("who")}
    label = max([width(words["label"])] + [width(site["label"]) for site in checks])
    kind = max([width(words["kind"])] + [width(check_kind_word(site["kind"])) for site in checks])
    who = max([width(words["who"])] + [width(who_word(site["who"])) for site in checks])
    lines = ["", _("Checks  line {label} {kind} difficulty {who} attempts  success [95% interval]   exact  exact+boost",
                   label=ljust(words["label"], label), kind=rjust(words["kind"], kind), who=ljust(words["who"], who))]
    for site in checks:
        interval = site["interval"] or [None, None]
        lines.append(
            f"        {site['line']:>4} {ljust(site['label'], label)} {rjust(check_kind_word(site['kind']), kind)} "
            f"{site['difficulty']:>10} {ljust(who_word(site['who']), who)} {site['attempts']:>8,}  {_pct(site['rate'])} "
            f"[{_pct(interval[0]).strip()}-{_pct(interval[1]).strip()}]  {_pct(site['exact'])}  {_pct(site['exact_boost'])}")
        if len(site["pcs"]) > 1:
            for pc_id, row in site["pcs"].items():
                rate = row["successes"] / row["attempts"]
                lines.append("             " + _("{pc}: {attempts:,} checks, {rate} (exact {exact})", pc=pc_id,
                                                   attempts=row["attempts"], rate=_pct(rate),
                                                   exact=_pct(row["exact"]).strip()))
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

    lines = ["", _("Cards in battles (deckquest cards coverage DECK lists each card's text)")]
    for row in rows:
        warning = "  " + _("LOW: battle figures leave much of this deck out") if row["score"] < LOW_COVERAGE else ""
        lines.append("  " + _("{name}: {cards} cards, {score:.0%} simulated", name=row["name"], cards=row["cards"],
                              score=row["score"]) + warning)
        for label, names in ((_("not simulated"), row["not_simulated"]), (_("partly"), row["partly"])):
            if names:
                lines.append(f"      {label}: {', '.join(names)}")
    return lines


def _battle_text(battles: list[dict]) -> list[str]:
    if not battles:
        return []
    shares = [", ".join(f"{outcome_word(k)} {100 * v:.1f}%" for k, v in row["shares"].items()) for row in battles]
    outcomes_word = _("outcomes")
    columns = max(width(outcomes_word), *(width(text) for text in shares))
    lines = ["", _("Battles (line)   battles   {outcomes}  every PC out  PCs out (mean)  turns (p50 p90)",
                   outcomes=ljust(outcomes_word, columns))]
    for row, outcomes in zip(battles, shares):
        lines.append(f"  {row['line']:>4}          {row['battles']:>8,}   {ljust(outcomes, columns)}  "
                     f"{_pct(row['tpk_share']):>12}  {row['pcs_out']['mean']:14.2f}  "
                     f"{row['turns']['p50']:.0f} {row['turns']['p90']:.0f}")
    lines.append("  " + _("(every PC out: no PC was still ok at the battle's end, whatever its outcome: a horde that "
                          "runs out of cards loses even to unconscious PCs, T-6.12)"))
    return lines
