"""Auf die Nüsse!: the state and its transitions (see docs/rules/auf-die-nuesse.md).

Setup: four nuts are drawn face up, each player is dealt one nut and stores it (or keeps a
joker), then the players after the starter put one, two and three squirrels on the 2-area. A
turn: chance rolls the three dice; the player puts a squirrel on green + one white die, then
rolls again or stops. A roll that fits no free space sends the start track home. Stopping moves
the start track up into the 2-area, and the collection checks run over the nine spaces in order
(2-area, 3-area, 4-area, each left to right). Every nut received is stored at once, then the
place it was taken from is refilled. When a refill empties the pile, the eight set-aside nuts
become the pile; after the checks in progress, every squirrel moves to the 4-area, each four of
a player's squirrels buys one face-up nut, kept jokers are stored, and the game is scored.

Nut cards are drawn lazily from the multiset of cards nobody has seen (pile and set-aside nuts
together): by symmetry this is the distribution of a shuffled pile, so no hidden order sits in
the state and nothing in it is secret. Where only one choice exists (one free space, one store
that fits, one nut offered) the engine makes it and says so in ``events``. A state builds
the view a player sees (:class:`~.view.NuesseView`): here, all of it. Pure: no I/O.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import NoReturn, TypeVar

from spieltisch.core.chance import sample_draw
from spieltisch.core.fast import HashOnce, KeyEnum, LegalCache, hash_once, value
from spieltisch.core.game import (
    ActionTable,
    Game,
    GameInfo,
    NodeKind,
    OptionValue,
    PlayerId,
    illegal,
    not_a_move,
    options_of,
)
from spieltisch.core.game import Move as AnyMove
from spieltisch.core.words import N_
from spieltisch.games.auf_die_nuesse.model import (
    ABOVE,
    EMPTY_STORE,
    MAX_SCORE,
    NEED,
    NEXT_FIRST,
    OFFER,
    RACCOONS,
    SET_ASIDE,
    SETUP_SPACES,
    SQUIRRELS,
    STORE_SIZES,
    SUPPLY_FAILS,
    Config,
    Ending,
    Event,
    EventKind,
    Rule,
    Stage,
    Store,
    best_full_store,
    config_deck,
    max_points,
    move_up,
    points,
)
from spieltisch.games.auf_die_nuesse.notation import (
    ACTION_TYPES,
    CARD_INDEX,
    CARD_KINDS,
    DICE,
    DRAWS,
    JOKERS,
    KEEP,
    NUTS,
    PASS,
    PLACES,
    PLAIN,
    ROLL_AGAIN,
    STOP,
    STORES,
    TWO_AREA,
    Action,
    Card,
    Dice,
    Draw,
    Keep,
    Lay,
    Move,
    Nut,
    Pass,
    Place,
    Put,
    RollAgain,
    Setup,
    Slot,
    Space,
    Steal,
    Stop,
    Take,
    action_table,
    parse_move,
    parse_store,
)
from spieltisch.games.auf_die_nuesse.view import NuesseView

T = TypeVar("T")

DICE_CHANCE = Fraction(1, len(DICE))


class Context(KeyEnum):
    """What a stored nut belongs to, and so what follows once it is stored."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast

    SETUP = "setup"
    CHECKS = "checks"
    JOKERS = "jokers"


@hash_once
@value
class Market(HashOnce):
    """The nut cards: the face-up row, what is unseen, and the piles (a search key: its hash
    is worked out once)."""

    face_up: tuple[Card | None, ...]
    """The nuts under 2-4, 5-6, 8-9 and 10-12 (``None``: that place is empty)."""
    unseen: tuple[int, ...]
    """Cards nobody has seen, per card in :data:`CARDS` order: draw pile and set-aside."""
    pile: int
    """Cards in the draw pile."""
    set_aside: int
    """Set-aside cards not yet turned into the draw pile."""
    ending: Ending


@hash_once
@value
class Board(HashOnce):
    """Everything on the table that outlasts a turn (a search key: its hash is worked out
    once)."""

    config: Config
    areas: tuple[tuple[int, ...], ...]
    """Squirrels per space (in :class:`Space` order), per player."""
    supply: tuple[int, ...]
    """Squirrels in each player's supply (those on the start track still counted)."""
    market: Market
    stores: tuple[tuple[Store, ...], ...]
    """Each player's eight stores, in :data:`STORE_SIZES` order."""
    jokers: tuple[tuple[Card, ...], ...]
    """Jokers each player keeps in hand, in card order."""
    david: PlayerId | None
    """The player David the raccoon sits with (robbed last), if any."""

    def with_squirrels(self, areas: tuple[tuple[int, ...], ...], supply: tuple[int, ...]) -> Board:
        """This board with other squirrel counts."""
        return Board(self.config, areas, supply, self.market, self.stores, self.jokers, self.david)

    def with_market(self, market: Market) -> Board:
        """This board with another market."""
        return Board(
            self.config, self.areas, self.supply, market, self.stores, self.jokers, self.david
        )

    def with_holdings(
        self,
        stores: tuple[tuple[Store, ...], ...],
        jokers: tuple[tuple[Card, ...], ...],
        david: PlayerId | None,
    ) -> Board:
        """This board with other stores, kept jokers or raccoon."""
        return Board(self.config, self.areas, self.supply, self.market, stores, jokers, david)


@value
class Step:
    """Where a nut-handling sequence stands (setup deal, collection, final jokers)."""

    context: Context
    actor: PlayerId
    """Who is dealt, collects, stores or steals."""
    space: Space | None = None
    """The space being checked (collections only)."""
    pending: Card | None = None
    """The nut in hand, to be stored."""
    refill: Slot | None = None
    """The face-up place to refill once the nut in hand is stored."""
    theft: bool = False
    """A raccoon theft is still to be offered."""


_event = functools.cache(Event)
"""Events and steps are small values from a small domain: intern them instead of rebuilding."""
_step = functools.cache(Step)


