"""The research surface: spieltisch's games as PettingZoo, Gymnasium and OpenSpiel games.

Importing this package registers the Gymnasium ids (``spieltisch/Awimbawe-v0`` ...);
:mod:`spieltisch.rl.pettingzoo` holds the AEC environments, :mod:`spieltisch.rl.openspiel`
registers the OpenSpiel games, :mod:`spieltisch.rl.encode` the observation encoders,
:mod:`spieltisch.rl.batch` the batched engine (``VectorEnv``, a parallel API over a batch),
:mod:`spieltisch.rl.dataset` games as Parquet (the ``data`` extra), and
:mod:`spieltisch.rl.policy` and :mod:`spieltisch.rl.bots` the agents the catalogue seats as
``policy:FILE`` and ``openspiel-ismcts`` / ``openspiel-mcts``. Needs the
``rl`` extra (numpy, gymnasium, pettingzoo; ``openspiel`` for OpenSpiel). Like every surface
it drives a :class:`~spieltisch.session.Table` and reads views, never a true state, for what
a player observes.
"""

from spieltisch.rl.gymnasium import GYM_IDS, SpieltischGym, register_all

register_all()

__all__ = ["GYM_IDS", "SpieltischGym", "register_all"]
