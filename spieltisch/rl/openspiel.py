"""The spieltisch games as OpenSpiel Python games, registered when this module is imported.

Names: ``spieltisch_auf_die_eier``, ``spieltisch_auf_die_nuesse``, ``spieltisch_auweier`` and
``spieltisch_awimbawe``; the parameters are ``players`` and every option of the game
(``pyspiel.load_game("spieltisch_awimbawe(tie_break=seat1)")``). Player actions are the
game's stable action ids. The games keep OpenSpiel's own rules:

* **Chance nodes are explicit and small.** A chance event small enough to list is one node
  whose outcomes are numbered in the order the rules list them; a throw of dice is dealt one
  die at a time (six outcomes of exactly 1/6 per node: Auf die Eier's nine dice and Auf die
  Nüsse's three), a deal or a shuffle card by card (:mod:`spieltisch.rl.chance`), each step
  with its exact probability, their product the rules' probability of the outcome.
* **Constant-sum**: every return is a seat's share of the win (1 split among the winners), so
  the returns of every finished game sum to 1 (``utility_sum`` 1).
* **Perfect recall.** A seat's information state is everything it has seen, in order: every
  move of the game as that seat saw it (its own moves and every public move in full, a secret
  one as the rules show it to the seat, e.g. ``deal`` with only its own cards), then its
  current view. No two different histories of what the seat saw share an information state
  (tested over many random games). The tensor is the observation tensor followed by one value
  per move seen, a 24-bit digest of that move's line of the string (the most recent
  :attr:`SpieltischGame.history_slots` moves; far more than a game has).
* **Observers** follow ``pyspiel.IIGObservationType``: public information and the seat's
  private information (the default observation: the seat's current view), public only (a
  spectator's view, the same for every seat), each with or without perfect recall (the
  information state: the moves as the seat, or a spectator, saw them, then the view). A
  private-only or all-players observer is refused with a ``ValueError``.
* ``str(state)`` is the full state, hidden cards included (two different states never print
  the same); it is for debugging and never shown to a player.
* ``resample_from_infostate(player, sampler)`` draws a state the player cannot tell from
  this one from the game's belief sampler, and keeps the history: the clone's ``history()``
  and move number are this state's, and the player's information state (string and tensor)
  is the same. What the other seats saw of the past is kept as a spectator saw it (their own
  secrets in the drawn world are not known), so their information states there start from the
  public record.

**Engines.** The parameter ``native`` (a bool, default ``True``) plays the game on the
native core where it is built (:mod:`spieltisch.native.face`) and on the Python engine where
it is not; ``native=False`` always on the Python engine
(``pyspiel.load_game("spieltisch_awimbawe(native=False)")``). Both give the same games:
action ids, chance nodes and their probabilities, observations, strings, information states,
returns. On the native core a state steps its native state (legal actions, moves, chance
outcomes, the observation tensor, returns), and replays the history in the Python engine
(once, then kept along the history) only when something needs the rules state: strings,
information states, ``rules_state``, ``resample_from_infostate`` (whose drawn state, like
:meth:`SpieltischGame.state_of`'s, plays on the Python engine). A split chance event is dealt
item by item as on the Python engine, its shape read from one native sample of it
(:meth:`Splitter.native_event`), and applied to the native state once complete.

``max_game_length`` is a practical bound (the games have no hard one: a player may, say, keep
scoring nothing): :data:`DECISIONS_PER_PLAYER` decisions per player, several times the longest
of thousands of random games.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from spieltisch import load
from spieltisch.core.errors import NativeError, NotEnumerableError
from spieltisch.core.game import Game, Hidden, Move, OptionValue, State
from spieltisch.games import REGISTRY, kit_of
from spieltisch.native.face import Code, NativeGame, NativeState, Rng, Step, apply_step
from spieltisch.rl.chance import SPLITTERS, Splitter
from spieltisch.rl.chance.base import Event as SplitEvent
from spieltisch.rl.encode import Encoder, encoder_for
from spieltisch.rl.encode.base import Out
from spieltisch.rl.match import DECISIONS_PER_PLAYER, ActionIds
from spieltisch.rl.text import compact as compact_text
from spieltisch.rl.text import lines as text_lines
from spieltisch.rl.text import plain as plain_data

MAX_LISTED_CHANCE = {"auf-die-nuesse": 10, "awimbawe": 6}
"""The most outcomes one listed (not split) chance node of each game has: a draw from Auf die
Nüsse's nut bag, Awimbawé's blind pick among at most six hand cards."""
CHANCE_NODES_PER_DECISION = 30
"""A practical bound on chance nodes per decision (``max_chance_nodes_in_history``)."""
HISTORY_PER_DECISION = 3
"""Moves seen per decision the information-state tensor has room for."""
DIGEST_BITS = 24
"""A move's digest in the information-state tensor: exact in a float32."""
LEGAL_CACHE = 4096

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def openspiel_name(game_id: str) -> str:
    """The game's OpenSpiel name, e.g. ``spieltisch_auf_die_eier``."""
    return "spieltisch_" + game_id.replace("-", "_")


