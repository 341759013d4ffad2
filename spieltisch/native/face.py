"""The native core as Python code uses it: :func:`load` a game, step its states, play out.

A :class:`NativeGame` pairs a Python game (the reference: its options are checked there first)
with the same game in Rust. Its states are the extension's: changed in place by one call per
step (``apply(action_id)``, ``apply_chance(code)``), copied by ``clone()``, asked
``legal_actions()``, ``chance_outcomes()``, ``observation(seat)``, ``returns()``. A step's
action id is the Python game's (``game.action_id``); a chance outcome is a tuple of small
integers, its *code*, which each game's converter (``spieltisch/native/<game>.py``) turns into
the Python game's chance move and back. So any Python game's moves replay natively
(:meth:`NativeGame.from_moves`, :meth:`NativeGame.from_record`) and any native state's history
replays in Python (:meth:`NativeGame.to_python`). :meth:`NativeGame.search` runs the ISMCTS
of :mod:`spieltisch.agents.ismcts` inside Rust from a view the converter packs.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from spieltisch.core.errors import NativeError
from spieltisch.core.game import Game, Move, OptionValue, State
from spieltisch.core.record import Record
from spieltisch.games import REGISTRY
from spieltisch.native.build import extension

Code = tuple[int, ...]
"""A chance outcome as the native core writes it."""
Step = int | Code
"""A step of a native history: an action id, or a chance outcome's code."""


class Converter(Protocol):
    """What each game's module in this package provides (see the package docstring); a game
    with typing aids (moves that stand for several listed actions, with no action id) also
    has ``expand(state, move) -> tuple[Move, ...]``, the listed actions in order, and a game
    the native core can search has ``belief_code(view) -> Code``, the deciding seat's view
    packed for the game's native belief sampler."""

    def chance_code(self, state: Any, move: Move) -> Code: ...

    def chance_move(self, state: Any, code: Sequence[int]) -> Move: ...

    def canonical(self, state: Any) -> Code: ...


CONVERTERS = {
    "auf-die-eier": "spieltisch.native.auf_die_eier",
    "auf-die-nuesse": "spieltisch.native.auf_die_nuesse",
    "auweier": "spieltisch.native.auweier",
    "awimbawe": "spieltisch.native.awimbawe",
}
"""Each game's converter module, by game id."""


def converter(game_id: str) -> Converter:
    """The converter of ``game_id``; :class:`NativeError` for a game the core does not play."""
    name = CONVERTERS.get(game_id)
    if name is None:
        raise NativeError(f"the native core has no game {game_id!r}")
    module: ModuleType = importlib.import_module(name)
    return module  # a module with the three functions


