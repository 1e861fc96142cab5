"""The resolved program as Python closures: one per statement, one per condition.

``Program.ops[block][index]`` is the statement ``Program.blocks[block][index]`` made once per
program into a function ``op(run, frame)`` with its constants bound (a counter's name and
operation, a narration's text parts, an ``if``'s compiled condition and block numbers), so
the run loop calls it without looking the statement's handler and fields up each time. A game
system's statement (MTG-TRPG's ``check``, …) gets a closure over its handler and the
statement: the handler stays where it is (``GameSystem.statement_handlers``) and reads what
may change between batches (``Program.sites``, ``tune``) as it runs.

Conditions are built from the syntax tree (never from source text: nothing is ``eval``'d)
into functions ``cond(run, pc, degree)``; ``Run.value`` and ``Run.render`` use them too (made
on first use) for what no statement holds: a choice's labels, explore's, a system's. The run's position stays plain data (frames of block number and index): only the
program holds closures, so saves, clones and explore mode are unchanged.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable

from deckquest.dsl import ast
from deckquest.errors import DeckquestError
from deckquest.runtime.state import NPC_DEAD, NPC_UNCONSCIOUS, Frame, NpcState

if TYPE_CHECKING:
    from deckquest.engine import pc as pcs
    from deckquest.runtime.interpreter import Cond, Program, Run, Value

    Op = Callable[[Run, Frame], None]
    Render = Callable[[Run, Frame], str]

COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
           "==": operator.eq, "!=": operator.ne}


# ---------------------------------------------------------------- conditions


def condition(expr: ast.Expr) -> "Cond":
    """``expr`` as a function of (run, PC in scope, degree in scope): its value there."""
    maker = _EXPRESSIONS.get(type(expr))
    if maker is None:
        raise TypeError(f"not an expression: {expr!r}")
    return maker(expr)


def _int(expr: ast.IntLit) -> "Cond":
    value = expr.value
    return lambda run, pc, degree: value


def _var(expr: ast.Var) -> "Cond":
    name = expr.name

    def var(run: "Run", pc: str | None, degree: int | None) -> "Value":
        counters = run.state.counters
        if name in counters:
            return counters[name]
        # (not in one expression with the counter: its type would be int, and the compiled build
        # would make the flag's bool an int, shown as 0 or 1 instead of no or yes)
        return run.state.flags[name]
    return var


def _compare(expr: ast.Compare) -> "Cond":
    compare, left = COMPARE[expr.op], condition(expr.left)
    if type(expr.right) is ast.IntLit:  # `relics >= 3`: the usual shape, one call less
        number = expr.right.value
        return lambda run, pc, degree: compare(left(run, pc, degree), number)
    right = condition(expr.right)
    return lambda run, pc, degree: compare(left(run, pc, degree), right(run, pc, degree))


def _and(expr: ast.And) -> "Cond":
    operands = tuple(condition(operand) for operand in expr.operands)

    def every(run: "Run", pc: str | None, degree: int | None) -> "Value":
        for operand in operands:
            if not operand(run, pc, degree):
                return False
        return True
    return every


def _or(expr: ast.Or) -> "Cond":
    operands = tuple(condition(operand) for operand in expr.operands)

    def some(run: "Run", pc: str | None, degree: int | None) -> "Value":
        for operand in operands:
            if operand(run, pc, degree):
                return True
        return False
    return some


def _not(expr: ast.Not) -> "Cond":
    operand = condition(expr.operand)
    return lambda run, pc, degree: not operand(run, pc, degree)


def _pc_stat(expr: ast.PcStat) -> "Cond":
    name, stat, span = expr.pc, expr.stat, expr.span
    return lambda run, pc, degree: pc_stat(run.pc_named(name, pc, span), stat)


def _pc_name(expr: ast.PcName) -> "Cond":
    name, span = expr.pc, expr.span
    return lambda run, pc, degree: run.pc_named(name, pc, span).name


def _subject(expr: ast.Subject) -> "Cond":
    span, attribute = expr.span, expr.attribute

    def subject(run: "Run", pc: str | None, degree: int | None) -> "Value":
        value: Value = run.program.system.subject_value(run, run.subject(pc, span), attribute)
        return value
    return subject


def _npc_is(expr: ast.NpcIs) -> "Cond":
    npc, state = expr.npc, expr.state
    return lambda run, pc, degree: npc_is(run.state.npcs[npc], state)


def _party_size(expr: ast.PartySize) -> "Cond":
    return lambda run, pc, degree: len(run.state.pcs)


def _degree(expr: ast.Degree) -> "Cond":
    span = expr.span

    def degree_in_scope(run: "Run", pc: str | None, degree: int | None) -> "Value":
        if degree is None:
            raise DeckquestError("`degree` has no value here: no check is in scope", span)
        return degree
    return degree_in_scope


_EXPRESSIONS: dict[type, Callable[[Any], "Cond"]] = {
    ast.IntLit: _int, ast.Var: _var, ast.Compare: _compare, ast.And: _and, ast.Or: _or, ast.Not: _not,
    ast.PcStat: _pc_stat, ast.PcName: _pc_name, ast.Subject: _subject, ast.NpcIs: _npc_is,
    ast.PartySize: _party_size, ast.Degree: _degree,
}


def npc_is(npc: NpcState, state: str) -> bool:
    """``NPC is STATE`` (docs/language.md): cooperating and controlled (T-8.4), defeated
    (unconscious or dead, T-3.4), else its status (absent, present, unconscious, dead)."""
    if state == "cooperating":
        return npc.cooperating
    if state == "controlled":
        return npc.controller is not None
    if state == "defeated":
        return npc.status in (NPC_UNCONSCIOUS, NPC_DEAD)
    return npc.status == state


def pc_stat(pc: "pcs.PC", stat: str) -> int:
    if stat == "life":
        return pc.life
    if stat == "hand":
        return len(pc.hand)
    if stat == "library":
        return len(pc.library)
    return len(pc.exhaustion_zone)


def shown(value: "Value") -> str:
    """A value as a text shows it: a flag as yes or no."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def text(node: ast.Text) -> "Render":
    """A text as a function of (run, frame): its ``{…}`` parts filled in."""
    parts = node.parts
    fixed = node.raw if not parts else parts[0] if len(parts) == 1 else None
    if isinstance(fixed, str):  # nothing to fill in
        return lambda run, frame: fixed
    pieces = tuple(part if isinstance(part, str) else condition(part) for part in parts)

    def render(run: "Run", frame: Frame) -> str:
        pc, degree = frame.pc, frame.degree
        return "".join(piece if isinstance(piece, str) else shown(piece(run, pc, degree)) for piece in pieces)
    return render


