"""Auf die Nüsse! agents, from views only: a heuristic that plays like a careful human, and an
expert that plays the same way but plans its dice to the end of each turn.

Both price everything in expected points. A nut is worth what it adds to the expected final
value of the store it goes into (see :meth:`Judge.store_value`), a squirrel left on the board
a fixed share of a nut, and a turn's start track the nuts that stopping now would collect. The
heuristic looks one roll ahead; the expert values the rest of the turn exactly
(:class:`~.plan.TurnPlan`). Pure: no I/O, no clock; the agents' own generators are not even
needed.

For search agents the module also offers ``EVALUATE`` and ``PLAYOUT`` (from :mod:`.search`):
ISMCTS plays its playouts by quick rules of thumb (its dice by the plan) and stops them at the
next turn start, where a fitted estimate of each player's chance to win replaces the rest of
the game; ``BOOK``: the nut-handling choices it plays as the heuristic does, without
searching; and the
``ismcts`` agent itself, with an exploration constant suited to those estimates and a tree of
depth 1 (``EXPLORATION``, ``TREE_DEPTH``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from spieltisch.agents.base import Agent
from spieltisch.core.game import Move, PlayerId
from spieltisch.games.auf_die_nuesse.notation import (
    CARD_INDEX,
    CARD_KINDS,
    CARDS,
    DICE,
    KEEP,
    NUTS,
    PASS,
    PLAIN,
    ROLL_AGAIN,
    STOP,
    TRACK_SPACE,
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
from spieltisch.games.auf_die_nuesse.plan import (
    REACH,
    TIED,
    SpaceWorths,
    TurnPlan,
    plan_for,
    sum_pairs,
    track_worth,
)
from spieltisch.games.auf_die_nuesse.rules import (
    ABOVE,
    NEED,
    OFFER,
    RACCOONS,
    STORE_SIZES,
    STORE_VALUES,
    Stage,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.search import at_least, evaluate, playout
from spieltisch.games.auf_die_nuesse.view import NuesseView


@dataclass(frozen=True, slots=True)
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
_HITS: dict[Space, float] = {
    space: sum(c for a, b, c in _SUM_PAIRS if space in (TRACK_SPACE[a], TRACK_SPACE[b])) / len(DICE)
    for space in TWO_AREA
}
"""The chance that one roll can put a squirrel below each 2-area space."""


def nuesse_view(view: object) -> NuesseView:
    """``view`` as an Auf die Nüsse! view (:class:`TypeError` for any other)."""
    if not isinstance(view, NuesseView):
        raise TypeError(f"an Auf die Nüsse! agent needs a NuesseView, not {type(view).__name__}")
    return view


@dataclass(frozen=True, slots=True)
class Judgement:
    """The heuristic's choice and what it weighed."""

    move: Move
    why: str


class Judge:
    """The worth of nuts, stores, thefts and start tracks, for one view (one decision)."""

    def __init__(self, view: NuesseView, weights: Weights | None = None) -> None:
        self.view = view
        self.weights = w = weights or Weights()
        actor = view.actor if view.actor is not None else view.player
        self.me: PlayerId = actor
        self.players = view.config.players
        face_up = [card for card in view.face_up if card is not None]
        left = list(view.unseen)
        for card in face_up:
            left[CARD_INDEX[card]] += 1
        cards = max(1, sum(left))
        # Cards still to be taken by someone: the pile, the face-up row, and a few of the
        # set-aside cards drawn by the last checks (the rest are never drawn).
        coming = view.pile + len(face_up) + (w.slack if view.set_aside else 0)
        self.per_player = w.share * coming / self.players
        # A kind's share of the cards to come; a joker counts half for each of its kinds.
        self.kind_share = dict.fromkeys(NUTS, 0.0)
        for card, count in zip(CARDS, left, strict=True):
            kinds = CARD_KINDS[card]
            for kind in kinds:
                self.kind_share[kind] += count / len(kinds) / cards
        self._gains: dict[tuple[PlayerId, Card], float] = {}
        self._kind_gains: dict[tuple[PlayerId, Nut], float | None] = {}
        self._mean_draw: float | None = None
        self._collections: dict[tuple[Space, int], float] = {}

    # --- Stores and nuts --------------------------------------------------------------------

    def expected(self, player: PlayerId, kind: Nut) -> float:
        """How many more nuts of ``kind`` ``player`` can hope for (a kept joker counts half)."""
        held = sum(0.5 for joker in self.view.jokers[player] if kind in CARD_KINDS[joker])
        return self.kind_share[kind] * self.per_player + held

    def store_value(self, player: PlayerId, index: int, kind: Nut, fill: int) -> float:
        """The expected final points of ``player``'s store ``index`` holding ``fill`` nuts.

        A full store scores its value; otherwise each nut is worth its share of the value if
        the store will be filled (the chance that enough nuts of the kind still come) and one
        point if not. So big stores pay best for kinds that are still plentiful.
        """
        size, value = STORE_SIZES[index], STORE_VALUES[index]
        if fill >= size:
            return float(value)
        if fill <= 0:
            return 0.0
        filled = at_least(self.expected(player, kind), size - fill)
        return fill * (filled * value / size + 1.0 - filled)

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
        return self.view.stores[player][put.store].fill + 1 >= STORE_SIZES[put.store]

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


