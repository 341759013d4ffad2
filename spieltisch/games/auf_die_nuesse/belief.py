"""Auf die Nüsse!: belief sampling, which here is rebuilding the one state a view shows.

Nothing in the game is hidden. The state never holds the order of the draw pile nor which
cards were set aside: each card is drawn, when it is needed, from the multiset of cards nobody
has seen, which every player can count. So a view (any player's, or a spectator's) shows the
whole state, and :func:`state_of` rebuilds it exactly; future draws and rolls stay fresh
because they are chance steps still to come. Pure: no I/O.
"""

from __future__ import annotations

import random

from spieltisch.core.game import Game, PlayerId, State
from spieltisch.games.auf_die_nuesse.model import Ending, Stage
from spieltisch.games.auf_die_nuesse.rules import (
    AufDieNuesse,
    Board,
    Context,
    Market,
    NuesseState,
    Step,
)
from spieltisch.games.auf_die_nuesse.view import NuesseView

_NO_STEP = frozenset({Stage.ROLL, Stage.PLACE, Stage.AGAIN, Stage.OVER})


def sample_state(game: Game, view: object, rng: random.Random) -> NuesseState:
    """The one state of ``game`` that shows ``view``: nothing is hidden.

    Cards are drawn from the unseen multiset as the game needs them, so the state holds
    no pile order to guess, and every later draw and roll is fresh chance.
    """
    del rng
    if not isinstance(view, NuesseView):
        raise TypeError(f"not an Auf die Nüsse! view: {type(view).__name__}")
    if view.config != game.config:
        raise ValueError(f"the view is of {AufDieNuesse.of(view.config)!r}, not {game!r}")
    return state_of(view)


def redeal_hidden(state: State, observer: PlayerId | None, rng: random.Random) -> State:
    """A state ``observer`` cannot tell from ``state``: ``state`` itself, as nothing is hidden."""
    del observer, rng
    return state


def state_of(view: NuesseView) -> NuesseState:
    """The state that shows ``view``: the same board, turn, step under way and events."""
    player, track = view.player, sum(1 << n for n in view.track)
    # The view counts the squirrels in supply now; the state still counts those on the track.
    supply = tuple(n + len(view.track) if p == player else n for p, n in enumerate(view.supply))
    market = Market(view.face_up, view.unseen, view.pile, view.set_aside, view.ending)
    board = Board(view.config, view.areas, supply, market, view.stores, view.jokers, view.david)
    return NuesseState(board, view.stage, player, track, view.dice, step_of(view), view.events)


def step_of(view: NuesseView) -> Step | None:
    """The setup, collection or end-game step under way in ``view`` (``None``: none is)."""
    stage = view.stage
    if stage in _NO_STEP:
        return None
    if stage is Stage.FACE_UP:
        # The face-up row is laid before anyone is dealt; the starter stands for the table.
        return Step(Context.SETUP, 0, refill=view.refill)
    if view.receiver is None:
        raise ValueError(f"a view at the {stage.value} stage names who the step is about")
    if view.space is not None:
        context = Context.CHECKS
    elif view.ending is Ending.FINAL:
        context = Context.JOKERS  # kept jokers are stored once every claim is settled
    else:
        context = Context.SETUP  # the nut dealt at the start
    return Step(context, view.receiver, view.space, view.pending, view.refill, view.theft)


__all__ = ["redeal_hidden", "sample_state", "state_of", "step_of"]
