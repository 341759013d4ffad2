"""Auf die Eier's expert: the exact expected points of every choice in a turn, and the agent
that plays by them.

A turn's value depends only on the dice on the table, the throws made and the number of
Chickens the player's ladder asks for. Working back from the last throw: stopping is worth the
expected score over the re-throw of the Rotten Eggs; keeping a set of dice before a throw is
worth the expected value of the decision after it, over every outcome of the thrown dice; a
decision is worth the best of stopping and every keep. Each table is built once per Chicken
need and cached; the first query for a need takes a few seconds, later ones are lookups.
:class:`ExpertAgent` plays each turn by these values, reading views only. Pure: no I/O.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence

from spieltisch.core.agent import Agent, Rated, Ratings
from spieltisch.core.chance import Counts, roll_distribution
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier.model import MAX_ROLLS
from spieltisch.games.auf_die_eier.notation import FACES, NUM_DICE, STOP, Action, Face, Reroll
from spieltisch.games.auf_die_eier.rules import rerolls_of, score_turn
from spieltisch.games.auf_die_eier.view import EierView

TIE = 1e-9
"""Values closer than this are treated as equal (the first choice in legal order wins)."""


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@functools.cache
def throws(dice: int) -> tuple[tuple[Counts, float], ...]:
    """Every outcome of throwing ``dice`` dice with its probability (as a float)."""
    table = roll_distribution(dice, FACES)
    return tuple((c, w / table.total) for c, w in zip(table.outcomes, table.weights, strict=True))


@functools.cache
def stop_value(dice: Counts, need: int | None) -> float:
    """Expected points of stopping with ``dice`` on the table (Rotten Eggs re-thrown once)."""
    rotten = dice[Face.ROTTEN]
    kept = (dice[0], dice[1], 0, dice[3], dice[4], dice[5])
    if not rotten:
        return float(score_turn(0, kept, 0, need).points)
    total = 0.0
    for outcome, p in throws(rotten):
        scored = _plus(kept, (outcome[0], outcome[1], 0, outcome[3], outcome[4], outcome[5]))
        total += p * score_turn(0, scored, outcome[Face.ROTTEN], need).points
    return total


@functools.cache
def decision_value(rolls: int, dice: Counts, need: int | None) -> float:
    """Expected points with ``dice`` on the table after ``rolls`` throws, playing best."""
    if rolls >= MAX_ROLLS or dice[Face.ROTTEN] == sum(dice):
        return stop_value(dice, need)
    return max(value for _, value in choice_values(rolls, dice, need))


@functools.cache
def keep_value(rolls: int, kept: Counts, need: int | None, total: int = NUM_DICE) -> float:
    """Expected points of keeping ``kept`` and throwing the other dice as throw ``rolls + 1``,
    with ``total`` dice in play."""
    thrown = total - sum(kept)
    return sum(
        p * decision_value(rolls + 1, _plus(kept, outcome), need) for outcome, p in throws(thrown)
    )


def choice_values(rolls: int, dice: Counts, need: int | None) -> list[tuple[Action, float]]:
    """Every legal choice with ``dice`` on the table after ``rolls`` throws, and its value."""
    values: list[tuple[Action, float]] = []
    for action in rerolls_of((dice[0], dice[1], 0, dice[3], dice[4], dice[5])):
        if action is STOP or not isinstance(action, Reroll):
            values.append((action, stop_value(dice, need)))
            continue
        kept = tuple(n - k for n, k in zip(dice, action.dice, strict=True))
        values.append((action, keep_value(rolls, kept, need, sum(dice))))
    return values


def best_choice(rolls: int, dice: Counts, need: int | None) -> tuple[Action, float]:
    """The choice of highest expected points (the earliest in legal order among equals)."""
    best: tuple[Action, float] | None = None
    for action, value in choice_values(rolls, dice, need):
        if best is None or value > best[1] + TIE:
            best = (action, value)
    assert best is not None  # stop is always a choice
    return best


@functools.cache
def turn_value(need: int | None, dice: int = NUM_DICE) -> float:
    """Expected points of a whole turn played best with ``dice`` dice, before the first throw."""
    return sum(p * decision_value(1, outcome, need) for outcome, p in throws(dice))


def all_dice(dice: int = NUM_DICE) -> list[Counts]:
    """Every multiset of ``dice`` dice (for exhaustive tests)."""
    return [c for c in itertools.product(range(dice + 1), repeat=FACES) if sum(c) == dice]


Policy = Callable[[int, Counts, "int | None"], Action]
"""A turn policy: given throws made, dice on the table and the Chicken need, a choice."""


def policy_turn_value(policy: Policy, need: int | None, dice: int = NUM_DICE) -> float:
    """Expected points of a whole turn with ``dice`` dice when ``policy`` makes every choice
    (exact)."""
    memo: dict[tuple[int, Counts], float] = {}

    def value(rolls: int, dice: Counts) -> float:
        key = (rolls, dice)
        if key not in memo:
            memo[key] = _policy_value(policy, rolls, dice, need, value)
        return memo[key]

    return sum(p * value(1, outcome) for outcome, p in throws(dice))


def _policy_value(
    policy: Policy,
    rolls: int,
    dice: Counts,
    need: int | None,
    value: Callable[[int, Counts], float],
) -> float:
    if rolls >= MAX_ROLLS or dice[Face.ROTTEN] == sum(dice):
        return stop_value(dice, need)
    action = policy(rolls, dice, need)
    if not isinstance(action, Reroll):
        return stop_value(dice, need)
    kept = tuple(n - k for n, k in zip(dice, action.dice, strict=True))
    thrown = sum(dice) - sum(kept)
    return sum(p * value(rolls + 1, _plus(kept, outcome)) for outcome, p in throws(thrown))


def eier_view(view: object) -> EierView:
    """``view``, checked to be an Auf die Eier view (an agent may be handed anything)."""
    if not isinstance(view, EierView):
        raise TypeError(f"an Auf die Eier agent needs an EierView, not {type(view).__name__}")
    return view


class ExpertAgent(Agent[EierView]):
    """Plays every turn to maximise its expected points, computed exactly (see above).

    It ignores the race: it scores as much as it can on average whatever the others hold.
    """

    name = "expert"

    def act(self, view: EierView, legal: Sequence[Move]) -> Move:
        eier = eier_view(view)
        need = eier.chicken_need[eier.player]
        del legal  # the expert's choices are exactly the legal actions
        action, _ = best_choice(eier.rolls, eier.dice, need)
        return action

    def values(self, view: EierView) -> list[tuple[Move, float]]:
        """Every legal choice with its expected points for the rest of the turn."""
        eier = eier_view(view)
        values = choice_values(eier.rolls, eier.dice, eier.chicken_need[eier.player])
        return sorted(values, key=lambda item: -item[1])

    def rate(self, view: EierView, legal: Sequence[Move]) -> Ratings:
        """Every choice rated exactly, by its expected points for the rest of the turn."""
        del legal
        rated = tuple(Rated(move, value) for move, value in self.values(view))
        return Ratings("expected points this turn", rated)

    def explain(self, view: EierView, legal: Sequence[Move]) -> str:
        ranked = self.values(view)
        best, value = ranked[0]
        stop = next(v for a, v in ranked if a is STOP)
        others = ", ".join(f"{a} {v:.2f} points" for a, v in ranked[1:4])
        return (
            f"expert: {best} — expected {value:.2f} points this turn (stopping now: {stop:.2f}; "
            f"next best: {others})"
        )
