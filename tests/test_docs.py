"""The top-level documents stay true: README's two commands, the CLI reference, the rules map."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from deckquest.cli import main

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules" / "trpg.md"


def readme_commands() -> list[str]:
    """The lines of the README's first code block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_set_up_commands():
    first, second = readme_commands()
    assert first.startswith("pip install . && deckquest ")
    assert second == "pip install -e '.[test]' && pytest"


def test_readme_main_command_names_a_bundled_scenario():
    words = shlex.split(readme_commands()[0].split("&&")[1])
    paths = [word for word in words if word.endswith(".quest")]
    assert paths and all((ROOT / path).is_file() for path in paths)


def commands(group: click.Group, path=("deckquest",)):
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from commands(command, path + (name,))
        else:
            yield " ".join(path + (name,)), command


@pytest.mark.parametrize("name,command", list(commands(main)), ids=lambda value: str(value))
def test_cli_reference_documents_every_command_and_option(name, command):
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"## `{name}`" in text
    section = text.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
    for option in command.params:
        for flag in option.opts:
            if flag.startswith("-"):
                assert flag in section, f"{name}: {flag} is not in docs/cli.md"


@pytest.mark.skipif(not RULES.exists(), reason="../shared/rules/trpg.md is not beside the checkout")
def test_rules_map_lists_every_rule_and_only_existing_files():
    rules = re.findall(r"^- (T-\d+\.\d+) ", RULES.read_text(encoding="utf-8"), re.M)
    mapping = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| (T-\d+\.\d+) \|", mapping, re.M)
    assert listed == rules
    for row in re.findall(r"^\| T-.*$", mapping, re.M):
        _, _, _, status, code, tests, _ = row.split("|")
        assert re.match(r" (implemented|option|reading|not implemented)\b", status), row
        for name in re.findall(r"`([^`]+)`", code):
            assert (ROOT / "src" / "deckquest" / name).is_file(), name
        for name in re.findall(r"`([^`]+)`", tests):
            assert (ROOT / "tests" / name).is_file(), name
