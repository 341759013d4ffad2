"""The research surface: spieltisch's games as PettingZoo, Gymnasium and OpenSpiel games.

Importing this package registers the Gymnasium ids (``spieltisch/Awimbawe-v0`` ...) where
Gymnasium is installed; :mod:`spieltisch.rl.pettingzoo` holds the AEC environments,
:mod:`spieltisch.rl.openspiel` registers the OpenSpiel games, :mod:`spieltisch.rl.encode` the
observation encoders, :mod:`spieltisch.rl.batch` the batched engine (``VectorEnv``, a parallel
API over a batch), :mod:`spieltisch.rl.dataset` games as Parquet (the ``data`` extra), and
:mod:`spieltisch.rl.policy`, :mod:`spieltisch.rl.learned` and :mod:`spieltisch.rl.bots` the
agents the catalogue seats as ``policy:FILE``, ``learned`` and ``openspiel-ismcts`` /
``openspiel-mcts``. Needs the ``rl`` extra (numpy, gymnasium, pettingzoo; ``openspiel`` for
OpenSpiel), except for the trained policies, which play with numpy alone (so a server without
the extra seats them too). Like every surface it drives a :class:`~spieltisch.session.Table`
and reads views, never a true state, for what a player observes.
"""

from __future__ import annotations

try:
    from spieltisch.rl.gymnasium import GYM_IDS, SpieltischGym, register_all  # lazy: gymnasium
except ModuleNotFoundError as missing:  # a server without the rl extra still seats policies
    if missing.name != "gymnasium":
        raise

    def __getattr__(name: str) -> object:
        if name in {"GYM_IDS", "SpieltischGym", "register_all"}:
            raise ModuleNotFoundError(
                f'spieltisch.rl.{name} needs gymnasium: pip install "spieltisch[rl]"'
            ) from None
        raise AttributeError(f"module 'spieltisch.rl' has no attribute {name!r}")

else:
    register_all()

__all__ = ["GYM_IDS", "SpieltischGym", "register_all"]
