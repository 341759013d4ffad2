"""Auweier: what one player sees (see docs/rules/auweier.md).

Every card before the females is public, with its owner and its place in the stack, and so are
the egg stacks, the eggs each player holds, the Weddings and passes of a wedding phase, the
cards each player has discarded, and how many cards each player has in hand and in the pile.
A player sees their own hand and the order of their own pile as far as they arranged it; a
shuffled part of the pile is shown as its cards without an order. Nobody sees another player's
hand or deck order, except cards everyone saw going back into a hand.

While the decks are set up, others learn only whose deck is being set up and whose are ready:
not how many cards a player has placed, nor whether their cards are being shuffled (a shuffle,
a spread or a first-game hand), so their stage shows as ``ORDER``. Pure: no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from spieltisch.core.game import PlayerId
from spieltisch.games.auweier.deck import cards_of, shuffled
from spieltisch.games.auweier.notation import DECK, NO_CARDS, Card, Colour, card_counts
from spieltisch.games.auweier.rules import (
    EGGS_PER_FEMALE,
    AuweierState,
    Config,
    Counts,
    Egg,
    End,
    Mating,
    Nests,
    Phase,
    Seat,
    Stack,
    Stage,
    score_eggs,
)


@dataclass(frozen=True, slots=True)
class StackView:
    """One player's cards before one female."""

    owner: Colour
    cards: tuple[Card, ...]
    """Bottom first: the order they were played in (place 1 is the bottom)."""
    total: int
    wedding: bool
    """The owner has a Wedding before this female in the wedding phase under way."""


@dataclass(frozen=True, slots=True)
class FemaleView:
    """A female, her egg stack and the cards before her."""

    colour: Colour
    neutral: bool
    """The third female of a two-player game, of no player's colour."""
    eggs_left: tuple[int, ...]
    """The egg cards still in her stack, top first (the top one goes to the next winner)."""
    stacks: tuple[StackView, ...]
    """Every player's stack before her, in seat order (empty ones too)."""
    closed: bool
    """She takes no more cards (all her eggs are gone and ``closed_nests`` is set)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What everyone knows about one player."""

    colour: Colour
    hand_size: int | None
    """Cards in hand (while the decks are set up: cards not placed yet, and ``None`` for
    another player's deck, which is set up in secret)."""
    pile_size: int | None
    """Cards in the draw pile (while the decks are set up: cards placed so far, and ``None``
    for another player's deck)."""
    ready: bool
    """The player's deck is set up (always, once the decks are dealt)."""
    shown: Counts
    """Cards everyone knows to be in this hand (swapped back, or a Lucky Eggs start)."""
    discarded: Counts
    """This player's cards that have left the game (Crows, eaten worms, cleared cards)."""
    eggs: tuple[Egg, ...]
    score: int
    weddings: tuple[Colour, ...]
    """Females this player has a Wedding before in the wedding phase under way."""
    passed: bool
    """Has passed, or takes no part, in the stage of the wedding phase under way."""
    false_worm_seen: tuple[Colour, ...]
    """Females this player's False Worm has lain before in the wedding phase under way."""


@dataclass(frozen=True, slots=True)
class AuweierView:
    """The table as one player (or a spectator, ``viewer`` ``None``) sees it."""

    viewer: PlayerId | None
    config: Config
    stage: Stage
    """The stage; while another player's deck is set up (not in Lucky Eggs) always ``ORDER``,
    even while it is being shuffled, so that nobody learns how it was built."""
    player: PlayerId
    """Whose go it is (whose deck is being arranged or shuffled; the last to move at the end)."""
    start_player: PlayerId
    """Who holds the start player card: the opener of the current or last wedding phase."""
    females: tuple[FemaleView, ...]
    players: tuple[PlayerView, ...]
    hand: Counts | None
    """The viewer's hand (while arranging: the cards not placed yet); ``None`` for a spectator."""
    pile_known: tuple[Card, ...]
    """The viewer's next cards to draw, in order, as far as they know the order."""
    pile_unknown: Counts
    """The rest of the viewer's pile: shuffled, so its order is unknown to them too."""
    last: Mating | None
    """What the last mating did."""
    end: End | None
    winners: frozenset[PlayerId]

    @property
    def my_hand(self) -> Counts:
        """The viewer's hand, or no cards for a spectator."""
        return self.hand if self.hand is not None else NO_CARDS


def view_of(state: AuweierState, viewer: PlayerId | None) -> AuweierView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    nests, phase, config = state.nests, state.phase, state.config
    stage = state.stage
    if stage in _SETUP and viewer != state.player and not config.lucky_eggs:
        stage = Stage.ORDER  # others do not learn that this deck is being shuffled
    hand: Counts | None = None
    pile_known: tuple[Card, ...] = ()
    pile_unknown = NO_CARDS
    if viewer is not None:
        seat = state.seats[viewer]
        hand = seat.hand
        pile_known = seat.pile[: seat.known]
        pile_unknown = card_counts(seat.pile[seat.known :])
    if phase is not None:
        start_player = phase.opener
    else:
        start_player = nests.last.opener if nests.last is not None else 0
    return AuweierView(
        viewer=viewer,
        config=config,
        stage=stage,
        player=state.player,
        start_player=start_player,
        females=_females(state),
        players=_players(state, viewer),
        hand=hand,
        pile_known=pile_known,
        pile_unknown=pile_unknown,
        last=nests.last,
        end=nests.end,
        winners=state.winners(),
    )