@functools.cache
def seat_order(players: int, first: PlayerId) -> tuple[PlayerId, ...]:
    """Every seat clockwise, starting at ``first``."""
    return tuple((first + k) % players for k in range(players))


def _at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _put_options(stores: tuple[Store, ...], card: Card, keep: bool) -> tuple[Action, ...]:
    """Where ``card`` may be stored, in id order; ``keep`` first if it may be kept."""
    kinds = CARD_KINDS[card]
    if len(kinds) == 1:
        kind = kinds[0]
        return tuple(
            [
                put
                for store, put in zip(stores, _PUT_ROWS[kind], strict=True)
                if not store.full and (store.kind is None or store.kind is kind)
            ]
        )
    options: list[Action] = [KEEP] if keep else []
    for index, store in enumerate(stores):
        if store.full:
            continue
        if store.kind is None:
            options.extend(_PUTS[index][kind] for kind in kinds)
        elif store.kind in kinds:
            options.append(_PUTS[index][store.kind])
    return tuple(options)


def _thefts(board: Board, thief: PlayerId) -> list[Steal]:
    """Every nut the raccoon may steal for ``thief``."""
    options = []
    for victim, stores in enumerate(board.stores):
        if victim not in (thief, board.david):
            options += [_STEALS[victim][i] for i, store in enumerate(stores) if store.nuts]
    return options


def _lays(board: Board, player: PlayerId) -> list[Lay]:
    """Every way ``player`` may lay one of their kept jokers now."""
    held = board.jokers[player]
    if not held or not board.config.late_jokers:
        return []
    stores = board.stores[player]
    return [
        _LAYS[joker][kind][index]
        for joker in sorted(set(held), key=CARD_INDEX.__getitem__)
        for kind in joker.kinds
        for index, store in enumerate(stores)
        if store.fits(kind)
    ]


_PUTS = tuple({kind: Put(kind, i) for kind in NUTS} for i in range(STORES))
_PUT_ROWS = {kind: tuple(_PUTS[i][kind] for i in range(STORES)) for kind in NUTS}
_AREAS = ((0, 5, 2), (5, 8, 3), (8, 9, 4))
"""Each area as (first space, space after the last, squirrels needed)."""
_STEALS = tuple(tuple(Steal(p, i) for i in range(STORES)) for p in range(4))
_LAYS = {j: {k: tuple(Lay(j, k, i) for i in range(STORES)) for k in j.kinds} for j in JOKERS}
_ROLL_OR_STOP = (ROLL_AGAIN, STOP)
_STOP_ONLY = (STOP,)
_DICE_INDEX = {dice: index for index, dice in enumerate(DICE)}
_ACTION_TYPES = frozenset(ACTION_TYPES)


