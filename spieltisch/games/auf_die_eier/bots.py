"""Auf die Eier agents: the exact expert and a rule-of-thumb heuristic. Both read views only."""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.agents.base import Agent
from spieltisch.core.chance import Counts
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier import expert
from spieltisch.games.auf_die_eier.notation import STOP, Action, Face, Reroll, dice_text
from spieltisch.games.auf_die_eier.view import EierView


def _eier_view(view: object) -> EierView:
    if not isinstance(view, EierView):
        raise TypeError(f"an Auf die Eier agent needs an EierView, not {type(view).__name__}")
    return view


class ExpertAgent(Agent):
    """Plays every turn to maximise its expected points, computed exactly (see ``expert``).

    It ignores the race: it scores as much as it can on average whatever the others hold.
    """

    name = "expert"

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        eier = _eier_view(view)
        need = eier.chicken_need[eier.player]
        del legal  # the expert's choices are exactly the legal actions
        action, _ = expert.best_choice(eier.rolls, eier.dice, need)
        return action

    def values(self, view: object) -> list[tuple[Move, float]]:
        """Every legal choice with its expected points for the rest of the turn."""
        eier = _eier_view(view)
        values = expert.choice_values(eier.rolls, eier.dice, eier.chicken_need[eier.player])
        return sorted(values, key=lambda item: -item[1])

    def explain(self, view: object, legal: Sequence[Move]) -> str:
        ranked = self.values(view)
        best, value = ranked[0]
        stop = next(v for a, v in ranked if a is STOP)
        others = ", ".join(f"{a} {v:.2f}" for a, v in ranked[1:4])
        return (
            f"expert: {best} — expected {value:.2f} points this turn (stopping now: {stop:.2f}; "
            f"next best: {others})"
        )


class HeuristicAgent(Agent):
    """Plays like a careful human with a few rules of thumb.

    * Chickens: keep them while there are no more than the ladder asks for; throw back any
      extra ones; throw them all back once the ladder is used up.
    * Fried Eggs: keep every complete pair of cracked egg and frying pan; throw back the spares.
    * Breakfast: keep one pot when there is a whole egg to go with it, and keep the whole eggs
      when there is a pot (or two or more of them, hoping for a pot); throw back spare pots.
    * Stop when nothing is left worth throwing, when three or more Rotten Eggs already lie
      aside (they will spoil what was built), or when at most two dice would be thrown and the
      dice kept already score 10 or more.
    """

    name = "heuristic"

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        del legal  # a re-roll of dice the heuristic does not keep is always legal
        eier = _eier_view(view)
        return self.choose(eier.rolls, eier.dice, eier.chicken_need[eier.player])

    @classmethod
    def choose(cls, rolls: int, dice: Counts, need: int | None) -> Action:
        """The heuristic's choice with ``dice`` on the table after ``rolls`` throws."""
        del rolls  # the rules of thumb do not look at the throws left
        keep = cls.keep(dice, need)
        thrown = tuple(n - k for n, k in zip(dice, keep, strict=True))
        worth = expert.stop_value(keep, need)
        count = sum(thrown)
        if count == 0 or dice[Face.ROTTEN] >= 3 or (count <= 2 and worth >= 10):
            return STOP
        return Reroll(thrown)

    @staticmethod
    def keep(dice: Counts, need: int | None) -> Counts:
        """The dice this heuristic sets aside (Rotten Eggs always stay)."""
        hens = dice[Face.CHICKEN] if need is not None and dice[Face.CHICKEN] <= need else 0
        if need is not None and dice[Face.CHICKEN] > need:
            hens = need
        pairs = min(dice[Face.CRACKED], dice[Face.PAN])
        whole = dice[Face.WHOLE] if dice[Face.POT] or dice[Face.WHOLE] >= 2 else 0
        pot = 1 if dice[Face.POT] and dice[Face.WHOLE] else 0
        return (whole, pairs, dice[Face.ROTTEN], pot, pairs, hens)

    def explain(self, view: object, legal: Sequence[Move]) -> str:
        eier = _eier_view(view)
        keep = self.keep(eier.dice, eier.chicken_need[eier.player])
        return f"heuristic: {self.act(view, legal)} (keeps {dice_text(keep)})"


AGENTS = {"expert": ExpertAgent, "heuristic": HeuristicAgent}
