"""The TextMate grammar of `.quest` files (editors/vscode/syntaxes/quest.tmLanguage.json),
checked against every bundled script (issue 20, item 2).

A small TextMate tokenizer (match, begin/end, captures, includes: the parts the grammar uses)
runs each line as an editor would, and the scopes it gives are compared with what the
compiler knows of the same script: comments, strings, scene names, `->` targets and the
keyword that opens each statement.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deckquest.dsl.resolver import compile_file

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = json.loads((ROOT / "editors" / "vscode" / "syntaxes" / "quest.tmLanguage.json").read_text("utf-8"))
SCRIPTS = sorted((ROOT / "scenarios").rglob("*.quest"))


def flatten(patterns: list[dict]) -> list[dict]:
    rules = []
    for pattern in patterns:
        if "include" in pattern:
            rules += flatten([GRAMMAR["repository"][pattern["include"][1:]]])
        elif "patterns" in pattern and "begin" not in pattern:
            rules += flatten(pattern["patterns"])
        else:
            rules.append(pattern)
    return rules


def tokenize(line: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """(start, end, scopes) for every character run of one line."""
    tokens: list[tuple[int, int, tuple[str, ...]]] = []
    position = 0
    rules = flatten(GRAMMAR["patterns"])
    while position < len(line):
        best = None
        for rule in rules:
            found = re.compile(rule.get("match") or rule["begin"]).search(line, position)
            if found and (best is None or found.start() < best[1].start()):
                best = (rule, found)
        if best is None or best[1].end() == best[1].start():
            tokens.append((position, len(line), ()))
            break
        rule, found = best
        if found.start() > position:
            tokens.append((position, found.start(), ()))
        if "match" in rule:
            tokens += captured(found, rule, ())
            position = found.end()
        else:
            position = region(line, found, rule, tokens)
    return tokens


def captured(found: re.Match, rule: dict, outer: tuple[str, ...]) -> list:
    scope = outer + ((rule["name"],) if "name" in rule else ())
    captures = rule.get("captures") or rule.get("beginCaptures") or {}
    tokens = []
    for group, spec in captures.items():
        if found.group(int(group)) is not None and found.start(int(group)) < found.end(int(group)):
            tokens.append((found.start(int(group)), found.end(int(group)), scope + (spec["name"],)))
    return tokens or [(found.start(), found.end(), scope)]


def region(line: str, begin: re.Match, rule: dict, tokens: list) -> int:
    """A begin/end rule on one line: its inner patterns until `end`; returns where it stops."""
    scope = (rule["name"],)
    tokens.append((begin.start(), begin.end(), scope))
    position = begin.end()
    inner = flatten(rule.get("patterns", []))
    end = re.compile(rule["end"])
    while True:
        stop = end.search(line, position)
        first = None
        for pattern in inner:
            found = re.compile(pattern["match"]).search(line, position)
            if found and (stop is None or found.start() < stop.start()) and (first is None or found.start() < first[1].start()):
                first = (pattern, found)
        if first is None:
            stop_at = stop.end() if stop else len(line)
            tokens.append((position, stop_at, scope))
            return max(stop_at, position + 1) if stop_at == position and stop_at < len(line) else stop_at
        pattern, found = first
        if found.start() > position:
            tokens.append((position, found.start(), scope))
        tokens += captured(found, pattern, scope)
        position = found.end()


def scopes_at(tokens, column: int) -> tuple[str, ...]:
    for start, end, scopes in tokens:
        if start <= column < end:
            return scopes
    return ()


def test_every_regex_compiles():
    for rule in flatten(GRAMMAR["patterns"]) + flatten(GRAMMAR["repository"]["string"]["patterns"]):
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_grammar_reads_each_bundled_script_as_the_compiler_does(script):
    scenario = compile_file(script)
    lines = script.read_text("utf-8").splitlines()
    statement_words = set(re.findall(r"[a-z]+", GRAMMAR["repository"]["statement"]["match"]))
    names = set(scenario.flags) | set(scenario.counters) | set(scenario.pcs) | set(scenario.npcs)
    for number, line in enumerate(lines, start=1):
        tokens = tokenize(line)
        if line.lstrip().startswith("#"):  # a comment line: all of it is comment, quotes included
            assert all("comment.line.number-sign.quest" in scopes_at(tokens, column)
                       for column in range(len(line) - len(line.lstrip()), len(line))), (number, line)
            continue
        code = line.split("#", 1)[0] if '"' not in line else line
        comment = re.search(r'#(?=[^"]*$)', line)
        if comment:
            assert "comment.line.number-sign.quest" in scopes_at(tokens, comment.start()), (number, line)
        for string in re.finditer(r'"(?:[^"\\]|\\.)*"', line):
            for column in range(string.start(), string.end()):
                assert "string.quoted.double.quest" in scopes_at(tokens, column), (number, line)
        arrow = re.search(r"->\s*([\w.]+)", code)
        if arrow:
            assert "entity.name.section.scene.quest" in scopes_at(tokens, arrow.start(1)), (number, line)
        first = re.match(r"\s*([a-z_][\w.]*)", code)
        if first and not code.lstrip().startswith('"'):
            word = first.group(1)
            scopes = " ".join(scopes_at(tokens, first.start(1)))
            if word in names:
                assert "variable.other" in scopes or "keyword" in scopes, (number, line)
            else:
                assert "keyword" in scopes or "storage.modifier" in scopes, (number, line, scopes)
    for scene in scenario.scenes.values():
        line = lines[scene.span.line - 1]
        column = re.search(rf"\bscene\s+({scene.id})\b", line).start(1)
        assert "entity.name.section.scene.quest" in scopes_at(tokenize(line), column)
    assert statement_words  # the grammar lists the statement keywords it colours


def test_vscode_extension_declares_the_grammar_and_the_server():
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "quest" and ".quest" in language["extensions"]
    (grammar,) = package["contributes"]["grammars"]
    assert grammar["scopeName"] == GRAMMAR["scopeName"]
    assert (ROOT / "editors" / "vscode" / grammar["path"]).resolve() == (
        ROOT / "editors" / "vscode" / "syntaxes" / "quest.tmLanguage.json").resolve()
    extension = (ROOT / "editors" / "vscode" / package["main"]).read_text("utf-8")
    assert '"lsp"' in extension or "'lsp'" in extension  # it starts `deckquest lsp`