class HeuristicAgent(Agent):
    """Plays like a careful human who counts cards and knows the dice odds.

    * **Worth of a nut**: what it adds to the expected final points of the store it goes in.
      Each nut in a store is worth the store's points per nut (5 in the 6-store, 2.5 in a
      2-store) if the store will be filled, else one point; the chance of filling it is the
      chance that enough nuts of its kind still come my way (counted from the unseen cards and
      the face-up row, a joker as half a nut of each kind). It is optimistic while a kind is
      plentiful, so big stores are opened first, and a kind running out goes to a small store.
    * **Storing**: every nut goes where it adds most, which keeps one kind to one store at a
      time. A joker is kept in hand unless it fills a store now; a kept joker is laid at the
      roll-or-stop choice as soon as it fills a store (a full store cannot be robbed).
    * **Which white die**: the space worth most if I stopped after it or rolled once more:
      one that brings a 2-area space to two of my squirrels (a nut, the better the more it
      is worth to me; on the raccoon space also a theft); otherwise the one that leaves the
      most for one more roll, its chance of fitting and what it would bring together.
    * **When to stop**: roll again only while the worth of one more squirrel, times the exact
      chance that the next roll fits (the rules' ``fail_chance``, as the terminal shows it),
      beats what stopping now brings; a failed roll loses the whole start track. A squirrel
      left on the board counts too, and pushing an opponent up into a collection of their own
      counts against me.
    * **Which nut**: the face-up nut worth most to me, plus a little of what it is worth to the
      opponent it would help most; a raccoon's nut is refused only if it is worth nothing.
    * **Theft**: always, of the nut whose loss costs its owner most (a nearly full big store),
      the more gladly from the leader, and counting what the nut is worth in my own stores.
    * **Setup**: the 2-area space most often rolled (5-6 and 8-9) with the best nut below it.
    """

    name = "heuristic"
    weights = Weights()

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        return self.judge(view, legal).move

    def explain(self, view: object, legal: Sequence[Move]) -> str:
        judgement = self.judge(view, legal)
        return f"{self.name}: {judgement.move} — {judgement.why}"

    def judge(self, view: object, legal: Sequence[Move]) -> Judgement:
        """The choice for ``view`` among ``legal``, with the reason."""
        nv = nuesse_view(view)
        judged = _JUDGED.get(nv.stage)
        if judged is None:
            return Judgement(legal[0], "the only choice")
        return judged(Judge(nv, self.weights), legal)


class ExpertAgent(HeuristicAgent):
    """Plays like the heuristic, but plans each turn's dice to the end of the turn.

    Nuts, stores, thefts and the setup are chosen as the heuristic chooses them, and a stop is
    priced the same way: the nuts the 2-area collections bring, the squirrels left standing,
    less what pushing the others up gives them. Where the heuristic looks a single roll ahead,
    the expert values every start track it could still reach this turn and plays the rest of
    the turn for the most expected worth (:class:`~.plan.TurnPlan`):

    * **Which white die**: the space whose start track is worth most with the best play after
      it. Early in a turn that is often the rarer sum, which leaves the common ones free for
      the rolls to come.
    * **When to stop**: roll on while rolling on and then playing best is worth more on average
      than stopping now. So it rolls on wherever the heuristic would (at the heuristic's
      default ``boldness``, which the expert does not use), and also where the next roll
      alone would not pay but the rolls after it would.
    """

    name = "expert"

    def judge(self, view: object, legal: Sequence[Move]) -> Judgement:
        nv = nuesse_view(view)
        planned = _PLANNED.get(nv.stage)
        if planned is None:
            return super().judge(view, legal)
        return planned(Judge(nv, self.weights), legal)