def _weddings(state: AuweierState) -> tuple[int, ...]:
    """Each player's weddings on the table, as a mask of females (none outside a phase)."""
    phase = state.phase
    return phase.weddings if phase is not None else (0,) * state.config.players


def _females(state: AuweierState) -> tuple[FemaleView, ...]:
    """The females: their eggs left and every player's worm stack before each."""
    config, weddings = state.config, _weddings(state)
    return tuple(
        FemaleView(
            colour=Colour(f),
            neutral=f >= config.players,
            eggs_left=tuple(range(laid + 1, EGGS_PER_FEMALE + 1)),
            stacks=tuple(
                StackView(Colour(p), seat.stacks[f], state.totals[f][p], bool(weddings[p] >> f & 1))
                for p, seat in enumerate(state.seats)
            ),
            closed=config.closed_nests and laid >= EGGS_PER_FEMALE,
        )
        for f, laid in enumerate(state.nests.laid)
    )


def _players(state: AuweierState, viewer: PlayerId | None) -> tuple[PlayerView, ...]:
    """What everyone knows of each player; while decks are set up, others' sizes stay unknown."""
    nests, phase, config = state.nests, state.phase, state.config
    setup, weddings = state.stage in _SETUP, _weddings(state)
    return tuple(
        PlayerView(
            colour=Colour(p),
            hand_size=None if setup and p != viewer else sum(seat.hand),
            pile_size=None if setup and p != viewer else len(seat.pile),
            ready=not setup or p < state.player,
            shown=seat.shown,
            discarded=_discarded(seat),
            eggs=nests.won[p],
            score=score_eggs(p, nests.won[p]),
            weddings=_colours(weddings[p], config.females),
            passed=phase is not None and bool(phase.passed >> p & 1),
            false_worm_seen=_colours(phase.false_worm_seen[p], config.females)
            if phase is not None
            else (),
        )
        for p, seat in enumerate(state.seats)
    )


def _colours(mask: int, females: int) -> tuple[Colour, ...]:
    return tuple(Colour(f) for f in range(females) if mask >> f & 1)


def _mask(colours: tuple[Colour, ...]) -> int:
    return sum(1 << colour for colour in colours)


def _discarded(seat: Seat) -> Counts:
    """The cards of ``seat``'s deck that are in no hand, pile or stack any more."""
    kept = card_counts(seat.pile + tuple(card for stack in seat.stacks for card in stack))
    return tuple(d - h - k for d, h, k in zip(DECK, seat.hand, kept, strict=True))


def state_of(view: AuweierView, rng: random.Random) -> AuweierState:
    """A state that shows ``view`` to its viewer, with what they cannot see drawn at random.

    Other players' hands and piles are dealt from their cards that are neither on the table
    nor discarded, keeping the cards known to be in a hand. While decks are set up, a ready
    deck is the whole deck in a random order, and a deck not ready yet has no card placed (in
    Lucky Eggs: just the Wedding and the False Worm), since the view does not tell how far it
    has got. The viewer's shuffled cards are put in a random order. One more fact is public:
    the game has not ended, so another player due to play a normal turn holds a card they can
    play; deals that break it are drawn again. Every deal that fits the view is equally likely
    (see :meth:`AuweierState.redeal_hidden`).
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
    shown = view.players[view.viewer].shown
    return Seat(view.hand, pile, len(view.pile_known), shown, stacks)


def _other_seat(
    view: AuweierView, info: PlayerView, stacks: tuple[Stack, ...], rng: random.Random
) -> Seat:
    if view.stage in _SETUP:
        start = (Card.WEDDING, Card.FALSE_WORM) if view.config.lucky_eggs else ()
        rest = tuple(d - s for d, s in zip(DECK, card_counts(start), strict=True))
        if info.ready:
            return Seat(
                NO_CARDS, start + shuffled(cards_of(rest), rng), len(start), NO_CARDS, stacks
            )
        return Seat(rest, start, len(start), NO_CARDS, stacks)
    assert info.hand_size is not None  # play has begun: every hand size is public
    on_table = card_counts(tuple(card for stack in stacks for card in stack))
    unseen = tuple(
        d - t - x - s for d, t, x, s in zip(DECK, on_table, info.discarded, info.shown, strict=True)
    )
    cards = shuffled(cards_of(unseen), rng)
    free = info.hand_size - sum(info.shown)
    hand = tuple(a + b for a, b in zip(info.shown, card_counts(cards[:free]), strict=True))
    return Seat(hand, cards[free:], 0, info.shown, stacks)


_SETUP = (Stage.ORDER, Stage.SHUFFLE, Stage.SPREAD)


__all__ = ["AuweierView", "FemaleView", "PlayerView", "StackView", "state_of", "view_of"]
