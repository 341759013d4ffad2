"""The Auf die Nüsse! book: the set moves a search plays without thinking, and why.

Filing a nut, choosing a face-up nut, a theft and a setup squirrel are played as the heuristic
plays them (:data:`~.heuristic.BOOKED`), and the roll-or-stop choice while a kept joker could
be laid as the expert plays it (:func:`~.expert.planned_again`). Pure: no I/O, no clock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse.bots.expert import planned_again
from spieltisch.games.auf_die_nuesse.bots.heuristic import BOOKED, Judged, Judgement
from spieltisch.games.auf_die_nuesse.bots.judge import Judge
from spieltisch.games.auf_die_nuesse.model import Stage
from spieltisch.games.auf_die_nuesse.notation import Lay
from spieltisch.games.auf_die_nuesse.view import NuesseView


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
    judged: Judged | None = BOOKED.get(view.stage)
    if judged is None and view.stage is Stage.AGAIN and any(isinstance(m, Lay) for m in legal):
        judged = planned_again
    if judged is None:
        return None
    return judged(Judge(view), legal)


__all__ = ["book", "book_reason"]
