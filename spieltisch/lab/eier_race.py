"""Auf die Eier's race, worked out: each player's chance to win from any decision of a game.

The lab's game-quality measures need, at every decision, each player's chance to win. For Auf
die Eier it is computed here from the expert's exact play (:mod:`..bots.expert`), not guessed
from the scores:

1. **A turn's outcome.** Playing every choice as the expert does, a turn from any decision ends
   with a known distribution of points, and of whether its Chickens scored (which moves the
   player down the chicken ladder): :func:`turn_outcomes`, exact, by the same recursion as the
   expert's expected values but over whole distributions.
2. **One player's race.** From a score and a ladder entry, the chance of still being below the
   goal after ``k - 1`` more turns and holding each score after ``k``: :meth:`Race.future`, a
   table built once per distance to the goal and ladder entry, shared by every game of one goal
   and number of dice.
3. **The table.** The game ends with the first round in which someone reaches the goal; the
   highest score then wins, a tie being shared (the tie turns are taken as even). Summing over
   the round the game ends in, with the players' races independent, gives each player's chance:
   :func:`win_chances`.

Assumed: everyone plays as the expert (who ignores the race), and each player's ladder moves on
its own; with the shared chicken ladder each player is given a ladder of their own starting at
the shared entry, an approximation (the others' Chickens move it too). Pure: no I/O.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from spieltisch.core.chance import Counts
from spieltisch.games.auf_die_eier.bots.expert import best_choice, throws
from spieltisch.games.auf_die_eier.model import LADDER, MAX_ROLLS, Stage, max_turn_points
from spieltisch.games.auf_die_eier.notation import Face, Reroll
from spieltisch.games.auf_die_eier.rules import EierState, chicken_need, score_turn, without_rotten

Array = NDArray[np.float64]
NEGLIGIBLE = 1e-12
"""A chance below this (of a player still racing after some turns) is dropped as nothing."""
RUNGS = len(LADDER) + 1
"""Ladder positions: entries crossed off, from none to all."""
RACES_KEPT = 4
"""Race tables kept at once (one per goal and number of dice: about 12 MB at the rulebook's
goal of 100, 140 MB at 300), so a search over goals does not pile them up."""


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@functools.cache
def _stop(dice: Counts, need: int | None) -> Array:
    """The outcome of stopping with ``dice``: shape ``(2, points + 1)``, row 1 when the
    Chickens scored; the Rotten Eggs re-thrown once."""
    outcome = np.zeros((2, max_turn_points(sum(dice)) + 1))
    kept = without_rotten(dice)
    for thrown, p in throws(dice[Face.ROTTEN]):
        scored = score_turn(0, _plus(kept, without_rotten(thrown)), thrown[Face.ROTTEN], need)
        outcome[int(scored.chickens > 0), scored.points] += p
    return outcome


@functools.cache
def turn_outcomes(rolls: int, dice: Counts, need: int | None) -> Array:
    """How the turn ends from a decision with ``dice`` on the table after ``rolls`` throws and
    ``need`` Chickens wanted, the expert making every choice: chances of shape
    ``(2, points + 1)``, row 0 when the Chickens did not score, row 1 when they did."""
    if rolls >= MAX_ROLLS or dice[Face.ROTTEN] == sum(dice):
        return _stop(dice, need)
    action, _ = best_choice(rolls, dice, need)
    if not isinstance(action, Reroll):
        return _stop(dice, need)
    kept = tuple(n - k for n, k in zip(dice, action.dice, strict=True))
    outcome = np.zeros((2, max_turn_points(sum(dice)) + 1))
    for thrown, p in throws(sum(action.dice)):
        outcome += p * turn_outcomes(rolls + 1, _plus(kept, thrown), need)
    return outcome


@functools.cache
def fresh_turn(need: int | None, dice: int) -> Array:
    """How a whole turn with ``dice`` dice ends, before its first throw (shaped as
    :func:`turn_outcomes`)."""
    outcome = np.zeros((2, max_turn_points(dice) + 1))
    for thrown, p in throws(dice):
        outcome += p * turn_outcomes(1, thrown, need)
    return outcome


class Race:
    """One player's race to ``goal`` with ``dice`` dice, tabulated as it is asked for."""

    def __init__(self, goal: int, dice: int) -> None:
        self.goal = goal
        self.dice = dice
        self.most = max_turn_points(dice)
        self.turns = [fresh_turn(chicken_need(rung), dice) for rung in range(RUNGS)]
        self._futures: dict[tuple[int, int], Array] = {}

    def future(self, distance: int, rung: int) -> Array:
        """From ``distance`` points below the goal (at least one) with ``rung`` ladder entries
        crossed off, before a turn: row ``k - 1`` holds, for each final score ``s`` at column
        ``s - goal + distance``, the chance of being below the goal after ``k - 1`` turns and
        at ``s`` after ``k``. Rows end once being below the goal has a negligible chance."""
        key = (distance, rung)
        if key not in self._futures:
            for below in range(1, distance):  # fill from the bottom: no deep recursion
                for lower in range(RUNGS):
                    if (below, lower) not in self._futures:
                        self._futures[below, lower] = self._build(below, lower)
            for lower in range(RUNGS):
                if (distance, lower) not in self._futures:
                    self._futures[distance, lower] = self._build(distance, lower)
        return self._futures[key]

    def _build(self, distance: int, rung: int) -> Array:
        turn = self.turns[rung]
        width = distance + self.most
        parts: list[tuple[float, int, Array]] = []
        for advanced in (0, 1):
            for points in range(min(distance, self.most + 1)):
                p = float(turn[advanced, points])
                if p > 0 and (points, advanced) != (0, 0):
                    parts.append((p, points, self._futures[distance - points, rung + advanced]))
        stay = float(turn[0, 0])
        rows = max(1 + max((len(f) for _, _, f in parts), default=0), _lingering(stay))
        table = np.zeros((rows, width))
        table[0, : self.most + 1] = turn.sum(axis=0)
        for p, points, below in parts:
            table[1 : 1 + len(below), points : points + below.shape[1]] += p * below
        for row in range(1, rows):
            table[row] += stay * table[row - 1]
        alive = table[:, :distance].sum(axis=1)
        keep = int(np.argmax(alive < NEGLIGIBLE)) + 1 if (alive < NEGLIGIBLE).any() else rows
        return table[:keep]


