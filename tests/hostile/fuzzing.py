"""A seeded mutation fuzzer over what strangers hand deckquest: scripts and saves of every game
(MTG-TRPG, grizzly, arena, isekai), deck lists and pack manifests (issues 12 and 28).

Each kind of input starts from real inputs (every bundled scenario, by its game; real saves of
every game that can be saved; their deck lists; a pack skeleton's manifest), mutates them with a
seeded `random.Random` (cut, duplicate, splice, insert tokens of the format and hostile values:
huge numbers, `1e400`, NaN, deep brackets, NUL, tabs, NFD accents; a save's JSON also as
data, `mutate_json`) and feeds each result to the public library call a command would make.
Every input must either succeed or raise DeckquestError; anything else is a crash, recorded
with its input. A script that compiles is also played (a few hundred steps, as `run` does, and
two runs of a batch with its report, as `sim` does), and a save that loads is played on.

`tests/hostile/test_fuzz.py` runs a few seconds of it in CI; `benchmarks/fuzz.py --minutes N`
runs it at length and prints the figures (docs/hostile.md).
"""

from __future__ import annotations

import functools
import json
import random
import re
import shutil
import time
import traceback
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from fuzzing_lsp import add_language_server  # the language server's input: the `lsp` kind (issue 28)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
MAX_INPUT = 200_000  # characters: mutations cut an input down to this

HOSTILE_VALUES = [
    "99999999999999999999", "x99999999", "-1", "0", "1e400", "-1e400", "NaN", "Infinity", "[" * 200,
    "{" * 50, "(" * 40, '"', "\\", "\x00", "\t", "\r\n", "\u200b", "\ufeff", unicodedata.normalize("NFD", "é"),
    "../../etc/passwd", "/etc/passwd", "C:\\x", "~", "{zz}" * 50, "null", "true", "[]", "{}", "''", "…",
]
TOKENS = {
    "script": ['scenario "T":', "rules 2019", "rules 2014", 'pc alice "A":', 'deck "decks/green.txt"',
               'critical "Forest" x3', "flag lit", "counter torches = 3", 'start scene s "S":', "-> s",
               "check green difficulty 3 by party:", "success:", "failure:", 'end victory "won"', "choice:",
               '"Go" if lit:', "battle against bear:", "victory:", "defeat:", "if lit and torches < 2:", "else:",
               "torches += 1", "set lit", "wait 10 minutes", 'use "other.quest"', "when battle turn 2:",
               '"{pc} {torches} {party size}"', "    ", "\n", ":"],
    "save": ['"scene": ', '"steps": ', '"pcs": ', '"rng": ', '"party": ', '"deck": ', '"hand": ', '"life": ',
             "{", "}", "[", "]", ",", ":", '"', "0", "1", "-5", "2.5", "[1,2,3]", '{"a": 1}'],
    "script:grizzly": ["system grizzly", "treasures to win 5", "expert rules", "turn limit 200 rounds",
                       'library "decks/sword_coast.txt"', "squares 3 per player", 'seat ana "Ana":', "plays greedy",
                       "dash if hand has mana value 5 or more", "offer co-op if the flipped power is 3 or more",
                       "refuse co-op", "venture", "option dungeon", "reading home square", "when a bear dies:",
                       "when a treasure is gained if seat.treasures == 4:", '"{seat} {seat.treasures}"'],
    "script:arena": ["system arena", 'battlefield "F":', 'row "0 1 ~ # ."', "start p1 at 1,1 2,1",
                     'glyph "G" at 2,1:', 'army p1 "A":', 'planeswalker "P" life 5 move 4 range 1 attack 3 defence 2 size 5',
                     'squad "S" x3 life 1 move 5 range 1 attack 2 defence 2 size 4 cost 40', 'spells "Smite" x10',
                     'spell "Smite":', "deal 2 damage to a figure in range 4 of your planeswalker",
                     "roll 3 attack dice against an enemy figure", "attack +1 for its army", "draw 1 spell",
                     'victory hold "G" for 2 rounds', "victory score 100 points", "when round 3:", "flying",
                     "turn limit 30 rounds", "dice 3 swords 2 shields 1 blank", "hexes 2", "when destroyed:"],
    "script:isekai": ["system isekai", 'unit knight "K":', 'skill parry "P":', "cost 2", "range near", "attack 2",
                      "hp 3", "speed 2", "unique", "blessing 3", "reversal if your main deck has 5 or fewer cards",
                      "deal 1 damage to an enemy unit", "give your unit +1 speed", "protect your unit",
                      "move 2 cards from your hand to your mana zone", "recovery 2", 'deck road "R":',
                      "main knight x30, archer x18", "skills parry x40", "status oath",
                      'duelist kai "Kai" with road', "duel against keeper with road by alice:", "draw:",
                      "reading stall 200", "when a duelist takes damage if duelist.main <= 5:"],
    "save:grizzly": ['"tasks": ', '{"tuple": ["move", 3]}', '{"tuple": ["next_seat"]}', '"hands": ', '"sq_card": ',
                     '"pending": ', '"waiting": ', '{"dict": []}', '{"frozenset": []}', "-1"],
    "save:isekai": ['"players": ', '"field": ', '"chain": ', '"declaration": ', '"reveals": ', '"uid": ',
                    '"knight"', '["unit", 1]', '["player", "kai"]', '"sub_game": '],
    "deck": ["24 Forest", "Forest", "4x Llanowar Elves", "Sideboard", "SB: 2 Mountain", "// comment", "# x",
             "Commander", "1 Sol Ring", "100 Grizzly Bears", "0 Forest", "-3 Forest", "3 ", "\n"],
    "manifest": ["name: ", "version: ", "title: ", "depends:", "  - ", "scenarios:", "decks:", "files:", "tags:",
                 "license: ", 'deckquest: ">=0.1"', "&a [1]", "*a", "!!python/object", "? ", "- ", ": ", "|",
                 ">", "'", '"', "#", "---", "...", "\n"],
}


