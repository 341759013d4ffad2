"""Auf die Nüsse!: nuts, cards, board spaces, the moves and their text form.

Chance outcomes:

* ``dice G2 W1 W6``: the green die and the two white dice, in that order;
* ``draw walnut``, ``draw walnut/hazelnut``: the nut card just drawn (a slash marks a joker).

Player actions:

* ``setup 2-4``: before the first turn, put a squirrel on a 2-area space;
* ``place 8``: put a squirrel on start-track space 8 (green die plus one white die);
* ``roll`` / ``stop``: roll again, or end the turn and move the squirrels up;
* ``take 5-6``: take the face-up nut lying under that part of the start track;
* ``pass``: refuse what a raccoon space offers (its nut, or its theft); with the option
  ``optional_setup``, also place no more squirrels before the first turn;
* ``steal P2 S5``: the raccoon takes a nut from store 5 of player 2;
* ``put walnut S3``: put the nut in hand into store 3 (a joker names the kind it counts as);
* ``keep``: keep the joker in hand for later;
* ``lay walnut/hazelnut as walnut S3``: lay a kept joker into store 3 as a walnut.

Players and stores are numbered from 1 in text (seat 0 is ``P1``, store 0 is ``S1``). Parsing is
case-insensitive and takes a few aliases (``dice 2 1 6``, ``draw W/H``, ``steal 2 5``,
``put walnut 3``, ``end``). Pure: no I/O.
"""

from __future__ import annotations

import enum
import functools
import re

from spieltisch.core.fast import KeyEnum, value
from spieltisch.core.game import PlayerId, check_length, invalid


class Nut(KeyEnum):
    """The four kinds of nut."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    WALNUT = "walnut"
    HAZELNUT = "hazelnut"
    BEECHNUT = "beechnut"
    ACORN = "acorn"

    @property
    def letter(self) -> str:
        """The nut's one-letter short form."""
        return NUT_LETTERS[self]


NUTS = tuple(Nut)
NUT_LETTERS = {Nut.WALNUT: "W", Nut.HAZELNUT: "H", Nut.BEECHNUT: "B", Nut.ACORN: "A"}


