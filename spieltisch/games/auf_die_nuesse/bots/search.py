"""Auf die Nüsse! aids for search agents: a quick playout policy and a cut-off evaluation.

Uniformly random playouts are a poor guide here: a game lasts hundreds of steps, and a random
player files nuts in random stores and rolls on until the start track fails, so the result of
a random game says little about the position it started from. ISMCTS therefore

* plays out with :func:`playout`, a quick policy that stores nuts where they count most, takes
  the nut it can use best, steals where it hurts (the heuristic's rules of thumb), and plays
  its dice as the expert does, planning the start track to the end of the turn with stops
  priced as the expert prices them (worked out once per board, so that a decision costs
  microseconds; near the end, where a playout runs through many boards, from a few fixed
  tables instead); and
* stops a playout at the start of the next turn with :func:`evaluate`, which turns each
  player's points, expected store bonuses, kept jokers, squirrels on each space and David
  into a chance to win (and where the policy would stop rolling, values the turn start that
  stop leads to with its refills fixed, so that only the dice of the turn remain luck). Its
  weights were fitted by logistic regression to the results of 5000 two-player games of the
  heuristic against itself (one move in twenty made at random), valued at every turn start
  (``scripts/fit_nuesse_evaluation.py`` repeats the fit).

Decisions that only file, choose or steal a nut, and roll-or-stop choices while a kept joker
could be laid, are left to the heuristic's book (:mod:`.book`): the search's values barely
tell one store from another, so searching them only adds noise. And since those values are
win chances that one choice moves by a few points at most, ``bots.SEARCH`` gives ISMCTS a smaller
exploration constant than its default, and caps its tree at the choices at hand, so that each
is rated by this policy finishing the turn from it.

Nothing in this game is hidden, so both read the state directly. Pure: no I/O, no clock; any
randomness comes from the generator passed in.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

from spieltisch.core.game import Move, PlayerId, State
from spieltisch.games.auf_die_nuesse.bots.judge import (
    Judge,
    Weights,
    coming,
    fills,
    held,
    kind_shares,
    still_to_take,
    store_worth,
)
from spieltisch.games.auf_die_nuesse.bots.plan import (
    REACH,
    START_TRACK_SPACES,
    SpaceWorths,
    TurnPlan,
    plan_for,
    track_worth,
)
from spieltisch.games.auf_die_nuesse.model import (
    RACCOONS,
    Ending,
    Stage,
    config_deck,
    points,
)
from spieltisch.games.auf_die_nuesse.notation import (
    CARD_KINDS,
    DRAWS,
    KEEP,
    NUTS,
    PASS,
    ROLL_AGAIN,
    STOP,
    TWO_AREA,
    Card,
    Lay,
    Nut,
    Place,
    Put,
    Setup,
    Space,
    Steal,
    Take,
)
from spieltisch.games.auf_die_nuesse.rules import Board, Market, NuesseState

# --- What nuts and stores are worth ----------------------------------------------------------


_WEIGHTS = Weights()
"""The heuristic's rules of thumb, whose share of the cards to come the playouts count on."""


class Outlook:
    """What each kind of nut may still bring each player, for one state's cards: the expert's
    model (:func:`~.judge.store_worth`) worked out from the board rather than from a view, and
    cached by the cards, so that a playout pays for it once per card drawn."""

    __slots__ = ("board", "expect", "values")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.expect = _expectations(board.market, board.jokers, board.config.players)
        self.values = board.config.store_values

    def worth(self, player: PlayerId, index: int, kind: Nut, fill: int) -> float:
        """The expected final points of ``player``'s store ``index`` holding ``fill`` nuts."""
        return store_worth(self.expect[player][kind], index, fill, self.values)

    def put_gain(self, player: PlayerId, index: int, kind: Nut) -> float:
        """What a nut counting as ``kind`` adds in ``player``'s store ``index``."""
        stores = self.board.stores[player]
        store = stores[index]
        if store.kind is None:
            if any(s.kind is kind and not s.full and s.fill for s in stores):
                return 1.0  # a second store of a kind already collected: a loose nut
            return self.worth(player, index, kind, 1)
        return self.worth(player, index, kind, store.fill + 1) - self.worth(
            player, index, kind, store.fill
        )

    def card_gain(self, player: PlayerId, card: Card) -> float:
        """What receiving ``card`` is worth to ``player`` in their best store for it."""
        best = 0.0
        for index, store in enumerate(self.board.stores[player]):
            for kind in CARD_KINDS[card]:
                if store.fits(kind):
                    best = max(best, self.put_gain(player, index, kind))
        return best

    def bonus(self, player: PlayerId) -> float:
        """What ``player``'s partly filled stores are expected to add to their loose nuts."""
        extra = 0.0
        for index, store in enumerate(self.board.stores[player]):
            if not store.full and store.kind is not None and store.fill:
                extra += self.worth(player, index, store.kind, store.fill) - store.fill
        return extra