@value
class NuesseState(LegalCache):
    """A position of Auf die Nüsse!: the board, the turn in progress, and any pending step.

    Build it with :meth:`AufDieNuesse.initial_state`; the transitions build states by calling
    the class (a :func:`~spieltisch.core.fast.value`), and the legal actions are worked out
    once per state.
    """

    board: Board
    stage: Stage
    player: PlayerId
    """Whose turn it is (the starter during setup)."""
    track: int
    """The start track: bit ``n`` set when space ``n`` holds one of the player's squirrels."""
    dice: Dice | None
    """The last roll (kept for display until the next one)."""
    step: Step | None
    """The setup, collection or end-game step in progress (``None`` while rolling)."""
    events: tuple[Event, ...] = ()
    """What the engine did by itself during the last move."""

    @property
    def game(self) -> AufDieNuesse:
        return AufDieNuesse.of(self.board.config)

    @property
    def config(self) -> Config:
        """Player count and options."""
        return self.board.config

    @property
    def node(self) -> NodeKind:
        return _NODES[self.stage]

    def is_terminal(self) -> bool:
        return self.stage is Stage.OVER

    def is_chance(self) -> bool:
        return _NODES[self.stage] is NodeKind.CHANCE

    def current_player(self) -> PlayerId | None:
        stage = self.stage
        if stage is Stage.PLACE or stage is Stage.AGAIN:
            return self.player
        step = self.step
        if step is not None and _NODES[stage] is NodeKind.DECISION:
            return step.actor
        return None

    @property
    def available(self) -> int:
        """Squirrels the player whose turn it is still has in supply to place."""
        return self.board.supply[self.player] - self.track.bit_count()

    # --- What may happen ------------------------------------------------------------------

    def work_out_legal(self) -> tuple[Action, ...]:
        return _legal_actions(self)

    def _legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, worked out (:meth:`legal_actions` keeps them)."""
        stage = self.stage
        if stage is Stage.PLACE:
            return self.placements()
        if stage is Stage.AGAIN:
            basic = _ROLL_OR_STOP if self.available > 0 else _STOP_ONLY
            if not self.board.jokers[self.player]:
                return basic
            return (*basic, *_lays(self.board, self.player))
        step = self.step
        if step is None:
            return ()
        if stage is Stage.PUT:
            assert step.pending is not None
            keep = step.context is not Context.JOKERS
            return _put_options(self.board.stores[step.actor], step.pending, keep)
        if stage is Stage.TAKE:
            return self._takes(step)
        if stage is Stage.STEAL:
            thefts = _thefts(self.board, step.actor)
            return (PASS, *thefts) if self.board.config.raccoon_optional else tuple(thefts)
        if stage is Stage.SETUP:
            areas = self.board.areas
            setups = tuple(_SETUPS[s] for s in SETUP_SPACES if not areas[s][step.actor])
            return (PASS, *setups) if self.board.config.optional_setup else setups
        return ()

    def placements(self) -> tuple[Place, ...]:
        """The free start-track spaces the last roll allows (the choices while placing)."""
        dice = self.dice
        if dice is None:
            return ()
        track, green = self.track, dice.green
        first, second = green + dice.white1, green + dice.white2
        if track >> first & 1 or track >> second & 1:
            return tuple(PLACES[n] for n in sorted({first, second}) if not track >> n & 1)
        return _PAIRS[first][second]

    def _takes(self, step: Step) -> tuple[Take | Pass, ...]:
        assert step.space is not None
        face_up = self.board.market.face_up
        takes = tuple(_TAKES[s] for s in OFFER[step.space] if face_up[s] is not None)
        if step.space in RACCOONS and self.board.config.raccoon_optional:
            return (PASS, *takes)
        return takes

    def chance_outcomes(self) -> Sequence[tuple[Dice | Draw, Fraction]]:
        stage = self.stage
        if stage is Stage.ROLL:
            return _roll_outcomes()
        if stage in _DRAW_STAGES:
            unseen = self.board.market.unseen
            total = sum(unseen)
            return [(DRAWS[i], Fraction(n, total)) for i, n in enumerate(unseen) if n]
        return ()

    def sample_chance(self, rng: random.Random) -> Dice | Draw:
        stage = self.stage
        if stage is Stage.ROLL:
            # What randrange(216) does (one byte per try, kept when below 216: exactly
            # uniform, the same draws), without the cost of its Python-level wrapper.
            pick = rng.getrandbits(8)
            while pick >= len(DICE):
                pick = rng.getrandbits(8)
            return DICE[pick]
        if stage in _DRAW_STAGES:
            return DRAWS[sample_draw(rng, self.board.market.unseen)]
        rule = Rule.GAME_OVER if stage is Stage.OVER else Rule.PLAYER_ACTS
        raise illegal("chance", rule.value)

    def parse(self, text: str) -> Move:
        word, _, rest = text.strip().partition(" ")
        word = word.lower()
        step = self.step
        pending = step.pending if step is not None else None
        if word == "put" and len(rest.split()) == 1 and pending and not pending.is_joker:
            # ``put S3``: the nut in hand is a plain nut, so its kind goes without saying.
            return Put(pending.kinds[0], parse_store(rest, text))
        if word == "white" and self.dice is not None and rest.strip() in {"1", "2"}:
            return PLACES[self.dice.sums[int(rest) - 1]]
        return parse_move(text)

    # --- Applying moves -------------------------------------------------------------------

    def apply(self, move: AnyMove) -> NuesseState:
        kind = type(move)
        if kind is Dice:
            assert isinstance(move, Dice)
            return self._apply_dice(move)
        if kind is Draw:
            assert isinstance(move, Draw)
            return self._apply_draw(move)
        if kind in _ACTION_TYPES:
            return self._apply_action(move)  # type: ignore[arg-type]
        raise not_a_move(move, "Auf die Nüsse!")

    def _chance_fault(self, move: Move) -> NoReturn:
        """Raise the error for a chance outcome offered when this is no such chance node."""
        if self.stage is Stage.OVER:
            raise illegal(move, Rule.GAME_OVER.value)
        if _NODES[self.stage] is NodeKind.DECISION:
            raise illegal(move, Rule.PLAYER_ACTS.value)
        expected = "the dice are rolled" if self.stage is Stage.ROLL else "a nut card is drawn"
        raise illegal(move, Rule.OTHER_DECISION.value, expected)

    def _apply_dice(self, dice: Dice) -> NuesseState:
        if self.stage is not Stage.ROLL:
            self._chance_fault(dice)
        if dice not in _DICE_INDEX:
            raise illegal(dice, Rule.DIE_FACES.value)
        first, second = dice.green + dice.white1, dice.green + dice.white2
        track = self.track
        free_first = not track >> first & 1
        free_second = second != first and not track >> second & 1
        board, player = self.board, self.player
        if free_first and free_second:
            return NuesseState(board, Stage.PLACE, player, track, dice, None, ())
        if free_first or free_second:
            space = first if free_first else second
            events = [_event(EventKind.PLACED, player, None, space)]
            return _again(board, player, track | 1 << space, dice, events)
        return _failed(board, player, track, dice, [])

    def _apply_draw(self, draw: Draw) -> NuesseState:
        stage, step = self.stage, self.step
        if stage not in _DRAW_STAGES or step is None:
            self._chance_fault(draw)
        market = self.board.market
        index = CARD_INDEX[draw.card]
        if not market.unseen[index]:
            raise illegal(draw, Rule.UNSEEN_ONLY.value, f"no {draw.card.value} is left unseen")
        unseen = _at(market.unseen, index, market.unseen[index] - 1)
        pile, set_aside, ending = market.pile - 1, market.set_aside, market.ending
        events: list[Event] = []
        if not pile and set_aside:
            pile, set_aside, ending = set_aside, 0, Ending.TRIGGERED
            events.append(_event(EventKind.LAST_CARD, self.player))
        face_up = market.face_up
        if step.refill is not None:
            face_up = _at(face_up, step.refill, draw.card)
        board = self.board.with_market(Market(face_up, unseen, pile, set_aside, ending))
        if stage is Stage.REFILL:
            return _after_refill(board, self.player, step, self.dice, events)
        if stage is Stage.DEAL:
            return _receive(board, self.player, step, draw.card, None, events)
        assert step.refill is not None
        if step.refill < Slot.TEN_TWELVE:
            after = _step(Context.SETUP, 0, refill=Slot(step.refill + 1))
            return NuesseState(board, Stage.FACE_UP, self.player, 0, None, after, tuple(events))
        return _deal(board, 0, events)

    def _apply_action(self, action: Action) -> NuesseState:
        stage, kind = self.stage, type(action)
        board, player, dice = self.board, self.player, self.dice
        # The moves of every turn first, checked here exactly as fault() would check them.
        if stage is Stage.AGAIN:
            if kind is Stop:
                return _end_turn(board, player, self.track, dice, [])
            if kind is RollAgain and self.available > 0:
                return NuesseState(board, Stage.ROLL, player, self.track, dice, None, ())
        elif stage is Stage.PLACE and kind is Place and action in self.placements():
            assert isinstance(action, Place)
            return _again(board, player, self.track | 1 << action.space, dice, [])
        fault = self.fault(action)
        if fault is not None:
            raise illegal(action, fault[0].value, fault[1])
        if kind is Lay:
            assert isinstance(action, Lay)
            events: list[Event] = []
            return _again(_lay(board, player, action, events), player, self.track, dice, events)
        assert self.step is not None
        return _STEP_ACTIONS[stage](board, player, self.step, action, dice)

    # --- Legality, with the reason for a refusal --------------------------------------------

    def fault(self, action: Action) -> tuple[Rule, str] | None:
        """``None`` if ``action`` is legal here, else the rule it breaks and a detail.

        This is the one legality check :meth:`apply` makes; :meth:`legal_actions` lists exactly
        the actions it accepts (the tests check the two agree).
        """
        stage = self.stage
        if _NODES[stage] is not NodeKind.DECISION:
            return (Rule.GAME_OVER if stage is Stage.OVER else Rule.CHANCE_ACTS), ""
        kind = type(action)
        if kind not in _STAGE_ACTIONS[stage]:
            return Rule.OTHER_DECISION, _EXPECTED[stage]
        if kind is Place:
            assert isinstance(action, Place)
            return self._place_fault(action)
        if kind is Stop:
            return None
        if kind is RollAgain:
            return None if self.available > 0 else (Rule.NO_SUPPLY, "the turn can only end")
        if kind is Lay:
            assert isinstance(action, Lay)
            return self._lay_fault(action)
        step = self.step
        assert step is not None
        if kind is Setup:
            assert isinstance(action, Setup)
            return self._setup_fault(action, step)
        if stage is Stage.SETUP:  # a pass
            return None if self.board.config.optional_setup else (Rule.SETUP_ALL, "")
        if stage is Stage.TAKE:
            assert isinstance(action, Take | Pass)
            return self._take_fault(action, step)
        if stage is Stage.PUT:
            assert isinstance(action, Put | Keep)
            return self._put_fault(action, step)
        if isinstance(action, Pass):  # a theft refused
            return None if self.board.config.raccoon_optional else (Rule.RACCOON_MUST, "")
        assert isinstance(action, Steal)
        return self._steal_fault(action, step)

    def _place_fault(self, place: Place) -> tuple[Rule, str] | None:
        assert self.dice is not None
        sums = self.dice.sums
        if place.space not in sums:
            spaces = " or ".join(str(n) for n in sorted(set(sums)))
            return Rule.GREEN_PLUS_WHITE, f"this roll allows {spaces}"
        if self.track >> place.space & 1:
            return Rule.ONE_PER_TRACK_SPACE, f"space {place.space} is taken"
        return None

    def _setup_fault(self, setup: Setup, step: Step) -> tuple[Rule, str] | None:
        if setup.space not in TWO_AREA:
            return Rule.SETUP_TWO_AREA, ""
        if setup.space == Space.RACCOON_2:
            return Rule.SETUP_NOT_RACCOON, ""
        if self.board.areas[setup.space][step.actor]:
            return Rule.SETUP_ONE_PER_SPACE, f"this player has a squirrel on {setup.space.label}"
        return None

    def _take_fault(self, action: Take | Pass, step: Step) -> tuple[Rule, str] | None:
        space = step.space
        assert space is not None
        if isinstance(action, Pass):
            if space not in RACCOONS:
                return Rule.PASS_RACCOON, f"{space.label} is no raccoon space"
            return None if self.board.config.raccoon_optional else (Rule.RACCOON_MUST, "")
        if action.slot not in OFFER[space]:
            offered = ", ".join(s.label for s in OFFER[space])
            return Rule.TAKE_OFFERED, f"{space.label} offers {offered}"
        if self.board.market.face_up[action.slot] is None:
            return Rule.TAKE_THERE, f"nothing lies under {action.slot.label}"
        return None

    def _put_fault(self, action: Put | Keep, step: Step) -> tuple[Rule, str] | None:
        card = step.pending
        assert card is not None
        if isinstance(action, Keep):
            if not card.is_joker:
                return Rule.KEEP_JOKERS, f"a {card.value} must be stored"
            if step.context is Context.JOKERS:
                return Rule.KEEP_AT_END, ""
            return None
        if action.kind not in CARD_KINDS[card]:
            return Rule.CARD_KIND, f"the card in hand is {card.value}"
        return _store_fault(self.board.stores[step.actor], action.store, action.kind)

    def _steal_fault(self, steal: Steal, step: Step) -> tuple[Rule, str] | None:
        board = self.board
        if not 0 <= steal.victim < board.config.players:
            return Rule.NO_SUCH_PLAYER, f"P{steal.victim + 1}"
        if steal.victim == step.actor:
            return Rule.STEAL_OTHERS, ""
        if steal.victim == board.david:
            return Rule.STEAL_DAVID, f"David sits with P{steal.victim + 1}"
        if not 0 <= steal.store < STORES:
            return Rule.NO_SUCH_STORE, ""
        store = board.stores[steal.victim][steal.store]
        if store.full:
            return Rule.STEAL_FULL, ""
        if not store.nuts:
            if store.jokers:
                return Rule.STEAL_JOKERS, "that store holds only jokers"
            return Rule.STEAL_EMPTY, ""
        return None

    def _lay_fault(self, lay: Lay) -> tuple[Rule, str] | None:
        board = self.board
        if not board.config.late_jokers:
            return Rule.LAY_LATE_OFF, ""
        if lay.joker not in board.jokers[self.player]:
            return Rule.LAY_HELD, f"no {lay.joker.value} joker is kept"
        if lay.kind not in CARD_KINDS[lay.joker]:
            return Rule.CARD_KIND, f"the joker is {lay.joker.value}"
        return _store_fault(board.stores[self.player], lay.store, lay.kind)

    # --- Results --------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        values = self.board.config.store_values
        return tuple([points(stores, values) for stores in self.board.stores])

    def winners(self) -> frozenset[PlayerId]:
        if self.stage is not Stage.OVER:
            return frozenset()
        scores = self.scores()
        top = max(scores)
        tied = [p for p, s in enumerate(scores) if s == top]
        values = self.board.config.store_values
        best = {p: best_full_store(self.board.stores[p], values) for p in tied}
        most = max(best.values())
        return frozenset(p for p in tied if best[p] == most)

    def view(self, player: PlayerId | None) -> NuesseView:
        """What ``player`` sees (``None``: a spectator): here, all of it."""
        board, step, stage = self.board, self.step, self.stage
        market = board.market
        space = step.space if step is not None else None
        pending = step.pending if step is not None else None
        supply = board.supply
        if self.track:
            active = self.player
            supply = tuple(
                n - self.track.bit_count() if p == active else n for p, n in enumerate(supply)
            )
        return NuesseView(
            viewer=player,
            config=board.config,
            stage=stage,
            player=self.player,
            actor=self.current_player(),
            track=_track_spaces(self.track),
            dice=self.dice,
            placements=tuple(p.space for p in self.placements()) if stage is Stage.PLACE else (),
            areas=board.areas,
            supply=supply,
            face_up=market.face_up,
            pile=market.pile,
            set_aside=market.set_aside,
            unseen=market.unseen,
            ending=market.ending,
            stores=board.stores,
            jokers=board.jokers,
            david=board.david,
            receiver=step.actor if step is not None and stage is not Stage.FACE_UP else None,
            space=space,
            offer=OFFER[space] if space is not None else (),
            raccoon=space in RACCOONS,
            pending=pending,
            can_keep=step is not None
            and pending is not None
            and pending.is_joker
            and step.context is not Context.JOKERS,
            refill=step.refill if step is not None else None,
            theft=step is not None and step.theft,
            scores=self.scores(),
            winners=self.winners(),
            events=self.events,
        )


_legal_actions = NuesseState._legal_actions


@functools.cache
def _track_spaces(track: int) -> tuple[int, ...]:
    """The spaces 2-12 set in the bit mask ``track`` (at most 2**11 answers)."""
    return tuple(n for n in range(2, 13) if track >> n & 1)


def _store_fault(stores: tuple[Store, ...], index: int, kind: Nut) -> tuple[Rule, str] | None:
    """Why a nut counting as ``kind`` may not go into store ``index`` (``None``: it may)."""
    if not 0 <= index < STORES:
        return Rule.NO_SUCH_STORE, ""
    store = stores[index]
    if store.full:
        return Rule.STORE_FULL, ""
    if store.kind is not None and store.kind is not kind:
        return Rule.ONE_KIND, f"S{index + 1} holds {store.kind.value}s"
    return None


# --- Transitions (pure functions from a board to the next state) ----------------------------


def _again(
    board: Board, player: PlayerId, track: int, dice: Dice | None, events: list[Event]
) -> NuesseState:
    """After a squirrel is placed: roll again or stop; with an empty supply, the turn ends
    (with ``empty_supply=fails``, as a failed roll would end it)."""
    if board.supply[player] <= track.bit_count():
        if board.config.empty_supply == SUPPLY_FAILS:
            events.append(_event(EventKind.OUT_OF_SQUIRRELS, player))
            return _failed(board, player, track, dice, events)
        if not _lays(board, player):
            events.append(_event(EventKind.OUT_OF_SQUIRRELS, player))
            return _end_turn(board, player, track, dice, events)
    return NuesseState(board, Stage.AGAIN, player, track, dice, None, tuple(events))


def _failed(
    board: Board, player: PlayerId, track: int, dice: Dice | None, events: list[Event]
) -> NuesseState:
    """A failed turn: the start track goes back to the supply (which still counts it)."""
    # A failed turn moves nothing off the start track, so no space can pay out (see
    # _end_turn) and the turn passes at once; except that with double_collect_upper off
    # a 3- or 4-area space may hold a surplus from the last checks, which pays out now.
    events.append(_event(EventKind.FAILED, player, None, track.bit_count()))
    if not board.config.double_collect_upper:
        return _checks(board, player, Space.LEFT_3, dice, events)
    following = (player + 1) % board.config.players
    return NuesseState(board, Stage.ROLL, following, 0, dice, None, tuple(events))


def _end_turn(
    board: Board, player: PlayerId, track: int, dice: Dice | None, events: list[Event]
) -> NuesseState:
    """A successful end: the start track moves up into the 2-area, then the checks run.

    Every pass of the checks ends with no space able to pay out, and since then only this
    player's 2-area squirrels have grown; so the checks start at the first of those spaces
    where the player now has two, and are skipped when there is none. (The random-game test
    checks that no space can pay out whenever a turn starts.) With ``double_collect_upper``
    off, a 3- or 4-area space may still hold a surplus, so the upper areas are always checked.
    """
    moved = move_up(track)
    areas = board.areas
    rows = list(areas)
    first = None
    for space, count in enumerate(moved):
        if count:
            row = areas[space]
            now = row[player] + count
            rows[space] = _at(row, player, now)
            if first is None and now >= 2:
                first = space
    count = track.bit_count()
    supply = _at(board.supply, player, board.supply[player] - count)
    board = board.with_squirrels(tuple(rows), supply)
    events.append(_event(EventKind.MOVED_UP, player, None, count))
    if first is None:
        if not board.config.double_collect_upper:
            return _checks(board, player, Space.LEFT_3, dice, events)
        return _next_turn(board, player, dice, events)
    return _checks(board, player, _SPACES[first], dice, events)


def _next_turn(
    board: Board, player: PlayerId, dice: Dice | None, events: list[Event]
) -> NuesseState:
    following = (player + 1) % board.config.players
    return NuesseState(board, Stage.ROLL, following, 0, dice, None, tuple(events))


def _collector(
    areas: tuple[tuple[int, ...], ...], order: tuple[PlayerId, ...], start: int
) -> tuple[Space, PlayerId] | None:
    """The first space from ``start`` on where a player has enough squirrels, and who.

    Each area is first tested as a whole (one ``max`` over its rows): mostly nothing pays out.
    """
    for first, end, need in _AREAS:
        if end <= start:
            continue
        first = max(first, start)  # noqa: PLW2901 - the area starts later when resuming
        if max(map(max, areas[first:end])) < need:
            continue
        for space in range(first, end):
            row = areas[space]
            if max(row) >= need:
                for player in order:
                    if row[player] >= need:
                        return _SPACES[space], player
    return None


def _later_collector(
    row: tuple[int, ...], order: tuple[PlayerId, ...], last: PlayerId, space: int
) -> tuple[Space, PlayerId] | None:
    """Who collects on ``space`` next when ``last`` may not again: a later seat in ``order``."""
    need = NEED[space]
    for seat in order[order.index(last) + 1 :]:
        if row[seat] >= need:
            return _SPACES[space], seat
    return None


def _next_collector(
    board: Board, order: tuple[PlayerId, ...], start: Space, last: PlayerId | None
) -> tuple[Space, PlayerId] | None:
    """The next space from ``start`` up that pays out, and who collects there.

    With ``double_collect_upper`` off, ``last`` (who has just collected on ``start``) may not
    collect on a 3- or 4-area space again in this pass, unless the end has come.
    """
    if (
        not board.config.double_collect_upper
        and last is not None
        and start >= Space.LEFT_3
        and board.market.ending is not Ending.FINAL
    ):
        found = _later_collector(board.areas[start], order, last, start)
        return found if found is not None else _collector(board.areas, order, start + 1)
    return _collector(board.areas, order, start)


def _checks(
    board: Board,
    player: PlayerId,
    start: Space,
    dice: Dice | None,
    events: list[Event],
    last: PlayerId | None = None,
) -> NuesseState:
    """Run the collection checks from ``start`` until a decision, a draw, or their end.

    ``last`` has just collected on ``start`` (``None``: nobody has). With
    ``double_collect_upper`` off they may not collect there again in this pass if it lies in
    the 3- or 4-area, unless the end has come and every four squirrels buy a nut.
    """
    config = board.config
    # active_first starts the order at the active seat, next_first one seat later.
    order = seat_order(config.players, player + (config.collect_order == NEXT_FIRST))
    while True:
        found = _next_collector(board, order, start, last)
        if found is None:
            ending = board.market.ending
            if ending is Ending.TRIGGERED:
                board, start, last = _all_up(board, player, events), Space.AREA_4, None
                continue
            if ending is Ending.FINAL:
                return _store_kept_jokers(board, player, dice, events)
            return _next_turn(board, player, dice, events)
        space, actor = found
        start, last = space, actor
        areas, supply = _collect(board, space, actor, events)
        market = board.market
        face_up = market.face_up
        offered = [slot for slot in OFFER[space] if face_up[slot] is not None]
        if len(offered) == 1 and space not in RACCOONS:
            slot = offered[0]
            card = face_up[slot]
            assert card is not None
            events.append(_event(EventKind.TOOK, actor, space, None, card, None, slot))
            market = Market(
                _at(face_up, slot, None), market.unseen, market.pile, market.set_aside,
                market.ending,
            )  # fmt: skip
            board = Board(
                board.config, areas, supply, market, board.stores, board.jokers, board.david
            )
            after = _step(Context.CHECKS, actor, space, None, slot, False)
            return _receive(board, player, after, card, dice, events)
        board = board.with_squirrels(areas, supply)
        step = _step(Context.CHECKS, actor, space, None, None, space in RACCOONS)
        if step.theft:
            if offered:
                return NuesseState(board, Stage.TAKE, player, 0, dice, step, tuple(events))
            return _after_refill(board, player, step, dice, events)
        if offered:
            return NuesseState(board, Stage.TAKE, player, 0, dice, step, tuple(events))
        events.append(_event(EventKind.NO_NUT, actor, space))


def _collect(
    board: Board, space: Space, collector: PlayerId, events: list[Event]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``collector`` takes the space's squirrels back; the others' are pushed up.

    Returns the squirrels on the board and in supply afterwards.
    """
    need = NEED[space]
    areas = list(board.areas)
    row = list(areas[space])
    row[collector] -= need
    events.append(_event(EventKind.COLLECTED, collector, space, need))
    above = ABOVE[space]
    if above is not None:
        up = list(areas[above])
        for other, count in enumerate(row):
            if other != collector and 0 < count < need:
                up[other] += count
                row[other] = 0
                events.append(_event(EventKind.PUSHED, other, space, count))
        areas[above] = tuple(up)
    areas[space] = tuple(row)
    return tuple(areas), _at(board.supply, collector, board.supply[collector] + need)