def _max_length(game: Game) -> int:
    return DECISIONS_PER_PLAYER[game.info.id] * game.players


class _Setup:
    """What every state of one game (players and options) shares: the rules, the splitter,
    the encoder, the action table. Shared, never copied (OpenSpiel deep-copies a state's
    attributes at every clone)."""

    def __init__(self, game_id: str, params: tuple[tuple[str, OptionValue], ...]) -> None:
        values = dict(params)
        players = values.pop("players", None)
        wants_native = bool(values.pop("native", True))
        count = None if players is None else int(players)
        self.key = (game_id, params)
        self.rules: Game = load(game_id, count, **values)
        self.native: NativeGame | None = _native_of(self.rules) if wants_native else None
        self.rng: Any = None if self.native is None else Rng(0)
        self.splitter: Splitter | None = SPLITTERS.get(game_id)
        self.encoder: Encoder = encoder_for(game_id)
        self.actions: tuple[Move, ...] = tuple(self.rules.action_table().actions)
        self.hidden = self.rules.info.hidden_information
        self.players = self.rules.players
        self.initial: State = self.rules.initial_state()
        self.max_length = _max_length(self.rules)
        self.history_slots = HISTORY_PER_DECISION * self.max_length
        self._ids = ActionIds(self.rules)
        self._legal: dict[int, tuple[Sequence[Move], list[int]]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> _Setup:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Setup], tuple[str, Any]]:
        return _setup_of, self.key

    def legal_ids(self, state: State) -> list[int]:
        """The sorted action ids of the legal moves (remembered per legal tuple: the rules
        hand out the same tuple object again and again)."""
        legal = state.legal_actions()
        known = self._legal.get(id(legal))
        if known is not None and known[0] is legal:
            return list(known[1])
        ids = sorted(self._ids.ids_of(legal))
        if len(self._legal) >= LEGAL_CACHE:
            self._legal.clear()
        self._legal[id(legal)] = (legal, ids)
        return list(ids)


def _native_of(rules: Game) -> NativeGame | None:
    """The native core's game of ``rules``, or ``None`` where the core is not built."""
    try:
        return NativeGame(rules)
    except NativeError:
        return None


@functools.cache
def _setup_of(game_id: str, params: tuple[tuple[str, OptionValue], ...]) -> _Setup:
    return _Setup(game_id, params)


def _setup(game_id: str, params: dict[str, Any]) -> _Setup:
    return _setup_of(game_id, tuple(sorted(params.items())))


def _digest(line: str) -> float:
    """A stable 24-bit digest of ``line`` in [0, 1), exact in a float32."""
    number = int.from_bytes(hashlib.blake2b(line.encode(), digest_size=3).digest(), "big")
    return number / (1 << DIGEST_BITS)


