"""The survivors' decisions in a battle, as small immutable values.

The engine lists the legal ones (`turns.legal_actions`), an agent picks one,
the engine applies it (`turns.apply`); human, random and greedy agents share
this interface. Declaring attackers and blockers is one creature at a time,
closed by a confirm action, so the list of choices stays short.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from deckquest.cards.database import card_name
from deckquest.i18n import _
from deckquest.engine.combat.state import Battle

# Kinds of action, by the step in which they are legal.
BOOST: Final = "boost"  # check: T-4.6 exile the top 6 for +1 per colourless card
NO_BOOST: Final = "no_boost"  # check: accept the result
PLAY_LAND: Final = "play_land"  # main: one land per turn
CAST: Final = "cast"  # main, respond: cast a permanent, or a spell whose text is understood (docs/effects.md)
ACTIVATE: Final = "activate"  # main: an activated or loyalty ability of a permanent (T-8.2)
PASS: Final = "pass"  # respond: let the enemy's spell resolve
ESCAPE: Final = "escape"  # main: T-6.6 escape check, the turn's non-combat action (T-6.7)
GO_TO_COMBAT: Final = "go_to_combat"  # main1: go to the declare attackers step
END_TURN: Final = "end_turn"  # main: end the turn (from main1: without combat)
ATTACK: Final = "attack"  # declare attackers: this creature attacks the horde
CONFIRM_ATTACKERS: Final = "confirm_attackers"
BLOCK: Final = "block"  # declare blockers: this creature blocks that attacker
UNBLOCK: Final = "unblock"  # declare blockers: take back a block (e.g. to satisfy menace)
CONFIRM_BLOCKERS: Final = "confirm_blockers"


class Action(NamedTuple):
    """One decision. `player` is the PC acting, `card` its card id, `x` the value
    of X for a cast. `target` is the attacker (owner, card id) a blocker blocks;
    for an attack, the defender (`("", -1)` the horde, `(boss, -1)` a boss,
    `(owner, card)` a planeswalker); for a cast or an activation, the first
    target (`(side, card)`, `(side, -1)` a player, `("stack", i)` a spell).
    `mode` is the chosen mode of a modal spell, or the index of an activated ability.

    A named tuple: immutable and ordered by its fields, and cheap to make (a decision
    lists dozens a turn, where a frozen dataclass pays a ``__setattr__`` per field)."""

    kind: str
    player: str = ""
    card: int = -1
    x: int = 0
    target: tuple[str, int] = ("", -1)
    mode: int = 0


#: Whether this module runs compiled (mypyc: the optional accelerated build, setup.py). The
#: two builds find a listed action again by different keys (`interned`), each its faster one.
COMPILED: Final = not __file__.endswith((".py", ".pyc"))
#: Every action listed so far: interpreted, by its fields (the target's two written out);
#: compiled, by the int of its numbers, those with the same numbers (which differ in kind,
#: player or target's owner) in one list.
_BY_FIELDS: Final[dict[tuple[str, str, int, int, str, int, int], Action]] = {}
_BY_NUMBERS: Final[dict[int, list[Action]]] = {}
_INTERNED_MOST: Final = 50_000
#: At most this many actions with the same numbers are kept (the latest).
_SAME_NUMBERS_MOST: Final = 16


def interned(kind: str, player: str = "", card: int = -1, x: int = 0, target: tuple[str, int] = ("", -1),
             mode: int = 0) -> Action:
    """`Action(kind, player, card, x, target, mode)`, made once and then reused: a battle
    lists the same few hundred actions at decision after decision. Actions are values
    (compared and hashed by their fields), so a reused one is the same action.

    Interpreted, a tuple of the fields is the key: made, hashed and compared in C. Compiled,
    that tuple cost its making, boxing, hashing and comparing field by field at each of a
    battle's ~10,000 lookups (12% of a compiled battle): there an action is found by one int
    (its card id, X, target's card id and mode), then by its kind, player and target's owner
    among the few with the same numbers (which costs the interpreted build twice its key)."""
    owner, number = target
    if not COMPILED:
        fields = (kind, player, card, x, owner, number, mode)  # flat: hashed and compared at once
        found = _BY_FIELDS.get(fields)
        if found is None:
            if len(_BY_FIELDS) >= _INTERNED_MOST:
                _BY_FIELDS.clear()
            found = _BY_FIELDS[fields] = _new(kind, player, card, x, target, mode)
        return found
    if -1 <= card < 65_535 and -1 <= number < 65_535 and 0 <= x < 256 and 0 <= mode < 256:
        # each in bits of its own, so that these four share the int only if they are equal;
        # shifted, not multiplied: the compiled build multiplies large ints by its slow path
        numbers = (((card + 1) << 16 | (number + 1)) << 8 | x) << 8 | mode
        same = _BY_NUMBERS.get(numbers)
        if same is not None:
            for action in same:
                if action[0] == kind and action[1] == player and action[4][0] == owner:
                    return action
        return _keep(_new(kind, player, card, x, target, mode), numbers, same)
    return _keep(_new(kind, player, card, x, target, mode), -1, _BY_NUMBERS.get(-1))


def _new(kind: str, player: str, card: int, x: int, target: tuple[str, int], mode: int) -> Action:
    """A new action, made by `tuple.__new__` itself: the named tuple's own `__new__` is
    interpreted (about 0.5 µs, in the compiled build too)."""
    return tuple.__new__(Action, (kind, player, card, x, target, mode))


def _keep(action: Action, numbers: int, same: list[Action] | None) -> Action:
    """Keep a new action for the compiled `interned` among those with the same `numbers`;
    those whose numbers do not fit in their bits (ids past 65,534, X or mode past 255:
    `numbers` -1) are told apart by all their fields."""
    if numbers == -1:
        for known in same or ():
            if known == action:
                return known
    if same is None:
        if len(_BY_NUMBERS) >= _INTERNED_MOST:
            _BY_NUMBERS.clear()
        same = _BY_NUMBERS[numbers] = []
    elif len(same) >= _SAME_NUMBERS_MOST:
        del same[0]
    same.append(action)
    return action


def describe(battle: Battle, action: Action) -> str:
    """The action in words, for a human at the table."""
    kind = action.kind
    if kind in (PLAY_LAND, CAST, ACTIVATE, ATTACK, BLOCK, UNBLOCK):
        pc = battle.player(action.player)  # the survivors' and the bosses' actions are described
        name = card_name(pc.cards[action.card].name)
        if kind == PLAY_LAND:
            return _("{pc}: play {card}", pc=pc.name, card=name)
        if kind == CAST:
            spell = name + (_(" with X={x}", x=action.x) if action.x else "")
            return _("{pc}: cast {card}", pc=pc.name, card=spell) + _targeting(battle, action.target)
        if kind == ACTIVATE:
            return (_("{pc}: activate {card} (ability {number})", pc=pc.name, card=name, number=action.mode + 1)
                    + _targeting(battle, action.target))
        if kind == ATTACK:
            return (_("{pc}: attack with {card}", pc=pc.name, card=name)
                    + (_targeting(battle, action.target) if action.target[0] else ""))
        if kind == UNBLOCK:
            return _("{pc}: take back the block of {card}", pc=pc.name, card=name)
        owner, card = action.target
        return _("{pc}: block {attacker} (#{number}) with {card}", pc=pc.name,
                 attacker=card_name(battle.side(owner).cards[card].name), number=card, card=name)
    if kind == ESCAPE:
        return _("{pc}: try to escape (check, T-6.6)", pc=battle.player(action.player).name)
    return {
        BOOST: _("boost the check (exile the top 6 cards, T-4.6)"),
        NO_BOOST: _("accept the check result"),
        GO_TO_COMBAT: _("go to combat"),
        END_TURN: _("end the turn"),
        CONFIRM_ATTACKERS: _("confirm attackers"),
        CONFIRM_BLOCKERS: _("confirm blockers"),
        PASS: _("let it resolve"),
    }[kind]


def _targeting(battle: Battle, target: tuple[str, int]) -> str:
    owner, card = target
    if not owner:
        return ""
    if owner == "stack":
        item = battle.stack[card]
        assert item is not None  # a target on the stack is a spell not yet countered
        return _(" targeting {card} (on the stack)", card=card_name(battle.side(item.controller).cards[item.card].name))
    side = battle.side(owner)
    if card < 0:
        return _(" targeting {player}", player=getattr(side, "name", owner))
    return _(" targeting {card} (#{number}, {player})", card=card_name(side.cards[card].name), number=card,
             player=getattr(side, "name", owner))

