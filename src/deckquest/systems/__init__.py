"""Game systems: each game played with Magic cards is a package here that registers itself.

A system is small beside the core, the way a python-chess variant is a small class over one
board: it names itself, its editions, its ☆ options and the readings of its rules (each a
named scenario option, the first reading the default), its range of diagnostic codes, and the
hooks the core calls: its part of the scenario language, its resolver checks, its statement
and trigger handlers, its engine (``deckquest.engine.game``'s one shape), its agents and its
report sections. docs/development.md, "Adding a game system", walks through one.

Layers: ``runtime -> systems -> engine, dsl``. The dsl never imports a system: ``register``
hands a system's part of the language down to it (``deckquest.dsl.language.LANGUAGES``).
The runtime calls the runtime hooks with its ``Run`` (``deckquest.runtime.interpreter``):
a system reads and changes the run through that object's public methods, never by
importing the runtime.

The hooks, grouped by who calls them (each has a default that adds nothing):

* the parser and resolver (``deckquest.dsl.language``): ``grammar``, ``builder``,
  ``scenes_required``, ``subject``, ``subject_attributes``, ``events``,
  ``reserved_words``, ``resolve(context)``;
* the run: ``statement_handlers()`` (statement class -> ``handler(run, stmt, frame)``),
  ``new_game(run)`` for a whole-game system (a ``deckquest.engine.game.GameState`` the run
  plays with its seats' agents; ``game_data`` and ``load_game`` save and resume it),
  ``triggers_for(event)`` (the script's trigger events an
  engine event fires), ``outcome(run)``, ``subject_value(run, subject, attribute)``,
  ``seats(scenario)`` (the seats, with the agent names the script gives them), ``agents``,
  ``seat_agent(name, rng, io)`` (a ``human_agents`` agent gets the run's ``SeatIO``),
  ``subjects(game)`` (what its triggers bind: a saved trigger frame may name one);
* ``sim``: ``record(run)`` (one hashable row per run), ``report(rows, runs)`` (the JSON
  section), ``verdict(section)`` (a whole game's verdict, none by default),
  ``compare_figures(row)`` (one run's figures for ``sim --compare``),
  ``report_text(section)`` and ``report_html(section)``;
* transcripts: ``render(event, names)``: lines for the system's own events.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections import Counter
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable, Mapping

from deckquest.i18n import _
from deckquest.dsl import language as dsl_language
from deckquest.engine.game import Agent, GameState, SeatIO
from deckquest.errors import DeckquestError

#: A script trigger an engine event fires: (trigger kind, subject, number) (``triggers_for``).
Fired = tuple[str, str | None, int | None]
#: The run the runtime hooks receive (``deckquest.runtime.interpreter.Run``). A system may not
#: import the runtime (docs/development.md, "Layers"), so the run has no type mypy can check yet.
RunLike = Any
#: One event of a game or a run: a JSON object whose "event" names its kind
#: (``deckquest.engine.game.EventLog``), its other values plain JSON data.
Event = dict[str, Any]
#: A JSON object a system writes for the core to store or print: a save's game or sub-game
#: (``game_data``), a section of the sim report (``report``) or a verdict.
Data = dict[str, Any]
#: ``handler(run, statement, frame)`` for one of the system's statement classes
#: (``statement_handlers``): the statement is of the class it is registered for, the frame
#: the runtime's (``deckquest.runtime.interpreter.Frame``).
Handler = Callable[[RunLike, Any, Any], None]

if TYPE_CHECKING:
    from deckquest.dsl.ast import Event as ScriptEvent
    from deckquest.dsl.flow import Flow
    from deckquest.dsl.parser import AstBuilder
    from deckquest.dsl.resolver import SystemContext
    from deckquest.dsl.scenario import Scenario

    class CoreBuilder(AstBuilder):
        """The base of a system's ``builder`` class. Its methods are merged into a subclass of
        the core's transformer (``deckquest.dsl.parser.builder_class``), so their ``self`` is
        an ``AstBuilder``, whose helpers (``_span``, ``_int``, ``_event`` ...) they call: that
        is what mypy checks them against. At run time it is ``object``: the builder class adds
        only its own methods, and is never made (``()`` is ``object``'s constructor)."""

        def __init__(self) -> None: ...
else:
    CoreBuilder = object


@dataclass(frozen=True)
class Option:
    """A ☆ rule a script switches on with ``option NAME`` (off by default)."""

    name: str
    rule: str  # the rule ID, e.g. "G-16"
    source: str  # where the seed says it, e.g. "seeds/004_5e53e28202cc3da8.txt:88"
    description: str


@dataclass(frozen=True)
class Reading:
    """An open point of the source and the ways to read it: ``reading NAME VALUE``.

    ``values[0]`` is the default (the digest's first reading)."""

    name: str
    values: tuple[str, ...]
    rule: str  # e.g. "G-R1"
    source: str
    description: str

    @property
    def default(self) -> str:
        return self.values[0]


@dataclass(frozen=True)
class CodeRange:
    """The diagnostic codes a system owns: ``DQ{first}`` to ``DQ{last}``."""

    first: int
    last: int

    def __contains__(self, code: str) -> bool:
        return code.startswith("DQ") and self.first <= int(code[2:]) <= self.last


class GameSystem:
    """The base of every game system; a system overrides the class attributes and hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    rules_document: ClassVar[str] = ""  # the digest in ../shared/rules/
    editions: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    readings: ClassVar[tuple[Reading, ...]] = ()
    codes: ClassVar[CodeRange] = CodeRange(0, -1)

    # -- the language (read by deckquest.dsl, see deckquest.dsl.language)
    grammar: ClassVar[str] = ""  # a Lark fragment: rules and `%extend item|stmt|event|header_entry: ...`
    builder: ClassVar[type | None] = None  # builder methods, one per rule of the fragment
    scenes_required: ClassVar[bool] = True  # False: a whole-game system needs no start scene
    subject: ClassVar[str | None] = None  # the word its triggers bind: `racer`, `seat`
    subject_attributes: ClassVar[tuple[str, ...]] = ()  # `racer.position` ...
    events: ClassVar[Mapping[str, bool]] = {}  # its trigger event kinds -> binds the subject
    reserved_words: ClassVar[frozenset[str]] = frozenset()  # its keywords: no name may be one
    # A pattern (re.MULTILINE) of this system's statements that an MTG-TRPG script without a
    # `system` line may hold: such a script is read as this system's (its grammar included).
    implied_by: ClassVar[str | None] = None
    agents: ClassVar[Mapping[str, Callable[..., Agent]]] = {}  # its seat agents by name
    # The agents that play for a person: made with the run's terminal, ``agents[name](ask, say)``
    # (SeatIO's callables); they stop the run with ``deckquest.engine.game.StopRun``.
    human_agents: ClassVar[frozenset[str]] = frozenset()
    # What agents may do between statements (MTG-TRPG: concentrate, play_land, cast, rest),
    # each ``action(run, actor, card)``: the run applies the action an agent names.
    pc_actions: ClassVar[Mapping[str, Callable[[Any, str, Any], None]]] = {}

    @classmethod
    def reading(cls, name: str) -> Reading:
        return next(r for r in cls.readings if r.name == name)

    @classmethod
    def default_readings(cls) -> dict[str, str]:
        return {r.name: r.default for r in cls.readings}

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(o.name for o in cls.options)

    @classmethod
    def reading_values(cls) -> dict[str, tuple[str, ...]]:
        return {r.name: r.values for r in cls.readings}

    @classmethod
    def resolve(cls, context: "SystemContext") -> Any:
        """Check the system's declarations and statements; the table returned is stored on
        the compiled scenario as ``system_table`` (the AST is never changed)."""
        return None

    @classmethod
    def resolve_declarations(cls, context: "SystemContext") -> None:
        """Check the declarations the core declares for the system (MTG-TRPG's ``pc``, NPCs
        and ``card``), once every name is declared and before the walk over the scenes,
        filling the compiled program's tables (``context.pcs``, ``npcs``, ``cards``,
        ``decks``); for a ``use``d script too (``context.library``). By default none."""

    @classmethod
    def resolve_event(cls, walk: "Flow", event: "ScriptEvent") -> "ScriptEvent":
        """A trigger's event, resolved where the core's walk meets the trigger (``walk``: a
        ``deckquest.dsl.flow.Flow``); by default as written."""
        return event

    @classmethod
    def event_binds(cls, kind: str) -> tuple[bool, bool]:
        """Whether a trigger on this event binds ``pc`` (the PC the event is about) and
        ``degree`` (a check's); by default neither (a system's subject is ``events``)."""
        return False, False

    @classmethod
    def statement_resolvers(cls) -> Mapping[type, Callable[..., Any]]:
        """Node class -> ``resolver(walk, statement, scope)``: resolves one of the system's
        statements where the core's walk meets it (``deckquest.dsl.flow.Flow``: ``error``,
        ``npc``, ``pc``, ``block``, ``rules``) and returns its resolved copy. By default
        none: the statements go to ``resolve`` (their blocks resolved by ``with_blocks``)."""
        return {}

    @classmethod
    def resolve_flow(cls, context: "SystemContext") -> None:
        """Checks over the whole walked flow (``context.scenes``, ``triggers``, ``gotos``),
        before the core's warnings about unused names; by default none."""

    # -- the run (called by deckquest.runtime.interpreter with its Run)
    @classmethod
    def statement_handlers(cls) -> Mapping[type, Handler]:
        """Statement class -> ``handler(run, stmt, frame)`` for the system's statements."""
        return {}

    @classmethod
    def new_game(cls, run: RunLike) -> GameState | None:
        """A whole-game system's game, dealt from ``run.rng``; None for a scene-based one."""
        return None

    @classmethod
    def game_data(cls, game: GameState) -> Data:
        """A whole game as plain JSON data for a save (``runtime/saves.py``)."""
        raise DeckquestError(_("a run of a `{name}` game cannot be saved yet", name=cls.name),
                             hint=_("play it to its end without --save"))

    @classmethod
    def load_game(cls, scenario: "Scenario", data: Data) -> GameState:
        """The game a save holds (``game_data``'s inverse). A save comes from anyone: check
        the data against the game's state schema and everything it names before playing it
        (``deckquest.systems.game_saves``: a ``GameDataError`` names the field at fault)."""
        raise DeckquestError(_("a `{name}` game cannot be resumed from a save", name=cls.name))

    @classmethod
    def legal_pc_actions(cls, run: RunLike) -> list[tuple[str, str, Any]]:
        """The PC actions (``pc_actions``) legal now, each ``(actor, action, card)``: the
        actions of the run's "pc_action" decision, before its "done"."""
        return []

    @classmethod
    def allows_pc_action(cls, run: RunLike, action: Any) -> bool:
        """Whether ``action``, ``(actor, action, card)``, is legal now: what ``Run.apply``
        checks an agent's answer against, without listing every legal one."""
        return False

    @classmethod
    def battle_step(cls, run: RunLike) -> None:
        """Answer the next decision of the sub-game in progress (``run.state.battle``: MTG-TRPG's
        battle) and apply it; a system whose statements start none never gets this call."""
        raise NotImplementedError(f"{cls.name} has no sub-game to step")

    @classmethod
    def sub_game_data(cls, progress: object) -> Data:
        """A sub-game in progress other than MTG-TRPG's battle (which ``runtime/saves.py``
        writes itself) as plain data, for a save made mid-way (an Isekai adventure's duel)."""
        raise DeckquestError(_("a `{name}` adventure cannot be saved in the middle of its sub-game", name=cls.name))

    @classmethod
    def subjects(cls, game: GameState) -> tuple[str, ...]:
        """What a trigger on the system's events may bind in a run of ``game`` (its seats):
        a saved trigger's frame may name one (``runtime/saves.py``). None by default."""
        return ()

    @classmethod
    def load_sub_game(cls, scenario: "Scenario", data: Data, game: GameState) -> object:
        """The sub-game in progress a save holds (``sub_game_data``'s inverse), beside the
        run's ``game`` it is played in; a fault of the data is a ``game_saves.GameDataError``
        (as for ``load_game``)."""
        raise DeckquestError(_("a `{name}` adventure cannot be resumed in the middle of its sub-game", name=cls.name))

    @classmethod
    def whole_game(cls) -> bool:
        """Whether the system overrides ``new_game``: its script is one game, played whole."""
        # the functions under the bound classmethods (a bound method's ``__func__``, which
        # typeshed's Callable does not name)
        return getattr(cls.new_game, "__func__") is not getattr(GameSystem.new_game, "__func__")

    @classmethod
    def triggers_for(cls, event: Event) -> list[Fired]:
        """The script's trigger events an engine event fires: (kind, subject, number)."""
        return []

    @classmethod
    def outcome(cls, run: RunLike) -> tuple[str, str]:
        """The finished game's (outcome, text) for the run's ``end`` event."""
        result = run.state.game.outcome() or {}
        return str(result.get("outcome", "over")), str(result.get("text", ""))

    @classmethod
    def subject_value(cls, run: RunLike, subject: str, attribute: str | None) -> str | int:
        """``{racer}`` (attribute None: a name) and ``racer.position`` of the subject in scope."""
        raise NotImplementedError(f"{cls.name} binds no subject")

    @classmethod
    def seats(cls, scenario: "Scenario") -> dict[str, tuple[str, str | None]]:
        """The seats of a whole game: id -> (name, the agent name the script gives it or None)."""
        return {}

    @classmethod
    def seat_agent(cls, name: str, rng: random.Random, io: SeatIO | None = None) -> Agent:
        """The agent of a seat: a human agent talks through the run's ``io`` (the terminal at
        the table, a test's callables), never builtin ``input``/``print`` of its own."""
        factory = cls.agents[name]
        return factory(io.ask, io.say) if io is not None and name in cls.human_agents else factory()

    # -- sim reports (deckquest.sim)
    @classmethod
    def record(cls, run: RunLike) -> Hashable | None:
        """One row per finished run, counted over the batch (None: the system records nothing)."""
        return None

    @classmethod
    def report(cls, rows: Counter[Hashable], runs: int) -> Data | None:
        """The system's section of the JSON report, from the rows' counts."""
        return None

    @classmethod
    def compare_figures(cls, row: Hashable) -> list[tuple[str, str, float]] | None:
        """One run's figures for ``sim --compare`` from its ``record`` row: (title, kind,
        value), kind ``"share"`` (1 or 0: a seat won or not) or ``"mean"`` (a count); the
        same titles in the same order for every row. A system that does not override this
        offers no comparison."""
        return None

    @classmethod
    def verdict(cls, section: Data) -> Data | None:
        """A whole game's verdict from its section: ``{"headline": ..., "reasons": [...]}``
        (``rating`` one of the report's ratings, if the system rates); None: no verdict. The
        core's verdict judges a party's adventure, so a whole game's is the system's own."""
        return None

    @classmethod
    def report_text(cls, section: Data) -> list[str]:
        return []

    @classmethod
    def report_html(cls, section: Data) -> str:
        """An HTML fragment (escaped) for the section."""
        return ""

    # -- transcripts (deckquest.runtime.transcript)
    @classmethod
    def render(cls, event: Event, names: Mapping[str, str]) -> list[str] | None:
        """Text lines for one of the system's events, or None for an event it does not own."""
        return None