class _Event:
    """One move of the game (a finished chance event or a decision), linked to the move
    before: the history, shared by every later state. The Python engine's events carry the
    state the move was applied to and the state after; the native engine's carry its step
    (an action id or a chance code) and work out the Python states when first asked
    (:meth:`resolve`). What each seat saw of the move is worked out when first asked, then
    kept."""

    __slots__ = ("actor", "after", "before", "move", "prev", "seen", "step")

    def __init__(
        self,
        prev: _Event | None,
        actor: int | None,
        *,
        move: Move | None = None,
        before: State | None = None,
        after: State | None = None,
        step: Step | None = None,
    ) -> None:
        self.prev = prev
        self.actor = actor
        self.move = move
        self.before = before
        self.after = after
        self.step = step
        self.seen: dict[int | None, tuple[str, float]] | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Event:
        return self

    def resolve(self, setup: _Setup) -> State:
        """The Python state after this move, replaying (once) the native steps not replayed
        yet from the last event that has its states."""
        if self.after is not None:
            return self.after
        todo: list[_Event] = []
        event: _Event | None = self
        while event is not None and event.after is None:
            todo.append(event)
            event = event.prev
        state = setup.initial if event is None else cast(State, event.after)
        native = cast(NativeGame, setup.native)
        for event in reversed(todo):
            event.before = state
            if event.move is None:
                event.move = native.move_of(state, cast(Step, event.step))
            state = state.apply(event.move)
            event.after = state
        return state

    def line(self, viewer: int | None, hidden: bool) -> tuple[str, float]:
        """The move as ``viewer`` saw it (``None``: a spectator), and its digest (the event
        is resolved)."""
        if self.seen is None:
            self.seen = {}
        known = self.seen.get(viewer)
        if known is not None:
            return known
        before, move = cast(State, self.before), self.move
        shown: Move | Hidden = before.seen_move(move, viewer) if hidden else move
        actor = "chance" if self.actor is None else f"p{self.actor}"
        # A hidden move prints its notation with the secret part blanked, which already
        # writes out what the viewer sees of it (its ``shown``, e.g. their own cards).
        text = f"{actor} {shown}"
        known = (text, _digest(text))
        self.seen[viewer] = known
        return known


def _events(last: _Event | None) -> list[_Event]:
    """The events from the first to ``last``."""
    out: list[_Event] = []
    while last is not None:
        out.append(last)
        last = last.prev
    out.reverse()
    return out


Base = tuple[tuple[tuple[str, float], ...], ...]
"""What each seat (and, last, a spectator) had seen before a resampled state's own events."""


