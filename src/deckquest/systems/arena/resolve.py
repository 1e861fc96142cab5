"""Arena's resolver checks (codes DQ3001-DQ3033, docs/errors.md): the battlefield, the armies,
the spells, the victory conditions and the header's turn limit and dice, compiled into the
``ArenaTable`` every game of the scenario is dealt from."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Iterable

from deckquest.errors import Span, did_you_mean
from deckquest.i18n import _
from deckquest.systems.arena.battlefield import Battlefield, Glyph, PlacedText, RowText, check_position, check_starts, read_rows
from deckquest.systems.arena.cards import (
    MAX_BONUS, MAX_DICE, MAX_DRAW, MAX_FIGURES, MAX_LIFE, MAX_REACH, MAX_SPELL_DECK, STAT_RANGES, Activated, Army,
    ArmyCard, Bonus, Damage, Draw, Effect, Heal, Spell, Strike, Triggered, check_army, stat_message,
)
from deckquest.systems.arena.language import (
    ArmyDecl, BattlefieldDecl, CardLine, EffectLine, SpellDecl, VictoryDecl,
)
from deckquest.systems.arena.rules import ArenaRules, DiceFaces
from deckquest.systems.arena.state import ArenaGame, HoldGlyph, Score, Victory

REQUIRED_STATS = ("life", "move", "range", "attack", "defence", "size")
MAX_TURN_LIMIT = 1000


@dataclass(frozen=True)
class ArenaTable:
    """What a scenario's games are dealt from: the compiled scenario's ``system_table``."""

    battlefield: Battlefield
    armies: tuple[Army, ...]
    spells: dict[str, Spell]
    rules: ArenaRules
    victories: tuple[Victory, ...]
    plays: dict[str, str | None]  # seat -> the agent its army `plays`, or None

    @cached_property
    def game(self) -> ArenaGame:
        """The game every run of the scenario starts a new state of (built once)."""
        return ArenaGame(self.battlefield, self.armies, self.spells, self.rules, self.victories)


def resolve(context: Any, agents: Iterable[str]) -> ArenaTable | None:
    path = str(context.path)
    declarations = context.declarations
    fields = [d for d in declarations if isinstance(d, BattlefieldDecl)]
    armies = [d for d in declarations if isinstance(d, ArmyDecl)]
    spells = _spells(context, [d for d in declarations if isinstance(d, SpellDecl)])
    header_span = context.script.header.span if context.script.header else Span(path, 1, 1)
    if not fields:
        context.error("DQ3007", "an Arena scenario needs a `battlefield`", header_span,
                      'draw one: `battlefield "The Duel":` with `row "0 0 0"` lines')
        return None
    for extra in fields[1:]:
        context.error("DQ3007", "a scenario has one `battlefield`", extra.span, f"the first is at line {fields[0].span.line}")
    field = _battlefield(context, fields[0], path, spells)
    built = [_army(context, decl, spells, agents) for decl in armies]
    _seats(context, field, armies, header_span)
    rules = _rules(context)
    victories = _victories(context, field, [d for d in declarations if isinstance(d, VictoryDecl)])
    if field is None:
        return None
    return ArenaTable(field, tuple(built), spells, rules, victories,
                      {d.seat: d.plays[0] if d.plays else None for d in armies})


def _battlefield(context: Any, decl: BattlefieldDecl, path: str, spells: dict) -> Battlefield | None:
    terrain, problems = read_rows([RowText(r.text, r.line, r.col) for r in decl.rows], path)
    if not decl.rows:
        context.error("DQ3006", "the battlefield has no rows", decl.span, 'add `row "0 0 0"` lines, one per row of hexes')
        return None
    for problem in problems:
        context.error(problem.code, problem.message, problem.span, problem.hint)
    if problems:
        return None
    zones: dict[str, list[PlacedText]] = {}
    for start in decl.starts:
        if start.seat in zones:
            context.error("DQ3008", f"the start zone of {start.seat} is given twice", start.span)
        zones.setdefault(start.seat, []).extend(_placed(p) for p in start.positions)
    for problem in check_starts(terrain, zones, path):
        context.error(problem.code, problem.message, problem.span, problem.hint)
    glyphs: list[Glyph] = []
    for line in decl.glyphs:
        misplaced = check_position(terrain, _placed(line.pos), f"glyph {line.name!r}", path)
        if misplaced:
            context.error(misplaced.code, misplaced.message, misplaced.span, misplaced.hint)
        if any(g.name == line.name or g.pos == line.pos.pos for g in glyphs):
            context.error("DQ3009", f"two glyphs share the name {line.name!r} or the hex {line.pos.pos[0]},{line.pos.pos[1]}", line.span)
        for effect in line.effects:
            _effect_numbers(context, effect)
            if not isinstance(effect.effect, Bonus) or effect.effect.scope != "army":
                context.error("DQ3022", "a glyph's power is a bonus for its army (A-14)", effect.span,
                              "write it like `attack +1 for its army` (attack, defence, move or range)")
        glyphs.append(Glyph(line.name, line.pos.pos, tuple(e.effect for e in line.effects)))
    starts = {seat: tuple(p.pos for p in placed) for seat, placed in zones.items()}
    return Battlefield(decl.name, terrain, starts, tuple(glyphs))


def _placed(ref) -> PlacedText:
    return PlacedText(ref.pos, ref.span.line, ref.span.col, ref.span.end_col)


def _army(context: Any, decl: ArmyDecl, spells: dict, agents: Iterable[str]) -> Army:
    context.declare("army", decl.seat, decl)
    if decl.plays is not None and decl.plays[0] not in agents:
        context.error("DQ3015", f"no Arena agent is called `{decl.plays[0]}`", decl.plays[1],
                      did_you_mean(decl.plays[0], list(agents)) or "agents: " + ", ".join(agents))
    cards = tuple(_card(context, line) for line in decl.cards)
    deck: list[str] = []
    for line in decl.spells:
        for name, copies, span in line.spells:
            if name not in spells:
                context.error("DQ3020", f"no `spell` is called {name!r}", span,
                              did_you_mean(name, list(spells)) or f'declare it: `spell "{name}":`')
            if copies < 1 or len(deck) + copies > MAX_SPELL_DECK:  # before the deck grows by `copies`
                _spell_deck_out_of_range(context, len(deck) + copies, copies, span)
                continue
            deck.extend([name] * copies)
    army = Army(decl.seat, decl.name, cards, tuple(deck), decl.points)
    for problem in check_army(army):
        card = next((c for c in decl.cards if c.name == problem.card), None)
        context.error(problem.code, problem.message, card.span if card else decl.span, problem.hint)
    return army


def _spell_deck_out_of_range(context: Any, count: int, copies: int, span: Span) -> None:
    """DQ3032: a spell deck holds 1 to MAX_SPELL_DECK cards, each `xN` at least 1."""
    message = (_("a spell deck of {count:,} cards: from 1 to {most} in all", count=count, most=MAX_SPELL_DECK)
               if copies else _("`x0`: a spell is in the deck at least once"))
    context.error("DQ3032", message, span, _("`spells \"NAME\" xN` puts N copies in the deck; all the lines together "
                                             "hold at most {most}", most=MAX_SPELL_DECK))


def _card(context: Any, line: CardLine) -> ArmyCard:
    stats: dict[str, int] = {}
    for name, value, span in line.stats:
        if name in stats:
            context.error("DQ3014", f"`{name}` is given twice for {line.name!r}", span)
        stats[name] = _in_range(context, line.name, name, value, STAT_RANGES[name], span)
    missing = [s for s in REQUIRED_STATS if s not in stats]
    if missing:
        context.error("DQ3013", f"{line.name!r} has no {', '.join(missing)}", line.span,
                      "an army card gives life, move, range, attack, defence and size (A-18)")
    figures = _in_range(context, line.name, "figures", line.figures, (1, MAX_FIGURES), line.span)
    abilities: list = []
    for ability in line.abilities:
        for effect in ability.effects:
            _effect_numbers(context, effect)
        effects = tuple(_with_origin(e.effect, "self") for e in ability.effects)
        if ability.kind == "flying":
            abilities.append("flying")
        elif ability.kind == "static":
            abilities.append(effects[0])
        elif ability.kind == "ability":
            _one_target(context, ability.effects, f"ability {ability.name!r}")
            abilities.append(Activated(ability.name, effects))
        else:
            for effect in ability.effects:
                if _picks_target(effect.effect):
                    context.error("DQ3024", f"a `when {ability.kind}` ability happens by itself: it cannot pick a figure", effect.span,
                                  "reach figures with `each`: `deal 1 damage to each enemy figure in range 1 of it`")
            abilities.append(Triggered(ability.kind, effects))
    return ArmyCard(line.name, line.category, stats.get("life", 1), stats.get("move", 0), stats.get("range", 1),
                    stats.get("attack", 0), stats.get("defence", 0), stats.get("size", 1), stats.get("cost", 0),
                    figures, stats.get("hexes", 1), tuple(abilities))


def _in_range(context: Any, card: str, stat: str, value: int, bounds: tuple[int, int], span: Span) -> int:
    """DQ3012 for a number of an army card out of its range (docs/arena.md, "Numbers"), at the
    number; the card is built with the nearest number in range, so it is reported once."""
    low, high = bounds
    if not low <= value <= high:
        context.error("DQ3012", stat_message(card, stat, value, low, high), span)
    return min(max(value, low), high)


def _effect_numbers(context: Any, line: EffectLine) -> None:
    """DQ3033: an effect's numbers in their ranges (docs/arena.md, "Numbers"): dice are an exact
    roll's work, and a bonus adds to dice and to the length of a route search."""
    effect = line.effect
    wrong = []
    if isinstance(effect, (Damage, Heal)) and not 1 <= effect.amount <= MAX_LIFE:
        wrong.append(_("{value:,} damage: an effect deals or removes from 1 to {most}", value=effect.amount, most=MAX_LIFE))
    elif isinstance(effect, Strike) and not 1 <= effect.dice <= MAX_DICE:
        wrong.append(_("{value:,} attack dice: an effect rolls from 1 to {most}", value=effect.dice, most=MAX_DICE))
    elif isinstance(effect, Bonus) and not 1 <= abs(effect.amount) <= MAX_BONUS:
        wrong.append(_("a bonus of {value:+,}: from 1 to {most}, up or down", value=effect.amount, most=MAX_BONUS))
    elif isinstance(effect, Draw) and not 1 <= effect.count <= MAX_DRAW:
        wrong.append(_("{value:,} spells drawn: an effect draws from 1 to {most}", value=effect.count, most=MAX_DRAW))
    target = getattr(effect, "target", None)
    if target is not None and target.range is not None and not 1 <= target.range <= MAX_REACH:
        wrong.append(_("range {value:,}: from 1 to {most} hexes", value=target.range, most=MAX_REACH))
    for message in wrong:
        context.error("DQ3033", message, line.span, _("the numbers of effects are bounded: docs/arena.md, \"Numbers\""))