@functools.lru_cache(maxsize=4096)
def _expectations(
    market: Market, jokers: tuple[tuple[Card, ...], ...], players: int
) -> tuple[dict[Nut, float], ...]:
    """How many more nuts of each kind each player can hope for (as
    :meth:`~.judge.Judge.expected` counts them from a view). Cached: a playout meets the same
    cards again and again until one is drawn."""
    left, face_up = still_to_take(market.unseen, market.face_up)
    shares = kind_shares(left)
    per_player = _WEIGHTS.share * coming(market.pile, face_up, market.set_aside, _WEIGHTS) / players
    return tuple(
        {kind: shares[kind] * per_player + held(hand, kind) for kind in NUTS} for hand in jokers
    )


# --- The evaluation at a turn start ----------------------------------------------------------

FEATURES = ("points", "bonus", "jokers", *(f"on {space.label}" for space in Space), "david")
"""What the evaluation reads for each player (see :func:`features`)."""

WEIGHTS = (
    (0.0366, 0.1132),  # points
    (0.0434, 0.1177),  # bonus
    (0.1656, 0.5130),  # jokers
    (0.1436, 0.1979),  # on 2-4
    (0.1150, 0.1873),  # on 5-6
    (0.1827, 0.2740),  # on 7
    (0.1024, 0.1303),  # on 8-9
    (0.1231, 0.1745),  # on 10-12
    (0.1495, 0.2818),  # on 3-left
    (0.0151, 0.2480),  # on 3-raccoon
    (0.1993, 0.2193),  # on 3-right
    (-0.0135, 0.1512),  # on 4-area
    (0.2327, 0.4811),  # david
)
"""Log-odds of winning per unit of each of :data:`FEATURES`, with every card still to come and
with none (in between, interpolated by :func:`remaining`). Fitted by
``scripts/fit_nuesse_evaluation.py``. Read against the weight of a point: a lead counts more
the less is left to turn it around; a squirrel on the board is worth about three to five
and a half points early and one to two and a half late, but next to nothing early on the
3-area raccoon space and the 4-area, where it waits longest to pay; and David, who keeps the
thief away from his host, is worth about six points early and four late to the player he
stands with. (A squirrel's weight only ever meets a single squirrel on a 2-area space and
at most two on a 3-area space: a turn's end collects every pair and every three.)"""
TEMPO = (0.1954, 0.2972)
"""Log-odds of winning that the player whose turn starts gains, likewise early and late."""


def features(board: Board, player: PlayerId, outlook: Outlook) -> list[float]:
    """``player``'s standing as numbers, in :data:`FEATURES` order: points scored now, what
    the partly filled stores should add, kept jokers, squirrels on each space above the start
    track (nuts still to be collected), and 1 if David stands with the player."""
    areas = board.areas
    return [
        float(points(board.stores[player], board.config.store_values)),
        outlook.bonus(player),
        float(len(board.jokers[player])),
        *(float(areas[space][player]) for space in Space),
        1.0 if board.david == player else 0.0,
    ]


def remaining(board: Board) -> float:
    """How much of the game is left, from 1 (every card to come) to 0 (none)."""
    market = board.market
    return (market.pile + market.set_aside) / sum(config_deck(board.config))


