"""Saving a run to a file and resuming it (issue 3, docs/saves.md): a resumed run continues
exactly as the uninterrupted run does, and a save that does not fit is refused clearly."""

from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import fields

import pytest
from click.testing import CliRunner

from deckquest.cards.oracle import Token
from deckquest.cli import main
from deckquest.dsl import ast
from deckquest.systems.trpg import nodes
from deckquest.dsl.resolver import compile_file
from deckquest.engine.combat.resolve import token_card
from deckquest.engine.combat.statics import pc_creature_card
from deckquest.engine.pc import PC
from deckquest.engine.permanents import Permanent
from deckquest.errors import DeckquestError
from deckquest.runtime.agents import FirstAgent, make_agent
from deckquest.runtime.command import play_saving
from deckquest.runtime.interpreter import ABANDONED, Program, Run
from deckquest.runtime.saves import load_run, read_save, save_data, save_run, schema
from deckquest.runtime.state import Frame, RunState
from runtime_helpers import SCENARIOS

SHRINE = SCENARIOS / "drowned_shrine" / "drowned_shrine.quest"
CELLAR = SCENARIOS / "rat_cellar" / "rat_cellar.quest"
TOLL = SCENARIOS / "bandit_toll" / "bandit_toll.quest"

_programs: dict = {}


def program(path) -> Program:
    if path not in _programs:
        _programs[path] = Program(compile_file(path))
    return _programs[path]


def new_run(path, agent: str, seed: int) -> Run:
    return Run(program(path), make_agent(agent), random.Random(seed), seed=seed)


def full_events(path, agent: str, seed: int) -> list[dict]:
    run = new_run(path, agent, seed)
    return run.run().events


def resumed_events(run: Run, tmp_path, agent: str) -> tuple[int, list[dict], Run]:
    """Save ``run`` where it is, load the file into a fresh run, play that to the end."""
    file = tmp_path / "session.json"
    save_run(run, file, seed=0, agent=agent)
    resumed = load_run(run.program, file, make_agent(agent))
    return len(run.events), resumed.run().events, resumed


def step_until(run: Run, wanted) -> bool:
    """Step until ``wanted(run)`` holds between two statements; False if the run ended first."""
    while not wanted(run):
        if not run.step():
            return False
    return True


# ---------------------------------------------------------------- resuming = not stopping


@pytest.mark.parametrize("path", [SHRINE, CELLAR, TOLL], ids=lambda p: p.stem)
@pytest.mark.parametrize("agent", ["first", "random", "best"])
@pytest.mark.parametrize("seed", [0, 3, 8])
def test_a_run_resumed_after_n_statements_continues_as_the_uninterrupted_run(tmp_path, path, agent, seed):
    expected = full_events(path, agent, seed)
    for steps in (0, 1, 4, 11, 25):
        run = new_run(path, agent, seed)
        for _ in range(steps):
            run.step()
        count, events, _ = resumed_events(run, tmp_path, agent)
        assert expected[:count] == run.events
        assert events == expected[count:], f"resumed after {steps} steps"


@pytest.mark.parametrize("agent", ["first", "random", "best"])
@pytest.mark.parametrize("seed", [1, 5])
def test_a_run_saved_just_before_a_choice_resumes_identically(tmp_path, agent, seed):
    expected = full_events(SHRINE, agent, seed)
    run = new_run(SHRINE, agent, seed)
    assert step_until(run, lambda r: isinstance(r.next_statement(), ast.Choice))
    count, events, _ = resumed_events(run, tmp_path, agent)
    assert events == expected[count:] and events[0]["event"] in ("choice", "action")


@pytest.mark.parametrize("agent", ["first", "random", "best"])
@pytest.mark.parametrize("seed", [2, 3, 6])
def test_a_run_saved_after_a_battle_resumes_identically(tmp_path, agent, seed):
    """T-6: the battle's aftermath (life, zones, the horde's damage to the PCs' permanents,
    the battle's clock) is all in the save."""
    expected = full_events(CELLAR, agent, seed)
    run = new_run(CELLAR, agent, seed)
    battled = []

    def after_battle(r):
        # the battle's last decision was answered (and not only its preparation's asked)
        return bool(battled) and r.state.battle is None and r.state.asked is None

    run.on_statement = lambda stmt: battled.append(stmt) if isinstance(stmt, nodes.Battle) else None
    if not step_until(run, after_battle):
        pytest.skip("no battle in this run")
    assert any(event["event"] == "battle" for event in run.events)
    count, events, resumed = resumed_events(run, tmp_path, agent)
    assert events == expected[count:]
    finished = new_run(CELLAR, agent, seed)
    finished.run()
    assert save_data(resumed) == save_data(finished)  # the same end state, field by field


