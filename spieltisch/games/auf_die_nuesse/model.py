"""Auf die Nüsse!: the vocabulary below both the rules and the view.

The rules' enums (the rules a move can break, the stages of a game, how far the end has come,
the things the engine does by itself), the config with its options, a nut store, the board's
fixed numbers (squirrels, store sizes and values, what each space needs and offers) and the
small counts read from them (points, the deck, the chance that a roll fails). Pure: no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

from spieltisch.core.fast import HashOnce, KeyEnum, hash_once, value
from spieltisch.core.game import PlayerId, option
from spieltisch.core.words import N_
from spieltisch.games.auf_die_nuesse.notation import (
    DICE,
    JOKERS,
    NUTS,
    TRACK_SPACE,
    TWO_AREA,
    Card,
    Nut,
    Slot,
    Space,
)

SQUIRRELS = 15
"""Squirrels per player."""
SET_ASIDE = 8
"""Nuts put aside face down at the start, the draw pile once the real one is used up."""
STORE_SIZES = (2, 2, 3, 3, 4, 4, 5, 6)
STORE_VALUES = (5, 5, 10, 10, 15, 15, 20, 30)
"""The full values of the default store table (ruling 5), in :data:`STORE_SIZES` order."""
STANDARD_STORES = "standard"
"""``store_table``: the stores of ruling 5, the 5-nut store worth 20."""
FIVE_AT_25 = "five_25"
"""``store_table``: the same stores, the 5-nut store worth 25 (the other value a multiple of 5
strictly between the 4-nut store's 15 and the 6-nut store's 30)."""
STORE_TABLES: dict[str, tuple[int, ...]] = {
    STANDARD_STORES: STORE_VALUES,
    FIVE_AT_25: (5, 5, 10, 10, 15, 15, 25, 30),
}
"""The full values of each store table, by ``store_table`` name (the sizes are the same)."""
MAX_SCORE = max(map(sum, STORE_TABLES.values()))
"""The most a player can score: every store full, in the richest table."""
SUPPLY_STOPS = "stops"
"""``empty_supply``: a player who places their last squirrel ends the turn as if stopping."""
SUPPLY_FAILS = "fails"
"""``empty_supply``: a player who places their last squirrel has failed, as on a roll that
finds no free space: the start track goes back to the supply."""
JOKERS_PER_PAIR = 2
"""Jokers showing each pair of nuts, by the rulebook (the ``jokers_per_pair`` parameter's
default): six pairs, twelve jokers."""
NUTS_PER_KIND = 12
"""Plain nuts of each kind at four players, by the rulebook (``nuts_per_kind``'s default)."""
STORE_VALUE_BOUNDS = (1, 60)
NUTS_BOUNDS = (6, 20)
"""At least six a kind, so two players (two fewer of each) still fill the market and the eight
set-aside cards."""
JOKER_BOUNDS = (0, 4)
NEED = (2, 2, 2, 2, 2, 3, 3, 3, 4)
"""Squirrels of one player a space needs before it pays out, per space."""
ABOVE: tuple[Space | None, ...] = (
    Space.LEFT_3,
    Space.LEFT_3,
    Space.RACCOON_3,
    Space.RIGHT_3,
    Space.RIGHT_3,
    Space.AREA_4,
    Space.AREA_4,
    Space.AREA_4,
    None,
)
"""Where other players' squirrels are pushed when a space pays out."""
ALL_SLOTS = tuple(Slot)
OFFER: tuple[tuple[Slot, ...], ...] = (
    (Slot.TWO_FOUR,),
    (Slot.FIVE_SIX,),
    ALL_SLOTS,
    (Slot.EIGHT_NINE,),
    (Slot.TEN_TWELVE,),
    (Slot.TWO_FOUR, Slot.FIVE_SIX),
    ALL_SLOTS,
    (Slot.EIGHT_NINE, Slot.TEN_TWELVE),
    ALL_SLOTS,
)
"""The face-up nuts each space offers."""
RACCOONS = frozenset({Space.RACCOON_2, Space.RACCOON_3})
SETUP_SPACES = tuple(s for s in TWO_AREA if s is not Space.RACCOON_2)
ACTIVE_FIRST = "active_first"
"""``collect_order``: the player whose turn it is collects first, then the others clockwise."""
NEXT_FIRST = "next_first"
"""``collect_order``: the next player clockwise collects first, the player whose turn it is last."""
COLLECT_ORDERS = (ACTIVE_FIRST, NEXT_FIRST)


class Rule(KeyEnum):
    """The rules an illegal move can break, in the words of the error message."""

    GAME_OVER = N_("the game is over")
    CHANCE_ACTS = N_("chance acts now: the dice are rolled or a nut card is drawn")
    PLAYER_ACTS = N_("a player decides now; no dice are rolled and no card is drawn")
    OTHER_DECISION = N_("that move does not answer the decision at hand")
    DIE_FACES = N_("each die shows a number from 1 to 6")
    UNSEEN_ONLY = N_("only a card nobody has seen yet can be drawn")
    GREEN_PLUS_WHITE = N_("a squirrel goes on the green die plus one of the white dice")
    ONE_PER_TRACK_SPACE = N_("a start-track space holds at most one squirrel")
    NO_SUPPLY = N_("a player with no squirrel left in supply cannot roll again")
    RACCOON_MUST = N_(
        "with raccoon_optional off, the raccoon's nut and its theft are taken whenever "
        "there is one to take"
    )
    SETUP_TWO_AREA = N_("squirrels placed before the first turn go on the 2-area")
    SETUP_NOT_RACCOON = N_("no squirrel may be placed on the raccoon space before the first turn")
    SETUP_ONE_PER_SPACE = N_("before the first turn no player puts two squirrels on one space")
    SETUP_ALL = N_("with optional_setup off, every squirrel due before the first turn is placed")
    TAKE_OFFERED = N_("only the nuts lying under this space can be taken")
    TAKE_THERE = N_("there is no nut lying in that place")
    PASS_RACCOON = N_("only what a raccoon space offers may be refused")
    ONE_KIND = N_("a nut store holds nuts of one kind only")
    STORE_FULL = N_("a full nut store is turned over and takes no more nuts")
    CARD_KIND = N_("a nut counts as its own kind, a joker as one of the two kinds it shows")
    KEEP_JOKERS = N_("only jokers may be kept; every other nut is stored at once")
    KEEP_AT_END = N_("at the end of the game every kept joker must be stored")
    STEAL_OTHERS = N_("the raccoon steals from another player")
    STEAL_DAVID = N_("nothing may be stolen from the player who has David the raccoon")
    STEAL_FULL = N_("nothing may be stolen from a full nut store")
    STEAL_JOKERS = N_("jokers may never be stolen")
    STEAL_EMPTY = N_("an empty nut store has nothing to steal")
    LAY_HELD = N_("only a joker the player keeps can be laid")
    LAY_LATE_OFF = N_("with late_jokers off, kept jokers wait until the end of the game")
    NO_SUCH_STORE = N_("every player has eight nut stores, S1 to S8")
    NO_SUCH_PLAYER = N_("there is no such player at the table")


class Stage(KeyEnum):
    """Where in the game the state is, and so who acts and how."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    FACE_UP = "face up"
    """Chance: a nut is laid face up at the start (into ``step.refill``)."""
    DEAL = "deal"
    """Chance: ``step.actor`` is dealt a nut at the start."""
    SETUP = "setup"
    """``step.actor`` puts a squirrel on the 2-area before the first turn."""
    ROLL = "roll"
    """Chance: the three dice."""
    PLACE = "place"
    """The player picks which white die goes with the green one."""
    AGAIN = "again"
    """The player rolls again or stops (or lays a kept joker)."""
    TAKE = "take"
    """``step.actor`` picks a face-up nut the space offers (on a raccoon space: or passes)."""
    PUT = "put"
    """``step.actor`` stores ``step.pending`` (a joker may be kept instead)."""
    REFILL = "refill"
    """Chance: a nut is drawn into the empty place ``step.refill``."""
    STEAL = "steal"
    """``step.actor``, on a raccoon space, steals a nut or passes."""
    OVER = "over"


class Ending(KeyEnum):
    """How far the end of the game has come."""

    NOT_YET = "not yet"
    TRIGGERED = "triggered"
    """The pile ran out; the set-aside nuts are the pile; the checks in progress finish."""
    FINAL = "final"
    """Every squirrel is in the 4-area; each four buys one face-up nut."""


class EventKind(KeyEnum):
    """Things the engine did by itself, because the rules left no choice."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    FAILED = "failed"
    """The roll fit no free space: ``number`` squirrels go back from the start track."""
    PLACED = "placed"
    """Only one space was free: the squirrel went on start-track space ``number``."""
    OUT_OF_SQUIRRELS = "out of squirrels"
    """The supply is empty, so the turn ends."""
    MOVED_UP = "moved up"
    """The turn ended: ``number`` squirrels moved from the start track into the 2-area."""
    COLLECTED = "collected"
    """``number`` squirrels went back to supply from ``space``, which pays out."""
    PUSHED = "pushed"
    """``number`` squirrels were pushed from ``space`` into the space above."""
    TOOK = "took"
    """The only nut on offer, ``card`` from ``slot``, was taken."""
    NO_NUT = "no nut"
    """The space paid out but no nut was left to take: the claim is lost."""
    STORED = "stored"
    """Only one store fit: ``card`` went into store ``store``."""
    KEPT = "kept"
    """No store fit the joker ``card``, so it is kept."""
    BOXED = "boxed"
    """``card`` fit no store and went back to the box."""
    FILLED = "filled"
    """Store ``store`` is full: turned over, its nuts leave the game."""
    LAST_CARD = "last card"
    """The draw pile is used up: the set-aside nuts are the pile now, and the end has come."""
    ALL_UP = "all up"
    """Every squirrel on the board moved into the 4-area."""


@value
class Event:
    """One thing the engine did by itself during the last move."""

    kind: EventKind
    player: PlayerId
    space: Space | None = None
    number: int | None = None
    """How many squirrels, or the start-track space (``None`` for the kinds without one)."""
    card: Card | None = None
    store: int | None = None
    slot: Slot | None = None


@value
class Config:
    """The player count and options a state was made with."""

    players: int
    late_jokers: bool = option(
        True, "a kept joker may be laid at your roll-or-stop choice, not only at the end"
    )
    collect_order: str = option(
        ACTIVE_FIRST,
        "who collects first when several players can on one space, and at the end: "
        "active_first is the player whose turn it is, then clockwise; next_first is the "
        "next player clockwise, the player whose turn it is last",
        choices=COLLECT_ORDERS,
    )
    """Who collects first when several players can on one space, and at the end (rulings 3, 8)."""
    double_collect_upper: bool = option(
        True,
        "twice the squirrels needed collect twice in the 3- and 4-area as in the "
        "2-area (false: once per check there; the surplus waits for the next check)",
    )
    """Twice the squirrels needed collect twice in the 3- and 4-area too (ruling 3)."""
    optional_setup: bool = option(
        False,
        "the players who place squirrels before the first turn may stop placing them "
        "('pass'); default: all of them are placed",
    )
    """Each player due to place squirrels before the first turn may stop placing them."""
    store_table: str = option(
        STANDARD_STORES,
        "the nut stores' full values (sizes 2 2 3 3 4 4 5 6 in both): standard is "
        "5 5 10 10 15 15 20 30; five_25 makes the 5-nut store worth 25",
        choices=tuple(STORE_TABLES),
    )
    """The stores' full values (ruling 5): the 5-nut store's value is the least certain."""
    raccoon_optional: bool = option(
        True,
        "a raccoon space's nut and its theft may each be refused ('pass'); false: both "
        "are taken whenever there is one",
    )
    """A raccoon space's nut and theft may each be refused (ruling 6)."""
    empty_supply: str = option(
        SUPPLY_STOPS,
        "a player who places their last squirrel: stops (the turn ends as if they had "
        "stopped) or fails (as on a roll with no free space: the start track goes back)",
        choices=(SUPPLY_STOPS, SUPPLY_FAILS),
    )
    """What placing the last squirrel of the supply does (ruling 7)."""
    store_value_2: int = option(
        5, "full value of a 2-nut store (a rule parameter)", bounds=STORE_VALUE_BOUNDS
    )
    store_value_3: int = option(
        10, "full value of a 3-nut store (a rule parameter)", bounds=STORE_VALUE_BOUNDS
    )
    store_value_4: int = option(
        15, "full value of a 4-nut store (a rule parameter)", bounds=STORE_VALUE_BOUNDS
    )
    store_value_5: int = option(
        20,
        "full value of the 5-nut store (a rule parameter; another value than 20 overrides "
        "store_table)",
        bounds=STORE_VALUE_BOUNDS,
    )
    store_value_6: int = option(
        30, "full value of the 6-nut store (a rule parameter)", bounds=STORE_VALUE_BOUNDS
    )
    nuts_per_kind: int = option(
        NUTS_PER_KIND,
        "plain nuts of each kind at four players, one fewer per missing player (a rule parameter)",
        bounds=NUTS_BOUNDS,
    )
    jokers_per_pair: int = option(
        JOKERS_PER_PAIR,
        "jokers showing each of the six pairs of nuts (a rule parameter)",
        bounds=JOKER_BOUNDS,
    )

    @property
    def store_values(self) -> tuple[int, ...]:
        """The full value of each store, in :data:`STORE_SIZES` order: the store table's, where
        a store value parameter left at its default does not override it."""
        return _store_values(self)


@hash_once
@value
class Store(HashOnce):
    """One nut store: its kind and fill, or turned over once full (part of every board's
    hash, so its own is worked out once)."""

    kind: Nut | None
    """The kind of nut lying in it (for a full store, the kind it was filled with)."""
    nuts: int
    """Real nuts lying in it (they can be stolen)."""
    jokers: int
    """Jokers lying in it, each counting as ``kind`` (never stolen)."""
    full: bool

    @property
    def fill(self) -> int:
        """Nuts of any sort lying in the store."""
        return self.nuts + self.jokers

    def fits(self, kind: Nut) -> bool:
        """Whether a nut counting as ``kind`` may go in."""
        return not self.full and (self.kind is None or self.kind is kind)


EMPTY_STORE = Store(None, 0, 0, False)


def points(stores: Sequence[Store], values: Sequence[int] = STORE_VALUES) -> int:
    """A player's score: a full store its value (from ``values``, the store table), a partly
    filled store one point per nut."""
    total = 0
    for worth, store in zip(values, stores, strict=True):  # a loop: views count every score
        total += worth if store.full else store.nuts + store.jokers
    return total


def best_full_store(stores: Sequence[Store], values: Sequence[int] = STORE_VALUES) -> int:
    """The value of the most valuable full store (0 without one): the tie-break."""
    return max((values[i] for i, store in enumerate(stores) if store.full), default=0)


def deck(
    players: int, nuts_per_kind: int = NUTS_PER_KIND, jokers_per_pair: int = JOKERS_PER_PAIR
) -> tuple[int, ...]:
    """The nut cards in play, per card: one plain nut of each kind fewer per player missing
    from four, and the jokers of every pair."""
    plain = nuts_per_kind - (4 - players)
    return (plain,) * len(NUTS) + (jokers_per_pair,) * len(JOKERS)


def config_deck(config: Config) -> tuple[int, ...]:
    """The nut cards a game with ``config`` plays with."""
    return deck(config.players, config.nuts_per_kind, config.jokers_per_pair)


STANDARD_VALUE_BY_SIZE = {2: 5, 3: 10, 4: 15, 5: 20, 6: 30}
"""Each store size's value in the standard table (the store value parameters' defaults)."""


@functools.cache
def _store_values(config: Config) -> tuple[int, ...]:
    chosen = {
        2: config.store_value_2,
        3: config.store_value_3,
        4: config.store_value_4,
        5: config.store_value_5,
        6: config.store_value_6,
    }
    table = STORE_TABLES[config.store_table]
    return tuple(
        chosen[size] if chosen[size] != STANDARD_VALUE_BY_SIZE[size] else value
        for size, value in zip(STORE_SIZES, table, strict=True)
    )


def max_points(config: Config) -> int:
    """The most a player can score with ``config``: each store full, or one nut short of
    full where a store is worth less than that."""
    return sum(
        max(value, size - 1) for size, value in zip(STORE_SIZES, config.store_values, strict=True)
    )


@functools.cache
def fail_chance(track: int) -> Fraction:
    """The chance that a roll fits no free space of a start track (bit ``n``: space ``n``)."""
    fails = sum(1 for d in DICE if all(track >> s & 1 for s in d.sums))
    return Fraction(fails, len(DICE))


@functools.cache
def move_up(track: int) -> tuple[int, ...]:
    """How many squirrels of start track ``track`` (bit ``n``: space ``n``) reach each 2-area
    space, in the order of ``TWO_AREA`` (cached: there are 2^11 tracks)."""
    counts = [0] * len(TWO_AREA)
    for n, space in TRACK_SPACE.items():
        if track >> n & 1:
            counts[space] += 1
    return tuple(counts)