def _spells(context: Any, decls: list[SpellDecl]) -> dict[str, Spell]:
    spells: dict[str, Spell] = {}
    for decl in decls:
        if decl.name in spells:
            context.error("DQ3021", f"two spells are called {decl.name!r}", decl.span)
            continue
        for effect in decl.effects:
            _effect_numbers(context, effect)
            if isinstance(effect.effect, Bonus) and effect.effect.scope != "army":
                context.error("DQ3022", "a spell's bonus is for your army, for the turn", effect.span,
                              f"add `for your army`: `{effect.effect.stat} {effect.effect.amount:+d} for your army`")
        _one_target(context, decl.effects, f"spell {decl.name!r}")
        spells[decl.name] = Spell(decl.name, tuple(_with_origin(e.effect, "planeswalker") for e in decl.effects))
    return spells


def _picks_target(effect: Effect) -> bool:
    target = getattr(effect, "target", None)
    return target is not None and not target.each


def _one_target(context: Any, effects: tuple[EffectLine, ...], what: str) -> None:
    """A spell or ability picks at most one figure; its effects that pick one share it."""
    picked = [e for e in effects if _picks_target(e.effect)]
    if len({e.effect.target for e in picked}) > 1:  # type: ignore[union-attr]
        context.error("DQ3023", f"the {what} picks two different figures", picked[1].span,
                      "a spell or ability picks one figure; write the same target, or use `each`")


