"""The structured events a run emits; transcripts and reports render them.

An event is a plain ``dict``: cheap to make, and already the JSONL object. Every event has
``"event"`` (its kind, one of ``EVENT_KINDS``) and ``"clock"`` (game minutes since the start
when it happened). ``deckquest.runtime.transcript`` renders them as text or JSONL. docs/transcripts.md lists every kind with its fields.

During a battle the battle engine's own events (kinds prefixed ``battle_``, docs/battles.md)
are passed on between ``combat`` and ``battle``, with ``"clock"`` added.
"""

from __future__ import annotations

from typing import Any

#: One event: its kind under ``"event"``, ``"clock"``, and the fields of its kind (above and
#: docs/transcripts.md), each a plain JSON value.
Event = dict[str, Any]

EVENT_KINDS = (
    "start",  # title, rules, seed, agent, party [{id, name}]
    "scene",  # id, title: a scene starts
    "scene_end",  # id, exhausted {pc: cards moved to the exhaustion zone}: T-2.9
    "narration",  # text
    "choice",  # options [labels offered], chosen (1-based among the offered), label
    "check",  # pc, kind, difficulty, label, cards, color, target, result, degree, success, …
    "check_group",  # who (all/any), label, success, degree, pc (the deciding PC)
    "recruit",  # npc, name, success (T-8.4)
    "encounter",  # npc, name
    "take_control",  # npc, name, pc (who paid, or None), cost, success, note (T-8.4)
    "fight",  # npc, name, creature, pc, holding_back, dealt, taken, npc_defeated, blocked, …
    "npc_defeated",  # npc, name, status (unconscious after holding back, T-3.4; else dead)
    "life",  # pc, change, life, loss (an action that reduces life, even by 0: T-7.4)
    "status",  # pc, status: dying, unconscious, dead (T-7) or ok again
    "draw",  # pc, count
    "give",  # pc, item
    "action",  # pc, action (concentrate, play_land, cast, rest), card, minutes
    "rest",  # minutes: the party rests (T-2.6)
    "sleep",  # minutes: the party sleeps (T-2.8)
    "wait",  # minutes
    "flag",  # name, value
    "counter",  # name, value
    "combat",  # line, enemies [npc ids], names, pcs [ids in the fight], allies, ally_names: a battle begins
    "battle",  # line, enemies, defeated, outcome, turns, …, pcs [{id, life_after, status, …}]
    "end",  # outcome, text, scene
)

