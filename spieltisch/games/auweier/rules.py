"""Auweier: the state and its transitions (see docs/rules/auweier.md).

The game runs through stages: each player arranges their 22-card deck (``ORDER``; a shuffle of
the cards left is a chance step, ``SHUFFLE`` or ``SPREAD``), everyone takes six cards, and normal
turns follow (``PLAY``). An opening Wedding starts a wedding phase: the wedding stage
(``WEDDINGS``), then the worm stage (``WORMS``), then mating, the clean-up and the refill, and
the opener plays on. The game ends when the last egg is won or the player to move in normal
play has no card left (a player with only unusable cards passes, and if nobody can play the
game ends; option ``stuck_player``). The state builds each player's view and says how each
move looks to each viewer (deck steps and shuffles are secret). Pure: no I/O.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import field
from fractions import Fraction
from typing import Any, TypeVar

from spieltisch.core.codec import SKIP_FIELD
from spieltisch.core.errors import IllegalActionError
from spieltisch.core.fast import LegalCache, builder, remember_legal, slot_setters, value
from spieltisch.core.game import (
    ActionTable,
    Game,
    GameInfo,
    Hidden,
    Move,
    NodeKind,
    PlayerId,
    check_enumerable,
    illegal,
    invalid,
    not_a_move,
    options_of,
)
from spieltisch.core.words import N_
from spieltisch.games.auweier.deck import all_orders, count_orders, is_spread, sample_order
from spieltisch.games.auweier.model import (
    CROWS_BOTH_STAGES,
    EGGS_PER_FEMALE,
    EXCHANGE_DRAWS,
    FALSE_WORM_ALWAYS,
    MAX_SCORE,
    ORDER_ONWARD,
    SETUP_STAGES,
    STUCK_PASSES,
    Award,
    Config,
    Counts,
    Egg,
    End,
    Mating,
    Rule,
    Stack,
    Stage,
    crow_prey,
    score_eggs,
    uncounted_colour,
)
from spieltisch.games.auweier.notation import (
    ACTIONS,
    ARRANGE_ONE,
    COLOURS,
    CROW_FOOD,
    CROW_MOVES,
    HAND_SIZE,
    HIDDEN_DECK_TEXT,
    HIDDEN_SHUFFLE_TEXT,
    NO_CARDS,
    PASS,
    REAL_WORMS,
    STARTER_LOW,
    STARTER_MIDDLE,
    STARTER_PROOF,
    SWAP_MOVES,
    WEDDING_MOVES,
    WORM_CARDS,
    WORM_MOVES,
    Action,
    Arrange,
    Card,
    Colour,
    Pass,
    PlayCrow,
    PlayWedding,
    PlayWorm,
    Shuffled,
    ShuffleRest,
    Starter,
    Swap,
    card_counts,
    interned,
    parse_move,
    swap_short,
)
from spieltisch.games.auweier.view import AuweierView, FemaleView, PlayerView, StackView

ENUMERATE_LIMIT = 720
"""Shuffles with more distinct orders than this are sampled, not listed."""
FALSE_WORM = Card.FALSE_WORM
WEDDING = Card.WEDDING
CROW = Card.CROW


class _SeatCache:
    """The slots in which a seat keeps the parts of views it alone decides (no dataclass
    fields: not part of the value, nor of pickles or copies; a seat stays the same object from
    state to state until its player acts, so a view is mostly parts kept from earlier views):
    its stacks as views, its player's public view, and its own pile as its owner sees it.
    They are read with ``getattr`` and a default: a slot not set yet then costs less than the
    exception a plain read raises."""

    __slots__ = ("_own_pile", "_player_view", "_stack_views")
    _stack_views: tuple[int, int, tuple[StackView, ...]]
    """``(player, weddings, views)``: the stacks of ``player`` with Weddings at ``weddings``."""
    _player_view: PlayerView
    _own_pile: tuple[tuple[Card, ...], Counts]
    """``(pile_known, pile_unknown)`` of the owner's view."""


class _NestsCache:
    """The slots in which the nests keep the female views last built from them (checked part
    by part before they are used again) and the scores of the eggs won (no dataclass fields)."""

    __slots__ = ("_female_views", "_scores")
    _female_views: tuple[tuple[tuple[StackView, ...], ...], tuple[FemaleView, ...]]
    """``(parts, views)``: the female views and each seat's stack views they were built from."""
    _scores: tuple[int, ...]


@value
class Seat(_SeatCache):
    """One player's cards: hand, draw pile, and the stacks before the females."""

    hand: Counts
    """Cards in hand; while the decks are arranged, the cards not placed yet."""
    pile: tuple[Card, ...]
    """The draw pile, the next card to draw first."""
    known: int
    """How many cards at the front of the pile the owner knows the order of (the rest was
    shuffled face down)."""
    shown: Counts
    """Cards every player knows to be in this hand: swapped back from the table, or the
    Wedding and False Worm of a Lucky Eggs start, until a card of that kind is played."""
    stacks: tuple[Stack, ...]
    """The player's cards before each female, bottom first."""
    roamed: int = 0
    """With ``false_worm_limit=always``: bit mask of the females the player's False Worm has
    lain before in normal play since the last mating (or the deal); always 0 otherwise."""
    food: int = field(init=False, repr=False, compare=False, metadata={SKIP_FIELD: True})
    """Derived from ``stacks``, not part of the value: bit mask of the females where this
    seat's top card is a Crow's food."""
    false_worm: int = field(init=False, repr=False, compare=False, metadata={SKIP_FIELD: True})
    """Derived from ``stacks``, not part of the value: bit mask of the female where this
    seat's False Worm lies (0 when it is not on the table)."""

    # The transitions keep the derived masks up to date (they know what changed), so listing
    # Crows and exchanges never has to look through every stack.

    def __post_init__(self) -> None:
        object.__setattr__(self, "food", _food(self.stacks))
        object.__setattr__(self, "false_worm", _false_worm_at(self.stacks))


@value
class Nests(_NestsCache):
    """Everything that changes only at mating: the eggs and how the game ended."""

    config: Config
    laid: tuple[int, ...]
    """Eggs each female has given (0 to 3)."""
    won: tuple[tuple[Egg, ...], ...]
    """The egg cards each player holds, in the order won."""
    last: Mating | None
    end: End | None
    open: tuple[int, ...] = field(
        init=False, repr=False, compare=False, metadata={SKIP_FIELD: True}
    )
    """Derived from ``laid`` and the options, not part of the value: the females that take
    cards (all, or with ``closed_nests`` those with eggs left)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "open", _open_females(self.laid, self.config.closed_nests))


@value
class Phase:
    """A wedding phase in progress."""

    opener: PlayerId
    """Who played the opening Wedding (and holds the start player card)."""
    weddings: tuple[int, ...]
    """Each player's Weddings, as a bit mask of females."""
    passed: int
    """Bit mask of players who have passed in the current stage (or take no part in it)."""
    false_worm_seen: tuple[int, ...]
    """Each player's False Worm: bit mask of the females it has lain before in this phase."""