KRENKO = SCENARIOS / "goblin_cave" / "goblin_cave.quest"


def battle_decisions(path, agent: str, seed: int, line: int) -> tuple[int, int]:
    """(decisions of battles answered before the battle at ``line``, that battle's decisions)."""
    run = new_run(path, agent, seed)
    before = mine = 0
    while run.state.outcome is None:
        progress = run.state.battle
        if progress is not None:
            frame = run.state.frames[progress.depth - 1]
            if run.program.blocks[frame.block][frame.index - 1].span.line == line:
                mine += 1
            elif not mine:
                before += 1
        run.step()
    return before, mine


@pytest.mark.parametrize("path, line, agent, seed", [
    (CELLAR, 49, "first", 3), (CELLAR, 49, "random", 2), (CELLAR, 49, "best", 0),
    (KRENKO, 89, "first", 4), (KRENKO, 89, "best", 3),
], ids=["horde-first", "horde-random", "horde-best", "boss-first", "boss-best"])
def test_a_run_saved_at_any_decision_mid_battle_resumes_byte_for_byte(tmp_path, path, line, agent, seed):
    """T-6, T-8.3, issue 13: the battle in progress is part of the run's state, so a session
    saved at a decision of a horde battle (the rat cellar) or a boss battle (Krenko in the
    goblin cave) goes on exactly as the uninterrupted run: the same transcript, byte for byte."""
    before, decisions = battle_decisions(path, agent, seed, line)
    assert decisions >= 10, "the run should fight the battle for several decisions"
    uninterrupted = transcript(path, agent, seed, [])
    for point in sorted({1, 2, decisions // 3, decisions // 2, decisions - 1}):
        assert transcript(path, agent, seed, [before + point], tmp_path) == uninterrupted, point


def transcript(path, agent: str, seed: int, stop: list, tmp_path=None) -> bytes:
    """The run's text transcript, uninterrupted, or saved after ``stop[0]`` decisions of battles
    and resumed from the file in a fresh run."""
    from deckquest.runtime.transcript import TextRenderer

    program_ = program(path)
    renderer = TextRenderer(program_.system)
    lines: list[str] = []

    def listener(event):
        lines.extend(renderer.lines(event))

    run = Run(program_, make_agent(agent), random.Random(seed), record=False, listener=listener, seed=seed)
    if stop:
        seen = 0
        while seen < stop[0]:
            seen += run.state.battle is not None
            run.step()
        assert run.state.battle is not None  # mid-battle, at a decision
        save_run(run, tmp_path / "mid_battle.json", seed=seed, agent=agent)
        run = load_run(program_, tmp_path / "mid_battle.json", make_agent(agent), record=False, listener=listener)
    run.run()
    return "\n".join(lines).encode("utf-8")


def test_a_save_mid_battle_holds_the_battle_and_a_save_without_one_still_loads(tmp_path):
    """The battle is an additive field of the save's state (version 1 still): null between
    battles, absent from saves written before it (they still load), and written mid-battle
    with its step and its sides."""
    run = new_run(CELLAR, "first", 3)
    while run.state.battle is None:
        run.step()
    data = save_data(run)
    battle = data["state"]["battle"]
    assert battle["step"] in ("check", "main1", "declare_attackers", "main2", "declare_blockers", "respond",
                              "after_blockers")
    assert [side["id"] for side in battle["survivors"]] == list(run.state.pcs)
    assert battle["horde"]["cards"] and data["deckquest_save"] == 1
    file = tmp_path / "old.json"
    while run.state.battle is not None:
        run.step()
    old = save_data(run)
    assert old["state"].pop("battle") is None
    file.write_text(json.dumps(old))
    assert load_run(run.program, file, make_agent("first")).state.battle is None


def test_a_damaged_battle_in_a_save_is_refused_with_a_code(tmp_path):
    """DQ9006: a battle whose zones name a card its table lacks is refused, never played."""
    run = new_run(CELLAR, "first", 3)
    while run.state.battle is None:
        run.step()
    data = save_data(run)
    data["state"]["battle"]["horde"]["library"].append(9999)
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    with pytest.raises(DeckquestError) as caught:
        load_run(run.program, file, make_agent("first"))
    assert caught.value.code == "DQ9006" and "9999" in caught.value.message


def test_tokens_and_an_unconscious_pcs_creature_survive_a_save(tmp_path):
    """Cards a battle adds to a card table (tokens, CR 111; the T-7.2 creature) are stored as
    descriptions and rebuilt: the resumed run goes on like a clone of the run."""
    run = new_run(CELLAR, "first", 4)
    run.step()
    pc = next(iter(run.state.pcs.values()))
    soldier = token_card(Token("Soldier", 1, 1, ("W",), ("Soldier",), ("vigilance",)))
    thopter = token_card(Token("Thopter", 1, 1, (), ("Thopter",), ("flying",), is_artifact=True))
    pc.cards = pc.cards + (soldier, thopter, pc_creature_card(pc.name))
    size = len(pc.cards)
    pc.battlefield.append(Permanent(card=size - 3, owner=pc.id, tapped=True, plus_counters=1))
    pc.battlefield.append(Permanent(card=size - 2, owner=pc.id, summoning_sick=False, damage=1))
    twin = run.clone()
    twin.run()
    count, events, resumed = resumed_events(run, tmp_path, "first")
    assert events == twin.events[count:]
    data = read_save(tmp_path / "session.json")
    extra = data["state"]["pcs"][pc.id]["extra_cards"]
    assert [card["kind"] for card in extra] == ["token", "token", "unconscious_pc"]
    assert extra[1] == {"kind": "token", "name": "Thopter", "power": 1, "toughness": 1, "colors": [],
                        "subtypes": ["Thopter"], "keywords": ["flying"], "artifact": True}
    reloaded = load_run(run.program, tmp_path / "session.json", FirstAgent())
    assert reloaded.state.pcs[pc.id].cards == pc.cards
    assert reloaded.state.pcs[pc.id].battlefield == pc.battlefield


# ---------------------------------------------------------------- the file


def test_a_save_is_plain_versioned_json_that_round_trips(tmp_path):
    run = new_run(CELLAR, "best", 3)
    for _ in range(30):
        run.step()
    save_run(run, tmp_path / "a.json", seed=3, agent="best")
    data = json.loads((tmp_path / "a.json").read_text("utf-8"))
    assert data["deckquest_save"] == 1 and data["seed"] == 3 and data["agent"] == "best"
    assert len(data["rng"]["internal"]) == 625 and len(data["script_sha256"]) == 64
    assert all(isinstance(card, str) for pc in data["state"]["pcs"].values() for card in pc["deck"])
    resumed = load_run(run.program, tmp_path / "a.json", make_agent("best"))
    save_run(resumed, tmp_path / "b.json", seed=3, agent="best")
    assert (tmp_path / "a.json").read_text("utf-8") == (tmp_path / "b.json").read_text("utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]  # no temporary file left


def test_every_field_of_the_state_is_in_the_save():
    """A field added to RunState, Frame, PC or Permanent must be saved too (or the resumed run
    would quietly lose it): this test names the place to add it."""
    run = new_run(CELLAR, "first", 0)
    data = save_data(run)["state"]
    assert {f.name for f in fields(RunState)} == set(data)
    pc = next(iter(data["pcs"].values()))
    assert {f.name for f in fields(PC)} - {"id", "cards"} <= set(pc)
    assert set(schema()["properties"]["state"]["properties"]["pcs"]["additionalProperties"]["properties"]) == set(pc)
    frame_schema = schema()["properties"]["state"]["properties"]["frames"]["items"]["properties"]
    assert set(frame_schema) == {f.name for f in fields(Frame)}
    permanent_schema = schema()["properties"]["state"]["properties"]["pcs"]["additionalProperties"][
        "properties"]["battlefield"]["items"]["properties"]
    assert set(permanent_schema) == {f.name for f in fields(Permanent)}


def test_the_schemas_statuses_are_the_engines():
    """T-7: a PC's statuses; an NPC's (T-3.4 leaves it unconscious)."""
    from deckquest.engine import pc as pcs
    from deckquest.runtime import state

    properties = schema()["properties"]["state"]["properties"]
    assert properties["pcs"]["additionalProperties"]["properties"]["status"]["enum"] == [
        pcs.OK, pcs.DYING, pcs.UNCONSCIOUS, pcs.DEAD]
    assert properties["npcs"]["additionalProperties"]["properties"]["status"]["enum"] == [
        state.NPC_ABSENT, state.NPC_PRESENT, state.NPC_UNCONSCIOUS, state.NPC_DEAD]


# ---------------------------------------------------------------- refusals


@pytest.fixture
def saved(tmp_path):
    run = new_run(SHRINE, "first", 1)
    for _ in range(5):
        run.step()
    file = tmp_path / "save.json"
    save_run(run, file, seed=1, agent="first")
    return file


def refused(file, path=SHRINE) -> DeckquestError:
    with pytest.raises(DeckquestError) as caught:
        load_run(program(path), file, FirstAgent())
    assert str(file) == caught.value.span.file
    return caught.value


def edit(file, change) -> None:
    data = json.loads(file.read_text("utf-8"))
    change(data)
    file.write_text(json.dumps(data), "utf-8")


def test_a_save_for_another_script_is_refused(saved):
    error = refused(saved, CELLAR)
    assert "drowned_shrine.quest" in str(error) and "resume with the script" in error.hint


def test_a_save_for_a_script_edited_since_is_refused_without_its_outline(tmp_path):
    """A save written before saves kept an outline of the script cannot tell a harmless edit
    from one that moves its position: any edit is refused (tests/runtime/test_saves_after_edits.py
    has the saves that can tell)."""
    folder = tmp_path / "shrine"
    shutil.copytree(SHRINE.parent, folder)
    script = folder / SHRINE.name
    original = Program(compile_file(script))
    run = Run(original, FirstAgent(), random.Random(2))
    run.step()
    save_run(run, tmp_path / "s.json")
    assert load_run(original, tmp_path / "s.json", FirstAgent()).state.steps == 1
    script.write_text(script.read_text("utf-8") + "\n# a comment added later\n", "utf-8")
    assert load_run(Program(compile_file(script)), tmp_path / "s.json", FirstAgent()).script_changes
    data = json.loads((tmp_path / "s.json").read_text("utf-8"))
    del data["outline"]
    (tmp_path / "s.json").write_text(json.dumps(data), "utf-8")
    with pytest.raises(DeckquestError) as caught:
        load_run(Program(compile_file(script)), tmp_path / "s.json", FirstAgent())
    assert "a different version" in str(caught.value) and "changed" in caught.value.hint


def test_corrupt_json_is_refused_at_its_line_and_column(saved):
    text = saved.read_text("utf-8")
    saved.write_text(text[: len(text) // 2], "utf-8")
    error = refused(saved)
    assert "not valid JSON" in str(error) and error.span.line > 1 and error.span.col >= 1


@pytest.mark.parametrize("change, words", [
    (lambda d: d["state"]["pcs"]["mira"].__setitem__("life", "20"), "state/pcs/mira/life"),
    (lambda d: d["state"].__setitem__("clock", 2.5), "state/clock"),
    (lambda d: d["state"].__setitem__("clock", 2.0), "state/clock"),
    (lambda d: d["state"].__setitem__("moon_phase", 3), "moon_phase"),
    (lambda d: d.__setitem__("__class__", "os.system"), "__class__"),
    (lambda d: d["state"]["pcs"]["mira"]["hand"].append(999), "outside its card table"),
    (lambda d: d["state"]["pcs"]["mira"]["battlefield"].append(
        {**{f.name: 0 for f in fields(Permanent)}, "card": 500, "owner": "mira", "tapped": False,
         "summoning_sick": False}), "outside its card table"),
    (lambda d: d["state"]["pcs"]["mira"]["hand"].append(-1), "state/pcs/mira/hand"),
    (lambda d: d["state"]["pcs"]["mira"]["hand"].append(d["state"]["pcs"]["mira"]["library"][0]),
     "in two places at once"),
    (lambda d: d["state"]["items"].__setitem__("nobody", ["Rope"]), "`nobody`"),
    (lambda d: d["state"]["frames"][0].__setitem__("pending", ["ghost"]), "`ghost`"),
    (lambda d: d["state"].__setitem__("fired", [9999]), "trigger"),
    (lambda d: d["state"]["npcs"].popitem(), "NPCs"),
    (lambda d: d["state"]["pcs"].pop("oren"), "PCs"),
    (lambda d: d.__setitem__("state", []), "state"),
    (lambda d: d["state"]["frames"][0].__setitem__("block", 10_000), "names block 10000"),
    (lambda d: d["state"]["frames"][0].__setitem__("index", 10_000), "past its block's end"),
    (lambda d: d["state"].__setitem__("scene", "moon"), "no scene `moon`"),
    (lambda d: d["state"]["flags"].__setitem__("unknown_flag", True), "flags"),
    (lambda d: d["state"]["pcs"]["mira"]["deck"].reverse(), "deck"),
    (lambda d: d["state"]["pcs"]["mira"]["extra_cards"].append({"kind": "card", "name": "Black Lotus"}),
     "Black Lotus"),
    (lambda d: d["state"]["pcs"]["mira"].__setitem__("status", "sleepy"), "status"),
    (lambda d: d["rng"]["internal"].pop(), "rng/internal"),
    (lambda d: d["rng"].__setitem__("internal", d["rng"]["internal"][:-1] + [10 ** 6]), "random generator"),
    (lambda d: d.__setitem__("deckquest_save", 2), "unsupported save version 2"),
    (lambda d: d.pop("deckquest_save"), "not a deckquest save"),
])
def test_a_damaged_or_hostile_save_is_refused_clearly(saved, change, words):
    edit(saved, change)
    error = refused(saved)
    assert words in str(error)


@pytest.mark.parametrize("text, words", [
    ("", "not valid JSON"), ("[1, 2]", "not a deckquest save"), ('{"deckquest_save": NaN}', "NaN"),
    ("[" * 100_000, "not valid JSON"), ("\ufeff{}", "not valid JSON"),
])
def test_files_that_are_not_saves_are_refused(tmp_path, text, words):
    file = tmp_path / "x.json"
    file.write_text(text, "utf-8")
    assert words in str(refused(file))


def test_a_missing_save_is_refused(tmp_path):
    assert "no save file" in str(refused(tmp_path / "nowhere.json"))


# ---------------------------------------------------------------- stopping and the CLI


class InterruptingAgent(FirstAgent):
    """Plays as ``first`` until its ``after``-th choice, where the GM presses Ctrl-C."""

    def __init__(self, after: int):
        self.after = after

    def choice(self, run, decision):
        if run.state.choices_made >= self.after:
            raise KeyboardInterrupt
        return super().choice(run, decision)


def test_ctrl_c_saves_the_run_at_the_statement_it_stopped_in(tmp_path):
    expected = full_events(SHRINE, "first", 5)
    run = Run(program(SHRINE), InterruptingAgent(1), random.Random(5), seed=5)
    with pytest.raises(KeyboardInterrupt):
        play_saving(run, str(tmp_path / "c.json"), seed=5, agent="first")
    count = len(run.events)  # restored: the events of the interrupted statement are not counted
    assert expected[:count] == run.events
    resumed = load_run(program(SHRINE), tmp_path / "c.json", FirstAgent())
    assert resumed.run().events == expected[count:]
    assert resumed.state.choices_made >= 2


def test_a_run_that_reaches_its_end_writes_no_save(tmp_path):
    result = play_saving(new_run(SHRINE, "first", 1), str(tmp_path / "none.json"), seed=1, agent="first")
    assert result.outcome != ABANDONED and not (tmp_path / "none.json").exists()


def events_in(stdout: str) -> list[str]:
    """The JSONL events in a human session's output (prompts share its lines)."""
    return re.findall(r'\{"event".*', stdout)


def deckquest(*args, stdin: str):
    return CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)


def test_cli_a_human_session_stopped_by_end_of_input_resumes_where_it_stopped(tmp_path):
    save = tmp_path / "session.json"
    full = deckquest("run", SHRINE, "--agent", "first", "--seed", "4", "--format", "jsonl", stdin="")
    first = deckquest("run", SHRINE, "--agent", "human", "--seed", "4", "--format", "jsonl",
                      "--save", save, stdin="\n1\n")  # enter (no action), option 1, then EOF
    assert first.exit_code == 0 and save.exists(), first.output
    assert f"saved to {save}" in first.stderr
    stopped = events_in(first.stdout)
    assert json.loads(stopped[-1])["outcome"] == "abandoned"
    second = deckquest("run", SHRINE, "--resume", save, "--agent", "first", "--format", "jsonl", stdin="")
    assert second.exit_code == 0, second.output
    resumed = events_in(second.stdout)
    expected = full.stdout.splitlines()
    # the first-agent run takes option 1 and no actions too: the same story
    assert resumed == expected[len(expected) - len(resumed):]
    assert stopped[1:-1] == expected[1:len(stopped) - 1]
    assert len(stopped) - 1 + len(resumed) >= len(expected)


def test_cli_quit_at_a_prompt_saves_and_the_resumed_session_asks_that_question_again(tmp_path):
    """Issue 13: `quit` at the boost question (T-4.6) saves the run at that decision, the check's
    cards as revealed: `--resume` asks the very same question first, and goes on as the
    uninterrupted session does."""
    save = tmp_path / "session.json"
    rest = ["n", "2", "", "y", "1", "", "", "n", "1", "", "2"]  # from the boost question on
    full = deckquest("run", SHRINE, "--agent", "human", "--seed", "4", "--format", "jsonl",
                     stdin="\n".join(["", "1", ""] + rest) + "\n")
    first = deckquest("run", SHRINE, "--agent", "human", "--seed", "4", "--format", "jsonl",
                      "--save", save, stdin="\n1\n\nquit\n")  # no action, option 1, no action, quit
    assert save.exists() and "`quit`: the run stops here" in first.stdout
    question = "Mira the Lantern-Bearer revealed Memnite, Wrath of God: target 2, result 9: already a success. Boost"
    assert question in first.stdout
    saved = read_save(save)
    assert saved["agent"] == "human"  # the saved agent is the default on resume
    assert saved["state"]["asked"]["kind"] == "boost" and saved["state"]["asked"]["actions"] == [False, True]
    second = deckquest("run", SHRINE, "--resume", save, "--format", "jsonl", stdin="\n".join(rest) + "\n")
    assert second.exit_code == 0, second.output
    assert second.stdout.lstrip().startswith(question)  # asked again before anything else
    expected, resumed = events_in(full.stdout), events_in(second.stdout)
    assert resumed and resumed == expected[len(expected) - len(resumed):]
    assert events_in(first.stdout)[:-1] + resumed == expected


def test_cli_a_bad_save_is_one_error_message(tmp_path):
    save = tmp_path / "bad.json"
    save.write_text('{"deckquest_save": 1,\n "script": }', "utf-8")
    result = deckquest("run", SHRINE, "--resume", save, stdin="")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{save}:2:" in result.stderr and "not valid JSON" in result.stderr


def test_cli_the_party_file_is_remembered_by_the_save(tmp_path):
    save = tmp_path / "party-session.json"
    party = SHRINE.parent / "party.yaml"
    full = deckquest("run", SHRINE, "--party", party, "--seed", "2", "--agent", "first", "--format", "jsonl",
                     stdin="")
    first = deckquest("run", SHRINE, "--party", party, "--seed", "2", "--agent", "human", "--format", "jsonl",
                      "--save", save, stdin="")
    assert read_save(save)["party"] == str(party.resolve())
    second = deckquest("run", SHRINE, "--resume", save, "--agent", "first", "--format", "jsonl", stdin="")
    assert second.exit_code == 0 and first.exit_code == 0, second.output
    resumed, expected = events_in(second.stdout), full.stdout.splitlines()
    assert resumed and resumed == expected[len(expected) - len(resumed):]


# ---------------------------------------------------------------- hostile saves (issue 12)


def test_every_refusal_has_its_code(saved, tmp_path):
    """Each kind of refusal names a code of docs/errors.md (DQ9001-DQ9007)."""
    assert refused(tmp_path / "missing.json").code == "DQ9001"
    assert refused(saved, CELLAR).code == "DQ9007"
    (tmp_path / "latin1.json").write_bytes(b'{"deckquest_save": "\xe9"}')
    assert refused(tmp_path / "latin1.json").code == "DQ9003"
    (tmp_path / "list.json").write_text("[1, 2]")
    assert refused(tmp_path / "list.json").code == "DQ9005"
    edit(saved, lambda d: d["state"].__setitem__("clock", 2.5))
    assert refused(saved).code == "DQ9006"


def test_a_save_over_the_size_limit_is_refused_before_parsing(tmp_path, monkeypatch):
    from deckquest.runtime import saves

    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 100)
    file = tmp_path / "big.json"
    file.write_text('{"deckquest_save": 1, "pad": "' + "x" * 100 + '"}')
    error = refused(file)
    assert error.code == "DQ9002" and error.span.line == 0


@pytest.mark.parametrize("text", ["[" * 100_000, "[" + "9" * 5000 + "]", "[NaN]"])
def test_json_no_save_can_hold_is_DQ9004_without_quoting_the_line(tmp_path, text):
    file = tmp_path / "bad.json"
    file.write_text(text)
    error = refused(file)
    assert error.code == "DQ9004" and len(error.render()) < 400


def test_a_fault_far_along_a_long_line_is_named_not_quoted(tmp_path):
    file = tmp_path / "bad.json"
    file.write_text('{"deckquest_save": 1, "pad": "' + "x" * 10_000 + '" oops}')
    error = refused(file)
    assert error.code == "DQ9004" and "column 10,0" in error.message and len(error.render()) < 400
# ---------------------------------------------------------------- agent memory left the run state (issue 13)


def test_a_save_written_before_agent_memory_left_the_state_still_resumes_identically(tmp_path):
    """A version-1 save from before issue 13 holds `prepared_visit`, `checks` and `successes`
    in its state and no `agent_memory`: it loads, and `best` does not prepare the same scene
    visit twice, so the run goes on exactly as the uninterrupted one."""
    whole = full_events(SHRINE, "best", 3)
    run = new_run(SHRINE, "best", 3)
    assert step_until(run, lambda r: r.memory.get("prepared_visit") and r.state.steps > 6)
    done = len(run.events)
    data = save_data(run, seed=3, agent="best")
    visit = data.pop("agent_memory")["prepared_visit"]
    data["state"].update(prepared_visit=visit, checks=5, successes=2)  # as the old writer wrote it
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    resumed = load_run(run.program, old, make_agent("best"))
    assert resumed.memory == {"prepared_visit": visit}
    assert resumed.run().events == whole[done:]


def test_agents_only_answer_the_run_applies_their_actions():
    """`best` names its next PC action (T-2.4 concentrate first) for the party's pc_action
    decision; the game is unchanged until the run applies it; once per scene visit."""
    run = new_run(SHRINE, "best", 0)
    decision = run.next_decision()
    assert (decision.kind, decision.about) == ("pc_action", {"moment": "choice"})
    before = save_data(run)["state"]
    action = run.agent.choose(run, decision)
    assert action == (next(iter(run.state.pcs)), "concentrate", None)
    assert action in run.decision().actions
    assert save_data(run)["state"] == before
    assert run.memory["prepared_visit"] == run.state.scene_visit
    run.apply(action)
    assert save_data(run)["state"] != before
    while run.decision().kind == "pc_action":
        run.apply(run.agent.choose(run, run.decision()))
    assert "plan" not in run.memory  # the plan is done: "done" was answered
    assert run.next_decision().kind == "choice"
    run.apply(0)
    decision = run.next_decision()
    if decision.kind == "pc_action" and run.state.scene_visit == run.memory["prepared_visit"]:
        assert run.agent.choose(run, decision) == "done"  # once per scene visit


def test_cli_resumes_a_save_made_mid_boss_battle_with_the_uninterrupted_text(tmp_path):
    """T-8.3, issue 13: `deckquest run --resume` of a save made at a decision of the boss battle
    prints exactly the rest of the uninterrupted transcript, the PCs' and the boss's names
    included (learnt before the save from the `start` and `combat` events)."""
    run = new_run(KRENKO, "first", 4)
    decisions = 0
    while decisions < 15 or run.state.battle is None:
        if run.state.battle is not None and run.state.battle.enemies == ["warlord", "guard"]:
            decisions += 1
        run.step()
    save = tmp_path / "boss.json"
    save_run(run, save, seed=4, agent="first")
    full = deckquest("run", KRENKO, "--agent", "first", "--seed", "4", stdin="")
    resumed = deckquest("run", KRENKO, "--resume", save, stdin="")
    assert resumed.exit_code == 0, resumed.output
    assert "Krenko the Warlord" in resumed.stdout and "Alice the Ranger" in resumed.stdout
    assert full.stdout.endswith(resumed.stdout) and len(resumed.stdout) < len(full.stdout) // 2
