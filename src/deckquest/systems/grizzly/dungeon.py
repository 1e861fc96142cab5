"""The ☆ dungeon (G-16, G-R8): rooms a lap bonus may venture into instead of a counter.

The seed names no dungeon card (G-R8), so the reading picks one of the Forgotten Realms
dungeon cards, read through G-26: rooms that create tokens (a Treasure included) or change
life do nothing; scry, draw and counters work. A room's ``effect`` is one of ``scry``,
``draw``, ``counter`` (+1/+1 counter on your bears, G-R7), ``weaken`` (a creature of your
choice gets -N/-0 until your next turn), ``mill`` (the library's top N cards are exiled and
go to the graveyard, G-20) or ``none``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Room:
    name: str
    effect: str
    amount: int = 1
    next: tuple[int, ...] = ()  # rooms one may venture into next; () = the last room
    note: str = ""  # why a room does nothing (G-26)


LOST_MINE = (
    Room("Cave Entrance", "scry", 1, (1, 2)),
    Room("Goblin Lair", "none", 0, (3, 4), "creates a Goblin token: no tokens (G-26)"),
    Room("Mine Tunnels", "none", 0, (4, 5), "creates a Treasure token: no tokens (G-26)"),
    Room("Storeroom", "counter", 1, (6,)),
    Room("Dark Pool", "none", 0, (6,), "life does not exist (G-26)"),
    Room("Fungi Cavern", "weaken", 4, (6,)),
    Room("Temple of Dumathoin", "draw", 1, ()),
)

MAD_MAGE = (
    Room("Yawning Portal", "none", 0, (1,), "life does not exist (G-26)"),
    Room("Dungeon Level", "scry", 1, (2, 3)),
    Room("Goblin Bazaar", "none", 0, (4,), "creates a Treasure token: no tokens (G-26)"),
    Room("Twisted Caverns", "none", 0, (4,), "attack restrictions mean nothing here"),
    Room("Lost Level", "scry", 2, (5, 6)),
    Room("Runestone Caverns", "mill", 2, (7,), "casting the exiled cards is not simulated"),
    Room("Muiral's Graveyard", "none", 0, (7,), "creates Skeleton tokens: no tokens (G-26)"),
    Room("Deep Mines", "scry", 3, (8,)),
    Room("Mad Wizard's Lair", "draw", 3, (), "casting one of them for free is not simulated"),
)

DUNGEONS = {"phandelver": ("Lost Mine of Phandelver", LOST_MINE), "madmage": ("Dungeon of the Mad Mage", MAD_MAGE)}
