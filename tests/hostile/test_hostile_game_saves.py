"""Hostile saves of the whole games (issue 28, item 3): a save of a grizzly game (and of an
isekai duel, whole or inside an adventure) is checked against the game's state schema and
what the schema cannot say before play resumes, and refused with a coded DQ9010-DQ9014
error naming the field (its JSON path) at fault; never a traceback.

The reported saves (a card id of 10^30 in a hand, `""` in the library) are resumed through
the CLI; then hundreds of seeded mutations of real saves of every game that can be saved go
through the library call `deckquest run --resume` makes (`load_run`) and are played on: each
is refused with a DeckquestError or plays without an internal error."""

from __future__ import annotations

import json
import random
import shutil
import traceback
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.errors import DeckquestError
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.runtime.saves import load_run, save_run
from deckquest.systems import load_all
from fuzzing import mutate_json

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def saved(folder: Path, name: str, steps: int, seed: int = 3) -> tuple[Program, Path]:
    """The bundled scenario `name` copied into `folder` and a real save of it `steps` steps
    into a random run (`folder/save.json`)."""
    load_all()
    shutil.copytree(SCENARIOS / name, folder / name)
    program = Program(compile_file(folder / name / f"{name}.quest"))
    run = Run(program, make_agent("random"), random.Random(seed), seed=seed)
    for _ in range(steps):
        if not run.step():
            break
    save_run(run, folder / "save.json", seed=seed, agent="random")
    return program, folder / "save.json"


def rewrite(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["state"]["game"])
    path.write_text(json.dumps(data), encoding="utf-8")


# ------------------------------------------------------------------ the reported saves, through the CLI


@pytest.mark.parametrize("change, code, where", [
    (lambda game: game["hands"][1].__setitem__(2, 10**30), "DQ9011", "state/game/hands/1/2"),
    (lambda game: game["library"].__setitem__(0, ""), "DQ9010", "state/game/library/0"),
    (lambda game: game["hands"][0].append(game["hands"][0][0]), "DQ9012", "state/game/hands/0/"),
    (lambda game: game["pending"]["tuple"][2]["tuple"].append({"tuple": ["dash", 9]}), "DQ9013", "state/game/pending"),
    (lambda game: game["tasks"].insert(0, {"tuple": ["move", 10**6]}), "DQ9013", "state/game/tasks/0/tuple/1"),
    (lambda game: game.__setitem__("version", 2), "DQ9014", "state/game/version"),
])
def test_a_damaged_grizzly_save_is_refused_naming_the_field(run_hostile, folders, change, code, where):
    """Item 3: a card id of 10^30 in a hand and `""` in the library stopped `run --resume`
    with internal errors in systems/grizzly (exit 70); a card in two places, an action the
    decision does not offer and a move of a million squares were played. Each is refused
    with its code at the field's JSON path, before play resumes."""
    cwd, home = folders
    _, save = saved(cwd, "sword_coast", 8)
    rewrite(save, change)
    result = run_hostile(["run", "sword_coast/sword_coast.quest", "--resume", "save.json"], cwd=cwd, env_home=home,
                         code=code)
    assert f"save.json: error[{code}]: the save is damaged at `{where}" in result.stderr


def test_a_damaged_isekai_duel_in_an_adventure_is_refused(run_hostile, folders):
    """Item 3: the isekai duel inside an adventure save is checked too (a unit card given to
    no unit: its count is off)."""
    cwd, home = folders
    _, save = saved(cwd, "mistford_toll", 40)
    rewrite(save, lambda game: game["players"][0]["hand"].append("nowhere"))
    result = run_hostile(["run", "mistford_toll/mistford_toll.quest", "--resume", "save.json"], cwd=cwd,
                         env_home=home, code="DQ9010")
    assert "the save is damaged at `state/game/players/0/hand/" in result.stderr


# ------------------------------------------------------------------ hundreds of mutations


#: (scenario, steps into the run, mutations): a grizzly game, an isekai duel, an isekai
#: adventure in the middle of its duel, and MTG-TRPG's Drowned Shrine for comparison.
SAVES = [("sword_coast", 8, 200), ("undermountain", 60, 60), ("road_duel", 40, 80), ("mistford_toll", 40, 80),
         ("drowned_shrine", 40, 40)]


@pytest.mark.parametrize("name, steps, count", SAVES, ids=[name for name, _, _ in SAVES])
def test_mutated_saves_are_refused_or_played_never_crash(tmp_path, name, steps, count):
    """Item 3: seeded mutations of a real save (a key deleted, a type changed, a huge or
    negative number, an item duplicated, an unknown id, an empty string, items swapped, a
    value from elsewhere), mostly inside the game's state: each is refused with a
    DeckquestError, or resumes and plays 200 steps, never with another exception."""
    program, save = saved(tmp_path, name, steps)
    original = json.loads(save.read_text(encoding="utf-8"))
    rng = random.Random(28)
    roots = [("state", "game")] * 3 + [("state",), ()] if original["state"]["game"] else [("state",), ()]
    crashes, refused = [], 0
    for _ in range(count):
        mutated = mutate_json(original, rng, rng.choice(roots))
        save.write_text(json.dumps(mutated), encoding="utf-8")
        try:
            run = load_run(program, save, make_agent("random"))
            for _ in range(200):
                if not run.step():
                    break
        except DeckquestError:
            refused += 1
        except Exception:  # the finding: anything but a DeckquestError
            crashes.append(traceback.format_exc(limit=-3))
    assert not crashes, f"{len(crashes)} of {count} crashed:\n" + "\n".join(crashes[:3])
    assert refused > count // 2  # the mutations reach the checks (most are faults)


def test_mutated_grizzly_saves_through_the_cli(run_hostile, folders):
    """Item 3: a sample of the mutations through `deckquest run --resume` itself: a coded
    refusal or a played game, never exit 70 or a traceback."""
    cwd, home = folders
    _, save = saved(cwd, "sword_coast", 8)
    original = json.loads(save.read_text(encoding="utf-8"))
    rng = random.Random(11)  # two of its three crashed before the check (exit 70)
    for _ in range(3):
        save.write_text(json.dumps(mutate_json(original, rng, ("state", "game"))), encoding="utf-8")
        run_hostile(["run", "sword_coast/sword_coast.quest", "--resume", "save.json"], cwd=cwd, env_home=home,
                    expect_refusal=False)


@pytest.mark.parametrize("name, agent, seed", [("frontier_duel", "random", 1), ("sword_coast", "random", 1),
                                               ("mistford_toll", "first", 0)])
def test_a_save_in_the_body_of_a_trigger_on_a_seat_resumes(run_command, folders, name, agent, seed):
    """A legitimate save refused: a save made in the body of a trigger on a game's event
    (`when a duelist takes damage:`, `when a bear dies:`), whose frame names the seat it is
    about, was DQ9006 "names no PC of the party" (found by resuming every fifth step of played
    games). A frame may name a PC or a seat of the game (`GameSystem.subjects`)."""
    cwd, home = folders
    load_all()
    shutil.copytree(SCENARIOS / name, cwd / name)
    program = Program(compile_file(cwd / name / f"{name}.quest"))
    run = Run(program, make_agent(agent), random.Random(seed), seed=seed)
    while not any(frame.pc is not None and frame.in_trigger for frame in run.state.frames):
        assert run.step(), "the game ended before a trigger on a seat ran"
    save_run(run, cwd / "save.json", seed=seed, agent=agent)
    result = run_command(["run", f"{name}/{name}.quest", "--resume", "save.json"], cwd=cwd, env_home=home)
    assert result.returncode == 0 and "error" not in result.stderr, result.stderr
