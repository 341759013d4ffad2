"""Auweier deck orders for the lab: named ordering strategies, played by the heuristic.

Each strategy builds a whole 22-card order at a game's first ordering step (with the agent's
own generator, so a seeded game repeats) and places it card by card; everything after the
deck is played by the heuristic. A study seats them against each other to see which order
wins (``docs/lab/``). The lab's own agents live here, keyed by game id in
:mod:`spieltisch.lab.agents`, so the game's kit knows nothing of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.game import Game, Move
from spieltisch.games.auweier.bots.book import plan_deck
from spieltisch.games.auweier.model import Stage
from spieltisch.games.auweier.notation import DECK, DECK_SIZE, HAND_SIZE, Arrange, Card
from spieltisch.games.auweier.view import AuweierView

Order = tuple[Card, ...]
Strategy = Callable[[random.Random], Order]

STRONG_TO_WEAK: tuple[Card, ...] = (
    Card.SEVEN, Card.SIX, Card.FIVE_STAR, Card.FOUR, Card.FOUR, Card.THREE, Card.THREE,
    Card.TWO_STAR, Card.TWO, Card.TWO, Card.ONE, Card.ONE, Card.ONE, Card.CROW, Card.CROW,
    Card.FALSE_WORM,
)  # fmt: skip
"""The sixteen cards other than Weddings, the worms strongest first, then Crows and False Worm."""


def _with_weddings(others: Sequence[Card], places: Sequence[int]) -> Order:
    """An order with the Weddings at ``places`` and ``others`` in the rest, in their order."""
    rest = iter(others)
    wanted = set(places)
    return tuple(Card.WEDDING if i in wanted else next(rest) for i in range(DECK_SIZE))


def _plan_others(rng: random.Random) -> list[Card]:
    return [card for card in plan_deck(rng) if card is not Card.WEDDING]


def _plan_wedding_places(rng: random.Random) -> list[int]:
    return [i for i, card in enumerate(plan_deck(rng)) if card is Card.WEDDING]


def weddings_early(rng: random.Random) -> Order:
    """Three Weddings in the starting hand, the other three in the first draws."""
    return _with_weddings(_plan_others(rng), (0, 2, 4, 6, 7, 8))


def weddings_late(rng: random.Random) -> Order:
    """No Wedding in the starting hand; all six in the second half of the deck."""
    return _with_weddings(_plan_others(rng), (11, 13, 15, 17, 19, 21))


def crows_first(rng: random.Random) -> Order:
    """The plan's order with both Crows moved into the starting hand."""
    plan: list[Card] = [card for card in plan_deck(rng) if card is not Card.CROW]
    for place in sorted(rng.sample(range(HAND_SIZE), 2)):
        plan.insert(place, Card.CROW)
    return tuple(plan)


def strong_first(rng: random.Random) -> Order:
    """The plan's Wedding places; the worms strongest first, Crows and False Worm last."""
    return _with_weddings(STRONG_TO_WEAK, _plan_wedding_places(rng))


def weak_first(rng: random.Random) -> Order:
    """The plan's Wedding places; the worms weakest first (Crows and False Worm first of all)."""
    return _with_weddings(tuple(reversed(STRONG_TO_WEAK)), _plan_wedding_places(rng))


def shuffled(rng: random.Random) -> Order:
    """Every order equally likely."""
    cards = [Card(kind) for kind, count in enumerate(DECK) for _ in range(count)]
    rng.shuffle(cards)
    return tuple(cards)


STRATEGIES: dict[str, Strategy] = {
    "deck-weddings-early": weddings_early,
    "deck-weddings-late": weddings_late,
    "deck-crows-first": crows_first,
    "deck-strong-first": strong_first,
    "deck-weak-first": weak_first,
    "deck-shuffled": shuffled,
}
"""The named strategies; ``heuristic`` itself plays the heuristic's own plan."""


class DeckOrderAgent(Agent[AuweierView]):
    """Orders its deck by one strategy, then plays as the heuristic."""

    def __init__(self, game: Game, seed: int, strategy: Strategy, name: str) -> None:
        super().__init__(game, seed)
        self.strategy = strategy
        self.label = name
        self.base: Agent[AuweierView] = make_agent("heuristic", game, seed)
        self.order: Order = ()

    def act(self, view: AuweierView, legal: Sequence[Move]) -> Move:
        if view.stage is Stage.ORDER and view.hand is not None:
            placed = DECK_SIZE - sum(view.hand)
            if placed == 0 or not self.order:
                self.order = self.strategy(self.rng)
            step = Arrange((self.order[placed],))
            if step in legal:
                return step
        return self.base.act(view, legal)


def factory(name: str) -> Callable[[Game, int], Agent[AuweierView]]:
    """A maker of the strategy agent ``name`` (a key of :data:`STRATEGIES`)."""
    strategy = STRATEGIES[name]
    return lambda game, seed: DeckOrderAgent(game, seed, strategy, name)
