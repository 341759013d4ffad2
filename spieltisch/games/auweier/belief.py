"""Auweier: belief, for search and the hidden-information tests (see docs/rules/auweier.md).

:func:`sample_state` draws a whole state that shows a player's view, dealing what the player
cannot see at random (:func:`state_of`, the inverse of the view); :func:`redeal_hidden` draws
a state an observer cannot tell from a given one. Pure: every random draw comes from the
generator passed in.
"""

from __future__ import annotations

import random

from spieltisch.core.game import Game, PlayerId, State
from spieltisch.games.auweier.deck import cards_of, shuffled
from spieltisch.games.auweier.model import EGGS_PER_FEMALE, SETUP_STAGES, Counts, Stack, Stage
from spieltisch.games.auweier.notation import NO_CARDS, Card, Colour, card_counts
from spieltisch.games.auweier.rules import AuweierState, Nests, Phase, Seat
from spieltisch.games.auweier.view import AuweierView, PlayerView

_CARDS = tuple(Card)


def sample_state(game: Game, view: object, rng: random.Random) -> AuweierState:
    """A state of ``game`` that shows ``view`` to its viewer, with their unseen cards dealt at
    random (the view holds the config, so ``game`` only names the game it is for)."""
    del game
    if not isinstance(view, AuweierView):
        raise TypeError(f"not an Auweier view: {type(view).__name__}")
    return state_of(view, rng)


def state_of(view: AuweierView, rng: random.Random) -> AuweierState:
    """A state that shows ``view`` to its viewer, with what they cannot see drawn at random.

    Other players' hands and piles are dealt from their cards that are neither on the table
    nor discarded, keeping the cards known to be in a hand. While decks are set up, a ready
    deck is the whole deck in a random order, and a deck not ready yet has no card placed (in
    Lucky Eggs: just the Wedding and the False Worm), since the view does not tell how far it
    has got. The viewer's shuffled cards are put in a random order. One more fact is public:
    the game has not ended, so another player due to play a normal turn holds a card they can
    play; deals that break it are drawn again. Every deal that fits the view is equally likely
    (see :func:`redeal_hidden`).
    """
    config = view.config
    stacks = [
        tuple(female.stacks[p].cards for female in view.females) for p in range(config.players)
    ]
    seats = [
        _own_seat(view, stacks[p], rng)
        if p == view.viewer
        else _other_seat(view, info, stacks[p], rng)
        for p, info in enumerate(view.players)
    ]
    nests = Nests(
        config,
        tuple(EGGS_PER_FEMALE - len(female.eggs_left) for female in view.females),
        tuple(info.eggs for info in view.players),
        view.last,
        view.end,
    )
    phase = None
    if view.stage is Stage.WEDDINGS or view.stage is Stage.WORMS:
        phase = Phase(
            view.start_player,
            tuple(_mask(info.weddings) for info in view.players),
            sum(1 << p for p, info in enumerate(view.players) if info.passed),
            tuple(_mask(info.false_worm_seen) for info in view.players),
        )
    totals = tuple(tuple(s.total for s in female.stacks) for female in view.females)
    state = AuweierState(nests, view.stage, view.player, tuple(seats), totals, phase)
    mover = view.player
    if view.stage is not Stage.PLAY or mover == view.viewer:
        return state
    for _ in range(MAX_REDEALS):
        if state.legal_actions():
            return state
        seats[mover] = _other_seat(view, view.players[mover], stacks[mover], rng)
        state = AuweierState(nests, view.stage, mover, tuple(seats), totals, phase)
    raise ValueError("no deal of the unseen cards lets the player to move play a card")


MAX_REDEALS = 10_000
"""Deals tried for a player due to move before giving up (a real view never needs many)."""


def _own_seat(view: AuweierView, stacks: tuple[Stack, ...], rng: random.Random) -> Seat:
    assert view.hand is not None and view.viewer is not None  # a player's own view
    pile = view.pile_known + shuffled(cards_of(view.pile_unknown), rng)
    info = view.players[view.viewer]
    return Seat(view.hand, pile, len(view.pile_known), info.shown, stacks, _roamed(view, info))


