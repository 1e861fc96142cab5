"""MTG-TRPG's part of the scenario language: its grammar fragment and builder methods.

The core grammar (``grammar/quest.lark``) keeps what every game shares; MTG-TRPG adds, with
the same ``%extend`` lines as every other system (``deckquest.dsl.language``):

* declarations: ``pc`` (deck, critical cards; T-4.7), the NPCs ``creature``,
  ``planeswalker``, ``player`` and ``horde`` (T-8.1 to T-8.3) and a GM's own ``card``
  (docs/effects.md);
* statements: ``check`` (T-4, T-5), ``recruit`` (T-8.4), ``encounter``, ``take control of``,
  ``fight``, ``battle against`` (T-6), ``loses``/``gains`` life, ``draws``, ``give``, and
  ``the party rests``/``sleeps`` (T-7);
* trigger events: a check succeeds or fails, a critical card is revealed, a PC is dying,
  falls unconscious or dies, an NPC is defeated, battle turn N.

A script without a ``system`` line is parsed with this fragment (``rules 2019|2014`` picks
the edition); an Isekai adventure's fragment includes it (``deckquest.systems.isekai``).
"""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.tree import Meta

from deckquest.dsl import ast
from deckquest.dsl.parser import unquote
from deckquest.systems.trpg import nodes

GRAMMAR = r"""
// MTG-TRPG (systems/trpg/language.py)
// ---------------------------------------------------------------- declarations
%extend item: pc_decl | npc_decl | card_decl
pc_decl: "pc" NAME STRING ":" _NL _INDENT pc_field+ _DEDENT
?pc_field: deck_field | critical_field
deck_field: "deck" STRING _NL
critical_field: "critical" STRING [COPIES] _NL

npc_decl: npc_kind NAME STRING [from_card] _NL
        | npc_kind NAME STRING [from_card] ":" _NL _INDENT npc_field+ _DEDENT
!npc_kind: "creature" | "planeswalker" | "player" | "horde"
from_card: "from" "card" STRING
?npc_field: cost_field | types_field | stats_field | keywords_field | loyalty_field
          | life_field | deck_field | text_field
cost_field: "cost" STRING _NL
types_field: "types" NAME+ _NL
stats_field: "stats" INT "/" INT _NL
keywords_field: "keywords" phrase ("," phrase)* _NL
loyalty_field: "loyalty" INT _NL
life_field: "life" INT _NL
text_field: "text" STRING _NL

// A GM's own card (docs/effects.md): rules text in the effect vocabulary, one `text` per line.
card_decl: "card" NAME STRING ":" _NL _INDENT card_field+ _DEDENT
?card_field: cost_field | type_line_field | stats_field | keywords_field | loyalty_field | text_field
type_line_field: "type" STRING _NL

// ---------------------------------------------------------------- trigger events
%extend event: "a" "check" "succeeds"                 -> ev_check_succeeds
             | "a" "check" "fails"                    -> ev_check_fails
             | "a" "critical" "card" "is" "revealed"  -> ev_critical_revealed
             | "a" "pc" "is" "dying"                  -> ev_pc_dying
             | "a" "pc" "falls" "unconscious"         -> ev_pc_unconscious
             | "a" "pc" "dies"                        -> ev_pc_dies
             | ref "is" "defeated"                    -> ev_npc_defeated
             | "battle" "turn" INT                    -> ev_battle_turn

// ---------------------------------------------------------------- statements
%extend stmt: check | encounter | recruit | take_control | fight | battle
            | lose_life | gain_life | draw | give | rest | sleep

check: "check" NAME "difficulty" INT [by] ["as" STRING] ":" _NL _INDENT outcome+ _DEDENT
by: "by" who
who: NAME      -> who_pc
   | "party"   -> who_party
   | "each"    -> who_each
   | "all"     -> who_all
   | "any"     -> who_any
outcome: outcome_kind ":" _NL block
!outcome_kind: "success" | "failure" | "victory" | "defeat" | "escape"

encounter: "encounter" ref _NL
recruit: "recruit" ref "difficulty" INT [by] ":" _NL _INDENT outcome+ _DEDENT
take_control: "take" "control" "of" ref [by] (_NL | ":" _NL _INDENT outcome+ _DEDENT)
fight: "fight" ref [holding_back] _NL
holding_back: "holding" "back"

battle: "battle" "against" ref ("," ref)* ":" _NL _INDENT battle_item+ _DEDENT
?battle_item: prepare | outcome
prepare: "prepare" "by" who _NL

lose_life: target ("loses" | "lose") INT "life" _NL
gain_life: target ("gains" | "gain") INT "life" _NL
draw: target ("draws" | "draw") INT ("card" | "cards")? _NL
give: "give" STRING "to" target _NL
target: "pc"          -> target_pc
      | "each" "pc"   -> target_each
      | NAME          -> target_named

rest: "the" "party" "rests" _NL
sleep: "the" "party" "sleeps" _NL
"""

