"""The Isekai TCG's part of the scenario language: grammar fragment, AST nodes, builder and
resolver checks (codes DQ4001-DQ4099; docs/isekai.md, docs/errors.md).

A card is a block of lines of plain words (`cost 2`, `range near`, `prevent 2 damage to a
unit`, `reversal if your main deck has 5 or fewer cards`), read here by the resolver: the
grammar stays small, and a wrong line gets a message about the line's own words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Mapping

from lark.tree import Meta

from deckquest.dsl import ast
from deckquest.dsl.parser import Children, unquote
from deckquest.errors import Span, did_you_mean
from deckquest.i18n import _
from deckquest.systems import CoreBuilder
from deckquest.systems.isekai.cards import (
    BOOST, BOUNCE, CONDITION_SUBJECTS, DAMAGE, HEAL, MOVE, PREVENT, PROTECT, RANGES,
    RECOVERY, STATS, STATUS, TARGETS, UNIT, ZONES, CardDef, CardSet, Condition, Deck, Duelist, Effect,
)
from deckquest.systems.isekai.decks import DECK_SIZE, check_card, check_deck

if TYPE_CHECKING:
    from deckquest.dsl.resolver import SystemContext
    from deckquest.engine.game import Agent

GRAMMAR = r"""
// Isekai TCG (docs/isekai.md): cards, decks, duelists
// readings with a number for their value (`reading stall 200`, `reading extra_attack_gap 3`):
// the core's `reading NAME NAME` takes words only
%extend header_entry: number_reading
number_reading: "reading" NAME INT _NL
%extend item: isekai_card | isekai_deck | duelist_decl
isekai_card: card_kind NAME STRING ":" _NL _INDENT card_line+ _DEDENT
!card_kind: "unit" | "item" | "equipment" | "magic" | "skill" | "status"
card_line: card_word+ _NL
card_word: NAME | INT | SIGNED_NUMBER
SIGNED_NUMBER: /[+-][0-9]+/

isekai_deck: "deck" NAME STRING ":" _NL _INDENT deck_part+ _DEDENT
deck_part: NAME deck_entry ("," deck_entry)* _NL
deck_entry: NAME [COPIES]

duelist_decl: "duelist" NAME STRING "with" NAME _NL
            | "duelist" NAME STRING "with" NAME ":" _NL _INDENT duelist_plays _DEDENT
duelist_plays: "plays" NAME _NL

// an adventure's duel: `duel against NPC [with DECK] [by PC]:` with victory/defeat/draw blocks
%extend stmt: duel_stmt
duel_stmt: "duel" "against" QNAME ["with" QNAME] ["by" NAME] ":" _NL _INDENT duel_outcome+ _DEDENT
QNAME: /[^\W\d]\w*(\.[^\W\d]\w*)*/   // a name, dotted when it comes from a `use`
duel_outcome: duel_result ":" _NL block
!duel_result: "victory" | "defeat" | "draw"

%extend event: "a" "duelist" "takes" "damage"    -> ev_duelist_takes_damage
             | "a" "reversal" "is" "activated"   -> ev_reversal_activated
             | "a" "unit" "is" "destroyed"       -> ev_unit_destroyed
             | "a" "duelist" "wins"              -> ev_duelist_wins
