"""The native core: the four games' rules in Rust, driven from Python.

``native.load("awimbawe")`` gives the game in the native core beside its Python game;
its states take one call per step and play whole random games inside Rust
(:meth:`NativeGame.playouts`), and it searches from a view there (:meth:`NativeGame.search`,
the ISMCTS of ``spieltisch.agents.ismcts``, for a game whose converter packs beliefs). The
Python engine stays the reference and the fallback: every native step agrees with it (the
agreement test), and :func:`available` says whether this installation has the native core at
all (:func:`status` says it in words).
"""

from spieltisch.native.build import available, games, status
from spieltisch.native.face import (
    Code,
    NativeGame,
    NativeState,
    Playouts,
    Rng,
    SearchChoice,
    Searched,
    Step,
    apply_step,
    converter,
    load,
)
from spieltisch.native.rollout import register as _register_rollout

_register_rollout()  # the Auf die Nüsse! rollout agent plays its futures here where it can

__all__ = [
    "Code",
    "NativeGame",
    "NativeState",
    "Playouts",
    "Rng",
    "SearchChoice",
    "Searched",
    "Step",
    "apply_step",
    "available",
    "converter",
    "games",
    "load",
    "status",
]