_EGGS = tuple(tuple(Egg(colour, n) for n in range(EGGS_PER_FEMALE + 1)) for colour in COLOURS)
"""``_EGGS[female][n]``: her egg card with ``n`` eggs (shared: egg cards are values)."""


@value
class AuweierState(LegalCache):
    """A position of Auweier. Build it with :meth:`Auweier.initial_state`."""

    nests: Nests
    stage: Stage
    player: PlayerId
    """Who acts (whose deck is arranged or shuffled; the last player to move at the end)."""
    seats: tuple[Seat, ...]
    totals: tuple[tuple[int, ...], ...]
    """``totals[female][player]``: the worm total of that player's stack before that female."""
    phase: Phase | None

    # --- protocol ------------------------------------------------------------------------

    @property
    def game(self) -> Auweier:
        return Auweier.of(self.nests.config)

    @property
    def config(self) -> Config:
        """Player count and options."""
        return self.nests.config

    @property
    def node(self) -> NodeKind:
        stage = self.stage
        if stage is _SHUFFLE_STAGE or stage is _SPREAD_STAGE:
            return NodeKind.CHANCE
        return NodeKind.TERMINAL if stage is _OVER else NodeKind.DECISION

    def is_terminal(self) -> bool:
        return self.stage is _OVER

    def is_chance(self) -> bool:
        stage = self.stage
        return stage is _SHUFFLE_STAGE or stage is _SPREAD_STAGE

    def current_player(self) -> PlayerId | None:
        stage = self.stage
        if stage is _OVER or stage is _SHUFFLE_STAGE or stage is _SPREAD_STAGE:
            return None
        return self.player

    def work_out_legal(self) -> tuple[Action, ...]:
        return _legal_actions(self)

    def chance_outcomes(self) -> Sequence[tuple[Shuffled, Fraction]]:
        if not self.is_chance():
            return ()
        rest = self.seats[self.player].hand
        spread = self.stage is _SPREAD_STAGE
        orders = count_orders(rest, spread)
        check_enumerable(orders, ENUMERATE_LIMIT, "this shuffle")
        chance = Fraction(1, orders)
        return tuple((Shuffled(order), chance) for order in all_orders(rest, spread))

    def sample_chance(self, rng: random.Random) -> Shuffled:
        if not self.is_chance():
            raise illegal("shuffled", Rule.PLAYER_NOW.value)
        hand = self.seats[self.player].hand
        return Shuffled(sample_order(hand, self.stage is _SPREAD_STAGE, rng))

    def parse(self, text: str) -> Move:
        short = swap_short(text)
        if short is not None:
            return self._swap_short(text, *short)
        return parse_move(text)

    def apply_text(self, text: str) -> AuweierState:
        return self.apply(self.parse(text))

    def apply(self, move: Move) -> AuweierState:
        """The state after ``move``. A value that is no Auweier move at all is malformed
        (:class:`InvalidActionError`); a move the rules forbid here is illegal
        (:class:`IllegalActionError`, naming the rule)."""
        handler = _HANDLERS.get(type(move))
        if handler is None:
            raise not_a_move(move, "Auweier")
        return handler(self, move)

    def scores(self) -> tuple[int, ...]:
        return _scores(self.nests)

    def winners(self) -> frozenset[PlayerId]:
        if self.stage is not _OVER:
            return frozenset()
        scores = self.scores()
        best = max(scores)
        return frozenset(p for p, s in enumerate(scores) if s == best)

    def view(self, player: PlayerId | None) -> AuweierView:
        return _view_of(self, player)

    def seen_move(self, move: Move, viewer: PlayerId | None) -> Move | Hidden:
        """Deck steps show only to their player; shuffles to nobody (they lie face down)."""
        if isinstance(move, Shuffled):
            return _HIDDEN_SHUFFLE
        if isinstance(move, Arrange | ShuffleRest | Starter) and viewer != self.player:
            return _HIDDEN_DECK
        return move

    def _swap_short(self, text: str, female: Colour, card: Card) -> Swap:
        """``swap R 4``: the one exchange with ``card`` at ``female`` that the text can mean."""
        if female >= self.config.females or self.current_player() is None:
            raise illegal(text, Rule.SWAP_PLACE.value)
        stack = self.seats[self.player].stacks[female]
        if card in REAL_WORMS and FALSE_WORM in stack:
            return Swap(female, stack.index(FALSE_WORM) + 1, card)
        if card in REAL_WORMS and card in stack:
            return Swap(female, len(stack) - stack[::-1].index(card), FALSE_WORM)
        if card is FALSE_WORM:
            raise invalid(text, "the place of the worm to take back, e.g. 'swap R#2 F'")
        raise illegal(text, Rule.SWAP_PAIR.value)


# Stage members as plain globals: attribute access on an enum class is slow in Python 3.11.
_ORDER = Stage.ORDER
_SHUFFLE_STAGE = Stage.SHUFFLE
_SPREAD_STAGE = Stage.SPREAD
_PLAY = Stage.PLAY
_WEDDINGS = Stage.WEDDINGS
_WORMS = Stage.WORMS
_OVER = Stage.OVER


# --- fast construction ------------------------------------------------------------------------
#
# Every move builds a state and usually a seat (and every go of a wedding phase a phase). States
# and phases are built by calling their class (a :func:`spieltisch.core.fast.value`, whose
# ``__init__`` is plain stores); a seat, whose ``__post_init__`` works out its derived masks,
# is built with this builder when the transition knows them already (see
# :func:`spieltisch.core.fast.builder`). What it returns is an ordinary instance, equal to (and
# hashing like) one built by calling the class.

_seat: Callable[[Counts, tuple[Card, ...], int, Counts, tuple[Stack, ...], int, int, int], Seat] = (
    builder(Seat, ("hand", "pile", "known", "shown", "stacks", "roamed", "food", "false_worm"))
)
"""``Seat(hand, pile, known, shown, stacks, roamed)``, built faster: the caller gives the derived
:attr:`Seat.food` and :attr:`Seat.false_worm` of ``stacks`` as the last two values."""
# --- small pure helpers ---------------------------------------------------------------------

T = TypeVar("T")


def _put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``value`` at ``index`` (through a list: twice as fast as slicing)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _add_total(
    totals: tuple[tuple[int, ...], ...], female: int, player: int, change: int
) -> tuple[tuple[int, ...], ...]:
    """``totals`` with ``change`` added to ``player``'s total before ``female``."""
    if not change:
        return totals
    row = list(totals[female])
    row[player] += change
    rows = list(totals)
    rows[female] = tuple(row)
    return tuple(rows)


def _less(shown: Counts, card: int) -> Counts:
    """The cards known in a hand after a card of kind ``card`` was played from it."""
    if shown is NO_CARDS or not shown[card]:
        return shown
    result = _put(shown, card, shown[card] - 1)
    return result if any(result) else NO_CARDS


