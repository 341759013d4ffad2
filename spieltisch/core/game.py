"""The protocol every game speaks: metadata, options, the game factory and the state.

A game is a :class:`Game` subclass (metadata, options, the initial state, action ids) and a
:class:`State` subclass: an immutable value that says who acts (a player, chance, or nobody),
lists the legal actions or the chance outcomes, and returns a new state when a move is applied.
Player actions and chance outcomes are both *moves*: small frozen values whose ``str`` is their
canonical text and which :meth:`State.parse` reads back. Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import numbers
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeAlias, TypeVar

from spieltisch.core.codec import JSON, JSONObject, from_jsonable, to_jsonable
from spieltisch.core.errors import (
    IllegalActionError,
    InvalidActionError,
    NotEnumerableError,
    OptionError,
)

PlayerId: TypeAlias = int
"""Seat number of a player, 0-based, in clockwise order from the start player."""

Move: TypeAlias = Hashable
"""A player action or a chance outcome: a frozen value whose ``str`` is its canonical text."""

OptionValue: TypeAlias = bool | int | str


class NodeKind(enum.Enum):
    """Who acts in a state."""

    DECISION = "decision"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option: its name, default value, and a one-line meaning.

    An option with ``bounds`` is a *rule parameter*: a whole number a designer may set anywhere
    from the lower to the upper bound (both included), such as a goal score."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()
    bounds: tuple[int, int] | None = None

    @property
    def is_parameter(self) -> bool:
        """Whether this option is a numeric rule parameter (it has bounds)."""
        return self.bounds is not None

    def parse(self, text: str) -> OptionValue:
        """Read a value for this option from text (as typed after ``--option name=``)."""
        if isinstance(self.default, bool):
            lowered = text.strip().lower()
            if lowered in {"true", "yes", "on", "1"}:
                return True
            if lowered in {"false", "no", "off", "0"}:
                return False
            raise OptionError(f"option {self.name} takes true or false, not {text!r}")
        if isinstance(self.default, int):
            try:
                return self.check(int(text))
            except ValueError:
                raise OptionError(
                    f"option {self.name} takes a whole number, not {text!r}"
                ) from None
        return self.check(text)

    def check(self, value: object) -> OptionValue:
        """Return ``value`` if it has this option's type and is one of its choices."""
        if type(value) is not type(self.default):
            kind = type(self.default).__name__
            raise OptionError(f"option {self.name} takes a {kind}, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {self.name} must be one of {allowed}, not {value!r}")
        if self.bounds is not None and isinstance(value, int):
            low, high = self.bounds
            if not low <= value <= high:
                raise OptionError(
                    f"parameter {self.name} must be from {low} to {high}, not {value!r}"
                )
        return value


OPTION_META = "spieltisch_option"
"""Field metadata key under which :func:`option` keeps an option's meaning and choices."""


@dataclass(frozen=True, slots=True)
class _OptionMeta:
    help: str
    choices: tuple[OptionValue, ...]
    bounds: tuple[int, int] | None = None


def option(
    default: OptionValue,
    help: str,
    *,
    choices: tuple[OptionValue, ...] = (),
    bounds: tuple[int, int] | None = None,
) -> Any:
    """Declare a game option as a field of the game's config dataclass.

    The field's name is the option's name, ``default`` its default and ``help`` its one-line
    meaning; :func:`options_of` reads the declarations back as :class:`OptionSpec` values, so an
    option is written once, where the rules read it. ``bounds`` makes a whole-number option a
    rule parameter, checked to lie within them.
    """
    meta = _OptionMeta(help, choices, bounds)
    return dataclasses.field(default=default, metadata={OPTION_META: meta})


def options_of(config_type: type) -> tuple[OptionSpec, ...]:
    """The options declared with :func:`option` on the fields of ``config_type``, in order."""
    specs = []
    for item in dataclasses.fields(config_type):
        meta = item.metadata.get(OPTION_META)
        if isinstance(meta, _OptionMeta) and isinstance(item.default, bool | int | str):
            specs.append(OptionSpec(item.name, item.default, meta.help, meta.choices, meta.bounds))
    return tuple(specs)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's metadata, declared as data and checked by the conformance suite."""

    id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[OptionSpec, ...] = ()
    summary: str = ""
    """One line on what the game is (``spieltisch games`` shows it)."""
    has_chance: bool = True
    hidden_information: bool = False
    """Some of the state is hidden from some player: views differ, moves may be redacted."""
    min_score: int = 0
    max_score: int = 0

    def option(self, name: str) -> OptionSpec:
        """The option called ``name``; :class:`OptionError` if there is none."""
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(spec.name for spec in self.options) or "none"
        raise OptionError(f"{self.id} has no option {name!r} (options: {known})")


