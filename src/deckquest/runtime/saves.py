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
  statement indexes, scenes, PCs, NPCs, flags, counters, card ids). Any problem is a
  ``DeckquestError`` naming the file (with line and column where the JSON parser gives
  them) and a code (DQ9001-DQ9007, docs/errors.md); nothing in a save is ever run.
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

from deckquest.i18n import _
from deckquest.cards.oracle import Token
from deckquest.engine import pc as pcs
from deckquest.engine.combat.resolve import token_card
from deckquest.engine.combat.statics import pc_creature_card
from deckquest.engine.permanents import Permanent
from deckquest.errors import DeckquestError, Span
from deckquest.files import NotRegularFile, read_bounded, write_atomically
from deckquest.runtime.interpreter import DEFAULT_MAX_STEPS, Program, Run
from deckquest.runtime.script_changes import Changes, compare, outline
from deckquest.runtime.state import Frame, NpcState, RunState
from deckquest.systems.trpg import statements as trpg

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
PERMANENT_FIELDS = tuple(f.name for f in fields(Permanent))
_ZONES = ("library", "hand", "graveyard", "exile", "exhaustion_zone", "stack", "boost_exile")


def schema() -> dict:
    """The save file's JSON Schema, shipped as deckquest/runtime/save.schema.json."""
    text = resources.files("deckquest.runtime").joinpath("save.schema.json").read_text("utf-8")
    return json.loads(text)


def script_digest(scenario) -> str:
    """The sha256 of the script's text (the main file's bytes)."""
    return hashlib.sha256(_script_bytes(scenario)).hexdigest()


def _script_bytes(scenario) -> bytes:
    try:
        return Path(scenario.path).read_bytes()
    except OSError as error:
        raise DeckquestError(_("cannot read the script to save or resume its run: {strerror}", strerror=error.strerror),
                             Span(str(scenario.path))) from None


def _script_text(scenario) -> str:
    return _script_bytes(scenario).decode("utf-8", errors="replace")


# ---------------------------------------------------------------- writing


def save_data(run: Run, *, seed: int | None = None, agent: str | None = None,
              party: str | None = None) -> dict:
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
        "agent_memory": {"prepared_visit": run.memory["prepared_visit"]} if "prepared_visit" in run.memory else {},
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
            "pcs": {key: _pc_data(pc, program) for key, pc in state.pcs.items()},
        },
    }


def _game_data(game, program: Program) -> dict | None:
    """A whole game system's game as plain data (``GameSystem.game_data``), or None."""
    return None if game is None else program.system.game_data(game)


def _pc_data(pc: pcs.PC, program: Program) -> dict:
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


def _token_of(card) -> Token:
    """The token ``token_card`` made ``card`` from (it keeps every value of the token)."""
    types = card.type_line.card_types
    return Token(card.name, int(card.power), int(card.toughness), tuple(card.colors),
                 tuple(card.type_line.subtypes),
                 tuple(card.oracle_text.split(", ")) if card.oracle_text else (),
                 "Artifact" in types)


def _extra_card(card, pc: pcs.PC) -> dict:
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


def save_run(run: Run, path, *, seed: int | None = None, agent: str | None = None,
             party: str | None = None) -> None:
    """Write the save of ``run`` to ``path`` atomically (a temporary file, then os.replace).

    ``seed``, ``agent`` and ``party`` (the party file's path) are recorded for the resumed
    run's defaults; the state and the generator's state are what the run continues from."""
    text = json.dumps(save_data(run, seed=seed, agent=agent, party=party), indent=1, ensure_ascii=False) + "\n"
    write_atomically(path, text)


# ---------------------------------------------------------------- reading


