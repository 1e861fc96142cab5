"""The compiled program: what the resolver hands to the interpreter.

A `Scenario` is the checked syntax tree plus symbol tables, so the interpreter never looks a
name up in the tree nor re-validates anything: every scene id, PC, NPC, flag and counter it
meets in a statement is a key of one of these dicts. Names from a ``use``d script appear with
their namespace, ``lair.guard``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckquest.dsl import ast
from deckquest.errors import Diagnostic

if TYPE_CHECKING:  # the card modules are imported when a script first needs them
    from deckquest.cards.decklist import Deck
    from deckquest.cards.model import Card


@dataclass
class ResolvedPc:
    """A pre-generated PC with its loaded deck and critical cards (T-4.7)."""

    id: str
    name: str
    decl: ast.PcDecl
    deck_path: Path | None
    deck: Deck | None  # None when the PC has no deck line
    criticals: tuple[tuple[str, int], ...]  # (card name, copies)


@dataclass
class ResolvedNpc:
    """An NPC's values: the ``from card`` card's, overridden by the inline fields (T-8.1-8.3)."""

    id: str
    kind: str  # creature, planeswalker, player, horde
    name: str
    decl: ast.NpcDecl
    card: Card | None = None  # the card of `from card`, or None
    cost: str | None = None
    types: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()
    loyalty: int | None = None
    life: int | None = None
    deck_path: Path | None = None
    deck: Deck | None = None  # for player and horde NPCs
    texts: tuple[str, ...] = ()  # `text` lines: rules text in the effect vocabulary (docs/effects.md)

    def battle_card(self) -> Card:
        """A creature or planeswalker NPC as the card a battle plays (T-8.1, T-8.2): its card's
        values overridden by the inline ones, its `text` lines after the card's rules text."""
        from deckquest.cards.model import Card

        kind = self.kind.capitalize()
        base = self.card
        type_line = kind + (" — " + " ".join(self.types) if self.types else "")
        if base is not None and base.supertypes:
            type_line = " ".join(base.supertypes) + " " + type_line
        printed = [base.oracle_text.replace(base.name, self.name)] if base is not None and base.oracle_text else []
        text = "\n".join(printed + list(self.texts))
        return Card.build(
            self.name, self.cost, type_line,
            power=str(self.power) if self.power is not None else None,
            toughness=str(self.toughness) if self.toughness is not None else None,
            loyalty=str(self.loyalty) if self.loyalty is not None else None,
            keywords=tuple(k.capitalize() for k in self.keywords), oracle_text=text,
        )


@dataclass
class Scenario:
    """A compiled scenario script."""

    path: Path
    script: ast.Script
    title: str
    author: str | None
    version: str | None
    players: tuple[int, int]
    rules: int  # 2019 or 2014
    language: str  # "en" or "ja"
    tags: tuple[str, ...]
    start: str  # id of the start scene
    scenes: dict[str, ast.Scene]
    pcs: dict[str, ResolvedPc]
    npcs: dict[str, ResolvedNpc]
    cards: dict[str, Card]  # a GM's own cards by name
    flags: dict[str, ast.FlagDecl]
    counters: dict[str, ast.CounterDecl]
    triggers: list[ast.Trigger]  # top-level triggers, this script's and imported ones
    decks: dict[str, Deck] = field(default_factory=dict)  # pc/npc id -> its deck
    imports: dict[str, Path] = field(default_factory=dict)  # namespace -> script path
    warnings: list[Diagnostic] = field(default_factory=list)  # the first MAX_REPORTED_ERRORS
    omitted_warnings: int = 0  # warnings found after those
    system: str = "trpg"  # the game system (`system NAME`; `rules 2019|2014` alone: MTG-TRPG)
    options: frozenset[str] = frozenset()  # the system's ☆ options switched on
    readings: dict[str, str] = field(default_factory=dict)  # every reading of the system: chosen or default
    system_table: Any = None  # what the system's resolve hook worked out (deckquest.dsl.language)
    success_endings: tuple[str, ...] = ()  # `success endings …`: what counts as success; () = the default rule

    def scene(self, scene_id: str) -> ast.Scene:
        return self.scenes[scene_id]
