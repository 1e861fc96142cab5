"""The compiler: symbol tables for the interpreter, and one bad-input test per error message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deckquest.dsl import ast
from deckquest.dsl.resolver import compile_file
from deckquest.errors import CompileError
from dsl_helpers import DECKS, PRELUDE, codes_of, compile_in, diagnostics_of, errors_of, scene

EXAMPLE = Path(__file__).parents[2] / "scenarios" / "goblin_cave" / "goblin_cave.quest"


@pytest.fixture
def goblin_cave(tmp_path):
    """The language.md example with stand-in decks (the real ones ship with the scenario)."""
    shutil.copy(EXAMPLE, tmp_path / "goblin_cave.quest")
    (tmp_path / "decks").mkdir()
    for name, source in [("mono_green", "green"), ("mono_red", "red"), ("krenko", "red"), ("goblin_horde", "horde")]:
        shutil.copy(DECKS / f"{source}.txt", tmp_path / "decks" / f"{name}.txt")
    return tmp_path / "goblin_cave.quest"


def test_goblin_cave_compiles_to_symbol_tables(goblin_cave, db):
    scenario = compile_file(goblin_cave, db)
    assert scenario.title == "The Goblin Cave"
    assert (scenario.author, scenario.version, scenario.players, scenario.rules) == ("deckquest examples", "1.0.0", (1, 4), 2019)
    assert scenario.start == "gate"
    assert list(scenario.scenes) == ["gate", "side_tunnel", "hall", "throne"]
    assert list(scenario.pcs) == ["alice", "bram"]
    assert scenario.pcs["alice"].criticals == (("Forest", 3),)
    assert scenario.pcs["alice"].deck.size == 60
    assert set(scenario.decks) == {"alice", "bram", "warlord", "goblins"}
    assert list(scenario.flags) == ["boulder_moved"] and scenario.counters["torches"].initial == 3
    assert len(scenario.triggers) == 1 and scenario.triggers[0].event.kind == "pc_dying"
    # The one warning: the sage is declared but never appears.
    assert [(w.code, w.span.line) for w in scenario.warnings] == [("DQ0044", 23)]


def test_npc_values_from_card_and_inline(goblin_cave, db):
    """T-8.1: `from card` takes the card's values; inline fields set them."""
    npcs = compile_file(goblin_cave, db).npcs
    bear = npcs["bear"]
    assert (bear.card.name, bear.power, bear.toughness, bear.cost) == ("Grizzly Bears", 2, 2, "{1}{G}")
    guard = npcs["guard"]
    assert (guard.cost, guard.types, guard.power, guard.toughness, guard.keywords) == (
        "{1}{R}", ("Goblin", "Warrior"), 2, 1, ("haste",))
    assert npcs["sage"].loyalty == 3
    assert (npcs["warlord"].life, npcs["warlord"].deck.size) == (30, 60)
    assert npcs["goblins"].kind == "horde"


def test_inline_field_overrides_card(pack, db):
    scenario = compile_in(pack, scene("encounter bear\nend victory", 'creature bear "B" from card "Grizzly Bears":\n    stats 4/4\n'), db)
    assert (scenario.npcs["bear"].power, scenario.npcs["bear"].cost) == (4, "{1}{G}")


def test_interpolation_is_split_at_compile_time(pack, db):
    scenario = compile_in(pack, scene('check green difficulty 1:\n    success:\n        "{pc} has {pc.life}, {{ok}} {torches} {alice.hand} {party size} {degree}"\n'
                                      '        end victory\n    failure:\n        end defeat', "counter torches = 1\n"), db)
    text = scenario.scenes["s"].body[0].success[0].text
    kinds = [type(p).__name__ if not isinstance(p, str) else repr(p) for p in text.parts]
    assert kinds == ["PcName", "' has '", "PcStat", "', {ok} '", "Var", "' '", "PcStat", "' '", "PartySize", "' '", "Degree"]


# ------------------------------------------------------------------ header errors


def test_missing_header(pack, db):
    assert errors_of(pack, 'start scene s "S":\n    end victory\n', db) == ["DQ0020"]


def test_repeated_header_entry_and_header(pack, db):
    text = PRELUDE.replace("    rules 2019\n", "    rules 2019\n    rules 2014\n") + 'scenario "Again":\n    rules 2019\nstart scene s "S":\n    end victory\n'
    assert errors_of(pack, text, db) == ["DQ0021", "DQ0021"]


