"""The survivors' decisions in a battle, as small immutable values.

The engine lists the legal ones (`turns.legal_actions`), an agent picks one,
the engine applies it (`turns.apply`); human, random and greedy agents share
this interface. Declaring attackers and blockers is one creature at a time,
closed by a confirm action, so the list of choices stays short.
"""

from __future__ import annotations

from dataclasses import dataclass

# Kinds of action, by the step in which they are legal.
BOOST = "boost"  # check: T-4.6 exile the top 6 for +1 per colourless card
NO_BOOST = "no_boost"  # check: accept the result
PLAY_LAND = "play_land"  # main: one land per turn
CAST = "cast"  # main: cast a permanent (or a spell with a known effect)
ESCAPE = "escape"  # main: T-6.6 escape check, the turn's non-combat action (T-6.7)
GO_TO_COMBAT = "go_to_combat"  # main1: go to the declare attackers step
END_TURN = "end_turn"  # main: end the turn (from main1: without combat)
ATTACK = "attack"  # declare attackers: this creature attacks the horde
CONFIRM_ATTACKERS = "confirm_attackers"
BLOCK = "block"  # declare blockers: this creature blocks that attacker
UNBLOCK = "unblock"  # declare blockers: take back a block (e.g. to satisfy menace)
CONFIRM_BLOCKERS = "confirm_blockers"


@dataclass(frozen=True, order=True)
class Action:
    """One decision. `player` is the PC acting, `card` its card id, `x` the value
    of X for a cast, `target` the attacker (owner, card id) a blocker blocks."""

    kind: str
    player: str = ""
    card: int = -1
    x: int = 0
    target: tuple[str, int] = ("", -1)


def describe(battle, action: Action) -> str:
    """The action in words, for a human at the table."""
    kind = action.kind
    if kind in (PLAY_LAND, CAST, ATTACK, BLOCK, UNBLOCK):
        pc = battle.side(action.player)
        name = pc.cards[action.card].name
        if kind == PLAY_LAND:
            return f"{pc.name}: play {name}"
        if kind == CAST:
            return f"{pc.name}: cast {name}" + (f" with X={action.x}" if action.x else "")
        if kind == ATTACK:
            return f"{pc.name}: attack with {name}"
        if kind == UNBLOCK:
            return f"{pc.name}: take back the block of {name}"
        owner, card = action.target
        return f"{pc.name}: block {battle.side(owner).cards[card].name} (#{card}) with {name}"
    if kind == ESCAPE:
        return f"{battle.side(action.player).name}: try to escape (check, T-6.6)"
    return {
        BOOST: "boost the check (exile the top 6 cards, T-4.6)",
        NO_BOOST: "accept the check result",
        GO_TO_COMBAT: "go to combat",
        END_TURN: "end the turn",
        CONFIRM_ATTACKERS: "confirm attackers",
        CONFIRM_BLOCKERS: "confirm blockers",
    }[kind]
