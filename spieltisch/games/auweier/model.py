"""Auweier: the vocabulary below the rules and the view (see docs/rules/auweier.md).

The stages, the rules an illegal move can break and the ways a game ends; the config with the
game's options, each declared once; the small records a view shows (egg cards, the last
mating); the scoring of egg cards; and what a Crow would eat in a stack. Pure: no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from spieltisch.core.fast import KeyEnum, value
from spieltisch.core.game import PlayerId, option
from spieltisch.core.words import N_
from spieltisch.games.auweier.notation import (
    CROW_FOOD,
    DECK_BOUNDS,
    DECK_SIZE,
    HAND_SIZE,
    Card,
    Colour,
    deck_of,
)

HAND_BOUNDS = (3, 10)
"""Hand sizes a designer may choose: room for the Wedding and False Worm Lucky Eggs shows and
a card more; at most ten of a deck of 22."""
WORM_BOUNDS = (0, 20)

Counts = tuple[int, ...]
"""Cards per kind, indexed by :class:`Card`."""
Stack = tuple[Card, ...]
"""One player's cards before one female, bottom first."""

EGGS_PER_FEMALE = 3
COLOUR_BONUS = (0, 0, 2, 5, 10)
"""Bonus by the number of different colours among a player's egg cards."""
MAX_SCORE = 4 * (1 + 2 + 3) + 3 + 10
"""All twelve eggs of a four-player game: 24 points, 3 of the own colour, 10 for four colours."""


class Rule(KeyEnum):
    """The rules an illegal move can break, in the words of the error message."""

    GAME_OVER = N_("the game is over")
    DECKS_FIRST = N_("the decks are being arranged; cards are played once every deck is ready")
    DECK_STEPS = N_("deck steps are made only while the decks are being arranged")
    DECK_CARDS = N_("a deck step places cards that the player has not placed yet")
    STARTER_FIRST = N_(
        "a ready order arranges the whole deck, so it comes before any card is placed"
    )
    SHUFFLE_SIZE = N_("a shuffle needs at least two cards still to be placed")
    SPREAD_MIX = N_("spreading needs Weddings and other cards still to be placed")
    CHANCE_NOW = N_("chance acts now: cards are being shuffled")
    PLAYER_NOW = N_("a player acts now; no cards are being shuffled")
    SHUFFLE_CARDS = N_("a shuffle puts exactly the cards still to be placed in some order")
    SPREAD_EVEN = N_("this shuffle spreads the Weddings evenly: one in each part of the pile")
    NO_FEMALE = N_("there is no female of that colour at this table")
    NO_PLAYER = N_("there is no player of that colour at this table")
    IN_HAND = N_("a card can only be played from the player's hand")
    NOT_A_WORM = N_(
        "only worm cards and the False Worm lie before a female as worms; "
        "Crows and Weddings have moves of their own"
    )
    CLOSED_NEST = N_("with closed_nests, a female whose eggs are all gone takes no more cards")
    OPENING = N_(
        "the opening Wedding goes only before a female where the player has a worm card "
        "and a higher worm total than every other player"
    )
    OPENING_TIES = N_(
        "the opening Wedding goes only before a female where the player has a worm card "
        "and no other player has a higher worm total (opening_ties)"
    )
    ONE_WEDDING = N_("a player places at most one Wedding before each female in a wedding phase")
    WEDDING_STAGE = N_("in the wedding stage a player places a Wedding or passes")
    WORM_STAGE = N_("the worm stage has begun: no more Weddings in this wedding phase")
    CROW_PHASE = N_("Crows cannot be played during a wedding phase (Lucky Eggs allows them)")
    CROW_OPPONENT = N_("a Crow eats an opponent's worm, never the player's own")
    CROW_NOTHING = N_("a Crow needs a worm to eat: that player has no card before that female")
    CROW_TOP = N_(
        "a Crow eats the top card of a stack, and only a real worm without a star "
        "(never the False Worm, a 2* or a 5*)"
    )
    CROW_DIG = N_(
        "a Crow eats the topmost real worm without a star in a stack (crow_digs), "
        "and there is none in this one"
    )
    SWAP_PLACE = N_("an exchange names a place in the player's own stack before that female")
    SWAP_PAIR = N_("an exchange swaps the player's False Worm with one of their real worms")
    FALSE_WORM_ONCE = N_("in a wedding phase a False Worm lies before each female only once")
    FALSE_WORM_ALWAYS = N_(
        "a False Worm lies before each female only once between two matings "
        "(false_worm_limit=always)"
    )
    PASS_PHASE = N_("passing is only possible in a wedding phase; a normal turn plays a card")


