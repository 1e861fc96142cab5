"""One test per statement and header: it parses, and the AST has the right shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckquest.dsl import ast
from deckquest.systems.trpg import nodes
from deckquest.dsl.parser import parse_source
from deckquest.errors import CompileError

EXAMPLE = Path(__file__).parents[2] / "scenarios" / "goblin_cave" / "goblin_cave.quest"


def body(text: str) -> list:
    """The statements of a start scene holding `text`."""
    indented = "".join("    " + line + "\n" for line in text.strip("\n").split("\n"))
    return parse_source('start scene s "S":\n' + indented, "t.quest").scenes[0].body


def one(text: str):
    (statement,) = body(text)
    return statement


def test_header_with_every_entry():
    script = parse_source(
        'scenario "Cave":\n    author "me"\n    version "1.2.3"\n    players 2 to 5\n'
        '    rules 2014\n    language ja\n    tags "dark", "short"\n', "t.quest")
    header = script.header
    assert header.title == "Cave"
    assert [e.key for e in header.entries] == ["author", "version", "players", "rules", "language", "tags"]
    assert header.get("players") == (2, 5)
    assert header.get("rules") == 2014
    assert header.get("language") == "ja"
    assert header.get("tags") == ("dark", "short")
    assert header.span.line == 1 and header.span.col == 1


def test_pc_with_deck_and_critical_cards():
    """T-4.7: `critical "Card" xN` lines name the critical cards."""
    (pc,) = parse_source('pc alice "Alice":\n    deck "d.txt"\n    critical "Forest" x2\n    critical "Bear"\n',
                         "t.quest").pcs
    assert (pc.id, pc.name, pc.deck) == ("alice", "Alice", "d.txt")
    assert [(c.card, c.copies) for c in pc.criticals] == [("Forest", 2), ("Bear", 1)]
    assert pc.deck_span.line == 2


@pytest.mark.parametrize("kind", ast.NPC_KINDS)
def test_npc_kinds(kind):
    (npc,) = parse_source(f'{kind} x "X"\n', "t.quest").npcs
    assert (npc.kind, npc.id, npc.name, npc.from_card, npc.fields) == (kind, "x", "X", None, [])


def test_creature_inline_fields_and_from_card():
    """T-8.1: a creature NPC has a card's values; inline fields set or override them."""
    text = ('creature guard "Guard" from card "Goblin Guide":\n    cost "{1}{R}"\n    types Goblin Warrior\n'
            "    stats 2/1\n    keywords haste, first strike\n")
    (npc,) = parse_source(text, "t.quest").npcs
    assert npc.from_card == "Goblin Guide"
    assert npc.get("cost") == "{1}{R}"
    assert npc.get("types") == ("Goblin", "Warrior")
    assert npc.get("stats") == (2, 1)
    assert npc.get("keywords") == ("haste", "first strike")


def test_planeswalker_player_fields():
    script = parse_source('planeswalker sage "Sage":\n    loyalty 3\nplayer boss "Boss":\n    deck "b.txt"\n    life 30\n',
                          "t.quest")
    sage, boss = script.npcs
    assert sage.get("loyalty") == 3
    assert (boss.get("deck"), boss.get("life")) == ("b.txt", 30)


def test_flag_and_counter_declarations():
    script = parse_source("flag open\ncounter torches = 3\ncounter debt = -2\ncounter zero\n", "t.quest")
    assert [f.name for f in script.flags] == ["open"]
    assert [(c.name, c.initial) for c in script.counters] == [("torches", 3), ("debt", -2), ("zero", 0)]


def test_use_with_and_without_alias():
    script = parse_source('use "goblins/lair.quest" as lair\nuse "common.quest"\n', "t.quest")
    assert [(u.path, u.alias) for u in script.uses] == [("goblins/lair.quest", "lair"), ("common.quest", None)]