def _all_up(board: Board, player: PlayerId, events: list[Event]) -> Board:
    """The end: every squirrel on the board moves into the 4-area."""
    totals = tuple(sum(row[p] for row in board.areas) for p in range(board.config.players))
    empty = (0,) * board.config.players
    market = board.market
    board = board.with_squirrels((empty,) * Space.AREA_4 + (totals,), board.supply)
    events.append(_event(EventKind.ALL_UP, player))
    return board.with_market(
        Market(market.face_up, market.unseen, market.pile, market.set_aside, Ending.FINAL)
    )


def _take(
    board: Board,
    player: PlayerId,
    step: Step,
    slot: Slot,
    dice: Dice | None,
    events: list[Event],
) -> NuesseState:
    """``step.actor`` takes the face-up nut in ``slot``; it is stored, then replaced."""
    market = board.market
    card = market.face_up[slot]
    assert card is not None
    face_up = _at(market.face_up, slot, None)
    board = board.with_market(
        Market(face_up, market.unseen, market.pile, market.set_aside, market.ending)
    )
    after = _step(Context.CHECKS, step.actor, step.space, None, slot, step.theft)
    return _receive(board, player, after, card, dice, events)


def _receive(
    board: Board,
    player: PlayerId,
    step: Step,
    card: Card,
    dice: Dice | None,
    events: list[Event],
) -> NuesseState:
    """``step.actor`` must store ``card`` now: by choice, by force, or back to the box."""
    actor = step.actor
    options = _put_options(board.stores[actor], card, step.context is not Context.JOKERS)
    if len(options) > 1:
        pending = _step(step.context, actor, step.space, card, step.refill, step.theft)
        return NuesseState(board, Stage.PUT, player, 0, dice, pending, tuple(events))
    if not options:
        events.append(_event(EventKind.BOXED, actor, None, None, card))
    elif isinstance(options[0], Put):
        store = options[0].store
        events.append(_event(EventKind.STORED, actor, None, None, card, store))
        board = _store(board, actor, card, options[0], events)
    else:
        events.append(_event(EventKind.KEPT, actor, None, None, card))
        board = _keep(board, actor, card)
    return _after_put(board, player, step, dice, events)


