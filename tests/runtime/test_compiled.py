"""The program as closures (runtime/compiled.py) does what the plain interpreter does.

The reference is the interpreter as it was before the closures: each core statement run by
its plain handler and every condition and text evaluated by walking the syntax tree (below,
as ``Run`` did before issue 19 item 2). Both give the same event stream, seed by seed, for
every bundled adventure; a compiled condition and text give what the tree walk gives on
generated expressions.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.dsl import ast
from deckquest.dsl.resolver import compile_file
from deckquest.errors import Span
from deckquest.runtime import compiled
from deckquest.runtime.agents import make_agent
from deckquest.runtime.interpreter import Program, Run
from deckquest.runtime.state import Frame
from runtime_helpers import DB, SCENARIOS

SCRIPTS = sorted(SCENARIOS.glob("*/*.quest"))
SEEDS = range(4)


# ---------------------------------------------------------------- the plain handlers

def value(run, expr, pc, degree):
    """An expression's value by walking its tree (``Run._value`` before the closures)."""
    kind = type(expr)
    if kind is ast.IntLit:
        return expr.value
    if kind is ast.Var:
        counters = run.state.counters
        return counters[expr.name] if expr.name in counters else run.state.flags[expr.name]
    if kind is ast.Compare:
        return compiled.COMPARE[expr.op](value(run, expr.left, pc, degree), value(run, expr.right, pc, degree))
    if kind is ast.And:
        return all(value(run, operand, pc, degree) for operand in expr.operands)
    if kind is ast.Or:
        return any(value(run, operand, pc, degree) for operand in expr.operands)
    if kind is ast.Not:
        return not value(run, expr.operand, pc, degree)
    if kind is ast.PcStat:
        return compiled.pc_stat(run.pc_named(expr.pc, pc, expr.span), expr.stat)
    if kind is ast.PcName:
        return run.pc_named(expr.pc, pc, expr.span).name
    if kind is ast.Subject:
        return run.program.system.subject_value(run, run.subject(pc, expr.span), expr.attribute)
    if kind is ast.NpcIs:
        return compiled.npc_is(run.state.npcs[expr.npc], expr.state)
    if kind is ast.PartySize:
        return len(run.state.pcs)
    assert kind is ast.Degree and degree is not None
    return degree


def render(run, text, frame):
    """A text with its parts filled in by the tree walk (``Run.render`` before the closures)."""
    return text.raw if not text.parts else "".join(
        part if isinstance(part, str) else compiled.shown(value(run, part, frame.pc, frame.degree))
        for part in text.parts)



def _narration(run, stmt, frame):
    if "narration" in run.wanted:
        run.emit("narration", text=render(run, stmt.text, frame))


def _if(run, stmt, frame):
    if value(run, stmt.condition, frame.pc, frame.degree):
        run.push(stmt.then, frame)
    elif stmt.orelse is not None:
        run.push(stmt.orelse, frame)


def _flag(run, stmt, frame):
    run.state.flags[stmt.flag] = type(stmt) is ast.SetFlag
    if "flag" in run.wanted:
        run.emit("flag", name=stmt.flag, value=type(stmt) is ast.SetFlag)


def _counter_assign(run, stmt, frame):
    counters = run.state.counters
    if stmt.op == "=":
        counters[stmt.counter] = stmt.value
    elif stmt.op == "+=":
        counters[stmt.counter] += stmt.value
    else:
        counters[stmt.counter] -= stmt.value
    if "counter" in run.wanted:
        run.emit("counter", name=stmt.counter, value=counters[stmt.counter])


def _wait(run, stmt, frame):
    if "wait" in run.wanted:
        run.emit("wait", minutes=stmt.minutes)
    run.advance(stmt.minutes)


def _end(run, stmt, frame):
    run.finish(stmt.outcome, render(run, stmt.text, frame) if stmt.text is not None else "")


PLAIN = {ast.Narration: _narration, ast.If: _if, ast.SetFlag: _flag, ast.ClearFlag: _flag,
         ast.CounterAssign: _counter_assign, ast.Wait: _wait, ast.End: _end,
         ast.Goto: lambda run, stmt, frame: run.goto(stmt.scene),
         ast.Choice: lambda run, stmt, frame: run.choice(stmt, tuple(
             None if o.condition is None else _interpreted(o.condition) for o in stmt.options), frame)}


