"""Syntax errors: clear messages at the right spot, several per file, and limits on hostile input."""

from __future__ import annotations

import pytest

from deckquest.dsl.parser import MAX_BLOCK_DEPTH, MAX_FILE_BYTES, MAX_STRING_CHARS, parse_source
from deckquest.errors import CompileError


def problems(text: str):
    with pytest.raises(CompileError) as caught:
        parse_source(text, "t.quest")
    return caught.value.diagnostics


def where(text: str):
    return [(d.code, d.span.line, d.span.col) for d in problems(text)]


def test_tab_indentation_has_its_own_message():
    (d,) = problems('scene s "S":\n\t-> s\n')
    assert (d.code, d.message, d.span.line, d.span.col) == ("DQ0002", "indent with 4 spaces, not a tab", 2, 1)


def test_indent_not_multiple_of_four():
    assert where('scene s "S":\n   -> s\n') == [("DQ0003", 2, 1)]


def test_a_script_indented_with_two_spaces_gets_one_error_per_line_and_no_cascade():
    """A GM whose editor indents by 2 spaces: each badly indented line is reported (DQ0003),
    and the parser reads the blocks as written instead of reporting the header and the scene
    as ending early or their lines as unexpected (DQ0001)."""
    text = ('scenario "Two":\n  rules 2019\nstart scene gate "A":\n  "hi"\n  choice:\n'
            '    "Go":\n      end victory\n')
    assert where(text) == [("DQ0003", 2, 1), ("DQ0003", 4, 1), ("DQ0003", 5, 1), ("DQ0003", 7, 1)]
    assert where('scene s "S":\n  -> s\n') == [("DQ0003", 2, 1)]
    # 3 spaces under a 4-space line closes that block; a 1-space slip stays at the level above
    assert where('scene s "S":\n    if a:\n       -> s\n   -> s\n') == [("DQ0003", 3, 1), ("DQ0003", 4, 1)]
    assert where('scene s "S":\n    "a"\n     "b"\n    -> s\n') == [("DQ0003", 3, 1)]


def test_missing_colon_inside_a_scene_points_at_the_end_of_that_line_when_recovering():
    """With several errors the parser recovers statement by statement; each diagnostic still
    points into the file's own line (here: just after `if f`, not column 1)."""
    text = 'scene s "S":\n    "first narration line here"\n    if f\n        "x"\n    c += \n    -> s\n'
    assert where(text) == [("DQ0011", 3, 9), ("DQ0001", 5, 9)]


def test_outcome_and_else_lines_out_of_place_say_where_they_belong():
    text = ('scene s "S":\n    check red difficulty 2:\n        success:\n            "x"\n'
            '    failure:\n        "y"\n    "w"\n    else:\n        "v"\n    victory:\n        -> s\n    -> s\n')
    found = problems(text)
    assert [(d.code, d.span.line) for d in found] == [("DQ0001", 5), ("DQ0001", 8), ("DQ0001", 10)]
    assert "inside a `check …:` or `recruit …:` block" in found[0].hint
    assert "right after the block of an `if`" in found[1].hint
    assert "inside a `battle against …:` block" in found[2].hint


def test_a_declaration_inside_a_scene_says_it_belongs_at_the_left_margin():
    text = 'scene s "S":\n    "x"\n    flag f\n    counter c = 1\n    scene b "B":\n        -> s\n    -> s\n'
    found = problems(text)
    assert [(d.code, d.span.line) for d in found] == [("DQ0001", 3), ("DQ0001", 4), ("DQ0001", 5)]
    assert [d.hint for d in found[:2]] == ["declare a flag at the left margin, outside scenes",
                                           "declare a counter at the left margin, outside scenes"]
    assert "left margin" in found[2].hint
    # at the left margin the usual hint stays: what the line should hold
    (d,) = problems("flag 1x\n")
    assert d.hint == "expected a name"


def test_unterminated_string():
    assert where('scene s "S":\n    "Hello\n    -> s\n') == [("DQ0004", 2, 5)]


def test_unexpected_character_hints_double_quotes():
    (d,) = problems("scene s 'S':\n    -> s\n")
    assert (d.code, d.span.col) == ("DQ0009", 9) and "double quotes" in d.hint


def test_missing_colon():
    (d,) = problems('scene s "S"\n    -> s\n')
    assert (d.code, d.span.line, d.span.col) == ("DQ0011", 1, 12)


