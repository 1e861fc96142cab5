"""``deckquest tune``: the difficulty of one check that brings its success rate, in context
and by simulation, closest to a target.

Every difficulty is tried with the same seeds (common random numbers), so neighbouring
difficulties differ by the difficulty alone, not by the luck of their runs. The in-context
rate falls as the difficulty rises, so a bisection finds the first difficulty at or below
the target; it and the one before it are the candidates, and the closer one wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckquest.engine.colors import check_kind_word, who_word
from deckquest.i18n import _, current, language, language_for
from deckquest.errors import DeckquestError, UsageError, did_you_mean
from deckquest.signals import interruption
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, Program
from deckquest.sim.stats import wilson_interval
from deckquest.sim.trace import ScriptMap, Site

MAX_DIFFICULTY = 20  # T-4.1: usually 0-8; critical cards make 20 still possible


@dataclass(frozen=True)
class Trial:
    difficulty: int
    attempts: int
    successes: int

    @property
    def rate(self) -> float:
        return self.successes / self.attempts

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.attempts)


@dataclass(frozen=True)
class TuneResult:
    site: Site
    target: float
    best: Trial
    original: Trial | None
    trials: tuple[Trial, ...]  # every difficulty tried, by difficulty

    easiest: Trial | None = None  # difficulty 0 and MAX_DIFFICULTY, tried when the target is missed
    hardest: Trial | None = None
    language: str = "en"  # of the text: the script's `language`, or --lang

    @property
    def reached(self) -> bool:
        """Whether the best difficulty's 95% interval holds the target."""
        low, high = self.best.interval
        return low <= self.target <= high

    def unreachable(self) -> str | None:
        """Why no difficulty gives the target, or None when the best one does."""
        if self.reached:
            return None
        if self.easiest is not None and self.easiest.interval[1] < self.target:
            return _("the target cannot be reached: even at difficulty 0 the check succeeds only {rate:.1%} of the "
                     "time in context (the PCs' state when they reach it)", rate=self.easiest.rate)
        if self.hardest is not None and self.hardest.interval[0] > self.target:
            return _("the target cannot be reached: even at difficulty {difficulty} the check succeeds {rate:.1%} of "
                     "the time (critical cards always succeed, T-4.7)", difficulty=MAX_DIFFICULTY, rate=self.hardest.rate)
        best = self.best
        around = [t for t in self.trials if abs(t.difficulty - best.difficulty) <= 1]
        return _("no difficulty gives {target:.0%}: {tried}; difficulty {best} is the closest", target=self.target,
                 tried=", ".join(_("difficulty {difficulty} gives {rate:.1%}", difficulty=t.difficulty, rate=t.rate)
                                 for t in around), best=best.difficulty)

    def text(self) -> str:
        with language(self.language):
            return self._text()

    def _text(self) -> str:
        low, high = self.best.interval
        lines = [_("\"{label}\" (line {line}, {kind}, by {who}): target {target:.0%}", label=self.site.label,
                   line=self.site.line, kind=check_kind_word(self.site.kind), who=who_word(self.site.who),
                   target=self.target),
                 _("difficulty {difficulty}: success {rate:.1%} (95% interval {low:.1%}-{high:.1%}, {attempts:,} "
                   "attempts)", difficulty=self.best.difficulty, rate=self.best.rate, low=low, high=high,
                   attempts=self.best.attempts)]
        reason = self.unreachable()
        if reason:
            lines.append(reason)
        if self.original is not None and self.original.difficulty != self.best.difficulty:
            lines.append(_("now difficulty {difficulty}: success {rate:.1%}", difficulty=self.original.difficulty,
                           rate=self.original.rate))
        lines.append(_("tried: {trials}", trials=", ".join(f"{t.difficulty}: {t.rate:.1%}" for t in self.trials)))
        return "\n".join(lines) + "\n"