class _Position:
    """Everything of one OpenSpiel state on the Python side, never changed once made (so a
    clone shares it): the native state (where the native engine plays) or the rules state
    (else, and worked out from the history when first asked where the native engine plays),
    the items of a split chance event drawn so far, the history of events, and who acts."""

    __slots__ = (
        "_state",
        "base",
        "codes",
        "drawn",
        "event",
        "events",
        "listed",
        "native",
        "player",
        "setup",
        "split",
    )

    def __init__(
        self,
        setup: _Setup,
        state: State | None,
        drawn: tuple[int, ...] = (),
        events: _Event | None = None,
        base: Base | None = None,
        native: NativeState | None = None,
        event: SplitEvent | None = None,
    ) -> None:
        self.setup = setup
        self._state = state
        self.native = native
        self.drawn = drawn
        self.events = events
        self.base = base
        self.listed: Sequence[tuple[Move, Fraction]] | None = None
        self.codes: list[tuple[Code, float]] | None = None
        self.event = event
        if native is None:
            self._locate(cast(State, state))
        else:
            self._locate_native(native, event)

    def _locate(self, state: State) -> None:
        splitter = self.setup.splitter
        self.split = False
        if state.is_terminal():
            self.player = TERMINAL
        elif state.is_chance():
            self.player = CHANCE
            self.split = splitter is not None and splitter.applies(state)
        else:
            mover = state.current_player()
            self.player = TERMINAL if mover is None else int(mover)

    def _locate_native(self, native: NativeState, event: SplitEvent | None) -> None:
        splitter = self.setup.splitter
        self.split = event is not None
        mover = None if event is not None else native.current_player()
        if mover is not None:
            self.player = mover
        elif event is not None or native.is_chance():
            self.player = CHANCE
            if event is None and splitter is not None:
                sample = native.sample_chance(self.setup.rng)
                self.event = splitter.native_event(sample, native.canonical)
                self.split = self.event is not None
        else:
            self.player = TERMINAL

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Position], tuple[Any, ...]]:
        if self.native is not None:
            return _restore_native, (self.setup, self.native.history(), self.drawn)
        flat = [(e.before, e.move, e.actor) for e in _events(self.events)]
        return _restore, (self.setup, self.state, self.drawn, flat, self.base)

    @property
    def state(self) -> State:
        """The rules state (a chance event being dealt item by item is not applied yet)."""
        if self._state is None:
            events = self.events
            self._state = self.setup.initial if events is None else events.resolve(self.setup)
        return self._state

    def listed_outcomes(self) -> Sequence[tuple[Move, Fraction]]:
        """The rules' outcomes of this (unsplit) chance node."""
        if self.listed is None:
            try:
                self.listed = self.state.chance_outcomes()
            except NotEnumerableError as error:
                raise pyspiel.SpielError(
                    f"{self.setup.rules.info.name} has no way to list this chance event: {error}"
                ) from None
        return self.listed

    def native_outcomes(self) -> list[tuple[Code, float]]:
        """The native core's outcomes of this (unsplit) chance node, in the rules' order."""
        if self.codes is None:
            self.codes = cast(NativeState, self.native).chance_outcomes()
        return self.codes

    def lines(self, viewer: int | None) -> list[tuple[str, float]]:
        """Every move as ``viewer`` saw it, in order (with digests)."""
        hidden = self.setup.hidden
        before: list[tuple[str, float]] = []
        if self.base is not None:
            before = list(self.base[self.setup.players if viewer is None else viewer])
        if self.events is not None:
            self.events.resolve(self.setup)
        return before + [event.line(viewer, hidden) for event in _events(self.events)]

    def after(self, action: int) -> _Position:
        """The position after OpenSpiel's ``action`` here."""
        if self.native is not None:
            return self._after_native(action)
        setup = self.setup
        state = self.state
        actor: int | None = self.player
        if actor == CHANCE:
            actor = None
            if self.split:
                drawn = (*self.drawn, action)
                found = cast(Splitter, setup.splitter).outcome(state, drawn)
                if found is None:
                    return self._drawing(drawn)
                move = found
            else:
                move = self.listed_outcomes()[action][0]
        else:
            move = setup.actions[action]
        after = state.apply(move)
        events = _Event(self.events, actor, move=move, before=state, after=after)
        return _Position(setup, after, (), events, self.base)

    def _drawing(self, drawn: tuple[int, ...]) -> _Position:
        """This position with ``drawn`` the items of its split chance event drawn so far (the
        hot path of every die and card: no rules asked)."""
        pos = _Position.__new__(_Position)
        pos.setup, pos._state, pos.native = self.setup, self._state, self.native
        pos.events, pos.base, pos.event = self.events, self.base, self.event
        pos.listed, pos.codes, pos.player, pos.split = None, None, CHANCE, True
        pos.drawn = drawn
        return pos

    def _after_native(self, action: int) -> _Position:
        setup = self.setup
        native = cast(NativeState, self.native)
        if self.player != CHANCE:
            child = native.child(action)
            events = _Event(self.events, self.player, step=action)
            return _Position(setup, None, (), events, native=child)
        if self.event is not None:
            drawn = (*self.drawn, action)
            if len(drawn) < self.event.need:
                return self._drawing(drawn)
            code = cast(Splitter, setup.splitter).native_code(drawn)
        else:
            code = self.native_outcomes()[action][0]
        child = native.clone()
        child.apply_chance(code)
        events = _Event(self.events, None, step=code)
        return _Position(setup, None, (), events, native=child)


def _restore(
    setup: _Setup,
    state: State,
    drawn: tuple[int, ...],
    flat: list[tuple[State, Move, int | None]],
    base: Base | None,
) -> _Position:
    events: _Event | None = None
    for before, move, actor in flat:
        events = _Event(events, actor, move=move, before=before)
    if events is not None:
        events.after = state
        event: _Event | None = events
        while event is not None and event.prev is not None:
            event.prev.after = event.before
            event = event.prev
    return _Position(setup, state, drawn, events, base)


def _restore_native(setup: _Setup, steps: list[Step], drawn: tuple[int, ...]) -> _Position:
    native = cast(NativeGame, setup.native).initial_state()
    events: _Event | None = None
    for step in steps:
        actor = None if native.is_chance() else native.current_player()
        events = _Event(events, actor, step=step)
        apply_step(native, step)
    return _Position(setup, None, drawn, events, native=native)


