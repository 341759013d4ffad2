"""Auf die Eier's heuristic: a few rules of thumb, as a careful human plays. Reads views only."""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.core.agent import Agent
from spieltisch.core.chance import Counts
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier.bots import expert
from spieltisch.games.auf_die_eier.bots.expert import eier_view
from spieltisch.games.auf_die_eier.notation import STOP, Action, Face, Reroll, dice_text
from spieltisch.games.auf_die_eier.view import EierView


class HeuristicAgent(Agent[EierView]):
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

    def act(self, view: EierView, legal: Sequence[Move]) -> Move:
        del legal  # a re-roll of dice the heuristic does not keep is always legal
        eier = eier_view(view)
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

    def explain(self, view: EierView, legal: Sequence[Move]) -> str:
        eier = eier_view(view)
        keep = self.keep(eier.dice, eier.chicken_need[eier.player])
        return f"heuristic: {self.act(view, legal)} (keeps {dice_text(keep)})"
