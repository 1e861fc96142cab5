"""``deckquest odds SCRIPT``: the exact fresh-deck odds of every PC at every check of a script.

A GM asks "can my party pass this?" of a whole adventure, not of one deck: for each check
site (a ``check`` or a ``recruit``, in script order) and each PC who may make it, the chance
that the check succeeds on a freshly shuffled library (T-4.2 to T-4.7; with boost, T-4.6, in
the 2019 rules; T-5.2 in the 2014 rules). The context of a run (cards used before the check,
support, earlier boosts) is what ``deckquest sim`` measures beside these odds.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckquest.engine.colors import check_kind_word, who_word
from deckquest.i18n import _, ljust, width
from deckquest.runtime.interpreter import Program
from deckquest.engine.odds import check_probability
from deckquest.sim.trace import ScriptMap, Site


@dataclass(frozen=True)
class PcOdds:
    pc: str
    name: str
    success: float
    with_boost: float | None  # 2019 rules only


@dataclass(frozen=True)
class SiteOdds:
    site: Site
    pcs: tuple[PcOdds, ...]

    def as_dict(self) -> dict:
        site = self.site
        return {"label": site.label, "line": site.line, "scene": site.scene, "kind": site.kind,
                "difficulty": site.difficulty, "who": site.who,
                "pcs": [{"pc": o.pc, "name": o.name, "success": o.success, "with_boost": o.with_boost}
                        for o in self.pcs]}


def script_odds(script, party=None) -> tuple[str, list[SiteOdds]]:
    """(rules edition, the odds of every check site of the script's main file)."""
    from deckquest.sim.batch import load

    scenario, members = load(script, party)
    program = Program(scenario, members)
    rules = program.rules
    script_map = ScriptMap(program)
    by_id = {member.id: member for member in program.party}
    sites = []
    for site in script_map.sites:
        if site.file != script_map.main_file:
            continue
        who = [by_id[site.who]] if site.who in by_id else list(program.party)
        sites.append(SiteOdds(site, tuple(_pc_odds(member, site, rules) for member in who)))
    return rules, sites


def _pc_odds(member, site: Site, rules: str) -> PcOdds:
    success = check_probability(member.cards, member.critical_cards, site.kind, site.difficulty, rules)
    boosted = (check_probability(member.cards, member.critical_cards, site.kind, site.difficulty, rules,
                                 boost=True) if rules == "2019" else None)
    return PcOdds(member.id, member.name, float(success), None if boosted is None else float(boosted))


def format_script_odds(rules: str, sites: list[SiteOdds]) -> str:
    """The text of ``deckquest odds SCRIPT``: a block per check site, a line per PC."""
    if not sites:
        return _("the script has no check") + "\n"
    level = _("difficulty") if rules == "2019" else _("target number")
    lines = [_("exact chance of success on a fresh library, {rules} rules (with boost: T-4.6, when the check would "
               "fail)", rules=rules) if rules == "2019"
             else _("exact chance of success on a fresh library, {rules} rules", rules=rules)]
    for entry in sites:
        site = entry.site
        lines += ["", _("\"{label}\" (line {line}, scene {scene}): {kind} {level} {difficulty}, by {who}",
                        label=site.label, line=site.line, scene=site.scene, kind=check_kind_word(site.kind),
                        level=level, difficulty=site.difficulty, who=who_word(site.who))]
        columns = max(width(o.name) for o in entry.pcs)
        for odds in entry.pcs:
            boost = ("   " + _("with boost {rate:5.1f}%", rate=100 * odds.with_boost)
                     if odds.with_boost is not None else "")
            lines.append(f"    {ljust(odds.name, columns)}  {100 * odds.success:5.1f}%{boost}")
    return "\n".join(lines) + "\n"
