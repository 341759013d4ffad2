"""Auf die Eier: what a player sees. Every die and score is public, so a view shows it all.

The view is what agents, the words, the surfaces and the RL layers read; it is complete enough
to rebuild the state from it (see ``belief``). The rules build it (``EierState.view``). Pure:
no I/O.
"""

from __future__ import annotations

from spieltisch.core.chance import Counts
from spieltisch.core.fast import value
from spieltisch.core.game import PlayerId
from spieltisch.games.auf_die_eier.model import Config, Stage, TurnScore


@value
class EierView:
    """The table as any player sees it."""

    viewer: PlayerId | None
    config: Config
    goal: int
    scores: tuple[int, ...]
    crossed: tuple[int, ...]
    """Entries crossed off each chicken ladder (one entry when the ladder is shared)."""
    chicken_need: tuple[int | None, ...]
    """Chickens each player must throw to score them now (``None``: that ladder is used up)."""
    player: PlayerId
    """Whose turn it is (the last player to move once the game is over)."""
    stage: Stage
    rolls: int
    rolls_left: int
    dice: Counts
    """Dice lying on the table this turn, Rotten Eggs included."""
    to_throw: int
    rotten_thrower: PlayerId
    """Who throws this turn's Rotten Eggs again: the player on the right."""
    final_round: bool
    tie_players: tuple[PlayerId, ...]
    winners: frozenset[PlayerId]
    last: TurnScore | None


__all__ = ["EierView"]
