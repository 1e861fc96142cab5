"""Saving a run to a file and resuming it: the GM's session (issue 3).

A save is one JSON object (docs/saves.md), plain data and nothing else: the script's path and
the sha256 of its text, the seed and agent, the whole ``RunState`` and the random generator's
state. A resumed run continues exactly as the uninterrupted run would have: same events,
same transcript from that point.

* Frames name blocks by number (``Program.blocks``) and the index of the next statement,
  so they are restored against the recompiled script; the sha256 refuses a script that
  changed since.
* Card tables are stored as descriptions, never as card objects: each PC's deck by its card
  names (rebuilt from the party the program was made with and checked name by name), then
  the cards a battle added: tokens (by the token's values, rebuilt with ``token_card``),
  an unconscious PC's creature (T-7.2) and allied NPCs' cards (by name, from the script's
  decks).
* Loading checks the JSON Schema (``save.schema.json``) and then every reference (blocks,
  statement indexes, scenes, PCs, NPCs, flags, counters, card ids); a whole game or another
  system's sub-game is checked by its system (``GameSystem.load_game``, ``load_sub_game``:
  a ``GameDataError`` naming the field's path, placed here in the save). Any problem is a
  ``DeckquestError`` naming the file (with line and column where the JSON parser gives
  them) and a code (DQ9001-DQ9014, docs/errors.md); nothing in a save is ever run.
* A save may come from anyone, so it is refused by size (``MAX_SAVE_BYTES``) before it is
  read whole, and only a regular file is read (a FIFO would block, a device never end).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import fields
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Iterator, NoReturn, Sequence

from deckquest.i18n import _
from deckquest.cards.model import Card
from deckquest.cards.oracle import Token
from deckquest.dsl import ast
from deckquest.engine import pc as pcs
from deckquest.engine.checks import PendingCheck
from deckquest.engine.game import GameState
from deckquest.dsl.parser import MAX_FILE_BYTES
from deckquest.dsl.scenario import Scenario
from deckquest.engine.combat.battle import Fight
from deckquest.engine.combat.boss import CreatureNpc, PlaneswalkerNpc
from deckquest.engine.combat.program import program as card_program
from deckquest.engine.combat.resolve import token_card
from deckquest.engine.combat.state import HORDE, Attack, Battle, Check, Horde, StackItem, Tally
from deckquest.engine.combat.statics import pc_creature_card
from deckquest.engine.permanents import Permanent
from deckquest.errors import DeckquestError, Span
from deckquest.files import TooLarge, read_regular, write_atomically
from deckquest.runtime.events import Event
from deckquest.runtime.preparation import PLAN
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, PC_ACTION, CheckSeen, Program, Run, ScenarioAgent
from deckquest.runtime.party import PartyMember
from deckquest.runtime.script_changes import Changes, compare, outline
from deckquest.runtime.state import Asked, Frame, NpcState, RunState
from deckquest.systems.game_saves import GameDataError
from deckquest.systems.trpg import nodes
from deckquest.systems.trpg.battles import BattleInProgress
from deckquest.systems.trpg import statements as trpg

#: A JSON object of a save file (save.schema.json): what ``save_data`` writes, what
#: ``read_save`` returns once the schema accepted it.
Data = dict[str, Any]

SAVE_VERSION = 1
MAX_SAVE_BYTES = 8 * 1024 * 1024
"""A save's largest size: a four-PC save in the middle of a battle holds some 50 KB."""

_QUOTED_COLUMNS = 120

UNREADABLE_SAVE = "DQ9001"
SAVE_TOO_LARGE = "DQ9002"
NOT_UTF8 = "DQ9003"
NOT_JSON = "DQ9004"
NOT_A_SAVE = "DQ9005"
DAMAGED = "DQ9006"
OTHER_SCRIPT = "DQ9007"
UNWRITABLE_SAVE = "DQ9008"
PERMANENT_FIELDS = tuple(f.name for f in fields(Permanent))
_ZONES = ("library", "hand", "graveyard", "exile", "exhaustion_zone", "stack", "boost_exile")


def schema() -> Data:
    """The save file's JSON Schema, shipped as deckquest/runtime/save.schema.json."""
    text = resources.files("deckquest.runtime").joinpath("save.schema.json").read_text("utf-8")
    document: Data = json.loads(text)
    return document


def script_digest(scenario: Scenario) -> str:
    """The sha256 of the script's text (the main file's bytes)."""
    return hashlib.sha256(_script_bytes(scenario)).hexdigest()


def _script_bytes(scenario: Scenario) -> bytes:
    try:
        return read_regular(scenario.path, MAX_FILE_BYTES)
    except OSError as error:
        raise DeckquestError(_("cannot read the script to save or resume its run: {strerror}", strerror=error.strerror),
                             Span(str(scenario.path)), code="DQ0014") from None


def _script_text(scenario: Scenario) -> str:
    return _script_bytes(scenario).decode("utf-8", errors="replace")


# ---------------------------------------------------------------- writing


def save_data(run: Run, *, seed: int | None = None, agent: str | None = None,
              party: str | None = None) -> Data:
    """The save of ``run`` at its present position, as plain JSON-ready data."""
    program = run.program
    scenario = program.scenario
    state = run.state
    script = str(scenario.path)
    version, internal, gauss = run.rng.getstate()
    return {
        "deckquest_save": SAVE_VERSION,
        "script": script,
        "script_sha256": script_digest(scenario),
        "outline": outline(program, _script_text(scenario), state.frames),
        "seed": seed,
        "agent": agent if agent is not None else getattr(run.agent, "name", None),
        "party": party,
        "rng": {"version": version, "internal": list(internal), "gauss": gauss},
        "agent_memory": _memory_data(run.memory),
        "state": {
            "scene": state.scene,
            "scene_visit": state.scene_visit,
            "clock": state.clock,
            "scene_started_at": state.scene_started_at,
            "leaving_to": state.leaving_to,
            "frames": [{"block": f.block, "index": f.index, "pc": f.pc, "degree": f.degree,
                        "pending": None if f.pending is None else list(f.pending),
                        "in_trigger": f.in_trigger} for f in state.frames],
            "flags": dict(state.flags),
            "counters": dict(state.counters),
            "npcs": {key: {"status": npc.status, "cooperating": npc.cooperating, "damage": npc.damage,
                           "controller": npc.controller} for key, npc in state.npcs.items()},
            "fired": sorted(state.fired),
            "checks_made": sorted(_check_made(entry) for entry in state.checks_made.made),
            "items": {key: list(value) for key, value in state.items.items()},
            "choices_made": state.choices_made,
            "steps": state.steps,
            "party_dead": state.party_dead,
            "outcome": state.outcome,
            "outcome_text": state.outcome_text,
            "game": _game_data(state.game, program),
            "battle": _battle_data(state.battle, program),
            "asked": _asked_data(state.asked),
            "pcs": {key: _pc_data(pc, program) for key, pc in state.pcs.items()},
        },
    }


