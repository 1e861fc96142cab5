"""`run_battle`: the one call the scenario interpreter makes for a battle.

It takes the party's PCs and the enemies, lets an agent make the survivors'
decisions until the battle ends, writes life, zones and status back into the
PCs and returns a `BattleResult`. See docs/battles.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import AbstractSet, Callable, Final, Protocol, Sequence

from deckquest.i18n import _
from deckquest.cards.model import Card
from deckquest.cards.oracle import Coverage, coverage
from deckquest.engine.combat.actions import Action
from deckquest.engine.combat.boss import CreatureNpc, HordeNpc, PlaneswalkerNpc, PlayerNpc
from deckquest.engine.combat.combat import horde_beaten
from deckquest.engine.combat.state import HORDE, Battle
from deckquest.engine.combat.statics import clear_statics
from deckquest.engine.combat.turns import (
    apply_legal, land_actions, legal_actions, next_attack, next_block, start_battle,
)
from deckquest.engine.game import Events
from deckquest.engine.pc import OK, PC, boost_cleanup

#: A deck of which less than this share is simulated gets a warning in the battle report.
LOW_COVERAGE = 0.8
# A battle that has not ended after this many turns, or whose battlefields hold more than this
# many permanents (tokens doubling every turn), ends as a "stalemate": a shared scenario is
# untrusted input, and no battle may run forever or grow without bound. The rules decide first
# (the legend rule keeps one Krenko, Mob Boss: combat.legend_rule); `BattleResult.stopped`
# says which limit a battle still hit.
MAX_TURNS = 200
MAX_PERMANENTS = 500

Enemy = CreatureNpc | PlaneswalkerNpc | PlayerNpc | HordeNpc


class BattleAgent(Protocol):
    """Makes the survivors' decisions: picks one of the legal actions.

    An agent that, in a main phase, always plays a land when one can be played may also have
    `choose_land(battle, lands, rng) -> Action`: then, whenever `turns.land_actions` is not
    empty, `decide` shows it only those land plays (the actions it would choose among) and
    lists nothing else; `choose(battle, legal_actions(battle), rng)` must give what
    `choose_land` gives in that case.

    An agent that declares attackers from a plan may also have
    `planned_attacks(battle) -> Sequence[Action]`, the attacks it means to declare this
    combat, in order: in declare attackers `decide` then lists nothing and declares the
    first of them still legal, or confirms attackers when none is (`turns.next_attack`);
    `choose(battle, legal_actions(battle), rng)` must pick the same. Likewise
    `planned_blocks(battle) -> Sequence[Action]` in declare blockers: the first planned block
    still legal, else confirm blockers when a block is declared and they are legal
    (`turns.next_block`), else `choose` among the listed actions."""

    def choose(self, battle: Battle, actions: list[Action], rng: random.Random) -> Action: ...


#: An agent's optional methods (see `BattleAgent`): `choose_land`, `planned_attacks`,
#: `planned_blocks`, each None when it has none.
Hooks = tuple[Callable[..., Action] | None, Callable[..., Sequence[Action]] | None,
              Callable[..., Sequence[Action]] | None]


def hooks_of(agent: BattleAgent) -> Hooks:
    """The agent's optional methods, looked up once per battle by `run_battle` (at every
    decision, three attribute lookups made bound methods of a compiled agent)."""
    return (getattr(agent, "choose_land", None), getattr(agent, "planned_attacks", None),
            getattr(agent, "planned_blocks", None))


# The results spell out their `__init__` (`init=False`, each field by `object.__setattr__`, as a
# frozen dataclass's own does): the compiled build runs the generated one interpreted, 15,000 -
# 19,000 instructions a result, 2% of a battle of two PCs against the boss.


@dataclass(frozen=True, init=False)
class PCBattleResult:
    """One PC's battle: life before and after, T-7 status after, and its tallies."""

    id: str
    life_before: int
    life_after: int
    status: str
    life_lost: int
    life_gained: int
    damage_dealt: int
    damage_taken: int
    cards_milled: int
    spells_cast: int

    def __init__(self, id: str, life_before: int, life_after: int, status: str, life_lost: int, life_gained: int,
                 damage_dealt: int, damage_taken: int, cards_milled: int, spells_cast: int) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "life_before", life_before)
        object.__setattr__(self, "life_after", life_after)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "life_lost", life_lost)
        object.__setattr__(self, "life_gained", life_gained)
        object.__setattr__(self, "damage_dealt", damage_dealt)
        object.__setattr__(self, "damage_taken", damage_taken)
        object.__setattr__(self, "cards_milled", cards_milled)
        object.__setattr__(self, "spells_cast", spells_cast)


