"""Auf die Eier aids for search agents: the expert as playout policy and a cut-off estimate.

A random playout of a dice race says next to nothing about the choice it began with: one
choice moves a player's chance to win by a point or two, and a random game to 100 buries
that under the luck of some forty turns played badly. So ISMCTS here

* plays out with :func:`playout`, the expert's choice (:mod:`.expert`: the most points on
  average for the rest of the turn), so that a choice is rated by what sensible play makes
  of it; and
* stops a playout at the start of the next turn with :func:`evaluate`, which turns the
  players' scores into chances to win by a model of the rest of the race (:func:`win_chances`),
  so that the luck of later turns does not drown the turn at hand. Once the end is near
  (somebody within :data:`END_TURNS` average turns of the goal, or the final round or tie
  turns under way), nothing is estimated: the playout runs to the end, where the rules
  decide who wins.

**The estimate.** A turn played as the expert plays it scores about :data:`MEAN_PER_DIE`
points a die on average, with a spread (standard deviation) of about :data:`SPREAD_PER_DIE`
a die (the expert's exact turn outcomes give 17.4 and 6.7 with nine dice, 9.5 and 4.9 with
five, 19.3 and 7.1 with ten). The leader needs about ``T`` more turns to reach the goal; over
``T`` turns each, the difference of two players' gains spreads by ``sqrt(2 T)`` turns'
spread, so a lead of ``d`` points wins with chance about ``Phi(d / (spread sqrt(2 T)))``,
which is the logistic of ``1.7`` times that. With more players the chances are the softmax
of those strengths (the logistic of the difference for two). Players still to throw in the
round are counted with an average turn more (:func:`standings`), so that every score stands
for the same number of turns. The estimate ignores the Chickens still to come: every choice
of a turn is valued at the same moment, the next player's turn start.

``bots.SEARCH`` gives ISMCTS a tree of depth 1, so each choice at hand is rated by the expert
finishing the turn from it. A throw offers up to 162 choices (243 with ten dice), far more
than a small budget can try, so the search weighs only the expert's :data:`CANDIDATES` best
by expected points (:func:`candidates`): it plays the expert's turn unless the race says the
other is worth more. Two measured best, at every budget from 20 to 20,000 iterations
(docs/results.md). With two choices to weigh, the default exploration constant serves: near
the end, where playouts run to a win or a loss, a smaller one let an unlucky first loss or two
starve the better choice.

Nothing in this game is hidden, so all three read the state directly. The native core
mirrors them (``native/src/games/auf_die_eier/bots/search.rs``, handed to the search in
``belief.rs``). Pure: no I/O, no clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from spieltisch.core.game import Move, State
from spieltisch.games.auf_die_eier.bots.expert import best_choice, choice_values
from spieltisch.games.auf_die_eier.model import Stage
from spieltisch.games.auf_die_eier.rules import EierState

MEAN_PER_DIE = 1.9
"""Points a turn played as the expert scores on average, per die in play."""
SPREAD_PER_DIE = 0.75
"""The standard deviation of a turn's points played as the expert, per die in play."""
LOGISTIC = 1.7
"""The logistic's slope that matches a normal distribution's (``Phi(x) ~ 1/(1+e^(-1.7x))``)."""
END_TURNS = 2.0
"""With the leader this many average turns from the goal or closer, playouts run to the end."""
TREE_DEPTH = 1
"""The search's tree holds the choices at hand; the expert plays on from each."""
CANDIDATES = 2
"""The choices the search weighs at a decision: the expert's best by expected points."""


def playout(state: State, rng: random.Random) -> Move:
    """The expert's choice at a decision (the first among equals, as the expert plays)."""
    del rng  # the expert's choices are fixed
    if not isinstance(state, EierState):
        raise TypeError(f"an Auf die Eier playout needs an EierState, not {type(state).__name__}")
    action, _ = best_choice(state.rolls, state.dice, state.chicken_need(state.player))
    return action


def standings(state: EierState) -> list[float]:
    """Each player's score at a turn start, counting an average turn for every player still
    to throw in this round (the one about to throw among them)."""
    turn = MEAN_PER_DIE * state.config.dice
    return [
        score + (turn if player >= state.player else 0.0)
        for player, score in enumerate(state.sheet.scores)
    ]


def candidates(state: State, legal: Sequence[Move]) -> Sequence[Move]:
    """The choices the search weighs: with more than :data:`CANDIDATES` legal ones, the
    expert's :data:`CANDIDATES` best by expected points for the rest of the turn (the earlier
    in legal order among equals), in legal order."""
    if len(legal) <= CANDIDATES or not isinstance(state, EierState):
        return legal
    values = choice_values(state.rolls, state.dice, state.chicken_need(state.player))
    ranked = sorted(values, key=lambda item: -item[1])  # stable: equals stay in legal order
    best = {action for action, _ in ranked[:CANDIDATES]}
    return [move for move in legal if move in best]


def at_turn_start(state: EierState) -> bool:
    """Whether ``state`` is the first throw of a turn in normal play, with the end still far
    enough off for :func:`win_chances` to stand in for the rest of the game."""
    if state.stage is not Stage.ROLL or state.rolls or state.final_round or state.tie_players:
        return False
    config = state.config
    return config.goal - max(standings(state)) > END_TURNS * MEAN_PER_DIE * config.dice


def win_chances(state: EierState) -> tuple[float, ...]:
    """Each player's chance to win from a turn start, by the model of the module docstring."""
    config = state.config
    scores = standings(state)
    top = max(scores)
    turns = max(1.0, (config.goal - top) / (MEAN_PER_DIE * config.dice))
    scale = LOGISTIC / (SPREAD_PER_DIE * config.dice * math.sqrt(2.0 * turns))
    odds = [math.exp(scale * (score - top)) for score in scores]
    total = sum(odds)
    return tuple(o / total for o in odds)


def evaluate(state: State, depth: int) -> tuple[float, ...] | None:
    """Where a search's playout stops, valued as each player's chance to win: at the first
    turn start it meets while the end is still far off (:func:`at_turn_start`); elsewhere
    ``None``, play on."""
    del depth  # every playout stops at the first turn start it meets
    if not isinstance(state, EierState) or not at_turn_start(state):
        return None
    return win_chances(state)
