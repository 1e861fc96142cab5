"""The Isekai TCG "Mana Card" (../shared/rules/isekai-tcg.md, I-1 to I-19, readings I-R1 to
I-R8, seed seeds/002_bcf54f510b6a7297.txt): a duel of action rights between two duelists
with decks of the author's own cards.

- ``cards``: the card model and its effect vocabulary; ``decks``: I-1 and I-2 as diagnostics;
- ``rules``: the readings as options; ``duel``: the engine (``deckquest.engine.game``'s shape);
- ``agents``: random, greedy and human duelists.
"""

from __future__ import annotations

from deckquest.systems import CodeRange, GameSystem, register
from deckquest.systems.isekai.rules import READINGS


@register
class IsekaiSystem(GameSystem):
    """The registered system: its readings (first value the default) and codes DQ4000-4999."""

    name = "isekai"
    title = 'Isekai TCG "Mana Card"'
    rules_document = "isekai-tcg.md"
    editions = ("2019",)
    readings = READINGS
    codes = CodeRange(4000, 4999)
