"""Awimbawé: what both players remember of a round beyond the cards on the table.

Every card played is seen by both players, so the cards of the earlier tricks follow from the
table (the view lists them). What does not follow from the table is what the play revealed
about the hands, and a good player remembers that too:

* **Voids.** A player who answered a trick with a card of another land had no playable card of
  the led land; one who did not play an eagle either had no playable eagle. Hands only shrink
  during a round, so that player holds no hand card of those lands for the rest of the round.
  Face-down pile cards were never in the hand: they may well be of those lands when they turn
  up, and the player then plays them like any pile card.
* **Blind voids.** A card blocked by the snake counts as unavailable. If some of the player's
  hand cards were blocked at that moment, picked blind by the opponent's snake, nobody else
  knows which ones, so the fact is weaker: the hand held no *unblocked* card of those lands,
  and the blocked cards may have been of them. A card of those lands that the player later
  plays from hand must have been one of the picked cards. (If every available card was
  blocked, the blocks were lifted for that play and the fact is a plain void.)
* **Shown cards.** With ``blind_pick_shown`` the card a blind pick falls on is shown to both
  players, who then know it is in that hand until it is played. A void is then a void
  *besides the shown cards*.

The memory is part of the state (the rules keep it up to date with every move, as they do
the cards) and of every view, so it sits below both and knows nothing of either: the rules
hand it the few values of a player's cards that it needs. Pure: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import field

from spieltisch.core.codec import SKIP_FIELD
from spieltisch.core.fast import slot_setters, value
from spieltisch.games.awimbawe.notation import DECK, Card, Land

_SKIP = {SKIP_FIELD: True}
_NO_CARDS: frozenset[Card] = frozenset()
LAND_BIT = {land: 1 << index for index, land in enumerate(Land)}
"""Each land as one bit (the sky last), for sets of lands written as bits."""
ANSWER_VOID = tuple(
    tuple(
        0
        if led.land is card.land
        else LAND_BIT[led.land] | (0 if card.is_eagle else LAND_BIT[Land.SKY])
        for card in DECK
    )
    for led in DECK
)
"""By the codes of the led card and the answer: the lands the answer shows its player to
lack, as bits (none when it follows)."""
SEAT_SHIFT = 5
"""Both players' voids in one number: seat 0's lands in the low bits, seat 1's shifted."""
ANSWER_VOIDS = tuple(
    tuple(tuple(bits << SEAT_SHIFT * seat for bits in row) for row in ANSWER_VOID)
    for seat in range(2)
)
"""``ANSWER_VOID`` for each seat, shifted into place as in ``Memory.bits``."""


@value
class BlindVoid:
    """A player answered without a card of ``lands`` while ``picks`` of their hand cards,
    picked blind by the opponent's snake, were blocked: their hand then held no unblocked card
    of those lands."""

    lands: tuple[Land, ...]
    picks: int
    """Hand cards blocked blind at that moment (all picked since the player last played)."""
    candidates: int
    """Hand cards the picks may have fallen on: the player's hand then, less the card they
    answered with if it came from the hand (a blocked card cannot be played)."""
    resolved: int = 0
    """Cards of ``lands`` the player has played from hand since; each was a picked card."""

    def weight(self, held: int) -> int:
        """In how many ways the blind picks explain a hand that now holds ``held`` cards of
        ``lands``: the number of ordered pick sequences whose cards include every card of
        ``lands`` the hand held then (the ``held`` ones still there and the ``resolved`` ones
        played since). Zero means the hand is impossible."""
        needed = held + self.resolved
        picks = self.picks
        if needed > picks:
            return 0
        return math.perm(picks, needed) * math.perm(self.candidates - needed, picks - needed)

    @property
    def bits(self) -> int:
        """``lands`` as bits of ``LAND_BIT``."""
        return lands_bits(self.lands)


def lands_bits(lands: tuple[Land, ...] | frozenset[Land]) -> int:
    """Lands as bits of ``LAND_BIT``."""
    return sum(LAND_BIT[land] for land in lands)


def bits_lands(bits: int) -> tuple[Land, ...]:
    """The lands of ``bits``, in land order."""
    return tuple(land for land in Land if bits & LAND_BIT[land])


