"""Seat win rates computed exactly, checked against Monte Carlo of the engine itself.

The configuration: a loop of one square per player and a library of Typhoid Rats only (1/1,
deathtouch), every seat playing ``first`` (roll, go alone, end). Every landing is a trade
(G-12: the bears kill the Rats and the deathtouch kills the bears), so every turn starts at
home, and a turn's only gain is the laps its roll passes (G-16, G-R1):

- home corner (G-R1 corner): a roll k from the corner passes home (k - 1) // L times;
- home square (G-R1 square): it passes or lands on home k // L times.

A seat wins the moment it has the Treasures to win (G-1); seats roll in turn order. The
race's odds are worked out here with fractions, independently of the engine.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache

import pytest

from deckquest.cards.database import default_database
from deckquest.engine.game import play
from deckquest.sim.stats import wilson_interval
from deckquest.systems.grizzly import GrizzlyConfig, GrizzlyState, Seat
from deckquest.systems.grizzly.agents import FirstAgent

Z999 = 3.29  # a 99.9% interval: a seat fails by chance once in a thousand


def gains(home: str, loop: int) -> dict[int, Fraction]:
    """Treasures one turn gains: the laps a d6 roll from home makes."""
    found: dict[int, Fraction] = {}
    for k in range(1, 7):
        laps = (k - 1) // loop if home == "corner" else k // loop
        found[laps] = found.get(laps, Fraction(0)) + Fraction(1, 6)
    return found


def exact_win_rates(gain: dict[int, Fraction], need: int, seats: int) -> list[Fraction]:
    """Each seat's chance to reach ``need`` first, seat 0 rolling first.

    V(needs, m) = C(needs, m) + p0 * V(needs, m + 1), where C sums the rolls that gain; going
    round the table with no gain returns to the same state, so
    V(needs, m) = sum_j p0^j C(needs, m + j) / (1 - p0^seats)."""
    p0 = gain.get(0, Fraction(0))

    @lru_cache(maxsize=None)
    def value(needs: tuple[int, ...], mover: int) -> tuple[Fraction, ...]:
        total = [Fraction(0)] * seats
        for j in range(seats):
            seat = (mover + j) % seats
            for part, share in enumerate(direct(needs, seat)):
                total[part] += p0 ** j * share
        return tuple(t / (1 - p0 ** seats) for t in total)

    def direct(needs: tuple[int, ...], seat: int) -> list[Fraction]:
        shares = [Fraction(0)] * seats
        for amount, chance in gain.items():
            if amount == 0:
                continue
            if amount >= needs[seat]:
                shares[seat] += chance
                continue
            after = list(needs)
            after[seat] -= amount
            for part, share in enumerate(value(tuple(after), (seat + 1) % seats)):
                shares[part] += chance * share
        return shares

    return list(value((need,) * seats, 0))


def test_exact_race_formula_on_a_hand_example():
    """A check of the formula itself: one seat needing one Treasure always wins; two seats
    needing one lap each with p = 1/2 per turn: the first seat wins 2/3."""
    assert exact_win_rates({0: Fraction(1, 2), 1: Fraction(1, 2)}, 1, 1) == [1]
    assert exact_win_rates({0: Fraction(1, 2), 1: Fraction(1, 2)}, 1, 2) == [Fraction(2, 3), Fraction(1, 3)]


def _config(home: str, seats: int, need: int) -> GrizzlyConfig:
    rats = default_database().get("Typhoid Rats")
    assert rats is not None
    return GrizzlyConfig(
        seats=tuple(Seat(f"s{i}", f"Seat {i}") for i in range(seats)),
        library=(rats,) * 30, squares_per_player=1, treasures_to_win=need, readings={"home": home})


@pytest.mark.slow
@pytest.mark.parametrize("home, seats, need", [("corner", 3, 3), ("square", 2, 4)])
def test_engine_win_rates_agree_with_the_exact_race(home, seats, need):
    """G-1, G-12, G-16, G-R1: Monte Carlo of the engine lands within a 99.9% Wilson interval of
    the exact win rate for every seat."""
    config = _config(home, seats, need)
    exact = exact_win_rates(gains(home, seats), need, seats)
    runs = 3000
    wins = [0] * seats
    agents = {seat.id: FirstAgent() for seat in config.seats}
    for index in range(runs):
        rng = random.Random(index)
        state = GrizzlyState.new(config, rng)
        play(state, agents, rng)
        outcome = state.outcome()
        assert outcome is not None and outcome["reason"] == "treasures"
        wins[int(outcome["winner"][1:])] += 1
    for seat in range(seats):
        low, high = wilson_interval(wins[seat], runs, Z999)
        assert low <= float(exact[seat]) <= high, (seat, wins, [float(e) for e in exact])


def test_every_landing_is_a_trade_in_the_exact_configuration():
    """The premise of the exact race: the Rats trade with the bears at every landing."""
    config = _config("corner", 2, 2)
    rng = random.Random(5)
    events: list[dict] = []
    state = GrizzlyState.new(config, rng, events)
    play(state, {"s0": FirstAgent(), "s1": FirstAgent()}, rng, events)
    results = {e["result"] for e in events if e["event"] == "bears_fight"}
    assert results == {"trade"}


RACE = '''scenario "Race":
    system grizzly
    players 2
    treasures to win 2
    reading home {home}
library "decks/lands.txt"
squares 2 per player
seat ann "Ann"
seat bob "Bob"
'''


def exact_race(loop: int, need: int, home: str) -> float:
    """The first seat's chance in a pure dice race: a library of lands only, so no flip does
    anything (G-R3) and nobody dies; a seat has its Treasures after ``need`` laps, that is a
    total move of need * loop + 1 from the home corner, need * loop with the home square (G-R1)."""
    target = need * loop + (1 if home == "corner" else 0)

    @lru_cache(maxsize=None)
    def first_wins(mover: int, other: int) -> Fraction:
        total = Fraction(0)
        for k in range(1, 7):
            total += Fraction(1, 6) * (1 if mover + k >= target else 1 - first_wins(other, mover + k))
        return total

    return float(first_wins(0, 0))


@pytest.mark.slow
@pytest.mark.parametrize("home", ["corner", "square"])
def test_sim_balance_report_agrees_with_an_exact_race(tmp_path, home):
    """`deckquest sim` on a script: each seat's win rate's 99.9% interval holds the exact one."""
    import json

    from click.testing import CliRunner

    from deckquest.cli import main

    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "lands.txt").write_text("60 Forest\n", encoding="utf-8")
    script = tmp_path / "race.quest"
    script.write_text(RACE.format(home=home), encoding="utf-8")
    report = tmp_path / "report.json"
    result = CliRunner().invoke(main, ["sim", str(script), "-n", "3000", "--jobs", "1", "--agent", "first",
                                       "--json", str(report)])
    assert result.exit_code == 0, result.stderr
    seats = json.loads(report.read_text())["system"]["seats"]
    exact = exact_race(4, 2, home)
    for seat, rate in zip(seats, (exact, 1 - exact)):
        low, high = wilson_interval(seat["wins"], 3000, Z999)
        assert low <= rate <= high, (seat, rate)
