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
from collections.abc import Callable

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

SpaceWorths = tuple[tuple[float, ...], ...]
"""What a stop is worth space by space: ``worths[i][c]`` is what ``c`` start-track squirrels
moving up to the ``i``-th 2-area space bring (``c`` up to :data:`REACH`; nothing for none)."""


@functools.cache
def reaching(track: int) -> tuple[int, ...]:
    """How many squirrels of start track ``track`` (as bits) reach each 2-area space."""
    counts = [0] * len(TWO_AREA)
    for n, space in TRACK_SPACE.items():
        if track >> n & 1:
            counts[TWO_AREA.index(space)] += 1
    return tuple(counts)


def track_worth(worths: SpaceWorths, track: int) -> float:
    """What stopping with ``track`` is worth, priced space by space by ``worths``."""
    return sum(row[count] for row, count in zip(worths, reaching(track), strict=True))


@functools.lru_cache(maxsize=256)
def plan_for(worths: SpaceWorths, room: int) -> TurnPlan:
    """The plan for stops priced by ``worths`` with ``room`` squirrels to place, kept for
    the decisions to come (the same turn meets the same table at each of its decisions)."""
    return TurnPlan(functools.partial(track_worth, worths), room)


class TurnPlan:
    """The expected worth of the rest of a turn under the best play, for one way of pricing a
    stop (``stop_value``: a start track, as bits, to what stopping with it is worth) and
    ``room`` squirrels to place this turn in all (those on the start track included)."""

    __slots__ = ("_rolls", "_stop_value", "_values", "room")

    def __init__(self, stop_value: Callable[[int], float], room: int) -> None:
        self._stop_value = stop_value
        self.room = room
        self._values: dict[int, float] = {}
        self._rolls: dict[int, float] = {}

    def value(self, track: int) -> float:
        """What ``track`` is worth at the roll-or-stop choice: the better of stopping now and
        rolling on (when a squirrel is left to roll with)."""
        worth = self._values.get(track)
        if worth is None:
            worth = max(self._stop_value(track), self.roll_on(track))
            self._values[track] = worth
        return worth

    def roll_on(self, track: int) -> float:
        """The expected worth of rolling on from ``track`` and playing best afterwards (0 with
        no squirrel left to roll with)."""
        worth = self._rolls.get(track)
        if worth is None:
            worth = self._roll_on(track) if track.bit_count() < self.room else 0.0
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
        """Whether rolling on from ``track`` is worth more than stopping."""
        return self.roll_on(track) > self._stop_value(track)

    def place_value(self, track: int, space: int) -> float:
        """What putting the squirrel on start-track ``space`` is worth (``track`` without it)."""
        return self.value(track | 1 << space)


__all__ = [
    "REACH",
    "ROLLS",
    "SpaceWorths",
    "TurnPlan",
    "plan_for",
    "reaching",
    "sum_pairs",
    "track_worth",
]
