"""Awimbawé: the 28 cards, the moves and their text form.

A card is written as its land's letter and its value: ``G`` grassland, ``D`` desert, ``M``
mountain, ``P`` plain, ``S`` sky; values 1-6 are the land animals (mouse, rhinoceros, cheetah,
hyena, snake, elephant) and 7-10 the eagles, so ``D5`` is the desert snake and ``S9`` the
eagle 9. The moves:

* ``play D5``: the player to act plays this card;
* ``play S9 fight`` / ``play S9 flee``: an eagle played on a land it cannot follow;
* ``move 1 under 3``: the rhinoceros moves the top card of the opponent's pile 1 under their
  pile 3 (piles are numbered 1-4);
* ``block 2`` / ``block hand``: the snake blocks the face-up top card of the opponent's pile 2,
  or a card of their hand picked blind;
* ``decline``: the rhinoceros's or the snake's power is not used;
* ``lead me`` / ``lead opponent``: the cheetah's (or the round loser's) choice of leader;
* chance: ``deal ...`` (the whole deal), ``tiebreak 1`` (who leads the first round on a tie of
  crowns), ``pick D5`` (the hand card the snake's blind pick falls on).

Parsing also takes lower case and a few words (``desert snake``, ``snake of the desert``,
``eagle 9``). :data:`ACTION_TABLE` gives every player action its id. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import field
from operator import attrgetter

from spieltisch.core.codec import SKIP_FIELD
from spieltisch.core.fast import KeyEnum, value
from spieltisch.core.game import ActionTable, check_length, invalid

_SKIP = {SKIP_FIELD: True}


class Land(KeyEnum):
    """The five suits: four lands of the land animals, and the sky of the eagles."""

    GRASSLAND = "grassland"
    DESERT = "desert"
    MOUNTAIN = "mountain"
    PLAIN = "plain"
    SKY = "sky"

    @property
    def letter(self) -> str:
        """The land's one-letter notation."""
        return _LAND_LETTERS[self]


_LAND_LETTERS = {
    Land.GRASSLAND: "G",
    Land.DESERT: "D",
    Land.MOUNTAIN: "M",
    Land.PLAIN: "P",
    Land.SKY: "S",
}
LANDS = (Land.GRASSLAND, Land.DESERT, Land.MOUNTAIN, Land.PLAIN)
"""The four lands of the land animals, in notation order."""


class Animal(KeyEnum):
    """The seven animals; each land animal appears once in each of the four lands."""

    MOUSE = "mouse"
    RHINOCEROS = "rhinoceros"
    CHEETAH = "cheetah"
    HYENA = "hyena"
    SNAKE = "snake"
    ELEPHANT = "elephant"
    EAGLE = "eagle"


ANIMAL_BY_VALUE = (
    None,
    Animal.MOUSE,
    Animal.RHINOCEROS,
    Animal.CHEETAH,
    Animal.HYENA,
    Animal.SNAKE,
    Animal.ELEPHANT,
    Animal.EAGLE,
    Animal.EAGLE,
    Animal.EAGLE,
    Animal.EAGLE,
)
CROWNS_BY_VALUE = (0, 3, 2, 2, 3, 1, 1, 0, 0, -1, -2)
"""Net crowns of a card by its value (the same in every land; SOURCED from the card scans)."""
NUM_CARDS = 28


_INTERNED_CARDS: dict[tuple[Land, int], Card] = {}