def _planned_again(judge: Judge, legal: Sequence[Move]) -> Judgement:
    lay = _filling_lay(judge, legal)
    if lay is not None:
        return lay
    if ROLL_AGAIN not in legal:
        return Judgement(STOP, "no squirrel left to roll with")
    track = _track(judge.view)
    plan = judge.plan
    stop, roll = judge.stop_value(track), plan.roll_on(track)
    odds = f"fails {float(fail_chance(track)):.0%}; stop {stop:.1f} vs roll on {roll:.1f}"
    move = ROLL_AGAIN if plan.rolls_on(track) else STOP
    return Judgement(move, f"{odds} (played best to the end)")


def _planned_place(judge: Judge, legal: Sequence[Move]) -> Judgement:
    spaces = [move.space for move in legal if isinstance(move, Place)]
    worth, space = judge.plan.best_space(_track(judge.view), spaces)
    return Judgement(Place(space), f"worth {worth:.1f} with the rest of the turn played best")


_PLANNED = {Stage.AGAIN: _planned_again, Stage.PLACE: _planned_place}
"""The decisions the expert plans to the end of the turn (the rest it judges as the
heuristic)."""


def _best(scored: list[tuple[float, Move]]) -> tuple[float, Move]:
    """The highest-scoring move, the first listed on a tie (scores within :data:`~.plan.TIED`
    count as tied)."""
    best = scored[0]
    for item in scored[1:]:
        if item[0] > best[0] + TIED:
            best = item
    return best


def _track(view: NuesseView) -> int:
    return sum(1 << n for n in view.track)


def _filling_lay(judge: Judge, legal: Sequence[Move]) -> Judgement | None:
    """Laying the kept joker that fills the most valuable store, if one fills any."""
    fills = [m for m in legal if isinstance(m, Lay) and judge.completes(judge.me, _as_put(m))]
    if not fills:
        return None
    lay = max(fills, key=lambda m: STORE_VALUES[m.store])
    return Judgement(lay, f"the kept joker fills S{lay.store + 1} now")


def _again(judge: Judge, legal: Sequence[Move]) -> Judgement:
    lay = _filling_lay(judge, legal)
    if lay is not None:
        return lay
    track = _track(judge.view)
    stop = judge.stop_value(track)
    if ROLL_AGAIN not in legal:
        return Judgement(STOP, "no squirrel left to roll with")
    fails, success = judge.roll_value(track)
    odds = f"fails {fails:.0%}; stop {stop:.1f} vs roll {(1 - fails) * success:.1f}"
    if (1.0 - fails) * success * judge.weights.boldness > stop:
        return Judgement(ROLL_AGAIN, odds)
    return Judgement(STOP, odds)


def _as_put(lay: Lay) -> Put:
    return Put(lay.kind, lay.store)


def _place(judge: Judge, legal: Sequence[Move]) -> Judgement:
    track = _track(judge.view)
    scored: list[tuple[float, Move]] = []
    for move in legal:
        if isinstance(move, Place):
            scored.append((judge.place_value(track | 1 << move.space), move))
    if not scored:
        return Judgement(legal[0], "the only choice")
    worth, move = _best(scored)
    return Judgement(move, f"worth {worth:.1f} (stopping or rolling once more)")


def _put(judge: Judge, legal: Sequence[Move]) -> Judgement:
    me = judge.me
    scored: list[tuple[float, Move]] = [
        (judge.put_gain(me, m.store, m.kind), m) for m in legal if isinstance(m, Put)
    ]
    if not scored:
        return Judgement(legal[0], "the only choice")
    if KEEP in legal:
        scored = [(w, m) for w, m in scored if isinstance(m, Put) and judge.completes(me, m)]
        if not scored:
            return Judgement(KEEP, "a joker waits in hand for the store that needs it")
    worth, move = _best(scored)
    return Judgement(move, f"adds {worth:.1f} expected points")