def _interpreted(expr):
    return lambda run, pc, degree: value(run, expr, pc, degree)


def plain_program(path, monkeypatch) -> Program:
    """The program with every statement run by a plain handler and every condition
    (triggers' too) evaluated on the syntax tree."""
    with monkeypatch.context() as patch:
        patch.setattr(compiled, "condition", _interpreted)
        program = Program(compile_file(path, DB))
    handlers = {**program.handlers, **PLAIN}

    def plain(stmt):
        handler = handlers[type(stmt)]
        return lambda run, frame: handler(run, stmt, frame)
    program.ops = [[plain(stmt) for stmt in block] for block in program.blocks]
    return program


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: path.stem)
def test_closures_and_plain_handlers_give_the_same_events(path, monkeypatch):
    """Every bundled adventure, a few seeds, agents first and random: the same event stream."""
    programs = Program(compile_file(path, DB)), plain_program(path, monkeypatch)
    for agent in ("first", "random"):
        for seed in SEEDS:
            streams = []
            for program in programs:
                run = Run(program, make_agent(agent), random.Random(seed), seed=seed)
                run.run()
                streams.append(run.events)
            assert streams[0] == streams[1], (agent, seed)


# ---------------------------------------------------------------- conditions

SPAN = Span("generated.quest", 1, 1)
DROWNED = Program(compile_file(SCENARIOS / "drowned_shrine" / "drowned_shrine.quest", DB))
COUNTERS, FLAGS = sorted(DROWNED.scenario.counters), sorted(DROWNED.scenario.flags)
NPCS, PCS = sorted(DROWNED.scenario.npcs), sorted(DROWNED.scenario.pcs)

leaves = st.one_of(
    st.builds(ast.IntLit, st.just(SPAN), st.integers(-3, 5)),
    st.builds(ast.Var, st.just(SPAN), st.sampled_from(COUNTERS + FLAGS)),
    st.builds(ast.PcStat, st.just(SPAN), st.sampled_from(PCS + ["pc"]),
              st.sampled_from(["life", "hand", "library", "exhaustion"])),
    st.builds(ast.PartySize, st.just(SPAN)),
    st.builds(ast.Degree, st.just(SPAN)),
    *([st.builds(ast.NpcIs, st.just(SPAN), st.sampled_from(NPCS), st.sampled_from(ast.NPC_STATES))] if NPCS else []),
)
expressions = st.recursive(leaves, lambda inner: st.one_of(
    st.builds(ast.Compare, st.just(SPAN), st.sampled_from(sorted(compiled.COMPARE)), inner, inner),
    st.builds(ast.And, st.just(SPAN), st.lists(inner, min_size=2, max_size=3)),
    st.builds(ast.Or, st.just(SPAN), st.lists(inner, min_size=2, max_size=3)),
    st.builds(ast.Not, st.just(SPAN), inner)), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(expressions, st.integers(0, 10_000), st.integers(-3, 3),
       st.lists(st.integers(-2, 6), min_size=len(COUNTERS), max_size=len(COUNTERS)),
       st.lists(st.booleans(), min_size=len(FLAGS), max_size=len(FLAGS)))
def test_a_compiled_condition_agrees_with_the_tree_walk(expr, seed, degree, counters, flags):
    run = Run(DROWNED, make_agent("first"), random.Random(seed), record=False)
    run.state.counters.update(zip(COUNTERS, counters))
    run.state.flags.update(zip(FLAGS, flags))
    pc = PCS[seed % len(PCS)]
    assert compiled.condition(expr)(run, pc, degree) == value(run, expr, pc, degree)
    text = ast.Text(SPAN, "{…}", ["value: ", expr, "."])
    frame = Frame(0, 0, pc, degree)
    assert compiled.text(text)(run, frame) == render(run, text, frame)
    assert run.value(expr, pc, degree) == value(run, expr, pc, degree)  # what systems and explore ask
