"""The lab's own agents: Auweier's named deck orders, and the catalogue behind them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import spieltisch
from spieltisch.core.errors import OptionError
from spieltisch.games.auweier.notation import DECK, DECK_SIZE, HAND_SIZE, Card
from spieltisch.lab import auweier_decks
from spieltisch.lab.agents import lab_agent
from spieltisch.lab.engine import Task, play_task


@pytest.mark.parametrize("name", sorted(auweier_decks.STRATEGIES))
def test_every_strategy_orders_the_whole_deck(name: str) -> None:
    order = auweier_decks.STRATEGIES[name](random.Random(3))
    assert len(order) == DECK_SIZE
    assert Counter(order) == Counter({Card(k): n for k, n in enumerate(DECK)})


def test_the_strategies_put_the_cards_where_their_names_say() -> None:
    rng = random.Random(1)
    early = auweier_decks.weddings_early(rng)
    late = auweier_decks.weddings_late(rng)
    crows = auweier_decks.crows_first(rng)
    assert early[:HAND_SIZE].count(Card.WEDDING) == 3
    assert Card.WEDDING not in late[: DECK_SIZE // 2]
    assert crows[:HAND_SIZE].count(Card.CROW) == 2
    strong = [c for c in auweier_decks.strong_first(rng) if c is not Card.WEDDING]
    assert strong[0] is Card.SEVEN and strong[-1] is Card.FALSE_WORM


def test_a_deck_agent_plays_its_order_and_then_the_game() -> None:
    task = Task("auweier", 2, (), 0, 0, ("deck-weddings-late", "heuristic"), 5, keep_record=True)
    result = play_task(task)
    assert result.finished and result.record is not None
    # The first seat orders its deck first, card by card: no Wedding in its starting hand.
    first = result.record.moves[:DECK_SIZE]
    assert all(m.startswith("deck ") for m in first) and "deck H" not in first[:HAND_SIZE]
    assert first.count("deck H") == DECK[Card.WEDDING]


def test_other_names_go_to_the_catalogue_and_other_games_have_no_deck_agents() -> None:
    eier = spieltisch.load("auf-die-eier", 2)
    assert lab_agent("random", eier, 0).name == "random"
    with pytest.raises(OptionError):
        lab_agent("deck-weddings-late", eier, 0)
