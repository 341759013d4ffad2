"""The parts every observation encoder is made of: named blocks of a flat float32 vector.

An encoder turns one player's view into a fixed-shape numpy array. Its :class:`Layout` lists
the blocks of that array in order (name, size, meaning), so the RL pages in ``docs/rl`` are
written from the same list the encoder fills and cannot drift from it. Encoders read only the
view, so the same view always gives the same array, and two states a player cannot tell apart
(which show that player the same view) give the same array too.

Seats in an observation are *relative*: slot 0 is the viewer, slot 1 the next seat clockwise,
and so on (a spectator's observation starts from seat 0). A learner trained in one seat thus
reads every seat the same way. Every value lies in [-1, 1] (:data:`LOW`, :data:`HIGH`).
"""

from __future__ import annotations

import array
import functools
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float32]
V = TypeVar("V")


class Out(Protocol):
    """What an encoder writes into: a float32 buffer of the layout's size, all zeros at first
    (the observation's own memory seen through a ``memoryview``, or a segment of an
    ``array.array``), by index, or a slice at a time from a segment of the same length."""

    def __getitem__(self, index: int, /) -> float: ...

    @overload
    def __setitem__(self, index: int, value: float, /) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: array.array[float], /) -> None: ...

    def __setitem__(self, index: int | slice, value: float | array.array[float], /) -> None:
        """Store one value, or a segment's values."""


LOW = -1.0
HIGH = 1.0
FLOAT32 = np.dtype(np.float32)


@dataclass(frozen=True, slots=True)
class Block:
    """One named slice of an observation."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        """One past the block's last index."""
        return self.start + self.size


class Layout:
    """The blocks of an observation, added in order; :attr:`size` is the array's length."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str) -> int:
        """Append a block and return its first index."""
        if size <= 0:
            raise ValueError(f"block {name} needs a positive size, not {size}")
        if any(block.name == name for block in self.blocks):
            raise ValueError(f"block {name} is listed twice")
        start = self.size
        self.blocks.append(Block(name, start, size, meaning))
        self.size += size
        return start

    def block(self, name: str) -> Block:
        """The block called ``name``."""
        for block in self.blocks:
            if block.name == name:
                return block
        raise KeyError(name)


class Encoder(ABC):
    """Turns views of one game into float32 arrays of one fixed shape (for every player count
    and option of the game: seats beyond the player count stay zero)."""

    game_id: str
    layout: Layout

    @property
    def shape(self) -> tuple[int]:
        """The shape of every observation."""
        return (self.layout.size,)

    def encode(self, view: object) -> Array:
        """The observation of ``view`` (a new array each time, written through a
        ``memoryview``: faster by the item than the array itself or an ``array.array``)."""
        observation = np.zeros(self.layout.size, FLOAT32)
        # typeshed reads every memoryview as one of ints; this one's items are float32
        self.fill(view, cast(Out, observation.data))
        return observation

    @abstractmethod
    def fill(self, view: object, out: Out) -> None:
        """Write ``view`` into ``out`` (all zeros, of the layout's size)."""

    def describe(self) -> str:
        """The observation as a Markdown table (the RL page's observation section)."""
        lines = [
            f"Shape `({self.layout.size},)`, dtype `float32`.",
            "",
            "| block | indices | size | meaning |",
            "|---|---|---|---|",
        ]
        for block in self.layout.blocks:
            span = f"{block.start}" if block.size == 1 else f"{block.start}-{block.stop - 1}"
            lines.append(f"| `{block.name}` | {span} | {block.size} | {block.meaning} |")
        return "\n".join(lines)


@functools.cache
def slots_of(viewer: int | None, players: int) -> tuple[int, ...]:
    """Each seat's slot in an observation made for ``viewer`` (:func:`relative` of every
    seat, worked out once per viewer and player count)."""
    return tuple(relative(seat, viewer, players) for seat in range(players))


class Memo:
    """Encoded segments of view parts the rules hand out again as the very same object (an
    unchanged part of the table), found by identity: an ``id()`` is hashed far faster than a
    view part. Each entry keeps its part alive, so no other object can take its id while it
    is remembered; the memo forgets everything once it holds :data:`MEMO_SIZE` parts."""

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[int, tuple[object, array.array[float]]] = {}

    def get(self, part: object) -> array.array[float] | None:
        """The segment remembered for ``part`` itself, if any."""
        found = self._known.get(id(part))
        if found is not None and found[0] is part:
            return found[1]
        return None

    def put(self, part: object, segment: array.array[float]) -> None:
        """Remember ``segment`` as the encoding of ``part``."""
        known = self._known
        if len(known) >= MEMO_SIZE:
            known.clear()
        known[id(part)] = (part, segment)


MEMO_SIZE = 4096
"""View parts a :class:`Memo` remembers at most."""


def segment(size: int) -> array.array[float]:
    """A zeroed float32 buffer of ``size`` values (to encode one part into)."""
    return array.array("f", bytes(4 * size))


def expect(view: object, view_type: type[V]) -> V:
    """``view`` if it is a ``view_type``; :class:`TypeError` otherwise (a wrong game's view)."""
    if not isinstance(view, view_type):
        raise TypeError(f"expected a {view_type.__name__}, not a {type(view).__name__}")
    return view


def relative(seat: int, viewer: int | None, players: int) -> int:
    """The slot of ``seat`` in an observation made for ``viewer`` (0 is the viewer)."""
    return seat if viewer is None else (seat - viewer) % players


def seat_order(viewer: int | None, players: int) -> list[int]:
    """The seats in slot order: the viewer first, then clockwise."""
    first = 0 if viewer is None else viewer
    return [(first + i) % players for i in range(players)]


def one_hot(out: Out, start: int, index: int | None) -> None:
    """Set ``out[start + index]`` (nothing for ``None``)."""
    if index is not None:
        out[start + index] = 1.0


def seats_mask(
    out: Out, start: int, seats: Iterable[int], viewer: int | None, players: int
) -> None:
    """Mark each of ``seats`` in its relative slot."""
    for seat in seats:
        out[start + relative(seat, viewer, players)] = 1.0


def counts(out: Out, start: int, values: Iterable[int], scale: float) -> None:
    """Write ``values`` divided by ``scale`` from ``start`` on."""
    for offset, value in enumerate(values):
        if value:  # the buffer starts at zero: most counts are
            out[start + offset] = value / scale
