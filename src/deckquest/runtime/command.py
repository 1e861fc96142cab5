"""`deckquest run`: the library calls behind the command, so the CLI stays a thin layer.

Defaults (docs/agents.md, "Scenario agents"): the agent is ``scripted`` when ``--choose`` is given, else ``human``
when stdin is a terminal, else ``first`` (a pipe or a CI job never waits for input). The
seed defaults to 0 so that a repeated command prints the same transcript.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from deckquest.i18n import _, language, language_for
from deckquest.errors import DeckquestError, UsageError
from deckquest.runtime.agents import AGENT_NAMES, agent_names, make_agent
from deckquest.runtime.interpreter import Program, Run, RunResult
from deckquest.runtime.events import Event
from deckquest.runtime.party import PartyMember
from deckquest.runtime.transcript import TextRenderer, json_line, untagged

if TYPE_CHECKING:
    from deckquest.dsl.scenario import Scenario


def locate_script(ref: str) -> Path:
    """A script path, or ``pack-name/scenario`` of an installed pack."""
    path = Path(ref)
    if path.exists():
        return path
    if "/" in ref:
        from deckquest.packs.store import installed_pack, locate_scenario

        # `pack/scenario.quest` (as `use` and `pack list` spell scripts) names an installed
        # pack's script too; a missing local .quest file is reported by the compiler
        if not ref.endswith(".quest") or installed_pack(ref.partition("/")[0]) is not None:
            return locate_scenario(ref)
    if ref.endswith(".quest"):
        return path
    raise DeckquestError(_("no script `{ref}`", ref=ref), hint=_("give a .quest file or PACK/SCENARIO of an installed pack"))


def compile_script(ref: str) -> Scenario:
    """Compile the script ``ref`` names (a path or PACK/SCENARIO), its references found in its
    pack and in the installed packs (the locator the dsl is handed)."""
    from deckquest.dsl.resolver import compile_file
    from deckquest.packs.store import resolve_script_reference

    return compile_file(locate_script(ref), locator=resolve_script_reference)


def party_members(path: str | None) -> list[PartyMember] | None:
    """A party file's members (or None for none), its decks found as a loose script's
    references are: in its folder or pack, or in an installed pack."""
    if path is None:
        return None
    from deckquest.packs.store import resolve_script_reference
    from deckquest.runtime.party import load_party

    return load_party(path, locate=resolve_script_reference)


def parse_choices(text: str | None) -> list[int] | None:
    """``--choose 1,2,1``: option numbers, 1-based."""
    if text is None:
        return None
    numbers = []
    for item in text.split(","):
        item = item.strip()
        if not (item.isascii() and item.isdigit() and len(item) < 7) or int(item) < 1:  # `²` is a digit to isdigit
            raise UsageError(_("--choose takes option numbers like 1,2,1; `{item}` is not one", item=item))
        numbers.append(int(item))
    return numbers


def default_agent(agent: str | None, choices: list[int] | None, interactive: bool, system: object = None) -> str:
    if agent is not None:
        if agent not in agent_names(system):
            raise UsageError(_("unknown agent `{agent}`", agent=agent), hint=_("agents: {names}", names=", ".join(agent_names(system))))
        if choices is not None and agent != "scripted":
            raise UsageError(_("--choose goes with --agent scripted (or no --agent)"))
        return agent
    if choices is not None:
        return "scripted"
    return "human" if interactive else "first"


def play(script: str, *, party: str | None, seed: int, agent: str | None, choose: str | None,
         output_format: str, echo: Callable[[str], None], ask: Callable[[str], str],
         interactive: bool, max_steps: int, save: str | None = None,
         resume: str | None = None) -> RunResult:
    """Compile, run and stream the transcript through ``echo`` (one rendered event at a time).

    ``save``: a file to write the run to when it stops before its end (the human's end of
    input, ``save`` or ``quit`` at a prompt, Ctrl-C); ``resume``: a save to continue from
    (docs/saves.md). Without them the run is exactly as it always was."""
    choices = parse_choices(choose)
    saved: dict[str, Any] | None = None
    if resume is not None:
        from deckquest.runtime.saves import read_save

        saved = read_save(resume)
        if agent is None and choices is None and saved["agent"] in AGENT_NAMES and saved["agent"] != "scripted":
            agent = saved["agent"]
        if party is None:
            party = saved["party"]
    scenario = compile_script(script)
    with language(language_for(scenario.language)):  # the transcript, prompts and notes (docs/language.md)
        return _play(scenario, party=party, seed=seed, agent=agent, choices=choices, interactive=interactive,
                     saved=saved, output_format=output_format, echo=echo, ask=ask, max_steps=max_steps, save=save,
                     resume=resume)


def _play(scenario: Scenario, *, party: str | None, seed: int, agent: str | None, choices: list[int] | None,
          interactive: bool, saved: dict[str, Any] | None, output_format: str, echo: Callable[[str], None],
          ask: Callable[[str], str], max_steps: int, save: str | None, resume: str | None) -> RunResult:
    members = party_members(party)
    if members is not None and not scenario.players[0] <= len(members) <= scenario.players[1]:
        low, high = scenario.players
        _note(_("{title} is written for {low} to {high} players; this party has {count}", title=scenario.title,
                low=low, high=high, count=len(members)))
    program = Program(scenario, members)
    if save is not None:
        _refuse_unsaveable(program)
    name = default_agent(agent, choices, interactive, program.system)
    if output_format == "jsonl":
        def listener(event: Event) -> None:
            echo(json_line(event).rstrip("\n"))
    else:
        renderer = TextRenderer(program.system)

        def listener(event: Event) -> None:
            for line in renderer.lines(event):
                echo(line)
    agent_object = make_agent(name, choices, input=lambda prompt: ask(untagged(prompt)),
                              output=lambda line: echo(untagged(line)),  # no rule tags at the table
                              system=program.system)
    if resume is not None:
        from deckquest.runtime.saves import load_run

        run = load_run(program, resume, agent_object, record=False, listener=listener, max_steps=max_steps)
        if output_format != "jsonl":
            renderer.names.update(_names_so_far(run))
        assert saved is not None  # read with the save
        seed = saved["seed"]
        if run.script_changes:
            _note(_("the script changed since the save ({changes}), not where the run stands: resuming with the "
                    "script as it is now", changes=run.script_changes))
        if program.whole_game:  # a whole game has no scenes: where it stands is in its own state
            _note(_("resuming {save}: {steps} steps in", save=resume, steps=run.state.steps))
        else:
            _note(_("resuming {save}: scene `{scene}`, {steps} steps in", save=resume, scene=run.state.scene,
                    steps=run.state.steps))
    else:
        run = Run(program, agent_object, random.Random(seed), record=False, listener=listener,
                  max_steps=max_steps, seed=seed)
    if save is None:
        return run.run()
    return play_saving(run, save, seed=seed, agent=name,
                       party=None if party is None else str(Path(party).resolve()))


def _refuse_unsaveable(program: Program) -> None:
    """A whole game whose system cannot save it (no ``game_data``: Arena) refuses ``--save``
    before it starts, not when the person stops with their moves made (docs/arena.md)."""
    from deckquest.systems import GameSystem

    if program.whole_game and program.system.game_data.__func__ is GameSystem.game_data.__func__:  # type: ignore[attr-defined]
        raise DeckquestError(_("a run of a `{name}` game cannot be saved yet", name=program.system.name),
                             hint=_("play it to its end without --save"))


def _names_so_far(run: Run) -> dict[str, str]:
    """The names the transcript learnt before the save from events a resumed run does not print
    again: the party's or a whole game's seats' (the ``start`` event) and, mid-battle, the
    enemies' (``combat``)."""
    names = {member.id: member.name for member in run.program.party}
    if run.program.whole_game:
        names.update({seat: name for seat, (name, _agent) in run.program.system.seats(run.scenario).items()})
    battle = run.state.battle
    if battle is not None:
        names.update(battle.names(run.scenario))
    return names


def play_saving(run: Run, path: str, *, seed: int | None, agent: str | None,
                party: str | None = None) -> RunResult:
    """Step ``run`` to its end; if it stops before (``StopRun``: "abandoned", or Ctrl-C),
    save it at the start of the statement it stopped in, so a resumed run asks again.

    A snapshot before each statement costs a copy of the state: nothing for a session at the
    table (batch runs never save)."""
    from deckquest.runtime.interpreter import ABANDONED
    from deckquest.runtime.saves import save_run

    while True:
        before = run.snapshot()
        try:
            going = run.step()
        except KeyboardInterrupt:
            run.restore(before)
            save_run(run, path, seed=seed, agent=agent, party=party)
            _note(_("interrupted: the run is saved to {path}; continue it with --resume {path}", path=path))
            raise
        if going:
            continue
        result = run.result()
        if result.outcome == ABANDONED:
            run.restore(before)
            save_run(run, path, seed=seed, agent=agent, party=party)
            _note(_("the run is saved to {path}; continue it with --resume {path}", path=path))
        return result



def _note(text: str) -> None:
    import sys

    print(_("note: {text}", text=text), file=sys.stderr)
