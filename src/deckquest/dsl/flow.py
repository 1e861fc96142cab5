"""The resolver's walk over triggers, scenes and statements: names checked, a resolved copy built.

The syntax tree is immutable (frozen dataclasses). Where the parser wrote a name as the
script spells it (``alarm`` in a script used as ``lair``), the walk builds a copy of the node
with the canonical name (``lair.alarm``), with the ``{…}`` parts of each text split out, and
the compiled ``Scenario`` holds those copies: the interpreter looks every name up as written
in the copy, never parses a text at run time, and the parsed tree stays as it was parsed.

It also checks the flow: ``pc`` and ``degree`` in scope, dead statements (DQ0046), and records
the ``->`` edges for the reachability of scenes. A game system's statement goes to the
system's resolver for its kind, here in the walk (``statement_resolvers``: MTG-TRPG's check
kinds of the rules edition, ``by``, outcome blocks, ``deckquest.systems.trpg.resolve``), or
else is handed to its resolve hook with its blocks resolved (``deckquest.dsl.language``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, TypeVar

from deckquest.i18n import _
from deckquest.dsl import ast
from deckquest.errors import Span, did_you_mean

if TYPE_CHECKING:
    from deckquest.dsl.resolver import _Compiler

#: A game system's resolver of one kind of its statements: ``resolver(walk, statement, scope)``
#: returns the statement's resolved copy, reporting through the walk (``Flow``).
StatementResolver = Callable[["Flow", Any, "Scope"], Any]
#: The statements that share a resolver walk: those naming a flag.
_FlagStmt = TypeVar("_FlagStmt", ast.SetFlag, ast.ClearFlag)
_INTERPOLATION = re.compile(r"(?P<literal>(?:[^{}]|\{\{|\}\})+)|\{(?P<inner>[^{}]*)\}|[{}]")


class Scope:
    """What a statement can refer to: a PC in scope (`pc`), a check's `degree`, its scene,
    the subject of a game system's trigger (`racer`)."""

    def __init__(self, pc: bool = False, degree: bool = False, scene: str | None = None, subject: bool = False):
        self.pc, self.degree, self.scene, self.subject = pc, degree, scene, subject

    def inside_check(self) -> "Scope":
        return Scope(pc=True, degree=True, scene=self.scene, subject=self.subject)