@dataclass
class Crash:
    target: str
    signature: str  # exception type and the innermost deckquest frame
    text: str  # the input
    trace: str


@dataclass
class Figures:
    """What a fuzzing session did, per target and in all."""

    tried: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)  # inputs that raised DeckquestError
    crashes: list[Crash] = field(default_factory=list)
    slowest: tuple[float, str, str] = (0.0, "", "")  # seconds, target, input

    @property
    def total(self) -> int:
        return sum(self.tried.values())


#: The games a run of can be saved (an arena game cannot yet), and the real saves the save
#: targets start from: (scenario, steps into a seeded random run). MTG-TRPG's Goblin Cave is
#: saved in the middle of its battle, the Mistford Toll in the middle of its duel.
SAVES = {
    "trpg": [("drowned_shrine", 12), ("goblin_cave", 25)],
    "grizzly": [("sword_coast", 8), ("undermountain", 60)],
    "isekai": [("road_duel", 40), ("mistford_toll", 40)],
}
GAMES = ("trpg", "grizzly", "arena", "isekai")
KINDS = (*(f"script:{game}" for game in GAMES), *(f"save:{game}" for game in SAVES), "deck", "manifest")
PLAYED_STEPS = 300  # a compiled script is played this many steps (`run`) and twice as long in `sim`


