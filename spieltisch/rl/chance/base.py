"""The protocol of a chance splitter (see the package docstring)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from fractions import Fraction

from spieltisch.core.game import Move, State

Shape = tuple[int, ...]
"""What a split event's items depend on besides the items drawn so far (Auweier's shuffle: the
cards to place, by kind, then 1 for a spread; nothing for dice and deals)."""


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

    def shape_items(self, shape: Shape, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """:meth:`float_items` of an event of this ``shape`` (no rules state at hand: the
        native core's, see :meth:`native_event`)."""
        raise NotImplementedError(f"{type(self).__name__} has no shape_items")

    @abstractmethod
    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The game's chance outcome once ``drawn`` is complete; ``None`` before."""

    def native_event(
        self, sample: Sequence[int], canonical: Callable[[], Sequence[int]]
    ) -> Event | None:
        """How a chance event of the native core is split, from one of its outcomes' native
        code (``sample``) and the state's canonical integers (asked for only where needed);
        ``None`` for an event listed as it is. The default: one item per integer of the code,
        no shape."""
        del canonical
        return Event(len(sample), ())

    def native_code(self, drawn: Sequence[int]) -> tuple[int, ...]:
        """The native code of the complete event ``drawn`` (the default: the items)."""
        return tuple(drawn)

    @abstractmethod
    def item_text(self, item: int) -> str:
        """One item as text (a card)."""


class Event:
    """A split chance event as the native core shows it: how many items it is dealt in, and
    its shape."""

    __slots__ = ("need", "shape")

    def __init__(self, need: int, shape: Shape) -> None:
        self.need = need
        self.shape = shape
