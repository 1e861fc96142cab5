"""A game in progress as plain JSON data, for a saved session (``deckquest run --save``).

The set-up (config, card table, dungeon) is not saved: it is the script's, rebuilt from the
compiled scenario on resume, so card ids mean the same cards. What changes is saved: every
zone, each bear, the queue of rule steps still to run and the question waiting for an
answer. Those steps hold tuples, frozensets and the effect vocabulary's frozen dataclasses
(an ability being resolved); they are written with a small tag for each kind so they come
back equal.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from deckquest.cards import oracle
from deckquest.errors import DeckquestError
from deckquest.systems.grizzly.config import GrizzlyConfig
from deckquest.systems.grizzly.cards import CardTable
from deckquest.systems.grizzly.dungeon import DUNGEONS
from deckquest.systems.grizzly.state import GrizzlyState

VERSION = 1
# The vocabulary's dataclasses a step can hold (cards.oracle), by name.
KINDS = {cls.__name__: cls for cls in (oracle.Ability, oracle.Effect, oracle.Target, oracle.Amount,
                                       oracle.Condition, oracle.Token, oracle.Cost)}
CHANGING = ("library", "graveyards", "exile", "sq_card", "sq_up", "sq_damage", "sq_counters", "pos", "hands",
            "treasures", "counters", "damage", "auras", "equipped", "perms", "allies", "room", "skips", "pumps",
            "active", "round", "turns", "dashed", "cast_this_turn", "partner", "fight_square", "last_player",
            "tasks", "waiting", "pending", "result", "tally", "flips", "deaths")


def encode(value: Any) -> Any:
    """JSON data for a step's value: lists stay lists; tuples, frozensets, int-keyed dicts and
    the vocabulary's dataclasses are tagged."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"frozenset": sorted(encode(v) for v in value)}
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and type(value).__name__ in KINDS:
        return {"data": type(value).__name__,
                "fields": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise TypeError(f"a Grizzly game cannot save a {type(value).__name__}")


def decode(data: Any) -> Any:
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "tuple" in data:
        return tuple(decode(v) for v in data["tuple"])
    if "frozenset" in data:
        return frozenset(decode(v) for v in data["frozenset"])
    if "dict" in data:
        return {decode(k): decode(v) for k, v in data["dict"]}
    return KINDS[data["data"]](**{name: decode(v) for name, v in data["fields"].items()})


def game_data(game: GrizzlyState) -> dict[str, Any]:
    return {"version": VERSION, **{name: encode(getattr(game, name)) for name in CHANGING}}


def load_game(config: GrizzlyConfig, table: CardTable, data: dict[str, Any]) -> GrizzlyState:
    """The game a save holds, on the set-up the scenario gives (``config_of``)."""
    if data.get("version") != VERSION:
        raise DeckquestError(f"this save holds a Grizzly game of save version {data.get('version')}, "
                             f"not {VERSION}", hint="finish that game with the deckquest that saved it")
    game = GrizzlyState.__new__(GrizzlyState)
    game.config, game.rules, game.table, game.facts = config, config.rules, table, table.facts
    game.seat_ids = tuple(seat.id for seat in config.seats)
    game.rooms = DUNGEONS[config.reading("dungeon")][1]
    for name in CHANGING:
        setattr(game, name, decode(data[name]))
    game.anthems_seen = None
    return game