def _other_seat(
    view: AuweierView, info: PlayerView, stacks: tuple[Stack, ...], rng: random.Random
) -> Seat:
    if view.stage in SETUP_STAGES:
        start = view.config.lucky_start if view.config.lucky_eggs else ()
        rest = tuple(d - s for d, s in zip(view.config.deck, card_counts(start), strict=True))
        if info.ready:
            return Seat(
                NO_CARDS, start + shuffled(cards_of(rest), rng), len(start), NO_CARDS, stacks
            )
        return Seat(rest, start, len(start), NO_CARDS, stacks)
    assert info.hand_size is not None  # play has begun: every hand size is public
    on_table = card_counts(tuple(card for stack in stacks for card in stack))
    deck = view.config.deck
    unseen = tuple(
        d - t - x - s for d, t, x, s in zip(deck, on_table, info.discarded, info.shown, strict=True)
    )
    cards = shuffled(cards_of(unseen), rng)
    free = info.hand_size - sum(info.shown)
    hand = tuple(a + b for a, b in zip(info.shown, card_counts(cards[:free]), strict=True))
    return Seat(hand, cards[free:], 0, info.shown, stacks, _roamed(view, info))


def _roamed(view: AuweierView, info: PlayerView) -> int:
    """The player's :attr:`Seat.roamed`: outside a wedding phase the females their False Worm
    has lain before since the last mating, as the view shows them (none without
    ``false_worm_limit=always``)."""
    return 0 if view.stage in (Stage.WEDDINGS, Stage.WORMS) else _mask(info.false_worm_seen)


def _mask(colours: tuple[Colour, ...]) -> int:
    return sum(1 << colour for colour in colours)


def redeal_hidden(state: State, observer: PlayerId | None, rng: random.Random) -> AuweierState:
    """Redraw what ``observer`` cannot see: other players' hands and piles (keeping the
    cards known to be in a hand), and the shuffled part of every pile, their own too.

    Draws are uniform over the unseen cards, except that another player due to play a
    normal turn is always dealt a hand they can play from (the game has not ended, which
    everyone knows); they ignore that a ``spread`` shuffle put the Weddings evenly apart,
    which the observer may know of their own pile. While another player's deck is set up,
    the cards placed so far are drawn afresh, but how many there are and whether they are
    being shuffled is kept: the observer cannot see either (see the view), but drawing
    them would take a model of how players build decks. With ``stuck_player=passes``,
    the hands of players passed over are not held to having been stuck.
    """
    if not isinstance(state, AuweierState):
        raise TypeError(f"not an Auweier state: {type(state).__name__}")
    true, stage = state, state.stage
    setup: Stage | None = None
    if stage is Stage.ORDER or true.is_chance():
        setup = Stage.SHUFFLE if true.config.lucky_eggs else Stage.ORDER
    deck = true.config.deck
    seats = [
        _redeal_seat(seat, p == observer, setup, deck, rng) for p, seat in enumerate(true.seats)
    ]
    state = AuweierState(true.nests, stage, true.player, tuple(seats), true.totals, true.phase)
    mover = true.player
    while stage is Stage.PLAY and mover != observer and not state.legal_actions():
        seats[mover] = _redeal_seat(true.seats[mover], False, None, deck, rng)
        state = AuweierState(true.nests, stage, mover, tuple(seats), true.totals, true.phase)
    return state


def _redeal_seat(
    seat: Seat, own: bool, setup: Stage | None, deck: Counts, rng: random.Random
) -> Seat:
    """``seat`` with what the observer cannot see drawn afresh: the shuffled part of the pile
    if the seat is the observer's own (or in a Lucky Eggs setup, where no deck has secrets);
    else the cards placed so far (``setup`` is ``ORDER``), or the hand and the pile."""
    pile, known = seat.pile, seat.known
    if own or setup is Stage.SHUFFLE:
        if known >= len(pile):
            return seat
        rest = list(pile[known:])
        rng.shuffle(rest)
        return Seat(
            seat.hand, pile[:known] + tuple(rest), known, seat.shown, seat.stacks, seat.roamed
        )
    if setup is not None:
        cards = [_CARDS[k] for k, n in enumerate(deck) for _ in range(n)]
        rng.shuffle(cards)
        hand = card_counts(tuple(cards[len(pile) :]))
        return Seat(hand, tuple(cards[: len(pile)]), known, seat.shown, seat.stacks, seat.roamed)
    unseen = list(pile)
    for k, n in enumerate(seat.hand):
        unseen += [_CARDS[k]] * (n - seat.shown[k])
    rng.shuffle(unseen)
    free = len(unseen) - len(pile)
    hand = tuple(a + b for a, b in zip(seat.shown, card_counts(tuple(unseen[:free])), strict=True))
    return Seat(hand, tuple(unseen[free:]), known, seat.shown, seat.stacks, seat.roamed)
