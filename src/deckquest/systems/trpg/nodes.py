"""MTG-TRPG's statement nodes: what its builder (``language.Builder``) makes of its part of
the grammar, frozen dataclasses like the core's (``deckquest.dsl.ast``).

Compound statements follow the seam's protocol for a system's statements with nested
blocks (docs/development.md): ``blocks()`` lists their statement lists, in the order the
run's step paths count them (``success`` then ``failure``; ``victory``, ``defeat``,
``escape``), and ``ends_scene()`` says whether every way through them leaves the scene.
Their resolved copies are built by ``deckquest.systems.trpg.resolve``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckquest.dsl.ast import NameRef, Statement
from deckquest.dsl.flow import terminates
from deckquest.errors import Span

# ---------------------------------------------------------------- who acts


@dataclass(frozen=True)
class Who:
    """Who makes a check: a PC (``kind == "pc"``), ``party``, ``each``, ``all`` or ``any``.

    For ``kind == "pc"``, ``pc`` is a PC id, or ``"pc"`` for the PC in scope (``by pc``).
    """

    span: Span
    kind: str
    pc: str | None = None


@dataclass(frozen=True)
class Outcome:
    """One ``success:``/``failure:``/``victory:``/``defeat:``/``escape:`` block, as written."""

    span: Span
    kind: str
    body: list[Statement]


@dataclass(frozen=True)
class Target:
    """Whom an effect hits: ``pc`` (the PC in scope), ``each`` (every PC) or a named PC."""

    span: Span
    kind: str  # "pc", "each" or "named"
    pc: str | None = None


# ---------------------------------------------------------------- statements

CHECK_KINDS = {
    2019: ("white", "blue", "black", "red", "green", "colorless"),
    2014: ("negotiation", "intellect", "dexterity", "reflex", "body"),
}


class _SuccessOrFailure:
    """A check's blocks: ``success`` then ``failure`` (each None when not written)."""

    success: list[Statement] | None
    failure: list[Statement] | None

    def blocks(self) -> list[list[Statement]]:
        return [b for b in (self.success, self.failure) if b is not None]

    def ends_scene(self) -> bool:
        return (self.success is not None and self.failure is not None
                and terminates(self.success) and terminates(self.failure))


@dataclass(frozen=True)
class Check(_SuccessOrFailure):
    """``check KIND difficulty N [by WHO] [as "label"]:`` with ``success:``/``failure:``.

    ``by`` is None when omitted (the party picks, as for ``by party``). A missing block is None.
    """

    span: Span
    kind: str
    difficulty: int
    by: Who | None
    label: str | None
    success: list[Statement] | None
    failure: list[Statement] | None
    outcomes: list[Outcome] = field(default_factory=list)  # every block as written
    kind_span: Span | None = None  # where KIND is written (DQ0036 points at it)


@dataclass(frozen=True)
class Encounter:
    span: Span
    npc: str
    name_span: Span | None = None


@dataclass(frozen=True)
class Recruit(_SuccessOrFailure):
    """T-8.4: a negotiation (2019: white) check; success makes the NPC cooperate."""

    span: Span
    npc: str
    difficulty: int
    by: Who | None
    success: list[Statement] | None
    failure: list[Statement] | None
    outcomes: list[Outcome] = field(default_factory=list)
    name_span: Span | None = None


@dataclass(frozen=True)
class TakeControl(_SuccessOrFailure):
    """T-8.4: a PC pays the NPC's exact mana cost, colours included, and controls it; a
    creature or planeswalker NPC must already cooperate. ``success``/``failure`` follow."""

    span: Span
    npc: str
    by: Who | None
    success: list[Statement] | None
    failure: list[Statement] | None
    outcomes: list[Outcome] = field(default_factory=list)
    name_span: Span | None = None


@dataclass(frozen=True)
class Fight:
    """T-3.4: a fight outside combat scenes."""

    span: Span
    npc: str
    holding_back: bool
    name_span: Span | None = None


@dataclass(frozen=True)
class Battle:
    """A combat part (rules section 6) against the listed enemies."""

    span: Span
    enemies: list[NameRef]
    prepare: Who | None
    victory: list[Statement] | None
    defeat: list[Statement] | None
    escape: list[Statement] | None
    outcomes: list[Outcome] = field(default_factory=list)
    prepares: list[Who] = field(default_factory=list)  # every `prepare by` line as written

    def blocks(self) -> list[list[Statement]]:
        return [b for b in (self.victory, self.defeat, self.escape) if b is not None]

    def ends_scene(self) -> bool:
        """Victory and defeat (and escape, when written) all leave the scene."""
        ends = [self.victory, self.defeat] + ([self.escape] if self.escape is not None else [])
        return all(block is not None and terminates(block) for block in ends)


@dataclass(frozen=True)
class LoseLife:
    span: Span
    target: Target
    amount: int


@dataclass(frozen=True)
class GainLife:
    span: Span
    target: Target
    amount: int


@dataclass(frozen=True)
class Draw:
    span: Span
    target: Target
    amount: int


@dataclass(frozen=True)
class Give:
    span: Span
    item: str
    target: Target


@dataclass(frozen=True)
class Rest:
    """``the party rests``: every PC rests (T-2.6)."""

    span: Span


@dataclass(frozen=True)
class Sleep:
    """``the party sleeps``: six hours of sleep for every PC (T-2.8)."""

    span: Span


#: Every statement of MTG-TRPG's.
STATEMENTS = (Check, Encounter, Recruit, TakeControl, Fight, Battle, LoseLife, GainLife, Draw, Give, Rest, Sleep)
