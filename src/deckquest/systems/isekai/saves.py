"""Checking an Isekai TCG duel a save holds (``state/game``) and an adventure's duel in
progress (``state/battle/sub_game``) before either is played on: the duel's state schema
(``duel.schema.json``, its cards set to the script's), then what a schema cannot say. Codes
DQ9010-DQ9013 (``deckquest.systems.game_saves``; docs/errors.md, "Saves")."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterator

from deckquest.engine.game import GameState
from deckquest.i18n import _
from deckquest.systems.game_saves import GAME_CARDS, GAME_RANGE, GAME_STEP, GameDataError, check_schema
from deckquest.systems.isekai.cards import EQUIPMENT, UNIT, CardSet, Deck
from deckquest.systems.isekai.duel import HAND_START, MANA_START, PILES
from deckquest.systems.isekai.language import IsekaiTable
from deckquest.systems.isekai.rules import Rules

if TYPE_CHECKING:
    from deckquest.dsl.scenario import Scenario

Path = tuple[str | int, ...]  # a field's JSON path in the duel's data
TRIGGER_KINDS = frozenset({"duelist_takes_damage", "reversal_activated", "unit_destroyed", "duelist_wins"})


@lru_cache(maxsize=1)
def _schema() -> str:
    return resources.files("deckquest.systems.isekai").joinpath("duel.schema.json").read_text("utf-8")


def duel_schema(cards: CardSet) -> dict[str, Any]:
    """The duel's state schema with the script's card ids."""
    schema: dict[str, Any] = json.loads(_schema())
    schema["$defs"]["card"]["enum"] = sorted(cards.cards)
    return schema


def check_duel(scenario: Scenario, data: Any) -> None:
    """A saved duel of ``scenario``: the schema; the rules its readings give (DQ9011); decks
    of the script, every card of both in exactly one place, units numbered once and of their
    kind (DQ9012); a declaration, further attack and targets that name what is there, and a
    duel not yet dealt whose cards are all still in its decks (DQ9013). Raises GameDataError."""
    table: IsekaiTable = scenario.system_table
    check_schema(data, duel_schema(table.cards))
    if data["rules"] != asdict(Rules.from_readings(scenario.readings)):
        raise GameDataError(GAME_RANGE, ("rules",), _("the duel's rules are not the ones the script's readings give"))
    _check_seats(scenario, data)
    _check_cards(table.cards, [table.decks[deck] for deck in data["decks"]], data)
    _check_units(table.cards, data)
    _check_flow(data)


def _check_seats(scenario: Scenario, data: dict[str, Any]) -> None:
    """DQ9011: a duel script's duel is between its duelists, with their decks; an adventure's
    between a PC with a deck of the script and a duelist of the script with its own."""
    table: IsekaiTable = scenario.system_table
    decks = {duelist.id: duelist.deck.id for duelist in table.duelists}
    seats = list(decks) if not scenario.scenes else [data["seats"][0], data["seats"][1]]
    if data["seats"] != seats or data["seats"][0] == data["seats"][1] or data["seats"][1] not in decks:
        raise GameDataError(GAME_RANGE, ("seats",), _("the duel's seats are not the script's duelists"))
    if data["decks"][1] != decks[data["seats"][1]] or (not scenario.scenes and data["decks"][0] != decks[seats[0]]):
        raise GameDataError(GAME_RANGE, ("decks",), _("a duelist's deck is not the one the script gives it"))
    if data["decks"][0] not in table.decks:
        raise GameDataError(GAME_RANGE, ("decks", 0), _("the script has no deck `{deck}`", deck=data["decks"][0][:100]))


def _places(data: dict[str, Any]) -> Iterator[tuple[Path, str]]:
    """Where each card of the duel is: both duelists' piles, their units and the equipment on
    them, and the cards played and waiting to resolve."""
    for seat, player in enumerate(data["players"]):
        for pile in PILES:
            yield from ((("players", seat, pile, i), card) for i, card in enumerate(player[pile]))
        for i, unit in enumerate(player["field"]):
            yield ("players", seat, "field", i, "card"), unit["card"]
            yield from ((("players", seat, "field", i, "gear", j, 0), gear[0]) for j, gear in enumerate(unit["gear"]))
    yield from ((("chain", i, 1), entry[1]) for i, entry in enumerate(data["chain"]))


def _check_cards(cards: CardSet, decks: list[Deck], data: dict[str, Any]) -> None:
    """DQ9012: the cards in the duel are its two decks' main and skill cards, each once; a duel
    not yet dealt (I-3) has them all in its decks."""
    dealt = Counter(card for deck in decks for card in deck.cards(deck.main) + deck.cards(deck.skills))
    seen: Counter[str] = Counter()
    for path, card in _places(data):
        seen[card] += 1
        if seen[card] > dealt[card]:
            raise GameDataError(GAME_CARDS, path, _("`{card}` is in more places than the decks have copies ({copies})",
                                                    card=card, copies=dealt[card]))
    for card, copies in dealt.items():
        if seen[card] < copies:
            raise GameDataError(GAME_CARDS, ("players",), _("{missing} of the decks' {copies} `{card}` are nowhere",
                                                            missing=copies - seen[card], copies=copies, card=card))
    if data["phase"] == "deal":
        for seat, (player, deck) in enumerate(zip(data["players"], decks)):
            if Counter(player["main"]) != Counter(deck.cards(deck.main)) or len(player["main"]) < MANA_START + max(HAND_START):
                raise GameDataError(GAME_CARDS, ("players", seat, "main"), _("a duel not yet dealt has its main deck whole"))


def _check_units(cards: CardSet, data: dict[str, Any]) -> None:
    """DQ9012: each unit is a unit card with a number of its own below ``next_uid``, on its
    owner's field; its equipment is equipment."""
    numbers: set[int] = set()
    for seat, player in enumerate(data["players"]):
        for i, unit in enumerate(player["field"]):
            path = ("players", seat, "field", i)
            if unit["uid"] in numbers or unit["uid"] >= data["next_uid"]:
                raise GameDataError(GAME_CARDS, (*path, "uid"), _("unit number {uid} is given twice or not yet given",
                                                                  uid=unit["uid"]))
            numbers.add(unit["uid"])
            if unit["owner"] != seat or cards[unit["card"]].kind != UNIT:
                raise GameDataError(GAME_CARDS, path, _("a unit on a field is its owner's unit card"))
            for j, (card, _from_skill) in enumerate(unit["gear"]):
                if cards[card].kind != EQUIPMENT:
                    raise GameDataError(GAME_CARDS, (*path, "gear", j, 0), _("`{card}` is no equipment", card=card))


