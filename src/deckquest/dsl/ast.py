"""The syntax tree of a `.quest` scenario script.

One dataclass per grammar rule; the Lark transformer (`deckquest.dsl.parser`) only builds
these nodes, and everything after it -- the resolver and the interpreter -- walks them, never
Lark trees. Every node carries a ``span`` (`deckquest.errors.Span`) so any later message can
point at the source.

The node set, top down:

* ``Script``: one file. ``header`` (``ScenarioHeader``), ``uses`` (``Use``), ``pcs``
  (``PcDecl``), ``npcs`` (``NpcDecl``), ``flags`` (``FlagDecl``), ``counters``
  (``CounterDecl``), top-level ``triggers`` (``Trigger``) and ``scenes`` (``Scene``), each in
  source order.
* Declarations: ``PcDecl`` (deck + ``Critical`` cards), ``NpcDecl`` (kind ``creature``,
  ``planeswalker``, ``player`` or ``horde``; ``from card`` plus inline ``NpcField`` values),
  ``CardDecl`` (a GM's own card), ``FlagDecl``, ``CounterDecl``.
* ``Trigger``: an ``Event`` (see ``EVENT_KINDS``), an optional condition and a body.
* ``Scene``: id, title, ``start`` marker, its own triggers and a body (a list of statements).
* Statements (``Stmt``): ``Narration``, ``Choice`` (of ``ChoiceOption``), ``Goto``, ``End``,
  ``Wait``, ``SetFlag``, ``ClearFlag``, ``CounterAssign``, ``If``. A game system's statements
  are its own nodes (``SystemNode``); MTG-TRPG's (``check``, ``battle``, ...) are in
  ``deckquest.systems.trpg.nodes``.
* Expressions (``Expr``): ``IntLit``, ``Var`` (a flag or counter), ``PcStat``
  (``alice.life``, ``pc.hand``), ``PartySize``, ``Degree``, ``Compare``, ``And``, ``Or``,
  ``Not``.
* ``Text``: a string that may interpolate ``{...}``. The parser keeps ``raw``; the resolver's
  copy has ``parts``: literal strings and expressions (``Var``, ``PcStat``, ``PcName``,
  ``PartySize``, ``Degree``), so the interpreter never parses text at run time.

Every node is frozen: the resolver builds resolved copies (``deckquest.dsl.flow``) rather
than writing into the tree.

Names of things from a ``use``d script are qualified, ``lair.guard``: a ``str`` name field
may hold such a dotted name (see docs/language.md, "Using other scripts").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Union

from deckquest.errors import Span

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class IntLit:
    span: Span
    value: int


@dataclass(frozen=True)
class Var:
    """A flag (true when set) or a counter (its value); the resolver knows which."""

    span: Span
    name: str


@dataclass(frozen=True)
class PcStat:
    """A number about a PC: ``alice.life``, ``pc.hand``, ``pc.library``.

    ``pc`` is a PC id, or ``"pc"`` for the PC in scope (the one who checked, or the dying one).
    """

    span: Span
    pc: str
    stat: str  # one of PC_STATS


PC_STATS = ("life", "hand", "library", "exhaustion")


@dataclass(frozen=True)
class PcName:
    """Only inside interpolation: ``{pc}`` or ``{alice}`` renders a PC's name."""

    span: Span
    pc: str


@dataclass(frozen=True)
class Subject:
    """What a game system's trigger is about (``deckquest.dsl.language``): ``{racer}`` shows
    its name (``attribute`` None), ``racer.position`` reads one of its numbers."""

    span: Span
    attribute: str | None = None


@dataclass(frozen=True)
class PartySize:
    span: Span


#: What ``NPC is STATE`` can test (T-8.4; T-3.4 leaves a defeated NPC unconscious, else dead).
NPC_STATES = ("absent", "present", "unconscious", "dead", "defeated", "cooperating", "controlled")


@dataclass(frozen=True)
class NpcIs:
    """``bear is cooperating``: a condition on an NPC's state (one of ``NPC_STATES``)."""

    span: Span
    npc: str
    state: str


@dataclass(frozen=True)
class Degree:
    """The degree of success of the check whose success/failure block is running."""

    span: Span


@dataclass(frozen=True)
class Compare:
    span: Span
    op: str  # "<", "<=", ">", ">=", "==", "!="
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class And:
    span: Span
    operands: list["Expr"]


@dataclass(frozen=True)
class Or:
    span: Span
    operands: list["Expr"]


@dataclass(frozen=True)
class Not:
    span: Span
    operand: "Expr"


Expr = Union[IntLit, Var, PcStat, PcName, Subject, PartySize, NpcIs, Degree, Compare, And, Or, Not]