def _lingering(stay: float) -> int:
    """Turns in a row without a point, each of chance ``stay``, before it is negligible."""
    return 1 if stay <= 0 else 1 + math.ceil(math.log(NEGLIGIBLE) / math.log(stay))


@functools.lru_cache(maxsize=RACES_KEPT)
def race(goal: int, dice: int) -> Race:
    """The race tables of one goal and number of dice (shared by every game of them; the
    :data:`RACES_KEPT` last asked for are kept)."""
    return Race(goal, dice)


def win_chances(state: EierState) -> tuple[float, ...]:
    """Each player's chance to win from ``state`` (a decision, or a turn's start), as the module
    docstring works it out; the chances sum to one."""
    sheet, config = state.sheet, state.config
    if state.is_terminal():
        return tuple(
            1 / len(sheet.winners) if p in sheet.winners else 0.0 for p in range(config.players)
        )
    if state.stage is not Stage.DECIDE and state.rolls:
        raise ValueError("the race is worked out at a decision or before a turn's first throw")
    table = race(config.goal, config.dice)
    finals, below = _finals(state, table)
    chances = _top_shares(finals)
    if below is not None:
        chances -= _top_shares(below)
    chances = np.clip(chances, 0.0, None)
    return tuple(float(c) for c in chances / chances.sum())


Finals = Array
"""Per player, per round the game may end with, per score: the chance of being below the goal
before that round and holding that score after it (shape ``(players, rounds, scores)``)."""