def _played(
    seat: Seat, card: Card, draw: bool, female: int | None = None, roams: bool = False
) -> Seat:
    """``seat`` after playing ``card`` from hand (onto its stack before ``female``, if given),
    drawing one card if ``draw`` and possible; ``roams``: a False Worm so played is counted in
    :attr:`Seat.roamed`."""
    hand = list(seat.hand)
    hand[card] -= 1
    pile, known, stacks, shown = seat.pile, seat.known, seat.stacks, seat.shown
    food, false_worm, roamed = seat.food, seat.false_worm, seat.roamed
    if draw and pile:
        hand[pile[0]] += 1
        pile = pile[1:]
        known = known - 1 if known else 0
    if female is not None:
        grown = list(stacks)
        grown[female] = (*stacks[female], card)
        stacks = tuple(grown)
        food = _top_food(food, female, card)
        if card is FALSE_WORM:
            false_worm = 1 << female
            if roams:
                roamed |= false_worm
    if shown is not NO_CARDS:
        shown = _less(shown, card)
    return _seat(tuple(hand), pile, known, shown, stacks, roamed, food, false_worm)


@functools.cache
def _open_females(laid: tuple[int, ...], closed: bool) -> tuple[int, ...]:
    """The females that take cards: all, or with ``closed`` those with eggs left."""
    return tuple(f for f, n in enumerate(laid) if not (closed and n >= EGGS_PER_FEMALE))


@functools.cache
def _next_go(players: int, passed: int, player: int) -> PlayerId:
    """The next player clockwise after ``player`` who has not passed; ``player`` has not
    passed either, so there is always one (``player`` again if all the others have)."""
    for step in range(1, players):
        other = (player + step) % players
        if not passed >> other & 1:
            return other
    return player


@functools.cache
def _next_after_pass(players: int, passed: int, player: int) -> PlayerId | None:
    """The next player clockwise after ``player`` (who has just passed) who has not passed;
    ``None`` once everyone has."""
    for step in range(1, players):
        other = (player + step) % players
        if not passed >> other & 1:
            return other
    return None


def _leader(column: tuple[int, ...]) -> PlayerId | None:
    """The player with the highest worm total in ``column`` (the totals before one female, in
    seat order), or ``None`` if the highest total is shared."""
    best = max(column)
    return column.index(best) if column.count(best) == 1 else None


# --- what each player sees ---------------------------------------------------------------

_HIDDEN_DECK = Hidden("set up part of their deck in secret", HIDDEN_DECK_TEXT)
"""Any deck step, as another player sees it (all alike: how a deck is built stays secret)."""
_HIDDEN_SHUFFLE = Hidden("the cards were shuffled face down", HIDDEN_SHUFFLE_TEXT)
"""A shuffle's outcome, as everyone sees it (the owner too: the cards lie face down)."""


def _view_of(state: AuweierState, viewer: PlayerId | None) -> AuweierView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    nests, phase, config = state.nests, state.phase, state.nests.config
    stage = state.stage
    setup = stage in SETUP_STAGES
    if setup and viewer != state.player and not config.lucky_eggs:
        stage = _ORDER  # others do not learn that this deck is being shuffled
    hand: Counts | None = None
    pile_known: tuple[Card, ...] = ()
    pile_unknown = NO_CARDS
    if viewer is not None:
        seat = state.seats[viewer]
        hand = seat.hand
        pile_known, pile_unknown = _own_pile(seat)
    if phase is not None:
        start_player = phase.opener
    else:
        start_player = nests.last.opener if nests.last is not None else 0
    return AuweierView(
        viewer,
        config,
        stage,
        state.player,
        start_player,
        _female_views(state),
        _player_views(state, viewer, setup),
        hand,
        pile_known,
        pile_unknown,
        nests.last,
        nests.end,
        state.winners() if stage is _OVER else _NO_WINNERS,
    )


_NO_WINNERS: frozenset[PlayerId] = frozenset()


def _own_pile(seat: Seat) -> tuple[tuple[Card, ...], Counts]:
    """The seat's pile as its owner sees it: the known cards in order, the rest as counts
    (worked out once per seat)."""
    own: tuple[tuple[Card, ...], Counts] | None = getattr(seat, "_own_pile", None)
    if own is not None:
        return own
    known = seat.known
    shuffled = seat.pile[known:]
    own = (seat.pile[:known], card_counts(shuffled) if shuffled else NO_CARDS)
    _keep_own_pile(seat, own)
    return own


def _stack_views(
    seat: Seat,
    player: int,
    weddings: int,
    totals: tuple[tuple[int, ...], ...],
    kept: tuple[FemaleView, ...],
) -> tuple[StackView, ...]:
    """``seat``'s stacks as ``player``'s, with Weddings before the females in ``weddings``
    (kept in the seat for the last player and Weddings asked for: the seats of decks not set
    up yet are one object shared by every player). A stack that is the very one a view in
    ``kept`` (the female views last built from these nests) shows is shown by that view's
    part again; a worm total is a sum over its stack, so it is the same too."""
    kept_views: tuple[int, int, tuple[StackView, ...]] | None = getattr(seat, "_stack_views", None)
    if kept_views is not None:
        owner, marked, views = kept_views
        if owner == player and marked == weddings:
            return views
    colour = _COLOURS[player]
    made = []
    for f, stack in enumerate(seat.stacks):
        wedding = bool(weddings >> f & 1)
        if kept:
            last = kept[f].stacks[player]
            if last.cards is stack and last.wedding is wedding:
                made.append(last)
                continue
        made.append(StackView(colour, stack, totals[f][player], wedding))
    views = tuple(made)
    _keep_stack_views(seat, (player, weddings, views))
    return views


def _female_views(state: AuweierState) -> tuple[FemaleView, ...]:
    """The females: their eggs left and every player's worm stack before each. The nests keep
    the female views they last built and the seats' stack views they were built from: a
    seat whose stack views are the same object changed nothing, and of a changed seat's
    stacks only those that are new objects make a female's view anew."""
    nests, totals, phase = state.nests, state.totals, state.phase
    kept_parts, kept = getattr(nests, "_female_views", _NOTHING_KEPT)
    if phase is None:
        parts = [_stack_views(seat, p, 0, totals, kept) for p, seat in enumerate(state.seats)]
    else:
        weddings = phase.weddings
        parts = [
            _stack_views(seat, p, weddings[p], totals, kept) for p, seat in enumerate(state.seats)
        ]
    if not kept:
        columns = zip(*parts, strict=True)
        made = tuple([_female_view(nests, f, column) for f, column in enumerate(columns)])
    else:
        moved = False
        views: list[FemaleView] | None = None  # copied from the kept ones once one is new
        for p, part in enumerate(parts):
            before = kept_parts[p]
            if part is before:
                continue
            moved = True
            for f, stack in enumerate(part):
                if stack is not before[f]:
                    if views is None:
                        views = list(kept)
                    views[f] = _female_view(nests, f, tuple([s[f] for s in parts]))
        if not moved:
            return kept
        # new seats with the same stacks keep the views (the whole tuple) with the new parts
        made = kept if views is None else tuple(views)
    _keep_female_views(nests, (tuple(parts), made))
    return made


_NOTHING_KEPT: tuple[tuple[tuple[StackView, ...], ...], tuple[FemaleView, ...]] = ((), ())
"""What nests that built no female views yet keep."""


