"""A seeded mutation fuzzer over what strangers hand deckquest: scripts, saves, deck lists and
pack manifests (issue 12).

Each target starts from real inputs (the bundled scenarios, a real save, their deck lists, a
pack skeleton's manifest), mutates them with a seeded `random.Random` (cut, duplicate, splice,
insert tokens and hostile values: huge numbers, `1e400`, NaN, deep brackets, NUL, tabs, NFD
accents) and feeds each result to the public library call a command would make. Every input
must either succeed or raise DeckquestError; anything else is a crash, recorded with its
input. A script that compiles is also played for a few hundred steps.

`tests/hostile/test_fuzz.py` runs a few seconds of it in CI; `benchmarks/fuzz.py --minutes N`
runs it at length and prints the figures (docs/hostile.md).
"""

from __future__ import annotations

import json
import random
import shutil
import time
import traceback
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

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


class Fuzzer:
    """The targets, their seed inputs and the mutations, over one working folder."""

    def __init__(self, folder: Path, seed: int = 0, max_input: int = MAX_INPUT):
        from deckquest.cards.database import CardDatabase, builtin_index

        self.folder = folder
        self.max_input = max_input
        self.rng = random.Random(seed)
        self.db = CardDatabase(builtin_index())
        for decks in sorted(SCENARIOS.glob("*/decks")):  # the bundled scenarios' own decks
            shutil.copytree(decks, folder / "decks", dirs_exist_ok=True)
        self.seeds = {
            "script": [p.read_text("utf-8") for p in sorted(SCENARIOS.glob("*/*.quest"))],
            "deck": [p.read_text("utf-8") for p in sorted(SCENARIOS.glob("*/decks/*.txt"))],
            "save": [self._a_save()],
            "manifest": [self._a_manifest()],
        }
        self.targets: dict[str, Callable[[str], None]] = {
            "script": self.script, "save": self.save, "deck": self.deck, "manifest": self.manifest,
        }

    # ------------------------------------------------------------ seed inputs

    def _a_save(self) -> str:
        """A real save of the Drowned Shrine, a few statements in."""
        from deckquest.runtime.agents import make_agent
        from deckquest.runtime.interpreter import Run
        from deckquest.runtime.saves import save_run

        run = Run(self._shrine(), make_agent("random"), random.Random(3), seed=3)
        for _ in range(12):
            if not run.step():
                break
        save_run(run, self.folder / "seed-save.json", seed=3, agent="random")
        return (self.folder / "seed-save.json").read_text("utf-8")

    def _shrine(self):
        from deckquest.dsl.resolver import compile_file
        from deckquest.runtime.interpreter import Program

        if not hasattr(self, "_program"):
            self._program = Program(compile_file(SCENARIOS / "drowned_shrine" / "drowned_shrine.quest", self.db))
        return self._program

    def _a_manifest(self) -> str:
        from deckquest.packs.build import init_pack

        (self.folder / "packs").mkdir(exist_ok=True)
        root = init_pack("fuzz-seed", self.folder / "packs")
        return (root / "pack.yaml").read_text("utf-8")

    # ------------------------------------------------------------ targets: the library calls of the commands

    def script(self, text: str) -> None:
        """`deckquest check` and a short `run`: compile, then play a few hundred statements."""
        from deckquest.dsl.resolver import compile_source
        from deckquest.runtime.interpreter import run_scenario

        scenario = compile_source(text, self.folder / "fuzz.quest", self.db)
        if scenario.pcs and all(pc.deck is not None for pc in scenario.pcs.values()):
            run_scenario(scenario, "random", seed=1, record=False, max_steps=300)

    def save(self, text: str) -> None:
        """`deckquest run --resume`: read the save and rebuild its run."""
        from deckquest.runtime.agents import make_agent
        from deckquest.runtime.saves import load_run

        path = self.folder / "fuzz-save.json"
        path.write_text(text, "utf-8", errors="surrogatepass")
        load_run(self._shrine(), path, make_agent("random"))

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
        text = self.rng.choice(self.seeds[target])
        for _ in range(self.rng.choice((1, 1, 1, 2, 4))):  # mostly one edit: more inputs get past parsing
            text = self._edit(text, target)
        return text[:self.max_input]

    def _edit(self, text: str, target: str) -> str:
        rng = self.rng
        at = rng.randint(0, len(text))
        end = min(len(text), at + rng.choice((1, 2, 5, 20, 200)))
        kind = rng.randrange(7)
        if kind == 0:  # cut
            return text[:at] + text[end:]
        if kind == 1:  # a token of the format
            return text[:at] + rng.choice(TOKENS[target]) + text[at:]
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
