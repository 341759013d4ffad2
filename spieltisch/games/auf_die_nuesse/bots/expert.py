"""The Auf die Nüsse! expert: the heuristic's agent, from views only, with its dice planned to
the end of each turn.

Where the heuristic looks one roll ahead, the expert values the rest of the turn exactly
(:class:`~.plan.TurnPlan`); every other decision it judges as the heuristic does. Pure: no
I/O, no clock; the agent's own generator is not even needed.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse.bots.heuristic import (
    HeuristicAgent,
    Judged,
    Judgement,
    filling_lay,
    track_of,
)
from spieltisch.games.auf_die_nuesse.bots.judge import Judge, nuesse_view
from spieltisch.games.auf_die_nuesse.model import Stage, fail_chance
from spieltisch.games.auf_die_nuesse.notation import ROLL_AGAIN, STOP, Place
from spieltisch.games.auf_die_nuesse.view import NuesseView


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

    def judge(self, view: NuesseView, legal: Sequence[Move]) -> Judgement:
        planned = _PLANNED.get(nuesse_view(view).stage)
        if planned is None:
            return super().judge(view, legal)
        return planned(Judge(view, self.weights), legal)


def planned_again(judge: Judge, legal: Sequence[Move]) -> Judgement:
    """The roll-or-stop choice played best to the end of the turn (a filling joker first)."""
    lay = filling_lay(judge, legal)
    if lay is not None:
        return lay
    if ROLL_AGAIN not in legal:
        return Judgement(STOP, "no squirrel left to roll with")
    track = track_of(judge.view)
    plan = judge.plan
    stop, roll = judge.stop_value(track), plan.roll_on(track)
    odds = f"fails {float(fail_chance(track)):.0%}; stop {stop:.1f} vs roll on {roll:.1f}"
    move = ROLL_AGAIN if plan.rolls_on(track) else STOP
    return Judgement(move, f"{odds} (played best to the end)")


def _planned_place(judge: Judge, legal: Sequence[Move]) -> Judgement:
    spaces = [move.space for move in legal if isinstance(move, Place)]
    worth, space = judge.plan.best_space(track_of(judge.view), spaces)
    return Judgement(Place(space), f"worth {worth:.1f} with the rest of the turn played best")


_PLANNED: dict[Stage, Judged] = {Stage.AGAIN: planned_again, Stage.PLACE: _planned_place}
"""The decisions the expert plans to the end of the turn (the rest it judges as the
heuristic)."""


__all__ = ["ExpertAgent", "planned_again"]
