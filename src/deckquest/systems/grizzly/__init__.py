"""Grizzly Bears' Adventure (../shared/rules/grizzly-bears.md, G-1 to G-27): the system.

Each player is a Grizzly Bears walking a loop of face-down Magic cards, flipping them,
fighting what it flips, and collecting Treasures. ``GrizzlyConfig`` sets a game up,
``GrizzlyState.new`` starts one (``deckquest.engine.game``'s one shape), ``agents`` answer
its decisions; ``language`` is its part of the scenario language, ``report`` its balance
report sections. docs/grizzly.md is the host's guide.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Hashable, Mapping

from deckquest.engine.game import Agent, GameState, SeatIO
from deckquest.systems import CodeRange, Data, Event, Fired, GameSystem, RunLike, register
from deckquest.systems.grizzly import report, saves, transcript
from deckquest.systems.grizzly.agents import AGENTS, PolicyAgent
from deckquest.systems.grizzly.cards import CardTable, coverage_line
from deckquest.systems.grizzly.config import OPTION_LIST, READING_LIST, GrizzlyConfig, PolicyRule, Seat
from deckquest.systems.grizzly.language import EVENTS, GRAMMAR, RESERVED, TRIGGERS, Builder, GrizzlyTable, resolve
from deckquest.systems.grizzly.state import GrizzlyState

if TYPE_CHECKING:
    from deckquest.dsl.resolver import SystemContext
    from deckquest.dsl.scenario import Scenario

__all__ = ["Grizzly", "GrizzlyConfig", "GrizzlyState", "PolicyRule", "Seat", "config_of"]

#: A run's row (``Grizzly.record``): its seats, (id, name) in turn order, and the library's
#: coverage line, then the game's figures (``report.row``).
Row = tuple[tuple[tuple[tuple[str, str], ...], str], *report.GameRow]

_CONFIGS: dict[int, tuple[GrizzlyTable, GrizzlyConfig, CardTable]] = {}
_COVERAGE: dict[int, tuple[GrizzlyTable, str]] = {}


def config_of(scenario: Scenario, options: frozenset[str] | None = None,
              readings: Mapping[str, str] | None = None) -> tuple[GrizzlyConfig, CardTable]:
    """The game set-up a compiled script describes (its ``system_table``, options and
    readings; ``options``/``readings`` replace the script's, for ``compare``), with its card
    table; worked out once per scenario and set."""
    table: GrizzlyTable = scenario.system_table
    options = scenario.options if options is None else options
    readings = dict(scenario.readings if readings is None else readings)
    key = hash((id(table), options, tuple(sorted(readings.items()))))
    known = _CONFIGS.get(key)
    if known is not None and known[0] is table:
        return known[1], known[2]
    config = GrizzlyConfig(
        seats=tuple(Seat(seat, name, agent, policy) for seat, name, agent, policy in table.seats),
        library=table.library, treasures_to_win=table.treasures_to_win,
        squares_per_player=table.squares_per_player, options=frozenset(options), readings=readings,
        expert=table.expert, turn_limit=table.turn_limit)
    cards = CardTable(config.library)
    _CONFIGS[key] = (table, config, cards)
    return config, cards


def library_coverage(scenario: Scenario) -> str:
    """The library's coverage line (docs/grizzly.md, "Card coverage"), once per scenario."""
    table: GrizzlyTable = scenario.system_table
    known = _COVERAGE.get(id(table))
    if known is None or known[0] is not table:
        known = (table, coverage_line(table.library, Path(table.library_path).name))
        _COVERAGE[id(table)] = known
    return known[1]


@register
class Grizzly(GameSystem):
    name = "grizzly"
    title = "Grizzly Bears' Adventure (Forgotten Realms edition)"
    rules_document = "grizzly-bears.md"
    editions = ("1.0",)
    codes = CodeRange(2000, 2999)
    options = OPTION_LIST
    readings = READING_LIST
    grammar = GRAMMAR
    builder = Builder
    scenes_required = False
    subject = "seat"
    subject_attributes = ("treasures", "counters", "square", "hand")
    events = EVENTS
    reserved_words = RESERVED
    agents = AGENTS
    human_agents = frozenset({"human"})

    @classmethod
    def resolve(cls, context: SystemContext) -> GrizzlyTable:
        return resolve(context, cls.agents)

    @classmethod
    def new_game(cls, run: RunLike) -> GrizzlyState:
        """The deal (G-3) and the first turn's start; their events are published through the
        run (no trigger event can happen before the first decision)."""
        config, cards = config_of(run.scenario)
        events: list[Event] = []
        game = GrizzlyState.new(config, run.rng, events, table=cards)
        run.game_events(events)
        return game

    @classmethod
    def game_data(cls, game: GameState) -> Data:
        assert isinstance(game, GrizzlyState)
        return saves.game_data(game)

    @classmethod
    def load_game(cls, scenario: Scenario, data: Data) -> GrizzlyState:
        config, cards = config_of(scenario)
        return saves.load_game(config, cards, data)

    @classmethod
    def subjects(cls, game: GameState) -> tuple[str, ...]:
        assert isinstance(game, GrizzlyState)
        return game.seat_ids

    @classmethod
    def seats(cls, scenario: Scenario) -> dict[str, tuple[str, str | None]]:
        table: GrizzlyTable = scenario.system_table
        return {seat: (name, agent) for seat, name, agent, _ in table.seats}

    @classmethod
    def seat_agent(cls, name: str, rng: random.Random, io: SeatIO | None = None) -> Agent:
        """The seat's agent behind the seat's policy rules (they take precedence)."""
        return PolicyAgent(None, super().seat_agent(name, rng, io))

    @classmethod
    def triggers_for(cls, event: Event) -> list[Fired]:
        kind = TRIGGERS.get(event["event"])
        return [(kind, event["seat"], None)] if kind else []

    @classmethod
    def outcome(cls, run: RunLike) -> tuple[str, str]:
        game: GrizzlyState = run.state.game
        result = game.outcome()
        assert result is not None  # the run asks once the game is over
        names = {seat: name for seat, (name, _) in cls.seats(run.scenario).items()}
        if result["winner"] is not None:
            winner = result["winner"]
            return (f"{winner} wins", f"{names[winner]} wins with {result['treasures'][winner]} Treasures "
                                      f"in round {result['round']}.")
        reason = report.STOP_REASONS.get(result["reason"], result["reason"])
        return result["reason"], f"{reason[0].upper()}{reason[1:]} (round {result['round']})."

    @classmethod
    def subject_value(cls, run: RunLike, subject: str, attribute: str | None) -> str | int:
        game: GrizzlyState = run.state.game
        if attribute is None:
            return cls.seats(run.scenario)[subject][0]
        seat = game.seat_index(subject)
        if attribute == "treasures":
            return game.treasures[seat]
        if attribute == "counters":
            return game.counters[seat]
        if attribute == "hand":
            return len(game.hands[seat])
        return game.square_of(seat)

    @classmethod
    def record(cls, run: RunLike) -> Row | None:
        game: GrizzlyState | None = run.state.game
        result = game.outcome() if game is not None else None
        if result is None:
            return None
        seats = tuple((seat, name) for seat, (name, _) in cls.seats(run.scenario).items())
        return ((seats, library_coverage(run.scenario)),) + report.row(result)

    @classmethod
    def report(cls, rows: Counter[Hashable], runs: int) -> Data | None:
        if not rows:
            return None
        seats, coverage = _row(next(iter(rows)))[0]
        section = report.aggregate(Counter({_row(row)[1:]: count for row, count in rows.items()}), seats)
        return {**section, "coverage": coverage}

    @classmethod
    def compare_figures(cls, row: Hashable) -> list[tuple[str, str, float]] | None:
        ours = _row(row)
        return report.compare_figures(ours[0][0], ours[1:])

    @classmethod
    def verdict(cls, section: Data) -> Data | None:
        return report.verdict(section)

    @classmethod
    def report_text(cls, section: Data) -> list[str]:
        return ["Grizzly Bears' Adventure", f"Library: {section['coverage']}"] + \
            report.format_text(section).rstrip("\n").splitlines()

    @classmethod
    def report_html(cls, section: Data) -> str:
        return report.format_html(section)

    @classmethod
    def render(cls, event: Event, names: Mapping[str, str]) -> list[str] | None:
        line = transcript.render(event, names)
        return None if line is None else [line]


def _row(row: Hashable) -> Row:
    """A row the batch counted: one ``Grizzly.record`` made."""
    assert isinstance(row, tuple)  # sim counts the rows of the script's own system only
    return row