@dataclass(frozen=True)
class Text:
    """A string literal that may interpolate ``{...}``.

    ``raw`` is the text between the quotes with escapes applied. ``parts`` is empty as parsed;
    the resolver's copy holds ``str`` pieces and expressions, in order.
    """

    span: Span
    raw: str
    parts: list[Union[str, Expr]] = field(default_factory=list)


# ---------------------------------------------------------------- names


@dataclass(frozen=True)
class NameRef:
    """A use of a declared name (an NPC in ``battle against``), with its own span."""

    span: Span
    name: str


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Narration:
    span: Span
    text: Text


@dataclass(frozen=True)
class ChoiceOption:
    span: Span
    label: Text
    condition: Expr | None
    body: list["Statement"]


@dataclass(frozen=True)
class Choice:
    span: Span
    options: list[ChoiceOption]


@dataclass(frozen=True)
class Goto:
    span: Span
    scene: str
    name_span: Span | None = None


@dataclass(frozen=True)
class End:
    """The scenario ends: ``outcome`` is ``victory``, ``defeat`` or a custom string."""

    span: Span
    outcome: str
    text: Text | None


@dataclass(frozen=True)
class Wait:
    """``wait N minutes``: only advances the game clock."""

    span: Span
    minutes: int


@dataclass(frozen=True)
class SetFlag:
    span: Span
    flag: str
    name_span: Span | None = None


@dataclass(frozen=True)
class ClearFlag:
    span: Span
    flag: str
    name_span: Span | None = None


@dataclass(frozen=True)
class CounterAssign:
    span: Span
    counter: str
    op: str  # "=", "+=", "-="
    value: int
    name_span: Span | None = None


@dataclass(frozen=True)
class If:
    span: Span
    condition: Expr
    then: list["Statement"]
    orelse: list["Statement"] | None


Stmt = Union[Narration, Choice, Goto, End, Wait, SetFlag, ClearFlag, CounterAssign, If]


class SystemNode(Protocol):
    """A game system's own statement or declaration (``deckquest.dsl.language``): the core
    reads where it is written; a compound statement lists its statement lists with
    ``blocks()`` (``nested_blocks``) and may say with ``ends_scene()`` that every way through
    it leaves the scene (``deckquest.dsl.flow.terminates``)."""

    @property
    def span(self) -> Span: ...


#: What a statement list holds: the core's statements and those of the script's game system.
Statement = Union[Stmt, SystemNode]

# ---------------------------------------------------------------- triggers and scenes

EVENT_KINDS = (
    "scene_starts",  # the scene starts
    "scene_ends",  # the scene ends
    "check_succeeds",  # a check succeeds
    "check_fails",  # a check fails
    "critical_revealed",  # a critical card is revealed
    "pc_dying",  # a pc is dying
    "pc_unconscious",  # a pc falls unconscious
    "pc_dies",  # a pc dies
    "npc_defeated",  # NPC is defeated (npc set)
    "battle_turn",  # battle turn N (number set)
    "after_minutes",  # after N minutes of game clock (number set)
)


@dataclass(frozen=True)
class Event:
    span: Span
    kind: str  # one of EVENT_KINDS
    npc: str | None = None
    number: int | None = None
    name_span: Span | None = None


@dataclass(frozen=True)
class Trigger:
    """``when EVENT [if cond]:`` -- top level, or scoped to the scene it is written in."""

    span: Span
    event: Event
    condition: Expr | None
    body: list[Statement]


@dataclass(frozen=True)
class Scene:
    span: Span
    id: str
    title: str
    start: bool
    triggers: list[Trigger]
    body: list[Statement]


# ---------------------------------------------------------------- declarations


@dataclass(frozen=True)
class HeaderEntry:
    """One line of the scenario header; ``value`` is a str, int, (min, max) or tuple of str."""

    span: Span
    key: str  # "author", "version", "players", "rules", "language", "tags"
    value: object


@dataclass(frozen=True)
class ScenarioHeader:
    span: Span
    title: str
    entries: list[HeaderEntry]

    def get(self, key: str) -> object:
        """The value of the first entry named ``key``, or None."""
        return next((e.value for e in self.entries if e.key == key), None)


@dataclass(frozen=True)
class Critical:
    """``critical "Card" xN``: N copies of that card are critical cards (T-4.7)."""

    span: Span
    card: str
    copies: int


@dataclass(frozen=True)
class PcDecl:
    span: Span
    id: str
    name: str
    deck: str | None
    deck_span: Span | None
    criticals: list[Critical]
    fields: list["NpcField"] = field(default_factory=list)  # deck and critical lines as written


NPC_KINDS = ("creature", "planeswalker", "player", "horde")