class Card(KeyEnum):
    """A nut card: one kind of nut, or a joker showing two kinds."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    WALNUT = "walnut"
    HAZELNUT = "hazelnut"
    BEECHNUT = "beechnut"
    ACORN = "acorn"
    WALNUT_HAZELNUT = "walnut/hazelnut"
    WALNUT_BEECHNUT = "walnut/beechnut"
    WALNUT_ACORN = "walnut/acorn"
    HAZELNUT_BEECHNUT = "hazelnut/beechnut"
    HAZELNUT_ACORN = "hazelnut/acorn"
    BEECHNUT_ACORN = "beechnut/acorn"

    @property
    def kinds(self) -> tuple[Nut, ...]:
        """The kinds this card can count as: one, or two for a joker."""
        return CARD_KINDS[self]

    @property
    def is_joker(self) -> bool:
        """True for the twelve jokers."""
        return len(CARD_KINDS[self]) == 2

    @property
    def short(self) -> str:
        """Letters: ``W`` for a walnut, ``W/H`` for the walnut/hazelnut joker."""
        return "/".join(n.letter for n in CARD_KINDS[self])


CARDS = tuple(Card)
CARD_KINDS: dict[Card, tuple[Nut, ...]] = {
    card: tuple(Nut(name) for name in card.value.split("/")) for card in CARDS
}
CARD_INDEX: dict[Card, int] = {card: index for index, card in enumerate(CARDS)}
JOKERS = CARDS[4:]
PLAIN: dict[Nut, Card] = {nut: Card(nut.value) for nut in NUTS}
_CARD_BY_KINDS: dict[frozenset[Nut], Card] = {frozenset(c.kinds): c for c in CARDS}


class Space(enum.IntEnum):
    """The nine spaces above the start track, in the order they are checked."""

    TWO_FOUR = 0
    FIVE_SIX = 1
    RACCOON_2 = 2
    EIGHT_NINE = 3
    TEN_TWELVE = 4
    LEFT_3 = 5
    RACCOON_3 = 6
    RIGHT_3 = 7
    AREA_4 = 8

    @property
    def label(self) -> str:
        """How the space is named in text and on screen."""
        return SPACE_LABELS[self]


SPACE_LABELS = ("2-4", "5-6", "7", "8-9", "10-12", "3-left", "3-raccoon", "3-right", "4-area")
TWO_AREA = (Space.TWO_FOUR, Space.FIVE_SIX, Space.RACCOON_2, Space.EIGHT_NINE, Space.TEN_TWELVE)


class Slot(enum.IntEnum):
    """The four places for face-up nuts, each under a part of the start track."""

    TWO_FOUR = 0
    FIVE_SIX = 1
    EIGHT_NINE = 2
    TEN_TWELVE = 3

    @property
    def label(self) -> str:
        """The start-track part the nut lies under, e.g. ``5-6``."""
        return SLOT_LABELS[self]


SLOT_LABELS = ("2-4", "5-6", "8-9", "10-12")
TRACK_SPACE: dict[int, Space] = {
    n: TWO_AREA[0 if n <= 4 else 1 if n <= 6 else 2 if n == 7 else 3 if n <= 9 else 4]
    for n in range(2, 13)
}
"""The 2-area space above each start-track space 2..12."""
MAX_PLAYERS = 4
STORES = 8


@value
class Dice:
    """Chance outcome: the green die and the two white dice."""

    green: int
    white1: int
    white2: int

    def __str__(self) -> str:
        return f"dice G{self.green} W{self.white1} W{self.white2}"

    def __repr__(self) -> str:
        return f"Dice({self.green}, {self.white1}, {self.white2})"

    @property
    def sums(self) -> tuple[int, int]:
        """The two start-track spaces: green plus each white die."""
        return self.green + self.white1, self.green + self.white2


@value
class Draw:
    """Chance outcome: the nut card drawn (to refill a face-up place, or dealt at setup)."""

    card: Card

    def __str__(self) -> str:
        return f"draw {self.card.value}"

    def __repr__(self) -> str:
        return f"Draw(Card.{self.card.name})"


@value
class Setup:
    """Player action before the first turn: a squirrel onto a 2-area space."""

    space: Space

    def __str__(self) -> str:
        return f"setup {self.space.label}"

    def __repr__(self) -> str:
        return f"Setup(Space.{self.space.name})"


@value
class Place:
    """Player action: a squirrel onto start-track space ``space`` (2..12)."""

    space: int

    def __str__(self) -> str:
        return f"place {self.space}"

    def __repr__(self) -> str:
        return f"Place({self.space})"


@value
class RollAgain:
    """Player action: roll the three dice again."""

    def __str__(self) -> str:
        return "roll"

    def __repr__(self) -> str:
        return "RollAgain()"


@value
class Stop:
    """Player action: end the turn successfully; the start-track squirrels move up."""

    def __str__(self) -> str:
        return "stop"

    def __repr__(self) -> str:
        return "Stop()"


@value
class Take:
    """Player action: take the face-up nut in ``slot``."""

    slot: Slot

    def __str__(self) -> str:
        return f"take {self.slot.label}"

    def __repr__(self) -> str:
        return f"Take(Slot.{self.slot.name})"


@value
class Pass:
    """Player action: on a raccoon space, take no nut, or steal nothing; with the option
    ``optional_setup``, place no more squirrels before the first turn."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@value
class Steal:
    """Player action: the raccoon takes one nut from store ``store`` of player ``victim``."""

    victim: PlayerId
    store: int

    def __str__(self) -> str:
        return f"steal P{self.victim + 1} S{self.store + 1}"

    def __repr__(self) -> str:
        return f"Steal({self.victim}, {self.store})"


@value
class Put:
    """Player action: the nut in hand goes into store ``store``, counting as ``kind``."""

    kind: Nut
    store: int

    def __str__(self) -> str:
        return f"put {self.kind.value} S{self.store + 1}"

    def __repr__(self) -> str:
        return f"Put(Nut.{self.kind.name}, {self.store})"