def _memory_data(memory: dict[str, object]) -> Data:
    """What agents remember that a save keeps: ``best``'s scene visit and place in its plan."""
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in memory.items() if key in ("prepared_visit", PLAN)}


def _asked_data(asked: Asked | None) -> Data | None:
    """The party's decision the run waits for, as plain data (a pc_action's actions are
    worked out again when asked: they are not kept)."""
    if asked is None:
        return None
    progress = asked.progress
    if isinstance(progress, trpg.CheckInProgress):
        progress = {
            "mode": progress.mode, "difficulty": progress.difficulty, "pc": progress.pc,
            "pcs": None if progress.pcs is None else list(progress.pcs),
            "records": None if progress.records is None else [list(record) for record in progress.records],
            "support": progress.support,
            "supporter": progress.supporter,
            "pending": None if progress.pending is None else {
                name: _plain(getattr(progress.pending, name)) for name in _CHECK_FIELDS},
            "battle": None if progress.battle is None else {
                **progress.battle, "before": [list(pair) for pair in progress.battle["before"]]}}
    elif isinstance(progress, list):
        progress = list(progress)
    return {"kind": asked.kind, "actions": None if asked.kind == PC_ACTION else _lists(asked.actions),
            "frame": asked.frame, "at": asked.at, "about": dict(asked.about), "progress": progress,
            "depth": asked.depth}


def _lists(value: Any) -> Any:
    """Tuples as JSON holds them (lists), and back with ``_tuples``."""
    return [_lists(item) for item in value] if isinstance(value, (tuple, list)) else value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _game_data(game: GameState | None, program: Program) -> Data | None:
    """A whole game system's game as plain data (``GameSystem.game_data``), or None."""
    if game is None:
        return None
    data: Data = program.system.game_data(game)
    return data


def _pc_data(pc: pcs.PC, program: Program) -> Data:
    member = next((m for m in program.party if m.id == pc.id), None)
    deck_size = len(member.cards) if member is not None else 0
    return {
        "name": pc.name,
        "deck": [card.name for card in pc.cards[:deck_size]],
        "extra_cards": [_extra_card(card, pc) for card in pc.cards[deck_size:]],
        "critical_cards": sorted(pc.critical_cards),
        "life": pc.life,
        "status": pc.status,
        **{zone: list(getattr(pc, zone)) for zone in _ZONES},
        "battlefield": [{name: getattr(p, name) for name in PERMANENT_FIELDS} for p in pc.battlefield],
        "concentration_counter": pc.concentration_counter,
        "land_played": pc.land_played,
        "boost_used": pc.boost_used,
    }


def _token_of(card: Card) -> Token:
    """The token ``token_card`` made ``card`` from (it keeps every value of the token)."""
    types = card.type_line.card_types
    if card.power is None or card.toughness is None:
        raise TypeError(f"{card.name} has no power and toughness")  # not a token's card
    return Token(card.name, int(card.power), int(card.toughness), tuple(card.colors),
                 tuple(card.type_line.subtypes),
                 tuple(card.oracle_text.split(", ")) if card.oracle_text else (),
                 "Artifact" in types)


def _extra_card(card: Card, pc: pcs.PC) -> Data:
    """A card a battle added to the table, described so that it can be rebuilt."""
    if card.is_token:
        try:
            token = _token_of(card)
            same = token_card(token) == card
        except (TypeError, ValueError):
            same = False
        if not same:
            raise DeckquestError(_("cannot save {name}'s token {name2}: it was not made by a token effect", name=pc.name, name2=card.name))
        return {"kind": "token", "name": token.name, "power": token.power, "toughness": token.toughness,
                "colors": list(token.colors), "subtypes": list(token.subtypes),
                "keywords": list(token.keywords), "artifact": token.is_artifact}
    if card == pc_creature_card(pc.name):
        return {"kind": "unconscious_pc", "name": card.name}
    return {"kind": "card", "name": card.name}


def save_run(run: Run, path: str | Path, *, seed: int | None = None, agent: str | None = None,
             party: str | None = None) -> None:
    """Write the save of ``run`` to ``path`` atomically (a temporary file, then os.replace).

    ``seed``, ``agent`` and ``party`` (the party file's path) are recorded for the resumed
    run's defaults; the state and the generator's state are what the run continues from."""
    text = json.dumps(save_data(run, seed=seed, agent=agent, party=party), indent=1, ensure_ascii=False) + "\n"
    write_atomically(path, text, code=UNWRITABLE_SAVE, hint=_("save into a folder you may write to, on a disk with room"))


# ---------------------------------------------------------------- reading