# ---------------------------------------------------------------- statements


def ops(program: "Program") -> list[list["Op"]]:
    """``program.blocks`` with each statement made into its closure (``op(run, frame)``)."""
    return [[_op(program, stmt) for stmt in block] for block in program.blocks]


def _op(program: "Program", stmt: ast.Statement) -> "Op":
    maker = _STATEMENTS.get(type(stmt))
    if maker is not None:
        return maker(program, stmt)
    handler = program.handlers[type(stmt)]  # a game system's statement
    return lambda run, frame: handler(run, stmt, frame)


def _narration(program: "Program", stmt: ast.Narration) -> "Op":
    render = text(stmt.text)

    def narration(run: "Run", frame: Frame) -> None:
        if "narration" in run.wanted:
            run.emit("narration", text=render(run, frame))
    return narration


def _set_flag(program: "Program", stmt: ast.SetFlag | ast.ClearFlag) -> "Op":
    flag, value = stmt.flag, type(stmt) is ast.SetFlag

    def set_flag(run: "Run", frame: Frame) -> None:
        run.state.flags[flag] = value
        if "flag" in run.wanted:
            run.emit("flag", name=flag, value=value)
    return set_flag


def _counter_assign(program: "Program", stmt: ast.CounterAssign) -> "Op":
    counter, op, value = stmt.counter, stmt.op, stmt.value

    def counter_assign(run: "Run", frame: Frame) -> None:
        counters = run.state.counters
        if op == "=":
            counters[counter] = value
        elif op == "+=":
            counters[counter] += value
        else:
            counters[counter] -= value
        if "counter" in run.wanted:
            run.emit("counter", name=counter, value=counters[counter])
    return counter_assign


def _if(program: "Program", stmt: ast.If) -> "Op":
    test = condition(stmt.condition)
    then = program.block_id(stmt.then)
    orelse = None if stmt.orelse is None else program.block_id(stmt.orelse)

    def if_(run: "Run", frame: Frame) -> None:
        if test(run, frame.pc, frame.degree):
            run.state.frames.append(Frame(then, 0, frame.pc, frame.degree, None, frame.in_trigger))
        elif orelse is not None:
            run.state.frames.append(Frame(orelse, 0, frame.pc, frame.degree, None, frame.in_trigger))
    return if_


def _wait(program: "Program", stmt: ast.Wait) -> "Op":
    minutes = stmt.minutes

    def wait(run: "Run", frame: Frame) -> None:
        if "wait" in run.wanted:
            run.emit("wait", minutes=minutes)
        run.advance(minutes)
    return wait


def _goto(program: "Program", stmt: ast.Goto) -> "Op":
    scene = stmt.scene
    return lambda run, frame: run.goto(scene)


def _end(program: "Program", stmt: ast.End) -> "Op":
    outcome = stmt.outcome
    render = text(stmt.text) if stmt.text is not None else None
    return lambda run, frame: run.finish(outcome, "" if render is None else render(run, frame))


def _choice(program: "Program", stmt: ast.Choice) -> "Op":
    offers = tuple(None if option.condition is None else condition(option.condition) for option in stmt.options)
    return lambda run, frame: run.choice(stmt, offers, frame)


_STATEMENTS: dict[type, Callable[[Any, Any], "Op"]] = {
    ast.Narration: _narration, ast.SetFlag: _set_flag, ast.ClearFlag: _set_flag,
    ast.CounterAssign: _counter_assign, ast.If: _if, ast.Wait: _wait, ast.Goto: _goto, ast.End: _end,
    ast.Choice: _choice,
}
