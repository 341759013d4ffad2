"""Awimbawé: the vocabulary below the rules and the view (see docs/rules/awimbawe.md).

The stages of a match and the rules an illegal move can break; the config with the game's
options, each declared once; the options as a view shows them; the small records a view shows
(the last trick, a finished round); and the match's constants. Pure: no I/O.
"""

from __future__ import annotations

import functools

from spieltisch.core.fast import KeyEnum, value
from spieltisch.core.game import PlayerId, option
from spieltisch.core.words import N_
from spieltisch.games.awimbawe.notation import LANDS_BOUNDS, LANDS_IN_PLAY, Card, Stance

ROUNDS_TO_WIN = 2
"""Round wins that take the match, by the rulebook (the ``rounds_to_win`` parameter's default)."""
ROUNDS_BOUNDS = (1, 5)
HYENAS_TO_LOSE = 4
"""Hyenas that lose the round for whoever takes them all, by the rulebook (one per land in
play: the ``lands`` parameter shrinks it with the deck)."""


class Rule(KeyEnum):
    """The rules an illegal move can break, in the words of the error message."""

    GAME_OVER = N_("the game is over")
    DEAL_NOW = N_("the cards must be dealt now")
    TIE_BREAK_NOW = N_("chance decides who leads the first round now (the crowns tie)")
    PICK_NOW = N_("chance picks the snake's blind card now")
    PLAY_NOW = N_("a card must be played now")
    RHINO_NOW = N_("the rhinoceros's power is used ('move N under M') or declined now")
    SNAKE_NOW = N_("the snake's power is used ('block N', 'block hand') or declined now")
    CHEETAH_NOW = N_("the player of the cheetah names who leads the next trick now")
    CHOOSE_NOW = N_("the loser of the round names who leads the next round now")
    DEAL_COMPLETE = N_(
        "a deal hands out all 28 cards: 4 face-down, 4 face-up and 6 in hand to each player "
        "(with fewer lands, every card in play: one face-down and one face-up card per land)"
    )
    TIE_BREAK_SEAT = N_("the tie-break names seat 0 or seat 1")
    PICK_HAND = N_("the blind pick falls on one of the opponent's unblocked hand cards")
    AVAILABLE = N_(
        "only an available card can be played: a hand card or the face-up top card of a pile"
    )
    BLOCKED = N_(
        "a card blocked by the snake cannot be played until its owner has played another card"
    )
    FOLLOW = N_("the led land must be followed if possible")
    EAGLE_DUTY = N_("a player who cannot follow the led land must play an eagle if they have one")
    EAGLE_CHOICE = N_("an eagle played on a land it cannot follow must flee or fight")
    EAGLE_FIGHTS = N_(
        "an eagle that leads, or answers an eagle lead, always fights: play it without "
        "'fight' or 'flee'"
    )
    RHINO_SOURCE = N_("the rhinoceros moves the top card of one of the opponent's non-empty piles")
    RHINO_DEST = N_("the card goes under another of the opponent's non-empty piles")
    RHINO_DEST_ANY = N_("the card goes under (or onto) another of the opponent's pile places")
    SNAKE_TARGET = N_(
        "the snake blocks an available card of the opponent: the face-up top card of a pile, "
        "or a hand card picked blind"
    )
    SNAKE_BLOCKED = N_("that card is blocked already")


class Stage(KeyEnum):
    """What happens next."""

    DEAL = "deal"
    """Chance deals the round."""
    TIE_BREAK = "tie-break"
    """Chance names the first round's leader: the crowns on the face-up cards tie."""
    CHOOSE_LEADER = "choose-leader"
    """The loser of the last round names who leads this one."""
    PLAY = "play"
    """The player to act plays a card: the leader of the trick, then the follower."""
    RHINOCEROS = "rhinoceros"
    """The rhinoceros's player may move a top card of the opponent under another pile."""
    SNAKE = "snake"
    """The snake's player may block an available card of the opponent."""
    BLIND_PICK = "blind-pick"
    """Chance picks which hand card the snake blocks."""
    CHEETAH = "cheetah"
    """The cheetah's player names who leads the next trick."""
    OVER = "over"


DUTIES_EXCUSED = "excused"
"""``blocked_duties`` (the default, ruling 4): a blocked card counts as unavailable for every
duty, so a player whose only cards of the led land (or only eagles) are blocked is free of
that duty."""
DUTIES_BOUND = "bound"
"""``blocked_duties``: a block never excuses a duty; when the only cards that meet the duty
to follow (or to play an eagle) are blocked, the block is lifted for that play."""
BLOCKED_DUTIES = (DUTIES_EXCUSED, DUTIES_BOUND)