class Flow:
    """Resolves the triggers and scenes of one script for its compiler (names, diagnostics)."""

    def __init__(self, compiler: "_Compiler"):
        self.c = compiler
        self._resolvers: Mapping[type, StatementResolver] | None = None

    def resolvers(self) -> Mapping[type, StatementResolver]:
        """The game system's statement resolvers (``statement_resolvers()``), by node class."""
        if self._resolvers is None:
            language = self.c.language
            self._resolvers = language.statement_resolvers() if language is not None else {}
        return self._resolvers

    # -------------------------------------------------------------- for a game system's resolvers

    @property
    def rules(self) -> int:
        """The MTG-TRPG edition the script checks by (2019 or 2014)."""
        return self.c.rules

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.c.error(code, message, span, hint)

    def npc(self, name: str, span: Span, kinds: tuple[str, ...] = ast.NPC_KINDS) -> str:
        """The canonical name of an NPC of one of ``kinds`` (DQ0032 unknown, DQ0035 another kind)."""
        return self.c._npc_ref(name, span, kinds)

    def pc(self, name: str, span: Span, scope: Scope, others: tuple[str, ...] = ()) -> str:
        """The canonical name of a PC, or ``pc`` for the one in scope (DQ0033, DQ0037)."""
        return self.c._pc_ref(name, span, scope, others)

    def never_comes(self, event: ast.Event) -> None:
        """DQ0047: an event counted from 1 (`after 0 minutes`, MTG-TRPG's `battle turn 0`)."""
        self.c.error("DQ0047", _("`{number}` never comes: count from 1", number=event.number), event.span)

    # -------------------------------------------------------------- triggers and scenes

    def trigger(self, trigger: ast.Trigger, scene: str | None) -> ast.Trigger:
        c = self.c
        event = trigger.event
        if c.language is not None:  # the system's events: their names (MTG-TRPG's `goblin is defeated`)
            event = c.language.resolve_event(self, event)
        if event.kind == "after_minutes" and event.number is not None and event.number < 1:
            self.never_comes(event)
        subject = c.language is not None and c.language.events.get(event.kind, False)
        pc, degree = c.language.event_binds(event.kind) if c.language is not None else (False, False)
        scope = Scope(pc=pc, degree=degree, scene=scene, subject=subject)
        condition = self.condition(trigger.condition, scope) if trigger.condition is not None else None
        return replace(trigger, event=event, condition=condition, body=self.block(trigger.body, scope))

    def scene(self, scene: ast.Scene) -> ast.Scene:
        triggers = [self.trigger(trigger, scene.id) for trigger in scene.triggers]
        return replace(scene, triggers=triggers, body=self.block(scene.body, Scope(scene=scene.id)))

    def block(self, statements: list[ast.Statement], scope: Scope) -> list[ast.Statement]:
        resolved = []
        ended = False
        for statement in statements:
            if ended:
                self.c.warn("DQ0046", _("this statement never runs: the one before it leaves the scene"), statement.span)
                ended = False  # one warning per block
            resolved.append(self.statement(statement, scope))
            ended = ended or terminates([statement])
        return resolved

    def statement(self, s: ast.Statement, scope: Scope) -> ast.Statement:
        handler = getattr(self, "_s_" + type(s).__name__, None)
        if handler is not None:
            statement: ast.Statement = handler(s, scope)  # a resolved copy of the same kind
            return statement
        resolver = self.resolvers().get(type(s))
        if resolver is not None:  # the game system resolves it in the walk (MTG-TRPG's `check`)
            resolved: ast.Statement = resolver(self, s, scope)
            return resolved
        # a game system's statement: its resolve hook checks it; its blocks are the core's
        self.c.system_statements.append((s, scope))
        blocks = [self.block(block, scope) for block in ast.nested_blocks(s)]
        with_blocks = getattr(s, "with_blocks", None)
        if with_blocks is None:
            return s
        rebuilt: ast.Statement = with_blocks(blocks)  # the system's statement with resolved blocks
        return rebuilt

    # -------------------------------------------------------------- statements

    def _s_Narration(self, s: ast.Narration, scope: Scope) -> ast.Narration:
        return replace(s, text=self.text(s.text, scope))

    def _s_Choice(self, s: ast.Choice, scope: Scope) -> ast.Choice:
        return replace(s, options=[
            replace(option, label=self.text(option.label, scope),
                    condition=self.condition(option.condition, scope) if option.condition is not None else None,
                    body=self.block(option.body, scope))
            for option in s.options])

    def _s_Goto(self, s: ast.Goto, scope: Scope) -> ast.Goto:
        c = self.c
        if s.scene not in c.scenes:
            if c._counting_only():  # past the errors kept: no "did you mean" over every scene
                return s
            c.error("DQ0031", _("unknown scene `{scene}`", scene=s.scene), s.name_span or s.span, did_you_mean(s.scene, c.scenes))
            return s
        c.used.add(s.scene)
        c.gotos.setdefault(scope.scene, set()).add(s.scene)
        return s

    def _s_End(self, s: ast.End, scope: Scope) -> ast.End:
        return replace(s, text=self.text(s.text, scope)) if s.text is not None else s

    def _s_Wait(self, s: ast.Wait, scope: Scope) -> ast.Wait:
        """Nothing to check: the clock moves on."""
        return s

    def _s_SetFlag(self, s: _FlagStmt, scope: Scope) -> _FlagStmt:
        return replace(s, flag=self.c._lookup(s.flag, s.name_span or s.span, ("flag",), "DQ0034"))

    _s_ClearFlag = _s_SetFlag

    def _s_CounterAssign(self, s: ast.CounterAssign, scope: Scope) -> ast.CounterAssign:
        return replace(s, counter=self.c._lookup(s.counter, s.name_span or s.span, ("counter",), "DQ0034"))

    def _s_If(self, s: ast.If, scope: Scope) -> ast.If:
        return replace(s, condition=self.condition(s.condition, scope), then=self.block(s.then, scope),
                       orelse=self.block(s.orelse, scope) if s.orelse is not None else None)

    # -------------------------------------------------------------- conditions and text

    def condition(self, expr: ast.Expr, scope: Scope) -> ast.Expr:
        """A condition: flags, comparisons, NPC states (``bear is dead``) and their and/or/not."""
        if isinstance(expr, (ast.And, ast.Or)):
            return replace(expr, operands=[self.condition(operand, scope) for operand in expr.operands])
        if isinstance(expr, ast.Not):
            return replace(expr, operand=self.condition(expr.operand, scope))
        if isinstance(expr, ast.Compare):
            return replace(expr, left=self.number(expr.left, scope), right=self.number(expr.right, scope))
        if isinstance(expr, ast.Var):
            return replace(expr, name=self.c._lookup(expr.name, expr.span, ("flag",), "DQ0034"))
        if isinstance(expr, ast.NpcIs):
            return replace(expr, npc=self.c._npc_ref(expr.npc, expr.span, ast.NPC_KINDS))
        expr = self.number(expr, scope)
        self.c.error("DQ0035", _("a number is not a condition"), expr.span, _("compare it: `... > 0`"))
        return expr

    def number(self, expr: ast.Expr, scope: Scope) -> ast.Expr:
        """A number: an integer, a counter, a PC's life/hand/library, `party size` or `degree`."""
        c = self.c
        if isinstance(expr, ast.Var):
            return replace(expr, name=c._lookup(expr.name, expr.span, ("counter",), "DQ0034"))
        if isinstance(expr, ast.PcStat):
            return self.pc_stat(expr, scope)
        if isinstance(expr, ast.Degree) and not scope.degree:
            c.error("DQ0038", _("`degree` is only known inside a check's `success:` or `failure:` block"), expr.span)
        elif isinstance(expr, ast.Subject):
            self.subject(expr, scope)
        elif isinstance(expr, (ast.Compare, ast.And, ast.Or, ast.Not)):
            c.error("DQ0035", _("a condition is not a number"), expr.span, _("compare numbers: `torches < 2`"))
        return expr

    def subject(self, expr: ast.Subject, scope: Scope) -> None:
        """``racer``, ``racer.position``: what a game system's trigger is about."""
        language = self.c.language
        word = language.subject if language is not None else "subject"
        if not scope.subject:
            self.c.error("DQ0126", _("`{word}` means what a trigger is about, and here there is none", word=word), expr.span,
                         _("`{word}` is bound in the body and condition of a `when` about a {word}", word=word))
        elif language is not None and expr.attribute is not None and expr.attribute not in language.subject_attributes:
            known = language.subject_attributes
            self.c.error("DQ0127", _("a {word} has no `{attribute}`", word=word, attribute=expr.attribute), expr.span,
                         did_you_mean(expr.attribute, known) or listed(f"a {word} has", known))

    def pc_stat(self, expr: ast.PcStat, scope: Scope) -> ast.PcStat:
        if expr.stat not in ast.PC_STATS:
            self.c.error("DQ0035", _("a PC has no `{stat}`", stat=expr.stat), expr.span,
                         did_you_mean(expr.stat, ast.PC_STATS) or _("a PC has {names}", names=", ".join(ast.PC_STATS)))
        return replace(expr, pc=self.c._pc_ref(expr.pc, expr.span, scope))

    def text(self, text: ast.Text, scope: Scope) -> ast.Text:
        """Split `{...}` interpolations into parts, checking each name now, not at run time."""
        parts: list[str | ast.Expr] = []
        for match in _INTERPOLATION.finditer(text.raw):
            literal, inner = match.group("literal"), match.group("inner")
            if literal is not None:
                parts.append(literal.replace("{{", "{").replace("}}", "}"))
                continue
            col = text.span.col + 1 + match.start()
            span = Span(text.span.file, text.span.line, col, text.span.line, col + len(match.group(0)))
            if inner is None:
                self.c.error("DQ0039", _("a `{` without its `}`"), span, _("write `{{` for a brace in the text"))
                continue
            parts.append(self.interpolated(inner.strip(), span, scope))
        return replace(text, parts=_merge_literals(parts))

    def interpolated(self, inner: str, span: Span, scope: Scope) -> str | ast.Expr:
        c = self.c
        if inner == "party size":
            return ast.PartySize(span)
        if inner == "degree":
            self.number(ast.Degree(span), scope)
            return ast.Degree(span)
        if not re.fullmatch(r"[^\W\d]\w*(\.[^\W\d]\w*){0,2}", inner):
            c.error("DQ0039", _("`{{{inner}}}` is not something to show", inner=inner), span,
                    _("interpolate a name: `{pc}`, `{alice}`, `{alice.life}`, `{torches}`, `{party size}`"))
            return ""
        owner, _dot, stat = inner.rpartition(".")
        word = c.language.subject if c.language is not None else None
        if word is not None and (inner == word or owner == word):
            subject = ast.Subject(span, stat if owner else None)
            self.subject(subject, scope)
            return subject
        if owner and stat in ast.PC_STATS:
            return self.pc_stat(ast.PcStat(span, owner, stat), scope)
        if inner == "pc" or c.symbols.get(c.prefix + inner, ("",))[0] == "pc":
            return ast.PcName(span, c._pc_ref(inner, span, scope))
        if owner and (owner == "pc" or c.symbols.get(c.prefix + owner, ("",))[0] == "pc"):
            c.error("DQ0039", _("a PC has no `{stat}` to show", stat=stat), span,
                    _("`{{{owner}}}` shows its name; a PC also shows {names}", owner=owner, names=", ".join(f"`{{{owner}.{name}}}`" for name in ast.PC_STATS)))
            return ""
        return ast.Var(span, c._lookup(inner, span, ("counter", "flag"), "DQ0034"))


def listed(what: str, names: Iterable[str]) -> str:
    names = list(names)
    return f"{what}: " + ", ".join(f"`{n}`" for n in names) if names else f"{what}: none"


def _merge_literals(parts: list[str | ast.Expr]) -> list[str | ast.Expr]:
    merged: list[str | ast.Expr] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        elif part != "":
            merged.append(part)
    return merged


def terminates(statements: Sequence[ast.Statement]) -> bool:
    """Whether every path through these statements leaves the scene (`->` or `end`)."""
    return any(_statement_terminates(s) for s in statements)


def _statement_terminates(s: ast.Statement) -> bool:
    if isinstance(s, (ast.Goto, ast.End)):
        return True
    if isinstance(s, ast.If):
        return s.orelse is not None and terminates(s.then) and terminates(s.orelse)
    if isinstance(s, ast.Choice):
        return bool(s.options) and all(terminates(o.body) for o in s.options)
    ends_scene = getattr(s, "ends_scene", None)  # a game system's compound statement says
    return bool(ends_scene()) if ends_scene is not None else False