def _check_flow(data: dict[str, Any]) -> None:
    """DQ9013: what waits names what is there: a further attack's unit on its seat's field,
    a player target a duelist; a duel not yet dealt holds nothing else."""
    fields = {unit["uid"]: seat for seat, player in enumerate(data["players"]) for unit in player["field"]}
    extra = data["extra"]
    if extra is not None and fields.get(extra[1]) != extra[0]:
        raise GameDataError(GAME_STEP, ("extra", 1), _("the further attack's unit is not on its seat's field"))
    for i, entry in enumerate(data["chain"]):
        target = entry[2]
        if target is not None and target[0] == "player" and target[1] not in data["seats"]:
            raise GameDataError(GAME_STEP, ("chain", i, 2, 1), _("a card waiting aims at no duelist of the duel"))
    busy = data["chain"] or data["declaration"] or extra or data["reveals"] or data["first"] >= 0
    if data["phase"] == "deal" and busy:
        raise GameDataError(GAME_STEP, ("phase",), _("a duel not yet dealt has nothing played"))


def check_progress(scenario: Scenario, data: Any, game: GameState) -> None:
    """An adventure's duel in progress (``DuelInProgress.to_data``) beside its duel: the PC's
    and the NPC's seats are the duel's, the NPC a duelist of the script, and the triggers it
    holds are the system's, each about a seat of the duel (DQ9013)."""
    seats = list(getattr(game, "seats", ()))
    if not isinstance(data, dict) or set(data) != {"hero", "npc", "fired"} or not isinstance(data["fired"], list):
        raise GameDataError(GAME_STEP, (), _("a duel in progress holds `hero`, `npc` and `fired`"))
    table: IsekaiTable = scenario.system_table
    duelists = {duelist.id for duelist in table.duelists}
    if [data["hero"], data["npc"]] != seats or data["npc"] not in duelists:
        raise GameDataError(GAME_STEP, ("hero",), _("the duel in progress is not between the duel's seats"))
    for i, fired in enumerate(data["fired"]):
        if not (isinstance(fired, list) and len(fired) == 3 and fired[0] in TRIGGER_KINDS and fired[1] in seats
                and fired[2] is None):
            raise GameDataError(GAME_STEP, ("fired", i), _("a trigger fired by the duel is one of its events, about a seat"))