TIE_BREAKS: dict[str, PlayerId | None] = {"chance": None, "seat0": 0, "seat1": 1}
"""The values of the option ``tie_break``: who leads the first round when the face-up crowns
tie (``None``: chance decides)."""


@value
class Config:
    """The options a match is played with (Awimbawé is always played by two)."""

    players: int = 2
    tie_break: str = option(
        "chance",
        "who leads round 1 when face-up crowns tie: chance, or seat0/seat1 (the youngest)",
        choices=tuple(TIE_BREAKS),
    )
    rhino_to_empty_pile: bool = option(
        False, "the rhinoceros may also move a card to an empty pile place"
    )
    """The rhinoceros may also put the card on an empty pile place."""
    leader_choice_after_deal: bool = option(
        False, "a round's loser names the next leader after seeing the new deal"
    )
    """The loser of a round names the next leader after the deal instead of before it."""
    blind_pick_shown: bool = option(
        False, "the hand card blocked by the snake's blind pick is shown to both players"
    )
    """The hand card the snake's blind pick blocks is shown to both players."""
    blocked_duties: str = option(
        DUTIES_EXCUSED,
        "a card blocked by the snake and the duties to follow and to play an eagle: excused "
        "(it counts as unavailable, so it can free its owner of a duty) or bound (the duty "
        "holds, and the block is lifted when only blocked cards meet it)",
        choices=BLOCKED_DUTIES,
    )
    """Whether a blocked card excuses its owner from the duties of following (ruling 4)."""
    rounds_to_win: int = option(
        ROUNDS_TO_WIN, "round wins that take the match (a rule parameter)", bounds=ROUNDS_BOUNDS
    )
    """How many rounds a player must win to take the match."""
    lands: int = option(
        LANDS_IN_PLAY,
        "lands in play: a smaller deck under the same rules, with one pile per land, the "
        "eagles and the hand scaled with it (a rule parameter)",
        bounds=LANDS_BOUNDS,
    )
    """The lands in play (:func:`~spieltisch.games.awimbawe.notation.deck_of`)."""

    @property
    def hyenas_to_lose(self) -> int:
        """Hyenas that lose the round for whoever takes them all: every hyena in play."""
        return self.lands

    @property
    def tie_break_seat(self) -> PlayerId | None:
        """Who leads the first round when the face-up crowns tie: this seat, or ``None`` for
        chance (see ``TIE_BREAKS``)."""
        return TIE_BREAKS[self.tie_break]

    @property
    def variant(self) -> Variant:
        """These options as a view shows them."""
        return _variant(self)


@value
class Variant:
    """The options of a match as a view shows them: the tie-break as the seat that leads on
    a tie of crowns, or ``None`` for chance. (The form every view has had since the first
    version, so that views written out stay as they were.)"""

    players: int
    tie_break_seat: PlayerId | None
    rhino_to_empty_pile: bool
    leader_choice_after_deal: bool
    blind_pick_shown: bool
    rounds_to_win: int = ROUNDS_TO_WIN
    """Round wins that take the match (a rule parameter)."""
    lands: int = LANDS_IN_PLAY
    """Lands in play (a rule parameter)."""


@functools.cache
def _variant(config: Config) -> Variant:
    return Variant(
        config.players,
        config.tie_break_seat,
        config.rhino_to_empty_pile,
        config.leader_choice_after_deal,
        config.blind_pick_shown,
        config.rounds_to_win,
        config.lands,
    )


@value
class LastTrick:
    """The most recent trick: who led, the two cards, how an eagle was used, who won."""

    leader: PlayerId
    cards: tuple[Card, ...]
    """The leader's card, then the follower's."""
    stance: Stance | None
    """Flee or fight, when the follower used an eagle on a land it could not follow."""
    winner: PlayerId


@value
class RoundResult:
    """How a round ended."""

    number: int
    winner: PlayerId
    crowns: tuple[int, ...]
    hyenas: tuple[int, ...]
    fourth_hyena: bool
    """True when the round ended because the loser took the fourth hyena (the last hyena in
    play, with fewer lands)."""


__all__ = [
    "BLOCKED_DUTIES",
    "DUTIES_BOUND",
    "DUTIES_EXCUSED",
    "HYENAS_TO_LOSE",
    "ROUNDS_TO_WIN",
    "TIE_BREAKS",
    "Config",
    "LastTrick",
    "RoundResult",
    "Rule",
    "Stage",
    "Variant",
]