def _take(judge: Judge, legal: Sequence[Move]) -> Judgement:
    me, players = judge.me, judge.players
    scored: list[tuple[float, Move]] = []
    for move in legal:
        if isinstance(move, Take):
            card = judge.view.face_up[move.slot]
            if card is None:
                continue
            deny = max((judge.gain(p, card) for p in range(players) if p != me), default=0.0)
            scored.append((judge.gain(me, card) + judge.weights.deny * deny, move))
    if not scored:
        return Judgement(PASS if PASS in legal else legal[0], "no nut worth taking")
    worth, move = _best(scored)
    if worth <= 0.0 and PASS in legal:
        return Judgement(PASS, "no nut worth taking")
    return Judgement(move, f"worth {worth:.1f}")


def _steal(judge: Judge, legal: Sequence[Move]) -> Judgement:
    scored: list[tuple[float, Move]] = [
        (judge.steal_worth(m), m) for m in legal if isinstance(m, Steal)
    ]
    if not scored:
        return Judgement(PASS, "nothing to steal")
    worth, move = _best(scored)
    if worth <= 0.0:
        return Judgement(PASS, "no theft worth making")
    return Judgement(move, f"worth {worth:.1f}")


def _setup(judge: Judge, legal: Sequence[Move]) -> Judgement:
    view = judge.view
    scored: list[tuple[float, Move]] = []
    for move in legal:
        if isinstance(move, Setup):
            card = view.face_up[OFFER[move.space][0]]
            nut = judge.gain(judge.me, card) if card is not None else 0.0
            scored.append((_HITS[move.space] * (judge.weights.residual + nut), move))
    if not scored:
        return Judgement(legal[0], "the only choice")
    worth, move = _best(scored)
    return Judgement(move, f"rolled most often, with a good nut below ({worth:.2f})")


_BOOKED = {Stage.PUT: _put, Stage.TAKE: _take, Stage.STEAL: _steal, Stage.SETUP: _setup}
"""The decisions the book answers as the heuristic does."""
_JUDGED = {Stage.AGAIN: _again, Stage.PLACE: _place, **_BOOKED}
"""How the heuristic judges each kind of decision."""


def book(view: object, legal: Sequence[Move], rng: random.Random | None = None) -> Move | None:
    """The set moves of Auf die Nüsse! for search agents: filing a nut, choosing a face-up nut,
    a theft and a setup squirrel are played as the heuristic plays them, and the roll-or-stop
    choice while a kept joker could be laid as the expert plays it. What those choices are
    worth shows only over many turns (a joker laid early is a joker that cannot fill a store
    later), so a search that ends its playouts at the next turn start can hardly tell them
    apart, and they cost little to judge outright. Search is left for where the dice decide:
    which white die, and whether to roll again. (Nothing here is left to chance, so ``rng``
    is not used.)"""
    del rng
    if not isinstance(view, NuesseView):
        return None
    judged = _BOOKED.get(view.stage)
    if judged is None and view.stage is Stage.AGAIN and any(isinstance(m, Lay) for m in legal):
        judged = _planned_again
    if judged is None:
        return None
    return judged(Judge(view), legal).move


AGENTS = {"expert": ExpertAgent, "heuristic": HeuristicAgent}
BOOK = book
EVALUATE = evaluate
"""ISMCTS playouts stop at the next turn start, valued by the fitted win chances there."""
PLAYOUT = playout
"""ISMCTS playouts follow the quick rules of thumb of :mod:`.search`, not random moves."""
EXPLORATION = 0.15
"""ISMCTS's exploration constant here. Its default (0.7) suits playouts that end in a win or
a loss; this game's playouts end in win chances that a single choice moves by a few points at
most, so with the default every choice keeps being tried alike and the choice made is all but
random. A smaller constant lets the better one be tried more often, and so be chosen."""
TREE_DEPTH = 1
"""ISMCTS's tree holds the choices at hand only; every playout goes on by :data:`PLAYOUT`.
Each choice is then rated by what it leads to when the quick policy finishes the turn: a
one-step lookahead over that policy. In a deeper tree the later choices of the turn (where
to place, whether to roll again) are tried almost alike, as their values differ by a point
or two, so rolling on is rated by a mix of good and poor continuations and can be undervalued.
Against the heuristic at 250 iterations, on the same 200 games (100 deals), the capped tree
won 53.5% where the full one won 50.2% (a gain within the noise of so few games; see
``docs/results.md``)."""

__all__ = [
    "AGENTS",
    "BOOK",
    "EVALUATE",
    "EXPLORATION",
    "PLAYOUT",
    "TREE_DEPTH",
    "ExpertAgent",
    "HeuristicAgent",
    "Judge",
    "Judgement",
    "Weights",
    "at_least",
    "book",
    "nuesse_view",
]
