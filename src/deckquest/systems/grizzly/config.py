"""What a Grizzly Bears' Adventure game is set up with: the ``GrizzlyConfig``.

The scenario language builds one from a script's header, ``library``, ``squares`` and
``seat`` lines; tests and the library API build one directly. It is immutable: a game's
changing state lives in ``state.GrizzlyState``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from deckquest.cards.model import Card
from deckquest.systems import Option, Reading

SEED = "seeds/004_5e53e28202cc3da8.txt"

# ☆ options (off unless a script says ``option NAME``) and readings G-R1..G-R8 (``reading NAME
# VALUE``; the first value is the default, the digest's first reading), with the seed lines.
DUNGEON = "dungeon"  # G-16
DRAGON_BOUNTY = "dragon bounty"  # G-17


def _source(line: int) -> str:
    return f"{SEED}:{line}"


OPTION_LIST = (
    Option("dungeon", "G-16", _source(127),
           "☆ the lap bonus may venture into the dungeon instead of taking a +1/+1 counter"),
    Option("dragon bounty", "G-17", _source(141), "☆ killing a Dragon gives a Treasure"),
)
READING_LIST = (
    Reading("home", ("corner", "square"), "G-R1", _source(25),
            "home is the corner before the player's first square (a lap passes it), or that square"),
    Reading("survivor", ("stays", "leaves"), "G-R2", _source(89),
            "a flipped creature that survives stays face up on its square, or goes to the graveyard"),
    Reading("lands", ("graveyard", "reflip"), "G-R3", _source(63),
            "a flipped land goes to the graveyard and the square is refilled; reflip: the new card is "
            "flipped at once (a mana value 0 dash moves 0 either way)"),
    Reading("spells", ("listed", "all"), "G-R4", _source(43),
            "from hand: enchantments, artifacts and sorceries only, or every spell at sorcery speed"),
    Reading("exile", ("stays", "returns"), "G-R5", _source(173),
            "under the expert rules exiled cards stay exiled, or still return at end of turn (G-20)"),
    Reading("bounty", ("turn", "shared"), "G-R6", _source(117),
            "the Dragon Treasure is the turn player's kill bonus, or a co-op partner gets one too"),
    Reading("counter", ("full", "power"), "G-R7", _source(85),
            "「+1カウンター」 is a +1/+1 counter, or a +1/+0 counter"),
    Reading("dungeon", ("phandelver", "madmage"), "G-R8", _source(127),
            "the dungeon: Lost Mine of Phandelver or Dungeon of the Mad Mage, read through G-26"),
)
OPTIONS = tuple(option.name for option in OPTION_LIST)
READINGS: dict[str, tuple[str, ...]] = {reading.name: reading.values for reading in READING_LIST}

WIN_TREASURES = 5  # G-1
HAND_SIZE = 3  # G-3 opening hand, G-5 cleanup
SQUARES_PER_PLAYER = 3  # G-3
LIBRARY_SIZE = 60  # G-2
EXPERT_LIBRARY_SIZE = 100  # G-27
X_VALUE = 5  # G-26 leaves X unbounded (mana is infinite); the engine reads X as 5
TURN_LIMIT = 200  # rounds: a game that has not ended by then is stopped and reported


@dataclass(frozen=True, slots=True)
class Rules:
    """A config's options and readings as flags, worked out once: the engine reads them at
    every step."""

    corner: bool  # G-R1
    survivor_leaves: bool  # G-R2
    lands_reflip: bool  # G-R3
    spells_all: bool  # G-R4
    exile_returns: bool  # G-20, off under G-27 with G-R5 stays
    bounty_shared: bool  # G-R6
    counter_toughness: int  # G-R7: what a counter adds to toughness
    dungeon: bool  # ☆ G-16
    dragon_bounty: bool  # ☆ G-17
    expert: bool  # G-27
    squares_per_player: int  # G-3
    loop: int  # squares in the loop


@dataclass(frozen=True)
class PolicyRule:
    """One line of a seat's policy, tried in order before the seat's agent decides.

    ``action``: ``dash`` (with ``threshold``: dash a card of mana value >= threshold when the
    hand has one), ``roll``, ``offer co-op`` (``threshold``: only if the square's face-up
    creature has power >= threshold; 0 = always), ``no co-op``, ``accept co-op``,
    ``refuse co-op``, ``venture`` / ``take counter`` (the lap bonus), ``cast flipped`` /
    ``discard flipped``. ``text`` is the rule as written (for transcripts and errors)."""

    action: str
    threshold: int = 0
    text: str = ""


POLICY_ACTIONS = (
    "dash", "roll", "offer co-op", "no co-op", "accept co-op", "refuse co-op",
    "venture", "take counter", "cast flipped", "discard flipped",
)


@dataclass(frozen=True)
class Seat:
    """A player: id, display name, its agent's name (None: the run's agent) and policy."""

    id: str
    name: str
    agent: str | None = None
    policy: tuple[PolicyRule, ...] = ()


@dataclass(frozen=True)
class GrizzlyConfig:
    """A game's fixed set-up (G-1 to G-3, G-27, the ☆ options and the readings)."""

    seats: tuple[Seat, ...]
    library: tuple[Card, ...]
    treasures_to_win: int = WIN_TREASURES
    squares_per_player: int = SQUARES_PER_PLAYER
    options: frozenset[str] = frozenset()
    readings: Mapping[str, str] = field(default_factory=dict)
    expert: bool = False
    hand_size: int = HAND_SIZE
    turn_limit: int = TURN_LIMIT

    def reading(self, name: str) -> str:
        return self.readings.get(name, READINGS[name][0])

    @cached_property
    def rules(self) -> "Rules":
        return Rules(
            corner=self.reading("home") == "corner",
            survivor_leaves=self.reading("survivor") == "leaves",
            lands_reflip=self.reading("lands") == "reflip",
            spells_all=self.reading("spells") == "all",
            exile_returns=not self.expert or self.reading("exile") == "returns",
            bounty_shared=self.reading("bounty") == "shared",
            counter_toughness=0 if self.reading("counter") == "power" else 1,
            dungeon=DUNGEON in self.options,
            dragon_bounty=DRAGON_BOUNTY in self.options,
            expert=self.expert,
            squares_per_player=self.squares_per_player,
            loop=self.loop_length,
        )

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def loop_length(self) -> int:
        return self.squares_per_player * len(self.seats)

    def check(self) -> None:
        """Programming errors in a hand-built config (a script's are caught with a span by
        the resolver before it builds one)."""
        for name, value in self.readings.items():
            if name not in READINGS or value not in READINGS[name]:
                raise ValueError(f"unknown reading {name} {value}")
        unknown = self.options - set(OPTIONS)
        if unknown:
            raise ValueError(f"unknown option {sorted(unknown)[0]}")
        if len(self.seats) < 1 or self.squares_per_player < 1 or self.treasures_to_win < 1:
            raise ValueError("a game needs a seat, a square per player and a Treasure to win")