def _female_view(nests: Nests, female: int, stacks: tuple[StackView, ...]) -> FemaleView:
    """Female ``female``'s view, with ``stacks`` before her."""
    laid, config = nests.laid[female], nests.config
    closed = config.closed_nests and laid >= EGGS_PER_FEMALE
    return FemaleView(_COLOURS[female], female >= config.players, _EGGS_LEFT[laid], stacks, closed)


def _player_views(
    state: AuweierState, viewer: PlayerId | None, setup: bool
) -> tuple[PlayerView, ...]:
    """What everyone knows of each player; while decks are set up, others' sizes stay unknown.
    A seat keeps the view of its player it last gave, used again when the parts that come
    from elsewhere (eggs, the wedding phase, the setup) are the same objects."""
    nests, phase = state.nests, state.phase
    won, current, females = nests.won, state.player, len(nests.laid)
    views = []
    for p, seat in enumerate(state.seats):
        hidden = setup and p != viewer
        ready = not setup or p < current
        if phase is None:
            weddings: tuple[Colour, ...] = ()
            seen: tuple[Colour, ...] = _colours(seat.roamed, females) if seat.roamed else ()
            passed = False
        else:
            weddings = _colours(phase.weddings[p], females)
            seen = _colours(phase.false_worm_seen[p], females)
            passed = bool(phase.passed >> p & 1)
        kept: PlayerView | None = getattr(seat, "_player_view", None)
        if (
            kept is not None
            and kept.colour is _COLOURS[p]
            and kept.eggs is won[p]
            and kept.ready is ready
            and kept.passed is passed
            and kept.weddings is weddings
            and kept.false_worm_seen is seen
            and (kept.hand_size is None) is hidden
        ):
            views.append(kept)
            continue
        view = PlayerView(
            _COLOURS[p],
            None if hidden else sum(seat.hand),
            None if hidden else len(seat.pile),
            ready,
            seat.shown,
            _discarded(seat, nests.config.deck),
            won[p],
            _scores(nests)[p],
            weddings,
            passed,
            seen,
        )
        _keep_player_view(seat, view)
        views.append(view)
    return tuple(views)


_COLOURS = tuple(Colour)
"""``Colour(p)`` for every ``p``, by index (calling an enum class is slow)."""

_EGGS_LEFT = tuple(
    tuple(range(laid + 1, EGGS_PER_FEMALE + 1)) for laid in range(EGGS_PER_FEMALE + 1)
)
"""The egg cards a female has left after ``laid`` of them, top first."""


@functools.cache
def _colours(mask: int, females: int) -> tuple[Colour, ...]:
    """The colours of the first ``females`` bits set in ``mask`` (at most 16 x 4 answers)."""
    return tuple(_COLOURS[f] for f in range(females) if mask >> f & 1)


def _discarded(seat: Seat, deck: Counts) -> Counts:
    """The cards of ``seat``'s ``deck`` that are in no hand, pile or stack any more (counted only
    when the seat's player's view is not kept: see :func:`_player_views`). One pass over the
    few cards on the table and in the pile, taken off the deck's counts less the hand."""
    left = [d - h for d, h in zip(deck, seat.hand, strict=True)]
    for card in seat.pile:
        left[card] -= 1
    for stack in seat.stacks:
        for card in stack:
            left[card] -= 1
    return tuple(left) if any(left) else NO_CARDS


def _scores(nests: Nests) -> tuple[int, ...]:
    """Every player's score from the eggs they won (worked out once per nests)."""
    scores: tuple[int, ...] | None = getattr(nests, "_scores", None)
    if scores is None:
        neutral = uncounted_colour(nests.config)
        scores = tuple(score_eggs(p, eggs, neutral) for p, eggs in enumerate(nests.won))
        _keep_scores(nests, scores)
    return scores


_keep_stack_views, _keep_player_view, _keep_own_pile = slot_setters(
    _SeatCache, "_stack_views", "_player_view", "_own_pile"
)
_keep_female_views, _keep_scores = slot_setters(_NestsCache, "_female_views", "_scores")


# --- legal actions --------------------------------------------------------------------------


@functools.cache
def _order_actions(hand: Counts, fresh: bool) -> tuple[Action, ...]:
    """Deck steps: the next card from each kind left, the shuffles, the ready orders (those
    whose six cards the deck holds: all of them in the rulebook's deck)."""
    actions: list[Action] = [ARRANGE_ONE[k] for k, n in enumerate(hand) if n]
    left = sum(hand)
    if left >= 2:
        actions.append(_SHUFFLE)
    if 0 < hand[WEDDING] < left:
        actions.append(_SPREAD)
    if fresh:
        actions += [starter for starter in _STARTERS if _holds(hand, starter.hand())]
    return tuple(actions)


def _holds(hand: Counts, cards: tuple[Card, ...]) -> bool:
    """Whether ``hand`` holds every one of ``cards``."""
    return all(n <= have for n, have in zip(card_counts(cards), hand, strict=True))


_SHUFFLE = interned(ShuffleRest(False))
_SPREAD = interned(ShuffleRest(True))
_STARTERS = tuple(
    interned(Starter(low, proof, middle))
    for low in STARTER_LOW
    for proof in STARTER_PROOF
    for middle in STARTER_MIDDLE
)


@functools.cache
def _worm_actions(
    hand: Counts, females: tuple[int, ...], no_false_worm: int
) -> tuple[PlayWorm, ...]:
    """Worm cards from ``hand`` before ``females`` (the False Worm not where it has lain)."""
    return tuple(
        WORM_MOVES[card][f]
        for card in WORM_CARDS
        if hand[card]
        for f in females
        if card is not FALSE_WORM or not no_false_worm >> f & 1
    )


@functools.cache
def _false_worm_in(
    heights: tuple[int, ...], females: tuple[int, ...], no_false_worm: int
) -> tuple[Swap, ...]:
    """Exchanges of the False Worm from the hand for any card of the player's stacks, which
    are ``heights`` high (with the False Worm in hand, every card there is a real worm)."""
    return tuple(
        SWAP_MOVES[f][place][FALSE_WORM]
        for f in females
        if not no_false_worm >> f & 1
        for place in range(heights[f])
    )


@functools.cache
def _worm_kinds(hand: Counts) -> int:
    """Bit mask of the real worm kinds in ``hand``."""
    return sum(1 << card for card in REAL_WORMS if hand[card])


@functools.cache
def _false_worm_out(female: int, place: int, kinds: int) -> tuple[Swap, ...]:
    """Exchanges of the False Worm at ``place`` for a real worm of the ``kinds`` in hand."""
    moves = SWAP_MOVES[female][place]
    return tuple(moves[card] for card in REAL_WORMS if kinds >> card & 1)


def _swap_actions(seat: Seat, females: tuple[int, ...], no_false_worm: int) -> tuple[Swap, ...]:
    if seat.hand[FALSE_WORM]:
        return _false_worm_in(tuple(map(len, seat.stacks)), females, no_false_worm)
    where = seat.false_worm
    if not where:  # most often: the False Worm is not on the table
        return ()
    f = where.bit_length() - 1
    if f not in females:
        return ()
    place = seat.stacks[f].index(FALSE_WORM)
    return _false_worm_out(f, place, _worm_kinds(seat.hand))