@dataclass(frozen=True)
class NpcField:
    """One inline NPC value; ``value`` as in the matching ``NpcDecl`` attribute."""

    span: Span
    key: str  # "cost", "types", "stats", "keywords", "loyalty", "life", "deck", "text" (and "type" of a card)
    value: object

    @property
    def text(self) -> str:
        """A ``cost``, ``type``, ``deck`` or ``text`` line's string."""
        assert isinstance(self.value, str)
        return self.value

    @property
    def words(self) -> tuple[str, ...]:
        """A ``types`` or ``keywords`` line's words."""
        assert isinstance(self.value, tuple) and all(isinstance(word, str) for word in self.value)
        return self.value

    @property
    def stats(self) -> tuple[int, int]:
        """A ``stats P/T`` line's power and toughness."""
        assert isinstance(self.value, tuple) and len(self.value) == 2
        power, toughness = self.value
        assert isinstance(power, int) and isinstance(toughness, int)
        return power, toughness


@dataclass(frozen=True)
class NpcDecl:
    """An NPC (T-8.1 to T-8.3) or a horde (T-6.1). Inline fields override ``from card``."""

    span: Span
    kind: str  # one of NPC_KINDS
    id: str
    name: str
    from_card: str | None
    fields: list[NpcField]
    from_card_span: Span | None = None  # the card name's string (DQ0054 points at it)

    def get(self, key: str) -> object:
        """The value of the inline field ``key``, or None."""
        return next((f.value for f in self.fields if f.key == key), None)


@dataclass(frozen=True)
class CardDecl:
    """``card id "Name":`` a GM's own card (docs/effects.md): ``cost``, ``type "Creature — Goblin"``,
    ``stats``, ``keywords``, ``loyalty`` and ``text`` lines (``NpcField`` values), usable in NPC decks
    and as an NPC's card (``from card "Name"``)."""

    span: Span
    id: str
    name: str
    fields: list[NpcField]

    def get(self, key: str) -> object:
        """The value of the field ``key`` (the first one), or None."""
        return next((f.value for f in self.fields if f.key == key), None)

    def texts(self) -> list[NpcField]:
        return [f for f in self.fields if f.key == "text"]


@dataclass(frozen=True)
class FlagDecl:
    span: Span
    name: str


@dataclass(frozen=True)
class CounterDecl:
    span: Span
    name: str
    initial: int


@dataclass(frozen=True)
class Use:
    """``use "pack/path.quest" [as name]``: import another script's declarations.

    Its NPCs, flags, counters and triggers are reached as ``namespace.name``; the namespace
    is ``alias`` or, without one, the file's stem.
    """

    span: Span
    path: str
    alias: str | None


@dataclass(frozen=True)
class Script:
    span: Span
    header: ScenarioHeader | None  # the first `scenario` header
    headers: list[ScenarioHeader] = field(default_factory=list)  # all of them, as written
    uses: list[Use] = field(default_factory=list)
    pcs: list[PcDecl] = field(default_factory=list)
    npcs: list[NpcDecl] = field(default_factory=list)
    cards: list[CardDecl] = field(default_factory=list)
    flags: list[FlagDecl] = field(default_factory=list)
    counters: list[CounterDecl] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    scenes: list[Scene] = field(default_factory=list)
    system: list[SystemNode] = field(default_factory=list)  # the game system's own top-level declarations


#: A declared name's declaration: the core's, or one of the game system's (`SystemNode`).
Declaration = Union[PcDecl, NpcDecl, CardDecl, FlagDecl, CounterDecl, Scene, SystemNode]


def system_header(script: "Script") -> tuple[str | None, tuple[str, ...], dict[str, str]]:
    """(system, options, readings) as the header writes them."""
    if script.header is None:
        return None, (), {}
    system = script.header.get("system")
    return (system if isinstance(system, str) else None,
            tuple(str(e.value) for e in script.header.entries if e.key == "option"),
            dict(reading(e) for e in script.header.entries if e.key == "reading"))


def reading(entry: HeaderEntry) -> tuple[str, str]:
    """A ``reading NAME VALUE`` header line's name and value (the parser makes them a pair)."""
    assert isinstance(entry.value, tuple)
    name, value = entry.value
    return str(name), str(value)


def operands(expr: Expr) -> list[Expr]:
    """The expressions an expression is made of (none for a leaf: a number, a name, ...)."""
    if isinstance(expr, Compare):
        return [expr.left, expr.right]
    if isinstance(expr, (And, Or)):
        return list(expr.operands)
    if isinstance(expr, Not):
        return [expr.operand]
    return []


def nested_blocks(stmt: Statement) -> list[list[Statement]]:
    """The statement lists nested in a compound statement (none for a simple one); a game
    system's statement lists its own with a ``blocks()`` method."""
    blocks = getattr(stmt, "blocks", None)
    if blocks is not None:
        nested: list[list[Statement]] = blocks()
        return nested
    if isinstance(stmt, Choice):
        return [option.body for option in stmt.options]
    if isinstance(stmt, If):
        return [b for b in (stmt.then, stmt.orelse) if b is not None]
    return []
