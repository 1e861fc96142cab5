"""Grizzly Bears' Adventure's part of the scenario language: its grammar fragment, AST nodes,
builder methods and resolver checks (codes DQ2000-DQ2999, docs/errors.md).

A script (docs/grizzly.md, "The script")::

    scenario "Bears of the Sword Coast":
        system grizzly
        players 4
        treasures to win 5              # G-1
        expert rules                    # G-27 (a 100-card library)
        turn limit 200 rounds           # a game still going then is stopped
        option dungeon
        reading home corner

    library "decks/sword_coast.txt"     # G-2
    squares 3 per player                # G-3

    seat ana "Ana":
        plays greedy
        dash if hand has mana value 5 or more
        offer co-op if the flipped power is 3 or more
        refuse co-op
    seat ben "Ben"

    when a treasure is gained if seat.treasures == 4:
        "{seat} needs one more treasure!"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping

from lark.tree import Meta

from deckquest.cards.model import Card
from deckquest.dsl import ast
from deckquest.dsl.parser import Children, unquote
from deckquest.errors import Span, did_you_mean
from deckquest.systems import CoreBuilder
from deckquest.systems.grizzly.config import (EXPERT_LIBRARY_SIZE, LIBRARY_SIZE, SQUARES_PER_PLAYER, TURN_LIMIT,
                                              WIN_TREASURES, PolicyRule)

if TYPE_CHECKING:
    from deckquest.dsl.resolver import SystemContext
    from deckquest.engine.game import Agent

GRAMMAR = r"""
// header lines: `treasures to win 5` (G-1), `expert rules` (G-27), `turn limit 200 rounds`
%extend header_entry: treasures_to_win | expert_rules | turn_limit
treasures_to_win: "treasures" "to" "win" INT _NL
expert_rules: "expert" "rules" _NL
turn_limit: "turn" "limit" INT "rounds" _NL

// declarations: the library (G-2), the loop (G-3), the seats with their agent and policy
%extend item: library_decl | squares_decl | seat_decl
library_decl: "library" STRING _NL
squares_decl: "squares" INT "per" "player" _NL
seat_decl: "seat" NAME STRING _NL
         | "seat" NAME STRING ":" _NL _INDENT seat_line+ _DEDENT
?seat_line: plays | policy
plays: "plays" NAME _NL
policy: "dash" "if" "hand" "has" "mana" "value" INT "or" "more" _NL          -> rule_dash
      | "roll" _NL                                                          -> rule_roll
      | "offer" "co-op" _NL                                                 -> rule_offer
      | "offer" "co-op" "if" "the" "flipped" "power" "is" INT "or" "more" _NL -> rule_offer_if
      | "no" "co-op" _NL                                                    -> rule_no_coop
      | "accept" "co-op" _NL                                                -> rule_accept
      | "refuse" "co-op" _NL                                                -> rule_refuse
      | "venture" _NL                                                       -> rule_venture
      | "take" "counter" _NL                                                -> rule_counter
      | "cast" "flipped" "spells" _NL                                       -> rule_cast_flipped
      | "discard" "flipped" "spells" _NL                                    -> rule_discard_flipped

// trigger events (each binds `seat`, the seat it is about)
%extend event: "a" "card" "is" "flipped"    -> ev_card_flipped
             | "a" "bear" "dies"            -> ev_bear_dies
             | "a" "lap" "is" "completed"   -> ev_lap_completed
             | "a" "treasure" "is" "gained" -> ev_treasure_gained
