"""The party: who plays, with which deck and which critical cards (T-1.1, T-4.7).

A scenario brings pre-generated PCs; a party file (YAML, checked against
``party.schema.json``) replaces them with the table's own characters::

    party:
      - id: alice                 # the id a script uses: `check … by alice`, `{alice.life}`
        name: Alice the Ranger
        deck: decks/mono_green.txt   # relative to the party file
        critical:
          - card: Forest
            copies: 3

Either way the result is a list of ``PartyMember``: a card table read once, so that the
many runs of a simulation only shuffle it (``deckquest.engine.pc.create_pc``).

A party file may come from a stranger (beside a shared script, or named by a save), so its
deck paths follow the rule of a loose script's references, given by the caller as
``locate`` (``deckquest.packs.store.resolve_script_reference``: inside the party file's
pack, or its own folder, or an installed pack): ``deck: /etc/passwd`` is refused. A file
with no ``party:`` line is refused before it is parsed, without quoting it, so that naming
any file as a party file (``--party``, a save's ``party``) shows none of its contents.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from deckquest.i18n import _
from deckquest.cards.model import Card
from deckquest.dsl.locate import local_reference
from deckquest.engine.pc import designate_critical, required_critical_count
from deckquest.errors import DeckquestError, Span, did_you_mean
from deckquest.yamlfile import dotted, key_span, load_yaml, read_text, source_line, value_span

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

    from deckquest.cards.database import CardDatabase
    from deckquest.cards.decklist import Deck
    from deckquest.dsl.scenario import Scenario

_Read = TypeVar("_Read")

MAX_PARTY_BYTES = 64 * 1024

UNREADABLE_PARTY = "DQ9020"
NOT_A_PARTY_FILE = "DQ9021"
INVALID_PARTY = "DQ9022"
DUPLICATE_ID = "DQ9023"
DECK_OUTSIDE = "DQ9024"
NO_DECK_FILE = "DQ9025"
CRITICAL_CARDS = "DQ9026"

Locate = Callable[[str, Path], Path]
"""Where a deck reference of a party file points: (reference, party file) -> path, raising
DeckquestError for one that leaves the party file's pack or folder."""

MAX_QUOTED = 200
"""The most characters of a party file's line an error quotes (the file may be one long line)."""
_PARTY_KEY = re.compile(r"^\{?\s*[\"']?party[\"']?\s*:", re.M)


@dataclass(frozen=True)
class PartyMember:
    """One PC before play: its card table and critical card ids (T-4.7)."""

    id: str
    name: str
    cards: tuple[Card, ...]
    critical_cards: frozenset[int]
    span: Span


def party_from_scenario(scenario: Scenario) -> list[PartyMember]:
    """The scenario's pre-generated PCs, in declaration order."""
    members = []
    for pc in scenario.pcs.values():
        if pc.deck is None:
            raise DeckquestError(_("PC `{id}` has no deck", id=pc.id), pc.decl.span,
                                 hint=_("add a line `deck \"decks/NAME.txt\"` to the PC"))
        criticals = [(name, copies, pc.decl.span) for name, copies in pc.criticals]
        members.append(_member(pc.id, pc.name, pc.deck, criticals, pc.decl.span,
                               counted=str(scenario.rules) == "2019"))
    return members


def _member(pc_id: str, name: str, deck: Deck, criticals: list[tuple[str, int, Span]], span: Span,
            counted: bool = True) -> PartyMember:
    """Designate the critical cards (T-4.7): exactly 3, or 5 for a Commander deck. With
    `counted` False (a `rules 2014` scenario: the 2014 rules have no critical cards, T-5) any
    number will do; they count at their printed mana value."""
    cards = tuple(deck.main_cards())
    chosen: set[int] = set()
    for card_name, copies, where in criticals:
        try:
            ids = designate_critical(cards, card_name, copies)
        except ValueError as error:
            raise DeckquestError(str(error), where, code=CRITICAL_CARDS) from None
        chosen |= ids
    wanted = required_critical_count(deck.is_commander)
    if counted and len(chosen) != wanted:
        raise DeckquestError(
            _("{name} has {chosen} critical cards; T-4.7 asks for exactly {wanted}", name=name, chosen=len(chosen), wanted=wanted), span,
            hint=_("name the critical cards with their copies, e.g. Forest x3"), code=CRITICAL_CARDS,
        )
    return PartyMember(pc_id, name, cards, frozenset(chosen), span)


# ---------------------------------------------------------------- party files