@value(eq=False)
class Card:
    """One of the 28 cards: a land and a value (1-6 in the four lands, 7-10 in the sky).

    ``code`` (0-27), ``animal`` and ``crowns`` follow from the two fields. There is exactly
    one object per card (``Card(Land.DESERT, 5) is DECK[10]``), so cards compare and hash by
    identity, which keeps hands and piles fast to search.
    """

    land: Land
    value: int
    code: int = field(init=False, repr=False, metadata=_SKIP)
    animal: Animal = field(init=False, repr=False, metadata=_SKIP)
    crowns: int = field(init=False, repr=False, metadata=_SKIP)
    bit: int = field(init=False, repr=False, metadata=_SKIP)
    """``1 << code``: the card in a set of cards written as bits."""

    def __new__(cls, land: Land, value: int) -> Card:
        if not isinstance(land, Land) or isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"not a card: {land!r} {value!r}")
        known = _INTERNED_CARDS.get((land, value))
        if known is not None:
            return known
        if land is Land.SKY and not 7 <= value <= 10:
            raise ValueError(f"the sky holds the eagles 7 to 10, not {value}")
        if land is not Land.SKY and not 1 <= value <= 6:
            raise ValueError(f"land animals are worth 1 to 6, not {value}")
        card: Card = object.__new__(cls)
        return card

    def __post_init__(self) -> None:
        land, value = self.land, self.value
        code = 24 + value - 7 if land is Land.SKY else LANDS.index(land) * 6 + value - 1
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "animal", ANIMAL_BY_VALUE[value])
        object.__setattr__(self, "crowns", CROWNS_BY_VALUE[value])
        object.__setattr__(self, "bit", 1 << code)
        _INTERNED_CARDS.setdefault((land, value), self)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _card_by_code, (self.code,)

    def __str__(self) -> str:
        return _CARD_TEXT[self.code]

    def __repr__(self) -> str:
        return f"Card.of({_CARD_TEXT[self.code]!r})"

    @property
    def name(self) -> str:
        """The card in words: ``desert snake``, ``eagle 9``."""
        if self.land is Land.SKY:
            return f"eagle {self.value}"
        return f"{self.land.value} {self.animal.value}"

    @property
    def is_eagle(self) -> bool:
        """True for the four eagles (the sky)."""
        return self.code >= 24

    @classmethod
    def of(cls, text: str) -> Card:
        """The card written ``text``: ``D5``, ``desert snake``, ``snake of the desert``, ..."""
        return parse_card(text)


def _card_by_code(code: int) -> Card:
    return DECK[code]


card_code = attrgetter("code")
"""The sort key of cards: their code (land by land, then the eagles)."""


_CARD_TEXT = tuple(
    [f"{land.letter}{value}" for land in LANDS for value in range(1, 7)]
    + [f"S{value}" for value in range(7, 11)]
)
DECK: tuple[Card, ...] = tuple(
    [Card(land, value) for land in LANDS for value in range(1, 7)]
    + [Card(Land.SKY, value) for value in range(7, 11)]
)
"""The 28 cards in code order; ``DECK[card.code] == card``."""
EAGLES = DECK[24:]
_DECK_SET = frozenset(DECK)

LANDS_IN_PLAY = 4
"""Lands in play by the rulebook (the ``lands`` parameter's default)."""
LANDS_BOUNDS = (1, 4)


def deck_of(lands: int) -> tuple[Card, ...]:
    """The cards in play with ``lands`` lands (the ``lands`` parameter), in code order: the
    six animals of each of the first ``lands`` lands, and one eagle per land rounded down to
    a pair, the highest ones (the four eagles with four lands; none with one).

    A pair keeps the deck even, so that it splits into two equal halves, and the highest
    eagles keep the crowns of the deck odd (12 per land, -3 for the eagles 9 and 10), so that a
    round played to its last card still always has a winner; with one land and no eagle the
    single hyena always ends the round first.
    """
    return _DECKS[lands]


def hand_size_of(lands: int) -> int:
    """Cards in each hand with ``lands`` lands: each player has one pile per land (a face-down
    card under a face-up one) and the rest of their half of the deck in hand (six with four
    lands, by the rulebook)."""
    return lands + lands // 2


def _deck(lands: int) -> tuple[Card, ...]:
    eagles = lands // 2 * 2
    return DECK[: 6 * lands] + DECK[NUM_CARDS - eagles :]