@value
class Keep:
    """Player action: keep the joker in hand instead of storing it now."""

    def __str__(self) -> str:
        return "keep"

    def __repr__(self) -> str:
        return "Keep()"


@value
class Lay:
    """Player action: lay the kept ``joker`` into store ``store`` as a ``kind``."""

    joker: Card
    kind: Nut
    store: int

    def __str__(self) -> str:
        return f"lay {self.joker.value} as {self.kind.value} S{self.store + 1}"

    def __repr__(self) -> str:
        return f"Lay(Card.{self.joker.name}, Nut.{self.kind.name}, {self.store})"


ROLL_AGAIN = RollAgain()
STOP = Stop()
PASS = Pass()
KEEP = Keep()
Action = Setup | Place | RollAgain | Stop | Take | Pass | Steal | Put | Keep | Lay
Move = Dice | Draw | Action
ACTION_TYPES = (Setup, Place, RollAgain, Stop, Take, Pass, Steal, Put, Keep, Lay)

DICE = tuple(Dice(g, a, b) for g in range(1, 7) for a in range(1, 7) for b in range(1, 7))
"""Every roll, green die first; all 216 are equally likely."""
DRAWS = tuple(Draw(card) for card in CARDS)
PLACES = {n: Place(n) for n in range(2, 13)}


# --- Reading text -------------------------------------------------------------------------

_NUT_NAMES = {n.value: n for n in NUTS} | {n.letter.lower(): n for n in NUTS}
_DICE = re.compile(r"g?([1-6])\s*,?\s*w?([1-6])\s*,?\s*w?([1-6])")
_PLAYER_STORE = re.compile(r"p?(\d{1,3})\s*,?\s*(?:store\s*|s)?(\d{1,3})", re.ASCII)
_STORE = re.compile(r"(?:store\s*|s)?(\d{1,3})", re.ASCII)
_SPACE_NAMES = {label: Space(i) for i, label in enumerate(SPACE_LABELS[:5])}
_SLOT_NAMES = {label: Slot(i) for i, label in enumerate(SLOT_LABELS)}


def small_number(text: str) -> int | None:
    """``text`` as a whole number of at most three ASCII digits, else ``None`` (so no reader
    parses a huge or a non-ASCII number)."""
    key = text.strip()
    return int(key) if key.isascii() and key.isdigit() and len(key) <= 3 else None


def parse_nut(text: str, move_text: str) -> Nut:
    """A nut kind by name or letter (``walnut``, ``W``)."""
    nut = _NUT_NAMES.get(text.strip().lower())
    if nut is None:
        raise invalid(move_text, "a nut: walnut, hazelnut, beechnut or acorn (W, H, B, A)")
    return nut


def parse_card(text: str, move_text: str) -> Card:
    """A card by name or letters: ``walnut``, ``W``, ``walnut/hazelnut``, ``W/H``, ``H/W``."""
    words = text.strip().lower().removeprefix("joker").strip()
    kinds = frozenset(parse_nut(part, move_text) for part in words.split("/"))
    card = _CARD_BY_KINDS.get(kinds)
    if card is None or len(kinds) != len(words.split("/")):
        raise invalid(move_text, "a nut card such as 'walnut' or the joker 'walnut/hazelnut'")
    return card


def parse_store(text: str, move_text: str) -> int:
    """A store number 1..8 (``S3``, ``3``, ``store 3``) as its 0-based index."""
    check_length(move_text)
    check_length(text)
    match = _STORE.fullmatch(text.strip().lower())
    if match is None or not 1 <= int(match.group(1)) <= STORES:
        raise invalid(move_text, f"a store S1 to S{STORES}")
    return int(match.group(1)) - 1


def _two_area_space(text: str, move_text: str) -> Space:
    key = text.strip()
    if key in _SPACE_NAMES:
        return _SPACE_NAMES[key]
    number = small_number(key)
    if number is not None and number in TRACK_SPACE:
        return TRACK_SPACE[number]
    raise invalid(move_text, "a 2-area space: 2-4, 5-6, 7, 8-9 or 10-12")