@pytest.mark.parametrize("line,code", [('version "1.0"', "DQ0022"), ("players 4 to 2", "DQ0023"),
                                       ("players 0 to 2", "DQ0023"), ("rules 2020", "DQ0024"), ("language fr", "DQ0025")])
def test_bad_header_values(pack, db, line, code):
    text = PRELUDE.replace("    rules 2019\n", f"    {line}\n") + 'start scene s "S":\n    end victory\n'
    assert errors_of(pack, text, db) == [code]


# ------------------------------------------------------------------ names


def test_duplicate_name_points_at_first(pack, db):
    (d,) = [d for d in diagnostics_of(pack, scene("end victory", "flag alice\n"), db) if d.severity == "error"]
    assert d.code == "DQ0030" and "line 3" in d.hint


def test_unknown_scene_with_hint(pack, db):
    (d,) = diagnostics_of(pack, scene("-> ss"), db)
    assert (d.code, d.span.line, d.span.col, d.hint) == ("DQ0031", 10, 8, "did you mean `s`?")
    assert "-> ss" in d.render()


def test_unknown_npc_pc_flag_counter(pack, db):
    text = scene("encounter bare\nalice2 loses 1 life\nset opne\ntorch += 1\nend victory",
                 'creature bear "B" from card "Grizzly Bears"\nflag open\ncounter torches\n')
    found = [(d.code, d.hint) for d in diagnostics_of(pack, text, db) if d.severity == "error"]
    assert found == [("DQ0032", "did you mean `bear`?"), ("DQ0033", "did you mean `alice`?"),
                     ("DQ0034", "did you mean `open`?"), ("DQ0034", "did you mean `torches`?")]


def test_wrong_kind_of_name(pack, db):
    text = scene("set torches\nopen += 1\nencounter alice\nif torches:\n    \"x\"\nif open > 1:\n    \"y\"\nend victory",
                 "flag open\ncounter torches\n")
    assert errors_of(pack, text, db) == ["DQ0035"] * 5


def test_keywords_cannot_be_names(pack, db):
    text = scene("set scene\nend victory", "flag scene\n")
    assert errors_of(pack, text, db) == ["DQ0048", "DQ0034"]


def test_a_start_scene_with_a_bad_name_is_not_also_unreachable(pack, db):
    """A start scene named with a reserved word (DQ0048) or a name taken by a flag (DQ0030)
    gets that one error, not also DQ0043 for itself and the scenes it leads to."""
    for name, declarations, code in [("party", "", "DQ0048"), ("gate", "flag gate\n", "DQ0030")]:
        text = PRELUDE + declarations + f'start scene {name} "A":\n    -> hall\nscene hall "H":\n    end victory\n'
        assert [d.code for d in diagnostics_of(pack, text, db) if d.code != "DQ0044"] == [code]


def test_recruit_only_creatures_and_planeswalkers(pack, db):
    """T-8.4: only a creature or planeswalker NPC can be recruited."""
    text = scene('recruit boss difficulty 2:\n    success:\n        "x"\nend victory', 'player boss "B":\n    deck "decks/red.txt"\n')
    assert errors_of(pack, text, db) == ["DQ0035"]


def test_check_kind_follows_rules_edition(pack, db):
    """T-4 (2019 colours) against T-5.1 (2014 kinds); the hint uses T-5.5's correspondence."""
    (d,) = diagnostics_of(pack, scene("check body difficulty 2:\n    success:\n        end victory\n    failure:\n        end defeat"), db)
    assert d.code == "DQ0036" and "`green`" in d.hint
    # issue 18 item 15: the caret is under the kind, not the whole line
    assert (d.span.col, d.span.end_line, d.span.end_col) == (11, d.span.line, 15)
    text = scene("check green difficulty 2:\n    success:\n        end victory\n    failure:\n        end defeat").replace("rules 2019", "rules 2014")
    (d,) = diagnostics_of(pack, text, db)
    assert d.code == "DQ0036" and "`body`" in d.hint


def test_pc_outside_scope(pack, db):
    text = scene('pc loses 1 life\n"{pc}"\nif pc.life > 2:\n    "x"\nend victory')
    assert errors_of(pack, text, db) == ["DQ0037"] * 3


def test_pc_in_scope_in_check_blocks_and_pc_triggers(pack, db):
    text = scene("check green difficulty 1 by each:\n    failure:\n        pc loses 1 life\nend victory",
                 'when a pc dies:\n    "{pc}"\n')
    assert errors_of(pack, text, db) == []