@dataclass(frozen=True, init=False)
class EnemyResult:
    """One enemy's end: `defeated` (a boss at life 0 or decked, a creature dead, a
    planeswalker at 0 loyalty, a horde beaten), and its life or loyalty left."""

    id: str
    kind: str  # "player", "creature", "planeswalker", "horde"
    defeated: bool
    life: int | None = None
    loyalty: int | None = None

    def __init__(self, id: str, kind: str, defeated: bool, life: int | None = None,
                 loyalty: int | None = None) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "defeated", defeated)
        object.__setattr__(self, "life", life)
        object.__setattr__(self, "loyalty", loyalty)


@dataclass(frozen=True, init=False)
class BattleResult:
    """How a battle ended. `turns` counts both sides' turns (preparation turns included)."""

    outcome: str  # "victory", "defeat", "escape", or "stalemate" (past MAX_TURNS or MAX_PERMANENTS)
    turns: int
    survivor_turns: int
    horde_turns: int
    preparation_turns: int
    pcs: tuple[PCBattleResult, ...]
    horde_library_left: int
    horde_creatures_left: int
    horde_cut: int
    enemies: tuple["EnemyResult", ...] = ()
    warnings: tuple[str, ...] = ()
    allies: tuple["EnemyResult", ...] = ()  # allied NPCs' ends, the same record as enemies
    stopped: str | None = None  # a stalemate: which limit stopped the battle, in words

    def __init__(self, outcome: str, turns: int, survivor_turns: int, horde_turns: int, preparation_turns: int,
                 pcs: tuple[PCBattleResult, ...], horde_library_left: int, horde_creatures_left: int,
                 horde_cut: int, enemies: tuple["EnemyResult", ...] = (), warnings: tuple[str, ...] = (),
                 allies: tuple["EnemyResult", ...] = (), stopped: str | None = None) -> None:
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "survivor_turns", survivor_turns)
        object.__setattr__(self, "horde_turns", horde_turns)
        object.__setattr__(self, "preparation_turns", preparation_turns)
        object.__setattr__(self, "pcs", pcs)
        object.__setattr__(self, "horde_library_left", horde_library_left)
        object.__setattr__(self, "horde_creatures_left", horde_creatures_left)
        object.__setattr__(self, "horde_cut", horde_cut)
        object.__setattr__(self, "enemies", enemies)
        object.__setattr__(self, "warnings", warnings)
        object.__setattr__(self, "allies", allies)
        object.__setattr__(self, "stopped", stopped)

    @property
    def life_lost(self) -> dict[str, int]:
        return {pc.id: pc.life_lost for pc in self.pcs}

    @property
    def damage_dealt(self) -> int:
        return sum(pc.damage_dealt for pc in self.pcs)

    @property
    def damage_taken(self) -> int:
        return sum(pc.damage_taken for pc in self.pcs)

    @property
    def cards_milled(self) -> int:
        return sum(pc.cards_milled for pc in self.pcs)


@dataclass
class Fight:
    """A battle in progress and what its result needs: plain data, so a run holds it in its
    state between the survivors' decisions (saved, cloned with ``copy()``). Between decisions
    the battle waits on the survivors or is over."""

    battle: Battle
    npcs: tuple[CreatureNpc | PlaneswalkerNpc, ...]  # the enemy NPCs, after the horde deck's cards
    horde_size: int  # the horde deck's cards (the NPCs' cards follow them)
    warnings: tuple[str, ...] = ()
    allies: tuple[CreatureNpc | PlaneswalkerNpc, ...] = ()
    reported: int = 0  # the last turn `on_turn` was told of
    stopped: str | None = None  # a stalemate: which limit stopped the battle, in words

    def copy(self) -> "Fight":
        return replace(self, battle=self.battle.copy())


