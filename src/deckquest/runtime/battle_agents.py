"""Agents that make the survivors' decisions in a battle (see docs/agents.md).

All share one interface: `choose(battle, actions, rng) -> Action`, where
`actions` is `legal_actions(battle)`; an agent only ever returns one of them.

- `HumanBattleAgent`: shows the board and the numbered legal actions, reads a number.
- `RandomBattleAgent`: a uniformly random legal action.
- `GreedyBattleAgent`: a fair stand-in for players (plays a land, casts the best
  spells it can pay for, attacks when favourable, blocks to survive, escapes
  when a loss is near).
"""

from __future__ import annotations

import random
from typing import Callable, Final

from deckquest.cards.database import card_name
from deckquest.cards.model import Card
from deckquest.engine.pc import PC, randbelow, status_word
from deckquest.engine.permanents import Permanent
from deckquest.i18n import _
from deckquest.engine.checks import boost_when_failing, standing
from deckquest.engine.combat import actions as act
from deckquest.engine.combat.actions import Action, describe
from deckquest.engine.combat.casting import play_value
from deckquest.engine.combat.program import program_at
from deckquest.engine.combat.combat import can_block
from deckquest.engine.combat.profile import (
    CANT_BLOCK, NOT_ALONE, DEATHTOUCH, DEFENDER, DOUBLE_STRIKE, FIRST_STRIKE, FLYING, HASTE, INDESTRUCTIBLE, LIFELINK,
    MENACE, REACH, TRAMPLE, UNBLOCKABLE, VIGILANCE, profile_in, profiles_of,
)
from deckquest.engine.combat.resolve import WorthMemo
from deckquest.engine.combat.state import (
    Attack, Battle, Horde, Side, facts_of, keywords_of, permanent_of, power, toughness,
)
from deckquest.engine.combat.turns import defenders

# --- the human at the table ------------------------------------------------------------

PASSING: Final = (act.NO_BOOST, act.PASS, act.END_TURN, act.CONFIRM_ATTACKERS, act.CONFIRM_BLOCKERS, act.UNBLOCK)


class HumanBattleAgent:
    """Asks a person: prints the board and the numbered legal actions through
    `output`, reads the choice through `input` (both injected, so it is testable).
    Anything but a listed number is refused and asked again; at end of input it
    passes (accept, confirm, end turn) so a battle always finishes, unless `stop` is given:
    then end of input, or one of `stop_words` typed, calls `stop(why)`, which raises (a
    scenario run stops there, and is saved from before the battle: issue 18)."""

    def __init__(self, input: Callable[[str], str] = input, output: Callable[[str], None] = print,
                 stop: Callable[[str], None] | None = None, stop_words: tuple[str, ...] = ()):
        self.input = input
        self.output = output
        self.ended = False
        self.stop = stop
        self.stop_words = stop_words

    def choose(self, battle: Battle, actions: list[Action], rng: random.Random) -> Action:
        if self.ended:
            return _passing(actions)
        self.output(render_board(battle))
        for number, action in enumerate(actions, start=1):
            self.output(f"  {number}. {describe(battle, action)}")
        while True:
            try:
                answer = self.input(_("choose {low}-{high}: ", low=1, high=len(actions))).strip()
            except EOFError:
                if self.stop is not None:
                    self.stop("end of input")
                self.ended = True
                self.output(_("(end of input: passing from now on)"))
                return _passing(actions)
            if self.stop is not None and answer.lower() in self.stop_words:
                self.stop(f"`{answer.lower()}`")
            if answer.isascii() and answer.isdigit() and len(answer) < 7 and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1]
            self.output(_("please answer with a number from {low} to {high}", low=1, high=len(actions)))


def _passing(actions: list[Action]) -> Action:
    """The action that lets the battle go on without doing anything."""
    for kind in PASSING:
        for action in actions:
            if action.kind == kind:
                return action
    return actions[-1]


