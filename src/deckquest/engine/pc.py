"""A player character: one MTG deck (T-1.1) as plain, cheaply copied data.

Zones hold physical card ids: indexes into the PC's card table ``cards``. The
library is a list whose index 0 is the top card. Every action here follows the
adventure-part rules of section 2 and the state changes of section 7 of the
rules digest (`../shared/rules/trpg.md`, mapped in docs/rules.md); none of them prints, and all
randomness comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Final, Sequence, TypeVar

from deckquest.cards.database import normalize_name
from deckquest.cards.model import Card
from deckquest.engine.permanents import Permanent
from deckquest.i18n import _

STARTING_LIFE: Final = 20  # T-1.2
OPENING_HAND: Final = 7  # T-1.2, T-2.8
MAX_HAND_SIZE: Final = 7  # T-2.4
CRITICAL_COUNT: Final = 3  # T-4.7
CRITICAL_COUNT_COMMANDER: Final = 5  # T-4.7

OK: Final = "ok"
DYING: Final = "dying"  # T-7.1: life 0, out of combat, still conscious
UNCONSCIOUS: Final = "unconscious"  # T-7.2: drew from an empty library
DEAD: Final = "dead"  # T-7.4
ABLE: Final = frozenset((OK, DYING))  # T-7.2, T-7.4: the statuses in which a PC takes actions


def status_word(status: str) -> str:
    """A PC's or an NPC's state (T-7) in the current language: 瀕死, 気絶, 死亡 in Japanese."""
    words = {DYING: _("dying"), UNCONSCIOUS: _("unconscious"), DEAD: _("dead"), OK: _("ok"),
             "defeated": _("defeated"), "destroyed": _("destroyed"), "recruited": _("recruited")}
    return words.get(status, status)


class RuleError(ValueError):
    """An action the rules do not allow in the PC's present state (names the rule)."""

    def __init__(self, message: str, rule: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule


@dataclass(slots=True, init=False)
class PC:
    """The state of one player character; ``copy()`` is cheap (ids and small lists).

    Its ``__init__`` is written out (the fields' defaults are the same): the one
    ``dataclass`` makes is interpreted even in the compiled build, and costs ten times
    a compiled one, where every run deals its PCs and every battle copies them.
    """

    id: str
    name: str
    cards: tuple[Card, ...]  # the physical card table; zones hold indexes into it
    critical_cards: frozenset[int] = frozenset()  # T-4.7: specific physical cards
    life: int = STARTING_LIFE
    library: list[int] = field(default_factory=list)  # index 0 is the top
    hand: list[int] = field(default_factory=list)
    battlefield: list[Permanent] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    exile: list[int] = field(default_factory=list)
    exhaustion_zone: list[int] = field(default_factory=list)  # T-2.1
    stack: list[int] = field(default_factory=list)
    concentration_counter: bool = False  # T-2.4
    land_played: bool = False  # T-2.5 [reading]: one land per concentration
    boost_used: bool = False  # T-4.6: once per scene (adventure) or turn (combat)
    boost_exile: list[int] = field(default_factory=list)  # T-4.6: exiled until cleanup
    status: str = OK  # ok, dying, unconscious, dead (T-7)

    def __init__(
        self, id: str, name: str, cards: tuple[Card, ...], critical_cards: frozenset[int] = frozenset(),
        life: int = STARTING_LIFE, library: list[int] | None = None, hand: list[int] | None = None,
        battlefield: list[Permanent] | None = None, graveyard: list[int] | None = None,
        exile: list[int] | None = None, exhaustion_zone: list[int] | None = None, stack: list[int] | None = None,
        concentration_counter: bool = False, land_played: bool = False, boost_used: bool = False,
        boost_exile: list[int] | None = None, status: str = OK,
    ) -> None:
        self.id = id
        self.name = name
        self.cards = cards
        self.critical_cards = critical_cards
        self.life = life
        self.library = [] if library is None else library
        self.hand = [] if hand is None else hand
        self.battlefield = [] if battlefield is None else battlefield
        self.graveyard = [] if graveyard is None else graveyard
        self.exile = [] if exile is None else exile
        self.exhaustion_zone = [] if exhaustion_zone is None else exhaustion_zone
        self.stack = [] if stack is None else stack
        self.concentration_counter = concentration_counter
        self.land_played = land_played
        self.boost_used = boost_used
        self.boost_exile = [] if boost_exile is None else boost_exile
        self.status = status

    def copy(self) -> "PC":
        """Every field, its lists copied (written out: `dataclasses.replace` is interpreted
        and every battle copies its PCs)."""
        return PC(
            self.id, self.name, self.cards, self.critical_cards, self.life, list(self.library),
            list(self.hand), [p.copy() for p in self.battlefield], list(self.graveyard),
            list(self.exile), list(self.exhaustion_zone), list(self.stack), self.concentration_counter,
            self.land_played, self.boost_used, list(self.boost_exile), self.status,
        )

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    def names(self, card_ids: Sequence[int]) -> list[str]:
        return [self.cards[i].name for i in card_ids]

    @property
    def can_act(self) -> bool:
        """T-7.2, T-7.4: an unconscious or dead PC takes no actions."""
        return self.status in ABLE


def designate_critical(
    cards: Sequence[Card], name: str, count: int, already: frozenset[int] = frozenset()
) -> frozenset[int]:
    """T-4.7: pick ``count`` physical copies of the card called ``name`` as critical.

    Any copies will do (they are shuffled before play); the lowest ids not in
    ``already`` (copies designated before) are taken. Raises ValueError when
    the deck holds fewer copies; the caller adds the span.
    """
    if count < 1:
        raise ValueError(f"critical count for {name!r} must be at least 1, not {count}")
    wanted = normalize_name(name)
    matching = [i for i, card in enumerate(cards) if wanted in _name_keys(card)]
    if not matching:
        raise ValueError(f"the deck has no card named {name!r} to designate as critical")
    copies = [i for i in matching if i not in already]
    if len(copies) < count:
        taken = f", {len(matching) - len(copies)} of them already critical" if already & set(matching) else ""
        raise ValueError(
            f"cannot designate {count} copies of {cards[matching[0]].name} as critical: "
            f"the deck has only {len(matching)}{taken}"
        )
    return frozenset(copies[:count])


def _name_keys(card: Card) -> set[str]:
    """The names a player may use for a card: English, its front face, Japanese."""
    names = {card.name, card.name.split("//")[0]} | ({card.name_ja} if card.name_ja else set())
    return {normalize_name(name) for name in names}


def required_critical_count(is_commander: bool) -> int:
    """T-4.7: exactly 3 critical cards, 5 for a Commander deck."""
    return CRITICAL_COUNT_COMMANDER if is_commander else CRITICAL_COUNT


_TABLES: Final[dict[tuple[int, ...], tuple[Card, ...]]] = {}
_TABLES_LIMIT: Final = 256  # card tables kept at once


def card_table(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The one tuple for these cards in this order: what every PC dealt from them shares.

    A tuple is its own table. For a list, the same cards (by identity: cards are
    immutable, and the table kept holds them, so their ids stay theirs) give the same
    tuple each time, so what is worked out once per table (``checks.card_facts``) is not
    worked out again for every PC a library caller deals from a list.
    """
    if type(cards) is tuple:
        return cards
    key = tuple(map(id, cards))
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) >= _TABLES_LIMIT:
            _TABLES.clear()
        table = _TABLES[key] = tuple(cards)
    return table


def create_pc(
    pc_id: str,
    name: str,
    cards: Sequence[Card],
    critical_cards: frozenset[int],
    rng: random.Random,
) -> PC:
    """T-1.2: a PC with life 20 whose shuffled library has dealt an opening hand of 7.

    Every run of a batch deals each PC here: the PC is built with its library and hand
    (no list made only to be replaced), the hand dealt as ``draw`` deals it (a deck of
    fewer than 7 cards leaves the PC unconscious, T-7.2).
    """
    size = len(cards)
    for card_id in critical_cards:
        if not 0 <= card_id < size:
            unknown = sorted(i for i in critical_cards if not 0 <= i < size)
            raise ValueError(f"critical card ids {unknown} are not in the deck")
    library = list(range(size))
    shuffle(library, rng)
    hand = library[:OPENING_HAND]
    del library[:OPENING_HAND]
    pc = PC(pc_id, name, card_table(cards), frozenset(critical_cards), STARTING_LIFE, library, hand)
    if len(hand) < OPENING_HAND:
        pc.status = UNCONSCIOUS
    return pc


# --- T-7: life and the state changes -------------------------------------------------


def _conscious_status(pc: PC) -> str:
    return DYING if pc.life <= 0 else OK


def lose_life(pc: PC, amount: int) -> None:
    """T-7.1: life 0 makes the PC dying; T-7.4: any further action that reduces life kills a
    dying or unconscious PC, even one that takes 0 life (「もう1度ライフを減らす行動をされた場合」,
    seed 000 line 229: the action counts, not the amount)."""
    if pc.status == DEAD:
        return
    if pc.status in (DYING, UNCONSCIOUS):
        pc.life -= max(0, amount)
        pc.status = DEAD
        return
    if amount <= 0:
        return
    pc.life -= amount
    pc.status = _conscious_status(pc)


def gain_life(pc: PC, amount: int) -> None:
    """Gain life. [reading] A dying PC whose life rises above 0 is no longer dying."""
    if amount <= 0 or pc.status == DEAD:
        return
    pc.life += amount
    if pc.status == DYING:
        pc.status = _conscious_status(pc)


def treat_life_as_zero(pc: PC) -> None:
    """T-7.3: another loss condition (poison, an opponent's alternate win) sets life to 0."""
    if pc.status in (DYING, UNCONSCIOUS):
        pc.status = DEAD
    elif pc.status == OK:
        pc.life = 0
        pc.status = DYING


def draw(pc: PC, count: int = 1) -> list[int]:
    """Draw ``count`` cards; drawing from an empty library makes the PC unconscious (T-7.2)."""
    if count <= 0:
        return []
    drawn = pc.library[:count]
    del pc.library[:count]
    pc.hand.extend(drawn)
    if len(drawn) < count and pc.status != DEAD:
        pc.status = UNCONSCIOUS
    return drawn


def wake_if_library(pc: PC) -> None:
    """T-7.2: unconsciousness from an empty library lasts until the library has a card."""
    if pc.status == UNCONSCIOUS and pc.library:
        pc.status = _conscious_status(pc)


def put_on_bottom(pc: PC, card_ids: Sequence[int], rng: random.Random) -> None:
    """Put cards on the library bottom in random order (T-4.6, T-4.8).

    Scene end calls this for every PC, most often with no boost cards to put: fewer
    than two cards have one order, and shuffling them would draw no random number.
    Every 2019 check puts its two revealed cards here (T-4.8): for two cards the
    Fisher-Yates walk of ``shuffle`` is one draw of 2 bits (retried while 2 or 3), and
    swaps on 0; written out, it draws exactly what ``shuffle`` draws.
    """
    count = len(card_ids)
    if count < 2:
        pc.library.extend(card_ids)
    elif count == 2:
        getrandbits = rng.getrandbits
        pick = getrandbits(2)
        while pick >= 2:
            pick = getrandbits(2)
        first, second = card_ids
        pc.library += (second, first) if pick == 0 else (first, second)
    else:
        cards = list(card_ids)
        shuffle(cards, rng)
        pc.library.extend(cards)
    if pc.status == UNCONSCIOUS:
        wake_if_library(pc)


#: The Fisher-Yates walk of ``random.shuffle``, worked out once: each position from the
#: end (1023 down to 1) with the bits ``getrandbits`` draws for it, ``(last + 1).bit_length()``.
_WALK_SIZE: Final = 1024
_WALK: Final = tuple((last, (last + 1).bit_length()) for last in range(_WALK_SIZE - 1, 0, -1))


Item = TypeVar("Item")


def shuffle(cards: list[Item], rng: random.Random) -> None:
    """Shuffle ``cards`` in place (T-1.2, T-2.8, T-4.8): the permutation ``rng.shuffle`` makes.

    The same Fisher-Yates walk from the end, the same rejection sampling of
    ``getrandbits`` for each position, so a seed deals exactly the cards it always
    has (tests/engine/test_shuffle.py); written out because ``random.shuffle`` costs a
    method call per card, and every run of a batch shuffles two 60-card libraries.
    The positions and their bit counts come from ``_WALK`` (a slice of its tail).
    """
    size = len(cards)
    if size <= _WALK_SIZE:
        walk = _WALK[_WALK_SIZE - size:]
    else:
        walk = tuple([(last, (last + 1).bit_length()) for last in range(size - 1, 0, -1)])
    getrandbits = rng.getrandbits
    for last, bits in walk:
        pick = getrandbits(bits)
        while pick > last:
            pick = getrandbits(bits)
        cards[last], cards[pick] = cards[pick], cards[last]


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n > 0, ``rng.choice`` of a sequence of length n: the same
    rejection sampling of ``getrandbits`` (so the same number and the generator left in the
    same state, tests/engine/test_shuffle.py), without the interpreted calls of `random`
    (the compiled build draws with it at every random choice of a battle)."""
    bits = n.bit_length()
    pick = rng.getrandbits(bits)
    while pick >= n:
        pick = rng.getrandbits(bits)
    return pick


# --- Section 2: time in the adventure part ---------------------------------------------


def _cannot_act(pc: PC, what: str) -> RuleError:
    """T-7.2, T-7.4: what an unconscious or dead PC is refused."""
    return RuleError(f"{pc.name} is {pc.status} and cannot {what}", "T-7.2")


#: A step of the beginning or ending phase done by the caller: the upkeep triggers of
#: `concentrate`, the end-step triggers of `rest` (engine.combat.phases runs them).
Triggers = Callable[[PC], None]


def concentrate(pc: PC, upkeep: Triggers | None = None) -> list[int]:
    """T-2.4: the MTG beginning phase. Untap (summoning sickness ends, T-2.10), "until end of
    turn" effects end (T-2.7), the upkeep triggers (`upkeep`, if given) resolve, then draw
    if the hand is at most 6, and the concentration counter.

    Returns the ids drawn (empty when the hand was full or the library empty;
    the latter makes the PC unconscious, T-7.2).
    """
    if pc.status not in ABLE:
        raise _cannot_act(pc, "concentrate")
    if pc.concentration_counter:
        raise RuleError(f"{pc.name} already has a concentration counter", "T-2.4")
    for permanent in pc.battlefield:  # untap; T-2.7: "until end of turn" effects end (a battle's too)
        permanent.tapped = False
        permanent.summoning_sick = False
        if permanent.power_bonus or permanent.toughness_bonus or permanent.granted:
            permanent.power_bonus = permanent.toughness_bonus = permanent.granted = 0
    if upkeep is not None:
        upkeep(pc)
    drawn = draw(pc, 1) if len(pc.hand) < MAX_HAND_SIZE and pc.status in ABLE else []
    pc.concentration_counter = True
    pc.land_played = False
    return drawn


def rest(pc: PC, end_step: Triggers | None = None) -> None:
    """T-2.6: the MTG ending phase. The end-step triggers (`end_step`, if given) resolve,
    then damage on the PC's creatures is removed and "until end of turn" effects end
    (T-2.7), then the concentration counter is removed."""
    if pc.status not in ABLE:
        raise _cannot_act(pc, "rest")
    if end_step is not None:
        end_step(pc)
    for permanent in pc.battlefield:  # the damage; T-2.7: "until end of turn" effects end
        permanent.damage = 0
        if permanent.power_bonus or permanent.toughness_bonus or permanent.granted:
            permanent.power_bonus = permanent.toughness_bonus = permanent.granted = 0
    pc.concentration_counter = False


def play_land(pc: PC, card_id: int) -> Permanent:
    """T-2.5: a land from hand needs a concentration counter; one land per concentration."""
    if pc.status not in ABLE:
        raise _cannot_act(pc, "play a land")
    if card_id not in pc.hand:
        raise RuleError(f"{pc.cards[card_id].name} is not in {pc.name}'s hand", "T-2.5")
    card = pc.cards[card_id]
    if not card.is_land:
        raise RuleError(f"{card.name} is not a land", "T-2.5")
    if not pc.concentration_counter:
        raise RuleError(f"{pc.name} must concentrate before playing a land", "T-2.5")
    if pc.land_played:
        raise RuleError(f"{pc.name} already played a land this concentration", "T-2.5")
    pc.hand.remove(card_id)
    permanent = Permanent(card_id, pc.id, False, card.is_creature)
    pc.battlefield.append(permanent)
    pc.land_played = True
    return permanent


def boost_cleanup(pc: PC, rng: random.Random) -> None:
    """T-4.6: the six boost cards go to the library bottom in random order; boost is available.

    Called at the cleanup step of a scene's end (adventure part, by scene_end)
    or of each turn's end (combat).
    """
    if pc.boost_exile:  # most scenes end with no boost made
        cards, pc.boost_exile = pc.boost_exile, []
        put_on_bottom(pc, cards, rng)
    pc.boost_used = False


def _cards_that_stay(pc: PC, permanents: list[Permanent]) -> list[int]:
    """The cards under these permanents, less tokens: a token that leaves the
    battlefield ceases to exist (MTG CR 111.8), so it never reaches the
    exhaustion zone or the library."""
    return [p.card for p in permanents if not pc.cards[p.card].is_token]


def scene_end(pc: PC, rng: random.Random) -> None:
    """T-2.9: every card not in hand or library goes to the exhaustion zone; then T-4.6 cleanup.

    The boost cards are the exception: nothing moves them but the cleanup,
    which puts them on the library bottom.
    """
    if pc.battlefield:
        pc.exhaustion_zone.extend(_cards_that_stay(pc, pc.battlefield))
        pc.battlefield = []
    if pc.graveyard or pc.exile or pc.stack:
        for zone in (pc.graveyard, pc.exile, pc.stack):
            pc.exhaustion_zone.extend(zone)
            zone.clear()
    if pc.boost_used or pc.boost_exile:
        boost_cleanup(pc, rng)


def sleep(pc: PC, rng: random.Random, *, restore_life: bool = True) -> None:
    """T-2.8: six hours: every zone shuffled into the library, draw 7, life back to 20.

    Works for an unconscious PC too (T-7.2). The PC wakes with no concentration
    counter and its boost available (the library is back in its initial state).
    ``restore_life=False`` is the scenario option that keeps life unrecovered.
    """
    if pc.status == DEAD:
        raise RuleError(f"{pc.name} is dead", "T-7.4")
    returning = pc.hand + _cards_that_stay(pc, pc.battlefield) + pc.graveyard + pc.exile
    returning += pc.exhaustion_zone + pc.stack + pc.boost_exile
    pc.library.extend(returning)
    for zone in (pc.hand, pc.graveyard, pc.exile, pc.exhaustion_zone, pc.stack, pc.boost_exile):
        zone.clear()
    pc.battlefield = []
    shuffle(pc.library, rng)
    if restore_life:
        pc.life = STARTING_LIFE
    pc.concentration_counter = False
    pc.land_played = False
    pc.boost_used = False
    pc.status = _conscious_status(pc)
    draw(pc, OPENING_HAND)