def test_an_unknown_pc_after_by_lists_party_each_all_and_any(pack, db):
    """Issue 18 item 15: `by everyone` said "unknown PC" without naming what `by` takes (T-4.1:
    a check is made by a PC, the party, each PC, all of them, or any of them)."""
    text = scene("check green difficulty 1 by everyone:\n    success:\n        end victory\n    failure:\n        end defeat")
    (d,) = diagnostics_of(pack, text, db)
    assert d.code == "DQ0033" and d.hint == "`by` takes a PC (`alice`, `bram`) or `party`, `each`, `all`, `any`"
    text = scene('recruit b difficulty 1 by evry:\n    success:\n        end victory\nend defeat', 'creature b "B" from card "Grizzly Bears"\n')
    (d,) = diagnostics_of(pack, text, db)
    assert d.hint == "`by` takes a PC (`alice`, `bram`) or `party`"


def test_party_is_not_a_pc_for_an_effect(pack, db):
    (d,) = [d for d in diagnostics_of(pack, scene("party loses 1 life\nend victory"), db) if d.severity == "error"]
    assert d.code == "DQ0033" and "each pc loses" in d.hint


def test_degree_outside_check(pack, db):
    assert errors_of(pack, scene('if degree > 1:\n    "x"\nend victory'), db) == ["DQ0038"]


def test_bad_interpolation(pack, db):
    assert errors_of(pack, scene('"{ not a name }"\n"{unclosed"\nend victory'), db) == ["DQ0039", "DQ0039"]


def test_interpolating_a_pc_property_that_does_not_exist_names_the_ones_that_do(pack, db):
    """`{alice.name}` is not a counter called `alice.name` (DQ0034): it is a PC property
    the language lacks, and the hint lists `{alice}` and the PC_STATS."""
    (d,) = [d for d in diagnostics_of(pack, scene('"{alice.name}"\nend victory'), db) if d.severity == "error"]
    assert d.code == "DQ0039" and "`{alice}`" in d.hint and "`{alice.exhaustion}`" in d.hint


# ------------------------------------------------------------------ flow


def test_no_start_scene(pack, db):
    assert errors_of(pack, PRELUDE + 'scene s "S":\n    end victory\n', db) == ["DQ0040"]


def test_two_start_scenes(pack, db):
    assert errors_of(pack, scene("end victory") + 'start scene t "T":\n    -> s\n', db) == ["DQ0041"]


@pytest.mark.parametrize("body", [
    '"Nothing happens."',
    'if lit:\n    -> s',
    'check green difficulty 1:\n    success:\n        -> s',
    'choice:\n    "One":\n        -> s\n    "Two":\n        "nothing"',
    'battle against g:\n    victory:\n        -> s\n    defeat:\n        end defeat\n    escape:\n        "run"',
])
def test_scene_that_can_fall_off_its_end(pack, db, body):
    declarations = 'flag lit\nhorde g "G":\n    deck "decks/horde.txt"\n'
    assert "DQ0042" in errors_of(pack, scene(body, declarations), db)


def test_every_path_ends(pack, db):
    body = ('if lit:\n    -> s\nelse:\n    check green difficulty 1:\n        success:\n            end victory\n'
            '        failure:\n            end defeat')
    assert errors_of(pack, scene(body, "flag lit\n"), db) == []


def test_unreachable_scene_and_statement_are_warnings(pack, db):
    text = scene('end victory\n"never"') + 'scene lost "Lost":\n    end defeat\n'
    found = diagnostics_of(pack, text, db)
    assert [(d.severity, d.code) for d in found] == [("warning", "DQ0046"), ("warning", "DQ0043")]


def test_scene_reached_only_from_a_trigger_is_reachable(pack, db):
    text = scene("end victory", 'when a pc dies:\n    -> grave\n') + 'scene grave "Grave":\n    end defeat\n'
    assert codes_of(pack, text, db) == []


def test_unused_declarations_warn(pack, db):
    found = diagnostics_of(pack, scene("end victory", "flag lit\ncounter coins\n"), db)
    assert [(d.severity, d.code) for d in found] == [("warning", "DQ0044")] * 2


def test_outcome_blocks_checked(pack, db):
    text = scene('check green difficulty 1:\n    victory:\n        "x"\n    success:\n        "y"\n    success:\n        "z"\nend victory')
    assert errors_of(pack, text, db) == ["DQ0045", "DQ0045"]


def test_bad_trigger_number(pack, db):
    assert errors_of(pack, scene("end victory", 'when battle turn 0:\n    "x"\n'), db) == ["DQ0047"]