def render_board(battle: Battle) -> str:
    """The battle as a person needs to see it before choosing."""
    horde = battle.horde
    side_word = _("party") if battle.active == "survivors" else _("enemies")
    lines = [_("turn {turn} ({side}), step {step}", turn=battle.turn, side=side_word, step=battle.step)]
    if battle.horde_deck or horde.battlefield:
        lines.append(_("horde: library {library}, hand {hand}", library=len(horde.library), hand=len(horde.hand))
                     if battle.horde_deck else _("enemy NPCs:"))
        lines += [f"    {_permanent(horde, p)}" for p in horde.battlefield]
    for boss in battle.bosses:
        lines.append(_("{name} (boss): life {life}, {status}, library {library}, hand {hand}", name=boss.name,
                       life=boss.life, status=status_word(boss.status), library=len(boss.library),
                       hand=len(boss.hand)))
        lines += [f"    {_permanent(boss, p)}" for p in boss.battlefield]
    for item in battle.stack:
        if item is not None:
            side = battle.side(item.controller)
            lines.append("  " + _("on the stack: {card} ({player})", card=card_name(side.cards[item.card].name),
                                  player=getattr(side, "name", item.controller)))
    for attack in battle.attacks:
        attacker = card_name(battle.side(attack.owner).cards[attack.card].name)
        blockers = _(", ").join(card_name(battle.side(o).cards[c].name) for o, c in attack.blockers) or _("unblocked")
        lines.append("  " + _("attacking {defender}: {attacker} (#{number}) <- {blockers}", defender=attack.defender,
                              attacker=attacker, number=attack.card, blockers=blockers))
    if battle.check is not None:
        pending = battle.check.pending
        checker = battle.player(pending.pc)
        lines.append("  " + _("{purpose} check: revealed {cards}; target {target}, result {result}: {standing}",
                              purpose=battle.check.purpose,
                              cards=_(", ").join(card_name(name) for name in checker.names(pending.revealed)),
                              target=pending.target, result=pending.result, standing=standing(checker, pending)))
    for pc in battle.survivors:
        lines.append(_("{pc}: life {life}, {status}, library {library}", pc=pc.name, life=pc.life,
                       status=status_word(pc.status), library=len(pc.library)))
        lines.append("    " + _("hand: {cards}", cards=_(", ").join(card_name(pc.cards[c].name) for c in pc.hand) or "-"))
        lines += [f"    {_permanent(pc, p)}" for p in pc.battlefield]
    return "\n".join(lines)


def _permanent(side: Side, permanent: Permanent) -> str:
    card = side.cards[permanent.card]
    text = f"{card_name(card.name)} (#{permanent.card})"
    if card.is_type("Planeswalker"):
        text += " " + _("loyalty {loyalty}", loyalty=permanent.loyalty)
    if card.is_creature:
        text += f" {power(side, permanent)}/{toughness(side, permanent)}"
        if permanent.damage:
            text += " " + _("damage {damage}", damage=permanent.damage)
        if permanent.summoning_sick:
            text += " " + _("sick")
    return text + (" " + _("tapped") if permanent.tapped else "")


# --- random ----------------------------------------------------------------------------


class RandomBattleAgent:
    """A uniformly random legal action: a baseline, and the property tests' player."""

    def choose(self, battle: Battle, actions: list[Action], rng: random.Random) -> Action:
        return actions[randbelow(rng, len(actions))]


# --- greedy ----------------------------------------------------------------------------

KEYWORD_VALUE: Final[dict[int, float]] = {FLYING: 1.5, FIRST_STRIKE: 1.0, DOUBLE_STRIKE: 2.5, DEATHTOUCH: 1.5,
                                   TRAMPLE: 0.5, LIFELINK: 1.0, VIGILANCE: 0.5, MENACE: 1.0,
                                   INDESTRUCTIBLE: 3.0, REACH: 0.5}
#: A loss is near when the next horde attack is expected to deal this share of the
#: weakest PC's life (see docs/agents.md).
DANGER: Final = 0.6
#: The least a response (an instant cast while an enemy spell is on the stack) must be worth.
RESPONSE_WORTH: Final = 1.0


