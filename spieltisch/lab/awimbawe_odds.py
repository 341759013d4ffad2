"""Awimbawé's odds: each seat's chance to win the match from any position, inside a round too.

The lab's game-quality measures need, at every decision, each player's chance to win. Between
rounds the match is a run of rounds from fresh deals, each taken as a coin toss
(:func:`spieltisch.games.awimbawe.bots.evaluate.match_odds`). Inside a round that alone would
say nothing: with one round to win, nobody would ever lead. So a round in play gets a chance of
its own, read from the table as a spectator who saw every card would read it:

* **the crowns taken** so far, seat 0's less seat 1's, and the same weighed by how far the round
  has gone (a lead late in the round is worth more);
* **the hyenas**: a player holding three is one trick from losing the round outright;
* **what is still to play**: the eagles each holds (their fighting strength above the land
  animals), the value of the rest of each hand, and the crowns on each player's own cards;
* **who leads** the trick in play.

Seat 0's chance to take the round is a logistic function of these differences, with no constant
(so the two seats' chances add up to one, whichever seat is which): :data:`WEIGHTS`, fitted to
games of the heuristic against itself by ``scripts/fit_awimbawe_round.py``, which prints the
held-out log loss and Brier score beside an even split's. The match then follows: the round
taken or lost, and the rounds after it coin tosses. Pure: no I/O.
"""

from __future__ import annotations

import math

from spieltisch.games.awimbawe.bots.evaluate import match_odds
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.rules import AwimbaweState, Side

CARDS = 28
"""Cards in a round (both players' fourteen)."""
EAGLE_LOW = 6
"""An eagle's fighting strength is its value less this (the strongest land animal)."""
FEATURES = (
    "crowns",
    "crowns-late",
    "hyenas",
    "one-hyena-short",
    "eagles",
    "hand-value",
    "own-crowns",
    "leads",
)
"""The features, each seat 0's less seat 1's (see the module docstring)."""
WEIGHTS = (0.0289, 0.1054, -0.6191, 0.4902, 0.0092, -0.1366, -0.0565, 0.0744)
"""Their weights in the logistic chance of seat 0 taking the round (the fit's; see above)."""
IN_ROUND = frozenset({Stage.PLAY, Stage.RHINOCEROS, Stage.SNAKE, Stage.BLIND_PICK, Stage.CHEETAH})
"""The stages of a round in play."""


def _held(side: Side) -> list[int]:
    """The values of the cards ``side`` still holds (hand and piles, face down included)."""
    return [c.value for c in side.hand] + [c.value for pile in side.piles for c in pile]


def _own_crowns(side: Side) -> int:
    return sum(c.crowns for c in side.hand) + sum(c.crowns for pile in side.piles for c in pile)


def features(state: AwimbaweState) -> tuple[float, ...]:
    """The features of a round in play (see :data:`FEATURES`)."""
    first, second = state.tallies
    played = first.size + second.size + len(state.trick)
    late = played / CARDS
    crowns = first.crowns - second.crowns
    values = [_held(side) for side in state.sides]
    eagles = [sum(v - EAGLE_LOW for v in held if v > EAGLE_LOW) for held in values]
    hands = [sum(v for v in held if v <= EAGLE_LOW) for held in values]
    return (
        crowns,
        crowns * late,
        first.hyenas - second.hyenas,
        (first.hyenas == 3) - (second.hyenas == 3),
        eagles[0] - eagles[1],
        (hands[0] - hands[1]) / 10,
        _own_crowns(state.sides[0]) - _own_crowns(state.sides[1]),
        1 if state.leader == 0 else -1,
    )


def logistic(x: float) -> float:
    """``1 / (1 + e^-x)``, without overflow."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


def round_chance(state: AwimbaweState, weights: tuple[float, ...] = WEIGHTS) -> float:
    """Seat 0's chance to take the round in play."""
    return logistic(sum(w * f for w, f in zip(weights, features(state), strict=True)))


def win_chances(state: AwimbaweState, weights: tuple[float, ...] = WEIGHTS) -> tuple[float, float]:
    """Each seat's chance to win the match from ``state``."""
    wins = state.match.wins
    if state.is_terminal():
        return (1.0, 0.0) if wins[0] > wins[1] else (0.0, 1.0)
    needed = state.match.config.rounds_to_win
    left = (needed - wins[0], needed - wins[1])
    if state.stage not in IN_ROUND:
        odds = match_odds(left)
        return (odds, 1.0 - odds)
    p = round_chance(state, weights)
    odds = p * match_odds((left[0] - 1, left[1])) + (1 - p) * match_odds((left[0], left[1] - 1))
    return (odds, 1.0 - odds)