def _store(board: Board, actor: PlayerId, card: Card, put: Put, events: list[Event]) -> Board:
    """``card`` goes into store ``put.store`` as ``put.kind``; a full store is turned over."""
    stores = board.stores[actor]
    store = stores[put.store]
    joker = card.is_joker
    if store.fill + 1 == STORE_SIZES[put.store]:
        store = Store(put.kind, 0, 0, True)
        events.append(_event(EventKind.FILLED, actor, None, None, PLAIN[put.kind], put.store))
    else:
        store = Store(put.kind, store.nuts + (not joker), store.jokers + joker, False)
    everyone = _at(board.stores, actor, _at(stores, put.store, store))
    return board.with_holdings(everyone, board.jokers, board.david)


def _keep(board: Board, actor: PlayerId, card: Card) -> Board:
    held = tuple(sorted((*board.jokers[actor], card), key=CARD_INDEX.__getitem__))
    return board.with_holdings(board.stores, _at(board.jokers, actor, held), board.david)


def _lay(board: Board, player: PlayerId, lay: Lay, events: list[Event]) -> Board:
    held = list(board.jokers[player])
    held.remove(lay.joker)
    board = board.with_holdings(board.stores, _at(board.jokers, player, tuple(held)), board.david)
    return _store(board, player, lay.joker, _PUTS[lay.store][lay.kind], events)