_Action = TypeVar("_Action", bound=Hashable)


class ActionTable(Generic[_Action]):
    """A game's player actions in id order: the one source of its three action-id methods.

    Action ids are what RL masks and trained policies are indexed by, so a game's table is
    fixed for its player count and options (a golden test pins every game's table).
    """

    __slots__ = ("_ids", "actions", "game")

    def __init__(self, actions: Sequence[_Action], game: str) -> None:
        self.actions: tuple[_Action, ...] = tuple(actions)
        self.game = game
        self._ids: dict[_Action, int] = {action: i for i, action in enumerate(self.actions)}
        if len(self._ids) != len(self.actions):
            raise ValueError(f"{game}: the action table lists an action twice")

    def __len__(self) -> int:
        return len(self.actions)

    def id_of(self, action: object) -> int:
        """The id of ``action``; :class:`InvalidActionError` if it is no listed action."""
        ids: dict[object, int] = self._ids  # type: ignore[assignment]
        try:
            found = ids.get(action)
        except TypeError:  # unhashable: certainly no action
            found = None
        if found is None or type(self.actions[found]) is not type(action):
            raise not_a_move(action, self.game, "player action")
        return found

    def action(self, action_id: object) -> _Action:
        """The action with ``action_id`` (of any integer type, numpy's too, but not a bool)."""
        return action_by_id(self.actions, action_id, self.game)


Config = TypeVar("Config", bound=Hashable)
"""A game's frozen config dataclass: ``players`` first, then its options (see :func:`option`)."""


class Game(ABC):
    """A game with a fixed number of players and fixed options: the factory of its states.

    Subclasses set :attr:`info`, :attr:`state_type` and :attr:`config_type` (a frozen dataclass
    whose first field is ``players`` and whose other fields are the options, declared with
    :func:`option`), and implement :meth:`initial_state` and :meth:`action_table`.
    ``Game(players, **options)`` raises :class:`OptionError` for a player count outside the
    declared range, an unknown option, or a value of the wrong type; the game's
    :attr:`config` holds what was chosen. States reach their game with :meth:`of`, which builds
    each distinct game once.
    """

    info: ClassVar[GameInfo]
    state_type: ClassVar[type[State]]
    config_type: ClassVar[type[Any]]

    def __init__(self, players: int | None = None, **options: object) -> None:
        info = self.info
        count = info.default_players if players is None else players
        if isinstance(count, bool) or not isinstance(count, int):
            raise OptionError(f"players must be a whole number, not {count!r}")
        if not info.min_players <= count <= info.max_players:
            raise OptionError(
                f"{info.name} takes {info.min_players} to {info.max_players} players, not {count}"
            )
        values = {spec.name: spec.default for spec in info.options}
        for name, value in options.items():
            values[name] = info.option(name).check(value)
        self.players: int = count
        self.options: Mapping[str, OptionValue] = MappingProxyType(values)
        self.config: Any = self.config_type(count, **values)

    @classmethod
    def of(cls, config: Hashable) -> Self:
        """The game of ``config`` (built once per distinct config, then shared by its states)."""
        return _game_of(cls, config)  # type: ignore[return-value]

    @property
    def score_bounds(self) -> tuple[int, int]:
        """The lowest and highest final score a player can have in this game (its options and
        parameters may move them from the defaults' bounds in :attr:`info`)."""
        return (self.info.min_score, self.info.max_score)

    def __repr__(self) -> str:
        changed = [
            f"{k}={v!r}" for k, v in self.options.items() if v != self.info.option(k).default
        ]
        args = ", ".join([f"players={self.players}", *changed])
        return f"load({self.info.id!r}, {args})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.info.id == self.info.id
            and other.players == self.players
            and dict(other.options) == dict(self.options)
        )

    def __hash__(self) -> int:
        return hash((self.info.id, self.players, tuple(sorted(self.options.items()))))

    @abstractmethod
    def initial_state(self) -> State:
        """The state before the first move (often a chance node: a deal or a roll)."""

    @abstractmethod
    def action_table(self) -> ActionTable[Any]:
        """Every player action of this game in id order (build it once; it is asked often)."""

    @property
    def num_distinct_actions(self) -> int:
        """The number of player-action ids: every action's id is in ``range(this)``."""
        return len(self.action_table())

    def action_id(self, action: Move) -> int:
        """The stable integer id of a listed player action (for RL masks);
        :class:`InvalidActionError` for anything else."""
        return self.action_table().id_of(action)

    def action_from_id(self, action_id: object) -> Move:
        """The player action with this id; :class:`InvalidActionError` for an unknown id."""
        action: Move = self.action_table().action(action_id)
        return action

    def state_from_json(self, data: JSON) -> State:
        """Rebuild a state written by :meth:`State.to_json`; :class:`ValueError` if malformed."""
        if not isinstance(data, dict) or data.get("game") != self.info.id:
            raise ValueError(f"not a {self.info.id} state")
        state = from_jsonable(self.state_type, data.get("state"))
        if state.game != self:
            raise ValueError(f"state is for {state.game!r}, not {self!r}")
        return state