def _food(stacks: tuple[Stack, ...]) -> int:
    """Bit mask of the females where the top card of ``stacks`` is a Crow's food."""
    return sum(1 << f for f, stack in enumerate(stacks) if stack and CROW_FOOD[stack[-1]])


def _false_worm_at(stacks: tuple[Stack, ...]) -> int:
    """Bit mask of the female where ``stacks`` hold the False Worm (0 if none does)."""
    return sum(1 << f for f, stack in enumerate(stacks) if FALSE_WORM in stack)


def _top_food(food: int, female: int, top: Card | None) -> int:
    """``food`` (a :func:`_food` mask) after the top card before ``female`` became ``top``
    (``None``: no card lies there any more)."""
    if top is not None and CROW_FOOD[top]:
        return food | 1 << female
    return food & ~(1 << female)


_CROW_ROWS = tuple(
    tuple(
        tuple(CROW_MOVES[owner][f] for f in range(len(Colour)) if mask >> f & 1)
        for mask in range(1 << len(Colour))
    )
    for owner in Colour
)
"""``_CROW_ROWS[owner][mask]``: the Crows on ``owner``'s stacks before the females in ``mask``."""


@functools.cache
def _female_mask(females: tuple[int, ...]) -> int:
    return sum(1 << f for f in females)


def _crows(seats: tuple[Seat, ...], player: int, females: tuple[int, ...]) -> tuple[Action, ...]:
    """The Crows ``player`` can play: on each opponent's edible top worms (see
    :attr:`Seat.food`) before the ``females`` that take cards."""
    crows: tuple[Action, ...] = ()
    open_mask = _female_mask(females)
    for owner, seat in enumerate(seats):
        food = seat.food & open_mask
        if food and owner != player:
            crows += _CROW_ROWS[owner][food]
    return crows


def _digging_crows(
    seats: tuple[Seat, ...], player: int, females: tuple[int, ...]
) -> tuple[Action, ...]:
    """The Crows ``player`` can play with ``crow_digs``: on each opponent's stacks that hold a
    real worm without a star anywhere, before the ``females`` that take cards."""
    crows: tuple[Action, ...] = ()
    for owner, seat in enumerate(seats):
        if owner == player:
            continue
        stacks = seat.stacks
        food = sum(1 << f for f in females if crow_prey(stacks[f], True) is not None)
        if food:
            crows += _CROW_ROWS[owner][food]
    return crows


def may_open(column: Sequence[int], stack: Stack, player: int, ties: bool) -> bool:
    """Whether ``player``, with ``stack`` before a female whose worm totals are ``column``,
    may open a wedding phase there: a worm card there (the False Worm counts) and a total
    above every other player's, or with ``ties`` (``opening_ties``) none above theirs."""
    mine = column[player]
    if ties:
        return bool(stack) and mine == max(column)
    return mine > 0 and mine == max(column) and column.count(mine) == 1


def _openings(
    totals: tuple[tuple[int, ...], ...],
    seat: Seat,
    player: int,
    females: tuple[int, ...],
    ties: bool,
) -> tuple[PlayWedding, ...]:
    """Opening Weddings: the females where :func:`may_open` allows one (inlined: without
    ``ties``, a total above everyone else's needs at least one real worm there, so a total
    of 0 is skipped without looking at the others)."""
    openings: tuple[PlayWedding, ...] = ()
    if ties:
        stacks = seat.stacks
        for f in females:
            column = totals[f]
            if stacks[f] and column[player] == max(column):
                openings += _ONE_WEDDING[f]
        return openings
    for f in females:
        column = totals[f]
        mine = column[player]
        if mine and mine == max(column) and column.count(mine) == 1:
            openings += _ONE_WEDDING[f]
    return openings


_ONE_WEDDING = tuple((move,) for move in WEDDING_MOVES)


def _play_actions(state: AuweierState, females: tuple[int, ...]) -> tuple[Action, ...]:
    """Everything the player may do on a normal turn, with ``females`` taking cards. (The
    pieces come from caches keyed by small parts of the state.)"""
    player, seats = state.player, state.seats
    seat = seats[player]
    hand = seat.hand
    actions: tuple[Action, ...] = _worm_actions(hand, females, seat.roamed)
    actions += _swap_actions(seat, females, seat.roamed)
    if hand[CROW]:
        if state.nests.config.crow_digs:
            actions += _digging_crows(seats, player, females)
        else:
            actions += _crows(seats, player, females)
    if hand[WEDDING]:
        actions += _openings(state.totals, seat, player, females, state.nests.config.opening_ties)
    return actions


@functools.cache
def _wedding_choices(
    has_wedding: bool, placed: int, females: tuple[int, ...]
) -> tuple[Action, ...]:
    if not has_wedding:
        return (PASS,)
    return (*(WEDDING_MOVES[f] for f in females if not placed >> f & 1), PASS)


def _phase_actions(
    state: AuweierState, phase: Phase, females: tuple[int, ...]
) -> tuple[Action, ...]:
    """The player's choices in the wedding or the worm stage of ``phase``."""
    player, seat = state.player, state.seats[state.player]
    hand, config = seat.hand, state.nests.config
    if state.stage is _WEDDINGS:
        choices = _wedding_choices(bool(hand[WEDDING]), phase.weddings[player], females)
        if hand[CROW] and config.lucky_eggs and config.lucky_crows == CROWS_BOTH_STAGES:
            crows = _digging_crows if config.crow_digs else _crows
            return (*crows(state.seats, player, females), *choices)  # in id order
        return choices
    seen = phase.false_worm_seen[player]
    actions: tuple[Action, ...] = _worm_actions(hand, females, seen)
    actions += _swap_actions(seat, females, seen)
    if hand[CROW] and config.lucky_eggs:
        crows = _digging_crows if config.crow_digs else _crows
        actions += crows(state.seats, player, females)
    return (*actions, PASS)


def _females(state: AuweierState) -> tuple[int, ...]:
    """The females that take cards in ``state``."""
    return state.nests.open


def _legal_actions(state: AuweierState) -> tuple[Action, ...]:
    stage = state.stage
    if stage is _PLAY:
        return _play_actions(state, _females(state))
    if state.phase is not None:
        return _phase_actions(state, state.phase, _females(state))
    if stage is _ORDER:
        seat = state.seats[state.player]
        return _order_actions(seat.hand, not seat.pile)
    return ()


# --- playing cards --------------------------------------------------------------------------


def _turn(
    nests: Nests,
    player: int,
    seats: tuple[Seat, ...],
    totals: tuple[tuple[int, ...], ...],
    females: tuple[int, ...],
) -> AuweierState:
    """A normal turn of ``player``; if they have no legal play, the end, or with
    ``stuck_player=passes`` (ruling 9) a pass that draws nothing: the turn goes to the next
    player clockwise. A player reached so with an empty hand and nothing to draw ends the
    game; so does a round of passes in which nobody can play."""
    state = AuweierState(nests, _PLAY, player, seats, totals, None)
    legal = _play_actions(state, females)
    if legal:
        remember_legal(state, legal)
        return state
    config = nests.config
    end = End.NO_PLAY
    if config.stuck_player == STUCK_PASSES and (any(seats[player].hand) or seats[player].pile):
        end = End.NOBODY_CAN_PLAY
        for step in range(1, config.players):
            other = (player + step) % config.players
            state = AuweierState(nests, _PLAY, other, seats, totals, None)
            legal = _play_actions(state, females)
            if legal:
                remember_legal(state, legal)
                return state
            if not any(seats[other].hand) and not seats[other].pile:
                end, player = End.NO_PLAY, other  # an empty hand ends the game
                break
    nests = Nests(config, nests.laid, nests.won, nests.last, end)
    return AuweierState(nests, _OVER, player, seats, totals, None)


