"""The Isekai TCG "Mana Card" (../shared/rules/isekai-tcg.md, I-1 to I-19, readings I-R1 to
I-R8, seed seeds/002_bcf54f510b6a7297.txt): a duel of action rights between two duelists
with decks of the author's own cards. docs/isekai.md is the author's guide.

- ``cards``: the card model and its effect vocabulary; ``decks``: I-1 and I-2 as diagnostics;
- ``rules``: the readings as options; ``duel``: the engine (``deckquest.engine.game``'s shape);
- ``agents``: random, greedy and human duelists; ``language``: the script's part;
- ``report``: `deckquest sim`'s duel section; ``transcript``: events in words.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Hashable, Mapping, Sized

from deckquest.engine.game import GameState
from deckquest.i18n import _
from deckquest.systems import CodeRange, Data, Event, Fired, Handler, RunLike, register
from deckquest.systems.game_saves import GAME_SHAPE, GameDataError
from deckquest.systems.isekai import report
from deckquest.systems.isekai.adventure import DuelInProgress, duel, duel_step
from deckquest.systems.isekai.agents import GreedyAgent, HumanAgent, RandomAgent
from deckquest.systems.isekai.duel import DuelState, new_duel
from deckquest.systems.isekai.language import EVENTS, GRAMMAR, RESERVED, Builder, DuelStmt, IsekaiTable, resolve
from deckquest.systems.isekai.rules import READINGS, Rules
from deckquest.systems.isekai.saves import check_duel, check_progress
from deckquest.systems.isekai.transcript import render_event
from deckquest.systems.trpg import Trpg
from deckquest.systems.trpg import language as trpg_language

if TYPE_CHECKING:
    from deckquest.dsl.resolver import SystemContext
    from deckquest.dsl.scenario import Scenario

# engine events -> the script's trigger events, with the seat field they are about
TRIGGERS = {"damage": ("duelist_takes_damage", "seat"), "reversal": ("reversal_activated", "seat"),
            "destroy": ("unit_destroyed", "seat"), "duel end": ("duelist_wins", "winner")}
ATTRIBUTES = ("main", "mana", "hand", "skills", "field", "exiled")


class IsekaiBuilder(Builder, trpg_language.Builder):
    """An adventure's builder: the duel's methods and MTG-TRPG's."""