EVENTS = [
    ("the scene starts", "scene_starts", None, None),
    ("the scene ends", "scene_ends", None, None),
    ("a check succeeds", "check_succeeds", None, None),
    ("a check fails", "check_fails", None, None),
    ("a critical card is revealed", "critical_revealed", None, None),
    ("a pc is dying", "pc_dying", None, None),
    ("a pc falls unconscious", "pc_unconscious", None, None),
    ("a pc dies", "pc_dies", None, None),
    ("guard is defeated", "npc_defeated", "guard", None),
    ("battle turn 3", "battle_turn", None, 3),
    ("after 30 minutes", "after_minutes", None, 30),
]


@pytest.mark.parametrize("words,kind,npc,number", EVENTS)
def test_every_trigger_event(words, kind, npc, number):
    (trigger,) = parse_source(f'when {words}:\n    "x"\n', "t.quest").triggers
    assert (trigger.event.kind, trigger.event.npc, trigger.event.number) == (kind, npc, number)
    assert trigger.condition is None
    assert isinstance(trigger.body[0], ast.Narration)


def test_scene_trigger_with_condition():
    scene = parse_source('scene hall "Hall":\n    when the scene starts if torches < 2:\n        "dark"\n    -> x\n',
                         "t.quest").scenes[0]
    assert not scene.start and scene.title == "Hall"
    (trigger,) = scene.triggers
    assert isinstance(trigger.condition, ast.Compare) and trigger.condition.op == "<"
    assert isinstance(scene.body[0], ast.Goto)


def test_narration_keeps_raw_text():
    statement = one('"Hello {pc}, \\"friend\\""')
    assert isinstance(statement, ast.Narration)
    assert statement.text.raw == 'Hello {pc}, "friend"'


def test_choice_with_conditional_option():
    choice = one('choice:\n    "Open" if key:\n        -> a\n    "Leave":\n        -> b')
    assert [o.label.raw for o in choice.options] == ["Open", "Leave"]
    assert isinstance(choice.options[0].condition, ast.Var)
    assert choice.options[1].condition is None


@pytest.mark.parametrize("who,kind,pc", [("alice", "pc", "alice"), ("party", "party", None), ("each", "each", None),
                                         ("all", "all", None), ("any", "any", None)])
def test_check_by_every_who(who, kind, pc):
    check = one(f'check green difficulty 3 by {who} as "Lift":\n    success:\n        "ok"\n    failure:\n        "no"')
    assert (check.kind, check.difficulty, check.label) == ("green", 3, "Lift")
    assert (check.by.kind, check.by.pc) == (kind, pc)
    assert [type(s) for s in check.success] == [ast.Narration]
    assert [o.kind for o in check.outcomes] == ["success", "failure"]


def test_check_without_by_label_or_failure():
    check = one('check body difficulty 2:\n    success:\n        "ok"')
    assert (check.by, check.label, check.failure) == (None, None, None)


def test_encounter_recruit_fight():
    encounter, recruit, fight, plain = body(
        'encounter bear\nrecruit bear difficulty 2:\n    success:\n        "ok"\nfight bear holding back\nfight bear')
    assert encounter.npc == "bear" and encounter.name_span.col == 15
    assert (recruit.npc, recruit.difficulty, recruit.failure) == ("bear", 2, None)
    assert fight.holding_back and not plain.holding_back


def test_battle_with_prepare_and_outcomes():
    battle = one('battle against goblins, lair.boss:\n    prepare by party\n    victory:\n        -> a\n'
                 '    defeat:\n        end defeat "lost"\n    escape:\n        -> b')
    assert [e.name for e in battle.enemies] == ["goblins", "lair.boss"]
    assert battle.prepare.kind == "party"
    assert isinstance(battle.victory[0], ast.Goto) and isinstance(battle.defeat[0], ast.End)
    assert battle.escape[0].scene == "b"


def test_end_forms():
    victory, custom, bare = body('end victory "Won."\nend "truce" "They part."\nend defeat')
    assert (victory.outcome, victory.text.raw) == ("victory", "Won.")
    assert (custom.outcome, custom.text.raw) == ("truce", "They part.")
    assert (bare.outcome, bare.text) == ("defeat", None)


