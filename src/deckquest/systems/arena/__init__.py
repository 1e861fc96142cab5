"""Arena of the Planeswalkers (``system arena``): hex battlefields, armies and dice combat.

The rules are ``../shared/rules/arena-board.md`` (A-1 to A-24) from the seed
``003_f24437f5eb1b8ebf.txt``; every open point (A-R1 to A-R7) is a reading here, its first
value the default. docs/arena.md is the player's guide. The package: ``hexes`` and
``battlefield`` (the map), ``cards`` (army and spell cards), ``rules`` (readings and numbers),
``state``/``movement``/``sight``/``effects`` (the engine), ``combat`` (exact dice), ``agents``,
``render``/``transcript`` (text), ``language``/``resolve`` (the scenario language), ``report``
(``deckquest sim``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Hashable, Mapping

from deckquest.systems import CodeRange, GameSystem, Reading, register
from deckquest.systems.arena import report as reports
from deckquest.systems.arena.agents import GreedyAgent, HumanAgent, RandomAgent
from deckquest.systems.arena.language import EVENTS, GRAMMAR, RESERVED, Builder
from deckquest.systems.arena.resolve import resolve
from deckquest.systems.arena.transcript import event_lines

SEED = "seeds/003_f24437f5eb1b8ebf.txt"
TRIGGERS = {"figure destroyed": "figure_destroyed", "glyph taken": "glyph_taken"}


@register
class ArenaSystem(GameSystem):
    name = "arena"
    title = "Arena of the Planeswalkers"
    rules_document = "arena-board.md"
    codes = CodeRange(3000, 3999)
    readings = (
        Reading("summon", ("two", "three", "six"), "A-R1", f"{SEED}:126",
                "figures a planeswalker summons per activation (A-6): the blog's house reading two; videos show three or six"),
        Reading("engagement", ("level", "heroscape"), "A-R2", f"{SEED}:91",
                "engaged means adjacent at the same level (the seed), or adjacent and neither standing on top "
                "of the other's height (Heroscape)"),
        Reading("attacks", ("engaged", "free"), "A-R3", f"{SEED}:91",
                "an engaged figure attacks only figures it is engaged with, without needing sight (A-22, "
                "Heroscape), or any figure in range and sight"),
        Reading("limit", ("rounds", "turns"), "A-R4", f"{SEED}:160",
                "the turn limit (A-24) counts rounds (every player's five phases once) or player turns"),
        Reading("enemies", ("block", "pass"), "A-R5", f"{SEED}:103",
                "enemy figures block movement (only friends may be passed, A-16), or figures may pass enemies"),
        Reading("sight", ("hexline", "flat"), "A-R6", f"{SEED}:25",
                "line of sight: a hex line with levels and figure heights, or only walls block"),
        Reading("dice", ("heroscape", "even"), "A-R7", f"{SEED}:47",
                "combat die faces: 3 swords, 2 shields, 1 blank (Heroscape), or 2 of each"),
    )
    grammar = GRAMMAR
    builder = Builder
    scenes_required = False
    subject = "figure"
    subject_attributes = ("damage", "life", "seat", "army", "card", "glyph")
    events = EVENTS
    reserved_words = RESERVED
    agents = {"greedy": GreedyAgent, "random": RandomAgent, "human": HumanAgent}

    @classmethod
    def resolve(cls, context: Any) -> Any:
        return resolve(context, cls.agents)

    @classmethod
    def new_game(cls, run: Any) -> Any:
        return run.scenario.system_table.game.new_state()

    @classmethod
    def seats(cls, scenario: Any) -> dict[str, tuple[str, str | None]]:
        table = scenario.system_table
        return {army.seat: (army.name, table.plays.get(army.seat)) for army in table.armies}

    @classmethod
    def triggers_for(cls, event: dict) -> list[tuple[str, str | None, int | None]]:
        kind = event["event"]
        if kind in TRIGGERS:
            return [(TRIGGERS[kind], event["figure"], None)]
        if kind == "round start":
            return [("round", None, event["round"])]
        return []

    @classmethod
    def outcome(cls, run: Any) -> tuple[str, str]:
        result = run.state.game.outcome() or {}
        winner = result.get("winner")
        if winner is None:
            return "draw", f"A draw at the turn limit, round {result.get('round')}."
        name = cls.seats(run.scenario)[winner][0]
        how = {"planeswalker": "the enemy planeswalker is destroyed", "turn limit": "on score at the turn limit",
               "score": "on score"}.get(result.get("reason", ""), str(result.get("reason")))
        return f"{winner} wins", f"{name} wins: {how} (round {result.get('round')})."

    @classmethod
    def subject_value(cls, run: Any, subject: str, attribute: str | None) -> Any:
        state = run.state.game
        figure = state.figures[subject]
        if attribute is None:
            return figure.name
        if attribute in ("damage", "seat"):
            return getattr(figure, attribute)
        if attribute == "life":
            return figure.card.life
        if attribute == "card":
            return figure.card.name
        if attribute == "army":
            return state.game.army[figure.seat].name
        glyph = next((state.game.glyph_hexes[h].name for h in figure.hexes if h in state.game.glyph_hexes), "")
        return glyph

    @classmethod
    def record(cls, run: Any) -> Hashable:
        return reports.record(run.state.game, reports.facts(run.scenario.system_table))

    @classmethod
    def report(cls, rows: Counter, runs: int) -> dict | None:
        return reports.report(rows, runs)

    @classmethod
    def report_text(cls, section: dict) -> list[str]:
        return reports.report_text(section)

    @classmethod
    def report_html(cls, section: dict) -> str:
        return reports.report_html(section)

    @classmethod
    def render(cls, event: dict, names: Mapping[str, str]) -> list[str] | None:
        try:
            return event_lines(event, dict(names))
        except KeyError:  # a core event that shares a name with one of Arena's
            return None
