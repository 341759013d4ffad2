"""Features of action ids, for learners whose action head scores actions by what they do.

A game with many action ids that share structure can say what each id does as a row of
features; a learner then computes one weight row per feature instead of one per id (a
factored head: ``logits = features @ (W h + b)``), so what it learns about one action carries
over to every action that shares a feature. :func:`action_features` gives the table of a game,
or ``None`` for a game whose ids are few or unrelated (its learner keeps one logit per id).
The tables are documented in each game's RL page.
"""

from __future__ import annotations

import numpy as np

from spieltisch.core.game import Game
from spieltisch.rl.encode import Array

DICE = 9
"""Dice in Auf die Eier."""


def eier_action_features(game: Game) -> Array:
    """Auf die Eier: one row per action id. Column 0 is ``stop``; then, for each face a
    re-roll may throw (W C P F H, in the notation's order), nine one-hot columns for how many
    dice of that face are thrown again (1 to 9); then nine one-hot columns for how many dice
    are thrown in all. Every id has a row of its own (a re-roll is its counts per face)."""
    rerolls = [
        getattr(game.action_from_id(i), "dice", None) for i in range(len(game.action_table()))
    ]
    faces = [
        f for f in range(len(rerolls[1] or ())) if any(d is not None and d[f] for d in rerolls)
    ]
    table = np.zeros((len(rerolls), 1 + (len(faces) + 1) * DICE), np.float32)
    for action_id, dice in enumerate(rerolls):
        if dice is None:
            table[action_id, 0] = 1.0
            continue
        for column, face in enumerate(faces):
            if dice[face]:
                table[action_id, 1 + column * DICE + dice[face] - 1] = 1.0
        table[action_id, 1 + len(faces) * DICE + sum(dice) - 1] = 1.0
    return table


def action_features(game: Game) -> Array | None:
    """The feature table of ``game``'s action ids (rows in id order), or None."""
    if game.info.id == "auf-die-eier":
        return eier_action_features(game)
    return None
