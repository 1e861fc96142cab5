"""A game in progress as plain JSON data, for a saved session (``deckquest run --save``).

The set-up (config, card table, dungeon) is not saved: it is the script's, rebuilt from the
compiled scenario on resume, so card ids mean the same cards. What changes is saved: every
zone, each bear, the queue of rule steps still to run and the question waiting for an
answer. Those steps hold tuples, frozensets and the effect vocabulary's frozen dataclasses
(an ability being resolved); they are written with a small tag for each kind so they come
back equal.

A save comes from anyone, so ``load_game`` plays nothing it has not checked (``check_game``,
codes DQ9010-DQ9014 of ``deckquest.systems.game_saves``): the game's state schema
(``game.schema.json``, with the bounds of the script's set-up), then what a schema cannot
say: every card of the library in exactly one place, each step's ability or effect one of
its card's, and the decision waiting the one its step asks.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterator

from deckquest.cards import oracle
from deckquest.i18n import _
from deckquest.systems.game_saves import (GAME_CARDS, GAME_STEP, GAME_VERSION, GameDataError,
                                          check_schema)
from deckquest.systems.grizzly.config import GrizzlyConfig
from deckquest.systems.grizzly.cards import CardTable
from deckquest.systems.grizzly.dungeon import DUNGEONS, Room
from deckquest.systems.grizzly.effects import candidates, room_effect, target_phrases
from deckquest.systems.grizzly.state import WAITING_STEPS, GrizzlyState

Path = tuple[str | int, ...]  # a field's JSON path in the game's data

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
    """The game a save holds, on the set-up the scenario gives (``config_of``), checked
    (``check_game``) before and after it is rebuilt: a GameDataError names the field at fault."""
    check_game(config, table, data)
    game = GrizzlyState.__new__(GrizzlyState)
    game.config, game.rules, game.table, game.facts = config, config.rules, table, table.facts
    game.seat_ids = tuple(seat.id for seat in config.seats)
    game.rooms = DUNGEONS[config.reading("dungeon")][1]
    for name in CHANGING:
        setattr(game, name, decode(data[name]))
    game.anthems_seen = None
    _check_played(game, data)
    return game


# ---------------------------------------------------------------- checking a saved game


@lru_cache(maxsize=1)
def _schema() -> str:
    return resources.files("deckquest.systems.grizzly").joinpath("game.schema.json").read_text("utf-8")


def game_schema(config: GrizzlyConfig, table: CardTable) -> dict[str, Any]:
    """The game's state schema (game.schema.json) with the bounds of this set-up: its seats,
    loop, card table, dungeon, Treasures to win and turn limit."""
    schema: dict[str, Any] = json.loads(_schema())
    seats, loop, cards = config.players, config.loop_length, len(table.cards)
    rooms = len(DUNGEONS[config.reading("dungeon")][1])
    bounds = {"seat": (0, seats - 1), "seat_or_none": (-1, seats - 1), "seat_or_chance": (-1, seats - 1),
              "square": (0, loop - 1), "square_or_none": (-1, loop - 1), "card": (0, cards - 1),
              "card_or_none": (-1, cards - 1), "position": (0, loop if config.rules.corner else loop - 1),
              "treasures": (0, config.treasures_to_win), "round": (1, config.turn_limit), "room": (-1, rooms - 1)}
    lengths = {"seats": seats, "loop": loop, "graveyards": seats if config.expert else 1}
    definitions = schema["$defs"]
    for name, (low, high) in bounds.items():
        definitions[name].update(minimum=low, maximum=high)
    for name, length in lengths.items():
        definitions[name].update(minItems=length, maxItems=length)
    return schema


def check_game(config: GrizzlyConfig, table: CardTable, data: dict[str, Any]) -> None:
    """A saved game's data, before it is rebuilt: its version, the state schema, then every
    card of the library in exactly one place (DQ9012), the zones' kinds of card and the queue
    of steps (DQ9013). Raises GameDataError."""
    if data.get("version") != VERSION:
        raise GameDataError(GAME_VERSION, ("version",), _("a Grizzly game of save version {version}, not {VERSION}",
                                                          version=str(data.get("version"))[:20], VERSION=VERSION))
    check_schema(data, game_schema(config, table))
    _check_cards(table, data)
    _check_zones(table, data)
    _check_steps(config, table, data)


def _places(data: dict[str, Any]) -> Iterator[tuple[Path, int]]:
    """Where each card is: the zones, the squares, and a card on its way (a spell being cast,
    one settling, the cards a scry looks at), each with its JSON path."""
    for zone in ("library", "exile"):
        yield from (((zone, i), card) for i, card in enumerate(data[zone]))
    for zone in ("graveyards", "hands", "auras", "equipped", "perms", "allies"):
        for seat, cards in enumerate(data[zone]):
            yield from (((zone, seat, i), card) for i, card in enumerate(cards))
    yield from ((("sq_card", square), card) for square, card in enumerate(data["sq_card"]) if card >= 0)
    tasks = [(("tasks", i), task) for i, task in enumerate(data["tasks"])]
    for path, task in tasks + ([(("waiting",), data["waiting"])] if data["waiting"] is not None else []):
        name, *args = task["tuple"]
        if name in ("spell", "settle"):
            yield (*path, "tuple", 2), args[1]
        elif name == "scry card":
            for part in (2, 3, 4):
                cards = args[part - 1]["tuple"]
                yield from (((*path, "tuple", part, "tuple", i), card) for i, card in enumerate(cards))


def _check_cards(table: CardTable, data: dict[str, Any]) -> None:
    """DQ9012: the cards in play are the library's, each copy in exactly one place (in an
    ended game, at most one)."""
    library = Counter(table.library)
    seen: Counter[int] = Counter()
    for path, card in _places(data):
        seen[card] += 1
        if seen[card] > library[card]:
            raise GameDataError(GAME_CARDS, path, _(
                "card {card} ({name}) is in more places than the library has copies ({copies})",
                card=card, name=table.name(card), copies=library[card]))
    if data["result"] is not None:
        return  # an ended game dropped its steps, a spell on its way among them (GrizzlyState.finish)
    for card, copies in library.items():
        if seen[card] < copies:
            raise GameDataError(GAME_CARDS, ("library",), _("{missing} of the library's {copies} {name} are nowhere",
                                                            missing=copies - seen[card], copies=copies,
                                                            name=table.name(card)))


def _check_zones(table: CardTable, data: dict[str, Any]) -> None:
    """DQ9012: auras, equipment and allies are cards of their kind; a face-up square holds a
    creature (G-R2)."""
    facts = table.facts
    kinds: dict[str, Callable[[int], bool]] = {"auras": lambda card: facts[card].is_aura, "equipped": lambda card: facts[card].is_equipment,
             "allies": lambda card: facts[card].is_creature}
    for zone, fits in kinds.items():
        for seat, cards in enumerate(data[zone]):
            for i, card in enumerate(cards):
                if not fits(card):
                    raise GameDataError(GAME_CARDS, (zone, seat, i), _wrong_kind(zone, table.name(card)))
    for square, up in enumerate(data["sq_up"]):
        card = data["sq_card"][square]
        if up and (card < 0 or not facts[card].is_creature):
            raise GameDataError(GAME_CARDS, ("sq_up", square), _("a face-up square holds no creature"))


def _wrong_kind(zone: str, name: str) -> str:
    if zone == "auras":
        return _("{name} on a bear is no aura", name=name)
    if zone == "equipped":
        return _("{name} equipped is no equipment", name=name)
    return _("{name} among the allies is no creature", name=name)


def _check_steps(config: GrizzlyConfig, table: CardTable, data: dict[str, Any]) -> None:
    """DQ9013: a game still going waits for an answer with its turn's steps queued, the last
    the passing to the next seat; an ended one waits for nothing (its steps are never run);
    and each step is one the game could hold (``_check_step``)."""
    going = data["result"] is None
    if going != (data["waiting"] is not None) or going != (data["pending"] is not None):
        raise GameDataError(GAME_STEP, ("waiting",), _("a game still going waits for an answer; an ended one for none"))
    if going and data["tasks"][-1:] != [{"tuple": ["next_seat"]}]:
        raise GameDataError(GAME_STEP, ("tasks",), _("the steps of a turn end with passing to the next seat"))
    if going and data["waiting"]["tuple"][0] not in WAITING_STEPS:
        raise GameDataError(GAME_STEP, ("waiting",), _("the step `{step}` asks nobody", step=data["waiting"]["tuple"][0]))
    steps: list[tuple[Path, Any]] = [(("tasks", i), task) for i, task in enumerate(data["tasks"])]
    if going:
        steps.append((("waiting",), data["waiting"]))
    vocabulary = _vocabulary(config, table)
    rooms = DUNGEONS[config.reading("dungeon")][1]
    moves = {1, 2, 3, 4, 5, 6} | {facts.mana_value for facts in table.facts}
    for path, task in steps:
        _check_step(path, task["tuple"], vocabulary, rooms, moves, table)


def _check_step(path: Path, task: list[Any], vocabulary: dict[tuple[str, int], list[Any]], rooms: tuple[Room, ...],
                moves: set[int], table: CardTable) -> None:
    """One step, as saved: a move of a die's roll or a card's mana value; a room's step with
    its room's amount; an ability or effect of its own card (or a dungeon room's); targets
    chosen only by the effect that waits for the next one."""
    name, *args = task
    if name == "move" and args[0] not in moves:
        raise GameDataError(GAME_STEP, (*path, "tuple", 1),
                            _("a move of {steps}: neither a die's roll nor a card's mana value", steps=args[0]))
    if name in ("room draw", "room counter", "room mill") and args[1] not in {
            room.amount for room in rooms if f"room {room.effect}" == name}:
        raise GameDataError(GAME_STEP, (*path, "tuple", 2),
                            _("no room of the dungeon has `{step}` {amount}", step=name, amount=args[1]))
    if name in ("ability", "effect") and args[1] not in vocabulary.get((name, args[3]), ()):
        raise GameDataError(GAME_STEP, (*path, "tuple", 2), _not_its_own(name, args[3], table))
    if name == "effect" and (args[3] < 0) != (args[2] == {"tuple": ["room"]}):
        raise GameDataError(GAME_STEP, (*path, "tuple", 3),
                            _("a dungeon room's effect comes from the dungeon, a card's from its card"))
    if name == "effect" and args[4]["tuple"] and path != ("waiting",):
        raise GameDataError(GAME_STEP, (*path, "tuple", 5), _("targets are chosen only by the effect waiting for them"))


def _not_its_own(step: str, card: int, table: CardTable) -> str:
    if card < 0:
        return _("the effect is none of the dungeon rooms'")
    if step == "ability":
        return _("the ability is not one {name} has", name=table.name(card))
    return _("the effect is not one {name} has", name=table.name(card))


def _vocabulary(config: GrizzlyConfig, table: CardTable) -> dict[tuple[str, int], list[Any]]:
    """("ability" or "effect", card id) -> the saved form of each ability or effect of that
    card (card -1: the dungeon's rooms), to compare a saved step's against."""
    found: dict[tuple[str, int], list[Any]] = {}
    for card, facts in enumerate(table.facts):
        abilities = facts.enters + facts.attacks + facts.dies + facts.spell
        found[("ability", card)] = [encode(ability) for ability in abilities]
        found[("effect", card)] = [encode(effect) for ability in abilities
                                   for effect in ability.effects + tuple(e for mode in ability.modes for e in mode)]
    rooms = DUNGEONS[config.reading("dungeon")][1]
    found[("effect", -1)] = [encode(room_effect(room)) for room in rooms if room.effect == "weaken"]
    return found


def _check_played(game: GrizzlyState, data: dict[str, Any]) -> None:
    """DQ9013, on the rebuilt game: an ended game's result is what its end wrote; the targets
    an effect has chosen are ones it could choose; the decision waiting is the one its step
    asks (worked out again, ``GrizzlyState.asked_again``)."""
    if game.result is not None:
        expected = {"winner": game.result["winner"], "reason": game.result["reason"], "round": game.round,
                    "turns": game.turns, "treasures": dict(zip(game.seat_ids, game.treasures)), "record": game.record()}
        if game.result != expected or (expected["winner"] is not None and expected["winner"] not in game.seat_ids):
            raise GameDataError(GAME_STEP, ("result",), _("the result is not the one the game's end wrote"))
        return
    task = game.waiting
    assert task is not None  # _check_steps: a game still going waits
    if task[0] == "effect":
        _check_targets(game, task)
    if game.asked_again() != game.pending:
        raise GameDataError(GAME_STEP, ("pending",), _("the decision waiting is not the one its step `{step}` asks", step=task[0]))


def _check_targets(game: GrizzlyState, task: tuple[Any, ...]) -> None:
    """The targets a waiting effect has chosen: fewer than it names, each once, each one of
    the candidates for its phrase now (targets are chosen one after another, nothing between)."""
    controller, effect, source = task[1:4]
    chosen = task[5]
    wanted = target_phrases(effect)
    if len(chosen) >= max(len(wanted), 1):
        raise GameDataError(GAME_STEP, ("waiting", "tuple", 5), _("the effect has chosen all its targets and still waits"))
    for number, ref in enumerate(chosen):
        if ref in chosen[:number] or ref not in candidates(game, controller, wanted[number], source):
            raise GameDataError(GAME_STEP, ("waiting", "tuple", 5, "tuple", number), _("a target the effect cannot choose"))
