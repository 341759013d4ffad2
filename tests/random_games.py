"""Whole games between random choices, for tests that read what a game says along the way."""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.agents import RandomAgent
from spieltisch.core.game import Game
from spieltisch.session import Table


def random_game(
    game: Game, seed: int, names: Sequence[str] = (), history: int | None = None
) -> Table:
    """``game`` played to its end at a table seeded ``seed``, every choice random (drawn from
    ``seed + 1``); ``history`` as :class:`~spieltisch.session.Table` takes it."""
    table = Table(game, names, seed=seed, history=history)
    chooser = RandomAgent(game, seed + 1)
    while not table.over:
        if table.to_act() is None:
            table.advance_chance()
        else:
            table.play(chooser.act(None, table.legal()))
    return table
