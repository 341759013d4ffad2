"""Auf die Eier: belief sampling for search. Nothing is hidden, so there is nothing to guess.

A view shows the whole state, so the one state a view can come from is rebuilt from it, and a
redeal of what an observer cannot see is the state itself. Pure: no I/O.
"""

from __future__ import annotations

import random

from spieltisch.core.game import Game, PlayerId, State
from spieltisch.games.auf_die_eier.rules import EierState, Sheet
from spieltisch.games.auf_die_eier.view import EierView


def state_of(view: EierView) -> EierState:
    """The one state that shows ``view``: nothing in Auf die Eier is hidden."""
    sheet = Sheet(
        config=view.config,
        scores=view.scores,
        crossed=view.crossed,
        final_round=view.final_round,
        tie_players=view.tie_players,
        winners=view.winners,
        last=view.last,
    )
    return EierState(sheet, view.player, view.stage, view.rolls, view.dice, view.to_throw)


def sample_state(game: Game, view: EierView, rng: random.Random) -> EierState:
    """The one state that shows ``view`` (``game`` and ``rng`` are not needed to find it)."""
    del game, rng
    return state_of(_eier_view(view))


def redeal_hidden(state: State, observer: PlayerId | None, rng: random.Random) -> State:
    """``state`` itself: nothing in Auf die Eier is hidden from anyone."""
    del observer, rng
    return state


def _eier_view(view: object) -> EierView:
    """``view``, checked to be an Auf die Eier view (a search may hand over anything)."""
    if not isinstance(view, EierView):
        raise TypeError(f"not an Auf die Eier view: {type(view).__name__}")
    return view