def parse_target(text: str) -> float:
    """``60%``, ``60`` or ``0.6`` -> 0.6."""
    cleaned = text.strip().rstrip("%").strip()
    try:
        value = float(cleaned)
    except ValueError:
        raise UsageError(_("--target takes a rate like 60% or 0.6, not `{text}`", text=text)) from None
    if text.strip().endswith("%") or value > 1:
        value /= 100
    if not 0 <= value <= 1:
        raise UsageError(_("--target must be between 0% and 100%, not `{text}`", text=text))
    return value


def find_site(script_map: ScriptMap, wanted: str) -> Site:
    """The check site named by its label (case-insensitive) or its line number."""
    sites = [s for s in script_map.sites if s.file == script_map.main_file]
    if wanted.strip().isdigit():
        matches = [s for s in sites if s.line == int(wanted)]
    else:
        matches = [s for s in sites if s.label.lower() == wanted.strip().lower()]
    labels = sorted({s.label for s in sites})
    if not matches:
        hint = did_you_mean(wanted, labels) or (_("checks: {names}", names=", ".join(f'"{label}"' for label in labels))
                                                if labels else _("the script has no check"))
        raise DeckquestError(_("no check `{wanted}` in the script", wanted=wanted), hint=hint)
    if len(matches) > 1:
        lines = ", ".join(str(s.line) for s in matches)
        raise DeckquestError(_("{matches} checks are labelled `{wanted}` (lines {lines})", matches=len(matches), wanted=wanted, lines=lines),
                             hint=_("name one by its line: --check LINE"))
    return matches[0]


def tune(script, check: str, target: float, *, runs: int = 2_000, seed: int = 0, jobs: int | None = None,
         party=None, agent: str = "best", max_steps: int = DEFAULT_MAX_STEPS) -> TuneResult:
    """Try difficulties of the check ``check`` (label or line) until the closest to ``target``."""
    from deckquest.sim.batch import load

    scenario, members = load(script, party)
    with language(language_for(scenario.language)):
        return _tune(scenario, members, check, target, runs=runs, seed=seed, jobs=jobs, agent=agent,
                     max_steps=max_steps)


def _tune(scenario, members, check: str, target: float, *, runs: int, seed: int, jobs: int | None, agent: str,
          max_steps: int) -> TuneResult:
    from deckquest.sim.batch import simulate

    site = find_site(ScriptMap(Program(scenario, members)), check)
    trials: dict[int, Trial] = {}

    def trial(difficulty: int) -> Trial:
        if difficulty not in trials:
            report = simulate(scenario, runs, seed, jobs, party=members, agent=agent,
                              max_steps=max_steps, overrides=[(site.line, difficulty)])
            if report.interrupted:  # a partial trial would mislead the search: stop it as a whole
                raise interruption(report.stopped_by)
            row = report.data["checks"][site.number]
            if not row["attempts"]:
                raise DeckquestError(_("no run reached \"{label}\" (line {line}) with difficulty {difficulty}", label=site.label, line=site.line, difficulty=difficulty), hint=_("try more runs (-n) or another agent"))
            trials[difficulty] = Trial(difficulty, row["attempts"], row["successes"])
        return trials[difficulty]

    low, high = 0, MAX_DIFFICULTY
    while low < high:  # the first difficulty whose rate is at or below the target
        middle = (low + high) // 2
        if trial(middle).rate <= target:
            high = middle
        else:
            low = middle + 1
    candidates = [trial(d) for d in (low - 1, low) if 0 <= d]
    best = min(candidates, key=lambda t: (abs(t.rate - target), t.difficulty))
    original = trial(site.difficulty) if site.difficulty <= MAX_DIFFICULTY else None
    low_rate, high_rate = best.interval
    missed = not low_rate <= target <= high_rate
    bounds = (trial(0), trial(MAX_DIFFICULTY)) if missed else (None, None)
    for neighbour in (best.difficulty - 1, best.difficulty + 1):
        if missed and 0 <= neighbour <= MAX_DIFFICULTY:
            trial(neighbour)
    return TuneResult(site, target, best, original, tuple(trials[d] for d in sorted(trials)), *bounds,
                      language=current())