@value
class Memory:
    """What both players know of each player's hand from the play of this round (seat by
    seat; see the module docstring)."""

    void: tuple[int, ...]
    """The lands of which the player holds no hand card besides shown ones, as bits of
    ``LAND_BIT``."""
    blind: tuple[tuple[BlindVoid, ...], ...]
    """Voids weakened by blind picks, not yet settled."""
    shown: tuple[frozenset[Card], ...]
    """Hand cards a shown blind pick revealed, not played since."""
    watch: int = field(init=False, repr=False, compare=False, metadata=_SKIP)
    """Bit ``p`` set when a hand play of player ``p`` may change this memory (a cache)."""
    bits: int = field(init=False, repr=False, compare=False, metadata=_SKIP)
    """Both voids in one number (seat 1's shifted by ``SEAT_SHIFT``; a cache)."""

    def __post_init__(self) -> None:
        void, (b0, b1), (s0, s1) = self.void, self.blind, self.shown
        _SET_BITS(self, void[0] | void[1] << SEAT_SHIFT)
        _SET_WATCH(self, (1 if b0 or s0 else 0) | (2 if b1 or s1 else 0))

    def after_hand_play(self, player: int, card: Card) -> Memory:
        """The memory after ``player`` played ``card`` from their hand."""
        if not self.watch >> player & 1:
            return self
        void = self.void[player]
        kept = []
        for record in self.blind[player]:
            if card.land not in record.lands:
                kept.append(record)
                continue
            resolved = record.resolved + 1
            if resolved == record.picks:  # every pick is known: a plain void now
                void |= record.bits
            else:
                kept.append(BlindVoid(record.lands, record.picks, record.candidates, resolved))
        return self._with(player, void, tuple(kept), self.shown[player] - {card})

    def after_answer(
        self,
        player: int,
        hand: tuple[Card, ...],
        blocked: frozenset[Card],
        available_bits: int,
        led: Card,
        card: Card,
        shown: bool,
    ) -> Memory:
        """The memory after ``player`` answered ``led`` with ``card``, holding ``hand`` with
        ``blocked`` cards blocked and ``available_bits`` available (as bits of ``Card.bit``):
        the lands the answer shows the hand to lack are added, as a void or, if hand cards
        were blocked by blind picks that were not ``shown``, as a blind void."""
        lands = ANSWER_VOIDS[player][led.code][card.code]
        bits = self.bits
        if not lands & ~bits:  # nothing new
            return self
        if not blocked and not self.watch:  # the common case: a plain void, looked up
            return PLAIN_MEMORY[bits | lands]
        lands = ANSWER_VOID[led.code][card.code]
        void = self.void[player]
        blind = self.blind
        if blocked and not shown:
            blind_picks = sum(1 for c in blocked if c in hand)
            all_blocked = not available_bits & ~sum(c.bit for c in blocked)
            if blind_picks and not all_blocked:
                candidates = len(hand) - (card in hand)
                record = BlindVoid(bits_lands(lands), blind_picks, candidates)
                return self._with(player, void, (*blind[player], record), self.shown[player])
        void |= lands
        kept = tuple(r for r in blind[player] if r.bits & ~void)
        return self._with(player, void, kept, self.shown[player])

    def after_pick(self, player: int, card: Card) -> Memory:
        """The memory after a blind pick, shown to both, fell on ``card`` of ``player``."""
        return self._with(
            player, self.void[player], self.blind[player], self.shown[player] | {card}
        )

    def _with(
        self, player: int, void: int, blind: tuple[BlindVoid, ...], shown: frozenset[Card]
    ) -> Memory:
        if player == 0:
            return Memory((void, self.void[1]), (blind, self.blind[1]), (shown, self.shown[1]))
        return Memory((self.void[0], void), (self.blind[0], blind), (self.shown[0], shown))


(_SET_WATCH,) = slot_setters(Memory, "watch")
(_SET_BITS,) = slot_setters(Memory, "bits")
PLAIN_MEMORY = tuple(
    Memory((bits & 31, bits >> SEAT_SHIFT), ((), ()), (_NO_CARDS, _NO_CARDS))
    for bits in range(1 << 2 * SEAT_SHIFT)
)
"""The memories that hold voids only, by their ``bits``: the moves look them up."""
EMPTY_MEMORY = PLAIN_MEMORY[0]
"""What is known at the start of a round: nothing."""

__all__ = [
    "ANSWER_VOID",
    "ANSWER_VOIDS",
    "EMPTY_MEMORY",
    "LAND_BIT",
    "PLAIN_MEMORY",
    "BlindVoid",
    "Memory",
    "bits_lands",
    "lands_bits",
]