def strength(board: Board, player: PlayerId, mover: PlayerId, outlook: Outlook) -> float:
    """``player``'s standing on the logistic scale (differences are log-odds of winning): the
    features weighted by :data:`WEIGHTS`, plus :data:`TEMPO` for the player to move, all
    interpolated between the start of the game and its end.

    The weights were fitted by logistic regression to who won 5000 two-player games of the
    heuristic against itself (one move in twenty at random), from every turn start the
    evaluation is asked about. On the held-out fifth of those games they predict the winner
    with a log loss of 0.547, against 0.554 for the earlier weights (commit 3f3f9ea: one
    price in points for every squirrel of an area, and no David) on the same games (0.693
    for a coin toss)."""
    left = remaining(board)
    values = features(board, player, outlook)
    level = sum(
        value * (late + (early - late) * left)
        for value, (early, late) in zip(values, WEIGHTS, strict=True)
    )
    if player == mover:
        level += TEMPO[1] + (TEMPO[0] - TEMPO[1]) * left
    return level


def win_chances(state: NuesseState) -> tuple[float, ...]:
    """Each player's chance to win from ``state``: a softmax of their strengths (for two
    players, the logistic of the difference the weights were fitted on)."""
    board = state.board
    outlook = Outlook(board)
    levels = [strength(board, p, state.player, outlook) for p in range(board.config.players)]
    top = max(levels)
    odds = [math.exp(level - top) for level in levels]
    total = sum(odds)
    return tuple(o / total for o in odds)


def stopped(state: NuesseState) -> NuesseState:
    """The next turn start if the player at a roll-or-stop choice stops now: the collections
    are played by :func:`playout`'s rules, and each empty face-up place is refilled with the
    card most often unseen (the likeliest draw), so the result is the same every time."""
    state = state.apply(STOP)
    while state.stage is not Stage.ROLL and not state.is_terminal():
        if state.is_chance():
            unseen = state.board.market.unseen
            state = state.apply(DRAWS[max(range(len(unseen)), key=unseen.__getitem__)])
        else:
            state = state.apply(_decide(state, state.legal_actions()))
    return state


MIN_DEPTH = 0
"""Playout moves to make before a turn start may end the playout. At 0 every playout stops
at the first turn start it meets, so every choice of a turn is valued at the same moment, the
next player's turn start, and no choice gains or loses the tempo of having the move."""
PLAY_OUT_PILE = 3
"""With this few cards left in the pile the end is near, and is played out instead."""


AGAIN_DEPTH = 0
"""Playout moves after which a roll-or-stop choice where the policy would stop ends the
playout, valued at the turn start that stopping leads to with its draws fixed (see
:func:`stopped`): the value the policy's own stop would give, without the luck of the
draws."""


def _before_the_end(market: Market) -> bool:
    """Whether the end is still far enough off for :func:`evaluate` to value positions."""
    return market.ending is Ending.NOT_YET and market.pile > PLAY_OUT_PILE


def at_turn_start(state: NuesseState) -> bool:
    """Whether ``state`` is a turn start that :func:`evaluate` values (what the evaluation's
    weights were fitted on)."""
    return state.stage is Stage.ROLL and not state.track and _before_the_end(state.board.market)


def evaluate(state: State, depth: int) -> tuple[float, ...] | None:
    """Where a search's playout stops, valued as each player's chance to win (the scale of
    the game's returns, which give the winner 1): at the start of a turn after ``MIN_DEPTH``
    moves (:func:`win_chances`), and after ``AGAIN_DEPTH`` moves where the playout policy
    would stop, at the turn start that stop leads to. Elsewhere, and once the end is near
    (when the last squirrels' nuts and the order of the final claims decide), ``None``: play
    on."""
    if not isinstance(state, NuesseState) or not _before_the_end(state.board.market):
        return None
    if at_turn_start(state):
        return win_chances(state) if depth >= MIN_DEPTH else None
    if state.stage is Stage.AGAIN and depth >= AGAIN_DEPTH and _policy_stops(state):
        after = stopped(state)
        if after.board.market.ending is Ending.NOT_YET:
            return win_chances(after)
    return None