#: A grammar rule's children as Lark hands them to the builder (``deckquest.dsl.parser``).
Children = list[Any]


class Builder:
    """MTG-TRPG's builder methods, merged into the core's ``AstBuilder`` (whose helpers
    ``_span``, ``_tok_span``, ``_int``, ``_text`` and ``_event`` they call)."""

    # declarations
    def pc_decl(self, meta: Meta, c: Children) -> ast.PcDecl:
        name, title, *fields = c
        decks = [f for f in fields if f.key == "deck"]
        criticals = [f.value for f in fields if f.key == "critical"]
        deck = decks[0] if decks else None
        return ast.PcDecl(self._span(meta), str(name), unquote(title), deck.value if deck else None,
                          deck.span if deck else None, criticals, fields)

    def deck_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "deck", unquote(c[0]))

    def critical_field(self, meta: Meta, c: Children) -> ast.NpcField:
        copies = self._int(c[1], skip=1) if c[1] is not None else 1
        critical = ast.Critical(self._span(meta), unquote(c[0]), copies)
        return ast.NpcField(critical.span, "critical", critical)

    def npc_decl(self, meta: Meta, c: Children) -> ast.NpcDecl:
        kind, name, title, from_card, *fields = c
        return ast.NpcDecl(self._span(meta), kind, str(name), unquote(title), from_card and unquote(from_card),
                           fields, from_card and self._tok_span(from_card))

    def npc_kind(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def from_card(self, meta: Meta, c: Children) -> Token:
        card: Token = c[0]
        return card  # the STRING token: npc_decl keeps its text and its place

    def cost_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "cost", unquote(c[0]))

    def types_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "types", tuple(str(t) for t in c))

    def stats_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "stats", (self._int(c[0]), self._int(c[1])))

    def keywords_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "keywords", tuple(c))

    def loyalty_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "loyalty", self._int(c[0]))

    def life_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "life", self._int(c[0]))

    def text_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "text", unquote(c[0]))

    def card_decl(self, meta: Meta, c: Children) -> ast.CardDecl:
        name, title, *fields = c
        return ast.CardDecl(self._span(meta), str(name), unquote(title), fields)

    def type_line_field(self, meta: Meta, c: Children) -> ast.NpcField:
        return ast.NpcField(self._span(meta), "type", unquote(c[0]))

    # trigger events
    def ev_check_succeeds(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "check_succeeds")

    def ev_check_fails(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "check_fails")

    def ev_critical_revealed(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "critical_revealed")

    def ev_pc_dying(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "pc_dying")

    def ev_pc_unconscious(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "pc_unconscious")

    def ev_pc_dies(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "pc_dies")

    def ev_npc_defeated(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "npc_defeated", npc=c[0].name, name_span=c[0].span)

    def ev_battle_turn(self, meta: Meta, c: Children) -> ast.Event:
        return self._event(meta, "battle_turn", number=self._int(c[0]))

    # statements
    def check(self, meta: Meta, c: Children) -> nodes.Check:
        kind, difficulty, by, label, *outcomes = c
        return nodes.Check(self._span(meta), str(kind), self._int(difficulty), by,
                         unquote(label) if label is not None else None,
                         _block_of(outcomes, "success"), _block_of(outcomes, "failure"), outcomes,
                         self._tok_span(kind))

    def by(self, meta: Meta, c: Children) -> nodes.Who:
        who: nodes.Who = c[0]
        return who

    def who_pc(self, meta: Meta, c: Children) -> nodes.Who:
        return nodes.Who(self._span(meta), "pc", str(c[0]))

    def who_party(self, meta: Meta, c: Children) -> nodes.Who:
        return nodes.Who(self._span(meta), "party")

    def who_each(self, meta: Meta, c: Children) -> nodes.Who:
        return nodes.Who(self._span(meta), "each")

    def who_all(self, meta: Meta, c: Children) -> nodes.Who:
        return nodes.Who(self._span(meta), "all")

    def who_any(self, meta: Meta, c: Children) -> nodes.Who:
        return nodes.Who(self._span(meta), "any")

    def outcome(self, meta: Meta, c: Children) -> nodes.Outcome:
        return nodes.Outcome(self._span(meta), c[0], c[1])

    def outcome_kind(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    def encounter(self, meta: Meta, c: Children) -> nodes.Encounter:
        return nodes.Encounter(self._span(meta), c[0].name, c[0].span)

    def recruit(self, meta: Meta, c: Children) -> nodes.Recruit:
        ref, difficulty, by, *outcomes = c
        return nodes.Recruit(self._span(meta), ref.name, self._int(difficulty), by,
                           _block_of(outcomes, "success"), _block_of(outcomes, "failure"), outcomes, ref.span)

    def take_control(self, meta: Meta, c: Children) -> nodes.TakeControl:
        ref, by, *outcomes = c
        return nodes.TakeControl(self._span(meta), ref.name, by, _block_of(outcomes, "success"),
                               _block_of(outcomes, "failure"), outcomes, ref.span)

    def fight(self, meta: Meta, c: Children) -> nodes.Fight:
        return nodes.Fight(self._span(meta), c[0].name, c[1] is not None, c[0].span)

    def holding_back(self, meta: Meta, c: Children) -> bool:
        return True

    def battle(self, meta: Meta, c: Children) -> nodes.Battle:
        enemies = [x for x in c if isinstance(x, ast.NameRef)]
        outcomes = [x for x in c if isinstance(x, nodes.Outcome)]
        prepares = [x for x in c if isinstance(x, nodes.Who)]
        return nodes.Battle(self._span(meta), enemies, prepares[0] if prepares else None,
                          _block_of(outcomes, "victory"), _block_of(outcomes, "defeat"),
                          _block_of(outcomes, "escape"), outcomes, prepares)

    def prepare(self, meta: Meta, c: Children) -> nodes.Who:
        who: nodes.Who = c[0]
        return who

    def lose_life(self, meta: Meta, c: Children) -> nodes.LoseLife:
        return nodes.LoseLife(self._span(meta), c[0], self._int(c[1]))

    def gain_life(self, meta: Meta, c: Children) -> nodes.GainLife:
        return nodes.GainLife(self._span(meta), c[0], self._int(c[1]))

    def draw(self, meta: Meta, c: Children) -> nodes.Draw:
        return nodes.Draw(self._span(meta), c[0], self._int(c[1]))

    def give(self, meta: Meta, c: Children) -> nodes.Give:
        return nodes.Give(self._span(meta), unquote(c[0]), c[1])

    def target_pc(self, meta: Meta, c: Children) -> nodes.Target:
        return nodes.Target(self._span(meta), "pc")

    def target_each(self, meta: Meta, c: Children) -> nodes.Target:
        return nodes.Target(self._span(meta), "each")

    def target_named(self, meta: Meta, c: Children) -> nodes.Target:
        return nodes.Target(self._span(meta), "named", str(c[0]))

    def rest(self, meta: Meta, c: Children) -> nodes.Rest:
        return nodes.Rest(self._span(meta))

    def sleep(self, meta: Meta, c: Children) -> nodes.Sleep:
        return nodes.Sleep(self._span(meta))


def _block_of(outcomes: list[nodes.Outcome], kind: str) -> list[ast.Statement] | None:
    """The body of the first outcome block of that kind, or None."""
    return next((o.body for o in outcomes if o.kind == kind), None)