def _go(
    state: AuweierState,
    stage: Stage,
    player: int,
    seats: tuple[Seat, ...],
    totals: tuple[tuple[int, ...], ...],
    phase: Phase,
    females: tuple[int, ...],
) -> AuweierState:
    """``player``'s go in ``stage`` of ``phase``."""
    after = AuweierState(state.nests, stage, player, seats, totals, phase)
    remember_legal(after, _phase_actions(after, phase, females))
    return after


def _after_card(
    state: AuweierState,
    seats: tuple[Seat, ...],
    totals: tuple[tuple[int, ...], ...],
    phase: Phase | None,
    females: tuple[int, ...],
) -> AuweierState:
    """The state after a worm, Crow or exchange: the next turn, or the next go in the phase."""
    player = state.player
    if phase is None:
        return _turn(state.nests, (player + 1) % len(seats), seats, totals, females)
    following = _next_go(len(seats), phase.passed, player)
    stage = _WEDDINGS if state.stage is _WEDDINGS else _WORMS  # a Crow there (lucky_crows)
    return _go(state, stage, following, seats, totals, phase, females)


def _refuse_stage(state: AuweierState, move: Move, rule: Rule) -> IllegalActionError:
    """The error for ``move`` at the wrong moment: ``rule`` while play is under way (in a
    stage where the move has no place), else what is happening instead."""
    stage = state.stage
    if stage is _PLAY or stage is _WEDDINGS or stage is _WORMS:
        return illegal(move, rule.value)
    if stage is _OVER:
        return illegal(move, Rule.GAME_OVER.value)
    return illegal(move, (Rule.DECKS_FIRST if stage is _ORDER else Rule.CHANCE_NOW).value)


def _check_female(state: AuweierState, move: Move, female: int) -> tuple[int, ...]:
    """The females that take cards, after refusing ``move`` unless ``female`` is one."""
    nests = state.nests
    females = nests.open
    if female not in females:
        rule = Rule.CLOSED_NEST if 0 <= female < nests.config.females else Rule.NO_FEMALE
        raise illegal(move, rule.value)
    return females


def _apply_worm(state: AuweierState, move: PlayWorm) -> AuweierState:
    stage, player, card, female = state.stage, state.player, move.card, move.female
    if stage is not _PLAY and stage is not _WORMS:
        raise _refuse_stage(state, move, Rule.WEDDING_STAGE)
    if card > FALSE_WORM:
        raise illegal(move, Rule.NOT_A_WORM.value)
    females = _check_female(state, move, female)
    seat = state.seats[player]
    if not seat.hand[card]:
        raise illegal(move, Rule.IN_HAND.value)
    phase = state.phase
    roams = False
    if card is FALSE_WORM:
        if phase is not None:
            phase = _false_worm_to(phase, player, female, move)
        else:
            roams = _roams(state.config, seat, female, move)
    seats = _put(state.seats, player, _played(seat, card, phase is None, female, roams))
    totals = _add_total(state.totals, female, player, state.nests.config.worm_values[card])
    return _after_card(state, seats, totals, phase, females)


def _apply_crow(state: AuweierState, move: PlayCrow) -> AuweierState:
    stage, player, owner, female, phase = (
        state.stage,
        state.player,
        move.owner,
        move.female,
        state.phase,
    )
    if stage is not _PLAY and phase is None:
        raise _refuse_stage(state, move, Rule.CROW_PHASE)
    config = state.config
    if phase is not None and not config.lucky_eggs:
        raise illegal(move, Rule.CROW_PHASE.value)
    if stage is _WEDDINGS and config.lucky_crows != CROWS_BOTH_STAGES:
        raise illegal(move, Rule.WEDDING_STAGE.value)
    females = _check_female(state, move, female)
    seats = state.seats
    if not 0 <= owner < len(seats):
        raise illegal(move, Rule.NO_PLAYER.value)
    if owner == player:
        raise illegal(move, Rule.CROW_OPPONENT.value)
    if not seats[player].hand[CROW]:
        raise illegal(move, Rule.IN_HAND.value)
    victim = seats[owner]
    stack = victim.stacks[female]
    if not stack:
        raise illegal(move, Rule.CROW_NOTHING.value)
    if not config.crow_digs:
        if not stack or not CROW_FOOD[stack[-1]]:
            raise illegal(move, Rule.CROW_TOP.value)
        eaten, rest = stack[-1], stack[:-1]
    else:
        index = crow_prey(stack, True)
        if index is None:
            raise illegal(move, Rule.CROW_DIG.value)
        eaten, rest = stack[index], stack[:index] + stack[index + 1 :]
    stacks = _put(victim.stacks, female, rest)
    food = _top_food(victim.food, female, rest[-1] if rest else None)
    victim = _seat(
        victim.hand,
        victim.pile,
        victim.known,
        victim.shown,
        stacks,
        victim.roamed,
        food,
        victim.false_worm,
    )
    seats = _put(seats, owner, victim)
    seats = _put(seats, player, _played(seats[player], CROW, phase is None))
    totals = _add_total(state.totals, female, owner, -state.nests.config.worm_values[eaten])
    return _after_card(state, seats, totals, phase, females)


def _apply_swap(state: AuweierState, move: Swap) -> AuweierState:
    stage, player, female, card = state.stage, state.player, move.female, move.card
    if stage is not _PLAY and stage is not _WORMS:
        raise _refuse_stage(state, move, Rule.WEDDING_STAGE)
    females = _check_female(state, move, female)
    seat = state.seats[player]
    stack = seat.stacks[female]
    if not 1 <= move.place <= len(stack):
        raise illegal(move, Rule.SWAP_PLACE.value)
    index = move.place - 1
    out = stack[index]
    if not (
        (out is FALSE_WORM and card in REAL_WORMS) or (card is FALSE_WORM and out in REAL_WORMS)
    ):
        raise illegal(move, Rule.SWAP_PAIR.value)
    if not seat.hand[card]:
        raise illegal(move, Rule.IN_HAND.value)
    phase = state.phase
    roamed = seat.roamed
    if card is FALSE_WORM:
        if phase is not None:
            phase = _false_worm_to(phase, player, female, move)
        elif _roams(state.config, seat, female, move):
            roamed |= 1 << female
    hand = list(seat.hand)
    hand[card] -= 1
    hand[out] += 1
    shown = list(_less(seat.shown, card))
    shown[out] += 1
    changed = _put(stack, index, card)
    stacks = _put(seat.stacks, female, changed)
    food = _top_food(seat.food, female, changed[-1])
    false_worm = 1 << female if card is FALSE_WORM else 0
    pile, known = seat.pile, seat.known
    if phase is None and pile and state.config.exchange_cost == EXCHANGE_DRAWS:
        hand[pile[0]] += 1
        pile, known = pile[1:], known - 1 if known else 0
    seat = _seat(tuple(hand), pile, known, tuple(shown), stacks, roamed, food, false_worm)
    worth = state.nests.config.worm_values
    totals = _add_total(state.totals, female, player, worth[card] - worth[out])
    return _after_card(state, _put(state.seats, player, seat), totals, phase, females)