@dataclass
class Registry:
    """The game systems known to this process, by name, in registration order."""

    systems: dict[str, type[GameSystem]] = field(default_factory=dict)

    def register(self, system: type[GameSystem]) -> type[GameSystem]:
        if system.name in self.systems and self.systems[system.name] is not system:
            raise ValueError(f"a game system named {system.name!r} is registered already")
        self.systems[system.name] = system
        dsl_language.LANGUAGES[system.name] = system
        return system

    def get(self, name: str) -> type[GameSystem]:
        return self.systems[name]

    def find(self, name: str) -> type[GameSystem] | None:
        return self.systems.get(name)

    def names(self) -> tuple[str, ...]:
        return tuple(self.systems)


REGISTRY = Registry()
register = REGISTRY.register
ENTRY_POINTS = "deckquest.systems"  # the entry-point group of game systems in other packages


def load_all() -> Registry:
    """Import every game system: the packages under ``deckquest.systems`` and those other
    distributions declare in the ``deckquest.systems`` entry-point group. Each registers
    itself as it is imported; a system is added without editing this file."""
    for module in pkgutil.iter_modules(__path__, __name__ + "."):
        if module.ispkg:
            importlib.import_module(module.name)
    for point in entry_points(group=ENTRY_POINTS):
        point.load()
    return REGISTRY


def names() -> tuple[str, ...]:
    """The names of every game system (all loaded first)."""
    return load_all().names()


def get(name: str) -> type[GameSystem]:
    """The game system called ``name`` (all loaded first); KeyError if there is none."""
    return load_all().get(name)


def system_of(scenario: "Scenario") -> type[GameSystem]:
    """The registered game system of a compiled scenario (MTG-TRPG's is always registered)."""
    return REGISTRY.get(getattr(scenario, "system", dsl_language.DEFAULT_SYSTEM))


# MTG-TRPG is the default game (a script without `system NAME`): always registered.
from deckquest.systems import trpg  # noqa: E402,F401