def test_effects():
    lose, each, gain, draw, give = body(
        'pc loses 2 life\neach pc loses 1 life\nalice gains 3 life\nbram draws 2 cards\ngive "Torch" to pc')
    assert (lose.target.kind, lose.amount) == ("pc", 2)
    assert each.target.kind == "each"
    assert (gain.target.kind, gain.target.pc, gain.amount) == ("named", "alice", 3)
    assert isinstance(draw, nodes.Draw) and draw.amount == 2 and draw.target.pc == "bram"
    assert (give.item, give.target.kind) == ("Torch", "pc")


def test_time_statements():
    """T-2.6 rest, T-2.8 sleep, and `wait` for the clock alone."""
    rest, sleep, wait = body("the party rests\nthe party sleeps\nwait 10 minutes")
    assert isinstance(rest, nodes.Rest) and isinstance(sleep, nodes.Sleep)
    assert wait.minutes == 10


def test_flag_and_counter_statements():
    set_, clear, plus, minus, assign = body("set open\nclear open\ntorches += 2\ntorches -= 1\ntorches = -4")
    assert (set_.flag, clear.flag) == ("open", "open")
    assert [(s.op, s.value) for s in (plus, minus, assign)] == [("+=", 2), ("-=", 1), ("=", -4)]


def test_if_else_and_else_if():
    statement = one('if a:\n    "1"\nelse if b:\n    "2"\nelse:\n    "3"')
    assert isinstance(statement, ast.If)
    (inner,) = statement.orelse
    assert isinstance(inner, ast.If) and inner.orelse[0].text.raw == "3"


def test_condition_precedence_and_operands():
    """`not` binds tighter than `and`, which binds tighter than `or`."""
    condition = one('if not a and alice.life >= 10 or party size > 2 and pc.hand == 0 or degree != 1:\n    "x"').condition
    assert isinstance(condition, ast.Or) and len(condition.operands) == 3
    first, second, third = condition.operands
    assert isinstance(first, ast.And) and isinstance(first.operands[0], ast.Not)
    life = first.operands[1].left
    assert isinstance(life, ast.PcStat) and (life.pc, life.stat) == ("alice", "life")
    assert isinstance(second.operands[0].left, ast.PartySize)
    assert (second.operands[1].left.pc, second.operands[1].left.stat) == ("pc", "hand")
    assert isinstance(third.left, ast.Degree)


def test_parentheses_group():
    condition = one('if (a or b) and c:\n    "x"').condition
    assert isinstance(condition, ast.And) and isinstance(condition.operands[0], ast.Or)


def test_spans_point_at_the_statement_line():
    statement = body('"a"\nencounter bear')[1]
    assert (statement.span.line, statement.span.col) == (3, 5)
    assert statement.span.end_line == 3


def test_comments_and_blank_lines_are_ignored():
    script = parse_source('# top\n\nflag a   # trailing\n\n   # indented comment\nflag b\n', "t.quest")
    assert [f.name for f in script.flags] == ["a", "b"]


def test_file_without_final_newline():
    assert parse_source("flag a", "t.quest").flags[0].name == "a"


def test_empty_file_parses_to_empty_script():
    script = parse_source("", "t.quest")
    assert script.header is None and script.scenes == []


def test_goblin_cave_example_parses():
    script = parse_source(EXAMPLE.read_text(), str(EXAMPLE))
    assert [s.id for s in script.scenes] == ["gate", "side_tunnel", "hall", "throne"]
    assert [n.kind for n in script.npcs] == ["creature", "creature", "planeswalker", "player", "horde"]
    assert script.scenes[0].start


def test_syntax_error_is_a_compile_error_not_a_traceback():
    with pytest.raises(CompileError) as caught:
        parse_source("scene x:\n", "t.quest")
    assert caught.value.diagnostics[0].code == "DQ0001"
