"""Battle state: plain data (dataclasses of ints, strings, lists).

The survivors are `deckquest.engine.pc.PC` records (copies of the party's PCs;
their life, zones and T-7 status are the battle's), the horde is a `Horde`.
Player-type NPCs (bosses, T-8.3) are `PC` records too, on the enemy team; the
horde side also holds creature- and planeswalker-type NPCs (T-8.1, T-8.2), so a
battle without a horde deck has an empty horde that is already beaten.
Cards are referred to by their id in the owning side's card table (`cards`),
permanents are `deckquest.engine.permanents.Permanent`. A battle state can be
copied cheaply with `Battle.copy()` (no deepcopy), compared and serialised.
Library order: index 0 is the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, TYPE_CHECKING

from deckquest.cards.model import Card
from deckquest.cards.oracle import Ability
from deckquest.engine.checks import PendingCheck
from deckquest.engine.combat.profile import PROFILE_TABLES, Profile, profile_in, profiles_of
from deckquest.engine.pc import OK, PC
from deckquest.engine.permanents import Permanent

if TYPE_CHECKING:  # casting reads the battle state
    from deckquest.engine.combat.actions import Action
    from deckquest.engine.combat.casting import Planned

#: What a side can cast depends on (casting.castable): its id, instant speed or not, whether a
#: land was played, what each untapped source makes, the hand.
CastingState = tuple[str, bool, bool, tuple[tuple[frozenset[str], ...], ...], tuple[int, ...]]

HORDE: Final = "horde"


# The classes a battle makes many of (or one of per PC) spell out their `__init__`
# (`init=False`): the compiled build (docs/development.md) compiles the methods a class
# spells out and runs those `dataclasses` generates as interpreted code, several times slower.
# Each takes the fields in their order, as the generated one would.


@dataclass(init=False)
class Tally:
    """What happened to one PC in the battle, for the result."""

    life_lost: int = 0
    life_gained: int = 0
    damage_dealt: int = 0  # combat damage its creatures dealt to the horde and its creatures
    damage_taken: int = 0  # combat damage dealt to the PC itself
    cards_milled: int = 0  # horde cards milled by its creatures' damage (T-6.10)
    spells_cast: int = 0

    def __init__(self, life_lost: int = 0, life_gained: int = 0, damage_dealt: int = 0, damage_taken: int = 0,
                 cards_milled: int = 0, spells_cast: int = 0) -> None:
        self.life_lost = life_lost
        self.life_gained = life_gained
        self.damage_dealt = damage_dealt
        self.damage_taken = damage_taken
        self.cards_milled = cards_milled
        self.spells_cast = spells_cast


@dataclass
class Horde:
    """The Horde Magic enemy (T-6.8): no life, no mana, no choices of its own."""

    cards: tuple[Card, ...]
    library: list[int]
    hand: list[int] = field(default_factory=list)
    battlefield: list[Permanent] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    exile: list[int] = field(default_factory=list)
    id: str = HORDE
    milled: int = 0  # T-6.10: cards milled by damage
    cut: int = 0  # T-6.4: cards milled to cut the deck at the start

    def copy(self) -> "Horde":
        return replace(
            self, library=self.library[:], hand=self.hand[:],
            battlefield=[replace(p) for p in self.battlefield], graveyard=self.graveyard[:],
            exile=self.exile[:],
        )


@dataclass(init=False)
class Attack:
    """An attacking creature: its controller, card id and the player it attacks
    (`defender_card` >= 0: that player's planeswalker, T-8.2)."""

    owner: str
    card: int
    defender: str
    blockers: list[tuple[str, int]] = field(default_factory=list)
    blocked: bool = False
    defender_card: int = -1

    def __init__(self, owner: str, card: int, defender: str, blockers: list[tuple[str, int]] | None = None,
                 blocked: bool = False, defender_card: int = -1) -> None:
        self.owner = owner
        self.card = card
        self.defender = defender
        self.blockers = [] if blockers is None else blockers
        self.blocked = blocked
        self.defender_card = defender_card


@dataclass(init=False)
class StackItem:
    """A spell or an activated ability waiting to resolve (CR 405). `card` is the spell's
    card (or the ability's permanent) in `controller`'s table; `ability` is None for a spell
    (its text is read from the card); `picks` are the chosen targets, `mode` the mode chosen."""

    controller: str
    card: int
    ability: Ability | None = None
    picks: tuple[tuple[str, int], ...] = ()
    x: int = 0
    mode: int = 0

    def __init__(self, controller: str, card: int, ability: Ability | None = None,
                 picks: tuple[tuple[str, int], ...] = (), x: int = 0, mode: int = 0) -> None:
        self.controller = controller
        self.card = card
        self.ability = ability
        self.picks = picks
        self.x = x
        self.mode = mode


@dataclass
class Check:
    """A check in progress inside the battle (preparation T-6.2, escape T-6.6),
    waiting for the boost decision (T-4.6)."""

    purpose: str  # "preparation" or "escape"
    pending: PendingCheck
    return_step: str = ""  # where the turn goes on after a failed escape


def _none() -> None:
    return None


@dataclass
class Battle:
    """The whole state of one battle.

    `step` names where the battle waits for the survivors' decision (or "over"):
    check, main1, declare_attackers, main2, declare_blockers.
    """

    survivors: list[PC]
    horde: Horde
    tallies: dict[str, Tally] = field(default_factory=dict)
    rules: str = "2019"
    turn: int = 0
    active: str = "survivors"  # whose turn: "survivors" or HORDE
    step: str = "start"
    preparation_turns: int = 0  # T-6.2: survivor turns left before the horde first moves
    preparation_given: int = 0  # T-6.2: how many preparation turns the party got
    attacks: list[Attack] = field(default_factory=list)
    check: Check | None = None
    non_combat_action_used: bool = False  # T-6.7 (escape is one; T-4.12 once per turn)
    deathtouched: list[tuple[str, int]] = field(default_factory=list)
    outcome: str | None = None  # "victory", "defeat" or "escape"
    survivor_turns: int = 0
    horde_turns: int = 0
    bosses: list[PC] = field(default_factory=list)  # player-type NPCs (T-8.3)
    boss_turns: dict[str, int] = field(default_factory=dict)  # T-6.1: turns in a row per boss (1 or 2)
    stack: list[StackItem | None] = field(default_factory=list)  # None: a countered spell, gone
    activated: list[tuple[str, int, int]] = field(default_factory=list)  # (side, card, ability) used this turn
    bonus_turn: bool = False  # T-6.1: a boss's second turn in a row (only two-turn bosses act)
    horde_deck: bool = True  # the enemies include a horde deck (else the horde side holds only NPCs)
    allies: list[tuple[str, int]] = field(default_factory=list)  # (host PC, card) of allied NPCs (T-8.2)
    statics_applied: bool = False  # some permanent carries static effects (statics.refresh_statics)
    pc_creatures: dict[str, int] = field(default_factory=dict)  # T-7.2: PC id -> its 0/1 defender card
    echo_due: list[tuple[str, int]] = field(default_factory=list)  # CR 702.30: (side, card) to pay at upkeep
    shields: dict[tuple[str, int], int] = field(default_factory=dict)  # CR 701.19: regeneration shields
    # T-4.6: each PC's boost of the adventure scene (used, the cards it exiled), set aside for
    # the battle: a battle's boosts are once per turn and go back at each turn's cleanup, the
    # scene's boost stays used and its cards stay exiled until the scene ends.
    scene_boosts: dict[str, tuple[bool, list[int]]] = field(default_factory=dict)
    # What each side could cast in each state of its hand and mana seen so far
    # (casting.castable): worked out once per state, not at every decision. Not part of the
    # battle's state: a copy starts without it, comparisons ignore it.
    castable_plans: dict[CastingState, tuple[Planned, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)
    # The survivors' responses (turns._responses) listed to decide whether their respond or
    # after-blockers step opens: the step's legal actions are that very list, taken by the
    # next `legal_actions` (nothing changes in between). Not part of the battle's state either.
    # (Whether the declare-blockers step opens is asked without listing the blocks:
    # turns._any_block.)
    # (A factory, not `default=None`: a field the generated `__init__` does not set has no value
    # in the compiled build, whose classes have no class-level defaults.)
    listed: list[Action] | None = field(default_factory=_none, init=False, compare=False, repr=False)

    def copy(self) -> "Battle":
        return replace(
            self, survivors=[s.copy() for s in self.survivors], horde=self.horde.copy(),
            tallies={k: replace(v) for k, v in self.tallies.items()},
            attacks=[replace(a, blockers=a.blockers[:]) for a in self.attacks],
            deathtouched=self.deathtouched[:],
            check=replace(self.check, pending=self.check.pending.copy()) if self.check else None,
            bosses=[b.copy() for b in self.bosses], boss_turns=dict(self.boss_turns),
            stack=self.stack[:], activated=self.activated[:], allies=self.allies[:],
            pc_creatures=dict(self.pc_creatures), echo_due=self.echo_due[:], shields=dict(self.shields),
            scene_boosts={k: (used, cards[:]) for k, (used, cards) in self.scene_boosts.items()},
        )

    def side(self, owner: str) -> PC | Horde:
        if owner == HORDE:
            return self.horde
        for survivor in self.survivors:
            if survivor.id == owner:
                return survivor
        for boss in self.bosses:
            if boss.id == owner:
                return boss
        raise KeyError(owner)

    def player(self, owner: str) -> PC:
        """A PC or a boss (a player: life, a hand, a status; the horde has none of them)."""
        for player in self.survivors:
            if player.id == owner:
                return player
        for player in self.bosses:
            if player.id == owner:
                return player
        raise KeyError(owner)

    def is_enemy(self, owner: str) -> bool:
        """The horde side and the bosses are one team (the enemies), the PCs the other."""
        if owner == HORDE:
            return True
        for boss in self.bosses:
            if boss.id == owner:
                return True
        return False

    def sides(self) -> list[PC | Horde]:
        """Every side that can hold permanents: the horde side, the bosses, the PCs."""
        return [self.horde, *self.bosses, *self.survivors]

    def fighting_bosses(self) -> list[PC]:
        """Bosses still in the fight: at life 0 (or decked, T-8.3 a player) a boss is beaten."""
        return [b for b in self.bosses if b.status == OK]

    def fighting(self) -> list[PC]:
        """The PCs still in the fight: T-7.1 a dying PC is removed from combat,
        T-7.2 an unconscious one takes no actions."""
        return [s for s in self.survivors if s.status == OK]


#: A side that holds cards and permanents: a PC, a boss (a PC on the enemy team) or the horde.
Side = PC | Horde


def facts_of(side: Side, card: int) -> Profile:
    """The profile of the side's card `card`, from its table's profiles (`profile.profiles_of`:
    found by identity among the few tables asked last, where `profile` looks each card up by
    its `id`, boxed, hashed and compared, at each of a battle's thousands of checks)."""
    cards = side.cards
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)  # (the first look inline)
    return known[card] or profile_in(cards, known, card)


def power(side: Side, permanent: Permanent) -> int:
    """The creature's power now: printed plus its +1/+1 (or -1/-1) counters and
    "until end of turn" changes."""
    cards = side.cards  # facts_of, written out: the most asked checks of a battle
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)
    facts = known[permanent.card] or profile_in(cards, known, permanent.card)
    return facts.power + permanent.plus_counters + permanent.power_bonus + permanent.static_power