def _with_origin(effect: Effect, origin: str) -> Effect:
    """A range written without `of ...` counts from your planeswalker (spells) or from the
    figure using the ability (abilities)."""
    if isinstance(effect, (Damage, Heal, Strike)) and effect.target.origin == "":
        return replace(effect, target=replace(effect.target, origin=origin))
    return effect


def _seats(context: Any, field: Battlefield | None, armies: list[ArmyDecl], header_span: Span) -> None:
    low, high = context.players
    if not low <= len(armies) <= high or len(armies) < 2:
        context.error("DQ3030", f"the scenario has {len(armies)} armies for {low if low == high else f'{low} to {high}'} players",
                      armies[0].span if armies else header_span, "declare one `army` per player (at least 2)")
    if field is None:
        return
    for decl in armies:
        if decl.seat not in field.starts:
            context.error("DQ3031", f"the battlefield has no start zone for {decl.seat}", decl.span,
                          f"add `start {decl.seat} at 1,1 2,1` to the battlefield")
    seats = {d.seat for d in armies}
    for seat in field.starts:
        if seat not in seats:
            context.error("DQ3031", f"a start zone for {seat}, which has no army", _start_span(context, seat),
                          did_you_mean(seat, seats) or f'declare `army {seat} "Name":`')


def _start_span(context: Any, seat: str) -> Span:
    decl = next(d for d in context.declarations if isinstance(d, BattlefieldDecl))
    return next(s.span for s in decl.starts if s.seat == seat)


