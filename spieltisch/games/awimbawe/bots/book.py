"""Awimbawé's book of set moves: decisions search need not think about.

The one decision that changes nothing: a cheetah played in the last trick of a round names a
leader for a trick that will never be played. Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spieltisch.core.game import Move
from spieltisch.games.awimbawe.model import Stage
from spieltisch.games.awimbawe.notation import LEAD_ME
from spieltisch.games.awimbawe.view import AwimbaweView


def book(view: object, legal: Sequence[Move], rng: random.Random | None = None) -> Move | None:
    """The set moves of Awimbawé: a cheetah played in the last trick of a round names a
    leader for a trick that will never be played (``lead me``); everything else is left to
    thought. (Nothing here is left to chance, so ``rng`` is not used.)"""
    del rng
    if not isinstance(view, AwimbaweView) or view.stage is not Stage.CHEETAH:
        return None
    cards_left = sum(s.hand_size + sum(len(p) for p in s.piles) for s in view.sides)
    return LEAD_ME if not cards_left and LEAD_ME in legal else None


__all__ = ["book"]