def toughness(side: Side, permanent: Permanent) -> int:
    """The creature's toughness now (damage not subtracted)."""
    cards = side.cards  # facts_of, written out: the most asked checks of a battle
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)
    facts = known[permanent.card] or profile_in(cards, known, permanent.card)
    return facts.toughness + permanent.plus_counters + permanent.toughness_bonus + permanent.static_toughness


def keywords_of(side: Side, permanent: Permanent) -> int:
    """Its keyword flags: printed ones, those gained until end of turn and those static
    abilities give it."""
    cards = side.cards  # facts_of, written out: the most asked checks of a battle
    known = PROFILE_TABLES.last_known if PROFILE_TABLES.last is cards else profiles_of(cards)
    facts = known[permanent.card] or profile_in(cards, known, permanent.card)
    return facts.keywords | permanent.granted | permanent.static_keywords


def find_permanent(side: Side, card: int) -> Permanent | None:
    for permanent in side.battlefield:
        if permanent.card == card:
            return permanent
    return None


def permanent_of(side: Side, card: int) -> Permanent:
    """The permanent of a card the caller knows is on the battlefield (an attacker, a
    blocker, the source of an ability being activated)."""
    permanent = find_permanent(side, card)
    if permanent is None:
        raise KeyError(f"{side.id} has no permanent {card}")
    return permanent


def enter_battlefield(side: Side, card: int) -> Permanent:
    """Put the side's card onto its battlefield: summoning sick, tapped if the card
    says it enters tapped, a planeswalker with its printed loyalty."""
    facts = facts_of(side, card)
    permanent = Permanent(card=card, owner=side.id, tapped=facts.enters_tapped, loyalty=facts.loyalty)
    side.battlefield.append(permanent)
    return permanent