class GreedyBattleAgent:
    """A fair stand-in for players; its decisions are documented in docs/agents.md.

    It plans a combat's attacks (or blocks) once and then declares them one by one;
    the plan is kept for that battle, turn and step only.
    """

    def __init__(self) -> None:
        self._plan: tuple[Battle | None, tuple[int, str], list[Action]] = (None, (0, ""), [])

    def choose(self, battle: Battle, actions: list[Action], rng: random.Random) -> Action:
        step = battle.step
        if step == "check":
            assert battle.check is not None  # the check step waits on it
            pending = battle.check.pending
            wants = boost_when_failing(battle.player(pending.pc), pending)
            return act.interned(act.BOOST if wants else act.NO_BOOST, pending.pc)
        if step in ("main1", "main2"):
            return self._main(battle, actions)
        if step == "declare_attackers":
            return _next_of(actions, self._planned(battle, _attack_plan), act.CONFIRM_ATTACKERS)
        if step in ("respond", "after_blockers"):
            return _response(battle, actions, rng)
        return _next_of(actions, self._planned(battle, _block_plan), act.CONFIRM_BLOCKERS)

    def choose_land(self, battle: Battle, lands: list[Action], rng: random.Random) -> Action:
        """In a main phase the agent plays a land whenever it can (`_main`): the one that
        makes the colours the hand needs most. `decide` asks only this when a land can be
        played (`engine.combat.battle.BattleAgent`)."""
        return _best_land(battle, lands)

    def planned_attacks(self, battle: Battle) -> list[Action]:
        """The attacks this combat's plan declares, in order (`choose` declares the first
        still legal): `decide` asks this in declare attackers instead of listing every
        attack (`engine.combat.battle.BattleAgent`)."""
        return self._planned(battle, _attack_plan)

    def planned_blocks(self, battle: Battle) -> list[Action]:
        """The blocks this combat's plan declares, in order (`choose` declares the first still
        legal, then confirms): `decide` asks this in declare blockers instead of listing
        every block (`engine.combat.battle.BattleAgent`)."""
        return self._planned(battle, _block_plan)

    def _planned(self, battle: Battle, planner: Callable[[Battle], list[Action]]) -> list[Action]:
        """The plan for this battle object's current turn and step (held by reference,
        so a later battle can never be mistaken for this one)."""
        when = (battle.turn, battle.step)
        if self._plan[0] is not battle or self._plan[1] != when:
            self._plan = (battle, when, planner(battle))
        return self._plan[2]

    def _main(self, battle: Battle, actions: list[Action]) -> Action:
        lands = [a for a in actions if a.kind == act.PLAY_LAND]
        if lands:
            return _best_land(battle, lands)
        best = _best_play(battle, actions)
        if best is not None:
            return best
        if battle.step == "main1" and any(a.kind == act.GO_TO_COMBAT for a in actions):
            plan = _attack_plan(battle)
            if plan:  # going to combat changes nothing the plan reads: declare attackers follows it
                self._plan = (battle, (battle.turn, "declare_attackers"), plan)
                return act.interned(act.GO_TO_COMBAT)
        escapes = [a for a in actions if a.kind == act.ESCAPE]
        if escapes and (_loss_is_near(battle) or _stalemate(battle)):
            return escapes[0]
        return act.interned(act.END_TURN)


def _best_play(battle: Battle, actions: list[Action]) -> Action | None:
    """The cast or activation worth most (of those worth more than nothing; a combat trick is
    held), ties to the larger X, then to the lower card id, then to the first listed: one
    loop, without a list of (worth, X, action) and `max` calling a key lambda per play
    (through Python's calling convention, compiled)."""
    costs: WorthMemo = {}
    best: Action | None = None
    best_value = 0.0
    for action in actions:
        kind = action.kind
        if kind != act.ACTIVATE and (kind != act.CAST or _held_trick(battle, action)):
            continue
        value = play_value(battle, action, None, costs)
        if value <= 0:
            continue
        if best is None or value > best_value or (value == best_value and (
                action.x > best.x or (action.x == best.x and action.card < best.card))):
            best, best_value = action, value
    return best


def _held_trick(battle: Battle, action: Action) -> bool:
    """A pump instant ("Target creature gets +3/+3 until end of turn") is kept for after
    blockers (combat tricks), not cast in a main phase: its program says so
    (`CardProgram.combat_trick`, read once per card)."""
    if action.kind != act.CAST:
        return False
    return program_at(battle.side(action.player).cards, action.card).combat_trick