class Stage(KeyEnum):
    """Where in the game the state is."""

    ORDER = "order"
    """A player arranges their deck."""
    SHUFFLE = "shuffle"
    """Chance shuffles the cards a player has not placed yet."""
    SPREAD = "spread"
    """Chance shuffles them with their Weddings spread evenly."""
    PLAY = "play"
    """A normal turn."""
    WEDDINGS = "weddings"
    """The wedding stage of a wedding phase."""
    WORMS = "worms"
    """The worm stage of a wedding phase."""
    OVER = "over"


class End(KeyEnum):
    """Why the game ended."""

    LAST_EGG = "the last egg was won"
    NO_PLAY = "the player to move had no legal play"
    NOBODY_CAN_PLAY = "no player had a legal play"
    """With ``stuck_player=passes``: everyone still holding cards was stuck at once."""


STUCK_ENDS_GAME = "ends_game"
"""``stuck_player`` setting: a player due to play a normal turn with no legal play ends the
game (the strict reading, which lets a deck order end the game at will)."""
STUCK_PASSES = "passes"
"""``stuck_player`` setting (the default, ruling 9): a player due to play a normal turn whose
hand holds only cards with no legal use is passed over, drawing nothing; an empty hand with
nothing to draw still ends the game, and so does a table where nobody can play."""

EXCHANGE_TURN = "turn"
"""``exchange_cost`` setting (the default, ruling 7): a False Worm exchange is the whole turn
or go, and no card is drawn."""
EXCHANGE_DRAWS = "draws"
"""``exchange_cost`` setting: an exchange is the whole turn, and in normal play the player
then draws a card as after playing one."""

ORDER_OPENER = "opener"
"""``wedding_order`` setting (the default, ruling 5): the wedding stage starts at the
opener's left, the worm stage with the opener."""
ORDER_ONWARD = "onward"
"""``wedding_order`` setting: the worm stage goes on clockwise from the player who passed
last in the wedding stage (the first one after them with a Wedding down)."""

CROWS_WORM_STAGE = "worm_stage"
"""``lucky_crows`` setting (the default): in Lucky Eggs, a Crow is a go of the worm stage,
played only by players with a Wedding down."""
CROWS_BOTH_STAGES = "both_stages"
"""``lucky_crows`` setting: in Lucky Eggs, a Crow may also be a go of the wedding stage (a go
that is no pass), by any player still in it."""


FALSE_WORM_PHASE = "wedding_phase"
"""``false_worm_limit`` setting (the default, ruling 7): a False Worm lies before each female
only once within one wedding phase; in normal play it may come back as often as it is
exchanged."""
FALSE_WORM_ALWAYS = "always"
"""``false_worm_limit`` setting: the limit also holds in normal play, where the count runs
from the deal or the last mating to the next opening (its place then counting), so a game
cannot go on for ever by exchanges alone."""


SETUP_STAGES = (Stage.ORDER, Stage.SHUFFLE, Stage.SPREAD)
"""The stages in which the decks are set up."""