class Fuzzer:
    """The targets, their seed inputs and the mutations, over one working folder. A kind of
    input per game: `script:GAME` starts from that game's bundled scenarios, `save:GAME` from
    real saves of them; `deck` and `manifest` are shared."""

    def __init__(self, folder: Path, seed: int = 0, max_input: int = MAX_INPUT):
        from deckquest.cards.database import CardDatabase, builtin_index
        from deckquest.systems import load_all

        load_all()
        self.folder = folder
        self.max_input = max_input
        self.rng = random.Random(seed)
        self.db = CardDatabase(builtin_index())
        for decks in sorted(SCENARIOS.glob("*/decks")):  # the bundled scenarios' own decks
            shutil.copytree(decks, folder / "decks", dirs_exist_ok=True)
        self.seeds: dict[str, list[str]] = {}
        for path in sorted(SCENARIOS.glob("*/*.quest")):  # a deck of another scenario is in ./decks here
            text = re.sub(r'"\.\./\w+/decks/', '"decks/', path.read_text("utf-8"))
            self.seeds.setdefault(f"script:{self._program(path.parent.name).scenario.system}", []).append(text)
        self.saved: dict[str, list[tuple[str, Any]]] = {}  # save:GAME -> [(save text, its program)]
        for game, saves in SAVES.items():
            self.saved[f"save:{game}"] = [self._a_save(name, steps) for name, steps in saves]
            self.seeds[f"save:{game}"] = [text for text, _ in self.saved[f"save:{game}"]]
        self.seeds["deck"] = [p.read_text("utf-8") for p in sorted(SCENARIOS.glob("*/decks/*.txt"))]
        self.seeds["manifest"] = [self._a_manifest()]
        self.targets: dict[str, Callable[[str], None]] = {
            **{kind: self.script for kind in self.seeds if kind.startswith("script:")},
            **{kind: functools.partial(self.save, kind) for kind in self.saved}, "deck": self.deck,
            "manifest": self.manifest,
        }
        self._seed_used = 0  # the seed input the last mutation started from (a save's program)
        assert set(self.targets) == set(KINDS), set(self.targets) ^ set(KINDS)
        add_language_server(self, TOKENS)  # the `lsp` kind, beside KINDS: only where pygls is installed

    # ------------------------------------------------------------ seed inputs

    def _program(self, name: str) -> Any:
        """The bundled scenario `name`, compiled once."""
        from deckquest.dsl.resolver import compile_file
        from deckquest.runtime.interpreter import Program

        programs = self.__dict__.setdefault("_programs", {})
        if name not in programs:
            programs[name] = Program(compile_file(SCENARIOS / name / f"{name}.quest", self.db))
        return programs[name]

    def _a_save(self, name: str, steps: int) -> tuple[str, Any]:
        """A real save of the scenario `name`, `steps` steps into a seeded random run."""
        from deckquest.runtime.agents import make_agent
        from deckquest.runtime.interpreter import Run
        from deckquest.runtime.saves import save_run

        program = self._program(name)
        run = Run(program, make_agent("random"), random.Random(3), seed=3)
        for _ in range(steps):
            if not run.step():
                break
        path = self.folder / f"seed-{name}.json"
        save_run(run, path, seed=3, agent="random")
        return path.read_text("utf-8"), program

    def _a_manifest(self) -> str:
        from deckquest.packs.build import init_pack

        (self.folder / "packs").mkdir(exist_ok=True)
        root = init_pack("fuzz-seed", self.folder / "packs")
        return (root / "pack.yaml").read_text("utf-8")

    # ------------------------------------------------------------ targets: the library calls of the commands

    def script(self, text: str) -> None:
        """`deckquest check`, then a short `run` and `sim` of any game: compile, play a few
        hundred steps with a seeded random agent, then two runs of a batch and its report."""
        from deckquest.dsl.resolver import compile_source
        from deckquest.runtime.interpreter import run_scenario
        from deckquest.sim.batch import simulate

        scenario = compile_source(text, self.folder / "fuzz.quest", self.db)
        if all(pc.deck is not None for pc in scenario.pcs.values()):  # else its party comes from --party
            run_scenario(scenario, "random", seed=1, record=False, max_steps=PLAYED_STEPS)
            report = simulate(scenario, runs=2, seed=1, jobs=1, agent="random", max_steps=2 * PLAYED_STEPS)
            report.text()
            report.to_json()

    def save(self, kind: str, text: str) -> None:
        """`deckquest run --resume`: read the save, rebuild its run and play it on (with the
        program of the script the mutated save was made for)."""
        from deckquest.runtime.agents import make_agent
        from deckquest.runtime.saves import load_run

        program = self.saved[kind][self._seed_used][1]
        path = self.folder / "fuzz-save.json"
        path.write_text(text, "utf-8", errors="surrogatepass")
        run = load_run(program, path, make_agent("random"))
        for _ in range(PLAYED_STEPS):
            if not run.step():
                break

    def deck(self, text: str) -> None:
        """Any command loading a deck list."""
        from deckquest.cards.decklist import parse_deck

        parse_deck(text, str(self.folder / "fuzz-deck.txt"), self.db)

    def manifest(self, text: str) -> None:
        """`deckquest pack validate`'s first step: the manifest."""
        from deckquest.packs.manifest import load_manifest

        path = self.folder / "pack.yaml"
        path.write_text(text, "utf-8", errors="surrogatepass")
        load_manifest(path)

    # ------------------------------------------------------------ mutation

    def mutate(self, target: str) -> str:
        """A mutated input of `target`: text edits, mostly one (more inputs get past parsing);
        half the saves are mutated as JSON instead (`mutate_json`: deeper, into the game's
        state), and are not cut to `max_input` (their seeds are some 10 KB)."""
        self._seed_used = self.rng.randrange(len(self.seeds[target]))
        text = self.seeds[target][self._seed_used]
        if target.startswith("save:") and self.rng.random() < 0.5:
            data = json.loads(text)
            for _ in range(self.rng.choice((1, 1, 2))):
                data = mutate_json(data, self.rng, self.rng.choice(_roots(data)))
            return json.dumps(data)
        for _ in range(self.rng.choice((1, 1, 1, 2, 4))):
            text = self._edit(text, target)
        return text if target.startswith("save:") else text[:self.max_input]

    def _edit(self, text: str, target: str) -> str:
        rng = self.rng
        at = rng.randint(0, len(text))
        end = min(len(text), at + rng.choice((1, 2, 5, 20, 200)))
        kind = rng.randrange(7)
        if kind == 0:  # cut
            return text[:at] + text[end:]
        if kind == 1:  # a token of the format
            return text[:at] + rng.choice(TOKENS[target.split(":")[0]] + TOKENS.get(target, [])) + text[at:]
        if kind == 2:  # a hostile value in place of a span
            return text[:at] + rng.choice(HOSTILE_VALUES) + text[end:]
        if kind == 3:  # a line repeated many times
            lines = text.split("\n")
            line = rng.randrange(len(lines))
            lines[line:line + 1] = [lines[line]] * rng.choice((2, 10, 300))
            return "\n".join(lines)
        if kind == 4:  # a span from another seed input
            other = rng.choice(self.seeds[target])
            start = rng.randint(0, len(other))
            return text[:at] + other[start:start + rng.randint(1, 300)] + text[end:]
        if kind == 5:  # a digit becomes a huge or negative number
            digits = [i for i, c in enumerate(text) if c.isdigit()]
            if digits:
                i = rng.choice(digits)
                return text[:i] + rng.choice(("9" * rng.randint(8, 400), "-7", "0", "1e400")) + text[i + 1:]
            return text
        return text[:at] + chr(rng.choice((0, 9, 10, 13, 34, 39, 91, 93, 123, 125, 0x301, 0xFEFF, 0x1F600))) + text[at:]

    # ------------------------------------------------------------ running

    def one(self, target: str, figures: Figures) -> None:
        """Try one mutated input of `target`, adding to the figures."""
        from deckquest.errors import DeckquestError

        text = self.mutate(target)
        started = time.perf_counter()
        try:
            self.targets[target](text)
        except DeckquestError:
            figures.refused[target] = figures.refused.get(target, 0) + 1
        except Exception as crash:  # the finding: anything but a DeckquestError
            figures.crashes.append(Crash(target, _signature(crash), text, traceback.format_exc()))
        elapsed = time.perf_counter() - started
        figures.tried[target] = figures.tried.get(target, 0) + 1
        if elapsed > figures.slowest[0]:
            figures.slowest = (elapsed, target, text)

    def run(self, seconds: float | None = None, targets=None, figures: Figures | None = None,
            inputs: int | None = None) -> Figures:
        """Fuzz the targets in turn for `seconds` of wall time (the long runs) or for `inputs`
        inputs (CI: the same inputs on any machine, however loaded)."""
        figures = figures or Figures()
        names = list(targets or self.targets)
        deadline = None if seconds is None else time.perf_counter() + seconds
        turn = 0
        while (deadline is None or time.perf_counter() < deadline) and (inputs is None or turn < inputs):
            self.one(names[turn % len(names)], figures)
            turn += 1
        return figures


