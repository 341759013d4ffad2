"""Awimbawé's deal, card by card: 28 steps, each uniform over the cards not dealt yet, in the
order :meth:`Deal.from_order` hands them out (seat 0's four face-down, four face-up and six
hand cards, then seat 1's), which is how the rules draw a deal. With fewer lands (the rule
parameter ``lands``) the steps are the cards of :func:`deck_of` (a native event carries the
lands as its shape)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import cast

from spieltisch.core.game import Move, State
from spieltisch.games.awimbawe import DECK, AwimbaweState, Deal, Stage, deck_of
from spieltisch.native.awimbawe import chance_code
from spieltisch.rl.chance.base import Event, Shape, Splitter

_ALL_LANDS = 4
_LANDS_BY_SIZE = {len(deck_of(lands)): lands for lands in range(1, _ALL_LANDS)}
"""The lands of a deal smaller than the full deck, by its number of cards (a native code's
length)."""


def _lands(state: State) -> int:
    """The lands in play in ``state``'s match."""
    return cast(AwimbaweState, state).match.config.lands


def _left(lands: int, drawn: Sequence[int]) -> list[int]:
    """The codes of the cards of ``lands`` lands not in ``drawn``, in code order."""
    taken = set(drawn)
    return [card.code for card in deck_of(lands) if card.code not in taken]


class DealSplitter(Splitter):
    """The deal of a round, one card at a time (item ids are card codes)."""

    items = len(DECK)

    def applies(self, state: State) -> bool:
        """True at the deal of a round."""
        return isinstance(state, AwimbaweState) and state.stage is Stage.DEAL

    def next_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, Fraction]]:
        """Every card in play not dealt yet, equally likely."""
        left = _left(_lands(state), drawn)
        return [(code, Fraction(1, len(left))) for code in left]

    def float_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """Every card in play not dealt yet, each with the same float probability."""
        return self.shape_items((_lands(state),), drawn)

    def shape_items(self, shape: Shape, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """Every card in play (``shape``: the lands, none for all four) not dealt yet, each
        with the same float probability."""
        left = _left(shape[0] if shape else _ALL_LANDS, drawn)
        chance = 1.0 / len(left)
        return [(code, chance) for code in left]

    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The deal once all 28 cards (every card in play) are drawn."""
        if len(drawn) < len(deck_of(_lands(state))):
            return None
        return Deal.from_order([DECK[code] for code in drawn])

    def native_event(
        self, sample: Sequence[int], canonical: Callable[[], Sequence[int]]
    ) -> Event | None:
        """A deal (a code of every card in play); a tie-break or a blind pick is listed as
        it is."""
        del canonical
        if len(sample) == len(DECK):
            return Event(len(DECK), ())
        lands = _LANDS_BY_SIZE.get(len(sample))
        return None if lands is None else Event(len(sample), (lands,))

    def native_code(self, drawn: Sequence[int]) -> tuple[int, ...]:
        """The deal's native code (each hand in card order; the converter reads no state)."""
        return chance_code(
            cast(AwimbaweState, None), Deal.from_order([DECK[code] for code in drawn])
        )

    def item_text(self, item: int) -> str:
        """The card, e.g. ``D5``."""
        return f"card {DECK[item]}"
