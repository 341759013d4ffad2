"""Chance events with exact probabilities: rolls of identical dice and blind draws.

A roll of ``k`` identical dice is one chance event whose outcomes are the multisets of faces,
written as a tuple of counts per face. :class:`Distribution` holds a finite event with integer
weights and samples it exactly with one draw and a bisection; :func:`roll_distribution` builds
(once per ``(k, faces)``) the roll of ``k`` dice. :func:`draw_outcomes` and :func:`sample_draw`
serve one blind draw from a multiset of card kinds. Pure: every random draw comes from a
generator passed in.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Generic, TypeVar

T = TypeVar("T")

Counts = tuple[int, ...]
"""How many dice show each face (or how many cards of each kind), in a fixed face order."""

_PLAIN_RANDOM = random.Random
"""The generator whose draws :func:`randbelow` and :meth:`Distribution.sample` write out (a
name of this module's own)."""
_bisect_right = bisect.bisect_right


def compositions(total: int, parts: int) -> list[Counts]:
    """Every tuple of ``parts`` non-negative ints summing to ``total``, in lexicographic order."""
    if parts == 1:
        return [(total,)]
    result: list[Counts] = []
    for first in range(total + 1):
        result.extend((first, *rest) for rest in compositions(total - first, parts - 1))
    return result


class Distribution(Generic[T]):
    """A finite chance event with integer weights: exact probabilities, exact cheap sampling.

    Sampling draws one integer below the total weight and finds its outcome by bisection, so
    a sample costs the same however many outcomes there are, and follows the weights exactly.
    """

    __slots__ = ("_bits", "_cumulative", "outcomes", "total", "weights")

    def __init__(self, outcomes: Sequence[T], weights: Sequence[int]) -> None:
        if len(outcomes) != len(weights) or not outcomes or min(weights) <= 0:
            raise ValueError("a distribution needs outcomes with positive weights")
        self.outcomes = tuple(outcomes)
        self.weights = tuple(weights)
        self._cumulative = tuple(itertools.accumulate(weights))
        self.total = self._cumulative[-1]
        self._bits = self.total.bit_length()

    def items(self) -> list[tuple[T, Fraction]]:
        """Every outcome with its exact probability."""
        return [
            (o, Fraction(w, self.total)) for o, w in zip(self.outcomes, self.weights, strict=True)
        ]

    def sample(self, rng: random.Random) -> T:
        """One outcome drawn with ``rng``: the same draw as ``rng.randrange(total)``, written
        out as :func:`randbelow` does it (this is the hottest draw of every dice game)."""
        total = self.total
        if type(rng) is _PLAIN_RANDOM:
            bits = self._bits
            value = rng.getrandbits(bits)
            while value >= total:
                value = rng.getrandbits(bits)
        else:
            value = rng.randrange(total)
        return self.outcomes[_bisect_right(self._cumulative, value)]


def randbelow(rng: random.Random, n: int, bits: int = 0) -> int:
    """``rng.randrange(n)`` for ``n > 0`` (``bits``: ``n.bit_length()``, if known): the very
    same draws, without the argument checks that cost most of a call in a hot loop. A
    generator of a subclass of :class:`random.Random`, which may draw its own way, gets its
    own ``randrange``."""
    if type(rng) is not _PLAIN_RANDOM or n <= 0:
        return rng.randrange(n)  # its own draws, or its error for an empty range
    if not bits:
        bits = n.bit_length()
    value = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value


def multinomial_ways(counts: Counts) -> int:
    """In how many orders ``sum(counts)`` distinguishable dice can show exactly ``counts``."""
    ways = math.factorial(sum(counts))
    for c in counts:
        ways //= math.factorial(c)
    return ways


@functools.cache
def roll_distribution(dice: int, faces: int) -> Distribution[Counts]:
    """Rolling ``dice`` fair ``faces``-sided dice, outcomes as face counts (cached)."""
    outcomes = compositions(dice, faces)
    return Distribution(outcomes, [multinomial_ways(c) for c in outcomes])


def multinomial_probability(counts: Counts, faces: int) -> Fraction:
    """The probability that ``sum(counts)`` fair ``faces``-sided dice show exactly ``counts``."""
    return Fraction(multinomial_ways(counts), faces ** sum(counts))


@functools.cache
def roll_outcomes(dice: int, faces: int) -> tuple[tuple[Counts, Fraction], ...]:
    """Every outcome of rolling ``dice`` fair ``faces``-sided dice, with exact probabilities.

    A roll of 9 six-sided dice has 2,002 outcomes; call this only when the list is wanted.
    """
    return tuple(roll_distribution(dice, faces).items())


def sample_roll(rng: random.Random, dice: int, faces: int) -> Counts:
    """Roll ``dice`` fair ``faces``-sided dice with ``rng`` and return the face counts."""
    return roll_distribution(dice, faces).sample(rng)


def draw_outcomes(remaining: Counts) -> tuple[tuple[int, Fraction], ...]:
    """The kinds one blind draw from ``remaining`` can give, with exact probabilities."""
    total = sum(remaining)
    return tuple((kind, Fraction(n, total)) for kind, n in enumerate(remaining) if n)


def sample_draw(rng: random.Random, remaining: Sequence[int]) -> int:
    """Draw one kind blindly from ``remaining`` (counts per kind) with ``rng``."""
    pick = randbelow(rng, sum(remaining))
    for kind, n in enumerate(remaining):
        if pick < n:
            return kind
        pick -= n
    raise ValueError("cannot draw from an empty supply")