# ------------------------------------------------------------ structured mutations of JSON (saves)

#: Values a mutation puts where another was: every JSON type, the game state's own tags and words.
ODD_VALUES = ["", "x", None, True, False, 1.5, [], {}, {"tuple": []}, [[]], {"dict": []}, -1, 0, "next_seat"]
HUGE = [10**30, 2**63, 2**31, 1_000_001]
WORDS = ["next_seat", "main", "effect", "ability", "bear", "square", "unit", "player", "hand", "deal", "reveal"]


def mutate_json(data: Any, rng: random.Random, root: tuple[Any, ...] = ()) -> Any:
    """A copy of JSON ``data`` with one seeded mutation somewhere under ``root``: a key or item
    deleted, a value of another type, a huge or negative number, an item duplicated, an id one
    past the end (or further), an empty string, two items swapped, a value copied from
    elsewhere in the data, a word of the format in place of another (a save's JSON is parsed
    first: these reach the checks a text mutation rarely gets past)."""
    data = json.loads(json.dumps(data))
    places = [path for path in _paths(_at(data, root), root) if path != root]
    if not places:
        return data
    path = rng.choice(places)
    parent, key = _at(data, path[:-1]), path[-1]
    value = parent[key]
    kind = rng.randrange(10)
    if kind == 0:
        del parent[key]
    elif kind == 1:
        parent[key] = rng.choice(ODD_VALUES)
    elif kind == 2:
        parent[key] = rng.choice(HUGE)
    elif kind == 3:
        parent[key] = rng.choice([-1, -2, -10**9])
    elif kind == 4 and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(value)))
    elif kind == 5 and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + rng.choice([1, -1, 40, 1000])
    elif kind == 6:
        parent[key] = ""
    elif kind == 7 and isinstance(value, list) and len(value) > 1:
        i, j = rng.sample(range(len(value)), 2)
        value[i], value[j] = value[j], value[i]
    elif kind == 8:
        parent[key] = json.loads(json.dumps(_at(data, rng.choice(places))))
    elif isinstance(value, str):
        parent[key] = rng.choice(WORDS + [value + "x"])
    else:
        parent[key] = not value if isinstance(value, bool) else rng.choice(ODD_VALUES)
    return data


def _roots(save: Any) -> list[tuple[Any, ...]]:
    """Where a save's mutations go: anywhere, its run state, and most often its game and
    sub-game (a game system's own state, checked by the system)."""
    roots: list[tuple[Any, ...]] = [()]
    state = save.get("state") if isinstance(save, dict) else None
    if isinstance(state, dict):  # an earlier mutation may have taken it
        roots.append(("state",))
    for key in ("game", "battle"):
        if isinstance(state, dict) and isinstance(state.get(key), dict):
            roots += [("state", key)] * 2
    return roots


def _paths(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _signature(crash: BaseException) -> str:
    """`TypeError at deckquest/runtime/saves.py:300 in _state`: where a crash comes from."""
    frames = [f for f in traceback.extract_tb(crash.__traceback__) if "/deckquest/" in f.filename]
    where = ""
    if frames:
        frame = frames[-1]
        where = f" at {frame.filename.split('/src/')[-1]}:{frame.lineno} in {frame.name}"
    return f"{type(crash).__name__}{where}"