def _after_put(
    board: Board, player: PlayerId, step: Step, dice: Dice | None, events: list[Event]
) -> NuesseState:
    """The nut in hand is dealt with: refill its place, deal on, or store the next joker."""
    if step.context is Context.CHECKS:
        if step.refill is not None and board.market.pile:
            refill = _step(Context.CHECKS, step.actor, step.space, None, step.refill, step.theft)
            return NuesseState(board, Stage.REFILL, player, 0, dice, refill, tuple(events))
        return _after_refill(board, player, step, dice, events)
    if step.context is Context.SETUP:
        return _deal(board, step.actor + 1, events)
    return _store_kept_jokers(board, player, dice, events)


def _after_refill(
    board: Board, player: PlayerId, step: Step, dice: Dice | None, events: list[Event]
) -> NuesseState:
    """After a collection's nut: the raccoon's theft if one is due, else the checks go on."""
    assert step.space is not None
    if step.theft and _thefts(board, step.actor):
        theft = _step(Context.CHECKS, step.actor, step.space)
        return NuesseState(board, Stage.STEAL, player, 0, dice, theft, tuple(events))
    return _checks(board, player, step.space, dice, events, step.actor)


def _store_kept_jokers(
    board: Board, player: PlayerId, dice: Dice | None, events: list[Event]
) -> NuesseState:
    """At the end every kept joker is stored (active player first); then the game is over."""
    for seat in seat_order(board.config.players, player):
        held = board.jokers[seat]
        if held:
            rest = _at(board.jokers, seat, held[1:])
            board = board.with_holdings(board.stores, rest, board.david)
            step = _step(Context.JOKERS, seat)
            return _receive(board, player, step, held[0], dice, events)
    return NuesseState(board, Stage.OVER, player, 0, dice, None, tuple(events))


