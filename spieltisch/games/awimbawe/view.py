"""Awimbawé: what a player sees.

A player sees their own hand, every face-up pile card of both players (face-down cards only as
backs, their own too: nobody has looked at them), the trick in progress, the most recent
trick, the size of each scoring pile with its crowns and face-up hyenas, the blocked cards they
may know of, round wins and who leads. The opponent's hand is only a count, and so is a hand
card blocked by a blind pick of one's own snake. A spectator (``None``) sees no hand at all.

A view also holds what a player at the table remembers of the round, all of it public: the
cards played in the earlier tricks, the lands each player was found to hold no hand card of,
and the hand cards a shown blind pick revealed (see ``memory``). The rules build views
(``AwimbaweState.view``); this module only says what they hold. Pure: no I/O.
"""

from __future__ import annotations

from spieltisch.core.fast import KeyEnum, value
from spieltisch.core.game import PlayerId
from spieltisch.games.awimbawe.memory import BlindVoid
from spieltisch.games.awimbawe.model import LastTrick, RoundResult, Stage, Variant
from spieltisch.games.awimbawe.notation import Card, Land


class Heir(KeyEnum):
    """The side an heir card shows: silver until its player has won a round, then gold."""

    SILVER = "silver"
    GOLD = "gold"


@value
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


@value
class AwimbaweView:
    """The table as one player (or a spectator) sees it."""

    viewer: PlayerId | None
    config: Variant
    """The options of the match."""
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


__all__ = ["AwimbaweView", "Heir", "SideView"]