def test_too_many_scenes(pack, db, monkeypatch):
    import deckquest.dsl.resolver as resolver

    monkeypatch.setattr(resolver, "MAX_SCENES", 2)
    text = scene("-> s2") + 'scene s2 "A":\n    -> s3\nscene s3 "B":\n    end victory\n'
    assert errors_of(pack, text, db) == ["DQ0008"]


# ------------------------------------------------------------------ decks, cards, NPC fields


def test_deck_path_must_stay_in_pack(pack, db):
    text = PRELUDE.replace('"decks/red.txt"', '"../red.txt"') + scene("end victory")[len(PRELUDE):]
    assert errors_of(pack, text, db) == ["DQ0050"]


def test_missing_deck_file(pack, db):
    text = PRELUDE.replace('"decks/red.txt"', '"decks/blue.txt"') + scene("end victory")[len(PRELUDE):]
    (d,) = diagnostics_of(pack, text, db)
    assert (d.code, d.span.line) == ("DQ0051", 7)


def test_deck_list_errors_pass_through(pack, db):
    (pack / "decks" / "bad.txt").write_text("20 Forest\n3 Grizly Bears\n")
    text = PRELUDE.replace('"decks/red.txt"', '"decks/bad.txt"').replace('"Mountain"', '"Forest"') + scene("end victory")[len(PRELUDE):]
    assert errors_of(pack, text, db) == ["DQ1001"]


def test_critical_cards_must_be_in_the_deck(pack, db):
    """T-4.7: critical cards are specific cards of the PC's deck."""
    text = PRELUDE.replace('critical "Mountain" x3', 'critical "Mountian" x2\n    critical "Mountain" x1') + scene("end victory")[len(PRELUDE):]
    (d,) = [d for d in diagnostics_of(pack, text, db)]
    assert d.code == "DQ0052" and d.hint == "did you mean `Mountain`?"
    text = PRELUDE.replace("x3", "x60", 1) + scene("end victory")[len(PRELUDE):]
    assert "only 52 copies" in diagnostics_of(pack, text, db)[0].message


def test_a_critical_line_of_zero_copies_is_an_error(pack, db):
    """T-4.7 designates specific cards: `x0` designates none, though the total may be right."""
    text = PRELUDE.replace('critical "Mountain" x3', 'critical "Goblin Guide" x0\n    critical "Mountain" x3')
    (d,) = diagnostics_of(pack, text + scene("end victory")[len(PRELUDE):], db)
    assert (d.code, d.span.line) == ("DQ0057", 8) and "x1" in d.hint


def test_three_critical_cards_or_five_for_commander(pack, db):
    """T-4.7: exactly 3 critical cards, 5 for a Commander deck."""
    text = PRELUDE.replace('critical "Forest" x3', 'critical "Forest" x2') + scene("end victory")[len(PRELUDE):]
    assert errors_of(pack, text, db) == ["DQ0053"]
    commander = PRELUDE.replace('"decks/red.txt"', '"decks/commander.txt"')
    assert errors_of(pack, commander + scene("end victory")[len(PRELUDE):], db) == ["DQ0053"]
    five = commander.replace('critical "Mountain" x3', 'critical "Mountain" x5')
    assert errors_of(pack, five + scene("end victory")[len(PRELUDE):], db) == []


def test_unknown_card(pack, db):
    (d,) = diagnostics_of(pack, scene("encounter b\nend victory", 'creature b "B" from card "Grizly Bears"\n'), db)
    assert d.code == "DQ0054" and "Grizzly Bears" in d.hint
    # issue 18 item 15: the caret is under the card's name, not the whole line (and no DQ0055 follows)
    assert (d.span.col, d.span.end_col) == (26, 40)
    # a real card missing from the database may be close to a known one: say how to add it too
    assert "deckquest cards import" in d.hint


def test_missing_fields(pack, db):
    text = scene("encounter c\nencounter p\nencounter h\nend victory", 'creature c "C"\nplaneswalker p "P"\nhorde h "H"\n')
    assert errors_of(pack, text, db) == ["DQ0055"] * 3
    text = PRELUDE.replace('    deck "decks/red.txt"\n', "") + scene("end victory")[len(PRELUDE):]
    assert errors_of(pack, text, db) == ["DQ0055"]


def test_field_not_allowed(pack, db):
    text = scene("encounter c\nencounter h\nend victory",
                 'creature c "C":\n    stats 1/1\n    loyalty 3\nhorde h "H" from card "Grizzly Bears":\n    deck "decks/horde.txt"\n')
    assert errors_of(pack, text, db) == ["DQ0056", "DQ0056"]


