"""Observation encoders, one per game, keyed by game id, with a generic fallback.

:func:`encoder_for` gives the encoder of a game id: the game's own (``encode/<game>.py``) or,
for a game without one, :class:`GenericEncoder`. Each encoder's layout is documented in the
game's RL page, ``docs/rl/<game>.md``.
"""

from __future__ import annotations

from collections.abc import Callable

from spieltisch.rl.encode.auf_die_eier import EierEncoder
from spieltisch.rl.encode.auf_die_nuesse import NuesseEncoder
from spieltisch.rl.encode.auweier import AuweierEncoder
from spieltisch.rl.encode.awimbawe import AwimbaweEncoder
from spieltisch.rl.encode.base import Array, Block, Encoder, Layout
from spieltisch.rl.encode.generic import GenericEncoder

ENCODERS: dict[str, Callable[[], Encoder]] = {
    "auf-die-eier": EierEncoder,
    "auf-die-nuesse": NuesseEncoder,
    "auweier": AuweierEncoder,
    "awimbawe": AwimbaweEncoder,
}
"""Each game's own encoder, by game id."""

_BUILT: dict[str, Encoder] = {}


def encoder_for(game_id: str) -> Encoder:
    """The encoder of ``game_id`` (built once): the game's own, else the generic one."""
    encoder = _BUILT.get(game_id)
    if encoder is None:
        factory = ENCODERS.get(game_id)
        encoder = factory() if factory is not None else GenericEncoder(game_id)
        _BUILT[game_id] = encoder
    return encoder


__all__ = [
    "ENCODERS",
    "Array",
    "Block",
    "Encoder",
    "GenericEncoder",
    "Layout",
    "encoder_for",
]