@lru_cache(maxsize=1)
def party_schema() -> dict[str, Any]:
    text = resources.files("deckquest.runtime").joinpath("party.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def load_party(path: str | Path, db: CardDatabase | None = None, *, locate: Locate = local_reference) -> list[PartyMember]:
    """Read and check a party file; every error names file:line:col of the YAML node.

    ``locate`` resolves each deck reference under the caller's path rule (see the module
    docstring): by default inside the party file's own pack or folder
    (``deckquest.dsl.locate.local_reference``); the commands pass ``deckquest.packs.store
    .resolve_script_reference``, which also knows installed packs.
    """
    from deckquest.cards.decklist import load_deck

    path = Path(path)
    display = str(path)
    text = _coded(lambda: read_text(path, display, MAX_PARTY_BYTES), UNREADABLE_PARTY)
    if not _PARTY_KEY.search(text):
        raise DeckquestError(_("{display} is not a party file: it has no `party:` line", display=display), Span(display),
                             _("a party file starts with `party:` and one `- id: …` entry per PC; the file's lines are not shown"), code=NOT_A_PARTY_FILE)
    data = _coded(lambda: load_yaml(text, display), INVALID_PARTY, text)
    _validate(data, display, text)
    members = []
    seen: set[str] = set()
    for index, entry in enumerate(data["party"]):
        where = value_span(data, ["party", index], display)
        if entry["id"] in seen:
            raise DeckquestError(_("two party members have the id `{entry}`", entry=entry['id']),
                                 value_span(data, ["party", index, "id"], display),
                                 source_line=_quote(text, where.line), code=DUPLICATE_ID)
        seen.add(entry["id"])
        where_deck = value_span(data, ["party", index, "deck"], display)
        try:
            deck_path = locate(str(entry["deck"]), path)
        except DeckquestError as problem:
            raise DeckquestError(_("party deck: {message}", message=problem.message), where_deck,
                                 hint=_("a party file's decks are in its own folder (or its pack), like a script's"),
                                 source_line=_quote(text, where_deck.line), code=DECK_OUTSIDE) from None
        if not deck_path.exists():  # anything else there is for the deck list reader to refuse
            raise DeckquestError(_("there is no deck file `{entry}`", entry=entry['deck']), where_deck,
                                 hint=_("deck paths are relative to the party file's folder, {parent}", parent=path.parent),
                                 source_line=_quote(text, where_deck.line), code=NO_DECK_FILE)
        deck = load_deck(deck_path, db)
        criticals = [
            (str(item["card"]), int(item.get("copies", 1)),
             value_span(data, ["party", index, "critical", number], display))
            for number, item in enumerate(entry["critical"])
        ]
        members.append(_member(str(entry["id"]), str(entry["name"]), deck, criticals, where))
    return members


def _validate(data: Any, display: str, text: str) -> None:
    """The first schema error (in document order) as a DeckquestError at its YAML node."""
    from jsonschema import Draft202012Validator

    if not isinstance(data, dict):
        raise DeckquestError(_("a party file is a mapping with a `party:` list"), Span(display, 1, 1),
                             hint=_("start the file with `party:` and one `- id: …` entry per PC"),
                             code=INVALID_PARTY)
    errors = list(Draft202012Validator(party_schema()).iter_errors(data))
    if not errors:
        return
    # A misspelt key also makes the right one missing: report the misspelling.
    misspelt = {tuple(e.absolute_path) for e in errors if e.validator == "additionalProperties"}
    errors = [e for e in errors if e.validator != "required" or tuple(e.absolute_path) not in misspelt]
    located = [(_error_span(error, data, display), error) for error in errors]
    located.sort(key=lambda pair: (pair[0].line, pair[0].col))
    span, error = located[0]
    message, hint = _describe(error)
    raise DeckquestError(message, span, hint, source_line=_quote(text, span.line), code=INVALID_PARTY)


def _coded(read: Callable[[], _Read], code: str, text: str | None = None) -> _Read:
    """The result of a shared YAML reader, its errors given this module's code and at most a
    short quote of the party file's `text` (none before the file is known to be text)."""
    try:
        return read()
    except DeckquestError as error:
        error.code = error.code or code
        span = error.span
        if error.source_line is not None:
            error.source_line = _shortened(error.source_line)
        elif span is not None and span.line > 0:  # the renderer would read the line from the file
            if text is None:
                error.message += f" (line {span.line})"
                error.span = Span(span.file)
            else:
                error.source_line = _quote(text, span.line)
        raise


def _quote(text: str, line: int) -> str | None:
    """Line `line` of the party file as an error quotes it: at most MAX_QUOTED characters."""
    quoted = source_line(text, line)
    return None if quoted is None else _shortened(quoted)


def _shortened(line: str) -> str:
    return line if len(line) <= MAX_QUOTED else line[:MAX_QUOTED] + " …"


def _describe(error: ValidationError) -> tuple[str, str | None]:
    path = list(error.absolute_path)
    where = dotted(path) or "the party file"
    if error.validator == "additionalProperties":
        known = list(error.schema.get("properties", {}))
        unknown = [key for key in error.instance if key not in known]
        return (f"unknown key `{unknown[0]}` in {where}",
                did_you_mean(str(unknown[0]), known) or f"allowed keys: {', '.join(known)}")
    if error.validator == "required":
        missing = error.message.split("'")[1]
        return f"missing key `{missing}` in {where}", None
    if error.validator == "type":
        return f"{where} must be of type {error.validator_value}", None
    if error.validator == "pattern":
        return f"`{error.instance}` is not a valid id ({where})", "an id is a word: letters, digits, _"
    return f"{where}: {error.message[:200]}", None


def _error_span(error: ValidationError, data: Any, display: str) -> Span:
    path = list(error.absolute_path)
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        unknown = [key for key in error.instance if key not in known]
        return key_span(data, path, unknown[0], display)
    return value_span(data, path, display)