@functools.cache
def _game_of(game_type: type[Game], config: Hashable) -> Game:
    """The game of ``game_type`` with the players and options of ``config`` (cached)."""
    fields = dataclasses.fields(config)  # type: ignore[arg-type]
    options = {item.name: getattr(config, item.name) for item in fields[1:]}
    players: int = getattr(config, "players")  # noqa: B009 - any config type
    return game_type(players, **options)


@dataclass(frozen=True, slots=True)
class Hidden:
    """A move as shown to a viewer who may not see it: what happened, not what it was.

    ``what`` says it in words (``"arranged a card of their deck"``); ``text`` is the move's
    notation with the secret part blanked (``"deck (hidden)"``, ``"pick ??"``), as a log
    shows it; ``shown`` is what the viewer does see of it, where that is more than nothing
    (their own cards of a deal), as a value of the game's choosing.
    """

    what: str
    text: str
    shown: Hashable = None

    def __str__(self) -> str:
        return self.text


Seen: TypeAlias = "Move | Hidden"
"""A move as one viewer may see it: the move itself, or a :class:`Hidden` placeholder."""


class State:
    """One position of a game: an immutable value; :meth:`apply` returns a new state.

    States compare equal when every field is equal, hash, and serialise with :meth:`to_json`.
    The abstract methods are marked for mypy but not enforced at run time (no ``ABCMeta``).
    """

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game (player count and options) this state belongs to."""

    @property
    @abstractmethod
    def node(self) -> NodeKind:
        """Whether a player, chance, or nobody (the game is over) acts next."""

    @abstractmethod
    def current_player(self) -> PlayerId | None:
        """The player to act, or ``None`` at chance nodes and at the end."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Move]:
        """The current player's legal actions, in increasing order of their action ids (empty
        unless this is a decision).

        A game may also accept in :meth:`apply` a documented compound action that stands for
        a run of listed ones (a whole Auweier deck order typed in one line); such a typing aid
        is never listed and has no action id.
        """

    @abstractmethod
    def chance_outcomes(self) -> Sequence[tuple[Move, Fraction]]:
        """Every chance outcome with its exact probability (positive, summing to 1).

        Empty unless this is a chance node; raises :class:`NotEnumerableError` for events too
        large to list, which must still be sampled with :meth:`sample_chance`.
        """

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Move:
        """Draw one chance outcome with its true probability, using only ``rng``."""

    @abstractmethod
    def apply(self, move: Move) -> State:
        """The state after ``move`` (an action at a decision node, an outcome at a chance node).

        Raises :class:`IllegalActionError`, naming the rule, if the move is not allowed here,
        and :class:`InvalidActionError` for a value that is no move of this game at all; this
        state is never changed.
        """

    @abstractmethod
    def parse(self, text: str) -> Move:
        """Read a move from text at this state (canonical text and any documented aliases).

        Raises :class:`InvalidActionError` for text that is not a move of this game; legality
        is checked by :meth:`apply`.
        """

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Each player's points so far (final points once the game is over)."""

    @abstractmethod
    def winners(self) -> frozenset[PlayerId]:
        """The winning players once the game is over (several on a shared win); else empty."""

    @abstractmethod
    def view(self, player: PlayerId | None) -> object:
        """What ``player`` may see (``None``: a spectator), as a frozen dataclass.

        The view holds nothing the player may not know; :func:`to_jsonable` turns it into JSON.
        """

    def seen_move(self, move: Move, viewer: PlayerId | None) -> Move | Hidden:
        """``move``, about to be applied here, as ``viewer`` may see it (``None``: a
        spectator): the move itself, or a :class:`Hidden` placeholder when it is secret."""
        del viewer
        return move

    @property
    def num_players(self) -> int:
        """The number of players."""
        return self.game.players

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.node is NodeKind.TERMINAL

    def is_chance(self) -> bool:
        """True when chance acts next (a roll, a shuffle, a deal, a blind pick)."""
        return self.node is NodeKind.CHANCE

    def returns(self) -> tuple[float, ...]:
        """Each player's share of the win: 1 split equally among the winners, else 0."""
        winners = self.winners()
        share = 1.0 / len(winners) if winners else 0.0
        return tuple(share if p in winners else 0.0 for p in range(self.num_players))

    def apply_text(self, text: str) -> State:
        """Parse ``text`` here and apply it."""
        return self.apply(self.parse(text))

    def clone(self) -> State:
        """An equal state. States are immutable, so this is the state itself."""
        return self

    def to_json(self) -> JSONObject:
        """The state as JSON data; ``game.state_from_json`` reads it back."""
        game = self.game
        return {
            "game": game.info.id,
            "players": game.players,
            "options": dict(game.options),
            "state": to_jsonable(self),
        }


