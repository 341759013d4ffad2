"""Auf die Eier: what a player sees. Every die and score is public, so a view shows it all.

The view is what agents, the terminal and (later) the web and RL layers read; it is complete
enough to rebuild the state from it. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from spieltisch.core.chance import Counts
from spieltisch.core.game import PlayerId
from spieltisch.games.auf_die_eier.rules import (
    GOAL,
    MAX_ROLLS,
    Config,
    EierState,
    Sheet,
    Stage,
    TurnScore,
)


@dataclass(frozen=True, slots=True)
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


def view_of(state: EierState, viewer: PlayerId | None) -> EierView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator): here, all of it."""
    sheet = state.sheet
    players = sheet.config.players
    return EierView(
        viewer=viewer,
        config=sheet.config,
        goal=GOAL,
        scores=sheet.scores,
        crossed=sheet.crossed,
        chicken_need=tuple(sheet.chicken_need(p) for p in range(players)),
        player=state.player,
        stage=state.stage,
        rolls=state.rolls,
        rolls_left=MAX_ROLLS - state.rolls,
        dice=state.dice,
        to_throw=state.to_throw,
        rotten_thrower=(state.player - 1) % players,
        final_round=sheet.final_round,
        tie_players=sheet.tie_players,
        winners=sheet.winners,
        last=sheet.last,
    )


def state_of(view: EierView) -> EierState:
    """The one state that shows ``view``: nothing in Auf die Eier is hidden."""
    sheet = Sheet(
        config=view.config,
        scores=view.scores,
        crossed=view.crossed,
        final_round=view.final_round,
        tie_players=view.tie_players,
        winners=view.winners,
        last=view.last,
    )
    return EierState(sheet, view.player, view.stage, view.rolls, view.dice, view.to_throw)


__all__ = ["EierView", "Stage", "state_of", "view_of"]
