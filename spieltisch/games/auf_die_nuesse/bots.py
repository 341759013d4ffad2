"""Auf die Nüsse! agents, from views only: a heuristic that plays like a careful human, and an
expert that plays the same way but plans its dice to the end of each turn.

Both choose by the prices of :class:`~.judge.Judge`, in expected points. The heuristic looks
one roll ahead; the expert values the rest of the turn exactly (:class:`~.plan.TurnPlan`).
Pure: no I/O, no clock; the agents' own generators are not even needed.

For search agents the module also offers ``EVALUATE`` and ``PLAYOUT`` (from :mod:`.search`):
ISMCTS plays its playouts by quick rules of thumb (its dice by the plan) and stops them at the
next turn start, where a fitted estimate of each player's chance to win replaces the rest of
the game; ``BOOK``: the nut-handling choices it plays as the heuristic does, without
searching, and ``BOOK_REASON``: why (what ``hint`` shows for them); and the ``ismcts`` agent
itself, with an exploration constant suited to those estimates and a tree of depth 1
(``EXPLORATION``, ``TREE_DEPTH``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from spieltisch.agents.base import Agent
from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse.judge import Judge, Weights, nuesse_view
from spieltisch.games.auf_die_nuesse.notation import (
    DICE,
    KEEP,
    PASS,
    ROLL_AGAIN,
    STOP,
    TRACK_SPACE,
    TWO_AREA,
    Lay,
    Place,
    Put,
    Setup,
    Space,
    Steal,
    Take,
)
from spieltisch.games.auf_die_nuesse.plan import (
    TIED,
    sum_pairs,
)
from spieltisch.games.auf_die_nuesse.rules import (
    OFFER,
    STORE_VALUES,
    Stage,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.search import evaluate, playout
from spieltisch.games.auf_die_nuesse.view import NuesseView

_SUM_PAIRS = sum_pairs()
_HITS: dict[Space, float] = {
    space: sum(c for a, b, c in _SUM_PAIRS if space in (TRACK_SPACE[a], TRACK_SPACE[b])) / len(DICE)
    for space in TWO_AREA
}
"""The chance that one roll can put a squirrel below each 2-area space."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The heuristic's choice and what it weighed."""

    move: Move
    why: str


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
    judgement = _book_judgement(view, legal)
    return None if judgement is None else judgement.move


def book_reason(view: object, legal: Sequence[Move]) -> str | None:
    """Why :func:`book` plays its set move here (what ``hint`` shows for it), or ``None`` where
    the book has none."""
    judgement = _book_judgement(view, legal)
    return None if judgement is None else judgement.why


def _book_judgement(view: object, legal: Sequence[Move]) -> Judgement | None:
    """The heuristic's or the expert's judgement of a decision the book answers."""
    if not isinstance(view, NuesseView):
        return None
    judged = _BOOKED.get(view.stage)
    if judged is None and view.stage is Stage.AGAIN and any(isinstance(m, Lay) for m in legal):
        judged = _planned_again
    if judged is None:
        return None
    return judged(Judge(view), legal)


AGENTS = {"expert": ExpertAgent, "heuristic": HeuristicAgent}


def strength_order(players: int) -> tuple[str, ...]:
    """How the agents rank for ``players``, strongest first (what ``play`` sets against a
    newcomer and ``hint`` asks). In two-player games against the heuristic (400 or 1000 games
    on shared deals, ``docs/results.md``) the search at one second per move won 60.0%
    (55.1-64.7%) and the expert 52.6% (49.5-55.7%), so the search comes first. With three
    and four players, each against heuristics in the other seats on the same deals, both beat
    a seat's even share, and the search at 250 iterations per move was level with the expert:
    41.9% against 38.9% of 600 three-player games (paired, +3.0 +/- 5.5 percentage points),
    34.8% against 31.5% of 300 four-player games (+3.3 +/- 7.5). The one-second search was not
    measured there and its evaluation was fitted to two-player games, so the expert, as strong
    as measured and instant, stays first."""
    if players == 2:
        return ("ismcts", "expert", "heuristic", "random")
    return ("expert", "ismcts", "heuristic", "random")


BOOK = book
BOOK_REASON = book_reason
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
    "BOOK_REASON",
    "EVALUATE",
    "EXPLORATION",
    "PLAYOUT",
    "TREE_DEPTH",
    "ExpertAgent",
    "HeuristicAgent",
    "Judge",
    "Judgement",
    "Weights",
    "book",
    "book_reason",
    "nuesse_view",
    "strength_order",
]