def run_battle(
    pcs: Sequence[PC],
    enemies: Sequence[Card] | Sequence[Enemy],
    agent: BattleAgent,
    rng: random.Random,
    rules: str = "2019",
    prepare: bool | int = True,
    events: Events = None,
    cut: bool = True,
    on_turn: Callable[[int], None] | None = None,
    reset_libraries: bool = False,
    allies: Sequence[CreatureNpc | PlaneswalkerNpc] = (),
) -> BattleResult:
    """Fight the enemies with the PCs.

    `enemies` is a horde deck's physical cards (as before), or a list of enemies:
    `HordeNpc` (at most one), `PlayerNpc` bosses (T-8.3), `CreatureNpc` (T-8.1)
    and `PlaneswalkerNpc` (T-8.2), any number of each, all at once.
    The PCs are updated in place when the battle ends: life, zones, T-7 status
    (their concentration counter is as before the battle). `prepare` as in
    `start_battle` (True: the T-6.2 check). `reset_libraries`: T-6.5, the PCs
    start from reset libraries. `allies`: creature and planeswalker NPCs that fight with
    the party (T-8.2, T-8.4), on the first PC's battlefield, played by `agent`; they leave
    with the battle (not written back). Events, if a list is given, are appended as dicts
    with an "event" key. `on_turn(n)` is called once for each turn n that began
    (for `when battle turn N` triggers; it may be called after the turn's first
    actions, never before the turn began). Same inputs and seed, same battle.

    The same battle one decision at a time (a run that can be saved mid-battle):
    `open_fight`, then `decide` while not `fight_over`, then `close_fight`.
    """
    fight = open_fight(pcs, enemies, rng, rules, prepare, events, cut, reset_libraries, allies)
    hooks = hooks_of(agent)
    while not fight_over(fight, events, on_turn):
        decide(fight.battle, agent, rng, events, hooks)
    return close_fight(fight, pcs, rng, events)


def open_fight(pcs: Sequence[PC], enemies: Sequence[Card] | Sequence[Enemy], rng: random.Random,
               rules: str = "2019", prepare: bool | int = True, events: Events = None, cut: bool = True,
               reset_libraries: bool = False, allies: Sequence[CreatureNpc | PlaneswalkerNpc] = ()) -> Fight:
    """Start the battle (as `run_battle`) and play it up to the survivors' first decision.
    The PCs fight as copies: `close_fight` writes the battle's outcome back into them."""
    horde_cards, bosses, npcs, horde_deck = _split_enemies(enemies)
    warnings = coverage_warnings(pcs, bosses)
    if events is not None:
        events.extend({"event": "battle_warning", "message": message} for message in warnings)
    copies = [pc.copy() for pc in pcs]
    battle = start_battle(copies, horde_cards, rng, rules=rules, prepare=prepare, events=events, cut=cut,
                          bosses=bosses, npcs=tuple(n.card for n in npcs), horde_deck=horde_deck,
                          reset_libraries=reset_libraries, allies=tuple(a.card for a in allies))
    return Fight(battle, npcs, len(horde_cards), warnings, tuple(allies))


def fight_over(fight: Fight, events: Events = None, on_turn: Callable[[int], None] | None = None) -> bool:
    """Whether the battle is over; first tells `on_turn` of the turns begun since it was last
    asked, and ends an endless battle as a stalemate (MAX_TURNS, MAX_PERMANENTS)."""
    battle = fight.battle
    if battle.turn != fight.reported:
        if on_turn is not None:
            for turn in range(fight.reported + 1, battle.turn + 1):
                on_turn(turn)
        fight.reported = battle.turn
        fight.stopped = _stop_if_endless(battle, events)
    return battle.step == "over"


def decide(battle: Battle, agent: BattleAgent, rng: random.Random, events: Events = None,
           hooks: Hooks | None = None) -> None:
    """One decision of the survivors: the agent picks among the legal actions, the battle applies
    it and plays on (the enemies' turns included) up to the next decision or its end. `hooks`:
    `hooks_of(agent)`, when the caller keeps them."""
    choose_land, planned_attacks, planned_blocks = hooks_of(agent) if hooks is None else hooks  # see BattleAgent
    if choose_land is not None:
        lands = land_actions(battle)
        if lands:
            land: Action = choose_land(battle, lands, rng)
            apply_legal(battle, land, lands, rng, events)
            return
    if planned_attacks is not None and battle.step == "declare_attackers":
        attack = next_attack(battle, planned_attacks(battle))
        apply_legal(battle, attack, [attack], rng, events)
        return
    if planned_blocks is not None and battle.step == "declare_blockers":
        block = next_block(battle, planned_blocks(battle))
        if block is not None:
            apply_legal(battle, block, [block], rng, events)
            return
    actions = legal_actions(battle)
    apply_legal(battle, agent.choose(battle, actions, rng), actions, rng, events)


