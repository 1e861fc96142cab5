"""Game systems: each game played with Magic cards is a package here that registers itself.

A system is small beside the core, the way a python-chess variant is a small class over one
board: it names itself, its editions, its ☆ options and the readings of its rules (each a
named scenario option, the first reading the default), its range of diagnostic codes, and the
hooks the core calls: its part of the scenario language, its resolver checks, its statement
and trigger handlers, its engine (``deckquest.engine.game``'s one shape), its agents and its
report sections. Issue 13 fills the language, runtime and report hooks.

Layers: ``runtime -> systems -> engine, dsl``. The dsl never imports a system: what a
system adds to the language is handed to the compiler by the layer above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


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

    @classmethod
    def reading(cls, name: str) -> Reading:
        return next(r for r in cls.readings if r.name == name)

    @classmethod
    def default_readings(cls) -> dict[str, str]:
        return {r.name: r.default for r in cls.readings}


@dataclass
class Registry:
    """The game systems known to this process, by name, in registration order."""

    systems: dict[str, type[GameSystem]] = field(default_factory=dict)

    def register(self, system: type[GameSystem]) -> type[GameSystem]:
        if system.name in self.systems and self.systems[system.name] is not system:
            raise ValueError(f"a game system named {system.name!r} is registered already")
        self.systems[system.name] = system
        return system

    def get(self, name: str) -> type[GameSystem]:
        return self.systems[name]

    def names(self) -> tuple[str, ...]:
        return tuple(self.systems)


REGISTRY = Registry()
register = REGISTRY.register
