"""Awimbawé: what a player sees.

A player sees their own hand, every face-up pile card of both players (face-down cards only as
backs, their own too: nobody has looked at them), the trick in progress, the most recent
trick, the size of each scoring pile with its crowns and face-up hyenas, the blocked cards they
may know of, round wins and who leads. The opponent's hand is only a count, and so is a hand
card blocked by a blind pick of one's own snake. A spectator (``None``) sees no hand at all.

A view also holds what a player at the table remembers of the round, all of it public: the
cards played in the earlier tricks, the lands each player was found to hold no hand card of,
and the hand cards a shown blind pick revealed (see ``memory``). Pure: no I/O.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from spieltisch.core.game import PlayerId
from spieltisch.games.awimbawe.memory import BlindVoid, bits_lands
from spieltisch.games.awimbawe.notation import DECK, Card, Land, card_code
from spieltisch.games.awimbawe.rules import (
    AwimbaweState,
    Config,
    LastTrick,
    RoundResult,
    Stage,
)


class Heir(enum.Enum):
    """The side an heir card shows: silver until its player has won a round, then gold."""

    SILVER = "silver"
    GOLD = "gold"


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's cards and scoring pile as the viewer sees them."""

    piles: tuple[tuple[Card | None, ...], ...]
    """The four piles, bottom card first; ``None`` is a card lying face down."""
    hand: tuple[Card, ...] | None
    """The hand in card order, or ``None`` when the viewer may not see it."""
    hand_size: int
    blocked: tuple[Card, ...]
    """The blocked cards the viewer can name."""
    blocked_unseen: int
    """Blocked hand cards the viewer cannot name (picked blind by the viewer's snake)."""
    shown: tuple[Card, ...]
    """Hand cards a blind pick showed to both players (``blind_pick_shown``), not played since."""
    void: tuple[Land, ...]
    """Lands of which the hand holds no card besides the shown ones: the player once had none
    to play when it was their duty (face-down pile cards may still be of these lands)."""
    blind_voids: tuple[BlindVoid, ...]
    """Such facts made while hand cards were blocked by blind picks, so weaker: the blocked
    cards, unseen by the others, may be of those lands."""
    available: tuple[Card, ...]
    """Cards the player may play now as far as the viewer knows: the face-up pile tops,
    and the hand when the viewer sees it."""
    scoring_pile: int
    """Cards in the scoring pile."""
    crowns: int
    """Net crowns taken this round (every card was seen when it was played)."""
    hyenas: int
    """Hyenas taken this round (they lie face up)."""
    wins: int
    """Rounds won."""
    heir: Heir


@dataclass(frozen=True, slots=True)
class AwimbaweView:
    """The table as one player (or a spectator) sees it."""

    viewer: PlayerId | None
    config: Config
    round: int
    stage: Stage
    to_act: PlayerId | None
    """Who decides now (``None``: chance or the end)."""
    power_of: PlayerId | None
    """Whose power is in use, during a rhinoceros, snake, blind pick or cheetah step."""
    leader: PlayerId
    """Who leads the current trick."""
    round_leader: PlayerId | None
    """Who led the first trick of this round, once known."""
    sides: tuple[SideView, ...]
    trick: tuple[Card, ...]
    """The cards played to the current trick, the leader's first."""
    next_leader: PlayerId | None
    """Whom a cheetah of this trick has named to lead the next one."""
    last_trick: LastTrick | None
    played: tuple[Card, ...]
    """The cards played in the earlier tricks of this round, in card order (all were seen)."""
    results: tuple[RoundResult, ...]
    winner: PlayerId | None


def view_of(state: AwimbaweState, viewer: PlayerId | None) -> AwimbaweView:
    """The view of ``state`` for ``viewer`` (``None``: a spectator)."""
    match = state.match
    stage = state.stage
    in_power = stage in {Stage.RHINOCEROS, Stage.SNAKE, Stage.BLIND_PICK, Stage.CHEETAH}
    winners = state.winners()
    return AwimbaweView(
        viewer=viewer,
        config=match.config,
        round=match.round,
        stage=stage,
        to_act=state.current_player(),
        power_of=state.actor if in_power else None,
        leader=state.leader,
        round_leader=match.round_leader,
        sides=tuple(_side_view(state, p, viewer) for p in range(len(state.sides))),
        trick=state.trick,
        next_leader=state.next_leader,
        last_trick=state.last_trick,
        played=_played(state),
        results=match.results,
        winner=min(winners) if winners else None,
    )


def _side_view(state: AwimbaweState, p: PlayerId, viewer: PlayerId | None) -> SideView:
    """What ``viewer`` sees of player ``p``'s side: the hand only if it is theirs, face-down
    pile cards as ``None``, and blocks on hand cards only where a blind pick was shown."""
    side, memory = state.sides[p], state.memory
    down, blocked = side.down, side.blocked
    piles = tuple(tuple(None if c in down else c for c in pile) for pile in side.piles)
    tops = tuple(sorted((q[-1] for q in piles if q and q[-1] is not None), key=card_code))
    own = p == viewer
    shown_picks = state.match.config.blind_pick_shown
    visible_blocks = [c for c in blocked if own or c not in side.hand or shown_picks]
    tally = state.tallies[p]
    wins = state.match.wins[p]
    return SideView(
        piles=piles,
        hand=side.hand if own else None,
        hand_size=len(side.hand),
        blocked=tuple(sorted(visible_blocks, key=card_code)),
        blocked_unseen=len(blocked) - len(visible_blocks),
        shown=tuple(sorted(memory.shown[p], key=card_code)),
        void=bits_lands(memory.void[p]),
        blind_voids=memory.blind[p],
        available=tuple(sorted((*side.hand, *tops), key=card_code)) if own else tops,
        scoring_pile=tally.size,
        crowns=tally.crowns,
        hyenas=tally.hyenas,
        wins=wins,
        heir=Heir.GOLD if wins else Heir.SILVER,
    )


def _played(state: AwimbaweState) -> tuple[Card, ...]:
    """The cards of this round already taken into a scoring pile (public: every trick is seen
    face up). Empty before the first trick is taken."""
    tallies = state.tallies
    if not (tallies[0].size or tallies[1].size):
        return ()
    on_table = sum(c.bit for c in state.trick)
    for side in state.sides:
        on_table |= sum(c.bit for c in side.hand) | sum(c.bit for pile in side.piles for c in pile)
    return tuple(c for c in DECK if not c.bit & on_table)


__all__ = ["AwimbaweView", "Heir", "SideView", "view_of"]
