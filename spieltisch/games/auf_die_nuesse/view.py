"""Auf die Nüsse!: what a player sees. Nothing in the game is secret once drawn, so every
player sees the whole table: the board, the face-up nuts, every store, the kept jokers and
where David sits. The draw pile is only counted, and the cards not yet seen are given as one
multiset (what anyone counting cards knows), never split into pile and set-aside nuts and never
in an order. The rules build it (``NuesseState.view``). Pure: no I/O.
"""

from __future__ import annotations

from spieltisch.core.fast import value
from spieltisch.core.game import PlayerId
from spieltisch.games.auf_die_nuesse.model import Config, Ending, Event, Stage, Store
from spieltisch.games.auf_die_nuesse.notation import Card, Dice, Slot, Space


@value
class NuesseView:
    """The table as any player sees it."""

    viewer: PlayerId | None
    config: Config
    stage: Stage
    player: PlayerId
    """Whose turn it is."""
    actor: PlayerId | None
    """Who decides now (``None`` while chance acts or once the game is over)."""
    track: tuple[int, ...]
    """Start-track spaces holding a squirrel of the player whose turn it is."""
    dice: Dice | None
    """The last roll."""
    placements: tuple[int, ...]
    """The free start-track spaces the roll allows, while the player chooses."""
    areas: tuple[tuple[int, ...], ...]
    """Squirrels per space (in :class:`Space` order), per player."""
    supply: tuple[int, ...]
    """Squirrels in each player's supply now (not those on the start track)."""
    face_up: tuple[Card | None, ...]
    """The nuts under 2-4, 5-6, 8-9 and 10-12."""
    pile: int
    """Cards in the draw pile."""
    set_aside: int
    """Set-aside cards not yet turned into the draw pile."""
    unseen: tuple[int, ...]
    """Cards nobody has seen yet (pile and set-aside together), per card kind."""
    ending: Ending
    stores: tuple[tuple[Store, ...], ...]
    jokers: tuple[tuple[Card, ...], ...]
    """Jokers each player keeps in hand."""
    david: PlayerId | None
    receiver: PlayerId | None
    """Who the step under way is about: dealt a nut, collecting, storing or stealing."""
    space: Space | None
    """The space paying out, while a collection is under way."""
    offer: tuple[Slot, ...]
    """The face-up places the space paying out offers."""
    raccoon: bool
    """The space paying out is a raccoon space (its nut and its theft may be refused)."""
    pending: Card | None
    """The nut in the hand of the player who must store it."""
    can_keep: bool
    """The nut in hand is a joker that may be kept for later instead."""
    refill: Slot | None
    """The empty face-up place to refill: being laid now, or where the nut in hand came from
    (refilled once that nut is stored, while the pile lasts)."""
    theft: bool
    """The raccoon space paying out still owes its theft (after its nut is taken or refused,
    stored and replaced)."""
    scores: tuple[int, ...]
    winners: frozenset[PlayerId]
    events: tuple[Event, ...]
    """What the engine did by itself during the last move."""


__all__ = ["NuesseView"]