def close_fight(fight: Fight, pcs: Sequence[PC], rng: random.Random, events: Events = None) -> BattleResult:
    """The result of a battle that is over; its outcome is written back into `pcs` (the PCs
    that fought, in the order they were given to `open_fight`)."""
    battle = fight.battle
    result = _result(battle, pcs, fight.npcs, fight.horde_size, fight.warnings, fight.allies, fight.stopped)
    for original, fought in zip(pcs, battle.survivors):
        if fought.boost_exile:  # T-4.6: the battle's last turn ends with it
            boost_cleanup(fought, rng)
        leaving = {card for host, card in battle.allies if host == fought.id}
        if fought.id in battle.pc_creatures:  # T-7.2: the 0/1 defender leaves with the battle
            leaving.add(battle.pc_creatures[fought.id])
        write_back(original, fought, leaving)
    if events is not None:
        events.append({"event": "battle_end", "outcome": result.outcome, "turns": result.turns})
    return result


def _stop_if_endless(battle: Battle, events: Events) -> str | None:
    """End the battle as a stalemate past MAX_TURNS turns or MAX_PERMANENTS permanents; the
    reason, in words, when it does (which limit, and who holds the permanents)."""
    held = {side.id: len(side.battlefield) for side in battle.sides() if side.battlefield}
    permanents = sum(held.values())
    if battle.turn <= MAX_TURNS and permanents <= MAX_PERMANENTS:
        return None
    battle.outcome, battle.step = "stalemate", "over"
    if battle.turn > MAX_TURNS:
        reason = _("no side won in {turns} turns", turns=MAX_TURNS)
    else:
        most = max(held, key=lambda side: held[side])
        fields = dict(permanents=permanents, turns=battle.turn, most=MAX_PERMANENTS, held=held[most])
        reason = (_("{permanents} permanents on the battlefields after {turns} turns, more than {most} ({held} of "
                    "them the enemies')", **fields) if battle.is_enemy(most) else
                  _("{permanents} permanents on the battlefields after {turns} turns, more than {most} ({held} of "
                    "them {side}'s)", side=most, **fields))
    if events is not None:
        events.append({"event": "battle_stalemate", "turn": battle.turn, "permanents": permanents,
                       "held": held, "reason": reason})
    return reason


def _split_enemies(enemies: Sequence[object]) -> tuple[
        tuple[Card, ...], tuple[PlayerNpc, ...], tuple[CreatureNpc | PlaneswalkerNpc, ...], bool]:
    """(horde cards, bosses, creature and planeswalker NPCs, whether there is a horde deck).

    Takes any objects because it is where a non-enemy is refused with a ValueError: the
    compiled build checks each element against a declared element type as it is read, so
    with `Card | Enemy` it stopped at a non-enemy with a TypeError first."""
    cards = tuple(e for e in enemies if isinstance(e, Card))
    if len(cards) == len(enemies):
        return cards, (), (), True
    hordes = [e for e in enemies if isinstance(e, HordeNpc)]
    if len(hordes) > 1:
        raise ValueError("a battle has at most one horde")
    bosses = tuple(e for e in enemies if isinstance(e, PlayerNpc))
    npcs = tuple(e for e in enemies if isinstance(e, (CreatureNpc, PlaneswalkerNpc)))
    unknown = [e for e in enemies if not isinstance(e, (HordeNpc, PlayerNpc, CreatureNpc, PlaneswalkerNpc))]
    if unknown:
        raise ValueError(f"not an enemy: {unknown[0]!r}")
    return (hordes[0].cards if hordes else ()), bosses, npcs, bool(hordes)


_COVERAGE: Final[dict[int, tuple[tuple[Card, ...], Coverage, float]]] = {}


def deck_coverage(cards: tuple[Card, ...]) -> tuple[Coverage, float]:
    """The deck's coverage and its score, worked out once per card table (cached by its
    identity: a PC's table is shared by every battle it fights until a token joins it)."""
    entry = _COVERAGE.get(id(cards))
    if entry is not None and entry[0] is cards:
        return entry[1], entry[2]
    if len(_COVERAGE) > 1_000:
        _COVERAGE.clear()
    report = coverage(cards)
    _COVERAGE[id(cards)] = (cards, report, report.score)
    return report, report.score