"""

EVENTS = {"duelist_takes_damage": True, "reversal_activated": True, "unit_destroyed": True, "duelist_wins": True}
RESERVED = frozenset({"unit", "item", "equipment", "magic", "skill", "status", "deck", "duelist", "with", "plays",
                      "duel"})
PARTS = {"main": "main", "skills": "skills", "skill": "skills", "status": "status"}
NUMBER_FIELDS = ("cost", "speed", "attack", "hp", "blessing")
UNIT_FIELDS = ("range", "attack", "hp")  # a unit's own stats (I-10); speed and cost every card has
STATUS_FIELDS = ("range", "attack", "speed", "blessing", "unique")
MAX_STAT = 99


@dataclass(frozen=True)
class Word:
    span: Span
    text: str


@dataclass(frozen=True)
class CardLine:
    span: Span
    words: tuple[Word, ...]


@dataclass(frozen=True)
class IsekaiCard:
    span: Span
    kind: str
    id: str
    name: str
    lines: tuple[CardLine, ...]


@dataclass(frozen=True)
class DeckEntry:
    span: Span
    card: str
    count: int


@dataclass(frozen=True)
class DeckPart:
    span: Span
    part: str
    part_span: Span
    entries: tuple[DeckEntry, ...]


@dataclass(frozen=True)
class DeckDecl:
    span: Span
    id: str
    name: str
    parts: tuple[DeckPart, ...]


@dataclass(frozen=True)
class DuelistDecl:
    span: Span
    id: str
    name: str
    deck: str
    deck_span: Span
    plays: str | None = None
    plays_span: Span | None = None


@dataclass(frozen=True)
class DuelOutcome:
    span: Span
    kind: str  # victory, defeat or draw
    body: list[ast.Statement]


@dataclass(frozen=True)
class DuelStmt:
    """``duel against NPC [with DECK] [by PC]:``: a PC duels an NPC duelist in an adventure;
    without ``with`` the PC plays a copy of the NPC's own deck (language.md's `duel against NPC:`)."""

    span: Span
    npc: str
    npc_span: Span
    deck: str | None
    deck_span: Span | None
    by: str | None
    by_span: Span | None
    outcomes: tuple[DuelOutcome, ...]

    def blocks(self) -> list[list[ast.Statement]]:
        return [outcome.body for outcome in self.outcomes]


#: Where a duel statement is written: (file, line, column).
Place = tuple[str, int, int]


@dataclass(frozen=True)
class IsekaiTable:
    """What the resolver worked out (the compiled scenario's ``system_table``)."""

    cards: CardSet
    decks: dict[str, Deck]
    duelists: tuple[Duelist, ...]
    plays: dict[str, str | None]  # duelist id -> the agent the script names
    duels: dict[Place, tuple[str, str, str | None]]  # a duel's place -> (NPC, deck, PC)


class Builder(CoreBuilder):
    """Builder methods merged into the core's transformer (``(self, meta, children)``)."""

    def number_reading(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return self._entry(meta, "reading", (str(c[0]), str(c[1])))

    def isekai_card(self, meta: Meta, c: Children) -> IsekaiCard:
        kind, name, title, *lines = c
        return IsekaiCard(self._span(meta), str(kind), str(name), unquote(title), tuple(lines))

    def card_kind(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def card_line(self, meta: Meta, c: Children) -> CardLine:
        return CardLine(self._span(meta), tuple(c))

    def card_word(self, meta: Meta, c: Children) -> Word:
        return Word(self._tok_span(c[0]), str(c[0]))

    def isekai_deck(self, meta: Meta, c: Children) -> DeckDecl:
        name, title, *parts = c
        return DeckDecl(self._span(meta), str(name), unquote(title), tuple(parts))

    def deck_part(self, meta: Meta, c: Children) -> DeckPart:
        part, *entries = c
        return DeckPart(self._span(meta), str(part), self._tok_span(part), tuple(entries))

    def deck_entry(self, meta: Meta, c: Children) -> DeckEntry:
        card, copies = c
        return DeckEntry(self._span(meta), str(card), self._int(copies, skip=1) if copies is not None else 1)

    def duelist_decl(self, meta: Meta, c: Children) -> DuelistDecl:
        name, title, deck, *rest = c
        plays = rest[0] if rest else None
        return DuelistDecl(self._span(meta), str(name), unquote(title), str(deck), self._tok_span(deck),
                           plays[0] if plays else None, plays[1] if plays else None)

    def duelist_plays(self, meta: Meta, c: Children) -> tuple[str, Span]:
        return str(c[0]), self._tok_span(c[0])

    def duel_stmt(self, meta: Meta, c: Children) -> DuelStmt:
        npc, deck, by, *outcomes = c
        return DuelStmt(self._span(meta), str(npc), self._tok_span(npc), str(deck) if deck is not None else None,
                        self._tok_span(deck) if deck is not None else None,
                        str(by) if by is not None else None, self._tok_span(by) if by is not None else None,
                        tuple(outcomes))

    def duel_outcome(self, meta: Meta, c: Children) -> DuelOutcome:
        return DuelOutcome(self._span(meta), c[0], c[1])

    def duel_result(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def ev_duelist_takes_damage(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "duelist_takes_damage")

    def ev_reversal_activated(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "reversal_activated")

    def ev_unit_destroyed(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "unit_destroyed")

    def ev_duelist_wins(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "duelist_wins")


# ---------------------------------------------------------------------------- cards


class LineError(Exception):
    """A card line that does not read; ``span`` is the word at fault."""

    def __init__(self, message: str, span: Span, hint: str | None = None):
        super().__init__(message)
        self.message, self.span, self.hint = message, span, hint


def _number(word: Word, low: int = 0, high: int = MAX_STAT) -> int:
    """A card line's number in ``low``..``high``; the word is read as a number only when it is
    ASCII digits of a sane length (a NAME may be `²`, an INT thousands of digits long)."""
    text = word.text.lstrip("+")
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 7) or not low <= int(text) <= high:
        raise LineError(_("expected a number from {low} to {high}, not `{word}`", low=low, high=high,
                          word=word.text[:20] + ("…" if len(word.text) > 20 else "")), word.span)
    return int(text)


def _target(words: tuple[Word, ...], span: Span) -> str:
    text = " ".join(w.text for w in words)
    if text not in TARGETS:
        raise LineError(f"`{text}` is not a target", span, "targets: " + ", ".join(f"`{t}`" for t in TARGETS))
    return text


def _zone(words: tuple[Word, ...], span: Span) -> str:
    text = " ".join(w.text for w in words)
    if text not in ZONES:
        raise LineError(f"`{text}` is not a zone", span, "zones: " + ", ".join(f"`your {z}`" for z in ZONES))
    return text


EFFECT_FORMS = ("deal N damage to TARGET", "prevent N damage to TARGET", "heal N damage from TARGET",
                "recovery N", "give TARGET +N speed|attack|hp", "protect TARGET",
                "move N cards from your ZONE to your ZONE", "return TARGET to hand")


def read_effect(line: CardLine) -> Effect:
    """One line of the effect vocabulary (docs/isekai.md), or LineError."""
    words = line.words
    text = [w.text for w in words]
    span = line.span
    verb = text[0]
    if verb in ("deal", "prevent", "heal") and len(text) >= 5 and text[2] == "damage":
        joiner = "from" if verb == "heal" else "to"
        if text[3] != joiner:
            raise LineError(f"expected `{joiner}`, not `{text[3]}`", words[3].span)
        return Effect({"deal": DAMAGE, "prevent": PREVENT, "heal": HEAL}[verb], _number(words[1], 1),
                      _target(words[4:], span))
    if verb == "recovery" and len(text) == 2:
        return Effect(RECOVERY, _number(words[1], 1))
    if verb == "give" and len(text) >= 4:
        stat = text[-1]
        if stat not in STATS:
            raise LineError(f"`give` changes speed, attack or hp, not `{stat}`", words[-1].span)
        amount = _number(words[-2], -MAX_STAT, MAX_STAT)
        return Effect(BOOST, amount, _target(words[1:-2], span), stat)
    if verb == "protect" and len(text) >= 2:
        return Effect(PROTECT, 0, _target(words[1:], span))
    if verb == "move" and len(text) >= 8 and text[2] == "cards" and text[3] == "from" and text[4] == "your":
        split = text.index("to", 5) if "to" in text[5:] else -1
        if split < 0 or split + 2 > len(text) or text[split + 1] != "your":
            raise LineError("expected `to your ZONE`", span)
        return Effect(MOVE, _number(words[1], 1), source=_zone(words[5:split], span),
                      destination=_zone(words[split + 2:], span))
    if verb == "return" and len(text) >= 4 and text[-2:] == ["to", "hand"]:
        return Effect(BOUNCE, 0, _target(words[1:-2], span))
    raise LineError(f"`{' '.join(text)}` is not a line of the effect vocabulary", span,
                    "a card line is one of: " + "; ".join(EFFECT_FORMS))


def read_condition(line: CardLine) -> Condition:
    """`reversal if SUBJECT has N or fewer|or more cards|units` (I-18)."""
    words = line.words
    text = [w.text for w in words]
    if len(text) < 8 or text[1] != "if" or "has" not in text or text[-3] != "or":
        raise LineError("a reversal reads `reversal if your main deck has 5 or fewer cards`", line.span)
    has = text.index("has")
    subject = " ".join(text[2:has])
    if text[-2] not in ("fewer", "more") or has != len(text) - 5:
        raise LineError("a reversal reads `reversal if your main deck has 5 or fewer cards`", line.span)
    if subject not in CONDITION_SUBJECTS:
        raise LineError(f"a reversal condition cannot count `{subject}`", line.span,
                        "it counts one of: " + ", ".join(f"`{s}`" for s in CONDITION_SUBJECTS))
    return Condition(subject, _number(words[has + 1], 0, 10_000), text[-2] == "fewer")


def read_card(decl: IsekaiCard) -> CardDef:
    """A card from its lines: fields first (`cost 2`), then effect lines, marks anywhere."""
    values: dict[str, object] = {}
    effects: list[Effect] = []
    for line in decl.lines:
        key = line.words[0].text
        if key in values and key in NUMBER_FIELDS + ("range", "unique", "reversal"):
            raise LineError(f"a card has one `{key}` line", line.span)
        if key in NUMBER_FIELDS and len(line.words) == 2:
            values[key] = _number(line.words[1])
        elif key == "range" and len(line.words) == 2:
            if line.words[1].text not in RANGES:
                raise LineError(f"a range is near, middle or far, not `{line.words[1].text}`", line.words[1].span,
                                did_you_mean(line.words[1].text, RANGES))
            values[key] = line.words[1].text
        elif key == "unique" and len(line.words) == 1:
            values[key] = True
        elif key == "reversal":
            values[key] = read_condition(line)
        else:
            effects.append(read_effect(line))
        _fits(decl, key, line)
    if decl.kind == UNIT:
        missing = [name for name in UNIT_FIELDS + ("speed",) if name not in values]
        if missing:
            raise LineError(f"unit `{decl.id}` needs {', '.join(missing)} (I-10)", decl.span,
                            "a unit has cost, range, attack, hp and speed")
    reversal = values.get("reversal")
    assert reversal is None or isinstance(reversal, Condition)  # read_condition read it
    return CardDef(decl.id, decl.name, decl.kind, cost=_number_field(values, "cost"),
                   speed=_number_field(values, "speed"), range=str(values.get("range", "")),
                   attack=_number_field(values, "attack"), hp=_number_field(values, "hp"),
                   effects=tuple(effects), blessing=_number_field(values, "blessing"),
                   unique=bool(values.get("unique", False)), reversal=reversal)


def _number_field(values: dict[str, object], key: str) -> int:
    """A number field of a card's (``NUMBER_FIELDS``), 0 when the card has none."""
    value = values.get(key, 0)
    assert isinstance(value, int)  # _number read it
    return value


def _fits(decl: IsekaiCard, key: str, line: CardLine) -> None:
    """Unit stats only on units (and a status card's own); no effect text on units or status cards."""
    stat = key in UNIT_FIELDS
    if decl.kind == STATUS:
        if key not in STATUS_FIELDS:
            raise LineError(f"a status card gives attack, speed and range, not `{key}`", line.span)
    elif stat and decl.kind != UNIT:
        raise LineError(f"only units have `{key}`; `{decl.id}` is {decl.kind}", line.span)
    elif decl.kind == UNIT and key not in NUMBER_FIELDS + UNIT_FIELDS + ("unique", "reversal"):
        raise LineError("a unit has stats, not effect text", line.span,
                        "put the effect on an item, equipment, magic or skill card")


# ---------------------------------------------------------------------------- the resolver


def resolve(context: SystemContext, agents: Mapping[str, Callable[..., Agent]]) -> IsekaiTable:
    """DQ4001-DQ4020: cards, decks (I-1, I-2), duelists."""
    cards: dict[str, CardDef] = {}
    decks: dict[str, Deck] = {}
    duelists: list[Duelist] = []
    plays: dict[str, str | None] = {}
    declared = [d for d in context.declarations if isinstance(d, (IsekaiCard, DeckDecl, DuelistDecl))]
    declared += [_qualified(d, prefix) for prefix, d in context.used if isinstance(d, (IsekaiCard, DeckDecl, DuelistDecl))]
    for decl in declared:
        if isinstance(decl, IsekaiCard) and context.declare("card", decl.id, decl):
            card = _card(context, decl)
            if card is not None:
                cards[card.id] = card
    card_set = CardSet(cards)
    known = {d.id for d in declared if isinstance(d, IsekaiCard)}
    for decl in declared:
        if isinstance(decl, DeckDecl) and context.declare("deck", decl.id, decl):
            decks[decl.id] = _deck(context, decl, card_set, known)
    for decl in declared:
        if not isinstance(decl, DuelistDecl) or not context.declare("duelist", decl.id, decl):
            continue
        if decl.deck not in decks:
            context.error("DQ4014", f"unknown deck `{decl.deck}`", decl.deck_span,
                          did_you_mean(decl.deck, list(decks)) or "declare it: `deck road \"Road Warden\":`")
            continue
        if decl.plays is not None and decl.plays not in agents:
            assert decl.plays_span is not None  # the builder places a `plays` with its name
            context.error("DQ4016", f"no duel agent is called `{decl.plays}`", decl.plays_span,
                          did_you_mean(decl.plays, list(agents)) or "agents: " + ", ".join(agents))
        duelists.append(Duelist(decl.id, decl.name, decks[decl.deck]))
        plays[decl.id] = decl.plays
    if context.script.scenes == [] and len(duelists) != 2:
        header = context.script.header
        context.error("DQ4015", f"a duel needs 2 duelists; this script has {len(duelists)}",
                      header.span if header else Span(str(context.path), 1, 1),
                      'declare them: `duelist ana "Ana" with road`')
    duels: dict[Place, tuple[str, str, str | None]] = {}
    npc_decks = {decl.id: decl.deck for decl in declared if isinstance(decl, DuelistDecl)}
    for stmt, _bound in context.statements:
        if isinstance(stmt, DuelStmt):
            duels[place(stmt.span)] = _duel(context, stmt, {d.id for d in duelists}, decks, npc_decks)
    return IsekaiTable(card_set, decks, tuple(duelists), plays, duels)


def _qualified(decl: IsekaiCard | DeckDecl | DuelistDecl, prefix: str) -> IsekaiCard | DeckDecl | DuelistDecl:
    """A declaration of a `use`d script under its namespace (``road.keeper``), the names it
    refers to qualified alike: a copy for the table, the tree is not rewritten."""
    if isinstance(decl, IsekaiCard):
        return replace(decl, id=prefix + decl.id)
    if isinstance(decl, DeckDecl):
        parts = tuple(replace(part, entries=tuple(replace(entry, card=prefix + entry.card) for entry in part.entries))
                      for part in decl.parts)
        return replace(decl, id=prefix + decl.id, parts=parts)
    return replace(decl, id=prefix + decl.id, deck=prefix + decl.deck)


def place(span: Span) -> Place:
    return span.file, span.line, span.col


def _duel(context: SystemContext, stmt: DuelStmt, duelists: set[str], decks: dict[str, Deck],
          npc_decks: dict[str, str]) -> tuple[str, str, str | None]:
    """DQ4018-DQ4019: a duel names a declared NPC duelist and deck (the NPC's own without
    ``with``); outcome blocks once each."""
    if stmt.npc not in duelists and stmt.npc not in npc_decks:  # a declared one's error is its own
        context.error("DQ4018", f"`{stmt.npc}` is not a duelist", stmt.npc_span,
                      did_you_mean(stmt.npc, list(duelists)) or 'declare it: `duelist bandit "Bandit" with road`')
    deck = stmt.deck if stmt.deck is not None else npc_decks.get(stmt.npc, "")
    if stmt.deck is not None and stmt.deck not in decks:
        assert stmt.deck_span is not None  # the builder places a `with DECK` with its name
        context.error("DQ4014", f"unknown deck `{stmt.deck}`", stmt.deck_span, did_you_mean(stmt.deck, list(decks)))
    seen: set[str] = set()
    for outcome in stmt.outcomes:
        if outcome.kind in seen:
            context.error("DQ4019", f"`{outcome.kind}:` is given twice", outcome.span)
        seen.add(outcome.kind)
    by = None
    if stmt.by is not None:
        assert stmt.by_span is not None  # the builder places a `by PC` with its name
        by = context.lookup(stmt.by, stmt.by_span, ("pc",), "DQ0033")
    return stmt.npc, deck, by


def _card(context: SystemContext, decl: IsekaiCard) -> CardDef | None:
    try:
        card = read_card(decl)
    except LineError as wrong:
        code = "DQ4009" if wrong.message.startswith("a reversal") else "DQ4010"
        context.error(code, wrong.message, wrong.span, wrong.hint)
        return None
    for problem in check_card(card, decl.span):
        line = next((ln for ln in decl.lines if ln.words[0].text == "reversal"), None)
        context.error(problem.code, problem.message, line.span if line else decl.span, problem.hint)
    return card


def _deck(context: SystemContext, decl: DeckDecl, cards: CardSet, known: set[str]) -> Deck:
    """A deck's parts and its I-1/I-2 diagnostics at the entries at fault (cards that failed to
    compile are not reported again as unknown)."""
    parts: dict[str, list[tuple[str, int]]] = {"main": [], "skills": [], "status": []}
    spans: dict[tuple[str, int], Span] = {}
    for part in decl.parts:
        key = PARTS.get(part.part)
        if key is None:
            context.error("DQ4017", f"a deck has `main`, `skills` and `status` lines, not `{part.part}`", part.part_span,
                          did_you_mean(part.part, list(PARTS)))
            continue
        for entry in part.entries:
            if not 1 <= entry.count <= DECK_SIZE:
                context.error("DQ4020", _("{count:,} copies of `{card}`: an entry holds from 1 to {most}", count=entry.count,
                                          card=entry.card, most=DECK_SIZE), entry.span,
                              _("a main deck and a skill deck hold {most} cards each (I-1)", most=DECK_SIZE))
            spans[(key, len(parts[key]))] = entry.span
            parts[key].append((entry.card, entry.count))
    deck = Deck(decl.id, decl.name, tuple(parts["main"]), tuple(parts["skills"]), tuple(parts["status"]))
    for problem in check_deck(deck, cards, spans, decl.span):
        if problem.code == "DQ4008" and problem.message.split("'")[1] in known:
            continue
        context.error(problem.code, problem.message, problem.span, problem.hint)
    return deck

