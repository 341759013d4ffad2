"""Readable playthroughs: a seeded random game written move by move, for golden files.

For every step the text shows who acts, the legal actions (or the number of chance outcomes),
what each player sees (one spectator view when nothing is hidden) and the move made. A golden
file is such a text; tests regenerate it and compare line by line, and
``scripts/regen_golden.py`` rewrites the files after an intended rule change.
"""

from __future__ import annotations

import json
import random

from spieltisch.core.codec import to_jsonable
from spieltisch.core.errors import NotEnumerableError
from spieltisch.core.game import Game, State
from spieltisch.lab.play import derive_seed


def _view_lines(state: State) -> list[str]:
    game = state.game
    viewers: list[int | None] = (
        list(range(game.players)) if game.info.hidden_information else [None]
    )
    lines = []
    for viewer in viewers:
        data = json.dumps(to_jsonable(state.view(viewer)), ensure_ascii=False, sort_keys=True)
        lines.append(f"  view {'all' if viewer is None else viewer}: {data}")
    return lines


def _choices_line(state: State) -> str:
    player = state.current_player()
    if player is None:
        try:
            count = str(len(state.chance_outcomes()))
        except NotEnumerableError:
            count = "too many to list"
        return f"  chance: {count} outcomes"
    legal = state.legal_actions()
    return f"  player {player}: {len(legal)} legal: " + " | ".join(str(a) for a in legal)


def playthrough(game: Game, seed: int) -> str:
    """A random game of ``game`` from ``seed``, written out step by step."""
    options = json.dumps(dict(game.options), sort_keys=True)
    lines = [
        f"game: {game.info.id}",
        f"players: {game.players}",
        f"options: {options}",
        f"seed: {seed}",
    ]
    chance = random.Random(seed)
    choose = random.Random(derive_seed(seed, "actions"))
    state = game.initial_state()
    step = 0
    while not state.is_terminal():
        lines.append(f"step {step}")
        lines.append(_choices_line(state))
        lines.extend(_view_lines(state))
        if state.is_chance():
            move = state.sample_chance(chance)
        else:
            legal = state.legal_actions()
            move = legal[choose.randrange(len(legal))]
        lines.append(f"  move: {move}")
        state = state.apply(move)
        step += 1
    lines.append("end")
    lines.extend(_view_lines(state))
    lines.append(f"  scores: {list(state.scores())}")
    lines.append(f"  winners: {sorted(state.winners())}")
    return "\n".join(lines) + "\n"