@value
class Config:
    """The player count and options a state was made with (each option declared once here)."""

    players: int
    lucky_eggs: bool = option(
        False, "Lucky Eggs variant: shuffled decks, and Crows may eat during wedding phases"
    )
    closed_nests: bool = option(False, "a female whose three eggs are all gone takes no more cards")
    stuck_player: str = option(
        STUCK_PASSES,
        "a player due to play a normal turn with no legal play: passes passes them over "
        "(an empty hand still ends the game, and so does a table where nobody can play); "
        "ends_game ends the game at once",
        choices=(STUCK_ENDS_GAME, STUCK_PASSES),
    )
    """What happens when the player due to play a normal turn has no legal play."""
    opening_ties: bool = option(
        False,
        "an opening Wedding may also go where the player ties for the highest worm "
        "total (default: the total must be higher than everyone else's)",
    )
    """An opening Wedding may also go where the player ties for the highest worm total."""
    crow_digs: bool = option(
        False,
        "a Crow eats the topmost real worm without a star in a stack, under a False "
        "Worm or a starred worm too (default: such a stack is safe)",
    )
    """A Crow eats the topmost real worm without a star in a stack, whatever lies on top."""
    exchange_cost: str = option(
        EXCHANGE_TURN,
        "what a False Worm exchange costs: turn (the whole turn or go, no card drawn) or "
        "draws (the whole turn, and in normal play a card is drawn as after playing one)",
        choices=(EXCHANGE_TURN, EXCHANGE_DRAWS),
    )
    """What a False Worm exchange costs (ruling 7)."""
    wedding_order: str = option(
        ORDER_OPENER,
        "who starts the worm stage of a wedding phase: opener (the opener), or onward "
        "(the next player clockwise with a Wedding after the last to pass)",
        choices=(ORDER_OPENER, ORDER_ONWARD),
    )
    """Who starts the worm stage of a wedding phase (ruling 5)."""
    neutral_colour: bool = option(
        True,
        "with two players, the neutral female's eggs count as a colour for the colour "
        "bonus (false: they count for their eggs only)",
    )
    """With two players, the neutral female's eggs count as a colour for the bonus (ruling 3)."""
    lucky_crows: str = option(
        CROWS_WORM_STAGE,
        "in Lucky Eggs, when Crows may eat in a wedding phase: worm_stage (a go of the worm "
        "stage, by players with a Wedding down) or both_stages (also a go of the wedding "
        "stage, by anyone still in it)",
        choices=(CROWS_WORM_STAGE, CROWS_BOTH_STAGES),
    )
    """In Lucky Eggs, in which stages of a wedding phase Crows may eat."""
    false_worm_limit: str = option(
        FALSE_WORM_PHASE,
        "where a False Worm lies before each female only once: wedding_phase (within one "
        "wedding phase) or always (in normal play too, counted from one mating to the next "
        "opening, so exchanges cannot go on for ever)",
        choices=(FALSE_WORM_PHASE, FALSE_WORM_ALWAYS),
    )
    """Whether the once-per-female limit on the False Worm also holds in normal play."""
    hand_size: int = option(
        HAND_SIZE,
        "cards in hand at the start and after each wedding phase's refill (a rule parameter)",
        bounds=HAND_BOUNDS,
    )
    """Cards in a full hand (six by the rulebook)."""
    deck_cards: int = option(
        DECK_SIZE,
        "cards in each player's deck: a smaller deck under the same rules, keeping a Wedding, "
        "a worm and a Crow (a rule parameter)",
        bounds=DECK_BOUNDS,
    )
    """Cards in each deck (22 by the rulebook; :func:`~spieltisch.games.auweier.notation.deck_of`
    says which)."""
    worm_value_1: int = option(
        1, "what a worm printed 1 counts (a rule parameter)", bounds=WORM_BOUNDS
    )
    worm_value_2: int = option(
        2, "what a worm printed 2 or 2* counts (a rule parameter)", bounds=WORM_BOUNDS
    )
    worm_value_3: int = option(
        3, "what a worm printed 3 counts (a rule parameter)", bounds=WORM_BOUNDS
    )
    worm_value_4: int = option(
        4, "what a worm printed 4 counts (a rule parameter)", bounds=WORM_BOUNDS
    )
    worm_value_5: int = option(
        5, "what the worm printed 5* counts (a rule parameter)", bounds=WORM_BOUNDS
    )
    worm_value_6: int = option(
        6, "what the worm printed 6 counts (a rule parameter)", bounds=WORM_BOUNDS
    )
    worm_value_7: int = option(
        7, "what the worm printed 7 counts (a rule parameter)", bounds=WORM_BOUNDS
    )

    @property
    def worm_values(self) -> tuple[int, ...]:
        """What each card adds to a worm total, by card (:data:`WORM_VALUE` with the rulebook's
        numbers; the False Worm, Crows and Weddings always 0)."""
        return _worm_values(self)

    @property
    def deck(self) -> tuple[int, ...]:
        """How many cards of each kind one deck holds (``DECK`` with the rulebook's 22)."""
        return deck_of(self.deck_cards)

    @property
    def lucky_start(self) -> tuple[Card, ...]:
        """The cards every hand starts with in Lucky Eggs: a Wedding and the False Worm (only
        the Wedding from a deck without the False Worm, ``deck_cards=3``)."""
        return (Card.WEDDING, Card.FALSE_WORM) if self.deck[Card.FALSE_WORM] else (Card.WEDDING,)

    @property
    def females(self) -> int:
        """Females on the table: one per player, and a neutral third one with two players."""
        return max(self.players, 3)