def _stalemate(battle: Battle) -> bool:
    """Nothing is left to fight but one horde creature that can neither attack nor block alone
    (Mogg Flunkies, CR 506.5): combat cannot end the battle, so the party leaves (T-6.6)."""
    horde = battle.horde
    if horde.library or horde.hand or battle.fighting_bosses():
        return False
    creatures = [p for p in horde.battlefield if facts_of(horde, p.card).is_creature
                 or facts_of(horde, p.card).loyalty > 0]
    return len(creatures) == 1 and bool(keywords_of(horde, creatures[0]) & NOT_ALONE)


def _next_of(actions: list[Action], plan: list[Action], done: str) -> Action:
    """The first planned action still legal, else the step's confirm (or the last choice)."""
    legal = set(actions)
    for action in plan:
        if action in legal:
            return action
    for action in actions:
        if action.kind == done:
            return action
    return actions[-1]


def _response(battle: Battle, actions: list[Action], rng: random.Random) -> Action:
    """Answer the enemy's spell with the instant or ability worth most (a counterspell is
    worth the spell's mana value and one more), when it is worth at least RESPONSE_WORTH."""
    costs: WorthMemo = {}
    plays = [(play_value(battle, a, rng, costs), a) for a in actions if a.kind in (act.CAST, act.ACTIVATE)]
    plays = [p for p in plays if p[0] >= RESPONSE_WORTH]
    if plays:
        return max(plays, key=lambda p: (p[0], -p[1].card))[1]
    return act.interned(act.PASS)


def creature_value(side: Side, card: int) -> float:
    """Power and toughness plus something for each keyword."""
    facts = facts_of(side, card)
    return facts.power + facts.toughness + sum((v for k, v in KEYWORD_VALUE.items() if facts.keywords & k), 0.0)


def _best_land(battle: Battle, lands: list[Action]) -> Action:
    """The land of most `_land_value` (the first of equals; a loop, not `max` calling a
    lambda per land)."""
    best = lands[0]
    best_value = _land_value(battle, best)
    for land in lands[1:]:
        value = _land_value(battle, land)
        if value > best_value:
            best, best_value = land, value
    return best


def _land_value(battle: Battle, action: Action) -> tuple[int, bool, int, int]:
    """A land that makes the colours the hand's spells need most; untapped ones first."""
    pc = battle.side(action.player)
    facts = facts_of(pc, action.card)
    made = set().union(*facts.mana) if facts.mana else set()
    needed = 0  # the hand's mana symbols it makes (a loop: `sum` is called by name, compiled)
    for card in pc.hand:
        for color in program_at(pc.cards, card).colors:
            if color in made:
                needed += 1
    return (needed, not facts.enters_tapped, len(made), -action.card)


def _toughness(side: Side, permanent: Permanent) -> int:
    """Toughness left: printed plus counters and bonuses, minus damage already marked."""
    return toughness(side, permanent) - permanent.damage


def _kills(attacker_side: Side, attacker: Permanent, defender_side: Side, defender: Permanent) -> bool:
    """Whether the first creature's combat damage destroys the second."""
    damage = power(attacker_side, attacker)
    if damage <= 0 or keywords_of(defender_side, defender) & INDESTRUCTIBLE:
        return False
    return bool(keywords_of(attacker_side, attacker) & DEATHTOUCH) or damage >= _toughness(defender_side, defender)


def _survives(creature_side: Side, creature: Permanent, opponent_side: Side, opponent: Permanent) -> bool:
    """Whether the creature lives through a fight with the opponent (a first striker
    that kills first takes no damage)."""
    mine = keywords_of(creature_side, creature)
    theirs = keywords_of(opponent_side, opponent)
    strikes_first = mine & (FIRST_STRIKE | DOUBLE_STRIKE) and not theirs & (FIRST_STRIKE | DOUBLE_STRIKE)
    if strikes_first and _kills(creature_side, creature, opponent_side, opponent):
        return True
    return not _kills(opponent_side, opponent, creature_side, creature)