def _roams(config: Config, seat: Seat, female: int, move: Move) -> bool:
    """Whether ``seat``'s False Worm coming before ``female`` in normal play is counted (with
    ``false_worm_limit=always``); refuses ``move`` if it has lain there since the last mating."""
    if config.false_worm_limit != FALSE_WORM_ALWAYS:
        return False
    if seat.roamed >> female & 1:
        raise illegal(move, Rule.FALSE_WORM_ALWAYS.value)
    return True


def _false_worm_to(phase: Phase, player: int, female: int, move: Move) -> Phase:
    """``phase`` after ``player``'s False Worm comes before ``female``; refuses ``move`` if
    it has lain there before in this phase."""
    seen = phase.false_worm_seen[player]
    if seen >> female & 1:
        raise illegal(move, Rule.FALSE_WORM_ONCE.value)
    seen_now = _put(phase.false_worm_seen, player, seen | 1 << female)
    return Phase(phase.opener, phase.weddings, phase.passed, seen_now)


# --- the wedding phase ----------------------------------------------------------------------


def _apply_wedding(state: AuweierState, move: PlayWedding) -> AuweierState:
    stage, player, female, phase = state.stage, state.player, move.female, state.phase
    if stage is not _PLAY and stage is not _WEDDINGS:
        raise _refuse_stage(state, move, Rule.WORM_STAGE)
    females = _check_female(state, move, female)
    seat = state.seats[player]
    if not seat.hand[WEDDING]:
        raise illegal(move, Rule.IN_HAND.value)
    if phase is None:
        ties = state.nests.config.opening_ties
        if not may_open(state.totals[female], seat.stacks[female], player, ties):
            raise illegal(move, (Rule.OPENING_TIES if ties else Rule.OPENING).value)
        phase = _open_phase(state.seats, player, female)
    else:
        if phase.weddings[player] >> female & 1:
            raise illegal(move, Rule.ONE_WEDDING.value)
        weddings = _put(phase.weddings, player, phase.weddings[player] | 1 << female)
        phase = Phase(phase.opener, weddings, phase.passed, phase.false_worm_seen)
    seats = _put(state.seats, player, _played(seat, WEDDING, False))
    following = _next_go(len(seats), phase.passed, player)
    return _go(state, _WEDDINGS, following, seats, state.totals, phase, females)


def _open_phase(seats: tuple[Seat, ...], player: int, female: int) -> Phase:
    """The phase an opening Wedding of ``player`` before ``female`` starts."""
    seen = tuple(
        sum(1 << f for f, stack in enumerate(seat.stacks) if FALSE_WORM in stack) for seat in seats
    )
    weddings = tuple(1 << female if p == player else 0 for p in range(len(seats)))
    return Phase(player, weddings, 0, seen)


def _apply_pass(state: AuweierState, move: Pass) -> AuweierState:
    phase = state.phase
    if phase is None:
        raise _refuse_stage(state, move, Rule.PASS_PHASE)
    players = len(state.seats)
    passed = phase.passed | 1 << state.player
    following = _next_after_pass(players, passed, state.player)
    if following is not None:
        phase = Phase(phase.opener, phase.weddings, passed, phase.false_worm_seen)
        return _go(state, state.stage, following, state.seats, state.totals, phase, _females(state))
    if state.stage is _WEDDINGS:
        outside = sum(1 << p for p in range(players) if not phase.weddings[p])
        phase = Phase(phase.opener, phase.weddings, outside, phase.false_worm_seen)
        first = phase.opener
        if state.nests.config.wedding_order == ORDER_ONWARD:
            # the next player clockwise with a Wedding down (the last to pass, if only they)
            first = _next_go(players, outside, state.player)
        return _go(state, _WORMS, first, state.seats, state.totals, phase, _females(state))
    return _mate(state.nests, state.seats, state.totals, phase)


def _mate(
    nests: Nests, seats: tuple[Seat, ...], totals: tuple[tuple[int, ...], ...], phase: Phase
) -> AuweierState:
    """Mating at every female, the clean-up, the refill, and the opener's turn (or the end)."""
    config, weddings = nests.config, phase.weddings
    laid, won = list(nests.laid), list(nests.won)
    awards: list[Award] = []
    cleared: list[tuple[Colour, PlayerId]] = []
    rows = list(totals)
    wedded = functools.reduce(operator.or_, weddings)
    for f, column in enumerate(totals):
        if not wedded >> f & 1:
            continue  # no Wedding here: no egg, nothing cleared
        wed = [p for p, mask in enumerate(weddings) if mask >> f & 1]
        winner = _leader(column)
        if winner in wed and laid[f] < EGGS_PER_FEMALE:
            laid[f] += 1
            won[winner] = (*won[winner], _EGGS[f][laid[f]])
            awards.append(_award(winner, f, laid[f]))
        cleared += [(COLOURS[f], p) for p in wed]
        row = list(column)
        for p in wed:
            row[p] = 0
        rows[f] = tuple(row)
    over = sum(laid) == EGGS_PER_FEMALE * config.females
    mating = Mating(phase.opener, tuple(awards), tuple(cleared))
    nests = Nests(config, tuple(laid), tuple(won), mating, End.LAST_EGG if over else None)
    hand, roams = config.hand_size, config.false_worm_limit == FALSE_WORM_ALWAYS
    seats = tuple(
        [_clean(seat, weddings[p], not over, hand, roams) for p, seat in enumerate(seats)]
    )
    if over:
        return AuweierState(nests, _OVER, phase.opener, seats, tuple(rows), None)
    return _turn(nests, phase.opener, seats, tuple(rows), nests.open)


@functools.cache
def _award(player: int, female: int, eggs: int) -> Award:
    """The award of ``female``'s egg card with ``eggs`` eggs to ``player`` (shared: a value)."""
    return Award(player, COLOURS[female], eggs)


def _clean(
    seat: Seat, weddings: int, refill: bool, hand_size: int = HAND_SIZE, roams: bool = False
) -> Seat:
    """``seat`` without its stacks where it had a Wedding, refilled to ``hand_size`` cards if
    ``refill`` (a hand already that full or fuller, as ``exchange_cost=draws`` allows, draws
    nothing); with ``roams`` (``false_worm_limit=always``) its False Worm's count starts
    afresh, the place where it stays counting."""
    stacks, food, false_worm = seat.stacks, seat.food, seat.false_worm
    if weddings:
        stacks = tuple([() if weddings >> f & 1 else stack for f, stack in enumerate(stacks)])
        food &= ~weddings
        false_worm &= ~weddings
    hand, pile, known = seat.hand, seat.pile, seat.known
    drawn = pile[: max(hand_size - sum(hand), 0)] if refill else ()
    if drawn:
        counts = list(hand)
        for card in drawn:
            counts[card] += 1
        hand, pile, known = tuple(counts), pile[len(drawn) :], max(known - len(drawn), 0)
    roamed = false_worm if roams else 0
    if not drawn and not weddings and roamed == seat.roamed:
        return seat
    return _seat(hand, pile, known, seat.shown, stacks, roamed, food, false_worm)


