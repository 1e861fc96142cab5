"""What a game system adds to the scenario language, as the dsl sees it.

The dsl never imports a game system (``deckquest.systems`` sits above it). A system hands
its part of the language down instead: ``deckquest.systems.register`` puts the system into
``LANGUAGES`` here, and the parser and the resolver look a script's ``system NAME`` up in
that table. ``LanguageSpec`` is what they read from it (``deckquest.systems.GameSystem``
provides every attribute):

* ``grammar``: a Lark fragment composed with the core grammar (``grammar/quest.lark``). Its
  own rules, and ``%extend`` lines that add alternatives to the core's extension points:
  ``item`` (top-level declarations), ``stmt`` (statements), ``event`` (trigger events) and
  ``header_entry`` (lines of the ``scenario`` header).
* ``builder``: a class whose methods build the system's AST nodes, one per rule of its
  fragment, each ``(self, meta, children)`` like the core's ``AstBuilder``; they are merged
  into the core's transformer. ``self._span(meta)``, ``self._int(token)``,
  ``self._text(token)`` and ``unquote`` are at hand.
* ``resolve(context)``: the system's resolver checks (see ``SystemContext``); what it
  returns is stored on the compiled ``Scenario`` as ``system_table``.
* ``resolve_declarations(context)``: checks of the system's declarations that the core
  declares (MTG-TRPG's cards, PCs and NPCs), once every name is declared and before the walk
  over the scenes; it fills the compiled program's tables (``context.pcs``, ``npcs``, ...).
  Called for a ``use``d script too (``context.library``).
* ``resolve_event(walk, event)``: a trigger's event of the system's, resolved in the walk
  (MTG-TRPG's ``goblin is defeated`` names an NPC); ``event_binds(kind)``: whether a trigger
  on it binds ``pc`` (the PC it is about) and ``degree`` (MTG-TRPG's check events).
* ``statement_resolvers()``: node class -> ``resolver(walk, statement, scope)``, called in
  the core's walk over the scenes (``deckquest.dsl.flow.Flow``) where the statement is met,
  returning its resolved copy (MTG-TRPG's ``check``: its kind, ``by``, its blocks with the PC
  in scope). A statement without a resolver goes to ``resolve`` and gets its blocks resolved
  through ``blocks()``/``with_blocks()``.
* ``resolve_flow(context)``: checks over the whole walked flow (``context.scenes``,
  ``triggers``, ``gotos``), before the core's warnings about unused names (MTG-TRPG: T-4.12).
* ``subject`` and ``subject_attributes``: the word a trigger on one of the system's events
  binds (``racer``, ``seat``), usable in its conditions and texts (``{racer}``,
  ``racer.position``); ``events``: the system's trigger event kinds, each mapped to whether
  it binds the subject.
* ``scenes_required``: a whole-game system (the game is the script's engine) needs no
  start scene.

A parser is built (and cached) per system from the core grammar and that one system's
fragment, so two systems never collide on keywords.
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Protocol

DEFAULT_SYSTEM = "trpg"  # a script without `system NAME`: MTG-TRPG (`rules 2019|2014`)


class LanguageSpec(Protocol):
    name: ClassVar[str]
    title: ClassVar[str]  # the game's name, for messages
    grammar: ClassVar[str]
    builder: ClassVar[type | None]
    scenes_required: ClassVar[bool]
    subject: ClassVar[str | None]
    subject_attributes: ClassVar[tuple[str, ...]]
    events: ClassVar[Mapping[str, bool]]
    reserved_words: ClassVar[frozenset[str]]
    codes: ClassVar[Any]  # its diagnostic codes: `code in codes`
    implied_by: ClassVar[str | None]  # its statements that an MTG-TRPG script may hold (re.MULTILINE)

    def __hash__(self) -> int: ...  # the parser's cache is keyed by the language

    @classmethod
    def option_names(cls) -> tuple[str, ...]: ...

    @classmethod
    def reading_values(cls) -> dict[str, tuple[str, ...]]: ...

    @classmethod
    def resolve(cls, context: Any) -> Any: ...

    @classmethod
    def resolve_declarations(cls, context: Any) -> None: ...

    @classmethod
    def resolve_event(cls, walk: Any, event: Any) -> Any: ...

    @classmethod
    def event_binds(cls, kind: str) -> tuple[bool, bool]: ...

    @classmethod
    def statement_resolvers(cls) -> Mapping[type, Any]: ...

    @classmethod
    def resolve_flow(cls, context: Any) -> None: ...


LANGUAGES: dict[str, Any] = {}  # system name -> its LanguageSpec (filled by deckquest.systems.register)


def language_of(name: str) -> LanguageSpec | None:
    return LANGUAGES.get(name)