"""

EVENTS = {"card_flipped": True, "bear_dies": True, "lap_completed": True, "treasure_gained": True}
TRIGGERS = {"flip": "card_flipped", "bear_dies": "bear_dies", "lap_completed": "lap_completed",
            "treasure_gained": "treasure_gained"}
RESERVED = frozenset({"seat", "library", "squares", "plays", "treasures", "expert", "dash", "roll", "offer",
                      "accept", "refuse", "venture", "take", "cast", "discard", "bear", "lap", "card", "treasure"})
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # G-1 says 3 or more; 2 is allowed for studies (a warning)
MAX_SQUARES, MAX_TREASURES, MAX_TURN_LIMIT = 12, 50, 10_000

# The diagnostic codes (docs/errors.md).
NO_LIBRARY = "DQ2001"
LIBRARY_TWICE = "DQ2002"
LIBRARY_SIZE_CODE = "DQ2003"
BEARS_IN_LIBRARY = "DQ2004"
SQUARES_RANGE = "DQ2005"
TREASURES_RANGE = "DQ2006"
SEAT_COUNT = "DQ2007"
UNKNOWN_AGENT = "DQ2008"
POLICY_VALUE = "DQ2009"
POLICY_TWICE = "DQ2010"
TURN_LIMIT_RANGE = "DQ2011"
SQUARES_TWICE = "DQ2012"
LIBRARY_TOO_SMALL = "DQ2013"
FEW_PLAYERS = "DQ2014"


@dataclass(frozen=True)
class LibraryDecl:
    span: Span
    path: str


@dataclass(frozen=True)
class SquaresDecl:
    span: Span
    count: int


@dataclass(frozen=True)
class Plays:
    span: Span
    agent: str


@dataclass(frozen=True)
class PolicyLine:
    span: Span
    rule: PolicyRule


@dataclass(frozen=True)
class SeatDecl:
    span: Span
    id: str
    name: str
    plays: Plays | None = None
    policy: tuple[PolicyLine, ...] = ()


#: A seat as the script declares it: (id, name, the agent it plays or None, its policy rules).
SeatRow = tuple[str, str, str | None, tuple[PolicyRule, ...]]


@dataclass(frozen=True)
class GrizzlyTable:
    """What the resolver worked out: the compiled scenario's ``system_table``."""

    library: tuple[Card, ...]
    library_path: str
    squares_per_player: int
    treasures_to_win: int
    expert: bool
    turn_limit: int
    seats: tuple[SeatRow, ...]