def _policy_stops(state: NuesseState) -> bool:
    """Whether :func:`playout` stops at this roll-or-stop choice (without listing the moves
    unless a kept joker might be laid)."""
    if state.board.jokers[state.player]:
        return _again(state, state.legal_actions()) is STOP
    return state.available <= 0 or not _turn_plan(state).rolls_on(state.track)


# --- The playout policy ----------------------------------------------------------------------

NUT_WORTH = 4.0
"""What a nut collected on a 2-area space is worth, roughly, to the playout's turn plan."""
RACCOON_WORTH = 7.0
"""A collection on the raccoon space: any face-up nut and a theft."""
RESIDUAL = 1.7
"""A squirrel left standing on the board (as the heuristic counts it)."""


_NUT_WORTH = tuple(RACCOON_WORTH if space in RACCOONS else NUT_WORTH for space in TWO_AREA)


def _space_value(count: int, single: int, nut: float) -> float:
    """What ``count`` squirrels moving up to a 2-area space are worth, with ``single`` (0 or
    1) of mine already there: a nut for each pair, a share of a nut for each one left over
    (less one for the waiting squirrel a pair sends home)."""
    if not count:
        return 0.0
    pays = (count + single) // 2
    return pays * nut + RESIDUAL * (count - 2 * pays)


@functools.cache
def _worths(singles: int) -> SpaceWorths:
    """What stopping is worth space by space when bit ``s`` of ``singles`` marks a 2-area
    space already holding one of my squirrels."""
    return tuple(
        tuple(_space_value(count, singles >> space & 1, nut) for count in range(reach + 1))
        for space, (reach, nut) in enumerate(zip(REACH, _NUT_WORTH, strict=True))
    )


@functools.cache
def _plan(singles: int, room: int) -> TurnPlan:
    """The best play of a start track (the expert's way of planning, :class:`TurnPlan`) whose
    stops :func:`_worths` prices from fixed tables rather than from the cards, with ``room``
    squirrels to place this turn. Cached: a search meets the same few plans again and again
    (at most 32 tables times 12 rooms), and each keeps the values it worked out."""
    return TurnPlan(functools.partial(track_worth, _worths(singles)), room)


def _turn_plan(state: NuesseState) -> TurnPlan:
    """The plan for the turn under way in ``state``: its stops priced as the expert prices
    them from the cards (:func:`_prices`) while playouts end at the next turn start, and from
    the fixed tables of :func:`_plan` near the end, where they play out turn after turn."""
    board, player = state.board, state.player
    room = min(START_TRACK_SPACES, board.supply[player])
    if _before_the_end(board.market):
        return plan_for(_prices(state), room)
    return _plan(_singles(board, player), room)


PRICES_KEPT = 64
"""How many boards' prices :func:`_prices` keeps (the oldest goes first)."""
_PRICES: dict[tuple[Board, PlayerId], SpaceWorths] = {}


def _prices(state: NuesseState) -> SpaceWorths:
    """What stopping is worth space by space to the player whose turn it is, as the expert
    (:class:`~.judge.Judge`) prices it from their view. The prices depend on the board alone,
    not on the start track, so every playout of a search's turn shares one table, worked out
    once (about 0.2 ms) and kept."""
    key = (state.board, state.player)
    worths = _PRICES.get(key)
    if worths is None:
        if len(_PRICES) >= PRICES_KEPT:
            del _PRICES[next(iter(_PRICES))]
        worths = _PRICES[key] = Judge(state.view(state.player)).space_worths
    return worths


def _singles(board: Board, player: PlayerId) -> int:
    areas = board.areas
    return sum(1 << s for s in TWO_AREA if areas[s][player])


def playout(state: State, rng: random.Random) -> Move:
    """A quick, sensible move for the player to act in ``state`` (see the module docstring)."""
    assert isinstance(state, NuesseState)
    legal = state.legal_actions()
    if state.stage is Stage.SETUP:
        return _setup(legal, rng)
    return _decide(state, legal)


def _decide(state: NuesseState, legal: Sequence[Move]) -> Move:
    """:func:`playout`'s choice at every decision after the setup (none needs chance)."""
    stage = state.stage
    if stage is Stage.AGAIN:
        return _again(state, legal)
    if stage is Stage.PLACE:
        return _place(state, legal)
    if stage is Stage.PUT:
        return _put(state, legal)
    if stage is Stage.TAKE:
        return _take(state, legal)
    if stage is Stage.STEAL:
        return _steal(state, legal)
    return legal[0]


