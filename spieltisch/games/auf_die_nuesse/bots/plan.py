"""Auf die Nüsse!: the best way to play out a turn's start track (dynamic programming).

Within a turn the dice only ever add squirrels to the start track, so the rest of a turn is a
small decision problem over start tracks: each of the eleven spaces is taken or free, and
nothing else changes until the player stops. Given what stopping with each start track is
worth (however a player prices it), :class:`TurnPlan` works out the expected worth of going on
with the best play: at the roll-or-stop choice the better of stopping and rolling on; after a
roll, the better of the (at most two) free spaces it offers; a roll that offers none fails and
is worth nothing. The rule of thumb "roll once more only if that one roll pays" looks a single
roll ahead; the plan looks ahead to the end of the turn, so it rolls on where two or three more
rolls pay even though the next alone would not.

At most 2^11 start tracks are valued, each once. A stop's worth is a sum over the five 2-area
spaces of what the squirrels reaching each bring (:data:`SpaceWorths`), so a plan is known by
that small table: :func:`plan_for` keeps the plans of recent tables, and every decision of a
turn after the first reuses the plan the first one worked out. Pure: no I/O, no randomness.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from spieltisch.games.auf_die_nuesse.model import move_up
from spieltisch.games.auf_die_nuesse.notation import DICE, TRACK_SPACE, TWO_AREA


@functools.cache
def sum_pairs() -> tuple[tuple[int, int, int], ...]:
    """The two start-track spaces each roll offers (the smaller first; the same twice when
    both white dice show alike), with how many of the 216 rolls offer them."""
    tally: dict[tuple[int, int], int] = {}
    for dice in DICE:
        key = (min(dice.sums), max(dice.sums))
        tally[key] = tally.get(key, 0) + 1
    return tuple((a, b, n) for (a, b), n in sorted(tally.items()))


ROLLS = len(DICE)
"""How many equally likely rolls of the three dice there are (216)."""


REACH = tuple(sum(1 for above in TRACK_SPACE.values() if above is space) for space in TWO_AREA)
"""How many start-track spaces lie under each 2-area space (2-4: three, 7: one, ...)."""

START_TRACK_SPACES = len(TRACK_SPACE)
"""More squirrels than this (eleven) never stand on the start track at once."""

PLANS_KEPT = 16
"""How many plans :func:`plan_for` keeps: a turn needs one, a search a few at a time."""

TIED = 1e-9
"""Worths closer than this are the same (rounding apart: the same worth summed in another
order can differ in its last digit), so the first choice listed stands."""

SpaceWorths = tuple[tuple[float, ...], ...]
"""What a stop is worth space by space: ``worths[i][c]`` is what ``c`` start-track squirrels
moving up to the ``i``-th 2-area space bring (``c`` up to :data:`REACH`; nothing for none)."""


def track_worth(worths: SpaceWorths, track: int) -> float:
    """What stopping with ``track`` is worth, priced space by space by ``worths``."""
    return sum(row[count] for row, count in zip(worths, move_up(track), strict=True))


def plan_for(worths: SpaceWorths, room: int) -> TurnPlan:
    """The plan for stops priced by ``worths`` with ``room`` squirrels to place, kept for
    the decisions to come (the same turn meets the same table at each of its decisions).
    Every room beyond :data:`START_TRACK_SPACES` is the same plan, and is kept once."""
    return _kept_plan(worths, min(room, START_TRACK_SPACES))


@functools.lru_cache(maxsize=PLANS_KEPT)
def _kept_plan(worths: SpaceWorths, room: int) -> TurnPlan:
    return TurnPlan(functools.partial(track_worth, worths), room)


class TurnPlan:
    """The expected worth of the rest of a turn under the best play, for one way of pricing a
    stop (``stop_value``: a start track, as bits, to what stopping with it is worth, which may
    be less than nothing) and ``room`` squirrels to place this turn in all (those on the start
    track included; more than :data:`START_TRACK_SPACES` count as that many)."""

    __slots__ = ("_rolls", "_room", "_stop_value", "_values")

    def __init__(self, stop_value: Callable[[int], float], room: int) -> None:
        self._stop_value = stop_value
        self._room = min(room, START_TRACK_SPACES)
        self._values: dict[int, float] = {}
        self._rolls: dict[int, float] = {}

    @property
    def room(self) -> int:
        """The squirrels this turn may place in all."""
        return self._room

    def can_roll(self, track: int) -> bool:
        """Whether a squirrel is left to roll with from ``track``."""
        return track.bit_count() < self._room

    def value(self, track: int) -> float:
        """What ``track`` is worth at the roll-or-stop choice: the better of stopping now and
        rolling on, or the stop itself when no squirrel is left to roll with."""
        worth = self._values.get(track)
        if worth is None:
            worth = self._stop_value(track)
            if self.can_roll(track):
                worth = max(worth, self.roll_on(track))
            self._values[track] = worth
        return worth

    def roll_on(self, track: int) -> float:
        """The expected worth of rolling on from ``track`` and playing best afterwards (a roll
        that fails is worth nothing; so is rolling when no squirrel is left to roll with)."""
        worth = self._rolls.get(track)
        if worth is None:
            worth = self._roll_on(track) if self.can_roll(track) else 0.0
            self._rolls[track] = worth
        return worth

    def _roll_on(self, track: int) -> float:
        total = 0.0
        for low, high, rolls in sum_pairs():
            options = [self.value(track | 1 << n) for n in {low, high} if not track >> n & 1]
            if options:
                total += rolls * max(options)
        return total / ROLLS

    def rolls_on(self, track: int) -> bool:
        """Whether rolling on from ``track`` is worth more than stopping (never when no
        squirrel is left to roll with, nor on a tie)."""
        return self.can_roll(track) and self.roll_on(track) > self._stop_value(track) + TIED

    def place_value(self, track: int, space: int) -> float:
        """What putting the squirrel on start-track ``space`` is worth (``track`` without it)."""
        return self.value(track | 1 << space)

    def best_space(self, track: int, spaces: Iterable[int]) -> tuple[float, int]:
        """The free space among ``spaces`` (a roll's offer) worth most, with its worth; the
        first listed on a tie."""
        best: tuple[float, int] | None = None
        for space in spaces:
            worth = self.place_value(track, space)
            if best is None or worth > best[0] + TIED:
                best = (worth, space)
        if best is None:
            raise ValueError("a roll offers at least one space")
        return best


__all__ = [
    "PLANS_KEPT",
    "REACH",
    "ROLLS",
    "START_TRACK_SPACES",
    "TIED",
    "SpaceWorths",
    "TurnPlan",
    "plan_for",
    "sum_pairs",
    "track_worth",
]
