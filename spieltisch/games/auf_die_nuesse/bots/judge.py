"""How the Auf die Nüsse! heuristic and expert price what they see, in expected points.

A nut is worth what it adds to the expected final value of the store it goes into (see
:meth:`Judge.store_value`), a squirrel left on the board a fixed share of a nut, a theft the
victim's loss and the thief's gain, and a start track the nuts that stopping with it would
collect. :class:`Judge` works all of that out for one view; the agents (:mod:`.heuristic`,
:mod:`.expert`) choose by it, and the search's playouts (:mod:`.search`) plan their dice by
its prices. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from spieltisch.core.fast import value
from spieltisch.core.game import PlayerId
from spieltisch.games.auf_die_nuesse.bots.plan import (
    REACH,
    SpaceWorths,
    TurnPlan,
    plan_for,
    sum_pairs,
    track_worth,
)
from spieltisch.games.auf_die_nuesse.model import (
    ABOVE,
    NEED,
    OFFER,
    RACCOONS,
    STORE_SIZES,
    Store,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.notation import (
    CARD_INDEX,
    CARD_KINDS,
    CARDS,
    NUTS,
    PLAIN,
    TWO_AREA,
    Card,
    Nut,
    Put,
    Space,
    Steal,
)
from spieltisch.games.auf_die_nuesse.view import NuesseView


def at_least(mean: float, count: int) -> float:
    """The chance that a Poisson count with this mean reaches ``count`` (the heuristic's
    chance that a store will be filled, too)."""
    if count <= 0:
        return 1.0
    term = total = math.exp(-mean)
    for k in range(1, count):
        term *= mean / k
        total += term
    return max(0.0, 1.0 - total)


def store_worth(expected: float, index: int, fill: int, values: Sequence[int]) -> float:
    """The expected final points of store ``index`` holding ``fill`` nuts of a kind of which
    ``expected`` more may still come my way: a full store scores its value (from ``values``,
    the game's store table); otherwise each nut is worth its share of the value if the store
    will be filled (the chance that enough nuts come, :func:`at_least`) and one point if not.
    So big stores pay best for kinds that are still plentiful."""
    size, value = STORE_SIZES[index], values[index]
    if fill >= size:
        return float(value)
    if fill <= 0:
        return 0.0
    filled = at_least(expected, size - fill)
    return fill * (filled * value / size + 1.0 - filled)


def still_to_take(unseen: Sequence[int], face_up: Sequence[Card | None]) -> tuple[list[int], int]:
    """The cards nobody holds yet, counted per card in :data:`CARDS` order (the unseen ones and
    the face-up row), and how many of them lie face up."""
    left = list(unseen)
    shown = 0
    for card in face_up:
        if card is not None:
            left[CARD_INDEX[card]] += 1
            shown += 1
    return left, shown


def kind_shares(left: Sequence[int]) -> dict[Nut, float]:
    """Each kind's share of the cards still to come (``left``: how many of each card, in
    :data:`CARDS` order); a joker counts half for each of its kinds."""
    cards = max(1, sum(left))
    shares = dict.fromkeys(NUTS, 0.0)
    for card, count in zip(CARDS, left, strict=True):
        kinds = CARD_KINDS[card]
        for kind in kinds:
            shares[kind] += count / len(kinds) / cards
    return shares


def coming(pile: int, face_up: int, set_aside: int, weights: Weights) -> int:
    """How many cards are still to be taken by someone: the pile, the ``face_up`` cards of the
    row, and a few of the set-aside cards drawn by the last checks (the rest are never
    drawn)."""
    return pile + face_up + (weights.slack if set_aside else 0)


def fills(stores: Sequence[Store], index: int) -> bool:
    """Whether one more nut fills store ``index`` of ``stores``."""
    return stores[index].fill + 1 >= STORE_SIZES[index]


def held(jokers: Sequence[Card], kind: Nut) -> float:
    """Half a nut of ``kind`` for each kept joker showing it."""
    return sum(0.5 for joker in jokers if kind in CARD_KINDS[joker])


@value
class Weights:
    """The heuristic's rules of thumb, in points. The defaults were tuned in 2-player duels of
    the heuristic against itself with one weight changed (300 games each, seats swapped on the
    same dice and cards): counting on twice an even share of the nuts to come beat an even
    share 68% to 32%, a squirrel on the board at 1.2 points beat 0.7 by 57% to 43%, and
    rolling on a little more or a little less often than the one-roll rule both lost."""

    residual: float = 1.7
    """A squirrel left standing on the board: it waits for a partner this turn or the next, is
    pushed up by the others' collections, and four of them buy a nut at the end."""
    push: float = 0.3
    """What an opponent's squirrel gains when my collection pushes it one area up."""
    deny: float = 0.3
    """How much of a face-up nut's worth to the best-placed opponent counts when choosing it."""
    joker_flex: float = 0.5
    """A joker's worth above its best use now: it waits for whichever store needs it."""
    leader: float = 0.5
    """Extra weight of a theft from the opponent with the most points (3 or 4 players)."""
    boldness: float = 1.0
    """How much more than its expected worth rolling on is rated against stopping."""
    share: float = 2.0
    """How many even shares of the cards still to come a player counts on getting: optimism
    pays, as a player who collects gets the squirrels back to collect again."""
    slack: int = 2
    """Set-aside cards that still reach players at the end, beyond the pile and the row."""


