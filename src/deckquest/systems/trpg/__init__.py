"""MTG-TRPG (../shared/rules/, T-1 to T-8): the game deckquest was first built for, and the
largest system behind the seam (docs/development.md, "Adding a game system").

A script without a ``system`` line is MTG-TRPG: ``rules 2019`` or ``rules 2014`` picks the
edition. The package:

- ``language``: its part of the grammar (``pc``, the NPCs, ``card``; ``check``, ``recruit``,
  ``encounter``, ``take control``, ``fight``, ``battle``, life, draws, ``give``, rest and
  sleep; its trigger events) and the builder methods;
- ``nodes``: its statement nodes (frozen; ``blocks()`` and ``ends_scene()`` for the core's walk);
- ``resolve``: the checks of its statements, run in the core's walk where each is met
  (``statement_resolvers``); ``repeats``: T-4.12's loop warning (``resolve_flow``, DQ5001);
- ``statements``: its statements' handlers and PC actions; ``battles``: its battle glue;
  its rules outside battles are ``deckquest.engine.adventure``.

Its declarations (``PcDecl``, ``NpcDecl``, ``CardDecl``) and their checks, and the
conditions about PCs and NPCs, are still the core's (docs/development.md, "What of MTG-TRPG
is still in the core").
"""

from __future__ import annotations

from deckquest.i18n import _
from deckquest.systems import CodeRange, GameSystem, register
from deckquest.systems.trpg import declarations, language, nodes, resolve, statements
from deckquest.systems.trpg.repeats import identical_check_loops


@register
class Trpg(GameSystem):
    name = "trpg"
    title = "MTG-TRPG"
    rules_document = "trpg.md"
    editions = ("2019", "2014")
    codes = CodeRange(5000, 5999)
    grammar = language.GRAMMAR
    builder = language.Builder

    pc_actions = statements.PC_ACTIONS
    battle_step = staticmethod(statements.battle_step)
    legal_pc_actions = staticmethod(statements.legal_pc_actions)
    allows_pc_action = staticmethod(statements.allows_pc_action)

    @classmethod
    def statement_handlers(cls):
        return {
            nodes.Check: statements._check, nodes.Recruit: statements._check, nodes.Encounter: statements._encounter,
            nodes.TakeControl: statements._take_control, nodes.Fight: statements._fight, nodes.Battle: statements._battle, nodes.LoseLife: statements._lose_life,
            nodes.GainLife: statements._gain_life, nodes.Draw: statements._draw, nodes.Give: statements._give,
            nodes.Rest: statements._party_rests, nodes.Sleep: statements._party_sleeps,
        }

    @classmethod
    def resolve_declarations(cls, context):
        declarations.resolve_declarations(context)

    @classmethod
    def resolve_event(cls, walk, event):
        return resolve.event(walk, event)

    @classmethod
    def event_binds(cls, kind):
        return resolve.event_binds(kind)

    @classmethod
    def statement_resolvers(cls):
        return resolve.RESOLVERS

    @classmethod
    def resolve_flow(cls, context):
        """DQ5001: a loop of scenes that can only bring a check back the very same (T-4.12)."""
        for check, loop in identical_check_loops(context.scenes, context.triggers, context.gotos):
            context.warn("DQ5001", _("the loop {loop} changes no flag, counter, NPC or item, so this check can only "
                                     "come back the very same: T-4.12 refuses it then (it fails without revealing a card)",
                                     loop=" -> ".join(f"`{s}`" for s in loop)), check.span,
                         _("change something on the way round (for example `attempts += 1`), or lead elsewhere "
                           "after a failure"))