def _deal(board: Board, seat: PlayerId, events: list[Event]) -> NuesseState:
    """Deal the start nut to ``seat``; after the last seat, the squirrels are placed."""
    if seat < board.config.players:
        step = _step(Context.SETUP, seat)
        return NuesseState(board, Stage.DEAL, 0, 0, None, step, tuple(events))
    return _setup_next(board, events)


def _setup_next(board: Board, events: list[Event], first: PlayerId = 1) -> NuesseState:
    """Seat ``k`` puts ``k`` squirrels on the 2-area before the first turn; then seat 0 rolls.

    Seats before ``first`` are done (with ``optional_setup``, a seat may stop early).
    """
    for seat in range(first, board.config.players):
        if SQUIRRELS - board.supply[seat] < seat:
            step = _step(Context.SETUP, seat)
            return NuesseState(board, Stage.SETUP, 0, 0, None, step, tuple(events))
    return NuesseState(board, Stage.ROLL, 0, 0, None, None, tuple(events))


# --- Actions taken while a step is in progress ---------------------------------------------


def _do_setup(
    board: Board, player: PlayerId, step: Step, action: Action, dice: Dice | None
) -> NuesseState:
    del player, dice
    seat = step.actor
    if isinstance(action, Pass):  # optional_setup: this seat places no more squirrels
        return _setup_next(board, [], seat + 1)
    assert isinstance(action, Setup)
    areas = board.areas
    row = _at(areas[action.space], seat, areas[action.space][seat] + 1)
    supply = _at(board.supply, seat, board.supply[seat] - 1)
    return _setup_next(board.with_squirrels(_at(areas, action.space, row), supply), [], seat)


