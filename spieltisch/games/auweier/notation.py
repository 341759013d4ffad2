"""Auweier: cards, colours, moves and their text form (rules: docs/rules/auweier.md).

Cards are written ``1 2 2* 3 4 5* 6 7`` (worms; ``*`` marks the two crow-proof worms), ``F``
(the False Worm), ``K`` (a Crow) and ``H`` (a Wedding). Females and players are named by their
colour letter ``R B G Y`` (seat 0 plays red, seat 1 blue, seat 2 green, seat 3 yellow; with two
players the green female is the neutral third one). The moves:

* ``deck 3``: the next card of the player's deck (the one to be drawn next) is a 3; a longer
  ``deck 7 H K ...`` places several cards at once, up to a whole 22-card order in one line (a
  typing aid equivalent to the one-card steps: not listed, no action id);
* ``deck shuffle`` / ``deck spread``: the cards not placed yet are shuffled face down
  (``spread``: with their Weddings spread evenly through them);
* ``deck starter 1 2* 3``: the rulebook's first-game hand (a Crow, a Wedding, the False Worm
  and the three worms named), the other 16 cards shuffled with the Weddings spread evenly;
* ``shuffled 3 1 H ...``: chance, the order a shuffle produced;
* ``worm 3 R``: a worm card (or ``F``) before the red female;
* ``wedding R``: a Wedding before the red female;
* ``crow B@R``: a Crow on Blue's top worm before the red female;
* ``swap R#2 F`` / ``swap R#2 4``: exchange the card at place 2 (counted from the bottom) of
  the player's own stack before the red female for the False Worm, or the False Worm lying
  there for a 4, from the hand;
* ``pass``: a final pass during a wedding phase.

Parsing also takes lower case, spaces or none (``3r``, ``2*g``, ``hr``, ``k b@r``), ``FW`` for
``F`` and ``5`` for ``5*``; the state's parser adds ``swap R 4`` without the place. Pure: no I/O.
"""

from __future__ import annotations

import enum
import functools
import re
from typing import TypeVar, cast

from spieltisch.core.errors import InvalidActionError
from spieltisch.core.fast import value
from spieltisch.core.game import ActionTable, check_length, invalid, not_a_move


class Card(enum.IntEnum):
    """The eleven kinds of card in a player's deck, in notation order."""

    ONE = 0
    TWO = 1
    TWO_STAR = 2
    THREE = 3
    FOUR = 4
    FIVE_STAR = 5
    SIX = 6
    SEVEN = 7
    FALSE_WORM = 8
    CROW = 9
    WEDDING = 10

    @property
    def text(self) -> str:
        """The card's notation, e.g. ``2*`` or ``H``."""
        return CARD_TEXT[self]

    @property
    def label(self) -> str:
        """The card in words, e.g. ``worm 2* (crow-proof)``."""
        return CARD_NAME[self]


CARD_TEXT = ("1", "2", "2*", "3", "4", "5*", "6", "7", "F", "K", "H")
CARD_NAME = (
    "worm 1",
    "worm 2",
    "worm 2* (crow-proof)",
    "worm 3",
    "worm 4",
    "worm 5* (crow-proof)",
    "worm 6",
    "worm 7",
    "False Worm",
    "Crow",
    "Wedding",
)
WORM_VALUE = (1, 2, 2, 3, 4, 5, 6, 7, 0, 0, 0)
"""What each card adds to a worm total (the False Worm 0; Crows and Weddings never lie there)."""
DECK = (3, 2, 1, 2, 2, 1, 1, 1, 1, 2, 6)
"""How many cards of each kind one deck holds: 22 in all."""
KINDS = len(Card)
DECK_SIZE = sum(DECK)
KEEP_ORDER = "H 3 K F 1 H 4 2* 2 H 6 1 K H 5* 3 7 H 2 4 1 H"
"""The ``deck_cards`` parameter's cards: a deck of n cards holds the first n of these (the
22 cards of the rulebook's deck, each once). Every small deck holds a Wedding, a worm a Crow
can eat and a Crow, so a wedding phase can open and a Crow can eat; the False Worm comes with
the fourth card; then worms and Weddings take turns, about one Wedding in four cards."""
DECK_BOUNDS = (3, DECK_SIZE)
"""Deck sizes a designer may choose: at 3 a Wedding, a 3 and a Crow (the smallest deck in
which a wedding phase opens and a Crow eats); at 22 the rulebook's deck."""
HAND_SIZE = 6
WORM_CARDS = tuple(Card)[: Card.FALSE_WORM + 1]
"""Cards played before a female as worms: the eight worm kinds and the False Worm."""
REAL_WORMS = tuple(Card)[: Card.FALSE_WORM]
CROW_PROOF = frozenset({Card.TWO_STAR, Card.FIVE_STAR})
CROW_FOOD = tuple(c in REAL_WORMS and c not in CROW_PROOF for c in Card)
"""Which cards a Crow eats: real worms without a star."""
MAX_STACK = sum(DECK[: Card.FALSE_WORM + 1])
"""Most cards one player can have before one female: 13 real worms and the False Worm."""
NO_CARDS: tuple[int, ...] = (0,) * KINDS

