"""Grizzly Bears' Adventure (../shared/rules/grizzly-bears.md, G-1 to G-27): the system.

Each player is a Grizzly Bears walking a loop of face-down Magic cards, flipping them,
fighting what it flips, and collecting Treasures. ``GrizzlyConfig`` sets a game up,
``GrizzlyState.new`` starts one (``deckquest.engine.game``'s one shape), ``agents`` answer
its decisions. docs/grizzly.md is the host's guide.
"""

from __future__ import annotations

from deckquest.systems import CodeRange, GameSystem, register
from deckquest.systems.grizzly.config import OPTION_LIST, READING_LIST, GrizzlyConfig, PolicyRule, Seat
from deckquest.systems.grizzly.state import GrizzlyState

__all__ = ["Grizzly", "GrizzlyConfig", "GrizzlyState", "PolicyRule", "Seat"]


@register
class Grizzly(GameSystem):
    name = "grizzly"
    title = "Grizzly Bears' Adventure (Forgotten Realms edition)"
    rules_document = "grizzly-bears.md"
    editions = ("1.0",)
    codes = CodeRange(2000, 2999)
    options = OPTION_LIST
    readings = READING_LIST
