"""The Auf die Nüsse! heuristic: an agent, from views only, that plays like a careful human.

It chooses by the prices of :class:`~.judge.Judge`, in expected points, looking one roll
ahead. Its judgements of the nut-handling decisions (:data:`BOOKED`) are also the book search
plays without thinking (:mod:`.book`), and the expert (:mod:`.expert`) plays as it does except
for its dice. Pure: no I/O, no clock; the agent's own generator is not even needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spieltisch.core.agent import Agent
from spieltisch.core.fast import value
from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse.bots.judge import Judge, Weights, nuesse_view
from spieltisch.games.auf_die_nuesse.bots.plan import TIED, sum_pairs
from spieltisch.games.auf_die_nuesse.model import OFFER, Stage
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
from spieltisch.games.auf_die_nuesse.view import NuesseView

_SUM_PAIRS = sum_pairs()
_HITS: dict[Space, float] = {
    space: sum(c for a, b, c in _SUM_PAIRS if space in (TRACK_SPACE[a], TRACK_SPACE[b])) / len(DICE)
    for space in TWO_AREA
}
"""The chance that one roll can put a squirrel below each 2-area space."""


@value
class Judgement:
    """The heuristic's choice and what it weighed."""

    move: Move
    why: str


class HeuristicAgent(Agent[NuesseView]):
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

    def act(self, view: NuesseView, legal: Sequence[Move]) -> Move:
        return self.judge(view, legal).move

    def explain(self, view: NuesseView, legal: Sequence[Move]) -> str:
        judgement = self.judge(view, legal)
        return f"{self.name}: {judgement.move} — {judgement.why}"

    def judge(self, view: NuesseView, legal: Sequence[Move]) -> Judgement:
        """The choice for ``view`` among ``legal``, with the reason."""
        judged = _JUDGED.get(nuesse_view(view).stage)
        if judged is None:
            return Judgement(legal[0], "the only choice")
        return judged(Judge(view, self.weights), legal)


def _best(scored: list[tuple[float, Move]]) -> tuple[float, Move]:
    """The highest-scoring move, the first listed on a tie (scores within :data:`~.plan.TIED`
    count as tied)."""
    best = scored[0]
    for item in scored[1:]:
        if item[0] > best[0] + TIED:
            best = item
    return best


def track_of(view: NuesseView) -> int:
    """The view's start track as bits (bit ``n``: space ``n`` holds a squirrel)."""
    return sum(1 << n for n in view.track)


def filling_lay(judge: Judge, legal: Sequence[Move]) -> Judgement | None:
    """Laying the kept joker that fills the most valuable store, if one fills any."""
    fills = [m for m in legal if isinstance(m, Lay) and judge.completes(judge.me, _as_put(m))]
    if not fills:
        return None
    lay = max(fills, key=lambda m: judge.values[m.store])
    return Judgement(lay, f"the kept joker fills S{lay.store + 1} now")


def _again(judge: Judge, legal: Sequence[Move]) -> Judgement:
    lay = filling_lay(judge, legal)
    if lay is not None:
        return lay
    track = track_of(judge.view)
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
    track = track_of(judge.view)
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


Judged = Callable[[Judge, Sequence[Move]], Judgement]
"""How one kind of decision is judged, given the judge of the view and the legal moves."""

BOOKED: dict[Stage, Judged] = {
    Stage.PUT: _put,
    Stage.TAKE: _take,
    Stage.STEAL: _steal,
    Stage.SETUP: _setup,
}
"""The decisions the book answers as the heuristic does."""
_JUDGED: dict[Stage, Judged] = {Stage.AGAIN: _again, Stage.PLACE: _place, **BOOKED}
"""How the heuristic judges each kind of decision."""


__all__ = ["BOOKED", "HeuristicAgent", "Judged", "Judgement", "filling_lay", "track_of"]
