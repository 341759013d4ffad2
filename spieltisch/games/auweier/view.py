"""Auweier: what one player sees (see docs/rules/auweier.md).

Every card before the females is public, with its owner and its place in the stack, and so are
the egg stacks, the eggs each player holds, the Weddings and passes of a wedding phase, the
cards each player has discarded, and how many cards each player has in hand and in the pile.
A player sees their own hand and the order of their own pile as far as they arranged it; a
shuffled part of the pile is shown as its cards without an order. Nobody sees another player's
hand or deck order, except cards everyone saw going back into a hand.

While the decks are set up, others learn only whose deck is being set up and whose are ready:
not how many cards a player has placed, nor whether their cards are being shuffled (a shuffle,
a spread or a first-game hand), so their stage shows as ``ORDER``. The rules build views
(``AuweierState.view``); this module only says what they hold. Pure: no I/O.
"""

from __future__ import annotations

from spieltisch.core.fast import value
from spieltisch.core.game import PlayerId
from spieltisch.games.auweier.model import Config, Counts, Egg, End, Mating, Stage
from spieltisch.games.auweier.notation import NO_CARDS, Card, Colour


@value
class StackView:
    """One player's cards before one female."""

    owner: Colour
    cards: tuple[Card, ...]
    """Bottom first: the order they were played in (place 1 is the bottom)."""
    total: int
    wedding: bool
    """The owner has a Wedding before this female in the wedding phase under way."""


@value
class FemaleView:
    """A female, her egg stack and the cards before her."""

    colour: Colour
    neutral: bool
    """The third female of a two-player game, of no player's colour."""
    eggs_left: tuple[int, ...]
    """The egg cards still in her stack, top first (the top one goes to the next winner)."""
    stacks: tuple[StackView, ...]
    """Every player's stack before her, in seat order (empty ones too)."""
    closed: bool
    """She takes no more cards (all her eggs are gone and ``closed_nests`` is set)."""


@value
class PlayerView:
    """What everyone knows about one player."""

    colour: Colour
    hand_size: int | None
    """Cards in hand (while the decks are set up: cards not placed yet, and ``None`` for
    another player's deck, which is set up in secret)."""
    pile_size: int | None
    """Cards in the draw pile (while the decks are set up: cards placed so far, and ``None``
    for another player's deck)."""
    ready: bool
    """The player's deck is set up (always, once the decks are dealt)."""
    shown: Counts
    """Cards everyone knows to be in this hand (swapped back, or a Lucky Eggs start)."""
    discarded: Counts
    """This player's cards that have left the game (Crows, eaten worms, cleared cards)."""
    eggs: tuple[Egg, ...]
    score: int
    weddings: tuple[Colour, ...]
    """Females this player has a Wedding before in the wedding phase under way."""
    passed: bool
    """Has passed, or takes no part, in the stage of the wedding phase under way."""
    false_worm_seen: tuple[Colour, ...]
    """Females this player's False Worm has lain before in the wedding phase under way (with
    ``false_worm_limit=always``, in normal play: since the last mating)."""


@value
class AuweierView:
    """The table as one player (or a spectator, ``viewer`` ``None``) sees it."""

    viewer: PlayerId | None
    config: Config
    stage: Stage
    """The stage; while another player's deck is set up (not in Lucky Eggs) always ``ORDER``,
    even while it is being shuffled, so that nobody learns how it was built."""
    player: PlayerId
    """Whose go it is (whose deck is being arranged or shuffled; the last to move at the end)."""
    start_player: PlayerId
    """Who holds the start player card: the opener of the current or last wedding phase."""
    females: tuple[FemaleView, ...]
    players: tuple[PlayerView, ...]
    hand: Counts | None
    """The viewer's hand (while arranging: the cards not placed yet); ``None`` for a spectator."""
    pile_known: tuple[Card, ...]
    """The viewer's next cards to draw, in order, as far as they know the order."""
    pile_unknown: Counts
    """The rest of the viewer's pile: shuffled, so its order is unknown to them too."""
    last: Mating | None
    """What the last mating did."""
    end: End | None
    winners: frozenset[PlayerId]

    @property
    def my_hand(self) -> Counts:
        """The viewer's hand, or no cards for a spectator."""
        return self.hand if self.hand is not None else NO_CARDS


__all__ = ["AuweierView", "FemaleView", "PlayerView", "StackView"]
