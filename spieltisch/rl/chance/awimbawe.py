"""Awimbawé's deal, card by card: 28 steps, each uniform over the cards not dealt yet, in the
order :meth:`Deal.from_order` hands them out (seat 0's four face-down, four face-up and six
hand cards, then seat 1's), which is how the rules draw a deal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import cast

from spieltisch.core.game import Move, State
from spieltisch.games.awimbawe import DECK, AwimbaweState, Deal, Stage
from spieltisch.native.awimbawe import chance_code
from spieltisch.rl.chance.base import Event, Shape, Splitter


class DealSplitter(Splitter):
    """The deal of a round, one card at a time (item ids are card codes)."""

    items = len(DECK)

    def applies(self, state: State) -> bool:
        """True at the deal of a round."""
        return isinstance(state, AwimbaweState) and state.stage is Stage.DEAL

    def next_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, Fraction]]:
        """Every card not dealt yet, equally likely."""
        taken = set(drawn)
        left = [code for code in range(len(DECK)) if code not in taken]
        return [(code, Fraction(1, len(left))) for code in left]

    def float_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """Every card not dealt yet, each with the same float probability."""
        del state
        return self.shape_items((), drawn)

    def shape_items(self, shape: Shape, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """Every card not dealt yet, each with the same float probability."""
        del shape
        taken = set(drawn)
        left = [code for code in range(len(DECK)) if code not in taken]
        chance = 1.0 / len(left)
        return [(code, chance) for code in left]

    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The deal once all 28 cards are drawn."""
        if len(drawn) < len(DECK):
            return None
        return Deal.from_order([DECK[code] for code in drawn])

    def native_event(
        self, sample: Sequence[int], canonical: Callable[[], Sequence[int]]
    ) -> Event | None:
        """A deal (a code of every card); a tie-break or a blind pick is listed as it is."""
        del canonical
        return Event(len(DECK), ()) if len(sample) == len(DECK) else None

    def native_code(self, drawn: Sequence[int]) -> tuple[int, ...]:
        """The deal's native code (each hand in card order; the converter reads no state)."""
        return chance_code(
            cast(AwimbaweState, None), Deal.from_order([DECK[code] for code in drawn])
        )

    def item_text(self, item: int) -> str:
        """The card, e.g. ``D5``."""
        return f"card {DECK[item]}"