# --- arranging the decks --------------------------------------------------------------------


def _check_order(state: AuweierState, move: Move) -> Seat:
    if state.stage is not _ORDER:
        rule = Rule.GAME_OVER if state.stage is _OVER else Rule.DECK_STEPS
        raise illegal(move, (Rule.CHANCE_NOW if state.is_chance() else rule).value)
    return state.seats[state.player]


def _apply_arrange(state: AuweierState, move: Arrange) -> AuweierState:
    """A deck step; several cards at once (a typing aid) give the state that one-card steps
    for the same cards in the same order would."""
    seat = _check_order(state, move)
    cards, hand = move.cards, seat.hand
    if len(cards) == 1:  # the listed step: one card
        card = cards[0]
        if not hand[card]:
            raise illegal(move, Rule.DECK_CARDS.value)
        hand = _put(hand, card, hand[card] - 1)
    else:
        placed = card_counts(cards)
        if not cards or any(n > have for n, have in zip(placed, hand, strict=True)):
            raise illegal(move, Rule.DECK_CARDS.value)
        hand = tuple(have - n for have, n in zip(hand, placed, strict=True))
    pile = seat.pile + cards
    return _arranged(
        state,
        _seat(hand, pile, len(pile), NO_CARDS, seat.stacks, 0, seat.food, seat.false_worm),
    )


def _apply_shuffle_rest(state: AuweierState, move: ShuffleRest) -> AuweierState:
    seat = _check_order(state, move)
    left = sum(seat.hand)
    if left < 2:
        raise illegal(move, Rule.SHUFFLE_SIZE.value)
    if move.spread and not 0 < seat.hand[WEDDING] < left:
        raise illegal(move, Rule.SPREAD_MIX.value)
    stage = _SPREAD_STAGE if move.spread else _SHUFFLE_STAGE
    return AuweierState(state.nests, stage, state.player, state.seats, state.totals, None)


def _apply_starter(state: AuweierState, move: Starter) -> AuweierState:
    seat = _check_order(state, move)
    if seat.pile:
        raise illegal(move, Rule.STARTER_FIRST.value)
    pile = move.hand()
    if not _holds(seat.hand, pile):
        raise illegal(move, Rule.DECK_CARDS.value)
    hand = tuple(have - n for have, n in zip(seat.hand, card_counts(pile), strict=True))
    seat = _seat(hand, pile, len(pile), NO_CARDS, seat.stacks, 0, seat.food, seat.false_worm)
    seats = _put(state.seats, state.player, seat)
    return AuweierState(state.nests, _SPREAD_STAGE, state.player, seats, state.totals, None)


def _apply_shuffled(state: AuweierState, move: Shuffled) -> AuweierState:
    if not state.is_chance():
        rule = Rule.GAME_OVER if state.stage is _OVER else Rule.PLAYER_NOW
        raise illegal(move, rule.value)
    seat = state.seats[state.player]
    if card_counts(move.cards) != seat.hand:
        raise illegal(move, Rule.SHUFFLE_CARDS.value)
    if state.stage is _SPREAD_STAGE and not is_spread(move.cards):
        raise illegal(move, Rule.SPREAD_EVEN.value)
    pile = seat.pile + move.cards
    return _arranged(
        state,
        _seat(NO_CARDS, pile, seat.known, NO_CARDS, seat.stacks, 0, seat.food, seat.false_worm),
    )


def _arranged(state: AuweierState, seat: Seat) -> AuweierState:
    """After a deck step: go on with this deck, the next one, or deal the hands."""
    player, nests, totals = state.player, state.nests, state.totals
    config = nests.config
    seats = _put(state.seats, player, seat)
    if any(seat.hand):
        state = AuweierState(nests, _ORDER, player, seats, totals, None)
        remember_legal(state, _order_actions(seat.hand, False))
        return state
    if player + 1 < config.players:
        stage = _SHUFFLE_STAGE if config.lucky_eggs else _ORDER
        return AuweierState(nests, stage, player + 1, seats, totals, None)
    shown = card_counts(config.lucky_start) if config.lucky_eggs else NO_CARDS
    dealt = tuple(
        _seat(
            card_counts(s.pile[: config.hand_size]),
            s.pile[config.hand_size :],
            max(s.known - config.hand_size, 0),
            shown,
            s.stacks,
            0,
            s.food,
            s.false_worm,
        )
        for s in seats
    )
    return _turn(nests, 0, dealt, totals, nests.open)


_HANDLERS: dict[type, Callable[[AuweierState, Any], AuweierState]] = {
    PlayWorm: _apply_worm,
    PlayCrow: _apply_crow,
    PlayWedding: _apply_wedding,
    Swap: _apply_swap,
    Pass: _apply_pass,
    Arrange: _apply_arrange,
    ShuffleRest: _apply_shuffle_rest,
    Starter: _apply_starter,
    Shuffled: _apply_shuffled,
}


class Auweier(Game):
    """Auweier: worms, Weddings and eggs for 2-4 players, each with a self-arranged deck."""

    info = GameInfo(
        id="auweier",
        name="Auweier",
        min_players=2,
        max_players=4,
        default_players=3,
        summary=N_(
            "Court the females with worms from a deck you arranged yourself; a Wedding with "
            "the most worms wins an egg."
        ),
        options=options_of(Config),
        has_chance=True,
        hidden_information=True,
        min_score=0,
        max_score=MAX_SCORE,
    )
    state_type = AuweierState
    config_type = Config

    def initial_state(self) -> AuweierState:
        config = self.config
        players, females = config.players, config.females
        nests = Nests(config, (0,) * females, ((),) * players, None, None)
        totals = ((0,) * players,) * females
        stacks: tuple[Stack, ...] = ((),) * females
        if not config.lucky_eggs:
            seat = Seat(config.deck, (), 0, NO_CARDS, stacks)
            return AuweierState(nests, Stage.ORDER, 0, (seat,) * players, totals, None)
        start = config.lucky_start
        rest = tuple(n - m for n, m in zip(config.deck, card_counts(start), strict=True))
        seat = Seat(rest, start, len(start), NO_CARDS, stacks)
        return AuweierState(nests, Stage.SHUFFLE, 0, (seat,) * players, totals, None)

    def action_table(self) -> ActionTable[Action]:
        """Every listable action in id order (a ``deck`` line placing several cards has no
        id: it is a typing aid, equivalent to the listed one-card steps)."""
        return ACTIONS


def new_state(players: int = 3, **options: bool | int | str) -> AuweierState:
    """The initial state of a game with ``players`` players (a convenience for tests)."""
    return Auweier(players, **options).initial_state()
