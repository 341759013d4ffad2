"""Auweier's shuffles, card by card, in draw order (item ids are card kinds).

A plain shuffle makes every order of the cards still to place equally likely, so each next
card is a kind drawn with probability proportional to how many of it are left. A spread
shuffle makes every order with exactly one Wedding in each part of the pile equally likely
(see the game's ``deck`` module): the Wedding of a part lies at each of its places with equal
chance, and the other cards are in uniform order. So at a place of a part whose Wedding has
not come yet, with ``j`` places of the part left, the Wedding comes with probability ``1/j``
and every other kind shares the rest in proportion to what is left of it; once the part has
its Wedding, no other Wedding can come in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

from spieltisch.core.game import Move, State
from spieltisch.games.auweier import AuweierState, Card, Shuffled, Stage
from spieltisch.games.auweier.deck import spread_parts
from spieltisch.games.auweier.notation import CARD_TEXT, KINDS
from spieltisch.native.auweier import STAGES
from spieltisch.rl.chance.base import Event, Shape, Splitter

WEDDING = int(Card.WEDDING)
N = TypeVar("N", Fraction, float)


def _auweier(state: State) -> AuweierState:
    if not isinstance(state, AuweierState):
        raise TypeError(f"not an Auweier state: {type(state).__name__}")
    return state


def _to_place(state: AuweierState) -> tuple[int, ...]:
    """The cards of the deck being shuffled that are not placed yet, per kind."""
    counts: tuple[int, ...] = state.seats[state.player].hand
    return counts


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator


def _shape(state: AuweierState) -> Shape:
    """The cards to place, by kind, then 1 for a spread shuffle (0 for a plain one)."""
    return (*_to_place(state), int(state.stage is Stage.SPREAD))


def _items(
    shape: Shape, drawn: Sequence[int], ratio: Callable[[int, int], N]
) -> list[tuple[int, N]]:
    """The kinds the next card may be, each with its probability as ``ratio`` makes it (exact
    fractions, or floats), in a shuffle of ``shape``."""
    left = list(shape[:-1])
    for kind in drawn:
        left[kind] -= 1
    total = sum(left)
    if not shape[-1]:
        return [(k, ratio(n, total)) for k, n in enumerate(left) if n]
    cards = len(drawn) + total
    weddings = shape[WEDDING]
    place = len(drawn)
    start = 0
    for size in spread_parts(cards, weddings):
        if place < start + size:
            break
        start += size
    end = start + size
    others = total - left[WEDDING]
    if WEDDING in drawn[start:place]:
        return [(k, ratio(n, others)) for k, n in enumerate(left) if n and k != WEDDING]
    wedding = ratio(1, end - place)
    rest = ratio(end - place - 1, end - place)
    items = [
        (k, rest * ratio(n, others)) for k, n in enumerate(left) if n and k != WEDDING and rest
    ]
    items.append((WEDDING, wedding))
    return sorted(items)


class ShuffleSplitter(Splitter):
    """A shuffle or a spread of the cards a player has not placed yet, card by card."""

    items = KINDS

    def applies(self, state: State) -> bool:
        """True at every shuffle (Auweier's only chance events)."""
        return isinstance(state, AuweierState) and state.is_chance()

    def next_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, Fraction]]:
        """The kinds the next card may be, with their exact probabilities."""
        return _items(_shape(_auweier(state)), drawn, Fraction)

    def float_items(self, state: State, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """:meth:`next_items` worked out in floats (the same arithmetic, no fractions)."""
        return _items(_shape(_auweier(state)), drawn, _ratio)

    def shape_items(self, shape: Shape, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """:meth:`float_items` of a shuffle of ``shape`` (the cards to place, then the spread)."""
        return _items(shape, drawn, _ratio)

    def native_event(self, sample: Sequence[int], canonical: Callable[[], Sequence[int]]) -> Event:
        """Every shuffle: the sample holds each card to place once; the stage (the first of
        the canonical integers) says whether it is a spread."""
        counts = [0] * KINDS
        for kind in sample:
            counts[kind] += 1
        spread = canonical()[0] == STAGES.index(Stage.SPREAD)
        return Event(len(sample), (*counts, int(spread)))

    def outcome(self, state: State, drawn: Sequence[int]) -> Move | None:
        """The shuffle once every card to place is drawn."""
        state = _auweier(state)
        if len(drawn) < sum(_to_place(state)):
            return None
        return Shuffled(tuple(Card(kind) for kind in drawn))

    def item_text(self, item: int) -> str:
        """The card kind, e.g. ``card 2*``."""
        return f"card {CARD_TEXT[item]}"