def check_enumerable(count: int, limit: int, what: str) -> None:
    """Raise :class:`NotEnumerableError` when ``count`` outcomes are more than ``limit``."""
    if count > limit:
        raise NotEnumerableError(f"{what} has {count} outcomes; sample it instead")


def illegal(move: Move, rule: str, detail: str = "") -> IllegalActionError:
    """An :class:`IllegalActionError` for ``move`` naming ``rule`` (to be raised by a game)."""
    return IllegalActionError(str(move), rule, detail)


def not_a_move(value: object, game: str, what: str = "move") -> InvalidActionError:
    """An :class:`InvalidActionError` for a value that is no ``what`` of ``game`` at all."""
    return InvalidActionError(f"{value!r} is no {what} of {game}")


_Listed = TypeVar("_Listed")


def action_by_id(table: Sequence[_Listed], action_id: object, game: str) -> _Listed:
    """``table[action_id]`` for an id of any integer type in range (numpy's integers too, as
    RL libraries hand them out, but not a bool); for anything else the
    :class:`InvalidActionError` of :func:`not_a_move`. The shared body of
    :meth:`Game.action_from_id`."""
    if type(action_id) is not bool and isinstance(action_id, numbers.Integral):
        index = int(action_id)
        if 0 <= index < len(table):
            return table[index]
    raise not_a_move(action_id, game, f"action id (0 to {len(table) - 1})")


MAX_MOVE_TEXT = 300
"""The longest text any game's notation reads as one move (a whole Auweier deck fits)."""
QUOTED = 40
"""How much of a refused text an error message quotes."""


def check_length(text: str) -> None:
    """Refuse text longer than :data:`MAX_MOVE_TEXT` unread, quoting only its start."""
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidActionError(
            f"cannot read {text[:QUOTED]!r}…: a move is at most {MAX_MOVE_TEXT} characters"
        )


def invalid(text: str, expected: str) -> InvalidActionError:
    """An :class:`InvalidActionError` for ``text``, saying what was expected instead (quoting
    at most :data:`QUOTED` characters of it)."""
    shown = repr(text) if len(text) <= QUOTED else f"{text[:QUOTED]!r}…"
    return InvalidActionError(f"cannot read {shown}: expected {expected}")
