"""The editor's questions answered from an ``Analysis``: hover, completion, quick fixes.

Plain functions of plain data, so the tests ask them directly as well as through a real
language client session (tests/lsp/).
"""

from __future__ import annotations

import re

from deckquest.lsp.analysis import KEYWORDS, Analysis, Range, Symbol

CHECK_KINDS = ("white", "blue", "black", "red", "green", "colorless",
               "negotiation", "intellect", "dexterity", "reflex", "body")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def hover(analysis: Analysis, line: int, column: int) -> str | None:
    """Markdown for what is under the cursor: a name's declaration, a card's text, a check's odds."""
    symbol = analysis.symbol_at(line, column)
    if symbol is not None:
        return describe(analysis, symbol)
    for where, check in analysis.checks:
        if where.line == line:
            return check_odds(analysis, check)
    card = _card_under(analysis, line, column)
    if card is not None:
        return card
    return None


def describe(analysis: Analysis, symbol: Symbol) -> str:
    scenario = analysis.known
    lines = [f"**{symbol.kind}** `{symbol.name}`: {symbol.title}"]
    if scenario is not None and symbol.kind in ("creature", "planeswalker", "player", "horde"):
        npc = scenario.npcs.get(symbol.name)
        if npc is not None:
            lines += _npc_lines(npc)
    elif scenario is not None and symbol.kind == "pc":
        pc = scenario.pcs.get(symbol.name)
        if pc is not None:
            if pc.deck_path is not None:
                lines.append(f"deck `{pc.deck_path.name}`: {len(pc.deck.main_cards())} cards")
            if pc.criticals:
                lines.append("critical cards (T-4.7): " + ", ".join(f"{n} x{c}" for n, c in pc.criticals))
    elif symbol.kind == "card" and scenario is not None:
        card = scenario.cards.get(symbol.title)
        if card is not None:
            lines.append(_card_text(card))
    return "\n\n".join(lines)


def _npc_lines(npc) -> list[str]:
    facts = []
    if npc.cost:
        facts.append(npc.cost)
    if npc.types:
        facts.append(" ".join(npc.types))
    if npc.power is not None:
        facts.append(f"{npc.power}/{npc.toughness}")
    if npc.keywords:
        facts.append(", ".join(npc.keywords))
    if npc.loyalty is not None:
        facts.append(f"loyalty {npc.loyalty}")
    if npc.life is not None:
        facts.append(f"life {npc.life}")
    if npc.deck_path is not None:
        facts.append(f"deck `{npc.deck_path.name}` ({len(npc.deck.main_cards())} cards)")
    lines = [" · ".join(facts)] if facts else []
    if npc.card is not None and npc.card.oracle_text:
        lines.append(npc.card.oracle_text)
    lines += list(npc.texts)
    return lines


def check_odds(analysis: Analysis, check) -> str | None:
    """Each PC's exact chance to pass this check on a fresh library (what `deckquest odds` says)."""
    scenario = analysis.known
    if scenario is None:
        return "the script has errors: odds need a script that compiles"
    from deckquest.runtime.party import party_from_scenario
    from deckquest.engine.odds import check_probability

    rules = str(scenario.rules)
    kind = getattr(check, "kind", None) or ("white" if rules == "2019" else "negotiation")
    try:
        members = party_from_scenario(scenario)
    except Exception as error:  # a PC without a deck: say so rather than fail the hover
        return f"no odds: {error}"
    lines = [f"**{kind} difficulty {check.difficulty}**: chance of success on a fresh library ({rules} rules)"]
    for member in members:
        plain = float(check_probability(member.cards, member.critical_cards, kind, check.difficulty, rules))
        text = f"- {member.name}: {plain:.1%}"
        if rules == "2019":
            boosted = float(check_probability(member.cards, member.critical_cards, kind, check.difficulty, rules,
                                              boost=True))
            text += f" (with boost {boosted:.1%})"
        lines.append(text)
    return "\n".join(lines)


def _card_under(analysis: Analysis, line: int, column: int) -> str | None:
    """A quoted card name under the cursor (``critical "Forest"``, ``from card "..."``)."""
    lines = analysis.text.splitlines()
    if line >= len(lines):
        return None
    text = lines[line]
    for match in QUOTED.finditer(text):
        if match.start() <= column <= match.end():
            from deckquest.cards.database import default_database

            card = default_database().get(match.group(1))
            return _card_text(card) if card is not None else None
    return None


def _card_text(card) -> str:
    head = f"**{card.name}**" + (f" ({card.name_ja})" if card.name_ja else "")
    head += f" {card.mana_cost}" if card.mana_cost is not None else ""
    parts = [head, str(card.type_line)]
    if card.oracle_text:
        parts.append(card.oracle_text)
    if card.power is not None:
        parts.append(f"{card.power}/{card.toughness}")
    return "\n\n".join(parts)


def completions(analysis: Analysis, line: int, column: int) -> list[tuple[str, str]]:
    """(label, kind) pairs fitting what is typed before the cursor: a scene after `->`, a check
    kind after `check`, NPC names after `battle against` or `encounter`, else names and keywords."""
    lines = analysis.text.splitlines()
    before = lines[line][:column] if line < len(lines) else ""
    stripped = before.strip()
    names = analysis.symbols
    if stripped.startswith("->"):
        return [(n, "scene") for n, s in names.items() if s.kind == "scene"]
    if re.fullmatch(r"check\s+\w*", stripped):
        return [(kind, "keyword") for kind in CHECK_KINDS]
    if re.match(r"(battle against|encounter|recruit|fight)\b", stripped):
        return [(n, s.kind) for n, s in names.items() if s.kind in ("creature", "planeswalker", "player", "horde")]
    if re.match(r"(set|clear)\s", stripped):
        return [(n, "flag") for n, s in names.items() if s.kind == "flag"]
    return [(n, s.kind) for n, s in names.items()] + [(k, "keyword") for k in KEYWORDS]


def document_symbols(analysis: Analysis) -> list[Symbol]:
    """Scenes and declarations in the order they are written."""
    return sorted(analysis.symbols.values(), key=lambda s: (s.block.line, s.block.start))


def references(analysis: Analysis, line: int, column: int, include_declaration: bool = True) -> list[Range]:
    symbol = analysis.symbol_at(line, column)
    if symbol is None:
        return []
    found = list(analysis.references.get(symbol.name, []))
    return ([symbol.range] if include_declaration else []) + found
