"""The dice race's part of the scenario language: its grammar fragment, AST nodes, builder
methods and resolver checks (codes DQ6000-DQ6099)."""

from __future__ import annotations

from dataclasses import dataclass

from deckquest.dsl.parser import unquote
from deckquest.errors import Span, did_you_mean

GRAMMAR = r"""
// header: `track N`, the last square (DR-3)
%extend header_entry: track
track: "track" INT _NL

// declarations: `racer id "Name"`, optionally with `plays AGENT`
%extend item: racer_decl
racer_decl: "racer" NAME STRING _NL
          | "racer" NAME STRING ":" _NL _INDENT plays _DEDENT
plays: "plays" NAME _NL

// statement: `advance racer 2` (the racer a trigger is about) or `advance ana 2`
%extend stmt: advance
advance: "advance" NAME INT ["square" | "squares"] _NL

// trigger events
%extend event: "a" "racer" "moves"              -> ev_racer_moves
             | "a" "racer" "stumbles"           -> ev_racer_stumbles
             | "a" "racer" "is" "knocked" "back" -> ev_racer_knocked_back
             | "a" "racer" "wins"               -> ev_racer_wins
"""

EVENTS = {"racer_moves": True, "racer_stumbles": True, "racer_knocked_back": True, "racer_wins": True}
MIN_TRACK, MAX_TRACK = 2, 200


@dataclass(frozen=True)
class RacerDecl:
    span: Span
    id: str
    name: str
    plays: str | None = None
    plays_span: Span | None = None


@dataclass(frozen=True)
class Advance:
    """``advance WHO N``: move a racer N squares (DR-2's move, DR-3, DR-4 apply)."""

    span: Span
    racer: str  # a racer id, or "racer": the racer the trigger is about
    squares: int


@dataclass(frozen=True)
class RaceTable:
    """What the resolver worked out: the compiled program's side table."""

    track: int
    racers: tuple[tuple[str, str, str | None], ...]  # (id, name, agent name or None)
    advances: dict[tuple[str, int, int], str]  # an `advance`'s place -> racer id or "racer"


def place(span: Span) -> tuple[str, int, int]:
    return span.file, span.line, span.col


class Builder:
    """Builder methods merged into the core's transformer (``(self, meta, children)``)."""

    def track(self, meta, c):
        from deckquest.dsl import ast

        return ast.HeaderEntry(self._span(meta), "track", self._int(c[0]))

    def racer_decl(self, meta, c):
        name, title, *rest = c
        plays = rest[0] if rest else None
        return RacerDecl(self._span(meta), str(name), unquote(title),
                         plays[0] if plays else None, plays[1] if plays else None)

    def plays(self, meta, c):
        return str(c[0]), self._span(meta)

    def advance(self, meta, c):
        return Advance(self._span(meta), str(c[0]), self._int(c[1]))

    def ev_racer_moves(self, meta, c):
        return self._event(meta, "racer_moves")

    def ev_racer_stumbles(self, meta, c):
        return self._event(meta, "racer_stumbles")

    def ev_racer_knocked_back(self, meta, c):
        return self._event(meta, "racer_knocked_back")

    def ev_racer_wins(self, meta, c):
        return self._event(meta, "racer_wins")


def resolve(context, agents) -> RaceTable:
    """DQ6001-DQ6007: the track, the racers, their agents and every `advance`."""
    header = context.script.header
    track_entry = next((e for e in header.entries if e.key == "track"), None) if header else None
    track = track_entry.value if track_entry is not None else 0
    if track_entry is None:
        context.error("DQ6001", "a dice race needs its track's length", header.span if header else Span(str(context.path), 1, 1),
                      "add `track 20` to the scenario header")
    elif not MIN_TRACK <= track <= MAX_TRACK:
        context.error("DQ6002", f"a track of {track} squares", track_entry.span,
                      f"a track has {MIN_TRACK} to {MAX_TRACK} squares")
    racers = []
    for decl in context.declarations:
        if not isinstance(decl, RacerDecl) or not context.declare("racer", decl.id, decl):
            continue
        if decl.plays is not None and decl.plays not in agents:
            context.error("DQ6004", f"no dice race agent is called `{decl.plays}`", decl.plays_span,
                          did_you_mean(decl.plays, list(agents)) or "agents: " + ", ".join(agents))
        racers.append((decl.id, decl.name, decl.plays))
    if len(racers) < 2:
        context.error("DQ6003", f"a race needs at least 2 racers; this one has {len(racers)}",
                      header.span if header else Span(str(context.path), 1, 1), 'declare them: `racer ana "Ana"`')
    advances = {}
    for stmt, subject_bound in context.statements:
        if not isinstance(stmt, Advance):
            continue
        if stmt.squares < 1:
            context.error("DQ6007", "a racer advances at least 1 square", stmt.span)
        if stmt.racer == "racer":
            if not subject_bound:
                context.error("DQ6005", "`racer` means the racer a trigger is about, and here there is none",
                              stmt.span, "name a racer: `advance ana 2`")
            advances[place(stmt.span)] = "racer"
        else:
            advances[place(stmt.span)] = context.lookup(stmt.racer, stmt.span, ("racer",), "DQ6006")
    return RaceTable(track, tuple(racers), advances)