_DECKS = {lands: _deck(lands) for lands in range(LANDS_BOUNDS[0], LANDS_BOUNDS[1] + 1)}
_DECK_SETS = {lands: frozenset(cards) for lands, cards in _DECKS.items()}
_LANDS_BY_SIZE = {len(cards): lands for lands, cards in _DECKS.items()}
_BY_TEXT = {text: DECK[code] for code, text in enumerate(_CARD_TEXT)}
_LAND_WORDS = {land.value: land for land in Land}
_ANIMAL_WORDS = {animal.value: animal for animal in Animal} | {"rhino": Animal.RHINOCEROS}
_NOISE = {"of", "the", "a", "an"}


def parse_card(text: str) -> Card:
    """Read one card: its code (``D5``, ``s9``) or words (``desert snake``, ``eagle 9``)."""
    check_length(text)
    compact = text.strip().upper()
    card = _BY_TEXT.get(compact)
    if card is not None:
        return card
    words = [w for w in re.split(r"[\s,]+", text.strip().lower()) if w and w not in _NOISE]
    lands = [_LAND_WORDS[w] for w in words if w in _LAND_WORDS]
    animals = [_ANIMAL_WORDS[w] for w in words if w in _ANIMAL_WORDS]
    numbers = [int(w) if len(w) <= 2 else 0 for w in words if w.isascii() and w.isdigit()]
    if len(words) == len(lands) + len(animals) + len(numbers) and len(words) == 2:
        if animals == [Animal.EAGLE] and len(numbers) == 1 and 7 <= numbers[0] <= 10:
            return DECK[24 + numbers[0] - 7]
        if len(lands) == 1 and len(animals) == 1 and lands[0] is not Land.SKY:
            value = ANIMAL_BY_VALUE.index(animals[0])
            if animals[0] is not Animal.EAGLE:
                return DECK[LANDS.index(lands[0]) * 6 + value - 1]
    raise invalid(text, "a card such as D5, S9, 'desert snake' or 'eagle 9'")


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards as codes separated by spaces, ``-`` for none."""
    return " ".join(_CARD_TEXT[c.code] for c in cards) or "-"


class Stance(KeyEnum):
    """How an eagle played on a land it cannot follow is used."""

    FIGHT = "fight"
    """The eagle trumps: its player wins the trick."""
    FLEE = "flee"
    """The eagle flees: the leader wins the trick, the eagle goes to its player's pile."""


NUM_PILES = 4
HAND_SIZE = 6
PLAY_FIGHT_BASE = NUM_CARDS
PLAY_FLEE_BASE = NUM_CARDS + 4
RHINO_BASE = NUM_CARDS + 8
BLOCK_BASE = RHINO_BASE + NUM_PILES * (NUM_PILES - 1)
DECLINE_ID = BLOCK_BASE + NUM_PILES + 1
LEAD_BASE = DECLINE_ID + 1
NUM_ACTIONS = LEAD_BASE + 2


_INTERNED_PLAYS: dict[tuple[int, Stance | None], Play] = {}


@value(eq=False)
class Play:
    """Player action: play ``card``; ``stance`` only for an eagle on a land it cannot follow.

    Like cards, plays exist once each (``Play(card) is PLAYS[card.code]``) and compare by
    identity. Only eagles flee or fight: a stance on a land animal is no play at all, and
    making one raises :class:`InvalidActionError`, as reading ``play D5 flee`` does.
    """

    card: Card
    stance: Stance | None = None
    id: int = field(init=False, repr=False, metadata=_SKIP)
    """The action id: the card's code, or a fighting or fleeing eagle's id."""

    def __new__(cls, card: Card, stance: Stance | None = None) -> Play:
        if type(card) is not Card or not (stance is None or isinstance(stance, Stance)):
            raise invalid(f"{card!r} {stance!r}", "a card, and a stance or None")
        known = _INTERNED_PLAYS.get((card.code, stance))
        if known is not None:
            return known
        if stance is not None and not card.is_eagle:
            raise invalid(f"{card} {stance.value}", "flee or fight only with an eagle (S7 to S10)")
        play: Play = object.__new__(cls)
        return play

    def __post_init__(self) -> None:
        card, stance = self.card, self.stance
        if stance is None:
            action = card.code
        else:
            base = PLAY_FIGHT_BASE if stance is Stance.FIGHT else PLAY_FLEE_BASE
            action = base + card.code - 24
        object.__setattr__(self, "id", action)
        _INTERNED_PLAYS.setdefault((card.code, stance), self)

    def __reduce__(self) -> tuple[object, tuple[Card, Stance | None]]:
        return Play, (self.card, self.stance)

    def __str__(self) -> str:
        if self.stance is None:
            return f"play {self.card}"
        return f"play {self.card} {self.stance.value}"

    def __repr__(self) -> str:
        return f"Play.of({str(self)[5:]!r})"

    @classmethod
    def of(cls, text: str) -> Play:
        """The play written ``text`` without the verb: ``Play.of("D5")``, ``Play.of("S9 flee")``."""
        move = parse_move(f"play {text}")
        if not isinstance(move, Play):
            raise invalid(text, "a card, and flee or fight for an eagle")
        return move