def _do_take(
    board: Board, player: PlayerId, step: Step, action: Action, dice: Dice | None
) -> NuesseState:
    if isinstance(action, Pass):
        return _after_refill(board, player, step, dice, [])
    assert isinstance(action, Take)
    return _take(board, player, step, action.slot, dice, [])


def _do_put(
    board: Board, player: PlayerId, step: Step, action: Action, dice: Dice | None
) -> NuesseState:
    card = step.pending
    assert card is not None
    events: list[Event] = []
    if isinstance(action, Put):
        board = _store(board, step.actor, card, action, events)
    else:
        board = _keep(board, step.actor, card)
    return _after_put(board, player, step, dice, events)


def _do_steal(
    board: Board, player: PlayerId, step: Step, action: Action, dice: Dice | None
) -> NuesseState:
    if isinstance(action, Pass):
        assert step.space is not None
        return _checks(board, player, step.space, dice, [], step.actor)
    assert isinstance(action, Steal)
    store = board.stores[action.victim][action.store]
    assert store.kind is not None
    left = store.nuts - 1
    robbed = Store(store.kind if left + store.jokers else None, left, store.jokers, False)
    victim = _at(board.stores[action.victim], action.store, robbed)
    board = board.with_holdings(
        _at(board.stores, action.victim, victim), board.jokers, action.victim
    )
    return _receive(board, player, step, PLAIN[store.kind], dice, [])


_STEP_ACTIONS = {
    Stage.SETUP: _do_setup,
    Stage.TAKE: _do_take,
    Stage.PUT: _do_put,
    Stage.STEAL: _do_steal,
}
_NODES = {
    Stage.FACE_UP: NodeKind.CHANCE,
    Stage.DEAL: NodeKind.CHANCE,
    Stage.SETUP: NodeKind.DECISION,
    Stage.ROLL: NodeKind.CHANCE,
    Stage.PLACE: NodeKind.DECISION,
    Stage.AGAIN: NodeKind.DECISION,
    Stage.TAKE: NodeKind.DECISION,
    Stage.PUT: NodeKind.DECISION,
    Stage.REFILL: NodeKind.CHANCE,
    Stage.STEAL: NodeKind.DECISION,
    Stage.OVER: NodeKind.TERMINAL,
}
_DRAW_STAGES = frozenset({Stage.FACE_UP, Stage.DEAL, Stage.REFILL})
_STAGE_ACTIONS: dict[Stage, tuple[type, ...]] = {
    Stage.SETUP: (Setup, Pass),
    Stage.PLACE: (Place,),
    Stage.AGAIN: (RollAgain, Stop, Lay),
    Stage.TAKE: (Take, Pass),
    Stage.PUT: (Put, Keep),
    Stage.STEAL: (Steal, Pass),
}
_EXPECTED = {
    Stage.SETUP: "a squirrel goes on the 2-area before the first turn ('setup 2-4')",
    Stage.PLACE: "a squirrel goes on the start track ('place 8')",
    Stage.AGAIN: "roll again or stop ('roll', 'stop', or lay a kept joker)",
    Stage.TAKE: "a face-up nut is chosen ('take 5-6', on a raccoon space also 'pass')",
    Stage.PUT: "the nut in hand is stored ('put walnut S3', a joker may be kept: 'keep')",
    Stage.STEAL: "the raccoon steals a nut or passes ('steal P2 S5', 'pass')",
}
_SPACES = tuple(Space)
_PAIRS = {
    a: {b: tuple(PLACES[n] for n in sorted({a, b})) for b in range(2, 13)} for a in range(2, 13)
}
_TAKES = tuple(Take(slot) for slot in Slot)
_SETUPS = {space: Setup(space) for space in SETUP_SPACES}


@functools.cache
def _roll_outcomes() -> tuple[tuple[Dice, Fraction], ...]:
    return tuple((dice, DICE_CHANCE) for dice in DICE)


class AufDieNuesse(Game):
    """Auf die Nüsse!: squirrels race up a board of dice spaces to collect nuts, 2-4 players."""

    info = GameInfo(
        id="auf-die-nuesse",
        name="Auf die Nüsse!",
        min_players=2,
        max_players=4,
        default_players=3,
        summary=N_("Dice and squirrels: climb three areas to collect nuts and fill your stores."),
        options=options_of(Config),
        has_chance=True,
        hidden_information=False,
        min_score=0,
        max_score=MAX_SCORE,
    )
    state_type = NuesseState
    config_type = Config

    def initial_state(self) -> NuesseState:
        players = self.players
        cards = config_deck(self.config)
        market = Market(
            (None,) * len(Slot), cards, sum(cards) - SET_ASIDE, SET_ASIDE, Ending.NOT_YET
        )
        board = Board(
            config=self.config,
            areas=((0,) * players,) * len(Space),
            supply=(SQUIRRELS,) * players,
            market=market,
            stores=((EMPTY_STORE,) * STORES,) * players,
            jokers=((),) * players,
            david=None,
        )
        step = _step(Context.SETUP, 0, refill=Slot.TWO_FOUR)
        return NuesseState(board, Stage.FACE_UP, 0, 0, None, step)

    def action_table(self) -> ActionTable[Action]:
        return ACTIONS

    @property
    def score_bounds(self) -> tuple[int, int]:
        return (0, max_points(self.config))


ACTIONS: ActionTable[Action] = ActionTable(action_table(), "Auf die Nüsse!")
"""Every player action in id order, the same for every player count and option."""


def new_state(players: int = 3, **options: OptionValue) -> NuesseState:
    """The initial state of a game with ``players`` players (a convenience for tests)."""
    return AufDieNuesse(players, **options).initial_state()
