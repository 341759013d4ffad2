"""Awimbawé: belief sampling, a complete state drawn from one player's view (for search).

Everything the view shows is kept: the viewer's hand, every face-up card, the trick, the last
trick, the scoring piles, the blocks, the round's memory. What the viewer cannot see is drawn:
the opponent's hand (a spectator's view: both hands) and every face-down pile card, the
viewer's own too, since nobody has looked at them. The cards drawn are the *unseen* ones: the
28 less the viewer's hand, the face-up pile cards, the current trick, the cards of the earlier
tricks and any hand card shown by a blind pick (which goes back to its hand). Future chance is
not part of a state, so the next deal and the next blind pick stay fresh.

**The distribution is exact.** The deal of a round is uniform, and each public move maps one
deal to one hidden position, so given the public play the hidden position is uniform among
those that agree with it, except for the snake's blind picks, which are chance steps whose
cards the viewer may not know. Counting those picks as hidden too, every (position, picks)
pair that agrees with the play is equally likely (each pick was uniform among a number of
cards that everyone can count). Agreeing with the play means:

* a player's hand holds no card of a land they were found void in (``Memory.void``), besides
  the cards a shown blind pick revealed, which are in it; face-down cards may be anything;
* a blind void (``BlindVoid``) allows hands with up to ``picks`` cards of its lands, each such
  hand counted once per pick sequence that explains it (:meth:`BlindVoid.weight`);
* a hand card blocked by a blind pick the viewer did not see is any of the hand's cards:
  every choice is explained by the same number of pick sequences.

So the sampler draws the hidden hands uniformly among those that respect the voids, by
*constrained dealing*: with one hidden hand, its cards are a uniform sample of the unseen
cards whose land it may hold; with two (a spectator), it first draws how many cards of the
lands both may hold go to each hand, with probability proportional to the number of hand pairs
with those counts, then the cards. Blind voids are rare; when there are any, the hands are
drawn again until accepted with probability ``weight / largest weight`` (rejection), which
gives each hand its exact weight. The unseen cards left over are shuffled onto the face-down
places, each order equally likely; blind blocks fall on a uniform choice of hand cards.

Two doors lead to the same drawing (``_redraw``): :func:`sample_state` reads what is hidden
and what is known from a view, and :func:`redeal_hidden` reads it from the state's own fields
(the cards in the places the observer cannot see, and the round's memory), never from a view.
So a view that wrongly shows a hidden card is caught by comparing views before and after a
redeal, instead of being kept by it. Pure: no I/O.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence

from spieltisch.core.fast import value
from spieltisch.core.game import Game, PlayerId, State
from spieltisch.games.awimbawe.memory import (
    EMPTY_MEMORY,
    BlindVoid,
    Memory,
    bits_lands,
    lands_bits,
)
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.notation import Card, Land, card_code, deck_of
from spieltisch.games.awimbawe.rules import Awimbawe, AwimbaweState, Match, Side, Tally
from spieltisch.games.awimbawe.view import AwimbaweView, SideView

ATTEMPTS = 100_000
"""Draws of the hands before a view whose blind voids no hand satisfies is given up."""

_BY_CODE = card_code


@value
class HiddenHand:
    """What is known of a hand whose cards are drawn: how many to draw, and the facts the play
    has shown about it (see ``memory``)."""

    unknown: int
    """Hand cards to draw (the hand less its ``shown`` cards)."""
    void: tuple[Land, ...]
    blind: tuple[BlindVoid, ...]
    shown: tuple[Card, ...]
    """Cards known to be in the hand (shown by a blind pick), in card order."""


Piles = tuple[tuple[Card | None, ...], ...]
"""A player's piles, bottom card first; ``None`` is a face-down place, to be filled."""


@value
class Seat:
    """One player's cards as the observer knows them: the seen ones where they lie, and the
    places to fill."""

    piles: Piles
    hand: tuple[Card, ...] | HiddenHand
    """The hand's cards if the observer sees them, else what is known of it."""
    blocked: tuple[Card, ...]
    """The blocked cards the observer can name, in card order."""
    blind_blocks: int
    """Blocked hand cards the observer cannot name: drawn among the hand's other cards."""


def sample_state(game: Game, view: object, rng: random.Random) -> AwimbaweState:
    """A state of ``game`` that shows ``view`` to its viewer, the unseen cards drawn exactly
    (see above).

    Raises :class:`TypeError` for anything but an Awimbawé game and view, and
    :class:`ValueError` for a view of other options or one no state can show.
    """
    if not isinstance(view, AwimbaweView):
        raise TypeError(f"not an Awimbawé view: {type(view).__name__}")
    if not isinstance(game, Awimbawe):
        raise TypeError(f"not Awimbawé: {game!r}")
    config = game.config
    if view.config != config.variant:
        raise ValueError(f"the view is of options {view.config}, not {config.variant}")
    views = view.sides
    sides = _redraw(_unseen(view), [_view_seat(side) for side in views], rng)
    return AwimbaweState(
        Match(config, view.round, (views[0].wins, views[1].wins), view.results, view.round_leader),
        sides,
        tuple(Tally(side.scoring_pile, side.crowns, side.hyenas) for side in views),
        view.stage,
        _actor(view),
        view.trick,
        view.next_leader,
        view.last_trick,
        _memory(views),
    )