def _enemy_sides(battle: Battle) -> list[Side]:
    return [battle.horde, *battle.fighting_bosses()]


def _horde_threat(battle: Battle) -> list[tuple[float, int]]:
    """The enemy creatures that may attack next turn as (power, keyword flags), biggest
    first, with the expected power of the horde's next reveal (T-6.9) as one more attacker."""
    threat = [(float(power(side, p)), keywords_of(side, p)) for side in _enemy_sides(battle) for p in side.battlefield
              if facts_of(side, p.card).is_creature and not keywords_of(side, p) & DEFENDER]
    threat.append((_expected_reveal_power(battle.horde), 0))
    return sorted(threat, key=lambda t: -t[0])


#: The last answer of `_expected_reveal_power`: (card table, library, power). The agent asks
#: it several times a turn of a library that only changes when the horde reveals or mills.
_LAST_REVEAL: tuple[tuple[Card, ...] | None, tuple[int, ...], float] = (None, (), 0.0)


def _expected_reveal_power(horde: Horde) -> float:
    """The mean power the horde's next reveal brings: tokens until a non-token card
    (a geometric number of them, by the library's make-up), then that card."""
    global _LAST_REVEAL
    if not horde.library:
        return 0.0
    library = tuple(horde.library)
    cards, seen, power = _LAST_REVEAL
    if cards is horde.cards and seen == library:
        return power
    power = _reveal_power(horde)
    _LAST_REVEAL = (horde.cards, library, power)
    return power


def _reveal_power(horde: Horde) -> float:
    """(`_expected_reveal_power`, worked out: one loop over the library, without lists of
    profiles and `sum` called by name, which the compiled build looks up at each call.)"""
    cards = horde.cards
    known = profiles_of(cards)
    tokens = token_power = others = other_power = 0
    for card in horde.library:
        facts = known[card] or profile_in(cards, known, card)
        if facts.is_token:
            tokens += 1
            token_power += facts.power if facts.is_creature else 0
        else:
            others += 1
            other_power += facts.power if facts.is_creature else 0
    mean_token = token_power / tokens if tokens else 0.0
    if not others:
        return mean_token * tokens
    share = tokens / len(horde.library)
    return mean_token * share / (1 - share) + other_power / others


def _blockers(battle: Battle) -> list[tuple[str, int, int]]:
    """Our untapped creatures that can block (each blocks one attacker): (PC id, card id,
    keyword flags)."""
    return [(pc.id, p.card, keywords_of(pc, p)) for pc in battle.fighting() for p in pc.battlefield
            if not p.tapped and facts_of(pc, p.card).is_creature and not keywords_of(pc, p) & CANT_BLOCK]


def _expected_damage(battle: Battle, blockers: list[tuple[str, int, int]], threat: list[tuple[float, int]]) -> float:
    """Damage per PC if the enemies attacked with `threat` and our `blockers` blocked their
    biggest attackers: a flyer only by a creature with flying or reach (CR 702.9b), a menace
    attacker only by two (CR 702.110b), nothing that "can't be blocked"."""
    ground = sum(1 for b in blockers if not b[2] & (FLYING | REACH))
    air = len(blockers) - ground
    unblocked = 0.0
    for amount, flags in threat:
        need = 2 if flags & MENACE else 1
        if flags & UNBLOCKABLE:
            unblocked += amount
        elif flags & FLYING:
            if air >= need:
                air -= need
            else:
                unblocked += amount
        elif ground + air >= need:
            use = min(ground, need)
            ground -= use
            air -= need - use
        else:
            unblocked += amount
    return unblocked / max(1, len(battle.fighting()))


def _danger_line(battle: Battle) -> float:
    """Expected damage from the next horde attack that counts as a loss being near:
    a share of the weakest PC's life, since a reveal can bring many more tokens
    than the mean."""
    return DANGER * min(pc.life for pc in battle.fighting())


def _loss_is_near(battle: Battle) -> bool:
    """The horde's next attack would likely take the weakest PC close to 0 life."""
    if not battle.fighting():
        return False
    return _expected_damage(battle, _blockers(battle), _horde_threat(battle)) >= _danger_line(battle)


