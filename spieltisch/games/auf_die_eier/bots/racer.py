"""Auf die Eier's racer: every decision of a turn played for the best chance of winning the
game, not for the most points.

The expert (:mod:`.expert`) scores as much as it can on average whatever the others hold. A
race is not won on average: behind in the last round only a big turn helps, and a player far
ahead should bank a sure few points. The racer works in two steps at each decision:

1. **What each way the turn can end is worth.** For every number of points the turn may score,
   with its Chickens scoring or not, the sheet the turn leaves (:func:`close_turn`, the rules'
   own) and the mover's chance to win from there (:func:`turn_ends`). That chance comes from a
   *race model* handed in (``WinChances``: each player's chance to win from a turn's start or
   the game's end): the lab's exact race (everyone playing the expert from then on), worked
   out natively or with numpy, neither of which a game may import, so the surface that builds
   the racer supplies it.
2. **The turn worked back from its last throw** with those chances in place of points
   (:func:`choice_values`): stopping is worth the chance over the Rotten Eggs' re-throw, a
   re-roll the chance over its outcomes, a decision the best of its choices. It is the
   expert's recursion with another payoff, summed in the same order.

:class:`RacerAgent` plays by these values, reading views only. This module is the reference:
the native core's racer (``native/src/games/auf_die_eier/bots/racer.rs``) makes the same
choices with the same values, far faster. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from spieltisch.core.agent import Agent, Rated, Ratings
from spieltisch.core.chance import Counts
from spieltisch.core.game import Game, Move
from spieltisch.games.auf_die_eier.belief import state_of
from spieltisch.games.auf_die_eier.bots.expert import TIE, eier_view, throws
from spieltisch.games.auf_die_eier.model import MAX_ROLLS, TurnScore, max_turn_points
from spieltisch.games.auf_die_eier.notation import STOP, Action, Face, Reroll
from spieltisch.games.auf_die_eier.rules import (
    EierState,
    close_turn,
    rerolls_of,
    score_turn,
    without_rotten,
)
from spieltisch.games.auf_die_eier.view import EierView

Choice = TypeVar("Choice")
"""A choice as the caller holds it (a Python action, a move, an action id)."""
WinChances = Callable[[EierState], Sequence[float]]
"""A race model: each player's chance to win from a turn's start or the game's end."""

UNIT = "chance to win"
"""The unit of the racer's ratings: an exact chance to win the game (not sampled)."""
CHICKEN_POINTS = 5
"""What a scored Chicken is worth (only whether any scored matters to the sheet)."""


@dataclass(frozen=True, slots=True)
class TurnEnds:
    """The mover's chance to win after its turn ends each way: ``chances[advanced][points]``,
    ``advanced`` when its Chickens scored (and crossed the ladder's entry off)."""

    chances: tuple[tuple[float, ...], tuple[float, ...]]

    def at(self, advanced: bool, points: int) -> float:
        """The chance to win when the turn scores ``points``, its Chickens among them or not."""
        return self.chances[int(advanced)][points]


def after_turn(state: EierState, points: int, advanced: bool) -> EierState:
    """The state the turn of ``state``'s mover leaves when it scores ``points``, its Chickens
    among them (``advanced``) or not."""
    chickens = CHICKEN_POINTS if advanced else 0
    result = TurnScore(state.player, (0,) * 6, 0, 0, 0, 0, False, chickens, points)
    return close_turn(state, result)


def turn_ends(state: EierState, win_chances: WinChances) -> TurnEnds:
    """What each way the mover's turn can end is worth to it, by ``win_chances``; with no
    Chickens to score (the ladder used up) the ``advanced`` row repeats the other."""
    width = max_turn_points(state.config.dice) + 1
    mover = state.player
    plain = tuple(win_chances(after_turn(state, p, False))[mover] for p in range(width))
    if state.chicken_need(mover) is None:
        return TurnEnds((plain, plain))
    scored = tuple(win_chances(after_turn(state, p, True))[mover] for p in range(width))
    return TurnEnds((plain, scored))


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def stop_chance(dice: Counts, need: int | None, ends: TurnEnds) -> float:
    """The chance to win of stopping with ``dice`` on the table, needing ``need`` Chickens: over
    the re-throw of its Rotten Eggs, what the turn's score is worth."""
    kept = without_rotten(dice)
    total = 0.0
    for thrown, p in throws(dice[Face.ROTTEN]):
        scored = score_turn(0, _plus(kept, without_rotten(thrown)), thrown[Face.ROTTEN], need)
        total += p * ends.at(scored.chickens > 0, scored.points)
    return total