def coverage_warnings(pcs: Sequence[PC], bosses: Sequence[PlayerNpc]) -> tuple[str, ...]:
    """A warning for each deck of which less than LOW_COVERAGE is simulated (docs/effects.md)."""
    warnings = []
    for name, cards in [(pc.name, pc.cards) for pc in pcs] + [(b.name, b.cards) for b in bosses]:
        report, score = deck_coverage(cards)
        if score < LOW_COVERAGE:
            warnings.append(_("{name}'s deck is only {score:.0f}% simulated ({none} cards not at all, {partly} "
                              "partly): see `deckquest cards coverage`", name=name, score=100 * score,
                              none=report.count("none"), partly=report.count("partial")))
    return tuple(warnings)


def write_back(pc: PC, fought: PC, allies: AbstractSet[int] = frozenset()) -> None:
    """Copy the battle's outcome for one PC into the party's PC. Its concentration
    counter stays as it was (battle turns are not concentration), and so does its boost of
    the scene (T-4.6: once per scene; a battle's boosts were its turns' own, and the scene's
    boost cards stayed exiled). Tokens it made stay on its battlefield, so its card table
    grows by their cards; allied NPCs it hosted (`allies`, card ids) leave every zone."""
    counter = pc.concentration_counter
    pc.cards = fought.cards
    pc.life, pc.status = fought.life, fought.status
    pc.library, pc.hand = fought.library, [c for c in fought.hand if c not in allies]
    pc.battlefield = [p for p in fought.battlefield if p.card not in allies]
    clear_statics(pc.battlefield)  # lords' and anthems' effects are the battle's (combat/statics.py)
    pc.graveyard = [c for c in fought.graveyard if c not in allies]
    pc.exile, pc.exhaustion_zone = [c for c in fought.exile if c not in allies], fought.exhaustion_zone
    pc.land_played = fought.land_played
    pc.concentration_counter = counter


def _enemy_results(battle: Battle, npcs: Sequence[CreatureNpc | PlaneswalkerNpc], first_npc: int) -> tuple[EnemyResult, ...]:
    results = [EnemyResult(b.id, "player", b.status != OK, life=b.life) for b in battle.bosses]
    horde = battle.horde
    for number, npc in enumerate(npcs):
        card = first_npc + number  # NPCs were placed right after the horde deck's cards
        permanent = next((p for p in horde.battlefield if p.card == card), None)
        kind = "planeswalker" if isinstance(npc, PlaneswalkerNpc) else "creature"
        results.append(EnemyResult(npc.id, kind, permanent is None,
                                   loyalty=permanent.loyalty if permanent and kind == "planeswalker" else None))
    if battle.horde_deck:
        results.append(EnemyResult(HORDE, "horde", horde_beaten(battle)))
    return tuple(results)


def _ally_results(battle: Battle, allies: Sequence[CreatureNpc | PlaneswalkerNpc]) -> tuple[EnemyResult, ...]:
    results = []
    for (host, card), ally in zip(battle.allies, allies):
        permanent = next((p for p in battle.side(host).battlefield if p.card == card), None)
        kind = "planeswalker" if isinstance(ally, PlaneswalkerNpc) else "creature"
        results.append(EnemyResult(ally.id, kind, permanent is None,
                                   loyalty=permanent.loyalty if permanent and kind == "planeswalker" else None))
    return tuple(results)


def _result(battle: Battle, pcs: Sequence[PC], npcs: Sequence[CreatureNpc | PlaneswalkerNpc] = (), first_npc: int = 0,
            warnings: tuple[str, ...] = (), allies: Sequence[CreatureNpc | PlaneswalkerNpc] = (),
            stopped: str | None = None) -> BattleResult:
    horde = battle.horde
    assert battle.outcome is not None  # the battle is over
    results = []
    for before, after in zip(pcs, battle.survivors):
        tally = battle.tallies[after.id]
        results.append(PCBattleResult(
            id=after.id, life_before=before.life, life_after=after.life, status=after.status,
            life_lost=tally.life_lost, life_gained=tally.life_gained, damage_dealt=tally.damage_dealt,
            damage_taken=tally.damage_taken, cards_milled=tally.cards_milled, spells_cast=tally.spells_cast,
        ))
    return BattleResult(
        outcome=battle.outcome, turns=battle.turn, survivor_turns=battle.survivor_turns,
        horde_turns=battle.horde_turns, preparation_turns=battle.preparation_given,
        pcs=tuple(results), horde_library_left=len(horde.library),
        horde_creatures_left=sum(1 for p in horde.battlefield if horde.cards[p.card].is_creature),
        horde_cut=horde.cut, enemies=_enemy_results(battle, npcs, first_npc), warnings=warnings,
        allies=_ally_results(battle, allies), stopped=stopped,
    )