def _again(state: NuesseState, legal: Sequence[Move]) -> Move:
    """Lay a kept joker that fills a store; else roll on while the turn's plan says so."""
    stores = state.board.stores[state.player]
    filling = [m for m in legal if isinstance(m, Lay) and fills(stores, m.store)]
    if filling:
        values = state.board.config.store_values
        return max(filling, key=lambda m: values[m.store])
    if ROLL_AGAIN in legal and _turn_plan(state).rolls_on(state.track):
        return ROLL_AGAIN
    return STOP


def _place(state: NuesseState, legal: Sequence[Move]) -> Move:
    """The space that makes the start track worth most with the rest of the turn played
    best."""
    spaces = [move.space for move in legal if isinstance(move, Place)]
    return Place(_turn_plan(state).best_space(state.track, spaces)[1])


def _put(state: NuesseState, legal: Sequence[Move]) -> Move:
    """The store where the nut adds most; a joker waits in hand unless it fills a store."""
    step = state.step
    assert step is not None
    return _filing(state.board, step.actor, tuple(legal))


@functools.lru_cache(maxsize=4096)
def _filing(board: Board, actor: PlayerId, legal: tuple[Move, ...]) -> Move:
    """:func:`_put`'s choice, cached: the playouts of one search file the same nut on the
    same table again and again."""
    outlook = Outlook(board)
    stores = board.stores[actor]
    best: Move = legal[0]
    worth = -1.0
    for move in legal:
        if not isinstance(move, Put):
            continue
        if KEEP in legal and not fills(stores, move.store):
            continue
        gain = outlook.put_gain(actor, move.store, move.kind)
        if gain > worth:
            best, worth = move, gain
    if worth < 0.0 and KEEP in legal:
        return KEEP
    return best


def _take(state: NuesseState, legal: Sequence[Move]) -> Move:
    """The face-up nut worth most to the collector (a raccoon's nut only if worth anything)."""
    step = state.step
    assert step is not None
    outlook = Outlook(state.board)
    face_up = state.board.market.face_up
    best: Move = PASS if PASS in legal else legal[0]
    worth = 0.0 if PASS in legal else -1.0
    for move in legal:
        if isinstance(move, Take):
            card = face_up[move.slot]
            if card is not None:
                gain = outlook.card_gain(step.actor, card)
                if gain > worth:
                    best, worth = move, gain
    return best


def _steal(state: NuesseState, legal: Sequence[Move]) -> Move:
    """The theft that costs its victim most, counting what the nut is worth to me."""
    step = state.step
    assert step is not None
    board = state.board
    outlook = Outlook(board)
    best: Move = PASS
    worth = 0.0
    for move in legal:
        if isinstance(move, Steal):
            store = board.stores[move.victim][move.store]
            if store.kind is None:
                continue
            loss = outlook.worth(move.victim, move.store, store.kind, store.fill)
            loss -= outlook.worth(move.victim, move.store, store.kind, store.fill - 1)
            gain = loss + outlook.card_gain(step.actor, _PLAIN_CARD[store.kind])
            if gain > worth:
                best, worth = move, gain
    return best


_PLAIN_CARD = {kind: Card(kind.value) for kind in NUTS}
_SETUP_PREFERENCE = (Space.FIVE_SIX, Space.EIGHT_NINE)


def _setup(legal: Sequence[Move], rng: random.Random) -> Move:
    """A setup squirrel below 5-6 or 8-9 (rolled most often), else anywhere."""
    for space in _SETUP_PREFERENCE:
        for move in legal:
            if isinstance(move, Setup) and move.space is space:
                return move
    return legal[rng.randrange(len(legal))]


__all__ = [
    "FEATURES",
    "TEMPO",
    "WEIGHTS",
    "Outlook",
    "at_turn_start",
    "evaluate",
    "features",
    "playout",
    "remaining",
    "strength",
    "win_chances",
]