def read_save(path: str | Path) -> Data:
    """Parse and schema-check a save file; its data, or a DeckquestError."""
    display = str(path)
    try:
        raw = read_regular(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise DeckquestError(_("no save file `{display}`", display=display), Span(display), code=UNREADABLE_SAVE) from None
    except TooLarge:
        raise DeckquestError(_("the save is larger than {value} MiB", value=MAX_SAVE_BYTES // (1024 * 1024)), Span(display),
                             hint=_("a save holds some kilobytes; is this the right file?"), code=SAVE_TOO_LARGE) from None
    except OSError as error:
        raise DeckquestError(_("cannot read the save: {strerror}", strerror=error.strerror), Span(display), code=UNREADABLE_SAVE) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckquestError(_("the save is not UTF-8 text"), Span(display), code=NOT_UTF8) from None
    data = _parse(text, display)
    if not isinstance(data, dict) or "deckquest_save" not in data:
        raise DeckquestError(_("this is not a deckquest save (no `deckquest_save` key)"), Span(display),
                             code=NOT_A_SAVE)
    if data["deckquest_save"] != SAVE_VERSION:
        raise DeckquestError(_("unsupported save version {data}", data=str(data['deckquest_save'])[:40]), Span(display),
                             hint=_("this deckquest reads version {SAVE_VERSION}", SAVE_VERSION=SAVE_VERSION), code=NOT_A_SAVE)
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(part) for part in first.absolute_path) or "(top)"
        raise DeckquestError(_("the save is damaged at `{where}`: {message}", where=where[:200], message=first.message[:200]), Span(display),
                             code=DAMAGED)
    fraction = _float_in({key: value for key, value in data.items() if key != "rng"})
    if fraction is not None:  # JSON Schema counts 1.0 as an integer; a save holds whole numbers
        raise DeckquestError(_("the save is damaged at `{where}`: a fraction where a whole number belongs", where=fraction[:200]),
                             Span(display), code=DAMAGED)
    return data


def _parse(text: str, display: str) -> Any:
    """The JSON value of a save's text (any JSON value: the caller checks its shape); any fault, however deep or long, is a coded error."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        span, line = _place(text, display, error)
        where = "" if line is not None else f" (line {error.lineno:,}, column {error.colno:,})"
        raise DeckquestError(_("the save is not valid JSON: {msg}{where}", msg=error.msg, where=where), span,
                             hint=_("was it cut short or edited by hand?"), code=NOT_JSON, source_line=line) from None
    except RecursionError:
        raise DeckquestError(_("the save is not valid JSON: nested too deeply"), Span(display),
                             code=NOT_JSON) from None
    except ValueError as error:  # a constant (NaN) or an integer of thousands of digits
        raise DeckquestError(_("the save is not valid JSON: {error}", error=str(error)[:200]), Span(display),
                             code=NOT_JSON) from None


def _float_in(value: object, path: str = "") -> str | None:
    """The path of the first float in ``value`` (already checked to be shallow by the schema)."""
    stack: list[tuple[object, str]] = [(value, path)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float):
            return path or "(top)"
        if isinstance(value, dict):
            stack.extend((item, f"{path}/{key}".lstrip("/")) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, f"{path}/{index}".lstrip("/")) for index, item in enumerate(value))
    return None


def _place(text: str, display: str, error: json.JSONDecodeError) -> tuple[Span, str | None]:
    """The span and quoted line of a JSON fault; a fault far along a long line (a minified or
    hostile file) is named by line and column without quoting the line."""
    if error.colno > _QUOTED_COLUMNS:
        return Span(display), None
    line = text[error.pos - error.colno + 1:].split("\n", 1)[0]
    return Span(display, error.lineno, error.colno), line[:error.colno + _QUOTED_COLUMNS]


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a save can hold")


def load_run(program: Program, path: str | Path, agent: ScenarioAgent, *,
             listener: Callable[[Event], None] | None = None, kinds: Iterable[str] | None = None,
             record: bool = True, max_steps: int = DEFAULT_MAX_STEPS, battle_events: bool = True,
             on_statement: Callable[[ast.Statement], None] | None = None,
             on_check: Callable[[CheckSeen], None] | None = None, on_scene: Callable[[str], None] | None = None) -> Run:
    """A run of ``program`` at the position the save at ``path`` holds, played on by ``agent``.

    The program must be made from the very script the save was made for (same text).
    """
    data = read_save(path)
    display = str(path)
    scenario = program.scenario
    changes = None
    same_name = Path(data["script"]).name == Path(scenario.path).name
    if script_digest(scenario) != data["script_sha256"] and same_name and "outline" in data:
        changes = _edited(data, program, display)  # this script, edited: resumed if the position holds
        data = _renumbered(data, changes, program)
    elif script_digest(scenario) != data["script_sha256"]:
        raise DeckquestError(
            _("the save is for a different version of the script `{script}`, not `{path}` as it is now",
              script=data["script"], path=scenario.path) if same_name
            else _("the save is for the script `{script}`, not `{path}`", script=data["script"], path=scenario.path),
            Span(display),
            hint=_("the script changed since the save was made") if same_name
            else _("resume with the script the save was made for"), code=OTHER_SCRIPT)
    try:
        state = _state(data, program)
        rng = random.Random()
        saved = data["rng"]
        rng.setstate((saved["version"], tuple(saved["internal"]), saved["gauss"]))
    except _Invalid as error:
        raise DeckquestError(_("the save is damaged: {error}", error=error), Span(display), code=DAMAGED) from None
    except GameDataError as error:
        raise error.at(Span(display)) from None
    except (ValueError, TypeError, OverflowError) as error:
        raise DeckquestError(_("the save's random generator state is damaged: {error}", error=error),
                             Span(display), code=DAMAGED) from None
    run = Run(program, agent, rng, record=record, listener=listener, kinds=kinds, max_steps=max_steps,
              battle_events=battle_events, state=state, on_statement=on_statement, on_check=on_check,
              on_scene=on_scene)
    run.memory = _memory(data)
    run.script_changes = changes.changed_lines if changes is not None else ""
    return run


def _edited(data: Data, program: Program, display: str) -> Changes:
    """The script changed since the save: what changed, or a DQ9007 refusal saying why the
    saved position may no longer mean what it meant (runtime/script_changes.py)."""
    try:
        changes = compare(data["outline"], program, _script_text(program.scenario), data["state"],
                          data["script"])
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise DeckquestError(f"the save is damaged: its outline of the script: {error}", Span(display),
                             code=DAMAGED) from None
    if changes.refusals:
        raise DeckquestError(
            f"the script changed since the save where it matters: {'; '.join(changes.refusals)}",
            Span(display), code=OTHER_SCRIPT,
            hint=f"changed since the save: {changes.changed_lines}; resume with the script as it was, "
                 "or undo those edits")
    return changes


def _renumbered(data: Data, changes: Changes, program: Program) -> Data:
    """The save's state with its frames and checks moved to where their blocks and lines are
    now, and the flags and counters the edit added, as declared."""
    state = dict(data["state"])
    state["frames"] = [{**frame, "block": changes.block_numbers[frame["block"]]} for frame in state["frames"]]
    state["checks_made"] = [[entry[0], [entry[1][0], changes.line_numbers[entry[1][1]] if entry[1][0] == data["script"]
                                        else entry[1][1], entry[1][2]], *entry[2:]]
                            for entry in state["checks_made"]]
    scenario = program.scenario
    state["flags"] = {name: state["flags"].get(name, False) for name in scenario.flags}
    state["counters"] = {name: state["counters"].get(name, decl.initial) for name, decl in scenario.counters.items()}
    return {**data, "state": state}


def _memory(data: Data) -> dict[str, object]:
    """The agents' memory: ``agent_memory``, or in a save written before it left the run's
    state, ``state.prepared_visit`` (0 there means "not yet": the memory starts empty)."""
    if "agent_memory" in data:
        return {key: tuple(value) if isinstance(value, list) else value for key, value in data["agent_memory"].items()}
    visit = data["state"].get("prepared_visit", 0)
    return {"prepared_visit": visit} if visit else {}


class _Invalid(ValueError):
    pass


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise _Invalid(message)


def _state(data: Data, program: Program) -> RunState:
    scenario = program.scenario
    saved = data["state"]
    _require(saved["scene"] is None or saved["scene"] in scenario.scenes, f"no scene `{saved['scene']}` in the script")
    _require(saved["leaving_to"] is None or saved["leaving_to"] in scenario.scenes,
             f"no scene `{saved['leaving_to']}` in the script")
    _require(set(saved["flags"]) == set(scenario.flags), "its flags are not the script's")
    _require(set(saved["counters"]) == set(scenario.counters), "its counters are not the script's")
    _require(set(saved["npcs"]) == set(scenario.npcs), "its NPCs are not the script's")
    members = {m.id: m for m in program.party}
    _require(list(saved["pcs"]) == list(members),
             f"its PCs ({', '.join(saved['pcs'])}) are not the party's ({', '.join(members)})")
    pcs_by_id = {key: _pc(key, value, members[key], program) for key, value in saved["pcs"].items()}
    game = _game(saved.get("game"), program)
    subjects = set(program.system.subjects(game)) if game is not None else set()
    frames = []
    for number, frame in enumerate(saved["frames"]):
        _require(frame["block"] < len(program.blocks), f"frame {number} names block {frame['block']}, "
                 f"and the script has {len(program.blocks)}")
        _require(frame["index"] <= len(program.blocks[frame["block"]]), f"frame {number} is past its block's end")
        _require(frame["pc"] is None or frame["pc"] in pcs_by_id or frame["pc"] in subjects,
                 f"frame {number} names no PC of the party, nor a seat of the game: `{frame['pc']}`")
        for pc in frame["pending"] or []:
            _require(pc in pcs_by_id, f"frame {number} names no PC of the party: `{pc}`")
        frames.append(Frame(frame["block"], frame["index"], frame["pc"], frame["degree"],
                            None if frame["pending"] is None else list(frame["pending"]), frame["in_trigger"]))
    _require(all(index < len(program.triggers) for index in saved["fired"]), "it names a trigger the script lacks")
    for pc in saved["items"]:
        _require(pc in pcs_by_id, f"items are given to no PC of the party: `{pc}`")
    for entry in saved["checks_made"]:
        _require(entry[0] in pcs_by_id, f"a check made names no PC of the party: `{entry[0]}`")
    state = RunState(
        pcs=pcs_by_id,
        flags=dict(saved["flags"]),
        counters=dict(saved["counters"]),
        npcs={key: NpcState(npc["status"], npc["cooperating"], npc["damage"], npc.get("controller"))
              for key, npc in saved["npcs"].items()},
        frames=frames,
        scene=saved["scene"],
        scene_visit=saved["scene_visit"],
        clock=saved["clock"],
        scene_started_at=saved["scene_started_at"],
        leaving_to=saved["leaving_to"],
        fired=set(saved["fired"]),
        items={key: list(value) for key, value in saved["items"].items()},
        choices_made=saved["choices_made"],
        steps=saved["steps"],
        party_dead=saved["party_dead"],
        outcome=saved["outcome"],
        outcome_text=saved["outcome_text"],
        game=game,
        battle=_loaded_battle(saved.get("battle"), program, pcs_by_id, frames, game),
        asked=_loaded_asked(saved.get("asked"), program, pcs_by_id, frames),
    )
    _checks_made(state, saved["checks_made"], data["script"], str(scenario.path), program)
    return state


def _check_made(entry: tuple[str, Hashable, str, int]) -> list[object]:
    """One T-4.12 record as saved: [pc, [file, line, col], situation, kind, difficulty]."""
    pc, made, kind, difficulty = entry
    assert isinstance(made, tuple)  # MTG-TRPG's checks: (check_key, situation)
    key, situation = made
    return [pc, list(key), situation, kind, difficulty]


def _checks_made(state: RunState, entries: list[list[Any]], script: str, here: str, program: Program) -> None:
    """T-4.12: the checks made, as saved: ``[pc, [file, line, col], situation, kind, difficulty]``.

    A save from before issue 17 holds ``[pc, [file, line, col]]``: the checks made in the
    scene it was saved in, so each counts as made in the situation of the save, with its
    statement's kind and difficulty."""
    sites = {site.key: site for site in program.sites.values()}
    for entry in entries:
        pc, (file, line, col) = entry[0], entry[1]
        key = (here if file == script else file, line, col)
        if len(entry) == 5:
            situation, kind, difficulty = entry[2], entry[3], entry[4]
        else:
            site = sites.get(key)
            if site is None or len(entry) != 2:
                raise _Invalid(f"a check made names no check of the script: line {line}")
            situation, kind, difficulty = trpg.situation(state), site.kind, site.difficulty
        state.checks_made.record(pc, (key, situation), kind, difficulty)


def _loaded_battle(data: Data | None, program: Program, party: dict[str, pcs.PC],
                   frames: list[Frame], game: GameState | None) -> Any:
    """``_load_battle``, any fault of the data it was not checked for refused as damage. The
    frame below the battle's triggers must be just past a ``battle`` statement. Another
    system's sub-game is read by its system; its game is the run's (``RunState.game``)."""
    if data is not None and "sub_game" in data:
        if game is None or not frames or frames[-1].index == 0:
            raise _Invalid("the sub-game in progress has no game, or no statement that started it")
        try:
            return program.system.load_sub_game(program.scenario, data["sub_game"], game)
        except GameDataError as error:
            raise error.under("state", "battle", "sub_game") from None
        except (KeyError, TypeError, ValueError) as error:
            raise _Invalid(f"its sub-game: {error}") from None
    if data is not None:
        depth = data["depth"]
        _require(depth <= len(frames), "the battle's statement is past the saved frames")
        frame = frames[depth - 1]
        block = program.blocks[frame.block]
        _require(0 < frame.index <= len(block) and isinstance(block[frame.index - 1], nodes.Battle),
                 "the battle in progress is not at a `battle` statement of the script")
    try:
        return _load_battle(data, program, party)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        if isinstance(error, _Invalid):
            raise
        raise _Invalid(f"its battle: {error}") from None


#: The statements that ask each kind of decision (a pc_action: any that lets the PCs act first).
_ASKED_BY: dict[str, tuple[type, ...]] = {
    "choice": (ast.Choice,), "pick_pc": (nodes.Check, nodes.Recruit, nodes.Battle),
    "support": (nodes.Check, nodes.Recruit, nodes.Battle), "boost": (nodes.Check, nodes.Recruit, nodes.Battle),
    "fighter": (nodes.Fight,), PC_ACTION: (ast.Choice, nodes.Check, nodes.Recruit, nodes.Fight, nodes.Battle, nodes.TakeControl),
}


def _loaded_asked(data: Data | None, program: Program, party: dict[str, pcs.PC],
                  frames: list[Frame]) -> Asked | None:
    """The decision the run waits for, checked against the script and the party: the statement
    that asked it can ask it, and every PC, card and creature it names is there."""
    if data is None:
        return None
    try:
        return _load_asked(data, program, party, frames)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        if isinstance(error, _Invalid):
            raise
        raise _Invalid(f"its pending decision: {error}") from None


def _load_asked(data: Data, program: Program, party: dict[str, pcs.PC], frames: list[Frame]) -> Asked:
    kind = data["kind"]
    _require(data["frame"] < len(frames), "the pending decision's statement is past the saved frames")
    block = program.blocks[frames[data["frame"]].block]
    _require(data["at"] < len(block) and isinstance(block[data["at"]], _ASKED_BY[kind]),
             f"the pending {kind} decision is not at a statement of the script that asks it")
    stmt = block[data["at"]]
    about = dict(data["about"])
    actions: tuple[Any, ...] | None = None if kind == PC_ACTION else _tuples(data["actions"])
    _require(kind == PC_ACTION or isinstance(actions, tuple) and len(actions) > 0,
             f"the pending {kind} decision has no actions")
    progress = data["progress"]
    if kind == "choice":
        assert isinstance(stmt, ast.Choice)  # _ASKED_BY
        _require(isinstance(progress, list) and all(i < len(stmt.options) for i in progress)
                 and actions == tuple(range(len(progress))) and len(about["labels"]) == len(progress),
                 "the pending choice's options are not the statement's")
    elif isinstance(progress, dict):
        progress = _check_progress(progress, party)
    if "pc" in about:
        _require(about["pc"] in party, f"the pending decision names no PC of the party: `{about['pc']}`")
    if actions is None:
        pass
    elif kind == "pick_pc":
        _require(all(pc in party for pc in actions), "the pending decision offers a PC not in the party")
    elif kind == "support":
        ready = party[about["pc"]].battlefield
        _require(actions[0] is None and all(type(i) is int and 0 <= i < len(ready) for i in actions[1:]),
                 "the pending support offers a creature that is not there")
    elif kind == "fighter":
        _require(actions[0] is None and all(
            type(a) is tuple and len(a) == 2 and a[0] in party and type(a[1]) is int
            and 0 <= a[1] < len(party[a[0]].battlefield) for a in actions[1:]),
            "the pending fight offers a creature that is not there")
    elif kind == "boost":
        _require(isinstance(progress, trpg.CheckInProgress) and progress.pending is not None
                 and actions == (False, True), "the pending boost has no check revealed")
    return Asked(kind, actions, data["frame"], data["at"], about, progress, data["depth"])


def _check_progress(data: Data, party: dict[str, pcs.PC]) -> trpg.CheckInProgress:
    """A check in progress as saved (``trpg.CheckInProgress``), its PCs and cards checked."""
    _require(data["mode"] in ("one", "group", "each", "prepare"), f"a check in progress of no mode `{data['mode']}`")
    pcs, records = data["pcs"], data["records"]
    _require((pcs is None) == (records is None) == (data["mode"] != "group"), "a check in progress of the wrong shape")
    for pc in [data["pc"], *(pcs or ()), *(record[0] for record in records or ())]:
        _require(pc is None or pc in party, f"the check in progress names no PC of the party: `{pc}`")
    pending = None
    if data["pending"] is not None:
        pending = PendingCheck(**{name: _plain(data["pending"][name]) for name in _CHECK_FIELDS})
        _require(pending.pc == data["pc"], "the check revealed is not the checking PC's")
        for ids in (pending.revealed, pending.reveal_order, pending.known, pending.boost_cards):
            _require(all(type(i) is int and 0 <= i < len(party[pending.pc].cards) for i in ids),
                     "the check revealed names a card the PC does not have")
    battle = data["battle"]
    if battle is not None:
        battle = dict(battle, before=[tuple(pair) for pair in battle["before"]])
        for pc in [*battle["fighters"], *(pair[0] for pair in battle["before"])]:
            _require(pc in party, f"the battle about to open names no PC of the party: `{pc}`")
    return trpg.CheckInProgress(data["mode"], data["difficulty"], data["pc"], None if pcs is None else list(pcs),
                                None if records is None else [tuple(record) for record in records], data["support"],
                                data["supporter"], pending, battle)


def _game(data: Data | None, program: Program) -> GameState | None:
    """A whole game from its saved data (``GameSystem.load_game``): a save of a whole game is
    for a script of that game. An adventure of such a game (an Isekai adventure's duels) keeps
    its last duel, so it has none before its first."""
    before_first = data is None and bool(program.scenario.scenes)
    _require((data is None) != program.whole_game or before_first, "its game is not the script's")
    if data is None:
        return None
    try:
        game: GameState = program.system.load_game(program.scenario, data)
        return game
    except GameDataError as error:  # the system's check of its game (systems/game_saves.py)
        raise error.under("state", "game") from None
    except (KeyError, TypeError, ValueError) as error:
        raise _Invalid(f"its `{program.system.name}` game: {error}") from None


def _pc(key: str, saved: Data, member: PartyMember, program: Program) -> pcs.PC:
    deck = [card.name for card in member.cards]
    _require(saved["deck"] == deck, f"{key}'s deck is not the party's (was the deck list edited?)")
    _require(saved["name"] == member.name, f"{key}'s name is not the party's")
    cards = list(member.cards) + [_rebuild(key, extra, saved["name"], program) for extra in saved["extra_cards"]]
    size = len(cards)
    zones = {zone: list(saved[zone]) for zone in _ZONES}
    for zone, ids in list(zones.items()) + [("critical_cards", saved["critical_cards"])]:
        bad = [i for i in ids if not 0 <= i < size]
        _require(not bad, f"{key}'s {zone} holds card ids {bad} outside its card table of {size}")
    battlefield = []
    for permanent in saved["battlefield"]:
        _require(0 <= permanent["card"] < size,
                 f"{key}'s battlefield holds card id {permanent['card']} outside its card table of {size}")
        battlefield.append(Permanent(**{name: permanent[name] for name in PERMANENT_FIELDS}))
    placed = [i for ids in zones.values() for i in ids] + [p.card for p in battlefield]
    if len(placed) != len(set(placed)):
        twice = sorted({i for i in placed if placed.count(i) > 1})
        raise _Invalid(f"{key}'s card ids {twice[:10]} are in two places at once")
    return pcs.PC(id=key, name=saved["name"], cards=tuple(cards), critical_cards=frozenset(saved["critical_cards"]),
                  life=saved["life"], battlefield=battlefield, status=saved["status"],
                  concentration_counter=saved["concentration_counter"], land_played=saved["land_played"],
                  boost_used=saved["boost_used"], **zones)


def _rebuild(key: str, extra: Data, pc_name: str, program: Program) -> Card:
    kind = extra["kind"]
    if kind == "token":
        try:
            card = token_card(Token(extra["name"], extra["power"], extra["toughness"], tuple(extra["colors"]),
                                    tuple(extra["subtypes"]), tuple(extra["keywords"]), extra["artifact"]))
        except (TypeError, ValueError) as error:
            raise _Invalid(f"{key}'s token {extra['name']} cannot be made: {error}") from None
        return card
    if kind == "unconscious_pc":
        card = pc_creature_card(pc_name)
        _require(card.name == extra["name"], f"{key}'s card {extra['name']} is not {pc_name}'s creature")
        return card
    for card in _script_cards(program):
        if card.name == extra["name"]:
            return card
    for npc_id, npc in program.scenario.npcs.items():  # an allied NPC's battle card (T-8.2, T-8.4)
        if npc.kind in ("creature", "planeswalker") and _npc_card(program, npc_id).name == extra["name"]:
            return _npc_card(program, npc_id)
    raise _Invalid(f"{key}'s card table holds {extra['name']}, which no deck of the script has")


def _script_cards(program: Program) -> Iterator[Card]:
    for member in program.party:
        yield from member.cards
    for npc in program.scenario.npcs.values():
        deck = npc.deck
        if deck is not None:
            yield from deck.main_cards()


# ---------------------------------------------------------------- a battle in progress
# (``RunState.battle``: MTG-TRPG's ``BattleInProgress``, its ``Fight`` and the engine's ``Battle``)

_BATTLE_SCALARS = ("rules", "turn", "active", "step", "preparation_turns", "preparation_given",
                   "non_combat_action_used", "outcome", "survivor_turns", "horde_turns", "bonus_turn",
                   "horde_deck", "statics_applied")
_STEPS = frozenset({"start", "check", "main1", "declare_attackers", "main2", "declare_blockers", "respond",
                    "after_blockers", "over"})
_CHECK_FIELDS = tuple(f.name for f in fields(PendingCheck))
_TALLY_FIELDS = tuple(f.name for f in fields(Tally))


def _battle_data(progress: Any, program: Program) -> Data | None:
    """The battle in progress as plain data: where it is, the fight and the whole battle state.
    Card tables are written as descriptions (``_card``), never as card objects. Another
    system's sub-game (an Isekai adventure's duel) is written by its system."""
    if progress is None:
        return None
    if not isinstance(progress, BattleInProgress):
        sub_game: Data = program.system.sub_game_data(progress)
        return {"sub_game": sub_game}
    fight = progress.fight
    battle = fight.battle
    cards = _CardNames(program)
    return {
        "depth": progress.depth, "enemies": list(progress.enemies),
        "before": [[pc, status] for pc, status in progress.before], "reached": list(progress.reached),
        "start": progress.start, "clock": progress.clock,
        "npcs": [npc.id for npc in fight.npcs], "allies": [ally.id for ally in fight.allies],
        "horde_size": fight.horde_size, "warnings": list(fight.warnings), "reported": fight.reported,
        "stopped": fight.stopped,
        **{name: getattr(battle, name) for name in _BATTLE_SCALARS},
        "survivors": [_side_pc_data(pc, cards) for pc in battle.survivors],
        "bosses": [_side_pc_data(pc, cards) for pc in battle.bosses],
        "horde": {"id": battle.horde.id, "cards": [cards.describe(c, None) for c in battle.horde.cards],
                  **{zone: list(getattr(battle.horde, zone)) for zone in _HORDE_ZONES},
                  "battlefield": _permanents(battle.horde.battlefield),
                  "milled": battle.horde.milled, "cut": battle.horde.cut},
        "tallies": {key: {name: getattr(tally, name) for name in _TALLY_FIELDS} for key, tally in battle.tallies.items()},
        "attacks": [{"owner": a.owner, "card": a.card, "defender": a.defender,
                     "blockers": [list(b) for b in a.blockers], "blocked": a.blocked,
                     "defender_card": a.defender_card} for a in battle.attacks],
        "check": None if battle.check is None else {
            "purpose": battle.check.purpose, "return_step": battle.check.return_step,
            "pending": {name: _plain(getattr(battle.check.pending, name)) for name in _CHECK_FIELDS}},
        "deathtouched": [list(pair) for pair in battle.deathtouched],
        "boss_turns": dict(battle.boss_turns),
        "stack": [None if item is None else {
            "controller": item.controller, "card": item.card, "ability": _ability_number(battle, item),
            "picks": [list(pick) for pick in item.picks], "x": item.x, "mode": item.mode} for item in battle.stack],
        "activated": [list(used) for used in battle.activated],
        "allied": [list(pair) for pair in battle.allies],
        "pc_creatures": dict(battle.pc_creatures),
        "echo_due": [list(pair) for pair in battle.echo_due],
        "shields": [[side, card, count] for (side, card), count in battle.shields.items()],
        "scene_boosts": {key: [used, list(ids)] for key, (used, ids) in battle.scene_boosts.items()},
    }


_HORDE_ZONES = ("library", "hand", "graveyard", "exile")


def _plain(value: Any) -> Any:
    """A pending check's field as JSON holds it, and back: a list copied, anything else as is."""
    return list(value) if isinstance(value, list) else value


def _permanents(battlefield: list[Permanent]) -> list[Data]:
    return [{name: getattr(p, name) for name in PERMANENT_FIELDS} for p in battlefield]


def _ability_number(battle: Battle, item: StackItem) -> int | None:
    """An activated ability on the stack by its number on its card (``CardProgram.activated``)."""
    if item.ability is None:
        return None
    card = battle.side(item.controller).cards[item.card]
    for number, activated in enumerate(card_program(card).activated):
        if activated.ability == item.ability:
            return number
    raise DeckquestError(f"cannot save the battle: an ability of {card.name} on the stack is not the card's")


def _side_pc_data(pc: pcs.PC, cards: "_CardNames") -> Data:
    """A PC or a boss in the battle: as ``_pc_data``, its whole card table described."""
    return {
        "id": pc.id, "name": pc.name, "cards": [cards.describe(card, pc) for card in pc.cards],
        "critical_cards": sorted(pc.critical_cards), "life": pc.life, "status": pc.status,
        **{zone: list(getattr(pc, zone)) for zone in _ZONES},
        "battlefield": _permanents(pc.battlefield),
        "concentration_counter": pc.concentration_counter, "land_played": pc.land_played,
        "boost_used": pc.boost_used,
    }


class _CardNames:
    """Cards a battle may hold, by how a save names them: an NPC's own battle card (T-8.1,
    T-8.2) by the NPC's id, a card of a deck of the script or party by its name, a token or an
    unconscious PC's creature as ``_extra_card`` describes them."""

    def __init__(self, program: Program):
        self.program = program
        self.npc_cards = {npc_id: _npc_card(program, npc_id) for npc_id in program.scenario.npcs
                          if program.scenario.npcs[npc_id].kind in ("creature", "planeswalker")}
        self.by_name: dict[str, Card] = {}
        for card in _script_cards(program):
            self.by_name.setdefault(card.name, card)

    def describe(self, card: Card, pc: pcs.PC | None) -> Data:
        for npc_id, npc_card in self.npc_cards.items():
            if npc_card == card:
                return {"kind": "npc", "name": npc_id}
        if self.by_name.get(card.name) == card:
            return {"kind": "card", "name": card.name}
        return _extra_card(card, pc) if pc is not None else _horde_extra(card)

    def rebuild(self, key: str, description: Data, pc_name: str | None) -> Card:
        if description["kind"] == "npc":
            card = self.npc_cards.get(description["name"])
            if card is None:
                raise _Invalid(f"{key}'s card table names no creature or planeswalker NPC `{description['name']}`")
            return card
        if description["kind"] == "card":
            card = self.by_name.get(description["name"])
            if card is None:
                raise _Invalid(f"{key}'s card table holds {description['name']}, which no deck of the script has")
            return card
        return _rebuild(key, description, pc_name or "", self.program)


def _horde_extra(card: Card) -> Data:
    """A card the horde's table gained (a token: ``token_card``'s)."""
    return _extra_card(card, pcs.PC(id=HORDE, name="", cards=()))


def _load_battle(data: Data | None, program: Program, party: dict[str, pcs.PC]) -> BattleInProgress | None:
    """The battle in progress a save holds (``_battle_data``'s inverse), every reference checked."""
    if data is None:
        return None
    cards = _CardNames(program)
    survivors = [_side_pc(side, cards, program) for side in data["survivors"]]
    bosses = [_side_pc(side, cards, program) for side in data["bosses"]]
    _require(all(pc.id in party for pc in survivors), "the battle's PCs are not the party's")
    saved_horde = data["horde"]
    horde_cards = tuple(cards.rebuild(HORDE, card, None) for card in saved_horde["cards"])
    horde = Horde(horde_cards, **{zone: _ids(saved_horde[zone], len(horde_cards), HORDE) for zone in _HORDE_ZONES},
                  battlefield=_battlefield(saved_horde["battlefield"], len(horde_cards), HORDE),
                  id=saved_horde["id"], milled=saved_horde["milled"], cut=saved_horde["cut"])
    _require(horde.id == HORDE, "the battle's horde is not named `horde`")
    battle = Battle(survivors, horde, **{name: data[name] for name in _BATTLE_SCALARS})
    battle.bosses = bosses
    _require(battle.step in _STEPS and battle.step != "over", f"the battle waits in no step `{battle.step}`")
    _require(battle.active in ("survivors", HORDE), f"no side `{battle.active}` takes turns")
    sides = {side.id: len(side.cards) for side in battle.sides()}
    _require(len(sides) == len(battle.sides()), "two sides of the battle have the same id")

    def card_of(pair: Sequence[Any], what: str) -> tuple[str, int]:
        side, card = pair
        _require(side in sides and -1 <= card < sides[side], f"{what} names no card of a side: {side} {card}")
        return side, card

    _require(set(data["tallies"]) <= set(sides), "the battle's tallies name no side of it")
    battle.tallies = {key: Tally(**{name: tally[name] for name in _TALLY_FIELDS})
                      for key, tally in data["tallies"].items()}
    for attack in data["attacks"]:
        card_of((attack["owner"], attack["card"]), "an attack")
        _require(attack["defender"] in sides or attack["defender"] == "", "an attack names no defender")
        battle.attacks.append(Attack(attack["owner"], attack["card"], attack["defender"],
                                     [card_of(b, "a blocker") for b in attack["blockers"]],
                                     attack["blocked"], attack["defender_card"]))
    if data["check"] is not None:
        pending = PendingCheck(**{name: _plain(data["check"]["pending"][name]) for name in _CHECK_FIELDS})
        _require(pending.pc in sides and pending.pc != HORDE, "the battle's check names no player")
        for ids in (pending.revealed, pending.reveal_order, pending.known, pending.boost_cards):
            _ids(ids, sides[pending.pc], pending.pc)
        battle.check = Check(data["check"]["purpose"], pending, data["check"]["return_step"])
    battle.deathtouched = [card_of(pair, "deathtouch") for pair in data["deathtouched"]]
    _require(set(data["boss_turns"]) <= set(sides), "boss turns name no boss")
    battle.boss_turns = dict(data["boss_turns"])
    for item in data["stack"]:
        battle.stack.append(None if item is None else _stack_item(battle, item, card_of))
    for side, card, number in data["activated"]:
        card_of((side, card), "an activated ability")
        battle.activated.append((side, card, number))
    battle.allies = [card_of(pair, "an ally") for pair in data["allied"]]
    battle.pc_creatures = {key: card_of((key, card), "a PC's creature")[1] for key, card in data["pc_creatures"].items()}
    battle.echo_due = [card_of(pair, "echo") for pair in data["echo_due"]]
    battle.shields = {card_of((side, card), "a shield"): count for side, card, count in data["shields"]}
    battle.scene_boosts = {key: (used, _ids(ids, sides.get(key, 0), key))
                           for key, (used, ids) in data["scene_boosts"].items()}
    npcs = tuple(_npc(program, npc_id) for npc_id in data["npcs"])
    allies = tuple(_npc(program, npc_id) for npc_id in data["allies"])
    fight = Fight(battle, npcs, data["horde_size"], tuple(data["warnings"]), allies, data["reported"], data["stopped"])
    for npc_id in data["enemies"]:
        _require(npc_id in program.scenario.npcs, f"the battle's enemy `{npc_id}` is no NPC of the script")
    _require([key for key, _ in data["before"]] == list(party), "the battle's statuses are not the party's")
    return BattleInProgress(fight, data["depth"], list(data["enemies"]), [tuple(pair) for pair in data["before"]],
                            list(data["reached"]), data["start"], data["clock"])


def _npc(program: Program, npc_id: str) -> CreatureNpc | PlaneswalkerNpc:
    _require(npc_id in program.scenario.npcs and program.scenario.npcs[npc_id].kind in ("creature", "planeswalker"),
             f"the battle's NPC `{npc_id}` is no creature or planeswalker NPC of the script")
    npc = program.enemy(npc_id)
    assert isinstance(npc, (CreatureNpc, PlaneswalkerNpc))  # the enemy of a creature or planeswalker NPC
    return npc


def _npc_card(program: Program, npc_id: str) -> Card:
    """A creature or planeswalker NPC's own battle card (T-8.1, T-8.2)."""
    npc = program.enemy(npc_id)
    assert isinstance(npc, (CreatureNpc, PlaneswalkerNpc))  # the enemy of a creature or planeswalker NPC
    return npc.card


def _stack_item(battle: Battle, item: Data, card_of: Callable[[Sequence[Any], str], tuple[str, int]]) -> StackItem:
    controller, card = card_of((item["controller"], item["card"]), "a spell on the stack")
    ability = None
    if item["ability"] is not None:
        found = card_program(battle.side(controller).cards[card]).activated
        _require(0 <= item["ability"] < len(found), "an ability on the stack is not its card's")
        ability = found[item["ability"]].ability
    picks = tuple((owner, number) for owner, number in item["picks"])
    return StackItem(controller, card, ability, picks, item["x"], item["mode"])


def _ids(ids: list[int], size: int, key: str) -> list[int]:
    bad = [i for i in ids if not 0 <= i < size]
    _require(not bad, f"{key}'s battle zones hold card ids {bad[:10]} outside its card table of {size}")
    return list(ids)


def _battlefield(saved: list[Data], size: int, key: str) -> list[Permanent]:
    _ids([p["card"] for p in saved], size, key)
    return [Permanent(**{name: p[name] for name in PERMANENT_FIELDS}) for p in saved]


def _side_pc(saved: Data, cards: _CardNames, program: Program) -> pcs.PC:
    key = saved["id"]
    table = tuple(cards.rebuild(key, card, saved["name"]) for card in saved["cards"])
    size = len(table)
    zones = {zone: _ids(saved[zone], size, key) for zone in _ZONES}
    return pcs.PC(id=key, name=saved["name"], cards=table,
                  critical_cards=frozenset(_ids(saved["critical_cards"], size, key)), life=saved["life"],
                  battlefield=_battlefield(saved["battlefield"], size, key), status=saved["status"],
                  concentration_counter=saved["concentration_counter"], land_played=saved["land_played"],
                  boost_used=saved["boost_used"], **zones)
