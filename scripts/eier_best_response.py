"""The best possible play against Auf die Eier's heuristic or its expert, worked out exactly
(two players, the rulebook's goal of 100 and nine dice): the most any bot can win against it.

Both opponents play every turn by the dice alone (never by the scores), so against either the
game is a race one player steers: a dynamic programme over both scores and both chicken
ladders at each round's start finds the play that wins most often. At every state the best
turn is worked out back from its last throw, as the expert's (``bots/expert.py``), but each
way the turn can end (its points, and whether its Chickens scored) is worth the chance to win
from the state it leaves, the opponent's next turn taken over its exact outcomes. The end
follows the rules: the round is played out once someone has 100, the highest score wins, and
a tie is settled by one more turn each (the second player knowing the first's). States are
worked from the highest scores down; a round in which neither scores loops back to itself,
settled by repeating the state's sum (:data:`SWEEPS`; such a round has a chance of about one
in ten thousand).

The same programme with the expert's fixed turns instead of the best ones gives the expert's
chance against the opponent, to check the programme against the arena (75.5% against the
heuristic here, 76.0% (74.1-77.9) over 2,000 arena games; against itself the two seats' chances
add up to one).

Usage: .venv/bin/python scripts/eier_best_response.py [best|expert] [both|first|second]
[heuristic|expert] (best, both and the heuristic by default; the expert's check takes a
minute, the best response about half an hour a seat on one core). Prints the chance to win as
the first and as the second player, and their mean.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from spieltisch.core.chance import Counts
from spieltisch.games.auf_die_eier.bots.expert import best_choice, throws
from spieltisch.games.auf_die_eier.bots.heuristic import HeuristicAgent
from spieltisch.games.auf_die_eier.model import LADDER, MAX_ROLLS, max_turn_points
from spieltisch.games.auf_die_eier.notation import Action, Face, Reroll
from spieltisch.games.auf_die_eier.rules import chicken_need, rerolls_of, score_turn, without_rotten

Array = NDArray[np.float64]
DICE = 9
GOAL = 100
WIDTH = max_turn_points(DICE) + 1
"""A turn's points: 0 to 37; a turn's end is indexed ``advanced * WIDTH + points``."""
RUNGS = len(LADDER) + 1
SCORES = GOAL + WIDTH
"""The score axis: up to the most a player can hold when the game ends."""
SWEEPS = 2
REACHED = np.concatenate([[0], np.cumsum(LADDER)]) * 5
"""The fewest points a player has after crossing off each number of ladder entries."""
Choose = Callable[[int, Counts, "int | None"], Action]


def sets(dice: int) -> list[Counts]:
    return [c for c in itertools.product(range(dice + 1), repeat=6) if sum(c) == dice]


def plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


TABLE = sets(DICE)
AT = {dice: i for i, dice in enumerate(TABLE)}
KEPT = [kept for size in range(DICE) for kept in sets(size)]
KEPT_AT = {kept: i for i, kept in enumerate(KEPT)}
THROW = np.zeros((len(KEPT), len(TABLE)))
"""Keeping a set and throwing the rest: the chance of each set on the table after."""
for _row, _kept in enumerate(KEPT):
    for _outcome, _p in throws(DICE - sum(_kept)):
        THROW[_row, AT[plus(_kept, _outcome)]] += _p
FIRST = np.zeros(len(TABLE))
for _outcome, _p in throws(DICE):
    FIRST[AT[_outcome]] += _p
KEEPS = [
    [
        KEPT_AT[tuple(n - k for n, k in zip(dice, action.dice, strict=True))]
        for action in rerolls_of(without_rotten(dice))
        if isinstance(action, Reroll)
    ]
    if dice[Face.ROTTEN] != DICE
    else []
    for dice in TABLE
]
FLAT = np.array([k for keeps in KEEPS for k in keeps], dtype=np.int64)
HAS = np.array([bool(keeps) for keeps in KEEPS])
STARTS = np.concatenate([[0], np.cumsum([len(k) for k in KEEPS])[:-1]])[HAS]


def stop_table(need: int | None) -> Array:
    """How stopping with each set of dice ends the turn: rows sets, columns turn ends."""
    table = np.zeros((len(TABLE), 2 * WIDTH))
    for row, dice in enumerate(TABLE):
        for thrown, p in throws(dice[Face.ROTTEN]):
            scored = plus(without_rotten(dice), without_rotten(thrown))
            turn = score_turn(0, scored, thrown[Face.ROTTEN], need)
            table[row, (turn.chickens > 0) * WIDTH + turn.points] += p
    return table


STOPS = [stop_table(chicken_need(rung)) for rung in range(RUNGS)]


def fixed_turn(rung: int, choose: Choose) -> Array:
    """How a turn played by ``choose`` ends: a chance per turn end."""
    need, stop = chicken_need(rung), STOPS[rung]
    ends = stop
    for rolls in range(MAX_ROLLS - 1, 0, -1):
        kept = THROW @ ends
        chosen = stop.copy()
        for row, dice in enumerate(TABLE):
            action = choose(rolls, dice, need) if dice[Face.ROTTEN] != DICE else None
            if isinstance(action, Reroll):
                chosen[row] = kept[
                    KEPT_AT[tuple(n - k for n, k in zip(dice, action.dice, strict=True))]
                ]
        ends = chosen
    return FIRST @ ends


def expert_choice(rolls: int, dice: Counts, need: int | None) -> Action:
    return best_choice(rolls, dice, need)[0]


OPPONENTS: dict[str, Choose] = {"heuristic": HeuristicAgent.choose, "expert": expert_choice}
"""The opponents the programme can play against: each plays by its dice alone."""


def opponent_turns(name: str) -> Array:
    """The opponent's turn per ladder position: chances by (advanced, points)."""
    return np.stack([fixed_turn(r, OPPONENTS[name]).reshape(2, WIDTH) for r in range(RUNGS)])