def _attack_plan(battle: Battle) -> list[Action]:
    """Attack with each creature that no untapped enemy creature can block and kill
    without dying too (a safe attack or a trade), as long as the creatures kept
    back still hold the enemies' next attack under the danger line. The defender:
    an enemy planeswalker first (T-8.2), else the boss with the least life, else the horde."""
    blockers = [(side, p) for side in _enemy_sides(battle) for p in side.battlefield
                if not p.tapped and facts_of(side, p.card).is_creature
                and not keywords_of(side, p) & CANT_BLOCK]
    if len(blockers) == 1 and keywords_of(*blockers[0]) & NOT_ALONE:
        blockers = []  # it cannot block alone (CR 506.5)
    fighting = battle.fighting()
    targets = defenders(battle)
    if not fighting or not targets:
        return []
    defender = _chosen_defender(battle, targets)
    if defender == ("", -1) and not battle.horde.library:
        return []  # T-6.10: damage to the horde mills its library; with none left, attackers only tap
    line = _danger_line(battle)
    threat = _horde_threat(battle)
    home = _blockers(battle)  # our creatures that could block the horde's next attack
    plan = []
    for pc in fighting:
        for permanent in pc.battlefield:
            facts = facts_of(pc, permanent.card)
            if not facts.is_creature or permanent.tapped or facts.keywords & DEFENDER:
                continue
            if permanent.summoning_sick and not facts.keywords & HASTE:
                continue
            if power(pc, permanent) <= 0:
                continue
            risky = any(can_block(side, b, pc, permanent) and not _survives(pc, permanent, side, b)
                        and not _kills(pc, permanent, side, b) for side, b in blockers)
            if risky:
                continue
            if not facts.keywords & VIGILANCE:
                kept = [b for b in home if b[:2] != (pc.id, permanent.card)]
                if _expected_damage(battle, kept, threat) >= line:
                    continue
                home = kept
            plan.append(act.interned(act.ATTACK, pc.id, permanent.card, target=defender))
    return plan


def _chosen_defender(battle: Battle, targets: list[tuple[str, int]]) -> tuple[str, int]:
    walkers = [t for t in targets if t[1] >= 0]
    if walkers:
        return min(walkers, key=lambda t: (permanent_of(battle.side(t[0]), t[1]).loyalty, t))
    bosses = [t for t in targets if t[0]]
    if bosses:
        return min(bosses, key=lambda t: (battle.player(t[0]).life, t))
    return targets[0]


def _block_plan(battle: Battle) -> list[Action]:
    """Blocks that kill an attacker and survive; then trades of equal or better value; then
    double blocks of menace attackers (CR 702.110b), and of any attacker once the horde is
    spent (T-6.12), that kill it losing at most one creature worth no more than it; then chump blocks of the biggest attackers (two for a menace
    attacker) while a PC would otherwise drop to 0. Only legal blocks are planned (flying,
    reach, "can't block", landwalk: `can_block`)."""
    used = {b for a in battle.attacks for b in a.blockers}
    free = [(pc, p) for pc in battle.fighting() for p in pc.battlefield
            if facts_of(pc, p.card).is_creature and not p.tapped and (pc.id, p.card) not in used]
    attacks = sorted((a for a in battle.attacks if not a.blockers),
                     key=lambda a: (-power(battle.side(a.owner), _attacker(battle, a)), a.owner, a.card))
    plan: list[Action] = []
    blocked: set[tuple[str, int]] = set()
    for wanted in ("good", "trade"):
        for attack in attacks:
            if (attack.owner, attack.card) in blocked or _menace(battle, attack):
                continue
            side, attacker = battle.side(attack.owner), _attacker(battle, attack)
            choices = [(pc, p) for pc, p in free if can_block(pc, p, side, attacker)
                       and _kills(pc, p, side, attacker)
                       and (_survives(pc, p, side, attacker) if wanted == "good"
                            else creature_value(side, attack.card) >= creature_value(pc, p.card))]
            if choices:
                _assign(plan, free, blocked, attack, [min(choices, key=lambda c: creature_value(c[0], c[1].card))])
    spent = _horde_spent(battle)
    for attack in attacks:
        if (_menace(battle, attack) or spent) and (attack.owner, attack.card) not in blocked:
            pair = _killing_pair(battle.side(attack.owner), _attacker(battle, attack), attack.card, free)
            if pair:
                _assign(plan, free, blocked, attack, list(pair))
    incoming: dict[str, int] = {}
    for attack in battle.attacks:
        if (attack.owner, attack.card) not in blocked and not attack.blockers and attack.defender_card < 0:
            damage = power(battle.side(attack.owner), _attacker(battle, attack))
            incoming[attack.defender] = incoming.get(attack.defender, 0) + damage
    for attack in attacks:
        pc_life = battle.player(attack.defender).life
        if (attack.owner, attack.card) in blocked or incoming.get(attack.defender, 0) < pc_life:
            continue
        side, attacker = battle.side(attack.owner), _attacker(battle, attack)
        need = 2 if _menace(battle, attack) else 1
        choices = sorted(((pc, p) for pc, p in free if can_block(pc, p, side, attacker)),
                         key=lambda c: creature_value(c[0], c[1].card))
        if len(choices) >= need:
            _assign(plan, free, blocked, attack, choices[:need])
            incoming[attack.defender] -= power(side, attacker)
    return plan