def _rules(context: Any) -> ArenaRules:
    readings = dict(context.readings)
    numbers: dict[str, Any] = {}
    header = context.script.header
    entries = {e.key: e for e in header.entries} if header else {}
    limit = entries.get("turn limit")
    if limit is not None:
        count, unit = limit.value
        if not 1 <= count <= MAX_TURN_LIMIT:
            context.error("DQ3026", f"a turn limit of {count}", limit.span, f"the limit is 1 to {MAX_TURN_LIMIT}")
        given = next((e for e in header.entries if e.key == "reading" and e.value[0] == "limit"), None)
        if given is not None and given.value[1] != unit:
            context.error("DQ3026", f"`turn limit {count} {unit}` and `reading limit {given.value[1]}` disagree", given.span,
                          "the turn limit's unit is reading A-R4: keep one of the two")
        readings["limit"] = unit
        numbers["turn_limit"] = min(max(count, 1), MAX_TURN_LIMIT)
    dice = entries.get("dice")
    rules = ArenaRules.from_readings(readings, **numbers)
    if dice is not None:
        faces = DiceFaces(*dice.value)
        if not 1 <= faces.sides <= 100 or faces.swords == 0:
            context.error("DQ3027", "a combat die needs at least one sword and 1 to 100 faces", dice.span)
        elif "dice" in {e.value[0] for e in header.entries if e.key == "reading"}:
            context.error("DQ3027", "the dice are given twice: a `dice` line and `reading dice`", dice.span,
                          "keep the `dice` line (its faces) or the reading (heroscape or even)")
        else:
            rules = replace(rules, dice=faces)
    return rules


def _victories(context: Any, field: Battlefield | None, decls: list[VictoryDecl]) -> tuple[Victory, ...]:
    victories: list[Victory] = []
    names = [g.name for g in field.glyphs] if field else []
    for decl in decls:
        if decl.number < 1:
            context.error("DQ3028", "a victory condition needs a number of at least 1", decl.span)
        if decl.kind == "score":
            victories.append(Score(decl.number))
        elif decl.glyph not in names:
            context.error("DQ3028", f"the battlefield has no glyph {decl.glyph!r}", decl.span,
                          did_you_mean(decl.glyph or "", names) or "name one of its glyphs")
        else:
            victories.append(HoldGlyph(decl.glyph or "", decl.number))
    return tuple(victories)