def test_unexpected_indent():
    (d,) = problems('scene s "S":\n    "a"\n        "b"\n    -> s\n')
    assert (d.code, d.span.line, d.span.col) == ("DQ0010", 3, 9)


def test_missing_block():
    (d,) = problems('scene s "S":\n    if a:\n    -> s\n')
    assert (d.code, d.span.line) == ("DQ0012", 3)


def test_generic_syntax_error_lists_what_was_expected():
    (d,) = problems('scene s "S":\n    check green difficulty three:\n        success:\n            -> s\n')
    assert (d.code, d.span.line, d.span.col) == ("DQ0001", 2, 28)
    assert d.message == "unexpected `three`" and "a number" in d.hint


def test_several_errors_in_one_file_are_all_reported():
    text = ('scenario "T"\n    rules 2019\n'          # missing colon (line 1)
            'flag ok\n'
            'scene a "A":\n    -> b c\n    "fine"\n    set 3\n'   # two bad statements (5, 7)
            "creature x 'X'\n"                          # bad quote (8)
            'scene b "B":\n    end victory\n')
    assert [(code, line) for code, line, _ in where(text)] == [("DQ0011", 1), ("DQ0001", 5), ("DQ0001", 7), ("DQ0009", 8)]


def test_layout_errors_and_syntax_errors_together():
    text = 'scene a "A":\n\t"x"\n    -> \n'
    assert [code for code, _, _ in where(text)] == ["DQ0002", "DQ0001"]


def test_file_too_large():
    (d,) = problems("#" * (MAX_FILE_BYTES + 1))
    assert d.code == "DQ0005"


def test_nesting_too_deep():
    lines = ['scene s "S":']
    for depth in range(1, MAX_BLOCK_DEPTH + 3):
        lines.append("    " * depth + "if a:")
    lines.append("    " * (MAX_BLOCK_DEPTH + 3) + '"deep"')
    assert "DQ0006" in [d.code for d in problems("\n".join(lines) + "\n")]


def test_nesting_too_deep_is_one_error_not_a_cascade():
    """A run of lines past the depth limit is one DQ0006 at its first line: no "indented 8
    spaces more than the line above" for each deeper line, no "expected a block" above it."""
    lines = ['scene s "S":'] + ["    " * depth + "if a:" for depth in range(1, MAX_BLOCK_DEPTH + 7)]
    lines += ["    " * (MAX_BLOCK_DEPTH + 7) + "-> s", "    -> s"]
    assert where("\n".join(lines) + "\n") == [("DQ0006", MAX_BLOCK_DEPTH + 2, (MAX_BLOCK_DEPTH + 1) * 4 + 1)]


def test_parentheses_too_deep():
    assert "DQ0006" in [d.code for d in problems('scene s "S":\n    if ' + "(" * 40 + "a" + ")" * 40 + ':\n        -> s\n')]


def test_string_too_long():
    assert [d.code for d in problems('scene s "S":\n    "' + "x" * (MAX_STRING_CHARS + 1) + '"\n    -> s\n')] == ["DQ0007"]


def test_number_too_large():
    assert [d.code for d in problems('counter c = 99999999999999999999999999\n')] == ["DQ0013"]


def test_very_long_and_chain_is_no_recursion_error():
    text = 'scene s "S":\n    if ' + " and ".join(["a"] * 3000) + ":\n        -> s\n    -> s\n"
    assert len(parse_source(text, "t.quest").scenes[0].body[0].condition.operands) == 3000


def test_deep_not_chain_is_an_error_not_a_crash():
    text = 'scene s "S":\n    if ' + "not " * 5000 + "lit:\n        -> s\n    -> s\n"
    assert [d.code for d in problems(text)] == ["DQ0006"]


def test_one_missing_colon_is_one_error_not_a_cascade_at_a_valid_else():
    """Issue 18 item 15: a missing `:` on a choice option (shared/repro/mistakes/m3.quest) also
    gave "unexpected `:`" at the valid `else:` of a later `if`: recovery parsed the `else:` apart
    from its `if`."""
    text = ('scene s "S":\n    choice:\n        "Talk"\n            "hi"\n        "Leave":\n            "bye"\n'
            '    if f:\n        -> s\n    else:\n        -> s\n')
    assert where(text) == [("DQ0011", 3, 15)]
    # an `else:` with no `if` before it is still reported, with its hint
    (found,) = problems(text.replace('"Talk"', '"Talk":').replace("    if f:\n        -> s\n", '    "no if"\n'))
    assert found.span.line == 8 and "right after the block of an `if`" in found.hint