@register
class IsekaiSystem(Trpg):
    """The registered system: its readings (first value the default) and codes DQ4000-4999.

    An isekai-world adventure is an MTG-TRPG adventure whose scenes may also hold duels, so
    the system is MTG-TRPG's with more: its checks, battles and the PC actions between
    statements are inherited (docs/isekai.md, "Duels in an adventure")."""

    name = "isekai"
    title = 'Isekai TCG "Mana Card"'
    rules_document = "isekai-tcg.md"
    editions = ("2019",)  # type: ignore[assignment]  # its adventures check by the 2019 rules only (Trpg has both)
    readings = READINGS
    codes = CodeRange(4000, 4999)
    # an adventure's statements are MTG-TRPG's and the duel: both fragments, both builders
    grammar = trpg_language.GRAMMAR + GRAMMAR
    builder = IsekaiBuilder
    scenes_required = False
    subject = "duelist"
    subject_attributes = ATTRIBUTES
    events = EVENTS
    reserved_words = RESERVED
    agents = {"greedy": GreedyAgent, "random": RandomAgent, "human": HumanAgent}
    # language.md: "An MTG-TRPG adventure can hold an Isekai duel as an encounter, the way it
    # holds a battle": a `rules 2019` script with a duel is an isekai-world adventure.
    implied_by = r"^[ \t]+duel[ \t]+against\b"

    @classmethod
    def resolve(cls, context: SystemContext) -> IsekaiTable:
        return resolve(context, cls.agents)

    @classmethod
    def resolve_flow(cls, context: SystemContext) -> None:
        """No T-4.12 loop warning (DQ5001, MTG-TRPG's code): an adventure's duels are not checks."""

    @classmethod
    def statement_handlers(cls) -> Mapping[type, Handler]:
        """MTG-TRPG's handlers (the same for every system its statements are in) and the duel's."""
        return {**Trpg.statement_handlers(), DuelStmt: duel}

    @classmethod
    def battle_step(cls, run: RunLike) -> None:
        """The sub-game in progress: a duel of the adventure, else an MTG-TRPG battle."""
        if isinstance(run.state.battle, DuelInProgress):
            duel_step(run)
        else:
            super().battle_step(run)

    @classmethod
    def sub_game_data(cls, progress: object) -> Data:
        assert isinstance(progress, DuelInProgress)  # the runtime saves an MTG-TRPG battle itself
        return {"duel": progress.to_data()}

    @classmethod
    def load_sub_game(cls, scenario: Scenario, data: Data, game: GameState) -> DuelInProgress:
        """The adventure's duel in progress, checked against its duel (saves.check_progress)."""
        if not isinstance(data, dict) or list(data) != ["duel"]:
            raise GameDataError(GAME_SHAPE, (), _("a duel in progress is saved as `duel`"))
        try:
            check_progress(scenario, data["duel"], game)
        except GameDataError as error:
            raise error.under("duel") from None
        return DuelInProgress.from_data(data["duel"])

    @classmethod
    def new_game(cls, run: RunLike) -> DuelState | None:
        """The duel of a duel script; an adventure (a script with scenes) has none: its
        duels are statements."""
        if run.scenario.scenes:
            return None
        table: IsekaiTable = run.scenario.system_table
        return new_duel(table.duelists, table.cards, Rules.from_readings(run.scenario.readings))

    @classmethod
    def game_data(cls, game: GameState) -> Data:
        assert isinstance(game, DuelState)  # the game new_game dealt
        return game.to_data()

    @classmethod
    def load_game(cls, scenario: Scenario, data: Data) -> DuelState:
        """The saved duel, checked first (saves.check_duel): a save comes from anyone."""
        check_duel(scenario, data)
        table: IsekaiTable = scenario.system_table
        return DuelState.from_data(table.cards, data)

    @classmethod
    def subjects(cls, game: GameState) -> tuple[str, ...]:
        assert isinstance(game, DuelState)  # the game new_game dealt
        return tuple(game.seats)

    @classmethod
    def seats(cls, scenario: Scenario) -> dict[str, tuple[str, str | None]]:
        if scenario.scenes:
            return {}
        table: IsekaiTable = scenario.system_table
        return {duelist.id: (duelist.name, table.plays.get(duelist.id)) for duelist in table.duelists}

    @classmethod
    def triggers_for(cls, event: Event) -> list[Fired]:
        trigger = TRIGGERS.get(event["event"])
        if trigger is None or event.get(trigger[1]) is None:
            return []
        return [(trigger[0], event[trigger[1]], None)]

    @classmethod
    def outcome(cls, run: RunLike) -> tuple[str, str]:
        game: DuelState = run.state.game
        result = game.outcome() or {}
        if result["winner"] is None:
            return "draw", f"The duel is a draw: no damage for too long ({result['rights']} action rights)."
        return (f"{result['winner']} wins",
                f"{game.names[game.seat_index(result['winner'])]} wins the duel after {result['rights']} action rights.")

    @classmethod
    def subject_value(cls, run: RunLike, subject: str, attribute: str | None) -> str | int:
        game: DuelState = run.state.game
        if attribute is None:
            return game.names[game.seat_index(subject)]
        player = game.players[game.seat_index(subject)]
        if attribute == "exiled":
            return len(player.exile_main) + len(player.exile_skill) + len(player.exile_up)
        zones: dict[str, Sized] = {"main": player.main, "mana": player.mana, "hand": player.hand,
                                   "skills": player.skill, "field": player.field}
        return len(zones[attribute])

    @classmethod
    def record(cls, run: RunLike) -> report.Row | None:
        game: DuelState | None = run.state.game
        if game is None:  # an adventure that ended before any duel
            return None
        result = game.outcome() or {}
        tally = game.tally
        decks = tuple(zip(game.seats, game.decks))
        return (result.get("winner"), game.seats[game.first] if game.first >= 0 else None, game.rights,
                tally["interrupts"], tally["reversals"], tally["speed_locked"], tally["extra_attacks"],
                result.get("reason"), decks)

    @classmethod
    def report(cls, rows: Counter[Hashable], runs: int) -> Data | None:
        return report.section(rows, runs)

    @classmethod
    def report_text(cls, section: Data) -> list[str]:
        return report.text(section)

    @classmethod
    def report_html(cls, section: Data) -> str:
        return report.html(section)

    @classmethod
    def render(cls, event: Event, names: Mapping[str, str]) -> list[str] | None:
        if event["event"] not in report.OWN_EVENTS:
            return None
        line = render_event(event, names)
        return [] if line is None else [line]