def _slot(text: str, move_text: str) -> Slot:
    key = text.strip()
    if key in _SLOT_NAMES:
        return _SLOT_NAMES[key]
    number = small_number(key)
    if number is not None and number in TRACK_SPACE and number != 7:
        space = TRACK_SPACE[number]
        return Slot(space if space < Space.RACCOON_2 else space - 1)
    raise invalid(move_text, "a face-up nut's place: 2-4, 5-6, 8-9 or 10-12")


def _dice(rest: str, text: str) -> Dice:
    match = _DICE.fullmatch(rest.strip().lower())
    if match is None:
        raise invalid(text, "three dice, green first: 'dice G2 W1 W6'")
    return Dice(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def _place(rest: str, text: str) -> Place:
    number = small_number(rest)
    if number is None:
        raise invalid(text, "a start-track space: 'place 8'")
    return Place(number)


def _steal(rest: str, text: str) -> Steal:
    match = _PLAYER_STORE.fullmatch(rest.strip().lower())
    if match is None or not 1 <= int(match.group(1)) <= MAX_PLAYERS:
        raise invalid(text, "a player and a store: 'steal P2 S5'")
    return Steal(int(match.group(1)) - 1, parse_store(match.group(2), text))


def _put(rest: str, text: str) -> Put:
    nut, _, store = rest.strip().replace(" in ", " ").partition(" ")
    if not store:
        raise invalid(text, "a nut and a store: 'put walnut S3'")
    return Put(parse_nut(nut, text), parse_store(store, text))


def _lay(rest: str, text: str) -> Lay:
    card, sep, tail = rest.strip().partition(" as ")
    kind, _, store = tail.strip().replace(" in ", " ").partition(" ")
    if not sep or not store:
        raise invalid(text, "'lay walnut/hazelnut as walnut S3'")
    joker = parse_card(card, text)
    if not joker.is_joker:
        raise invalid(text, "a joker to lay, such as 'walnut/hazelnut'")
    return Lay(joker, parse_nut(kind, text), parse_store(store, text))


_SIMPLE: dict[str, Action] = {
    "roll": ROLL_AGAIN,
    "stop": STOP,
    "end": STOP,
    "pass": PASS,
    "keep": KEEP,
}


def parse_move(text: str) -> Move:
    """Read a move in canonical text or one of the documented aliases."""
    check_length(text)
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    if not rest.strip() and word in _SIMPLE:
        return _SIMPLE[word]
    if word == "dice":
        return _dice(rest, text)
    if word == "draw":
        return Draw(parse_card(rest, text))
    if word == "setup":
        return Setup(_two_area_space(rest, text))
    if word == "place":
        return _place(rest, text)
    if word == "take":
        return Take(_slot(rest, text))
    if word == "steal":
        return _steal(rest, text)
    if word == "put":
        return _put(rest, text)
    if word == "lay":
        return _lay(rest, text)
    raise invalid(
        text,
        "a move such as 'place 8', 'roll', 'stop', 'take 5-6', 'put walnut S3', 'keep', "
        "'lay walnut/hazelnut as walnut S3', 'steal P2 S5', 'pass', 'setup 2-4', "
        "'dice G2 W1 W6' or 'draw walnut'",
    )


# --- Action ids ---------------------------------------------------------------------------


@functools.cache
def action_table() -> tuple[Action, ...]:
    """Every player action in id order: roll, stop, pass, keep, places, setups, takes, steals,
    puts, lays."""
    table: list[Action] = [ROLL_AGAIN, STOP, PASS, KEEP]
    table += [PLACES[n] for n in range(2, 13)]
    table += [Setup(space) for space in TWO_AREA]
    table += [Take(slot) for slot in Slot]
    table += [Steal(p, s) for p in range(MAX_PLAYERS) for s in range(STORES)]
    table += [Put(kind, s) for s in range(STORES) for kind in NUTS]
    table += [Lay(j, kind, s) for j in JOKERS for kind in NUTS for s in range(STORES)]
    return tuple(table)