def test_invalid_field_values(pack, db):
    text = scene("encounter c\nencounter w\nbattle against c:\n    prepare by each\n    victory:\n        end victory\n    defeat:\n        end defeat",
                 'creature c "C":\n    cost "{Q}"\n    stats 1/1\ncreature w "W" from card "Forest"\n')
    assert errors_of(pack, text, db) == ["DQ0057", "DQ0057", "DQ0057"]


# ------------------------------------------------------------------ use


def _library(folder: Path, name: str, text: str) -> None:
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)


def test_use_imports_namespaced_declarations(pack, db):
    _library(pack, "lib/lair.quest", 'creature guard "Guard" from card "Goblin Guide"\nflag alarm\ncounter gold = 2\n'
                                     'when a pc dies:\n    set alarm\n    gold += 1\n')
    text = 'use "lib/lair.quest"\n' + scene('encounter lair.guard\nif lair.alarm and lair.gold > 1:\n    "{lair.gold}"\nend victory')
    scenario = compile_in(pack, text, db)
    assert set(scenario.npcs) == {"lair.guard"} and set(scenario.flags) == {"lair.alarm"}
    assert scenario.counters["lair.gold"].initial == 2
    (trigger,) = scenario.triggers
    assert [s.flag if isinstance(s, ast.SetFlag) else s.counter for s in trigger.body] == ["lair.alarm", "lair.gold"]
    assert scenario.imports == {"lair": pack / "lib" / "lair.quest"}


def test_use_alias_and_collisions(pack, db):
    _library(pack, "a/npcs.quest", 'creature guard "Guard" from card "Goblin Guide"\n')
    _library(pack, "b/npcs.quest", 'creature guard "Guard" from card "Grizzly Bears"\n')
    text = 'use "a/npcs.quest"\nuse "b/npcs.quest" as other\n' + scene("encounter npcs.guard\nencounter other.guard\nend victory")
    scenario = compile_in(pack, text, db)
    assert scenario.npcs["other.guard"].card.name == "Grizzly Bears"
    clash = 'use "a/npcs.quest"\nuse "b/npcs.quest"\n' + scene("end victory")
    assert errors_of(pack, clash, db) == ["DQ0062"]


def test_use_missing_script_and_cycle(pack, db):
    assert errors_of(pack, 'use "nope.quest"\n' + scene("end victory"), db) == ["DQ0060"]
    _library(pack, "x.quest", 'use "y.quest"\n')
    _library(pack, "y.quest", 'use "x.quest"\n')
    assert errors_of(pack, 'use "x.quest"\n' + scene("end victory"), db) == ["DQ0061"]


def test_errors_in_a_used_script_name_its_file(pack, db):
    _library(pack, "lib.quest", "set nothing\n")
    (d,) = diagnostics_of(pack, 'use "lib.quest"\n' + scene("end victory"), db)
    assert d.span.file.endswith("lib.quest")


def test_compile_error_collects_every_error(pack, db):
    with pytest.raises(CompileError) as caught:
        compile_in(pack, scene("-> a\n-> b"), db)
    assert [d.code for d in caught.value.diagnostics if d.severity == "error"] == ["DQ0031", "DQ0031"]
    assert caught.value.render().endswith("2 errors")


def test_shipped_goblin_cave_compiles_with_its_decks(db):
    """The contract's example, with the decks that ship beside it."""
    scenario = compile_file(EXAMPLE, db)
    assert scenario.start == "gate" and set(scenario.decks) == {"alice", "bram", "warlord", "goblins"}
    assert all(w.severity == "warning" for w in scenario.warnings)


def test_success_endings_in_the_header_name_endings_the_script_gives(pack, db):
    """Issue 18 item 8: `success endings victory, "peace"` says which endings count as the
    party's success; each must be an ending an `end` of the script gives (DQ0130, the caret
    under the name)."""
    body = 'choice:\n    "Fight":\n        end victory\n    "Talk":\n        end "peace" "A truce."'
    text = scene(body).replace("    rules 2019\n", '    rules 2019\n    success endings victory, "peace"\n', 1)
    assert compile_in(pack, text, db).success_endings == ("victory", "peace")
    assert compile_in(pack, scene(body), db).success_endings == ()
    (d,) = diagnostics_of(pack, text.replace('end "peace"', 'end "truce"'), db)
    assert (d.code, d.span.line, d.span.col, d.span.end_col) == ("DQ0130", 3, 30, 37)
    assert d.hint == "its endings: `truce`, `victory`"