class SpieltischState(pyspiel.State):  # type: ignore[misc]
    """One position of a spieltisch game, as an OpenSpiel state."""

    def __init__(self, game: SpieltischGame, state: State | None = None) -> None:
        super().__init__(game)
        setup = game.setup
        if state is None and setup.native is not None:
            self._pos = _Position(setup, None, native=setup.native.initial_state())
        else:
            self._pos = _Position(setup, setup.initial if state is None else state)

    # --- who acts ----------------------------------------------------------------------------

    @property
    def rules_state(self) -> State:
        """The spieltisch state (a chance event being dealt item by item is not applied yet)."""
        return self._pos.state

    @property
    def native_state(self) -> NativeState | None:
        """The native core's state where the native engine plays (never to be changed)."""
        return self._pos.native

    @property
    def drawn(self) -> tuple[int, ...]:
        """The items of a split chance event drawn so far (empty elsewhere)."""
        return self._pos.drawn

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id."""
        return self._pos.player

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._pos.player == TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids of ``player`` (the seat to act), in increasing order."""
        del player
        pos = self._pos
        if pos.native is not None:
            return sorted(pos.native.legal_actions())
        return pos.setup.legal_ids(pos.state)

    # --- chance ------------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every outcome of this chance node (or of this step of one) and its probability."""
        pos = self._pos
        splitter = cast(Splitter, pos.setup.splitter)
        if pos.event is not None:
            return splitter.shape_items(pos.event.shape, pos.drawn)
        if pos.split:
            return splitter.float_items(pos.state, pos.drawn)
        if pos.native is not None:
            return [(index, chance) for index, (_, chance) in enumerate(pos.native_outcomes())]
        return [(index, float(chance)) for index, (_, chance) in enumerate(pos.listed_outcomes())]

    # --- moving ------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        self._pos = self._pos.after(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        pos = self._pos
        if player == CHANCE:
            if pos.split:
                return cast(Splitter, pos.setup.splitter).item_text(int(action))
            return str(pos.listed_outcomes()[int(action)][0])
        return str(pos.setup.actions[int(action)])

    def returns(self) -> list[float]:
        """Each seat's share of the win once the game is over (zeros before): they sum to 1."""
        pos = self._pos
        if pos.player != TERMINAL:
            return [0.0] * pos.setup.players
        if pos.native is not None:
            return pos.native.returns()
        return list(pos.state.returns())

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SpieltischState:
        """A state ``player_id`` cannot tell from this one, from the game's belief sampler,
        with this state's history (see the module docstring)."""
        pos = self._pos
        setup = pos.setup
        if pos.player == CHANCE:
            raise pyspiel.SpielError("resample_from_infostate is for decision nodes")
        belief = kit_of(setup.rules).belief
        if belief is None:
            raise pyspiel.SpielError(f"{setup.rules.info.name} has no belief sampler")
        rng = random.Random(int(probability_sampler() * 2**53))
        drawn = belief.redeal(pos.state, player_id, rng)
        public = tuple(pos.lines(None))
        seats = [tuple(pos.lines(s)) if s == player_id else public for s in range(setup.players)]
        base = (*seats, public)
        sample = cast(SpieltischState, self.clone())
        sample._pos = _Position(setup, drawn, (), None, base)
        return sample

    def __str__(self) -> str:
        """The full state (hidden cards included) and the items of a split chance event."""
        pos = self._pos
        text = "\n".join(text_lines(plain_data(pos.state)))
        if pos.drawn:
            splitter = cast(Splitter, pos.setup.splitter)
            text += "\ndrawn so far: " + ", ".join(splitter.item_text(i) for i in pos.drawn)
        return text


