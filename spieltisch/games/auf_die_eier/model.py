"""Auf die Eier: the vocabulary below the rules and the view.

The config with its one option, the stages of a turn, the rules an illegal move can break, the
record of how a finished turn scored, and the numbers of the game (goal, throws, the chicken
ladder, points). Pure: no I/O.
"""

from __future__ import annotations

from spieltisch.core.chance import Counts
from spieltisch.core.fast import KeyEnum, value
from spieltisch.core.game import PlayerId, option
from spieltisch.core.words import N_

GOAL = 100
"""The points that end the game, by the rulebook (the ``goal`` parameter's default)."""
GOAL_BOUNDS = (20, 300)
DICE_BOUNDS = (5, 10)
"""The dice a designer may play with (``dice``): at least the five Chickens the ladder may ask
for; at most ten, so the expert's exact tables still take seconds, not hours."""
MAX_ROLLS = 3
LADDER = (1, 2, 3, 4, 5, 4, 3, 2, 1)
"""The chicken ladder: the number of Chickens needed next, from the top entry down."""
FRIED_POINTS = 5
BREAKFAST_POINTS_PER_DIE = 3
CHICKEN_POINTS = 5
MAX_TURN_POINTS = 37
"""Most points one turn can score: five Chickens (25) with three Whole Eggs and a Pot (12)."""
MAX_SCORE = GOAL - 1 + 2 * MAX_TURN_POINTS
"""A player below the goal scores a last turn in the final round, and one tie turn."""


def max_turn_points(dice: int) -> int:
    """Most points one turn can score with ``dice`` dice: five Chickens and every other die in
    the Breakfast (:data:`MAX_TURN_POINTS` at nine dice)."""
    return 5 * CHICKEN_POINTS + BREAKFAST_POINTS_PER_DIE * (dice - 5)


def max_score(goal: int, dice: int) -> int:
    """The highest final score with ``goal`` and ``dice``: just below the goal, then the two
    best turns (a last turn and a tie turn)."""
    return goal - 1 + 2 * max_turn_points(dice)


class Rule(KeyEnum):
    """The rules an illegal move can break, in the words of the error message."""

    GAME_OVER = N_("the game is over")
    DICE_FIRST = N_("the dice must be thrown first")
    PLAYER_DECIDES = N_("the player decides now; no dice are being thrown")
    ROLL_SIZE = N_("a roll shows exactly the dice that were thrown")
    ROTTEN_STAY = N_("Rotten Eggs stay set aside and are never re-rolled by the player")
    REROLL_SOME = N_("a re-roll throws at least one die")
    REROLL_OWN = N_("only dice lying on the table can be re-rolled")


class Stage(KeyEnum):
    """Where in a turn the game is."""

    ROLL = "roll"
    """Chance throws the dice the player picked up (all nine at the start of a turn)."""
    DECIDE = "decide"
    """The player re-rolls some dice or stops."""
    ROTTEN = "rotten"
    """Chance re-rolls the turn's Rotten Eggs (the player on the right throws them)."""
    OVER = "over"


@value
class Config:
    """The player count and options a state was made with."""

    players: int
    shared_chicken_ladder: bool = option(
        False, "one chicken ladder for the whole table instead of one per player"
    )
    goal: int = option(
        GOAL, "the score that starts the last round (a rule parameter)", bounds=GOAL_BOUNDS
    )
    dice: int = option(9, "egg dice in play (a rule parameter)", bounds=DICE_BOUNDS)


@value
class TurnScore:
    """How one finished turn scored."""

    player: PlayerId
    dice: Counts
    """The dice scored: every non-rotten die, the re-rolled Rotten Eggs included."""
    spoilers: int
    """Rotten Eggs that came up again in the re-roll."""
    fried: int
    """Fried Eggs pairs made (spoiled ones included)."""
    breakfast: int
    """Points of the Breakfast before spoiling (0 if there is none)."""
    spoiled_fried: int
    spoiled_breakfast: bool
    chickens: int
    """Points for Chickens (0 unless the count matched the ladder)."""
    points: int