PLAYS: tuple[Play, ...] = tuple(Play(card) for card in DECK)
"""``play C`` for every card, by code."""
FIGHTS: tuple[Play, ...] = tuple(Play(card, Stance.FIGHT) for card in EAGLES)
FLEES: tuple[Play, ...] = tuple(Play(card, Stance.FLEE) for card in EAGLES)


@value
class Rhino:
    """Player action: move the top card of the opponent's pile ``source`` under pile ``dest``.

    Piles are 0-based here and numbered from 1 in the text.
    """

    source: int
    dest: int

    def __str__(self) -> str:
        return f"move {self.source + 1} under {self.dest + 1}"


@value
class Block:
    """Player action: the snake blocks the face-up top card of the opponent's pile ``pile``
    (0-based), or with ``pile=None`` a card of their hand, picked blind by chance."""

    pile: int | None

    def __str__(self) -> str:
        return "block hand" if self.pile is None else f"block {self.pile + 1}"


@value
class Decline:
    """Player action: do not use the power of the rhinoceros or the snake just played."""

    def __str__(self) -> str:
        return "decline"

    def __repr__(self) -> str:
        return "Decline()"


@value
class Lead:
    """Player action: name who leads next: ``me`` (the chooser) or the opponent.

    Made by a player who has just played a cheetah (the next trick), and by the loser of a
    round (the first trick of the next round).
    """

    me: bool

    def __str__(self) -> str:
        return "lead me" if self.me else "lead opponent"


DECLINE = Decline()
LEAD_ME = Lead(me=True)
LEAD_OPPONENT = Lead(me=False)


