"""The Auf die Nüsse! rollout agent's futures played in the native core.

:func:`weigh` answers what the Python reference
(:func:`spieltisch.games.auf_die_nuesse.bots.rollout.weigh`) answers, from the view's belief
code, some three hundred times faster; :func:`register` hands it to the agent (the games sit
below the native core and cannot import it), and ``spieltisch.native`` registers it when it
is loaded where the built core has it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from spieltisch.core.game import Game, Move
from spieltisch.games.auf_die_nuesse.bots import rollout
from spieltisch.games.auf_die_nuesse.view import NuesseView
from spieltisch.native.auf_die_nuesse import belief_code
from spieltisch.native.build import available, extension, games
from spieltisch.native.face import NativeGame


def supported() -> bool:
    """Whether the installed native core weighs the rollout agent's moves."""
    return available() and "auf-die-nuesse" in games() and hasattr(extension(), "nuesse_rollout")


@functools.lru_cache(maxsize=16)
def _native(game: Game) -> NativeGame:
    return NativeGame(game)


def weigh(
    view: NuesseView,
    legal: Sequence[Move],
    rollouts: int,
    seed: int,
    horizon: int = rollout.HORIZON,
) -> tuple[Move, list[tuple[Move, float]]]:
    """The rollout agent's move at ``view`` among ``legal`` and what each weighed move won,
    its futures played in the native core to the start of turn ``horizon``."""
    native = _native(rollout.game_of(view))
    game = native.python
    chosen, means = extension().nuesse_rollout(
        native.native, list(belief_code(view)), rollouts, seed & ((1 << 64) - 1), horizon
    )
    by_id = {game.action_id(move): move for move in legal}
    return by_id[chosen], [(by_id[action], share) for action, share in means]


def register() -> None:
    """Let the rollout agent play its futures here, where the core can."""
    if supported():
        rollout.use_faster(weigh)


__all__ = ["register", "supported", "weigh"]