def read_save(path) -> dict:
    """Parse and schema-check a save file; its data, or a DeckquestError."""
    display = str(path)
    try:
        raw = read_bounded(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise DeckquestError(_("no save file `{display}`", display=display), Span(display), code=UNREADABLE_SAVE) from None
    except NotRegularFile:
        raise DeckquestError(_("cannot read the save: not a regular file"), Span(display), code=UNREADABLE_SAVE) from None
    except OSError as error:
        raise DeckquestError(_("cannot read the save: {strerror}", strerror=error.strerror), Span(display), code=UNREADABLE_SAVE) from None
    if raw is None:
        raise DeckquestError(_("the save is larger than {value} MiB", value=MAX_SAVE_BYTES // (1024 * 1024)), Span(display),
                             hint=_("a save holds some kilobytes; is this the right file?"), code=SAVE_TOO_LARGE)
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
        error = errors[0]
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise DeckquestError(_("the save is damaged at `{where}`: {message}", where=where[:200], message=error.message[:200]), Span(display),
                             code=DAMAGED)
    where = _float_in({key: value for key, value in data.items() if key != "rng"})
    if where is not None:  # JSON Schema counts 1.0 as an integer; a save holds whole numbers
        raise DeckquestError(_("the save is damaged at `{where}`: a fraction where a whole number belongs", where=where[:200]),
                             Span(display), code=DAMAGED)
    return data


def _parse(text: str, display: str):
    """The JSON value of a save's text; any fault, however deep or long, is a coded error."""
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


def _float_in(value, path: str = ""):
    """The path of the first float in ``value`` (already checked to be shallow by the schema)."""
    stack = [(value, path)]
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


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a save can hold")


def load_run(program: Program, path, agent, *, listener=None, kinds=None, record: bool = True,
             max_steps: int = DEFAULT_MAX_STEPS, battle_events: bool = True, **hooks) -> Run:
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
    except (ValueError, TypeError, OverflowError) as error:
        raise DeckquestError(_("the save's random generator state is damaged: {error}", error=error),
                             Span(display), code=DAMAGED) from None
    run = Run(program, agent, rng, record=record, listener=listener, kinds=kinds, max_steps=max_steps,
              battle_events=battle_events, state=state, **hooks)
    run.memory = _memory(data)
    run.script_changes = changes.changed_lines if changes is not None else ""
    return run


def _edited(data: dict, program: Program, display: str) -> Changes:
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


def _renumbered(data: dict, changes: Changes, program: Program) -> dict:
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


def _memory(data: dict) -> dict:
    """The agents' memory: ``agent_memory``, or in a save written before it left the run's
    state, ``state.prepared_visit`` (0 there means "not yet": the memory starts empty)."""
    if "agent_memory" in data:
        return dict(data["agent_memory"])
    visit = data["state"].get("prepared_visit", 0)
    return {"prepared_visit": visit} if visit else {}


class _Invalid(ValueError):
    pass


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise _Invalid(message)


def _state(data: dict, program: Program) -> RunState:
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
    frames = []
    for number, frame in enumerate(saved["frames"]):
        _require(frame["block"] < len(program.blocks), f"frame {number} names block {frame['block']}, "
                 f"and the script has {len(program.blocks)}")
        _require(frame["index"] <= len(program.blocks[frame["block"]]), f"frame {number} is past its block's end")
        for pc in [frame["pc"]] + (frame["pending"] or []):
            _require(pc is None or pc in pcs_by_id, f"frame {number} names no PC of the party: `{pc}`")
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
        game=_game(saved.get("game"), program),
    )
    _checks_made(state, saved["checks_made"], data["script"], str(scenario.path), program)
    return state


def _check_made(entry: tuple) -> list:
    """One T-4.12 record as saved: [pc, [file, line, col], situation, kind, difficulty]."""
    pc, (key, situation), kind, difficulty = entry
    return [pc, list(key), situation, kind, difficulty]


def _checks_made(state: RunState, entries: list, script: str, here: str, program: Program) -> None:
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


def _game(data: dict | None, program: Program):
    """A whole game from its saved data (``GameSystem.load_game``): a save of a whole game is
    for a script of that game."""
    _require((data is None) != program.whole_game, "its game is not the script's")
    if data is None:
        return None
    try:
        return program.system.load_game(program.scenario, data)
    except (KeyError, TypeError, ValueError) as error:
        raise _Invalid(f"its `{program.system.name}` game: {error}") from None


def _pc(key: str, saved: dict, member, program: Program) -> pcs.PC:
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


def _rebuild(key: str, extra: dict, pc_name: str, program: Program):
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
    for npc in program.scenario.npcs.values():  # an allied NPC a battle hosted (T-8.4)
        if npc.kind in ("creature", "planeswalker") and npc.name == extra["name"]:
            return npc.battle_card()
    raise _Invalid(f"{key}'s card table holds {extra['name']}, which no deck of the script has")


def _script_cards(program: Program):
    for member in program.party:
        yield from member.cards
    for npc in program.scenario.npcs.values():
        deck = getattr(npc, "deck", None)
        if deck is not None:
            yield from deck.main_cards()