STARTER_LOW = (Card.ONE, Card.SEVEN)
STARTER_PROOF = (Card.TWO_STAR, Card.FIVE_STAR)
STARTER_MIDDLE = (Card.THREE, Card.FOUR)


class Colour(enum.IntEnum):
    """Player and female colours; seat ``p`` plays colour ``p``."""

    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3

    @property
    def letter(self) -> str:
        """The colour's one-letter notation."""
        return COLOUR_LETTERS[self]

    @property
    def label(self) -> str:
        """The colour in words."""
        return self.name.lower()


COLOUR_LETTERS = "RBGY"
COLOURS = tuple(Colour)


def card_counts(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """How many of each kind ``cards`` holds."""
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return tuple(counts)


@functools.cache
def deck_of(cards: int) -> tuple[int, ...]:
    """How many of each kind a deck of ``cards`` cards holds (the first ``cards`` of
    :data:`KEEP_ORDER`); ``deck_of(22)`` is :data:`DECK`."""
    if not DECK_BOUNDS[0] <= cards <= DECK_BOUNDS[1]:
        raise ValueError(f"a deck holds {DECK_BOUNDS[0]} to {DECK_BOUNDS[1]} cards, not {cards}")
    counts = [0] * KINDS
    for text in KEEP_ORDER.split()[:cards]:
        counts[CARD_TEXT.index(text)] += 1
    return tuple(counts)


def cards_text(cards: tuple[Card, ...]) -> str:
    """Cards as notation separated by spaces, e.g. ``7 2* H``."""
    return " ".join(CARD_TEXT[c] for c in cards)


# --- Moves -------------------------------------------------------------------------------------


@value
class Arrange:
    """Deck step: these cards are the next ones of the deck, in order.

    The listed actions place one card each (``deck 3``) and have action ids. A longer line
    (``deck 7 H K ...``, up to a whole 22-card order) is a typing aid: applying it is exactly
    the same as applying the one-card steps for its cards in that order, so it is accepted by
    ``apply`` but never listed among the legal actions and has no action id.
    """

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"deck {cards_text(self.cards)}"

    def __repr__(self) -> str:
        return f"Arrange.of({cards_text(self.cards)!r})"

    @classmethod
    def of(cls, text: str) -> Arrange:
        """The step placing ``text``'s cards, e.g. ``Arrange.of("7 H K")``."""
        return cls(parse_cards(text))


@value
class ShuffleRest:
    """Deck step: shuffle every card not placed yet and put them next (``spread``: Weddings
    spread evenly). A chance step then draws the order."""

    spread: bool

    def __str__(self) -> str:
        return "deck spread" if self.spread else "deck shuffle"

    def __repr__(self) -> str:
        return f"ShuffleRest({self.spread!r})"


@value
class Starter:
    """Ready order: the rulebook's first-game hand, the rest shuffled with Weddings spread."""

    low: Card
    """1 or 7."""
    proof: Card
    """2* or 5*."""
    middle: Card
    """3 or 4."""

    def __str__(self) -> str:
        return f"deck starter {cards_text(self.hand()[3:])}"

    def __repr__(self) -> str:
        return f"Starter(Card.{self.low.name}, Card.{self.proof.name}, Card.{self.middle.name})"

    def hand(self) -> tuple[Card, ...]:
        """The six hand cards: Crow, Wedding, False Worm and the three chosen worms."""
        return (Card.CROW, Card.WEDDING, Card.FALSE_WORM, self.low, self.proof, self.middle)


@value
class Shuffled:
    """Chance outcome: a shuffle put the cards in this order (the first is drawn first)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"shuffled {cards_text(self.cards)}"

    def __repr__(self) -> str:
        return f"Shuffled.of({cards_text(self.cards)!r})"

    @classmethod
    def of(cls, text: str) -> Shuffled:
        """The shuffle outcome ``text``, e.g. ``Shuffled.of("3 H 1")``."""
        return cls(parse_cards(text))


@value
class PlayWorm:
    """A worm card or the False Worm from the hand before a female."""

    card: Card
    female: Colour

    def __str__(self) -> str:
        return f"worm {CARD_TEXT[self.card]} {COLOUR_LETTERS[self.female]}"

    def __repr__(self) -> str:
        return f"PlayWorm(Card.{self.card.name}, Colour.{self.female.name})"


@value
class PlayWedding:
    """A Wedding before a female."""

    female: Colour

    def __str__(self) -> str:
        return f"wedding {COLOUR_LETTERS[self.female]}"

    def __repr__(self) -> str:
        return f"PlayWedding(Colour.{self.female.name})"


@value
class PlayCrow:
    """A Crow on ``owner``'s top worm before a female."""

    owner: Colour
    female: Colour

    def __str__(self) -> str:
        return f"crow {COLOUR_LETTERS[self.owner]}@{COLOUR_LETTERS[self.female]}"

    def __repr__(self) -> str:
        return f"PlayCrow(Colour.{self.owner.name}, Colour.{self.female.name})"


@value
class Swap:
    """A False Worm exchange: ``card`` from the hand takes place ``place`` (1 = bottom) of the
    player's stack before ``female``, and the card lying there goes back to the hand."""

    female: Colour
    place: int
    card: Card

    def __str__(self) -> str:
        return f"swap {COLOUR_LETTERS[self.female]}#{self.place} {CARD_TEXT[self.card]}"

    def __repr__(self) -> str:
        return f"Swap(Colour.{self.female.name}, {self.place}, Card.{self.card.name})"


@value
class Pass:
    """A final pass during a wedding phase."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


PASS = Pass()
DeckAction = Arrange | ShuffleRest | Starter
PlayAction = PlayWorm | PlayWedding | PlayCrow | Swap | Pass
Action = DeckAction | PlayAction
Move = Action | Shuffled
HIDDEN_DECK_TEXT = "deck (hidden)"
HIDDEN_SHUFFLE_TEXT = "shuffled (hidden)"


# --- Parsing -------------------------------------------------------------------------------------

_CARD = r"(?:2\*|5\*?|[1-7]|FW|[FKH])"
_CARD_TOKEN = re.compile(_CARD)
_COLOUR = r"([RBGY])"
_WORM = re.compile(rf"(?:WORM)?({_CARD}){_COLOUR}")
_WEDDING = re.compile(rf"(?:WEDDING|H){_COLOUR}")
_CROW = re.compile(rf"(?:CROW|K){_COLOUR}@{_COLOUR}")
_SWAP = re.compile(rf"SWAP{_COLOUR}#(\d{{1,3}})({_CARD})", re.ASCII)
_SWAP_SHORT = re.compile(rf"SWAP{_COLOUR}({_CARD})")
_EXPECTED = (
    "'worm 3 R', 'wedding R', 'crow B@R', 'swap R#2 F', 'pass', 'deck <cards>', "
    "'deck shuffle', 'deck spread', 'deck starter 1 2* 3' or 'shuffled <cards>'"
)


def card_of(token: str) -> Card:
    """The card written ``token`` (``FW`` is ``F``, ``5`` is ``5*``)."""
    token = token.upper()
    if token == "FW":
        return Card.FALSE_WORM
    if token == "5":
        return Card.FIVE_STAR
    return Card(CARD_TEXT.index(token))


def parse_cards(text: str, move_text: str | None = None) -> tuple[Card, ...]:
    """Read cards written with or without spaces or commas (``"1 1 2*"``, ``"112*"``)."""
    check_length(move_text or text)
    check_length(text)
    compact = text.replace(" ", "").replace(",", "").upper()
    cards = []
    position = 0
    while position < len(compact):
        match = _CARD_TOKEN.match(compact, position)
        if match is None:
            raise invalid(move_text or text, "cards 1 2 2* 3 4 5* 6 7 F K H")
        cards.append(card_of(match.group()))
        position = match.end()
    if not cards:
        raise invalid(move_text or text, "at least one card")
    return tuple(cards)


def colour_of(letter: str) -> Colour:
    """The colour with this letter."""
    return Colour(COLOUR_LETTERS.index(letter.upper()))


def parse_move(text: str) -> Move:
    """Read a move in canonical text or a documented alias (not ``swap R 4``: see the state)."""
    check_length(text)
    words = text.split()
    if not words:
        raise invalid(text, _EXPECTED)
    head = words[0].lower()
    if head == "deck":
        return _parse_deck(text, words[1:])
    if head == "shuffled":
        return Shuffled(parse_cards(" ".join(words[1:]), text))
    compact = "".join(words).upper()
    if compact in {"PASS", "P"}:
        return PASS
    if match := _WEDDING.fullmatch(compact):
        return PlayWedding(colour_of(match.group(1)))
    if match := _CROW.fullmatch(compact):
        return PlayCrow(colour_of(match.group(1)), colour_of(match.group(2)))
    if match := _SWAP.fullmatch(compact):
        return Swap(colour_of(match.group(1)), int(match.group(2)), card_of(match.group(3)))
    if match := _WORM.fullmatch(compact):
        return PlayWorm(card_of(match.group(1)), colour_of(match.group(2)))
    raise invalid(text, _EXPECTED)


def _parse_deck(text: str, words: list[str]) -> DeckAction:
    rest = [w.lower() for w in words]
    if rest == ["shuffle"]:
        return ShuffleRest(False)
    if rest == ["spread"]:
        return ShuffleRest(True)
    if rest[:1] == ["starter"]:
        cards = parse_cards(" ".join(words[1:]), text)
        if (
            len(cards) != 3
            or cards[0] not in STARTER_LOW
            or cards[1] not in STARTER_PROOF
            or cards[2] not in STARTER_MIDDLE
        ):
            raise invalid(text, "'deck starter' with 1 or 7, then 2* or 5*, then 3 or 4")
        return Starter(*cards)
    return Arrange(parse_cards(" ".join(words), text))


def swap_short(text: str) -> tuple[Colour, Card] | None:
    """The female and card of ``swap R 4`` (no place given), or ``None`` for other text."""
    check_length(text)
    match = _SWAP_SHORT.fullmatch("".join(text.split()).upper())
    if match is None:
        return None
    return colour_of(match.group(1)), card_of(match.group(2))


# --- Action ids -------------------------------------------------------------------------------


def _listed_actions() -> list[Action]:
    """Every listable player action in id order (longer ``deck`` lines have no id)."""
    table: list[Action] = [Arrange((card,)) for card in Card]
    table += [ShuffleRest(False), ShuffleRest(True)]
    table += [
        Starter(low, proof, middle)
        for low in STARTER_LOW
        for proof in STARTER_PROOF
        for middle in STARTER_MIDDLE
    ]
    table += [PlayWorm(card, female) for card in WORM_CARDS for female in Colour]
    table += [
        Swap(female, place, card)
        for female in Colour
        for place in range(1, MAX_STACK + 1)
        for card in WORM_CARDS
    ]
    table += [PlayCrow(owner, female) for owner in Colour for female in Colour]
    table += [PlayWedding(female) for female in Colour]
    table.append(PASS)
    return table


class AuweierActions(ActionTable[Action]):
    """The action table of Auweier, whose refusals say why a value has no id: a ``deck``
    line placing several cards is a typing aid, and anything else is no listable action."""

    __slots__ = ()

    def id_of(self, action: object) -> int:
        try:
            return super().id_of(action)
        except InvalidActionError:
            if isinstance(action, Arrange) and len(action.cards) > 1:
                raise InvalidActionError(
                    f"{str(action)!r} has no action id: a deck line placing several cards is "
                    "a typing aid, equivalent to one listed 'deck <card>' step per card, in order"
                ) from None
            raise not_a_move(action, "Auweier", "listable action (one with an id)") from None


ACTIONS = AuweierActions(_listed_actions(), "Auweier")
"""Every listable player action in id order: the one table of the game's action ids (the same
for every player count and option)."""

_A = TypeVar("_A", bound=Action)


def interned(action: _A) -> _A:
    """The action table's own object equal to ``action`` (the legal actions are made of these,
    so that masks and id look-ups find them by identity)."""
    return cast(_A, ACTIONS.actions[ACTIONS.id_of(action)])


ARRANGE_ONE = tuple(interned(Arrange((card,))) for card in Card)
WORM_MOVES = tuple(
    tuple(interned(PlayWorm(card, female)) for female in Colour) for card in WORM_CARDS
)
SWAP_MOVES = tuple(
    tuple(
        tuple(interned(Swap(female, place, card)) for card in WORM_CARDS)
        for place in range(1, MAX_STACK + 1)
    )
    for female in Colour
)
CROW_MOVES = tuple(
    tuple(interned(PlayCrow(owner, female)) for female in Colour) for owner in Colour
)
WEDDING_MOVES = tuple(interned(PlayWedding(female)) for female in Colour)
"""Shared move objects: ``WORM_MOVES[card][female]``, ``SWAP_MOVES[female][place - 1][card]``,
``CROW_MOVES[owner][female]``, ``WEDDING_MOVES[female]``, the action table's own objects;
legal-action tuples are built from these, so building them creates no objects."""
