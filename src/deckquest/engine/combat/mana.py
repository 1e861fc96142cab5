"""Paying mana costs from mana sources (lands, mana rocks, mana creatures).

A source is a permanent whose tap ability makes some units of mana (see
`profile.mana_units`). Paying a cost taps a set of untapped sources whose units
cover every coloured, hybrid and colourless symbol and then the generic part
(with X). Nothing is paid from a source that is tapped or summoning sick, so
mana that is not there can never be spent. The mana pool empties between
steps, so a source's surplus units are lost (as in MTG since there is no burn).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from deckquest.cards.model import ManaCost


@dataclass(frozen=True)
class Requirement:
    """A mana cost as payment needs it: symbols needing a type of mana (each the
    set of acceptable types), generic mana, the number of X, and two-brid symbols
    ({2/G}: a G or two generic)."""

    symbols: tuple[frozenset[str], ...]
    generic: int
    x_count: int
    twobrid: tuple[frozenset[str], ...]

    def total(self, x: int = 0) -> int:
        return len(self.symbols) + len(self.twobrid) + self.generic + self.x_count * x


@lru_cache(maxsize=4096)
def requirement(cost: ManaCost | None) -> Requirement:
    """Read a mana cost. Phyrexian symbols are paid with their colour (paying
    life instead is not simulated); snow counts as generic."""
    symbols: list[frozenset[str]] = []
    twobrid: list[frozenset[str]] = []
    generic = x_count = 0
    for symbol in cost.symbols if cost else ():
        if symbol.kind == "generic":
            generic += symbol.amount
        elif symbol.kind == "variable":
            x_count += 1
        elif symbol.kind == "colorless":
            symbols.append(frozenset("C"))
        elif symbol.kind == "hybrid" and symbol.text.upper().startswith("{C/"):
            symbols.append(frozenset(symbol.colors) | {"C"})
        elif symbol.kind in ("colored", "hybrid", "phyrexian"):
            symbols.append(frozenset(symbol.colors))
        elif symbol.kind == "twobrid":
            twobrid.append(frozenset(symbol.colors))
        else:  # snow
            generic += 1
    symbols.sort(key=len)  # the most demanding symbols are matched first
    return Requirement(tuple(symbols), generic, x_count, tuple(twobrid))


Source = tuple[int, tuple[frozenset[str], ...]]  # (index of the permanent, its units)


Made = tuple[tuple[frozenset[str], ...], ...]  # what each source makes, in the sources' order
#: Payments already worked out: id(cost) -> (cost, {(what the sources make, x): the
#: positions in the sources list to tap, or None}). A battle pays the same few costs from
#: the same few lands again and again; the answer depends only on what each source makes.
_PAID: Final[dict[int, tuple[Requirement, dict[tuple[Made, int], tuple[int, ...] | None]]]] = {}
_PAID_MAX: Final = 20_000
#: What `paid`'s memo answers for a payment not worked out yet (no position is -1).
_NOT_KNOWN: Final[tuple[int, ...]] = (-1,)


def pay(sources: list[Source], cost: Requirement, x: int = 0) -> list[int] | None:
    """The permanents to tap to pay `cost` with X = `x`, or None if it cannot be paid.

    Coloured symbols take the least flexible unit that fits (backtracking when a
    later symbol needs it), so a Forest pays {G} before a dual land does; then
    generic mana takes what is left, leftovers of already tapped sources first.
    Two-brid symbols are paid with their colour when possible, else with two generic.
    The sources must be in the order of their permanents (as `casting.mana_sources`
    lists them): the answer is remembered by what each source makes, as positions.
    """
    positions = paid(tuple([made for _, made in sources]), cost, x)
    return None if positions is None else [sources[i][0] for i in positions]


def paid(made: Made, cost: Requirement, x: int = 0) -> tuple[int, ...] | None:
    """`pay` by what each source makes: the positions of the sources to tap, remembered
    (a caller that asks of many costs builds `made` once)."""
    entry = _PAID.get(id(cost))
    if entry is None or entry[0] is not cost:
        if len(_PAID) >= _PAID_MAX:
            _PAID.clear()
        entry = _PAID[id(cost)] = (cost, {})
    key = (made, x)
    memo = entry[1]
    positions = memo.get(key, _NOT_KNOWN)  # one look (`in` and then `[]` hashed `made` twice)
    if positions is not _NOT_KNOWN:
        return positions
    if len(memo) >= _PAID_MAX:
        memo.clear()
    positions = memo[key] = _positions(made, cost, x)
    return positions


def _positions(made: Made, cost: Requirement, x: int) -> tuple[int, ...] | None:
    """`pay` for sources numbered by their position."""
    units = [(source, unit) for source, units_made in enumerate(made) for unit in units_made]
    if len(units) < cost.total(x):
        return None
    for as_colour in range(len(cost.twobrid), -1, -1):
        symbols = cost.symbols + cost.twobrid[:as_colour]
        generic = cost.generic + cost.x_count * x + 2 * (len(cost.twobrid) - as_colour)
        tapped = _pay(units, symbols, generic)
        if tapped is not None:
            return tuple(tapped)
    return None


Unit = tuple[int, frozenset[str]]  # (position of the source that makes it, the mana types it can be)


def _pay(units: list[Unit], symbols: tuple[frozenset[str], ...], generic: int) -> list[int] | None:
    order = sorted(range(len(units)), key=lambda i: len(units[i][1]))
    used = [False] * len(units)
    if not _match(units, order, symbols, 0, used):
        return None
    tapped = {units[i][0] for i in range(len(units)) if used[i]}
    rest = [i for i in order if not used[i]]
    rest.sort(key=lambda i: (units[i][0] not in tapped, len(units[i][1])))
    if len(rest) < generic:
        return None
    tapped.update(units[i][0] for i in rest[:generic])
    return sorted(tapped)


def _match(units: list[Unit], order: list[int], symbols: tuple[frozenset[str], ...], position: int,
           used: list[bool]) -> bool:
    if position == len(symbols):
        return True
    wanted = symbols[position]
    for i in order:
        if not used[i] and units[i][1] & wanted:
            used[i] = True
            if _match(units, order, symbols, position + 1, used):
                return True
            used[i] = False
    return False


def max_x(sources: list[Source], cost: Requirement) -> int:
    """The largest X the sources can pay for (0 when the cost has no X or cannot be paid)."""
    return max_x_of(tuple([made for _, made in sources]), cost)


def max_x_of(made: Made, cost: Requirement) -> int:
    """`max_x` by what each source makes."""
    if not cost.x_count:
        return 0
    best = 0
    units = sum(len(units_made) for units_made in made)
    for x in range(1, (units - cost.total(0)) // cost.x_count + 1):
        if paid(made, cost, x) is None:
            break
        best = x
    return best