class SpieltischObserver:
    """OpenSpiel's observer of a spieltisch game (see the module docstring): ``tensor`` is the
    encoder's observation of the seat's (or a spectator's) view, followed by the digests of
    the moves seen when the observer has perfect recall; ``dict`` names the two parts."""

    def __init__(self, game: SpieltischGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        kind = pyspiel.IIGObservationType() if iig_obs_type is None else iig_obs_type
        private = kind.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private information is not offered")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if self.private and not kind.public_info:
            raise ValueError("a private-only observer is not offered (public and private are)")
        self.public = bool(kind.public_info)
        self.recall = bool(kind.perfect_recall)
        setup = game.setup
        self._encoder = setup.encoder
        size = self._encoder.shape[0] if self.public else 0
        slots = setup.history_slots if self.recall and self.public else 0
        self.tensor = np.zeros(size + slots, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if size:
            self.dict["observation"] = self.tensor[:size]
        if slots:
            self.dict["history"] = self.tensor[size:]
        self._size = size

    def _viewer(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: SpieltischState, player: int) -> None:
        """Encode what ``player`` (or a spectator, for a public observer) knows of ``state``."""
        if not self.public:
            return
        pos = state._pos
        viewer = self._viewer(player)
        observation = self.tensor[: self._size]
        if pos.native is not None:
            observation[:] = pos.native.observation(viewer)
        else:
            observation.fill(0.0)
            self._encoder.fill(pos.state.view(viewer), cast(Out, observation.data))
        if self.recall:
            history = self.tensor[self._size :]
            history.fill(0.0)
            digests = [digest for _, digest in pos.lines(viewer)][-len(history) :]
            history[: len(digests)] = digests

    def string_from(self, state: SpieltischState, player: int) -> str:
        """What ``player`` knows of ``state`` as text: the moves seen, one a line, if the
        observer has perfect recall, then the view as one line of JSON."""
        if not self.public:
            return ""
        pos = state._pos
        viewer = self._viewer(player)
        view = compact_text(pos.state.view(viewer))
        if not self.recall:
            return view
        who = "spectator" if viewer is None else f"seat {viewer}"
        seen = [line for line, _ in pos.lines(viewer)]
        return "\n".join([who, *seen, f"view {view}"])


class SpieltischGame(pyspiel.Game):  # type: ignore[misc]
    """A spieltisch game as an OpenSpiel game (one subclass per game, see :func:`register`)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        setup = _setup(self.game_id, params or {})
        rules = setup.rules
        split = setup.splitter.items if setup.splitter else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_distinct_actions,
            max_chance_outcomes=max(MAX_LISTED_CHANCE.get(self.game_id, 1), split),
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=setup.max_length,
        )
        super().__init__(_GAME_TYPES[self.game_id], info, params or {})

    # The Python side is looked up from the parameters, not kept on the object: OpenSpiel
    # rebuilds unpickled games without calling __init__.

    @property
    def setup(self) -> _Setup:
        """What every state of this game shares (looked up once per game object)."""
        try:
            return cast(_Setup, self.__dict__["_setup"])
        except KeyError:
            setup = _setup(self.game_id, self.get_parameters())
            self.__dict__["_setup"] = setup
            return setup

    @property
    def rules(self) -> Game:
        """The spieltisch game (players and options)."""
        return self.setup.rules

    @property
    def encoder(self) -> Encoder:
        """The game's observation encoder."""
        return self.setup.encoder

    @property
    def splitter(self) -> Splitter | None:
        """The game's splitter of large chance events, if it has one."""
        return self.setup.splitter

    @property
    def history_slots(self) -> int:
        """Moves seen that the information-state tensor has room for."""
        return self.setup.history_slots

    def max_chance_nodes_in_history(self) -> int:
        """A practical bound on the chance nodes of one game (see the module docstring)."""
        return CHANCE_NODES_PER_DECISION * self.setup.max_length

    def new_initial_state(self) -> SpieltischState:
        """The state before the first move."""
        return SpieltischState(self)

    def state_of(self, state: State) -> SpieltischState:
        """An OpenSpiel state at the spieltisch state ``state`` (no history before it)."""
        return SpieltischState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpieltischObserver:
        """The observer of information states and observations."""
        return SpieltischObserver(self, iig_obs_type, params)


_GAME_TYPES: dict[str, Any] = {}
GAME_CLASSES: dict[str, type[SpieltischGame]] = {}
"""The OpenSpiel game class of each game id."""


def _game_type(game_id: str) -> Any:
    rules_class = REGISTRY.game_class(game_id)
    info = rules_class.info
    parameters: dict[str, OptionValue] = {"players": info.default_players}
    parameters.update({spec.name: spec.default for spec in info.options})
    parameters["native"] = True
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if info.hidden_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=openspiel_name(game_id),
        long_name=f"spieltisch {info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def register(game_id: str) -> type[SpieltischGame]:
    """Register ``game_id`` with OpenSpiel (once) and return its game class."""
    known = GAME_CLASSES.get(game_id)
    if known is not None:
        return known
    game_type = _game_type(game_id)
    _GAME_TYPES[game_id] = game_type
    name = "Game_" + game_id.replace("-", "_")
    game_class = type(name, (SpieltischGame,), {"game_id": game_id, "__module__": __name__})
    globals()[name] = game_class  # pickling finds the class by its module and name
    if openspiel_name(game_id) not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)
    GAME_CLASSES[game_id] = game_class
    return game_class


for _game_id in REGISTRY.implemented():
    register(_game_id)
