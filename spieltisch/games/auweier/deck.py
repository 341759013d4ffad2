"""Auweier: shuffled piles, as chance events (see docs/rules/auweier.md, "Arranging the decks").

A shuffle puts the cards a player has not placed yet in a random order. A *spread* shuffle
does so with the Weddings spread evenly: a pile of n cards with w Weddings is cut into w parts,
the k-th ending after the first k*n//w cards, and each part holds exactly one Wedding. Every
order allowed is equally likely. Cards are given as counts per kind. Pure: every random draw
comes from a generator passed in.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Sequence

from spieltisch.games.auweier.notation import Card

Counts = tuple[int, ...]
CARDS = tuple(Card)
WEDDING = Card.WEDDING


def without_weddings(counts: Counts) -> Counts:
    """``counts`` with no Wedding."""
    return (*counts[:WEDDING], 0, *counts[WEDDING + 1 :])


@functools.cache
def cards_of(counts: Counts) -> tuple[Card, ...]:
    """The cards ``counts`` holds, in notation order."""
    return tuple(CARDS[k] for k, n in enumerate(counts) for _ in range(n))


@functools.cache
def spread_parts(cards: int, weddings: int) -> tuple[int, ...]:
    """Sizes of the parts of a spread pile of ``cards`` cards, in draw order."""
    bounds = [part * cards // weddings for part in range(weddings + 1)]
    return tuple(b - a for a, b in itertools.pairwise(bounds))


def arrangements(counts: Counts) -> int:
    """How many distinct orders the cards ``counts`` holds can lie in."""
    ways = math.factorial(sum(counts))
    for n in counts:
        ways //= math.factorial(n)
    return ways


def count_orders(counts: Counts, spread: bool) -> int:
    """How many distinct orders a (``spread``) shuffle of ``counts`` can give."""
    if not spread:
        return arrangements(counts)
    parts = spread_parts(sum(counts), counts[WEDDING])
    return math.prod(parts) * arrangements(without_weddings(counts))


def all_orders(counts: Counts, spread: bool) -> list[tuple[Card, ...]]:
    """Every order a (``spread``) shuffle of ``counts`` can give (for small piles)."""
    if not spread:
        return _arrangements_of(counts)
    parts = spread_parts(sum(counts), counts[WEDDING])
    orders = []
    for places in itertools.product(*(range(size) for size in parts)):
        for others in _arrangements_of(without_weddings(counts)):
            cards = list(others)
            start = 0
            for size, place in zip(parts, places, strict=True):
                cards.insert(start + place, WEDDING)
                start += size
            orders.append(tuple(cards))
    return orders


def _arrangements_of(counts: Counts) -> list[tuple[Card, ...]]:
    if not any(counts):
        return [()]
    orders = []
    for kind, n in enumerate(counts):
        if n:
            rest = (*counts[:kind], n - 1, *counts[kind + 1 :])
            orders += [(CARDS[kind], *order) for order in _arrangements_of(rest)]
    return orders


def is_spread(order: Sequence[Card]) -> bool:
    """True if ``order`` has exactly one Wedding in each part of its spread layout."""
    places = [i for i, card in enumerate(order) if card is WEDDING]
    starts = itertools.accumulate(spread_parts(len(order), len(places)), initial=0)
    parts = itertools.pairwise(starts)
    return all(start <= place < end for place, (start, end) in zip(places, parts, strict=True))


def shuffled(cards: tuple[Card, ...], rng: random.Random) -> tuple[Card, ...]:
    """``cards`` in a uniformly random order: sorted by one random key each (far cheaper than
    ``random.shuffle``; ties have probability about 2**-53 and keep the cards' order)."""
    keys = [rng.random() for _ in cards]
    return tuple(card for _, card in sorted(zip(keys, cards, strict=True)))


def sample_order(counts: Counts, spread: bool, rng: random.Random) -> tuple[Card, ...]:
    """One (``spread``) shuffle of ``counts``, every allowed order equally likely."""
    if not spread:
        return shuffled(cards_of(counts), rng)
    others = list(shuffled(cards_of(without_weddings(counts)), rng))
    order: list[Card] = []
    for size in spread_parts(sum(counts), counts[WEDDING]):
        part = [others.pop() for _ in range(size - 1)]
        part.insert(rng.randrange(size), WEDDING)
        order += part
    return tuple(order)