# `_block_plan`'s helpers are module functions, not functions nested in it: compiled, a
# nested function is a closure object called through Python's calling convention.


def _attacker(battle: Battle, attack: Attack) -> Permanent:
    return permanent_of(battle.side(attack.owner), attack.card)


def _menace(battle: Battle, attack: Attack) -> bool:
    return bool(keywords_of(battle.side(attack.owner), _attacker(battle, attack)) & MENACE)


def _assign(plan: list[Action], free: list[tuple[PC, Permanent]], blocked: set[tuple[str, int]], attack: Attack,
            chosen: list[tuple[PC, Permanent]]) -> None:
    """Plan the chosen creatures' blocks of the attack; they are no longer free."""
    for pc, permanent in chosen:
        plan.append(act.interned(act.BLOCK, pc.id, permanent.card, target=(attack.owner, attack.card)))
        free.remove((pc, permanent))
    blocked.add((attack.owner, attack.card))


def _horde_spent(battle: Battle) -> bool:
    """The horde has no library and no hand: only its creatures stand between the party and
    victory (T-6.12), so they are worth double blocks that destroy them."""
    return not battle.horde.library and not battle.horde.hand


def _killing_pair(side: Side, attacker: Permanent, card: int, free: list[tuple[PC, Permanent]]
                  ) -> tuple[tuple[PC, Permanent], tuple[PC, Permanent]] | None:
    """The cheapest two blockers that together destroy an attacker, of which it destroys
    at most one, and that one worth no more than the attacker (or None)."""
    able = [(pc, p) for pc, p in free if can_block(pc, p, side, attacker)]
    if len(able) < 2 or keywords_of(side, attacker) & INDESTRUCTIBLE:
        return None
    left = _toughness(side, attacker)
    damage = power(side, attacker)
    worth = creature_value(side, card)
    best = None
    for i, first in enumerate(able):
        for second in able[i + 1:]:
            pair = (first, second)
            dealt = sum(max(0, power(pc, p)) for pc, p in pair)
            if dealt < left and not any(keywords_of(pc, p) & DEATHTOUCH and power(pc, p) > 0 for pc, p in pair):
                continue
            lost = [c for c in pair if _kills(side, attacker, c[0], c[1])]
            if len(lost) == 2 and damage < sum(_toughness(pc, p) for pc, p in pair) \
                    and not keywords_of(side, attacker) & DEATHTOUCH:
                lost = [min(lost, key=lambda c: _toughness(c[0], c[1]))]
            if len(lost) > 1 or any(creature_value(pc, p.card) > worth for pc, p in lost):
                continue
            cost = sum((creature_value(pc, p.card) for pc, p in pair), 0.0)
            if best is None or cost < best[0]:
                best = (cost, pair)
    return best[1] if best else None