class NativeState(Protocol):
    """A state of the extension (every game's state class has these methods)."""

    def current_player(self) -> int | None: ...
    def is_chance(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> None: ...
    def child(self, action: int) -> NativeState: ...
    def chance_outcomes(self) -> list[tuple[Code, float]]: ...
    def exact_chance_outcomes(self) -> list[tuple[Code, int, int]]: ...
    def sample_chance(self, rng: Any) -> Code: ...
    def apply_chance(self, code: Sequence[int]) -> None: ...
    def apply_random_chance(self, rng: Any) -> None: ...
    def observation(self, seat: int | None = None) -> Any: ...
    def returns(self) -> list[float]: ...
    def scores(self) -> list[int]: ...
    def winners(self) -> list[int]: ...
    def canonical(self) -> Code: ...
    def history(self) -> list[Step]: ...
    def clone(self) -> NativeState: ...
    def __len__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Playouts:
    """What :meth:`NativeGame.playouts` gives: each playout's returns (a ``count x players``
    numpy array), its number of steps (actions and chance outcomes) and, on request, the steps
    themselves, from the state it started at."""

    returns: Any
    steps: Any
    records: list[list[Step]] | None


def check_seed(seed: object) -> None:
    """Refuse anything but a whole number from 0 to 2**64 - 1 (:class:`ValueError`)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")


def Rng(seed: int) -> Any:  # noqa: N802 - reads as the class it builds
    """A seeded random generator for chance steps driven from Python (PCG-64, in Rust)."""
    check_seed(seed)
    return extension().NativeRng(seed)


@functools.lru_cache(maxsize=256)
def _native_game(
    game_id: str,
    players: int,
    options: tuple[tuple[str, OptionValue], ...],
    mutation: str | None,
) -> Any:
    """The extension's game of these players and options, built once: its states share it, so
    a state and a game of equal options belong together (``playouts(state=...)``)."""
    return extension().new_game(game_id, players, list(options), mutation)


class NativeGame:
    """One game with fixed players and options in the native core, beside its Python game.

    ``mutation`` names a deliberately broken native rule: for the test of the agreement test
    only, never for play."""

    __slots__ = ("convert", "native", "python")

    def __init__(self, python: Game, mutation: str | None = None) -> None:
        extension()  # says how to get the native core when it is missing
        self.python = python
        self.convert = converter(python.info.id)
        options = tuple(python.options.items())
        self.native: Any = _native_game(python.info.id, python.players, options, mutation)

    def __repr__(self) -> str:
        return f"native.{self.python!r}"

    @property
    def players(self) -> int:
        """The number of players."""
        return self.python.players

    @property
    def num_distinct_actions(self) -> int:
        """The number of player-action ids (the Python game's action table's length)."""
        count: int = self.native.num_distinct_actions
        return count

    @property
    def observation_size(self) -> int:
        """The length of one seat's observation (the game's RL encoder's shape)."""
        size: int = self.native.observation_size
        return size

    def initial_state(self) -> NativeState:
        """The state before the first move."""
        state: NativeState = self.native.initial_state()
        return state

    def step_of(self, state: State, move: Move) -> Step:
        """The native step of the Python ``move`` at the Python ``state``."""
        if state.is_chance():
            return self.convert.chance_code(state, move)
        return self.python.action_id(move)

    def from_moves(self, moves: Iterable[Move | str]) -> tuple[NativeState, State]:
        """The native and the Python state after ``moves`` (moves, or their texts, read at
        each state) from the start, each applied to both; an illegal move raises the Python
        engine's error, naming its rule."""
        python = self.python.initial_state()
        native = self.initial_state()
        expand = getattr(self.convert, "expand", None)
        for given in moves:
            move = python.parse(given) if isinstance(given, str) else given
            for listed in (move,) if expand is None else expand(python, move):
                step = self.step_of(python, listed)
                python = python.apply(listed)
                apply_step(native, step)
        return native, python

    def from_record(self, record: Record) -> NativeState:
        """The native state at the end of ``record`` (a game of this game's players and
        options); the Python engine re-validates every move on the way."""
        if (
            record.game != self.python.info.id
            or record.players != self.players
            or dict(record.options) != dict(self.python.options)
        ):
            raise NativeError(
                f"the record is for {record.game} with {record.players} players and options "
                f"{dict(record.options)}, not {self!r}"
            )
        native, _ = self.from_moves(record.moves)
        return native

    def to_python(self, native: NativeState) -> State:
        """The Python state with ``native``'s history (every step re-validated in Python)."""
        return self.replay(native.history())

    def replay(self, steps: Iterable[Step]) -> State:
        """The Python state after native ``steps`` (action ids and chance codes)."""
        state = self.python.initial_state()
        for step in steps:
            state = state.apply(self.move_of(state, step))
        return state

    def move_of(self, state: State, step: Step) -> Move:
        """The Python move of a native step at the Python ``state``."""
        if isinstance(step, tuple):
            if not state.is_chance():
                raise NativeError("a chance code where a player acts")
            return self.convert.chance_move(state, step)
        if state.is_chance():
            raise NativeError("an action id where chance acts")
        return self.python.action_from_id(step)

    def playouts(
        self,
        count: int,
        seed: int,
        *,
        state: NativeState | None = None,
        threads: int = 1,
        records: bool = False,
    ) -> Playouts:
        """``count`` uniformly random playouts from ``state`` (the start by default) inside
        Rust, on ``threads`` threads; playout ``i`` depends only on ``seed`` and ``i``."""
        check_seed(seed)
        if count < 0 or count > MAX_PLAYOUTS:
            raise ValueError(f"count must be from 0 to {MAX_PLAYOUTS}, not {count}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be from 1 to {MAX_THREADS}, not {threads}")
        start = self.initial_state() if state is None else state
        returns, steps, kept = self.native.playouts(start, count, seed, threads, records)
        return Playouts(returns, steps, kept)

    @property
    def searches(self) -> bool:
        """Whether the native core can search this game: its converter packs beliefs (and
        the extension is recent enough to search at all)."""
        return hasattr(self.convert, "belief_code") and hasattr(self.native, "search")

    def belief_code(self, view: object) -> Code | None:
        """The native belief of the deciding seat's ``view`` (what :meth:`search` samples
        worlds from), or ``None`` for a game whose converter packs no belief (search is then
        not native for it)."""
        pack = getattr(self.convert, "belief_code", None)
        return None if pack is None else tuple(pack(view))

    def search(
        self,
        view: object,
        legal: Sequence[Move],
        *,
        seed: int,
        iterations: int | None = None,
        seconds: float | None = None,
        threads: int = 1,
        exploration: float | None = None,
        tree_depth: int | None = None,
    ) -> Searched:
        """ISMCTS inside Rust from ``view`` among the Python moves ``legal``: the algorithm of
        :mod:`spieltisch.agents.ismcts`, within ``iterations`` or ``seconds`` (one of the
        two), on ``threads`` independent trees whose root statistics are summed. The same
        seed, threads and iteration budget give the same result. ``exploration`` and
        ``tree_depth`` override the game's hints. :class:`NativeError` for a game whose
        converter packs no belief; the native core's refusals as the Python engine's errors
        (``InvalidActionError`` for a belief or a move it cannot read, ``OptionError`` for a
        budget or setting out of bounds)."""
        check_seed(seed)
        code = self.belief_code(view)
        if code is None or not self.searches:
            raise NativeError(f"the native core cannot search {self.python.info.id} yet")
        ids = [self.python.action_id(move) for move in legal]
        by_id = dict(zip(ids, legal, strict=True))
        found, took, rated = self.native.search(
            code,
            ids,
            iterations=iterations,
            seconds=seconds,
            seed=seed,
            threads=threads,
            exploration=exploration,
            tree_depth=tree_depth,
        )
        choices = tuple(SearchChoice(by_id[id_], visits, mean) for id_, visits, mean in rated)
        return Searched(found, took, choices)


@dataclass(frozen=True, slots=True)
class SearchChoice:
    """How a native search rated one root choice (a Python move)."""

    action: Move
    visits: int
    mean_return: float


@dataclass(frozen=True, slots=True)
class Searched:
    """What :meth:`NativeGame.search` gives: the iterations run (over every tree), the
    seconds it took and every legal move rated, most visited first (then the higher mean,
    then in the order of ``legal``): the ranking of the Python search."""

    iterations: int
    seconds: float
    choices: tuple[SearchChoice, ...]


MAX_PLAYOUTS = 10_000_000
"""The most playouts one call plays (their returns are kept in memory)."""
MAX_THREADS = 256
MAX_SEARCH_THREADS = 64
"""The most trees one native search grows side by side."""


def apply_step(native: NativeState, step: Step) -> None:
    """Apply a native step (an action id or a chance code) in place."""
    if isinstance(step, tuple):
        native.apply_chance(step)
    else:
        native.apply(step)


def load(game_id: str, players: int | None = None, **options: OptionValue) -> NativeGame:
    """The native game ``game_id`` for ``players`` players with ``options`` (checked by the
    Python game: :class:`OptionError` as :func:`spieltisch.load` raises it), or
    :class:`NativeError` when the native core is not installed."""
    return NativeGame(REGISTRY.game_class(game_id)(players, **options))


__all__ = [
    "CONVERTERS",
    "Code",
    "Converter",
    "NativeGame",
    "NativeState",
    "Playouts",
    "Rng",
    "SearchChoice",
    "Searched",
    "Step",
    "apply_step",
    "converter",
    "load",
]