class Player:
    """The player against the opponent: best turns, or the expert's; ``opponent`` holds the
    opponent's turns (:func:`opponent_turns`)."""

    def __init__(self, best: bool, opponent: Array) -> None:
        self.opponent = opponent
        self.expert = (
            None if best else np.stack([fixed_turn(r, expert_choice) for r in range(RUNGS)])
        )

    def turns(self, worth: Array) -> Array:
        """``worth`` (rungs, turn ends, columns): what each turn end is worth; returns
        (rungs, columns), the value of the turn played at each ladder position."""
        rungs, _, columns = worth.shape
        if self.expert is not None:
            fixed: Array = np.einsum("re,rec->rc", self.expert[:rungs], worth)
            return fixed
        stop = np.concatenate([STOPS[r] @ worth[r] for r in range(rungs)], axis=1)
        value = stop
        for _ in range(MAX_ROLLS - 1):
            kept = (THROW @ value)[FLAT]
            value = stop.copy()
            value[HAS] = np.maximum(value[HAS], np.maximum.reduceat(kept, STARTS, axis=0))
        best: Array = (FIRST @ value).reshape(rungs, columns)
        return best


def top_rung(score: int) -> int:
    """The most ladder entries a player with ``score`` points can have crossed off."""
    return int(np.searchsorted(REACHED, score, side="right")) - 1


def finished(tie: Array) -> Array:
    """The chance to win at every pair of scores once someone reached the goal (ties by
    ``tie``, per ladder positions); the states inside are filled in later."""
    mine, theirs = np.arange(SCORES)[:, None], np.arange(SCORES)[None, :]
    won = np.broadcast_to((mine > theirs)[:, :, None, None], (SCORES, SCORES, RUNGS, RUNGS))
    level = np.broadcast_to((mine == theirs)[:, :, None, None], won.shape)
    return np.where(level, tie[None, None], won.astype(float))


def tie_turns(player: Player, second: bool) -> Array:
    """The chance to win the tie turns at every pair of ladder positions."""
    points = np.arange(WIDTH)
    tie = np.zeros((RUNGS, RUNGS))
    for theirs in range(RUNGS):
        opponent = player.opponent[theirs].sum(axis=0)
        if second:  # knowing their points y: worth of my x is [x > y] + [x = y] / 2
            worth = (points[:, None] > points) + 0.5 * (points[:, None] == points)
            each = np.concatenate([worth, worth])[None].repeat(RUNGS, axis=0)
            tie[:, theirs] = player.turns(each) @ opponent
        else:
            below = np.concatenate([[0.0], np.cumsum(opponent)[:-1]])
            worth = np.concatenate([below + opponent / 2] * 2)[None, :, None]
            tie[:, theirs] = player.turns(worth.repeat(RUNGS, axis=0))[:, 0]
    return tie


