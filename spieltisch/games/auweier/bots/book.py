"""Auweier's book: the heuristic's plan of a deck order, played step by step.

The book (:data:`BOOK`) answers the 22 deck-ordering decisions with the heuristic's own plan,
so a search agent spends no search on them; the plan fixes the deck's shape, and the agent's
own generator picks a fresh order of that shape each game, so nobody can learn a bot's deck by
watching it play. Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spieltisch.core.game import Move
from spieltisch.games.auweier.model import Stage
from spieltisch.games.auweier.notation import DECK, DECK_SIZE, Arrange, Card, parse_cards
from spieltisch.games.auweier.view import AuweierView

PLAN_TIERS: tuple[tuple[Card, ...], ...] = tuple(
    parse_cards(tier) for tier in ("7 6", "5* 2* 4 4 K", "3 3 F K 1", "2 2 1 1")
)
"""The heuristic's deck plan for the 16 cards other than Weddings: tier by tier, first card
first, each tier's cards in a random order. The first five of them are the starting hand.

* **Start strong**: the 7 and the 6 (tier 1) are always in the starting hand, so a clear lead
  before one female is down at once; three cards of tier 2 complete the hand: the crow-proof
  5* and 2* keep a lead safe from Crows (a Crow only eats the top card, never a starred one),
  the 4s answer the opponents' first worms, and the Crow eats them. The two tier-2 cards left
  over come in the first draws.
* **Middle, then small**: the 3s, the second Crow and the False Worm come when the table is
  full of worms to eat or to protect; the 1s and 2s at the end still top up a lead cheaply.
"""
WEDDING_PLACES: tuple[tuple[int, int], ...] = (
    (0, 5),
    (6, 8),
    (9, 11),
    (12, 14),
    (15, 17),
    (18, 21),
)
"""Where the plan puts the six Weddings: the k-th lies at one of the places ``a`` to ``b``
(0 is the first card of the deck; 0 to 5 is the starting hand), each place equally likely.

* **Weddings spread out**: one in the starting hand, then one in each stretch of three or four
  draws, so a Wedding is in hand whenever a lead is ready or an opponent opens a wedding phase
  (to join it), but the hand is never clogged with them.
"""


def plan_next(hand: Sequence[int], rng: random.Random, deck: Sequence[int] = DECK) -> Card:
    """The next card of the planned order for a deck whose cards not placed yet are ``hand``.

    Stateless: what was placed already is ``deck`` (the rulebook's, or the smaller one of the
    ``deck_cards`` parameter) less ``hand``; a smaller deck follows the same plan with the cards
    it lacks left out. A Wedding comes at a place of its stretch of :data:`WEDDING_PLACES` with
    equal chance (one that missed its stretch, in a deck begun off the plan, comes at once);
    otherwise the card is drawn uniformly from the cards left of the current tier of
    :data:`PLAN_TIERS`, the first one whose cards are not all placed (the cards placed are
    counted against the tiers in order). Every random choice comes from ``rng``, so a seeded
    generator gives the same deck again."""
    placed = [have - left for have, left in zip(deck, hand, strict=True)]
    place = sum(deck) - sum(hand)
    others_left = sum(hand) - hand[Card.WEDDING]
    if hand[Card.WEDDING] and (not others_left or _wedding_now(place, placed[Card.WEDDING], rng)):
        return Card.WEDDING
    unplaced = list(hand)
    for tier in PLAN_TIERS:
        left = []
        for card in tier:
            if placed[card]:
                placed[card] -= 1
            elif unplaced[card]:  # always, in the rulebook's deck
                left.append(card)
                unplaced[card] -= 1
        if left:
            return left[rng.randrange(len(left))]
    return next(Card(k) for k, n in enumerate(hand) if n)  # the tiers cover the deck: unreached


def _wedding_now(place: int, weddings_placed: int, rng: random.Random) -> bool:
    """Whether the next Wedding goes at ``place``: at each place of its stretch with the chance
    that makes all of them equally likely, and at its last place (or after it) for sure."""
    first, last = WEDDING_PLACES[weddings_placed]
    if place < first:
        return False
    return place >= last or rng.randrange(last - place + 1) == 0


def plan_deck(rng: random.Random) -> tuple[Card, ...]:
    """A whole deck order of the plan, first card first (what the book builds step by step)."""
    hand = list(DECK)
    order = []
    for _ in range(DECK_SIZE):
        card = plan_next(hand, rng)
        hand[card] -= 1
        order.append(card)
    return tuple(order)


def book(view: object, legal: Sequence[Move], rng: random.Random) -> Move | None:
    """The set moves of Auweier: each deck-ordering step is the next card of the heuristic's
    planned order (:func:`plan_next`, drawn with the agent's own generator ``rng``, so that no
    two games need start alike); every other decision is left to thought.

    The whole order could be typed as one ``deck ...`` line, but that line is not among the
    listed legal actions an agent chooses from, so the book answers each listed step instead
    (22 quick answers; a deck begun differently is finished as the plan would)."""
    if not isinstance(view, AuweierView) or view.stage is not Stage.ORDER or view.hand is None:
        return None
    step = Arrange((plan_next(view.hand, rng, view.config.deck),))
    return step if step in legal else None


BOOK = book
