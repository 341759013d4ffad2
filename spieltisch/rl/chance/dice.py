"""Throws of dice, one die at a time: six outcomes of 1/6 per chance node.

Auf die Eier throws up to nine dice at once; as one chance node that is 2,002 outcomes (every
multiset of faces), a list that costs about a millisecond to build and hand to OpenSpiel at
every throw. Thrown one die at a time it is as many nodes as dice, each of six outcomes with
probability exactly 1/6, and the throw is the multiset of the faces drawn: the probability of
a multiset is then the number of orders that give it times ``6**-n``, which is the rules'
multinomial weight (``roll_distribution``), so the two are equal in distribution (tested
exactly, outcome by outcome, for every number of dice). Auf die Nüsse's throw of the green and
two white dice (216 ordered outcomes) is dealt the same way, die by die in that order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from spieltisch.core.game import Move, State
from spieltisch.games.auf_die_eier import EierState, Roll
from spieltisch.games.auf_die_eier.notation import LETTERS
from spieltisch.games.auf_die_nuesse import Dice, NuesseState, Stage
from spieltisch.rl.chance.base import Event, Shape, Splitter

SIDES = 6
DICE = 3
"""Auf die Nüsse's dice: the green and two white."""
_SIXTH = Fraction(1, SIDES)
_FACES = [(face, _SIXTH) for face in range(SIDES)]
_FLOAT_FACES = [(face, 1.0 / SIDES) for face in range(SIDES)]


class _DieByDie(Splitter):
    """A throw, one six-sided die at a time: every step six items of 1/6."""

    items = SIDES

    def next_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, Fraction]]:
        """Each face, 1/6."""
        del state, drawn
        return list(_FACES)

    def float_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """Each face, 1/6 as a float (one list, built once)."""
        del state, drawn
        return _FLOAT_FACES

    def shape_items(self, shape: Shape, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """Each face, 1/6 as a float."""
        del shape, drawn
        return _FLOAT_FACES


class EierDiceSplitter(_DieByDie):
    """Auf die Eier's throws (and the re-throw of Rotten Eggs), one die at a time; item ids
    are faces in the rules' face order (``W C R P F H``)."""

    def applies(self, state: State) -> bool:
        """True at every throw (Auf die Eier's only chance events)."""
        return isinstance(state, EierState) and state.is_chance()

    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The throw once as many dice as the hand holds are drawn: the faces counted."""
        if not isinstance(state, EierState) or len(drawn) < state.to_throw:
            return None
        return Roll(self.native_code(drawn))

    def native_event(self, sample: Sequence[int], canonical: Callable[[], Sequence[int]]) -> Event:
        """Every throw, one die at a time: as many dice as the sample's counts add up to."""
        del canonical
        return Event(sum(sample), ())

    def native_code(self, drawn: Sequence[int]) -> tuple[int, ...]:
        """The throw's code: the count of each face drawn."""
        counts = [0] * SIDES
        for face in drawn:
            counts[face] += 1
        return tuple(counts)

    def item_text(self, item: int) -> str:
        """The face, e.g. ``die R``."""
        return f"die {LETTERS[item]}"


class NuesseDiceSplitter(_DieByDie):
    """Auf die Nüsse's throw: the green die, then the two white dice; item ``i`` is the pip
    count ``i + 1``."""

    def applies(self, state: State) -> bool:
        """True at a throw of the dice (not at a draw from the nut bag, listed as it is)."""
        return isinstance(state, NuesseState) and state.stage is Stage.ROLL

    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The throw once all three dice are drawn."""
        del state
        if len(drawn) < DICE:
            return None
        return Dice(drawn[0] + 1, drawn[1] + 1, drawn[2] + 1)

    def native_event(
        self, sample: Sequence[int], canonical: Callable[[], Sequence[int]]
    ) -> Event | None:
        """A throw (a code of three dice); a draw from the nut bag is listed as it is."""
        del canonical
        return Event(DICE, ()) if len(sample) == DICE else None

    def item_text(self, item: int) -> str:
        """The pips, e.g. ``die 4``."""
        return f"die {item + 1}"