def redeal_hidden(state: State, observer: PlayerId | None, rng: random.Random) -> AwimbaweState:
    """``state`` with every card ``observer`` cannot see redrawn among the places they cannot
    see: the other hand (both hands for a spectator) and every face-down pile card, both
    players'. Read from the state's own fields, never from a view; each hidden place keeps
    its size, a hidden hand keeps its shown cards and the round's voids and blind voids, and
    blocks the observer cannot name fall on the new hand as a blind pick would. Drawn as
    exactly as :func:`sample_state` draws from a faithful view (the same cards, in the same
    way). Raises :class:`TypeError` for a state of another game."""
    if not isinstance(state, AwimbaweState):
        raise TypeError(f"not an Awimbawé state: {type(state).__name__}")
    pool = _hidden_cards(state, observer)
    if not pool:
        return state
    seats = [_state_seat(state, p, p == observer) for p in range(len(state.sides))]
    return AwimbaweState(
        state.match,
        _redraw(pool, seats, rng),
        state.tallies,
        state.stage,
        state.actor,
        state.trick,
        state.next_leader,
        state.last_trick,
        state.memory,
    )


def _hidden_cards(state: AwimbaweState, observer: PlayerId | None) -> list[Card]:
    """The cards ``observer`` cannot see, in card order: every face-down card, and the cards
    of the other hands besides those a shown blind pick revealed."""
    cards = [c for side in state.sides for c in side.down]
    for p, side in enumerate(state.sides):
        if p != observer:
            shown = state.memory.shown[p]
            cards.extend(c for c in side.hand if c not in shown)
    return sorted(cards, key=_BY_CODE)


def _state_seat(state: AwimbaweState, seat: PlayerId, seen: bool) -> Seat:
    """Seat ``seat`` of ``state`` for an observer who sees its hand (``seen``) or not."""
    side = state.sides[seat]
    down = side.down
    piles = tuple(tuple(None if c in down else c for c in pile) for pile in side.piles)
    if seen:
        return Seat(piles, side.hand, _sorted(side.blocked), 0)
    memory = state.memory
    shown = memory.shown[seat]
    unknown = sum(1 for c in side.hand if c not in shown)
    void = bits_lands(memory.void[seat])
    hand = HiddenHand(unknown, void, memory.blind[seat], _sorted(shown))
    # A blocked hand card was picked blind: only its owner knows it, unless picks are shown.
    shown_picks = state.match.config.blind_pick_shown
    named = _sorted(c for c in side.blocked if shown_picks or c not in side.hand)
    return Seat(piles, hand, named, len(side.blocked) - len(named))


def _view_seat(side: SideView) -> Seat:
    """Seat of a side view: its hand if the viewer sees it, else what is known of it."""
    hand: tuple[Card, ...] | HiddenHand
    if side.hand is None:
        unknown = side.hand_size - len(side.shown)
        hand = HiddenHand(unknown, side.void, side.blind_voids, side.shown)
    else:
        hand = side.hand
    return Seat(side.piles, hand, side.blocked, side.blocked_unseen)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_BY_CODE))


def _redraw(pool: list[Card], seats: Sequence[Seat], rng: random.Random) -> tuple[Side, ...]:
    """The sides of ``seats`` with the ``pool`` (in card order) drawn onto the hidden hands,
    the rest shuffled onto the face-down places; blind blocks drawn among each hand's cards.

    Raises :class:`ValueError` when the pool does not fill the places or no hand agrees with
    the voids."""
    hidden = [seat.hand for seat in seats if isinstance(seat.hand, HiddenHand)]
    sizes = [hand.unknown for hand in hidden]
    places = sum(1 for seat in seats for pile in seat.piles for c in pile if c is None)
    if len(pool) != sum(sizes) + places or min(sizes, default=0) < 0:
        raise ValueError("the hidden places do not hold the hidden cards")
    voids = [hand.void for hand in hidden]
    blind = [(hand.blind, hand.shown) for hand in hidden]
    drawn = iter(_draw_hands(pool, voids, sizes, blind, rng))
    hands = [
        [*seat.hand.shown, *next(drawn)] if isinstance(seat.hand, HiddenHand) else seat.hand
        for seat in seats
    ]
    taken = {c for hand in hands for c in hand}
    rest = [c for c in pool if c not in taken]
    rng.shuffle(rest)
    places_left = iter(rest)
    return tuple(
        _side(seat, hand, places_left, rng) for seat, hand in zip(seats, hands, strict=True)
    )