@value
class Deal:
    """Chance outcome: the whole deal of a round, per player: the four face-down pile cards,
    the four face-up cards laid on them (pile 1 to 4), and the six hand cards.

    Text: ``deal DOWN / UP / HAND | DOWN / UP / HAND``, seat 0 first, e.g.
    ``deal G1 G2 G3 G4 / G5 G6 D1 D2 / D3 D4 D5 D6 M1 M2 | ...``.
    """

    down: tuple[tuple[Card, ...], ...]
    up: tuple[tuple[Card, ...], ...]
    hands: tuple[tuple[Card, ...], ...]

    def __str__(self) -> str:
        return "deal " + " | ".join(
            f"{cards_text(self.down[p])} / {cards_text(self.up[p])} / {cards_text(self.hands[p])}"
            for p in range(2)
        )

    def __repr__(self) -> str:
        return f"Deal.of({str(self)[5:]!r})"

    def text_for(self, viewer: int | None) -> str:
        """The deal as ``viewer`` sees it: face-down cards and other hands as ``??``."""

        def hidden(cards: tuple[Card, ...]) -> str:
            return " ".join("??" for _ in cards)

        return "deal " + " | ".join(
            f"{hidden(self.down[p])} / {cards_text(self.up[p])} / "
            f"{cards_text(self.hands[p]) if p == viewer else hidden(self.hands[p])}"
            for p in range(2)
        )

    def shown_to(self, viewer: int | None) -> DealShown:
        """What ``viewer`` sees of the deal."""
        return DealShown(self.up, None if viewer is None else self.hands[viewer])

    def cards(self) -> list[Card]:
        """Every card of the deal."""
        return [c for p in range(2) for c in (*self.down[p], *self.up[p], *self.hands[p])]

    def is_complete(self, lands: int = LANDS_IN_PLAY) -> bool:
        """True when the deal gives each player 4 + 4 + 6 cards and uses the 28 once each
        (with fewer ``lands``: one face-down and one face-up card per land, the rest of the
        half in hand, and every card of :func:`deck_of` once)."""
        down, up, hands = self.down, self.up, self.hands
        if not (len(down) == len(up) == len(hands) == 2):
            return False
        if not (len(down[0]) == len(down[1]) == len(up[0]) == len(up[1]) == lands):
            return False
        if not (len(hands[0]) == len(hands[1]) == hand_size_of(lands)):
            return False
        cards = (*down[0], *up[0], *hands[0], *down[1], *up[1], *hands[1])
        try:
            return _DECK_SETS[lands].issuperset(cards) and len(set(cards)) == len(_DECKS[lands])
        except (TypeError, KeyError):  # something unhashable (not a card), or no such deck
            return False

    @property
    def lands(self) -> int:
        """The lands in play this deal is for (its piles per player)."""
        return len(self.down[0]) if self.down else 0

    @classmethod
    def of(cls, text: str) -> Deal:
        """The deal written ``text`` (without the word ``deal``)."""
        return _parse_deal(text, f"deal {text}")

    @classmethod
    def from_order(cls, cards: list[Card] | tuple[Card, ...]) -> Deal:
        """The deal that hands out ``cards`` in order: seat 0's four face-down, four face-up
        and six hand cards, then seat 1's; hands are kept sorted. A shorter order is a deal of
        fewer lands (:func:`deck_of`): one face-down and one face-up card per land."""
        if len(cards) == NUM_CARDS:
            return cls(
                down=(tuple(cards[0:4]), tuple(cards[14:18])),
                up=(tuple(cards[4:8]), tuple(cards[18:22])),
                hands=(
                    tuple(sorted(cards[8:14], key=card_code)),
                    tuple(sorted(cards[22:28], key=card_code)),
                ),
            )
        lands = _LANDS_BY_SIZE.get(len(cards), 0)
        half = len(cards) // 2
        return cls(
            down=(tuple(cards[0:lands]), tuple(cards[half : half + lands])),
            up=(tuple(cards[lands : 2 * lands]), tuple(cards[half + lands : half + 2 * lands])),
            hands=(
                tuple(sorted(cards[2 * lands : half], key=card_code)),
                tuple(sorted(cards[half + 2 * lands :], key=card_code)),
            ),
        )


@value
class DealShown:
    """What one viewer sees of a deal: both players' face-up pile cards (pile 1 to 4) and,
    for a player, their own hand (``None`` for a spectator). Nobody sees a face-down card."""

    up: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...] | None


@value
class TieBreak:
    """Chance outcome: ``player`` leads the first round (the crowns on the face-up cards tie)."""

    player: int

    def __str__(self) -> str:
        return f"tiebreak {self.player}"


@value
class Pick:
    """Chance outcome: the snake's blind pick falls on this card of the opponent's hand."""

    card: Card

    def __str__(self) -> str:
        return f"pick {self.card}"

    def __repr__(self) -> str:
        return f"Pick(Card.of({str(self.card)!r}))"


Action = Play | Rhino | Block | Decline | Lead
Outcome = Deal | TieBreak | Pick
AnyMove = Action | Outcome
MOVE_TYPES = (Play, Rhino, Block, Decline, Lead, Deal, TieBreak, Pick)
"""The types of Awimbawé's moves: a value of any other type is no move of the game."""


HIDDEN_PICK = "pick ??"
"""How a blind pick is shown to everyone but the owner of the picked card."""

_PILE = re.compile(r"^(?:pile\s*)?([1-4])$")


