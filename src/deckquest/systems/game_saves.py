"""Checking a whole game a save holds, before it is played on (docs/saves.md).

A save comes from anyone: its ``state/game`` (``GameSystem.game_data``) is checked by the
system that wrote it, in ``GameSystem.load_game``, against that game's state schema (a JSON
Schema shipped in the system's package, with the bounds of the script's set-up filled in)
and then against what JSON Schema cannot say (each card in one place, a card id the table
has, a decision its step can ask). A fault is a ``GameDataError``: a code of DQ9010-DQ9014
and the JSON path of the field at fault, which the runtime places in the save file.
"""

from __future__ import annotations

from typing import Any, Sequence

from deckquest.errors import DeckquestError, Span
from deckquest.i18n import _

GAME_SHAPE = "DQ9010"  # a field missing, unknown or of the wrong type
GAME_RANGE = "DQ9011"  # a number out of its range: a seat, a square, a card id, a count, a list's length
GAME_CARDS = "DQ9012"  # the cards in play are not the deck's: one in two places, or missing
GAME_STEP = "DQ9013"  # a rule step or a waiting decision the game cannot hold
GAME_VERSION = "DQ9014"  # a game saved in another version of its format

#: JSON Schema's keywords whose failure is a number or a length out of range, not a shape.
_RANGE_KEYWORDS = frozenset({"minimum", "maximum", "minItems", "maxItems"})


class GameDataError(DeckquestError):
    """A saved game its system refuses: ``code``, the JSON ``path`` of the field at fault and
    ``problem``, what is wrong there. ``under`` places the path in the save, ``at`` the error
    in the save file."""

    def __init__(self, code: str, path: Sequence[str | int], problem: str, span: Span | None = None):
        self.path = tuple(path)
        self.problem = problem
        where = "/".join(str(part) for part in self.path) or "(top)"
        super().__init__(_("the save is damaged at `{where}`: {problem}", where=where[:200], problem=problem),
                         span, code=code)

    def under(self, *root: str) -> GameDataError:
        """The same fault, its path from the top of the save (``state``, ``game``, ...)."""
        return GameDataError(self.code, (*root, *self.path), self.problem, self.span)

    def at(self, span: Span) -> GameDataError:
        return GameDataError(self.code, self.path, self.problem, span)


def check_schema(data: Any, schema: dict[str, Any]) -> None:
    """``data`` against ``schema`` (draft 2020-12): the most relevant fault, if any, as a
    GameDataError at its path (a number or length out of range: DQ9011; else DQ9010)."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    try:
        fault = best_match(Draft202012Validator(schema).iter_errors(data))
    except RecursionError:
        raise GameDataError(GAME_SHAPE, (), _("nested too deeply")) from None
    if fault is not None:
        code = GAME_RANGE if fault.validator in _RANGE_KEYWORDS else GAME_SHAPE
        raise GameDataError(code, tuple(fault.absolute_path), fault.message[:200])
