"""The protocol of a chance splitter (see the package docstring)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from fractions import Fraction

from spieltisch.core.game import Move, State


class Splitter(ABC):
    """Deals one game's large chance events item by item."""

    items: int
    """How many distinct item ids there are (item ids are ``range(items)``)."""

    @abstractmethod
    def applies(self, state: State) -> bool:
        """Whether this chance node of ``state`` is dealt item by item."""

    @abstractmethod
    def next_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, Fraction]]:
        """The items that may come after ``drawn``, each with its exact probability."""

    def float_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """:meth:`next_items` with float probabilities, as OpenSpiel takes them."""
        return [(item, float(chance)) for item, chance in self.next_items(state, drawn)]

    @abstractmethod
    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The game's chance outcome once ``drawn`` is complete; ``None`` before."""

    @abstractmethod
    def item_text(self, item: int) -> str:
        """One item as text (a card)."""