_SUM_PAIRS = sum_pairs()


def nuesse_view(view: object) -> NuesseView:
    """``view`` as an Auf die Nüsse! view (:class:`TypeError` for any other, such as another
    game's view handed to these agents by mistake)."""
    if not isinstance(view, NuesseView):
        raise TypeError(f"an Auf die Nüsse! agent needs a NuesseView, not {type(view).__name__}")
    return view


class Judge:
    """The worth of nuts, stores, thefts and start tracks, for one view (one decision)."""

    def __init__(self, view: NuesseView, weights: Weights | None = None) -> None:
        self.view = view
        self.weights = w = weights or Weights()
        actor = view.actor if view.actor is not None else view.player
        self.me: PlayerId = actor
        self.players = view.config.players
        self.values = view.config.store_values
        """The full value of each store under the game's store table."""
        left, face_up = still_to_take(view.unseen, view.face_up)
        to_come = coming(view.pile, face_up, view.set_aside, w)
        self.per_player = w.share * to_come / self.players
        self.kind_share = kind_shares(left)
        self._gains: dict[tuple[PlayerId, Card], float] = {}
        self._kind_gains: dict[tuple[PlayerId, Nut], float | None] = {}
        self._mean_draw: float | None = None
        self._collections: dict[tuple[Space, int], float] = {}

    # --- Stores and nuts --------------------------------------------------------------------

    def expected(self, player: PlayerId, kind: Nut) -> float:
        """How many more nuts of ``kind`` ``player`` can hope for (a kept joker counts half)."""
        return self.kind_share[kind] * self.per_player + held(self.view.jokers[player], kind)

    def store_value(self, player: PlayerId, index: int, kind: Nut, fill: int) -> float:
        """The expected final points of ``player``'s store ``index`` holding ``fill`` nuts of
        ``kind`` (:func:`store_worth`, with the nuts of that kind they can hope for)."""
        return store_worth(self.expected(player, kind), index, fill, self.values)

    def put_gain(self, player: PlayerId, index: int, kind: Nut) -> float:
        """What a nut counting as ``kind`` adds in ``player``'s store ``index``."""
        stores = self.view.stores[player]
        store = stores[index]
        if store.kind is None and any(
            other.kind is kind and not other.full and other.fill for other in stores
        ):
            return 1.0  # a second store of a kind already collected: a loose nut
        before = self.store_value(player, index, kind, store.fill) if store.kind else 0.0
        return self.store_value(player, index, kind, store.fill + 1) - before

    def best_put(self, player: PlayerId, card: Card) -> tuple[float, Put | None]:
        """The best store for ``card`` (a joker: as either kind) and what it adds."""
        best: tuple[float, Put | None] = (0.0, None)
        for index, store in enumerate(self.view.stores[player]):
            for kind in CARD_KINDS[card]:
                if store.fits(kind):
                    gain = self.put_gain(player, index, kind)
                    if best[1] is None or gain > best[0]:
                        best = (gain, Put(kind, index))
        return best

    def kind_gain(self, player: PlayerId, kind: Nut) -> float | None:
        """What a nut counting as ``kind`` adds in ``player``'s best store for it (``None``:
        no store takes it). A card's worth is the best of its kinds', so each kind is priced
        once per judgement, however many cards show it."""
        key = (player, kind)
        if key in self._kind_gains:
            return self._kind_gains[key]
        best: float | None = None
        for index, store in enumerate(self.view.stores[player]):
            if store.fits(kind):
                gain = self.put_gain(player, index, kind)
                if best is None or gain > best:
                    best = gain
        self._kind_gains[key] = best
        return best

    def gain(self, player: PlayerId, card: Card) -> float:
        """What receiving ``card`` is worth to ``player`` (a joker a little more: it can wait).

        The same worth :meth:`best_put` finds, taken kind by kind."""
        key = (player, card)
        if key not in self._gains:
            worth: float | None = None
            for kind in CARD_KINDS[card]:
                gain = self.kind_gain(player, kind)
                if gain is not None and (worth is None or gain > worth):
                    worth = gain
            bonus = self.weights.joker_flex if card.is_joker else 0.0
            self._gains[key] = (worth or 0.0) + bonus
        return self._gains[key]

    def mean_draw_gain(self) -> float:
        """What the next card drawn is worth to me on average."""
        if self._mean_draw is None:
            unseen = self.view.unseen
            total = sum(unseen)
            gains = (n * self.gain(self.me, c) for c, n in zip(CARDS, unseen, strict=True) if n)
            self._mean_draw = sum(gains) / total if total else 0.0
        return self._mean_draw

    def completes(self, player: PlayerId, put: Put) -> bool:
        """Whether ``put`` fills its store."""
        return fills(self.view.stores[player], put.store)

    # --- Thefts ------------------------------------------------------------------------------

    def steal_worth(self, steal: Steal) -> float:
        """What a theft is worth to me: the victim's loss (more from a leader) plus my gain."""
        store = self.view.stores[steal.victim][steal.store]
        if store.kind is None:
            return 0.0
        fill = store.fill
        loss = self.store_value(steal.victim, steal.store, store.kind, fill)
        loss -= self.store_value(steal.victim, steal.store, store.kind, fill - 1)
        scores = self.view.scores
        top = max(s for p, s in enumerate(scores) if p != self.me)
        lead = self.weights.leader if self.players > 2 and scores[steal.victim] == top else 0.0
        return loss * (1.0 + lead) + self.gain(self.me, PLAIN[store.kind])

    def thefts(self) -> list[Steal]:
        """Every theft open to me now (the rules' list, rebuilt from the view)."""
        view = self.view
        return [
            Steal(victim, index)
            for victim, stores in enumerate(view.stores)
            if victim not in (self.me, view.david)
            for index, store in enumerate(stores)
            if store.nuts and not store.full
        ]

    @functools.cached_property
    def theft_worth(self) -> float:
        """What the best theft open to me now is worth."""
        return max((self.steal_worth(s) for s in self.thefts()), default=0.0)

    # --- The start track ---------------------------------------------------------------------

    def stop_value(self, track: int) -> float:
        """What stopping with ``track`` (bit ``n``: start-track space ``n``) is worth to me.

        The nuts the 2-area collections would bring, less what pushing the others up gives
        them, plus every squirrel left standing on the board (minus those sent home).
        """
        return track_worth(self.space_worths, track)

    @functools.cached_property
    def space_worths(self) -> SpaceWorths:
        """:meth:`stop_value` space by space: what each count of start-track squirrels moving
        up to each 2-area space brings me."""
        return tuple(
            tuple(self.space_worth(space, count) for count in range(reach + 1))
            for space, reach in zip(TWO_AREA, REACH, strict=True)
        )

    def space_worth(self, space: Space, count: int) -> float:
        """What ``count`` start-track squirrels moving up to 2-area ``space`` bring me: the
        collections they complete, and a share of a nut for each squirrel left standing."""
        if not count:
            return 0.0
        pays = (self.view.areas[space][self.me] + count) // NEED[space]
        worth = self.weights.residual * (count - pays * NEED[space])
        return worth + self.collection(space, pays) if pays else worth

    def collection(self, space: Space, times: int) -> float:
        """What collecting ``times`` on a 2-area ``space`` is worth to me, less what it gives
        the others (priced once per judgement: many start tracks lead to the same one)."""
        key = (space, times)
        if key not in self._collections:
            self._collections[key] = self.payout(space, times) - self.push_cost(space)
        return self._collections[key]

    def payout(self, space: Space, times: int) -> float:
        """What collecting ``times`` on a 2-area ``space`` brings me."""
        face_up = self.view.face_up
        if space in RACCOONS:
            best = max((self.gain(self.me, c) for c in face_up if c is not None), default=0.0)
            return times * (best + self.theft_worth)
        card = face_up[OFFER[space][0]]
        first = self.gain(self.me, card) if card is not None else 0.0
        return first + (times - 1) * self.mean_draw_gain()

    def push_cost(self, space: Space) -> float:
        """What the others gain when my collection on ``space`` pushes their squirrels up."""
        above = ABOVE[space]
        if above is None:
            return 0.0
        cost, areas = 0.0, self.view.areas
        for other in range(self.players):
            count = areas[space][other]
            if other == self.me or not 0 < count < NEED[space]:
                continue
            if areas[above][other] + count >= NEED[above]:
                cost += max(
                    (self.gain(other, c) for c in self.view.face_up if c is not None), default=1.0
                )
            else:
                cost += self.weights.push * count
        return cost

    def roll_value(self, track: int) -> tuple[float, float]:
        """(chance the next roll fails, expected worth of stopping after one more squirrel).

        The failure chance is the rules' exact one; the worth averages, over the rolls that
        fit, the better of the free spaces they offer.
        """
        fails = float(fail_chance(track))
        if fails >= 1.0:
            return 1.0, 0.0
        after = {n: self.stop_value(track | 1 << n) for n in range(2, 13) if not track >> n & 1}
        total = weight = 0.0
        for a, b, count in _SUM_PAIRS:
            if a in after:
                total += count * (max(after[a], after[b]) if b in after else after[a])
            elif b in after:
                total += count * after[b]
            else:
                continue
            weight += count
        return fails, total / weight

    @property
    def room(self) -> int:
        """The squirrels I may place this turn in all (those on the start track included)."""
        return self.view.supply[self.me] + len(self.view.track)

    @functools.cached_property
    def plan(self) -> TurnPlan:
        """The best play of the rest of my turn, stops priced by :meth:`stop_value` (what
        the expert plays)."""
        return plan_for(self.space_worths, self.room)

    def place_value(self, track: int) -> float:
        """A start track's worth: stop with it, or roll once more and then stop."""
        stop = self.stop_value(track)
        if self.room <= track.bit_count():
            return stop  # no squirrel left to roll with
        fails, success = self.roll_value(track)
        return max(stop, (1.0 - fails) * success)


__all__ = [
    "Judge",
    "Weights",
    "at_least",
    "coming",
    "fills",
    "held",
    "kind_shares",
    "nuesse_view",
    "still_to_take",
    "store_worth",
]
