"""The native batch under :mod:`spieltisch.rl.batch`: which engine a batch uses, and the
native one's setup, seeds and replays.

The native core's ``NativeBatch`` steps N games inside Rust (chance, and with a learner seat
the random opponents, played there too) and writes observations, masks, seats, rewards and
flags into numpy arrays it owns; the batch faces hand those arrays out as themselves. It draws
chance with its own generator (PCG-64), so its games at a seed are not the Python engine's
games at that seed. What holds instead, and is tested step by step for every game:

* row ``i`` of a native batch reset with ``seed`` plays the games of row 0 of a native batch
  reset with ``seed + i``, whatever the batch's size and threads;
* every native row's steps (``record=True``) replay in the Python engine, and at every step
  the Python engine's observation, mask, seat to move and final rewards are the native ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from spieltisch import native
from spieltisch.core.errors import NativeError, OptionError
from spieltisch.core.game import Game, State
from spieltisch.native.build import extension
from spieltisch.rl.match import Reward

SEED_LIMIT = 2**64
"""Row seeds are whole numbers below this."""


def use_native(game: Game, wanted: bool | None) -> bool:
    """Whether a batch of ``game`` runs natively: ``wanted`` (``None``: wherever the native
    core plays the game); :class:`NativeError` if it is forced and the core cannot."""
    here = (
        native.available()
        and game.info.id in native.games()
        and hasattr(extension(), "NativeBatch")  # an extension built before the batch has none
    )
    if wanted is None:
        return here
    if wanted and not here:
        raise NativeError(f"the native core does not play {game.info.id} in this installation")
    return wanted


def native_batch(
    game: Game,
    num_envs: int,
    reward: Reward,
    seats: str | int,
    threads: int,
    record: bool,
) -> Any:
    """The native core's batch of ``game`` (its players and options): ``seats`` ``"all"`` (each
    row shows its seat to move), ``"rotate"`` or a learner's seat (the others random)."""
    if not 1 <= threads <= 256:
        raise OptionError(f"threads must be from 1 to 256, not {threads}")
    low, high = game.score_bounds
    return extension().NativeBatch(
        game.info.id,
        game.players,
        list(game.options.items()),
        num_envs,
        reward.value,
        float(max(1, high - low)),
        seats,
        threads,
        record,
    )


def row_seeds(seeds: Sequence[int | None], seeder: np.random.Generator) -> npt.NDArray[np.uint64]:
    """Each row's seed: the given one, or one drawn from ``seeder`` where it is ``None``."""
    drawn = [
        int(seeder.integers(SEED_LIMIT, dtype=np.uint64)) if s is None else s % SEED_LIMIT
        for s in seeds
    ]
    return np.array(drawn, np.uint64)


def replay(game: Game, steps: Sequence[int | tuple[int, ...]]) -> State:
    """The Python state after a native row's ``steps`` (every step re-validated there)."""
    return native.NativeGame(game).replay(steps)


def only_random(specs: Sequence[str]) -> bool:
    """Whether every opponent is the random agent (which a native batch plays inside Rust)."""
    return all(spec == "random" for spec in specs)


__all__ = ["SEED_LIMIT", "native_batch", "only_random", "replay", "row_seeds", "use_native"]