class _Turn:
    """One turn worked back from its last throw, each end worth ``ends`` (memoised per call)."""

    def __init__(self, need: int | None, ends: TurnEnds) -> None:
        self.need = need
        self.ends = ends
        self.stops: dict[Counts, float] = {}
        self.decisions: dict[tuple[int, Counts], float] = {}
        self.keeps: dict[tuple[int, Counts, int], float] = {}

    def stop(self, dice: Counts) -> float:
        if dice not in self.stops:
            self.stops[dice] = stop_chance(dice, self.need, self.ends)
        return self.stops[dice]

    def decision(self, rolls: int, dice: Counts) -> float:
        if rolls >= MAX_ROLLS or dice[Face.ROTTEN] == sum(dice):
            return self.stop(dice)
        key = (rolls, dice)
        if key not in self.decisions:
            self.decisions[key] = max(value for _, value in self.choices(rolls, dice))
        return self.decisions[key]

    def keep(self, rolls: int, kept: Counts, total: int) -> float:
        key = (rolls, kept, total)
        if key not in self.keeps:
            self.keeps[key] = sum(
                p * self.decision(rolls + 1, _plus(kept, outcome))
                for outcome, p in throws(total - sum(kept))
            )
        return self.keeps[key]

    def choices(self, rolls: int, dice: Counts) -> list[tuple[Action, float]]:
        values: list[tuple[Action, float]] = []
        for action in rerolls_of(without_rotten(dice)):
            if action is STOP or not isinstance(action, Reroll):
                values.append((action, self.stop(dice)))
                continue
            kept = tuple(n - k for n, k in zip(dice, action.dice, strict=True))
            values.append((action, self.keep(rolls, kept, sum(dice))))
        return values


def choice_values(
    rolls: int, dice: Counts, need: int | None, ends: TurnEnds
) -> list[tuple[Action, float]]:
    """Every legal choice with ``dice`` on the table after ``rolls`` throws, needing ``need``
    Chickens, with the mover's chance to win by it when the turn's ends are worth ``ends``:
    ``stop`` first, the re-rolls in legal order."""
    return _Turn(need, ends).choices(rolls, dice)


def best(values: Sequence[tuple[Choice, float]]) -> tuple[Choice, float]:
    """The choice of the highest chance (the earliest in legal order among equals)."""
    top = values[0]
    for action, value in values[1:]:
        if value > top[1] + TIE:
            top = (action, value)
    return top


class RacerAgent(Agent[EierView]):
    """Plays every turn for the best chance of winning the game (see above), by the race model
    it is given. The catalogue's ``racer`` hands it the native race; this class is the
    reference the native racer is checked against."""

    name = "racer"

    def __init__(self, game: Game, win_chances: WinChances, seed: int = 0) -> None:
        super().__init__(game, seed)
        self.win_chances = win_chances

    def values(self, view: EierView) -> list[tuple[Move, float]]:
        """Every legal choice with the chance to win by it, best first."""
        eier = eier_view(view)
        state = state_of(eier)
        ends = turn_ends(state, self.win_chances)
        values = choice_values(eier.rolls, eier.dice, eier.chicken_need[eier.player], ends)
        return sorted(values, key=lambda item: -item[1])

    def act(self, view: EierView, legal: Sequence[Move]) -> Move:
        eier = eier_view(view)
        del legal  # the racer's choices are exactly the legal actions
        state = state_of(eier)
        ends = turn_ends(state, self.win_chances)
        action, _ = best(choice_values(eier.rolls, eier.dice, eier.chicken_need[eier.player], ends))
        return action

    def rate(self, view: EierView, legal: Sequence[Move]) -> Ratings:
        """Every choice rated by the chance to win the game it leaves."""
        del legal
        rated = tuple(Rated(move, value) for move, value in self.values(view))
        return Ratings(UNIT, rated)

    def explain(self, view: EierView, legal: Sequence[Move]) -> str:
        ranked = self.values(view)
        top, chance = ranked[0]
        stop = next(v for a, v in ranked if a is STOP)
        return f"racer: {top} — {chance:.1%} to win the game (stopping now: {stop:.1%})"
