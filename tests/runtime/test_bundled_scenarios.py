"""The bundled scenarios: together they use every statement and every trigger event."""

from __future__ import annotations

import typing

import pytest

from deckquest.dsl import ast
from deckquest.dsl.resolver import compile_file
from deckquest.runtime.interpreter import run_scenario
from runtime_helpers import DB, SCENARIOS

SCRIPTS = sorted(SCENARIOS.glob("*/*.quest"))


def walk(node):
    """Every AST node under ``node``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__") and not isinstance(item, ast.Span):
            yield item
            stack.extend(getattr(item, name) for name in item.__dataclass_fields__ if name != "span")


def test_there_are_four_bundled_scenarios():
    assert {path.parent.name for path in SCRIPTS} >= {"goblin_cave", "drowned_shrine", "bandit_toll",
                                                      "rat_cellar"}


def test_together_they_use_every_statement_and_every_trigger_event():
    found_statements, found_events = set(), set()
    for path in SCRIPTS:
        script = compile_file(path, DB).script
        for node in walk(script):
            found_statements.add(type(node))
            if isinstance(node, ast.Event):
                found_events.add(node.kind)
    statements = set(typing.get_args(ast.Stmt))
    assert statements - found_statements == set()
    assert set(ast.EVENT_KINDS) - found_events == set()


@pytest.mark.parametrize("agent", ["first", "random", "best"])
def test_the_shrine_runs_to_an_ending_with_every_agent_and_many_seeds(agent):
    """The no-battle scenario always reaches one of its endings, never stuck."""
    scenario = compile_file(SCENARIOS / "drowned_shrine" / "drowned_shrine.quest", DB)
    outcomes = {run_scenario(scenario, agent, seed, record=False).outcome for seed in range(40)}
    assert outcomes <= {"victory", "escaped", "defeat"}


def test_the_bandit_toll_ends_without_a_battle_when_the_party_pays():
    result = run_scenario(compile_file(SCENARIOS / "bandit_toll" / "bandit_toll.quest", DB), "first", 1)
    assert result.outcome == "victory" and result.scene == "road"


@pytest.mark.parametrize("agent", ["first", "random", "best"])
def test_the_horde_battle_scenarios_run_to_an_ending_with_every_agent(agent):
    """Battles (T-6) end in victory, defeat or escape, and the scripts go on to one of their
    endings: never stuck, never an error."""
    for name, seeds in (("rat_cellar", 12), ("goblin_cave", 3)):
        scenario = compile_file(SCENARIOS / name / f"{name}.quest", DB)
        outcomes = {run_scenario(scenario, agent, seed, record=False).outcome for seed in range(seeds)}
        assert outcomes <= {"victory", "defeat", "escaped"}


def test_the_bandit_toll_boss_battle_runs_to_an_ending():
    """Sneaking (option 3) leads to the brawl with Gruff (T-8.3) and his hound (T-8.1)."""
    scenario = compile_file(SCENARIOS / "bandit_toll" / "bandit_toll.quest", DB)
    for seed in range(3):
        result = run_scenario(scenario, "scripted", seed, choices=[3])
        assert any(e["event"] == "battle" for e in result.events)
        assert result.outcome in ("victory", "defeat")