class Builder(CoreBuilder):
    """Builder methods merged into the core's transformer (``(self, meta, children)``)."""

    def treasures_to_win(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return ast.HeaderEntry(self._span(meta), "treasures to win", self._int(c[0]))

    def expert_rules(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return ast.HeaderEntry(self._span(meta), "expert rules", True)

    def turn_limit(self, meta: Meta, c: Children) -> ast.HeaderEntry:
        return ast.HeaderEntry(self._span(meta), "turn limit", self._int(c[0]))

    def library_decl(self, meta: Meta, c: Children) -> LibraryDecl:
        return LibraryDecl(self._span(meta), unquote(c[0]))

    def squares_decl(self, meta: Meta, c: Children) -> SquaresDecl:
        return SquaresDecl(self._span(meta), self._int(c[0]))

    def seat_decl(self, meta: Meta, c: Children) -> SeatDecl:
        name, title, *lines = c
        plays = [line for line in lines if isinstance(line, Plays)]
        policy = tuple(line for line in lines if isinstance(line, PolicyLine))
        return SeatDecl(self._span(meta), str(name), unquote(title), plays[0] if plays else None, policy)

    def plays(self, meta: Meta, c: Children) -> Plays:
        return Plays(self._span(meta), str(c[0]))

    def _rule(self, meta: Meta, action: str, threshold: int = 0) -> PolicyLine:
        return PolicyLine(self._span(meta), PolicyRule(action, threshold, rule_text(PolicyRule(action, threshold))))

    def rule_dash(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "dash", self._int(c[0]))

    def rule_roll(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "roll")

    def rule_offer(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "offer co-op")

    def rule_offer_if(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "offer co-op", self._int(c[0]))

    def rule_no_coop(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "no co-op")

    def rule_accept(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "accept co-op")

    def rule_refuse(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "refuse co-op")

    def rule_venture(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "venture")

    def rule_counter(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "take counter")

    def rule_cast_flipped(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "cast flipped")

    def rule_discard_flipped(self, meta: Meta, c: Children) -> PolicyLine:
        return self._rule(meta, "discard flipped")

    def ev_card_flipped(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "card_flipped")

    def ev_bear_dies(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "bear_dies")

    def ev_lap_completed(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "lap_completed")

    def ev_treasure_gained(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "treasure_gained")


def rule_text(rule: PolicyRule) -> str:
    """A policy rule as a script writes it."""
    if rule.action == "dash":
        return f"dash if hand has mana value {rule.threshold} or more"
    if rule.action == "offer co-op" and rule.threshold:
        return f"offer co-op if the flipped power is {rule.threshold} or more"
    return {"cast flipped": "cast flipped spells", "discard flipped": "discard flipped spells"}.get(
        rule.action, rule.action)


def _header(context: SystemContext, key: str) -> ast.HeaderEntry | None:
    header = context.script.header
    return next((e for e in header.entries if e.key == key), None) if header else None


def _anywhere(context: SystemContext) -> Span:
    header = context.script.header
    return header.span if header else Span(str(context.path), 1, 1)


def resolve(context: SystemContext, agents: Mapping[str, Callable[..., Agent]]) -> GrizzlyTable:
    """DQ2001-DQ2014: the library, the loop, the Treasures, the seats, agents and policies."""
    expert = _header(context, "expert rules") is not None
    treasures = _ranged(context, _header(context, "treasures to win"), WIN_TREASURES, 1, MAX_TREASURES,
                        TREASURES_RANGE, "Treasures to win", "G-1 says 5")
    turn_limit = _ranged(context, _header(context, "turn limit"), TURN_LIMIT, 1, MAX_TURN_LIMIT,
                         TURN_LIMIT_RANGE, "rounds of turn limit", "a game of 4 lasts about 20 rounds")
    squares = _squares(context)
    seats = _seats(context, agents)
    library, path = _library(context, expert, (squares + 3) * max(len(seats), 1))
    return GrizzlyTable(library, path, squares, treasures, expert, turn_limit, tuple(seats))


def _ranged(context: SystemContext, entry: ast.HeaderEntry | None, default: int, low: int, high: int, code: str,
            what: str, hint: str) -> int:
    if entry is None:
        return default
    assert isinstance(entry.value, int)  # the builder reads these entries' numbers (`_int`)
    if not low <= entry.value <= high:
        context.error(code, f"{entry.value} {what}: from {low} to {high}", entry.span, hint)
        return default
    return entry.value


def _squares(context: SystemContext) -> int:
    decls = [d for d in context.declarations if isinstance(d, SquaresDecl)]
    for extra in decls[1:]:
        context.error(SQUARES_TWICE, "`squares` is given twice", extra.span, f"the first is at line {decls[0].span.line}")
    if not decls:
        return SQUARES_PER_PLAYER
    count = decls[0].count
    if not 1 <= count <= MAX_SQUARES:
        context.error(SQUARES_RANGE, f"{count} squares per player: from 1 to {MAX_SQUARES}", decls[0].span,
                      "G-3 lays 3 squares per player")
        return SQUARES_PER_PLAYER
    return count


def _seats(context: SystemContext, agents: Mapping[str, Callable[..., Agent]]) -> list[SeatRow]:
    seats: list[SeatRow] = []
    for decl in context.declarations:
        if not isinstance(decl, SeatDecl) or not context.declare("seat", decl.id, decl):
            continue
        agent = decl.plays.agent if decl.plays else None
        if decl.plays is not None and agent not in agents:
            context.error(UNKNOWN_AGENT, f"no Grizzly Bears agent is called `{agent}`", decl.plays.span,
                          did_you_mean(str(agent), list(agents)) or "agents: " + ", ".join(agents))
        _policy(context, decl.policy)
        seats.append((decl.id, decl.name, agent, tuple(line.rule for line in decl.policy)))
    low, high = context.players
    if not seats or not low <= len(seats) <= high or len(seats) > MAX_PLAYERS:
        context.error(SEAT_COUNT, f"{len(seats)} seat{'' if len(seats) == 1 else 's'} for `players {low}`" + (f" to {high}" if high != low else ""),
                      _anywhere(context), 'declare one `seat id "Name"` per player')
    elif len(seats) < 3:
        context.warn(FEW_PLAYERS, f"{len(seats)} players: G-1 plays with 3 or more", _anywhere(context),
                     "fine for a study; a game night needs 3 or 4")
    return seats


GROUPS = {"dash": "main", "roll": "main", "offer co-op": "co-op", "no co-op": "co-op", "accept co-op": "answer",
          "refuse co-op": "answer", "venture": "lap", "take counter": "lap", "cast flipped": "flipped",
          "discard flipped": "flipped"}


def _policy(context: SystemContext, lines: tuple[PolicyLine, ...]) -> None:
    """DQ2009 a threshold no card or creature meets; DQ2010 a rule an earlier one always
    answers first (the rules are tried in order: the first that applies answers)."""
    covering: dict[str, PolicyLine] = {}  # decision -> the rule that answers it from there on
    lowest: dict[str, PolicyLine] = {}  # decision -> the conditional rule with the lowest threshold
    for line in lines:
        rule = line.rule
        group = GROUPS[rule.action]
        if rule.action == "dash" and not 0 <= rule.threshold <= 20:
            context.error(POLICY_VALUE, f"no card has mana value {rule.threshold}", line.span,
                          "a mana value from 0 to 20")
        if rule.action == "offer co-op" and rule.threshold > 30:
            context.error(POLICY_VALUE, f"a power of {rule.threshold} is never reached", line.span,
                          "a power from 1 to 30")
        earlier = covering.get(group)
        conditional = rule.action == "dash" or (rule.action == "offer co-op" and rule.threshold > 0)
        if earlier is None and conditional and rule.action in {r.rule.action for r in lowest.values()}:
            first = lowest[group]
            if first.rule.action == rule.action and first.rule.threshold <= rule.threshold:
                earlier = first
        if earlier is not None:
            context.error(POLICY_TWICE, f"`{rule_text(rule)}` is never reached: `{rule_text(earlier.rule)}` "
                          "answers first", line.span, "a seat's rules are tried in order; the first that applies answers")
            continue
        if conditional:
            if group not in lowest or rule.threshold < lowest[group].rule.threshold:
                lowest[group] = line
        else:
            covering[group] = line


def _library(context: SystemContext, expert: bool, needed: int) -> tuple[tuple[Card, ...], str]:
    decls = [d for d in context.declarations if isinstance(d, LibraryDecl)]
    if not decls:
        context.error(NO_LIBRARY, "a Grizzly Bears game needs its shared library", _anywhere(context),
                      'add `library "decks/NAME.txt"`: a deck list of real cards (G-2)')
        return (), ""
    for extra in decls[1:]:
        context.error(LIBRARY_TWICE, "a game has one shared library (G-2)", extra.span,
                      f"the first is at line {decls[0].span.line}")
    decl = decls[0]
    path, deck = context.deck(decl.path, decl.span)
    if deck is None:
        return (), decl.path
    cards = tuple(deck.main_cards())
    wanted = EXPERT_LIBRARY_SIZE if expert else LIBRARY_SIZE
    if len(cards) != wanted:
        context.warn(LIBRARY_SIZE_CODE, f"the library holds {len(cards)} cards; "
                     + ("the expert rules (G-27) use 100" if expert else "G-2 uses 60"), decl.span,
                     "fine for a study; say `expert rules` in the header for a 100-card library" if not expert else None)
    bears = [card for card in cards if card.name == "Grizzly Bears"]
    if bears:
        context.error(BEARS_IN_LIBRARY, f"the library holds {len(bears)} Grizzly Bears: the players are the bears",
                      decl.span, "G-2: a 60-card deck without the bears")
    if len(cards) < needed:
        context.error(LIBRARY_TOO_SMALL, f"a library of {len(cards)} cards cannot lay the loop and deal the hands",
                      decl.span, f"at least {needed} cards: the squares and 3 cards a seat (G-3)")
    return cards, str(path)
