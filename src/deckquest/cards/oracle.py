"""The effect vocabulary and the recogniser that reads oracle text into it.

A battle (T-6.1) is a game of MTG, and real decks are full of spells. Rather
than hand-code every card, deckquest describes what cards do in a small
vocabulary of plain data — deal damage, destroy, exile, return to hand,
counter a spell, draw, discard, gain or lose life, +N/+N until end of turn,
+1/+1 counters, create tokens, tap or untap, mill, search for a basic land,
fight — with targets, conditions and amounts (X included). The battle engine
executes the vocabulary; this module only reads text, so it knows nothing of
battles and imports nothing from the engine.

`recognise(card)` reads a card's rules text sentence by sentence. A sentence
is understood when it maps completely onto the vocabulary (or is something the
combat engine already handles: its keywords, "{T}: Add {G}." mana abilities,
"enters tapped"). Anything else is listed as unrecognised, so coverage
reports can say honestly which cards are simulated fully, partly or not at all.
A card whose text is not understood still plays as its type with its stats: a
creature's body and a land's mana from its basic land types (CR 305.6) play, so
such a card is simulated partly, and only a card of which nothing plays (a spell,
an aura, a land without a basic type) is not simulated at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Iterable

from deckquest.cards.model import Card, field_values

# The keyword abilities the combat engine implements (engine.combat.profile.KEYWORD_FLAGS;
# a test keeps the two in step). This module cannot import the engine.
COMBAT_KEYWORDS = frozenset({
    "flying", "reach", "first strike", "double strike", "deathtouch", "trample",
    "lifelink", "vigilance", "haste", "defender", "menace", "indestructible",
    "plainswalk", "islandwalk", "swampwalk", "mountainwalk", "forestwalk",
    "protection from white", "protection from blue", "protection from black", "protection from red",
    "protection from green", "hexproof",
})

# Static restrictions a creature can have (or be given): "~ can't block.", "~ can't be
# blocked." (the engine keeps them as flags beside the keywords).
RESTRICTIONS = frozenset({"can't block", "can't be blocked", "can't attack or block alone"})

# Keywords the card model itself already accounts for (devoid: the card is colourless).
MODEL_KEYWORDS = frozenset({"devoid"})

EFFECT_KINDS = (
    "damage", "destroy", "exile", "bounce", "counter", "draw", "discard", "gain_life",
    "lose_life", "pump", "counters", "token", "tap", "untap", "mill", "search_land", "fight",
    "add_mana", "anthem", "reveal_land", "regenerate", "scry",
)

NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twenty": 20,
}
COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
PERMANENT_KINDS = ("creature", "artifact", "enchantment", "land", "planeswalker", "permanent")


# --- the vocabulary -----------------------------------------------------------------------


@dataclass(frozen=True)
class Amount:
    """A number in an effect: fixed, X (chosen when the spell is cast, CR 107.3), or the
    count of the controller's permanents of a type ("X is the number of Goblins you control")."""

    fixed: int = 1
    is_x: bool = False
    count_of: str | None = None

    def __reduce__(self) -> tuple[type[Amount], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    def value(self, x: int = 0, counted: int = 0) -> int:
        if self.is_x:
            return x
        if self.count_of is not None:
            return counted
        return self.fixed

    def __str__(self) -> str:
        if self.is_x:
            return "X"
        if self.count_of is not None:
            return f"the number of {self.count_of} you control"
        return str(self.fixed)


ONE = Amount(1)


@dataclass(frozen=True)
class Condition:
    """A test a target (or an affected object) must pass, e.g. `power_at_least 4`,
    `not_color B`, `not_type artifact`, `keyword flying`, `tapped`, `attacking`."""

    kind: str
    value: str | int = ""

    def __reduce__(self) -> tuple[type[Condition], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    def __str__(self) -> str:
        return f"{self.kind} {self.value}".strip()


@dataclass(frozen=True)
class Target:
    """What an effect acts on.

    `scope`: `target` (chosen when cast, `count` of them), `each` (every object that
    matches), `self` (the card itself), `you` (its controller), `its_controller` (the
    controller of the previous effect's object, or the player a "hits" trigger's source
    hit), `defending` (the player the card attacks). `kinds` are what may be chosen:
    creature, player, planeswalker, permanent, artifact, enchantment, land, spell.
    `controller` is `any`, `you` or `opponent`.
    """

    scope: str
    kinds: tuple[str, ...] = ()
    controller: str = "any"
    conditions: tuple[Condition, ...] = ()
    count: int = 1

    def __reduce__(self) -> tuple[type[Target], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    def allows(self, kind: str) -> bool:
        return kind in self.kinds or (kind in PERMANENT_KINDS and "permanent" in self.kinds)

    def __str__(self) -> str:
        if self.scope in ("self", "you", "its_controller", "defending"):
            return self.scope.replace("_", " ")
        words = " or ".join(self.kinds)
        owner = {"you": " you control", "opponent": " an opponent controls"}.get(self.controller, "")
        tests = "".join(f" [{c}]" for c in self.conditions)
        count = f"{self.count} " if self.count != 1 else ""
        return f"{self.scope} {count}{words}{owner}{tests}"


ANY_TARGET = Target("target", ("creature", "player", "planeswalker"))
SELF = Target("self")
YOU = Target("you")


@dataclass(frozen=True)
class Token:
    """A token an effect creates (CR 111): name, stats, colours, keywords."""

    name: str
    power: int
    toughness: int
    colors: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    is_artifact: bool = False

    def __reduce__(self) -> tuple[type[Token], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)


@dataclass(frozen=True)
class Effect:
    """One instruction of the vocabulary (`kind` is one of EFFECT_KINDS).

    Fields not used by a kind keep their defaults: `power`/`toughness`/`keywords`
    for `pump` (+N/+N and keywords until end of turn), `token` for `token`,
    `unless_pays` for `counter`, `other` for `fight` (the second creature),
    `land_type`/`to_hand`/`tapped` for `search_land`, `at_random` for `discard`,
    `mana` for `add_mana` (units as sets of WUBRG/C letters); `power`/`toughness`/`keywords`
    for `anthem` too (a static ability's continuous +N/+N and keywords, CR 611.3, for as long
    as its source is on the battlefield).
    """

    kind: str
    target: Target = YOU
    amount: Amount = ONE
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    token: Token | None = None
    unless_pays: int = 0
    other: Target | None = None
    land_type: str = "basic"
    to_hand: bool = False
    tapped: bool = False
    at_random: bool = False
    mana: tuple[frozenset[str], ...] = ()
    x_power: bool = False  # "gets +X/+0": the pump uses X
    no_regenerate: bool = False  # "It can't be regenerated." after a destroy (CR 701.19c)

    def __reduce__(self) -> tuple[type[Effect], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    def __str__(self) -> str:
        if self.kind in ("pump", "anthem"):
            def sign(n: int) -> str:
                return f"+{n}" if n >= 0 else str(n)
            grant = f" and {', '.join(self.keywords)}" if self.keywords else ""
            return f"{self.kind} {self.target} {sign(self.power)}/{sign(self.toughness)}{grant}"
        if self.kind == "token" and self.token:
            return f"token {self.amount} x {self.token.power}/{self.token.toughness} {self.token.name}"
        if self.kind == "fight":
            return f"fight {self.target} with {self.other}"
        return f"{self.kind} {self.amount} {self.target}"


@dataclass(frozen=True)
class Cost:
    """The cost of an activated or loyalty ability (or a spell's additional cost): mana
    (`{1}{R}`), `{T}`, a sacrifice (`self`, or a card type or subtype: `creature`, `Goblin`),
    life, or a loyalty change (T-8.2; +1, 0, -3)."""

    mana: str = ""
    tap: bool = False
    sacrifice: str = ""
    life: int = 0
    loyalty: int | None = None

    def __reduce__(self) -> tuple[type[Cost], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)


@dataclass(frozen=True)
class Ability:
    """When effects happen: `spell` (an instant or sorcery resolving), `enters` / `dies` /
    `attacks` / `upkeep` / `end_step` triggers, `activated` and `loyalty` abilities with a
    cost, `mana` abilities, `static` abilities (`anthem` effects, in force while the card is
    on the battlefield). A modal ability ("Choose one —") has no `effects` but `modes`, one of
    which is chosen; `optional` ones are "you may". A spell's `cost` is its additional cost
    (Goblin Grenade). `kicked`: an enters trigger that needs the spell kicked (CR 702.33d)."""

    timing: str
    effects: tuple[Effect, ...]
    cost: Cost | None = None
    modes: tuple[tuple[Effect, ...], ...] = ()
    optional: bool = False
    text: str = ""
    kicked: bool = False

    def __reduce__(self) -> tuple[type[Ability], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    @property
    def modal(self) -> bool:
        return bool(self.modes)


@dataclass(frozen=True)
class Recognition:
    """What the recogniser made of a card: its abilities in the vocabulary and the
    sentences it did not understand. `level` is `full` (nothing left over), `partial`
    (something plays: a sentence understood, a creature's body or a basic-typed land's
    mana) or `none` (nothing of the card changes play). `kicker`: the kicker cost (`{R}`), or ""; `echo`: the
    echo cost (CR 702.30), or ""."""

    level: str
    abilities: tuple[Ability, ...] = ()
    unrecognised: tuple[str, ...] = ()
    kicker: str = ""
    echo: str = ""

    def __reduce__(self) -> tuple[type[Recognition], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    @property
    def effects(self) -> list[Effect]:
        found: list[Effect] = []
        for ability in self.abilities:
            found.extend(ability.effects)
            for mode in ability.modes:
                found.extend(mode)
        return found


# --- reading targets and amounts ------------------------------------------------------------

_NUMBER = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|\d+|X)"
_KINDS = r"(?:creature|player|planeswalker|permanent|artifact|enchantment|land|opponent|spell)"
_MODIFIER = re.compile(
    r"^(non-?[a-z]+|tapped|untapped|attacking or blocking|attacking|blocking|another|other)$"
)
_WITH_STAT = re.compile(r"^(power|toughness|mana value) (\d+) or (greater|less)$")


def amount(word: str) -> Amount | None:
    """A number word, digits or X as an Amount."""
    word = word.lower()
    if word == "x":
        return Amount(0, is_x=True)
    if word.isdigit():
        return Amount(int(word))
    return Amount(NUMBER_WORDS[word]) if word in NUMBER_WORDS else None


def _number(word: str) -> Amount:
    """`amount` of a word a `_NUMBER` pattern matched (always a number)."""
    found = amount(word)
    assert found is not None, word  # _NUMBER matches only number words, digits and X
    return found


def _modifier_condition(word: str) -> Condition | None:
    word = word.replace("-", "")
    if word in ("tapped", "untapped", "attacking", "blocking", "attacking or blocking"):
        return Condition(word.replace(" ", "_"))
    if word in ("another", "other"):
        return Condition("another")
    if word.startswith("non"):
        rest = word[3:]
        if rest in COLOR_WORDS:
            return Condition("not_color", COLOR_WORDS[rest])
        if rest in ("artifact", "creature", "land", "enchantment", "planeswalker", "token"):
            return Condition("not_type", rest)
        if rest == "basic":
            return Condition("nonbasic")
    return None


def _with_condition(text: str) -> Condition | None:
    match = _WITH_STAT.match(text)
    if match:
        stat, number, direction = match.groups()
        kind = stat.replace(" ", "_") + ("_at_least" if direction == "greater" else "_at_most")
        return Condition(kind, int(number))
    if text in COMBAT_KEYWORDS:
        return Condition("keyword", text)
    return None


def parse_target(text: str) -> Target | None:
    """A target phrase ("any target", "target nonblack creature", "each opponent",
    "two target lands", "all creatures with power 4 or greater", "~") as a Target."""
    text = text.strip().lower()
    fixed = {
        "any target": ANY_TARGET,
        "~": SELF, "it": SELF, "this creature": SELF,
        "you": YOU,
        "each opponent": Target("each", ("player",), "opponent"),
        "each player": Target("each", ("player",)),
        "target player": Target("target", ("player",)),
        "target opponent": Target("target", ("player",), "opponent"),
        "target player or planeswalker": Target("target", ("player", "planeswalker")),
        "its controller": Target("its_controller"),
        "defending player": Target("defending"),
        "that player": Target("its_controller"),
        "creatures you control": Target("each", ("creature",), "you"),
        "permanents you control": Target("each", ("permanent",), "you"),
    }
    if text in fixed:
        return fixed[text]
    spell = re.match(r"^target (creature|instant|sorcery|artifact|enchantment|planeswalker) spell$", text)
    if spell:
        return Target("target", ("spell",), conditions=(Condition("type", spell.group(1)),))
    if text.startswith("another target "):  # Oblivion Ring, Eldrazi Displacer: not the card itself
        other = parse_target(text[len("another "):])
        return replace(other, conditions=other.conditions + (Condition("another"),)) if other else None
    match = re.match(rf"^(target|each|all|{_NUMBER} target) (.+)$", text)
    if not match:
        return None
    quantifier, rest = match.groups()
    count = 1
    if quantifier.endswith(" target"):
        count = _number(quantifier.split()[0]).fixed
        quantifier = "target"
    scope = "each" if quantifier in ("each", "all") else "target"
    conditions: list[Condition] = []
    controller = "any"
    for suffix, owner in ((" you control", "you"), (" you don't control", "opponent"),
                          (" an opponent controls", "opponent"), (" your opponents control", "opponent")):
        if " with " not in rest and rest.endswith(suffix):
            rest, controller = rest[: -len(suffix)], owner
    rest, _, with_part = rest.partition(" with ")
    rest, _, without = rest.partition(" without ")
    if with_part:
        for part in with_part.split(" and "):
            condition = _with_condition(part)
            if condition is None:
                return None
            conditions.append(condition)
    if without:
        if without not in COMBAT_KEYWORDS:
            return None
        conditions.append(Condition("no_keyword", without))
    words = [w for w in re.split(r",? or |, | ", rest.replace("attacking or blocking", "attacking_or_blocking")) if w]
    kinds: list[str] = []
    for word in words:
        word = word.replace("attacking_or_blocking", "attacking or blocking")
        singular = {"creatures": "creature", "lands": "land", "permanents": "permanent",
                    "artifacts": "artifact", "enchantments": "enchantment", "players": "player",
                    "planeswalkers": "planeswalker"}.get(word, word)
        if re.fullmatch(_KINDS, singular):
            if singular == "opponent":
                kinds.append("player")
                controller = "opponent"
            else:
                kinds.append(singular)
            continue
        condition = _modifier_condition(word) if _MODIFIER.match(word) else None
        if condition is None or kinds:
            return None
        conditions.append(condition)
    if not kinds:
        return None
    return Target(scope, tuple(kinds), controller, tuple(conditions), count)


# --- reading effect sentences -------------------------------------------------------------

_SUBJECT = r"(?:(you|target player|target opponent|each player|each opponent|its controller|that player) )?"
_PT = r"([+-](?:\d+|X))/([+-](?:\d+|X))"
_KEYWORD_LIST = r"((?:[a-z ]+?)(?:(?:,| and) [a-z ]+?)*)"


def _keywords(text: str | None) -> tuple[str, ...] | None:
    if not text:
        return ()
    parts = [p.strip() for p in re.split(r",? and |, ", text.lower()) if p.strip()]
    return tuple(parts) if all(p in COMBAT_KEYWORDS for p in parts) else None


def _subject(text: str | None) -> Target | None:
    return parse_target(text) if text else YOU


def _pt(value: str) -> tuple[int, bool]:
    return (0, True) if value.lstrip("+-") == "X" else (int(value), False)


#: What a clause of the vocabulary makes of its pattern's match (None: not understood after all).
Clause = Callable[[re.Match[str]], Effect | None]


def _damage(m: re.Match[str]) -> Effect | None:
    target = parse_target(m.group(2))
    number = amount(m.group(1))
    return Effect("damage", target, number) if target and number else None


def _simple(kind: str) -> Clause:
    def make(m: re.Match[str]) -> Effect | None:
        target = parse_target(m.group(1))
        return Effect(kind, target) if target else None
    return make


def _counter(m: re.Match[str]) -> Effect | None:
    target = parse_target(m.group(1))
    if target is None or target.kinds != ("spell",):
        return None
    return Effect("counter", target, unless_pays=int(m.group(2) or 0))


def _player_amount(kind: str) -> Clause:
    def make(m: re.Match[str]) -> Effect | None:
        target, number = _subject(m.group(1)), amount(m.group(2))
        if target is None or number is None:
            return None
        return Effect(kind, target, number, at_random=bool(m.groupdict().get("random")))
    return make


def _pump(m: re.Match[str]) -> Effect | None:
    target = parse_target(m.group(1))
    keywords = _keywords(m.group(4))
    if target is None or keywords is None:
        return None
    power, x_power = _pt(m.group(2))
    toughness, x_toughness = _pt(m.group(3))
    return Effect("pump", target, power=power, toughness=toughness, keywords=keywords,
                  x_power=x_power or x_toughness)


def _grant(m: re.Match[str]) -> Effect | None:
    target, keywords = parse_target(m.group(1)), _keywords(m.group(2))
    return Effect("pump", target, keywords=keywords) if target and keywords else None


def _put_counters(m: re.Match[str]) -> Effect | None:
    number, target = amount(m.group(1)), parse_target(m.group(2))
    return Effect("counters", target, number) if number and target else None


def _token(m: re.Match[str]) -> Effect | None:
    number = amount(m.group(1))
    colors_text, subtypes_text = m.group(4), m.group(5)
    keywords = _keywords(m.group(7))
    if number is None or keywords is None:
        return None
    colors = tuple(COLOR_WORDS[w] for w in re.split(r" and |, ", colors_text) if w in COLOR_WORDS)
    subtypes = tuple(subtypes_text.split())
    token = Token(" ".join(subtypes), int(m.group(2)), int(m.group(3)), colors, subtypes, keywords,
                  is_artifact=bool(m.group(6)))
    return Effect("token", YOU, number, token=token)


def _tap(kind: str) -> Clause:
    def make(m: re.Match[str]) -> Effect | None:
        target = parse_target(m.group(1))
        return Effect(kind, target) if target else None
    return make


def _search(m: re.Match[str]) -> Effect | None:
    land = m.group(1).lower()
    land_type = "basic" if land == "basic land" else land.capitalize()
    return Effect("search_land", YOU, land_type=land_type, to_hand=m.group(2) == "into your hand",
                  tapped=m.group(2).endswith("tapped"))


def _fight(m: re.Match[str]) -> Effect | None:
    first, second = parse_target(m.group(1)), parse_target(m.group(2))
    return Effect("fight", first, other=second) if first and second else None


_MANA = re.compile(r"^(?:\{[WUBRGC]\})+$", re.I)


def _add_mana(m: re.Match[str]) -> Effect | None:
    produced = m.group(1)
    if re.fullmatch(r"one mana of any colou?r", produced, re.I):
        return Effect("add_mana", mana=(frozenset("WUBRG"),))
    options = produced.split(" or ")
    if all(_MANA.match(option) for option in options):
        symbols = [re.findall(r"\{(\w)\}", option.upper()) for option in options]
        if all(len(s) == len(symbols[0]) for s in symbols):
            return Effect("add_mana", mana=tuple(frozenset(s[i] for s in symbols) for i in range(len(symbols[0]))))
    return None


# Each pattern matches a whole clause (no final period, card name replaced by `~`).
_CLAUSES: list[tuple[str, Clause]] = [
    (rf"^(?:~|it) deals ({_NUMBER}) damage to (.+)$", _damage),
    # Damage divided among targets: the engine always picks one target, which gets it all
    # (a legal choice, CR 601.2d; Fireball's extra cost is then 0).
    (rf"^(?:~|it) deals ({_NUMBER}) damage (?:divided evenly, rounded down, among any number of targets|"
     rf"divided as you choose among (?:one or two|one, two, or three|any number of) (?:other )?targets)$",
     lambda m: Effect("damage", ANY_TARGET, _number(m.group(1)))),
    (r"^destroy (.+)$", _simple("destroy")),
    (r"^exile (.+)$", _simple("exile")),
    (r"^return (.+?) to (?:its owner's hand|their owners' hands)$", _simple("bounce")),
    (r"^counter (target .+?)(?: unless its controller pays \{(\d+)\})?$", _counter),
    (rf"^{_SUBJECT}draws? ({_NUMBER}) cards?$", _player_amount("draw")),
    (rf"^{_SUBJECT}discards? ({_NUMBER}) cards?(?P<random> at random)?$", _player_amount("discard")),
    (rf"^{_SUBJECT}gains? ({_NUMBER}) life$", _player_amount("gain_life")),
    (rf"^{_SUBJECT}loses? ({_NUMBER}) life$", _player_amount("lose_life")),
    (rf"^{_SUBJECT}mills? ({_NUMBER}) cards?$", _player_amount("mill")),
    (rf"^{_SUBJECT}scry ({_NUMBER})$", _player_amount("scry")),
    (rf"^(.+?) gets? {_PT}(?: and gains? {_KEYWORD_LIST})? until end of turn$", _pump),
    (rf"^(.+?) gains? {_KEYWORD_LIST} until end of turn$", _grant),
    (rf"^put ({_NUMBER}) \+1/\+1 counters? on (.+)$", _put_counters),
    (rf"^create ({_NUMBER}) (\d+)/(\d+) ((?:colorless|(?:white|blue|black|red|green)(?:(?:,| and) (?:white|blue|black|red|green))*)) "
     rf"([A-Z][a-z]+(?: [A-Z][a-z]+)*) (artifact )?creature tokens?(?: with {_KEYWORD_LIST})?$", _token),
    (r"^tap (.+)$", _tap("tap")),
    (r"^untap (.+)$", _tap("untap")),
    (r"^search your library for an? (basic land|plains|island|swamp|mountain|forest) card, put (?:that card|it) "
     r"(onto the battlefield(?: tapped)?|into your hand), then shuffle$", _search),
    (r"^(target creature you control) fights (target creature you don't control)$", _fight),
    (r"^add (.+)$", _add_mana),
    (r"^regenerate (.+)$", _simple("regenerate")),
    (r"^(defending player) reveals the top card of their library; if it's a land card, "
     r"that player puts it into their hand$", _simple("reveal_land")),
]
_COMPILED = [(re.compile(pattern, re.I), make) for pattern, make in _CLAUSES]

# Riders that change nothing in a battle: the engine has no regeneration.
_NO_OPS = re.compile(
    r"^(?:it|they|that creature) can't be regenerated(?: this turn)?$"
    r"|^a creature dealt damage this way can't be regenerated this turn$",
    re.I,
)
# Fireball's "~ costs {1} more to cast for each target beyond the first.": the engine casts
# such a spell with one target, so it costs nothing more.
_ONE_TARGET = re.compile(r"^(?:~|this spell) costs \{1\} more to cast for each target beyond the first$", re.I)
_WHERE_X = re.compile(r"^(.*), where X is the number of ([A-Za-z]+?)s? you control$")
_IF_IT_HAS = re.compile(r" if it has ((?:mana value|power|toughness) \d+ or (?:less|greater))$")
_LEADING_SUBJECT = re.compile(r"^(target player|target opponent|each player|each opponent|you) ", re.I)
_BARE_VERB = re.compile(r"^(?:draws?|discards?|gains?|loses?|mills?) ", re.I)


def clause_effect(clause: str) -> Effect | None:
    """The Effect a single clause means, or None."""
    for pattern, make in _COMPILED:
        match = pattern.match(clause)
        if match:
            effect = make(match)
            if effect is not None:
                return effect
    return None


def sentence_effects(sentence: str) -> tuple[Effect, ...] | None:
    """A sentence as effects: whole, or split at ", then" / " and " / ", and" where every
    part is a clause of the vocabulary. None when any part is not understood."""
    sentence = sentence.strip().rstrip(".").strip()
    sentence = _IF_IT_HAS.sub(r" with \1", sentence)  # Fatal Push: only such a creature is worth targeting
    if _NO_OPS.match(sentence) or _ONE_TARGET.match(sentence):
        return ()
    counted = None
    where = _WHERE_X.match(sentence)
    if where:
        sentence, counted = where.group(1), where.group(2)
    effects = _split_effects(sentence)
    if effects is None:
        return None
    if counted is not None:
        effects = tuple(_count_x(effect, counted) for effect in effects)
        if not any(effect.amount.count_of for effect in effects):
            return None
    return effects


def _count_x(effect: Effect, counted: str) -> Effect:
    if not effect.amount.is_x:
        return effect
    return replace(effect, amount=Amount(0, count_of=counted))


def _split_effects(text: str) -> tuple[Effect, ...] | None:
    whole = clause_effect(text)
    if whole is not None:
        return (whole,)
    for separator in (", then ", ". then ", ", and ", " and then ", " and "):
        head, found, tail = text.partition(separator)
        if not found:
            continue
        subject = _LEADING_SUBJECT.match(head)
        if subject and _BARE_VERB.match(tail):
            tail = subject.group(1) + " " + tail  # "Target player draws two cards and loses 2 life"
        first = _split_effects(head)
        rest = _split_effects(tail)
        if first is not None and rest is not None:
            return first + rest
    return None


# --- reading a card -----------------------------------------------------------------------

_REMINDER = re.compile(r"\s*\([^()]*\)")
_LOYALTY = re.compile(r"^([+-]?\d+): (.+)$")
_ACTIVATED = re.compile(r"^([^:\"]+): (.+)$")
_TRIGGER = re.compile(r"^(?:when|whenever) ~ (enters|dies|attacks|enters or dies)(?: the battlefield)?, (.+)$", re.I)
_HITS = re.compile(r"^whenever ~ deals (?:combat )?damage to (?:a player|an opponent), (.+)$", re.I)
_REVEAL_LAND = ". If it's a land card, that player puts it into their hand."
_KICKED = re.compile(r"^when ~ enters(?: the battlefield)?, if it was kicked, (.+)$", re.I)
_BEGINNING = re.compile(r"^at the beginning of your (upkeep|end step), (.+)$", re.I)
_MAY_HAVE = re.compile(r"^you may have (?:~|it) deal ", re.I)
_COLOR_OR_NOT = r"(?:[Ww]hite|[Bb]lue|[Bb]lack|[Rr]ed|[Gg]reen|[Cc]olorless)"
_ANTHEM = re.compile(
    rf"^([Oo]ther )?({_COLOR_OR_NOT} |[A-Z][a-z]+ )?[Cc]reatures( you control)? "
    rf"(?:get {_PT}(?: and have {_KEYWORD_LIST})?|have {_KEYWORD_LIST})\.?$"
)
_RESTRICTION = re.compile(r"^~ (can't block|can't be blocked|can't attack or block alone)\.?$", re.I)
_ENTERS_WITH = re.compile(rf"^~ enters(?: the battlefield)? with ({_NUMBER}) \+1/\+1 counters? on it\.?$", re.I)
_ENTERS_TAPPED = re.compile(r"^~ enters(?: the battlefield)? tapped\.?$", re.I)
_SACRIFICE_A = re.compile(r"^sacrifice an? ([A-Za-z]+)$", re.I)
_ADDITIONAL = re.compile(r"^as an additional cost to cast ~, (sacrifice an? [A-Za-z]+)\.?$", re.I)
_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z~])")


@dataclass
class _Reading:
    """The recogniser's running tally for one card."""

    abilities: list[Ability]
    unrecognised: list[str]
    understood: int = 0
    spell_cost: Cost | None = None
    kicker: str = ""
    echo: str = ""

    def miss(self, text: str) -> None:
        self.unrecognised.append(text)


def recognise(card: Card) -> Recognition:
    """Map a card's oracle text onto the effect vocabulary (see the module docstring)."""
    return _recognise(card.name, card.oracle_text or "", tuple(card.card_types), tuple(card.keywords),
                      _plays_without_text(card))


def _plays_without_text(card: Card) -> bool:
    """Whether the card changes play even when none of its text is understood: a creature
    attacks and blocks with its stats, a land with a basic land type taps for its colour
    (CR 305.6; Blood Crypt). Its ignored text is then a rider, not the whole card."""
    return card.is_creature or bool(card.basic_land_types)


@lru_cache(maxsize=8192)
def _recognise(name: str, text: str, card_types: tuple[str, ...], keywords: tuple[str, ...],
               plays_without_text: bool = False) -> Recognition:
    reading = _Reading([], [])
    is_spell = "Instant" in card_types or "Sorcery" in card_types
    lines = [line for line in (_REMINDER.sub("", line).strip() for line in _self_named(text, name))
             if line and line != "//"]  # "//" separates the faces of a multi-faced card
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.rstrip(" —-").lower() == "choose one":
            modes = []
            while index < len(lines) and lines[index].startswith("•"):
                modes.append(lines[index].lstrip("• ").strip())
                index += 1
            _read_modes(reading, modes, "spell" if is_spell else "static")
        else:
            _read_line(reading, line, is_spell, keywords, "Planeswalker" in card_types)
    if reading.spell_cost is not None:
        reading.abilities = [replace(a, cost=reading.spell_cost) if a.timing == "spell" else a for a in reading.abilities]
    if not reading.unrecognised:
        level = "full"
    elif reading.understood or plays_without_text:
        level = "partial"
    else:
        level = "none"
    unrecognised = tuple(sentence.replace("~", name) for sentence in reading.unrecognised)
    return Recognition(level, tuple(reading.abilities), unrecognised, reading.kicker, reading.echo)


def _self_named(text: str, name: str) -> list[str]:
    """Lines with the card's own name (or a legend's short name, "Krenko") replaced by `~`
    and the minus sign of loyalty costs normalised."""
    names = [name]
    short = name.split(",")[0]
    if short != name:
        names.append(short)
    lines = []
    for line in text.replace("\u2212", "-").splitlines():
        for each in names:
            line = line.replace(each, "~")
        lines.append(re.sub(r"\bthis (?:creature|artifact|spell)\b", "~", line))
    return lines


def _read_modes(reading: _Reading, modes: list[str], timing: str) -> None:
    chosen = []
    for mode in modes:
        found = sentence_effects(mode) if timing == "spell" else None
        if not found:
            reading.miss(mode)
        else:
            reading.understood += 1
            chosen.append(found)
    if chosen:
        reading.abilities.append(Ability("spell", (), modes=tuple(chosen), text="Choose one — " + " / ".join(modes)))


def _read_line(reading: _Reading, line: str, is_spell: bool, keywords: tuple[str, ...], is_walker: bool) -> None:
    if _keyword_line(reading, line, keywords):
        return
    additional = _ADDITIONAL.match(line) if is_spell else None
    if additional:
        reading.understood += 1
        reading.spell_cost = _cost(additional.group(1))
        return
    if _ENTERS_TAPPED.match(line):
        reading.understood += 1  # the combat engine's profile reads it
        return
    entering = _ENTERS_WITH.match(line)
    if entering:
        reading.understood += 1
        effect = Effect("counters", SELF, _number(entering.group(1)))
        reading.abilities.append(Ability("enters", (effect,), text=line))
        return
    loyalty = _LOYALTY.match(line) if is_walker else None
    if loyalty:
        _read_ability(reading, loyalty.group(2), "loyalty", Cost(loyalty=int(loyalty.group(1))), line)
        return
    activated = _ACTIVATED.match(line)
    if activated:
        cost = _cost(activated.group(1))
        if cost is None:
            reading.miss(line)
        else:
            _read_ability(reading, activated.group(2), "activated", cost, line)
        return
    static = static_ability(line)
    if static is not None:
        reading.understood += 1
        reading.abilities.append(static)
        return
    kicked = _KICKED.match(line)
    if kicked and reading.kicker:
        before = len(reading.abilities)
        _read_ability(reading, kicked.group(1), "enters", None, line)
        if len(reading.abilities) > before:
            reading.abilities[-1] = replace(reading.abilities[-1], kicked=True)
        return
    beginning = _BEGINNING.match(line)
    if beginning:
        _read_ability(reading, beginning.group(2), beginning.group(1).lower().replace(" ", "_"), None, line)
        return
    hits = _HITS.match(line)
    if hits:
        _read_ability(reading, hits.group(1), "hits", None, line)
        return
    trigger = _TRIGGER.match(line)
    if trigger:
        for timing in trigger.group(1).lower().split(" or "):
            _read_ability(reading, trigger.group(2), timing, None, line, count=timing != "dies" or "or" not in trigger.group(1))
        return
    if is_spell:
        _read_ability(reading, line, "spell", None, line)
        return
    reading.miss(line)  # a static ability or another trigger: not in the vocabulary


def _keyword_line(reading: _Reading, line: str, keywords: tuple[str, ...]) -> bool:
    """A line listing keyword abilities ("Flying, deathtouch, lifelink"). Those the combat
    engine implements are understood; others (protection, flashback, equip …) are not."""
    parts = [p.strip() for p in line.rstrip(".").split(",")]
    known = {k.lower() for k in keywords} | COMBAT_KEYWORDS | MODEL_KEYWORDS
    if not all(any(p.lower() == k or p.lower().startswith(k + " ") or p.lower().startswith(k + "—")
                   for k in known) for p in parts):
        return False
    for part in parts:
        kicker = re.fullmatch(r"(kicker|echo) ((?:\{[0-9WUBRGC]+\})+)", part, re.I)
        if kicker:
            setattr(reading, kicker.group(1).lower(), kicker.group(2).upper())
        if part.lower() in COMBAT_KEYWORDS | MODEL_KEYWORDS or part.lower() == "flash" or kicker:
            reading.understood += 1
        else:
            reading.miss(part)
    return True


def static_ability(line: str) -> Ability | None:
    """A static ability the engine applies continuously (CR 611.3): a lord or an anthem
    ("Other Goblin creatures you control get +1/+1 and have haste.", "Creatures you control
    get +1/+1.", "White creatures get +1/+1.", "Goblin creatures you control have haste.")
    or a restriction of the card itself ("~ can't block.")."""
    restriction = _RESTRICTION.match(line)
    if restriction:
        effect = Effect("anthem", SELF, keywords=(restriction.group(1).lower(),))
        return Ability("static", (effect,), text=line)
    match = _ANTHEM.match(line)
    if not match:
        return None
    other, qualifier, yours, power, toughness, with_keywords, only_keywords = match.groups()
    keywords = _keywords(with_keywords or only_keywords)
    if keywords is None:
        return None
    conditions: list[Condition] = [Condition("another")] if other else []
    if qualifier:
        word = qualifier.strip()
        if word.lower() == "colorless":
            conditions.append(Condition("colorless"))
        elif word.lower() in COLOR_WORDS:
            conditions.append(Condition("color", COLOR_WORDS[word.lower()]))
        elif word.lower() in ("other", "all", "each", "the"):
            return None
        else:
            conditions.append(Condition("subtype", word))
    target = Target("each", ("creature",), "you" if yours else "any", tuple(conditions))
    if power is not None and (power.lstrip("+-") == "X" or toughness.lstrip("+-") == "X"):
        return None
    effect = Effect("anthem", target, power=int(power or 0), toughness=int(toughness or 0), keywords=keywords)
    return Ability("static", (effect,), text=line)


def _cost(text: str) -> Cost | None:
    """An activated ability's cost, when every part is one the engine can pay."""
    mana, tap, sacrifice, life = "", False, "", 0
    for part in (p.strip() for p in text.split(",")):
        if part.upper() == "{T}":
            tap = True
        elif re.fullmatch(r"(?:\{[0-9WUBRGC]+\})+", part, re.I):
            mana += part.upper()
        elif part.lower() == "sacrifice ~":
            sacrifice = "self"
        elif sacrificed := _SACRIFICE_A.match(part):
            sacrifice = sacrificed.group(1)
        elif re.fullmatch(r"pay (\d+) life", part, re.I):
            life = int(part.split()[1])
        else:
            return None
    return Cost(mana, tap, sacrifice, life)


def _read_ability(reading: _Reading, body: str, timing: str, cost: Cost | None, line: str, count: bool = True) -> None:
    """Read an ability's sentences; each understood sentence counts once (`count` is False for
    the second reading of "enters or dies")."""
    optional = False
    effects: list[Effect] = []
    understood, missed = 0, []
    lead = line[: len(line) - len(body)]  # "When ~ enters, ": shown with a first sentence not understood
    body = body.replace(_REVEAL_LAND, "; if it's a land card, that player puts it into their hand.")  # Goblin Guide
    for number, sentence in enumerate(_SENTENCE_END.split(body.strip())):
        text = sentence.strip()
        if may_have := _MAY_HAVE.match(text):  # "you may have it deal 1 damage to any target" (Goblin Arsonist)
            optional, text = True, "~ deals " + text[may_have.end():]
        elif text.lower().startswith("you may "):
            optional, text = True, text[len("you may "):]
        found = sentence_effects(text)
        if found == () and _NO_OPS.match(text.rstrip(".")):  # "It can't be regenerated."
            effects = [replace(e, no_regenerate=True) if e.kind == "destroy" else e for e in effects]
        if found is None or (found and found[0].kind == "add_mana" and timing != "activated"):
            missed.append(lead + sentence if number == 0 else sentence)
        else:
            understood += 1
            effects.extend(found)
    if effects and effects[0].kind == "add_mana":
        if cost != Cost(tap=True) or missed or len(effects) > 1:
            # only a plain "{T}: Add …." is a mana ability the engine can pay with
            understood, missed, effects = 0, [line], []
        else:
            timing = "mana"
    if count:
        reading.understood += understood
        reading.unrecognised.extend(missed)
    if effects:
        reading.abilities.append(Ability(timing, tuple(effects), cost, optional=optional, text=line))


# --- coverage -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardCoverage:
    name: str
    copies: int
    recognition: Recognition

    def __reduce__(self) -> tuple[type[CardCoverage], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)


@dataclass(frozen=True)
class Coverage:
    """How much of a deck (or a card database) the battle engine simulates."""

    cards: tuple[CardCoverage, ...]

    def __reduce__(self) -> tuple[type[Coverage], tuple[object, ...]]:
        """Pickled as its fields (see `cards.model.field_values`)."""
        return type(self), field_values(self)

    def count(self, level: str, by_copies: bool = True) -> int:
        return sum(c.copies if by_copies else 1 for c in self.cards if c.recognition.level == level)

    @property
    def total(self) -> int:
        return sum(c.copies for c in self.cards)

    @property
    def score(self) -> float:
        """The share of cards (copies) simulated, a partly simulated card counting half."""
        if not self.total:
            return 1.0
        return (self.count("full") + 0.5 * self.count("partial")) / self.total


def coverage(cards: Iterable[Card]) -> Coverage:
    """Coverage of a list of cards (a deck: one entry per copy), grouped by name in first-seen order."""
    copies: dict[str, int] = {}
    first: dict[str, Card] = {}
    for card in cards:
        copies[card.name] = copies.get(card.name, 0) + 1
        first.setdefault(card.name, card)
    return Coverage(tuple(CardCoverage(name, copies[name], recognise(first[name])) for name in copies))


def format_coverage(report: Coverage, title: str) -> str:
    """The `deckquest cards coverage` table: every card with its level and what is not simulated."""
    lines = [f"{title}: {report.total} cards, {100 * report.score:.0f}% simulated "
             f"(full {report.count('full')}, partly {report.count('partial')}, not at all {report.count('none')})"]
    for level, heading in (("full", "simulated fully"), ("partial", "simulated partly"), ("none", "not simulated")):
        entries = [c for c in report.cards if c.recognition.level == level]
        if not entries:
            continue
        lines.append("")
        lines.append(f"{heading}:")
        for entry in entries:
            lines.append(f"  {entry.copies:>2} {entry.name}")
            for sentence in entry.recognition.unrecognised:
                lines.append(f"       not simulated: {sentence}")
    return "\n".join(lines)