def first_seat(player: Player) -> float:
    """The chance to win throwing first in every round."""
    value = finished(tie_turns(player, second=False)).copy()
    value[:GOAL, :GOAL] = 0.5
    rungs = np.arange(RUNGS)
    up = np.minimum(rungs + 1, RUNGS - 1)
    for theirs in range(GOAL - 1, -1, -1):
        nq = top_rung(theirs) + 1
        for mine in range(GOAL - 1, -1, -1):
            nr = top_rung(mine) + 1
            if mine + 1 < GOAL:
                value[mine, theirs] = value[mine + 1, theirs]
            for _ in range(SWEEPS):
                after = value[mine : mine + WIDTH, theirs : theirs + WIDTH]  # (x, y, r', q')
                worth = np.zeros((2, WIDTH, nr, nq))
                for a, ra in ((0, rungs[:nr]), (1, up[:nr])):
                    for b, qb in ((0, rungs[:nq]), (1, up[:nq])):
                        part = after[:, :, ra][:, :, :, qb]
                        worth[a] += np.einsum("qy,xyrq->xrq", player.opponent[:nq, b], part)
                shaped = worth.transpose(2, 0, 1, 3).reshape(nr, 2 * WIDTH, nq)
                value[mine, theirs, :nr, :nq] = player.turns(shaped)
        print(f"first seat: their score {theirs} done", file=sys.stderr, flush=True)
    return float(value[0, 0, 0, 0])


def second_seat(player: Player) -> float:
    """The chance to win throwing second in every round."""
    value = finished(tie_turns(player, second=True)).copy()
    value[:GOAL, :GOAL] = 0.5
    mine_to_move = np.zeros((SCORES, SCORES, RUNGS, RUNGS))
    rungs = np.arange(RUNGS)
    up = np.minimum(rungs + 1, RUNGS - 1)
    for theirs in range(SCORES - 1, -1, -1):
        nq = top_rung(theirs) + 1
        for mine in range(GOAL - 1, -1, -1):
            nr = top_rung(mine) + 1
            if theirs < GOAL and mine + 1 < GOAL:
                value[mine, theirs] = value[mine + 1, theirs]
            for _ in range(SWEEPS if theirs < GOAL else 1):
                after = value[mine : mine + WIDTH, theirs]  # (x, r', q)
                worth = np.stack(
                    [np.concatenate([after[:, r, :nq], after[:, up[r], :nq]]) for r in range(nr)]
                )
                mine_to_move[mine, theirs, :nr, :nq] = player.turns(worth)
                if theirs < GOAL:
                    start = np.zeros((nr, nq))
                    for b, qb in ((0, rungs[:nq]), (1, up[:nq])):
                        part = mine_to_move[mine, theirs : theirs + WIDTH, :nr][:, :, qb]
                        start += np.einsum("qy,yrq->rq", player.opponent[:nq, b], part)
                    value[mine, theirs, :nr, :nq] = start
        print(f"second seat: their score {theirs} done", file=sys.stderr, flush=True)
    return float(value[0, 0, 0, 0])


def main() -> None:
    best = (sys.argv[1] if len(sys.argv) > 1 else "best") == "best"
    seats = sys.argv[2] if len(sys.argv) > 2 else "both"
    against = sys.argv[3] if len(sys.argv) > 3 else "heuristic"
    if against not in OPPONENTS:
        sys.exit(f"the opponent is one of {', '.join(OPPONENTS)}, not {against!r}")
    player = Player(best, opponent_turns(against))
    if seats == "first":
        print(f"first seat {first_seat(player):.5f}")
    elif seats == "second":
        print(f"second seat {second_seat(player):.5f}")
    else:
        first, second = first_seat(player), second_seat(player)
        print(f"first seat {first:.5f}, second seat {second:.5f}, mean {(first + second) / 2:.5f}")


if __name__ == "__main__":
    main()