def _pile(word: str, text: str) -> int:
    match = _PILE.match(word.strip())
    if not match:
        raise invalid(text, "a pile number from 1 to 4")
    return int(match.group(1)) - 1


def _parse_deal(body: str, text: str) -> Deal:
    players = body.split("|")
    if len(players) != 2:
        raise invalid(text, "a deal: 'DOWN / UP / HAND | DOWN / UP / HAND' (seat 0 first)")
    rows: list[list[tuple[Card, ...]]] = [[], [], []]
    for part in players:
        groups = part.split("/")
        if len(groups) != 3:
            raise invalid(text, "three groups per player: face-down / face-up / hand")
        for index, group in enumerate(groups):
            rows[index].append(tuple(parse_card(w) for w in group.split()))
    hands = tuple(tuple(sorted(h, key=card_code)) for h in rows[2])
    deal = Deal(tuple(rows[0]), tuple(rows[1]), hands)
    if not deal.is_complete(len(rows[0][0])):
        raise invalid(
            text,
            "4 face-down, 4 face-up and 6 hand cards each, all 28 cards once (with fewer "
            "lands: one face-down and one face-up card per land each, and the rest in hand)",
        )
    return deal


_PLAY_VERBS = {"play", "p"}
_DECLINE_WORDS = {"decline", "pass", "no", "none"}


def parse_move(text: str) -> AnyMove:
    """Read a move in canonical text or a documented alias (not ``lead N``: see the state)."""
    check_length(text)
    stripped = text.strip()
    lowered = stripped.lower()
    word, _, rest = lowered.partition(" ")
    rest = rest.strip()
    if lowered in _DECLINE_WORDS:
        return DECLINE
    if word == "lead" and rest in {"me", "self", "myself"}:
        return LEAD_ME
    if word == "lead" and rest in {"opponent", "other", "you"}:
        return LEAD_OPPONENT
    if word == "deal":
        return _parse_deal(stripped[4:], text)
    if word == "tiebreak" and rest in {"0", "1"}:
        return TieBreak(int(rest))
    if word == "pick":
        return Pick(parse_card(rest))
    if word == "block":
        if rest in {"hand", "a hand card", "hand card"}:
            return Block(None)
        return Block(_pile(rest, text))
    if word in {"move", "rhino", "rhinoceros"}:
        parts = rest.replace("under", " ").replace(">", " ").split()
        if len(parts) != 2:
            raise invalid(text, "'move N under M' (the opponent's piles, 1 to 4)")
        return Rhino(_pile(parts[0], text), _pile(parts[1], text))
    body = rest if word in _PLAY_VERBS else lowered
    stance: Stance | None = None
    last = body.rsplit(" ", 1)
    if len(last) == 2 and last[1] in {"fight", "flee"}:
        stance, body = Stance(last[1]), last[0]
    try:
        card = parse_card(body)
    except ValueError:
        raise invalid(
            text,
            "'play D5', 'play S9 fight', 'move 1 under 3', 'block 2', 'block hand', "
            "'decline', 'lead me' or 'lead opponent'",
        ) from None
    if stance is not None and not card.is_eagle:
        raise invalid(text, "flee or fight only after an eagle (S7 to S10)")
    if stance is None:
        return PLAYS[card.code]
    return (FIGHTS if stance is Stance.FIGHT else FLEES)[card.code - 24]


def _action_table() -> tuple[Action, ...]:
    rhinos = [Rhino(s, d) for s in range(NUM_PILES) for d in range(NUM_PILES) if d != s]
    blocks = [Block(p) for p in range(NUM_PILES)] + [Block(None)]
    return (*PLAYS, *FIGHTS, *FLEES, *rhinos, *blocks, DECLINE, LEAD_ME, LEAD_OPPONENT)


ACTIONS: tuple[Action, ...] = _action_table()
"""Every player action, by action id."""
ACTION_TABLE: ActionTable[Action] = ActionTable(ACTIONS, "Awimbawé")
"""The action ids of every Awimbawé game (the options change none of them)."""
