"""A two-player dice race: the worked example of a game system (docs/development.md,
"Adding a game system"). Everything it adds lives in this package; importing it registers it.
"""

from __future__ import annotations

from collections import Counter
from html import escape

from deckquest.systems import CodeRange, GameSystem, Option, Reading, register

from dice_race.engine import FirstAgent, GreedyAgent, RaceGame, RandomAgent
from dice_race.language import EVENTS, GRAMMAR, Advance, Builder, place, resolve

TRIGGERS = {"move": "racer_moves", "stumble": "racer_stumbles", "knocked_back": "racer_knocked_back",
            "win": "racer_wins"}


@register
class DiceRace(GameSystem):
    name = "dice_race"
    title = "Dice Race"
    options = (Option("knock back", "DR-4", "tests/systems/dice_race/engine.py:7",
                      "landing on another racer's square sends it back to the start"),)
    readings = (Reading("finish", ("past", "exact"), "DR-3", "tests/systems/dice_race/engine.py:6",
                        "past: reaching or passing the last square wins; exact: land on it exactly"),)
    codes = CodeRange(6000, 6099)
    grammar = GRAMMAR
    builder = Builder
    scenes_required = False
    subject = "racer"
    subject_attributes = ("position", "turns", "to_go")
    events = EVENTS
    reserved_words = frozenset({"racer", "advance", "track", "plays"})
    agents = {"first": FirstAgent, "random": RandomAgent, "greedy": GreedyAgent}

    @classmethod
    def resolve(cls, context):
        return resolve(context, cls.agents)

    @classmethod
    def statement_handlers(cls):
        return {Advance: advance}

    @classmethod
    def new_game(cls, run):
        scenario = run.scenario
        table = scenario.system_table
        return RaceGame(table.track, tuple(racer for racer, _, _ in table.racers),
                        exact=scenario.readings["finish"] == "exact", knock_back="knock back" in scenario.options)

    @classmethod
    def game_data(cls, game):
        return game.to_data()

    @classmethod
    def load_game(cls, scenario, data):
        return RaceGame.from_data(data)

    @classmethod
    def subjects(cls, game):
        return game.order

    @classmethod
    def seats(cls, scenario):
        return {racer: (name, plays) for racer, name, plays in scenario.system_table.racers}

    @classmethod
    def triggers_for(cls, event):
        kind = TRIGGERS.get(event["event"])
        return [(kind, event["racer"], None)] if kind else []

    @classmethod
    def outcome(cls, run):
        winner = run.state.game.winner
        return f"{winner} wins", f"{cls.seats(run.scenario)[winner][0]} wins the race."

    @classmethod
    def subject_value(cls, run, subject, attribute):
        game = run.state.game
        if attribute is None:
            return cls.seats(run.scenario)[subject][0]
        if attribute == "position":
            return game.positions[subject]
        if attribute == "turns":
            return game.turns[subject]
        return game.track - game.positions[subject]

    @classmethod
    def record(cls, run):
        game = run.state.game
        return (game.winner, game.turns[game.winner] + 1 if game.winner else None)

    @classmethod
    def report(cls, rows: Counter, runs: int):
        wins: Counter = Counter()
        turns: Counter = Counter()
        for (winner, taken), count in rows.items():
            if winner is not None:
                wins[winner] += count
                turns[winner] += taken * count
        return {"racers": {racer: {"wins": wins[racer], "share": round(wins[racer] / runs, 6) if runs else 0.0,
                                   "mean_turns": round(turns[racer] / wins[racer], 6) if wins[racer] else None}
                           for racer in sorted(wins)}}

    @classmethod
    def report_text(cls, section):
        lines = ["Racers        wins   share   turns to win (mean)"]
        for racer, row in section["racers"].items():
            mean = "-" if row["mean_turns"] is None else f"{row['mean_turns']:.1f}"
            lines.append(f"  {racer:<10} {row['wins']:>6,} {100 * row['share']:6.1f}%   {mean}")
        return lines

    @classmethod
    def report_html(cls, section):
        rows = "".join(f"<tr><td>{escape(racer)}</td><td>{row['wins']}</td><td>{100 * row['share']:.1f}%</td></tr>"
                       for racer, row in section["racers"].items())
        return f'<h2 id="racers">Racers</h2><table><tr><th>racer</th><th>wins</th><th>share</th></tr>{rows}</table>'

    @classmethod
    def render(cls, event, names):
        name = names.get(event.get("racer"), event.get("racer"))
        kind = event["event"]
        if kind == "roll":
            return [f"{name} rolls {event['die']}."]
        if kind == "dash":
            return [f"{name} dashes!"]
        if kind == "move":
            return [f"{name} moves {event['squares']} to square {event['position']} of {event['track']}."]
        if kind == "stumble":
            return [f"{name} stumbles ({event['second']} after {event['first']})."]
        if kind == "knocked_back":
            return [f"{name} is knocked back to the start by {names.get(event['by'], event['by'])}."]
        if kind == "win":
            return [f"{name} wins after {event['turns']} turns!"]
        return None


def advance(run, stmt: Advance, frame) -> None:
    """``advance WHO N``: the racer moves; the events fire their triggers."""
    racer = run.scenario.system_table.advances[place(stmt.span)]
    if racer == "racer":
        racer = frame.pc
    events: list[dict] = []
    run.state.game.move(racer, stmt.squares, events)
    run.game_events(events)