def _unseen(view: AwimbaweView) -> list[Card]:
    """The cards the viewer has not seen, in card order (none between rounds)."""
    seen = 0
    in_play = False
    for side in view.sides:
        in_play = in_play or side.hand_size > 0 or any(side.piles)
        for pile in side.piles:
            for card in pile:
                if card is not None:
                    seen |= card.bit
        for card in side.hand if side.hand is not None else side.shown:
            seen |= card.bit
    if not in_play and not view.trick:
        return []
    for card in (*view.trick, *view.played):
        seen |= card.bit
    return [c for c in deck_of(view.config.lands) if not c.bit & seen]


def _draw_hands(
    pool: list[Card],
    voids: list[tuple[Land, ...]],
    sizes: list[int],
    blind: list[tuple[tuple[BlindVoid, ...], tuple[Card, ...]]],
    rng: random.Random,
) -> list[list[Card]]:
    """The hidden hand cards, drawn uniformly among hands that keep the voids, then accepted
    with probability proportional to their blind-void weight."""
    weighed = any(records for records, _ in blind)
    top = math.prod(record.weight(0) for records, _ in blind for record in records)
    for _ in range(ATTEMPTS):
        hands = _deal(pool, voids, sizes, rng)
        if not weighed:
            return hands
        weight = 1
        for hand, (records, shown) in zip(hands, blind, strict=True):
            for record in records:
                lands = record.lands
                weight *= record.weight(sum(1 for c in (*hand, *shown) if c.land in lands))
        if weight and rng.randrange(top) < weight:
            return hands
    raise ValueError("no hand agrees with the blind voids of the view")


def _deal(
    pool: list[Card], voids: list[tuple[Land, ...]], sizes: list[int], rng: random.Random
) -> list[list[Card]]:
    """Hands of ``sizes`` from ``pool``, none holding a land of its void, uniformly."""
    if not sizes:
        return []
    if len(sizes) == 1:
        void = voids[0]
        allowed = [c for c in pool if c.land not in void] if void else pool
        if len(allowed) < sizes[0]:
            raise ValueError("too few unseen cards of the lands the hand may hold")
        return [rng.sample(allowed, sizes[0])]
    # Two hidden hands: cards either may hold (both), only the first or only the second.
    both = [c for c in pool if c.land not in voids[0] and c.land not in voids[1]]
    first = [c for c in pool if c.land not in voids[0] and c.land in voids[1]]
    second = [c for c in pool if c.land in voids[0] and c.land not in voids[1]]
    size0, size1 = sizes
    splits = []
    for a0 in range(min(size0, len(both)) + 1):
        for a1 in range(min(size1, len(both) - a0) + 1):
            count = (
                math.comb(len(both), a0)
                * math.comb(len(both) - a0, a1)
                * math.comb(len(first), size0 - a0)
                * math.comb(len(second), size1 - a1)
            )
            if count:
                splits.append((a0, a1, count))
    if not splits:
        raise ValueError("too few unseen cards of the lands the hands may hold")
    draw = rng.randrange(sum(count for _, _, count in splits))
    chosen = 0
    while draw >= splits[chosen][2]:
        draw -= splits[chosen][2]
        chosen += 1
    a0, a1, _ = splits[chosen]
    shared = rng.sample(both, a0 + a1)
    return [
        shared[:a0] + rng.sample(first, size0 - a0),
        shared[a0:] + rng.sample(second, size1 - a1),
    ]


def _side(seat: Seat, hand: Sequence[Card], places: Iterator[Card], rng: random.Random) -> Side:
    """The side of ``seat`` with ``hand`` and its face-down places taken from ``places``; the
    blind blocks fall on a uniform choice of the hand's other cards."""
    down = []
    piles = []
    for pile in seat.piles:
        cards = []
        for shown in pile:
            card = next(places) if shown is None else shown
            if shown is None:
                down.append(card)
            cards.append(card)
        piles.append(tuple(cards))
    blocked = list(seat.blocked)
    if seat.blind_blocks:
        free = [c for c in hand if c not in blocked]
        blocked.extend(rng.sample(free, seat.blind_blocks))
    return Side(
        tuple(sorted(hand, key=_BY_CODE)), tuple(piles), frozenset(down), frozenset(blocked)
    )


def _actor(view: AwimbaweView) -> int:
    """Who the state's ``actor`` is: the decider, the snake's player at a blind pick, or else
    the leader (the one who named it, or will, between rounds)."""
    if view.to_act is not None:
        return view.to_act
    if view.stage is Stage.BLIND_PICK and view.power_of is not None:
        return view.power_of
    return view.leader


def _memory(views: tuple[SideView, ...]) -> Memory:
    if not any(side.void or side.blind_voids or side.shown for side in views):
        return EMPTY_MEMORY
    return Memory(
        tuple(lands_bits(side.void) for side in views),
        tuple(side.blind_voids for side in views),
        tuple(frozenset(side.shown) for side in views),
    )


__all__ = ["ATTEMPTS", "HiddenHand", "Seat", "redeal_hidden", "sample_state"]