def _finals(state: EierState, table: Race) -> tuple[Finals, Finals | None]:
    """The players' scores after each round the game may end with, each conditioned on being
    below the goal before it; and the same kept below the goal, to take away the rounds in which
    nobody reached it (``None`` when the game ends with this round whatever happens)."""
    sheet, config = state.sheet, state.config
    players, mover = config.players, state.player
    width = config.goal + 2 * table.most + 1
    outcome = _mover_outcome(state)
    if sheet.final_round or sheet.tie_players:
        still = _still_to_play(state)
        finals = np.zeros((players, 1, width))
        for p in range(players):
            start = sheet.scores[p]
            if p == mover:
                finals[p, 0, start : start + outcome.shape[1]] = outcome.sum(axis=0)
            elif p in still:
                turn = table.turns[sheet.crossed[sheet.ladder(p)]].sum(axis=0)
                finals[p, 0, start : start + len(turn)] = turn
            else:
                finals[p, 0, start] = 1.0
        return finals, None
    return _rounds(state, table, outcome, width)


def _still_to_play(state: EierState) -> frozenset[int]:
    sheet, mover = state.sheet, state.player
    if sheet.tie_players:
        return frozenset(sheet.tie_players[sheet.tie_players.index(mover) + 1 :])
    return frozenset(range(mover + 1, state.config.players))


def _mover_outcome(state: EierState) -> Array:
    need = state.sheet.chicken_need(state.player)
    if state.stage is Stage.DECIDE:
        return turn_outcomes(state.rolls, state.dice, need)
    return fresh_turn(need, state.config.dice)


def _rounds(state: EierState, table: Race, outcome: Array, width: int) -> tuple[Finals, Finals]:
    sheet, config = state.sheet, state.config
    goal, mover = config.goal, state.player
    rows: list[Array] = []
    for p in range(config.players):
        rung = sheet.crossed[sheet.ladder(p)]
        if p == mover:
            rows.append(_mover_rows(table, sheet.scores[p], rung, outcome, width))
        else:
            rows.append(_player_rows(table, sheet.scores[p], rung, int(p > mover), width))
    rounds = max(len(r) for r in rows)
    stacked = np.zeros((config.players, rounds, width))
    for p, r in enumerate(rows):
        stacked[p, : len(r)] = r
    below = stacked.copy()
    below[:, :, goal:] = 0.0
    return stacked, below


def _player_rows(table: Race, score: int, rung: int, now: int, width: int) -> Array:
    """Row ``j``: the player's score after round ``j`` (counted from this one), below the goal
    before it; ``now`` is 1 when the player still plays in this round."""
    future = table.future(table.goal - score, rung)
    rows = np.zeros((len(future) + 1 - now, width))
    if not now:
        rows[0, score] = 1.0
    rows[1 - now :, score : score + future.shape[1]] = future
    return rows


def _mover_rows(table: Race, score: int, rung: int, outcome: Array, width: int) -> Array:
    """As :func:`_player_rows` for the player in the middle of a turn ending as ``outcome``."""
    distance = table.goal - score
    parts = [
        (float(outcome[advanced, points]), points, table.future(distance - points, rung + advanced))
        for advanced in (0, 1)
        for points in range(min(distance, outcome.shape[1]))
        if outcome[advanced, points] > 0
    ]
    rows = np.zeros((1 + max((len(f) for _, _, f in parts), default=0), width))
    rows[0, score : score + outcome.shape[1]] = outcome.sum(axis=0)
    for p, points, future in parts:
        start = score + points
        rows[1 : 1 + len(future), start : start + future.shape[1]] += p * future
    return rows


def _top_shares(finals: Finals) -> Array:
    """Per player, the chance (within these rows' mass) of ending with the highest score, a tie
    counted as shared: the sum over scores ``x`` of ``f_p(x)`` times the integral over ``t`` in
    [0, 1] of the product, over the others, of ``below_q(x) + f_q(x) t``."""
    players = len(finals)
    below = np.cumsum(finals, axis=-1) - finals
    shares = np.zeros(players)
    for p in range(players):
        poly = [np.ones(finals.shape[1:])]
        for q in range(players):
            if q != p:
                poly = _times(poly, below[q], finals[q])
        integral = sum(c / (i + 1) for i, c in enumerate(poly))
        shares[p] = float(np.sum(finals[p] * integral))
    return shares


def _times(poly: Sequence[Array], constant: Array, linear: Array) -> list[Array]:
    """``poly`` (coefficients by power of ``t``) times ``constant + linear t``."""
    result = [c * constant for c in poly] + [np.zeros_like(constant)]
    for i, c in enumerate(poly):
        result[i + 1] = result[i + 1] + c * linear
    return result