@functools.cache
def _worm_values(config: Config) -> tuple[int, ...]:
    by_number = (
        config.worm_value_1,
        config.worm_value_2,
        config.worm_value_3,
        config.worm_value_4,
        config.worm_value_5,
        config.worm_value_6,
        config.worm_value_7,
    )
    printed = (1, 2, 2, 3, 4, 5, 6, 7)
    return (*(by_number[n - 1] for n in printed), 0, 0, 0)


@value
class Egg:
    """An egg card a player won."""

    female: Colour
    eggs: int
    """1, 2 or 3: the female's first, second or third egg."""


@value
class Award:
    """An egg won at mating."""

    player: PlayerId
    female: Colour
    eggs: int


@value
class Mating:
    """What the last mating did."""

    opener: PlayerId
    awards: tuple[Award, ...]
    cleared: tuple[tuple[Colour, PlayerId], ...]
    """``(female, player)``: stacks discarded with their Weddings, in female and seat order."""


def score_eggs(player: PlayerId, eggs: Sequence[Egg], uncounted: int = -1) -> int:
    """Points for ``eggs``: their eggs, +1 per card of the own colour, one colour-count bonus
    (a female whose colour is ``uncounted`` adds no colour to it: see
    :func:`uncounted_colour`)."""
    if not eggs:
        return 0
    base = sum(egg.eggs for egg in eggs)
    own = sum(1 for egg in eggs if egg.female == player)
    colours = {egg.female for egg in eggs if egg.female != uncounted}
    return base + own + COLOUR_BONUS[len(colours)]


def uncounted_colour(config: Config) -> int:
    """The colour whose eggs add no colour to the bonus: the neutral female's with
    ``neutral_colour=false`` and two players; ``-1`` (none) otherwise."""
    return config.players if config.players < config.females and not config.neutral_colour else -1


def crow_prey(stack: Sequence[Card], digs: bool) -> int | None:
    """The index in ``stack`` (bottom first) of the card a Crow would eat there: the top card
    if it is a real worm without a star, or with ``digs`` (the ``crow_digs`` option) the
    topmost such worm anywhere in the stack; ``None`` if the stack cannot be attacked."""
    if not digs:
        return len(stack) - 1 if stack and CROW_FOOD[stack[-1]] else None
    for index in range(len(stack) - 1, -1, -1):
        if CROW_FOOD[stack[index]]:
            return index
    return None
