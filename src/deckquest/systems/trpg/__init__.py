"""MTG-TRPG (../shared/rules/, T-1 to T-8): the game deckquest was first built for.

A script without a ``system`` line is MTG-TRPG: ``rules 2019`` or ``rules 2014`` picks the
edition. Its statements' handlers and PC actions are in ``statements``, its battle glue in
``battles``, its rules outside battles in ``deckquest.engine.adventure``. Its grammar and
resolver checks are still the core's (docs/development.md, "The seam").
"""

from __future__ import annotations

from deckquest.dsl import ast
from deckquest.systems import CodeRange, GameSystem, register
from deckquest.systems.trpg import statements


@register
class Trpg(GameSystem):
    name = "trpg"
    title = "MTG-TRPG"
    rules_document = "trpg.md"
    editions = ("2019", "2014")
    codes = CodeRange(5000, 5999)

    pc_actions = statements.PC_ACTIONS
    battle_step = staticmethod(statements.battle_step)
    legal_pc_actions = staticmethod(statements.legal_pc_actions)
    allows_pc_action = staticmethod(statements.allows_pc_action)

    @classmethod
    def statement_handlers(cls):
        return {
            ast.Check: statements._check, ast.Recruit: statements._check, ast.Encounter: statements._encounter,
            ast.TakeControl: statements._take_control, ast.Fight: statements._fight, ast.Battle: statements._battle, ast.LoseLife: statements._lose_life,
            ast.GainLife: statements._gain_life, ast.Draw: statements._draw, ast.Give: statements._give,
            ast.Rest: statements._party_rests, ast.Sleep: statements._party_sleeps,
        }
